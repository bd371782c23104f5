/* nsgs_impl.h — the two implementations of the Contact Dynamics core
 * problem (003 §3; 004 (18)–(21)) as one table, as GSL's solver types
 * (gsl_multiroot_fsolver_type): a driver (drivers/moreau_jean.c,
 * drivers/plurality_explore.c, drivers/discs_step.c) takes an fl_impl, looks up
 * its entry and calls through it, so that it never names a twin itself.
 *
 *   fl_nsgs_reference  dense W = H M^-1 H^T (fl_delassus_dense), fl_nsgs_solve,
 *                      M u = b by a dense Cholesky (fl_spd)
 *   fl_nsgs_optimized  CHOLMOD W (fl_delassus_sparse, factor of M cached in
 *                      *L), fl_nsgs_solve_sparse, M u = b with that factor
 *
 * A test or a check loops over both entries with one harness.
 */
#ifndef FL_NSGS_IMPL_H
#define FL_NSGS_IMPL_H

#include "reference/nsgs.h"

typedef enum fl_impl {
    FL_IMPL_REFERENCE = 0,   /* dense W, fl_nsgs_solve */
    FL_IMPL_OPTIMIZED = 1    /* sparse W (CHOLMOD), fl_nsgs_solve_sparse */
} fl_impl;

/* The Gauss–Seidel solve of a local problem (fl_nsgs_solve's signature). */
typedef fl_status (*fl_nsgs_solve_fn)(const fl_local_problem *p, const fl_nsgs_options *opt,
                                      gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                                      fl_error *err);
/* W = H M^-1 H^T and q = H M^-1 f + w of g as a new local problem *out.
 * L (not NULL) caches the factor of M between calls (optimized; the
 * reference does not use it). */
typedef fl_status (*fl_nsgs_delassus_fn)(const fl_global_problem *g, cholmod_factor **L,
                                         fl_local_problem **out, fl_error *err);
/* u = M^-1 b with the M of g; *L as above (filled by delassus). */
typedef fl_status (*fl_nsgs_mass_solve_fn)(const fl_global_problem *g, cholmod_factor **L,
                                           const gsl_vector *b, gsl_vector *u, fl_error *err);

typedef struct fl_nsgs_impl {
    const char *name;                  /* "reference" or "optimized" */
    fl_nsgs_delassus_fn delassus;
    fl_nsgs_solve_fn solve;
    fl_nsgs_mass_solve_fn mass_solve;
} fl_nsgs_impl;

extern const fl_nsgs_impl *const fl_nsgs_reference;
extern const fl_nsgs_impl *const fl_nsgs_optimized;

/* The table entry of impl, NULL for an unknown value. */
const fl_nsgs_impl *fl_nsgs_impl_get(fl_impl impl);

#endif
