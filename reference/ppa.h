/* ppa.h — proximal-point method for the frictional contact problem in
 * local form (U = W r + q, Coulomb's law per contact, fl_problem.h), with
 * the semismooth Newton method of reference/newton.h as the inner solver:
 * V. Acary, M. Brémond, O. Huber, "On solving contact problems with Coulomb
 * friction: formulations and numerical comparisons", in Advanced Topics in
 * Nonsmooth Dynamics, Springer 2018, pp. 375–457 (the proximal-point
 * method with a Newton inner solver), in the form and with the default
 * parameter rule of Siconos numerics' FC3D_PROX.  Reference twin (dense W,
 * inner fl_newton_solve): reference/ppa.c; optimized twin (sparse W, inner
 * fl_newton_solve_sparse): optimized/ppa_sparse.h.  Derivation, what is
 * proved and what is only measured: proofs/ppa.md.
 *
 * Outer iteration (proofs/ppa.md (P1)): r^{k+1} solves the frictional
 * contact problem with the regularised data
 *   W_k = W + eta_k I,    q_k = q - eta_k r^k,
 * i.e. U_k = W r + q + eta_k (r - r^k): the Coulomb law with the velocity
 * shifted by the proximal term.  A fixed point r^{k+1} = r^k solves the
 * original problem (P2).  Each subproblem is solved by the Newton twin
 * warm-started at r^k, to the absolute natural-map error
 *   tol_in = max(e_abs,k / inner_ratio, tol e_abs,k / e_k)           (P4)
 * (e_k the error of r^k in opt->norm, e_abs,k the same unnormalised: the
 * inner tolerance follows the outer error down to the outer tolerance).
 * A subproblem Newton leaves above tol_in goes to the Gauss–Seidel twin of
 * the same storage on W_k, from Newton's iterate, to the same tol_in (P5);
 * only if that fails too is it unsolved.  After polish_after outer
 * iterations without the outer error halving, one outer iteration is the
 * limit eta = 0: Newton on the original problem from r^k, kept if better
 * (P7).
 *
 * Proximal weight (P3): eta_0 = s_W sigma e_0^nu, s_W = the mean diagonal
 * entry of W (so that the rule is invariant under W -> c W, q -> c q);
 * after a subproblem solved to tol_in, eta_{k+1} = min(s_W sigma
 * e_{k+1}^nu, eta_k / shrink); after a subproblem the Newton twin did not
 * solve, eta_{k+1} = fail_factor eta_k (and the outer iterate is kept
 * unless its error decreased).  The first term is Siconos FC3D_PROX's
 * rule, the shrink and growth factors those of its regularisation
 * strategy.  eta_fixed > 0:
 * eta_k = s_W eta_fixed throughout (the classical proximal-point method
 * with a constant weight, the monotone-case theorem of proofs/ppa.md).
 *
 * Stopping: the natural-map error of the ORIGINAL problem
 * (core/fl_residual.h, opt->norm) <= tol, evaluated at every outer iterate.
 */
#ifndef FL_PPA_H
#define FL_PPA_H

#include <stddef.h>
#include <gsl/gsl_vector.h>

#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_status.h"

typedef enum fl_ppa_start {
    FL_PPA_START_ZERO = 0,   /* r = 0 */
    FL_PPA_START_WARM = 1    /* the r passed in (projected on the cones) */
} fl_ppa_start;

/* Why the iteration stopped (fl_ppa_result.stop). */
typedef enum fl_ppa_stop {
    FL_PPA_STOP_TOL = 0,        /* natural-map error of the original problem <= tol */
    FL_PPA_STOP_MAXITER = 1,    /* max_outer outer iterations done */
    FL_PPA_STOP_ERROR = 2,      /* an error status was returned */
    FL_PPA_STOP_TIMEOUT = 3     /* time_limit ran out (FL_WTIMEOUT) */
} fl_ppa_stop;

/* What one outer iteration did (fl_ppa_options.on_outer). */
typedef struct fl_ppa_step {
    int k;                  /* outer iteration, from 0 */
    double eta;             /* the weight of this subproblem; 0: a polishing
                               Newton run on the original problem (P7) */
    double tol_in;          /* its absolute inner tolerance (P4) */
    fl_status inner_status; /* the inner status: Newton's, or that of the
                               Gauss–Seidel run after it (inner_gs_sweeps) */
    int inner_steps;        /* its Newton steps */
    int inner_sweeps;       /* its Gauss–Seidel sweeps (Newton's fallback and
                               inner_gs_sweeps) */
    int gs_solved;          /* Gauss–Seidel solved it after Newton did not */
    double e_before, e_after;   /* outer error (opt->norm) of r^k and of the
                                   iterate kept (INFINITY if none) */
    int solved;             /* the subproblem counted as solved (P3) */
    double seconds;         /* wall time of this outer iteration */
} fl_ppa_step;

