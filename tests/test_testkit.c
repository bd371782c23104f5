/* test_testkit.c — the random-system generators of testkit/ on the
 * options the property tests do not use: FL_SEED from the environment, the
 * kind names, a one-node sparse SPD matrix (no coupling: the identity), a
 * log-uniform SPD matrix without its smallest eigenvalue asked for (its
 * spectrum checked by GSL's symmetric eigensolver), a friction coefficient
 * range collapsed to its floor, a metric of condition 1 (a multiple of the
 * identity), unknown set variants refused, and the FE-block problem of the
 * crosscheck families built without a context and refused when too small. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_eigen.h>

#include "fl_random.h"
#include "fl_set_random.h"
#include "fclib_feblock.h"

Test(cov_io_testkit, seed_from_the_environment)
{
    cr_assert_eq(setenv("FL_SEED", "77", 1), 0);
    gsl_rng *r = fl_test_rng(5);
    cr_assert_eq(fl_test_seed(), 77);
    cr_assert(strstr(fl_test_seed_note(), "FL_SEED=77"), "%s", fl_test_seed_note());
    gsl_rng_free(r);
    cr_assert_eq(setenv("FL_SEED", "", 1), 0);
    r = fl_test_rng(5);
    cr_assert_eq(fl_test_seed(), 5);
    gsl_rng_free(r);
    unsetenv("FL_SEED");
}

Test(cov_io_testkit, kind_names)
{
    static const char *const names[] = {"plain", "large", "ill-conditioned", "frictionless",
                                        "grazing", "rank-deficient"};
    for (int k = 0; k < 6; k++)
        cr_assert_str_eq(fl_random_kind_name((fl_random_kind)k), names[k]);
    cr_assert_not_null(fl_random_kind_name((fl_random_kind)42));
}

Test(cov_io_testkit, matrices_of_the_edge_options)
{
    gsl_rng *r = fl_test_rng(3);
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    /* one node, no edge: the shift alone, [1] */
    cholmod_sparse *A = fl_random_sparse_spd(r, &ctx, 1, 4, 100.0);
    cr_assert_not_null(A);
    cr_assert(A->nrow == 1 && A->ncol == 1);
    cr_assert_eq(((double *)A->x)[0], 1.0);
    fl_sparse_free(&ctx, &A);
    fl_sparse_finish(&ctx);
    /* log-uniform eigenvalues in [2, 8]: symmetric, spectrum inside */
    gsl_matrix *M = gsl_matrix_alloc(5, 5), *E = gsl_matrix_alloc(5, 5);
    cr_assert_eq(fl_random_spd_loguniform(r, 2.0, 8.0, M, NULL), FL_OK);
    gsl_matrix_memcpy(E, M);
    gsl_vector *ev = gsl_vector_alloc(5);
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(5);
    cr_assert_eq(gsl_eigen_symm(E, ev, w), 0);
    for (size_t i = 0; i < 5; i++) {
        cr_assert(gsl_vector_get(ev, i) >= 2.0 - 1e-12 && gsl_vector_get(ev, i) <= 8.0 + 1e-12,
                  "eigenvalue %g (%s)", gsl_vector_get(ev, i), fl_test_seed_note());
        for (size_t j = 0; j < 5; j++) cr_assert_eq(gsl_matrix_get(M, i, j), gsl_matrix_get(M, j, i));
    }
    gsl_eigen_symm_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(M);
    gsl_matrix_free(E);
    /* mu_max below the floor 0.05: F = 0.05 */
    fl_random_block_options o = fl_random_block_options_default();
    o.mu_max = 0.01;
    fl_midpoint_block_params bp = fl_random_midpoint_block(r, &o, FL_REDIST_NONE);
    cr_assert_float_eq(bp.mu, 0.05, 1e-15);
    /* a metric of condition 1: Q diag(s, s) Q^T = s I */
    double G[4];
    fl_set_random_metric(r, 2, 0.5, G);
    cr_assert_float_eq(G[1], 0.0, 1e-12 * G[0]);
    cr_assert_float_eq(G[2], 0.0, 1e-12 * G[0]);
    cr_assert_float_eq(G[3], G[0], 1e-12 * G[0]);
    gsl_rng_free(r);
}

Test(cov_io_testkit, refusals_and_the_context_free_feblock)
{
    gsl_rng *r = fl_test_rng(4);
    fl_friction_set C;
    fl_error err;
    C.kind = FL_SET_DISC;
    C.mu = 7;
    cr_assert_eq(fl_set_random_variant(r, -1, &C, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown variant -1"), "%s", err.message);
    cr_assert_eq(C.mu, 0.0, "C is cleared");
    cr_assert_eq(fl_set_random_variant(r, FL_SETRAND_NVARIANTS, &C, &err), FL_EINVAL);
    cr_assert_eq(fl_set_random_variant(NULL, 0, &C, &err), FL_EINVAL);
    cr_assert_eq(fl_set_random_variant(r, 0, NULL, &err), FL_EINVAL);
    cr_assert_null(fl_feblock_problem(NULL, 1, 0.3));
    cr_assert_null(fl_feblock_problem(NULL, 4, NAN));
    /* without a context: the dense W only, symmetric, mu as asked */
    fl_local_problem *p = fl_feblock_problem(NULL, 4, 0.3);
    cr_assert_not_null(p);
    cr_assert(p->nc == 4 && p->dim == 2 && p->W && !p->Ws);
    for (size_t i = 0; i < p->m; i++)
        for (size_t j = 0; j < i; j++)
            cr_assert_eq(gsl_matrix_get(p->W, i, j), gsl_matrix_get(p->W, j, i));
    cr_assert_eq(p->mu[3], 0.3);
    fl_local_problem_free(p);
    gsl_rng_free(r);
}
