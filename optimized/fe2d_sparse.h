/* fe2d_sparse.h — sparse twin of reference/fe2d.c and of the FE block
 * builder of reference/midpoint.c (002 §2, §3, §7): CHOLMOD assembly of A
 * and M, elimination of Dirichlet dofs, and the redistributed mass in the
 * low-rank form M_r = P M P + U K U^T of proofs/redistribution.md, never
 * forming a dense n x n matrix.
 *
 * Ownership: matrices returned through out arguments belong to the caller
 * and are freed on the same fl_sparse_ctx (fl_sparse_free); the block owns
 * everything it points to and is freed by fl_midpoint_block_free_sparse
 * (with the context it was built on).
 *
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_FE2D_SPARSE_H
#define FL_FE2D_SPARSE_H

#include "fl_sparse.h"
#include "reference/fe2d.h"
#include "reference/midpoint.h"

/* Assembled matrix `which` (symmetric, upper storage) on the free dofs of
 * map (all dofs if map is NULL).  If shift is non-NULL (nfree entries) it
 * receives -K(free, fixed) u_fixed. */
fl_status fl_fe2d_assemble_sparse(fl_sparse_ctx *ctx, const fl_fe2d_mesh *mesh,
                                  const fl_fe2d_material *mat, fl_fe2d_matrix which,
                                  const fl_fe2d_dofmap *map, cholmod_sparse **out,
                                  double *shift, fl_error *err);

/* The FE block of fl_midpoint_block_alloc, sparse: prob has A_s, Mr0_s,
 * U, K, Bnu_s, Btau_s (and dense Bnu, Btau only if n <= dense_rows_limit,
 * else NULL; the sparse stepper does not need them). */
typedef struct fl_midpoint_block_sparse {
    fl_sparse_ctx *ctx;            /* not owned */
    fl_fe2d_mesh *mesh;
    fl_fe2d_dofmap *map;
    size_t nc;
    int *cnodes;
    cholmod_sparse *A, *Mr0, *Bnu, *Btau;
    gsl_matrix *U, *K;
    gsl_matrix *Bnu_d, *Btau_d;    /* dense rows, or NULL */
    gsl_vector *f;
    fl_midpoint_problem prob;
} fl_midpoint_block_sparse;

fl_status fl_midpoint_block_alloc_sparse(fl_sparse_ctx *ctx, const fl_midpoint_block_params *bp,
                                         size_t dense_rows_limit,
                                         fl_midpoint_block_sparse **out, fl_error *err);
void fl_midpoint_block_free_sparse(fl_midpoint_block_sparse *b);

#endif
