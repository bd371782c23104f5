/* fuzz_json.c — libFuzzer harness for the JSON reader (io/fl_json.c):
 * fl_json_load, then every typed accessor on every member of the top
 * level and of nested objects (two levels), which also drives the position
 * finder that locates a member in the text for error messages.  See
 * fuzz_input.h for the contract. */
#include "fuzz_input.h"
#include "fl_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every accessor on member `key` of obj; errors are expected, aborts not. */
static void members(const fl_json_doc *doc, const json_t *obj, const char *where, int depth)
{
    const char *key;
    json_t *v;
    size_t count = 0;
    json_object_foreach((json_t *)obj, key, v) {
        if (count++ > 64) break;
        fl_error err;
        double x;
        long l;
        const char *str;
        int b;
        const json_t *o;
        gsl_vector *vec = NULL;
        gsl_matrix *mat = NULL;
        fl_error_clear(&err);
        fuzz_check_status(fl_json_number(doc, obj, where, key, &x, &err), &err);
        fl_error_clear(&err);
        fuzz_check_status(fl_json_integer(doc, obj, where, key, &l, &err), &err);
        fl_error_clear(&err);
        fuzz_check_status(fl_json_string(doc, obj, where, key, &str, &err), &err);
        fl_error_clear(&err);
        fuzz_check_status(fl_json_bool(doc, obj, where, key, &b, &err), &err);
        fl_error_clear(&err);
        fl_status s = fl_json_vector(doc, obj, where, key, 0, &vec, &err);
        fuzz_check_error(s, &err, vec);
        gsl_vector_free(vec);
        fl_error_clear(&err);
        s = fl_json_vector(doc, obj, where, key, 3, &vec, &err);
        fuzz_check_error(s, &err, vec);
        gsl_vector_free(vec);
        fl_error_clear(&err);
        s = fl_json_matrix(doc, obj, where, key, 0, 0, &mat, &err);
        fuzz_check_error(s, &err, mat);
        gsl_matrix_free(mat);
        fl_error_clear(&err);
        s = fl_json_matrix(doc, obj, where, key, 2, 2, &mat, &err);
        fuzz_check_error(s, &err, mat);
        gsl_matrix_free(mat);
        fl_error_clear(&err);
        fuzz_check_status(fl_json_number_or(doc, obj, where, key, 1.0, &x, &err), &err);
        fl_error_clear(&err);
        (void)fl_json_error(doc, obj, where, key, &err, FL_EINVAL, "fuzz %d", 1);
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", where, where[0] ? "." : "", key);
        fl_error_clear(&err);
        if (depth < 2 && fl_json_object(doc, obj, where, key, &o, &err) == FL_OK)
            members(doc, o, sub, depth + 1);
        fl_error_clear(&err);
        if (depth < 2 && fl_json_array(doc, obj, where, key, 0, &o, &err) == FL_OK) {
            for (size_t i = 0; i < json_array_size(o) && i < 8; i++) {
                const json_t *e = json_array_get(o, i);
                char esub[300];
                snprintf(esub, sizeof esub, "%s[%zu]", sub, i);
                if (json_is_object(e)) members(doc, e, esub, depth + 1);
                else (void)fl_json_error(doc, e, esub, NULL, &err, FL_EINVAL, "fuzz");
            }
        }
    }
    /* a missing member: the report points at obj itself */
    fl_error err;
    double x;
    fl_error_clear(&err);
    fuzz_check_status(fl_json_number(doc, obj, where, "\x01missing", &x, &err), &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".json");
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_json_load(path, &doc, &err);
    fuzz_check_error(s, &err, doc);
    if (doc) {
        members(doc, doc->root, "", 0);
        fl_json_free(doc);
    }
    return 0;
}
