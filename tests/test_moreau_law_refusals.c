/* test_moreau_law_refusals.c — Moreau's discrete contact law S(q, v)
 * (000 §2; reference/moreau_law.c, optimized/moreau_law_sparse.c): the
 * refusals tests/test_moreau_law.c leaves untaken, fed to both twins with
 * the same input (same status, message naming the field), friction sets
 * violating 000 (H3), the systems' and the time step's argument and
 * callback errors, and the degenerate "no strictly feasible point" branch
 * of the ball solver [PM §6] with its closed forms derived below. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_sparse.h"
#include "reference/moreau_law.h"
#include "optimized/moreau_law_sparse.h"
#include "twin_check.h"


/* Run both twins on the dense problem p (the sparse one gets M in
 * symmetric storage); statuses into s[2], messages into err[2]. */
static void both(const fl_moreau_problem *p, const fl_moreau_options *o, gsl_vector *u,
                 gsl_vector *r, fl_status s[2], fl_error err[2], fl_moreau_result res[2])
{
    s[0] = fl_moreau_law(p, o, u, r, res ? &res[0] : NULL, &err[0]);
    fl_moreau_problem q = *p;
    cholmod_sparse *Msp = NULL;
    if (p->M && p->M->size1 == p->M->size2)
        cr_assert_eq(fl_sparse_from_dense(&ctx, p->M, 1, 0.0, &Msp, NULL), FL_OK);
    q.M = NULL;
    q.Msp = Msp;
    q.ctx = &ctx;
    s[1] = fl_moreau_law_sparse(&q, o, u, r, res ? &res[1] : NULL, &err[1]);
    if (Msp) cholmod_free_sparse(&Msp, &ctx.cm);
}

#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { both(&P.p, &o, P.u, P.r, s, err, NULL); SAME(want, needle); } while (0)

/* d = 3, M = I, n = e1 (dgap = (2, 0, 0)), active (gap 0), v = (-1, 2, 0):
 * a collision.  With the friction set C = [lo, hi] on t = e2: W = I,
 * G = I, c0 = 1, rho = 1, s minimises (s - (-2))^2/2... the closed form is
 * the projection of -<v,t> = -2 on [lo, hi] scaled by rho = 1. */
typedef struct prob3 {
    gsl_matrix *M, *T;
    gsl_vector *dgap, *v, *u, *r;
    fl_friction_set C;
    fl_moreau_problem p;
} prob3;

static void prob3_init(prob3 *P)
{
    memset(P, 0, sizeof *P);
    P->M = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(P->M);
    P->T = gsl_matrix_calloc(3, 1);
    gsl_matrix_set(P->T, 1, 0, 1.0);
    P->dgap = gsl_vector_calloc(3);
    gsl_vector_set(P->dgap, 0, 2.0);
    P->v = gsl_vector_calloc(3);
    gsl_vector_set(P->v, 0, -1.0);
    gsl_vector_set(P->v, 1, 2.0);
    P->u = gsl_vector_alloc(3);
    P->r = gsl_vector_alloc(3);
    P->C.kind = FL_SET_INTERVAL;
    P->C.dim = 1;
    P->C.lo = -0.5;
    P->C.hi = 0.25;
    P->p.d = 3;
    P->p.M = P->M;
    P->p.gap = 0.0;
    P->p.dgap = P->dgap;
    P->p.friction = FL_MOREAU_SET;
    P->p.tangent = P->T;
    P->p.C = &P->C;
    P->p.v = P->v;
}

static void prob3_free(prob3 *P)
{
    gsl_matrix_free(P->M);
    gsl_matrix_free(P->T);
    gsl_vector_free(P->dgap);
    gsl_vector_free(P->v);
    gsl_vector_free(P->u);
    gsl_vector_free(P->r);
}

