/* xval_cmd.c — `frictionlab crosscheck --solver-cmd CMD`: prints one
 * PASS/FAIL line per problem and writes the report files; the families,
 * the certified answers and the measures are library code (checks/xval.h).
 * The same run with a solver called in-process instead of a command
 * (fl_cli_xval_crosscheck_fn, for the Python module's crosscheck).
 * See xval_cmd.h. */
#include "xval_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checks/suite.h"
#include "checks/xval.h"
#include "fl_data.h"
#include "options.h"
#include "fl_dense.h"

int fl_cli_xval_parse_timeout(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !(v > 0) || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

typedef struct row {
    int family;
    double user_t, our_t;   /* +inf when not solved; with a command, our_t is the
                               wall time of ours run as a process (ours_as_process) */
} row;

/* CSV field text: double quotes become single quotes (the field is quoted). */
static const char *csv_text(char *s)
{
    for (char *c = s; *c; c++)
        if (*c == '"' || *c == '\n') *c = '\'';
    return s;
}

/* The solver under test: a command (cmd) or an in-process function (fn). */
typedef struct sut {
    const char *cmd;
    fl_xval_solver_fn fn;
    void *user;
    const char *label;      /* the command, or the function's name */
} sut;

/* Summary by family (text file and stderr) and the performance profile. */
static void report(fl_cli_ctx *ctx, const row *rows, size_t n, const sut *u)
{
    char path[4096];
    FILE *f = NULL;
    if (fl_cli_out_path(ctx, "xval_summary.txt", path, sizeof path) == 0) f = fopen(path, "w");
    if (f) fprintf(f, "crosscheck %s \"%s\"\n", u->fn ? "in-process" : "--solver-cmd", u->label);
    const char *how = u->fn ? "times: yours = wall time of the in-process call; ours = in-process "
                              "solve to the same tolerance (both in this process)\n"
                            : "times: yours = wall time of the command; ours = wall time of "
                              "`frictionlab solve --solver auto` run as a process on the same "
                              "problem file with the same protocol ({in} {out} {tol}); both "
                              "include process start and file I/O\n";
    const char *head = "family     problems  solved  failed  median s yours  median s ours  "
                       "median time ratio (yours/ours, both solved)\n";
    fputs(how, stderr);
    fputs(head, stderr);
    if (f) fputs(how, f);
    if (f) fputs(head, f);
    double *ratio = malloc((n ? n : 1) * sizeof *ratio);
    double *tu = malloc((n ? n : 1) * sizeof *tu), *to = malloc((n ? n : 1) * sizeof *to);
    for (int fam = 0; fam < FL_XVAL_NFAMILY && ratio && tu && to; fam++) {
        size_t np = 0, ok = 0, nr = 0;
        for (size_t i = 0; i < n; i++) {
            if (rows[i].family != fam) continue;
            np++;
            if (isfinite(rows[i].user_t)) ok++;
            if (isfinite(rows[i].user_t) && isfinite(rows[i].our_t) && rows[i].our_t > 0) {
                tu[nr] = rows[i].user_t;
                to[nr] = rows[i].our_t;
                ratio[nr++] = rows[i].user_t / rows[i].our_t;
            }
        }
        if (np == 0) continue;
        char med[160] = "     -              -  -";
        if (nr) {
            snprintf(med, sizeof med, "%14.3g %14.3g  %.3g (%zu problems)",
                     fl_dense_median_finite(tu, nr), fl_dense_median_finite(to, nr),
                     fl_dense_median_finite(ratio, nr), nr);
        }
        char line[256];
        snprintf(line, sizeof line, "%-10s %8zu %7zu %7zu %s\n",
                 fl_xval_family_name((fl_xval_family)fam), np, ok, np - ok, med);
        fputs(line, stderr);
        if (f) fputs(line, f);
    }
    free(ratio);
    free(tu);
    free(to);
    fl_xval_run base;
    if (!u->fn && fl_xval_spawn("true", 10, NULL, &base, NULL) == FL_OK) {
        fprintf(stderr, "(starting a command through /bin/sh alone takes %.3g s here)\n", base.seconds);
        if (f) fprintf(f, "starting a command through /bin/sh alone takes %.3g s here\n", base.seconds);
    }
    if (f) fclose(f);

    /* Dolan-More profile: rho_s(tau) on a log2 grid. */
    double *t = malloc((n ? 2 * n : 2) * sizeof *t);
    if (!t) return;
    double tmax = 1;
    for (size_t i = 0; i < n; i++) {
        t[2 * i] = rows[i].user_t;
        t[2 * i + 1] = rows[i].our_t;
        double best = fmin(t[2 * i], t[2 * i + 1]);
        for (int s = 0; s < 2; s++)
            if (isfinite(t[2 * i + s]) && best > 0) tmax = fmax(tmax, t[2 * i + s] / best);
    }
    char csv[4096], png[4096];
    if (fl_cli_out_path(ctx, "xval_profile.csv", csv, sizeof csv) != 0 ||
        fl_cli_out_path(ctx, "xval_profile.png", png, sizeof png) != 0) {
        free(t);
        return;
    }
    FILE *c = fopen(csv, "w");
    if (!c) {
        fprintf(stderr, "crosscheck --solver-cmd: cannot write %s\n", csv);
        free(t);
        return;
    }
    fprintf(c, "log2_tau,rho_yours,rho_ours\n");
    double top = ceil(log2(tmax)) + 1;
    for (double l = 0; l <= top + 1e-9; l += top / 200) {
        double tau = pow(2.0, l);
        fprintf(c, "%.6g,%.6g,%.6g\n", l, fl_xval_profile_rho(t, n, 0, tau),
                fl_xval_profile_rho(t, n, 1, tau));
    }
    fclose(c);
    free(t);
    char script[9000];
    snprintf(script, sizeof script,
             "set terminal pngcairo size 800,500\nset output '%s'\n"
             "set datafile separator ','\nset key bottom right\n"
             "set xlabel 'log2(tau): time within a factor tau of the faster'\n"
             "set ylabel 'fraction of problems solved'\nset yrange [0:1.05]\n"
             "set title 'Performance profile (Dolan-More), %zu problems'\n"
             "plot '%s' using 1:2 skip 1 with steps lw 2 title 'your solver', "
             "'' using 1:3 skip 1 with steps lw 2 title 'ours (%s)'\n",
             png, n, csv, fl_xval_our_solver_name());
    if (fl_cli_gnuplot(script) != 0)
        fprintf(stderr, "crosscheck --solver-cmd: no profile PNG (gnuplot failed)\n");
}

/* A passed problem's files: the problem, the answer, its logs. */
static void remove_problem_files(const char *in, const char *out)
{
    char path[4300];
    remove(in);
    remove(out);
    snprintf(path, sizeof path, "%s.log", out);
    remove(path);
    snprintf(path, sizeof path, "%s.stderr", out);
    remove(path);
}

/* ------------------------------------------------------------------ */
/* the problem directory: removed on every exit path, signals included */
/* ------------------------------------------------------------------ */

static char tmp_dir[64];                 /* "" when there is none to remove */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction previous[3];

/* A file or directory tree under path, removed.  0 or -1. */
static int remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return remove(path) == 0 || errno == ENOENT ? 0 : -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4400];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (remove_tree(sub) != 0) rc = -1;
    }
    closedir(d);
    return rmdir(path) == 0 && rc == 0 ? 0 : -1;
}

