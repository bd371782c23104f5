/* test_stewart_law.c — Stewart's formulation P5 (reference/stewart_law.c and
 * optimized/stewart_law_sparse.c through one harness).
 *
 * Unit: the Painlevé bar of 001 §6.2 (closed forms of 001 §6.2
 * items 2 and 3, re-derived in proofs/stewart_lcp.md §4), a particle on a
 * plane in 3D.  Enumeration (reference/lcp_enumerate.c, an independent
 * method) shows the number of physical solutions of each step: one for
 * mu < -1/tan(theta0), two (grazing or frictional catastrophe) for
 * mu >= -1/tan(theta0); the classical acceleration-level Painlevé LCP has
 * none (inconsistency) or two (indeterminacy).  Property: on random systems
 * every step satisfies Coulomb's law on the real-world impulses, the
 * momentum balance, and reference and optimized agree.  Bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "reference/stewart_law.h"
#include "models/fl_model_painleve.h"
#include "testkit/fl_random.h"
#include "checks/stewart_checks.h"
#include "optimized/stewart_law_sparse.h"
#include "fl_scalar.h"
#include "drivers/fl_types.h"

/* The Painlevé bar at theta0 with xdot = V0, thetadot = 0 (001 §6.2),
 * the bar of data/001/painleve_p5.json: checks/stewart_checks.h. */
typedef fl_stewart_check_bar bar_case;

static void bar_setup(bar_case *b, double mu, double C0, double V0, double h)
{
    fl_model_painleve_bar bar = {1.0, 1.0 / 3.0, 1.0, -FL_PI / 6, mu, 0.0, C0};
    cr_assert_eq(fl_stewart_check_bar_init(b, &bar, V0, h), 0);
}

/* Physical solutions (v+, impulse) of the step (checks/stewart_checks.h);
 * every enumerated LCP solution satisfies Coulomb's law. */
static size_t physical_solutions(const fl_stewart_problem *p, double sol[][4])
{
    double coul = INFINITY;
    int c = fl_stewart_check_physical_solutions(p, sol, &coul);
    cr_assert_geq(c, 0);
    cr_assert(coul <= 1e-9, "enumerated LCP solution violates Coulomb by %g", coul);
    return (size_t)c;
}

static int has_solution(double sol[][4], size_t count, const double *x, double tol)
{
    for (size_t s = 0; s < count; s++) {
        double d = 0.0;
        for (int i = 0; i < 4; i++) d = fmax(d, fabs(sol[s][i] - x[i]));
        if (d <= tol) return 1;
    }
    return 0;
}

Test(stewart_law, painleve_grazing_unique_below_threshold)
{
    /* 001 §6.2 with mu = 0.5 < -1/tan(theta0) = sqrt 3: the grazing motion
     * xdot+ = V0, P~ = 0 is the only solution (001 §6.2: P5 <=> P'3). */
    bar_case b;
    bar_setup(&b, 0.5, 0.0, 1.0, 0.01);
    double sol[4][4];
    cr_assert_eq(physical_solutions(&b.p, sol), 1);
    cr_assert(has_solution(sol, 1, (double[]){1.0, 0.0, 0.0, 0.0}, 1e-12));
    for (int i = 0; i < 2; i++) {
        fl_stewart_result *r = fl_stewart_result_alloc(2, 1, 2, NULL);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, NULL), FL_OK, "%s", fl_stewart_types[i].name);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 0), 1.0, 1e-12, "%s", fl_stewart_types[i].name);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 0), 0.0, 1e-12);
        fl_stewart_result_free(r);
    }
    fl_stewart_check_bar_free(&b);
}

Test(stewart_law, painleve_grazing_two_solutions_above_threshold)
{
    /* 001 §6.2 with mu = 2 >= sqrt 3: grazing (P~ = 0) and the frictional
     * catastrophe P~ = (normal -m V0 tan theta0, tangent -m V0), v+ = 0;
     * no other solution (cos theta0 + mu sin theta0 != 0). */
    bar_case b;
    bar_setup(&b, 2.0, 0.0, 1.0, 0.01);
    double sol[4][4], t0 = b.bar.theta0;
    cr_assert_eq(physical_solutions(&b.p, sol), 2);
    cr_assert(has_solution(sol, 2, (double[]){1.0, 0.0, 0.0, 0.0}, 1e-12));
    double stop[4] = {0.0, 0.0, -1.0 * tan(t0), -1.0};
    cr_assert(has_solution(sol, 2, stop, 1e-12));
    /* Lemke returns one of the two, verified. */
    fl_stewart_result *r = fl_stewart_result_alloc(2, 1, 2, NULL);
    cr_assert_eq(fl_stewart_step(&b.p, NULL, r, NULL), FL_OK);
    double x[4] = {gsl_vector_get(r->v_plus, 0), gsl_vector_get(r->v_plus, 1),
                   gsl_vector_get(r->impulse, 0), gsl_vector_get(r->impulse, 1)};
    cr_assert(has_solution(sol, 2, x, 1e-10));
    fl_stewart_result_free(r);
    /* exactly at the threshold mu = sqrt 3 the stop solution is admissible */
    fl_stewart_check_bar_free(&b);
    bar_setup(&b, -1.0 / tan(-FL_PI / 6) + 1e-12, 0.0, 1.0, 0.01);
    cr_assert_eq(physical_solutions(&b.p, sol), 2);
    fl_stewart_check_bar_free(&b);
}