Test(cov_moreau, interval_set_closed_form_then_h3_violations, .init = setup, .fini = teardown)
{
    prob3 P;
    prob3_init(&P);
    fl_status s[2];
    fl_error err[2];
    fl_moreau_result res[2];
    fl_moreau_options o = fl_moreau_options_default();
    /* M = I, n = e1, t = e2: G = I, h = (-1, 2), c0 = 1 -> rho = 1; s
     * minimises s^2/2 + 2 s over s in rho [lo, hi] = [-0.5, 0.25]: s = -0.5.
     * u = v + r = (0, 1.5, 0), r = (1, -0.5, 0). */
    both(&P.p, &o, P.u, P.r, s, err, res);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(s[k], FL_OK, "impl %d: %s", k, err[k].message);
        cr_assert_eq(res[k].branch, FL_MOREAU_COLLISION);
        cr_assert(fabs(res[k].rho - 1) <= 1e-12 && fabs(res[k].s[0] + 0.5) <= 1e-12,
                  "impl %d rho %g s %g", k, res[k].rho, res[k].s[0]);
    }
    /* unbounded interval: 000 (H3) requires D_1 bounded */
    P.C.lo = -INFINITY;
    EXPECT(FL_EINVAL, "unbounded friction interval");
    P.C.lo = -0.5;
    P.C.hi = NAN;
    EXPECT(FL_EINVAL, "unbounded friction interval");
    /* 0 not in the interval */
    P.C.lo = 0.1;
    P.C.hi = 0.3;
    EXPECT(FL_EINVAL, "does not contain 0");
    P.C.lo = -0.3;
    P.C.hi = -0.1;
    EXPECT(FL_EINVAL, "does not contain 0");
    P.C.lo = -0.5;
    P.C.hi = 0.25;
    /* polygon sets: fewer than 3 vertices, a non-finite vertex */
    double vert[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    fl_friction_set poly = {.kind = FL_SET_POLYGON, .dim = 2, .nvert = 2, .vert = vert};
    gsl_matrix *T2 = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(T2, 1, 0, 1.0);
    gsl_matrix_set(T2, 2, 1, 1.0);
    P.p.C = &poly;
    P.p.tangent = T2;
    EXPECT(FL_EUNSUPPORTED, "2 < 3 vertices");
    poly.vert = NULL;
    poly.nvert = 4;
    EXPECT(FL_EUNSUPPORTED, "vertices");
    poly.vert = vert;
    vert[5] = INFINITY;
    EXPECT(FL_ENONFINITE, "polygon vertex 2");
    vert[5] = 1;
    vert[2] = NAN;
    EXPECT(FL_ENONFINITE, "polygon vertex 1");
    vert[2] = 1;
    /* the repaired square [-1, 1]^2 (rho = 1, s = projection of -(2, 0) on
     * the square = (-1, 0)) */
    both(&P.p, &o, P.u, P.r, s, err, res);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(s[k], FL_OK, "impl %d: %s", k, err[k].message);
        cr_assert(fabs(res[k].rho - 1) <= 1e-12 && fabs(res[k].s[0] + 1) <= 1e-12 &&
                  fabs(res[k].s[1]) <= 1e-12, "impl %d: rho %g s (%g, %g)", k, res[k].rho,
                  res[k].s[0], res[k].s[1]);
    }
    gsl_matrix_free(T2);
    prob3_free(&P);
}

