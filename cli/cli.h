/* cli.h — the frictionlab command's check framework (README.md, The command).
 *
 * `reproduce` and `crosscheck` run registered tasks.  A task reports each
 * check with fl_cli_check() (free text) or fl_cli_check_value() (a number,
 * its expected value and tolerance), which print exactly one line on stdout:
 *   PASS <name> <detail>      or      FAIL <name> <detail>
 * fl_cli_note() prints "NOTE <name> <detail>" and fl_cli_not_run() prints
 * "NOT RUN <name> <detail>"; neither is counted as passed or failed.
 * The driver ends with the plain line "N passed, M failed" and exits 0 only
 * if M == 0.  Progress goes to stderr through fl_cli_progress() (done/total,
 * rate and ETA), never to stdout.  Figures go to ctx->out_dir: CSV always,
 * PNG through gnuplot where a person would rather look than read.
 *
 * When ctx->results is set (every `reproduce` run), each check, note and
 * output file is also recorded in the results model (report/fl_results.h)
 * under the current task, and the files of a task with a paper reference go
 * to out_dir/<paper>/<task>/ (e.g. out/004/polyurethane/).
 */
#ifndef FL_CLI_H
#define FL_CLI_H

#include <stdio.h>

#include "fl_results.h"

/* Metadata of a reproduce task for the report (cli/registry.c): the paper
 * reference, the parameter file (relative to the source tree) and the paper
 * figure each PNG reproduces.  Arrays end with a {NULL} entry. */
typedef struct fl_cli_caption {
    const char *file;     /* as the task names it to fl_cli_out_path */
    const char *caption;  /* e.g. "004 Fig. 18" */
} fl_cli_caption;

typedef struct fl_cli_task_info {
    const char *name;
    const char *paper;    /* e.g. "004 §3.5 Example 3.15" */
    const char *params;   /* e.g. "data/004/example_3_15.json", or NULL */
    fl_cli_caption figures[8];
} fl_cli_task_info;

typedef struct fl_cli_ctx {
    const char *out_dir;    /* where CSV/PNG/VTK files go (created on demand) */
    int quick;              /* reproduce --quick: the fast variant */
    long systems;           /* crosscheck --systems N (random systems per check) */
    unsigned long seed;     /* crosscheck --seed S */
    const char *law;        /* crosscheck --law */
    const char *solver_cmd; /* crosscheck --solver-cmd CMD (cli/xval_cmd.c), NULL if absent */
    const char *family;     /* crosscheck --family F,G|all (with --solver-cmd), NULL: random */
    double timeout;         /* crosscheck --timeout S per problem (with --solver-cmd), 0: 60 s */
    int full;               /* crosscheck --full: full problem sizes (with --solver-cmd) */
    int systems_set;        /* 1 if --systems was given */
    const char *corpus_dir; /* crosscheck --corpus DIR (with --solver-cmd), NULL: default */
    long passed, failed;    /* counts of checks so far */
    int progress;           /* print progress on stderr */
    double progress_t0;     /* internal: start time of the current counter */
    double progress_last;   /* internal: last time a progress line was drawn */
    int progress_tty;       /* stderr is a terminal: redraw one line with \r */
    int progress_open;      /* internal: a redrawn line is on the terminal */
    long progress_done0;    /* internal: done at the start of the counter */
    long notes, not_run;    /* NOTE and NOT RUN lines so far (not counted) */
    fl_results *results;    /* the run's results, or NULL: nothing recorded */
    fl_result_task *task;   /* the task being run, or NULL */
    const fl_cli_task_info *info; /* its metadata, or NULL */
    char task_dir[128];     /* subdirectory of out_dir for its files, "" = flat */
} fl_cli_ctx;

