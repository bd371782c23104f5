/* test_models_002_003.c — the papers' systems of 002 and 003 as models/
 * builds them from data/: the values of the papers' tables, the closed
 * forms of proofs/models_002_003.md, and bad files refused with the file
 * and field named.  Models: models/fl_model_square_block.c,
 * fl_model_triangle.c, fl_model_wedged_rod.c, fl_model_discs.c. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_blas.h>

#include "fl_data.h"
#include "fl_scalar.h"
#include "testkit/fl_random.h"
#include "models/fl_model_discs.h"
#include "models/fl_model_square_block.h"
#include "models/fl_model_triangle.h"
#include "models/fl_model_wedged_rod.h"

static void data_file(const char *rel, char *path, size_t len)
{
    fl_error err;
    cr_assert_eq(fl_data_path(NULL, rel, path, len, &err), FL_OK, "%s", err.message);
}

/* A copy of data file `rel` with params.<key> replaced by `value` (a JSON
 * text; NULL deletes the member), written to a temporary file `out`. */
static void edited_copy(const char *rel, const char *obj, const char *key, const char *value, char *out, size_t len)
{
    char path[4096];
    data_file(rel, path, sizeof path);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    cr_assert_not_null(root, "%s", je.text);
    json_t *o = json_object_get(root, obj);
    cr_assert_not_null(o);
    if (value) {
        json_t *v = json_loads(value, JSON_DECODE_ANY, &je);
        cr_assert_not_null(v, "%s", je.text);
        json_object_set_new(o, key, v);
    } else {
        json_object_del(o, key);
    }
    snprintf(out, len, "/tmp/fl_models_XXXXXX");
    int fd = mkstemp(out);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(json_dump_file(root, out, JSON_INDENT(1)), 0);
    json_decref(root);
}

/* The error names the file and the field. */
static void refused(fl_status s, const fl_error *err, const char *file, const char *field)
{
    cr_assert_lt(s, 0, "a bad file must be refused");
    cr_assert(strstr(err->message, field) != NULL || strstr(err->file, field) != NULL,
              "message '%s' does not name the field %s", err->message, field);
    cr_assert(strstr(err->file, file) != NULL || strstr(err->message, file) != NULL,
              "error (%s: %s) does not name the file %s", err->file, err->message, file);
    unlink(file);
}

/* ---- 002 §7 square block ---- */

Test(models_002_003, square_block_table_1_and_table_2)
{
    fl_model_square_block m;
    fl_error err;
    cr_assert_eq(fl_model_square_block_load_data(NULL, &m, &err), FL_OK, "%s", err.message);
    /* 002 Table 1 in SI units */
    cr_assert_float_eq(m.block.mat.rho, 1000.0, 1e-12);
    cr_assert_float_eq(m.block.mat.lambda, 3e8, 1e-3);
    cr_assert_float_eq(m.block.mat.mu, 1.5e8, 1e-3);
    cr_assert_float_eq(m.block.lx, 0.1, 1e-15);
    cr_assert_float_eq(m.block.mu, 1.2, 1e-15);
    cr_assert_float_eq(m.block.v_found, 20.0, 1e-15);
    cr_assert_float_eq(m.block.top_uy, -2.5e-5, 1e-18);   /* -2.5e-3 cm */
    cr_assert_eq(m.block.redist, FL_REDIST_NORMAL);
    /* h = 0.5 cm: 10 cm / 0.5 cm = 20 cells (proofs/models_002_003.md (1)) */
    cr_assert_eq(m.block.nx, 20u);
    cr_assert_eq(m.block.ny, 20u);
    /* 002 Table 2: h = 2, 1, 0.5, 0.25, 0.0625 cm -> 5, 10, 20, 40, 160 cells */
    const double h[5] = {2, 1, 0.5, 0.25, 0.0625}, dt[5] = {1.6e-5, 8e-6, 4e-6, 2e-6, 5e-7};
    const size_t cells[5] = {5, 10, 20, 40, 160};
    for (int i = 0; i < 5; i++) {
        cr_assert_float_eq(m.table2_h_cm[i], h[i], 1e-15);
        cr_assert_float_eq(m.table2_dt_s[i], dt[i], 1e-20);
        cr_assert_eq(fl_model_square_block_table2_cells(&m, i), cells[i], "row %d", i + 1);
    }
    cr_assert_eq(fl_model_square_block_table2_cells(&m, 5), 0u);
    /* the documented H1 discrepancies of the full run: experiments 2 and 4 */
    cr_assert(!m.table2_h1_documented[0] && m.table2_h1_documented[1] && !m.table2_h1_documented[2]
              && m.table2_h1_documented[3] && !m.table2_h1_documented[4]);
    cr_assert_gt(strlen(m.table2_h1_reason), 20u);
    cr_assert_float_eq(m.table2_T, 0.005, 1e-15);
    fl_midpoint_block_params bp;
    cr_assert_eq(fl_model_square_block_params(&m, 0.01, &bp, &err), FL_OK);
    cr_assert_eq(bp.nx, 10u);
    cr_assert_eq(fl_model_square_block_params(&m, 0.003, &bp, &err), FL_EINVAL);
    fl_midpoint_block *b = NULL;
    cr_assert_eq(fl_midpoint_block_alloc(&m.block, &b, &err), FL_OK, "%s", err.message);
    cr_assert_eq(b->nc, 21u, "one contact node per bottom node: nx + 1");
    fl_midpoint_block_free(b);
}

