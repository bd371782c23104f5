/* test_fl_scalar.c — scalar kernels (core/fl_scalar.c): closed forms and
 * the properties proved in proofs/acsl, re-checked in floating point. */
#include <criterion/criterion.h>
#include <math.h>
#include <gsl/gsl_rng.h>

#include "testkit/fl_random.h"
#include "fl_scalar.h"

Test(scalar, clamp_closed_form)
{
    cr_assert_eq(fl_scalar_clamp(-2.0, -1.0, 3.0), -1.0);
    cr_assert_eq(fl_scalar_clamp(0.5, -1.0, 3.0), 0.5);
    cr_assert_eq(fl_scalar_clamp(7.0, -1.0, 3.0), 3.0);
    cr_assert_eq(fl_scalar_clamp(1.0, 2.0, 2.0), 2.0);
}

Test(scalar, interval_projection_with_infinite_ends)
{
    /* ]-inf, b] (001 §6.2) */
    cr_assert_eq(fl_scalar_proj_interval(-1e300, 0, 0.0, 1, 2.0), -1e300);
    cr_assert_eq(fl_scalar_proj_interval(5.0, 0, 0.0, 1, 2.0), 2.0);
    /* [a, +inf[ */
    cr_assert_eq(fl_scalar_proj_interval(-5.0, 1, -1.0, 0, 0.0), -1.0);
    cr_assert_eq(fl_scalar_proj_interval(9.0, 1, -1.0, 0, 0.0), 9.0);
    /* the whole line */
    cr_assert_eq(fl_scalar_proj_interval(-3.5, 0, 0.0, 0, 0.0), -3.5);
}

Test(scalar, disc_projection_closed_form)
{
    double px, py;
    fl_scalar_proj_disc(1.0, 3.0, 4.0, &px, &py);   /* |(3,4)| = 5 -> (0.6, 0.8) */
    cr_assert_float_eq(px, 0.6, 1e-15);
    cr_assert_float_eq(py, 0.8, 1e-15);
    fl_scalar_proj_disc(2.0, 0.3, -0.4, &px, &py);   /* inside: unchanged */
    cr_assert_eq(px, 0.3);
    cr_assert_eq(py, -0.4);
    fl_scalar_proj_disc(0.0, 0.3, -0.4, &px, &py);   /* r = 0: the origin */
    cr_assert_eq(px, 0.0);
    cr_assert_eq(py, 0.0);
}

Test(scalar, support_function_of_intervals)
{
    double v = -1.0;
    /* [a,b], a <= 0 <= b: S(v) = b max(v,0) - a max(-v,0) (001 §6.2) */
    cr_assert_eq(fl_scalar_support_interval(1, -2.0, 1, 3.0, 2.0, &v), 1);
    cr_assert_float_eq(v, 6.0, 1e-15);
    cr_assert_eq(fl_scalar_support_interval(1, -2.0, 1, 3.0, -2.0, &v), 1);
    cr_assert_float_eq(v, 4.0, 1e-15);
    /* ]-inf,b]: D(S) = R+ */
    cr_assert_eq(fl_scalar_support_interval(0, 0.0, 1, 3.0, 2.0, &v), 1);
    cr_assert_float_eq(v, 6.0, 1e-15);
    cr_assert_eq(fl_scalar_support_interval(0, 0.0, 1, 3.0, -2.0, &v), 0);
    cr_assert_eq(fl_scalar_support_interval(1, -1.0, 0, 0.0, 1e-300, &v), 0);
    cr_assert_eq(fl_scalar_support_interval(0, 0.0, 0, 0.0, 0.0, &v), 1);
    cr_assert_eq(v, 0.0);
}

Test(scalar, coulomb_solve_satisfies_the_law)
{
    gsl_rng *r = fl_test_rng(11);
    for (int k = 0; k < 10000; k++) {
        double w = exp(4.0 * (gsl_rng_uniform(r) - 0.5));
        double b = 4.0 * (gsl_rng_uniform(r) - 0.5);
        double mr = gsl_rng_uniform(r) < 0.1 ? 0.0 : 2.0 * gsl_rng_uniform(r);
        double s = fl_scalar_coulomb_solve(w, b, mr);
        double u = w * s + b;
        cr_assert_leq(fabs(s), mr, "%s", fl_test_seed_note());
        if (fabs(s) < mr) cr_assert_leq(fabs(u), 1e-12, "%s", fl_test_seed_note());
        if (s == mr && mr > 0) cr_assert_leq(u, 1e-12, "%s", fl_test_seed_note());
        if (s == -mr && mr > 0) cr_assert_geq(u, -1e-12, "%s", fl_test_seed_note());
        /* optimality: no feasible s' does better */
        for (int j = 0; j < 5; j++) {
            double s2 = mr * (2.0 * gsl_rng_uniform(r) - 1.0);
            cr_assert_leq(0.5 * w * s * s + b * s, 0.5 * w * s2 * s2 + b * s2 + 1e-12,
                          "%s", fl_test_seed_note());
        }
    }
    gsl_rng_free(r);
}

