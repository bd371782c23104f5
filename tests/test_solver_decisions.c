/* test_solver_decisions.c — the decisions of the iterative solvers, not
 * only their answers (issue 28): the time limit (fl_nsgs_options,
 * fl_newton_options, fl_solve_options .time_limit: status FL_WTIMEOUT, the
 * best iterate returned with its error; every solver of the dispatcher,
 * the proximal-point method included), degenerate problems refused before
 * any sweep naming the contact (fl_nsgs_check_blocks,
 * proofs/degenerate-problems.md), and the reported error and status being
 * those of the returned iterate for every max_sweeps 1..20, recomputed
 * here by core/fl_residual.h. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_clock.h"
#include "fl_random.h"
#include "fl_rng.h"
#include "drivers/solve.h"
#include "drivers/fl_types.h"
#include "reference/delassus.h"

static fl_sparse_ctx ctx;
static void setup(void) { cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK); }
static void teardown(void) { fl_sparse_finish(&ctx); }
#include "random_local.h"   /* after ctx: its problems live there */

/* The error of r recomputed independently of the solver. */
static double error_of(const fl_local_problem *p, const gsl_vector *r)
{
    gsl_vector *U = gsl_vector_alloc(p->m);
    double e;
    cr_assert_eq(fl_residual_local(p, r, U, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
    gsl_vector_free(U);
    return e;
}

static int min_error_cb(void *data, int sweep, double e, const gsl_vector *r)
{
    (void)sweep;
    (void)r;
    double *mn = data;
    if (e < *mn) *mn = e;
    return 0;
}

/* Equal up to the rounding of U = W r + q (dense against sparse products,
 * amplified by the natural map's cancellation near a solution). */
static int same(double a, double b) { return fabs(a - b) <= 1e-8 * fabs(a) + 1e-13; }

Test(time_limit, gauss_seidel_twins_stop_with_the_best_iterate, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_rng_alloc(28UL);
    fl_local_problem *p = random_local(rng, 200, 3);
    for (int k = 0; k < 2; k++) {
        gsl_vector *r = gsl_vector_alloc(p->m);
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1e-300;            /* never reached: only the clock stops it */
        o.max_sweeps = 100000000;
        o.time_limit = 0.2;
        double mn = INFINITY;
        o.callback = min_error_cb;   /* every sweep's error: the best is their minimum */
        o.callback_data = &mn;
        fl_nsgs_result res;
        double t0 = fl_clock_now();
        fl_status s = fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL);
        double dt = fl_clock_now() - t0;
        cr_assert_eq(s, FL_WTIMEOUT, "%s status %d", fl_nsgs_types[k].name, s);
        cr_assert_eq(res.status, FL_WTIMEOUT);
        cr_assert_lt(dt, 0.5, "%s took %g s for a 0.2 s limit", fl_nsgs_types[k].name, dt);
        cr_assert_geq(dt, 0.2);
        cr_assert(same(res.residual, mn), "%s reported %.17g, best sweep %.17g",
                  fl_nsgs_types[k].name, res.residual, mn);
        cr_assert(same(error_of(p, r), res.residual), "%s: error of r %.17g, reported %.17g",
                  fl_nsgs_types[k].name, error_of(p, r), res.residual);
        gsl_vector_free(r);
    }
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

Test(time_limit, newton_twins_and_the_driver_stop_with_the_best_iterate, .init = setup,
     .fini = teardown)
{
    gsl_rng *rng = fl_rng_alloc(2828UL);
    fl_local_problem *p = random_local(rng, 60, 3);
    for (int k = 0; k < 2; k++) {
        gsl_vector *r = gsl_vector_alloc(p->m);
        fl_newton_options o = fl_newton_options_default();
        o.tol = 1e-300;            /* never reached: only the clock stops it */
        o.max_iterations = 100000000;
        o.time_limit = 0.2;
        fl_newton_result res;
        double t0 = fl_clock_now();
        fl_status s = fl_newton_types[k].solve(p, &o, r, NULL, &res, NULL);
        double dt = fl_clock_now() - t0;
        cr_assert_eq(s, FL_WTIMEOUT, "%s status %d", fl_newton_types[k].name, s);
        cr_assert_eq(res.stop, FL_NEWTON_STOP_TIMEOUT);
        cr_assert_lt(dt, 0.5, "%s took %g s", fl_newton_types[k].name, dt);
        double e_ret = error_of(p, r);
        /* the best of the iterates 0..it it went through (it <= 20 of them,
         * each the last iterate of a run with max_iterations = j) */
        gsl_vector *rj = gsl_vector_calloc(p->m);
        double mn = error_of(p, rj);
        fl_newton_options oj = o;
        oj.time_limit = 0;
        for (int j = 1; j <= res.iterations && j <= 20; j++) {
            oj.max_iterations = j;
            fl_newton_result nr;
            cr_assert_eq(fl_newton_types[k].solve(p, &oj, rj, NULL, &nr, NULL), FL_WMAXITER);
            mn = fmin(mn, nr.residual);
        }
        gsl_vector_free(rj);
        if (res.iterations <= 20)
            cr_assert(same(res.residual, mn), "%s: %d steps, returned error %.17g, best %.17g",
                      fl_newton_types[k].name, res.iterations, res.residual, mn);
        else
            cr_assert_leq(res.residual, mn * (1 + 1e-8), "%s: %d steps, error %.17g, best of 20 %.17g",
                          fl_newton_types[k].name, res.iterations, res.residual, mn);
        cr_assert(same(e_ret, res.residual), "%s: error of r %.17g, reported %.17g",
                  fl_newton_types[k].name, e_ret, res.residual);
        /* the dispatcher, every solver */
        for (int sv = 0; sv < FL_SOLVER_COUNT; sv++) {
            fl_solve_options so = fl_solve_options_default();
            so.impl = (fl_impl)k;
            so.solver = (fl_solver_kind)sv;
            so.tol = 1e-300;
            so.max_sweeps = 100000000;
            so.max_newton = 100000000;
            so.time_limit = 0.2;
            fl_solve_result sr;
            t0 = fl_clock_now();
            s = fl_solve_local(p, &so, r, NULL, &sr, NULL);
            dt = fl_clock_now() - t0;
            cr_assert_eq(s, FL_WTIMEOUT, "impl %d solver %d status %d", k, sv, s);
            cr_assert_eq(sr.stop, FL_SOLVE_STOP_TIMEOUT);
            cr_assert_lt(dt, 0.5, "impl %d solver %d took %g s", k, sv, dt);
            cr_assert(same(sr.residual_norm_q, sr.residual), "impl %d solver %d: %.17g vs %.17g",
                      k, sv, sr.residual_norm_q, sr.residual);
        }
        gsl_vector_free(r);
    }
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

/* nc 3D contacts, W = I except the contacts listed, whose rows and columns
 * of W are zero (zero_rows) or whose block is singular (singular). */
static fl_local_problem *blocks_problem(size_t nc, size_t zero_row, size_t singular, double qN)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(nc, 3, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    for (size_t a = 0; a < nc; a++) {
        gsl_vector_set(p->q, 3 * a, a == zero_row ? qN : -1.0);
        p->mu[a] = 0.5;
    }
    if (zero_row < nc)
        for (int i = 0; i < 3; i++) gsl_matrix_set(p->W, 3 * zero_row + i, 3 * zero_row + i, 0.0);
    if (singular < nc)   /* rank 1: every entry 1 */
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++) gsl_matrix_set(p->W, 3 * singular + i, 3 * singular + l, 1.0);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

static void refused(fl_local_problem *p, fl_status want, const char *contact)
{
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++) {
        fl_error err;
        fl_nsgs_result gr;
        fl_status s = fl_nsgs_types[k].solve(p, NULL, r, NULL, &gr, &err);
        cr_assert_eq(s, want, "%s status %d: %s", fl_nsgs_types[k].name, s, err.message);
        cr_assert_eq(gr.iterations, 0, "%s swept %d times", fl_nsgs_types[k].name, gr.iterations);
        cr_assert(strstr(err.message, contact), "%s: '%s' does not name %s",
                  fl_nsgs_types[k].name, err.message, contact);
        for (int sv = 0; sv < FL_SOLVER_COUNT; sv++) {
            fl_solve_options so = fl_solve_options_default();
            so.impl = (fl_impl)k;
            so.solver = (fl_solver_kind)sv;
            fl_solve_result sr;
            s = fl_solve_local(p, &so, r, NULL, &sr, &err);
            cr_assert_eq(s, want, "impl %d solver %d status %d", k, sv, s);
            cr_assert_eq(sr.gs_sweeps + sr.newton_steps + sr.ppa_outer, 0);
            cr_assert(strstr(err.message, contact), "'%s' does not name %s", err.message, contact);
        }
    }
    gsl_vector_free(r);
}

Test(degenerate, zero_normal_row_with_negative_qN_is_infeasible, .init = setup, .fini = teardown)
{
    /* proofs/degenerate-problems.md (D1) */
    fl_local_problem *p = blocks_problem(10, 7, 99, -1.0);
    refused(p, FL_EINVAL, "contact 7: no solution exists");
    fl_local_problem_free(p);
    p = blocks_problem(10, 7, 99, 0.5);   /* q_N >= 0: solvable, but W_77 = 0 (D2) */
    refused(p, FL_ESINGULAR, "contact 7: its diagonal block W_aa is zero");
    fl_local_problem_free(p);
}

Test(degenerate, singular_nonzero_diagonal_block_is_accepted, .init = setup, .fini = teardown)
{
    fl_local_problem *p = blocks_problem(10, 99, 4, -1.0);
    gsl_vector *r4 = gsl_vector_alloc(p->m);   /* singular, nonzero: accepted, solved */
    for (int k = 0; k < 2; k++)
        cr_assert_geq(fl_nsgs_types[k].solve(p, NULL, r4, NULL, NULL, NULL), FL_OK);
    gsl_vector_free(r4);
    fl_local_problem_free(p);
    p = blocks_problem(10, 99, 99, -1.0);   /* W = I: accepted, solved (r_N = 1) */
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++)
        cr_assert_eq(fl_nsgs_types[k].solve(p, NULL, r, NULL, NULL, NULL), FL_OK);
    gsl_vector_free(r);
    fl_local_problem_free(p);
}

Test(check_cadence, a_problem_one_sweep_solves_stops_after_one_sweep, .init = setup,
     .fini = teardown)
{
    /* optimized/nsgs_sparse.c: the full error is also checked after the
     * first sweep, where from a zero start the cheap test (the sweep's
     * change against |r|) cannot pass.  W = I: one sweep gives the answer
     * r_a = (1, 0, 0) exactly; both twins, gs and auto stop there (before,
     * the sparse twin swept twice, and a contact-free corpus problem,
     * fc2d_granularflowonwall_00667_00000.dat, ten times). */
    fl_local_problem *p = blocks_problem(10, 99, 99, -1.0);
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++) {
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1e-8;
        fl_nsgs_result res;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_OK);
        cr_assert_eq(res.iterations, 1, "%s: %d sweeps", fl_nsgs_types[k].name, res.iterations);
        for (size_t a = 0; a < p->nc; a++) cr_assert_eq(gsl_vector_get(r, 3 * a), 1.0);
        for (int sv = 0; sv < 3; sv += 2) {   /* gs, auto */
            fl_solve_options so = fl_solve_options_default();
            so.impl = (fl_impl)k;
            so.solver = (fl_solver_kind)sv;
            fl_solve_result sr;
            cr_assert_eq(fl_solve_local(p, &so, r, NULL, &sr, NULL), FL_OK);
            cr_assert_eq(sr.gs_sweeps, 1, "impl %d solver %d: %d sweeps", k, sv, sr.gs_sweeps);
            cr_assert_eq(sr.newton_steps, 0);
        }
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
}

