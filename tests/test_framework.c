/* test_framework.c — the check framework of the frictionlab command
 * (cli/framework.c): the PASS/FAIL line format and counts, the progress
 * counter on stderr, output paths and gnuplot runs.  The command-line
 * parsing (cli/main.c) is tested by running frictionlab (tests/meson.build,
 * cli_* and cli_expect_*). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

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

Test(framework, progress_goes_to_stderr_and_ends_the_line, .init = cr_redirect_stderr)
{
    fl_cli_ctx ctx = fresh();
    fl_cli_progress(&ctx, "systems", 1, 3);   /* first call: drawn */
    ctx.progress_last = fl_cli_now() + 100.0; /* as if drawn just now */
    fl_cli_progress(&ctx, "systems", 2, 3);   /* within 0.2 s: skipped */
    fl_cli_progress(&ctx, "systems", 3, 3);   /* last: drawn, ends the line */
    cr_assert_eq(ctx.progress_t0, 0.0, "the counter is reset after done == total");
    ctx.progress = 0;
    fl_cli_progress(&ctx, "quiet", 1, 1);     /* progress off: nothing */
    fflush(stderr);
    char buf[512];
    slurp(cr_get_redirected_stderr(), buf, sizeof buf);
    cr_assert(strncmp(buf, "\rsystems: 1/3 (", 15) == 0, "got \"%s\"", buf);
    cr_assert(strstr(buf, "\rsystems: 3/3 (") != NULL, "got \"%s\"", buf);
    cr_assert(strstr(buf, "2/3") == NULL, "redrawn within 0.2 s: \"%s\"", buf);
    cr_assert(strstr(buf, "quiet") == NULL, "printed with progress off: \"%s\"", buf);
    size_t n = strlen(buf);
    cr_assert(n > 0 && buf[n - 1] == '\n', "the last draw ends the line: \"%s\"", buf);
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
    double a = fl_cli_now();
    double b = fl_cli_now();
    cr_assert_gt(a, 0.0);
    cr_assert_geq(b, a);
}
