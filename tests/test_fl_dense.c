/* test_fl_dense.c — dense helpers (core/fl_dense.c): closed forms, bad
 * input, and the split identities of 001 §3.1 on random systems. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>

#include "fl_dense.h"
#include "testkit/fl_random.h"
#include "reference/midpoint.h"

static gsl_matrix *mat2(double a, double b, double c, double d)
{
    gsl_matrix *M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(M, 0, 0, a);
    gsl_matrix_set(M, 0, 1, b);
    gsl_matrix_set(M, 1, 0, c);
    gsl_matrix_set(M, 1, 1, d);
    return M;
}

Test(dense, close_uses_absolute_plus_relative_tolerance)
{
    cr_assert(fl_close(1.0, 1.0 + 1e-13, 0.0, 1e-12));
    cr_assert_not(fl_close(1.0, 1.1, 1e-3, 1e-3));
    cr_assert(fl_close(0.0, 1e-10, 1e-9, 0.0));
    cr_assert_not(fl_close(NAN, 0.0, 1.0, 1.0));
}

Test(dense, cholesky_closed_form)
{
    gsl_matrix *A = mat2(4, 2, 2, 3);     /* L = [2 0; 1 sqrt 2] */
    cr_assert_eq(fl_dense_cholesky(A, NULL), FL_OK);
    cr_assert_float_eq(gsl_matrix_get(A, 0, 0), 2.0, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(A, 1, 0), 1.0, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(A, 1, 1), sqrt(2.0), 1e-15);
    gsl_matrix_free(A);
}

Test(dense, cholesky_reports_not_spd)
{
    fl_error e;
    gsl_matrix *A = mat2(1, 2, 2, 1);     /* eigenvalues 3, -1 */
    cr_assert_eq(fl_dense_cholesky(A, &e), FL_ENOTSPD);
    cr_assert_eq(e.status, FL_ENOTSPD);
    cr_assert(strstr(e.message, "positive definite"));
    gsl_matrix_free(A);
    gsl_matrix *B = gsl_matrix_alloc(2, 3);
    cr_assert_eq(fl_dense_cholesky(B, &e), FL_EDIM);
    gsl_matrix_free(B);
}

Test(dense, spd_alloc_rejects_bad_mass_matrices)
{
    fl_error e;
    fl_spd *s = (fl_spd *)1;
    gsl_matrix *A = mat2(2, 1, 0.5, 2);   /* not symmetric */
    cr_assert_eq(fl_spd_alloc(A, &s, &e), FL_ENOTSPD);
    cr_assert_null(s);
    cr_assert(strstr(e.message, "symmetric"));
    gsl_matrix_set(A, 0, 1, NAN);
    cr_assert_eq(fl_spd_alloc(A, &s, &e), FL_ENONFINITE);
    cr_assert(strstr(e.message, "(0,1)"));
    gsl_matrix_set_all(A, 1.0);           /* singular PSD */
    cr_assert_eq(fl_spd_alloc(A, &s, &e), FL_ENOTSPD);
    gsl_matrix_set_all(A, 0.0);
    gsl_matrix_set(A, 0, 0, -1.0);
    gsl_matrix_set(A, 1, 1, 1.0);
    cr_assert_eq(fl_spd_alloc(A, &s, &e), FL_ENOTSPD);
    gsl_matrix_free(A);
    gsl_matrix *R = gsl_matrix_alloc(2, 3);
    cr_assert_eq(fl_spd_alloc(R, &s, &e), FL_EDIM);
    gsl_matrix_free(R);
    fl_spd_free(NULL);
}

Test(dense, norms_closed_form)
{
    gsl_matrix *M = mat2(2, 0, 0, 3);
    fl_spd *s;
    cr_assert_eq(fl_spd_alloc(M, &s, NULL), FL_OK);
    gsl_vector *v = gsl_vector_alloc(2);
    gsl_vector_set_all(v, 1.0);
    cr_assert_float_eq(fl_spd_norm(s, v), sqrt(5.0), 1e-14);     /* 2 + 3 */
    gsl_vector_set(v, 0, 2.0);
    gsl_vector_set(v, 1, 3.0);
    cr_assert_float_eq(fl_spd_dual_norm(s, v), sqrt(5.0), 1e-14); /* 4/2 + 9/3 */
    gsl_vector *x = gsl_vector_alloc(2);
    cr_assert_eq(fl_spd_solve(s, v, x), FL_OK);
    cr_assert_float_eq(gsl_vector_get(x, 0), 1.0, 1e-15);
    cr_assert_float_eq(gsl_vector_get(x, 1), 1.0, 1e-15);
    gsl_vector *bad = gsl_vector_alloc(3);
    cr_assert_eq(fl_spd_solve(s, bad, x), FL_EDIM);
    gsl_vector_free(bad);
    gsl_vector_free(x);
    gsl_vector_free(v);
    gsl_matrix_free(M);
    fl_spd_free(s);
}

