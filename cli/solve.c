/* solve.c — `frictionlab solve FILE` (a problem file in, an FCLIB solution
 * out) and `frictionlab crosscheck --solver-cmd CMD` (any solver checked
 * against the library on random FCLIB problems).  See solve.h.
 *
 * The error printed is the natural-map error of core/fl_residual.h (De
 * Saxcé's modified velocity, projection on the Coulomb cone; Siconos'
 * fc3d_compute_error / fc2d_compute_error, FCLIB's merit function):
 *   e = sqrt(sum_a |r_a - P_K(r_a - Û_a)|^2) / ||q||_2
 * (FL_RESIDUAL_NORM_Q, FCLIB's choice and the norm Siconos's solvers pass;
 * unnormalised when ||q|| <= DBL_EPSILON), and also divided by max(||r||,
 * ||U||, ||q||), which is what the installed Siconos 4.4 fc2d_compute_error
 * and fc3d_compute_error return (tests/test_siconos_fc.c).  The solver is the nonlinear Gauss–Seidel of 003 §3
 * (reference/nsgs.h), dense (reference) or CHOLMOD (optimized).
 */
#include "solve.h"

#include <float.h>
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
#include "reference/enumerate.h"
#include "reference/nsgs.h"
#include "optimized/delassus_sparse.h"
#include "optimized/nsgs_sparse.h"

/* ------------------------------------------------------------------ */
/* solve FILE                                                          */
/* ------------------------------------------------------------------ */

static void print_error(const char *cmd, const fl_error *e)
{
    if (e->line > 0 && e->file[0])
        fprintf(stderr, "frictionlab %s: %s:%d: %s\n", cmd, e->file, e->line, e->message);
    else if (e->file[0])
        fprintf(stderr, "frictionlab %s: %s: %s\n", cmd, e->file, e->message);
    else
        fprintf(stderr, "frictionlab %s: %s\n", cmd, e->message);
}

/* 1 if the file starts with the HDF5 signature. */
static int is_hdf5(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char buf[8];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, 8, f);
    fclose(f);
    return n == 8 && memcmp(buf, sig, 8) == 0;
}

/* (H^T r)_j added to b (H m x n in CSC, stype 0). */
static void add_sparse_HTr(const cholmod_sparse *H, const double *r, double *b)
{
    const int *Hp = H->p, *Hi = H->i, *Hnz = H->nz;
    const double *Hx = H->x;
    for (size_t j = 0; j < H->ncol; j++) {
        int end = H->packed ? Hp[j + 1] : Hp[j] + Hnz[j];
        for (int k = Hp[j]; k < end; k++) b[j] += Hx[k] * r[Hi[k]];
    }
}

typedef struct solve_opts {
    int optimized;
    double tol;
    int max_sweeps;
} solve_opts;

static fl_status run_nsgs(const fl_local_problem *p, const solve_opts *o, gsl_vector *r,
                          gsl_vector *U, fl_nsgs_result *res, fl_error *err)
{
    fl_nsgs_options opt = fl_nsgs_options_default();
    opt.tol = o->tol;
    opt.max_sweeps = o->max_sweeps;
    return o->optimized ? fl_nsgs_sparse_solve(p, &opt, r, U, res, err)
                        : fl_nsgs_solve(p, &opt, r, U, res, err);
}

