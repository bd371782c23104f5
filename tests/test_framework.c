/* test_framework.c — the check framework of the frictionlab command
 * (cli/framework.c): the PASS/FAIL line format and counts, the progress
 * counter on stderr, output paths and gnuplot runs.  The command-line
 * parsing (cli/main.c) is tested by running frictionlab (tests/meson.build,
 * cli_* and cli_expect_*). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "cli.h"
#include "fl_clock.h"

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/fl_framework_test_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(framework, .init = setup, .fini = teardown);

static fl_cli_ctx fresh(void)
{
    fl_cli_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.progress = 1;
    return ctx;
}

/* Everything written to a redirected stream so far. */
static void slurp(FILE *f, char *buf, size_t len)
{
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
}

Test(framework, check_prints_one_line_and_counts, .init = cr_redirect_stdout)
{
    fl_cli_ctx ctx = fresh();
    cr_assert_eq(fl_cli_check(&ctx, 1, "sets.idempotent", "max |P(P(x)) - P(x)| = %g (tol %g)",
                              0.0, 1e-12), 1);
    cr_assert_eq(fl_cli_check(&ctx, 0, "sets.other", "%s", "off by 2"), 0);
    cr_assert_eq(fl_cli_check(&ctx, 7, "sets.third", "ok"), 7);
    cr_assert_eq(ctx.passed, 2);
    cr_assert_eq(ctx.failed, 1);
    fflush(stdout);
    cr_assert_stdout_eq_str("PASS sets.idempotent max |P(P(x)) - P(x)| = 0 (tol 1e-12)\n"
                            "FAIL sets.other off by 2\n"
                            "PASS sets.third ok\n");
}

Test(framework, note_prints_one_line_and_counts_nothing, .init = cr_redirect_stdout)
{
    fl_cli_ctx ctx = fresh();
    fl_cli_note(&ctx, "poly.press", "thickness %.3f mm", 1.5);
    cr_assert_eq(ctx.passed, 0);
    cr_assert_eq(ctx.failed, 0);
    fflush(stdout);
    cr_assert_stdout_eq_str("NOTE poly.press thickness 1.500 mm\n");
}

Test(framework, progress_on_a_terminal_redraws_one_line, .init = cr_redirect_stderr)
{
    fl_cli_ctx ctx = fresh();
    ctx.progress_tty = 1;
    fl_cli_progress(&ctx, "systems", 1, 3);   /* first call: drawn */
    ctx.progress_last = fl_clock_now() + 100.0; /* as if drawn just now */
    fl_cli_progress(&ctx, "systems", 2, 3);   /* within 0.2 s: skipped */
    cr_assert_eq(ctx.progress_open, 1, "a redrawn line is open");
    fl_cli_progress(&ctx, "systems", 3, 3);   /* last: drawn, ends the line */
    cr_assert_eq(ctx.progress_t0, 0.0, "the counter is reset after done == total");
    cr_assert_eq(ctx.progress_open, 0);
    ctx.progress = 0;
    fl_cli_progress(&ctx, "quiet", 1, 1);     /* progress off: nothing */
    fflush(stderr);
    char buf[512];
    slurp(cr_get_redirected_stderr(), buf, sizeof buf);
    cr_assert(strncmp(buf, "\rsystems: 1/3 (33%)", 19) == 0, "got \"%s\"", buf);
    cr_assert(strstr(buf, "\rsystems: 3/3 (100%)") != NULL, "got \"%s\"", buf);
    cr_assert(strstr(buf, "2/3") == NULL, "redrawn within 0.2 s: \"%s\"", buf);
    cr_assert(strstr(buf, "quiet") == NULL, "printed with progress off: \"%s\"", buf);
    cr_assert(strstr(buf, "/s") == NULL, "a rate after no time: \"%s\"", buf);
    size_t n = strlen(buf);
    cr_assert(n > 0 && buf[n - 1] == '\n', "the last draw ends the line: \"%s\"", buf);
}

