/* solve.c — `frictionlab solve FILE` (a problem file in, an FCLIB solution
 * out).  See solve.h.  (`crosscheck --solver-cmd` is in checks/xval.c and
 * cli/xval_cmd.c.)
 *
 * The error printed is the natural-map error of core/fl_residual.h (De
 * Saxcé's modified velocity, projection on the Coulomb cone; Siconos'
 * fc3d_compute_error / fc2d_compute_error, FCLIB's merit function):
 *   e = sqrt(sum_a |r_a - P_K(r_a - Û_a)|^2) / ||q||_2
 * (FL_RESIDUAL_NORM_Q, FCLIB's choice and the norm Siconos's solvers pass;
 * unnormalised when ||q|| <= DBL_EPSILON), and also divided by max(||r||,
 * ||U||, ||q||), which is what the installed Siconos 4.4 fc2d_compute_error
 * and fc3d_compute_error return (tests/test_siconos_fc.c).  The solver is
 * chosen by --solver through the dispatcher drivers/solve.h: nonlinear
 * Gauss–Seidel (003 §3), semismooth Newton on the Alart–Curnier function
 * (Alart & Curnier 1991), or auto (the default), sparse (optimized, the
 * default) or dense (reference).  A global problem (M, H, f, w, mu) is solved
 * by fl_solve_global: Newton/auto on (v, r) without forming W, Gauss–Seidel
 * through the Delassus operator W = H M^-1 H^T, q = H M^-1 f + w (003 §3);
 * with no contact, v = M^-1 f.
 */
#include "solve.h"

#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_fclib.h"
#include "fl_residual.h"
#include "fl_rng.h"
#include "fl_siconos_text.h"
#include "drivers/solve.h"
#include "options.h"

/* ------------------------------------------------------------------ */
/* solve FILE                                                          */
/* ------------------------------------------------------------------ */

void fl_cli_print_file_error(const char *cmd, const fl_error *e, const char *in, const char *out)
{
    /* name the user's file (with its line) when the error is about it; an
     * error detected inside the library names no file of ours */
    int user = e->file[0] && ((in && strcmp(e->file, in) == 0) || (out && strcmp(e->file, out) == 0));
    if (user && e->line > 0)
        fprintf(stderr, "frictionlab %s: %s:%d: %s\n", cmd, e->file, e->line, e->message);
    else if (user)
        fprintf(stderr, "frictionlab %s: %s: %s\n", cmd, e->file, e->message);
    else
        fprintf(stderr, "frictionlab %s: %s: %s\n", cmd, in ? in : "", e->message);
}

int fl_cli_parse_bytes(const char *s, size_t *out)
{
    char *end;
    double v = strtod(s, &end);
    double mult = 1;
    if (*end == 'K' || *end == 'k') mult = 1024.0, end++;
    else if (*end == 'M' || *end == 'm') mult = 1048576.0, end++;
    else if (*end == 'G' || *end == 'g') mult = 1073741824.0, end++;
    if (end == s || *end != '\0' || !(v > 0) || v * mult > 1e18) return -1;
    *out = (size_t)(v * mult);
    return 0;
}

typedef struct solve_opts {
    fl_solver_kind solver;
    fl_impl impl;
    double tol;
    int max_sweeps;
    int max_newton;
    long guess;              /* 0: none, K >= 1: the file's guess K */
    fl_read_options read;
    const char *out;
    int out_fclib;           /* --out: 1 FCLIB (.hdf5, .h5), 0 Siconos text (.dat) */
    int print;               /* -1: r, u printed for up to FL_SOLVE_PRINT_MAX contacts; 0 no; 1 yes */
    double time_limit;       /* --time-limit, seconds, 0: none */
    int threads;             /* fl_solve_options.threads: 0 serial (no --threads), -1 all, k */
} solve_opts;

/* `solve` prints r and u by default for problems of up to this many contacts */
#define FL_SOLVE_PRINT_MAX 10

/* --out FILE's format from its extension, as `convert` chooses it:
 * 1 FCLIB (.hdf5, .h5), 0 Siconos text (.dat), -1 unknown. */
static int out_format(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (!dot || strchr(dot, '/')) return -1;
    if (strcmp(dot, ".hdf5") == 0 || strcmp(dot, ".h5") == 0) return 1;
    if (strcmp(dot, ".dat") == 0) return 0;
    return -1;
}

