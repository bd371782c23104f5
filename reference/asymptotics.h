/* asymptotics.h — asymptotic consistency and indeterminacy of Moreau's
 * discrete contact law (000 §3): gamma(q), the set A(q, u-), the sampled
 * set A_eps(q, u-), excesses and Hausdorff distances (000 (8)-(10)).
 * Dense reference only (d is small in these studies; README.md).
 *
 * Distances are Euclidean, as in 000 §3.  Point clouds are gsl_matrix rows.
 *
 * Paper 000: "Asymptotic properties of Moreau's discrete contact law"
 * (the copy worked from carries neither authors nor journal).
 */
#ifndef FL_ASYMPTOTICS_H
#define FL_ASYMPTOTICS_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "moreau_law.h"

/* A(q, u-) in the one-dimensional friction case (000 §3, (H4)):
 *   {u-, u~}   if gamma(q) < 0   (segment = 0),
 *   [u-, u~]   if gamma(q) = 0   (segment = 1),
 * with u~ = Proj_q(0, (u- + M^-1 R(q)) ∩ T(q)).  When gamma(q) > 0 the
 * set M^-1 R ∩ T is {0}, u~ = u- and A = {u-} (segment = 0, a = b).
 * a and b are owned by the struct: release with fl_asymptotics_set_release. */
typedef struct fl_asymptotics_set {
    int segment;
    gsl_vector *a;      /* u- */
    gsl_vector *b;      /* u~ */
    double gamma;       /* gamma(q) */
} fl_asymptotics_set;

void fl_asymptotics_set_release(fl_asymptotics_set *A);

/* Build A(q, u-) for a system with one-dimensional friction (FL_MOREAU_SET
 * with k = 1, or FL_MOREAU_ISOTROPIC with d = 2).  Requires the contact
 * active (phi(q) <= gap_tol) and |<u-, n(q)>| <= 1e-12 |u-|; gamma(q) is
 * called zero when |gamma| <= gamma_tol. */
fl_status fl_asymptotics_build(const fl_moreau_system *sys, const gsl_vector *q,
                        const gsl_vector *um, const fl_moreau_options *opt,
                        double gamma_tol, double gap_tol, fl_asymptotics_set *A,
                        fl_error *err);

/* dist(x, A): min over the two points, or the clamped projection on the
 * segment. */
double fl_asymptotics_dist(const fl_asymptotics_set *A, const gsl_vector *x);

/* e(P, Q) = sup_{p in P} inf_{q in Q} |p - q| between finite samples (rows);
 * d_H(P, Q) = max(e(P,Q), e(Q,P)) (000 §3).  0 if P is empty; +inf if Q is
 * empty and P is not. */
double fl_asymptotics_excess_points(const gsl_matrix *P, size_t np, const gsl_matrix *Q, size_t nq);
double fl_asymptotics_hausdorff_points(const gsl_matrix *P, size_t np, const gsl_matrix *Q, size_t nq);

/* e(S, A) = max_i dist(S_i, A): consistency (000 (9)). */
double fl_asymptotics_excess_samples_to_set(const gsl_matrix *S, size_t ns, const fl_asymptotics_set *A);
/* e(A, S) = max over a discretisation of A (K >= 2 equally spaced points of
 * the segment; the two points otherwise) of the distance to the nearest
 * sample: indeterminacy (000 (10)).  Over-estimates the excess of A from
 * the true A_eps by the sampling gap, under-estimates it by at most half the
 * grid spacing (000 §3). */
double fl_asymptotics_excess_set_to_samples(const fl_asymptotics_set *A, size_t K, const gsl_matrix *S,
                                     size_t ns);

/* Sample A_eps(q, u-) = {S(q_eps, u_eps) : q_eps in B(q, eps), u_eps in
 * B(u-, eps)} (000 §3): ns pairs drawn uniformly in the two Euclidean balls,
 * S evaluated by the dense law; rows of S (ns x d, caller-allocated) receive
 * the values.  *ncollide (may be NULL) counts the collision branches. */
fl_status fl_asymptotics_sample(const fl_moreau_system *sys, const gsl_vector *q,
                         const gsl_vector *um, double eps, size_t ns, gsl_rng *rng,
                         const fl_moreau_options *opt, gsl_matrix *S, size_t *ncollide,
                         fl_error *err);

/* Uniform point in the Euclidean ball B(c, radius) of R^d (x = c + radius
 * U^(1/d) g/|g|, g Gaussian). */
void fl_asymptotics_ball_point(gsl_rng *rng, const gsl_vector *c, double radius, gsl_vector *x);

#endif