Test(cov_moreau, problem_and_output_refusals_alike, .init = setup, .fini = teardown)
{
    prob3 P;
    prob3_init(&P);
    fl_status s[2];
    fl_error err[2];
    fl_moreau_options o = fl_moreau_options_default();
    /* dgap of the wrong length */
    gsl_vector *d2 = gsl_vector_calloc(2);
    gsl_vector_set(d2, 0, 1);
    P.p.dgap = d2;
    EXPECT(FL_EDIM, "dgap (2)");
    P.p.dgap = P.dgap;
    P.p.v = d2;
    EXPECT(FL_EDIM, "v (2)");
    P.p.v = P.v;
    /* u, r: missing or of the wrong length */
    both(&P.p, &o, NULL, P.r, s, err, NULL);
    SAME(FL_EDIM, "u and r must have length d = 3");
    both(&P.p, &o, P.u, NULL, s, err, NULL);
    SAME(FL_EDIM, "u and r must have length d = 3");
    both(&P.p, &o, d2, P.r, s, err, NULL);
    SAME(FL_EDIM, "u and r must have length d = 3");
    both(&P.p, &o, P.u, d2, s, err, NULL);
    SAME(FL_EDIM, "u and r must have length d = 3");
    /* M not positive definite: both refuse it as not SPD */
    gsl_matrix_set(P.M, 0, 1, 2.0);
    gsl_matrix_set(P.M, 1, 0, 2.0);
    both(&P.p, &o, P.u, P.r, s, err, NULL);
    cr_assert_eq(s[0], FL_ENOTSPD, "%s", err[0].message);
    cr_assert_eq(s[1], FL_ENOTSPD, "%s", err[1].message);
    gsl_matrix_set(P.M, 0, 1, 0.0);
    gsl_matrix_set(P.M, 1, 0, 0.0);
    /* the sparse twin's own fields */
    fl_moreau_problem q = P.p;
    q.M = NULL;
    q.Msp = NULL;
    q.ctx = &ctx;
    cr_assert_eq(fl_moreau_law_sparse(&q, NULL, P.u, P.r, NULL, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "sparse M"), "%s", err[1].message);
    cholmod_sparse *Mfull = NULL, *Msym = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, P.M, 0, 0.0, &Mfull, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P.M, 1, 0.0, &Msym, NULL), FL_OK);
    q.Msp = Msym;
    q.ctx = NULL;
    cr_assert_eq(fl_moreau_law_sparse(&q, NULL, P.u, P.r, NULL, &err[1]), FL_EINVAL);
    q.ctx = &ctx;
    q.Msp = Mfull;   /* unsymmetric storage */
    cr_assert_eq(fl_moreau_law_sparse(&q, NULL, P.u, P.r, NULL, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "symmetric 3x3"), "%s", err[1].message);
    q.Msp = Msym;
    q.d = 2;   /* 3x3 M for d = 2: refused before any other field */
    gsl_vector *u2 = gsl_vector_alloc(2);
    q.v = d2;
    q.dgap = d2;
    q.friction = FL_MOREAU_FRICTIONLESS;
    cr_assert_eq(fl_moreau_law_sparse(&q, NULL, u2, u2, NULL, &err[1]), FL_EDIM);
    fl_moreau_problem pd = q;
    pd.M = P.M;
    cr_assert_eq(fl_moreau_law(&pd, NULL, u2, u2, NULL, &err[0]), FL_EDIM);
    cr_assert(strstr(err[0].message, "M is 3x3"), "%s", err[0].message);
    cholmod_free_sparse(&Mfull, &ctx.cm);
    cholmod_free_sparse(&Msym, &ctx.cm);
    gsl_vector_free(u2);
    gsl_vector_free(d2);
    prob3_free(&P);
}

Test(cov_moreau, ball_solver_without_strictly_feasible_point)
{
    /* [PM §6] with c0 = -<v,n> = 0 (a tangential velocity): the feasible
     * set of (rho, s) is {rho >= 0, |s| <= mu rho, a rho + b.s = 0}.
     * G = [[1, 1, 0], [1, 2, 0], [0, 0, 1]]: a = 1, b = (1, 0), and
     * Q = G_ss - b b^T / a = I.
     * mu = 1 (gamma = a - mu |b| = 0): rho = -s_1 and |s| <= -s_1, so
     * s_2 = 0: the ray x = kappa (1, -1, 0), kappa >= 0.  With h = (0, 1, 0)
     * the objective along it is kappa^2 (1 - 2 + 2)/2 - kappa, minimal at
     * kappa = 1: x = (1, -1, 0).
     * mu = 1/2 (gamma = 1/2 > 0): only x = 0 is feasible. */
    const double G[9] = {1, 1, 0, 1, 2, 0, 0, 0, 1}, h[3] = {0, 1, 0};
    fl_moreau_options o = fl_moreau_options_default();
    fl_moreau_result res;
    double x[3];
    fl_moreau_local lp = {.k = 2, .G = G, .h = h, .ball = 1, .mu = 1.0};
    cr_assert_eq(fl_moreau_local_solve(&lp, &o, x, &res, NULL), FL_OK);
    cr_assert(fabs(x[0] - 1) <= 1e-12 && fabs(x[1] + 1) <= 1e-12 && fabs(x[2]) <= 1e-12,
              "x = (%g, %g, %g)", x[0], x[1], x[2]);
    cr_assert(fabs(res.gamma) <= 1e-15, "gamma %g", res.gamma);
    lp.mu = 0.5;
    cr_assert_eq(fl_moreau_local_solve(&lp, &o, x, &res, NULL), FL_OK);
    cr_assert(x[0] == 0 && x[1] == 0 && x[2] == 0, "x = (%g, %g, %g)", x[0], x[1], x[2]);
    cr_assert(fabs(res.gamma - 0.5) <= 1e-15);
    /* mu = 2 (gamma = -1 < 0): {rho = -s_1, |s| <= -2 s_1} is a cone with
     * interior, a strictly feasible point exists; the objective on
     * rho = -s_1 is (s_1^2 + s_2^2)/2 + s_1, minimal at s = (-1, 0), inside
     * (|s| = 1 < 2): x = (1, -1, 0) again, by the bisection branch. */
    lp.mu = 2.0;
    cr_assert_eq(fl_moreau_local_solve(&lp, &o, x, &res, NULL), FL_OK);
    cr_assert(fabs(x[0] - 1) <= 1e-9 && fabs(x[1] + 1) <= 1e-9 && fabs(x[2]) <= 1e-9,
              "x = (%g, %g, %g)", x[0], x[1], x[2]);
    cr_assert(res.residual <= 1e-9, "%g", res.residual);
    /* the data refused: a = 0, and <v, n> > 0 (c0 < 0) */
    const double G0[9] = {0, 0, 0, 0, 1, 0, 0, 0, 1}, hpos[3] = {1, 0, 0};
    fl_error err;
    lp.G = G0;
    cr_assert_eq(fl_moreau_local_solve(&lp, &o, x, &res, &err), FL_ENOTSPD);
    cr_assert(strstr(err.message, "is not positive"));
    lp.G = G;
    lp.h = hpos;
    cr_assert_eq(fl_moreau_local_solve(&lp, &o, x, &res, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "<v, n> > 0"));
}

