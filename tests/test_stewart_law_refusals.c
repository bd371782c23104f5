/* test_stewart_law_refusals.c — Stewart's formulation P5 (001 §6.2) by the
 * Stewart–Trinkle LCP (reference/stewart_law.c,
 * optimized/stewart_law_sparse.c): a one-contact impact stepped by both
 * twins against its closed form, the same bad problems and results fed to
 * both (they share fl_stewart_problem_check: same status and message), the
 * sparse twin's own fields, and the arguments of the integrator and of the
 * Painlevé bar.
 *
 * Closed form: n = 2, M = I, one plane contact with normal row e2 and
 * tangent row e1 (H = [0 1; 1 0]), gap 0, mu = 1/2, h = 0.1, f = 0,
 * v^- = (1, -1).  The normal impulse stops the approach: p = 1
 * (u_n^+ = 0); the contact slides (u_t^- = 1 > mu p / 1), so
 * P_t = -mu p = -1/2 and v^+ = v^- + H^T P~ = (1/2, 0), u_t^+ = 1/2 > 0
 * (001 §6.2: P5 is Coulomb's law on real-world impulses). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/stewart_law.h"
#include "models/fl_model_painleve.h"
#include "optimized/stewart_law_sparse.h"
#include "twin_check.h"
#include "drivers/fl_types.h"


typedef struct st_prob {
    gsl_matrix *M, *H;
    cholmod_sparse *Ms, *Hs;
    gsl_vector *v, *f, *gap;
    double mu[1];
    fl_stewart_problem p;
} st_prob;

static void prob_init(st_prob *P)
{
    memset(P, 0, sizeof *P);
    P->M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(P->M);
    P->H = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(P->H, 0, 1, 1.0);
    gsl_matrix_set(P->H, 1, 0, 1.0);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P->M, 1, 0.0, &P->Ms, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P->H, 0, 0.0, &P->Hs, NULL), FL_OK);
    P->v = gsl_vector_alloc(2);
    gsl_vector_set(P->v, 0, 1.0);
    gsl_vector_set(P->v, 1, -1.0);
    P->f = gsl_vector_calloc(2);
    P->gap = gsl_vector_calloc(1);
    P->mu[0] = 0.5;
    P->p = (fl_stewart_problem){.n = 2, .nc = 1, .dim = 2, .M = P->M, .H = P->H, .Ms = P->Ms,
                                .Hs = P->Hs, .sctx = &ctx, .v = P->v, .f = P->f, .gap = P->gap,
                                .mu = P->mu, .h = 0.1};
}

static void prob_free(st_prob *P)
{
    gsl_matrix_free(P->M);
    gsl_matrix_free(P->H);
    cholmod_free_sparse(&P->Ms, &ctx.cm);
    cholmod_free_sparse(&P->Hs, &ctx.cm);
    gsl_vector_free(P->v);
    gsl_vector_free(P->f);
    gsl_vector_free(P->gap);
}

static void both(st_prob *P, const fl_stewart_options *o, fl_stewart_result *res, fl_status s[2],
                 fl_error err[2])
{
    s[0] = fl_stewart_step(&P->p, o, res, &err[0]);
    s[1] = fl_stewart_step_sparse(&P->p, o, res, &err[1]);
}

#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { both(&P, &o, res, s, err); SAME(want, needle); } while (0)

Test(cov_stewart, impact_closed_form_both_twins, .init = setup, .fini = teardown)
{
    st_prob P;
    prob_init(&P);
    fl_stewart_options o = fl_stewart_options_default();
    for (int k = 0; k < 2; k++) {
        fl_stewart_result *res = fl_stewart_result_alloc(2, 1, 2, &o);
        fl_error err;
        fl_status s = fl_stewart_types[k].step(&P.p, &o, res, &err);
        cr_assert_eq(s, FL_OK, "impl %d: %s", k, err.message);
        cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 0.5) <= 1e-12 &&
                  fabs(gsl_vector_get(res->v_plus, 1)) <= 1e-12, "impl %d v+ (%g, %g)", k,
                  gsl_vector_get(res->v_plus, 0), gsl_vector_get(res->v_plus, 1));
        cr_assert(fabs(gsl_vector_get(res->impulse, 0) - 1) <= 1e-12 &&
                  fabs(gsl_vector_get(res->impulse, 1) + 0.5) <= 1e-12);
        cr_assert(res->coulomb <= 1e-12);
        fl_stewart_result_free(res);
    }
    prob_free(&P);
}

Test(cov_stewart, both_twins_refuse_the_same_problems, .init = setup, .fini = teardown)
{
    st_prob P;
    prob_init(&P);
    fl_stewart_options o = fl_stewart_options_default();
    fl_stewart_result *res = fl_stewart_result_alloc(2, 1, 2, &o);
    fl_status s[2];
    fl_error err[2];
    gsl_vector *v3 = gsl_vector_calloc(3);
    gsl_matrix *M3 = gsl_matrix_calloc(3, 3);
    /* the step */
    P.p.h = 0;
    EXPECT(FL_EINVAL, "time step h = 0");
    P.p.h = INFINITY;
    EXPECT(FL_EINVAL, "time step h = inf");
    P.p.h = 0.1;
    /* options */
    o.coulomb_tol = 0;
    EXPECT(FL_EINVAL, "Coulomb tolerance");
    o = fl_stewart_options_default();
    /* sizes */
    P.p.n = 0;
    EXPECT(FL_EDIM, "no degree of freedom");
    P.p.n = 2;
    P.p.dim = 4;
    EXPECT(FL_EINVAL, "contact dimension 4");
    P.p.dim = 2;
    /* the mass matrix */
    P.p.M = M3;
    EXPECT(FL_EDIM, "mass matrix is 3x3");
    P.p.M = P.M;
    gsl_matrix_set(P.M, 1, 1, NAN);
    EXPECT(FL_ENONFINITE, "mass matrix(1,1)");
    gsl_matrix_set(P.M, 1, 1, 1);
    P.p.M = NULL;
    P.p.Ms = NULL;
    EXPECT(FL_EINVAL, "no mass matrix given");
    P.p.M = P.M;
    P.p.Ms = P.Ms;
    /* velocity, force */
    P.p.v = NULL;
    EXPECT(FL_EDIM, "velocity v^- must have length 2");
    P.p.v = v3;
    EXPECT(FL_EDIM, "velocity v^- must have length 2");
    P.p.v = P.v;
    gsl_vector_set(P.v, 1, NAN);
    EXPECT(FL_ENONFINITE, "velocity v^-[1]");
    gsl_vector_set(P.v, 1, -1);
    P.p.f = v3;
    EXPECT(FL_EDIM, "force f has length 3");
    P.p.f = P.f;
    gsl_vector_set(P.f, 0, INFINITY);
    EXPECT(FL_ENONFINITE, "force f[0]");
    gsl_vector_set(P.f, 0, 0);
    /* contact Jacobian, gaps, friction */
    P.p.H = M3;
    EXPECT(FL_EDIM, "contact Jacobian is 3x3");
    P.p.H = P.H;
    gsl_matrix_set(P.H, 1, 1, NAN);
    EXPECT(FL_ENONFINITE, "contact Jacobian H(1,1)");
    gsl_matrix_set(P.H, 1, 1, 0);
    P.p.H = NULL;
    P.p.Hs = NULL;
    EXPECT(FL_EINVAL, "no contact Jacobian H given");
    P.p.H = P.H;
    P.p.Hs = P.Hs;
    P.p.gap = v3;
    EXPECT(FL_EDIM, "gap vector has length 3");
    P.p.gap = P.gap;
    gsl_vector_set(P.gap, 0, NAN);
    EXPECT(FL_ENONFINITE, "gap[0]");
    gsl_vector_set(P.gap, 0, 0);
    P.p.mu = NULL;
    EXPECT(FL_EINVAL, "friction coefficients missing");
    P.p.mu = P.mu;
    P.mu[0] = NAN;
    EXPECT(FL_EINVAL, "mu[0] = nan");
    P.mu[0] = INFINITY;
    EXPECT(FL_EINVAL, "mu[0] = inf");
    P.mu[0] = 0.5;
    /* results of another size */
    fl_stewart_result *r3 = fl_stewart_result_alloc(3, 1, 2, &o), *r2 = fl_stewart_result_alloc(2, 2, 2, &o);
    fl_stewart_result *rd = fl_stewart_result_alloc(2, 1, 3, &o);
    both(&P, &o, NULL, s, err);
    SAME(FL_EDIM, "another problem size");
    both(&P, &o, r3, s, err);
    SAME(FL_EDIM, "another problem size");
    both(&P, &o, r2, s, err);
    SAME(FL_EDIM, "another problem size");
    both(&P, &o, rd, s, err);
    SAME(FL_EDIM, "another problem size");
    /* 3D with k = 2 directions (a 2-gon is no cone) */
    P.p.dim = 3;
    o.k = 2;
    both(&P, &o, rd, s, err);
    SAME(FL_EINVAL, "2 friction directions in 3D");
    P.p.dim = 2;
    o = fl_stewart_options_default();
    /* each twin's own representation */
    P.p.M = NULL;
    cr_assert_eq(fl_stewart_step(&P.p, &o, res, &err[0]), FL_EINVAL);
    cr_assert(strstr(err[0].message, "the reference needs the dense M and H"));
    P.p.M = P.M;
    P.p.H = NULL;
    cr_assert_eq(fl_stewart_step(&P.p, &o, res, &err[0]), FL_EINVAL);
    P.p.H = P.H;
    cholmod_sparse *full = NULL, *B3 = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, P.M, 0, 0.0, &full, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, M3, 0, 0.0, &B3, NULL), FL_OK);
    P.p.Ms = full;
    cr_assert_eq(fl_stewart_step_sparse(&P.p, &o, res, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "symmetric storage"), "%s", err[1].message);
    P.p.Ms = P.Ms;
    P.p.Hs = B3;
    cr_assert_eq(fl_stewart_step_sparse(&P.p, &o, res, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "sparse contact Jacobian must be 2x2"), "%s", err[1].message);
    P.p.Hs = P.Hs;
    /* sparse twin from the dense M and H only (Ms, Hs NULL): same answer */
    P.p.Ms = NULL;
    P.p.Hs = NULL;
    P.p.sctx = NULL;
    cr_assert_eq(fl_stewart_step_sparse(&P.p, &o, res, &err[1]), FL_OK, "%s", err[1].message);
    cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 0.5) <= 1e-12);
    cholmod_free_sparse(&full, &ctx.cm);
    cholmod_free_sparse(&B3, &ctx.cm);
    fl_stewart_result_free(res);
    fl_stewart_result_free(r3);
    fl_stewart_result_free(r2);
    fl_stewart_result_free(rd);
    gsl_vector_free(v3);
    gsl_matrix_free(M3);
    prob_free(&P);
}

