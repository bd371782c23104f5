/* fl_scalar.c — scalar kernels; contracts in fl_scalar.h, proofs in
 * proofs/acsl/. */
#include "fl_scalar.h"

#include <math.h>

double fl_scalar_clamp(double x, double lo, double hi)
{
    if (x < lo) return lo;
    if (x > hi) return hi;
    return x;
}

double fl_scalar_proj_interval(double x, int has_lo, double lo, int has_hi, double hi)
{
    if (has_lo && x < lo) return lo;
    if (has_hi && x > hi) return hi;
    return x;
}

void fl_scalar_proj_disc(double r, double x, double y, double *px, double *py)
{
    double n2 = x * x + y * y;
    if (n2 <= r * r) {
        *px = x;
        *py = y;
        return;
    }
    double s = r / sqrt(n2);
    *px = s * x;
    *py = s * y;
}

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

double fl_scalar_coulomb_solve(double w, double b, double mu_rn)
{
    return fl_scalar_clamp(-b / w, -mu_rn, mu_rn);
}

double fl_scalar_sgn_select(double x, double hint)
{
    if (x > 0) return 1.0;
    if (x < 0) return -1.0;
    return fl_scalar_clamp(hint, -1.0, 1.0);
}

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
