/* stewart_checks.c — `frictionlab crosscheck --law stewart` and
 * `frictionlab reproduce painleve_p5`.
 *
 * crosscheck: Lemke (reference/lemke.c) on random LCPs of three families,
 * verified by the natural map and compared with the enumeration of all
 * complementary bases (reference/lcp_enumerate.c) — Siconos is not linked
 * into the command; tests/test_siconos_lemke.c does that comparison;
 * Stewart–Trinkle steps (reference/stewart_law.c, optimized/
 * stewart_law_sparse.c) on random systems: Coulomb's law on the real-world
 * impulses, momentum balance, reference vs optimized, Lemke vs enumeration;
 * the Painlevé bar closed forms of 001 §6.2.
 *
 * reproduce painleve_p5: time stepping of the Painlevé bar under P5 with the
 * parameters of data/001/painleve_p5.json; CSV + PNG of xdot(t).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "checks/stewart_checks.h"
#include "testkit/fl_random.h"
#include "testkit/fl_lcp_random.h"
#include "fl_dense.h"
#include "fl_json.h"
#include "fl_rng.h"
#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "reference/stewart_law.h"
#include "models/fl_model_painleve.h"
#include "checks/fl_tasks.h"
#include "optimized/stewart_law_sparse.h"
#include "fl_scalar.h"


/* ------------------------------------------------------------------ */
/* Lemke                                                                */
/* ------------------------------------------------------------------ */

/* An n x n LCP (M, q) and its unknown z: 0, or -1 with nothing allocated
 * (every check below then reports FL_ENOMEM as its status, a FAIL). */
static void lcp_free(gsl_matrix *M, gsl_vector *q, gsl_vector *z)
{
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
}

static int lcp_alloc(size_t n, gsl_matrix **M, gsl_vector **q, gsl_vector **z)
{
    *M = fl_dense_matrix_alloc(n, n);
    *q = fl_dense_vector_alloc(n);
    *z = fl_dense_vector_alloc(n);
    if (*M && *q && *z) return 0;
    lcp_free(*M, *q, *z);
    *M = NULL;
    *q = *z = NULL;
    return -1;
}

static void check_lemke_small(fl_check_ctx *ctx)
{
    gsl_matrix *M;
    gsl_vector *q, *z;
    fl_status s = FL_ENOMEM;
    double e = INFINITY;
    if (lcp_alloc(2, &M, &q, &z) == 0) {
        gsl_matrix_set(M, 0, 0, 2);
        gsl_matrix_set(M, 0, 1, 1);
        gsl_matrix_set(M, 1, 0, 1);
        gsl_matrix_set(M, 1, 1, 2);
        gsl_vector_set(q, 0, -5);
        gsl_vector_set(q, 1, -6);
        s = fl_lemke_solve(M, q, z, NULL, NULL, NULL, NULL);
        if (s == FL_OK)
            e = fmax(fabs(gsl_vector_get(z, 0) - 4.0 / 3.0), fabs(gsl_vector_get(z, 1) - 7.0 / 3.0));
        lcp_free(M, q, z);
    }
    fl_check_value(ctx, s == FL_OK && e <= 1e-14, "lemke.closed_form_2x2", e, 0.0, 1e-14,
                   "closed form z = M^-1 (5, 6) (proofs/stewart_lcp.md §6)",
                   "M=[2 1;1 2], q=(-5,-6): |z - (4/3,7/3)| = %.2e (closed form M^-1(5,6), tol 1e-14)", e);

    /* rays: M=[-1], q=[-1]; M=[1 -1;-1 1], q=(-1,-1) (w1 + w2 = -2 < 0) */
    fl_status s1 = FL_ENOMEM, s2 = FL_ENOMEM, s3 = FL_ENOMEM;
    if (lcp_alloc(1, &M, &q, &z) == 0) {
        gsl_matrix_set(M, 0, 0, -1);
        gsl_vector_set(q, 0, -1);
        s1 = fl_lemke_solve(M, q, z, NULL, NULL, NULL, NULL);
        lcp_free(M, q, z);
    }
    if (lcp_alloc(2, &M, &q, &z) == 0) {
        gsl_matrix_set(M, 0, 0, 1);
        gsl_matrix_set(M, 0, 1, -1);
        gsl_matrix_set(M, 1, 0, -1);
        gsl_matrix_set(M, 1, 1, 1);
        gsl_vector_set_all(q, -1);
        s2 = fl_lemke_solve(M, q, z, NULL, NULL, NULL, NULL);
        fl_lemke_options o = fl_lemke_options_default();
        o.max_pivots = 1;
        gsl_matrix_set(M, 0, 1, 1);
        gsl_matrix_set(M, 1, 0, 1);
        gsl_matrix_set(M, 0, 0, 2);
        gsl_matrix_set(M, 1, 1, 2);
        s3 = fl_lemke_solve(M, q, z, NULL, &o, NULL, NULL);
        lcp_free(M, q, z);
    }
    /* genuinely boolean: the status returned on an LCP without solution / at the pivot limit */
    fl_check_report(ctx, s1 == FL_ERAY && s2 == FL_ERAY, "lemke.ray_on_infeasible",
                    "M=[-1],q=[-1] -> %s; M=[1 -1;-1 1],q=(-1,-1) -> %s (no solution exists, expect FL_ERAY)",
                    fl_strerror(s1), fl_strerror(s2));
    fl_check_report(ctx, s3 == FL_WMAXITER, "lemke.pivot_limit",
                    "max_pivots = 1 on a 2x2 needing 3 pivots -> %s (expect FL_WMAXITER)", fl_strerror(s3));
}

