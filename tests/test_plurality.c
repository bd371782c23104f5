/* test_plurality.c — clouds of Gauss–Seidel limits (drivers/plurality_explore.c,
 * 003 §3): on random small 2D problems, every dot of a cloud (random
 * orderings from zero, or random starts) is among the solutions found by
 * exhaustive enumeration (independent oracle), for both implementations;
 * unique problems give one-point clouds; bad input. */
#include <criterion/criterion.h>
#include "checks/nsgs_checks.h"
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "testkit/fl_random.h"
#include "reference/enumerate.h"
#include "drivers/plurality_explore.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"

Test(plurality, clouds_lie_in_the_enumerated_solution_set)
{
    gsl_rng *rng = fl_test_rng(1234);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    size_t reached = 0, listed = 0;
    fl_nsgs_stats st;
    memset(&st, 0, sizeof st);
    for (int t = 0; t < 200; t++) {
        size_t nc = 1 + gsl_rng_uniform_int(rng, 4);
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_alloc(2 * nc + 1, nc, 2, 1, &g, NULL), FL_OK);
        cr_assert_eq(fl_random_spd(rng, 30.0, 1.0, g->M), FL_OK);
        cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, g->H), FL_OK);
        fl_random_vector(rng, 1.0, g->f);
        for (size_t a = 0; a < nc; a++) g->mu[a] = 3.0 * fl_random_mu(rng);
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
        p->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
        fl_enumerate_result *e = NULL;
        cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, NULL), FL_OK);
        /* 003 §3 clouds against the enumeration: the check of crosscheck --law nsgs */
        unsigned char seen[64] = {0};
        fl_nsgs_check_clouds(p, e, rng, 10, seen, &st);
        cr_assert_eq(st.cloud_outside, 0, "system %d: %ld dots not enumerated (%s)", t, st.cloud_outside,
                     fl_test_seed_note());
        cr_assert_eq(st.unique_spread, 0, "system %d: a unique problem gave several limits (%s)", t,
                     fl_test_seed_note());
        cr_assert_eq(st.errors, 0);
        for (size_t k = 0; k < e->nsol && k < 64; k++) reached += seen[k];
        listed += e->nsol;
        fl_enumerate_result_free(e);
        fl_local_problem_free(p);
        fl_global_problem_free(g);
    }
    cr_assert_gt(st.cloud_dots, 2500);
    cr_assert_gt(reached, listed / 2, "clouds reached %zu of %zu enumerated solutions (%s)",
                 reached, listed, fl_test_seed_note());
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

Test(plurality, bad_input)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    fl_plurality_options o = fl_plurality_options_default();
    fl_cloud *c = NULL;
    fl_error err;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);   /* no rng */
    gsl_rng *rng = fl_test_rng(1);
    o.nsgs.rng = rng;
    o.runs = 0;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);
    o.runs = 3;
    o.mode = (fl_plurality_mode)9;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);
    o.mode = FL_PLURALITY_RANDOM_ORDER;
    cr_assert_eq(fl_plurality_explore(NULL, &o, &c, NULL, &err), FL_EINVAL);
    o.nsgs.tol = -1;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);
    o.nsgs.tol = 1e-10;
    o.impl = FL_IMPL_OPTIMIZED;   /* no sparse W */
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);
    fl_cloud_free(NULL);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

/* 003 §3 says that with kappa contacts, zero start and random orderings, at
 * most (kappa - 1)! limits are attained (003 §2–5: the count of cyclic
 * orders, so rotations of one cyclic order would have to share a limit).
 * Counterexample found by the enumeration oracle (proofs/contact_dynamics.md
 * §9): kappa = 2 has one cyclic order, yet the orderings (0,1) and (1,0)
 * reach two different solutions, both enumerated (of three). */
