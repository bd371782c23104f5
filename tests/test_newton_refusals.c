/* test_newton_refusals.c — the paths of the semismooth Newton twins
 * (reference/newton.c, optimized/newton_sparse.c; Alart & Curnier 1991 §3,
 * proofs/newton.md) that tests/test_newton.c leaves untaken: every option
 * refused (both twins, same status, message naming the field), every
 * argument of the global solvers refused alike, the degenerate branches of
 * the Alart–Curnier function (y_T = 0 on a zero disc, 2D and 3D), the
 * Levenberg–Marquardt multiplier (N6), a rank-deficient W whose Jacobian is
 * singular (the 1e-10 retry, the Gauss–Seidel fallback, the stall), warm
 * starts, fixed rho, zero-trace blocks, and the iteration limit.
 *
 * Expected values are closed forms of Coulomb's law for one contact with
 * W = I or W = diag(1, 0), derived in the comments beside each case. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_rng.h"
#include "optimized/newton_sparse.h"
#include "reference/local_contact.h"
#include "reference/newton.h"
#include "reference/newton_internal.h"
#include "twin_check.h"
#include "drivers/fl_types.h"

/* One contact, global form: n = dim, M = diag(m), H = I, w.  Then
 * W = H M^-1 H^T = diag(1/m) and q = H M^-1 f + w = f/m + w. */
static fl_global_problem *one_contact_global(int dim, const double *mdiag, const double *f,
                                             const double *w, double mu)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc((size_t)dim, 1, dim, 1, &g, NULL), FL_OK);
    gsl_matrix_set_zero(g->M);
    gsl_matrix_set_identity(g->H);
    for (int k = 0; k < dim; k++) {
        gsl_matrix_set(g->M, k, k, mdiag[k]);
        gsl_vector_set(g->f, k, f[k]);
        gsl_vector_set(g->w, k, w[k]);
    }
    g->mu[0] = mu;
    g->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
    return g;
}


/* ---- options ------------------------------------------------------------ */

typedef struct bad_option {
    const char *field;      /* must appear in the message */
    void (*spoil)(fl_newton_options *);
} bad_option;

static void o_tol_nan(fl_newton_options *o) { o->tol = NAN; }
static void o_tol_inf(fl_newton_options *o) { o->tol = INFINITY; }
static void o_tol_zero(fl_newton_options *o) { o->tol = 0; }
static void o_maxit(fl_newton_options *o) { o->max_iterations = 0; }
static void o_sigma_hi(fl_newton_options *o) { o->ls_sigma = 0.5; }
static void o_sigma_lo(fl_newton_options *o) { o->ls_sigma = 0; }
static void o_lsmax_neg(fl_newton_options *o) { o->ls_max = -1; }
static void o_lsmax_big(fl_newton_options *o) { o->ls_max = 61; }
static void o_gs(fl_newton_options *o) { o->gs_sweeps = -1; }
static void o_fallbacks(fl_newton_options *o) { o->max_fallbacks = 0; }
static void o_rho_neg(fl_newton_options *o) { o->rho = -1; }
static void o_rho_inf(fl_newton_options *o) { o->rho = INFINITY; }
static void o_rho_nan(fl_newton_options *o) { o->rho = NAN; }
static void o_reg_neg(fl_newton_options *o) { o->reg_max = -0.1; }
static void o_reg_inf(fl_newton_options *o) { o->reg_max = INFINITY; }
static void o_start(fl_newton_options *o) { o->start = (fl_newton_start)7; }
static void o_norm_neg(fl_newton_options *o) { o->norm = (fl_residual_norm)-1; }
static void o_norm_big(fl_newton_options *o) { o->norm = (fl_residual_norm)99; }

static const bad_option bad_options[] = {
    {"tol", o_tol_nan},          {"tol", o_tol_inf},           {"tol", o_tol_zero},
    {"max_iterations", o_maxit}, {"ls_sigma", o_sigma_hi},     {"ls_sigma", o_sigma_lo},
    {"ls_max", o_lsmax_neg},     {"ls_max", o_lsmax_big},      {"gs_sweeps", o_gs},
    {"max_fallbacks", o_fallbacks}, {"rho", o_rho_neg},        {"rho", o_rho_inf},
    {"rho", o_rho_nan},          {"reg_max", o_reg_neg},       {"reg_max", o_reg_inf},
    {"start", o_start},          {"residual norm", o_norm_neg}, {"residual norm", o_norm_big},
};

