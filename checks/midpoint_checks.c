/* midpoint_checks.c — paper 002 in the frictionlab command:
 *   crosscheck --law midpoint   reference vs sparse, Prop. 5.1, Lemma 4.1,
 *                               redistribution (6), single-triangle branches
 *   reproduce triangle_002      002 §6: branches S1-S5, regions, dt bound
 *   reproduce square_block_002  002 §7: Figs. 7, 8 (four situations), Table 2
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_vector.h>

#include "checks/fl_check.h"
#include "checks/fl_tasks.h"
#include "checks/midpoint_checks.h"
#include "fl_dense.h"
#include "fl_rng.h"
#include "testkit/fl_random.h"
#include "reference/fe2d.h"
#include "reference/midpoint.h"
#include "reference/redistribution.h"
#include "optimized/fe2d_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "models/fl_model_square_block.h"
#include "models/fl_model_triangle.h"
#include "checks/twins.h"

/* ------------------------------------------------------------------ */
/* 002 §6 closed forms (written independently of reference/midpoint.c) */

/* max |x - y| relative to the larger entry (at least 1e-12) */
static double dist4(const double *x, const double *y)
{
    double d = 0, s = 1e-12;
    for (int k = 0; k < 4; k++) {
        d = fmax(d, fabs(x[k] - y[k]));
        s = fmax(s, fmax(fabs(x[k]), fabs(y[k])));
    }
    return d / s;
}

static int same4(const double *x, const double *y)
{
    return dist4(x, y) <= 1e-8;
}

/* Random samples: enumeration through the stepper vs the branches. */
static void triangle_branch_check(fl_check_ctx *ctx, gsl_rng *r, long samples, const char *name)
{
    long tested = 0, bad = 0, by_count[4] = {0};
    for (long s = 0; s < samples; s++) {
        fl_model_triangle_system t;
        t.lam = 2 * gsl_rng_uniform(r);
        t.mu = 0.1 + gsl_rng_uniform(r);
        t.m1 = s % 3 == 1 ? 0 : fl_rng_loguniform(r, 1e-3, 1);
        t.m2 = s % 3 == 2 ? 0 : fl_rng_loguniform(r, 1e-3, 1);
        t.dt = fl_rng_loguniform(r, 1e-2, 10);
        t.utk = 2 * gsl_rng_uniform(r) - 1;
        fl_model_triangle_constants(&t);
        t.F = t.c / t.b * fl_rng_loguniform(r, 0.2, 5);
        double sc = (t.c + t.b) * (1 + fabs(t.utk));
        double fn = sc * (2 * gsl_rng_uniform(r) - 1), ft = sc * (2 * gsl_rng_uniform(r) - 1);
        int expect[5] = {0}, nexp = 0, skip = 0;
        for (int i = 1; i <= 4; i++) {
            int m = fl_model_triangle_region(&t, i, fn, ft, 1e-6 * sc);
            if (m < 0) skip = 1;
            expect[i] = m == 1;
            nexp += m == 1;
        }
        if (skip) continue;
        tested++;
        double sols[32];
        size_t ns;
        if (fl_model_triangle_002(t.lam, t.mu, t.m1, t.m2, t.dt, t.F, t.utk, fn, ft, 8, sols, &ns, NULL) != FL_OK
            || (int)ns != nexp) {
            bad++;
            continue;
        }
        if (nexp < 4) by_count[nexp]++;
        for (int i = 1; i <= 4; i++) {
            if (!expect[i]) continue;
            double S[4];
            int found = 0;
            fl_model_triangle_branch(&t, i, fn, ft, S);
            for (size_t k = 0; k < ns; k++) found |= same4(sols + 4 * k, S);
            if (!found) bad++;
        }
    }
    fl_check_value(ctx, bad == 0 && tested > samples / 2 && by_count[3] > 0, name, (double)bad, 0.0, 0.0,
                 "002 §6 branches S1-S4 and regions sigma1-sigma4 (proofs/triangle_002.md)",
                 "%ld mismatches in %ld random (a,b,c,F,fhat,utk) off the boundaries; %ld with 1 solution, "
                 "%ld with 3 (002 §6 branches S1-S4, regions sigma1-sigma4)", bad, tested, by_count[1], by_count[3]);
}

/* ------------------------------------------------------------------ */
/* Random FE blocks for the crosscheck                                  */

static double rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0, s = 1e-300;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    }
    return d / s;
}

/* The PASS/FAIL lines of crosscheck --law midpoint (but the triangle
 * branches) from its statistics. */
void fl_midpoint_crosscheck_report(fl_check_ctx *ctx, const fl_midpoint_xstats *x)
{
    fl_check_value(ctx, x->failures == 0, "midpoint.runs", (double)x->failures, 0.0, 0.0, "fl_status of every step (reference/midpoint.h)",
                 "%ld random FE blocks x 40 steps, %ld failures", x->nblocks, x->failures);
    fl_check_value(ctx, x->worst_state < 1e-9, "midpoint.ref_vs_sparse", x->worst_state, 0.0, 1e-9,
                 "002 (20)-(23): reference/midpoint.c and optimized/midpoint_sparse.c take the same step",
                 "max relative difference of u^{k+1} and (r_n, r_t) over %ld steps = %.2e (tol 1e-9)", x->steps, x->worst_state);
    fl_check_value(ctx, x->worst_identity < 1e-9, "midpoint.energy_identity", x->worst_identity, 0.0, 1e-9,
                 "002 Proposition 5.1 (energy identity, proofs/midpoint.md)",
                 "max |E^{k+1}-E^k - normal work - friction work| / scale = %.2e (tol 1e-9; [DERIVED] 002 Proposition 5.1)",
                 x->worst_identity);
    fl_check_value(ctx, x->worst_friction <= 1e-12, "midpoint.prop5_1_friction_work", x->worst_friction, 0.0, 1e-12,
                 "002 Proposition 5.1 (friction work <= 0)",
                 "max friction work per step / scale = %.2e (<= 0 by 002 Prop. 5.1, tol 1e-12)", x->worst_friction);
    fl_check_value(ctx, x->worst_res < 1e-8, "midpoint.step_residual", x->worst_res, 0.0, 1e-8,
                 "002 (21)-(23): natural-map residual of the step's contact problem (core/fl_residual.h)", "max natural-map residual = %.2e (tol 1e-8)", x->worst_res);
    fl_check_value(ctx, x->worst_kernel < 1e-12, "midpoint.redistribution_kernel", x->worst_kernel, 0.0, 1e-12,
                 "002 (6): Ker M_r = span{nu_i}",
                 "max |lambda_nc(M_r)|/lambda_max = %.2e with lambda_nc+1 > 1e-8 lambda_max (002 (6), tol 1e-12)",
                 x->worst_kernel);
    fl_check_value(ctx, x->worst_gram < 1e-12, "midpoint.redistribution_mass", x->worst_gram, 0.0, 1e-12,
                 "proofs/redistribution.md (c): R^T M_r R = R^T M R",
                 "max relative change of R^T M_r R (total mass, centre of gravity, moments of inertia) = %.2e "
                 "(proofs/redistribution.md (c), tol 1e-12)",
                 x->worst_gram);
    fl_check_value(ctx, x->worst_mr < 1e-11, "midpoint.redistribution_sparse", x->worst_mr, 0.0, 1e-11,
                 "proofs/redistribution.md: M_r = Mr0 + U K U^T",
                 "max relative difference of Mr0 + U K U^T vs dense M_r = %.2e (tol 1e-11)", x->worst_mr);
    fl_check_value(ctx, x->lem_bad == 0 && x->worst_ratio <= 1.0, "midpoint.lemma4_1_lipschitz", x->worst_ratio, 1.0, NAN,
                 "002 Lemma 4.1 (Lipschitz constants L1, L2; the ratio is at most 1)",
                 "max ratio |g(w1)-g(w2)|/|w1-w2| / L over %ld systems = %.3f (<= 1; L1 = |A|/lmin(A_NN), "
                 "L2 = (1+|A_NN|/lmin)|A|, 002 Lemma 4.1)", x->lem, x->worst_ratio);
}

/* 002 (6): Ker M_r = span{nu_i} (normal redistribution), by eigenvalues:
 * |lambda_nc| / lambda_max (1 when lambda_nc+1 is not clear of zero). */
static void kernel_check(const fl_midpoint_block *d, fl_midpoint_xstats *x)
{
    size_t n = d->prob.n, nc = d->prob.nc;
    gsl_matrix *C = fl_dense_matrix_alloc(n, n);
    gsl_vector *ev = fl_dense_vector_alloc(n);
    gsl_error_handler_t *old = fl_gsl_handler_off();
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(n);
    fl_gsl_handler_restore(old);
    if (C && ev && w) {
        gsl_matrix_memcpy(C, d->Mr);
        gsl_eigen_symm(C, ev, w);
        gsl_sort_vector(ev);
        double top = gsl_vector_get(ev, n - 1);
        double k0 = fabs(gsl_vector_get(ev, nc - 1)) / top, k1 = gsl_vector_get(ev, nc) / top;
        x->worst_kernel = fmax(x->worst_kernel, k1 > 1e-8 ? k0 : 1.0);
    } else {
        x->failures++;   /* no kernel computed: not a pass */
    }
    if (w) gsl_eigen_symm_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(C);
}

