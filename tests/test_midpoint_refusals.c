/* test_midpoint_refusals.c — the midpoint scheme of 002 (20)-(23)
 * (reference/midpoint.c, optimized/midpoint_sparse.c): one hand-made
 * problem (n = 2, one contact node) stepped by both twins against its
 * closed form, then the same bad problems, options and states fed to both
 * (same status), and the argument checks of the local solvers, Lemma 4.1
 * and the triangle of 002 §6.
 *
 * The problem: M_r = A = I (2x2), f = 0, nu = (0, -1) (gap = -nu.u = u_2),
 * tau = (1, 0), mu = 1/2, v_found = 0, dt = 0.1.  From u^0 = (0, 1),
 * v^0 = 0 (above the foundation, at rest): S = (4/dt^2 + 1) I = 401 I,
 * fhat = (4/dt^2) u^0 = (0, 400), u^{1/2} = (0, 400/401); the gap at the
 * mid-step 400/401 > 0 so the contact stays open (y = 0), and
 * u^1 = 2 u^{1/2} - u^0 = (0, 399/401), v^1 = 2 (2/dt)(u^{1/2} - u^0)
 * = (0, -40/401).  The energy 1/2 |v|^2 + 1/2 |u|^2 is conserved by the
 * midpoint rule: (1600 + 159201) / (2 * 160801) = 1/2 = E(t_0). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/midpoint.h"
#include "models/fl_model_triangle.h"
#include "optimized/midpoint_sparse.h"
#include "twin_check.h"


typedef struct mp_prob {
    gsl_matrix *I2, *Bnu, *Btau;
    gsl_vector *f;
    cholmod_sparse *Is, *Bnu_s, *Btau_s;
    fl_midpoint_problem p;
    fl_midpoint_options o;
} mp_prob;

static void prob_init(mp_prob *P)
{
    memset(P, 0, sizeof *P);
    P->I2 = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(P->I2);
    P->Bnu = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(P->Bnu, 0, 1, -1.0);
    P->Btau = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(P->Btau, 0, 0, 1.0);
    P->f = gsl_vector_calloc(2);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P->I2, 1, 0.0, &P->Is, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P->Bnu, 0, 0.0, &P->Bnu_s, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, P->Btau, 0, 0.0, &P->Btau_s, NULL), FL_OK);
    P->p = (fl_midpoint_problem){.n = 2, .nc = 1, .mu = 0.5, .v_found = 0.0, .f = P->f,
                                 .Bnu = P->Bnu, .Btau = P->Btau, .Mr = P->I2, .A = P->I2,
                                 .Mr0_s = P->Is, .A_s = P->Is, .Bnu_s = P->Bnu_s,
                                 .Btau_s = P->Btau_s};
    P->o = fl_midpoint_options_default();
    P->o.dt = 0.1;
}

static void prob_free(mp_prob *P)
{
    gsl_matrix_free(P->I2);
    gsl_matrix_free(P->Bnu);
    gsl_matrix_free(P->Btau);
    gsl_vector_free(P->f);
    cholmod_free_sparse(&P->Is, &ctx.cm);
    cholmod_free_sparse(&P->Bnu_s, &ctx.cm);
    cholmod_free_sparse(&P->Btau_s, &ctx.cm);
}

/* Allocate both steppers on P; statuses in s[2] (steppers freed). */
static void both_alloc(mp_prob *P, fl_status s[2], fl_error err[2])
{
    fl_midpoint *d = NULL;
    fl_midpoint_sparse *sp = NULL;
    s[0] = fl_midpoint_alloc(&P->p, &P->o, &d, &err[0]);
    s[1] = fl_midpoint_alloc_sparse(&P->p, &P->o, &sp, &err[1]);
    if (d) fl_midpoint_free(d);
    if (sp) fl_midpoint_free_sparse(sp);
    if (s[0] != FL_OK) cr_assert_null(d);
    if (s[1] != FL_OK) cr_assert_null(sp);
}

#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { both_alloc(&P, s, err); SAME(want, needle); } while (0)

