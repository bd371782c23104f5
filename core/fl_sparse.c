/* fl_sparse.c — CHOLMOD helpers; see fl_sparse.h. */
#include "fl_sparse.h"
#include "fl_dense.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

fl_status fl_sparse_failure(const cholmod_common *cm)
{
    return cm && (cm->status == CHOLMOD_OUT_OF_MEMORY || cm->status == CHOLMOD_TOO_LARGE)
               ? FL_ENOMEM : FL_EEXTERNAL;
}

fl_status fl_sparse_start(fl_sparse_ctx *ctx, fl_error *err)
{
    memset(ctx, 0, sizeof *ctx);
    if (!cholmod_start(&ctx->cm))
        return FL_FAIL(err, FL_EEXTERNAL, "cholmod_start failed");
    ctx->cm.print = 0;          /* the library never prints */
    ctx->cm.error_handler = NULL;
    ctx->cm.final_ll = 1;       /* LL^T, so an indefinite matrix is reported (an LDL^T would not) */
    ctx->started = 1;
    return FL_OK;
}

void fl_sparse_finish(fl_sparse_ctx *ctx)
{
    if (!ctx || !ctx->started) return;
    cholmod_free_dense(&ctx->X, &ctx->cm);
    cholmod_free_dense(&ctx->Y, &ctx->cm);
    cholmod_free_dense(&ctx->E, &ctx->cm);
    cholmod_finish(&ctx->cm);
    ctx->started = 0;
}

fl_status fl_sparse_from_triplet(fl_sparse_ctx *ctx, size_t nrow, size_t ncol,
                                 size_t nnz, const int *row, const int *col,
                                 const double *val, int stype,
                                 cholmod_sparse **out, fl_error *err)
{
    *out = NULL;
    if (stype != 0 && nrow != ncol)
        return FL_FAIL(err, FL_EDIM, "symmetric storage of a %zux%zu matrix", nrow, ncol);
    cholmod_triplet *T = cholmod_allocate_triplet(nrow, ncol, nnz > 0 ? nnz : 1,
                                                  stype, CHOLMOD_REAL, &ctx->cm);
    if (!T) return FL_FAIL(err, FL_ENOMEM, "allocating %zu triplets", nnz);
    int *Ti = T->i, *Tj = T->j;
    double *Tx = T->x;
    size_t k = 0;
    for (size_t e = 0; e < nnz; e++) {
        if (row[e] < 0 || (size_t)row[e] >= nrow || col[e] < 0 || (size_t)col[e] >= ncol) {
            cholmod_free_triplet(&T, &ctx->cm);
            return FL_FAIL(err, FL_EINVAL, "entry %zu: index (%d,%d) outside %zux%zu",
                           e, row[e], col[e], nrow, ncol);
        }
        if (!isfinite(val[e])) {
            cholmod_free_triplet(&T, &ctx->cm);
            return FL_FAIL(err, FL_ENONFINITE, "entry %zu at (%d,%d) is not finite", e, row[e], col[e]);
        }
        if ((stype > 0 && row[e] > col[e]) || (stype < 0 && row[e] < col[e])) continue;
        Ti[k] = row[e];
        Tj[k] = col[e];
        Tx[k] = val[e];
        k++;
    }
    T->nnz = k;
    cholmod_sparse *A = cholmod_triplet_to_sparse(T, k, &ctx->cm);
    cholmod_free_triplet(&T, &ctx->cm);
    if (!A) return FL_FAIL(err, FL_ENOMEM, "triplet to CSC conversion failed");
    *out = A;
    return FL_OK;
}

fl_status fl_sparse_from_dense(fl_sparse_ctx *ctx, const gsl_matrix *A, int stype,
                               double droptol, cholmod_sparse **out, fl_error *err)
{
    size_t n1 = A->size1, n2 = A->size2, cap = 0;
    for (size_t i = 0; i < n1; i++)
        for (size_t j = 0; j < n2; j++)
            if (fabs(gsl_matrix_get(A, i, j)) > droptol || !isfinite(gsl_matrix_get(A, i, j))) cap++;
    int *ri = malloc((cap + 1) * sizeof *ri), *ci = malloc((cap + 1) * sizeof *ci);
    double *x = malloc((cap + 1) * sizeof *x);
    fl_status st;
    if (!ri || !ci || !x) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating %zu entries", cap);
    } else {
        size_t k = 0;
        for (size_t j = 0; j < n2; j++)
            for (size_t i = 0; i < n1; i++) {
                double a = gsl_matrix_get(A, i, j);
                if (fabs(a) > droptol || !isfinite(a)) {
                    ri[k] = (int)i;
                    ci[k] = (int)j;
                    x[k++] = a;
                }
            }
        st = fl_sparse_from_triplet(ctx, n1, n2, k, ri, ci, x, stype, out, err);
    }
    free(ri);
    free(ci);
    free(x);
    return st;
}