Test(scalar, sign_selection)
{
    cr_assert_eq(fl_scalar_sgn_select(2.0, -5.0), 1.0);
    cr_assert_eq(fl_scalar_sgn_select(-1e-300, 5.0), -1.0);
    cr_assert_eq(fl_scalar_sgn_select(0.0, 0.25), 0.25);
    cr_assert_eq(fl_scalar_sgn_select(0.0, -7.0), -1.0);
}

Test(scalar, moreau_decomposition_on_the_line)
{
    gsl_rng *r = fl_test_rng(12);
    for (int k = 0; k < 1000; k++) {
        double x = 10.0 * (gsl_rng_uniform(r) - 0.5), p, q;
        fl_scalar_moreau_decomp(x, &p, &q);
        cr_assert_eq(p + q, x);
        cr_assert_geq(p, 0.0);
        cr_assert_leq(q, 0.0);
        cr_assert_eq(p * q, 0.0);
    }
    gsl_rng_free(r);
}

Test(scalar, projections_are_idempotent_and_nonexpansive)
{
    gsl_rng *r = fl_test_rng(13);
    for (int k = 0; k < 10000; k++) {
        double lo = -3.0 * gsl_rng_uniform(r), hi = 3.0 * gsl_rng_uniform(r);
        int hl = gsl_rng_uniform(r) < 0.7, hh = gsl_rng_uniform(r) < 0.7;
        double x = 10.0 * (gsl_rng_uniform(r) - 0.5), y = 10.0 * (gsl_rng_uniform(r) - 0.5);
        double px = fl_scalar_proj_interval(x, hl, lo, hh, hi);
        double py = fl_scalar_proj_interval(y, hl, lo, hh, hi);
        cr_assert_eq(fl_scalar_proj_interval(px, hl, lo, hh, hi), px);
        cr_assert_leq(fabs(px - py), fabs(x - y) + 1e-15);
        double rad = 2.0 * gsl_rng_uniform(r), ax, ay, bx, by, cx, cy;
        double x2 = 10.0 * (gsl_rng_uniform(r) - 0.5), y2 = 10.0 * (gsl_rng_uniform(r) - 0.5);
        fl_scalar_proj_disc(rad, x, y, &ax, &ay);
        fl_scalar_proj_disc(rad, x2, y2, &bx, &by);
        fl_scalar_proj_disc(rad, ax, ay, &cx, &cy);
        cr_assert_float_eq(cx, ax, 1e-14);
        cr_assert_float_eq(cy, ay, 1e-14);
        cr_assert_leq(hypot(ax - bx, ay - by), hypot(x - x2, y - y2) + 1e-14);
        /* variational inequality: (x - Px).(c - Px) <= 0 for c in the disc */
        double cxx, cyy;
        fl_scalar_proj_disc(rad, 10.0 * (gsl_rng_uniform(r) - 0.5), 10.0 * (gsl_rng_uniform(r) - 0.5),
                            &cxx, &cyy);
        cr_assert_leq((x - ax) * (cxx - ax) + (y - ay) * (cyy - ay), 1e-12);
    }
    gsl_rng_free(r);
}

/* ---- Floating-point counterparts of the ACSL contracts (core/fl_scalar.h)
 * that Frama-C/WP proves in the real model (proofs/acsl, suite 'proofs').
 * The real model ignores rounding; these tests check each contract on
 * doubles, exactly where rounding cannot break it (comparisons, exact
 * selections, sign of a product of two differences) and with a stated
 * tolerance where it can (sums of products, sqrt).  Table: proofs/README.md,
 * "What the machine-checked proofs do not cover". */

static double unif(gsl_rng *r, double a, double b)
{
    return a + (b - a) * gsl_rng_uniform(r);
}

/* An independent reference for the projection onto an interval with flags:
 * fmax/fmin with infinities (the form the callers convert from). */
static double proj_ref(double x, int hl, double lo, int hh, double hi)
{
    return fmin(fmax(x, hl ? lo : -INFINITY), hh ? hi : INFINITY);
}

