/* solve.h — one entry point for the frictional contact solvers of the
 * library: nonlinear Gauss–Seidel (003 §3; reference/nsgs.h) and the
 * semismooth Newton method on the Alart–Curnier function (Alart & Curnier
 * 1991; reference/newton.h), each as the dense reference or the sparse
 * optimized twin, on a local (W, q, mu) or a global (M, H, f, w, mu)
 * problem.
 *
 * FL_SOLVER_AUTO:
 *   local problem:  Gauss–Seidel in chunks of auto_gs_sweeps sweeps (warm
 *                   started), kept while the error's rate over the last chunk
 *                   predicts the tolerance within 4 more chunks in 3D, 20 in
 *                   2D; otherwise Newton, with its own Gauss–Seidel fallback
 *                   on failed steps: in 2D from the Gauss–Seidel iterate
 *                   (plain steps, without the regularisation of newton.h
 *                   (N6), given up at the 2nd failed step in a row), in 3D
 *                   from zero; at most 200 steps; if Newton does not reach
 *                   the tolerance either, the better (smaller error) of the
 *                   Gauss–Seidel iterate at the hand-over and Newton's last
 *                   iterate is kept, and Gauss–Seidel resumes from it for
 *                   the rest of max_sweeps.  When that Gauss–Seidel also
 *                   stops short (the sweeps are spent: Gauss–Seidel and
 *                   Newton both stalled), the proximal-point method
 *                   (FL_SOLVER_PPA) runs from the best iterate met, at most
 *                   max_ppa outer iterations.
 *   global problem: Newton on (v, r) without forming W.
 * The measurements behind these choices (bench/bench_solvers.c) are in
 * doc/solvers-and-benchmarks.md, "How auto chooses".
 * FL_SOLVER_PPA: the proximal-point method with the Newton inner solver
 * (reference/ppa.h; Acary, Brémond & Huber 2018), max_ppa outer iterations.
 * FL_SOLVER_GS and FL_SOLVER_PPA on a global problem forms W = H M^-1 H^T (fl_delassus_types)
 * and recovers v = M^-1 (f + H^T r).
 * The result says which solver finished, why it stopped, and the error in
 * both normalisations of core/fl_residual.h (NORM_Q: FCLIB; MAX_NORM: what
 * Siconos 4.4 reports), recomputed from the returned r independently of the
 * solver's own stopping test.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_SOLVE_H
#define FL_SOLVE_H

#include <gsl/gsl_vector.h>

#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_status.h"
#include "drivers/fl_types.h"

typedef enum fl_solver_kind {
    FL_SOLVER_GS = 0,
    FL_SOLVER_NEWTON = 1,
    FL_SOLVER_AUTO = 2,
    FL_SOLVER_PPA = 3
} fl_solver_kind;
#define FL_SOLVER_COUNT 4

typedef enum fl_solve_stop {
    FL_SOLVE_STOP_TOL = 0,        /* error <= tol */
    FL_SOLVE_STOP_MAXITER = 1,    /* iteration limit */
    FL_SOLVE_STOP_STALLED = 2,    /* Newton: failed steps in a row */
    FL_SOLVE_STOP_ERROR = 3,      /* an error status */
    FL_SOLVE_STOP_TIMEOUT = 4     /* time_limit ran out (FL_WTIMEOUT) */
} fl_solve_stop;

typedef struct fl_solve_options {
    fl_solver_kind solver;    /* default FL_SOLVER_AUTO */
    fl_impl impl;             /* the twins: FL_IMPL_OPTIMIZED (sparse, default) or
                                 FL_IMPL_REFERENCE (dense); fl_nsgs_types, fl_newton_types */
    double tol;               /* default 1e-8 */
    fl_residual_norm norm;    /* the norm of the stopping test, default NORM_Q */
    int max_sweeps;           /* Gauss–Seidel sweeps, default 10000 */
    int max_newton;           /* Newton steps, default 500 */
    int auto_gs_sweeps;       /* AUTO: Gauss–Seidel chunk, default 20 */
    int max_ppa;              /* proximal-point outer iterations (PPA, and AUTO's
                                 hand-over), default 100; 0: AUTO never hands over
                                 (PPA itself needs >= 1) */
    int warm;                 /* 1: r on input is the starting point */
    double time_limit;        /* seconds of wall time for the whole solve, 0 (default):
                                 none.  Each stage (AUTO's Gauss–Seidel chunks, Newton,
                                 the final Gauss–Seidel) gets the time left; when it
                                 runs out the status is FL_WTIMEOUT and r is the best
                                 iterate found (AUTO: the better of the Gauss–Seidel and
                                 the Newton iterates), residual its error */
    int threads;              /* Gauss–Seidel sweeps of the optimized twin (GS, AUTO's
                                 chunks): fl_nsgs_options.sparse.threads; 0 (default) the
                                 serial sweep, k >= 1 the graph-coloured sweep on k
                                 threads, -1 on all cores, at most one per 8192 contacts
                                 (doc/parallel.md); the reference ignores it */
} fl_solve_options;

typedef struct fl_solve_result {
    fl_status status;             /* FL_OK, FL_WMAXITER, FL_WTIMEOUT, or an error */
    fl_solver_kind finished_by;   /* GS, NEWTON or PPA */
    fl_solve_stop stop;
    int gs_sweeps;                /* total Gauss–Seidel sweeps (incl. Newton fallback) */
    int newton_steps;             /* total Newton steps (incl. the proximal-point
                                     method's inner steps) */
    int ppa_outer;                /* proximal-point outer iterations */
    double residual;              /* error in opt->norm */
    double residual_norm_q;       /* FL_RESIDUAL_NORM_Q */
    double residual_max_norm;     /* FL_RESIDUAL_MAX_NORM */
    double seconds;
} fl_solve_result;

fl_solve_options fl_solve_options_default(void);

/* "gs", "newton", "auto", "ppa"; *out unchanged and FL_ENOTFOUND on another name. */
fl_status fl_solve_parse_solver(const char *name, fl_solver_kind *out, fl_error *err);
const char *fl_solve_solver_name(fl_solver_kind k);
const char *fl_solve_stop_name(fl_solve_stop s);

/* Local problem: the reference twins use p->W, the optimized p->Ws.
 * A degenerate problem (fl_nsgs_check_blocks: a zero normal row with
 * q_N < 0, a zero diagonal block) is refused before any
 * iteration, by every solver, with a message naming the contact.
 * r (length m): start if opt->warm, solution on output; U (may be NULL). */
fl_status fl_solve_local(const fl_local_problem *p, const fl_solve_options *opt,
                         gsl_vector *r, gsl_vector *U, fl_solve_result *res, fl_error *err);

/* Global problem: the reference uses g->M, g->H, the optimized g->Ms, g->Hs.
 * v (length n, may be NULL), r (length m), U (length m, may be NULL). */
fl_status fl_solve_global(const fl_global_problem *g, const fl_solve_options *opt,
                          gsl_vector *v, gsl_vector *r, gsl_vector *U, fl_solve_result *res,
                          fl_error *err);

#endif