static void solve_usage(FILE *f, int full)
{
    const fl_cli_cmd *c = fl_cli_cmd_find("solve");
    if (full) fl_cli_cmd_help(f, c);
    else fl_cli_cmd_short(f, c);
}

/* v = M^-1 (f + H^T r) (003 §3, fl_problem.h); r may be NULL (no contact). */
static fl_status global_velocity(const fl_global_problem *g, fl_sparse_ctx *ctx,
                                 cholmod_factor **L, const double *r, double *v, fl_error *err)
{
    gsl_vector_view vv = gsl_vector_view_array(v, g->n);
    gsl_vector_memcpy(&vv.vector, g->f);
    if (g->M) {
        if (r && g->m) {
            gsl_vector_const_view rv = gsl_vector_const_view_array(r, g->m);
            gsl_blas_dgemv(CblasTrans, 1.0, g->H, &rv.vector, 1.0, &vv.vector);
        }
        fl_spd *spd = NULL;
        fl_status w = fl_spd_alloc(g->M, &spd, err);
        if (w == FL_OK) w = fl_spd_solve(spd, &vv.vector, &vv.vector);
        fl_spd_free(spd);
        return w;
    }
    if (r && g->m) FL_TRY(fl_sparse_mv(ctx, g->Hs, 1, 1.0, r, 1.0, v, err));   /* v += H^T r */
    if (!*L) FL_TRY(fl_sparse_factor(ctx, g->Ms, L, err));
    return fl_sparse_solve(ctx, *L, v, v, err);
}

/* One option of `frictionlab solve` (getopt_long's code c, its value arg)
 * into o: 0; -1 after a message naming the option; 1 for a code it does not know. */
static int solve_option(int c, const char *arg, solve_opts *o)
{
    char *end;
    switch (c) {
    case 'S': {
        fl_error e;
        if (fl_solve_parse_solver(arg, &o->solver, &e) != FL_OK) {
            fprintf(stderr, "frictionlab solve: --solver must be gs, newton, auto or ppa, not "
                            "'%s'\n", arg);
            return -1;
        }
        return 0;
    }
    case 'T':
        o->time_limit = strtod(arg, &end);
        if (*end != '\0' || !(o->time_limit > 0) || !(o->time_limit <= 1e9)) {
            fprintf(stderr, "frictionlab solve: --time-limit %s is not a number of seconds "
                            "in (0, 1e9]\n", arg);
            return -1;
        }
        return 0;
    case 'j': {
        long v = strtol(arg, &end, 10);
        if (end == arg || *end != '\0' || v < 0 || v > 1024) {
            fprintf(stderr, "frictionlab solve: --threads %s is not in [0, 1024] (0: all "
                            "cores)\n", arg);
            return -1;
        }
        o->threads = v == 0 ? -1 : (int)v;
        return 0;
    }
    case 'n': {
        long v = strtol(arg, &end, 10);
        if (*end != '\0' || v <= 0 || v > 100000000) {
            fprintf(stderr, "frictionlab solve: --max-newton %s is not in [1, 1e8]\n", arg);
            return -1;
        }
        o->max_newton = (int)v;
        return 0;
    }
    case 'i':
        if (strcmp(arg, "reference") == 0) o->impl = FL_IMPL_REFERENCE;
        else if (strcmp(arg, "optimized") == 0) o->impl = FL_IMPL_OPTIMIZED;
        else {
            fprintf(stderr, "frictionlab solve: --impl must be optimized or reference, not "
                            "'%s'\n", arg);
            return -1;
        }
        return 0;
    case 't':
        o->tol = strtod(arg, &end);
        if (*end != '\0' || !(o->tol > 0) || !isfinite(o->tol)) {
            fprintf(stderr, "frictionlab solve: --tol %s is not a positive number\n", arg);
            return -1;
        }
        return 0;
    case 's': {
        long v = strtol(arg, &end, 10);
        if (*end != '\0' || v <= 0 || v > 100000000) {
            fprintf(stderr, "frictionlab solve: --max-sweeps %s is not in [1, 1e8]\n", arg);
            return -1;
        }
        o->max_sweeps = (int)v;
        return 0;
    }
    case 'g':
        o->guess = strtol(arg, &end, 10);
        if (*end != '\0' || o->guess < 1 || o->guess > 1000000) {
            fprintf(stderr, "frictionlab solve: --guess %s is not a guess number (1, 2, ...)\n",
                    arg);
            return -1;
        }
        return 0;
    case 'm':
        if (fl_cli_parse_bytes(arg, &o->read.max_bytes) != 0) {
            fprintf(stderr, "frictionlab solve: --max-memory %s is not a size (e.g. 500M, 4G)\n",
                    arg);
            return -1;
        }
        return 0;
    case 'o':
        o->out = arg;
        o->out_fclib = out_format(arg);
        if (o->out_fclib < 0) {
            const char *dot = strrchr(arg, '.');
            fprintf(stderr, "frictionlab solve: --out %s: unknown extension '%s' (.hdf5 or .h5: "
                            "FCLIB with the solution; .dat: Siconos text and FILE.sol)\n", arg,
                    dot && !strchr(dot, '/') ? dot : "");
            return -1;
        }
        return 0;
    case 'p':
        o->print = 1;
        return 0;
    case 'P':
        o->print = 0;
        return 0;
    case 'l':
        if (strcmp(arg, "nsgs") != 0) {
            fprintf(stderr, "frictionlab solve: unknown law '%s' (solve supports: nsgs)\n",
                    arg);
            return -1;
        }
        return 0;
    default:
        return 1;
    }
}

