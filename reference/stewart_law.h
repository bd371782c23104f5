/* stewart_law.h — Stewart's formulation P5 (001 §6.2):
 * Coulomb's law applied to the real-world contact reactions, in the
 * velocity–impulse time step of Stewart and Trinkle with completely inelastic
 * impacts, written as a linear complementarity problem and solved by Lemke's
 * method (reference/lemke.c).  Derivation: proofs/stewart_lcp.md.
 *
 * Contacts (nc of them, in the plane dim = 2 or in space dim = 3).  The
 * caller gives the real-world contact Jacobian H ((dim nc) x n): for contact
 * c, row dim c maps the generalized velocity to the normal velocity of the
 * contact point (rate of the gap, gap >= 0 admissible) and rows dim c + 1 ..
 * dim c + dim - 1 to its tangential velocity in an orthonormal tangent basis.
 * The generalized reaction of a real-world impulse P~ is H^T P~ (001 (6.1):
 * r = ^t l . r~).  Sign convention (README.md, Vocabulary): gap >= 0 admissible,
 * normal impulse >= 0 compressive.
 *
 * Step (h > 0, v^- given, f the applied generalized force):
 *     M (v^+ - v^-) = h f + H^T P~,         P~_c = (p_c, sum_j beta_cj d_j)
 *     0 <= p_c      _|_  n_c.v^+ + gap_c/h          >= 0   (inelastic contact)
 *     0 <= beta_c   _|_  lambda_c e + D_c^T v^+     >= 0   (sliding direction)
 *     0 <= lambda_c _|_  mu_c p_c - e^T beta_c      >= 0   (polyhedral cone)
 * with friction directions d_j: the exact two directions +t, -t in 2D; in 3D
 * k >= 3 unit directions at angles 2 pi j / k in the tangent plane (the
 * friction disc replaced by the inscribed regular k-gon).  lambda_c is the
 * sliding-speed multiplier: max_j (-d_j . v_t) when the contact slides.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_STEWART_LAW_H
#define FL_STEWART_LAW_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_sparse.h"
#include "fl_status.h"
#include "reference/lemke.h"

/* One step problem at a configuration q.  Pointers are caller-owned. */
typedef struct fl_stewart_problem {
    size_t n;                /* degrees of freedom */
    size_t nc;               /* contacts */
    size_t dim;              /* 2 (plane) or 3 (space) */
    const gsl_matrix *M;     /* n x n SPD mass matrix (reference; the optimized
                                version uses it only when Ms is NULL) */
    const gsl_matrix *H;     /* (dim nc) x n real-world contact Jacobian (see above) */
    cholmod_sparse *Ms;      /* optimized: the same M, symmetric storage; may be NULL */
    cholmod_sparse *Hs;      /* optimized: the same H, unsymmetric; may be NULL */
    fl_sparse_ctx *sctx;     /* optimized: CHOLMOD context of Ms/Hs (NULL: own one) */
    const gsl_vector *v;     /* n: velocity v^- */
    const gsl_vector *f;     /* n: applied generalized force (NULL: zero) */
    const gsl_vector *gap;   /* nc: gaps (NULL: all 0, every contact closed) */
    const double *mu;        /* nc: friction coefficients >= 0 */
    double h;                /* time step > 0 */
} fl_stewart_problem;

typedef struct fl_stewart_options {
    size_t k;                /* friction directions per contact in 3D (>= 3; default 8);
                                2D always uses the exact two directions */
    fl_lemke_options lemke;
    double coulomb_tol;      /* accepted Coulomb violation (relative, 1e-8) */
} fl_stewart_options;

fl_stewart_options fl_stewart_options_default(void);

/* Friction directions per contact: 2 in the plane, opt->k in space. */
size_t fl_stewart_directions(size_t dim, const fl_stewart_options *opt);
/* Component i (tangent coordinates, i < dim - 1) of friction direction j of
 * K: 2D d_0 = +t, d_1 = -t; 3D d_j = cos(2 pi j/K) t_1 + sin(2 pi j/K) t_2. */
double fl_stewart_direction(size_t dim, size_t K, size_t j, size_t i);
/* Size of the Stewart–Trinkle LCP: nc (2 + directions). */
size_t fl_stewart_lcp_size(const fl_stewart_problem *p, const fl_stewart_options *opt);

typedef struct fl_stewart_result {
    fl_status status;        /* FL_OK, a Lemke status (FL_ERAY, ...), or an input error */
    size_t iterations;       /* Lemke pivots */
    double residual;         /* natural-map residual of the LCP solution */
    double seconds;
    double coulomb;          /* fl_stewart_coulomb_violation of (v^+, P~) */
    size_t lcp_size;
    size_t n, nc, dim;
    gsl_vector *v_plus;      /* n: v^+ */
    gsl_vector *impulse;     /* dim nc: real-world impulse P~ per contact, in its
                                frame (normal, tangential components) */
    gsl_vector *r;           /* n: generalized reaction impulse H^T P~ */
    gsl_vector *z;           /* lcp_size: (p, beta, lambda) */
} fl_stewart_result;

fl_stewart_result *fl_stewart_result_alloc(size_t n, size_t nc, size_t dim,
                                           const fl_stewart_options *opt);
