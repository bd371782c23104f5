/* test_moreau_law_sparse.c — the twins of Moreau's law (000 §2),
 * reference/moreau_law.c and optimized/moreau_law_sparse.c, refuse and
 * accept alike: one good problem (d = 3, M SPD with coupling, a disc
 * friction set of the tangent plane), then one field broken or pushed to
 * its border at a time; both twins must return the same status, and a
 * refusal must name the field.  Expected statuses are the ones 000 (H1)-(H3)
 * and the fl_status vocabulary call for, written per case below. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/moreau_law.h"
#include "optimized/moreau_law_sparse.h"

typedef struct good {
    double M[9], Msmall[4], dgap[3], v[3], T[6], Tbad[9], Tnan[6], vsmall[2];
    double square[8], square_nan[8], off_square[8], two[4], ray[2];
} good;

static const good G = {
    .M = {2, 0.5, 0, 0.5, 2, 0, 0, 0, 1},
    .Msmall = {1, 0, 0, 1},
    .dgap = {0, 0, 1},
    .v = {3, 4, -1},
    .T = {1, 0, 0, 1, 0, 0},
    .Tbad = {1, 0, 0, 0, 1, 0, 0, 0, 1},
    .Tnan = {1, 0, 0, NAN, 0, 0},
    .vsmall = {1, 1},
    .square = {-1, -1, 1, -1, 1, 1, -1, 1},
    .square_nan = {-1, -1, NAN, -1, 1, 1, -1, 1},
    .off_square = {1, 1, 2, 1, 2, 2, 1, 2},
    .two = {-1, 0, 1, 0},
    .ray = {1, 0},
};

typedef enum field {
    F_GOOD, F_D0, F_V_NULL, F_DGAP_NULL, F_V_SIZE, F_V_NAN, F_DGAP_INF, F_GAP_NAN, F_DGAP_ZERO,
    F_M_SIZE, F_MU_NEG, F_MU_NAN, F_MU_ZERO, F_SET_NULL, F_DISC_DIM3, F_DISC_NEG, F_INTERVAL_DIM2,
    F_INTERVAL_UNBOUNDED, F_INTERVAL_NO_ZERO, F_POLY_DIM1, F_POLY_RAY, F_POLY_TWO, F_POLY_NAN,
    F_POLY_NO_ZERO, F_SET_KIND, F_T_NULL, F_T_SIZE, F_T_NAN, F_SET_DIM_D, F_KIND, F_FREE,
    F_GRAZING, F_POLY_GOOD, F_INTERVAL_GOOD, F_FRICTIONLESS, NFIELD
} field;

typedef struct twin_case {
    field f;
    const char *what;
    fl_status want;
    const char *names;   /* the message must contain this (refusals) */
} twin_case;

