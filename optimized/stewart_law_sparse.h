/* stewart_law_sparse.h — the sparse twin of fl_stewart_step (reference/stewart_law.h).
 * Declared here, in the optimized layer, so that only optimized/ and the
 * layers above it (drivers/, checks/, cli/, bench/, tests/) see the sparse
 * twins. */
#ifndef FL_STEWART_LAW_SPARSE_H
#define FL_STEWART_LAW_SPARSE_H

#include "reference/stewart_law.h"

/* Optimized twin (optimized/stewart_law_sparse.c): same signature and result;
 * the LCP matrix comes from the sparse Delassus operator H M^-1 H^T with one
 * CHOLMOD factorisation of M. */
fl_status fl_stewart_step_sparse(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                 fl_stewart_result *res, fl_error *err);

#endif
