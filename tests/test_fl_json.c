/* test_fl_json.c — JSON input (io/fl_json.c): values of a good file, and
 * for every kind of bad input the status AND the message (file, line:column,
 * field path).  Expected positions are read off the fixtures in
 * tests/data/json/ by hand (line and column of the key or element, columns
 * counting characters), not from the code under test. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fl_json.h"

static char fixture_path[1024];

static const char *fixture(const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    snprintf(fixture_path, sizeof fixture_path, "%s/tests/data/json/%s", root, name);
    return fixture_path;
}

static fl_json_doc *load_ok(const char *name)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_json_load(fixture(name), &doc, &err);
    cr_assert_eq(s, FL_OK, "%s: %s", name, err.message);
    cr_assert_not_null(doc);
    return doc;
}

/* err.message must contain `part`. */
static void expect_in(const fl_error *err, const char *part)
{
    cr_assert(strstr(err->message, part) != NULL, "message \"%s\" lacks \"%s\"",
              err->message, part);
}

/* Status, position and the "<file>:<line>:<col>: field '<path>': " prefix. */
static void expect_err(fl_status got, const fl_error *err, fl_status want,
                       const char *name, int line, int col, const char *field)
{
    cr_assert_eq(got, want, "status %d (%s), wanted %d; message: %s", got,
                 fl_strerror(got), want, err->message);
    cr_assert_eq(err->status, want);
    cr_assert_eq(err->line, line, "line %d, wanted %d: %s", err->line, line, err->message);
    cr_assert_eq(err->column, col, "column %d, wanted %d: %s", err->column, col,
                 err->message);
    cr_assert(strstr(err->file, name) != NULL, "file '%s' lacks '%s'", err->file, name);
    char prefix[512];
    if (field)
        snprintf(prefix, sizeof prefix, "%s:%d:%d: field '%s': ", name, line, col, field);
    else
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", name, line, col);
    expect_in(err, prefix);
}

static const json_t *member(const fl_json_doc *doc, const char *key)
{
    const json_t *o = NULL;
    fl_error err;
    cr_assert_eq(fl_json_object(doc, doc->root, "", key, &o, &err), FL_OK, "%s",
                 err.message);
    return o;
}

/* ---- good input ------------------------------------------------------- */

Test(json, good_file_values)
{
    fl_json_doc *doc = load_ok("good.json");
    fl_error err;
    long n = 0;
    int flag = 0;
    double mu = 0, e = 0, tiny = 0;
    const char *name = NULL;
    cr_assert_eq(fl_json_integer(doc, doc->root, "", "n", &n, &err), FL_OK);
    cr_assert_eq(n, 3);
    cr_assert_eq(fl_json_bool(doc, doc->root, "", "flag", &flag, &err), FL_OK);
    cr_assert_eq(flag, 1);
    const json_t *p = member(doc, "params");
    cr_assert_eq(fl_json_number(doc, p, "params", "mu", &mu, &err), FL_OK);
    cr_assert_eq(mu, 0.5);
    /* an integer where a real is expected is accepted */
    cr_assert_eq(fl_json_number(doc, p, "params", "e", &e, &err), FL_OK);
    cr_assert_eq(e, 1.0);
    cr_assert_eq(fl_json_string(doc, p, "params", "name", &name, &err), FL_OK);
    cr_assert_str_eq(name, "disc");
    cr_assert_eq(fl_json_number(doc, doc->root, "", "tiny", &tiny, &err), FL_OK);
    cr_assert_eq(tiny, -1.5e-300);
    /* a key written with escapes */
    cr_assert_eq(fl_json_integer(doc, doc->root, "", "say \"hi\"", &n, &err), FL_OK);
    cr_assert_eq(n, 7);
    fl_json_free(doc);
}