static const twin_case cases[] = {
    {F_GOOD, "good problem (collision, disc set)", FL_OK, NULL},
    {F_D0, "d = 0", FL_EINVAL, "dimension"},
    {F_V_NULL, "v NULL", FL_EINVAL, "v or dgap"},
    {F_DGAP_NULL, "dgap NULL", FL_EINVAL, "v or dgap"},
    {F_V_SIZE, "v of length 2", FL_EDIM, "v (2)"},
    {F_V_NAN, "NaN in v", FL_ENONFINITE, "v"},
    {F_DGAP_INF, "Inf in dgap", FL_ENONFINITE, "dgap"},
    {F_GAP_NAN, "gap NaN", FL_ENONFINITE, "gap"},
    {F_DGAP_ZERO, "dgap = 0 (000 (H2))", FL_EINVAL, "gradient of the gap"},
    {F_M_SIZE, "M 2 x 2", FL_EDIM, "M"},
    {F_MU_NEG, "isotropic mu = -1", FL_EINVAL, "mu = -1"},
    {F_MU_NAN, "isotropic mu NaN", FL_EINVAL, "mu = nan"},
    {F_MU_ZERO, "isotropic mu = 0 (borderline: frictionless)", FL_OK, NULL},
    {F_SET_NULL, "friction set NULL", FL_EINVAL, "friction set is NULL"},
    {F_DISC_DIM3, "disc of dimension 3", FL_EINVAL, "dimension 3"},
    {F_DISC_NEG, "disc radius -0.5", FL_EINVAL, "disc radius"},
    {F_INTERVAL_DIM2, "interval of dimension 2", FL_EINVAL, "interval friction set must have dim 1"},
    {F_INTERVAL_UNBOUNDED, "interval ]-inf, 1] (000 (H3))", FL_EINVAL, "unbounded"},
    {F_INTERVAL_NO_ZERO, "interval [0.5, 1] without 0", FL_EINVAL, "does not contain 0"},
    {F_POLY_DIM1, "polygon of dimension 1", FL_EINVAL, "polygon friction set must have dim 2"},
    {F_POLY_RAY, "polygon with a recession ray", FL_EINVAL, "unbounded"},
    {F_POLY_TWO, "polygon of 2 vertices", FL_EUNSUPPORTED, "2 < 3 vertices"},
    {F_POLY_NAN, "polygon vertex NaN", FL_ENONFINITE, "vertex 1"},
    {F_POLY_NO_ZERO, "polygon [1,2]^2 without 0", FL_EINVAL, "does not contain 0"},
    {F_SET_KIND, "set kind 42", FL_EINVAL, "kind 42"},
    {F_T_NULL, "tangent basis NULL", FL_EINVAL, "tangent basis is NULL"},
    {F_T_SIZE, "tangent basis 3 x 3 for a 2-D set", FL_EDIM, "tangent basis is 3x3"},
    {F_T_NAN, "NaN in the tangent basis", FL_ENONFINITE, "tangent basis"},
    {F_SET_DIM_D, "2-D set with d = 2", FL_EDIM, "needs d > 2"},
    {F_KIND, "friction kind 9", FL_EINVAL, "friction kind 9"},
    {F_FREE, "gap > 0 (free flight, borderline)", FL_OK, NULL},
    {F_GRAZING, "gap = 0, <v, n> = 0 (grazing, borderline)", FL_OK, NULL},
    {F_POLY_GOOD, "square polygon set", FL_OK, NULL},
    {F_INTERVAL_GOOD, "interval set on a 1-D tangent", FL_OK, NULL},
    {F_FRICTIONLESS, "frictionless", FL_OK, NULL},
};

