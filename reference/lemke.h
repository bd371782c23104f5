/* lemke.h — Lemke's complementary pivoting for the linear complementarity
 * problem (004 §5.3 and its ref. [19]; used by Stewart's
 * formulation P5 of 001 §6.2, reference/stewart_law.c).
 *
 *   LCP(M, q):  find z in R^n with  w = M z + q,  z >= 0,  w >= 0,  z.w = 0.
 *
 * The method augments the problem with an artificial variable z0 and the
 * covering vector d = (1,...,1):  w = q + M z + d z0, starts from the almost
 * complementary basis where z0 = -min q, and pivots the complement of the
 * variable that just left until z0 leaves (a solution) or no row blocks the
 * entering column (ray termination, FL_ERAY).  Ties of the minimum-ratio test
 * are broken lexicographically on the rows of [B^-1 q, B^-1], which makes
 * every basis nondegenerate in the lexicographic sense and rules out cycling
 * (Cottle, Pang & Stone, The Linear Complementarity Problem, §4.4).
 *
 * The returned z is verified independently of the pivoting: w is recomputed
 * as M z + q and the natural-map residual (fl_lcp_residual) must be below
 * the tolerance; otherwise the status is FL_ENOCONV, never a wrong answer
 * reported as a solution.  Derivation and certificate: proofs/stewart_lcp.md.
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_LEMKE_H
#define FL_LEMKE_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

typedef struct fl_lemke_options {
    size_t max_pivots;   /* pivot limit; 0 means 100 (n + 1) + 1000 */
    double pivot_tol;    /* entries <= pivot_tol * max|column| do not block (1e-11) */
    double verify_tol;   /* accepted natural-map residual (1e-9) */
} fl_lemke_options;

fl_lemke_options fl_lemke_options_default(void);

typedef struct fl_lemke_result {
    fl_status status;    /* FL_OK, FL_ERAY, FL_WMAXITER, FL_ENOCONV or an input error */
    size_t iterations;   /* pivots performed (the first z0 pivot included) */
    double residual;     /* fl_lcp_residual of the returned z (NAN if none) */
    double seconds;
    double z0;           /* artificial variable at termination (0 at a solution) */
} fl_lemke_result;

/* Solve LCP(M, q) (004 §5.3, ref. [19]; 004 §5.3).
 * M is n x n (any matrix), q, z, w have length n; w may be NULL.
 * On FL_OK, z is a verified solution and w = M z + q.
 * On FL_ERAY (ray termination: no solution found; for copositive-plus M this
 * proves the LCP infeasible) and FL_WMAXITER (pivot limit), z and w hold the
 * z part of the last basis (not a solution).  res may be NULL. */
fl_status fl_lemke_solve(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z,
                         gsl_vector *w, const fl_lemke_options *opt,
                         fl_lemke_result *res, fl_error *err);

/* Natural-map residual of a candidate z:
 *   ||min(z, M z + q)||_inf / (1 + ||q||_inf),
 * which is 0 exactly when z solves LCP(M, q) (min componentwise: a negative
 * z_i or w_i, or a pair with both positive, makes it positive).
 * If w is non-NULL it receives M z + q.  Dimensions are the caller's
 * responsibility (checked by fl_lemke_solve). */
double fl_lcp_residual(const gsl_matrix *M, const gsl_vector *q, const gsl_vector *z,
                       gsl_vector *w);

/* Check LCP(M,q) dimensions (M n x n, q length n, n >= 1) and finiteness. */
fl_status fl_lcp_check(const gsl_matrix *M, const gsl_vector *q, fl_error *err);

#endif