int fl_cli_solve(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *law = "nsgs";
    solve_opts o = {0, 1e-8, 10000};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (strcmp(a, "--out") == 0 && has) out = argv[++i];
        else if (strcmp(a, "--law") == 0 && has) law = argv[++i];
        else if (strcmp(a, "--impl") == 0 && has) {
            const char *v = argv[++i];
            if (strcmp(v, "reference") == 0) o.optimized = 0;
            else if (strcmp(v, "optimized") == 0) o.optimized = 1;
            else {
                fprintf(stderr, "frictionlab solve: --impl must be reference or optimized, not '%s'\n", v);
                return 2;
            }
        } else if (strcmp(a, "--tol") == 0 && has) {
            char *end;
            o.tol = strtod(argv[++i], &end);
            if (*end != '\0' || !(o.tol > 0)) {
                fprintf(stderr, "frictionlab solve: bad option '--tol %s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--max-sweeps") == 0 && has) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || v <= 0 || v > 100000000) {
                fprintf(stderr, "frictionlab solve: bad option '--max-sweeps %s'\n", argv[i]);
                return 2;
            }
            o.max_sweeps = (int)v;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "frictionlab solve: unknown option '%s' or missing value\n", a);
            return 2;
        } else if (!file) {
            file = a;
        } else {
            fprintf(stderr, "frictionlab solve: one problem file only ('%s')\n", a);
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "frictionlab solve: name a problem file (FCLIB .hdf5 or Siconos .dat)\n");
        return 2;
    }
    if (strcmp(law, "nsgs") != 0) {
        fprintf(stderr, "frictionlab solve: unknown law '%s' (solve supports: nsgs)\n", law);
        return 2;
    }

    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    cholmod_factor *L = NULL;
    gsl_vector *r = NULL, *U = NULL;
    fl_fclib_solution *sol = NULL;
    int rc = 2;
    fl_status s = fl_sparse_start(&ctx, &err);
    fl_sparse_ctx *pctx = o.optimized ? &ctx : NULL;
    const char *format;
    if (s != FL_OK) goto done;
    if (is_hdf5(file)) {
        int kind = 0;
        if ((s = fl_fclib_kind(file, &kind, &err)) != FL_OK) goto done;
        if (kind == 1) {
            format = "FCLIB local";
            s = fl_fclib_read_local(file, !o.optimized, pctx, &p, &err);
        } else {
            format = "FCLIB global";
            s = fl_fclib_read_global(file, !o.optimized, pctx, &g, &err);
            if (s == FL_OK)
                s = o.optimized ? fl_delassus_sparse(g, FL_DELASSUS_SOLVES, &L, &p, &err)
                                : fl_delassus_dense(g, &p, &err);
        }
    } else {
        format = "Siconos text";
        s = fl_siconos_text_read(file, !o.optimized, pctx, &p, &err);
    }
    if (s != FL_OK) goto done;
    if (o.optimized && !p->Ws) {
        p->ctx = &ctx;
        if ((s = fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, &err)) != FL_OK) goto done;
    }
    r = gsl_vector_calloc(p->m);
    U = gsl_vector_calloc(p->m);
    if (!r || !U) {
        s = FL_FAIL(&err, FL_ENOMEM, "out of memory");
        goto done;
    }
    fl_nsgs_result res;
    s = run_nsgs(p, &o, r, U, &res, &err);
    if (s < 0) goto done;
    double nq = gsl_blas_dnrm2(p->q);
    printf("problem %s (%s): %zu contacts, dim %d\n", file, format, p->nc, p->dim);
    printf("solver nsgs (%s), tol %.3g, max sweeps %d\n", o.optimized ? "optimized" : "reference",
           o.tol, o.max_sweeps);
    printf("iterations %d\n", res.iterations);
    double e_max = 0;
    fl_residual_local(p, r, NULL, FL_RESIDUAL_MAX_NORM, &e_max, NULL);
    printf("error %.6e (natural map sqrt(sum_a |r_a - P_K(r_a - U_a - mu|U_T| e_N)|^2) / %s)\n",
           res.residual, nq > DBL_EPSILON ? "||q||_2" : "1 (||q|| ~ 0)");
    printf("error_siconos %.6e (the same / max(||r||, ||U||, ||q||): Siconos 4.4 "
           "fc2d/fc3d_compute_error)\n", e_max);
    printf("time %.6f s\n", res.seconds);
    printf("status %s\n", s == FL_OK ? "converged" : "not converged (iteration limit)");
    rc = s == FL_OK ? 0 : 1;
    if (out) {
        fl_status w;
        if (g) {
            w = fl_fclib_write_global(out, g, "frictionlab solve", &err);
            if (w == FL_OK) w = fl_fclib_solution_alloc(g->n, p->m, &sol, &err);
            if (w == FL_OK) {
                gsl_vector_view v = gsl_vector_view_array(sol->v, g->n);
                gsl_vector_memcpy(&v.vector, g->f);
                if (g->H) {
                    /* v = M^-1 (f + H^T r)  (003 §3, fl_problem.h) */
                    gsl_blas_dgemv(CblasTrans, 1.0, g->H, r, 1.0, &v.vector);
                    fl_spd *spd = NULL;
                    w = fl_spd_alloc(g->M, &spd, &err);
                    if (w == FL_OK) w = fl_spd_solve(spd, &v.vector, &v.vector);
                    fl_spd_free(spd);
                } else {
                    add_sparse_HTr(g->Hs, r->data, sol->v);
                    if (!L) w = fl_sparse_factor(&ctx, g->Ms, &L, &err);
                    if (w == FL_OK) w = fl_sparse_solve(&ctx, L, sol->v, sol->v, &err);
                }
            }
        } else {
            w = fl_fclib_write_local(out, p, "frictionlab solve", &err);
            if (w == FL_OK) w = fl_fclib_solution_alloc(0, p->m, &sol, &err);
        }
        if (w == FL_OK) {
            memcpy(sol->r, r->data, p->m * sizeof(double));
            memcpy(sol->u, U->data, p->m * sizeof(double));
            w = fl_fclib_write_solution(out, sol, &err);
        }
        if (w != FL_OK) {
            s = w;
            rc = 2;
            goto done;
        }
        printf("solution written to %s (FCLIB)\n", out);
    }