Test(reported_error, is_the_error_of_the_returned_iterate_for_every_max_sweeps, .init = setup,
     .fini = teardown)
{
    gsl_rng *rng = fl_rng_alloc(2029UL);
    fl_local_problem *p = random_local(rng, 40, 3);
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++)
        for (int n = 1; n <= 20; n++) {
            fl_nsgs_options o = fl_nsgs_options_default();
            o.max_sweeps = n;
            o.tol = 1e-14;
            fl_nsgs_result res;
            fl_status s = fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL);
            double e = error_of(p, r);
            cr_assert(same(e, res.residual), "%s max_sweeps %d: error of r %.17g, reported %.17g",
                      fl_nsgs_types[k].name, n, e, res.residual);
            cr_assert_eq(s, e <= o.tol ? FL_OK : FL_WMAXITER, "%s max_sweeps %d", fl_nsgs_types[k].name, n);
            fl_newton_options no = fl_newton_options_default();
            no.max_iterations = n;
            no.tol = 1e-14;
            fl_newton_result nr;
            s = fl_newton_types[k].solve(p, &no, r, NULL, &nr, NULL);
            e = error_of(p, r);
            cr_assert(same(e, nr.residual), "%s max_iterations %d: error of r %.17g, reported %.17g",
                      fl_newton_types[k].name, n, e, nr.residual);
            cr_assert_eq(s, e <= no.tol ? FL_OK : FL_WMAXITER);
        }
    gsl_vector_free(r);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

