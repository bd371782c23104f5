/* test_fl_mm.c — Matrix Market input and output (io/fl_mm.c).  Good files
 * against the matrices written in them (tests/data/mm/, read by hand); bad
 * files: status AND message (file name, file line, field or entry). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fl_mm.h"

static fl_sparse_ctx ctx;
static char tmpdir[64];

static void setup(void)
{
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/fl_mm_test_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void teardown(void)
{
    fl_sparse_finish(&ctx);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(mm, .init = setup, .fini = teardown);

static char fixture_path[1024];

static const char *fixture(const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    snprintf(fixture_path, sizeof fixture_path, "%s/tests/data/mm/%s", root, name);
    return fixture_path;
}

/* Read a good fixture and expand it to dense. */
static gsl_matrix *read_dense(const char *name, int *stype)
{
    cholmod_sparse *A = NULL;
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_mm_read(&ctx, fixture(name), &A, &err), FL_OK, "%s: %s", name,
                 err.message);
    cr_assert_not_null(A);
    *stype = A->stype;
    gsl_matrix *D = NULL;
    cr_assert_eq(fl_sparse_to_dense(&ctx, A, &D, &err), FL_OK);
    fl_sparse_free(&ctx, &A);
    return D;
}

static void expect_dense(const gsl_matrix *D, size_t m, size_t n, const double *want)
{
    cr_assert_eq(D->size1, m);
    cr_assert_eq(D->size2, n);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            cr_assert_eq(gsl_matrix_get(D, i, j), want[i * n + j], "(%zu,%zu): %g vs %g", i,
                         j, gsl_matrix_get(D, i, j), want[i * n + j]);
}

/* A bad fixture: status, file line and message fragments. */
static void expect_bad(const char *name, fl_status want, int line, const char *part)
{
    cholmod_sparse *A = (cholmod_sparse *)1;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_mm_read(&ctx, fixture(name), &A, &err);
    cr_assert_eq(s, want, "%s: status %d (%s), wanted %d; message: %s", name, s,
                 fl_strerror(s), want, err.message);
    cr_assert_null(A, "%s: no matrix on error", name);
    cr_assert_eq(err.status, want);
    cr_assert_eq(err.line, line, "%s: line %d, wanted %d: %s", name, err.line, line,
                 err.message);
    cr_assert(strstr(err.file, name) != NULL, "file '%s'", err.file);
    char prefix[256];
    if (line > 0) snprintf(prefix, sizeof prefix, "%s:%d: ", name, line);
    else snprintf(prefix, sizeof prefix, "%s: ", name);
    cr_assert(strstr(err.message, prefix) != NULL, "\"%s\" lacks \"%s\"", err.message,
              prefix);
    cr_assert(strstr(err.message, part) != NULL, "\"%s\" lacks \"%s\"", err.message, part);
}

/* ---- good files ------------------------------------------------------- */

Test(mm, general_with_comments)
{
    int stype;
    gsl_matrix *D = read_dense("general.mtx", &stype);
    const double want[] = {2.5, 0, 0, 7,
                           0, 1e-3, 0, 0,
                           -1, 0, 0, 0.125};
    cr_assert_eq(stype, 0);
    expect_dense(D, 3, 4, want);
    gsl_matrix_free(D);
}

Test(mm, symmetric_lower_triangle)
{
    int stype;
    gsl_matrix *D = read_dense("symmetric.mtx", &stype);
    const double want[] = {4, 1, 0,
                           1, 3, 0.5,
                           0, 0.5, 2};
    cr_assert_neq(stype, 0, "symmetric files come back in symmetric storage");
    expect_dense(D, 3, 3, want);
    gsl_matrix_free(D);
}

Test(mm, pattern_and_integer)
{
    int stype;
    gsl_matrix *D = read_dense("pattern.mtx", &stype);
    const double ones[] = {1, 1, 0,
                           0, 0, 1};
    expect_dense(D, 2, 3, ones);
    gsl_matrix_free(D);
    D = read_dense("integer.mtx", &stype);
    const double want[] = {3, -1,
                           -1, 0};
    cr_assert_neq(stype, 0);
    expect_dense(D, 2, 2, want);
    gsl_matrix_free(D);
}

Test(mm, crlf_blank_lines_and_tabs)
{
    int stype;
    gsl_matrix *D = read_dense("crlf_blank.mtx", &stype);
    const double want[] = {1.5, 0,
                           0, -2};
    expect_dense(D, 2, 2, want);
    gsl_matrix_free(D);
}