Test(framework, progress_in_a_log_prints_plain_lines_with_rate_and_eta, .init = cr_redirect_stderr)
{
    fl_cli_ctx ctx = fresh();
    ctx.progress_tty = 0;
    fl_cli_progress(&ctx, "steps", 0, 100);   /* no rate at the start */
    ctx.progress_t0 = fl_clock_now() - 10.0;    /* as if started 10 s ago at 0 */
    ctx.progress_last = fl_clock_now() - 11.0;  /* last line 11 s ago: due */
    fl_cli_progress(&ctx, "steps", 50, 100);  /* 50 items in 10 s: 5/s, 10 s left */
    fl_cli_progress(&ctx, "steps", 60, 100);  /* within 10 s of the last: skipped */
    fl_cli_progress(&ctx, "steps", 100, 100); /* last: printed */
    fflush(stderr);
    char buf[1024];
    slurp(cr_get_redirected_stderr(), buf, sizeof buf);
    cr_assert(strchr(buf, '\r') == NULL, "no carriage return in a log: \"%s\"", buf);
    cr_assert(strncmp(buf, "steps: 0/100 (0%)\n", 18) == 0, "got \"%s\"", buf);
    cr_assert(strstr(buf, "steps: 50/100 (50%), 5.0/s, ETA 10 s\n") != NULL, "got \"%s\"", buf);
    cr_assert(strstr(buf, "60/100") == NULL, "got \"%s\"", buf);
    cr_assert(strstr(buf, "steps: 100/100 (100%), 10.0/s, 10 s\n") != NULL, "got \"%s\"", buf);
    cr_assert(strstr(buf, "(0/s)") == NULL);
}

Test(framework, progress_slow_items_show_seconds_each, .init = cr_redirect_stderr)
{
    fl_cli_ctx ctx = fresh();
    fl_cli_progress(&ctx, "rows", 0, 10);
    ctx.progress_t0 = fl_clock_now() - 8.0;
    ctx.progress_last = 0.0;
    fl_cli_progress(&ctx, "rows", 2, 10);     /* 4 s per row, 32 s left */
    fflush(stderr);
    char buf[512];
    slurp(cr_get_redirected_stderr(), buf, sizeof buf);
    cr_assert(strstr(buf, "rows: 2/10 (20%), 4.0 s each, ETA 32 s\n") != NULL, "got \"%s\"", buf);
}

Test(framework, duration_formats)
{
    char b[32];
    fl_cli_duration(3.14, b, sizeof b);
    cr_assert_str_eq(b, "3.1 s");
    fl_cli_duration(42.4, b, sizeof b);
    cr_assert_str_eq(b, "42 s");
    fl_cli_duration(185.0, b, sizeof b);
    cr_assert_str_eq(b, "3 min 05 s");
    fl_cli_duration(3720.0, b, sizeof b);
    cr_assert_str_eq(b, "1 h 02 min");
    fl_cli_duration(-1.0, b, sizeof b);
    cr_assert_str_eq(b, "0.0 s");
}

Test(framework, every_kind_of_line_is_printed_and_recorded, .init = cr_redirect_stdout)
{
    fl_cli_ctx ctx = fresh();
    ctx.results = fl_results_alloc("v", "c");
    cr_assert_not_null(ctx.results);
    fl_cli_task_begin(&ctx, "t", "a claim", NULL);
    cr_assert_not_null(ctx.task);
    cr_assert_str_eq(ctx.task_dir, "", "no paper: files stay flat");
    fl_cli_check(&ctx, 1, "t.a", "x = %d", 1);
    fl_cli_check_value(&ctx, 0, "t.b", 1.5, 2.0, 0.1, "004 (86)", "b = %.1f", 1.5);
    fl_cli_check_value(&ctx, 1, "t.c", 3.0, NAN, NAN, NULL, "no expected value");
    fl_cli_note(&ctx, "t.d", "just so you know (%s)", "info");
    fl_cli_not_run(&ctx, "t.e", "only without --quick");
    fl_cli_discrepancy(&ctx, "t.f", -1.78, -1.82, "004 Table 1 row 3", "the paper's mesh is finer",
                       "ours %.2f, paper %.2f", -1.78, -1.82);
    fl_cli_task_paper(&ctx, "004 §5 Table 1");
    fl_cli_task_end(&ctx, 1.25);
    cr_assert_null(ctx.task);
    cr_assert_eq(ctx.passed, 2);
    cr_assert_eq(ctx.failed, 1);
    cr_assert_eq(ctx.notes, 2);
    cr_assert_eq(ctx.not_run, 1);
    fflush(stdout);
    cr_assert_stdout_eq_str("PASS t.a x = 1\n"
                            "FAIL t.b b = 1.5\n"
                            "PASS t.c no expected value\n"
                            "NOTE t.d just so you know (info)\n"
                            "NOT RUN t.e only without --quick\n"
                            "NOTE t.f ours -1.78, paper -1.82 (documented discrepancy: the paper's mesh is finer)\n");
    const fl_result_task *t = ctx.results->tasks[0];
    cr_assert_str_eq(t->paper, "004 §5 Table 1");
    cr_assert_eq(t->seconds, 1.25);
    cr_assert_eq(t->nchecks, 6);
    cr_assert_eq(t->checks[0].has_value, 0);
    cr_assert_eq(t->checks[1].status, FL_RESULT_FAIL);
    cr_assert(t->checks[1].has_value && t->checks[1].has_expected && t->checks[1].has_tolerance);
    cr_assert_eq(t->checks[1].value, 1.5);
    cr_assert_eq(t->checks[1].expected, 2.0);
    cr_assert_eq(t->checks[1].tolerance, 0.1);
    cr_assert_str_eq(t->checks[1].reference, "004 (86)");
    cr_assert_str_eq(t->checks[1].detail, "b = 1.5");
    cr_assert(t->checks[2].has_value && !t->checks[2].has_expected && !t->checks[2].has_tolerance);
    cr_assert_eq(t->checks[3].status, FL_RESULT_NOTE);
    cr_assert_eq(t->checks[4].status, FL_RESULT_NOT_RUN);
    cr_assert_eq(t->checks[5].status, FL_RESULT_NOTE);
    cr_assert_str_eq(t->checks[5].discrepancy, "the paper's mesh is finer");
    cr_assert_eq(t->checks[5].expected, -1.82);
    fl_results_free(ctx.results);
}

