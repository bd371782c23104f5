/* fl_dense.c — dense helpers on GSL; see fl_dense.h for the mathematics. */
#include "fl_dense.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

gsl_error_handler_t *fl_gsl_handler_off(void)
{
    return gsl_set_error_handler_off();
}

void fl_gsl_handler_restore(gsl_error_handler_t *previous)
{
    gsl_set_error_handler(previous);
}

/* n1 x n2 elements of `size` bytes fit in size_t (GSL does not check). */
static int fits(size_t n1, size_t n2, size_t size)
{
    return n2 == 0 || n1 <= SIZE_MAX / n2 / size;
}

static gsl_matrix *matrix_alloc(size_t n1, size_t n2, int zero)
{
    if (!fits(n1, n2, sizeof(double))) return NULL;
    gsl_error_handler_t *old = fl_gsl_handler_off();
    gsl_matrix *A = zero ? gsl_matrix_calloc(n1, n2) : gsl_matrix_alloc(n1, n2);
    fl_gsl_handler_restore(old);
    return A;
}

gsl_matrix *fl_dense_matrix_alloc(size_t n1, size_t n2) { return matrix_alloc(n1, n2, 0); }
gsl_matrix *fl_dense_matrix_calloc(size_t n1, size_t n2) { return matrix_alloc(n1, n2, 1); }

static gsl_vector *vector_alloc(size_t n, int zero)
{
    if (!fits(n, 1, sizeof(double))) return NULL;
    gsl_error_handler_t *old = fl_gsl_handler_off();
    gsl_vector *v = zero ? gsl_vector_calloc(n) : gsl_vector_alloc(n);
    fl_gsl_handler_restore(old);
    return v;
}

gsl_vector *fl_dense_vector_alloc(size_t n) { return vector_alloc(n, 0); }
gsl_vector *fl_dense_vector_calloc(size_t n) { return vector_alloc(n, 1); }

gsl_permutation *fl_dense_permutation_alloc(size_t n)
{
    if (!fits(n, 1, sizeof(size_t))) return NULL;
    gsl_error_handler_t *old = fl_gsl_handler_off();
    gsl_permutation *p = gsl_permutation_alloc(n);
    fl_gsl_handler_restore(old);
    return p;
}

int fl_close(double a, double b, double atol, double rtol)
{
    return fabs(a - b) <= atol + rtol * fabs(b);
}

fl_status fl_check_finite_vector(const gsl_vector *v, const char *what, fl_error *err)
{
    for (size_t i = 0; i < v->size; i++)
        if (!isfinite(gsl_vector_get(v, i)))
            return FL_FAIL(err, FL_ENONFINITE, "%s[%zu] is not finite", what, i);
    return FL_OK;
}

fl_status fl_check_finite_matrix(const gsl_matrix *A, const char *what, fl_error *err)
{
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            if (!isfinite(gsl_matrix_get(A, i, j)))
                return FL_FAIL(err, FL_ENONFINITE, "%s(%zu,%zu) is not finite", what, i, j);
    return FL_OK;
}

fl_status fl_dense_cholesky(gsl_matrix *A, fl_error *err)
{
    if (A->size1 != A->size2)
        return FL_FAIL(err, FL_EDIM, "Cholesky of a %zux%zu matrix", A->size1, A->size2);
    gsl_error_handler_t *old = fl_gsl_handler_off();
    int rc = gsl_linalg_cholesky_decomp1(A);
    fl_gsl_handler_restore(old);
    if (rc != GSL_SUCCESS)
        return FL_FAIL(err, FL_ENOTSPD, "matrix is not positive definite (Cholesky failed)");
    return FL_OK;
}