Test(scalar, interval_projection_contracts_in_floating_point)
{
    gsl_rng *r = fl_test_rng(21);
    for (int k = 0; k < 20000; k++) {
        double lo = unif(r, -3.0, 1.0), hi = lo + (gsl_rng_uniform(r) < 0.1 ? 0.0 : unif(r, 0.0, 4.0));
        int hl = gsl_rng_uniform(r) < 0.7, hh = gsl_rng_uniform(r) < 0.7;
        double x = unif(r, -6.0, 6.0);
        /* clamp: closed_form, in_range, fixes_range, variational_inequality */
        double p = fl_scalar_clamp(x, lo, hi);
        cr_assert_eq(p, fmin(fmax(x, lo), hi), "clamp closed form, x=%g [%g,%g] %s", x, lo, hi,
                     fl_test_seed_note());
        cr_assert(lo <= p && p <= hi, "clamp in range %s", fl_test_seed_note());
        if (lo <= x && x <= hi) cr_assert_eq(p, x, "clamp fixes range %s", fl_test_seed_note());
        double c = unif(r, lo, hi);
        cr_assert_leq((x - p) * (c - p), 0.0, "clamp VI, exact in floating point %s",
                      fl_test_seed_note());
        /* interval with absent ends: the same four clauses */
        double q = fl_scalar_proj_interval(x, hl, lo, hh, hi);
        cr_assert_eq(q, proj_ref(x, hl, lo, hh, hi), "interval closed form %s", fl_test_seed_note());
        cr_assert((!hl || lo <= q) && (!hh || q <= hi), "in interval %s", fl_test_seed_note());
        if ((!hl || lo <= x) && (!hh || x <= hi))
            cr_assert_eq(q, x, "interval fixes its points %s", fl_test_seed_note());
        double cc = (hl && hh) ? unif(r, lo, hi) : hl ? lo + unif(r, 0.0, 5.0)
                  : hh ? hi - unif(r, 0.0, 5.0) : unif(r, -9.0, 9.0);
        cr_assert_leq((x - q) * (cc - q), 0.0, "interval VI %s", fl_test_seed_note());
    }
    gsl_rng_free(r);
}

Test(scalar, disc_projection_contracts_in_floating_point)
{
    gsl_rng *r = fl_test_rng(22);
    const double eps = 0x1p-52;
    for (int k = 0; k < 20000; k++) {
        double rad = gsl_rng_uniform(r) < 0.05 ? 0.0 : unif(r, 0.0, 3.0);
        double sc = pow(10.0, unif(r, -3.0, 3.0));
        double x = sc * unif(r, -1.0, 1.0), y = sc * unif(r, -1.0, 1.0), px, py;
        fl_scalar_proj_disc(rad, x, y, &px, &py);
        double n2 = x * x + y * y, p2 = px * px + py * py;
        /* in_disc: |P|^2 <= r^2 up to rounding of s, s x, s y and the squares */
        cr_assert_leq(p2, rad * rad * (1.0 + 8.0 * eps), "in disc: |P|^2=%.17g r^2=%.17g %s",
                      p2, rad * rad, fl_test_seed_note());
        if (n2 <= rad * rad) {
            /* fixes_disc: exact (the factor is 1.0) */
            cr_assert(px == x && py == y, "fixes the disc %s", fl_test_seed_note());
        } else {
            /* on_circle_outside, radial_outside (P = s (x,y), 0 <= s < 1) */
            cr_assert_leq(fabs(hypot(px, py) - rad), 8.0 * eps * rad,
                          "on the circle: |P|=%.17g r=%.17g %s", hypot(px, py), rad,
                          fl_test_seed_note());
            cr_assert_leq(fabs(px * y - py * x), 8.0 * eps * n2, "collinear %s", fl_test_seed_note());
            cr_assert_geq(px * x + py * y, 0.0, "same direction %s", fl_test_seed_note());
            cr_assert_leq(p2, n2, "shrinks %s", fl_test_seed_note());
        }
    }
    gsl_rng_free(r);
}

