/* test_models_004.c — models/ for papers 004 and 000: each system built from
 * its data file equals the closed forms of proofs/models_004.md (written
 * from the papers' equations), and a bad file is refused with a message
 * naming the file and the field. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_data.h"
#include "model_files.h"
#include "fl_scalar.h"
#include "models/fl_model_example_3_14.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "models/fl_model_polyurethane.h"
#include "models/fl_model_theorem1_rod.h"

/* ---- Example 3.14: proofs/models_004.md §1 ---- */
Test(models_004, example_3_14_mass_matrix_and_fig6_angles)
{
    char path[4096];
    data_path("004/example_3_14.json", path, sizeof path);
    fl_model_example_3_14 m;
    fl_error err;
    cr_assert_eq(fl_model_example_3_14_load(path, &m, &err), FL_OK, "%s", err.message);
    cr_assert_eq(m.M, 1.0);
    cr_assert_eq(m.m, 0.05);
    cr_assert_eq(m.grid_mu->size, 3);
    cr_assert_eq(m.theta_M_steps, 23);
    fl_model_example_3_14_system *sys = NULL;
    cr_assert_eq(fl_model_example_3_14_system_alloc(m.m, m.M, m.theta_M, m.mu, m.alpha, &sys, &err), FL_OK);
    double s = sin(m.theta_M), c = cos(m.theta_M);
    cr_assert_float_eq(gsl_matrix_get(sys->M, 0, 0), m.m + m.M * s * s, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->M, 0, 1), -m.M * s * c, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->M, 1, 0), -m.M * s * c, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->M, 1, 1), m.m + m.M * c * c, 1e-15);
    cr_assert_eq(gsl_vector_get(sys->r0, 0), m.alpha);
    cr_assert_eq(gsl_vector_get(sys->r0, 1), -1.0);
    cr_assert_eq(sys->s.mu, m.mu);
    /* det M = m^2 + m M, tr M = 2m + M at any theta_M */
    for (int k = 0; k <= 20; k++) {
        double th = k * FL_PI / 40;
        fl_model_example_3_14_mass(0.2, 1.5, th, sys->M);
        double det = gsl_matrix_get(sys->M, 0, 0) * gsl_matrix_get(sys->M, 1, 1) -
                     gsl_matrix_get(sys->M, 0, 1) * gsl_matrix_get(sys->M, 1, 0);
        cr_assert_float_eq(det, 0.04 + 0.3, 1e-14, "theta %g", th);
        cr_assert_float_eq(gsl_matrix_get(sys->M, 0, 0) + gsl_matrix_get(sys->M, 1, 1), 1.9, 1e-14);
    }
    /* Fig. 6: M_TT + mu M_NT = 0 at the two angles of the file, and they are
     * the closed form (atan mu +- acos((2m/M + 1)/sqrt(1 + mu^2)))/2 */
    for (int k = 0; k < 2; k++) {
        double mu = m.fig6_mu, r = m.fig6_m_over_M;
        double th = 0.5 * (atan(mu) + (k ? 1 : -1) * acos((2 * r + 1) / sqrt(1 + mu * mu)));
        cr_assert(fabs(th - m.fig6_theta_M[k]) < m.tol, "angle %d: %.9f vs %.9f", k, th, m.fig6_theta_M[k]);
        fl_model_example_3_14_mass(r, 1.0, th, sys->M);
        cr_assert(fabs(gsl_matrix_get(sys->M, 0, 0) + mu * gsl_matrix_get(sys->M, 1, 0)) < 1e-14);
    }
    fl_model_example_3_14_system_free(sys);
    fl_model_example_3_14_release(&m);
}

