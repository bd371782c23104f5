/* nsgs_checks.c — `frictionlab crosscheck --law nsgs` and `frictionlab
 * reproduce wedged_rod`: the Contact Dynamics core problem (003 §3) solved
 * by nonlinear Gauss–Seidel in both implementations on random systems
 * (Coulomb conditions, agreement, 004 Lemma 2.4 and the impact rule,
 * clouds against the enumerated solution set, sparse vs dense Delassus),
 * and the rod wedged between two converging walls (003 §2, data/003/).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "checks/nsgs_checks.h"
#include "fl_dense.h"
#include "fl_rng.h"
#include "reference/enumerate.h"
#include "drivers/plurality_explore.h"
#include "checks/fl_tasks.h"
#include "optimized/delassus_sparse.h"
#include "reference/delassus.h"
#include "drivers/fl_types.h"
#include "optimized/nsgs_sparse.h"
#include "fl_scalar.h"
#include "models/fl_model_wedged_rod.h"

/* ------------------------------------------------------------------ */
/* crosscheck --law nsgs                                               */
/* ------------------------------------------------------------------ */



static double violation_scaled(const fl_local_problem *p, const gsl_vector *r,
                               const gsl_vector *U)
{
    double us = fmax(gsl_blas_dnrm2(p->q), 1e-300), wmax = 0;
    for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
    return fl_coulomb_violation(p->dim, p->nc, p->mu, r->data, U->data, us / wmax, us);
}

/* Clouds of 003 §3 (random orderings from zero with the reference, random
 * starts with the optimized twin; `runs` runs each) against the
 * enumerated solution set e of p. */
void fl_nsgs_check_clouds(const fl_local_problem *p, const fl_enumerate_result *e, gsl_rng *rng, size_t runs,
                          unsigned char seen[64], fl_nsgs_stats *st)
{
    for (int mode = 0; mode < 2; mode++) {
        fl_plurality_options po = fl_plurality_options_default();
        po.mode = mode ? FL_PLURALITY_RANDOM_START : FL_PLURALITY_RANDOM_ORDER;
        po.impl = mode ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
        po.runs = runs;
        po.nsgs.rng = rng;
        po.nsgs.tol = 1e-12;
        po.nsgs.max_sweeps = 3000;
        po.nsgs.random_scale = 3.0;
        fl_cloud *c = NULL;
        if (fl_plurality_explore(p, &po, &c, NULL, NULL) == FL_OK) {
            for (size_t k = 0; k < c->npts; k++) {
                long idx = fl_enumerate_find(e, c->pts + k * p->m, 1e-6);
                st->cloud_dots++;
                if (idx < 0) st->cloud_outside++;
                else if (idx < 64) seen[idx] = 1;
            }
            if (e->nsol == 1 && c->ndistinct > 1) st->unique_spread++;
        } else {
            st->errors++;
        }
        fl_cloud_free(c);
    }
}

/* 004 Lemma 2.4 and (19)-(20) on the pure impact f = M u- of g (g->f is
 * overwritten) with dissipation index delta, both implementations. */
void fl_nsgs_check_impact(fl_global_problem *g, const gsl_vector *um, double delta, fl_nsgs_stats *st)
{
    size_t n = g->n;
    gsl_vector *up = fl_dense_vector_alloc(n), *s = fl_dense_vector_alloc(g->m),
               *ua = fl_dense_vector_alloc(n), *Ua = fl_dense_vector_alloc(g->m);
    if (!up || !s || !ua || !Ua) {   /* no workspace: an error of this system */
        st->errors++;
        goto done;
    }
    gsl_blas_dgemv(CblasNoTrans, 1.0, g->M, um, 0.0, g->f);
    for (int k = 0; k < 2; k++) {
        fl_moreau_jean_options mo = fl_moreau_jean_options_default();
        mo.delta = delta;
        mo.impl = k ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
        mo.nsgs.tol = 1e-13;
        mo.nsgs.max_sweeps = 20000;
        fl_moreau_jean_result mr;
        cholmod_factor *L = NULL;
        fl_status s2 = fl_moreau_jean_step(g, um, &mo, &L, s, up, &mr, NULL);
        if (g->ctx) fl_sparse_free_factor(g->ctx, &L);
        if (s2 < 0) st->errors++;
        if (s2 != FL_OK) continue;
        st->lemma_n++;
        st->lemma_err = fmax(st->lemma_err, fabs(mr.dT - mr.dT_lemma) / (mr.T_minus + 1e-3));
        st->dT_max = fmax(st->dT_max, mr.dT / (mr.T_minus + 1e-3));
        /* scales: |H u-| and |U^a| (velocities), |s| (impulses) */
        gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, um, 0.0, Ua);
        double us = 1e-3 + gsl_blas_dnrm2(Ua), rs = 1e-3 + gsl_blas_dnrm2(s);
        gsl_vector_memcpy(ua, um);
        gsl_vector_scale(ua, 0.5 * (1 - delta));
        gsl_blas_daxpy(0.5 * (1 + delta), up, ua);
        gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, ua, 0.0, Ua);   /* U^a, 004 (20) */
        us = fmax(us, 1e-3 + gsl_blas_dnrm2(Ua));
        st->impact_viol = fmax(st->impact_viol, fl_coulomb_violation(g->dim, g->nc, g->mu, s->data, Ua->data, rs, us));
    }
