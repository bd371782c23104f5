/* moreau_jean.h — one Contact Dynamics step with the Moreau–Jean impact
 * rule of J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12 (paper 003), §3, in the form of
 * J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa, "Dynamic
 * stability of finite dimensional linearly elastic systems with unilateral
 * contact and Coulomb friction", Comput. Methods Appl. Mech. Engrg. 177
 * (3-4), 289-328, 1999 (paper 004), eqs. (18)-(21) and Lemma 2.4.
 *
 * Global data g (fl_problem.h): M u+ = f + H^T s, where in a time step
 * f = M u- + h F (free momentum) and for a pure impact f = M u-.  The local
 * velocity is U = H u + w.  The impulse s satisfies Coulomb's law with the
 * average velocity of 004 (20)
 *     U^a = H u^a + w,   u^a = (1-delta)/2 u- + (1+delta)/2 u+,
 * delta in [0, 1] the dissipation index (004 (21)); delta = 1 is the
 * perfectly inelastic CD scheme of 003 §3 (U^a = U at the end of the step).
 * Reduction to a local problem [DERIVED, 004 (18)–(21), 003 §3,
 * proofs/contact_dynamics.md]:
 *     U^a = W_a s + q_a,  W_a = (1+delta)/2 H M^-1 H^T,
 *     q_a = H ((1-delta)/2 u- + (1+delta)/2 M^-1 f) + w.
 *
 * Sign convention: library (s_N >= 0 compressive, U_N >= 0 separating).
 * 004 writes I_N <= 0 with the normal axis pointing into the obstacle, so
 * 004's term  + sum mu I_N |u^a_T|  of Lemma 2.4 reads here
 *     - sum mu s_N |U^a_T|:
 *   T(u+) - T(u-) = -delta/2 (u+ - u-).M(u+ - u-) - sum_a mu_a s_Na |U^a_Ta|
 *                   - s.w   (the last term vanishes in 004's setting w = 0),
 * valid for a pure impact (f = M u-).
 */
#ifndef FL_MOREAU_JEAN_H
#define FL_MOREAU_JEAN_H

#include "drivers/fl_types.h"   /* fl_impl and the implementation table */

typedef struct fl_moreau_jean_options {
    double delta;            /* dissipation index in [0, 1], default 1 */
    fl_impl impl;            /* default reference */
    fl_nsgs_options nsgs;    /* the Gauss–Seidel options */
} fl_moreau_jean_options;

typedef struct fl_moreau_jean_result {
    fl_status status;
    int iterations;          /* Gauss–Seidel sweeps */
    double residual;         /* natural-map error of the local problem */
    double seconds;
    double T_minus, T_plus;  /* kinetic energies 1/2 u.Mu */
    double dT;               /* T_plus - T_minus */
    double dT_lemma;         /* right-hand side of 004 Lemma 2.4 (library signs, see above) */
} fl_moreau_jean_result;

fl_moreau_jean_options fl_moreau_jean_options_default(void);

/* The local problem of the step (W_a, q_a above) as a new fl_local_problem:
 * dense W for the reference, sparse for the optimized implementation (then
 * g->ctx is required and *L caches the factor of M, see fl_delassus_sparse). */
fl_status fl_moreau_jean_local(const fl_global_problem *g, const gsl_vector *u_minus, double delta,
                      fl_impl impl, cholmod_factor **L, fl_local_problem **out,
                      fl_error *err);

/* One step (004 (18)-(21), 003 §3): s (length m) is the warm start on input
 * when opt->nsgs.start == FL_NSGS_START_WARM and the impulse on output;
 * u_plus (length n) receives u+ = M^-1 (f + H^T s).  L: factor cache for
 * the optimized implementation (may be NULL: a private factor is used). */
fl_status fl_moreau_jean_step(const fl_global_problem *g, const gsl_vector *u_minus,
                     const fl_moreau_jean_options *opt, cholmod_factor **L, gsl_vector *s,
                     gsl_vector *u_plus, fl_moreau_jean_result *res, fl_error *err);

#endif
