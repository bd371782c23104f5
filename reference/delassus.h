/* delassus.h — the Delassus operator W = H M^-1 H^T of a global problem
 * (M v = f + H^T r, U = H v + w) and the local problem U = W r + q it
 * gives (003 §3), dense; the sparse twin is fl_delassus_sparse
 * (optimized/delassus_sparse.h). */
#ifndef FL_DELASSUS_H
#define FL_DELASSUS_H

#include "fl_problem.h"
#include "fl_status.h"

/* Dense Delassus operator and local data of the global problem g (003 §3):
 * W = H M^-1 H^T, q = H M^-1 f + w; *out gets a new
 * local problem with dense W.  g->M must be SPD (FL_ENOTSPD otherwise). */
fl_status fl_delassus_dense(const fl_global_problem *g, fl_local_problem **out,
                            fl_error *err);

#endif