done:
    gsl_vector_free(up);
    gsl_vector_free(s);
    gsl_vector_free(ua);
    gsl_vector_free(Ua);
}

/* One random system (seed-determined): every check, both implementations. */
int fl_nsgs_check_system(unsigned long seed, fl_sparse_ctx *ctx, fl_nsgs_stats *st)
{
    gsl_rng *rng = fl_rng_alloc(seed);
    if (!rng) {
        st->errors++;
        return -1;
    }
    int dim = 2 + (int)(seed % 2);
    size_t nc = 1 + gsl_rng_uniform_int(rng, 4);
    size_t n = dim * nc + gsl_rng_uniform_int(rng, 3);
    double mu_hi = gsl_rng_uniform(rng) < 0.5 ? 1.0 : 10.0;
    fl_global_problem *g = NULL;
    fl_local_problem *p = NULL;
    gsl_vector *r[2] = {NULL, NULL}, *U[2] = {NULL, NULL};
    int rc = 0;
    if (fl_global_problem_random(rng, n, nc, dim, 0.01, mu_hi, &g, NULL) != FL_OK ||
        fl_delassus_dense(g, NULL, NULL, &p, NULL) != FL_OK) {
        st->errors++;
        rc = -1;
        goto done;
    }
    g->ctx = ctx;
    p->ctx = ctx;
    if (fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, NULL) != FL_OK) {
        st->errors++;
        rc = -1;
        goto done;
    }
    /* Delassus: CHOLMOD (both methods) against the dense reference */
    for (int meth = 0; meth < 2; meth++) {
        fl_local_problem *ps = NULL;
        cholmod_factor *L = NULL;
        gsl_matrix *Wd = NULL;
        double wmax = gsl_matrix_max(p->W), diff = INFINITY;
        fl_delassus_options dopt = fl_delassus_options_default();
        dopt.sparse.method = meth ? FL_DELASSUS_TRAILING : FL_DELASSUS_SOLVES;
        if (fl_delassus_types[FL_IMPL_OPTIMIZED].delassus(g, &dopt, &L, &ps, NULL) == FL_OK &&
            fl_sparse_to_dense(ctx, ps->Ws, &Wd, NULL) == FL_OK) {
            diff = 0;
            for (size_t i = 0; i < p->m; i++) {
                diff = fmax(diff, fabs(gsl_vector_get(ps->q, i) - gsl_vector_get(p->q, i)) /
                                      (1 + gsl_blas_dnrm2(p->q)));
                for (size_t j = 0; j < p->m; j++)
                    diff = fmax(diff, fabs(gsl_matrix_get(Wd, i, j) - gsl_matrix_get(p->W, i, j)) /
                                          wmax);
            }
        }
        if (Wd) gsl_matrix_free(Wd);
        fl_sparse_free_factor(ctx, &L);
        fl_local_problem_free(ps);
        if (meth) st->delassus_trailing = fmax(st->delassus_trailing, diff);
        else st->delassus_solves = fmax(st->delassus_solves, diff);
    }
    /* NSGS, both implementations, natural order, zero start */
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = 1e-12;
    o.max_sweeps = 5000;
    fl_nsgs_result res[2];
    for (int k = 0; k < 2; k++) {
        r[k] = fl_dense_vector_alloc(p->m);
        U[k] = fl_dense_vector_alloc(p->m);
        if (!r[k] || !U[k]) {
            st->errors++;
            rc = -1;
            goto done;
        }
        fl_status s = fl_nsgs_types[k].solve(p, &o, r[k], U[k], &res[k], NULL);
        if (s < 0) st->errors++;
        if (s == FL_OK) {
            st->converged[k]++;
            st->viol[k] = fmax(st->viol[k], violation_scaled(p, r[k], U[k]));
        }
    }
    if (dim == 2) {
        fl_enumerate_result *e = NULL;
        if (fl_enumerate_solutions(p, 1e-10, &e, NULL) == FL_OK) {
            if (e->nsol == 1 && e->singular == 0 && res[0].status == FL_OK &&
                res[1].status == FL_OK) {
                double d0 = 0, nr = gsl_blas_dnrm2(r[0]);
                for (size_t i = 0; i < p->m; i++)
                    d0 = fmax(d0, fabs(gsl_vector_get(r[0], i) - gsl_vector_get(r[1], i)));
                st->unique++;
                st->unique_diff = fmax(st->unique_diff, d0 / (1 + nr));
                if (fl_enumerate_find(e, r[0]->data, 1e-6) < 0) st->unique_disagree++;
            }
            /* clouds (random orderings from zero, random starts) against enumeration */
            unsigned char seen[64] = {0};
            fl_nsgs_check_clouds(p, e, rng, 8, seen, st);
            /* every enumerated solution: a fixed point of a warm-started sweep */
            for (size_t k = 0; k < e->nsol; k++) {
                st->enum_solutions++;
                if (k < 64 && seen[k]) st->enum_reached++;
                fl_nsgs_options wo = fl_nsgs_options_default();
                wo.start = FL_NSGS_START_WARM;
                wo.max_sweeps = 1;
                memcpy(r[1]->data, e->sol + k * p->m, p->m * sizeof(double));
                fl_nsgs_solve(p, &wo, r[1], NULL, NULL, NULL);
                if (fl_enumerate_find(e, r[1]->data, 1e-7) != (long)k) st->fixed_fail++;
            }
            fl_enumerate_result_free(e);
        }
    }
    /* 004 Lemma 2.4: pure impact (f = M u-) with a random dissipation index */
    {
        gsl_vector *um = fl_dense_vector_alloc(n);
        if (!um) {
            st->errors++;
            rc = -1;
            goto done;
        }
        for (size_t i = 0; i < n; i++) gsl_vector_set(um, i, gsl_ran_gaussian(rng, 1.0));
        fl_nsgs_check_impact(g, um, gsl_rng_uniform(rng), st);
        gsl_vector_free(um);
    }
    st->systems++;
