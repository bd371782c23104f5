/* test_alloc_failure.c — the library never aborts and never crashes when
 * memory runs out (fl_dense.h, Allocation): every allocation the library
 * makes itself (malloc, calloc, realloc and GSL's matrix, vector and
 * permutation allocators, reached through the fl_dense_*alloc wrappers) is
 * made to fail in turn, the k-th one for k = 1, 2, ... until a call makes
 * fewer than k allocations.  Each failing run must return an error status
 * (FL_ENOMEM, or the error a caller turns it into) and leave its
 * out-pointer NULL, or, when the allocation was optional, the status of
 * the run without failure; it must never crash (Criterion reports it).
 *
 * The calls are intercepted with the linker's --wrap (tests/meson.build):
 * only references from this program and from the static library are
 * redirected, so GSL's and Criterion's own allocations are not touched.
 * CHOLMOD's and UMFPACK's are, through SuiteSparse's allocation hooks
 * (SuiteSparse_config), and jansson's, through json_set_alloc_funcs, so a
 * failing cholmod_*, umfpack_* or json_* call is exercised too. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>
#include <SuiteSparse_config.h>
#include <jansson.h>

#include "fl_dense.h"
#include "drivers/fl_types.h"
#include "fl_json.h"
#include "fl_mm.h"
#include "fl_random.h"
#include "reference/enumerate.h"
#include "reference/lemke.h"
#include "reference/midpoint.h"
#include "models/fl_model_triangle.h"
#include "models/fl_model_square_block.h"
#include "reference/moreau_law.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "reference/stability.h"
#include "optimized/nsgs_sparse.h"
#include "optimized/delassus_sparse.h"
#include "optimized/p4_law_sparse.h"
#include "optimized/stewart_law_sparse.h"
#include "reference/p4_law.h"
#include "reference/stewart_law.h"
#include "fl_fclib.h"
#include "fl_results.h"
#include "fl_siconos_text.h"
#include "optimized/fe2d_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "optimized/quasistatic_sparse.h"
#include "optimized/stability_sparse.h"
#include "reference/quasistatic.h"
#include "drivers/moreau_jean.h"
#include "drivers/plurality_explore.h"
#include "drivers/discs_step.h"
#include "reference/friction_set_build.h"
#include "reference/lcp_enumerate.h"
#include "checks/fl_check.h"
#include "checks/fl_tasks.h"
#include <unistd.h>

/* ---- the interposed allocators ------------------------------------------ */

static long fail_at;      /* 0: never fail; k: the k-th allocation fails */
static long count;        /* allocations seen since arm() */
static fl_error scen_err; /* the last error of a scenario that reports one */

static int should_fail(void)
{
    if (fail_at <= 0) return 0;
    return ++count == fail_at;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t s);
void *__real_realloc(void *p, size_t n);
gsl_matrix *__real_gsl_matrix_alloc(size_t a, size_t b);
gsl_matrix *__real_gsl_matrix_calloc(size_t a, size_t b);
gsl_vector *__real_gsl_vector_alloc(size_t n);
gsl_vector *__real_gsl_vector_calloc(size_t n);
gsl_permutation *__real_gsl_permutation_alloc(size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t s);
void *__wrap_realloc(void *p, size_t n);
gsl_matrix *__wrap_gsl_matrix_alloc(size_t a, size_t b);
gsl_matrix *__wrap_gsl_matrix_calloc(size_t a, size_t b);
gsl_vector *__wrap_gsl_vector_alloc(size_t n);
gsl_vector *__wrap_gsl_vector_calloc(size_t n);
gsl_permutation *__wrap_gsl_permutation_alloc(size_t n);

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t s) { return should_fail() ? NULL : __real_calloc(n, s); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }
gsl_matrix *__wrap_gsl_matrix_alloc(size_t a, size_t b)
{
    return should_fail() ? NULL : __real_gsl_matrix_alloc(a, b);
}
gsl_matrix *__wrap_gsl_matrix_calloc(size_t a, size_t b)
{
    return should_fail() ? NULL : __real_gsl_matrix_calloc(a, b);
}
gsl_vector *__wrap_gsl_vector_alloc(size_t n)
{
    return should_fail() ? NULL : __real_gsl_vector_alloc(n);
}
gsl_vector *__wrap_gsl_vector_calloc(size_t n)
{
    return should_fail() ? NULL : __real_gsl_vector_calloc(n);
}
gsl_permutation *__wrap_gsl_permutation_alloc(size_t n)
{
    return should_fail() ? NULL : __real_gsl_permutation_alloc(n);
}

/* Run `call` with the k-th allocation failing, k = 1, 2, ... until a run
 * makes fewer than k allocations (then it must succeed).  `call` returns
 * its status; every run with an injected failure must return < 0. */
typedef fl_status (*scenario)(void *data);

/* CHOLMOD and UMFPACK allocate through SuiteSparse's hooks, jansson through
 * json_set_alloc_funcs: pointed at the interposed allocators, their
 * allocations fail in turn as well. */
static void free_real(void *p) { free(p); }

static void hook_libraries(void)
{
    SuiteSparse_config.malloc_func = __wrap_malloc;
    SuiteSparse_config.calloc_func = __wrap_calloc;
    SuiteSparse_config.realloc_func = __wrap_realloc;
    json_set_alloc_funcs(__wrap_malloc, free_real);
}

/* The k-th allocation failing for k = 1, 2, ..., dense, then every
 * stride-th k: a scenario that makes tens of thousands of allocations
 * (a crosscheck law stepping FE blocks) is sampled along its whole run
 * instead of taking minutes; stride 1 is every allocation. */
static void fail_allocations(const char *name, scenario call, void *data, long dense, long stride)
{
    hook_libraries();
    fail_at = 0;
    fl_status plain = call(data);
    cr_assert(plain >= 0, "%s: status %d without any failure (%s)", name, plain, scen_err.message);
    long k;
    for (k = 1; k < 100000; k += k < dense ? 1 : stride) {
        count = 0;
        fail_at = k;
        fl_status s = call(data);
        long made = count;
        fail_at = 0;
        if (made < k) {
            cr_assert(s >= 0, "%s: status %d with no allocation failing", name, s);
            break;
        }
        /* an error, or the same answer when the allocation was optional
         * (e.g. Lemke's final polish is skipped) */
        cr_assert(s < 0 || s == plain, "%s: allocation %ld of %ld failed, status %d "
                  "(an error or %d expected)", name, k, made, s, plain);
    }
    cr_assert_gt(k, 1, "%s: made no allocation at all", name);
}

static void fail_each_allocation(const char *name, scenario call, void *data)
{
    fail_allocations(name, call, data, 1, 1);
}