static void check_lemke_family(fl_check_ctx *ctx, gsl_rng *rng, fl_lcp_family fam, const char *name)
{
    long N = ctx->systems, bad = 0, nonunique = 0, notbasic = 0;
    double worst = 0.0, diff = 0.0;
    for (long t = 0; t < N; t++) {
        size_t n = 1 + gsl_rng_uniform_int(rng, 8);
        gsl_matrix *M;
        gsl_vector *q, *z;
        if (lcp_alloc(n, &M, &q, &z) != 0) {
            bad++;
            continue;
        }
        if (fl_lcp_random(rng, fam, (int)(t % 2), M, q, NULL) != FL_OK) {
            bad++;
            lcp_free(M, q, z);
            continue;
        }
        fl_lemke_result r;
        int solved = fl_lemke_solve(M, q, z, NULL, NULL, &r, NULL) == FL_OK;
        if (!solved) bad++;
        else worst = fmax(worst, r.residual);
        fl_lcp_solutions *all = NULL;
        if (!solved) {
            /* no answer to compare with the enumeration */
        } else if (fl_lcp_enumerate(M, q, NULL, &all, NULL, NULL) != FL_OK) {
            bad++;
        } else {
            if (fam != FL_LCP_COPOSITIVE_PLUS && all->count != 1) nonunique++;
            double best = INFINITY;
            for (size_t k = 0; k < all->count; k++) {
                double d = 0.0;
                for (size_t j = 0; j < n; j++) d = fmax(d, fabs(all->z[k * n + j] - gsl_vector_get(z, j)));
                best = fmin(best, d);
            }
            if (!(best <= 1e-7)) notbasic++;
            else diff = fmax(diff, best);
        }
        fl_lcp_solutions_free(all);
        lcp_free(M, q, z);
        fl_check_progress(ctx, name, t + 1, N);
    }
    char check[64];
    snprintf(check, sizeof check, "lemke.vs_enumeration_%s", name);
    fl_check_value(ctx, bad == 0 && nonunique == 0 && notbasic == 0, check, (double)(bad + nonunique + notbasic),
                   0.0, 0.0, "enumeration of all 2^n complementary bases (proofs/stewart_lcp.md §6)",
                   "%ld LCPs n<=8: %ld failed, max residual %.2e (tol 1e-9), %ld P-matrix LCPs not "
                   "uniquely solvable, %ld Lemke answers not among the enumerated, max distance %.2e "
                   "(tol 1e-7; value: the number of failures)",
                   N, bad, worst, nonunique, notbasic, diff);
}

/* ------------------------------------------------------------------ */
/* Stewart steps on random systems                                      */
/* ------------------------------------------------------------------ */

double fl_stewart_check_balance(const fl_stewart_problem *p, const fl_stewart_result *r)
{
    gsl_vector *dv = fl_dense_vector_alloc(p->n), *g = fl_dense_vector_alloc(p->n);
    if (!dv || !g) {   /* not measured: not a pass */
        gsl_vector_free(dv);
        gsl_vector_free(g);
        return INFINITY;
    }
    gsl_vector_memcpy(dv, r->v_plus);
    gsl_vector_sub(dv, p->v);
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->M, dv, 0.0, g);
    gsl_blas_daxpy(-p->h, p->f, g);
    gsl_blas_dgemv(CblasTrans, -1.0, p->H, r->impulse, 1.0, g);
    double d = 0.0, sc = 1.0;
    for (size_t i = 0; i < p->n; i++) {
        d = fmax(d, fabs(gsl_vector_get(g, i)));
        sc = fmax(sc, fabs(gsl_vector_get(r->r, i)));
    }
    gsl_vector_free(dv);
    gsl_vector_free(g);
    return d / sc;
}

/* Number of distinct physical solutions (v+, P~) among the enumerated LCP
 * solutions, capped at 2; -1 when an allocation or a recovery fails. */
static int distinct_physical(const fl_stewart_problem *p, const fl_stewart_options *o,
                             const fl_lcp_solutions *all, size_t m)
{
    size_t nv = p->n, np = p->dim * p->nc;
    gsl_vector *v0 = fl_dense_vector_alloc(nv), *P0 = fl_dense_vector_alloc(np);
    gsl_vector *vk = fl_dense_vector_alloc(nv), *Pk = fl_dense_vector_alloc(np);
    int count = !v0 || !P0 || !vk || !Pk ? -1 : all->count > 0;
    for (size_t k = 0; k < all->count && count >= 0 && count < 2; k++) {
        gsl_vector_view zk = gsl_vector_view_array(all->z + k * m, m);
        if (fl_stewart_lcp_recover(p, o, &zk.vector, k ? vk : v0, k ? Pk : P0, NULL, NULL) != FL_OK) {
            count = -1;   /* not compared */
            break;
        }
        if (k == 0) continue;
        double d = 0.0, sc = 1.0;
        for (size_t i = 0; i < nv; i++) {
            d = fmax(d, fabs(gsl_vector_get(vk, i) - gsl_vector_get(v0, i)));
            sc = fmax(sc, fabs(gsl_vector_get(v0, i)));
        }
        for (size_t i = 0; i < np; i++) {
            d = fmax(d, fabs(gsl_vector_get(Pk, i) - gsl_vector_get(P0, i)));
            sc = fmax(sc, fabs(gsl_vector_get(P0, i)));
        }
        if (d > 1e-8 * sc) count = 2;
    }
    gsl_vector_free(v0);
    gsl_vector_free(P0);
    gsl_vector_free(vk);
    gsl_vector_free(Pk);
    return count;
}