/* The low-rank sparse M_r = Mr0 + U K U^T equals the dense one. */
static void lowrank_check(fl_sparse_ctx *sctx, const fl_midpoint_block *d, const fl_midpoint_block_sparse *s,
                          fl_midpoint_xstats *x)
{
    size_t n = d->prob.n;
    gsl_matrix *Mr0;
    if (fl_sparse_to_dense(sctx, s->Mr0, &Mr0, NULL) != FL_OK) {
        x->failures++;   /* no comparison made: not a pass of redistribution_sparse */
        return;
    }
    gsl_matrix *UK = s->U ? fl_dense_matrix_alloc(n, s->U->size2) : NULL;
    if (UK) {
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, s->U, s->K, 0.0, UK);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, UK, s->U, 1.0, Mr0);
        gsl_matrix_free(UK);
    }
    if (s->U && !UK) x->failures++;   /* no low-rank term: no comparison made */
    else x->worst_mr = fmax(x->worst_mr, rel_diff(Mr0->data, d->Mr->data, n * n));
    gsl_matrix_free(Mr0);
}

/* proofs/redistribution.md (c): R^T M_r R = R^T M R on the full dofs
 * (mass, centre of gravity, second moments of the affine fields). */
static void gram_check(const fl_midpoint_block *d, const fl_midpoint_block_params *bp, fl_midpoint_xstats *x)
{
    size_t nc = d->prob.nc;
    gsl_matrix *M = NULL, *R = NULL, *Bn = NULL, *Bt = NULL, *Mr = NULL;
    fl_redistribution *rd = NULL;
    double *nrm = calloc(2 * nc, sizeof(double));
    for (size_t i = 0; nrm && i < nc; i++) nrm[2 * i + 1] = -1.0;
    if (nrm && fl_fe2d_assemble_dense(d->mesh, &bp->mat, bp->lumped ? FL_FE2D_MASS_LUMPED : FL_FE2D_MASS, &M, NULL) == FL_OK
        && fl_fe2d_affine_fields(d->mesh, &R, NULL) == FL_OK
        && fl_fe2d_contact_vectors(d->mesh, NULL, nc, d->cnodes, nrm, &Bn, &Bt, NULL) == FL_OK
        && fl_redistribution_alloc(M, R, Bn, Bt, bp->redist, &rd, NULL) == FL_OK
        && fl_redistribution_dense(rd, M, &Mr, NULL) == FL_OK) {
        size_t nf = M->size1;
        gsl_matrix *T = fl_dense_matrix_alloc(nf, 6), *G = fl_dense_matrix_alloc(6, 6), *Gr = fl_dense_matrix_alloc(6, 6);
        if (T && G && Gr) {
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, M, R, 0.0, T);
            gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, R, T, 0.0, G);
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Mr, R, 0.0, T);
            gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, R, T, 0.0, Gr);
            x->worst_gram = fmax(x->worst_gram, rel_diff(Gr->data, G->data, 36));
        } else {
            x->failures++;
        }
        gsl_matrix_free(T); gsl_matrix_free(G); gsl_matrix_free(Gr);
    } else {
        x->failures++;
    }
    free(nrm);
    gsl_matrix_free(M); gsl_matrix_free(R); gsl_matrix_free(Bn); gsl_matrix_free(Bt); gsl_matrix_free(Mr);
    fl_redistribution_free(rd);
}

/* 40 steps of both twins through the agreement harness (checks/twins.h)
 * from the static state with a random velocity. */
static void twin_steps(gsl_rng *r, long sys, const fl_midpoint_block *d, const fl_midpoint_block_sparse *s,
                       fl_twins_midpoint_stats *tw)
{
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = fl_rng_loguniform(r, 0.005, 0.05);
    o.contact = (fl_midpoint_contact)(sys % 2);
    o.tol = 1e-14;
    fl_midpoint_state *a = NULL;
    if (fl_midpoint_state_alloc(d->prob.n, d->prob.nc, &a, NULL) != FL_OK) {
        tw->failures++;
        return;
    }
    fl_midpoint_static(&d->prob, a->u, NULL);
    for (size_t i = 0; i < d->prob.n; i++) gsl_vector_set(a->v, i, 0.3 * (2 * gsl_rng_uniform(r) - 1));
    const fl_midpoint_problem *const p[2] = {&d->prob, &s->prob};
    fl_twins_midpoint(p, &o, a, 40, tw);
    fl_midpoint_state_free(a);
}

/* One random FE block: redistribution checks and the twin steps. */
static void block_checks(gsl_rng *r, long sys, fl_sparse_ctx *sctx, fl_midpoint_xstats *x,
                         fl_twins_midpoint_stats *tw)
{
    fl_random_block_options ro = fl_random_block_options_default();
    fl_midpoint_block_params bp = fl_random_midpoint_block(r, &ro, (fl_redist_kind)(sys % 3));
    fl_midpoint_block *d = NULL;
    fl_midpoint_block_sparse *s = NULL;
    if (fl_midpoint_block_alloc(&bp, &d, NULL) || fl_midpoint_block_alloc_sparse(sctx, &bp, 1u << 30, &s, NULL)) {
        x->failures++;
        fl_midpoint_block_free(d);
        return;
    }
    if (bp.redist == FL_REDIST_NORMAL) kernel_check(d, x);
    lowrank_check(sctx, d, s, x);
    if (bp.redist != FL_REDIST_NONE) gram_check(d, &bp, x);
    twin_steps(r, sys, d, s, tw);
    fl_midpoint_block_free(d);
    fl_midpoint_block_free_sparse(s);
}

/* 002 Lemma 4.1: Lipschitz ratios of the static normal problem on one
 * random system (A = X X^T + 0.5 I, orthonormal contact rows); 0 on
 * success with *ratio the larger of the two ratios to their bounds. */
static int lemma41_one(gsl_rng *r, double *ratio)
{
    size_t n = 8 + gsl_rng_uniform_int(r, 10), nc = 1 + gsl_rng_uniform_int(r, 3);
    gsl_matrix *A = fl_dense_matrix_alloc(n, n), *X = fl_dense_matrix_alloc(n, n), *Bn = fl_dense_matrix_alloc(nc, n);
    gsl_vector *f = fl_dense_vector_alloc(n), *w1 = fl_dense_vector_alloc(n), *w2 = fl_dense_vector_alloc(n);
    gsl_vector *g11 = fl_dense_vector_alloc(n), *g12 = fl_dense_vector_alloc(n), *g21 = fl_dense_vector_alloc(nc),
               *g22 = fl_dense_vector_alloc(nc);
    int bad = !A || !X || !Bn || !f || !w1 || !w2 || !g11 || !g12 || !g21 || !g22;   /* no ratio: not a pass */
    if (!bad) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) gsl_matrix_set(X, i, j, 2 * gsl_rng_uniform(r) - 1);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, X, X, 0.0, A);
        for (size_t i = 0; i < n; i++) *gsl_matrix_ptr(A, i, i) += 0.5;
        gsl_matrix_set_zero(Bn);
        for (size_t i = 0; i < nc; i++) gsl_matrix_set(Bn, i, 2 * i, 1.0);   /* orthonormal rows */
        for (size_t i = 0; i < n; i++) {
            gsl_vector_set(f, i, 2 * gsl_rng_uniform(r) - 1);
            gsl_vector_set(w1, i, i % 2 == 0 && i / 2 < nc ? 0 : 2 * gsl_rng_uniform(r) - 1);
            gsl_vector_set(w2, i, i % 2 == 0 && i / 2 < nc ? 0 : 2 * gsl_rng_uniform(r) - 1);
        }
        bad = fl_midpoint_lemma41(A, f, Bn, w1, g11, g21, NULL) || fl_midpoint_lemma41(A, f, Bn, w2, g12, g22, NULL);
    }
    if (!bad) {
        /* L1 <= ||A||_F / 0.5 (0.5 <= lambda_min(A) <= lambda_min(A_NN)), L2 = (1 + ||A||_F / 0.5) ||A||_F */
        double nA = 0;
        for (size_t i = 0; i < n * n; i++) nA += A->data[i] * A->data[i];
        nA = sqrt(nA);
        double L1 = nA / 0.5, L2 = (1 + nA / 0.5) * nA;
        gsl_vector_sub(w1, w2);
        gsl_vector_sub(g11, g12);
        gsl_vector_sub(g21, g22);
        double dw = gsl_blas_dnrm2(w1);
        *ratio = fmax(gsl_blas_dnrm2(g11) / dw / L1, gsl_blas_dnrm2(g21) / dw / L2);
    }
    gsl_matrix_free(A); gsl_matrix_free(X); gsl_matrix_free(Bn);
    gsl_vector_free(f); gsl_vector_free(w1); gsl_vector_free(w2);
    gsl_vector_free(g11); gsl_vector_free(g12); gsl_vector_free(g21); gsl_vector_free(g22);
    return bad;
}