Test(dense, random_spd_has_the_requested_spectrum)
{
    gsl_rng *r = fl_test_rng(21);
    for (int k = 0; k < 50; k++) {
        size_t n = 1 + gsl_rng_uniform_int(r, 8);
        double cond = exp(6.0 * gsl_rng_uniform(r));
        gsl_matrix *M = gsl_matrix_alloc(n, n), *C = gsl_matrix_alloc(n, n);
        cr_assert_eq(fl_random_spd(r, cond, 2.0, M), FL_OK);
        gsl_matrix_memcpy(C, M);
        gsl_vector *ev = gsl_vector_alloc(n);
        gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(n);
        gsl_eigen_symm(C, ev, w);
        double lo = gsl_vector_min(ev), hi = gsl_vector_max(ev);
        cr_assert(fl_close(lo, 2.0, 1e-10, 1e-9), "min eig %g, %s", lo, fl_test_seed_note());
        if (n > 1)
            cr_assert(fl_close(hi, 2.0 * cond, 1e-10, 1e-9), "max eig %g, %s", hi, fl_test_seed_note());
        gsl_eigen_symm_free(w);
        gsl_vector_free(ev);
        gsl_matrix_free(M);
        gsl_matrix_free(C);
    }
    gsl_rng_free(r);
}

/* 001 §3.1: v = vn + vt with vn in span{M^-1 dphi}, D vt = 0, <vn,vt>_M = 0;
 * r = rn + rt with rn = D^T lambda, D M^-1 rt = 0, <rn,rt>_{M^-1} = 0. */
Test(dense, splits_are_orthogonal_and_reconstruct)
{
    gsl_rng *r = fl_test_rng(22);
    for (int k = 0; k < 500; k++) {
        size_t n = 2 + gsl_rng_uniform_int(r, 7), m = 1 + gsl_rng_uniform_int(r, n - 1);
        gsl_matrix *M = gsl_matrix_alloc(n, n), *D = gsl_matrix_alloc(m, n);
        cr_assert_eq(fl_random_spd(r, exp(4.0 * gsl_rng_uniform(r)), 1.0, M), FL_OK);
        cr_assert_eq(fl_random_full_rank_rows(r, 10.0, D), FL_OK);
        fl_spd *s;
        cr_assert_eq(fl_spd_alloc(M, &s, NULL), FL_OK);
        gsl_vector *v = gsl_vector_alloc(n), *vn = gsl_vector_alloc(n), *vt = gsl_vector_alloc(n);
        gsl_vector *Dv = gsl_vector_alloc(m), *lam = gsl_vector_alloc(m), *w = gsl_vector_alloc(n);
        fl_random_vector(r, 1.0, v);
        cr_assert_eq(fl_spd_split_velocity(s, D, v, vn, vt, NULL), FL_OK);
        double scale = fl_spd_norm(s, v);
        gsl_blas_dgemv(CblasNoTrans, 1.0, D, vt, 0.0, Dv);
        cr_assert_leq(gsl_blas_dnrm2(Dv), 1e-10 * (1 + scale) * 10, "%s", fl_test_seed_note());
        cr_assert_leq(fabs(fl_spd_inner(s, vn, vt)), 1e-10 * (1 + scale * scale), "%s",
                      fl_test_seed_note());
        for (size_t i = 0; i < n; i++)
            cr_assert_float_eq(gsl_vector_get(vn, i) + gsl_vector_get(vt, i), gsl_vector_get(v, i),
                               1e-12 * (1 + scale));
        /* idempotence: splitting vn gives (vn, 0) */
        cr_assert_eq(fl_spd_split_velocity(s, D, vn, w, NULL, NULL), FL_OK);
        for (size_t i = 0; i < n; i++)
            cr_assert_float_eq(gsl_vector_get(w, i), gsl_vector_get(vn, i), 1e-9 * (1 + scale));

        /* reaction split in the dual metric */
        gsl_vector *rvec = v, *rn = vn, *rt = vt;
        cr_assert_eq(fl_spd_split_reaction(s, D, rvec, rn, rt, lam, NULL), FL_OK);
        gsl_vector_memcpy(w, rt);
        fl_spd_solve(s, w, w);
        gsl_blas_dgemv(CblasNoTrans, 1.0, D, w, 0.0, Dv);     /* D M^-1 rt */
        double rs = fl_spd_dual_norm(s, rvec);
        cr_assert_leq(gsl_blas_dnrm2(Dv), 1e-9 * (1 + rs), "%s", fl_test_seed_note());
        double ip;
        gsl_blas_ddot(rn, w, &ip);                             /* rn . M^-1 rt */
        cr_assert_leq(fabs(ip), 1e-9 * (1 + rs * rs), "%s", fl_test_seed_note());
        gsl_blas_dgemv(CblasTrans, 1.0, D, lam, 0.0, w);        /* D^T lambda */
        for (size_t i = 0; i < n; i++) {
            cr_assert_float_eq(gsl_vector_get(w, i), gsl_vector_get(rn, i), 1e-9 * (1 + rs));
            cr_assert_float_eq(gsl_vector_get(rn, i) + gsl_vector_get(rt, i), gsl_vector_get(rvec, i),
                               1e-12 * (1 + rs));
        }
        gsl_vector_free(v); gsl_vector_free(vn); gsl_vector_free(vt);
        gsl_vector_free(Dv); gsl_vector_free(lam); gsl_vector_free(w);
        gsl_matrix_free(M); gsl_matrix_free(D);
        fl_spd_free(s);
    }
    gsl_rng_free(r);
}

