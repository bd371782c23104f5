/* test_normalisations.c — the three normalisations of the natural-map error
 * (core/fl_residual.h) against their owners' own code, on every problem of
 * the corpus (tests/data/siconos, the rows of its manifest sizes.tsv; a
 * global problem in its local form W = H M^-1 H^T, q = H M^-1 f + w):
 *
 *   FL_RESIDUAL_NORM_Q       e / ||q|| (Acary, Bremond & Huber 2018, §7):
 *                            e recomputed from Siconos's per-contact kernels
 *                            fc3d_unitary_compute_and_add_error /
 *                            fc2d_unitary_compute_and_add_error on (r, U),
 *                            U = W r + q computed by Siconos (NM_gemv).
 *   FL_RESIDUAL_MAX_NORM     Siconos 4.4's fc3d_compute_error /
 *                            fc2d_compute_error, norm = ||q|| (what its
 *                            solvers pass; what `frictionlab solve` prints).
 *   FL_RESIDUAL_FCLIB_MERIT  libfclib's fclib_merit_local (MERIT_1), on 3D
 *                            problems: libfclib 3.1 has no 2D merit (it
 *                            returns 0, asserted below).
 *
 * The impulse r is not a solution: a fixed oscillating pattern, scaled by
 * the problem's impulse scale ||q|| / max diag W, so that all three cases of
 * the cone projection occur (inside K, inside the polar cone, onto the
 * boundary; counted and asserted) and e is of the order of ||q||, far
 * from round-off: both sides must agree to 1e-12 relative.
 */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "fc2d_compute_error.h"
#include "fc3d_compute_error.h"
#include <fclib.h>

#include "fl_residual.h"
#include "fl_sparse.h"
#include "checks/xval.h"

#define REL_TOL 1e-12

/* Full (unsymmetric-storage) CSC copy of W: p->Ws expanded when stored as
 * one triangle. */
static cholmod_sparse *full_csc(const fl_local_problem *p, fl_sparse_ctx *ctx)
{
    cholmod_sparse *A = NULL;
    if (p->Ws) {
        A = cholmod_copy((cholmod_sparse *)p->Ws, 0, 1, &ctx->cm);
    } else {
        cr_assert_eq(fl_sparse_from_dense(ctx, p->W, 0, 0.0, &A, NULL), FL_OK);
    }
    cr_assert_not_null(A);
    cholmod_sort(A, &ctx->cm);
    return A;
}

static FrictionContactProblem *to_siconos(const fl_local_problem *p, const cholmod_sparse *A)
{
    int m = (int)p->m;
    double *q = malloc(p->m * sizeof *q), *mu = malloc((p->nc ? p->nc : 1) * sizeof *mu);
    cr_assert(q && mu);
    memcpy(q, p->q->data, p->m * sizeof *q);
    memcpy(mu, p->mu, p->nc * sizeof *mu);
    const int *Ap = A->p, *Ai = A->i;
    const double *Ax = A->x;
    NumericsMatrix *M = NM_create(NM_SPARSE, m, m);
    NM_triplet_alloc(M, (CS_INT)Ap[A->ncol]);
    for (size_t j = 0; j < A->ncol; j++)
        for (int k = Ap[j]; k < Ap[j + 1]; k++) NM_entry(M, Ai[k], (int)j, Ax[k]);
    return frictionContactProblem_new_with_data(p->dim, (int)p->nc, M, q, mu);
}

/* Which case of the projection of r - Û on K contact a falls in (0 inside
 * K, 1 polar cone, 2 boundary). */
static int projection_case(int dim, double mu, const double *r, const double *U)
{
    double ut = dim == 2 ? fabs(U[1]) : hypot(U[1], U[2]);
    double y[3] = {r[0] - U[0] - mu * ut, r[1] - U[1], dim == 3 ? r[2] - U[2] : 0};
    double yt = dim == 2 ? fabs(y[1]) : hypot(y[1], y[2]);
    if (y[0] >= 0 && yt <= mu * y[0]) return 0;
    if (mu * yt <= -y[0]) return 1;
    return 2;
}

