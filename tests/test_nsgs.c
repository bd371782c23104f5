/* test_nsgs.c — nonlinear Gauss–Seidel (reference/nsgs.c and its sparse
 * twin optimized/nsgs_sparse.c, optimized/delassus_sparse.c) through one
 * harness: local-solver closed forms, Coulomb conditions of every limit on
 * random systems, agreement of the two implementations, orderings, starts,
 * relaxation, callback, the dense/sparse Delassus operators, bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"

#include "testkit/fl_random.h"
#include "reference/enumerate.h"
#include "reference/local_contact.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "reference/lemke.h"
#include "optimized/delassus_sparse.h"
#include "optimized/nsgs_sparse.h"
#include "drivers/fl_types.h"

/* Random global problem from the shared generator: M SPD (cond <= 100),
 * H with full-rank rows (n >= m) so W is nonsingular, f Gaussian, mu from
 * fl_random_mu (proofs/README.md). */
static fl_global_problem *random_global(gsl_rng *r, size_t n, size_t nc, int dim,
                                        fl_sparse_ctx *ctx)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(n, nc, dim, 1, &g, NULL), FL_OK);
    cr_assert_eq(fl_random_spd(r, 100.0, 1.0, g->M), FL_OK);
    cr_assert_eq(fl_random_full_rank_rows(r, 10.0, g->H), FL_OK);
    fl_random_vector(r, 1.0, g->f);
    for (size_t a = 0; a < nc; a++) g->mu[a] = fl_random_mu(r);
    g->ctx = ctx;
    return g;
}

