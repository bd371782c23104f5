/* test_suite.c — the verdicts and figures of `frictionlab bench suite`
 * (report/fl_suite.h, checks/suite.h) on hand-made rows whose answers are worked out below:
 * the verdict rule, the honest-claim count, the shifted geometric mean with
 * failures charged at the limit, the Dolan-Moré profile (Math. Program. 91
 * (2002), eq. (1)-(2)), the median error, suite.json round trip and its
 * refusals, and the merge of shards. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/suite.h"
#include "fl_results.h"

static void row(fl_suite *s, const char *solver, const char *problem, double seconds, int exit_code,
                int timed_out, double err_q, double err_sic)
{
    fl_suite_row r;
    memset(&r, 0, sizeof r);
    r.solver = (char *)solver;
    r.problem = (char *)problem;
    r.set = (char *)"hand";
    r.dim = 3;
    r.nc = 2;
    r.tol = 1e-4;
    r.seconds = seconds;
    r.exit_code = exit_code;
    r.timed_out = timed_out;
    r.claimed = !timed_out && exit_code == 0;
    r.have_solution = !timed_out && !isnan(err_q);
    r.err[0] = err_q;
    r.err[1] = err_sic;
    r.err[2] = err_q;
    r.note = (char *)"last line";
    cr_assert_eq(fl_suite_row_add(s, &r), FL_OK);
}

/* A: p1 in 1 s at 1e-5 (solved), p2 claimed at 1e-3 (not solved), p3 timed out.
 * B: p1 in 2 s, p2 in 4 s, p3 in 8 s, all at 1e-6 (solved).
 * Limit 10 s, shift 0.01 s. */
static fl_suite *hand_suite(void)
{
    fl_suite *s = fl_suite_alloc();
    cr_assert_not_null(s);
    s->time_limit = 10;
    s->shift = 0.01;
    cr_assert_eq(fl_suite_tol_add(s, 1e-4), FL_OK);
    cr_assert_eq(fl_suite_solver_add(s, "A", "outside", "a {in} {out}", 0.005), FL_OK);
    cr_assert_eq(fl_suite_solver_add(s, "B", "ours", "b {in} {out} {tol}", 0.004), FL_OK);
    row(s, "A", "p1", 1.0, 0, 0, 1e-5, 1e-6);
    row(s, "A", "p2", 3.0, 0, 0, 1e-3, 5e-5);
    row(s, "A", "p3", 10.2, 137, 1, NAN, NAN);
    row(s, "B", "p1", 2.0, 0, 0, 1e-6, 1e-7);
    row(s, "B", "p2", 4.0, 0, 0, 1e-6, 1e-7);
    row(s, "B", "p3", 8.0, 1, 0, 1e-6, 1e-7);
    fl_suite_judge(s);
    return s;
}

Test(suite, verdicts_honest_claims_and_shifted_geometric_mean)
{
    fl_suite *s = hand_suite();
    int want[] = {1, 0, 0, 1, 1, 1};
    for (size_t i = 0; i < 6; i++) cr_assert_eq(s->rows[i].solved, want[i], "row %zu", i);
    fl_suite_stats st[2];
    cr_assert_eq(fl_suite_stats_compute(s, NULL, 1e-4, st, NULL), FL_OK);
    cr_assert_eq(st[0].runs, 3);
    cr_assert_eq(st[0].solved, 1);
    cr_assert_eq(st[0].claims, 2);   /* p3 timed out: no claim */
    cr_assert_eq(st[0].honest, 1);
    cr_assert_eq(st[1].solved, 3);
    cr_assert_eq(st[1].claims, 2);   /* p3 exit 1 but solved: solved, not claimed */
    cr_assert_eq(st[1].honest, 2);
    /* A: failures p2, p3 charged at the limit 10 s */
    double sa = cbrt(1.01 * 10.01 * 10.01) - 0.01, sb = cbrt(2.01 * 4.01 * 8.01) - 0.01;
    cr_assert_float_eq(st[0].sgm, sa, 1e-12);
    cr_assert_float_eq(st[1].sgm, sb, 1e-12);
    cr_assert_float_eq(st[1].sgm_rel, 1.0, 1e-15);
    cr_assert_float_eq(st[0].sgm_rel, sa / sb, 1e-12);
    cr_assert_float_eq(st[0].median_err, 0.5 * (1e-5 + 1e-3), 1e-18);   /* p3: no solution */
    cr_assert_float_eq(st[1].median_err, 1e-6, 1e-20);
    char why[512];
    fl_suite_row_reason(s, &s->rows[1], why, sizeof why);
    cr_assert(strstr(why, "rechecked error 1.00e-03 > 1e-04 (q)"), "%s", why);
    fl_suite_row_reason(s, &s->rows[2], why, sizeof why);
    cr_assert(strstr(why, "timeout after 10.2 s"), "%s", why);
    /* under Siconos's normalisation A's p2 (5e-5) is solved */
    s->norm = FL_SUITE_NORM_SICONOS;
    fl_suite_judge(s);
    cr_assert_eq(s->rows[1].solved, 1);
    fl_suite_free(s);
}