Test(cov_stewart, lcp_recover_and_coulomb_check_arguments, .init = setup, .fini = teardown)
{
    st_prob P;
    prob_init(&P);
    fl_stewart_options o = fl_stewart_options_default();
    size_t N = fl_stewart_lcp_size(&P.p, &o);   /* nc (2 + 2) = 4 */
    cr_assert_eq(N, 4);
    gsl_matrix *A = gsl_matrix_alloc(N, N), *A3 = gsl_matrix_alloc(3, 3);
    gsl_vector *b = gsl_vector_alloc(N), *b3 = gsl_vector_alloc(3), *v2 = gsl_vector_alloc(2);
    gsl_vector *imp = gsl_vector_alloc(2), *z = gsl_vector_calloc(N);
    fl_error err;
    double viol;
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A3, b, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A, b3, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, NULL, b, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A, NULL, &err), FL_EDIM);
    /* the LCP solution of the closed form: p = 1, beta = (0, 1/2) on the
     * direction -t (d_1 = -t), lambda = u_t^+ = 1/2 */
    gsl_vector_set(z, 0, 1.0);
    gsl_vector_set(z, 2, 0.5);
    gsl_vector_set(z, 3, 0.5);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, imp, NULL, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(v2->data[0] - 0.5) <= 1e-15 && fabs(v2->data[1]) <= 1e-15);
    cr_assert(fabs(imp->data[0] - 1) <= 1e-15 && fabs(imp->data[1] + 0.5) <= 1e-15);
    cr_assert_eq(fl_stewart_coulomb_violation(&P.p, &o, v2, imp, &viol, &err), FL_OK);
    cr_assert(viol <= 1e-15, "%g", viol);
    /* recover: every output checked */
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, NULL, imp, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, b3, imp, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, imp, b3, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, b3, v2, imp, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, NULL, v2, imp, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, b3, NULL, &err), FL_EDIM);
    /* the Coulomb check */
    cr_assert_eq(fl_stewart_coulomb_violation(&P.p, &o, b3, imp, &viol, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_coulomb_violation(&P.p, &o, NULL, imp, &viol, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, v2, imp, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "no output for the violation"));
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, b3, imp, &viol, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, NULL, imp, &viol, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, v2, NULL, &viol, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, v2, b3, &viol, &err), FL_EDIM);
    P.p.H = NULL;
    cr_assert_eq(fl_stewart_coulomb_violation(&P.p, &o, v2, imp, &viol, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "needs the dense H"));
    P.p.H = P.H;
    /* no contact: nothing to violate */
    P.p.nc = 0;
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, NULL, NULL, &viol, &err), FL_OK);
    cr_assert_eq(viol, 0.0);
    P.p.nc = 1;
    gsl_matrix_free(A);
    gsl_matrix_free(A3);
    gsl_vector_free(b);
    gsl_vector_free(b3);
    gsl_vector_free(v2);
    gsl_vector_free(imp);
    gsl_vector_free(z);
    prob_free(&P);
}

