/* test_friction_sets.c — friction sets (core/fl_friction_set.c):
 * closed forms computed by hand below (001 §2.1 (2.1), §3.2, §6.2;
 * proofs/friction_sets.md), exact certificates (vertex/ray optimality
 * conditions of a projection, brute force over the circle), properties on
 * random sets from the shared generator (testkit/fl_random.h), and
 * bad input for every entry point. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "fl_friction_set.h"
#include "testkit/fl_random.h"
#include "checks/sets_checks.h"
#include "fl_rng.h"
#include "testkit/fl_set_random.h"
#include "fl_scalar.h"

#define NRAND 400

static double nrm(int dim, const double *x)
{
    return dim == 1 ? fabs(x[0]) : hypot(x[0], x[1]);
}

static double dotd(int dim, const double *a, const double *b)
{
    return dim == 1 ? a[0] * b[0] : a[0] * b[0] + a[1] * b[1];
}

static double gnorm(int dim, const double *G, const double *a)
{
    if (dim == 1) return sqrt(G[0]) * fabs(a[0]);
    return sqrt(a[0] * (G[0] * a[0] + G[1] * a[1]) + a[1] * (G[2] * a[0] + G[3] * a[1]));
}



static fl_friction_set square(void)
{
    fl_friction_set C;
    double v[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    cr_assert_eq(fl_friction_set_polygon(&C, 4, v, 0, NULL, NULL), FL_OK);
    return C;
}

/* the "U" of fl_friction_set.h: {|x| <= 1, y >= |x| - 1} */
static fl_friction_set ushape(void)
{
    fl_friction_set C;
    double v[6] = {-1, 0, 0, -1, 1, 0}, d[2] = {0, 1};
    cr_assert_eq(fl_friction_set_polygon(&C, 3, v, 1, d, NULL), FL_OK);
    return C;
}

/* the wedge {y >= |x|} = 0 + cone{(-1,1), (1,1)} */
static fl_friction_set wedge(void)
{
    fl_friction_set C;
    double v[2] = {0, 0}, d[4] = {-1, 1, 1, 1};
    cr_assert_eq(fl_friction_set_polygon(&C, 1, v, 2, d, NULL), FL_OK);
    return C;
}

static void assert_proj(const fl_friction_set *C, double x0, double x1, double p0, double p1)
{
    double x[2] = {x0, x1}, p[2] = {NAN, NAN};
    cr_assert_eq(fl_friction_set_project(C, x, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], p0, 1e-14, "P(%g,%g)[0] = %.17g, expected %g", x0, x1, p[0], p0);
    if (C->dim == 2)
        cr_assert_float_eq(p[1], p1, 1e-14, "P(%g,%g)[1] = %.17g, expected %g", x0, x1, p[1],
                           p1);
}

static void assert_support(const fl_friction_set *C, double y0, double y1, int finite,
                           double s)
{
    double y[2] = {y0, y1}, val = NAN;
    cr_assert_eq(fl_friction_set_support(C, y, &val), finite, "S(%g,%g) finiteness", y0, y1);
    if (finite) cr_assert_float_eq(val, s, 1e-14, "S(%g,%g) = %.17g, expected %g", y0, y1, val, s);
}

/* ------------------------------------------------------------------ */
/* unit: closed forms                                                  */

Test(friction_sets, disc_1d_closed_forms)
{
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_disc(&C, 1, 2.0, NULL), FL_OK);   /* [-2, 2] */
    cr_assert(fl_friction_set_is_bounded(&C));
    assert_proj(&C, 3.0, 0, 2.0, 0);
    assert_proj(&C, -0.5, 0, -0.5, 0);
    assert_proj(&C, -7.0, 0, -2.0, 0);
    assert_support(&C, 3.0, 0, 1, 6.0);    /* mu |y| */
    assert_support(&C, -1.0, 0, 1, 2.0);
    double y = -4.0, c = 0;
    cr_assert_eq(fl_friction_set_support_point(&C, &y, &c, NULL), FL_OK);
    cr_assert_eq(c, -2.0);
    double x = 2.0 + 1e-10;
    cr_assert(fl_friction_set_contains(&C, &x, 1e-9));
    cr_assert_not(fl_friction_set_contains(&C, &x, 1e-11));
}

Test(friction_sets, disc_2d_closed_forms)
{
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_disc(&C, 2, 1.0, NULL), FL_OK);   /* the unit disc B (001 §2.1) */
    assert_proj(&C, 3.0, 4.0, 0.6, 0.8);                  /* (3,4)/5 */
    assert_proj(&C, 0.1, -0.2, 0.1, -0.2);
    assert_support(&C, 3.0, 4.0, 1, 5.0);                 /* S_B(y) = |y| */
    double y[2] = {3, 4}, c[2];
    cr_assert_eq(fl_friction_set_support_point(&C, y, c, NULL), FL_OK);
    cr_assert_float_eq(c[0], 0.6, 1e-15);
    cr_assert_float_eq(c[1], 0.8, 1e-15);
    double z[2] = {0, 0};   /* y = 0: every point maximises; P_C(0) = 0 is returned */
    cr_assert_eq(fl_friction_set_support_point(&C, z, c, NULL), FL_OK);
    cr_assert_eq(c[0], 0.0);
    cr_assert_eq(c[1], 0.0);
    fl_friction_set Z;
    cr_assert_eq(fl_friction_set_disc(&Z, 2, 0.0, NULL), FL_OK);   /* mu = 0: {0} */
    assert_proj(&Z, 3.0, 4.0, 0.0, 0.0);
}

Test(friction_sets, interval_support_functions_of_001_6_2)
{
    fl_friction_set C;
    /* [a,b] = [-1,2]: S(v) = b max(v,0) - a max(-v,0) */
    cr_assert_eq(fl_friction_set_interval(&C, -1.0, 2.0, NULL), FL_OK);
    cr_assert(fl_friction_set_is_bounded(&C));
    assert_support(&C, 3.0, 0, 1, 6.0);
    assert_support(&C, -3.0, 0, 1, 3.0);
    assert_support(&C, 0.0, 0, 1, 0.0);
    assert_proj(&C, 5.0, 0, 2.0, 0);
    assert_proj(&C, -5.0, 0, -1.0, 0);
    /* ]-inf, b], b = 2: D(S) = R+, S(v) = b v for v >= 0, +inf otherwise */
    cr_assert_eq(fl_friction_set_interval(&C, -INFINITY, 2.0, NULL), FL_OK);
    cr_assert_not(fl_friction_set_is_bounded(&C));
    assert_support(&C, 3.0, 0, 1, 6.0);
    assert_support(&C, 0.0, 0, 1, 0.0);
    assert_support(&C, -1e-300, 0, 0, 0);
    assert_proj(&C, -1e6, 0, -1e6, 0);
    assert_proj(&C, 4.0, 0, 2.0, 0);
    /* [a, +inf[ and R */
    cr_assert_eq(fl_friction_set_interval(&C, -1.0, INFINITY, NULL), FL_OK);
    assert_support(&C, 1.0, 0, 0, 0);
    assert_support(&C, -2.0, 0, 1, 2.0);
    assert_proj(&C, -3.0, 0, -1.0, 0);
    cr_assert_eq(fl_friction_set_interval(&C, -INFINITY, INFINITY, NULL), FL_OK);
    assert_support(&C, 0.0, 0, 1, 0.0);
    assert_support(&C, 1.0, 0, 0, 0);
    assert_support(&C, -1.0, 0, 0, 0);
    assert_proj(&C, -3.0, 0, -3.0, 0);
    double y = 1.0, c;
    fl_error e;
    cr_assert_eq(fl_friction_set_support_point(&C, &y, &c, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "+inf"));
}

