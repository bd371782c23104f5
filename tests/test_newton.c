/* test_newton.c — semismooth Newton on the Alart–Curnier function
 * (reference/newton.c, optimized/newton_sparse.c; Alart & Curnier 1991 §3,
 * proofs/newton.md) and the solver dispatcher (drivers/solve.c): closed
 * forms of one contact, the law at convergence on random systems for both
 * twins, the unique 2D solution against the enumeration oracle
 * (reference/enumerate.c), global problems without W, the same refusals by
 * both twins. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_random.h"
#include "fl_rng.h"
#include "drivers/solve.h"
#include "optimized/newton_sparse.h"
#include "reference/enumerate.h"
#include "reference/local_contact.h"
#include "reference/newton.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "optimized/nsgs_sparse.h"
#include "drivers/fl_types.h"

static fl_sparse_ctx ctx;
static void setup(void) { cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK); }
static void teardown(void) { fl_sparse_finish(&ctx); }
#include "random_local.h"   /* after ctx: its problems live there */

/* One 3D contact, W = I (dense and sparse), q, mu. */
static fl_local_problem *one_contact(double q0, double q1, double q2, double mu)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 3, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    gsl_vector_set(p->q, 0, q0);
    gsl_vector_set(p->q, 1, q1);
    gsl_vector_set(p->q, 2, q2);
    p->mu[0] = mu;
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

Test(newton, one_contact_closed_forms, .init = setup, .fini = teardown)
{
    /* W = I, mu = 1/2.  Open: q = (1,2,3) -> r = 0.  Stick: q = (-2,0.2,0)
     * -> r = -q = (2,-0.2,0), |r_T| = 0.2 <= 1.  Slide: q = (-1,3,4) ->
     * r_N = 1, r_T = -mu r_N (0.6, 0.8), U = (0, 2.7, 3.6) parallel to
     * (0.6, 0.8) (closed forms of Coulomb's law in impulse form, 003 §3, with W = I). */
    const double cases[3][7] = {{1, 2, 3, 0, 0, 0, 0},
                                {-2, 0.2, 0, 2, -0.2, 0, 0},
                                {-1, 3, 4, 1, -0.3, -0.4, 0}};
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 2; k++) {
            fl_local_problem *p = one_contact(cases[c][0], cases[c][1], cases[c][2], 0.5);
            gsl_vector *r = gsl_vector_alloc(3);
            fl_newton_options o = fl_newton_options_default();
            fl_newton_result res;
            cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, &res, NULL), FL_OK, "case %d impl %d", c, k);
            for (int i = 0; i < 3; i++)
                cr_assert(fabs(r->data[i] - cases[c][3 + i]) <= 1e-12, "case %d impl %d r[%d] = %g",
                          c, k, i, r->data[i]);
            cr_assert_eq(res.stop, FL_NEWTON_STOP_TOL);
            gsl_vector_free(r);
            fl_local_problem_free(p);
        }
}

Test(newton, alart_curnier_function_vanishes_exactly_on_the_law)
{
    /* (N1): Phi = 0 at the slide solution above (U = (0, 2.7, 3.6)), for any rho > 0 */
    double r[3] = {1, -0.3, -0.4}, U[3] = {0, 2.7, 3.6}, phi[3], D[9];
    for (double rho = 0.1; rho < 10; rho *= 3) {
        fl_local_contact_alart_curnier(3, 0.5, rho, r, U, phi, D);
        for (int i = 0; i < 3; i++) cr_assert(fabs(phi[i]) <= 1e-15, "rho %g phi[%d] %g", rho, i, phi[i]);
    }
    /* off the law: r_T rotated away from -U_T -> Phi_T != 0 */
    double r2[3] = {1, 0.3, -0.4};
    fl_local_contact_alart_curnier(3, 0.5, 1.0, r2, U, phi, D);
    cr_assert(hypot(phi[1], phi[2]) > 0.1);
    /* 2D, open contact: r = 0, U_N > 0 -> Phi = 0, D = 0 */
    double r0[2] = {0, 0}, U0[2] = {1, -3}, p2[2], D2[4];
    fl_local_contact_alart_curnier(2, 0.3, 1.0, r0, U0, p2, D2);
    cr_assert(p2[0] == 0 && p2[1] == 0 && D2[0] == 0 && D2[3] == 0);
}

