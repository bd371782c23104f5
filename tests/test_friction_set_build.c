/* test_friction_set_build.c — 001 §6.1 construction of C*_{alpha,q}:
 * the Painlevé closed form of 001 §6.2 on both sides of mu = -1/tan(theta0)
 * (001 §6.2 fixtures), the normalisation identity C*_dphi = |dphi|* C*_n*,
 * 3D pyramids, bad input, and a property test on random planar systems:
 * C* in T*, 0 in C*, unbounded <=> the cone has elements with r_n < 0,
 * membership <=> r_t + N in G (decided independently by a 2x2 solve). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "testkit/fl_random.h"
#include "reference/friction_set_build.h"
#include "fl_scalar.h"


/* Painlevé bar: q = (x, theta), M = diag(m, J), dphi = (0, 1); the contact
 * point A maps a real-world force (rx, ry) to (rx, l cos t0 ry - l sin t0 rx)
 * (001 (6.1)); obstacle normal (0, 1). */
static void painleve_build(double m, double J, double l, double t0, double mu,
                           fl_fset_norm norm, const gsl_matrix *basis, fl_fset_result *res,
                           fl_status expect)
{
    gsl_matrix *M = gsl_matrix_calloc(2, 2), *tl = gsl_matrix_calloc(2, 2);
    gsl_vector *dphi = gsl_vector_calloc(2);
    gsl_matrix_set(M, 0, 0, m);
    gsl_matrix_set(M, 1, 1, J);
    gsl_vector_set(dphi, 1, 1.0);
    gsl_matrix_set(tl, 0, 0, 1.0);
    gsl_matrix_set(tl, 1, 0, -l * sin(t0));
    gsl_matrix_set(tl, 1, 1, l * cos(t0));
    fl_fset_contact c = {tl, {0.0, 1.0, 0.0}, mu};
    fl_fset_options o = fl_fset_options_default();
    o.norm = norm;
    o.basis = basis;
    fl_error e;
    fl_status st = fl_fset_build(M, dphi, 1, &c, &o, res, &e);
    cr_assert_eq(st, expect, "build: %s", e.message);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
}

Test(friction_set_build, painleve_catalogue_fixtures)
{
    gsl_matrix *E = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(E, 0, 0, 1.0);                      /* coordinate = r_x */
    fl_fset_result r;
    /* theta0 = -pi/6, l = 1, threshold -1/tan = sqrt 3; mu = 0.5: bounded */
    painleve_build(2.0, 0.3, 1.0, -FL_PI / 6, 0.5, FL_FSET_BY_DPHI, E, &r, FL_OK);
    cr_assert_eq(r.set.kind, FL_SET_INTERVAL);
    cr_assert(fabs(r.set.lo - (-0.8116548391)) < 1e-9, "lo %.12g", r.set.lo);
    cr_assert(fabs(r.set.hi - 0.4480184755) < 1e-9, "hi %.12g", r.set.hi);
    cr_assert(r.bounded && r.contains_zero && !r.negative_rn);
    fl_fset_result_release(&r);
    /* mu = 2: ]-inf, 1.0717967697] */
    painleve_build(2.0, 0.3, 1.0, -FL_PI / 6, 2.0, FL_FSET_BY_DPHI, E, &r, FL_OK);
    cr_assert(isinf(r.set.lo) && r.set.lo < 0);
    cr_assert(fabs(r.set.hi - 1.0717967697) < 1e-9, "hi %.12g", r.set.hi);
    cr_assert(!r.bounded && r.contains_zero && r.negative_rn);
    fl_fset_result_release(&r);
    gsl_matrix_free(E);
}

