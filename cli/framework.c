/* framework.c — PASS/FAIL lines, progress, output files and plots for the
 * frictionlab command (README.md, The command). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

double fl_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int fl_cli_check(fl_cli_ctx *ctx, int ok, const char *name, const char *fmt, ...)
{
    va_list ap;
    printf("%s %s ", ok ? "PASS" : "FAIL", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    if (ok) ctx->passed++;
    else ctx->failed++;
    return ok;
}

void fl_cli_progress(fl_cli_ctx *ctx, const char *label, long done, long total)
{
    if (!ctx->progress) return;
    double t = fl_cli_now();
    if (done <= 1 || ctx->progress_t0 == 0.0) {
        ctx->progress_t0 = t;
        ctx->progress_last = 0.0;
    }
    if (done < total && t - ctx->progress_last < 0.2) return;
    ctx->progress_last = t;
    double dt = t - ctx->progress_t0;
    fprintf(stderr, "\r%s: %ld/%ld (%.0f/s)%s", label, done, total,
            dt > 0 ? (double)done / dt : 0.0, done >= total ? "\n" : "");
    fflush(stderr);
    if (done >= total) ctx->progress_t0 = 0.0;
}

static int mkdir_p(const char *dir)
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

int fl_cli_out_path(fl_cli_ctx *ctx, const char *name, char *buf, size_t len)
{
    const char *dir = ctx->out_dir ? ctx->out_dir : "out";
    if (mkdir_p(dir) != 0) {
        fprintf(stderr, "frictionlab: cannot create output directory '%s': %s\n", dir,
                strerror(errno));
        return -1;
    }
    int n = snprintf(buf, len, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= len) {
        fprintf(stderr, "frictionlab: output path too long: %s/%s\n", dir, name);
        return -1;
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
