/* test_fl_scalar.c — scalar kernels (core/fl_scalar.c): closed forms and
 * the properties proved in proofs/acsl, re-checked in floating point. */
#include <criterion/criterion.h>
#include <math.h>
#include <gsl/gsl_rng.h>

#include "fl_random.h"
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