/* A check of checks/ reporting numbers (fl_check_value, fl_check_discrepancy). */
static int numeric_task(fl_check_ctx *c)
{
    fl_check_value(c, 1, "n.ok", 4.83e6, 4.8e6, 0.05, "004 Table 1 row 1", "Lambda = %.3g", 4.83e6);
    fl_check_value(c, 0, "n.bad", 2.0, 1.0, 0.1, NULL, "off by %g", 1.0);
    fl_check_discrepancy(c, "n.doc", 4.05e6, 5.37e6, "004 Table 1 row 4", "a reason",
                         "ours %.3g", 4.05e6);
    fl_check_value_noise(c, 1, "n.noisy", 0.25, 0.0, 0.5, 1e-6, "random start", NULL, "noisy");
    fl_check_value_noise(c, 1, "n.noreason", 0.25, 0.0, 0.5, 1e-6, "", NULL, "no reason");
    return 0;
}

Test(framework, check_values_reach_the_results, .init = cr_redirect_stdout)
{
    fl_cli_ctx ctx = fresh();
    ctx.results = fl_results_alloc("v", "c");
    cr_assert_not_null(ctx.results);
    fl_cli_task_begin(&ctx, "t", "a claim", NULL);
    cr_assert_eq(fl_cli_run_check(&ctx, numeric_task), 0);
    fl_cli_task_end(&ctx, 0.5);
    cr_assert_eq(ctx.passed, 3);
    cr_assert_eq(ctx.failed, 1);
    cr_assert_eq(ctx.notes, 1);
    fflush(stdout);
    cr_assert_stdout_eq_str("PASS n.ok Lambda = 4.83e+06\n"
                            "FAIL n.bad off by 1\n"
                            "NOTE n.doc ours 4.05e+06 (documented discrepancy: a reason)\n"
                            "PASS n.noisy noisy\n"
                            "PASS n.noreason no reason\n");
    const fl_result_task *t = ctx.results->tasks[0];
    /* a noise tolerance reaches the results with its reason; one without a
     * reason is refused (said on stderr), the check recorded without it */
    cr_assert_eq(t->nchecks, 5);
    cr_assert_str_eq(t->checks[4].name, "n.noreason");
    cr_assert_eq(t->checks[4].has_noise_rtol, 0);
    cr_assert_null(t->checks[4].noise_reason);
    cr_assert_eq(t->checks[4].value, 0.25);
    cr_assert_str_eq(t->checks[3].name, "n.noisy");
    cr_assert_eq(t->checks[3].has_noise_rtol, 1);
    cr_assert_eq(t->checks[3].noise_rtol, 1e-6);
    cr_assert_str_eq(t->checks[3].noise_reason, "random start");
    cr_assert_eq(t->checks[0].has_noise_rtol, 0);
    cr_assert_eq(t->checks[0].status, FL_RESULT_PASS);
    cr_assert(t->checks[0].has_value && t->checks[0].has_expected && t->checks[0].has_tolerance);
    cr_assert_eq(t->checks[0].value, 4.83e6);
    cr_assert_eq(t->checks[0].expected, 4.8e6);
    cr_assert_eq(t->checks[0].tolerance, 0.05);
    cr_assert_str_eq(t->checks[0].reference, "004 Table 1 row 1");
    cr_assert_eq(t->checks[1].status, FL_RESULT_FAIL);
    cr_assert_eq(t->checks[1].value, 2.0);
    cr_assert_eq(t->checks[2].status, FL_RESULT_NOTE);
    cr_assert_str_eq(t->checks[2].discrepancy, "a reason");
    cr_assert_eq(t->checks[2].value, 4.05e6);
    cr_assert_eq(t->checks[2].expected, 5.37e6);
    cr_assert_str_eq(t->checks[2].reference, "004 Table 1 row 4");
    fl_results_free(ctx.results);
}

