/* test_p4_law_sparse.c — edge cases of the P'4 step (001 §3-§5) through
 * both twins, reference/p4_law.c and optimized/p4_law_sparse.c, against
 * closed forms written here:
 *   - no constraint (m = 0): v+ = v- + M^-1 (h f), reaction R = 0;
 *   - one frictionless constraint with an impact and Newton's law
 *     (001 §5 comment 1): D v+ = -e D v-, and v+ - v- is M-orthogonal to
 *     the tangent space, so v+ = v- - (1 + e) (D v-) / (D M^-1 D^T) M^-1 D^T
 *     and R = M (v+ - v-) = -(1 + e) (D v-) / (D M^-1 D^T) D^T;
 *   - the degenerate friction set C* = {0} (interval [0, 0]) gives the
 *     frictionless answer. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_sparse.h"
#include "reference/p4_law.h"
#include "optimized/p4_law_sparse.h"
#include "drivers/fl_types.h"

static const char *const names[2] = {"reference", "optimized"};

/* M = [2 .5 0; .5 1 0; 0 0 4] (SPD), M^-1 written out: det = 1.75 * 4 = 7 */
static const double Md[9] = {2, 0.5, 0, 0.5, 1, 0, 0, 0, 4};
static const double Minv[9] = {1 / 1.75, -0.5 / 1.75, 0, -0.5 / 1.75, 2 / 1.75, 0, 0, 0, 0.25};

static void mv(const double *A, const double *x, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

Test(p4_law_sparse, no_constraint_is_free_flight)
{
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cholmod_sparse *Ms = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, &M.matrix, 1, 0.0, &Ms, NULL), FL_OK);
    fl_p4_problem p = {3, 0, &M.matrix, Ms, &ctx, NULL, NULL};
    double vd[3] = {1, -2, 0.5}, fd[3] = {0.3, 0.1, -0.8}, want[3];
    mv(Minv, fd, want);
    for (int i = 0; i < 3; i++) want[i] += vd[i];
    gsl_vector_const_view v = gsl_vector_const_view_array(vd, 3), f = gsl_vector_const_view_array(fd, 3);
    for (int k = 0; k < 2; k++) {
        fl_p4_step_result *r = fl_p4_step_result_alloc(3, 0);
        fl_error e;
        cr_assert_eq(fl_p4_types[k].step(&p, &v.vector, &f.vector, NULL, NULL, r, &e), FL_OK, "%s: %s",
                     names[k], e.message);
        cr_assert_eq(r->impact, 0);
        for (int i = 0; i < 3; i++) {
            cr_assert_float_eq(gsl_vector_get(r->v_plus, i), want[i], 1e-13, "%s v+[%d]", names[k], i);
            cr_assert_float_eq(gsl_vector_get(r->R, i), 0.0, 1e-13, "%s R[%d]", names[k], i);
        }
        fl_p4_step_result_free(r);
    }
    fl_sparse_free(&ctx, &Ms);
    fl_sparse_finish(&ctx);
}

Test(p4_law_sparse, frictionless_newton_impact_and_degenerate_set)
{
    gsl_matrix_const_view M = gsl_matrix_const_view_array(Md, 3, 3);
    const double Dd[3] = {0.3, 1, 0};
    gsl_matrix_const_view D = gsl_matrix_const_view_array(Dd, 1, 3);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cholmod_sparse *Ms = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, &M.matrix, 1, 0.0, &Ms, NULL), FL_OK);
    /* E must lie in T*: E M^-1 D^T = 0; take E = (0, 0, 1) (M^-1 D^T has no
     * third component) */
    const double Ed[3] = {0, 0, 1};
    gsl_matrix_const_view E = gsl_matrix_const_view_array(Ed, 1, 3);
    fl_p4_friction C;
    memset(&C, 0, sizeof C);
    cr_assert_eq(fl_friction_set_interval(&C.set, 0.0, 0.0, NULL), FL_OK);
    C.E = &E.matrix;
    const double e = 0.5, vd[3] = {0.2, -1.0, 0.7};
    double WDt[3], want[3], Rwant[3];
    mv(Minv, Dd, WDt);
    double Dv = Dd[0] * vd[0] + Dd[1] * vd[1] + Dd[2] * vd[2];
    double DWD = Dd[0] * WDt[0] + Dd[1] * WDt[1] + Dd[2] * WDt[2];
    for (int i = 0; i < 3; i++) {
        want[i] = vd[i] - (1 + e) * Dv / DWD * WDt[i];
        Rwant[i] = -(1 + e) * Dv / DWD * Dd[i];
    }
    gsl_vector_const_view v = gsl_vector_const_view_array(vd, 3);
    fl_p4_impact_law law = {FL_P4_IMPACT_NEWTON, e, NULL, NULL, NULL};
    for (int set = 0; set <= 1; set++) {
        fl_p4_problem p = {3, 1, &M.matrix, Ms, &ctx, &D.matrix, set ? &C : NULL};
        for (int k = 0; k < 2; k++) {
            fl_p4_step_result *r = fl_p4_step_result_alloc(3, 1);
            fl_error err;
            cr_assert_eq(fl_p4_types[k].step(&p, &v.vector, NULL, &law, NULL, r, &err), FL_OK, "%s: %s",
                         names[k], err.message);
            cr_assert_eq(r->impact, 1, "%s: D v- < 0 is an impact", names[k]);
            for (int i = 0; i < 3; i++) {
                cr_assert_float_eq(gsl_vector_get(r->v_plus, i), want[i], 1e-12, "%s set %d v+[%d]",
                                   names[k], set, i);
                cr_assert_float_eq(gsl_vector_get(r->R, i), Rwant[i], 1e-12, "%s set %d R[%d]",
                                   names[k], set, i);
            }
            fl_p4_step_result_free(r);
        }
    }
    fl_friction_set_release(&C.set);
    fl_sparse_free(&ctx, &Ms);
    fl_sparse_finish(&ctx);
}
