/* redistribution.c — redistributed mass M_r satisfying 002 (6), keeping the
 * mass Gram matrix of chosen fields (total mass, centre of gravity, moments
 * of inertia; 002 §3 after ref. 13).  Construction and proofs:
 * proofs/redistribution.md. */
#include "redistribution.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"

void fl_redistribution_free(fl_redistribution *rd)
{
    if (!rd) return;
    gsl_matrix_free(rd->B);
    gsl_matrix_free(rd->U);
    gsl_matrix_free(rd->K);
    free(rd);
}

/* x <- x - B^T (B x) */
void fl_redistribution_project(const fl_redistribution *rd, double *x)
{
    if (!rd->B) return;
    for (size_t i = 0; i < rd->B->size1; i++) {
        double s = 0;
        for (size_t j = 0; j < rd->n; j++) s += gsl_matrix_get(rd->B, i, j) * x[j];
        if (s == 0) continue;
        for (size_t j = 0; j < rd->n; j++) x[j] -= s * gsl_matrix_get(rd->B, i, j);
    }
}

/* Check that the rows of B are orthonormal (002 (4)). */
static fl_status check_orthonormal(const gsl_matrix *B, fl_error *err)
{
    for (size_t i = 0; i < B->size1; i++)
        for (size_t j = i; j < B->size1; j++) {
            gsl_vector_const_view a = gsl_matrix_const_row(B, i), b = gsl_matrix_const_row(B, j);
            double d;
            gsl_blas_ddot(&a.vector, &b.vector, &d);
            if (fabs(d - (i == j ? 1.0 : 0.0)) > 1e-10)
                return FL_FAIL(err, FL_EINVAL,
                               "contact rows %zu and %zu violate 002 (4): inner product %g", i, j, d);
        }
    return FL_OK;
}

/* 002 (6) via proofs/redistribution.md: P = I - B^T B, Q = P R,
 * K = G0^-1 (G - G0) G0^-1, U = P M Q. */