fl_status fl_stewart_check_enumeration(const fl_stewart_problem *p, const fl_stewart_options *o,
                                       const fl_stewart_result *res, fl_stewart_enum_stats *st,
                                       fl_error *err)
{
    size_t m = res->lcp_size;
    memset(st, 0, sizeof *st);
    gsl_matrix *A = fl_dense_matrix_alloc(m, m);
    gsl_vector *b = fl_dense_vector_alloc(m);
    gsl_vector *vp = fl_dense_vector_alloc(p->n), *P = fl_dense_vector_alloc(p->dim * p->nc);
    fl_lcp_solutions *all = NULL;
    fl_status s = !A || !b || !vp || !P
                      ? FL_FAIL(err, FL_ENOMEM, "out of memory enumerating a Stewart LCP of size %zu", m)
                      : fl_stewart_lcp_build(p, o, A, b, err);
    if (s == FL_OK) s = fl_lcp_enumerate(A, b, NULL, &all, NULL, err);
    if (s == FL_OK) {
        st->solutions = all->count;
        for (size_t k = 0; k < all->count; k++) {
            double dz = 0.0;
            for (size_t j = 0; j < m; j++) dz = fmax(dz, fabs(all->z[k * m + j] - gsl_vector_get(res->z, j)));
            st->found |= dz <= 1e-7 * (1 + gsl_vector_max(res->z));
            gsl_vector_view zk = gsl_vector_view_array(all->z + k * m, m);
            double viol = INFINITY;
            if (fl_stewart_lcp_recover(p, o, &zk.vector, vp, P, NULL, NULL) != FL_OK ||
                fl_stewart_coulomb_violation(p, o, vp, P, &viol, NULL) != FL_OK || !(viol <= 1e-8))
                st->violations++;
        }
        /* Lemke stops on a complementary basis; its z is one of the
         * enumerated vertices unless that basis is numerically singular,
         * which only happens inside a continuum of solutions: then the
         * step must be non-unique (distinct >= 2). */
        int distinct = distinct_physical(p, o, all, m);
        if (distinct < 0) s = FL_FAIL(err, FL_ENOMEM, "the solutions of a Stewart LCP could not be compared");
        else st->distinct = distinct;
    }
    fl_lcp_solutions_free(all);
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(vp);
    gsl_vector_free(P);
    return s;
}

static void check_stewart_random(fl_check_ctx *ctx, gsl_rng *rng)
{
    long N = ctx->systems, failed[2] = {0, 0}, agree = 0, enumerated = 0, notbasic = 0,
         enum_bad = 0, offvertex = 0;
    double coul[2] = {0, 0}, bal[2] = {0, 0}, diff_agree = 0.0;
    size_t Ks[3] = {4, 6, 8};
    for (long t = 0; t < N; t++) {
        /* every fourth system a single 2D contact, so that even a short run
         * has small LCPs for the enumeration; M of condition number up to
         * 1e4 (the former private draw A A^T + I/10 reached ~1e3) */
        fl_random_stewart s;
        if (fl_random_stewart_problem(rng, t % 4 == 0, 1e4, &s) != FL_OK) {   /* no draw: both fail */
            failed[0]++;
            failed[1]++;
            continue;
        }
        fl_stewart_options o = fl_stewart_options_default();
        o.k = Ks[t % 3];
        fl_stewart_result *res[2];
        for (int i = 0; i < 2; i++) {
            res[i] = fl_stewart_result_alloc(s.n, s.nc, s.dim, &o);
            if (!res[i]) {
                failed[i]++;
                continue;
            }
            fl_status st = i == 0 ? fl_stewart_step(&s.p, &o, res[i], NULL)
                                  : fl_stewart_step_sparse(&s.p, &o, res[i], NULL);
            if (st != FL_OK) {
                failed[i]++;
                continue;
            }
            coul[i] = fmax(coul[i], res[i]->coulomb);
            bal[i] = fmax(bal[i], fl_stewart_check_balance(&s.p, res[i]));
        }
        if (res[0] && res[1] && res[0]->status == FL_OK && res[1]->status == FL_OK) {
            double d = 0.0;
            for (size_t i = 0; i < s.n; i++)
                d = fmax(d, fabs(gsl_vector_get(res[0]->v_plus, i) - gsl_vector_get(res[1]->v_plus, i)));
            if (d <= 1e-8) {
                agree++;
                diff_agree = fmax(diff_agree, d);
            }
        }
        size_t m = res[0] ? res[0]->lcp_size : 0;
        if (res[0] && m <= 12 && res[0]->status == FL_OK) {
            enumerated++;
            fl_stewart_enum_stats es;
            if (fl_stewart_check_enumeration(&s.p, &o, res[0], &es, NULL) != FL_OK) {
                enum_bad++;
            } else {
                enum_bad += (long)es.violations;
                if (!es.found && es.distinct < 2) notbasic++;
                if (!es.found) offvertex++;
            }
        }
        fl_stewart_result_free(res[0]);
        fl_stewart_result_free(res[1]);
        fl_random_stewart_free(&s);
        fl_check_progress(ctx, "stewart systems", t + 1, N);
    }
    const char *impl[2] = {"reference", "optimized"};
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, "stewart.coulomb_real_world_%s", impl[i]);
        fl_check_value(ctx, failed[i] == 0 && coul[i] <= 1e-8, name, coul[i], 0.0, 1e-8,
                       "001 §6.2 P5: Coulomb on the real-world impulse (proofs/stewart_lcp.md §4)",
                       "%ld random systems (n<=6, nc<=3, 2D and 3D k=4,6,8): %ld failed, max Coulomb "
                       "violation %.2e (tol 1e-8: p>=0, |P_t| in mu p C_k, maximal dissipation, 001 §6.2 P5)",
                       N, failed[i], coul[i]);
        snprintf(name, sizeof name, "stewart.momentum_balance_%s", impl[i]);
        fl_check_value(ctx, failed[i] == 0 && bal[i] <= 1e-10, name, bal[i], 0.0, 1e-10,
                       "momentum balance M (v+ - v) = h f + H^T P (proofs/stewart_lcp.md §2)",
                       "%ld random systems: max momentum-balance defect %.2e (tol 1e-10)", N, bal[i]);
    }
    fl_check_value(ctx, agree >= N - N / 20, "stewart.reference_vs_optimized", (double)(N - agree), 0.0,
                   (double)(N / 20), "reference/stewart_law.c vs optimized/stewart_law_sparse.c (proofs/stewart_lcp.md §3)",
                   "%ld of %ld steps agree (|v+ diff| <= 1e-8, max %.2e); the others are steps with "
                   "several solutions where rounding steers the pivots (value: disagreements, <= 5%%)",
                   agree, N, diff_agree);
    fl_check_value(ctx, enumerated > 0 && notbasic == 0 && enum_bad == 0, "stewart.lemke_vs_enumeration",
                   (double)(notbasic + enum_bad), 0.0, 0.0, "proofs/stewart_lcp.md §6 (enumeration)",
                   "%ld small Stewart LCPs (size <= 12) enumerated: %ld Lemke answers neither among the "
                   "solutions nor in a non-unique step (%ld inside a continuum), %ld enumerated solutions "
                   "violating Coulomb (tol 1e-8)",
                   enumerated, notbasic, offvertex, enum_bad);
}

