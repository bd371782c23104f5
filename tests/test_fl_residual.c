/* test_fl_residual.c — the Siconos/FCLIB natural-map error (core/fl_residual.c):
 * cone projection closed forms and properties, zero error exactly at
 * solutions, the four normalisations (closed forms), bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <gsl/gsl_randist.h>

#include "testkit/fl_random.h"
#include "fl_residual.h"

Test(fl_residual, cone_projection_closed_forms)
{
    double p[3];
    double in[2] = {2.0, 0.5};
    fl_coulomb_cone_project(2, 0.5, in, p);            /* inside: unchanged */
    cr_assert(p[0] == 2.0 && p[1] == 0.5);
    double polar[2] = {-2.0, 0.5};
    fl_coulomb_cone_project(2, 0.5, polar, p);         /* polar cone: 0 */
    cr_assert(p[0] == 0.0 && p[1] == 0.0);
    /* (0, 1), mu = 1: t = (0 + 1)/2, p = (0.5, 0.5) */
    double side[2] = {0.0, 1.0};
    fl_coulomb_cone_project(2, 1.0, side, p);
    cr_assert_float_eq(p[0], 0.5, 1e-15);
    cr_assert_float_eq(p[1], 0.5, 1e-15);
    double s3[3] = {0.0, 3.0, 4.0};                    /* |x_T| = 5, mu = 1 */
    fl_coulomb_cone_project(3, 1.0, s3, p);
    cr_assert_float_eq(p[0], 2.5, 1e-15);
    cr_assert_float_eq(p[1], 1.5, 1e-15);
    cr_assert_float_eq(p[2], 2.0, 1e-15);
    double neg[2] = {-1.0, 0.0};                       /* mu = 0: K is the ray R+ e_N */
    fl_coulomb_cone_project(2, 0.0, neg, p);
    cr_assert(p[0] == 0.0 && p[1] == 0.0);
}

/* Projection properties on random points: p in K, (x - p).p = 0,
 * (x - p) in the polar cone (Moreau's decomposition). */
Test(fl_residual, cone_projection_is_moreau_decomposition)
{
    gsl_rng *r = fl_test_rng(5);
    for (int t = 0; t < 5000; t++) {
        int dim = 2 + t % 2;
        double mu = fl_random_mu(r), x[3], p[3], q[3];
        for (int k = 0; k < dim; k++) x[k] = gsl_ran_gaussian(r, 1.0);
        fl_coulomb_cone_project(dim, mu, x, p);
        double pt = dim == 2 ? fabs(p[1]) : hypot(p[1], p[2]), dot = 0;
        for (int k = 0; k < dim; k++) {
            q[k] = x[k] - p[k];
            dot += q[k] * p[k];
        }
        double qt = dim == 2 ? fabs(q[1]) : hypot(q[1], q[2]);
        cr_assert_leq(pt, mu * p[0] + 1e-12, "p outside K (%s)", fl_test_seed_note());
        cr_assert_leq(fabs(dot), 1e-12, "not orthogonal (%s)", fl_test_seed_note());
        cr_assert_leq(mu * qt, -q[0] + 1e-12, "x - p outside the polar cone (%s)",
                      fl_test_seed_note());
    }
    gsl_rng_free(r);
}

/* At exact solutions (open, stick, slide) the per-contact error is 0; off
 * them it is not. */
Test(fl_residual, zero_exactly_at_solutions)
{
    double open_r[2] = {0, 0}, open_u[2] = {1, -3};
    cr_assert_float_eq(fl_residual_contact_sq(2, 0.5, open_r, open_u), 0.0, 1e-30);
    double stick_r[3] = {2, 0.3, -0.4}, stick_u[3] = {0, 0, 0};
    cr_assert_float_eq(fl_residual_contact_sq(3, 0.5, stick_r, stick_u), 0.0, 1e-30);
    double slide_r[3] = {2, -0.6, -0.8}, slide_u[3] = {0, 3, 4};   /* mu = 0.5, |r_T| = 1 */
    cr_assert_float_eq(fl_residual_contact_sq(3, 0.5, slide_r, slide_u), 0.0, 1e-28);
    double wrong_r[2] = {1, 0}, wrong_u[2] = {1, 0};               /* r_N U_N != 0 */
    cr_assert_gt(fl_residual_contact_sq(2, 0.5, wrong_r, wrong_u), 0.5);
    double wrong_dir[3] = {2, 0.6, 0.8};                           /* friction along U_T */
    cr_assert_gt(fl_residual_contact_sq(3, 0.5, wrong_dir, slide_u), 0.1);
}

/* Normalisations: e = sqrt(sum |F|^2), here one contact with |F| = 1:
 * r = (1, 0), U = (1, 0), mu = 0: r - U = 0 -> P = 0 -> F = r, |F| = 1. */
Test(fl_residual, normalisations_closed_form)
{
    double mu = 0.0, r[2] = {1, 0}, U[2] = {1, 0};
    double nq = 3.0;
    cr_assert_float_eq(fl_residual_natural_map(2, 1, &mu, r, U, nq, FL_RESIDUAL_ABSOLUTE), 1.0, 1e-15);
    cr_assert_float_eq(fl_residual_natural_map(2, 1, &mu, r, U, nq, FL_RESIDUAL_NORM_Q), 1.0 / 3, 1e-15);
    cr_assert_float_eq(fl_residual_natural_map(2, 1, &mu, r, U, nq, FL_RESIDUAL_ONE_PLUS_NORM_Q), 0.25, 1e-15);
    cr_assert_float_eq(fl_residual_natural_map(2, 1, &mu, r, U, 0.5, FL_RESIDUAL_MAX_NORM), 1.0, 1e-15);
    /* ||q|| ~ 0: Siconos leaves the error unnormalised */
    cr_assert_float_eq(fl_residual_natural_map(2, 1, &mu, r, U, 0.0, FL_RESIDUAL_NORM_Q), 1.0, 1e-15);
}

Test(fl_residual, local_problem_and_bad_input)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    gsl_vector_set(p->q, 0, -1.0);
    p->mu[0] = 0.5;
    gsl_vector *r = gsl_vector_alloc(2), *U = gsl_vector_alloc(2), *r3 = gsl_vector_alloc(3);
    gsl_vector_set(r, 0, 1.0);
    gsl_vector_set(r, 1, 0.0);
    double e = -1;
    cr_assert_eq(fl_residual_local(p, r, U, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
    cr_assert_float_eq(e, 0.0, 1e-15);                 /* r = (1,0) solves U = r + q */
    cr_assert_eq(fl_residual_local(p, r, NULL, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
    fl_error err;
    cr_assert_eq(fl_residual_local(p, r3, NULL, FL_RESIDUAL_NORM_Q, &e, &err), FL_EDIM);
    cr_assert_eq(fl_residual_local(NULL, r, NULL, FL_RESIDUAL_NORM_Q, &e, &err), FL_EINVAL);
    gsl_vector_free(r);
    gsl_vector_free(U);
    gsl_vector_free(r3);
    fl_local_problem_free(p);
}
