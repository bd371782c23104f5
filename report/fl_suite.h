/* fl_suite.h — the results of a benchmark of the field: several solvers, several problem
 * sets, several tolerances, one honest verdict per run (the results
 * model of `frictionlab bench suite` and `frictionlab bench merge`: rows,
 * verdicts, statistics, merge, and the files suite.json / suite.csv
 * (fl_suite_json.c) and report.html (fl_suite_html.c, the report
 * library's HTML page of fl_html_internal.h).  One run of a solver and
 * the recheck of its answer: checks/suite.h; the command: cli/bench_suite.c).
 *
 * A run is one solver command (the FCLIB protocol of xval.h: {in}, {out},
 * and here also {tol}) on one problem at one tolerance.  Its row records the
 * wall time, the exit status, the solver's own claim (exit 0 within the
 * limit), and our recheck of its /solution/r: U = W r + q recomputed by us,
 * the natural-map error under the three normalisations of core/fl_residual.h
 *   q        e / ||q||                  (Acary, Bremond & Huber 2018, §7)
 *   siconos  e / max(||r||, ||U||, ||q||)  (Siconos 4.4 fc3d_compute_error)
 *   fclib    e / (1 + sqrt(||q||))      (libfclib 3.1 fclib_merit_local)
 * (each tested against its owner: tests/test_normalisations.c).
 *
 * A run is SOLVED iff it ended within the time limit, its /solution was
 * read with the right size, and the rechecked error in the suite's stated
 * normalisation (q by default) is <= the tolerance.  The exit status is the
 * solver's claim, not the verdict: a solver's honest-claim rate is the share
 * of its claims (exit 0) that are solved.
 *
 * Figures (Dolan & Moré, Math. Program. 91 (2002) 201-213; the shifted
 * geometric mean as in Mittelmann's benchmarks and qpbenchmark):
 *   rho_s(tau) = #{p : t_{p,s} <= tau min_s' t_{p,s'}} / #problems, t = +inf
 *                when not solved;
 *   sgm_s = exp(mean_p log(t_{p,s} + sh)) - sh, a failure charged at the
 *                time limit, normalised by the smallest sgm of the set (1.0 =
 *                best).
 *
 * Library code: prints nothing, returns fl_status and fills fl_error.
 */
#ifndef FL_SUITE_H
#define FL_SUITE_H

#include <stddef.h>

#include "fl_status.h"

/* Identifier of the suite.json format (member "format"). */
#define FL_SUITE_FORMAT "frictionlab-suite/1"

/* The normalisations, in the order of fl_suite_row.err. */
enum { FL_SUITE_NORM_Q = 0, FL_SUITE_NORM_SICONOS = 1, FL_SUITE_NORM_FCLIB = 2, FL_SUITE_NNORM = 3 };

/* "q", "siconos", "fclib"; NULL out of range. */
const char *fl_suite_norm_name(int norm);
/* Its long description for reports ("e / ||q|| (Acary, Bremond & Huber 2018)"). */
const char *fl_suite_norm_describe(int norm);
fl_status fl_suite_norm_parse(const char *name, int *norm, fl_error *err);

typedef struct fl_suite_solver {
    char *name;          /* e.g. "ours:auto", "siconos:nsgs", "mysolver" */
    char *kind;          /* "ours", "peer", "outside" */
    char *command;       /* the template, with {in}, {out}, {tol} */
    double start_cost;   /* seconds: its fastest run on a 1-contact problem (NAN: not measured) */
} fl_suite_solver;

typedef struct fl_suite_row {
    char *solver, *problem, *set;
    int dim;
    size_t nc;
    double tol;
    double seconds;      /* wall time of the process */
    int exit_code;       /* 128 + signal, -1: could not start */
    int timed_out;
    int claimed;         /* exit 0 within the limit */
    int have_solution;   /* /solution/r read, right size */
    double err[FL_SUITE_NNORM]; /* rechecked errors (NAN without solution) */
    int solved;          /* the verdict under the suite's normalisation (fl_suite_judge) */
    int concurrent;      /* measured while other runs ran (-j > 1) */
    char *note;          /* last line of the solver's output, or why no solution was read */
} fl_suite_row;