Test(friction_sets, bounded_polygon_closed_forms)
{
    fl_friction_set C = square();
    cr_assert(fl_friction_set_is_bounded(&C));
    assert_proj(&C, 3.0, 0.5, 1.0, 0.5);     /* onto the edge x = 1 */
    assert_proj(&C, 2.0, 2.0, 1.0, 1.0);     /* onto the vertex (1,1) */
    assert_proj(&C, -0.3, 0.2, -0.3, 0.2);   /* inside */
    assert_proj(&C, 0.0, -9.0, 0.0, -1.0);
    assert_support(&C, 1.0, 2.0, 1, 3.0);    /* max over vertices: (1,1).(1,2) */
    assert_support(&C, -1.0, 0.5, 1, 1.5);
    double y[2] = {1, 2}, c[2];
    cr_assert_eq(fl_friction_set_support_point(&C, y, c, NULL), FL_OK);
    cr_assert_eq(c[0], 1.0);
    cr_assert_eq(c[1], 1.0);
    double x[2] = {1.0, 1.0 + 1e-3};
    cr_assert(fl_friction_set_contains(&C, x, 1.1e-3));
    cr_assert_not(fl_friction_set_contains(&C, x, 0.9e-3));
    fl_friction_set_release(&C);
}

Test(friction_sets, polygon_with_one_ray_closed_forms)
{
    fl_friction_set C = ushape();
    cr_assert_not(fl_friction_set_is_bounded(&C));
    assert_proj(&C, 3.0, 5.0, 1.0, 5.0);     /* onto the right ray x = 1 */
    assert_proj(&C, -4.0, 2.0, -1.0, 2.0);   /* onto the left ray x = -1 */
    assert_proj(&C, -3.0, -5.0, 0.0, -1.0);  /* vertex (0,-1): edge parameter clamps */
    assert_proj(&C, 2.0, -1.0, 1.0, 0.0);    /* vertex (1,0) */
    assert_proj(&C, 1.0, -1.0, 0.5, -0.5);   /* middle of the edge (0,-1)-(1,0) */
    assert_proj(&C, 0.3, 7.0, 0.3, 7.0);     /* inside, far up */
    assert_support(&C, 0.0, -1.0, 1, 1.0);   /* vertex (0,-1) */
    assert_support(&C, 1.0, 0.0, 1, 1.0);    /* ray orthogonal: still finite */
    assert_support(&C, 0.1, 1.0, 0, 0);      /* ray (0,1).y > 0: +inf */
    fl_friction_set_release(&C);
}

Test(friction_sets, polygon_with_two_rays_closed_forms)
{
    fl_friction_set C = wedge();
    assert_proj(&C, 2.0, 0.0, 1.0, 1.0);     /* onto the ray (1,1) */
    assert_proj(&C, -2.0, 0.0, -1.0, 1.0);   /* onto the ray (-1,1) */
    assert_proj(&C, 0.0, -3.0, 0.0, 0.0);    /* apex */
    assert_proj(&C, 0.5, 5.0, 0.5, 5.0);
    assert_support(&C, 0.0, -1.0, 1, 0.0);
    assert_support(&C, 1.0, -1.0, 1, 0.0);   /* on the barrier cone's boundary */
    assert_support(&C, 1.0, 0.0, 0, 0);
    assert_support(&C, -1.0, -0.999, 0, 0);
    fl_friction_set_release(&C);
}

Test(friction_sets, degenerate_polygons)
{
    fl_friction_set C;
    double pt[2] = {1, 2};
    cr_assert_eq(fl_friction_set_polygon(&C, 1, pt, 0, NULL, NULL), FL_OK);   /* {(1,2)} */
    assert_proj(&C, -5.0, 3.0, 1.0, 2.0);
    assert_support(&C, 2.0, -1.0, 1, 0.0);
    fl_friction_set_release(&C);
    double seg[4] = {0, 0, 2, 0};
    cr_assert_eq(fl_friction_set_polygon(&C, 2, seg, 0, NULL, NULL), FL_OK);
    assert_proj(&C, 1.0, 3.0, 1.0, 0.0);
    assert_proj(&C, 5.0, -1.0, 2.0, 0.0);
    assert_proj(&C, 1.5, 0.0, 1.5, 0.0);
    assert_support(&C, -1.0, 7.0, 1, 0.0);
    fl_friction_set_release(&C);
    double d[2] = {1, 0};   /* half-line 0 + R+ (1,0) */
    cr_assert_eq(fl_friction_set_polygon(&C, 1, seg, 1, d, NULL), FL_OK);
    assert_proj(&C, -1.0, 1.0, 0.0, 0.0);
    assert_proj(&C, 3.0, 2.0, 3.0, 0.0);
    assert_support(&C, -1.0, 5.0, 1, 0.0);
    assert_support(&C, 1e-9, 5.0, 0, 0);
    fl_friction_set_release(&C);
}

Test(friction_sets, metric_projection_closed_forms)
{
    fl_friction_set C;
    double p[2];
    /* dim 1: g (c - x)^2 has the Euclidean minimiser */
    double g = 5.0, x1 = 7.0;
    cr_assert_eq(fl_friction_set_interval(&C, -1.0, 2.0, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_project_metric(&C, &g, &x1, p, NULL), FL_OK);
    cr_assert_eq(p[0], 2.0);
    /* disc: choose c on the unit circle and lambda = 2, put x = c + lambda
     * G^{-1} c; then G (c - x) + lambda c = 0 is the KKT system, so
     * P_G(x) = c.  G = [2 1; 1 3], G^{-1} = [3 -1; -1 2]/5, c = (0.6, 0.8):
     * G^{-1} c = (0.2, 0.2), x = (1.0, 1.2). */
    double G[4] = {2, 1, 1, 3}, x[2] = {1.0, 1.2};
    cr_assert_eq(fl_friction_set_disc(&C, 2, 1.0, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_project_metric(&C, G, x, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], 0.6, 1e-14, "p0 = %.17g", p[0]);
    cr_assert_float_eq(p[1], 0.8, 1e-14, "p1 = %.17g", p[1]);
    /* square, G = [1 1; 1 2], x = (3, -0.5): on the edge c0 = 1 the
     * G-distance is minimised at c1 = x1 + (x0 - 1)/2 = 0.5, and
     * -G (c - x) = (1, 0) is the edge's outer normal: P_G(x) = (1, 0.5)
     * (the Euclidean projection is (1, -0.5)). */
    fl_friction_set S = square();
    double H[4] = {1, 1, 1, 2}, y[2] = {3.0, -0.5};
    cr_assert_eq(fl_friction_set_project_metric(&S, H, y, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], 1.0, 1e-14);
    cr_assert_float_eq(p[1], 0.5, 1e-14);
    double I[4] = {1, 0, 0, 1};
    cr_assert_eq(fl_friction_set_project_metric(&S, I, y, p, NULL), FL_OK);
    cr_assert_float_eq(p[1], -0.5, 1e-14);
    fl_friction_set_release(&S);
    /* the U with G = diag(1, 4), x = (3, 5): the right ray, c = (1, 5) */
    fl_friction_set U = ushape();
    double D[4] = {1, 0, 0, 4}, z[2] = {3.0, 5.0};
    cr_assert_eq(fl_friction_set_project_metric(&U, D, z, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], 1.0, 1e-14);
    cr_assert_float_eq(p[1], 5.0, 1e-14);
    fl_friction_set_release(&U);
}

Test(friction_sets, coulomb_statements_disc_closed_forms)
{
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_disc(&C, 2, 0.5, NULL), FL_OK);   /* mu = 0.5, rn = 2: mu rn = 1 */
    double tol = 1e-12, rn = 2.0;
    /* sliding: |r| = mu rn and r = -lambda v, lambda = 2 (2.1) */
    double r[2] = {0.6, 0.8}, v[2] = {-0.3, -0.4};
    cr_assert(fl_friction_set_normality(&C, rn, r, v, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, rn, r, v, tol));
    cr_assert(fl_friction_set_variational(&C, rn, r, v, tol));
    /* r = +lambda v: dissipation r.(-v) = -0.5 != mu rn |v| = 0.5 */
    double w[2] = {0.3, 0.4};
    cr_assert_not(fl_friction_set_normality(&C, rn, r, w, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, rn, r, w, tol));
    cr_assert_not(fl_friction_set_variational(&C, rn, r, w, tol));
    /* sticking: |r| < mu rn and v = 0 */
    double ri[2] = {0.3, 0.4}, z[2] = {0, 0};
    cr_assert(fl_friction_set_normality(&C, rn, ri, z, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, rn, ri, z, tol));
    cr_assert(fl_friction_set_variational(&C, rn, ri, z, tol));
    /* |r| < mu rn but sliding: forbidden */
    cr_assert_not(fl_friction_set_normality(&C, rn, ri, v, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, rn, ri, v, tol));
    cr_assert_not(fl_friction_set_variational(&C, rn, ri, v, tol));
    /* |r| = 1.2 > mu rn */
    double ro[2] = {0.72, 0.96};
    cr_assert_not(fl_friction_set_normality(&C, rn, ro, v, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, rn, ro, v, tol));
    cr_assert_not(fl_friction_set_variational(&C, rn, ro, v, tol));
    /* rn = 0: r must vanish, v is free */
    cr_assert(fl_friction_set_normality(&C, 0.0, z, w, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, 0.0, z, w, tol));
    cr_assert(fl_friction_set_variational(&C, 0.0, z, w, tol));
    cr_assert_not(fl_friction_set_normality(&C, 0.0, ri, w, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, 0.0, ri, w, tol));
    cr_assert_not(fl_friction_set_variational(&C, 0.0, ri, w, tol));
    /* invalid: rn < 0, NaN */
    cr_assert_not(fl_friction_set_normality(&C, -1.0, z, z, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, -1.0, z, z, tol));
    double nanv[2] = {NAN, 0};
    cr_assert_not(fl_friction_set_variational(&C, rn, z, nanv, tol));
}

Test(friction_sets, coulomb_statements_unbounded_interval)
{
    /* C = ]-inf, 0.5], rn = 2: rn C = ]-inf, 1] (001 §6.2) */
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_interval(&C, -INFINITY, 0.5, NULL), FL_OK);
    double tol = 1e-12, rn = 2.0;
    double r = 1.0, v = -3.0;   /* -v = 3 >= 0: rn S(3) = 2 * 1.5 = 3 = r (-v) */
    cr_assert(fl_friction_set_normality(&C, rn, &r, &v, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, rn, &r, &v, tol));
    cr_assert(fl_friction_set_variational(&C, rn, &r, &v, tol));
    double rs = -5.0, z = 0.0;  /* sticking deep inside */
    cr_assert(fl_friction_set_normality(&C, rn, &rs, &z, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, rn, &rs, &z, tol));
    cr_assert(fl_friction_set_variational(&C, rn, &rs, &z, tol));
    /* -v = -1 < 0 leaves D(S): S_C(-v) = +inf, forbidden while rn > 0
     * (w = 0 in (iii) gives r.(-v) - rn.inf = -inf) */
    double vb = 1.0;
    cr_assert_not(fl_friction_set_normality(&C, rn, &rs, &vb, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, rn, &rs, &vb, tol));
    cr_assert_not(fl_friction_set_variational(&C, rn, &rs, &vb, tol));
    /* ... but allowed when rn = 0 (0 . inf = 0, S_{0 C} = 0; 001 §3.2) */
    cr_assert(fl_friction_set_normality(&C, 0.0, &z, &vb, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, 0.0, &z, &vb, tol));
    cr_assert(fl_friction_set_variational(&C, 0.0, &z, &vb, tol));
}

