/* test_fl_sparse.c — CHOLMOD helpers (core/fl_sparse.c) against dense GSL. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>

#include "fl_dense.h"
#include "testkit/fl_random.h"
#include "fl_sparse.h"

static fl_sparse_ctx ctx;
static void setup(void) { cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK); }
static void teardown(void) { fl_sparse_finish(&ctx); }

TestSuite(sparse, .init = setup, .fini = teardown);

Test(sparse, triplets_sum_duplicates)
{
    int ri[] = {0, 1, 1, 0, 2};
    int ci[] = {0, 1, 1, 2, 0};
    double x[] = {1.0, 2.0, 3.0, 4.0, 5.0};
    cholmod_sparse *A;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 5, ri, ci, x, 0, &A, NULL), FL_OK);
    gsl_matrix *D;
    cr_assert_eq(fl_sparse_to_dense(&ctx, A, &D, NULL), FL_OK);
    cr_assert_eq(gsl_matrix_get(D, 0, 0), 1.0);
    cr_assert_eq(gsl_matrix_get(D, 1, 1), 5.0);
    cr_assert_eq(gsl_matrix_get(D, 0, 2), 4.0);
    cr_assert_eq(gsl_matrix_get(D, 2, 0), 5.0);
    cr_assert_eq(gsl_matrix_get(D, 2, 2), 0.0);
    gsl_matrix_free(D);
    fl_sparse_free(&ctx, &A);
    cr_assert_null(A);
}

Test(sparse, symmetric_storage_keeps_one_triangle_and_expands)
{
    int ri[] = {0, 1, 0, 1};
    int ci[] = {0, 0, 1, 1};
    double x[] = {4.0, 99.0, 1.0, 3.0};     /* (1,0) is ignored in upper storage */
    cholmod_sparse *A;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 2, 2, 4, ri, ci, x, 1, &A, NULL), FL_OK);
    gsl_matrix *D;
    fl_sparse_to_dense(&ctx, A, &D, NULL);
    cr_assert_eq(gsl_matrix_get(D, 1, 0), 1.0);
    cr_assert_eq(gsl_matrix_get(D, 0, 1), 1.0);
    gsl_matrix_free(D);
    fl_sparse_free(&ctx, &A);
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 2, 2, 4, ri, ci, x, -1, &A, NULL), FL_OK);
    fl_sparse_to_dense(&ctx, A, &D, NULL);
    cr_assert_eq(gsl_matrix_get(D, 0, 1), 99.0);
    gsl_matrix_free(D);
    fl_sparse_free(&ctx, &A);
}

Test(sparse, bad_triplets_are_rejected)
{
    int ri[] = {0, 3};
    int ci[] = {0, 0};
    double x[] = {1.0, 2.0};
    cholmod_sparse *A = NULL;
    fl_error e;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 2, ri, ci, x, 0, &A, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "entry 1"));
    cr_assert_null(A);
    ri[1] = 1;
    x[1] = NAN;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 2, ri, ci, x, 0, &A, &e), FL_ENONFINITE);
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 2, 2, ri, ci, x, 1, &A, &e), FL_EDIM);
    int neg[] = {-1, 0};
    x[1] = 1.0;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 2, neg, ci, x, 0, &A, &e), FL_EINVAL);
}

