/* test_newton_corpus.c — the library's solvers on the 25 real problem files
 * of tests/data/siconos/ (written by Siconos and LMGC90; listed in
 * sizes.tsv), both twins:
 *   - the dispatcher's `auto` and the semismooth Newton method (Alart &
 *     Curnier 1991, §3; reference/newton.h), each with the optimized
 *     (sparse) and the reference (dense) twin, reach a natural-map error
 *     <= 1e-8 on every file with contacts.  Siconos 4.4 converges on 24 of
 *     them by NSGS or NSN (corpus README: every file except
 *     FC2D_SliderCrankLagrangian00000, where its fc2d NSGS stops at 1.9e-6
 *     and NSN is 3D only); ours converge on all 25.  The reference is fast
 *     enough on all of them (about 10 s in all, Capsules-i122 the slowest:
 *     29 Newton steps on a dense 888 x 888 LU).
 *   - Issue 15's twin agreement: each twin's answer is judged by code it
 *     does not share: U is recomputed from the OTHER twin's reading of the
 *     file (dense W or M, H by GSL for the sparse twin; sparse Ws or Ms, Hs
 *     by CHOLMOD for the dense twin), the natural-map error by the
 *     projection on the Coulomb cone written below (not core/fl_residual.c),
 *     and, for the 3D local Siconos text files, by Siconos's own
 *     fc3d_compute_error on the problem as Siconos's reader loads it.  On a
 *     global problem M v = f + H^T r is checked as well.
 *   - Equal answers are asserted where they are known to be the same: the
 *     contact-free gfc2d file (v = M^-1 f, unique since M is SPD: GSL's
 *     Cholesky on the dense M against CHOLMOD on the sparse M), and
 *     FC2D_SliderCrankLagrangian00000 (2D, 2 contacts), where both twins'
 *     r must be the same isolated solution of the exhaustive enumeration of
 *     reference/enumerate.h (an oracle sharing no code with Newton).
 *     Uniqueness is established for no other file: W is rank-deficient on
 *     BoxesStack1 and the Capsules (more contact rows than body velocities),
 *     on SliderCrank (its two tangent rows are equal: the stick-stick
 *     system is singular) and on the global files with more contact rows
 *     than velocities, and no uniqueness theorem covers the others' mu and
 *     W.  There two different r that both satisfy the law are both right:
 *     each twin's answer is judged (above), the difference is logged.
 * The independent error is allowed 10% over the solvers' 1e-8 for rounding
 * (U recomputed from another storage, another summation order).
 * The proximal-point method (reference/ppa.h) is judged the same way. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "FrictionContactProblem.h"
#include "SolverOptions.h"
#include "Friction_cst.h"
#include "fc3d_compute_error.h"

#include "fl_dense.h"
#include "fl_fclib.h"
#include "fl_siconos_text.h"
#include "reference/enumerate.h"
#include "drivers/solve.h"
#include "corpus_path.h"

#define TOL 1e-8
#define JUDGE_TOL 1.1e-8

/* The corpus: every row of sizes.tsv (name, local or global). */
typedef struct corpus_file {
    char name[128];
    int global;
    size_t nc;
} corpus_file;

static size_t corpus_list(corpus_file *out, size_t cap)
{
    char path[1024], line[512];
    corpus_path(path, sizeof path, "sizes.tsv");
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t k = 0;
    while (k < cap && fgets(line, sizeof line, f)) {
        char kind[16];
        int dim;
        size_t n;
        if (line[0] == '#' ||
            sscanf(line, "%127s %15s %zu %d %zu", out[k].name, kind, &out[k].nc, &dim, &n) != 5)
            continue;
        out[k].global = strcmp(kind, "global") == 0;
        k++;
    }
    fclose(f);
    cr_assert_eq(k, 25, "sizes.tsv lists %zu files, want 25", k);
    return k;
}

/* Our readers: dense = 1 gives the reference twin's storage (W or M, H),
 * dense = 0 the optimized twin's (Ws or Ms, Hs). */
