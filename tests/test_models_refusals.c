/* test_models_refusals.c — every model loader of models/ refuses a data file
 * with one member missing, of the wrong type or out of its range, with a
 * message naming the file and the member (models/fl_model_file.h: "each
 * error names the file, line:column and field"); and the model functions
 * refuse bad arguments with FL_EINVAL instead of building a system.
 *
 * Each bad file is a copy of the shipped data file (data/) with exactly one
 * member changed (or a whole sub-object replaced), written to /tmp. */
#include <criterion/criterion.h>
#include <math.h>

#include <gsl/gsl_rng.h>

#include "fl_json.h"
#include "models/fl_model_discs.h"
#include "models/fl_model_example_3_14.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "models/fl_model_file.h"
#include "models/fl_model_kane.h"
#include "models/fl_model_polyurethane.h"
#include "models/fl_model_square_block.h"
#include "models/fl_model_theorem1_rod.h"
#include "models/fl_model_triangle.h"
#include "models/fl_model_wedged_rod.h"
#include "model_files.h"

/* ---- the loaders, one signature ------------------------------------------ */

MODEL_LOADER_RELEASE(load_3_14, fl_model_example_3_14, fl_model_example_3_14_load, fl_model_example_3_14_release)
MODEL_LOADER_RELEASE(load_3_15, fl_model_example_3_15, fl_model_example_3_15_load, fl_model_example_3_15_release)
MODEL_LOADER(load_4_6, fl_model_example_4_6, fl_model_example_4_6_load)
MODEL_LOADER(load_poly, fl_model_polyurethane, fl_model_polyurethane_load)
MODEL_LOADER(load_rod, fl_model_theorem1, fl_model_theorem1_load)
MODEL_LOADER(load_d28, fl_model_discs_28, fl_model_discs_28_load)
MODEL_LOADER(load_d355, fl_model_discs_355, fl_model_discs_355_load)
MODEL_LOADER(load_square, fl_model_square_block, fl_model_square_block_load)
MODEL_LOADER(load_tri, fl_model_triangle, fl_model_triangle_load)
MODEL_LOADER(load_wedge, fl_model_wedged_rod, fl_model_wedged_rod_load)
MODEL_LOADER(load_kane, fl_model_kane, fl_model_kane_load)

typedef struct bad_case {
    const char *at;      /* the member changed */
    json_t *value;       /* its new value (NULL: removed) */
    const char *field;   /* what the message must name */
} bad_case;

#define DEL NULL
#define STR json_string("text")
#define NUM(x) json_real(x)
#define INT(x) json_integer(x)

/* The shipped file loads (so each refusal below is the change's); each
 * case is refused with a message naming the file and the field. */
static void refuse_all(const char *rel, model_loader load, bad_case *bad, size_t n)
{
    char path[4096];
    fl_error e;
    data_path(rel, path, sizeof path);
    memset(&e, 0, sizeof e);
    cr_assert_eq(load(path, &e), FL_OK, "%s: %s", rel, e.message);
    for (size_t i = 0; i < n; i++) refuse_one(rel, load, bad[i].at, bad[i].value, bad[i].field);
}

#define REFUSE_ALL(rel, load, arr) refuse_all(rel, load, arr, sizeof arr / sizeof *arr)

/* ---- 004 Example 3.14 ------------------------------------------------------- */

Test(cov_models, example_3_14_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"expected", DEL, "expected"},
        {"grid", DEL, "grid"},
        {"params.M", DEL, "params.M"},
        {"params.M", NUM(0.0), "params.M"},
        {"params.mu", DEL, "params.mu"},
        {"params.mu", NUM(-0.1), "params.mu"},
        {"grid.alpha_over_mu", STR, "grid.alpha_over_mu"},
        {"grid.alpha_over_mu", json_pack("[f, f]", 0.5, -0.5), "grid.alpha_over_mu"},
        {"grid.theta_M_steps", DEL, "grid.theta_M_steps"},
        {"grid.theta_M_steps", NUM(0.0), "grid.theta_M_steps"},
        {"expected.tolerance", DEL, "expected.tolerance"},
        {"expected.tolerance", NUM(0.0), "expected.tolerance"},
        {"expected.case_1B", DEL, "expected.case_1B"},
        {"expected.case_1A.a_T", DEL, "expected.case_1A.a_T"},
        {"expected.case_1A.r_N", STR, "expected.case_1A.r_N"},
        {"expected.case_1A.r_T", DEL, "expected.case_1A.r_T"},
        {"expected.case_1B.a_T", DEL, "expected.case_1B.a_T"},
        {"expected.case_1B.a_N", DEL, "expected.case_1B.a_N"},
        {"expected.fig6_theta_M", DEL, "expected.fig6_theta_M"},
        {"expected.fig6_params", DEL, "expected.fig6_params"},
        {"expected.fig6_params.m_over_M", DEL, "expected.fig6_params.m_over_M"},
        {"expected.fig6_params.m_over_M", NUM(0.0), "expected.fig6_params.m_over_M"},
    };
    REFUSE_ALL("004/example_3_14.json", load_3_14, bad);
}

/* The system of Example 3.14 exists for m > 0, M > 0, mu >= 0 and finite
 * angles (004 §3.5); anything else is refused and leaves *out NULL. */
