/* fl_scalar_lemmas.c — lemma functions for the scalar kernels of
 * core/fl_scalar.c.  Not compiled into the library: Frama-C/WP proves these
 * functions together with core/fl_scalar.c (proofs/run_wp.sh).  Each one
 * takes arbitrary inputs (its parameters are universally quantified), calls
 * the library kernels, which WP sees through their contracts in
 * core/fl_scalar.h, and asserts a property that needs two calls or a chain
 * of steps: idempotence, nonexpansiveness, the variational inequality of the
 * disc projection, the optimality of the scalar Coulomb solve and the
 * Coulomb cases for the velocity itself, the unboundedness behind an
 * infinite support function.
 * Derivations: proofs/scalar_kernels.md. */
#include "fl_scalar.h"

#include <math.h>

/* ---- Steps of real arithmetic.  Each step is a function whose parameters
 * are opaque reals, so z3 proves its contract without the noise of the
 * caller's context; callers instantiate it by calling it. ---- */

/*@ assigns \nothing;
    ensures (x * cx + y * cy) * (x * cx + y * cy) <= (x * x + y * y) * (cx * cx + cy * cy); */
void fl_step_cauchy_schwarz(double x, double y, double cx, double cy) { (void)x; (void)y; (void)cx; (void)cy; }

/*@ requires n >= 0 && a <= b;
    assigns \nothing;
    ensures n * a <= n * b; */
void fl_step_mono(double n, double a, double b) { (void)n; (void)a; (void)b; }

/*@ requires b >= 0 && a * a <= b * b;
    assigns \nothing;
    ensures a <= b; */
void fl_step_sq_le(double a, double b) { (void)a; (void)b; }

/*@ requires t >= 0 && r >= 0 && t * t == n && n * cc <= n * (r * r) && d * d <= n * cc;
    assigns \nothing;
    ensures d * d <= (t * r) * (t * r); */
void fl_step_cs_square(double d, double n, double cc, double t, double r) { (void)d; (void)n; (void)cc; (void)t; (void)r; }

/*@ requires s * t == r && t * t == n && s < 1 && d <= t * r;
    assigns \nothing;
    ensures (1 - s) * (d - s * n) <= 0; */
void fl_step_vi_sign(double d, double n, double s, double t, double r) { (void)d; (void)n; (void)s; (void)t; (void)r; }

/*@ requires n == x * x + y * y;
    assigns \nothing;
    ensures (x - s * x) * (cx - s * x) + (y - s * y) * (cy - s * y)
            == (1 - s) * ((x * cx + y * cy) - s * n); */
void fl_step_expand(double x, double y, double cx, double cy, double s, double n) { (void)x; (void)y; (void)cx; (void)cy; (void)s; (void)n; }

/*@ assigns \nothing;
    ensures a * a + b * b >= 0; */
void fl_step_sq_sum_nonneg(double a, double b) { (void)a; (void)b; }

/*@ requires r >= 0 && t >= 0 && t * t == n && n > r * r;
    assigns \nothing;
    ensures t > r && t > 0; */
void fl_step_root(double r, double t, double n) { (void)r; (void)t; (void)n; }

/* The disc variational inequality outside the disc, with t = |(x,y)|,
 * s = r / t and P(x,y) = (px, py) = s (x,y) (proofs/scalar_kernels.md §3). */
/*@ requires r >= 0 && cx * cx + cy * cy <= r * r;
    requires t >= 0 && t * t == x * x + y * y && s * t == r && s < 1;
    requires px == s * x && py == s * y;
    assigns \nothing;
    ensures (x - px) * (cx - px) + (y - py) * (cy - py) <= 0; */
void fl_step_vi(double r, double x, double y, double cx, double cy, double t, double s,
                double px, double py)
{
    (void)px; (void)py;
    double n = x * x + y * y, cc = cx * cx + cy * cy, d = x * cx + y * cy;
    fl_step_cauchy_schwarz(x, y, cx, cy);   /* d^2 <= n cc */
    fl_step_mono(n, cc, r * r);              /* n cc <= n r^2 */
    fl_step_cs_square(d, n, cc, t, r);       /* d^2 <= (t r)^2 */
    fl_step_sq_le(d, t * r);                 /* d <= t r */
    fl_step_vi_sign(d, n, s, t, r);          /* (1 - s)(d - s n) <= 0 */
    fl_step_expand(x, y, cx, cy, s, n);      /* = the VI expression */
}

/*@ requires w > 0 && z >= 0;
    assigns \nothing;
    ensures w * z >= 0; */
void fl_step_pos_mul(double w, double z) { (void)w; (void)z; }

/*@ requires w > 0 && z <= 0;
    assigns \nothing;
    ensures w * z <= 0; */
void fl_step_neg_mul(double w, double z) { (void)w; (void)z; }

/*@ requires p >= 0;
    assigns \nothing;
    ensures p + q * q / 2 >= 0; */
void fl_step_bracket(double p, double q) { (void)p; (void)q; }

/*@ requires v > 0 && c >= q + 1 && q * v == m;
    assigns \nothing;
    ensures c * v > m; */
void fl_step_beyond_pos(double c, double q, double v, double m) { (void)c; (void)q; (void)v; (void)m; }

/*@ requires v < 0 && c <= q - 1 && q * v == m;
    assigns \nothing;
    ensures c * v > m; */
void fl_step_beyond_neg(double c, double q, double v, double m) { (void)c; (void)q; (void)v; (void)m; }

/*@ requires d2 >= 0 && e2 >= 0 && d2 <= p && p * p <= e2 * d2;
    assigns \nothing;
    ensures d2 <= e2; */
