/* test_quasistatic.c — reference/quasistatic.c (004 §5.3 (115)-(117)):
 * closed forms of a single particle (stick, slip, lift-off), the incremental
 * Coulomb conditions as a certificate on random systems (independent of the
 * algorithm: any solution of (115) with g = mu |r_N| satisfies them), bad
 * input. */
#include <criterion/criterion.h>
#include <math.h>
#include <gsl/gsl_blas.h>

#include "testkit/fl_random.h"
#include "reference/quasistatic.h"

static void one_particle(double kT, double kN, double fT, double fN, double c, double mu,
                         double *uT, double *uN, double *rT, double *rN)
{
    gsl_matrix *K = gsl_matrix_calloc(2, 2), *M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(K, 0, 0, kT);
    gsl_matrix_set(K, 1, 1, kN);
    gsl_matrix_set_identity(M);
    size_t iT = 0, iN = 1;
    fl_stability_system s = {.n = 2, .K = K, .M = M, .prescribed = NULL, .np = 1, .iT = &iT, .iN = &iN, .mu = mu};
    gsl_vector *f = gsl_vector_alloc(2), *uk = gsl_vector_calloc(2), *g = gsl_vector_calloc(1);
    gsl_vector *u = gsl_vector_calloc(2), *r = gsl_vector_alloc(2);
    gsl_vector_set(f, 0, fT);
    gsl_vector_set(f, 1, fN);
    gsl_vector_set(uk, 0, c);
    fl_quasistatic_result res;
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, r, NULL, &res, NULL), FL_OK);
    cr_assert(res.g_iterations <= 8, "%d g-iterations", res.g_iterations);
    *uT = gsl_vector_get(u, 0);
    *uN = gsl_vector_get(u, 1);
    *rT = gsl_vector_get(r, 0);
    *rN = gsl_vector_get(r, 1);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
    gsl_vector_free(f);
    gsl_vector_free(uk);
    gsl_vector_free(g);
    gsl_vector_free(u);
    gsl_vector_free(r);
}

Test(quasistatic, single_particle_closed_forms)
{
    double uT, uN, rT, rN;
    /* pressed (f_N > 0 pushes into the obstacle, 004 signs), stick: |f_T - k_T c| <= mu f_N */
    one_particle(2.0, 5.0, 1.0, 3.0, 0.2, 0.5, &uT, &uN, &rT, &rN);
    cr_assert(fabs(uN) < 1e-14 && fabs(rN + 3.0) < 1e-10);
    cr_assert(fabs(uT - 0.2) < 1e-12 && fabs(rT - (2.0 * 0.2 - 1.0)) < 1e-10, "stick: u_T = c");
    /* slip: |f_T - k_T c| = 4.6 > mu f_N = 1.5: u_T = (f_T - mu f_N sgn)/k_T */
    one_particle(2.0, 5.0, 5.0, 3.0, 0.2, 0.5, &uT, &uN, &rT, &rN);
    cr_assert(fabs(uT - (5.0 - 1.5) / 2.0) < 1e-10, "%g", uT);
    cr_assert(fabs(rT - (-1.5)) < 1e-10 && fabs(rT - 0.5 * rN) < 1e-10, "r_T = mu r_N sigma(du_T)");
    /* lift-off: f_N < 0 pulls away: u_N = f_N / k_N, r = 0, u_T = f_T / k_T */
    one_particle(2.0, 5.0, 1.0, -1.0, 0.2, 0.5, &uT, &uN, &rT, &rN);
    cr_assert(fabs(uN + 0.2) < 1e-12 && fabs(rN) < 1e-10 && fabs(rT) < 1e-10 && fabs(uT - 0.5) < 1e-12);
}