Test(friction_sets, coulomb_statements_polygon_vertex)
{
    fl_friction_set C = square();
    double tol = 1e-12, rn = 3.0, r[2] = {3.0, 3.0};
    double v[2] = {-2.0, -1.0};    /* -v = (2,1) in N(1,1) = cone{(1,0),(0,1)} */
    cr_assert(fl_friction_set_normality(&C, rn, r, v, tol));
    cr_assert(fl_friction_set_max_dissipation(&C, rn, r, v, tol));
    cr_assert(fl_friction_set_variational(&C, rn, r, v, tol));
    double w[2] = {-2.0, 1.0};     /* -w = (2,-1): not a normal at (1,1) */
    cr_assert_not(fl_friction_set_normality(&C, rn, r, w, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&C, rn, r, w, tol));
    cr_assert_not(fl_friction_set_variational(&C, rn, r, w, tol));
    fl_friction_set_release(&C);
    fl_friction_set U = ushape();  /* sliding upwards (-v = (0,1)) is not allowed */
    double ru[2] = {0.0, 2.0}, vu[2] = {0.0, -1.0};
    cr_assert_not(fl_friction_set_normality(&U, 1.0, ru, vu, tol));
    cr_assert_not(fl_friction_set_max_dissipation(&U, 1.0, ru, vu, tol));
    cr_assert_not(fl_friction_set_variational(&U, 1.0, ru, vu, tol));
    fl_friction_set_release(&U);
}

