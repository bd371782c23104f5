/* test_checks_faults.c — the crosscheck laws of checks/ catch a broken
 * implementation.  A library function the checks call is replaced, through
 * the linker's --wrap (tests/meson.build: only the references from this
 * program and from the static library are redirected), by one that
 *   - returns an error status on every call (FAULT_ERROR), or
 *   - returns a slightly wrong answer (FAULT_PERTURB: an offset far above
 *     the checks' tolerances, far below the size of the answer);
 * the crosscheck must then report the check that compares that answer as
 * FAIL (or refuse to run, -1), never PASS everything.  Without a fault
 * every check passes on the same systems (the control). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "check_capture.h"
#include "checks/fl_check.h"
#include "checks/fl_tasks.h"
#include "fl_friction_set.h"
#include "fl_set_random.h"
#include "fl_problem.h"
#include "fl_random.h"
#include "fl_sparse.h"
#include "drivers/moreau_jean.h"
#include "drivers/plurality_explore.h"
#include "optimized/delassus_sparse.h"
#include "optimized/newton_sparse.h"
#include "optimized/nsgs_sparse.h"
#include "reference/enumerate.h"
#include "reference/newton.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "fl_dense.h"
#include "optimized/p4_law_sparse.h"
#include "optimized/stewart_law_sparse.h"
#include "reference/friction_set_build.h"
#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "reference/p4_law.h"
#include "reference/stewart_law.h"
#include "optimized/fe2d_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "optimized/stability_sparse.h"
#include "reference/fe2d.h"
#include "reference/midpoint.h"
#include "models/fl_model_triangle.h"
#include "reference/redistribution.h"
#include "reference/stability.h"
#include "checks/moreau_checks.h"
#include "optimized/moreau_law_sparse.h"
#include "reference/moreau_law.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "models/fl_model_painleve.h"
#include "models/fl_model_wedged_rod.h"
#include "reference/asymptotics.h"

/* ---- the fault switch ---- */

enum { FAULT_NONE = 0, FAULT_ERROR = 1, FAULT_PERTURB = 2 };
static const char *fault_fn;   /* the function that misbehaves */
static int fault_mode;

static int fault(const char *fn)
{
    return fault_fn && strcmp(fn, fault_fn) == 0 ? fault_mode : FAULT_NONE;
}

static fl_status injected(fl_error *err, const char *fn)
{
    if (err) {
        memset(err, 0, sizeof *err);
        snprintf(err->message, sizeof err->message, "%s: injected failure", fn);
    }
    return FL_EINVAL;
}

/* ---- friction sets (core/fl_friction_set.h, testkit/fl_set_random.h) ---- */

fl_status __real_fl_friction_set_project(const fl_friction_set *C, const double *x, double *p, fl_error *err);
fl_status __wrap_fl_friction_set_project(const fl_friction_set *C, const double *x, double *p, fl_error *err);
fl_status __wrap_fl_friction_set_project(const fl_friction_set *C, const double *x, double *p, fl_error *err)
{
    int f = fault("fl_friction_set_project");
    if (f == FAULT_ERROR) return injected(err, "fl_friction_set_project");
    fl_status s = __real_fl_friction_set_project(C, x, p, err);
    if (f == FAULT_PERTURB) p[0] += 1e-3 * fl_set_random_scale(C);
    return s;
}

fl_status __real_fl_friction_set_project_metric(const fl_friction_set *C, const double *G, const double *x, double *p,
                                       fl_error *err);
fl_status __wrap_fl_friction_set_project_metric(const fl_friction_set *C, const double *G, const double *x, double *p,
                                       fl_error *err);
fl_status __wrap_fl_friction_set_project_metric(const fl_friction_set *C, const double *G, const double *x, double *p,
                                       fl_error *err)
{
    int f = fault("fl_friction_set_project_metric");
    if (f == FAULT_ERROR) return injected(err, "fl_friction_set_project_metric");
    fl_status s = __real_fl_friction_set_project_metric(C, G, x, p, err);
    if (f == FAULT_PERTURB) p[0] += 1e-3 * fl_set_random_scale(C);
    return s;
}

/* FAULT_ERROR: S_C = +inf everywhere; FAULT_PERTURB: S_C + 1e-3 scale */
int __real_fl_friction_set_support(const fl_friction_set *C, const double *y, double *value);
int __wrap_fl_friction_set_support(const fl_friction_set *C, const double *y, double *value);
int __wrap_fl_friction_set_support(const fl_friction_set *C, const double *y, double *value)
{
    int f = fault("fl_friction_set_support");
    if (f == FAULT_ERROR) {
        *value = INFINITY;
        return 0;
    }
    int fin = __real_fl_friction_set_support(C, y, value);
    if (f == FAULT_PERTURB && fin) *value += 1e-3 * fl_set_random_scale(C);
    return fin;
}

fl_status __real_fl_friction_set_support_point(const fl_friction_set *C, const double *y, double *c, fl_error *err);
fl_status __wrap_fl_friction_set_support_point(const fl_friction_set *C, const double *y, double *c, fl_error *err);
fl_status __wrap_fl_friction_set_support_point(const fl_friction_set *C, const double *y, double *c, fl_error *err)
{
    int f = fault("fl_friction_set_support_point");
    if (f == FAULT_ERROR) return injected(err, "fl_friction_set_support_point");
    fl_status s = __real_fl_friction_set_support_point(C, y, c, err);
    if (f == FAULT_PERTURB) c[0] -= 1e-3 * fl_set_random_scale(C);
    return s;
}

fl_status __real_fl_friction_set_cone_project(const fl_friction_set *C, const double *x, double *p, fl_error *err);
fl_status __wrap_fl_friction_set_cone_project(const fl_friction_set *C, const double *x, double *p, fl_error *err);
fl_status __wrap_fl_friction_set_cone_project(const fl_friction_set *C, const double *x, double *p, fl_error *err)
{
    int f = fault("fl_friction_set_cone_project");
    if (f == FAULT_ERROR) return injected(err, "fl_friction_set_cone_project");
    fl_status s = __real_fl_friction_set_cone_project(C, x, p, err);
    if (f == FAULT_PERTURB) p[0] += 1e-3 * (1 + fabs(x[0]));
    return s;
}

fl_status __real_fl_friction_set_cone_project_polar(const fl_friction_set *C, const double *x, double *p, fl_error *err);
fl_status __wrap_fl_friction_set_cone_project_polar(const fl_friction_set *C, const double *x, double *p, fl_error *err);
fl_status __wrap_fl_friction_set_cone_project_polar(const fl_friction_set *C, const double *x, double *p, fl_error *err)
{
    int f = fault("fl_friction_set_cone_project_polar");
    if (f == FAULT_ERROR) return injected(err, "fl_friction_set_cone_project_polar");
    fl_status s = __real_fl_friction_set_cone_project_polar(C, x, p, err);
    if (f == FAULT_PERTURB) p[0] -= 1e-3 * (1 + fabs(x[0]));
    return s;
}

fl_status __real_fl_set_random(gsl_rng *r, fl_friction_set *C, fl_error *err);
fl_status __wrap_fl_set_random(gsl_rng *r, fl_friction_set *C, fl_error *err);
fl_status __wrap_fl_set_random(gsl_rng *r, fl_friction_set *C, fl_error *err)
{
    if (fault("fl_set_random") == FAULT_ERROR) return injected(err, "fl_set_random");
    return __real_fl_set_random(r, C, err);
}

fl_status __real_fl_set_random_variant(gsl_rng *r, int variant, fl_friction_set *C, fl_error *err);
fl_status __wrap_fl_set_random_variant(gsl_rng *r, int variant, fl_friction_set *C, fl_error *err);
fl_status __wrap_fl_set_random_variant(gsl_rng *r, int variant, fl_friction_set *C, fl_error *err)
{
    if (fault("fl_set_random_variant") == FAULT_ERROR) return injected(err, "fl_set_random_variant");
    return __real_fl_set_random_variant(r, variant, C, err);
}

fl_status __real_fl_friction_set_copy(fl_friction_set *dst, const fl_friction_set *src, fl_error *err);
fl_status __wrap_fl_friction_set_copy(fl_friction_set *dst, const fl_friction_set *src, fl_error *err);
fl_status __wrap_fl_friction_set_copy(fl_friction_set *dst, const fl_friction_set *src, fl_error *err)
{
    if (fault("fl_friction_set_copy") == FAULT_ERROR) return injected(err, "fl_friction_set_copy");
    return __real_fl_friction_set_copy(dst, src, err);
}

fl_status __real_fl_friction_set_interval(fl_friction_set *C, double lo, double hi, fl_error *err);
fl_status __wrap_fl_friction_set_interval(fl_friction_set *C, double lo, double hi, fl_error *err);
fl_status __wrap_fl_friction_set_interval(fl_friction_set *C, double lo, double hi, fl_error *err)
{
    if (fault("fl_friction_set_interval") == FAULT_ERROR) return injected(err, "fl_friction_set_interval");
    return __real_fl_friction_set_interval(C, lo, hi, err);
}

/* ---- contact problems and their solvers ---- */

/* r <- r + 1e-2 (1 + |r|_inf) e_0: far off the law, same status */
static void nudge(gsl_vector *r)
{
    if (!r || r->size == 0) return;
    double m = 0;
    for (size_t i = 0; i < r->size; i++) m = fmax(m, fabs(gsl_vector_get(r, i)));
    gsl_vector_set(r, 0, gsl_vector_get(r, 0) + 1e-2 * (1 + m));
}

fl_status __real_fl_global_problem_random(gsl_rng *r, size_t n, size_t nc, int dim, double mu_lo, double mu_hi,
                                          fl_global_problem **out, fl_error *err);
fl_status __wrap_fl_global_problem_random(gsl_rng *r, size_t n, size_t nc, int dim, double mu_lo, double mu_hi,
                                          fl_global_problem **out, fl_error *err);
fl_status __wrap_fl_global_problem_random(gsl_rng *r, size_t n, size_t nc, int dim, double mu_lo, double mu_hi,
                                          fl_global_problem **out, fl_error *err)
{
    if (fault("fl_global_problem_random") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_global_problem_random");
    }
    return __real_fl_global_problem_random(r, n, nc, dim, mu_lo, mu_hi, out, err);
}

fl_status __real_fl_delassus_dense(const fl_global_problem *g, const fl_delassus_options *opt, cholmod_factor **L,
                                   fl_local_problem **out, fl_error *err);
fl_status __wrap_fl_delassus_dense(const fl_global_problem *g, const fl_delassus_options *opt, cholmod_factor **L,
                                   fl_local_problem **out, fl_error *err);
fl_status __wrap_fl_delassus_dense(const fl_global_problem *g, const fl_delassus_options *opt, cholmod_factor **L,
                                   fl_local_problem **out, fl_error *err)
{
    if (fault("fl_delassus_dense") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_delassus_dense");
    }
    return __real_fl_delassus_dense(g, opt, L, out, err);
}