done:
    for (int k = 0; k < 2; k++) {
        if (r[k]) gsl_vector_free(r[k]);
        if (U[k]) gsl_vector_free(U[k]);
    }
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    gsl_rng_free(rng);
    return rc;
}

int fl_nsgs_crosscheck(fl_check_ctx *ctx)
{
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL) != FL_OK) return -1;
    fl_nsgs_stats st;
    memset(&st, 0, sizeof st);
    long N = ctx->systems;
    for (long i = 0; i < N; i++) {
        fl_nsgs_check_system(ctx->seed * 1000003UL + (unsigned long)i, &sctx, &st);
        fl_check_progress(ctx, "nsgs systems", i + 1, N);
    }
    fl_sparse_finish(&sctx);
    fl_nsgs_report(ctx, &st, N);
    return 0;
}

void fl_nsgs_report(fl_check_ctx *ctx, const fl_nsgs_stats *stp, long N)
{
    fl_nsgs_stats st = *stp;
    fl_check_value(ctx, st.errors == 0 && st.systems == N, "nsgs.no_errors", (double)st.errors, 0.0, 0.0,
                 "fl_status of every solve (reference/nsgs.h, optimized/nsgs_sparse.h)",
                 "%ld of %ld systems ran without an error status", st.systems, N);
    for (int k = 0; k < 2; k++)
        fl_check_value(ctx, st.viol[k] <= 1e-7 && st.converged[k] >= (95 * N) / 100,
                     k ? "nsgs.coulomb_optimized" : "nsgs.coulomb_reference", st.viol[k], 0.0, 1e-7,
                     "003 §3 (Coulomb's law at each contact; problem-scaled violation, proofs/README.md)",
                     "max violation of Coulomb's law %.3g over %ld converged limits of %ld "
                     "(tol 1e-7, problem-scaled, proofs/README.md; >= 95%% converged)",
                     st.viol[k], st.converged[k], N);
    fl_check_value(ctx, st.unique > 0 && st.unique_diff <= 1e-6 && st.unique_disagree == 0,
                 "nsgs.reference_vs_optimized_unique", st.unique_diff, 0.0, 1e-6,
                 "unique enumerated solution (exhaustive enumeration, proofs/contact_dynamics.md)",
                 "max |r_ref - r_opt|/(1+|r|) = %.3g on %ld 2D systems with a unique enumerated "
                 "solution, %ld limits off the enumerated one (tol 1e-6)",
                 st.unique_diff, st.unique, st.unique_disagree);
    fl_check_value(ctx, st.lemma_n > 0 && st.lemma_err <= 1e-8, "nsgs.lemma_2_4_identity", st.lemma_err, 0.0, 1e-8,
                 "004 Lemma 2.4 (kinetic energy change of an impact)",
                 "max |dT - (-delta/2 du.M du - sum mu s_N |U^a_T|)|/(T- + 1e-3) = %.3g over %ld "
                 "impacts (004 Lemma 2.4, tol 1e-8)", st.lemma_err, st.lemma_n);
    fl_check_value(ctx, st.lemma_n > 0 && st.dT_max <= 1e-8, "nsgs.lemma_2_4_dissipative", st.dT_max, 0.0, 1e-8,
                 "004 Lemma 2.4 (dT <= 0)",
                 "max dT/(T- + 1e-3) = %.3g (004 Lemma 2.4: <= 0, tol 1e-8)", st.dT_max);
    fl_check_value(ctx, st.impact_viol <= 1e-7, "nsgs.impact_rule", st.impact_viol, 0.0, 1e-7,
                 "004 (19)-(20): impulse in K_r(U^a)",
                 "max violation of I in K_r(U^a) = %.3g (004 (19)-(20), tol 1e-7)", st.impact_viol);
    fl_check_value(ctx, st.cloud_dots > 0 && st.cloud_outside == 0 && st.unique_spread == 0, "nsgs.clouds_in_enumeration",
                 (double)st.cloud_outside, 0.0, 0.0, "003 §3 clouds; exhaustive enumeration (proofs/contact_dynamics.md)",
                 "%ld of %ld cloud dots (random orderings and random starts, 003 §3) not among "
                 "the enumerated solutions (exhaustive enumeration, proofs/contact_dynamics.md)", st.cloud_outside, st.cloud_dots);
    fl_check_value(ctx, st.enum_solutions > 0 && st.fixed_fail == 0, "nsgs.enumerated_are_fixed_points",
                 (double)st.fixed_fail, 0.0, 0.0, "003 §3: every solution is a fixed point of a Gauss-Seidel sweep",
                 "%ld of %ld enumerated solutions not kept by a warm-started sweep; "
                 "%ld reached by the clouds", st.fixed_fail, st.enum_solutions, st.enum_reached);
    fl_check_value(ctx, st.delassus_solves <= 1e-10, "nsgs.delassus_sparse_solves", st.delassus_solves, 0.0, 1e-10,
                 "004 (18): W = H M^-1 H^T (CHOLMOD solves vs dense)",
                 "max relative |W_cholmod - W_dense| = %.3g (tol 1e-10)", st.delassus_solves);
    fl_check_value(ctx, st.delassus_trailing <= 1e-6, "nsgs.delassus_sparse_trailing", st.delassus_trailing, 0.0, 1e-6,
                 "004 (18): W = H M^-1 H^T (trailing Schur complement vs dense)",
                 "max relative |W_trailing - W_dense| = %.3g (cI - L22 L22^T, tol 1e-6)",
                 st.delassus_trailing);
}

