/* test_checks_004.c — the checks of papers 004 and 000 (checks/
 * stability_checks.c, checks/polyurethane.c, checks/moreau_checks.c) can
 * fail: each task runs on its data file (every check passes) and on a copy
 * with one expected value or one input corrupted (the check comparing it
 * reports FAIL); the twin comparisons refuse a perturbed answer. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/fl_check.h"
#include "checks/fl_tasks.h"
#include "checks/stability_checks.h"
#include "fl_data.h"
#include "model_files.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "optimized/stability_sparse.h"

/* ---- running a task and recording its verdicts ---- */

#define REC_MAX 512
typedef struct rec {
    int n;
    char name[REC_MAX][96];
    int kind[REC_MAX];
} rec;

static void rec_add(rec *r, fl_check_kind kind, const char *name)
{
    if (r->n >= REC_MAX) return;
    snprintf(r->name[r->n], sizeof r->name[r->n], "%s", name);
    r->kind[r->n++] = (int)kind;
}

static void on_value(void *d, const fl_check_value_info *i) { rec_add(d, i->kind, i->name); }
static void on_line(void *d, fl_check_kind k, const char *name, const char *detail)
{
    (void)detail;
    rec_add(d, k, name);
}

/* FL_CHECK_FAIL if any result of that name failed, FL_CHECK_PASS if all
 * passed (notes aside), FL_CHECK_NOTE if all are notes, -1 if there is none. */
static int verdict(const rec *r, const char *name)
{
    int v = -1;
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->name[i], name) == 0) {
            if (r->kind[i] == FL_CHECK_FAIL) return FL_CHECK_FAIL;
            if (r->kind[i] == FL_CHECK_PASS) v = FL_CHECK_PASS;
            if (r->kind[i] == FL_CHECK_NOTE && v < 0) v = FL_CHECK_NOTE;
        }
    return v;
}

/* Run task on params (NULL: its data file), --quick or not, its files
 * into out_dir (NULL: a temporary directory, removed after). */
static long run_task_in(int (*task)(fl_check_ctx *), const char *params, int quick, const char *out_dir, rec *r)
{
    char out[] = "/tmp/fl_checks_004_out_XXXXXX";
    if (!out_dir) cr_assert_not_null(mkdtemp(out));
    fl_check_ctx ctx = fl_check_ctx_default();
    ctx.out_dir = out_dir ? out_dir : out;
    ctx.params = params;
    ctx.quick = quick;
    ctx.io.data = r;
    ctx.io.value = on_value;
    ctx.io.line = on_line;
    memset(r, 0, sizeof *r);
    cr_assert_eq(task(&ctx), 0, "the task could not run on %s", params ? params : "its data file");
    if (!out_dir) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
        cr_assert_eq(system(cmd), 0);
    }
    return ctx.failed;
}

static long run_task(int (*task)(fl_check_ctx *), const char *params, rec *r)
{
    return run_task_in(task, params, 1, NULL, r);
}

/* A copy of data file rel with the number at the dotted path (array
 * elements as [i]: "cases[0].expected.gamma") set to v; out receives the
 * temporary file's path. */
static void corrupt(const char *rel, const char *dotted, double v, char *out, size_t len)
{
    char path[4096];
    fl_error err;
    cr_assert_eq(fl_data_path(NULL, rel, path, sizeof path, &err), FL_OK, "%s", err.message);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je), *o = root;
    cr_assert_not_null(root, "%s", je.text);
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", dotted);
    char *tok = strtok_r(buf, ".", &save);
    while (tok) {
        char *next = strtok_r(NULL, ".", &save), *br = strchr(tok, '[');
        if (br) *br = '\0';
        json_t *member = json_object_get(o, tok);
        cr_assert_not_null(member, "%s: no member %s", rel, dotted);
        if (!next) {            /* the last token: replace the number */
            if (br) cr_assert_eq(json_array_set_new(member, (size_t)atoi(br + 1), json_real(v)), 0);
            else cr_assert_eq(json_object_set_new(o, tok, json_real(v)), 0);
        }
        o = br ? json_array_get(member, (size_t)atoi(br + 1)) : member;
        tok = next;
    }
    dump_tmp(root, out, len);
}

/* The check `name` passes on the data file and fails once `dotted` is v. */
static void expect_fails(int (*task)(fl_check_ctx *), const char *rel, const char *dotted, double v, const char *name)
{
    static rec r;
    char p[64];
    corrupt(rel, dotted, v, p, sizeof p);
    run_task(task, p, &r);
    unlink(p);
    cr_assert_eq(verdict(&r, name), FL_CHECK_FAIL, "%s still passes with %s = %g", name, dotted, v);
}