fl_status __real_fl_sparse_from_dense(fl_sparse_ctx *ctx, const gsl_matrix *A, int stype, double droptol,
                                      cholmod_sparse **out, fl_error *err);
fl_status __wrap_fl_sparse_from_dense(fl_sparse_ctx *ctx, const gsl_matrix *A, int stype, double droptol,
                                      cholmod_sparse **out, fl_error *err);
fl_status __wrap_fl_sparse_from_dense(fl_sparse_ctx *ctx, const gsl_matrix *A, int stype, double droptol,
                                      cholmod_sparse **out, fl_error *err)
{
    if (fault("fl_sparse_from_dense") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_sparse_from_dense");
    }
    return __real_fl_sparse_from_dense(ctx, A, stype, droptol, out, err);
}

fl_status __real_fl_delassus_sparse(const fl_global_problem *g, const fl_delassus_options *opt, cholmod_factor **L,
                                    fl_local_problem **out, fl_error *err);
fl_status __wrap_fl_delassus_sparse(const fl_global_problem *g, const fl_delassus_options *opt, cholmod_factor **L,
                                    fl_local_problem **out, fl_error *err);
fl_status __wrap_fl_delassus_sparse(const fl_global_problem *g, const fl_delassus_options *opt, cholmod_factor **L,
                                    fl_local_problem **out, fl_error *err)
{
    int f = fault("fl_delassus_sparse");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_delassus_sparse");
    }
    fl_status s = __real_fl_delassus_sparse(g, opt, L, out, err);
    if (f == FAULT_PERTURB && s == FL_OK) nudge((*out)->q);
    return s;
}

#define SOLVER_WRAP(NAME)                                                                                   \
    fl_status __real_##NAME(const fl_local_problem *p, const void *opt, gsl_vector *r, gsl_vector *U,       \
                            void *res, fl_error *err);                                                     \
    fl_status __wrap_##NAME(const fl_local_problem *p, const void *opt, gsl_vector *r, gsl_vector *U,       \
                            void *res, fl_error *err);                                                     \
    fl_status __wrap_##NAME(const fl_local_problem *p, const void *opt, gsl_vector *r, gsl_vector *U,       \
                            void *res, fl_error *err)                                                      \
    {                                                                                                      \
        int f = fault(#NAME);                                                                              \
        if (f == FAULT_ERROR) return injected(err, #NAME);                                                 \
        fl_status s = __real_##NAME(p, opt, r, U, res, err);                                               \
        if (f == FAULT_PERTURB) nudge(r);                                                                  \
        return s;                                                                                          \
    }
SOLVER_WRAP(fl_nsgs_solve)
SOLVER_WRAP(fl_nsgs_solve_sparse)
SOLVER_WRAP(fl_newton_solve)
SOLVER_WRAP(fl_newton_solve_sparse)

#define GLOBAL_WRAP(NAME)                                                                                   \
    fl_status __real_##NAME(const fl_global_problem *g, const fl_newton_options *opt, gsl_vector *v,        \
                            gsl_vector *r, gsl_vector *U, fl_newton_result *res, fl_error *err);            \
    fl_status __wrap_##NAME(const fl_global_problem *g, const fl_newton_options *opt, gsl_vector *v,        \
                            gsl_vector *r, gsl_vector *U, fl_newton_result *res, fl_error *err);            \
    fl_status __wrap_##NAME(const fl_global_problem *g, const fl_newton_options *opt, gsl_vector *v,        \
                            gsl_vector *r, gsl_vector *U, fl_newton_result *res, fl_error *err)             \
    {                                                                                                      \
        int f = fault(#NAME);                                                                              \
        if (f == FAULT_ERROR) return injected(err, #NAME);                                                 \
        fl_status s = __real_##NAME(g, opt, v, r, U, res, err);                                            \
        if (f == FAULT_PERTURB) nudge(v);                                                                  \
        return s;                                                                                          \
    }
GLOBAL_WRAP(fl_newton_global_solve)
GLOBAL_WRAP(fl_newton_global_solve_sparse)

fl_status __real_fl_enumerate_solutions(const fl_local_problem *p, double tol, fl_enumerate_result **out,
                                        fl_error *err);
fl_status __wrap_fl_enumerate_solutions(const fl_local_problem *p, double tol, fl_enumerate_result **out,
                                        fl_error *err);
fl_status __wrap_fl_enumerate_solutions(const fl_local_problem *p, double tol, fl_enumerate_result **out,
                                        fl_error *err)
{
    int f = fault("fl_enumerate_solutions");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_enumerate_solutions");
    }
    fl_status s = __real_fl_enumerate_solutions(p, tol, out, err);
    if (f == FAULT_PERTURB && s == FL_OK)   /* every solution moved */
        for (size_t k = 0; k < (*out)->nsol; k++) (*out)->sol[k * (*out)->m] += 0.1 + fabs((*out)->sol[k * (*out)->m]);
    return s;
}

fl_status __real_fl_plurality_explore(const fl_local_problem *p, const fl_plurality_options *opt, fl_cloud **out,
                                      fl_plurality_result *res, fl_error *err);
fl_status __wrap_fl_plurality_explore(const fl_local_problem *p, const fl_plurality_options *opt, fl_cloud **out,
                                      fl_plurality_result *res, fl_error *err);
fl_status __wrap_fl_plurality_explore(const fl_local_problem *p, const fl_plurality_options *opt, fl_cloud **out,
                                      fl_plurality_result *res, fl_error *err)
{
    int f = fault("fl_plurality_explore");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_plurality_explore");
    }
    fl_status s = __real_fl_plurality_explore(p, opt, out, res, err);
    if (f == FAULT_PERTURB && s == FL_OK)
        for (size_t k = 0; k < (*out)->npts; k++) (*out)->pts[k * (*out)->m] += 1.0;
    return s;
}

fl_status __real_fl_moreau_jean_step(const fl_global_problem *g, const gsl_vector *u_minus, const fl_moreau_jean_options *opt,
                            cholmod_factor **L, gsl_vector *s, gsl_vector *u_plus, fl_moreau_jean_result *res, fl_error *err);
fl_status __wrap_fl_moreau_jean_step(const fl_global_problem *g, const gsl_vector *u_minus, const fl_moreau_jean_options *opt,
                            cholmod_factor **L, gsl_vector *s, gsl_vector *u_plus, fl_moreau_jean_result *res, fl_error *err);
fl_status __wrap_fl_moreau_jean_step(const fl_global_problem *g, const gsl_vector *u_minus, const fl_moreau_jean_options *opt,
                            cholmod_factor **L, gsl_vector *s, gsl_vector *u_plus, fl_moreau_jean_result *res, fl_error *err)
{
    int f = fault("fl_moreau_jean_step");
    if (f == FAULT_ERROR) return injected(err, "fl_moreau_jean_step");
    fl_status st = __real_fl_moreau_jean_step(g, u_minus, opt, L, s, u_plus, res, err);
    if (f == FAULT_PERTURB && st == FL_OK) {   /* an energy gain and an impulse off the law */
        res->dT += 0.1 * (res->T_minus + 1e-3);
        nudge(s);
    }
    return st;
}

/* ---- sparse context, LCPs, Stewart's step, P'4 ---- */

fl_status __real_fl_sparse_start(fl_sparse_ctx *ctx, fl_error *err);
fl_status __wrap_fl_sparse_start(fl_sparse_ctx *ctx, fl_error *err);
fl_status __wrap_fl_sparse_start(fl_sparse_ctx *ctx, fl_error *err)
{
    if (fault("fl_sparse_start") == FAULT_ERROR) {
        memset(ctx, 0, sizeof *ctx);
        return injected(err, "fl_sparse_start");
    }
    return __real_fl_sparse_start(ctx, err);
}

fl_status __real_fl_spd_alloc(const gsl_matrix *M, fl_spd **out, fl_error *err);
fl_status __wrap_fl_spd_alloc(const gsl_matrix *M, fl_spd **out, fl_error *err);
fl_status __wrap_fl_spd_alloc(const gsl_matrix *M, fl_spd **out, fl_error *err)
{
    if (fault("fl_spd_alloc") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_spd_alloc");
    }
    return __real_fl_spd_alloc(M, out, err);
}

fl_status __real_fl_lemke_solve(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z, gsl_vector *w,
                                const fl_lemke_options *opt, fl_lemke_result *res, fl_error *err);
fl_status __wrap_fl_lemke_solve(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z, gsl_vector *w,
                                const fl_lemke_options *opt, fl_lemke_result *res, fl_error *err);
fl_status __wrap_fl_lemke_solve(const gsl_matrix *M, const gsl_vector *q, gsl_vector *z, gsl_vector *w,
                                const fl_lemke_options *opt, fl_lemke_result *res, fl_error *err)
{
    int f = fault("fl_lemke_solve");
    if (f == FAULT_ERROR) {
        if (res) memset(res, 0, sizeof *res);
        return injected(err, "fl_lemke_solve");
    }
    fl_status s = __real_fl_lemke_solve(M, q, z, w, opt, res, err);
    if (f == FAULT_PERTURB) nudge(z);
    return s;
}

fl_status __real_fl_lcp_enumerate(const gsl_matrix *M, const gsl_vector *q, const fl_lcp_enum_options *opt,
                                  fl_lcp_solutions **out, fl_lcp_enum_result *res, fl_error *err);
fl_status __wrap_fl_lcp_enumerate(const gsl_matrix *M, const gsl_vector *q, const fl_lcp_enum_options *opt,
                                  fl_lcp_solutions **out, fl_lcp_enum_result *res, fl_error *err);
fl_status __wrap_fl_lcp_enumerate(const gsl_matrix *M, const gsl_vector *q, const fl_lcp_enum_options *opt,
                                  fl_lcp_solutions **out, fl_lcp_enum_result *res, fl_error *err)
{
    int f = fault("fl_lcp_enumerate");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_lcp_enumerate");
    }
    fl_status s = __real_fl_lcp_enumerate(M, q, opt, out, res, err);
    if (f == FAULT_PERTURB && s == FL_OK)   /* every enumerated z moved */
        for (size_t k = 0; k < (*out)->count; k++) (*out)->z[k * (*out)->n] += 1.0;
    return s;
}

