/* framework.c — PASS/FAIL lines, progress, output files and plots for the
 * frictionlab command (README.md, The command). */
#include "cli.h"
#include "check_run.h"
#include "fl_data.h"
#include "fl_clock.h"
#include "checks/fl_check.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Format a detail text into a new string (NULL when out of memory). */
static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (s) vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* A redrawn progress line is on the terminal: clear it before a line of
 * output, so the two do not share a line. */
static void progress_clear(fl_cli_ctx *ctx)
{
    if (!ctx->progress_open) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    ctx->progress_open = 0;
}

/* Print "<WORD> <name> <detail>[ suffix]" and record it under the current task. */
static void emit(fl_cli_ctx *ctx, fl_result_status st, const char *name, const char *detail,
                 const fl_result_check *numbers, const char *suffix)
{
    progress_clear(ctx);
    printf("%s %s %s%s\n", fl_result_status_name(st), name, detail ? detail : "(out of memory)",
           suffix ? suffix : "");
    fflush(stdout);
    if (!ctx->task) return;
    fl_result_check c = numbers ? *numbers : fl_result_check_default();
    c.name = (char *)name;
    c.status = st;
    c.detail = (char *)detail;
    fl_status s = fl_result_task_check_add(ctx->task, &c);
    if (s == FL_EINVAL) {   /* a noise tolerance without its reason, or not in [0, 1) */
        fprintf(stderr, "frictionlab: check %s declares a noise tolerance %g without a reason "
                "or outside [0, 1); recorded without it (1e-9 relative)\n", name, c.noise_rtol);
        c.has_noise_rtol = 0;
        c.noise_reason = NULL;
        s = fl_result_task_check_add(ctx->task, &c);
    }
    if (s != FL_OK)
        fprintf(stderr, "frictionlab: out of memory recording check %s\n", name);
}

static void count(fl_cli_ctx *ctx, fl_result_status st)
{
    switch (st) {
    case FL_RESULT_PASS: ctx->passed++; break;
    case FL_RESULT_FAIL: ctx->failed++; break;
    case FL_RESULT_NOTE: ctx->notes++; break;
    case FL_RESULT_NOT_RUN: ctx->not_run++; break;
    }
}

int fl_cli_check(fl_cli_ctx *ctx, int ok, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    fl_result_status st = ok ? FL_RESULT_PASS : FL_RESULT_FAIL;
    emit(ctx, st, name, detail, NULL, NULL);
    free(detail);
    count(ctx, st);
    return ok;
}

/* Numbers of a check: NAN means "none". */
static fl_result_check numbers(double value, double expected, double tol, const char *reference)
{
    fl_result_check c = fl_result_check_default();
    c.has_value = 1;
    c.value = value;
    c.has_expected = !isnan(expected);
    c.expected = expected;
    c.has_tolerance = !isnan(tol);
    c.tolerance = tol;
    c.reference = (char *)reference;
    return c;
}

int fl_cli_check_value(fl_cli_ctx *ctx, int ok, const char *name, double value,
                       double expected, double tol, const char *reference,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    fl_result_status st = ok ? FL_RESULT_PASS : FL_RESULT_FAIL;
    fl_result_check c = numbers(value, expected, tol, reference);
    emit(ctx, st, name, detail, &c, NULL);
    free(detail);
    count(ctx, st);
    return ok;
}

int fl_cli_check_value_noise(fl_cli_ctx *ctx, int ok, const char *name, double value,
                             double expected, double tol, double noise_rtol,
                             const char *noise_reason, const char *reference,
                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    fl_result_status st = ok ? FL_RESULT_PASS : FL_RESULT_FAIL;
    fl_result_check c = numbers(value, expected, tol, reference);
    c.has_noise_rtol = 1;
    c.noise_rtol = noise_rtol;
    c.noise_reason = (char *)noise_reason;
    emit(ctx, st, name, detail, &c, NULL);
    free(detail);
    count(ctx, st);
    return ok;
}

void fl_cli_note(fl_cli_ctx *ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    emit(ctx, FL_RESULT_NOTE, name, detail, NULL, NULL);
    free(detail);
    count(ctx, FL_RESULT_NOTE);
}

void fl_cli_not_run(fl_cli_ctx *ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    emit(ctx, FL_RESULT_NOT_RUN, name, detail, NULL, NULL);
    free(detail);
    count(ctx, FL_RESULT_NOT_RUN);
}

void fl_cli_discrepancy(fl_cli_ctx *ctx, const char *name, double value, double paper_value,
                        const char *reference, const char *reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = vformat(fmt, ap);
    va_end(ap);
    fl_result_check c = numbers(value, paper_value, NAN, reference);
    c.discrepancy = (char *)reason;
    char *suffix = NULL;
    size_t n = strlen(reason) + 40;
    if ((suffix = malloc(n))) snprintf(suffix, n, " (documented discrepancy: %s)", reason);
    emit(ctx, FL_RESULT_NOTE, name, detail, &c, suffix);
    free(suffix);
    free(detail);
    count(ctx, FL_RESULT_NOTE);
}