static int parse_solve(int argc, char **argv, solve_opts *o, const char **file)
{
    struct option longs[32];
    char shorts[16];
    fl_cli_cmd_longopts(fl_cli_cmd_find("solve"), longs, 32, shorts, sizeof shorts);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == 'h') {
            solve_usage(stdout, 1);
            return 0;
        }
        int r = solve_option(c, optarg, o);
        if (r < 0) goto bad;
        if (r == 0) continue;
        if (c == ':')
            fprintf(stderr, "frictionlab solve: option '%s' needs a value\n", argv[optind - 1]);
        else
            fprintf(stderr, "frictionlab solve: unknown option '%s'\n", argv[optind - 1]);
        goto bad;
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "frictionlab solve: %s\n",
                optind == argc ? "name a problem file (FCLIB .hdf5 or Siconos .dat)"
                               : "one problem file only");
        goto bad;
    }
    *file = argv[optind];
    return 1;
bad:
    solve_usage(stderr, 0);
    return 2;
}

/* One `frictionlab solve` run: the options, the problem read (local p or
 * global g), the solver's vectors and the solution written. */
typedef struct {
    solve_opts o;
    const char *file, *format;
    fl_sparse_ctx ctx;
    fl_local_problem *p;
    fl_global_problem *g;
    cholmod_factor *L;
    gsl_vector *r, *U;
    fl_fclib_solution *sol, **guesses;
    size_t nguess;
    double *v;
    fl_error err;
} solve_run;

/* The problem (FCLIB or Siconos text) and, with --guess, the file's guesses. */
static fl_status solve_read(solve_run *S)
{
    const char *file = S->file;
    fl_sparse_ctx *pctx = S->o.impl == FL_IMPL_OPTIMIZED ? &S->ctx : NULL;
    int hdf5 = fl_fclib_is_hdf5(file), kind = 0, ref = S->o.impl != FL_IMPL_OPTIMIZED;
    fl_status s;
    if (hdf5) {
        S->format = "FCLIB";
        /* first in a child process: HDF5 defects crash or run away on
         * some corrupt files (io/fl_fclib.h) */
        int parts = FL_FCLIB_VET_PROBLEM | (S->o.guess ? FL_FCLIB_VET_GUESSES : 0);
        if ((s = fl_fclib_vet(file, &S->o.read, parts, &S->err)) != FL_OK) return s;
        if ((s = fl_fclib_kind(file, &kind, &S->err)) != FL_OK) return s;
        s = kind == 1 ? fl_fclib_read_local_opt(file, ref, pctx, &S->o.read, &S->p, &S->err)
                      : fl_fclib_read_global_opt(file, ref, pctx, &S->o.read, &S->g, &S->err);
    } else {
        S->format = "Siconos text";
        if ((s = fl_siconos_text_kind(file, &kind, &S->err)) != FL_OK) return s;
        s = kind == 1 ? fl_siconos_text_read_local(file, ref, pctx, &S->o.read, &S->p, &S->err)
                      : fl_siconos_text_read_global(file, ref, pctx, &S->o.read, &S->g, &S->err);
    }
    if (s != FL_OK || !S->o.guess) return s;
    if (!hdf5) return fl_error_set(&S->err, FL_EINVAL, file, 0, 0, "--guess: only FCLIB files store guesses");
    if ((s = fl_fclib_read_guesses(file, &S->guesses, &S->nguess, &S->err)) != FL_OK) return s;
    if ((size_t)S->o.guess > S->nguess)
        return fl_error_set(&S->err, FL_EINVAL, file, 0, 0, "field guesses: --guess %ld, the file "
                            "holds %zu guess(es)", S->o.guess, S->nguess);
    return FL_OK;
}

