/* cli.h — the frictionlab command's check framework (README.md, The command).
 *
 * `reproduce` and `crosscheck` run registered tasks.  A task reports each
 * check with fl_cli_check(), which prints exactly one line on stdout:
 *   PASS <name> <detail>      or      FAIL <name> <detail>
 * The driver ends with the plain line "N passed, M failed" and exits 0 only
 * if M == 0.  Progress goes to stderr through fl_cli_progress() (a counter
 * with the rate), never to stdout.  Figures go to ctx->out_dir: CSV always,
 * PNG through gnuplot where a person would rather look than read.
 */
#ifndef FL_CLI_H
#define FL_CLI_H

#include <stdio.h>

typedef struct fl_cli_ctx {
    const char *out_dir;    /* where CSV/PNG/VTK files go (created on demand) */
    int quick;              /* reproduce --quick: the fast variant */
    long systems;           /* crosscheck --systems N (random systems per check) */
    unsigned long seed;     /* crosscheck --seed S */
    const char *law;        /* crosscheck --law */
    const char *solver_cmd; /* crosscheck --solver-cmd CMD (cli/solve.c), NULL if absent */
    long passed, failed;    /* counts of checks so far */
    int progress;           /* print progress on stderr */
    double progress_t0;     /* internal: start time of the current counter */
    double progress_last;   /* internal: last time a progress line was drawn */
} fl_cli_ctx;

/* Print one PASS/FAIL line and count it.  Returns ok. */
int fl_cli_check(fl_cli_ctx *ctx, int ok, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Progress counter on stderr ("label: done/total (rate/s)"), redrawn at most
 * every 0.2 s; done == total ends the line. */
void fl_cli_progress(fl_cli_ctx *ctx, const char *label, long done, long total);

/* Full path of a file in the output directory, creating the directory.
 * Returns 0 on success, -1 (after printing why on stderr) otherwise. */
int fl_cli_out_path(fl_cli_ctx *ctx, const char *name, char *buf, size_t len);

/* Run gnuplot on `script` (a complete gnuplot program).  Returns 0 on
 * success; -1 if gnuplot is missing or fails (message on stderr). */
int fl_cli_gnuplot(const char *script);

/* Wall-clock seconds (monotonic). */
double fl_cli_now(void);

/* A registered task: `run` reports its checks through ctx and returns 0,
 * or -1 if it could not run at all (that counts as one failed check). */
typedef struct fl_cli_task {
    const char *name;
    const char *summary;
    int (*run)(fl_cli_ctx *ctx);
} fl_cli_task;

/* Registries (cli/registry.c), each terminated by a {NULL} entry. */
extern const fl_cli_task fl_reproduce_tasks[];
extern const fl_cli_task fl_crosscheck_tasks[];
extern const fl_cli_task fl_bench_tasks[];

#endif
