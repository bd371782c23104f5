/* test_stability_refusals.c — the stability analysis of 004 §2–§5
 * (reference/stability.c, optimized/stability_sparse.c): the same bad
 * systems fed to both twins' tangent construction (same status, message
 * naming the field: the twins share fl_stability_check_contacts), the argument
 * checks of the partition, the jumps, the eigen-solvers and the Rayleigh
 * roots, and closed forms of a diagonal system.
 *
 * Closed forms: K = diag(2, 3), M = I, one particle (T = dof 0, N = dof 1)
 * free (P_f): S* = both dofs, K* = K, so min eig K*_S = 2, and the
 * generalized eigenvalues of K V = Lambda M V are 2 and 3.  With Rayleigh
 * damping C = alpha M + beta K the roots of lambda^2 + (alpha + beta k)
 * lambda + k = 0 are, for alpha = beta = 0, lambda = +- i sqrt(k). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/stability.h"
#include "optimized/stability_sparse.h"
#include "twin_check.h"


typedef struct twin_sys {
    gsl_matrix *K, *M;
    cholmod_sparse *Ks, *Ms;
    size_t iT, iN;
    unsigned char pres[2];
    fl_stability_system d;
    fl_stability_system_sparse s;
    gsl_vector *r;
} twin_sys;

static void twin_init(twin_sys *T)
{
    memset(T, 0, sizeof *T);
    T->K = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(T->K, 0, 0, 2);
    gsl_matrix_set(T->K, 1, 1, 3);
    T->M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(T->M);
    cr_assert_eq(fl_sparse_from_dense(&ctx, T->K, 1, 0.0, &T->Ks, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, T->M, 0, 0.0, &T->Ms, NULL), FL_OK);
    T->iT = 0;
    T->iN = 1;
    T->d = (fl_stability_system){.n = 2, .K = T->K, .M = T->M, .prescribed = NULL, .np = 1,
                            .iT = &T->iT, .iN = &T->iN, .mu = 0.5};
    T->s = (fl_stability_system_sparse){.n = 2, .K = T->Ks, .M = T->Ms, .prescribed = NULL, .np = 1,
                                   .iT = &T->iT, .iN = &T->iN, .mu = 0.5};
    T->r = gsl_vector_calloc(2);
}

static void twin_free(twin_sys *T)
{
    gsl_matrix_free(T->K);
    gsl_matrix_free(T->M);
    cholmod_free_sparse(&T->Ks, &ctx.cm);
    cholmod_free_sparse(&T->Ms, &ctx.cm);
    gsl_vector_free(T->r);
}

/* Both twins' tangent construction with the same data; statuses in s[2]. */
static void both_tangent(twin_sys *T, const fl_stability_label *lab, int null_r, fl_status s[2],
                         fl_error err[2])
{
    fl_stability_tangent *t = NULL;
    fl_stability_tangent_sparse *ts = NULL;
    s[0] = fl_stability_tangent_alloc(&T->d, lab, null_r ? NULL : T->r, &t, &err[0]);
    s[1] = fl_stability_tangent_alloc_sparse(&ctx, &T->s, lab, null_r ? NULL : T->r->data, &ts, &err[1]);
    fl_stability_tangent_free(t);
    fl_stability_tangent_free_sparse(&ctx, ts);
}

#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { both_tangent(&T, &lab, 0, s, err); SAME(want, needle); } while (0)