void fl_cli_task_paper(fl_cli_ctx *ctx, const char *paper)
{
    if (ctx->task && fl_result_task_set_paper(ctx->task, paper) != FL_OK)
        fprintf(stderr, "frictionlab: out of memory recording the paper of %s\n", ctx->task->name);
}

/* The name of a file of the current task as the results record it. */
static void task_file(const fl_cli_ctx *ctx, const char *file, char *buf, size_t len)
{
    if (ctx->task_dir[0]) snprintf(buf, len, "%s/%s", ctx->task_dir, file);
    else snprintf(buf, len, "%s", file);
}

void fl_cli_figure(fl_cli_ctx *ctx, const char *file, const char *caption)
{
    if (!ctx->task) return;
    char rel[1024];
    task_file(ctx, file, rel, sizeof rel);
    if (fl_result_task_figure_add(ctx->task, rel, caption) != FL_OK)
        fprintf(stderr, "frictionlab: out of memory recording figure %s\n", file);
}

/* Find a parameter file named relative to the source tree ("data/004/x.json"):
 * a data/ file where the checks read it (core/fl_data.h: --data, FL_DATA_DIR,
 * the source tree from the build tree, the installed data/ otherwise), then
 * under FL_SOURCE_ROOT, then ".".  (The installed command used to look only
 * under FL_DATA_DIR, FL_SOURCE_ROOT and ".", so run from elsewhere it
 * recorded no hash of the parameter files it had read.) */
static int find_params(const char *rel, char *buf, size_t len)
{
    const char *src = getenv("FL_SOURCE_ROOT");
    struct stat st;
    if (strncmp(rel, "data/", 5) == 0 &&
        fl_data_path(fl_cli_data_dir(), rel + 5, buf, len, NULL) == FL_OK)
        return 0;
    if (src && *src) {
        snprintf(buf, len, "%s/%s", src, rel);
        if (stat(buf, &st) == 0) return 0;
    }
    snprintf(buf, len, "%s", rel);
    return stat(buf, &st) == 0 ? 0 : -1;
}

void fl_cli_task_begin(fl_cli_ctx *ctx, const char *name, const char *summary,
                       const fl_cli_task_info *info)
{
    ctx->task = NULL;
    ctx->info = info;
    ctx->task_dir[0] = '\0';
    if (!ctx->results) return;
    const char *paper = info ? info->paper : NULL;
    if (fl_results_task_add(ctx->results, name, summary, paper, &ctx->task) != FL_OK) {
        fprintf(stderr, "frictionlab: out of memory recording task %s\n", name);
        ctx->task = NULL;
        return;
    }
    if (paper) {
        /* out/<paper id>/<task>/: the paper id is the first word of the reference */
        size_t n = strcspn(paper, " ");
        snprintf(ctx->task_dir, sizeof ctx->task_dir, "%.*s/%s", (int)n, paper, name);
    }
    if (info && info->params && fl_cli_params()) {
        /* --params FILE: the task reads the user's file; its hash is recorded,
         * so a baseline comparison names the difference */
        fl_error err;
        if (fl_result_task_set_params(ctx->task, fl_cli_params(), fl_cli_params(), &err) != FL_OK)
            fprintf(stderr, "frictionlab: %s: cannot read parameter file %s to record its hash\n",
                    name, fl_cli_params());
    } else if (info && info->params) {
        char path[4096];
        fl_error err;
        if (find_params(info->params, path, sizeof path) != 0 ||
            fl_result_task_set_params(ctx->task, info->params, path, &err) != FL_OK)
            fprintf(stderr, "frictionlab: %s: cannot read parameter file %s to record its hash\n",
                    name, info->params);
    }
}

void fl_cli_task_end(fl_cli_ctx *ctx, double seconds)
{
    if (ctx->task) {
        ctx->task->seconds = seconds;
        fl_result_task_drop_missing(ctx->task, ctx->out_dir ? ctx->out_dir : "out");
    }
    ctx->task = NULL;
    ctx->info = NULL;
    ctx->task_dir[0] = '\0';
}

