/* fl_model_system2.h — system 2 of Charles & Ballard, ZAMP 2016 (paper 001)
 * §6.3, Fig. 2: a free bar touching a concave obstacle at both ends; built
 * from data/001/systems_1_2.json (keys m2, J2, l2, beta_deg, mu2, F2, T, h;
 * the obstacle of Fig. 2 is not specified: the V-shaped one chosen is
 * described in data/001/README.md).
 *
 * q = (x, y, theta) of G, M = diag(m, m, J); A = G - l e(theta) on the left
 * wall (inward normal nL = (cos beta, sin beta), through (-l, 0)), B = G +
 * l e(theta) on the right wall (nR = (-cos beta, sin beta), through (l, 0));
 * a point P = G + s l e(theta) maps a real-world force r~ to r = tl r~,
 * tl = [1 0; 0 1; -(P - G)_y (P - G)_x]; constant upward pull F.  The
 * friction set of each constraint is built by 001 §6.1 at the current q.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_MODEL_SYSTEM2_H
#define FL_MODEL_SYSTEM2_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"
#include "reference/friction_set_build.h"
#include "reference/p4_law.h"

typedef struct fl_model_system2 {
    double m, J, l, beta, mu, F, T, h;   /* beta in radians */
} fl_model_system2;

/* Read path; m2, J2, l2, T, h > 0, mu2 >= 0.  FL_OK or an error naming the
 * file and field. */
fl_status fl_model_system2_load(const char *path, fl_model_system2 *s, fl_error *err);

/* M = diag(m, m, J) (3 x 3). */
void fl_model_system2_mass(const fl_model_system2 *s, gsl_matrix *M);
/* tl of end a (0: A, 1: B) at q (3 x 2). */
void fl_model_system2_tl(const fl_model_system2 *s, const gsl_vector *q, size_t a, gsl_matrix *tl);
/* Gaps (nL.(A - A0), nR.(B - B0)) at q. */
void fl_model_system2_gap(const fl_model_system2 *s, const gsl_vector *q, gsl_vector *phi);
/* dphi_a = tl_a n_a at q (3). */
void fl_model_system2_grad(const fl_model_system2 *s, const gsl_vector *q, size_t a, gsl_vector *dphi);
/* C*_a at q by 001 §6.1 (release with fl_fset_result_release). */
fl_status fl_model_system2_fset(const fl_model_system2 *s, const gsl_vector *q, size_t a, fl_fset_result *fr,
                                fl_error *err);
/* The P'4 system (n = 3, two constraints; data = s, which must outlive it;
 * restitution 0, Moreau's inelastic law for the two constraints). */
fl_p4_system fl_model_system2_system(fl_model_system2 *s);

#endif