Test(cov_stability, both_twins_refuse_the_same_systems, .init = setup, .fini = teardown)
{
    twin_sys T;
    twin_init(&T);
    fl_status s[2];
    fl_error err[2];
    fl_stability_label lab = FL_STAB_PF;
    both_tangent(&T, &lab, 0, s, err);
    cr_assert_eq(s[0], FL_OK);
    cr_assert_eq(s[1], FL_OK);
    /* missing matrices or indices */
    T.d.K = NULL;
    T.s.K = NULL;
    EXPECT(FL_EINVAL, "missing K, M or contact indices");
    T.d.K = T.K;
    T.s.K = T.Ks;
    T.d.M = NULL;
    T.s.M = NULL;
    EXPECT(FL_EINVAL, "missing K, M or contact indices");
    T.d.M = T.M;
    T.s.M = T.Ms;
    T.d.iT = T.s.iT = NULL;
    EXPECT(FL_EINVAL, "missing K, M or contact indices");
    T.d.iT = T.s.iT = &T.iT;
    T.d.iN = T.s.iN = NULL;
    EXPECT(FL_EINVAL, "missing K, M or contact indices");
    T.d.iN = T.s.iN = &T.iN;
    /* sizes */
    T.d.n = T.s.n = 3;
    EXPECT(FL_EDIM, "K and M must be 3x3");
    T.d.n = T.s.n = 0;
    EXPECT(FL_EDIM, "K and M must be 0x0");
    T.d.n = T.s.n = 2;
    /* non-finite values */
    gsl_matrix_set(T.K, 1, 1, NAN);
    ((double *)T.Ks->x)[1] = NAN;
    EXPECT(FL_ENONFINITE, "stiffness K(1,1) is not finite");
    gsl_matrix_set(T.K, 1, 1, 3);
    ((double *)T.Ks->x)[1] = 3;
    gsl_matrix_set(T.M, 0, 0, INFINITY);
    ((double *)T.Ms->x)[0] = INFINITY;
    EXPECT(FL_ENONFINITE, "mass M(0,0) is not finite");
    gsl_matrix_set(T.M, 0, 0, 1);
    ((double *)T.Ms->x)[0] = 1;
    /* mu */
    T.d.mu = T.s.mu = NAN;
    EXPECT(FL_EINVAL, "mu = nan");
    T.d.mu = T.s.mu = -1;
    EXPECT(FL_EINVAL, "mu = -1");
    T.d.mu = T.s.mu = 0.5;
    /* contact dofs: repeated, out of range, prescribed */
    T.iN = 0;
    EXPECT(FL_EINVAL, "contact particle 0: dof 0");
    T.iN = 5;
    EXPECT(FL_EINVAL, "contact particle 0: dof 5");
    T.iN = 1;
    T.pres[1] = 1;
    T.d.prescribed = T.s.prescribed = T.pres;
    EXPECT(FL_EINVAL, "contact particle 0: dof 1");
    T.pres[1] = 0;
    /* labels and r */
    both_tangent(&T, NULL, 0, s, err);
    SAME(FL_EDIM, "labels and r");
    both_tangent(&T, &lab, 1, s, err);
    SAME(FL_EDIM, "labels and r");
    fl_stability_label bad = (fl_stability_label)7, stuck = FL_STAB_PD;
    both_tangent(&T, &bad, 0, s, err);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    both_tangent(&T, &stuck, 0, s, err);   /* both dofs stuck: S* empty */
    SAME(FL_EINVAL, "S* is empty");
    /* a sparse matrix the twin cannot read: pattern only */
    cholmod_sparse *P = cholmod_copy_sparse(T.Ms, &ctx.cm);
    cr_assert(P && cholmod_sparse_xtype(CHOLMOD_PATTERN, P, &ctx.cm));
    T.s.M = P;
    fl_stability_tangent_sparse *ts = NULL;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &T.s, &lab, T.r->data, &ts, &err[1]),
                 FL_EINVAL);
    cr_assert(strstr(err[1].message, "mass M must be a real"), "%s", err[1].message);
    cr_assert_null(ts);
    cholmod_free_sparse(&P, &ctx.cm);
    twin_free(&T);
}

