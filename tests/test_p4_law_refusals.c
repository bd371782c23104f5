/* test_p4_law_refusals.c — the generalized friction law P'4 of 001 §3–§5
 * (reference/p4_law.c, optimized/p4_law_sparse.c): a one-constraint impact
 * stepped by both twins against its closed form, then the same bad
 * problems, results, velocities and impact laws fed to both (same status,
 * message naming the field), and the argument checks of the splits, the
 * consistency conditions C1–C4 and the time stepper.
 *
 * The problem: n = 2, M = I, one active constraint dphi = e2 (D = [0 1]),
 * friction set C* = E^T [-mu, mu] with E = [1 0], mu = 1/2.  v^- = (1, -1)
 * approaches (D v^- = -1 < 0): an impact; Newton's law with e = 0 gives
 * v^+_N = 0, the normal impulse lambda = 1 (M = I).  The tangential impulse
 * is the W-projection (W = I) of -M v^-_T = (-1, 0) onto lambda C* =
 * [-1/2, 1/2] e1: -1/2.  So v^+ = (1/2, 0) and R = M (v^+ - v^-) = (-1/2, 1)
 * (001 §5, one constraint; 003 §3 the same Coulomb impact). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/p4_law.h"
#include "optimized/p4_law_sparse.h"
#include "twin_check.h"


typedef struct p4_prob {
    gsl_matrix *M, *D, *E;
    cholmod_sparse *Ms;
    fl_p4_friction C;
    fl_p4_problem p;
    gsl_vector *v;
    fl_p4_impact_law law;
} p4_prob;

static void prob_init(p4_prob *P)
{
    memset(P, 0, sizeof *P);
    P->M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(P->M);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P->M, 1, 0.0, &P->Ms, NULL), FL_OK);
    P->D = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(P->D, 0, 1, 1.0);
    P->E = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(P->E, 0, 0, 1.0);
    cr_assert_eq(fl_friction_set_interval(&P->C.set, -0.5, 0.5, NULL), FL_OK);
    P->C.E = P->E;
    P->p = (fl_p4_problem){.n = 2, .m = 1, .M = P->M, .Ms = P->Ms, .sctx = &ctx, .D = P->D,
                           .C = &P->C};
    P->v = gsl_vector_alloc(2);
    gsl_vector_set(P->v, 0, 1.0);
    gsl_vector_set(P->v, 1, -1.0);
    P->law = (fl_p4_impact_law){.kind = FL_P4_IMPACT_NEWTON, .e = 0.0};
}

static void prob_free(p4_prob *P)
{
    gsl_matrix_free(P->M);
    gsl_matrix_free(P->D);
    gsl_matrix_free(P->E);
    cholmod_free_sparse(&P->Ms, &ctx.cm);
    fl_friction_set_release(&P->C.set);
    gsl_vector_free(P->v);
}

static void both_step(p4_prob *P, const gsl_vector *v, const gsl_vector *impulse,
                      const fl_p4_impact_law *law, fl_p4_step_result *res, fl_status s[2],
                      fl_error err[2])
{
    s[0] = fl_p4_step(&P->p, v, impulse, law, NULL, res, &err[0]);
    s[1] = fl_p4_step_sparse(&P->p, v, impulse, law, NULL, res, &err[1]);
}

#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { both_step(&P, P.v, NULL, &P.law, res, s, err); SAME(want, needle); } while (0)

static fl_status custom_fails(void *data, const fl_p4_problem *p, const gsl_vector *v,
                              gsl_vector *F, fl_error *err)
{
    (void)data;
    (void)p;
    (void)v;
    (void)F;
    return FL_FAIL(err, FL_EIO, "custom impact law: table missing");
}

static fl_status custom_nan(void *data, const fl_p4_problem *p, const gsl_vector *v,
                            gsl_vector *F, fl_error *err)
{
    (void)data;
    (void)p;
    (void)v;
    (void)err;
    gsl_vector_set_all(F, NAN);
    return FL_OK;
}

Test(cov_p4, impact_closed_form_both_twins, .init = setup, .fini = teardown)
{
    p4_prob P;
    prob_init(&P);
    for (int k = 0; k < 2; k++) {
        fl_p4_step_result *res = fl_p4_step_result_alloc(2, 1);
        fl_error err;
        fl_status s = k ? fl_p4_step_sparse(&P.p, P.v, NULL, &P.law, NULL, res, &err)
                        : fl_p4_step(&P.p, P.v, NULL, &P.law, NULL, res, &err);
        cr_assert_eq(s, FL_OK, "impl %d: %s", k, err.message);
        cr_assert_eq(res->impact, 1);
        cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 0.5) <= 1e-12 &&
                  fabs(gsl_vector_get(res->v_plus, 1)) <= 1e-12, "impl %d v+ (%g, %g)", k,
                  gsl_vector_get(res->v_plus, 0), gsl_vector_get(res->v_plus, 1));
        cr_assert(fabs(gsl_vector_get(res->R, 0) + 0.5) <= 1e-12 &&
                  fabs(gsl_vector_get(res->R, 1) - 1) <= 1e-12);
        cr_assert(fabs(gsl_vector_get(res->lambda, 0) - 1) <= 1e-12);
        fl_p4_step_result_free(res);
    }
    prob_free(&P);
}

Test(cov_p4, both_twins_refuse_the_same_inputs, .init = setup, .fini = teardown)
{
    p4_prob P;
    prob_init(&P);
    fl_status s[2];
    fl_error err[2];
    fl_p4_step_result *res = fl_p4_step_result_alloc(2, 1);
    /* constraint gradients */
    gsl_matrix_set(P.D, 0, 0, NAN);
    EXPECT(FL_ENONFINITE, "constraint gradients D(0,0)");
    gsl_matrix_set(P.D, 0, 0, 0);
    gsl_matrix *D13 = gsl_matrix_calloc(1, 3), *D31 = gsl_matrix_calloc(3, 1);
    P.p.D = D13;
    EXPECT(FL_EDIM, "D is 1x3");
    P.p.D = NULL;
    EXPECT(FL_EINVAL, "D is NULL");
    P.p.D = P.D;
    /* three constraints on one dof cannot be independent (n = 1) */
    {
        gsl_matrix *M1 = gsl_matrix_alloc(1, 1);
        gsl_matrix_set(M1, 0, 0, 1);
        cholmod_sparse *M1s = NULL;
        cr_assert_eq(fl_sparse_from_dense(&ctx, M1, 1, 0.0, &M1s, NULL), FL_OK);
        gsl_matrix_set_all(D31, 1.0);
        fl_p4_problem q = {.n = 1, .m = 3, .M = M1, .Ms = M1s, .sctx = &ctx, .D = D31};
        gsl_vector *v1 = gsl_vector_calloc(1);
        fl_p4_step_result *r1 = fl_p4_step_result_alloc(1, 3);
        s[0] = fl_p4_step(&q, v1, NULL, &P.law, NULL, r1, &err[0]);
        s[1] = fl_p4_step_sparse(&q, v1, NULL, &P.law, NULL, r1, &err[1]);
        SAME(FL_ESINGULAR, "3 active constraints on 1 dofs");
        fl_p4_step_result_free(r1);
        gsl_vector_free(v1);
        gsl_matrix_free(M1);
        cholmod_free_sparse(&M1s, &ctx.cm);
    }
    /* friction sets */
    P.C.set.dim = 3;
    EXPECT(FL_EINVAL, "dimension 3");
    P.C.set.dim = 1;
    P.C.E = NULL;
    EXPECT(FL_EDIM, "friction basis E of constraint 0");
    P.C.E = D13;
    EXPECT(FL_EDIM, "friction basis E of constraint 0");
    P.C.E = P.E;
    gsl_matrix_set(P.E, 0, 1, INFINITY);
    EXPECT(FL_ENONFINITE, "friction basis E(0,1)");
    gsl_matrix_set(P.E, 0, 1, 0);
    /* the result, the velocity, the impulse */
    fl_p4_step_result *r23 = fl_p4_step_result_alloc(3, 1), *r22 = fl_p4_step_result_alloc(2, 2);
    both_step(&P, P.v, NULL, &P.law, NULL, s, err);
    SAME(FL_EDIM, "step result must be allocated for n = 2, m = 1");
    both_step(&P, P.v, NULL, &P.law, r23, s, err);
    SAME(FL_EDIM, "step result must be allocated");
    both_step(&P, P.v, NULL, &P.law, r22, s, err);
    SAME(FL_EDIM, "step result must be allocated");
    gsl_vector *v3 = gsl_vector_calloc(3), *imp = gsl_vector_calloc(2);
    both_step(&P, v3, NULL, &P.law, res, s, err);
    SAME(FL_EDIM, "velocity and impulse must have length 2");
    both_step(&P, P.v, v3, &P.law, res, s, err);
    SAME(FL_EDIM, "velocity and impulse must have length 2");
    gsl_vector_set(imp, 1, NAN);
    both_step(&P, P.v, imp, &P.law, res, s, err);
    SAME(FL_ENONFINITE, "force impulse h f[1]");
    gsl_vector_set(imp, 1, 0);
    gsl_vector_set(P.v, 0, INFINITY);
    EXPECT(FL_ENONFINITE, "velocity v^-[0]");
    gsl_vector_set(P.v, 0, 1);
    /* impact laws: missing, non-finite e, failing or non-finite custom,
     * unknown kind */
    both_step(&P, P.v, NULL, NULL, res, s, err);
    SAME(FL_EINVAL, "no impact law given");
    fl_p4_impact_law bad = {.kind = FL_P4_IMPACT_NEWTON, .e = NAN};
    both_step(&P, P.v, NULL, &bad, res, s, err);
    SAME(FL_ENONFINITE, "restitution coefficient is not finite");
    bad = (fl_p4_impact_law){.kind = FL_P4_IMPACT_CUSTOM, .fn = custom_fails};
    both_step(&P, P.v, NULL, &bad, res, s, err);
    SAME(FL_EIO, "table missing");
    bad.fn = custom_nan;
    both_step(&P, P.v, NULL, &bad, res, s, err);
    SAME(FL_ENONFINITE, "impact law value F(q, v^-)");
    bad.fn = NULL;
    both_step(&P, P.v, NULL, &bad, res, s, err);
    SAME(FL_EINVAL, "unknown impact law kind 2");
    bad = (fl_p4_impact_law){.kind = (fl_p4_impact_kind)9};
    both_step(&P, P.v, NULL, &bad, res, s, err);
    SAME(FL_EINVAL, "unknown impact law kind 9");
    /* no problem at all */
    s[0] = fl_p4_step(NULL, P.v, NULL, &P.law, NULL, res, &err[0]);
    s[1] = fl_p4_step_sparse(NULL, P.v, NULL, &P.law, NULL, res, &err[1]);
    SAME(FL_EINVAL, "no problem given");
    /* each twin's own matrix */
    P.p.M = NULL;
    cr_assert_eq(fl_p4_step(&P.p, P.v, NULL, &P.law, NULL, res, &err[0]), FL_EINVAL);
    cr_assert(strstr(err[0].message, "dense mass matrix M"));
    P.p.M = D13;
    cr_assert_eq(fl_p4_step(&P.p, P.v, NULL, &P.law, NULL, res, &err[0]), FL_EDIM);
    P.p.M = P.M;
    P.p.Ms = NULL;
    cr_assert_eq(fl_p4_step_sparse(&P.p, P.v, NULL, &P.law, NULL, res, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "sparse mass matrix Ms"));
    cholmod_sparse *full = NULL, *big = NULL;
    gsl_matrix *I3 = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(I3);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P.M, 0, 0.0, &full, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, I3, 1, 0.0, &big, NULL), FL_OK);
    P.p.Ms = full;
    cr_assert_eq(fl_p4_step_sparse(&P.p, P.v, NULL, &P.law, NULL, res, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "stype"));
    P.p.Ms = big;
    cr_assert_eq(fl_p4_step_sparse(&P.p, P.v, NULL, &P.law, NULL, res, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "Ms is 3x3"));
    P.p.Ms = P.Ms;
    P.p.sctx = NULL;
    cr_assert_eq(fl_p4_step_sparse(&P.p, P.v, NULL, &P.law, NULL, res, &err[1]), FL_EINVAL);
    P.p.sctx = &ctx;
    /* M not positive definite: both refuse */
    gsl_matrix_set(P.M, 1, 1, -1);
    ((double *)P.Ms->x)[1] = -1;
    both_step(&P, P.v, NULL, &P.law, res, s, err);
    cr_assert_eq(s[0], FL_ENOTSPD, "%s", err[0].message);
    cr_assert_eq(s[1], FL_ENOTSPD, "%s", err[1].message);
    gsl_matrix_set(P.M, 1, 1, 1);
    ((double *)P.Ms->x)[1] = 1;
    cholmod_free_sparse(&full, &ctx.cm);
    cholmod_free_sparse(&big, &ctx.cm);
    gsl_matrix_free(I3);
    gsl_matrix_free(D13);
    gsl_matrix_free(D31);
    gsl_vector_free(v3);
    gsl_vector_free(imp);
    fl_p4_step_result_free(res);
    fl_p4_step_result_free(r23);
    fl_p4_step_result_free(r22);
    prob_free(&P);
}

