/* test_local_contact.c — the single-contact module (reference/local_contact.c)
 * tested alone: closed forms of proofs/local_contact.md (nonsymmetric 2x2 and
 * 3x3 blocks, each case open / stick / slide, degenerate blocks), and an
 * independent enumeration of the local problem's solutions written here
 * (Cramer's rule for stick, a 20000-angle scan of the angle of U_T minus the
 * slide direction with bisection for the 3D slides) on random nonsymmetric
 * blocks.  The law is checked from its definition, not through the module. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "reference/local_contact.h"

static const double PI = 3.14159265358979323846;

/* ---- Coulomb's law from its definition (proofs/local_contact.md) ---- */

static void velocity(int dim, const double *W, const double *b, const double *r, double *U)
{
    for (int i = 0; i < dim; i++) {
        U[i] = b[i];
        for (int j = 0; j < dim; j++) U[i] += W[i * dim + j] * r[j];
    }
}

static double tnorm(int dim, const double *x)
{
    return dim == 2 ? fabs(x[1]) : hypot(x[1], x[2]);
}

/* 1 when (r, U = W r + b) obeys Coulomb's law to tol * scale. */
static int law_holds(int dim, double mu, const double *W, const double *b, const double *r,
                     double tol)
{
    double U[3];
    velocity(dim, W, b, r, U);
    double s = 1.0, nt = tnorm(dim, r), ut = tnorm(dim, U);
    for (int k = 0; k < dim; k++) s += fabs(r[k]) + fabs(b[k]);
    double e = tol * s;
    if (!(r[0] >= -e && nt <= mu * r[0] + e && U[0] >= -e)) return 0;
    if (r[0] <= e && nt <= e) return 1;                  /* open */
    if (fabs(U[0]) > e) return 0;                        /* r_N > 0 needs U_N = 0 */
    if (ut <= e) return 1;                               /* stick */
    if (fabs(nt - mu * r[0]) > e) return 0;              /* slide on the boundary */
    for (int k = 1; k < dim; k++)                        /* r_T = -mu r_N U_T/|U_T| */
        if (fabs(r[k] + mu * r[0] * U[k] / ut) > e) return 0;
    return 1;
}

/* ---- independent enumeration of all solutions ---- */

typedef struct sols {
    int n;
    double r[16][3];
} sols;

static void sols_add(sols *S, int dim, const double *r)
{
    for (int i = 0; i < S->n; i++) {
        double d = 0;
        for (int k = 0; k < dim; k++) d += fabs(S->r[i][k] - r[k]);
        if (d < 1e-7) return;
    }
    if (S->n < 16) memcpy(S->r[S->n++], r, 3 * sizeof *r);
}