Test(cov_models, example_3_14_system_refuses_bad_arguments)
{
    fl_error e;
    fl_model_example_3_14_system *sys = (void *)&e;
    const double ok[5] = {0.05, 1.0, 0.3, 1.0, 0.8};
    const double badv[][5] = {
        {-1, 1, 0.3, 1, 0.8},       {0.05, 0, 0.3, 1, 0.8},     {0.05, 1, 0.3, -1, 0.8},
        {INFINITY, 1, 0.3, 1, 0.8}, {0.05, INFINITY, 0.3, 1, 0.8}, {0.05, 1, NAN, 1, 0.8},
        {0.05, 1, 0.3, INFINITY, 0.8}, {0.05, 1, 0.3, 1, NAN},
    };
    for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
        sys = (void *)&e;
        cr_assert_eq(fl_model_example_3_14_system_alloc(badv[i][0], badv[i][1], badv[i][2], badv[i][3], badv[i][4],
                                                        &sys, &e),
                     FL_EINVAL, "case %zu", i);
        cr_assert_null(sys, "case %zu", i);
    }
    cr_assert_eq(fl_model_example_3_14_system_alloc(ok[0], ok[1], ok[2], ok[3], ok[4], NULL, &e), FL_EINVAL);
    fl_model_example_3_14 m;
    cr_assert_eq(fl_model_example_3_14_load(NULL, &m, &e), FL_EINVAL);
    cr_assert_eq(fl_model_example_3_14_load("x.json", NULL, &e), FL_EINVAL);
    fl_model_example_3_14_release(NULL);
    fl_model_example_3_14_system_free(NULL);
}

/* ---- 004 Example 3.15 ------------------------------------------------------- */

Test(cov_models, example_3_15_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"expected", DEL, "expected"},
        {"params.K", DEL, "params.K"},
        {"params.M", DEL, "params.M"},
        {"params.M", NUM(0.0), "params.M"},
        {"params.P", NUM(-1.0), "params.P"},
        {"expected.tolerance", DEL, "expected.tolerance"},
        {"params.mu", STR, "params.mu"},
    };
    REFUSE_ALL("004/example_3_15.json", load_3_15, bad);
}

/* K, M, P > 0 and mu >= 0, all finite (004 §3.5, Example 3.15). */
Test(cov_models, example_3_15_system_refuses_bad_arguments)
{
    fl_error e;
    const double badv[][4] = {{0, 1, 1, 1},        {1, 0, 1, 1},        {1, 1, 0, 1},        {1, 1, 1, -1},
                              {INFINITY, 1, 1, 1}, {1, INFINITY, 1, 1}, {1, 1, INFINITY, 1}, {1, 1, 1, INFINITY},
                              {NAN, 1, 1, 1}};
    for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
        fl_model_example_3_15_system *sys = (void *)&e;
        cr_assert_eq(fl_model_example_3_15_system_alloc(badv[i][0], badv[i][1], badv[i][2], badv[i][3], &sys, &e),
                     FL_EINVAL, "case %zu", i);
        cr_assert_null(sys, "case %zu", i);
    }
    cr_assert_eq(fl_model_example_3_15_system_alloc(1, 1, 1, 1, NULL, &e), FL_EINVAL);
    fl_model_example_3_15 m;
    cr_assert_eq(fl_model_example_3_15_load(NULL, &m, &e), FL_EINVAL);
    cr_assert_eq(fl_model_example_3_15_load("x.json", NULL, &e), FL_EINVAL);
    fl_model_example_3_15_release(NULL);
    fl_model_example_3_15_system_free(NULL);
}

/* ---- 004 Example 4.6 -------------------------------------------------------- */

Test(cov_models, example_4_6_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"expected", DEL, "expected"},
        {"grid_hm0", DEL, "grid_hm0"},
        {"dynamics", DEL, "dynamics"},
        {"params.uD_dot", DEL, "params.uD_dot"},
        {"params.mu", DEL, "params.mu"},
        {"params.mu", NUM(-2.2), "params.mu"},
        {"params.Mg_over_EA", DEL, "params.Mg_over_EA"},
        {"params.Mg_over_EA", NUM(0.0), "params.Mg_over_EA"},
        {"params.RB_over_L", NUM(0.0), "params.RB_over_L"},
        {"params.HB_over_L", DEL, "params.HB_over_L"},
        {"params.RM_over_L", DEL, "params.RM_over_L"},
        {"grid_hm0.mu", json_pack("[f, f]", -1.0, 12.0), "grid_hm0.mu"},    /* lo > 0 */
        {"grid_hm0.mu", json_pack("[f, f]", 0.1, 0.1), "grid_hm0.mu"},      /* lo < hi */
        {"grid_hm0.RB_over_L", DEL, "grid_hm0.RB_over_L"},
        {"grid_hm0.HB_over_L", json_pack("[f]", 0.05), "grid_hm0.HB_over_L"},
        {"grid_hm0.RM_over_L", DEL, "grid_hm0.RM_over_L"},
        {"expected.tolerance", DEL, "expected.tolerance"},
        {"expected.r0_N", DEL, "expected.r0_N"},
        {"expected.u0_theta", STR, "expected.u0_theta"},
        {"expected.u0_D_minus_u0_T", DEL, "expected.u0_D_minus_u0_T"},
        {"expected.Lambda_sigma_minus", DEL, "expected.Lambda_sigma_minus"},
        {"expected.growth_rate", DEL, "expected.growth_rate"},
        {"expected.growth_rate_tolerance_dynamics", NUM(0.0), "expected.growth_rate_tolerance_dynamics"},
        {"dynamics.h", DEL, "dynamics.h"},
        {"dynamics.t_end", NUM(50.0), "dynamics.t_end"},            /* the growth needs t > 100 */
        {"dynamics.t_end_quick", DEL, "dynamics.t_end_quick"},
        {"dynamics.steady_t_end", NUM(0.001), "dynamics.steady_t_end"},   /* below h */
        {"dynamics.perturbation_u_theta", NUM(2.0), "dynamics.perturbation_u_theta"},
        {"dynamics.theta_method", DEL, "dynamics.theta_method"},
    };
    REFUSE_ALL("004/example_4_6.json", load_4_6, bad);
}

