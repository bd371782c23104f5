/* fl_random.h — the one random-system generator every property test uses
 * (README.md, Tests; proofs/README.md).
 *
 * All draws go through the gsl_rng passed in.  A property test creates its
 * generator with fl_test_rng(), which reads FL_SEED from the environment
 * (default: a fixed seed) and prints the seed when the test fails through
 * fl_test_seed_note(), so a failure is reproducible:
 *     FL_SEED=1234 ./build/tests/test_friction_sets
 */
#ifndef FL_RANDOM_H
#define FL_RANDOM_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "fl_friction_set.h"
#include "fl_problem.h"
#include "fl_sparse.h"
#include "reference/midpoint.h"

/* Seed from $FL_SEED or `fallback`; the seed is remembered for the note. */
gsl_rng *fl_test_rng(unsigned long fallback);
unsigned long fl_test_seed(void);
/* "seed 1234 (rerun with FL_SEED=1234)" — put it in assertion messages. */
const char *fl_test_seed_note(void);

/* Gaussian vector with standard deviation `scale`. */
void fl_random_vector(gsl_rng *r, double scale, gsl_vector *v);
/* Uniform random unit vector. */
void fl_random_unit(gsl_rng *r, gsl_vector *v);
/* The generators below that need workspace return FL_OK, or FL_ENOMEM
 * when an allocation fails (their output is then unspecified and must not
 * be used); they never abort. */

/* Random orthogonal matrix (QR of a Gaussian matrix, signs fixed). */
fl_status fl_random_orthogonal(gsl_rng *r, gsl_matrix *Q);

/* Dense SPD M = Q diag(l) Q^T, eigenvalues log-spaced in [1, cond] (the
 * smallest is exactly 1, the largest exactly cond) times `scale`, Q random
 * orthogonal: the 2-norm condition number is exactly `cond`. */
fl_status fl_random_spd(gsl_rng *r, double cond, double scale, gsl_matrix *M);
/* Dense SPD M = Q diag(l) Q^T, Q = fl_random_orthogonal, eigenvalues l
 * independent and log-uniform in [lo, hi]; *lmin (may be NULL) receives the
 * smallest. */
fl_status fl_random_spd_loguniform(gsl_rng *r, double lo, double hi, gsl_matrix *M,
                                   double *lmin);

/* Sparse SPD n x n of chosen condition number (approximately `cond`):
 * a random banded/graph-Laplacian pattern with about `per_row` off-diagonal
 * entries per row, shifted to have its spectrum in [1, cond] (extreme
 * eigenvalues bounded by Gershgorin, then scaled).  Upper-triangular
 * symmetric storage (stype = 1).  Returns NULL on allocation failure. */
cholmod_sparse *fl_random_sparse_spd(gsl_rng *r, fl_sparse_ctx *ctx, size_t n,
                                     size_t per_row, double cond);

/* m x n matrix with linearly independent rows (m <= n): rows of a random
 * orthogonal matrix scaled by factors log-uniform in [1/sqrt(cond),
 * sqrt(cond)] and mixed by a random well-conditioned lower-triangular
 * matrix; its singular values lie within a factor ~cond of each other. */
fl_status fl_random_full_rank_rows(gsl_rng *r, double cond, gsl_matrix *D);

/* Contact frame in R^dim (dim = 2 or 3): row 0 the unit normal, rows 1..
 * an orthonormal tangent basis. */
fl_status fl_random_frame(gsl_rng *r, gsl_matrix *frame);

/* Friction coefficient log-uniform in [1e-2, 10] (proofs/README.md). */
double fl_random_mu(gsl_rng *r);

/* ---- local contact problems of every difficulty (proofs/README.md, random systems: problem scales) ----
 *
 * W = H M^-1 H^T, q = H M^-1 f + w, built in the test harness from M, H, f,
 * w drawn as below (no library routine forms W), in dense (p->W) and, when
 * ctx is given, sparse (p->Ws) form with the same numbers:
 *   PLAIN            n = m + 2, M cond 100, H rows cond 10, mu fl_random_mu
 *   LARGE            nc as asked (1000 in the tests), n = m, M diagonal in
 *                    [1, 10], H with 3 entries per row (a diagonal one of
 *                    size 1 and two couplings of size <= 0.3): W sparse,
 *                    diagonally dominant
 *   ILL_CONDITIONED  as PLAIN with M of condition number 1e8 (W inherits
 *                    up to 1e8)
 *   FRICTIONLESS     as PLAIN with mu = 0 on every contact
 *   GRAZING          as PLAIN, then for every other contact q_N = 0
 *                    exactly (free normal velocity zero: the contact is
 *                    grazing, on the boundary between open and closed)
 *   RANK_DEFICIENT   n = m - dim (fewer dofs than contact unknowns): W is
 *                    PSD of rank n < m, w = 0 so q lies in range(H) and a
 *                    solution exists (not unique) */