Test(checks_004, example_3_14_fails_on_wrong_closed_forms)
{
    static rec r;
    cr_assert_eq(run_task(fl_stability_reproduce_example_3_14, NULL, &r), 0);
    cr_assert_eq(verdict(&r, "example_3_14.fixture"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "example_3_14.fig6_case_2A"), FL_CHECK_PASS);
    expect_fails(fl_stability_reproduce_example_3_14, "004/example_3_14.json", "expected.case_1A.a_T", -1.2794146,
                 "example_3_14.fixture");
    expect_fails(fl_stability_reproduce_example_3_14, "004/example_3_14.json", "expected.case_1B.a_N", -1.6,
                 "example_3_14.fixture");
    expect_fails(fl_stability_reproduce_example_3_14, "004/example_3_14.json", "expected.fig6_theta_M[0]", 0.06,
                 "example_3_14.fig6_case_2A");
}

Test(checks_004, example_3_15_fails_without_its_tolerance)
{
    static rec r;
    cr_assert_eq(run_task(fl_stability_reproduce_example_3_15, NULL, &r), 0);
    cr_assert_eq(verdict(&r, "example_3_15.min_eig_KS"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "example_3_15.no_solution_67"), FL_CHECK_PASS);
    /* a tolerance of 1e-200 K: the computed eigenvalues are not exact */
    expect_fails(fl_stability_reproduce_example_3_15, "004/example_3_15.json", "expected.tolerance", 1e-200,
                 "example_3_15.min_eig_KS");
}