Test(stewart_law, painleve_frictional_catastrophe_closed_form)
{
    /* 001 §6.2 ( "non-existence of a smooth solution"): C0 < 0,
     * mu = 2 > sqrt 3.  The unique step solution is the tangential impact:
     * v+ = 0, P~_t = -m V0, P~_n = (-h C0 - l sin theta0 m V0)/(l cos theta0). */
    bar_case b;
    double h = 0.01, C0 = -1.0, V0 = 1.0;
    bar_setup(&b, 2.0, C0, V0, h);
    double t0 = b.bar.theta0, l = b.bar.l, m = b.bar.m;
    double pn = (-h * C0 - l * sin(t0) * m * V0) / (l * cos(t0));
    double sol[4][4];
    cr_assert_eq(physical_solutions(&b.p, sol), 1);
    cr_assert(has_solution(sol, 1, (double[]){0.0, 0.0, pn, -m * V0}, 1e-12));
    for (int i = 0; i < 2; i++) {
        fl_stewart_result *r = fl_stewart_result_alloc(2, 1, 2, NULL);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, NULL), FL_OK);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 0), 0.0, 1e-12, "%s", fl_stewart_types[i].name);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 1), 0.0, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 0), pn, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 1), -m * V0, 1e-12);
        /* generalized reaction r = ^t l r~ (001 (6.1)) */
        cr_assert_float_eq(gsl_vector_get(r->r, 0), -m * V0, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->r, 1), l * cos(t0) * pn + l * sin(t0) * m * V0, 1e-12);
        fl_stewart_result_free(r);
    }
    fl_stewart_check_bar_free(&b);
}

Test(stewart_law, painleve_sliding_closed_form_below_threshold)
{
    /* mu = 0.5 < sqrt 3, C0 < 0: contact kept (thetadot+ = 0), sliding
     * friction P~_t = -mu P~_n with J 0 = h C0 + l P~_n (cos theta0 + mu
     * sin theta0) (001 §6.2), so P~_n = -h C0 / (l (cos theta0 + mu sin theta0))
     * and xdot+ = V0 - mu P~_n / m (> 0 here: sliding continues). */
    bar_case b;
    double h = 0.01, C0 = -1.0, V0 = 1.0, mu = 0.5;
    bar_setup(&b, mu, C0, V0, h);
    double t0 = b.bar.theta0, l = b.bar.l, m = b.bar.m;
    double pn = -h * C0 / (l * (cos(t0) + mu * sin(t0)));
    double sol[4][4];
    cr_assert_eq(physical_solutions(&b.p, sol), 1);
    double x[4] = {V0 - mu * pn / m, 0.0, pn, -mu * pn};
    cr_assert(has_solution(sol, 1, x, 1e-12));
    for (int i = 0; i < 2; i++) {
        fl_stewart_result *r = fl_stewart_result_alloc(2, 1, 2, NULL);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, NULL), FL_OK);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 0), x[0], 1e-12, "%s", fl_stewart_types[i].name);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 0), pn, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 1), -mu * pn, 1e-12);
        fl_stewart_result_free(r);
    }
    fl_stewart_check_bar_free(&b);
}

Test(stewart_law, painleve_acceleration_lcp_inconsistent_or_indeterminate)
{
    /* The classical (acceleration-level) Painlevé problem of 001 §6.2:
     * J thetaddot = C0 + l r~_y (cos theta0 + mu sin theta0), 0 <= r~_y _|_
     * thetaddot >= 0: the LCP  a r~_y + C0/J, a = l (cos + mu sin)/J.  For
     * mu > sqrt 3, a < 0: C0 < 0 gives NO solution (Lemke: ray; enumeration:
     * 0), C0 > 0 gives TWO (r~_y = 0 and r~_y = -C0/(l (cos + mu sin))). */
    double t0 = -FL_PI / 6, mu = 2.0, l = 1.0, J = 1.0 / 3.0;
    double a = l * (cos(t0) + mu * sin(t0)) / J;
    cr_assert(a < 0.0);
    gsl_matrix *M = gsl_matrix_alloc(1, 1);
    gsl_vector *q = gsl_vector_alloc(1), *z = gsl_vector_alloc(1);
    gsl_matrix_set(M, 0, 0, a);
    gsl_vector_set(q, 0, -1.0 / J);
    fl_lcp_solutions *s;
    cr_assert_eq(fl_lcp_enumerate(M, q, NULL, &s, NULL, NULL), FL_OK);
    cr_assert_eq(s->count, 0);
    fl_lcp_solutions_free(s);
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, NULL, NULL), FL_ERAY);
    gsl_vector_set(q, 0, 1.0 / J);
    cr_assert_eq(fl_lcp_enumerate(M, q, NULL, &s, NULL, NULL), FL_OK);
    cr_assert_eq(s->count, 2);
    double r2 = -1.0 / (l * (cos(t0) + mu * sin(t0)));
    cr_assert(fabs(s->z[0]) < 1e-15 || fabs(s->z[0] - r2) < 1e-12);
    cr_assert(fabs(s->z[1]) < 1e-15 || fabs(s->z[1] - r2) < 1e-12);
    cr_assert(fabs(s->z[0] - s->z[1]) > 0.1);
    fl_lcp_solutions_free(s);
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(z);
}