typedef struct fl_suite {
    char *version, *commit, *started, *command;
    char *cpu;           /* model name */
    int cores;
    char *versions;      /* library and peer versions, one per line */
    double time_limit;   /* seconds per run */
    int norm;            /* the normalisation of the verdict, FL_SUITE_NORM_Q */
    double shift;        /* shift of the geometric mean, seconds */
    double shell_start;  /* seconds of `sh -c true` (NAN: not measured) */
    int jobs;            /* -j of the run (> 1: times measured under concurrency) */
    int shard_k, shard_n;/* 1/1 unless sharded; 0/0 after a merge of all shards */
    double *tols;
    size_t ntols;
    fl_suite_solver *solvers;
    size_t nsolvers;
    fl_suite_row *rows;
    size_t nrows;
    size_t cap_rows, cap_solvers, cap_tols; /* internal */
} fl_suite;

/* An empty suite: norm q, shift 0.01 s, time limit 60 s, shard 1/1, jobs 1.
 * NULL when out of memory. */
fl_suite *fl_suite_alloc(void);
void fl_suite_free(fl_suite *s);

/* Set a string member (copied; NULL clears): *dst is one of s's strings. */
fl_status fl_suite_set(char **dst, const char *value);
fl_status fl_suite_tol_add(fl_suite *s, double tol);
fl_status fl_suite_solver_add(fl_suite *s, const char *name, const char *kind,
                              const char *command, double start_cost);
/* Index of the solver named name, -1 if none. */
int fl_suite_solver_find(const fl_suite *s, const char *name);
/* Append a copy of row (strings copied). */
fl_status fl_suite_row_add(fl_suite *s, const fl_suite_row *row);

/* Set every row's `solved` under s->norm and s->time_limit. */
void fl_suite_judge(fl_suite *s);

/* Why row failed ("timeout after 10 s", "exit 1: <note>", "no solution:
 * <note>", "rechecked error 3.1e-03 > 1e-04 (q)"); "" when solved. */
void fl_suite_row_reason(const fl_suite *s, const fl_suite_row *row, char *buf, size_t len);

/* Per solver, set (NULL: all sets) and tolerance. */
typedef struct fl_suite_stats {
    size_t runs, solved, claims, honest; /* honest: claims that are solved */
    double sgm;          /* shifted geometric mean of time, failures at the limit */
    double sgm_rel;      /* sgm / min over solvers (1.0 = best); NAN without runs */
    double median_err;   /* median rechecked error in s->norm over runs with a solution */
} fl_suite_stats;

/* stats[i] for solver i (array of s->nsolvers). */
fl_status fl_suite_stats_compute(const fl_suite *s, const char *set, double tol,
                                 fl_suite_stats *stats, fl_error *err);

/* Dolan-Moré rho_s(tau) for every solver (rho: array of s->nsolvers) on the
 * problems of `set` (NULL: all) at tol; a problem counts once per solver. */
fl_status fl_suite_profile(const fl_suite *s, const char *set, double tol, double tau,
                           double *rho, fl_error *err);

/* The distinct set names of the rows, in first-seen order (an array of
 * pointers into the rows, freed by the caller with free()). */
fl_status fl_suite_sets(const fl_suite *s, const char ***sets, size_t *nsets, fl_error *err);

/* Append src's rows to dst (merge of shards): the tolerances, time limit
 * and normalisation must match (FL_EINVAL naming the difference); solvers
 * unknown to dst are added. */
fl_status fl_suite_merge(fl_suite *dst, const fl_suite *src, fl_error *err);

/* suite.json (jansson; non-finite numbers as "nan", "inf"), its reader
 * (checks the format and every field, names file and field on error). */
fl_status fl_suite_write_json(const fl_suite *s, const char *path, fl_error *err);
fl_status fl_suite_read_json(const char *path, fl_suite **out, fl_error *err);
/* suite.csv: one line per row. */
fl_status fl_suite_write_csv(const fl_suite *s, const char *path, fl_error *err);
/* report.html: the machine and versions, the verdict rule, per set and
 * tolerance the table of solved counts / honest claims / sgm / median
 * error, the profile PNGs (pngs[i] for tols[i], inlined; NULL: none),
 * every failure with its reason. */
fl_status fl_suite_write_html(const fl_suite *s, const char *path, const char *const *pngs,
                              fl_error *err);

#endif
