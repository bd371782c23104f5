/* test_p4_law.c — the generalized friction law P'4 (001 §3–§5):
 * reference (reference/p4_law.c) and optimized (optimized/p4_law_sparse.c)
 * through one harness.  Unit tests with closed forms (Painlevé one step,
 * proofs/p4_law.md §5), the consistency conditions C1–C4 (001 §5), bad
 * input, and property tests on random systems (Proposition 5.1, split
 * identities, reference vs optimized). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_linalg.h>

#include "fl_data.h"
#include "fl_json.h"
#include "testkit/fl_random.h"
#include "reference/friction_set_build.h"
#include "reference/p4_law.h"
#include "reference/stewart_law.h"
#include "optimized/p4_law_sparse.h"
#include "checks/p4_checks.h"
#include "models/fl_model_kane.h"
#include "models/fl_model_painleve.h"
#include "models/fl_model_system1.h"
#include "fl_scalar.h"
#include "drivers/fl_types.h"

/* ---------------------------------------------------------------- */
/* A small problem holder: dense M and its sparse copy.              */
typedef struct holder {
    size_t n, m;
    gsl_matrix *M, *D;
    gsl_matrix *E[4];
    fl_p4_friction C[4];
    fl_sparse_ctx ctx;
    cholmod_sparse *Ms;
    fl_p4_problem p;
} holder;

static void holder_open(holder *h, size_t n, size_t m)
{
    memset(h, 0, sizeof *h);
    h->n = n;
    h->m = m;
    h->M = gsl_matrix_calloc(n, n);
    h->D = m ? gsl_matrix_calloc(m, n) : NULL;
    cr_assert_eq(fl_sparse_start(&h->ctx, NULL), FL_OK);
}

static void holder_finish(holder *h, int with_friction)
{
    cr_assert_eq(fl_sparse_from_dense(&h->ctx, h->M, 1, 0.0, &h->Ms, NULL), FL_OK);
    for (size_t a = 0; a < h->m; a++) h->C[a].E = h->E[a];
    fl_p4_problem p = {h->n, h->m, h->M, h->Ms, &h->ctx, h->D, with_friction ? h->C : NULL};
    h->p = p;
}

static void holder_close(holder *h)
{
    for (size_t a = 0; a < 4; a++) {
        fl_friction_set_release(&h->C[a].set);
        if (h->E[a]) gsl_matrix_free(h->E[a]);
    }
    gsl_matrix_free(h->M);
    if (h->D) gsl_matrix_free(h->D);
    fl_sparse_free(&h->ctx, &h->Ms);
    fl_sparse_finish(&h->ctx);
}

/* Painlevé bar (001 §6.2): q = (x, theta), M = diag(m, J), dphi = (0, 1),
 * C* = [lo, hi] on the r_x axis (E = (1, 0)), dphi-normalised. */
static void painleve(holder *h, double mass, double J, double lo, double hi)
{
    holder_open(h, 2, 1);
    gsl_matrix_set(h->M, 0, 0, mass);
    gsl_matrix_set(h->M, 1, 1, J);
    gsl_matrix_set(h->D, 0, 1, 1.0);
    h->E[0] = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(h->E[0], 0, 0, 1.0);
    cr_assert_eq(fl_friction_set_interval(&h->C[0].set, lo, hi, NULL), FL_OK);
    holder_finish(h, 1);
}

static gsl_vector *vec2(double a, double b)
{
    gsl_vector *v = gsl_vector_alloc(2);
    gsl_vector_set(v, 0, a);
    gsl_vector_set(v, 1, b);
    return v;
}

/* ---------------------------------------------------------------- */
/* Unit: Painlevé one step, closed forms of proofs/p4_law.md §5      */

Test(p4_law, painleve_frictional_catastrophe_one_step)
{
    /* unbounded C* = ]-inf, b], theta' = 0, x' = V0, f_theta = C0 < 0:
     * lambda = -h C0, R_x = -m V0, v^+ = 0 (001 §6.2, 001 §6.2) */
    double mass = 2.0, J = 0.3, b = 1.0717967697, V0 = 1.5, C0 = -4.0, h = 1e-3;
    holder H;
    painleve(&H, mass, J, -INFINITY, b);
    gsl_vector *v = vec2(V0, 0.0), *imp = vec2(0.0, h * C0);
    fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, 0.0, NULL, NULL, NULL};
    for (int i = 0; i < 2; i++) {
        fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1);
        fl_error e;
        fl_status st = fl_p4_types[i].step(&H.p, v, imp, &law, NULL, r, &e);
        cr_assert_eq(st, FL_OK, "%s: %d res %g gap %g nr %g sd %g", fl_p4_types[i].name, st, r->residual, r->gap,
                     r->normal_residual, r->split_defect);
        cr_assert_eq(r->impact, 0);
        cr_assert(fabs(gsl_vector_get(r->v_plus, 0)) < 1e-14, "%s x'+ = %g", fl_p4_types[i].name,
                  gsl_vector_get(r->v_plus, 0));
        cr_assert(fabs(gsl_vector_get(r->v_plus, 1)) < 1e-14);
        cr_assert(fabs(gsl_vector_get(r->R, 0) + mass * V0) < 1e-12);
        cr_assert(fabs(gsl_vector_get(r->lambda, 0) + h * C0) < 1e-14);
        cr_assert(r->residual < 1e-12);
        fl_p4_step_result_free(r);
    }
    gsl_vector_free(v);
    gsl_vector_free(imp);
    holder_close(&H);
}

Test(p4_law, painleve_bounded_set_decelerates_by_lambda_a)
{
    /* bounded C* = [a, b]: R_x = lambda a (sliding, x'+ > 0), x'+ = V0 + lambda a / m */
    double mass = 2.0, J = 0.3, a = -0.8116548391, b = 0.4480184755, V0 = 1.5, C0 = -4.0, h = 1e-3;
    holder H;
    painleve(&H, mass, J, a, b);
    gsl_vector *v = vec2(V0, 0.0), *imp = vec2(0.0, h * C0);
    for (int i = 0; i < 2; i++) {
        fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1);
        cr_assert_eq(fl_p4_types[i].step(&H.p, v, imp, NULL, NULL, r, NULL), FL_OK);
        double lam = -h * C0;
        cr_assert(fabs(gsl_vector_get(r->R, 0) - lam * a) < 1e-14);
        cr_assert(fabs(gsl_vector_get(r->v_plus, 0) - (V0 + lam * a / mass)) < 1e-14);
        fl_p4_step_result_free(r);
    }
    gsl_vector_free(v);
    gsl_vector_free(imp);
    holder_close(&H);
}

Test(p4_law, painleve_grazing_keeps_velocity)
{
    /* C0 = 0: r_theta = 0, so r_x in 0 C* = {0}: x'+ = V0 (001 §6.2) */
    holder H;
    painleve(&H, 2.0, 0.3, -INFINITY, 1.0);
    gsl_vector *v = vec2(1.5, 0.0), *imp = vec2(0.0, 0.0);
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1);
    cr_assert_eq(fl_p4_step(&H.p, v, imp, NULL, NULL, r, NULL), FL_OK);
    cr_assert_eq(gsl_vector_get(r->v_plus, 0), 1.5);
    cr_assert_eq(gsl_vector_get(r->lambda, 0), 0.0);
    fl_p4_step_result_free(r);
    gsl_vector_free(v);
    gsl_vector_free(imp);
    holder_close(&H);
}

Test(p4_law, impact_newton_restitution_and_friction)
{
    /* theta'- = -2 < 0: impact, theta'+ = e 2; lambda = J (1 + e) 2;
     * x': bounded set, R_x = lambda a while sliding stays positive */
    double mass = 2.0, J = 0.3, a = -0.5, b = 0.5, e = 0.5;
    holder H;
    painleve(&H, mass, J, a, b);
    gsl_vector *v = vec2(3.0, -2.0);
    fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, e, NULL, NULL, NULL};
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1);
    cr_assert_eq(fl_p4_step(&H.p, v, NULL, &law, NULL, r, NULL), FL_OK);
    cr_assert_eq(r->impact, 1);
    double lam = J * (1 + e) * 2.0;
    cr_assert(fabs(gsl_vector_get(r->v_plus, 1) - e * 2.0) < 1e-14);
    cr_assert(fabs(gsl_vector_get(r->lambda, 0) - lam) < 1e-13);
    cr_assert(fabs(gsl_vector_get(r->v_plus, 0) - (3.0 + lam * a / mass)) < 1e-13);
    cr_assert(r->energy_plus <= r->energy_minus);
    fl_p4_step_result_free(r);
    gsl_vector_free(v);
    holder_close(&H);
}

/* ---------------------------------------------------------------- */
/* Consistency conditions C1–C4 (001 §5)                             */

static fl_status law_tangential(void *data, const fl_p4_problem *p, const gsl_vector *v,
                                gsl_vector *F, fl_error *err)
{
    (void)data; (void)p; (void)err;
    gsl_vector_memcpy(F, v);               /* keeps the tangential part: violates C1 */
    return FL_OK;
}

static fl_status law_reverse(void *data, const fl_p4_problem *p, const gsl_vector *v,
                             gsl_vector *F, fl_error *err)
{
    (void)data; (void)v;
    return fl_p4_split_velocity(p, v, F, NULL, err);   /* F = +v_n: approaching stays approaching */
}