static double det3(const double *A)
{
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
           A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/* stick: W r = -b by Cramer's rule, kept when r in K_mu */
static void brute_stick(int dim, double mu, const double *W, const double *b, sols *S)
{
    double r[3] = {0, 0, 0}, big = 0;
    for (int k = 0; k < dim * dim; k++) big = fmax(big, fabs(W[k]));
    double det = dim == 2 ? W[0] * W[3] - W[1] * W[2] : det3(W);
    if (!(fabs(det) > 1e-10 * pow(big, dim))) return;
    for (int c = 0; c < dim; c++) {
        double A[9];
        memcpy(A, W, dim * dim * sizeof *A);
        for (int i = 0; i < dim; i++) A[i * dim + c] = -b[i];
        r[c] = (dim == 2 ? A[0] * A[3] - A[1] * A[2] : det3(A)) / det;
    }
    if (r[0] >= 0 && tnorm(dim, r) <= mu * r[0]) sols_add(S, dim, r);
}

/* slide along d (unit, length dim - 1): r = r_N (1, -mu d), U_N = 0 */
static int slide_point(int dim, double mu, const double *W, const double *b, const double *d,
                       double *r, double *U)
{
    double e[3] = {1, -mu * d[0], dim == 3 ? -mu * d[1] : 0}, We[3];
    double z[3] = {0, 0, 0};
    velocity(dim, W, z, e, We);
    if (We[0] == 0.0) return 0;
    double rn = -b[0] / We[0];
    for (int k = 0; k < dim; k++) r[k] = rn * e[k];
    velocity(dim, W, b, r, U);
    return rn > 0;
}

/* angle of U_T minus t, wrapped into (-pi, pi]; NAN when no slide at t */
static double mismatch(double mu, const double *W, const double *b, double t, double *r)
{
    double d[2] = {cos(t), sin(t)}, U[3];
    if (!slide_point(3, mu, W, b, d, r, U)) return NAN;
    double a = atan2(U[2], U[1]) - t;
    while (a > PI) a -= 2 * PI;
    while (a <= -PI) a += 2 * PI;
    return a;
}

static void brute_slide3(double mu, const double *W, const double *b, sols *S)
{
    enum { NT = 20000 };
    double r[3], t0 = 0, f0 = mismatch(mu, W, b, 0, r);
    for (int i = 1; i <= NT; i++) {
        double t1 = 2 * PI * i / NT, f1 = mismatch(mu, W, b, t1, r);
        if (isfinite(f0) && isfinite(f1) && fabs(f0) < 1 && fabs(f1) < 1 &&
            (f0 <= 0) != (f1 <= 0)) {
            double lo = t0, hi = t1, flo = f0;
            for (int it = 0; it < 200 && hi - lo > 1e-15; it++) {
                double mid = 0.5 * (lo + hi), fm = mismatch(mu, W, b, mid, r);
                if (isfinite(fm) && (fm <= 0) == (flo <= 0)) {
                    lo = mid;
                    flo = fm;
                } else {
                    hi = mid;
                }
            }
            if (isfinite(mismatch(mu, W, b, 0.5 * (lo + hi), r))) sols_add(S, 3, r);
        }
        t0 = t1;
        f0 = f1;
    }
}

static void brute_all(int dim, double mu, const double *W, const double *b, sols *S)
{
    S->n = 0;
    double z[3] = {0, 0, 0};
    if (b[0] >= 0) sols_add(S, dim, z);
    brute_stick(dim, mu, W, b, S);
    if (dim == 2) {
        for (int s = -1; s <= 1; s += 2) {
            double d = s, r[3] = {0, 0, 0}, U[3];
            if (slide_point(2, mu, W, b, &d, r, U) && s * U[1] > 0) sols_add(S, 2, r);
        }
    } else if (mu > 0) {
        brute_slide3(mu, W, b, S);
    } else if (b[0] < 0 && W[0] > 0) {   /* mu = 0: r = (-b_N / W_NN, 0, 0) */
        double r[3] = {-b[0] / W[0], 0, 0};
        sols_add(S, 3, r);
    }
}

static double dist(int dim, const double *x, const double *y)
{
    double s = 0;
    for (int k = 0; k < dim; k++) s += (x[k] - y[k]) * (x[k] - y[k]);
    return sqrt(s);
}

static void assert_r(int dim, const double *r, const double *want, double tol)
{
    for (int k = 0; k < dim; k++)
        cr_assert(fabs(r[k] - want[k]) <= tol, "r[%d] = %.17g, want %.17g", k, r[k], want[k]);
}

/* both solves from r = 0 on one closed form: the exact solve returns
 * want_n cases, the fast one >= 1, both r = want */
static void closed_form(int dim, double mu, const double *W, const double *b,
                        const double *want, int want_n)
{
    double r[3] = {0, 0, 0}, Wi[9];
    cr_assert_eq(fl_local_contact_solve(dim, mu, W, b, r), want_n);
    assert_r(dim, r, want, 1e-12);
    cr_assert(law_holds(dim, mu, W, b, r, 1e-12));
    int inv = dim == 3 && fl_local_contact_invert3(W, Wi);   /* dim 2: the exact solve, Winv unused */
    memset(r, 0, sizeof r);
    cr_assert_geq(fl_local_contact_solve_fast(dim, mu, W, inv ? Wi : NULL, inv, b, r), 1);
    assert_r(dim, r, want, 1e-9);
}

/* ---- proofs/local_contact.md §2–§3 ---- */

static const double W2[4] = {2, 0.5, -0.3, 1};
static const double W3[9] = {2, 0.3, -0.2, -0.1, 1.5, 0.4, 0.25, -0.2, 1.2};
static const double B2[3][2] = {{1, 0.7}, {-2.1, 0.1}, {-1.8, 1.2}};
static const double R2[3][2] = {{0, 0}, {1, 0.2}, {1, -0.4}};
static const double B3[3][3] = {{0.5, 1, -1}, {-2.08, -0.16, -0.09}, {-1.99, 1.01, 0.57}};
static const double R3[3][3] = {{0, 0, 0}, {1, 0.2, -0.1}, {1, -0.3, -0.4}};

Test(local_contact, closed_forms_2d_nonsymmetric_open_stick_slide)
{
    for (int c = 0; c < 3; c++) closed_form(2, 0.4, W2, B2[c], R2[c], 1);
}

Test(local_contact, closed_forms_3d_nonsymmetric_open_stick_slide)
{
    for (int c = 0; c < 3; c++) closed_form(3, 0.5, W3, B3[c], R3[c], 1);
}

Test(local_contact, closed_forms_are_the_only_solutions)
{
    sols S;
    for (int c = 0; c < 3; c++) {
        brute_all(2, 0.4, W2, B2[c], &S);
        cr_assert_eq(S.n, 1, "2D case %d: %d solutions", c, S.n);
        assert_r(2, S.r[0], R2[c], 1e-9);
        brute_all(3, 0.5, W3, B3[c], &S);
        cr_assert_eq(S.n, 1, "3D case %d: %d solutions", c, S.n);
        assert_r(3, S.r[0], R3[c], 1e-9);
    }
}

Test(local_contact, slide_newton_alone)
{
    double r[3] = {0, 0, 0};
    cr_assert_eq(fl_local_contact_slide_newton(0.5, W3, B3[2], r), 1);
    assert_r(3, r, R3[2], 1e-9);
    double s[3] = {0, 0, 0};   /* a sticking contact is not accepted as a slide */
    cr_assert_eq(fl_local_contact_slide_newton(0.5, W3, B3[1], s), 0);
    cr_assert(s[0] == 0 && s[1] == 0 && s[2] == 0);
}

/* Started at its answer, the Newton slide accepts it.  The block is one of
 * Confeti-ex03-Fc3D-SBM.dat (tests/data/siconos) at the sweep where
 * Gauss–Seidel has converged; the r given is the answer of the exact
 * enumeration, and at it |Phi|^2 is at rounding level, so no Newton step
 * decreases it: before the start itself was judged, the slide returned 0
 * and the solve fell back to the 360-interval enumeration on every
 * revisited sliding contact (79% of that file's solve time). */
Test(local_contact, slide_newton_accepts_its_start)
{
    const double W[9] = {3.9788739999999997e-05, 0, 0, 0, 0.0001387933, 0, 0, 0, 0.0001387933};
    const double b[3] = {-0.19619999999987803, -0.53599526481261162, 0.36776473578400637};
    const double want[3] = {4931.0433052134358, 1626.3908006710142, -1115.9225134188919};
    double r[3] = {want[0], want[1], want[2]}, e[3] = {0, 0, 0};
    cr_assert_eq(fl_local_contact_solve(3, 0.4, W, b, e), 1);   /* the enumeration agrees */
    assert_r(3, e, want, 1e-9 * want[0]);
    cr_assert_eq(fl_local_contact_slide_newton(0.4, W, b, r), 1);
    assert_r(3, r, want, 1e-9 * want[0]);
    double s[3] = {R3[1][0], R3[1][1], R3[1][2]};   /* at a stick answer: not a slide */
    cr_assert_eq(fl_local_contact_slide_newton(0.5, W3, B3[1], s), 0);
    assert_r(3, s, R3[1], 0.0);
}

Test(local_contact, invert3_closed_form_and_singular)
{
    double X[9];
    cr_assert_eq(fl_local_contact_invert3(W3, X), 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double acc = 0;
            for (int l = 0; l < 3; l++) acc += W3[3 * i + l] * X[3 * l + j];
            cr_assert_float_eq(acc, i == j ? 1.0 : 0.0, 1e-14);
        }
    const double S[9] = {1, 2, 3, 2, 4, 6, 0, 1, 1}, Z[9] = {0};
    cr_assert_eq(fl_local_contact_invert3(S, X), 0);
    cr_assert_eq(fl_local_contact_invert3(Z, X), 0);
}

/* ---- §4 degenerate blocks ---- */

Test(local_contact, mu_zero_is_frictionless)
{
    const double b2[2] = {-2, 0.5}, w2[2] = {1, 0};
    closed_form(2, 0.0, W2, b2, w2, 1);
    const double b3[3] = {-2, 0.3, -0.1}, w3[3] = {1, 0, 0};
    double r[3] = {0, 0, 0}, U[3];
    cr_assert_geq(fl_local_contact_solve(3, 0.0, W3, b3, r), 1);
    assert_r(3, r, w3, 1e-12);
    velocity(3, W3, b3, r, U);
    assert_r(3, U, (const double[3]){0, 0.2, 0.15}, 1e-12);
    double Wi[9];
    cr_assert_eq(fl_local_contact_invert3(W3, Wi), 1);
    memset(r, 0, sizeof r);
    cr_assert_geq(fl_local_contact_solve_fast(3, 0.0, W3, Wi, 1, b3, r), 1);
    assert_r(3, r, w3, 1e-9);
}

Test(local_contact, zero_tangential_block_slides_along_b_T)
{
    const double Wt2[4] = {2, 0, 0, 0}, b2[2] = {-2, 0.3}, w2[2] = {1, -0.5};
    closed_form(2, 0.5, Wt2, b2, w2, 1);
    const double Wt3[9] = {2, 0, 0, 0, 0, 0, 0, 0, 0}, b3[3] = {-2, 0.3, -0.4};
    const double w3[3] = {1, -0.3, 0.4};
    double Wi[9];
    cr_assert_eq(fl_local_contact_invert3(Wt3, Wi), 0);
    double r[3] = {0, 0, 0};
    cr_assert_geq(fl_local_contact_solve(3, 0.5, Wt3, b3, r), 1);
    assert_r(3, r, w3, 1e-12);
    memset(r, 0, sizeof r);
    cr_assert_geq(fl_local_contact_solve_fast(3, 0.5, Wt3, Wi, 0, b3, r), 1);
    assert_r(3, r, w3, 1e-9);
}

Test(local_contact, zero_normal_row_without_solution_returns_zero)
{
    const double Wn2[4] = {0, 0, 0, 1}, Wn3[9] = {0, 0, 0, 0, 1, 0, 0, 0, 1};
    const double b2[2] = {-1, 0.2}, b3[3] = {-1, 0.2, -0.1};
    for (int dim = 2; dim <= 3; dim++) {
        const double *W = dim == 2 ? Wn2 : Wn3, *b = dim == 2 ? b2 : b3;
        double r[3] = {0.5, 0.1, 0.1}, Wi[9];
        cr_assert_eq(fl_local_contact_solve(dim, 0.3, W, b, r), 0);
        for (int k = 0; k < dim; k++) cr_assert(isfinite(r[k]));
        cr_assert_leq(tnorm(dim, r), 0.3 * r[0] + 1e-15);
        int inv = dim == 3 && fl_local_contact_invert3(W, Wi);   /* dim 2: the exact solve, Winv unused */
        cr_assert_eq(inv, 0);
        double s[3] = {0.5, 0.1, 0.1};
        cr_assert_eq(fl_local_contact_solve_fast(dim, 0.3, W, Wi, inv, b, s), 0);
        for (int k = 0; k < dim; k++) cr_assert(isfinite(s[k]));
        /* with b_N >= 0 the open case holds */
        double o[3] = {0.5, 0.1, 0.1}, bo[3] = {0.2, 0.2, -0.1};
        cr_assert_geq(fl_local_contact_solve(dim, 0.3, W, bo, o), 1);
        assert_r(dim, o, (const double[3]){0, 0, 0}, 0.0);
    }
}

/* ---- random nonsymmetric blocks against the enumeration ---- */

static double unif(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* A nonsymmetric block: diagonal in [1, 3] plus independent entries in
 * [-s/2, s/2], s = 1 (mostly a unique solution) or 3 with mu up to 2 (the
 * slide denominators W_NN -+ mu W_NT can be negative: several solutions). */
static void random_block(int dim, unsigned long long *seed, double *W, double *b, double *mu)
{
    double s = unif(seed) < 0.5 ? 1.0 : 3.0;
    for (int i = 0; i < dim; i++) {
        for (int j = 0; j < dim; j++) W[i * dim + j] = s * (unif(seed) - 0.5);
        W[i * dim + i] += 1.0 + 2.0 * unif(seed);
        b[i] = 2.0 * unif(seed) - 1.0;
    }
    *mu = (s > 1 ? 2.0 : 1.2) * unif(seed);
}

/* The exact solve finds every solution (count), returns the one nearest
 * its input, and each solution is a fixed point; the fast solve returns a
 * solution. */
static void random_against_enumeration(int dim, int n)
{
    unsigned long long seed = 20261127ULL + (unsigned long long)dim;
    int plural = 0, checked = 0;
    for (int it = 0; it < n; it++) {
        double W[9], b[3], mu, Wi[9];
        random_block(dim, &seed, W, b, &mu);
        sols S;
        brute_all(dim, mu, W, b, &S);
        if (S.n == 0) {   /* no solution (or, 3D, only tangential roots): status 0 */
            double r0[3] = {0, 0, 0};
            cr_assert_eq(fl_local_contact_solve(dim, mu, W, b, r0), 0, "dim %d case %d", dim, it);
            continue;
        }
        checked++;
        plural += S.n > 1;
        double r[3] = {0, 0, 0};
        int got = fl_local_contact_solve(dim, mu, W, b, r);
        cr_assert_eq(got, S.n, "dim %d case %d: %d cases, enumeration %d", dim, it, got, S.n);
        cr_assert(law_holds(dim, mu, W, b, r, 1e-9), "dim %d case %d", dim, it);
        int near = 0;
        for (int i = 1; i < S.n; i++)
            if (dist(dim, S.r[i], (double[3]){0, 0, 0}) < dist(dim, S.r[near], (double[3]){0, 0, 0}))
                near = i;
        cr_assert_leq(dist(dim, r, S.r[near]), 1e-8, "dim %d case %d: not the nearest", dim, it);
        for (int i = 0; i < S.n; i++) {   /* fixed points */
            double x[3];
            memcpy(x, S.r[i], sizeof x);
            fl_local_contact_solve(dim, mu, W, b, x);
            cr_assert_leq(dist(dim, x, S.r[i]), 1e-8, "dim %d case %d sol %d", dim, it, i);
        }
        int inv = dim == 3 && fl_local_contact_invert3(W, Wi);   /* dim 2: the exact solve, Winv unused */
        double f[3] = {0, 0, 0};
        cr_assert_geq(fl_local_contact_solve_fast(dim, mu, W, Wi, inv, b, f), 1);
        int found = 0;
        for (int i = 0; i < S.n; i++) found |= dist(dim, f, S.r[i]) <= 1e-7;
        cr_assert(found, "dim %d case %d: fast solve gave no enumerated solution", dim, it);
    }
    cr_log_info("dim %d: %d of %d blocks with a closed case, %d with several solutions", dim,
                checked, n, plural);
    cr_assert_geq(checked, n * 9 / 10);
    cr_assert_geq(plural, n / 100, "only %d cases with several solutions drawn", plural);
}

Test(local_contact, random_2d_blocks_match_enumeration)
{
    random_against_enumeration(2, 3000);
}

Test(local_contact, random_3d_blocks_match_enumeration, .timeout = 120)
{
    random_against_enumeration(3, 400);
}

/* ---- the Alart–Curnier function (proofs/local_contact.md §5) ---- */

/* ---- §6: the 2D condition (U) for exactly one solution ---- */

/* (U) of proofs/local_contact.md §6, with the code's margins: both slide
 * denominators W_NN -+ mu W_NT positive and det W > 0. */
static int cond_unique(double mu, const double *W)
{
    double big = fmax(fmax(fabs(W[0]), fabs(W[1])), fmax(fabs(W[2]), fabs(W[3])));
    return W[0] - mu * fabs(W[1]) > 1e-8 * W[0] && W[0] * W[3] - W[1] * W[2] > 1e-8 * big * big;
}

/* Random nonsymmetric 2x2 blocks, entries in [-2, 2] plus [0, 3] on the
 * diagonal, mu in [0, 3], b in [-1, 1]^2 (b_N = 0 exactly one time in 20;
 * one time in 5, b = -W x with x on the cone's edge within a few 1e-12, the
 * stick and slide cases' common boundary), and a random start r: where (U)
 * holds the independent enumeration finds exactly one solution, and the
 * fast solve returns it from any start, bit for bit the exact solve's answer
 * off the edge; where (U) fails, several solutions occur. */
Test(local_contact, unique_2d_condition_matches_enumeration)
{
    unsigned long long seed = 424242ULL;
    int inside = 0, outside_plural = 0, edges = 0, edge_same = 0;
    for (int it = 0; it < 20000; it++) {
        double W[4], b[2], r[2], mu = 3.0 * unif(&seed);
        for (int k = 0; k < 4; k++) W[k] = 4.0 * unif(&seed) - 2.0;
        W[0] += 3.0 * unif(&seed);
        W[3] += 3.0 * unif(&seed);
        for (int k = 0; k < 2; k++) b[k] = 2.0 * unif(&seed) - 1.0;
        if (unif(&seed) < 0.05) b[0] = 0.0;
        const int edge = unif(&seed) < 0.2;
        if (edge) {   /* b = -W x, x on the cone's edge within a few 1e-12 */
            double x[2] = {1.0, 0.0}, z[2] = {0, 0};
            x[1] = (unif(&seed) < 0.5 ? -mu : mu) * (1.0 + 4e-12 * (2.0 * unif(&seed) - 1.0));
            velocity(2, W, z, x, b);
            b[0] = -b[0];
            b[1] = -b[1];
        }
        r[0] = 2.0 * unif(&seed);
        r[1] = mu * r[0] * (2.0 * unif(&seed) - 1.0);
        sols S;
        brute_all(2, mu, W, b, &S);
        if (!cond_unique(mu, W)) {
            outside_plural += S.n > 1;
            continue;
        }
        inside++;
        cr_assert_eq(S.n, 1, "case %d: (U) holds but %d solutions", it, S.n);
        double f[2] = {r[0], r[1]}, e[2] = {r[0], r[1]};
        double g[2] = {r[0], r[1]};   /* (U): the early exit answers, never defers */
        cr_assert_eq(fl_local_contact_solve_unique2(mu, W, b, g), 1, "case %d", it);
        cr_assert_eq(fl_local_contact_solve_fast(2, mu, W, NULL, 0, b, f), 1, "case %d", it);
        cr_assert(memcmp(f, g, sizeof f) == 0, "case %d", it);
        /* several cases only on a boundary: b_N = 0 (r = 0 thrice), the edge */
        cr_assert_geq(fl_local_contact_solve(2, mu, W, b, e), 1, "case %d", it);
        cr_assert(law_holds(2, mu, W, b, f, 1e-9), "case %d", it);
        double sc = 1e-9 * (1.0 + fabs(S.r[0][0]));
        cr_assert_leq(dist(2, f, S.r[0]), sc, "case %d: fast (%g, %g), enumeration (%g, %g)", it,
                      f[0], f[1], S.r[0][0], S.r[0][1]);
        /* on the edge the exact solve may keep the other of two cases valid
         * within its slack (1e-12 relative, amplified by a small slide
         * denominator: 3e-11 seen); elsewhere the same bits */
        cr_assert_leq(dist(2, f, e), 1e-9 * (1.0 + fabs(e[0])), "case %d", it);
        edges += edge;
        edge_same += edge && memcmp(f, e, sizeof f) == 0;
        cr_assert(edge || memcmp(f, e, sizeof f) == 0,
                  "case %d: fast (%.17g, %.17g), exact (%.17g, %.17g)", it, f[0], f[1], e[0], e[1]);
    }
    cr_log_info("(U) held in %d of 20000 blocks (%d drawn on the cone's edge, fast = exact bit "
                "for bit in %d of these); several solutions in %d of the others", inside, edges,
                edge_same, outside_plural);
    cr_assert_geq(inside, 5000);
    cr_assert_geq(edges, 1000);
    cr_assert_geq(outside_plural, 500);
}

/* On the case boundaries (U) still gives one answer: the stick on the
 * cone's edge (= a slide) and b_N = 0; the fast solve agrees with the exact
 * one from starts on either side. */
Test(local_contact, unique_2d_on_case_boundaries)
{
    const double mu = 0.4;
    const double rs[3][2] = {{1, -0.4}, {1, 0.4}, {0, 0}};
    for (int c = 0; c < 3; c++) {
        double U[2] = {0, 0}, b[2];
        if (c == 2) {   /* b_N = 0: r = 0 */
            b[0] = 0.0;
            b[1] = 0.3;
        } else {        /* U = 0 with r on the edge: b = -W r */
            velocity(2, W2, U, rs[c], b);
            b[0] = -b[0];
            b[1] = -b[1];
        }
        const double starts[3][2] = {{0, 0}, {2, 0.8}, {2, -0.8}};
        for (int st = 0; st < 3; st++) {
            double f[2] = {starts[st][0], starts[st][1]}, e[2] = {starts[st][0], starts[st][1]};
            cr_assert_geq(fl_local_contact_solve_fast(2, mu, W2, NULL, 0, b, f), 1);
            cr_assert_geq(fl_local_contact_solve(2, mu, W2, b, e), 1);
            assert_r(2, f, rs[c], 1e-12);
            assert_r(2, f, e, 1e-12);
        }
    }
}

Test(local_contact, alart_curnier_vanishes_at_the_closed_forms)
{
    for (int c = 0; c < 3; c++)
        for (double rho = 0.25; rho <= 4.0; rho *= 2) {
            double U[3], phi[3], D[9];
            velocity(2, W2, B2[c], R2[c], U);
            fl_local_contact_alart_curnier(2, 0.4, rho, R2[c], U, phi, D);
            for (int k = 0; k < 2; k++) cr_assert_float_eq(phi[k], 0.0, 1e-14);
            velocity(3, W3, B3[c], R3[c], U);
            fl_local_contact_alart_curnier(3, 0.5, rho, R3[c], U, phi, D);
            for (int k = 0; k < 3; k++) cr_assert_float_eq(phi[k], 0.0, 1e-14);
        }
}

Test(local_contact, alart_curnier_jacobian_matches_differences)
{
    unsigned long long seed = 7;
    int tested = 0;
    for (int it = 0; it < 400; it++) {
        int dim = 2 + it % 2;
        double r[3], U[3], phi[3], D[9], mu = unif(&seed), rho = 0.5 + unif(&seed);
        for (int k = 0; k < dim; k++) {
            r[k] = 2 * unif(&seed) - 1;
            U[k] = 2 * unif(&seed) - 1;
        }
        double yn = r[0] - rho * U[0], yt[3];
        for (int k = 1; k < dim; k++) yt[k] = r[k] - rho * U[k];
        if (fabs(yn) < 1e-3 || fabs(tnorm(dim, yt) - mu * fmax(yn, 0)) < 1e-3) continue;
        tested++;
        fl_local_contact_alart_curnier(dim, mu, rho, r, U, phi, D);
        for (int j = 0; j < dim; j++) {
            double rp[3], rm[3], Up[3], Um[3], pp[3], pm[3], qp[3], qm[3], Dx[9], h = 1e-6;
            memcpy(rp, r, sizeof rp);
            memcpy(rm, r, sizeof rm);
            memcpy(Up, U, sizeof Up);
            memcpy(Um, U, sizeof Um);
            rp[j] += h;
            rm[j] -= h;
            Up[j] += h;
            Um[j] -= h;
            fl_local_contact_alart_curnier(dim, mu, rho, rp, U, pp, Dx);
            fl_local_contact_alart_curnier(dim, mu, rho, rm, U, pm, Dx);
            fl_local_contact_alart_curnier(dim, mu, rho, r, Up, qp, Dx);
            fl_local_contact_alart_curnier(dim, mu, rho, r, Um, qm, Dx);
            for (int i = 0; i < dim; i++) {
                double dr = (pp[i] - pm[i]) / (2 * h), du = (qp[i] - qm[i]) / (2 * h);
                cr_assert_float_eq(dr, (i == j) - D[i * dim + j], 1e-6, "dPhi/dr %d %d", i, j);
                cr_assert_float_eq(du, rho * D[i * dim + j], 1e-6, "dPhi/dU %d %d", i, j);
            }
        }
    }
    cr_assert_geq(tested, 300);
}