fl_status fl_redistribution_alloc(const gsl_matrix *M, const gsl_matrix *R,
                                  const gsl_matrix *Bnu, const gsl_matrix *Btau,
                                  fl_redist_kind kind, fl_redistribution **out,
                                  fl_error *err)
{
    *out = NULL;
    if (!M || M->size1 != M->size2 || M->size1 == 0)
        return FL_FAIL(err, FL_EDIM, "redistribution needs a square mass matrix");
    size_t n = M->size1;
    FL_TRY(fl_check_finite_matrix(M, "mass matrix", err));
    if (kind != FL_REDIST_NONE && kind != FL_REDIST_NORMAL && kind != FL_REDIST_BOTH)
        return FL_FAIL(err, FL_EINVAL, "unknown redistribution kind %d", (int)kind);
    if (kind != FL_REDIST_NONE) {
        if (!Bnu || Bnu->size2 != n || (kind == FL_REDIST_BOTH && (!Btau || Btau->size2 != n
                                                                   || Btau->size1 != Bnu->size1)))
            return FL_FAIL(err, FL_EDIM, "contact rows missing or not of length %zu", n);
        if (Bnu->size1 * (kind == FL_REDIST_BOTH ? 2 : 1) >= n)
            return FL_FAIL(err, FL_EDIM, "kernel dimension must stay below n = %zu", n);
    }
    if (R && (R->size1 != n || R->size2 == 0 || R->size2 >= n))
        return FL_FAIL(err, FL_EDIM, "preserved fields must be n x k with 0 < k < n");
    fl_redistribution *rd = calloc(1, sizeof *rd);
    if (!rd) return FL_FAIL(err, FL_ENOMEM, "cannot allocate a redistribution");
    rd->kind = kind;
    rd->n = n;
    fl_status s = FL_OK;
    if (kind != FL_REDIST_NONE) {
        size_t nc = Bnu->size1, m = kind == FL_REDIST_BOTH ? 2 * nc : nc;
        rd->B = fl_dense_matrix_alloc(m, n);
        if (!rd->B) { s = FL_FAIL(err, FL_ENOMEM, "cannot allocate contact rows"); goto fail; }
        for (size_t i = 0; i < nc; i++) {
            gsl_vector_const_view a = gsl_matrix_const_row(Bnu, i);
            gsl_matrix_set_row(rd->B, i, &a.vector);
            if (kind == FL_REDIST_BOTH) {
                gsl_vector_const_view b = gsl_matrix_const_row(Btau, i);
                gsl_matrix_set_row(rd->B, nc + i, &b.vector);
            }
        }
        if ((s = fl_check_finite_matrix(rd->B, "contact rows", err)) != FL_OK) goto fail;
        if ((s = check_orthonormal(rd->B, err)) != FL_OK) goto fail;
    }
    if (R && kind != FL_REDIST_NONE) {
        if ((s = fl_check_finite_matrix(R, "preserved fields", err)) != FL_OK) goto fail;
        size_t k = R->size2;
        gsl_matrix *Q = fl_dense_matrix_alloc(n, k), *MQ = fl_dense_matrix_alloc(n, k),
                   *MR = fl_dense_matrix_alloc(n, k), *G = fl_dense_matrix_alloc(k, k),
                   *G0 = fl_dense_matrix_alloc(k, k), *T = fl_dense_matrix_alloc(k, k);
        rd->U = fl_dense_matrix_alloc(n, k);
        rd->K = fl_dense_matrix_alloc(k, k);
        rd->k = k;
        if (!Q || !MQ || !MR || !G || !G0 || !T || !rd->U || !rd->K) {
            s = FL_FAIL(err, FL_ENOMEM, "cannot allocate redistribution workspaces");
        } else {
            /* Q = P R, column by column */
            gsl_matrix_memcpy(Q, R);
            gsl_vector *col = fl_dense_vector_alloc(n);
            gsl_matrix *L = fl_dense_matrix_alloc(k, k);
            if (!col || !L) {
                gsl_vector_free(col); gsl_matrix_free(L);
                gsl_matrix_free(Q); gsl_matrix_free(MQ); gsl_matrix_free(MR);
                gsl_matrix_free(G); gsl_matrix_free(G0); gsl_matrix_free(T);
                s = FL_FAIL(err, FL_ENOMEM, "cannot allocate redistribution workspaces");
                goto fail;
            }
            for (size_t c = 0; c < k; c++) {
                gsl_matrix_get_col(col, Q, c);
                fl_redistribution_project(rd, col->data);
                gsl_matrix_set_col(Q, c, col);
            }
            gsl_vector_free(col);
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, M, R, 0.0, MR);
            gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, R, MR, 0.0, G);    /* G = R^T M R */
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, M, Q, 0.0, MQ);
            gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, Q, MQ, 0.0, G0);   /* G0 = Q^T M Q */
            /* G0 must be SPD: Cholesky with a relative pivot test */
            gsl_matrix_memcpy(L, G0);
            double gmax = 0;
            for (size_t i = 0; i < k; i++) gmax = fmax(gmax, gsl_matrix_get(G0, i, i));
            gsl_error_handler_t *h = fl_gsl_handler_off();
            int rc = gsl_linalg_cholesky_decomp1(L);
            fl_gsl_handler_restore(h);
            double dmin = INFINITY;
            for (size_t i = 0; i < k && rc == 0; i++)
                dmin = fmin(dmin, gsl_matrix_get(L, i, i) * gsl_matrix_get(L, i, i));
            if (rc != 0 || !(dmin > 1e-12 * gmax)) {
                s = FL_FAIL(err, FL_ESINGULAR,
                            "the %zu preserved fields are dependent once projected on N^perp "
                            "(too few free nodes off the contact boundary)", k);
            } else {
                /* K = G0^-1 (G - G0) G0^-1 */
                gsl_matrix_memcpy(T, G);
                gsl_matrix_sub(T, G0);
                for (size_t c = 0; c < k; c++) {
                    gsl_vector_view tc = gsl_matrix_column(T, c);
                    gsl_linalg_cholesky_svx(L, &tc.vector);
                }
                gsl_matrix_transpose(T);    /* (G0^-1 (G-G0))^T = (G-G0) G0^-1 */
                for (size_t c = 0; c < k; c++) {
                    gsl_vector_view tc = gsl_matrix_column(T, c);
                    gsl_linalg_cholesky_svx(L, &tc.vector);
                }
                gsl_matrix_memcpy(rd->K, T);
                /* symmetrise against roundoff */
                for (size_t i = 0; i < k; i++)
                    for (size_t j = 0; j < i; j++) {
                        double a = 0.5 * (gsl_matrix_get(rd->K, i, j) + gsl_matrix_get(rd->K, j, i));
                        gsl_matrix_set(rd->K, i, j, a);
                        gsl_matrix_set(rd->K, j, i, a);
                    }
                /* U = P M Q */
                gsl_matrix_memcpy(rd->U, MQ);
                gsl_vector *uc = fl_dense_vector_alloc(n);
                if (!uc) s = FL_FAIL(err, FL_ENOMEM, "cannot allocate redistribution workspaces");
                for (size_t c = 0; uc && c < k; c++) {
                    gsl_matrix_get_col(uc, rd->U, c);
                    fl_redistribution_project(rd, uc->data);
                    gsl_matrix_set_col(rd->U, c, uc);
                }
                gsl_vector_free(uc);
            }
            gsl_matrix_free(L);
        }
        gsl_matrix_free(Q); gsl_matrix_free(MQ); gsl_matrix_free(MR);
        gsl_matrix_free(G); gsl_matrix_free(G0); gsl_matrix_free(T);
        if (s != FL_OK) goto fail;
    }
    *out = rd;
    return FL_OK;