Test(cov_midpoint, free_flight_step_closed_form_both_twins, .init = setup, .fini = teardown)
{
    mp_prob P;
    prob_init(&P);
    for (int solver = 0; solver < 2; solver++)
        for (int k = 0; k < 2; k++) {
            P.o.solver = (fl_midpoint_local)solver;
            fl_midpoint_state *st = NULL;
            cr_assert_eq(fl_midpoint_state_alloc(2, 1, &st, NULL), FL_OK);
            gsl_vector_set(st->u, 1, 1.0);
            fl_midpoint_result res;
            fl_error err;
            if (k == 0) {
                fl_midpoint *mp = NULL;
                cr_assert_eq(fl_midpoint_alloc(&P.p, &P.o, &mp, &err), FL_OK, "%s", err.message);
                cr_assert_eq(fl_midpoint_step(mp, st, &res, &err), FL_OK, "%s", err.message);
                fl_midpoint_free(mp);
            } else {
                fl_midpoint_sparse *mp = NULL;
                cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &mp, &err), FL_OK, "%s",
                             err.message);
                cr_assert_eq(fl_midpoint_step_sparse(mp, st, &res, &err), FL_OK, "%s", err.message);
                fl_midpoint_free_sparse(mp);
            }
            cr_assert(fabs(gsl_vector_get(st->u, 0)) <= 1e-15);
            cr_assert(fabs(gsl_vector_get(st->u, 1) - 399.0 / 401.0) <= 1e-14, "impl %d u %.17g", k,
                      gsl_vector_get(st->u, 1));
            cr_assert(fabs(gsl_vector_get(st->v, 1) + 40.0 / 401.0) <= 1e-13, "impl %d v %.17g", k,
                      gsl_vector_get(st->v, 1));
            cr_assert(gsl_vector_get(st->y, 0) == 0 && gsl_vector_get(st->y, 1) == 0);
            cr_assert(fabs(res.energy - 0.5) <= 1e-14, "impl %d energy %.17g", k, res.energy);
            fl_midpoint_state_free(st);
        }
    prob_free(&P);
}

Test(cov_midpoint, both_twins_refuse_the_same_problems, .init = setup, .fini = teardown)
{
    mp_prob P;
    prob_init(&P);
    fl_status s[2];
    fl_error err[2];
    both_alloc(&P, s, err);
    cr_assert_eq(s[0], FL_OK);
    cr_assert_eq(s[1], FL_OK);
    /* sizes: nc = 0, n < 2 nc */
    P.p.nc = 0;
    EXPECT(FL_EDIM, "n >= 2 nc >= 2");
    P.p.nc = 2;
    EXPECT(FL_EDIM, "n=2 nc=2");
    P.p.nc = 1;
    P.p.n = 0;
    EXPECT(FL_EDIM, "n >= 2 nc");
    P.p.n = 2;
    /* dt */
    P.o.dt = 0;
    EXPECT(FL_EINVAL, "time step");
    P.o.dt = INFINITY;
    EXPECT(FL_EINVAL, "time step");
    P.o.dt = 0.1;
    /* mu, v_found */
    P.p.mu = NAN;
    EXPECT(FL_EINVAL, "friction coefficient");
    P.p.mu = INFINITY;
    EXPECT(FL_EINVAL, "friction coefficient");
    P.p.mu = 0.5;
    P.p.v_found = NAN;
    EXPECT(FL_EINVAL, "v_found finite");
    P.p.v_found = 0;
    /* placement and solver */
    P.o.contact = (fl_midpoint_contact)5;
    EXPECT(FL_EINVAL, "unknown contact placement 5");
    P.o.contact = FL_MIDPOINT_AT_MIDPOINT;
    P.o.solver = (fl_midpoint_local)4;
    EXPECT(FL_EINVAL, "unknown local solver 4");
    P.o.solver = FL_MIDPOINT_LOCAL_ENUM;
    P.o.enum_max_contacts = 0;
    EXPECT(FL_EINVAL, "enumeration refused for 1 contacts (limit 0)");
    P.o = fl_midpoint_options_default();
    P.o.dt = 0.1;
    /* the load */
    P.p.f = NULL;
    both_alloc(&P, s, err);
    cr_assert_eq(s[0], FL_EDIM);
    cr_assert_eq(s[1], FL_EDIM);
    gsl_vector *f3 = gsl_vector_calloc(3);
    P.p.f = f3;
    both_alloc(&P, s, err);
    cr_assert_eq(s[0], FL_EDIM);
    cr_assert_eq(s[1], FL_EDIM);
    P.p.f = P.f;
    gsl_vector_free(f3);
    gsl_vector_set(P.f, 1, NAN);
    EXPECT(FL_ENONFINITE, "load[1]");
    gsl_vector_set(P.f, 1, 0);
    /* NULL problem refused; NULL options mean the defaults (drivers/fl_types.h) */
    for (int k = 0; k < 2; k++) {
        fl_midpoint *d = NULL;
        fl_midpoint_sparse *sp = NULL;
        s[0] = fl_midpoint_alloc(NULL, &P.o, &d, &err[0]);
        s[1] = fl_midpoint_alloc_sparse(NULL, &P.o, &sp, &err[1]);
        SAME(FL_EINVAL, "needs a problem and options");
        cr_assert_eq(fl_midpoint_alloc(&P.p, NULL, &d, &err[0]), FL_OK, "%s", err[0].message);
        cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, NULL, &sp, &err[1]), FL_OK, "%s", err[1].message);
        cr_assert_eq(d->opt.dt, fl_midpoint_options_default().dt);
        cr_assert_eq(sp->opt.dt, fl_midpoint_options_default().dt);
        fl_midpoint_free(d);
        fl_midpoint_free_sparse(sp);
    }
    prob_free(&P);
}

