/* fl_types.c — the type tables of the twin pairs (see fl_types.h): one
 * entry per twin, adapters where the public twins' signatures differ. */
#include "drivers/fl_types.h"

#include <stddef.h>
#include <string.h>

#include "fl_dense.h"
#include "fl_sparse.h"
#include "reference/delassus.h"

const char *fl_impl_name(fl_impl impl)
{
    return impl == FL_IMPL_REFERENCE ? "reference" : impl == FL_IMPL_OPTIMIZED ? "optimized" : NULL;
}

fl_status fl_impl_parse(const char *name, fl_impl *out, fl_error *err)
{
    for (int k = 0; k < FL_IMPL_COUNT; k++)
        if (name && strcmp(name, fl_impl_name((fl_impl)k)) == 0) {
            *out = (fl_impl)k;
            return FL_OK;
        }
    return FL_FAIL(err, FL_ENOTFOUND, "unknown implementation '%s' (reference, optimized)",
                   name ? name : "(null)");
}

/* ---- Delassus ---- */

const fl_delassus_type fl_delassus_types[] = {
    {"reference", fl_delassus_dense},
    {"optimized", fl_delassus_sparse},
    {NULL, NULL}
};

/* ---- Gauss-Seidel ---- */

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

static fl_status mass_solve_optimized(const fl_global_problem *g, cholmod_factor **L,
                                      const gsl_vector *b, gsl_vector *u, fl_error *err)
{
    if (!L || !*L) return FL_FAIL(err, FL_EINVAL, "nsgs_impl: the factor of M is missing");
    return fl_sparse_solve(g->ctx, *L, b->data, u->data, err);
}

const fl_nsgs_type fl_nsgs_types[] = {
    {"reference", fl_delassus_dense, fl_nsgs_solve, mass_solve_reference, fl_nsgs_check_blocks},
    {"optimized", fl_delassus_sparse, fl_nsgs_solve_sparse, mass_solve_optimized,
     fl_nsgs_check_blocks_sparse},
    {NULL, NULL, NULL, NULL, NULL}
};

const fl_nsgs_type *fl_nsgs_type_get(fl_impl impl)
{
    return impl == FL_IMPL_REFERENCE || impl == FL_IMPL_OPTIMIZED ? &fl_nsgs_types[impl] : NULL;
}

/* ---- laws whose twins share one signature ---- */

const fl_newton_type fl_newton_types[] = {
    {"reference", fl_newton_solve, fl_newton_global_solve},
    {"optimized", fl_newton_solve_sparse, fl_newton_global_solve_sparse},
    {NULL, NULL, NULL}
};

const fl_ppa_type fl_ppa_types[] = {
    {"reference", fl_ppa_solve},
    {"optimized", fl_ppa_solve_sparse},
    {NULL, NULL}
};

const fl_moreau_type fl_moreau_types[] = {
    {"reference", fl_moreau_law},
    {"optimized", fl_moreau_law_sparse},
    {NULL, NULL}
};

const fl_p4_type fl_p4_types[] = {
    {"reference", fl_p4_step},
    {"optimized", fl_p4_step_sparse},
    {NULL, NULL}
};

const fl_stewart_type fl_stewart_types[] = {
    {"reference", fl_stewart_step},
    {"optimized", fl_stewart_step_sparse},
    {NULL, NULL}
};

/* ---- quasistatic ---- */

const fl_quasistatic_type fl_quasistatic_types[] = {
    {"reference", fl_quasistatic_step},
    {"optimized", fl_quasistatic_step_sparse},
    {NULL, NULL}
};

/* ---- stability ---- */

const fl_stability_type fl_stability_types[] = {
    {"reference", fl_stability_analyse},
    {"optimized", fl_stability_analyse_sparse},
    {NULL, NULL}
};

/* ---- midpoint ---- */

static fl_status midpoint_alloc_reference(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                                          void **out, fl_error *err)
{
    fl_midpoint_options o = opt ? *opt : fl_midpoint_options_default();
    fl_midpoint *mp = NULL;
    fl_status s = fl_midpoint_alloc(p, &o, &mp, err);
    if (out) *out = mp;
    return s;
}

static fl_status midpoint_step_reference(void *mp, fl_midpoint_state *st, fl_midpoint_result *res,
                                         fl_error *err)
{
    return fl_midpoint_step(mp, st, res, err);
}

static double midpoint_energy_reference(void *mp, const gsl_vector *u, const gsl_vector *v)
{
    return fl_midpoint_energy(((fl_midpoint *)mp)->p, u, v);
}

static void midpoint_free_reference(void *mp)
{
    fl_midpoint_free(mp);
}

static fl_status midpoint_alloc_optimized(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                                          void **out, fl_error *err)
{
    fl_midpoint_options o = opt ? *opt : fl_midpoint_options_default();
    fl_midpoint_sparse *mp = NULL;
    fl_status s = fl_midpoint_alloc_sparse(p, &o, &mp, err);
    if (out) *out = mp;
    return s;
}

static fl_status midpoint_step_optimized(void *mp, fl_midpoint_state *st, fl_midpoint_result *res,
                                         fl_error *err)
{
    return fl_midpoint_step_sparse(mp, st, res, err);
}

static double midpoint_energy_optimized(void *mp, const gsl_vector *u, const gsl_vector *v)
{
    return fl_midpoint_energy_sparse(mp, u, v);
}

static void midpoint_free_optimized(void *mp)
{
    fl_midpoint_free_sparse(mp);
}

const fl_midpoint_type fl_midpoint_types[] = {
    {"reference", midpoint_alloc_reference, midpoint_step_reference, midpoint_energy_reference,
     midpoint_free_reference},
    {"optimized", midpoint_alloc_optimized, midpoint_step_optimized, midpoint_energy_optimized,
     midpoint_free_optimized},
    {NULL, NULL, NULL, NULL, NULL}
};