Test(json, good_vector_and_matrix)
{
    fl_json_doc *doc = load_ok("good.json");
    fl_error err;
    const json_t *p = member(doc, "params");
    gsl_vector *q = NULL;
    cr_assert_eq(fl_json_vector(doc, p, "params", "q", 3, &q, &err), FL_OK, "%s",
                 err.message);
    cr_assert_eq(q->size, 3);
    cr_assert_eq(gsl_vector_get(q, 0), 1.0);
    cr_assert_eq(gsl_vector_get(q, 1), -2.0);
    cr_assert_eq(gsl_vector_get(q, 2), 3.5);
    gsl_vector_free(q);
    cr_assert_eq(fl_json_vector(doc, p, "params", "q", 0, &q, &err), FL_OK);
    gsl_vector_free(q);
    gsl_matrix *M = NULL;
    cr_assert_eq(fl_json_matrix(doc, p, "params", "M", 3, 3, &M, &err), FL_OK, "%s",
                 err.message);
    double want[3][3] = {{4, 1, 0}, {1, 3, 0.5}, {0, 0.5, 2}};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            cr_assert_eq(gsl_matrix_get(M, i, j), want[i][j], "M[%zu][%zu]", i, j);
    gsl_matrix_free(M);
    cr_assert_eq(fl_json_matrix(doc, p, "params", "M", 0, 0, &M, &err), FL_OK);
    cr_assert_eq(M->size1, 3);
    cr_assert_eq(M->size2, 3);
    gsl_matrix_free(M);
    fl_json_free(doc);
}

Test(json, array_of_objects)
{
    fl_json_doc *doc = load_ok("good.json");
    fl_error err;
    const json_t *c = NULL;
    cr_assert_eq(fl_json_array(doc, doc->root, "", "contacts", 2, &c, &err), FL_OK);
    double mu = 0;
    cr_assert_eq(fl_json_number(doc, json_array_get(c, 1), "contacts[1]", "mu", &mu, &err),
                 FL_OK);
    cr_assert_eq(mu, 0.25);
    gsl_matrix *F = NULL;
    cr_assert_eq(fl_json_matrix(doc, json_array_get(c, 1), "contacts[1]", "frame", 2, 2,
                                &F, &err), FL_OK);
    cr_assert_eq(gsl_matrix_get(F, 0, 1), 1.0);
    cr_assert_eq(gsl_matrix_get(F, 1, 1), 0.0);
    gsl_matrix_free(F);
    cr_assert_eq(fl_json_array(doc, doc->root, "", "contacts", 0, &c, &err), FL_OK);
    fl_json_free(doc);
}

Test(json, optional_number)
{
    fl_json_doc *doc = load_ok("good.json");
    fl_error err;
    const json_t *p = member(doc, "params");
    double x = 0;
    cr_assert_eq(fl_json_number_or(doc, p, "params", "delta", 0.75, &x, &err), FL_OK);
    cr_assert_eq(x, 0.75);
    cr_assert_eq(fl_json_number_or(doc, p, "params", "mu", 0.75, &x, &err), FL_OK);
    cr_assert_eq(x, 0.5);
    /* present but wrong: still an error, with the member's position */
    fl_status s = fl_json_number_or(doc, p, "params", "name", 0.75, &x, &err);
    expect_err(s, &err, FL_EPARSE, "good.json", 8, 5, "params.name");
    expect_in(&err, "expected a number, got a string");
    fl_json_free(doc);
}

/* ---- whole-file errors ------------------------------------------------ */

Test(json, missing_file_and_directory)
{
    fl_json_doc *doc = (fl_json_doc *)1;
    fl_error err;
    fl_status s = fl_json_load(fixture("no_such_file.json"), &doc, &err);
    cr_assert_eq(s, FL_EIO);
    cr_assert_null(doc);
    expect_in(&err, "no_such_file.json: cannot open: No such file or directory");
    s = fl_json_load(fixture(""), &doc, &err);     /* the directory itself */
    cr_assert_eq(s, FL_EIO);
    cr_assert_null(doc);
    expect_in(&err, "is a directory, not a regular file");
}