Test(stewart_law, particle_on_plane_3d_closed_form)
{
    /* Particle of mass m on the plane z = 0 (frame: normal e_z, tangents
     * e_x, e_y), gravity f = (0,0,-m g), v- = (V, 0, 0) along d_0 = e_x.
     * Closed form: p = m g h, P~_t = -mu p e_x, v+ = (V - mu g h, 0, 0). */
    double m = 2.0, g = 9.81, h = 0.01, V = 1.0, mu = 0.3;
    gsl_matrix *M = gsl_matrix_alloc(3, 3), *H = gsl_matrix_calloc(3, 3);
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, m);
    gsl_matrix_set(H, 0, 2, 1.0);
    gsl_matrix_set(H, 1, 0, 1.0);
    gsl_matrix_set(H, 2, 1, 1.0);
    gsl_vector *v = gsl_vector_calloc(3), *f = gsl_vector_calloc(3);
    gsl_vector_set(v, 0, V);
    gsl_vector_set(f, 2, -m * g);
    fl_stewart_problem p = {3, 1, 3, M, H, NULL, NULL, NULL, v, f, NULL, &mu, h};
    for (int i = 0; i < 2; i++) {
        fl_stewart_result *r = fl_stewart_result_alloc(3, 1, 3, NULL);
        cr_assert_eq(r->lcp_size, 10);
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, NULL), FL_OK, "%s", fl_stewart_types[i].name);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 0), V - mu * g * h, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 1), 0.0, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 2), 0.0, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 0), m * g * h, 1e-12);
        cr_assert_float_eq(gsl_vector_get(r->impulse, 1), -mu * m * g * h, 1e-12);
        cr_assert(r->coulomb <= 1e-12);
        fl_stewart_result_free(r);
    }
    /* Sliding between two directions (angle pi/8 with k = 8): the polygonal
     * friction impulse is the maximal-dissipation one of the 8-gon,
     * -mu p (d_0 + d_1)/2 / ... checked through the Coulomb violation, and
     * its length lies between mu p cos(pi/8) and mu p. */
    gsl_vector_set(v, 0, V * cos(FL_PI / 8));
    gsl_vector_set(v, 1, V * sin(FL_PI / 8));
    fl_stewart_result *r = fl_stewart_result_alloc(3, 1, 3, NULL);
    cr_assert_eq(fl_stewart_step(&p, NULL, r, NULL), FL_OK);
    double pt = hypot(gsl_vector_get(r->impulse, 1), gsl_vector_get(r->impulse, 2));
    double pn = gsl_vector_get(r->impulse, 0);
    cr_assert(pt <= mu * pn * (1 + 1e-12) && pt >= mu * pn * cos(FL_PI / 8) * (1 - 1e-12));
    cr_assert(r->coulomb <= 1e-12);
    fl_stewart_result_free(r);
    gsl_matrix_free(M);
    gsl_matrix_free(H);
    gsl_vector_free(v);
    gsl_vector_free(f);
}

/* Random steps: testkit/fl_random.h (fl_random_stewart_problem, M of
 * condition number up to 1e2); oracles: checks/stewart_checks.h. */
typedef fl_random_stewart rnd_case;

static void rnd_setup(gsl_rng *r, rnd_case *c)
{
    cr_assert_eq(fl_random_stewart_problem(r, 0, 100.0, c), FL_OK);
}

Test(stewart_law, random_systems_satisfy_coulomb_and_implementations_agree)
{
    gsl_rng *rng = fl_test_rng(606);
    fl_stewart_options o = fl_stewart_options_default();
    o.k = 4;
    size_t trials = 150, agree = 0, enumerated = 0;
    for (size_t t = 0; t < trials; t++) {
        rnd_case c;
        rnd_setup(rng, &c);
        fl_stewart_result *res[2];
        for (int i = 0; i < 2; i++) {
            res[i] = fl_stewart_result_alloc(c.n, c.nc, c.dim, &o);
            fl_error e;
            fl_status s = fl_stewart_types[i].step(&c.p, &o, res[i], &e);
            cr_assert_eq(s, FL_OK, "%s n %zu nc %zu dim %zu: %s; %s", fl_stewart_types[i].name, c.n, c.nc,
                         c.dim, e.message, fl_test_seed_note());
            cr_assert(res[i]->coulomb <= 1e-9, "%s Coulomb violation %g; %s", fl_stewart_types[i].name,
                      res[i]->coulomb, fl_test_seed_note());
            cr_assert(res[i]->residual <= 1e-9, "%s", fl_test_seed_note());
            cr_assert(fl_stewart_check_balance(&c.p, res[i]) <= 1e-10, "%s balance %g; %s", fl_stewart_types[i].name,
                      fl_stewart_check_balance(&c.p, res[i]), fl_test_seed_note());
        }
        double d = 0.0;
        for (size_t i = 0; i < c.n; i++)
            d = fmax(d, fabs(gsl_vector_get(res[0]->v_plus, i) - gsl_vector_get(res[1]->v_plus, i)));
        for (size_t i = 0; i < c.dim * c.nc; i++)
            d = fmax(d, fabs(gsl_vector_get(res[0]->impulse, i) - gsl_vector_get(res[1]->impulse, i)));
        int differ = !(d <= 1e-8);
        if (!differ) agree++;
        /* enumeration: Lemke's z is a basic solution, and every solution of
         * the LCP satisfies Coulomb's law on the real-world impulses */
        size_t m = res[0]->lcp_size;
        if (m <= 12) {
            enumerated++;
            fl_stewart_enum_stats es;
            fl_error e;
            cr_assert_eq(fl_stewart_check_enumeration(&c.p, &o, res[0], &es, &e), FL_OK, "%s", e.message);
            cr_assert_eq(es.violations, 0, "%zu enumerated solutions violate Coulomb; %s", es.violations,
                         fl_test_seed_note());
            /* Lemke stops on a complementary basis, so its z is an
             * enumerated vertex, unless that basis is numerically singular,
             * which happens only inside a continuum: a non-unique step. */
            cr_assert(es.found || es.distinct >= 2, "Lemke's solution not among the %zu enumerated of a "
                      "unique step; %s", es.solutions, fl_test_seed_note());
        }
        fl_stewart_result_free(res[0]);
        fl_stewart_result_free(res[1]);
        fl_random_stewart_free(&c);
    }
    cr_assert(enumerated >= 30, "only %zu small cases", enumerated);
    /* Both answers were verified above (Coulomb, balance, LCP residual), so
     * where they differ the step has several solutions (possibly a continuum
     * the vertex enumeration does not list) and rounding steered the two
     * pivot sequences apart; that must stay rare. */
    cr_assert(agree >= trials - trials / 20, "reference and optimized differ on %zu of %zu; %s",
              trials - agree, trials, fl_test_seed_note());
    gsl_rng_free(rng);
}