Test(cov_midpoint, dense_stepper_fields, .init = setup, .fini = teardown)
{
    mp_prob P;
    prob_init(&P);
    fl_midpoint *d = NULL;
    fl_error err;
    gsl_matrix *B3 = gsl_matrix_calloc(1, 3), *M3 = gsl_matrix_calloc(3, 3), *B21 = gsl_matrix_calloc(2, 2);
    const gsl_matrix *keep;
#define REFUSE(field, value, st, needle)                                                      \
    do {                                                                                      \
        keep = P.p.field;                                                                     \
        P.p.field = value;                                                                    \
        cr_assert_eq(fl_midpoint_alloc(&P.p, &P.o, &d, &err), st, #field ": %s", err.message);  \
        cr_assert(strstr(err.message, needle), "%s", err.message);                            \
        cr_assert_null(d);                                                                    \
        P.p.field = keep;                                                                     \
    } while (0)
    REFUSE(Bnu, NULL, FL_EDIM, "contact rows");
    REFUSE(Btau, NULL, FL_EDIM, "contact rows");
    REFUSE(Bnu, B3, FL_EDIM, "contact rows");
    REFUSE(Btau, B3, FL_EDIM, "contact rows");
    REFUSE(Bnu, B21, FL_EDIM, "contact rows");
    REFUSE(Btau, B21, FL_EDIM, "contact rows");
    REFUSE(Mr, NULL, FL_EDIM, "dense M_r and A");
    REFUSE(A, NULL, FL_EDIM, "dense M_r and A");
    REFUSE(Mr, M3, FL_EDIM, "dense M_r and A");
    REFUSE(A, M3, FL_EDIM, "dense M_r and A");
    gsl_matrix *N12 = gsl_matrix_calloc(1, 2), *N22 = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(N12, 0, 1, NAN);
    gsl_matrix_set(N22, 1, 0, INFINITY);
    REFUSE(Bnu, N12, FL_ENONFINITE, "normal rows(0,1)");
    REFUSE(Btau, N12, FL_ENONFINITE, "tangent rows(0,1)");
    REFUSE(Mr, N22, FL_ENONFINITE, "M_r(1,0)");
    REFUSE(A, N22, FL_ENONFINITE, "A(1,0)");
    gsl_matrix_free(N12);
    gsl_matrix_free(N22);
    /* a state of another problem; half steps of the wrong size */
    cr_assert_eq(fl_midpoint_alloc(&P.p, &P.o, &d, &err), FL_OK);
    fl_midpoint_state *st3 = NULL, *st = NULL;
    cr_assert_eq(fl_midpoint_state_alloc(3, 1, &st3, NULL), FL_OK);
    cr_assert_eq(fl_midpoint_state_alloc(2, 1, &st, NULL), FL_OK);
    cr_assert_eq(fl_midpoint_step(d, st3, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "state does not match"));
    cr_assert_eq(fl_midpoint_step(d, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_step(d, st, NULL, &err), FL_OK);   /* at rest on the foundation */
    gsl_vector *y3 = gsl_vector_calloc(3), *y2 = gsl_vector_calloc(2), *u3 = gsl_vector_calloc(3);
    cr_assert_eq(fl_midpoint_half_step(d, y3, y2), FL_EDIM);
    cr_assert_eq(fl_midpoint_half_step(d, y2, u3), FL_EDIM);
    /* u = 0, v = 0, f = 0: y = 0 and u^{1/2} = 0 */
    cr_assert_eq(fl_midpoint_half_step(d, y2, y2), FL_OK);
    cr_assert(y2->data[0] == 0 && y2->data[1] == 0);
    fl_midpoint_free(d);
    d = NULL;
    fl_midpoint_sparse *sp = NULL;
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_OK);
    cr_assert_eq(fl_midpoint_step_sparse(sp, st3, NULL, &err), FL_EDIM);
    cr_assert(strstr(err.message, "state does not match"));
    cr_assert_eq(fl_midpoint_step_sparse(sp, NULL, NULL, &err), FL_EDIM);
    fl_midpoint_free_sparse(sp);
    /* the static problem: u of the wrong size */
    cr_assert_eq(fl_midpoint_static(&P.p, u3, &err), FL_EDIM);
    cr_assert(strstr(err.message, "static: u must have n entries"));
    fl_midpoint_state_free(st3);
    fl_midpoint_state_free(st);
    gsl_vector_free(y3);
    gsl_vector_free(y2);
    gsl_vector_free(u3);
#undef REFUSE
    gsl_matrix_free(B3);
    gsl_matrix_free(M3);
    gsl_matrix_free(B21);
    prob_free(&P);
}

Test(cov_midpoint, sparse_stepper_fields, .init = setup, .fini = teardown)
{
    mp_prob P;
    prob_init(&P);
    fl_midpoint_sparse *sp = NULL;
    fl_error err;
    cholmod_sparse *keep, *full = NULL, *pat = NULL, *B13 = NULL, *B21 = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, P.I2, 0, 0.0, &full, NULL), FL_OK);
    gsl_matrix *d13 = gsl_matrix_calloc(1, 3), *d21 = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(d13, 0, 1, 1.0);
    gsl_matrix_set(d21, 0, 1, 1.0);
    cr_assert_eq(fl_sparse_from_dense(&ctx, d13, 0, 0.0, &B13, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, d21, 0, 0.0, &B21, NULL), FL_OK);
    pat = cholmod_copy_sparse(P.Bnu_s, &ctx.cm);
    cr_assert(pat && cholmod_sparse_xtype(CHOLMOD_PATTERN, pat, &ctx.cm));
