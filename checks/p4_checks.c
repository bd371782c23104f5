/* p4_checks.c — `frictionlab crosscheck --law p4` and the reproductions of
 * paper 001 §6 for the generalized friction law P'4 (reference/p4_law.c,
 * optimized/p4_law_sparse.c, reference/friction_set_build.c):
 *   painleve_set, painleve_catastrophe, painleve_grazing, painleve_p5_vs_p3,
 *   systems_1_2, kane            (parameters: data/001/<name>.json, README there).
 */
#include "checks/p4_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "testkit/fl_random.h"
#include "fl_dense.h"
#include "fl_json.h"
#include "fl_rng.h"
#include "fl_sparse.h"
#include "reference/friction_set_build.h"
#include "reference/p4_law.h"
#include "reference/stewart_law.h"
#include "checks/fl_tasks.h"
#include "optimized/p4_law_sparse.h"
#include "drivers/fl_types.h"
#include "models/fl_model_kane.h"
#include "models/fl_model_painleve.h"
#include "models/fl_model_system1.h"
#include "models/fl_model_system2.h"
#include "fl_scalar.h"


/* ------------------------------------------------------------------ */
/* Random systems (proofs/README.md; 001 Proposition 5.1)                                 */
/* ------------------------------------------------------------------ */

typedef struct p4_rand {
    size_t n, m;
    gsl_matrix *M, *D, *E[2];
    fl_p4_friction C[2];
    fl_sparse_ctx ctx;
    cholmod_sparse *Ms;
    fl_p4_problem p;
} p4_rand;

static void rand_release(p4_rand *s)
{
    for (int a = 0; a < 2; a++) {
        fl_friction_set_release(&s->C[a].set);
        if (s->E[a]) gsl_matrix_free(s->E[a]);
    }
    if (s->M) gsl_matrix_free(s->M);
    if (s->D) gsl_matrix_free(s->D);
    fl_sparse_free(&s->ctx, &s->Ms);
    fl_sparse_finish(&s->ctx);
    memset(s, 0, sizeof *s);
}

/* n in [2, 7], m in {1, 2}, cond(M) <= 1e2, friction sets in T*_alpha:
 * disc (dim 1 or 2), polygon (bounded pentagon or unbounded cup, dim 2) or
 * interval with possibly one infinite end. */
static int rand_make(gsl_rng *r, p4_rand *s, int force_m)
{
    memset(s, 0, sizeof *s);
    s->n = 2 + gsl_rng_uniform_int(r, 6);
    s->m = force_m ? (size_t)force_m : 1 + gsl_rng_uniform_int(r, 2);
    if (s->m >= s->n) s->m = 1;
    size_t n = s->n, m = s->m;
    s->M = fl_dense_matrix_alloc(n, n);
    s->D = fl_dense_matrix_alloc(m, n);
    if (!s->M || !s->D || fl_random_spd(r, fl_rng_loguniform(r, 1.0, 100.0), 1.0, s->M) != FL_OK)
        return -1;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) gsl_matrix_set(s->D, i, j, gsl_ran_gaussian(r, 1.0));
    if (fl_sparse_start(&s->ctx, NULL) != FL_OK) return -1;
    fl_spd *spd;
    if (fl_spd_alloc(s->M, &spd, NULL) != FL_OK) return -1;
    gsl_vector *wd = fl_dense_vector_alloc(n), *e = fl_dense_vector_alloc(n);
    int rc = wd && e ? 0 : -1;
    for (size_t a = 0; a < m && rc == 0; a++) {
        gsl_vector_const_view d = gsl_matrix_const_row(s->D, a);
        fl_spd_solve(spd, &d.vector, wd);
        double dwd;
        gsl_blas_ddot(&d.vector, wd, &dwd);
        int k = (n >= 3 && gsl_rng_uniform(r) < 0.4) ? 2 : 1;
        s->E[a] = fl_dense_matrix_alloc((size_t)k, n);
        if (!s->E[a]) {
            rc = -1;
            break;
        }
        for (int j = 0; j < k; j++) {
            for (size_t i = 0; i < n; i++) gsl_vector_set(e, i, gsl_ran_gaussian(r, 1.0));
            double ew;
            gsl_blas_ddot(e, wd, &ew);
            gsl_blas_daxpy(-ew / dwd, &d.vector, e);             /* e in T*_alpha */
            gsl_matrix_set_row(s->E[a], (size_t)j, e);
        }
        double mu = fl_rng_loguniform(r, 1e-2, 10.0);
        double pick = gsl_rng_uniform(r);
        fl_status st;
        if (k == 2 && pick < 0.5) {
            st = fl_friction_set_disc(&s->C[a].set, 2, mu, NULL);
        } else if (k == 2 && pick < 0.75) {
            double vert[10], ph = gsl_rng_uniform(r);          /* pentagon around 0 */
            for (int j = 0; j < 5; j++) {
                vert[2 * j] = mu * cos(ph + 2 * FL_PI * j / 5);
                vert[2 * j + 1] = mu * sin(ph + 2 * FL_PI * j / 5);
            }
            st = fl_friction_set_polygon(&s->C[a].set, 5, vert, 0, NULL, NULL);
        } else if (k == 2) {
            /* unbounded cup: vertices (-mu,0), (0,-mu), (mu,0), rays (-0.3,1), (0.3,1) */
            double v3[6] = {-mu, 0.0, 0.0, -mu, mu, 0.0}, r2[4] = {-0.3, 1.0, 0.3, 1.0};
            st = fl_friction_set_polygon(&s->C[a].set, 3, v3, 2, r2, NULL);
        } else {
            double u = gsl_rng_uniform(r), lo = -mu * (0.2 + gsl_rng_uniform(r)), hi = mu;
            if (u < 0.25) lo = -INFINITY;
            else if (u < 0.4) hi = INFINITY;
            st = fl_friction_set_interval(&s->C[a].set, lo, hi, NULL);
        }
        if (st != FL_OK) rc = -1;
        s->C[a].E = s->E[a];
    }
    gsl_vector_free(wd);
    gsl_vector_free(e);
    fl_spd_free(spd);
    if (rc != 0) return rc;
    if (fl_sparse_from_dense(&s->ctx, s->M, 1, 0.0, &s->Ms, NULL) != FL_OK) return -1;
    fl_p4_problem p = {n, m, s->M, s->Ms, &s->ctx, s->D, s->C};
    s->p = p;
    return 0;
}

/* |v|_M; t is workspace of v's size (overwritten). */
static double mnorm(const gsl_matrix *M, const gsl_vector *v, gsl_vector *t)
{
    double s;
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, v, 0.0, t);
    gsl_blas_ddot(v, t, &s);
    return sqrt(fmax(s, 0.0));
}

/* ------------------------------------------------------------------ */
/* crosscheck --law p4                                                  */
/* ------------------------------------------------------------------ */

/* checks/p4_checks.h: the linear test system of the trajectories */
static fl_status lin_mass(void *d, const gsl_vector *q, gsl_matrix *M)
{
    (void)q;
    const fl_p4_check_linear *L = d;
    if (L->fail == 1) return FL_EINVAL;
    gsl_matrix_memcpy(M, L->M);
    return FL_OK;
}

static fl_status lin_force(void *d, double t, const gsl_vector *q, const gsl_vector *v, gsl_vector *f)
{
    (void)t;
    (void)v;
    const fl_p4_check_linear *L = d;
    if (L->fail == 2) return FL_EINVAL;
    gsl_vector_memcpy(f, L->g);
    gsl_blas_daxpy(-L->k, q, f);
    return FL_OK;
}

static fl_status lin_gap(void *d, const gsl_vector *q, gsl_vector *phi)
{
    const fl_p4_check_linear *L = d;
    if (L->fail == 3) return FL_EINVAL;
    gsl_blas_dgemv(CblasNoTrans, 1.0, L->D, q, 0.0, phi);
    gsl_vector_add(phi, L->c);
    return FL_OK;
}

static fl_status lin_grad(void *d, const gsl_vector *q, size_t a, gsl_vector *dphi)
{
    (void)q;
    const fl_p4_check_linear *L = d;
    if (L->fail == 4) return FL_EINVAL;
    gsl_vector_const_view r = gsl_matrix_const_row(L->D, a);
    gsl_vector_memcpy(dphi, &r.vector);
    return FL_OK;
}

static fl_status lin_friction(void *d, const gsl_vector *q, size_t a, fl_friction_set *set,
                              gsl_matrix **E, fl_error *err)
{
    (void)q;
    const fl_p4_check_linear *L = d;
    if (L->fail == 5) return FL_FAIL(err, FL_EINVAL, "friction callback refused");
    FL_TRY(fl_friction_set_copy(set, &L->C[a].set, err));
    *E = fl_dense_matrix_alloc(L->C[a].E->size1, L->C[a].E->size2);
    if (!*E) {
        fl_friction_set_release(set);
        return FL_FAIL(err, FL_ENOMEM, "friction callback: out of memory");
    }
    gsl_matrix_memcpy(*E, L->C[a].E);
    return FL_OK;
}

fl_p4_system fl_p4_check_linear_system(fl_p4_check_linear *L, double restitution)
{
    fl_p4_system sys = {L->M->size1, L->D ? L->D->size1 : 0, L, lin_mass, lin_force, lin_gap, lin_grad,
                        L->C ? lin_friction : NULL, restitution};
    return sys;
}

/* The worst values of the one-step part of crosscheck --law p4. */
typedef struct p4_stats {
    double energy, impact, rtau, split, kkt, gap, nres, diff1, diff2;
    long impact_n, multi, rejected, fail, warn;
    char fail_msg[600];
} p4_stats;

/* The workspace of one step's checks. */
typedef struct p4_work {
    gsl_vector *v, *imp, *vn, *vt, *tmp, *dv, *lam, *rt, *rr;
    fl_p4_step_result *res[2];
} p4_work;

static int p4_work_alloc(p4_work *w, size_t n, size_t m)
{
    w->v = fl_dense_vector_alloc(n);
    w->imp = fl_dense_vector_calloc(n);
    w->vn = fl_dense_vector_alloc(n);
    w->vt = fl_dense_vector_alloc(n);
    w->tmp = fl_dense_vector_alloc(n);
    w->dv = fl_dense_vector_alloc(m);
    w->lam = fl_dense_vector_alloc(m);
    w->rt = fl_dense_vector_alloc(n);
    w->rr = fl_dense_vector_alloc(n);
    w->res[0] = fl_p4_step_result_alloc(n, m);
    w->res[1] = fl_p4_step_result_alloc(n, m);
    return w->v && w->imp && w->vn && w->vt && w->tmp && w->dv && w->lam && w->rt && w->rr && w->res[0] && w->res[1];
}

static void p4_work_free(p4_work *w)
{
    gsl_vector *vs[] = {w->vn, w->vt, w->tmp, w->dv, w->lam, w->rt, w->rr, w->v, w->imp};
    for (size_t k = 0; k < sizeof vs / sizeof *vs; k++) gsl_vector_free(vs[k]);
    fl_p4_step_result_free(w->res[0]);
    fl_p4_step_result_free(w->res[1]);
}

/* Every type of fl_p4_types on the same step; 0 if all ran (or C2
 * rejected the system in every type: *rejected), -1 otherwise. */