Test(plurality, ordering_bound_counterexample)
{
    const double W[16] = {
        1.2784492273132719, -1.5726410201181813, -0.84569988622333181, 0.34502295741375794,
        -1.5726410201181813, 5.0701470427614854, 2.5891183888404816, -0.78102815875337606,
        -0.84569988622333181, 2.5891183888404816, 1.9265192377604698, -0.91638552594135714,
        0.34502295741375794, -0.78102815875337606, -0.91638552594135714, 1.694037358968572};
    const double q[4] = {-0.017480011617135416, -2.0300478206745014, -0.78903935177010298,
                         -2.743464127714673};
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    memcpy(p->W->data, W, sizeof W);
    memcpy(p->q->data, q, sizeof q);
    p->mu[0] = 4.4254232493884818;
    p->mu[1] = 2.329586251134057;
    fl_enumerate_result *e = NULL;
    cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, NULL), FL_OK);
    cr_assert_eq(e->nsol, 3);
    gsl_vector *r = gsl_vector_alloc(4);
    long idx[2];
    size_t orders[2][2] = {{0, 1}, {1, 0}};
    for (int k = 0; k < 2; k++) {
        fl_nsgs_options o = fl_nsgs_options_default();
        o.order = FL_NSGS_ORDER_GIVEN;
        o.ordering = orders[k];
        o.tol = 1e-13;
        o.max_sweeps = 20000;
        cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, NULL), FL_OK);
        idx[k] = fl_enumerate_find(e, r->data, 1e-7);
        cr_assert_geq(idx[k], 0);
    }
    cr_assert_neq(idx[0], idx[1], "both orderings reached the same limit");
    /* the open/slide limit of the natural order: r_2 = 0 */
    gsl_vector_free(r);
    fl_enumerate_result_free(e);
    fl_local_problem_free(p);
}

/* 3D: no enumeration oracle; every dot of a cloud (both modes, both
 * implementations) satisfies Coulomb's law (003 §4: "clouds ... are
 * included in the angular regions imposed by Coulomb law"). */
Test(plurality, clouds_3d_satisfy_coulomb)
{
    gsl_rng *rng = fl_test_rng(77);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int t = 0; t < 60; t++) {
        size_t nc = 1 + gsl_rng_uniform_int(rng, 4);
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_alloc(3 * nc + 1, nc, 3, 1, &g, NULL), FL_OK);
        cr_assert_eq(fl_random_spd(rng, 30.0, 1.0, g->M), FL_OK);
        cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, g->H), FL_OK);
        fl_random_vector(rng, 1.0, g->f);
        for (size_t a = 0; a < nc; a++) g->mu[a] = 3.0 * fl_random_mu(rng);
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
        p->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
        double us = fmax(gsl_blas_dnrm2(p->q), 1e-300), wmax = 0;
        for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
        gsl_vector *U = gsl_vector_alloc(p->m);
        for (int mode = 0; mode < 2; mode++)
            for (int impl = 0; impl < 2; impl++) {
                fl_plurality_options o = fl_plurality_options_default();
                o.mode = mode ? FL_PLURALITY_RANDOM_START : FL_PLURALITY_RANDOM_ORDER;
                o.impl = impl ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
                o.runs = 6;
                o.nsgs.rng = rng;
                o.nsgs.tol = 1e-12;
                o.nsgs.max_sweeps = 3000;
                fl_cloud *c = NULL;
                cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, NULL), FL_OK);
                for (size_t k = 0; k < c->npts; k++) {
                    gsl_vector_view rv = gsl_vector_view_array(c->pts + k * p->m, p->m);
                    cr_assert_eq(fl_local_problem_velocity(p, &rv.vector, U, NULL), FL_OK);
                    double v = fl_coulomb_violation(3, nc, p->mu, rv.vector.data, U->data,
                                                    us / wmax, us);
                    cr_assert_leq(v, 1e-7, "system %d dot %zu: violation %g (%s)", t, k, v,
                                  fl_test_seed_note());
                }
                fl_cloud_free(c);
            }
        gsl_vector_free(U);
        fl_local_problem_free(p);
        fl_global_problem_free(g);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}
