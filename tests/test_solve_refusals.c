/* test_solve_refusals.c — the solver dispatcher drivers/solve.c: option and
 * argument refusals, every solver through both twins on local and global
 * problems whose solution is known in closed form, and the branches of the
 * automatic strategy of drivers/solve.h (Gauss–Seidel chunks, the switch to
 * Newton, Gauss–Seidel resuming after Newton's iteration limit).
 *
 * Closed form (one contact, W = I, q = (-1, 2[, 0]), mu = 1/2): the contact
 * closes (r_N = -q_N / W_NN = 1) and slides, since the stick reaction
 * r_T = -q_T = -2 lies outside the disc |r_T| <= mu r_N = 1/2; sliding
 * opposes U_T, so r_T = -1/2 along e_1 and U_T = r_T + q_T = 3/2, U_N = 0.
 * The global problem M = I, H = I, f = q, w = 0 has W = H M^-1 H^T = I and
 * q = H M^-1 f + w = f, the same r, and v = M^-1 (f + H^T r) = (0, 3/2[, 0]). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "drivers/solve.h"
#include "fl_random.h"

static fl_local_problem *one_contact(int dim, fl_sparse_ctx *ctx)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, dim, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    gsl_vector_set(p->q, 0, -1.0);
    gsl_vector_set(p->q, 1, 2.0);
    p->mu[0] = 0.5;
    if (ctx) {
        p->ctx = ctx;
        cr_assert_eq(fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    }
    return p;
}

static void expect_closed_form(const gsl_vector *r, const gsl_vector *U, const char *what)
{
    double rw[3] = {1.0, -0.5, 0.0}, Uw[3] = {0.0, 1.5, 0.0};
    for (size_t k = 0; k < r->size; k++) {
        cr_assert(fabs(gsl_vector_get(r, k) - rw[k]) <= 1e-7, "%s: r[%zu] = %.17g", what, k,
                  gsl_vector_get(r, k));
        if (U)
            cr_assert(fabs(gsl_vector_get(U, k) - Uw[k]) <= 1e-7, "%s: U[%zu] = %.17g", what, k,
                      gsl_vector_get(U, k));
    }
}

Test(cov_io_solve, names_and_option_refusals)
{
    fl_solver_kind k = FL_SOLVER_GS;
    fl_error err;
    cr_assert_eq(fl_solve_parse_solver(NULL, &k, &err), FL_ENOTFOUND);
    cr_assert(strstr(err.message, "solver '(null)' unknown"), "%s", err.message);
    cr_assert_eq(fl_solve_parse_solver("lemke", &k, &err), FL_ENOTFOUND);
    cr_assert(strstr(err.message, "'lemke' unknown (expected gs, newton, auto or ppa)"), "%s", err.message);
    cr_assert_eq(k, FL_SOLVER_GS, "unchanged on a refused name");
    cr_assert_eq(fl_solve_parse_solver("newton", &k, NULL), FL_OK);
    cr_assert_eq(k, FL_SOLVER_NEWTON);
    cr_assert_str_eq(fl_solve_solver_name((fl_solver_kind)7), "?");
    cr_assert_str_eq(fl_solve_stop_name((fl_solve_stop)7), "?");
    cr_assert_str_eq(fl_solve_stop_name(FL_SOLVE_STOP_STALLED), "Newton stalled (failed steps in a row)");
    cr_assert_str_eq(fl_solve_stop_name(FL_SOLVE_STOP_ERROR), "error");

    fl_local_problem *p = one_contact(3, NULL);
    gsl_vector *r = gsl_vector_calloc(3);
    fl_solve_result res;
    cr_assert_eq(fl_solve_local(p, NULL, r, NULL, &res, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "NULL options"));
    cr_assert_eq(res.stop, FL_SOLVE_STOP_ERROR);
    struct { const char *what; fl_solve_options o; } bad[7];
    for (int i = 0; i < 7; i++) bad[i].o = fl_solve_options_default();
    bad[0].what = "unknown solver 9";            bad[0].o.solver = (fl_solver_kind)9;
    bad[1].what = "tol = 0 must be positive";    bad[1].o.tol = 0;
    bad[2].what = "tol = inf must be positive";  bad[2].o.tol = INFINITY;
    bad[3].what = "max_sweeps = 0";              bad[3].o.max_sweeps = 0;
    bad[4].what = "max_newton = 0";              bad[4].o.max_newton = 0;
    bad[5].what = "auto_gs_sweeps = 0";          bad[5].o.auto_gs_sweeps = 0;
    bad[6].what = "tol = nan must be positive";  bad[6].o.tol = NAN;
    for (int i = 0; i < 7; i++) {
        fl_error_clear(&err);
        cr_assert_eq(fl_solve_local(p, &bad[i].o, r, NULL, &res, &err), FL_EINVAL, "%s", bad[i].what);
        cr_assert(strstr(err.message, bad[i].what), "'%s' should say '%s'", err.message, bad[i].what);
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_solve_global(g, &bad[i].o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, bad[i].what), "global: '%s'", err.message);
    }
    /* r and U: missing, of the wrong length, not contiguous */
    fl_solve_options o = fl_solve_options_default();
    gsl_vector *r4 = gsl_vector_calloc(4);
    gsl_matrix *A = gsl_matrix_calloc(3, 2);
    gsl_vector_view col = gsl_matrix_column(A, 0);   /* stride 2 */
    cr_assert_eq(fl_solve_local(p, &o, NULL, NULL, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "r must be a contiguous vector of length 3"), "%s", err.message);
    cr_assert_eq(fl_solve_local(p, &o, r4, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_solve_local(p, &o, &col.vector, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_solve_local(p, &o, r, r4, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "U must have length 3"), "%s", err.message);
    cr_assert_eq(fl_solve_local(p, &o, r, &col.vector, NULL, &err), FL_EDIM);
    /* a bad problem is refused by the shared check */
    p->mu[0] = -1;
    cr_assert_eq(fl_solve_local(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "mu[0] = -1"), "%s", err.message);
    gsl_matrix_free(A);
    gsl_vector_free(r4);
    gsl_vector_free(r);
    fl_local_problem_free(p);
}

/* Case k of 12: solver k / 4 (gs, newton, auto), twin (k / 2) % 2
 * (reference, optimized), tolerance 1e-12; k % 2 says whether the optional
 * outputs are asked for. */
static fl_solve_options case_options(int k)
{
    fl_solve_options o = fl_solve_options_default();
    o.solver = (fl_solver_kind)(k / 4);
    o.impl = (fl_impl)((k / 2) % 2);
    o.tol = 1e-12;
    return o;
}

Test(cov_io_solve, every_solver_and_twin_on_the_closed_form)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = one_contact(dim, &ctx);
        for (int k = 0; k < 12; k++) {
            fl_solve_options o = case_options(k);
            int with_res = k % 2;
            gsl_vector *r = gsl_vector_calloc(p->m), *U = gsl_vector_calloc(p->m);
            fl_solve_result res;
            fl_error err;
            fl_status s = fl_solve_local(p, &o, r, with_res ? U : NULL,
                                         with_res ? &res : NULL, &err);
            cr_assert_eq(s, FL_OK, "dim %d case %d: %s", dim, k, err.message);
            expect_closed_form(r, with_res ? U : NULL, "local");
            if (with_res) {
                cr_assert_eq(res.stop, FL_SOLVE_STOP_TOL);
                cr_assert(res.residual_norm_q <= 1e-10);
            }
            gsl_vector_free(r);
            gsl_vector_free(U);
        }
        fl_local_problem_free(p);
    }
    fl_sparse_finish(&ctx);
}

