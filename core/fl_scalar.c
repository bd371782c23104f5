/* fl_scalar.c — scalar kernels.  The ACSL contracts are in fl_scalar.h; the
 * assertions below are the steps Frama-C/WP proves on the way (real model;
 * meson suite 'proofs', proofs/run_wp.sh).  Derivations:
 * proofs/scalar_kernels.md. */
#include "fl_scalar.h"

#include <math.h>

/* clamp = projection onto [lo, hi] (proofs/scalar_kernels.md §1–§2). */
double fl_scalar_clamp(double x, double lo, double hi)
{
    if (x < lo) return lo;
    if (x > hi) return hi;
    return x;
}

/* Projection onto an interval with absent ends, 001 §6.2 friction sets
 * (proofs/scalar_kernels.md §1). */
double fl_scalar_proj_interval(double x, int has_lo, double lo, int has_hi, double hi)
{
    if (has_lo && x < lo) return lo;
    if (has_hi && x > hi) return hi;
    return x;
}

/* The factor s with P(x,y) = s (x,y) for the disc of radius r, given
 * n2 = x^2 + y^2: 1 inside, r/sqrt(n2) outside (proofs/scalar_kernels.md §3). */
/*@ requires r >= 0 && n2 >= 0;
    assigns \nothing;
    ensures closed_form: \result == fl_disc_scale_r(r, n2);
    ensures range: 0 <= \result <= 1;
    ensures inside: n2 <= r * r ==> \result == 1;
    ensures outside: n2 > r * r ==> \result < 1 && \result * \result * n2 == r * r;
*/
static double disc_scale(double r, double n2)
{
    if (n2 <= r * r) return 1.0;
    double t = sqrt(n2);               /* t = |(x,y)| > r >= 0 */
    double s = r / t;
    /*@ assert scale_def: s == fl_disc_scale_r(r, n2); */
    /*@ assert root: t >= 0 && t * t == n2; */
    /*@ assert root_gt_radius: t > r && t > 0; */
    /*@ assert scale_lt_one: s < 1; */
    /*@ assert scale_nonneg: s >= 0; */
    /*@ assert scale: s * t == r; */
    /*@ assert scale_sq: s * s * n2 == r * r; */
    return s;
}

/* Projection onto the Coulomb disc mu r_n B, 001 (2.1)
 * (proofs/scalar_kernels.md §3). */
void fl_scalar_proj_disc(double r, double x, double y, double *px, double *py)
{
    double n2 = x * x + y * y;
    double s = disc_scale(r, n2);      /* P(x,y) = s (x,y) */
    double qx = s * x, qy = s * y;
    /*@ assert norm_sq: qx * qx + qy * qy == s * s * n2; */
    /*@ assert in_disc: qx * qx + qy * qy <= r * r; */
    /*@ assert on_circle: n2 > r * r ==> qx * qx + qy * qy == r * r; */
    *px = qx;
    *py = qy;
    /*@ assert stored: *px == qx && *py == qy; */
}

/* Support function of an interval, 001 §6.2 (proofs/scalar_kernels.md §4). */
int fl_scalar_support_interval(int has_lo, double lo, int has_hi, double hi,
                               double v, double *value)
{
    if (v > 0) {
        if (!has_hi) return 0;
        *value = hi * v;
    } else if (v < 0) {
        if (!has_lo) return 0;
        *value = lo * v;
    } else {
        *value = 0.0;
    }
    return 1;
}

/* Scalar Coulomb local solve (proofs/scalar_kernels.md §5). */
double fl_scalar_coulomb_solve(double w, double b, double mu_rn)
{
    double s0 = -b / w;                /* unconstrained minimiser: w s0 + b = 0 */
    /*@ assert closed_form: fl_coulomb_r(w, b, mu_rn) == fl_clamp_r(s0, -mu_rn, mu_rn); */
    /*@ assert stationary: w * s0 + b == 0; */
    return fl_scalar_clamp(s0, -mu_rn, mu_rn);
}

/* Selection of Sgn (proofs/scalar_kernels.md §6). */
double fl_scalar_sgn_select(double x, double hint)
{
    if (x > 0) return 1.0;
    if (x < 0) return -1.0;
    return fl_scalar_clamp(hint, -1.0, 1.0);
}

/* Moreau decomposition on the line, cf. 001 (4.1) (proofs/scalar_kernels.md §7). */
void fl_scalar_moreau_decomp(double x, double *p, double *q)
{
    if (x >= 0) {
        *p = x;
        *q = 0.0;
    } else {
        *p = 0.0;
        *q = x;
    }
}