/* ---- systems and the time step ------------------------------------------ */

typedef struct sysdata {
    int fail_mass, fail_gap, fail_force, fail_friction, zero_gradient, bad_mass;
} sysdata;

/* d = 2, M = I (or the indefinite [[1, 2], [2, 1]]), gap phi(q) = q_2,
 * dphi = e2; force (0, -1); friction mu = 0.3. */
static fl_status mass(const gsl_vector *q, gsl_matrix *M, void *data)
{
    (void)q;
    const sysdata *D = data;
    if (D->fail_mass) return FL_EINVAL;
    gsl_matrix_set_identity(M);
    if (D->bad_mass) {
        gsl_matrix_set(M, 0, 1, 2.0);
        gsl_matrix_set(M, 1, 0, 2.0);
    }
    return FL_OK;
}

static fl_status gap(const gsl_vector *q, double *phi, gsl_vector *dphi, void *data)
{
    const sysdata *D = data;
    if (D->fail_gap) return FL_EIO;
    *phi = gsl_vector_get(q, 1);
    gsl_vector_set_zero(dphi);
    if (!D->zero_gradient) gsl_vector_set(dphi, 1, 1.0);
    return FL_OK;
}

static fl_status force(double t, const gsl_vector *q, const gsl_vector *u, gsl_vector *f,
                       void *data)
{
    (void)t;
    (void)q;
    (void)u;
    const sysdata *D = data;
    if (D->fail_force) return FL_ENOCONV;
    gsl_vector_set(f, 0, 0.0);
    gsl_vector_set(f, 1, -1.0);
    return FL_OK;
}

static fl_status friction_at(const gsl_vector *q, const gsl_vector *n, double *mu, gsl_matrix *T,
                             const fl_friction_set **C, void *data)
{
    (void)q;
    (void)n;
    (void)T;
    (void)C;
    const sysdata *D = data;
    if (D->fail_friction) return FL_EPARSE;
    *mu = 0.3;
    return FL_OK;
}

