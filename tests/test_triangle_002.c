/* test_triangle_002.c — the single linear triangle of 002 §6 through the
 * general midpoint stepper (fl_model_triangle_002, models/fl_model_triangle.c):
 * every solution found by enumeration equals one of the closed-form
 * branches S1-S4 of models/fl_model_triangle.c (002 §6, with the transcription fixes of
 * proofs/README.md), their number matches the regions sigma1-sigma4, F < c/b
 * gives one solution, the continuum S5 at F = c/b, and the two mass
 * redistribution claims.  Derivation: proofs/triangle_002.md. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "reference/midpoint.h"
#include "models/fl_model_triangle.h"
#include "testkit/fl_random.h"
#include "fl_rng.h"

static int matches(const double *sol, const double S[4])
{
    double s = 0, d = 0;
    for (int k = 0; k < 4; k++) {
        s = fmax(s, fmax(fabs(S[k]), fabs(sol[k])));
        d = fmax(d, fabs(S[k] - sol[k]));
    }
    return d <= 1e-8 * (s + 1e-12);
}

static void random_tri(gsl_rng *r, fl_model_triangle_system *t, int redistribution)
{
    t->lam = 2.0 * gsl_rng_uniform(r);
    t->mu = 0.1 + gsl_rng_uniform(r);
    t->m1 = redistribution == 1 ? 0.0 : fl_rng_loguniform(r, 1e-3, 1.0);
    t->m2 = redistribution == 2 ? 0.0 : fl_rng_loguniform(r, 1e-3, 1.0);
    t->dt = fl_rng_loguniform(r, 1e-2, 10.0);
    t->utk = 2.0 * gsl_rng_uniform(r) - 1.0;
    fl_model_triangle_constants(t);
    /* F on either side of c/b */
    t->F = (t->c / t->b) * fl_rng_loguniform(r, 0.2, 5.0);
}

/* The core property: for random data away from the boundaries, the set of
 * solutions found by enumeration equals {S_i : fhat in Int sigma_i}. */
Test(triangle_002, enumeration_equals_the_branches_S1_to_S4)
{
    gsl_rng *r = fl_test_rng(602);
    int counts[4] = {0, 0, 0, 0}, tested = 0;
    for (int trial = 0; trial < 3000; trial++) {
        fl_model_triangle_system t;
        random_tri(r, &t, trial % 3);
        double scale = (t.c + t.b) * (1 + fabs(t.utk));
        double fn = scale * (2 * gsl_rng_uniform(r) - 1), ft = scale * (2 * gsl_rng_uniform(r) - 1);
        double margin = 1e-6 * scale;
        int expect[5] = {0}, nexp = 0, skip = 0;
        for (int i = 1; i <= 4; i++) {
            int m = fl_model_triangle_region(&t, i, fn, ft, margin);
            if (m < 0) skip = 1;
            expect[i] = m == 1;
        }
        if (skip || fabs(t.F - t.c / t.b) < 1e-6 * t.c / t.b) continue;
        tested++;
        for (int i = 1; i <= 4; i++) nexp += expect[i];
        double sols[4 * 8];
        size_t ns;
        fl_error e;
        cr_assert_eq(fl_model_triangle_002(t.lam, t.mu, t.m1, t.m2, t.dt, t.F, t.utk, fn, ft, 8,
                                              sols, &ns, &e), FL_OK, "%s", e.message);
        cr_assert_eq((int)ns, nexp, "trial %d: %zu solutions found, regions give %d "
                     "(F=%g c/b=%g fhat=(%g,%g) utk=%g) %s", trial, ns, nexp, t.F, t.c / t.b, fn,
                     ft, t.utk, fl_test_seed_note());
        cr_assert(nexp == 1 || nexp == 3, "interior counts are 1 or 3 (002 §6)");
        if (t.F < t.c / t.b) cr_assert_eq(nexp, 1, "F < c/b: unique (002 §6, Fig. 3)");
        counts[nexp]++;
        for (int i = 1; i <= 4; i++) {
            if (!expect[i]) continue;
            double S[4];
            fl_model_triangle_branch(&t, i, fn, ft, S);
            int found = 0;
            for (size_t k = 0; k < ns; k++) found |= matches(sols + 4 * k, S);
            cr_assert(found, "trial %d: S%d = (%g %g %g %g) not found %s", trial, i, S[0], S[1],
                      S[2], S[3], fl_test_seed_note());
        }
        /* F > c/b: sigma4 = sigma1 ∩ sigma2 (002 §6) */
        if (t.F > t.c / t.b)
            cr_assert_eq(expect[4], expect[1] && expect[2], "sigma4 = sigma1 ∩ sigma2 %s",
                         fl_test_seed_note());
    }
    cr_assert_gt(tested, 2500);
    cr_assert_gt(counts[3], 20, "the sample must reach Int sigma4 (three solutions)");
}