Test(p4_law, newton_law_consistency_one_constraint)
{
    holder H;
    painleve(&H, 2.0, 0.3, -1.0, 1.0);
    gsl_vector *v = vec2(0.7, -2.0), *F = gsl_vector_alloc(2);
    fl_error e;
    fl_p4_consistency rep;
    for (double ee = 0.0; ee <= 1.0; ee += 0.125) {
        fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, ee, NULL, NULL, NULL};
        cr_assert_eq(fl_p4_impact_eval(&H.p, &law, v, F, NULL), FL_OK);
        cr_assert_eq(fl_p4_impact_check(&H.p, v, F, 1e-12, &rep, &e), FL_OK, "e=%g: %s", ee, e.message);
        cr_assert_eq(rep.failed, 0);
    }
    fl_p4_impact_law bad = {FL_P4_IMPACT_NEWTON, 1.5, NULL, NULL, NULL};
    cr_assert_eq(fl_p4_impact_newton(&H.p, &bad, v, F, NULL), FL_OK);
    cr_assert_eq(fl_p4_impact_check(&H.p, v, F, 1e-12, &rep, &e), FL_EINVAL);
    cr_assert_eq(rep.failed, 4);
    cr_assert(strstr(e.message, "C4"), "%s", e.message);
    /* the step refuses an inconsistent law */
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1);
    cr_assert_eq(fl_p4_step(&H.p, v, NULL, &bad, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "C4"));
    cr_assert_eq(fl_p4_step_sparse(&H.p, v, NULL, &bad, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "C4"));
    /* C1: a law that returns a tangential part */
    fl_p4_impact_law tl = {FL_P4_IMPACT_CUSTOM, 0.0, NULL, law_tangential, NULL};
    cr_assert_eq(fl_p4_step(&H.p, v, NULL, &tl, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "C1"), "%s", e.message);
    /* C2: F = +v_n keeps approaching */
    fl_p4_impact_law rl = {FL_P4_IMPACT_CUSTOM, 0.0, NULL, law_reverse, NULL};
    cr_assert_eq(fl_p4_step(&H.p, v, NULL, &rl, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "C2"), "%s", e.message);
    /* C3: departing v^-, F = 0: the percussion pulls (lambda < 0), not in K_frict */
    gsl_vector *vd = vec2(0.7, 2.0), *zero = gsl_vector_calloc(2);
    cr_assert_eq(fl_p4_impact_check(&H.p, vd, zero, 1e-12, &rep, &e), FL_EINVAL);
    cr_assert_eq(rep.failed, 3);
    cr_assert(strstr(e.message, "C3"), "%s", e.message);
    fl_p4_step_result_free(r);
    gsl_vector_free(v);
    gsl_vector_free(vd);
    gsl_vector_free(zero);
    gsl_vector_free(F);
    holder_close(&H);
}

Test(p4_law, c2_domain_condition_with_unbounded_set)
{
    /* two constraints on R^2 (M = I): phi_1 = y, phi_2 = x + y with
     * C*_1 = ]-inf, 1] along e_x (in T*_1).  F = (1, 0) normal, <dphi_1,F> = 0,
     * E_1 (-F) = -1 is outside D(S) = R+: C2 fails; F = (-1, 1)?  not used. */
    holder H;
    holder_open(&H, 2, 2);
    gsl_matrix_set_identity(H.M);
    gsl_matrix_set(H.D, 0, 1, 1.0);
    gsl_matrix_set(H.D, 1, 0, 1.0);
    gsl_matrix_set(H.D, 1, 1, 1.0);
    H.E[0] = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(H.E[0], 0, 0, 1.0);
    H.E[1] = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(H.E[1], 0, 0, 1.0);
    gsl_matrix_set(H.E[1], 0, 1, -1.0);
    fl_friction_set_interval(&H.C[0].set, -INFINITY, 1.0, NULL);
    fl_friction_set_interval(&H.C[1].set, -0.5, 0.5, NULL);
    holder_finish(&H, 1);
    gsl_vector *v = vec2(-1.0, -1.0), *F = vec2(1.0, 0.0);
    fl_p4_consistency rep;
    fl_error e;
    cr_assert_eq(fl_p4_impact_check(&H.p, v, F, 1e-12, &rep, &e), FL_EINVAL);
    cr_assert_eq(rep.c2_domain_ok, 0);
    cr_assert(strstr(e.message, "C2"), "%s", e.message);
    gsl_vector_free(v);
    gsl_vector_free(F);
    holder_close(&H);
}

/* ---------------------------------------------------------------- */
/* Bad input                                                         */