Test(cov_moreau, system_and_step_refusals)
{
    sysdata D = {0};
    fl_moreau_system sys = {.d = 2, .mass = mass, .gap = gap, .force = force,
                            .friction = FL_MOREAU_ISOTROPIC, .friction_at = friction_at,
                            .data = &D};
    gsl_vector *q = gsl_vector_calloc(2), *u = gsl_vector_calloc(2), *r = gsl_vector_alloc(2);
    gsl_vector *q3 = gsl_vector_calloc(3), *v = gsl_vector_calloc(2);
    fl_error err;
    double g;
    /* gamma at q = 0 (active): a = <n, M^-1 n> = 1, ball of radius 0.3 in
     * n^perp: gamma = a - mu |P M^-1 n| = 1 (M = I: M^-1 n = n). */
    cr_assert_eq(fl_moreau_system_gamma(&sys, q, &g, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(g - 1) <= 1e-15);
    /* the system's own fields */
    fl_moreau_system bad = sys;
    bad.mass = NULL;
    cr_assert_eq(fl_moreau_system_gamma(&bad, q, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "mass and gap callbacks"));
    bad = sys;
    bad.gap = NULL;
    cr_assert_eq(fl_moreau_system_gamma(&bad, q, &g, &err), FL_EINVAL);
    bad = sys;
    bad.d = 0;
    cr_assert_eq(fl_moreau_system_gamma(&bad, q, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_moreau_system_gamma(NULL, q, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_moreau_system_gamma(&sys, q3, &g, &err), FL_EDIM);
    cr_assert(strstr(err.message, "q must have length d"));
    cr_assert_eq(fl_moreau_system_gamma(&sys, NULL, &g, &err), FL_EDIM);
    bad = sys;
    bad.friction = FL_MOREAU_SET;
    bad.k = 3;
    cr_assert_eq(fl_moreau_system_gamma(&bad, q, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "k in {1,2}"));
    bad.k = 0;
    cr_assert_eq(fl_moreau_system_gamma(&bad, q, &g, &err), FL_EINVAL);
    bad.k = 1;
    bad.friction_at = NULL;
    cr_assert_eq(fl_moreau_system_gamma(&bad, q, &g, &err), FL_EINVAL);
    /* callbacks failing: their status is passed on */
    D.fail_gap = 1;
    cr_assert_eq(fl_moreau_system_gamma(&sys, q, &g, &err), FL_EIO);
    cr_assert(strstr(err.message, "system callback failed"));
    D.fail_gap = 0;
    D.fail_mass = 1;
    cr_assert_eq(fl_moreau_system_law(&sys, q, v, NULL, u, r, NULL, &err), FL_EINVAL);
    D.fail_mass = 0;
    D.fail_friction = 1;
    cr_assert_eq(fl_moreau_system_project(&sys, q, v, NULL, u, NULL, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "friction callback failed"));
    D.fail_friction = 0;
    /* a vanishing gradient (000 (H2)) */
    D.zero_gradient = 1;
    cr_assert_eq(fl_moreau_system_gamma(&sys, q, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "vanishes"), "%s", err.message);
    D.zero_gradient = 0;
    /* the step: arguments */
    cr_assert_eq(fl_moreau_step(NULL, NULL, 0, 0.1, q, u, r, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, NULL, u, r, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, NULL, r, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q3, u, r, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, q3, r, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, u, q3, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "must have length d"));
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0, q, u, r, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "step h"));
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, NAN, q, u, r, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, INFINITY, q, u, r, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_moreau_step(&sys, NULL, NAN, 0.1, q, u, r, NULL, &err), FL_EINVAL);
    /* the step: callbacks and the mass matrix */
    D.fail_gap = 1;
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, u, r, NULL, &err), FL_EIO);
    D.fail_gap = 0;
    D.fail_force = 1;
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, u, r, NULL, &err), FL_ENOCONV);
    cr_assert(strstr(err.message, "force callback failed"));
    D.fail_force = 0;
    D.bad_mass = 1;
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, u, r, NULL, &err), FL_ENOTSPD);
    D.bad_mass = 0;
    D.zero_gradient = 1;   /* the law refuses at q_{i+1} */
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, u, r, NULL, &err), FL_EINVAL);
    D.zero_gradient = 0;
    /* q is unchanged by the refused steps; a valid step from rest on the
     * plane: q = 0, u = 0, h = 0.1, f = (0, -1): v = (0, -0.1), inelastic
     * impact: u = 0, r = M u - M u_old - h f = (0, 0.1). */
    cr_assert(q->data[0] == 0 && q->data[1] == 0);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 0.1, q, u, r, NULL, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(u->data[0]) <= 1e-15 && fabs(u->data[1]) <= 1e-15);
    cr_assert(fabs(r->data[0]) <= 1e-15 && fabs(r->data[1] - 0.1) <= 1e-15);
    gsl_vector_free(q);
    gsl_vector_free(u);
    gsl_vector_free(r);
    gsl_vector_free(q3);
    gsl_vector_free(v);
}