static int p4_run_types(long t, p4_rand *s, p4_work *w, const fl_p4_impact_law *law, p4_stats *x, int *rejected)
{
    *rejected = 0;
    for (int i = 0; fl_p4_types[i].name; i++) {
        fl_error e;
        fl_status st = fl_p4_types[i].step(&s->p, w->v, w->imp, law, NULL, w->res[i], &e);
        if (s->m > 1 && st == FL_EINVAL && strstr(e.message, "C2 failed: <dphi_alpha, F> = 0")) {
            (*rejected)++;
            continue;
        }
        if (st < 0) {
            snprintf(x->fail_msg, sizeof x->fail_msg, "system %ld: %s", t, e.message);
            return -1;
        }
        if (st > 0) x->warn++;
        double ef = fmax(w->res[i]->energy_free, 1e-300);
        x->energy = fmax(x->energy, (w->res[i]->energy_plus - w->res[i]->energy_free) / ef);
        x->gap = fmax(x->gap, w->res[i]->gap);
        x->nres = fmax(x->nres, w->res[i]->normal_residual);
    }
    return *rejected == 1 ? -1 : 0;
}

/* The velocity split (001 §3.1) of v+ and the sign of <r_tau, v_t^+>
 * (proof of 001 Prop. 5.1); -1 if the split failed. */
static int p4_velocity_checks(long t, p4_rand *s, p4_work *w, p4_stats *x)
{
    const fl_p4_step_result *r0 = w->res[0];
    if (fl_p4_split_velocity(&s->p, r0->v_plus, w->vn, w->vt, NULL) != FL_OK) {
        snprintf(x->fail_msg, sizeof x->fail_msg, "system %ld: the velocity split failed", t);
        return -1;
    }
    double rv, vs = mnorm(s->M, r0->v_plus, w->tmp), v0 = mnorm(s->M, w->v, w->tmp);
    gsl_blas_ddot(r0->r_tau, w->vt, &rv);                              /* <r_tau, v_t^+> */
    double sc = (vs + v0) * gsl_blas_dnrm2(r0->R) + 1e-13 * (vs * vs + v0 * v0) / 1e-9;
    x->rtau = fmax(x->rtau, rv / fmax(sc, 1e-300));
    gsl_blas_dgemv(CblasNoTrans, 1.0, s->M, w->vt, 0.0, w->tmp);       /* <v_n, v_t>_M */
    double ip;
    gsl_blas_ddot(w->vn, w->tmp, &ip);
    x->split = fmax(x->split, fabs(ip) / fmax(vs * vs, 1e-300));
    gsl_vector_add(w->vn, w->vt);
    gsl_vector_sub(w->vn, r0->v_plus);
    x->split = fmax(x->split, gsl_blas_dnrm2(w->vn) / fmax(gsl_blas_dnrm2(r0->v_plus), 1e-300));
    return 0;
}

/* The cone split (4.1) of a random reaction: KKT residuals; -1 if it failed. */
static int p4_cone_checks(gsl_rng *r, long t, p4_rand *s, p4_work *w, p4_stats *x)
{
    for (size_t i = 0; i < s->n; i++) gsl_vector_set(w->rr, i, gsl_ran_gaussian(r, 1.0));
    if (fl_p4_split_reaction(&s->p, w->rr, w->lam, w->rt, NULL) != FL_OK) {
        snprintf(x->fail_msg, sizeof x->fail_msg, "system %ld: the cone split failed", t);
        return -1;
    }
    gsl_linalg_cholesky_decomp1(s->M);                                 /* M now holds L */
    gsl_vector_memcpy(w->tmp, w->rt);
    gsl_linalg_cholesky_svx(s->M, w->tmp);                             /* W r_tau */
    gsl_blas_dgemv(CblasNoTrans, 1.0, s->D, w->tmp, 0.0, w->dv);
    double rn = gsl_blas_dnrm2(w->rr) * gsl_blas_dnrm2(w->tmp), compl = 0.0;
    for (size_t a = 0; a < s->m; a++) {
        x->kkt = fmax(x->kkt, fmax(-gsl_vector_get(w->lam, a), gsl_vector_get(w->dv, a)) / rn);
        compl += gsl_vector_get(w->lam, a) * gsl_vector_get(w->dv, a);
    }
    x->kkt = fmax(x->kkt, fabs(compl) / rn);
    return 0;
}

/* One random P'4 step through every type, then the invariants of the
 * reference's answer and the twins' agreement. */
static void p4_one_step(gsl_rng *r, long t, p4_stats *x)
{
    p4_rand s;
    if (rand_make(r, &s, 0) != 0) {
        rand_release(&s);
        x->fail++;
        return;
    }
    p4_work w;
    /* the workspace (before the draws: an allocation failure leaves the
     * random stream as it is) */
    if (!p4_work_alloc(&w, s.n, s.m)) {
        x->fail++;
        snprintf(x->fail_msg, sizeof x->fail_msg, "system %ld: out of memory", t);
        goto done;
    }
    for (size_t i = 0; i < s.n; i++) gsl_vector_set(w.v, i, gsl_ran_gaussian(r, 1.0));
    int with_force = t % 2;
    if (with_force) {
        for (size_t i = 0; i < s.n; i++) gsl_vector_set(w.imp, i, gsl_ran_gaussian(r, 0.3));
    } else {
        /* make constraint 0 approaching (an impact): reflect v if D_0 v > 0 */
        gsl_vector_const_view d0 = gsl_matrix_const_row(s.D, 0);
        double dv, dd;
        gsl_blas_ddot(&d0.vector, w.v, &dv);
        gsl_blas_ddot(&d0.vector, &d0.vector, &dd);
        if (dv > 0) gsl_blas_daxpy(-2.0 * dv / dd, &d0.vector, w.v);
    }
    fl_p4_impact_law law = {s.m == 1 ? FL_P4_IMPACT_NEWTON : FL_P4_IMPACT_INELASTIC, gsl_rng_uniform(r), NULL, NULL,
                            NULL};
    int rejected;
    if (p4_run_types(t, &s, &w, &law, x, &rejected) != 0) {
        x->fail++;
        goto done;
    }
    if (rejected == 2) {
        x->rejected++;
        goto done;
    }
    if (s.m > 1) x->multi++;
    if (!with_force && w.res[0]->impact) {
        x->impact_n++;
        x->impact = fmax(x->impact, (w.res[0]->energy_plus - w.res[0]->energy_minus) /
                                        fmax(w.res[0]->energy_minus, 1e-300));
    }
    if (p4_velocity_checks(t, &s, &w, x) != 0 || p4_cone_checks(r, t, &s, &w, x) != 0) {
        x->fail++;
        goto done;
    }
    gsl_vector_memcpy(w.tmp, w.res[0]->v_plus);                      /* ref vs optimized */
    gsl_vector_sub(w.tmp, w.res[1]->v_plus);
    double diff = gsl_blas_dnrm2(w.tmp) / (gsl_blas_dnrm2(w.res[0]->v_plus) + gsl_blas_dnrm2(w.v));
    if (s.m == 1) x->diff1 = fmax(x->diff1, diff);
    else x->diff2 = fmax(x->diff2, diff);
done:
    p4_work_free(&w);
    rand_release(&s);
}

static void p4_steps_report(fl_check_ctx *ctx, long N, const p4_stats *x)
{
    /* Counts are values with expected 0 and tolerance 0: a count above 0 fails. */
    fl_check_value(ctx, x->fail == 0, "p4.steps_run", (double)x->fail, 0.0, 0.0,
                   "001 §5 (P'4 step), proofs/README.md row 001 §5 P'4",
                   "%ld of %ld systems failed%s%s (both implementations)", x->fail, N, x->fail ? ": " : "",
                   x->fail_msg);
    fl_check_value(ctx, x->rejected <= N / 10, "p4.inelastic_law_c2_rejections", (double)x->rejected, 0.0,
                   (double)(N / 10), "001 §5 consistency condition C2 (proofs/p4_law.md §4)",
                   "%ld of %ld two-constraint systems rejected by C2 (unbounded C*, 001 §5; <= 10%%)",
                   x->rejected, N);
    fl_check_value(ctx, x->energy <= 1e-10, "p4.prop51_step_energy", x->energy, 0.0, 1e-10,
                   "001 Proposition 5.1 (proofs/p4_law.md §3)",
                   "max (1/2|v+|^2 - 1/2|v_free|^2)/(1/2|v_free|^2) = %.3g (001 Prop. 5.1, tol 1e-10)", x->energy);
    fl_check_value(ctx, x->impact_n > 0 && x->impact <= 1e-10, "p4.prop51_impact_energy", x->impact, 0.0, 1e-10,
                   "001 Proposition 5.1 (proofs/p4_law.md §3)",
                   "max relative kinetic-energy change at %ld impacts = %.3g (001 Prop. 5.1: <= 0, tol 1e-10)",
                   x->impact_n, x->impact);
    fl_check_value(ctx, x->rtau <= 1e-9, "p4.rtau_vt_nonpositive", x->rtau, 0.0, 1e-9,
                   "001 proof of Proposition 5.1 (proofs/p4_law.md §3)",
                   "max <r_tau, v_t^+>/(|v|_M |R|) = %.3g (001 proof of Prop. 5.1, tol 1e-9)", x->rtau);
    fl_check_value(ctx, x->split <= 1e-11, "p4.velocity_split", x->split, 0.0, 1e-11,
                   "001 §3.1 (proofs/split.md)",
                   "max |<v_n,v_t>_M|/|v|^2 and reconstruction = %.3g (001 §3.1, tol 1e-11)", x->split);
    fl_check_value(ctx, x->kkt <= 1e-10, "p4.cone_split_kkt", x->kkt, 0.0, 1e-10, "001 (4.1) (proofs/p4_law.md §1)",
                   "max of -lambda, D W r_tau, |lambda.D W r_tau| (relative) = %.3g (001 (4.1), tol 1e-10)", x->kkt);
    fl_check_value(ctx, x->gap <= 1e-7, "p4.certificate", x->gap, 0.0, 1e-7,
                   "001 §5 P'4 step, duality gap (proofs/p4_law.md §3)",
                   "max relative dissipation gap %.3g (tol 1e-7), %ld warnings", x->gap, x->warn);
    fl_check_value(ctx, x->nres <= 1e-10, "p4.normal_residual", x->nres, 0.0, 1e-10,
                   "001 §5 P'4 step, normal law (proofs/p4_law.md §3)",
                   "max normal residual %.3g (tol 1e-10)", x->nres);
    fl_check_value(ctx, x->diff1 <= 1e-9, "p4.reference_vs_optimized", x->diff1, 0.0, 1e-9,
                   "reference/p4_law.c vs optimized/p4_law_sparse.c (proofs/p4_law.md §3)",
                   "max |v+_ref - v+_opt|/|v| = %.3g (m = 1, tol 1e-9)", x->diff1);
    fl_check_value(ctx, x->diff2 <= 1e-5, "p4.reference_vs_optimized_two_constraints", x->diff2, 0.0, 1e-5,
                   "reference/p4_law.c vs optimized/p4_law_sparse.c, block Gauss-Seidel (proofs/p4_law.md §3)",
                   "max |v+_ref - v+_opt|/|v| = %.3g (m = 2, %ld systems, tol 1e-5)", x->diff2, x->multi);
}

