/* test_fl_results.c — the results model of a reproduction run
 * (report/fl_results*.c): results.json round trip, report.html content,
 * baseline comparison, reader errors.
 *
 * Independent expected values: the SHA-256 of "abc" is the FIPS 180-2
 * test vector (Appendix B.1); the base64 of "abc" is "YWJj" (RFC 4648 §10
 * gives "Zm9v" for "foo"; "abc" = 0x616263 -> 011000 010110 001001 100011).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fl_results.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/fl_results_test_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(fl_results, .init = setup, .fini = teardown);

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Two tasks of two papers; every kind of field filled somewhere. */
static fl_results *sample(void)
{
    fl_results *r = fl_results_alloc("0.1.0", "abc1234");
    cr_assert_not_null(r);
    cr_assert_eq(fl_results_set_started(r, "2026-11-25T12:00:00Z"), FL_OK);
    cr_assert_eq(fl_results_set_command(r, "frictionlab reproduce --all"), FL_OK);
    r->seconds = 12.5;
    cr_assert_eq(fl_results_paper_add(r, "004", "Martins et al., CMAME 1999"), FL_OK);
    cr_assert_eq(fl_results_paper_add(r, "002", "Ligursky & Renard, QJMAM 2011"), FL_OK);

    write_file("params.json", "abc");
    char params[256];
    snprintf(params, sizeof params, "%s/params.json", dir);
    fl_result_task *t = NULL;
    cr_assert_eq(fl_results_task_add(r, "example_3_15", "K*, K*_S closed forms",
                                     "004 §3.5 Example 3.15", &t), FL_OK);
    cr_assert_eq(fl_result_task_set_params(t, "data/004/example_3_15.json", params, NULL), FL_OK);
    t->seconds = 0.25;
    write_file("fig.png", "abc");
    cr_assert_eq(fl_result_task_figure_add(t, "fig.png", "004 Fig. 7"), FL_OK);
    cr_assert_eq(fl_result_task_file_add(t, "004/example_3_15/data.csv"), FL_OK);
    fl_result_check c = fl_result_check_default();
    c.name = "example_3_15.min_eig";
    c.has_value = c.has_expected = c.has_tolerance = 1;
    c.value = -0.0811388300841898;
    c.expected = -0.08113883008418966;
    c.tolerance = 1e-12;
    c.reference = "004 (86), closed form";
    c.detail = "min eig = -0.08114 <ok>";
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);
    c = fl_result_check_default();
    c.name = "example_3_15.threshold";
    c.status = FL_RESULT_NOTE;
    c.has_value = 1;
    c.value = INFINITY;
    c.discrepancy = "the paper rounds to 2.83";
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);

    cr_assert_eq(fl_results_task_add(r, "square_block_002", "Table 2", "002 §7 Table 2", &t),
                 FL_OK);
    c = fl_result_check_default();
    c.name = "square_block.order";
    c.status = FL_RESULT_FAIL;
    c.has_value = 1;
    c.value = NAN;
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);
    c = fl_result_check_default();
    c.name = "square_block.skipped";
    c.status = FL_RESULT_NOT_RUN;
    c.detail = "only without --quick";
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);
    cr_assert_eq(fl_results_task_add(r, "loose", "no paper", NULL, NULL), FL_OK);
    return r;
}

static void assert_same_str(const char *a, const char *b, const char *what)
{
    if (!a || !b) cr_assert(a == b, "%s: %s vs %s", what, a ? a : "NULL", b ? b : "NULL");
    else cr_assert_str_eq(a, b, "%s", what);
}

Test(fl_results, status_names)
{
    fl_result_status s;
    cr_assert_str_eq(fl_result_status_name(FL_RESULT_NOT_RUN), "NOT RUN");
    cr_assert_eq(fl_result_status_parse("NOT RUN", &s), FL_OK);
    cr_assert_eq(s, FL_RESULT_NOT_RUN);
    cr_assert_eq(fl_result_status_parse("FAIL", &s), FL_OK);
    cr_assert_eq(s, FL_RESULT_FAIL);
    cr_assert_eq(fl_result_status_parse("pass", &s), FL_ENOTFOUND);
    cr_assert_eq(fl_result_status_parse(NULL, &s), FL_ENOTFOUND);
}

Test(fl_results, sha256_matches_fips_180_2_vector)
{
    write_file("abc.txt", "abc");
    char path[256], hex[65];
    snprintf(path, sizeof path, "%s/abc.txt", dir);
    cr_assert_eq(fl_results_sha256_file(path, hex, NULL), FL_OK);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fl_error err;
    snprintf(path, sizeof path, "%s/missing.txt", dir);
    cr_assert_eq(fl_results_sha256_file(path, hex, &err), FL_EIO);
    cr_assert(strstr(err.message, "missing.txt") != NULL, "%s", err.message);
}

