/* fl_fclib.h — FCLIB files (HDF5) for frictional contact problems
 * (README.md, Vocabulary), the problems of §3 of
 * J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12 (paper 003).
 *
 * FCLIB (fclib.gforge.inria.fr, Debian libfclib-dev) stores
 *   local problems   W (m x m), q (m), mu (nc), spacedim  under /fclib_local,
 *   global problems  M (n x n), H (n x m), f (n), w (m), mu (nc), spacedim
 *                    under /fclib_global,
 *   an optional solution (/solution: v, u, r) and guesses (/guesses/1.., /guesses/number_of_guesses).
 * Its sign convention is the library's (fl_problem.h): r in the Coulomb cone
 * C_mu = {|r_T| <= mu r_N}, û = W r + q + [mu |u_T|, 0, 0] in the dual cone,
 * û . r = 0, components [N, T1(, T2)] contact after contact.  So a local
 * problem maps one to one.  The global problem differs only by H:
 * FCLIB writes M v = H r + f, u = H^T v + w (H is n x m); the library
 * writes M v = f + H^T r, U = H v + w (H is m x n).  The writer stores H^T
 * and the reader transposes back (proofs/fclib.md).  FCLIB's optional
 * equality constraints (G, b; V, R, s) are not supported: a file that has
 * them is refused (FL_EUNSUPPORTED) rather than silently misread.
 *
 * Writing goes through libfclib (fclib_write_local / _global / _solution /
 * _guesses).  Reading is done here with HDF5 directly, following libfclib's
 * layout, because libfclib's readers call exit() on a malformed file: every
 * dataset is checked (presence, rank, length, type, index ranges, finite
 * values, mu >= 0, m = spacedim * nc) and an error names the file and the
 * field ("fclib_local/vectors/q").  Matrices may be stored compressed by
 * column (nz = -1), by row (nz = -2) or as triplets (nz >= 0, CSparse's
 * convention: i rows, p columns, as every real file has it); duplicates
 * are summed.  Zero contacts is a valid problem.  Declared sizes are checked
 * against the stored datasets and a memory cap (fl_read_options) before
 * anything is allocated; a path that is not a regular file is refused.  HDF5's automatic error printing is switched off during a
 * read and restored after (the library never prints).
 */
#ifndef FL_FCLIB_H
#define FL_FCLIB_H

#include <stddef.h>

#include "fl_problem.h"
#include "fl_sparse.h"
#include "fl_status.h"

/* A solution or a guess as FCLIB stores it: v (length n, global problems
 * only, else NULL), u and r (length m).  Owns its arrays. */
typedef struct fl_fclib_solution {
    size_t n, m;
    double *v, *u, *r;
} fl_fclib_solution;

/* n == 0: no v (local problem).  m == 0: a problem without contact (u and
 * r empty; libfclib cannot write that, so it is written with HDF5 directly). */
fl_status fl_fclib_solution_alloc(size_t n, size_t m, fl_fclib_solution **out, fl_error *err);
void fl_fclib_solution_free(fl_fclib_solution *s);
/* Free an array of `count` solutions returned by fl_fclib_read_guesses. */
void fl_fclib_guesses_free(fl_fclib_solution **g, size_t count);

/* Write p to a new file `path` (an existing file is replaced).  W is taken
 * from p->W if present, else p->Ws; entries equal to zero are not stored.
 * title may be NULL. */
fl_status fl_fclib_write_local(const char *path, const fl_local_problem *p, const char *title,
                               fl_error *err);

/* The three matrix forms of FCLIB files, as real files (Siconos, LMGC90)
 * have them, following CSparse: triplets (nz = number of entries; i the row
 * and p the column of each entry), compressed column (nz = -1: p column
 * pointers, i row indices), compressed row (nz = -2: p row pointers, i
 * column indices).  The readers take all three. */
typedef enum fl_fclib_storage {
    FL_FCLIB_TRIPLET = 0,
    FL_FCLIB_CSC = -1,
    FL_FCLIB_CSR = -2
} fl_fclib_storage;

/* fl_fclib_write_local with W in the chosen form (the plain writer: CSC). */
fl_status fl_fclib_write_local_as(const char *path, const fl_local_problem *p, const char *title,
                                  fl_fclib_storage form, fl_error *err);

