/* test_problem_refusals.c — the shared validation of core/ (fl_problem.c: both
 * twins call fl_local_problem_check / fl_global_problem_check, so each
 * inconsistent struct below is refused once for both), the dense and sparse
 * helpers' size refusals, and the Matrix Market and JSON readers on the
 * defects their fixture tests do not contain.  Every refusal checks the
 * status and the field or file position named in the message; every
 * accepted input the values written in it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_json.h"
#include "fl_mm.h"
#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_rng.h"
#include "fl_sparse.h"
#include "symmetric_storage.h"

static void expect_err(fl_status got, fl_status want, const fl_error *err, const char *what)
{
    cr_assert_eq(got, want, "status %d, want %d (%s)", got, want, err->message);
    cr_assert(strstr(err->message, what), "'%s' should say '%s'", err->message, what);
}

/* ---- problem allocation and validation --------------------------------- */

Test(cov_io_core, allocation_bounds)
{
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    fl_error err;
    expect_err(fl_local_problem_alloc(SIZE_MAX / 64, 3, 0, &p, &err), FL_EINVAL, &err,
               "contacts is too many");
    /* m = 2^32: W would take 2^67 bytes, beyond size_t */
    expect_err(fl_local_problem_alloc((size_t)1 << 31, 2, 1, &p, &err), FL_ENOMEM, &err,
               "a dense W of order 4294967296 cannot be addressed");
    cr_assert_null(p);
    expect_err(fl_global_problem_alloc(SIZE_MAX / 32, 1, 3, 0, &g, &err), FL_EINVAL, &err,
               "is too many");
    expect_err(fl_global_problem_alloc((size_t)1 << 31, 1, 3, 1, &g, &err), FL_ENOMEM, &err,
               "cannot be addressed");
    expect_err(fl_global_problem_alloc((size_t)1 << 30, (size_t)1 << 31, 2, 1, &g, &err),
               FL_ENOMEM, &err, "cannot be addressed");
    cr_assert_null(g);
    gsl_rng *r = fl_rng_alloc(1);
    expect_err(fl_global_problem_random(r, 3, 1, 3, 0.5, 0.1, &g, &err), FL_EINVAL, &err,
               "need 0 < mu_lo <= mu_hi");
    expect_err(fl_global_problem_random(r, 3, 1, 3, 0.0, 0.1, &g, &err), FL_EINVAL, &err,
               "need 0 < mu_lo <= mu_hi");
    expect_err(fl_global_problem_random(r, 0, 1, 3, 0.1, 0.1, &g, &err), FL_EINVAL, &err,
               "n = 0 degrees of freedom");
    gsl_rng_free(r);
}