typedef struct fl_ppa_options {
    int max_outer;          /* outer (proximal) iterations, default 100 */
    double tol;             /* natural-map error target, default 1e-10 */
    fl_residual_norm norm;  /* default FL_RESIDUAL_NORM_Q */
    fl_ppa_start start;     /* default zero */
    double sigma;           /* eta = s_W sigma e^nu (P3), default 5 (Siconos FC3D_PROX) */
    double nu;              /* default 1 (Siconos FC3D_PROX) */
    double eta_fixed;       /* > 0: eta = s_W eta_fixed always; 0 (default): adaptive */
    double fail_factor;     /* eta x this after an unsolved subproblem, default 10, > 1 */
    double shrink;          /* after a solved subproblem eta is also at most the
                               previous eta / shrink (P3), default 10, >= 1 (1: the
                               rule s_W sigma e^nu alone) */
    double inner_ratio;     /* tol_in = e_abs / inner_ratio (P4), default 10, >= 1 */
    int inner_max_iterations;   /* Newton steps per subproblem, default 50 */
    int inner_stall_steps;  /* the subproblem fails as soon as its Newton error has
                               not fallen by the factor 0.8 in this many steps
                               (fl_newton_options.stall_steps); 0 (default):
                               only inner_max_iterations ends it (measured: the
                               test cut the long Newton runs that made the
                               progress; doc/solvers-and-benchmarks.md) */
    int inner_gs_sweeps;    /* a subproblem Newton did not solve gets up to this
                               many Gauss–Seidel sweeps on W + eta I (from Newton's
                               iterate, to the same tolerance) before it counts as
                               unsolved (P5), default 3000; 0: none */
    int polish_after;       /* (P7): after this many outer iterations without the
                               outer error halving (since the last halving, the
                               start or the last polish), the next outer iteration
                               is the limit eta = 0: Newton on the original problem
                               from r^k, to tol, at most polish_steps steps; its
                               iterate is kept if better, eta is unchanged.
                               Default 5; 0: never */
    int polish_steps;       /* default 200 */
    double time_limit;      /* seconds of wall time from the call, checked before
                               every outer iteration and handed (what is left) to
                               the inner solver; 0 (default): none.  When it runs
                               out the solve stops with FL_WTIMEOUT and returns
                               the iterate of smallest error met (the start
                               included), with that error */
    /* may be NULL: called after every outer iteration with what it decided
     * (a test hook, as fl_newton_options.ls_trial: the decisions, not only
     * the answer; bench/hard_problems --trace prints them) */
    void (*on_outer)(void *data, const fl_ppa_step *step);
    void *on_outer_data;
} fl_ppa_options;

typedef struct fl_ppa_result {
    fl_status status;           /* FL_OK, FL_WMAXITER, FL_WTIMEOUT, or an error */
    fl_ppa_stop stop;           /* why it stopped */
    int outer;                  /* outer iterations (subproblems) */
    int inner;                  /* Newton steps, all subproblems */
    int gs_sweeps;              /* Gauss–Seidel sweeps of the Newton fallback */
    int inner_failures;         /* subproblems the Newton twin did not solve */
    int polishes;               /* outer iterations that were Newton on the
                                   original problem (P7), counted in outer */
    double eta;                 /* the last proximal weight used */
    double residual;            /* final natural-map error (opt->norm) */
    double seconds;             /* wall time */
} fl_ppa_result;

fl_ppa_options fl_ppa_options_default(void);

/* Local problem, dense W (p->W).  r (length m): warm start on input if
 * opt->start == FL_PPA_START_WARM, the impulses on output; U (length m,
 * may be NULL): W r + q on output.  NULL options: the defaults.  Errors:
 * bad problem (fl_local_problem_check), bad options (the field named),
 * no dense W, dimension mismatch, non-finite warm start. */
fl_status fl_ppa_solve(const fl_local_problem *p, const fl_ppa_options *opt, gsl_vector *r,
                       gsl_vector *U, fl_ppa_result *res, fl_error *err);

#endif