/* ------------------------------------------------------------------ */
/* reproduce wedged_rod (003 §2, Fig. 1; data/003/README.md)            */
/* ------------------------------------------------------------------ */

/* The rod, its parameters and its one-step problem: models/fl_model_wedged_rod.h.
 * The parameters of data/003/wedged_rod.json, or of the user's file of the
 * same schema (reproduce wedged_rod --params FILE).  A missing file or
 * field is an error: there are no built-in values. */
typedef fl_model_wedged_rod wedge_params;

static int wedge_load(fl_check_ctx *ctx, wedge_params *w, char *src, size_t len)
{
    char path[4096];
    fl_error err;
    if (fl_check_params_path(ctx, "003/wedged_rod.json", path, sizeof path) != 0) return -1;
    if (fl_model_wedged_rod_load(path, w, &err) != FL_OK) {
        fl_check_message(ctx, "wedged_rod: %s", err.message);
        return -1;
    }
    snprintf(src, len, "%s", path);
    return 0;
}

static fl_global_problem *wedge_problem(const wedge_params *w, const double *ui, double P)
{
    fl_global_problem *g = NULL;
    return fl_model_wedged_rod_problem(w, ui, P, &g, NULL) == FL_OK ? g : NULL;
}

/* One step: returns the NSGS status; s in/out (warm start if warm), u_f out. */
static fl_status wedge_step(const wedge_params *w, double P, int warm, gsl_vector *s,
                            gsl_vector *uf, int *sweeps)
{
    double ui[3] = {0, 0, 0};
    fl_global_problem *g = wedge_problem(w, ui, P);
    if (!g) return FL_ENOMEM;
    gsl_vector *u0 = fl_dense_vector_calloc(3);
    if (!u0) {
        fl_global_problem_free(g);
        return FL_ENOMEM;
    }
    fl_moreau_jean_options o = fl_moreau_jean_options_default();
    o.nsgs.start = warm ? FL_NSGS_START_WARM : FL_NSGS_START_ZERO;
    o.nsgs.tol = 1e-13;
    o.nsgs.max_sweeps = 100000;
    fl_moreau_jean_result res;
    fl_status st = fl_moreau_jean_step(g, u0, &o, NULL, s, uf, &res, NULL);
    if (sweeps) *sweeps = res.iterations;
    gsl_vector_free(u0);
    fl_global_problem_free(g);
    return st;
}