Test(cov_io_core, inconsistent_local_problems)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    p->mu[0] = p->mu[1] = 0.3;
    fl_error err;
    cr_assert_eq(fl_local_problem_check(p, &err), FL_OK, "%s", err.message);
    p->m = 5;
    expect_err(fl_local_problem_check(p, &err), FL_EINVAL, &err, "inconsistent dim 2, nc 2, m 5");
    p->m = 4;
    gsl_vector *q = p->q;
    p->q = NULL;
    expect_err(fl_local_problem_check(p, &err), FL_EDIM, &err, "q must have length 4");
    p->q = q;
    double *mu = p->mu;
    p->mu = NULL;
    expect_err(fl_local_problem_check(p, &err), FL_EINVAL, &err, "mu missing");
    p->mu = mu;
    gsl_matrix *W = p->W, *W43 = gsl_matrix_calloc(4, 3);
    p->W = W43;
    expect_err(fl_local_problem_check(p, &err), FL_EDIM, &err, "W is 4x3, expected 4x4");
    p->W = NULL;
    /* the sparse W: symmetric storage, without context, of the wrong shape, NaN */
    cholmod_sparse *S = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, W, 1, 0.0, &S, NULL), FL_OK);
    p->Ws = S;
    p->ctx = &ctx;
    expect_err(fl_local_problem_check(p, &err), FL_EDIM, &err, "must have unsymmetric (full) storage");
    fl_sparse_free(&ctx, &S);
    cr_assert_eq(fl_sparse_from_dense(&ctx, W43, 0, -1.0, &S, NULL), FL_OK);
    p->Ws = S;
    expect_err(fl_local_problem_check(p, &err), FL_EDIM, &err, "sparse W is 4x3, expected a real 4x4");
    fl_sparse_free(&ctx, &S);
    cr_assert_eq(fl_sparse_from_dense(&ctx, W, 0, 0.0, &S, NULL), FL_OK);
    p->Ws = S;
    p->ctx = NULL;
    expect_err(fl_local_problem_check(p, &err), FL_EINVAL, &err, "sparse matrix without its context");
    p->ctx = &ctx;
    ((double *)S->x)[0] = NAN;
    expect_err(fl_local_problem_check(p, &err), FL_ENONFINITE, &err, "sparse W has a NaN/Inf entry");
    ((double *)S->x)[0] = 1.0;
    /* U = W r + q on the sparse W: vectors of the wrong length or stride */
    gsl_vector *r = gsl_vector_calloc(4), *U = gsl_vector_calloc(4);
    gsl_matrix *A = gsl_matrix_calloc(4, 2);
    gsl_vector_view col = gsl_matrix_column(A, 0);
    expect_err(fl_local_problem_velocity(NULL, r, U, &err), FL_EDIM, &err, "length 0");
    expect_err(fl_local_problem_velocity(p, &col.vector, U, &err), FL_EINVAL, &err,
               "vectors must be contiguous");
    expect_err(fl_local_problem_velocity(p, r, &col.vector, &err), FL_EINVAL, &err,
               "vectors must be contiguous");
    gsl_vector_set_all(r, 1.0);
    cr_assert_eq(fl_local_problem_velocity(p, r, U, &err), FL_OK, "%s", err.message);
    cr_assert_eq(gsl_vector_get(U, 3), 1.0);   /* W = I, q = 0 */
    p->Ws = NULL;
    expect_err(fl_local_problem_velocity(p, r, U, &err), FL_EINVAL, &err, "W missing");
    /* the residual's own argument checks */
    double e;
    p->W = W;
    expect_err(fl_residual_local(p, NULL, U, FL_RESIDUAL_NORM_Q, &e, &err), FL_EINVAL, &err, "NULL argument");
    expect_err(fl_residual_local(p, r, U, FL_RESIDUAL_NORM_Q, NULL, &err), FL_EINVAL, &err, "NULL argument");
    expect_err(fl_residual_local(p, &col.vector, U, FL_RESIDUAL_NORM_Q, &e, &err), FL_EDIM, &err,
               "contiguous of length 4");
    expect_err(fl_residual_local(p, r, &col.vector, FL_RESIDUAL_NORM_Q, &e, &err), FL_EDIM, &err,
               "contiguous of length 4");
    gsl_vector *r3 = gsl_vector_calloc(3);
    expect_err(fl_residual_local(p, r, r3, FL_RESIDUAL_NORM_Q, &e, &err), FL_EDIM, &err, "length 4");
    gsl_vector_free(r3);
    /* asymmetry: NULL outputs accepted, a bad problem refused; a W with
     * W(1,0) = 2, W(0,1) = 0 named by a solver that needs symmetry */
    cr_assert_eq(fl_local_problem_asymmetry(p, NULL, NULL, NULL, NULL, &err), FL_OK);
    p->Ws = S;
    p->W = NULL;
    cr_assert_eq(fl_local_problem_asymmetry(p, NULL, NULL, NULL, NULL, &err), FL_OK);
    p->W = W;
    p->Ws = NULL;
    gsl_matrix_set(W, 1, 0, 2.0);
    expect_err(fl_local_problem_check_symmetric(p, NULL, &err), FL_EINVAL, &err,
               "this solver needs a symmetric W: largest asymmetry |W(1,0) - W(0,1)| = 2");
    p->nc = 3;
    expect_err(fl_local_problem_asymmetry(p, NULL, NULL, NULL, NULL, &err), FL_EINVAL, &err, "inconsistent");
    expect_err(fl_local_problem_check_symmetric(p, "nsgs", &err), FL_EINVAL, &err, "inconsistent");
    p->nc = 2;
    double asym = -1, scale = -1;
    cr_assert_eq(fl_triplet_asymmetry(0, NULL, NULL, NULL, &asym, NULL, NULL, &scale, &err), FL_OK);
    cr_assert(asym == 0 && scale == 0);
    cr_assert_eq(fl_triplet_asymmetry(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &err), FL_OK);
    fl_sparse_free(&ctx, &S);
    gsl_matrix_free(W43);
    gsl_matrix_free(A);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
}