static void assert_rel(double ours, double theirs, const char *what, const char *name)
{
    double d = fabs(ours - theirs), s = fmax(fabs(ours), fabs(theirs));
    cr_assert(d <= REL_TOL * s || d <= DBL_MIN,
              "%s: %s: ours %.17g, owner's %.17g (relative difference %.3g > %.0e)", name, what,
              ours, theirs, s > 0 ? d / s : d, REL_TOL);
}

/* One corpus problem: returns the projection cases seen (bit mask). */
static unsigned check_problem(const fl_xval_case *c, fl_sparse_ctx *ctx, int *fclib_done)
{
    const fl_local_problem *p = c->p;
    size_t m = p->m;
    double nq = gsl_blas_dnrm2(p->q);
    cholmod_sparse *A = full_csc(p, ctx);
    double wmax = 0;
    for (size_t j = 0; j < A->ncol; j++)
        for (int k = ((int *)A->p)[j]; k < ((int *)A->p)[j + 1]; k++)
            if ((size_t)((int *)A->i)[k] == j) wmax = fmax(wmax, ((double *)A->x)[k]);
    double rs = (nq > DBL_EPSILON ? nq : 1.0) / (wmax > 0 ? wmax : 1.0);
    double *r = malloc(m * sizeof *r), *U = malloc(m * sizeof *U), *w = calloc(m, sizeof *w);
    cr_assert(r && U && w);
    for (size_t i = 0; i < m; i++) r[i] = rs * sin(1.7 * (double)i + 0.3) * (i % 3 ? 1.0 : 2.0);

    /* ours: U = W r + q by our code, then the three normalisations */
    gsl_vector_view rv = gsl_vector_view_array(r, m), Uv = gsl_vector_view_array(U, m);
    cr_assert_eq(fl_local_problem_velocity(p, &rv.vector, &Uv.vector, NULL), FL_OK);
    double e_q = fl_residual_natural_map(p->dim, p->nc, p->mu, r, U, nq, FL_RESIDUAL_NORM_Q);
    double e_max = fl_residual_natural_map(p->dim, p->nc, p->mu, r, U, nq, FL_RESIDUAL_MAX_NORM);
    double e_fc = fl_residual_natural_map(p->dim, p->nc, p->mu, r, U, nq, FL_RESIDUAL_FCLIB_MERIT);
    cr_assert(e_q > 1e-6, "%s: the test impulse is too close to a solution (%.3g)", c->name, e_q);

    /* Siconos: its own product w = W r + q, its kernels, its compute_error */
    FrictionContactProblem *sp = to_siconos(p, A);
    NM_gemv(1.0, sp->M, r, 0.0, w);
    for (size_t i = 0; i < m; i++) w[i] += sp->q[i];
    double e2 = 0, work[3];
    unsigned cases = 0;
    for (size_t a = 0; a < p->nc; a++) {
        double *ra = r + a * (size_t)p->dim, *wa = w + a * (size_t)p->dim;
        if (p->dim == 3) fc3d_unitary_compute_and_add_error(ra, wa, p->mu[a], &e2, work);
        else fc2d_unitary_compute_and_add_error(ra, wa, p->mu[a], &e2, work);
        cases |= 1u << projection_case(p->dim, p->mu[a], ra, wa);
    }
    assert_rel(e_q, sqrt(e2) / nq, "e/||q|| vs Siconos's unitary kernels", c->name);
    double es = NAN, *w2 = calloc(m, sizeof *w2);
    cr_assert_not_null(w2);
    if (p->dim == 3) {
        SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
        fc3d_compute_error(sp, r, w2, 1e-300, o, nq, &es);
        solver_options_delete(o);
        free(o);
    } else {
        fc2d_compute_error(sp, r, w2, 1e-300, nq, &es);
    }
    assert_rel(e_max, es, p->dim == 3 ? "fc3d_compute_error" : "fc2d_compute_error", c->name);

    /* FCLIB: fclib_merit_local on the same W (CSC), q, mu */
    struct fclib_matrix W = {(int)((int *)A->p)[A->ncol], (int)m, (int)m, A->p, A->i, A->x,
                             -1, NULL};
    struct fclib_local fl = {&W, NULL, NULL, p->mu, p->q->data, NULL, p->dim, NULL};
    struct fclib_solution sol = {NULL, U, r, NULL};
    double ef = fclib_merit_local(&fl, MERIT_1, &sol);
    if (p->dim == 3) {
        assert_rel(e_fc, ef, "fclib_merit_local", c->name);
        (*fclib_done)++;
    } else {
        cr_assert_eq(ef, 0.0, "%s: libfclib now has a 2D merit (%.3g): test it", c->name, ef);
    }
    free(w2);
    frictionContactProblem_free(sp);
    free(r);
    free(U);
    free(w);
    cholmod_free_sparse(&A, &ctx->cm);
    return cases;
}

