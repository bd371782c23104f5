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

#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* c ? u : v without a branch (the case of a contact is not predictable). */
static inline double fl_local_contact_pick(int c, double u, double v)
{
    uint64_t a, b, m = (uint64_t)0 - (uint64_t)(c != 0);
    memcpy(&a, &u, sizeof a);
    memcpy(&b, &v, sizeof b);
    a = (a & m) | (b & ~m);
    memcpy(&u, &a, sizeof u);
    return u;
}

/* dim 2 where the single-contact problem has exactly one solution
 * (proofs/local_contact.md §6): W_NN - mu |W_NT| > 1e-8 W_NN (both slide
 * denominators positive) and det W > 1e-8 max|W_ij|^2.  Then the one
 * solution is r = 0 if b_N >= 0, else the stick r = -W^-1 b when it lies in
 * K_mu, else the slide on the side of that stick's r_T (r_T < 0: sigma =
 * +1), computed with the exact solve's formulas and slack tests: the answer
 * is the case the exact solve finds valid, whose other cases are not tried
 * (they can pass its slacks only on a case boundary, where they coincide
 * with this one up to rounding).  Returns 1 with r written; 0 (r untouched)
 * when the condition fails, or the exact solve's tests disagree with the
 * pick: the caller then runs the exact solve.  Inline: the Gauss–Seidel
 * sweeps call it once per contact. */
static inline int fl_local_contact_solve_unique2(double mu, const double *W, const double *b,
                                                 double *r)
{
    const double a = W[0], c = W[1], c2 = W[2], d = W[3], bn = b[0], bt = b[1];
    const double det = a * d - c * c2;
    const double m0 = fabs(a) > fabs(c) ? fabs(a) : fabs(c);
    const double m1 = fabs(c2) > fabs(d) ? fabs(c2) : fabs(d);
    const double big = m0 > m1 ? m0 : m1;   /* not fmax: a libm call at -O2 */
    if (!(a - mu * fabs(c) > 1e-8 * a) || !(det > 1e-8 * big * big)) return 0;
    /* All three cases are computed and one is picked, without branches on
     * the case.  Stick: the exact solve's test on x = n / det, and the same test on n
     * (det > 0), which picks the case; they can differ only within rounding
     * of the slack, and then the exact solve decides (return 0), as when the
     * picked slide fails its velocity test. */
    const double n0 = -bn * d + c * bt, n1 = -a * bt + c2 * bn;
    const double ns = 1e-12 * (fabs(n0) + fabs(n1));
    const double x0 = n0 / det, x1 = n1 / det;
    const double nt = fabs(x1), slack = 1e-12 * (fabs(x0) + nt);
    const int open = bn >= 0;
    const int guess = (n0 >= -ns) & (fabs(n1) <= mu * n0 + ns);
    const int stick = (x0 >= -slack) & (nt <= mu * x0 + slack);
    const double s = fl_local_contact_pick(n1 < 0, 1.0, -1.0);   /* slide */
    const double rn = -bn / (a - s * mu * c), rt = -s * mu * rn;
    const double ut = c2 * rn + d * rt + bt;
    const int slide_ok = s * ut >= -1e-12 * (fabs(bt) + fabs(c2 * rn) + fabs(d * rt));
    const int inside = (x0 >= 0) & (nt <= mu * x0);   /* fl_coulomb_cone_project's identity */
    const int odd = (guess != stick) | ((!guess) & (!slide_ok)) | (guess & (!inside));
    if ((!open) & odd) {
        if (guess != stick || !guess) return 0;
        double x[2] = {x0, x1};   /* a stick within the slack outside K */
        fl_coulomb_cone_project(2, mu, x, r);
        return 1;
    }
    /* the slide is in K_mu: |r_T| = mu r_N */
    r[0] = fl_local_contact_pick(open, 0.0, fl_local_contact_pick(guess, x0, rn));
    r[1] = fl_local_contact_pick(open, 0.0, fl_local_contact_pick(guess, x1, rt));
    return 1;
}

/* fl_local_contact_solve_fast's dim-2 path, inline so that the sweeps
 * (optimized/nsgs_sparse.c, the 2x2 block sweep of nsgs_colored.c) inline
 * its early exit: fl_local_contact_solve_unique2 (return 1), else the exact
 * solve fl_local_contact_solve (its return value). */
static inline int fl_local_contact_solve_fast2(double mu, const double *W, const double *b,
                                               double *r)
{
    return fl_local_contact_solve_unique2(mu, W, b, r) ? 1 : fl_local_contact_solve(2, mu, W, b, r);
}

/* The sparse Gauss–Seidel twin's solve.  dim 2 (fl_local_contact_solve_fast2):
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
