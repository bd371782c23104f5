/* nsgs_colored.h — the nonlinear Gauss–Seidel sweep of optimized/nsgs_sparse.c
 * (003 §3) on every core: a graph colouring of the contacts, so that two
 * contacts a != c of one colour have W_ac = W_ca = 0 (for a Delassus
 * operator W = H M^-1 H^T with block-diagonal M: they share no body), and
 * the sweep that reviews the colours one after the other, the contacts of
 * one colour in parallel (OpenMP).  Within a colour the local solves read
 * only impulses of other colours, so the sweep is the serial Gauss–Seidel
 * sweep in the coloured order, whatever the number of threads
 * (proofs/parallel_sweep.md: which convergence statements still hold).
 */
#ifndef FL_NSGS_COLORED_H
#define FL_NSGS_COLORED_H

#include <stddef.h>

#include "reference/nsgs.h"

typedef struct fl_nsgs_coloring {
    size_t nc;               /* contacts */
    size_t ncolors;
    size_t *order;           /* length nc: the contacts in the coloured review order */
    size_t *start;           /* length ncolors + 1: colour k is order[start[k] .. start[k+1]) */
    size_t *color;           /* length nc: colour of contact a (of its unit) */
    size_t unit;             /* contacts per unit (1: single contacts) */
    size_t nunits;
    size_t *ustart;          /* length nunits + 1: positions in order where the units start */
} fl_nsgs_coloring;

/* Greedy colouring of the contact graph of p->Ws (contacts a != c adjacent
 * when a block W_ac or W_ca holds a stored entry) by units: the review
 * order perm (length p->nc; NULL: natural) is cut into units of G
 * consecutive contacts, G = nc / 64 clamped to [256, 4096] when that needs
 * at most 8 colours (an order that follows space couples each unit to a few
 * neighbouring units), else G = 1; each unit gets the smallest colour no
 * visited adjacent unit has.  Contacts of one colour in different units
 * share no stored block of W.  The review order lists colour 0, 1, ..., each
 * colour's units in perm order, each unit's contacts in perm order; a unit
 * is swept by one thread, in order.  out is filled (free with
 * fl_nsgs_colored_clear).  Errors: bad problem, no sparse W, out of memory. */
fl_status fl_nsgs_colored_color(const fl_local_problem *p, const size_t *perm,
                                fl_nsgs_coloring *out, fl_error *err);
void fl_nsgs_colored_clear(fl_nsgs_coloring *c);

/* fl_nsgs_solve_sparse's contract (and its local solver, stopping rule,
 * time limit and refusals) with the coloured sweep: the contacts are
 * coloured in the order opt->order gives, and each sweep reviews them in the
 * coloured order on opt->sparse.threads threads (k >= 1: k threads; -1: all
 * cores, omp_get_max_threads(), but at most one per 8192 contacts: each
 * colour ends with a barrier, which a small problem does not repay, least
 * of all on a loaded machine).  After k sweeps the impulses equal, bit for
 * bit, those of the serial sweep on the same layout (fl_nsgs_solve_sparse
 * with threads 0, a cache, FL_NSGS_ORDER_GIVEN and the coloured order), for
 * every thread count (the sums of the stopping tests are taken in fixed
 * blocks, so the decisions do not depend on the thread count either); the
 * CSC sweep (threads 0, no cache) in that order agrees to rounding.
 * fl_nsgs_solve_sparse calls it when opt->sparse.threads != 0, and also
 * when threads == 0 and either opt->sparse.cache is set or the problem is
 * 2D (the 2x2 block layout's sweep is the faster, doc/parallel.md): then
 * the layout is built in the review order itself (one colour, one unit) and
 * swept on one thread.  opt->sparse.cache NULL: a setup of this call only. */
fl_status fl_nsgs_colored_solve(const fl_local_problem *p, const fl_nsgs_options *opt,
                                gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                                fl_error *err);

/* 1 if p's W fits the layout (32-bit indices, packed W), else 0: then
 * fl_nsgs_colored_solve hands the problem to the CSC sweep of
 * fl_nsgs_solve_sparse.  p->Ws real, p->m > 0. */
int fl_nsgs_colored_fits(const fl_local_problem *p);

/* Threads the coloured sweep uses for opt_threads on nc contacts (above). */
int fl_nsgs_colored_threads(int opt_threads, size_t nc);

/* What a solve sets up before its sweeps, kept for the next solve with the
 * same sparsity (opt->sparse.cache; a time stepper whose contact set does
 * not change, repeated solves of one problem): the transpose of W, the
 * colouring, the sweep's layout (its index arrays and, for each stored
 * value of the layout, its position in p->Ws->x).  A solve compares p->Ws's
 * pattern (dimensions, column pointers, row indices), the dimension, the
 * review order and the mode (coloured or serial) with the cached ones; when
 * all are equal it only gathers the values of W, q, mu and r into the
 * layout, else it rebuilds and replaces the cache.  The answers are the same
 * with and without a cache (tests/test_nsgs_colored.c).  One cache serves
 * one solve at a time.  Zero-initialise it (fl_nsgs_colored_cache_init), free
 * it with fl_nsgs_colored_cache_clear.  Fields are read-only for callers. */
typedef struct fl_nsgs_colored_cache {
    int valid;
    int dim, itype, colored;         /* colored: units coloured (threads != 0) */
    size_t nrow, ncol, nnz;
    void *kp, *ki;                   /* copies of W's column pointers, row indices */
    size_t *perm;                    /* the review order that was coloured */
    fl_nsgs_coloring col;
    struct fl_nsgs_layout *layout;   /* private (nsgs_colored.c) */
    long builds, reuses;             /* solves that built the setup / reused it */
} fl_nsgs_colored_cache;

void fl_nsgs_colored_cache_init(fl_nsgs_colored_cache *c);
void fl_nsgs_colored_cache_clear(fl_nsgs_colored_cache *c);

/* Bytes one sweep of the cached layout must move at least: every stored
 * value of W (8), every index of the layout (4 per stored 2 x 2 block in
 * the blocked layout, 4 per entry in the scalar one), the row or block-row
 * starts (4 each), q and mu read once, r read and written once, and (scalar
 * layout) the diagonal blocks and (dim 3) their inverses and flags.  0 when
 * the cache holds nothing.  doc/parallel.md. */
double fl_nsgs_colored_sweep_bytes(const fl_nsgs_colored_cache *c);

/* 1 when the cached layout is the 2 x 2 block one (dim 2, every stored
 * block of W full, every diagonal block stored), 0 when scalar. */
int fl_nsgs_colored_blocked(const fl_nsgs_colored_cache *c);

#endif