Test(friction_sets, cone_projections_closed_forms)
{
    fl_friction_set C;
    double p[3], q[3];
    /* 3D, mu = 1, x = (0, 3, 4): |t| = 5, p = (0 + 5)/2 (1, (3,4)/5),
     * polar q = (5 - 0)/2 (-1, (3,4)/5) */
    cr_assert_eq(fl_friction_set_disc(&C, 2, 1.0, NULL), FL_OK);
    double x[3] = {0, 3, 4};
    cr_assert_eq(fl_friction_set_cone_project(&C, x, p, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_cone_project_polar(&C, x, q, NULL), FL_OK);
    double pe[3] = {2.5, 1.5, 2.0}, qe[3] = {-2.5, 1.5, 2.0};
    for (int i = 0; i < 3; i++) {
        cr_assert_float_eq(p[i], pe[i], 1e-14);
        cr_assert_float_eq(q[i], qe[i], 1e-14);
    }
    double in[3] = {2, 1, 1}, out[3] = {-3, 1, 1};   /* in K; in K° */
    cr_assert_eq(fl_friction_set_cone_project(&C, in, p, NULL), FL_OK);
    cr_assert_eq(p[0], 2.0);
    cr_assert_eq(fl_friction_set_cone_project_polar(&C, in, q, NULL), FL_OK);
    cr_assert_eq(q[0], 0.0);
    cr_assert_eq(fl_friction_set_cone_project(&C, out, p, NULL), FL_OK);
    cr_assert_eq(p[0], 0.0);
    cr_assert_eq(p[1], 0.0);
    cr_assert_eq(fl_friction_set_cone_project_polar(&C, out, q, NULL), FL_OK);
    cr_assert_eq(q[0], -3.0);
    /* 2D, [-1,2]: K = cone{(1,-1), (1,2)}; x = (1,5) projects on the ray
     * (1,2): t = 11/5, p = (2.2, 4.4), polar part (-1.2, 0.6) */
    cr_assert_eq(fl_friction_set_interval(&C, -1.0, 2.0, NULL), FL_OK);
    double y[2] = {1, 5};
    cr_assert_eq(fl_friction_set_cone_project(&C, y, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], 2.2, 1e-14);
    cr_assert_float_eq(p[1], 4.4, 1e-14);
    cr_assert_eq(fl_friction_set_cone_project_polar(&C, y, q, NULL), FL_OK);
    cr_assert_float_eq(q[0], -1.2, 1e-14);
    cr_assert_float_eq(q[1], 0.6, 1e-14);
    /* R: K = {n >= 0} half-plane, K° = R- x {0} */
    cr_assert_eq(fl_friction_set_interval(&C, -INFINITY, INFINITY, NULL), FL_OK);
    double h[2] = {-1, 3};
    cr_assert_eq(fl_friction_set_cone_project(&C, h, p, NULL), FL_OK);
    cr_assert_eq(p[0], 0.0);
    cr_assert_eq(p[1], 3.0);
    cr_assert_eq(fl_friction_set_cone_project_polar(&C, h, q, NULL), FL_OK);
    cr_assert_eq(q[0], -1.0);
    cr_assert_eq(q[1], 0.0);
    /* [1,1]: K = the ray (1,1); K° = {y : y0 + y1 <= 0} */
    cr_assert_eq(fl_friction_set_interval(&C, 1.0, 1.0, NULL), FL_OK);
    double g[2] = {0, 2};
    cr_assert_eq(fl_friction_set_cone_project(&C, g, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], 1.0, 1e-15);
    cr_assert_float_eq(p[1], 1.0, 1e-15);
    cr_assert_eq(fl_friction_set_cone_project_polar(&C, g, q, NULL), FL_OK);
    cr_assert_float_eq(q[0], -1.0, 1e-15);
    cr_assert_float_eq(q[1], 1.0, 1e-15);
    /* ]-inf, 2]: x = (1,5) -> ray (1,2) again; [-1, +inf[: x = (1,-5) -> ray
     * (1,-1): t = 6/2 = 3, p = (3,-3) */
    cr_assert_eq(fl_friction_set_interval(&C, -INFINITY, 2.0, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_cone_project(&C, y, p, NULL), FL_OK);
    cr_assert_float_eq(p[1], 4.4, 1e-14);
    cr_assert_eq(fl_friction_set_interval(&C, -1.0, INFINITY, NULL), FL_OK);
    double k[2] = {1, -5};
    cr_assert_eq(fl_friction_set_cone_project(&C, k, p, NULL), FL_OK);
    cr_assert_float_eq(p[0], 3.0, 1e-14);
    cr_assert_float_eq(p[1], -3.0, 1e-14);
}

static void assert_cone(const fl_friction_set *C, double x0, double x1, double x2,
                        const double *pe, const double *qe)
{
    double x[3] = {x0, x1, x2}, p[3], q[3];
    cr_assert_eq(fl_friction_set_cone_project(C, x, p, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_cone_project_polar(C, x, q, NULL), FL_OK);
    for (int i = 0; i < 3; i++) {
        cr_assert_float_eq(p[i], pe[i], 1e-14, "P_K(%g,%g,%g)[%d] = %.17g, expected %g", x0, x1,
                           x2, i, p[i], pe[i]);
        cr_assert_float_eq(q[i], qe[i], 1e-14, "P_K°(%g,%g,%g)[%d] = %.17g, expected %g", x0,
                           x1, x2, i, q[i], qe[i]);
    }
}

Test(friction_sets, polygon_cone_projections_closed_forms)
{
    /* square [-1,1]^2: K = {|t1| <= n, |t2| <= n}, K° = {n + |t1| + |t2| <= 0}
     * (K° = {y : y_n + S_C(y_t) <= 0}, S_C(t) = |t1| + |t2|). */
    fl_friction_set S = square();
    /* (0,3,0) -> the face t1 = n: minus (3/2)(-1,1,0); polar part (-1.5,1.5,0) */
    assert_cone(&S, 0, 3, 0, (double[]){1.5, 1.5, 0}, (double[]){-1.5, 1.5, 0});
    /* (0,3,3) -> the edge (1,1,1): t = 6/3; x - p = (-2,1,1) is in K° and
     * orthogonal to p */
    assert_cone(&S, 0, 3, 3, (double[]){2, 2, 2}, (double[]){-2, 1, 1});
    assert_cone(&S, 2, 1, -1, (double[]){2, 1, -1}, (double[]){0, 0, 0});    /* in K */
    assert_cone(&S, -3, 1, 1, (double[]){0, 0, 0}, (double[]){-3, 1, 1});    /* in K° */
    fl_friction_set_release(&S);
    /* segment [(0,0),(2,0)]: K = cone{(1,0,0),(1,2,0)} is planar; x = (1,3,1):
     * in-plane point (1,3,0) = -0.5 (1,0,0) + 1.5 (1,2,0) is outside, the ray
     * (1,2,0) gives t = 7/5, p = (1.4,2.8,0); polar = x - p (Moreau) */
    fl_friction_set G;
    double seg[4] = {0, 0, 2, 0};
    cr_assert_eq(fl_friction_set_polygon(&G, 2, seg, 0, NULL, NULL), FL_OK);
    assert_cone(&G, 1, 3, 1, (double[]){1.4, 2.8, 0}, (double[]){-0.4, 0.2, 1});
    assert_cone(&G, 0, 0, 5, (double[]){0, 0, 0}, (double[]){0, 0, 5});
    fl_friction_set_release(&G);
    /* the wedge {t2 >= |t1|}: K = {n >= 0, t2 >= |t1|} = cone{(0,-1,1), (1,0,0),
     * (0,1,1)}; (-1, 0, 2) has n < 0: onto the face n = 0, p = (0,0,2) */
    fl_friction_set W = wedge();
    assert_cone(&W, -1, 0, 2, (double[]){0, 0, 2}, (double[]){-1, 0, 0});
    fl_friction_set_release(&W);
}

Test(friction_sets, copy_and_release)
{
    fl_friction_set U = ushape(), V, D, I;
    cr_assert_eq(fl_friction_set_copy(&V, &U, NULL), FL_OK);
    cr_assert_neq(V.vert, U.vert);
    cr_assert_eq(V.nvert, 3);
    cr_assert_eq(V.nray, 1);
    cr_assert_eq(memcmp(V.vert, U.vert, 6 * sizeof(double)), 0);
    fl_friction_set_release(&U);
    assert_proj(&V, 3.0, 5.0, 1.0, 5.0);   /* the copy outlives the original */
    fl_friction_set_release(&V);
    fl_friction_set_release(&V);                    /* idempotent */
    fl_friction_set_release(NULL);
    cr_assert_eq(fl_friction_set_disc(&D, 2, 0.3, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_copy(&V, &D, NULL), FL_OK);
    cr_assert_eq(V.mu, 0.3);
    cr_assert_eq(fl_friction_set_interval(&I, -INFINITY, 1.0, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_copy(&V, &I, NULL), FL_OK);
    cr_assert(isinf(V.lo));
    fl_friction_set bad;
    memset(&bad, 0, sizeof bad);
    fl_error e;
    cr_assert_eq(fl_friction_set_copy(&V, &bad, &e), FL_EINVAL);
    cr_assert_eq(fl_friction_set_copy(NULL, &D, NULL), FL_EINVAL);
    fl_friction_set_release(&bad);
}

/* ------------------------------------------------------------------ */
/* bad input                                                           */

static void expect_fail(fl_status got, fl_status want, const fl_error *e, const char *needle)
{
    cr_assert_eq(got, want, "status %d (%s), expected %d", got, e->message, want);
    cr_assert_eq(e->status, want);
    cr_assert(strstr(e->message, needle), "message '%s' lacks '%s'", e->message, needle);
}

Test(friction_sets, bad_disc_and_interval)
{
    fl_friction_set C;
    fl_error e;
    expect_fail(fl_friction_set_disc(&C, 3, 1.0, &e), FL_EDIM, &e, "dim");
    expect_fail(fl_friction_set_disc(&C, 2, -1.0, &e), FL_EINVAL, &e, "mu must be >= 0");
    expect_fail(fl_friction_set_disc(&C, 2, NAN, &e), FL_ENONFINITE, &e, "not finite");
    expect_fail(fl_friction_set_disc(&C, 1, INFINITY, &e), FL_ENONFINITE, &e, "not finite");
    expect_fail(fl_friction_set_disc(NULL, 1, 1.0, &e), FL_EINVAL, &e, "NULL");
    expect_fail(fl_friction_set_interval(&C, 2.0, 1.0, &e), FL_EINVAL, &e, "lo > hi");
    expect_fail(fl_friction_set_interval(&C, NAN, 1.0, &e), FL_ENONFINITE, &e, "NaN");
    expect_fail(fl_friction_set_interval(&C, INFINITY, INFINITY, &e), FL_EINVAL, &e, "empty");
    expect_fail(fl_friction_set_interval(&C, -1.0, -INFINITY, &e), FL_EINVAL, &e, "empty");
    expect_fail(fl_friction_set_interval(NULL, 0, 1, &e), FL_EINVAL, &e, "NULL");
    cr_assert_eq(fl_friction_set_disc(&C, 2, -1.0, NULL), FL_EINVAL);   /* err may be NULL */
}

Test(friction_sets, bad_polygons)
{
    fl_friction_set C;
    fl_error e;
    double cw[6] = {0, 0, 0, 1, 1, 0};              /* clockwise triangle */
    double ccw[6] = {0, 0, 1, 0, 0, 1};
    double nonconvex[8] = {0, 0, 2, 0, 0.5, 0.5, 0, 2};
    double collinear[8] = {0, 0, 1, 0, 2, 0, 0, 1};
    double dup[6] = {0, 0, 1, 0, 1, 0};
    double star[10] = {1, 0, -0.809, 0.588, 0.309, -0.951, 0.309, 0.951, -0.809, -0.588};
    double nanv[4] = {0, NAN, 1, 0};
    double d1[2] = {0, 1}, dz[2] = {0, 0}, dn[2] = {INFINITY, 0}, d3[6] = {0, 1, 1, 1, -1, 1};
    double u[6] = {-1, 0, 0, -1, 1, 0};
    expect_fail(fl_friction_set_polygon(&C, 0, ccw, 0, NULL, &e), FL_EINVAL, &e, "empty");
    expect_fail(fl_friction_set_polygon(&C, 3, NULL, 0, NULL, &e), FL_EINVAL, &e, "empty");
    expect_fail(fl_friction_set_polygon(&C, 3, cw, 0, NULL, &e), FL_EINVAL, &e, "counter-clockwise");
    expect_fail(fl_friction_set_polygon(&C, 4, nonconvex, 0, NULL, &e), FL_EINVAL, &e, "convex");
    expect_fail(fl_friction_set_polygon(&C, 4, collinear, 0, NULL, &e), FL_EINVAL, &e, "strict left");
    expect_fail(fl_friction_set_polygon(&C, 3, dup, 0, NULL, &e), FL_EINVAL, &e, "coincide");
    expect_fail(fl_friction_set_polygon(&C, 5, star, 0, NULL, &e), FL_EINVAL, &e, "more than once");
    expect_fail(fl_friction_set_polygon(&C, 2, nanv, 0, NULL, &e), FL_ENONFINITE, &e, "not finite");
    expect_fail(fl_friction_set_polygon(&C, 3, u, 3, d3, &e), FL_EINVAL, &e, "at most 2 rays");
    expect_fail(fl_friction_set_polygon(&C, 3, u, 1, NULL, &e), FL_EINVAL, &e, "ray is NULL");
    expect_fail(fl_friction_set_polygon(&C, 3, u, 1, dz, &e), FL_EINVAL, &e, "zero");
    expect_fail(fl_friction_set_polygon(&C, 3, u, 1, dn, &e), FL_ENONFINITE, &e, "ray 0");
    /* the U with its ray pointing down would not be convex */
    double down[2] = {0, -1};
    expect_fail(fl_friction_set_polygon(&C, 3, u, 1, down, &e), FL_EINVAL, &e, "non-convex");
    /* two rays not forming a pointed wedge (cross(d0, d1) >= 0) */
    double pt[2] = {0, 0}, wrong[4] = {1, 1, -1, 1}, par[4] = {0, 1, 0, 1};
    expect_fail(fl_friction_set_polygon(&C, 1, pt, 2, wrong, &e), FL_EINVAL, &e, "pointed wedge");
    expect_fail(fl_friction_set_polygon(&C, 1, pt, 2, par, &e), FL_EINVAL, &e, "pointed wedge");
    /* a chain that turns right */
    double zig[8] = {-2, 0, -1, -1, 0, -1.2, 1, -1.8};
    expect_fail(fl_friction_set_polygon(&C, 4, zig, 1, d1, &e), FL_EINVAL, &e, "strict left");
    expect_fail(fl_friction_set_polygon(NULL, 3, ccw, 0, NULL, &e), FL_EINVAL, &e, "NULL");
    cr_assert_eq(fl_friction_set_polygon(&C, 3, ccw, 0, NULL, NULL), FL_OK);
    fl_friction_set_release(&C);
}

Test(friction_sets, bad_arguments_to_operations)
{
    fl_friction_set C, Z;
    fl_error e;
    memset(&Z, 0, sizeof Z);
    cr_assert_eq(fl_friction_set_disc(&C, 2, 1.0, NULL), FL_OK);
    double x[3] = {1, 2, 3}, p[3], nanx[3] = {NAN, 0, 0}, c[2];
    expect_fail(fl_friction_set_project(&Z, x, p, &e), FL_EINVAL, &e, "not a valid friction set");
    expect_fail(fl_friction_set_project(NULL, x, p, &e), FL_EINVAL, &e, "NULL");
    expect_fail(fl_friction_set_project(&C, NULL, p, &e), FL_EINVAL, &e, "NULL vector");
    expect_fail(fl_friction_set_project(&C, nanx, p, &e), FL_ENONFINITE, &e, "not finite");
    double G[4] = {1, 2, 2, 1}, Ga[4] = {1, 0.5, 0, 1}, Gn[4] = {1, 0, 0, NAN};
    double g1 = -1.0;
    expect_fail(fl_friction_set_project_metric(&C, G, x, p, &e), FL_ENOTSPD, &e, "positive definite");
    expect_fail(fl_friction_set_project_metric(&C, Ga, x, p, &e), FL_ENOTSPD, &e, "symmetric");
    expect_fail(fl_friction_set_project_metric(&C, Gn, x, p, &e), FL_ENONFINITE, &e, "not finite");
    expect_fail(fl_friction_set_project_metric(&C, NULL, x, p, &e), FL_EINVAL, &e, "G is NULL");
    expect_fail(fl_friction_set_project_metric(&C, Ga, NULL, p, &e), FL_EINVAL, &e, "NULL vector");
    expect_fail(fl_friction_set_project_metric(&Z, G, x, p, &e), FL_EINVAL, &e, "not a valid");
    double I[4] = {1, 0, 0, 1};
    expect_fail(fl_friction_set_project_metric(&C, I, nanx, p, &e), FL_ENONFINITE, &e, "x is not finite");
    fl_friction_set L;
    cr_assert_eq(fl_friction_set_interval(&L, -1, 1, NULL), FL_OK);
    expect_fail(fl_friction_set_project_metric(&L, &g1, x, p, &e), FL_ENOTSPD, &e, "> 0");
    expect_fail(fl_friction_set_support_point(&C, nanx, c, &e), FL_ENONFINITE, &e, "not finite");
    expect_fail(fl_friction_set_support_point(&C, NULL, c, &e), FL_EINVAL, &e, "NULL");
    expect_fail(fl_friction_set_support_point(&Z, x, c, &e), FL_EINVAL, &e, "not a valid");
    expect_fail(fl_friction_set_cone_project(&C, nanx, p, &e), FL_ENONFINITE, &e, "not finite");
    expect_fail(fl_friction_set_cone_project(&C, NULL, p, &e), FL_EINVAL, &e, "NULL");
    expect_fail(fl_friction_set_cone_project_polar(&Z, x, p, &e), FL_EINVAL, &e, "not a valid");
    double s;
    cr_assert_eq(fl_friction_set_support(&Z, x, &s), 0);
    cr_assert_eq(fl_friction_set_support(&C, NULL, &s), 0);
    s = 7.0;
    cr_assert_eq(fl_friction_set_support(&C, nanx, &s), 0);
    cr_assert_eq(s, 7.0);
    cr_assert_eq(fl_friction_set_contains(&Z, x, 1.0), 0);
    cr_assert_eq(fl_friction_set_contains(&C, nanx, 1.0), 0);
    cr_assert_eq(fl_friction_set_contains(&C, NULL, 1.0), 0);
    cr_assert_not(fl_friction_set_is_bounded(&Z));
    /* a corrupted disc is refused too */
    fl_friction_set B = C;
    B.mu = -1;
    cr_assert_eq(fl_friction_set_project(&B, x, p, NULL), FL_EINVAL);
    B = L;
    B.lo = 2;
    cr_assert_eq(fl_friction_set_project(&B, x, p, NULL), FL_EINVAL);
    B = Z;
    B.kind = FL_SET_POLYGON;
    cr_assert_eq(fl_friction_set_project(&B, x, p, NULL), FL_EINVAL);
    cr_assert_eq(fl_set_random_variant(NULL, 99, &B, &e), FL_EINVAL);
}

/* ------------------------------------------------------------------ */
/* property tests on random sets                                       */

/* The optimality certificate of a projection: fl_sets_check_certificate
 * (checks/sets_checks.h, proofs/friction_sets.md §2). */

Test(friction_sets, projection_is_certified_idempotent_nonexpansive)
{
    gsl_rng *r = fl_test_rng(11);
    double worst_cert = 0, worst_idem = 0, worst_lip = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK, "%s", fl_test_seed_note());
        int dim = C.dim;
        double x[2], y[2], px[2], py[2], pp[2];
        fl_set_random_near(r, &C, x);
        fl_set_random_near(r, &C, y);
        cr_assert_eq(fl_friction_set_project(&C, x, px, NULL), FL_OK);
        cr_assert_eq(fl_friction_set_project(&C, y, py, NULL), FL_OK);
        cr_assert_eq(fl_friction_set_project(&C, px, pp, NULL), FL_OK);
        worst_cert = fmax(worst_cert, fl_sets_check_certificate(&C, NULL, x, px));
        double d[2] = {pp[0] - px[0], dim == 2 ? pp[1] - px[1] : 0};
        worst_idem = fmax(worst_idem, nrm(dim, d) / (fl_set_random_scale(&C) + nrm(dim, x)));
        double dp[2] = {px[0] - py[0], dim == 2 ? px[1] - py[1] : 0};
        double dx[2] = {x[0] - y[0], dim == 2 ? x[1] - y[1] : 0};
        worst_lip = fmax(worst_lip, (nrm(dim, dp) - nrm(dim, dx)) /
                                        (fl_set_random_scale(&C) + nrm(dim, x) + nrm(dim, y)));
        cr_assert(fl_friction_set_contains(&C, px, 1e-12 * fl_set_random_scale(&C)), "P(x) in C; %s",
                  fl_test_seed_note());
        fl_friction_set_release(&C);
    }
    cr_assert_leq(worst_cert, 1e-12, "optimality certificate violated by %g; %s", worst_cert,
                  fl_test_seed_note());
    cr_assert_leq(worst_idem, 1e-14, "P(P(x)) != P(x) by %g; %s", worst_idem, fl_test_seed_note());
    cr_assert_leq(worst_lip, 1e-13, "|Px - Py| > |x - y| by %g; %s", worst_lip, fl_test_seed_note());
    gsl_rng_free(r);
}

Test(friction_sets, metric_projection_is_certified_idempotent_nonexpansive)
{
    gsl_rng *r = fl_test_rng(12);
    double worst_cert = 0, worst_idem = 0, worst_lip = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
        int dim = C.dim;
        double G[4], x[2], y[2], px[2], py[2], pp[2];
        fl_set_random_metric(r, dim, 1e3, G);
        fl_set_random_near(r, &C, x);
        fl_set_random_near(r, &C, y);
        cr_assert_eq(fl_friction_set_project_metric(&C, G, x, px, NULL), FL_OK, "%s", fl_test_seed_note());
        cr_assert_eq(fl_friction_set_project_metric(&C, G, y, py, NULL), FL_OK);
        cr_assert_eq(fl_friction_set_project_metric(&C, G, px, pp, NULL), FL_OK);
        worst_cert = fmax(worst_cert, fl_sets_check_certificate(&C, G, x, px));
        double d[2] = {pp[0] - px[0], dim == 2 ? pp[1] - px[1] : 0};
        worst_idem = fmax(worst_idem, nrm(dim, d) / (fl_set_random_scale(&C) + nrm(dim, x)));
        double dp[2] = {px[0] - py[0], dim == 2 ? px[1] - py[1] : 0};
        double dx[2] = {x[0] - y[0], dim == 2 ? x[1] - y[1] : 0};
        double ng = gnorm(dim, G, dx);
        worst_lip = fmax(worst_lip, (gnorm(dim, G, dp) - ng) / (ng + fl_set_random_scale(&C)));
        fl_friction_set_release(&C);
    }
    cr_assert_leq(worst_cert, 1e-10, "G-certificate violated by %g; %s", worst_cert,
                  fl_test_seed_note());
    cr_assert_leq(worst_idem, 1e-12, "idempotence %g; %s", worst_idem, fl_test_seed_note());
    cr_assert_leq(worst_lip, 1e-12, "G-nonexpansive %g; %s", worst_lip, fl_test_seed_note());
    gsl_rng_free(r);
}


Test(friction_sets, disc_metric_projection_matches_brute_force)
{
    gsl_rng *r = fl_test_rng(13);
    double worst = 0;
    for (int it = 0; it < 60; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_set_random_variant(r, FL_SETRAND_DISC2, &C, NULL), FL_OK);
        double G[4], x[2], p[2], b[2];
        fl_set_random_metric(r, 2, 1e3, G);
        do fl_set_random_near(r, &C, x); while (hypot(x[0], x[1]) <= C.mu);
        cr_assert_eq(fl_friction_set_project_metric(&C, G, x, p, NULL), FL_OK);
        fl_sets_check_brute_disc(C.mu, G, x, b);
        worst = fmax(worst, hypot(p[0] - b[0], p[1] - b[1]) / C.mu);
        cr_assert_float_eq(hypot(p[0], p[1]), C.mu, 1e-14 * C.mu);
    }
    cr_assert_leq(worst, 1e-6, "disc G-projection vs brute force: %g; %s", worst,
                  fl_test_seed_note());
    gsl_rng_free(r);
}

Test(friction_sets, projection_variational_inequality_on_random_points)
{
    /* (x - P x).(c - P x) <= 0 for random c in C (the projection's VI) */
    gsl_rng *r = fl_test_rng(14);
    double worst = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
        int dim = C.dim;
        double x[2], p[2], c[2];
        fl_set_random_near(r, &C, x);
        fl_friction_set_project(&C, x, p, NULL);
        for (int j = 0; j < 10; j++) {
            fl_random_point_in_set(r, &C, c);
            cr_assert(fl_friction_set_contains(&C, c, 1e-12 * (fl_set_random_scale(&C) + nrm(dim, c))),
                      "random point of C not in C; %s", fl_test_seed_note());
            double a[2] = {x[0] - p[0], dim == 2 ? x[1] - p[1] : 0};
            double b[2] = {c[0] - p[0], dim == 2 ? c[1] - p[1] : 0};
            worst = fmax(worst, dotd(dim, a, b) / (nrm(dim, a) * nrm(dim, b) + 1e-300));
        }
        fl_friction_set_release(&C);
    }
    cr_assert_leq(worst, 1e-12, "VI violated: cos = %g; %s", worst, fl_test_seed_note());
    gsl_rng_free(r);
}