Test(cov_newton, every_bad_option_refused_by_all_four_solvers, .init = setup, .fini = teardown)
{
    const double w[3] = {1, 1, 1}, q[3] = {-1, 3, 4};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    fl_global_problem *g = one_contact_global(3, w, q, (const double[3]){0, 0, 0}, 0.5);
    gsl_vector *r = gsl_vector_alloc(3);
    fl_error err;
    cr_assert_eq(fl_newton_check_options(NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "NULL options"));
    for (size_t b = 0; b < sizeof bad_options / sizeof *bad_options; b++) {
        fl_newton_options o = fl_newton_options_default();
        bad_options[b].spoil(&o);
        for (int k = 0; k < 2; k++) {
            fl_newton_result res;
            cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, &res, &err), FL_EINVAL, "%s %s",
                         bad_options[b].field, fl_newton_types[k].name);
            cr_assert(strstr(err.message, bad_options[b].field), "%s: '%s'",
                      bad_options[b].field, err.message);
            cr_assert_eq(res.status, FL_EINVAL);
            cr_assert_eq(res.stop, FL_NEWTON_STOP_ERROR);
            cr_assert_eq(fl_newton_types[k].global_solve(g, &o, NULL, r, NULL, &res, &err), FL_EINVAL, "%s %s",
                         bad_options[b].field, fl_newton_types[k].name);
            cr_assert(strstr(err.message, bad_options[b].field), "%s", err.message);
        }
    }
    /* the borderline values just inside are accepted */
    fl_newton_options o = fl_newton_options_default();
    o.ls_max = 0;
    o.gs_sweeps = 0;
    o.max_fallbacks = 1;
    o.reg_max = 0;
    o.max_iterations = 1;
    cr_assert_eq(fl_newton_check_options(&o, &err), FL_OK);
    o.ls_max = 60;
    o.norm = FL_RESIDUAL_ABSOLUTE;
    o.start = FL_NEWTON_START_WARM;
    cr_assert_eq(fl_newton_check_options(&o, &err), FL_OK);
    gsl_vector_free(r);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
}

/* ---- the Alart–Curnier function's degenerate branches ------------------- */

Test(cov_newton, alart_curnier_zero_disc_with_zero_tangent)
{
    /* (N1) with y_N = r_N - rho U_N <= 0: the disc D(mu max(0, y_N)) is the
     * point 0, so P(y_T) = 0 whatever y_T, Phi_T = r_T, D = 0.  With
     * y_T = r_T - rho U_T = 0 exactly the sign of y_T is 0 (2D) and the
     * direction y_T/|y_T| undefined (3D): the code takes P = 0 as well. */
    double D2[4], phi2[2];
    fl_local_contact_alart_curnier(2, 0.7, 2.0, (const double[2]){0, 1}, (const double[2]){1, 0.5}, phi2,
                         D2);
    /* y = (0 - 2, 1 - 1) = (-2, 0): Phi = (0 - 0, 1 - 0) */
    cr_assert(phi2[0] == 0 && phi2[1] == 1);
    for (int i = 0; i < 4; i++) cr_assert(D2[i] == 0, "D2[%d] = %g", i, D2[i]);
    double D3[9], phi3[3];
    fl_local_contact_alart_curnier(3, 0.7, 1.0, (const double[3]){0, 1, 2}, (const double[3]){1, 1, 2}, phi3,
                         D3);
    /* y = (-1, 0, 0): Phi = (0, 1, 2), D = 0 */
    cr_assert(phi3[0] == 0 && phi3[1] == 1 && phi3[2] == 2);
    for (int i = 0; i < 9; i++) cr_assert(D3[i] == 0, "D3[%d] = %g", i, D3[i]);
    /* 2D slide with y_T < 0: y = (1 - 0, -2 - 0) -> R = mu = 0.5, P = -0.5,
     * Phi_T = r_T + 0.5 = 0.5 - ... here r = (1, -2), U = 0: Phi = (0, -1.5),
     * D = [[1, 0], [-mu, 0]] */
    fl_local_contact_alart_curnier(2, 0.5, 1.0, (const double[2]){1, -2}, (const double[2]){0, 0}, phi2, D2);
    cr_assert(phi2[0] == 0 && phi2[1] == -1.5, "phi %g %g", phi2[0], phi2[1]);
    cr_assert(D2[0] == 1 && D2[1] == 0 && D2[2] == -0.5 && D2[3] == 0);
}

Test(cov_newton, merit_with_phi_output)
{
    /* psi = |Phi|^2 / 2 over two 2D contacts; Phi written out when asked.
     * Contact 0: r = (0, 1), U = (1, 0.5), rho 2 -> Phi = (0, 1) (above).
     * Contact 1: r = (1, -2), U = 0, mu 0.5, rho 1... rho is per contact,
     * take rho = (2, 2): y1 = (1, -2), R = 0.5, Phi = (0, -1.5).
     * psi = (1 + 2.25) / 2 = 1.625. */
    const double mu[2] = {0.7, 0.5}, rho[2] = {2, 2};
    const double r[4] = {0, 1, 1, -2}, U[4] = {1, 0.5, 0, 0};
    double phi[4];
    double psi = fl_newton_merit(2, 2, mu, rho, r, U, phi);
    cr_assert(fabs(psi - 1.625) <= 1e-15, "psi %g", psi);
    cr_assert(phi[0] == 0 && phi[1] == 1 && phi[2] == 0 && phi[3] == -1.5);
    cr_assert_eq(fl_newton_merit(2, 2, mu, rho, r, U, NULL), psi);
}