/* mu >= 0, rb, hb, rm > 0, hm >= 0, all finite (004 §4). */
Test(cov_models, example_4_6_system_refuses_bad_arguments)
{
    fl_error e;
    const double badv[][5] = {
        {-1, 0.07, 0.1, 0.15, 0.05},       {2.2, 0, 0.1, 0.15, 0.05},        {2.2, 0.07, 0, 0.15, 0.05},
        {2.2, 0.07, 0.1, 0, 0.05},         {2.2, 0.07, 0.1, 0.15, -0.05},    {INFINITY, 0.07, 0.1, 0.15, 0.05},
        {2.2, INFINITY, 0.1, 0.15, 0.05},  {2.2, 0.07, INFINITY, 0.15, 0.05}, {2.2, 0.07, 0.1, INFINITY, 0.05},
        {2.2, 0.07, 0.1, 0.15, INFINITY},
    };
    for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
        fl_model_example_4_6_system *sys = (void *)&e;
        cr_assert_eq(fl_model_example_4_6_system_alloc(badv[i][0], badv[i][1], badv[i][2], badv[i][3], badv[i][4],
                                                       &sys, &e),
                     FL_EINVAL, "case %zu", i);
        cr_assert_null(sys, "case %zu", i);
    }
    cr_assert_eq(fl_model_example_4_6_system_alloc(2.2, 0.07, 0.1, 0.15, 0.05, NULL, &e), FL_EINVAL);
    fl_model_example_4_6 m;
    cr_assert_eq(fl_model_example_4_6_load(NULL, &m, &e), FL_EINVAL);
    fl_model_example_4_6_system_free(NULL);
}

/* 004 (16): the friction force is r_T = mu r_N sigma, so only the product
 * mu sigma enters the steady state; sliding the other way (uD_dot > 0,
 * sigma = +1) with mu is the state of sigma = -1 with -mu. */
Test(cov_models, example_4_6_steady_state_depends_on_mu_sigma_only)
{
    char path[4096];
    data_path("004/example_4_6.json", path, sizeof path);
    fl_model_example_4_6 m;
    fl_error e;
    cr_assert_eq(fl_model_example_4_6_load(path, &m, &e), FL_OK, "%s", e.message);
    fl_model_example_4_6 up = m, down = m;
    up.uD_dot = fabs(m.uD_dot);
    down.uD_dot = -fabs(m.uD_dot);
    down.mu = -m.mu;
    double a[3], b[3];
    fl_model_example_4_6_steady(&up, &a[0], &a[1], &a[2]);
    fl_model_example_4_6_steady(&down, &b[0], &b[1], &b[2]);
    for (int k = 0; k < 3; k++) cr_assert_float_eq(a[k], b[k], 1e-15, "component %d", k);
    /* and with sigma = +1 the normal reaction is -Mg/EA / (1 - 1.5 mu hb) */
    cr_assert_float_eq(a[0], -m.Mg_over_EA / (1.0 - 1.5 * m.mu * m.hb), 1e-15);
}

/* 004 (17): a reaction is admissible only compressive (r_N <= 0 in 004's
 * convention); the analysis of a state with r_N > 0 is refused. */
Test(cov_models, example_4_6_analyse_refuses_a_tensile_reaction)
{
    fl_model_example_4_6_system *sys = NULL;
    fl_error e;
    cr_assert_eq(fl_model_example_4_6_system_alloc(2.2, 0.07, 0.1, 0.15, 0.05, &sys, &e), FL_OK, "%s", e.message);
    fl_stability_result res = {0};
    cr_assert_eq(fl_model_example_4_6_analyse(sys, -1.0, 0.01, &res, &e), FL_EINVAL);
    cr_assert_not_null(strstr(e.message, "004 (17)"), "%s", e.message);
    fl_stability_result_free(&res);
    fl_model_example_4_6_system_free(sys);
}

/* ---- the polyurethane block of 004 §5 ---------------------------------------- */