/* ------------------------------------------------------------------ */
/* Painlevé bar, 001 §6.2                                               */
/* ------------------------------------------------------------------ */

typedef fl_stewart_check_bar bar_step;   /* checks/stewart_checks.h */

/* The bar's one step set up in b and its physical solutions (count), or -1
 * when it cannot be set up (b is then empty). */
static int bar_solutions(bar_step *b, const fl_model_painleve_bar *bar, double V0, double h, double sol[4][4])
{
    if (fl_stewart_check_bar_init(b, bar, V0, h) != 0) return -1;
    return fl_stewart_check_physical_solutions(&b->p, sol, NULL);
}

static double dist4(const double *a, const double *b);

/* Distance of a step's (v+, P) to x, infinite when the step failed. */
static double step_dist(fl_status s, const fl_stewart_result *r, const double *x)
{
    if (s != FL_OK) return INFINITY;
    double y[4] = {gsl_vector_get(r->v_plus, 0), gsl_vector_get(r->v_plus, 1),
                   gsl_vector_get(r->impulse, 0), gsl_vector_get(r->impulse, 1)};
    return dist4(y, x);
}

int fl_stewart_check_bar_init(fl_stewart_check_bar *b, const fl_model_painleve_bar *bar, double V0, double h)
{
    b->bar = *bar;
    b->M = b->H = NULL;
    b->q = b->v = b->f = b->gap = NULL;
    if (fl_model_painleve_stewart_system(&b->bar, &b->sys, NULL) != FL_OK) return -1;
    b->M = fl_dense_matrix_alloc(2, 2);
    b->H = fl_dense_matrix_alloc(2, 2);
    b->q = fl_dense_vector_alloc(2);
    b->v = fl_dense_vector_alloc(2);
    b->f = fl_dense_vector_alloc(2);
    b->gap = fl_dense_vector_alloc(1);
    if (!b->M || !b->H || !b->q || !b->v || !b->f || !b->gap) {
        fl_stewart_check_bar_free(b);
        return -1;
    }
    gsl_vector_set(b->q, 0, 0.0);
    gsl_vector_set(b->q, 1, bar->theta0);
    gsl_vector_set(b->v, 0, V0);
    gsl_vector_set(b->v, 1, 0.0);
    b->sys.mass(b->sys.data, b->q, b->M, NULL);
    b->sys.force(b->sys.data, 0.0, b->q, b->v, b->f, NULL);
    b->sys.contacts(b->sys.data, b->q, b->gap, b->H, NULL);
    b->p = (fl_stewart_problem){2, 1, 2, b->M, b->H, NULL, NULL, NULL, b->v, b->f, b->gap,
                                b->sys.mu, h};
    return 0;
}

void fl_stewart_check_bar_free(fl_stewart_check_bar *b)
{
    gsl_matrix_free(b->M);
    gsl_matrix_free(b->H);
    gsl_vector_free(b->q);
    gsl_vector_free(b->v);
    gsl_vector_free(b->f);
    gsl_vector_free(b->gap);
    b->M = b->H = NULL;
    b->q = b->v = b->f = b->gap = NULL;
}