/* ---- time stepping ---- */

typedef struct traj { size_t calls; double last_t; double xdot[200]; } traj;

static int record(void *data, size_t step, double t, const gsl_vector *q,
                  const fl_stewart_result *r)
{
    traj *tr = data;
    (void)q;
    tr->calls++;
    tr->last_t = t;
    if (step <= 200) tr->xdot[step - 1] = gsl_vector_get(r->v_plus, 0);
    return 0;
}

Test(stewart_law, painleve_time_stepping_closed_forms)
{
    /* mu = 0.5 < sqrt 3, C0 < 0: every step keeps contact with the same
     * impulse P~_n = -h C0/(l (cos theta0 + mu sin theta0)), so xdot_k =
     * V0 - k mu P~_n / m until it reaches 0 (then sticking: xdot = 0). */
    fl_model_painleve_bar bar = {1.0, 1.0 / 3.0, 1.0, -FL_PI / 6, 0.5, 0.0, -1.0};
    fl_stewart_system sys;
    cr_assert_eq(fl_model_painleve_stewart_system(&bar, &sys, NULL), FL_OK);
    gsl_vector *q = gsl_vector_alloc(2), *v = gsl_vector_alloc(2);
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, bar.theta0);
    gsl_vector_set(v, 0, 1.0);
    gsl_vector_set(v, 1, 0.0);
    double h = 0.01;
    traj tr = {0, 0.0, {0}};
    fl_stewart_run run;
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.0, h, 200, q, v, record, &tr, &run, NULL), FL_OK);
    cr_assert_eq(run.steps, 200);
    cr_assert_eq(tr.calls, 200);
    cr_assert_float_eq(tr.last_t, 2.0, 1e-12);
    double pn = h / (cos(bar.theta0) + bar.mu * sin(bar.theta0));
    for (size_t k = 1; k <= 200; k++) {
        double expect = fmax(0.0, 1.0 - (double)k * bar.mu * pn / bar.m);
        cr_assert(fabs(tr.xdot[k - 1] - expect) <= 1e-9, "step %zu: xdot %g expected %g", k,
                  tr.xdot[k - 1], expect);
    }
    cr_assert(fabs(gsl_vector_get(q, 1) - bar.theta0) <= 1e-12, "theta stays theta0");
    cr_assert(run.coulomb <= 1e-9 && run.residual <= 1e-9);
    /* mu = 2, C0 < 0: frictional catastrophe at the first step, then rest. */
    bar.mu = 2.0;
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, bar.theta0);
    gsl_vector_set(v, 0, 1.0);
    gsl_vector_set(v, 1, 0.0);
    tr.calls = 0;
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.0, h, 20, q, v, record, &tr, &run, NULL), FL_OK);
    for (size_t k = 0; k < 20; k++) cr_assert(fabs(tr.xdot[k]) <= 1e-12);
    cr_assert(fabs(gsl_vector_get(q, 0)) <= 1e-12);
    gsl_vector_free(q);
    gsl_vector_free(v);
}

static int stop_at_3(void *data, size_t step, double t, const gsl_vector *q,
                     const fl_stewart_result *r)
{
    (void)data;
    (void)t;
    (void)q;
    (void)r;
    return step == 3;
}

static fl_status failing_mass(void *data, const gsl_vector *q, gsl_matrix *M, fl_error *err)
{
    (void)data;
    (void)q;
    gsl_matrix_set_zero(M);
    return FL_FAIL(err, FL_EINVAL, "mass callback refuses");
}