static void read_file(const char *name, int global, int dense, fl_sparse_ctx *ctx,
                      fl_local_problem **p, fl_global_problem **g)
{
    char path[1024];
    corpus_path(path, sizeof path, name);
    fl_error err;
    fl_sparse_ctx *c = dense ? NULL : ctx;
    int fclib = corpus_is_fclib(name);
    *p = NULL;
    *g = NULL;
    fl_status s = global ? (fclib ? fl_fclib_read_global(path, dense, c, g, &err)
                                  : fl_siconos_text_read_global(path, dense, c, NULL, g, &err))
                         : (fclib ? fl_fclib_read_local(path, dense, c, p, &err)
                                  : fl_siconos_text_read_local(path, dense, c, NULL, p, &err));
    cr_assert_eq(s, FL_OK, "%s (%s): %s", name, dense ? "dense" : "sparse", err.message);
}

/* Projection on the Coulomb cone {|t| <= mu n} (dim 2 or 3), written here
 * apart from core/ (the standard second-order-cone projection). */
static void cone_project(int dim, double mu, const double *y, double *p)
{
    double nt = dim == 2 ? fabs(y[1]) : hypot(y[1], y[2]);
    if (y[0] >= 0 && nt <= mu * y[0]) {
        for (int k = 0; k < dim; k++) p[k] = y[k];
    } else if (mu * nt <= -y[0]) {
        for (int k = 0; k < dim; k++) p[k] = 0.0;
    } else {
        double s = (y[0] + mu * nt) / (1.0 + mu * mu);
        p[0] = s;
        for (int k = 1; k < dim; k++) p[k] = mu * s * y[k] / nt;
    }
}

/* sqrt(sum_a |r_a - P_K(r_a - U_a - mu |U_T| e_N)|^2) / ||q||, or / 1 when
 * ||q|| <= DBL_EPSILON (the convention of FCLIB's and Siconos's errors). */
static double judge_error(int dim, size_t nc, const double *mu, const double *r, const double *U,
                          double normq)
{
    double s = 0;
    for (size_t a = 0; a < nc; a++) {
        const double *ra = r + dim * a, *Ua = U + dim * a;
        double ut = dim == 2 ? fabs(Ua[1]) : hypot(Ua[1], Ua[2]), y[3] = {0, 0, 0}, pr[3];
        y[0] = ra[0] - (Ua[0] + mu[a] * ut);
        for (int k = 1; k < dim; k++) y[k] = ra[k] - Ua[k];
        cone_project(dim, mu[a], y, pr);
        for (int k = 0; k < dim; k++) s += (ra[k] - pr[k]) * (ra[k] - pr[k]);
    }
    /* fc2d_granularflowonwall_00667_00000: ||q|| ~ 4e-18, the error is absolute */
    return sqrt(s) / (normq > DBL_EPSILON ? normq : 1.0);
}

/* U = W r + q with the other twin's storage of the local problem o. */
static double judge_local(const fl_local_problem *o, const gsl_vector *r)
{
    gsl_vector *U = gsl_vector_alloc(o->m);
    gsl_vector_memcpy(U, o->q);
    if (o->W) {
        gsl_blas_dgemv(CblasNoTrans, 1.0, o->W, r, 1.0, U);
    } else {
        cr_assert_eq(fl_sparse_mv(o->ctx, o->Ws, 0, 1.0, r->data, 1.0, U->data, NULL), FL_OK);
    }
    double e = judge_error(o->dim, o->nc, o->mu, r->data, U->data, gsl_blas_dnrm2(o->q));
    gsl_vector_free(U);
    return e;
}

/* Global problem o (other twin's storage): |M v - f - H^T r| relative, and
 * the natural-map error of (r, H v + w) normalised by q = H M^-1 f + w. */