int fl_midpoint_crosscheck(fl_check_ctx *ctx)
{
    gsl_rng *r = fl_rng_alloc(ctx->seed);
    if (!r) return -1;
    long N = ctx->systems > 0 ? ctx->systems : 200;
    fl_midpoint_xstats x = {0};
    x.nblocks = N / 10 > 3 ? N / 10 : 3;
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL) != FL_OK) { gsl_rng_free(r); return -1; }
    fl_twins_midpoint_stats tw = fl_twins_midpoint_stats_init();
    for (long sys = 0; sys < x.nblocks; sys++) {
        fl_check_progress(ctx, "midpoint blocks", sys + 1, x.nblocks);
        block_checks(r, sys, &sctx, &x, &tw);
    }
    fl_sparse_finish(&sctx);
    x.failures += tw.failures;
    x.steps = tw.steps;
    x.worst_state = fmax(tw.du, tw.dy);
    x.worst_identity = tw.identity[0];
    x.worst_friction = tw.friction[0];
    x.worst_res = fmax(tw.residual[0], tw.residual[1]);
    x.lem = N / 4 > 10 ? N / 4 : 10;
    for (long t = 0; t < x.lem; t++) {
        double ratio = 0;
        if (lemma41_one(r, &ratio)) x.lem_bad++;
        else x.worst_ratio = fmax(x.worst_ratio, ratio);
    }
    fl_midpoint_crosscheck_report(ctx, &x);
    triangle_branch_check(ctx, r, N * 5 > 2000 ? N * 5 : 2000, "midpoint.triangle_branches");
    gsl_rng_free(r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* reproduce triangle_002                                               */

int fl_midpoint_reproduce_triangle(fl_check_ctx *ctx)
{
    /* the trial run of 002 §6 (data/002/triangle_002.json): lam = mu = 1
     * (b = 1), m2 = 0 (c = 2), a = 3 */
    char file[4096];
    fl_model_triangle m;
    fl_error err;
    if (fl_check_params_path(ctx, "002/triangle_002.json", file, sizeof file) != 0) return -1;
    if (fl_model_triangle_load(file, &m, &err) != FL_OK) {
        fl_check_message(ctx, "triangle_002: %s", err.message);
        return -1;
    }
    gsl_rng *r = fl_rng_alloc(602);
    if (!r) return -1;
    fl_model_triangle_system t = m.sys;
    int G = ctx->quick ? 81 : 301;
    const double *Fs = m.F_values, lo = m.fhat_lo, wid = m.fhat_hi - m.fhat_lo;
    const char *fig[3] = {"fig3_F_below_c_over_b", "fig5_F_equal_c_over_b", "fig4_F_above_c_over_b"};
    for (int f = 0; f < 3; f++) {
        t.F = Fs[f];
        char path[4096];
        char name[128];
        snprintf(name, sizeof name, "triangle_002_%s.csv", fig[f]);
        FILE *out = NULL;
        if (fl_check_out_path(ctx, name, path, sizeof path) == 0) out = fopen(path, "w");
        if (out) fprintf(out, "fhat_nu,fhat_tau,solutions,expected\n");
        long mism = 0, counts[4] = {0}, tested = 0;
        for (int i = 0; i < G; i++) {
            fl_check_progress(ctx, fig[f], i + 1, G);
            for (int j = 0; j < G; j++) {
                double fn = lo + wid * i / (G - 1) + 1e-7, ft = lo + wid * j / (G - 1) + 1.3e-7;
                double sols[32];
                size_t ns = 0;
                fl_model_triangle_002(t.lam, t.mu, t.m1, t.m2, t.dt, t.F, t.utk, fn, ft, 8, sols, &ns, NULL);
                int nexp = 0, skip = 0;
                for (int k = 1; k <= 4; k++) {
                    int m = fl_model_triangle_region(&t, k, fn, ft, 1e-9);
                    skip |= m < 0;
                    nexp += m == 1;
                }
                if (f == 1) {   /* F = c/b: sigma5 is the half line c fn + b ft = 0, fn > -b utk */
                    skip |= fabs(t.c * fn + t.b * ft) < 1e-6;
                    if (nexp > 1) nexp = 1;
                }
                if (out) fprintf(out, "%.6g,%.6g,%zu,%d\n", fn, ft, ns, skip ? -1 : nexp);
                if (skip) continue;
                tested++;
                if ((int)ns != nexp) mism++;
                if (ns < 4) counts[ns]++;
            }
            if (out) fputc('\n', out);
        }
        if (out) fclose(out);
        fl_check_value(ctx, mism == 0 && (f != 2 || counts[3] > 0) && (f == 2 || counts[3] == 0),
                     f == 0 ? "triangle_002.unique_below_c_over_b" : f == 1 ? "triangle_002.unique_off_sigma5"
                                                                          : "triangle_002.three_in_sigma4",
                     (double)mism, 0.0, 0.0,
                     f == 0 ? "002 §6 Fig. 3 (regions sigma1-sigma4, F < c/b)" : f == 1 ? "002 §6 Fig. 5 (F = c/b)"
                                                                                    : "002 §6 Fig. 4 (F > c/b)",
                     "(a,b,c) = (3,1,2), utk = 0.3, F = %.1f: %ld grid points off the boundaries, %ld with 1 "
                     "solution, %ld with 3, %ld mismatches with the regions of 002 §6 (Figs. 3-5)",
                     t.F, tested, counts[1], counts[3], mism);
        char png[4096], script[9000];
        snprintf(name, sizeof name, "triangle_002_%s.png", fig[f]);
        if (out && fl_check_out_path(ctx, name, png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png noenhanced size 640,560\nset output '%s'\nset datafile separator ','\n"
                     "set title 'number of solutions of (23), F = %.1f, c/b = 2 (002 Fig. %d)'\n"
                     "set xlabel 'fhat_nu'\nset ylabel 'fhat_tau'\nset view map\nset cbrange [0:3]\n"
                     "set palette defined (0 'white', 1 'light-grey', 2 'orange', 3 'red')\n"
                     "splot '%s' every ::1 using 1:2:3 with pm3d notitle\n",
                     png, t.F, f == 0 ? 3 : f == 1 ? 5 : 4, path);
            fl_check_plot(ctx, script);
        }
    }
    /* S5 at F = c/b: the ends are S1 and S2 */
    {
        fl_model_triangle_system u = t;
        u.F = u.c / u.b;
        double fn = 1.1, ft = -u.c * fn / u.b, sols[32], S1[4], S2[4];
        size_t ns = 0;
        fl_model_triangle_002(u.lam, u.mu, u.m1, u.m2, u.dt, u.F, u.utk, fn, ft, 8, sols, &ns, NULL);
        fl_model_triangle_branch(&u, 1, fn, ft, S1);
        fl_model_triangle_branch(&u, 2, fn, ft, S2);
        double d1 = INFINITY, d2 = INFINITY;
        for (size_t k = 0; k < ns; k++) {
            d1 = fmin(d1, dist4(sols + 4 * k, S1));
            d2 = fmin(d2, dist4(sols + 4 * k, S2));
        }
        double d = fmax(d1, d2);
        fl_check_value(ctx, d <= 1e-8, "triangle_002.S5_ends", d, 0.0, 1e-8,
                       "002 §6 Fig. 5: S5 = [S1, S2] (closed forms, proofs/triangle_002.md)",
                       "F = c/b, fhat on sigma5: enumeration finds the ends S1 and S2 of the segment S5 (%zu points; "
                       "relative distance of the nearest to S1, S2 = %.2g, %.2g, tol 1e-8)", ns, d1, d2);
    }
    triangle_branch_check(ctx, r, ctx->quick ? 2000 : 20000, "triangle_002.branches_random");
    /* m1 = 0, m2 > 0: unique below dt0; three solutions above */
    {
        long bad = 0, trials = ctx->quick ? 20 : 200;
        double worst_margin = INFINITY;
        for (long k = 0; k < trials; k++) {
            double lam = gsl_rng_uniform(r), mu = 0.2 + gsl_rng_uniform(r), m2 = fl_rng_loguniform(r, 1e-2, 1);
            double F = (lam + 3 * mu) / (lam + mu) * (1.2 + 3 * gsl_rng_uniform(r));
            double dt0 = sqrt(8 * m2 / (F * (lam + mu) - (lam + 3 * mu)));
            for (int s = 0; s < 50; s++) {
                fl_model_triangle_system v = {lam, mu, 0, m2, 0.95 * dt0, F, 0.5 * gsl_rng_uniform(r), 0, 0, 0};
                fl_model_triangle_constants(&v);
                double sc = v.c + v.b, sols[32];
                size_t ns;
                fl_model_triangle_002(lam, mu, 0, m2, v.dt, F, v.utk, sc * (2 * gsl_rng_uniform(r) - 1),
                                         sc * (2 * gsl_rng_uniform(r) - 1), 8, sols, &ns, NULL);
                if (ns != 1) bad++;
                worst_margin = fmin(worst_margin, v.c / v.b - F);
            }
            fl_model_triangle_system w = {lam, mu, 0, m2, 1.2 * dt0, F, 0, 0, 0, 0};
            fl_model_triangle_constants(&w);
            double sols[32];
            size_t ns;
            fl_model_triangle_002(lam, mu, 0, m2, w.dt, F, 0, 1.0, -0.5 * (F + w.c / w.b), 8, sols, &ns, NULL);
            if (ns != 3) bad++;
        }
        fl_check_value(ctx, bad == 0 && worst_margin > 0, "triangle_002.normal_redistribution_dt_bound", (double)bad, 0.0,
                       0.0, "002 §6: dt0 = sqrt(8 m2/(F(lam+mu)-(lam+3mu))) [DERIVED, proofs/triangle_002.md]",
                     "m1 = 0, m2 > 0: %ld systems, unique for dt = 0.95 dt0, three solutions in Int sigma4 for "
                     "dt = 1.2 dt0, dt0 = sqrt(8 m2/(F(lam+mu)-(lam+3mu))) ([DERIVED] 002 §6); %ld failures",
                     trials, bad);
    }
    /* m2 = 0: multiple solutions whatever dt */
    {
        const double dts[] = {1, 1e-2, 1e-4, 1e-6, 1e-8};
        int bad = 0;
        for (int both = 0; both < 2; both++)
            for (int k = 0; k < 5; k++) {
                double sols[32];
                size_t ns;
                fl_model_triangle_002(1, 1, both ? 0 : 0.7, 0, dts[k], 2.5, 0, 1.0, -2.25, 8, sols, &ns, NULL);
                bad += ns != 3;
            }
        fl_check_value(ctx, bad == 0, "triangle_002.tangential_redistribution_never_unique", (double)bad, 0.0, 0.0,
                       "002 §6, last paragraph (m2 = 0: three solutions for every dt)",
                     "m2 = 0 (m1 = 0.7 or 0), F = 2.5 > c/b = 2: three solutions at fhat = (1, -2.25) for dt = 1 .. 1e-8 "
                     "(002 §6, last paragraph); %d failures", bad);
    }
    gsl_rng_free(r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* reproduce square_block_002                                           */

typedef struct series {
    size_t nt;
    double *t, *E, *Exi, *lam_tau0;   /* per output sample */
    double e0, final_drift, max_drift;
    int blew_up;
    size_t steps;                     /* steps done */
    double t_end;                     /* time reached */
} series;

static void series_free(series *s)
{
    free(s->t);
    free(s->E);
    free(s->Exi);
    free(s->lam_tau0);
}

/* The initial state [MISSING in 002; 002 §7]: the static frictionless
 * contact under the top compression, v = 0.  Computed by one sparse step
 * with F = 0 and dt = 1e6 s from rest, so that S = (4/dt^2) M_r + A = A up
 * to 4e-12 M_r: u^{1/2} is the static solution with the contact conditions
 * imposed; u0 = u^{1/2} (n entries). */
int fl_midpoint_block_static_start(const fl_midpoint_problem *p, const fl_midpoint_options *o, int steady,
                                   double *u0, size_t *open, fl_error *e)
{
    fl_midpoint_problem ps = *p;
    if (!steady) ps.mu = ps.v_found = 0.0;
    fl_midpoint_options os = *o;
    os.dt = 1e6;
    os.tol = 1e-14;
    fl_midpoint_sparse *m0 = NULL;
    fl_midpoint_state *s0 = NULL;
    int ok = fl_midpoint_alloc_sparse(&ps, &os, &m0, e) == FL_OK && fl_midpoint_state_alloc(ps.n, ps.nc, &s0, e) == FL_OK
             && fl_midpoint_step_sparse(m0, s0, NULL, e) >= 0;
    if (ok) memcpy(u0, m0->uh, ps.n * sizeof(double));
    for (size_t i = 0; ok && open && i < ps.nc; i++) *open += s0->y->data[2 * i] == 0;
    fl_midpoint_state_free(s0);
    fl_midpoint_free_sparse(m0);
    return ok ? 0 : -1;
}

/* One run of the sparse stepper from the static pre-compressed state; samples
 * every `every` steps; optional callback for the convergence study. */
typedef void (*sample_fn)(void *user, double t, const gsl_vector *u);

static int run_block(const fl_midpoint_block_params *bp, double dt, double T, fl_midpoint_contact where,
                     int every, series *out, sample_fn cb, void *user, fl_check_ctx *ctx, const char *label)
{
    memset(out, 0, sizeof *out);
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL)) return -1;
    fl_midpoint_block_sparse *b = NULL;
    fl_error e;
    if (fl_midpoint_block_alloc_sparse(&sctx, bp, 0, &b, &e)) {
        fl_check_message(ctx, "square_block_002: %s", e.message);
        fl_sparse_finish(&sctx);
        return -1;
    }
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = dt;
    o.contact = where;
    o.tol = 1e-10;
    fl_midpoint_sparse *ms = NULL;
    fl_midpoint_state *st = NULL;
    int rc = -1;
    if (fl_midpoint_alloc_sparse(&b->prob, &o, &ms, &e) || fl_midpoint_state_alloc(b->prob.n, b->prob.nc, &st, &e)) {
        fl_check_message(ctx, "square_block_002: %s", e.message);
        goto done;
    }
    if (fl_midpoint_block_static_start(&b->prob, &o, 0, st->u->data, NULL, &e)) {   /* no static state: the run would start elsewhere */
        fl_check_message(ctx, "square_block_002: initial state: %s", e.message);
        goto done;
    }
    size_t nsteps = (size_t)llround(T / dt);
    out->nt = nsteps / (size_t)every + 1;
    out->t = calloc(out->nt, sizeof(double));
    out->E = calloc(out->nt, sizeof(double));
    out->Exi = calloc(out->nt, sizeof(double));
    out->lam_tau0 = calloc(out->nt, sizeof(double));
    if (!out->t || !out->E || !out->Exi || !out->lam_tau0) goto done;
    double xi = 0;
    out->e0 = fl_midpoint_energy_sparse(ms, st->u, st->v);
    out->E[0] = out->Exi[0] = out->e0;
    if (cb) cb(user, 0.0, st->u);
    size_t j = 1;
    for (size_t k = 1; k <= nsteps; k++) {
        fl_midpoint_result res;
        if (fl_midpoint_step_sparse(ms, st, &res, NULL) < 0 || !isfinite(res.energy) || fabs(res.energy) > 1e12) {
            out->blew_up = 1;
            out->nt = j;
            break;
        }
        out->steps = k;
        out->t_end = st->t;
        xi += res.work_friction;
        double drift = fabs(res.energy - xi - out->e0);
        out->max_drift = fmax(out->max_drift, drift);
        out->final_drift = res.energy - xi - out->e0;
        if (k % (size_t)every == 0 && j < out->nt) {
            out->t[j] = st->t;
            out->E[j] = res.energy;
            out->Exi[j] = res.energy - xi;
            out->lam_tau0[j] = st->y->data[1];
            j++;
        }
        if (cb) cb(user, st->t, st->u);
        if (k % 200 == 0 || k == nsteps) fl_check_progress(ctx, label, (long)k, (long)nsteps);
    }
    rc = 0;
done:
    fl_midpoint_state_free(st);
    fl_midpoint_free_sparse(ms);
    fl_midpoint_block_free_sparse(b);
    fl_sparse_finish(&sctx);
    return rc;
}

/* Convergence study (002 §7, Table 2): u on the fine mesh at the sampling
 * times, coarse solutions interpolated (nested structured meshes). */
typedef struct conv {
    size_t nx;                 /* cells per side of this run */
    double sample_dt;          /* sampling period */
    size_t nsamples;
    double **u;                /* nsamples x 2 (nx+1)^2 full displacement */
    const fl_midpoint_block_params *bp;
    fl_fe2d_dofmap *map;
    double h_cm, dt_run;       /* element size (cm) and time step of the run (t reached / steps) */
    int ran;                   /* the run reached the end of the interval */
} conv;

static void conv_sample(void *user, double t, const gsl_vector *u)
{
    conv *c = user;
    double q = t / c->sample_dt;
    size_t k = (size_t)llround(q);
    if (fabs(q - (double)k) > 1e-6 || k >= c->nsamples) return;
    if (!c->u[k]) c->u[k] = malloc(c->map->nfull * sizeof(double));
    if (c->u[k]) fl_fe2d_expand(c->map, u->data, c->u[k]);
}

/* value of the coarse P1 field (nx cells, DIAG_RIGHT) at (x, y), component d */
static double interp(const double *u, size_t nx, double L, double x, double y, int d)
{
    double h = L / (double)nx;
    size_t i = (size_t)fmin(floor(x / h), (double)nx - 1), j = (size_t)fmin(floor(y / h), (double)nx - 1);
    double xi = x / h - (double)i, eta = y / h - (double)j;
    size_t a = j * (nx + 1) + i, b = a + 1, dd = (j + 1) * (nx + 1) + i, c = dd + 1;
    double ua = u[2 * a + d], ub = u[2 * b + d], uc = u[2 * c + d], ud = u[2 * dd + d];
    if (xi >= eta) return ua + xi * (ub - ua) + eta * (uc - ub);   /* triangle a b c */
    return ua + xi * (uc - ud) + eta * (ud - ua);                  /* triangle a c d */
}

/* The convergence study of 002 §7 (Table 2, Fig. 9), in steps: the runs
 * (conv_run_all), the errors against the reference (conv_errors), the
 * fitted orders (fl_midpoint_fitted_order), the rows and the criterion
 * (table2_rows, conv_check), the files (conv_write).  Errors are maxima
 * over [0, t_w] for CONV_WINDOWS windows t_w = T (w + 1) / CONV_WINDOWS;
 * the last window is the paper's interval (proofs/convergence_002.md). */
#define CONV_WINDOWS 5

typedef struct conv_study {
    conv runs[FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS];   /* runs[4]: the reference solution */
    int e0, nexp;                 /* experiments e0 .. nexp-1 (quick: 1-3 against 4's h, dt) */
    int iref;                     /* Table 2 row of the reference run */
    size_t ns;                    /* samples per run */
    double T, sdt;
    double eL2[FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS][CONV_WINDOWS], eH1[FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS][CONV_WINDOWS];
    double pL2[CONV_WINDOWS], pH1[CONV_WINDOWS];   /* fitted orders per window */
    int measured, rc;
} conv_study;

double fl_midpoint_fitted_order(size_t n, const double *h, const double *e)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(h[i] > 0) || !(e[i] > 0) || !isfinite(h[i]) || !isfinite(e[i])) continue;
        double x = log(h[i]), y = log(e[i]);
        sx += x; sy += y; sxx += x * x; sxy += x * y;
        used++;
    }
    double den = (double)used * sxx - sx * sx;
    if (used < 2 || !(fabs(den) > 1e-300)) return NAN;
    return ((double)used * sxy - sx * sy) / den;
}