static fl_global_problem *one_contact_global(int dim, fl_sparse_ctx *ctx)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc((size_t)dim, 1, dim, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set_identity(g->H);
    gsl_vector_set(g->f, 0, -1.0);
    gsl_vector_set(g->f, 1, 2.0);
    g->mu[0] = 0.5;
    g->ctx = ctx;
    cr_assert_eq(fl_sparse_from_dense(ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
    return g;
}

Test(cov_io_solve, global_problems_through_both_twins)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int dim = 2; dim <= 3; dim++) {
        fl_global_problem *g = one_contact_global(dim, &ctx);
        for (int k = 0; k < 12; k++) {
            fl_solve_options o = case_options(k);
            int outs = k % 2;
            gsl_vector *v = gsl_vector_calloc(g->n), *r = gsl_vector_calloc(g->m),
                       *U = gsl_vector_calloc(g->m);
            fl_solve_result res;
            fl_error err;
            fl_status s = fl_solve_global(g, &o, outs ? v : NULL, r, outs ? U : NULL,
                                          outs ? &res : NULL, &err);
            cr_assert_eq(s, FL_OK, "dim %d case %d: %s", dim, k, err.message);
            expect_closed_form(r, outs ? U : NULL, "global");
            if (outs) {
                /* v = f + r */
                cr_assert(fabs(gsl_vector_get(v, 0)) <= 1e-7);
                cr_assert(fabs(gsl_vector_get(v, 1) - 1.5) <= 1e-7);
                cr_assert_eq(res.finished_by, o.solver == FL_SOLVER_GS ? FL_SOLVER_GS : FL_SOLVER_NEWTON);
            }
            gsl_vector_free(v);
            gsl_vector_free(r);
            gsl_vector_free(U);
        }
        /* refusals: the matrices the chosen twin reads, f, w and mu, the vectors */
        fl_solve_options o = fl_solve_options_default();
        o.solver = FL_SOLVER_GS;
        gsl_vector *r = gsl_vector_calloc(g->m), *bad = gsl_vector_calloc(g->m + 1);
        fl_error err;
        cholmod_sparse *Ms = g->Ms;
        g->Ms = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "the optimized solvers need sparse M and H"), "%s", err.message);
        g->Ms = Ms;
        o.impl = FL_IMPL_REFERENCE;
        gsl_matrix *H = g->H;
        g->H = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "the reference solvers need dense M and H"), "%s", err.message);
        g->H = H;
        double *mu = g->mu;
        g->mu = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "are required"), "%s", err.message);
        g->mu = mu;
        cr_assert_eq(fl_solve_global(NULL, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "NULL global problem"), "%s", err.message);
        cr_assert_eq(fl_solve_global(g, &o, NULL, NULL, NULL, NULL, &err), FL_EDIM);
        cr_assert_eq(fl_solve_global(g, &o, NULL, bad, NULL, NULL, &err), FL_EDIM);
        cr_assert(strstr(err.message, "r must be a contiguous vector"), "%s", err.message);
        cr_assert_eq(fl_solve_global(g, &o, bad, r, NULL, NULL, &err), FL_EDIM);
        cr_assert(strstr(err.message, "v must have length"), "%s", err.message);
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, bad, NULL, &err), FL_EDIM);
        gsl_matrix *A = gsl_matrix_calloc(g->m, 2);
        gsl_vector_view col = gsl_matrix_column(A, 0);   /* stride 2 */
        cr_assert_eq(fl_solve_global(g, &o, NULL, &col.vector, NULL, NULL, &err), FL_EDIM);
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, &col.vector, NULL, &err), FL_EDIM);
        if (g->n == g->m) cr_assert_eq(fl_solve_global(g, &o, &col.vector, r, NULL, NULL, &err), FL_EDIM);
        gsl_matrix_free(A);
        /* each matrix, vector and the context the chosen twin needs */
        o.impl = FL_IMPL_OPTIMIZED;
        cholmod_sparse *Hs = g->Hs;
        g->Hs = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        g->Hs = Hs;
        g->ctx = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "the optimized solvers need sparse M and H"), "%s", err.message);
        g->ctx = &ctx;
        o.impl = FL_IMPL_REFERENCE;
        gsl_matrix *M = g->M;
        g->M = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        g->M = M;
        gsl_vector *f = g->f, *w = g->w;
        g->f = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        g->f = f;
        g->w = NULL;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        g->w = bad;
        cr_assert_eq(fl_solve_global(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "f (length"), "%s", err.message);
        g->w = w;
        gsl_vector_free(r);
        gsl_vector_free(bad);
        fl_global_problem_free(g);
    }
    fl_sparse_finish(&ctx);
}