/* ---- scenarios ---------------------------------------------------------- */

static const char *fixture(const char *sub)
{
    static char p[1024];
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    snprintf(p, sizeof p, "%s/tests/data/%s", root, sub);
    return p;
}

static fl_status json_read(void *data)
{
    (void)data;
    fl_json_doc *doc = NULL;
    fl_error e;
    fl_status s = fl_json_load(fixture("json/good.json"), &doc, &e);
    if (s < 0) {
        cr_assert_null(doc);
        return s;
    }
    const json_t *params = NULL;
    gsl_vector *q = NULL;
    gsl_matrix *M = NULL;
    s = fl_json_object(doc, doc->root, "", "params", &params, &e);
    if (s == FL_OK) s = fl_json_vector(doc, params, "params", "q", 3, &q, &e);
    if (s == FL_OK) s = fl_json_matrix(doc, params, "params", "M", 3, 3, &M, &e);
    gsl_vector_free(q);
    gsl_matrix_free(M);
    fl_json_free(doc);
    return s;
}

static fl_status mm_read(void *data)
{
    fl_sparse_ctx *ctx = data;
    cholmod_sparse *A = NULL;
    fl_status s = fl_mm_read(ctx, fixture("mm/general.mtx"), &A, NULL);
    if (s < 0) cr_assert_null(A);
    fl_sparse_free(ctx, &A);
    return s;
}

static fl_status nsgs_both(void *data)
{
    fl_local_problem *p = data;
    gsl_vector *r = gsl_vector_calloc(p->m), *U = gsl_vector_calloc(p->m);
    if (!r || !U) {
        gsl_vector_free(r);
        gsl_vector_free(U);
        return FL_ENOMEM;
    }
    fl_nsgs_options o = fl_nsgs_options_default();
    fl_status s = fl_nsgs_solve(p, &o, r, U, NULL, NULL);
    if (s >= 0) s = fl_nsgs_solve_sparse(p, &o, r, U, NULL, NULL);
    gsl_vector_free(r);
    gsl_vector_free(U);
    return s;
}

static fl_status enumerate(void *data)
{
    fl_local_problem *p = data;
    fl_enumerate_result *e = NULL;
    fl_status s = fl_enumerate_solutions(p, 1e-10, &e, NULL);
    if (s < 0) cr_assert_null(e);
    fl_enumerate_result_free(e);
    return s;
}

typedef struct global_case {
    fl_global_problem *g;
} global_case;

static fl_status delassus_all(void *data)
{
    global_case *c = data;
    fl_local_problem *p = NULL;
    fl_status s = fl_delassus_dense(c->g, NULL, NULL, &p, NULL);
    if (s < 0) {
        cr_assert_null(p);
        return s;
    }
    fl_local_problem_free(p);
    p = NULL;
    cholmod_factor *L = NULL;
    s = fl_delassus_sparse(c->g, NULL, &L, &p, NULL);
    if (s >= 0) {
        fl_local_problem_free(p);
        p = NULL;
        s = fl_delassus_sparse(c->g, &(fl_delassus_options){.sparse.method = FL_DELASSUS_TRAILING}, &L, &p, NULL);
    }
    if (s < 0) cr_assert_null(p);
    fl_local_problem_free(p);
    fl_sparse_free_factor(c->g->ctx, &L);
    return s;
}

static fl_status lemke(void *data)
{
    (void)data;
    const double Md[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, qd[3] = {-1, 0.5, -2};
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    gsl_vector_const_view q = gsl_vector_const_view_array(qd, 3);
    double zd[3], wd[3];
    gsl_vector_view z = gsl_vector_view_array(zd, 3), w = gsl_vector_view_array(wd, 3);
    fl_lemke_options o = fl_lemke_options_default();
    return fl_lemke_solve(&M.matrix, &q.vector, &z.vector, &w.vector, &o, NULL, NULL);
}

static fl_status triangle(void *data)
{
    (void)data;
    double sols[32];
    size_t ns = 0;
    return fl_model_triangle_002(1.0, 1.0, 1.0, 1.0, 0.1, 0.5, 0.3, -1.0, 0.2, 8, sols, &ns,
                                    NULL);
}

static fl_status eigen(void *data)
{
    (void)data;
    const double Kd[9] = {2, -1, 0, -1, 2, -1, 0, -1, 2}, Md[9] = {1, 0, 0, 0, 2, 0, 0, 0, 1};
    gsl_matrix_const_view K = gsl_matrix_const_view_array(Kd, 3, 3);
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    double re[3], im[3], lmin;
    fl_status s = fl_stability_gen_eig(&K.matrix, &M.matrix, re, im, NULL, NULL);
    if (s >= 0) s = fl_stability_sym_min(&K.matrix, &lmin, NULL, NULL);
    return s;
}

static fl_status spd_splits(void *data)
{
    (void)data;
    const double Md[9] = {4, 1, 0, 1, 3, 0.5, 0, 0.5, 2}, Dd[6] = {1, 0, 1, 0, 1, -1};
    const double vd[3] = {1, -2, 0.5};
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    gsl_matrix_const_view D = gsl_matrix_const_view_array(Dd, 2, 3);
    gsl_vector_const_view v = gsl_vector_const_view_array(vd, 3);
    double a[3], b[3], l[2];
    gsl_vector_view va = gsl_vector_view_array(a, 3), vb = gsl_vector_view_array(b, 3);
    gsl_vector_view vl = gsl_vector_view_array(l, 2);
    fl_spd *spd = NULL;
    fl_status s = fl_spd_alloc(&M.matrix, &spd, NULL);
    if (s < 0) {
        cr_assert_null(spd);
        return s;
    }
    s = fl_spd_split_velocity(spd, &D.matrix, &v.vector, &va.vector, &vb.vector, NULL);
    if (s >= 0)
        s = fl_spd_split_reaction(spd, &D.matrix, &v.vector, &va.vector, &vb.vector, &vl.vector,
                                  NULL);
    fl_spd_free(spd);
    return s;
}

/* Moreau's law (000 §2) with a set (disc of the tangent plane) and with the
 * isotropic ball, M = [2 .5 0; .5 2 0; 0 0 1], a collision (gap < 0). */
static fl_status moreau(void *data)
{
    (void)data;
    const double Md[9] = {2, 0.5, 0, 0.5, 2, 0, 0, 0, 1}, nd[3] = {0, 0, 1};
    const double vd[3] = {3, 4, -1}, Td[6] = {1, 0, 0, 1, 0, 0};
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    gsl_matrix_const_view T = gsl_matrix_const_view_array(Td, 3, 2);
    gsl_vector_const_view n = gsl_vector_const_view_array(nd, 3), v = gsl_vector_const_view_array(vd, 3);
    double ud[3], rd[3];
    gsl_vector_view u = gsl_vector_view_array(ud, 3), r = gsl_vector_view_array(rd, 3);
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_disc(&C, 2, 0.5, NULL), FL_OK);
    fl_status s = FL_OK;
    for (int iso = 0; iso <= 1 && s >= 0; iso++) {
        fl_moreau_problem p = {.d = 3, .M = &M.matrix, .gap = -0.5, .dgap = &n.vector,
                               .friction = iso ? FL_MOREAU_ISOTROPIC : FL_MOREAU_SET,
                               .mu = 0.5, .tangent = iso ? NULL : &T.matrix,
                               .C = iso ? NULL : &C, .v = &v.vector};
        fl_moreau_result res;
        s = fl_moreau_law(&p, NULL, &u.vector, &r.vector, &res, NULL);
    }
    fl_friction_set_release(&C);
    return s;
}

