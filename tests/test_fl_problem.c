/* test_fl_problem.c — FCLIB local/global problem types (core/fl_problem.c):
 * allocation, checks, velocity with dense and sparse W, the Coulomb
 * violation measure on closed-form cases, the random generator, bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_problem.h"
#include "fl_rng.h"

Test(fl_problem, velocity_dense_and_sparse_agree)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    double Wv[16] = {2, 1, 0, 0, 1, 3, 0, 1, 0, 0, 4, 0, 0, 1, 0, 5};
    for (int i = 0; i < 16; i++) p->W->data[i] = Wv[i];
    for (int i = 0; i < 4; i++) gsl_vector_set(p->q, i, i + 1.0);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    cr_assert_eq(fl_local_problem_check(p, NULL), FL_OK);
    gsl_vector *r = gsl_vector_alloc(4), *U1 = gsl_vector_alloc(4), *U2 = gsl_vector_alloc(4);
    for (int i = 0; i < 4; i++) gsl_vector_set(r, i, 1.0);
    cr_assert_eq(fl_local_problem_velocity(p, r, U1, NULL), FL_OK);
    gsl_matrix *W = p->W;
    p->W = NULL;
    cr_assert_eq(fl_local_problem_velocity(p, r, U2, NULL), FL_OK);
    p->W = W;
    /* closed form: row sums of W plus q */
    double expect[4] = {3 + 1, 5 + 2, 4 + 3, 6 + 4};
    for (int i = 0; i < 4; i++) {
        cr_assert_float_eq(gsl_vector_get(U1, i), expect[i], 1e-15);
        cr_assert_float_eq(gsl_vector_get(U2, i), expect[i], 1e-15);
    }
    fl_error err;
    gsl_vector *bad = gsl_vector_alloc(3);
    cr_assert_eq(fl_local_problem_velocity(p, U1, bad, &err), FL_EDIM);
    gsl_vector_free(bad);
    gsl_vector_free(r);
    gsl_vector_free(U1);
    gsl_vector_free(U2);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
}

Test(fl_problem, coulomb_violation_closed_forms)
{
    double mu = 0.5;
    double r_ok[2] = {2, -1}, U_ok[2] = {0, 3};            /* slide, r_T = -mu r_N */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_ok, U_ok, 1, 1), 0.0, 1e-15);
    double r_st[3] = {2, 0.5, 0.1}, U_st[3] = {0, 0, 0};   /* stick inside */
    cr_assert_float_eq(fl_coulomb_violation(3, 1, &mu, r_st, U_st, 1, 1), 0.0, 1e-15);
    double r_bad[2] = {2, 0}, U_bad[2] = {0.5, 0};         /* r_N U_N > 0: min(2, 0.5) */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_bad, U_bad, 1, 1), 0.5, 1e-15);
    double r_out[2] = {1, 2}, U0[2] = {0, 0};              /* outside the cone by 1.5 */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_out, U0, 1, 1), 1.5, 1e-15);
    double r_neg[2] = {0, 0}, U_neg[2] = {-0.25, 0};        /* penetration */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_neg, U_neg, 1, 1), 0.25, 1e-15);
    double r_dir[2] = {2, 1}, U_dir[2] = {0, 3};           /* friction along U_T: |1 + 1| = 2, |U_T| = 3 */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_dir, U_dir, 1, 1), 2.0, 1e-15);
}

Test(fl_problem, random_global_and_bad_input)
{
    gsl_rng *r = fl_rng_alloc(3);
    fl_global_problem *g = NULL;
    fl_error err;
    cr_assert_eq(fl_global_problem_random(r, 8, 3, 2, 0.1, 1.0, &g, NULL), FL_OK);
    for (size_t a = 0; a < 3; a++) cr_assert(g->mu[a] >= 0.1 && g->mu[a] <= 1.0);
    cr_assert_eq(g->m, 6);
    fl_global_problem_free(g);
    cr_assert_eq(fl_global_problem_random(r, 8, 3, 2, 0.0, 1.0, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_random(NULL, 8, 3, 2, 0.1, 1.0, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_alloc(0, 3, 2, 1, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_alloc(3, 3, 5, 1, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_alloc(3, 3, 2, 1, NULL, &err), FL_EINVAL);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_local_problem_alloc(1, 2, 0, &p, &err), FL_OK);
    cr_assert_eq(fl_local_problem_check(p, &err), FL_EINVAL);       /* no W */
    p->W = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(p->W);
    cr_assert_eq(fl_local_problem_check(p, &err), FL_EDIM);
    gsl_matrix_free(p->W);
    p->W = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(p->W, 0, 0, NAN);
    cr_assert_eq(fl_local_problem_check(p, &err), FL_ENONFINITE);
    gsl_matrix_set(p->W, 0, 0, 1);
    p->mu[0] = INFINITY;
    cr_assert_eq(fl_local_problem_check(p, &err), FL_ENONFINITE);
    p->mu[0] = 0;
    p->m = 5;
    cr_assert_eq(fl_local_problem_check(p, &err), FL_EINVAL);
    p->m = 2;
    cr_assert_eq(fl_local_problem_check(NULL, &err), FL_EINVAL);
    gsl_matrix *W = p->W;
    p->W = NULL;
    gsl_vector *v = gsl_vector_alloc(2);
    cr_assert_eq(fl_local_problem_velocity(p, v, v, &err), FL_EINVAL);
    p->W = W;
    gsl_vector_free(v);
    fl_local_problem_free(p);
    gsl_rng_free(r);
}