Test(cov_stability, diagonal_system_closed_forms_both_twins, .init = setup, .fini = teardown)
{
    twin_sys T;
    twin_init(&T);
    fl_stability_label lab = FL_STAB_PF;
    fl_stability_tangent *t = NULL;
    fl_stability_tangent_sparse *ts = NULL;
    cr_assert_eq(fl_stability_tangent_alloc(&T.d, &lab, T.r, &t, NULL), FL_OK);
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &T.s, &lab, T.r->data, &ts, NULL), FL_OK);
    fl_stability_result res;
    cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, &res, NULL), FL_OK);
    cr_assert(fabs(res.ks_min - 2) <= 1e-14, "%g", res.ks_min);
    cr_assert(res.ks_cholesky_pd);
    cr_assert(fabs(res.lam_re[0] - 2) <= 1e-13 && fabs(res.lam_re[1] - 3) <= 1e-13);
    cr_assert_eq(res.divergence, 0);
    cr_assert_eq(res.flutter, 0);
    fl_stability_result_free(&res);
    fl_stability_options o = fl_stability_options_default();
    cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = ts}, &o, &res, NULL), FL_OK);
    cr_assert(fabs(res.ks_min - 2) <= 1e-10, "%g", res.ks_min);
    fl_stability_result_free(&res);
    /* the sparse analyse of an empty or incomplete tangent is refused */
    fl_error err;
    fl_stability_tangent_sparse empty = *ts;
    empty.KS = NULL;
    cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = &empty}, NULL, &res, &err), FL_EINVAL);
    empty = *ts;
    empty.nstar = 0;
    cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = &empty}, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = NULL}, NULL, &res, &err), FL_EINVAL);
    /* the modes: N* = 2 < 3 leaves no mode to ARPACK: refused */
    cr_assert_eq(fl_stability_modes_sparse(&ctx, ts, NULL, 100, &res, &err), FL_EDIM);
    cr_assert_eq(fl_stability_modes_sparse(&ctx, NULL, NULL, 100, &res, &err), FL_EDIM);
    /* Rayleigh roots: alpha, beta non-finite refused by both */
    double lre[5], lim[5];
    size_t nroots = 9;
    cr_assert_eq(fl_stability_rayleigh(t->Kstar, t->Mstar, NAN, 0, lre, lim, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "Rayleigh coefficients"));
    cr_assert_eq(fl_stability_rayleigh(t->Kstar, t->Mstar, 0, INFINITY, lre, lim, &err), FL_ENONFINITE);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, ts, NAN, 0, 2, 100, lre, lim, &nroots, &err),
                 FL_ENONFINITE);
    cr_assert(strstr(err.message, "Rayleigh coefficients"));
    cr_assert_eq(nroots, 0);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, ts, 0, INFINITY, 2, 100, lre, lim, &nroots, &err),
                 FL_ENONFINITE);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, ts, 0, 0, 0, 100, lre, lim, &nroots, &err),
                 FL_EDIM);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, NULL, 0, 0, 2, 100, lre, lim, &nroots, &err),
                 FL_EDIM);
    /* undamped roots +- i sqrt(2), +- i sqrt(3) (reference, sorted by |Im|) */
    cr_assert_eq(fl_stability_rayleigh(t->Kstar, t->Mstar, 0, 0, lre, lim, &err), FL_OK);
    cr_assert(fabs(fabs(lim[0]) - sqrt(2)) <= 1e-12 && fabs(lre[0]) <= 1e-12);
    cr_assert(fabs(fabs(lim[3]) - sqrt(3)) <= 1e-12 && fabs(lre[3]) <= 1e-12);
    fl_stability_tangent_free(t);
    fl_stability_tangent_free_sparse(&ctx, ts);
    twin_free(&T);
}

