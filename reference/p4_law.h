/* p4_law.h — the generalized friction law P'4 of
 * A. Charles, P. Ballard, "The formulation of dynamical contact problems
 * with friction in the case of systems of rigid bodies and general discrete
 * mechanical systems - Painleve and Kane paradoxes revisited", Z. Angew.
 * Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1 (paper 001),
 * §3-§5, at the level of one time step, with its two
 * implementations: reference/p4_law.c (dense, fl_spd) and
 * optimized/p4_law_sparse.c (CHOLMOD).  Both take the same fl_p4_problem
 * and fill the same fl_p4_step_result, so one harness runs both.
 *
 * Notation (001 §3.1, §5).  n degrees of freedom, m
 * active constraints J(q); D is the m x n matrix whose rows are the
 * covectors dphi_alpha; W = M^-1.
 *   velocity split   v = v_n + v_t,  v_n in span{grad phi_alpha = W dphi_alpha},
 *                    D v_t = 0  (M-orthogonal);
 *   reaction split   r = r_tau + sum_alpha lambda_alpha dphi_alpha (4.1):
 *                    lambda >= 0, D W r_tau <= 0, lambda . D W r_tau = 0
 *                    (Moreau decomposition onto the cone of the dphi_alpha
 *                    in the W metric = NNLS, proofs/p4_law.md §1);
 *   friction sets    C*_alpha in T*_alpha = {f : f.W.dphi_alpha = 0}, given
 *                    in coordinates: C*_alpha = { E_alpha^T c : c in set },
 *                    E_alpha a k x n matrix (k = set.dim = 1 or 2) whose rows
 *                    lie in T*_alpha; dphi-normalised (the lambda of (4.1)
 *                    multiplies C*_alpha, 001 P'4);  0 in C*_alpha required;
 *   support          S_{C*}(v) = S_set(E v) (+inf allowed);
 *   K_frict          { r : r_tau in closure(sum lambda_alpha C*_alpha) }
 *                    (001 §3–§5, by duality; 0 C* = {0}).
 *
 * Sign convention: phi >= 0 admissible, lambda >= 0 compressive.
 *
 * Ownership: a problem only points to caller-owned data.  A step result owns
 * its vectors (fl_p4_step_result_alloc / _free, _free(NULL) is fine).
 */
#ifndef FL_P4_LAW_H
#define FL_P4_LAW_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_dense.h"
#include "fl_friction_set.h"
#include "fl_sparse.h"
#include "fl_status.h"

/* One friction set C*_alpha = E^T set (001 §3.2, §5). */
typedef struct fl_p4_friction {
    fl_friction_set set;     /* coordinates, dim k = 1 or 2; must contain 0 */
    const gsl_matrix *E;     /* k x n, rows in T*_alpha (caller-owned) */
} fl_p4_friction;

/* A step problem at one configuration q (001 P'4).  The reference reads M;
 * the optimized twin reads Ms (symmetric upper CSC, stype > 0) and sctx and
 * never forms a dense n x n object.  Either may be NULL for the other. */
typedef struct fl_p4_problem {
    size_t n, m;
    const gsl_matrix *M;        /* n x n SPD (reference) */
    cholmod_sparse *Ms;         /* the same M, sparse (optimized) */
    fl_sparse_ctx *sctx;        /* CHOLMOD context for Ms (optimized) */
    const gsl_matrix *D;        /* m x n, rows dphi_alpha, alpha in J(q); NULL if m = 0 */
    const fl_p4_friction *C;    /* m friction sets; NULL means C* = {0} (frictionless) */
} fl_p4_problem;

/* Impact law F(q, v^-) delivering the normal part of v^+ only (001 §5). */
typedef enum fl_p4_impact_kind {
    FL_P4_IMPACT_NEWTON = 1,   /* D_alpha F = -e_alpha D_alpha v if D_alpha v < 0, else D_alpha v */
    FL_P4_IMPACT_CUSTOM = 2,   /* user function */
    FL_P4_IMPACT_INELASTIC = 3 /* F = normal part of the M-projection of v onto {D v >= 0}
                                  (Moreau's frictionless inelastic law; consistent for any m,
                                  proofs/p4_law.md §4) */
} fl_p4_impact_kind;

typedef fl_status (*fl_p4_impact_fn)(void *data, const fl_p4_problem *p,
                                     const gsl_vector *v_minus, gsl_vector *F,
                                     fl_error *err);

