/* quasistatic_sparse.h — sparse twin of reference/quasistatic.h: one
 * increment of the quasistatic frictional contact problem of
 * J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa, "Dynamic
 * stability of finite dimensional linearly elastic systems with unilateral
 * contact and Coulomb friction", Comput. Methods Appl. Mech. Engrg. 177
 * (3-4), 289-328, 1999 (paper 004), §5.3
 * eqs. (112)-(117), with K in CHOLMOD CSC storage.
 *
 * Same algorithm, options, result struct (fl_quasistatic_options, fl_quasistatic_result),
 * stopping rules and sign convention (004's: u_N <= 0 admissible, r_N <= 0
 * compressive, r = K u - f) as fl_quasistatic_step, hence the same iterates up to
 * rounding; each SORP sweep costs O(nnz(K)) instead of O(n^2).
 *
 * The system is fl_stability_system_sparse of optimized/stability_sparse.h: K is
 * n x n, CHOLMOD_REAL with int indices, in symmetric storage (stype != 0,
 * one triangle read, as CHOLMOD does) or unsymmetric storage (stype = 0,
 * every entry read: row i of K drives dof i, as in the dense reference,
 * even for a nonsymmetric K).  M is not used and may be NULL.
 *
 * Vectors are gsl_vector, as in fl_quasistatic_step, so both steppers share one
 * argument check (fl_quasistatic_check_args, fl_quasistatic_roles of reference/quasistatic_internal.h).
 *
 * Ownership: everything is borrowed; the step allocates its work (a full
 * CSC copy of K, the diagonal, r) per call on ctx and frees it before
 * returning, also on errors.
 */
#ifndef FL_QUASISTATIC_SPARSE_H
#define FL_QUASISTATIC_SPARSE_H

#include "fl_sparse.h"
#include "optimized/stability_sparse.h"
#include "reference/quasistatic.h"

/* One increment, the contract of fl_quasistatic_step (it reads s->ctx and
 * s->sparse): f = f^{k+1}, uk = u^k (length n);
 * g (length np): g^k in, g^{k+1} out; u: warm start in (prescribed entries
 * kept), u^{k+1} out; r (may be NULL): K u - f.  Errors: FL_EINVAL (NULL
 * ctx/system/K, bad options, mu, contact indices; K not REAL/int indices:
 * FL_EUNSUPPORTED), FL_EDIM (K not n x n, vector lengths), FL_ENONFINITE (K,
 * f, u^k, u, g), FL_ENOTSPD (K_ii <= 0 on a non-prescribed dof), FL_ENOMEM;
 * FL_WMAXITER as the reference. */
fl_status fl_quasistatic_step_sparse(const fl_quasistatic_system *s, const gsl_vector *f,
                                     const gsl_vector *uk, gsl_vector *g, gsl_vector *u, gsl_vector *r,
                                     const fl_quasistatic_options *opt, fl_quasistatic_result *res,
                                     fl_error *err);

#endif