Test(cov_io_core, inconsistent_global_problems)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(3, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    fl_error err;
    cr_assert_eq(fl_global_problem_check(g, &err), FL_OK, "%s", err.message);
    g->n = 0;
    expect_err(fl_global_problem_check(g, &err), FL_EINVAL, &err, "inconsistent dim 2, n 0");
    g->n = 3;
    g->m = 3;
    expect_err(fl_global_problem_check(g, &err), FL_EINVAL, &err, "m 3");
    g->m = 2;
    gsl_vector *f = g->f, *w = g->w, *w3 = gsl_vector_calloc(3);
    g->f = NULL;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "f must have length 3 and w 2");
    g->f = f;
    g->w = NULL;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "f must have length 3 and w 2");
    g->w = w3;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "f must have length 3 and w 2");
    g->w = w;
    gsl_matrix *M = g->M, *H = g->H, *M32 = gsl_matrix_calloc(3, 2), *H23 = gsl_matrix_calloc(2, 2);
    g->M = M32;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "M is 3x2, expected 3x3");
    g->M = M;
    g->H = H23;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "H is 2x2, expected 2x3");
    g->H = H;
    /* the sparse H of the wrong shape */
    cholmod_sparse *Hs = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, H23, 0, -1.0, &Hs, NULL), FL_OK);
    g->Hs = Hs;
    g->ctx = &ctx;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "sparse H is 2x2, expected a real 2x3");
    fl_global_problem_free(g);
    gsl_matrix_free(M32);
    gsl_matrix_free(H23);
    gsl_vector_free(w3);
    fl_sparse_finish(&ctx);
}

/* ---- dense and sparse helpers ------------------------------------------- */

Test(cov_io_core, dense_sizes_and_splits)
{
    cr_assert_null(fl_dense_vector_alloc(SIZE_MAX / 4));
    cr_assert_null(fl_dense_vector_calloc(SIZE_MAX / 4));
    /* M = I, D = [1 0]: the M-orthogonal split of v onto span(D^T) keeps the
     * first component; the reaction split gives lambda = r_0 */
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *D = gsl_matrix_calloc(1, 2);
    gsl_matrix_set_identity(M);
    gsl_matrix_set(D, 0, 0, 1.0);
    fl_spd *spd = NULL;
    cr_assert_eq(fl_spd_alloc(M, &spd, NULL), FL_OK);
    gsl_vector *v = gsl_vector_alloc(2), *a = gsl_vector_alloc(2), *b3 = gsl_vector_alloc(3),
               *lam = gsl_vector_alloc(1), *lam2 = gsl_vector_alloc(2);
    gsl_vector_set(v, 0, 3.0);
    gsl_vector_set(v, 1, 4.0);
    cr_assert_eq(fl_spd_solve(spd, b3, a), FL_EDIM);
    cr_assert_eq(fl_spd_solve(spd, v, b3), FL_EDIM);
    gsl_matrix *B = gsl_matrix_alloc(2, 2), *X = gsl_matrix_alloc(2, 3), *X3 = gsl_matrix_alloc(3, 2);
    cr_assert_eq(fl_spd_solve_matrix(spd, X3, B), FL_EDIM);
    cr_assert_eq(fl_spd_solve_matrix(spd, B, X3), FL_EDIM);
    cr_assert_eq(fl_spd_solve_matrix(spd, B, X), FL_EDIM);
    fl_error err;
    expect_err(fl_spd_split_velocity(spd, D, v, b3, NULL, &err), FL_EDIM, &err, "velocity split");
    expect_err(fl_spd_split_velocity(spd, D, v, NULL, b3, &err), FL_EDIM, &err, "velocity split");
    cr_assert_eq(fl_spd_split_velocity(spd, D, v, NULL, a, &err), FL_OK, "%s", err.message);
    cr_assert_eq(gsl_vector_get(a, 0), 0.0);
    cr_assert_eq(gsl_vector_get(a, 1), 4.0);
    expect_err(fl_spd_split_reaction(spd, D, v, b3, NULL, NULL, &err), FL_EDIM, &err, "reaction split");
    expect_err(fl_spd_split_reaction(spd, D, v, NULL, b3, NULL, &err), FL_EDIM, &err, "reaction split");
    expect_err(fl_spd_split_reaction(spd, D, v, NULL, NULL, lam2, &err), FL_EDIM, &err, "(lambda 1)");
    cr_assert_eq(fl_spd_split_reaction(spd, D, v, a, NULL, lam, &err), FL_OK, "%s", err.message);
    cr_assert_eq(gsl_vector_get(a, 0), 3.0);
    cr_assert_eq(gsl_vector_get(a, 1), 0.0);
    cr_assert_eq(gsl_vector_get(lam, 0), 3.0);
    fl_spd_free(spd);
    gsl_matrix_free(M);
    gsl_matrix_free(D);
    gsl_matrix_free(B);
    gsl_matrix_free(X);
    gsl_matrix_free(X3);
    gsl_vector_free(v);
    gsl_vector_free(a);
    gsl_vector_free(b3);
    gsl_vector_free(lam);
    gsl_vector_free(lam2);
}

