/* smoke_io.c — a plain program (no Criterion fork) that reads good and bad
 * fixtures through the JSON and Matrix Market readers and checks the
 * statuses; run under `meson test --setup valgrind` so that the error paths
 * (which free half-built vectors, matrices, documents and line buffers) are
 * checked for leaks and invalid accesses.
 *
 *   smoke_io DATA_DIR     (DATA_DIR = tests/data of the source tree)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fl_json.h"
#include "fl_mm.h"

static const char *dir;
static int failures;

static const char *path_of(const char *sub, const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s/%s", dir, sub, name);
    return buf;
}

static void expect(const char *what, fl_status got, fl_status want, const fl_error *err)
{
    if (got == want) return;
    fprintf(stderr, "smoke_io: %s: status %d, wanted %d (%s)\n", what, got, want,
            err ? err->message : "");
    failures++;
}

static void json_file(const char *name, fl_status want)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    fl_error_clear(&err);
    expect(name, fl_json_load(path_of("json", name), &doc, &err), want, &err);
    fl_json_free(doc);
}

/* Vector and matrix reads that fail part-way through (after allocation). */
static void json_members(void)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    gsl_vector *v = NULL;
    gsl_matrix *M = NULL;
    double x;
    expect("load nan_string.json", fl_json_load(path_of("json", "nan_string.json"), &doc, &err),
           FL_OK, &err);
    if (doc) {
        expect("q[2]", fl_json_vector(doc, doc->root, "", "q", 0, &v, &err), FL_ENONFINITE,
               &err);
        expect("M[1][1]", fl_json_matrix(doc, doc->root, "", "M", 0, 0, &M, &err),
               FL_ENONFINITE, &err);
        expect("params.mu", fl_json_number(doc, json_object_get(doc->root, "params"),
                                           "params", "mu", &x, &err), FL_ENONFINITE, &err);
        fl_json_free(doc);
    }
    expect("load dim_mismatch.json",
           fl_json_load(path_of("json", "dim_mismatch.json"), &doc, &err), FL_OK, &err);
    if (doc) {
        expect("M ragged", fl_json_matrix(doc, doc->root, "", "M", 0, 0, &M, &err), FL_EDIM,
               &err);
        expect("N 2x2", fl_json_matrix(doc, doc->root, "", "N", 2, 2, &M, &err), FL_OK, &err);
        gsl_matrix_free(M);
        fl_json_free(doc);
    }
    expect("load deep.json", fl_json_load(path_of("json", "deep.json"), &doc, &err), FL_OK,
           &err);
    if (doc) {
        const json_t *c1 = json_array_get(json_object_get(doc->root, "contacts"), 1);
        expect("frame[1][0]", fl_json_matrix(doc, c1, "contacts[1]", "frame", 2, 2, &M, &err),
               FL_EPARSE, &err);
        expect("k", fl_json_number(doc, c1, "contacts[1]", "k", &x, &err), FL_EPARSE, &err);
        expect("error()", fl_json_error(doc, c1, "contacts[1]", "mu", &err, FL_EINVAL, "x"),
               FL_EINVAL, &err);
        fl_json_free(doc);
    }
    expect("load good.json", fl_json_load(path_of("json", "good.json"), &doc, &err), FL_OK,
           &err);
    if (doc) {
        const json_t *p = json_object_get(doc->root, "params");
        expect("q", fl_json_vector(doc, p, "params", "q", 3, &v, &err), FL_OK, &err);
        gsl_vector_free(v);
        expect("M", fl_json_matrix(doc, p, "params", "M", 3, 3, &M, &err), FL_OK, &err);
        gsl_matrix_free(M);
        fl_json_free(doc);
    }
}

static void mm_file(fl_sparse_ctx *ctx, const char *name, fl_status want)
{
    cholmod_sparse *A = NULL;
    fl_error err;
    fl_error_clear(&err);
    expect(name, fl_mm_read(ctx, path_of("mm", name), &A, &err), want, &err);
    if (A && want == FL_OK) {
        /* write it back (to /dev/null: the writer's loops, no file left) */
        expect("write", fl_mm_write(ctx, "/dev/null", A, &err), FL_OK, &err);
    }
    fl_sparse_free(ctx, &A);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: smoke_io DATA_DIR\n");
        return 2;
    }
    dir = argv[1];

    json_file("good.json", FL_OK);
    json_file("no_such.json", FL_EIO);
    json_file("truncated.json", FL_EPARSE);
    json_file("empty.json", FL_EPARSE);
    json_file("duplicate.json", FL_EPARSE);
    json_file("root_array.json", FL_EPARSE);
    json_file("overflow.json", FL_ENONFINITE);
    json_members();

    fl_sparse_ctx ctx;
    if (fl_sparse_start(&ctx, NULL) != FL_OK) return 1;
    mm_file(&ctx, "general.mtx", FL_OK);
    mm_file(&ctx, "symmetric.mtx", FL_OK);
    mm_file(&ctx, "pattern.mtx", FL_OK);
    mm_file(&ctx, "integer.mtx", FL_OK);
    mm_file(&ctx, "no_such.mtx", FL_EIO);
    mm_file(&ctx, "empty.mtx", FL_EPARSE);
    mm_file(&ctx, "bad_banner.mtx", FL_EPARSE);
    mm_file(&ctx, "complex.mtx", FL_EUNSUPPORTED);
    mm_file(&ctx, "bad_size.mtx", FL_EPARSE);
    mm_file(&ctx, "no_size.mtx", FL_EPARSE);
    mm_file(&ctx, "truncated.mtx", FL_EPARSE);
    mm_file(&ctx, "nan_entry.mtx", FL_ENONFINITE);
    mm_file(&ctx, "index_range.mtx", FL_EINVAL);
    mm_file(&ctx, "sym_upper.mtx", FL_EPARSE);
    mm_file(&ctx, "extra_entries.mtx", FL_EPARSE);
    fl_sparse_finish(&ctx);

    if (failures) fprintf(stderr, "smoke_io: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
