/* fl_dense.h — dense linear-algebra helpers on GSL (README.md, Vocabulary).
 *
 * Notation (001 §3.1): W = M^-1; ||v||_M = sqrt(v.Mv) is the kinetic
 * norm, ||f||*_M = sqrt(f.M^-1 f) the dual norm.  Rows of a constraint
 * matrix D are the covectors dphi_alpha (001 §3.1).
 *
 * GSL's default error handler aborts; the library never aborts, so every call
 * into GSL that may raise an error runs between fl_gsl_handler_off() and
 * fl_gsl_handler_restore() and its return code is turned into an fl_status.
 *
 * Allocation: the library never calls gsl_*_alloc directly.  It calls the
 * fl_dense_*alloc wrappers below, which switch the handler off for the call
 * only (the host program's handler is restored, whatever it is), refuse
 * sizes whose byte count overflows size_t (GSL multiplies n1*n2 unchecked)
 * and return NULL on failure; every caller checks for NULL and returns
 * FL_ENOMEM.  The handler is a process-wide GSL setting, so it is switched
 * per call rather than once: a library has no main, and the host may rely
 * on its own handler between our calls.  The rare workspaces (eigen
 * solvers, complex objects) are allocated between fl_gsl_handler_off() and
 * fl_gsl_handler_restore() at their call sites.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_DENSE_H
#define FL_DENSE_H

#include <stddef.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

/* Switch GSL's error handler off; returns the previous one for restore. */
gsl_error_handler_t *fl_gsl_handler_off(void);
void fl_gsl_handler_restore(gsl_error_handler_t *previous);

/* gsl_matrix_alloc / _calloc, gsl_vector_alloc / _calloc and
 * gsl_permutation_alloc with GSL's handler off: NULL (never an abort) when
 * the memory is not there or the byte count overflows.  Free with GSL's
 * gsl_matrix_free / gsl_vector_free / gsl_permutation_free. */
gsl_matrix *fl_dense_matrix_alloc(size_t n1, size_t n2);
gsl_matrix *fl_dense_matrix_calloc(size_t n1, size_t n2);
gsl_vector *fl_dense_vector_alloc(size_t n);
gsl_vector *fl_dense_vector_calloc(size_t n);
gsl_permutation *fl_dense_permutation_alloc(size_t n);

/* Tolerance test used everywhere: |a - b| <= atol + rtol |b|. */
int fl_close(double a, double b, double atol, double rtol);

/* FL_ENONFINITE (naming `what`) if any entry is NaN or Inf. */
fl_status fl_check_finite_vector(const gsl_vector *v, const char *what, fl_error *err);
fl_status fl_check_finite_matrix(const gsl_matrix *A, const char *what, fl_error *err);

/* A symmetric positive definite matrix with its Cholesky factor.
 * Owns both matrices; free with fl_spd_free. */
typedef struct fl_spd {
    size_t n;
    gsl_matrix *M;   /* copy of the matrix */
    gsl_matrix *L;   /* Cholesky factor: L in the lower triangle (GSL layout) */
} fl_spd;

/* Check M (square, finite, symmetric to 1e-12 relative) and factor it.
 * FL_ENOTSPD when the factorisation fails.  *out is NULL on error. */
fl_status fl_spd_alloc(const gsl_matrix *M, fl_spd **out, fl_error *err);
void fl_spd_free(fl_spd *spd);

/* In-place Cholesky of a square matrix (lower triangle holds L afterwards).
 * FL_ENOTSPD if A is not positive definite. */
fl_status fl_dense_cholesky(gsl_matrix *A, fl_error *err);

/* x = M^-1 b (x and b may alias). */
fl_status fl_spd_solve(const fl_spd *spd, const gsl_vector *b, gsl_vector *x);
/* X = M^-1 B column by column (X and B may alias). */
fl_status fl_spd_solve_matrix(const fl_spd *spd, const gsl_matrix *B, gsl_matrix *X);

/* ||v||_M = sqrt(v.M v), the kinetic norm (000 §2: ||v||_q). */
double fl_spd_norm(const fl_spd *spd, const gsl_vector *v);
/* ||f||*_M = sqrt(f.M^-1 f), the dual norm (001 §3.1: ||dphi||*_q). */
double fl_spd_dual_norm(const fl_spd *spd, const gsl_vector *f);
/* <a, b>_M = a.M b */
double fl_spd_inner(const fl_spd *spd, const gsl_vector *a, const gsl_vector *b);

/* Velocity split of 001 §3.1 (m constraints, D is m x n with linearly
 * independent rows dphi_alpha):
 *   vn = M-orthogonal projection of v onto span{M^-1 dphi_alpha}
 *      = M^-1 D^T (D M^-1 D^T)^-1 D v,
 *   vt = v - vn  (so D vt = 0 and <vn, vt>_M = 0).
 * vn or vt may be NULL.  FL_ESINGULAR if the rows of D are dependent. */
fl_status fl_spd_split_velocity(const fl_spd *spd, const gsl_matrix *D,
                                const gsl_vector *v, gsl_vector *vn,
                                gsl_vector *vt, fl_error *err);

/* Reaction split of 001 §3.1 in the dual metric:
 *   rn = M^-1-orthogonal projection of r onto span{dphi_alpha}
 *      = D^T (D M^-1 D^T)^-1 D M^-1 r,
 *   rt = r - rn  (so D M^-1 rt = 0: rt lies in T*_q).
 * If lambda is non-NULL (length m) it receives the coordinates of rn:
 * rn = D^T lambda.  Any output may be NULL. */
fl_status fl_spd_split_reaction(const fl_spd *spd, const gsl_matrix *D,
                                const gsl_vector *r, gsl_vector *rn,
                                gsl_vector *rt, gsl_vector *lambda,
                                fl_error *err);

/* Median of the finite entries of x[0..n-1] (NaN and Inf are dropped),
 * NAN when there is none.  Reorders x in place (gsl_sort). */
double fl_dense_median_finite(double *x, size_t n);

#endif