typedef struct fl_p4_impact_law {
    fl_p4_impact_kind kind;
    double e;                  /* NEWTON: restitution of every constraint ... */
    const double *e_alpha;     /* ... or one per active constraint (m values) */
    fl_p4_impact_fn fn;        /* CUSTOM */
    void *data;
} fl_p4_impact_law;

typedef struct fl_p4_options {
    double tol;           /* relative tolerance of the certificate (1e-12) */
    double impact_tol;    /* D_alpha v^- < -impact_tol |v^-|_M means impact (1e-12) */
    int max_iter;         /* block Gauss–Seidel sweeps, several constraints (10000) */
    int check_impact_law; /* run C1–C4 on every impact (1) */
} fl_p4_options;
fl_p4_options fl_p4_options_default(void);

/* Residuals of the four consistency conditions of 001 §5 (P'4) at (q, v^-). */
typedef struct fl_p4_consistency {
    double c1;   /* |F - (F)_n|_M / scale: F is a normal velocity                  */
    double c2;   /* max_alpha (-<dphi_alpha, F>)_+ / scale: F compatible with phi >= 0 */
    int c2_domain_ok; /* <dphi_alpha,F> = 0 => -F in D(S_{C*_alpha}) (see p4_law.md §4) */
    double c3;   /* W-distance of M(F - v^-_n) to K_frict / scale                  */
    double c4;   /* (|F|_M - |v^-_n|_M)_+ / scale                                   */
    int failed;  /* 0 or the number (1..4) of the first failed condition            */
} fl_p4_consistency;

typedef struct fl_p4_step_result {
    fl_status status;
    int iterations;         /* Gauss–Seidel sweeps of the tangential problem */
    double residual;        /* certificate: max of the normalised defects below */
    double seconds;
    int impact;             /* 1 if the normal part came from the impact law */
    double gap;             /* dissipation gap sum lambda S(-v_t) - <y,-v_t> >= 0 (0 at solution) */
    double normal_residual; /* |D v^+ - target| / scale */
    double split_defect;    /* |cone split multipliers of R - lambda| / scale (0 for m = 1) */
    double energy_minus, energy_free, energy_plus; /* 1/2 |v|_M^2 of v^-, v_free, v^+ */
    size_t n, m;
    gsl_vector *v_plus;     /* n */
    gsl_vector *R;          /* n: reaction impulse M (v^+ - v^- ) - impulse of f */
    gsl_vector *r_tau;      /* n: tangential part of R in the cone split (4.1) */
    gsl_vector *lambda;     /* m: normal multipliers of R (dphi-normalised) */
} fl_p4_step_result;

fl_p4_step_result *fl_p4_step_result_alloc(size_t n, size_t m);
void fl_p4_step_result_free(fl_p4_step_result *r);

/* ---- reference (dense) ---- */

/* Check a problem: dimensions, finiteness, SPD M, independent dphi, every
 * C*_alpha inside T*_alpha (|E W dphi| <= 1e-10 |E|* |dphi|*) and 0 in C*. */
fl_status fl_p4_problem_check(const fl_p4_problem *p, fl_error *err);

/* Velocity split (001 §3.1, P'4): wraps fl_spd_split_velocity. */
fl_status fl_p4_split_velocity(const fl_p4_problem *p, const gsl_vector *v,
                               gsl_vector *vn, gsl_vector *vt, fl_error *err);
/* Reaction split (001 (4.1), P'4): the cone decomposition, NNLS in the W
 * metric.  lambda (m) and r_tau (n) may be NULL. */
fl_status fl_p4_split_reaction(const fl_p4_problem *p, const gsl_vector *r,
                               gsl_vector *lambda, gsl_vector *r_tau, fl_error *err);
/* S_{C*}(v) = S_set(E v) (001 §3.2, §6.2): 1 and *value if finite, 0 if +inf. */
int fl_p4_support(const fl_p4_friction *C, const gsl_vector *v, double *value);
/* W-distance of r to K_frict (001 §4, §5): cone split, then the distance of
 * r_tau to sum lambda_alpha C*_alpha by block Gauss–Seidel.  *dist = 0 iff
 * r in K_frict (up to the iteration tolerance). */
fl_status fl_p4_kfrict_distance(const fl_p4_problem *p, const gsl_vector *r,
                                double *dist, fl_error *err);
/* Newton's law (001 §5 comment 1): F with D_alpha F = -e_alpha D_alpha v for
 * approaching constraints, D_alpha F = D_alpha v otherwise; F normal. */