int fl_midpoint_order_matches_fig9(size_t n, const double *eL2, const double *eH1, double pL2, double pH1)
{
    for (size_t i = 0; i < n; i++)
        if (!(eL2[i] > 0) || !(eH1[i] > 0) || (i > 0 && (!(eL2[i] < eL2[i - 1]) || !(eH1[i] < eH1[i - 1]))))
            return 0;
    return n >= 2 && pL2 >= FL_MIDPOINT_FIG9_ORDER_MIN && pL2 <= FL_MIDPOINT_FIG9_ORDER_MAX
           && pH1 >= FL_MIDPOINT_FIG9_ORDER_MIN && pH1 <= FL_MIDPOINT_FIG9_ORDER_MAX;
}

/* One row of Table 2 run with its (h, dt): mesh, dof map, sampled run. */
static int conv_run_one(fl_check_ctx *ctx, const fl_model_square_block *m, int idx, conv *c, size_t ns, double sdt,
                        double T)
{
    fl_midpoint_block_params bp = m->block;
    size_t nx = fl_model_square_block_table2_cells(m, idx);
    double dt = m->table2_dt_s[idx];
    bp.nx = bp.ny = nx;
    c->nx = nx;
    c->sample_dt = sdt;
    c->nsamples = ns;
    c->u = calloc(ns, sizeof(double *));
    fl_fe2d_mesh *mesh = NULL;
    size_t ntop = 0;
    int *top = NULL, *fix = NULL;
    double *val = NULL;
    int built = c->u && fl_fe2d_mesh_rect(0, 0, bp.lx, bp.ly, bp.nx, bp.ny, bp.pattern, &mesh, NULL) == FL_OK
                && fl_fe2d_nodes_on_line(mesh, 1, bp.ly, 1e-9 * bp.ly, &ntop, &top, NULL) == FL_OK
                && (fix = malloc(2 * ntop * sizeof(int))) && (val = malloc(2 * ntop * sizeof(double)));
    for (size_t i = 0; built && i < ntop; i++) {
        fix[2 * i] = 2 * top[i]; val[2 * i] = bp.top_ux;
        fix[2 * i + 1] = 2 * top[i] + 1; val[2 * i + 1] = bp.top_uy;
    }
    if (built) built = fl_fe2d_dofmap_alloc(2 * mesh->nnodes, 2 * ntop, fix, val, &c->map, NULL) == FL_OK;
    free(top); free(fix); free(val);
    fl_fe2d_mesh_free(mesh);
    if (!built) {   /* no run: the experiment is left out and the check FAILs (rc) */
        free(c->u);
        c->u = NULL;
        return -1;
    }
    series s;
    char label[64];
    c->h_cm = 100.0 * bp.lx / (double)bp.nx;
    snprintf(label, sizeof label, "table2 h=%.4g cm", c->h_cm);
    int rc = run_block(&bp, dt, T, FL_MIDPOINT_AT_MIDPOINT, 1000000, &s, conv_sample, c, ctx, label);
    /* the run took every step: T / dt need not be whole (1.6e-5 s into
     * 0.005 s, Experiment 1), so the time reached is within dt/2 of T */
    c->ran = !s.blew_up && s.steps > 0 && fabs(s.t_end - T) <= 0.5 * dt * (1 + 1e-9);
    c->dt_run = s.steps > 0 ? s.t_end / (double)s.steps : NAN;
    series_free(&s);
    return rc;
}