/* SIGINT, SIGTERM, SIGHUP during a run: the command's process group
 * killed, the directory removed (fork + exec of rm: async-signal-safe),
 * then the signal re-raised with its default action. */
static void on_signal(int sig)
{
    int group = fl_xval_spawn_running();
    if (group > 0) kill(-group, SIGKILL);
    if (tmp_dir[0]) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/rm", "rm", "-rf", tmp_dir, (char *)NULL);
            _exit(127);
        }
        if (pid > 0)
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard_dir(const char *dir)
{
    snprintf(tmp_dir, sizeof tmp_dir, "%s", dir);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof caught / sizeof caught[0]; k++)
        sigaction(caught[k], &sa, &previous[k]);
}

static void unguard_dir(void)
{
    for (size_t k = 0; k < sizeof caught / sizeof caught[0]; k++)
        sigaction(caught[k], &previous[k], NULL);
    tmp_dir[0] = '\0';
}

/* Our solver run as a process on the problem file `in` of the command
 * under test, with the same protocol (fl_cli_ours_command, fl_suite_run):
 * its wall time when its rechecked answer meets opt->tol (natural-map
 * error / ||q||) within opt->timeout, +inf otherwise; *seconds its wall
 * time either way (NAN if it could not run). */
static double ours_as_process(const fl_local_problem *p, const char *in, const char *dir,
                              const char *name, const fl_xval_options *opt, double *seconds)
{
    char tmpl[8300], out[4200];
    fl_cli_ours_command(fl_xval_our_solver_name(), tmpl, sizeof tmpl);
    snprintf(out, sizeof out, "%s/%s.ours.hdf5", dir, name);
    fl_suite_row r;
    memset(&r, 0, sizeof r);
    fl_error e;
    fl_error_clear(&e);
    double t = INFINITY;
    *seconds = NAN;
    if (fl_suite_run(p, tmpl, opt->tol, opt->timeout, in, out, &r, &e) == FL_OK) {
        *seconds = r.seconds;
        if (!r.timed_out && r.have_solution && r.err[FL_SUITE_NORM_Q] <= opt->tol) t = r.seconds;
    }
    free(r.note);
    /* our answer and its log serve the timing only */
    char log[4300];
    snprintf(log, sizeof log, "%s.log", out);
    remove(out);
    remove(log);
    return t;
}