void fl_stewart_result_free(fl_stewart_result *r);

/* Dimensions, finiteness, h > 0, mu >= 0, dim in {2,3}, k >= 3; SPD of M is
 * checked by the factorisation. */
fl_status fl_stewart_problem_check(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                   fl_error *err);

/* The Stewart–Trinkle LCP (A, b) of the step (proofs/stewart_lcp.md §2),
 * unknowns z = (p (nc), beta (nc x directions, contact-major), lambda (nc)):
 *   A = [ N^T W N   N^T W D   0 ]      b = [ N^T v_free + gap/h ]
 *       [ D^T W N   D^T W D   E ]          [ D^T v_free         ]
 *       [ mu        -E^T      0 ]          [ 0                  ]
 * W = M^-1, v_free = v^- + h W f, N = normal rows of H transposed,
 * D = (tangent rows of H)^T times the directions.  A, b caller-allocated of
 * fl_stewart_lcp_size. */
fl_status fl_stewart_lcp_build(const fl_stewart_problem *p, const fl_stewart_options *opt,
                               gsl_matrix *A, gsl_vector *b, fl_error *err);

/* From an LCP solution z to the real-world impulse P~, the generalized
 * impulse r = H^T P~ (may be NULL) and v^+ = v^- + W (h f + r). */
fl_status fl_stewart_lcp_recover(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                 const gsl_vector *z, gsl_vector *v_plus,
                                 gsl_vector *impulse, gsl_vector *r, fl_error *err);

/* Violation of Coulomb's law on the real-world impulses (001 §6.2, P5, with
 * the polyhedral cone in 3D), relative to the scale (1 + |P~|)(1 + |v|):
 *   max over contacts of  (-p)_+,  (-(u_n + gap/h))_+,  |p (u_n + gap/h)|,
 *   cone:  (|P~_t| - mu p)_+ in 2D;  (P~_t . a_i - mu p cos(pi/k))_+ over the
 *          k edge normals a_i of the k-gon in 3D,
 *   maximal dissipation:  |P~_t . u_t + mu p max_j (-d_j . u_t)|,
 * where u = H v^+ is the real-world contact-point velocity.  In 2D this is
 * exactly: p >= 0, |P~_t| <= mu p, and P~_t = -mu p sign(u_t) when u_t != 0. */
fl_status fl_stewart_coulomb_violation(const fl_stewart_problem *p,
                                       const fl_stewart_options *opt,
                                       const gsl_vector *v_plus, const gsl_vector *impulse,
                                       double *violation, fl_error *err);

/* The same check from the contact-point velocities u = H v^+ (dim nc),
 * for callers holding H in another form (optimized/stewart_law_sparse.c). */
fl_status fl_stewart_coulomb_violation_local(const fl_stewart_problem *p,
                                             const fl_stewart_options *opt,
                                             const gsl_vector *u, const gsl_vector *impulse,
                                             double *violation, fl_error *err);

/* One Stewart–Trinkle step (001 §6.2 P5 discretised; Stewart [26]). */
fl_status fl_stewart_step(const fl_stewart_problem *p, const fl_stewart_options *opt,
                          fl_stewart_result *res, fl_error *err);


/* ---- time stepping for a system given by callbacks ---- */

typedef struct fl_stewart_system {
    size_t n, nc, dim;
    const double *mu;        /* nc friction coefficients */
    void *data;              /* passed to the callbacks */
    /* M(q), n x n SPD */
    fl_status (*mass)(void *data, const gsl_vector *q, gsl_matrix *M, fl_error *err);
    /* f(t, q, v), n */
    fl_status (*force)(void *data, double t, const gsl_vector *q, const gsl_vector *v,
                       gsl_vector *f, fl_error *err);
    /* gap(q) (nc) and the real-world contact Jacobian H(q) ((dim nc) x n) */
    fl_status (*contacts)(void *data, const gsl_vector *q, gsl_vector *gap, gsl_matrix *H,
                          fl_error *err);
} fl_stewart_system;

/* Called after every step; return nonzero to stop the integration. */
typedef int (*fl_stewart_observer)(void *data, size_t step, double t, const gsl_vector *q,
                                   const fl_stewart_result *step_result);

typedef struct fl_stewart_run {
    fl_status status;        /* worst step status (first error stops the run) */
    size_t steps;            /* steps done */
    size_t iterations;       /* total Lemke pivots */
    double residual;         /* max LCP residual */
    double coulomb;          /* max Coulomb violation */
    double seconds;
} fl_stewart_run;

/* Integrate from (t0, q, v) for `steps` steps of size h: at each step the
 * callbacks give M, f, gap, H at (t, q, v); fl_stewart_step gives v^+; then
 * q += h v^+ (semi-implicit Euler, as Stewart–Trinkle).  q and v are
 * updated in place.  obs may be NULL. */
fl_status fl_stewart_integrate(const fl_stewart_system *sys, const fl_stewart_options *opt,
                               double t0, double h, size_t steps, gsl_vector *q, gsl_vector *v,
                               fl_stewart_observer obs, void *obs_data, fl_stewart_run *run,
                               fl_error *err);

#endif