/* ---- Example 3.15: proofs/models_004.md §2 ---- */
Test(models_004, example_3_15_springs_and_equilibrium)
{
    char path[4096];
    data_path("004/example_3_15.json", path, sizeof path);
    fl_model_example_3_15 m;
    fl_error err;
    cr_assert_eq(fl_model_example_3_15_load(path, &m, &err), FL_OK, "%s", err.message);
    cr_assert_eq(m.mu->size, 7);
    const double K = 3.0, Mm = 2.0, P = 0.7, mu = 1.3;
    fl_model_example_3_15_system *sys = NULL;
    cr_assert_eq(fl_model_example_3_15_system_alloc(K, Mm, P, mu, &sys, &err), FL_OK);
    /* springs D-F, F-N and on T */
    const double k[4][4] = {{1, -1, 0, 0}, {-1, 2, 0, -1}, {0, 0, 1, 0}, {0, -1, 0, 1}};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            cr_assert_eq(gsl_matrix_get(sys->K, i, j), K * k[i][j]);
            cr_assert_eq(gsl_matrix_get(sys->M, i, j), i == j ? Mm : 0.0);
        }
    const double r0[4] = {P, 0, -mu * P, -P}, f[4] = {-2 * P, 2 * P, mu * P, 0};
    gsl_vector *Ku = gsl_vector_alloc(4);
    gsl_blas_dgemv(CblasNoTrans, 1.0, sys->K, sys->u0, 0.0, Ku);
    for (size_t i = 0; i < 4; i++) {
        cr_assert_float_eq(gsl_vector_get(sys->r0, i), r0[i], 1e-15);
        cr_assert_float_eq(gsl_vector_get(sys->f, i), f[i], 1e-15);
        cr_assert_float_eq(gsl_vector_get(Ku, i) - f[i], r0[i], 1e-14, "row %zu", i);
    }
    cr_assert(sys->pres[0] && !sys->pres[1] && sys->iT == 2 && sys->iN == 3);
    fl_model_example_3_15_system_free(sys);
    cr_assert_eq(fl_model_example_3_15_system_alloc(K, Mm, P, -1.0, &sys, &err), FL_EINVAL);
    cr_assert_null(sys);
    gsl_vector_free(Ku);
    fl_model_example_3_15_release(&m);
}

/* ---- Example 4.6: proofs/models_004.md §3 ---- */
Test(models_004, example_4_6_matrices_and_steady_sliding)
{
    char path[4096];
    data_path("004/example_4_6.json", path, sizeof path);
    fl_model_example_4_6 m;
    fl_error err;
    cr_assert_eq(fl_model_example_4_6_load(path, &m, &err), FL_OK, "%s", err.message);
    /* the Fig. 9 caption values (004 §4) */
    cr_assert_eq(m.uD_dot, -0.015);
    cr_assert_eq(m.mu, 2.2);
    cr_assert_eq(m.Mg_over_EA, 0.01);
    cr_assert(m.rb == 0.07 && m.hb == 0.1 && m.rm == 0.15 && m.hm == 0.05);
    fl_model_example_4_6_system *sys = NULL;
    cr_assert_eq(fl_model_example_4_6_system_alloc(m.mu, m.rb, m.hb, m.rm, m.hm, &sys, &err), FL_OK);
    double rb = m.rb, hb = m.hb, rm = m.rm, hm = m.hm;
    cr_assert_float_eq(gsl_matrix_get(sys->K, 1, 1), 4 * rb * rb + hb * hb, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->K, 1, 3), 6 * rb * rb, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->K, 3, 3), 12 * rb * rb, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->M, 1, 1), hm * hm + rm * rm, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(sys->M, 1, 2), -hm, 1e-15);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            cr_assert_eq(gsl_matrix_get(sys->K, i, j), gsl_matrix_get(sys->K, j, i));
            cr_assert_eq(gsl_matrix_get(sys->M, i, j), gsl_matrix_get(sys->M, j, i));
        }
    /* the closed forms, by hand at the Fig. 9 values: c = 1.33 */
    double rN, uth, dDT;
    fl_model_example_4_6_steady(&m, &rN, &uth, &dDT);
    cr_assert_float_eq(rN, -0.01 / 1.33, 1e-15);
    cr_assert_float_eq(uth, 2.2 * 0.01 * 0.1 / (4 * 1.33 * 0.0049), 1e-14);
    cr_assert_float_eq(dDT, -2.2 * 0.01 * (1 + 0.01 / (4 * 0.0049)) / 1.33, 1e-14);
    cr_assert(fabs(rN - m.r0_N) < m.tol && fabs(uth - m.u0_theta) < m.tol && fabs(dDT - m.u0_D_minus_u0_T) < m.tol);
    /* rows theta, T, N of K u0 = f + r0 (004 (16)) */
    gsl_vector *u0 = gsl_vector_calloc(4), *Ku = gsl_vector_alloc(4);
    gsl_vector_set(u0, 0, dDT);
    gsl_vector_set(u0, 1, uth);
    gsl_blas_dgemv(CblasNoTrans, 1.0, sys->K, u0, 0.0, Ku);
    cr_assert(fabs(gsl_vector_get(Ku, 1)) < 1e-15);
    cr_assert(fabs(gsl_vector_get(Ku, 2) - m.mu * rN * -1.0) < 1e-15);
    cr_assert(fabs(gsl_vector_get(Ku, 3) - (m.Mg_over_EA + rN)) < 1e-15);
    /* the flutter state of Fig. 9: Lambda of the data file */
    fl_stability_result res = {0};
    cr_assert_eq(fl_model_example_4_6_analyse(sys, -1.0, rN, &res, &err), FL_OK, "%s", err.message);
    cr_assert(res.flutter);
    cr_assert(fabs(res.lam_re[0] - m.Lambda_sigma_minus[0]) < m.tol);
    fl_stability_result_free(&res);
    gsl_vector_free(u0);
    gsl_vector_free(Ku);
    fl_model_example_4_6_system_free(sys);
}