Test(checks_004, example_4_6_fails_on_wrong_values, .timeout = 120)
{
    static rec r;
    cr_assert_eq(run_task(fl_stability_reproduce_example_4_6, NULL, &r), 0);
    const char *names[] = {"example_4_6.steady_state", "example_4_6.fig9_flutter", "example_4_6.fig9_reversed",
                           "example_4_6.growth_rate", "example_4_6.growth", "example_4_6.limit_cycle"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        cr_assert_eq(verdict(&r, names[i]), FL_CHECK_PASS, "%s", names[i]);
    const char *f = "004/example_4_6.json";
    expect_fails(fl_stability_reproduce_example_4_6, f, "expected.r0_N", -0.0076, "example_4_6.steady_state");
    expect_fails(fl_stability_reproduce_example_4_6, f, "expected.Lambda_sigma_minus[0]", 1.07, "example_4_6.fig9_flutter");
    expect_fails(fl_stability_reproduce_example_4_6, f, "expected.Lambda_sigma_plus[1]", 1.44, "example_4_6.fig9_reversed");
    expect_fails(fl_stability_reproduce_example_4_6, f, "expected.growth_rate", 0.13, "example_4_6.growth_rate");
    expect_fails(fl_stability_reproduce_example_4_6, f, "expected.growth_rate", 0.13, "example_4_6.growth");
}

Test(checks_004, theorem1_fails_on_wrong_closed_forms)
{
    static rec r;
    cr_assert_eq(run_task(fl_moreau_reproduce_theorem1, NULL, &r), 0);
    cr_assert_eq(verdict(&r, "theorem1.gamma_negative.gamma"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "theorem1.gamma_negative.set_A"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "theorem1.gamma_zero_nonpositive_nearby.dH_bounded_away"), FL_CHECK_PASS);
    const char *f = "000/theorem1_rod.json";
    expect_fails(fl_moreau_reproduce_theorem1, f, "cases[0].expected.gamma", -0.4, "theorem1.gamma_negative.gamma");
    expect_fails(fl_moreau_reproduce_theorem1, f, "cases[0].expected.u_tilde[2]", 0.54, "theorem1.gamma_negative.set_A");
    /* the quick eps sequence 0.1, 1e-4, 1e-3: the distances at the last eps
     * are small (the old criterion passed), but they do not decrease at
     * every step of the sequence, which a limit as eps -> 0 requires */
    expect_fails(fl_moreau_reproduce_theorem1, f, "sampling.eps[1]", 1e-4, "theorem1.gamma_negative.consistency");
    expect_fails(fl_moreau_reproduce_theorem1, f, "cases[2].expected.dH_limit", 0.2,
                 "theorem1.gamma_zero_nonpositive_nearby.dH_bounded_away");
    /* a perturbed system: mu0 = 1.5 < 5/3 makes gamma(pi/4) > 0, not the case the file states */
    expect_fails(fl_moreau_reproduce_theorem1, f, "cases[0].mu0", 1.5, "theorem1.gamma_negative.neighbourhood");
}

/* ---- the twin comparisons refuse a perturbed answer ---- */

Test(checks_004, twin_agreement_refuses_a_perturbed_answer)
{
    fl_model_example_4_6_system *e = NULL;
    cr_assert_eq(fl_model_example_4_6_system_alloc(2.2, 0.07, 0.1, 0.15, 0.05, &e, NULL), FL_OK);
    /* a state with N* = 2 (the Fig. 9 state) */
    gsl_vector *u = gsl_vector_calloc(4), *r = gsl_vector_calloc(4);
    gsl_vector_set(r, 3, -0.0075);
    gsl_vector_set(r, 2, 2.2 * -0.0075 * -1.0);
    fl_stability_label lab;
    fl_stability_tangent *t = NULL;
    fl_stability_result rd = {0}, rs = {0};
    cr_assert_eq(fl_stability_partition(&e->s, u, r, 1e-12, &lab, NULL), FL_OK);
    cr_assert_eq(fl_stability_tangent_alloc(&e->s, &lab, r, &t, NULL), FL_OK);
    cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, &rd, NULL), FL_OK);
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cholmod_sparse *K = NULL, *M = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, e->K, 1, 0.0, &K, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, e->M, 1, 0.0, &M, NULL), FL_OK);
    fl_stability_system_sparse ss = {.n = 4, .K = K, .M = M, .prescribed = e->pres, .np = 1, .iT = &e->iT, .iN = &e->iN,
                                .mu = 2.2};
    fl_stability_tangent_sparse *ts = NULL;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &ss, &lab, r->data, &ts, NULL), FL_OK);
    cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = ts}, NULL, &rs, NULL), FL_OK);
    cr_assert(fl_stability_twin_agrees(t, &rd, &rs), "the twins agree on the Fig. 9 state");
    double keep = rs.ks_min;
    rs.ks_min += 1e-4;                                  /* a wrong min eig K*_S */
    cr_assert_not(fl_stability_twin_agrees(t, &rd, &rs));
    rs.ks_min = keep;
    rs.nlam = 1;                                        /* N* = 2: no modes expected from the twin */
    cr_assert_not(fl_stability_twin_agrees(t, &rd, &rs));
    rs.nlam = 0;
    /* damped roots (004 §5.7): the companion QZ vs the twin's, then one root moved */
    size_t N2 = 2 * t->nstar, nr = 0, md = 0, ms = 0;
    double dre[4], dim[4], lre[4], lim[4];
    cr_assert_eq(fl_stability_rayleigh(t->Kstar, t->Mstar, 0.1, 0.01, dre, dim, NULL), FL_OK);
    for (size_t k = 0; k < N2; k++) { lre[k] = dre[k]; lim[k] = dim[k]; }
    nr = N2;
    cr_assert(fl_stability_damped_agree(N2, dre, dim, nr, lre, lim, &md, &ms));
    cr_assert_eq(fl_stability_rayleigh(t->Kstar, t->Mstar, 0.1, 0.01, dre, dim, NULL), FL_OK);
    lre[0] *= 1.01;                                     /* a perturbed root */
    cr_assert_not(fl_stability_damped_agree(N2, dre, dim, nr, lre, lim, &md, &ms));
    cr_assert_not(fl_stability_damped_agree(N2, dre, dim, 0, lre, lim, &md, &ms), "no root is no agreement");
    fl_stability_result_free(&rd);
    fl_stability_result_free(&rs);
    fl_stability_tangent_free(t);
    fl_stability_tangent_free_sparse(&ctx, ts);
    fl_sparse_free(&ctx, &K);
    fl_sparse_free(&ctx, &M);
    fl_sparse_finish(&ctx);
    gsl_vector_free(u);
    gsl_vector_free(r);
    fl_model_example_4_6_system_free(e);
}

/* The polyurethane block loaded only to the first row of Table 1 (U_T =
 * -0.87 mm, the quick row), with that row's columns stick, slip,
 * no-contact, min eig K*_S, min real Lambda, flutter mode as printed (row
 * 0 of the data file) or corrupted. */