fl_status fl_p4_impact_newton(const fl_p4_problem *p, const fl_p4_impact_law *law,
                              const gsl_vector *v_minus, gsl_vector *F, fl_error *err);
/* Evaluate the law (Newton or custom) at v^-. */
fl_status fl_p4_impact_eval(const fl_p4_problem *p, const fl_p4_impact_law *law,
                            const gsl_vector *v_minus, gsl_vector *F, fl_error *err);
/* The four consistency conditions of 001 §5 on F = F(q, v^-): FL_OK, or
 * FL_EINVAL with a message naming the first failed condition ("C3: ...").
 * rep may be NULL. */
fl_status fl_p4_impact_check(const fl_p4_problem *p, const gsl_vector *v_minus,
                             const gsl_vector *F, double tol, fl_p4_consistency *rep,
                             fl_error *err);

/* One step of P'4 (001 §3–§5 "one step", proofs/p4_law.md §3):
 *   v_free = v^- + W impulse   (impulse = h f(t, q, v^-): f at v^-, 001 §3)
 *   normal part: impact (some D_alpha v^- < 0): v^+_n = F(q, v_free), checked
 *       against C1–C4; otherwise (persistent contact) the contact condition
 *       D v^+ >= 0, lambda >= 0, lambda.D v^+ = 0 (an LCP with matrix D W D^T);
 *   tangential part: v^+_t = argmin_{v in T} 1/2|v - v_free,t|_M^2
 *       + sum lambda_alpha S_{C*_alpha}(-v); one constraint: R_t is the
 *       W-projection of -M v_free,t onto lambda C*; several: block
 *       Gauss–Seidel on the dual, certificate = dissipation gap.
 * Returns FL_OK, FL_WMAXITER (certificate above tol), or an error. */
fl_status fl_p4_step(const fl_p4_problem *p, const gsl_vector *v_minus,
                     const gsl_vector *impulse, const fl_p4_impact_law *law,
                     const fl_p4_options *opt, fl_p4_step_result *res, fl_error *err);


/* ---- time stepper for systems given by callbacks (reference) ----
 * Moreau's midpoint scheme: q_m = q_k + h/2 v_k; J = {alpha : phi_alpha(q_m) <= 0};
 * one P'4 step at q_m with impulse h f(t_m, q_m, v_k); q_{k+1} = q_m + h/2 v_{k+1}. */
typedef struct fl_p4_system {
    size_t n, nc;     /* dofs, constraints */
    void *data;
    fl_status (*mass)(void *data, const gsl_vector *q, gsl_matrix *M);
    fl_status (*force)(void *data, double t, const gsl_vector *q, const gsl_vector *v,
                       gsl_vector *f);
    fl_status (*gap)(void *data, const gsl_vector *q, gsl_vector *phi);         /* nc */
    fl_status (*gradient)(void *data, const gsl_vector *q, size_t alpha, gsl_vector *dphi);
    /* friction set of constraint alpha at q; E is k x n, allocated by the
     * callback and freed by the stepper (gsl_matrix_free), set released. */
    fl_status (*friction)(void *data, const gsl_vector *q, size_t alpha,
                          fl_friction_set *set, gsl_matrix **E, fl_error *err);
    double restitution;  /* Newton's law, e in [0, 1], for simple impacts; Moreau's
                            inelastic law (FL_P4_IMPACT_INELASTIC) when m > 1 */
} fl_p4_system;

/* Called after every step (may be NULL); return non-zero to stop. */
typedef int (*fl_p4_observer)(void *data, long k, double t, const gsl_vector *q,
                              const gsl_vector *v, const fl_p4_step_result *step);

typedef struct fl_p4_sim_result {
    fl_status status;
    long steps;
    double seconds;
    double max_residual;     /* over all steps */
    double energy_violation; /* max_k of 1/2|v_{k+1}|^2 - 1/2|v_k + h W f_k|^2 in the metric M(q_m)
                                (= - <h f_k, v_k> - h^2/2 |f_k|*^2 + the change; <= 0 by Prop. 5.1) */
} fl_p4_sim_result;

/* q and v (length n) hold the initial state and receive the final one. */
fl_status fl_p4_simulate(const fl_p4_system *sys, double t0, double h, long nsteps,
                         gsl_vector *q, gsl_vector *v, const fl_p4_options *opt,
                         fl_p4_observer obs, void *obs_data, fl_p4_sim_result *res,
                         fl_error *err);

#endif