Test(fl_results, json_round_trip)
{
    fl_results *r = sample();
    char path[256];
    snprintf(path, sizeof path, "%s/results.json", dir);
    fl_error err;
    cr_assert_eq(fl_results_write_json(r, path, &err), FL_OK, "%s", err.message);
    fl_results *b = NULL;
    cr_assert_eq(fl_results_read_json(path, &b, &err), FL_OK, "%s", err.message);
    assert_same_str(b->version, "0.1.0", "version");
    assert_same_str(b->commit, "abc1234", "commit");
    assert_same_str(b->started, "2026-11-25T12:00:00Z", "started");
    assert_same_str(b->command, r->command, "command");
    cr_assert_eq(b->seconds, 12.5);
    cr_assert_eq(b->npapers, 2);
    assert_same_str(b->papers[1].reference, "Ligursky & Renard, QJMAM 2011", "paper");
    cr_assert_eq(b->ntasks, r->ntasks);
    for (size_t i = 0; i < r->ntasks; i++) {
        const fl_result_task *x = r->tasks[i], *y = b->tasks[i];
        assert_same_str(y->name, x->name, "task name");
        assert_same_str(y->summary, x->summary, "summary");
        assert_same_str(y->paper, x->paper, "paper");
        assert_same_str(y->params_file, x->params_file, "params file");
        assert_same_str(y->params_sha256, x->params_sha256, "params hash");
        cr_assert_eq(y->seconds, x->seconds);
        cr_assert_eq(y->nfigures, x->nfigures);
        for (size_t k = 0; k < x->nfigures; k++) {
            assert_same_str(y->figures[k].file, x->figures[k].file, "figure");
            assert_same_str(y->figures[k].caption, x->figures[k].caption, "caption");
        }
        cr_assert_eq(y->nfiles, x->nfiles);
        cr_assert_eq(y->nchecks, x->nchecks);
        for (size_t k = 0; k < x->nchecks; k++) {
            const fl_result_check *p = &x->checks[k], *q = &y->checks[k];
            assert_same_str(q->name, p->name, "check name");
            cr_assert_eq(q->status, p->status);
            cr_assert_eq(q->has_value, p->has_value);
            cr_assert_eq(q->has_expected, p->has_expected);
            cr_assert_eq(q->has_tolerance, p->has_tolerance);
            if (p->has_value) {
                if (isnan(p->value)) cr_assert(isnan(q->value));
                else cr_assert_eq(q->value, p->value, "%s: %.17g vs %.17g", p->name, q->value, p->value);
            }
            if (p->has_expected) cr_assert_eq(q->expected, p->expected);
            if (p->has_tolerance) cr_assert_eq(q->tolerance, p->tolerance);
            assert_same_str(q->reference, p->reference, "reference");
            assert_same_str(q->detail, p->detail, "detail");
            assert_same_str(q->discrepancy, p->discrepancy, "discrepancy");
        }
    }
    cr_assert_str_eq(b->tasks[0]->params_sha256,
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fl_results_free(b);
    fl_results_free(r);
}

Test(fl_results, html_has_every_task_check_and_figure)
{
    fl_results *r = sample();
    char path[256];
    snprintf(path, sizeof path, "%s/report.html", dir);
    fl_error err;
    cr_assert_eq(fl_results_write_html(r, path, dir, &err), FL_OK, "%s", err.message);
    char *html = read_all(path);
    for (size_t i = 0; i < r->ntasks; i++) {
        const fl_result_task *t = r->tasks[i];
        cr_assert(strstr(html, t->name) != NULL, "task %s missing", t->name);
        if (t->paper) cr_assert(strstr(html, t->paper) != NULL, "paper %s missing", t->paper);
        for (size_t k = 0; k < t->nchecks; k++)
            cr_assert(strstr(html, t->checks[k].name) != NULL, "check %s missing",
                      t->checks[k].name);
        for (size_t k = 0; k < t->nfigures; k++)
            cr_assert(strstr(html, t->figures[k].caption) != NULL, "caption missing");
    }
    /* the figure inlined (base64 of "abc"), the CSV linked, the hash shown */
    cr_assert(strstr(html, "src=\"data:image/png;base64,YWJj\"") != NULL);
    cr_assert(strstr(html, "href=\"004/example_3_15/data.csv\"") != NULL);
    cr_assert(strstr(html, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    /* papers in their declared order, with their references */
    char *p004 = strstr(html, "Paper 004: Martins et al., CMAME 1999");
    char *p002 = strstr(html, "Paper 002: Ligursky &amp; Renard, QJMAM 2011");
    cr_assert(p004 && p002 && p004 < p002);
    cr_assert(strstr(html, "Tasks without a paper reference") != NULL);
    /* text is escaped; a discrepancy shows as such with its reason */
    cr_assert(strstr(html, "&lt;ok&gt;") != NULL);
    cr_assert(strstr(html, "<ok>") == NULL);
    cr_assert(strstr(html, "DISCREPANCY (NOTE)") != NULL);
    cr_assert(strstr(html, "the paper rounds to 2.83") != NULL);
    cr_assert(strstr(html, "NOT RUN") != NULL);
    cr_assert(strstr(html, "commit <code>abc1234</code>") != NULL);
    cr_assert(strstr(html, "run time 12.5 s.") != NULL);
    cr_assert(strstr(html, "2 passed") == NULL && strstr(html, "1 passed, 1 failed") != NULL);
    free(html);
    fl_results_free(r);
}

Test(fl_results, drop_missing_keeps_written_files)
{
    fl_results *r = sample();
    fl_result_task *t = r->tasks[0];
    cr_assert_eq(fl_result_task_figure_add(t, "never.png", "004 Fig. 8"), FL_OK);
    cr_assert_eq(fl_result_task_figure_add(t, "fig.png", NULL), FL_OK); /* keeps its caption */
    cr_assert_eq(t->nfigures, 2);
    fl_result_task_drop_missing(t, dir);
    cr_assert_eq(t->nfigures, 1);
    cr_assert_str_eq(t->figures[0].file, "fig.png");
    cr_assert_str_eq(t->figures[0].caption, "004 Fig. 7");
    cr_assert_eq(t->nfiles, 0, "004/example_3_15/data.csv was never written");
    fl_results_free(r);
}

Test(fl_results, html_reports_an_unreadable_figure)
{
    fl_results *r = fl_results_alloc("v", NULL);
    fl_result_task *t;
    cr_assert_eq(fl_results_task_add(r, "a", NULL, "000 Theorem 1", &t), FL_OK);
    cr_assert_eq(fl_result_task_figure_add(t, "gone.png", "000 Fig. 1"), FL_OK);
    r->seconds = 3215.0;
    t->seconds = 4000.0;
    char path[256];
    snprintf(path, sizeof path, "%s/report.html", dir);
    cr_assert_eq(fl_results_write_html(r, path, dir, NULL), FL_OK);
    char *html = read_all(path);
    cr_assert(strstr(html, "figure gone.png could not be read") != NULL);
    cr_assert(strstr(html, "run time 53 min 35 s.") != NULL);
    cr_assert(strstr(html, "Run time 1 h 06 min.") != NULL);
    free(html);
    snprintf(path, sizeof path, "%s/no/such/dir/report.html", dir);
    fl_error err;
    cr_assert_eq(fl_results_write_html(r, path, dir, &err), FL_EIO);
    cr_assert(strstr(err.message, "report.html") != NULL);
    fl_results_free(r);
}

/* Round trip through the file, then compare with the original. */
static fl_result_comparison *compare(const fl_results *base, const fl_results *cur)
{
    fl_result_comparison *c = NULL;
    fl_error err;
    cr_assert_eq(fl_results_compare(base, cur, NULL, &c, &err), FL_OK, "%s", err.message);
    return c;
}

/* A baseline and a current run, each with one task "t" (*tb, *tc). */
static void two_runs(fl_results **base, fl_results **cur, fl_result_task **tb, fl_result_task **tc)
{
    *base = fl_results_alloc("v", NULL);
    *cur = fl_results_alloc("v", NULL);
    cr_assert(*base && *cur);
    cr_assert_eq(fl_results_task_add(*base, "t", NULL, NULL, tb), FL_OK);
    cr_assert_eq(fl_results_task_add(*cur, "t", NULL, NULL, tc), FL_OK);
}

Test(fl_results, baseline_identical_has_no_drift)
{
    fl_results *r = sample();
    char path[256];
    snprintf(path, sizeof path, "%s/results.json", dir);
    cr_assert_eq(fl_results_write_json(r, path, NULL), FL_OK);
    fl_results *b = NULL;
    cr_assert_eq(fl_results_read_json(path, &b, NULL), FL_OK);
    fl_result_comparison *c = compare(b, r);
    cr_assert_eq(c->ndrift, 0);
    cr_assert_eq(c->nitems, 0);
    cr_assert_eq(c->ncompared, 4);
    fl_result_comparison_free(c);
    fl_results_free(b);
    fl_results_free(r);
}

Test(fl_results, edited_value_is_a_drift_naming_the_check)
{
    fl_results *base = sample(), *cur = sample();
    fl_result_check *c0 = &cur->tasks[0]->checks[0];
    const double v0 = base->tasks[0]->checks[0].value;
    /* within the reproducibility tolerance (1e-9 relative): no drift */
    c0->value = v0 * (1 + 2e-10);
    fl_result_comparison *c = compare(base, cur);
    cr_assert_eq(c->ndrift, 0);
    cr_assert_eq(c->nvalues, 5);   /* min_eig: value, expected, tolerance; 2 more values */
    fl_result_comparison_free(c);
    /* beyond it: one VALUE drift with both values and the tolerance used */
    c0->value = v0 * (1 + 1e-6);
    c = compare(base, cur);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_eq(c->items[0].kind, FL_DRIFT_VALUE);
    cr_assert_str_eq(c->items[0].check, "example_3_15.min_eig");
    cr_assert_str_eq(c->items[0].field, "value");
    cr_assert_str_eq(c->items[0].task, "example_3_15");
    cr_assert_eq(c->items[0].old_value, v0);
    cr_assert_eq(c->items[0].new_value, c0->value);
    cr_assert_float_eq(c->items[0].tolerance, 1e-9 * fabs(c0->value), 1e-25);
    cr_assert_eq(c->items[0].rtol, 1e-9);
    cr_assert_null(c->items[0].noise_reason);
    fl_result_comparison_free(c);
    c0->value = v0;
    /* the expected value and the tolerance are numbers of the check too */
    c0->expected *= 1 + 1e-6;
    c0->tolerance = 2e-12;
    c = compare(base, cur);
    cr_assert_eq(c->ndrift, 2);
    cr_assert_str_eq(c->items[0].field, "expected");
    cr_assert_str_eq(c->items[1].field, "tolerance");
    cr_assert_eq(c->items[1].old_value, 1e-12);
    cr_assert_eq(c->items[1].new_value, 2e-12);
    fl_result_comparison_free(c);
    c0->expected = base->tasks[0]->checks[0].expected;
    c0->tolerance = 1e-12;
    /* inf vs finite drifts */
    cur->tasks[0]->checks[1].value = 1e300;
    c = compare(base, cur);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_str_eq(c->items[0].check, "example_3_15.threshold");
    fl_result_comparison_free(c);
    /* a value that disappears is a drift */
    cur->tasks[0]->checks[1].value = INFINITY;
    cur->tasks[0]->checks[0].has_value = 0;
    c = compare(base, cur);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_eq(c->items[0].has_old, 1);
    cr_assert_eq(c->items[0].has_new, 0);
    fl_result_comparison_free(c);
    fl_results_free(base);
    fl_results_free(cur);
}

/* The paper's tolerance is not the reproducibility tolerance: 004 Theorem
 * 1's consistency measure 1.63e-4 is checked against 0.0566, and a 10%
 * move (or one of 1e-6 relative) of it must still be a drift.  (Before the
 * comparison held every number to 1e-9 relative, both moves passed.) */
Test(fl_results, a_move_inside_the_paper_tolerance_is_a_drift)
{
    fl_results *base, *cur;
    fl_result_task *tb, *tc;
    two_runs(&base, &cur, &tb, &tc);
    fl_result_check c = fl_result_check_default();
    c.name = "theorem1.gamma_negative.consistency";
    c.has_value = c.has_expected = c.has_tolerance = 1;
    c.value = 1.63e-4;
    c.expected = 0.0;
    c.tolerance = 0.0566;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    const double moves[2] = {0.1, 1e-6};
    for (int i = 0; i < 2; i++) {
        tc->checks[0].value = 1.63e-4 * (1 + moves[i]);
        fl_result_comparison *d = compare(base, cur);
        cr_assert_eq(d->ndrift, 1, "a relative move of %g was not a drift", moves[i]);
        cr_assert_str_eq(d->items[0].check, "theorem1.gamma_negative.consistency");
        cr_assert_lt(d->items[0].tolerance, 1e-12);
        fl_result_comparison_free(d);
    }
    fl_results_free(base);
    fl_results_free(cur);
}

/* A check that declares a noise tolerance is held to it (with its reason in
 * the drift), not to 1e-9; a declaration without a reason is refused, and
 * both fields survive results.json. */
Test(fl_results, declared_noise_tolerance)
{
    fl_results *base, *cur;
    fl_result_task *tb, *tc;
    two_runs(&base, &cur, &tb, &tc);
    fl_result_check c = fl_result_check_default();
    c.name = "t.iterative";
    c.has_value = 1;
    c.value = 2.0;
    c.has_noise_rtol = 1;
    c.noise_rtol = 1e-6;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_EINVAL);   /* no reason */
    c.noise_reason = "";
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_EINVAL);
    c.noise_reason = "OpenMP reduction order";
    c.noise_rtol = 1.0;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_EINVAL);
    c.noise_rtol = NAN;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_EINVAL);
    c.noise_rtol = 1e-6;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    char path[256];
    snprintf(path, sizeof path, "%s/noise.json", dir);
    cr_assert_eq(fl_results_write_json(base, path, NULL), FL_OK);
    fl_results *back = NULL;
    cr_assert_eq(fl_results_read_json(path, &back, NULL), FL_OK);
    cr_assert_eq(back->tasks[0]->checks[0].has_noise_rtol, 1);
    cr_assert_eq(back->tasks[0]->checks[0].noise_rtol, 1e-6);
    cr_assert_str_eq(back->tasks[0]->checks[0].noise_reason, "OpenMP reduction order");
    tc->checks[0].value = 2.0 * (1 + 5e-7);   /* inside the declared noise */
    fl_result_comparison *d = compare(back, cur);
    cr_assert_eq(d->ndrift, 0);
    fl_result_comparison_free(d);
    tc->checks[0].value = 2.0 * (1 + 5e-6);   /* beyond it */
    d = compare(back, cur);
    cr_assert_eq(d->ndrift, 1);
    cr_assert_eq(d->items[0].rtol, 1e-6);
    cr_assert_str_eq(d->items[0].noise_reason, "OpenMP reduction order");
    fl_result_comparison_free(d);
    fl_results_free(back);
    /* a declaration with no reason in a file is refused, naming the field */
    write_file("noise_bad.json",
               "{\"format\": \"frictionlab-results/1\", \"tasks\": [{\"name\": \"t\", "
               "\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"noise_rtol\": 1e-6}]}]}");
    snprintf(path, sizeof path, "%s/noise_bad.json", dir);
    fl_error err;
    cr_assert_eq(fl_results_read_json(path, &back, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "tasks[0].checks[0].noise_rtol") != NULL, "%s", err.message);
    fl_results_free(base);
    fl_results_free(cur);
}

