/* test_friction_sets_refusals.c — argument checks of the friction-set
 * construction of 001 §6.1 (reference/friction_set_build.c) and of the
 * rigid-disc systems of 003 §3–§5 (reference/discs.c,
 * optimized/discs_sparse.c): every parameter refused with a message naming
 * it, and a two-disc contact whose global problem is written out by hand.
 *
 * Closed form (proofs/discs.md): two discs of radius 1, mass 1 (I = 1/2),
 * centres (0, 0) and (2, 0) at rest, no gravity: they touch (gap 0); the
 * contact normal from j = 1 to i = 0 is n = (-1, 0), t = (0, -1), so the
 * rows of H are U_N = (v_0 - v_1).n and U_T = (v_0 - v_1).t - w_0 - w_1:
 *   H = [ -1  0  0   1  0  0 ]
 *       [  0 -1 -1   0  1 -1 ]
 * and f = M u + h F = 0, so q = H M^-1 f + w = 0. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/discs.h"
#include "reference/friction_set_build.h"
#include "optimized/discs_sparse.h"
#include "twin_check.h"

Test(cov_fset, bad_contacts_options_and_mass)
{
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *tl = gsl_matrix_alloc(2, 2), *tl5 = gsl_matrix_calloc(5, 2);
    gsl_matrix_set_identity(M);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_calloc(2);
    gsl_vector_set(dphi, 1, 1.0);
    fl_fset_contact c = {tl, {0.0, 1.0, 0.0}, 0.5};
    fl_fset_result r;
    fl_error e;
    /* the plane case that works: C* = mu [-1, 1] on t (001 §6.1) */
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_OK, "%s", e.message);
    cr_assert(r.bounded && r.contains_zero);
    fl_fset_result_release(&r);
    cr_assert_eq(fl_fset_build(NULL, dphi, 1, &c, NULL, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "M, dphi and at least one contact"));
    cr_assert_eq(fl_fset_build(M, NULL, 1, &c, NULL, &r, &e), FL_EINVAL);
    cr_assert_eq(fl_fset_build(M, dphi, 1, NULL, NULL, &r, &e), FL_EINVAL);
    c.mu = NAN;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "contact 0: friction coefficient mu = nan"));
    c.mu = INFINITY;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EINVAL);
    c.mu = 0.5;
    c.tl = NULL;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EDIM);
    c.tl = tl5;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EDIM);
    cr_assert(strstr(e.message, "contact 0: tl must be 2x2"));
    c.tl = tl;
    gsl_matrix_set(tl, 0, 1, NAN);
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_ENONFINITE);
    cr_assert(strstr(e.message, "contact map tl"));
    gsl_matrix_set(tl, 0, 1, 0);
    gsl_vector_set(dphi, 0, INFINITY);
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_ENONFINITE);
    cr_assert(strstr(e.message, "dphi"));
    gsl_vector_set(dphi, 0, 0);
    gsl_matrix_set(M, 0, 0, -1);
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_ENOTSPD);
    gsl_matrix_set(M, 0, 0, 1);
    /* a given basis of the wrong shape */
    gsl_matrix *B13 = gsl_matrix_calloc(1, 3), *B32 = gsl_matrix_calloc(3, 2);
    fl_fset_options o = fl_fset_options_default();
    o.basis = B13;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_EDIM);
    cr_assert(strstr(e.message, "basis must be 1xn or 2xn (n = 2)"), "%s", e.message);
    o.basis = B32;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_EDIM);
    fl_fset_result_release(&r);
    gsl_matrix_free(B13);
    gsl_matrix_free(B32);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_matrix_free(tl5);
    gsl_vector_free(dphi);
}

static fl_discs *two_discs(void)
{
    fl_discs *d = NULL;
    cr_assert_eq(fl_discs_alloc(2, &d, NULL), FL_OK);
    for (size_t i = 0; i < 2; i++) {
        d->x[i] = 2.0 * (double)i;
        d->y[i] = 0;
        d->R[i] = 1;
        d->m[i] = 1;
        d->I[i] = 0.5;
    }
    d->gx = d->gy = 0;
    d->margin = 0.1;
    return d;
}