/* Local problem with both dense and sparse W (same numbers). */
static fl_local_problem *both_forms(fl_global_problem *g, fl_sparse_ctx *ctx)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
    p->ctx = ctx;
    cr_assert_eq(fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

static double coulomb_violation_of(const fl_local_problem *p, const gsl_vector *r,
                                   const gsl_vector *U)
{
    double us = fmax(gsl_blas_dnrm2(p->q), 1e-300), wmax = 0;
    for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
    return fl_coulomb_violation(p->dim, p->nc, p->mu, r->data, U->data, us / wmax, us);
}

Test(nsgs, local_2d_closed_forms)
{
    /* W = diag(2, 1), mu = 0.5 (003 §3–5 with W_NT = 0: exactly one case). */
    double W[4] = {2, 0, 0, 1}, r[2];
    double b_open[2] = {1.0, 3.0};
    r[0] = r[1] = 0;
    cr_assert_eq(fl_local_contact_solve(2, 0.5, W, b_open, r), 1);
    cr_assert(r[0] == 0 && r[1] == 0);
    /* b = (-2, 0.2): stick r = (1, -0.2), |r_T| = 0.2 <= 0.5 */
    double b_stick[2] = {-2.0, 0.2};
    r[0] = r[1] = 0;
    fl_local_contact_solve(2, 0.5, W, b_stick, r);
    cr_assert_float_eq(r[0], 1.0, 1e-15);
    cr_assert_float_eq(r[1], -0.2, 1e-15);
    /* b = (-2, 3): slide, r_N = 1, r_T = -0.5, U_T = 3 - 0.5 = 2.5 > 0 */
    double b_slide[2] = {-2.0, 3.0};
    fl_local_contact_solve(2, 0.5, W, b_slide, r);
    cr_assert_float_eq(r[0], 1.0, 1e-15);
    cr_assert_float_eq(r[1], -0.5, 1e-15);
}

Test(nsgs, local_3d_closed_forms)
{
    /* W = I, mu = 0.5, b = (-1, 3, 4): slide along U_T direction (0.6, 0.8):
     * r_N = 1, r_T = -0.5 (0.6, 0.8), U_T = (3 - 0.3, 4 - 0.4) parallel. */
    double W[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, r[3] = {0, 0, 0};
    double b[3] = {-1, 3, 4};
    cr_assert_geq(fl_local_contact_solve(3, 0.5, W, b, r), 1);
    cr_assert_float_eq(r[0], 1.0, 1e-12);
    cr_assert_float_eq(r[1], -0.3, 1e-12);
    cr_assert_float_eq(r[2], -0.4, 1e-12);
    double bs[3] = {-1, 0.1, 0.2};   /* stick: r = -b */
    fl_local_contact_solve(3, 0.5, W, bs, r);
    cr_assert_float_eq(r[0], 1.0, 1e-14);
    cr_assert_float_eq(r[1], -0.1, 1e-14);
    cr_assert_float_eq(r[2], -0.2, 1e-14);
    double bo[3] = {0.5, 1, 1};      /* open */
    fl_local_contact_solve(3, 0.5, W, bo, r);
    cr_assert(r[0] == 0 && r[1] == 0 && r[2] == 0);
}

/* Random single contacts: the local solution satisfies Coulomb's law
 * (independent check by the natural map). */
Test(nsgs, local_solution_satisfies_the_law)
{
    gsl_rng *rng = fl_test_rng(11);
    for (int t = 0; t < 2000; t++) {
        int dim = 2 + t % 2;
        gsl_matrix *W = gsl_matrix_alloc(dim, dim);
        cr_assert_eq(fl_random_spd(rng, 50.0, 1.0, W), FL_OK);
        double b[3], r[3] = {0, 0, 0}, U[3];
        for (int k = 0; k < dim; k++) b[k] = gsl_ran_gaussian(rng, 1.0);
        double mu = fl_random_mu(rng);
        fl_local_contact_solve(dim, mu, W->data, b, r);
        for (int i = 0; i < dim; i++) {
            U[i] = b[i];
            for (int j = 0; j < dim; j++) U[i] += gsl_matrix_get(W, i, j) * r[j];
        }
        double e = sqrt(fl_residual_contact_sq(dim, mu, r, U));
        double sc = 1 + fabs(b[0]) + fabs(b[1]) + fabs(b[dim - 1]);
        cr_assert_leq(e, 1e-8 * sc, "dim %d trial %d natural-map error %g (%s)", dim, t, e,
                      fl_test_seed_note());
        gsl_matrix_free(W);
    }
    gsl_rng_free(rng);
}

/* The property harness: 1000 random systems, both implementations. */
Test(nsgs, random_systems_both_implementations)
{
    gsl_rng *rng = fl_test_rng(2024);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    int nunique = 0, nagree = 0;
    for (int t = 0; t < 1000; t++) {
        int dim = 2 + t % 2;
        size_t nc = 1 + gsl_rng_uniform_int(rng, 4);
        size_t n = dim * nc + gsl_rng_uniform_int(rng, 4);
        fl_global_problem *g = random_global(rng, n, nc, dim, &ctx);
        fl_local_problem *p = both_forms(g, &ctx);
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1e-12;
        o.max_sweeps = 5000;
        gsl_vector *r[2], *U[2];
        fl_nsgs_result res[2];
        for (int k = 0; k < 2; k++) {
            r[k] = gsl_vector_alloc(p->m);
            U[k] = gsl_vector_alloc(p->m);
            fl_status s = fl_nsgs_types[k].solve(p, &o, r[k], U[k], &res[k], NULL);
            cr_assert(s == FL_OK || s == FL_WMAXITER, "%s status %d (%s)", fl_nsgs_types[k].name, s,
                      fl_test_seed_note());
            if (s == FL_OK) {
                double v = coulomb_violation_of(p, r[k], U[k]);
                cr_assert_leq(v, 1e-7, "%s system %d: Coulomb violation %g (%s)", fl_nsgs_types[k].name,
                              t, v, fl_test_seed_note());
            }
        }
        /* the twins share the law (checked above for each); they must give the
         * same answer where it is unique (2D, enumeration), not elsewhere:
         * the sparse twin's 3D local solve and stopping sweep differ */
        if (res[0].status == FL_OK) {
            gsl_vector_sub(r[1], r[0]);
            double d = gsl_blas_dnrm2(r[1]) / (1 + gsl_blas_dnrm2(r[0]));
            int unique = 0;
            if (dim == 2) {
                fl_enumerate_result *e = NULL;
                cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, NULL), FL_OK);
                unique = e->nsol == 1 && e->singular == 0;
                if (unique) {
                    /* the unique solution found by enumeration is the NSGS limit */
                    cr_assert_geq(fl_enumerate_find(e, r[0]->data, 1e-6), 0,
                                  "system %d: NSGS limit not the enumerated solution (%s)", t,
                                  fl_test_seed_note());
                }
                fl_enumerate_result_free(e);
            }
            if (unique) {
                nunique++;
                cr_assert_leq(d, 1e-6, "system %d unique: reference vs optimized %g (%s)", t, d,
                              fl_test_seed_note());
            }
            if (d <= 1e-6) nagree++;
        }
        for (int k = 0; k < 2; k++) {
            gsl_vector_free(r[k]);
            gsl_vector_free(U[k]);
        }
        fl_local_problem_free(p);
        fl_global_problem_free(g);
    }
    cr_assert_gt(nunique, 100, "too few unique systems sampled (%d)", nunique);
    cr_log_info("reference and optimized give the same answer on %d of 1000 systems", nagree);
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

static int count_calls(void *data, int sweep, double residual, const gsl_vector *r)
{
    (void)residual;
    (void)r;
    int *n = data;
    (*n)++;
    return sweep >= 3;   /* stop after 3 sweeps */
}

Test(nsgs, orderings_starts_relaxation_callback)
{
    gsl_rng *rng = fl_test_rng(7);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *g = random_global(rng, 12, 4, 3, &ctx);
    fl_local_problem *p = both_forms(g, &ctx);
    gsl_vector *r = gsl_vector_alloc(p->m), *r2 = gsl_vector_alloc(p->m);
    size_t given[4] = {3, 1, 0, 2};
    for (int k = 0; k < 2; k++) {
        fl_nsgs_options o = fl_nsgs_options_default();
        o.rng = rng;
        fl_nsgs_result res;
        o.order = FL_NSGS_ORDER_RANDOM;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_OK);
        o.order = FL_NSGS_ORDER_GIVEN;
        o.ordering = given;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_OK);
        o.start = FL_NSGS_START_RANDOM;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_OK);
        /* warm start from a solution: one sweep suffices */
        o.start = FL_NSGS_START_WARM;
        gsl_vector_memcpy(r2, r);
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r2, NULL, &res, NULL), FL_OK);
        cr_assert_eq(res.iterations, 1, "%s warm start took %d sweeps", fl_nsgs_types[k].name,
                     res.iterations);
        /* under-relaxation still converges */
        o.start = FL_NSGS_START_ZERO;
        o.omega = 0.7;
        o.order = FL_NSGS_ORDER_NATURAL;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_OK);
        o.omega = 1.2;
        fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL);
        cr_assert(res.status == FL_OK || res.status == FL_WMAXITER);
        /* callback stops the iteration */
        int calls = 0;
        o.omega = 1.0;
        o.tol = 1e-300;
        o.callback = count_calls;
        o.callback_data = &calls;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_WMAXITER);
        cr_assert_eq(calls, 3);
        cr_assert_eq(res.iterations, 3);
        o.callback = NULL;
        o.max_sweeps = 2;
        cr_assert_eq(fl_nsgs_types[k].solve(p, &o, r, NULL, &res, NULL), FL_WMAXITER);
    }
    gsl_vector_free(r);
    gsl_vector_free(r2);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