Test(suite, dolan_more_profile)
{
    fl_suite *s = hand_suite();
    double rho[2];
    /* best times: p1 A 1 s, p2 B 4 s, p3 B 8 s (A failed p2, p3) */
    cr_assert_eq(fl_suite_profile(s, NULL, 1e-4, 1.0, rho, NULL), FL_OK);
    cr_assert_float_eq(rho[0], 1.0 / 3.0, 1e-15);
    cr_assert_float_eq(rho[1], 2.0 / 3.0, 1e-15);
    cr_assert_eq(fl_suite_profile(s, NULL, 1e-4, 1.999, rho, NULL), FL_OK);
    cr_assert_float_eq(rho[1], 2.0 / 3.0, 1e-15);
    cr_assert_eq(fl_suite_profile(s, NULL, 1e-4, 2.0, rho, NULL), FL_OK);
    cr_assert_float_eq(rho[1], 1.0, 1e-15);
    cr_assert_eq(fl_suite_profile(s, NULL, 1e-4, 100.0, rho, NULL), FL_OK);
    cr_assert_float_eq(rho[0], 1.0 / 3.0, 1e-15);   /* a failure never counts */
    cr_assert_eq(fl_suite_profile(s, "other", 1e-4, 2.0, rho, NULL), FL_OK);
    cr_assert(isnan(rho[0]));   /* no problem in that set */
    fl_suite_free(s);
}

Test(suite, json_round_trip_and_merge)
{
    fl_suite *s = hand_suite();
    fl_suite_set(&s->cpu, "a CPU \"quoted\"");
    char path[] = "/tmp/fl_test_suite_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(fl_suite_write_json(s, path, NULL), FL_OK);
    fl_suite *t = NULL;
    fl_error e;
    cr_assert_eq(fl_suite_read_json(path, &t, &e), FL_OK, "%s", e.message);
    cr_assert_eq(t->nrows, 6);
    cr_assert_eq(t->nsolvers, 2);
    cr_assert_str_eq(t->cpu, "a CPU \"quoted\"");
    cr_assert_str_eq(t->solvers[1].command, "b {in} {out} {tol}");
    cr_assert(isnan(t->rows[2].err[0]));
    for (size_t i = 0; i < 6; i++) {
        cr_assert_str_eq(t->rows[i].problem, s->rows[i].problem);
        cr_assert_eq(t->rows[i].solved, s->rows[i].solved);
        cr_assert_eq(t->rows[i].seconds, s->rows[i].seconds);
    }
    cr_assert_eq(fl_suite_merge(s, t, &e), FL_OK, "%s", e.message);
    cr_assert_eq(s->nrows, 12);
    t->tols[0] = 1e-8;
    cr_assert_eq(fl_suite_merge(s, t, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "tolerance"), "%s", e.message);
    fl_suite_free(t);
    /* refusals name the file and the field */
    FILE *f = fopen(path, "w");
    fputs("{\"format\": \"frictionlab-results/1\"}", f);
    fclose(f);
    cr_assert_eq(fl_suite_read_json(path, &t, &e), FL_EPARSE);
    cr_assert(strstr(e.message, path) && strstr(e.message, "format"), "%s", e.message);
    cr_assert_eq(fl_suite_write_json(s, path, NULL), FL_OK);
    f = fopen(path, "r");
    char *buf = calloc(1 << 20, 1);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *at = strstr(buf, "\"seconds\"");
    cr_assert_not_null(at);
    memcpy(at, "\"secondz\"", 9);
    f = fopen(path, "w");
    fputs(buf, f);
    fclose(f);
    free(buf);
    cr_assert_eq(fl_suite_read_json(path, &t, &e), FL_EPARSE);
    cr_assert(strstr(e.message, "rows[0].seconds"), "%s", e.message);
    remove(path);
    fl_suite_free(s);
}