static void solve_print_problem(solve_run *S)
{
    const solve_opts *o = &S->o;
    fl_global_problem *g = S->g;
    if (g) {
        printf("problem %s (%s, global): n %zu, nc %zu, dim %d, m %zu\n", S->file, S->format, g->n,
               g->nc, g->dim, g->m);
        if (o->impl == FL_IMPL_OPTIMIZED && !g->ctx) g->ctx = &S->ctx;
    } else {
        printf("problem %s (%s, local): nc %zu, dim %d, m %zu\n", S->file, S->format, S->p->nc, S->p->dim,
               S->p->m);
    }
    if (o->time_limit > 0) printf("time limit %g s\n", o->time_limit);
    if (o->threads != 0 && o->impl == FL_IMPL_OPTIMIZED && o->solver != FL_SOLVER_NEWTON)
    {
        if (o->threads < 0)
            printf("Gauss-Seidel: graph-coloured sweep on all cores (at most one thread per "
                   "8192 contacts)\n");
        else printf("Gauss-Seidel: graph-coloured sweep on %d thread(s)\n", o->threads);
    }
    printf("solver %s (%s), implementation %s, tol %.3g, max sweeps %d, max Newton steps %d\n",
           fl_solve_solver_name(o->solver),
           o->solver == FL_SOLVER_GS ? "nonlinear Gauss-Seidel, 003 §3"
           : o->solver == FL_SOLVER_NEWTON ? "semismooth Newton, Alart & Curnier 1991"
           : o->solver == FL_SOLVER_PPA ? "proximal point with a Newton inner solver, "
                                          "Acary, Bremond & Huber 2018"
                                        : "Gauss-Seidel, then Newton if it converges slowly, "
                                          "then proximal point if both stall",
           o->impl == FL_IMPL_OPTIMIZED ? "optimized (sparse)" : "reference (dense)", o->tol, o->max_sweeps,
           o->max_newton);
    if (g && g->m > 0)
        printf("global problem solved %s\n", o->solver == FL_SOLVER_GS || o->solver == FL_SOLVER_PPA
               ? "through the Delassus operator W = H M^-1 H^T" : "on (v, r), W not formed");
}

/* The solve of a problem with m > 0 contact unknowns. */
static fl_status solve_contacts(solve_run *S, size_t m, fl_solve_result *res)
{
    const solve_opts *o = &S->o;
    fl_local_problem *p = S->p;
    fl_global_problem *g = S->g;
    fl_status s;
    if (p && o->impl == FL_IMPL_OPTIMIZED && !p->Ws) {
        p->ctx = &S->ctx;
        if ((s = fl_sparse_from_dense(&S->ctx, p->W, 0, 0.0, &p->Ws, &S->err)) != FL_OK) return s;
    }
    S->r = gsl_vector_calloc(m);
    S->U = gsl_vector_calloc(m);
    if (g) S->v = calloc(g->n ? g->n : 1, sizeof *S->v);
    if (!S->r || !S->U || (g && !S->v)) return FL_FAIL(&S->err, FL_ENOMEM, "out of memory");
    if (o->guess) {
        memcpy(S->r->data, S->guesses[o->guess - 1]->r, m * sizeof(double));
        printf("start guess %ld of the file\n", o->guess);
    }
    fl_solve_options so = fl_solve_options_default();
    so.solver = o->solver;
    so.impl = o->impl;
    so.tol = o->tol;
    so.max_sweeps = o->max_sweeps;
    so.max_newton = o->max_newton;
    so.warm = o->guess != 0;
    so.time_limit = o->time_limit;
    so.threads = o->threads;
    if (g) {
        gsl_vector_view vv = gsl_vector_view_array(S->v, g->n);
        s = fl_solve_global(g, &so, g->n ? &vv.vector : NULL, S->r, S->U, res, &S->err);
    } else {
        s = fl_solve_local(p, &so, S->r, S->U, res, &S->err);
    }
    if (s < 0) {
        /* a global problem's solvers factor M (Delassus operator,
         * Newton's reduced system): name the field of the user's file */
        if (g && s == FL_ENOTSPD) {
            char msg[sizeof S->err.message];
            snprintf(msg, sizeof msg, "%s", S->err.message);
            fl_error_set(&S->err, s, S->file, 0, 0, "field M: %s", msg);
        }
        return s;
    }
    printf("finished by %s, stopped: %s\n", fl_solve_solver_name(res->finished_by),
           fl_solve_stop_name(res->stop));
    return s;
}