Test(cov_p4, splits_and_consistency_refuse_bad_arguments, .init = setup, .fini = teardown)
{
    p4_prob P;
    prob_init(&P);
    gsl_vector *v3 = gsl_vector_calloc(3), *F = gsl_vector_calloc(2), *r = gsl_vector_calloc(2);
    gsl_vector *l2 = gsl_vector_calloc(2), *l1 = gsl_vector_calloc(1), *rt = gsl_vector_calloc(2);
    fl_error err;
    double dist;
    cr_assert_eq(fl_p4_split_reaction(&P.p, v3, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, l2, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, NULL, v3, &err), FL_EDIM);
    cr_assert(strstr(err.message, "reaction split"));
    gsl_vector_set(r, 0, NAN);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, l1, rt, &err), FL_ENONFINITE);
    cr_assert_eq(fl_p4_kfrict_distance(&P.p, r, &dist, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "reaction r"));
    cr_assert_eq(fl_p4_kfrict_distance(&P.p, v3, &dist, &err), FL_EDIM);
    /* r = (-1/2, 1): lambda = 1, r_tau = (-1/2, 0) in lambda C*: distance 0 */
    gsl_vector_set(r, 0, -0.5);
    gsl_vector_set(r, 1, 1.0);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, l1, rt, &err), FL_OK);
    cr_assert(fabs(l1->data[0] - 1) <= 1e-14 && fabs(rt->data[0] + 0.5) <= 1e-14 &&
              fabs(rt->data[1]) <= 1e-14);
    cr_assert_eq(fl_p4_kfrict_distance(&P.p, r, &dist, &err), FL_OK);
    cr_assert(dist <= 1e-12, "%g", dist);
    /* r = (-2, 1): r_tau = -2 e1 outside [-1/2, 1/2] e1: W-distance 3/2 */
    gsl_vector_set(r, 0, -2.0);
    cr_assert_eq(fl_p4_kfrict_distance(&P.p, r, &dist, &err), FL_OK);
    cr_assert(fabs(dist - 1.5) <= 1e-9, "%g", dist);
    /* impact law evaluation and C1–C4: sizes, finiteness */
    cr_assert_eq(fl_p4_impact_newton(&P.p, &P.law, v3, F, &err), FL_EDIM);
    cr_assert_eq(fl_p4_impact_newton(&P.p, &P.law, P.v, v3, &err), FL_EDIM);
    cr_assert_eq(fl_p4_impact_eval(&P.p, &P.law, v3, F, &err), FL_EDIM);
    cr_assert_eq(fl_p4_impact_eval(&P.p, &P.law, P.v, v3, &err), FL_EDIM);
    cr_assert_eq(fl_p4_impact_check(&P.p, v3, F, 1e-9, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_p4_impact_check(&P.p, P.v, v3, 1e-9, NULL, &err), FL_EDIM);
    gsl_vector_set(F, 0, NAN);
    cr_assert_eq(fl_p4_impact_check(&P.p, P.v, F, 1e-9, NULL, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "impact law value F"));
    gsl_vector_set(F, 0, 0);
    gsl_vector_set(P.v, 1, NAN);
    cr_assert_eq(fl_p4_impact_check(&P.p, P.v, F, 1e-9, NULL, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "velocity v^-"));
    gsl_vector_set(P.v, 1, -1);
    /* Newton's law e = 0 at v^- = (1, -1): F = 0 (the normal part of v^+),
     * consistent (C1–C4 hold) */
    cr_assert_eq(fl_p4_impact_eval(&P.p, &P.law, P.v, F, &err), FL_OK);
    cr_assert(fabs(F->data[0]) <= 1e-15 && fabs(F->data[1]) <= 1e-15);
    fl_p4_consistency rep;
    cr_assert_eq(fl_p4_impact_check(&P.p, P.v, F, 1e-9, &rep, &err), FL_OK, "%s", err.message);
    cr_assert_eq(rep.failed, 0);
    /* F = (0, 2): |F|_M = 2 > |v^-_n|_M = 1, energy created: C4 fails */
    gsl_vector_set(F, 1, 2.0);
    cr_assert_eq(fl_p4_impact_check(&P.p, P.v, F, 1e-9, &rep, &err), FL_EINVAL);
    cr_assert_eq(rep.failed, 4, "failed %d: %s", rep.failed, err.message);
    gsl_vector_free(v3);
    gsl_vector_free(F);
    gsl_vector_free(r);
    gsl_vector_free(l2);
    gsl_vector_free(l1);
    gsl_vector_free(rt);
    prob_free(&P);
}

