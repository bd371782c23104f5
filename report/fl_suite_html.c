/* fl_suite_html.c — report.html of a benchmark suite (fl_suite.h,
 * fl_suite_write_html), written with the report library's HTML machinery
 * (fl_html_internal.h: the page skeleton and style sheet of every
 * report.html, escaping, inlined PNG figures, tables). */
#include "fl_suite.h"
#include "fl_html_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* A two-column row "name | value" with the value escaped. */
static void kv_row(FILE *f, const char *name, const char *value)
{
    fputs("<tr>", f);
    fl_html_cell(f, name);
    fl_html_cell(f, value);
    fputs("</tr>\n", f);
}

static void html_machine(FILE *f, const fl_suite *s)
{
    static const char *const cols[] = {"", "", NULL};
    char buf[128];
    fputs("<h2>Machine and versions</h2>\n", f);
    fl_html_table_begin(f, NULL, cols);
    kv_row(f, "CPU", s->cpu ? s->cpu : "unknown");
    snprintf(buf, sizeof buf, "%d", s->cores);
    kv_row(f, "cores", buf);
    fputs("<tr><td>versions</td><td><pre>", f);
    fl_html_text(f, s->versions);
    fputs("</pre></td></tr>\n", f);
    kv_row(f, "started", s->started);
    fputs("<tr><td>command</td><td><code>", f);
    fl_html_text(f, s->command);
    fputs("</code></td></tr>\n", f);
    snprintf(buf, sizeof buf, "%g s per run", s->time_limit);
    kv_row(f, "time limit", buf);
    snprintf(buf, sizeof buf, "%.2f ms", 1e3 * s->shell_start);
    kv_row(f, "shell start (sh -c true)", buf);
    fputs("</table>\n", f);
    if (s->jobs > 1)
        fprintf(f, "<p class=\"warn\">Times measured under concurrency: %d runs at a time (-j %d) "
                   "on %d cores.</p>\n", s->jobs, s->jobs, s->cores);
}

static void html_head(FILE *f, const fl_suite *s)
{
    html_machine(f, s);
    fputs("<h2>Verdict</h2>\n<p>A run is <b>solved</b> when it ended within the time limit, "
          "wrote /solution/r, and our recheck of its answer (U = W r + q recomputed by us) "
          "has a natural-map error &le; the tolerance, normalised as <b>", f);
    fl_html_text(f, fl_suite_norm_describe(s->norm));
    fputs("</b>.  The solver's exit status is its claim; the honest-claim rate is the share of its "
          "claims (exit 0) that are solved.  The three rechecked errors (q, siconos, fclib) are in "
          "suite.csv.  Times are process wall times, start cost included (column start).</p>\n", f);
    static const char *const cols[] = {"solver", "kind", "start cost (ms)", "command", NULL};
    fputs("<h2>Solvers</h2>\n", f);
    fl_html_table_begin(f, NULL, cols);
    for (size_t i = 0; i < s->nsolvers; i++) {
        char sc[32];
        snprintf(sc, sizeof sc, "%.2f", 1e3 * s->solvers[i].start_cost);
        fputs("<tr>", f);
        fl_html_cell(f, s->solvers[i].name);
        fl_html_cell(f, s->solvers[i].kind);
        fl_html_cell(f, sc);
        fputs("<td><code>", f);
        fl_html_text(f, s->solvers[i].command);
        fputs("</code></td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static fl_status html_table(FILE *f, const fl_suite *s, const char *set, double tol, fl_error *err)
{
    fl_suite_stats *st = calloc(s->nsolvers ? s->nsolvers : 1, sizeof *st);
    if (!st) return FL_FAIL(err, FL_ENOMEM, "report: out of memory");
    fl_status rc = fl_suite_stats_compute(s, set, tol, st, err);
    if (rc == FL_OK) {
        static const char *const cols[] = {"solver", "runs", "solved", "claims", "honest claims",
                                           "shifted geo. mean (s)", "relative (1 = best)",
                                           "median error", NULL};
        fputs("<h3>", f);
        fl_html_text(f, set ? set : "all sets");
        fprintf(f, " at %.0e</h3>\n", tol);
        fl_html_table_begin(f, "num", cols);
        for (size_t k = 0; k < s->nsolvers; k++) {
            if (!st[k].runs) continue;
            fputs("<tr>", f);
            fl_html_cell(f, s->solvers[k].name);
            fprintf(f, "<td>%zu</td><td>%zu</td><td>%zu</td><td>", st[k].runs, st[k].solved,
                    st[k].claims);
            if (st[k].claims) fprintf(f, "%.0f%%", 100.0 * (double)st[k].honest / (double)st[k].claims);
            else fputs("&ndash;", f);
            fprintf(f, "</td><td>%.4g</td><td>%.2f</td><td>%.2e</td></tr>\n", st[k].sgm,
                    st[k].sgm_rel, st[k].median_err);
        }
        fputs("</table>\n", f);
    }
    free(st);
    return rc;
}

static void html_failures(FILE *f, const fl_suite *s)
{
    static const char *const cols[] = {"solver", "problem", "tol", "seconds", "reason", NULL};
    fputs("<h2>Failures</h2>\n", f);
    fl_html_table_begin(f, NULL, cols);
    for (size_t i = 0; i < s->nrows; i++) {
        const fl_suite_row *r = &s->rows[i];
        if (r->solved) continue;
        char why[1400];
        fl_suite_row_reason(s, r, why, sizeof why);
        fputs("<tr>", f);
        fl_html_cell(f, r->solver);
        fl_html_cell(f, r->problem);
        fprintf(f, "<td>%.0e</td><td>%.3g</td>", r->tol, r->seconds);
        fl_html_cell(f, why);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* The profile figure of tolerance t, inlined. */
static void html_profile(FILE *f, const char *png, double tol)
{
    char alt[96];
    snprintf(alt, sizeof alt, "performance profiles at %.0e", tol);
    fprintf(f, "<p>Dolan-Mor&eacute; performance profiles, all sets, tolerance %.0e: share of "
               "problems a solver solves within tau times the best time.</p>\n<figure>", tol);
    if (fl_html_inline_png(f, NULL, png, alt) != 0) {
        fputs("<p class=\"warn\">(figure ", f);
        fl_html_text(f, png);
        fputs(" missing)</p>", f);
    }
    fputs("</figure>\n", f);
}

fl_status fl_suite_write_html(const fl_suite *s, const char *path, const char *const *pngs,
                              fl_error *err)
{
    const char **sets = NULL;
    size_t nsets = 0;
    FL_TRY(fl_suite_sets(s, &sets, &nsets, err));
    FILE *f = fopen(path, "w");
    if (!f) {
        free(sets);
        return FL_FAIL(err, FL_EIO, "%s: cannot write", path);
    }
    fl_html_page_begin(f, "frictionlab bench suite");
    html_head(f, s);
    fl_status st = FL_OK;
    for (size_t t = 0; st == FL_OK && t < s->ntols; t++) {
        fprintf(f, "<h2>Tolerance %.0e</h2>\n", s->tols[t]);
        if (pngs && pngs[t]) html_profile(f, pngs[t], s->tols[t]);
        st = html_table(f, s, NULL, s->tols[t], err);
        for (size_t k = 0; st == FL_OK && nsets > 1 && k < nsets; k++)
            st = html_table(f, s, sets[k], s->tols[t], err);
    }
    if (st == FL_OK) html_failures(f, s);
    fl_html_page_end(f);
    free(sets);
    if (fclose(f) != 0 && st == FL_OK) st = FL_FAIL(err, FL_EIO, "%s: cannot write", path);
    return st;
}
