/* local_contact.h — the single-contact frictional contact problem, the
 * local solve of both Gauss–Seidel twins and the per-contact Alart–Curnier
 * function of both Newton twins (J. J. Moreau, Facing the plurality of
 * solutions in nonsmooth mechanics, Thessaloniki 2006 (paper 003), §3, the
 * single-contact problem of a Gauss–Seidel step; P. Alart and A. Curnier,
 * CMAME 92 (1991) 353–375, §3, the Alart–Curnier function; derivations: proofs/contact_dynamics.md §4,
 * proofs/newton.md (N1)–(N3), proofs/local_contact.md).
 *
 * One contact, dim = 2 or 3, components ordered [N, T...] (fl_problem.h:
 * r_N >= 0 compressive, U_N >= 0 separating).  W is the dim x dim diagonal
 * block W_aa of the Delassus operator, row-major, possibly NONSYMMETRIC;
 * b the velocity the contact would have without its own impulse, so
 *   U = W r + b,  and Coulomb's law: r in K_mu, U^ = U + mu |U_T| e_N in
 *   K_mu*, r . U^ = 0  (K_mu = {|r_T| <= mu r_N}).
 * The cases: open (r = 0, U_N >= 0), stick (U = 0, r in K_mu), slide
 * (r_N > 0, |r_T| = mu r_N, U_N = 0, r_T = -mu r_N U_T/|U_T|).
 *
 * Who calls what.  The reference Gauss–Seidel (reference/nsgs.c) calls the
 * exact solve fl_local_contact_solve; the sparse twin
 * (optimized/nsgs_sparse.c) calls fl_local_contact_solve_fast.  Both Newton
 * twins (reference/newton.c, optimized/newton_sparse.c) build their
 * generalized Jacobian from fl_local_contact_alart_curnier.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_LOCAL_CONTACT_H
#define FL_LOCAL_CONTACT_H

#include "fl_residual.h"

/* Exact solve (003 §3–5 steps 2–4, extended to dim 3; proofs/contact_dynamics.md
 * §4).  All exact cases are tried — open, stick (W r = -b by partial
 * pivoting), slide (dim 2: both directions; dim 3: every root of the
 * direction equation, a degree-2 trigonometric polynomial, found by a
 * 360-interval sign scan and bisection) — and, when several hold, the one
 * nearest the current value r (on input) is returned, so a solution of the
 * whole problem is a fixed point of the sweep.  Returns the number of valid
 * cases found (>= 1), or 0 when none was found: r is then the result of the
 * projected fixed-point fallback r <- P_K(r - rho U^), rho = 1/trace(W)
 * (2000 iterations), which is what happens for the degenerate blocks with no
 * solution (e.g. W_NN = W_NT = 0 and b_N < 0). */
int fl_local_contact_solve(int dim, double mu, const double *W, const double *b, double *r);

/* Inverse of the 3 x 3 row-major W by cofactors into Winv (for the fast
 * solve's stick case, computed once per Gauss–Seidel solve); 0 when W is
 * (nearly) singular: |det| <= 1e-14 max|W_ij|^3, or W = 0. */
int fl_local_contact_invert3(const double *W, double *Winv);

/* Sliding contact, dim 3: semismooth Newton (at most 30 steps, Armijo
 * halving on |Phi|^2) on the Alart–Curnier equation Phi(r, W r + b) = 0 with
 * rho = 3/trace(W), from r (or from (max(-b_N/W_NN, 0), 0, 0) when r_N <= 0).
 * Returns 1 and writes r when the natural-map error of the contact is
 * <= 1e-10 (|r_N| + |r_T| + |U_N| + |U_T|) and the result slides (r_N > 0,
 * U_N = 0 and |r_T| = mu r_N within 1e3 times that); else 0, r untouched. */
int fl_local_contact_slide_newton(double mu, const double *W, const double *b, double *r);

/* dim 2 where the single-contact problem has exactly one solution
 * (proofs/local_contact.md §6): when W_NN - mu |W_NT| > 1e-8 W_NN and
 * det W > 1e-8 max|W_ij|^2, the one solution is r = 0 if b_N >= 0, else the
 * stick r = -W^-1 b if it lies in K_mu, else the slide on the side of that
 * stick's r_T, computed with the exact solve's formulas and slack tests.
 * Returns 1 with r written; 0 (r untouched) when the condition fails or the
 * chosen slide fails the exact solve's velocity test. */
int fl_local_contact_solve_unique2(double mu, const double *W, const double *b, double *r);

/* The sparse Gauss–Seidel twin's solve.  dim 2:
 * fl_local_contact_solve_unique2 (return 1) where the local problem has
 * exactly one solution, else the exact solve fl_local_contact_solve (its
 * return value; Winv unused).  Either way the valid case nearest r is
 * returned, so that every solution, also where several cases hold, is a
 * fixed point of the sweep (a shortcut without the uniqueness condition
 * was tried and broke that: tests
 * enumerate::solutions_are_gauss_seidel_fixed_points,
 * moreau_jean::lemma_2_4_energy_jump_both_implementations).  dim 3: open
 * and stick (r = -Winv b, used when has_inv; Winv from
 * fl_local_contact_invert3) are tested first and the valid one nearer r is
 * taken (return 1 or 2); else, when b_N < 0, fl_local_contact_slide_newton
 * (return 1); else the exact solve (its return value). */
int fl_local_contact_solve_fast(int dim, double mu, const double *W, const double *Winv,
                                int has_inv, const double *b, double *r);

/* The Alart–Curnier function of one contact (Alart & Curnier 1991 §3;
 * proofs/newton.md (N1)) and the block D = dP/dy (row-major dim x dim) of
 * its generalized Jacobian ((N2)): y = r - rho U,
 *   Phi_N = r_N - max(0, y_N),  Phi_T = r_T - P_{D(mu max(0, y_N))}(y_T),
 * and J_a = (I - D) E_a + rho D dU_a/dr ((N3): J = I - D + rho D W for one
 * contact).  r, U, phi of length dim; D of dim * dim entries. */
void fl_local_contact_alart_curnier(int dim, double mu, double rho, const double *r,
                                    const double *U, double *phi, double *D);

#endif