Test(suite, command_template)
{
    char buf[256];
    cr_assert_eq(fl_suite_command("x {in} {out} --tol {tol}", 1e-8, "a b", "c", buf, sizeof buf, NULL),
                 FL_OK);
    cr_assert_str_eq(buf, "x 'a b' 'c' --tol 1e-08");
    int k = -1;
    cr_assert_eq(fl_suite_norm_parse("fclib", &k, NULL), FL_OK);
    cr_assert_eq(k, FL_SUITE_NORM_FCLIB);
    cr_assert_eq(fl_suite_norm_parse("l2", &k, NULL), FL_ENOTFOUND);
}

/* The text of a file (NULL-terminated, caller frees). */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *b = calloc(1, 1 << 20);
    cr_assert_not_null(b);
    size_t n = fread(b, 1, (1 << 20) - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

/* The page head up to </style>, without the <title> element. */
static void head_of(const char *page, char *out, size_t len)
{
    const char *t = strstr(page, "<title>"), *te = strstr(page, "</title>"), *e = strstr(page, "</style>");
    cr_assert(t && te && e && t < te && te < e, "no <title> ... </style> in the page");
    snprintf(out, len, "%.*s%.*s", (int)(t - page), page, (int)(e - te), te);
}

/* report.html of a suite is written by the report library that reproduce
 * uses: the same page skeleton and style sheet as fl_results_write_html's
 * (only the title differs), the suite's names escaped, its profile PNG
 * inlined as a base64 data URI. */
Test(suite, report_html_is_the_report_library_page)
{
    char dir[] = "/tmp/fl-suite-html-XXXXXX", a[256], b[256], png[256];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/suite.html", dir);
    snprintf(b, sizeof b, "%s/reproduce.html", dir);
    snprintf(png, sizeof png, "%s/p.png", dir);
    static const unsigned char pngbytes[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    FILE *f = fopen(png, "wb");
    cr_assert_not_null(f);
    fwrite(pngbytes, 1, sizeof pngbytes, f);
    fclose(f);
    fl_suite *s = hand_suite();
    cr_assert_eq(fl_suite_solver_add(s, "x<&>\"", "outside", "x {in} {out}", 0.001), FL_OK);
    const char *pngs[] = {png};
    cr_assert_eq(fl_suite_write_html(s, a, pngs, NULL), FL_OK);
    fl_results *r = fl_results_alloc("v", "c");
    cr_assert_not_null(r);
    cr_assert_eq(fl_results_write_html(r, b, dir, NULL), FL_OK);
    char *pa = read_all(a), *pb = read_all(b);
    char ha[8192], hb[8192];
    head_of(pa, ha, sizeof ha);
    head_of(pb, hb, sizeof hb);
    cr_assert_str_eq(ha, hb);
    cr_assert_not_null(strstr(pa, "<title>frictionlab bench suite</title>"));
    cr_assert_not_null(strstr(pa, "x&lt;&amp;&gt;&quot;"));
    cr_assert_not_null(strstr(pa, "src=\"data:image/png;base64,iVBORw0KGgo=\""), "%s", pa);
    free(pa);
    free(pb);
    fl_results_free(r);
    fl_suite_free(s);
    remove(a);
    remove(b);
    remove(png);
    rmdir(dir);
}