/* One problem of a family: certify, run the solver under test, print the
 * PASS/FAIL line, write the CSV row and fill rw (a harness error is a
 * FAIL line). */
static void one_problem(fl_cli_ctx *ctx, const sut *u, const char *dir, fl_xval_case *c,
                        const fl_xval_options *opt, FILE *csv, row *rw)
{
    const char *method_name[3] = {"none", "enumeration", fl_xval_our_solver_name()};
    const char *fam = fl_xval_family_name(c->family);
    fl_error err;
    fl_error_clear(&err);
    if (!c->p) {
        fl_cli_check(ctx, 0, c->name, "%s", c->error);
        fprintf(csv, "%s,%s,,,unavailable,,,,,,,,,,,,,,,\"%s\"\n", c->name, fam,
                csv_text(c->error));
        return;
    }
    fl_xval_certificate cert;
    fl_xval_result res;
    char kept[4300] = "";
    double our_proc = INFINITY, our_proc_s = NAN;
    memset(&cert, 0, sizeof cert);
    fl_status s = fl_xval_certify(c->p, &cert, &err);
    if (s == FL_OK && u->fn) {
        s = fl_xval_check_fn(c, &cert, u->fn, u->user, opt, &res, &err);
    } else if (s == FL_OK) {
        char in[4200], out[4200];
        snprintf(in, sizeof in, "%s/%s.hdf5", dir, c->name);
        snprintf(out, sizeof out, "%s/%s.solution.hdf5", dir, c->name);
        s = fl_xval_check(c, &cert, u->cmd, in, out, opt, &res, &err);
        if (s == FL_OK) our_proc = ours_as_process(c->p, in, dir, c->name, opt, &our_proc_s);
        if (s == FL_OK && res.pass) remove_problem_files(in, out);   /* keep failures only */
        if (s == FL_OK && !res.pass)
            snprintf(kept, sizeof kept, "; files kept: %s/%s.*", dir, c->name);
    }
    if (s != FL_OK) {
        fl_cli_check(ctx, 0, c->name, "harness error: %s", err.message);
        fl_xval_certificate_clear(&cert);
        return;
    }
    const fl_local_problem *p = c->p;
    char dist[128] = "";
    if (!isnan(res.dist))
        snprintf(dist, sizeof dist, ", distance %.2e to the unique solution", res.dist);
    if (res.pass)
        fl_cli_check(ctx, 1, c->name,
                     "dim %d nc %zu: %s in %.3g s, natural-map error %.2e, cone "
                     "%.1e, complementarity %.1e (tol %.0e), Coulomb %.1e (tol %.0e)%s; "
                     "certified: %s",
                     p->dim, p->nc, u->fn ? "returned" : "exit 0", res.run.seconds,
                     res.law.error, res.law.cone, res.law.complementarity, opt->tol,
                     res.law.coulomb, opt->coulomb_tol, dist, cert.note);
    else
        fl_cli_check(ctx, 0, c->name, "dim %d nc %zu: %s; certified: %s%s", p->dim, p->nc,
                     res.reason, cert.note, kept);
    if (res.pass) rw->user_t = res.run.seconds;
    if (u->fn && res.ours_solved) rw->our_t = res.ours_seconds;
    if (!u->fn) rw->our_t = our_proc;
    fprintf(csv, "%s,%s,%d,%zu,%s,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%s,%.6g,%.6g,%d,%.6g,\"%s\"\n",
            c->name, fam, p->dim, p->nc, res.pass ? "pass" : "fail", res.run.exit_code,
            res.run.timed_out, res.run.seconds, res.law.error, res.law.cone,
            res.law.complementarity, res.law.coulomb, res.dist, cert.unique,
            method_name[cert.method], cert.method ? cert.error : NAN, res.ours_seconds,
            res.ours_solved, our_proc_s, csv_text(res.reason));
    fl_xval_certificate_clear(&cert);
}

