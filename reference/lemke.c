/* lemke.c — Lemke's complementary pivoting with lexicographic degeneracy
 * resolution (004 §5.3, ref. [19]).  See lemke.h.
 *
 * Tableau (dense, n rows, 2n + 2 columns), one row per basic variable:
 *
 *      columns 0..n-1   w        (initially the identity: B^-1 lives here)
 *      columns n..2n-1  z        (initially -M)
 *      column  2n       z0       (initially -d, d = 1)
 *      column  2n+1     rhs      (initially q:  I w - M z - d z0 = q)
 *
 * Row i reads  x_B(i) + sum_{j nonbasic} T(i,j) x_j = T(i,rhs).  The w
 * columns always hold B^-1 (B = basis columns of [I, -M, -d]), so the rows
 * of [rhs, w columns] are the rows of [B^-1 q, B^-1] used by the
 * lexicographic rule.
 */
#include "lemke.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "fl_dense.h"
#include "fl_clock.h"

fl_lemke_options fl_lemke_options_default(void)
{
    fl_lemke_options o;
    o.max_pivots = 0;
    o.pivot_tol = 1e-11;
    o.verify_tol = 1e-9;
    return o;
}

fl_status fl_lcp_check(const gsl_matrix *M, const gsl_vector *q, fl_error *err)
{
    if (!M || !q)
        return FL_FAIL(err, FL_EINVAL, "LCP matrix or vector is NULL");
    if (M->size1 == 0 || M->size1 != M->size2)
        return FL_FAIL(err, FL_EDIM, "LCP matrix is %zux%zu, expected square and non-empty",
                       M->size1, M->size2);
    if (q->size != M->size1)
        return FL_FAIL(err, FL_EDIM, "LCP vector q has length %zu, matrix has %zu rows",
                       q->size, M->size1);
    FL_TRY(fl_check_finite_matrix(M, "LCP matrix M", err));
    FL_TRY(fl_check_finite_vector(q, "LCP vector q", err));
    return FL_OK;
}

/* ||min(z, Mz + q)||_inf / (1 + ||q||_inf): the natural map of the LCP. */
double fl_lcp_residual(const gsl_matrix *M, const gsl_vector *q, const gsl_vector *z,
                       gsl_vector *w)
{
    size_t n = q->size;
    double r = 0.0, qn = 0.0;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        double wi = gsl_vector_get(q, i);                 /* w = M z + q */
        for (size_t j = 0; j < n; j++)
            wi += gsl_matrix_get(M, i, j) * gsl_vector_get(z, j);
        if (w) gsl_vector_set(w, i, wi);
        double zi = gsl_vector_get(z, i);
        double m = zi < wi ? zi : wi;                     /* min(z_i, w_i) */
        if (isnan(zi) || isnan(wi)) bad = 1;
        r = fmax(r, fabs(m));
        qn = fmax(qn, fabs(gsl_vector_get(q, i)));
    }
    return bad ? NAN : r / (1.0 + qn);
}

/* Gauss–Jordan pivot on T(r, c): row r /= T(r,c); row i -= T(i,c) row r.
 * Rows are contiguous in GSL's row-major storage (tda = row stride). */
static void pivot(gsl_matrix *T, size_t r, size_t c)
{
    size_t ncol = T->size2, tda = T->tda;
    double *R = T->data + r * tda;
    double p = R[c];
    for (size_t j = 0; j < ncol; j++) R[j] /= p;
    R[c] = 1.0;
    for (size_t i = 0; i < T->size1; i++) {
        if (i == r) continue;
        double *Ti = T->data + i * tda;
        double f = Ti[c];
        if (f == 0.0) continue;
        for (size_t j = 0; j < ncol; j++) Ti[j] -= f * R[j];
        Ti[c] = 0.0;
    }
}

/* Equality of two ratio entries up to rounding. */
static int nearly_equal(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (1.0 + fmax(fabs(a), fabs(b)));
}

/* Lexicographic comparison of rows a and b of [rhs, B^-1], each divided by
 * its own divisor (da, db > 0): returns < 0 if row a / da <lex row b / db. */
static int lex_compare(const gsl_matrix *T, size_t a, double da, size_t b, double db,
                       size_t rhs)
{
    double xa = gsl_matrix_get(T, a, rhs) / da, xb = gsl_matrix_get(T, b, rhs) / db;
    if (!nearly_equal(xa, xb)) return xa < xb ? -1 : 1;
    size_t n = T->size1;
    for (size_t j = 0; j < n; j++) {
        xa = gsl_matrix_get(T, a, j) / da;
        xb = gsl_matrix_get(T, b, j) / db;
        if (!nearly_equal(xa, xb)) return xa < xb ? -1 : 1;
    }
    return 0;   /* impossible in exact arithmetic: B^-1 is nonsingular */
}

