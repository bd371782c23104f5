/* newton_checks.c — `frictionlab crosscheck --law newton`: the semismooth
 * Newton method on the Alart–Curnier function (Alart & Curnier 1991;
 * reference/newton.c, optimized/newton_sparse.c) and the Gauss–Seidel twins
 * (003 §3; reference/nsgs.c, optimized/nsgs_sparse.c) on random systems
 * (fl_global_problem_random; proofs/README.md, random systems), checked on what they must
 * share, not iterate by iterate:
 *   - at convergence the natural-map error recomputed from r alone
 *     (core/fl_residual.h, U = W r + q) is <= tol;
 *   - Coulomb's law and Signorini complementarity (fl_coulomb_violation,
 *     problem-scaled) hold to 1e-7;
 *   - on 2D systems with a unique isolated enumerated solution
 *     (reference/enumerate.c, an independent oracle) every converged answer
 *     is that solution;
 *   - global problems solved without W (Newton on (v, r), both twins) give
 *     M v = f + H^T r and Coulomb's law at U = H v + w;
 *   - the reference and the optimized twin accept and refuse the same
 *     inputs (negative mu, NaN in q, bad options) with the same status.
 * A checks/ task (checks/fl_tasks.h), registered in cli/registry.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "checks/fl_check.h"
#include "checks/fl_tasks.h"
#include "checks/newton_checks.h"

#include "fl_residual.h"
#include "fl_rng.h"
#include "optimized/newton_sparse.h"
#include "reference/enumerate.h"
#include "reference/newton.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "drivers/fl_types.h"
#include "optimized/nsgs_sparse.h"

enum { NSOLV = FL_NEWTON_XSOLVERS };   /* ref GS, opt GS, ref Newton, opt Newton */
static const char *solv_name[NSOLV] = {"gs_reference", "gs_optimized", "newton_reference",
                                       "newton_optimized"};

typedef fl_newton_xstats newton_stats;

static double violation(const fl_local_problem *p, const gsl_vector *r, const gsl_vector *U)
{
    double us = fmax(gsl_blas_dnrm2(p->q), 1e-300), wmax = 0;
    for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
    return fl_coulomb_violation(p->dim, p->nc, p->mu, r->data, U->data, us / wmax, us);
}

static fl_status run_solver(int k, const fl_local_problem *p, double tol, gsl_vector *r)
{
    if (k < 2) {
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = tol;
        o.max_sweeps = 20000;
        return fl_nsgs_types[k].solve(p, &o, r, NULL, NULL, NULL);
    }
    fl_newton_options o = fl_newton_options_default();
    o.tol = tol;
    return fl_newton_types[k - 2].solve(p, &o, r, NULL, NULL, NULL);
}

/* Same accept/refuse for both Newton twins on one corrupted copy. */
static void refuse_case(const fl_local_problem *p, const fl_newton_options *o, newton_stats *st)
{
    gsl_vector *r0 = gsl_vector_calloc(p->m), *r1 = gsl_vector_calloc(p->m);
    if (!r0 || !r1) {   /* out of memory: an error, not a comparison */
        st->errors++;
        if (r0) gsl_vector_free(r0);
        if (r1) gsl_vector_free(r1);
        return;
    }
    fl_status a = fl_newton_types[FL_IMPL_REFERENCE].solve(p, o, r0, NULL, NULL, NULL);
    fl_status b = fl_newton_types[FL_IMPL_OPTIMIZED].solve(p, o, r1, NULL, NULL, NULL);
    st->refuse_cases++;
    if ((a < 0) != (b < 0) || (a < 0 && a != b)) st->refuse_mismatch++;
    gsl_vector_free(r0);
    gsl_vector_free(r1);
}