/* ---- the polyurethane block: proofs/models_004.md §4 ---- */
Test(models_004, polyurethane_block, .timeout = 120)
{
    char path[4096];
    data_path("004/polyurethane.json", path, sizeof path);
    static fl_model_polyurethane par;
    fl_error err;
    cr_assert_eq(fl_model_polyurethane_load(path, &par, &err), FL_OK, "%s", err.message);
    /* 004 §5 values and Table 1 as printed */
    cr_assert(par.E == 5.0 && par.nu == 0.48 && par.mu == 1.1 && par.FN0 == -55.0);
    cr_assert_float_eq(par.rho, 1.2e-9, 1e-24);
    cr_assert_eq(par.nrows, 16);
    cr_assert(par.rows[0].UT == -0.87 && par.rows[0].stick == 20 && par.rows[0].flutter_mode == 57);
    cr_assert(par.rows[3].UT == -1.35 && par.rows[3].ks == -0.130 && par.rows[3].lambda == 7.43e6);
    cr_assert(par.rows[15].UT == -6.2 && par.rows[15].stick == 0 && par.rows[15].slip == 17);
    cr_assert(par.rows[7].discrepancy && par.rows[8].discrepancy && !par.rows[6].discrepancy);
    cr_assert(par.rows[0].quick && par.rows[3].quick && par.rows[15].quick && !par.rows[1].quick);
    cr_assert_eq(par.nlevels, 6);
    fl_model_polyurethane_block b;
    cr_assert_eq(fl_model_polyurethane_block_init(&par, &b, &err), FL_OK, "%s", err.message);
    size_t nodes = (size_t)((par.nx + 1) * (par.ny + 1) + par.nx * par.ny);
    cr_assert_eq(b.n, 2 * nodes);
    cr_assert_eq(b.n, 862);
    cr_assert_eq(b.nc, (size_t)par.nx + 1);
    cr_assert_eq(b.nc, 21);
    /* consistent mass of a translation = rho L H; rigid translations in ker K */
    gsl_vector *ex = gsl_vector_calloc(b.n), *y = gsl_vector_alloc(b.n);
    for (size_t i = 0; i < b.n; i += 2) gsl_vector_set(ex, i, 1.0);
    gsl_blas_dgemv(CblasNoTrans, 1.0, b.M, ex, 0.0, y);
    double mass;
    gsl_blas_ddot(ex, y, &mass);
    cr_assert(fabs(mass - par.rho * par.L * par.H) < 1e-12 * par.rho * par.L * par.H, "%g", mass);
    gsl_blas_dgemv(CblasNoTrans, 1.0, b.K, ex, 0.0, y);
    cr_assert(gsl_blas_dnrm2(y) < 1e-10 * par.E, "K e_x = %g", gsl_blas_dnrm2(y));
    /* the thickness makes the pressed normal force F_N^0 */
    fl_stability_label *lab = malloc(b.nc * sizeof *lab);
    int ns, nl, nf;
    double FT, FN;
    cr_assert_eq(fl_model_polyurethane_state(&b, 0.0, lab, &ns, &nl, &nf, &FT, &FN, &err), FL_OK);
    cr_assert(fabs(FN * b.thick - par.FN0) < 1e-9 * fabs(par.FN0), "F_N = %g", FN * b.thick);
    cr_assert_eq(ns, 21, "all stuck after pressing");
    cr_assert(fabs(FT) < 1e-9 * fabs(FN));
    free(lab);
    /* Rayleigh: zeta(w_i) = xi_i / sqrt(1 + xi_i^2) at both frequencies */
    double al, be, w1 = 2 * FL_PI * 454, w2 = 2 * FL_PI * 1530;
    fl_model_polyurethane_rayleigh(0.15, 0.5, w1, w2, &al, &be);
    cr_assert_float_eq(al / (2 * w1) + be * w1 / 2, 0.15 / sqrt(1 + 0.0225), 1e-13);
    cr_assert_float_eq(al / (2 * w2) + be * w2 / 2, 0.075 / sqrt(1 + 0.075 * 0.075), 1e-13);
    gsl_vector_free(ex);
    gsl_vector_free(y);
    fl_model_polyurethane_block_free(&b);
}