Test(cov_models, polyurethane_refuses_each_broken_member)
{
    json_t *many_levels = json_array();
    for (int i = 0; i <= FL_MODEL_POLYURETHANE_MAX_LEVELS; i++)
        json_array_append_new(many_levels, json_real(0.01 * (i + 1)));
    json_t *many_rows = json_array();
    for (int i = 0; i <= FL_MODEL_POLYURETHANE_MAX_ROWS; i++)
        json_array_append_new(many_rows, json_pack("[f, i, i, i, f, f, i]", -0.01 * (i + 1), 21, 0, 0, 0.1, 1e6, 3));
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.chosen", DEL, "params.chosen"},
        {"expected", DEL, "expected"},
        {"params.rho_g_per_mm3", DEL, "params.rho_g_per_mm3"},
        {"params.mu", DEL, "params.mu"},
        {"params.H_over_L", STR, "params.H_over_L"},
        {"params.U_N0_mm", DEL, "params.U_N0_mm"},
        {"params.contact_nodes", DEL, "params.contact_nodes"},
        {"params.contact_nodes", NUM(1.0), "params.contact_nodes"},
        {"params.chosen.L_mm", DEL, "params.chosen.L_mm"},
        {"params.chosen.H_mm", DEL, "params.chosen.H_mm"},
        {"params.chosen.mesh_cells", DEL, "params.chosen.mesh_cells"},
        {"params.chosen.mesh_cells", json_pack("[s, i]", "twenty", 10), "params.chosen.mesh_cells"},
        {"params.chosen.mesh_cells", json_pack("[i, i]", 20, 0), "params.chosen.mesh_cells"},
        {"params.chosen.U_T_final_mm", DEL, "params.chosen.U_T_final_mm"},
        {"params.chosen.U_T_final_mm", NUM(-1e5), "params.chosen.U_T_final_mm"},    /* 1e7 increments */
        {"params.chosen.damping.levels_xi_at_454Hz", DEL, "params.chosen.damping.levels_xi_at_454Hz"},
        {"params.chosen.damping.levels_xi_at_454Hz", many_levels, "params.chosen.damping.levels_xi_at_454Hz"},
        {"params.chosen.damping.levels_xi_at_454Hz", json_pack("[f, f]", 0.1, 0.05),
         "params.chosen.damping.levels_xi_at_454Hz"},                                  /* decreasing */
        {"params.chosen.damping.levels_xi_at_454Hz", json_pack("[f]", 0.0), "params.chosen.damping.levels_xi_at_454Hz"},
        {"params.chosen.damping.levels_xi_at_454Hz", json_pack("[f, f]", 0.5, 1.0),
         "params.chosen.damping.levels_xi_at_454Hz"},                                  /* xi < 1 */
        {"params.chosen.damping.xi_last_over_xi_first", DEL, "params.chosen.damping.xi_last_over_xi_first"},
        {"params.chosen.damping.xi_last_over_xi_first", NUM(1.5), "params.chosen.damping.xi_last_over_xi_first"},
        {"params.chosen.damping.first_mode", NUM(2.0), "params.chosen.damping.first_mode"},
        {"params.chosen.damping.last_mode", DEL, "params.chosen.damping.last_mode"},
        {"params.chosen.damping.last_mode", NUM(17.5), "params.chosen.damping.last_mode"},
        {"params.chosen.damping.low_order_max_mode", DEL, "params.chosen.damping.low_order_max_mode"},
        {"params.chosen.damping.low_order_max_mode", NUM(4.5), "params.chosen.damping.low_order_max_mode"},
        {"expected.table_1_rows", DEL, "expected.table_1_rows"},
        {"expected.table_1_rows", many_rows, "expected.table_1_rows"},
        {"expected.table_1_rows.0.1", NUM(-1.0), "expected.table_1_rows"},           /* negative count */
        {"expected.table_1_rows.0.2", NUM(2e6), "expected.table_1_rows"},            /* count > 1e6 */
        {"expected.table_1_rows.0.6", NUM(57.5), "expected.table_1_rows"},           /* fractional mode */
        {"expected.table_1_rows.0.0", NUM(0.5), "expected.table_1_rows"},            /* U_T > 0 */
        {"expected.table_1_rows.15.0", NUM(-7.0), "expected.table_1_rows"},          /* beyond U_T_final */
        {"expected.quick_rows_U_T_mm", DEL, "expected.quick_rows_U_T_mm"},
        {"expected.quick_rows_U_T_mm", json_pack("[s]", "-0.87"), "expected.quick_rows_U_T_mm"},
        {"expected.table_1_Lambda_discrepancies", json_pack("[f]", -1.78), "expected.table_1_Lambda_discrepancies"},
        {"expected.table_1_Lambda_discrepancies.0.U_T_mm", DEL, "expected.table_1_Lambda_discrepancies[0].U_T_mm"},
        {"expected.table_1_Lambda_discrepancies.1.reason", DEL, "expected.table_1_Lambda_discrepancies[1].reason"},
        {"expected.table_1_tolerance_KS", DEL, "expected.table_1_tolerance_KS"},
        {"expected.table_1_tolerance_Lambda_relative", NUM(0.0), "expected.table_1_tolerance_Lambda_relative"},
        {"expected.table_1_Lambda_significant_digits", NUM(2.5), "expected.table_1_Lambda_significant_digits"},
        {"expected.necessary_condition_U_T_mm", NUM(1.35), "expected.necessary_condition_U_T_mm"},
        {"expected.damping_onset_strongest_U_T_mm", DEL, "expected.damping_onset_strongest_U_T_mm"},
        {"expected.damping_onset_tolerance_mm", DEL, "expected.damping_onset_tolerance_mm"},
        {"expected.damping_mode_switch", DEL, "expected.damping_mode_switch"},
        {"expected.damping_mode_switch.xi", DEL, "expected.damping_mode_switch.xi"},
        {"expected.damping_mode_switch.mode", DEL, "expected.damping_mode_switch.mode"},
        {"expected.damping_mode_switch.xi", json_pack("[f, f]", 0.2, 0.15), "expected.damping_mode_switch.xi"},
        {"expected.damping_mode_switch.xi", json_pack("[f, f]", 0.1475, 0.3), "expected.damping_mode_switch.xi"},
    };
    REFUSE_ALL("004/polyurethane.json", load_poly, bad);
}

/* The block of 004 §5 refuses what it cannot build: no parameters, a mesh
 * whose contact face does not have the file's number of nodes, no mesh, a
 * negative stiffness or friction coefficient, and a face
 * not pressed at all (U_N^0 = 0), which gives no compressive normal force
 * to scale the thickness to F_N^0 with. */
