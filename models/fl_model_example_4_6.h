/* fl_model_example_4_6.h — the pin-on-flat system of 004 §4 Example 4.6
 * (Fig. 8: a beam of axial stiffness EA with a rigid pin and a mass, a
 * block M_D moving at the prescribed speed uD_dot), built from
 * data/004/example_4_6.json.  Non-dimensional (lengths / L, forces / EA,
 * time * sqrt(EA/(L M))); dofs (u_D, u_theta, u_T, u_N), u_D prescribed;
 * 004's signs (u_N <= 0 admissible, r_N <= 0 compressive).
 *
 *   K = [1, hb, -1, 0; hb, 4 rb^2 + hb^2, -hb, 6 rb^2; -1, -hb, 1, 0; 0, 6 rb^2, 0, 12 rb^2]
 *   M = [1, 0, 0, 0; 0, hm^2 + rm^2, -hm, 0; 0, -hm, 1, 0; 0, 0, 0, 1]
 * with rb = R_B/L, hb = H_B/L, rm = R_M/L, hm = H_M/L (004 §4, Fig. 8).
 *
 * Ownership: a system owns its matrices; s points into them.
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_MODEL_EXAMPLE_4_6_H
#define FL_MODEL_EXAMPLE_4_6_H

#include <gsl/gsl_matrix.h>

#include "fl_status.h"
#include "reference/stability.h"

typedef struct fl_model_example_4_6 {
    double uD_dot, mu, Mg_over_EA, rb, hb, rm, hm;       /* params (004 Fig. 9) */
    double grid_mu[2], grid_rb[2], grid_hb[2], grid_rm[2];  /* grid_hm0 ranges [lo, hi] */
    /* expected */
    double tol, r0_N, u0_theta, u0_D_minus_u0_T;
    double Lambda_sigma_minus[2], Lambda_sigma_plus[2];
    double growth_rate, growth_tol_dynamics;
    /* dynamics (values 004 omits, ours) */
    double h, t_end, t_end_quick, steady_t_end, perturbation, theta;
} fl_model_example_4_6;

typedef struct fl_model_example_4_6_system {
    gsl_matrix *K, *M;
    unsigned char pres[4];
    size_t iT, iN;
    fl_stability_system s;
} fl_model_example_4_6_system;

/* Read the file; errors name the file, line and field (mu >= 0; R_B, R_M,
 * H_B > 0; H_M >= 0; Mg/EA > 0; uD_dot != 0; ranges lo < hi; h, t_end > 0,
 * 0 < theta <= 1). */
fl_status fl_model_example_4_6_load(const char *path, fl_model_example_4_6 *out, fl_error *err);

/* K, M of 004 §4 for (mu, rb, hb, rm, hm). */
fl_status fl_model_example_4_6_system_alloc(double mu, double rb, double hb, double rm, double hm,
                                            fl_model_example_4_6_system **out, fl_error *err);
void fl_model_example_4_6_system_free(fl_model_example_4_6_system *sys);

/* The steady sliding state of 004 §4 in closed form, for sigma = sign(uD_dot):
 * with mus = -sigma mu, c = 1 + 3/2 mus hb:
 *   r0_N = -Mg/EA / c,  u0_theta = mus (Mg/EA) hb / (4 c rb^2),
 *   u0_D - u0_T = -mus (Mg/EA) (1 + (hb/rb)^2/4) / c. */
void fl_model_example_4_6_steady(const fl_model_example_4_6 *m, double *rN, double *utheta, double *dDT);

/* Steady sliding with sigma(u_T') = sig and normal reaction rN < 0
 * (r_T = mu rN sig, 004 (16)): partition, tangent matrices (80)-(86) and
 * the analysis of 004 §5.4 into res (fl_stability_result_free it). */
fl_status fl_model_example_4_6_analyse(const fl_model_example_4_6_system *sys, double sig, double rN,
                                       fl_stability_result *res, fl_error *err);

#endif