fl_status fl_sparse_to_dense(fl_sparse_ctx *ctx, const cholmod_sparse *A,
                             gsl_matrix **out, fl_error *err)
{
    (void)ctx;
    *out = fl_dense_matrix_calloc(A->nrow, A->ncol);
    if (!*out) return FL_FAIL(err, FL_ENOMEM, "allocating %zux%zu", A->nrow, A->ncol);
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int p = Ap[j]; p < end; p++) {
            size_t i = (size_t)Ai[p];
            if ((A->stype > 0 && i > j) || (A->stype < 0 && i < j)) continue;
            gsl_matrix_set(*out, i, j, gsl_matrix_get(*out, i, j) + Ax[p]);
            if (A->stype != 0 && i != j)
                gsl_matrix_set(*out, j, i, gsl_matrix_get(*out, j, i) + Ax[p]);
        }
    }
    return FL_OK;
}

fl_status fl_sparse_factor(fl_sparse_ctx *ctx, cholmod_sparse *A,
                           cholmod_factor **L, fl_error *err)
{
    if (A->stype == 0 || A->nrow != A->ncol)
        return FL_FAIL(err, FL_EINVAL, "Cholesky needs a square matrix in symmetric storage");
    if (!*L) {
        *L = cholmod_analyze(A, &ctx->cm);
        if (!*L) return FL_FAIL(err, fl_sparse_failure(&ctx->cm), "cholmod_analyze failed (status %d)", ctx->cm.status);
    }
    if ((*L)->n != A->nrow)
        return FL_FAIL(err, FL_EDIM, "factor of order %zu reused for a matrix of order %zu",
                       (size_t)(*L)->n, A->nrow);
    int ok = cholmod_factorize(A, *L, &ctx->cm);
    if (ctx->cm.status == CHOLMOD_NOT_POSDEF)
        return FL_FAIL(err, FL_ENOTSPD, "matrix is not positive definite (CHOLMOD stopped at column %zu)",
                       (size_t)(*L)->minor);
    if (!ok || ctx->cm.status < CHOLMOD_OK)
        return FL_FAIL(err, fl_sparse_failure(&ctx->cm), "cholmod_factorize failed (status %d)", ctx->cm.status);
    return FL_OK;
}

fl_status fl_sparse_solve(fl_sparse_ctx *ctx, const cholmod_factor *L,
                          const double *b, double *x, fl_error *err)
{
    size_t n = L->n;
    cholmod_dense B;
    memset(&B, 0, sizeof B);
    B.nrow = n;
    B.ncol = 1;
    B.nzmax = n;
    B.d = n;
    B.x = (double *)b;
    B.xtype = CHOLMOD_REAL;
    B.dtype = CHOLMOD_DOUBLE;
    if (!cholmod_solve2(CHOLMOD_A, (cholmod_factor *)L, &B, NULL, &ctx->X, NULL,
                        &ctx->Y, &ctx->E, &ctx->cm))
        return FL_FAIL(err, fl_sparse_failure(&ctx->cm), "cholmod_solve2 failed (status %d)", ctx->cm.status);
    memmove(x, ctx->X->x, n * sizeof *x);
    return FL_OK;
}

fl_status fl_sparse_mv(fl_sparse_ctx *ctx, const cholmod_sparse *A, int transpose, double alpha,
                       const double *x, double beta, double *y, fl_error *err)
{
    cholmod_dense X, Y;
    memset(&X, 0, sizeof X);
    memset(&Y, 0, sizeof Y);
    X.nrow = X.nzmax = X.d = transpose ? A->nrow : A->ncol;
    Y.nrow = Y.nzmax = Y.d = transpose ? A->ncol : A->nrow;
    X.ncol = Y.ncol = 1;
    X.x = (double *)x;
    Y.x = y;
    X.xtype = Y.xtype = CHOLMOD_REAL;
    X.dtype = Y.dtype = CHOLMOD_DOUBLE;
    double a[2] = {alpha, 0.0}, b[2] = {beta, 0.0};
    if (!cholmod_sdmult((cholmod_sparse *)A, transpose != 0, a, b, &X, &Y, &ctx->cm))
        return FL_FAIL(err, fl_sparse_failure(&ctx->cm), "cholmod_sdmult failed (status %d)", ctx->cm.status);
    return FL_OK;
}

