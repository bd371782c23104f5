/* lcp_enumerate.c — all solutions of a small LCP by enumerating complementary
 * bases (exhaustive enumeration, proofs/contact_dynamics.md).  See lcp_enumerate.h. */
#include "lcp_enumerate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "fl_dense.h"
#include "lemke.h"
#include "fl_clock.h"

fl_lcp_enum_options fl_lcp_enum_options_default(void)
{
    fl_lcp_enum_options o;
    o.max_n = 20;
    o.feas_tol = 1e-10;
    o.dedup_tol = 1e-8;
    o.sing_tol = 1e-12;
    return o;
}

void fl_lcp_solutions_free(fl_lcp_solutions *s)
{
    if (!s) return;
    free(s->z);
    free(s);
}

/* LU of the principal submatrix M_{alpha alpha} (k x k, alpha = idx[0..k-1])
 * held in A (k x k view); returns 0 when nonsingular (every pivot of the
 * partially pivoted LU above sing_tol * max|M_aa|), writing its determinant. */
static int principal_lu(const gsl_matrix *M, const size_t *idx, size_t k,
                        gsl_matrix_view *A, gsl_permutation *p, double sing_tol,
                        double *det)
{
    double amax = 0.0;
    for (size_t a = 0; a < k; a++)
        for (size_t c = 0; c < k; c++) {
            double v = gsl_matrix_get(M, idx[a], idx[c]);
            gsl_matrix_set(&A->matrix, a, c, v);
            amax = fmax(amax, fabs(v));
        }
    int sgn;
    gsl_permutation_init(p);
    gsl_linalg_LU_decomp(&A->matrix, p, &sgn);   /* never fails on finite input */
    double d = sgn;
    int singular = 0;
    for (size_t a = 0; a < k; a++) {
        double u = gsl_matrix_get(&A->matrix, a, a);
        d *= u;
        if (!(fabs(u) > sing_tol * amax)) singular = 1;
    }
    if (det) *det = d;
    return singular;
}

static fl_status push_solution(fl_lcp_solutions *s, const double *z)
{
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? 2 * s->capacity : 8;
        double *nz = realloc(s->z, cap * s->n * sizeof *nz);
        if (!nz) return FL_ENOMEM;
        s->z = nz;
        s->capacity = cap;
    }
    memcpy(s->z + s->count * s->n, z, s->n * sizeof *z);
    s->count++;
    return FL_OK;
}

static int already_found(const fl_lcp_solutions *s, const double *z, double tol)
{
    size_t n = s->n;
    double zn = 0.0;
    for (size_t j = 0; j < n; j++) zn = fmax(zn, fabs(z[j]));
    for (size_t k = 0; k < s->count; k++) {
        double d = 0.0;
        for (size_t j = 0; j < n; j++) d = fmax(d, fabs(s->z[k * n + j] - z[j]));
        if (d <= tol * (1.0 + zn)) return 1;
    }
    return 0;
}