Test(stewart_law, integrate_observer_stop_and_errors)
{
    fl_model_painleve_bar bar = {1.0, 1.0 / 3.0, 1.0, -FL_PI / 6, 0.5, 0.0, 0.0};
    fl_stewart_system sys;
    cr_assert_eq(fl_model_painleve_stewart_system(&bar, &sys, NULL), FL_OK);
    gsl_vector *q = gsl_vector_alloc(2), *v = gsl_vector_alloc(2), *q3 = gsl_vector_alloc(3);
    gsl_vector_set(q, 0, 0.0);
    gsl_vector_set(q, 1, 0.2);                  /* free flight above the floor */
    gsl_vector_set(v, 0, 1.0);
    gsl_vector_set(v, 1, 0.0);
    fl_stewart_run run;
    fl_error e;
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.0, 0.01, 10, q, v, stop_at_3, NULL, &run, &e), FL_OK);
    cr_assert_eq(run.steps, 3);
    cr_assert_float_eq(gsl_vector_get(q, 0), 0.03, 1e-12);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.0, -1.0, 10, q, v, NULL, NULL, &run, &e), FL_EINVAL);
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.0, 0.01, 10, q3, v, NULL, NULL, &run, &e), FL_EDIM);
    cr_assert_eq(fl_stewart_integrate(NULL, NULL, 0.0, 0.01, 10, q, v, NULL, NULL, &run, &e), FL_EINVAL);
    fl_stewart_system bad = sys;
    bad.mass = failing_mass;
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0.0, 0.01, 10, q, v, NULL, NULL, &run, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "refuses"));
    cr_assert_eq(run.steps, 0);
    bad = sys;
    bad.dim = 4;
    cr_assert_eq(fl_stewart_integrate(&bad, NULL, 0.0, 0.01, 10, q, v, NULL, NULL, &run, &e), FL_EINVAL);
    /* bad bars */
    fl_model_painleve_bar bb = bar;
    bb.theta0 = 0.3;
    cr_assert_eq(fl_model_painleve_stewart_system(&bb, &sys, &e), FL_EINVAL);
    bb = bar;
    bb.m = -1;
    cr_assert_eq(fl_model_painleve_stewart_system(&bb, &sys, &e), FL_EINVAL);
    cr_assert_eq(fl_model_painleve_stewart_system(NULL, &sys, &e), FL_EINVAL);
    gsl_vector_free(q);
    gsl_vector_free(v);
    gsl_vector_free(q3);
}

Test(stewart_law, no_contact_is_free_flight)
{
    double mu = 0.0;
    gsl_matrix *M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, 2.0);
    gsl_vector *v = gsl_vector_calloc(2), *f = gsl_vector_calloc(2);
    gsl_vector_set(f, 1, -4.0);
    fl_stewart_problem p = {2, 0, 2, M, NULL, NULL, NULL, NULL, v, f, NULL, &mu, 0.5};
    for (int i = 0; i < 2; i++) {
        fl_stewart_result *r = fl_stewart_result_alloc(2, 0, 2, NULL);
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, NULL), FL_OK, "%s", fl_stewart_types[i].name);
        cr_assert_float_eq(gsl_vector_get(r->v_plus, 1), -1.0, 1e-15);   /* h f / m */
        fl_stewart_result_free(r);
    }
    gsl_matrix_free(M);
    gsl_vector_free(v);
    gsl_vector_free(f);
}