/* A slow 3D problem for the auto tests (ill-conditioned M: slow sweeps; mu 0.8). */
static fl_local_problem *slow_problem(unsigned long seed)
{
    gsl_rng *rng = fl_rng_alloc(seed);
    size_t nc = 30, n = 3 * nc + 2;
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(n, nc, 3, 1, &g, NULL), FL_OK);
    cr_assert_eq(fl_random_spd(rng, 1e4, 1.0, g->M), FL_OK);
    cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, g->H), FL_OK);
    fl_random_vector(rng, 1.0, g->f);
    for (size_t a = 0; a < nc; a++) g->mu[a] = 0.8;
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
    fl_global_problem_free(g);
    gsl_rng_free(rng);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

static int record_cb(void *data, int sweep, double e, const gsl_vector *r)
{
    (void)r;
    double *es = data;
    if (sweep <= 2000) es[sweep] = e;
    return 0;
}

Test(auto_rule, hands_a_slow_gauss_seidel_to_newton_after_the_predicted_sweeps, .init = setup,
     .fini = teardown)
{
    /* drivers/solve.h: chunks of 20 sweeps; from the second chunk on, the
     * rate e_k / e_{k-1} over the last chunk must predict the tolerance
     * within 4 more chunks (3D), else Newton.  The errors at every sweep of
     * one continuous reference Gauss–Seidel run (the chunks are warm-started
     * continuations of it, natural order) give the sweep of the hand-over. */
    fl_local_problem *p = slow_problem(4242UL);
    const double tol = 1e-12;
    static double es[2001];
    gsl_vector *r = gsl_vector_alloc(p->m);
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = tol;
    o.max_sweeps = 2000;
    o.callback = record_cb;
    o.callback_data = es;
    fl_status s = fl_nsgs_solve(p, &o, r, NULL, NULL, NULL);
    cr_assert(s == FL_OK || s == FL_WMAXITER);
    int handover = 0;
    for (int k = 2; 20 * k <= 2000 && !handover; k++) {
        double e = es[20 * k], rate = e / es[20 * (k - 1)];
        if (e <= tol || es[20 * (k - 1)] <= tol) break;
        if (!(rate < 1) || log(tol / e) / log(rate) > 4.0) handover = 20 * k;
    }
    cr_assert_gt(handover, 0, "this problem should be handed over (the test needs a slow one)");
    fl_solve_options so = fl_solve_options_default();
    so.impl = FL_IMPL_REFERENCE;
    so.tol = tol;
    fl_solve_result sr;
    s = fl_solve_local(p, &so, r, NULL, &sr, NULL);
    cr_assert_gt(sr.newton_steps, 0, "no hand-over (status %d, %d sweeps)", s, sr.gs_sweeps);
    cr_assert_geq(sr.gs_sweeps, handover);
    /* the sweeps past the hand-over are Newton's fallbacks, gs_sweeps (20)
     * each: the hand-over itself happened at sweep `handover` */
    cr_assert_eq((sr.gs_sweeps - handover) % 20, 0, "%d sweeps, predicted hand-over at %d",
                 sr.gs_sweeps, handover);
    cr_log_info("auto handed over after %d sweeps (predicted %d), %d Newton steps",
                sr.gs_sweeps, handover, sr.newton_steps);
    gsl_vector_free(r);
    fl_local_problem_free(p);
}