/* Minimum-ratio test for entering column c with the lexicographic rule;
 * rows whose basic variable is z0 win ties of the first (rhs) component, so
 * the method stops as soon as it can.  Returns n when no row blocks (ray). */
static size_t ratio_test(const gsl_matrix *T, size_t c, const size_t *basis, double tol)
{
    size_t n = T->size1, rhs = T->size2 - 1, z0 = 2 * n, best = n;
    double cmax = 0.0;
    for (size_t i = 0; i < n; i++) cmax = fmax(cmax, fabs(gsl_matrix_get(T, i, c)));
    double thr = tol * fmax(cmax, 1e-300);
    for (size_t i = 0; i < n; i++) {
        double a = gsl_matrix_get(T, i, c);
        if (!(a > thr)) continue;                         /* does not block */
        if (best == n) { best = i; continue; }
        double ab = gsl_matrix_get(T, best, c);
        double ri = gsl_matrix_get(T, i, rhs) / a, rb = gsl_matrix_get(T, best, rhs) / ab;
        if (nearly_equal(ri, rb) && (basis[i] == z0 || basis[best] == z0)) {
            if (basis[i] == z0) best = i;
            continue;
        }
        if (lex_compare(T, i, a, best, ab, rhs) < 0) best = i;
    }
    return best;
}

/* Accuracy polish: with the complementary index set alpha = {j : z_j basic}
 * of the final basis, z_alpha = -M_{alpha alpha}^-1 q_alpha exactly (the
 * tableau holds the same numbers after many updates).  Solved by LU; kept
 * only if its residual is not worse.  Returns 0 if the polish was kept. */
static int polish(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z,
                  double *residual)
{
    size_t n = q->size, k = 0;
    size_t *idx = malloc(n * sizeof *idx);
    if (!idx) return -1;
    for (size_t j = 0; j < n; j++)
        if (gsl_vector_get(z, j) > 0.0) idx[k++] = j;
    int kept = -1;
    if (k > 0) {
        gsl_matrix *A = fl_dense_matrix_alloc(k, k);
        gsl_vector *b = fl_dense_vector_alloc(k), *x = fl_dense_vector_alloc(k);
        gsl_vector *zt = fl_dense_vector_alloc(n);
        gsl_permutation *p = fl_dense_permutation_alloc(k);
        if (A && b && x && zt && p) {
            for (size_t a = 0; a < k; a++) {
                gsl_vector_set(b, a, -gsl_vector_get(q, idx[a]));
                for (size_t c = 0; c < k; c++)
                    gsl_matrix_set(A, a, c, gsl_matrix_get(M, idx[a], idx[c]));
            }
            int sgn;
            gsl_error_handler_t *old = fl_gsl_handler_off();
            int rc = gsl_linalg_LU_decomp(A, p, &sgn);
            if (rc == GSL_SUCCESS) rc = gsl_linalg_LU_solve(A, p, b, x);
            fl_gsl_handler_restore(old);
            if (rc == GSL_SUCCESS) {
                gsl_vector_set_zero(zt);
                for (size_t a = 0; a < k; a++) gsl_vector_set(zt, idx[a], gsl_vector_get(x, a));
                double r = fl_lcp_residual(M, q, zt, NULL);
                if (r <= *residual) {
                    gsl_vector_memcpy(z, zt);
                    *residual = r;
                    kept = 0;
                }
            }
        }
        gsl_matrix_free(A);
        gsl_vector_free(b);
        gsl_vector_free(x);
        gsl_vector_free(zt);
        gsl_permutation_free(p);
    }
    free(idx);
    return kept;
}