/* Consistency conditions: Newton's law, one constraint (001 §5 comment 1). */
static void p4_newton_check(fl_check_ctx *ctx, gsl_rng *r, long N)
{
    long newton_bad = 0, e_gt1_ok = 0, nn = N / 4 + 1;
    for (long t = 0; t < nn; t++) {
        p4_rand s;
        if (rand_make(r, &s, 1) != 0) {
            rand_release(&s);
            newton_bad++;
            continue;
        }
        gsl_vector *v = fl_dense_vector_alloc(s.n), *F = fl_dense_vector_alloc(s.n);
        if (!v || !F) {
            newton_bad++;
            gsl_vector_free(v);
            gsl_vector_free(F);
            rand_release(&s);
            continue;
        }
        for (size_t i = 0; i < s.n; i++) gsl_vector_set(v, i, gsl_ran_gaussian(r, 1.0));
        double e1 = gsl_rng_uniform(r), e2 = 1.0 + 1e-3 + gsl_rng_uniform(r);
        fl_p4_impact_law good = {FL_P4_IMPACT_NEWTON, e1, NULL, NULL, NULL};
        fl_p4_impact_law badl = {FL_P4_IMPACT_NEWTON, e2, NULL, NULL, NULL};
        fl_error e;
        if (fl_p4_impact_newton(&s.p, &good, v, F, NULL) != FL_OK ||
            fl_p4_impact_check(&s.p, v, F, 1e-9, NULL, &e) != FL_OK)
            newton_bad++;
        fl_status sn = fl_p4_impact_newton(&s.p, &badl, v, F, &e);
        gsl_vector_const_view d = gsl_matrix_const_row(s.D, 0);
        double dv;
        gsl_blas_ddot(&d.vector, v, &dv);
        fl_status st = sn == FL_OK ? fl_p4_impact_check(&s.p, v, F, 1e-9, NULL, &e) : sn;
        /* departing v^-: Newton keeps v_n, consistent for any e */
        if (dv < 0 && !(st == FL_EINVAL && strstr(e.message, "C4"))) e_gt1_ok++;
        if (dv >= 0 && st != FL_OK) e_gt1_ok++;
        gsl_vector_free(v);
        gsl_vector_free(F);
        rand_release(&s);
    }
    fl_check_value(ctx, newton_bad == 0 && e_gt1_ok == 0, "p4.newton_consistency", (double)(newton_bad + e_gt1_ok),
                   0.0, 0.0, "001 §5 comment 1, conditions C1-C4 (proofs/p4_law.md §4)",
                   "%ld systems: e in [0,1] failed C1-C4 %ld times; e > 1 not rejected by C4 %ld times "
                   "(001 §5 comment 1)", nn, newton_bad, e_gt1_ok);
}

/* One planar cone (001 §6.1): 0 in C*, unbounded <=> r_n < 0 on an edge of
 * G (independent sign test of r_n = g.W.dphi); 1 on a failure, *unb the sign. */
static int p4_fset_one(gsl_rng *r, int *unb)
{
    size_t n = 2 + gsl_rng_uniform_int(r, 5);
    gsl_matrix *M = fl_dense_matrix_alloc(n, n), *tl = fl_dense_matrix_alloc(n, 2);
    if (!M || !tl || fl_random_spd(r, 100.0, 1.0, M) != FL_OK) {   /* no draw: a failure */
        gsl_matrix_free(M);
        gsl_matrix_free(tl);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < 2; j++) gsl_matrix_set(tl, i, j, gsl_ran_gaussian(r, 1.0));
    double th = 2 * FL_PI * gsl_rng_uniform(r), nv[2] = {cos(th), sin(th)};
    gsl_vector *dphi = fl_dense_vector_alloc(n), *wd = fl_dense_vector_alloc(n), *g = fl_dense_vector_alloc(n);
    fl_spd *spd = NULL;
    int bad = !dphi || !wd || !g;
    double mu = 0;
    if (!bad) {
        for (size_t i = 0; i < n; i++)
            gsl_vector_set(dphi, i, gsl_matrix_get(tl, i, 0) * nv[0] + gsl_matrix_get(tl, i, 1) * nv[1]);
        mu = fl_rng_loguniform(r, 1e-2, 10.0);
        bad = fl_spd_alloc(M, &spd, NULL) != FL_OK;   /* M refused: no sign test, a failure */
    }
    if (!bad) {
        fl_fset_contact c = {tl, {nv[0], nv[1], 0.0}, mu};
        fl_fset_result fr;
        fl_spd_solve(spd, dphi, wd);
        int neg = 0;
        for (int sg = -1; sg <= 1; sg += 2) {
            double rw[2] = {nv[0] - sg * mu * nv[1], nv[1] + sg * mu * nv[0]};
            gsl_vector_const_view c0 = gsl_matrix_const_column(tl, 0), c1 = gsl_matrix_const_column(tl, 1);
            gsl_vector_memcpy(g, &c0.vector);
            gsl_vector_scale(g, rw[0]);
            gsl_blas_daxpy(rw[1], &c1.vector, g);
            double rn;
            gsl_blas_ddot(g, wd, &rn);
            if (rn < -1e-9 * fl_spd_dual_norm(spd, g) * fl_spd_dual_norm(spd, dphi)) neg = 1;
        }
        bad = fl_fset_build(M, dphi, 1, &c, NULL, &fr, NULL) != FL_OK || !fr.contains_zero || (!fr.bounded) != neg;
        *unb = neg;
        fl_fset_result_release(&fr);
    }
    fl_spd_free(spd);
    gsl_vector_free(wd);
    gsl_vector_free(g);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
    return bad;
}

static void p4_fset_check(fl_check_ctx *ctx, gsl_rng *r, long N)
{
    long fs_bad = 0, fs_unb = 0;
    for (long t = 0; t < N; t++) {
        int unb = 0;
        fs_bad += p4_fset_one(r, &unb);
        fs_unb += unb;
    }
    fl_check_value(ctx, fs_bad == 0, "p4.fset_zero_and_unbounded", (double)fs_bad, 0.0, 0.0,
                   "001 §6.1 (proofs/p4_law.md §2)",
                   "%ld planar cones (%ld with r_n < 0 edges): %ld failures of [0 in C*, unbounded <=> "
                   "r_n < 0 in G] (001 §6.1)", N, fs_unb, fs_bad);
}

/* Trajectories with forces: discrete Prop. 5.1 (constant M):
 * 1/2|v_k+1|^2 <= 1/2|v_k|^2 + <h f_k, v_k> + h^2/2 |f_k|*^2 at every step */
static void p4_trajectory_check(fl_check_ctx *ctx, gsl_rng *r, long N, char *fail_msg, size_t msg_size)
{
    long nt = N / 20 + 1, traj_bad = 0;
    double w_traj = -INFINITY;
    for (long t = 0; t < nt; t++) {
        p4_rand s;
        if (rand_make(r, &s, 0) != 0) {
            rand_release(&s);
            traj_bad++;
            continue;
        }
        gsl_vector *Lc = fl_dense_vector_calloc(s.m), *Lg = fl_dense_vector_alloc(s.n);
        gsl_vector *q = fl_dense_vector_calloc(s.n), *v = fl_dense_vector_alloc(s.n);
        if (!Lc || !Lg || !q || !v) {
            traj_bad++;
            snprintf(fail_msg, msg_size, "trajectory %ld: out of memory", t);
            goto traj_done;
        }
        fl_p4_check_linear L = {s.M, s.D, s.C, Lc, Lg, 0.5 + gsl_rng_uniform(r), 0};
        fl_random_vector(r, 2.0, Lg);
        fl_p4_system sys = fl_p4_check_linear_system(&L, gsl_rng_uniform(r));
        for (size_t i = 0; i < s.n; i++) gsl_vector_set(v, i, gsl_ran_gaussian(r, 1.0));
        fl_p4_sim_result sr;
        fl_error e;
        fl_p4_options o = fl_p4_options_default();
        if (fl_p4_simulate(&sys, 0.0, 1e-2, 300, q, v, &o, NULL, NULL, &sr, &e) != FL_OK) {
            /* two constraints with unbounded sets may meet an inconsistent C2 */
            if (!(s.m > 1 && strstr(e.message, "C2"))) {
                traj_bad++;
                snprintf(fail_msg, msg_size, "trajectory %ld: %s", t, e.message);
            }
        } else {
            w_traj = fmax(w_traj, sr.energy_violation);
        }
    traj_done:
        gsl_vector_free(q);
        gsl_vector_free(v);
        gsl_vector_free(Lc);
        gsl_vector_free(Lg);
        rand_release(&s);
        fl_check_progress(ctx, "p4 trajectories", t + 1, nt);
    }
    fl_check_value(ctx, traj_bad == 0 && w_traj <= 1e-10, "p4.trajectory_energy", w_traj, 0.0, 1e-10,
                   "001 Proposition 5.1, discrete form (proofs/p4_law.md §3)",
                   "%ld trajectories of 300 steps with spring + constant force: max step energy excess "
                   "1/2|v+|^2 - 1/2|v_k + h W f_k|^2 = %.3g (discrete Prop. 5.1, tol 1e-10)%s%s", nt, w_traj,
                   traj_bad ? "; " : "", traj_bad ? fail_msg : "");
}

