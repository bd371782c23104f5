/* fl_problem.h — frictional contact problems in FCLIB's two forms
 * (README.md, Vocabulary), with the contact law of §3 of
 * J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12 (paper 003).
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
 * in {2,3}.  nc == 0 is a valid problem (a time step without contact): q and
 * W are then 0-length GSL objects (size 0, data NULL) that gsl_*_free
 * accepts, and mu is NULL. */
fl_status fl_local_problem_alloc(size_t nc, int dim, int dense,
                                 fl_local_problem **out, fl_error *err);
void fl_local_problem_free(fl_local_problem *p);

/* Allocate a global problem with dense zero M (n x n) and H (m x n) if
 * dense != 0, zero f, w, mu.  n must be positive; nc == 0 is valid (w, H
 * are then 0-length, mu NULL; the solution is v = M^-1 f). */
fl_status fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense,
                                  fl_global_problem **out, fl_error *err);
void fl_global_problem_free(fl_global_problem *g);

/* Validate a local problem: dimensions, finite entries, mu >= 0, W present
 * (dense or sparse), square of size m.  W need NOT be symmetric: real files
 * have W symmetric only up to rounding, and some (Rover wheels, Siconos
 * test data) have a truly nonsymmetric W which Gauss-Seidel solves row by
 * row.  This one function is the validation of both twins (dense W and
 * sparse Ws are checked alike), so they accept and refuse the same inputs. */
fl_status fl_local_problem_check(const fl_local_problem *p, fl_error *err);

/* Symmetry of W (for the solvers that need it) and of M.  The relative
 * tolerance:
 *   A is symmetric  <=>  max_ij |A_ij - A_ji| <= FL_SYMMETRY_RTOL * max_ij |A_ij|
 * 1e-6: the asymmetry of files written with 16-25 digits (1e-16 relative)
 * and of FE mass matrices assembled in lower precision (CubeH8.hdf5, 1.5e-7)
 * passes; the truly nonsymmetric Delassus operators of real files (Rover:
 * 1e-5, OneObject: 1e-4, Capsules: 1e-3 relative) do not. */
#define FL_SYMMETRY_RTOL 1e-6

/* Largest |W_ij - W_ji| (dense W if present, else Ws) into *asym, at (*i, *j)
 * (i > j; 0, 0 when W is exactly symmetric), and max |W_ij| into *scale.
 * Any pointer may be NULL. */
fl_status fl_local_problem_asymmetry(const fl_local_problem *p, double *asym, size_t *i,
                                     size_t *j, double *scale, fl_error *err);

/* FL_EINVAL naming the largest asymmetry (value, entry, relative size and
 * the tolerance) when W is not symmetric within FL_SYMMETRY_RTOL; else
 * fl_local_problem_check's verdict.  `who` names the solver in the message. */
fl_status fl_local_problem_check_symmetric(const fl_local_problem *p, const char *who,
                                           fl_error *err);

/* Validate a global problem (the one validation of both twins): n > 0,
 * dim, nc, m consistent; f, w, mu present with their lengths; finite
 * values; mu >= 0; M (dense or sparse) n x n, H (dense or sparse) m x n;
 * M symmetric within FL_SYMMETRY_RTOL (dense M: both triangles compared;
 * sparse Ms in symmetric storage is symmetric by construction, an
 * unsymmetric-storage Ms is compared too). */
fl_status fl_global_problem_check(const fl_global_problem *g, fl_error *err);

/* Asymmetry of a matrix given as triplets (duplicates summed):
 * *asym = max |A_ij - A_ji| at (*i, *j) (i > j), *scale = max |A_ij| of the
 * summed matrix.  For the readers, which check M before choosing its
 * storage.  FL_ENOMEM if the work array cannot be allocated. */
fl_status fl_triplet_asymmetry(size_t nnz, const int *row, const int *col, const double *val,
                               double *asym, size_t *i, size_t *j, double *scale,
                               fl_error *err);

/* Replace the triplets of a matrix symmetric within FL_SYMMETRY_RTOL by
 * those of (A + A^T)/2 (each off-diagonal entry split in two halves), so
 * that the dense twin (both triangles) and the sparse twin (one triangle)
 * hold the same M.  Reallocates the arrays; FL_ENOMEM on failure (arrays
 * unchanged). */
fl_status fl_triplet_symmetrize(size_t *nnz, int **row, int **col, double **val,
                                fl_error *err);

/* Limits of the problem-file readers (io/fl_siconos_text.c,
 * io/fl_fclib.c): a file is refused, before anything is allocated for it,
 * when what it declares would need more than max_bytes (the message gives
 * the size it would need).  Declared sizes are also checked against the
 * data present (tokens left in a text file, dataset extents in HDF5). */
typedef struct fl_read_options {
    size_t max_bytes;      /* default FL_READ_MAX_BYTES_DEFAULT (4 GiB) */
} fl_read_options;
#define FL_READ_MAX_BYTES_DEFAULT ((size_t)4 << 30)
fl_read_options fl_read_options_default(void);

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