void fl_sparse_free(fl_sparse_ctx *ctx, cholmod_sparse **A)
{
    if (A && *A) cholmod_free_sparse(A, &ctx->cm);
}

void fl_sparse_free_factor(fl_sparse_ctx *ctx, cholmod_factor **L)
{
    if (L && *L) cholmod_free_factor(L, &ctx->cm);
}

/* ---- UMFPACK LU ------------------------------------------------------ */

struct fl_sparse_lu {
    cholmod_sparse *A;     /* the matrix, unsymmetric storage, sorted */
    void *numeric;
    fl_sparse_ctx *ctx;
};

void fl_sparse_lu_free(fl_sparse_lu *lu)
{
    if (!lu) return;
    if (lu->numeric) umfpack_di_free_numeric(&lu->numeric);
    if (lu->A) cholmod_free_sparse(&lu->A, &lu->ctx->cm);
    free(lu);
}

fl_status fl_sparse_lu_alloc(fl_sparse_ctx *ctx, const cholmod_sparse *A,
                             fl_sparse_lu **out, fl_error *err)
{
    *out = NULL;
    if (!A || A->nrow != A->ncol || A->nrow == 0)
        return FL_FAIL(err, FL_EDIM, "LU: the matrix must be square and non-empty");
    if (A->xtype != CHOLMOD_REAL || A->itype != CHOLMOD_INT)
        return FL_FAIL(err, FL_EINVAL, "LU: real matrix with int indices expected");
    fl_sparse_lu *lu = calloc(1, sizeof *lu);
    if (!lu) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    lu->ctx = ctx;
    /* unsymmetric, packed, sorted copy (UMFPACK wants sorted columns) */
    lu->A = cholmod_copy((cholmod_sparse *)A, 0, 1, &ctx->cm);
    if (!lu->A || !cholmod_sort(lu->A, &ctx->cm)) {
        fl_sparse_lu_free(lu);
        return FL_FAIL(err, FL_ENOMEM, "LU: cholmod_copy failed");
    }
    const int *Ap = lu->A->p, *Ai = lu->A->i;
    const double *Ax = lu->A->x;
    int n = (int)lu->A->nrow;
    for (int k = 0; k < Ap[n]; k++)
        if (!isfinite(Ax[k])) {
            fl_sparse_lu_free(lu);
            return FL_FAIL(err, FL_ENONFINITE, "LU: non-finite entry %d", k);
        }
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    umfpack_di_defaults(control);
    void *sym = NULL;
    int rc = umfpack_di_symbolic(n, n, Ap, Ai, Ax, &sym, control, info);
    if (rc != UMFPACK_OK) {
        fl_sparse_lu_free(lu);
        return FL_FAIL(err, rc == UMFPACK_ERROR_out_of_memory ? FL_ENOMEM : FL_EEXTERNAL,
                       "UMFPACK symbolic analysis failed (status %d)", rc);
    }
    rc = umfpack_di_numeric(Ap, Ai, Ax, sym, &lu->numeric, control, info);
    umfpack_di_free_symbolic(&sym);
    if (rc == UMFPACK_WARNING_singular_matrix) {
        fl_sparse_lu_free(lu);
        return FL_FAIL(err, FL_ESINGULAR, "LU: the matrix is singular (UMFPACK zero pivot)");
    }
    if (rc != UMFPACK_OK) {
        fl_sparse_lu_free(lu);
        return FL_FAIL(err, rc == UMFPACK_ERROR_out_of_memory ? FL_ENOMEM : FL_EEXTERNAL,
                       "UMFPACK numeric factorisation failed (status %d)", rc);
    }
    *out = lu;
    return FL_OK;
}

fl_status fl_sparse_lu_solve(fl_sparse_lu *lu, const double *b, double *x, fl_error *err)
{
    double info[UMFPACK_INFO];
    int rc = umfpack_di_solve(UMFPACK_A, lu->A->p, lu->A->i, lu->A->x, x, b, lu->numeric,
                              NULL, info);
    if (rc != UMFPACK_OK)
        return FL_FAIL(err, FL_EEXTERNAL, "UMFPACK solve failed (status %d)", rc);
    return FL_OK;
}

fl_status fl_sparse_check_finite(const cholmod_sparse *A, const char *what, fl_error *err)
{
    if (A->xtype != CHOLMOD_REAL || A->itype != CHOLMOD_INT)
        return FL_FAIL(err, FL_EINVAL, "%s must be a real sparse matrix with int indices", what);
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int k = Ap[j]; k < end; k++)
            if (!isfinite(Ax[k]))
                return FL_FAIL(err, FL_ENONFINITE, "%s(%d,%zu) is not finite", what, Ai[k], j);
    }
    return FL_OK;
}