/* Twin k's Gauss–Seidel from r (warm) or zero, `sweeps` sweeps; its error. */
static double gs_run(int k, const fl_local_problem *p, double tol, int warm, int sweeps,
                     gsl_vector *r)
{
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = tol;
    o.max_sweeps = sweeps;
    o.start = warm ? FL_NSGS_START_WARM : FL_NSGS_START_ZERO;
    fl_nsgs_result res;
    fl_status s = fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL);
    cr_assert_eq(s, FL_WMAXITER, "%s: %d sweeps reached tol", fl_nsgs_types[k].name, sweeps);
    cr_assert_eq(res.iterations, sweeps);
    return res.residual;
}

static double max_abs_diff(const gsl_vector *a, const gsl_vector *b)
{
    double d = 0;
    for (size_t i = 0; i < a->size; i++) d = fmax(d, fabs(gsl_vector_get(a, i) - gsl_vector_get(b, i)));
    return d;
}

Test(auto_rule, resumes_from_the_better_of_the_two_iterates, .init = setup, .fini = teardown)
{
    /* drivers/solve.h: when Newton (3D: from zero, at most max_newton
     * steps) stops short of tol, auto keeps the iterate of smaller error
     * among the Gauss–Seidel one at the hand-over and Newton's last one,
     * and resumes Gauss–Seidel from it for the sweeps left (none left: it
     * returns it).  With max_sweeps = 40 or 41 the chunks (20 sweeps) hand
     * over at sweep 40 (this problem's rate predicts no convergence within
     * 4 chunks: the test above); Newton is cut after j steps, j counted up
     * until its iterate has been once worse and once better than
     * Gauss–Seidel's (max_sweeps then adds Newton's fallback sweeps, which
     * auto counts in gs_sweeps).  Each
     * candidate is computed apart, by the twin's own Gauss–Seidel and
     * Newton: auto's r must be (a) the better one, no sweep left, (b) one
     * sweep from the better one (or the better one itself when that sweep
     * made the error larger: auto returns the best iterate it met), and
     * differ from the worse one's. */
    fl_local_problem *p = slow_problem(4242UL);
    const double tol = 1e-12;
    const int h = 40;
    gsl_vector *r = gsl_vector_alloc(p->m), *rg = gsl_vector_alloc(p->m),
               *rn = gsl_vector_alloc(p->m), *want = gsl_vector_alloc(p->m),
               *other = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++) {
        const char *twin = fl_impl_name((fl_impl)k);
        double eg = gs_run(k, p, tol, 0, h, rg);   /* Gauss–Seidel at the hand-over */
        int cases[2] = {0, 0};                     /* [0]: Newton worse, [1]: Newton better */
        for (int j = 1; j <= 60 && !(cases[0] && cases[1]); j++) {
            fl_newton_options no = fl_newton_options_default();
            no.tol = tol;
            no.max_iterations = j;
            fl_newton_result nr;
            if (fl_newton_types[k].solve(p, &no, rn, NULL, &nr, NULL) != FL_WMAXITER) break;
            double en = nr.residual;
            int better_newton = en < eg;
            if (cases[better_newton]) continue;
            int g = nr.gs_sweeps;   /* Newton's fallback sweeps: counted in auto's gs_sweeps */
            cases[better_newton] = 1;
            gsl_vector_memcpy(want, better_newton ? rn : rg);
            gsl_vector_memcpy(other, better_newton ? rg : rn);
            double scale = gsl_blas_dnrm2(want);
            fl_solve_options so = fl_solve_options_default();
            so.impl = (fl_impl)k;
            so.tol = tol;
            so.max_newton = j;
            so.max_ppa = 0;          /* the rule under test, without ppa's hand-over after it */
            so.max_sweeps = h + g;   /* (a) no sweep left after Newton */
            fl_solve_result sr;
            cr_assert_eq(fl_solve_local(p, &so, r, NULL, &sr, NULL), FL_WMAXITER);
            cr_assert_eq(sr.gs_sweeps, h + g, "%s: %d sweeps, want %d + %d", twin, sr.gs_sweeps, h, g);
            cr_assert_eq(sr.newton_steps, j);
            cr_assert_leq(max_abs_diff(r, want), 1e-12 * scale,
                          "%s, Newton %d steps (error %.3g) vs Gauss-Seidel %d sweeps (%.3g), no "
                          "sweep left: r is not the better iterate (off by %.3g; the worse: %.3g)",
                          twin, j, en, h, eg, max_abs_diff(r, want), max_abs_diff(r, other));
            cr_assert(same(sr.residual, fmin(en, eg)), "%s: reported %.17g, better %.17g", twin,
                      sr.residual, fmin(en, eg));
            cr_assert_eq(sr.finished_by, better_newton ? FL_SOLVER_NEWTON : FL_SOLVER_GS);
            so.max_sweeps = h + g + 1;   /* (b) one sweep left */
            cr_assert_eq(fl_solve_local(p, &so, r, NULL, &sr, NULL), FL_WMAXITER);
            cr_assert_eq(sr.gs_sweeps, h + g + 1);
            double eb = fmin(en, eg);
            gs_run(k, p, tol, 1, 1, other);
            double e1 = gs_run(k, p, tol, 1, 1, want);
            cr_assert_gt(max_abs_diff(want, other), 1e-6 * scale, "the two resumptions must differ");
            /* the resumed sweep's iterate, or the better one if that sweep
             * made it worse: auto returns the best iterate it met */
            if (!(e1 <= eb)) gsl_vector_memcpy(want, better_newton ? rn : rg);
            cr_assert_leq(max_abs_diff(r, want), 1e-12 * scale,
                          "%s, Newton %s: r is not the best of the better iterate and one sweep from it "
                          "(off by %.3g, from one sweep after the worse: %.3g)", twin,
                          better_newton ? "better" : "worse", max_abs_diff(r, want), max_abs_diff(r, other));
            cr_assert(same(sr.residual, fmin(e1, eb)), "%s: reported %.17g, want %.17g", twin, sr.residual,
                      fmin(e1, eb));
            cr_log_info("%s: Gauss-Seidel %d sweeps (error %.3g), Newton cut at %d steps (%.3g): "
                        "resumed from %s", twin, h, eg, j, en, better_newton ? "Newton" : "Gauss-Seidel");
        }
        cr_assert(cases[0] && cases[1], "%s: the test needs Newton once worse (%d) and once better "
                  "(%d) than Gauss-Seidel", twin, cases[0], cases[1]);
    }
    gsl_vector_free(r);
    gsl_vector_free(rg);
    gsl_vector_free(rn);
    gsl_vector_free(want);
    gsl_vector_free(other);
    fl_local_problem_free(p);
}