/* Without io.value the numeric forms fall back to io.line; without any
 * callback they are silent and only count. */
static char fallback_lines[1024];
static void fallback_line(void *data, fl_check_kind kind, const char *name, const char *detail)
{
    (void)data;
    size_t n = strlen(fallback_lines);
    snprintf(fallback_lines + n, sizeof fallback_lines - n, "%d %s %s\n", (int)kind, name, detail);
}

Test(framework, check_values_without_value_callback)
{
    fl_check_ctx c = fl_check_ctx_default();
    fallback_lines[0] = '\0';
    c.io.line = fallback_line;
    cr_assert_eq(numeric_task(&c), 0);
    cr_assert_eq(c.passed, 3);
    cr_assert_eq(c.failed, 1);
    cr_assert_eq(c.noted, 1);
    cr_assert_str_eq(fallback_lines, "1 n.ok Lambda = 4.83e+06\n"
                                     "0 n.bad off by 1\n"
                                     "2 n.doc ours 4.05e+06 (documented discrepancy: a reason)\n"
                                     "1 n.noisy noisy\n"
                                     "1 n.noreason no reason\n");
    fl_check_ctx quiet = fl_check_ctx_default();
    cr_assert_eq(numeric_task(&quiet), 0);
    cr_assert_eq(quiet.passed, 3);
    cr_assert_eq(quiet.failed, 1);
    cr_assert_eq(quiet.noted, 1);
}

Test(framework, task_files_go_under_paper_and_task)
{
    static const fl_cli_task_info info = {
        "ex", "004 §3.5 Example 3.15", "tests/data/does-not-exist.json",
        {{"ex.png", "004 Fig. 7"}, {NULL, NULL}}};
    fl_cli_ctx ctx = fresh();
    ctx.out_dir = tmpdir;
    ctx.results = fl_results_alloc("v", "c");
    cr_redirect_stderr(); /* the missing parameter file is reported there */
    fl_cli_task_begin(&ctx, "ex", "claim", &info);
    cr_assert_str_eq(ctx.task_dir, "004/ex");
    char png[256], csv[256], gone[256], want[256];
    cr_assert_eq(fl_cli_out_path(&ctx, "ex.png", png, sizeof png), 0);
    snprintf(want, sizeof want, "%s/004/ex/ex.png", tmpdir);
    cr_assert_str_eq(png, want);
    cr_assert_eq(fl_cli_out_path(&ctx, "ex.csv", csv, sizeof csv), 0);
    cr_assert_eq(fl_cli_out_path(&ctx, "never.csv", gone, sizeof gone), 0);
    fl_cli_figure(&ctx, "ex.png", "004 Fig. 7 (explicit)");
    FILE *f = fopen(png, "w");
    cr_assert_not_null(f);
    fputs("png", f);
    fclose(f);
    f = fopen(csv, "w");
    cr_assert_not_null(f);
    fclose(f);
    fl_cli_task_end(&ctx, 0.5);
    const fl_result_task *t = ctx.results->tasks[0];
    cr_assert_str_eq(t->paper, "004 §3.5 Example 3.15");
    cr_assert_null(t->params_file, "a missing parameter file is not recorded");
    cr_assert_eq(t->nfigures, 1);
    cr_assert_str_eq(t->figures[0].file, "004/ex/ex.png");
    cr_assert_str_eq(t->figures[0].caption, "004 Fig. 7 (explicit)");
    cr_assert_eq(t->nfiles, 1, "never.csv was not written");
    cr_assert_str_eq(t->files[0].file, "004/ex/ex.csv");
    /* after the task, files are flat again */
    cr_assert_eq(fl_cli_out_path(&ctx, "results.json", png, sizeof png), 0);
    snprintf(want, sizeof want, "%s/results.json", tmpdir);
    cr_assert_str_eq(png, want);
    fl_results_free(ctx.results);
}

