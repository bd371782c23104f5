/* local_contact.c — the single-contact frictional contact problem: the exact
 * case enumeration (003 §3), the fast Newton slide (Alart & Curnier 1991 §3)
 * and the per-contact Alart–Curnier function.  See local_contact.h. */
#include "local_contact.h"

#include <math.h>
#include <string.h>

/* ---- the exact solve: the single-contact problem (003 §3–5, local solver) ---- */

typedef struct cand_list {
    int n;
    double r[8][3];
} cand_list;

static void cand_add(cand_list *c, int dim, const double *r)
{
    if (c->n >= 8) return;
    for (int k = 0; k < dim; k++) c->r[c->n][k] = r[k];
    c->n++;
}

/* r in K_mu up to a relative slack (rounding on case boundaries). */
static int in_cone(int dim, double mu, const double *r)
{
    double nt = dim == 2 ? fabs(r[1]) : hypot(r[1], r[2]);
    double slack = 1e-12 * (fabs(r[0]) + nt);
    return r[0] >= -slack && nt <= mu * r[0] + slack;
}

/* Solve the dim x dim system A x = y by Gaussian elimination with partial
 * pivoting; returns 0 if singular (pivot below 1e-14 of the largest entry). */
static int small_solve(int dim, const double *A, const double *y, double *x)
{
    double a[3][4];
    double big = 0;
    for (int i = 0; i < dim; i++) {
        for (int j = 0; j < dim; j++) {
            a[i][j] = A[i * dim + j];
            big = fmax(big, fabs(a[i][j]));
        }
        a[i][dim] = y[i];
    }
    if (!(big > 0)) return 0;
    for (int k = 0; k < dim; k++) {
        int p = k;
        for (int i = k + 1; i < dim; i++)
            if (fabs(a[i][k]) > fabs(a[p][k])) p = i;
        if (fabs(a[p][k]) <= 1e-14 * big) return 0;
        if (p != k)
            for (int j = 0; j <= dim; j++) {
                double t = a[k][j];
                a[k][j] = a[p][j];
                a[p][j] = t;
            }
        for (int i = k + 1; i < dim; i++) {
            double f = a[i][k] / a[k][k];
            for (int j = k; j <= dim; j++) a[i][j] -= f * a[k][j];
        }
    }
    for (int i = dim - 1; i >= 0; i--) {
        double s = a[i][dim];
        for (int j = i + 1; j < dim; j++) s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return 1;
}

/* dim 3 sliding: with d = (cos t, sin t), r_T = -mu r_N d, U_N = 0 gives
 * r_N = -b_N / den(t), den = W_NN - mu W_NT.d, and
 * den U_T = den b_T - b_N (W_TN - mu W_TT d).  Sliding needs U_T parallel to
 * d with U_T.d >= 0: the roots of G(t) = (den U_T) x d, a trigonometric
 * polynomial of degree 2 (proofs/contact_dynamics.md). */
static double slide3_G(const double *W, const double *b, double mu, double t, double *den_out,
                       double *dUT)
{
    double d0 = cos(t), d1 = sin(t);
    double den = W[0] - mu * (W[1] * d0 + W[2] * d1);
    dUT[0] = den * b[1] - b[0] * (W[3] - mu * (W[4] * d0 + W[5] * d1));
    dUT[1] = den * b[2] - b[0] * (W[6] - mu * (W[7] * d0 + W[8] * d1));
    *den_out = den;
    return dUT[0] * d1 - dUT[1] * d0;
}

static void slide3_try(const double *W, const double *b, double mu, double t, cand_list *c)
{
    double den, dUT[2];
    slide3_G(W, b, mu, t, &den, dUT);
    if (den == 0.0) return;
    double rn = -b[0] / den;
    double d0 = cos(t), d1 = sin(t);
    double ut_d = (dUT[0] * d0 + dUT[1] * d1) / den;
    if (rn < 0 || ut_d < -1e-12 * (fabs(dUT[0]) + fabs(dUT[1])) / fabs(den)) return;
    double r[3] = {rn, -mu * rn * d0, -mu * rn * d1};
    cand_add(c, 3, r);
}

static void slide3(const double *W, const double *b, double mu, cand_list *c)
{
    enum { NS = 360 };
    const double two_pi = 6.283185307179586;
    double den, dUT[2];
    double t0 = 0.0, g0 = slide3_G(W, b, mu, t0, &den, dUT);
    for (int i = 1; i <= NS; i++) {
        double t1 = two_pi * i / NS, g1 = slide3_G(W, b, mu, t1, &den, dUT);
        if (g0 == 0.0) {
            slide3_try(W, b, mu, t0, c);
        } else if ((g0 < 0) != (g1 < 0) && g1 != 0.0) {
            double lo = t0, hi = t1, glo = g0;
            for (int it = 0; it < 80; it++) {
                double mid = 0.5 * (lo + hi), gm = slide3_G(W, b, mu, mid, &den, dUT);
                if ((gm < 0) == (glo < 0)) {
                    lo = mid;
                    glo = gm;
                } else {
                    hi = mid;
                }
            }
            slide3_try(W, b, mu, 0.5 * (lo + hi), c);
        }
        t0 = t1;
        g0 = g1;
    }
}

/* Projected fixed point on the natural map (fallback, dim 3):
 * r <- P_K(r - rho (Waa r + b + mu |U_T| e_N)), rho = 1 / trace(Waa). */
static void local_fallback(int dim, double mu, const double *W, const double *b, double *r)
{
    double tr = 0;
    for (int k = 0; k < dim; k++) tr += W[k * dim + k];
    double rho = tr > 0 ? 1.0 / tr : 1.0;
    for (int it = 0; it < 2000; it++) {
        double U[3], y[3];
        for (int i = 0; i < dim; i++) {
            U[i] = b[i];
            for (int j = 0; j < dim; j++) U[i] += W[i * dim + j] * r[j];
        }
        double ut = dim == 2 ? fabs(U[1]) : hypot(U[1], U[2]);
        y[0] = r[0] - rho * (U[0] + mu * ut);
        for (int k = 1; k < dim; k++) y[k] = r[k] - rho * U[k];
        fl_coulomb_cone_project(dim, mu, y, r);
    }
}

/* dim 2: the same cases and choice as the general path below, written out
 * for the 2 x 2 block (the Gauss–Seidel sweep spends most of its time here).
 * W = [a c; c2 d] row-major. */
static int local2(double mu, const double *W, const double *b, double *r)
{
    const double a = W[0], c = W[1], c2 = W[2], d = W[3];
    double bx = 0, by = 0, bestd = INFINITY;
    int n = 0;
#define FL_LOCAL2_TAKE(x0, x1)                                                        \
    do {                                                                              \
        double e0 = (x0) - r[0], e1 = (x1) - r[1], dd = e0 * e0 + e1 * e1;            \
        n++;                                                                          \
        if (dd < bestd) { bestd = dd; bx = (x0); by = (x1); }                         \
    } while (0)
    if (b[0] >= 0) FL_LOCAL2_TAKE(0.0, 0.0);                          /* open */
    {                                                                  /* stick */
        double big = fmax(fmax(fabs(a), fabs(c)), fmax(fabs(c2), fabs(d)));
        double det = a * d - c * c2;
        if (big > 0 && fabs(det) > 1e-14 * big * big) {
            double x0 = (-b[0] * d + c * b[1]) / det, x1 = (-a * b[1] + c2 * b[0]) / det;
            double nt = fabs(x1), slack = 1e-12 * (fabs(x0) + nt);
            if (x0 >= -slack && nt <= mu * x0 + slack) FL_LOCAL2_TAKE(x0, x1);
        }
    }
    for (int s = 1; s >= -1; s -= 2) {                                /* slide */
        double den = a - s * mu * c;
        if (den == 0.0) continue;
        double rn = -b[0] / den;
        if (rn < 0) continue;
        double rt = -s * mu * rn;
        double ut = c2 * rn + d * rt + b[1];
        if (s * ut < -1e-12 * (fabs(b[1]) + fabs(c2 * rn) + fabs(d * rt))) continue;
        FL_LOCAL2_TAKE(rn, rt);
    }
#undef FL_LOCAL2_TAKE
    if (n == 0) {
        local_fallback(2, mu, W, b, r);
        return 0;
    }
    double x[2] = {bx, by};
    fl_coulomb_cone_project(2, mu, x, r);
    return n;
}

/* 003 §3 (single-contact problem of the Gauss–Seidel review); cases of
 * 003 §3–5 steps 2-4, extended to dim 3 (proofs/contact_dynamics.md §4). */
int fl_local_contact_solve(int dim, double mu, const double *Waa, const double *b, double *r)
{
    if (dim == 2) return local2(mu, Waa, b, r);
    cand_list c;
    c.n = 0;
    /* open: r = 0 is admissible iff U_N = b_N >= 0 */
    if (b[0] >= 0) {
        double z[3] = {0, 0, 0};
        cand_add(&c, dim, z);
    }
    /* stick: U = 0, i.e. Waa r = -b, r in K */
    {
        double y[3], x[3];
        for (int k = 0; k < dim; k++) y[k] = -b[k];
        if (small_solve(dim, Waa, y, x) && in_cone(dim, mu, x)) cand_add(&c, dim, x);
    }
    /* slide (dim 3) */
    if (b[0] < 0 || mu > 0) slide3(Waa, b, mu, &c);
    if (c.n == 0) {
        local_fallback(dim, mu, Waa, b, r);
        return 0;
    }
    int best = 0;
    double bestd = INFINITY;
    for (int i = 0; i < c.n; i++) {
        double d = 0;
        for (int k = 0; k < dim; k++) d += (c.r[i][k] - r[k]) * (c.r[i][k] - r[k]);
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    fl_coulomb_cone_project(dim, mu, c.r[best], r);   /* removes rounding outside K */
    return c.n;
}

/* ---- the Alart–Curnier function of one contact (Newton twins) ---- */

/* Alart & Curnier 1991 §3 (proofs/newton.md (N1), (N2)). */
void fl_local_contact_alart_curnier(int dim, double mu, double rho, const double *r,
                                    const double *U, double *phi, double *D)
{
    double y[3];
    for (int k = 0; k < dim; k++) y[k] = r[k] - rho * U[k];
    for (int k = 0; k < dim * dim; k++) D[k] = 0.0;
    double yn_plus = y[0] > 0 ? y[0] : 0.0;            /* max(0, y_N) */
    phi[0] = r[0] - yn_plus;                             /* Phi_N */
    if (y[0] > 0) D[0] = 1.0;
    double R = mu * yn_plus;                             /* disc radius */
    if (dim == 2) {
        double yt = y[1], a = fabs(yt);
        if (a < R) {                                     /* stick: P = y_T */
            phi[1] = r[1] - yt;
            D[3] = 1.0;
        } else {                                         /* slide: P = R sign(y_T) */
            double s = yt > 0 ? 1.0 : (yt < 0 ? -1.0 : 0.0);
            phi[1] = r[1] - R * s;
            if (y[0] > 0) D[2] = mu * s;
        }
        return;
    }
    double nt = hypot(y[1], y[2]);
    if (nt < R) {                                        /* stick */
        phi[1] = r[1] - y[1];
        phi[2] = r[2] - y[2];
        D[4] = D[8] = 1.0;
    } else if (nt > 0) {                                 /* slide: P = R t, t = y_T/|y_T| */
        double t1 = y[1] / nt, t2 = y[2] / nt, c = R / nt;
        phi[1] = r[1] - R * t1;
        phi[2] = r[2] - R * t2;
        D[4] = c * (1.0 - t1 * t1);
        D[5] = -c * t1 * t2;
        D[7] = -c * t1 * t2;
        D[8] = c * (1.0 - t2 * t2);
        if (y[0] > 0) {
            D[3] = mu * t1;
            D[6] = mu * t2;
        }
    } else {                                             /* y_T = 0 = R: P = 0 */
        phi[1] = r[1];
        phi[2] = r[2];
    }
}

/* ---- the fast solve of the sparse Gauss–Seidel twin ---- */

/* Inverse of a 3 x 3 row-major matrix by cofactors; 0 if (nearly) singular. */
int fl_local_contact_invert3(const double *A, double *X)
{
    double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8],
           c2 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c0 + A[1] * c1 + A[2] * c2, big = 0;
    for (int k = 0; k < 9; k++) big = fmax(big, fabs(A[k]));
    if (!(big > 0) || !(fabs(det) > 1e-14 * big * big * big)) return 0;
    double id = 1.0 / det;
    X[0] = c0 * id;
    X[1] = (A[2] * A[7] - A[1] * A[8]) * id;
    X[2] = (A[1] * A[5] - A[2] * A[4]) * id;
    X[3] = c1 * id;
    X[4] = (A[0] * A[8] - A[2] * A[6]) * id;
    X[5] = (A[2] * A[3] - A[0] * A[5]) * id;
    X[6] = c2 * id;
    X[7] = (A[1] * A[6] - A[0] * A[7]) * id;
    X[8] = (A[0] * A[4] - A[1] * A[3]) * id;
    return 1;
}

static void mv3(const double *A, const double *x, const double *b, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2] + b[i];
}