Test(sparse, factor_solve_matches_dense_and_reuses_the_analysis)
{
    gsl_rng *r = fl_test_rng(31);
    for (int k = 0; k < 20; k++) {
        size_t n = 5 + gsl_rng_uniform_int(r, 60);
        cholmod_sparse *A = fl_random_sparse_spd(r, &ctx, n, 4, 100.0);
        cr_assert_not_null(A);
        gsl_matrix *Ad;
        cr_assert_eq(fl_sparse_to_dense(&ctx, A, &Ad, NULL), FL_OK);
        fl_spd *s;
        cr_assert_eq(fl_spd_alloc(Ad, &s, NULL), FL_OK, "%s", fl_test_seed_note());
        cholmod_factor *L = NULL;
        cr_assert_eq(fl_sparse_factor(&ctx, A, &L, NULL), FL_OK);
        gsl_vector *b = gsl_vector_alloc(n), *xd = gsl_vector_alloc(n), *xs = gsl_vector_alloc(n);
        fl_random_vector(r, 1.0, b);
        fl_spd_solve(s, b, xd);
        cr_assert_eq(fl_sparse_solve(&ctx, L, b->data, xs->data, NULL), FL_OK);
        for (size_t i = 0; i < n; i++)
            cr_assert(fl_close(gsl_vector_get(xs, i), gsl_vector_get(xd, i), 1e-10, 1e-9),
                      "%s", fl_test_seed_note());
        /* same pattern, values doubled: reuse L, solution halves */
        double *Ax = A->x;
        for (int p = 0; p < ((int *)A->p)[n]; p++) Ax[p] *= 2.0;
        cr_assert_eq(fl_sparse_factor(&ctx, A, &L, NULL), FL_OK);
        cr_assert_eq(fl_sparse_solve(&ctx, L, b->data, b->data, NULL), FL_OK);  /* in place */
        for (size_t i = 0; i < n; i++)
            cr_assert(fl_close(gsl_vector_get(b, i), 0.5 * gsl_vector_get(xd, i), 1e-10, 1e-9));
        /* matrix-vector product against dense */
        fl_random_vector(r, 1.0, b);
        gsl_vector_set_all(xs, 1.0);
        cr_assert_eq(fl_sparse_mv(&ctx, A, 0, 1.0, b->data, 2.0, xs->data, NULL), FL_OK);
        gsl_vector_set_all(xd, 1.0);
        gsl_blas_dgemv(CblasNoTrans, 2.0, Ad, b, 2.0, xd);   /* A was doubled */
        for (size_t i = 0; i < n; i++)
            cr_assert(fl_close(gsl_vector_get(xs, i), gsl_vector_get(xd, i), 1e-12, 1e-12));
        gsl_vector_free(b); gsl_vector_free(xd); gsl_vector_free(xs);
        gsl_matrix_free(Ad);
        fl_spd_free(s);
        fl_sparse_free_factor(&ctx, &L);
        fl_sparse_free(&ctx, &A);
    }
    gsl_rng_free(r);
}

Test(sparse, random_sparse_spd_spectrum_is_in_the_requested_range)
{
    gsl_rng *r = fl_test_rng(32);
    for (int k = 0; k < 10; k++) {
        size_t n = 10 + gsl_rng_uniform_int(r, 50);
        double cond = exp(5.0 * gsl_rng_uniform(r));
        cholmod_sparse *A = fl_random_sparse_spd(r, &ctx, n, 3, cond);
        gsl_matrix *D;
        fl_sparse_to_dense(&ctx, A, &D, NULL);
        gsl_vector *ev = gsl_vector_alloc(n);
        gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(n);
        gsl_eigen_symm(D, ev, w);
        cr_assert_geq(gsl_vector_min(ev), 1.0 - 1e-10, "%s", fl_test_seed_note());
        cr_assert_leq(gsl_vector_max(ev), cond + 1e-8, "%s", fl_test_seed_note());
        gsl_eigen_symm_free(w);
        gsl_vector_free(ev);
        gsl_matrix_free(D);
        fl_sparse_free(&ctx, &A);
    }
    gsl_rng_free(r);
}

Test(sparse, not_spd_and_wrong_storage_are_reported)
{
    gsl_matrix *Ad = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(Ad, 0, 0, 1.0);
    gsl_matrix_set(Ad, 0, 1, 2.0);
    gsl_matrix_set(Ad, 1, 0, 2.0);
    gsl_matrix_set(Ad, 1, 1, 1.0);
    cholmod_sparse *A, *U;
    cholmod_factor *L = NULL;
    fl_error e;
    cr_assert_eq(fl_sparse_from_dense(&ctx, Ad, 1, 0.0, &A, NULL), FL_OK);
    cr_assert_eq(fl_sparse_factor(&ctx, A, &L, &e), FL_ENOTSPD);
    cr_assert(strstr(e.message, "positive definite"));
    fl_sparse_free_factor(&ctx, &L);
    cr_assert_eq(fl_sparse_from_dense(&ctx, Ad, 0, 0.0, &U, NULL), FL_OK);
    cr_assert_eq(fl_sparse_factor(&ctx, U, &L, &e), FL_EINVAL);
    cr_assert_null(L);
    /* a factor of order 2 reused for a 3x3 matrix */
    gsl_matrix *I3 = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(I3);
    gsl_matrix_set_identity(Ad);
    cholmod_sparse *B, *C;
    fl_sparse_from_dense(&ctx, Ad, 1, 0.0, &B, NULL);
    fl_sparse_from_dense(&ctx, I3, 1, 0.0, &C, NULL);
    cr_assert_eq(fl_sparse_factor(&ctx, B, &L, NULL), FL_OK);
    cr_assert_eq(fl_sparse_factor(&ctx, C, &L, &e), FL_EDIM);
    fl_sparse_free_factor(&ctx, &L);
    fl_sparse_free(&ctx, &A);
    fl_sparse_free(&ctx, &U);
    fl_sparse_free(&ctx, &B);
    fl_sparse_free(&ctx, &C);
    gsl_matrix_free(Ad);
    gsl_matrix_free(I3);
}

