/* fl_model_system1.h — system 1 of Charles & Ballard, ZAMP 2016 (paper 001)
 * §6.3, Fig. 2: a bar rotating about a fixed end B, one dof theta >= 0,
 * inertia J about B, a constant torque C0 > 0 pulling the bar away from the
 * obstacle; built from data/001/systems_1_2.json (keys J1, C0,
 * theta_tilde0_deg, mu, l, T, h; provenance in data/001/README.md).
 *
 * Under P'3 the generalized friction set is not needed (one dof: the
 * tangent space is {0}), so the P'4 system has no friction callback.  The
 * real-world reaction maps to r_theta = l (r~_t cos theta~0 + r~_n sin
 * theta~0) (001 §6.3 with the lever arm l, data/001/README.md).
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_MODEL_SYSTEM1_H
#define FL_MODEL_SYSTEM1_H

#include "fl_status.h"
#include "reference/p4_law.h"

typedef struct fl_model_system1 {
    double J, C0, theta_tilde0, mu, l, T, h;   /* theta_tilde0 in radians */
} fl_model_system1;

/* Read path; J1, l, T, h > 0, mu >= 0.  FL_OK or an error naming the file
 * and field. */
fl_status fl_model_system1_load(const char *path, fl_model_system1 *s, fl_error *err);

/* The P'3 system (n = 1, one constraint phi = theta, dphi = 1, M = J,
 * f = C0; data = s, which must outlive it). */
fl_p4_system fl_model_system1_system(fl_model_system1 *s);

/* r_theta of a real-world reaction (r~_n, r~_t) (001 §6.3, lever arm l). */
double fl_model_system1_r_theta(const fl_model_system1 *s, double rn, double rt);

#endif