Test(nsgs, delassus_sparse_matches_dense_both_methods_and_reuse)
{
    gsl_rng *rng = fl_test_rng(3);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int t = 0; t < 20; t++) {
        fl_global_problem *g = random_global(rng, 10 + t % 5, 3, 2 + t % 2, &ctx);
        fl_local_problem *pd = NULL, *ps = NULL, *pt = NULL;
        cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &pd, NULL), FL_OK);
        cholmod_factor *L = NULL;
        cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &ps, NULL), FL_OK);
        fl_local_problem_free(ps);
        ps = NULL;
        /* second call reuses the factor */
        cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &ps, NULL), FL_OK);
        fl_error err;
        fl_status st = fl_delassus_sparse(g, &(fl_delassus_options){.sparse.method = FL_DELASSUS_TRAILING}, &L, &pt, &err);
        cr_assert_eq(st, FL_OK, "%s", err.message);
        gsl_matrix *Ws = NULL, *Wt = NULL;
        cr_assert_eq(fl_sparse_to_dense(&ctx, ps->Ws, &Ws, NULL), FL_OK);
        cr_assert_eq(fl_sparse_to_dense(&ctx, pt->Ws, &Wt, NULL), FL_OK);
        double scale = gsl_matrix_max(pd->W);
        for (size_t i = 0; i < pd->m; i++) {
            cr_assert(fl_close(gsl_vector_get(ps->q, i), gsl_vector_get(pd->q, i), 1e-10, 1e-10));
            cr_assert(fl_close(gsl_vector_get(pt->q, i), gsl_vector_get(pd->q, i), 1e-10, 1e-10));
            for (size_t j = 0; j < pd->m; j++) {
                cr_assert(fl_close(gsl_matrix_get(Ws, i, j), gsl_matrix_get(pd->W, i, j),
                                   1e-11 * scale, 0), "solves W(%zu,%zu) (%s)", i, j,
                          fl_test_seed_note());
                cr_assert(fl_close(gsl_matrix_get(Wt, i, j), gsl_matrix_get(pd->W, i, j),
                                   1e-7 * scale, 0), "trailing W(%zu,%zu) %g vs %g (%s)", i, j,
                          gsl_matrix_get(Wt, i, j), gsl_matrix_get(pd->W, i, j),
                          fl_test_seed_note());
            }
        }
        gsl_matrix_free(Ws);
        gsl_matrix_free(Wt);
        fl_sparse_free_factor(&ctx, &L);
        fl_local_problem_free(pd);
        fl_local_problem_free(ps);
        fl_local_problem_free(pt);
        fl_global_problem_free(g);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

