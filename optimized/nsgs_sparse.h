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

/* fl_nsgs_check_blocks (reference/nsgs.h) on p->Ws: same verdicts. */
fl_status fl_nsgs_check_blocks_sparse(const fl_local_problem *p, fl_error *err);

#endif