static void one_system(unsigned long seed, fl_sparse_ctx *ctx, newton_stats *st)
{
    gsl_rng *rng = fl_rng_alloc(seed);
    int dim = 2 + (int)(seed % 2);
    size_t nc = 1 + gsl_rng_uniform_int(rng, dim == 2 ? 5 : 6);
    size_t n = (size_t)dim * nc + 2;
    const double tol = 1e-12;
    fl_global_problem *g = NULL;
    fl_local_problem *p = NULL;
    st->systems++;
    if (fl_global_problem_random(rng, n, nc, dim, 0.1, 1.0, &g, NULL) != FL_OK ||
        fl_delassus_dense(g, NULL, NULL, &p, NULL) != FL_OK) {
        st->errors++;
        goto out;
    }
    p->ctx = ctx;
    if (fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, NULL) != FL_OK) {
        st->errors++;
        goto out;
    }
    gsl_vector *r[NSOLV] = {NULL}, *U = gsl_vector_alloc(p->m);
    fl_status s[NSOLV];
    int have = U != NULL;
    for (int k = 0; k < NSOLV; k++) have &= (r[k] = gsl_vector_calloc(p->m)) != NULL;
    if (!have) {   /* out of memory */
        st->errors++;
        goto vectors;
    }
    for (int k = 0; k < NSOLV; k++) {
        s[k] = run_solver(k, p, tol, r[k]);
        if (s[k] < 0) st->errors++;
        if (s[k] == FL_OK) {
            double e = INFINITY;
            st->converged[k]++;
            fl_residual_local(p, r[k], U, FL_RESIDUAL_NORM_Q, &e, NULL);
            st->err_max[k] = fmax(st->err_max[k], e);
            st->viol[k] = fmax(st->viol[k], violation(p, r[k], U));
        }
    }
    if (dim == 2) {
        fl_enumerate_result *e = NULL;
        if (fl_enumerate_solutions(p, 1e-10, &e, NULL) == FL_OK && e->nsol == 1 &&
            e->singular == 0) {
            st->unique++;
            for (int k = 0; k < NSOLV; k++) {
                if (s[k] != FL_OK) continue;
                double d = 0, nr = 0;
                for (size_t i = 0; i < p->m; i++) {
                    d = fmax(d, fabs(r[k]->data[i] - e->sol[i]));
                    nr = fmax(nr, fabs(e->sol[i]));
                }
                st->unique_dist = fmax(st->unique_dist, d / (1 + nr));
                if (d > 1e-6 * (1 + nr)) st->unique_off++;
            }
        }
        fl_enumerate_result_free(e);
    }
    /* global problem without W, both twins */
    g->ctx = ctx;
    if (fl_sparse_from_dense(ctx, g->M, 1, 0.0, &g->Ms, NULL) == FL_OK &&
        fl_sparse_from_dense(ctx, g->H, 0, 0.0, &g->Hs, NULL) == FL_OK) {
        st->global_runs++;
        for (int k = 0; k < 2; k++) {
            fl_newton_options o = fl_newton_options_default();
            o.tol = tol;
            gsl_vector *v = gsl_vector_alloc(n), *rg = gsl_vector_calloc(p->m),
                       *Ug = gsl_vector_alloc(p->m), *res = gsl_vector_alloc(n);
            fl_status sg = !v || !rg || !Ug || !res ? FL_ENOMEM
                           : fl_newton_types[k].global_solve(g, &o, v, rg, Ug, NULL, NULL);
            if (sg < 0) st->errors++;
            if (sg == FL_OK) {
                st->global_conv[k]++;
                /* M v - f - H^T r, relative to |f| + |H^T r| */
                gsl_vector_memcpy(res, g->f);
                gsl_blas_dgemv(CblasTrans, 1.0, g->H, rg, 1.0, res);
                double scale = gsl_blas_dnrm2(res) + 1e-300;
                gsl_blas_dgemv(CblasNoTrans, 1.0, g->M, v, -1.0, res);
                st->global_eq[k] = fmax(st->global_eq[k], gsl_blas_dnrm2(res) / scale);
                st->global_viol[k] = fmax(st->global_viol[k], violation(p, rg, Ug));
            }
            if (v) gsl_vector_free(v);
            if (rg) gsl_vector_free(rg);
            if (Ug) gsl_vector_free(Ug);
            if (res) gsl_vector_free(res);
        }
    }
    /* accept/refuse: negative mu, NaN in q, bad tolerance */
    {
        fl_newton_options o = fl_newton_options_default();
        double mu0 = p->mu[0];
        p->mu[0] = -0.1;
        refuse_case(p, &o, st);
        p->mu[0] = mu0;
        double q0 = gsl_vector_get(p->q, 0);
        gsl_vector_set(p->q, 0, NAN);
        refuse_case(p, &o, st);
        gsl_vector_set(p->q, 0, q0);
        o.tol = 0;
        refuse_case(p, &o, st);
        o = fl_newton_options_default();
        o.ls_sigma = 0.7;
        refuse_case(p, &o, st);
        o = fl_newton_options_default();
        refuse_case(p, &o, st);   /* a valid input: both accept */
    }