Test(p4_law, rejects_bad_input)
{
    holder H;
    painleve(&H, 2.0, 0.3, -1.0, 1.0);
    gsl_vector *v = vec2(NAN, 0.0), *w = vec2(1.0, 0.0), *v3 = gsl_vector_calloc(3);
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1), *r2 = fl_p4_step_result_alloc(2, 2);
    fl_error e;
    cr_assert_eq(fl_p4_step(&H.p, v, NULL, NULL, NULL, r, &e), FL_ENONFINITE);
    cr_assert_eq(fl_p4_step_sparse(&H.p, v, NULL, NULL, NULL, r, &e), FL_ENONFINITE);
    cr_assert_eq(fl_p4_step(&H.p, v3, NULL, NULL, NULL, r, &e), FL_EDIM);
    cr_assert_eq(fl_p4_step(&H.p, w, NULL, NULL, NULL, r2, &e), FL_EDIM);
    cr_assert_eq(fl_p4_step(NULL, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    cr_assert_eq(fl_p4_step_sparse(NULL, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    /* impact without a law */
    gsl_vector *vi = vec2(1.0, -1.0);
    cr_assert_eq(fl_p4_step(&H.p, vi, NULL, NULL, NULL, r, &e), FL_EINVAL);
    fl_p4_impact_law unk = {(fl_p4_impact_kind)7, 0.0, NULL, NULL, NULL};
    cr_assert_eq(fl_p4_step(&H.p, vi, NULL, &unk, NULL, r, &e), FL_EINVAL);
    /* sparse twin without Ms */
    fl_p4_problem p = H.p;
    p.Ms = NULL;
    cr_assert_eq(fl_p4_step_sparse(&p, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "sparse"));
    /* reference without M */
    p = H.p;
    p.M = NULL;
    cr_assert_eq(fl_p4_step(&p, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    /* friction set outside T*: E = (0, 1) is along dphi in this metric */
    gsl_matrix_set(H.E[0], 0, 0, 0.0);
    gsl_matrix_set(H.E[0], 0, 1, 1.0);
    cr_assert_eq(fl_p4_step(&H.p, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "T*"), "%s", e.message);
    cr_assert_eq(fl_p4_problem_check(&H.p, &e), FL_EINVAL);
    gsl_matrix_set(H.E[0], 0, 0, 1.0);
    gsl_matrix_set(H.E[0], 0, 1, 0.0);
    cr_assert_eq(fl_p4_problem_check(&H.p, &e), FL_OK);
    /* 0 not in C* */
    fl_friction_set_release(&H.C[0].set);
    fl_friction_set_interval(&H.C[0].set, 0.5, 1.0, NULL);
    cr_assert_eq(fl_p4_step(&H.p, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "contain 0"));
    /* dependent constraints */
    holder H2;
    holder_open(&H2, 2, 2);
    gsl_matrix_set_identity(H2.M);
    gsl_matrix_set(H2.D, 0, 1, 1.0);
    gsl_matrix_set(H2.D, 1, 1, 2.0);
    holder_finish(&H2, 0);
    cr_assert_eq(fl_p4_step(&H2.p, w, NULL, NULL, NULL, r2, &e), FL_ESINGULAR);
    gsl_matrix_set(H2.M, 0, 0, -1.0);     /* not SPD */
    cr_assert_eq(fl_p4_step(&H2.p, w, NULL, NULL, NULL, r2, &e), FL_ENOTSPD);
    holder_close(&H2);
    cr_assert_null(fl_p4_step_result_alloc(0, 1));
    fl_p4_step_result_free(NULL);
    fl_p4_step_result_free(r);
    fl_p4_step_result_free(r2);
    gsl_vector_free(v);
    gsl_vector_free(w);
    gsl_vector_free(vi);
    gsl_vector_free(v3);
    holder_close(&H);
}

/* ---------------------------------------------------------------- */
/* Property tests: random systems, both implementations              */

/* A random problem: n in [2, 7], m in {1, 2} (m < n), M SPD with condition
 * number <= 1e2, D independent rows, friction sets in T*_alpha: disc (dim 1
 * or 2) or interval with possibly one infinite end (0 inside). */
static void random_problem(gsl_rng *rng, holder *h)
{
    size_t n = 2 + gsl_rng_uniform_int(rng, 6);
    size_t m = 1 + gsl_rng_uniform_int(rng, n > 2 ? 2 : 1);
    holder_open(h, n, m);
    cr_assert_eq(fl_random_spd(rng, pow(10.0, 2.0 * gsl_rng_uniform(rng)), 1.0, h->M), FL_OK);
    cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, h->D), FL_OK);
    fl_spd *spd;
    cr_assert_eq(fl_spd_alloc(h->M, &spd, NULL), FL_OK);
    gsl_vector *wd = gsl_vector_alloc(n), *e = gsl_vector_alloc(n);
    for (size_t a = 0; a < m; a++) {
        gsl_vector_const_view d = gsl_matrix_const_row(h->D, a);
        fl_spd_solve(spd, &d.vector, wd);                       /* W dphi */
        double dwd;
        gsl_blas_ddot(&d.vector, wd, &dwd);
        int k = (n - 1 >= 2 && gsl_rng_uniform(rng) < 0.4) ? 2 : 1;
        h->E[a] = gsl_matrix_alloc((size_t)k, n);
        for (int j = 0; j < k; j++) {
            fl_random_vector(rng, 1.0, e);
            double ew;
            gsl_blas_ddot(e, wd, &ew);
            gsl_blas_daxpy(-ew / dwd, &d.vector, e);             /* e in T*_alpha */
            gsl_matrix_set_row(h->E[a], (size_t)j, e);
        }
        double mu = fl_random_mu(rng);
        if (k == 2 && gsl_rng_uniform(rng) < 0.5) {
            fl_friction_set_disc(&h->C[a].set, 2, mu, NULL);
        } else if (k == 2) {
            /* polygons (the pyramidal sets of 001 §6.1 in space): a pentagon
             * around 0, or an unbounded cup with two rays */
            double vert[10];
            double ph = gsl_rng_uniform(rng);
            for (int j = 0; j < 5; j++) {
                vert[2 * j] = mu * cos(ph + 2 * FL_PI * j / 5);
                vert[2 * j + 1] = mu * sin(ph + 2 * FL_PI * j / 5);
            }
            if (gsl_rng_uniform(rng) < 0.5) {
                cr_assert_eq(fl_friction_set_polygon(&h->C[a].set, 5, vert, 0, NULL, NULL), FL_OK);
            } else {
                /* a cup opening upwards: vertices (-mu,0), (0,-mu), (mu,0), entering
                 * along -(-0.3,1), leaving along (0.3,1); 0 inside */
                double v3[6] = {-mu, 0.0, 0.0, -mu, mu, 0.0}, r2[4] = {-0.3, 1.0, 0.3, 1.0};
                cr_assert_eq(fl_friction_set_polygon(&h->C[a].set, 3, v3, 2, r2, NULL), FL_OK);
            }
        } else {
            double u = gsl_rng_uniform(rng);
            double lo = -mu * (0.2 + gsl_rng_uniform(rng)), hi = mu;
            if (u < 0.25) lo = -INFINITY;
            else if (u < 0.4) hi = INFINITY;
            cr_assert_eq(fl_friction_set_interval(&h->C[a].set, lo, hi, NULL), FL_OK);
        }
    }
    gsl_vector_free(wd);
    gsl_vector_free(e);
    fl_spd_free(spd);
    holder_finish(h, 1);
}

static double mnorm(const gsl_matrix *M, const gsl_vector *v)
{
    gsl_vector *t = gsl_vector_alloc(v->size);
    double s;
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, v, 0.0, t);
    gsl_blas_ddot(v, t, &s);
    gsl_vector_free(t);
    return sqrt(fmax(s, 0.0));
}

Test(p4_law, property_prop51_splits_and_twins_agree, .timeout = 120)
{
    gsl_rng *rng = fl_test_rng(20240501);
    const int N = 1000;
    int multi = 0, nrejected = 0;
    for (int t = 0; t < N; t++) {
        holder H;
        random_problem(rng, &H);
        size_t n = H.n, m = H.m;
        gsl_vector *v = gsl_vector_alloc(n), *imp = gsl_vector_calloc(n);
        fl_random_vector(rng, 1.0, v);
        int with_force = t % 2;
        if (with_force) fl_random_vector(rng, 0.3, imp);
        /* one constraint: Newton with e in [0, 1]; several: Moreau's inelastic law
         * (Newton is not consistent for obtuse angles, 001 §4) */
        fl_p4_impact_law law = {m == 1 ? FL_P4_IMPACT_NEWTON : FL_P4_IMPACT_INELASTIC,
                                gsl_rng_uniform(rng), NULL, NULL, NULL};
        fl_p4_step_result *r[2];
        fl_error e;
        int rejected = 0;
        for (int i = 0; i < 2; i++) {
            r[i] = fl_p4_step_result_alloc(n, m);
            fl_status st = fl_p4_types[i].step(&H.p, v, imp, &law, NULL, r[i], &e);
            if (m > 1 && st == FL_EINVAL && strstr(e.message, "C2 failed: <dphi_alpha, F> = 0")) {
                /* several constraints and an unbounded C*: the inelastic law may
                 * leave a velocity outside D(S) (001 §5, C2); both twins must agree */
                rejected++;
                continue;
            }
            cr_assert(st >= 0, "%s system %d: %s %s", fl_p4_types[i].name, t, e.message, fl_test_seed_note());
            /* Prop. 5.1 at the step: 1/2|v+|^2 <= 1/2|v_free|^2; at impacts without
             * force 1/2|v+|^2 <= 1/2|v-|^2 */
            cr_assert(r[i]->energy_plus <= r[i]->energy_free * (1 + 1e-10) + 1e-14,
                      "%s system %d: energy %g > %g %s", fl_p4_types[i].name, t, r[i]->energy_plus,
                      r[i]->energy_free, fl_test_seed_note());
            /* the certificate */
            cr_assert(r[i]->gap <= 1e-7, "%s system %d (m=%zu): gap %g %s", fl_p4_types[i].name, t, m,
                      r[i]->gap, fl_test_seed_note());
            cr_assert(r[i]->normal_residual <= 1e-10, "normal residual %g %s", r[i]->normal_residual,
                      fl_test_seed_note());
        }
        if (rejected) {
            cr_assert_eq(rejected, 2, "only one twin rejected system %d %s", t, fl_test_seed_note());
            nrejected++;
            fl_p4_step_result_free(r[0]);
            fl_p4_step_result_free(r[1]);
            gsl_vector_free(v);
            gsl_vector_free(imp);
            holder_close(&H);
            continue;
        }
        if (m > 1) multi++;
        if (!with_force) cr_assert(r[0]->energy_plus <= r[0]->energy_minus * (1 + 1e-10) + 1e-14);
        /* <r_tau, v_t^+> <= 0 */
        gsl_vector *vt = gsl_vector_alloc(n), *vn = gsl_vector_alloc(n);
        cr_assert_eq(fl_p4_split_velocity(&H.p, r[0]->v_plus, vn, vt, NULL), FL_OK);
        double rv;
        gsl_blas_ddot(r[0]->r_tau, vt, &rv);
        double scale = (mnorm(H.M, r[0]->v_plus) + mnorm(H.M, v)) * gsl_blas_dnrm2(r[0]->R);
        double e2 = pow(mnorm(H.M, r[0]->v_plus), 2) + pow(mnorm(H.M, v), 2);
        cr_assert(rv <= 1e-9 * scale + 1e-13 * e2, "system %d (m=%zu): <r_tau, v_t> = %g scale %g |v+| %g %s", t, m, rv,
                  scale, mnorm(H.M, r[0]->v_plus), fl_test_seed_note());
        /* velocity split: M-orthogonal, reconstructs, D v_t = 0 */
        gsl_vector *tmp = gsl_vector_alloc(n), *dv = gsl_vector_alloc(m);
        gsl_blas_dgemv(CblasNoTrans, 1.0, H.M, vt, 0.0, tmp);
        double ip;
        gsl_blas_ddot(vn, tmp, &ip);
        double vs = mnorm(H.M, r[0]->v_plus);
        cr_assert(fabs(ip) <= 1e-11 * vs * vs + 1e-15, "<v_n,v_t>_M = %g %s", ip, fl_test_seed_note());
        gsl_blas_dgemv(CblasNoTrans, 1.0, H.D, vt, 0.0, dv);
        cr_assert(gsl_blas_dnrm2(dv) <= 1e-10 * (vs + 1), "D v_t %s", fl_test_seed_note());
        gsl_vector_add(vn, vt);
        gsl_vector_sub(vn, r[0]->v_plus);
        cr_assert(gsl_blas_dnrm2(vn) <= 1e-12 * (gsl_blas_dnrm2(r[0]->v_plus) + 1e-300) + 1e-15);
        /* cone split (4.1) of a random reaction: KKT and reconstruction */
        gsl_vector *rr = gsl_vector_alloc(n), *rt = gsl_vector_alloc(n), *lam = gsl_vector_alloc(m);
        fl_random_vector(rng, 1.0, rr);
        cr_assert_eq(fl_p4_split_reaction(&H.p, rr, lam, rt, NULL), FL_OK);
        fl_spd *spd;
        fl_spd_alloc(H.M, &spd, NULL);
        fl_spd_solve(spd, rt, tmp);                              /* W r_tau */
        gsl_blas_dgemv(CblasNoTrans, 1.0, H.D, tmp, 0.0, dv);   /* D W r_tau <= 0 */
        double rs = gsl_blas_dnrm2(rr) * gsl_blas_dnrm2(tmp) + 1e-300;
        double compl = 0.0;
        for (size_t a = 0; a < m; a++) {
            cr_assert(gsl_vector_get(lam, a) >= 0.0);
            cr_assert(gsl_vector_get(dv, a) <= 1e-11 * (fabs(gsl_vector_get(dv, a)) + rs),
                      "D W r_tau = %g %s", gsl_vector_get(dv, a), fl_test_seed_note());
            compl += gsl_vector_get(lam, a) * gsl_vector_get(dv, a);
        }
        double rn = fl_spd_dual_norm(spd, rr);
        cr_assert(fabs(compl) <= 1e-10 * rn * rn, "complementarity %g %s", compl, fl_test_seed_note());
        gsl_blas_dgemv(CblasTrans, 1.0, H.D, lam, 0.0, tmp);
        gsl_vector_add(tmp, rt);
        gsl_vector_sub(tmp, rr);
        cr_assert(gsl_blas_dnrm2(tmp) <= 1e-12 * gsl_blas_dnrm2(rr));
        fl_spd_free(spd);
        /* reference vs optimized */
        gsl_vector_memcpy(tmp, r[0]->v_plus);
        gsl_vector_sub(tmp, r[1]->v_plus);
        /* one constraint: closed-form projection, agree to rounding; several:
         * iterates stopped by the certificate, agree to its tolerance */
        double agree = m == 1 ? 1e-9 : 1e-5;
        cr_assert(gsl_blas_dnrm2(tmp) <= agree * (gsl_blas_dnrm2(r[0]->v_plus) + gsl_blas_dnrm2(v)),
                  "system %d: reference and optimized differ by %g (m=%zu n=%zu it %d %d gap %g %g imp %d %d) %s", t,
                  gsl_blas_dnrm2(tmp), m, n, r[0]->iterations, r[1]->iterations, r[0]->gap, r[1]->gap,
                  r[0]->impact, r[1]->impact, fl_test_seed_note());
        cr_assert_eq(r[0]->impact, r[1]->impact);
        gsl_vector_free(rr);
        gsl_vector_free(rt);
        gsl_vector_free(lam);
        gsl_vector_free(tmp);
        gsl_vector_free(dv);
        gsl_vector_free(vt);
        gsl_vector_free(vn);
        fl_p4_step_result_free(r[0]);
        fl_p4_step_result_free(r[1]);
        gsl_vector_free(v);
        gsl_vector_free(imp);
        holder_close(&H);
    }
    cr_assert(multi > 100, "too few multi-constraint systems (%d)", multi);
    cr_assert(nrejected < N / 10, "too many rejected systems (%d)", nrejected);
    gsl_rng_free(rng);
}

/* ---------------------------------------------------------------- */
/* Several constraints: Newton vs the inelastic law, K_frict          */

/* Point particle (M = I) on two planes of R^2 with unit normals at an angle;
 * frictionless: C3 holds iff the percussion is a nonnegative combination
 * (001 §4: acute angle automatic; obtuse angle needs C3). */
static void two_planes(holder *h, double angle, double mu)
{
    holder_open(h, 2, 2);
    gsl_matrix_set_identity(h->M);
    gsl_matrix_set(h->D, 0, 0, 0.0);
    gsl_matrix_set(h->D, 0, 1, 1.0);                      /* phi_1 = y */
    gsl_matrix_set(h->D, 1, 0, sin(angle));
    gsl_matrix_set(h->D, 1, 1, cos(angle));               /* phi_2: normal rotated by angle */
    for (int a = 0; a < 2; a++) {
        h->E[a] = gsl_matrix_alloc(1, 2);
        gsl_matrix_set(h->E[a], 0, 0, gsl_matrix_get(h->D, a, 1));
        gsl_matrix_set(h->E[a], 0, 1, -gsl_matrix_get(h->D, a, 0));
        fl_friction_set_disc(&h->C[a].set, 1, mu, NULL);
    }
    holder_finish(h, 1);
}

Test(p4_law, newton_two_constraints_acute_and_obtuse)
{
    /* v^- approaching both planes along the bisector and off it */
    fl_p4_consistency rep;
    fl_error e;
    gsl_vector *F = gsl_vector_alloc(2);
    /* normals at 150 degrees (the admissible wedge is acute, 30 degrees): G^-1 has
     * positive off-diagonal entries, so Newton's percussion -(1+e) G^-1 D v is a
     * nonnegative combination for every approaching v: consistent (001 §4) */
        holder H;
    two_planes(&H, 5 * FL_PI / 6, 0.0);
    gsl_vector *v = vec2(-2.0, -1.0);                    /* D v = (-1, -1 + 0.866) < 0: both approach */
    fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, 0.5, NULL, NULL, NULL};
    cr_assert_eq(fl_p4_impact_eval(&H.p, &law, v, F, NULL), FL_OK);
    fl_status st = fl_p4_impact_check(&H.p, v, F, 1e-9, &rep, &e);
    cr_assert_eq(st, FL_OK, "%s", e.message);
    holder_close(&H);
    /* normals at 60 degrees (obtuse admissible region, 120 degrees): with
     * -D v = (1, 0.1), beta = (1+e) G^-1 (1, 0.1) has a negative entry: the
     * percussion pulls on constraint 2, C3 fails; the inelastic law passes */
    two_planes(&H, FL_PI / 3, 0.0);
    gsl_vector_set(v, 0, 0.4 / sin(FL_PI / 3));
    gsl_vector_set(v, 1, -1.0);
    cr_assert_eq(fl_p4_impact_eval(&H.p, &law, v, F, NULL), FL_OK);
    st = fl_p4_impact_check(&H.p, v, F, 1e-9, &rep, &e);
    cr_assert_eq(st, FL_EINVAL);
    cr_assert_eq(rep.failed, 3, "failed %d: %s", rep.failed, e.message);
    cr_assert(strstr(e.message, "C3"));
    fl_p4_impact_law in = {FL_P4_IMPACT_INELASTIC, 0.0, NULL, NULL, NULL};
    cr_assert_eq(fl_p4_impact_eval(&H.p, &in, v, F, NULL), FL_OK);
    cr_assert_eq(fl_p4_impact_check(&H.p, v, F, 1e-9, &rep, &e), FL_OK, "%s", e.message);
    /* with friction the step through the inelastic law stays dissipative */
    holder_close(&H);
    two_planes(&H, FL_PI / 3, 0.7);
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 2);
    cr_assert_eq(fl_p4_step(&H.p, v, NULL, &in, NULL, r, &e), FL_OK, "%s", e.message);
    cr_assert(r->impact && r->energy_plus <= r->energy_minus);
    fl_p4_step_result_free(r);
    gsl_vector_free(v);
    gsl_vector_free(F);
    holder_close(&H);
}

