/* fl_model_example_3_14.h — the two-dof particle of 004 §3.5 Example 3.14
 * (Fig. 3: Klarbring's example with a hanging mass M on a string), built
 * from data/004/example_3_14.json.
 *
 * Dofs (u_T, u_N), 004's signs (u_N <= 0 admissible, r_N <= 0 compressive),
 * equilibrium u0 = 0, r0 = (alpha, -1).  The mass matrix (004 Example 3.14)
 *   M = [m + M sin^2 theta_M, -M sin cos; -M sin cos, m + M cos^2 theta_M];
 * K does not enter the jumps (52) (the identity stands in for it).
 *
 * Ownership: a system owns its matrices and vectors; s points into them.
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_MODEL_EXAMPLE_3_14_H
#define FL_MODEL_EXAMPLE_3_14_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"
#include "reference/stability.h"

typedef struct fl_model_example_3_14 {
    double M, m, theta_M, mu, alpha;            /* params (the fixture) */
    gsl_vector *grid_m_over_M, *grid_mu, *grid_alpha_over_mu;   /* owned */
    long theta_M_steps;                         /* theta_M = k (pi/2)/(steps+1), k = 1..steps */
    double tol;                                 /* expected.tolerance */
    double case_1A_aT, case_1A_rN, case_1A_rT;  /* expected.case_1A */
    double case_1B_aT, case_1B_aN;              /* expected.case_1B */
    double fig6_theta_M[2], fig6_m_over_M, fig6_mu;
} fl_model_example_3_14;

typedef struct fl_model_example_3_14_system {
    gsl_matrix *M, *K;
    gsl_vector *u0, *r0;
    size_t iT, iN;
    fl_stability_system s;
} fl_model_example_3_14_system;

/* Read the file; errors name the file, line and field (M, m > 0, mu >= 0,
 * 0 <= alpha <= mu, theta_M in [0, pi/2], grids non-empty, steps >= 1). */
fl_status fl_model_example_3_14_load(const char *path, fl_model_example_3_14 *out, fl_error *err);
void fl_model_example_3_14_release(fl_model_example_3_14 *m);

/* The mass matrix of 004 Example 3.14 into Mout (2 x 2). */
void fl_model_example_3_14_mass(double m, double M, double theta_M, gsl_matrix *Mout);

/* The system at (m, M, theta_M, mu, alpha): u0 = 0, r0 = (alpha, -1). */
fl_status fl_model_example_3_14_system_alloc(double m, double M, double theta_M, double mu, double alpha,
                                             fl_model_example_3_14_system **out, fl_error *err);
/* Move an allocated system to another (m, M, theta_M, mu, alpha). */
void fl_model_example_3_14_system_set(fl_model_example_3_14_system *sys, double m, double M, double theta_M,
                                      double mu, double alpha);
void fl_model_example_3_14_system_free(fl_model_example_3_14_system *sys);

#endif