/* --quick against full, and another parameter file, are warnings that name
 * both sides (not drifts by themselves); "quick" survives results.json. */
Test(fl_results, quick_and_params_differences_are_named)
{
    fl_results *base = sample(), *cur = sample();
    cr_assert_eq(base->quick, -1);
    base->quick = 0;
    cur->quick = 1;
    char path[256];
    snprintf(path, sizeof path, "%s/quick.json", dir);
    cr_assert_eq(fl_results_write_json(cur, path, NULL), FL_OK);
    fl_results *back = NULL;
    cr_assert_eq(fl_results_read_json(path, &back, NULL), FL_OK);
    cr_assert_eq(back->quick, 1);
    fl_results_free(back);
    fl_result_comparison *c = compare(base, cur);
    cr_assert_eq(c->mode_differs, 1);
    cr_assert_eq(c->baseline_quick, 0);
    cr_assert_eq(c->current_quick, 1);
    cr_assert_eq(c->nwarnings, 1);
    cr_assert_eq(c->ndrift, 0);
    fl_result_comparison_free(c);
    /* a results.json that predates "quick": its command line says it */
    base->quick = -1;
    c = compare(base, cur);
    cr_assert_eq(c->mode_differs, 1);   /* "frictionlab reproduce --all": full */
    cr_assert_eq(c->baseline_quick, 0);
    fl_result_comparison_free(c);
    cr_assert_eq(fl_results_set_command(base, "frictionlab reproduce --all --quick"), FL_OK);
    cur->quick = 0;
    c = compare(base, cur);
    cr_assert_eq(c->mode_differs, 1);
    cr_assert_eq(c->baseline_quick, 1);
    fl_result_comparison_free(c);
    base->quick = 0;
    write_file("params2.json", "abd");
    char p2[256];
    snprintf(p2, sizeof p2, "%s/params2.json", dir);
    cr_assert_eq(fl_result_task_set_params(cur->tasks[0], "mine.json", p2, NULL), FL_OK);
    c = compare(base, cur);
    cr_assert_eq(c->mode_differs, 0);
    cr_assert_eq(c->nwarnings, 1);
    cr_assert_eq(c->ndrift, 0);
    cr_assert_eq(c->nitems, 1);
    cr_assert_eq(c->items[0].kind, FL_DRIFT_PARAMS);
    cr_assert_str_eq(c->items[0].task, "example_3_15");
    cr_assert_str_eq(c->items[0].old_params, "data/004/example_3_15.json");
    cr_assert_str_eq(c->items[0].new_params, "mine.json");
    cr_assert_str_eq(c->items[0].old_sha256, base->tasks[0]->params_sha256);
    cr_assert_str_neq(c->items[0].old_sha256, c->items[0].new_sha256);
    fl_result_comparison_free(c);
    fl_results_free(base);
    fl_results_free(cur);
}