static fl_status bad_mass(void *data, const gsl_vector *q, gsl_matrix *M, fl_error *err)
{
    (void)data;
    (void)q;
    (void)M;
    return FL_FAIL(err, FL_EIO, "mass table unreadable");
}

static fl_status ok_contacts(void *data, const gsl_vector *q, gsl_vector *gap, gsl_matrix *H,
                             fl_error *err)
{
    (void)data;
    (void)q;
    (void)gap;
    (void)H;
    (void)err;
    return FL_OK;
}

Test(cov_stewart, integrator_and_painleve_bar_arguments)
{
    double mu = 0.3;
    fl_stewart_system sys = {.n = 2, .nc = 1, .dim = 2, .mu = &mu, .mass = bad_mass,
                             .contacts = ok_contacts};
    gsl_vector *q = gsl_vector_calloc(2), *v = gsl_vector_calloc(2), *q3 = gsl_vector_calloc(3);
    fl_stewart_run run;
    fl_error err;
    fl_stewart_system bad = sys;
    cr_assert_eq(fl_stewart_integrate(NULL, NULL, 0, 0.1, 1, q, v, NULL, NULL, &run, &err), FL_EINVAL);
    bad.mass = NULL;
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0, 0.1, 1, q, v, NULL, NULL, &run, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "callbacks"));
    cr_assert_eq(run.status, FL_EINVAL);
    bad = sys;
    bad.contacts = NULL;
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0, 0.1, 1, q, v, NULL, NULL, &run, &err), FL_EINVAL);
    bad = sys;
    bad.mu = NULL;
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0, 0.1, 1, q, v, NULL, NULL, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 1, NULL, v, NULL, NULL, &run, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 1, q, NULL, NULL, NULL, &run, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 1, q3, v, NULL, NULL, &run, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 1, q, q3, NULL, NULL, &run, &err), FL_EDIM);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0, 1, q, v, NULL, NULL, &run, &err), FL_EINVAL);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, NAN, 1, q, v, NULL, NULL, &run, &err), FL_EINVAL);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, INFINITY, 0.1, 1, q, v, NULL, NULL, &run, &err),
                 FL_EINVAL);
    /* a contact dimension that is neither 2 nor 3 */
    bad = sys;
    bad.dim = 5;
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0, 0.1, 1, q, v, NULL, NULL, &run, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "contact dimension 5"), "%s", err.message);
    /* the mass callback's error is passed on */
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 1, q, v, NULL, NULL, &run, &err), FL_EIO);
    cr_assert(strstr(err.message, "mass table unreadable"));
    cr_assert_eq(run.status, FL_EIO);
    /* the Painlevé bar */
    fl_model_painleve_bar good = {.m = 1, .J = 0.1, .l = 1, .theta0 = -0.5, .mu = 0.3, .fx = 0,
                            .ftheta = 0};
    fl_stewart_system ps;
    cr_assert_eq(fl_model_painleve_stewart_system(&good, &ps, &err), FL_OK);
    cr_assert_eq(fl_model_painleve_stewart_system(NULL, &ps, &err), FL_EINVAL);
    cr_assert_eq(fl_model_painleve_stewart_system(&good, NULL, &err), FL_EINVAL);
    double *fields[7] = {&good.m, &good.J, &good.l, &good.mu, &good.fx, &good.ftheta, &good.theta0};
    const double badv[7] = {0, -1, NAN, -0.1, INFINITY, NAN, 0.0};
    for (int k = 0; k < 7; k++) {
        double keep = *fields[k];
        *fields[k] = badv[k];
        cr_assert_eq(fl_model_painleve_stewart_system(&good, &ps, &err), FL_EINVAL, "field %d", k);
        cr_assert(strstr(err.message, "Painlevé bar needs"));
        if (k < 3) {
            *fields[k] = INFINITY;
            cr_assert_eq(fl_model_painleve_stewart_system(&good, &ps, &err), FL_EINVAL, "field %d inf", k);
        }
        *fields[k] = keep;
    }
    good.theta0 = -2.0;
    cr_assert_eq(fl_model_painleve_stewart_system(&good, &ps, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "theta0"));
    gsl_vector_free(q);
    gsl_vector_free(v);
    gsl_vector_free(q3);
}