Test(scalar, support_function_contracts_in_floating_point)
{
    gsl_rng *r = fl_test_rng(23);
    for (int k = 0; k < 20000; k++) {
        double lo = unif(r, -3.0, 1.0), hi = lo + unif(r, 0.0, 4.0);
        int hl = gsl_rng_uniform(r) < 0.6, hh = gsl_rng_uniform(r) < 0.6;
        double v = gsl_rng_uniform(r) < 0.05 ? 0.0 : unif(r, -2.0, 2.0);
        double value = 12345.0;
        int fin = fl_scalar_support_interval(hl, lo, hh, hi, v, &value);
        /* finiteness, result_is_flag, untouched_if_infinite */
        int expect = (v > 0 ? hh : 1) && (v < 0 ? hl : 1);
        cr_assert_eq(fin, expect, "finiteness flag %s", fl_test_seed_note());
        if (!fin) {
            cr_assert_eq(value, 12345.0, "value untouched %s", fl_test_seed_note());
            /* unbounded: a point of C far out beats any level (lemma function) */
            double m = unif(r, 0.0, 1e6);
            double c = v > 0 ? fmax(hl ? lo : -INFINITY, m / v) + 1.0
                             : fmin(hh ? hi : INFINITY, m / v) - 1.0;
            cr_assert_gt(c * v, m, "unbounded above %s", fl_test_seed_note());
            continue;
        }
        /* attained at the support point, exactly (one product) */
        double cstar = v > 0 ? hi : v < 0 ? lo : 0.0;
        cr_assert_eq(value, v == 0 ? 0.0 : cstar * v, "attained %s", fl_test_seed_note());
        if (hl && hh)
            cr_assert_eq(value, fmax(lo * v, hi * v), "max over the ends %s", fl_test_seed_note());
        /* upper bound over random points of C (c v rounds like value: exact order) */
        for (int j = 0; j < 4; j++) {
            double c = (hl && hh) ? unif(r, lo, hi) : hl ? lo + unif(r, 0.0, 5.0)
                     : hh ? hi - unif(r, 0.0, 5.0) : unif(r, -9.0, 9.0);
            cr_assert_leq(c * v, value, "upper bound c=%g v=%g %s", c, v, fl_test_seed_note());
        }
    }
    gsl_rng_free(r);
}

Test(scalar, coulomb_solve_contracts_in_floating_point)
{
    gsl_rng *r = fl_test_rng(24);
    for (int k = 0; k < 20000; k++) {
        double w = exp(unif(r, -3.0, 3.0)), b = unif(r, -4.0, 4.0);
        double m = gsl_rng_uniform(r) < 0.1 ? 0.0 : unif(r, 0.0, 2.0);
        double s = fl_scalar_coulomb_solve(w, b, m), s0 = -b / w, u = w * s + b;
        double tol = 1e-14 * (fabs(b) + w * m + 1.0);
        /* closed_form (independent fmin/fmax), feasible */
        cr_assert_eq(s, fmin(fmax(s0, -m), m), "closed form %s", fl_test_seed_note());
        cr_assert(-m <= s && s <= m, "feasible %s", fl_test_seed_note());
        /* velocity: u = w (s - s0) */
        cr_assert_leq(fabs(u - w * (s - s0)), tol, "velocity identity %s", fl_test_seed_note());
        /* normal cone, scaled and unscaled: exact signs of products of differences
         * for the scaled form; the unscaled u carries rounding */
        double c = unif(r, -m, m);
        cr_assert_geq((s - s0) * (c - s), 0.0, "normal cone (scaled) %s", fl_test_seed_note());
        cr_assert_geq(u * (c - s), -tol * fabs(c - s), "normal cone u(c-s)=%g %s", u * (c - s),
                      fl_test_seed_note());
        if (m > 0 && s == m) cr_assert_leq(s - s0, 0.0, "sliding backward (scaled) %s", fl_test_seed_note());
        if (m > 0 && s == -m) cr_assert_geq(s - s0, 0.0, "sliding forward (scaled) %s", fl_test_seed_note());
        if (-m < s && s < m) cr_assert_eq(s, s0, "sticking: s = -b/w %s", fl_test_seed_note());
    }
    gsl_rng_free(r);
}

Test(scalar, sign_selection_and_moreau_contracts_in_floating_point)
{
    gsl_rng *r = fl_test_rng(25);
    for (int k = 0; k < 20000; k++) {
        double x = gsl_rng_uniform(r) < 0.1 ? 0.0 : unif(r, -5.0, 5.0) * pow(10.0, unif(r, -300.0, 300.0));
        double hint = unif(r, -3.0, 3.0);
        double g = fl_scalar_sgn_select(x, hint);
        cr_assert(-1.0 <= g && g <= 1.0, "sign in range %s", fl_test_seed_note());
        cr_assert_eq(g * x, fabs(x), "selection of Sgn: g x = |x| %s", fl_test_seed_note());
        if (x == 0.0) cr_assert_eq(g, fmin(fmax(hint, -1.0), 1.0), "at zero %s", fl_test_seed_note());
        double p, q;
        fl_scalar_moreau_decomp(x, &p, &q);
        cr_assert(p == fmax(x, 0.0) && q == fmin(x, 0.0), "projections onto R+ and R- %s",
                  fl_test_seed_note());
        cr_assert(p >= 0.0 && q <= 0.0 && p + q == x && p * q == 0.0, "Moreau %s",
                  fl_test_seed_note());
    }
    gsl_rng_free(r);
}