/* ---- the rod of 000 Theorem 1: proofs/models_004.md §5 ---- */
Test(models_004, theorem1_rod_mass_and_gamma)
{
    fl_model_theorem1 mod;
    fl_error err;
    cr_assert_eq(fl_model_theorem1_load_data(NULL, &mod, &err), FL_OK, "%s", err.message);
    cr_assert_eq(mod.neps, 4);
    cr_assert_eq(mod.samples, 20000);
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    for (int c = 0; c < 3; c++) {
        fl_model_theorem1_rod *rod = &mod.cases[c].rod;
        double th = mod.cases[c].q[2];
        gsl_vector_view qv = gsl_vector_view_array(mod.cases[c].q, 3);
        cr_assert_eq(fl_model_theorem1_rod_mass(&qv.vector, M, rod), FL_OK);
        cr_assert_float_eq(gsl_matrix_get(M, 0, 2), -rod->m * rod->l * sin(th), 1e-15);
        cr_assert_float_eq(gsl_matrix_get(M, 1, 2), rod->m * rod->l * cos(th), 1e-15);
        cr_assert_float_eq(gsl_matrix_get(M, 2, 2), rod->m * rod->l * rod->l + rod->J, 1e-15);
        /* det M = m^2 J */
        gsl_permutation *p = gsl_permutation_alloc(3);
        int sg;
        gsl_linalg_LU_decomp(M, p, &sg);
        cr_assert_float_eq(gsl_linalg_LU_det(M, sg), rod->m * rod->m * rod->J, 1e-14);
        gsl_permutation_free(p);
        /* gamma = (1 + 3 cos^2 - 3 mu |sin cos|)/m for J = m l^2/3 */
        double g = (1 + 3 * cos(th) * cos(th) - 3 * fl_model_theorem1_rod_mu(rod, th) * fabs(sin(th) * cos(th))) / rod->m;
        cr_assert_float_eq(fl_model_theorem1_rod_gamma(rod, th), g, 1e-14);
        cr_assert(fabs(g - mod.cases[c].gamma) <= mod.cases[c].gamma_tol, "case %d: %g vs %g", c, g, mod.cases[c].gamma);
    }
    gsl_matrix_free(M);
}

/* ---- bad files: a copy of a data file with one field broken ---- */

/* The loaders, one signature for the table below. */
MODEL_LOADER_RELEASE(load_3_14, fl_model_example_3_14, fl_model_example_3_14_load, fl_model_example_3_14_release)
MODEL_LOADER_RELEASE(load_3_15, fl_model_example_3_15, fl_model_example_3_15_load, fl_model_example_3_15_release)
MODEL_LOADER(load_4_6, fl_model_example_4_6, fl_model_example_4_6_load)
MODEL_LOADER(load_poly, fl_model_polyurethane, fl_model_polyurethane_load)
MODEL_LOADER(load_rod, fl_model_theorem1, fl_model_theorem1_load)