/* The law at the returned r, by the disjunctive test of fl_problem.h
 * (fl_coulomb_violation; the solvers stop on the natural-map error). */
static double law_violation(const fl_local_problem *p, const gsl_vector *r)
{
    gsl_vector *U = gsl_vector_alloc(p->m);
    gsl_vector_memcpy(U, p->q);
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, r, 1.0, U);
    double rs = fmax(gsl_blas_dnrm2(r), 1e-300), us = fmax(gsl_blas_dnrm2(p->q), 1e-300);
    double v = fl_coulomb_violation(p->dim, p->nc, p->mu, r->data, U->data, rs, us);
    gsl_vector_free(U);
    return v;
}

/* The automatic strategy (drivers/solve.h) on problems of every kind:
 * Gauss–Seidel in chunks, then Newton, then Gauss–Seidel again after a
 * Newton iteration limit, then (both stalled) the proximal-point method; whichever finishes, the answer obeys the law. */
Test(cov_io_solve, auto_strategy_branches)
{
    gsl_rng *rng = fl_test_rng(5);
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    int newton_then_gs = 0, gs_only = 0, newton_finished = 0;
    for (int dim = 2; dim <= 3; dim++)
        for (int kind = 0; kind < 2; kind++) {
            fl_local_problem *p = NULL;
            cr_assert_eq(fl_random_local_problem(rng, kind ? FL_RANDOM_ILL_CONDITIONED : FL_RANDOM_PLAIN,
                                                 8, dim, &ctx, &p), FL_OK);
            /* (a) defaults; (b) Newton limited to one step: Gauss–Seidel
             * resumes; (c) fewer sweeps than a chunk; (d) the chunk loop
             * stopped by max_sweeps */
            for (int variant = 0; variant < 5; variant++) {
                fl_solve_options o = fl_solve_options_default();
                o.impl = (fl_impl)(variant % 2);
                o.tol = 1e-9;
                if (variant == 1) o.max_newton = 1;
                if (variant == 2) o.max_sweeps = 5;
                if (variant == 3) {
                    o.max_sweeps = 50;
                    o.auto_gs_sweeps = 30;
                }
                if (variant == 4) {   /* one chunk, one Newton step, no sweep left */
                    o.max_sweeps = 20;
                    o.max_newton = 1;
                }
                gsl_vector *r = gsl_vector_calloc(p->m);
                fl_solve_result res;
                fl_error err;
                fl_status s = fl_solve_local(p, &o, r, NULL, &res, &err);
                cr_assert(s == FL_OK || s == FL_WMAXITER, "dim %d kind %d variant %d: %s (%s)", dim,
                          kind, variant, fl_strerror(s), fl_test_seed_note());
                /* past max_sweeps only Newton's fallback sweeps (20 per failed
                 * step, ppa's inner steps included) */
                cr_assert(res.gs_sweeps <= o.max_sweeps + (res.newton_steps ? 10 * o.max_newton + 200 : 0) +
                                               (res.ppa_outer ? 20 * res.newton_steps : 0));
                if (variant == 1 && res.newton_steps > 0) {
                    /* one Newton step, then Gauss–Seidel; ppa (whose inner
                     * Newton steps are counted too) only once the sweeps are spent */
                    cr_assert(res.newton_steps <= 1 || (res.ppa_outer > 0 && res.gs_sweeps >= o.max_sweeps),
                              "%d Newton steps, %d ppa, %d sweeps", res.newton_steps, res.ppa_outer,
                              res.gs_sweeps);
                    if (res.gs_sweeps < o.max_sweeps) {
                        newton_then_gs += res.finished_by == FL_SOLVER_GS;
                        cr_assert_eq(res.ppa_outer, 0);
                    }
                }
                if (res.newton_steps == 0) gs_only++;
                if (res.finished_by == FL_SOLVER_NEWTON) newton_finished++;
                if (s == FL_OK) {
                    cr_assert(res.residual <= o.tol, "%g", res.residual);
                    cr_assert(law_violation(p, r) <= 1e-5, "dim %d kind %d variant %d: violation %g",
                              dim, kind, variant, law_violation(p, r));
                } else {
                    cr_assert_eq(res.stop, FL_SOLVE_STOP_MAXITER);
                }
                gsl_vector_free(r);
            }
            fl_local_problem_free(p);
        }
    cr_log_info("auto: %d Gauss-Seidel only, %d finished by Newton, %d Gauss-Seidel after Newton",
                gs_only, newton_finished, newton_then_gs);
    cr_assert_gt(gs_only, 0);
    cr_assert_gt(newton_finished, 0);
    cr_assert_gt(newton_then_gs, 0);
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

/* M = diag(1, -1, 1) is not positive definite: every solver and both twins
 * refuse it (the Delassus operator and Newton's linear systems need M^-1),
 * and the result says the solve stopped on an error. */
Test(cov_io_solve, an_indefinite_mass_is_refused_alike)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *g = one_contact_global(3, &ctx);
    gsl_matrix_set(g->M, 1, 1, -1.0);
    fl_sparse_free(&ctx, &g->Ms);
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
    for (int solver = 0; solver < 3; solver++) {
        fl_status st[2];
        for (int opt = 0; opt <= 1; opt++) {
            fl_solve_options o = fl_solve_options_default();
            o.solver = (fl_solver_kind)solver;
            o.impl = (fl_impl)(opt);
            gsl_vector *r = gsl_vector_calloc(g->m);
            fl_solve_result res;
            fl_error err;
            st[opt] = fl_solve_global(g, &o, NULL, r, NULL, &res, &err);
            cr_assert_lt(st[opt], 0, "solver %d opt %d: %d", solver, opt, st[opt]);
            cr_assert_eq(res.stop, FL_SOLVE_STOP_ERROR);
            cr_assert_eq(res.status, st[opt]);
            gsl_vector_free(r);
        }
        cr_assert_eq(st[0], st[1], "solver %d: reference %s, optimized %s", solver,
                     fl_strerror(st[0]), fl_strerror(st[1]));
    }
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
}