Test(cov_moreau, non_finite_or_unreadable_sparse_M_refused_alike, .init = setup, .fini = teardown)
{
    prob3 P;
    prob3_init(&P);
    fl_status s[2];
    fl_error err[2];
    fl_moreau_options o = fl_moreau_options_default();
    cholmod_sparse *Msym = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, P.M, 1, 0.0, &Msym, NULL), FL_OK);
    /* M(2,2) = NaN in both forms (M = I: stored entry 2 of the sparse one) */
    gsl_matrix_set(P.M, 2, 2, NAN);
    ((double *)Msym->x)[2] = NAN;
    fl_moreau_problem qn = P.p;
    qn.M = NULL;
    qn.Msp = Msym;
    qn.ctx = &ctx;
    s[0] = fl_moreau_law(&P.p, &o, P.u, P.r, NULL, &err[0]);
    s[1] = fl_moreau_law_sparse(&qn, &o, P.u, P.r, NULL, &err[1]);
    SAME(FL_ENONFINITE, "M(2,2) is not finite");
    gsl_matrix_set(P.M, 2, 2, 1);
    ((double *)Msym->x)[2] = 1;
    /* a pattern-only sparse M */
    cholmod_sparse *pat = cholmod_copy_sparse(Msym, &ctx.cm);
    cr_assert(pat && cholmod_sparse_xtype(CHOLMOD_PATTERN, pat, &ctx.cm));
    fl_moreau_problem q = P.p;
    q.M = NULL;
    q.ctx = &ctx;
    q.Msp = pat;
    cr_assert_eq(fl_moreau_law_sparse(&q, &o, P.u, P.r, NULL, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "real sparse matrix with int indices"), "%s", err[1].message);
    /* the same header claiming long indices, or a wrong column count: both
     * refused before any entry is read */
    cholmod_sparse hdr = *Msym;
    hdr.itype = CHOLMOD_LONG;
    q.Msp = &hdr;
    cr_assert_eq(fl_moreau_law_sparse(&q, &o, P.u, P.r, NULL, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "real sparse matrix with int indices"), "%s", err[1].message);
    hdr = *Msym;
    hdr.ncol = 4;
    cr_assert_eq(fl_moreau_law_sparse(&q, &o, P.u, P.r, NULL, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "sparse M must be symmetric 3x3"), "%s", err[1].message);
    /* the same M = I in unpacked storage (column j holds nz[j] entries from
     * p[j]): read alike, and a NaN in it refused alike */
    cholmod_sparse *U = cholmod_allocate_sparse(3, 3, 3, 1, 0, 1, CHOLMOD_REAL, &ctx.cm);
    cr_assert_not_null(U);
    int *Up = U->p, *Ui = U->i, *Unz = U->nz;
    double *Ux = U->x;
    for (int j = 0; j < 3; j++) {
        Up[j] = j;
        Unz[j] = 1;
        Ui[j] = j;
        Ux[j] = 1.0;
    }
    Up[3] = 3;
    q.Msp = U;
    fl_moreau_result res;
    cr_assert_eq(fl_moreau_law_sparse(&q, &o, P.u, P.r, &res, &err[1]), FL_OK, "%s", err[1].message);
    cr_assert(fabs(res.rho - 1) <= 1e-12 && fabs(res.s[0] + 0.5) <= 1e-12);
    Ux[1] = INFINITY;
    cr_assert_eq(fl_moreau_law_sparse(&q, &o, P.u, P.r, NULL, &err[1]), FL_ENONFINITE);
    cr_assert(strstr(err[1].message, "M(1,1) is not finite"), "%s", err[1].message);
    cholmod_free_sparse(&U, &ctx.cm);
    cholmod_free_sparse(&pat, &ctx.cm);
    cholmod_free_sparse(&Msym, &ctx.cm);
    prob3_free(&P);
}