Test(json, truncated_file)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_status s = fl_json_load(fixture("truncated.json"), &doc, &err);
    /* 4 lines each ending in '\n': the end of file is line 5, column 1 */
    expect_err(s, &err, FL_EPARSE, "truncated.json", 5, 1, NULL);
    expect_in(&err, "end of file");
    cr_assert_null(doc);
}

Test(json, empty_file)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_status s = fl_json_load(fixture("empty.json"), &doc, &err);
    expect_err(s, &err, FL_EPARSE, "empty.json", 1, 1, NULL);
    expect_in(&err, "end of file");
}

Test(json, duplicate_key)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_status s = fl_json_load(fixture("duplicate.json"), &doc, &err);
    /* {"a": 1, "a": 2}: jansson points at the last character of the second
     * "a" token, column 12 */
    expect_err(s, &err, FL_EPARSE, "duplicate.json", 1, 12, NULL);
    expect_in(&err, "duplicate object key");
}

Test(json, root_not_object)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_status s = fl_json_load(fixture("root_array.json"), &doc, &err);
    /* "\n  [1, 2, 3]": the array starts on line 2, column 3 */
    expect_err(s, &err, FL_EPARSE, "root_array.json", 2, 3, NULL);
    expect_in(&err, "the top level must be an object, got an array");
    cr_assert_null(doc);
}

Test(json, overflowing_literal_is_nonfinite)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_status s = fl_json_load(fixture("overflow.json"), &doc, &err);
    /* "    \"mu\": 1e999": jansson points at the literal's last character */
    expect_err(s, &err, FL_ENONFINITE, "overflow.json", 3, 15, NULL);
    expect_in(&err, "overflow");
    expect_in(&err, "not finite");
}

/* ---- member errors ---------------------------------------------------- */

Test(json, wrong_types)
{
    fl_json_doc *doc = load_ok("wrong_type.json");
    fl_error err;
    long n;
    double x;
    int b;
    const char *str;
    const json_t *o;
    gsl_vector *v = (gsl_vector *)1;
    gsl_matrix *M = (gsl_matrix *)1;
    fl_status s = fl_json_integer(doc, doc->root, "", "n", &n, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 2, 3, "n");
    expect_in(&err, "expected an integer, got a real number");
    const json_t *p = member(doc, "params");
    s = fl_json_number(doc, p, "params", "mu", &x, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 4, 5, "params.mu");
    expect_in(&err, "expected a number, got a string");
    s = fl_json_string(doc, p, "params", "name", &str, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 5, 5, "params.name");
    expect_in(&err, "expected a string, got an integer");
    s = fl_json_bool(doc, p, "params", "flag", &b, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 6, 5, "params.flag");
    expect_in(&err, "expected true or false, got a string");
    s = fl_json_object(doc, p, "params", "sub", &o, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 7, 5, "params.sub");
    expect_in(&err, "expected an object, got an array");
    s = fl_json_vector(doc, p, "params", "q", 0, &v, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 8, 5, "params.q");
    expect_in(&err, "expected an array of numbers, got an object");
    cr_assert_null(v);
    s = fl_json_matrix(doc, p, "params", "q", 0, 0, &M, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 8, 5, "params.q");
    expect_in(&err, "expected a non-empty array of rows, got an object");
    cr_assert_null(M);
    s = fl_json_array(doc, p, "params", "q", 0, &o, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 8, 5, "params.q");
    expect_in(&err, "expected an array, got an object");
    s = fl_json_number(doc, doc->root, "", "params", &x, &err);
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 3, 3, "params");
    expect_in(&err, "expected a number, got an object");
    fl_json_free(doc);
}