Test(models_002_003, square_block_bad_files_name_file_and_field)
{
    char f[64];
    fl_model_square_block m;
    fl_error err;
    edited_copy("002/square_block_002.json", "params", "rho", NULL, f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "rho");
    edited_copy("002/square_block_002.json", "params", "h", "0.003", f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "h");
    edited_copy("002/square_block_002.json", "params", "plane", "\"cubic\"", f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "plane");
    edited_copy("002/square_block_002.json", "params", "F", "-1", f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "F");
    edited_copy("002/square_block_002.json", "params", "table2", "{\"h_cm\": [2, 1, 0.5, 0.25], \"dt_s\": [1, 1, 1, 1, 1], "
                "\"interval_s\": 0.005, \"sample_dt_s\": 8e-5}", f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "h_cm");
    edited_copy("002/square_block_002.json", "params", "table2", "{\"h_cm\": [2, 1, 0.5, 0.3, 0.0625], \"dt_s\": [1, 1, 1, 1, 1], "
                "\"interval_s\": 0.005, \"sample_dt_s\": 8e-5}", f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "h_cm");
    edited_copy("002/square_block_002.json", "expected", "table2_H1_not_decreasing", "{\"rows\": [1], \"reason\": \"x\"}",
                f, sizeof f);
    refused(fl_model_square_block_load(f, &m, &err), &err, f, "rows");
    cr_assert_eq(m.block.nx, 0u, "a refused file leaves the model zeroed");
    cr_assert_lt(fl_model_square_block_load("/nonexistent/square.json", &m, &err), 0);
}

/* ---- 002 §6 single triangle ---- */

Test(models_002_003, triangle_trial_run_constants)
{
    char path[4096];
    fl_model_triangle m;
    fl_error err;
    data_file("002/triangle_002.json", path, sizeof path);
    cr_assert_eq(fl_model_triangle_load(path, &m, &err), FL_OK, "%s", err.message);
    /* proofs/models_002_003.md (2): lam = mu = 1, m1 = 1/4, m2 = 0, dt = 1 -> (a, b, c) = (3, 1, 2) */
    cr_assert_float_eq(m.sys.a, 3.0, 1e-15);
    cr_assert_float_eq(m.sys.b, 1.0, 1e-15);
    cr_assert_float_eq(m.sys.c, 2.0, 1e-15);
    cr_assert_float_eq(m.F_values[1], m.sys.c / m.sys.b, 1e-15, "the middle F is c/b (Fig. 5)");
    cr_assert_lt(m.F_values[0], m.sys.c / m.sys.b);
    cr_assert_gt(m.F_values[2], m.sys.c / m.sys.b);
    cr_assert_float_eq(m.fhat_lo, -3.0, 0);
    cr_assert_float_eq(m.fhat_hi, 3.0, 0);
}