/* The families of the mask, each problem through one_problem; rows of the
 * summary into *rows.  0, or -1 when out of memory. */
static int run_families(fl_cli_ctx *ctx, const sut *u, const char *dir, unsigned mask,
                        const fl_xval_options *opt, FILE *csv, row **rows, size_t *nrows)
{
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, &err) != FL_OK) {
        fprintf(stderr, "crosscheck: %s\n", err.message);
        return -1;
    }
    size_t caprows = 0;
    int rc = 0;
    for (int fam = 0; fam < FL_XVAL_NFAMILY && rc == 0; fam++) {
        if (!(mask & (1u << fam))) continue;
        const char *fname = fl_xval_family_name((fl_xval_family)fam);
        size_t count = 0;
        if (fl_xval_family_count((fl_xval_family)fam, opt, &count, &err) != FL_OK) {
            fl_cli_check(ctx, 0, fname, "family not available: %s", err.message);
            continue;
        }
        for (size_t k = 0; k < count; k++) {
            fl_xval_case c;
            if (fl_xval_case_make((fl_xval_family)fam, k, opt, &sctx, &c, &err) != FL_OK) {
                fl_cli_check(ctx, 0, fname, "problem %zu could not be made: %s", k, err.message);
                continue;
            }
            if (*nrows == caprows) {
                caprows = caprows ? 2 * caprows : 64;
                row *nr = realloc(*rows, caprows * sizeof *nr);
                if (!nr) {
                    fl_xval_case_clear(&c);
                    rc = -1;
                    break;
                }
                *rows = nr;
            }
            row *rw = &(*rows)[(*nrows)++];
            rw->family = fam;
            rw->user_t = rw->our_t = INFINITY;
            one_problem(ctx, u, dir, &c, opt, csv, rw);
            fl_xval_case_clear(&c);
            fl_cli_progress(ctx, fname, (long)k + 1, (long)count);
        }
    }
    fl_sparse_finish(&sctx);
    return rc;
}

