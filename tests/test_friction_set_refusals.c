/* test_friction_set_refusals.c — the guards of core/fl_friction_set.c: a friction
 * set not built by the fl_set_* constructors (each field corrupted in turn)
 * is refused by every public entry (status FL_EINVAL naming the function,
 * or 0 from the predicates, never an answer); the metric projection's
 * checks of G; the Coulomb predicates' argument checks; the G-projection
 * onto the disc of radius 0 (closed form: the origin). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_friction_set.h"

static void expect_refused(const fl_friction_set *C, const char *what)
{
    double x[2] = {0.3, -0.2}, p[2] = {9, 9}, s = -1;
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_friction_set_project(C, x, p, &err), FL_EINVAL, "%s: project", what);
    cr_assert(strstr(err.message, "not a valid friction set"), "%s: %s", what, err.message);
    double G[4] = {1, 0, 0, 1};
    cr_assert_eq(fl_friction_set_project_metric(C, G, x, p, &err), FL_EINVAL, "%s: project_metric", what);
    cr_assert_eq(fl_friction_set_support(C, x, &s), 0, "%s: support", what);
    cr_assert_eq(fl_friction_set_support_point(C, x, p, &err), FL_EINVAL, "%s: support_point", what);
    cr_assert_eq(fl_friction_set_contains(C, x, 1e-9), 0, "%s: contains", what);
    double r[2] = {0, 0}, v[2] = {0, 0};
    cr_assert_eq(fl_friction_set_normality(C, 1.0, r, v, 1e-9), 0, "%s: normality", what);
    cr_assert_eq(fl_friction_set_max_dissipation(C, 1.0, r, v, 1e-9), 0, "%s", what);
    cr_assert_eq(fl_friction_set_variational(C, 1.0, r, v, 1e-9), 0, "%s", what);
    double y[3] = {1, 0.1, 0.1}, q[3];
    cr_assert_eq(fl_friction_set_cone_project(C, y, q, &err), FL_EINVAL, "%s: cone_project", what);
    cr_assert_eq(fl_friction_set_cone_project_polar(C, y, q, &err), FL_EINVAL, "%s: cone_project_polar", what);
}

Test(cov_io_sets, sets_not_built_by_the_constructors_are_refused)
{
    double vert[2] = {0, 0}, ray[2] = {1, 0};
    fl_friction_set C;
    memset(&C, 0, sizeof C);
    C.kind = (fl_friction_set_kind)9;
    C.dim = 1;
    expect_refused(&C, "unknown kind");
    cr_assert_eq(fl_friction_set_project(NULL, vert, ray, NULL), FL_EINVAL);
    /* discs */
    cr_assert_eq(fl_friction_set_disc(&C, 2, 0.5, NULL), FL_OK);
    C.dim = 3;
    expect_refused(&C, "disc of dimension 3");
    C.dim = 2;
    C.mu = NAN;
    expect_refused(&C, "disc of radius NaN");
    C.mu = -1;
    expect_refused(&C, "disc of radius -1");
    /* intervals */
    cr_assert_eq(fl_friction_set_interval(&C, -1, 2, NULL), FL_OK);
    C.dim = 2;
    expect_refused(&C, "interval in 2D");
    C.dim = 1;
    C.lo = NAN;
    expect_refused(&C, "interval from NaN");
    C.lo = -1;
    C.hi = NAN;
    expect_refused(&C, "interval to NaN");
    C.lo = 3;
    C.hi = 2;
    expect_refused(&C, "interval [3, 2]");
    C.lo = C.hi = INFINITY;
    expect_refused(&C, "interval [inf, inf]");
    C.lo = C.hi = -INFINITY;
    expect_refused(&C, "interval [-inf, -inf]");
    /* polygons: the fields of a half-line {(0,0) + t (1,0)} */
    fl_friction_set P;
    cr_assert_eq(fl_friction_set_polygon(&P, 1, vert, 1, ray, NULL), FL_OK);
    static const char *const what[5] = {"polygon in 1D", "polygon without vertices",
                                        "polygon with NULL vertices", "polygon with 3 rays",
                                        "polygon with a NULL ray"};
    for (int k = 0; k < 5; k++) {
        fl_friction_set Q = P;
        switch (k) {
        case 0: Q.dim = 1; break;
        case 1: Q.nvert = 0; break;
        case 2: Q.vert = NULL; break;
        case 3: Q.nray = 3; break;
        default: Q.ray = NULL; break;
        }
        expect_refused(&Q, what[k]);
    }
    fl_friction_set_release(&P);
}