Test(json, lookup_in_a_non_object)
{
    fl_json_doc *doc = load_ok("wrong_type.json");
    fl_error err;
    double x;
    const json_t *sub = json_object_get(member(doc, "params"), "sub");
    fl_status s = fl_json_number(doc, sub, "params.sub", "x", &x, &err);
    /* "    \"sub\": [1],": the array value starts at column 12 */
    expect_err(s, &err, FL_EPARSE, "wrong_type.json", 7, 12, "params.sub.x");
    expect_in(&err, "cannot look up a member in an array");
    fl_json_free(doc);
}

Test(json, nan_and_inf_as_strings)
{
    fl_json_doc *doc = load_ok("nan_string.json");
    fl_error err;
    double x;
    gsl_vector *v = (gsl_vector *)1;
    gsl_matrix *M = (gsl_matrix *)1;
    const json_t *p = member(doc, "params");
    /* line 2: '  "params": {"mu": "NaN", "e": "-Inf"},' */
    fl_status s = fl_json_number(doc, p, "params", "mu", &x, &err);
    expect_err(s, &err, FL_ENONFINITE, "nan_string.json", 2, 14, "params.mu");
    expect_in(&err, "\"NaN\" is not a finite number");
    s = fl_json_number(doc, p, "params", "e", &x, &err);
    expect_err(s, &err, FL_ENONFINITE, "nan_string.json", 2, 27, "params.e");
    expect_in(&err, "\"-Inf\"");
    /* line 3: '  "q": [0, 1, "inf", 3],' — element 2 at column 15 */
    s = fl_json_vector(doc, doc->root, "", "q", 4, &v, &err);
    expect_err(s, &err, FL_ENONFINITE, "nan_string.json", 3, 15, "q[2]");
    cr_assert_null(v);
    /* line 4: '  "M": [[1, 2], [3, "Infinity"]]' — element [1][1] at column 21 */
    s = fl_json_matrix(doc, doc->root, "", "M", 2, 2, &M, &err);
    expect_err(s, &err, FL_ENONFINITE, "nan_string.json", 4, 21, "M[1][1]");
    expect_in(&err, "\"Infinity\" is not a finite number");
    cr_assert_null(M);
    fl_json_free(doc);
}

Test(json, missing_members)
{
    fl_json_doc *doc = load_ok("missing.json");
    fl_error err;
    double x;
    const json_t *o;
    const json_t *p = member(doc, "params");
    /* the report points at the object that lacks the member: line 2 col 13 */
    fl_status s = fl_json_number(doc, p, "params", "mu", &x, &err);
    expect_err(s, &err, FL_EPARSE, "missing.json", 2, 13, "params.mu");
    expect_in(&err, "missing (required member of params)");
    s = fl_json_object(doc, doc->root, "", "settings", &o, &err);
    expect_err(s, &err, FL_EPARSE, "missing.json", 1, 1, "settings");
    expect_in(&err, "missing (required member of the top-level object)");
    fl_json_free(doc);
}

Test(json, dimension_mismatch)
{
    fl_json_doc *doc = load_ok("dim_mismatch.json");
    fl_error err;
    gsl_vector *v = (gsl_vector *)1;
    gsl_matrix *M = (gsl_matrix *)1;
    fl_status s = fl_json_vector(doc, doc->root, "", "q", 3, &v, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 2, 3, "q");
    expect_in(&err, "expected 3 entries, got 2");
    cr_assert_null(v);
    /* rows of unequal length: row 1 ("        [4, 5]]," col 9) */
    s = fl_json_matrix(doc, doc->root, "", "M", 0, 0, &M, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 4, 9, "M[1]");
    expect_in(&err, "expected 3 entries, got 2");
    cr_assert_null(M);
    s = fl_json_matrix(doc, doc->root, "", "M", 3, 0, &M, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 3, 3, "M");
    expect_in(&err, "expected 3 rows, got 2");
    s = fl_json_matrix(doc, doc->root, "", "N", 2, 3, &M, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 5, 9, "N[0]");
    expect_in(&err, "expected 3 entries, got 2");
    s = fl_json_matrix(doc, doc->root, "", "N", 2, 2, &M, &err);
    cr_assert_eq(s, FL_OK, "%s", err.message);
    gsl_matrix_free(M);
    fl_json_free(doc);
}