Test(quasistatic, incremental_coulomb_certificate_on_random_systems)
{
    gsl_rng *rg = fl_test_rng(5003);
    int nslip = 0, nstick = 0, nfree = 0;
    for (int trial = 0; trial < 200; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(rg, 3), n = 2 * np + gsl_rng_uniform_int(rg, 4);
        gsl_matrix *K = gsl_matrix_alloc(n, n), *M = gsl_matrix_alloc(n, n);
        /* mild coupling: the g fixed point contracts for small mu */
        cr_assert_eq(fl_random_spd(rg, 5.0, 1.0, K), FL_OK);
        gsl_matrix_set_identity(M);
        size_t *iT = malloc(np * sizeof *iT), *iN = malloc(np * sizeof *iN);
        for (size_t p = 0; p < np; p++) { iT[p] = 2 * p; iN[p] = 2 * p + 1; }
        double mu = 0.05 + 0.25 * gsl_rng_uniform(rg);
        fl_stability_system s = {.n = n, .K = K, .M = M, .prescribed = NULL, .np = np, .iT = iT, .iN = iN, .mu = mu};
        gsl_vector *f = gsl_vector_alloc(n), *uk = gsl_vector_calloc(n), *g = gsl_vector_calloc(np);
        gsl_vector *u = gsl_vector_calloc(n), *r = gsl_vector_alloc(n);
        fl_random_vector(rg, 1.0, f);
        for (size_t p = 0; p < np; p++) {
            gsl_vector_set(f, iN[p], gsl_vector_get(f, iN[p]) + 0.8);     /* mostly pressed */
            gsl_vector_set(uk, iT[p], 0.3 * (2 * gsl_rng_uniform(rg) - 1));
        }
        fl_quasistatic_result res;
        fl_status st = fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, r, NULL, &res, NULL);
        cr_assert_eq(st, FL_OK, "status %d (trial %d, %d sweeps, %d g-iterations, change %g, mu %g) %s", st, trial, res.iterations, res.g_iterations, res.residual, mu, fl_test_seed_note());
        double tol = 1e-8;
        for (size_t i = 2 * np; i < n; i++)
            cr_assert(fabs(gsl_vector_get(r, i)) < tol, "free dof in equilibrium %s", fl_test_seed_note());
        for (size_t p = 0; p < np; p++) {
            double uN = gsl_vector_get(u, iN[p]), rN = gsl_vector_get(r, iN[p]);
            double du = gsl_vector_get(u, iT[p]) - gsl_vector_get(uk, iT[p]), rT = gsl_vector_get(r, iT[p]);
            cr_assert(uN <= 1e-12 && rN <= tol && fabs(rN * uN) <= tol, "Signorini %s", fl_test_seed_note());
            cr_assert(fabs(rT) <= -mu * rN + tol, "cone %s", fl_test_seed_note());
            if (fabs(du) > 1e-9) {
                cr_assert(fabs(rT - mu * rN * (du > 0 ? 1 : -1)) < 1e-7, "slip rule %s", fl_test_seed_note());
                nslip++;
            } else if (rN < -tol) nstick++;
            if (uN < -1e-9) nfree++;
            cr_assert(fabs(gsl_vector_get(g, p) - mu * fabs(rN)) < 1e-8, "(117) fixed point %s", fl_test_seed_note());
        }
        free(iT);
        free(iN);
        gsl_matrix_free(K);
        gsl_matrix_free(M);
        gsl_vector_free(f);
        gsl_vector_free(uk);
        gsl_vector_free(g);
        gsl_vector_free(u);
        gsl_vector_free(r);
    }
    cr_assert(nslip > 20 && nstick > 20 && nfree > 5, "%d %d %d %s", nslip, nstick, nfree, fl_test_seed_note());
    gsl_rng_free(rg);
}

Test(quasistatic, bad_input)
{
    gsl_matrix *K = gsl_matrix_calloc(2, 2), *M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(K, 0, 0, 1.0);
    gsl_matrix_set_identity(M);
    size_t iT = 0, iN = 1;
    fl_stability_system s = {.n = 2, .K = K, .M = M, .prescribed = NULL, .np = 1, .iT = &iT, .iN = &iN, .mu = 0.3};
    gsl_vector *f = gsl_vector_calloc(2), *uk = gsl_vector_calloc(2), *g = gsl_vector_calloc(1);
    gsl_vector *u = gsl_vector_calloc(2), *g2 = gsl_vector_calloc(2);
    fl_error err;
    fl_quasistatic_result res;
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, NULL, NULL, &res, &err), FL_ENOTSPD);   /* K_NN = 0 */
    gsl_matrix_set(K, 1, 1, 1.0);
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g2, u, NULL, NULL, &res, &err), FL_EDIM);
    fl_quasistatic_options o = fl_quasistatic_options_default();
    o.omega = 2.0;
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, NULL, &o, &res, &err), FL_EINVAL);
    gsl_vector_set(f, 0, NAN);
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, NULL, NULL, &res, &err), FL_ENONFINITE);
    gsl_vector_set(f, 0, 1.0);
    gsl_vector_set(f, 1, 1.0);
    o = fl_quasistatic_options_default();
    o.max_g_iter = 1;
    o.max_sweeps = 1;
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, NULL, &o, NULL, &err), FL_WMAXITER);
    s.mu = -1.0;
    cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &s}, f, uk, g, u, NULL, NULL, &res, &err), FL_EINVAL);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
    gsl_vector_free(f);
    gsl_vector_free(uk);
    gsl_vector_free(g);
    gsl_vector_free(g2);
    gsl_vector_free(u);
}