done:
    if (s < 0) {
        print_error("solve", &err);
        rc = 2;
    }
    fl_fclib_solution_free(sol);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    fl_sparse_free_factor(&ctx, &L);
    fl_sparse_finish(&ctx);
    return rc;
}

/* ------------------------------------------------------------------ */
/* crosscheck --solver-cmd CMD                                         */
/* ------------------------------------------------------------------ */

/* Append s to the command, single-quoted for sh. */
static int append_quoted(char *buf, size_t len, size_t *at, const char *s)
{
    if (*at + 1 >= len) return -1;
    buf[(*at)++] = '\'';
    for (; *s; s++) {
        if (*s == '\'') {
            if (*at + 4 >= len) return -1;
            memcpy(buf + *at, "'\\''", 4);
            *at += 4;
        } else {
            if (*at + 1 >= len) return -1;
            buf[(*at)++] = *s;
        }
    }
    if (*at + 1 >= len) return -1;
    buf[(*at)++] = '\'';
    buf[*at] = '\0';
    return 0;
}

/* CMD with {in} and {out} replaced by shell-quoted paths. */
static int build_command(const char *tmpl, const char *in, const char *out, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    while (*tmpl) {
        if (strncmp(tmpl, "{in}", 4) == 0) {
            if (append_quoted(buf, len, &at, in) != 0) return -1;
            tmpl += 4;
        } else if (strncmp(tmpl, "{out}", 5) == 0) {
            if (append_quoted(buf, len, &at, out) != 0) return -1;
            tmpl += 5;
        } else {
            if (at + 1 >= len) return -1;
            buf[at++] = *tmpl++;
            buf[at] = '\0';
        }
    }
    return 0;
}

/* One random Coulomb local problem (seed-determined): a random global
 * problem (fl_global_problem_random, proofs/README.md) and its Delassus data. */
static fl_local_problem *random_problem(unsigned long seed)
{
    gsl_rng *rng = fl_rng_alloc(seed);
    if (!rng) return NULL;
    int dim = 2 + (int)(seed % 2);
    size_t nc = 1 + gsl_rng_uniform_int(rng, 4);
    size_t n = (size_t)dim * nc + gsl_rng_uniform_int(rng, 3);
    double mu_hi = gsl_rng_uniform(rng) < 0.5 ? 1.0 : 10.0;
    fl_global_problem *g = NULL;
    fl_local_problem *p = NULL;
    if (fl_global_problem_random(rng, n, nc, dim, 0.01, mu_hi, &g, NULL) == FL_OK)
        fl_delassus_dense(g, &p, NULL);
    fl_global_problem_free(g);
    gsl_rng_free(rng);
    return p;
}

