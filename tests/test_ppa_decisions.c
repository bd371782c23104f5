/* test_ppa_decisions.c — the decisions of the proximal-point twins
 * (reference/ppa.h, optimized/ppa_sparse.h; proofs/ppa.md) and of the
 * Newton stall test they use (reference/newton.h stall_steps), counted step
 * by step, not only the final answers (issue 28):
 *   - Newton's stall test stops at exactly the step the documented rule
 *     gives on the error trajectory, recomputed here from runs without it;
 *   - every outer iteration's weight follows (P3) from the previous one's
 *     outcome, recomputed here from what fl_ppa_options.on_outer reports;
 *   - a failed subproblem never makes the outer error worse (the iterate is
 *     kept unless its error decreased). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_random.h"
#include "fl_residual.h"
#include "drivers/fl_types.h"
#include "reference/delassus.h"
#include "twin_check.h"

/* W = H M^-1 H^T with n body velocities (rank n when n < dim nc), every
 * mu = mu_all (dense and sparse forms). */
static fl_local_problem *random_local(gsl_rng *rng, size_t nc, int dim, size_t n, double mu_all)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(n, nc, dim, 1, &g, NULL), FL_OK);
    cr_assert_eq(fl_random_spd(rng, 100.0, 1.0, g->M), FL_OK);
    gsl_vector_view h = gsl_vector_view_array(g->H->data, g->H->size1 * n);
    fl_random_vector(rng, 1.0, &h.vector);
    fl_random_vector(rng, 1.0, g->f);
    for (size_t a = 0; a < nc; a++) g->mu[a] = mu_all;
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
    fl_global_problem_free(g);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

/* The rule of newton.h, written again: the first step it at which
 * it - it_ref >= K without e_it < ratio e_ref (e_ref moving on every such
 * fall); -1 when none up to N. */
static int predicted_stall(const double *e, int N, int K, double ratio, double tol)
{
    double eref = e[0];
    int itref = 0;
    for (int it = 1; it <= N; it++) {
        if (e[it] <= tol) return -1;
        if (e[it] < ratio * eref) {
            eref = e[it];
            itref = it;
        } else if (it - itref >= K) {
            return it;
        }
    }
    return -1;
}

Test(newton_stall, stops_at_the_step_the_rule_gives_on_the_error_trajectory, .init = setup,
     .fini = teardown)
{
    gsl_rng *rng = fl_test_rng(2828);
    fl_local_problem *p = random_local(rng, 30, 3, 40, 1.5);   /* rank 40 on 90 rows */
    enum { N = 40 };
    const int K = 4;
    const double ratio = 0.5;   /* on this trajectory the reference moves twice first */
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; fl_newton_types[k].name; k++) {
        const char *name = fl_newton_types[k].name;
        double e[N + 1];
        gsl_vector_set_zero(r);
        cr_assert_eq(fl_residual_local(p, r, NULL, FL_RESIDUAL_NORM_Q, &e[0], NULL), FL_OK);
        fl_newton_options o = fl_newton_options_default();
        o.tol = 1e-14;
        int n = 0;   /* the trajectory without the test, to convergence or N steps */
        for (int j = 1; j <= N && n == j - 1; j++) {
            o.max_iterations = j;
            fl_newton_result res;
            fl_newton_types[k].solve(p, &o, r, NULL, &res, NULL);
            if (res.iterations == j) e[n = j] = res.residual;
        }
        int stop = predicted_stall(e, n, K, ratio, o.tol);
        cr_assert_gt(stop, 0, "%s: no stall on this trajectory: the test would not test", name);
        o.max_iterations = N;
        o.stall_steps = K;
        o.stall_ratio = ratio;
        fl_newton_result res;
        fl_status s = fl_newton_types[k].solve(p, &o, r, NULL, &res, NULL);
        cr_assert_eq(s, FL_WMAXITER, "%s: status %d", name, s);
        cr_assert_eq(res.stop, FL_NEWTON_STOP_STALLED, "%s: stop %d", name, res.stop);
        cr_assert_eq(res.iterations, stop, "%s: stopped after %d steps, the rule says %d", name,
                     res.iterations, stop);
        cr_assert_eq(res.residual, e[stop], "%s: error %.17g, step %d of the trajectory %.17g",
                     name, res.residual, stop, e[stop]);
        cr_log_info("%s: stalled at step %d (e %.3g, start %.3g)", name, stop, e[stop], e[0]);
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}
