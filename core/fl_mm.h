/* fl_mm.h — Matrix Market input through CHOLMOD's reader (DESIGN.md, data/).
 *
 * fl_mm_read validates the banner and size line itself (so that the message
 * can say file:line and which field is wrong), then lets cholmod_read_sparse
 * read the entries, and finally checks every value for NaN/Inf and every
 * index for range, reporting the file line of the offending entry.
 * Symmetric files come back in symmetric storage (stype != 0).
 * The returned matrix belongs to the caller (free on the same ctx).
 */
#ifndef FL_MM_H
#define FL_MM_H

#include "fl_sparse.h"

fl_status fl_mm_read(fl_sparse_ctx *ctx, const char *path, cholmod_sparse **out,
                     fl_error *err);

/* Write A in Matrix Market coordinate format (real, general or symmetric). */
fl_status fl_mm_write(fl_sparse_ctx *ctx, const char *path, const cholmod_sparse *A,
                      fl_error *err);

#endif