Test(auto_rule, hands_over_to_ppa_only_when_gauss_seidel_and_newton_both_stall, .init = setup,
     .fini = teardown)
{
    /* drivers/solve.h: Gauss–Seidel chunks, Newton, Gauss–Seidel for the
     * sweeps left, and only when that stops short too the proximal-point
     * method.  Counted: no ppa after a converged Newton; ppa when both
     * stall (max_newton = 1 and 7 sweeps left), after every sweep was
     * spent; exactly max_ppa = 1 outer iteration when asked.  (A last
     * Gauss–Seidel that finishes, with no ppa: cov_io_solve::auto_strategy_branches.) */
    fl_local_problem *p = slow_problem(4242UL);
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++) {
        fl_solve_options so = fl_solve_options_default();
        so.impl = (fl_impl)k;
        so.tol = 1e-10;
        fl_solve_result sr;
        fl_status s = fl_solve_local(p, &so, r, NULL, &sr, NULL);   /* Newton suffices */
        cr_assert_eq(s, FL_OK);
        cr_assert_gt(sr.newton_steps, 0, "impl %d: the problem must reach Newton", k);
        cr_assert_eq(sr.finished_by, FL_SOLVER_NEWTON, "impl %d finished by %d", k, sr.finished_by);
        cr_assert_eq(sr.ppa_outer, 0, "impl %d: ppa ran after a converged Newton", k);
        int sweeps_before = sr.gs_sweeps;

        so.max_newton = 1;                              /* Newton stalls, */
        so.max_sweeps = sweeps_before + 7;              /* and Gauss–Seidel: ppa */
        s = fl_solve_local(p, &so, r, NULL, &sr, NULL);
        cr_assert_eq(s, FL_OK, "impl %d status %d", k, s);
        cr_assert_eq(sr.finished_by, FL_SOLVER_PPA, "impl %d finished by %d", k, sr.finished_by);
        cr_assert_gt(sr.ppa_outer, 0);
        cr_assert_gt(sr.newton_steps, 1, "the proximal steps' inner Newton steps are counted");
        cr_assert_geq(sr.gs_sweeps, so.max_sweeps, "impl %d: ppa before the sweeps were spent", k);
        cr_assert_leq(sr.residual_norm_q, 1e-10);
        cr_log_info("impl %d: %d sweeps, 1 Newton step, then %d ppa outer iterations (%d "
                    "Newton steps in all)", k, sr.gs_sweeps, sr.ppa_outer, sr.newton_steps);

        so.max_ppa = 1;                                 /* exactly one outer iteration */
        s = fl_solve_local(p, &so, r, NULL, &sr, NULL);
        cr_assert_eq(sr.ppa_outer, 1, "impl %d: %d outer iterations", k, sr.ppa_outer);
        cr_assert(s == FL_OK || s == FL_WMAXITER, "impl %d status %d", k, s);
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
}

