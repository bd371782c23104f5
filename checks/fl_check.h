/* fl_check.h — how a check reports: the report context of checks/.
 *
 * The checks of checks/ (invariants of the papers' laws, independent
 * oracles, the papers' examples) are library code: the command runs them,
 * and so do the tests.  They never print.  A check states each result with
 * fl_check_report(), which counts it and hands one line to the caller's
 * callback; the command (cli/) prints it as
 *   PASS <name> <detail>      or      FAIL <name> <detail>
 * fl_check_note() states what was not checked and why (printed as
 * `NOTE <name> <detail>`, counted neither as passed nor as failed).
 * Progress, diagnostics and plots go through callbacks too, so that a
 * caller without them (a test) gets silence.
 *
 * Ownership: the context does not own any pointer it holds.
 */
#ifndef FL_CHECK_H
#define FL_CHECK_H

#include <stddef.h>

typedef enum fl_check_kind {
    FL_CHECK_FAIL = 0,
    FL_CHECK_PASS = 1,
    FL_CHECK_NOTE = 2        /* not run (and why): neither passed nor failed */
} fl_check_kind;

/* What the caller supplies; every member may be NULL. */
/* The numbers of one check (fl_check_value) or of one documented
 * discrepancy (fl_check_discrepancy); NAN where there is none. */
typedef struct fl_check_value_info {
    fl_check_kind kind;      /* PASS/FAIL for a check, NOTE for a discrepancy */
    int discrepancy;         /* 1: a documented discrepancy (never a PASS) */
    const char *name;
    const char *detail;      /* already formatted */
    double value;            /* what we computed */
    double expected;         /* the paper's or closed form's value */
    double tol;              /* the tolerance of the check (NAN: none) */
    const char *reference;   /* paper equation, table row, proofs/ row; may be NULL */
    const char *reason;      /* a discrepancy's reason; NULL for a check */
    /* the check's run-to-run noise tolerance (fl_check_value_noise): relative,
     * with its reason; noise_reason NULL when the check declares none */
    double noise_rtol;
    const char *noise_reason;
} fl_check_value_info;

typedef struct fl_check_io {
    void *data;              /* passed to every callback */
    /* one result line: kind, name, detail (already formatted) */
    void (*line)(void *data, fl_check_kind kind, const char *name, const char *detail);
    /* a result with its numbers (fl_check_value, fl_check_discrepancy).
     * Without it the result goes to `line` as fl_check_report /
     * fl_check_note would send it. */
    void (*value)(void *data, const fl_check_value_info *info);
    /* progress counter (done == total ends it) */
    void (*progress)(void *data, const char *label, long done, long total);
    /* a diagnostic for a person (the command prints it on stderr) */
    void (*message)(void *data, const char *text);
    /* an informative table or summary (the command prints it on stdout) */
    void (*text)(void *data, const char *text);
    /* draw a plot: script is a complete gnuplot program; returns 0 on
     * success.  Without it fl_check_plot returns -1 (no plot). */
    int (*plot)(void *data, const char *script);
    /* where an output file `name` goes (the command groups files by paper
     * and example and records them in its results); returns 0 or -1.
     * Without it fl_check_out_path uses out_dir/name. */
    int (*out_path)(void *data, const char *name, char *buf, size_t len);
} fl_check_io;

typedef struct fl_check_ctx {
    const char *out_dir;     /* where CSV/PNG/VTK files go (created on demand); NULL: "out" */
    const char *data_dir;    /* data/ override (--data), NULL: fl_data_dir's rules */
    const char *params;      /* reproduce NAME --params FILE: the user's parameters, or NULL */
    int quick;               /* reproduce --quick: the fast variant */
    long systems;            /* crosscheck --systems N (random systems per check) */
    unsigned long seed;      /* crosscheck --seed S */
    const char *law;         /* crosscheck --law */
    long passed, failed, noted;
    int params_read;         /* set when a task read ctx->params (fl_check_params_path) */
    fl_check_io io;
} fl_check_ctx;

/* A context with no callbacks, out_dir "out", systems 200, seed 1. */
fl_check_ctx fl_check_ctx_default(void);

/* Count one result and hand its line to io.line.  Returns ok. */
int fl_check_report(fl_check_ctx *ctx, int ok, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Something that was not checked, and why (counted in ctx->noted only). */
void fl_check_note(fl_check_ctx *ctx, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A check with a number: value, the expected value (paper, closed form)
 * and the tolerance the check used (NAN when none), and the reference it is
 * checked against (may be NULL).  ok is decided by the caller, as for
 * fl_check_report, which it otherwise behaves like (counts, io.line when
 * io.value is NULL).  Returns ok. */
int fl_check_value(fl_check_ctx *ctx, int ok, const char *name, double value, double expected,
                   double tol, const char *reference, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;

/* fl_check_value for a number that is not reproducible to the last digits
 * from run to run (an iterative or random computation whose result depends
 * on thread scheduling or timing): noise_rtol is the relative tolerance a
 * baseline comparison (`reproduce --baseline`) holds its numbers to instead
 * of the default 1e-9, and noise_reason says why (required).  Not the
 * paper's tolerance `tol`. */
int fl_check_value_noise(fl_check_ctx *ctx, int ok, const char *name, double value,
                         double expected, double tol, double noise_rtol,
                         const char *noise_reason, const char *reference, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 10, 11)))
#endif
    ;

/* A documented discrepancy with the paper: our value, the paper's value
 * (NAN if none), the reference and the reason.  Never a PASS: counted in
 * ctx->noted like fl_check_note (which it behaves like without io.value,
 * the reason appended to the detail). */
void fl_check_discrepancy(fl_check_ctx *ctx, const char *name, double value, double paper_value,
                          const char *reference, const char *reason, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* A diagnostic for a person (io.message), printf-style. */
void fl_check_message(fl_check_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* An informative text (io.text), printf-style, printed as given. */
void fl_check_text(fl_check_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Progress counter (io.progress). */
void fl_check_progress(fl_check_ctx *ctx, const char *label, long done, long total);

/* buf = <out_dir>/<name>, creating out_dir (and its parents).  Returns 0,
 * or -1 after a message saying why. */
int fl_check_out_path(fl_check_ctx *ctx, const char *name, char *buf, size_t len);

/* Create directory `dir` and its missing parents (mkdir -p).  0, or -1 with
 * errno set (ENOTDIR when a component exists and is not a directory). */
int fl_check_mkdir_p(const char *dir);

/* Draw a plot through io.plot; -1 when there is no plotter or it failed. */
int fl_check_plot(fl_check_ctx *ctx, const char *script);

/* buf = the path of data file rel ("001/painleve_p5.json") by fl_data_path
 * with ctx->data_dir.  Returns 0, or -1 after a message naming the file
 * (a missing file is an error: there is no built-in fallback). */
int fl_check_data_path(fl_check_ctx *ctx, const char *rel, char *buf, size_t len);

/* The parameter file of an example: ctx->params (the user's file, same
 * schema) when set, else the data file rel as fl_check_data_path.  Returns
 * 0, or -1 after a message naming the file. */
int fl_check_params_path(fl_check_ctx *ctx, const char *rel, char *buf, size_t len);

/* 1 when the example runs on the user's parameters (--params): the checks
 * tied to the paper's printed numbers are then not run; each says so with
 * fl_check_note (not counted as passed). */
int fl_check_user_params(const fl_check_ctx *ctx);

#endif
