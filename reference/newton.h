/* newton.h — semismooth Newton method on the Alart–Curnier function for
 * frictional contact (P. Alart and A. Curnier, "A mixed formulation for
 * frictional contact problems prone to Newton like solution methods",
 * Comput. Methods Appl. Mech. Engrg. 92 (1991) 353–375, §3; the form used by
 * Siconos numerics' NSN_AC solver), reference (dense W or dense M, H, GSL LU:
 * reference/newton.c) and optimized (sparse, UMFPACK LU of the generalized
 * Jacobian with the symbolic analysis computed once: optimized/newton_sparse.c,
 * declared in optimized/newton_sparse.h).  Derivation: proofs/newton.md.
 *
 * Library convention (fl_problem.h): r_N >= 0 compressive, U_N >= 0
 * separating.  Per contact a, with a scalar rho_a > 0,
 *   y   = r_a - rho_a U_a,                         (y_N, y_T)
 *   Phi_N = r_N - max(0, y_N),
 *   Phi_T = r_T - P_{D(mu max(0, y_N))}(y_T),      (projection on the disc,
 *                                                   interval in dim 2)
 * proofs/newton.md (N1).  Phi(r) = 0 iff (r, U) satisfies Coulomb's law.
 * Local problem: U = W r + q and the generalized Jacobian is
 *   J = I - D + rho D W   (D block diagonal, D_a = dP/dy at y_a),   (N3)
 * W need not be symmetric.  Global problem (M v = f + H^T r, U = H v + w,
 * without forming W): Newton on (v, r) with the linear block
 *   [ M        -H^T  ] [dv]     [ M v - f - H^T r ]
 *   [ rho D H   I - D] [dr] = - [ Phi             ]                  (N4)
 * v is initialised to M^-1 (f + H^T r), so the first row stays satisfied.
 *
 * Globalisation: Armijo backtracking on the merit psi = |Phi|^2 / 2 along
 * the Newton direction d (J d = -Phi, so psi'(r; d) = -2 psi):
 *   accept t when psi(r + t d) <= (1 - 2 sigma t) psi(r),  t = 1, 1/2, ...
 *   (N5).  The r-block of J carries a regularisation lambda I (N6):
 *     lambda_k = nu_k min(reg_max, e_k),   e_k the natural-map error,
 *   nu_k = 1 at the start, x10 after a failed step (at most 1e6), /10 (at
 *   least 1) after a full step t = 1 (the Levenberg–Marquardt update of
 *   the damping; proofs/newton.md (N6)).  Without it the Newton direction is
 *   useless where W is rank-deficient and most contacts stick (J = rho W on
 *   those rows; BoxesStack1, Capsules of the corpus: accepted steps t ~ 1e-6),
 *   with it both converge in a few dozen steps; lambda -> 0 with e keeps the
 *   fast local convergence.  reg_max = 0 gives the plain Newton step.
 *   A singular J is retried once with 1e-10 more on that diagonal (counted
 *   in regularized).  When no t >= 2^-ls_max is accepted, or the
 *   linear solve still fails, the step "fails": on a local problem Gauss–Seidel
 *   (reference/nsgs.h, same twin) runs gs_sweeps sweeps from the current r
 *   and Newton resumes from its iterate; on a global problem the step with
 *   the smallest tried t is taken (the merit may increase; counted in
 *   line_search_failures).
 *
 * Stopping: the natural-map error of core/fl_residual.h (opt->norm) <= tol,
 * evaluated at every iterate (O(nnz) per evaluation).  rho_a = dim /
 * trace(W_aa) (local), with W_aa replaced by H_a diag(M)^-1 H_a^T on a
 * global problem (no W is formed).
 */
#ifndef FL_NEWTON_H
#define FL_NEWTON_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_status.h"

typedef enum fl_newton_start {
    FL_NEWTON_START_ZERO = 0,   /* r = 0 */
    FL_NEWTON_START_WARM = 1    /* the r passed in (projected on the cones) */
} fl_newton_start;