Test(p4_law, kfrict_membership_closed_form)
{
    /* Painlevé set [a, b] with dphi = (0, 1), M = diag(m, J):
     * r = (r_x, r_theta) in K_frict iff r_theta >= 0 and r_x in r_theta [a, b];
     * if r_theta < 0 the cone split gives lambda = 0 and r_tau = r */
    double m = 2.0, J = 0.5, a = -0.5, b = 0.25;
    holder H;
    painleve(&H, m, J, a, b);
    struct { double rx, rth, dist; } cases[] = {
        {0.1, 1.0, 0.0},                       /* inside */
        {0.4, 1.0, (0.4 - 0.25) / sqrt(m)},    /* beyond b: W-distance |rx - b rth| / sqrt(m) */
        {-0.7, 1.0, 0.2 / sqrt(m)},            /* beyond a */
        {0.0, -1.0, 1.0 / sqrt(J)},            /* pulling: not in K_frict */
        {0.0, 0.0, 0.0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        gsl_vector *r = vec2(cases[k].rx, cases[k].rth);
        double d;
        cr_assert_eq(fl_p4_kfrict_distance(&H.p, r, &d, NULL), FL_OK);
        cr_assert(fabs(d - cases[k].dist) < 1e-12, "case %zu: %g vs %g", k, d, cases[k].dist);
        gsl_vector_free(r);
    }
    gsl_vector *r3 = gsl_vector_calloc(3);
    double d;
    cr_assert_eq(fl_p4_kfrict_distance(&H.p, r3, &d, NULL), FL_EDIM);
    gsl_vector_free(r3);
    /* support function through the basis: S_C*(v) = S_[a,b](v_x) */
    double s;
    gsl_vector *v = vec2(2.0, 7.0);
    cr_assert(fl_p4_support(&H.C[0], v, &s));
    cr_assert(fabs(s - 2.0 * b) < 1e-15);
    gsl_vector_set(v, 0, -2.0);
    cr_assert(fl_p4_support(&H.C[0], v, &s));
    cr_assert(fabs(s - 2.0 * -a) < 1e-15);
    gsl_vector_free(v);
    holder_close(&H);
}

/* ---------------------------------------------------------------- */
/* The time stepper on random trajectories with forces (Prop. 5.1)   */

/* The linear test system of checks/p4_checks.h (fl_p4_check_linear):
 * constant M, phi = D q + c, f = -k q + g, with injectable callback
 * failures. */

typedef struct traj {
    const gsl_matrix *M;
    double worst;
    long impacts;
    int stop_at;
} traj;

static int t_obs(void *d, long k, double t, const gsl_vector *q, const gsl_vector *v,
                 const fl_p4_step_result *st)
{
    (void)t;
    (void)q;
    (void)v;
    traj *T = d;
    T->worst = fmax(T->worst, (st->energy_plus - st->energy_free) / fmax(st->energy_free, 1e-300));
    T->impacts += st->impact;
    return T->stop_at >= 0 && k >= T->stop_at;
}

Test(p4_law, simulate_random_trajectories_dissipative, .timeout = 120)
{
    gsl_rng *rng = fl_test_rng(777);
    long impacts = 0;
    for (int t = 0; t < 60; t++) {
        holder H;
        random_problem(rng, &H);
        gsl_vector *Lc = gsl_vector_calloc(H.m), *Lg = gsl_vector_alloc(H.n);
        fl_p4_check_linear L = {H.M, H.D, H.C, Lc, Lg, 0.5 + gsl_rng_uniform(rng), 0};
        fl_random_vector(rng, 2.0, Lg);
        fl_p4_system sys = fl_p4_check_linear_system(&L, gsl_rng_uniform(rng));
        gsl_vector *q = gsl_vector_calloc(H.n), *v = gsl_vector_alloc(H.n);
        fl_random_vector(rng, 1.0, v);
        traj T = {H.M, -INFINITY, 0, -1};
        fl_p4_sim_result sr;
        fl_error e;
        fl_status st = fl_p4_simulate(&sys, 0.0, 1e-2, 200, q, v, NULL, t_obs, &T, &sr, &e);
        if (st != FL_OK) {
            cr_assert(H.m > 1 && strstr(e.message, "C2"), "trajectory %d: %s %s", t, e.message, fl_test_seed_note());
        } else {
            cr_assert_eq(sr.steps, 200);
            cr_assert(T.worst <= 1e-10, "trajectory %d: step energy excess %g %s", t, T.worst, fl_test_seed_note());
            cr_assert(sr.energy_violation <= 1e-10);
            /* 1/2|v_N|^2 <= 1/2|v_0|^2 + sum of force work + O(h^2) terms is implied by the
             * per-step inequality with constant M (telescoping) */
            impacts += T.impacts;
        }
        gsl_vector_free(q);
        gsl_vector_free(v);
        gsl_vector_free(Lc);
        gsl_vector_free(Lg);
        holder_close(&H);
    }
    cr_assert(impacts > 10, "too few impacts (%ld) %s", impacts, fl_test_seed_note());
    gsl_rng_free(rng);
}

Test(p4_law, simulate_bad_input_and_callback_errors)
{
    holder H;
    painleve(&H, 1.0, 0.3, -1.0, 1.0);
    gsl_vector *Lc = gsl_vector_calloc(1), *Lg = gsl_vector_calloc(2);
    fl_p4_check_linear L = {H.M, H.D, H.C, Lc, Lg, 0.0, 0};
    gsl_vector_set(Lg, 1, -1.0);
    fl_p4_system sys = fl_p4_check_linear_system(&L, 0.5);
    gsl_vector *q = gsl_vector_calloc(2), *v = gsl_vector_calloc(2), *q3 = gsl_vector_calloc(3);
    fl_p4_sim_result sr;
    fl_error e;
    cr_assert_eq(fl_p4_simulate(&sys, 0, -1.0, 10, q, v, NULL, NULL, NULL, &sr, &e), FL_EINVAL);
    cr_assert_eq(fl_p4_simulate(&sys, 0, 1e-3, 10, q3, v, NULL, NULL, NULL, &sr, &e), FL_EDIM);
    cr_assert_eq(fl_p4_simulate(NULL, 0, 1e-3, 10, q, v, NULL, NULL, NULL, &sr, &e), FL_EINVAL);
    sys.restitution = 1.5;
    cr_assert_eq(fl_p4_simulate(&sys, 0, 1e-3, 10, q, v, NULL, NULL, NULL, &sr, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "restitution"));
    sys.restitution = 0.5;
    for (int f = 1; f <= 5; f++) {
        L.fail = f;
        gsl_vector_set_zero(q);
        gsl_vector_set_zero(v);
        cr_assert(fl_p4_simulate(&sys, 0, 1e-3, 10, q, v, NULL, NULL, NULL, &sr, &e) < 0, "fail mode %d", f);
        cr_assert_eq(sr.status, e.status);
    }
    L.fail = 0;
    /* the observer stops the run; a frictionless system (no friction callback) */
    traj T = {H.M, -INFINITY, 0, 3};
    sys.friction = NULL;
    cr_assert_eq(fl_p4_simulate(&sys, 0, 1e-3, 10, q, v, NULL, t_obs, &T, &sr, &e), FL_OK);
    cr_assert_eq(sr.steps, 4);
    gsl_vector_free(q);
    gsl_vector_free(v);
    gsl_vector_free(q3);
    gsl_vector_free(Lc);
    gsl_vector_free(Lg);
    holder_close(&H);
}

Test(p4_law, split_functions_bad_input_and_free_flight)
{
    holder H;
    painleve(&H, 1.0, 0.3, -1.0, 1.0);
    gsl_vector *v3 = gsl_vector_calloc(3), *v = vec2(1.0, 2.0), *l2 = gsl_vector_calloc(2);
    fl_error e;
    cr_assert_eq(fl_p4_split_reaction(&H.p, v3, NULL, NULL, &e), FL_EDIM);
    cr_assert_eq(fl_p4_split_reaction(&H.p, v, l2, NULL, &e), FL_EDIM);
    cr_assert_eq(fl_p4_impact_check(&H.p, v3, v, 1e-12, NULL, &e), FL_EDIM);
    cr_assert_eq(fl_p4_impact_newton(&H.p, NULL, v3, v, &e), FL_EDIM);
    cr_assert_eq(fl_p4_impact_eval(&H.p, NULL, v, v3, &e), FL_EDIM);
    gsl_vector_set(v, 0, NAN);
    cr_assert_eq(fl_p4_split_reaction(&H.p, v, NULL, NULL, &e), FL_ENONFINITE);
    cr_assert_eq(fl_p4_kfrict_distance(&H.p, v, NULL, &e), FL_ENONFINITE);
    gsl_vector_set(v, 0, 1.0);
    /* m = 0: free flight, v^+ = v^- + W impulse; splits are trivial */
    fl_p4_problem free = {2, 0, H.M, H.Ms, &H.ctx, NULL, NULL};
    gsl_vector *vn = gsl_vector_alloc(2), *vt = gsl_vector_alloc(2), *imp = vec2(1.0, 0.3);
    cr_assert_eq(fl_p4_split_velocity(&free, v, vn, vt, NULL), FL_OK);
    cr_assert_eq(gsl_vector_get(vn, 0), 0.0);
    cr_assert_eq(gsl_vector_get(vt, 1), 2.0);
    cr_assert_eq(fl_p4_split_velocity(&free, v3, vn, vt, &e), FL_EDIM);
    for (int i = 0; i < 2; i++) {
        fl_p4_step_result *r = fl_p4_step_result_alloc(2, 0);
        cr_assert_eq(fl_p4_types[i].step(&free, v, imp, NULL, NULL, r, NULL), FL_OK);
        cr_assert(fabs(gsl_vector_get(r->v_plus, 0) - 2.0) < 1e-15);
        cr_assert(fabs(gsl_vector_get(r->v_plus, 1) - 3.0) < 1e-14);
        fl_p4_step_result_free(r);
    }
    /* custom law returning NaN */
    fl_p4_impact_law nanlaw = {FL_P4_IMPACT_CUSTOM, 0.0, NULL, law_tangential, NULL};
    gsl_vector *vi = vec2(NAN, -1.0);
    cr_assert_eq(fl_p4_impact_eval(&H.p, &nanlaw, vi, vt, &e), FL_ENONFINITE);
    fl_p4_impact_law nane = {FL_P4_IMPACT_NEWTON, NAN, NULL, NULL, NULL};
    cr_assert_eq(fl_p4_impact_eval(&H.p, &nane, v, vt, &e), FL_ENONFINITE);
    /* per-constraint restitution array */
    double ea[1] = {0.25};
    fl_p4_impact_law pa = {FL_P4_IMPACT_NEWTON, 0.0, ea, NULL, NULL};
    gsl_vector_set(vi, 0, 0.0);
    cr_assert_eq(fl_p4_impact_eval(&H.p, &pa, vi, vt, NULL), FL_OK);
    cr_assert(fabs(gsl_vector_get(vt, 1) - 0.25) < 1e-15);
    gsl_vector_free(vi);
    gsl_vector_free(vn);
    gsl_vector_free(vt);
    gsl_vector_free(imp);
    gsl_vector_free(v3);
    gsl_vector_free(v);
    gsl_vector_free(l2);
    holder_close(&H);
}

Test(p4_law, sparse_twin_bad_input_and_strided_vectors)
{
    holder H;
    painleve(&H, 2.0, 0.3, -1.0, 1.0);
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1), *r2 = fl_p4_step_result_alloc(2, 1);
    /* v^- and the impulse as strided views (columns of a 2x2 matrix) */
    gsl_matrix *V = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(V, 0, 0, 1.5);
    gsl_matrix_set(V, 1, 0, -0.7);
    gsl_matrix_set(V, 0, 1, 0.1);
    gsl_matrix_set(V, 1, 1, -0.02);
    gsl_vector_view v = gsl_matrix_column(V, 0), imp = gsl_matrix_column(V, 1);
    fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, 0.3, NULL, NULL, NULL};
    cr_assert_eq(fl_p4_step_sparse(&H.p, &v.vector, &imp.vector, &law, NULL, r, NULL), FL_OK);
    cr_assert_eq(fl_p4_step(&H.p, &v.vector, &imp.vector, &law, NULL, r2, NULL), FL_OK);
    for (size_t i = 0; i < 2; i++)
        cr_assert(fabs(gsl_vector_get(r->v_plus, i) - gsl_vector_get(r2->v_plus, i)) < 1e-14);
    fl_error e;
    fl_p4_problem p = H.p;
    /* wrong dimension of Ms */
    p.n = 3;
    cr_assert_eq(fl_p4_step_sparse(&p, &v.vector, NULL, &law, NULL, r, &e), FL_EDIM);
    p.n = 2;
    /* unsymmetric storage */
    cholmod_sparse *U = NULL;
    cr_assert_eq(fl_sparse_from_dense(&H.ctx, H.M, 0, 0.0, &U, NULL), FL_OK);
    p.Ms = U;
    cr_assert_eq(fl_p4_step_sparse(&p, &v.vector, NULL, &law, NULL, r, &e), FL_EINVAL);
    fl_sparse_free(&H.ctx, &U);
    /* not positive definite */
    gsl_matrix *N = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(N, 0, 0, -1.0);
    gsl_matrix_set(N, 1, 1, 1.0);
    cr_assert_eq(fl_sparse_from_dense(&H.ctx, N, 1, 0.0, &U, NULL), FL_OK);
    p.Ms = U;
    cr_assert(fl_p4_step_sparse(&p, &v.vector, NULL, &law, NULL, r, &e) < 0);
    cr_assert_eq(r->status, e.status);
    fl_sparse_free(&H.ctx, &U);
    gsl_matrix_free(N);
    gsl_matrix_free(V);
    fl_p4_step_result_free(r);
    fl_p4_step_result_free(r2);
    holder_close(&H);
}

