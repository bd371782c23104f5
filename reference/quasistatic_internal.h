/* quasistatic_internal.h — what the two quasistatic twins share
 * (reference/quasistatic.c, optimized/quasistatic_sparse.c) and a user does
 * not call.  Not installed. */
#ifndef FL_QUASISTATIC_INTERNAL_H
#define FL_QUASISTATIC_INTERNAL_H

#include <stddef.h>
#include <gsl/gsl_vector.h>

#include "reference/quasistatic.h"

/* Shared by fl_quasistatic_step and fl_quasistatic_step_sparse
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