Test(friction_set_build, painleve_closed_form_both_sides_random)
{
    /* 001 §6.2: C* = [-mu/(l(c + mu s)), mu/(l(c - mu s))] if mu < -1/tan t0,
     * ]-inf, mu/(l(c - mu s))] otherwise (c = cos t0, s = sin t0) */
    gsl_rng *rng = fl_test_rng(61);
    gsl_matrix *E = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(E, 0, 0, 1.0);
    int nb = 0, nu = 0;
    for (int t = 0; t < 400; t++) {
        double t0 = -(0.05 + 1.4 * gsl_rng_uniform(rng)), l = 0.1 + 3 * gsl_rng_uniform(rng);
        double thr = -1.0 / tan(t0), mu = thr * (0.1 + 1.8 * gsl_rng_uniform(rng));
        double m = 0.5 + gsl_rng_uniform(rng), J = 0.05 + gsl_rng_uniform(rng);
        double c = cos(t0), s = sin(t0);
        fl_fset_result r;
        painleve_build(m, J, l, t0, mu, FL_FSET_BY_DPHI, E, &r, FL_OK);
        double hi = mu / (l * (c - mu * s));
        cr_assert(fabs(r.set.hi - hi) <= 1e-10 * fabs(hi), "hi %g vs %g %s", r.set.hi, hi, fl_test_seed_note());
        if (mu < thr) {
            double lo = -mu / (l * (c + mu * s));
            cr_assert(fabs(r.set.lo - lo) <= 1e-9 * fabs(lo), "lo %g vs %g (mu %g thr %g) %s", r.set.lo, lo,
                      mu, thr, fl_test_seed_note());
            cr_assert(r.bounded);
            nb++;
        } else {
            cr_assert(isinf(r.set.lo), "mu %g >= %g: lo %g %s", mu, thr, r.set.lo, fl_test_seed_note());
            nu++;
        }
        fl_fset_result_release(&r);
    }
    cr_assert(nb > 50 && nu > 50);
    gsl_matrix_free(E);
    gsl_rng_free(rng);
}

Test(friction_set_build, normalisation_identity)
{
    /* C*_dphi = |dphi|* C*_n* (proofs/p4_law.md §2), here |dphi|* = 1/sqrt(J) */
    gsl_matrix *E = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(E, 0, 0, 1.0);
    fl_fset_result a, b;
    double J = 0.37;
    painleve_build(2.0, J, 1.3, -0.4, 0.8, FL_FSET_BY_DPHI, E, &a, FL_OK);
    painleve_build(2.0, J, 1.3, -0.4, 0.8, FL_FSET_BY_NSTAR, E, &b, FL_OK);
    double dn = 1.0 / sqrt(J);
    cr_assert(fabs(a.dual_norm_dphi - dn) < 1e-14);
    cr_assert(fabs(a.set.lo - dn * b.set.lo) < 1e-12 * fabs(a.set.lo));
    cr_assert(fabs(a.set.hi - dn * b.set.hi) < 1e-12 * fabs(a.set.hi));
    fl_fset_result_release(&a);
    fl_fset_result_release(&b);
    gsl_matrix_free(E);
}

Test(friction_set_build, pyramid_in_space)
{
    /* a point particle of mass m in R^3 on the plane z = 0 (dphi = e_z, tl = I):
     * C*_n* is the regular p-gon inscribed in the disc of radius mu / sqrt(m)
     * ... in W-orthonormal coordinates: the vertices are g/kappa - n*,
     * |vertex|* = mu |n*|* = mu; expect p vertices at W-distance mu from 0 */
    gsl_matrix *M = gsl_matrix_calloc(3, 3), *tl = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, 2.0);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_calloc(3);
    gsl_vector_set(dphi, 2, 1.0);
    fl_fset_contact c = {tl, {0.0, 0.0, 1.0}, 0.6};
    fl_fset_options o = fl_fset_options_default();
    o.norm = FL_FSET_BY_NSTAR;
    for (int p = 3; p <= 24; p += 7) {
        o.facets = p;
        fl_fset_result r;
        cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, NULL), FL_OK);
        cr_assert_eq(r.set.kind, FL_SET_POLYGON);
        cr_assert_eq(r.set.nvert, (size_t)p);
        cr_assert(r.bounded && r.contains_zero);
        /* E W E^T = I (W = I/2): coordinates are W-orthonormal; vertex radius
         * in those coordinates = |vertex|*_W.  vertex = g/kappa - n*, g = (mu t, 1),
         * n* = sqrt 2 e_z, kappa = (g, n*)* / (n*, n*)* = 1/sqrt 2: vertex = sqrt2 mu t,
         * |vertex|* = sqrt(2 mu^2 / 2) = mu */
        for (size_t k = 0; k < r.set.nvert; k++)
            cr_assert(fabs(hypot(r.set.vert[2 * k], r.set.vert[2 * k + 1]) - 0.6) < 1e-12);
        fl_fset_result_release(&r);
    }
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
}

