/* xval.h — cross-validation of an outside solver command on families of
 * frictional contact problems (library side of `frictionlab crosscheck
 * --solver-cmd CMD`; the command glue is cli/xval_cmd.c).
 *
 * The outside solver is any program that reads an FCLIB local problem
 * (W, q, mu; fl_fclib.h) from {in} and writes the same problem plus its
 * /solution (r, u) to {out}.  For each problem the harness
 *   1. writes the problem (fl_fclib_write_local),
 *   2. runs the command through /bin/sh with {in}, {out} replaced by
 *      shell-quoted paths, in its own process group, killed (SIGKILL to the
 *      group) when it exceeds the time limit,
 *   3. reads /solution (r, u) and recomputes U = W r + q itself; the
 *      command's u must agree with it (fl_xval_parts_check: a stale or
 *      wrong u fails the problem, naming the contact), and the law is
 *      measured on the recomputed U,
 *   4. measures the law on (r, U): the natural-map error of
 *      core/fl_residual.h (/||q||), the cone violation, the Signorini
 *      complementarity and the whole Coulomb law (fl_coulomb_violation),
 *      all dimensionless: velocities by us = ||q||, the impulse of contact
 *      a by rs_a = us / max diag(W_aa) (the impulse that changes its own
 *      velocity by us; one global impulse scale would judge the soft
 *      contacts of a badly scaled W by the stiff ones' scale),
 *   5. where our certified answer is known to be the unique solution,
 *      the distance |r - r*|_inf / max(|r*|_inf, rs).
 *
 * Families (named, selectable):
 *   random   sparse random systems of growing size, 2D and 3D
 *   corpus   every problem file of a directory (Siconos text or FCLIB)
 *   feblock  elastic P1 blocks on a rigid foundation (testkit/fclib_feblock.h)
 *   discs    disc-like rigid-body packings (testkit/fclib_disclike.h)
 *   edge     mu = 0, very large mu, zero contacts, nonsymmetric W,
 *            rank-deficient W (continuum of solutions), badly scaled W
 *            (1e6 spread of diagonal blocks), an almost-grazing contact
 *
 * A solver may also be a function called in this process
 * (fl_xval_check_fn: no files, no process; the same verdict code).
 *
 * Certified answers: fl_xval_certify (enumeration for small 2D problems,
 * otherwise the solver of fl_xval_our_solve at 1e-10, its error reported).
 *
 * The library prints nothing: every result comes back in structs.
 */
#ifndef FL_XVAL_H
#define FL_XVAL_H

#include <stddef.h>

#include "fl_problem.h"
#include "fl_sparse.h"
#include "fl_status.h"

typedef enum fl_xval_family {
    FL_XVAL_RANDOM = 0,
    FL_XVAL_CORPUS = 1,
    FL_XVAL_FEBLOCK = 2,
    FL_XVAL_DISCS = 3,
    FL_XVAL_EDGE = 4,
    FL_XVAL_NFAMILY = 5
} fl_xval_family;

/* Name of a family ("random", ...), NULL if out of range. */
const char *fl_xval_family_name(fl_xval_family f);

/* Parse "all" or a comma list of family names into a bit mask (bit f set
 * for family f).  FL_ENOTFOUND naming the unknown word. */
fl_status fl_xval_family_parse(const char *list, unsigned *mask, fl_error *err);

typedef struct fl_xval_options {
    double tol;             /* accepted natural-map error, cone and complementarity
                               violations, default 1e-6 */
    double coulomb_tol;     /* accepted fl_coulomb_violation, default 1e-3 = sqrt(tol):
                               near a stick/slip transition the slip direction is
                               fixed only to sqrt(error) (proofs/xval.md) */
    double dist_tol;        /* accepted distance to a unique certified answer, 1e-4 */
    double parts_tol;       /* accepted disagreement of the answer's parts, 1e-8
                               relative: |u - (W r + q)|_inf <= parts_tol
                               max(|W r|_inf, |q|_inf), and for a global answer
                               the same for M v = H^T r + f, u = H v + w
                               (proofs/xval.md §6) */
    double timeout;         /* seconds per problem (wall), default 60 */
    long per_family;        /* random/feblock/discs problems per family, default 8 */
    int full;               /* 0: quick ladders; 1: full (crosscheck --full: random up
                               to 1000 contacts, packings to 2370); FL_XVAL_FULL_SUITE:
                               the suite's (bench suite --full: up to 1e4 contacts) */
    unsigned long seed;     /* random families, default 1 */
    const char *corpus_dir; /* corpus family directory (required for it) */
} fl_xval_options;

/* fl_xval_options.full of `bench suite --full`: random systems, disc-like
 * problems and packings up to 1e4 contacts, FE blocks to 1000 (dense W). */
#define FL_XVAL_FULL_SUITE 2