Test(fl_results, status_change_missing_and_new_checks)
{
    fl_results *base = sample(), *cur = sample();
    cur->tasks[1]->checks[0].status = FL_RESULT_PASS;   /* FAIL -> PASS */
    fl_result_comparison *c = compare(base, cur);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_eq(c->items[0].kind, FL_DRIFT_STATUS);
    cr_assert_str_eq(c->items[0].check, "square_block.order");
    cr_assert_eq(c->items[0].old_status, FL_RESULT_FAIL);
    cr_assert_eq(c->items[0].new_status, FL_RESULT_PASS);
    fl_result_comparison_free(c);
    cur->tasks[1]->checks[0].status = FL_RESULT_FAIL;

    /* a check the current run no longer has: PASS -> NOT RUN */
    free(cur->tasks[0]->checks[0].name);
    cur->tasks[0]->checks[0].name = strdup("example_3_15.renamed");
    c = compare(base, cur);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_eq(c->nitems, 2);
    cr_assert_eq(c->items[0].kind, FL_DRIFT_STATUS);
    cr_assert_str_eq(c->items[0].check, "example_3_15.min_eig");
    cr_assert_eq(c->items[0].new_status, FL_RESULT_NOT_RUN);
    cr_assert_eq(c->items[1].kind, FL_DRIFT_NEW);
    cr_assert_str_eq(c->items[1].check, "example_3_15.renamed");
    fl_result_comparison_free(c);

    /* tasks the current run did not run are not compared */
    fl_results *one = fl_results_alloc("v", NULL);
    fl_result_task *t;
    cr_assert_eq(fl_results_task_add(one, "square_block_002", NULL, NULL, &t), FL_OK);
    for (size_t k = 0; k < base->tasks[1]->nchecks; k++)
        cr_assert_eq(fl_result_task_check_add(t, &base->tasks[1]->checks[k]), FL_OK);
    c = compare(base, one);
    cr_assert_eq(c->ndrift, 0);
    cr_assert_eq(c->ncompared, 2);
    fl_result_comparison_free(c);
    /* a task the baseline does not have: its checks are NEW, not drifts */
    c = compare(one, base);
    cr_assert_eq(c->ndrift, 0);
    cr_assert_eq(c->nitems, 2);
    cr_assert_eq(c->items[0].kind, FL_DRIFT_NEW);
    fl_result_comparison_free(c);
    fl_results_free(one);
    fl_results_free(base);
    fl_results_free(cur);
}