/* ---------------------------------------------------------------- */
/* Examples of 001 §6 with the values of data/001                    */

static void data_path(const char *name, char *path, size_t len)
{
    char rel[256];
    fl_error e;
    snprintf(rel, sizeof rel, "001/%s.json", name);
    cr_assert_eq(fl_data_path(NULL, rel, path, len, &e), FL_OK, "%s", e.message);
}

Test(p4_law, example_kane_energy)
{
    /* data/001/kane.json: real-world Coulomb + Newton (stick outcome) gains
     * energy, K+ = 0.4759439 from K- = 1/6; P'4 does not (Prop. 5.1) */
    char path[4096];
    data_path("kane", path, sizeof path);
    fl_model_kane K;
    fl_error le;
    cr_assert_eq(fl_model_kane_load(path, &K, &le), FL_OK, "%s", le.message);
    double mu = K.mu, e = K.e;
    holder H;
    holder_open(&H, 2, 1);
    fl_model_kane_mass(&K, H.M);                    /* closed forms: tests/test_models_001.c */
    gsl_matrix *Jc = gsl_matrix_alloc(2, 2), *tl = gsl_matrix_alloc(2, 2);
    fl_model_kane_jacobian(&K, Jc);
    gsl_matrix_transpose_memcpy(tl, Jc);
    gsl_matrix_set(H.D, 0, 0, gsl_matrix_get(Jc, 1, 0));
    gsl_matrix_set(H.D, 0, 1, gsl_matrix_get(Jc, 1, 1));
    gsl_vector_const_view dphi = gsl_matrix_const_row(H.D, 0);
    fl_fset_contact c = {tl, {0.0, 1.0, 0.0}, mu};
    fl_fset_result fr;
    cr_assert_eq(fl_fset_build(H.M, &dphi.vector, 1, &c, NULL, &fr, NULL), FL_OK);
    H.E[0] = fr.E;
    H.C[0].set = fr.set;
    fr.E = NULL;
    memset(&fr.set, 0, sizeof fr.set);
    fl_fset_result_release(&fr);
    holder_finish(&H, 1);
    gsl_vector *v = vec2(K.omega1, K.omega2);
    double K0 = 0.5 * pow(mnorm(H.M, v), 2);
    cr_assert(fabs(K0 - 1.0 / 6.0) < 1e-12);
    /* real-world stick: A P = (-u_t, -e u_n - u_n), A = Jc W Jc^T */
    gsl_matrix *W = gsl_matrix_alloc(2, 2), *T = gsl_matrix_alloc(2, 2), *A = gsl_matrix_alloc(2, 2);
    gsl_matrix_memcpy(W, H.M);
    gsl_linalg_cholesky_decomp1(W);
    gsl_linalg_cholesky_invert(W);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Jc, W, 0.0, T);
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, T, Jc, 0.0, A);
    gsl_vector *u = gsl_vector_alloc(2), *P = gsl_vector_alloc(2), *r = gsl_vector_alloc(2), *vp = gsl_vector_alloc(2);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Jc, v, 0.0, u);
    double a00 = gsl_matrix_get(A, 0, 0), a01 = gsl_matrix_get(A, 0, 1), a11 = gsl_matrix_get(A, 1, 1);
    double b0 = -gsl_vector_get(u, 0), b1 = -(1 + e) * gsl_vector_get(u, 1), det = a00 * a11 - a01 * a01;
    double Pt = (a11 * b0 - a01 * b1) / det, Pn = (-a01 * b0 + a00 * b1) / det;
    cr_assert(Pn > 0 && fabs(Pt) <= mu * Pn, "stick admissible: Pt %g Pn %g", Pt, Pn);
    gsl_vector_set(P, 0, Pt);
    gsl_vector_set(P, 1, Pn);
    gsl_blas_dgemv(CblasNoTrans, 1.0, tl, P, 0.0, r);
    gsl_blas_dgemv(CblasNoTrans, 1.0, W, r, 0.0, vp);
    gsl_vector_add(vp, v);
    double Kreal = 0.5 * pow(mnorm(H.M, vp), 2);
    cr_assert(fabs(Kreal - 0.4759438839) < 1e-9, "K+ real world %.10g", Kreal);
    cr_assert(Kreal > K0);
    /* P'4 */
    fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, e, NULL, NULL, NULL};
    for (int i = 0; i < 2; i++) {
        fl_p4_step_result *res = fl_p4_step_result_alloc(2, 1);
        cr_assert_eq(fl_p4_types[i].step(&H.p, v, NULL, &law, NULL, res, NULL), FL_OK);
        cr_assert(res->impact && res->energy_plus <= K0, "%s: K+ %g", fl_p4_types[i].name, res->energy_plus);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Jc, res->v_plus, 0.0, vp);
        cr_assert(fabs(gsl_vector_get(vp, 1) + e * gsl_vector_get(u, 1)) < 1e-12);
        fl_p4_step_result_free(res);
    }
    gsl_matrix_free(Jc);
    gsl_matrix_free(tl);
    gsl_matrix_free(W);
    gsl_matrix_free(T);
    gsl_matrix_free(A);
    gsl_vector_free(u);
    gsl_vector_free(P);
    gsl_vector_free(r);
    gsl_vector_free(vp);
    gsl_vector_free(v);
    holder_close(&H);
}

