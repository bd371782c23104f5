/* test_siconos_lemke.c — cross-validation of our Lemke (reference/lemke.c)
 * against Siconos numerics' lexicographic Lemke (SICONOS_LCP_LEMKE through
 * linearComplementarity_driver), a peer implementation.  Siconos is linked
 * into this test only, never into the library.
 *
 * On random LCPs (positive definite, P-matrix, copositive-plus, with and
 * without degeneracy) and on Stewart–Trinkle LCPs of random systems
 * (reference/stewart_law.c): both solutions are verified by the natural-map
 * residual computed here; when the solution is unique (P-matrix) they must
 * agree; otherwise both must satisfy complementarity.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "LinearComplementarityProblem.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "fl_random.h"

/* Siconos's Lemke on LCP(M, q); returns the driver's info, z filled. */
static int siconos_lemke(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z,
                         double *sic_residual, int *sic_iter)
{
    int n = (int)q->size;
    double *Md = malloc((size_t)n * (size_t)n * sizeof *Md);   /* column-major, owned by NM */
    double *qd = malloc((size_t)n * sizeof *qd), *w = calloc((size_t)n, sizeof *w);
    cr_assert(Md && qd && w);
    for (int i = 0; i < n; i++) {
        qd[i] = gsl_vector_get(q, (size_t)i);
        for (int j = 0; j < n; j++) Md[i + j * n] = gsl_matrix_get(M, (size_t)i, (size_t)j);
    }
    LinearComplementarityProblem *p = newLCP();
    p->size = n;
    p->M = NM_create_from_data(NM_DENSE, n, n, Md);
    p->q = qd;
    SolverOptions *o = solver_options_create(SICONOS_LCP_LEMKE);
    gsl_vector_set_zero(z);
    int info = linearComplementarity_driver(p, z->data, w, o);
    *sic_residual = o->dparam[SICONOS_DPARAM_RESIDU];
    *sic_iter = o->iparam[SICONOS_IPARAM_ITER_DONE];
    freeLinearComplementarityProblem(p);   /* frees M (and Md) and q */
    solver_options_delete(o);
    free(o);                               /* 4.4: delete clears, the struct stays */
    free(w);
    return info;
}

Test(siconos_lemke, closed_form_agrees)
{
    /* M = [2 1; 1 2], q = (-5,-6): z = (4/3, 7/3) for both. */
    gsl_matrix *M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(M, 0, 0, 2);
    gsl_matrix_set(M, 0, 1, 1);
    gsl_matrix_set(M, 1, 0, 1);
    gsl_matrix_set(M, 1, 1, 2);
    gsl_vector *q = gsl_vector_alloc(2), *z = gsl_vector_alloc(2), *zs = gsl_vector_alloc(2);
    gsl_vector_set(q, 0, -5);
    gsl_vector_set(q, 1, -6);
    double res;
    int it;
    cr_assert_eq(siconos_lemke(M, q, zs, &res, &it), 0);
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, NULL, NULL), FL_OK);
    cr_assert_float_eq(gsl_vector_get(zs, 0), 4.0 / 3.0, 1e-12);
    cr_assert_float_eq(gsl_vector_get(zs, 1), 7.0 / 3.0, 1e-12);
    cr_assert_float_eq(gsl_vector_get(z, 0), gsl_vector_get(zs, 0), 1e-12);
    cr_assert_float_eq(gsl_vector_get(z, 1), gsl_vector_get(zs, 1), 1e-12);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
    gsl_vector_free(zs);
}

static void compare_family(fl_lcp_family fam, int degenerate, size_t trials, size_t nmax)
{
    gsl_rng *rng = fl_test_rng(4242 + 10 * (unsigned long)fam + (unsigned long)degenerate);
    size_t agreed = 0;
    for (size_t t = 0; t < trials; t++) {
        size_t n = 2 + gsl_rng_uniform_int(rng, nmax - 1);
        gsl_matrix *M = gsl_matrix_alloc(n, n);
        gsl_vector *q = gsl_vector_alloc(n), *z = gsl_vector_alloc(n), *zs = gsl_vector_alloc(n);
        fl_lcp_random(rng, fam, degenerate, M, q, NULL);
        fl_lemke_result r;
        fl_error e;
        fl_status st = fl_lemke_solve(M, q, z, NULL, NULL, &r, &e);
        cr_assert_eq(st, FL_OK, "ours: %s (family %d, n %zu); %s", e.message, fam, n,
                     fl_test_seed_note());
        double sres;
        int sit;
        int info = siconos_lemke(M, q, zs, &sres, &sit);
        cr_assert_eq(info, 0, "Siconos info %d (family %d, n %zu); %s", info, fam, n,
                     fl_test_seed_note());
        double ours = fl_lcp_residual(M, q, z, NULL), theirs = fl_lcp_residual(M, q, zs, NULL);
        cr_assert(ours <= 1e-9, "our residual %g; %s", ours, fl_test_seed_note());
        cr_assert(theirs <= 1e-8, "Siconos residual %g (its own %g); %s", theirs, sres,
                  fl_test_seed_note());
        if (fam != FL_LCP_COPOSITIVE_PLUS) {        /* P-matrix: unique solution */
            for (size_t j = 0; j < n; j++) {
                double a = gsl_vector_get(z, j), b = gsl_vector_get(zs, j);
                cr_assert(fabs(a - b) <= 1e-8 * (1 + fabs(b)),
                          "z[%zu]: ours %.17g Siconos %.17g; %s", j, a, b, fl_test_seed_note());
            }
            agreed++;
        }
        gsl_matrix_free(M);
        gsl_vector_free(q);
        gsl_vector_free(z);
        gsl_vector_free(zs);
    }
    if (fam != FL_LCP_COPOSITIVE_PLUS) cr_assert_eq(agreed, trials);
    gsl_rng_free(rng);
}

Test(siconos_lemke, positive_definite) { compare_family(FL_LCP_PD, 0, 200, 12); }
Test(siconos_lemke, p_matrix) { compare_family(FL_LCP_PMATRIX, 0, 200, 12); }
Test(siconos_lemke, copositive_plus) { compare_family(FL_LCP_COPOSITIVE_PLUS, 0, 200, 12); }
Test(siconos_lemke, degenerate_p_matrix) { compare_family(FL_LCP_PMATRIX, 1, 200, 12); }
Test(siconos_lemke, degenerate_copositive_plus) { compare_family(FL_LCP_COPOSITIVE_PLUS, 1, 200, 12); }