Test(fl_results, namesakes_are_matched_by_rank)
{
    /* one check name per parameter value (e.g. mu = 1, 2, 3): the second of
     * three edited must be reported as name#2, the others unchanged */
    fl_results *base, *cur;
    fl_result_task *tb, *tc;
    two_runs(&base, &cur, &tb, &tc);
    for (int i = 0; i < 3; i++) {
        fl_result_check c = fl_result_check_default();
        c.name = "t.eq";
        c.has_value = c.has_tolerance = 1;
        c.value = i;
        c.tolerance = 1e-12;
        cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
        if (i == 1) c.value = 1.5;
        cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    }
    fl_result_comparison *c = compare(base, cur);
    cr_assert_eq(c->ncompared, 3);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_str_eq(c->items[0].check, "t.eq#2");
    cr_assert_eq(c->items[0].old_value, 1.0);
    cr_assert_eq(c->items[0].new_value, 1.5);
    fl_result_comparison_free(c);
    /* a fourth namesake in the run only: new, as t.eq#4 */
    fl_result_check x = fl_result_check_default();
    x.name = "t.eq";
    cr_assert_eq(fl_result_task_check_add(tc, &x), FL_OK);
    c = compare(base, cur);
    cr_assert_eq(c->ndrift, 1);
    cr_assert_eq(c->nitems, 2);
    cr_assert_eq(c->items[1].kind, FL_DRIFT_NEW);
    cr_assert_str_eq(c->items[1].check, "t.eq#4");
    fl_result_comparison_free(c);
    fl_results_free(base);
    fl_results_free(cur);
}

/* Every member of results.json of the wrong type is refused, naming the
 * file and the member's path (fl_results.h: "the reader checks ... every
 * field's type, and names the file and field on error"). */