Test(nsgs, bad_input)
{
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_local_problem_alloc(2, 4, 1, &p, &err), FL_EINVAL);
    cr_assert_eq(fl_local_problem_alloc(0, 2, 1, &p, &err), FL_OK);   /* no contact: valid */
    fl_local_problem_free(p);
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, &err), FL_OK);
    gsl_matrix_set_identity(p->W);
    p->mu[0] = p->mu[1] = 0.3;
    gsl_vector *r = gsl_vector_alloc(4), *r3 = gsl_vector_alloc(3);
    fl_nsgs_options o = fl_nsgs_options_default();
    cr_assert_eq(fl_nsgs_solve(p, &o, r3, NULL, NULL, &err), FL_EDIM);
    o.tol = -1;
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    o = fl_nsgs_options_default();
    o.omega = 2.5;
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    o = fl_nsgs_options_default();
    o.order = FL_NSGS_ORDER_RANDOM;   /* no rng */
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    o = fl_nsgs_options_default();
    size_t badperm[2] = {0, 0};
    o.order = FL_NSGS_ORDER_GIVEN;
    o.ordering = badperm;
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    o.ordering = NULL;
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    o = fl_nsgs_options_default();
    o.max_sweeps = 0;
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    o = fl_nsgs_options_default();
    o.start = FL_NSGS_START_WARM;
    gsl_vector_set(r, 0, NAN);
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_ENONFINITE);
    o = fl_nsgs_options_default();
    p->mu[1] = -1;
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_EINVAL);
    p->mu[1] = 0.3;
    gsl_vector_set(p->q, 0, INFINITY);
    cr_assert_eq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_ENONFINITE);
    gsl_vector_set(p->q, 0, 0);
    gsl_matrix_set(p->W, 0, 1, 5.0);   /* not symmetric: Gauss-Seidel reads rows, accepts it */
    cr_assert_geq(fl_nsgs_solve(p, &o, r, NULL, NULL, &err), FL_OK, "%s", err.message);
    gsl_matrix_set(p->W, 0, 1, 0.0);
    cr_assert_eq(fl_nsgs_solve_sparse(p, &o, r, NULL, NULL, &err), FL_EINVAL); /* no Ws */
    fl_local_problem_free(p);
    fl_local_problem_free(NULL);
    /* Delassus: M not SPD */
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(3, 1, 2, 1, &g, &err), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set(g->M, 2, 2, -1.0);
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_ENOTSPD);
    gsl_matrix_set(g->M, 2, 2, 1.0);
    g->mu[0] = NAN;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_EINVAL);
    cholmod_factor *L = NULL;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &p, &err), FL_EINVAL); /* no ctx */
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    g->ctx = &ctx;
    g->mu[0] = 0.5;
    cr_assert_eq(fl_delassus_sparse(g, &(fl_delassus_options){.sparse.method = (fl_delassus_method)5}, &L, &p, &err), FL_EINVAL);
    cr_assert_eq(fl_delassus_sparse(g, NULL, NULL, &p, &err), FL_OK, "%s", err.message); /* private factor */
    fl_local_problem_free(p);
    p = NULL;
    gsl_matrix *M = g->M;
    g->M = NULL;                                   /* neither dense nor sparse M */
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &p, &err), FL_EINVAL);
    g->M = M;
    gsl_matrix_set(g->M, 2, 2, -1.0);              /* CHOLMOD: not positive definite */
    cr_assert_lt(fl_delassus_sparse(g, NULL, &L, &p, &err), 0);
    fl_sparse_free_factor(&ctx, &L);
    cr_assert_lt(fl_delassus_sparse(g, &(fl_delassus_options){.sparse.method = FL_DELASSUS_TRAILING}, &L, &p, &err), 0);
    fl_sparse_free_factor(&ctx, &L);
    gsl_matrix_set(g->M, 2, 2, 1.0);
    gsl_vector_set(g->f, 0, NAN);
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &p, &err), FL_ENONFINITE);
    gsl_vector_set(g->f, 0, 0.0);
    g->mu[0] = -1;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &p, &err), FL_EINVAL);
    g->mu[0] = 0.5;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, NULL, &err), FL_EINVAL);
    /* a valid sparse problem: U of the wrong length */
    gsl_matrix_set(g->H, 0, 0, 1.0);
    gsl_matrix_set(g->H, 1, 1, 1.0);
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &p, &err), FL_OK);
    gsl_vector *r2 = gsl_vector_alloc(2), *U3 = gsl_vector_alloc(3);
    fl_nsgs_options o2 = fl_nsgs_options_default();
    cr_assert_eq(fl_nsgs_solve_sparse(p, &o2, r2, U3, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_nsgs_solve_sparse(p, &o2, r2, NULL, NULL, &err), FL_OK);
    cr_assert_eq(fl_nsgs_solve(p, &o2, r2, NULL, NULL, &err), FL_EINVAL);  /* no dense W */
    gsl_vector_free(r2);
    gsl_vector_free(U3);
    fl_local_problem_free(p);
    fl_sparse_free_factor(&ctx, &L);
    g->ctx = NULL;
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
    fl_global_problem_free(NULL);
    gsl_vector_free(r);
    gsl_vector_free(r3);
}