#define REFUSE(field, value, st, needle)                                                      \
    do {                                                                                      \
        keep = P.p.field;                                                                     \
        P.p.field = value;                                                                    \
        cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), st, #field ": %s",       \
                     err.message);                                                            \
        cr_assert(strstr(err.message, needle), "%s", err.message);                            \
        cr_assert_null(sp);                                                                   \
        P.p.field = keep;                                                                     \
    } while (0)
    REFUSE(A_s, NULL, FL_EDIM, "symmetric A_s, Mr0_s");
    REFUSE(Mr0_s, NULL, FL_EDIM, "symmetric A_s, Mr0_s");
    REFUSE(Bnu_s, NULL, FL_EDIM, "symmetric A_s, Mr0_s");
    REFUSE(Btau_s, NULL, FL_EDIM, "symmetric A_s, Mr0_s");
    REFUSE(A_s, full, FL_EDIM, "symmetric A_s, Mr0_s");
    REFUSE(Mr0_s, full, FL_EDIM, "symmetric A_s, Mr0_s");
    REFUSE(A_s, B21, FL_EDIM, "symmetric A_s, Mr0_s");    /* unsymmetric storage too */
    REFUSE(Bnu_s, P.Is, FL_EDIM, "sparse contact rows");   /* symmetric storage */
    REFUSE(Btau_s, B13, FL_EDIM, "sparse contact rows");   /* 1 x 3 */
    REFUSE(Bnu_s, B21, FL_EDIM, "sparse contact rows");    /* 2 x 2 */
    REFUSE(Bnu_s, pat, FL_EDIM, "sparse contact rows");    /* pattern only */