Test(cov_io_core, sparse_refusals_and_symmetric_storage)
{
    fl_sparse_ctx ctx;
    fl_sparse_finish(NULL);
    memset(&ctx, 0, sizeof ctx);
    fl_sparse_finish(&ctx);   /* never started: nothing to do */
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_error err;
    cholmod_sparse *A = NULL;
    int bad_r[] = {0, -1}, bad_c[] = {-1, 0};
    double x[] = {1, 1};
    expect_err(fl_sparse_from_triplet(&ctx, 2, 2, 1, bad_r, bad_c, x, 0, &A, &err), FL_EINVAL, &err,
               "index (0,-1) outside 2x2");
    expect_err(fl_sparse_from_triplet(&ctx, 2, 2, 2, bad_c, bad_r, x, 0, &A, &err), FL_EINVAL, &err,
               "entry 0: index (-1,0)");
    for (int stype = -1; stype <= 1; stype += 2) {
        A = tagged_symmetric(&ctx, stype);
        gsl_matrix *D = NULL;
        cr_assert_eq(fl_sparse_to_dense(&ctx, A, &D, NULL), FL_OK);
        expect_tagged(D, stype);
        gsl_matrix_free(D);
        /* Matrix Market round trip of either storage: the same matrix */
        char path[64];
        snprintf(path, sizeof path, "/tmp/fl_cov_mm_%d.mtx", (int)getpid());
        cr_assert_eq(fl_mm_write(&ctx, path, A, &err), FL_OK, "%s", err.message);
        cholmod_sparse *B = NULL;
        cr_assert_eq(fl_mm_read(&ctx, path, &B, &err), FL_OK, "%s", err.message);
        cr_assert_eq(fl_sparse_to_dense(&ctx, B, &D, NULL), FL_OK);
        expect_tagged(D, stype);
        gsl_matrix_free(D);
        fl_sparse_free(&ctx, &B);
        remove(path);
        expect_err(fl_mm_write(&ctx, "/dev/full", A, &err), FL_EIO, &err, "/dev/full: write failed");
        fl_sparse_free(&ctx, &A);
    }
    /* Cholesky needs symmetric storage; LU a square, non-empty, real int,
     * finite matrix */
    int r2[] = {0, 1}, c2[] = {0, 1};
    double x2[] = {1, NAN};
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 2, 3, 1, r2, c2, x, 0, &A, NULL), FL_OK);
    cholmod_factor *L = NULL;
    expect_err(fl_sparse_factor(&ctx, A, &L, &err), FL_EINVAL, &err, "symmetric storage");
    A->stype = 1;   /* a mislabelled rectangular matrix */
    expect_err(fl_sparse_factor(&ctx, A, &L, &err), FL_EINVAL, &err, "square matrix");
    A->stype = 0;
    fl_sparse_lu *lu = NULL;
    expect_err(fl_sparse_lu_alloc(&ctx, NULL, &lu, &err), FL_EDIM, &err, "square and non-empty");
    expect_err(fl_sparse_lu_alloc(&ctx, A, &lu, &err), FL_EDIM, &err, "square and non-empty");
    fl_sparse_free(&ctx, &A);
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 0, 0, 0, r2, c2, x, 0, &A, NULL), FL_OK);
    expect_err(fl_sparse_lu_alloc(&ctx, A, &lu, &err), FL_EDIM, &err, "square and non-empty");
    fl_sparse_free(&ctx, &A);
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 2, 2, 2, r2, c2, x, 0, &A, NULL), FL_OK);
    cholmod_sparse view = *A;
    view.itype = CHOLMOD_LONG;
    expect_err(fl_sparse_lu_alloc(&ctx, &view, &lu, &err), FL_EINVAL, &err, "int indices expected");
    expect_err(fl_mm_write(&ctx, "/tmp/unused.mtx", &view, &err), FL_EINVAL, &err,
               "need a real CHOLMOD matrix with int indices");
    view = *A;
    view.xtype = CHOLMOD_PATTERN;
    expect_err(fl_sparse_lu_alloc(&ctx, &view, &lu, &err), FL_EINVAL, &err, "real matrix");
    expect_err(fl_mm_write(&ctx, "/tmp/unused.mtx", NULL, &err), FL_EINVAL, &err, "need a real");
    ((double *)A->x)[1] = x2[1];
    expect_err(fl_sparse_lu_alloc(&ctx, A, &lu, &err), FL_ENONFINITE, &err, "non-finite entry 1");
    cr_assert_null(lu);
    fl_sparse_free(&ctx, &A);
    fl_sparse_free(&ctx, &A);   /* already NULL */
    fl_sparse_free_factor(&ctx, &L);
    fl_sparse_free_factor(&ctx, NULL);
    fl_sparse_finish(&ctx);
}