Test(stewart_law, bad_input_is_rejected)
{
    bar_case b;
    bar_setup(&b, 0.5, 0.0, 1.0, 0.01);
    fl_error e;
    for (int i = 0; i < 2; i++) {
        fl_stewart_result *r = fl_stewart_result_alloc(2, 1, 2, NULL);
        fl_stewart_problem p = b.p;
        p.h = 0.0;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EINVAL, "%s", fl_stewart_types[i].name);
        cr_assert_eq(r->status, FL_EINVAL);
        p = b.p;
        p.dim = 5;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EINVAL);
        p = b.p;
        double mu = -1.0;
        p.mu = &mu;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EINVAL);
        cr_assert(strstr(e.message, "mu[0]"));
        p.mu = NULL;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EINVAL);
        p = b.p;
        p.v = b.gap;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EDIM);
        p = b.p;
        p.f = b.gap;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EDIM);
        p = b.p;
        p.gap = b.v;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EDIM);
        p = b.p;
        p.n = 3;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EDIM);
        p = b.p;
        p.M = NULL;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EINVAL);
        p = b.p;
        p.H = NULL;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EINVAL);
        p = b.p;
        p.nc = 2;
        cr_assert_eq(fl_stewart_types[i].step(&p, NULL, r, &e), FL_EDIM);
        cr_assert_eq(fl_stewart_types[i].step(NULL, NULL, r, &e), FL_EINVAL);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, NULL, &e), FL_EDIM);
        fl_stewart_options o = fl_stewart_options_default();
        o.coulomb_tol = 0.0;
        cr_assert_eq(fl_stewart_types[i].step(&b.p, &o, r, &e), FL_EINVAL);
        gsl_matrix_set(b.M, 0, 1, NAN);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, &e), FL_ENONFINITE);
        gsl_matrix_set(b.M, 0, 1, 0.0);
        gsl_matrix_set(b.M, 0, 0, -1.0);                 /* not SPD */
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, &e), FL_ENOTSPD, "%s: %s", fl_stewart_types[i].name, e.message);
        gsl_matrix_set(b.M, 0, 0, 1.0);
        gsl_vector_set(b.v, 0, INFINITY);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, &e), FL_ENONFINITE);
        gsl_vector_set(b.v, 0, 1.0);
        gsl_matrix_set(b.H, 1, 1, NAN);
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, &e), FL_ENONFINITE);
        b.sys.contacts(b.sys.data, b.q, b.gap, b.H, NULL);
        fl_stewart_result_free(r);
        r = fl_stewart_result_alloc(2, 1, 3, NULL);      /* wrong sizes */
        cr_assert_eq(fl_stewart_types[i].step(&b.p, NULL, r, &e), FL_EDIM);
        fl_stewart_result_free(r);
    }
    fl_stewart_options o = fl_stewart_options_default();
    o.k = 2;
    fl_stewart_problem p3 = b.p;
    p3.dim = 3;
    cr_assert_eq(fl_stewart_problem_check(&p3, &o, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "at least 3"));
    /* LCP helpers */
    gsl_matrix *A = gsl_matrix_alloc(3, 3);
    gsl_vector *bq = gsl_vector_alloc(3), *z = gsl_vector_calloc(4);
    cr_assert_eq(fl_stewart_lcp_build(&b.p, NULL, A, bq, &e), FL_EDIM);
    gsl_vector *vp = gsl_vector_alloc(2), *P = gsl_vector_alloc(2);
    cr_assert_eq(fl_stewart_lcp_recover(&b.p, NULL, bq, vp, P, NULL, &e), FL_EDIM);
    cr_assert_eq(fl_stewart_lcp_recover(&b.p, NULL, z, NULL, P, NULL, &e), FL_EDIM);
    double viol;
    cr_assert_eq(fl_stewart_coulomb_violation(&b.p, NULL, vp, P, NULL, &e), FL_EINVAL);
    cr_assert_eq(fl_stewart_coulomb_violation(&b.p, NULL, vp, z, &viol, &e), FL_EDIM);
    fl_stewart_problem ph = b.p;
    ph.H = NULL;
    cr_assert_eq(fl_stewart_coulomb_violation(&ph, NULL, vp, P, &viol, &e), FL_EINVAL);
    cr_assert_eq(fl_stewart_lcp_recover(&ph, NULL, z, vp, P, NULL, &e), FL_EINVAL);
    fl_stewart_problem p0 = b.p;
    p0.nc = 0;
    cr_assert_eq(fl_stewart_lcp_build(&p0, NULL, A, bq, &e), FL_EDIM);
    cr_assert_eq(fl_stewart_coulomb_violation(&p0, NULL, vp, P, &viol, &e), FL_OK);
    cr_assert_float_eq(viol, 0.0, 0.0);
    gsl_matrix_free(A);
    gsl_vector_free(bq);
    gsl_vector_free(z);
    gsl_vector_free(vp);
    gsl_vector_free(P);
    fl_stewart_result_free(NULL);
    cr_assert_eq(fl_stewart_directions(2, NULL), 2);
    cr_assert_eq(fl_stewart_directions(3, NULL), 8);
    fl_stewart_check_bar_free(&b);
}

Test(stewart_law, optimized_takes_sparse_inputs)
{
    /* The optimized step reads Ms, Hs (CHOLMOD, caller's context) without
     * the dense M, H and gives the reference result. */
    gsl_rng *rng = fl_test_rng(31);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int t = 0; t < 20; t++) {
        rnd_case c;
        rnd_setup(rng, &c);
        fl_stewart_options o = fl_stewart_options_default();
        o.k = 6;
        fl_stewart_result *a = fl_stewart_result_alloc(c.n, c.nc, c.dim, &o);
        fl_stewart_result *b = fl_stewart_result_alloc(c.n, c.nc, c.dim, &o);
        cr_assert_eq(fl_stewart_step(&c.p, &o, a, NULL), FL_OK, "%s", fl_test_seed_note());
        fl_stewart_problem ps = c.p;
        cr_assert_eq(fl_sparse_from_dense(&ctx, c.M, 1, 0.0, &ps.Ms, NULL), FL_OK);
        cr_assert_eq(fl_sparse_from_dense(&ctx, c.H, 0, 0.0, &ps.Hs, NULL), FL_OK);
        ps.sctx = &ctx;
        ps.M = NULL;
        ps.H = NULL;
        cr_assert_eq(fl_stewart_step_sparse(&ps, &o, b, NULL), FL_OK, "%s", fl_test_seed_note());
        cr_assert(b->coulomb <= 1e-9);
        double d = 0.0;
        for (size_t i = 0; i < c.n; i++)
            d = fmax(d, fabs(gsl_vector_get(a->v_plus, i) - gsl_vector_get(b->v_plus, i)));
        cr_assert(d <= 1e-8 || a->iterations != b->iterations, "|dv+| = %g; %s", d,
                  fl_test_seed_note());
        /* wrong sparse sizes */
        fl_error e;
        ps.n = c.n;
        cholmod_sparse *Hs = ps.Hs;
        ps.Hs = ps.Ms;                       /* n x n instead of dim nc x n */
        if (c.dim * c.nc != c.n) cr_assert_eq(fl_stewart_step_sparse(&ps, &o, b, &e), FL_EDIM);
        ps.Hs = Hs;
        cholmod_sparse *Ms = ps.Ms;
        ps.Ms = Hs;                          /* unsymmetric storage */
        cr_assert_eq(fl_stewart_step_sparse(&ps, &o, b, &e), FL_EDIM);
        ps.Ms = Ms;
        fl_sparse_free(&ctx, &ps.Ms);
        fl_sparse_free(&ctx, &ps.Hs);
        fl_stewart_result_free(a);
        fl_stewart_result_free(b);
        fl_random_stewart_free(&c);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

/* A particle (mass m) above the plane z = 0 under gravity: 3D callbacks. */
typedef struct particle { double m, g; } particle;

static fl_status pt_mass(void *data, const gsl_vector *q, gsl_matrix *M, fl_error *err)
{
    const particle *p = data;
    (void)q;
    (void)err;
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, p->m);
    return FL_OK;
}