/* ---- the time stepper's arguments --------------------------------------- */

static fl_status sys_mass(void *data, const gsl_vector *q, gsl_matrix *M)
{
    (void)data;
    (void)q;
    gsl_matrix_set_identity(M);
    return FL_OK;
}

static fl_status sys_force(void *data, double t, const gsl_vector *q, const gsl_vector *v,
                           gsl_vector *f)
{
    (void)data;
    (void)t;
    (void)q;
    (void)v;
    gsl_vector_set_zero(f);
    return FL_OK;
}

static fl_status sys_gap(void *data, const gsl_vector *q, gsl_vector *phi)
{
    (void)data;
    gsl_vector_set(phi, 0, gsl_vector_get(q, 1));
    return FL_OK;
}

static fl_status sys_gradient(void *data, const gsl_vector *q, size_t alpha, gsl_vector *dphi)
{
    (void)data;
    (void)q;
    (void)alpha;
    gsl_vector_set_zero(dphi);
    gsl_vector_set(dphi, 1, 1.0);
    return FL_OK;
}

Test(cov_p4, simulate_refuses_bad_arguments)
{
    fl_p4_system sys = {.n = 2, .nc = 1, .mass = sys_mass, .force = sys_force, .gap = sys_gap,
                        .gradient = sys_gradient, .restitution = 0.5};
    gsl_vector *q = gsl_vector_calloc(2), *v = gsl_vector_calloc(2), *q3 = gsl_vector_calloc(3);
    gsl_vector_set(q, 1, 1.0);
    fl_error err;
    fl_p4_sim_result res;
    fl_p4_system bad = sys;
    cr_assert_eq(fl_p4_simulate(NULL, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    bad.mass = NULL;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "system callbacks missing"));
    bad = sys;
    bad.force = NULL;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    bad = sys;
    bad.gap = NULL;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    bad = sys;
    bad.gradient = NULL;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_p4_simulate(&sys, 0, 0, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "time step h"));
    cr_assert_eq(fl_p4_simulate(&sys, 0, NAN, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_p4_simulate(&sys, 0, INFINITY, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_p4_simulate(&sys, 0, 0.1, -1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_p4_simulate(&sys, 0, 0.1, 1, q3, v, NULL, NULL, NULL, &res, &err), FL_EDIM);
    cr_assert_eq(fl_p4_simulate(&sys, 0, 0.1, 1, q, q3, NULL, NULL, NULL, &res, &err), FL_EDIM);
    cr_assert(strstr(err.message, "q and v must have length 2"));
    bad = sys;
    bad.restitution = 1.5;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "restitution e = 1.5"));
    bad.restitution = NAN;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    bad.restitution = -0.1;
    cr_assert_eq(fl_p4_simulate(&bad, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_EINVAL);
    /* zero steps: nothing moves; frictionless system without constraints
     * (nc = 0, no gap or gradient needed), one free step: q += h v */
    cr_assert_eq(fl_p4_simulate(&sys, 0, 0.1, 0, q, v, NULL, NULL, NULL, &res, &err), FL_OK);
    cr_assert(q->data[0] == 0 && q->data[1] == 1);
    fl_p4_system freesys = {.n = 2, .nc = 0, .mass = sys_mass, .force = sys_force,
                            .restitution = 0.0};
    gsl_vector_set(v, 0, 2.0);
    cr_assert_eq(fl_p4_simulate(&freesys, 0, 0.1, 1, q, v, NULL, NULL, NULL, &res, &err), FL_OK,
                 "%s", err.message);
    cr_assert(fabs(q->data[0] - 0.2) <= 1e-15 && q->data[1] == 1 && v->data[0] == 2);
    /* the result record is optional */
    cr_assert_eq(fl_p4_simulate(&freesys, 0, 0.1, 1, q, v, NULL, NULL, NULL, NULL, &err), FL_OK);
    cr_assert(fabs(q->data[0] - 0.4) <= 1e-15);
    gsl_vector_free(q);
    gsl_vector_free(v);
    gsl_vector_free(q3);
}

Test(cov_p4, splits_without_constraints_and_null_outputs, .init = setup, .fini = teardown)
{
    p4_prob P;
    prob_init(&P);
    fl_error err;
    gsl_vector *vn = gsl_vector_alloc(2), *vt = gsl_vector_alloc(2), *r = gsl_vector_alloc(2);
    /* m = 0: no normal part, v_t = v; r_tau = r */
    fl_p4_problem free_p = {.n = 2, .m = 0, .M = P.M};
    cr_assert_eq(fl_p4_split_velocity(&free_p, P.v, vn, vt, &err), FL_OK, "%s", err.message);
    cr_assert(vn->data[0] == 0 && vn->data[1] == 0 && vt->data[0] == 1 && vt->data[1] == -1);
    cr_assert_eq(fl_p4_split_velocity(&free_p, P.v, NULL, NULL, &err), FL_OK);
    gsl_vector_set(r, 0, 3.0);
    gsl_vector_set(r, 1, -4.0);
    cr_assert_eq(fl_p4_split_reaction(&free_p, r, NULL, vt, &err), FL_OK, "%s", err.message);
    cr_assert(vt->data[0] == 3 && vt->data[1] == -4);
    /* one constraint, r = (-1/2, 1): the linear split has lambda = 1 >= 0;
     * the outputs may be omitted */
    gsl_vector_set(r, 0, -0.5);
    gsl_vector_set(r, 1, 1.0);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, NULL, NULL, &err), FL_OK);
    /* r = (0, -1) = -dphi pulls: the linear split's lambda = -1 < 0, so the
     * cone split (001 (4.1)) min_{lambda >= 0} |r - lambda dphi|_W is used:
     * lambda = max(0, <r, dphi>_W / |dphi|_W^2) = 0 and r_tau = r */
    gsl_vector *l1 = gsl_vector_alloc(1);
    gsl_vector_set(r, 0, 0.0);
    gsl_vector_set(r, 1, -1.0);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, l1, vt, &err), FL_OK);
    cr_assert(fabs(l1->data[0]) <= 1e-14 && fabs(vt->data[1] + 1) <= 1e-14);
    cr_assert_eq(fl_p4_split_reaction(&P.p, r, NULL, NULL, &err), FL_OK);
    /* the problem check and the dense entry points refuse a bad problem */
    gsl_matrix *D22 = gsl_matrix_calloc(2, 2), *E22 = gsl_matrix_calloc(2, 2);
    P.p.D = D22;
    cr_assert_eq(fl_p4_problem_check(&P.p, &err), FL_EDIM);
    cr_assert(strstr(err.message, "D is 2x2, expected 1x2"));
    cr_assert_eq(fl_p4_split_velocity(&P.p, P.v, vn, vt, &err), FL_EDIM);
    cr_assert_eq(fl_p4_impact_newton(&P.p, &P.law, P.v, vn, &err), FL_EDIM);
    fl_p4_step_result *res = fl_p4_step_result_alloc(2, 1);
    cr_assert_eq(fl_p4_step(&P.p, P.v, NULL, &P.law, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_p4_step(&P.p, P.v, NULL, &P.law, NULL, res, &err), FL_EDIM);
    cr_assert_eq(res->status, FL_EDIM);
    P.p.D = P.D;
    P.C.E = E22;
    cr_assert_eq(fl_p4_problem_check(&P.p, &err), FL_EDIM);
    cr_assert(strstr(err.message, "friction basis E of constraint 0 must be 1x2"));
    P.C.E = P.E;
    /* a friction set outside T*: E = (1, 1) has E W dphi = 1 != 0 (001 §5) */
    gsl_matrix_set(P.E, 0, 1, 1.0);
    cr_assert_eq(fl_p4_problem_check(&P.p, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "not in T*_alpha"), "%s", err.message);
    double dist;
    cr_assert_eq(fl_p4_kfrict_distance(&P.p, r, &dist, &err), FL_EINVAL);
    gsl_vector *F = gsl_vector_calloc(2);
    cr_assert_eq(fl_p4_impact_check(&P.p, P.v, F, 1e-9, NULL, &err), FL_EINVAL);
    gsl_matrix_set(P.E, 0, 1, 0.0);
    cr_assert_eq(fl_p4_problem_check(&P.p, &err), FL_OK);
    /* Newton's law with per-constraint restitutions (e itself NaN, unused):
     * e_0 = 0 gives the closed form of impact_closed_form_both_twins; and
     * the same step without checking C1–C4 */
    const double e0[1] = {0.0};
    fl_p4_impact_law la = {.kind = FL_P4_IMPACT_NEWTON, .e = NAN, .e_alpha = e0};
    fl_p4_options o = fl_p4_options_default();
    o.check_impact_law = 0;
    for (int k = 0; k < 2; k++) {
        fl_status s = k ? fl_p4_step_sparse(&P.p, P.v, NULL, &la, &o, res, &err)
                        : fl_p4_step(&P.p, P.v, NULL, &la, &o, res, &err);
        cr_assert_eq(s, FL_OK, "impl %d: %s", k, err.message);
        cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 0.5) <= 1e-12 &&
                  fabs(gsl_vector_get(res->v_plus, 1)) <= 1e-12);
    }
    fl_p4_step_result_free(res);
    gsl_matrix_free(D22);
    gsl_matrix_free(E22);
    gsl_vector_free(F);
    gsl_vector_free(l1);
    gsl_vector_free(vn);
    gsl_vector_free(vt);
    gsl_vector_free(r);
    prob_free(&P);
}