/* Table 2 (002 §7, read from the parameter file): experiments 1-4 (h = 2 ..
 * 0.25 cm, dt = 1.6e-5 .. 2e-6 s) against the reference h = 0.0625 cm,
 * dt = 5e-7 s, partial redistribution, [0, 0.005] s.  --quick: experiments
 * 1-3 against experiment 4's (h, dt) as the reference. */
static void conv_run_all(fl_check_ctx *ctx, const fl_model_square_block *m, conv_study *S)
{
    memset(S, 0, sizeof *S);
    S->e0 = 0;
    S->nexp = 4;
    S->iref = ctx->quick ? 3 : 4;
    S->T = m->table2_T;
    S->sdt = m->table2_sample_dt;
    S->ns = (size_t)llround(S->T / S->sdt) + 1;
    for (int e = S->e0; e <= S->nexp; e++) {
        if (ctx->quick && e == 3) continue;   /* experiment 4 is the quick reference */
        if (conv_run_one(ctx, m, e == S->nexp ? S->iref : e, &S->runs[e], S->ns, S->sdt, S->T)) S->rc = -1;
    }
}

/* max over [0, t_w] of the L2 norm and the H1 seminorm of u_ref - I u_e,
 * on the reference mesh (coarse P1 fields are interpolated exactly: the
 * structured meshes are nested). */
static void conv_errors(const fl_model_square_block *m, conv_study *S)
{
    const fl_midpoint_block_params *bp = &m->block;
    conv *ref = &S->runs[S->nexp];
    fl_fe2d_mesh *fm = NULL;
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    fl_fe2d_material unit = {0.0, 1.0, 1.0, FL_FE2D_PLANE_STRAIN};
    cholmod_sparse *Ms = NULL, *Ls = NULL;
    double *err = NULL, *tmp = NULL;
    size_t nf = 0;
    S->measured = ref->u && fl_fe2d_mesh_rect(0, 0, bp->lx, bp->ly, ref->nx, ref->nx, bp->pattern, &fm, NULL) == FL_OK
                  && fl_sparse_start(&sctx, NULL) == FL_OK
                  && fl_fe2d_assemble_sparse(&sctx, fm, &unit, FL_FE2D_MASS, NULL, &Ms, NULL, NULL) == FL_OK
                  && fl_fe2d_assemble_sparse(&sctx, fm, &unit, FL_FE2D_LAPLACE, NULL, &Ls, NULL, NULL) == FL_OK
                  && (nf = 2 * fm->nnodes, err = malloc(nf * sizeof(double))) && (tmp = malloc(nf * sizeof(double)));
    if (!S->measured) S->rc = -1;   /* no errors measured: the convergence check FAILs */
    for (int e = S->e0; S->measured && e < S->nexp; e++) {
        const conv *c = &S->runs[e];
        if (!c->u) continue;
        for (size_t k = 0; k < S->ns; k++) {
            if (!c->u[k] || !ref->u[k]) continue;
            for (size_t p = 0; p < fm->nnodes; p++)
                for (int d = 0; d < 2; d++)
                    err[2 * p + d] = ref->u[k][2 * p + d] - interp(c->u[k], c->nx, bp->lx, fm->xy[2 * p], fm->xy[2 * p + 1], d);
            double a = 0, b = 0;
            fl_sparse_mv(&sctx, Ms, 0, 1.0, err, 0.0, tmp, NULL);
            for (size_t i = 0; i < nf; i++) a += err[i] * tmp[i];
            fl_sparse_mv(&sctx, Ls, 0, 1.0, err, 0.0, tmp, NULL);
            for (size_t i = 0; i < nf; i++) b += err[i] * tmp[i];
            double t = S->sdt * (double)k;
            for (int w = 0; w < CONV_WINDOWS; w++)
                if (t <= S->T * (w + 1) / CONV_WINDOWS * (1 + 1e-9)) {
                    S->eL2[e][w] = fmax(S->eL2[e][w], sqrt(fmax(a, 0)));
                    S->eH1[e][w] = fmax(S->eH1[e][w], sqrt(fmax(b, 0)));
                }
        }
    }
    free(err);
    free(tmp);
    fl_sparse_free(&sctx, &Ms);
    fl_sparse_free(&sctx, &Ls);
    if (sctx.started) fl_sparse_finish(&sctx);
    fl_fe2d_mesh_free(fm);
}