Test(cov_newton, levenberg_marquardt_multiplier_and_regularization)
{
    /* (N6): lambda = nu min(reg_max, e), e non-finite -> reg_max; nu x10
     * after a failure (capped at 1e6), /10 after a full step (floored at 1),
     * unchanged after a partial step. */
    fl_newton_options o = fl_newton_options_default();
    o.reg_max = 0.1;
    cr_assert(fabs(fl_newton_regularization(&o, 3.0, 0.01) - 0.03) <= 1e-17);
    cr_assert(fabs(fl_newton_regularization(&o, 3.0, 5.0) - 0.3) <= 1e-16);
    cr_assert(fabs(fl_newton_regularization(&o, 3.0, INFINITY) - 0.3) <= 1e-16);
    cr_assert(fabs(fl_newton_regularization(&o, 3.0, NAN) - 0.3) <= 1e-16);
    cr_assert_eq(fl_newton_next_nu(1.0, 0, 0.5), 10.0);
    cr_assert_eq(fl_newton_next_nu(1e6, 0, 0.5), 1e6);
    cr_assert_eq(fl_newton_next_nu(5e5, 0, 0.5), 1e6);
    cr_assert_eq(fl_newton_next_nu(100.0, 1, 1.0), 10.0);
    cr_assert_eq(fl_newton_next_nu(5.0, 1, 1.0), 1.0);
    cr_assert_eq(fl_newton_next_nu(1.0, 1, 1.0), 1.0);
    cr_assert_eq(fl_newton_next_nu(100.0, 1, 0.25), 100.0);
}

Test(cov_newton, finish_sets_status_and_stop_reason)
{
    fl_newton_options o = fl_newton_options_default();
    fl_newton_result res;
    memset(&res, 0, sizeof res);
    fl_newton_finish(&res, FL_ENOCONV, 3, NAN, 0.0, &o);
    cr_assert_eq(res.status, FL_ENOCONV);
    cr_assert_eq(res.stop, FL_NEWTON_STOP_ERROR);
    cr_assert_eq(res.iterations, 3);
    memset(&res, 0, sizeof res);
    fl_newton_finish(&res, FL_OK, 7, 1.0, 0.0, &o);   /* above tol: WMAXITER */
    cr_assert_eq(res.status, FL_WMAXITER);
    cr_assert_eq(res.stop, FL_NEWTON_STOP_MAXITER);
    res.stop = FL_NEWTON_STOP_STALLED;
    fl_newton_finish(&res, FL_OK, 7, 1.0, 0.0, &o);   /* a stall is kept */
    cr_assert_eq(res.status, FL_WMAXITER);
    cr_assert_eq(res.stop, FL_NEWTON_STOP_STALLED);
    fl_newton_finish(&res, FL_OK, 7, 1e-12, 0.0, &o);
    cr_assert_eq(res.status, FL_OK);
    cr_assert_eq(res.stop, FL_NEWTON_STOP_TOL);
    cr_assert(res.seconds >= 0);
}

/* ---- solves with closed forms ------------------------------------------- */

/* W = I (3D), q = (-1, 3, 4), mu = 1/2: slide, r = (1, -0.3, -0.4),
 * U = (0, 2.7, 3.6) (test_newton.c's closed form). */
static const double slide_r[3] = {1, -0.3, -0.4}, slide_U[3] = {0, 2.7, 3.6};

static void assert_slide(const gsl_vector *r, const gsl_vector *U, const char *what)
{
    for (int i = 0; i < 3; i++) {
        cr_assert(fabs(r->data[i] - slide_r[i]) <= 1e-11, "%s r[%d] = %.17g", what, i, r->data[i]);
        if (U)
            cr_assert(fabs(U->data[i] - slide_U[i]) <= 1e-10, "%s U[%d] = %.17g", what, i,
                      U->data[i]);
    }
}

Test(cov_newton, warm_start_at_and_off_the_solution, .init = setup, .fini = teardown)
{
    const double w[3] = {1, 1, 1}, q[3] = {-1, 3, 4}, zero[3] = {0, 0, 0};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    fl_global_problem *g = one_contact_global(3, w, q, zero, 0.5);
    gsl_vector *r = gsl_vector_alloc(3), *U = gsl_vector_alloc(3), *v = gsl_vector_alloc(3);
    for (int k = 0; k < 2; k++) {
        fl_newton_options o = fl_newton_options_default();
        o.start = FL_NEWTON_START_WARM;
        fl_newton_result res;
        /* at the solution (inside the cone): no step */
        for (int i = 0; i < 3; i++) r->data[i] = slide_r[i];
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U, &res, NULL), FL_OK, "%s", fl_newton_types[k].name);
        cr_assert_eq(res.iterations, 0);
        assert_slide(r, U, fl_newton_types[k].name);
        for (int i = 0; i < 3; i++) r->data[i] = slide_r[i];
        cr_assert_eq(fl_newton_types[k].global_solve(g, &o, v, r, U, &res, NULL), FL_OK, "%s", fl_newton_types[k].name);
        cr_assert_eq(res.iterations, 0);
        assert_slide(r, U, fl_newton_types[k].name);
        /* v = M^-1 (f + H^T r) = q + r with M = H = I */
        for (int i = 0; i < 3; i++) cr_assert(fabs(v->data[i] - (q[i] + slide_r[i])) <= 1e-12);
        /* outside the cone (projected first), then Newton to the same point */
        gsl_vector_set(r, 0, 1.0);
        gsl_vector_set(r, 1, 5.0);
        gsl_vector_set(r, 2, -7.0);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U, &res, NULL), FL_OK, "%s", fl_newton_types[k].name);
        assert_slide(r, U, fl_newton_types[k].name);
        gsl_vector_set(r, 0, -2.0);
        gsl_vector_set(r, 1, 5.0);
        gsl_vector_set(r, 2, -7.0);
        cr_assert_eq(fl_newton_types[k].global_solve(g, &o, v, r, U, &res, NULL), FL_OK, "%s", fl_newton_types[k].name);
        assert_slide(r, U, fl_newton_types[k].name);
        /* a non-finite warm start is refused by the global solvers too */
        gsl_vector_set(r, 2, NAN);
        fl_error err;
        cr_assert_eq(fl_newton_types[k].global_solve(g, &o, v, r, U, &res, &err), FL_ENONFINITE);
        cr_assert(strstr(err.message, "warm start r"), "%s", err.message);
    }
    gsl_vector_free(r);
    gsl_vector_free(U);
    gsl_vector_free(v);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
}