Test(cov_stability, eigen_solvers_refuse_bad_arguments)
{
    gsl_matrix *A = gsl_matrix_alloc(2, 2), *B = gsl_matrix_alloc(2, 3), *Z = gsl_matrix_calloc(2, 2);
    gsl_matrix *E3 = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(A);
    gsl_vector *v3 = gsl_vector_alloc(3);
    gsl_matrix A0 = {0, 0, 0, NULL, NULL, 0};
    double lmin, re[4], im[4];
    fl_error err;
    /* symmetric minimum */
    cr_assert_eq(fl_stability_sym_min(&A0, &lmin, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_sym_min(B, &lmin, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_sym_min(A, &lmin, v3, &err), FL_EDIM);
    cr_assert(strstr(err.message, "bad dimensions"));
    gsl_matrix_set(A, 0, 1, NAN);
    cr_assert_eq(fl_stability_sym_min(A, &lmin, NULL, &err), FL_ENONFINITE);
    /* cone minimum */
    int cs[2] = {1, 0};
    cr_assert_eq(fl_stability_cone_min(B, cs, 12, &lmin, NULL, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_cone_min(A, cs, 12, &lmin, v3, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_cone_min(A, cs, 12, &lmin, NULL, NULL, &err), FL_ENONFINITE);
    gsl_matrix_set(A, 0, 1, 0);
    /* generalized eigenproblem */
    cr_assert_eq(fl_stability_gen_eig(B, NULL, re, im, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_gen_eig(A, B, re, im, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_gen_eig(A, NULL, re, im, E3, &err), FL_EDIM);
    cr_assert(strstr(err.message, "generalized eigenproblem: bad dimensions"));
    gsl_matrix_set(A, 1, 0, INFINITY);
    cr_assert_eq(fl_stability_gen_eig(A, NULL, re, im, NULL, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "K*"));
    gsl_matrix_set(A, 1, 0, 0);
    gsl_matrix_set(Z, 0, 0, NAN);
    cr_assert_eq(fl_stability_gen_eig(A, Z, re, im, NULL, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "M*"));
    /* M* = 0: every generalized eigenvalue infinite */
    gsl_matrix_set(Z, 0, 0, 0);
    cr_assert_eq(fl_stability_gen_eig(A, Z, re, im, NULL, &err), FL_ESINGULAR);
    cr_assert(strstr(err.message, "M* is singular"));
    /* M* = diag(1, 0): one infinite eigenvalue among finite ones */
    gsl_matrix_set(Z, 0, 0, 1);
    cr_assert_eq(fl_stability_gen_eig(A, Z, re, im, NULL, &err), FL_ESINGULAR);
    /* Rayleigh: dimensions, non-finite matrices, singular M* */
    cr_assert_eq(fl_stability_rayleigh(B, A, 0, 0, re, im, &err), FL_EDIM);
    cr_assert_eq(fl_stability_rayleigh(A, B, 0, 0, re, im, &err), FL_EDIM);
    cr_assert_eq(fl_stability_rayleigh(&A0, A, 0, 0, re, im, &err), FL_EDIM);
    gsl_matrix_set(A, 0, 0, NAN);
    cr_assert_eq(fl_stability_rayleigh(A, A, 0, 0, re, im, &err), FL_ENONFINITE);
    gsl_matrix_set(A, 0, 0, 1);
    gsl_matrix_set(Z, 1, 1, NAN);
    cr_assert_eq(fl_stability_rayleigh(A, Z, 0, 0, re, im, &err), FL_ENONFINITE);
    gsl_matrix_set(Z, 1, 1, 0);
    gsl_matrix_set(Z, 0, 0, 0);
    cr_assert_eq(fl_stability_rayleigh(A, Z, 0, 0, re, im, &err), FL_ESINGULAR);
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    gsl_matrix_free(Z);
    gsl_matrix_free(E3);
    gsl_vector_free(v3);
}

Test(cov_stability, partition_and_jumps_refuse_bad_arguments, .init = setup, .fini = teardown)
{
    twin_sys T;
    twin_init(&T);
    gsl_vector *u = gsl_vector_calloc(2), *u3 = gsl_vector_calloc(3);
    gsl_matrix *As = gsl_matrix_alloc(2, 2), *As3 = gsl_matrix_alloc(3, 2);
    fl_stability_label lab;
    fl_error err;
    size_t nsol;
    cr_assert_eq(fl_stability_partition(&T.d, NULL, T.r, 0, &lab, &err), FL_EDIM);
    cr_assert_eq(fl_stability_partition(&T.d, u, NULL, 0, &lab, &err), FL_EDIM);
    cr_assert_eq(fl_stability_partition(&T.d, u, T.r, 0, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_partition(&T.d, u3, T.r, 0, &lab, &err), FL_EDIM);
    cr_assert_eq(fl_stability_partition(&T.d, u, u3, 0, &lab, &err), FL_EDIM);
    cr_assert(strstr(err.message, "u and r must have length 2"));
    gsl_vector_set(u, 0, NAN);
    cr_assert_eq(fl_stability_partition(&T.d, u, T.r, 0, &lab, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "displacement u"));
    gsl_vector_set(u, 0, 0);
    gsl_vector_set(T.r, 1, INFINITY);
    cr_assert_eq(fl_stability_partition(&T.d, u, T.r, 0, &lab, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "reaction r"));
    gsl_vector_set(T.r, 1, 0);
    cr_assert_eq(fl_stability_partition(&T.d, u, T.r, -1, &lab, &err), FL_EINVAL);
    cr_assert_eq(fl_stability_partition(&T.d, u, T.r, NAN, &lab, &err), FL_EINVAL);
    /* u = r = 0: in contact without reaction, P_z (004 §2.3) */
    cr_assert_eq(fl_stability_partition(&T.d, u, T.r, 0, &lab, &err), FL_OK);
    cr_assert_eq(lab, FL_STAB_PZ);
    /* jumps: every dimension checked */
    cr_assert_eq(fl_stability_jumps(&T.d, NULL, T.r, 1e-9, 0, NULL, NULL, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, NULL, 1e-9, 0, NULL, NULL, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u3, T.r, 1e-9, 0, NULL, NULL, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, u3, 1e-9, 0, NULL, NULL, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 2, NULL, As, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 2, As, NULL, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 2, As3, As, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 2, As, As3, &nsol, &err), FL_EDIM);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 3, As, As, &nsol, &err), FL_EDIM);
    cr_assert(strstr(err.message, "jumps: bad dimensions"));
    gsl_vector_set(u, 1, NAN);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 0, NULL, NULL, &nsol, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "u0"));
    gsl_vector_set(u, 1, 0);
    gsl_vector_set(T.r, 1, NAN);
    cr_assert_eq(fl_stability_jumps(&T.d, u, T.r, 1e-9, 0, NULL, NULL, &nsol, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "r0"));
    gsl_vector_set(T.r, 1, 0);
    /* more than 12 contact particles: 26 dofs, 13 particles */
    gsl_matrix *K26 = gsl_matrix_alloc(26, 26);
    gsl_matrix_set_identity(K26);
    size_t iT[13], iN[13];
    for (size_t p = 0; p < 13; p++) {
        iT[p] = 2 * p;
        iN[p] = 2 * p + 1;
    }
    fl_stability_system big = {.n = 26, .K = K26, .M = K26, .np = 13, .iT = iT, .iN = iN, .mu = 0.1};
    gsl_vector *u26 = gsl_vector_calloc(26);
    cr_assert_eq(fl_stability_jumps(&big, u26, u26, 1e-9, 0, NULL, NULL, &nsol, &err), FL_EUNSUPPORTED);
    cr_assert(strstr(err.message, "more than 12"));
    gsl_vector_free(u26);
    gsl_matrix_free(K26);
    gsl_vector_free(u);
    gsl_vector_free(u3);
    gsl_matrix_free(As);
    gsl_matrix_free(As3);
    twin_free(&T);
}

Test(cov_stability, more_shapes_refused_alike_and_sparse_modes, .init = setup, .fini = teardown)
{
    twin_sys T;
    twin_init(&T);
    fl_status s[2];
    fl_error err[2];
    fl_stability_label lab = FL_STAB_PF;
    /* K 2x3 and M 3x2 (dense and sparse alike) */
    gsl_matrix *K23 = gsl_matrix_calloc(2, 3), *M32 = gsl_matrix_calloc(3, 2);
    cholmod_sparse *K23s = NULL, *M32s = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, K23, 0, 0.0, &K23s, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, M32, 0, 0.0, &M32s, NULL), FL_OK);
    T.d.K = K23;
    T.s.K = K23s;
    EXPECT(FL_EDIM, "K and M must be 2x2");
    T.d.K = T.K;
    T.s.K = T.Ks;
    T.d.M = M32;
    T.s.M = M32s;
    EXPECT(FL_EDIM, "K and M must be 2x2");
    T.d.M = T.M;
    T.s.M = T.Ms;
    /* a pattern-only K in the sparse twin */
    cholmod_sparse *P = cholmod_copy_sparse(T.Ks, &ctx.cm);
    cr_assert(P && cholmod_sparse_xtype(CHOLMOD_PATTERN, P, &ctx.cm));
    T.s.K = P;
    fl_stability_tangent_sparse *ts = NULL;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &T.s, &lab, T.r->data, &ts, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "stiffness K must be a real"));
    T.s.K = T.Ks;
    cholmod_free_sparse(&P, &ctx.cm);
    /* K* singular (K = diag(0, 3)): lambda = 0 is a root of the damped
     * problem, which the sparse twin (LU of K*) refuses */
    ((double *)T.Ks->x)[0] = 0.0;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &T.s, &lab, T.r->data, &ts, &err[1]), FL_OK);
    double lre[4], lim[4];
    size_t nroots;
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, ts, 0, 0, 2, 100, lre, lim, &nroots, &err[1]),
                 FL_ESINGULAR);
    cr_assert(strstr(err[1].message, "K* is singular"), "%s", err[1].message);
    fl_stability_tangent_free_sparse(&ctx, ts);
    ((double *)T.Ks->x)[0] = 2.0;
    cholmod_free_sparse(&K23s, &ctx.cm);
    cholmod_free_sparse(&M32s, &ctx.cm);
    gsl_matrix_free(K23);
    gsl_matrix_free(M32);
    twin_free(&T);
    /* N* = 3: K = diag(2, 3, 5), M = I, one free particle (dofs 0, 1) and
     * a free dof 2.  The generalized eigenvalues are 2, 3, 5; the sparse
     * modes compute min(nev, N* - 2) = 1 of them, the smallest: 2, real,
     * positive: no divergence, no flutter (004 §5.4 (ii), (iii)). */
    gsl_matrix *K = gsl_matrix_calloc(3, 3), *M = gsl_matrix_alloc(3, 3);
    gsl_matrix_set(K, 0, 0, 2);
    gsl_matrix_set(K, 1, 1, 3);
    gsl_matrix_set(K, 2, 2, 5);
    gsl_matrix_set_identity(M);
    cholmod_sparse *Ks = NULL, *Ms = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, K, 1, 0.0, &Ks, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, M, 0, 0.0, &Ms, NULL), FL_OK);
    size_t iT = 0, iN = 1;
    double r3[3] = {0, 0, 0};
    fl_stability_system_sparse s3 = {.n = 3, .K = Ks, .M = Ms, .np = 1, .iT = &iT, .iN = &iN, .mu = 0.5};
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s3, &lab, r3, &ts, &err[1]), FL_OK);
    fl_stability_result res;
    memset(&res, 0, sizeof res);   /* modes fill (and own) lam_re, lam_im of res */
    cr_assert_eq(fl_stability_modes_sparse(&ctx, ts, NULL, 300, &res, &err[1]), FL_OK, "%s", err[1].message);
    cr_assert_eq(res.nlam, 1);
    cr_assert(fabs(res.lam_re[0] - 2) <= 1e-9 && fabs(res.lam_im[0]) <= 1e-9, "%g %g", res.lam_re[0],
              res.lam_im[0]);
    cr_assert_eq(res.divergence, 0);
    cr_assert_eq(res.flutter, 0);
    fl_stability_result_free(&res);
    fl_stability_options o = fl_stability_options_default();
    cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = ts}, &o, &res, &err[1]), FL_OK, "%s", err[1].message);
    cr_assert(fabs(res.ks_min - 2) <= 1e-9);
    cr_assert(fabs(res.lambda_real_min - 2) <= 1e-9, "%g", res.lambda_real_min);
    fl_stability_result_free(&res);
    fl_stability_tangent_sparse incomplete = *ts;
    incomplete.Kstar = NULL;
    cr_assert_eq(fl_stability_modes_sparse(&ctx, &incomplete, NULL, 300, &res, &err[1]), FL_EDIM);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, &incomplete, 0, 0, 2, 100, lre, lim, &nroots, &err[1]),
                 FL_EDIM);
    incomplete = *ts;
    incomplete.Mstar = NULL;
    cr_assert_eq(fl_stability_modes_sparse(&ctx, &incomplete, NULL, 300, &res, &err[1]), FL_EDIM);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, &incomplete, 0, 0, 2, 100, lre, lim, &nroots, &err[1]),
                 FL_EDIM);
    /* modes of a singular K*: K = diag(0, 3, 5) */
    fl_stability_tangent_free_sparse(&ctx, ts);
    ((double *)Ks->x)[0] = 0.0;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s3, &lab, r3, &ts, &err[1]), FL_OK);
    memset(&res, 0, sizeof res);
    cr_assert_eq(fl_stability_modes_sparse(&ctx, ts, NULL, 300, &res, &err[1]), FL_ESINGULAR);
    fl_stability_result_free(&res);
    fl_stability_tangent_free_sparse(&ctx, ts);
    cholmod_free_sparse(&Ks, &ctx.cm);
    cholmod_free_sparse(&Ms, &ctx.cm);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
}