Test(friction_sets, support_function_homogeneous_subadditive_and_attained)
{
    gsl_rng *r = fl_test_rng(15);
    double worst = 0;
    int ninf = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
        int dim = C.dim;
        double y[2] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)};
        double z[2] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)};
        double t = fl_rng_loguniform(r, 1e-3, 1e3);
        double ty[2] = {t * y[0], t * y[1]}, yz[2] = {y[0] + z[0], y[1] + z[1]};
        double sy, sz, sty, syz;
        int fy = fl_friction_set_support(&C, y, &sy), fz = fl_friction_set_support(&C, z, &sz);
        int fty = fl_friction_set_support(&C, ty, &sty), fyz = fl_friction_set_support(&C, yz, &syz);
        cr_assert_eq(fy, fty, "finiteness not homogeneous; %s", fl_test_seed_note());
        double sc = fl_set_random_scale(&C) * (nrm(dim, y) + nrm(dim, z));
        if (fy) worst = fmax(worst, fabs(sty - t * sy) / (t * sc));
        if (fy && fz) {
            cr_assert(fyz, "S(y+z) = inf with S(y), S(z) finite; %s", fl_test_seed_note());
            worst = fmax(worst, (syz - sy - sz) / sc);
        }
        if (!fy) ninf++;
        if (fy) {   /* attained at the support point, which lies in C */
            double c[2], q[2];
            cr_assert_eq(fl_friction_set_support_point(&C, y, c, NULL), FL_OK);
            cr_assert(fl_friction_set_contains(&C, c, 1e-12 * fl_set_random_scale(&C)));
            worst = fmax(worst, fabs(dotd(dim, c, y) - sy) / sc);
            for (int j = 0; j < 5; j++) {   /* and dominates c.y over C */
                fl_random_point_in_set(r, &C, q);
                worst = fmax(worst, (dotd(dim, q, y) - sy) / (sc + nrm(dim, q) * nrm(dim, y)));
            }
        } else {   /* +inf: the set is unbounded in a direction with c.y -> inf */
            cr_assert_not(fl_friction_set_is_bounded(&C), "S = inf on a bounded set; %s",
                          fl_test_seed_note());
            /* the recession test: S(y) = inf iff some recession direction
             * d has d.y > 0; then c0 + t d in C has c.y -> +inf */
            double c0[2], d[2] = {0, 0};
            fl_random_point_in_set(r, &C, c0);
            if (C.kind == FL_SET_POLYGON) {
                for (size_t k = 0; k < C.nray; k++)
                    if (dotd(2, C.ray + 2 * k, y) > 0) {
                        d[0] = C.ray[2 * k];
                        d[1] = C.ray[2 * k + 1];
                    }
            } else {
                d[0] = (y[0] > 0 && isinf(C.hi)) ? 1.0 : (y[0] < 0 && isinf(C.lo)) ? -1.0 : 0.0;
            }
            cr_assert_gt(dotd(dim, d, y), 0, "no recession direction; %s", fl_test_seed_note());
            double far[2] = {c0[0] + 1e6 * d[0], c0[1] + 1e6 * d[1]};
            cr_assert(fl_friction_set_contains(&C, far, 1e-6 * (fl_set_random_scale(&C) + nrm(dim, far))));
        }
        fl_friction_set_release(&C);
    }
    cr_assert_leq(worst, 1e-13, "support-function identities violated by %g; %s", worst,
                  fl_test_seed_note());
    cr_assert_gt(ninf, 10, "the generator should give unbounded directions");
    gsl_rng_free(r);
}