/* A trial run (002 §6): (a,b,c) = (3,1,2), utk = 0.3. */
Test(triangle_002, catalogue_trial_run)
{
    /* lam = mu = 1 gives b = 1 and (lam+3mu)/2 = 2: m2 = 0 -> c = 2; a = 3 with
     * 4 m1 / dt^2 = 1. */
    double lam = 1, mu = 1, dt = 1.0, m1 = 0.25, m2 = 0.0;
    gsl_rng *r = fl_test_rng(33);
    for (int pass = 0; pass < 2; pass++) {
        double F = pass == 0 ? 1.5 : 2.5;
        int triple = 0;
        for (int s = 0; s < 2000; s++) {
            double fn = 6 * gsl_rng_uniform(r) - 3, ft = 6 * gsl_rng_uniform(r) - 3;
            double sols[32];
            size_t ns;
            cr_assert_eq(fl_model_triangle_002(lam, mu, m1, m2, dt, F, 0.3, fn, ft, 8, sols, &ns, NULL),
                         FL_OK);
            if (pass == 0) cr_assert_eq(ns, 1u, "F=1.5 < c/b = 2: unique");
            else cr_assert(ns == 1 || ns == 3 || ns == 2);
            triple += ns == 3;
        }
        if (pass == 1) cr_assert_gt(triple, 0);
    }
    gsl_rng_free(r);
}

/* F = c/b: on sigma5 the solution set is the segment S5 joining S1 and S2;
 * enumeration finds its two ends (the slide system is singular there) and
 * every point of the segment solves (23). */
Test(triangle_002, continuum_S5_at_F_equal_c_over_b)
{
    fl_model_triangle_system t = {1.0, 1.0, 0.3, 0.0, 0.5, 0, -0.4, 0, 0, 0};
    fl_model_triangle_constants(&t);
    t.F = t.c / t.b;
    double fn = 1.1, ft = -t.c * fn / t.b;   /* on sigma5: c fn + b ft = 0, fn > -b utk */
    double sols[32];
    size_t ns;
    cr_assert_eq(fl_model_triangle_002(t.lam, t.mu, t.m1, t.m2, t.dt, t.F, t.utk, fn, ft, 8, sols,
                                          &ns, NULL), FL_OK);
    double S1[4], S2[4];
    fl_model_triangle_branch(&t, 1, fn, ft, S1);
    fl_model_triangle_branch(&t, 2, fn, ft, S2);
    cr_assert_geq(ns, 2u);
    int f1 = 0, f2 = 0;
    for (size_t k = 0; k < ns; k++) {
        f1 |= matches(sols + 4 * k, S1);
        f2 |= matches(sols + 4 * k, S2);
    }
    cr_assert(f1 && f2, "the ends S1 and S2 of S5 are found");
    /* interior points of S5: -fn/b <= u_tau <= utk */
    for (int k = 1; k < 10; k++) {
        double ut = -fn / t.b + (t.utk + fn / t.b) * k / 10.0;
        double ln = -(fn + t.b * ut), lt = t.F * (fn + t.b * ut);
        /* (23)_2,3 with u_nu = 0 */
        cr_assert_float_eq(-t.b * ut, fn + ln, 1e-12);   /* (23)_2: a u_nu - b u_tau = fn + ln */
        cr_assert_float_eq(t.c * ut, ft + lt, 1e-12);    /* (23)_3: -b u_nu + c u_tau = ft + lt */
        cr_assert_leq(ln, 1e-15);                        /* (23)_4 with u_nu = 0 */
        cr_assert_lt(ut, t.utk);                         /* slip down ... */
        cr_assert_float_eq(lt, -t.F * ln, 1e-12);        /* ... (23)_5: lambda_tau = -F lambda_nu */
    }
}

/* m1 = 0, m2 > 0 (mass redistributed on the normal component, (6) holds):
 * unique for dt < dt0 = sqrt(8 m2 / (F (lam+mu) - (lam+3mu))) (002 §6). */
