/* midpoint.h — the midpoint scheme for elastodynamic contact with Coulomb
 * friction (002 (20)-(22)), with the contact and friction conditions at the
 * mid-step, and the "implicit contact forces" variant of 002 §7 (fourth
 * situation); energy (19) and friction work xi_l (002 §7).
 *
 * The semi-discrete system (002 (5)/(7)):
 *     M_r u'' + A u = f + B_nu^T lambda_nu + B_tau^T lambda_tau
 * with n dofs, nc contact nodes, rows nu_i, tau_i orthonormal (002 (4)).
 *
 * Sign convention.  002 writes nu_i^T u <= 0 and lambda_nu <= 0.  The library
 * (README.md) uses gap >= 0 and compressive reaction >= 0.  At this module's
 * boundary:
 *     gap_i = -nu_i^T u,   r_n,i = -lambda_nu,i >= 0,   r_t,i = lambda_tau,i,
 * i.e. the contact force on the body is  -r_n,i nu_i + r_t,i tau_i.  States
 * and results carry (r_n, r_t); the formulas inside midpoint.c are the
 * paper's, with lambda = (-r_n, r_t).  The foundation may slide along tau_i
 * with velocity v_found (002 §7: 20 m/s); the slip velocity is then
 * tau_i^T u' - v_found [SUGGESTED in 002 §2–4, §6; 002 does not print it].
 *
 * One step.  With S = (4/dt^2) M_r + A (SPD since A is), 002 (22)-(23):
 *     S u^{k+1/2} = fhat + H^T y,  fhat = f + (4/dt^2) M_r u^k + (2/dt) M_r v^k,
 * H the 2nc x n matrix of rows (-nu_i, tau_i) and y = (r_n,1, r_t,1, ...).
 * Condensed on the contacts: w = D y + q with the Delassus matrix
 * D = H S^-1 H^T (SPD, 2nc x 2nc) and, for contact i,
 *     w_n,i = gap at the point where contact is imposed (>= 0, _|_ r_n,i >= 0),
 *     w_t,i = a positive multiple of the slip velocity:  r_t,i in -F r_n,i Sgn(w_t,i).
 * Midpoint (002 (21)):  w_n = H_n u^{k+1/2},  w_t = H_t (u^{k+1/2} - u^k) - dt v_found / 2.
 * Implicit contact forces [SUGGESTED reading of 002 §7, refs (5, 6)]: the
 * force of step k+1 enters the mid-step equation and the conditions hold at
 * t_{k+1}: w_n = gap^{k+1}/2 = H_n u^{k+1/2} - H_n u^k / 2,
 *     w_t = (dt/4)(tau^T v^{k+1} - v_found) = H_t (u^{k+1/2} - u^k) - (dt/4)(H_t v^k + v_found).
 * Then u^{k+1} = 2 u^{k+1/2} - u^k, v^{k+1} = 2 v^{k+1/2} - v^k with
 * v^{k+1/2} = (2/dt)(u^{k+1/2} - u^k) (002 (20), (22)).
 *
 * Ownership: the stepper keeps pointers to the problem's matrices (the
 * caller keeps them alive); states and steppers are freed by their _free.
 *
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_MIDPOINT_H
#define FL_MIDPOINT_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <cholmod.h>

#include "fl_status.h"
#include "fe2d.h"
#include "redistribution.h"

typedef enum fl_midpoint_contact {
    FL_MIDPOINT_AT_MIDPOINT = 0,   /* 002 (21): conditions at k+1/2 */
    FL_MIDPOINT_IMPLICIT = 1       /* 002 §7 fourth situation: forces and conditions at k+1 */
} fl_midpoint_contact;

typedef enum fl_midpoint_local {
    FL_MIDPOINT_LOCAL_GS = 0,      /* block Gauss-Seidel over contacts, exact 2x2 blocks */
    FL_MIDPOINT_LOCAL_ENUM = 1     /* enumeration of 4^nc contact states (exhaustive enumeration, proofs/contact_dynamics.md) */
} fl_midpoint_local;

typedef struct fl_midpoint_options {
    double dt;                     /* time step > 0 */
    fl_midpoint_contact contact;
    fl_midpoint_local solver;
    double tol;                    /* GS: relative change of y per sweep */
    int max_iter;                  /* GS sweeps */
    size_t enum_max_contacts;      /* enumeration refuses larger problems */
} fl_midpoint_options;

fl_midpoint_options fl_midpoint_options_default(void);

