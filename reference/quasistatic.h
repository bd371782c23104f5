/* quasistatic.h — one increment of the quasistatic frictional contact
 * problem of 004 §5.3 (115)-(117) (004 §5.3 (112)–(117); 004 §5.3 (116)–(117)):
 *   find u^{k+1} in K_u minimising, for fixed Tresca thresholds g,
 *     J(v) = 1/2 K v.v - f^{k+1}.v + sum_p g_p |v_Tp - u^k_Tp|      (116)
 *   by projected over-relaxation (SORP), then the fixed point
 *     g <- mu |r_N(u)|,  r = K u - f  on the contact dofs            (117)
 *   ("contact forces from the residues of equilibrium").
 * Sign convention: 004's (u_N <= 0 admissible, r_N <= 0 compressive); the
 * system description is fl_stability_system of reference/stability.h (its M is
 * not used).  Prescribed dofs keep the values given in u on input.
 */
#ifndef FL_QUASISTATIC_H
#define FL_QUASISTATIC_H

#include "reference/stability.h"

typedef struct fl_quasistatic_options {
    double omega;        /* over-relaxation in (0, 2), default 1.5 (004 gives none) */
    double tol;          /* inner stop: max |dv| <= tol max(|v|, 1), default 1e-12 */
    int max_sweeps;      /* per inner solve, default 100000 */
    double tol_g;        /* outer stop: max |g_new - g| <= tol_g max g + 1e-13 mu max(max|f|, 1), default 1e-10 */
    int max_g_iter;      /* default 200 */
} fl_quasistatic_options;

typedef struct fl_quasistatic_result {
    fl_status status;    /* FL_OK, FL_WMAXITER, or an error */
    int iterations;      /* total SORP sweeps */
    double residual;     /* last relative change of g */
    double seconds;
    int g_iterations;    /* fixed-point iterations on g (004: "usually less than 8") */
} fl_quasistatic_result;

fl_quasistatic_options fl_quasistatic_options_default(void);

/* One increment: f = f^{k+1} (length n), uk = u^k (the tangential memory),
 * g (length np): g^k on input (the fixed point starts there), g^{k+1} on
 * output; u: warm start on input (prescribed entries are kept), u^{k+1} on
 * output; r (may be NULL): K u - f. */
fl_status fl_quasistatic_step(const fl_stability_system *s, const gsl_vector *f, const gsl_vector *uk,
                     gsl_vector *g, gsl_vector *u, gsl_vector *r, const fl_quasistatic_options *opt,
                     fl_quasistatic_result *res, fl_error *err);

/* ---- internal: shared by fl_quasistatic_step and fl_quasistatic_step_sparse --------------
 * (optimized/quasistatic_sparse.h).  The checks that do not depend on how
 * K is stored; the matrix checks (size, finiteness, K_ii > 0 on the
 * non-prescribed dofs) stay with each stepper. */

/* *o = *opt, or the defaults when opt is NULL; FL_EINVAL unless omega in
 * (0, 2), tol > 0, max_sweeps >= 1, max_g_iter >= 1.  FL_EDIM unless f, uk,
 * u have length n, g length np and r (may be NULL) length n; FL_ENONFINITE
 * if f, uk, u or g holds a NaN or an infinity. */
fl_status fl_quasistatic_check_args(size_t n, size_t np, const gsl_vector *f, const gsl_vector *uk,
                           const gsl_vector *g, const gsl_vector *u, const gsl_vector *r,
                           const fl_quasistatic_options *opt, fl_quasistatic_options *o, fl_error *err);

/* The role of each dof in the SORP sweep: role[i] = 0 prescribed, 1 free,
 * 2 T_p, 3 N_p, and part[i] = p for the contact dofs (0 elsewhere); both
 * arrays (length n) are allocated here, the caller frees them with free().
 * FL_EINVAL (nothing allocated) if mu is not finite and >= 0 or a contact
 * dof is out of range, repeated or prescribed (as fl_stability_system_check). */
fl_status fl_quasistatic_roles(size_t n, const unsigned char *prescribed, size_t np, const size_t *iT,
                      const size_t *iN, double mu, int **role, size_t **part, fl_error *err);

#endif