Test(mm, duplicate_entries_are_summed)
{
    int stype;
    gsl_matrix *D = read_dense("duplicates.mtx", &stype);
    const double want[] = {1.75, 0,
                           0, 2};
    expect_dense(D, 2, 2, want);
    gsl_matrix_free(D);
}

/* ---- the file and its banner ------------------------------------------ */

Test(mm, missing_empty_and_directory)
{
    expect_bad("no_such.mtx", FL_EIO, 0, "cannot open: No such file or directory");
    expect_bad("empty.mtx", FL_EPARSE, 0, "empty file");
    expect_bad("", FL_EIO, 0, "is a directory, not a regular file");
}

Test(mm, banner)
{
    expect_bad("no_banner.mtx", FL_EPARSE, 1, "must start with '%%MatrixMarket'");
    expect_bad("bad_banner.mtx", FL_EPARSE, 1,
               "banner field \"symmetry\": unknown word \"unsymmetric\"");
    expect_bad("short_banner.mtx", FL_EPARSE, 1, "banner field \"type\" is missing");
}

Test(mm, unsupported_kinds)
{
    expect_bad("complex.mtx", FL_EUNSUPPORTED, 1,
               "banner field \"type\": \"complex\" matrices are not supported");
    expect_bad("array.mtx", FL_EUNSUPPORTED, 1,
               "banner field \"format\": \"array\" matrices are not supported");
}

/* ---- the size line ---------------------------------------------------- */

Test(mm, size_line)
{
    expect_bad("bad_size.mtx", FL_EPARSE, 3,
               "field \"cols\" of the size line: expected an integer >= 1, got \"x\"");
    expect_bad("size_missing.mtx", FL_EPARSE, 2, "field \"entries\" of the size line");
    expect_bad("size_missing.mtx", FL_EPARSE, 2, "is missing");
    expect_bad("no_size.mtx", FL_EPARSE, 3, "end of file before the size line");
    expect_bad("size_extra.mtx", FL_EPARSE, 2, "unexpected fourth field \"9\"");
    expect_bad("size_too_many.mtx", FL_EPARSE, 2, "5 entries cannot fit in a 2 x 2");
    expect_bad("sym_not_square.mtx", FL_EDIM, 2, "must be square, got 3 x 2");
}

/* ---- entries ---------------------------------------------------------- */

Test(mm, truncated_file)
{
    /* 6 lines, 3 of the 5 declared entries: the 4th would be on line 7 */
    expect_bad("truncated.mtx", FL_EPARSE, 7, "expected 5 entries, found 3");
}

Test(mm, more_entries_than_declared)
{
    expect_bad("extra_entries.mtx", FL_EPARSE, 4, "more entries than the 1 declared");
}

Test(mm, nonfinite_values)
{
    expect_bad("nan_entry.mtx", FL_ENONFINITE, 6, "entry 3: value \"nan\" is not finite");
    expect_bad("overflow_entry.mtx", FL_ENONFINITE, 4,
               "entry 2: value \"1e999\" is not finite");
}

Test(mm, index_out_of_range)
{
    /* line 4 is blank, so entry 2 is on line 5 */
    expect_bad("index_range.mtx", FL_EINVAL, 5, "entry 2: row index 4 out of range 1..3");
    expect_bad("index_zero.mtx", FL_EINVAL, 4, "entry 2: column index 0 out of range 1..3");
    expect_bad("index_text.mtx", FL_EPARSE, 4, "entry 2: column index \"b\" is not an integer");
}

Test(mm, symmetric_file_with_upper_entries)
{
    /* CHOLMOD alone would add (1,3) = 2 to (3,1) = 7 without a word */
    expect_bad("sym_upper.mtx", FL_EPARSE, 5,
               "entry 2: (1, 3) is above the diagonal; a symmetric file holds the lower "
               "triangle only");
}

Test(mm, malformed_entries)
{
    expect_bad("value_missing.mtx", FL_EPARSE, 4, "entry 2: the value is missing");
    expect_bad("value_text.mtx", FL_EPARSE, 4, "entry 2: value \"x7\" is not a number");
    expect_bad("extra_field.mtx", FL_EPARSE, 4, "entry 2: unexpected extra field \"5\"");
    expect_bad("col_missing.mtx", FL_EPARSE, 3, "entry 1: the column index is missing");
}