fl_status fl_spd_alloc(const gsl_matrix *M, fl_spd **out, fl_error *err)
{
    *out = NULL;
    if (M->size1 != M->size2 || M->size1 == 0)
        return FL_FAIL(err, FL_EDIM, "mass matrix is %zux%zu, expected square and non-empty",
                       M->size1, M->size2);
    FL_TRY(fl_check_finite_matrix(M, "mass matrix", err));
    size_t n = M->size1;
    double scale = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            scale = fmax(scale, fabs(gsl_matrix_get(M, i, j)));
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (fabs(gsl_matrix_get(M, i, j) - gsl_matrix_get(M, j, i)) > 1e-12 * scale)
                return FL_FAIL(err, FL_ENOTSPD, "mass matrix is not symmetric: M(%zu,%zu) != M(%zu,%zu)",
                               i, j, j, i);
    fl_spd *s = calloc(1, sizeof *s);
    if (!s) return FL_FAIL(err, FL_ENOMEM, "allocating an SPD record");
    s->n = n;
    s->M = fl_dense_matrix_alloc(n, n);
    s->L = fl_dense_matrix_alloc(n, n);
    if (!s->M || !s->L) {
        fl_spd_free(s);
        return FL_FAIL(err, FL_ENOMEM, "allocating a %zux%zu matrix", n, n);
    }
    gsl_matrix_memcpy(s->M, M);
    gsl_matrix_memcpy(s->L, M);
    fl_status st = fl_dense_cholesky(s->L, err);
    if (st != FL_OK) {
        fl_spd_free(s);
        return st;
    }
    *out = s;
    return FL_OK;
}

void fl_spd_free(fl_spd *spd)
{
    if (!spd) return;
    if (spd->M) gsl_matrix_free(spd->M);
    if (spd->L) gsl_matrix_free(spd->L);
    free(spd);
}

fl_status fl_spd_solve(const fl_spd *spd, const gsl_vector *b, gsl_vector *x)
{
    if (b->size != spd->n || x->size != spd->n) return FL_EDIM;
    if (x != b) gsl_vector_memcpy(x, b);
    /* M = L L^T:  x = L^-T (L^-1 b) */
    gsl_error_handler_t *old = fl_gsl_handler_off();
    int rc = gsl_linalg_cholesky_svx(spd->L, x);
    fl_gsl_handler_restore(old);
    return rc == GSL_SUCCESS ? FL_OK : FL_ESINGULAR;
}

fl_status fl_spd_solve_matrix(const fl_spd *spd, const gsl_matrix *B, gsl_matrix *X)
{
    if (B->size1 != spd->n || X->size1 != spd->n || B->size2 != X->size2) return FL_EDIM;
    for (size_t j = 0; j < B->size2; j++) {
        gsl_vector_const_view bj = gsl_matrix_const_column(B, j);
        gsl_vector_view xj = gsl_matrix_column(X, j);
        FL_TRY(fl_spd_solve(spd, &bj.vector, &xj.vector));
    }
    return FL_OK;
}

double fl_spd_inner(const fl_spd *spd, const gsl_vector *a, const gsl_vector *b)
{
    double s = 0.0;
    for (size_t i = 0; i < spd->n; i++) {
        double row = 0.0;
        for (size_t j = 0; j < spd->n; j++)
            row += gsl_matrix_get(spd->M, i, j) * gsl_vector_get(b, j);
        s += gsl_vector_get(a, i) * row;
    }
    return s;
}

double fl_spd_norm(const fl_spd *spd, const gsl_vector *v)
{
    return sqrt(fmax(0.0, fl_spd_inner(spd, v, v)));
}

double fl_spd_dual_norm(const fl_spd *spd, const gsl_vector *f)
{
    /* f.M^-1 f = |L^-1 f|^2 */
    gsl_vector *y = fl_dense_vector_alloc(spd->n);
    if (!y) return NAN;
    gsl_vector_memcpy(y, f);
    gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasNonUnit, spd->L, y);
    double r = gsl_blas_dnrm2(y);
    gsl_vector_free(y);
    return r;
}

/* G = D M^-1 D^T (m x m) and WDt = M^-1 D^T (n x m); G is factored in place. */
static fl_status split_operators(const fl_spd *spd, const gsl_matrix *D,
                                 gsl_matrix **G_out, gsl_matrix **WDt_out, fl_error *err)
{
    size_t m = D->size1, n = spd->n;
    *G_out = NULL;
    *WDt_out = NULL;
    if (D->size2 != n)
        return FL_FAIL(err, FL_EDIM, "constraint matrix has %zu columns, mass matrix is %zux%zu",
                       D->size2, n, n);
    FL_TRY(fl_check_finite_matrix(D, "constraint matrix", err));
    gsl_matrix *WDt = fl_dense_matrix_alloc(n, m);
    gsl_matrix *G = fl_dense_matrix_alloc(m, m);
    if (!WDt || !G) {
        if (WDt) gsl_matrix_free(WDt);
        if (G) gsl_matrix_free(G);
        return FL_FAIL(err, FL_ENOMEM, "allocating split operators");
    }
    gsl_matrix_transpose_memcpy(WDt, D);
    fl_spd_solve_matrix(spd, WDt, WDt);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, D, WDt, 0.0, G);
    if (fl_dense_cholesky(G, NULL) != FL_OK) {
        gsl_matrix_free(WDt);
        gsl_matrix_free(G);
        return FL_FAIL(err, FL_ESINGULAR, "constraint gradients dphi_alpha are linearly dependent");
    }
    *G_out = G;
    *WDt_out = WDt;
    return FL_OK;
}

