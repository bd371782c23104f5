/* moreau_law.h — Moreau's discrete contact law S(q,v) for one unilateral
 * constraint with Coulomb friction (000 §2), and the time-stepping scheme of
 * 000 §2 built on it.  Two implementations share one signature
 * (fl_moreau_law_fn) and one result struct:
 *   fl_moreau_law         reference/moreau_law.c      dense GSL, paper-faithful
 *   fl_moreau_law_sparse  optimized/moreau_law_sparse.c  CHOLMOD, factor once,
 *                         solves for M^-1 n and M^-1 t_j, small local problem
 *
 * Sign convention (README.md; README.md, Vocabulary).  000 writes the constraint as
 * g(q) <= 0 with n = -grad g/|grad g|.  The library stores the gap
 * phi(q) = -g(q) >= 0 (admissible) and its gradient dphi = -grad g, so
 *   n(q) = dphi/|dphi|  (Euclidean unit vector pointing into K),
 *   contact active (R(q) != {0})  <=>  g(q) >= 0  <=>  phi(q) <= 0.
 *
 * Friction D_1(q) (000 §1, (H3)):
 *   FL_MOREAU_FRICTIONLESS   D_1 = {0}
 *   FL_MOREAU_ISOTROPIC      D_1 = ball of radius mu in (R n)^perp (dimension
 *                            d-1: an interval for d = 2, a disc for d = 3)
 *   FL_MOREAU_SET            D_1 = { sum_j s_j t_j : s in C } with a tangent
 *                            basis t_1..t_k (columns of `tangent`, k = C->dim
 *                            = 1 or 2) and a bounded friction set C
 *                            (core/fl_friction_set.h) containing 0 (H3).
 *
 * Ownership: a problem only borrows its matrices, vectors and set.  The
 * caller allocates u and r (length d).
 *
 * Paper 000: "Asymptotic properties of Moreau's discrete contact law"
 * (the copy worked from carries neither authors nor journal).
 */
#ifndef FL_MOREAU_LAW_H
#define FL_MOREAU_LAW_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_friction_set.h"
#include "fl_sparse.h"
#include "fl_status.h"

typedef enum fl_moreau_friction {
    FL_MOREAU_FRICTIONLESS = 0,
    FL_MOREAU_ISOTROPIC = 1,
    FL_MOREAU_SET = 2
} fl_moreau_friction;

/* One evaluation of S(q, v) at a fixed configuration q. */
typedef struct fl_moreau_problem {
    size_t d;
    const gsl_matrix *M;       /* dense M(q) (reference); may be NULL for sparse */
    cholmod_sparse *Msp;       /* sparse M(q), symmetric storage (optimized) */
    fl_sparse_ctx *ctx;        /* CHOLMOD context for Msp */
    double gap;                /* phi(q) = -g(q); contact active iff gap <= 0 */
    const gsl_vector *dgap;    /* dphi(q) = -grad g(q), nonzero */
    fl_moreau_friction friction;
    double mu;                 /* FL_MOREAU_ISOTROPIC: radius of D_1 */
    const gsl_matrix *tangent; /* FL_MOREAU_SET: d x k, columns t_j */
    const fl_friction_set *C;  /* FL_MOREAU_SET: friction set, dim k */
    const gsl_vector *v;       /* the free left velocity v_{i+1} */
    cholmod_factor *Lsp;       /* optional factor of Msp, reused when non-NULL
                                  (optimized; owned by the caller) */
} fl_moreau_problem;

typedef struct fl_moreau_options {
    double tol;        /* relative tolerance of the iterative disc/ball solver */
    int max_iter;      /* bisection steps of each scalar search */
} fl_moreau_options;
fl_moreau_options fl_moreau_options_default(void);

/* Which definition of S applied (000 §2). */
typedef enum fl_moreau_branch {
    FL_MOREAU_FREE = 0,        /* g(q) < 0: V(q) = R^d, S = v */
    FL_MOREAU_INWARD = 1,      /* g(q) >= 0, <v,n> >= 0: v in V(q), S = v */
    FL_MOREAU_COLLISION = 2    /* g(q) >= 0, <v,n> < 0: the projection */
} fl_moreau_branch;

typedef struct fl_moreau_result {
    fl_status status;
    int iterations;       /* bisection steps (0 for closed forms) */
    double residual;      /* optimality residual, normalised (see below) */
    double seconds;
    fl_moreau_branch branch;
    double rho;           /* r = rho n + r_T: normal coordinate of the impulse */
    double s[2];          /* FL_MOREAU_SET: tangential coordinates, r_T = sum s_j t_j */
    double gamma;         /* gamma(q) = min_{w in D_1} <n, M^-1 (n + w)> (000 §3) */
} fl_moreau_result;
/* residual: for the collision branch, max of |<u,n>| / |v|_2 and of the KKT
 * residual of the local problem (stationarity and complementarity divided by
 * the scale |p| + |b| + c0 of the data); 0 for the other branches. */

/* S(q, v): u receives S(q,v), r the impulse r = M(q)(u - v) in R(q)
 * (000 Prop. 1: r_{i+1} = M(u_{i+1} - u_i) - h f = M(u_{i+1} - v_{i+1})). */
typedef fl_status (*fl_moreau_law_fn)(const fl_moreau_problem *p,
                                      const fl_moreau_options *opt,
                                      gsl_vector *u, gsl_vector *r,
                                      fl_moreau_result *res, fl_error *err);

