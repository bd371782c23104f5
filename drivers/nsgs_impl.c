/* nsgs_impl.c — the implementation table of the Contact Dynamics core
 * problem (003 §3).  See nsgs_impl.h. */
#include "drivers/nsgs_impl.h"

#include <stddef.h>

#include "fl_dense.h"
#include "fl_sparse.h"
#include "optimized/delassus_sparse.h"
#include "reference/delassus.h"
#include "optimized/nsgs_sparse.h"

static fl_status delassus_reference(const fl_global_problem *g, cholmod_factor **L,
                                    fl_local_problem **out, fl_error *err)
{
    (void)L;
    return fl_delassus_dense(g, out, err);
}

static fl_status mass_solve_reference(const fl_global_problem *g, cholmod_factor **L,
                                      const gsl_vector *b, gsl_vector *u, fl_error *err)
{
    (void)L;
    fl_spd *spd = NULL;
    fl_status s = fl_spd_alloc(g->M, &spd, err);
    if (s == FL_OK) s = fl_spd_solve(spd, b, u);
    fl_spd_free(spd);
    return s;
}

static fl_status delassus_optimized(const fl_global_problem *g, cholmod_factor **L,
                                    fl_local_problem **out, fl_error *err)
{
    return fl_delassus_sparse(g, FL_DELASSUS_SOLVES, L, out, err);
}

static fl_status mass_solve_optimized(const fl_global_problem *g, cholmod_factor **L,
                                      const gsl_vector *b, gsl_vector *u, fl_error *err)
{
    if (!L || !*L) return FL_FAIL(err, FL_EINVAL, "nsgs_impl: the factor of M is missing");
    return fl_sparse_solve(g->ctx, *L, b->data, u->data, err);
}

static const fl_nsgs_impl nsgs_reference = {
    "reference", delassus_reference, fl_nsgs_solve, mass_solve_reference
};
static const fl_nsgs_impl nsgs_optimized = {
    "optimized", delassus_optimized, fl_nsgs_solve_sparse, mass_solve_optimized
};
const fl_nsgs_impl *const fl_nsgs_reference = &nsgs_reference;
const fl_nsgs_impl *const fl_nsgs_optimized = &nsgs_optimized;

const fl_nsgs_impl *fl_nsgs_impl_get(fl_impl impl)
{
    return impl == FL_IMPL_REFERENCE ? fl_nsgs_reference
         : impl == FL_IMPL_OPTIMIZED ? fl_nsgs_optimized : NULL;
}