/* (3) enumeration: isolated solutions and continua */
static void wedge_check_enumeration(fl_check_ctx *ctx, const fl_local_problem *p)
{
    fl_enumerate_result *e = NULL;
    fl_enumerate_solutions(p, 1e-10, &e, NULL);
    double zero[4] = {0, 0, 0, 0};
    int open_listed = e && fl_enumerate_find(e, zero, 1e-12) >= 0;
    fl_check_value(ctx, e && open_listed && e->singular > 0, "wedged_rod.enumeration", e ? (double)e->singular : 0.0,
                 1.0, NAN, "003 §2: the wedged continuum (value: singular stick/stick systems, at least 1)",
                 "%zu isolated solution(s) incl. free fall (open/open), %zu singular status "
                 "systems carrying the wedged continuum (stick/stick: W has rank 3 < 4)",
                 e ? e->nsol : 0, e ? e->singular : 0);
    fl_enumerate_result_free(e);
}

/* (4) Moreau's exploration by random initial guesses: both outcomes */
static void wedge_check_outcomes(fl_check_ctx *ctx, const fl_local_problem *p, gsl_rng *rng, double h, double RN)
{
    fl_plurality_options po = fl_plurality_options_default();
    po.mode = FL_PLURALITY_RANDOM_START;
    po.runs = 200;
    po.nsgs.rng = rng;
    po.nsgs.tol = 1e-12;
    po.nsgs.max_sweeps = 20000;
    po.nsgs.random_scale = 4.0 * h * RN;
    fl_cloud *c = NULL;
    long nfree = 0, nwedge = 0, nbad = 0;
    if (fl_plurality_explore(p, &po, &c, NULL, NULL) == FL_OK) {
        for (size_t k = 0; k < c->npts; k++) {
            const double *r = c->pts + 4 * k;
            if (!fl_enumerate_is_solution(p, r, 1e-8)) nbad++;
            else if (fabs(r[0]) + fabs(r[2]) <= 1e-12 * h * RN) nfree++;
            else nwedge++;
        }
    }
    char path[4096];
    if (c && fl_check_out_path(ctx, "wedged_rod_cloud.csv", path, sizeof path) == 0) {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "run,RN_A,RT_A,RN_B,RT_B\n");
            for (size_t k = 0; k < c->npts; k++)
                fprintf(f, "%zu,%.10g,%.10g,%.10g,%.10g\n", k, c->pts[4 * k] / h,
                        c->pts[4 * k + 1] / h, c->pts[4 * k + 2] / h, c->pts[4 * k + 3] / h);
            fclose(f);
        }
    }
    fl_check_value(ctx, nfree > 0 && nwedge > 0 && nbad == 0, "wedged_rod.both_outcomes", (double)nbad, 0.0, 0.0,
                 "003 §2-3: both outcomes among random initial guesses (value: limits that are not solutions)",
                 "random initial guesses (003 §3): %ld free-fall and %ld wedged limits of %zu "
                 "runs, %ld not a solution", nfree, nwedge, c ? c->npts : 0, nbad);
    fl_cloud_free(c);
}

/* (2)-(4) on the one-step problem from rest, P = 0: the symmetric wedged
 * impulses (closed form) solve it, enumeration finds the continuum, random
 * starts find both outcomes.  -1: the problem cannot be built (reported). */