Test(sparse, dense_round_trip_with_drop_tolerance)
{
    gsl_matrix *Ad = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(Ad, 0, 0, 1.0);
    gsl_matrix_set(Ad, 2, 1, -2.0);
    gsl_matrix_set(Ad, 1, 0, 1e-20);
    cholmod_sparse *A;
    cr_assert_eq(fl_sparse_from_dense(&ctx, Ad, 0, 1e-15, &A, NULL), FL_OK);
    cr_assert_eq(((int *)A->p)[2], 2);     /* the tiny entry was dropped */
    gsl_matrix *B;
    fl_sparse_to_dense(&ctx, A, &B, NULL);
    cr_assert_eq(gsl_matrix_get(B, 2, 1), -2.0);
    cr_assert_eq(gsl_matrix_get(B, 1, 0), 0.0);
    gsl_matrix_set(Ad, 1, 1, NAN);
    cholmod_sparse *C = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, Ad, 0, 1e-15, &C, NULL), FL_ENONFINITE);
    gsl_matrix_free(B);
    gsl_matrix_free(Ad);
    fl_sparse_free(&ctx, &A);
}

/* fl_sparse_mv with transpose = 1 on a rectangular matrix, against the
 * product written out by hand: A = [1 0 2; 0 -3 0] (2 x 3), x = (1, 2),
 * A^T x = (1, -6, 2); y = 2 A^T x + 1 * (1, 1, 1) = (3, -11, 5). */
Test(sparse, mv_transpose_rectangular)
{
    gsl_matrix *Ad = gsl_matrix_calloc(2, 3);
    gsl_matrix_set(Ad, 0, 0, 1.0);
    gsl_matrix_set(Ad, 0, 2, 2.0);
    gsl_matrix_set(Ad, 1, 1, -3.0);
    cholmod_sparse *A = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, Ad, 0, 0.0, &A, NULL), FL_OK);
    double x[2] = {1.0, 2.0}, y[3] = {1.0, 1.0, 1.0};
    cr_assert_eq(fl_sparse_mv(&ctx, A, 1, 2.0, x, 1.0, y, NULL), FL_OK);
    cr_assert_eq(y[0], 3.0);
    cr_assert_eq(y[1], -11.0);
    cr_assert_eq(y[2], 5.0);
    double z[2] = {0.0, 0.0}, w[3] = {1.0, 1.0, 1.0};   /* and A w = (3, -3) */
    cr_assert_eq(fl_sparse_mv(&ctx, A, 0, 1.0, w, 0.0, z, NULL), FL_OK);
    cr_assert_eq(z[0], 3.0);
    cr_assert_eq(z[1], -3.0);
    fl_sparse_free(&ctx, &A);
    gsl_matrix_free(Ad);
}

/* fl_sparse_check_finite reads exactly the stored entries: of an unpacked
 * matrix only the first nz[j] of each column (a NaN in the slack after them
 * is not an entry), and names the first non-finite one as the dense check
 * fl_check_finite_matrix does. */
Test(sparse, check_finite_reads_the_stored_entries_only)
{
    cholmod_sparse *A = cholmod_allocate_sparse(2, 2, 4, 1, 0, 0, CHOLMOD_REAL, &ctx.cm);
    cr_assert_not_null(A);
    int *p = A->p, *i = A->i, *nz = A->nz;
    double *x = A->x;
    p[0] = 0, p[1] = 2, p[2] = 4;
    nz[0] = 1, nz[1] = 2;                       /* column 0 stores one entry, then slack */
    i[0] = 0, x[0] = 1.0, i[1] = 1, x[1] = NAN;
    i[2] = 0, x[2] = 2.0, i[3] = 1, x[3] = 3.0;
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_sparse_check_finite(A, "W", &err), FL_OK, "%s", err.message);
    x[2] = INFINITY;
    cr_assert_eq(fl_sparse_check_finite(A, "W", &err), FL_ENONFINITE);
    cr_assert_str_eq(err.message, "W(0,1) is not finite");
    gsl_matrix *D = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(D, 0, 1, INFINITY);
    fl_error dense;
    cr_assert_eq(fl_check_finite_matrix(D, "W", &dense), FL_ENONFINITE);
    cr_assert_str_eq(dense.message, err.message);
    gsl_matrix_free(D);
    cr_assert(cholmod_sparse_xtype(CHOLMOD_PATTERN, A, &ctx.cm));
    cr_assert_eq(fl_sparse_check_finite(A, "W", &err), FL_EINVAL);
    cr_assert(strstr(err.message, "W must be a real sparse matrix") != NULL, "%s", err.message);
    cholmod_free_sparse(&A, &ctx.cm);
}
