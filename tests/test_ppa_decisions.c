/* test_ppa_decisions.c — the decisions of the proximal-point twins
 * (reference/ppa.h, optimized/ppa_sparse.h; proofs/ppa.md) and of the
 * Newton stall test they use (reference/newton.h stall_steps), counted step
 * by step, not only the final answers (issue 28):
 *   - Newton's stall test stops at exactly the step the documented rule
 *     gives on the error trajectory, recomputed here from runs without it;
 *   - every outer iteration's weight follows (P3) from the previous one's
 *     outcome, recomputed here from what fl_ppa_options.on_outer reports;
 *   - a failed subproblem never makes the outer error worse (the iterate is
 *     kept unless its error decreased);
 *   - (P7): the polishing Newton runs on the original problem come exactly
 *     where the rule puts them, and leave the weight as it was;
 *   - (P5): a subproblem Newton does not solve goes to Gauss–Seidel on
 *     W + eta I, and counts as solved only when its error, recomputed here,
 *     is within the inner tolerance. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_random.h"
#include "fl_residual.h"
#include "drivers/fl_types.h"
#include "reference/delassus.h"
#include "twin_check.h"
#include "ppa_problems.h"

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
    fl_local_problem *p = random_local_rank(rng, 30, 3, 40, 1.5);   /* rank 40 on 90 rows */
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

/* What on_outer reported, step by step. */
typedef struct steps {
    int n;
    fl_ppa_step s[400];
} steps;

static void record(void *data, const fl_ppa_step *st)
{
    steps *S = data;
    if (S->n < 400) S->s[S->n++] = *st;
}