void fl_step_ratio(double d2, double p, double e2) { (void)d2; (void)p; (void)e2; }

/* ---- Lemmas on the library kernels. ---- */

/* §1: P_[lo,hi] is idempotent and 1-Lipschitz. */
/*@ requires lo <= hi;
    assigns \nothing; */
void fl_lemma_clamp(double x, double y, double lo, double hi)
{
    double px = fl_scalar_clamp(x, lo, hi);
    double py = fl_scalar_clamp(y, lo, hi);
    double ppx = fl_scalar_clamp(px, lo, hi);
    (void)ppx; (void)py;
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
    (void)ppx; (void)py;
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

/* §3: variational inequality of the disc projection:
 * (x - P x).(c - P x) <= 0 for every c of the disc. */
/*@ requires r >= 0;
    requires cx * cx + cy * cy <= r * r;
    requires \valid(px) && \valid(py) && \separated(px, py);
    assigns *px, *py;
    ensures closed_form: *px == fl_disc_scale_r(r, x * x + y * y) * x &&
                         *py == fl_disc_scale_r(r, x * x + y * y) * y;
    ensures in_disc: (*px) * (*px) + (*py) * (*py) <= r * r;
    ensures vi: (x - *px) * (cx - *px) + (y - *py) * (cy - *py) <= 0; */
void fl_lemma_disc_vi(double r, double x, double y, double cx, double cy, double *px, double *py)
{
    fl_scalar_proj_disc(r, x, y, px, py);
    double n2 = x * x + y * y;
    if (n2 <= r * r) {
        /*@ assert inside: *px == x && *py == y; */
        return;
    }
    double t = sqrt(n2);
    double s = r / t;
    /*@ assert closed: s == fl_disc_scale_r(r, n2) && *px == s * x && *py == s * y; */
    /*@ assert root: t >= 0 && t * t == n2; */
    fl_step_root(r, t, n2);
    /*@ assert scale_lt_one: s < 1; */
    /*@ assert scale: s * t == r; */
    fl_step_vi(r, x, y, cx, cy, t, s, *px, *py);
}

/* §3: the disc projection is firmly nonexpansive, hence 1-Lipschitz:
 * |Pa - Pb|^2 <= (a - b).(Pa - Pb) <= |a - b| |Pa - Pb|. */
/*@ requires r >= 0;
    assigns \nothing; */
void fl_lemma_disc_nonexpansive(double r, double x1, double y1, double x2, double y2)
{
    double ax, ay, bx, by, bx2, by2;
    fl_scalar_proj_disc(r, x2, y2, &bx, &by);
    fl_lemma_disc_vi(r, x1, y1, bx, by, &ax, &ay);      /* c = P(x2) */
    fl_lemma_disc_vi(r, x2, y2, ax, ay, &bx2, &by2);    /* c = P(x1) */
    /*@ assert same: bx2 == bx && by2 == by; */
    double dx = ax - bx, dy = ay - by, ex = x1 - x2, ey = y1 - y2;
    /*@ assert firm: dx * dx + dy * dy <= ex * dx + ey * dy; */
    fl_step_cauchy_schwarz(ex, ey, dx, dy);
    fl_step_sq_sum_nonneg(dx, dy);
    fl_step_sq_sum_nonneg(ex, ey);
    fl_step_ratio(dx * dx + dy * dy, ex * dx + ey * dy, ex * ex + ey * ey);
    /*@ assert nonexpansive: dx * dx + dy * dy <= ex * ex + ey * ey; */
}

/* §5: the scalar Coulomb solve.  Proved here: s0 = -b/w is stationary,
 * s = clamp(s0), (s - s0)(c - s) >= 0 for c in [-mu_rn, mu_rn] (the normal
 * cone, scaled by 1/w), u = w (s - s0), and the identity
 *   f(c) - f(s) = w ((s - s0)(c - s) + (c - s)^2 / 2),  f(s) = 1/2 w s^2 + b s,
 * from which optimality follows by signs (w > 0, both terms >= 0), and
 * the normal cone u (c - s) >= 0 for the velocity u itself. */
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
    fl_step_bracket((s - s0) * (c - s), c - s);
    fl_step_pos_mul(w, (s - s0) * (c - s) + (c - s) * (c - s) / 2);
    /*@ assert optimal: w * s * s / 2 + b * s <= w * c * c / 2 + b * c; */
    fl_step_pos_mul(w, (s - s0) * (c - s));
    /*@ assert normal_cone: (w * s + b) * (c - s) >= 0; */
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
    if (s == mu_rn) {
        fl_step_neg_mul(w, s - s0);
        /*@ assert sliding_backward: w * s + b <= 0; */
    }
    if (s == -mu_rn) {
        fl_step_pos_mul(w, s - s0);
        /*@ assert sliding_forward: w * s + b >= 0; */
    }
}

/* §4: when fl_scalar_support_interval reports +inf, c v is unbounded
 * above on C: for every level m, the point c_m below is in C and
 * c_m v > m. */
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
        fl_step_beyond_pos(c, m / v, v, m);
        /*@ assert beats: c * v > m; */
    } else {
        /*@ assert no_lower_end: v < 0 && has_lo == 0; */
        double c = (hi < m / v ? hi : m / v) - 1.0;
        /*@ assert cancel: (m / v) * v == m; */
        /*@ assert below: c <= m / v - 1; */
        /*@ assert in_c: fl_in_interval(c, has_lo, lo, has_hi, hi); */
        fl_step_beyond_neg(c, m / v, v, m);
        /*@ assert beats: c * v > m; */
    }
}