#define RJ(body) "{\"format\": \"frictionlab-results/1\", " body "}"
#define RT(task) RJ("\"tasks\": [{\"name\": \"a\", " task "}]")
Test(fl_results, reader_names_file_and_field)
{
    struct {
        const char *text;
        fl_status status;
        const char *msg;
    } cases[] = {
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": [", FL_EPARSE, "r.json:1:"},
        {"[1, 2]", FL_EPARSE, "(top level)"},
        {"{\"tasks\": []}", FL_EPARSE, "field 'format': missing"},
        {"{\"format\": \"other/2\", \"tasks\": []}", FL_EPARSE, "field 'format'"},
        {"{\"format\": \"frictionlab-results/1\"}", FL_EPARSE, "field 'tasks': missing"},
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": [{\"name\": 3}]}", FL_EPARSE,
         "field 'tasks[0].name': expected a string"},
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": [{\"name\": \"a\", \"checks\": "
         "[{\"name\": \"c\", \"status\": \"OK\"}]}]}",
         FL_EPARSE, "field 'tasks[0].checks[0].status'"},
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": [{\"name\": \"a\", \"checks\": "
         "[{\"name\": \"c\", \"status\": \"PASS\", \"value\": \"big\"}]}]}",
         FL_EPARSE, "field 'tasks[0].checks[0].value'"},
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": [{\"name\": \"a\", \"figures\": "
         "[{\"caption\": \"x\"}]}]}",
         FL_EPARSE, "field 'tasks[0].figures[0].file': missing"},
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": [{\"name\": \"a\", \"params\": 5}]}",
         FL_EPARSE, "field 'tasks[0].params'"},
        {"{\"format\": \"frictionlab-results/1\", \"tasks\": {}}", FL_EPARSE,
         "field 'tasks': expected an array"},
        {RJ("\"seconds\": true, \"tasks\": []"), FL_EPARSE, "field 'seconds': expected a number"},
        {RJ("\"seconds\": \"fast\", \"tasks\": []"), FL_EPARSE, "field 'seconds': expected a number, \"nan\""},
        {RJ("\"version\": 1, \"tasks\": []"), FL_EPARSE, "field 'version': expected a string"},
        {RJ("\"papers\": {}, \"tasks\": []"), FL_EPARSE, "field 'papers': expected an array"},
        {RJ("\"papers\": [3], \"tasks\": []"), FL_EPARSE, "field 'papers[0]': expected an object"},
        {RJ("\"papers\": [{\"reference\": \"x\"}], \"tasks\": []"), FL_EPARSE, "field 'papers[0].id': missing"},
        {RJ("\"papers\": [{\"id\": \"004\", \"reference\": 4}], \"tasks\": []"), FL_EPARSE,
         "field 'papers[0].reference'"},
        {RJ("\"tasks\": [3]"), FL_EPARSE, "field 'tasks[0]': expected an object"},
        {RT("\"summary\": 5"), FL_EPARSE, "field 'tasks[0].summary'"},
        {RT("\"paper\": []"), FL_EPARSE, "field 'tasks[0].paper'"},
        {RT("\"seconds\": [1]"), FL_EPARSE, "field 'tasks[0].seconds'"},
        {RT("\"params\": {\"sha256\": \"00\"}"), FL_EPARSE, "field 'tasks[0].params.file': missing"},
        {RT("\"params\": {\"file\": \"p.json\", \"sha256\": 0}"), FL_EPARSE, "field 'tasks[0].params.sha256'"},
        {RT("\"figures\": {}"), FL_EPARSE, "field 'tasks[0].figures': expected an array"},
        {RT("\"figures\": [1]"), FL_EPARSE, "field 'tasks[0].figures[0]': expected an object"},
        {RT("\"figures\": [{\"file\": \"f.png\", \"caption\": 7}]"), FL_EPARSE, "field 'tasks[0].figures[0].caption'"},
        {RT("\"files\": [{\"file\": 1}]"), FL_EPARSE, "field 'tasks[0].files[0].file'"},
        {RT("\"checks\": {}"), FL_EPARSE, "field 'tasks[0].checks': expected an array"},
        {RT("\"checks\": [1]"), FL_EPARSE, "field 'tasks[0].checks[0]': expected an object"},
        {RT("\"checks\": [{\"status\": \"PASS\"}]"), FL_EPARSE, "field 'tasks[0].checks[0].name': missing"},
        {RT("\"checks\": [{\"name\": \"c\"}]"), FL_EPARSE, "field 'tasks[0].checks[0].status': missing"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"expected\": {}}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].expected'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"tolerance\": \"tiny\"}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].tolerance'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"reference\": 1}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].reference'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"detail\": false}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].detail'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"discrepancy\": 2}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].discrepancy'"},
        {RJ("\"quick\": 1, \"tasks\": []"), FL_EPARSE, "field 'quick'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"noise_rtol\": \"x\"}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].noise_rtol'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"noise_rtol\": 1e-6, "
            "\"noise_reason\": 3}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].noise_reason'"},
        {RT("\"checks\": [{\"name\": \"c\", \"status\": \"PASS\", \"noise_rtol\": 2, "
            "\"noise_reason\": \"r\"}]"),
         FL_EPARSE, "field 'tasks[0].checks[0].noise_rtol'"},
    };
#undef RT
#undef RJ
    char path[256];
    snprintf(path, sizeof path, "%s/r.json", dir);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_file("r.json", cases[i].text);
        fl_results *r = (fl_results *)1;
        fl_error err;
        fl_error_clear(&err);
        cr_assert_eq(fl_results_read_json(path, &r, &err), cases[i].status, "case %zu", i);
        cr_assert_null(r);
        cr_assert(strstr(err.message, cases[i].msg) != NULL, "case %zu: \"%s\"", i, err.message);
        cr_assert(strstr(err.message, "r.json") != NULL, "case %zu: \"%s\"", i, err.message);
    }
    fl_results *r;
    fl_error err;
    snprintf(path, sizeof path, "%s/none.json", dir);
    cr_assert_eq(fl_results_read_json(path, &r, &err), FL_EIO);
    cr_assert(strstr(err.message, "none.json") != NULL, "%s", err.message);
}

/* Optional members: null is "absent" (numbers, arrays); the strings "-inf", "inf", "nan" are
 * the non-finite values (fl_results.h). */