static int wedge_check_wedged(fl_check_ctx *ctx, const wedge_params *w, const char *src, gsl_vector *s,
                              gsl_vector *uf, gsl_rng *rng)
{
    const double h = w->h, vtol = 1e-9 * w->g * h;
    /* (2) the symmetric wedged impulses (closed form): vertical balance
     * 2 (R_T cos b - R_N sin b) = m g with R_N = 2 R_N,min,
     * R_N,min = m g / (2 (mu cos b - sin b)) (friction at its limit). */
    double wf[4] = {0, 0, 0, 0};
    fl_error werr;
    if (fl_model_wedged_rod_wedged_forces(w, wf, &werr) != FL_OK) fl_check_message(ctx, "wedged_rod: %s", werr.message);
    double RN = wf[0], RT = wf[1];
    double wedge_s[4] = {h * RN, h * RT, h * RN, h * RT};
    double ui[3] = {0, 0, 0};
    fl_global_problem *g = wedge_problem(w, ui, 0.0);
    fl_local_problem *p = NULL;
    fl_error perr;
    if (!g || fl_delassus_dense(g, NULL, NULL, &p, &perr) != FL_OK) {
        /* nothing below can be checked without the one-step problem */
        fl_check_message(ctx, "wedged_rod: the one-step problem of %s cannot be built%s%s", src,
                         g ? ": " : "", g ? perr.message : "");
        fl_global_problem_free(g);
        return -1;
    }
    int is_sol = fl_enumerate_is_solution(p, wedge_s, 1e-10);
    memcpy(s->data, wedge_s, sizeof wedge_s);
    int sw = 0;
    wedge_step(w, 0.0, 1, s, uf, &sw);
    double kept = 0;
    for (int i = 0; i < 4; i++) kept = fmax(kept, fabs(s->data[i] - wedge_s[i]));
    fl_check_value(ctx, is_sol && gsl_blas_dnrm2(uf) <= vtol && kept <= 1e-10 * h * RN,
                 "wedged_rod.wedged_solution", kept, 0.0, 1e-10 * h * RN,
                 "003 §2: wedged impulses R_N = 2 R_N,min (closed form, data/003/wedged_rod.json)",
                 "R_N = 2 R_N,min = %.4g N, R_T = %.4g N: a solution of the one-step problem "
                 "(%s), warm start keeps it (|ds| = %.2g, %d sweep, |u_f| = %.2g)",
                 RN, RT, is_sol ? "Coulomb holds" : "Coulomb FAILS", kept, sw,
                 gsl_blas_dnrm2(uf));
    wedge_check_enumeration(ctx, p);
    wedge_check_outcomes(ctx, p, rng, h, RN);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    return 0;
}

/* What the insertion-extraction history leaves for its checks. */
typedef struct {
    long wedged_until, zero_falls, zero_checked, errors;
    double P_detach, X_rev, sweeps_max, slide_dev, X_dev;
    char path[4096];
    int wrote_csv;             /* wedged_rod_forces.csv was opened */
} wedge_history;

/* (5) insertion-extraction history with warm start (003 §2): P rises from
 * P_start to P_max (pushing the rod up into the converging walls), then
 * decreases to P_end (pulling down); detachment when u_f != 0. */