/* Read the local problem of `path`.  dense != 0: p->W is filled; ctx !=
 * NULL: p->Ws (stype 0, full storage) is filled on ctx; at least one of the
 * two must be requested.  The problem is checked with fl_local_problem_check. */
fl_status fl_fclib_read_local(const char *path, int dense, fl_sparse_ctx *ctx,
                              fl_local_problem **out, fl_error *err);

/* The same with reader limits (memory cap; NULL = defaults). */
fl_status fl_fclib_read_local_opt(const char *path, int dense, fl_sparse_ctx *ctx,
                                  const fl_read_options *opt, fl_local_problem **out,
                                  fl_error *err);

/* Global problem: M from g->M or g->Ms, H from g->H or g->Hs (library
 * convention, m x n; FCLIB's H = the transpose is what is written). */
fl_status fl_fclib_write_global(const char *path, const fl_global_problem *g,
                                const char *title, fl_error *err);
/* fl_fclib_write_global with M and H in the chosen form. */
fl_status fl_fclib_write_global_as(const char *path, const fl_global_problem *g,
                                   const char *title, fl_fclib_storage form, fl_error *err);
/* dense != 0: g->M, g->H filled; ctx != NULL: g->Ms (stype 1) and g->Hs. */
fl_status fl_fclib_read_global(const char *path, int dense, fl_sparse_ctx *ctx,
                               fl_global_problem **out, fl_error *err);

fl_status fl_fclib_read_global_opt(const char *path, int dense, fl_sparse_ctx *ctx,
                                   const fl_read_options *opt, fl_global_problem **out,
                                   fl_error *err);

/* Append (replace) the solution of the problem stored in `path`.  Its sizes
 * must match the problem's (m; n for a global problem, where v is required). */
fl_status fl_fclib_write_solution(const char *path, const fl_fclib_solution *s, fl_error *err);
/* FL_ENOTFOUND when the file has no /solution. */
fl_status fl_fclib_read_solution(const char *path, fl_fclib_solution **out, fl_error *err);

/* Guesses: count >= 1 starting points, same sizes as the solution. */
fl_status fl_fclib_write_guesses(const char *path, size_t count,
                                 const fl_fclib_solution *const *g, fl_error *err);
/* FL_ENOTFOUND when the file has no /guesses. *out: array of *count. */
fl_status fl_fclib_read_guesses(const char *path, fl_fclib_solution ***out, size_t *count,
                                fl_error *err);

/* Which problem a file holds: 1 local, 2 global, or an error (not HDF5,
 * no FCLIB group). */
fl_status fl_fclib_kind(const char *path, int *kind, fl_error *err);

/* What fl_fclib_vet reads: an or of these. */
enum {
    FL_FCLIB_VET_PROBLEM = 1,   /* fl_fclib_kind, then the local or global problem */
    FL_FCLIB_VET_SOLUTION = 2,  /* fl_fclib_read_solution (none stored is not an error) */
    FL_FCLIB_VET_GUESSES = 4    /* fl_fclib_read_guesses (none stored is not an error) */
};

/* Read the `parts` of `path` a caller is about to read in-process, in a
 * child process under a CPU-time and an address-space limit
 * (core/fl_isolate.h), and discard them.  HDF5 1.10.8 has defects that
 * corrupt files drive into a crash or into allocating without bound
 * (README "Fuzzing": the reproducer
 * fuzz/hdf5_defects/fclib_local_stab_lookup_runaway.hdf5 allocated 24 GB in
 * 93 s before the system killed the process); no check of ours can reach
 * them, only a separate process can contain them.  FL_OK: those reads
 * succeed, and doing them again in-process is safe (HDF5 reads the same
 * bytes the same way).  Otherwise the reader's own error, or FL_EEXTERNAL
 * naming the file and what happened (crash, time or memory limit).
 * Limits: CPU time 5 s + 1 s per MB of file; address space
 * opt->max_bytes (the problem's cap) + 1 GiB for the program and HDF5. */
fl_status fl_fclib_vet(const char *path, const fl_read_options *opt, int parts, fl_error *err);

/* 1 if the file starts with the 8-byte HDF5 signature (how the command
 * tells FCLIB from Siconos text), 0 otherwise or when it cannot be read. */
int fl_fclib_is_hdf5(const char *path);

#endif