Test(fl_results, reader_optional_and_nonfinite_numbers)
{
    write_file("r.json", "{\"format\": \"frictionlab-results/1\", \"seconds\": null, \"papers\": null, "
                         "\"tasks\": [{\"name\": \"b\", "
                         "\"figures\": null, \"files\": null, \"checks\": null}, {\"name\": \"a\", "
                         "\"params\": null, \"checks\": [{\"name\": \"c\", \"status\": \"NOTE\", \"value\": \"-inf\", "
                         "\"expected\": null, \"tolerance\": \"inf\"}]}]}");
    char path[256];
    snprintf(path, sizeof path, "%s/r.json", dir);
    fl_results *r = NULL;
    fl_error err;
    cr_assert_eq(fl_results_read_json(path, &r, &err), FL_OK, "%s", err.message);
    cr_assert_eq(r->npapers, 0);
    cr_assert(r->tasks[0]->nfigures == 0 && r->tasks[0]->nfiles == 0 && r->tasks[0]->nchecks == 0);
    const fl_result_check *c = &r->tasks[1]->checks[0];
    cr_assert(c->has_value && c->value == -INFINITY);
    cr_assert(!c->has_expected);
    cr_assert(c->has_tolerance && c->tolerance == INFINITY);
    cr_assert_null(r->tasks[1]->params_file);
    fl_results_free(r);
}

/* A paper reference without a space whose first word is longer than the
 * 64 bytes a paper id may take (the report cuts it). */
#define LONG_PAPER "004NoSpaceAndLongerThanTheSixtyFourBytesOfAPaperIdentifierBufferXYZ"

/* Arguments the model refuses, and statuses outside the enumeration. */
Test(fl_results, bad_arguments_and_unknown_statuses)
{
    cr_assert_str_eq(fl_result_status_name((fl_result_status)7), "?");
    fl_results *r = fl_results_alloc(NULL, NULL);
    cr_assert_not_null(r);
    fl_result_task *t = NULL;
    cr_assert_eq(fl_results_paper_add(r, NULL, "ref"), FL_EINVAL);
    cr_assert_eq(fl_results_task_add(r, NULL, NULL, NULL, &t), FL_EINVAL);
    cr_assert_eq(fl_results_task_add(r, "a", NULL, LONG_PAPER, &t), FL_OK);
    cr_assert_eq(fl_result_task_figure_add(t, NULL, "cap"), FL_EINVAL);
    cr_assert_eq(fl_result_task_file_add(t, NULL), FL_EINVAL);
    cr_assert_eq(fl_result_task_check_add(t, NULL), FL_EINVAL);
    fl_result_check c = fl_result_check_default();
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_EINVAL, "a check needs a name");
    c.name = "a.odd";
    c.status = (fl_result_status)7;
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);
    c.name = "a.ok";
    c.status = FL_RESULT_PASS;
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);
    /* the unknown status is counted nowhere; NULL counters are skipped */
    long pass = -1, fail = -1;
    fl_results_count(r, &pass, NULL, NULL, NULL);
    fl_results_count(r, NULL, &fail, NULL, NULL);
    cr_assert_eq(pass, 1);
    cr_assert_eq(fail, 0);
    /* the params file: unreadable -> FL_EIO naming it; a directory cannot be
     * hashed either; without a shown name the path is recorded */
    fl_error err;
    char path[256];
    snprintf(path, sizeof path, "%s/none.json", dir);
    cr_assert_eq(fl_result_task_set_params(t, "data/none.json", path, &err), FL_EIO);
    cr_assert(strstr(err.message, "none.json") != NULL, "%s", err.message);
    char hex[65];
    cr_assert_eq(fl_results_sha256_file(dir, hex, &err), FL_EIO);
    cr_assert(strstr(err.message, dir) != NULL, "%s", err.message);
    write_file("p.json", "abc");
    snprintf(path, sizeof path, "%s/p.json", dir);
    cr_assert_eq(fl_result_task_set_params(t, NULL, path, &err), FL_OK, "%s", err.message);
    cr_assert_str_eq(t->params_file, path);
    fl_results_free(r);
}

/* The page for a run with missing pieces: no version, a negative time, a
 * figure that is not a PNG, one without a caption, a figure path that is a
 * directory, a task whose parameter hash is unknown, a check of an unknown
 * status; and a large PNG is inlined whole. */