typedef struct trials {
    double t[100000];
    int n;
} trials;

static void trial_cb(void *data, double t)
{
    trials *tr = data;
    if (tr->n < 100000) tr->t[tr->n++] = t;
}

Test(line_search, newton_tries_exactly_one_half_one_quarter_and_so_on, .init = setup,
     .fini = teardown)
{
    /* newton.h (N5): t = 1, 1/2, 1/4, ..., at most ls_max halvings, each
     * step's search starting again at t = 1. */
    static trials tr;
    gsl_rng *rng = fl_rng_alloc(5151UL);
    fl_local_problem *p = random_local(rng, 20, 3);
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; k < 2; k++)
        for (int ls_max = 0; ls_max <= 6; ls_max += 3) {
            memset(&tr, 0, sizeof tr);
            fl_newton_options o = fl_newton_options_default();
            o.ls_max = ls_max;
            o.tol = 1e-12;
            o.gs_sweeps = 1;
            o.ls_trial = trial_cb;
            o.ls_trial_data = &tr;
            fl_newton_result res;
            fl_newton_types[k].solve(p, &o, r, NULL, &res, NULL);
            cr_assert_gt(tr.n, 0);
            int searches = 0, halvings = 0, halved = 0;
            for (int i = 0; i < tr.n; i++) {
                if (tr.t[i] == 1.0) {
                    searches++;
                    halvings = 0;
                    continue;
                }
                cr_assert(i > 0 && tr.t[i] == 0.5 * tr.t[i - 1], "%s trial %d: t = %.17g after %.17g",
                          fl_newton_types[k].name, i, tr.t[i], i ? tr.t[i - 1] : 0);
                cr_assert_leq(++halvings, ls_max, "%s: more than ls_max = %d halvings",
                              fl_newton_types[k].name, ls_max);
                halved = 1;
            }
            /* one search per step, none when J stays singular (a failed step) */
            cr_assert_leq(searches, res.iterations, "%s", fl_newton_types[k].name);
            cr_assert_geq(searches, res.iterations - res.line_search_failures, "%s",
                          fl_newton_types[k].name);
            if (ls_max == 6) cr_log_info("%s: %d trials, halvings seen %d", fl_newton_types[k].name, tr.n, halved);
        }
    gsl_vector_free(r);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}