/* checks/stewart_checks.h */
int fl_stewart_check_physical_solutions(const fl_stewart_problem *p, double sol[4][4], double *coulomb)
{
    size_t m = fl_stewart_lcp_size(p, NULL);
    gsl_matrix *A = fl_dense_matrix_alloc(m, m);
    gsl_vector *b = fl_dense_vector_alloc(m), *vp = fl_dense_vector_alloc(2), *P = fl_dense_vector_alloc(2);
    fl_lcp_solutions *all = NULL;
    int count = -1;
    double worst = 0.0;
    if (A && b && vp && P && fl_stewart_lcp_build(p, NULL, A, b, NULL) == FL_OK &&
        fl_lcp_enumerate(A, b, NULL, &all, NULL, NULL) == FL_OK) {
        count = 0;
        for (size_t k = 0; k < all->count; k++) {
            gsl_vector_view zk = gsl_vector_view_array(all->z + k * m, m);
            double viol = INFINITY;
            if (fl_stewart_lcp_recover(p, NULL, &zk.vector, vp, P, NULL, NULL) != FL_OK) {
                count = -1;   /* a solution not recovered: no count */
                break;
            }
            if (fl_stewart_coulomb_violation(p, NULL, vp, P, &viol, NULL) != FL_OK) viol = INFINITY;
            worst = fmax(worst, viol);
            double x[4] = {gsl_vector_get(vp, 0), gsl_vector_get(vp, 1), gsl_vector_get(P, 0),
                           gsl_vector_get(P, 1)};
            int dup = 0;
            for (int s = 0; s < count && !dup; s++) {
                double d = 0.0;
                for (int i = 0; i < 4; i++) d = fmax(d, fabs(sol[s][i] - x[i]));
                dup = d <= 1e-9;
            }
            if (!dup && count < 4) memcpy(sol[count++], x, sizeof x);
        }
    }
    if (coulomb) *coulomb = worst;
    fl_lcp_solutions_free(all);
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(vp);
    gsl_vector_free(P);
    return count;
}