/* The acceptance test of the Newton slide below at (x, U = W x + b): -1
 * while the local natural-map error exceeds 1e-10 (|x_N| + |x_T| + |U_N| +
 * |U_T|); else 1 (r = P_K(x)) if x slides (x_N > 0, U_N = 0 and |x_T| =
 * mu x_N within 1e3 times that), 0 if not (open or stick, which the exact
 * cases tried before would have found). */
static int slide_verdict(double mu, const double *x, const double *U, double *r)
{
    double sc = 1e-10 * (fabs(x[0]) + hypot(x[1], x[2]) + fabs(U[0]) + hypot(U[1], U[2]));
    if (!(fl_residual_contact_sq(3, mu, x, U) <= sc * sc)) return -1;
    double nt = hypot(x[1], x[2]);
    if (x[0] > 0 && fabs(U[0]) <= sc * 1e3 && fabs(nt - mu * x[0]) <= sc * 1e3) {
        fl_coulomb_cone_project(3, mu, x, r);
        return 1;
    }
    return 0;
}

/* Sliding contact, dim 3: semismooth Newton on the local Alart–Curnier
 * equation (Alart & Curnier 1991 §3; proofs/newton.md (N1)-(N3) with
 * W = Waa), damped by halving on the merit |Phi|^2.  Returns 1 and r when
 * the local natural-map error and the sliding conditions hold to 1e-10
 * (see the header), else 0, r untouched. */