static void solve_print_result(const solve_run *S, size_t m, const fl_solve_result *res, fl_status s)
{
    printf("iterations %d (Gauss-Seidel sweeps %d, Newton steps %d)\n",
           res->gs_sweeps + res->newton_steps, res->gs_sweeps, res->newton_steps);
    if (res->ppa_outer > 0)
        printf("proximal-point outer iterations %d (their Newton steps counted above)\n",
               res->ppa_outer);
    printf("error %.6e (natural map sqrt(sum_a |r_a - P_K(r_a - U_a - mu|U_T| e_N)|^2) / "
           "||q||_2, or / 1 if ||q|| ~ 0)\n", res->residual_norm_q);
    printf("error_siconos %.6e (the same / max(||r||, ||U||, ||q||): Siconos 4.4 "
           "fc2d/fc3d_compute_error)\n", res->residual_max_norm);
    printf("time %.6f s\n", res->seconds);
    if (m == 0) printf("no contact: r is empty%s\n", S->g ? ", v = M^-1 f" : "");
    printf("status %s%s%s\n", s == FL_OK ? "converged" : "not converged (",
           s == FL_OK ? "" : fl_solve_stop_name(res->stop), s == FL_OK ? "" : ")");
}

/* The answer, one contact per line: "contact a: r r_N r_T.. u u_N u_T.."
 * (the local frame of the file, normal first), then for a global problem
 * "v v_1 .. v_n"; to f (stdout for --print, FILE.sol for --out FILE.dat). */
static void solve_print_answer(FILE *f, const solve_run *S, size_t m, const double *v)
{
    size_t dim = (size_t)(S->g ? S->g->dim : S->p->dim);
    for (size_t a = 0; dim && a < m / dim; a++) {
        fprintf(f, "contact %zu: r", a);
        for (size_t k = 0; k < dim; k++) fprintf(f, " %.17g", S->r->data[a * dim + k]);
        fprintf(f, "  u");
        for (size_t k = 0; k < dim; k++) fprintf(f, " %.17g", S->U->data[a * dim + k]);
        fputc('\n', f);
    }
    if (S->g && v) {
        fprintf(f, "v");
        for (size_t i = 0; i < S->g->n; i++) fprintf(f, " %.17g", v[i]);
        fputc('\n', f);
    }
}

/* --out FILE.dat: the problem in Siconos text, which has no place for a
 * solution, and the solution beside it in FILE.sol (solve_print_answer's
 * lines after a '#' header). */
static fl_status solve_write_text(solve_run *S, size_t m)
{
    const char *out = S->o.out;
    fl_status w = S->g ? fl_siconos_text_write_global(out, S->g, &S->err)
                       : fl_siconos_text_write(out, S->p, &S->err);
    if (w != FL_OK) return w;
    double *v = NULL;
    if (S->g && S->g->n) {
        v = calloc(S->g->n, sizeof *v);
        if (!v) return FL_FAIL(&S->err, FL_ENOMEM, "out of memory");
        if (m > 0) memcpy(v, S->v, S->g->n * sizeof *v);
        else if ((w = global_velocity(S->g, &S->ctx, &S->L, NULL, v, &S->err)) != FL_OK) {
            free(v);
            return w;
        }
    }
    size_t len = strlen(out) + 5;
    char *sol = malloc(len);
    FILE *f = sol ? (snprintf(sol, len, "%s.sol", out), fopen(sol, "w")) : NULL;
    if (!f) {
        w = sol ? fl_error_set(&S->err, FL_EIO, sol, 0, 0, "cannot write the solution file")
                : FL_FAIL(&S->err, FL_ENOMEM, "out of memory");
    } else {
        fprintf(f, "# frictionlab solve: solution of %s (problem in %s, Siconos text)\n"
                   "# one line per contact: r then u in the contact frame (normal first)%s\n",
                S->file, out, S->g ? "; last line: v" : "");
        solve_print_answer(f, S, m, v);
        if (fclose(f) != 0) w = fl_error_set(&S->err, FL_EIO, sol, 0, 0, "cannot write the solution file");
        else printf("problem written to %s (Siconos text), solution to %s\n", out, sol);
    }
    free(sol);
    free(v);
    return w;
}

