/* test_enumerate.c — exhaustive status enumeration (reference/enumerate.c,
 * exhaustive enumeration, proofs/contact_dynamics.md): a closed-form single contact with three solutions, every
 * enumerated solution satisfies Coulomb's law and is a fixed point of the
 * Gauss–Seidel sweep (both implementations), bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "testkit/fl_random.h"
#include "reference/enumerate.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "optimized/nsgs_sparse.h"

/* W = [1 0.9; 0.9 1], q = (0.1, 0.5), mu = 2 (proofs/contact_dynamics.md):
 * open r = 0; stick r = -W^-1 q = (0.35, -0.41)/0.19;
 * slide+ r_N = 0.1/0.8 = 0.125, r_T = -0.25 (U_T = 0.3625 > 0). */
Test(enumerate, single_contact_three_solutions_closed_form)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    double Wv[4] = {1, 0.9, 0.9, 1};
    memcpy(p->W->data, Wv, sizeof Wv);
    gsl_vector_set(p->q, 0, 0.1);
    gsl_vector_set(p->q, 1, 0.5);
    p->mu[0] = 2.0;
    fl_enumerate_result *e = NULL;
    cr_assert_eq(fl_enumerate_solutions(p, 1e-12, &e, NULL), FL_OK);
    cr_assert_eq(e->nsol, 3);
    cr_assert_eq(e->tried, 4);
    double open[2] = {0, 0}, stick[2] = {0.35 / 0.19, -0.41 / 0.19}, slide[2] = {0.125, -0.25};
    cr_assert_geq(fl_enumerate_find(e, open, 1e-12), 0);
    cr_assert_geq(fl_enumerate_find(e, stick, 1e-12), 0);
    cr_assert_geq(fl_enumerate_find(e, slide, 1e-12), 0);
    cr_assert_eq(e->status[fl_enumerate_find(e, slide, 1e-12)], FL_CONTACT_SLIDE_POS);
    cr_assert(fl_enumerate_is_solution(p, slide, 1e-12));
    double notsol[2] = {1, 0};
    cr_assert_not(fl_enumerate_is_solution(p, notsol, 1e-6));
    fl_enumerate_result_free(e);
    fl_local_problem_free(p);
}

/* Random 2D systems: every enumerated solution satisfies Coulomb's law and
 * is a fixed point of one sweep from it (warm start), for both
 * implementations (the local solver keeps the nearest valid case). */
Test(enumerate, solutions_are_gauss_seidel_fixed_points)
{
    gsl_rng *rng = fl_test_rng(99);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    size_t total = 0, multi = 0;
    for (int t = 0; t < 800; t++) {
        size_t nc = 1 + gsl_rng_uniform_int(rng, 3);
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_alloc(2 * nc + 1, nc, 2, 1, &g, NULL), FL_OK);
        cr_assert_eq(fl_random_spd(rng, 30.0, 1.0, g->M), FL_OK);
        cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, g->H), FL_OK);
        fl_random_vector(rng, 1.0, g->f);
        for (size_t a = 0; a < nc; a++) g->mu[a] = 10.0 * fl_random_mu(rng);  /* large mu: plurality */
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
        p->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
        fl_enumerate_result *e = NULL;
        cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, NULL), FL_OK);
        cr_assert_geq(e->nsol, 1, "no solution found (%s)", fl_test_seed_note());
        total += e->nsol;
        multi += e->nsol > 1;
        gsl_vector *r = gsl_vector_alloc(p->m);
        for (size_t k = 0; k < e->nsol; k++) {
            cr_assert(fl_enumerate_is_solution(p, e->sol + k * p->m, 1e-8),
                      "system %d solution %zu violates Coulomb (%s)", t, k, fl_test_seed_note());
            for (int impl = 0; impl < 2; impl++) {
                fl_nsgs_options o = fl_nsgs_options_default();
                o.start = FL_NSGS_START_WARM;
                o.tol = 1e-9;
                o.max_sweeps = 1;
                memcpy(r->data, e->sol + k * p->m, p->m * sizeof(double));
                fl_nsgs_result res;
                if (impl) fl_nsgs_solve_sparse(p, &o, r, NULL, &res, NULL);
                else fl_nsgs_solve(p, &o, r, NULL, &res, NULL);
                cr_assert_eq(fl_enumerate_find(e, r->data, 1e-7), (long)k,
                             "system %d: solution %zu not a fixed point of impl %d (%s)", t, k,
                             impl, fl_test_seed_note());
            }
        }
        gsl_vector_free(r);
        fl_enumerate_result_free(e);
        fl_local_problem_free(p);
        fl_global_problem_free(g);
    }
    cr_assert_gt(multi, 10, "only %zu systems with several solutions (%s)", multi,
                 fl_test_seed_note());
    (void)total;
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

Test(enumerate, bad_input)
{
    fl_local_problem *p = NULL;
    fl_enumerate_result *e = NULL;
    fl_error err;
    cr_assert_eq(fl_local_problem_alloc(1, 3, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    cr_assert_eq(fl_enumerate_solutions(p, 1e-9, &e, &err), FL_EINVAL);   /* dim 3 */
    fl_local_problem_free(p);
    cr_assert_eq(fl_local_problem_alloc(9, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    cr_assert_eq(fl_enumerate_solutions(p, 1e-9, &e, &err), FL_EINVAL);   /* too many */
    fl_local_problem_free(p);
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    cr_assert_eq(fl_enumerate_solutions(p, 0.0, &e, &err), FL_EINVAL);
    cr_assert_eq(fl_enumerate_solutions(p, 1e-9, NULL, &err), FL_EINVAL);
    /* singular W (zero): statuses other than open are singular */
    gsl_matrix_set_zero(p->W);
    gsl_vector_set(p->q, 0, 1.0);
    cr_assert_eq(fl_enumerate_solutions(p, 1e-9, &e, &err), FL_OK);
    cr_assert_eq(e->nsol, 1);
    cr_assert_eq(e->singular, 3);
    fl_enumerate_result_free(e);
    fl_enumerate_result_free(NULL);
    fl_local_problem_free(p);
}