Test(friction_sets, subdifferential_of_support_is_normal_cone_inverse)
{
    /* y in dS_C(x) <=> x in N_C(y) (Fenchel, 001 §2.1), sampled both ways:
     * (a) z outside, y = P_C(z), x = z - y in N_C(y): check S_C(x) = x.y;
     * (b) x with S_C(x) finite, y = support point: check P_C(y + x) = y. */
    gsl_rng *r = fl_test_rng(16);
    double worst = 0;
    int nlean = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
        int dim = C.dim;
        double z[2], y[2], x[2], s;
        fl_set_random_near(r, &C, z);
        fl_friction_set_project(&C, z, y, NULL);
        for (int i = 0; i < dim; i++) x[i] = z[i] - y[i];
        double sc = (fl_set_random_scale(&C) + nrm(dim, z)) * (1 + nrm(dim, x));
        if (fl_friction_set_support(&C, x, &s)) {
            worst = fmax(worst, fabs(s - dotd(dim, x, y)) / sc);
        } else {
            /* x = z - y carries a rounding error ~ eps |y| / |x| in its
             * direction: it may lean into a ray by that much, no more */
            cr_assert_eq(C.kind, FL_SET_POLYGON, "normal outside D(S); %s", fl_test_seed_note());
            for (size_t k = 0; k < C.nray; k++) {
                double lean = dotd(2, C.ray + 2 * k, x) / (nrm(2, C.ray + 2 * k) * nrm(2, x));
                cr_assert_leq(lean, 1e3 * 2.2e-16 * (1 + (nrm(2, y) + nrm(2, z)) / nrm(2, x)),
                              "normal leans into a ray by %g; %s", lean, fl_test_seed_note());
            }
            nlean++;
        }
        double w[2] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)}, c[2], q[2];
        if (fl_friction_set_support(&C, w, &s)) {
            cr_assert_eq(fl_friction_set_support_point(&C, w, c, NULL), FL_OK);
            double cw[2] = {c[0] + w[0], dim == 2 ? c[1] + w[1] : 0};
            fl_friction_set_project(&C, cw, q, NULL);
            double d[2] = {q[0] - c[0], dim == 2 ? q[1] - c[1] : 0};
            worst = fmax(worst, nrm(dim, d) / ((fl_set_random_scale(&C) + nrm(dim, c)) * (1 + nrm(dim, w))));
        }
        fl_friction_set_release(&C);
    }
    cr_assert_leq(worst, 1e-12, "Fenchel duality violated by %g; %s", worst, fl_test_seed_note());
    cr_assert_lt(nlean, NRAND / 20, "too many rounding-lean normals (%d); %s", nlean,
                 fl_test_seed_note());
    gsl_rng_free(r);
}