fl_status fl_moreau_law(const fl_moreau_problem *p, const fl_moreau_options *opt,
                        gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                        fl_error *err);

/* Proj_q(0, (v + M^-1 R(q)) ∩ T(q)) with R(q) = R+(n + D_1) whatever the gap
 * and the sign of <v,n>, provided <v,n> <= 0 (FL_EINVAL otherwise: the set is
 * empty).  With <v,n> = 0 this is u~ of 000 §3.  Dense (reference). */
fl_status fl_moreau_project(const fl_moreau_problem *p, const fl_moreau_options *opt,
                            gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                            fl_error *err);

/* gamma(q) = min_{w in D_1(q)} <n, M^-1 (n + w)> (000 §3), closed forms
 * (proofs/moreau_law.md): a_n - S_C(-T^T M^-1 n) for a set, a_n - mu |P M^-1 n|
 * for the isotropic ball, a_n frictionless.  Dense (reference). */
fl_status fl_moreau_gamma(const fl_moreau_problem *p, double *gamma, fl_error *err);

/* ---- the local problem shared by both implementations ----
 * With H = [n, t_1..t_k]^T, G = H M^-1 H^T ((k+1) x (k+1), the Delassus
 * matrix) and h = H v, S's projection is min_x 1/2 x^T G x + h^T x over
 * x = (rho, s) with rho >= 0, s in rho C and (G x)_0 = c0 := -<v,n>.
 * `ball` != 0 means C is the Euclidean ball of radius mu in R^k (any k);
 * otherwise C is the friction set (k = C->dim).  x has length k+1. */
typedef struct fl_moreau_local {
    size_t k;
    const double *G;          /* row-major (k+1) x (k+1) */
    const double *h;          /* length k+1 */
    int ball;
    double mu;
    const fl_friction_set *C;
} fl_moreau_local;
fl_status fl_moreau_local_solve(const fl_moreau_local *lp, const fl_moreau_options *opt,
                                double *x, fl_moreau_result *res, fl_error *err);

/* gamma of the local problem: a + min_{s in C} b.s (000 §3, [PM §5]). */
double fl_moreau_local_gamma(const fl_moreau_local *lp);

/* Orthonormal basis of n^perp (|n| = 1, d >= 2) into the d x (d-1) matrix T
 * (Householder reflection; used for the isotropic D_1 of 000 §1). */
void fl_moreau_orthonormal_complement(const gsl_vector *n, gsl_matrix *T);

/* Shared validation of a problem (dimensions, finiteness, friction data). */
fl_status fl_moreau_check(const fl_moreau_problem *p, int need_dense, fl_error *err);

/* ---- time stepping (000 §2) with configuration-dependent M(q), g(q) ---- */
typedef struct fl_moreau_system {
    size_t d;
    /* M(q) into M (d x d, SPD) */
    fl_status (*mass)(const gsl_vector *q, gsl_matrix *M, void *data);
    /* gap phi(q) = -g(q) and its gradient dphi(q) = -grad g(q) */
    fl_status (*gap)(const gsl_vector *q, double *phi, gsl_vector *dphi, void *data);
    /* f(t, q, u); may be NULL (no force) */
    fl_status (*force)(double t, const gsl_vector *q, const gsl_vector *u,
                       gsl_vector *f, void *data);
    fl_moreau_friction friction;
    /* friction data at q (may be NULL: then the constant `mu` is used, and
     * FL_MOREAU_SET is refused).  ISOTROPIC: set *mu (T is NULL).  SET: set
     * *mu if useful, fill the tangent basis T (d x k) and point *C to a
     * friction set of dimension k that outlives the call.  n is the unit
     * normal at q. */
    fl_status (*friction_at)(const gsl_vector *q, const gsl_vector *n, double *mu,
                             gsl_matrix *T, const fl_friction_set **C, void *data);
    double mu;                     /* constant mu when friction_at is NULL */
    size_t k;                      /* FL_MOREAU_SET: tangent dimension */
    void *data;
} fl_moreau_system;

/* S(q, v) for a system at configuration q (dense reference law). */
fl_status fl_moreau_system_law(const fl_moreau_system *sys, const gsl_vector *q,
                               const gsl_vector *v, const fl_moreau_options *opt,
                               gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                               fl_error *err);
/* gamma(q) (000 §3) for a system, whatever the sign of the gap. */
fl_status fl_moreau_system_gamma(const fl_moreau_system *sys, const gsl_vector *q,
                                 double *gamma, fl_error *err);
/* u~ (000 §3) at (q, u-): fl_moreau_project at q. */
fl_status fl_moreau_system_project(const fl_moreau_system *sys, const gsl_vector *q,
                                   const gsl_vector *v, const fl_moreau_options *opt,
                                   gsl_vector *u, fl_moreau_result *res, fl_error *err);

/* One step of 000 §2 from (t, q, u) with step h:
 *   q <- q + h u;  v = u + h M^-1(q) f(t+h, q, u_old);  u <- S(q, v).
 * r (may be NULL) receives r_{i+1} = M(q_{i+1})(u_{i+1} - u_i) - h f. */
fl_status fl_moreau_step(const fl_moreau_system *sys, const fl_moreau_options *opt,
                         double t, double h, gsl_vector *q, gsl_vector *u,
                         gsl_vector *r, fl_moreau_result *res, fl_error *err);

#endif