/* Each branch solves the two equations of (23) with its own contact state
 * (proofs/triangle_002.md (i)-(iv)); F < c/b: exactly one region holds each
 * fhat off the boundaries; F > c/b: sigma4 = sigma1 ∩ sigma2. */
Test(models_002_003, triangle_branches_solve_23_and_regions_count)
{
    gsl_rng *r = fl_test_rng(23);
    int tested = 0;
    for (int k = 0; k < 4000; k++) {
        fl_model_triangle_system t = {2 * gsl_rng_uniform(r), 0.1 + gsl_rng_uniform(r), gsl_rng_uniform(r),
                                      gsl_rng_uniform(r), 0.1 + gsl_rng_uniform(r), 0, 2 * gsl_rng_uniform(r) - 1,
                                      0, 0, 0};
        fl_model_triangle_constants(&t);
        cr_assert_gt(t.a * t.c - t.b * t.b, 0, "ac - b^2 > 0 (proofs/triangle_002.md)");
        t.F = t.c / t.b * (k % 2 ? 0.2 + 0.7 * gsl_rng_uniform(r) : 1.2 + 3 * gsl_rng_uniform(r));
        double fn = 4 * gsl_rng_uniform(r) - 2, ft = 4 * gsl_rng_uniform(r) - 2, sc = t.a + t.c;
        for (int i = 1; i <= 4; i++) {
            double S[4];
            fl_model_triangle_branch(&t, i, fn, ft, S);
            cr_assert_float_eq(t.a * S[0] - t.b * S[1], fn + S[2], 1e-12 * sc, "S%d eq. 1 %s", i, fl_test_seed_note());
            cr_assert_float_eq(-t.b * S[0] + t.c * S[1], ft + S[3], 1e-12 * sc, "S%d eq. 2 %s", i, fl_test_seed_note());
            if (i == 1) cr_assert(S[2] == 0 && S[3] == 0);
            if (i == 2) cr_assert(S[0] == 0 && S[1] == t.utk);
            if (i == 3) cr_assert_float_eq(S[3], t.F * S[2], 1e-12 * sc);
            if (i == 4) cr_assert_float_eq(S[3], -t.F * S[2], 1e-12 * sc);
        }
        int in[5] = {0}, skip = 0, n = 0;
        for (int i = 1; i <= 4; i++) {
            int v = fl_model_triangle_region(&t, i, fn, ft, 1e-9);
            skip |= v < 0;
            in[i] = v == 1;
            n += in[i];
        }
        if (skip) continue;
        tested++;
        if (t.F < t.c / t.b) cr_assert_eq(n, 1, "F < c/b: one region %s", fl_test_seed_note());
        else cr_assert_eq(in[4], in[1] && in[2], "sigma4 = sigma1 ∩ sigma2 %s", fl_test_seed_note());
    }
    cr_assert_gt(tested, 3500);
    gsl_rng_free(r);
}

Test(models_002_003, triangle_bad_files_name_file_and_field)
{
    char f[64];
    fl_model_triangle m;
    fl_error err;
    edited_copy("002/triangle_002.json", "params", "F_values", "[1.5, 2.0]", f, sizeof f);
    refused(fl_model_triangle_load(f, &m, &err), &err, f, "F_values");
    edited_copy("002/triangle_002.json", "params", "dt", "0", f, sizeof f);
    refused(fl_model_triangle_load(f, &m, &err), &err, f, "dt");
    edited_copy("002/triangle_002.json", "params", "fhat_box", "[3, -3]", f, sizeof f);
    refused(fl_model_triangle_load(f, &m, &err), &err, f, "fhat_box");
    edited_copy("002/triangle_002.json", "params", "mu", NULL, f, sizeof f);
    refused(fl_model_triangle_load(f, &m, &err), &err, f, "mu");
}