Test(json, empty_arrays_and_rows_that_are_not_arrays)
{
    fl_json_doc *doc = load_ok("dim_mismatch.json");
    fl_error err;
    gsl_vector *v = (gsl_vector *)1;
    gsl_matrix *M = (gsl_matrix *)1;
    const json_t *a = NULL;
    fl_status s = fl_json_vector(doc, doc->root, "", "empty", 0, &v, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 6, 3, "empty");
    expect_in(&err, "expected a non-empty array of numbers");
    s = fl_json_matrix(doc, doc->root, "", "empty", 0, 0, &M, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 6, 3, "empty");
    expect_in(&err, "got an empty array");
    /* '  "list": [1, 2, 3]': row 0 is the number at column 12 */
    s = fl_json_matrix(doc, doc->root, "", "list", 0, 0, &M, &err);
    expect_err(s, &err, FL_EPARSE, "dim_mismatch.json", 8, 12, "list[0]");
    expect_in(&err, "expected an array of numbers, got an integer");
    cr_assert_eq(fl_json_array(doc, doc->root, "", "rows", 0, &a, &err), FL_OK);
    cr_assert_eq(json_array_size(a), 0);
    s = fl_json_array(doc, doc->root, "", "list", 2, &a, &err);
    expect_err(s, &err, FL_EDIM, "dim_mismatch.json", 8, 3, "list");
    expect_in(&err, "expected 2 entries, got 3");
    cr_assert_null(a);
    fl_json_free(doc);
}

Test(json, deep_paths_escapes_and_utf8_columns)
{
    fl_json_doc *doc = load_ok("deep.json");
    fl_error err;
    double x;
    const char *str;
    gsl_matrix *F = (gsl_matrix *)1;
    const json_t *c = NULL;
    cr_assert_eq(fl_json_array(doc, doc->root, "", "contacts", 2, &c, &err), FL_OK);
    const json_t *c1 = json_array_get(c, 1);
    /* line 6: 15 spaces, '[' at 16, 'true' at 17 */
    fl_status s = fl_json_matrix(doc, c1, "contacts[1]", "frame", 2, 2, &F, &err);
    expect_err(s, &err, FL_EPARSE, "deep.json", 6, 17, "contacts[1].frame[1][0]");
    expect_in(&err, "expected a number, got a boolean");
    cr_assert_null(F);
    /* line 7: '     "label": "h\u00e9 [\"x\"]", "w": "é", "k": null}' — the
     * string with escaped quotes and brackets spans columns 15-31, the
     * one-character "é" columns 39-41, so "w" is at 34 and "k" at 44. */
    s = fl_json_number(doc, c1, "contacts[1]", "k", &x, &err);
    expect_err(s, &err, FL_EPARSE, "deep.json", 7, 44, "contacts[1].k");
    expect_in(&err, "expected a number, got null");
    s = fl_json_number(doc, c1, "contacts[1]", "w", &x, &err);
    expect_err(s, &err, FL_EPARSE, "deep.json", 7, 34, "contacts[1].w");
    cr_assert_eq(fl_json_string(doc, c1, "contacts[1]", "label", &str, &err), FL_OK);
    cr_assert_str_eq(str, "h\xc3\xa9 [\"x\"]");
    /* contacts[0] is fine */
    cr_assert_eq(fl_json_matrix(doc, json_array_get(c, 0), "contacts[0]", "frame", 2, 2,
                                &F, &err), FL_OK);
    gsl_matrix_free(F);
    fl_json_free(doc);
}