/* W = 0 (no contact stiffness at all): U = q has U_N = -1 < 0 whatever r
 * is, so no solution exists (proofs/degenerate-problems.md (D1)); both
 * twins of every solver refuse it before any iteration, alike, never with
 * a converged answer. */
Test(cov_io_solve, a_zero_delassus_is_never_solved)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *p = one_contact(3, NULL);
    gsl_matrix_set_zero(p->W);
    p->ctx = &ctx;
    int r0[] = {0};
    double x0[] = {0.0};
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 1, r0, r0, x0, 0, &p->Ws, NULL), FL_OK);
    for (int solver = 0; solver < 3; solver++) {
        fl_status st[2];
        for (int opt = 0; opt <= 1; opt++) {
            fl_solve_options o = fl_solve_options_default();
            o.solver = (fl_solver_kind)solver;
            o.impl = (fl_impl)(opt);
            o.max_sweeps = 50;
            o.max_newton = 20;
            gsl_vector *r = gsl_vector_calloc(p->m);
            fl_solve_result res;
            fl_error err;
            st[opt] = fl_solve_local(p, &o, r, NULL, &res, &err);
            cr_assert_eq(st[opt], FL_EINVAL, "solver %d opt %d: %s (%s)", solver, opt,
                         fl_strerror(st[opt]), err.message);
            cr_assert(strstr(err.message, "contact 0: no solution exists"), "%s", err.message);
            cr_assert_eq(res.gs_sweeps + res.newton_steps, 0);
            gsl_vector_free(r);
        }
        cr_assert_eq(st[0], st[1], "solver %d: reference %s, optimized %s", solver,
                     fl_strerror(st[0]), fl_strerror(st[1]));
    }
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
}
