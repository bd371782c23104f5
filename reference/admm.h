/* admm.h — the alternating direction method of multipliers (ADMM) for the
 * frictional contact problem in local form (U = W r + q, Coulomb's law per
 * contact, fl_problem.h), in the De Saxcé form of
 * V. Acary, M. Brémond, O. Huber, "On solving contact problems with Coulomb
 * friction: formulations and numerical comparisons", in Advanced Topics in
 * Nonsmooth Dynamics, Springer 2018, pp. 375–457 (the ADMM of their
 * optimisation-based solvers), with the parameter rules of Siconos numerics'
 * FC3D_ADMM.  Reference twin (dense W, GSL Cholesky of W + rho I):
 * reference/admm.c; optimized twin (sparse W, CHOLMOD): optimized/admm_sparse.h.
 * Derivation, what is proved and what is only measured: proofs/admm.md.
 *
 * The iteration (proofs/admm.md (A1)–(A3)), in the scaled form of
 * S. Boyd et al., "Distributed optimization and statistical learning via the
 * alternating direction method of multipliers", Found. Trends Mach. Learn.
 * 3(1), 2011, §3.1.1, on the split r = z of
 *   min 1/2 r.W r + (q + s).r + I_K(z),   s = (mu_a |U_T,a|, 0...)_a:
 *   s    = De Saxcé's shift at the last iterate z^k, U = W z^k + q   (A1)
 *   r    : (W + rho I) r = rho (ẑ - ξ̂) - q - s
 *   z    = P_K(r + ξ̂)              (projection on the Coulomb cones)
 *   ξ    = ξ̂ + r - z               (the scaled multiplier)
 * with ẑ = z^k, ξ̂ = ξ^k, or their accelerated values (A2): T. Goldstein,
 * B. O'Donoghue, S. Setzer, R. Baraniuk, "Fast alternating direction
 * optimization methods", SIAM J. Imaging Sci. 7(3), 2014, Algorithm 8 (fast
 * ADMM with restart; combined residual c = |r - z|^2 + rho^2 |z - ẑ|^2,
 * restart factor restart_eta).  W enters by its symmetric part
 * (W + W^T)/2 + rho I, factorised once per value of rho; a nonsymmetric W
 * (beyond FL_SYMMETRY_RTOL) is refused.
 *
 * rho (A3): rho_0 = opt->rho, or ||W||_1 (the largest column sum of |W|,
 * Siconos FC3D_ADMM's default rule; 1 when W = 0) when opt->rho == 0; with
 * adapt, Boyd et al. §3.4.1 residual balancing: rho x balance_tau when
 * |r - z| > balance_phi rho |z - ẑ|, rho / balance_tau when
 * rho |z - ẑ| > balance_phi |r - z|, the scaled multiplier rescaled by the
 * ratio (xi = y / rho), and W + rho I refactorised only then.
 *
 * Stopping: the natural-map error of the ORIGINAL problem
 * (core/fl_residual.h, opt->norm) at the iterate z (on the cones) with
 * U = W z + q, evaluated at every iteration, <= tol.  Otherwise the iterate
 * of smallest error met is returned, with that error.
 */
#ifndef FL_ADMM_H
#define FL_ADMM_H

#include <stddef.h>
#include <gsl/gsl_vector.h>

#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_status.h"

typedef enum fl_admm_start {
    FL_ADMM_START_ZERO = 0,   /* r = 0 */
    FL_ADMM_START_WARM = 1    /* the r passed in (projected on the cones) */
} fl_admm_start;

/* Why the iteration stopped (fl_admm_result.stop). */
typedef enum fl_admm_stop {
    FL_ADMM_STOP_TOL = 0,        /* natural-map error of the original problem <= tol */
    FL_ADMM_STOP_MAXITER = 1,    /* max_iterations done */
    FL_ADMM_STOP_ERROR = 2,      /* an error status was returned */
    FL_ADMM_STOP_TIMEOUT = 3     /* time_limit ran out (FL_WTIMEOUT) */
} fl_admm_stop;

typedef struct fl_admm_options {
    int max_iterations;     /* default 20000 (Siconos FC3D_ADMM) */
    double tol;             /* natural-map error target, default 1e-10 */
    fl_residual_norm norm;  /* default FL_RESIDUAL_NORM_Q */
    fl_admm_start start;    /* default zero */
    double rho;             /* initial rho > 0; 0 (default): ||W||_1 (A3) */
    int adapt;              /* 1 (default): residual balancing (A3); 0: rho constant */
    double balance_tau;     /* rho factor, default 2, > 1 */
    double balance_phi;     /* residual ratio that triggers it, default 10, > 1 */
    int accelerate;         /* 1 (default): Goldstein et al. Algorithm 8 (A2); 0: plain */
    double restart_eta;     /* restart when c_k >= restart_eta c_{k-1}; default
                               0.999, in (0, 1) */
    double time_limit;      /* seconds of wall time from the call, checked at every
                               iteration; 0 (default): none.  When it runs out the
                               solve stops with FL_WTIMEOUT and returns the iterate
                               of smallest error met, with that error */
} fl_admm_options;

typedef struct fl_admm_result {
    fl_status status;           /* FL_OK, FL_WMAXITER, FL_WTIMEOUT, or an error */
    fl_admm_stop stop;          /* why it stopped */
    int iterations;             /* ADMM iterations (linear solves) */
    int factorizations;         /* numeric factorisations of W + rho I */
    int restarts;               /* acceleration restarts (A2) */
    double rho;                 /* the last rho */
    double residual;            /* final natural-map error (opt->norm) */
    double seconds;             /* wall time */
} fl_admm_result;

fl_admm_options fl_admm_options_default(void);

/* Local problem, dense W (p->W).  r (length m): warm start on input if
 * opt->start == FL_ADMM_START_WARM, the impulses on output; U (length m,
 * may be NULL): W r + q on output.  NULL options: the defaults.  Errors:
 * bad problem (fl_local_problem_check), W not symmetric within
 * FL_SYMMETRY_RTOL, W + rho I not positive definite (FL_ENOTSPD: W is not
 * positive semidefinite), bad options (the field named), no dense W,
 * dimension mismatch, non-finite warm start. */
fl_status fl_admm_solve(const fl_local_problem *p, const fl_admm_options *opt, gsl_vector *r,
                        gsl_vector *U, fl_admm_result *res, fl_error *err);

#endif