Test(models_004, bad_files_name_the_file_and_field, .timeout = 60)
{
    const struct {
        const char *rel, *at, *field;   /* the member at (dotted path) set to value (NULL: removed) */
        json_t *value;
        model_loader load;
    } bad[] = {
        {"004/example_3_14.json", "params.m", "params.m", json_string("heavy"), load_3_14},
        {"004/example_3_14.json", "params.alpha", "params.alpha", json_real(5.0), load_3_14},       /* alpha > mu */
        {"004/example_3_14.json", "params.theta_M", "params.theta_M", json_real(2.0), load_3_14},   /* > pi/2 */
        {"004/example_3_14.json", "grid.mu", "grid.mu", json_array(), load_3_14},
        {"004/example_3_14.json", "grid.m_over_M", "grid.m_over_M", json_pack("[f]", -1.0), load_3_14},
        {"004/example_3_14.json", "grid.theta_M_steps", "grid.theta_M_steps", json_real(2.5), load_3_14},
        {"004/example_3_14.json", "expected.case_1A", "expected.case_1A", NULL, load_3_14},
        {"004/example_3_14.json", "expected.fig6_theta_M", "expected.fig6_theta_M", json_pack("[f]", 0.1), load_3_14},
        {"004/example_3_14.json", "expected.fig6_params.mu", "expected.fig6_params.mu", json_real(-1), load_3_14},
        {"004/example_3_15.json", "params.K", "params.K", json_real(-1.0), load_3_15},
        {"004/example_3_15.json", "params.P", "params.P", NULL, load_3_15},
        {"004/example_3_15.json", "params.mu", "params.mu", json_pack("[f, f]", 1.0, -2.0), load_3_15},
        {"004/example_3_15.json", "params.mu", "params.mu", json_array(), load_3_15},
        {"004/example_3_15.json", "expected.tolerance", "expected.tolerance", json_real(0.0), load_3_15},
        {"004/example_4_6.json", "params.RB_over_L", "params.RB_over_L", NULL, load_4_6},                 /* missing */
        {"004/example_4_6.json", "params.uD_dot", "params.uD_dot", json_real(0.0), load_4_6},
        {"004/example_4_6.json", "params.HM_over_L", "params.HM_over_L", json_real(-0.1), load_4_6},
        {"004/example_4_6.json", "grid_hm0.mu", "grid_hm0.mu", json_pack("[f, f]", 5.0, 1.0), load_4_6},
        {"004/example_4_6.json", "expected.Lambda_sigma_plus", "expected.Lambda_sigma_plus", json_pack("[f]", 1.0),
         load_4_6},
        {"004/example_4_6.json", "dynamics.h", "dynamics.h", json_real(0.0), load_4_6},
        {"004/example_4_6.json", "dynamics.theta_method", "dynamics.theta_method", json_real(2.0), load_4_6},
        {"004/polyurethane.json", "params.nu", "params.nu", json_real(0.5), load_poly},             /* incompressible */
        {"004/polyurethane.json", "params.E_MPa", "params.E_MPa", json_real(0.0), load_poly},
        {"004/polyurethane.json", "params.contact_nodes", "params.contact_nodes", json_real(2.5), load_poly},
        {"004/polyurethane.json", "params.F_N0_N", "params.F_N0_N", json_real(10.0), load_poly},
        {"004/polyurethane.json", "params.H_over_L", "params.chosen.H_mm", json_real(0.7), load_poly},
        {"004/polyurethane.json", "params.chosen.mesh_cells", "params.chosen.mesh_cells",
         json_pack("[i, f]", 20, 0.5), load_poly},
        {"004/polyurethane.json", "params.chosen.U_T_increment_mm", "params.chosen.U_T_increment_mm",
         json_real(0.0), load_poly},
        {"004/polyurethane.json", "params.chosen.damping", "params.chosen.damping", NULL, load_poly},
        {"004/polyurethane.json", "expected.table_1_rows", "expected.table_1_rows",                   /* 22 nodes */
         json_pack("[[f, i, i, i, f, f, i]]", -0.87, 20, 1, 1, 0.076, 8.19e6, 57), load_poly},
        {"004/polyurethane.json", "expected.table_1_rows", "expected.table_1_rows",                   /* increasing U_T */
         json_pack("[[f, i, i, i, f, f, i], [f, i, i, i, f, f, i]]", -1.05, 19, 1, 1, 0.071, 7.91e6, 11, -0.87, 20, 1, 0,
                   0.076, 8.19e6, 57), load_poly},
        {"004/polyurethane.json", "expected.quick_rows_U_T_mm", "expected.quick_rows_U_T_mm", json_pack("[f]", -0.5),
         load_poly},
        {"004/polyurethane.json", "expected.table_1_Lambda_discrepancies", "expected.table_1_Lambda_discrepancies",
         json_pack("[{s:f, s:s}]", "U_T_mm", -1.0, "reason", "none"), load_poly},
        {"004/polyurethane.json", "expected.damping_mode_switch", "expected.damping_mode_switch.xi",
         json_pack("{s:[f, f], s:[i, i]}", "xi", 0.05, 0.15, "mode", 3, 5), load_poly},            /* not consecutive */
        {"000/theorem1_rod.json", "system.J", "system.J", json_real(0.0), load_rod},
        {"000/theorem1_rod.json", "sampling.eps", "sampling.eps", json_pack("[f, f]", 0.1, 2.0), load_rod},
        {"000/theorem1_rod.json", "sampling.segment_grid", "sampling", json_real(1.5), load_rod},
        {"000/theorem1_rod.json", "sampling.quick_eps_count", "sampling", json_real(9.0), load_rod},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        refuse_one(bad[i].rel, bad[i].load, bad[i].at, bad[i].value, bad[i].field);
    /* a missing file names itself */
    fl_error e;
    cr_assert_neq(load_rod("/nonexistent/theorem1_rod.json", &e), FL_OK);
    cr_assert_not_null(strstr(e.message, "/nonexistent/theorem1_rod.json"), "%s", e.message);
}
