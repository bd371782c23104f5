/* test_drivers_refusals.c — the disc time stepper of drivers/discs_step.c and
 * the solution-cloud explorer of drivers/plurality_explore.c on the
 * arguments their tests do not pass: each refusal with its status and
 * message, a cold start (no warm impulses), and a deposit between walls
 * inside a periodic band (the narrower of the two spans is filled: every
 * disc ends inside both). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "drivers/discs_step.h"
#include "drivers/plurality_explore.h"
#include "fl_rng.h"

static fl_discs *two_discs(void)
{
    fl_discs *d = NULL;
    cr_assert_eq(fl_discs_alloc(2, &d, NULL), FL_OK);
    fl_discs_set(d, 0, 0, 0.1, 0.1, 1);
    fl_discs_set(d, 1, 0.3, 0.1, 0.1, 1);
    d->ground = 1;
    d->margin = 0.05;
    return d;
}

Test(cov_io_drivers, disc_stepper_refusals)
{
    fl_error err;
    cr_assert_eq(fl_discs_work_init(NULL, &err), FL_EINVAL);
    fl_discs_work_clear(NULL);
    fl_discs *d = two_discs();
    fl_discs_step_options o = fl_discs_step_options_default();
    fl_discs_work w;
    memset(&w, 0, sizeof w);
    fl_disc_contact *c = NULL;
    size_t nc = 0;
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_discs_local(d, &o, &w, &c, &nc, &p, &err), FL_EINVAL);   /* work not started */
    cr_assert(strstr(err.message, "initialised work"), "%s", err.message);
    cr_assert_eq(fl_discs_work_init(&w, &err), FL_OK);
    cr_assert_eq(fl_discs_local(d, NULL, &w, &c, &nc, &p, &err), FL_EINVAL);
    o.impl = (fl_impl)5;
    cr_assert_eq(fl_discs_local(d, &o, &w, &c, &nc, &p, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown implementation 5"), "%s", err.message);
    o.impl = FL_IMPL_REFERENCE;
    o.h = 0;
    cr_assert_eq(fl_discs_local(d, &o, &w, &c, &nc, &p, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "h must be > 0"), "%s", err.message);
    o.h = INFINITY;
    cr_assert_eq(fl_discs_step(d, &o, &w, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_step(NULL, &o, &w, NULL, &err), FL_EINVAL);
    /* a cold start: two discs resting on the ground, one step of h = 1e-3
     * from rest with gravity: the ground holds them, no velocity gained
     * beyond the tolerance of the solve */
    o = fl_discs_step_options_default();
    o.warm = 0;
    fl_discs_step_result res;
    cr_assert_eq(fl_discs_step(d, &o, &w, &res, &err), FL_OK, "%s", err.message);
    cr_assert_eq(res.ncontacts, 2);
    for (size_t i = 0; i < 2; i++) cr_assert(fabs(d->vy[i]) <= 1e-8, "vy[%zu] = %g", i, d->vy[i]);
    fl_discs_work_clear(&w);
    /* deposit: every required argument */
    gsl_rng *rng = fl_rng_alloc(3);
    int steps = -1;
    cr_assert_eq(fl_discs_deposit(NULL, &o, rng, 10, 1e-6, &steps, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_deposit(d, NULL, rng, 10, 1e-6, &steps, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_deposit(d, &o, NULL, 10, 1e-6, &steps, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 0, 1e-6, &steps, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 10, 0.0, &steps, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "max_steps >= 1, v_tol > 0"), "%s", err.message);
    /* walls at +-1 inside the band [-0.5, 0.5): the discs go in [-0.5, 0.5] */
    d->walls = 1;
    d->wall_left = -1;
    d->wall_right = 1;
    d->periodic = 1;
    d->a = 0.5;
    o.h = 0.01;
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 12, 1e-9, NULL, &err), FL_OK, "%s", err.message);
    for (size_t i = 0; i < 2; i++)
        cr_assert(d->x[i] >= -0.5 && d->x[i] < 0.5, "x[%zu] = %g", i, d->x[i]);
    gsl_rng_free(rng);
    fl_discs_free(d);
}

Test(cov_io_drivers, plurality_refusals)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    gsl_rng *rng = fl_rng_alloc(1);
    fl_plurality_options o = fl_plurality_options_default();
    o.nsgs.rng = rng;
    fl_cloud *c = NULL;
    fl_plurality_result res;
    fl_error err;
    cr_assert_eq(fl_plurality_explore(p, &o, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(res.status, FL_EINVAL);
    cr_assert_eq(fl_plurality_explore(p, NULL, &c, NULL, &err), FL_EINVAL);
    o.dedup_tol = 0;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "dedup_tol > 0"), "%s", err.message);
    o = fl_plurality_options_default();
    o.nsgs.rng = rng;
    o.impl = (fl_impl)4;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown implementation 4"), "%s", err.message);
    o.impl = FL_IMPL_REFERENCE;
    p->mu[0] = NAN;
    cr_assert_eq(fl_plurality_explore(p, &o, &c, &res, &err), FL_ENONFINITE);
    cr_assert_eq(res.status, FL_ENONFINITE);
    cr_assert_null(c);
    gsl_rng_free(rng);
    fl_local_problem_free(p);
}