int fl_local_contact_slide_newton(double mu, const double *W, const double *b, double *r)
{
    double rho = 3.0 / (W[0] + W[4] + W[8]);
    if (!(rho > 0) || !isfinite(rho)) return 0;
    double x[3] = {r[0], r[1], r[2]}, U[3], phi[3], D[9];
    if (!(x[0] > 0)) {   /* start on the sliding side of the cone */
        x[0] = fmax(-b[0] / W[0], 0.0);
        x[1] = x[2] = 0.0;
    }
    mv3(W, x, b, U);
    fl_local_contact_alart_curnier(3, mu, rho, x, U, phi, D);
    double psi = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2];
    for (int it = 0; it < 30; it++) {
        double J[9], Ji[9], d[3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double acc = 0;
                for (int l = 0; l < 3; l++) acc += D[3 * i + l] * W[3 * l + j];
                J[3 * i + j] = (i == j ? 1.0 : 0.0) - D[3 * i + j] + rho * acc;
            }
        if (!fl_local_contact_invert3(J, Ji)) return 0;
        for (int i = 0; i < 3; i++) d[i] = -(Ji[3 * i] * phi[0] + Ji[3 * i + 1] * phi[1] + Ji[3 * i + 2] * phi[2]);
        double t = 1.0, xt[3], Ut[3], pt[3], Dt[9], psit = INFINITY;
        for (int ls = 0; ls < 20; ls++, t *= 0.5) {
            for (int k = 0; k < 3; k++) xt[k] = x[k] + t * d[k];
            mv3(W, xt, b, Ut);
            fl_local_contact_alart_curnier(3, mu, rho, xt, Ut, pt, Dt);
            psit = pt[0] * pt[0] + pt[1] * pt[1] + pt[2] * pt[2];
            if (psit <= (1.0 - 1e-4 * t) * psi) break;
        }
        if (!(psit < psi)) {
            /* no step decreases psi: x (the start itself, at a Gauss–Seidel
             * sweep's fixed point) is judged as it stands */
            int verdict = slide_verdict(mu, x, U, r);
            return verdict > 0 ? verdict : 0;
        }
        memcpy(x, xt, sizeof x);
        memcpy(U, Ut, sizeof U);
        memcpy(phi, pt, sizeof phi);
        memcpy(D, Dt, sizeof D);
        psi = psit;
        int verdict = slide_verdict(mu, x, U, r);
        if (verdict >= 0) return verdict;
    }
    return 0;
}

