/* fl_siconos_text.h — the Siconos numerics text format (.dat) for
 * frictional contact problems (what frictionContact_printInFile writes and
 * frictionContact_newFromFile reads; README.md, Vocabulary; 003 §3).
 *
 * Layout, whitespace-separated numbers:
 *   dim                      (2 or 3)
 *   nc                       (number of contacts, m = dim nc)
 *   storage                  (0 = dense; Siconos' sparse storages 1, 2 are
 *                             refused with FL_EUNSUPPORTED)
 *   size0 size1              (m m)
 *   size0 size1              (repeated by the dense writer)
 *   W                        m*m values, column by column (column-major)
 *   q                        m values
 *   mu                       nc values
 * Signs are the library's (fl_problem.h; Siconos uses the same local
 * convention as FCLIB).  Any deviation — a missing or non-numeric value,
 * NaN/Inf, dim not 2/3, sizes inconsistent with dim nc, negative mu,
 * asymmetric W, trailing data — is FL_EPARSE / FL_EDIM / FL_ENONFINITE /
 * FL_EINVAL with err->file = the path, err->line the line of the offending
 * token and a message naming the field ("field q[3]: ...").
 */
#ifndef FL_SICONOS_TEXT_H
#define FL_SICONOS_TEXT_H

#include "fl_problem.h"
#include "fl_sparse.h"
#include "fl_status.h"

/* dense != 0: p->W; ctx != NULL: p->Ws (full storage) on ctx; at least one. */
fl_status fl_siconos_text_read(const char *path, int dense, fl_sparse_ctx *ctx,
                               fl_local_problem **out, fl_error *err);

/* Write p (dense W, or the sparse Ws expanded) in the layout above, values
 * printed with 17 significant digits (exact round trip). */
fl_status fl_siconos_text_write(const char *path, const fl_local_problem *p, fl_error *err);

#endif
