/* fl_scalar.h — pure scalar kernels shared by the laws.
 *
 * These are the small kernels whose contracts are proved by Frama-C/WP in
 * the real-number model (`frama-c -wp -wp-rte -wp-model real -wp-prover
 * z3,z3-nobv`, run by the meson suite 'proofs': proofs/run_wp.sh).  The
 * contracts are the ACSL annotations below, on the library's own
 * declarations, so the proved source IS the library source;
 * proofs/acsl/fl_scalar_lemmas.c adds the two-call properties (idempotence,
 * nonexpansiveness, the disc variational inequality, Coulomb optimality) as
 * lemma functions that call these kernels.  Derivations:
 * proofs/scalar_kernels.md.
 *
 * The real model reads `double` as a real number: rounding is not covered by
 * the proofs; tests/test_fl_scalar.c re-checks every contract in floating
 * point with tolerances (table in proofs/README.md).
 *
 * The kernels take and return plain doubles, never infinities: an unbounded
 * end of an interval is said by a flag (has_lo / has_hi = 0), because the
 * real model has no infinite values.  Callers holding +-INFINITY convert
 * with isinf().  No allocation, no status: every precondition is stated here
 * (`requires`) and checked by the caller.
 */
#ifndef FL_SCALAR_H
#define FL_SCALAR_H

/* pi, the library's one definition of it (C11 has no M_PI). */
#define FL_PI 3.14159265358979323846

/*@ // Logic layer: the kernels written as logic functions (real numbers).
    // The closed interval C = {c : lo <= c if has_lo, c <= hi if has_hi}.
    predicate fl_in_interval(real c, integer has_lo, real lo,
                             integer has_hi, real hi) =
      (has_lo != 0 ==> lo <= c) && (has_hi != 0 ==> c <= hi);

    predicate fl_interval_ok(integer has_lo, real lo, integer has_hi, real hi) =
      (has_lo != 0 && has_hi != 0) ==> lo <= hi;

    // The Euclidean projection onto C.
    logic real fl_proj_r(real x, integer has_lo, real lo, integer has_hi, real hi) =
      (has_lo != 0 && x < lo) ? lo : ((has_hi != 0 && x > hi) ? hi : x);

    logic real fl_clamp_r(real x, real lo, real hi) = x < lo ? lo : (x > hi ? hi : x);

    // The projection onto the disc of radius r maps (x, y) to s (x, y), with
    // s = fl_disc_scale_r(r, x^2 + y^2).  The lemmas are small facts of real
    // arithmetic, each proved by z3 on its own, that the disc proof uses
    // (inside an axiomatic block, WP only brings them into the goals that
    // mention fl_disc_scale_r, where they help, not elsewhere, where they
    // would distract z3).
    axiomatic FlDisc {
      logic real fl_disc_scale_r(real r, real n2) = n2 <= r * r ? 1 : r / \sqrt(n2);
      lemma fl_sq_lt: \forall real r, t; 0 <= r && 0 <= t && r * r < t * t ==> r < t;
      lemma fl_div_cancel: \forall real r, t; t > 0 ==> (r / t) * t == r;
      lemma fl_ratio_lt_one: \forall real s, t; t > 0 && s * t < t ==> s < 1;
      lemma fl_ratio_sq: \forall real s, t, r, n; s * t == r && t * t == n ==> s * s * n == r * r;
      lemma fl_unit_sq: \forall real s, n; s == 1 ==> s * s * n == n;
      lemma fl_sq_eq: \forall real a, b; a == b ==> a * a == b * b;
      lemma fl_sq_sum_le: \forall real a, b, c, d, m;
        a == c && b == d && c * c + d * d <= m ==> a * a + b * b <= m;
    }

    // The scalar Coulomb solve: the projection of the unconstrained
    // minimiser s0 = -b/w onto [-mu_rn, mu_rn].
    axiomatic FlCoulomb {
      logic real fl_coulomb_r(real w, real b, real mu_rn) = fl_clamp_r(-b / w, -mu_rn, mu_rn);
      lemma fl_stationary: \forall real w, b; w > 0 ==> w * (-b / w) + b == 0;
    }

    // A maximiser of c v over C (the support point; proofs/scalar_kernels.md §4).
    logic real fl_support_point_r(integer has_lo, real lo, integer has_hi, real hi, real v) =
      v > 0 ? hi : (v < 0 ? lo : (has_lo != 0 ? lo : (has_hi != 0 ? hi : 0)));
*/

/* min(max(x, lo), hi): the projection onto [lo, hi]; requires lo <= hi. */
/*@ requires lo <= hi;
    assigns \nothing;
    ensures closed_form: \result == fl_clamp_r(x, lo, hi);
    ensures in_range: lo <= \result <= hi;
    ensures fixes_range: lo <= x <= hi ==> \result == x;
    ensures variational_inequality:
      \forall real c; lo <= c <= hi ==> (x - \result) * (c - \result) <= 0;
*/
double fl_scalar_clamp(double x, double lo, double hi);

/* Euclidean projection of x onto the interval with ends lo (if has_lo) and
 * hi (if has_hi); an absent end is infinite.  Requires lo <= hi when both
 * ends are present.  (001 §6.2: friction sets [a,b], ]-inf,b].) */
/*@ requires fl_interval_ok(has_lo, lo, has_hi, hi);
    assigns \nothing;
    ensures closed_form: \result == fl_proj_r(x, has_lo, lo, has_hi, hi);
    ensures in_interval: fl_in_interval(\result, has_lo, lo, has_hi, hi);
    ensures fixes_interval: fl_in_interval(x, has_lo, lo, has_hi, hi) ==> \result == x;
    ensures variational_inequality:
      \forall real c; fl_in_interval(c, has_lo, lo, has_hi, hi) ==>
        (x - \result) * (c - \result) <= 0;
*/
double fl_scalar_proj_interval(double x, int has_lo, double lo, int has_hi, double hi);