Test(cov_newton, fixed_rho_and_absolute_norm_give_the_same_solution, .init = setup,
     .fini = teardown)
{
    /* Phi = 0 iff Coulomb's law for any rho > 0 (N1): the answer does not
     * depend on rho nor on the norm of the stopping rule. */
    const double w[3] = {1, 1, 1}, q[3] = {-1, 3, 4}, zero[3] = {0, 0, 0};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    fl_global_problem *g = one_contact_global(3, w, q, zero, 0.5);
    gsl_vector *r = gsl_vector_alloc(3), *U = gsl_vector_alloc(3);
    const double rhos[3] = {0.3, 1.0, 4.0};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 3; j++) {
            fl_newton_options o = fl_newton_options_default();
            o.rho = rhos[j];
            o.norm = j == 2 ? FL_RESIDUAL_ABSOLUTE : FL_RESIDUAL_NORM_Q;
            o.tol = 1e-13;
            cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U, NULL, NULL), FL_OK, "%s rho %g", fl_newton_types[k].name,
                         rhos[j]);
            assert_slide(r, U, fl_newton_types[k].name);
            cr_assert_eq(fl_newton_types[k].global_solve(g, &o, NULL, r, U, NULL, NULL), FL_OK);
            assert_slide(r, U, fl_newton_types[k].name);
        }
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
}

Test(cov_newton, zero_and_overflowing_trace_blocks_fall_back_to_rho_one, .init = setup,
     .fini = teardown)
{
    /* rho_a = dim / trace(W_aa) needs a positive finite trace; otherwise
     * rho_a = 1.  W = 0 with q = (1, 0.5) >= 0 (open): r = 0, U = q.
     * W = diag(1e308, 1e308) (trace overflows to +inf), q = (2, 0): open
     * again, r = 0.  Global: H = 0 gives a zero trace H diag(M)^-1 H^T,
     * w = (1, 0.5) open, r = 0. */
    const double zero2[2] = {0, 0}, one2[2] = {1, 1}, big[2] = {1e308, 1e308};
    const double qa[2] = {1, 0.5}, qb[2] = {2, 0};
    for (int c = 0; c < 2; c++) {
        fl_local_problem *p = one_contact(2, c ? big : zero2, c ? qb : qa, 0.3);
        gsl_vector *r = gsl_vector_alloc(2), *U = gsl_vector_alloc(2);
        for (int k = 0; k < 2; k++) {
            fl_newton_result res;
            fl_newton_options o = fl_newton_options_default();
            gsl_vector_set_all(r, 9.0);
            cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U, &res, NULL), FL_OK, "case %d %s", c, fl_newton_types[k].name);
            cr_assert(r->data[0] == 0 && r->data[1] == 0);
            cr_assert(U->data[0] == (c ? qb : qa)[0] && U->data[1] == (c ? qb : qa)[1]);
            cr_assert_eq(res.iterations, 0);
        }
        gsl_vector_free(r);
        gsl_vector_free(U);
        fl_local_problem_free(p);
    }
    fl_global_problem *g = one_contact_global(2, one2, zero2, qa, 0.3);
    gsl_matrix_set_zero(g->H);
    cholmod_free_sparse(&g->Hs, &ctx.cm);
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
    gsl_vector *r = gsl_vector_alloc(2), *U = gsl_vector_alloc(2), *v = gsl_vector_alloc(2);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(fl_newton_types[k].global_solve(g, &(fl_newton_options){0}, v, r, U, NULL, NULL), FL_EINVAL);
        fl_newton_options o = fl_newton_options_default();
        cr_assert_eq(fl_newton_types[k].global_solve(g, &o, v, r, U, NULL, NULL), FL_OK, "%s", fl_newton_types[k].name);
        cr_assert(r->data[0] == 0 && r->data[1] == 0);
        cr_assert(U->data[0] == 1 && U->data[1] == 0.5);
    }
    /* H = 1e200 I, M = 1e-200 I: the trace H diag(M)^-1 H^T overflows to
     * +inf, rho = 1; f = 0 and w = (1, 0.5) open: r = 0, U = w. */
    gsl_matrix_set_identity(g->H);
    gsl_matrix_scale(g->H, 1e200);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_scale(g->M, 1e-200);
    cholmod_free_sparse(&g->Hs, &ctx.cm);
    cholmod_free_sparse(&g->Ms, &ctx.cm);
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
    for (int k = 0; k < 2; k++) {
        fl_newton_options o = fl_newton_options_default();
        cr_assert_eq(fl_newton_types[k].global_solve(g, &o, v, r, U, NULL, NULL), FL_OK, "%s", fl_newton_types[k].name);
        cr_assert(r->data[0] == 0 && r->data[1] == 0);
        cr_assert(U->data[0] == 1 && U->data[1] == 0.5);
    }
    gsl_vector_free(r);
    gsl_vector_free(U);
    gsl_vector_free(v);
    fl_global_problem_free(g);
}