int fl_cli_solver_cmd_crosscheck(fl_cli_ctx *ctx)
{
    const double tol = 1e-6;          /* accepted natural-map error and violations */
    if (strcmp(ctx->law, "all") != 0 && strcmp(ctx->law, "nsgs") != 0) {
        fprintf(stderr, "crosscheck --solver-cmd: law '%s' has no FCLIB problems; use --law nsgs\n",
                ctx->law);
        return -1;
    }
    char dir[] = "/tmp/frictionlab-crosscheck-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "crosscheck --solver-cmd: cannot create a directory under /tmp\n");
        return -1;
    }
    fprintf(stderr, "crosscheck --solver-cmd: problems and solutions in %s\n", dir);
    long failed0 = ctx->failed;
    for (long k = 0; k < ctx->systems; k++) {
        unsigned long seed = ctx->seed * 1000003UL + (unsigned long)k;
        char in[256], out[256], cmd[4096], name[64];
        snprintf(in, sizeof in, "%s/problem_%04ld.hdf5", dir, k);
        snprintf(out, sizeof out, "%s/solution_%04ld.hdf5", dir, k);
        snprintf(name, sizeof name, "solver_cmd.problem_%04ld", k);
        fl_local_problem *p = random_problem(seed);
        fl_error err;
        fl_error_clear(&err);
        if (!p || fl_fclib_write_local(in, p, "frictionlab crosscheck", &err) != FL_OK) {
            fl_cli_check(ctx, 0, name, "could not write the problem %s: %s", in, err.message);
            fl_local_problem_free(p);
            continue;
        }
        if (build_command(ctx->solver_cmd, in, out, cmd, sizeof cmd) != 0) {
            fl_cli_check(ctx, 0, name, "command too long");
            fl_local_problem_free(p);
            continue;
        }
        fflush(stdout);
        int st = system(cmd);
        int code = st == -1 ? -1 : (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        fl_fclib_solution *sol = NULL;
        if (fl_fclib_read_solution(out, &sol, &err) != FL_OK || sol->m != p->m) {
            fl_cli_check(ctx, 0, name, "command exit %d; no solution read from %s: %s", code, out,
                         err.message);
            fl_fclib_solution_free(sol);
            fl_local_problem_free(p);
            continue;
        }
        /* U recomputed from the problem (the command's u is not trusted) */
        gsl_vector_view rv = gsl_vector_view_array(sol->r, p->m);
        gsl_vector *U = gsl_vector_alloc(p->m), *rref = gsl_vector_calloc(p->m);
        double e = INFINITY;
        fl_residual_local(p, &rv.vector, U, FL_RESIDUAL_NORM_Q, &e, NULL);
        double rs, us;
        fl_enum_scales(p, &rs, &us);
        double cone = 0;
        for (size_t a = 0; a < p->nc; a++) {
            const double *ra = sol->r + a * (size_t)p->dim;
            double t = p->dim == 2 ? fabs(ra[1]) : hypot(ra[1], ra[2]);
            cone = fmax(cone, fmax(-ra[0], t - p->mu[a] * ra[0]) / rs);
        }
        double viol = fl_coulomb_violation(p->dim, p->nc, p->mu, sol->r, U->data, rs, us);
        /* reference: our NSGS; uniqueness decided by enumeration in 2D */
        fl_nsgs_options opt = fl_nsgs_options_default();
        opt.tol = 1e-12;
        opt.max_sweeps = 20000;
        fl_nsgs_result res;
        fl_status rs_ok = fl_nsgs_solve(p, &opt, rref, NULL, &res, NULL);
        char dist[200];
        int ok_dist = 1;
        if (p->dim == 2) {
            fl_enum_result *en = NULL;
            if (fl_enumerate_solutions(p, 1e-10, &en, NULL) == FL_OK && en->nsol == 1 &&
                en->singular == 0) {
                double d = 0, nr = 0;
                for (size_t i = 0; i < p->m; i++) {
                    d = fmax(d, fabs(sol->r[i] - en->sol[i]));
                    nr = fmax(nr, fabs(en->sol[i]));
                }
                d /= 1 + nr;
                ok_dist = d <= 1e-5;
                snprintf(dist, sizeof dist, "dist to the unique solution %.2e (tol 1e-5; enumeration, "
                         "our nsgs %s)", d, rs_ok == FL_OK ? "converged too" : "did not converge");
            } else {
                snprintf(dist, sizeof dist, "solution not unique (enumeration: %zu isolated, %zu "
                         "singular cases): residual only", en ? en->nsol : 0, en ? en->singular : 0);
            }
            fl_enum_result_free(en);
        } else {
            double d = 0, nr = 0;
            for (size_t i = 0; i < p->m; i++) {
                d = fmax(d, fabs(sol->r[i] - gsl_vector_get(rref, i)));
                nr = fmax(nr, fabs(gsl_vector_get(rref, i)));
            }
            snprintf(dist, sizeof dist, "3D: uniqueness not decided, residual only (|r - r_nsgs|/(1+|r|) "
                     "= %.2e, for information)", d / (1 + nr));
        }
        int ok = code == 0 && e <= tol && cone <= tol && viol <= tol && ok_dist;
        fl_cli_check(ctx, ok, name,
                     "dim %d nc %zu: exit %d, natural-map error %.2e (/||q||, tol %.0e), cone "
                     "%.2e, Coulomb/complementarity %.2e (tol %.0e); %s",
                     p->dim, p->nc, code, e, tol, cone, viol, tol, dist);
        gsl_vector_free(U);
        gsl_vector_free(rref);
        fl_fclib_solution_free(sol);
        fl_local_problem_free(p);
        fl_cli_progress(ctx, "solver-cmd", k + 1, ctx->systems);
    }
    if (ctx->failed == failed0) {
        char rm[128];
        snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
        if (system(rm) != 0) fprintf(stderr, "crosscheck --solver-cmd: could not remove %s\n", dir);
    } else {
        fprintf(stderr, "crosscheck --solver-cmd: failing problems kept in %s\n", dir);
    }
    return 0;
}
