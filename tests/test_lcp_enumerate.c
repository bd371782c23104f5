/* test_lcp_enumerate.c — enumeration of all LCP solutions
 * (reference/lcp_enumerate.c): closed-form solution sets (0, 1, 2, 4
 * solutions), deduplication of degenerate bases, singular bases counted,
 * P-matrix uniqueness, the random families' claims, bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "testkit/fl_random.h"
#include "testkit/fl_lcp_random.h"

static gsl_matrix *matn(size_t n, const double *a)
{
    gsl_matrix *M = gsl_matrix_alloc(n, n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) gsl_matrix_set(M, i, j, a[i * n + j]);
    return M;
}

static gsl_vector *vecn(size_t n, const double *a)
{
    gsl_vector *v = gsl_vector_alloc(n);
    for (size_t i = 0; i < n; i++) gsl_vector_set(v, i, a[i]);
    return v;
}

static fl_lcp_solutions *enumerate(size_t n, const double *m, const double *qq,
                                   fl_lcp_enum_result *res)
{
    gsl_matrix *M = matn(n, m);
    gsl_vector *q = vecn(n, qq);
    fl_lcp_solutions *s = NULL;
    cr_assert_eq(fl_lcp_enumerate(M, q, NULL, &s, res, NULL), FL_OK);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    return s;
}

static int contains(const fl_lcp_solutions *s, const double *z)
{
    for (size_t k = 0; k < s->count; k++) {
        double d = 0.0;
        for (size_t j = 0; j < s->n; j++) d = fmax(d, fabs(s->z[k * s->n + j] - z[j]));
        if (d <= 1e-12) return 1;
    }
    return 0;
}

Test(lcp_enumerate, scalar_solution_sets)
{
    /* M=[1], q=[-1]: z = 1 only.  M=[-1], q=[1]: z = 0 (w = 1) and z = 1
     * (w = 0).  M=[-1], q=[-1]: none (w = -z - 1 < 0). */
    fl_lcp_enum_result r;
    fl_lcp_solutions *s = enumerate(1, (double[]){1}, (double[]){-1}, &r);
    cr_assert_eq(s->count, 1);
    cr_assert_float_eq(s->z[0], 1.0, 1e-15);
    cr_assert_eq(r.bases, 2);
    fl_lcp_solutions_free(s);
    s = enumerate(1, (double[]){-1}, (double[]){1}, &r);
    cr_assert_eq(s->count, 2);
    cr_assert(contains(s, (double[]){0}) && contains(s, (double[]){1}));
    fl_lcp_solutions_free(s);
    s = enumerate(1, (double[]){-1}, (double[]){-1}, &r);
    cr_assert_eq(s->count, 0);
    fl_lcp_solutions_free(s);
}

Test(lcp_enumerate, four_solutions_of_minus_identity)
{
    /* M = -I, q = (1,1): w_i = 1 - z_i, so z_i in {0, 1}: 4 solutions. */
    fl_lcp_solutions *s = enumerate(2, (double[]){-1, 0, 0, -1}, (double[]){1, 1}, NULL);
    cr_assert_eq(s->count, 4);
    cr_assert(contains(s, (double[]){0, 0}) && contains(s, (double[]){1, 0}));
    cr_assert(contains(s, (double[]){0, 1}) && contains(s, (double[]){1, 1}));
    fl_lcp_solutions_free(s);
}

Test(lcp_enumerate, degenerate_bases_are_deduplicated)
{
    /* q = 0: every nonsingular basis gives z = 0; one solution remains. */
    fl_lcp_enum_result r;
    fl_lcp_solutions *s = enumerate(3, (double[]){2, 1, 0, 1, 2, 1, 0, 1, 2},
                                    (double[]){0, 0, 0}, &r);
    cr_assert_eq(s->count, 1);
    cr_assert(contains(s, (double[]){0, 0, 0}));
    cr_assert_eq(r.bases, 8);
    cr_assert_eq(r.singular_bases, 0);
    fl_lcp_solutions_free(s);
}

Test(lcp_enumerate, singular_bases_are_counted)
{
    /* M = [1 1; 1 1], q = (-1,-1): solutions z1 + z2 = 1 (a segment); the
     * enumerator returns its two vertices and reports the singular basis. */
    fl_lcp_enum_result r;
    fl_lcp_solutions *s = enumerate(2, (double[]){1, 1, 1, 1}, (double[]){-1, -1}, &r);
    cr_assert_eq(s->count, 2);
    cr_assert(contains(s, (double[]){1, 0}) && contains(s, (double[]){0, 1}));
    cr_assert_eq(r.singular_bases, 1);
    cr_assert(r.residual <= 1e-15);
    fl_lcp_solutions_free(s);
}