/* The Siconos text readers on a local and a global file, each dense and
 * sparse, and the writers: every allocation of the parse (tokens, triplets,
 * values, problem) may fail. */
typedef struct reader_case {
    fl_sparse_ctx *ctx;
    char out[128];
} reader_case;

static fl_status siconos_text_all(void *data)
{
    reader_case *c = data;
    fl_status s = FL_OK;
    for (int sparse = 0; sparse <= 1 && s >= 0; sparse++) {
        fl_local_problem *p = NULL;
        fl_global_problem *g = NULL;
        s = fl_siconos_text_read(fixture("siconos/two_contacts_3d.dat"), !sparse,
                                 sparse ? c->ctx : NULL, &p, &scen_err);
        if (s < 0) cr_assert_null(p);
        if (s >= 0 && !sparse) s = fl_siconos_text_write(c->out, p, &scen_err);
        fl_local_problem_free(p);
        if (s < 0) break;
        s = fl_siconos_text_read_global(fixture("siconos/GFC3D_TwoRods1.dat"), !sparse,
                                        sparse ? c->ctx : NULL, NULL, &g, &scen_err);
        if (s < 0) cr_assert_null(g);
        if (s >= 0 && !sparse) s = fl_siconos_text_write_global(c->out, g, &scen_err);
        fl_global_problem_free(g);
    }
    return s;
}

/* FCLIB: read the global fixture (dense and sparse), write it in the three
 * matrix forms and read it back as written; a solution and guesses. */
static fl_status fclib_all(void *data)
{
    reader_case *c = data;
    fl_global_problem *g = NULL;
    fl_status s = fl_fclib_read_global(fixture("fclib/global_small.hdf5"), 1, c->ctx, &g, &scen_err);
    if (s < 0) {
        cr_assert_null(g);
        return s;
    }
    for (int form = 0; form < 3 && s >= 0; form++) {
        fl_fclib_storage st = form == 0 ? FL_FCLIB_CSC : form == 1 ? FL_FCLIB_CSR : FL_FCLIB_TRIPLET;
        s = fl_fclib_write_global_as(c->out, g, "alloc", st, &scen_err);
        fl_global_problem *b = NULL;
        if (s >= 0) s = fl_fclib_read_global(c->out, form != 1, form != 0 ? c->ctx : NULL, &b, &scen_err);
        if (s < 0) cr_assert_null(b);
        fl_global_problem_free(b);
    }
    fl_local_problem *p = NULL;
    if (s >= 0) s = fl_delassus_dense(g, NULL, NULL, &p, &scen_err);
    for (int form = 0; form < 3 && s >= 0; form++) {
        fl_fclib_storage st = form == 0 ? FL_FCLIB_CSC : form == 1 ? FL_FCLIB_CSR : FL_FCLIB_TRIPLET;
        s = fl_fclib_write_local_as(c->out, p, "alloc", st, &scen_err);
        fl_local_problem *b = NULL;
        if (s >= 0) s = fl_fclib_read_local(c->out, form != 1, form != 0 ? c->ctx : NULL, &b, &scen_err);
        if (s < 0) cr_assert_null(b);
        fl_local_problem_free(b);
    }
    fl_fclib_solution *sol = NULL;
    if (s >= 0) s = fl_fclib_solution_alloc(0, p->m, &sol, &scen_err);
    if (s >= 0) s = fl_fclib_write_solution(c->out, sol, &scen_err);
    if (s >= 0) {
        const fl_fclib_solution *gs[2] = {sol, sol};
        s = fl_fclib_write_guesses(c->out, 2, gs, &scen_err);
    }
    fl_fclib_solution_free(sol);
    sol = NULL;
    if (s >= 0) {
        s = fl_fclib_read_solution(c->out, &sol, &scen_err);
        if (s < 0) cr_assert_null(sol);
        fl_fclib_solution_free(sol);
    }
    if (s >= 0) {
        fl_fclib_solution **gs = NULL;
        size_t ng = 0;
        s = fl_fclib_read_guesses(c->out, &gs, &ng, &scen_err);
        if (s < 0) cr_assert_null(gs);
        else cr_assert_eq(ng, 2);
        fl_fclib_guesses_free(gs, ng);
    }
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    return s;
}

/* results.json and report.html of a run with two tasks: build, write, read
 * back, compare with itself. */
static fl_status results_all(void *data)
{
    reader_case *c = data;
    fl_results *r = fl_results_alloc("0.1.0", "abc");
    if (!r) return FL_ENOMEM;
    fl_status s = fl_results_set_started(r, "2026-11-25T12:00:00Z");
    if (s >= 0) s = fl_results_set_command(r, "frictionlab reproduce --all");
    if (s >= 0) s = fl_results_paper_add(r, "004", "Martins et al.");
    if (s >= 0) s = fl_results_paper_add(r, "004", "Martins, Pinto da Costa, Simoes");
    for (int k = 0; k < 2 && s >= 0; k++) {
        fl_result_task *t = NULL;
        s = fl_results_task_add(r, k ? "b" : "a", "summary", "004 §3", &t);
        if (s >= 0) s = fl_result_task_set_paper(t, "004 §3.5");
        if (s >= 0) s = fl_result_task_figure_add(t, "fig.png", "Fig. 7");
        if (s >= 0) s = fl_result_task_file_add(t, "data.csv");
        for (int j = 0; j < 3 && s >= 0; j++) {
            fl_result_check ck = fl_result_check_default();
            ck.name = j == 0 ? "x" : j == 1 ? "y" : "z";
            ck.status = j == 2 ? FL_RESULT_NOTE : FL_RESULT_PASS;
            ck.has_value = ck.has_expected = ck.has_tolerance = j < 2;
            ck.value = j ? INFINITY : 1.0;
            ck.expected = 1.0;
            ck.tolerance = 1e-9;
            ck.reference = "closed form";
            ck.detail = "detail";
            ck.discrepancy = j == 1 ? "documented" : NULL;
            ck.has_noise_rtol = j == 0;   /* a declared noise tolerance, copied and read back */
            ck.noise_rtol = 1e-6;
            ck.noise_reason = "iterative";
            s = fl_result_task_check_add(t, &ck);
        }
    }
    if (s >= 0) s = fl_results_write_json(r, c->out, &scen_err);
    fl_results *b = NULL;
    if (s >= 0) {
        s = fl_results_read_json(c->out, &b, &scen_err);
        if (s < 0) cr_assert_null(b);
    }
    if (s >= 0) {
        fl_result_comparison *cmp = NULL;
        s = fl_results_compare(b, r, NULL, &cmp, &scen_err);
        if (s < 0) cr_assert_null(cmp);
        else cr_assert_eq(cmp->ndrift, 0);
        fl_result_comparison_free(cmp);
    }
    if (s >= 0) s = fl_results_write_html(r, c->out, "/nonexistent-dir", &scen_err);
    fl_results_free(b);
    fl_results_free(r);
    return s;
}