int fl_p4_crosscheck(fl_check_ctx *ctx)
{
    long N = ctx->systems;
    gsl_rng *r = fl_rng_alloc(ctx->seed);
    if (!r) return -1;
    p4_stats x;
    memset(&x, 0, sizeof x);
    x.energy = x.impact = -INFINITY;
    for (long t = 0; t < N; t++) {
        p4_one_step(r, t, &x);
        fl_check_progress(ctx, "p4 steps", t + 1, N);
    }
    p4_steps_report(ctx, N, &x);
    p4_newton_check(ctx, r, N);
    p4_fset_check(ctx, r, N);
    p4_trajectory_check(ctx, r, N, x.fail_msg, sizeof x.fail_msg);
    gsl_rng_free(r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* data/001 parameters                                                  */
/* ------------------------------------------------------------------ */

/* The closed-form ends of C* printed in the data file (member expected.<side>
 * = {lo, hi}; lo may be the string "-inf"), so that no paper value lives in
 * C.  Returns 0, or -1 after a message naming the file and field. */
static int load_set_expected(fl_check_ctx *ctx, const char *path, const char *side, double *lo, double *hi)
{
    fl_json_doc *doc = NULL;
    fl_error err;
    const json_t *ex = NULL, *sd = NULL;
    char where[64];
    snprintf(where, sizeof where, "expected.%s", side);
    fl_status st = fl_json_load(path, &doc, &err);
    if (st == FL_OK) st = fl_json_object(doc, doc->root, "", "expected", &ex, &err);
    if (st == FL_OK) st = fl_json_object(doc, ex, "expected", side, &sd, &err);
    if (st == FL_OK) st = fl_json_number(doc, sd, where, "hi", hi, &err);
    if (st == FL_OK) {
        const json_t *l = json_object_get(sd, "lo");
        if (json_is_string(l) && strcmp(json_string_value(l), "-inf") == 0) *lo = -INFINITY;
        else st = fl_json_number(doc, sd, where, "lo", lo, &err);
    }
    fl_json_free(doc);
    if (st != FL_OK) {
        fl_check_message(ctx, "painleve_set: %s", err.message);
        return -1;
    }
    return 0;
}

static FILE *open_out(fl_check_ctx *ctx, const char *file, char *path, size_t len)
{
    if (fl_check_out_path(ctx, file, path, len) != 0) return NULL;
    FILE *f = fopen(path, "w");
    if (!f) fl_check_message(ctx, "cannot write %s", path);
    return f;
}

static void plot(fl_check_ctx *ctx, const char *png, const char *body)
{
    char path[4096], script[20480];
    if (fl_check_out_path(ctx, png, path, sizeof path) != 0) return;
    snprintf(script, sizeof script, "set terminal png size 800,500 noenhanced\nset output '%s'\n%s\n", path, body);
    fl_check_plot(ctx, script);
}

/* ------------------------------------------------------------------ */
/* The Painlevé bar of 001 §6.2 under P'3 (friction set from §6.1)      */
/* ------------------------------------------------------------------ */

typedef fl_model_painleve bar;   /* models/fl_model_painleve.h */

typedef struct bar_trace {
    FILE *csv;
    long steps;
    double max_xdot_after, max_theta_dev, first_Rx, first_lambda, max_lambda_after, min_xdot, max_xdot;
    double xdot0;
    int impact_seen;
} bar_trace;

static int bar_observe(void *data, long k, double t, const gsl_vector *q, const gsl_vector *v,
                       const fl_p4_step_result *st)
{
    bar_trace *tr = data;
    double xd = gsl_vector_get(v, 0);
    if (k == 0) {
        tr->first_Rx = gsl_vector_get(st->R, 0);
        tr->first_lambda = st->m ? gsl_vector_get(st->lambda, 0) : 0.0;
    } else {
        tr->max_xdot_after = fmax(tr->max_xdot_after, fabs(xd));
    }
    tr->min_xdot = fmin(tr->min_xdot, xd);
    tr->max_xdot = fmax(tr->max_xdot, xd);
    tr->max_theta_dev = fmax(tr->max_theta_dev, fabs(gsl_vector_get(v, 1)));
    if (st->m && k > 0) tr->max_lambda_after = fmax(tr->max_lambda_after, fabs(gsl_vector_get(st->lambda, 0)));
    if (st->impact) tr->impact_seen = 1;
    tr->steps = k + 1;
    if (tr->csv)
        fprintf(tr->csv, "%.9g,%.12g,%.12g,%.12g,%.12g,%.12g\n", t, gsl_vector_get(q, 0), gsl_vector_get(q, 1),
                xd, gsl_vector_get(v, 1), st->m ? gsl_vector_get(st->lambda, 0) : 0.0);
    return 0;
}

static fl_status bar_run(bar *b, double V0, double h, long steps, FILE *csv, bar_trace *tr,
                         gsl_vector *qout, fl_error *err)
{
    fl_p4_system sys = fl_model_painleve_system(b);
    gsl_vector *q = fl_dense_vector_alloc(2), *v = fl_dense_vector_alloc(2);
    memset(tr, 0, sizeof *tr);
    if (!q || !v) {
        gsl_vector_free(q);
        gsl_vector_free(v);
        return FL_FAIL(err, FL_ENOMEM, "out of memory for the bar's state");
    }
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, b->theta0);
    gsl_vector_set(v, 0, V0);
    gsl_vector_set(v, 1, 0.0);
    tr->csv = csv;
    tr->min_xdot = INFINITY;
    tr->max_xdot = -INFINITY;
    if (csv) fprintf(csv, "t,x,theta,xdot,thetadot,r_theta_impulse\n0,0,%.12g,%.12g,0,0\n", b->theta0, V0);
    fl_p4_sim_result sr;
    fl_status st = fl_p4_simulate(&sys, 0.0, h, steps, q, v, NULL, bar_observe, tr, &sr, err);
    if (qout) gsl_vector_memcpy(qout, q);
    gsl_vector_free(q);
    gsl_vector_free(v);
    return st;
}

/* The bar of data/001/<name>.json (or the user's file, --params). */
static int load_bar(fl_check_ctx *ctx, const char *name, fl_model_painleve_params *P, char *src, size_t len)
{
    char rel[256], path[4096];
    fl_error err;
    snprintf(rel, sizeof rel, "001/%s.json", name);
    if (fl_check_params_path(ctx, rel, path, sizeof path) != 0) return -1;
    if (fl_model_painleve_load(path, P, &err) != FL_OK) {
        fl_check_message(ctx, "%s: %s", name, err.message);
        return -1;
    }
    snprintf(src, len, "%s", path);
    return 0;
}

/* reproduce painleve_set: the friction set of 001 §6.2 built by §6.1 */
int fl_p4_reproduce_painleve_set(fl_check_ctx *ctx)
{
    fl_model_painleve_params P;
    char src[4200];
    if (load_bar(ctx, "painleve_set", &P, src, sizeof src) != 0) return -1;
    double t0 = P.theta0, l = P.l, c = cos(t0), s = sin(t0), thr = -1.0 / tan(t0);
    /* two fixtures (001 §6.2): mu_small and mu_large of the file, with the
     * closed-form ends of C* printed in its "expected" member */
    double fix[2][3] = {{P.mu_small, 0, 0}, {P.mu_large, 0, 0}};
    if (fl_check_user_params(ctx)) {
        /* the user's parameters: the closed form of 001 §6.2 (proofs/p4_law.md §5) */
        for (int k = 0; k < 2; k++) {
            double mu = fix[k][0];
            fix[k][1] = mu < thr ? -mu / (l * (c + mu * s)) : -INFINITY;
            fix[k][2] = mu / (l * (c - mu * s));
        }
    } else if (load_set_expected(ctx, src, "mu_small", &fix[0][1], &fix[0][2]) != 0 ||
               load_set_expected(ctx, src, "mu_large", &fix[1][1], &fix[1][2]) != 0) {
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        bar b = {P.m, P.J, l, t0, fix[k][0], 0, 0, {0}};
        fl_error e;
        if (fl_model_painleve_build(&b, FL_FSET_BY_DPHI, &e) != FL_OK) {
            fl_check_message(ctx, "painleve_set: %s", e.message);
            return -1;
        }
        int lo_ok = isinf(fix[k][1]) ? isinf(b.fs.set.lo) && b.fs.set.lo < 0 : fabs(b.fs.set.lo - fix[k][1]) < 1e-9;
        int hi_ok = fabs(b.fs.set.hi - fix[k][2]) < 1e-9;
        /* the lower end: a number, or -inf for the unbounded set (then the
         * value is -inf and the check is the boolean isinf) */
        fl_check_value(ctx, lo_ok, k ? "painleve_set.mu2_unbounded" : "painleve_set.mu05_bounded", b.fs.set.lo,
                       fix[k][1], isinf(fix[k][1]) ? NAN : 1e-9, "001 §6.2 closed form of C* (proofs/p4_law.md §5)",
                       "mu = %g: lower end of C* = %.10g (closed form 001 §6.2: %.10g, tol 1e-9; %s)", fix[k][0],
                       b.fs.set.lo, fix[k][1], src);
        fl_check_value(ctx, hi_ok, k ? "painleve_set.mu2_upper_end" : "painleve_set.mu05_upper_end", b.fs.set.hi,
                       fix[k][2], 1e-9, "001 §6.2 closed form of C* (proofs/p4_law.md §5)",
                       "mu = %g: upper end of C* = %.10g (closed form 001 §6.2: %.10g, tol 1e-9)", fix[k][0],
                       b.fs.set.hi, fix[k][2]);
        fl_fset_result_release(&b.fs);
    }
    /* sweep mu across the threshold -1/tan(theta0) */
    char path[4096];
    FILE *f = open_out(ctx, "painleve_set.csv", path, sizeof path);
    if (f) fprintf(f, "mu,lo_built,hi_built,lo_closed,hi_closed\n");
    double worst = 0.0;
    int switch_ok = 1;
    long ns = ctx->quick ? 60 : 400;
    for (long i = 0; i < ns; i++) {
        double mu = 0.02 + (2.0 * thr) * (double)i / (double)(ns - 1);
        if (fabs(mu - thr) < 1e-9) continue;
        bar b = {P.m, P.J, l, t0, mu, 0, 0, {0}};
        if (fl_model_painleve_build(&b, FL_FSET_BY_DPHI, NULL) != FL_OK) return -1;
        double hi = mu / (l * (c - mu * s)), lo = mu < thr ? -mu / (l * (c + mu * s)) : -INFINITY;
        worst = fmax(worst, fabs(b.fs.set.hi - hi) / fabs(hi));
        if (mu < thr) worst = fmax(worst, fabs(b.fs.set.lo - lo) / fabs(lo));
        if ((mu < thr) != (b.fs.bounded != 0)) switch_ok = 0;
        if (f)
            fprintf(f, "%.9g,%.12g,%.12g,%.12g,%.12g\n", mu, isinf(b.fs.set.lo) ? -1e300 : b.fs.set.lo,
                    b.fs.set.hi, isinf(lo) ? -1e300 : lo, hi);
        fl_fset_result_release(&b.fs);
    }
    if (f) fclose(f);
    fl_check_value(ctx, worst <= 1e-10, "painleve_set.sweep_closed_form", worst, 0.0, 1e-10,
                   "001 §6.2 closed form of C* (proofs/p4_law.md §5)",
                   "%ld values of mu in [0.02, %.3g]: max relative deviation from 001 §6.2 = %.3g (tol 1e-10)",
                   ns, 2 * thr, worst);
    /* genuinely boolean: bounded or not, on each side of the threshold */
    fl_check_report(ctx, switch_ok, "painleve_set.switch_at_threshold",
                    "bounded exactly for mu < -1/tan(theta0) = %.10g (001 §6.2)", thr);
    /* normalisation: C*_dphi = |dphi|* C*_n*, |dphi|* = 1/sqrt(J) */
    bar b1 = {P.m, P.J, l, t0, 0.5, 0, 0, {0}}, b2 = b1;
    fl_model_painleve_build(&b1, FL_FSET_BY_DPHI, NULL);
    fl_model_painleve_build(&b2, FL_FSET_BY_NSTAR, NULL);
    double dn = 1.0 / sqrt(P.J);
    double dev = fmax(fabs(b1.fs.set.lo - dn * b2.fs.set.lo), fabs(b1.fs.set.hi - dn * b2.fs.set.hi));
    fl_check_value(ctx, dev <= 1e-12, "painleve_set.normalisation", dev, 0.0, 1e-12, "proofs/p4_law.md §2",
                   "C*_dphi - |dphi|* C*_n* = %.3g (|dphi|* = 1/sqrt(J) = %.6g; proofs/p4_law.md §2, tol 1e-12)",
                   dev, dn);
    fl_fset_result_release(&b1.fs);
    fl_fset_result_release(&b2.fs);
    char body[12288];
    char csvp[4096];
    if (fl_check_out_path(ctx, "painleve_set.csv", csvp, sizeof csvp) == 0) {
        snprintf(body, sizeof body,
                 "set datafile separator ','\nset key left top\nset xlabel 'mu'\nset ylabel 'end of C* (r_x / r_theta)'\n"
                 "set yrange [-6:6]\nset arrow from %g,-6 to %g,6 nohead dt 2\n"
                 "set title 'Painleve bar: friction set of 001 6.2 built by 6.1 (theta0 = %.3g)'\n"
                 "plot '%s' every ::1 using 1:($2 < -1e299 ? 1/0 : $2) with lines lw 3 title 'lower end (built by 6.1)', "
                 "'' every ::1 using 1:3 with lines lw 3 title 'upper end (built by 6.1)', "
                 "'' every 12::1 using 1:($4 < -1e299 ? 1/0 : $4) with points pt 7 ps 0.8 lc rgb 'black' title 'closed form 6.2', "
                 "'' every 12::1 using 1:5 with points pt 7 ps 0.8 lc rgb 'black' notitle\n",
                 thr, thr, t0, csvp);
        plot(ctx, "painleve_set.png", body);
    }
    return 0;
}

/* reproduce painleve_catastrophe: tangential impact at t = 0 then rest (mu large);
 * sliding to rest in closed form (mu small) */
int fl_p4_reproduce_painleve_catastrophe(fl_check_ctx *ctx)
{
    fl_model_painleve_params P;
    char src[4200];
    if (load_bar(ctx, "painleve_catastrophe", &P, src, sizeof src) != 0) return -1;
    double h = P.h, T = ctx->quick ? P.T / 5 : P.T, V0 = P.V0, C0 = P.C0;
    long steps = (long)floor(T / h + 0.5);
    char path[4096];
    fl_error e;
    /* mu >= -1/tan(theta0): unbounded C*, catastrophe */
    bar b = {P.m, P.J, P.l, P.theta0, P.mu_large, 0.0, C0, {0}};
    if (fl_model_painleve_build(&b, FL_FSET_BY_DPHI, &e) != FL_OK) {
        fl_check_message(ctx, "painleve_catastrophe: %s", e.message);
        return -1;
    }
    FILE *f = open_out(ctx, "painleve_catastrophe_mu_large.csv", path, sizeof path);
    bar_trace tr;
    memset(&tr, 0, sizeof tr);
    gsl_vector *q = fl_dense_vector_alloc(2);
    fl_status st = q ? bar_run(&b, V0, h, steps, f, &tr, q, &e)
                     : FL_FAIL(&e, FL_ENOMEM, "out of memory for the bar's position");
    if (f) fclose(f);
    if (st != FL_OK) {
        fl_check_message(ctx, "painleve_catastrophe: %s", e.message);
        fl_fset_result_release(&b.fs);
        gsl_vector_free(q);
        return -1;
    }
    /* genuinely boolean: the set is unbounded and no normal impact occurs */
    fl_check_report(ctx, !b.fs.bounded && !tr.impact_seen, "painleve_catastrophe.unbounded_set_no_normal_impact",
                    "mu = %g >= -1/tan(theta0) = %.6g: C* = ]-inf, %.6g], theta'- = 0 (no normal impact; %s)",
                    b.mu, -1.0 / tan(b.theta0), b.fs.set.hi, src);
    fl_check_value(ctx, fabs(tr.first_Rx + b.m * V0) <= 1e-12 * b.m * V0, "painleve_catastrophe.tangential_impact",
                   tr.first_Rx, -b.m * V0, 1e-12 * b.m * V0, "001 §6.2 item 2, R_x = -m V0",
                   "first step: R_x = %.15g = -m V0 = %.15g (tangential impact, 001 §6.2 "
                   "item 2, tol 1e-12 m V0)", tr.first_Rx, -b.m * V0);
    fl_check_value(ctx, fabs(tr.first_lambda + h * C0) <= 1e-12 * fabs(h * C0), "painleve_catastrophe.normal_impulse",
                   tr.first_lambda, -h * C0, 1e-12 * fabs(h * C0), "001 §6.2, lambda = -h C0 (proofs/p4_law.md §5)",
                   "first step: lambda = %.15g = -h C0 = %.15g (closed form, tol 1e-12 |h C0|)", tr.first_lambda,
                   -h * C0);
    fl_check_value(ctx, tr.max_xdot_after <= 1e-14 * V0 && tr.max_theta_dev <= 1e-14 * fabs(h * C0 / b.J),
                   "painleve_catastrophe.rest_after_impact", tr.max_xdot_after, 0.0, 1e-14 * V0,
                   "001 §6.2 item 2 (immobility after the tangential impact)",
                   "%ld steps after t = 0: max |x'| = %.3g (tol 1e-14 V0), max |theta'| = %.3g (tol 1e-14 |h C0/J|) "
                   "(immobility, 001 §6.2)", tr.steps - 1, tr.max_xdot_after, tr.max_theta_dev);
    fl_fset_result_release(&b.fs);
    /* mu < -1/tan(theta0): bounded C* = [a, b]: x'' = -C0 a / m until rest at
     * t* = m V0 / (C0 a), x(t*) = V0 t* / 2 (proofs/p4_law.md §5) */
    bar bs = {P.m, P.J, P.l, P.theta0, P.mu_small, 0.0, C0, {0}};
    if (fl_model_painleve_build(&bs, FL_FSET_BY_DPHI, &e) != FL_OK) {
        gsl_vector_free(q);
        return -1;
    }
    double a = bs.fs.set.lo, tstar = bs.m * V0 / (C0 * a), xstop = V0 * tstar / 2;
    long steps2 = (long)floor(fmax(T, 1.5 * tstar) / h + 0.5);
    f = open_out(ctx, "painleve_catastrophe_mu_small.csv", path, sizeof path);
    st = bar_run(&bs, V0, h, steps2, f, &tr, q, &e);
    if (f) fclose(f);
    double xend = gsl_vector_get(q, 0);
    fl_check_value(ctx, st == FL_OK && bs.fs.bounded && fabs(xend - xstop) <= 2 * V0 * h,
                   "painleve_catastrophe.bounded_set_slides_to_rest", xend, xstop, 2 * V0 * h,
                   "proofs/p4_law.md §5 (x(t*) = V0 t*/2, t* = m V0/(C0 a))",
                   "mu = %g: x(end) = %.9g, closed form V0 t*/2 = %.9g, t* = m V0/(C0 a) = %.6g (tol 2 V0 h = %.2g)",
                   bs.mu, xend, xstop, tstar, 2 * V0 * h);
    fl_check_value(ctx, st == FL_OK && tr.min_xdot >= 0.0 && tr.max_xdot <= V0,
                   "painleve_catastrophe.bounded_set_no_catastrophe", tr.min_xdot, 0.0, 0.0,
                   "001 §6.2 (no tangential impact with a bounded set): min x' >= 0, max x' <= V0",
                   "x' decreases continuously from %.6g (max %.6g) to %.3g, never below 0 (no tangential impact with "
                   "a bounded set, 001 §6.2)", V0, tr.max_xdot, tr.min_xdot);
    fl_fset_result_release(&bs.fs);
    gsl_vector_free(q);
    char c1[4096], c2[4096], body[12288];
    if (fl_check_out_path(ctx, "painleve_catastrophe_mu_large.csv", c1, sizeof c1) == 0 &&
        fl_check_out_path(ctx, "painleve_catastrophe_mu_small.csv", c2, sizeof c2) == 0) {
        snprintf(body, sizeof body,
                 "set datafile separator ','\nset xlabel 't'\nset ylabel \"x'\"\n"
                 "set title \"Painleve bar under P'3, f_theta = C0 < 0: tangential impact vs sliding\"\n"
                 "plot '%s' every ::1 using 1:4 with lines lw 2 title 'mu >= -1/tan(theta0): catastrophe at t=0', "
                 "'%s' every ::1 using 1:4 with lines lw 2 title 'mu < -1/tan(theta0): slides to rest'\n", c1, c2);
        plot(ctx, "painleve_catastrophe.png", body);
    }
    return 0;
}

/* reproduce painleve_grazing: C0 = 0, grazing x = V0 t is the unique P'3
 * motion; the P5 stop solution of the same step is refused by P'3 */
int fl_p4_reproduce_painleve_grazing(fl_check_ctx *ctx)
{
    fl_model_painleve_params P;
    char src[4200];
    if (load_bar(ctx, "painleve_grazing", &P, src, sizeof src) != 0) return -1;
    double h = P.h, T = ctx->quick ? P.T / 5 : P.T, V0 = P.V0;
    long steps = (long)floor(T / h + 0.5);
    bar b = {P.m, P.J, P.l, P.theta0, P.mu_large, 0.0, P.C0, {0}};   /* C0 = 0 in the file (001 §6.2) */
    fl_error e;
    if (fl_model_painleve_build(&b, FL_FSET_BY_DPHI, &e) != FL_OK) return -1;
    char path[4096];
    FILE *f = open_out(ctx, "painleve_grazing.csv", path, sizeof path);
    bar_trace tr;
    memset(&tr, 0, sizeof tr);
    gsl_vector *q = fl_dense_vector_alloc(2);
    fl_status st = q ? bar_run(&b, V0, h, steps, f, &tr, q, &e)
                     : FL_FAIL(&e, FL_ENOMEM, "out of memory for the bar's position");
    if (f) fclose(f);
    double dev_x = fmax(fabs(tr.min_xdot - V0), fabs(tr.max_xdot - V0));
    fl_check_value(ctx, st == FL_OK && dev_x == 0.0 && tr.max_theta_dev == 0.0, "painleve_grazing.unique_motion",
                   dev_x, 0.0, 0.0, "001 §6.2 (grazing x = V0 t is the unique P'3 motion; exact)",
                   "%ld steps: x' in [%.15g, %.15g], max |theta'| = %.3g: x = V0 t (001 §6.2: the unique P'3 "
                   "solution; exact; %s)", tr.steps, tr.min_xdot, tr.max_xdot, tr.max_theta_dev, src);
    double xT = st == FL_OK ? gsl_vector_get(q, 0) : NAN;
    fl_check_value(ctx, st == FL_OK && fabs(xT - V0 * (double)steps * h) <= 1e-9 * V0 * T,
                   "painleve_grazing.position", xT, V0 * (double)steps * h, 1e-9 * V0 * T,
                   "001 §6.2, x(T) = V0 T", "x(T) = %.12g, V0 T = %.12g (tol 1e-9 V0 T)", xT,
                   V0 * (double)steps * h);
    double lam_max = fmax(tr.max_lambda_after, fabs(tr.first_lambda));
    fl_check_value(ctx, st == FL_OK && lam_max == 0.0, "painleve_grazing.zero_reaction", lam_max, 0.0, 0.0,
                   "001 §6.2 (r_theta = 0, so r_x in 0 C* = {0}; exact)",
                   "max |r_theta impulse| = %.3g at every step, hence r_x in 0 C* = {0}", lam_max);
    /* the stop solution of a P5 step (001 §6.2): R~ = (-m V0, -m V0 tan t0) */
    double Rx = -b.m * V0, Ry = -b.m * V0 * tan(b.theta0), c = cos(b.theta0), s = sin(b.theta0);
    double rth = b.l * c * Ry - b.l * s * Rx;                      /* 001 (6.1) */
    int p5_ok = Ry >= 0 && fabs(Rx) <= b.mu * Ry * (1 + 1e-12);   /* Coulomb (stop: w+ = 0, any |R~x| <= mu R~y) */
    /* one-sided: Coulomb's cone |R~x| - mu R~y <= 0 (value), 0 the bound */
    fl_check_value(ctx, p5_ok, "painleve_grazing.p5_stop_solution_exists", fabs(Rx) - b.mu * Ry, 0.0,
                   1e-12 * b.mu * Ry, "001 §6.2 (P5 non-uniqueness; one-sided: |R~x| - mu R~y <= tol)",
                   "P5 step: R~ = (%.6g, %.6g), |R~x| <= mu R~y (%.6g <= %.6g), x'+ = theta'+ = 0: the real-world "
                   "formulation may stop the bar at any step (001 §6.2 non-uniqueness)", Rx, Ry, fabs(Rx), b.mu * Ry);
    /* P'3 refuses it: r_theta = 0 but r_x != 0 is not in 0 C* = {0} */
    gsl_matrix *M = fl_dense_matrix_calloc(2, 2), *D = fl_dense_matrix_calloc(1, 2);
    gsl_vector *r = fl_dense_vector_alloc(2);
    double dist = 0;   /* 0 (not measured, no workspace): the one-sided check FAILs */
    if (M && D && r) {
        gsl_matrix_set(M, 0, 0, b.m);
        gsl_matrix_set(M, 1, 1, b.J);
        gsl_matrix_set(D, 0, 1, 1.0);
        fl_p4_friction C = {b.fs.set, b.fs.E};
        fl_p4_problem pr = {2, 1, M, NULL, NULL, D, &C};
        gsl_vector_set(r, 0, Rx);
        gsl_vector_set(r, 1, rth);
        fl_p4_kfrict_distance(&pr, r, &dist, NULL);
    }
    /* one-sided: the distance must exceed tol = 1e-3 |R~x|/sqrt(m); no closed form is claimed */
    fl_check_value(ctx, fabs(rth) <= 1e-12 * fabs(Rx) && dist > 1e-3 * fabs(Rx) / sqrt(b.m),
                   "painleve_grazing.p5_stop_not_in_kfrict", dist, NAN, 1e-3 * fabs(Rx) / sqrt(b.m),
                   "001 §6.2 (the P5 stop impulse is not in K_frict of P'3; one-sided: value > tol)",
                   "its generalized impulse (r_x, r_theta) = (%.6g, %.3g) has W-distance %.6g to K_frict: not a P'3 "
                   "reaction", Rx, rth, dist);
    gsl_vector_free(r);
    gsl_matrix_free(M);
    gsl_matrix_free(D);
    gsl_vector_free(q);
    fl_fset_result_release(&b.fs);
    return 0;
}

/* reproduce painleve_p5_vs_p3: mu < -1/tan(theta0), P'3 and P5 give the same motion */
typedef struct p5_trace {
    FILE *csv;
    double *x, *xd;
    long n, cap;
    double h;
} p5_trace;

static int p5_observe(void *data, size_t step, double t, const gsl_vector *q, const fl_stewart_result *sr)
{
    p5_trace *tr = data;
    long k = (long)floor(t / tr->h + 0.5) - 1;              /* index by time: t = (k + 1) h */
    (void)step;
    if (k >= 0 && k < tr->cap) {
        tr->x[k] = gsl_vector_get(q, 0);
        tr->xd[k] = gsl_vector_get(sr->v_plus, 0);
        tr->n = k + 1;
    }
    if (tr->csv)
        fprintf(tr->csv, "%.9g,%.12g,%.12g\n", t, gsl_vector_get(q, 0), gsl_vector_get(sr->v_plus, 0));
    return 0;
}

typedef struct p3_rec {
    FILE *csv;
    double *x, *xd;
    long n, cap;
} p3_rec;

static int p3_observe(void *data, long k, double t, const gsl_vector *q, const gsl_vector *v,
                      const fl_p4_step_result *st)
{
    (void)st;
    p3_rec *tr = data;
    if (k < tr->cap) {
        tr->x[k] = gsl_vector_get(q, 0);
        tr->xd[k] = gsl_vector_get(v, 0);
        tr->n = k + 1;
    }
    if (tr->csv) fprintf(tr->csv, "%.9g,%.12g,%.12g\n", t, gsl_vector_get(q, 0), gsl_vector_get(v, 0));
    return 0;
}

int fl_p4_reproduce_painleve_p5_vs_p3(fl_check_ctx *ctx)
{
    fl_model_painleve_params P;
    char src[4200];
    if (load_bar(ctx, "painleve_p5_vs_p3", &P, src, sizeof src) != 0) return -1;
    double h = P.h, T = ctx->quick ? P.T / 4 : P.T, V0 = P.V0, C0 = P.C0;
    long steps = (long)floor(T / h + 0.5);
    bar b = {P.m, P.J, P.l, P.theta0, P.mu_small, 0.0, C0, {0}};
    fl_error e;
    if (fl_model_painleve_build(&b, FL_FSET_BY_DPHI, &e) != FL_OK) return -1;
    char path[4096];
    p3_rec r3 = {NULL, calloc((size_t)steps, sizeof(double)), calloc((size_t)steps, sizeof(double)), 0, steps};
    p5_trace r5 = {NULL, calloc((size_t)steps, sizeof(double)), calloc((size_t)steps, sizeof(double)), 0, steps, h};
    gsl_vector *q = fl_dense_vector_alloc(2), *v = fl_dense_vector_alloc(2);
    int rc = 0;
    if (!r3.x || !r3.xd || !r5.x || !r5.xd || !q || !v) {
        fl_check_message(ctx, "painleve_p5_vs_p3: out of memory for %ld steps", steps);
        rc = -1;
        goto done;
    }
    r3.csv = open_out(ctx, "painleve_p3.csv", path, sizeof path);
    if (r3.csv) fprintf(r3.csv, "t,x,xdot\n");
    fl_p4_system sys = fl_model_painleve_system(&b);
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, b.theta0);
    gsl_vector_set(v, 0, V0);
    gsl_vector_set(v, 1, 0.0);
    fl_p4_sim_result sr;
    fl_status st3 = fl_p4_simulate(&sys, 0.0, h, steps, q, v, NULL, p3_observe, &r3, &sr, &e);
    if (r3.csv) fclose(r3.csv);
    /* P5: Stewart–Trinkle (reference/stewart_law.c) on the same bar */
    fl_model_painleve_bar pb = {b.m, b.J, b.l, b.theta0, b.mu, 0.0, C0};
    fl_stewart_system ss;
    fl_status st5 = fl_model_painleve_stewart_system(&pb, &ss, &e);
    r5.csv = open_out(ctx, "painleve_p5.csv", path, sizeof path);
    if (r5.csv) fprintf(r5.csv, "t,x,xdot\n");
    fl_stewart_options so = fl_stewart_options_default();
    fl_stewart_run run;
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, b.theta0);
    gsl_vector_set(v, 0, V0);
    gsl_vector_set(v, 1, 0.0);
    if (st5 == FL_OK) st5 = fl_stewart_integrate(&ss, &so, 0.0, h, (size_t)steps, q, v, p5_observe, &r5, &run, &e);
    if (r5.csv) fclose(r5.csv);
    if (st5 != FL_OK) fl_check_message(ctx, "painleve_p5_vs_p3: Stewart: %s", e.message);
    /* closed form (proofs/p4_law.md §5): r_theta = -C0, r_x = r_theta a, so
     * x' = V0 - (C0 a/m) t until t* = m V0 / (C0 a) */
    double a = b.fs.set.lo, acc = -C0 * a / b.m, tstar = -V0 / acc;
    double w35 = 0, w3c = 0, w5c = 0;
    long nn = r3.n < r5.n ? r3.n : r5.n;
    for (long k = 0; k < nn; k++) {
        double t = (double)(k + 1) * h;
        double xdc = t < tstar ? V0 + acc * t : 0.0;
        w35 = fmax(w35, fabs(r3.xd[k] - r5.xd[k]));
        w3c = fmax(w3c, fabs(r3.xd[k] - xdc));
        w5c = fmax(w5c, fabs(r5.xd[k] - xdc));
    }
    /* The step impulse is -h C0 (constant) until the step where the bar
     * stops, and that step brings x' to 0 exactly: the stepped velocity equals
     * the closed form at every t_k (001 §6.2; as painleve_p5.slide_mu_small),
     * so the tolerance is rounding (1e-9 V0), not O(h). */
    double tol = 1e-9 * V0;
    fl_check_value(ctx, st3 == FL_OK && st5 == FL_OK && nn == steps && w35 <= 1e-9 * V0,
                   "painleve_p5_vs_p3.same_motion", w35, 0.0, 1e-9 * V0,
                   "001 §6.2 (P5 and P'3 equivalent for mu < -1/tan(theta0))",
                   "mu = %g < -1/tan(theta0) = %.6g: max |x'_P'3 - x'_P5| = %.3g over %ld steps (Stewart-Trinkle "
                   "reference/stewart_law.c vs P'3 stepper; tol 1e-9 V0; %s)",
                   b.mu, -1.0 / tan(b.theta0), w35, nn, src);
    fl_check_value(ctx, st3 == FL_OK && w3c <= tol, "painleve_p5_vs_p3.p3_closed_form", w3c, 0.0, tol,
                 "closed-form sliding motion x'' = -C0 a/m (max error)",
                 "max |x'_P'3 - closed form| = %.3g (x'' = -C0 a/m = %.6g, t* = %.6g; exact at the steps, tol 1e-9 V0 = %.2g)", w3c, acc, tstar, tol);
    fl_check_value(ctx, st5 == FL_OK && w5c <= tol, "painleve_p5_vs_p3.p5_closed_form", w5c, 0.0, tol,
                 "closed-form sliding motion x'' = -C0 a/m (max error)",
                 "max |x'_P5 - closed form| = %.3g (tol %.2g)", w5c, tol);
    char c1[4096], c2[4096], body[12288];
    if (fl_check_out_path(ctx, "painleve_p3.csv", c1, sizeof c1) == 0 &&
        fl_check_out_path(ctx, "painleve_p5.csv", c2, sizeof c2) == 0) {
        snprintf(body, sizeof body,
                 "set datafile separator ','\nset xlabel 't'\nset ylabel \"x'\"\n"
                 "set title \"Painleve bar, mu < -1/tan(theta0): P'3 (generalized) and P5 (Stewart-Trinkle)\"\n"
                 "plot '%s' every ::1 using 1:3 with lines lw 3 title \"P'3\", "
                 "'%s' every ::1 using 1:3 with lines lw 1 dt 2 title 'P5'\n", c1, c2);
        plot(ctx, "painleve_p5_vs_p3.png", body);
    }