fl_status fl_spd_split_velocity(const fl_spd *spd, const gsl_matrix *D,
                                const gsl_vector *v, gsl_vector *vn,
                                gsl_vector *vt, fl_error *err)
{
    if (v->size != spd->n || (vn && vn->size != spd->n) || (vt && vt->size != spd->n))
        return FL_FAIL(err, FL_EDIM, "velocity split: vectors must have length %zu", spd->n);
    gsl_matrix *G, *WDt;
    FL_TRY(split_operators(spd, D, &G, &WDt, err));
    gsl_vector *y = fl_dense_vector_alloc(D->size1);
    gsl_vector *tmp = fl_dense_vector_alloc(spd->n);
    fl_status st = FL_OK;
    if (!y || !tmp) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating velocity split");
        goto done;
    }
    gsl_blas_dgemv(CblasNoTrans, 1.0, D, v, 0.0, y);           /* y = D v          */
    gsl_linalg_cholesky_svx(G, y);                              /* y = G^-1 D v     */
    gsl_blas_dgemv(CblasNoTrans, 1.0, WDt, y, 0.0, tmp);        /* vn = M^-1 D^T y  */
    if (vt) {
        gsl_vector_memcpy(vt, v);
        gsl_vector_sub(vt, tmp);                                /* vt = v - vn      */
    }
    if (vn) gsl_vector_memcpy(vn, tmp);
done:
    gsl_vector_free(y);
    gsl_vector_free(tmp);
    gsl_matrix_free(G);
    gsl_matrix_free(WDt);
    return st;
}

fl_status fl_spd_split_reaction(const fl_spd *spd, const gsl_matrix *D,
                                const gsl_vector *r, gsl_vector *rn,
                                gsl_vector *rt, gsl_vector *lambda,
                                fl_error *err)
{
    if (r->size != spd->n || (rn && rn->size != spd->n) || (rt && rt->size != spd->n) ||
        (lambda && lambda->size != D->size1))
        return FL_FAIL(err, FL_EDIM, "reaction split: vectors must have length %zu (lambda %zu)",
                       spd->n, D->size1);
    gsl_matrix *G, *WDt;
    FL_TRY(split_operators(spd, D, &G, &WDt, err));
    gsl_vector *y = fl_dense_vector_alloc(D->size1);
    gsl_vector *tmp = fl_dense_vector_alloc(spd->n);
    fl_status st = FL_OK;
    if (!y || !tmp) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating reaction split");
        goto done;
    }
    gsl_blas_dgemv(CblasTrans, 1.0, WDt, r, 0.0, y);            /* y = D M^-1 r      */
    gsl_linalg_cholesky_svx(G, y);                              /* lambda = G^-1 y   */
    gsl_blas_dgemv(CblasTrans, 1.0, D, y, 0.0, tmp);            /* rn = D^T lambda   */
    if (lambda) gsl_vector_memcpy(lambda, y);
    if (rt) {
        gsl_vector_memcpy(rt, r);
        gsl_vector_sub(rt, tmp);
    }
    if (rn) gsl_vector_memcpy(rn, tmp);
done:
    gsl_vector_free(y);
    gsl_vector_free(tmp);
    gsl_matrix_free(G);
    gsl_matrix_free(WDt);
    return st;
}

double fl_dense_median_finite(double *x, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) x[k++] = x[i];
    if (k == 0) return NAN;
    gsl_sort(x, 1, k);
    return gsl_stats_median_from_sorted_data(x, 1, k);
}
