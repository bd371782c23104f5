/* fl_scalar.h — pure scalar kernels shared by the laws.
 *
 * These are the small kernels whose contracts are proved by Frama-C/WP in
 * the real-number model (proofs/acsl/, issue "proofs/").  They take and
 * return plain doubles, never infinities: an unbounded end of an interval
 * is said by a flag (has_lo / has_hi = 0), because the real model has no
 * infinite values.  Callers holding +-INFINITY convert with isinf().
 * No allocation, no status: every precondition is stated in the header and
 * checked by the caller.
 */
#ifndef FL_SCALAR_H
#define FL_SCALAR_H

/* min(max(x, lo), hi); requires lo <= hi. */
double fl_scalar_clamp(double x, double lo, double hi);

/* Euclidean projection of x onto the interval with ends lo (if has_lo) and
 * hi (if has_hi); an absent end is infinite.  Requires lo <= hi when both
 * ends are present.  (001 §6.2: friction sets [a,b], ]-inf,b].) */
double fl_scalar_proj_interval(double x, int has_lo, double lo, int has_hi, double hi);

/* Euclidean projection of (x,y) onto the closed disc of radius r >= 0
 * centred at the origin (001 §2.1: the Coulomb disc mu r_n B). */
void fl_scalar_proj_disc(double r, double x, double y, double *px, double *py);

/* Support function S_C(v) = sup_{c in C} c v of the interval C above
 * (001 §6.2).  Returns 1 and stores the value in *value when finite;
 * returns 0 (value untouched) when S_C(v) = +inf. */
int fl_scalar_support_interval(int has_lo, double lo, int has_hi, double hi,
                               double v, double *value);

/* Scalar Coulomb local solve (one contact, one tangential direction):
 * minimise 1/2 w s^2 + b s over s in [-mu_rn, mu_rn], w > 0, mu_rn >= 0.
 * The minimiser is clamp(-b/w, -mu_rn, mu_rn); it satisfies the Coulomb law
 * between the impulse s and the velocity u = w s + b:
 * |s| < mu_rn => u = 0,  s = mu_rn => u <= 0,  s = -mu_rn => u >= 0. */
double fl_scalar_coulomb_solve(double w, double b, double mu_rn);

/* A selection of the sign multifunction Sgn(x) = {x/|x|} if x != 0,
 * [-1, 1] if x = 0: returns sign(x) for x != 0 and clamp(hint, -1, 1) at 0. */
double fl_scalar_sgn_select(double x, double hint);

/* Moreau's decomposition on the line for the cone K = R+ and its polar
 * K° = R-: x = p + q with p = max(x,0) in K, q = min(x,0) in K°, p q = 0. */
void fl_scalar_moreau_decomp(double x, double *p, double *q);

#endif