/* errors of the experiments run in window w, in order of h: n of them */
static size_t conv_column(const conv_study *S, int w, double *h, double *l2, double *h1)
{
    size_t n = 0;
    for (int e = S->e0; e < S->nexp; e++) {
        if (!S->runs[e].u) continue;
        h[n] = S->runs[e].h_cm;
        l2[n] = S->eL2[e][w];
        h1[n] = S->eH1[e][w];
        n++;
    }
    return n;
}

static void conv_fit(conv_study *S)
{
    for (int w = 0; w < CONV_WINDOWS; w++) {
        double h[4], l2[4], h1[4];
        size_t n = S->measured ? conv_column(S, w, h, l2, h1) : 0;
        S->pL2[w] = fl_midpoint_fitted_order(n, h, l2);
        S->pH1[w] = fl_midpoint_fitted_order(n, h, h1);
    }
}

/* 002 §7 Table 2, row by row: each row's element size and time step as run
 * (h from the mesh built, dt = time reached / steps taken) beside the
 * paper's, and the max-in-time errors of the experiments against the
 * reference (002 Fig. 9 draws them; the paper prints no value).  runs[4]
 * is the reference solution; a row not run says why. */
static void table2_rows(fl_check_ctx *ctx, const fl_model_square_block *m, const conv_study *S)
{
    double prevL2 = NAN, prevH1 = NAN;
    for (int i = 0; i < FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS; i++) {
        const conv *c = &S->runs[i];
        char row[32], ref[96], nh[96], nd[96];
        if (i < 4) snprintf(row, sizeof row, "exp%d", i + 1);
        else snprintf(row, sizeof row, "reference");
        if (i < 4) snprintf(ref, sizeof ref, "002 §7 Table 2, Experiment %d", i + 1);
        else snprintf(ref, sizeof ref, "002 §7 Table 2, Reference solution");
        snprintf(nh, sizeof nh, "square_block_002.table2.%s.h_cm", row);
        snprintf(nd, sizeof nd, "square_block_002.table2.%s.dt_s", row);
        double ph = m->table2_h_cm[i], pd = m->table2_dt_s[i];
        if (fl_check_user_params(ctx)) {
            fl_check_note(ctx, nh, "parameters from the user's file: not compared with 002 Table 2");
            continue;
        }
        if (!c->u) {
            fl_check_note(ctx, nh, "%s (h = %g cm, dt = %g s) is a row of the full run only%s", ref, ph, pd,
                          i == 3 ? " (--quick: its h and dt give the reference solution)" : "");
            continue;
        }
        if (i == 4 && ctx->quick) {
            const char *why = "--quick computes the reference solution at experiment 4's h and dt (the paper's "
                              "h = 0.0625 cm, dt = 5e-7 s takes minutes): the paper's row is run without --quick";
            fl_check_discrepancy(ctx, nh, c->h_cm, ph, ref, why, "reference solution h = %.4g cm (paper %.4g cm)",
                                 c->h_cm, ph);
            fl_check_discrepancy(ctx, nd, c->dt_run, pd, ref, why, "reference solution dt = %.4g s (paper %.4g s)",
                                 c->dt_run, pd);
            continue;
        }
        fl_check_value(ctx, c->ran && fabs(c->h_cm - ph) <= 1e-9 * ph, nh, c->h_cm, ph, 1e-9 * ph, ref,
                       "element size of the mesh run h = %.6g cm, paper %.6g cm (difference %.2g)%s", c->h_cm, ph,
                       c->h_cm - ph, c->ran ? "" : "; the run did NOT reach the end of the interval");
        fl_check_value(ctx, c->ran && fabs(c->dt_run - pd) <= 1e-9 * pd, nd, c->dt_run, pd, 1e-9 * pd, ref,
                       "time step run (t reached / steps) %.6g s, paper %.6g s (difference %.2g)", c->dt_run, pd,
                       c->dt_run - pd);
        if (i == 4) continue;
        double eL2 = S->eL2[i][CONV_WINDOWS - 1], eH1 = S->eH1[i][CONV_WINDOWS - 1];
        char nl[96], nH[96];
        snprintf(nl, sizeof nl, "square_block_002.table2.%s.max_L2", row);
        snprintf(nH, sizeof nH, "square_block_002.table2.%s.max_H1_semi", row);
        fl_check_note(ctx, nl, "max over [0, %g s] of the L2 error against the reference solution %.4g m^2%s "
                      "(002 Fig. 9, Experiment %d: a curve, no printed value; judged by the fitted order)", S->T, eL2,
                      isnan(prevL2) ? "" : eL2 < prevL2 ? ", below the previous experiment's" : ", NOT below the "
                      "previous experiment's", i + 1);
        fl_check_note(ctx, nH, "max over [0, %g s] of the H1-seminorm error against the reference solution %.4g m%s "
                      "(002 Fig. 9, Experiment %d: judged by the fitted order)", S->T, eH1, isnan(prevH1) ? "" :
                      eH1 < prevH1 ? ", below the previous experiment's" : ", NOT below the previous experiment's",
                      i + 1);
        prevL2 = eL2;
        prevH1 = eH1;
    }
}

/* 002 §7: "Numerical convergence with an order < 1 is found" (Fig. 9, the
 * maxima over [0, 0.005 s]).  PASS iff every error is below the previous
 * experiment's and both fitted orders lie in [FL_MIDPOINT_FIG9_ORDER_MIN,
 * FL_MIDPOINT_FIG9_ORDER_MAX] (fl_midpoint_order_matches_fig9).  Otherwise
 * a FAIL, or the documented discrepancy of the parameter file with its
 * measured cause (proofs/convergence_002.md). */
static void conv_check(fl_check_ctx *ctx, const fl_model_square_block *m, const conv_study *S)
{
    int w = CONV_WINDOWS - 1;
    double h[4], l2[4], h1[4];
    size_t n = S->measured ? conv_column(S, w, h, l2, h1) : 0;
    int ok = S->rc == 0 && fl_midpoint_order_matches_fig9(n, l2, h1, S->pL2[w], S->pH1[w]);
    char detail[640], early[160];
    snprintf(early, sizeof early, "over [0, %g s]: L2 %.2f, H1-semi %.2f", S->T / CONV_WINDOWS, S->pL2[0], S->pH1[0]);
    snprintf(detail, sizeof detail,
             "%s against h = %.4g cm, dt = %g s: fitted order over [0, %g s] L2 %.2f, H1-semi %.2f; 002 §7 and "
             "Fig. 9: order < 1 (accepted: both in [%.2f, %.2f], errors decreasing); %s; errors and orders in "
             "square_block_002_table2.csv, square_block_002_table2_orders.csv",
             ctx->quick ? "experiments 1-3 (quick)" : "experiments 1-4", S->runs[S->nexp].h_cm,
             m->table2_dt_s[S->iref], S->T, S->pL2[w], S->pH1[w], FL_MIDPOINT_FIG9_ORDER_MIN,
             FL_MIDPOINT_FIG9_ORDER_MAX, early);
    const char *ref = "002 §7 Table 2 and Fig. 9 (fitted order of the max L2 error; the paper: an order < 1)";
    if (!ok && S->rc == 0 && !fl_check_user_params(ctx) && m->table2_h1_reason[0])
        fl_check_discrepancy(ctx, "square_block_002.table2_convergence", S->pL2[w], NAN, ref, m->table2_h1_reason,
                             "NOT reproduced: %s", detail);
    else
        fl_check_value(ctx, ok, "square_block_002.table2_convergence", S->pL2[w], 0.5 * (FL_MIDPOINT_FIG9_ORDER_MIN
                       + FL_MIDPOINT_FIG9_ORDER_MAX), 0.5 * (FL_MIDPOINT_FIG9_ORDER_MAX - FL_MIDPOINT_FIG9_ORDER_MIN),
                       ref, "%s", detail);
    /* control on the same runs: before the friction lifts the block off
     * the foundation (first window) the FE errors must converge: L2 order
     * >= 1, H1 order >= FL_MIDPOINT_FIG9_ORDER_MIN (the shear front launched
     * from rest carries a strain jump, which caps the H1 order of P1 at 1/2;
     * proofs/convergence_002.md) */
    n = S->measured ? conv_column(S, 0, h, l2, h1) : 0;
    int cok = S->rc == 0 && n >= 2 && S->pL2[0] >= 1.0 && S->pH1[0] >= FL_MIDPOINT_FIG9_ORDER_MIN;
    fl_check_value(ctx, cok, "square_block_002.table2_first_window_converges", S->pL2[0], 1.0, NAN,
                   "P1 finite elements (proofs/convergence_002.md): L2 order >= 1, H1 order >= 0.25 while in contact",
                   "fitted orders %s (the measuring pipeline sees convergence where there is some)", early);
}