/* 2D, W = diag(1, 0) (rank-deficient: the tangential impulse has no
 * effect), q = (-1, 0.1), mu = 1/2.  Coulomb's law: U_N = r_N - 1 = 0 with
 * r_N = 1 > 0; U_T = 0.1 != 0, so the contact slides, r_T = -mu r_N
 * sign(U_T) = -0.5.  The solution is unique.  From r = 0: y = -rho q =
 * rho (1, -0.1), |y_T| = 0.1 rho < mu y_N = 0.5 rho: stick, D = I, and
 * J = I - D + rho D W = rho W is singular. */
static fl_local_problem *rank_deficient(void)
{
    return one_contact(2, (const double[2]){1, 0}, (const double[2]){-1, 0.1}, 0.5);
}

Test(cov_newton, singular_jacobian_retried_then_gauss_seidel, .init = setup, .fini = teardown)
{
    fl_local_problem *p = rank_deficient();
    gsl_vector *r = gsl_vector_alloc(2), *U = gsl_vector_alloc(2);
    for (int k = 0; k < 2; k++) {
        fl_newton_options o = fl_newton_options_default();
        o.reg_max = 0;   /* the plain Newton step: J singular at r = 0 */
        fl_newton_result res;
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U, &res, NULL), FL_OK, "%s", fl_newton_types[k].name);
        cr_assert(fabs(r->data[0] - 1) <= 1e-10 && fabs(r->data[1] + 0.5) <= 1e-10,
                  "%s r = (%g, %g)", fl_newton_types[k].name, r->data[0], r->data[1]);
        cr_assert(fabs(U->data[0]) <= 1e-10 && fabs(U->data[1] - 0.1) <= 1e-12);
        cr_assert_geq(res.regularized, 1, "%s", fl_newton_types[k].name);
        cr_assert_eq(res.stop, FL_NEWTON_STOP_TOL);
    }
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
}

Test(cov_newton, stall_without_gauss_seidel, .init = setup, .fini = teardown)
{
    /* Same problem, no Gauss–Seidel fallback, no line search halving
     * (ls_max = 0): the regularised step from r = 0 is d = -Phi / 1e-10 on
     * the tangential row, which increases the merit; every step fails at
     * the same r, so after max_fallbacks + 1 = 3 steps the solve stalls:
     * FL_WMAXITER, stop STALLED, r still 0. */
    fl_local_problem *p = rank_deficient();
    gsl_vector *r = gsl_vector_alloc(2);
    for (int k = 0; k < 2; k++) {
        fl_newton_options o = fl_newton_options_default();
        o.reg_max = 0;
        o.gs_sweeps = 0;
        o.ls_max = 0;
        o.max_fallbacks = 2;
        fl_newton_result res;
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, NULL, &res, NULL), FL_WMAXITER, "%s", fl_newton_types[k].name);
        cr_assert_eq(res.stop, FL_NEWTON_STOP_STALLED, "%s", fl_newton_types[k].name);
        cr_assert_eq(res.iterations, 3, "%s: %d", fl_newton_types[k].name, res.iterations);
        cr_assert_eq(res.line_search_failures, 3);
        cr_assert_eq(res.gs_sweeps, 0);
        cr_assert(r->data[0] == 0 && r->data[1] == 0);
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
}

Test(cov_newton, global_singular_system_retried, .init = setup, .fini = teardown)
{
    /* The same contact in global form: M = I, H = diag(1, 0), f = (-1, 0),
     * w = (0, 0.1): W = H H^T = diag(1, 0), q = H f + w = (-1, 0.1).  The
     * (v, r) system (N4) is singular at the start (its Schur complement is
     * rho W), the retry with 1e-10 on the r-block succeeds.  Without a
     * Gauss–Seidel fallback the global solver takes the smallest tried step;
     * whatever it ends with, an FL_OK answer is the closed form above, and
     * any other outcome is a warning, not an error. */
    fl_global_problem *g = one_contact_global(2, (const double[2]){1, 1}, (const double[2]){-1, 0},
                                              (const double[2]){0, 0.1}, 0.5);
    gsl_matrix_set(g->H, 1, 1, 0.0);
    cholmod_free_sparse(&g->Hs, &ctx.cm);
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
    gsl_vector *r = gsl_vector_alloc(2), *U = gsl_vector_alloc(2);
    for (int k = 0; k < 2; k++) {
        fl_newton_options o = fl_newton_options_default();
        o.reg_max = 0;
        o.max_iterations = 50;
        fl_newton_result res;
        fl_status s = fl_newton_types[k].global_solve(g, &o, NULL, r, U, &res, NULL);
        cr_assert_geq(res.regularized, 1, "%s", fl_newton_types[k].name);
        cr_assert(s == FL_OK || s == FL_WMAXITER, "%s: %d", fl_newton_types[k].name, s);
        if (s == FL_OK)
            cr_assert(fabs(r->data[0] - 1) <= 1e-9 && fabs(r->data[1] + 0.5) <= 1e-9,
                      "%s r = (%g, %g)", fl_newton_types[k].name, r->data[0], r->data[1]);
    }
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_global_problem_free(g);
}

