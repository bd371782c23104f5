/* fl_results_html.c — report.html of a run (fl_results.h,
 * fl_results_write_html): one offline page, PNG figures inlined as base64
 * data URIs (the report library's HTML machinery, fl_html_internal.h). */
#include "fl_results.h"
#include "fl_html_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- report.html --------------------------------------------------------- */

static void html_num(FILE *f, int has, double x)
{
    if (has) fprintf(f, "%.10g", x);
    else fputs("&mdash;", f);
}

/* The paper id of a task: the first word of its paper reference. */
static size_t paper_id(const char *paper, char *id, size_t len)
{
    size_t n = 0;
    if (paper)
        while (paper[n] && paper[n] != ' ' && n + 1 < len) {
            id[n] = paper[n];
            n++;
        }
    id[n] = '\0';
    return n;
}

static int is_png(const char *file)
{
    size_t n = strlen(file);
    return n > 4 && strcmp(file + n - 4, ".png") == 0;
}

/* "3.2 s", "53 min 35 s", "1 h 02 min". */
static void html_duration(FILE *f, double seconds)
{
    if (!(seconds >= 0.0)) seconds = 0.0;
    long s = (long)(seconds + 0.5);
    if (seconds < 60.0) fprintf(f, "%.1f s", seconds);
    else if (s < 3600) fprintf(f, "%ld min %02ld s", s / 60, s % 60);
    else fprintf(f, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
}

static const char *status_class(fl_result_status s, const char *discrepancy)
{
    if (discrepancy) return "disc";
    switch (s) {
    case FL_RESULT_PASS: return "pass";
    case FL_RESULT_FAIL: return "fail";
    case FL_RESULT_NOTE: return "note";
    case FL_RESULT_NOT_RUN: return "notrun";
    }
    return "note";
}

static void html_task(FILE *f, const fl_result_task *t, const char *base_dir)
{
    fputs("<section class=\"task\" id=\"task-", f);
    fl_html_url(f, t->name);
    fputs("\">\n<h3>", f);
    fl_html_text(f, t->name);
    if (t->paper) {
        fputs(" <span class=\"ref\">", f);
        fl_html_text(f, t->paper);
        fputs("</span>", f);
    }
    fputs("</h3>\n", f);
    if (t->summary) {
        fputs("<p class=\"claim\"><b>Claim reproduced:</b> ", f);
        fl_html_text(f, t->summary);
        fputs("</p>\n", f);
    }
    fputs("<p class=\"meta\">Parameters: ", f);
    if (t->params_file) {
        fputs("<code>", f);
        fl_html_text(f, t->params_file);
        fputs("</code>, SHA-256 <code>", f);
        fl_html_text(f, t->params_sha256 ? t->params_sha256 : "unknown");
        fputs("</code>", f);
    } else {
        fputs("built into the task (no data file)", f);
    }
    fputs(". Run time ", f);
    html_duration(f, t->seconds);
    fputs(".</p>\n", f);

    long cnt[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < t->nchecks; k++)
        if ((unsigned)t->checks[k].status < 4) cnt[t->checks[k].status]++;
    fprintf(f, "<p class=\"meta\">Checks: %ld passed, %ld failed, %ld notes, %ld not run.</p>\n",
            cnt[0], cnt[1], cnt[2], cnt[3]);

    for (size_t i = 0; i < t->nfigures; i++) {
        const fl_result_figure *g = &t->figures[i];
        fputs("<figure>", f);
        const char *alt = g->caption ? g->caption : g->file;
        if (!is_png(g->file) || fl_html_inline_png(f, base_dir ? base_dir : ".", g->file, alt) != 0) {
            fputs("<p class=\"fail\">figure ", f);
            fl_html_text(f, g->file);
            fputs(" could not be read</p>", f);
        }
        fputs("<figcaption>", f);
        if (g->caption) {
            fputs("Reproduces ", f);
            fl_html_text(f, g->caption);
            fputs(" &mdash; ", f);
        } else {
            fputs("(no paper figure) &mdash; ", f);
        }
        fputs("<a href=\"", f);
        fl_html_url(f, g->file);
        fputs("\">", f);
        fl_html_text(f, g->file);
        fputs("</a></figcaption></figure>\n", f);
    }
    if (t->nfiles > 0) {
        fputs("<p class=\"files\">Data files: ", f);
        for (size_t i = 0; i < t->nfiles; i++) {
            if (i) fputs(", ", f);
            fputs("<a href=\"", f);
            fl_html_url(f, t->files[i].file);
            fputs("\">", f);
            fl_html_text(f, t->files[i].file);
            fputs("</a>", f);
        }
        fputs("</p>\n", f);
    }
    static const char *const cols[] = {"check", "status", "ours", "paper / expected",
                                       "difference", "tolerance", "reference", "detail", NULL};
    fl_html_table_begin(f, "checks", cols);
    for (size_t k = 0; k < t->nchecks; k++) {
        const fl_result_check *c = &t->checks[k];
        fprintf(f, "<tr class=\"%s\"><td>", status_class(c->status, c->discrepancy));
        fl_html_text(f, c->name);
        fputs("</td><td>", f);
        if (c->discrepancy) fputs("DISCREPANCY (", f);
        fputs(fl_result_status_name(c->status), f);
        if (c->discrepancy) fputs(")", f);
        fputs("</td><td>", f);
        html_num(f, c->has_value, c->value);
        fputs("</td><td>", f);
        html_num(f, c->has_expected, c->expected);
        fputs("</td><td>", f);
        html_num(f, c->has_value && c->has_expected, c->value - c->expected);
        fputs("</td><td>", f);
        html_num(f, c->has_tolerance, c->tolerance);
        fputs("</td><td>", f);
        fl_html_text(f, c->reference);
        fputs("</td><td>", f);
        fl_html_text(f, c->detail);
        if (c->discrepancy) {
            fputs("<br><b>Documented discrepancy:</b> ", f);
            fl_html_text(f, c->discrepancy);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</section>\n", f);
}

static void html_paper(FILE *f, const fl_results *r, const char *id, const char *reference,
                       const char *base_dir, int *done)
{
    fputs("<section class=\"paper\" id=\"paper-", f);
    fl_html_url(f, *id ? id : "other");
    fputs("\">\n<h2>", f);
    if (*id) {
        fputs("Paper ", f);
        fl_html_text(f, id);
        if (reference) {
            fputs(": ", f);
            fl_html_text(f, reference);
        }
    } else {
        fputs("Tasks without a paper reference", f);
    }
    fputs("</h2>\n", f);
    for (size_t i = 0; i < r->ntasks; i++) {
        char tid[64];
        paper_id(r->tasks[i]->paper, tid, sizeof tid);
        if (done[i] || strcmp(tid, id) != 0) continue;
        done[i] = 1;
        html_task(f, r->tasks[i], base_dir);
    }
    fputs("</section>\n", f);
}

fl_status fl_results_write_html(const fl_results *r, const char *path, const char *base_dir,
                                fl_error *err)
{
    int *done = calloc(r->ntasks + 1, sizeof *done);
    if (!done) return FL_FAIL(err, FL_ENOMEM, "out of memory writing %s", path);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(done);
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: cannot create: %s", path,
                            strerror(errno));
    }
    long pass, fail, note, not_run;
    fl_results_count(r, &pass, &fail, &note, &not_run);
    fl_html_page_begin(f, "frictionlab reproduction report");
    fputs("<p class=\"meta\">frictionlab ", f);
    fl_html_text(f, r->version ? r->version : "(unknown version)");
    fputs(", commit <code>", f);
    fl_html_text(f, r->commit ? r->commit : "unknown");
    fputs("</code>; started ", f);
    fl_html_text(f, r->started ? r->started : "(unknown)");
    fputs("; run time ", f);
    html_duration(f, r->seconds);
    fputs(".", f);
    if (r->command) {
        fputs(" Command: <code>", f);
        fl_html_text(f, r->command);
        fputs("</code>.", f);
    }
    fprintf(f, "</p>\n<p><b>%ld passed, %ld failed</b>, %ld notes, %ld not run.</p>\n", pass,
            fail, note, not_run);
    /* contents */
    fputs("<nav><ul>\n", f);
    for (size_t i = 0; i < r->ntasks; i++) {
        const fl_result_task *t = r->tasks[i];
        fputs("<li><a href=\"#task-", f);
        fl_html_url(f, t->name);
        fputs("\">", f);
        fl_html_text(f, t->name);
        fputs("</a> ", f);
        fl_html_text(f, t->paper);
        fputs("</li>\n", f);
    }
    fputs("</ul></nav>\n", f);
    /* per paper: the declared papers in order, then any other paper id met
     * in the tasks, then the tasks without one */
    for (size_t p = 0; p < r->npapers; p++)
        html_paper(f, r, r->papers[p].id, r->papers[p].reference, base_dir, done);
    for (size_t i = 0; i < r->ntasks; i++) {
        char tid[64];
        if (done[i] || paper_id(r->tasks[i]->paper, tid, sizeof tid) == 0) continue;
        html_paper(f, r, tid, NULL, base_dir, done);
    }
    for (size_t i = 0; i < r->ntasks; i++)
        if (!done[i]) {
            html_paper(f, r, "", NULL, base_dir, done);
            break;
        }
    fl_html_page_end(f);
    free(done);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: write error", path);
    return FL_OK;
}

/* ---- baseline comparison --------------------------------------------------- */