typedef struct xdrec {
    double *xd;
    long cap;
    double h;
} xdrec;

static int rec3(void *d, long k, double t, const gsl_vector *q, const gsl_vector *v, const fl_p4_step_result *s)
{
    (void)t;
    (void)q;
    (void)s;
    xdrec *r = d;
    if (k < r->cap) r->xd[k] = gsl_vector_get(v, 0);
    return 0;
}

static int rec5(void *d, size_t step, double t, const gsl_vector *q, const fl_stewart_result *s)
{
    (void)step;
    (void)q;
    xdrec *r = d;
    long k = (long)floor(t / r->h + 0.5) - 1;
    if (k >= 0 && k < r->cap) r->xd[k] = gsl_vector_get(s->v_plus, 0);
    return 0;
}

Test(p4_law, example_painleve_p3_equals_p5_below_threshold, .timeout = 60)
{
    /* data/001/painleve_p5_vs_p3.json: mu < -1/tan(theta0), C0 < 0: the P'3
     * stepper and Stewart's P5 (Lemke) give the same x'(t), and both the
     * closed form x' = V0 - (C0 a / m) t until rest (proofs/p4_law.md §5) */
    char path[4096];
    data_path("painleve_p5_vs_p3", path, sizeof path);
    fl_model_painleve_params P;
    fl_error le;
    cr_assert_eq(fl_model_painleve_load(path, &P, &le), FL_OK, "%s", le.message);
    double m = P.m, J = P.J, l = P.l, t0 = P.theta0, mu = P.mu_small, V0 = P.V0, C0 = P.C0, h = P.h, T = P.T;
    double a = -mu / (l * (cos(t0) + mu * sin(t0)));              /* proofs/p4_law.md §5 */
    fl_model_painleve B;                                         /* models/fl_model_painleve.c */
    cr_assert_eq(fl_model_painleve_init(&B, &P, mu, C0, FL_FSET_BY_DPHI, &le), FL_OK, "%s", le.message);
    long N = (long)floor(T / h + 0.5);
    xdrec r3 = {calloc((size_t)N, sizeof(double)), N, h}, r5 = {calloc((size_t)N, sizeof(double)), N, h};
    fl_p4_system sys = fl_model_painleve_system(&B);
    gsl_vector *q = vec2(0.0, t0), *v = vec2(V0, 0.0);
    fl_p4_sim_result sr;
    cr_assert_eq(fl_p4_simulate(&sys, 0.0, h, N, q, v, NULL, rec3, &r3, &sr, NULL), FL_OK);
    fl_model_painleve_bar pb = {m, J, l, t0, mu, 0.0, C0};
    fl_stewart_system ss;
    cr_assert_eq(fl_model_painleve_stewart_system(&pb, &ss, NULL), FL_OK);
    fl_stewart_options so = fl_stewart_options_default();
    fl_stewart_run run;
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, t0);
    gsl_vector_set(v, 0, V0);
    gsl_vector_set(v, 1, 0.0);
    cr_assert_eq(fl_stewart_integrate(&ss, &so, 0.0, h, (size_t)N, q, v, rec5, &r5, &run, NULL), FL_OK);
    double acc = -C0 * a / m, w35 = 0, w3c = 0;
    for (long k = 0; k < N; k++) {
        double t = (double)(k + 1) * h, xc = t < -V0 / acc ? V0 + acc * t : 0.0;
        w35 = fmax(w35, fabs(r3.xd[k] - r5.xd[k]));
        w3c = fmax(w3c, fabs(r3.xd[k] - xc));
    }
    cr_assert(w35 <= 1e-9 * V0, "P'3 vs P5: %g", w35);
    cr_assert(w3c <= 4 * fabs(acc) * h, "P'3 vs closed form: %g", w3c);
    free(r3.xd);
    free(r5.xd);
    gsl_vector_free(q);
    gsl_vector_free(v);
    fl_model_painleve_release(&B);
}

Test(p4_law, example_painleve_catastrophe_then_rest)
{
    /* data/001/painleve_catastrophe.json, mu_large: unbounded set, the whole
     * trajectory: tangential impact at the first step, then rest */
    char path[4096];
    data_path("painleve_catastrophe", path, sizeof path);
    fl_model_painleve_params P;
    fl_error le;
    cr_assert_eq(fl_model_painleve_load(path, &P, &le), FL_OK, "%s", le.message);
    double t0 = P.theta0, mu = P.mu_large, V0 = P.V0, C0 = P.C0, h = P.h;
    cr_assert(mu >= -1.0 / tan(t0));
    fl_model_painleve B;
    cr_assert_eq(fl_model_painleve_init(&B, &P, mu, C0, FL_FSET_BY_DPHI, &le), FL_OK, "%s", le.message);
    cr_assert(isinf(B.fs.set.lo), "unbounded set (proofs/p4_law.md §5)");
    long N = 200;
    xdrec r3 = {calloc((size_t)N, sizeof(double)), N, h};
    fl_p4_system sys = fl_model_painleve_system(&B);
    gsl_vector *q = vec2(0.0, t0), *v = vec2(V0, 0.0);
    fl_p4_sim_result sr;
    cr_assert_eq(fl_p4_simulate(&sys, 0.0, h, N, q, v, NULL, rec3, &r3, &sr, NULL), FL_OK);
    for (long k = 0; k < N; k++) cr_assert(fabs(r3.xd[k]) <= 1e-14 * V0, "x'(%ld) = %g", k, r3.xd[k]);
    cr_assert(fabs(gsl_vector_get(q, 0)) <= V0 * h, "x stays at %g", gsl_vector_get(q, 0));
    free(r3.xd);
    gsl_vector_free(q);
    gsl_vector_free(v);
    fl_model_painleve_release(&B);
}

