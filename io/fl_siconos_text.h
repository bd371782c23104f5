/* fl_siconos_text.h — the Siconos numerics text format (.dat) for local
 * and global frictional contact problems, as Siconos 4.4 writes and reads
 * it (frictionContact_printInFile / frictionContact_newFromFile,
 * globalFrictionContact_printInFile / globalFrictionContact_newFromFile,
 * NM_write_in_file / NM_new_from_file, SBM_write_in_file /
 * SBM_new_from_file, CSparseMatrix_print_in_file /
 * CSparseMatrix_new_from_file; facts from Siconos's public source).
 *
 * Layout, whitespace-separated numbers (values in any strtod form):
 *   local  (FrictionContactProblem):  dim  nc  W  q[m]  mu[nc]
 *   global (GlobalFrictionContactProblem): dim  nc  M  H  q[n]  b[m]  mu[nc]
 * with m = dim nc.  Siconos's global problem is M v = q + H r,
 * u = H^T v + b, H n x m; the library's (fl_problem.h) is M v = f + H^T r,
 * U = H v + w, H m x n: f = q, w = b, H = transpose on read and on write.
 * Whatever follows mu is ignored, as Siconos's readers ignore it (real files
 * carry trailing fields there).
 *
 * A matrix ("NumericsMatrix") is: storage  size0  size1  then
 *   storage 0, dense:  size0 size1 (repeated)  then size0*size1 values
 *       column by column;
 *   storage 1, sparse block (SBM): nbblocks; if nbblocks > 0:
 *       blocknumber0 blocknumber1, the cumulative block sizes of the block
 *       rows (blocknumber0 values, last = size0) and block columns
 *       (blocknumber1 values, last = size1), filled1 (= blocknumber0 + 1)
 *       filled2 (= nbblocks), index1_data[filled1] (block-row pointers),
 *       index2_data[filled2] (block-column index of each block), then for
 *       each block in order: its number, then its rows x cols values column
 *       by column;
 *   storage 2, sparse (CSparse): origin (1 triplet, 2 compressed column,
 *       3 compressed row), the rest of that line, a banner line ("CSparse
 *       Version ..."), a size line, then
 *         triplet ("triplet: M-by-N, nzmax: Z nnz: K"): K entries "i j : x"
 *           (i row, j column);
 *         compressed ("M-by-N, nzmax: Z nnz: K, 1-norm: X"): for each
 *           column j: "col j : locations a to b" then b-a+1 entries "i : x"
 *           (origin 3, compressed row: the same text with rows and columns
 *           exchanged; Siconos loops over N such blocks, so M = N is
 *           required).
 * Duplicate entries are summed.  The size lines must agree with size0 and
 * size1.
 *
 * Checks (file:line:field messages, err->file = path, err->line = the line
 * of the offending token): a missing or non-numeric value, NaN/Inf, a token
 * with a NUL byte, dim not 2/3, sizes inconsistent with dim nc, negative mu,
 * a nonsymmetric M (FL_SYMMETRY_RTOL, fl_problem.h), an index out of range,
 * block structures that do not add up.  Declared sizes are checked against
 * the bytes left in the file (a value takes at least 2) before anything is
 * allocated, and the memory the problem would take against
 * fl_read_options.max_bytes (FL_ENOMEM naming the size).  The path must be
 * a regular file (a directory, /dev/zero or a pipe is refused).  Tokens of
 * any length are read whole.  W need not be symmetric (fl_problem.h).
 */
#ifndef FL_SICONOS_TEXT_H
#define FL_SICONOS_TEXT_H

#include "fl_problem.h"
#include "fl_sparse.h"
#include "fl_status.h"

/* Which problem a Siconos text file holds: *kind = 1 local, 2 global.  A
 * file is global when a second matrix header (storage 0/1/2, size0 = the
 * first matrix's order, size1 = dim nc) follows the first matrix. */
fl_status fl_siconos_text_kind(const char *path, int *kind, fl_error *err);

/* Local problem.  dense != 0: p->W; ctx != NULL: p->Ws (full storage) on
 * ctx; at least one.  opt may be NULL (fl_read_options_default()). */
fl_status fl_siconos_text_read_local(const char *path, int dense, fl_sparse_ctx *ctx,
                                     const fl_read_options *opt, fl_local_problem **out,
                                     fl_error *err);
/* The same with the default options. */
fl_status fl_siconos_text_read(const char *path, int dense, fl_sparse_ctx *ctx,
                               fl_local_problem **out, fl_error *err);

/* Global problem.  dense != 0: g->M, g->H; ctx != NULL: g->Ms (stype 1,
 * upper) and g->Hs (m x n) on ctx; at least one. */
fl_status fl_siconos_text_read_global(const char *path, int dense, fl_sparse_ctx *ctx,
                                      const fl_read_options *opt, fl_global_problem **out,
                                      fl_error *err);

/* Write p: a dense W as storage 0, else the sparse Ws as storage 2, origin
 * 1 (triplets); every value printed with %.17g (exact round trip). */
fl_status fl_siconos_text_write(const char *path, const fl_local_problem *p, fl_error *err);

/* Write g in Siconos's convention (H^T written, n x m): dense M, H as
 * storage 0, sparse ones as storage 2 triplets; %.17g. */
fl_status fl_siconos_text_write_global(const char *path, const fl_global_problem *g,
                                       fl_error *err);

#endif
