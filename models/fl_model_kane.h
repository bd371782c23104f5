/* fl_model_kane.h — Kane's double pendulum (Kane 1983; Kane & Levinson,
 * problem 14.6), the example of Charles & Ballard, ZAMP 2016 (paper 001)
 * §6.2 item 2, built from data/001/kane.json (keys m1, m2, L1, L2, theta1,
 * theta2, omega1, omega2, mu, e; the configuration was found by a search,
 * data/001/README.md).
 *
 * Two uniform rods, link 1 pivoted at O, link 2 at the end of link 1,
 * absolute angles theta_i from the horizontal:
 *   M = [[m1 L1^2/3 + m2 L1^2, m2 L1 L2 cos(t1 - t2)/2], [., m2 L2^2/3]];
 * the tip P = L1 e(theta1) + L2 e(theta2) touches a horizontal floor
 * (normal (0, 1)); u = (u_t, u_n) = Jc qdot with
 *   Jc = [[-L1 sin t1, -L2 sin t2], [L1 cos t1, L2 cos t2]],
 * and a real-world impulse P~ maps to r = Jc^T P~ (proofs/p4_law.md §6).
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_MODEL_KANE_H
#define FL_MODEL_KANE_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

typedef struct fl_model_kane {
    double m1, m2, L1, L2, theta1, theta2, omega1, omega2, mu, e;
} fl_model_kane;

/* Read path; m1, m2, L1, L2 > 0, mu >= 0, e in [0, 1].  FL_OK or an error
 * naming the file and field. */
fl_status fl_model_kane_load(const char *path, fl_model_kane *k, fl_error *err);

/* M at the configuration of k (2 x 2). */
void fl_model_kane_mass(const fl_model_kane *k, gsl_matrix *M);
/* Jc at the configuration of k (2 x 2): row 0 tangential, row 1 normal. */
void fl_model_kane_jacobian(const fl_model_kane *k, gsl_matrix *Jc);
/* qdot = (omega1, omega2). */
void fl_model_kane_velocity(const fl_model_kane *k, gsl_vector *qdot);

#endif
