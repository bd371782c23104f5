/* fl_model_example_3_15.h — the three-particle system of 004 §3.5 Example
 * 3.15 (Fig. 7), built from data/004/example_3_15.json.
 *
 * Dofs (u_D, u_F, u_T, u_N): u_D prescribed (= 2P/K), one contact particle
 * (T, N); three masses M, three springs K; 004's signs (u_N <= 0
 * admissible, r_N <= 0 compressive).  The homogenised equilibrium is
 * u0 = (0, P/K, 0, 0), r0 = K u0 - f = (P, 0, -mu P, -P) with
 * f = (-2P, 2P, mu P, 0) (proofs/stability.md §4).
 *
 * Ownership: a system owns its matrices and vectors; s points into them.
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_MODEL_EXAMPLE_3_15_H
#define FL_MODEL_EXAMPLE_3_15_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"
#include "reference/stability.h"

/* The data file: scale factors K, M, P and the mu grid; expected values. */
typedef struct fl_model_example_3_15 {
    double K, M, P;
    gsl_vector *mu;               /* the mu grid (owned) */
    double tol;                   /* expected.tolerance */
} fl_model_example_3_15;

/* The mechanical system at one mu. */
typedef struct fl_model_example_3_15_system {
    gsl_matrix *K, *M;            /* 4 x 4: K [1 -1 0 0; -1 2 0 -1; 0 0 1 0; 0 -1 0 1], M I */
    gsl_vector *u0, *r0, *f;      /* the equilibrium and the load */
    unsigned char pres[4];        /* u_D prescribed */
    size_t iT, iN;
    fl_stability_system s;
} fl_model_example_3_15_system;

/* Read the file; errors name the file, line and field (K, M, P > 0, every
 * mu >= 0, tolerance > 0). */
fl_status fl_model_example_3_15_load(const char *path, fl_model_example_3_15 *out, fl_error *err);
void fl_model_example_3_15_release(fl_model_example_3_15 *m);

/* The system for stiffness K, mass M, load P (all > 0) and mu >= 0. */
fl_status fl_model_example_3_15_system_alloc(double K, double M, double P, double mu,
                                             fl_model_example_3_15_system **out, fl_error *err);
void fl_model_example_3_15_system_free(fl_model_example_3_15_system *sys);

#endif
