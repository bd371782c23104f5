/* test_lemke.c — Lemke's method (reference/lemke.c): closed forms, ray
 * termination, pivot limit, degenerate problems solved by the lexicographic
 * rule, random LCPs against the enumerator (an independent method), bad
 * input.  Expected values: closed forms written below, planted solutions,
 * and enumeration of all complementary bases (reference/lcp_enumerate.c). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

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

Test(lemke, one_by_one_closed_form)
{
    /* M = [a], q = [-b], a, b > 0: z = b/a, w = 0. */
    gsl_matrix *M = matn(1, (double[]){4.0});
    gsl_vector *q = vecn(1, (double[]){-3.0});
    gsl_vector *z = gsl_vector_alloc(1), *w = gsl_vector_alloc(1);
    fl_lemke_result r;
    cr_assert_eq(fl_lemke_solve(M, q, z, w, NULL, &r, NULL), FL_OK);
    cr_assert_float_eq(gsl_vector_get(z, 0), 0.75, 1e-15);
    cr_assert_float_eq(gsl_vector_get(w, 0), 0.0, 1e-15);
    cr_assert_eq(r.iterations, 2);           /* z0 in, z1 in / z0 out */
    cr_assert_eq(r.status, FL_OK);
    cr_assert(r.residual <= 1e-15);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
    gsl_vector_free(w);
}

Test(lemke, two_by_two_closed_forms)
{
    /* M = [2 1; 1 2].  q = (-5,-6): both active, z = M^-1 (5,6) = (4/3, 7/3).
     * q = (-1, 5): z = (1/2, 0), w = (0, 5.5).  q = (1, 2) >= 0: z = 0. */
    gsl_matrix *M = matn(2, (double[]){2, 1, 1, 2});
    gsl_vector *z = gsl_vector_alloc(2), *w = gsl_vector_alloc(2);
    gsl_vector *q = vecn(2, (double[]){-5, -6});
    fl_lemke_result r;
    cr_assert_eq(fl_lemke_solve(M, q, z, w, NULL, &r, NULL), FL_OK);
    cr_assert_float_eq(gsl_vector_get(z, 0), 4.0 / 3.0, 1e-14);
    cr_assert_float_eq(gsl_vector_get(z, 1), 7.0 / 3.0, 1e-14);
    cr_assert_float_eq(gsl_vector_get(w, 0), 0.0, 1e-14);
    gsl_vector_set(q, 0, -1);
    gsl_vector_set(q, 1, 5);
    cr_assert_eq(fl_lemke_solve(M, q, z, w, NULL, &r, NULL), FL_OK);
    cr_assert_float_eq(gsl_vector_get(z, 0), 0.5, 1e-15);
    cr_assert_float_eq(gsl_vector_get(z, 1), 0.0, 0.0);
    cr_assert_float_eq(gsl_vector_get(w, 1), 5.5, 1e-15);
    gsl_vector_set(q, 0, 1);
    gsl_vector_set(q, 1, 2);
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, &r, NULL), FL_OK);
    cr_assert_eq(r.iterations, 0);
    cr_assert_float_eq(gsl_vector_get(z, 0), 0.0, 0.0);
    cr_assert_float_eq(gsl_vector_get(z, 1), 0.0, 0.0);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
    gsl_vector_free(w);
}

Test(lemke, ray_termination_on_infeasible_lcps)
{
    /* M = [-1], q = [-1]: w = -z - 1 < 0 for every z >= 0: no solution. */
    fl_error e;
    gsl_matrix *M = matn(1, (double[]){-1});
    gsl_vector *q = vecn(1, (double[]){-1});
    gsl_vector *z = gsl_vector_alloc(1);
    fl_lemke_result r;
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, &r, &e), FL_ERAY);
    cr_assert_eq(r.status, FL_ERAY);
    cr_assert_eq(e.status, FL_ERAY);
    cr_assert(strstr(e.message, "ray"));
    cr_assert(r.z0 > 0.0);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
    /* M = [1 -1; -1 1] (PSD, copositive-plus), q = (-1,-1): w1 + w2 = -2 < 0,
     * infeasible; for copositive-plus M a ray proves it (Lemke's theorem). */
    M = matn(2, (double[]){1, -1, -1, 1});
    q = vecn(2, (double[]){-1, -1});
    z = gsl_vector_alloc(2);
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, &r, &e), FL_ERAY);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
}

Test(lemke, pivot_limit_returns_maxiter)
{
    fl_error e;
    gsl_matrix *M = matn(2, (double[]){2, 1, 1, 2});
    gsl_vector *q = vecn(2, (double[]){-5, -6});
    gsl_vector *z = gsl_vector_alloc(2);
    fl_lemke_options o = fl_lemke_options_default();
    o.max_pivots = 1;
    fl_lemke_result r;
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, &o, &r, &e), FL_WMAXITER);
    cr_assert_eq(r.iterations, 1);
    cr_assert(strstr(e.message, "pivot limit"));
    cr_assert(r.residual > 1e-3, "the limited result is not a solution");
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
}