static double judge_global(const fl_global_problem *o, const gsl_vector *v, const gsl_vector *r,
                           double *balance)
{
    size_t n = o->n, m = o->m;
    gsl_vector *Mv = gsl_vector_calloc(n), *rhs = gsl_vector_alloc(n), *U = gsl_vector_alloc(m);
    gsl_vector *y = gsl_vector_alloc(n), *q = gsl_vector_alloc(m);
    gsl_vector_memcpy(rhs, o->f);
    gsl_vector_memcpy(U, o->w);
    gsl_vector_memcpy(q, o->w);
    if (o->M) {
        gsl_blas_dsymv(CblasUpper, 1.0, o->M, v, 0.0, Mv);
        gsl_blas_dgemv(CblasTrans, 1.0, o->H, r, 1.0, rhs);
        gsl_blas_dgemv(CblasNoTrans, 1.0, o->H, v, 1.0, U);
        fl_spd *spd = NULL;
        cr_assert_eq(fl_spd_alloc(o->M, &spd, NULL), FL_OK);
        cr_assert_eq(fl_spd_solve(spd, o->f, y), FL_OK);
        fl_spd_free(spd);
        gsl_blas_dgemv(CblasNoTrans, 1.0, o->H, y, 1.0, q);
    } else {
        const cholmod_sparse *H = o->Hs;   /* rhs += H^T r, column by column of H */
        const int *Hp = H->p, *Hi = H->i;
        const double *Hx = H->x;
        for (size_t j = 0; j < H->ncol; j++)
            for (int k = Hp[j]; k < Hp[j + 1]; k++) rhs->data[j] += Hx[k] * r->data[Hi[k]];
        cr_assert_eq(fl_sparse_mv(o->ctx, o->Ms, 0, 1.0, v->data, 0.0, Mv->data, NULL), FL_OK);
        cr_assert_eq(fl_sparse_mv(o->ctx, o->Hs, 0, 1.0, v->data, 1.0, U->data, NULL), FL_OK);
        cholmod_factor *L = NULL;
        cr_assert_eq(fl_sparse_factor(o->ctx, o->Ms, &L, NULL), FL_OK);
        cr_assert_eq(fl_sparse_solve(o->ctx, L, o->f->data, y->data, NULL), FL_OK);
        fl_sparse_free_factor(o->ctx, &L);
        cr_assert_eq(fl_sparse_mv(o->ctx, o->Hs, 0, 1.0, y->data, 1.0, q->data, NULL), FL_OK);
    }
    double d = 0, sc = 0;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(Mv->data[i] - rhs->data[i]));
        sc = fmax(sc, fabs(rhs->data[i]));
    }
    *balance = d / (sc > 0 ? sc : 1.0);
    double e = judge_error(o->dim, o->nc, o->mu, r->data, U->data, gsl_blas_dnrm2(q));
    gsl_vector *vecs[] = {Mv, rhs, U, y, q};
    for (int k = 0; k < 5; k++) gsl_vector_free(vecs[k]);
    return e;
}

/* Siconos's fc3d_compute_error at r on the problem as Siconos reads it. */
static double siconos_error(const char *name, const double *r, size_t m)
{
    char path[1024];
    corpus_path(path, sizeof path, name);
    FrictionContactProblem *sp = frictionContact_new_from_filename(path);
    cr_assert_not_null(sp, "Siconos cannot read %s", path);
    cr_assert_eq((size_t)(sp->dimension * sp->numberOfContacts), m, "%s", name);
    double *w = calloc(m, sizeof *w), e = NAN, nq = 0;
    for (size_t i = 0; i < m; i++) nq += sp->q[i] * sp->q[i];
    SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    fc3d_compute_error(sp, (double *)r, w, 1e-300, o, sqrt(nq), &e);
    solver_options_delete(o);
    free(o);
    free(w);
    frictionContactProblem_free(sp);
    return e;
}

/* Solve file f with the twin `dense` (1: reference) and solver kind, judge
 * the answer with the other twin's reading; r (length m) and v (length n,
 * global) returned for the agreement test. */