Test(friction_set_build, unbounded_polygon_in_space)
{
    /* tilt the obstacle normal against the constraint: some edges of the
     * pyramid have r_n < 0, the section is unbounded with 2 rays */
    gsl_matrix *M = gsl_matrix_calloc(3, 3), *tl = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(M);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_calloc(3);
    gsl_vector_set(dphi, 2, 1.0);
    double a = 0.6;                                      /* axis at 34 degrees from e_z */
    fl_fset_contact c = {tl, {sin(a), 0.0, cos(a)}, 2.0}; /* half-angle 63 degrees: 97 > 90 */
    fl_fset_options o = fl_fset_options_default();
    o.facets = 12;
    fl_fset_result r;
    fl_error e;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_OK, "%s", e.message);
    cr_assert(r.negative_rn);
    cr_assert_not(r.bounded);
    cr_assert_eq(r.set.kind, FL_SET_POLYGON);
    cr_assert(r.set.nray >= 1);
    cr_assert(r.contains_zero);
    fl_fset_result_release(&r);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
}

Test(friction_set_build, rejects_bad_input)
{
    gsl_matrix *M = gsl_matrix_calloc(2, 2), *tl = gsl_matrix_calloc(2, 2), *tl4 = gsl_matrix_calloc(2, 4);
    gsl_matrix_set_identity(M);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_calloc(2), *d3 = gsl_vector_calloc(3);
    gsl_vector_set(dphi, 1, 1.0);
    fl_fset_contact c = {tl, {0.0, 1.0, 0.0}, -1.0};
    fl_fset_result r;
    fl_error e;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EINVAL);       /* mu < 0 */
    cr_assert(strstr(e.message, "mu"));
    c.mu = 0.5;
    c.normal[0] = NAN;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_ENONFINITE);
    c.normal[0] = 0.0;
    c.normal[1] = 0.0;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EINVAL);       /* zero normal */
    c.normal[1] = -1.0;                                                          /* pulls: empty */
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "empty"));
    c.normal[1] = 1.0;
    cr_assert_eq(fl_fset_build(M, d3, 1, &c, NULL, &r, &e), FL_EDIM);
    cr_assert_eq(fl_fset_build(M, dphi, 0, &c, NULL, &r, &e), FL_EINVAL);
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, NULL, &e), FL_EINVAL);
    fl_fset_contact c4 = {tl4, {0.0, 1.0, 0.0}, 0.5};
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c4, NULL, &r, &e), FL_EDIM);
    gsl_vector *z = gsl_vector_calloc(2);
    cr_assert_eq(fl_fset_build(M, z, 1, &c, NULL, &r, &e), FL_EINVAL);          /* dphi = 0 */
    fl_fset_options o = fl_fset_options_default();
    o.facets = 2;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_EINVAL);
    o = fl_fset_options_default();
    o.norm = (fl_fset_norm)9;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_EINVAL);
    /* a basis outside T* */
    gsl_matrix *B = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(B, 0, 1, 1.0);
    o = fl_fset_options_default();
    o.basis = B;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "T*"));
    /* a non-SPD mass matrix */
    gsl_matrix_set(M, 0, 0, -1.0);
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, &e), FL_ENOTSPD);
    gsl_matrix_set(M, 0, 0, 1.0);
    /* two planar contacts on 3 dofs with independent maps: dimension 3 > 2 */
    gsl_matrix *M4 = gsl_matrix_alloc(4, 4), *ta = gsl_matrix_calloc(4, 2), *tb = gsl_matrix_calloc(4, 2);
    gsl_matrix_set_identity(M4);
    gsl_matrix_set(ta, 0, 0, 1.0);
    gsl_matrix_set(ta, 1, 1, 1.0);
    gsl_matrix_set(tb, 2, 0, 1.0);
    gsl_matrix_set(tb, 1, 1, 1.0);
    gsl_matrix_set(tb, 3, 1, 0.5);
    gsl_vector *d4 = gsl_vector_calloc(4);
    gsl_vector_set(d4, 1, 1.0);
    fl_fset_contact cc[2] = {{ta, {0.0, 1.0, 0.0}, 0.5}, {tb, {0.0, 1.0, 0.0}, 0.5}};
    cr_assert_eq(fl_fset_build(M4, d4, 2, cc, NULL, &r, &e), FL_EUNSUPPORTED);
    fl_fset_result_release(NULL);
    gsl_matrix_free(M4);
    gsl_matrix_free(ta);
    gsl_matrix_free(tb);
    gsl_vector_free(d4);
    gsl_matrix_free(B);
    gsl_vector_free(z);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_matrix_free(tl4);
    gsl_vector_free(dphi);
    gsl_vector_free(d3);
}