#undef REFUSE
    /* the low-rank part: U without K, K of the wrong size, rank > 16 */
    gsl_matrix *U = gsl_matrix_calloc(2, 1), *K = gsl_matrix_calloc(1, 1), *K2 = gsl_matrix_calloc(2, 2);
    gsl_matrix *U3 = gsl_matrix_calloc(3, 1), *U17 = gsl_matrix_calloc(2, 17);
    const gsl_matrix *Us[5] = {U, NULL, U, U3, U17}, *Ks[5] = {NULL, K, K2, K, K};
    for (int c = 0; c < 5; c++) {
        P.p.U = Us[c];
        P.p.K = Ks[c];
        cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_EDIM, "case %d", c);
        cr_assert(strstr(err.message, "low-rank part"), "%s", err.message);
    }
    /* U = 0 (k = 1): M_r = Mr0, the free-flight step of the first test */
    P.p.U = U;
    P.p.K = K;
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_OK, "%s", err.message);
    fl_midpoint_state *st = NULL;
    cr_assert_eq(fl_midpoint_state_alloc(2, 1, &st, NULL), FL_OK);
    gsl_vector_set(st->u, 1, 1.0);
    cr_assert_eq(fl_midpoint_step_sparse(sp, st, NULL, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(gsl_vector_get(st->u, 1) - 399.0 / 401.0) <= 1e-14);
    fl_midpoint_state_free(st);
    fl_midpoint_free_sparse(sp);
    gsl_matrix_free(U);
    gsl_matrix_free(K);
    gsl_matrix_free(K2);
    gsl_matrix_free(U3);
    gsl_matrix_free(U17);
    gsl_matrix_free(d13);
    gsl_matrix_free(d21);
    cholmod_free_sparse(&full, &ctx.cm);
    cholmod_free_sparse(&pat, &ctx.cm);
    cholmod_free_sparse(&B13, &ctx.cm);
    cholmod_free_sparse(&B21, &ctx.cm);
    prob_free(&P);
}