/* --out FILE: the problem and the solution (r, U and v) in FCLIB format */
static fl_status solve_write(solve_run *S, size_t m)
{
    fl_global_problem *g = S->g;
    const char *out = S->o.out;
    fl_status w;
    if (!S->o.out_fclib) return solve_write_text(S, m);
    if (g) {
        w = fl_fclib_write_global(out, g, "frictionlab solve", &S->err);
        if (w == FL_OK) w = fl_fclib_solution_alloc(g->n, m, &S->sol, &S->err);
        if (w == FL_OK) {
            if (m > 0 && g->n) memcpy(S->sol->v, S->v, g->n * sizeof(double));
            else w = global_velocity(g, &S->ctx, &S->L, NULL, S->sol->v, &S->err);
        }
    } else {
        w = fl_fclib_write_local(out, S->p, "frictionlab solve", &S->err);
        if (w == FL_OK) w = fl_fclib_solution_alloc(0, m, &S->sol, &S->err);
    }
    if (w == FL_OK && m) {
        memcpy(S->sol->r, S->r->data, m * sizeof(double));
        memcpy(S->sol->u, S->U->data, m * sizeof(double));
    }
    if (w == FL_OK) w = fl_fclib_write_solution(out, S->sol, &S->err);
    if (w == FL_OK) printf("solution written to %s (FCLIB)\n", out);
    return w;
}

int fl_cli_solve(int argc, char **argv)
{
    solve_run S;
    memset(&S, 0, sizeof S);
    solve_opts o0 = {FL_SOLVER_AUTO, FL_IMPL_OPTIMIZED, 1e-8, 10000, 500, 0, fl_read_options_default(), NULL, 1, -1, 0.0, 0};
    S.o = o0;
    /* argv[-1] is the word "solve": getopt_long wants the program name first */
    int pr = parse_solve(argc + 1, argv - 1, &S.o, &S.file);
    if (pr != 1) return pr;
    fl_error_clear(&S.err);
    S.format = "";
    int rc = 2;
    fl_status s = fl_sparse_start(&S.ctx, &S.err);
    if (s == FL_OK) s = solve_read(&S);
    if (s == FL_OK) {
        solve_print_problem(&S);
        fl_solve_result res;
        memset(&res, 0, sizeof res);
        size_t m = S.g ? S.g->m : S.p->m;
        s = m > 0 ? solve_contacts(&S, m, &res) : FL_OK;   /* no contact: r is empty, nothing to iterate */
        if (s >= 0) {
            solve_print_result(&S, m, &res, s);
            size_t nc = S.g ? S.g->nc : S.p->nc;
            if (m > 0 && (S.o.print == 1 || (S.o.print < 0 && nc <= FL_SOLVE_PRINT_MAX)))
                solve_print_answer(stdout, &S, m, S.v);
            rc = s == FL_OK ? 0 : 1;
            if (S.o.out) {
                fl_status w = solve_write(&S, m);
                if (w != FL_OK) s = w;
            }
        }
    }
    if (s < 0) {
        fl_cli_print_file_error("solve", &S.err, S.file, S.o.out);
        rc = 2;
    }
    free(S.v);
    fl_fclib_solution_free(S.sol);
    fl_fclib_guesses_free(S.guesses, S.nguess);
    if (S.r) gsl_vector_free(S.r);
    if (S.U) gsl_vector_free(S.U);
    fl_local_problem_free(S.p);
    fl_global_problem_free(S.g);
    fl_sparse_free_factor(&S.ctx, &S.L);
    fl_sparse_finish(&S.ctx);
    return rc;
}