static void solve_and_judge(const corpus_file *f, int dense, fl_solver_kind kind,
                            fl_sparse_ctx *ctx, gsl_vector **r_out, gsl_vector **v_out)
{
    fl_local_problem *p, *op;
    fl_global_problem *g, *og;
    read_file(f->name, f->global, dense, ctx, &p, &g);
    read_file(f->name, f->global, !dense, ctx, &op, &og);
    const char *twin = dense ? "reference" : "optimized";
    fl_solve_options o = fl_solve_options_default();
    o.solver = kind;
    o.impl = dense ? FL_IMPL_REFERENCE : FL_IMPL_OPTIMIZED;
    o.tol = TOL;
    o.norm = FL_RESIDUAL_NORM_Q;
    fl_solve_result res;
    fl_error err;
    size_t m = p ? p->m : g->m;
    gsl_vector *r = gsl_vector_alloc(m), *v = NULL;
    double e, balance = 0;
    if (p) {
        fl_status s = fl_solve_local(p, &o, r, NULL, &res, &err);
        cr_assert_eq(s, FL_OK, "%s (%s, %s): status %d, error %.3g after %d sweeps + %d Newton "
                     "steps (%s)", f->name, twin, fl_solve_solver_name(kind), s, res.residual,
                     res.gs_sweeps, res.newton_steps, fl_solve_stop_name(res.stop));
        e = judge_local(op, r);
        if (p->dim == 3 && !corpus_is_fclib(f->name)) {
            double es = siconos_error(f->name, r->data, m);
            cr_assert_leq(es, JUDGE_TOL, "%s (%s, %s): Siconos's fc3d_compute_error %.3g",
                          f->name, twin, fl_solve_solver_name(kind), es);
        }
    } else {
        v = gsl_vector_alloc(g->n);
        fl_status s = fl_solve_global(g, &o, v, r, NULL, &res, &err);
        cr_assert_eq(s, FL_OK, "%s (%s, %s): status %d, error %.3g after %d Newton steps (%s)",
                     f->name, twin, fl_solve_solver_name(kind), s, res.residual,
                     res.newton_steps, fl_solve_stop_name(res.stop));
        e = judge_global(og, v, r, &balance);
        cr_assert_leq(balance, 1e-9, "%s (%s): |M v - f - H^T r| / |f + H^T r| = %.3g", f->name,
                      twin, balance);
    }
    cr_assert_leq(e, JUDGE_TOL, "%s (%s, %s): error %.3g by the other twin's storage and an "
                  "independent natural map (solver said %.3g)", f->name, twin,
                  fl_solve_solver_name(kind), e, res.residual);
    cr_log_info("%s %s %s: %d sweeps + %d Newton steps, %.3f s, error %.2e", f->name, twin,
                fl_solve_solver_name(kind), res.gs_sweeps, res.newton_steps, res.seconds, e);
    fl_local_problem_free(p);
    fl_local_problem_free(op);
    fl_global_problem_free(g);
    fl_global_problem_free(og);
    *r_out = r;
    if (v_out) *v_out = v;
    else if (v) gsl_vector_free(v);
}

static void every_file(int dense)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    corpus_file files[32];
    size_t nf = corpus_list(files, 32);
    int solved = 0;
    for (size_t k = 0; k < nf; k++) {
        if (files[k].nc == 0) continue;   /* nothing to iterate: twins_agree */
        for (int kind = FL_SOLVER_NEWTON; kind <= FL_SOLVER_AUTO; kind++) {
            gsl_vector *r;
            solve_and_judge(&files[k], dense, (fl_solver_kind)kind, &ctx, &r, NULL);
            gsl_vector_free(r);
            solved++;
        }
    }
    cr_assert_eq(solved, 2 * 24, "solved %d runs", solved);
    fl_sparse_finish(&ctx);
}

Test(newton_corpus, optimized_converges_on_every_file, .timeout = 120)
{
    every_file(0);
}

Test(newton_corpus, reference_converges_on_every_file, .timeout = 120)
{
    every_file(1);
}

/* The proximal-point method (reference/ppa.h, --solver ppa) at 1e-8,
 * judged as above: the optimized twin on every file with contacts, the
 * reference on the files of at most 60 contacts (a quick subset: its dense
 * LU makes the larger ones take seconds each: Capsules-i122 16 s). */
Test(newton_corpus, ppa_converges_on_every_file, .timeout = 180)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    corpus_file files[32];
    size_t nf = corpus_list(files, 32);
    int solved = 0;
    for (size_t k = 0; k < nf; k++) {
        if (files[k].nc == 0) continue;
        for (int dense = 0; dense <= (files[k].nc <= 60); dense++) {
            gsl_vector *r;
            solve_and_judge(&files[k], dense, FL_SOLVER_PPA, &ctx, &r, NULL);
            gsl_vector_free(r);
            solved++;
        }
    }
    cr_assert_geq(solved, 24, "solved %d runs", solved);
    fl_sparse_finish(&ctx);
}