/* square_block_002_table2.csv (errors per experiment and window),
 * square_block_002_table2_orders.csv (fitted orders per window) and their
 * gnuplot figures. */
static void conv_write(fl_check_ctx *ctx, const conv_study *S)
{
    char path[4096], opath[4096], png[4096], script[12288];
    FILE *f = NULL, *g = NULL;
    if (fl_check_out_path(ctx, "square_block_002_table2.csv", path, sizeof path) == 0) f = fopen(path, "w");
    if (f) {
        fprintf(f, "experiment,h_cm,dt_s,max_L2,max_H1_semi");
        for (int w = 0; w < CONV_WINDOWS; w++) fprintf(f, ",L2_to_%g,H1_to_%g", S->T * (w + 1) / CONV_WINDOWS, S->T * (w + 1) / CONV_WINDOWS);
        fprintf(f, "\n");
        for (int e = S->e0; S->measured && e < S->nexp; e++) {
            if (!S->runs[e].u) continue;
            fprintf(f, "%d,%g,%g,%.6e,%.6e", e + 1, S->runs[e].h_cm, S->runs[e].dt_run, S->eL2[e][CONV_WINDOWS - 1],
                    S->eH1[e][CONV_WINDOWS - 1]);
            for (int w = 0; w < CONV_WINDOWS; w++) fprintf(f, ",%.6e,%.6e", S->eL2[e][w], S->eH1[e][w]);
            fprintf(f, "\n");
        }
        fclose(f);
    }
    if (fl_check_out_path(ctx, "square_block_002_table2_orders.csv", opath, sizeof opath) == 0) g = fopen(opath, "w");
    if (g) {
        fprintf(g, "interval_end_s,order_L2,order_H1_semi,fig9_min,fig9_max\n");
        for (int w = 0; w < CONV_WINDOWS; w++)
            fprintf(g, "%g,%.4f,%.4f,%g,%g\n", S->T * (w + 1) / CONV_WINDOWS, S->pL2[w], S->pH1[w],
                    FL_MIDPOINT_FIG9_ORDER_MIN, FL_MIDPOINT_FIG9_ORDER_MAX);
        fclose(g);
    }
    if (f && fl_check_out_path(ctx, "square_block_002_table2.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png noenhanced size 640,480\nset output '%s'\nset datafile separator ','\nset logscale xy\n"
                 "set key top left\nset xlabel 'h (cm), dt = 8e-6 h'\nset ylabel 'max over [0, %g s]'\n"
                 "set title 'Convergence, partial redistribution (002 Fig. 9)'\n"
                 "plot '%s' every ::1 using 2:4 with linespoints title 'L2', '' every ::1 using 2:5 with linespoints "
                 "title 'H1 seminorm'\n", png, S->T, path);
        fl_check_plot(ctx, script);
    }
    if (g && fl_check_out_path(ctx, "square_block_002_table2_orders.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png noenhanced size 640,480\nset output '%s'\nset datafile separator ','\n"
                 "set key bottom left\nset xlabel 'end of the interval of the max (s)'\nset ylabel 'fitted order'\n"
                 "set title 'Fitted orders (002 Fig. 9: order < 1 over [0, 0.005 s])'\n"
                 "plot '%s' every ::1 using 1:2 with linespoints title 'L2', '' every ::1 using 1:3 with linespoints "
                 "title 'H1 seminorm', '' every ::1 using 1:4 with lines lc rgb 'gray' title 'accepted band', '' "
                 "every ::1 using 1:5 with lines lc rgb 'gray' notitle\n", png, opath);
        fl_check_plot(ctx, script);
    }
}

static void conv_free(conv_study *S)
{
    for (int e = 0; e < FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS; e++) {
        for (size_t k = 0; S->runs[e].u && k < S->ns; k++) free(S->runs[e].u[k]);
        free(S->runs[e].u);
        fl_fe2d_dofmap_free(S->runs[e].map);
    }
}

static int square_convergence(fl_check_ctx *ctx, const fl_model_square_block *m)
{
    conv_study S;
    conv_run_all(ctx, m, &S);
    conv_errors(m, &S);
    conv_fit(&S);
    table2_rows(ctx, m, &S);
    conv_check(ctx, m, &S);
    conv_write(ctx, &S);
    conv_free(&S);
    return S.rc;
}

/* Figs. 7-8 (002 §7): the four situations at three time steps. */
static const char *const square_sit[4] = {"standard", "normal_redistribution", "both_redistribution",
                                          "implicit_contact"};

static int energy_runs(fl_check_ctx *ctx, const fl_model_square_block *m, const fl_midpoint_block_params *bp,
                       const double *dts, series S[4][3])
{
    int rc = 0;
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 3; k++) {
            fl_midpoint_block_params p = *bp;
            p.redist = s == 1 ? FL_REDIST_NORMAL : s == 2 ? FL_REDIST_BOTH : FL_REDIST_NONE;
            char label[96];
            snprintf(label, sizeof label, "%s dt=%g", square_sit[s], dts[k]);
            int every = (int)llround(m->energy_sample_dt / dts[k]);
            if (run_block(&p, dts[k], m->T, s == 3 ? FL_MIDPOINT_IMPLICIT : FL_MIDPOINT_AT_MIDPOINT,
                          every < 1 ? 1 : every, &S[s][k], NULL, NULL, ctx, label))
                rc = -1;
        }
    return rc;
}