/* Print one PASS/FAIL line and count it.  Returns ok. */
int fl_cli_check(fl_cli_ctx *ctx, int ok, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* A check with a number: value, the expected value and the tolerance (NAN
 * when the check has none), and the reference it is checked against (paper
 * equation, table row, proofs/ row; may be NULL).  Prints the same line as
 * fl_cli_check and records the numbers.  Returns ok. */
int fl_cli_check_value(fl_cli_ctx *ctx, int ok, const char *name, double value,
                       double expected, double tol, const char *reference,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;

/* fl_cli_check_value with the check's run-to-run noise tolerance (relative)
 * and its reason, recorded for `reproduce --baseline` (checks/fl_check.h,
 * fl_check_value_noise). */
int fl_cli_check_value_noise(fl_cli_ctx *ctx, int ok, const char *name, double value,
                             double expected, double tol, double noise_rtol,
                             const char *noise_reason, const char *reference,
                             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 10, 11)))
#endif
    ;

/* "NOTE <name> <detail>": information, counted neither passed nor failed. */
void fl_cli_note(fl_cli_ctx *ctx, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "NOT RUN <name> <detail>": a check this run did not evaluate (e.g. under
 * --quick); counted neither passed nor failed, recorded as NOT RUN. */
void fl_cli_not_run(fl_cli_ctx *ctx, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A documented discrepancy with the paper: "NOTE <name> <detail>
 * (documented discrepancy: <reason>)", recorded with its value, the paper's
 * value (NAN if none) and the reason; never a PASS. */
void fl_cli_discrepancy(fl_cli_ctx *ctx, const char *name, double value, double paper_value,
                        const char *reference, const char *reason, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* Report metadata of the current task (no-ops when nothing is recorded):
 * its paper reference, and the paper figure a file it wrote reproduces
 * (`file` as given to fl_cli_out_path). */
void fl_cli_task_paper(fl_cli_ctx *ctx, const char *paper);
void fl_cli_figure(fl_cli_ctx *ctx, const char *file, const char *caption);

/* Start and end a task in the results (called by the driver, cli/main.c):
 * records the paper, hashes the parameter file, sets the task directory. */
void fl_cli_task_begin(fl_cli_ctx *ctx, const char *name, const char *summary,
                       const fl_cli_task_info *info);
void fl_cli_task_end(fl_cli_ctx *ctx, double seconds);

/* Progress on stderr: "label: done/total (p%), rate/s, ETA t".  The rate and
 * the ETA appear only once 2 s and 2 items have passed (never "(0/s)").  On a
 * terminal the line is redrawn in place at most every 0.2 s; otherwise a
 * plain line is printed at most every 10 s.  done == total ends the counter. */
void fl_cli_progress(fl_cli_ctx *ctx, const char *label, long done, long total);

/* "12 s", "3 min 05 s", "1 h 02 min" into buf. */
void fl_cli_duration(double seconds, char *buf, size_t len);

/* Full path of a file in the output directory (in out_dir/task_dir/ while a
 * task with a paper runs), creating the directory, and recorded in the
 * results: a .png as a figure (captioned from the task's info), any other
 * file as a data file.  Returns 0 on success, -1 (after printing why on
 * stderr) otherwise. */
int fl_cli_out_path(fl_cli_ctx *ctx, const char *name, char *buf, size_t len);

/* The path of this executable (/proc/self/exe; "frictionlab" if unknown). */
void fl_cli_self_path(char *buf, size_t len);

/* The command template that runs our solver `solver` (gs, newton, auto) as a
 * process on an FCLIB file, the protocol of outside solvers ({in}, {out},
 * {tol}: checks/suite.h): this executable's `solve {in} --solver S --tol
 * {tol} --out {out}`.  bench suite's ours:S and crosscheck's process time
 * of ours. */
void fl_cli_ours_command(const char *solver, char *buf, size_t len);

/* Run gnuplot on `script` (a complete gnuplot program).  Returns 0 on
 * success; -1 if gnuplot is missing or fails (message on stderr). */
int fl_cli_gnuplot(const char *script);

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
/* Report metadata of the reproduce tasks, by name ({NULL} terminated). */
extern const fl_cli_task_info fl_reproduce_info[];
/* The papers: id ("004") and full reference ({NULL} terminated). */
typedef struct fl_cli_paper {
    const char *id;
    const char *reference;
} fl_cli_paper;
extern const fl_cli_paper fl_cli_papers[];

#endif