fail:
    fl_redistribution_free(rd);
    return s;
}

/* M_r = P M P + U K U^T (M_r = M for NONE). */
fl_status fl_redistribution_dense(const fl_redistribution *rd, const gsl_matrix *M,
                                  gsl_matrix **Mr, fl_error *err)
{
    *Mr = NULL;
    if (!rd || !M || M->size1 != rd->n || M->size2 != rd->n)
        return FL_FAIL(err, FL_EDIM, "redistribution and mass matrix sizes differ");
    size_t n = rd->n;
    gsl_matrix *X = fl_dense_matrix_alloc(n, n);
    if (!X) return FL_FAIL(err, FL_ENOMEM, "cannot allocate M_r");
    gsl_matrix_memcpy(X, M);
    if (rd->B) {
        /* P M P: project columns, then rows (M symmetric) */
        gsl_vector *c = fl_dense_vector_alloc(n);
        if (!c) {
            gsl_matrix_free(X);
            return FL_FAIL(err, FL_ENOMEM, "cannot allocate M_r");
        }
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_get_col(c, X, j);
            fl_redistribution_project(rd, c->data);
            gsl_matrix_set_col(X, j, c);
        }
        for (size_t i = 0; i < n; i++) {
            gsl_matrix_get_row(c, X, i);
            fl_redistribution_project(rd, c->data);
            gsl_matrix_set_row(X, i, c);
        }
        gsl_vector_free(c);
    }
    if (rd->k > 0) {
        gsl_matrix *UK = fl_dense_matrix_alloc(n, rd->k);
        if (!UK) {
            gsl_matrix_free(X);
            return FL_FAIL(err, FL_ENOMEM, "cannot allocate M_r");
        }
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, rd->U, rd->K, 0.0, UK);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, UK, rd->U, 1.0, X);
        gsl_matrix_free(UK);
    }
    /* exact symmetry */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (gsl_matrix_get(X, i, j) + gsl_matrix_get(X, j, i));
            gsl_matrix_set(X, i, j, a);
            gsl_matrix_set(X, j, i, a);
        }
    *Mr = X;
    return FL_OK;
}
