/* nsgs_sparse.h — the sparse twin of fl_nsgs_solve (reference/nsgs.h):
 * same signature and iterates, W held as cholmod_sparse (p->Ws).
 * Declared here, in the optimized layer, so that only optimized/ and the
 * layers above it (drivers/, checks/, cli/, bench/, tests/) see the sparse
 * twins. */
#ifndef FL_NSGS_SPARSE_H
#define FL_NSGS_SPARSE_H

#include "reference/nsgs.h"

/* Same contract as fl_nsgs_solve; uses p->Ws. */
fl_status fl_nsgs_solve_sparse(const fl_local_problem *p, const fl_nsgs_options *opt,
                               gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                               fl_error *err);

/* The local solve of one contact in the sparse sweep (dim 2: fl_nsgs_local_solve;
 * dim 3: open/stick, then Newton on a slide, then the enumeration; Winv =
 * Waa^-1 when has_inv), and the 3 x 3 inverse it uses (0 if nearly singular).
 * Shared with the coloured sweep of optimized/nsgs_colored.c. */
int fl_nsgs_local_solve_sparse(int dim, double mu, const double *Waa, const double *Winv,
                               int has_inv, const double *b, double *r);
int fl_nsgs_block_inverse_sparse(const double *A, double *X);

#endif
