/* discs_sparse.h — cell-list detection and the diagonal-M Delassus
 * operator for the discs of reference/discs.h.
 * Declared here, in the optimized layer, so that only optimized/ and the
 * layers above it (drivers/, checks/, cli/, bench/, tests/) see the sparse
 * twins. */
#ifndef FL_DISCS_SPARSE_H
#define FL_DISCS_SPARSE_H

#include "reference/discs.h"

/* Same contacts found with cell lists (optimized/discs_sparse.c). */
fl_status fl_discs_detect_cells(const fl_discs *d, fl_disc_contact **out, size_t *nc,
                                fl_error *err);

/* Delassus operator for the diagonal M of the discs (optimized/discs_sparse.c):
 * W = (H M^-1/2)(H M^-1/2)^T by CHOLMOD (linear in the contacts; no
 * factorisation is needed for a diagonal M), q = H M^-1 f + w; g must hold
 * the sparse H (g->Hs) on g->ctx.  Same W, q as fl_delassus_dense. */
fl_status fl_discs_delassus_diag(const fl_discs *d, const fl_global_problem *g,
                                 fl_local_problem **out, fl_error *err);

#endif