/* Degenerate block (W_aa = 0, approaching b_N < 0): no exact case exists, the
 * solver reports 0 cases and returns the projected fixed point, in K. */
Test(nsgs, local_solver_reports_no_exact_case)
{
    double W2[4] = {0, 0, 0, 0}, b2[2] = {-1, 0}, r2[2] = {0, 0};
    cr_assert_eq(fl_local_contact_solve(2, 0.5, W2, b2, r2), 0);
    cr_assert(isfinite(r2[0]) && r2[0] >= 0 && fabs(r2[1]) <= 0.5 * r2[0] + 1e-15);
    double W3[9] = {0}, b3[3] = {-1, 0, 0}, r3[3] = {0, 0, 0};
    cr_assert_eq(fl_local_contact_solve(3, 0.5, W3, b3, r3), 0);
    cr_assert(isfinite(r3[0]) && r3[0] >= 0 && hypot(r3[1], r3[2]) <= 0.5 * r3[0] + 1e-15);
}

/* ---- relaxation, and harder random systems checked by code that shares
 * nothing with either twin -------------------------------------------------- */

/* One contact: the local solve is exact, so one relaxed sweep from r = 0 is
 * r = P_K((1 - omega) 0 + omega r*) = omega r* (K is a cone).  W = diag(2, 1),
 * q = (-2, 0.2), mu = 0.5: stick, r* = (1, -0.2) (closed form, U = W r* + q = 0);
 * 3D: W = I, q = (-1, 0.1, 0.2), mu = 1: stick, r* = (1, -0.1, -0.2). */