/* The semi-discrete problem.  Dense fields for the reference, sparse ones
 * for optimized/midpoint_sparse.c; a problem may carry both (the
 * crosscheck harness does).  Sparse M_r is in the low-rank form of
 * reference/redistribution.h: M_r = Mr0 + U K U^T (U, K may be NULL). */
typedef struct fl_midpoint_problem {
    size_t n, nc;
    double mu;                     /* friction coefficient F >= 0 */
    double v_found;                /* velocity of the foundation along tau_i */
    const gsl_vector *f;           /* constant load, n */
    const gsl_matrix *Bnu, *Btau;  /* nc x n, dense rows (both implementations) */
    /* dense (reference) */
    const gsl_matrix *Mr, *A;      /* n x n */
    /* sparse (optimized), symmetric upper storage */
    cholmod_sparse *Mr0_s, *A_s;
    const gsl_matrix *U, *K;       /* n x k and k x k, or NULL */
    cholmod_sparse *Bnu_s, *Btau_s;/* nc x n (sparse twin; dense rows used if NULL) */
} fl_midpoint_problem;

/* State at t_k: displacement, velocity, last contact forces (library
 * convention, y[2i] = r_n,i, y[2i+1] = r_t,i). */
typedef struct fl_midpoint_state {
    size_t n, nc;
    double t;
    gsl_vector *u, *v, *y;
} fl_midpoint_state;

fl_status fl_midpoint_state_alloc(size_t n, size_t nc, fl_midpoint_state **out, fl_error *err);
void fl_midpoint_state_free(fl_midpoint_state *st);

/* Result of one step. */
typedef struct fl_midpoint_result {
    fl_status status;
    int iterations;                /* GS sweeps, or 4^nc systems for ENUM */
    double residual;               /* natural-map residual of the step problem (see below) */
    double seconds;
    size_t nsolutions;             /* distinct solutions found (ENUM); 1 for GS */
    double energy;                 /* E(t_{k+1}), 002 (19) */
    double work_normal;            /* lambda_nu^T B_nu (u^{k+1} - u^k) */
    double work_friction;          /* dt sum_i lambda_tau,i tau_i^T v^{k+1/2}: increment of xi (002 §7) */
    double persistency;            /* sum_i |lambda_nu,i nu_i^T v^{k+1/2}| (002 §5) */
} fl_midpoint_result;

/* 002 (19): E = 1/2 v^T M_r v + 1/2 u^T A u - u^T f (dense). */
double fl_midpoint_energy(const fl_midpoint_problem *p, const gsl_vector *u, const gsl_vector *v);

/* ---- The condensed step problem w = D y + q (library convention) ---- */

/* Natural-map residual, max over contacts of
 *   |r_n - max(0, r_n - w_n)|  and  |r_t - proj_[-F r_n, F r_n](r_t - w_t)|,
 * divided by (max|q| + max|D| max|y| + 1e-300).  Zero iff y solves. */
double fl_midpoint_local_residual(const gsl_matrix *D, const gsl_vector *q, double mu,
                                  const gsl_vector *y);

/* All solutions by enumeration of the 4^nc states {open, stick, slide+,
 * slide-} (exhaustive enumeration, proofs/contact_dynamics.md): one linear system each, inequalities checked
 * with a relative tolerance 1e-9, duplicates merged.  Solutions go to the
 * rows of sols (at most sols->size1 kept; *nsol counts all distinct ones).
 * Singular state systems (e.g. F = c/b in 002 §6, a continuum) are
 * skipped.  FL_EINVAL if nc > 8. */
fl_status fl_midpoint_local_enumerate(const gsl_matrix *D, const gsl_vector *q, double mu,
                                      gsl_matrix *sols, size_t *nsol, fl_error *err);

/* Block Gauss-Seidel: each contact's 2x2 problem solved exactly (all its
 * solutions by the four cases; the one closest to the current iterate is
 * kept), y warm-starts and returns the iterate.  FL_WMAXITER if not
 * converged. */
fl_status fl_midpoint_local_gs(const gsl_matrix *D, const gsl_vector *q, double mu,
                               double tol, int max_iter, gsl_vector *y, int *iterations,
                               fl_error *err);