/* P'4 (001 §4-§5), both twins: two constraints with interval friction sets
 * on n = 3 (diagonal M, E W dphi = 0), an impact (D v^- < 0, Newton's law e = 0.5) and a sliding step. */
typedef struct p4_case {
    fl_p4_problem p;
} p4_case;

static fl_status p4_both(void *data)
{
    p4_case *c = data;
    const double vd[2][3] = {{0.5, -1.0, 0.2}, {1.0, 0.0, 0.3}};
    fl_status s = FL_OK;
    for (int k = 0; k < 3 && s >= 0; k++) {
        gsl_vector_const_view v = gsl_vector_const_view_array(vd[k % 2], 3);
        double fd[3] = {0, -0.1, -0.2};
        gsl_vector_const_view f = gsl_vector_const_view_array(fd, 3);
        fl_p4_impact_law law = {k == 2 ? FL_P4_IMPACT_INELASTIC : FL_P4_IMPACT_NEWTON, 0.5, NULL,
                                NULL, NULL};
        for (int impl = 0; impl < 2 && s >= 0; impl++) {
            fl_p4_step_result *r = fl_p4_step_result_alloc(3, 2);
            if (!r) return FL_ENOMEM;
            s = fl_p4_types[impl].step(&c->p, &v.vector, k ? &f.vector : NULL, &law, NULL, r, &scen_err);
            fl_p4_step_result_free(r);
        }
    }
    /* the splits, the distance to K_frict and the consistency check C1-C4 */
    double rd[3] = {0.3, 1.0, 0.8}, a[3], b[3], l[2], F[3], dist;
    gsl_vector_view rv = gsl_vector_view_array(rd, 3), av = gsl_vector_view_array(a, 3);
    gsl_vector_view bv = gsl_vector_view_array(b, 3), lv = gsl_vector_view_array(l, 2);
    gsl_vector_view Fv = gsl_vector_view_array(F, 3);
    gsl_vector_const_view v0 = gsl_vector_const_view_array(vd[0], 3);
    fl_p4_impact_law newton = {FL_P4_IMPACT_NEWTON, 0.5, NULL, NULL, NULL};
    if (s >= 0) s = fl_p4_split_velocity(&c->p, &rv.vector, &av.vector, &bv.vector, &scen_err);
    if (s >= 0) s = fl_p4_split_reaction(&c->p, &rv.vector, &lv.vector, &bv.vector, &scen_err);
    if (s >= 0) s = fl_p4_kfrict_distance(&c->p, &rv.vector, &dist, &scen_err);
    if (s >= 0) s = fl_p4_impact_eval(&c->p, &newton, &v0.vector, &Fv.vector, &scen_err);
    if (s >= 0) s = fl_p4_impact_check(&c->p, &v0.vector, &Fv.vector, 1e-9, NULL, &scen_err);
    return s;
}

/* Stewart's P5 (001 §6.2), both twins: a block sliding on a plane. */
static fl_status stewart_both(void *data)
{
    fl_stewart_problem *p = data;
    fl_status s = FL_OK;
    for (int impl = 0; impl < 2 && s >= 0; impl++) {
        fl_stewart_result *r = fl_stewart_result_alloc(p->n, p->nc, p->dim, NULL);
        if (!r) return FL_ENOMEM;
        s = fl_stewart_types[impl].step(p, NULL, r, &scen_err);
        fl_stewart_result_free(r);
    }
    return s;
}

/* Stability (004 §2-§5) on Example 3.15 (004 §3.5): partition, tangent
 * operators, the three searches of §5.4, the velocity jumps of §3.3. */
static fl_status stability_all(void *data)
{
    const double *mu = data;
    static const double k[4][4] = {{1, -1, 0, 0}, {-1, 2, 0, -1}, {0, 0, 1, 0}, {0, -1, 0, 1}};
    double Kd[16], Md[16] = {0}, ud[4] = {0, 0.7 / 3.0, 0, 0}, rd[4] = {0.7, 0, -*mu * 0.7, -0.7};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) Kd[4 * i + j] = 3.0 * k[i][j];
        Md[5 * i] = 2.0;
    }
    gsl_matrix_view K = gsl_matrix_view_array(Kd, 4, 4), M = gsl_matrix_view_array(Md, 4, 4);
    gsl_vector_view u = gsl_vector_view_array(ud, 4), r = gsl_vector_view_array(rd, 4);
    unsigned char pres[4] = {1, 0, 0, 0};
    size_t iT = 2, iN = 3;
    fl_stability_system sys = {.n = 4, .K = &K.matrix, .M = &M.matrix, .prescribed = pres, .np = 1,
                          .iT = &iT, .iN = &iN, .mu = *mu};
    fl_stability_label lab;
    fl_status s = fl_stability_partition(&sys, &u.vector, &r.vector, 1e-12, &lab, &scen_err);
    fl_stability_tangent *t = NULL;
    if (s >= 0) {
        s = fl_stability_tangent_alloc(&sys, &lab, &r.vector, &t, &scen_err);
        if (s < 0) cr_assert_null(t);
    }
    if (s >= 0) {
        fl_stability_result res;
        s = fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, &res, &scen_err);
        if (s >= 0) fl_stability_result_free(&res);
    }
    if (s >= 0) {
        double lre[8], lim[8];
        s = fl_stability_rayleigh(t->Kstar, t->Mstar, 0.01, 0.02, lre, lim, &scen_err);
    }
    if (s >= 0) {
        double vmin, vd[4];
        gsl_vector_view vv = gsl_vector_view_array(vd, t->nstar);
        s = fl_stability_cone_min(t->KS, t->csign, 12, &vmin, &vv.vector, NULL, &scen_err);
    }
    fl_stability_tangent_free(t);
    /* the jumps of 004 Prop. 3.2 from this equilibrium */
    double Ad[16], Rd[16];
    gsl_matrix_view As = gsl_matrix_view_array(Ad, 4, 4), Rs = gsl_matrix_view_array(Rd, 4, 4);
    size_t ns = 0;
    if (s >= 0) s = fl_stability_jumps(&sys, &u.vector, &r.vector, 1e-12, 4, &As.matrix, &Rs.matrix,
                                  &ns, &scen_err);
    return s;
}

