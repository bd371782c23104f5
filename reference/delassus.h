/* delassus.h — the Delassus operator W = H M^-1 H^T of a global problem
 * (M v = f + H^T r, U = H v + w) and the local problem U = W r + q it
 * gives, as in J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in Engineering,
 * Thessaloniki, 2006, pp. 3-12, §3 (paper 003).  Dense here; the
 * sparse twin fl_delassus_sparse (optimized/delassus_sparse.h) has the same
 * signature. */
#ifndef FL_DELASSUS_H
#define FL_DELASSUS_H

#include "fl_problem.h"
#include "fl_status.h"

/* How the sparse twin forms W (the reference ignores it, but refuses an
 * unknown value as the sparse twin does).  FL_DELASSUS_SOLVES forms
 * X = M^-1 H^T by sparse solves and W = H X; FL_DELASSUS_TRAILING factors
 * the augmented SPD matrix [M H^T; H c I] with the contact unknowns ordered
 * last and reads W = c I - L22 L22^T off the trailing block of its factor. */
typedef enum fl_delassus_method {
    FL_DELASSUS_SOLVES = 0,
    FL_DELASSUS_TRAILING = 1
} fl_delassus_method;

/* Options of both twins; NULL means fl_delassus_options_default(). */
typedef struct fl_delassus_options {
    struct {                         /* the sparse twin's own tuning */
        fl_delassus_method method;   /* default FL_DELASSUS_SOLVES */
    } sparse;
} fl_delassus_options;
fl_delassus_options fl_delassus_options_default(void);
/* FL_EINVAL (naming the field) for an unknown opt->sparse.method; NULL is valid. */
fl_status fl_delassus_options_check(const fl_delassus_options *opt, fl_error *err);

/* The one contract of the Delassus twins (003 §3): W = H M^-1 H^T,
 * q = H M^-1 f + w of the global problem g; *out gets a new local problem
 * (dense W here, cholmod_sparse W in the sparse twin).  L (may be NULL)
 * caches the factor of M between calls of the sparse twin with the same M
 * (pass *L == NULL first, free it with fl_sparse_free_factor; with L NULL
 * the factor is freed before returning); the reference ignores L and
 * opt->sparse.  g->M must be SPD (FL_ENOTSPD otherwise). */
fl_status fl_delassus_dense(const fl_global_problem *g, const fl_delassus_options *opt,
                            cholmod_factor **L, fl_local_problem **out, fl_error *err);

#endif