Test(cov_io_sets, metric_and_law_argument_checks)
{
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_disc(&C, 2, 0.5, NULL), FL_OK);
    double x[2] = {2, 1}, p[2];
    fl_error err;
    double indefinite[4] = {1, 2, 2, 1}, zero00[4] = {0, 0, 0, 1}, nonsym[4] = {1, 0.5, 0, 1},
           nan[4] = {1, NAN, NAN, 1};
    cr_assert_eq(fl_friction_set_project_metric(&C, indefinite, x, p, &err), FL_ENOTSPD);
    cr_assert(strstr(err.message, "not positive definite (G00 = 1, det = -3)"), "%s", err.message);
    cr_assert_eq(fl_friction_set_project_metric(&C, zero00, x, p, &err), FL_ENOTSPD);
    cr_assert_eq(fl_friction_set_project_metric(&C, nonsym, x, p, &err), FL_ENOTSPD);
    cr_assert(strstr(err.message, "not symmetric"), "%s", err.message);
    cr_assert_eq(fl_friction_set_project_metric(&C, nan, x, p, &err), FL_ENONFINITE);
    cr_assert_eq(fl_friction_set_project_metric(&C, NULL, x, p, &err), FL_EINVAL);
    /* 1D: G must be a positive number */
    fl_friction_set I;
    cr_assert_eq(fl_friction_set_interval(&I, -1, 1, NULL), FL_OK);
    double gneg = -1;
    cr_assert_eq(fl_friction_set_project_metric(&I, &gneg, x, p, &err), FL_ENOTSPD);
    cr_assert(strstr(err.message, "G = -1 is not > 0"), "%s", err.message);
    /* the disc of radius 0 is the origin, in any metric */
    fl_friction_set Z;
    cr_assert_eq(fl_friction_set_disc(&Z, 2, 0.0, NULL), FL_OK);
    double G[4] = {2, 0.5, 0.5, 1};
    cr_assert_eq(fl_friction_set_project_metric(&Z, G, x, p, &err), FL_OK, "%s", err.message);
    cr_assert(p[0] == 0 && p[1] == 0, "(%g, %g)", p[0], p[1]);
    /* the law's arguments: rn NaN or negative, tol NaN, r or v not finite
     * or missing: no statement can hold */
    double r[2] = {0.1, 0}, v[2] = {0, 0}, rinf[2] = {INFINITY, 0}, vnan[2] = {0, NAN};
    cr_assert_eq(fl_friction_set_normality(&C, 1.0, r, v, 1e-9), 1);   /* stick inside rn C */
    cr_assert_eq(fl_friction_set_normality(&C, NAN, r, v, 1e-9), 0);
    cr_assert_eq(fl_friction_set_normality(&C, -1.0, r, v, 1e-9), 0);
    cr_assert_eq(fl_friction_set_normality(&C, 1.0, r, v, NAN), 0);
    cr_assert_eq(fl_friction_set_normality(&C, 1.0, rinf, v, 1e-9), 0);
    cr_assert_eq(fl_friction_set_normality(&C, 1.0, r, vnan, 1e-9), 0);
    cr_assert_eq(fl_friction_set_normality(&C, 1.0, NULL, v, 1e-9), 0);
    cr_assert_eq(fl_friction_set_variational(&C, 1.0, r, NULL, 1e-9), 0);
    /* 1D disc [-mu, mu]: S(y) = mu |y| */
    fl_friction_set D;
    cr_assert_eq(fl_friction_set_disc(&D, 1, 0.5, NULL), FL_OK);
    double y = -4, s = 0;
    cr_assert_eq(fl_friction_set_support(&D, &y, &s), 1);
    cr_assert_eq(s, 2.0);
}