Test(cov_models, polyurethane_block_refuses_bad_parameters, .timeout = 60)
{
    char path[4096];
    data_path("004/polyurethane.json", path, sizeof path);
    static fl_model_polyurethane par, bad;
    fl_error e;
    cr_assert_eq(fl_model_polyurethane_load(path, &par, &e), FL_OK, "%s", e.message);
    fl_model_polyurethane_block b;
    cr_assert_eq(fl_model_polyurethane_block_init(&par, NULL, &e), FL_EINVAL);
    cr_assert_eq(fl_model_polyurethane_block_init(NULL, &b, &e), FL_EINVAL);
    fl_model_polyurethane_block_free(&b);
    bad = par;
    bad.contact_nodes = par.contact_nodes + 1;
    cr_assert_eq(fl_model_polyurethane_block_init(&bad, &b, &e), FL_EINVAL);
    cr_assert_not_null(strstr(e.message, "contact nodes"), "%s", e.message);
    fl_model_polyurethane_block_free(&b);
    bad = par;
    bad.UN = 0.0;
    fl_status st = fl_model_polyurethane_block_init(&bad, &b, &e);
    cr_assert_eq(st, FL_EINVAL, "status %d: %s", st, e.message);
    cr_assert_not_null(strstr(e.message, "no compressive normal force"), "%s", e.message);
    fl_model_polyurethane_block_free(&b);
    /* no mesh cells, a negative Young modulus (mu = E / 2(1 + nu) < 0), a
     * negative friction coefficient: each refused by the layer below */
    bad = par;
    bad.nx = 0;
    cr_assert_eq(fl_model_polyurethane_block_init(&bad, &b, &e), FL_EINVAL);
    fl_model_polyurethane_block_free(&b);
    bad = par;
    bad.E = -par.E;
    cr_assert_eq(fl_model_polyurethane_block_init(&bad, &b, &e), FL_EINVAL);
    cr_assert_not_null(strstr(e.message, "mu > 0"), "%s", e.message);
    fl_model_polyurethane_block_free(&b);
    bad = par;
    bad.mu = -1.0;
    cr_assert_lt(fl_model_polyurethane_block_init(&bad, &b, &e), 0);
    fl_model_polyurethane_block_free(&b);
    /* the pressed state: the forces may be asked for alone */
    cr_assert_eq(fl_model_polyurethane_block_init(&par, &b, &e), FL_OK, "%s", e.message);
    double FN = 0;
    cr_assert_eq(fl_model_polyurethane_state(&b, 0.0, NULL, NULL, NULL, NULL, NULL, &FN, &e), FL_OK);
    cr_assert(fabs(FN * b.thick - par.FN0) < 1e-9 * fabs(par.FN0), "F_N = %g", FN * b.thick);
    fl_model_polyurethane_block_free(&b);
    fl_model_polyurethane_block_free(NULL);
    fl_model_polyurethane_sparse_free(NULL);
    cr_assert_eq(fl_model_polyurethane_load(NULL, &par, &e), FL_EINVAL);
}

/* ---- the rod of 000 Theorem 1 ---------------------------------------------- */

Test(cov_models, theorem1_rod_refuses_each_broken_member)
{
    json_t *many_eps = json_array();
    for (int i = 0; i <= FL_MODEL_THEOREM1_MAX_EPS; i++) json_array_append_new(many_eps, json_real(0.5 / (i + 1)));
    bad_case bad[] = {
        {"system", DEL, "system"},
        {"system.m", DEL, "system.m"},
        {"system.l", NUM(0.0), "system.l"},
        {"cases", DEL, "cases"},
        {"cases.1", NUM(1.0), "cases"},
        {"cases.0.name", DEL, "cases[0].name"},
        {"cases.0.mu0", DEL, "cases[0].mu0"},
        {"cases.1.mu0", NUM(-1.0), "cases[1].mu0"},
        {"cases.1.kappa_c", DEL, "cases[1].kappa_c"},
        {"cases.1.kappa_c", NUM(-1.0), "cases[1].mu0"},
        {"cases.2.kappa", DEL, "cases[2].kappa"},
        {"cases.2.kappa", NUM(-1.0), "cases[2].mu0"},
        {"cases.2.theta_ref", DEL, "cases[2].theta_ref"},
        {"cases.0.q", json_pack("[f, f]", 0.0, 0.0), "cases[0].q"},
        {"cases.0.u_minus", DEL, "cases[0].u_minus"},
        {"cases.0.expected", DEL, "cases[0].expected"},
        {"cases.1.expected.gamma", DEL, "cases[1].expected.gamma"},
        {"cases.1.expected.gamma_tol", NUM(0.0), "cases[1].expected.gamma_tol"},
        {"cases.1.expected.A", DEL, "cases[1].expected.A"},
        {"cases.1.expected.A", json_string("interval"), "cases[1].expected.A"},
        {"cases.2.expected.u_tilde", DEL, "cases[2].expected.u_tilde"},
        {"cases.2.expected.u_tilde_tol", DEL, "cases[2].expected.u_tilde_tol"},
        {"cases.2.expected.dH_limit", STR, "cases[2].expected.dH_limit"},
        {"sampling", DEL, "sampling"},
        {"sampling.eps", DEL, "sampling.eps"},
        {"sampling.eps", many_eps, "sampling.eps"},
        {"sampling.eps", json_pack("[f, f]", 0.1, 0.0), "sampling.eps"},
        {"sampling.samples_per_eps", DEL, "sampling.samples_per_eps"},
        {"sampling.samples_per_eps", NUM(2e7), "sampling"},
        {"sampling.samples_per_eps", NUM(100.5), "sampling"},
        {"sampling.quick_samples_per_eps", DEL, "sampling.quick_samples_per_eps"},
        {"sampling.quick_samples_per_eps", NUM(2e7), "sampling"},
        {"sampling.quick_samples_per_eps", NUM(10.5), "sampling"},
        {"sampling.quick_eps_count", DEL, "sampling.quick_eps_count"},
        {"sampling.quick_eps_count", NUM(1.5), "sampling"},
        {"sampling.segment_grid", DEL, "sampling.segment_grid"},
        {"sampling.segment_grid", NUM(2e6), "sampling"},
        {"sampling.segment_grid", NUM(1.0), "sampling"},
    };
    REFUSE_ALL("000/theorem1_rod.json", load_rod, bad);
}

