/* fl_model_painleve.h — the Painlevé bar of Charles & Ballard, ZAMP 2016
 * (paper 001) §6.2, under the generalized friction law P'3/P'4, built from
 * data/001/painleve_{set,catastrophe,grazing,p5_vs_p3}.json.
 *
 * q = (x, theta): abscissa of the centre of mass G and angle of the bar;
 * M = diag(m, J); the end A at distance l from G touches the x-axis at
 * theta = theta0; phi = theta - theta0 >= 0, dphi = (0, 1); the real-world
 * force r~ at A maps to r = tl r~ by 001 (6.1), tl = [1 0; -l sin theta0,
 * l cos theta0]; the friction set C* is built by 001 §6.1
 * (reference/friction_set_build.c) from the Coulomb cone of axis (0, 1),
 * coordinate r_x (E = (1, 0)).  Closed forms: proofs/p4_law.md §5.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_MODEL_PAINLEVE_H
#define FL_MODEL_PAINLEVE_H

#include <gsl/gsl_matrix.h>

#include "fl_status.h"
#include "reference/friction_set_build.h"
#include "reference/p4_law.h"
#include "reference/stewart_law.h"

/* The numbers of a data/001/painleve_*.json file (member "params"). */
typedef struct fl_model_painleve_params {
    double m, J, l, theta0, mu_small, mu_large, V0, C0, h, T;
} fl_model_painleve_params;

/* Read path; m, J, l, h, T > 0, mu_small, mu_large >= 0.  FL_OK or an error
 * naming the file and field. */
fl_status fl_model_painleve_load(const char *path, fl_model_painleve_params *p, fl_error *err);

/* One bar: parameters, the friction coefficient of this run, the forces
 * (f_x, f_theta) and the friction set built at theta0. */
typedef struct fl_model_painleve {
    double m, J, l, theta0, mu, fx, ftheta;
    fl_fset_result fs;
} fl_model_painleve;

/* b = the bar of p with coefficient mu and torque f_theta = ftheta
 * (f_x = 0); C* built by 001 §6.1 with the normalisation norm.  Release
 * with fl_model_painleve_release. */
fl_status fl_model_painleve_init(fl_model_painleve *b, const fl_model_painleve_params *p, double mu,
                                 double ftheta, fl_fset_norm norm, fl_error *err);
/* (Re)build b->fs from the fields of b (b->fs must be empty or released). */
fl_status fl_model_painleve_build(fl_model_painleve *b, fl_fset_norm norm, fl_error *err);
void fl_model_painleve_release(fl_model_painleve *b);

/* M = diag(m, J) (2 x 2). */
void fl_model_painleve_mass(const fl_model_painleve *b, gsl_matrix *M);
/* tl of 001 (6.1) at theta0 (2 x 2): r = tl r~. */
void fl_model_painleve_tl(const fl_model_painleve *b, gsl_matrix *tl);
/* The P'4 system of the bar (n = 2, one constraint; data = b, which must
 * outlive it): M, f = (f_x, f_theta), phi = theta - theta0, dphi = (0, 1),
 * the friction set b->fs. */
fl_p4_system fl_model_painleve_system(fl_model_painleve *b);

/* ---- the same bar under Stewart's P5 (001 §6.2; reference/stewart_law.h) ---- */

/* q = (x, theta): abscissa of G and angle of the bar; M = diag(m, J); the
 * end A = G + l (cos theta, sin theta) with G at height -l sin theta0 so A
 * touches the x-axis at theta = theta0 (-pi/2 < theta0 < 0).  Gap
 * l (sin theta - sin theta0); H = [0, l cos theta; 1, -l sin theta] (normal
 * row, tangent row), which at theta0 is 001 (6.1).  f = (fx, ftheta) constant. */
typedef struct fl_model_painleve_bar {
    double m, J, l, theta0, mu, fx, ftheta;
} fl_model_painleve_bar;

/* Fill sys with the bar's callbacks (sys->data = bar; the bar must outlive sys). */
fl_status fl_model_painleve_stewart_system(const fl_model_painleve_bar *bar, fl_stewart_system *sys, fl_error *err);

#endif