static int crosscheck(fl_cli_ctx *ctx, const sut *u)
{
    fl_error err;
    fl_error_clear(&err);
    if (strcmp(ctx->law, "all") != 0 && strcmp(ctx->law, "nsgs") != 0) {
        fprintf(stderr, "crosscheck --solver-cmd: law '%s' has no FCLIB problems; use --law nsgs\n",
                ctx->law);
        return -1;
    }
    unsigned mask = 0;
    if (fl_xval_family_parse(ctx->family ? ctx->family : "random", &mask, &err) != FL_OK) {
        fprintf(stderr, "crosscheck --solver-cmd: %s\n", err.message);
        return -1;
    }
    fl_xval_options opt = fl_xval_options_default();
    if (ctx->systems_set) opt.per_family = ctx->systems;
    if (ctx->timeout > 0) opt.timeout = ctx->timeout;
    opt.full = ctx->full;
    opt.seed = ctx->seed;
    const char *corpus_why = NULL;
    opt.corpus_dir = fl_data_corpus_dir(ctx->corpus_dir, &corpus_why);
    if (mask & (1u << FL_XVAL_CORPUS))
        fprintf(stderr, "crosscheck --solver-cmd: corpus %s (%s)\n", opt.corpus_dir, corpus_why);

    /* a command reads and writes its problems in files: a directory for them */
    char dir[] = "/tmp/frictionlab-crosscheck-XXXXXX";
    if (!u->fn && !mkdtemp(dir)) {
        fprintf(stderr, "crosscheck --solver-cmd: cannot create a directory under /tmp\n");
        return -1;
    }
    if (!u->fn) {
        guard_dir(dir);
        fprintf(stderr, "crosscheck --solver-cmd: problems and solutions in %s\n", dir);
    }
    char csvpath[4096];
    FILE *csv = NULL;
    if (fl_cli_out_path(ctx, "xval.csv", csvpath, sizeof csvpath) == 0) csv = fopen(csvpath, "w");
    if (!csv) {
        fprintf(stderr, "crosscheck --solver-cmd: cannot write xval.csv in %s\n", ctx->out_dir);
        if (!u->fn) {
            rmdir(dir);   /* still empty */
            unguard_dir();
        }
        return -1;
    }
    fprintf(csv, "problem,family,dim,nc,status,exit,timed_out,seconds,error,cone,"
                 "complementarity,coulomb,dist,unique,certificate,cert_error,ours_seconds,"
                 "ours_solved,ours_process_seconds,reason\n");
    long failed0 = ctx->failed;
    row *rows = NULL;
    size_t nrows = 0;
    int rc = run_families(ctx, u, dir, mask, &opt, csv, &rows, &nrows);
    fclose(csv);
    if (rc == 0) report(ctx, rows, nrows, u);
    free(rows);
    if (u->fn) return rc;
    unguard_dir();
    if (ctx->failed == failed0 || rc != 0) {
        if (remove_tree(dir) != 0) fprintf(stderr, "crosscheck --solver-cmd: could not remove %s\n", dir);
    } else if (rmdir(dir) != 0) {   /* not empty: the failing problems' files are left in it */
        fprintf(stderr, "crosscheck --solver-cmd: failing problems kept in %s\n", dir);
    }
    return rc;
}

int fl_cli_xval_crosscheck(fl_cli_ctx *ctx)
{
    sut u = {ctx->solver_cmd, NULL, NULL, ctx->solver_cmd};
    /* `frictionlab` in CMD is this very program, from any directory */
    if (fl_cli_path_self_first() != 0)
        fprintf(stderr, "crosscheck --solver-cmd: cannot find this program's directory; PATH unchanged\n");
    return crosscheck(ctx, &u);
}

int fl_cli_xval_crosscheck_fn(fl_cli_ctx *ctx, fl_xval_solver_fn fn, void *user,
                              const char *label)
{
    if (!fn) return -1;
    sut u = {NULL, fn, user, label ? label : "function"};
    return crosscheck(ctx, &u);
}