static fl_status pt_force(void *data, double t, const gsl_vector *q, const gsl_vector *v,
                          gsl_vector *f, fl_error *err)
{
    const particle *p = data;
    (void)t;
    (void)q;
    (void)v;
    (void)err;
    gsl_vector_set_zero(f);
    gsl_vector_set(f, 2, -p->m * p->g);
    return FL_OK;
}

static fl_status pt_contacts(void *data, const gsl_vector *q, gsl_vector *gap, gsl_matrix *H,
                             fl_error *err)
{
    (void)data;
    (void)err;
    gsl_vector_set(gap, 0, gsl_vector_get(q, 2));     /* height */
    gsl_matrix_set_zero(H);
    gsl_matrix_set(H, 0, 2, 1.0);                      /* normal e_z */
    gsl_matrix_set(H, 1, 0, 1.0);                      /* tangents e_x, e_y */
    gsl_matrix_set(H, 2, 1, 1.0);
    return FL_OK;
}

typedef struct pt_log { double min_z, max_speed_increase, last_speed; size_t steps; } pt_log;

static int pt_observe(void *data, size_t step, double t, const gsl_vector *q,
                      const fl_stewart_result *r)
{
    pt_log *lg = data;
    (void)step;
    (void)t;
    double s = hypot(gsl_vector_get(r->v_plus, 0), gsl_vector_get(r->v_plus, 1));
    lg->min_z = fmin(lg->min_z, gsl_vector_get(q, 2));
    lg->max_speed_increase = fmax(lg->max_speed_increase, s - lg->last_speed);
    lg->last_speed = s;
    lg->steps++;
    return 0;
}

Test(stewart_law, particle_drop_and_slide_3d_time_stepping)
{
    /* Dropped from z = 0.05 with horizontal speed (1, 0.5): free flight,
     * an inelastic landing (the gap/h term: never below the plane, v_z = 0
     * after), then sliding.  Over N steps ending at rest vertically, the
     * normal impulses sum to m g h N (vertical momentum balance), so while
     * the particle slides the friction impulses, of length between
     * mu p cos(pi/k) and mu p (inscribed k-gon, maximal dissipation), take
     * away between ~cos(pi/k) mu g h N and mu g h N of horizontal speed; it
     * never grows. */
    particle pa = {2.0, 9.81};
    double mu = 0.4, h = 0.01;
    size_t N = 25;
    fl_stewart_system sys = {3, 1, 3, &mu, &pa, pt_mass, pt_force, pt_contacts};
    gsl_vector *q = gsl_vector_calloc(3), *v = gsl_vector_calloc(3);
    gsl_vector_set(q, 2, 0.05);
    gsl_vector_set(v, 0, 1.0);
    gsl_vector_set(v, 1, 0.5);
    double s0 = hypot(1.0, 0.5);
    pt_log lg = {INFINITY, -INFINITY, s0, 0};
    fl_stewart_run run;
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.0, h, N, q, v, pt_observe, &lg, &run, NULL), FL_OK);
    cr_assert_eq(lg.steps, N);
    cr_assert(lg.min_z >= -1e-12, "penetration %g", lg.min_z);
    cr_assert(lg.max_speed_increase <= 1e-12, "tangential speed grew by %g", lg.max_speed_increase);
    cr_assert(fabs(gsl_vector_get(v, 2)) <= 1e-12, "v_z after landing %g", gsl_vector_get(v, 2));
    double s = hypot(gsl_vector_get(v, 0), gsl_vector_get(v, 1));
    double lost = s0 - s, X = mu * pa.g * h * (double)N;
    cr_log_info("particle: speed lost %.6f of mu g h N = %.6f (ratio %.4f, cos(pi/8) = %.4f)", lost, X,
                lost / X, cos(FL_PI / 8));
    cr_assert(s > 0.0 && lost <= X * (1 + 1e-12) && lost >= 0.9 * cos(FL_PI / 8) * X,
              "speed lost %g, mu g h N = %g", lost, X);
    cr_assert(run.coulomb <= 1e-9);
    /* long enough: rest (stick) */
    cr_assert_eq(fl_stewart_integrate(&sys, NULL, 0.6, h, 100, q, v, NULL, NULL, &run, NULL), FL_OK);
    cr_assert(hypot(gsl_vector_get(v, 0), gsl_vector_get(v, 1)) <= 1e-12);
    gsl_vector_free(q);
    gsl_vector_free(v);
}

/* ------------------------------------------------------------------ */
/* The checks of checks/stewart_checks.c fed a corrupted input: each   */
/* must report FAIL, and PASS on the data as it is.                    */
/* ------------------------------------------------------------------ */
#include "check_capture.h"
#include "checks/fl_tasks.h"

