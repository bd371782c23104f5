/* fl_sparse.h — sparse helpers on CHOLMOD (README.md, Vocabulary).
 *
 * One fl_sparse_ctx (one cholmod_common) per context: a solver, a test, a
 * command.  The context also owns the solve workspaces reused by
 * fl_sparse_solve (cholmod_solve2), so repeated solves allocate nothing.
 *
 * Ownership: every cholmod_sparse / cholmod_factor returned through an out
 * argument belongs to the caller, who frees it with cholmod_free_sparse /
 * cholmod_free_factor on the same context (or fl_sparse_free_* below).
 */
#ifndef FL_SPARSE_H
#define FL_SPARSE_H

#include <stddef.h>
#include <cholmod.h>
#include <gsl/gsl_matrix.h>

#include "fl_status.h"

typedef struct fl_sparse_ctx {
    cholmod_common cm;
    cholmod_dense *X, *Y, *E;   /* cholmod_solve2 workspaces */
    int started;
} fl_sparse_ctx;

/* The status for a CHOLMOD call that failed on `cm`: FL_ENOMEM when CHOLMOD
 * ran out of memory (or a size overflowed), FL_EEXTERNAL otherwise. */
fl_status fl_sparse_failure(const cholmod_common *cm);

/* cholmod_start with printing off.  FL_EEXTERNAL if CHOLMOD refuses. */
fl_status fl_sparse_start(fl_sparse_ctx *ctx, fl_error *err);
/* Frees the workspaces and calls cholmod_finish; safe on a zeroed ctx. */
void fl_sparse_finish(fl_sparse_ctx *ctx);

/* CSC matrix from triplets (0-based row/col indices, duplicates summed).
 * stype: 0 unsymmetric; >0 symmetric, only entries with row <= col are kept
 * (upper triangle); <0 symmetric, lower triangle.  Checks index ranges and
 * finiteness (FL_EINVAL / FL_ENONFINITE with the entry number). */
fl_status fl_sparse_from_triplet(fl_sparse_ctx *ctx, size_t nrow, size_t ncol,
                                 size_t nnz, const int *row, const int *col,
                                 const double *val, int stype,
                                 cholmod_sparse **out, fl_error *err);

/* Every stored value of A finite: the sparse form of fl_check_finite_matrix
 * (fl_dense.h), with its status and message ("<what>(i,j) is not finite",
 * FL_ENONFINITE), so that the dense and sparse twins refuse a matrix alike.
 * A must be real with int indices, packed or not (FL_EINVAL otherwise). */
fl_status fl_sparse_check_finite(const cholmod_sparse *A, const char *what, fl_error *err);

/* CSC copy of a dense GSL matrix, dropping entries with |a_ij| <= droptol.
 * stype as above. */
fl_status fl_sparse_from_dense(fl_sparse_ctx *ctx, const gsl_matrix *A, int stype,
                               double droptol, cholmod_sparse **out, fl_error *err);

/* Dense GSL copy of a CSC matrix (symmetric storage expanded). */
fl_status fl_sparse_to_dense(fl_sparse_ctx *ctx, const cholmod_sparse *A,
                             gsl_matrix **out, fl_error *err);

/* Cholesky factor of a symmetric A (stype != 0).  If *L is NULL the
 * fill-reducing analysis runs first and *L receives a new factor; if *L is a
 * factor from an earlier call on a matrix with the same pattern, only the
 * numeric factorisation is redone (factor reuse).  FL_ENOTSPD when CHOLMOD
 * reports the matrix not positive definite; *L is then still owned by the
 * caller (free it). */
fl_status fl_sparse_factor(fl_sparse_ctx *ctx, cholmod_sparse *A,
                           cholmod_factor **L, fl_error *err);

/* x = A^-1 b with the factor L of A (length n = L->n); x may equal b. */
fl_status fl_sparse_solve(fl_sparse_ctx *ctx, const cholmod_factor *L,
                          const double *b, double *x, fl_error *err);

/* y = alpha A x + beta y (transpose 0), or y = alpha A^T x + beta y
 * (transpose 1), A symmetric storage handled by CHOLMOD.  x has ncol
 * entries and y nrow (transpose 0), the other way round for A^T. */
fl_status fl_sparse_mv(fl_sparse_ctx *ctx, const cholmod_sparse *A, int transpose, double alpha,
                       const double *x, double beta, double *y, fl_error *err);

/* LU factorisation of a square unsymmetric CSC matrix by UMFPACK
 * (umfpack_di_symbolic / _numeric), for the nonsymmetric tangent matrices
 * of 004 §5.4.  Symmetric storage is expanded first.  FL_ESINGULAR when
 * UMFPACK reports the matrix singular (a zero pivot), FL_ENONFINITE on a
 * non-finite entry, FL_EEXTERNAL on any other UMFPACK failure. */
typedef struct fl_sparse_lu fl_sparse_lu;
fl_status fl_sparse_lu_alloc(fl_sparse_ctx *ctx, const cholmod_sparse *A,
                             fl_sparse_lu **out, fl_error *err);
/* x = A^-1 b (length n); x must not alias b. */
fl_status fl_sparse_lu_solve(fl_sparse_lu *lu, const double *b, double *x, fl_error *err);
void fl_sparse_lu_free(fl_sparse_lu *lu);

void fl_sparse_free(fl_sparse_ctx *ctx, cholmod_sparse **A);
void fl_sparse_free_factor(fl_sparse_ctx *ctx, cholmod_factor **L);

#endif