void fl_cli_duration(double seconds, char *buf, size_t len)
{
    if (!(seconds >= 0.0)) seconds = 0.0;
    long s = (long)(seconds + 0.5);
    if (seconds < 10.0) snprintf(buf, len, "%.1f s", seconds);
    else if (s < 60) snprintf(buf, len, "%ld s", s);
    else if (s < 3600) snprintf(buf, len, "%ld min %02ld s", s / 60, s % 60);
    else snprintf(buf, len, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
}

void fl_cli_progress(fl_cli_ctx *ctx, const char *label, long done, long total)
{
    if (!ctx->progress) return;
    double t = fl_clock_now();
    if (ctx->progress_t0 == 0.0 || done < ctx->progress_done0) {
        ctx->progress_t0 = t;
        ctx->progress_done0 = done;
        ctx->progress_last = 0.0;
    }
    int last = done >= total;
    double every = ctx->progress_tty ? 0.2 : 10.0;
    if (!last && ctx->progress_last != 0.0 && t - ctx->progress_last < every) return;
    ctx->progress_last = t;
    double dt = t - ctx->progress_t0;
    long items = done - ctx->progress_done0;
    char line[512];
    int n = snprintf(line, sizeof line, "%s: %ld/%ld", label, done, total);
    if (total > 0 && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, " (%.0f%%)", 100.0 * (double)done / (double)total);
    /* a rate only when it means something: 2 s and 2 items measured */
    if (dt >= 2.0 && items >= 2 && n > 0 && (size_t)n < sizeof line) {
        double rate = (double)items / dt;
        if (rate >= 10.0) n += snprintf(line + n, sizeof line - (size_t)n, ", %.0f/s", rate);
        else if (rate >= 1.0) n += snprintf(line + n, sizeof line - (size_t)n, ", %.1f/s", rate);
        else n += snprintf(line + n, sizeof line - (size_t)n, ", %.1f s each", 1.0 / rate);
        if (!last && n > 0 && (size_t)n < sizeof line) {
            char eta[32];
            fl_cli_duration((double)(total - done) / rate, eta, sizeof eta);
            n += snprintf(line + n, sizeof line - (size_t)n, ", ETA %s", eta);
        } else if (last && n > 0 && (size_t)n < sizeof line) {
            char took[32];
            fl_cli_duration(dt, took, sizeof took);
            n += snprintf(line + n, sizeof line - (size_t)n, ", %s", took);
        }
    }
    if (ctx->progress_tty) {
        fprintf(stderr, "\r%s\033[K%s", line, last ? "\n" : "");
        ctx->progress_open = !last;
    } else {
        fprintf(stderr, "%s\n", line);
    }
    fflush(stderr);
    if (last) ctx->progress_t0 = 0.0;
}

static int is_png(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".png") == 0;
}

/* The caption the task's info gives `file`, or NULL. */
static const char *info_caption(const fl_cli_task_info *info, const char *file)
{
    if (!info) return NULL;
    for (size_t i = 0; i < sizeof info->figures / sizeof *info->figures && info->figures[i].file; i++)
        if (strcmp(info->figures[i].file, file) == 0) return info->figures[i].caption;
    return NULL;
}

int fl_cli_out_path(fl_cli_ctx *ctx, const char *name, char *buf, size_t len)
{
    const char *base = ctx->out_dir ? ctx->out_dir : "out";
    char dir[4096];
    int n = ctx->task_dir[0] ? snprintf(dir, sizeof dir, "%s/%s", base, ctx->task_dir)
                             : snprintf(dir, sizeof dir, "%s", base);
    if (n < 0 || (size_t)n >= sizeof dir || fl_check_mkdir_p(dir) != 0) {
        fprintf(stderr, "frictionlab: cannot create output directory '%s': %s\n", dir,
                strerror(errno));
        return -1;
    }
    n = snprintf(buf, len, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= len) {
        fprintf(stderr, "frictionlab: output path too long: %s/%s\n", dir, name);
        return -1;
    }
    if (ctx->task) {
        char rel[1024];
        task_file(ctx, name, rel, sizeof rel);
        fl_status s = is_png(name) ? fl_result_task_figure_add(ctx->task, rel, info_caption(ctx->info, name))
                                   : fl_result_task_file_add(ctx->task, rel);
        if (s != FL_OK) fprintf(stderr, "frictionlab: out of memory recording %s\n", rel);
    }
    return 0;
}

int fl_cli_gnuplot(const char *script)
{
    FILE *p = popen("gnuplot 2>&1", "w");
    if (!p) {
        fprintf(stderr, "frictionlab: cannot start gnuplot\n");
        return -1;
    }
    fputs(script, p);
    int rc = pclose(p);
    if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
        fprintf(stderr, "frictionlab: gnuplot failed (is gnuplot-nox installed?)\n");
        return -1;
    }
    return 0;
}

void fl_cli_self_path(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) snprintf(buf, len, "frictionlab");
    else buf[n] = '\0';
}

void fl_cli_ours_command(const char *solver, char *buf, size_t len)
{
    char self[4096];
    fl_cli_self_path(self, sizeof self);
    snprintf(buf, len, "'%s' solve {in} --solver %s --tol {tol} --out {out}", self, solver);
}