Test(nsgs, relaxation_scales_the_first_sweep_by_omega)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_local_problem_alloc(1, dim, 1, &p, NULL), FL_OK);
        double rstar[3];
        if (dim == 2) {
            gsl_matrix_set(p->W, 0, 0, 2.0);
            gsl_matrix_set(p->W, 1, 1, 1.0);
            gsl_vector_set(p->q, 0, -2.0);
            gsl_vector_set(p->q, 1, 0.2);
            p->mu[0] = 0.5;
            rstar[0] = 1.0; rstar[1] = -0.2;
        } else {
            gsl_matrix_set_identity(p->W);
            gsl_vector_set(p->q, 0, -1.0);
            gsl_vector_set(p->q, 1, 0.1);
            gsl_vector_set(p->q, 2, 0.2);
            p->mu[0] = 1.0;
            rstar[0] = 1.0; rstar[1] = -0.1; rstar[2] = -0.2;
        }
        p->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
        const double omegas[3] = {0.5, 1.0, 1.5};
        for (int k = 0; k < 2; k++)
            for (int o = 0; o < 3; o++) {
                fl_nsgs_options opt = fl_nsgs_options_default();
                opt.omega = omegas[o];
                opt.max_sweeps = 1;
                opt.tol = 1e-300;
                gsl_vector *r = gsl_vector_alloc(p->m);
                fl_nsgs_result res;
                fl_status s = fl_nsgs_types[k].solve(p, &opt, r, NULL, &res, NULL);
                cr_assert(s == FL_OK || s == FL_WMAXITER, "%s dim %d omega %g: %d",
                          fl_nsgs_types[k].name, dim, omegas[o], s);
                for (int i = 0; i < dim; i++)
                    cr_assert_float_eq(gsl_vector_get(r, i), omegas[o] * rstar[i], 1e-14,
                                       "%s dim %d omega %g: r[%d] = %.17g, want %.17g",
                                       fl_nsgs_types[k].name, dim, omegas[o], i, gsl_vector_get(r, i),
                                       omegas[o] * rstar[i]);
                gsl_vector_free(r);
            }
        fl_local_problem_free(p);
    }
    fl_sparse_finish(&ctx);
}

/* Coulomb's law contact by contact, written from its definition (003 §3:
 * r in K_mu, U_N >= 0, r_N U_N = 0; r inside K: U_T = 0; r on the boundary
 * with r_N > 0: U_N = 0 and U_T = -lambda r_T, lambda >= 0) with no call
 * into the library: the largest violation, relative to the scales rs of r
 * and us of U. */
static double coulomb_by_definition(const fl_local_problem *p, const gsl_vector *r,
                                    double *Uout)
{
    size_t m = p->m;
    int dim = p->dim;
    double rs = 1e-300, us = 1e-300, worst = 0;
    for (size_t i = 0; i < m; i++) {
        double u = gsl_vector_get(p->q, i);
        for (size_t j = 0; j < m; j++) u += gsl_matrix_get(p->W, i, j) * gsl_vector_get(r, j);
        Uout[i] = u;
        rs = fmax(rs, fabs(gsl_vector_get(r, i)));
        us = fmax(us, fabs(gsl_vector_get(p->q, i)));
    }
    for (size_t a = 0; a < p->nc; a++) {
        const double *ra = r->data + dim * a, *Ua = Uout + dim * a;
        double rn = ra[0], un = Ua[0], mu = p->mu[a];
        double rt = dim == 2 ? fabs(ra[1]) : sqrt(ra[1] * ra[1] + ra[2] * ra[2]);
        double ut = dim == 2 ? fabs(Ua[1]) : sqrt(Ua[1] * Ua[1] + Ua[2] * Ua[2]);
        worst = fmax(worst, -rn / rs);                        /* r_N >= 0 */
        worst = fmax(worst, (rt - mu * rn) / rs);             /* |r_T| <= mu r_N */
        worst = fmax(worst, -un / us);                        /* U_N >= 0 */
        worst = fmax(worst, fmin(fabs(rn) / rs, fabs(un) / us));   /* r_N U_N = 0 */
        if (rt < mu * rn - 1e-7 * rs) {
            worst = fmax(worst, ut / us);                     /* stick: U_T = 0 */
        } else if (rn > 1e-7 * rs && rt > 1e-7 * rs) {
            /* slide: U_T + (|U_T| / |r_T|) r_T = 0 (U_T opposite to r_T);
             * mu r_N = |r_T| = 0 (mu = 0) leaves U_T free */
            double e = 0;
            for (int k = 1; k < dim; k++) {
                double d = Ua[k] + (rt > 0 ? ut / rt : 0.0) * ra[k];
                e += d * d;
            }
            worst = fmax(worst, sqrt(e) / us);
        }
    }
    return worst;
}