Test(cov_moreau, degenerate_sets_projection_and_gamma, .init = setup, .fini = teardown)
{
    prob3 P;
    prob3_init(&P);
    fl_status s[2];
    fl_error err[2];
    fl_moreau_result res[2];
    fl_moreau_options o = fl_moreau_options_default();
    /* a friction set that is the disc of radius 0 (dimension 1): the
     * frictionless closed form rho = c0 / <n, W n> = 1, s = 0, u = (0, 2, 0) */
    fl_friction_set disc0 = {.kind = FL_SET_DISC, .dim = 1, .mu = 0.0};
    P.p.C = &disc0;
    both(&P.p, &o, P.u, P.r, s, err, res);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(s[k], FL_OK, "impl %d: %s", k, err[k].message);
        cr_assert(fabs(res[k].rho - 1) <= 1e-14 && res[k].s[0] == 0);
    }
    cr_assert(fabs(P.u->data[0]) <= 1e-14 && fabs(P.u->data[1] - 2) <= 1e-14);
    P.p.C = &P.C;
    /* the projection at v = 0 (<v, n> = 0): c0 = 0, rho = 0, u = 0, r = 0 */
    gsl_vector_set_zero(P.v);
    cr_assert_eq(fl_moreau_project(&P.p, &o, P.u, P.r, &res[0], &err[0]), FL_OK, "%s", err[0].message);
    for (int i = 0; i < 3; i++) cr_assert(P.u->data[i] == 0 && P.r->data[i] == 0);
    cr_assert_eq(res[0].residual, 0.0);
    /* its refusals: outputs, <v, n> > 0, M not SPD */
    gsl_vector *d2 = gsl_vector_calloc(2);
    cr_assert_eq(fl_moreau_project(&P.p, NULL, NULL, P.r, NULL, &err[0]), FL_EDIM);
    cr_assert_eq(fl_moreau_project(&P.p, NULL, P.u, d2, NULL, &err[0]), FL_EDIM);
    gsl_vector_set(P.v, 0, 1.0);
    cr_assert_eq(fl_moreau_project(&P.p, NULL, P.u, P.r, NULL, &err[0]), FL_EINVAL);
    cr_assert(strstr(err[0].message, "<v, n> > 0"), "%s", err[0].message);
    gsl_matrix_set(P.M, 0, 0, -1);
    cr_assert_eq(fl_moreau_project(&P.p, NULL, P.u, P.r, NULL, &err[0]), FL_ENOTSPD);
    double g;
    cr_assert_eq(fl_moreau_gamma(&P.p, &g, &err[0]), FL_ENOTSPD);
    gsl_matrix_set(P.M, 0, 0, 1);
    /* gamma = a + min_{s in C} b.s = 1 (M = I: b = 0) */
    cr_assert_eq(fl_moreau_gamma(&P.p, &g, &err[0]), FL_OK);
    cr_assert(fabs(g - 1) <= 1e-15);
    gsl_vector_free(d2);
    prob3_free(&P);
}

static fl_status fr_fail(const gsl_vector *q, const gsl_vector *n, double *mu, gsl_matrix *T,
                         const fl_friction_set **C, void *data)
{
    (void)q;
    (void)n;
    (void)mu;
    (void)T;
    (void)C;
    (void)data;
    return FL_EIO;   /* must not be called on a frictionless system */
}

Test(cov_moreau, friction_callback_only_where_needed)
{
    /* d = 2, M = I, gap q_2, at q = 0: gamma = 1 for a frictionless system
     * (the callback is not consulted) and for a constant-mu isotropic one
     * without callback (ball in n^perp: M^-1 n = n has no tangential part). */
    sysdata D = {0};
    fl_moreau_system sys = {.d = 2, .mass = mass, .gap = gap, .friction = FL_MOREAU_FRICTIONLESS,
                            .friction_at = fr_fail, .data = &D};
    gsl_vector *q = gsl_vector_calloc(2);
    double g;
    fl_error err;
    cr_assert_eq(fl_moreau_system_gamma(&sys, q, &g, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(g - 1) <= 1e-15);
    sys.friction = FL_MOREAU_ISOTROPIC;
    sys.friction_at = NULL;
    sys.mu = 0.4;
    cr_assert_eq(fl_moreau_system_gamma(&sys, q, &g, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(g - 1) <= 1e-15);
    gsl_vector_free(q);
}