Test(cov_models, theorem1_rod_refuses_bad_arguments)
{
    fl_error e;
    fl_model_theorem1_case c;
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 3, &c, &e), FL_EINVAL);
    cr_assert_not_null(strstr(e.message, "no case 3"), "%s", e.message);
    cr_assert_eq(fl_model_theorem1_case_data(NULL, -1, &c, &e), FL_EINVAL);
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 0, NULL, &e), FL_EINVAL);
    /* a data directory without the file: the error names the missing path */
    cr_assert_neq(fl_model_theorem1_case_data("/nonexistent_fl_data", 0, &c, &e), FL_OK);
    cr_assert_not_null(strstr(e.message, "000/theorem1_rod.json"), "%s", e.message);
    fl_model_theorem1 m;
    cr_assert_eq(fl_model_theorem1_load(NULL, &m, &e), FL_EINVAL);
    /* and the shipped case 2 is the file's third case */
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 2, &c, &e), FL_OK, "%s", e.message);
    cr_assert_eq(fl_model_theorem1_load_data(NULL, &m, &e), FL_OK, "%s", e.message);
    cr_assert_str_eq(c.name, m.cases[2].name);
}

/* ---- 003 discs ---------------------------------------------------------------- */

Test(cov_models, discs_28_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.N", NUM(0.0), "params.N"},          /* >= 1 */
        {"params.N", NUM(28.5), "params.N"},         /* whole */
        {"params.N", NUM(2e9), "params.N"},          /* <= 1e9 */
        {"params.seed", NUM(-1.0), "params.seed"},
        {"params.R_min", NUM(0.0), "params.R_min"},
        {"params.R_max", NUM(0.5), "params.R_max"},  /* below R_min */
        {"params.gs_sweeps", STR, "params.gs_sweeps"},
    };
    REFUSE_ALL("003/discs_28.json", load_d28, bad);
}

Test(cov_models, discs_355_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.slope_deg", NUM(90.0), "params.slope_deg"},
        {"params.restitution", NUM(1.5), "params.restitution"},
        {"params.R_max", NUM(0.05), "params.R_max"},
        {"params.step_gs_tol", DEL, "params.step_gs_tol"},
        {"expected", DEL, "expected"},
        {"expected.rows", DEL, "expected.rows"},
        {"expected.rows.step", DEL, "expected.rows.step"},
        {"expected.rows.step", json_pack("[s, i]", "11", 121), "expected.rows.step"},
        {"expected.rows.step", json_pack("[i, i]", 11, 120), "expected.rows.step"},
        {"expected.rows.contacts", DEL, "expected.rows.contacts"},
        {"expected.rows.contacts", json_pack("[s, i]", "556", 544), "expected.rows.contacts"},
        {"expected.rows.contacts", json_pack("[i, i]", 556, -1), "expected.rows.contacts"},
        {"expected.rows.zero_sliding", DEL, "expected.rows.zero_sliding"},
        {"expected.rows.zero_sliding", json_pack("[s, f]", "0.75", 0.7), "expected.rows.zero_sliding"},
        {"expected.rows.zero_sliding", json_pack("[f, f]", 0.75, -0.1), "expected.rows.zero_sliding"},
        {"expected.rows.zero_sliding", json_pack("[f, f]", 1.5, 0.7), "expected.rows.zero_sliding"},
        {"expected.rows.step", json_pack("[i, s]", 11, "121"), "expected.rows.step"},
        {"expected.rows.contacts", json_pack("[i, s]", 556, "544"), "expected.rows.contacts"},
        {"expected.rows.zero_sliding", json_pack("[f, s]", 0.75, "0.7"), "expected.rows.zero_sliding"},
        {"expected.rows.contacts_rtol", DEL, "expected.rows.contacts_rtol"},
        {"expected.rows.contacts_rtol", NUM(0.0), "expected.rows"},
        {"expected.rows.zero_sliding_atol", DEL, "expected.rows.zero_sliding_atol"},
        {"expected.rows.zero_sliding_atol", NUM(-0.1), "expected.rows"},
    };
    REFUSE_ALL("003/discs_355.json", load_d355, bad);
}

/* A packing needs at least one disc (reference/discs.h: N > 0). */
Test(cov_models, discs_build_refuses_an_empty_packing)
{
    char path[4096];
    fl_error e;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    fl_model_discs_28 m28;
    data_path("003/discs_28.json", path, sizeof path);
    cr_assert_eq(fl_model_discs_28_load(path, &m28, &e), FL_OK, "%s", e.message);
    m28.N = 0;
    fl_discs *d = NULL;
    cr_assert_eq(fl_model_discs_28_build(&m28, rng, &d, &e), FL_EINVAL);
    cr_assert_null(d);
    fl_model_discs_355 m355;
    data_path("003/discs_355.json", path, sizeof path);
    cr_assert_eq(fl_model_discs_355_load(path, &m355, &e), FL_OK, "%s", e.message);
    m355.N = 0;
    cr_assert_eq(fl_model_discs_355_build(&m355, rng, &d, &e), FL_EINVAL);
    cr_assert_null(d);
    gsl_rng_free(rng);
}