Test(cov_newton, iteration_limit_is_a_warning, .init = setup, .fini = teardown)
{
    /* One Newton step cannot reach 1e-300 from r = 0 on the sliding
     * contact: FL_WMAXITER, stop MAXITER, 1 iteration, r and U still given. */
    const double w[3] = {1, 1, 1}, q[3] = {-1, 3, 4}, zero[3] = {0, 0, 0};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    fl_global_problem *g = one_contact_global(3, (const double[3]){2, 2, 2}, q, zero, 0.5);
    gsl_vector *r = gsl_vector_alloc(3), *U = gsl_vector_alloc(3), *v = gsl_vector_alloc(3);
    for (int k = 0; k < 2; k++) {
        fl_newton_options o = fl_newton_options_default();
        o.max_iterations = 1;
        o.tol = 1e-300;
        fl_newton_result res;
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U, &res, NULL), FL_WMAXITER, "%s", fl_newton_types[k].name);
        cr_assert_eq(res.stop, FL_NEWTON_STOP_MAXITER);
        cr_assert_eq(res.iterations, 1);
        cr_assert(isfinite(res.residual) && res.residual > 0);
        cr_assert_eq(fl_newton_types[k].global_solve(g, &o, v, r, U, &res, NULL), FL_WMAXITER);
        cr_assert_eq(res.stop, FL_NEWTON_STOP_MAXITER);
        cr_assert_eq(res.iterations, 1);
    }
    gsl_vector_free(r);
    gsl_vector_free(U);
    gsl_vector_free(v);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
}

/* ---- arguments of the solvers, refused alike ---------------------------- */

Test(cov_newton, local_arguments_refused_alike, .init = setup, .fini = teardown)
{
    const double w[3] = {1, 1, 1}, q[3] = {-1, 3, 4};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    gsl_vector *r = gsl_vector_alloc(3), *U2 = gsl_vector_alloc(2);
    gsl_matrix *R = gsl_matrix_alloc(3, 2);
    gsl_vector_view strided = gsl_matrix_column(R, 0);   /* stride 2 */
    fl_newton_options o = fl_newton_options_default();
    fl_error err;
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(fl_newton_types[k].solve(p, &o, NULL, NULL, NULL, &err), FL_EDIM);
        cr_assert(strstr(err.message, "r must be"), "%s", err.message);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, &strided.vector, NULL, NULL, &err), FL_EDIM);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, U2, NULL, &err), FL_EDIM);
        cr_assert(strstr(err.message, "U must have length 3"), "%s", err.message);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, r, &strided.vector, NULL, &err), FL_EDIM);
        /* NULL options mean the defaults (drivers/fl_types.h) */
        gsl_vector *rd = gsl_vector_calloc(3);
        gsl_vector_set_zero(r);
        cr_assert_eq(fl_newton_types[k].solve(p, NULL, r, NULL, NULL, &err), FL_OK, "%s", err.message);
        cr_assert_eq(fl_newton_types[k].solve(p, &o, rd, NULL, NULL, &err), FL_OK, "%s", err.message);
        for (int i = 0; i < 3; i++) cr_assert_eq(gsl_vector_get(r, i), gsl_vector_get(rd, i));
        gsl_vector_free(rd);
        cr_assert_eq(fl_newton_types[k].solve(NULL, &o, r, NULL, NULL, &err), FL_EINVAL);
    }
    gsl_matrix_free(R);
    gsl_vector_free(r);
    gsl_vector_free(U2);
    fl_local_problem_free(p);
}

/* Each spoil() breaks one field of a valid one-contact global problem and
 * restore() repairs it; both twins must refuse with the same status and a
 * message naming the field. */
typedef struct global_case {
    const char *name, *needle;
    fl_status status;
} global_case;