static void poly_row(int stick, int slip, int nc, double ks, double lambda, int mode, char *out, size_t len)
{
    char path[4096];
    fl_error err;
    cr_assert_eq(fl_data_path(NULL, "004/polyurethane.json", path, sizeof path, &err), FL_OK, "%s", err.message);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    cr_assert_not_null(root, "%s", je.text);
    json_t *ex = json_object_get(root, "expected");
    json_t *row = json_pack("[f, i, i, i, f, f, i]", -0.87, stick, slip, nc, ks, lambda, mode);
    json_object_set_new(ex, "table_1_rows", json_pack("[o]", row));
    json_object_set_new(ex, "quick_rows_U_T_mm", json_pack("[f]", -0.87));
    json_object_set_new(ex, "table_1_Lambda_discrepancies", json_array());
    json_object_set_new(json_object_get(json_object_get(root, "params"), "chosen"), "U_T_final_mm", json_real(-0.9));
    dump_tmp(root, out, len);
}

Test(checks_004, polyurethane_table1_fails_on_a_wrong_row, .timeout = 300)
{
    static rec r;
    char p[64];
    /* min eig K*_S of the row off by 0.0019 (we compute 0.0756): within the
     * old tolerance 0.002, beyond the paper's printed precision 0.0005.
     * Lambda printed as 8.20e6 instead of 8.19e6 (we compute 8.1866e6):
     * within 1%, but 1.3 units of the last printed digit, so a NOTE, not a
     * PASS; the other columns as printed still pass on the same run */
    poly_row(20, 1, 0, 0.0775, 8.20e6, 57, p, sizeof p);
    run_task(fl_stability_reproduce_polyurethane, p, &r);
    unlink(p);
    cr_assert_eq(verdict(&r, "polyurethane.table1_KS.UT-0.87"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.table1_KS"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.table1_Lambda.UT-0.87"), FL_CHECK_NOTE);
    cr_assert_eq(verdict(&r, "polyurethane.table1_Lambda"), FL_CHECK_FAIL, "no row within the printed precision");
    cr_assert_eq(verdict(&r, "polyurethane.table1_states"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane.table1_flutter_mode"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane.ref_vs_sparse"), FL_CHECK_PASS);
    /* 004 §5.6's criteria one by one: one node slides, K*_S > 0 as it must,
     * and K*_S never turns <= 0 before the run stops at -0.9 mm */
    cr_assert_eq(verdict(&r, "polyurethane.necessary_condition"), FL_CHECK_FAIL, "-1.35 mm is never reached");
    cr_assert_eq(verdict(&r, "polyurethane.ks_positive_below_two_sliding"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane.necessary_with_low_flutter"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.ks_nonpositive_at_end"), FL_CHECK_FAIL);
}

/* Every other column of the row wrong, min eig K*_S as printed: the
 * states, the flutter mode and Lambda fail, K*_S and the twins pass.  The
 * full run (not --quick) with no output directory (/dev/null/... cannot be
 * created: no CSV, no figure) reports the same verdicts. */
#define NO_OUT_DIR "/dev/null/fl_out"