Test(lcp_enumerate, min_principal_minor_closed_forms)
{
    double m;
    gsl_matrix *A = matn(2, (double[]){2, 1, 1, 2});      /* minors 2, 2, 3 */
    cr_assert_eq(fl_lcp_min_principal_minor(A, &m, NULL), FL_OK);
    cr_assert_float_eq(m, 2.0, 1e-14);
    gsl_matrix_free(A);
    A = matn(2, (double[]){1, 2, 3, 1});                  /* det = 1 - 6 = -5 */
    cr_assert_eq(fl_lcp_min_principal_minor(A, &m, NULL), FL_OK);
    cr_assert_float_eq(m, -5.0, 1e-14);
    gsl_matrix_free(A);
    fl_error e;
    cr_assert_eq(fl_lcp_min_principal_minor(NULL, &m, &e), FL_EINVAL);
    A = gsl_matrix_alloc(2, 3);
    cr_assert_eq(fl_lcp_min_principal_minor(A, &m, &e), FL_EDIM);
    gsl_matrix_free(A);
    A = gsl_matrix_calloc(21, 21);
    cr_assert_eq(fl_lcp_min_principal_minor(A, &m, &e), FL_EINVAL);
    gsl_matrix_set(A, 0, 0, NAN);
    cr_assert_eq(fl_lcp_min_principal_minor(A, &m, &e), FL_ENONFINITE);
    gsl_matrix_free(A);
}

Test(lcp_enumerate, random_families_have_the_claimed_properties)
{
    /* PD: x.Mx > 0 on random x; P-matrix families: all principal minors
     * > 0 (computed here independently by the minors routine) and exactly
     * one solution; every family: the planted z* solves the LCP. */
    gsl_rng *rng = fl_test_rng(99);
    for (int fam = 0; fam < 3; fam++)
        for (int t = 0; t < 60; t++) {
            size_t n = 1 + gsl_rng_uniform_int(rng, 7);
            gsl_matrix *M = gsl_matrix_alloc(n, n);
            gsl_vector *q = gsl_vector_alloc(n), *zs = gsl_vector_alloc(n);
            gsl_vector *x = gsl_vector_alloc(n), *Mx = gsl_vector_alloc(n);
            cr_assert_eq(fl_lcp_random(rng, (fl_lcp_family)fam, t % 2, M, q, zs), FL_OK);
            cr_assert(fl_lcp_residual(M, q, zs, NULL) <= 1e-14, "%s", fl_test_seed_note());
            for (size_t j = 0; j < n; j++) gsl_vector_set(x, j, gsl_rng_uniform(rng) - 0.5);
            gsl_blas_dgemv(CblasNoTrans, 1.0, M, x, 0.0, Mx);
            double xMx;
            gsl_blas_ddot(x, Mx, &xMx);
            if (fam != FL_LCP_PMATRIX) cr_assert(xMx >= -1e-12, "%s", fl_test_seed_note());
            double mm;
            cr_assert_eq(fl_lcp_min_principal_minor(M, &mm, NULL), FL_OK);
            if (fam != FL_LCP_COPOSITIVE_PLUS) {
                cr_assert(mm > 0.0, "family %d min minor %g; %s", fam, mm, fl_test_seed_note());
                fl_lcp_solutions *s;
                cr_assert_eq(fl_lcp_enumerate(M, q, NULL, &s, NULL, NULL), FL_OK);
                cr_assert_eq(s->count, 1, "%s", fl_test_seed_note());
                fl_lcp_solutions_free(s);
            }
            gsl_matrix_free(M);
            gsl_vector_free(q);
            gsl_vector_free(zs);
            gsl_vector_free(x);
            gsl_vector_free(Mx);
        }
    gsl_rng_free(rng);
}

Test(lcp_enumerate, bad_input_is_rejected)
{
    fl_error e;
    fl_lcp_enum_result r;
    fl_lcp_solutions *s = (fl_lcp_solutions *)1;
    gsl_matrix *M = matn(1, (double[]){1});
    gsl_vector *q = vecn(1, (double[]){-1});
    cr_assert_eq(fl_lcp_enumerate(M, q, NULL, NULL, &r, &e), FL_EINVAL);
    cr_assert_eq(fl_lcp_enumerate(NULL, q, NULL, &s, &r, &e), FL_EINVAL);
    cr_assert_null(s);
    fl_lcp_enum_options o = fl_lcp_enum_options_default();
    o.dedup_tol = -1;
    cr_assert_eq(fl_lcp_enumerate(M, q, &o, &s, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "tolerance"));
    o = fl_lcp_enum_options_default();
    o.max_n = 0;
    cr_assert_eq(fl_lcp_enumerate(M, q, &o, &s, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "too large"));
    cr_assert_eq(r.status, FL_EINVAL);
    gsl_vector_set(q, 0, NAN);
    cr_assert_eq(fl_lcp_enumerate(M, q, NULL, &s, NULL, &e), FL_ENONFINITE);
    fl_lcp_solutions_free(NULL);
    gsl_matrix_free(M);
    gsl_vector_free(q);
}
