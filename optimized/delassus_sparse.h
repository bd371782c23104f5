/* delassus_sparse.h — the sparse twin of fl_delassus_dense (reference/delassus.h).
 * Declared here, in the optimized layer, so that only optimized/ and the
 * layers above it (drivers/, checks/, cli/, bench/, tests/) see the sparse
 * twins. */
#ifndef FL_DELASSUS_SPARSE_H
#define FL_DELASSUS_SPARSE_H

#include "reference/delassus.h"

/* Sparse Delassus (optimized/delassus_sparse.c), same result with W held as
 * cholmod_sparse (entries |w_ij| <= droptol * max|w_ii| dropped, default 0).
 * M (g->Ms, stype 1) is factored once by CHOLMOD: pass a cache L with *L ==
 * NULL on the first call; later calls with the same M reuse *L (free it
 * with fl_sparse_free_factor).  method FL_DELASSUS_SOLVES forms
 * X = M^-1 H^T by sparse solves and W = H X; method FL_DELASSUS_TRAILING
 * factors the augmented SPD matrix [M H^T; H c I] with the contact unknowns
 * ordered last and reads W = c I - L22 L22^T off the trailing block of its
 * factor (no reuse of L for this method). */
typedef enum fl_delassus_method {
    FL_DELASSUS_SOLVES = 0,
    FL_DELASSUS_TRAILING = 1
} fl_delassus_method;

fl_status fl_delassus_sparse(const fl_global_problem *g, fl_delassus_method method,
                             cholmod_factor **L, fl_local_problem **out, fl_error *err);

#endif
