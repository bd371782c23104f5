/* redistribution.h — redistributed mass matrix M_r of 002 §3, eq. (6).
 *
 * 002 asks for M_r symmetric, positive semi-definite, with kernel exactly
 * N = span{nu_i} (the normal contact vectors), and (after ref. 13) keeping
 * the total mass, centre of gravity and moments of inertia of M.  002 does
 * not print ref. 13's algorithm; this module implements the construction
 * of proofs/redistribution.md:
 *
 *     P   = I - B^T B                 (orthogonal projector onto N^perp;
 *                                      the rows of B span N and are
 *                                      orthonormal, 002 (4))
 *     Q   = P R                       (R: n x k fields whose mass Gram
 *                                      matrix is to be kept, e.g. the six
 *                                      affine fields of fe2d: mass, centre
 *                                      of gravity, second moments)
 *     G   = R^T M R,  G0 = Q^T M Q
 *     K   = G0^-1 (G - G0) G0^-1,  U = P M Q
 *     M_r = P M P + U K U^T  (= P Mhat P with Mhat = M + MQ K (MQ)^T SPD)
 *
 * Then M_r = M_r^T >= 0, Ker M_r = N exactly, and R^T M_r R = R^T M R.
 * With R = NULL (k = 0) the result is the minimal P M P.
 *
 * Variants (002 §7): FL_REDIST_NONE (M_r = M, the standard
 * discretisation), FL_REDIST_NORMAL (N = span{nu_i}: the paper's method),
 * FL_REDIST_BOTH (N = span{nu_i, tau_i}: "both components", which violates
 * (6)(ii) on purpose).
 *
 * The low-rank form (P M P sparse when M is, plus U K U^T of rank k) is what
 * the sparse twin uses (optimized/fe2d_sparse.c).  Ownership: the struct
 * owns its matrices; free with fl_redistribution_free (NULL accepted).
 *
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_REDISTRIBUTION_H
#define FL_REDISTRIBUTION_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>

#include "fl_status.h"

typedef enum fl_redist_kind {
    FL_REDIST_NONE = 0,
    FL_REDIST_NORMAL = 1,
    FL_REDIST_BOTH = 2
} fl_redist_kind;

typedef struct fl_redistribution {
    fl_redist_kind kind;
    size_t n;        /* number of dofs */
    size_t k;        /* number of preserved fields (columns of R), may be 0 */
    gsl_matrix *B;   /* rows spanning N: Bnu (NORMAL) or [Bnu; Btau] (BOTH); NULL for NONE */
    gsl_matrix *U;   /* n x k, NULL when k = 0 */
    gsl_matrix *K;   /* k x k, NULL when k = 0 */
} fl_redistribution;

/* Build the redistribution of M (n x n SPD) for the contact rows Bnu,
 * Btau (nc x n, orthonormal as in 002 (4); Btau needed only for BOTH) and
 * the preserved fields R (n x k, may be NULL).  Errors: FL_EDIM,
 * FL_ENONFINITE, FL_EINVAL (rows not orthonormal to 1e-10),
 * FL_ESINGULAR (P R rank-deficient: fewer than k independent fields
 * survive the projection, e.g. fewer than 3 non-collinear nodes off the
 * contact boundary for the affine fields). */
fl_status fl_redistribution_alloc(const gsl_matrix *M, const gsl_matrix *R,
                                  const gsl_matrix *Bnu, const gsl_matrix *Btau,
                                  fl_redist_kind kind, fl_redistribution **out,
                                  fl_error *err);
void fl_redistribution_free(fl_redistribution *rd);

/* Dense M_r (n x n, allocated here). */
fl_status fl_redistribution_dense(const fl_redistribution *rd, const gsl_matrix *M,
                                  gsl_matrix **Mr, fl_error *err);

/* x <- P x with P = I - B^T B (identity for NONE). */
void fl_redistribution_project(const fl_redistribution *rd, double *x);

#endif