static void wedge_history_run(fl_check_ctx *ctx, const wedge_params *w, gsl_vector *s, gsl_vector *uf,
                              gsl_vector *s0, gsl_vector *uf0, wedge_history *H)
{
    const double mg = w->m * w->g, h = w->h, cb = cos(w->beta), sb = sin(w->beta);
    const double vtol = 1e-9 * w->g * h;        /* "u_f = 0" within this */
    FILE *csv = NULL;
    if (fl_check_out_path(ctx, "wedged_rod_forces.csv", H->path, sizeof H->path) == 0) csv = fopen(H->path, "w");
    if (csv) fprintf(csv, "step,P_over_mg,RN_A,RT_A,RN_B,RT_B,wedged,zero_start_falls\n");
    H->wrote_csv = csv != NULL;
    long nsteps = w->steps_up + w->steps_down;
    H->wedged_until = -1;
    H->P_detach = H->X_rev = NAN;
    gsl_vector_set_zero(s);
    for (long k = 0; k <= nsteps; k++) {
        double Pmg = k <= w->steps_up
                         ? w->P_start + (w->P_max - w->P_start) * (double)k / (double)w->steps_up
                         : w->P_max + (w->P_end - w->P_max) * (double)(k - w->steps_up) /
                                         (double)w->steps_down;
        int sw = 0;
        fl_status st = wedge_step(w, Pmg * mg, k > 0, s, uf, &sw);
        if (st != FL_OK) H->errors++;
        H->sweeps_max = fmax(H->sweeps_max, sw);
        int wedged = gsl_blas_dnrm2(uf) <= vtol;
        /* longitudinal (along AB, horizontal) component of R_A: X = R_N cos b + R_T sin b */
        double XA = (s->data[0] * cb + s->data[1] * sb) / h, XB = (s->data[2] * cb + s->data[3] * sb) / h;
        if (wedged && k <= w->steps_up)   /* insertion: sliding regime, R_T = -mu R_N */
            H->slide_dev = fmax(H->slide_dev, fmax(fabs(s->data[1] + w->mu * s->data[0]),
                                                   fabs(s->data[3] + w->mu * s->data[2])) / s->data[0]);
        if (k == w->steps_up) H->X_rev = 0.5 * (XA + XB);
        if (wedged && k > w->steps_up)
            H->X_dev = fmax(H->X_dev, fmax(fabs(XA - H->X_rev), fabs(XB - H->X_rev)) / H->X_rev);
        /* the same state with zero start: the other outcome when P < m g */
        int falls = 0;
        if (k > w->steps_up && wedged && Pmg < 1.0) {
            wedge_step(w, Pmg * mg, 0, s0, uf0, NULL);
            falls = gsl_blas_dnrm2(s0) == 0.0 && gsl_vector_get(uf0, 1) < 0;
            H->zero_checked++;
            H->zero_falls += falls;
        }
        if (csv)
            fprintf(csv, "%ld,%.6f,%.10g,%.10g,%.10g,%.10g,%d,%d\n", k, Pmg, s->data[0] / h,
                    s->data[1] / h, s->data[2] / h, s->data[3] / h, wedged, falls);
        fl_check_progress(ctx, "wedged_rod history", k + 1, nsteps + 1);
        if (!wedged) {
            H->P_detach = Pmg;
            break;
        }
        H->wedged_until = k;
    }
    if (csv) fclose(csv);
}

static void wedge_history_check(fl_check_ctx *ctx, const wedge_params *w, const wedge_history *H)
{
    double P_detach = H->P_detach, X_rev = H->X_rev;
    /* 003 §2 (elastic refinement): "the longitudinal components of R_A and R_B
     * keep the values they had at the instant of reversal".  With X* that
     * component and R_y = (m g - P)/2 the vertical one (symmetry), R_N = X* cos b
     * - R_y sin b and R_T = X* sin b + R_y cos b; the no-slide regime ends when
     * R_T = mu R_N:  P_d = m g - 2 X* (mu cos b - sin b)/(cos b + mu sin b)
     * (proofs/contact_dynamics.md). */
    double Pd = fl_model_wedged_rod_detachment(w, X_rev);
    double dP = (w->P_max - w->P_end) / (double)w->steps_down;
    fl_check_value(ctx, H->errors == 0 && H->wedged_until >= w->steps_up && isfinite(P_detach),
                 "wedged_rod.warm_start_keeps_wedge", (double)H->wedged_until, (double)w->steps_up, NAN,
                 "003 §2: warm start keeps the wedge (value: last wedged load step, at least the insertion's last)",
                 "warm-started NSGS keeps u_f = 0 through insertion (P/mg %.2f -> %.2f) and "
                 "unloading down to P/mg = %.4f, detaches at P/mg = %.4f (max %g sweeps/step)",
                 w->P_start, w->P_max, P_detach + dP, P_detach, H->sweeps_max);
    fl_check_value(ctx, H->slide_dev <= 1e-9, "wedged_rod.insertion_sliding_regime", H->slide_dev, 0.0, 1e-9,
                 "003 §2: sliding regime R_T = -mu R_N during insertion",
                 "insertion: max |R_T + mu R_N|/R_N = %.3g (lines of action imposed by Coulomb "
                 "law in sliding regime, 003 §2; tol 1e-9)", H->slide_dev);
    fl_check_value(ctx, H->X_dev <= 1e-9, "wedged_rod.longitudinal_frozen", H->X_dev, 0.0, 1e-9,
                 "003 §2: longitudinal components keep their value at the reversal",
                 "unloading: max |X - X*|/X* = %.3g, X* = %.6g N the longitudinal component at "
                 "the reversal (003 §2; tol 1e-9)", H->X_dev, X_rev);
    fl_check_value(ctx, P_detach <= Pd + 1e-9 && P_detach >= Pd - dP - 1e-9, "wedged_rod.detachment_load",
                 P_detach, Pd, dP, "003 §2: P_d = m g - 2 X*(mu cos b - sin b)/(cos b + mu sin b) (proofs/contact_dynamics.md)",
                 "detachment at P/mg = %.4f, first load step past the prediction m g - 2 X*(mu "
                 "cos b - sin b)/(cos b + mu sin b) = %.4f m g (003 §2; within one step %.3f)",
                 P_detach, Pd, dP);
    fl_check_value(ctx, H->zero_checked > 0 && H->zero_falls == H->zero_checked, "wedged_rod.zero_start_falls",
                 (double)(H->zero_checked - H->zero_falls), 0.0, 0.0,
                 "003 §2: zero start gives free fall (value: unloading states where it does not)",
                 "at %ld unloading states with P < m g where the warm start stays wedged, the "
                 "zero start gives free fall in %ld (both outcomes are solutions, 003 §2)",
                 H->zero_checked, H->zero_falls);
}