typedef enum fl_random_kind {
    FL_RANDOM_PLAIN,
    FL_RANDOM_LARGE,
    FL_RANDOM_ILL_CONDITIONED,
    FL_RANDOM_FRICTIONLESS,
    FL_RANDOM_GRAZING,
    FL_RANDOM_RANK_DEFICIENT
} fl_random_kind;

/* Name of a kind ("plain", "large", ...), for messages. */
const char *fl_random_kind_name(fl_random_kind kind);

/* A local problem of `kind` with nc contacts in dimension dim (2 or 3);
 * dense W always, sparse Ws too when ctx != NULL.  FL_OK or an error
 * (FL_ENOMEM when an allocation fails; *out is then NULL). */
fl_status fl_random_local_problem(gsl_rng *r, fl_random_kind kind, size_t nc, int dim,
                                  fl_sparse_ctx *ctx, fl_local_problem **out);

/* ---- friction sets (001 §2.1, §3.2, §6.2; the draws of testkit/fl_set_random.h,
 * shared with `frictionlab crosscheck --law sets`) ---- */

/* A random friction set containing 0, every kind with equal probability:
 * 1D and 2D discs, [a,b], ]-inf,b], [a,+inf[, R, bounded polygons, a point
 * or a segment, polygons with one ray (a half-line when 1 vertex) and with
 * two rays.  Release with fl_friction_set_release.  FL_OK, or an error status. */
fl_status fl_random_friction_set(gsl_rng *r, fl_friction_set *C);
/* A random point of C (length C->dim). */
void fl_random_point_in_set(gsl_rng *r, const fl_friction_set *C, double *x);
/* A random (rn, r, v) obeying Coulomb's law for rn C; nhat as in
 * fl_set_random_coulomb.  Returns 0 when C has no boundary (C = R). */
int fl_random_coulomb_pair(gsl_rng *r, const fl_friction_set *C, double *rn, double *rt,
                           double *v, double *nhat);
/* A random (rn, r, v) violating Coulomb's law by a wide margin. */
int fl_random_coulomb_violation(gsl_rng *r, const fl_friction_set *C, double *rn,
                                double *rt, double *v);

/* ---- one step of Stewart's P5 (001 §6.2; reference/stewart_law.h), drawn
 * for `frictionlab crosscheck --law stewart` and tests/test_stewart_law.c ---- */

#include "reference/stewart_law.h"

typedef struct fl_random_stewart {
    size_t n, nc, dim;
    gsl_matrix *M, *H;
    gsl_vector *v, *f, *gap;
    double mu[3];
    fl_stewart_problem p;    /* points into the members above; h = 0.01 */
} fl_random_stewart;

/* n in [2, 6], nc in [1, 3], dim 2 or 3 (single: nc = 1, dim = 2, small
 * LCPs for enumeration), M = fl_random_spd of condition number log-uniform
 * in [1, cond_max], Gaussian H (rank-deficient when dim nc > n), v and f;
 * each gap 0 with probability 0.6, else uniform in [0, 0.01]; mu
 * fl_random_mu.  Release with fl_random_stewart_free.  FL_OK, or FL_ENOMEM
 * with nothing left to release (the members are NULL). */
fl_status fl_random_stewart_problem(gsl_rng *r, int single, double cond_max,
                                    fl_random_stewart *s);
void fl_random_stewart_free(fl_random_stewart *s);

/* ---- FE blocks on a rigid foundation (002 §7 setting, small sizes; the
 * "constructed systems" of data/002/README.md, shared by `crosscheck --law
 * midpoint` and the midpoint tests) ---- */
typedef struct fl_random_block_options {
    size_t nx_max, ny_max;   /* cells per side drawn in 2..nx_max, 2..ny_max */
    double mu_max;           /* Coulomb F log-uniform in [0.05, mu_max] */
    int moving_foundation;   /* 1: half the draws get v_found uniform in [0, 0.2]; 0: v_found = 0 */
} fl_random_block_options;

/* nx_max 5, ny_max 4, mu_max 0.5 (the step problems are then uniquely
 * solvable), fixed foundation. */
fl_random_block_options fl_random_block_options_default(void);

/* A block [0,lx]x[0,ly], lx, ly in [0.5,1.5], random diagonal pattern, Lamé
 * lambda in [0,1], mu in [0.3,1.3], rho in [0.5,1.5], plane strain or
 * stress, consistent or lumped mass, top compression <= 0.01, gravity
 * <= 0.5, redistribution `kind`. */
fl_midpoint_block_params fl_random_midpoint_block(gsl_rng *r, const fl_random_block_options *o,
                                                  fl_redist_kind kind);

#endif