done:
    free(r3.x);
    free(r3.xd);
    free(r5.x);
    free(r5.xd);
    gsl_vector_free(q);
    gsl_vector_free(v);
    fl_fset_result_release(&b.fs);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Systems 1 and 2 (001 §6.3)                                           */
/* ------------------------------------------------------------------ */

typedef struct lam_rec {
    double max_lambda;
    long steps;
} lam_rec;

static int lam_observe(void *data, long k, double t, const gsl_vector *q, const gsl_vector *v,
                       const fl_p4_step_result *st)
{
    (void)t;
    (void)q;
    (void)v;
    lam_rec *r = data;
    for (size_t a = 0; a < st->m; a++) r->max_lambda = fmax(r->max_lambda, fabs(gsl_vector_get(st->lambda, a)));
    r->max_lambda = fmax(r->max_lambda, gsl_blas_dnrm2(st->R));
    r->steps = k + 1;
    return 0;
}

/* ---- system 1 under P'3: theta = C0 t^2 / (2J), r_theta = 0 ---- */
static int system1_p3(fl_check_ctx *ctx, fl_model_system1 *S, double h, long steps, const char *src)
{
    fl_error e;
    double J = S->J, C0 = S->C0;
    fl_p4_system sys = fl_model_system1_system(S);
    gsl_vector *q = fl_dense_vector_calloc(1), *v = fl_dense_vector_calloc(1);
    if (!q || !v) {
        fl_check_message(ctx, "systems_1_2: out of memory");
        gsl_vector_free(q);
        gsl_vector_free(v);
        return -1;
    }
    lam_rec lr = {0, 0};
    fl_p4_sim_result sr;
    fl_status st = fl_p4_simulate(&sys, 0.0, h, steps, q, v, NULL, lam_observe, &lr, &sr, &e);
    double Tn = (double)steps * h, thc = C0 * Tn * Tn / (2 * J);
    fl_check_value(ctx, st == FL_OK && lr.max_lambda == 0.0 && fabs(gsl_vector_get(q, 0) - thc) <= 1e-12 * thc,
                   "systems_1_2.system1_p3_no_wedging", gsl_vector_get(q, 0), thc, 1e-12 * thc,
                   "001 §6.3 system 1, theta(T) = C0 T^2/(2J) (data/001/README.md)",
                   "P'3: max reaction %.3g (exact 0) at all %ld steps, theta(T) = %.12g = C0 T^2/(2J) = %.12g "
                   "(001 §6.3; tol 1e-12; %s)", lr.max_lambda, lr.steps, gsl_vector_get(q, 0), thc, src);
    gsl_vector_free(q);
    gsl_vector_free(v);
    return 0;
}