/* CSV: one file per situation, columns per dt */
static void energy_csv(fl_check_ctx *ctx, const fl_model_square_block *m, const double *dts, series S[4][3])
{
    for (int s = 0; s < 4; s++) {
        char name[128], path[4096];
        snprintf(name, sizeof name, "square_block_002_%s.csv", square_sit[s]);
        if (fl_check_out_path(ctx, name, path, sizeof path) != 0) continue;
        FILE *f = fopen(path, "w");
        if (!f) continue;
        fprintf(f, "t");
        for (int k = 0; k < 3; k++) fprintf(f, ",E_dt%g,E_minus_xi_dt%g", dts[k], dts[k]);
        fprintf(f, "\n");
        size_t nt = 0;
        for (int k = 0; k < 3; k++) nt = S[s][k].nt > nt ? S[s][k].nt : nt;
        for (size_t j = 0; j < nt; j++) {
            fprintf(f, "%.6g", m->energy_sample_dt * (double)j);
            for (int k = 0; k < 3; k++) {
                if (j < S[s][k].nt) fprintf(f, ",%.8g,%.8g", S[s][k].E[j], S[s][k].Exi[j]);
                else fprintf(f, ",,");
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
}

static void energy_figs(fl_check_ctx *ctx, const fl_midpoint_block_params *bp, const double *dts)
{
    char hlabel[32];
    snprintf(hlabel, sizeof hlabel, "%.4g cm", 100.0 * bp->lx / (double)bp->nx);
    for (int fig = 7; fig <= 8; fig++) {
        char png[4096], script[16384], csv[4][4096];
        char name[64];
        snprintf(name, sizeof name, "square_block_002_fig%d.png", fig);
        if (fl_check_out_path(ctx, name, png, sizeof png) != 0) continue;
        for (int s = 0; s < 4; s++) {
            char n2[128];
            snprintf(n2, sizeof n2, "square_block_002_%s.csv", square_sit[s]);
            fl_check_out_path(ctx, n2, csv[s], sizeof csv[s]);
        }
        int len = snprintf(script, sizeof script,
                           "set terminal png noenhanced size 1000,800\nset output '%s'\nset datafile separator ','\n"
                           "set multiplot layout 2,2 title '%s (002 Fig. %d), h = %s'\nset xlabel 't (s)'\n",
                           png, fig == 7 ? "Energy E(t)" : "E(t) - friction work xi(t)", fig, hlabel);
        for (int s = 0; s < 4 && len > 0 && (size_t)len < sizeof script; s++) {
            int col = fig == 7 ? 2 : 3;
            len += snprintf(script + len, sizeof script - (size_t)len,
                            "set title '%s'\n%splot '%s' every ::1 using 1:%d with lines title 'dt=%g', "
                            "'' every ::1 using 1:%d with lines title 'dt=%g', '' every ::1 using 1:%d with lines "
                            "title 'dt=%g'\nunset logscale y\n",
                            square_sit[s], s == 0 ? "set logscale y\n" : "", csv[s], col, dts[0], col + 2, dts[1],
                            col + 4, dts[2]);
        }
        if (len > 0 && (size_t)len < sizeof script) {
            strncat(script, "unset multiplot\n", sizeof script - strlen(script) - 1);
            fl_check_plot(ctx, script);
        }
    }
}

/* Fig. 10 analog: friction force density at the corner node (0, 0),
 * lambda_tau / (h/2) (half an edge of tributary length), partial and
 * whole redistribution at the smallest dt */
static void fig10(fl_check_ctx *ctx, const fl_midpoint_block_params *bp, const double *dts, series S[4][3])
{
    char path[4096], png[4096], script[9000];
    double hh = bp->lx / (double)bp->nx;
    if (fl_check_out_path(ctx, "square_block_002_fig10_friction_at_origin.csv", path, sizeof path) != 0) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "t,normal_redistribution,both_redistribution\n");
    size_t nt = S[1][2].nt < S[2][2].nt ? S[1][2].nt : S[2][2].nt;
    for (size_t j = 1; j < nt; j++)
        fprintf(f, "%.6g,%.8g,%.8g\n", S[1][2].t[j], S[1][2].lam_tau0[j] / (0.5 * hh), S[2][2].lam_tau0[j] / (0.5 * hh));
    fclose(f);
    if (fl_check_out_path(ctx, "square_block_002_fig10_friction_at_origin.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png noenhanced size 800,480\nset output '%s'\nset datafile separator ','\n"
                 "set xlabel 't (s)'\nset ylabel 'lambda_tau / (h/2) (N/m^2 per unit thickness)'\n"
                 "set title 'Friction force density at (0,0), dt = %g (002 Fig. 10)'\n"
                 "plot '%s' every ::1 using 1:2 with lines title 'normal only', '' every ::1 using 1:3 "
                 "with lines title 'both components'\n", png, dts[2], path);
        fl_check_plot(ctx, script);
    }
}

/* the paper's observations on Figs. 7-8 (002 §7) */
static void energy_checks(fl_check_ctx *ctx, int rc, const double *dts, series S[4][3])
{
    double d_std0 = S[0][0].max_drift, d_std2 = S[0][2].max_drift;
    double ratio_std = d_std2 / fmax(S[1][2].max_drift, 1e-300);
    fl_check_value(ctx, rc == 0 && d_std2 > d_std0 && ratio_std > 10, "square_block_002.standard_unstable_worse_for_small_dt",
                   ratio_std, 10.0, NAN, "002 §7 Fig. 7 (standard discretisation unstable; value: its max drift over the "
                   "partial redistribution's, at least 10)",
                   "standard discretisation: max |E - xi - E0| = %.3g J/m (dt = %g) -> %.3g (dt = %g), %.0fx the "
                   "partial redistribution's (002 §7, Fig. 7)", d_std0, dts[0], d_std2, dts[2], ratio_std);
    for (int s = 1; s <= 2; s++) {
        char name[96];
        snprintf(name, sizeof name, "square_block_002.%s_stable_and_converging", square_sit[s]);
        /* 002 Fig. 8 claims a limit (conservation as dt -> 0) with no
         * rate: checked as a decrease at each of the three dt, the
         * observed order reported */
        double d0 = fabs(S[s][0].final_drift), d1 = fabs(S[s][1].final_drift), d2 = fabs(S[s][2].final_drift);
        int ok = !S[s][0].blew_up && !S[s][1].blew_up && !S[s][2].blew_up && d1 < d0 && d2 < d1
                 && S[s][2].max_drift < S[0][2].max_drift;
        double ratio = d2 / fmax(d0, 1e-300);
        fl_check_value(ctx, ok, name, ratio, 1.0, NAN,
                       "002 §7 Fig. 8 (stable; value: |E - xi - E0| at T for the smallest dt over the largest dt's, "
                       "below 1, decreasing at each dt)",
                       "|E - xi - E0| at T: %.3g (dt = %g) -> %.3g (dt = %g) -> %.3g (dt = %g), decreasing at each dt "
                       "(observed order %.2f): energy conservation approached as dt -> 0 (002 §7, Fig. 8)",
                       d0, dts[0], d1, dts[1], d2, dts[2], log(d2 / d0) / log(dts[2] / dts[0]));
    }
    /* implicit contact forces: stable and dissipative at every dt; the
     * paper's trend (more dissipation for smaller dt) is checked at the
     * paper's h = 0.5 cm (full run): at h = 1 cm (--quick) it is not
     * monotone (observed, reported in the detail) */
    int implicit_ok = !S[3][0].blew_up && !S[3][2].blew_up && S[3][0].final_drift < 0 && S[3][1].final_drift < 0
                      && S[3][2].final_drift < 0 && (ctx->quick || S[3][2].final_drift < S[3][0].final_drift);
    fl_check_value(ctx, implicit_ok, ctx->quick ? "square_block_002.implicit_stable_dissipative"
                                                : "square_block_002.implicit_dissipates_more_for_small_dt",
                   S[3][2].final_drift, 0.0, NAN,
                   "002 §7 Fig. 8 (implicit contact forces dissipate: E - xi - E0 at T below 0, smallest dt)",
                   "implicit contact forces: E - xi - E0 at T = %.3g (dt = %g), %.3g (dt = %g), %.3g (dt = %g) J/m: "
                   "stable, dissipative%s (002 §7, Fig. 8)", S[3][0].final_drift, dts[0], S[3][1].final_drift, dts[1],
                   S[3][2].final_drift, dts[2], ctx->quick ? " (trend in dt checked at h = 0.5 cm only)" : ", more so for smaller dt");
}

/* Fig. 6: deformed mesh at t = fig6.t_s (0.01 s), partial redistribution */
static void fig6_vtk(fl_check_ctx *ctx, const fl_model_square_block *m, const fl_midpoint_block_params *bp)
{
    fl_midpoint_block *b = NULL;
    fl_midpoint_block_params p = *bp;
    int ok = 0;   /* a snapshot that could not be computed or written is a FAIL */
    if (fl_midpoint_block_alloc(&p, &b, NULL) == FL_OK) {
        fl_midpoint_options o = fl_midpoint_options_default();
        o.dt = m->fig6_dt;
        o.tol = 1e-10;
        fl_midpoint *mp = NULL;
        fl_midpoint_state *st = NULL;
        double *full = malloc(2 * b->mesh->nnodes * sizeof(double));
        if (full && fl_midpoint_alloc(&b->prob, &o, &mp, NULL) == FL_OK &&
            fl_midpoint_state_alloc(b->prob.n, b->prob.nc, &st, NULL) == FL_OK) {
            int stepped = fl_midpoint_static(&b->prob, st->u, NULL) >= 0;
            long nk = lround(m->fig6_t / m->fig6_dt);
            for (long k = 0; k < nk && stepped; k++) stepped = fl_midpoint_step(mp, st, NULL, NULL) >= 0;
            fl_fe2d_expand(b->map, st->u->data, full);
            char path[4096];
            if (stepped && fl_check_out_path(ctx, "square_block_002_t0.01.vtk", path, sizeof path) == 0)
                ok = fl_fe2d_write_vtk(path, b->mesh, full, m->fig6_scale, NULL, NULL, NULL) == FL_OK;
        }
        free(full);
        fl_midpoint_state_free(st);
        fl_midpoint_free(mp);
        fl_midpoint_block_free(b);
    }
    /* Writing the file compares nothing with 002 Fig. 6: a NOTE (issue 30
     * audit, proofs/weak_criteria.md); only a failure to write is a FAIL. */
    if (ok)
        fl_check_note(ctx, "square_block_002.fig6_vtk",
                      "deformed mesh at t = %g s (displacement x%g) written as legacy VTK for a person to compare "
                      "with 002 Fig. 6 (nothing is compared)", m->fig6_t, m->fig6_scale);
    else
        fl_check_report(ctx, 0, "square_block_002.fig6_vtk",
                        "deformed mesh at t = %g s (displacement x%g) NOT written as legacy VTK (002 Fig. 6)",
                        m->fig6_t, m->fig6_scale);
}

int fl_midpoint_reproduce_square_block(fl_check_ctx *ctx)
{
    char file[4096];
    fl_model_square_block m;
    fl_midpoint_block_params bp;
    fl_error err;
    if (fl_check_params_path(ctx, "002/square_block_002.json", file, sizeof file) != 0) return -1;
    if (fl_model_square_block_load(file, &m, &err) != FL_OK
        || fl_model_square_block_params(&m, ctx->quick ? m.h_quick : m.h, &bp, &err) != FL_OK) {
        fl_check_message(ctx, "square_block_002: %s", err.message);
        return -1;
    }
    const double *dts = ctx->quick ? m.dt_energy_quick : m.dt_energy;
    series S[4][3];
    int rc = energy_runs(ctx, &m, &bp, dts, S);
    energy_csv(ctx, &m, dts, S);
    energy_figs(ctx, &bp, dts);
    fig10(ctx, &bp, dts, S);
    energy_checks(ctx, rc, dts, S);
    fig6_vtk(ctx, &m, &bp);
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 3; k++) series_free(&S[s][k]);
    if (square_convergence(ctx, &m) != 0) return -1;
    return rc;
}