static double dist4(const double *a, const double *b)
{
    double d = 0.0;
    for (int i = 0; i < 4; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

typedef struct p5_params {
    double m, J, l, theta0, V0, C0, h, mu_small, mu_large;
    long steps;
} p5_params;
static int p5_load(fl_check_ctx *ctx, p5_params *P);

/* The Painlevé bar of data/001/painleve_p5.json (001 §6.2): one step from
 * grazing, on each side of mu = -1/tan(theta0), with f = 0 and f_theta = C0. */
static void check_painleve(fl_check_ctx *ctx, const p5_params *P)
{
    const double t0 = P->theta0, h = P->h, V0 = P->V0, C0 = P->C0;
    const double thr = -1.0 / tan(t0);
    fl_model_painleve_bar bar = {P->m, P->J, P->l, t0, P->mu_small, 0.0, 0.0};
    double sol[4][4];
    bar_step b;
    /* the bars below differ from these two only in V0, h and forces: a
     * refused bar (theta0 outside (-pi/2, 0), mu < 0 in the data file) is
     * one FAIL, not four steps of an unset system */
    {
        fl_model_painleve_bar big = bar;
        big.mu = P->mu_large;
        fl_stewart_system sys;
        fl_error e;
        if (fl_model_painleve_stewart_system(&bar, &sys, &e) != FL_OK || fl_model_painleve_stewart_system(&big, &sys, &e) != FL_OK) {
            fl_check_report(ctx, 0, "painleve.bar", "the Painleve bar of data/001/painleve_p5.json is refused: %s",
                            e.message);
            return;
        }
    }

    /* 001 §6.2, mu < -1/tan theta0: unique grazing step */
    int c1 = bar_solutions(&b, &bar, V0, h, sol);
    double g[4] = {V0, 0, 0, 0};
    double e1 = c1 == 1 ? dist4(sol[0], g) : INFINITY;
    fl_check_value(ctx, c1 == 1 && e1 <= 1e-12, "painleve.grazing_unique_mu_below", e1, 0.0, 1e-12,
                   "001 §6.2 (proofs/stewart_lcp.md §5)",
                   "mu = %g < -1/tan(theta0) = %.4f: %d physical solution(s), |(v+,P) - (V0,0,0,0)| = %.1e "
                   "(001 §6.2: P5 <=> P'3, unique; enumeration, tol 1e-12)", bar.mu, thr, c1, e1);
    fl_stewart_check_bar_free(&b);

    /* 001 §6.2, mu >= -1/tan theta0: grazing or frictional catastrophe */
    bar.mu = P->mu_large;
    int c2 = bar_solutions(&b, &bar, V0, h, sol);
    double stop[4] = {0, 0, -bar.m * V0 * tan(t0), -bar.m * V0};
    int has_g = 0, has_s = 0;
    for (int s = 0; s < c2; s++) {
        has_g |= dist4(sol[s], g) <= 1e-12;
        has_s |= dist4(sol[s], stop) <= 1e-12;
    }
    fl_check_value(ctx, c2 == 2 && has_g && has_s, "painleve.two_solutions_mu_above", (double)c2, 2.0, 0.0,
                   "001 §6.2 non-uniqueness in P5 (proofs/stewart_lcp.md §5)",
                   "mu = %g >= %.4f, f = 0: %d physical solutions: grazing %s, stop (P_n = -m V0 tan theta0 "
                   "= %.4f, P_t = -m V0) %s (001 §6.2 non-uniqueness in P5; enumeration)",
                   bar.mu, thr, c2, has_g ? "found" : "MISSING", stop[2], has_s ? "found" : "MISSING");
    fl_stewart_check_bar_free(&b);

    /* 001 §6.2: C0 < 0, mu = 2: unique tangential impact */
    bar.ftheta = C0;
    int c3 = bar_solutions(&b, &bar, V0, h, sol);
    double pn = (-h * C0 - bar.l * sin(t0) * bar.m * V0) / (bar.l * cos(t0));
    double cat[4] = {0, 0, pn, -bar.m * V0};
    fl_stewart_result *r = fl_stewart_result_alloc(2, 1, 2, NULL);
    fl_status s3 = r && c3 >= 0 ? fl_stewart_step(&b.p, NULL, r, NULL) : FL_ENOMEM;
    double e3 = step_dist(s3, r, cat);
    fl_check_value(ctx, c3 == 1 && e3 <= 1e-12, "painleve.frictional_catastrophe", e3, 0.0, 1e-12,
                   "001 §6.2, P_n = (-h C0 - l sin theta0 m V0)/(l cos theta0) (proofs/stewart_lcp.md §5)",
                   "C0 = %g, mu = %g: %d solution; Lemke |(v+,P) - (0,0,%.6f,-m V0)| = %.1e "
                   "(closed form P_n = (-h C0 - l sin theta0 m V0)/(l cos theta0), 001 §6.2, tol 1e-12)",
                   C0, bar.mu, c3, pn, e3);
    fl_stewart_check_bar_free(&b);

    /* mu < -1/tan theta0 with C0 < 0: sliding, P_n = -h C0/(l (cos + mu sin)) */
    bar.mu = P->mu_small;
    int c4 = bar_solutions(&b, &bar, V0, h, sol);
    double pn4 = -h * C0 / (bar.l * (cos(t0) + bar.mu * sin(t0)));
    double sl[4] = {V0 - bar.mu * pn4 / bar.m, 0, pn4, -bar.mu * pn4};
    fl_status s4 = r && c4 >= 0 ? fl_stewart_step_sparse(&b.p, NULL, r, NULL) : FL_ENOMEM;
    double e4 = step_dist(s4, r, sl);
    fl_check_value(ctx, c4 == 1 && e4 <= 1e-12, "painleve.sliding_mu_below", e4, 0.0, 1e-12,
                   "001 §6.2, P_n = -h C0/(l (cos theta0 + mu sin theta0)) (proofs/stewart_lcp.md §5)",
                   "C0 = %g, mu = %g: %d solution; optimized |(v+,P) - closed form| = %.1e (J thetaddot = C0 + "
                   "l r_y (cos theta0 + mu sin theta0) = 0, 001 §6.2, tol 1e-12)", C0, bar.mu, c4, e4);
    fl_stewart_check_bar_free(&b);
    fl_stewart_result_free(r);

    /* acceleration-level Painlevé LCP: a r_y + C0/J, a < 0 for mu > sqrt 3 */
    double mu = P->mu_large, J = P->J, a = P->l * (cos(t0) + mu * sin(t0)) / J;
    gsl_matrix *M;
    gsl_vector *q, *z;
    size_t n0 = 99, n2 = 99;   /* 99: not enumerated (no workspace or an error), a FAIL */
    fl_status sr = FL_ENOMEM;
    if (lcp_alloc(1, &M, &q, &z) == 0) {
        gsl_matrix_set(M, 0, 0, a);
        gsl_vector_set(q, 0, C0 / J);                       /* C0 < 0 */
        fl_lcp_solutions *all = NULL;
        fl_lcp_enumerate(M, q, NULL, &all, NULL, NULL);
        n0 = all ? all->count : 99;
        fl_lcp_solutions_free(all);
        sr = fl_lemke_solve(M, q, z, NULL, NULL, NULL, NULL);
        gsl_vector_set(q, 0, -C0 / J);                      /* -C0 > 0 */
        all = NULL;
        fl_lcp_enumerate(M, q, NULL, &all, NULL, NULL);
        n2 = all ? all->count : 99;
        fl_lcp_solutions_free(all);
        lcp_free(M, q, z);
    }
    /* value: the number of solutions for C0 > 0 (2); the C0 < 0 side (0 solutions, Lemke ray) is in ok */
    fl_check_value(ctx, n0 == 0 && sr == FL_ERAY && n2 == 2, "painleve.acceleration_lcp", (double)n2, 2.0, 0.0,
                   "001 §6.2 inconsistency and indeterminacy (proofs/stewart_lcp.md §5)",
                   "mu = %g: J thetaddot = C0 + l r_y (cos theta0 + mu sin theta0), 0 <= r_y _|_ thetaddot >= 0: "
                   "C0 < 0 -> %zu solutions (Lemke: %s), C0 > 0 -> %zu solutions (001 §6.2: inconsistency "
                   "and indeterminacy; expect 0, ray, 2)", mu, n0, fl_strerror(sr), n2);
}

int fl_stewart_crosscheck(fl_check_ctx *ctx)
{
    gsl_rng *rng = fl_rng_alloc(ctx->seed);
    if (!rng) return -1;
    check_lemke_small(ctx);
    check_lemke_family(ctx, rng, FL_LCP_PD, "pd");
    check_lemke_family(ctx, rng, FL_LCP_PMATRIX, "pmatrix");
    check_lemke_family(ctx, rng, FL_LCP_COPOSITIVE_PLUS, "copositive_plus");
    check_stewart_random(ctx, rng);
    gsl_rng_free(rng);
    p5_params P;
    if (p5_load(ctx, &P) != 0) return -1;
    check_painleve(ctx, &P);
    return 0;
}

/* ------------------------------------------------------------------ */
/* reproduce painleve_p5                                                */
/* ------------------------------------------------------------------ */

/* The parameters of data/001/painleve_p5.json (or the user's file of the
 * same schema, --params).  A missing file or field is an error. */
static int p5_load(fl_check_ctx *ctx, p5_params *P)
{
    fl_error err;
    char path[4096];
    if (fl_check_params_path(ctx, "001/painleve_p5.json", path, sizeof path) != 0) return -1;
    fl_json_doc *doc = NULL;
    const json_t *par = NULL;
    double deg, steps;
    if (fl_json_load(path, &doc, &err) != FL_OK ||
        fl_json_object(doc, doc->root, "", "params", &par, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "m", &P->m, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "J", &P->J, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "l", &P->l, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "theta0_deg", &deg, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "V0", &P->V0, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "C0", &P->C0, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "h", &P->h, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "mu_small", &P->mu_small, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "mu_large", &P->mu_large, &err) != FL_OK ||
        fl_json_number(doc, par, "params", "steps", &steps, &err) != FL_OK) {
        fl_check_message(ctx, "painleve_p5: %s", err.message);
        fl_json_free(doc);
        return -1;
    }
    fl_json_free(doc);
    P->theta0 = deg * FL_PI / 180.0;
    P->steps = (long)steps;
    return 0;
}

typedef struct p5_obs {
    FILE *csv;
    const char *label;
    double *xdot;       /* per step */
    long cap;
    fl_check_ctx *ctx;
    long total;
} p5_obs;

static int p5_record(void *data, size_t step, double t, const gsl_vector *q,
                     const fl_stewart_result *r)
{
    p5_obs *o = data;
    if ((long)step <= o->cap) o->xdot[step - 1] = gsl_vector_get(r->v_plus, 0);
    if (o->csv)
        fprintf(o->csv, "%s,%.10g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", o->label, t,
                gsl_vector_get(q, 0), gsl_vector_get(q, 1), gsl_vector_get(r->v_plus, 0),
                gsl_vector_get(r->v_plus, 1), gsl_vector_get(r->impulse, 0),
                gsl_vector_get(r->impulse, 1));
    fl_check_progress(o->ctx, o->label, (long)step, o->total);
    return 0;
}

static int p5_run(fl_check_ctx *ctx, const p5_params *P, double mu, double C0, const char *label,
                  FILE *csv, double *xdot, long steps, double *theta_end, fl_stewart_run *run)
{
    fl_model_painleve_bar bar = {P->m, P->J, P->l, P->theta0, mu, 0.0, C0};
    fl_stewart_system sys;
    fl_error err;
    if (fl_model_painleve_stewart_system(&bar, &sys, &err) != FL_OK) {
        fl_check_message(ctx, "painleve_p5: %s", err.message);
        return -1;
    }
    gsl_vector *q = fl_dense_vector_alloc(2), *v = fl_dense_vector_alloc(2);
    if (!q || !v) {
        fl_check_message(ctx, "painleve_p5 %s: out of memory", label);
        gsl_vector_free(q);
        gsl_vector_free(v);
        return -1;
    }
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, P->theta0);
    gsl_vector_set(v, 0, P->V0);
    gsl_vector_set(v, 1, 0.0);
    if (csv)
        fprintf(csv, "%s,0,0,%.17g,%.17g,0,0,0\n", label, P->theta0, P->V0);
    p5_obs o = {csv, label, xdot, steps, ctx, steps};
    fl_status s = fl_stewart_integrate(&sys, NULL, 0.0, P->h, (size_t)steps, q, v, p5_record, &o,
                                       run, &err);
    *theta_end = gsl_vector_get(q, 1);
    gsl_vector_free(q);
    gsl_vector_free(v);
    if (s != FL_OK) {
        fl_check_message(ctx, "painleve_p5 %s: %s", label, err.message);
        return -1;
    }
    return 0;
}

int fl_stewart_reproduce_painleve(fl_check_ctx *ctx)
{
    p5_params P;
    if (p5_load(ctx, &P) != 0) return -1;
    long steps = ctx->quick ? P.steps / 4 : P.steps;
    char csvpath[1024], pngpath[1024];
    if (fl_check_out_path(ctx, "painleve_p5.csv", csvpath, sizeof csvpath) != 0 ||
        fl_check_out_path(ctx, "painleve_p5.png", pngpath, sizeof pngpath) != 0)
        return -1;
    FILE *csv = fopen(csvpath, "w");
    if (!csv) {
        fl_check_message(ctx, "painleve_p5: cannot write %s", csvpath);
        return -1;
    }
    fprintf(csv, "case,t,x,theta,xdot,thetadot,P_n,P_t\n");
    double *xd = calloc((size_t)steps, sizeof *xd);
    if (!xd) {
        fclose(csv);
        return -1;
    }
    const double thr = -1.0 / tan(P.theta0);
    double th;
    fl_stewart_run run;
    int rc = 0;

    /* A: mu < -1/tan theta0, C0 < 0: sliding with constant P_n per step */
    if (p5_run(ctx, &P, P.mu_small, P.C0, "slide_mu_small", csv, xd, steps, &th, &run) != 0) rc = -1;
    else {
        double pn = -P.h * P.C0 / (P.l * (cos(P.theta0) + P.mu_small * sin(P.theta0)));
        double err = 0.0;
        long stop_step = -1;
        for (long k = 1; k <= steps; k++) {
            double ex = fmax(0.0, P.V0 - (double)k * P.mu_small * pn / P.m);
            if (ex == 0.0 && stop_step < 0) stop_step = k;
            err = fmax(err, fabs(xd[k - 1] - ex));
        }
        fl_check_value(ctx, err <= 1e-9 && fabs(th - P.theta0) <= 1e-12, "painleve_p5.slide_mu_small", err, 0.0,
                       1e-9, "001 §6.2, P_n = -h C0/(l(cos theta0 + mu sin theta0)) (proofs/stewart_lcp.md §5)",
                       "mu = %g < %.4f, C0 = %g: max |xdot_k - max(0, V0 - k mu P_n/m)| = %.1e over %ld steps "
                       "(P_n = -h C0/(l(cos theta0 + mu sin theta0)) = %.6f; stops at step %ld), "
                       "|theta - theta0| = %.1e (closed form, tol 1e-9 / 1e-12); max Coulomb %.1e",
                       P.mu_small, thr, P.C0, err, steps, pn, stop_step, fabs(th - P.theta0), run.coulomb);
    }
    /* B: mu >= -1/tan theta0, C0 < 0: frictional catastrophe at step 1 */
    if (p5_run(ctx, &P, P.mu_large, P.C0, "catastrophe_mu_large", csv, xd, steps, &th, &run) != 0) rc = -1;
    else {
        double m = 0.0;
        for (long k = 0; k < steps; k++) m = fmax(m, fabs(xd[k]));
        fl_check_value(ctx, m <= 1e-12, "painleve_p5.catastrophe_mu_large", m, 0.0, 1e-12,
                       "001 §6.2 (Painlevé/Lecornu tangential impact, proofs/stewart_lcp.md §5)",
                       "mu = %g >= %.4f, C0 = %g: max |xdot| after the first step = %.1e (tangential impact "
                       "then immobility, 001 §6.2 Painlevé/Lecornu, tol 1e-12)", P.mu_large, thr, P.C0, m);
    }
    /* C: mu < -1/tan theta0, f = 0: the unique grazing motion x = V0 t */
    if (p5_run(ctx, &P, P.mu_small, 0.0, "grazing_mu_small", csv, xd, steps, &th, &run) != 0) rc = -1;
    else {
        double m = 0.0;
        for (long k = 0; k < steps; k++) m = fmax(m, fabs(xd[k] - P.V0));
        fl_check_value(ctx, m <= 1e-12, "painleve_p5.grazing_mu_small", m, 0.0, 1e-12,
                       "001 §6.2 (unique grazing motion, P5 = P'3)",
                       "mu = %g, f = 0: max |xdot - V0| = %.1e (unique solution of P5 = P'3, 001 §6.2, tol 1e-12)",
                       P.mu_small, m);
    }
    /* D: mu >= -1/tan theta0, f = 0: each step has two solutions; Lemke picks one */
    if (p5_run(ctx, &P, P.mu_large, 0.0, "grazing_mu_large", csv, xd, steps, &th, &run) != 0) rc = -1;
    else {
        int ok = 1;
        for (long k = 0; k < steps; k++)
            ok &= fabs(xd[k] - P.V0) <= 1e-12 || fabs(xd[k]) <= 1e-12;
        fl_model_painleve_bar bar = {P.m, P.J, P.l, P.theta0, P.mu_large, 0.0, 0.0};
        bar_step b;
        double sol[4][4];
        int c = -1;   /* the bar refused: no count (p5_run above accepted it) */
        if (fl_stewart_check_bar_init(&b, &bar, P.V0, P.h) == 0) {
            c = fl_stewart_check_physical_solutions(&b.p, sol, NULL);
            fl_stewart_check_bar_free(&b);
        }
        fl_check_value(ctx, ok && c == 2, "painleve_p5.grazing_mu_large_indeterminate", (double)c, 2.0, 0.0,
                       "001 §6.2 (P5 not unique: grazing or stop; proofs/stewart_lcp.md §5)",
                       "mu = %g, f = 0: every step is grazing (xdot = V0) or stop (xdot = 0); the grazing step "
                       "has %d solutions (enumeration; 001 §6.2: P5 not unique, any stopping time t0); Lemke "
                       "ends with xdot = %g", P.mu_large, c, xd[steps - 1]);
    }
    fclose(csv);
    free(xd);
    char script[4096];
    snprintf(script, sizeof script,
             "set terminal png size 900,600\nset output '%s'\nset datafile separator ','\n"
             "set key center right\nset yrange [-0.05:1.1]\nset xlabel 't'\nset ylabel 'xdot (velocity of G)'\n"
             "set title 'Painleve bar under Stewart P5 (001 6.2): theta0 = %.1f deg, -1/tan(theta0) = %.3f'\n"
             "plot '%s' using 2:(strcol(1) eq 'slide_mu_small' ? $5 : 1/0) with lines lw 2 title 'mu = %g, C0 = %g (sliding)', "
             "'' using 2:(strcol(1) eq 'catastrophe_mu_large' ? $5 : 1/0) with lines lw 2 title 'mu = %g, C0 = %g (catastrophe)', "
             "'' using 2:(strcol(1) eq 'grazing_mu_small' ? $5 : 1/0) with lines dt 2 title 'mu = %g, f = 0 (grazing)', "
             "'' using 2:(strcol(1) eq 'grazing_mu_large' ? $5 : 1/0) with points pt 7 ps 0.4 title 'mu = %g, f = 0 (Lemke pick)'\n",
             pngpath, P.theta0 * 180.0 / FL_PI, thr, csvpath, P.mu_small, P.C0, P.mu_large, P.C0,
             P.mu_small, P.mu_large);
    if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "painleve_p5: PNG not drawn (CSV written)");
    return rc;
}