/* Lemke's method, 004 §5.3 / ref. [19]; steps numbered as 004 §5.3. */
fl_status fl_lemke_solve(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z,
                         gsl_vector *w, const fl_lemke_options *opt,
                         fl_lemke_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_lemke_result rr = {FL_OK, 0, NAN, 0.0, 0.0};
    fl_lemke_options o = opt ? *opt : fl_lemke_options_default();
    fl_status s = fl_lcp_check(M, q, err);
    if (s == FL_OK && (!z || z->size != q->size || (w && w->size != q->size)))
        s = FL_FAIL(err, FL_EDIM, "LCP unknowns z/w must have length %zu", q->size);
    if (s == FL_OK && !(o.pivot_tol > 0.0 && o.verify_tol > 0.0))
        s = FL_FAIL(err, FL_EINVAL, "Lemke tolerances must be positive (pivot %g, verify %g)",
                    o.pivot_tol, o.verify_tol);
    if (s != FL_OK) {
        rr.status = s;
        if (res) *res = rr;
        return s;
    }
    size_t n = q->size;
    size_t maxp = o.max_pivots ? o.max_pivots : 100 * (n + 1) + 1000;

    /* Step 1: q >= 0 gives z = 0. */
    double qmin = gsl_vector_min(q);
    if (qmin >= 0.0) {
        gsl_vector_set_zero(z);
        rr.residual = fl_lcp_residual(M, q, z, w);
        rr.seconds = fl_clock_now() - t0;
        if (res) *res = rr;
        return FL_OK;
    }

    gsl_matrix *T = fl_dense_matrix_calloc(n, 2 * n + 2);
    size_t *basis = calloc(n, sizeof *basis);
    if (!T || !basis) {
        gsl_matrix_free(T);
        free(basis);
        rr.status = FL_FAIL(err, FL_ENOMEM, "Lemke tableau of %zu rows", n);
        if (res) *res = rr;
        return rr.status;
    }
    size_t Z0 = 2 * n, RHS = 2 * n + 1;
    for (size_t i = 0; i < n; i++) {        /* I w - M z - d z0 = q */
        gsl_matrix_set(T, i, i, 1.0);
        for (size_t j = 0; j < n; j++) gsl_matrix_set(T, i, n + j, -gsl_matrix_get(M, i, j));
        gsl_matrix_set(T, i, Z0, -1.0);
        gsl_matrix_set(T, i, RHS, gsl_vector_get(q, i));
        basis[i] = i;
    }

    /* Step 2: z0 enters; the leaving row is the lexicographic minimum of the
     * rows [q_i, e_i] (z0 = -min q, ties broken by B^-1 = I). */
    size_t r = 0;
    for (size_t i = 1; i < n; i++)
        if (lex_compare(T, i, 1.0, r, 1.0, RHS) < 0) r = i;
    size_t leaving = basis[r];
    pivot(T, r, Z0);
    basis[r] = Z0;
    rr.iterations = 1;

    /* Step 3: complementary pivoting. */
    fl_status status = FL_OK;
    for (;;) {
        if (leaving == Z0) break;                                   /* solution */
        if (rr.iterations >= maxp) { status = FL_WMAXITER; break; }
        size_t entering = leaving < n ? leaving + n : leaving - n;  /* complement */
        r = ratio_test(T, entering, basis, o.pivot_tol);
        if (r == n) { status = FL_ERAY; break; }                    /* ray */
        leaving = basis[r];
        pivot(T, r, entering);
        basis[r] = entering;
        rr.iterations++;
    }

    /* Read z off the final basis. */
    gsl_vector_set_zero(z);
    rr.z0 = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (basis[i] >= n && basis[i] < 2 * n)
            gsl_vector_set(z, basis[i] - n, gsl_matrix_get(T, i, RHS));
        else if (basis[i] == Z0)
            rr.z0 = gsl_matrix_get(T, i, RHS);
    }
    gsl_matrix_free(T);
    free(basis);

    /* Verification, independent of the tableau: w = M z + q, residual. */
    rr.residual = fl_lcp_residual(M, q, z, NULL);
    /* A ray met with z0 already at rounding level: the almost-complementary
     * point solves w = M z + q + d z0 with z0 ~ 0, so z may solve the LCP;
     * it is accepted only if the independent certificate says so. */
    if (status == FL_ERAY && fabs(rr.z0) <= 1e3 * DBL_EPSILON * (1.0 + fabs(qmin))) {
        double r0 = rr.residual;
        polish(M, q, z, &r0);
        if (r0 <= o.verify_tol) {
            status = FL_OK;
            rr.z0 = 0.0;
        }
    }
    if (status == FL_OK) polish(M, q, z, &rr.residual);
    rr.residual = fl_lcp_residual(M, q, z, w);
    if (status == FL_ERAY)
        FL_FAIL(err, FL_ERAY, "Lemke ended on a ray after %zu pivots (z0 = %g): no solution found",
                rr.iterations, rr.z0);
    else if (status == FL_WMAXITER)
        FL_FAIL(err, FL_WMAXITER, "Lemke reached the pivot limit %zu", maxp);
    else if (!(rr.residual <= o.verify_tol))
        status = FL_FAIL(err, FL_ENOCONV,
                         "Lemke solution fails verification: residual %g > %g (ill-conditioned pivots)",
                         rr.residual, o.verify_tol);
    rr.status = status;
    rr.seconds = fl_clock_now() - t0;
    if (res) *res = rr;
    return status;
}