/* ---- writing ---------------------------------------------------------- */

static char out_path[128];

static const char *out_file(const char *name)
{
    snprintf(out_path, sizeof out_path, "%s/%s", tmpdir, name);
    return out_path;
}

/* First line of a file. */
static void first_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(buf, (int)len, f));
    fclose(f);
}

/* Write A, read it back, compare dense copies exactly (%.17g round-trips a
 * double), and check the banner names `kind`. */
static void round_trip(cholmod_sparse *A, const char *kind)
{
    fl_error err;
    const char *p = out_file("a.mtx");
    cr_assert_eq(fl_mm_write(&ctx, p, A, &err), FL_OK, "%s", err.message);
    char banner[128];
    first_line(p, banner, sizeof banner);
    char want[128];
    snprintf(want, sizeof want, "%%%%MatrixMarket matrix coordinate real %s\n", kind);
    cr_assert_str_eq(banner, want);
    cholmod_sparse *B = NULL;
    cr_assert_eq(fl_mm_read(&ctx, p, &B, &err), FL_OK, "%s", err.message);
    cr_assert_eq(B->stype != 0, A->stype != 0);
    gsl_matrix *DA, *DB;
    fl_sparse_to_dense(&ctx, A, &DA, NULL);
    fl_sparse_to_dense(&ctx, B, &DB, NULL);
    cr_assert_eq(DA->size1, DB->size1);
    cr_assert_eq(DA->size2, DB->size2);
    for (size_t i = 0; i < DA->size1; i++)
        for (size_t j = 0; j < DA->size2; j++)
            cr_assert_eq(gsl_matrix_get(DA, i, j), gsl_matrix_get(DB, i, j), "(%zu,%zu)", i, j);
    gsl_matrix_free(DA);
    gsl_matrix_free(DB);
    fl_sparse_free(&ctx, &B);
}

Test(mm, write_then_read_general_and_symmetric)
{
    int ri[] = {0, 1, 2, 0, 2, 1};
    int ci[] = {0, 1, 2, 2, 0, 0};
    double x[] = {1.0 / 3.0, 0.1, 1e-300, -2.0, 5.5, 7.0};
    cholmod_sparse *A;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 6, ri, ci, x, 0, &A, NULL), FL_OK);
    round_trip(A, "general");
    fl_sparse_free(&ctx, &A);
    /* upper storage keeps (0,0) (1,1) (2,2) (0,2); lower keeps (2,0) (1,0) */
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 6, ri, ci, x, 1, &A, NULL), FL_OK);
    round_trip(A, "symmetric");
    fl_sparse_free(&ctx, &A);
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 6, ri, ci, x, -1, &A, NULL), FL_OK);
    round_trip(A, "symmetric");
    fl_sparse_free(&ctx, &A);
}

Test(mm, write_unpacked_matrix)
{
    /* a 2 x 2 unpacked CSC: column j holds nz[j] entries from p[j] */
    cholmod_sparse *A = cholmod_allocate_sparse(2, 2, 4, 1, 0, 0, CHOLMOD_REAL, &ctx.cm);
    cr_assert_not_null(A);
    int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    double *Ax = A->x;
    Ap[0] = 0; Ap[1] = 2; Anz[0] = 1; Anz[1] = 2;
    Ai[0] = 1; Ax[0] = 3.0;        /* (1,0) */
    Ai[1] = 0; Ax[1] = 99.0;       /* slack beyond nz[0]: not an entry */
    Ai[2] = 0; Ax[2] = 4.0;        /* (0,1) */
    Ai[3] = 1; Ax[3] = 5.0;        /* (1,1) */
    fl_error err;
    cr_assert_eq(fl_mm_write(&ctx, out_file("u.mtx"), A, &err), FL_OK, "%s", err.message);
    cholmod_sparse *B = NULL;
    cr_assert_eq(fl_mm_read(&ctx, out_file("u.mtx"), &B, &err), FL_OK, "%s", err.message);
    gsl_matrix *D;
    fl_sparse_to_dense(&ctx, B, &D, NULL);
    const double want[] = {0, 4, 3, 5};
    expect_dense(D, 2, 2, want);
    gsl_matrix_free(D);
    fl_sparse_free(&ctx, &B);
    cholmod_free_sparse(&A, &ctx.cm);
}