/* One member of system 1's P6 family (stuck until t0 with r~_n = rn,
 * r~_t = rt, then theta = C0 (t - t0)^2/(2J)) at 201 times on [0, T]: 1
 * when it satisfies P6; *worst: the largest residual; rows to f. */
static int system1_p6_member(const fl_model_system1 *S, double t0, double T, double rn, double rt, FILE *f,
                             double *worst)
{
    double J = S->J, C0 = S->C0, tt0 = S->theta_tilde0, mu = S->mu, l = S->l;
    int ok = 1;
    for (int i = 0; i <= 200; i++) {
        double t = T * i / 200.0, th, thd, thdd, RN, RT;
        if (t < t0) {
            th = thd = thdd = 0.0;
            RN = rn;
            RT = rt;
        } else {
            th = C0 * (t - t0) * (t - t0) / (2 * J);
            thd = C0 * (t - t0) / J;
            thdd = C0 / J;
            RN = RT = 0.0;
        }
        double rth = fl_model_system1_r_theta(S, RN, RT);      /* 001 §6.3 (lever arm l) */
        double eqm = fabs(J * thdd - (C0 + rth));                /* J theta'' = f + r_theta */
        double w = l * sin(tt0) * thd;                            /* real-world sliding velocity */
        double cone = fmax(fabs(RT) - mu * RN, 0.0);
        double unil = fmax(fmax(-th, -RN), fabs(th * RN));
        /* Coulomb's variational inequality with v^ in {-2,-1,0,1,2}: integrand >= 0 */
        double vi = 0.0;
        for (int j = -2; j <= 2; j++) {
            double vh = j;
            vi = fmin(vi, RT * (vh - w) + mu * RN * (fabs(vh) - fabs(w)));
        }
        *worst = fmax(*worst, fmax(fmax(eqm, cone), fmax(unil, -vi)));
        if (eqm > 1e-12 * C0 || cone > 1e-12 * C0 || unil > 1e-12 || vi < -1e-12 * C0) ok = 0;
        if (t < t0 && !(rth < 0)) ok = 0;
        if (f) fprintf(f, "%.6g,%.6g,%.12g,%.12g,%.12g,%.12g\n", t0, t, th, RN, RT, rth);
    }
    return ok;
}

