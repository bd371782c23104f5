/* fl_check.c — the report context of checks/.  See fl_check.h. */
#include "checks/fl_check.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fl_data.h"

fl_check_ctx fl_check_ctx_default(void)
{
    fl_check_ctx c;
    memset(&c, 0, sizeof c);
    c.out_dir = "out";
    c.systems = 200;
    c.seed = 1;
    c.law = "all";
    return c;
}

static void emit(fl_check_ctx *ctx, fl_check_kind kind, const char *name, const char *fmt,
                 va_list ap)
{
    char detail[2048];
    vsnprintf(detail, sizeof detail, fmt, ap);
    if (ctx->io.line) ctx->io.line(ctx->io.data, kind, name, detail);
}

int fl_check_report(fl_check_ctx *ctx, int ok, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, ok ? FL_CHECK_PASS : FL_CHECK_FAIL, name, fmt, ap);
    va_end(ap);
    if (ok) ctx->passed++;
    else ctx->failed++;
    return ok;
}

void fl_check_note(fl_check_ctx *ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, FL_CHECK_NOTE, name, fmt, ap);
    va_end(ap);
    ctx->noted++;
}

static int value_report(fl_check_ctx *ctx, int ok, fl_check_value_info *info,
                        const char *fmt, va_list ap)
{
    char detail[2048];
    vsnprintf(detail, sizeof detail, fmt, ap);
    info->kind = ok ? FL_CHECK_PASS : FL_CHECK_FAIL;
    info->detail = detail;
    if (ctx->io.value) ctx->io.value(ctx->io.data, info);
    else if (ctx->io.line) ctx->io.line(ctx->io.data, info->kind, info->name, detail);
    if (ok) ctx->passed++;
    else ctx->failed++;
    return ok;
}

int fl_check_value(fl_check_ctx *ctx, int ok, const char *name, double value, double expected,
                   double tol, const char *reference, const char *fmt, ...)
{
    fl_check_value_info info = {FL_CHECK_PASS, 0, name, NULL, value, expected, tol, reference,
                                NULL, NAN, NULL};
    va_list ap;
    va_start(ap, fmt);
    ok = value_report(ctx, ok, &info, fmt, ap);
    va_end(ap);
    return ok;
}

int fl_check_value_noise(fl_check_ctx *ctx, int ok, const char *name, double value,
                         double expected, double tol, double noise_rtol,
                         const char *noise_reason, const char *reference, const char *fmt, ...)
{
    fl_check_value_info info = {FL_CHECK_PASS, 0, name, NULL, value, expected, tol, reference,
                                NULL, noise_rtol, noise_reason};
    va_list ap;
    va_start(ap, fmt);
    ok = value_report(ctx, ok, &info, fmt, ap);
    va_end(ap);
    return ok;
}

void fl_check_discrepancy(fl_check_ctx *ctx, const char *name, double value, double paper_value,
                          const char *reference, const char *reason, const char *fmt, ...)
{
    char detail[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (ctx->io.value) {
        fl_check_value_info info = {FL_CHECK_NOTE, 1,         name,      detail, value,
                                    paper_value,   NAN,       reference, reason ? reason : "",
                                    NAN,           NULL};
        ctx->io.value(ctx->io.data, &info);
    } else if (ctx->io.line) {
        char line[2600];
        snprintf(line, sizeof line, "%s (documented discrepancy: %s)", detail,
                 reason ? reason : "");
        ctx->io.line(ctx->io.data, FL_CHECK_NOTE, name, line);
    }
    ctx->noted++;
}

void fl_check_message(fl_check_ctx *ctx, const char *fmt, ...)
{
    if (!ctx->io.message) return;
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    ctx->io.message(ctx->io.data, text);
}

void fl_check_text(fl_check_ctx *ctx, const char *fmt, ...)
{
    if (!ctx->io.text) return;
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    ctx->io.text(ctx->io.data, text);
}

void fl_check_progress(fl_check_ctx *ctx, const char *label, long done, long total)
{
    if (ctx->io.progress) ctx->io.progress(ctx->io.data, label, done, total);
}

int fl_check_mkdir_p(const char *dir)
{
    char tmp[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof tmp) return -1;
    memcpy(tmp, dir, len + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (stat(tmp, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

int fl_check_out_path(fl_check_ctx *ctx, const char *name, char *buf, size_t len)
{
    if (ctx->io.out_path) return ctx->io.out_path(ctx->io.data, name, buf, len);
    const char *dir = ctx->out_dir ? ctx->out_dir : "out";
    if (fl_check_mkdir_p(dir) != 0) {
        fl_check_message(ctx, "frictionlab: cannot create output directory '%s': %s", dir,
                         strerror(errno));
        return -1;
    }
    int n = snprintf(buf, len, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= len) {
        fl_check_message(ctx, "frictionlab: output path too long: %s/%s", dir, name);
        return -1;
    }
    return 0;
}

int fl_check_plot(fl_check_ctx *ctx, const char *script)
{
    if (!ctx->io.plot) return -1;
    return ctx->io.plot(ctx->io.data, script);
}

int fl_check_data_path(fl_check_ctx *ctx, const char *rel, char *buf, size_t len)
{
    fl_error e;
    fl_error_clear(&e);
    if (fl_data_path(ctx->data_dir, rel, buf, len, &e) != FL_OK) {
        fl_check_message(ctx, "frictionlab: %s", e.message);
        return -1;
    }
    return 0;
}

int fl_check_params_path(fl_check_ctx *ctx, const char *rel, char *buf, size_t len)
{
    if (!ctx->params) return fl_check_data_path(ctx, rel, buf, len);
    int n = snprintf(buf, len, "%s", ctx->params);
    if (n < 0 || (size_t)n >= len) {
        fl_check_message(ctx, "frictionlab: --params path too long");
        return -1;
    }
    struct stat st;
    errno = 0;
    if (stat(buf, &st) != 0 || !S_ISREG(st.st_mode)) {
        fl_check_message(ctx, "frictionlab: %s: %s (--params)", buf,
                         errno ? strerror(errno) : "not a regular file");
        return -1;
    }
    ctx->params_read = 1;
    return 0;
}

int fl_check_user_params(const fl_check_ctx *ctx)
{
    return ctx->params != NULL;
}