Test(framework, task_params_are_hashed)
{
    static const fl_cli_task_info info = {"ex", NULL, "params.json", {{NULL, NULL}}};
    char path[128];
    snprintf(path, sizeof path, "%s/params.json", tmpdir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("abc", f);
    fclose(f);
    cr_assert_eq(setenv("FL_SOURCE_ROOT", tmpdir, 1), 0);
    fl_cli_ctx ctx = fresh();
    ctx.results = fl_results_alloc("v", "c");
    fl_cli_task_begin(&ctx, "ex", "claim", &info);
    fl_cli_task_end(&ctx, 0.0);
    const fl_result_task *t = ctx.results->tasks[0];
    cr_assert_str_eq(t->params_file, "params.json");
    /* SHA-256("abc"), FIPS 180-2 Appendix B.1 */
    cr_assert_str_eq(t->params_sha256,
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fl_results_free(ctx.results);
}

Test(framework, out_path_creates_nested_directories)
{
    fl_cli_ctx ctx = fresh();
    char dir[128], want[256], buf[256];
    snprintf(dir, sizeof dir, "%s/a/b/c", tmpdir);
    ctx.out_dir = dir;
    cr_assert_eq(fl_cli_out_path(&ctx, "energy.csv", buf, sizeof buf), 0);
    snprintf(want, sizeof want, "%s/a/b/c/energy.csv", tmpdir);
    cr_assert_str_eq(buf, want);
    struct stat st;
    cr_assert_eq(stat(dir, &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    /* again: the directories exist already */
    cr_assert_eq(fl_cli_out_path(&ctx, "energy.csv", buf, sizeof buf), 0);
}

Test(framework, out_path_errors, .init = cr_redirect_stderr)
{
    fl_cli_ctx ctx = fresh();
    char file[128], dir[160], buf[256];
    snprintf(file, sizeof file, "%s/plain", tmpdir);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    fclose(f);
    snprintf(dir, sizeof dir, "%s/sub", file);   /* under a regular file */
    ctx.out_dir = dir;
    cr_assert_eq(fl_cli_out_path(&ctx, "x.csv", buf, sizeof buf), -1);
    ctx.out_dir = file;                           /* a regular file itself */
    cr_assert_eq(fl_cli_out_path(&ctx, "x.csv", buf, sizeof buf), -1);
    ctx.out_dir = "";
    cr_assert_eq(fl_cli_out_path(&ctx, "x.csv", buf, sizeof buf), -1);
    ctx.out_dir = tmpdir;
    char tiny[8];
    cr_assert_eq(fl_cli_out_path(&ctx, "x.csv", tiny, sizeof tiny), -1);
    fflush(stderr);
    char msg[1024];
    slurp(cr_get_redirected_stderr(), msg, sizeof msg);
    cr_assert(strstr(msg, "cannot create output directory") != NULL, "%s", msg);
    cr_assert(strstr(msg, "output path too long") != NULL, "%s", msg);
}

Test(framework, gnuplot_draws_and_reports_failure, .init = cr_redirect_stderr)
{
    char png[128], script[512];
    snprintf(png, sizeof png, "%s/plot.png", tmpdir);
    snprintf(script, sizeof script,
             "set terminal png\nset output '%s'\nplot x*x title 'x^2'\n", png);
    cr_assert_eq(fl_cli_gnuplot(script), 0);
    struct stat st;
    cr_assert_eq(stat(png, &st), 0, "gnuplot wrote no %s", png);
    cr_assert_gt(st.st_size, 0);
    cr_assert_eq(fl_cli_gnuplot("this is not a gnuplot command\n"), -1);
    fflush(stderr);
    char msg[1024];
    slurp(cr_get_redirected_stderr(), msg, sizeof msg);
    cr_assert(strstr(msg, "gnuplot failed") != NULL, "%s", msg);
}

Test(framework, clock_is_monotonic)
{
    double a = fl_clock_now();
    double b = fl_clock_now();
    cr_assert_gt(a, 0.0);
    cr_assert_geq(b, a);
}

/* A task that never reads --params: the command must say so with a FAIL
 * (every task of the registry reads its parameter file, so only a task of
 * this test can show the guard of fl_cli_run_check). */
static int params_blind_task(fl_check_ctx *c)
{
    fl_check_report(c, 1, "blind.ok", "ran on data/ only");
    return 0;
}

Test(framework, params_unused_is_a_failure, .init = cr_redirect_stdout)
{
    char a0[] = "frictionlab", a1[] = "--params", a2[] = "user.json", a3[] = "reproduce";
    char *argv[] = {a0, a1, a2, a3, NULL};
    int argc = 4;
    cr_assert_eq(fl_cli_global_options(&argc, argv), 0);
    cr_assert_eq(argc, 2);
    cr_assert_str_eq(argv[1], "reproduce");
    fl_cli_ctx ctx = fresh();
    cr_assert_eq(fl_cli_run_check(&ctx, params_blind_task), 0);
    cr_assert_eq(ctx.passed, 1);
    cr_assert_eq(ctx.failed, 1);
    fflush(stdout);
    cr_assert_stdout_eq_str("PASS blind.ok ran on data/ only\n"
                            "FAIL params.unused this task does not read --params user.json "
                            "(it runs on data/ only)\n");
}

/* A parameter file named "data/..." is looked up under FL_DATA_DIR (which
 * stands for data/) first, then under FL_SOURCE_ROOT, then relative to the
 * working directory: SHA-256("abc") from FIPS 180-2 Appendix B.1 each time. */
Test(framework, task_params_found_through_data_dir_source_root_or_cwd)
{
    static const fl_cli_task_info info = {"ex", NULL, "data/p.json", {{NULL, NULL}}};
    static const char *abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    char dir[128], path[160];
    snprintf(dir, sizeof dir, "%s/data", tmpdir);
    cr_assert_eq(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/p.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("abc", f);
    fclose(f);
    for (int how = 0; how < 3; how++) {
        /* 0: FL_DATA_DIR = tmp/data; 1: FL_SOURCE_ROOT = tmp (FL_DATA_DIR
         * pointing where the file is not); 2: neither, cwd = tmp */
        cr_assert_eq(setenv("FL_DATA_DIR", how == 0 ? dir : "/nonexistent", 1), 0);
        if (how == 2) unsetenv("FL_DATA_DIR");
        if (how == 1) cr_assert_eq(setenv("FL_SOURCE_ROOT", tmpdir, 1), 0);
        else unsetenv("FL_SOURCE_ROOT");
        char cwd[512];
        cr_assert_not_null(getcwd(cwd, sizeof cwd));
        if (how == 2) cr_assert_eq(chdir(tmpdir), 0);
        fl_cli_ctx ctx = fresh();
        ctx.results = fl_results_alloc("v", "c");
        fl_cli_task_begin(&ctx, "ex", "claim", &info);
        fl_cli_task_end(&ctx, 0.0);
        cr_assert_eq(chdir(cwd), 0);
        const fl_result_task *t = ctx.results->tasks[0];
        cr_assert_str_eq(t->params_file, "data/p.json", "way %d", how);
        cr_assert_str_eq(t->params_sha256, abc, "way %d", how);
        fl_results_free(ctx.results);
    }
    unsetenv("FL_DATA_DIR");
    unsetenv("FL_SOURCE_ROOT");
}

/* Without a results record (crosscheck), a task records nothing and a
 * figure outside a task is ignored; files go flat under --out. */
Test(framework, tasks_without_results_record_nothing)
{
    static const fl_cli_task_info info = {"ex", "004 §3.5", NULL, {{NULL, NULL}}};
    fl_cli_ctx ctx = fresh();
    ctx.out_dir = tmpdir;
    fl_cli_task_begin(&ctx, "ex", "claim", &info);
    cr_assert_null(ctx.task);
    cr_assert_str_eq(ctx.task_dir, "");
    fl_cli_figure(&ctx, "ex.png", "caption");
    fl_cli_task_paper(&ctx, "004");
    char png[256], want[256];
    cr_assert_eq(fl_cli_out_path(&ctx, "ex.png", png, sizeof png), 0);
    snprintf(want, sizeof want, "%s/ex.png", tmpdir);
    cr_assert_str_eq(png, want);
    fl_cli_task_end(&ctx, 0.1);
    cr_assert_null(ctx.info);
}