Test(mm, write_refuses_bad_input_and_reports_io_errors)
{
    int ri[] = {0, 1};
    int ci[] = {0, 1};
    double x[] = {1.0, 2.0};
    cholmod_sparse *A;
    fl_error err;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 2, 2, 2, ri, ci, x, 0, &A, NULL), FL_OK);
    fl_status s = fl_mm_write(&ctx, "/nonexistent-dir/a.mtx", A, &err);
    cr_assert_eq(s, FL_EIO);
    cr_assert(strstr(err.message, "/nonexistent-dir/a.mtx: cannot create") != NULL, "%s",
              err.message);
    if (access("/dev/full", W_OK) == 0) {
        s = fl_mm_write(&ctx, "/dev/full", A, &err);
        cr_assert_eq(s, FL_EIO, "%s", err.message);
        cr_assert(strstr(err.message, "write failed: No space left on device") != NULL, "%s",
                  err.message);
    }
    ((double *)A->x)[1] = NAN;
    s = fl_mm_write(&ctx, out_file("nan.mtx"), A, &err);
    cr_assert_eq(s, FL_ENONFINITE);
    cr_assert(strstr(err.message, "A(2, 2) = nan is not finite") != NULL, "%s", err.message);
    cr_assert_eq(access(out_file("nan.mtx"), F_OK), -1, "nothing is written");
    fl_sparse_free(&ctx, &A);
    cr_assert_eq(fl_mm_write(&ctx, out_file("null.mtx"), NULL, &err), FL_EINVAL);
    cholmod_sparse *P = cholmod_allocate_sparse(2, 2, 0, 1, 1, 0, CHOLMOD_PATTERN, &ctx.cm);
    cr_assert_eq(fl_mm_write(&ctx, out_file("p.mtx"), P, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "need a real CHOLMOD matrix") != NULL, "%s", err.message);
    cholmod_free_sparse(&P, &ctx.cm);
}

/* ---- reproducers of the fuzzing campaign (fuzz/regression/mm/) ---------- */

static char regression_path[1024];

static const char *regression(const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    snprintf(regression_path, sizeof regression_path, "%s/fuzz/regression/mm/%s", root, name);
    return regression_path;
}

static void expect_refused(const char *path, fl_status want, int line, const char *part)
{
    cholmod_sparse *A = (cholmod_sparse *)1;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_mm_read(&ctx, path, &A, &err);
    cr_assert_eq(s, want, "%s: status %d, wanted %d: %s", path, s, want, err.message);
    cr_assert_null(A);
    cr_assert_eq(err.line, line, "%s: line %d, wanted %d: %s", path, err.line, line,
                 err.message);
    cr_assert_str_eq(err.file, path);
    cr_assert(strstr(err.message, part) != NULL, "\"%s\" lacks \"%s\"", err.message, part);
}

/* Tokens are parsed whole or refused: "-1.000...000garbage" is not -1 and
 * "0.000...nan" is not 0 (both were cut at 127 characters). */
Test(mm, over_long_tokens_are_refused_not_cut)
{
    expect_refused(regression("long_token_garbage.mtx"), FL_EPARSE, 3, "is not a number");
    expect_refused(regression("long_token_nan.mtx"), FL_EPARSE, 3, "(205 characters)");
    expect_refused(regression("long_token_index.mtx"), FL_EPARSE, 3, "is not an integer");
}

Test(mm, nul_inside_a_token_is_an_error)
{
    expect_refused(regression("nul_in_token.mtx"), FL_EPARSE, 3, "NUL byte");
}

Test(mm, integer_file_holding_a_real_is_refused)
{
    expect_refused(regression("integer_holds_2_7.mtx"), FL_EPARSE, 3,
                   "value \"2.7\" is not an integer");
}

/* A 60-byte file declaring 1 x 5e8 made CHOLMOD allocate 3.9 GB. */
Test(mm, dimensions_are_bounded_by_the_file_size)
{
    expect_refused(regression("header_1x5e8.mtx"), FL_EINVAL, 2, "1 x 500000000");
}

/* Lines beyond Matrix Market's 1024 characters would reach CHOLMOD's reader
 * in pieces: refused in pass 1. */
Test(mm, lines_beyond_1024_characters_are_refused)
{
    expect_refused(regression("long_comment_line.mtx"), FL_EPARSE, 3, "longer than 1024");
}

Test(mm, non_regular_files_are_refused)
{
    expect_refused("/dev/zero", FL_EIO, 0, "is a character device, not a regular file");
}