Test(checks_004, polyurethane_table1_fails_on_wrong_states_mode_and_lambda, .timeout = 300)
{
    static rec r;
    char p[64];
    poly_row(19, 1, 1, 0.076, 4.0e6, 3, p, sizeof p);
    run_task_in(fl_stability_reproduce_polyurethane, p, 0, NO_OUT_DIR, &r);
    unlink(p);
    cr_assert_eq(verdict(&r, "polyurethane.table1_KS.UT-0.87"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane.table1_KS"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane.table1_states"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.table1_flutter_mode"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.table1_Lambda.UT-0.87"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.table1_Lambda"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane.ref_vs_sparse"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane.final_sliding"), FL_CHECK_FAIL, "20 nodes still stick at -0.87 mm");
}

/* ---- the polyurethane tasks cannot run on a bad data file ---- */

typedef struct msgs {
    char text[2048];
} msgs;

static void on_message(void *d, const char *text)
{
    msgs *m = d;
    size_t n = strlen(m->text);
    snprintf(m->text + n, sizeof m->text - n, "%s\n", text);
}

/* Run task on params; it must return -1 with a message containing want. */
static void expect_cannot_run(int (*task)(fl_check_ctx *), const char *params, const char *want)
{
    static msgs m;
    memset(&m, 0, sizeof m);
    fl_check_ctx ctx = fl_check_ctx_default();
    ctx.params = params;
    ctx.quick = 1;
    ctx.io.data = &m;
    ctx.io.message = on_message;
    ctx.out_dir = NO_OUT_DIR;
    cr_assert_eq(task(&ctx), -1, "ran on %s", params);
    cr_assert_not_null(strstr(m.text, want), "message without '%s': %s", want, m.text);
}

Test(checks_004, polyurethane_tasks_refuse_a_bad_data_file)
{
    int (*tasks[])(fl_check_ctx *) = {fl_stability_reproduce_polyurethane, fl_stability_reproduce_polyurethane_damping};
    char path[4096], p[64];
    fl_error err;
    cr_assert_eq(fl_data_path(NULL, "004/polyurethane.json", path, sizeof path, &err), FL_OK, "%s", err.message);
    json_error_t je;
    for (int k = 0; k < 2; k++) {
        /* no such file */
        expect_cannot_run(tasks[k], "/nonexistent/polyurethane.json", "/nonexistent/polyurethane.json");
        /* a field missing: the loader's message names file and field */
        json_t *root = json_load_file(path, 0, &je);
        cr_assert_not_null(root, "%s", je.text);
        json_object_del(json_object_get(root, "params"), "mu");
        dump_tmp(root, p, sizeof p);
        expect_cannot_run(tasks[k], p, "params.mu");
        unlink(p);
        /* a 10 x 10 mesh has 11 contact nodes, not the file's 21: the block
         * cannot be built */
        root = json_load_file(path, 0, &je);
        cr_assert_not_null(root, "%s", je.text);
        json_object_set_new(json_object_get(json_object_get(root, "params"), "chosen"), "mesh_cells",
                            json_pack("[i, i]", 10, 10));
        dump_tmp(root, p, sizeof p);
        expect_cannot_run(tasks[k], p, "11 contact nodes");
        unlink(p);
    }
}

/* The damping scan stopped at U_T = -0.5 mm, before the first slip (-0.87
 * mm in 004 Table 1): one contact state (all stuck) is all the scan sees,
 * and there is no onset to find, undamped or damped, so the scan, onset and
 * mode checks fail while the Rayleigh closed form of the all-stuck state
 * (which needs no loading) still passes. */
Test(checks_004, polyurethane_damping_fails_before_any_flutter, .timeout = 300)
{
    char path[4096], p[64];
    fl_error err;
    cr_assert_eq(fl_data_path(NULL, "004/polyurethane.json", path, sizeof path, &err), FL_OK, "%s", err.message);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    cr_assert_not_null(root, "%s", je.text);
    json_t *ex = json_object_get(root, "expected"), *ch = json_object_get(json_object_get(root, "params"), "chosen");
    json_object_set_new(ch, "U_T_final_mm", json_real(-0.5));
    json_object_set_new(json_object_get(ch, "damping"), "levels_xi_at_454Hz", json_pack("[f, f]", 0.05, 0.165));
    json_object_set_new(json_object_get(ex, "damping_mode_switch"), "xi", json_pack("[f, f]", 0.05, 0.165));
    json_object_set_new(ex, "table_1_rows", json_pack("[[f, i, i, i, f, f, i]]", -0.5, 21, 0, 0, 0.1, 1e7, 57));
    json_object_set_new(ex, "quick_rows_U_T_mm", json_pack("[f]", -0.5));
    json_object_set_new(ex, "table_1_Lambda_discrepancies", json_array());
    dump_tmp(root, p, sizeof p);
    static rec r;
    run_task(fl_stability_reproduce_polyurethane_damping, p, &r);
    cr_assert_eq(verdict(&r, "polyurethane_damping.rayleigh"), FL_CHECK_PASS);
    cr_assert_eq(verdict(&r, "polyurethane_damping.scan"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane_damping.undamped_onset"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane_damping.delays_flutter"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane_damping.mode_before_switch"), FL_CHECK_FAIL);
    cr_assert_eq(verdict(&r, "polyurethane_damping.mode_switch"), FL_CHECK_FAIL);
    /* without an output directory (no CSV, no figure): the same verdicts */
    static rec r2;
    run_task_in(fl_stability_reproduce_polyurethane_damping, p, 1, NO_OUT_DIR, &r2);
    unlink(p);
    cr_assert_eq(r2.n, r.n);
    for (int i = 0; i < r.n; i++) {
        cr_assert_str_eq(r2.name[i], r.name[i]);
        cr_assert_eq(r2.kind[i], r.kind[i], "%s", r.name[i]);
    }
}