Test(cov_newton, global_arguments_refused_alike, .init = setup, .fini = teardown)
{
    const double one[3] = {1, 1, 1}, f[3] = {-1, 3, 4}, zero[3] = {0, 0, 0};
    fl_global_problem *g = one_contact_global(3, one, f, zero, 0.5);
    gsl_vector *r = gsl_vector_alloc(3), *r2 = gsl_vector_alloc(2), *v = gsl_vector_alloc(3);
    gsl_matrix *R = gsl_matrix_alloc(3, 2);
    gsl_vector_view strided = gsl_matrix_column(R, 0);
    fl_newton_options o = fl_newton_options_default();
    fl_error err[2];
    fl_status s[2];
#define BOTH(expr_v, expr_r, expr_U)                                                          \
    for (int k = 0; k < 2; k++) s[k] = fl_newton_types[k].global_solve(g, &o, expr_v, expr_r, expr_U, NULL, &err[k])
#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { BOTH(NULL, r, NULL); SAME(want, needle); } while (0)
    for (int k = 0; k < 2; k++)
        cr_assert_eq(fl_newton_types[k].global_solve(NULL, &o, NULL, r, NULL, NULL, &err[k]), FL_EINVAL);
    /* dim, nc, m */
    g->dim = 4;
    EXPECT(FL_EDIM, "dim = 4");
    g->dim = 3;
    g->nc = 0;
    EXPECT(FL_EDIM, "nc = 0");
    g->nc = 1;
    g->m = 2;
    EXPECT(FL_EDIM, "m = 2");
    g->m = 3;
    /* sizes: n disagrees with M, H, f */
    g->n = 2;
    EXPECT(FL_EDIM, "n = 2");
    g->n = 3;
    gsl_vector *w2 = gsl_vector_alloc(2), *wkeep = g->w;
    gsl_vector_set_zero(w2);
    g->w = w2;
    EXPECT(FL_EDIM, "w 2");
    g->w = wkeep;
    gsl_vector *f2 = gsl_vector_alloc(2), *fkeep = g->f;
    gsl_vector_set_zero(f2);
    g->f = f2;
    EXPECT(FL_EDIM, "f 2");
    g->f = fkeep;
    gsl_vector_free(w2);
    gsl_vector_free(f2);
    /* non-finite data */
    gsl_vector_set(g->f, 1, NAN);
    EXPECT(FL_ENONFINITE, "f[1]");
    gsl_vector_set(g->f, 1, 3);
    gsl_vector_set(g->w, 2, INFINITY);
    EXPECT(FL_ENONFINITE, "w[2]");
    gsl_vector_set(g->w, 2, 0);
    g->mu[0] = NAN;
    EXPECT(FL_EINVAL, "mu[0]");
    g->mu[0] = -0.5;
    EXPECT(FL_EINVAL, "mu[0]");
    g->mu[0] = INFINITY;
    EXPECT(FL_EINVAL, "mu[0]");
    g->mu[0] = 0.5;
    /* a missing field: the dense twin needs M, H, the sparse one Ms, Hs */
    {
        gsl_vector *fk = g->f, *wk = g->w;
        double *muk = g->mu;
        g->f = NULL;
        BOTH(NULL, r, NULL);
        SAME(FL_EINVAL, "required");
        g->f = fk;
        g->w = NULL;
        BOTH(NULL, r, NULL);
        SAME(FL_EINVAL, "required");
        g->w = wk;
        g->mu = NULL;
        BOTH(NULL, r, NULL);
        SAME(FL_EINVAL, "required");
        g->mu = muk;
        gsl_matrix *Hk = g->H;
        cholmod_sparse *Hsk = g->Hs;
        g->H = NULL;
        g->Hs = NULL;
        BOTH(NULL, r, NULL);
        SAME(FL_EINVAL, "required");
        g->H = Hk;
        g->Hs = Hsk;
        cholmod_sparse *Msk = g->Ms;
        g->Ms = NULL;
        cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err[1]), FL_EINVAL);
        g->Ms = Msk;
    }
    /* H with a non-finite entry (dense and sparse alike) */
    gsl_matrix_set(g->H, 1, 1, NAN);
    ((double *)g->Hs->x)[1] = NAN;
    EXPECT(FL_ENONFINITE, "H");
    gsl_matrix_set(g->H, 1, 1, 1);
    ((double *)g->Hs->x)[1] = 1;
    /* M with a non-finite entry */
    gsl_matrix_set(g->M, 0, 0, INFINITY);
    ((double *)g->Ms->x)[0] = INFINITY;
    BOTH(NULL, r, NULL);
    for (int k = 0; k < 2; k++) cr_assert_eq(s[k], FL_ENONFINITE, "%s: %s", fl_newton_types[k].name, err[k].message);
    cr_assert(strstr(err[0].message, "mass matrix") || strstr(err[0].message, "M"));
    cr_assert(strstr(err[1].message, "M"), "%s", err[1].message);
    /* M not positive definite */
    gsl_matrix_set(g->M, 0, 0, -1);
    ((double *)g->Ms->x)[0] = -1;
    BOTH(NULL, r, NULL);
    for (int k = 0; k < 2; k++) cr_assert_eq(s[k], FL_ENOTSPD, "%s: %s", fl_newton_types[k].name, err[k].message);
    gsl_matrix_set(g->M, 0, 0, 1);
    ((double *)g->Ms->x)[0] = 1;
    /* output vectors */
    BOTH(NULL, NULL, NULL);
    SAME(FL_EDIM, "r must be");
    BOTH(NULL, r2, NULL);
    SAME(FL_EDIM, "r must be");
    BOTH(NULL, &strided.vector, NULL);
    SAME(FL_EDIM, "r must be");
    BOTH(NULL, r, r2);
    SAME(FL_EDIM, "U must have length 3");
    BOTH(NULL, r, &strided.vector);
    SAME(FL_EDIM, "U must have length 3");
    BOTH(r2, r, NULL);
    SAME(FL_EDIM, "v must have length 3");
    BOTH(&strided.vector, r, NULL);
    SAME(FL_EDIM, "v must have length 3");
    /* and the repaired problem solves: the slide closed form (M = H = I) */
    BOTH(v, r, NULL);
    cr_assert_eq(s[0], FL_OK);
    cr_assert_eq(s[1], FL_OK);
    assert_slide(r, NULL, "repaired");
    /* sparse M must have symmetric storage (the dense twin has no storage) */
    cholmod_sparse *Mfull = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 0, 0.0, &Mfull, NULL), FL_OK);
    cholmod_sparse *Mkeep = g->Ms;
    g->Ms = Mfull;
    cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "symmetric storage"), "%s", err[1].message);
    g->Ms = Mkeep;
    cholmod_free_sparse(&Mfull, &ctx.cm);
    /* the dense twin needs dense M, the sparse one sparse M and a context */
    fl_sparse_ctx *ckeep = g->ctx;
    g->ctx = NULL;
    cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err[1]), FL_EINVAL);
    g->ctx = ckeep;
    gsl_matrix *Mk = g->M;
    g->M = NULL;
    cr_assert_eq(fl_newton_global_solve(g, &o, NULL, r, NULL, NULL, &err[0]), FL_EINVAL);
    cr_assert(strstr(err[0].message, "dense M"), "%s", err[0].message);
    g->M = Mk;