Test(friction_set_build, frictionless_contact_gives_zero_set)
{
    gsl_matrix *M = gsl_matrix_calloc(2, 2), *tl = gsl_matrix_calloc(2, 2);
    gsl_matrix_set_identity(M);
    gsl_matrix_set_identity(tl);
    gsl_vector *dphi = gsl_vector_calloc(2);
    gsl_vector_set(dphi, 1, 1.0);
    fl_fset_contact c = {tl, {0.0, 1.0, 0.0}, 0.0};
    fl_fset_result r;
    cr_assert_eq(fl_fset_build(M, dphi, 1, &c, NULL, &r, NULL), FL_OK);
    cr_assert_eq(r.set.lo, 0.0);
    cr_assert_eq(r.set.hi, 0.0);
    cr_assert(r.contains_zero && r.bounded);
    fl_fset_result_release(&r);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
}

/* Random planar systems: n dofs, one contact point, tl random n x 2 of full
 * rank, dphi = tl n~ (the gap gradient is the normal velocity of the contact
 * point, so N is in G).  1000 systems. */
Test(friction_set_build, property_random_planar, .timeout = 60)
{
    gsl_rng *rng = fl_test_rng(6101);
    int nunb = 0;
    for (int t = 0; t < 1000; t++) {
        size_t n = 2 + gsl_rng_uniform_int(rng, 5);
        gsl_matrix *M = gsl_matrix_alloc(n, n), *tl = gsl_matrix_alloc(n, 2);
        cr_assert_eq(fl_random_spd(rng, 100.0, 1.0, M), FL_OK);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < 2; j++) gsl_matrix_set(tl, i, j, gsl_ran_gaussian(rng, 1.0));
        double th = 2 * FL_PI * gsl_rng_uniform(rng);
        double nv[2] = {cos(th), sin(th)};
        gsl_vector *dphi = gsl_vector_alloc(n);
        for (size_t i = 0; i < n; i++)
            gsl_vector_set(dphi, i, gsl_matrix_get(tl, i, 0) * nv[0] + gsl_matrix_get(tl, i, 1) * nv[1]);
        double mu = fl_random_mu(rng);
        fl_fset_contact c = {tl, {nv[0], nv[1], 0.0}, mu};
        fl_fset_options o = fl_fset_options_default();
        o.norm = t % 2 ? FL_FSET_BY_DPHI : FL_FSET_BY_NSTAR;
        fl_fset_result r;
        fl_error e;
        cr_assert_eq(fl_fset_build(M, dphi, 1, &c, &o, &r, &e), FL_OK, "%s %s", e.message, fl_test_seed_note());
        /* independent: generators g+- = tl (n~ +- mu t~); r_n(g) = g.W.dphi */
        gsl_vector *W_d = gsl_vector_alloc(n), *g = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
        gsl_matrix *L = gsl_matrix_alloc(n, n);
        gsl_matrix_memcpy(L, M);
        gsl_linalg_cholesky_decomp1(L);
        gsl_vector_memcpy(W_d, dphi);
        gsl_linalg_cholesky_svx(L, W_d);
        double dWd;
        gsl_blas_ddot(dphi, W_d, &dWd);
        double gen[2][8];
        int neg = 0;
        for (int s = 0; s < 2; s++) {
            double sg = s ? -1.0 : 1.0;
            double rw[2] = {nv[0] - sg * mu * nv[1], nv[1] + sg * mu * nv[0]};
            for (size_t i = 0; i < n; i++)
                gen[s][i] = gsl_matrix_get(tl, i, 0) * rw[0] + gsl_matrix_get(tl, i, 1) * rw[1];
            double rn = 0;
            for (size_t i = 0; i < n; i++) rn += gen[s][i] * gsl_vector_get(W_d, i);
            double gnorm = 0;
            for (size_t i = 0; i < n; i++) gnorm += gen[s][i] * gen[s][i];
            if (rn < -1e-9 * sqrt(gnorm * dWd)) neg = 1;
        }
        /* C* in T*: E W dphi = 0 */
        for (size_t k = 0; k < r.E->size1; k++) {
            gsl_vector_view ek = gsl_matrix_row(r.E, k);
            double v;
            gsl_blas_ddot(&ek.vector, W_d, &v);
            cr_assert(fabs(v) <= 1e-9 * gsl_blas_dnrm2(&ek.vector) * sqrt(dWd) + 1e-12, "E W dphi = %g %s", v,
                      fl_test_seed_note());
        }
        cr_assert(r.contains_zero, "0 not in C* %s", fl_test_seed_note());
        cr_assert_eq(!r.bounded, neg, "unbounded %d but r_n < 0 in G: %d %s", !r.bounded, neg,
                     fl_test_seed_note());
        nunb += neg;
        /* membership: random coordinates c, x = E^T c; x in C* <=> x + N = a g+ + b g-, a, b >= 0 */
        double Ns = o.norm == FL_FSET_BY_NSTAR ? 1.0 / sqrt(dWd) : 1.0;
        double span = isfinite(r.set.hi) ? fabs(r.set.hi) : 1.0;
        span = fmax(span, isfinite(r.set.lo) ? fabs(r.set.lo) : 1.0);
        for (int k = 0; k < 5; k++) {
            double cc = (2.4 * gsl_rng_uniform(rng) - 1.2) * span;
            int in = fl_friction_set_contains(&r.set, &cc, 0.0);
            double dist = fmin(fabs(cc - r.set.lo), fabs(cc - r.set.hi));
            if (dist < 1e-7 * span) continue;                          /* on the boundary */
            /* least squares for (a, b): [g+ g-] (a b)^T = x + N */
            double A11 = 0, A12 = 0, A22 = 0, b1 = 0, b2 = 0;
            for (size_t i = 0; i < n; i++) {
                double xi = gsl_matrix_get(r.E, 0, i) * cc + Ns * gsl_vector_get(dphi, i);
                A11 += gen[0][i] * gen[0][i];
                A12 += gen[0][i] * gen[1][i];
                A22 += gen[1][i] * gen[1][i];
                b1 += gen[0][i] * xi;
                b2 += gen[1][i] * xi;
            }
            double det = A11 * A22 - A12 * A12;
            double a = (A22 * b1 - A12 * b2) / det, b = (-A12 * b1 + A11 * b2) / det;
            int ing = a >= 0 && b >= 0;
            cr_assert_eq(in, ing, "c = %g: in C* %d, in G %d (a %g b %g) %s", cc, in, ing, a, b,
                         fl_test_seed_note());
        }
        gsl_vector_free(W_d);
        gsl_vector_free(g);
        gsl_vector_free(x);
        gsl_matrix_free(L);
        fl_fset_result_release(&r);
        gsl_matrix_free(M);
        gsl_matrix_free(tl);
        gsl_vector_free(dphi);
    }
    cr_assert(nunb > 100 && nunb < 900, "unbounded cases %d", nunb);
    gsl_rng_free(rng);
}