/* Why the iteration stopped (fl_newton_result.stop). */
typedef enum fl_newton_stop {
    FL_NEWTON_STOP_TOL = 0,         /* natural-map error <= tol */
    FL_NEWTON_STOP_MAXITER = 1,     /* max_iterations Newton steps done */
    FL_NEWTON_STOP_STALLED = 2,     /* max_fallbacks failed steps in a row, or the
                                       error stalled (stall_steps) */
    FL_NEWTON_STOP_ERROR = 3,       /* an error status was returned */
    FL_NEWTON_STOP_TIMEOUT = 4      /* time_limit ran out (FL_WTIMEOUT) */
} fl_newton_stop;

typedef struct fl_newton_options {
    int max_iterations;     /* Newton steps, default 200 */
    double tol;             /* natural-map error target, default 1e-10 */
    fl_residual_norm norm;  /* default FL_RESIDUAL_NORM_Q */
    fl_newton_start start;  /* default zero */
    double ls_sigma;        /* Armijo constant, default 1e-4, in (0, 1/2) */
    int ls_max;             /* halvings of t before the step fails, default 20 */
    int gs_sweeps;          /* Gauss–Seidel sweeps per failed step, default 20 */
    int max_fallbacks;      /* failed steps in a row before giving up, default 50 */
    int stall_steps;        /* > 0: stop (FL_NEWTON_STOP_STALLED, FL_WMAXITER) when
                               stall_steps steps pass without the error falling
                               below stall_ratio times its value at the last such
                               fall (the start counts as one); 0 (default): never.
                               The cheap failure test of a proximal subproblem
                               (reference/ppa.h) */
    double stall_ratio;     /* default 0.8, in (0, 1) */
    double rho;             /* > 0: the same rho for every contact; 0 (default):
                               rho_a = dim / trace(W_aa) (see above) */
    double reg_max;         /* cap of the regularisation lambda_k (N6), default
                               0.1; 0: none */
    double time_limit;      /* seconds of wall time from the call, checked before
                               every step; 0 (default): none.  When it runs out
                               the solve stops with FL_WTIMEOUT and returns the
                               iterate of smallest error met (the start included),
                               with that error; a Gauss–Seidel fallback gets the
                               time left */
    /* may be NULL: called with every step length t the line search tries,
     * in order (a test hook: the decisions, not only the answer) */
    void (*ls_trial)(void *data, double t);
    void *ls_trial_data;
} fl_newton_options;

typedef struct fl_newton_result {
    fl_status status;           /* FL_OK, FL_WMAXITER, FL_WTIMEOUT, or an error */
    fl_newton_stop stop;        /* why it stopped */
    int iterations;             /* Newton steps taken */
    int gs_sweeps;              /* Gauss–Seidel sweeps run by the fallback */
    int line_search_failures;   /* failed steps (line search or singular J) */
    int regularized;            /* steps where J was singular and J + 1e-10 I_r was used */
    double residual;            /* final natural-map error (opt->norm) */
    double seconds;             /* wall time */
} fl_newton_result;

fl_newton_options fl_newton_options_default(void);

/* Local problem (U = W r + q), dense W (p->W), GSL LU.  r (length m): warm
 * start on input if opt->start == FL_NEWTON_START_WARM, the impulses on
 * output; U (length m, may be NULL): W r + q on output.  Errors: bad problem
 * (fl_local_problem_check), bad options, dimension mismatch, non-finite
 * warm start. */
fl_status fl_newton_solve(const fl_local_problem *p, const fl_newton_options *opt,
                          gsl_vector *r, gsl_vector *U, fl_newton_result *res, fl_error *err);

/* Global problem (M v = f + H^T r, U = H v + w) with dense g->M (SPD) and
 * g->H, without forming W: Newton on (v, r), system (N4) by GSL LU.
 * v (length n, may be NULL), r (length m; warm start as above), U (length m,
 * may be NULL) on output.  The error is normalised with
 * q = H M^-1 f + w (the q of the equivalent local problem, fl_residual.h). */
fl_status fl_newton_global_solve(const fl_global_problem *g, const fl_newton_options *opt,
                                 gsl_vector *v, gsl_vector *r, gsl_vector *U,
                                 fl_newton_result *res, fl_error *err);

/* --- the Alart–Curnier function of one contact (proofs/newton.md) --- */

/* The Alart–Curnier function of one contact and its block D of the
 * generalized Jacobian ((N1)–(N2)): fl_local_contact_alart_curnier
 * (reference/local_contact.h). */

#endif