/* The midpoint scheme of 002 (21) on a 2 x 2 FE block (002 §7), both
 * contact placements, both local solvers, dense and sparse twins. */
typedef struct midpoint_scenario {
    fl_sparse_ctx *ctx;
    fl_midpoint_block_params bp;   /* 002 §7's block (data/002), loaded once */
} midpoint_scenario;

static fl_status midpoint_all(void *data)
{
    midpoint_scenario *sc = data;
    fl_sparse_ctx *ctx = sc->ctx;
    fl_midpoint_block_params bp = sc->bp;
    bp.nx = 2;
    bp.ny = 2;
    bp.lx = bp.ly = 1.0;
    bp.top_uy = -0.01;
    fl_midpoint_block *b = NULL;
    fl_midpoint_block_sparse *bs = NULL;
    fl_status s = fl_midpoint_block_alloc(&bp, &b, &scen_err);
    if (s < 0) cr_assert_null(b);
    if (s >= 0) {
        s = fl_midpoint_block_alloc_sparse(ctx, &bp, 100000, &bs, &scen_err);
        if (s < 0) cr_assert_null(bs);
    }
    for (int mode = 0; mode < 4 && s >= 0; mode++) {
        fl_midpoint_options o = fl_midpoint_options_default();
        o.dt = 1e-3;
        o.contact = (fl_midpoint_contact)(mode % 2);
        o.solver = mode < 2 ? FL_MIDPOINT_LOCAL_GS : FL_MIDPOINT_LOCAL_ENUM;
        fl_midpoint *mr = NULL;
        fl_midpoint_sparse *ms = NULL;
        fl_midpoint_state *st = NULL;
        s = fl_midpoint_alloc(&b->prob, &o, &mr, &scen_err);
        if (s >= 0) s = fl_midpoint_alloc_sparse(&bs->prob, &o, &ms, &scen_err);
        if (s >= 0) s = fl_midpoint_state_alloc(b->prob.n, b->prob.nc, &st, &scen_err);
        if (s >= 0) s = fl_midpoint_static(&b->prob, st->u, &scen_err);
        for (int k = 0; k < 2 && s >= 0; k++) {
            fl_midpoint_result res;
            s = fl_midpoint_step(mr, st, &res, &scen_err);
            if (s >= 0) s = fl_midpoint_step_sparse(ms, st, &res, &scen_err);
        }
        fl_midpoint_free(mr);
        fl_midpoint_free_sparse(ms);
        fl_midpoint_state_free(st);
    }
    fl_midpoint_block_free_sparse(bs);
    fl_midpoint_block_free(b);
    return s;
}

/* A 6-dof chain (K = tridiag(-1, 2, -1) + 0.5 e_0 e_0^T, M = diag) with
 * one contact particle (T = dof 4, N = dof 5): stability (004 §5.4) and the
 * quasistatic increment (004 §5.3), dense and sparse twins. */
typedef struct chain {
    double K[36], M[36], r[6];
    size_t iT, iN;
    unsigned char pres[6];
    fl_sparse_ctx *ctx;
} chain;

static void chain_init(chain *c, fl_sparse_ctx *ctx)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 6; i++) {
        c->K[7 * i] = 2.0 + (i == 0 ? 0.5 : 0.0);
        if (i > 0) c->K[6 * i + i - 1] = c->K[6 * (i - 1) + i] = -1.0;
        c->M[7 * i] = 1.0 + 0.1 * i;
    }
    c->iT = 4;
    c->iN = 5;
    c->r[5] = -1.0;
    c->r[4] = 0.3;    /* |r_T| = mu |r_N| with mu = 0.3: slip */
    c->ctx = ctx;
}

static fl_status stability_sparse_all(void *data)
{
    chain *c = data;
    gsl_matrix_view Kd = gsl_matrix_view_array(c->K, 6, 6), Md = gsl_matrix_view_array(c->M, 6, 6);
    cholmod_sparse *K = NULL, *M = NULL;
    fl_status s = fl_sparse_from_dense(c->ctx, &Kd.matrix, 1, 0.0, &K, &scen_err);
    if (s >= 0) s = fl_sparse_from_dense(c->ctx, &Md.matrix, 0, 0.0, &M, &scen_err);
    fl_stability_system_sparse ss = {.n = 6, .K = K, .M = M, .prescribed = c->pres, .np = 1,
                                .iT = &c->iT, .iN = &c->iN, .mu = 0.3};
    fl_stability_label lab = FL_STAB_PS;
    fl_stability_tangent_sparse *t = NULL;
    if (s >= 0) {
        s = fl_stability_tangent_alloc_sparse(c->ctx, &ss, &lab, c->r, &t, &scen_err);
        if (s < 0) cr_assert_null(t);
    }
    if (s >= 0) {
        fl_stability_result res;
        s = fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = c->ctx, .sparse = t}, NULL, &res, &scen_err);
        if (s >= 0) fl_stability_result_free(&res);
    }
    if (s >= 0) {
        double lre[8], lim[8];
        size_t nr = 0;
        s = fl_stability_rayleigh_sparse(c->ctx, t, 0.01, 0.02, 4, 3000, lre, lim, &nr, &scen_err);
    }
    fl_stability_tangent_free_sparse(c->ctx, t);
    fl_sparse_free(c->ctx, &K);
    fl_sparse_free(c->ctx, &M);
    return s;
}

