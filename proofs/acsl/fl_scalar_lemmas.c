/* fl_scalar_lemmas.c — lemma functions for the scalar kernels of
 * core/fl_scalar.c.  Not compiled into the library: Frama-C/WP proves these
 * functions together with core/fl_scalar.c (proofs/run_wp.sh).  Each one
 * takes arbitrary inputs (its parameters are universally quantified), calls
 * the library kernels, which WP sees through their contracts in
 * core/fl_scalar.h, and asserts a property that needs two calls or a chain
 * of steps: idempotence, nonexpansiveness, the optimality identity of the
 * scalar Coulomb solve, the unboundedness behind an infinite support
 * function.  What z3 does not close is listed in proofs/README.md.
 * Derivations: proofs/scalar_kernels.md. */
#include "fl_scalar.h"

#include <math.h>

/* §1: P_[lo,hi] is idempotent and 1-Lipschitz. */
/*@ requires lo <= hi;
    assigns \nothing; */
void fl_lemma_clamp(double x, double y, double lo, double hi)
{
    double px = fl_scalar_clamp(x, lo, hi);
    double py = fl_scalar_clamp(y, lo, hi);
    double ppx = fl_scalar_clamp(px, lo, hi);
    /*@ assert idempotent: ppx == px; */
    /*@ assert nonexpansive: \abs(px - py) <= \abs(x - y); */
}

/* §1: the same for an interval with absent (infinite) ends. */
/*@ requires fl_interval_ok(has_lo, lo, has_hi, hi);
    assigns \nothing; */
void fl_lemma_proj_interval(double x, double y, int has_lo, double lo, int has_hi, double hi)
{
    double px = fl_scalar_proj_interval(x, has_lo, lo, has_hi, hi);
    double py = fl_scalar_proj_interval(y, has_lo, lo, has_hi, hi);
    double ppx = fl_scalar_proj_interval(px, has_lo, lo, has_hi, hi);
    /*@ assert idempotent: ppx == px; */
    /*@ assert nonexpansive: \abs(px - py) <= \abs(x - y); */
}

/* §3: the disc projection is idempotent. */
/*@ requires r >= 0;
    assigns \nothing; */
void fl_lemma_disc_idempotent(double r, double x, double y)
{
    double px, py, qx, qy;
    fl_scalar_proj_disc(r, x, y, &px, &py);
    fl_scalar_proj_disc(r, px, py, &qx, &qy);
    /*@ assert idempotent: qx == px && qy == py; */
}

/* §5: the scalar Coulomb solve.  Proved here: s0 = -b/w is stationary,
 * s = clamp(s0), (s - s0)(c - s) >= 0 for c in [-mu_rn, mu_rn] (the normal
 * cone, scaled by 1/w), u = w (s - s0), and the identity
 *   f(c) - f(s) = w ((s - s0)(c - s) + (c - s)^2 / 2),  f(s) = 1/2 w s^2 + b s,
 * from which optimality follows by signs (w > 0, both terms >= 0).  That
 * last sign step is not closed by z3 here: tests/test_fl_scalar.c
 * (scalar::coulomb_solve_satisfies_the_law) checks optimality numerically. */
/*@ requires w > 0 && mu_rn >= 0;
    requires -mu_rn <= c <= mu_rn;
    assigns \nothing; */
void fl_lemma_coulomb_optimal(double w, double b, double mu_rn, double c)
{
    double s = fl_scalar_coulomb_solve(w, b, mu_rn);
    double s0 = -b / w;
    /*@ assert stationary: w * s0 + b == 0; */
    /*@ assert clamp: s == fl_clamp_r(s0, -mu_rn, mu_rn); */
    /*@ assert normal_cone_scaled: (s - s0) * (c - s) >= 0; */
    /*@ assert expand: (w * c * c / 2 + b * c) - (w * s * s / 2 + b * s)
                       == w * ((s - s0) * (c - s) + (c - s) * (c - s) / 2); */
    /*@ assert velocity: w * s + b == w * (s - s0); */
}

/* §5: the Coulomb cases with the velocity u = w s + b itself (the sliding
 * signs are in the contract of fl_scalar_coulomb_solve on s - s0 = u / w). */
/*@ requires w > 0 && mu_rn > 0;
    assigns \nothing; */
void fl_lemma_coulomb_cases(double w, double b, double mu_rn)
{
    double s = fl_scalar_coulomb_solve(w, b, mu_rn);
    double s0 = -b / w;
    /*@ assert velocity: w * s + b == w * (s - s0); */
    /*@ assert sticking: -mu_rn < s < mu_rn ==> w * s + b == 0; */
}

/* §4: when fl_scalar_support_interval reports +inf, c v is unbounded
 * above on C: for every level m, the point c_m below is in C and lies
 * beyond m / v (so c_m v > m, the last sign step being left to the test
 * scalar::support_function_of_intervals). */
/*@ requires fl_interval_ok(has_lo, lo, has_hi, hi);
    assigns \nothing; */
void fl_lemma_support_unbounded(int has_lo, double lo, int has_hi, double hi, double v, double m)
{
    double value = 0.0;
    int finite = fl_scalar_support_interval(has_lo, lo, has_hi, hi, v, &value);
    if (finite) return;
    if (v > 0) {
        /*@ assert no_upper_end: has_hi == 0; */
        double c = (lo > m / v ? lo : m / v) + 1.0;
        /*@ assert cancel: (m / v) * v == m; */
        /*@ assert above: c >= m / v + 1; */
        /*@ assert in_c: fl_in_interval(c, has_lo, lo, has_hi, hi); */
    } else {
        /*@ assert no_lower_end: v < 0 && has_lo == 0; */
        double c = (hi < m / v ? hi : m / v) - 1.0;
        /*@ assert cancel: (m / v) * v == m; */
        /*@ assert below: c <= m / v - 1; */
        /*@ assert in_c: fl_in_interval(c, has_lo, lo, has_hi, hi); */
    }
}