Test(lemke, degenerate_problems_solved_by_the_lexicographic_rule)
{
    /* Repeated rows and ties in q: every ratio test ties without the
     * lexicographic rule.  Solutions checked by the natural map. */
    static const double Ms[][9] = {
        {2, 1, 0, 2, 1, 0, 0, 0, 1},      /* rows 0 and 1 equal */
        {1, 1, 1, 1, 1, 1, 1, 1, 1},      /* rank one, all rows equal */
        {1, 2, 0, 0, 1, 2, 2, 0, 1},      /* cyclic P-matrix */
    };
    static const double qs[][3] = {
        {-2, -2, -1}, {-1, -1, -1}, {0, 0, -1}, {-1, 0, 0}, {0, 0, 0},
    };
    gsl_vector *z = gsl_vector_alloc(3), *w = gsl_vector_alloc(3);
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 5; b++) {
            gsl_matrix *M = matn(3, Ms[a]);
            gsl_vector *q = vecn(3, qs[b]);
            fl_lemke_result r;
            fl_error e;
            fl_status s = fl_lemke_solve(M, q, z, w, NULL, &r, &e);
            cr_assert_eq(s, FL_OK, "M%zu q%zu: %s", a, b, e.message);
            cr_assert(r.residual <= 1e-12, "M%zu q%zu residual %g", a, b, r.residual);
            for (size_t i = 0; i < 3; i++) {
                cr_assert(gsl_vector_get(z, i) >= 0.0);
                cr_assert(gsl_vector_get(w, i) >= -1e-12);
                cr_assert(fabs(gsl_vector_get(z, i) * gsl_vector_get(w, i)) <= 1e-12);
            }
            gsl_matrix_free(M);
            gsl_vector_free(q);
        }
    gsl_vector_free(z);
    gsl_vector_free(w);
}

/* Random LCPs: Lemke against the planted solution and the enumerator. */
static void random_family(fl_lcp_family fam, int degenerate, size_t trials)
{
    gsl_rng *rng = fl_test_rng(20261121 + (unsigned long)fam);
    for (size_t t = 0; t < trials; t++) {
        size_t n = 1 + gsl_rng_uniform_int(rng, 8);
        gsl_matrix *M = gsl_matrix_alloc(n, n);
        gsl_vector *q = gsl_vector_alloc(n), *zs = gsl_vector_alloc(n);
        gsl_vector *z = gsl_vector_alloc(n), *w = gsl_vector_alloc(n);
        cr_assert_eq(fl_lcp_random(rng, fam, degenerate, M, q, zs), FL_OK);
        fl_lemke_result r;
        fl_error e;
        fl_status s = fl_lemke_solve(M, q, z, w, NULL, &r, &e);
        cr_assert_eq(s, FL_OK, "family %d n %zu trial %zu: %s; %s", fam, n, t, e.message,
                     fl_test_seed_note());
        cr_assert(r.residual <= 1e-9, "residual %g; %s", r.residual, fl_test_seed_note());
        fl_lcp_solutions *all;
        cr_assert_eq(fl_lcp_enumerate(M, q, NULL, &all, NULL, NULL), FL_OK);
        cr_assert(all->count >= 1, "%s", fl_test_seed_note());
        if (fam != FL_LCP_COPOSITIVE_PLUS) {
            /* P-matrix: exactly one solution, the planted one. */
            cr_assert_eq(all->count, 1, "P-matrix LCP with %zu solutions; %s", all->count,
                         fl_test_seed_note());
            for (size_t j = 0; j < n; j++) {
                double zj = gsl_vector_get(z, j);
                cr_assert(fabs(zj - all->z[j]) <= 1e-8 * (1 + fabs(zj)), "%s", fl_test_seed_note());
                cr_assert(fabs(zj - gsl_vector_get(zs, j)) <= 1e-8 * (1 + fabs(zj)),
                          "%s", fl_test_seed_note());
            }
        } else {
            /* Lemke stops on a complementary basis, so its z is a basic
             * solution: one of the enumerated ones. */
            int found = 0;
            for (size_t k = 0; k < all->count && !found; k++) {
                double d = 0.0;
                for (size_t j = 0; j < n; j++)
                    d = fmax(d, fabs(all->z[k * n + j] - gsl_vector_get(z, j)));
                found = d <= 1e-7;
            }
            cr_assert(found, "Lemke's solution is not a basic solution; %s", fl_test_seed_note());
        }
        fl_lcp_solutions_free(all);
        gsl_matrix_free(M);
        gsl_vector_free(q);
        gsl_vector_free(zs);
        gsl_vector_free(z);
        gsl_vector_free(w);
    }
    gsl_rng_free(rng);
}

