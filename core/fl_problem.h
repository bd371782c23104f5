/* fl_problem.h — frictional contact problems in FCLIB's two forms
 * (README.md, Vocabulary; 003 §3; 003 §3–5).
 *
 * Library sign convention (README.md): per contact the local velocity is
 * U = (U_N, U_T) with U_N >= 0 admissible (separating), the local reaction
 * or impulse r = (r_N, r_T) with r_N >= 0 compressive.  Per contact the
 * components are stored [N, T] (dim 2) or [N, T1, T2] (dim 3), contact after
 * contact, as in FCLIB / Siconos.  Coulomb's law (impulse form, 003 §3):
 *   r in K_mu = { |r_T| <= mu r_N },  U_N >= 0,  r_N U_N = 0,
 *   |r_T| < mu r_N => U_T = 0,   U_T != 0 => r_T = -mu r_N U_T/|U_T|.
 *
 * Local form (FCLIB "local"):  U = W r + q,  nc contacts of dimension dim,
 * m = dim nc unknowns.  W is held densely (gsl_matrix, reference/) or
 * sparsely (cholmod_sparse with stype 0 and BOTH triangles stored,
 * optimized/); either or both may be present.
 *
 * Global form (FCLIB "global"):  M v = f + H^T r,  U = H v + w.
 * Here H is the m x n matrix of the local kinematics (U = H u, 003 §3 /
 * 003 §3–5); FCLIB stores its transpose (n x m).  Then
 *   W = H M^-1 H^T  (the Delassus operator),   q = H M^-1 f + w.
 * In a Contact Dynamics step (003 §3) f = M u_i + h F (free momentum).
 *
 * Ownership: each problem owns every matrix, vector and array it points to;
 * sparse members were allocated on the context `ctx` (not owned), which must
 * outlive the problem.  _free(NULL) is a no-op.
 */
#ifndef FL_PROBLEM_H
#define FL_PROBLEM_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "fl_sparse.h"
#include "fl_status.h"

typedef struct fl_local_problem {
    size_t nc;              /* number of contacts */
    int dim;                /* 2 or 3 */
    size_t m;               /* dim * nc */
    gsl_matrix *W;          /* m x m dense Delassus (may be NULL) */
    cholmod_sparse *Ws;     /* m x m sparse, stype 0, full storage (may be NULL) */
    gsl_vector *q;          /* length m */
    double *mu;             /* length nc, mu >= 0 */
    fl_sparse_ctx *ctx;     /* context of Ws (not owned) */
} fl_local_problem;

typedef struct fl_global_problem {
    size_t n, nc;           /* degrees of freedom, contacts */
    int dim;                /* 2 or 3 */
    size_t m;               /* dim * nc */
    gsl_matrix *M;          /* n x n SPD (may be NULL if Ms given) */
    cholmod_sparse *Ms;     /* n x n SPD, stype 1 (upper) (may be NULL) */
    gsl_matrix *H;          /* m x n, U = H v + w (may be NULL if Hs given) */
    cholmod_sparse *Hs;     /* m x n, stype 0 (may be NULL) */
    gsl_vector *f;          /* length n */
    gsl_vector *w;          /* length m */
    double *mu;             /* length nc */
    fl_sparse_ctx *ctx;     /* context of Ms, Hs (not owned) */
} fl_global_problem;

/* Allocate a local problem with zero q, zero mu and, if dense != 0, a zero
 * dense W (Ws is left NULL; attach one with ctx set).  FL_EINVAL for dim not
 * in {2,3} or nc == 0. */
fl_status fl_local_problem_alloc(size_t nc, int dim, int dense,
                                 fl_local_problem **out, fl_error *err);
void fl_local_problem_free(fl_local_problem *p);

/* Allocate a global problem with dense zero M (n x n) and H (m x n) if
 * dense != 0, zero f, w, mu. */
fl_status fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense,
                                  fl_global_problem **out, fl_error *err);
void fl_global_problem_free(fl_global_problem *g);

/* Validate a local problem: dimensions, finite entries, mu >= 0, W present
 * (dense or sparse), square of size m, symmetric within 1e-10 relative. */
fl_status fl_local_problem_check(const fl_local_problem *p, fl_error *err);

/* U = W r + q using the dense W if present, else the sparse one.
 * U and r are length m and must not alias. */
fl_status fl_local_problem_velocity(const fl_local_problem *p, const gsl_vector *r,
                                    gsl_vector *U, fl_error *err);

/* Per-contact violation of Coulomb's law (library convention, impulse form
 * of 003 §3–5) by an impulse r and a velocity U, both length m.  Each
 * term is made dimensionless by the caller's problem scales rs > 0 (impulse)
 * and us > 0 (velocity) (proofs/README.md: normalise by problem scales, not by
 * the quantity tested); the result is the largest of
 *   max(0,-r_N)/rs, max(0,|r_T| - mu r_N)/rs, max(0,-U_N)/us,
 *   min(r_N/rs, U_N/us)                      (Signorini complementarity),
 *   min(|U_T|/us, |r_T + mu r_N U_T/|U_T||/rs) (stick, or slide opposite U_T).
 * 0 for an exact solution. */
double fl_coulomb_violation(int dim, size_t nc, const double *mu, const double *r,
                            const double *U, double rs, double us);

/* A random dense global problem for property checks and benchmarks:
 * M = B B^T / n + I/10 (B Gaussian n x n, SPD), H Gaussian m x n scaled by
 * 1/sqrt(n), f Gaussian, w = 0, mu log-uniform in [mu_lo, mu_hi]
 * (proofs/README.md).  With n >= m, W = H M^-1 H^T is nonsingular with
 * probability one.  Randomness only through r. */
fl_status fl_global_problem_random(gsl_rng *r, size_t n, size_t nc, int dim, double mu_lo,
                                   double mu_hi, fl_global_problem **out, fl_error *err);

#endif