Test(friction_set_build, two_planar_contacts_give_a_polygon)
{
    /* a planar rigid body (x, y, theta), M = diag(1, 1, 1/3), touching a floor
     * y = 0 at two points (-1, 0) and (1, 0): one constraint phi = y with both
     * contact points (a flat face).  G is 3-dimensional, C* a polygon in the
     * (r_x, torque) plane; with dphi = (0, 1, 0): vertices
     * g/kappa - dphi = (+-mu, 0, +-1 ...) -> 4 vertices (+-mu, +-1): a rectangle */
    gsl_matrix *M = gsl_matrix_calloc(3, 3), *ta = gsl_matrix_calloc(3, 2), *tb = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(M, 0, 0, 1.0);
    gsl_matrix_set(M, 1, 1, 1.0);
    gsl_matrix_set(M, 2, 2, 1.0 / 3.0);
    /* point P = G + rho: r = (f_x, f_y, rho_x f_y - rho_y f_x) */
    gsl_matrix_set(ta, 0, 0, 1.0);
    gsl_matrix_set(ta, 1, 1, 1.0);
    gsl_matrix_set(ta, 2, 1, -1.0);
    gsl_matrix_set(tb, 0, 0, 1.0);
    gsl_matrix_set(tb, 1, 1, 1.0);
    gsl_matrix_set(tb, 2, 1, 1.0);
    gsl_vector *dphi = gsl_vector_calloc(3);
    gsl_vector_set(dphi, 1, 1.0);
    double mu = 0.4;
    fl_fset_contact c[2] = {{ta, {0.0, 1.0, 0.0}, mu}, {tb, {0.0, 1.0, 0.0}, mu}};
    gsl_matrix *B = gsl_matrix_calloc(2, 3);
    gsl_matrix_set(B, 0, 0, 1.0);                        /* coordinates (r_x, r_theta) */
    gsl_matrix_set(B, 1, 2, 1.0);
    fl_fset_options o = fl_fset_options_default();
    o.basis = B;
    fl_fset_result r;
    fl_error e;
    cr_assert_eq(fl_fset_build(M, dphi, 2, c, &o, &r, &e), FL_OK, "%s", e.message);
    cr_assert_eq(r.set.kind, FL_SET_POLYGON);
    cr_assert_eq(r.set.nvert, 4);
    cr_assert(r.bounded && r.contains_zero);
    double expect[4][2] = {{-mu, -1}, {mu, -1}, {mu, 1}, {-mu, 1}};
    for (int k = 0; k < 4; k++) {
        int found = 0;
        for (size_t j = 0; j < 4; j++)
            if (fabs(r.set.vert[2 * j] - expect[k][0]) < 1e-12 && fabs(r.set.vert[2 * j + 1] - expect[k][1]) < 1e-12)
                found = 1;
        cr_assert(found, "vertex (%g, %g) missing", expect[k][0], expect[k][1]);
    }
    fl_fset_result_release(&r);
    /* a one-row basis cannot span the 2D set */
    gsl_matrix_view B1 = gsl_matrix_submatrix(B, 0, 0, 1, 3);
    o.basis = &B1.matrix;
    cr_assert_eq(fl_fset_build(M, dphi, 2, c, &o, &r, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "span"));
    /* a 3 x n basis is refused */
    gsl_matrix *B3 = gsl_matrix_calloc(3, 3);
    o.basis = B3;
    cr_assert_eq(fl_fset_build(M, dphi, 2, c, &o, &r, &e), FL_EDIM);
    gsl_matrix_free(B3);
    /* normals tilted 53 degrees, half-angle 45: edges beyond 90 degrees, unbounded polygon */
    fl_fset_contact ct[2] = {{ta, {0.8, 0.6, 0.0}, 1.0}, {tb, {0.0, 1.0, 0.0}, 1.0}};
    o.basis = NULL;
    cr_assert_eq(fl_fset_build(M, dphi, 2, ct, &o, &r, &e), FL_OK, "%s", e.message);
    cr_assert(!r.bounded && r.negative_rn && r.contains_zero);
    cr_assert_eq(r.set.kind, FL_SET_POLYGON);
    fl_fset_result_release(&r);
    /* a V groove (both normals tilted inwards beyond the friction angle): the
     * recession cone is not pointed, C* contains a line: refused */
    fl_fset_contact cv[2] = {{ta, {0.8, 0.6, 0.0}, 1.0}, {tb, {-0.8, 0.6, 0.0}, 1.0}};
    cr_assert_eq(fl_fset_build(M, dphi, 2, cv, &o, &r, &e), FL_EUNSUPPORTED);
    cr_assert(strstr(e.message, "line"));
    gsl_matrix_free(B);
    gsl_matrix_free(M);
    gsl_matrix_free(ta);
    gsl_matrix_free(tb);
    gsl_vector_free(dphi);
}