fl_xval_options fl_xval_options_default(void);

/* One problem of a family.  p is NULL when the problem could not be built
 * or read (why: `error`). */
typedef struct fl_xval_case {
    fl_xval_family family;
    char name[128];         /* e.g. "random.3d.nc0100.s2", "corpus.Rover1039.dat" */
    fl_local_problem *p;    /* owned; sparse members on the context given */
    fl_global_problem *g;   /* corpus global problems: the file's own (owned), else NULL */
    char error[512];        /* why p is NULL */
} fl_xval_case;

/* Number of problems family f holds under opt (the corpus: files of
 * opt->corpus_dir, README/notes and bad_* fixtures excluded). */
fl_status fl_xval_family_count(fl_xval_family f, const fl_xval_options *opt, size_t *count,
                               fl_error *err);

/* Build problem k (0 <= k < count) of family f on ctx.  Returns FL_OK with
 * c->p set, or FL_OK with c->p == NULL and c->error saying why the problem
 * is not available (an unreadable corpus file, a case the library cannot
 * represent): the caller reports that as a failure.  Errors < 0 only for
 * bad arguments. */
fl_status fl_xval_case_make(fl_xval_family f, size_t k, const fl_xval_options *opt,
                            fl_sparse_ctx *ctx, fl_xval_case *c, fl_error *err);
void fl_xval_case_clear(fl_xval_case *c);

/* Read one problem file (FCLIB .hdf5 or Siconos text, local or global: a
 * global problem in its local form by the sparse Delassus operator) into
 * c->p, named `name`, family FL_XVAL_CORPUS; a file our readers refuse
 * leaves c->p NULL and c->error saying why (the corpus family's reader,
 * for a directory read without a manifest). */
void fl_xval_case_read(const char *path, const char *name, fl_sparse_ctx *ctx, fl_xval_case *c);

/* Our solver, the one the certified answers and the timing "ours" come
 * from: r (length m, zero start) to natural-map error tol (/||q||), at most
 * max_iter Gauss-Seidel sweeps.  The dispatcher of drivers/solve.h,
 * solver auto (Gauss-Seidel chunks, then semismooth Newton), optimized
 * twins when p->Ws is set.  A problem without contact is solved (r empty).
 * Returns FL_OK,
 * FL_WMAXITER (tolerance not reached; *error says how far) or an error. */
fl_status fl_xval_our_solve(const fl_local_problem *p, double tol, int max_iter, double *r,
                            double *error, int *iterations, double *seconds, fl_error *err);
/* Its name on the PASS/FAIL lines and in the report ("auto"). */
const char *fl_xval_our_solver_name(void);

typedef enum fl_xval_method {
    FL_XVAL_NONE = 0,       /* no certified answer */
    FL_XVAL_ENUMERATION = 1,/* fl_enumerate_solutions (2D, nc <= FL_XVAL_ENUM_MAX) */
    FL_XVAL_SOLVER = 2      /* fl_xval_our_solve at 1e-10 */
} fl_xval_method;

#define FL_XVAL_ENUM_MAX 6

typedef struct fl_xval_certificate {
    fl_xval_method method;
    int unique;             /* 1: r is THE solution (enumeration: one isolated
                               solution, no singular assignment; mu = 0 with
                               W symmetric positive definite) */
    double *r;              /* length m (owned), NULL when method == NONE */
    double error;           /* natural-map error of r (/||q||) */
    int iterations;         /* solver iterations (method SOLVER) */
    double seconds;         /* time of the certification */
    char note[256];         /* how it was obtained, or why there is none */
} fl_xval_certificate;

/* The certified answer of p: enumeration for small 2D problems (unique when
 * one isolated solution and no singular status assignment), otherwise
 * fl_xval_our_solve to 1e-10 with the error it reached.  FL_OK with
 * method NONE (and a note) when neither could produce one. */
fl_status fl_xval_certify(const fl_local_problem *p, fl_xval_certificate *c, fl_error *err);
void fl_xval_certificate_clear(fl_xval_certificate *c);

/* Law measures of an impulse r (length m) for p, dimensionless by the
 * scales us = ||q|| and rs_a = us / max diag(W_aa) (above). */
typedef struct fl_xval_law {
    double error;           /* natural-map error /||q|| (fl_residual.h) */
    double cone;            /* max_a max(-r_N, |r_T| - mu r_N) / rs_a */
    double complementarity; /* max_a max(-U_N/us, min(r_N/rs_a, U_N/us)) */
    double coulomb;         /* max_a fl_coulomb_violation of contact a (rs_a, us) */
} fl_xval_law;

fl_status fl_xval_law_measure(const fl_local_problem *p, const double *r, fl_xval_law *out,
                              fl_error *err);