/* ---- system 1, P6 family: stuck until t0, then theta = C0 (t - t0)^2/(2J) ---- */
static void system1_p6(fl_check_ctx *ctx, const fl_model_system1 *S, double T)
{
    double C0 = S->C0, tt0 = S->theta_tilde0, mu = S->mu, l = S->l;
    double den = mu * cos(tt0) - sin(tt0);
    /* stuck at the sliding limit: 0 = C0 + r_theta, r~_t = -mu r~_n (proofs/p4_law.md §6) */
    double rn = C0 / (l * den), rt = -mu * rn;
    char path[4096];
    FILE *f = open_out(ctx, "systems_1_p6_family.csv", path, sizeof path);
    if (f) fprintf(f, "t0,t,theta,r_n,r_t,r_theta\n");
    int nmem = 0, allok = 1, p3ok = 1;
    double worst = 0;
    for (int k = 0; k <= 4; k++) {
        double t0 = T * k / 4.0;
        int ok = system1_p6_member(S, t0, T, rn, rt, f, &worst);
        /* P'3 needs r_theta >= 0: only t0 = 0 is a P'3 solution */
        if (t0 > 0 && !(fl_model_system1_r_theta(S, rn, rt) < 0)) p3ok = 0;
        nmem++;
        if (!ok) allok = 0;
        if (f) fprintf(f, "\n\n");
    }
    if (f) fclose(f);
    fl_check_value(ctx, allok && den > 0, "systems_1_2.system1_p6_family", worst, 0.0, 1e-12 * C0,
                   "001 §6.3 system 1, problem P6 (residuals of motion, contact, cone, Coulomb inequality)",
                   "%d members t0 in {0, T/4, .., T} each satisfy P6 at 201 times (equation of motion, unilateral "
                   "contact, Coulomb cone and inequality; max residual %.3g, tol 1e-12 C0): r~_n = %.6g, r~_t = %.6g "
                   "on [0,t0) (001 §6.3, mu = %g > tan = %.4g)", nmem, worst, rn, rt, mu, tan(tt0));
    /* r_theta = l (r~_t cos + r~_n sin) = -C0 (closed form, proofs/p4_law.md §6) */
    double rth1 = fl_model_system1_r_theta(S, rn, rt);
    fl_check_value(ctx, p3ok && rth1 < 0 && fabs(rth1 + C0) <= 1e-12 * fabs(C0),
                   "systems_1_2.system1_p6_members_violate_p3", rth1, -C0, 1e-12 * fabs(C0),
                   "001 §6.3 system 1: r_theta = -C0 < 0 on [0, t0), excluded by P'3 (proofs/p4_law.md §6)",
                   "on [0, t0) r_theta = %.6g = -C0 < 0: every member with t0 > 0 violates r_theta >= 0 of P'3",
                   rth1);
}

/* real-world: wedged equilibrium forces exist (mu > tan beta) */
static void system2_real_world(fl_check_ctx *ctx, const fl_model_system2 *S2)
{
    double b = S2->beta, Nmin = S2->F / (2 * (S2->mu * cos(b) - sin(b))), Nw = 2 * Nmin;
    double Tw = (S2->F + 2 * Nw * sin(b)) / (2 * cos(b));
    /* forces on the bar: normal N and friction T along each wall, pointing down */
    double fA[2] = {Nw * cos(b) + Tw * sin(b), Nw * sin(b) - Tw * cos(b)};    /* N nL + T (sin b, -cos b) */
    double fB[2] = {-Nw * cos(b) - Tw * sin(b), Nw * sin(b) - Tw * cos(b)};   /* N nR + T (-sin b, -cos b) */
    double eq[3] = {fA[0] + fB[0], fA[1] + fB[1] + S2->F, 0.0};
    eq[2] = S2->l * fB[1] - S2->l * fA[1];                     /* moments about G (A at -l, B at +l) */
    int wedge_ok = Tw <= S2->mu * Nw * (1 + 1e-12) && Nw > 0 && fabs(eq[0]) + fabs(eq[1]) + fabs(eq[2]) <= 1e-12 * S2->F;
    double bal = fabs(eq[0]) + fabs(eq[1]) + fabs(eq[2]);
    fl_check_value(ctx, wedge_ok && S2->mu > tan(b), "systems_1_2.system2_real_world_wedge_family", bal, 0.0,
                   1e-12 * S2->F, "001 §6.3 system 2, real-world wedged equilibrium (data/001/README.md)",
                   "real-world Coulomb at A and B: N = %.6g >= N_min = %.6g, T = %.6g <= mu N = %.6g, force and moment "
                   "balance residual %.2g (tol 1e-12 F): the bar may stay wedged until any t0, then fly off (001 §6.3)",
                   Nw, Nmin, Tw, S2->mu * Nw, bal);
}

/* the generalized reaction of the wedged state, r = tl_A^T f_A + tl_B^T f_B
 * = -f at q = 0, is not in K_frict */
static void system2_kfrict(fl_check_ctx *ctx, const fl_model_system2 *S2, const gsl_vector *q, gsl_matrix *M,
                           gsl_matrix *D, gsl_vector *dphi, gsl_vector *r)
{
    fl_error e;
    fl_fset_result fs2[2];
    fl_model_system2_mass(S2, M);
    fl_p4_friction C[2];
    for (size_t a = 0; a < 2; a++) {
        fl_model_system2_grad(S2, q, a, dphi);
        gsl_matrix_set_row(D, a, dphi);
        fl_model_system2_fset(S2, q, a, &fs2[a], NULL);
        C[a].set = fs2[a].set;
        C[a].E = fs2[a].E;
    }
    gsl_vector_set(r, 1, -S2->F);
    fl_p4_problem pr = {3, 2, M, NULL, NULL, D, C};
    double dist = 0;
    fl_status sd = fl_p4_kfrict_distance(&pr, r, &dist, &e);
    /* one-sided: the distance must exceed 0.5 F/sqrt(m) (data/001/README.md states F/sqrt(m)) */
    fl_check_value(ctx, sd == FL_OK && dist > 0.5 * S2->F / sqrt(S2->m),
                   "systems_1_2.system2_wedged_reaction_not_in_kfrict", dist, S2->F / sqrt(S2->m),
                   0.5 * S2->F / sqrt(S2->m), "001 §6.3 system 2 (one-sided: value > expected - tol)",
                   "the wedged generalized reaction r = (0, -F, 0) has W-distance %.6g to K_frict (F/sqrt(m) = %.6g): "
                   "P'4 excludes wedging (001 §6.3)", dist, S2->F / sqrt(S2->m));
    for (int a = 0; a < 2; a++) fl_fset_result_release(&fs2[a]);
}

/* ---- system 2 under P'4: the reaction vanishes identically; the
 * real-world wedge exists, its generalized reaction is not in K_frict ---- */
static int system2_p4(fl_check_ctx *ctx, fl_model_system2 *S2, double h, long steps)
{
    fl_error e;
    fl_p4_system sys2 = fl_model_system2_system(S2);
    gsl_vector *q = fl_dense_vector_calloc(3), *v = fl_dense_vector_calloc(3);
    gsl_matrix *M = fl_dense_matrix_alloc(3, 3), *D = fl_dense_matrix_alloc(2, 3);
    gsl_vector *dphi = fl_dense_vector_alloc(3), *r = fl_dense_vector_calloc(3);
    int rc = 0;
    if (!q || !v || !M || !D || !dphi || !r) {
        fl_check_message(ctx, "systems_1_2: out of memory");
        rc = -1;
        goto done;
    }
    lam_rec l2 = {0, 0};
    fl_p4_sim_result sr;
    fl_status st = fl_p4_simulate(&sys2, 0.0, h, steps, q, v, NULL, lam_observe, &l2, &sr, &e);
    double Tn = (double)steps * h, yc = S2->F * Tn * Tn / (2 * S2->m);
    fl_check_value(ctx, st == FL_OK && l2.max_lambda == 0.0 && fabs(gsl_vector_get(q, 1) - yc) <= 1e-12 * yc &&
                            gsl_vector_get(q, 0) == 0.0 && gsl_vector_get(q, 2) == 0.0,
                   "systems_1_2.system2_p4_zero_reaction", gsl_vector_get(q, 1), yc, 1e-12 * yc,
                   "001 §6.3 system 2, y(T) = F T^2/(2m) (data/001/README.md)",
                   "P'4, constant pull F = %g: max reaction %.3g (exact 0) at all %ld steps, y(T) = %.12g = F T^2/(2m) "
                   "= %.12g (001 §6.3)%s%s", S2->F, l2.max_lambda, l2.steps, gsl_vector_get(q, 1), yc,
                   st == FL_OK ? "" : ": ", st == FL_OK ? "" : e.message);
    system2_real_world(ctx, S2);
    gsl_vector_set_zero(q);
    system2_kfrict(ctx, S2, q, M, D, dphi, r);
done:
    gsl_matrix_free(M);
    gsl_matrix_free(D);
    gsl_vector_free(dphi);
    gsl_vector_free(r);
    gsl_vector_free(q);
    gsl_vector_free(v);
    return rc;
}