Test(cov_discs, parameters_refused_and_a_contact_by_hand, .init = setup, .fini = teardown)
{
    fl_discs *d = two_discs();
    fl_error err;
    cr_assert_eq(fl_discs_check(d, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_discs_check(NULL, &err), FL_EINVAL);
    /* per disc: R, m, I > 0 */
    double *field[3] = {&d->R[1], &d->m[1], &d->I[1]};
    for (int k = 0; k < 3; k++) {
        double keep = *field[k];
        *field[k] = 0;
        cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL, "field %d", k);
        cr_assert(strstr(err.message, "disc 1 needs R, m, I > 0"));
        *field[k] = keep;
    }
    d->vy[0] = NAN;
    cr_assert_eq(fl_discs_check(d, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "disc 0"));
    d->vy[0] = 0;
    d->gy = INFINITY;
    cr_assert_eq(fl_discs_check(d, &err), FL_ENONFINITE);
    d->gy = 0;
    /* margin, touch_tol, friction, restitution, walls, band */
    d->margin = 0;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "margin"));
    d->margin = 0.1;
    d->touch_tol = -1;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->touch_tol = 0;
    d->mu_grain = -0.1;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "friction coefficients"));
    d->mu_grain = 0.5;
    d->mu_wall = -0.1;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->mu_wall = 0.5;
    double *rest[4] = {&d->e_grain, &d->e_grain, &d->e_wall, &d->e_wall};
    const double rv[4] = {-0.1, 1.5, -0.1, 1.5};
    for (int k = 0; k < 4; k++) {
        *rest[k] = rv[k];
        cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL, "restitution %d", k);
        cr_assert(strstr(err.message, "restitution"));
        *rest[k] = 0;
    }
    d->e_wall = NAN;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->e_wall = 0;
    d->walls = 1;
    d->wall_left = 1;
    d->wall_right = 1;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "wall_right"));
    d->walls = 0;
    d->periodic = 1;
    d->a = 2.0;   /* 2a = 4 <= 2 (2 + 0.1) */
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "too narrow"));
    d->a = 2.2;      /* 2a = 4.4 > 4.2 */
    d->x[1] = 2.2;   /* at the right edge: outside the half-open band [-a, a) */
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "disc 1 outside the band"));
    d->x[1] = -2.3;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->x[1] = 2.0;
    d->periodic = 0;
    /* the contact of the two discs and the global problem written out */
    fl_disc_contact *c = NULL;
    size_t nc = 0;
    cr_assert_eq(fl_discs_detect(d, &c, &nc, &err), FL_OK, "%s", err.message);
    cr_assert_eq(nc, 1);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_discs_global(d, c, nc, 0.01, 1, NULL, &g, &err), FL_OK, "%s", err.message);
    const double H[2][6] = {{-1, 0, 0, 1, 0, 0}, {0, -1, -1, 0, 1, -1}};
    int flip = gsl_matrix_get(g->H, 0, 0) > 0 ? -1 : 1;   /* the pair may be stored as (1, 0) */
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < 6; j++) {
            size_t jj = flip > 0 ? j : (j + 3) % 6;
            cr_assert(fabs(gsl_matrix_get(g->H, i, jj) - H[i][j]) <= 1e-15, "H(%zu,%zu) = %g", i,
                      jj, gsl_matrix_get(g->H, i, jj));
        }
    for (size_t j = 0; j < 6; j++) cr_assert(gsl_vector_get(g->f, j) == 0);
    fl_global_problem_free(g);
    /* refusals of the global problem builder */
    cr_assert_eq(fl_discs_global(d, c, nc, 0.01, 1, NULL, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_global(d, c, nc, 0, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_global(d, c, nc, NAN, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "h must be > 0"));
    cr_assert_eq(fl_discs_global(d, c, 0, 0.01, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_global(d, NULL, nc, 0.01, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_global(d, c, nc, 0.01, 0, NULL, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "needs a context"));
    fl_disc_contact badc = c[0];
    badc.i = 5;
    cr_assert_eq(fl_discs_global(d, &badc, 1, 0.01, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "contact 0 names a disc >= N"));
    cr_assert_null(g);
    cr_assert_eq(fl_discs_global(d, &badc, 1, 0.01, 0, &ctx, &g, &err), FL_EINVAL);
    cr_assert_null(g);
    d->m[0] = -1;
    cr_assert_eq(fl_discs_global(d, c, nc, 0.01, 1, NULL, &g, &err), FL_EINVAL);
    d->m[0] = 1;
    /* the sparse Delassus of the discs: its arguments */
    cr_assert_eq(fl_discs_global(d, c, nc, 0.01, 0, &ctx, &g, &err), FL_OK, "%s", err.message);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_discs_delassus_diag(d, g, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_delassus_diag(NULL, g, &p, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_delassus_diag(d, NULL, &p, &err), FL_EINVAL);
    fl_sparse_ctx *ck = g->ctx;
    g->ctx = NULL;
    cr_assert_eq(fl_discs_delassus_diag(d, g, &p, &err), FL_EINVAL);
    g->ctx = ck;
    d->N = 3;
    cr_assert_eq(fl_discs_delassus_diag(d, g, &p, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "n = 3N"));
    d->N = 2;
    /* W = H M^-1 H^T: W_NN = 1 + 1 = 2, W_TT = 1 + 1 + 1/(1/2) + 1/(1/2) = 6, W_NT = 0 */
    cr_assert_eq(fl_discs_delassus_diag(d, g, &p, &err), FL_OK, "%s", err.message);
    gsl_matrix *W = NULL;
    cr_assert_eq(fl_sparse_to_dense(&ctx, p->Ws, &W, NULL), FL_OK);
    cr_assert(fabs(gsl_matrix_get(W, 0, 0) - 2) <= 1e-14 && fabs(gsl_matrix_get(W, 1, 1) - 6) <= 1e-14);
    cr_assert(fabs(gsl_matrix_get(W, 0, 1)) <= 1e-14 && fabs(gsl_matrix_get(W, 1, 0)) <= 1e-14);
    gsl_matrix_free(W);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    free(c);
    fl_discs_free(d);
}

Test(cov_fset, space_cone_sections_are_regular_polygons)
{
    /* 001 §6.1 in space: n = 3, M = I, one contact with tl = I, obstacle
     * normal n~ = dphi (unit), mu = 0.3.  G is the pyramid with 16 edges
     * inscribed in the cone of axis n~ and half-angle arctan mu, so the
     * section {r_t + dphi in G} is the regular 16-gon of circumradius mu in
     * the plane orthogonal to dphi, and with W = I the basis E is
     * orthonormal: every vertex has |c| = mu.  The normals below make the
     * construction of the tangent frame pick each axis in turn. */
    const double normals[5][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {2, 1, 0}, {1, 2, 0}};
    gsl_matrix *M = gsl_matrix_alloc(3, 3), *tl = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(M);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_alloc(3);
    for (int c = 0; c < 5; c++) {
        double len = sqrt(normals[c][0] * normals[c][0] + normals[c][1] * normals[c][1] +
                          normals[c][2] * normals[c][2]);
        fl_fset_contact ct = {tl, {normals[c][0] / len, normals[c][1] / len, normals[c][2] / len}, 0.3};
        for (int k = 0; k < 3; k++) gsl_vector_set(dphi, k, ct.normal[k]);
        fl_fset_result r;
        fl_error e;
        cr_assert_eq(fl_fset_build(M, dphi, 1, &ct, NULL, &r, &e), FL_OK, "case %d: %s", c, e.message);
        cr_assert(r.bounded && r.contains_zero);
        cr_assert_eq(r.set.kind, FL_SET_POLYGON);
        cr_assert_eq(r.set.nvert, 16, "case %d: %zu vertices", c, r.set.nvert);
        for (size_t v = 0; v < r.set.nvert; v++) {
            double rad = hypot(r.set.vert[2 * v], r.set.vert[2 * v + 1]);
            cr_assert(fabs(rad - 0.3) <= 1e-12, "case %d vertex %zu radius %.17g", c, v, rad);
        }
        fl_fset_result_release(&r);
    }
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
}

Test(cov_fset, unbounded_section_from_a_sideways_cone)
{
    /* 001 §6.1 in the plane: n = 2, M = I, dphi = e2, one contact with
     * tl = I whose obstacle normal is e1 (the cone points sideways), mu = 1/2.
     * G is generated by g+ = (1, mu) and g- = (1, -mu); kappa(g) = g.dphi /
     * dphi.dphi = +mu, -mu.  The vertex g+/kappa - dphi = (1/mu, 0) and the
     * recession ray kappa(g+) g- - kappa(g-) g+ = (2 mu, 0) give
     * C* = {t e1 : t >= 1/mu} = [2, inf) e1: unbounded, without 0. */
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *tl = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(M);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_calloc(2);
    gsl_vector_set(dphi, 1, 1.0);
    fl_fset_contact c = {tl, {1.0, 0.0, 0.0}, 0.5};
    fl_fset_result r;
    fl_error e;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_OK, "%s", e.message);
    cr_assert(!r.bounded && !r.contains_zero);
    cr_assert_eq(r.set.kind, FL_SET_INTERVAL);
    /* E = +-e1: the interval is [2, inf) or (-inf, -2] */
    double sgn = gsl_matrix_get(r.E, 0, 0);
    cr_assert(fabs(fabs(sgn) - 1) <= 1e-14 && fabs(gsl_matrix_get(r.E, 0, 1)) <= 1e-14);
    if (sgn > 0)
        cr_assert(fabs(r.set.lo - 2) <= 1e-12 && isinf(r.set.hi) && r.set.hi > 0, "[%g, %g]", r.set.lo,
                  r.set.hi);
    else
        cr_assert(fabs(r.set.hi + 2) <= 1e-12 && isinf(r.set.lo) && r.set.lo < 0, "[%g, %g]", r.set.lo,
                  r.set.hi);
    fl_fset_result_release(&r);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
}
