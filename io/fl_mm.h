/* fl_mm.h — Matrix Market input through CHOLMOD's reader (README.md, data/).
 *
 * fl_mm_read validates the banner and size line itself (so that the message
 * can say file:line and which field is wrong) and every entry line (index
 * range, NaN/Inf, entries above the diagonal of a symmetric file, fewer or
 * more entries than declared), reporting the file line of the offending
 * entry; then it rewinds and lets cholmod_read_sparse build the matrix.
 * Statuses: FL_EIO (cannot open/read), FL_EPARSE (malformed), FL_EUNSUPPORTED
 * (array, complex, hermitian, skew-symmetric), FL_EDIM (non-square
 * symmetric), FL_EINVAL (index out of range), FL_ENONFINITE; *out is NULL on
 * error.  Messages read "file:line: ...".  Pattern entries read as 1;
 * an entry given twice is summed (CHOLMOD's rule, as in assembly).
 * Symmetric files come back in symmetric storage (stype != 0).
 * The returned matrix belongs to the caller (free on the same ctx).
 */
#ifndef FL_MM_H
#define FL_MM_H

#include "fl_sparse.h"

fl_status fl_mm_read(fl_sparse_ctx *ctx, const char *path, cholmod_sparse **out,
                     fl_error *err);

/* Write A in Matrix Market coordinate format: "real general", or "real
 * symmetric" (lower triangle) when A has symmetric storage; values "%.17g"
 * so that reading back gives the same doubles.  A must be real with int
 * indices (FL_EINVAL) and finite (FL_ENONFINITE, nothing written); FL_EIO
 * if the file cannot be created or written.  ctx is unused (kept for
 * symmetry with fl_mm_read). */
fl_status fl_mm_write(fl_sparse_ctx *ctx, const char *path, const cholmod_sparse *A,
                      fl_error *err);

#endif