Test(cov_stewart, no_force_shapes_and_result_sizes, .init = setup, .fini = teardown)
{
    st_prob P;
    prob_init(&P);
    fl_stewart_options o = fl_stewart_options_default();
    fl_stewart_result *res = fl_stewart_result_alloc(2, 1, 2, &o);
    fl_status s[2];
    fl_error err[2];
    /* f = NULL is the zero force: the closed form of the impact */
    P.p.f = NULL;
    both(&P, &o, res, s, err);
    cr_assert_eq(s[0], FL_OK, "%s", err[0].message);
    cr_assert_eq(s[1], FL_OK, "%s", err[1].message);
    cr_assert(fabs(gsl_vector_get(res->v_plus, 0) - 0.5) <= 1e-12);
    gsl_vector *v2 = gsl_vector_alloc(2), *imp = gsl_vector_alloc(2), *z = gsl_vector_calloc(4);
    gsl_vector_set(z, 0, 1.0);
    gsl_vector_set(z, 2, 0.5);
    gsl_vector_set(z, 3, 0.5);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, imp, NULL, &err[0]), FL_OK);
    cr_assert(fabs(v2->data[0] - 0.5) <= 1e-15 && fabs(v2->data[1]) <= 1e-15);
    gsl_matrix *A = gsl_matrix_alloc(4, 4), *A43 = gsl_matrix_alloc(4, 3);
    gsl_vector *b = gsl_vector_alloc(4);
    /* A = [N^T W N, N^T W D, 0; D^T W N, D^T W D, E; mu, -E^T, 0] with
     * W = I, N = e2, D = (e1, -e1): row 0 = (1, 0, 0, 0), b = N^T v + gap/h
     * = -1 */
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A, b, &err[0]), FL_OK, "%s", err[0].message);
    cr_assert(gsl_matrix_get(A, 0, 0) == 1 && gsl_matrix_get(A, 0, 1) == 0 && gsl_vector_get(b, 0) == -1);
    cr_assert(gsl_matrix_get(A, 3, 0) == 0.5 && gsl_matrix_get(A, 3, 1) == -1);
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A43, b, &err[0]), FL_EDIM);
    P.p.f = P.f;
    /* the reference's LCP needs the dense M and H */
    P.p.M = NULL;
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A, b, &err[0]), FL_EINVAL);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, imp, NULL, &err[0]), FL_EINVAL);
    P.p.M = P.M;
    P.p.H = NULL;
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A, b, &err[0]), FL_EINVAL);
    cr_assert_eq(fl_stewart_lcp_recover(&P.p, &o, z, v2, imp, NULL, &err[0]), FL_EINVAL);
    P.p.H = P.H;
    /* no contact: the LCP is empty */
    P.p.nc = 0;
    cr_assert_eq(fl_stewart_lcp_build(&P.p, &o, A, b, &err[0]), FL_EDIM);
    cr_assert(strstr(err[0].message, "LCP is empty"));
    P.p.nc = 1;
    /* M and H with a wrong second dimension */
    gsl_matrix *M23 = gsl_matrix_calloc(2, 3);
    P.p.M = M23;
    EXPECT(FL_EDIM, "mass matrix is 2x3");
    P.p.M = P.M;
    P.p.H = M23;
    EXPECT(FL_EDIM, "contact Jacobian is 2x3");
    P.p.H = P.H;
    /* the Coulomb check of a bad problem */
    double viol;
    P.p.h = -1;
    cr_assert_eq(fl_stewart_coulomb_violation_local(&P.p, &o, v2, imp, &viol, &err[0]), FL_EINVAL);
    cr_assert_eq(fl_stewart_coulomb_violation(&P.p, &o, v2, imp, &viol, &err[0]), FL_EINVAL);
    P.p.h = 0.1;
    /* a 3D result allocated for k = 8 directions, options with k = 4 */
    fl_stewart_result *r3 = fl_stewart_result_alloc(2, 1, 3, &o);
    fl_stewart_options o4 = o;
    o4.k = 4;
    gsl_matrix *H3 = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(H3, 0, 1, 1);
    gsl_matrix_set(H3, 1, 0, 1);
    P.p.dim = 3;
    P.p.H = H3;
    P.p.Hs = NULL;
    both(&P, &o4, r3, s, err);
    SAME(FL_EDIM, "another problem size");
    fl_stewart_result_free(r3);
    gsl_matrix_free(H3);
    gsl_matrix_free(M23);
    gsl_matrix_free(A);
    gsl_matrix_free(A43);
    gsl_vector_free(b);
    gsl_vector_free(v2);
    gsl_vector_free(imp);
    gsl_vector_free(z);
    fl_stewart_result_free(res);
    P.p.H = P.H;
    prob_free(&P);
}