Test(json, caller_reported_range_error)
{
    fl_json_doc *doc = load_ok("good.json");
    fl_error err;
    const json_t *p = member(doc, "params");
    fl_status s = fl_json_error(doc, p, "params", "mu", &err, FL_EINVAL,
                                "must be >= %g, got %g", 1.0, 0.5);
    expect_err(s, &err, FL_EINVAL, "good.json", 6, 5, "params.mu");
    expect_in(&err, "must be >= 1, got 0.5");
    /* key NULL: the object itself ('  "params": {' value at column 13) */
    s = fl_json_error(doc, p, "params", NULL, &err, FL_EINVAL, "inconsistent");
    expect_err(s, &err, FL_EINVAL, "good.json", 5, 13, "params");
    /* an element of an array of objects */
    const json_t *c = json_array_get(json_object_get(doc->root, "contacts"), 1);
    s = fl_json_error(doc, c, "contacts[1]", "mu", &err, FL_EINVAL, "too small");
    expect_err(s, &err, FL_EINVAL, "good.json", 16, 6, "contacts[1].mu");
    /* a key "of" an array: the report points at the array */
    s = fl_json_error(doc, json_object_get(p, "q"), "params.q", "x", &err, FL_EINVAL, "no");
    expect_err(s, &err, FL_EINVAL, "good.json", 9, 10, "params.q.x");
    fl_json_free(doc);
}

Test(json, caller_mistakes)
{
    fl_json_doc *doc = load_ok("good.json");
    fl_json_doc *other = load_ok("missing.json");
    fl_error err;
    double x;
    cr_assert_eq(fl_json_number(NULL, doc->root, "", "n", &x, &err), FL_EINVAL);
    cr_assert_eq(fl_json_number(doc, NULL, "", "n", &x, &err), FL_EINVAL);
    cr_assert_eq(fl_json_number(doc, doc->root, "", NULL, &x, &err), FL_EINVAL);
    cr_assert_eq(fl_json_number_or(doc, NULL, "", "n", 1.0, &x, &err), FL_EINVAL);
    /* an object of another document: no position to give, still a message */
    fl_status s = fl_json_number(doc, other->root, "", "nothing", &x, &err);
    cr_assert_eq(s, FL_EPARSE);
    cr_assert_eq(err.line, 0);
    expect_in(&err, "good.json: field 'nothing': missing");
    fl_json_free(other);
    fl_json_free(doc);
    fl_json_free(NULL);
}

/* ---- the position finder on every member and element ------------------ */

/* Byte offset of 1-based line:column (columns count UTF-8 characters). */
static long offset_of(const char *text, int line, int col)
{
    const char *p = text;
    for (int l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p) return -1;
        p++;
    }
    for (int c = 1; c < col; c++) {
        p++;
        while (((unsigned char)*p & 0xC0) == 0x80) p++;
    }
    return (long)(p - text);
}

/* The first byte a value of this type is written with. */
static int starts_like(const json_t *v, char c)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return c == '{';
    case JSON_ARRAY: return c == '[';
    case JSON_STRING: return c == '"';
    case JSON_INTEGER:
    case JSON_REAL: return c == '-' || (c >= '0' && c <= '9');
    case JSON_TRUE: return c == 't';
    case JSON_FALSE: return c == 'f';
    case JSON_NULL: return c == 'n';
    }
    return 0;
}

/* Every member of every object: an error about it points at its key, written
 * exactly as jansson would encode it; every element of an array of numbers
 * (read as a vector) fails at a position where a value of its type starts. */