static fl_status quasistatic_both(void *data)
{
    chain *c = data;
    gsl_matrix_view Kd = gsl_matrix_view_array(c->K, 6, 6), Md = gsl_matrix_view_array(c->M, 6, 6);
    double fd[6] = {0.1, 0, 0, 0, 0.4, -1.0}, ukd[6] = {0}, gd[1] = {0.3}, ud[6] = {0}, rd[6];
    gsl_vector_view f = gsl_vector_view_array(fd, 6), uk = gsl_vector_view_array(ukd, 6);
    gsl_vector_view g = gsl_vector_view_array(gd, 1), u = gsl_vector_view_array(ud, 6);
    gsl_vector_view r = gsl_vector_view_array(rd, 6);
    fl_stability_system sd = {.n = 6, .K = &Kd.matrix, .M = &Md.matrix, .prescribed = c->pres,
                         .np = 1, .iT = &c->iT, .iN = &c->iN, .mu = 0.3};
    fl_quasistatic_result res;
    fl_status s = fl_quasistatic_step(&(fl_quasistatic_system){.dense = &sd}, &f.vector, &uk.vector, &g.vector, &u.vector, &r.vector, NULL,
                             &res, &scen_err);
    cholmod_sparse *K = NULL;
    if (s >= 0) s = fl_sparse_from_dense(c->ctx, &Kd.matrix, 0, 0.0, &K, &scen_err);
    if (s >= 0) {
        fl_stability_system_sparse ss = {.n = 6, .K = K, .M = NULL, .prescribed = c->pres, .np = 1,
                                    .iT = &c->iT, .iN = &c->iN, .mu = 0.3};
        gd[0] = 0.3;
        memset(ud, 0, sizeof ud);
        s = fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = c->ctx, .sparse = &ss}, &f.vector, &uk.vector, &g.vector, &u.vector,
                              &r.vector, NULL, &res, &scen_err);
    }
    fl_sparse_free(c->ctx, &K);
    return s;
}

/* Moreau-Jean steps (004 (18)-(21)) and a plurality cloud (003 §3), both
 * implementations, on a random global problem. */
typedef struct mj_case {
    fl_global_problem *g;
    fl_local_problem *p;
} mj_case;

static fl_status moreau_jean_both(void *data)
{
    mj_case *c = data;
    fl_status s = FL_OK;
    for (int impl = 0; impl < 2 && s >= 0; impl++) {
        gsl_vector *um = gsl_vector_calloc(c->g->n), *up = gsl_vector_calloc(c->g->n);
        gsl_vector *sv = gsl_vector_calloc(c->g->m);
        if (!um || !up || !sv) s = FL_ENOMEM;
        cholmod_factor *L = NULL;
        fl_moreau_jean_options o = fl_moreau_jean_options_default();
        o.impl = impl ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
        fl_moreau_jean_result res;
        if (s >= 0) {
            gsl_vector_set(um, 0, -1.0);
            s = fl_moreau_jean_step(c->g, um, &o, impl ? &L : NULL, sv, up, &res, &scen_err);
        }
        fl_sparse_free_factor(c->g->ctx, &L);
        gsl_vector_free(um);
        gsl_vector_free(up);
        gsl_vector_free(sv);
    }
    return s;
}

static fl_status plurality_both(void *data)
{
    mj_case *c = data;
    fl_status s = FL_OK;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (int k = 0; k < 4 && s >= 0; k++) {
        gsl_rng_set(rng, 7);
        fl_plurality_options o = fl_plurality_options_default();
        o.mode = k % 2 ? FL_PLURALITY_RANDOM_START : FL_PLURALITY_RANDOM_ORDER;
        o.impl = k < 2 ? FL_IMPL_REFERENCE : FL_IMPL_OPTIMIZED;
        o.runs = 4;
        o.nsgs.rng = rng;
        fl_cloud *cl = NULL;
        fl_plurality_result res;
        s = fl_plurality_explore(c->p, &o, &cl, &res, &scen_err);
        if (s < 0) cr_assert_null(cl);
        fl_cloud_free(cl);
    }
    gsl_rng_free(rng);
    return s;
}

/* Rigid discs (003 §4-§5): three discs on the ground between walls, one
 * pair overlapping, two steps of each implementation (detection, H, the
 * Delassus operator, Gauss-Seidel), warm started. */
static fl_status discs_both(void *data)
{
    (void)data;
    fl_status s = FL_OK;
    for (int impl = 0; impl < 2 && s >= 0; impl++) {
        fl_discs *d = NULL;
        s = fl_discs_alloc(3, &d, &scen_err);
        if (s < 0) {
            cr_assert_null(d);
            break;
        }
        fl_discs_set(d, 0, 0.0, 0.5, 0.5, 1.0);
        fl_discs_set(d, 1, 0.99, 0.5, 0.5, 1.0);
        fl_discs_set(d, 2, 0.5, 1.35, 0.5, 1.0);
        d->ground = 1;
        d->ground_y = 0.0;
        d->walls = 1;
        d->wall_left = -0.5;
        d->wall_right = 1.5;
        d->vx[2] = 0.3;
        d->vy[2] = -1.0;
        d->margin = 0.05;
        d->touch_tol = 1e-9;
        fl_discs_work w;
        s = fl_discs_work_init(&w, &scen_err);
        fl_discs_step_options o = fl_discs_step_options_default();
        o.h = 1e-3;
        o.impl = impl ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
        o.warm = 1;
        for (int k = 0; k < 2 && s >= 0; k++) {
            fl_discs_step_result res;
            s = fl_discs_step(d, &o, &w, &res, &scen_err);
        }
        fl_discs_work_clear(&w);
        fl_discs_free(d);
    }
    return s;
}

/* Friction sets from real-world Coulomb cones (001 §6.1): one constraint of
 * a planar body touching at two points (2D cones) and a 3D body at one
 * point (pyramid of the cone). */
static fl_status fset_build_all(void *data)
{
    (void)data;
    fl_status s = FL_OK;
    for (int three = 0; three <= 1 && s >= 0; three++) {
        size_t n = 3, d = three ? 3 : 2;
        double Md[9] = {2, 0, 0, 0, 2, 0, 0, 0, 0.5}, dp[3] = {0, 1, 0.3};
        double t1[9] = {1, 0, 0, 0, 1, 0, -0.5, 0.2, 1}, t2[9] = {1, 0, 0, 0, 1, 0, 0.5, -0.2, 1};
        gsl_matrix_view M = gsl_matrix_view_array(Md, n, n);
        gsl_vector_view dphi = gsl_vector_view_array(dp, n);
        gsl_matrix_view T1 = gsl_matrix_view_array(t1, n, d), T2 = gsl_matrix_view_array(t2, n, d);
        fl_fset_contact c[2] = {{&T1.matrix, {0, 1, 0}, 0.4}, {&T2.matrix, {0, 1, 0}, 0.3}};
        fl_fset_options o = fl_fset_options_default();
        o.facets = 6;
        fl_fset_result res;
        memset(&res, 0, sizeof res);
        s = fl_fset_build(&M.matrix, &dphi.vector, three ? 1 : 2, c, &o, &res, &scen_err);
        fl_fset_result_release(&res);
    }
    return s;
}