Test(stewart_checks, oracles_catch_a_perturbed_step)
{
    gsl_rng *rng = fl_test_rng(4242);
    fl_stewart_options o = fl_stewart_options_default();
    long caught_balance = 0, caught_enum = 0, tried_enum = 0;
    for (int t = 0; t < 40; t++) {
        fl_random_stewart s;
        cr_assert_eq(fl_random_stewart_problem(rng, t % 2 == 0, 100.0, &s), FL_OK);
        fl_stewart_result *r = fl_stewart_result_alloc(s.n, s.nc, s.dim, &o);
        cr_assert_eq(fl_stewart_step(&s.p, &o, r, NULL), FL_OK);
        cr_assert_leq(fl_stewart_check_balance(&s.p, r), 1e-10);
        /* a perturbed v+: the momentum balance no longer holds */
        gsl_vector_set(r->v_plus, 0, gsl_vector_get(r->v_plus, 0) + 0.1);
        caught_balance += fl_stewart_check_balance(&s.p, r) > 1e-3;
        /* a perturbed LCP solution: not among the enumerated ones */
        if (r->lcp_size <= 12) {
            tried_enum++;
            fl_stewart_enum_stats es;
            cr_assert_eq(fl_stewart_check_enumeration(&s.p, &o, r, &es, NULL), FL_OK);
            cr_assert(es.found || es.distinct >= 2, "the true z: %s", fl_test_seed_note());
            for (size_t j = 0; j < r->z->size; j++) gsl_vector_set(r->z, j, gsl_vector_get(r->z, j) + 0.5);
            cr_assert_eq(fl_stewart_check_enumeration(&s.p, &o, r, &es, NULL), FL_OK);
            caught_enum += !es.found;
        }
        fl_stewart_result_free(r);
        fl_random_stewart_free(&s);
    }
    cr_assert_eq(caught_balance, 40, "%s", fl_test_seed_note());
    cr_assert(tried_enum > 0 && caught_enum == tried_enum, "%ld of %ld; %s", caught_enum, tried_enum,
              fl_test_seed_note());
    gsl_rng_free(rng);
}

Test(stewart_checks, crosscheck_and_painleve_p5_pass_and_fail_on_a_wrong_value, .timeout = 120)
{
    capture c;
    fl_check_ctx ctx = capture_ctx(&c);
    ctx.systems = 40;
    cr_assert_eq(fl_stewart_crosscheck(&ctx), 0, "%s", c.message);
    cr_assert(ctx.passed > 0 && ctx.failed == 0, "%ld failed", ctx.failed);
    capture_cleanup(&c);
    ctx = capture_ctx(&c);
    cr_assert_eq(fl_stewart_reproduce_painleve(&ctx), 0, "%s", c.message);
    cr_assert(ctx.passed == 4 && ctx.failed == 0, "%ld passed, %ld failed", ctx.passed, ctx.failed);
    capture_cleanup(&c);
    /* mu_small above -1/tan(theta0) = sqrt 3: no sliding closed form, and
     * the "unique" grazing step has two solutions */
    ctx = capture_ctx(&c);
    ctx.data_dir = capture_data_dir(&c, "painleve_p5.json", NULL, "mu_small", "2.5");
    cr_assert_eq(fl_stewart_reproduce_painleve(&ctx), 0, "%s", c.message);
    cr_assert_eq(capture_kind(&c, "painleve_p5.slide_mu_small"), FL_CHECK_FAIL);
    capture_cleanup(&c);
    ctx = capture_ctx(&c);
    ctx.systems = 4;
    ctx.data_dir = capture_data_dir(&c, "painleve_p5.json", NULL, "mu_small", "2.5");
    cr_assert_eq(fl_stewart_crosscheck(&ctx), 0, "%s", c.message);
    cr_assert_eq(capture_kind(&c, "painleve.grazing_unique_mu_below"), FL_CHECK_FAIL);
    cr_assert_eq(capture_kind(&c, "painleve.sliding_mu_below"), FL_CHECK_FAIL);
    capture_cleanup(&c);
    /* mu_large below sqrt 3: one grazing solution, not two */
    ctx = capture_ctx(&c);
    ctx.data_dir = capture_data_dir(&c, "painleve_p5.json", NULL, "mu_large", "1.0");
    cr_assert_eq(fl_stewart_reproduce_painleve(&ctx), 0, "%s", c.message);
    cr_assert_eq(capture_kind(&c, "painleve_p5.grazing_mu_large_indeterminate"), FL_CHECK_FAIL);
    cr_assert_eq(capture_kind(&c, "painleve_p5.catastrophe_mu_large"), FL_CHECK_FAIL);
    capture_cleanup(&c);
    /* a bad file names the field; a missing one is an error */
    ctx = capture_ctx(&c);
    ctx.data_dir = capture_data_dir(&c, "painleve_p5.json", NULL, "steps", "\"many\"");
    cr_assert_eq(fl_stewart_reproduce_painleve(&ctx), -1);
    cr_assert(strstr(c.message, "params.steps"), "%s", c.message);
    ctx.data_dir = c.dir;
    cr_assert_eq(fl_stewart_crosscheck(&ctx), -1);
    capture_cleanup(&c);
}