vectors:
    for (int k = 0; k < NSOLV; k++)
        if (r[k]) gsl_vector_free(r[k]);
    if (U) gsl_vector_free(U);
out:
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    gsl_rng_free(rng);
}

/* The PASS/FAIL lines of the crosscheck from its statistics
 * (checks/newton_checks.h). */
void fl_newton_crosscheck_report(fl_check_ctx *ctx, const newton_stats *st, long N)
{
    fl_check_value(ctx, st->errors == 0 && st->systems == N, "newton.no_errors",
                   (double)st->errors, 0.0, 0.0, "error statuses (none allowed)",
                   "%ld of %ld systems ran without an error status (seed %lu)",
                   st->systems - st->errors, N, ctx->seed);
    for (int k = 0; k < NSOLV; k++) {
        char name[64];
        long need = k >= 2 ? (99 * N) / 100 : (95 * N) / 100;
        snprintf(name, sizeof name, "newton.%s_converges_and_obeys_the_law", solv_name[k]);
        fl_check_value(ctx, st->converged[k] >= need && st->err_max[k] <= 1e-12 &&
                                st->viol[k] <= 1e-7,
                       name, st->err_max[k], 0.0, 1e-12,
                       "natural-map error recomputed from r (core/fl_residual.h)",
                       "%ld of %ld converged (need %ld); recomputed natural-map error <= %.3g "
                       "(tol 1e-12); Coulomb/Signorini violation %.3g (tol 1e-7, "
                       "problem-scaled)", st->converged[k], N, need, st->err_max[k], st->viol[k]);
    }
    fl_check_value(ctx, N < 4 || (st->unique > 0 && st->unique_off == 0),
                   "newton.unique_2d_matches_enumeration", st->unique_dist, 0.0, 1e-6,
                   "exhaustive enumeration (reference/enumerate.c)",
                   "%ld converged answers off the unique enumerated solution on %ld 2D systems "
                   "(max distance %.3g relative, tol 1e-6)", st->unique_off, st->unique,
                   st->unique_dist);
    for (int k = 0; k < 2; k++)
        fl_check_value(ctx, st->global_conv[k] >= (99 * st->global_runs) / 100 &&
                                st->global_runs > 0 && st->global_eq[k] <= 1e-9 &&
                                st->global_viol[k] <= 1e-7,
                       k ? "newton.global_optimized_without_W" : "newton.global_reference_without_W",
                       st->global_eq[k], 0.0, 1e-9, "M v = f + H^T r (proofs/newton.md (N4))",
                       "%ld of %ld global problems converged (need 99%%); |M v - f - H^T r| "
                       "relative %.3g (tol 1e-9); Coulomb violation at U = H v + w %.3g "
                       "(tol 1e-7)", st->global_conv[k], st->global_runs, st->global_eq[k],
                       st->global_viol[k]);
    fl_check_value(ctx, st->refuse_cases > 0 && st->refuse_mismatch == 0, "newton.same_accept_refuse",
                   (double)st->refuse_mismatch, 0.0, 0.0, "the twins refuse the same inputs",
                   "%ld of %ld inputs (negative mu, NaN in q, tol 0, ls_sigma 0.7, valid) accepted "
                   "or refused differently by the two twins", st->refuse_mismatch,
                   st->refuse_cases);
}

/* crosscheck --law newton: the checks above on ctx->systems random systems. */
int fl_newton_crosscheck(fl_check_ctx *ctx)
{
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL) != FL_OK) return -1;
    newton_stats st;
    memset(&st, 0, sizeof st);
    long N = ctx->systems;
    for (long i = 0; i < N; i++) {
        one_system(ctx->seed * 1000003UL + (unsigned long)i, &sctx, &st);
        fl_check_progress(ctx, "newton systems", i + 1, N);
    }
    fl_sparse_finish(&sctx);
    fl_newton_crosscheck_report(ctx, &st, N);
    return 0;
}