static int s1obs(void *d, long k, double t, const gsl_vector *q, const gsl_vector *v, const fl_p4_step_result *s)
{
    (void)k;
    (void)t;
    (void)q;
    (void)v;
    double *worst = d;
    *worst = fmax(*worst, gsl_blas_dnrm2(s->R));
    return 0;
}

Test(p4_law, example_system1_no_wedging_and_p6_family)
{
    /* data/001/systems_1_2.json, system 1 (001 §6.3): P'3 gives r_theta = 0 and
     * theta = C0 t^2/(2J); every member of the P6 family (stuck until t0)
     * satisfies P6 but has r_theta = -C0 < 0 on [0, t0) */
    char path[4096];
    data_path("systems_1_2", path, sizeof path);
    fl_model_system1 S;
    fl_error le;
    cr_assert_eq(fl_model_system1_load(path, &S, &le), FL_OK, "%s", le.message);
    double J = S.J, C0 = S.C0, tt = S.theta_tilde0, mu = S.mu, l = S.l, T = S.T, h = S.h, worst = 0.0;
    fl_p4_system sys = fl_model_system1_system(&S);
    gsl_vector *q = gsl_vector_calloc(1), *v = gsl_vector_calloc(1);
    long N = (long)floor(T / h + 0.5);
    fl_p4_sim_result sr;
    cr_assert_eq(fl_p4_simulate(&sys, 0.0, h, N, q, v, NULL, s1obs, &worst, &sr, NULL), FL_OK);
    cr_assert_eq(worst, 0.0);
    double Tn = (double)N * h;
    cr_assert(fabs(gsl_vector_get(q, 0) - C0 * Tn * Tn / (2 * J)) < 1e-12 * C0 * Tn * Tn / J);
    /* the P6 family */
    double den = mu * cos(tt) - sin(tt), rn = C0 / (l * den), rt = -mu * rn;   /* proofs/p4_law.md §6 */
    cr_assert(den > 0 && rn > 0);
    cr_assert(fabs(fabs(rt) - mu * rn) < 1e-14 * rn);                       /* on the cone edge */
    double rth = l * (rt * cos(tt) + rn * sin(tt));
    cr_assert(fabs(rth + C0) < 1e-13 * C0, "J theta'' = C0 + r_theta = 0 while stuck: r_theta %g", rth);
    for (int j = -3; j <= 3; j++)                                            /* Coulomb inequality, w = 0 */
        cr_assert(rt * j + mu * rn * fabs((double)j) >= -1e-12 * rn);
    cr_assert(rth < 0, "r_theta < 0: not a P'3 reaction");
    gsl_vector_free(q);
    gsl_vector_free(v);
}

Test(p4_law, rejects_inconsistent_dimensions)
{
    holder H;
    painleve(&H, 2.0, 0.3, -1.0, 1.0);
    gsl_vector *w = vec2(1.0, 0.0);
    fl_p4_step_result *r = fl_p4_step_result_alloc(2, 1);
    fl_error e;
    fl_p4_problem p = H.p;
    gsl_matrix *D3 = gsl_matrix_calloc(1, 3), *E3 = gsl_matrix_calloc(1, 3), *M3 = gsl_matrix_alloc(3, 3);
    p.D = D3;                                           /* D is 1 x 3 on 2 dofs */
    cr_assert_eq(fl_p4_step(&p, w, NULL, NULL, NULL, r, &e), FL_EDIM);
    p = H.p;
    p.D = NULL;
    cr_assert_eq(fl_p4_step(&p, w, NULL, NULL, NULL, r, &e), FL_EINVAL);
    p = H.p;
    fl_p4_friction C = {H.C[0].set, E3};                /* basis of the wrong width */
    p.C = &C;
    cr_assert_eq(fl_p4_step(&p, w, NULL, NULL, NULL, r, &e), FL_EDIM);
    p = H.p;
    gsl_matrix_set_identity(M3);
    p.M = M3;                                           /* M 3 x 3 on 2 dofs */
    cr_assert_eq(fl_p4_step(&p, w, NULL, NULL, NULL, r, &e), FL_EDIM);
    p = H.p;
    p.n = 0;
    cr_assert_eq(fl_p4_step(&p, w, NULL, NULL, NULL, r, &e), FL_EDIM);
    gsl_matrix_free(D3);
    gsl_matrix_free(E3);
    gsl_matrix_free(M3);
    gsl_vector_free(w);
    fl_p4_step_result_free(r);
    holder_close(&H);
}

Test(p4_law, sparse_twin_on_a_sparse_mass_matrix, .timeout = 60)
{
    /* a genuinely sparse M (graph Laplacian pattern, n = 400, cond ~ 1e3), two
     * constraints with friction: the CHOLMOD twin agrees with the dense
     * reference (one harness, same result struct) */
    gsl_rng *rng = fl_test_rng(4242);
    for (int t = 0; t < 3; t++) {
        holder H;
        size_t n = 400, m = 2;
        memset(&H, 0, sizeof H);
        H.n = n;
        H.m = m;
        cr_assert_eq(fl_sparse_start(&H.ctx, NULL), FL_OK);
        H.Ms = fl_random_sparse_spd(rng, &H.ctx, n, 4, 1e3);
        cr_assert_not_null(H.Ms);
        cr_assert_eq(fl_sparse_to_dense(&H.ctx, H.Ms, &H.M, NULL), FL_OK);
        H.D = gsl_matrix_calloc(m, n);
        cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, H.D), FL_OK);
        fl_spd *spd;
        cr_assert_eq(fl_spd_alloc(H.M, &spd, NULL), FL_OK);
        gsl_vector *wd = gsl_vector_alloc(n), *e = gsl_vector_alloc(n);
        for (size_t a = 0; a < m; a++) {
            gsl_vector_const_view d = gsl_matrix_const_row(H.D, a);
            fl_spd_solve(spd, &d.vector, wd);
            double dwd, ew;
            gsl_blas_ddot(&d.vector, wd, &dwd);
            H.E[a] = gsl_matrix_alloc(1, n);
            fl_random_vector(rng, 1.0, e);
            gsl_blas_ddot(e, wd, &ew);
            gsl_blas_daxpy(-ew / dwd, &d.vector, e);
            gsl_matrix_set_row(H.E[a], 0, e);
            fl_friction_set_interval(&H.C[a].set, -0.3, a ? INFINITY : 0.5, NULL);
            H.C[a].E = H.E[a];
        }
        fl_spd_free(spd);
        fl_p4_problem p = {n, m, H.M, H.Ms, &H.ctx, H.D, H.C};
        H.p = p;
        gsl_vector *v = gsl_vector_alloc(n), *imp = gsl_vector_alloc(n);
        fl_random_vector(rng, 1.0, v);
        fl_random_vector(rng, 0.1, imp);
        fl_p4_impact_law law = {FL_P4_IMPACT_INELASTIC, 0.0, NULL, NULL, NULL};
        fl_p4_step_result *r0 = fl_p4_step_result_alloc(n, m), *r1 = fl_p4_step_result_alloc(n, m);
        fl_error er;
        fl_status s0 = fl_p4_step(&H.p, v, imp, &law, NULL, r0, &er);
        fl_status s1 = fl_p4_step_sparse(&H.p, v, imp, &law, NULL, r1, &er);
        cr_assert_eq(s0, s1, "%s %s", er.message, fl_test_seed_note());
        if (s0 >= 0) {
            gsl_vector_sub(r0->v_plus, r1->v_plus);
            cr_assert(gsl_blas_dnrm2(r0->v_plus) <= 1e-7 * gsl_blas_dnrm2(v), "differ by %g %s",
                      gsl_blas_dnrm2(r0->v_plus), fl_test_seed_note());
            cr_assert(r1->energy_plus <= r1->energy_free * (1 + 1e-10));
        }
        fl_p4_step_result_free(r0);
        fl_p4_step_result_free(r1);
        gsl_vector_free(v);
        gsl_vector_free(imp);
        gsl_vector_free(wd);
        gsl_vector_free(e);
        holder_close(&H);
    }
    gsl_rng_free(rng);
}