#undef BOTH
#undef SAME
#undef EXPECT
    gsl_matrix_free(R);
    gsl_vector_free(r);
    gsl_vector_free(r2);
    gsl_vector_free(v);
    fl_global_problem_free(g);
}

Test(cov_newton, global_shapes_and_unreadable_sparse_matrices, .init = setup, .fini = teardown)
{
    const double one[3] = {1, 1, 1}, f[3] = {-1, 3, 4}, zero[3] = {0, 0, 0};
    fl_global_problem *g = one_contact_global(3, one, f, zero, 0.5);
    gsl_vector *r = gsl_vector_alloc(3);
    fl_newton_options o = fl_newton_options_default();
    fl_error err;
    /* dense M 3x2, H 2x3 and 3x2 */
    gsl_matrix *A32 = gsl_matrix_calloc(3, 2), *A23 = gsl_matrix_calloc(2, 3);
    gsl_matrix *Mk = g->M, *Hk = g->H;
    g->M = A32;
    cr_assert_eq(fl_newton_global_solve(g, &o, NULL, r, NULL, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "M 3x2"), "%s", err.message);
    g->M = Mk;
    g->H = A23;
    cr_assert_eq(fl_newton_global_solve(g, &o, NULL, r, NULL, NULL, &err), FL_EDIM);
    g->H = A32;
    cr_assert_eq(fl_newton_global_solve(g, &o, NULL, r, NULL, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "H 3x2"), "%s", err.message);
    g->H = Hk;
    /* sparse H 2x3 and 3x2 */
    cholmod_sparse *Hsk = g->Hs, *S23 = NULL, *S32 = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, A23, 0, 0.0, &S23, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, A32, 0, 0.0, &S32, NULL), FL_OK);
    g->Hs = S23;
    cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err), FL_EDIM);
    g->Hs = S32;
    cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "H 3x2"), "%s", err.message);
    /* pattern-only sparse M or H: refused, naming the matrix */
    cholmod_sparse *Hp = cholmod_copy_sparse(Hsk, &ctx.cm), *Mp = cholmod_copy_sparse(g->Ms, &ctx.cm);
    cr_assert(Hp && cholmod_sparse_xtype(CHOLMOD_PATTERN, Hp, &ctx.cm));
    cr_assert(Mp && cholmod_sparse_xtype(CHOLMOD_PATTERN, Mp, &ctx.cm));
    g->Hs = Hp;
    cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "H must be real with int indices"), "%s", err.message);
    g->Hs = Hsk;
    cholmod_sparse *Msk = g->Ms;
    g->Ms = Mp;
    cr_assert_eq(fl_newton_global_solve_sparse(g, &o, NULL, r, NULL, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "M must be real with int indices"), "%s", err.message);
    g->Ms = Msk;
    /* the local twin with a pattern-only W (fl_local_problem_check refuses it) */
    const double w[3] = {1, 1, 1};
    fl_local_problem *p = one_contact(3, w, f, 0.5);
    cholmod_sparse *Wk = p->Ws, *Wp = cholmod_copy_sparse(Wk, &ctx.cm);
    cr_assert(Wp && cholmod_sparse_xtype(CHOLMOD_PATTERN, Wp, &ctx.cm));
    p->Ws = Wp;
    fl_status s = fl_newton_solve_sparse(p, &o, r, NULL, NULL, &err);
    cr_assert_eq(s, FL_EDIM, "%d: %s", s, err.message);
    cr_assert(strstr(err.message, "expected a real 3x3 matrix"), "%s", err.message);
    p->Ws = Wk;
    cholmod_free_sparse(&Wp, &ctx.cm);
    fl_local_problem_free(p);
    cholmod_free_sparse(&Hp, &ctx.cm);
    cholmod_free_sparse(&Mp, &ctx.cm);
    cholmod_free_sparse(&S23, &ctx.cm);
    cholmod_free_sparse(&S32, &ctx.cm);
    gsl_matrix_free(A32);
    gsl_matrix_free(A23);
    gsl_vector_free(r);
    fl_global_problem_free(g);
}