Test(cov_stability, free_particle_jumps_and_remaining_shapes, .init = setup, .fini = teardown)
{
    twin_sys T;
    twin_init(&T);
    fl_error err;
    /* a free particle (u_N < 0, 004 §2.3 P_f): r = 0 is its only branch, and
     * K A = 0 with K = diag(2, 3) SPD forces A = 0, which (52) excludes: no
     * jump */
    gsl_vector *u0 = gsl_vector_calloc(2);
    gsl_vector_set(u0, 1, -1.0);
    gsl_matrix *As = gsl_matrix_alloc(2, 4), *Rs = gsl_matrix_alloc(2, 4);
    size_t nsol = 99;
    cr_assert_eq(fl_stability_jumps(&T.d, u0, T.r, 1e-9, 4, As, Rs, &nsol, &err), FL_OK, "%s", err.message);
    cr_assert_eq(nsol, 0);
    /* the reference's r of the wrong length */
    gsl_vector *r3 = gsl_vector_calloc(3);
    fl_stability_label lab = FL_STAB_PF;
    fl_stability_tangent *t = NULL;
    cr_assert_eq(fl_stability_tangent_alloc(&T.d, &lab, r3, &t, &err), FL_EDIM);
    cr_assert(strstr(err.message, "labels and r (length 2)"));
    /* generalized eigenproblem: M and evec of the wrong width */
    gsl_matrix *M23 = gsl_matrix_calloc(2, 3);
    double re[2], im[2];
    cr_assert_eq(fl_stability_gen_eig(T.K, M23, re, im, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_gen_eig(T.K, NULL, re, im, M23, &err), FL_EDIM);
    /* K = diag(2, 3), M = I: eigenvalues 2, 3 with the unit vectors */
    gsl_matrix *E = gsl_matrix_alloc(2, 2);
    cr_assert_eq(fl_stability_gen_eig(T.K, T.M, re, im, E, &err), FL_OK);
    cr_assert(fabs(re[0] - 2) <= 1e-14 && fabs(re[1] - 3) <= 1e-14 && im[0] == 0 && im[1] == 0);
    cr_assert(fabs(fabs(gsl_matrix_get(E, 0, 0)) - 1) <= 1e-14 && fabs(gsl_matrix_get(E, 1, 0)) <= 1e-14);
    gsl_matrix_free(E);
    gsl_matrix_free(M23);
    gsl_vector_free(r3);
    gsl_vector_free(u0);
    gsl_matrix_free(As);
    gsl_matrix_free(Rs);
    twin_free(&T);
}