/* 001 §6.3: system 1 under P'3 and its P6 family, system 2 under P'4. */
int fl_p4_reproduce_systems_1_2(fl_check_ctx *ctx)
{
    char src[4096];
    fl_error le;
    fl_model_system1 S;
    fl_model_system2 S2;
    if (fl_check_params_path(ctx, "001/systems_1_2.json", src, sizeof src) != 0) return -1;
    if (fl_model_system1_load(src, &S, &le) != FL_OK || fl_model_system2_load(src, &S2, &le) != FL_OK) {
        fl_check_message(ctx, "systems_1_2: %s", le.message);
        return -1;
    }
    double T = ctx->quick ? S.T / 4 : S.T, h = S.h;
    long steps = (long)floor(T / h + 0.5);
    if (system1_p3(ctx, &S, h, steps, src) != 0) return -1;
    system1_p6(ctx, &S, T);
    if (system2_p4(ctx, &S2, h, steps) != 0) return -1;
    char c1[4096], body[12288];
    if (fl_check_out_path(ctx, "systems_1_p6_family.csv", c1, sizeof c1) == 0) {
        snprintf(body, sizeof body,
                 "set datafile separator ','\nset xlabel 't'\nset ylabel 'theta'\nset key left top\n"
                 "set title 'System 1: the P6 family (stuck until t0); P''3 keeps only t0 = 0'\n"
                 "plot for [i=0:4] '%s' index i every ::1 using 2:3 with lines lw 2 title sprintf('member %%d', i)\n", c1);
        plot(ctx, "systems_1_p6_family.png", body);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Kane's paradox (001 §6.2 item 2): double pendulum hitting a floor    */
/* ------------------------------------------------------------------ */

/* The matrices of Kane's double pendulum at impact (models/fl_model_kane.c):
 * M, the tip's contact Jacobian Jc (row 0 tangential, row 1 normal) and
 * tl = Jc^T, W = M^-1, A = Jc W Jc^T, and vectors of length 2. */
typedef struct {
    gsl_matrix *M, *Jc, *tl, *W, *A, *tmp;
    gsl_vector *qd, *u, *P, *r, *dq, *dphi;
} kane_work;

/* real-world formulation: Newton u_n+ = -e u_n-, Coulomb on the impulse P~ = (Pt, Pn):
 * stick (u_t+ = 0, |Pt| <= mu Pn) or slide (Pt = -mu Pn sign(u_t+), u_t+ != 0);
 * A = Jc W Jc^T, u+ = u- + A P~.  Enumerate the three cases; returns the
 * smallest K+. */
static double kane_real_world(fl_check_ctx *ctx, const fl_model_kane *K, const char *src, kane_work *kw,
                            double K0, double un, double ut)
{
    double mu = K->mu, e = K->e;
    double a00 = gsl_matrix_get(kw->A, 0, 0), a01 = gsl_matrix_get(kw->A, 0, 1), a11 = gsl_matrix_get(kw->A, 1, 1);
    double tn = -e * un;
    int nsol = 0;
    double Kmin = INFINITY, Kmax = -INFINITY;
    const char *kinds = "";
    char desc[512] = "";
    for (int c = 0; c < 3; c++) {
        double Pt, Pn, s = c == 1 ? 1.0 : -1.0;
        if (c == 0) {                                       /* stick: A P = (-ut, tn - un) */
            double det = a00 * a11 - a01 * a01;
            Pt = (a11 * (-ut) - a01 * (tn - un)) / det;
            Pn = (-a01 * (-ut) + a00 * (tn - un)) / det;
            if (!(Pn >= 0 && fabs(Pt) <= mu * Pn)) continue;
        } else {                                             /* slide with sign s of u_t+ */
            double dd = a11 - mu * s * a01;
            if (dd == 0) continue;
            Pn = (tn - un) / dd;
            Pt = -mu * s * Pn;
            double utp = ut + a00 * Pt + a01 * Pn;
            if (!(Pn >= 0 && utp * s > 0)) continue;
        }
        gsl_vector_set(kw->P, 0, Pt);
        gsl_vector_set(kw->P, 1, Pn);
        gsl_blas_dgemv(CblasNoTrans, 1.0, kw->tl, kw->P, 0.0, kw->r);
        gsl_blas_dgemv(CblasNoTrans, 1.0, kw->W, kw->r, 0.0, kw->dq);
        gsl_vector_add(kw->dq, kw->qd);
        double K1 = 0.5 * pow(mnorm(kw->M, kw->dq, kw->r), 2);   /* r: workspace now */
        Kmin = fmin(Kmin, K1);
        Kmax = fmax(Kmax, K1);
        nsol++;
        kinds = c == 0 ? "stick" : (c == 1 ? "slide+" : "slide-");
        snprintf(desc + strlen(desc), sizeof desc - strlen(desc), "%s P~ = (%.6g, %.6g) K+ = %.9g; ", kinds, Pt,
                 Pn, K1);
    }
    if (fl_check_user_params(ctx))
        /* the gain is Kane's paradox for the paper's configuration, not a
         * law: other parameters need not show it */
        fl_check_note(ctx, "kane.real_world_energy_increase",
                      "not run on --params: the energy gain (factor %.4g here) is the paper's "
                      "configuration (001 §6.2 item 2), not a property of every system", Kmin / K0);
    else
        /* one-sided: the gain factor K+/K- must exceed 1 */
        fl_check_value(ctx, un < 0 && nsol >= 1 && Kmin > K0, "kane.real_world_energy_increase", Kmin / K0, 1.0, 0.0,
                       "001 §6.2 item 2 (Kane's paradox; one-sided: K+/K- > 1)",
                       "Coulomb on the real-world impulse + Newton e = %g: %d solution(s): %sK- = %.9g: kinetic energy "
                       "increases by a factor %.4g (001 §6.2 item 2; %s)", e, nsol, desc, K0, Kmin / K0, src);
    return Kmin;
}

/* P'4 with the friction set built by 001 §6.1 from the same Coulomb cone;
 * returns K+ */
static double kane_p4(fl_check_ctx *ctx, const fl_model_kane *K, kane_work *kw, double K0, double un)
{
    double mu = K->mu, e = K->e;
    gsl_vector_set(kw->dphi, 0, gsl_matrix_get(kw->Jc, 1, 0));
    gsl_vector_set(kw->dphi, 1, gsl_matrix_get(kw->Jc, 1, 1));
    fl_fset_contact c = {kw->tl, {0.0, 1.0, 0.0}, mu};
    fl_error err;
    fl_fset_result fr = {0};
    fl_status st = fl_fset_build(kw->M, kw->dphi, 1, &c, NULL, &fr, &err);
    double K1 = NAN, unp = NAN;
    fl_status st2 = FL_EINVAL;
    if (st == FL_OK) {
        gsl_matrix *D = fl_dense_matrix_alloc(1, 2);
        fl_p4_step_result *res = fl_p4_step_result_alloc(2, 1);
        gsl_vector *up = fl_dense_vector_alloc(2);
        st2 = FL_ENOMEM;   /* no workspace: the checks below FAIL */
        if (D && res && up) {
            gsl_matrix_set_row(D, 0, kw->dphi);
            fl_p4_friction C = {fr.set, fr.E};
            fl_p4_problem pr = {2, 1, kw->M, NULL, NULL, D, &C};
            fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, e, NULL, NULL, NULL};
            st2 = fl_p4_step(&pr, kw->qd, NULL, &law, NULL, res, &err);
            K1 = res->energy_plus;
            gsl_blas_dgemv(CblasNoTrans, 1.0, kw->Jc, res->v_plus, 0.0, up);
            unp = gsl_vector_get(up, 1);
        }
        gsl_vector_free(up);
        fl_p4_step_result_free(res);
        gsl_matrix_free(D);
    }
    /* one-sided: K+ <= K- (Prop. 5.1) */
    fl_check_value(ctx, st == FL_OK && st2 == FL_OK && K1 <= K0, "kane.p4_dissipative", K1, K0, 0.0,
                   "001 Proposition 5.1 (one-sided: K+ <= K-)",
                   "P'4 (C* = %s[%.6g, %.6g] from 001 §6.1, Newton e = %g on the generalized normal velocity): "
                   "K- = %.9g, K+ = %.9g <= K- (Prop. 5.1)",
                   fr.bounded ? "" : "unbounded ", fr.set.lo, fr.set.hi, e, K0, K1);
    fl_check_value(ctx, st == FL_OK && st2 == FL_OK && fabs(unp + e * un) <= 1e-12 * fabs(un), "kane.p4_restitution",
                   unp, -e * un, 1e-12 * fabs(un), "001 §5 Newton's impact law u_n+ = -e u_n-",
                   "u_n+ = %.9g = -e u_n- = %.9g (tol 1e-12 |u_n-|)", unp, -e * un);
    fl_fset_result_release(&fr);
    return K1;
}

/* 001 §6.2 item 2: Kane's double pendulum hitting a floor, Coulomb and
 * Newton on the real-world impulse (energy gain) against P'4. */
int fl_p4_reproduce_kane(fl_check_ctx *ctx)
{
    char src[4096];
    fl_error le;
    fl_model_kane K;
    if (fl_check_params_path(ctx, "001/kane.json", src, sizeof src) != 0) return -1;
    if (fl_model_kane_load(src, &K, &le) != FL_OK) {
        fl_check_message(ctx, "kane: %s", le.message);
        return -1;
    }
    /* models/fl_model_kane.c: M and the tip's contact Jacobian Jc (row 0
     * tangential, row 1 normal), u = Jc qdot */
    kane_work kw = {fl_dense_matrix_alloc(2, 2), fl_dense_matrix_alloc(2, 2), fl_dense_matrix_alloc(2, 2),
                    fl_dense_matrix_alloc(2, 2), fl_dense_matrix_alloc(2, 2), fl_dense_matrix_alloc(2, 2),
                    fl_dense_vector_alloc(2), fl_dense_vector_alloc(2), fl_dense_vector_alloc(2),
                    fl_dense_vector_alloc(2), fl_dense_vector_alloc(2), fl_dense_vector_alloc(2)};
    int rc = 0;
    if (!kw.M || !kw.Jc || !kw.tl || !kw.qd || !kw.u || !kw.W || !kw.A || !kw.tmp || !kw.P || !kw.r || !kw.dq ||
        !kw.dphi) {
        fl_check_message(ctx, "kane: out of memory");
        rc = -1;
        goto done;
    }
    fl_model_kane_mass(&K, kw.M);
    fl_model_kane_jacobian(&K, kw.Jc);
    gsl_matrix_transpose_memcpy(kw.tl, kw.Jc);                   /* r = tl r~ = Jc^T r~ */
    fl_model_kane_velocity(&K, kw.qd);
    gsl_blas_dgemv(CblasNoTrans, 1.0, kw.Jc, kw.qd, 0.0, kw.u);
    double un = gsl_vector_get(kw.u, 1), ut = gsl_vector_get(kw.u, 0);
    double K0 = 0.5 * pow(mnorm(kw.M, kw.qd, kw.u), 2);   /* u: workspace now */
    gsl_matrix_memcpy(kw.W, kw.M);
    gsl_linalg_cholesky_decomp1(kw.W);
    gsl_linalg_cholesky_invert(kw.W);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, kw.Jc, kw.W, 0.0, kw.tmp);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, kw.tmp, kw.Jc, 0.0, kw.A);
    double Kmin = kane_real_world(ctx, &K, src, &kw, K0, un, ut);
    double K1 = kane_p4(ctx, &K, &kw, K0, un);
    char path[4096];
    FILE *f = open_out(ctx, "kane.csv", path, sizeof path);
    if (f) {
        fprintf(f, "formulation,K_minus,K_plus\nreal_world_coulomb_newton,%.12g,%.12g\np4,%.12g,%.12g\n", K0, Kmin,
                K0, K1);
        fclose(f);
    }
done:
    gsl_matrix_free(kw.M);
    gsl_matrix_free(kw.Jc);
    gsl_matrix_free(kw.tl);
    gsl_matrix_free(kw.W);
    gsl_matrix_free(kw.A);
    gsl_matrix_free(kw.tmp);
    gsl_vector_free(kw.qd);
    gsl_vector_free(kw.u);
    gsl_vector_free(kw.P);
    gsl_vector_free(kw.r);
    gsl_vector_free(kw.dq);
    gsl_vector_free(kw.dphi);
    return rc;
}
