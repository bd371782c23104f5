/* midpoint_sparse.h — sparse twin of reference/midpoint.c (002 (20)-(23)).
 *
 * Same problem struct, options, state and result as the reference; the
 * problem's sparse fields are used: A_s, Mr0_s (+ U K U^T), Bnu_s, Btau_s.
 * S = (4/dt^2) M_r + A is never formed densely: S0 = (4/dt^2) Mr0 + A is
 * factored once by CHOLMOD (reused every step) and the rank-k part enters
 * through the Sherman-Morrison-Woodbury identity
 *   S^-1 = S0^-1 - Y (I + C U^T Y)^-1 C Y^T,  Y = S0^-1 U,  C = (4/dt^2) K.
 * The contact Delassus D = H S^-1 H^T (2nc x 2nc, dense) costs 2nc solves
 * at setup; a step costs two solves, two sparse products and the
 * Gauss-Seidel (or enumeration) on D.
 *
 * Ownership: the stepper owns its CHOLMOD context, factor and workspaces;
 * it keeps pointers to the problem's matrices (the caller keeps them alive).
 *
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_MIDPOINT_SPARSE_H
#define FL_MIDPOINT_SPARSE_H

#include <gsl/gsl_permutation.h>

#include "fl_sparse.h"
#include "reference/midpoint.h"

typedef struct fl_midpoint_sparse {
    const fl_midpoint_problem *p;
    fl_midpoint_options opt;
    fl_sparse_ctx ctx;
    cholmod_sparse *S0;            /* (4/dt^2) Mr0 + A, upper */
    cholmod_factor *L;
    cholmod_sparse *Ht;            /* H^T, n x 2nc, unsymmetric */
    gsl_matrix *Y;                 /* S0^-1 U, n x k (NULL if k = 0) */
    gsl_matrix *T;                 /* LU of I + C U^T Y, k x k */
    gsl_permutation *Tp;
    gsl_matrix *D;                 /* H S^-1 H^T */
    gsl_matrix *sols;
    size_t nsols;
    double *fhat, *z, *uh, *w1, *w2, *wk, *wk2, *hy;
    gsl_vector *q;
} fl_midpoint_sparse;

fl_status fl_midpoint_alloc_sparse(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                                   fl_midpoint_sparse **out, fl_error *err);
fl_status fl_midpoint_step_sparse(fl_midpoint_sparse *mp, fl_midpoint_state *st,
                                  fl_midpoint_result *res, fl_error *err);
void fl_midpoint_free_sparse(fl_midpoint_sparse *mp);

/* 002 (19) with the sparse M_r and A of the stepper's problem. */
double fl_midpoint_energy_sparse(fl_midpoint_sparse *mp, const gsl_vector *u, const gsl_vector *v);

#endif