Test(normalisations, owners_agree_on_every_corpus_problem, .timeout = 300)
{
    char dir[4096];
    const char *root = getenv("FL_SOURCE_ROOT");
    snprintf(dir, sizeof dir, "%s/tests/data/siconos", root ? root : "..");
    fl_xval_options opt = fl_xval_options_default();
    opt.full = 1;
    opt.corpus_dir = dir;
    size_t n = 0;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &opt, &n, NULL), FL_OK);
    cr_assert_geq(n, 24, "the corpus manifest lists %zu problems", n);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    size_t checked = 0, dim2 = 0;
    int fclib_done = 0;
    unsigned cases = 0;
    for (size_t k = 0; k < n; k++) {
        fl_xval_case c;
        cr_assert_eq(fl_xval_case_make(FL_XVAL_CORPUS, k, &opt, &ctx, &c, NULL), FL_OK);
        cr_assert_not_null(c.p, "%s", c.error);
        if (c.p->nc > 0 && gsl_blas_dnrm2(c.p->q) > 1e-12) {   /* q = 0: no normalisation */
            cases |= check_problem(&c, &ctx, &fclib_done);
            checked++;
            dim2 += c.p->dim == 2;
        }
        fl_xval_case_clear(&c);
    }
    fl_sparse_finish(&ctx);
    cr_log_info("normalisations: %zu corpus problems (%zu 2D), %d against fclib_merit_local",
                checked, dim2, fclib_done);
    cr_assert_geq(checked, 22, "only %zu corpus problems checked", checked);
    cr_assert_geq(dim2, 1);
    cr_assert_geq(fclib_done, 18);
    cr_assert_eq(cases, 7u, "projection cases seen: mask %u, not all three", cases);
}

/* The closed forms on one 3D contact, by hand: r = (1, 0, 0), U = (0, 0, 0),
 * mu = 0.5: Û = 0, r - Û = r in K, F = 0.  r = (0, 0, 0), U = (-1, 0, 0):
 * r - Û = (1, 0, 0) in K, F = -(1,0,0), e = 1; ||q|| = 4: NORM_Q 1/4,
 * FCLIB 1/(1 + 2) = 1/3, MAX_NORM 1/max(0, 1, 4) = 1/4. */
Test(normalisations, closed_forms)
{
    double mu = 0.5, r[3] = {0, 0, 0}, U[3] = {-1, 0, 0};
    cr_assert_float_eq(fl_residual_natural_map(3, 1, &mu, r, U, 4.0, FL_RESIDUAL_NORM_Q), 0.25,
                       1e-15);
    cr_assert_float_eq(fl_residual_natural_map(3, 1, &mu, r, U, 4.0, FL_RESIDUAL_FCLIB_MERIT),
                       1.0 / 3.0, 1e-15);
    cr_assert_float_eq(fl_residual_natural_map(3, 1, &mu, r, U, 4.0, FL_RESIDUAL_MAX_NORM), 0.25,
                       1e-15);
}