/* ---- 002 square block and triangle ----------------------------------------- */

/* a JSON string of n letters (a reason longer than the model keeps) */
static json_t *long_string(size_t n)
{
    char *t = malloc(n + 1);
    cr_assert_not_null(t);
    memset(t, 'x', n);
    t[n] = 0;
    json_t *j = json_string(t);
    free(t);
    return j;
}

Test(cov_models, square_block_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.lambda", DEL, "params.lambda"},
        {"params.lambda", NUM(-1.0), "params.lambda"},
        {"params.mu", DEL, "params.mu"},
        {"params.L", DEL, "params.L"},
        {"params.F", DEL, "params.F"},
        {"params.v_found", DEL, "params.v_found"},
        {"params.top_u1", STR, "params.top_u1"},
        {"params.top_u2", DEL, "params.top_u2"},
        {"params.gravity", DEL, "params.gravity"},
        {"params.T", DEL, "params.T"},
        {"params.h", DEL, "params.h"},
        {"params.h", NUM(1.0), "params.h"},                        /* h > L: no whole cell */
        {"params.diagonals", DEL, "params.diagonals"},
        {"params.diagonals", json_string("both"), "params.diagonals"},
        {"params.mass", DEL, "params.mass"},
        {"params.redistribution", DEL, "params.redistribution"},
        {"params.dt_energy_study", DEL, "params.dt_energy_study"},
        {"params.dt_energy_study", json_pack("[f, s, f]", 1e-5, "5e-6", 2.5e-6), "params.dt_energy_study"},
        {"params.dt_energy_study", json_pack("[f, f, f]", 1e-5, 0.0, 2.5e-6), "params.dt_energy_study"},
        {"params.energy_sample_dt_s", DEL, "params.energy_sample_dt_s"},
        {"params.fig6", DEL, "params.fig6"},
        {"params.fig6.t_s", DEL, "params.fig6.t_s"},
        {"params.fig6.dt_s", NUM(0.0), "params.fig6.dt_s"},
        {"params.fig6.displacement_scale", DEL, "params.fig6.displacement_scale"},
        {"params.quick", DEL, "params.quick"},
        {"params.quick.h", DEL, "params.quick.h"},
        {"params.quick.h", NUM(0.03), "params.quick.h"},           /* 0.1 / 0.03 cells */
        {"params.quick.dt_energy_study", DEL, "params.quick.dt_energy_study"},
        {"params.table2", DEL, "params.table2"},
        {"params.table2.dt_s", DEL, "params.table2.dt_s"},
        {"params.table2.h_cm.1", STR, "params.table2.h_cm"},
        {"params.table2.h_cm.2", NUM(0.3), "params.table2.h_cm"},
        {"params.table2.dt_s.3", STR, "params.table2.dt_s"},
        {"params.table2.dt_s.4", NUM(-1e-6), "params.table2.dt_s"},
        {"params.table2.interval_s", DEL, "params.table2.interval_s"},
        {"params.table2.sample_dt_s", DEL, "params.table2.sample_dt_s"},
        {"expected.table2_H1_not_decreasing.rows", DEL, "expected.table2_H1_not_decreasing.rows"},
        {"expected.table2_H1_not_decreasing.reason", DEL, "expected.table2_H1_not_decreasing.reason"},
        {"expected.table2_H1_not_decreasing.rows", json_pack("[i]", 5), "expected.table2_H1_not_decreasing.rows"},
        {"expected.table2_H1_not_decreasing.rows", json_pack("[i]", 1), "expected.table2_H1_not_decreasing.rows"},
        {"expected.table2_H1_not_decreasing.rows", json_pack("[f]", 2.0), "expected.table2_H1_not_decreasing.rows"},
        {"expected.table2_H1_not_decreasing.reason", long_string(1536), "expected.table2_H1_not_decreasing.reason"},
    };
    REFUSE_ALL("002/square_block_002.json", load_square, bad);
}

/* "redistribution": "none", "normal" and "both" (002 §5). */
Test(cov_models, square_block_redistribution_words)
{
    const char *words[] = {"none", "normal", "both"};
    const fl_redist_kind want[] = {FL_REDIST_NONE, FL_REDIST_NORMAL, FL_REDIST_BOTH};
    for (int i = 0; i < 3; i++) {
        char p[64];
        write_broken("002/square_block_002.json", "params.redistribution", json_string(words[i]), p, sizeof p);
        static fl_model_square_block m;
        fl_error e;
        cr_assert_eq(fl_model_square_block_load(p, &m, &e), FL_OK, "%s", e.message);
        cr_assert_eq(m.block.redist, want[i], "%s", words[i]);
        unlink(p);
    }
}

/* The documented H1 discrepancies of Table 2 are optional: without
 * "expected", or without its table2_H1_not_decreasing, no row is marked. */
Test(cov_models, square_block_without_documented_discrepancies)
{
    const char *at[] = {"expected", "expected.table2_H1_not_decreasing"};
    for (int k = 0; k < 2; k++) {
        char p[64];
        write_broken("002/square_block_002.json", at[k], DEL, p, sizeof p);
        static fl_model_square_block m;
        fl_error e;
        cr_assert_eq(fl_model_square_block_load(p, &m, &e), FL_OK, "%s: %s", at[k], e.message);
        for (int r = 0; r < FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS; r++) cr_assert_eq(m.table2_h1_documented[r], 0);
        unlink(p);
    }
}