/* ---- 003 §2 wedged rod ---- */

Test(models_002_003, wedged_rod_problem_and_closed_forms)
{
    char path[4096];
    fl_model_wedged_rod w;
    fl_error err;
    data_file("003/wedged_rod.json", path, sizeof path);
    cr_assert_eq(fl_model_wedged_rod_load(path, &w, &err), FL_OK, "%s", err.message);
    cr_assert_float_eq(w.beta, 5.0 * FL_PI / 180.0, 1e-15);
    cr_assert_eq(w.steps_up, 50);
    double ui[3] = {0.1, -0.2, 0.3}, P = 0.7;
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_model_wedged_rod_problem(&w, ui, P, &g, &err), FL_OK, "%s", err.message);
    /* proofs/models_002_003.md (3): M = diag(m, m, m L^2/12), f = M ui + h (0, P - m g, 0) */
    cr_assert_float_eq(gsl_matrix_get(g->M, 2, 2), w.m * w.L * w.L / 12, 1e-15);
    cr_assert_float_eq(gsl_vector_get(g->f, 1), w.m * ui[1] + w.h * (P - w.m * w.g), 1e-15);
    /* rows: n_A, t_A orthonormal, and a contact velocity from a rigid motion */
    double cb = cos(w.beta), sb = sin(w.beta), v[3] = {0.4, 1.1, -0.6};
    for (int c = 0; c < 2; c++) {
        double vx = v[0], vy = v[1] + (c ? 1 : -1) * v[2] * w.L / 2, s = c ? -1 : 1;
        double UN = s * cb * vx - sb * vy, UT = s * sb * vx + cb * vy;
        double hn = 0, ht = 0;
        for (int j = 0; j < 3; j++) {
            hn += gsl_matrix_get(g->H, 2 * c, j) * v[j];
            ht += gsl_matrix_get(g->H, 2 * c + 1, j) * v[j];
        }
        cr_assert_float_eq(hn, UN, 1e-14, "U_N at %c", c ? 'B' : 'A');
        cr_assert_float_eq(ht, UT, 1e-14, "U_T at %c", c ? 'B' : 'A');
    }
    fl_global_problem_free(g);
    /* wedged forces: vertical balance, R_N = 2 R_N,min, inside the cone */
    double r[4], mg = w.m * w.g;
    cr_assert_eq(fl_model_wedged_rod_wedged_forces(&w, r, &err), FL_OK);
    cr_assert_float_eq(2 * (r[1] * cb - r[0] * sb), mg, 1e-12 * mg);
    cr_assert_float_eq(r[0], mg / (w.mu * cb - sb), 1e-12 * mg);
    cr_assert_leq(r[1], w.mu * r[0]);
    cr_assert(r[0] == r[2] && r[1] == r[3]);
    /* detachment: X = 0 -> P = m g; X = m g (cb + mu sb)/(2 (mu cb - sb)) -> P = 0 */
    cr_assert_float_eq(fl_model_wedged_rod_detachment(&w, 0.0), 1.0, 1e-15);
    cr_assert_float_eq(fl_model_wedged_rod_detachment(&w, mg * (cb + w.mu * sb) / (2 * (w.mu * cb - sb))), 0.0, 1e-12);
    fl_model_wedged_rod nw = w;
    nw.mu = 0.05;   /* tan(5 deg) = 0.087 > 0.05: no wedging */
    cr_assert_eq(fl_model_wedged_rod_wedged_forces(&nw, r, &err), FL_EINVAL);
}

Test(models_002_003, wedged_rod_bad_files_name_file_and_field)
{
    char f[64];
    fl_model_wedged_rod w;
    fl_error err;
    edited_copy("003/wedged_rod.json", "params", "beta_deg", "95", f, sizeof f);
    refused(fl_model_wedged_rod_load(f, &w, &err), &err, f, "beta_deg");
    edited_copy("003/wedged_rod.json", "params", "steps_up", "2.5", f, sizeof f);
    refused(fl_model_wedged_rod_load(f, &w, &err), &err, f, "steps_up");
    edited_copy("003/wedged_rod.json", "params", "h", NULL, f, sizeof f);
    refused(fl_model_wedged_rod_load(f, &w, &err), &err, f, "h");
}