Test(ppa_rule, every_weight_follows_from_the_previous_outcome, .init = setup, .fini = teardown)
{
    /* (P3): after a solved subproblem eta' = min(s_W sigma e'^nu, eta / shrink);
     * after an unsolved one eta' = fail_factor eta (at most 1e12 s_W), and the
     * outer error does not grow (r^k kept unless the new iterate is better).
     * (P7): outer iteration k is a polishing Newton run (eta = 0) exactly when
     * polish_after iterations passed since the last halving of the error, the
     * start or the last polish; it leaves the weight as it was.  Few Newton
     * steps per subproblem, so that every outcome occurs. */
    gsl_rng *rng = fl_test_rng(2831);
    fl_local_problem *p = random_local_rank(rng, 30, 3, 40, 1.5);
    double tr = 0;
    for (size_t i = 0; i < p->m; i++) tr += gsl_matrix_get(p->W, i, i);
    const double s_W = tr / (double)p->m;
    gsl_vector *r = gsl_vector_alloc(p->m);
    for (int k = 0; fl_ppa_types[k].name; k++) {
        const char *name = fl_ppa_types[k].name;
        static steps S;
        memset(&S, 0, sizeof S);
        fl_ppa_options o = fl_ppa_options_default();
        o.tol = 1e-10;
        o.max_outer = 200;
        o.inner_max_iterations = 2;
        o.inner_gs_sweeps = 0;   /* Newton alone decides (the takeover: below) */
        o.polish_after = 3;
        o.polish_steps = 1;
        o.on_outer = record;
        o.on_outer_data = &S;
        fl_ppa_result res;
        fl_status s = fl_ppa_types[k].solve(p, &o, r, NULL, &res, NULL);
        cr_assert(s == FL_OK || s == FL_WMAXITER, "%s: status %d", name, s);
        cr_assert_eq(S.n, res.outer, "%s: %d reports for %d outer iterations", name, S.n,
                     res.outer);
        int solved = 0, failed = 0, polished = 0, k_ref = 0;
        double pending = S.s[0].eta, e_ref = S.s[0].e_before;
        for (int i = 0; i < S.n; i++) {
            const fl_ppa_step *a = &S.s[i];
            cr_assert_eq(a->k, i);
            if (i > 0) cr_assert_eq(a->e_before, S.s[i - 1].e_after, "%s: step %d", name, i);
            int pol = i - k_ref >= o.polish_after;   /* (P7), rewritten here */
            cr_assert_eq(a->eta == 0.0, pol, "%s: step %d: eta %g, the rule says %s", name, i,
                         a->eta, pol ? "polish" : "a subproblem");
            if (!a->solved || pol)
                cr_assert_leq(a->e_after, a->e_before, "%s: step %d raised the error from "
                              "%.17g to %.17g", name, i, a->e_before, a->e_after);
            if (pol) {
                polished++;
                k_ref = i + 1;
            } else {
                cr_assert_leq(fabs(a->eta - pending), 1e-12 * pending, "%s: step %d: eta %.17g, "
                              "(P3) gives %.17g", name, i, a->eta, pending);
                cr_assert_leq(a->inner_steps, o.inner_max_iterations, "%s: step %d", name, i);
                if (a->solved) {
                    pending = fmin(s_W * o.sigma * pow(a->e_after, o.nu), a->eta / o.shrink);
                    solved++;
                } else {
                    pending = fmin(o.fail_factor * a->eta, 1e12 * s_W);
                    failed++;
                }
            }
            if (a->e_after < 0.5 * e_ref) {
                e_ref = a->e_after;
                k_ref = i + 1;
            }
        }
        cr_assert(solved > 1 && failed > 1 && polished > 0, "%s: %d solved, %d failed, %d "
                  "polishing: every outcome needed", name, solved, failed, polished);
        cr_assert_eq(res.polishes, polished, "%s", name);
        cr_log_info("%s: %d outer iterations: %d solved, %d failed, %d polishing; error %.3g",
                    name, S.n, solved, failed, polished, res.residual);
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

Test(ppa_rule, gauss_seidel_takes_over_a_subproblem_newton_left_unsolved, .init = setup,
     .fini = teardown)
{
    /* One Newton step cannot reach tol_in here: without the fallback the first
     * subproblem fails; with it Gauss–Seidel on W + eta I finishes it, and its
     * answer solves (P1) to tol_in, recomputed here. */
    gsl_rng *rng = fl_test_rng(2832);
    fl_local_problem *p = random_local_rank(rng, 30, 3, 40, 1.0);   /* rank 40 on 90 rows */
    gsl_vector *r = gsl_vector_alloc(p->m), *r0 = gsl_vector_calloc(p->m);
    for (int k = 0; fl_ppa_types[k].name; k++) {
        const char *name = fl_ppa_types[k].name;
        for (int gs = 0; gs <= 1; gs++) {
            static steps S;
            memset(&S, 0, sizeof S);
            fl_ppa_options o = fl_ppa_options_default();
            o.max_outer = 1;
            o.inner_max_iterations = 1;
            o.inner_stall_steps = 0;
            o.inner_gs_sweeps = gs ? 5000 : 0;
            o.polish_after = 0;
            o.sigma = 0.05;   /* a small first weight: one Newton step is not enough */
            o.on_outer = record;
            o.on_outer_data = &S;
            fl_ppa_result res;
            fl_ppa_types[k].solve(p, &o, r, NULL, &res, NULL);
            cr_assert_eq(S.n, 1, "%s", name);
            cr_assert_eq(S.s[0].inner_steps, 1, "%s", name);
            double ereg = regularised_error(p, r, r0, S.s[0].eta);
            if (!gs) {
                cr_assert(!S.s[0].solved && !S.s[0].gs_solved && S.s[0].inner_sweeps == 0,
                          "%s: one Newton step solved the subproblem: the test would not test",
                          name);
                continue;
            }
            cr_assert(S.s[0].solved && S.s[0].gs_solved, "%s: Gauss-Seidel did not solve it",
                      name);
            cr_assert_gt(S.s[0].inner_sweeps, 0, "%s", name);
            cr_assert_eq(res.gs_sweeps, S.s[0].inner_sweeps, "%s", name);
            cr_assert_leq(ereg, S.s[0].tol_in, "%s: subproblem error %.3g above tol_in %.3g",
                          name, ereg, S.s[0].tol_in);
            cr_log_info("%s: Gauss-Seidel %d sweeps, subproblem error %.3g <= %.3g", name,
                        S.s[0].inner_sweeps, ereg, S.s[0].tol_in);
        }
    }
    gsl_vector_free(r);
    gsl_vector_free(r0);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

Test(newton_stall, bad_stall_options_refused_alike_by_both_newton_twins, .init = setup,
     .fini = teardown)
{
    const double w[3] = {1, 1, 1}, q[3] = {-1, 0.2, 0.1};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    gsl_vector *r = gsl_vector_calloc(3);
    for (int c = 0; c < 3; c++) {
        fl_newton_options o = fl_newton_options_default();
        if (c == 0) o.stall_steps = -1;
        else if (c == 1) o.stall_ratio = 1.0;
        else o.stall_ratio = NAN;
        fl_status s[2];
        fl_error err[2];
        for (int k = 0; k < 2; k++) s[k] = fl_newton_types[k].solve(p, &o, r, NULL, NULL, &err[k]);
        TWIN_SAME(s, err, FL_EINVAL, c ? "stall_ratio" : "stall_steps");
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
}
