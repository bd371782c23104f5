/* fl_model_wedged_rod.h — the rod wedged between two converging walls of
 * 003 §2, Fig. 1 (J. J. Moreau, Facing the plurality of solutions in
 * nonsmooth mechanics, 2006), built from data/003/wedged_rod.json.
 *
 * A rigid horizontal rod AB (length L, mass m, inertia m L^2/12, centre G
 * at the origin) between two plane walls through A = (-L/2, 0) and
 * B = (L/2, 0), each inclined by beta from the vertical so that they
 * converge upward; Coulomb friction mu at A and B; gravity g; an upward
 * force P at G.  Generalised velocity u = (vx, vy, omega).  Contact frames
 * (library signs: U_N > 0 separating):
 *   n_A = ( cos b, -sin b), t_A = ( sin b, cos b)   (t up along the wall)
 *   n_B = (-cos b, -sin b), t_B = (-sin b, cos b)
 * (derivation: proofs/contact_dynamics.md, "wedged rod").
 *
 * Ownership: plain values; the problem returned is the caller's.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_MODEL_WEDGED_ROD_H
#define FL_MODEL_WEDGED_ROD_H

#include "fl_problem.h"
#include "fl_status.h"

typedef struct fl_model_wedged_rod {
    double L, m, g, beta, mu, h;      /* beta in radians (the file gives degrees) */
    double P_start, P_max, P_end;     /* push history, in units of m g */
    long steps_up, steps_down;
} fl_model_wedged_rod;

/* Read the parameter file (schema of data/003/wedged_rod.json): L, m, g,
 * h > 0, mu >= 0, 0 < beta_deg < 90, steps_up, steps_down whole numbers
 * >= 1.  FL_EPARSE / FL_EINVAL naming the file and field. */
fl_status fl_model_wedged_rod_load(const char *path, fl_model_wedged_rod *w, fl_error *err);

/* The global problem (FCLIB form, dense) of one Contact Dynamics step of
 * length h from velocity ui[3] under the push P (N):
 *   M = diag(m, m, m L^2/12),  f = M ui + h (0, P - m g, 0),
 *   H rows (n_A, t_A, n_B, t_B) of the contact velocities. */
fl_status fl_model_wedged_rod_problem(const fl_model_wedged_rod *w, const double ui[3], double P,
                                      fl_global_problem **out, fl_error *err);

/* The symmetric wedged forces of 003 §2 (closed form): vertical balance
 * 2 (R_T cos b - R_N sin b) = m g with R_N = 2 R_N,min,
 * R_N,min = m g / (2 (mu cos b - sin b)).  r = (R_N, R_T) at A and B,
 * r[4] = (R_N, R_T, R_N, R_T).  FL_EINVAL when mu cos b <= sin b (no wedging). */
fl_status fl_model_wedged_rod_wedged_forces(const fl_model_wedged_rod *w, double r[4], fl_error *err);

/* 003 §2 (elastic refinement): the push, in units of m g, at which the
 * no-slide regime ends when the longitudinal component of each reaction
 * stays at X (N):  P_d = m g - 2 X (mu cos b - sin b)/(cos b + mu sin b). */
double fl_model_wedged_rod_detachment(const fl_model_wedged_rod *w, double X);

#endif
