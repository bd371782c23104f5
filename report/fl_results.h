/* fl_results.h — the results of a reproduction run, for machines and people.
 *
 * A run (`frictionlab reproduce`) is a list of tasks, one per paper example;
 * a task has the paper reference it reproduces, the parameter file it read
 * (with its SHA-256), the figures it drew (each captioned with the paper
 * figure it reproduces), the other files it wrote, and its checks.  A check
 * has a status (PASS, FAIL, NOTE, NOT RUN), optionally a numeric value, the
 * expected value and the tolerance, the reference it is checked against
 * (paper equation, table row, or proofs/ row), a free detail text and, for a
 * documented discrepancy with the paper, the reason.
 *
 * Writers: results.json (jansson) and report.html (one offline page, PNG
 * figures inlined as base64 data URIs, other files linked relatively).
 * Reader: results.json.  Baseline comparison: every check of the current
 * run against the same-named check of a baseline run.
 *
 * Ownership: an fl_results owns every string and array below it; strings
 * passed in are copied.  All strings are UTF-8, NULL when absent.  Library
 * code: never prints, returns fl_status and fills fl_error.
 */
#ifndef FL_RESULTS_H
#define FL_RESULTS_H

#include <stddef.h>

#include "fl_status.h"

/* Identifier of the results.json format (member "format"). */
#define FL_RESULTS_FORMAT "frictionlab-results/1"

typedef enum fl_result_status {
    FL_RESULT_PASS = 0,
    FL_RESULT_FAIL = 1,
    FL_RESULT_NOTE = 2,    /* information or documented discrepancy: not counted */
    FL_RESULT_NOT_RUN = 3  /* the check exists but was not evaluated in this run */
} fl_result_status;

/* "PASS", "FAIL", "NOTE", "NOT RUN". */
const char *fl_result_status_name(fl_result_status s);
/* Inverse of fl_result_status_name; FL_ENOTFOUND for anything else. */
fl_status fl_result_status_parse(const char *name, fl_result_status *out);

typedef struct fl_result_check {
    char *name;
    fl_result_status status;
    int has_value, has_expected, has_tolerance;
    double value, expected, tolerance;  /* meaningful when has_* is set */
    char *reference;    /* paper equation / table row / proofs/ row, or NULL */
    char *detail;       /* the free text of the PASS/FAIL line, or NULL */
    char *discrepancy;  /* reason of a documented discrepancy with the paper, or NULL */
    /* Reproducibility: a baseline comparison (fl_results_compare) holds every
     * number of the check (value, expected, tolerance) to 1e-9 relative,
     * unless the check declares a run-to-run noise tolerance here, with its
     * reason (an iterative or random computation whose last digits move
     * between runs).  Separate from `tolerance`, the paper's. */
    int has_noise_rtol;
    double noise_rtol;  /* relative: |a - b| <= noise_rtol * max(|a|, |b|) */
    char *noise_reason; /* why the check's numbers are noisy (required with noise_rtol) */
} fl_result_check;

/* A check to add: the same fields, borrowed (copied by fl_results_check_add).
 * fl_result_check_default() gives status PASS and no numbers or strings. */
fl_result_check fl_result_check_default(void);

typedef struct fl_result_figure {
    char *file;      /* relative to the directory of results.json */
    char *caption;   /* the paper figure or table it reproduces, or NULL */
} fl_result_figure;

typedef struct fl_result_task {
    char *name;
    char *summary;      /* the claim, in one line */
    char *paper;        /* e.g. "004 §3.5 Example 3.15", or NULL */
    char *params_file;  /* the parameter file read, or NULL */
    char *params_sha256;/* its SHA-256 in hex, or NULL */
    double seconds;     /* wall-clock time of the task */
    fl_result_figure *figures;  /* PNG figures */
    size_t nfigures;
    fl_result_figure *files;    /* every other file written (CSV, VTK) */
    size_t nfiles;
    fl_result_check *checks;
    size_t nchecks;
    size_t cap_figures, cap_files, cap_checks; /* internal */
} fl_result_task;

typedef struct fl_result_paper {
    char *id;         /* "004" */
    char *reference;  /* full bibliographic reference */
} fl_result_paper;

typedef struct fl_results {
    char *version;
    char *commit;
    char *started;    /* UTC, ISO 8601 ("2026-11-25T12:00:00Z") */
    char *command;    /* the command line, for the reader */
    double seconds;   /* wall-clock time of the run */
    int quick;        /* 1: a --quick run, 0: full, -1: not recorded (older results.json) */
    fl_result_paper *papers;
    size_t npapers;
    fl_result_task **tasks;   /* each task allocated once: pointers stay valid */
    size_t ntasks;
    size_t cap_papers, cap_tasks; /* internal */
} fl_results;

/* A new, empty run (version, commit may be NULL; quick -1).  NULL when out
 * of memory. */
fl_results *fl_results_alloc(const char *version, const char *commit);
void fl_results_free(fl_results *r);

/* Set a string member of the run (copied; NULL clears it). */
fl_status fl_results_set_started(fl_results *r, const char *iso8601);
fl_status fl_results_set_command(fl_results *r, const char *command);

/* Declare a paper (id and full reference) for the report's headings. */
fl_status fl_results_paper_add(fl_results *r, const char *id, const char *reference);

/* Append a task; *task (may be NULL) receives it, owned by r. */
fl_status fl_results_task_add(fl_results *r, const char *name, const char *summary,
                              const char *paper, fl_result_task **task);
/* The task named `name`, or NULL. */
fl_result_task *fl_results_task_find(const fl_results *r, const char *name);