/* P1 finite elements (002 §3): a 2 x 2 cross-pattern mesh, the four
 * assembled matrices, the affine fields, a line of nodes, a VTK file. */
static fl_status fe2d_all(void *data)
{
    const char *vtk = data;
    fl_fe2d_mesh *mesh = NULL;
    fl_status s = fl_fe2d_mesh_rect(0, 0, 1, 1, 2, 2, FL_FE2D_CROSS, &mesh, &scen_err);
    if (s < 0) {
        cr_assert_null(mesh);
        return s;
    }
    fl_fe2d_material mat = {0.5, 1.0, 2.0, FL_FE2D_PLANE_STRESS};
    for (int which = 0; which < 4 && s >= 0; which++) {
        gsl_matrix *A = NULL;
        s = fl_fe2d_assemble_dense(mesh, &mat, (fl_fe2d_matrix)which, &A, &scen_err);
        if (s < 0) cr_assert_null(A);
        gsl_matrix_free(A);
        size_t nnz = 0;
        int *row = NULL, *col = NULL;
        double *val = NULL;
        if (s >= 0) s = fl_fe2d_assemble_triplets(mesh, &mat, (fl_fe2d_matrix)which, &nnz, &row,
                                                  &col, &val, &scen_err);
        free(row);
        free(col);
        free(val);
    }
    gsl_matrix *F = NULL;
    if (s >= 0) s = fl_fe2d_affine_fields(mesh, &F, &scen_err);
    gsl_matrix_free(F);
    size_t count = 0;
    int *idx = NULL;
    if (s >= 0) s = fl_fe2d_nodes_on_line(mesh, 1, 0.0, 1e-12, &count, &idx, &scen_err);
    free(idx);
    if (s >= 0) s = fl_fe2d_write_vtk(vtk, mesh, NULL, 1.0, NULL, NULL, &scen_err);
    fl_fe2d_mesh_free(mesh);
    return s;
}

/* LCP by enumeration of the 2^n complementary bases, and the smallest
 * principal minor (a P-matrix test), on a 3 x 3 example with two solutions
 * (M not a P-matrix). */
static fl_status lcp_all(void *data)
{
    (void)data;
    const double Md[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1}, qd[3] = {-1, -1, 0.5};
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    gsl_vector_const_view q = gsl_vector_const_view_array(qd, 3);
    fl_lcp_enum_options o = fl_lcp_enum_options_default();
    fl_lcp_solutions *sols = NULL;
    fl_lcp_enum_result res;
    fl_status s = fl_lcp_enumerate(&M.matrix, &q.vector, &o, &sols, &res, &scen_err);
    if (s < 0) cr_assert_null(sols);
    fl_lcp_solutions_free(sols);
    double minor;
    if (s >= 0) s = fl_lcp_min_principal_minor(&M.matrix, &minor, &scen_err);
    return s;
}

/* ---- tests -------------------------------------------------------------- */

Test(alloc_failure, readers)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fail_each_allocation("fl_json_load + members", json_read, NULL);
    fail_each_allocation("fl_mm_read", mm_read, &ctx);
    fl_sparse_finish(&ctx);
}

Test(alloc_failure, dense_kernels)
{
    fail_each_allocation("fl_spd_alloc + splits", spd_splits, NULL);
    fail_each_allocation("fl_lemke_solve", lemke, NULL);
    fail_each_allocation("fl_stability_gen_eig + sym_min", eigen, NULL);
    fail_each_allocation("fl_model_triangle_002", triangle, NULL);
    fail_each_allocation("fl_moreau_law", moreau, NULL);
    fail_each_allocation("LCP enumeration, principal minors", lcp_all, NULL);
}

Test(alloc_failure, contact_dynamics)
{
    gsl_rng *rng = fl_test_rng(5);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_random_local_problem(rng, FL_RANDOM_PLAIN, 3, dim, &ctx, &p), FL_OK);
        fail_each_allocation("fl_nsgs_solve + sparse", nsgs_both, p);
        if (dim == 2) fail_each_allocation("fl_enumerate_solutions", enumerate, p);
        fl_local_problem_free(p);
        global_case c = {NULL};
        cr_assert_eq(fl_global_problem_random(rng, 8, 2, dim, 0.1, 1.0, &c.g, NULL), FL_OK);
        c.g->ctx = &ctx;
        fail_each_allocation("fl_delassus_dense + sparse", delassus_all, &c);
        fl_global_problem_free(c.g);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

Test(alloc_failure, file_formats)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    reader_case c = {&ctx, ""};
    snprintf(c.out, sizeof c.out, "/tmp/fl_alloc_failure_%d.dat", (int)getpid());
    fail_each_allocation("siconos text read + write", siconos_text_all, &c);
    snprintf(c.out, sizeof c.out, "/tmp/fl_alloc_failure_%d.hdf5", (int)getpid());
    fail_each_allocation("fclib read + write", fclib_all, &c);
    snprintf(c.out, sizeof c.out, "/tmp/fl_alloc_failure_%d.json", (int)getpid());
    fail_each_allocation("results json + html + compare", results_all, &c);
    remove(c.out);
    fl_sparse_finish(&ctx);
}