#define STEWART_WRAP(NAME)                                                                                  \
    fl_status __real_##NAME(const fl_stewart_problem *p, const fl_stewart_options *opt,                     \
                            fl_stewart_result *res, fl_error *err);                                         \
    fl_status __wrap_##NAME(const fl_stewart_problem *p, const fl_stewart_options *opt,                     \
                            fl_stewart_result *res, fl_error *err);                                         \
    fl_status __wrap_##NAME(const fl_stewart_problem *p, const fl_stewart_options *opt,                     \
                            fl_stewart_result *res, fl_error *err)                                          \
    {                                                                                                      \
        int f = fault(#NAME);                                                                              \
        if (f == FAULT_ERROR) return res->status = injected(err, #NAME);                                   \
        fl_status s = __real_##NAME(p, opt, res, err);                                                     \
        if (f == FAULT_PERTURB) {                                                                          \
            nudge(res->v_plus);                                                                            \
            res->coulomb += 1e-3;                                                                          \
        }                                                                                                  \
        return s;                                                                                          \
    }
STEWART_WRAP(fl_stewart_step)
STEWART_WRAP(fl_stewart_step_sparse)

fl_status __real_fl_stewart_lcp_build(const fl_stewart_problem *p, const fl_stewart_options *opt, gsl_matrix *A,
                                      gsl_vector *b, fl_error *err);
fl_status __wrap_fl_stewart_lcp_build(const fl_stewart_problem *p, const fl_stewart_options *opt, gsl_matrix *A,
                                      gsl_vector *b, fl_error *err);
fl_status __wrap_fl_stewart_lcp_build(const fl_stewart_problem *p, const fl_stewart_options *opt, gsl_matrix *A,
                                      gsl_vector *b, fl_error *err)
{
    if (fault("fl_stewart_lcp_build") == FAULT_ERROR) return injected(err, "fl_stewart_lcp_build");
    return __real_fl_stewart_lcp_build(p, opt, A, b, err);
}

fl_status __real_fl_stewart_lcp_recover(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                        const gsl_vector *z, gsl_vector *v_plus, gsl_vector *impulse, gsl_vector *r,
                                        fl_error *err);
fl_status __wrap_fl_stewart_lcp_recover(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                        const gsl_vector *z, gsl_vector *v_plus, gsl_vector *impulse, gsl_vector *r,
                                        fl_error *err);
fl_status __wrap_fl_stewart_lcp_recover(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                        const gsl_vector *z, gsl_vector *v_plus, gsl_vector *impulse, gsl_vector *r,
                                        fl_error *err)
{
    if (fault("fl_stewart_lcp_recover") == FAULT_ERROR) return injected(err, "fl_stewart_lcp_recover");
    return __real_fl_stewart_lcp_recover(p, opt, z, v_plus, impulse, r, err);
}

fl_status __real_fl_stewart_coulomb_violation(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                              const gsl_vector *v_plus, const gsl_vector *impulse, double *violation,
                                              fl_error *err);
fl_status __wrap_fl_stewart_coulomb_violation(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                              const gsl_vector *v_plus, const gsl_vector *impulse, double *violation,
                                              fl_error *err);
fl_status __wrap_fl_stewart_coulomb_violation(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                              const gsl_vector *v_plus, const gsl_vector *impulse, double *violation,
                                              fl_error *err)
{
    int f = fault("fl_stewart_coulomb_violation");
    if (f == FAULT_ERROR) return injected(err, "fl_stewart_coulomb_violation");
    fl_status s = __real_fl_stewart_coulomb_violation(p, opt, v_plus, impulse, violation, err);
    if (f == FAULT_PERTURB) *violation += 1e-3;
    return s;
}

fl_status __real_fl_model_painleve_stewart_system(const fl_model_painleve_bar *bar, fl_stewart_system *sys, fl_error *err);
fl_status __wrap_fl_model_painleve_stewart_system(const fl_model_painleve_bar *bar, fl_stewart_system *sys, fl_error *err);
fl_status __wrap_fl_model_painleve_stewart_system(const fl_model_painleve_bar *bar, fl_stewart_system *sys, fl_error *err)
{
    if (fault("fl_model_painleve_stewart_system") == FAULT_ERROR) return injected(err, "fl_model_painleve_stewart_system");
    return __real_fl_model_painleve_stewart_system(bar, sys, err);
}

#define P4_STEP_WRAP(NAME)                                                                                  \
    fl_status __real_##NAME(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *impulse,   \
                            const fl_p4_impact_law *law, const fl_p4_options *opt, fl_p4_step_result *res,  \
                            fl_error *err);                                                                \
    fl_status __wrap_##NAME(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *impulse,   \
                            const fl_p4_impact_law *law, const fl_p4_options *opt, fl_p4_step_result *res,  \
                            fl_error *err);                                                                \
    fl_status __wrap_##NAME(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *impulse,   \
                            const fl_p4_impact_law *law, const fl_p4_options *opt, fl_p4_step_result *res,  \
                            fl_error *err)                                                                 \
    {                                                                                                      \
        int f = fault(#NAME);                                                                              \
        if (f == FAULT_ERROR) return injected(err, #NAME);                                                 \
        fl_status s = __real_##NAME(p, v_minus, impulse, law, opt, res, err);                              \
        if (f == FAULT_PERTURB && s >= 0) {   /* energy gained, a gap, a normal residual */                \
            res->energy_plus = 1.5 * res->energy_free + 1.0;                                               \
            res->energy_minus = 0.5 * res->energy_plus;                                                    \
            res->gap = 1e-3;                                                                               \
            res->normal_residual = 1e-3;                                                                   \
            nudge(res->v_plus);                                                                            \
        }                                                                                                  \
        return s;                                                                                          \
    }
P4_STEP_WRAP(fl_p4_step)
P4_STEP_WRAP(fl_p4_step_sparse)

fl_status __real_fl_p4_split_velocity(const fl_p4_problem *p, const gsl_vector *v, gsl_vector *vn, gsl_vector *vt,
                                      fl_error *err);
fl_status __wrap_fl_p4_split_velocity(const fl_p4_problem *p, const gsl_vector *v, gsl_vector *vn, gsl_vector *vt,
                                      fl_error *err);
fl_status __wrap_fl_p4_split_velocity(const fl_p4_problem *p, const gsl_vector *v, gsl_vector *vn, gsl_vector *vt,
                                      fl_error *err)
{
    fl_status s = __real_fl_p4_split_velocity(p, v, vn, vt, err);
    if (fault("fl_p4_split_velocity") == FAULT_PERTURB) nudge(vt);
    return s;
}

fl_status __real_fl_p4_split_reaction(const fl_p4_problem *p, const gsl_vector *r, gsl_vector *lambda,
                                      gsl_vector *r_tau, fl_error *err);
fl_status __wrap_fl_p4_split_reaction(const fl_p4_problem *p, const gsl_vector *r, gsl_vector *lambda,
                                      gsl_vector *r_tau, fl_error *err);
fl_status __wrap_fl_p4_split_reaction(const fl_p4_problem *p, const gsl_vector *r, gsl_vector *lambda,
                                      gsl_vector *r_tau, fl_error *err)
{
    fl_status s = __real_fl_p4_split_reaction(p, r, lambda, r_tau, err);
    if (fault("fl_p4_split_reaction") == FAULT_PERTURB) gsl_vector_set(lambda, 0, -1.0);   /* lambda >= 0 broken */
    return s;
}

fl_status __real_fl_p4_impact_check(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *F,
                                    double tol, fl_p4_consistency *rep, fl_error *err);
fl_status __wrap_fl_p4_impact_check(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *F,
                                    double tol, fl_p4_consistency *rep, fl_error *err);
fl_status __wrap_fl_p4_impact_check(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *F,
                                    double tol, fl_p4_consistency *rep, fl_error *err)
{
    int f = fault("fl_p4_impact_check");
    if (f == FAULT_ERROR) return injected(err, "fl_p4_impact_check");   /* every impact inconsistent */
    fl_status s = __real_fl_p4_impact_check(p, v_minus, F, tol, rep, err);
    if (f == FAULT_PERTURB) return FL_OK;                               /* every impact consistent */
    return s;
}

fl_status __real_fl_fset_build(const gsl_matrix *M, const gsl_vector *dphi, size_t ncontact,
                               const fl_fset_contact *contacts, const fl_fset_options *opt, fl_fset_result *res,
                               fl_error *err);
fl_status __wrap_fl_fset_build(const gsl_matrix *M, const gsl_vector *dphi, size_t ncontact,
                               const fl_fset_contact *contacts, const fl_fset_options *opt, fl_fset_result *res,
                               fl_error *err);
fl_status __wrap_fl_fset_build(const gsl_matrix *M, const gsl_vector *dphi, size_t ncontact,
                               const fl_fset_contact *contacts, const fl_fset_options *opt, fl_fset_result *res,
                               fl_error *err)
{
    int f = fault("fl_fset_build");
    if (f == FAULT_ERROR) {
        memset(res, 0, sizeof *res);
        return res->status = injected(err, "fl_fset_build");
    }
    fl_status s = __real_fl_fset_build(M, dphi, ncontact, contacts, opt, res, err);
    if (f == FAULT_PERTURB) res->bounded = !res->bounded;
    return s;
}

fl_status __real_fl_p4_simulate(const fl_p4_system *sys, double t0, double h, long nsteps, gsl_vector *q,
                                gsl_vector *v, const fl_p4_options *opt, fl_p4_observer obs, void *obs_data,
                                fl_p4_sim_result *res, fl_error *err);
fl_status __wrap_fl_p4_simulate(const fl_p4_system *sys, double t0, double h, long nsteps, gsl_vector *q,
                                gsl_vector *v, const fl_p4_options *opt, fl_p4_observer obs, void *obs_data,
                                fl_p4_sim_result *res, fl_error *err);
fl_status __wrap_fl_p4_simulate(const fl_p4_system *sys, double t0, double h, long nsteps, gsl_vector *q,
                                gsl_vector *v, const fl_p4_options *opt, fl_p4_observer obs, void *obs_data,
                                fl_p4_sim_result *res, fl_error *err)
{
    int f = fault("fl_p4_simulate");
    if (f == FAULT_ERROR) return injected(err, "fl_p4_simulate");
    fl_status s = __real_fl_p4_simulate(sys, t0, h, nsteps, q, v, opt, obs, obs_data, res, err);
    if (f == FAULT_PERTURB && res) res->energy_violation = 1e-3;
    return s;
}

/* ---- FE blocks, the midpoint scheme, stability ---- */

fl_status __real_fl_sparse_to_dense(fl_sparse_ctx *ctx, const cholmod_sparse *A, gsl_matrix **out, fl_error *err);
fl_status __wrap_fl_sparse_to_dense(fl_sparse_ctx *ctx, const cholmod_sparse *A, gsl_matrix **out, fl_error *err);
fl_status __wrap_fl_sparse_to_dense(fl_sparse_ctx *ctx, const cholmod_sparse *A, gsl_matrix **out, fl_error *err)
{
    int f = fault("fl_sparse_to_dense");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_sparse_to_dense");
    }
    fl_status s = __real_fl_sparse_to_dense(ctx, A, out, err);
    if (f == FAULT_PERTURB) {
        if (s == FL_OK) (*out)->data[0] += 1.0 + fabs((*out)->data[0]);
    }
    return s;
}

fl_status __real_fl_midpoint_block_alloc(const fl_midpoint_block_params *bp, fl_midpoint_block **out, fl_error *err);
fl_status __wrap_fl_midpoint_block_alloc(const fl_midpoint_block_params *bp, fl_midpoint_block **out, fl_error *err);
fl_status __wrap_fl_midpoint_block_alloc(const fl_midpoint_block_params *bp, fl_midpoint_block **out, fl_error *err)
{
    int f = fault("fl_midpoint_block_alloc");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_midpoint_block_alloc");
    }
    fl_status s = __real_fl_midpoint_block_alloc(bp, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_midpoint_block_alloc_sparse(fl_sparse_ctx *ctx, const fl_midpoint_block_params *bp, size_t dense_rows_limit, fl_midpoint_block_sparse **out, fl_error *err);
fl_status __wrap_fl_midpoint_block_alloc_sparse(fl_sparse_ctx *ctx, const fl_midpoint_block_params *bp, size_t dense_rows_limit, fl_midpoint_block_sparse **out, fl_error *err);
fl_status __wrap_fl_midpoint_block_alloc_sparse(fl_sparse_ctx *ctx, const fl_midpoint_block_params *bp, size_t dense_rows_limit, fl_midpoint_block_sparse **out, fl_error *err)
{
    int f = fault("fl_midpoint_block_alloc_sparse");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_midpoint_block_alloc_sparse");
    }
    fl_status s = __real_fl_midpoint_block_alloc_sparse(ctx, bp, dense_rows_limit, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_fe2d_assemble_dense(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat, fl_fe2d_matrix which, gsl_matrix **out, fl_error *err);
fl_status __wrap_fl_fe2d_assemble_dense(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat, fl_fe2d_matrix which, gsl_matrix **out, fl_error *err);
fl_status __wrap_fl_fe2d_assemble_dense(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat, fl_fe2d_matrix which, gsl_matrix **out, fl_error *err)
{
    int f = fault("fl_fe2d_assemble_dense");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_fe2d_assemble_dense");
    }
    fl_status s = __real_fl_fe2d_assemble_dense(mesh, mat, which, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_fe2d_affine_fields(const fl_fe2d_mesh *mesh, gsl_matrix **out, fl_error *err);
fl_status __wrap_fl_fe2d_affine_fields(const fl_fe2d_mesh *mesh, gsl_matrix **out, fl_error *err);
fl_status __wrap_fl_fe2d_affine_fields(const fl_fe2d_mesh *mesh, gsl_matrix **out, fl_error *err)
{
    int f = fault("fl_fe2d_affine_fields");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_fe2d_affine_fields");
    }
    fl_status s = __real_fl_fe2d_affine_fields(mesh, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_fe2d_contact_vectors(const fl_fe2d_mesh *mesh, const fl_fe2d_dofmap *map, size_t nc, const int *node, const double *normal, gsl_matrix **Bnu, gsl_matrix **Btau, fl_error *err);
fl_status __wrap_fl_fe2d_contact_vectors(const fl_fe2d_mesh *mesh, const fl_fe2d_dofmap *map, size_t nc, const int *node, const double *normal, gsl_matrix **Bnu, gsl_matrix **Btau, fl_error *err);
fl_status __wrap_fl_fe2d_contact_vectors(const fl_fe2d_mesh *mesh, const fl_fe2d_dofmap *map, size_t nc, const int *node, const double *normal, gsl_matrix **Bnu, gsl_matrix **Btau, fl_error *err)
{
    int f = fault("fl_fe2d_contact_vectors");
    if (f == FAULT_ERROR) {
        *Bnu = NULL;
        *Btau = NULL;
        return injected(err, "fl_fe2d_contact_vectors");
    }
    fl_status s = __real_fl_fe2d_contact_vectors(mesh, map, nc, node, normal, Bnu, Btau, err);
    (void)f;
    return s;
}

fl_status __real_fl_redistribution_alloc(const gsl_matrix *M, const gsl_matrix *R, const gsl_matrix *Bnu, const gsl_matrix *Btau, fl_redist_kind kind, fl_redistribution **out, fl_error *err);
fl_status __wrap_fl_redistribution_alloc(const gsl_matrix *M, const gsl_matrix *R, const gsl_matrix *Bnu, const gsl_matrix *Btau, fl_redist_kind kind, fl_redistribution **out, fl_error *err);
fl_status __wrap_fl_redistribution_alloc(const gsl_matrix *M, const gsl_matrix *R, const gsl_matrix *Bnu, const gsl_matrix *Btau, fl_redist_kind kind, fl_redistribution **out, fl_error *err)
{
    int f = fault("fl_redistribution_alloc");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_redistribution_alloc");
    }
    fl_status s = __real_fl_redistribution_alloc(M, R, Bnu, Btau, kind, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_redistribution_dense(const fl_redistribution *rd, const gsl_matrix *M, gsl_matrix **Mr, fl_error *err);
fl_status __wrap_fl_redistribution_dense(const fl_redistribution *rd, const gsl_matrix *M, gsl_matrix **Mr, fl_error *err);
fl_status __wrap_fl_redistribution_dense(const fl_redistribution *rd, const gsl_matrix *M, gsl_matrix **Mr, fl_error *err)
{
    int f = fault("fl_redistribution_dense");
    if (f == FAULT_ERROR) {
        *Mr = NULL;
        return injected(err, "fl_redistribution_dense");
    }
    fl_status s = __real_fl_redistribution_dense(rd, M, Mr, err);
    if (f == FAULT_PERTURB) {
        if (s == FL_OK) gsl_matrix_scale(*Mr, 1.01);   /* mass not conserved */
    }
    return s;
}

fl_status __real_fl_midpoint_alloc(const fl_midpoint_problem *p, const fl_midpoint_options *opt, fl_midpoint **out, fl_error *err);
fl_status __wrap_fl_midpoint_alloc(const fl_midpoint_problem *p, const fl_midpoint_options *opt, fl_midpoint **out, fl_error *err);
fl_status __wrap_fl_midpoint_alloc(const fl_midpoint_problem *p, const fl_midpoint_options *opt, fl_midpoint **out, fl_error *err)
{
    int f = fault("fl_midpoint_alloc");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_midpoint_alloc");
    }
    fl_status s = __real_fl_midpoint_alloc(p, opt, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_midpoint_alloc_sparse(const fl_midpoint_problem *p, const fl_midpoint_options *opt, fl_midpoint_sparse **out, fl_error *err);
fl_status __wrap_fl_midpoint_alloc_sparse(const fl_midpoint_problem *p, const fl_midpoint_options *opt, fl_midpoint_sparse **out, fl_error *err);
fl_status __wrap_fl_midpoint_alloc_sparse(const fl_midpoint_problem *p, const fl_midpoint_options *opt, fl_midpoint_sparse **out, fl_error *err)
{
    int f = fault("fl_midpoint_alloc_sparse");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_midpoint_alloc_sparse");
    }
    fl_status s = __real_fl_midpoint_alloc_sparse(p, opt, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_midpoint_state_alloc(size_t n, size_t nc, fl_midpoint_state **out, fl_error *err);
fl_status __wrap_fl_midpoint_state_alloc(size_t n, size_t nc, fl_midpoint_state **out, fl_error *err);
fl_status __wrap_fl_midpoint_state_alloc(size_t n, size_t nc, fl_midpoint_state **out, fl_error *err)
{
    int f = fault("fl_midpoint_state_alloc");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_midpoint_state_alloc");
    }
    fl_status s = __real_fl_midpoint_state_alloc(n, nc, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_midpoint_step(fl_midpoint *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err);
fl_status __wrap_fl_midpoint_step(fl_midpoint *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err);
fl_status __wrap_fl_midpoint_step(fl_midpoint *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err)
{
    int f = fault("fl_midpoint_step");
    if (f == FAULT_ERROR) {
        return injected(err, "fl_midpoint_step");
    }
    fl_status s = __real_fl_midpoint_step(mp, st, res, err);
    if (f == FAULT_PERTURB && res) {   /* fl_model_triangle_002 passes no result */
        res->energy += 0.1 * (1 + fabs(res->energy));   /* energy created */
        res->work_friction = fabs(res->work_friction) + 1.0;
        res->residual = 1e-3;
    }
    return s;
}

fl_status __real_fl_midpoint_step_sparse(fl_midpoint_sparse *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err);
fl_status __wrap_fl_midpoint_step_sparse(fl_midpoint_sparse *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err);
fl_status __wrap_fl_midpoint_step_sparse(fl_midpoint_sparse *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err)
{
    int f = fault("fl_midpoint_step_sparse");
    if (f == FAULT_ERROR) {
        return injected(err, "fl_midpoint_step_sparse");
    }
    fl_status s = __real_fl_midpoint_step_sparse(mp, st, res, err);
    if (f == FAULT_PERTURB) {
        nudge(st->u);
    }
    return s;
}

fl_status __real_fl_midpoint_lemma41(const gsl_matrix *A, const gsl_vector *fv, const gsl_matrix *Bnu, const gsl_vector *uperp, gsl_vector *uN, gsl_vector *lam_nu, fl_error *err);
fl_status __wrap_fl_midpoint_lemma41(const gsl_matrix *A, const gsl_vector *fv, const gsl_matrix *Bnu, const gsl_vector *uperp, gsl_vector *uN, gsl_vector *lam_nu, fl_error *err);
fl_status __wrap_fl_midpoint_lemma41(const gsl_matrix *A, const gsl_vector *fv, const gsl_matrix *Bnu, const gsl_vector *uperp, gsl_vector *uN, gsl_vector *lam_nu, fl_error *err)
{
    int f = fault("fl_midpoint_lemma41");
    if (f == FAULT_ERROR) {
        return injected(err, "fl_midpoint_lemma41");
    }
    fl_status s = __real_fl_midpoint_lemma41(A, fv, Bnu, uperp, uN, lam_nu, err);
    if (f == FAULT_PERTURB) {
        gsl_vector_scale(uN, 1.0 + 1e3 * gsl_blas_dnrm2(uperp));   /* not Lipschitz */
    }
    return s;
}

fl_status __real_fl_stability_partition(const fl_stability_system *s_, const gsl_vector *u, const gsl_vector *r, double eps, fl_stability_label *labels, fl_error *err);
fl_status __wrap_fl_stability_partition(const fl_stability_system *s_, const gsl_vector *u, const gsl_vector *r, double eps, fl_stability_label *labels, fl_error *err);
fl_status __wrap_fl_stability_partition(const fl_stability_system *s_, const gsl_vector *u, const gsl_vector *r, double eps, fl_stability_label *labels, fl_error *err)
{
    int f = fault("fl_stability_partition");
    if (f == FAULT_ERROR) {
        return injected(err, "fl_stability_partition");
    }
    fl_status s = __real_fl_stability_partition(s_, u, r, eps, labels, err);
    if (f == FAULT_PERTURB) {
        labels[0] = labels[0] == FL_STAB_PS ? FL_STAB_PF : FL_STAB_PS;
    }
    return s;
}

fl_status __real_fl_stability_tangent_alloc(const fl_stability_system *s_, const fl_stability_label *labels, const gsl_vector *r, fl_stability_tangent **out, fl_error *err);
fl_status __wrap_fl_stability_tangent_alloc(const fl_stability_system *s_, const fl_stability_label *labels, const gsl_vector *r, fl_stability_tangent **out, fl_error *err);
fl_status __wrap_fl_stability_tangent_alloc(const fl_stability_system *s_, const fl_stability_label *labels, const gsl_vector *r, fl_stability_tangent **out, fl_error *err)
{
    int f = fault("fl_stability_tangent_alloc");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_stability_tangent_alloc");
    }
    fl_status s = __real_fl_stability_tangent_alloc(s_, labels, r, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_stability_analyse(const fl_stability_tangents *t, const fl_stability_options *opt, fl_stability_result *res, fl_error *err);
fl_status __wrap_fl_stability_analyse(const fl_stability_tangents *t, const fl_stability_options *opt, fl_stability_result *res, fl_error *err);
fl_status __wrap_fl_stability_analyse(const fl_stability_tangents *t, const fl_stability_options *opt, fl_stability_result *res, fl_error *err)
{
    int f = fault("fl_stability_analyse");
    if (f == FAULT_ERROR) {
        memset(res, 0, sizeof *res);
        return injected(err, "fl_stability_analyse");
    }
    fl_status s = __real_fl_stability_analyse(t, opt, res, err);
    if (f == FAULT_PERTURB) {
        res->ks_min += 1.0 + fabs(res->ks_min);   /* above the smallest eigenvalue */
        res->ks_cholesky_pd = res->ks_min <= 0;
        res->ks_cone_min = res->ks_min - 1.0;
    }
    return s;
}

fl_status __real_fl_stability_gen_eig(const gsl_matrix *K, const gsl_matrix *M, double *lam_re, double *lam_im, gsl_matrix *evec, fl_error *err);
fl_status __wrap_fl_stability_gen_eig(const gsl_matrix *K, const gsl_matrix *M, double *lam_re, double *lam_im, gsl_matrix *evec, fl_error *err);
fl_status __wrap_fl_stability_gen_eig(const gsl_matrix *K, const gsl_matrix *M, double *lam_re, double *lam_im, gsl_matrix *evec, fl_error *err)
{
    int f = fault("fl_stability_gen_eig");
    fl_status s = __real_fl_stability_gen_eig(K, M, lam_re, lam_im, evec, err);
    if (f == FAULT_PERTURB) {
        lam_re[0] -= 1.0 + fabs(lam_re[0]);
    }
    return s;
}

fl_status __real_fl_stability_tangent_alloc_sparse(fl_sparse_ctx *ctx, const fl_stability_system_sparse *s_, const fl_stability_label *labels, const double *r, fl_stability_tangent_sparse **out, fl_error *err);
fl_status __wrap_fl_stability_tangent_alloc_sparse(fl_sparse_ctx *ctx, const fl_stability_system_sparse *s_, const fl_stability_label *labels, const double *r, fl_stability_tangent_sparse **out, fl_error *err);
fl_status __wrap_fl_stability_tangent_alloc_sparse(fl_sparse_ctx *ctx, const fl_stability_system_sparse *s_, const fl_stability_label *labels, const double *r, fl_stability_tangent_sparse **out, fl_error *err)
{
    int f = fault("fl_stability_tangent_alloc_sparse");
    if (f == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_stability_tangent_alloc_sparse");
    }
    fl_status s = __real_fl_stability_tangent_alloc_sparse(ctx, s_, labels, r, out, err);
    (void)f;
    return s;
}

fl_status __real_fl_stability_analyse_sparse(const fl_stability_tangents *t, const fl_stability_options *opt, fl_stability_result *res, fl_error *err);
fl_status __wrap_fl_stability_analyse_sparse(const fl_stability_tangents *t, const fl_stability_options *opt, fl_stability_result *res, fl_error *err);
fl_status __wrap_fl_stability_analyse_sparse(const fl_stability_tangents *t, const fl_stability_options *opt, fl_stability_result *res, fl_error *err)
{
    int f = fault("fl_stability_analyse_sparse");
    if (f == FAULT_ERROR) {
        memset(res, 0, sizeof *res);
        return injected(err, "fl_stability_analyse_sparse");
    }
    fl_status s = __real_fl_stability_analyse_sparse(t, opt, res, err);
    if (f == FAULT_PERTURB) {
        res->ks_min += 1.0 + fabs(res->ks_min);
    }
    return s;
}

fl_status __real_fl_stability_rayleigh(const gsl_matrix *K, const gsl_matrix *M, double alpha, double beta, double *lre, double *lim, fl_error *err);
fl_status __wrap_fl_stability_rayleigh(const gsl_matrix *K, const gsl_matrix *M, double alpha, double beta, double *lre, double *lim, fl_error *err);
fl_status __wrap_fl_stability_rayleigh(const gsl_matrix *K, const gsl_matrix *M, double alpha, double beta, double *lre, double *lim, fl_error *err)
{
    int f = fault("fl_stability_rayleigh");
    if (f == FAULT_ERROR) {
        return injected(err, "fl_stability_rayleigh");
    }
    fl_status s = __real_fl_stability_rayleigh(K, M, alpha, beta, lre, lim, err);
    (void)f;
    return s;
}

fl_status __real_fl_stability_rayleigh_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t, double alpha, double beta, size_t nev, int max_iter, double *lre, double *lim, size_t *nroots, fl_error *err);
fl_status __wrap_fl_stability_rayleigh_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t, double alpha, double beta, size_t nev, int max_iter, double *lre, double *lim, size_t *nroots, fl_error *err);
fl_status __wrap_fl_stability_rayleigh_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t, double alpha, double beta, size_t nev, int max_iter, double *lre, double *lim, size_t *nroots, fl_error *err)
{
    int f = fault("fl_stability_rayleigh_sparse");
    if (f == FAULT_ERROR) {
        *nroots = 0;
        return injected(err, "fl_stability_rayleigh_sparse");
    }
    fl_status s = __real_fl_stability_rayleigh_sparse(ctx, t, alpha, beta, nev, max_iter, lre, lim, nroots, err);
    if (f == FAULT_PERTURB) {
        if (s == FL_OK && *nroots > 0) lre[0] = 2 * lre[0] + 1.0;
    }
    return s;
}

double __real_fl_stability_form_star(const fl_stability_system *s_, const gsl_matrix *A, const fl_stability_label *labels, const gsl_vector *x, const gsl_vector *y);
double __wrap_fl_stability_form_star(const fl_stability_system *s_, const gsl_matrix *A, const fl_stability_label *labels, const gsl_vector *x, const gsl_vector *y);
double __wrap_fl_stability_form_star(const fl_stability_system *s_, const gsl_matrix *A, const fl_stability_label *labels, const gsl_vector *x, const gsl_vector *y)
{
    int f = fault("fl_stability_form_star");
    double s = __real_fl_stability_form_star(s_, A, labels, x, y);
    if (f == FAULT_PERTURB) {
        s += 1.0;
    }
    return s;
}

double __real_fl_stability_viol_Kudot(const fl_stability_system *s_, const fl_stability_label *labels, const gsl_vector *r, const gsl_vector *v);
double __wrap_fl_stability_viol_Kudot(const fl_stability_system *s_, const fl_stability_label *labels, const gsl_vector *r, const gsl_vector *v);
double __wrap_fl_stability_viol_Kudot(const fl_stability_system *s_, const fl_stability_label *labels, const gsl_vector *r, const gsl_vector *v)
{
    int f = fault("fl_stability_viol_Kudot");
    double s = __real_fl_stability_viol_Kudot(s_, labels, r, v);
    if (f == FAULT_PERTURB) {
        s += 1.0;
    }
    return s;
}

#define MOREAU_WRAP(NAME)                                                                                   \
    fl_status __real_##NAME(const fl_moreau_problem *p, const fl_moreau_options *opt, gsl_vector *u,        \
                            gsl_vector *r, fl_moreau_result *res, fl_error *err);                           \
    fl_status __wrap_##NAME(const fl_moreau_problem *p, const fl_moreau_options *opt, gsl_vector *u,        \
                            gsl_vector *r, fl_moreau_result *res, fl_error *err);                           \
    fl_status __wrap_##NAME(const fl_moreau_problem *p, const fl_moreau_options *opt, gsl_vector *u,        \
                            gsl_vector *r, fl_moreau_result *res, fl_error *err)                            \
    {                                                                                                      \
        int f = fault(#NAME);                                                                              \
        if (f == FAULT_ERROR) return injected(err, #NAME);                                                 \
        fl_status s = __real_##NAME(p, opt, u, r, res, err);                                               \
        if (f == FAULT_PERTURB && s >= 0) {   /* u off by 1% of |u|: off the law, not v */                 \
            nudge(u);                                                                                      \
            res->residual = 1e-3;                                                                          \
        }                                                                                                  \
        return s;                                                                                          \
    }
MOREAU_WRAP(fl_moreau_law)
MOREAU_WRAP(fl_moreau_law_sparse)

fl_status __real_fl_friction_set_polygon(fl_friction_set *C, size_t nvert, const double *vert, size_t nray, const double *ray,
                                fl_error *err);
fl_status __wrap_fl_friction_set_polygon(fl_friction_set *C, size_t nvert, const double *vert, size_t nray, const double *ray,
                                fl_error *err);
fl_status __wrap_fl_friction_set_polygon(fl_friction_set *C, size_t nvert, const double *vert, size_t nray, const double *ray,
                                fl_error *err)
{
    if (fault("fl_friction_set_polygon") == FAULT_ERROR) return injected(err, "fl_friction_set_polygon");
    return __real_fl_friction_set_polygon(C, nvert, vert, nray, ray, err);
}

/* ---- what the reproduce tasks call ---- */

fl_status __real_fl_model_painleve_build(fl_model_painleve *b, fl_fset_norm norm, fl_error *err);
fl_status __wrap_fl_model_painleve_build(fl_model_painleve *b, fl_fset_norm norm, fl_error *err);
fl_status __wrap_fl_model_painleve_build(fl_model_painleve *b, fl_fset_norm norm, fl_error *err)
{
    if (fault("fl_model_painleve_build") == FAULT_ERROR) {
        return injected(err, "fl_model_painleve_build");
    }
    fl_status s = __real_fl_model_painleve_build(b, norm, err);
    if (fault("fl_model_painleve_build") == FAULT_PERTURB) b->fs.bounded = !b->fs.bounded;   /* wrong side */
    return s;
}

fl_status __real_fl_stewart_integrate(const fl_stewart_system *sys, const fl_stewart_options *opt, double t0, double h, size_t steps, gsl_vector *q, gsl_vector *v, fl_stewart_observer obs, void *obs_data, fl_stewart_run *run, fl_error *err);
fl_status __wrap_fl_stewart_integrate(const fl_stewart_system *sys, const fl_stewart_options *opt, double t0, double h, size_t steps, gsl_vector *q, gsl_vector *v, fl_stewart_observer obs, void *obs_data, fl_stewart_run *run, fl_error *err);
fl_status __wrap_fl_stewart_integrate(const fl_stewart_system *sys, const fl_stewart_options *opt, double t0, double h, size_t steps, gsl_vector *q, gsl_vector *v, fl_stewart_observer obs, void *obs_data, fl_stewart_run *run, fl_error *err)
{
    if (fault("fl_stewart_integrate") == FAULT_ERROR) {
        return injected(err, "fl_stewart_integrate");
    }
    return __real_fl_stewart_integrate(sys, opt, t0, h, steps, q, v, obs, obs_data, run, err);
}

fl_status __real_fl_stability_jumps(const fl_stability_system *s_, const gsl_vector *u0, const gsl_vector *r0, double tol, size_t max_sol, gsl_matrix *As, gsl_matrix *Rs, size_t *nsol, fl_error *err);
fl_status __wrap_fl_stability_jumps(const fl_stability_system *s_, const gsl_vector *u0, const gsl_vector *r0, double tol, size_t max_sol, gsl_matrix *As, gsl_matrix *Rs, size_t *nsol, fl_error *err);
fl_status __wrap_fl_stability_jumps(const fl_stability_system *s_, const gsl_vector *u0, const gsl_vector *r0, double tol, size_t max_sol, gsl_matrix *As, gsl_matrix *Rs, size_t *nsol, fl_error *err)
{
    if (fault("fl_stability_jumps") == FAULT_ERROR) {
        *nsol = 0;
        return injected(err, "fl_stability_jumps");
    }
    fl_status s = __real_fl_stability_jumps(s_, u0, r0, tol, max_sol, As, Rs, nsol, err);
    if (fault("fl_stability_jumps") == FAULT_PERTURB && *nsol > 0) As->data[0] += 1.0 + fabs(As->data[0]);
    return s;
}

fl_status __real_fl_model_example_4_6_analyse(const fl_model_example_4_6_system *sys, double sig, double rN, fl_stability_result *res, fl_error *err);
fl_status __wrap_fl_model_example_4_6_analyse(const fl_model_example_4_6_system *sys, double sig, double rN, fl_stability_result *res, fl_error *err);
fl_status __wrap_fl_model_example_4_6_analyse(const fl_model_example_4_6_system *sys, double sig, double rN, fl_stability_result *res, fl_error *err)
{
    if (fault("fl_model_example_4_6_analyse") == FAULT_ERROR) {
        memset(res, 0, sizeof *res);
        return injected(err, "fl_model_example_4_6_analyse");
    }
    fl_status s = __real_fl_model_example_4_6_analyse(sys, sig, rN, res, err);
    if (fault("fl_model_example_4_6_analyse") == FAULT_PERTURB) {   /* flutter and divergence swapped */
        int fl = res->flutter;
        res->flutter = res->divergence;
        res->divergence = fl;
    }
    return s;
}

fl_status __real_fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense, fl_global_problem **out, fl_error *err);
fl_status __wrap_fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense, fl_global_problem **out, fl_error *err);
fl_status __wrap_fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense, fl_global_problem **out, fl_error *err)
{
    if (fault("fl_global_problem_alloc") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_global_problem_alloc");
    }
    return __real_fl_global_problem_alloc(n, nc, dim, dense, out, err);
}

fl_status __real_fl_model_example_3_15_system_alloc(double K, double M, double P, double mu, fl_model_example_3_15_system **out, fl_error *err);
fl_status __wrap_fl_model_example_3_15_system_alloc(double K, double M, double P, double mu, fl_model_example_3_15_system **out, fl_error *err);
fl_status __wrap_fl_model_example_3_15_system_alloc(double K, double M, double P, double mu, fl_model_example_3_15_system **out, fl_error *err)
{
    if (fault("fl_model_example_3_15_system_alloc") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_model_example_3_15_system_alloc");
    }
    return __real_fl_model_example_3_15_system_alloc(K, M, P, mu, out, err);
}

fl_status __real_fl_model_wedged_rod_problem(const fl_model_wedged_rod *w, const double ui[3], double P, fl_global_problem **out, fl_error *err);
fl_status __wrap_fl_model_wedged_rod_problem(const fl_model_wedged_rod *w, const double ui[3], double P, fl_global_problem **out, fl_error *err);
fl_status __wrap_fl_model_wedged_rod_problem(const fl_model_wedged_rod *w, const double ui[3], double P, fl_global_problem **out, fl_error *err)
{
    if (fault("fl_model_wedged_rod_problem") == FAULT_ERROR) {
        *out = NULL;
        return injected(err, "fl_model_wedged_rod_problem");
    }
    return __real_fl_model_wedged_rod_problem(w, ui, P, out, err);
}

fl_status __real_fl_model_triangle_002(double lam, double mu_lame, double m1, double m2, double dt, double F, double utk, double fhat_nu, double fhat_tau, size_t max, double *sols, size_t *nsol, fl_error *err);
fl_status __wrap_fl_model_triangle_002(double lam, double mu_lame, double m1, double m2, double dt, double F, double utk, double fhat_nu, double fhat_tau, size_t max, double *sols, size_t *nsol, fl_error *err);
fl_status __wrap_fl_model_triangle_002(double lam, double mu_lame, double m1, double m2, double dt, double F, double utk, double fhat_nu, double fhat_tau, size_t max, double *sols, size_t *nsol, fl_error *err)
{
    if (fault("fl_model_triangle_002") == FAULT_ERROR) {
        *nsol = 0;
        return injected(err, "fl_model_triangle_002");
    }
    fl_status s = __real_fl_model_triangle_002(lam, mu_lame, m1, m2, dt, F, utk, fhat_nu, fhat_tau, max, sols, nsol, err);
    if (fault("fl_model_triangle_002") == FAULT_PERTURB && *nsol > 0) sols[0] += 1.0 + fabs(sols[0]);
    return s;
}

fl_status __real_fl_asymptotics_build(const fl_moreau_system *sys, const gsl_vector *q, const gsl_vector *um,
                               const fl_moreau_options *opt, double gamma_tol, double gap_tol, fl_asymptotics_set *A,
                               fl_error *err);
fl_status __wrap_fl_asymptotics_build(const fl_moreau_system *sys, const gsl_vector *q, const gsl_vector *um,
                               const fl_moreau_options *opt, double gamma_tol, double gap_tol, fl_asymptotics_set *A,
                               fl_error *err);
fl_status __wrap_fl_asymptotics_build(const fl_moreau_system *sys, const gsl_vector *q, const gsl_vector *um,
                               const fl_moreau_options *opt, double gamma_tol, double gap_tol, fl_asymptotics_set *A,
                               fl_error *err)
{
    if (fault("fl_asymptotics_build") == FAULT_ERROR) return injected(err, "fl_asymptotics_build");
    return __real_fl_asymptotics_build(sys, q, um, opt, gamma_tol, gap_tol, A, err);
}

fl_status __real_fl_asymptotics_sample(const fl_moreau_system *sys, const gsl_vector *q, const gsl_vector *um, double eps,
                                size_t ns, gsl_rng *rng, const fl_moreau_options *opt, gsl_matrix *S,
                                size_t *ncollide, fl_error *err);
fl_status __wrap_fl_asymptotics_sample(const fl_moreau_system *sys, const gsl_vector *q, const gsl_vector *um, double eps,
                                size_t ns, gsl_rng *rng, const fl_moreau_options *opt, gsl_matrix *S,
                                size_t *ncollide, fl_error *err);
fl_status __wrap_fl_asymptotics_sample(const fl_moreau_system *sys, const gsl_vector *q, const gsl_vector *um, double eps,
                                size_t ns, gsl_rng *rng, const fl_moreau_options *opt, gsl_matrix *S,
                                size_t *ncollide, fl_error *err)
{
    if (fault("fl_asymptotics_sample") == FAULT_ERROR) return injected(err, "fl_asymptotics_sample");
    return __real_fl_asymptotics_sample(sys, q, um, eps, ns, rng, opt, S, ncollide, err);
}

/* ---- running a law with a fault ---- */

/* Run task with fn misbehaving (mode), `systems` random systems; returns
 * the capture (caller cleans up).  The control run (no fault) must pass. */
static void run_fault(int (*task)(fl_check_ctx *), long systems, const char *fn, int mode, capture *c, int *rc,
                      fl_check_ctx *out)
{
    fl_check_ctx ctx = capture_ctx(c);
    ctx.systems = systems;
    fault_fn = fn;
    fault_mode = mode;
    *rc = task(&ctx);
    fault_fn = NULL;
    fault_mode = FAULT_NONE;
    *out = ctx;
}

static void control(int (*task)(fl_check_ctx *), long systems)
{
    capture c;
    fl_check_ctx ctx;
    int rc;
    run_fault(task, systems, NULL, FAULT_NONE, &c, &rc, &ctx);
    cr_assert_eq(rc, 0, "%s", c.message);
    cr_assert_eq(ctx.failed, 0, "the law fails without a fault");
    cr_assert_gt(ctx.passed, 0);
    capture_cleanup(&c);
}

/* fn misbehaving (mode): the checks `names` (NULL-terminated) fail. */
static void caught(int (*task)(fl_check_ctx *), long systems, const char *fn, int mode, const char *const *names)
{
    capture c;
    fl_check_ctx ctx;
    int rc;
    if (getenv("FL_FAULT_LIST")) fprintf(stderr, "RUN %s %d\n", fn, mode);
    run_fault(task, systems, fn, mode, &c, &rc, &ctx);
    cr_assert(rc == 0 || rc == -1, "%s: status %d", fn, rc);
    if (rc == 0) cr_assert_gt(ctx.failed, 0, "%s (mode %d): every check passed", fn, mode);
    for (int i = 0; names && names[i]; i++)
        cr_assert_eq(capture_kind(&c, names[i]), FL_CHECK_FAIL, "%s (mode %d): %s did not fail", fn, mode,
                     names[i]);
    if (getenv("FL_FAULT_LIST"))
        for (int i = 0; i < c.n; i++)
            if (c.kind[i] == FL_CHECK_FAIL) fprintf(stderr, "FAULT %s %d: FAIL %s\n", fn, mode, c.name[i]);
    capture_cleanup(&c);
}

/* ---- crosscheck --law sets ---- */

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(checks_faults, sets_catches_each_broken_set_operation)
{
    int (*t)(fl_check_ctx *) = fl_sets_crosscheck;
    control(t, 40);
    caught(t, 40, "fl_friction_set_project", FAULT_ERROR, NAMES("sets.proj_certificate", "sets.cone_moreau"));
    caught(t, 40, "fl_friction_set_project", FAULT_PERTURB,
           NAMES("sets.proj_certificate", "sets.proj_idempotent", "sets.fenchel_subdifferential"));
    caught(t, 40, "fl_friction_set_project_metric", FAULT_ERROR, NAMES("sets.disc_metric_vs_brute_force"));
    caught(t, 40, "fl_friction_set_project_metric", FAULT_PERTURB,
           NAMES("sets.proj_metric_certificate", "sets.disc_metric_vs_brute_force"));
    caught(t, 40, "fl_friction_set_support", FAULT_ERROR, NAMES("sets.support_recession", "sets.cone_moreau"));
    caught(t, 40, "fl_friction_set_support", FAULT_PERTURB,
           NAMES("sets.support_homogeneous", "sets.support_attained", "sets.fenchel_subdifferential"));
    caught(t, 40, "fl_friction_set_support_point", FAULT_ERROR, NAMES("sets.support_attained"));
    caught(t, 40, "fl_friction_set_support_point", FAULT_PERTURB, NAMES("sets.support_attained"));
    caught(t, 40, "fl_friction_set_cone_project", FAULT_ERROR, NAMES("sets.cone_moreau"));
    caught(t, 40, "fl_friction_set_cone_project", FAULT_PERTURB, NAMES("sets.cone_moreau"));
    caught(t, 40, "fl_friction_set_cone_project_polar", FAULT_ERROR, NAMES("sets.cone_moreau"));
    caught(t, 40, "fl_friction_set_cone_project_polar", FAULT_PERTURB, NAMES("sets.cone_moreau"));
    caught(t, 40, "fl_set_random", FAULT_ERROR, NAMES("sets.proj_certificate", "sets.support_homogeneous"));
    caught(t, 40, "fl_set_random_variant", FAULT_ERROR, NAMES("sets.generator", "sets.cone_moreau"));
    caught(t, 40, "fl_friction_set_copy", FAULT_ERROR, NAMES("sets.generator"));
    caught(t, 40, "fl_friction_set_interval", FAULT_ERROR, NAMES("sets.cone_disc1_vs_interval"));
}

/* ---- crosscheck --law nsgs and --law newton ---- */

Test(checks_faults, nsgs_catches_each_broken_solver)
{
    int (*t)(fl_check_ctx *) = fl_nsgs_crosscheck;
    control(t, 12);
    caught(t, 12, "fl_global_problem_random", FAULT_ERROR, NAMES("nsgs.no_errors"));
    caught(t, 12, "fl_delassus_dense", FAULT_ERROR, NAMES("nsgs.no_errors"));
    caught(t, 12, "fl_sparse_from_dense", FAULT_ERROR, NAMES("nsgs.no_errors"));
    caught(t, 12, "fl_delassus_sparse", FAULT_ERROR, NAMES("nsgs.delassus_sparse_solves", "nsgs.delassus_sparse_trailing"));
    caught(t, 12, "fl_delassus_sparse", FAULT_PERTURB, NAMES("nsgs.delassus_sparse_solves", "nsgs.delassus_sparse_trailing"));
    caught(t, 12, "fl_nsgs_solve", FAULT_ERROR, NAMES("nsgs.no_errors", "nsgs.coulomb_reference"));
    caught(t, 12, "fl_nsgs_solve", FAULT_PERTURB, NAMES("nsgs.coulomb_reference", "nsgs.reference_vs_optimized_unique"));
    caught(t, 12, "fl_nsgs_solve_sparse", FAULT_ERROR, NAMES("nsgs.no_errors", "nsgs.coulomb_optimized"));
    caught(t, 12, "fl_nsgs_solve_sparse", FAULT_PERTURB, NAMES("nsgs.coulomb_optimized"));
    caught(t, 12, "fl_enumerate_solutions", FAULT_ERROR, NAMES("nsgs.clouds_in_enumeration"));
    caught(t, 12, "fl_enumerate_solutions", FAULT_PERTURB,
           NAMES("nsgs.clouds_in_enumeration", "nsgs.enumerated_are_fixed_points"));
    caught(t, 12, "fl_plurality_explore", FAULT_ERROR, NAMES("nsgs.no_errors", "nsgs.clouds_in_enumeration"));
    caught(t, 12, "fl_plurality_explore", FAULT_PERTURB, NAMES("nsgs.clouds_in_enumeration"));
    caught(t, 12, "fl_moreau_jean_step", FAULT_ERROR, NAMES("nsgs.no_errors", "nsgs.lemma_2_4_identity"));
    caught(t, 12, "fl_moreau_jean_step", FAULT_PERTURB,
           NAMES("nsgs.lemma_2_4_identity", "nsgs.lemma_2_4_dissipative", "nsgs.impact_rule"));
}

Test(checks_faults, newton_catches_each_broken_solver)
{
    int (*t)(fl_check_ctx *) = fl_newton_crosscheck;
    control(t, 8);
    caught(t, 8, "fl_global_problem_random", FAULT_ERROR, NAMES("newton.no_errors"));
    caught(t, 8, "fl_delassus_dense", FAULT_ERROR, NAMES("newton.no_errors"));
    caught(t, 8, "fl_sparse_from_dense", FAULT_ERROR, NAMES("newton.no_errors"));
    static const char *const solver[] = {"fl_nsgs_solve", "fl_nsgs_solve_sparse", "fl_newton_solve",
                                         "fl_newton_solve_sparse"};
    static const char *const check[] = {"newton.gs_reference_converges_and_obeys_the_law",
                                        "newton.gs_optimized_converges_and_obeys_the_law",
                                        "newton.newton_reference_converges_and_obeys_the_law",
                                        "newton.newton_optimized_converges_and_obeys_the_law"};
    for (int k = 0; k < 4; k++) {
        caught(t, 8, solver[k], FAULT_ERROR, NAMES("newton.no_errors", check[k]));
        caught(t, 8, solver[k], FAULT_PERTURB, NAMES(check[k], "newton.unique_2d_matches_enumeration"));
    }
    caught(t, 8, "fl_newton_solve", FAULT_ERROR, NAMES("newton.same_accept_refuse"));
    caught(t, 8, "fl_newton_global_solve", FAULT_ERROR, NAMES("newton.no_errors", "newton.global_reference_without_W"));
    caught(t, 8, "fl_newton_global_solve", FAULT_PERTURB, NAMES("newton.global_reference_without_W"));
    caught(t, 8, "fl_newton_global_solve_sparse", FAULT_ERROR, NAMES("newton.global_optimized_without_W"));
    caught(t, 8, "fl_newton_global_solve_sparse", FAULT_PERTURB, NAMES("newton.global_optimized_without_W"));
    caught(t, 8, "fl_enumerate_solutions", FAULT_ERROR, NAMES("newton.unique_2d_matches_enumeration"));
    caught(t, 8, "fl_enumerate_solutions", FAULT_PERTURB, NAMES("newton.unique_2d_matches_enumeration"));
}

/* ---- crosscheck --law stewart and --law p4 ---- */

Test(checks_faults, stewart_catches_each_broken_step)
{
    int (*t)(fl_check_ctx *) = fl_stewart_crosscheck;
    control(t, 12);
    caught(t, 12, "fl_lemke_solve", FAULT_ERROR,
           NAMES("lemke.closed_form_2x2", "lemke.vs_enumeration_pd", "stewart.coulomb_real_world_reference"));
    caught(t, 12, "fl_lemke_solve", FAULT_PERTURB, NAMES("stewart.lemke_vs_enumeration"));
    caught(t, 12, "fl_lcp_enumerate", FAULT_ERROR,
           NAMES("lemke.vs_enumeration_pd", "stewart.lemke_vs_enumeration", "painleve.acceleration_lcp"));
    caught(t, 12, "fl_lcp_enumerate", FAULT_PERTURB,
           NAMES("lemke.vs_enumeration_pd", "stewart.lemke_vs_enumeration", "painleve.grazing_unique_mu_below"));
    caught(t, 12, "fl_stewart_step", FAULT_ERROR,
           NAMES("stewart.coulomb_real_world_reference", "stewart.momentum_balance_reference"));
    caught(t, 12, "fl_stewart_step", FAULT_PERTURB,
           NAMES("stewart.coulomb_real_world_reference", "stewart.momentum_balance_reference",
                 "stewart.reference_vs_optimized"));
    caught(t, 12, "fl_stewart_step_sparse", FAULT_ERROR,
           NAMES("stewart.coulomb_real_world_optimized", "stewart.momentum_balance_optimized"));
    caught(t, 12, "fl_stewart_step_sparse", FAULT_PERTURB,
           NAMES("stewart.coulomb_real_world_optimized", "stewart.reference_vs_optimized"));
    caught(t, 12, "fl_stewart_lcp_build", FAULT_ERROR,
           NAMES("stewart.lemke_vs_enumeration", "painleve.grazing_unique_mu_below"));
    caught(t, 12, "fl_stewart_lcp_recover", FAULT_ERROR,
           NAMES("stewart.lemke_vs_enumeration", "painleve.two_solutions_mu_above"));
    caught(t, 12, "fl_stewart_coulomb_violation", FAULT_ERROR, NAMES("stewart.lemke_vs_enumeration"));
    caught(t, 12, "fl_stewart_coulomb_violation", FAULT_PERTURB, NAMES("stewart.lemke_vs_enumeration"));
    /* a refused bar is one FAIL, not steps of an unset system */
    caught(t, 12, "fl_model_painleve_stewart_system", FAULT_ERROR, NAMES("painleve.bar"));
}

Test(checks_faults, p4_catches_each_broken_step)
{
    int (*t)(fl_check_ctx *) = fl_p4_crosscheck;
    control(t, 20);
    static const char *const setup[] = {"fl_sparse_start", "fl_spd_alloc", "fl_sparse_from_dense"};
    for (int k = 0; k < 3; k++)
        caught(t, 20, setup[k], FAULT_ERROR, NAMES("p4.steps_run", "p4.newton_consistency", "p4.trajectory_energy"));
    caught(t, 20, "fl_spd_alloc", FAULT_ERROR, NAMES("p4.fset_zero_and_unbounded"));
    caught(t, 20, "fl_p4_step", FAULT_ERROR, NAMES("p4.steps_run", "p4.prop51_impact_energy"));
    caught(t, 20, "fl_p4_step", FAULT_PERTURB,
           NAMES("p4.prop51_step_energy", "p4.prop51_impact_energy", "p4.certificate", "p4.normal_residual",
                 "p4.reference_vs_optimized", "p4.reference_vs_optimized_two_constraints"));
    caught(t, 20, "fl_p4_step_sparse", FAULT_ERROR, NAMES("p4.steps_run"));
    caught(t, 20, "fl_p4_step_sparse", FAULT_PERTURB,
           NAMES("p4.prop51_step_energy", "p4.reference_vs_optimized", "p4.reference_vs_optimized_two_constraints"));
    caught(t, 20, "fl_p4_split_velocity", FAULT_PERTURB, NAMES("p4.rtau_vt_nonpositive", "p4.velocity_split"));
    caught(t, 20, "fl_p4_split_reaction", FAULT_PERTURB, NAMES("p4.cone_split_kkt"));
    caught(t, 20, "fl_p4_impact_check", FAULT_ERROR, NAMES("p4.newton_consistency"));
    caught(t, 20, "fl_p4_impact_check", FAULT_PERTURB, NAMES("p4.newton_consistency"));
    caught(t, 20, "fl_fset_build", FAULT_ERROR, NAMES("p4.fset_zero_and_unbounded"));
    caught(t, 20, "fl_fset_build", FAULT_PERTURB, NAMES("p4.fset_zero_and_unbounded"));
    caught(t, 20, "fl_p4_simulate", FAULT_ERROR, NAMES("p4.trajectory_energy"));
    caught(t, 20, "fl_p4_simulate", FAULT_PERTURB, NAMES("p4.trajectory_energy"));
}

/* ---- crosscheck --law midpoint and --law stability ---- */

Test(checks_faults, midpoint_catches_each_broken_step)
{
    int (*t)(fl_check_ctx *) = fl_midpoint_crosscheck;
    control(t, 10);
    caught(t, 10, "fl_sparse_start", FAULT_ERROR, NULL);   /* refuses to run (-1) */
    const char *err[] = {"fl_midpoint_block_alloc", "fl_midpoint_block_alloc_sparse", "fl_sparse_to_dense",
                         "fl_fe2d_assemble_dense", "fl_fe2d_affine_fields", "fl_fe2d_contact_vectors",
                         "fl_redistribution_alloc", "fl_redistribution_dense", "fl_midpoint_alloc",
                         "fl_midpoint_alloc_sparse", "fl_midpoint_state_alloc", "fl_midpoint_step",
                         "fl_midpoint_step_sparse"};
    for (size_t k = 0; k < sizeof err / sizeof *err; k++) caught(t, 10, err[k], FAULT_ERROR, NAMES("midpoint.runs"));
    caught(t, 10, "fl_midpoint_lemma41", FAULT_ERROR, NAMES("midpoint.lemma4_1_lipschitz"));
    caught(t, 10, "fl_sparse_to_dense", FAULT_PERTURB, NAMES("midpoint.redistribution_sparse"));
    caught(t, 10, "fl_redistribution_dense", FAULT_PERTURB, NAMES("midpoint.redistribution_mass"));
    caught(t, 10, "fl_midpoint_step", FAULT_PERTURB,
           NAMES("midpoint.energy_identity", "midpoint.prop5_1_friction_work", "midpoint.step_residual"));
    caught(t, 10, "fl_midpoint_step_sparse", FAULT_PERTURB, NAMES("midpoint.ref_vs_sparse"));
    caught(t, 10, "fl_midpoint_lemma41", FAULT_PERTURB, NAMES("midpoint.lemma4_1_lipschitz"));
}

Test(checks_faults, stability_catches_each_broken_analysis)
{
    int (*t)(fl_check_ctx *) = fl_stability_crosscheck;
    control(t, 20);
    caught(t, 20, "fl_sparse_start", FAULT_ERROR, NULL);   /* refuses to run (-1) */
    caught(t, 20, "fl_stability_partition", FAULT_ERROR, NAMES("stability.partition", "stability.order_ii"));
    caught(t, 20, "fl_stability_tangent_alloc", FAULT_ERROR, NAMES("stability.order_ii", "stability.ref_vs_sparse"));
    caught(t, 20, "fl_stability_analyse", FAULT_ERROR, NAMES("stability.order_ii", "stability.ref_vs_sparse"));
    static const char *const twin[] = {"fl_sparse_from_dense", "fl_stability_tangent_alloc_sparse",
                                       "fl_stability_analyse_sparse"};
    for (int k = 0; k < 3; k++)
        caught(t, 20, twin[k], FAULT_ERROR, NAMES("stability.ref_vs_sparse", "stability.damped_ref_vs_sparse"));
    caught(t, 20, "fl_stability_rayleigh", FAULT_ERROR, NAMES("stability.damped_ref_vs_sparse"));
    caught(t, 20, "fl_stability_rayleigh_sparse", FAULT_ERROR, NAMES("stability.damped_ref_vs_sparse"));
    caught(t, 20, "fl_stability_partition", FAULT_PERTURB, NAMES("stability.partition"));
    caught(t, 20, "fl_stability_analyse", FAULT_PERTURB,
           NAMES("stability.order_ii", "stability.cholesky_vs_eig", "stability.method1", "stability.ref_vs_sparse"));
    caught(t, 20, "fl_stability_gen_eig", FAULT_PERTURB, NAMES("stability.order_ii"));
    caught(t, 20, "fl_stability_analyse_sparse", FAULT_PERTURB, NAMES("stability.ref_vs_sparse"));
    caught(t, 20, "fl_stability_rayleigh_sparse", FAULT_PERTURB, NAMES("stability.damped_ref_vs_sparse"));
    caught(t, 20, "fl_stability_form_star", FAULT_PERTURB, NAMES("stability.identity_84"));
    caught(t, 20, "fl_stability_viol_Kudot", FAULT_PERTURB, NAMES("stability.identity_84"));
}

/* ---- crosscheck --law moreau ---- */

Test(checks_faults, moreau_catches_each_broken_law)
{
    int (*t)(fl_check_ctx *) = fl_moreau_crosscheck;
    control(t, 12);
    caught(t, 12, "fl_sparse_start", FAULT_ERROR, NULL);   /* refuses to run (-1) */
    caught(t, 12, "fl_moreau_law", FAULT_ERROR, NAMES("moreau.reference.runs_without_error"));
    caught(t, 12, "fl_moreau_law_sparse", FAULT_ERROR,
           NAMES("moreau.optimized.runs_without_error", "moreau.reference_vs_optimized"));
    caught(t, 12, "fl_moreau_law", FAULT_PERTURB,
           NAMES("moreau.reference.v_kept_in_V", "moreau.reference.optimality_residual",
                 "moreau.reference_vs_optimized"));
    caught(t, 12, "fl_moreau_law_sparse", FAULT_PERTURB,
           NAMES("moreau.optimized.v_kept_in_V", "moreau.reference_vs_optimized"));
    /* the polygon systems cannot be drawn: fewer systems than asked */
    caught(t, 12, "fl_friction_set_polygon", FAULT_ERROR, NAMES("moreau.reference.runs_without_error"));
}

/* ---- the reproduce tasks: a failing call is never all PASS ---- */

typedef struct task_fault {
    int (*task)(fl_check_ctx *);
    const char *fn;
} task_fault;

Test(checks_faults, reproduce_tasks_report_each_failing_call, .timeout = 120)
{
    static const task_fault cases[] = {
        {fl_p4_reproduce_painleve_set, "fl_model_painleve_build"},
        {fl_p4_reproduce_painleve_catastrophe, "fl_model_painleve_build"},
        {fl_p4_reproduce_painleve_catastrophe, "fl_p4_simulate"},
        {fl_p4_reproduce_painleve_grazing, "fl_model_painleve_build"},
        {fl_p4_reproduce_painleve_grazing, "fl_p4_simulate"},
        {fl_p4_reproduce_painleve_p5_vs_p3, "fl_model_painleve_build"},
        {fl_p4_reproduce_painleve_p5_vs_p3, "fl_p4_simulate"},
        {fl_p4_reproduce_painleve_p5_vs_p3, "fl_stewart_integrate"},
        {fl_p4_reproduce_systems_1_2, "fl_p4_simulate"},
        {fl_p4_reproduce_kane, "fl_fset_build"},
        {fl_p4_reproduce_kane, "fl_p4_step"},
        {fl_stewart_reproduce_painleve, "fl_model_painleve_stewart_system"},
        {fl_stewart_reproduce_painleve, "fl_stewart_integrate"},
        {fl_stability_reproduce_example_3_15, "fl_model_example_3_15_system_alloc"},
        {fl_stability_reproduce_example_3_15, "fl_stability_partition"},
        {fl_stability_reproduce_example_3_15, "fl_stability_tangent_alloc"},
        {fl_stability_reproduce_example_3_15, "fl_stability_analyse"},
        {fl_stability_reproduce_example_3_14, "fl_stability_jumps"},
        {fl_stability_reproduce_example_4_6, "fl_model_example_4_6_analyse"},
        {fl_stability_reproduce_example_4_6, "fl_global_problem_alloc"},
        {fl_stability_reproduce_example_4_6, "fl_spd_alloc"},
        {fl_stability_reproduce_example_4_6, "fl_moreau_jean_step"},
        {fl_nsgs_reproduce_wedged_rod, "fl_model_wedged_rod_problem"},
        {fl_nsgs_reproduce_wedged_rod, "fl_enumerate_solutions"},
        {fl_nsgs_reproduce_wedged_rod, "fl_nsgs_solve"},
        {fl_nsgs_reproduce_wedged_rod, "fl_moreau_jean_step"},
        {fl_midpoint_reproduce_triangle, "fl_model_triangle_002"},
        /* the square block stops at its first step: cheap */
        {fl_midpoint_reproduce_square_block, "fl_midpoint_block_alloc_sparse"},
        {fl_midpoint_reproduce_square_block, "fl_midpoint_alloc_sparse"},
        {fl_midpoint_reproduce_square_block, "fl_midpoint_state_alloc"},
        {fl_midpoint_reproduce_square_block, "fl_midpoint_step_sparse"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) caught(cases[k].task, 0, cases[k].fn, FAULT_ERROR, NULL);
    caught(fl_moreau_reproduce_theorem1, 0, "fl_asymptotics_build", FAULT_ERROR, NULL);
    caught(fl_moreau_reproduce_theorem1, 0, "fl_asymptotics_sample", FAULT_ERROR, NULL);
    /* wrong answers of the 004 analyses */
    caught(fl_stability_reproduce_example_3_15, 0, "fl_stability_partition", FAULT_PERTURB, NAMES("example_3_15.state"));
    caught(fl_stability_reproduce_example_3_15, 0, "fl_stability_analyse", FAULT_PERTURB,
           NAMES("example_3_15.min_eig_KS", "example_3_15.threshold", "example_3_15.eigvec_118"));
    caught(fl_stability_reproduce_example_3_14, 0, "fl_stability_jumps", FAULT_PERTURB,
           NAMES("example_3_14.fixture", "example_3_14.grid"));
    caught(fl_stability_reproduce_example_4_6, 0, "fl_model_example_4_6_analyse", FAULT_PERTURB,
           NAMES("example_4_6.fig9_flutter", "example_4_6.inequalities"));
    /* the friction set built on the wrong side of mu = -1/tan(theta0) */
    caught(fl_p4_reproduce_painleve_set, 0, "fl_model_painleve_build", FAULT_PERTURB,
           NAMES("painleve_set.switch_at_threshold"));
    caught(fl_p4_reproduce_painleve_catastrophe, 0, "fl_model_painleve_build", FAULT_PERTURB,
           NAMES("painleve_catastrophe.unbounded_set_no_normal_impact",
                 "painleve_catastrophe.bounded_set_slides_to_rest"));
    /* the wedged rod with wrong impulses, enumeration or clouds */
    caught(fl_nsgs_reproduce_wedged_rod, 0, "fl_moreau_jean_step", FAULT_PERTURB,
           NAMES("wedged_rod.free_fall_solution", "wedged_rod.wedged_solution", "wedged_rod.detachment_load"));
    caught(fl_nsgs_reproduce_wedged_rod, 0, "fl_enumerate_solutions", FAULT_PERTURB, NAMES("wedged_rod.enumeration"));
    caught(fl_nsgs_reproduce_wedged_rod, 0, "fl_plurality_explore", FAULT_PERTURB, NAMES("wedged_rod.both_outcomes"));
    /* a wrong solution of the single triangle (002 §6) */
    caught(fl_midpoint_reproduce_triangle, 0, "fl_model_triangle_002", FAULT_PERTURB,
           NAMES("triangle_002.S5_ends", "triangle_002.branches_random"));
}