/* The sparse twin's single-contact solve (003 §3 cases, header): 1 or 2 if
 * an exact open/stick case, 1 if a verified Newton slide was found, else the
 * exact solve's return value. */
int fl_local_contact_solve_fast(int dim, double mu, const double *Waa, const double *Winv,
                                int has_inv, const double *b, double *r)
{
    if (dim == 2) return fl_local_contact_solve_fast2(mu, Waa, b, r);
    if (dim != 3) return fl_local_contact_solve(dim, mu, Waa, b, r);
    double cand[2][3];
    int n = 0;
    if (b[0] >= 0) {
        cand[n][0] = cand[n][1] = cand[n][2] = 0.0;
        n++;
    }
    if (has_inv) {
        double x[3], z[3] = {0, 0, 0}, nb[3] = {-b[0], -b[1], -b[2]};
        mv3(Winv, nb, z, x);
        double nt = hypot(x[1], x[2]), slack = 1e-12 * (fabs(x[0]) + nt);
        if (x[0] >= -slack && nt <= mu * x[0] + slack) {
            memcpy(cand[n], x, sizeof x);
            n++;
        }
    }
    if (n > 0) {
        int best = 0;
        if (n == 2) {
            double d0 = 0, d1 = 0;
            for (int k = 0; k < 3; k++) {
                d0 += (cand[0][k] - r[k]) * (cand[0][k] - r[k]);
                d1 += (cand[1][k] - r[k]) * (cand[1][k] - r[k]);
            }
            best = d1 < d0;
        }
        fl_coulomb_cone_project(3, mu, cand[best], r);
        return n;
    }
    if (b[0] < 0 && fl_local_contact_slide_newton(mu, Waa, b, r)) return 1;
    return fl_local_contact_solve(3, mu, Waa, b, r);
}