/* A mesh size must divide L into a whole number (>= 1) of cells. */
Test(cov_models, square_block_mesh_sizes)
{
    static fl_model_square_block m;
    fl_error e;
    cr_assert_eq(fl_model_square_block_load_data(NULL, &m, &e), FL_OK, "%s", e.message);
    fl_midpoint_block_params bp;
    cr_assert_eq(fl_model_square_block_params(&m, 0.0, &bp, &e), FL_EINVAL);
    cr_assert_eq(fl_model_square_block_params(&m, -0.01, &bp, &e), FL_EINVAL);
    cr_assert_eq(fl_model_square_block_params(&m, 2 * m.block.lx, &bp, &e), FL_EINVAL);
    cr_assert_eq(fl_model_square_block_params(&m, m.block.lx / 4, &bp, &e), FL_OK, "%s", e.message);
    cr_assert_eq(bp.nx, 4);
    cr_assert_eq(fl_model_square_block_table2_cells(&m, -1), 0);
    cr_assert_eq(fl_model_square_block_table2_cells(&m, FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS), 0);
    cr_assert_eq(fl_model_square_block_table2_cells(&m, 0), 5, "h = 2 cm on L = 10 cm (002 Table 2)");
    m.block.lx = 0.0;                                   /* no block: no cell */
    cr_assert_eq(fl_model_square_block_table2_cells(&m, 0), 0);
    /* a data directory without the file */
    cr_assert_neq(fl_model_square_block_load_data("/nonexistent_fl_data", &m, &e), FL_OK);
}

Test(cov_models, triangle_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.m1", DEL, "params.m1"},
        {"params.m2", DEL, "params.m2"},
        {"params.m2", NUM(-0.1), "params.m2"},
        {"params.u_tau_k", DEL, "params.u_tau_k"},
        {"params.F_values", json_pack("[f, s, f]", 1.5, "2", 2.5), "params.F_values"},
        {"params.F_values", json_pack("[f, f, f]", 1.5, -2.0, 2.5), "params.F_values"},
        {"params.fhat_box", DEL, "params.fhat_box"},
        {"params.fhat_box", json_pack("[s, f]", "-3", 3.0), "params.fhat_box"},
        {"params.fhat_box", json_pack("[f, s]", -3.0, "3"), "params.fhat_box"},
        {"params.fhat_box", json_pack("[f, f]", 3.0, -3.0), "params.fhat_box"},
        {"params.fhat_box", json_pack("[f, f]", 3.0, 3.0), "params.fhat_box"},
        {"params.F_values", json_pack("[f, f, s]", 1.5, 2.0, "2.5"), "params.F_values"},
    };
    REFUSE_ALL("002/triangle_002.json", load_tri, bad);
}

/* fl_model_triangle_region: a point within `margin` of a boundary line of
 * the region is undecided (-1); a margin larger than every |v| makes any
 * point undecided, in every region. */
Test(cov_models, triangle_region_undecided_within_the_margin)
{
    char path[4096];
    data_path("002/triangle_002.json", path, sizeof path);
    fl_model_triangle m;
    fl_error e;
    cr_assert_eq(fl_model_triangle_load(path, &m, &e), FL_OK, "%s", e.message);
    for (int i = 1; i <= 4; i++)
        cr_assert_eq(fl_model_triangle_region(&m.sys, i, -1.0, 0.3, 1e300), -1, "region %d", i);
}

/* ---- 003 wedged rod and 001 Kane --------------------------------------------- */

Test(cov_models, wedged_rod_refuses_each_broken_member)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.L", DEL, "params.L"},
        {"params.m", NUM(0.0), "params.m"},
        {"params.g", DEL, "params.g"},
        {"params.mu", DEL, "params.mu"},
        {"params.P_start_mg", DEL, "params.P_start_mg"},
        {"params.P_max_mg", STR, "params.P_max_mg"},
        {"params.P_end_mg", DEL, "params.P_end_mg"},
        {"params.steps_up", INT(0), "params.steps_up"},
        {"params.steps_down", DEL, "params.steps_down"},
        {"params.steps_down", INT(0), "params.steps_down"},
    };
    REFUSE_ALL("003/wedged_rod.json", load_wedge, bad);
}

Test(cov_models, kane_refuses_missing_params)
{
    bad_case bad[] = {
        {"params", DEL, "params"},
        {"params.theta1", DEL, "params.theta1"},
        {"params.e", NUM(1.5), "params.e"},
    };
    REFUSE_ALL("001/kane.json", load_kane, bad);
}

/* ---- the loader frame itself ------------------------------------------------- */

static fl_status read_nothing(const fl_json_doc *doc, void *model, fl_error *err)
{
    (void)doc;
    (void)model;
    (void)err;
    return FL_OK;
}

Test(cov_models, model_file_refuses_null_arguments)
{
    fl_error e;
    double v = 0;
    cr_assert_eq(fl_model_file_load(NULL, read_nothing, &v, sizeof v, &e), FL_EINVAL);
    cr_assert_eq(fl_model_file_load("x.json", NULL, &v, sizeof v, &e), FL_EINVAL);
    cr_assert_eq(fl_model_file_load("x.json", read_nothing, NULL, 0, &e), FL_EINVAL);
    const fl_model_key k = {"m1", FL_MODEL_POSITIVE};
    cr_assert_eq(fl_model_file_params("x.json", 1, NULL, &v, &e), FL_EINVAL);
    cr_assert_eq(fl_model_file_params("x.json", 1, &k, NULL, &e), FL_EINVAL);
    char path[4096];
    data_path("001/kane.json", path, sizeof path);
    cr_assert_eq(fl_model_file_params(path, 1, &k, &v, &e), FL_OK, "%s", e.message);
    cr_assert_eq(v, 1.0);
}