Test(lemke, positive_definite_matches_enumeration) { random_family(FL_LCP_PD, 0, 150); }
Test(lemke, p_matrix_matches_enumeration) { random_family(FL_LCP_PMATRIX, 0, 150); }
Test(lemke, copositive_plus_gives_a_basic_solution) { random_family(FL_LCP_COPOSITIVE_PLUS, 0, 150); }
Test(lemke, degenerate_random_p_matrix) { random_family(FL_LCP_PMATRIX, 1, 150); }
Test(lemke, degenerate_random_copositive_plus) { random_family(FL_LCP_COPOSITIVE_PLUS, 1, 150); }

Test(lemke, residual_closed_form)
{
    /* M = I, q = (-1, 2), z = (2, 1): w = (1, 3), min = (1, 1) -> 1/(1+2). */
    gsl_matrix *M = matn(2, (double[]){1, 0, 0, 1});
    gsl_vector *q = vecn(2, (double[]){-1, 2});
    gsl_vector *z = vecn(2, (double[]){2, 1});
    gsl_vector *w = gsl_vector_alloc(2);
    cr_assert_float_eq(fl_lcp_residual(M, q, z, w), 1.0 / 3.0, 1e-15);
    cr_assert_float_eq(gsl_vector_get(w, 1), 3.0, 0.0);
    gsl_vector_set(z, 0, -0.5);          /* negative z counts */
    gsl_vector_set(z, 1, 0.0);
    cr_assert_float_eq(fl_lcp_residual(M, q, z, NULL), 1.5 / 3.0, 1e-15);
    gsl_vector_set(z, 0, NAN);
    cr_assert(isnan(fl_lcp_residual(M, q, z, NULL)));
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
    gsl_vector_free(w);
}

Test(lemke, bad_input_is_rejected)
{
    fl_error e;
    fl_lemke_result r;
    gsl_matrix *M = matn(2, (double[]){2, 1, 1, 2});
    gsl_matrix *R = gsl_matrix_alloc(2, 3);
    gsl_vector *q = vecn(2, (double[]){-1, -1});
    gsl_vector *q3 = gsl_vector_alloc(3), *z = gsl_vector_alloc(2), *z3 = gsl_vector_alloc(3);
    cr_assert_eq(fl_lemke_solve(NULL, q, z, NULL, NULL, &r, &e), FL_EINVAL);
    cr_assert_eq(fl_lemke_solve(R, q, z, NULL, NULL, &r, &e), FL_EDIM);
    cr_assert_eq(fl_lemke_solve(M, q3, z, NULL, NULL, &r, &e), FL_EDIM);
    cr_assert_eq(fl_lemke_solve(M, q, z3, NULL, NULL, &r, &e), FL_EDIM);
    cr_assert_eq(fl_lemke_solve(M, q, NULL, NULL, NULL, &r, &e), FL_EDIM);
    cr_assert_eq(fl_lemke_solve(M, q, z, z3, NULL, &r, &e), FL_EDIM);
    cr_assert_eq(r.status, FL_EDIM);
    fl_lemke_options o = fl_lemke_options_default();
    o.pivot_tol = -1;
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, &o, NULL, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "tolerance"));
    gsl_matrix_set(M, 1, 0, NAN);
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, NULL, &e), FL_ENONFINITE);
    gsl_matrix_set(M, 1, 0, 1.0);
    gsl_vector_set(q, 1, INFINITY);
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, NULL, &e), FL_ENONFINITE);
    gsl_matrix_free(M);
    gsl_matrix_free(R);
    gsl_vector_free(q);
    gsl_vector_free(q3);
    gsl_vector_free(z);
    gsl_vector_free(z3);
}

Test(lemke, verification_rejects_an_inaccurate_answer)
{
    /* With a verification tolerance below rounding (1e-300), a 6 x 6 problem
     * whose solution has a rounding-size residual must come back FL_ENOCONV
     * with the residual reported, never FL_OK. */
    gsl_rng *rng = fl_test_rng(7);
    fl_lemke_options o = fl_lemke_options_default();
    o.verify_tol = 1e-300;
    int rejected = 0;
    for (int t = 0; t < 20 && !rejected; t++) {
        gsl_matrix *M = gsl_matrix_alloc(6, 6);
        gsl_vector *q = gsl_vector_alloc(6), *z = gsl_vector_alloc(6);
        cr_assert_eq(fl_lcp_random(rng, FL_LCP_PD, 0, M, q, NULL), FL_OK);
        fl_error e;
        fl_lemke_result r;
        fl_status s = fl_lemke_solve(M, q, z, NULL, &o, &r, &e);
        if (s == FL_ENOCONV) {
            rejected = 1;
            cr_assert(strstr(e.message, "verification"));
            cr_assert(r.residual > 1e-300);
        } else {
            cr_assert_eq(s, FL_OK);
            cr_assert(r.residual <= 1e-300);
        }
        gsl_matrix_free(M);
        gsl_vector_free(q);
        gsl_vector_free(z);
    }
    cr_assert(rejected, "no rounding-size residual in 20 problems; %s", fl_test_seed_note());
    gsl_rng_free(rng);
}