/* ---- Reference stepper (dense) ---- */
typedef struct fl_midpoint {
    const fl_midpoint_problem *p;
    fl_midpoint_options opt;
    gsl_matrix *S;                 /* Cholesky factor of (4/dt^2) M_r + A */
    gsl_matrix *H;                 /* 2nc x n */
    gsl_matrix *Z;                 /* S^-1 H^T, n x 2nc */
    gsl_matrix *D;                 /* H Z */
    gsl_vector *fhat, *z, *q, *uh, *w1, *w2;
    gsl_matrix *sols;              /* ENUM: solutions of the last step (rows) */
    size_t nsols;
} fl_midpoint;

/* Checks shared by the dense and the sparse stepper: sizes (n >= 2 nc >= 2),
 * dt > 0, mu >= 0, v_found finite, known contact placement and local solver,
 * enumeration limit.  The representation-specific checks (dense or sparse
 * matrices) stay with each stepper. */
fl_status fl_midpoint_check_options(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                                    fl_error *err);

fl_status fl_midpoint_alloc(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                            fl_midpoint **out, fl_error *err);
/* Advance st from t_k to t_{k+1}; res may be NULL. */
fl_status fl_midpoint_step(fl_midpoint *mp, fl_midpoint_state *st, fl_midpoint_result *res,
                           fl_error *err);
void fl_midpoint_free(fl_midpoint *mp);

/* u^{k+1/2} for a contact-force vector y, using the last step's data
 * (the fhat of the last call to fl_midpoint_step).  For 002 §6 checks. */
fl_status fl_midpoint_half_step(const fl_midpoint *mp, const gsl_vector *y, gsl_vector *uh);

/* Static frictionless contact (used for initial states): minimise
 * 1/2 u^T A u - f^T u under nu_i^T u <= 0 (dense A of p).  Solved on the
 * contact Delassus H A^-1 H^T by block Gauss-Seidel with F = 0. */
fl_status fl_midpoint_static(const fl_midpoint_problem *p, gsl_vector *u, fl_error *err);

/* ---- An FE block on a rigid foundation (002 §7 setting) ----
 * Rectangle [0,lx]x[0,ly], nx x ny cells; Dirichlet u = (top_ux, top_uy)
 * on y = ly; contact with a rigid foundation on y = 0 (outward normal
 * (0,-1), tau = (1,0)); body force (0, -rho g); foundation velocity v_found
 * along x; mass redistribution `redist` with the six affine fields kept. */
typedef struct fl_midpoint_block_params {
    double lx, ly;
    size_t nx, ny;
    fl_fe2d_pattern pattern;
    fl_fe2d_material mat;
    int lumped;                    /* lumped instead of consistent mass */
    double top_ux, top_uy, gravity, mu, v_found;
    fl_redist_kind redist;
} fl_midpoint_block_params;

/* The block of 002 §7 (Table 1) is read from data/002/square_block_002.json
 * by models/fl_model_square_block.h: no paper parameter lives here. */

typedef struct fl_midpoint_block {
    fl_fe2d_mesh *mesh;
    fl_fe2d_dofmap *map;
    size_t nc;
    int *cnodes;                   /* contact nodes, increasing x */
    gsl_matrix *Mr, *A, *Bnu, *Btau;
    gsl_vector *f;
    fl_midpoint_problem prob;      /* points into the fields above */
} fl_midpoint_block;

fl_status fl_midpoint_block_alloc(const fl_midpoint_block_params *bp, fl_midpoint_block **out,
                                  fl_error *err);
void fl_midpoint_block_free(fl_midpoint_block *b);

/* ---- 002 Lemma 4.1: the static normal problem (10)/(12) ----
 * For u_perp in N^perp (not checked), find u_N in N and lambda_nu <= 0
 * (paper sign) with  w^T A (u_perp + u_N) = w^T f + w^T B_nu^T lambda_nu for
 * w in N,  nu_i^T u_N <= 0,  lambda_nu,i nu_i^T u_N = 0.  With
 * u_N = -B_nu^T y, lambda_nu = -z this is the LCP  z = b + A_NN y,
 * y, z >= 0, y^T z = 0,  A_NN = B_nu A B_nu^T (SPD),  b = B_nu (f - A u_perp)
 * [DERIVED, 002 Lemma 4.1], solved by projected Gauss-Seidel to 1e-15.
 * g1(u_perp) = u_N (n entries), g2(u_perp) = lambda_nu (nc entries). */
fl_status fl_midpoint_lemma41(const gsl_matrix *A, const gsl_vector *f, const gsl_matrix *Bnu,
                              const gsl_vector *uperp, gsl_vector *uN, gsl_vector *lam_nu,
                              fl_error *err);

#endif
