/* delassus_sparse.h — the sparse twin of fl_delassus_dense (reference/delassus.h),
 * same signature and options.  Declared here, in the optimized layer, so that
 * only optimized/ and the layers above it see the sparse twins. */
#ifndef FL_DELASSUS_SPARSE_H
#define FL_DELASSUS_SPARSE_H

#include "reference/delassus.h"

/* Sparse Delassus (optimized/delassus_sparse.c), the contract of
 * fl_delassus_dense with W held as cholmod_sparse (entries
 * |w_ij| <= droptol * max|w_ii| dropped, default 0).  M (g->Ms, stype 1) is
 * factored by CHOLMOD into *L (reused by later calls with the same M; no
 * reuse for FL_DELASSUS_TRAILING); L NULL: a private factor, freed before
 * returning.  The method is opt->sparse.method (NULL opt: FL_DELASSUS_SOLVES). */
fl_status fl_delassus_sparse(const fl_global_problem *g, const fl_delassus_options *opt,
                             cholmod_factor **L, fl_local_problem **out, fl_error *err);

#endif