/* Result of running a command on one problem. */
typedef struct fl_xval_run {
    int exit_code;          /* exit status, 128 + signal, -1 if it could not start */
    int timed_out;          /* 1 if killed at the time limit */
    double seconds;         /* wall time of the command */
} fl_xval_run;

/* Replace {in} and {out} in tmpl by single-quoted in and out.  FL_EINVAL
 * if the result does not fit in len. */
fl_status fl_xval_command(const char *tmpl, const char *in, const char *out, char *buf,
                          size_t len, fl_error *err);

/* Run cmd with /bin/sh -c in a new process group, stdout and stderr sent
 * to log_path (NULL: inherited), waiting at most timeout seconds (then
 * SIGKILL to the group). */
fl_status fl_xval_spawn(const char *cmd, double timeout, const char *log_path, fl_xval_run *run,
                        fl_error *err);
/* The same with stderr sent to err_path (NULL: with stdout to log_path). */
fl_status fl_xval_spawn_split(const char *cmd, double timeout, const char *log_path,
                              const char *err_path, fl_xval_run *run, fl_error *err);
/* Process group of the command fl_xval_spawn is waiting for, 0 if none:
 * async-signal-safe (a signal handler kills it before the program dies). */
int fl_xval_spawn_running(void);

/* The last non-empty line of the text file path, non-printable bytes
 * written as \xHH, "" when the file is missing or empty.  A line longer
 * than len - 1 bytes keeps its end, from the start of a word, after "..."
 * (never a word cut in its middle).  For the FAIL line: the solver's own
 * last word. */
void fl_xval_last_line(const char *path, char *buf, size_t len);

/* Whether the parts of an answer agree (proofs/xval.md §6): u (length
 * p->m, NULL: not given) with W r + q; for a global problem g (NULL: not
 * global) with v (length g->n, NULL: not given), M v = H^T r + f and
 * u = H v + w.  Each part is compared in the infinity norm relative to the
 * larger infinity norm of its terms (1 when both are below DBL_EPSILON).
 * *agree = 1, or 0 with why saying which part differs, by how much and at
 * which contact (or degree of freedom).  Errors: NULL p, r, agree; memory. */
fl_status fl_xval_parts_check(const fl_local_problem *p, const fl_global_problem *g,
                              const double *r, const double *u, const double *v, double tol,
                              int *agree, char *why, size_t whylen, fl_error *err);

/* The verdict on one problem. */
typedef struct fl_xval_result {
    fl_xval_run run;
    int have_solution;      /* /solution read with the right size */
    int parts_agree;        /* u (and v) agree with r (fl_xval_parts_check), or not given */
    char solver_said[512];  /* last line of the command's stderr, escaped ("" if none) */
    fl_xval_law law;        /* of the command's r (if have_solution) */
    double dist;            /* to the certified answer (NAN if not unique) */
    double ours_seconds;    /* fl_xval_our_solve to opt->tol */
    int ours_solved;
    int pass;
    char reason[1536];      /* why it failed (with the solver's stderr), or what passed */
} fl_xval_result;

/* Run solver_cmd on the problem c (written to in_path, solution expected
 * in out_path), measure, compare with the certificate cert (may have
 * method NONE) and decide pass/fail with opt's tolerances. */
fl_status fl_xval_check(const fl_xval_case *c, const fl_xval_certificate *cert,
                        const char *solver_cmd, const char *in_path, const char *out_path,
                        const fl_xval_options *opt, fl_xval_result *res, fl_error *err);

/* A solver called in-process (the Python module's frictionlab.crosscheck):
 * write its answer r (length p->m, zero on entry) for p and, if it has
 * one, its velocity u (length p->m, NaN on entry: left all NaN means "no
 * u", not checked), and return 0; or return nonzero and say why in msg
 * (msglen bytes, NUL-terminated). */
typedef int (*fl_xval_solver_fn)(const fl_local_problem *p, double *r, double *u, void *user,
                                 char *msg, size_t msglen);

/* fl_xval_check with the solver fn(p, r, user, ...) called in this process
 * instead of a command: no file is written or read.  The answer is judged
 * by the same code as a command's (law measures, distance to a unique
 * certified answer, tolerances of opt).  res->run: exit_code = fn's return
 * value, seconds = wall time of the call; a call longer than opt->timeout
 * cannot be interrupted: it is let finish and fails as timed out. */
fl_status fl_xval_check_fn(const fl_xval_case *c, const fl_xval_certificate *cert,
                           fl_xval_solver_fn fn, void *user, const fl_xval_options *opt,
                           fl_xval_result *res, fl_error *err);

/* Dolan & Moré (2002) performance profile of two solvers on np problems:
 * t[2*i + s] the time of solver s on problem i, or +inf if it failed.
 * rho[s] at tau: fraction of problems with t_s / min(t_0, t_1) <= tau. */
double fl_xval_profile_rho(const double *t, size_t np, int s, double tau);

#endif