/* Evaluate case c with implementation impl (0 reference, 1 sparse). */
static fl_status run_case(const twin_case *c, int impl, fl_error *err)
{
    good g = G;
    size_t d = 3;
    gsl_matrix_view M = gsl_matrix_view_array(g.M, 3, 3);
    gsl_matrix_view Msmall = gsl_matrix_view_array(g.Msmall, 2, 2);
    gsl_vector_view dgap = gsl_vector_view_array(g.dgap, 3), v = gsl_vector_view_array(g.v, 3);
    gsl_vector_view vsmall = gsl_vector_view_array(g.vsmall, 2);
    gsl_matrix_view T = gsl_matrix_view_array(g.T, 3, 2), Tbad = gsl_matrix_view_array(g.Tbad, 3, 3);
    gsl_matrix_view Tnan = gsl_matrix_view_array(g.Tnan, 3, 2);
    gsl_matrix_view T1 = gsl_matrix_view_array(g.T, 3, 1);
    fl_friction_set C;
    memset(&C, 0, sizeof C);
    C.kind = FL_SET_DISC;
    C.dim = 2;
    C.mu = 0.5;
    fl_moreau_problem p = {.d = d, .M = &M.matrix, .gap = -0.5, .dgap = &dgap.vector,
                           .friction = FL_MOREAU_SET, .mu = 0.5, .tangent = &T.matrix, .C = &C,
                           .v = &v.vector};
    switch (c->f) {
    case F_GOOD: break;
    case F_D0: p.d = 0; break;
    case F_V_NULL: p.v = NULL; break;
    case F_DGAP_NULL: p.dgap = NULL; break;
    case F_V_SIZE: p.v = &vsmall.vector; break;
    case F_V_NAN: g.v[1] = NAN; break;
    case F_DGAP_INF: g.dgap[0] = INFINITY; break;
    case F_GAP_NAN: p.gap = NAN; break;
    case F_DGAP_ZERO: g.dgap[2] = 0; break;
    case F_M_SIZE: p.M = &Msmall.matrix; break;
    case F_MU_NEG: p.friction = FL_MOREAU_ISOTROPIC; p.mu = -1; break;
    case F_MU_NAN: p.friction = FL_MOREAU_ISOTROPIC; p.mu = NAN; break;
    case F_MU_ZERO: p.friction = FL_MOREAU_ISOTROPIC; p.mu = 0; break;
    case F_SET_NULL: p.C = NULL; break;
    case F_DISC_DIM3: C.dim = 3; break;
    case F_DISC_NEG: C.mu = -0.5; break;
    case F_INTERVAL_DIM2: C.kind = FL_SET_INTERVAL; C.lo = -1; C.hi = 1; break;
    case F_INTERVAL_UNBOUNDED: C.kind = FL_SET_INTERVAL; C.dim = 1; C.lo = -INFINITY; C.hi = 1; break;
    case F_INTERVAL_NO_ZERO: C.kind = FL_SET_INTERVAL; C.dim = 1; C.lo = 0.5; C.hi = 1; break;
    case F_POLY_DIM1: C.kind = FL_SET_POLYGON; C.dim = 1; break;
    case F_POLY_RAY:
        C.kind = FL_SET_POLYGON; C.nvert = 4; C.vert = g.square; C.nray = 1; C.ray = g.ray; break;
    case F_POLY_TWO: C.kind = FL_SET_POLYGON; C.nvert = 2; C.vert = g.two; break;
    case F_POLY_NAN: C.kind = FL_SET_POLYGON; C.nvert = 4; C.vert = g.square_nan; break;
    case F_POLY_NO_ZERO: C.kind = FL_SET_POLYGON; C.nvert = 4; C.vert = g.off_square; break;
    case F_SET_KIND: C.kind = (fl_friction_set_kind)42; break;
    case F_T_NULL: p.tangent = NULL; break;
    case F_T_SIZE: p.tangent = &Tbad.matrix; break;
    case F_T_NAN: p.tangent = &Tnan.matrix; break;
    case F_SET_DIM_D:
        p.d = 2; p.M = &Msmall.matrix; p.v = &vsmall.vector; p.dgap = &vsmall.vector;
        p.tangent = &Msmall.matrix; break;
    case F_KIND: p.friction = (fl_moreau_friction)9; break;
    case F_FREE: p.gap = 0.5; break;
    case F_GRAZING: p.gap = 0; g.v[2] = 0; break;
    case F_POLY_GOOD: C.kind = FL_SET_POLYGON; C.nvert = 4; C.vert = g.square; break;
    case F_INTERVAL_GOOD:
        C.kind = FL_SET_INTERVAL; C.dim = 1; C.lo = -0.2; C.hi = 0.4; p.tangent = &T1.matrix; break;
    case F_FRICTIONLESS: p.friction = FL_MOREAU_FRICTIONLESS; break;
    case NFIELD: break;
    }
    double ud[3] = {0}, rd[3] = {0};
    gsl_vector_view u = gsl_vector_view_array(ud, p.d ? (p.d < 3 ? p.d : 3) : 1);
    gsl_vector_view r = gsl_vector_view_array(rd, p.d ? (p.d < 3 ? p.d : 3) : 1);
    fl_moreau_result res;
    fl_error_clear(err);
    if (impl == 0) return fl_moreau_law(&p, NULL, &u.vector, &r.vector, &res, err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cholmod_sparse *Ms = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p.M, 1, 0.0, &Ms, NULL), FL_OK);
    fl_moreau_problem q = p;
    q.M = NULL;
    q.Msp = Ms;
    q.ctx = &ctx;
    fl_status s = fl_moreau_law_sparse(&q, NULL, &u.vector, &r.vector, &res, err);
    fl_sparse_free(&ctx, &Ms);
    fl_sparse_finish(&ctx);
    return s;
}

Test(moreau_law_sparse, twins_refuse_and_accept_alike)
{
    size_t n = sizeof cases / sizeof *cases;
    cr_assert_eq(n, NFIELD, "one case per field");
    for (size_t k = 0; k < n; k++) {
        const twin_case *c = &cases[k];
        fl_error e[2];
        fl_status s[2];
        for (int impl = 0; impl < 2; impl++) s[impl] = run_case(c, impl, &e[impl]);
        cr_assert_eq(s[0], s[1], "%s: reference %d (%s), sparse %d (%s)", c->what, s[0],
                     e[0].message, s[1], e[1].message);
        cr_assert_eq(s[0], c->want, "%s: status %d, want %d (%s)", c->what, s[0], c->want,
                     e[0].message);
        if (c->names)
            for (int impl = 0; impl < 2; impl++)
                cr_assert(strstr(e[impl].message, c->names), "%s (%s): '%s' should name '%s'",
                          c->what, impl ? "sparse" : "reference", e[impl].message, c->names);
    }
}