Test(cov_p4, no_active_constraint_and_the_inelastic_law, .init = setup, .fini = teardown)
{
    p4_prob P;
    prob_init(&P);
    fl_error err;
    /* m = 0: v^+ = v^- + W impulse (M = I): (1, -1) + (1/2, 1/2) */
    fl_p4_problem fp = {.n = 2, .m = 0, .M = P.M, .Ms = P.Ms, .sctx = &ctx};
    gsl_vector *imp = gsl_vector_alloc(2), *F = gsl_vector_alloc(2);
    gsl_vector_set_all(imp, 0.5);
    for (int k = 0; k < 2; k++) {
        fl_p4_step_result *res = fl_p4_step_result_alloc(2, 0);
        fl_status s = k ? fl_p4_step_sparse(&fp, P.v, imp, &P.law, NULL, res, &err)
                        : fl_p4_step(&fp, P.v, imp, &P.law, NULL, res, &err);
        cr_assert_eq(s, FL_OK, "impl %d: %s", k, err.message);
        cr_assert_eq(res->impact, 0);
        cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 1.5) <= 1e-15 &&
                  fabs(gsl_vector_get(res->v_plus, 1) + 0.5) <= 1e-15);
        fl_p4_step_result_free(res);
    }
    /* impact laws without constraint: F = 0 */
    gsl_vector_set_all(F, 7.0);
    cr_assert_eq(fl_p4_impact_newton(&fp, &P.law, P.v, F, &err), FL_OK);
    cr_assert(F->data[0] == 0 && F->data[1] == 0);
    fl_p4_impact_law inel = {.kind = FL_P4_IMPACT_INELASTIC};
    gsl_vector_set_all(F, 7.0);
    cr_assert_eq(fl_p4_impact_eval(&fp, &inel, P.v, F, &err), FL_OK);
    cr_assert(F->data[0] == 0 && F->data[1] == 0);
    /* Moreau's inelastic law on the constraint dphi = e2 at v^- = (1, -1):
     * the M-projection on {v_2 >= 0} is (1, 0), whose normal part F = 0;
     * the step is the Coulomb impact of impact_closed_form_both_twins */
    cr_assert_eq(fl_p4_impact_eval(&P.p, &inel, P.v, F, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(F->data[0]) <= 1e-15 && fabs(F->data[1]) <= 1e-15);
    fl_p4_step_result *res = fl_p4_step_result_alloc(2, 1);
    cr_assert_eq(fl_p4_step(&P.p, P.v, NULL, &inel, NULL, res, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 0.5) <= 1e-12 &&
              fabs(gsl_vector_get(res->v_plus, 1)) <= 1e-12);
    fl_p4_step_result_free(res);
    gsl_vector_free(imp);
    gsl_vector_free(F);
    prob_free(&P);
}