Test(fl_results, html_of_an_incomplete_run)
{
    fl_results *r = fl_results_alloc(NULL, NULL);
    fl_result_task *t = NULL;
    r->seconds = -1.0;
    cr_assert_eq(fl_results_task_add(r, "t", NULL, LONG_PAPER, &t), FL_OK);
    cr_assert_eq(fl_result_task_figure_add(t, "plot.svg", "004 Fig. 9"), FL_OK);
    cr_assert_eq(fl_result_task_figure_add(t, "big.png", NULL), FL_OK);
    cr_assert_eq(fl_result_task_figure_add(t, "a b", "&<>\"q\""), FL_OK);
    t->params_file = strdup("data/x.json");
    fl_result_check c = fl_result_check_default();
    c.name = "t.odd";
    c.status = (fl_result_status)9;
    cr_assert_eq(fl_result_task_check_add(t, &c), FL_OK);
    /* 100000 zero bytes: base64 (RFC 4648) is 33333 groups "AAAA", then one
     * byte left: "AA==" */
    char path[256];
    snprintf(path, sizeof path, "%s/big.png", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    for (int i = 0; i < 100000; i++) fputc(0, f);
    fclose(f);
    char cwd[4096];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(dir), 0);
    snprintf(path, sizeof path, "%s/report.html", dir);
    cr_assert_eq(fl_results_write_html(r, path, NULL, NULL), FL_OK);   /* base_dir NULL: "." */
    cr_assert_eq(chdir(cwd), 0);
    char *html = read_all(path);
    cr_assert(strstr(html, "(unknown version)") != NULL);
    char sect[128];
    snprintf(sect, sizeof sect, "id=\"paper-%.63s\"", LONG_PAPER);   /* the id's first 63 bytes */
    cr_assert(strstr(html, sect) != NULL, "%s", sect);
    cr_assert(strstr(html, "run time 0.0 s.") != NULL);
    cr_assert(strstr(html, "figure plot.svg could not be read") != NULL);
    cr_assert(strstr(html, "(no paper figure) &mdash; <a href=\"big.png\"") != NULL);
    cr_assert(strstr(html, "SHA-256 <code>unknown</code>") != NULL);
    cr_assert(strstr(html, "figure a b could not be read") != NULL);      /* too short a name for .png */
    cr_assert(strstr(html, "<a href=\"a%20b\">") != NULL);
    cr_assert(strstr(html, "Reproduces &amp;&lt;&gt;&quot;q&quot; &mdash;") != NULL);
    cr_assert(strstr(html, "<tr class=\"note\"><td>t.odd</td><td>?</td>") != NULL);
    cr_assert(strstr(html, "Checks: 0 passed, 0 failed, 0 notes, 0 not run.") != NULL);
    char *b64 = strstr(html, "base64,");
    cr_assert_not_null(b64);
    cr_assert_eq(strspn(b64 + 7, "A"), 133334);
    cr_assert_eq(strncmp(b64 + 7 + 133334, "==\"", 3), 0);
    free(html);
    /* a write error (a full device) is FL_EIO naming the file */
    fl_error err;
    cr_assert_eq(fl_results_write_html(r, "/dev/full", dir, &err), FL_EIO);
    cr_assert(strstr(err.message, "/dev/full") != NULL, "%s", err.message);
    snprintf(path, sizeof path, "%s/no/such/dir/results.json", dir);
    cr_assert_eq(fl_results_write_json(r, path, &err), FL_EIO);
    cr_assert(strstr(err.message, "results.json") != NULL, "%s", err.message);
    /* a figure whose path is a directory is dropped like a missing one */
    cr_assert_eq(fl_result_task_figure_add(t, "sub.png", NULL), FL_OK);
    snprintf(path, sizeof path, "%s/sub.png", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    cr_assert_eq(chdir(dir), 0);
    fl_result_task_drop_missing(t, NULL);                               /* base_dir NULL: "." */
    cr_assert_eq(chdir(cwd), 0);
    cr_assert_eq(t->nfigures, 1);
    cr_assert_str_eq(t->figures[0].file, "big.png");
    fl_results_free(r);
}

/* Comparison options and non-finite values: a negative rtol is refused;
 * NaN equals NaN, +inf differs from -inf and from 1; a baseline check that
 * was NOT RUN and is gone is no drift; a tolerance only the current run
 * gives is used. */
Test(fl_results, compare_options_and_nonfinite_values)
{
    fl_results *base, *cur;
    fl_result_task *tb, *tc;
    two_runs(&base, &cur, &tb, &tc);
    fl_result_check c = fl_result_check_default();
    c.has_value = 1;
    c.name = "t.nan";
    c.value = NAN;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    c.name = "t.inf";
    c.value = INFINITY;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    c.value = -INFINITY;
    cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    c.name = "t.toinf";
    c.value = 1.0;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    c.value = INFINITY;
    cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    c.name = "t.tol";
    c.value = 1.0;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    c.value = 1.05;
    c.has_tolerance = 1;
    c.tolerance = 0.1;
    cr_assert_eq(fl_result_task_check_add(tc, &c), FL_OK);
    c = fl_result_check_default();
    c.name = "t.skipped";
    c.status = FL_RESULT_NOT_RUN;
    cr_assert_eq(fl_result_task_check_add(tb, &c), FL_OK);
    fl_result_compare_options o = fl_result_compare_options_default();
    o.rtol = -1.0;
    fl_result_comparison *cmp = (void *)1;
    fl_error err;
    cr_assert_eq(fl_results_compare(base, cur, &o, &cmp, &err), FL_EINVAL);
    cr_assert_null(cmp);
    o.rtol = NAN;
    cr_assert_eq(fl_results_compare(base, cur, &o, &cmp, &err), FL_EINVAL);
    o.rtol = 1.0;
    cr_assert_eq(fl_results_compare(base, cur, &o, &cmp, &err), FL_EINVAL);
    o.rtol = 1e-9;
    cr_assert_eq(fl_results_compare(base, cur, &o, &cmp, &err), FL_OK, "%s", err.message);
    cr_assert_eq(cmp->ncompared, 4);
    /* t.tol: its value moved 5% (inside the paper tolerance 0.1 it gained:
     * still a drift), and the tolerance exists on one side only */
    cr_assert_eq(cmp->ndrift, 4);
    cr_assert_eq(cmp->nitems, 4);
    cr_assert_str_eq(cmp->items[0].check, "t.inf");
    cr_assert_str_eq(cmp->items[1].check, "t.toinf");
    cr_assert_str_eq(cmp->items[2].check, "t.tol");
    cr_assert_str_eq(cmp->items[2].field, "value");
    cr_assert_str_eq(cmp->items[3].field, "tolerance");
    cr_assert_eq(cmp->items[3].has_old, 0);
    fl_result_comparison_free(cmp);
    fl_result_comparison_free(NULL);
    fl_results_free(base);
    fl_results_free(cur);
}