/* ---- Matrix Market ------------------------------------------------------ */

static char mm_path[64];

static fl_status mm_text(const char *text, size_t len, fl_error *err, cholmod_sparse **A,
                         fl_sparse_ctx *ctx)
{
    snprintf(mm_path, sizeof mm_path, "/tmp/fl_cov_mm_in_%d.mtx", (int)getpid());
    FILE *f = fopen(mm_path, "wb");
    cr_assert_not_null(f);
    fwrite(text, 1, len, f);
    fclose(f);
    fl_error_clear(err);
    return fl_mm_read(ctx, mm_path, A, err);
}

static void expect_mm(const char *text, size_t len, fl_status want, int line, const char *what)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_error err;
    cholmod_sparse *A = NULL;
    fl_status s = mm_text(text, len ? len : strlen(text), &err, &A, &ctx);
    cr_assert_eq(s, want, "status %d, want %d (%s)", s, want, err.message);
    cr_assert_null(A);
    cr_assert_str_eq(err.file, mm_path);
    cr_assert_eq(err.line, line, "line %d, want %d (%s)", err.line, line, err.message);
    cr_assert(strstr(err.message, what), "'%s' should say '%s'", err.message, what);
    fl_sparse_finish(&ctx);
    remove(mm_path);
}

#define BANNER "%%MatrixMarket matrix coordinate real general\n"