Test(dense, split_detects_dependent_constraints_and_bad_sizes)
{
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(M);
    fl_spd *s;
    cr_assert_eq(fl_spd_alloc(M, &s, NULL), FL_OK);
    gsl_matrix *D = gsl_matrix_calloc(2, 3);
    gsl_matrix_set(D, 0, 0, 1.0);
    gsl_matrix_set(D, 1, 0, 2.0);                     /* row 1 = 2 row 0 */
    gsl_vector *v = gsl_vector_calloc(3), *vn = gsl_vector_alloc(3);
    fl_error e;
    cr_assert_eq(fl_spd_split_velocity(s, D, v, vn, NULL, &e), FL_ESINGULAR);
    cr_assert(strstr(e.message, "dependent"));
    cr_assert_eq(fl_spd_split_reaction(s, D, v, vn, NULL, NULL, &e), FL_ESINGULAR);
    gsl_matrix *D2 = gsl_matrix_calloc(1, 2);
    cr_assert_eq(fl_spd_split_velocity(s, D2, v, vn, NULL, &e), FL_EDIM);
    gsl_vector *v2 = gsl_vector_calloc(2);
    cr_assert_eq(fl_spd_split_velocity(s, D, v2, vn, NULL, &e), FL_EDIM);
    cr_assert_eq(fl_spd_split_reaction(s, D, v2, vn, NULL, NULL, &e), FL_EDIM);
    gsl_matrix_set(D, 1, 1, NAN);
    cr_assert_eq(fl_spd_split_velocity(s, D, v, vn, NULL, &e), FL_ENONFINITE);
    gsl_vector_set(v, 0, INFINITY);
    cr_assert_eq(fl_check_finite_vector(v, "v", &e), FL_ENONFINITE);
    cr_assert(strstr(e.message, "v[0]"));
    gsl_vector_free(v); gsl_vector_free(v2); gsl_vector_free(vn);
    gsl_matrix_free(D); gsl_matrix_free(D2); gsl_matrix_free(M);
    fl_spd_free(s);
}

/* The library never aborts (fl_dense.h, Allocation): a size no machine has
 * (8 TB of doubles) or whose byte count overflows size_t comes back NULL /
 * FL_ENOMEM with GSL's default (aborting) handler installed by the host, and
 * the host's handler is left in place. */
static int host_handler_calls;
static void host_handler(const char *reason, const char *file, int line, int gsl_errno)
{
    (void)reason; (void)file; (void)line; (void)gsl_errno;
    host_handler_calls++;
}

Test(dense, huge_allocations_fail_cleanly_and_keep_the_host_handler)
{
    gsl_set_error_handler(NULL);                       /* GSL's default: abort */
    size_t huge = (size_t)1 << 40;
    cr_assert_null(fl_dense_vector_alloc(huge));
    cr_assert_null(fl_dense_vector_calloc(huge));
    cr_assert_null(fl_dense_matrix_alloc(huge, 1));
    cr_assert_null(fl_dense_matrix_calloc(1 << 20, 1 << 20));
    cr_assert_null(fl_dense_matrix_alloc(SIZE_MAX / 2, 4));     /* n1 n2 overflows */
    cr_assert_null(fl_dense_permutation_alloc(SIZE_MAX / 2));
    fl_midpoint_state *st = NULL;
    fl_error e;
    fl_error_clear(&e);
    cr_assert_eq(fl_midpoint_state_alloc(huge, 1, &st, &e), FL_ENOMEM);
    cr_assert_null(st);
    cr_assert_eq(e.status, FL_ENOMEM);
    /* the handler the host installed is still there afterwards */
    gsl_set_error_handler(host_handler);
    cr_assert_null(fl_dense_vector_alloc(huge));
    cr_assert_eq(host_handler_calls, 0);
    cr_assert_eq(gsl_set_error_handler(NULL), host_handler);
    /* and small sizes still work */
    gsl_vector *v = fl_dense_vector_calloc(3);
    cr_assert_not_null(v);
    cr_assert_eq(gsl_vector_get(v, 2), 0.0);
    gsl_vector_free(v);
}

/* Median of the finite entries: odd and even counts by hand, non-finite
 * entries dropped, none finite gives NaN. */
Test(fl_dense, median_finite_by_hand)
{
    double odd[] = {5, 1, 3};
    cr_assert_eq(fl_dense_median_finite(odd, 3), 3.0);
    double even[] = {4, NAN, 1, INFINITY, 3, 2};
    cr_assert_eq(fl_dense_median_finite(even, 6), 2.5);
    double none[] = {NAN, -INFINITY};
    cr_assert(isnan(fl_dense_median_finite(none, 2)));
    cr_assert(isnan(fl_dense_median_finite(none, 0)));
}