Test(triangle_002, normal_redistribution_is_unique_below_the_dt_bound)
{
    gsl_rng *r = fl_test_rng(604);
    for (int trial = 0; trial < 30; trial++) {
        double lam = gsl_rng_uniform(r), mu = 0.2 + gsl_rng_uniform(r), m2 = fl_rng_loguniform(r, 1e-2, 1);
        double F = (lam + 3 * mu) / (lam + mu) * (1.2 + 3 * gsl_rng_uniform(r));
        double dt0 = sqrt(8 * m2 / (F * (lam + mu) - (lam + 3 * mu)));
        fl_model_triangle_system t = {lam, mu, 0.0, m2, 0.9 * dt0, F, 0.5 * gsl_rng_uniform(r), 0, 0, 0};
        fl_model_triangle_constants(&t);
        cr_assert_gt(t.c / t.b, F, "c/b > F below dt0 %s", fl_test_seed_note());
        for (int s = 0; s < 100; s++) {
            double sc = t.c + t.b;
            double fn = sc * (2 * gsl_rng_uniform(r) - 1), ft = sc * (2 * gsl_rng_uniform(r) - 1);
            double sols[32];
            size_t ns;
            cr_assert_eq(fl_model_triangle_002(lam, mu, 0.0, m2, t.dt, F, t.utk, fn, ft, 8, sols, &ns,
                                                  NULL), FL_OK);
            cr_assert_eq(ns, 1u, "dt < dt0: unique (trial %d) %s", trial, fl_test_seed_note());
        }
        /* above the bound (c/b < F) three solutions exist in Int sigma4 */
        fl_model_triangle_system u = t;
        u.dt = 1.5 * dt0;
        fl_model_triangle_constants(&u);
        cr_assert_lt(u.c / u.b, F);
        double fn = 1.0, ft = -0.5 * (F + u.c / u.b) * fn;   /* utk = 0: Int sigma4 */
        double sols[32];
        size_t ns;
        cr_assert_eq(fl_model_triangle_002(lam, mu, 0.0, m2, u.dt, F, 0.0, fn, ft, 8, sols, &ns, NULL),
                     FL_OK);
        cr_assert_eq(ns, 3u, "dt > dt0: three solutions %s", fl_test_seed_note());
    }
    gsl_rng_free(r);
}

/* m1 > 0, m2 = 0 (tangential mass removed) or m1 = m2 = 0: for
 * F > (lam+3mu)/(lam+mu) = c/b there is an fhat with three solutions,
 * whatever dt (002 §6, last paragraph). */
Test(triangle_002, tangential_redistribution_is_never_unique_for_large_F)
{
    double lam = 1.0, mu = 1.0, F = 2.5;   /* c/b = 2 when m2 = 0 */
    const double dts[] = {1.0, 1e-2, 1e-4, 1e-6};
    for (int both = 0; both < 2; both++)
        for (size_t k = 0; k < 4; k++) {
            double m1 = both ? 0.0 : 0.7;
            double fn = 1.0, ft = -0.5 * (F + 2.0) * fn;
            double sols[32];
            size_t ns;
            cr_assert_eq(fl_model_triangle_002(lam, mu, m1, 0.0, dts[k], F, 0.0, fn, ft, 8, sols, &ns,
                                                  NULL), FL_OK);
            cr_assert_eq(ns, 3u, "m1=%g m2=0 dt=%g: three solutions", m1, dts[k]);
        }
}

Test(triangle_002, bad_input)
{
    double sols[4];
    size_t ns;
    fl_error e;
    cr_assert_eq(fl_model_triangle_002(1, 0, 1, 1, 1, 1, 0, 0, 0, 1, sols, &ns, &e), FL_EINVAL);
    cr_assert_eq(fl_model_triangle_002(1, 1, -1, 1, 1, 1, 0, 0, 0, 1, sols, &ns, &e), FL_EINVAL);
    cr_assert_eq(fl_model_triangle_002(1, 1, 1, 1, 1, 1, 0, NAN, 0, 1, sols, &ns, &e), FL_EINVAL);
    cr_assert_eq(fl_model_triangle_002(1, 1, 1, 1, 0.0, 1, 0, 0, 0, 1, sols, &ns, &e), FL_EINVAL);
    cr_assert_eq(fl_model_triangle_002(1, 1, 1, 1, 1, -1, 0, 0, 0, 1, sols, &ns, &e), FL_EINVAL);
}