Test(friction_sets, three_coulomb_statements_agree_and_fail_together)
{
    gsl_rng *r = fl_test_rng(17);
    int nslide = 0, nstick = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
        double rn, rt[2], v[2], n[2];
        fl_random_coulomb_pair(r, &C, &rn, rt, v, n);
        if (nrm(C.dim, v) > 0) nslide++;
        else nstick++;
        cr_assert(fl_friction_set_normality(&C, rn, rt, v, 1e-10), "(i) on a law pair (kind %d); %s",
                  C.kind, fl_test_seed_note());
        cr_assert(fl_friction_set_max_dissipation(&C, rn, rt, v, 1e-10), "(ii) kind %d; %s", C.kind,
                  fl_test_seed_note());
        cr_assert(fl_friction_set_variational(&C, rn, rt, v, 1e-10), "(iii) kind %d; %s", C.kind,
                  fl_test_seed_note());
        int mode = fl_random_coulomb_violation(r, &C, &rn, rt, v);
        cr_assert_not(fl_friction_set_normality(&C, rn, rt, v, 1e-10), "(i) mode %d kind %d; %s",
                      mode, C.kind, fl_test_seed_note());
        cr_assert_not(fl_friction_set_max_dissipation(&C, rn, rt, v, 1e-10), "(ii) mode %d; %s",
                      mode, fl_test_seed_note());
        cr_assert_not(fl_friction_set_variational(&C, rn, rt, v, 1e-10), "(iii) mode %d; %s", mode,
                      fl_test_seed_note());
        fl_friction_set_release(&C);
    }
    cr_assert_gt(nslide, 50);
    cr_assert_gt(nstick, 50);
    gsl_rng_free(r);
}

Test(friction_sets, variational_inequality_sampled_matches_closed_form)
{
    /* (iii) sampled over trial velocities w never finds a negative value on
     * law pairs; on violations some w does (w = 0, w = v - t u, ...), which
     * checks the closed-form infimum with an independent search. */
    gsl_rng *r = fl_test_rng(18);
    for (int it = 0; it < 200; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
        int dim = C.dim;
        double rn, rt[2], v[2], n[2], sv;
        fl_random_coulomb_pair(r, &C, &rn, rt, v, n);
        double mv[2] = {-v[0], dim == 2 ? -v[1] : 0};
        int fin = fl_friction_set_support(&C, mv, &sv);
        cr_assert(fin || rn == 0, "law pair with S(-v) = inf; %s", fl_test_seed_note());
        double F = nrm(dim, rt) + rn * fl_set_random_scale(&C);
        for (int j = 0; j < 50 && rn > 0; j++) {
            double w[2] = {gsl_ran_gaussian(r, 3), gsl_ran_gaussian(r, 3)}, mw[2] = {-w[0], -w[1]}, sw;
            if (!fl_friction_set_support(&C, mw, &sw)) continue;   /* +inf: inequality holds */
            double dw[2] = {w[0] - v[0], w[1] - v[1]};
            double val = dotd(dim, rt, dw) + rn * (sw - sv);
            cr_assert_geq(val, -1e-10 * F * (1 + nrm(dim, w) + nrm(dim, v)),
                          "(iii) negative at a trial w: %g; %s", val, fl_test_seed_note());
        }
        fl_friction_set_release(&C);
    }
    gsl_rng_free(r);
}