Test(newton, random_systems_both_twins_law_and_enumeration, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_rng_alloc(20261125UL);
    int unique = 0;
    for (int t = 0; t < 60; t++) {
        int dim = 2 + t % 2;
        size_t nc = 1 + (size_t)(t % 5);
        fl_local_problem *p = random_local(rng, nc, dim);
        gsl_vector *r[2], *U = gsl_vector_alloc(p->m);
        for (int k = 0; k < 2; k++) {
            r[k] = gsl_vector_alloc(p->m);
            fl_newton_options o = fl_newton_options_default();
            o.tol = 1e-12;
            cr_assert_eq(fl_newton_types[k].solve(p, &o, r[k], NULL, NULL, NULL), FL_OK, "system %d impl %d", t, k);
            double e;
            cr_assert_eq(fl_residual_local(p, r[k], U, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
            cr_assert(e <= 1e-12, "system %d impl %d error %g", t, k, e);
            double us = gsl_blas_dnrm2(p->q), wmax = 0;
            for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
            double v = fl_coulomb_violation(p->dim, p->nc, p->mu, r[k]->data, U->data, us / wmax, us);
            cr_assert(v <= 1e-7, "system %d impl %d Coulomb violation %g", t, k, v);
        }
        if (dim == 2) {
            fl_enumerate_result *e = NULL;
            cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, NULL), FL_OK);
            if (e->nsol == 1 && e->singular == 0) {
                unique++;
                for (int k = 0; k < 2; k++)
                    for (size_t i = 0; i < p->m; i++)
                        cr_assert(fabs(r[k]->data[i] - e->sol[i]) <= 1e-7 * (1 + fabs(e->sol[i])),
                                  "system %d impl %d r[%zu] %g vs enumerated %g", t, k, i,
                                  r[k]->data[i], e->sol[i]);
            }
            fl_enumerate_result_free(e);
        }
        gsl_vector_free(r[0]);
        gsl_vector_free(r[1]);
        gsl_vector_free(U);
        fl_local_problem_free(p);
    }
    cr_assert(unique >= 5, "only %d 2D systems with a unique solution", unique);
    gsl_rng_free(rng);
}

Test(newton, global_without_W_both_twins, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_rng_alloc(77UL);
    for (int t = 0; t < 20; t++) {
        int dim = 2 + t % 2;
        size_t nc = 1 + (size_t)(t % 4), n = (size_t)dim * nc + 3;
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_random(rng, n, nc, dim, 0.1, 1.0, &g, NULL), FL_OK);
        g->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
        cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
        for (int k = 0; k < 2; k++) {
            fl_newton_options o = fl_newton_options_default();
            o.tol = 1e-12;
            gsl_vector *v = gsl_vector_alloc(n), *r = gsl_vector_alloc(g->m),
                       *U = gsl_vector_alloc(g->m), *U2 = gsl_vector_alloc(g->m);
            fl_status s = fl_newton_types[k].global_solve(g, &o, v, r, U, NULL, NULL);
            cr_assert_eq(s, FL_OK, "system %d impl %d", t, k);
            /* the same r solves the Delassus (local) problem: independent check */
            double e;
            cr_assert_eq(fl_residual_local(p, r, U2, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
            cr_assert(e <= 1e-10, "system %d impl %d local error %g", t, k, e);
            for (size_t i = 0; i < g->m; i++)
                cr_assert(fabs(U->data[i] - U2->data[i]) <= 1e-9 * (1 + gsl_blas_dnrm2(U2)));
            gsl_vector_free(v);
            gsl_vector_free(r);
            gsl_vector_free(U);
            gsl_vector_free(U2);
        }
        fl_local_problem_free(p);
        fl_global_problem_free(g);
    }
    gsl_rng_free(rng);
}

Test(newton, both_twins_refuse_the_same_inputs, .init = setup, .fini = teardown)
{
    fl_local_problem *p = one_contact(-1, 3, 4, 0.5);
    gsl_vector *r = gsl_vector_alloc(3), *r2 = gsl_vector_alloc(2);
    fl_newton_options o = fl_newton_options_default();
    fl_error err;
    for (int k = 0; k < 2; k++) {
        p->mu[0] = -1;
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
        p->mu[0] = 0.5;
        gsl_vector_set(p->q, 1, NAN);
        cr_assert_lt(fl_newton_types[k].solve(p, &o, r, NULL, NULL, &err), 0);
        gsl_vector_set(p->q, 1, 3);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r2, NULL, NULL, &err), FL_EDIM);
        o.tol = -1;
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "tol") != NULL);
        o = fl_newton_options_default();
        o.start = FL_NEWTON_START_WARM;
        gsl_vector_set(r, 0, INFINITY);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, NULL, &err), FL_ENONFINITE);
        o = fl_newton_options_default();
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, NULL, &err), FL_OK);
    }
    fl_local_problem *q = one_contact(-1, 3, 4, 0.5);
    cholmod_free_sparse(&q->Ws, &ctx.cm);
    cr_assert_eq(fl_newton_solve_sparse(q, &o, r, NULL, NULL, &err), FL_EINVAL);
    gsl_matrix_free(q->W);
    q->W = NULL;
    cr_assert_eq(fl_newton_solve(q, &o, r, NULL, NULL, &err), FL_EINVAL);
    fl_local_problem_free(q);
    gsl_vector_free(r);
    gsl_vector_free(r2);
    fl_local_problem_free(p);
}