Test(p4_law, cone_split_matches_enumeration_of_active_sets)
{
    /* independent oracle for (4.1): enumerate every active set S of the
     * multipliers, lambda_S = G_SS^-1 (D W r)_S, keep the one satisfying the
     * KKT conditions (unique since G is SPD) */
    gsl_rng *rng = fl_test_rng(9090);
    for (int t = 0; t < 300; t++) {
        size_t m = 1 + gsl_rng_uniform_int(rng, 3), n = m + 1 + gsl_rng_uniform_int(rng, 3);
        holder H;
        holder_open(&H, n, m);
        cr_assert_eq(fl_random_spd(rng, 50.0, 1.0, H.M), FL_OK);
        cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, H.D), FL_OK);
        holder_finish(&H, 0);
        gsl_vector *r = gsl_vector_alloc(n), *lam = gsl_vector_alloc(m), *rt = gsl_vector_alloc(n);
        fl_random_vector(rng, 1.0, r);
        cr_assert_eq(fl_p4_split_reaction(&H.p, r, lam, rt, NULL), FL_OK);
        /* b = D W r, G = D W D^T */
        gsl_matrix *L = gsl_matrix_alloc(n, n), *WDt = gsl_matrix_alloc(n, m), *G = gsl_matrix_alloc(m, m);
        gsl_vector *b = gsl_vector_alloc(m), *Wr = gsl_vector_alloc(n);
        gsl_matrix_memcpy(L, H.M);
        gsl_linalg_cholesky_decomp1(L);
        gsl_matrix_transpose_memcpy(WDt, H.D);
        for (size_t j = 0; j < m; j++) {
            gsl_vector_view c = gsl_matrix_column(WDt, j);
            gsl_linalg_cholesky_svx(L, &c.vector);
        }
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, H.D, WDt, 0.0, G);
        gsl_blas_dgemv(CblasTrans, 1.0, WDt, r, 0.0, b);
        int found = 0;
        for (unsigned S = 0; S < (1u << m); S++) {
            double x[3] = {0, 0, 0};
            size_t idx[3], k = 0;
            for (size_t i = 0; i < m; i++) if (S & (1u << i)) idx[k++] = i;
            if (k) {
                gsl_matrix *Gs = gsl_matrix_alloc(k, k);
                gsl_vector *bs = gsl_vector_alloc(k);
                for (size_t i = 0; i < k; i++) {
                    gsl_vector_set(bs, i, gsl_vector_get(b, idx[i]));
                    for (size_t j = 0; j < k; j++) gsl_matrix_set(Gs, i, j, gsl_matrix_get(G, idx[i], idx[j]));
                }
                gsl_linalg_cholesky_decomp1(Gs);
                gsl_linalg_cholesky_svx(Gs, bs);
                for (size_t i = 0; i < k; i++) x[idx[i]] = gsl_vector_get(bs, i);
                gsl_matrix_free(Gs);
                gsl_vector_free(bs);
            }
            int ok = 1;
            double scale = gsl_blas_dnrm2(b) + 1e-300;
            for (size_t i = 0; i < m; i++) {
                double w = -gsl_vector_get(b, i);
                for (size_t j = 0; j < m; j++) w += gsl_matrix_get(G, i, j) * x[j];
                if (x[i] < -1e-12 * scale || w < -1e-12 * scale) ok = 0;
            }
            if (!ok) continue;
            found++;
            for (size_t i = 0; i < m; i++)
                cr_assert(fabs(gsl_vector_get(lam, i) - x[i]) <= 1e-9 * (fabs(x[i]) + scale),
                          "system %d: lambda_%zu = %g, enumeration %g %s", t, i, gsl_vector_get(lam, i), x[i],
                          fl_test_seed_note());
        }
        cr_assert(found >= 1, "no active set satisfies KKT %s", fl_test_seed_note());
        gsl_matrix_free(L);
        gsl_matrix_free(WDt);
        gsl_matrix_free(G);
        gsl_vector_free(b);
        gsl_vector_free(Wr);
        gsl_vector_free(r);
        gsl_vector_free(lam);
        gsl_vector_free(rt);
        holder_close(&H);
    }
    gsl_rng_free(rng);
}

/* ------------------------------------------------------------------ */
/* The checks of checks/p4_checks.c fed a corrupted input: each must   */
/* report FAIL (a check that cannot fail is worthless), and PASS on    */
/* the data files as they are.                                         */
/* ------------------------------------------------------------------ */
#include "check_capture.h"
#include "checks/fl_tasks.h"

typedef int (*task_fn)(fl_check_ctx *);

/* Run task on data/001/<file> with member key (after `after`) replaced by
 * value; the check `name` must have kind `want`. */
static void expect_kind(task_fn task, const char *file, const char *after, const char *key, const char *value,
                        const char *name, int want)
{
    capture c;
    fl_check_ctx ctx = capture_ctx(&c);
    ctx.data_dir = capture_data_dir(&c, file, after, key, value);
    cr_assert_eq(task(&ctx), 0, "%s: %s", file, c.message);
    cr_assert_eq(capture_kind(&c, name), want, "%s with %s = %s: %s is %d, expected %d", file, key, value, name,
                 capture_kind(&c, name), want);
    capture_cleanup(&c);
}

Test(p4_checks, every_task_passes_on_the_data_files)
{
    task_fn tasks[] = {fl_p4_reproduce_painleve_set, fl_p4_reproduce_painleve_catastrophe,
                       fl_p4_reproduce_painleve_grazing, fl_p4_reproduce_painleve_p5_vs_p3,
                       fl_p4_reproduce_systems_1_2, fl_p4_reproduce_kane};
    for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++) {
        capture c;
        fl_check_ctx ctx = capture_ctx(&c);
        cr_assert_eq(tasks[i](&ctx), 0, "%s", c.message);
        cr_assert(ctx.passed > 0 && ctx.failed == 0 && ctx.noted == 0, "task %zu: %ld passed, %ld failed", i,
                  ctx.passed, ctx.failed);
        capture_cleanup(&c);
    }
}

Test(p4_checks, wrong_values_fail)
{
    /* a printed end of C* that is not the closed form */
    expect_kind(fl_p4_reproduce_painleve_set, "painleve_set.json", "\"expected\"", "lo", "-0.9",
                "painleve_set.mu05_bounded", FL_CHECK_FAIL);
    expect_kind(fl_p4_reproduce_painleve_set, "painleve_set.json", "\"mu_large\": {", "hi", "1.2",
                "painleve_set.mu2_upper_end", FL_CHECK_FAIL);
    /* mu_large below sqrt 3: the set is bounded, no catastrophe */
    expect_kind(fl_p4_reproduce_painleve_catastrophe, "painleve_catastrophe.json", NULL, "mu_large", "0.5",
                "painleve_catastrophe.unbounded_set_no_normal_impact", FL_CHECK_FAIL);
    expect_kind(fl_p4_reproduce_painleve_catastrophe, "painleve_catastrophe.json", NULL, "mu_large", "0.5",
                "painleve_catastrophe.tangential_impact", FL_CHECK_FAIL);
    /* mu_small above sqrt 3: unbounded, the bar does not slide to rest */
    expect_kind(fl_p4_reproduce_painleve_catastrophe, "painleve_catastrophe.json", NULL, "mu_small", "2.5",
                "painleve_catastrophe.bounded_set_slides_to_rest", FL_CHECK_FAIL);
    /* a torque: not grazing any more */
    expect_kind(fl_p4_reproduce_painleve_grazing, "painleve_grazing.json", NULL, "C0", "-1.0",
                "painleve_grazing.unique_motion", FL_CHECK_FAIL);
    expect_kind(fl_p4_reproduce_painleve_grazing, "painleve_grazing.json", NULL, "C0", "-1.0",
                "painleve_grazing.zero_reaction", FL_CHECK_FAIL);
    /* mu below the stop's |R~x|/R~y = sqrt 3: the P5 stop is not admissible */
    expect_kind(fl_p4_reproduce_painleve_grazing, "painleve_grazing.json", NULL, "mu_large", "1.0",
                "painleve_grazing.p5_stop_solution_exists", FL_CHECK_FAIL);
    /* mu < tan(theta~0): no P6 family; mu2 < tan(beta): no wedging */
    expect_kind(fl_p4_reproduce_systems_1_2, "systems_1_2.json", NULL, "mu", "0.1",
                "systems_1_2.system1_p6_family", FL_CHECK_FAIL);
    expect_kind(fl_p4_reproduce_systems_1_2, "systems_1_2.json", NULL, "mu2", "0.1",
                "systems_1_2.system2_real_world_wedge_family", FL_CHECK_FAIL);
    /* a tip moving away from the floor: no impact, no paradox */
    expect_kind(fl_p4_reproduce_kane, "kane.json", NULL, "omega2", "1.0", "kane.real_world_energy_increase",
                FL_CHECK_FAIL);
}

Test(p4_checks, bad_and_user_parameter_files)
{
    /* a bad file: the task fails, the message names the file and the field */
    capture c;
    fl_check_ctx ctx = capture_ctx(&c);
    ctx.data_dir = capture_data_dir(&c, "painleve_set.json", NULL, "J", "-1");
    cr_assert_eq(fl_p4_reproduce_painleve_set(&ctx), -1);
    cr_assert(strstr(c.message, "painleve_set.json") && strstr(c.message, "params.J"), "%s", c.message);
    capture_cleanup(&c);
    /* the user's parameters (--params): closed forms run, the paper's
     * configuration-specific check is a NOTE, never a PASS */
    ctx = capture_ctx(&c);
    char params[400];
    snprintf(params, sizeof params, "%s/001/painleve_set.json",
             capture_data_dir(&c, "painleve_set.json", NULL, "mu_small", "0.3"));
    ctx.params = params;
    cr_assert_eq(fl_p4_reproduce_painleve_set(&ctx), 0, "%s", c.message);
    cr_assert_eq(ctx.failed, 0);
    cr_assert_eq(capture_kind(&c, "painleve_set.mu05_bounded"), FL_CHECK_PASS);
    capture_cleanup(&c);
    ctx = capture_ctx(&c);
    snprintf(params, sizeof params, "%s/001/kane.json", capture_data_dir(&c, "kane.json", NULL, NULL, NULL));
    ctx.params = params;
    cr_assert_eq(fl_p4_reproduce_kane(&ctx), 0, "%s", c.message);
    cr_assert_eq(capture_kind(&c, "kane.real_world_energy_increase"), FL_CHECK_NOTE);
    capture_cleanup(&c);
    /* a missing data file is an error */
    ctx = capture_ctx(&c);
    ctx.data_dir = c.dir;
    cr_assert_eq(fl_p4_reproduce_kane(&ctx), -1);
    cr_assert_eq(fl_p4_reproduce_systems_1_2(&ctx), -1);
    cr_assert_eq(fl_p4_reproduce_painleve_grazing(&ctx), -1);
    capture_cleanup(&c);
}

Test(p4_checks, crosscheck_passes_including_the_two_ray_sticking_step, .timeout = 120)
{
    /* 2000 systems, seed 1: system 864 is a sticking step on a polygon
     * with two rays whose certificate read +inf before support_tol measured
     * the distance to D(S) (proofs/p4_law.md §3) */
    capture c;
    fl_check_ctx ctx = capture_ctx(&c);
    ctx.systems = 2000;
    ctx.seed = 1;
    cr_assert_eq(fl_p4_crosscheck(&ctx), 0);
    cr_assert_eq(capture_kind(&c, "p4.certificate"), FL_CHECK_PASS);
    cr_assert_eq(ctx.failed, 0, "%ld checks failed", ctx.failed);
    capture_cleanup(&c);
}