Test(friction_sets, cone_moreau_decomposition)
{
    /* x = P_K x + P_K° x, P_K x . P_K° x = 0, both idempotent, P_K x in K
     * (Moreau); the 1D disc cone agrees with the interval [-mu, mu] cone
     * (two independent code paths). */
    gsl_rng *r = fl_test_rng(19);
    double worst = 0;
    for (int it = 0; it < NRAND; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_set_random_variant(r, it % FL_SETRAND_NVARIANTS, &C, NULL), FL_OK);
        int n = C.dim + 1;
        double x[3], p[3], q[3], pp[3], qq[3];
        for (int i = 0; i < n; i++) x[i] = gsl_ran_gaussian(r, 2.0);
        cr_assert_eq(fl_friction_set_cone_project(&C, x, p, NULL), FL_OK);
        cr_assert_eq(fl_friction_set_cone_project_polar(&C, x, q, NULL), FL_OK);
        cr_assert_eq(fl_friction_set_cone_project(&C, p, pp, NULL), FL_OK);
        cr_assert_eq(fl_friction_set_cone_project_polar(&C, q, qq, NULL), FL_OK);
        double nx = 0, pq = 0, sum = 0, idem = 0;
        for (int i = 0; i < n; i++) {
            nx += x[i] * x[i];
            pq += p[i] * q[i];
            sum = fmax(sum, fabs(p[i] + q[i] - x[i]));
            idem = fmax(idem, fabs(pp[i] - p[i]) + fabs(qq[i] - q[i]));
        }
        double sc = fl_set_random_scale(&C);
        worst = fmax(worst, sum / (sqrt(nx) * sc));
        worst = fmax(worst, fabs(pq) / (nx * sc * sc));
        worst = fmax(worst, idem / (sqrt(nx) * sc));
        /* p in K: p_n >= 0 and p_t in p_n C */
        cr_assert_geq(p[0], -1e-14 * sqrt(nx), "%s", fl_test_seed_note());
        if (p[0] > 0) {   /* dist(p_t, p_n C) relative to |x| */
            double t[2] = {p[1] / p[0], n == 3 ? p[2] / p[0] : 0}, pt[2];
            cr_assert_eq(fl_friction_set_project(&C, t, pt, NULL), FL_OK);
            double d[2] = {t[0] - pt[0], n == 3 ? t[1] - pt[1] : 0};
            worst = fmax(worst, p[0] * nrm(C.dim, d) / (sqrt(nx) * sc));
        }
        /* q in K°: q_n + S_C(q_t) <= 0 (K° = {y : y_n + S_C(y_t) <= 0}) */
        double qt[2] = {q[1], n == 3 ? q[2] : 0}, sq;
        if (fl_friction_set_support(&C, qt, &sq)) {
            worst = fmax(worst, (q[0] + sq) / (sqrt(nx) * sc));
        } else {   /* S = +inf only by rounding: how far q_t leans into a ray */
            double lean = C.kind == FL_SET_POLYGON ? 0.0 : fabs(qt[0]);
            for (size_t k = 0; C.kind == FL_SET_POLYGON && k < C.nray; k++)
                lean = fmax(lean, dotd(2, C.ray + 2 * k, qt) / nrm(2, C.ray + 2 * k));
            worst = fmax(worst, lean / sqrt(nx));
        }
        if (C.kind == FL_SET_DISC && C.dim == 1) {
            fl_friction_set L;
            double pl[2];
            cr_assert_eq(fl_friction_set_interval(&L, -C.mu, C.mu, NULL), FL_OK);
            cr_assert_eq(fl_friction_set_cone_project(&L, x, pl, NULL), FL_OK);
            worst = fmax(worst, (fabs(pl[0] - p[0]) + fabs(pl[1] - p[1])) / (sqrt(nx) * sc));
        }
        fl_friction_set_release(&C);
    }
    cr_assert_leq(worst, 1e-13, "Moreau decomposition violated by %g; %s", worst,
                  fl_test_seed_note());
    gsl_rng_free(r);
}

Test(friction_sets, generator_draws_every_kind_containing_zero)
{
    gsl_rng *r = fl_test_rng(20);
    int seen[FL_SETRAND_NVARIANTS] = {0}, nray[3] = {0}, unb = 0;
    for (int it = 0; it < 500; it++) {
        int var = (int)gsl_rng_uniform_int(r, FL_SETRAND_NVARIANTS);
        fl_friction_set C;
        cr_assert_eq(fl_set_random_variant(r, var, &C, NULL), FL_OK, "%s", fl_test_seed_note());
        seen[var]++;
        double z[2] = {0, 0};
        cr_assert(fl_friction_set_contains(&C, z, 1e-12 * fl_set_random_scale(&C)), "0 not in C (variant %d); %s",
                  var, fl_test_seed_note());
        if (C.kind == FL_SET_POLYGON) nray[C.nray]++;
        if (!fl_friction_set_is_bounded(&C)) unb++;
        fl_friction_set D;   /* the copy re-validates the stored description */
        cr_assert_eq(fl_friction_set_copy(&D, &C, NULL), FL_OK);
        fl_friction_set_release(&D);
        fl_friction_set_release(&C);
    }
    for (int k = 0; k < FL_SETRAND_NVARIANTS; k++) cr_assert_gt(seen[k], 10);
    cr_assert_gt(nray[1], 10);
    cr_assert_gt(nray[2], 10);
    cr_assert_gt(unb, 100);
    fl_friction_set C;
    cr_assert_eq(fl_random_friction_set(r, &C), FL_OK);
    fl_friction_set_release(&C);
    gsl_rng_free(r);
}

/* ------------------------------------------------------------------ */
/* The checks of checks/sets_checks.c: the certificate refuses a point */
/* that is not the projection; the crosscheck passes.                  */
/* ------------------------------------------------------------------ */
#include "check_capture.h"
#include "checks/fl_tasks.h"

Test(sets_checks, certificate_refuses_a_wrong_projection)
{
    gsl_rng *r = fl_test_rng(515);
    int refused = 0, tried = 0;
    for (int it = 0; it < 200; it++) {
        fl_friction_set C;
        cr_assert_eq(fl_random_friction_set(r, &C), FL_OK, "%s", fl_test_seed_note());
        double x[2], p[2], q[2];
        fl_set_random_near(r, &C, x);
        cr_assert_eq(fl_friction_set_project(&C, x, p, NULL), FL_OK);
        cr_assert_leq(fl_sets_check_certificate(&C, NULL, x, p), 1e-10, "%s", fl_test_seed_note());
        /* a wrong answer: another point of C, well away from P x */
        fl_random_point_in_set(r, &C, q);
        double d = fabs(q[0] - p[0]) + (C.dim == 2 ? fabs(q[1] - p[1]) : 0.0);
        if (d > 0.1 * fl_set_random_scale(&C) && !fl_friction_set_contains(&C, x, 0.0)) {
            tried++;
            refused += fl_sets_check_certificate(&C, NULL, x, q) > 1e-6;
        }
        fl_friction_set_release(&C);
    }
    cr_assert(tried > 20 && refused == tried, "%d of %d wrong projections refused; %s", refused, tried,
              fl_test_seed_note());
    gsl_rng_free(r);
}

Test(sets_checks, crosscheck_passes)
{
    capture c;
    fl_check_ctx ctx = capture_ctx(&c);
    ctx.systems = 60;
    cr_assert_eq(fl_sets_crosscheck(&ctx), 0);
    cr_assert(ctx.passed >= 17 && ctx.failed == 0, "%ld passed, %ld failed", ctx.passed, ctx.failed);
    capture_cleanup(&c);
}