/* Enumeration of complementary bases, exhaustive enumeration, proofs/contact_dynamics.md for LCP(M, q). */
fl_status fl_lcp_enumerate(const gsl_matrix *M, const gsl_vector *q,
                           const fl_lcp_enum_options *opt, fl_lcp_solutions **out,
                           fl_lcp_enum_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_lcp_enum_result rr = {FL_OK, 0, 0, 0.0, 0.0};
    fl_lcp_enum_options o = opt ? *opt : fl_lcp_enum_options_default();
    if (out) *out = NULL;
    fl_status s = out ? fl_lcp_check(M, q, err)
                      : FL_FAIL(err, FL_EINVAL, "no output list given to the enumerator");
    if (s == FL_OK && (q->size > o.max_n || q->size >= 8 * sizeof(size_t) - 1))
        s = FL_FAIL(err, FL_EINVAL, "LCP of size %zu is too large to enumerate (max %zu)",
                    q->size, o.max_n);
    if (s == FL_OK && !(o.feas_tol >= 0.0 && o.dedup_tol >= 0.0 && o.sing_tol >= 0.0))
        s = FL_FAIL(err, FL_EINVAL, "enumeration tolerances must be nonnegative");
    if (s != FL_OK) {
        rr.status = s;
        if (res) *res = rr;
        return s;
    }
    size_t n = q->size;
    double qn = 0.0;
    for (size_t i = 0; i < n; i++) qn = fmax(qn, fabs(gsl_vector_get(q, i)));
    double ftol = o.feas_tol * (1.0 + qn);

    fl_lcp_solutions *sol = calloc(1, sizeof *sol);
    gsl_matrix *Abuf = fl_dense_matrix_alloc(n, n);
    gsl_vector *bbuf = fl_dense_vector_alloc(n), *xbuf = fl_dense_vector_alloc(n);
    gsl_vector *zv = fl_dense_vector_alloc(n), *wv = fl_dense_vector_alloc(n);
    gsl_permutation *pbuf[64] = {NULL};
    size_t *idx = malloc(n * sizeof *idx);
    int ok = sol && Abuf && bbuf && xbuf && zv && wv && idx;
    for (size_t k = 1; ok && k <= n; k++) ok = (pbuf[k] = fl_dense_permutation_alloc(k)) != NULL;
    if (!ok) {
        s = FL_FAIL(err, FL_ENOMEM, "enumeration workspace for n = %zu", n);
        goto done;
    }
    sol->n = n;

    size_t nb = (size_t)1 << n;
    gsl_error_handler_t *old = fl_gsl_handler_off();
    for (size_t mask = 0; mask < nb; mask++) {
        rr.bases++;
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (mask & ((size_t)1 << j)) idx[k++] = j;
        gsl_vector_set_zero(zv);
        if (k > 0) {
            gsl_matrix_view A = gsl_matrix_submatrix(Abuf, 0, 0, k, k);
            if (principal_lu(M, idx, k, &A, pbuf[k], o.sing_tol, NULL)) {
                rr.singular_bases++;
                continue;
            }
            gsl_vector_view b = gsl_vector_subvector(bbuf, 0, k);
            gsl_vector_view x = gsl_vector_subvector(xbuf, 0, k);
            for (size_t a = 0; a < k; a++) gsl_vector_set(&b.vector, a, -gsl_vector_get(q, idx[a]));
            gsl_linalg_LU_solve(&A.matrix, pbuf[k], &b.vector, &x.vector);
            int feasible = 1;
            for (size_t a = 0; a < k; a++) {
                double v = gsl_vector_get(&x.vector, a);
                if (!(v >= -ftol)) feasible = 0;
                gsl_vector_set(zv, idx[a], fmax(v, 0.0));   /* z_alpha >= 0 */
            }
            if (!feasible) continue;
        }
        double r = fl_lcp_residual(M, q, zv, wv);
        int feasible = 1;
        for (size_t i = 0; i < n; i++)
            if (!(mask & ((size_t)1 << i)) && !(gsl_vector_get(wv, i) >= -ftol)) feasible = 0;
        if (!feasible) continue;
        if (already_found(sol, zv->data, o.dedup_tol)) continue;
        if (push_solution(sol, zv->data) != FL_OK) {
            fl_gsl_handler_restore(old);
            s = FL_FAIL(err, FL_ENOMEM, "enumeration solution list");
            goto done;
        }
        rr.residual = fmax(rr.residual, r);
    }
    fl_gsl_handler_restore(old);

done:
    gsl_matrix_free(Abuf);
    gsl_vector_free(bbuf);
    gsl_vector_free(xbuf);
    gsl_vector_free(zv);
    gsl_vector_free(wv);
    for (size_t k = 0; k < 64; k++) gsl_permutation_free(pbuf[k]);
    free(idx);
    if (s != FL_OK) {
        fl_lcp_solutions_free(sol);
        sol = NULL;
    }
    *out = sol;
    rr.status = s;
    rr.seconds = fl_clock_now() - t0;
    if (res) *res = rr;
    return s;
}

/* Minimum principal minor (P-matrix test, Cottle–Pang–Stone Thm 3.3.7). */
fl_status fl_lcp_min_principal_minor(const gsl_matrix *M, double *min_minor, fl_error *err)
{
    if (!M || !min_minor) return FL_FAIL(err, FL_EINVAL, "NULL argument");
    if (M->size1 == 0 || M->size1 != M->size2)
        return FL_FAIL(err, FL_EDIM, "matrix is %zux%zu, expected square and non-empty",
                       M->size1, M->size2);
    FL_TRY(fl_check_finite_matrix(M, "matrix", err));
    size_t n = M->size1;
    fl_lcp_enum_options o = fl_lcp_enum_options_default();
    if (n > o.max_n)
        return FL_FAIL(err, FL_EINVAL, "matrix of size %zu is too large (max %zu)", n, o.max_n);
    gsl_matrix *Abuf = fl_dense_matrix_alloc(n, n);
    gsl_permutation *p = fl_dense_permutation_alloc(n);
    size_t *idx = malloc(n * sizeof *idx);
    if (!Abuf || !p || !idx) {
        gsl_matrix_free(Abuf);
        gsl_permutation_free(p);
        free(idx);
        return FL_FAIL(err, FL_ENOMEM, "principal-minor workspace");
    }
    double best = INFINITY;
    gsl_error_handler_t *old = fl_gsl_handler_off();
    for (size_t mask = 1; mask < ((size_t)1 << n); mask++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (mask & ((size_t)1 << j)) idx[k++] = j;
        gsl_matrix_view A = gsl_matrix_submatrix(Abuf, 0, 0, k, k);
        p->size = k;
        double det;
        principal_lu(M, idx, k, &A, p, 0.0, &det);
        best = fmin(best, det);
    }
    fl_gsl_handler_restore(old);
    p->size = n;
    *min_minor = best;
    gsl_matrix_free(Abuf);
    gsl_permutation_free(p);
    free(idx);
    return FL_OK;
}
