/* quasistatic.h — one increment of the quasistatic frictional contact
 * problem of J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa, "Dynamic
 * stability of finite dimensional linearly elastic systems with unilateral
 * contact and Coulomb friction", Comput. Methods Appl. Mech. Engrg. 177
 * (3-4), 289-328, 1999 (paper 004),
 * §5.3 eqs. (112)-(117):
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

/* One system in both storages: dense for the reference, sparse (on ctx,
 * optimized/stability_sparse.h) for the sparse twin; a twin reads only its
 * own fields (the others may be NULL). */
struct fl_stability_system_sparse;
typedef struct fl_quasistatic_system {
    const fl_stability_system *dense;
    fl_sparse_ctx *ctx;
    const struct fl_stability_system_sparse *sparse;
} fl_quasistatic_system;

/* The one contract of the quasistatic twins (004 (115)-(117)); the sparse
 * twin fl_quasistatic_step_sparse (optimized/quasistatic_sparse.h) has the
 * same signature.  One increment of the system s (the reference reads
 * s->dense): f = f^{k+1} (length n), uk = u^k (the tangential memory),
 * g (length np): g^k on input (the fixed point starts there), g^{k+1} on
 * output; u: warm start on input (prescribed entries are kept), u^{k+1} on
 * output; r (may be NULL): K u - f.  opt NULL: the defaults. */
fl_status fl_quasistatic_step(const fl_quasistatic_system *s, const gsl_vector *f, const gsl_vector *uk,
                              gsl_vector *g, gsl_vector *u, gsl_vector *r, const fl_quasistatic_options *opt,
                              fl_quasistatic_result *res, fl_error *err);

#endif