Test(newton_corpus, twins_agree, .timeout = 60)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    corpus_file files[32];
    size_t nf = corpus_list(files, 32), compared = 0;
    for (size_t k = 0; k < nf; k++) {
        const corpus_file *f = &files[k];
        if (f->nc == 0) {
            /* no contact: v = M^-1 f, unique (M SPD); GSL Cholesky of the
             * dense M against CHOLMOD on the sparse M */
            fl_local_problem *p;
            fl_global_problem *gd, *gs;
            read_file(f->name, 1, 1, &ctx, &p, &gd);
            read_file(f->name, 1, 0, &ctx, &p, &gs);
            gsl_vector *vd = gsl_vector_alloc(gd->n), *vs = gsl_vector_alloc(gs->n);
            fl_spd *spd = NULL;
            cr_assert_eq(fl_spd_alloc(gd->M, &spd, NULL), FL_OK);
            cr_assert_eq(fl_spd_solve(spd, gd->f, vd), FL_OK);
            fl_spd_free(spd);
            cholmod_factor *L = NULL;
            cr_assert_eq(fl_sparse_factor(&ctx, gs->Ms, &L, NULL), FL_OK);
            cr_assert_eq(fl_sparse_solve(&ctx, L, gs->f->data, vs->data, NULL), FL_OK);
            fl_sparse_free_factor(&ctx, &L);
            double d = 0, nv = 0;
            for (size_t i = 0; i < gd->n; i++) {
                d = fmax(d, fabs(vd->data[i] - vs->data[i]));
                nv = fmax(nv, fabs(vd->data[i]));
            }
            cr_assert_leq(d, 1e-10 * nv, "%s: v differs by %g (|v| %g)", f->name, d, nv);
            gsl_vector_free(vd);
            gsl_vector_free(vs);
            fl_global_problem_free(gd);
            fl_global_problem_free(gs);
            compared++;
            continue;
        }
        gsl_vector *r[2], *v[2] = {NULL, NULL};
        for (int dense = 0; dense < 2; dense++)
            solve_and_judge(f, dense, FL_SOLVER_NEWTON, &ctx, &r[dense], &v[dense]);
        if (!f->global && strcmp(f->name, "FC2D_SliderCrankLagrangian00000.dat") == 0) {
            fl_local_problem *p, *unused;
            fl_global_problem *g;
            read_file(f->name, 0, 1, &ctx, &p, &g);
            fl_enumerate_result *en = NULL;
            cr_assert_eq(fl_enumerate_solutions(p, 1e-9, &en, NULL), FL_OK);
            cr_assert_geq(en->nsol, 1, "%s: no isolated solution enumerated", f->name);
            /* both twins found the same isolated solution of the enumeration
             * (W has rank 3: its two tangent rows are equal, so the
             * stick-stick system is singular and uniqueness is not claimed) */
            long at[2];
            for (int dense = 0; dense < 2; dense++) {
                at[dense] = fl_enumerate_find(en, r[dense]->data, 1e-6);
                cr_assert_geq(at[dense], 0, "%s: the %s twin's r is not an enumerated solution",
                              f->name, dense ? "dense" : "sparse");
            }
            cr_assert_eq(at[0], at[1], "%s: the twins found different solutions", f->name);
            cr_log_info("%s: %zu isolated solution(s), %zu singular assignment(s); both twins "
                        "on solution %ld", f->name, en->nsol, en->singular, at[0]);
            fl_enumerate_result_free(en);
            fl_local_problem_free(p);
            (void)unused;
            (void)g;
            compared++;
        }
        double d = 0, nr = 0;
        for (size_t i = 0; i < r[0]->size; i++) {
            d = fmax(d, fabs(r[0]->data[i] - r[1]->data[i]));
            nr = fmax(nr, fabs(r[0]->data[i]));
        }
        cr_log_info("%s: twins' r differ by %.2e (|r| %.2e); both satisfy the law (above), "
                    "uniqueness not established, equality not asserted", f->name, d, nr);
        for (int dense = 0; dense < 2; dense++) {
            gsl_vector_free(r[dense]);
            if (v[dense]) gsl_vector_free(v[dense]);
        }
    }
    cr_assert_eq(compared, 2, "compared %zu files", compared);
    fl_sparse_finish(&ctx);
}