Test(alloc_failure, p4_and_stewart)
{
    double Md[9] = {2, 0, 0, 0, 1, 0, 0, 0, 1.5};
    double Dd[6] = {0, 1, 0, 0, 0, 1};
    double E0[3] = {1, 0, 0}, E1[3] = {1, 0, 0};
    gsl_matrix_view M = gsl_matrix_view_array(Md, 3, 3), D = gsl_matrix_view_array(Dd, 2, 3);
    gsl_matrix_view Ea = gsl_matrix_view_array(E0, 1, 3), Eb = gsl_matrix_view_array(E1, 1, 3);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cholmod_sparse *Ms = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, &M.matrix, 1, 0.0, &Ms, NULL), FL_OK);
    fl_p4_friction C[2];
    memset(C, 0, sizeof C);
    cr_assert_eq(fl_friction_set_interval(&C[0].set, -0.3, 0.5, NULL), FL_OK);
    cr_assert_eq(fl_friction_set_interval(&C[1].set, -0.2, 0.2, NULL), FL_OK);
    C[0].E = &Ea.matrix;
    C[1].E = &Eb.matrix;
    p4_case pc = {{3, 2, &M.matrix, Ms, &ctx, &D.matrix, C}};
    fail_each_allocation("fl_p4_step + sparse", p4_both, &pc);
    fl_friction_set_release(&C[0].set);
    fl_friction_set_release(&C[1].set);

    /* Stewart: a sliding block, M = 2 I, gravity, mu = 0.3 */
    double M3[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, H3[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
    double v3[3] = {1, 0.5, 0}, f3[3] = {0, 0, -19.62}, mu = 0.3;
    gsl_matrix_view Mv = gsl_matrix_view_array(M3, 3, 3), Hv = gsl_matrix_view_array(H3, 3, 3);
    gsl_vector_view vv = gsl_vector_view_array(v3, 3), fv = gsl_vector_view_array(f3, 3);
    fl_stewart_problem sp = {3, 1, 3, &Mv.matrix, &Hv.matrix, NULL, NULL, NULL, &vv.vector,
                             &fv.vector, NULL, &mu, 0.01};
    fail_each_allocation("fl_stewart_step + sparse", stewart_both, &sp);
    fl_sparse_free(&ctx, &Ms);
    fl_sparse_finish(&ctx);
}

Test(alloc_failure, stability_and_midpoint)
{
    /* mu = 0.5: K*_S positive definite; mu = 3 > 2 sqrt 2: Cholesky fails */
    double mus[2] = {0.5, 3.0};
    for (int k = 0; k < 2; k++) fail_each_allocation("stability, Example 3.15", stability_all, &mus[k]);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_model_square_block m002;
    fl_error e002 = {0};
    cr_assert_eq(fl_model_square_block_load_data(NULL, &m002, &e002), FL_OK, "%s", e002.message);
    midpoint_scenario sc = {&ctx, m002.block};
    fail_each_allocation("midpoint, FE block, both twins", midpoint_all, &sc);
    fl_sparse_finish(&ctx);
}

Test(alloc_failure, sparse_stability_quasistatic_drivers)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    chain c;
    chain_init(&c, &ctx);
    fail_each_allocation("stability sparse, 6-dof chain", stability_sparse_all, &c);
    fail_each_allocation("quasistatic increment, both twins", quasistatic_both, &c);
    gsl_rng *rng = fl_test_rng(11);
    mj_case m = {NULL, NULL};
    cr_assert_eq(fl_global_problem_random(rng, 6, 2, 3, 0.1, 0.8, &m.g, NULL), FL_OK);
    m.g->ctx = &ctx;
    cr_assert_eq(fl_random_local_problem(rng, FL_RANDOM_PLAIN, 2, 3, &ctx, &m.p), FL_OK);
    fail_each_allocation("Moreau-Jean step, both implementations", moreau_jean_both, &m);
    fail_each_allocation("plurality clouds, both modes and implementations", plurality_both, &m);
    fl_local_problem_free(m.p);
    fl_global_problem_free(m.g);
    gsl_rng_free(rng);
    fl_sparse_finish(&ctx);
}

Test(alloc_failure, discs_and_friction_set_build)
{
    fail_each_allocation("discs, two steps of both implementations", discs_both, NULL);
    fail_each_allocation("friction sets from Coulomb cones", fset_build_all, NULL);
}

Test(alloc_failure, finite_elements)
{
    char vtk[64];
    snprintf(vtk, sizeof vtk, "/tmp/fl_alloc_failure_%d.vtk", (int)getpid());
    fail_each_allocation("P1 elements: mesh, assemblies, fields, VTK", fe2d_all, vtk);
    remove(vtk);
}

/* A crosscheck law on a silent context: with an allocation failing it
 * must report a FAIL or stop (-1), or, when the allocation was optional,
 * give the verdicts of the plain run; never crash. */
typedef struct law_case {
    int (*task)(fl_check_ctx *);
    long systems;
} law_case;

static fl_status law_crosscheck(void *data)
{
    const law_case *c = data;
    fl_check_ctx ctx = fl_check_ctx_default();
    ctx.systems = c->systems;
    int rc = c->task(&ctx);
    if (rc != 0) return FL_ENOMEM;
    return ctx.failed > 0 ? FL_EINVAL : FL_OK;
}

Test(alloc_failure, crosscheck_sets_and_newton)
{
    law_case sets = {fl_sets_crosscheck, 20}, newton = {fl_newton_crosscheck, 1};
    fail_each_allocation("crosscheck --law sets", law_crosscheck, &sets);
    fail_each_allocation("crosscheck --law newton", law_crosscheck, &newton);
}

/* Two systems: seeds of both parities, so dim 2 (enumeration, clouds) and
 * dim 3 are both drawn. */
Test(alloc_failure, crosscheck_nsgs)
{
    law_case nsgs = {fl_nsgs_crosscheck, 2};
    fail_each_allocation("crosscheck --law nsgs", law_crosscheck, &nsgs);
}

/* One system: the law's floor of three FE blocks (one per redistribution
 * kind) of 40 steps each, the Lemma 4.1 draws and the triangle branches,
 * thousands of allocations: every one of the first 200 fails in turn, then
 * every 151st (each block's setup and steps, the lemma and the triangles). */
Test(alloc_failure, crosscheck_midpoint)
{
    law_case midpoint = {fl_midpoint_crosscheck, 1};
    fail_allocations("crosscheck --law midpoint", law_crosscheck, &midpoint, 200, 151);
}

/* Five systems: one of each kind (frictionless, isotropic small and large,
 * interval, polygon), with the brute-force minimum on the collisions;
 * every allocation fails in turn over the first 50, then every 5th (the
 * full sweep takes 20 s). */
Test(alloc_failure, crosscheck_moreau)
{
    law_case moreau = {fl_moreau_crosscheck, 5};
    fail_allocations("crosscheck --law moreau", law_crosscheck, &moreau, 50, 5);
}

/* Three random states (partition, tangent, QZ, the sparse twin with ARPACK
 * and UMFPACK, damped roots). */
Test(alloc_failure, crosscheck_stability)
{
    law_case stability = {fl_stability_crosscheck, 3};
    fail_each_allocation("crosscheck --law stability", law_crosscheck, &stability);
}

/* Two systems: Lemke against closed forms and enumeration (three LCP
 * families), two random Stewart steps in both twins, the Painleve bar. */
Test(alloc_failure, crosscheck_stewart)
{
    law_case stewart = {fl_stewart_crosscheck, 2};
    fail_each_allocation("crosscheck --law stewart", law_crosscheck, &stewart);
}

/* Two systems: P'4 steps in both twins (an impact and a forced step), the
 * Newton consistency conditions, friction sets from cones and a
 * trajectory. */
Test(alloc_failure, crosscheck_p4)
{
    law_case p4 = {fl_p4_crosscheck, 2};
    fail_each_allocation("crosscheck --law p4", law_crosscheck, &p4);
}