/* Large (1000 contacts), badly conditioned (1e8), mu = 0, grazing and
 * rank-deficient systems (testkit/fl_random.h), both twins, checked by
 * coulomb_by_definition; mu = 0 also against Lemke's method on the normal
 * LCP (W_NN r_N + q_N >= 0, r_N >= 0, complementary; W_NN positive definite
 * here, so the solution is unique and r_T = 0). */
Test(nsgs, hard_random_systems_obey_coulomb_by_definition)
{
    gsl_rng *rng = fl_test_rng(1919);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    const fl_random_kind kinds[] = {FL_RANDOM_LARGE, FL_RANDOM_ILL_CONDITIONED,
                                    FL_RANDOM_FRICTIONLESS, FL_RANDOM_GRAZING,
                                    FL_RANDOM_RANK_DEFICIENT};
    for (size_t kk = 0; kk < sizeof kinds / sizeof *kinds; kk++) {
        fl_random_kind kind = kinds[kk];
        int trials = kind == FL_RANDOM_LARGE ? 2 : 20, converged = 0;
        for (int t = 0; t < trials; t++) {
            int dim = 2 + t % 2;
            size_t nc = kind == FL_RANDOM_LARGE ? 1000 : 1 + gsl_rng_uniform_int(rng, 5);
            fl_local_problem *p = NULL;
            cr_assert_eq(fl_random_local_problem(rng, kind, nc, dim, &ctx, &p), FL_OK);
            gsl_vector *r[2];
            for (int k = 0; k < 2; k++) {
                fl_nsgs_options o = fl_nsgs_options_default();
                o.tol = 1e-12;
                o.max_sweeps = kind == FL_RANDOM_LARGE ? 500 : 5000;
                r[k] = gsl_vector_calloc(p->m);
                double *U = malloc(p->m * sizeof *U);
                fl_nsgs_result res;
                fl_status s = fl_nsgs_types[k].solve(p, &o, r[k], NULL, &res, NULL);
                cr_assert(s == FL_OK || s == FL_WMAXITER, "%s %s system %d: status %d (%s)",
                          fl_random_kind_name(kind), fl_nsgs_types[k].name, t, s, fl_test_seed_note());
                if (s == FL_OK) {
                    converged++;
                    double v = coulomb_by_definition(p, r[k], U);
                    cr_assert_leq(v, 1e-6, "%s %s system %d (nc %zu, dim %d): Coulomb "
                                  "violation %g (%s)", fl_random_kind_name(kind),
                                  fl_nsgs_types[k].name, t, nc, dim, v, fl_test_seed_note());
                }
                free(U);
            }
            if (kind == FL_RANDOM_FRICTIONLESS) {
                /* Lemke on the normal rows */
                gsl_matrix *WN = gsl_matrix_alloc(nc, nc);
                gsl_vector *qN = gsl_vector_alloc(nc), *z = gsl_vector_alloc(nc);
                for (size_t a = 0; a < nc; a++) {
                    gsl_vector_set(qN, a, gsl_vector_get(p->q, dim * a));
                    for (size_t b = 0; b < nc; b++)
                        gsl_matrix_set(WN, a, b, gsl_matrix_get(p->W, dim * a, dim * b));
                }
                fl_lemke_options lo = fl_lemke_options_default();
                cr_assert_eq(fl_lemke_solve(WN, qN, z, NULL, &lo, NULL, NULL), FL_OK);
                for (int k = 0; k < 2; k++)
                    for (size_t a = 0; a < nc; a++) {
                        double zs = 1 + gsl_blas_dnrm2(z);
                        cr_assert_leq(fabs(gsl_vector_get(r[k], dim * a) - gsl_vector_get(z, a)),
                                      1e-8 * zs, "%s mu = 0 system %d: r_N[%zu] = %g, Lemke %g",
                                      fl_nsgs_types[k].name, t, a, gsl_vector_get(r[k], dim * a),
                                      gsl_vector_get(z, a));
                        for (int i = 1; i < dim; i++)
                            cr_assert_eq(gsl_vector_get(r[k], dim * a + i), 0.0);
                    }
                gsl_matrix_free(WN);
                gsl_vector_free(qN);
                gsl_vector_free(z);
            }
            for (int k = 0; k < 2; k++) gsl_vector_free(r[k]);
            fl_local_problem_free(p);
        }
        fprintf(stderr, "%s: %d of %d solves converged\n", fl_random_kind_name(kind), converged,
                2 * trials);
        /* every well-posed kind converges; rank-deficient and 1e8-conditioned
         * systems may stall, but most must not */
        int need = kind == FL_RANDOM_RANK_DEFICIENT || kind == FL_RANDOM_ILL_CONDITIONED
                       ? trials : 2 * trials;
        cr_assert_geq(converged, need, "%s: only %d of %d solves converged (%s)",
                      fl_random_kind_name(kind), converged, 2 * trials, fl_test_seed_note());
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

/* 003 §3: W = H M^-1 H^T, q = H M^-1 f + w, by hand with w != 0 (the random
 * systems above all have w = 0):  M = diag(2, 4), H = [1 1; 0 1], f = (2, 4),
 * w = (0.5, -0.25):  M^-1 f = (1, 1), W = [0.75 0.25; 0.25 0.25],
 * q = (2, 1) + w = (2.5, 0.75). */
Test(nsgs, delassus_closed_form_with_w)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set(g->M, 0, 0, 2.0);
    gsl_matrix_set(g->M, 1, 1, 4.0);
    gsl_matrix_set(g->H, 0, 0, 1.0);
    gsl_matrix_set(g->H, 0, 1, 1.0);
    gsl_matrix_set(g->H, 1, 1, 1.0);
    gsl_vector_set(g->f, 0, 2.0);
    gsl_vector_set(g->f, 1, 4.0);
    gsl_vector_set(g->w, 0, 0.5);
    gsl_vector_set(g->w, 1, -0.25);
    g->mu[0] = 0.5;
    g->ctx = &ctx;
    const double W[2][2] = {{0.75, 0.25}, {0.25, 0.25}}, q[2] = {2.5, 0.75};
    for (int k = 0; k < 3; k++) {
        fl_local_problem *p = NULL;
        cholmod_factor *L = NULL;
        fl_error err;
        gsl_matrix *Wd = NULL;
        if (k == 0) {
            cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_OK, "%s", err.message);
        } else {
            cr_assert_eq(fl_delassus_sparse(g, &(fl_delassus_options){.sparse.method = k == 1 ? FL_DELASSUS_SOLVES : FL_DELASSUS_TRAILING},
                                            &L, &p, &err), FL_OK, "%s", err.message);
            cr_assert_eq(fl_sparse_to_dense(&ctx, p->Ws, &Wd, NULL), FL_OK);
        }
        const gsl_matrix *Wk = k == 0 ? p->W : Wd;
        for (int i = 0; i < 2; i++) {
            cr_assert_float_eq(gsl_vector_get(p->q, i), q[i], 1e-14, "method %d q[%d] = %.17g", k,
                               i, gsl_vector_get(p->q, i));
            for (int j = 0; j < 2; j++)
                cr_assert_float_eq(gsl_matrix_get(Wk, i, j), W[i][j], 1e-12,
                                   "method %d W(%d,%d) = %.17g", k, i, j, gsl_matrix_get(Wk, i, j));
        }
        cr_assert_eq(p->mu[0], 0.5);
        gsl_matrix_free(Wd);
        fl_sparse_free_factor(&ctx, &L);
        fl_local_problem_free(p);
    }
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
}