/* ---- 003 §4-5 disc packings ---- */

Test(models_002_003, discs_built_from_the_files)
{
    char path[4096];
    fl_error err;
    fl_model_discs_28 a;
    data_file("003/discs_28.json", path, sizeof path);
    cr_assert_eq(fl_model_discs_28_load(path, &a, &err), FL_OK, "%s", err.message);
    cr_assert_float_eq(a.N, 28, 0);   /* 003 §4: 28 discs */
    gsl_rng *r = fl_test_rng(28);
    fl_discs *d = NULL;
    cr_assert_eq(fl_model_discs_28_build(&a, r, &d, &err), FL_OK, "%s", err.message);
    cr_assert_eq(d->N, 28u);
    cr_assert_float_eq(d->wall_right - d->wall_left, a.width, 1e-15);
    for (size_t i = 0; i < d->N; i++) {
        cr_assert(d->R[i] >= a.R_min && d->R[i] <= a.R_max);
        /* proofs/models_002_003.md (4): m = rho pi R^2 */
        cr_assert_float_eq(d->m[i], a.rho * FL_PI * d->R[i] * d->R[i], 1e-12);
    }
    fl_discs_free(d);
    fl_model_discs_355 b;
    data_file("003/discs_355.json", path, sizeof path);
    cr_assert_eq(fl_model_discs_355_load(path, &b, &err), FL_OK, "%s", err.message);
    cr_assert_float_eq(b.N, 355, 0);   /* 003 §5: 355 discs, 24 degree slope */
    cr_assert_float_eq(b.slope_deg, 24, 0);
    /* 003 §5: 556 contacts, 75% zero sliding (Fig. 4); 544, 70% (Fig. 5) */
    cr_assert_float_eq(b.paper_contacts[0], 556, 0);
    cr_assert_float_eq(b.paper_contacts[1], 544, 0);
    cr_assert_float_eq(b.paper_zero_sliding[0], 0.75, 1e-15);
    cr_assert_float_eq(b.paper_zero_sliding[1], 0.70, 1e-15);
    cr_assert_eq(fl_model_discs_355_build(&b, r, &d, &err), FL_OK, "%s", err.message);
    cr_assert_eq(d->N, 355u);
    cr_assert(d->periodic && d->ground);
    cr_assert_float_eq(d->a, b.a, 0);
    cr_assert_float_eq(d->gy, -b.g, 0);
    fl_discs_free(d);
    gsl_rng_free(r);
}

Test(models_002_003, discs_bad_files_name_file_and_field)
{
    char f[64];
    fl_error err;
    fl_model_discs_28 a;
    fl_model_discs_355 b;
    edited_copy("003/discs_28.json", "params", "N", "2.5", f, sizeof f);
    refused(fl_model_discs_28_load(f, &a, &err), &err, f, "N");
    edited_copy("003/discs_28.json", "params", "R_max", "0.5", f, sizeof f);
    refused(fl_model_discs_28_load(f, &a, &err), &err, f, "R_max");
    edited_copy("003/discs_355.json", "params", "restitution", "1.5", f, sizeof f);
    refused(fl_model_discs_355_load(f, &b, &err), &err, f, "restitution");
    edited_copy("003/discs_355.json", "params", "gs_tol", NULL, f, sizeof f);
    refused(fl_model_discs_355_load(f, &b, &err), &err, f, "gs_tol");
    edited_copy("003/discs_355.json", "expected", "rows", "{\"step\": [11, 120], \"contacts\": [1, 2], "
                "\"zero_sliding\": [0.5, 0.5], \"contacts_rtol\": 0.1, \"zero_sliding_atol\": 0.1}", f, sizeof f);
    refused(fl_model_discs_355_load(f, &b, &err), &err, f, "step");
}