/* Euclidean projection of (x,y) onto the closed disc of radius r >= 0
 * centred at the origin (001 §2.1: the Coulomb disc mu r_n B):
 * (x,y) itself inside, r (x,y)/|(x,y)| outside. */
/*@ requires r >= 0;
    requires \valid(px) && \valid(py) && \separated(px, py);
    assigns *px, *py;
    ensures in_disc: (*px) * (*px) + (*py) * (*py) <= r * r;
    ensures fixes_disc: x * x + y * y <= r * r ==> *px == x && *py == y;
    ensures closed_form: *px == fl_disc_scale_r(r, x * x + y * y) * x &&
                         *py == fl_disc_scale_r(r, x * x + y * y) * y;
    ensures radial_outside: x * x + y * y > r * r ==> 0 <= fl_disc_scale_r(r, x * x + y * y) < 1;
    ensures on_circle_outside: x * x + y * y > r * r ==> (*px) * (*px) + (*py) * (*py) == r * r;
*/
void fl_scalar_proj_disc(double r, double x, double y, double *px, double *py);

/* Support function S_C(v) = sup_{c in C} c v of the interval C above
 * (001 §6.2).  Returns 1 and stores the value in *value when finite;
 * returns 0 (value untouched) when S_C(v) = +inf, that is when v > 0 and C
 * has no upper end, or v < 0 and C has no lower end. */
/*@ requires fl_interval_ok(has_lo, lo, has_hi, hi);
    requires \valid(value);
    assigns *value;
    ensures finiteness: \result == 1 <==> ((v > 0 ==> has_hi != 0) && (v < 0 ==> has_lo != 0));
    ensures result_is_flag: \result == 0 || \result == 1;
    ensures untouched_if_infinite: \result == 0 ==> *value == \old(*value);
    ensures upper_bound: \result == 1 ==>
      \forall real c; fl_in_interval(c, has_lo, lo, has_hi, hi) ==> c * v <= *value;
    ensures max_over_ends: \result == 1 && has_lo != 0 && has_hi != 0 ==>
      *value == \max(lo * v, hi * v);
    ensures attained: \result == 1 ==>
      fl_in_interval(fl_support_point_r(has_lo, lo, has_hi, hi, v), has_lo, lo, has_hi, hi) &&
      fl_support_point_r(has_lo, lo, has_hi, hi, v) * v == *value;
*/
int fl_scalar_support_interval(int has_lo, double lo, int has_hi, double hi,
                               double v, double *value);

/* Scalar Coulomb local solve (one contact, one tangential direction):
 * minimise 1/2 w s^2 + b s over s in [-mu_rn, mu_rn], w > 0, mu_rn >= 0.
 * The minimiser is clamp(-b/w, -mu_rn, mu_rn); it satisfies the Coulomb law
 * between the impulse s and the velocity u = w s + b = w (s - s0),
 * s0 = -b/w (for mu_rn > 0):
 * |s| < mu_rn => u = 0,  s = mu_rn => u <= 0,  s = -mu_rn => u >= 0;
 * in one line: u (c - s) >= 0 for every c in [-mu_rn, mu_rn].  The
 * contract states the signs on s - s0 = u / w (same sign, w > 0); the
 * unscaled forms and the optimality are proved in proofs/acsl/. */
/*@ requires w > 0;
    requires mu_rn >= 0;
    assigns \nothing;
    ensures closed_form: \result == fl_coulomb_r(w, b, mu_rn);
    ensures feasible: -mu_rn <= \result <= mu_rn;
    // u = w s + b = w (s - s0) with s0 = -b/w, w > 0: u has the sign of s - s0.
    ensures velocity: w * \result + b == w * (\result - -b / w);
    ensures sticking: -mu_rn < \result < mu_rn ==> \result == -b / w && w * \result + b == 0;
    ensures sliding_backward: mu_rn > 0 && \result == mu_rn ==> \result - -b / w <= 0;
    ensures sliding_forward: mu_rn > 0 && \result == -mu_rn ==> \result - -b / w >= 0;
    ensures normal_cone: \forall real c; -mu_rn <= c <= mu_rn ==>
      (\result - -b / w) * (c - \result) >= 0;
*/
double fl_scalar_coulomb_solve(double w, double b, double mu_rn);

/* A selection of the sign multifunction Sgn(x) = {x/|x|} if x != 0,
 * [-1, 1] if x = 0: returns sign(x) for x != 0 and clamp(hint, -1, 1) at 0. */
/*@ assigns \nothing;
    ensures in_range: -1 <= \result <= 1;
    ensures positive: x > 0 ==> \result == 1;
    ensures negative: x < 0 ==> \result == -1;
    ensures at_zero: x == 0 ==> \result == fl_clamp_r(hint, -1, 1);
    ensures selection: \result * x == \abs(x);
*/
double fl_scalar_sgn_select(double x, double hint);

/* Moreau's decomposition on the line for the cone K = R+ and its polar
 * K° = R-: x = p + q with p = max(x,0) in K, q = min(x,0) in K°, p q = 0. */
/*@ requires \valid(p) && \valid(q) && \separated(p, q);
    assigns *p, *q;
    ensures in_cone: *p >= 0;
    ensures in_polar: *q <= 0;
    ensures sum: *p + *q == x;
    ensures orthogonal: *p * *q == 0;
    ensures projections: *p == fl_proj_r(x, 1, 0, 0, 0) && *q == fl_proj_r(x, 0, 0, 1, 0);
*/
void fl_scalar_moreau_decomp(double x, double *p, double *q);

#endif
