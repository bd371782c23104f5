/* fl_residual.h — the Siconos / FCLIB natural-map error for frictional
 * contact (README.md, Vocabulary: "Residual").
 *
 * Per contact alpha, with the library convention of fl_problem.h (r_N >= 0
 * compressive, U_N >= 0 separating), De Saxcé's modified velocity is
 *   Û = U + mu |U_T| e_N,
 * and the natural map is
 *   F_alpha(r, U) = r - P_K(r - Û),
 * P_K the Euclidean projection on the Coulomb cone K = {|r_T| <= mu r_N}.
 * F_alpha = 0 iff (r, U) satisfies Coulomb's law (De Saxcé & Feng 1998: K
 * and K* = polar of -K_{1/mu} are dual, r in K, Û in K*, r.Û = 0).
 * This is exactly what Siconos computes per contact in
 * fc3d_unitary_compute_and_add_error (dim 3) and
 * fc2d_unitary_compute_and_add_error (dim 2): squared norms are summed and
 * the square root taken:  e = sqrt(sum_alpha |F_alpha|^2).
 *
 * Normalisation.  FCLIB's definition, and the library default, divides e
 * by ||q||_2 when ||q|| > DBL_EPSILON: FL_RESIDUAL_NORM_Q.  The Siconos
 * numerics 4.4 installed here (Debian libsiconos-numerics-dev) does NOT
 * report that: measured on a closed-form case (proofs/fclib.md §4, test
 * siconos_fc::random_problems_through_fclib_files), its fc2d/fc3d
 * compute_error divides by max(||r||, ||U||, norm) with norm = ||q|| passed
 * by its solvers: FL_RESIDUAL_MAX_NORM, never larger than e/||q||.  Older
 * Siconos releases divided by (1 + ||q||): FL_RESIDUAL_ONE_PLUS_NORM_Q.
 * `frictionlab solve` prints the NORM_Q and MAX_NORM values side by side.
 * FL_RESIDUAL_ABSOLUTE returns e itself.
 *
 * FCLIB's merit function, as libfclib 3.1 computes it (fclib_merit_local,
 * MERIT_1, 3D local problems without equality constraints), is
 * e / (1 + sqrt(||q||)): FL_RESIDUAL_FCLIB_MERIT.  libfclib has no 2D
 * merit (it returns 0); the same formula is used here for 2D.
 *
 * The three normalisations `frictionlab bench suite` rechecks every answer
 * under: NORM_Q (Acary, Bremond & Huber, "On solving contact problems with
 * Coulomb friction: formulations and numerical comparisons", Advanced
 * Topics in Nonsmooth Dynamics, Springer 2018, §7: the natural-map error
 * divided by ||q||), MAX_NORM (Siconos 4.4's fc2d/fc3d_compute_error) and
 * FCLIB_MERIT (libfclib's fclib_merit_local).  Each is tested against its
 * owner's code on every corpus problem: tests/test_normalisations.c.
 */
#ifndef FL_RESIDUAL_H
#define FL_RESIDUAL_H

#include <stddef.h>
#include <gsl/gsl_vector.h>

#include "fl_problem.h"
#include "fl_status.h"

typedef enum fl_residual_norm {
    FL_RESIDUAL_NORM_Q = 0,          /* e / ||q||        (Siconos >= 4, default) */
    FL_RESIDUAL_ONE_PLUS_NORM_Q = 1, /* e / (1 + ||q||)  (older Siconos)         */
    FL_RESIDUAL_MAX_NORM = 2,        /* e / max(||r||, ||U||, ||q||)             */
    FL_RESIDUAL_ABSOLUTE = 3,        /* e                                        */
    FL_RESIDUAL_FCLIB_MERIT = 4      /* e / (1 + sqrt(||q||))  (libfclib 3.1);
                                        not a stopping test of the solvers */
} fl_residual_norm;

/* Euclidean projection of x (length dim = 2 or 3, [N, T...]) onto the
 * Coulomb cone K_mu = {|x_T| <= mu x_N}, mu >= 0; p may alias x.
 *   x in K_mu                    -> x;
 *   x in the polar cone (mu |x_T| <= -x_N) -> 0;
 *   otherwise onto the boundary ray: t = (x_N + mu |x_T|)/(1 + mu^2),
 *   p = (t, mu t x_T/|x_T|).  (Derivation: proofs/contact_dynamics.md.) */
void fl_coulomb_cone_project(int dim, double mu, const double *x, double *p);

/* |F_alpha(r, U)|^2 for one contact (the unnormalised per-contact term). */
double fl_residual_contact_sq(int dim, double mu, const double *r, const double *U);

/* The normalised error from raw arrays: r and U of length dim nc, norm_q
 * = ||q||_2 (used by the NORM_Q, ONE_PLUS_NORM_Q and MAX_NORM variants). */
double fl_residual_natural_map(int dim, size_t nc, const double *mu, const double *r,
                               const double *U, double norm_q, fl_residual_norm kind);

/* For a local problem: U = W r + q (written to U if non-NULL, length m)
 * and *out = the normalised natural-map error. */
fl_status fl_residual_local(const fl_local_problem *p, const gsl_vector *r,
                            gsl_vector *U, fl_residual_norm kind, double *out,
                            fl_error *err);

#endif