static void wedge_history_plot(fl_check_ctx *ctx, wedge_history *H)
{
    char *path = H->path;
    if (H->wrote_csv && fl_check_out_path(ctx, "wedged_rod_forces.png", path, sizeof H->path) == 0) {
        char csvp[4096], script[12000];
        fl_check_out_path(ctx, "wedged_rod_forces.csv", csvp, sizeof csvp);
        snprintf(script, sizeof script,
                 "set terminal png size 900,600\nset output '%s'\nset datafile separator ','\n"
                 "set key autotitle columnhead noenhanced\nset xlabel 'load step'\nset ylabel 'force (N)'\n"
                 "set y2label 'P / m g'\nset y2tics\nset title 'Rod wedged between converging "
                 "walls (003 §2): contact forces under insertion-extraction, warm start'\n"
                 "plot '%s' using 1:3 with lines lw 2, '' using 1:4 with lines lw 2, "
                 "'' using 1:5 with lines dt 2, '' using 1:6 with lines dt 2, "
                 "'' using 1:2 axes x1y2 with lines lc rgb 'black'\n",
                 path, csvp);
        if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "wedged_rod: no PNG (gnuplot failed)");
    }
}

/* 003 §2: the rod wedged between converging walls.  (1) free fall from
 * rest, (2)-(4) the wedged solutions of the same step, (5) the
 * insertion-extraction history: compute, check, plot. */
int fl_nsgs_reproduce_wedged_rod(fl_check_ctx *ctx)
{
    wedge_params w;
    char src[4200];
    if (wedge_load(ctx, &w, src, sizeof src) != 0) return -1;
    int rc = 0;
    if (ctx->quick) w.steps_down = w.steps_down / 4 > 10 ? w.steps_down / 4 : 10;
    const double h = w.h;
    gsl_vector *s = fl_dense_vector_alloc(4), *uf = fl_dense_vector_alloc(3);
    gsl_vector *s0 = fl_dense_vector_alloc(4), *uf0 = fl_dense_vector_alloc(3);
    gsl_rng *rng = fl_rng_alloc(ctx->seed);
    if (!s || !uf || !s0 || !uf0 || !rng) {
        fl_check_message(ctx, "wedged_rod: out of memory");
        rc = -1;
        goto done;
    }
    fl_check_message(ctx, "wedged_rod: parameters from %s", src);

    /* (1) one step from rest, P = 0, zero start: free fall s = 0, u_f = (0, -g h, 0) */
    fl_status st1 = wedge_step(&w, 0.0, 0, s, uf, NULL);
    double ff = st1 != FL_OK ? INFINITY : fabs(gsl_vector_get(uf, 1) + w.g * h) + fabs(gsl_vector_get(uf, 0)) +
                fabs(gsl_vector_get(uf, 2)) + gsl_blas_dnrm2(s);
    fl_check_value(ctx, ff <= 1e-12 * w.g * h + 1e-300, "wedged_rod.free_fall_solution", ff, 0.0, 1e-12 * w.g * h,
                 "003 §2: free fall s = 0, u_f = (0, -g h, 0) (closed form)",
                 "zero start from rest: |s| + |u_f - (0,-g h,0)| = %.3g (closed form, tol 1e-12 g h)",
                 ff);
    if (wedge_check_wedged(ctx, &w, src, s, uf, rng) != 0) {
        rc = -1;
        goto done;
    }
    wedge_history H;
    memset(&H, 0, sizeof H);
    wedge_history_run(ctx, &w, s, uf, s0, uf0, &H);
    wedge_history_check(ctx, &w, &H);
    wedge_history_plot(ctx, &H);
done:
    gsl_rng_free(rng);
    gsl_vector_free(s0);
    gsl_vector_free(uf0);
    gsl_vector_free(s);
    gsl_vector_free(uf);
    return rc;
}