static void walk(const fl_json_doc *doc, const json_t *v, const char *where, int *checked)
{
    fl_error err;
    if (json_is_object(v)) {
        const char *key;
        json_t *child;
        json_object_foreach((json_t *)v, key, child) {
            fl_json_error(doc, v, where, key, &err, FL_EINVAL, "probe");
            long off = offset_of(doc->text, err.line, err.column);
            json_t *js = json_string(key);
            char *enc = json_dumps(js, JSON_ENCODE_ANY);
            cr_assert(off >= 0 && strncmp(doc->text + off, enc, strlen(enc)) == 0,
                      "%s: key %s reported at %d:%d", doc->path, enc, err.line, err.column);
            free(enc);
            json_decref(js);
            (*checked)++;
            char sub[256];
            snprintf(sub, sizeof sub, "%s%s%s", where, where[0] ? "." : "", key);
            if (json_is_array(child)) {
                for (size_t i = 0; i < json_array_size(child); i++) {
                    char el[300];
                    snprintf(el, sizeof el, "%s[%zu]", sub, i);
                    walk(doc, json_array_get(child, i), el, checked);
                }
            } else {
                walk(doc, child, sub, checked);
            }
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            char el[300];
            snprintf(el, sizeof el, "%s[%zu]", where, i);
            walk(doc, json_array_get(v, i), el, checked);
        }
    } else {
        /* a scalar: fl_json_error with key NULL points at the value itself */
        fl_json_error(doc, v, where, NULL, &err, FL_EINVAL, "probe");
        long off = offset_of(doc->text, err.line, err.column);
        cr_assert(off >= 0 && starts_like(v, doc->text[off]), "%s: '%s' reported at %d:%d",
                  doc->path, where, err.line, err.column);
        (*checked)++;
    }
}

Test(json, finder_points_at_every_key_and_value)
{
    const char *files[] = {"good.json", "deep.json", "wrong_type.json", "nan_string.json",
                           "dim_mismatch.json", "keys.json"};
    int checked = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        fl_json_doc *doc = load_ok(files[f]);
        walk(doc, doc->root, "", &checked);
        fl_json_free(doc);
    }
    cr_assert_gt(checked, 80, "only %d positions checked", checked);
}

/* ---- reproducers of the fuzzing campaign (fuzz/regression/json/) -------- */

static const char *regression(const char *name)
{
    static char p[1024];
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    snprintf(p, sizeof p, "%s/fuzz/regression/json/%s", root, name);
    return p;
}

static void expect_load_refused(const char *name, fl_status want, int line, int col,
                                const char *part)
{
    fl_json_doc *doc = (fl_json_doc *)1;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_json_load(regression(name), &doc, &err);
    cr_assert_null(doc, "%s: no document on error", name);
    expect_err(s, &err, want, name, line, col, NULL);
    if (part) expect_in(&err, part);
}

/* Tokens of any length are parsed whole (jansson keeps the whole literal)
 * or refused; a NUL byte anywhere is refused, never a silent end of text. */
Test(json, over_long_tokens_are_parsed_whole_or_refused)
{
    expect_load_refused("long_token_garbage.json", FL_EPARSE, 1, 217, "near 'garbage'");
    expect_load_refused("long_token_nan.json", FL_EPARSE, 1, 212, "near 'nan'");
    fl_json_doc *doc = NULL;
    fl_error err;
    cr_assert_eq(fl_json_load(regression("long_number_whole.json"), &doc, &err), FL_OK,
                 "%s", err.message);
    double mu = 0;
    cr_assert_eq(fl_json_number(doc, doc->root, "", "mu", &mu, &err), FL_OK);
    cr_assert_eq(mu, 5e-201, "the whole 203-character literal: %g", mu);
    fl_json_free(doc);
}

Test(json, nul_bytes_are_errors)
{
    expect_load_refused("nul_in_token.json", FL_EPARSE, 1, 9, "NUL byte");
    expect_load_refused("nul_in_string.json", FL_EPARSE, 1, 12, "NUL byte");
    expect_load_refused("nul_ends_number.json", FL_EPARSE, 1, 9, "NUL byte");
    expect_load_refused("escaped_nul.json", FL_EPARSE, 1, 19, "\\u0000");
}

Test(json, non_regular_files_are_refused)
{
    fl_json_doc *doc = (fl_json_doc *)1;
    fl_error err;
    cr_assert_eq(fl_json_load("/dev/zero", &doc, &err), FL_EIO);
    cr_assert_null(doc);
    expect_in(&err, "/dev/zero: is a character device, not a regular file");
}