fl_status fl_result_task_set_paper(fl_result_task *t, const char *paper);

/* Record the parameter file: `shown` is the name written in the results
 * (e.g. "data/004/polyurethane.json"), `path` the file read to hash it.
 * FL_EIO (err names the file) when it cannot be read. */
fl_status fl_result_task_set_params(fl_result_task *t, const char *shown, const char *path,
                                    fl_error *err);

/* Add a figure (or, with fl_result_task_file_add, another output file); a
 * file already listed keeps its place and gets the new caption if one is
 * given. */
fl_status fl_result_task_figure_add(fl_result_task *t, const char *file, const char *caption);
fl_status fl_result_task_file_add(fl_result_task *t, const char *file);

/* Drop the figures and files that do not exist under base_dir (a task
 * names a file before writing it; a failed write leaves no file). */
void fl_result_task_drop_missing(fl_result_task *t, const char *base_dir);

/* Append a check (its strings are copied). */
fl_status fl_result_task_check_add(fl_result_task *t, const fl_result_check *c);

/* Counts over the whole run, by status (any pointer may be NULL). */
void fl_results_count(const fl_results *r, long *pass, long *fail, long *note, long *not_run);

/* SHA-256 of a file's bytes as 64 lowercase hex digits (+ NUL). */
fl_status fl_results_sha256_file(const char *path, char hex[65], fl_error *err);

/* results.json.  Non-finite numbers are written as the strings "nan",
 * "inf", "-inf" and read back.  The reader checks the format member and
 * every field's type, and names the file and field on error (FL_EPARSE). */
fl_status fl_results_write_json(const fl_results *r, const char *path, fl_error *err);
fl_status fl_results_read_json(const char *path, fl_results **out, fl_error *err);

/* report.html in `path`.  Figure and file names are relative to `base_dir`
 * (the directory of the report): PNG figures are read from there and
 * inlined as data URIs; other files are linked relatively.  A figure that
 * cannot be read is reported on the page (not inlined), not as an error. */
fl_status fl_results_write_html(const fl_results *r, const char *path, const char *base_dir,
                                fl_error *err);

/* Baseline comparison: does this run repeat the baseline's numbers?
 *
 * Every number of every check (value, expected, tolerance) is held to a
 * reproducibility tolerance, |a - b| <= rtol * max(|a|, |b|): opts->rtol
 * (default 1e-9: the same build on the same machine repeats its numbers),
 * or the noise tolerance the check declares with its reason (noise_rtol,
 * the current run's declaration, else the baseline's).  This is not the
 * paper's tolerance: a value may move well inside the paper's tolerance and
 * still be a drift. */
typedef enum fl_result_drift_kind {
    FL_DRIFT_VALUE = 0,   /* a number moved beyond the reproducibility tolerance,
                           * or is present on one side only */
    FL_DRIFT_STATUS = 1,  /* status differs (a check absent from a compared task is NOT RUN) */
    FL_DRIFT_NEW = 2,     /* check not in the baseline: listed, not a drift */
    FL_DRIFT_PARAMS = 3   /* the task read a different parameter file (name or SHA-256):
                           * a warning, not a drift by itself */
} fl_result_drift_kind;

typedef struct fl_result_drift {
    fl_result_drift_kind kind;
    char *task;
    char *check;                  /* NULL for FL_DRIFT_PARAMS */
    const char *field;            /* VALUE: "value", "expected" or "tolerance" */
    fl_result_status old_status, new_status;
    int has_old, has_new;         /* whether each side has the number */
    double old_value, new_value;
    double tolerance;             /* VALUE: the absolute tolerance used */
    double rtol;                  /* VALUE: the relative tolerance it came from */
    const char *noise_reason;     /* VALUE: the check's noise reason (NULL: default rtol);
                                   * points into current or baseline */
    /* PARAMS: the parameter file and SHA-256 of each side (NULL: not recorded);
     * pointers into baseline and current */
    const char *old_params, *new_params, *old_sha256, *new_sha256;
} fl_result_drift;

typedef struct fl_result_compare_options {
    /* The reproducibility tolerance of a check that declares no noise
     * tolerance, relative (default 1e-9). */
    double rtol;
} fl_result_compare_options;

fl_result_compare_options fl_result_compare_options_default(void);

typedef struct fl_result_comparison {
    fl_result_drift *items;
    size_t nitems;
    size_t ndrift;      /* items that are drifts (VALUE or STATUS) */
    size_t ncompared;   /* checks found in both runs */
    size_t nvalues;     /* numbers compared (value, expected, tolerance) */
    size_t nwarnings;   /* FL_DRIFT_PARAMS items, plus 1 when the modes differ */
    int mode_differs;   /* one run is --quick and the other full */
    int baseline_quick, current_quick;  /* fl_results.quick of each side (when -1, read
                                         * from its command line if that is a reproduce) */
    size_t cap;         /* internal */
} fl_result_comparison;

/* Compare `current` with `baseline`, task by task for the tasks of the
 * current run (a baseline task the current run did not run is skipped).
 * Numbers compare as above; a number present on one side only is a VALUE
 * drift; non-finite numbers compare equal when identical.  A --quick run
 * against a full one (or the reverse) sets mode_differs; a task whose
 * parameter file differs (name or SHA-256) gives an FL_DRIFT_PARAMS item.
 * The result points into both runs: free it before them.
 * *out is allocated (free with fl_result_comparison_free). */
fl_status fl_results_compare(const fl_results *baseline, const fl_results *current,
                             const fl_result_compare_options *opts,
                             fl_result_comparison **out, fl_error *err);
void fl_result_comparison_free(fl_result_comparison *c);

#endif