Test(cov_midpoint, local_solvers_lemma41_and_triangle_refuse_bad_arguments)
{
    gsl_matrix *D = gsl_matrix_alloc(2, 2), *D3 = gsl_matrix_alloc(3, 3), *D23 = gsl_matrix_alloc(2, 3);
    gsl_matrix_set_identity(D);
    gsl_matrix_set_identity(D3);
    gsl_matrix *sols = gsl_matrix_alloc(4, 2), *sols3 = gsl_matrix_alloc(4, 3);
    gsl_vector *q = gsl_vector_alloc(2), *y3 = gsl_vector_calloc(3), *y = gsl_vector_calloc(2);
    gsl_vector_set(q, 0, -1);
    gsl_vector_set(q, 1, 3);
    size_t nsol;
    int it;
    fl_error err;
    /* D = I, q = (-1, 3), F = 1/2: r_n = 1 (w_n = 0), w_t = r_t + 3 > 0 so
     * r_t = -F r_n = -1/2 (slide), w_t = 2.5: unique. */
    cr_assert_eq(fl_midpoint_local_enumerate(D, q, 0.5, sols, &nsol, &err), FL_OK);
    cr_assert_eq(nsol, 1);
    cr_assert(fabs(gsl_matrix_get(sols, 0, 0) - 1) <= 1e-14 &&
              fabs(gsl_matrix_get(sols, 0, 1) + 0.5) <= 1e-14);
    cr_assert_eq(fl_midpoint_local_gs(D, q, 0.5, 1e-14, 50, y, &it, &err), FL_OK);
    cr_assert(fabs(y->data[0] - 1) <= 1e-14 && fabs(y->data[1] + 0.5) <= 1e-14);
    cr_assert(fl_midpoint_local_residual(D, q, 0.5, y) <= 1e-15);
    /* refusals */
    cr_assert_eq(fl_midpoint_local_enumerate(D3, y3, 0.5, sols3, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_enumerate(D23, q, 0.5, sols, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_enumerate(D, q, 0.5, NULL, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_enumerate(D, q, 0.5, sols3, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_enumerate(D, q, NAN, sols, &nsol, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "friction coefficient"));
    cr_assert_eq(fl_midpoint_local_enumerate(D, q, INFINITY, sols, &nsol, &err), FL_EINVAL);
    cr_assert_eq(fl_midpoint_local_gs(D3, y3, 0.5, 1e-12, 10, y3, &it, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_gs(D23, q, 0.5, 1e-12, 10, y, &it, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_gs(D, q, 0.5, 1e-12, 10, y3, &it, &err), FL_EDIM);
    /* Lemma 4.1: every size checked */
    gsl_matrix *A = gsl_matrix_alloc(2, 2), *Bn = gsl_matrix_calloc(1, 2), *Bn3 = gsl_matrix_calloc(1, 3);
    gsl_matrix *B0 = gsl_matrix_calloc(1, 2);
    gsl_matrix_set_identity(A);
    gsl_vector *f = gsl_vector_calloc(2), *up = gsl_vector_calloc(2), *uN = gsl_vector_alloc(2);
    gsl_vector *lam = gsl_vector_alloc(1), *lam2 = gsl_vector_alloc(2);
    cr_assert_eq(fl_midpoint_lemma41(D23, f, Bn, up, uN, lam, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_lemma41(A, y3, Bn, up, uN, lam, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_lemma41(A, f, Bn3, up, uN, lam, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_lemma41(A, f, Bn, y3, uN, lam, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_lemma41(A, f, Bn, up, y3, lam, &err), FL_EDIM);
    cr_assert_eq(fl_midpoint_lemma41(A, f, Bn, up, uN, lam2, &err), FL_EDIM);
    cr_assert(strstr(err.message, "Lemma 4.1: dimensions"));
    /* a zero normal row: A_NN = 0 has a non-positive diagonal */
    cr_assert_eq(fl_midpoint_lemma41(A, f, B0, up, uN, lam, &err), FL_ENOTSPD);
    cr_assert(strstr(err.message, "non-positive diagonal"));
    /* the triangle of 002 §6: every parameter checked */
    double tsol[8];
    const double good[9] = {1, 1, 1, 1, 0.1, 0.5, 0, -1, 0};
    for (int k = 0; k < 9; k++) {
        if (k == 4 || k == 5) continue;   /* dt and F are checked by the stepper */
        double a[9];
        memcpy(a, good, sizeof a);
        a[k] = k < 4 ? -1.0 : NAN;
        if (k == 1) a[k] = 0.0;           /* mu_lame > 0 */
        cr_assert_eq(fl_model_triangle_002(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], 4,
                                              tsol, &nsol, &err), FL_EINVAL, "parameter %d", k);
        cr_assert(strstr(err.message, "triangle of 002"));
        a[k] = INFINITY;
        cr_assert_eq(fl_model_triangle_002(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], 4,
                                              tsol, &nsol, &err), FL_EINVAL, "parameter %d inf", k);
    }
    gsl_matrix_free(A);
    gsl_matrix_free(Bn);
    gsl_matrix_free(Bn3);
    gsl_matrix_free(B0);
    gsl_vector_free(f);
    gsl_vector_free(up);
    gsl_vector_free(uN);
    gsl_vector_free(lam);
    gsl_vector_free(lam2);
    gsl_matrix_free(D);
    gsl_matrix_free(D3);
    gsl_matrix_free(D23);
    gsl_matrix_free(sols);
    gsl_matrix_free(sols3);
    gsl_vector_free(q);
    gsl_vector_free(y3);
    gsl_vector_free(y);
}

Test(cov_midpoint, remaining_shape_checks, .init = setup, .fini = teardown)
{
    mp_prob P;
    prob_init(&P);
    fl_error err;
    /* enumeration is capped at 8 contacts whatever enum_max_contacts says */
    fl_midpoint_problem big = {.n = 18, .nc = 9, .mu = 0.5};
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = 0.1;
    o.solver = FL_MIDPOINT_LOCAL_ENUM;
    o.enum_max_contacts = 100;
    cr_assert_eq(fl_midpoint_check_options(&big, &o, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "enumeration refused for 9 contacts"));
    /* dense M_r and A of the wrong shape */
    fl_midpoint *d = NULL;
    gsl_matrix *M23 = gsl_matrix_calloc(2, 3), *M32 = gsl_matrix_calloc(3, 2);
    const gsl_matrix *wrong[2] = {M23, M32};
    for (int k = 0; k < 2; k++) {
        P.p.Mr = wrong[k];
        cr_assert_eq(fl_midpoint_alloc(&P.p, &P.o, &d, &err), FL_EDIM);
        P.p.Mr = P.I2;
        P.p.A = wrong[k];
        cr_assert_eq(fl_midpoint_alloc(&P.p, &P.o, &d, &err), FL_EDIM);
        cr_assert(strstr(err.message, "dense M_r and A must be 2 x 2"));
        P.p.A = P.I2;
    }
    /* the static problem refuses the same problems */
    gsl_vector *u = gsl_vector_alloc(2);
    P.p.A = NULL;
    cr_assert_eq(fl_midpoint_static(&P.p, u, &err), FL_EDIM);
    P.p.A = P.I2;
    /* f = (0, 1), A = I, contact u_2 >= 0 (gap = -nu.u = u_2): the free
     * minimiser u = A^-1 f = (0, 1) is admissible, so u = (0, 1) */
    gsl_vector_set(P.f, 1, 1.0);
    cr_assert_eq(fl_midpoint_static(&P.p, u, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(u->data[0]) <= 1e-14 && fabs(u->data[1] - 1) <= 1e-14);
    /* f = (0, -1): pushed into the foundation, u = (0, 0) */
    gsl_vector_set(P.f, 1, -1.0);
    cr_assert_eq(fl_midpoint_static(&P.p, u, &err), FL_OK, "%s", err.message);
    cr_assert(fabs(u->data[0]) <= 1e-14 && fabs(u->data[1]) <= 1e-14);
    gsl_vector_set(P.f, 1, 0.0);
    /* states with the wrong number of contacts, both steppers */
    fl_midpoint_state *st2 = NULL;
    cr_assert_eq(fl_midpoint_state_alloc(2, 2, &st2, NULL), FL_OK);
    cr_assert_eq(fl_midpoint_alloc(&P.p, &P.o, &d, &err), FL_OK);
    cr_assert_eq(fl_midpoint_step(d, st2, NULL, &err), FL_EDIM);
    fl_midpoint_free(d);
    fl_midpoint_sparse *sp = NULL;
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_OK);
    cr_assert_eq(fl_midpoint_step_sparse(sp, st2, NULL, &err), FL_EDIM);
    fl_midpoint_free_sparse(sp);
    fl_midpoint_state_free(st2);
    /* sparse shapes: Mr0_s of another size, K of the wrong width, unpacked
     * contact rows */
    cholmod_sparse *I3 = NULL;
    gsl_matrix *d3 = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(d3);
    cr_assert_eq(fl_sparse_from_dense(&ctx, d3, 1, 0.0, &I3, NULL), FL_OK);
    P.p.Mr0_s = I3;
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_EDIM);
    P.p.Mr0_s = P.Is;
    gsl_matrix *U = gsl_matrix_calloc(2, 1), *K12 = gsl_matrix_calloc(1, 2);
    P.p.U = U;
    P.p.K = K12;
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_EDIM);
    cr_assert(strstr(err.message, "low-rank part"));
    P.p.U = NULL;
    P.p.K = NULL;
    cholmod_sparse *Bu = cholmod_allocate_sparse(1, 2, 1, 1, 0, 0, CHOLMOD_REAL, &ctx.cm);
    cr_assert_not_null(Bu);
    ((int *)Bu->p)[0] = 0;
    ((int *)Bu->p)[1] = 0;
    ((int *)Bu->p)[2] = 1;
    ((int *)Bu->nz)[0] = 0;
    ((int *)Bu->nz)[1] = 1;
    ((int *)Bu->i)[0] = 0;
    ((double *)Bu->x)[0] = -1.0;
    P.p.Btau_s = Bu;
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_EDIM);
    cr_assert(strstr(err.message, "sparse contact rows must be packed"));
    P.p.Btau_s = P.Btau_s;
    cholmod_sparse *B31 = NULL;
    gsl_matrix *d22 = gsl_matrix_calloc(2, 2);
    cr_assert_eq(fl_sparse_from_dense(&ctx, d22, 0, 0.0, &B31, NULL), FL_OK);
    P.p.Btau_s = B31;   /* 2 rows for 1 contact */
    cr_assert_eq(fl_midpoint_alloc_sparse(&P.p, &P.o, &sp, &err), FL_EDIM);
    P.p.Btau_s = P.Btau_s;
    cholmod_free_sparse(&B31, &ctx.cm);
    cholmod_free_sparse(&Bu, &ctx.cm);
    cholmod_free_sparse(&I3, &ctx.cm);
    gsl_matrix_free(d22);
    gsl_matrix_free(d3);
    gsl_matrix_free(U);
    gsl_matrix_free(K12);
    gsl_matrix_free(M23);
    gsl_matrix_free(M32);
    gsl_vector_free(u);
    prob_free(&P);
}