Test(cov_io_core, matrix_market_defects)
{
    expect_mm("", 0, FL_EPARSE, 0, "empty file");
    expect_mm("\n2 2 1\n", 0, FL_EPARSE, 1, "must start with '%%MatrixMarket'");
    expect_mm("%%MatrixMarket tensor coordinate real general\n", 0, FL_EPARSE, 1,
              "banner field \"object\": unknown word \"tensor\"");
    static const char nul[] = BANNER "% a\0b\n2 2 1\n1 1 1\n";
    expect_mm(nul, sizeof nul - 1, FL_EPARSE, 2, "line contains a NUL byte");
    char longline[1200];
    snprintf(longline, sizeof longline, "%s%%%01100d\n2 2 1\n1 1 1\n", BANNER, 0);
    expect_mm(longline, 0, FL_EPARSE, 2, "line is longer than 1024 characters");
    expect_mm(BANNER "99999999999999999999 2 1\n", 0, FL_EPARSE, 2,
              "field \"rows\" of the size line: expected an integer >= 1");
    expect_mm(BANNER "2 100000000 0\n", 0, FL_EINVAL, 2, "may declare at most");
    expect_mm("%%MatrixMarket matrix coordinate real symmetric\n3 3 7\n", 0, FL_EPARSE, 2,
              "7 entries cannot fit in a 3 x 3 symmetric (lower triangle) matrix");
    expect_mm(BANNER "2 2 1\n99999999999999999999 1 1\n", 0, FL_EPARSE, 3,
              "entry 1: row index \"99999999999999999999\" is not an integer");
    expect_mm("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 99999999999999999999\n",
              0, FL_EPARSE, 3, "is not an integer (the banner says 'integer')");
    /* blank lines and comments between entries are skipped */
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_error err;
    cholmod_sparse *A = NULL;
    const char *good = BANNER "2 2 2\n1 1 5\n\n% note\n2 1 -3\n";
    cr_assert_eq(mm_text(good, strlen(good), &err, &A, &ctx), FL_OK, "%s", err.message);
    gsl_matrix *D = NULL;
    cr_assert_eq(fl_sparse_to_dense(&ctx, A, &D, NULL), FL_OK);
    cr_assert_eq(gsl_matrix_get(D, 0, 0), 5.0);
    cr_assert_eq(gsl_matrix_get(D, 1, 0), -3.0);
    cr_assert_eq(gsl_matrix_get(D, 0, 1), 0.0);
    gsl_matrix_free(D);
    fl_sparse_free(&ctx, &A);
    remove(mm_path);
    fl_sparse_finish(&ctx);
}

/* ---- JSON ---------------------------------------------------------------- */

static char js_path[64];