static fl_status unit_mass(void *data, const gsl_vector *q, gsl_matrix *M, fl_error *err)
{
    (void)data;
    (void)q;
    (void)err;
    gsl_matrix_set_identity(M);
    return FL_OK;
}

static fl_status gravity(void *data, double t, const gsl_vector *q, const gsl_vector *v,
                         gsl_vector *f, fl_error *err)
{
    (void)data;
    (void)t;
    (void)q;
    (void)v;
    (void)err;
    gsl_vector_set(f, 0, 0.0);
    gsl_vector_set(f, 1, -1.0);
    return FL_OK;
}

static fl_status no_contacts(void *data, const gsl_vector *q, gsl_vector *gap, gsl_matrix *H,
                             fl_error *err)
{
    (void)data;
    (void)q;
    (void)gap;
    (void)H;
    (void)err;
    return FL_OK;
}

static fl_status one_contact_bad_h(void *data, const gsl_vector *q, gsl_vector *gap, gsl_matrix *H,
                                   fl_error *err)
{
    (void)data;
    (void)q;
    (void)err;
    gsl_vector_set(gap, 0, 0.0);
    gsl_matrix_set_all(H, NAN);
    return FL_OK;
}

Test(cov_stewart, integrator_free_flight_and_a_failing_step)
{
    /* no contact (nc = 0, mu not needed), M = I, f = (0, -1), h = 0.1, from
     * rest: semi-implicit Euler v_k = -0.1 k (0, 1), q_k = q_{k-1} + h v_k:
     * q_2 = (0, -0.01 - 0.02) */
    fl_stewart_system sys = {.n = 2, .nc = 0, .dim = 2, .mass = unit_mass, .force = gravity,
                             .contacts = no_contacts};
    gsl_vector *q = gsl_vector_calloc(2), *v = gsl_vector_calloc(2);
    fl_error err;
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 2, q, v, NULL, NULL, NULL, &err), FL_OK,
                 "%s", err.message);
    cr_assert(fabs(v->data[1] + 0.2) <= 1e-15 && fabs(q->data[1] + 0.03) <= 1e-15 && q->data[0] == 0);
    /* without a force callback nothing moves */
    sys.force = NULL;
    fl_stewart_run run;
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0, 0.1, 3, q, v, NULL, NULL, &run, &err), FL_OK);
    cr_assert(fabs(q->data[1] + 0.03 + 3 * 0.1 * 0.2) <= 1e-14);
    cr_assert_eq(run.steps, 3);
    /* a contact callback giving a non-finite H: the step refuses, the run
     * stops with its status */
    double mu = 0.3;
    fl_stewart_system bad = {.n = 2, .nc = 1, .dim = 2, .mu = &mu, .mass = unit_mass,
                             .contacts = one_contact_bad_h};
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0, 0.1, 3, q, v, NULL, NULL, &run, &err),
                 FL_ENONFINITE);
    cr_assert(strstr(err.message, "contact Jacobian H"), "%s", err.message);
    cr_assert_eq(run.steps, 0);
    gsl_vector_free(q);
    gsl_vector_free(v);
}