Test(newton, dispatcher_gs_newton_auto, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_rng_alloc(5UL);
    fl_solver_kind k;
    cr_assert_eq(fl_solve_parse_solver("newton", &k, NULL), FL_OK);
    cr_assert_eq(k, FL_SOLVER_NEWTON);
    cr_assert_eq(fl_solve_parse_solver("lemke", &k, NULL), FL_ENOTFOUND);
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = random_local(rng, 4, dim);
        for (int solver = 0; solver < 3; solver++)
            for (int opt = 0; opt < 2; opt++) {
                fl_solve_options o = fl_solve_options_default();
                o.solver = (fl_solver_kind)solver;
                o.impl = opt ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
                o.tol = 1e-10;
                gsl_vector *r = gsl_vector_alloc(p->m);
                fl_solve_result res;
                cr_assert_eq(fl_solve_local(p, &o, r, NULL, &res, NULL), FL_OK);
                cr_assert_eq(res.stop, FL_SOLVE_STOP_TOL);
                cr_assert(res.residual_norm_q <= 1e-10 && res.residual_max_norm <= res.residual_norm_q);
                if (solver == FL_SOLVER_GS) cr_assert_eq(res.finished_by, FL_SOLVER_GS);
                if (solver == FL_SOLVER_NEWTON) cr_assert_eq(res.finished_by, FL_SOLVER_NEWTON);
                gsl_vector_free(r);
            }
        fl_local_problem_free(p);
    }
    fl_solve_options o = fl_solve_options_default();
    o.tol = 0;
    fl_local_problem *p = random_local(rng, 2, 3);
    gsl_vector *r = gsl_vector_alloc(p->m);
    cr_assert_eq(fl_solve_local(p, &o, r, NULL, NULL, NULL), FL_EINVAL);
    gsl_vector_free(r);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

Test(newton, sparse_gs_stopping_rule_and_fast_local_solve, .init = setup, .fini = teardown)
{
    /* optimized/nsgs_sparse.c: whatever check_every, FL_OK means the full
     * natural-map error recomputed from r is <= tol; check_every < 1 is
     * refused by both twins; the sparse twin's 3D answer is the reference's
     * where the solution is unique (one contact: the closed forms above). */
    gsl_rng *rng = fl_rng_alloc(11UL);
    for (int t = 0; t < 10; t++) {
        fl_local_problem *p = random_local(rng, 6, 3);
        gsl_vector *r = gsl_vector_alloc(p->m), *U = gsl_vector_alloc(p->m);
        for (int every = 1; every <= 20; every += 19) {
            fl_nsgs_options o = fl_nsgs_options_default();
            o.tol = 1e-11;
            o.max_sweeps = 20000;
            o.sparse.check_every = every;
            fl_nsgs_result res;
            cr_assert_eq(fl_nsgs_solve_sparse(p, &o, r, NULL, &res, NULL), FL_OK);
            double e;
            cr_assert_eq(fl_residual_local(p, r, U, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
            cr_assert(e <= 1e-11 && fabs(e - res.residual) <= 1e-15 + 1e-9 * e, "e %g res %g", e,
                      res.residual);
        }
        fl_nsgs_options o = fl_nsgs_options_default();
        o.sparse.check_every = 0;
        cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, NULL), FL_EINVAL);
        cr_assert_eq(fl_nsgs_solve_sparse(p, &o, r, NULL, NULL, NULL), FL_EINVAL);
        gsl_vector_free(r);
        gsl_vector_free(U);
        fl_local_problem_free(p);
    }
    const double cases[3][6] = {{1, 2, 3, 0, 0, 0}, {-2, 0.2, 0, 2, -0.2, 0}, {-1, 3, 4, 1, -0.3, -0.4}};
    for (int c = 0; c < 3; c++) {
        fl_local_problem *p = one_contact(cases[c][0], cases[c][1], cases[c][2], 0.5);
        gsl_vector *r = gsl_vector_alloc(3);
        fl_nsgs_options o = fl_nsgs_options_default();
        cr_assert_eq(fl_nsgs_solve_sparse(p, &o, r, NULL, NULL, NULL), FL_OK);
        for (int i = 0; i < 3; i++) cr_assert(fabs(r->data[i] - cases[c][3 + i]) <= 1e-12);
        gsl_vector_free(r);
        fl_local_problem_free(p);
    }
    gsl_rng_free(rng);
}