static const char *json_file(const char *text)
{
    snprintf(js_path, sizeof js_path, "/tmp/fl_cov_json_%d.json", (int)getpid());
    FILE *f = fopen(js_path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return js_path;
}

/* The error names the file, the JSON path and the line:column of the member. */
static void expect_json(fl_status got, fl_status want, const fl_error *err, const char *where)
{
    cr_assert_eq(got, want, "status %d, want %d (%s)", got, want, err->message);
    cr_assert_str_eq(err->file, js_path);
    cr_assert(strstr(err->message, where), "'%s' should say '%s'", err->message, where);
}

Test(cov_io_core, json_members_of_the_wrong_kind)
{
    const char *text = "{\n\t\"a\": 1,\r\n"
                       "  \"s\": \"x\\\"y\",\n"
                       "  \"o\": {\"q\\\"k\": 2},\n"
                       "  \"arr\": [1, 2],\n"
                       "  \"e\": [],\n"
                       "  \"t\": true\n}\n";
    fl_json_doc *doc = NULL;
    fl_error err;
    cr_assert_eq(fl_json_load(json_file(text), &doc, &err), FL_OK, "%s", err.message);
    const json_t *root = doc->root, *o = json_object_get(root, "o"), *arr = json_object_get(root, "arr");
    long l;
    const char *s;
    int b;
    const json_t *v;
    gsl_vector *x = NULL;
    gsl_matrix *M = NULL;
    double d;
    expect_json(fl_json_integer(doc, root, "", "zz", &l, &err), FL_EPARSE, &err,
                "field 'zz': missing (required member of the top-level object)");
    expect_json(fl_json_integer(doc, root, "", "s", &l, &err), FL_EPARSE, &err,
                ":3:3: field 's': expected an integer, got a string");
    expect_json(fl_json_string(doc, root, "", "zz", &s, &err), FL_EPARSE, &err, "missing");
    expect_json(fl_json_string(doc, root, "", "a", &s, &err), FL_EPARSE, &err,
                ":2:2: field 'a': expected a string, got an integer");
    expect_json(fl_json_bool(doc, root, "", "zz", &b, &err), FL_EPARSE, &err, "missing");
    expect_json(fl_json_bool(doc, root, "", "a", &b, &err), FL_EPARSE, &err, "expected true or false");
    cr_assert_eq(fl_json_bool(doc, root, "", "t", &b, &err), FL_OK);
    cr_assert_eq(b, 1);
    expect_json(fl_json_object(doc, root, "", "zz", &v, &err), FL_EPARSE, &err, "missing");
    expect_json(fl_json_object(doc, root, "", "a", &v, &err), FL_EPARSE, &err, "expected an object");
    expect_json(fl_json_array(doc, root, "", "zz", 0, &v, &err), FL_EPARSE, &err, "missing");
    expect_json(fl_json_array(doc, root, "", "a", 0, &v, &err), FL_EPARSE, &err, "expected an array");
    expect_json(fl_json_vector(doc, root, "", "zz", 0, &x, &err), FL_EPARSE, &err, "missing");
    expect_json(fl_json_matrix(doc, root, "", "zz", 0, 0, &M, &err), FL_EPARSE, &err, "missing");
    expect_json(fl_json_matrix(doc, root, "", "e", 0, 0, &M, &err), FL_EDIM, &err,
                "field 'e': expected a non-empty array of rows, got an empty array");
    expect_json(fl_json_matrix(doc, root, "", "a", 0, 0, &M, &err), FL_EPARSE, &err,
                "expected a non-empty array of rows, got an integer");
    expect_json(fl_json_matrix(doc, root, "", "arr", 0, 0, &M, &err), FL_EPARSE, &err,
                ":5:11: field 'arr[0]': expected an array of numbers, got an integer");
    cr_assert_null(M);
    /* a member of an object whose key holds an escaped quote (the position
     * finder decodes keys), and of a value that is no object */
    expect_json(fl_json_integer(doc, o, "o", "zz", &l, &err), FL_EPARSE, &err,
                ":4:8: field 'o.zz': missing (required member of o)");
    expect_json(fl_json_number_or(doc, arr, "arr", "k", 1.0, &d, &err), FL_EPARSE, &err,
                "field 'arr.k': cannot look up a member in an array");
    cr_assert_eq(fl_json_number_or(doc, NULL, "", "k", 1.0, &d, &err), FL_EINVAL);
    cr_assert_eq(fl_json_number_or(doc, o, "o", "absent", 1.5, &d, &err), FL_OK);
    cr_assert_eq(d, 1.5);
    /* caller-side reports: about the document itself, about a key of an
     * array, about an object that is not part of the document */
    expect_json(fl_json_error(doc, root, NULL, NULL, &err, FL_EINVAL, "bad %d", 1), FL_EINVAL, &err,
                ":1:1: field '(top level)': bad 1");
    expect_json(fl_json_error(doc, arr, "arr", "k", &err, FL_EINVAL, "bad"), FL_EINVAL, &err,
                ":5:10: field 'arr.k': bad");
    json_t *stray = json_object();
    expect_json(fl_json_error(doc, stray, "", NULL, &err, FL_EINVAL, "stray"), FL_EINVAL, &err,
                ": field '(top level)': stray");
    cr_assert_eq(err.line, 0);
    json_decref(stray);
    fl_json_free(doc);
    /* an integer literal beyond jansson's range is a syntax error, not Inf */
    expect_json(fl_json_load(json_file("{\"a\": 99999999999999999999999}"), &doc, &err), FL_EPARSE,
                &err, "too big");
    /* a file above FL_JSON_MAX_BYTES (a sparse file: no disk used) */
    json_file("{}");
    cr_assert_eq(truncate(js_path, (off_t)FL_JSON_MAX_BYTES + 1), 0);
    expect_json(fl_json_load(js_path, &doc, &err), FL_EINVAL, &err,
                "more than the 67108864 a JSON parameter file may have");
    cr_assert_null(doc);
    remove(js_path);
}

/* The remaining fields of the shared checks, one at a time. */
Test(cov_io_core, each_remaining_field_of_the_shared_checks)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_error err;
    fl_global_problem *g = NULL;
    expect_err(fl_global_problem_alloc(3, SIZE_MAX / 64, 3, 0, &g, &err), FL_EINVAL, &err,
               "is too many");
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    p->dim = 4;
    p->m = 8;
    expect_err(fl_local_problem_check(p, &err), FL_EINVAL, &err, "inconsistent dim 4, nc 2, m 8");
    p->dim = 2;
    p->m = 4;
    gsl_vector *q = p->q, *q3 = gsl_vector_calloc(3);
    p->q = q3;
    expect_err(fl_local_problem_check(p, &err), FL_EDIM, &err, "q must have length 4");
    p->q = q;
    /* a pattern-only sparse W (no values) */
    cholmod_sparse *S = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &S, NULL), FL_OK);
    cholmod_sparse view = *S;
    view.xtype = CHOLMOD_PATTERN;
    gsl_matrix *W = p->W;
    p->W = NULL;
    p->Ws = &view;
    p->ctx = &ctx;
    expect_err(fl_local_problem_check(p, &err), FL_EDIM, &err, "expected a real 4x4 matrix");
    /* U = W r + q: U missing, r of the wrong length, a sparse W without context */
    gsl_vector *r = gsl_vector_calloc(4), *U = gsl_vector_calloc(4);
    p->Ws = S;
    expect_err(fl_local_problem_velocity(p, r, NULL, &err), FL_EDIM, &err, "must have length 4");
    expect_err(fl_local_problem_velocity(p, q3, U, &err), FL_EDIM, &err, "must have length 4");
    p->ctx = NULL;
    expect_err(fl_local_problem_velocity(p, r, U, &err), FL_EINVAL, &err, "W missing");
    p->ctx = &ctx;
    fl_sparse_free(&ctx, &S);
    p->Ws = NULL;
    p->W = W;
    fl_local_problem_free(p);
    /* a global f of the wrong length */
    cr_assert_eq(fl_global_problem_alloc(3, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_vector *f = g->f, *f2 = gsl_vector_calloc(2);
    g->f = f2;
    expect_err(fl_global_problem_check(g, &err), FL_EDIM, &err, "f must have length 3 and w 2");
    g->f = f;
    fl_global_problem_free(g);
    gsl_vector_free(f2);
    gsl_vector_free(q3);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_sparse_finish(&ctx);
}

Test(cov_io_core, matrix_market_size_line_bounds)
{
    expect_mm(BANNER "0 2 0\n", 0, FL_EPARSE, 2, "field \"rows\" of the size line: expected an integer >= 1");
    expect_mm(BANNER "100000000 2 0\n", 0, FL_EINVAL, 2, "declares 100000000 x 2");
    static const char nul[] = "\0\n";
    expect_mm(nul, sizeof nul - 1, FL_EPARSE, 1, "line contains a NUL byte");
}

/* A boolean false, a matrix of given width, a missing member of the root
 * object given with a NULL path. */
Test(cov_io_core, json_false_widths_and_unnamed_objects)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    cr_assert_eq(fl_json_load(json_file("{\"f\": false, \"m\": [[1, 2], [3, 4]]}"), &doc,
                              &err), FL_OK, "%s", err.message);
    int b = 1;
    cr_assert_eq(fl_json_bool(doc, doc->root, "", "f", &b, &err), FL_OK);
    cr_assert_eq(b, 0);
    gsl_matrix *M = NULL;
    cr_assert_eq(fl_json_matrix(doc, doc->root, "", "m", 2, 2, &M, &err), FL_OK, "%s", err.message);
    cr_assert_eq(gsl_matrix_get(M, 1, 0), 3.0);
    gsl_matrix_free(M);
    expect_json(fl_json_matrix(doc, doc->root, "", "m", 0, 3, &M, &err), FL_EDIM, &err,
                "field 'm[0]': expected 3 entries, got 2");
    expect_json(fl_json_matrix(doc, doc->root, "", "m", 3, 0, &M, &err), FL_EDIM, &err,
                "field 'm': expected 3 rows, got 2");
    long l;
    expect_json(fl_json_integer(doc, doc->root, NULL, "zz", &l, &err), FL_EPARSE, &err,
                "field 'zz': missing (required member of the top-level object)");
    fl_json_free(doc);
    remove(js_path);
}
