/* nsgs.h — nonlinear (block) Gauss–Seidel for the Contact Dynamics core
 * problem of J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12 (paper 003), §3-§5,
 * reference (dense W) and
 * optimized (sparse W, optimized/nsgs_sparse.c) with one signature.  The
 * Delassus operator W = H M^-1 H^T that builds its problem from a global one
 * is reference/delassus.h (sparse: optimized/delassus_sparse.h).
 *
 * The problem solved is the local problem of fl_problem.h: find r with
 * U = W r + q and Coulomb's law per contact (library convention: r_N >= 0
 * compressive, U_N >= 0 separating).  "It consists in reviewing the detected
 * contacts cyclically again and again, solving for each of them a
 * single-contact problem in which the other contact forces are treated as
 * known" (003 §3).  Iterations stop on the natural-map error of
 * core/fl_residual.h.
 *
 * Orderings: natural (0, 1, ..., nc-1), random (one permutation drawn per
 * run from opt->rng and kept for every sweep, 003 §3 "choosing at random,
 * for each run, the ordering of the cyclic review"), or given.
 * Initial guesses: zero, warm (the r passed in, e.g. the previous step's
 * impulses, 003 §3), random (r_N uniform in [0, random_scale], r_T uniform
 * in the disc mu r_N, 003 §3–5).
 * Relaxation: r_a <- P_K((1 - omega) r_a + omega r_a^local), omega in (0, 2).
 */
#ifndef FL_NSGS_H
#define FL_NSGS_H

#include <stddef.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_status.h"

typedef enum fl_nsgs_order {
    FL_NSGS_ORDER_NATURAL = 0,
    FL_NSGS_ORDER_RANDOM = 1,
    FL_NSGS_ORDER_GIVEN = 2
} fl_nsgs_order;

typedef enum fl_nsgs_start {
    FL_NSGS_START_ZERO = 0,
    FL_NSGS_START_WARM = 1,
    FL_NSGS_START_RANDOM = 2
} fl_nsgs_start;

/* Called after every sweep (callback_at_checks: after the checked ones)
 * with the sweep number (1-based), the error and
 * the current impulses; a nonzero return stops the iteration (status FL_OK
 * if the error is below tol, FL_WMAXITER otherwise). */
typedef int (*fl_nsgs_callback)(void *data, int sweep, double residual,
                                const gsl_vector *r);

typedef struct fl_nsgs_options {
    int max_sweeps;            /* default 1000 */
    double tol;                /* natural-map error target, default 1e-10 */
    double omega;              /* relaxation, default 1 (003 gives none) */
    fl_nsgs_order order;       /* default natural */
    const size_t *ordering;    /* FL_NSGS_ORDER_GIVEN: a permutation of 0..nc-1 */
    fl_nsgs_start start;       /* default zero */
    double random_scale;       /* FL_NSGS_START_RANDOM: range of r_N, default 1 */
    gsl_rng *rng;              /* required for random order / random start */
    fl_residual_norm norm;     /* default FL_RESIDUAL_NORM_Q (Siconos) */
    double time_limit;         /* seconds of wall time from the call, checked after
                                  every sweep; 0 (default): none.  When it runs out
                                  the solve stops with FL_WTIMEOUT and returns the
                                  checked iterate of smallest error (the sparse twin
                                  checks the current one then too) with that error */
    struct {                   /* the optimized twin's own tuning (the reference ignores it) */
        int check_every;       /* full natural-map error at least every
                                  check_every sweeps when the cheap test fails (default
                                  10; 1 = every sweep, the reference's rule: stop at the
                                  first sweep below tol).  optimized/nsgs_sparse.c. */
        int csc;                   /* optimized twin: 1 = the serial sweep on the CSC rows of W
                                      even in 2D, where threads 0 without a cache otherwise
                                      sweeps the 2x2 block layout (default 0; the benches
                                      time both) */
        int threads;               /* optimized twin: 0 = the serial sweep (default); k >= 1 =
                                      the graph-coloured sweep on k OpenMP threads, -1 = on all
                                      cores, at most one per 8192 contacts
                                      (optimized/nsgs_colored.c); the reference ignores it */
        struct fl_nsgs_colored_cache *cache;   /* optimized twin: NULL (default), or the
                                      setup (transpose, colouring, layout) kept for the next
                                      solve with the same pattern of W and order
                                      (optimized/nsgs_colored.h); the reference ignores it */
    } sparse;
    fl_nsgs_callback callback; /* may be NULL */
    void *callback_data;
    int callback_at_checks;    /* 0 (default): the callback after every sweep, whose
                                  error is then computed; 1: only after the sweeps
                                  whose error the twin computes anyway (the reference:
                                  every sweep; the sparse twin: its stopping rule, at
                                  least every sparse.check_every-th sweep and at the
                                  last; the coloured sweep: every sweep), so that
                                  watching costs no product W r */
} fl_nsgs_options;

typedef struct fl_nsgs_result {
    fl_status status;          /* FL_OK, FL_WMAXITER, FL_WTIMEOUT, or an error */
    int iterations;            /* sweeps done */
    double residual;           /* final natural-map error */
    double seconds;            /* wall time of the whole solve */
    double sweep_seconds;      /* wall time spent in sweeps only */
    long local_fallbacks;      /* 3D local solves that needed the projection fallback */
} fl_nsgs_result;

fl_nsgs_options fl_nsgs_options_default(void);

/* Solve the local problem p by nonlinear Gauss–Seidel (003 §3).
 * r (length m): warm start on input if opt->start == FL_NSGS_START_WARM,
 * the impulses on output.  U (length m, may be NULL): U = W r + q on output.
 * Errors: bad problem (fl_local_problem_check), bad options (tol <= 0,
 * omega not in (0,2), missing rng or ordering, non-permutation ordering),
 * dimension mismatch; FL_ENOCONV if the iterates become non-finite.
 * Degenerate problems are refused before any sweep (fl_nsgs_check_blocks).
 * The reference uses p->W; fl_nsgs_solve_sparse (optimized/nsgs_sparse.c)
 * uses p->Ws and gives the same iterates up to rounding. */
fl_status fl_nsgs_solve(const fl_local_problem *p, const fl_nsgs_options *opt,
                        gsl_vector *r, gsl_vector *U, fl_nsgs_result *res, fl_error *err);

/* Refuse, naming the contact, a problem Gauss–Seidel cannot treat
 * (proofs/degenerate-problems.md): a contact whose normal row of W is zero
 * while q_N < 0 (no r gives U_N >= 0: no solution exists; FL_EINVAL), then a
 * zero diagonal block W_aa (the single-contact problem has no unique
 * answer; FL_ESINGULAR).  A singular nonzero W_aa is accepted (rank-deficient
 * systems are solved).  O(nnz).
 * The reference reads p->W; fl_nsgs_check_blocks_sparse (optimized/
 * nsgs_sparse.h) p->Ws, with the same verdicts. */
fl_status fl_nsgs_check_blocks(const fl_local_problem *p, fl_error *err);

/* The single-contact problem of one Gauss–Seidel step (003 §3–5): the
 * reference calls fl_local_contact_solve, the sparse twin
 * fl_local_contact_solve_fast (reference/local_contact.h). */

#endif
