/* bench_suite.c — `frictionlab bench suite` and `frictionlab bench merge`
 * (README, Benchmarks of the field; the library part: checks/suite.h, one run; report/fl_suite.h, the results).
 *
 * suite: every solver (outside commands, ours as `frictionlab solve`
 * processes, Siconos's through frictionlab-peer-siconos) on every problem of
 * the sets at every tolerance; the runs of a problem stay together, so a
 * shard K/N (problems i with i mod N = K - 1) and a worker of -j hold whole
 * problems.  merge: joins the shards' suite.json.  Both write suite.json,
 * suite.csv, profile_<tol>.png and report.html in --out. */
#include "bench_suite.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fl_data.h"
#include "fl_clock.h"
#include "fl_fclib.h"
#include "fl_sparse.h"
#include "suite.h"
#include "xval.h"
#include "options.h"

#define EXIT_USAGE 2

typedef struct prob {
    char set[64];
    int family;          /* fl_xval_family, -1: a file of a directory without manifest */
    size_t k;
    char dir[2048];      /* corpus directory, or the directory of the file */
    char file[512];
} prob;

typedef struct suite_opts {
    const char *out;
    const char *corpus;
    int quick, full, jobs, shard_k, shard_n, max_iter;
    unsigned long seed;
    const char *sets;
} suite_opts;

static void suite_help(FILE *f)
{
    fl_cli_cmd_help(f, fl_cli_cmd_find("bench suite"));
}

/* ------------------------------------------------------------------ */
/* the machine and the solvers                                         */
/* ------------------------------------------------------------------ */

static void peer_path(char *buf, size_t len)
{
    const char *env = getenv("FL_PEER_SICONOS");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return;
    }
    char self[4096];
    fl_cli_self_path(self, sizeof self);
    char *slash = strrchr(self, '/');
    if (slash) {
        *slash = '\0';
        snprintf(buf, len, "%.3900s/bench/frictionlab-peer-siconos", self);
        if (access(buf, X_OK) == 0) return;
    }
    snprintf(buf, len, "frictionlab-peer-siconos");
}

/* The output of a command (at most len bytes), "" if it fails. */
static void capture(const char *cmd, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p) return;
    size_t n = fread(buf, 1, len - 1, p);
    buf[n] = '\0';
    pclose(p);
}

static void machine(fl_suite *s, int with_peer)
{
    char line[512], cpu[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) snprintf(cpu, sizeof cpu, "%s", c + 2);
            cpu[strcspn(cpu, "\n")] = '\0';
            break;
        }
    if (f) fclose(f);
    fl_suite_set(&s->cpu, cpu);
    s->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    char self[4096], peer[4096], cmd[8300], v[4096] = "", pv[512] = "";
    fl_cli_self_path(self, sizeof self);
    snprintf(cmd, sizeof cmd, "'%s' --version 2>&1", self);
    capture(cmd, v, sizeof v);
    if (with_peer) {
        peer_path(peer, sizeof peer);
        snprintf(cmd, sizeof cmd, "'%s' --version 2>&1", peer);
        capture(cmd, pv, sizeof pv);
        strncat(v, pv, sizeof v - strlen(v) - 1);
    }
    fl_suite_set(&s->versions, v);
}

/* "a,b,c" -> calls add(word) */
static int split(const char *list, int (*add)(void *, const char *), void *u)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (add(u, w) != 0) return -1;
    return 0;
}

typedef struct adder {
    fl_suite *s;
    int max_iter;
} adder;

static int add_ours(void *u, const char *w)
{
    adder *a = u;
    if (strcmp(w, "gs") && strcmp(w, "newton") && strcmp(w, "auto") && strcmp(w, "ppa")) {
        fprintf(stderr, "frictionlab bench suite: --ours: unknown solver '%s' (gs, newton, auto, ppa)\n", w);
        return -1;
    }
    char cmd[8300], name[64];
    fl_cli_ours_command(w, cmd, sizeof cmd);
    snprintf(name, sizeof name, "ours:%s", w);
    return fl_suite_solver_add(a->s, name, "ours", cmd, NAN) == FL_OK ? 0 : -1;
}

static int add_peer(void *u, const char *w)
{
    adder *a = u;
    static const char *const known[] = {"nsgs", "nsn-ac", "nsn-fb", "prox", "admm", NULL};
    int ok = 0;
    for (int i = 0; known[i]; i++) ok |= strcmp(w, known[i]) == 0;
    if (!ok) {
        fprintf(stderr, "frictionlab bench suite: --peer: unknown Siconos solver '%s' "
                        "(nsgs, nsn-ac, nsn-fb, prox, admm)\n", w);
        return -1;
    }
    char peer[4096], cmd[8300], name[64];
    peer_path(peer, sizeof peer);
    snprintf(cmd, sizeof cmd, "'%s' {in} {out} --solver %s --tol {tol} --max-iter %d", peer, w,
             a->max_iter);
    snprintf(name, sizeof name, "siconos:%s", w);
    return fl_suite_solver_add(a->s, name, "peer", cmd, NAN) == FL_OK ? 0 : -1;
}

static int add_tol(void *u, const char *w)
{
    char *end;
    double t = strtod(w, &end);
    if (*end || !(t > 0) || !isfinite(t)) {
        fprintf(stderr, "frictionlab bench suite: --tol: '%s' is not a positive number\n", w);
        return -1;
    }
    return fl_suite_tol_add(u, t) == FL_OK ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* the problems                                                        */
/* ------------------------------------------------------------------ */

typedef struct plist {
    prob *v;
    size_t n, cap;
    const suite_opts *o;
    fl_xval_options xo;
} plist;

static int push(plist *L, const prob *p)
{
    if (L->n == L->cap) {
        size_t c = L->cap ? 2 * L->cap : 64;
        prob *w = realloc(L->v, c * sizeof *w);
        if (!w) return -1;
        L->v = w;
        L->cap = c;
    }
    L->v[L->n++] = *p;
    return 0;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && strcmp(s + n - m, suf) == 0;
}

static int cmp_prob(const void *a, const void *b)
{
    return strcmp(((const prob *)a)->file, ((const prob *)b)->file);
}

/* A directory: its manifest (the corpus family's reader) or every
 * .hdf5/.h5/.dat file in it. */
static int add_dir(plist *L, const char *dir)
{
    prob p;
    memset(&p, 0, sizeof p);
    const char *base = strrchr(dir, '/');
    snprintf(p.set, sizeof p.set, "%s", base && base[1] ? base + 1 : dir);
    snprintf(p.dir, sizeof p.dir, "%s", dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/sizes.tsv", dir);
    if (access(path, R_OK) == 0) {
        fl_xval_options xo = L->xo;
        xo.corpus_dir = dir;
        size_t n = 0;
        fl_error e;
        if (fl_xval_family_count(FL_XVAL_CORPUS, &xo, &n, &e) != FL_OK) {
            fprintf(stderr, "frictionlab bench suite: --set %s: %s\n", dir, e.message);
            return -1;
        }
        p.family = FL_XVAL_CORPUS;
        for (p.k = 0; p.k < n; p.k++)
            if (push(L, &p)) return -1;
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "frictionlab bench suite: --set %s: not a family name nor a readable "
                        "directory (%s)\n", dir, strerror(errno));
        return -1;
    }
    size_t first = L->n;
    struct dirent *e;
    p.family = -1;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && (has_suffix(e->d_name, ".hdf5") || has_suffix(e->d_name, ".h5") ||
                                    has_suffix(e->d_name, ".dat"))) {
            snprintf(p.file, sizeof p.file, "%s", e->d_name);
            if (push(L, &p)) {
                closedir(d);
                return -1;
            }
        }
    closedir(d);
    qsort(L->v + first, L->n - first, sizeof *L->v, cmp_prob);
    if (L->n == first) fprintf(stderr, "frictionlab bench suite: --set %s: no .hdf5/.dat file\n", dir);
    return 0;
}

static int add_set(void *u, const char *w)
{
    plist *L = u;
    for (int f = 0; f < FL_XVAL_NFAMILY; f++) {
        if (strcmp(w, fl_xval_family_name((fl_xval_family)f)) != 0) continue;
        if (f == FL_XVAL_CORPUS) {
            prob p;
            memset(&p, 0, sizeof p);
            fl_xval_options xo = L->xo;
            size_t n = 0;
            fl_error e;
            if (fl_xval_family_count(FL_XVAL_CORPUS, &xo, &n, &e) != FL_OK) {
                fprintf(stderr, "frictionlab bench suite: --set corpus: %s\n", e.message);
                return -1;
            }
            snprintf(p.set, sizeof p.set, "corpus");
            snprintf(p.dir, sizeof p.dir, "%s", xo.corpus_dir);
            p.family = f;
            for (p.k = 0; p.k < n; p.k++)
                if (push(L, &p)) return -1;
            return 0;
        }
        size_t n = 0;
        fl_xval_family_count((fl_xval_family)f, &L->xo, &n, NULL);
        prob p;
        memset(&p, 0, sizeof p);
        snprintf(p.set, sizeof p.set, "%s", w);
        p.family = f;
        for (p.k = 0; p.k < n; p.k++)
            if (push(L, &p)) return -1;
        return 0;
    }
    return add_dir(L, w);
}

static void make_case(const prob *p, const fl_xval_options *xo0, fl_sparse_ctx *ctx, fl_xval_case *c)
{
    if (p->family < 0) {
        char path[4096], name[128];
        snprintf(path, sizeof path, "%s/%s", p->dir, p->file);
        snprintf(name, sizeof name, "%.40s.%.80s", p->set, p->file);
        fl_xval_case_read(path, name, ctx, c);
        return;
    }
    fl_xval_options xo = *xo0;
    if (p->family == FL_XVAL_CORPUS) xo.corpus_dir = p->dir;
    fl_error e;
    if (fl_xval_case_make((fl_xval_family)p->family, p->k, &xo, ctx, c, &e) != FL_OK) {
        memset(c, 0, sizeof *c);
        snprintf(c->error, sizeof c->error, "%s", e.message);
    }
    if (p->family == FL_XVAL_CORPUS && strcmp(p->set, "corpus") != 0 && c->p) {
        char n[128];
        snprintf(n, sizeof n, "%.40s.%.80s", p->set, c->name + 7);   /* "corpus." */
        snprintf(c->name, sizeof c->name, "%s", n);
    }
}

/* ------------------------------------------------------------------ */
/* running                                                             */
/* ------------------------------------------------------------------ */

/* Fastest of 3 runs of each solver on a 1-contact problem, and of
 * `sh -c true`: the start cost every time of that solver includes. */
static void start_costs(fl_suite *s, const char *work)
{
    fl_xval_run run;
    double best = INFINITY;
    for (int i = 0; i < 3; i++)
        if (fl_xval_spawn("true", 10, NULL, &run, NULL) == FL_OK) best = fmin(best, run.seconds);
    s->shell_start = best;
    printf("start cost %-24s %8.2f ms\n", "sh -c true", 1e3 * best);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_xval_options xo = fl_xval_options_default();
    fl_xval_case c;
    char in[4096], out[4096];
    snprintf(in, sizeof in, "%s/trivial.hdf5", work);
    snprintf(out, sizeof out, "%s/trivial-out.hdf5", work);
    if (fl_sparse_start(&ctx, NULL) != FL_OK ||
        fl_xval_case_make(FL_XVAL_RANDOM, 1, &xo, &ctx, &c, NULL) != FL_OK || !c.p ||
        fl_fclib_write_local(in, c.p, "frictionlab bench suite: start cost", NULL) != FL_OK) {
        fprintf(stderr, "frictionlab bench suite: could not make the start-cost problem\n");
        fl_sparse_finish(&ctx);
        return;
    }
    for (size_t k = 0; k < s->nsolvers; k++) {
        best = INFINITY;
        for (int i = 0; i < 3; i++) {
            fl_suite_row r;
            memset(&r, 0, sizeof r);
            if (fl_suite_run(c.p, s->solvers[k].command, 1e-4, fmin(s->time_limit, 30), in, out,
                             &r, NULL) == FL_OK && !r.timed_out)
                best = fmin(best, r.seconds);
            free(r.note);
        }
        s->solvers[k].start_cost = best;
        printf("start cost %-24s %8.2f ms (1 contact, 3D, fastest of 3)\n", s->solvers[k].name,
               1e3 * best);
    }
    remove(in);
    fl_xval_case_clear(&c);
    fl_sparse_finish(&ctx);
}

/* Worker w of nw: the problems i of L with i mod nw == w, every tolerance
 * and solver, rows appended to s. */
static void worker(fl_suite *s, const plist *L, int w, int nw, const char *work)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    if (fl_sparse_start(&ctx, NULL) != FL_OK) return;
    char in[4096], out[4096];
    snprintf(in, sizeof in, "%s/w%d-in.hdf5", work, w);
    snprintf(out, sizeof out, "%s/w%d-out.hdf5", work, w);
    for (size_t i = (size_t)w; i < L->n; i += (size_t)nw) {
        fl_xval_case c;
        make_case(&L->v[i], &L->xo, &ctx, &c);
        fl_error e;
        if (!c.p || fl_fclib_write_local(in, c.p, "frictionlab bench suite", &e) != FL_OK) {
            fprintf(stderr, "frictionlab bench suite: %s: problem not available: %s\n",
                    c.name[0] ? c.name : L->v[i].set, c.p ? e.message : c.error);
            fl_xval_case_clear(&c);
            continue;
        }
        fprintf(stderr, "bench suite: [%zu/%zu] %s (%zu contacts, %dD)\n", i + 1, L->n, c.name,
                c.p->nc, c.p->dim);
        for (size_t t = 0; t < s->ntols; t++)
            for (size_t k = 0; k < s->nsolvers; k++) {
                fl_suite_row r;
                memset(&r, 0, sizeof r);
                if (fl_suite_run(c.p, s->solvers[k].command, s->tols[t], s->time_limit, in, out, &r,
                                 &e) != FL_OK) {
                    fprintf(stderr, "frictionlab bench suite: %s: %s\n", c.name, e.message);
                    free(r.note);
                    continue;
                }
                r.solver = s->solvers[k].name;
                r.problem = c.name;
                r.set = L->v[i].set;
                r.concurrent = nw > 1;
                fl_suite_row_add(s, &r);
                free(r.note);
            }
        remove(in);
        fl_xval_case_clear(&c);
    }
    fl_sparse_finish(&ctx);
}

/* -j N: N child processes, each a worker writing its rows to part<w>.json. */
static int run_parallel(fl_suite *s, const plist *L, int jobs, const char *work)
{
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    if (!pids) return -1;
    fflush(NULL);
    for (int w = 0; w < jobs; w++) {
        pids[w] = fork();
        if (pids[w] == 0) {
            fl_suite *part = fl_suite_alloc();
            int rc = 1;
            if (part) {
                for (size_t k = 0; k < s->nsolvers; k++)
                    fl_suite_solver_add(part, s->solvers[k].name, s->solvers[k].kind,
                                        s->solvers[k].command, s->solvers[k].start_cost);
                for (size_t t = 0; t < s->ntols; t++) fl_suite_tol_add(part, s->tols[t]);
                part->time_limit = s->time_limit;
                part->norm = s->norm;
                part->shift = s->shift;
                worker(part, L, w, jobs, work);
                char path[4096];
                snprintf(path, sizeof path, "%s/part%d.json", work, w);
                rc = fl_suite_write_json(part, path, NULL) == FL_OK ? 0 : 1;
            }
            fl_suite_free(part);
            _exit(rc);
        }
    }
    int bad = 0;
    for (int w = 0; w < jobs; w++) {
        int st = 0;
        if (pids[w] < 0 || waitpid(pids[w], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
            bad = 1;
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/part%d.json", work, w);
        fl_suite *part = NULL;
        fl_error e;
        if (fl_suite_read_json(path, &part, &e) != FL_OK || fl_suite_merge(s, part, &e) != FL_OK) {
            fprintf(stderr, "frictionlab bench suite: worker %d: %s\n", w, e.message);
            bad = 1;
        }
        fl_suite_free(part);
        remove(path);
    }
    free(pids);
    return bad ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* outputs                                                             */
/* ------------------------------------------------------------------ */

static int cmp_row(const void *a, const void *b)
{
    const fl_suite_row *x = a, *y = b;
    int c = strcmp(x->set, y->set);
    if (!c) c = strcmp(x->problem, y->problem);
    if (!c) c = x->tol < y->tol ? 1 : x->tol > y->tol ? -1 : 0;
    if (!c) c = strcmp(x->solver, y->solver);
    return c;
}

/* profile_<tol>.png through gnuplot: rho_s(tau), tau = 1..100 (log). */
static int profile_png(const fl_suite *s, const char *out, size_t t, char *png, size_t len)
{
    char dat[4096];
    snprintf(dat, sizeof dat, "%s/profile_%.0e.dat", out, s->tols[t]);
    snprintf(png, len, "%s/profile_%.0e.png", out, s->tols[t]);
    FILE *f = fopen(dat, "w");
    double *rho = malloc((s->nsolvers ? s->nsolvers : 1) * sizeof *rho);
    if (!f || !rho) {
        if (f) fclose(f);
        free(rho);
        return -1;
    }
    fprintf(f, "# tau");
    for (size_t k = 0; k < s->nsolvers; k++) fprintf(f, " %s", s->solvers[k].name);
    fputc('\n', f);
    for (int i = 0; i <= 200; i++) {
        double tau = pow(100.0, i / 200.0);
        fl_suite_profile(s, NULL, s->tols[t], tau, rho, NULL);
        fprintf(f, "%.6g", tau);
        for (size_t k = 0; k < s->nsolvers; k++) fprintf(f, " %.6g", rho[k]);
        fputc('\n', f);
    }
    fclose(f);
    free(rho);
    size_t cap = 4096 + 512 * s->nsolvers;
    char *g = malloc(cap);
    if (!g) return -1;
    size_t at = (size_t)snprintf(g, cap,
        "set terminal pngcairo size 900,560\nset output '%s'\nset logscale x\nset xrange [1:100]\n"
        "set yrange [0:1.02]\nset key bottom right\nset xlabel 'tau (time / best time)'\n"
        "set ylabel 'share of problems solved'\nset title 'performance profiles, tolerance %.0e "
        "(%s normalisation)'\nplot ", png, s->tols[t], fl_suite_norm_name(s->norm));
    for (size_t k = 0; k < s->nsolvers && at < cap; k++)
        at += (size_t)snprintf(g + at, cap - at, "%s'%s' using 1:%zu with steps lw 2 title '%s'",
                               k ? ", " : "", dat, k + 2, s->solvers[k].name);
    if (at < cap) snprintf(g + at, cap - at, "\n");
    int rc = fl_cli_gnuplot(g);
    free(g);
    return rc;
}

static void print_summary(const fl_suite *s)
{
    fl_suite_stats *st = calloc(s->nsolvers ? s->nsolvers : 1, sizeof *st);
    if (!st) return;
    for (size_t t = 0; t < s->ntols; t++) {
        if (fl_suite_stats_compute(s, NULL, s->tols[t], st, NULL) != FL_OK) break;
        printf("\ntolerance %.0e (%s normalisation), time limit %g s%s\n", s->tols[t],
               fl_suite_norm_name(s->norm), s->time_limit,
               s->jobs > 1 ? ", times measured under concurrency" : "");
        printf("  %-24s %6s %7s %14s %10s %9s %12s\n", "solver", "runs", "solved", "honest claims",
               "sgm (s)", "relative", "median err");
        for (size_t k = 0; k < s->nsolvers; k++) {
            char hc[32] = "-";
            if (st[k].claims)
                snprintf(hc, sizeof hc, "%zu/%zu %3.0f%%", st[k].honest, st[k].claims,
                         100.0 * (double)st[k].honest / (double)st[k].claims);
            printf("  %-24s %6zu %7zu %14s %10.4g %9.2f %12.2e\n", s->solvers[k].name, st[k].runs,
                   st[k].solved, hc, st[k].sgm, st[k].sgm_rel, st[k].median_err);
        }
    }
    free(st);
}

static int write_outputs(fl_suite *s, const char *out)
{
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "frictionlab bench: cannot create %s: %s\n", out, strerror(errno));
        return -1;
    }
    fl_suite_judge(s);
    qsort(s->rows, s->nrows, sizeof *s->rows, cmp_row);
    char path[4096];
    fl_error e;
    snprintf(path, sizeof path, "%s/suite.json", out);
    if (fl_suite_write_json(s, path, &e) != FL_OK) goto fail;
    snprintf(path, sizeof path, "%s/suite.csv", out);
    if (fl_suite_write_csv(s, path, &e) != FL_OK) goto fail;
    char (*pngs)[4096] = calloc(s->ntols ? s->ntols : 1, sizeof *pngs);
    const char **pp = calloc(s->ntols ? s->ntols : 1, sizeof *pp);
    for (size_t t = 0; pngs && pp && t < s->ntols; t++)
        if (profile_png(s, out, t, pngs[t], sizeof pngs[t]) == 0) pp[t] = pngs[t];
    snprintf(path, sizeof path, "%s/report.html", out);
    fl_status st = fl_suite_write_html(s, path, pp, &e);
    free(pngs);
    free(pp);
    if (st != FL_OK) goto fail;
    print_summary(s);
    printf("\nwrote %s/suite.json, suite.csv, report.html\n", out);
    return 0;
fail:
    fprintf(stderr, "frictionlab bench: %s\n", e.message);
    return -1;
}

/* ------------------------------------------------------------------ */
/* the commands                                                        */
/* ------------------------------------------------------------------ */

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "frictionlab bench suite: ");
    fprintf(stderr, fmt, arg ? arg : "");
    fputc('\n', stderr);
    fl_cli_cmd_short(stderr, fl_cli_cmd_find("bench suite"));
    return EXIT_USAGE;
}

static int parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* Options into s and o; returns -1 to go on, else the exit code. */
static int parse_suite(int argc, char **argv, fl_suite *s, suite_opts *o, const char **ours,
                       const char **peer, const char **tols, double *limit)
{
    struct option longs[24];
    char shorts[16];
    fl_cli_cmd_longopts(fl_cli_cmd_find("bench suite"), longs, 24, shorts, sizeof shorts);
    optind = 0;
    opterr = 0;
    int c;
    long v;
    char *end;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        switch (c) {
        case 'h': suite_help(stdout); return 0;
        case 'S': {
            const char *eq = strchr(optarg, '=');
            char name[64];
            if (!eq || eq == optarg || (size_t)(eq - optarg) >= sizeof name || !eq[1])
                return bad_usage("--solver takes NAME='CMD {in} {out}', not '%s'", optarg);
            snprintf(name, sizeof name, "%.*s", (int)(eq - optarg), optarg);
            if (!strstr(eq + 1, "{in}") || !strstr(eq + 1, "{out}"))
                return bad_usage("--solver %s: the command must contain {in} and {out}", name);
            if (fl_suite_solver_find(s, name) >= 0) return bad_usage("two solvers named '%s'", name);
            fl_suite_solver_add(s, name, "outside", eq + 1, NAN);
            break;
        }
        case 'O': *ours = optarg; break;
        case 'P':
            if (strncmp(optarg, "siconos:", 8) != 0 || !optarg[8])
                return bad_usage("--peer takes siconos:LIST, not '%s'", optarg);
            *peer = optarg + 8;
            break;
        case 'e': o->sets = optarg; break;
        case 't': *tols = optarg; break;
        case 'T':
            *limit = strtod(optarg, &end);
            if (*end || !(*limit > 0) || !isfinite(*limit))
                return bad_usage("--time-limit %s is not a positive number of seconds", optarg);
            break;
        case 'q': o->quick = 1; break;
        case 'f': o->full = 1; break;
        case 'j':
            if (parse_count(optarg, 1, 256, &v)) return bad_usage("-j %s is not in [1, 256]", optarg);
            o->jobs = (int)v;
            break;
        case 'k': {
            int k = 0, n = 0;
            char tail;
            if (sscanf(optarg, "%d/%d%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n)
                return bad_usage("--shard takes K/N with 1 <= K <= N, not '%s'", optarg);
            o->shard_k = k, o->shard_n = n;
            break;
        }
        case 'o': o->out = optarg; break;
        case 'n':
            if (fl_suite_norm_parse(optarg, &s->norm, NULL) != FL_OK)
                return bad_usage("--norm must be q, siconos or fclib, not '%s'", optarg);
            break;
        case 'c': o->corpus = optarg; break;
        case 's':
            if (parse_count(optarg, 0, LONG_MAX, &v)) return bad_usage("--seed %s is not a count", optarg);
            o->seed = (unsigned long)v;
            break;
        case 'm':
            if (parse_count(optarg, 1, 100000000, &v)) return bad_usage("--max-iter %s is not in [1, 1e8]", optarg);
            o->max_iter = (int)v;
            break;
        case ':': return bad_usage("option '%s' needs a value", argv[optind - 1]);
        default: return bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc) return bad_usage("unexpected argument '%s'", argv[optind]);
    if (o->quick && o->full) return bad_usage("--quick and --full exclude each other%s", NULL);
    return -1;
}

static void command_line(int argc, char **argv, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "frictionlab bench");
    for (int i = 0; i < argc && at < len; i++) {
        int q = strpbrk(argv[i], " '{}") != NULL;
        at += (size_t)snprintf(buf + at, len - at, q ? " '%s'" : " %s", argv[i]);
    }
}

int fl_cli_bench_suite(int argc, char **argv, const char *version, const char *commit)
{
    fl_suite *s = fl_suite_alloc();
    if (!s) return 1;
    suite_opts o = {"out/suite", NULL, 0, 0, 1, 1, 1, 10000, 1, "corpus"};
    const char *ours = NULL, *peer = NULL, *tols = "1e-4,1e-8";
    double limit = 0;
    int rc = parse_suite(argc, argv, s, &o, &ours, &peer, &tols, &limit);
    plist L;
    memset(&L, 0, sizeof L);
    char work[] = "/tmp/frictionlab-suite-XXXXXX", line[8192];
    adder a = {s, o.max_iter};
    if (rc >= 0) goto done;
    /* `frictionlab` in a solver's command is this very program */
    if (fl_cli_path_self_first() != 0)
        fprintf(stderr, "frictionlab bench suite: cannot find this program's directory; PATH unchanged\n");
    rc = EXIT_USAGE;
    if ((ours && split(ours, add_ours, &a)) || (peer && split(peer, add_peer, &a)) ||
        split(tols, add_tol, s))
        goto done;
    if (s->nsolvers == 0) {
        rc = bad_usage("no solver: give --solver, --ours or --peer%s", NULL);
        goto done;
    }
    s->time_limit = limit > 0 ? limit : o.quick ? 10 : 60;
    s->jobs = o.jobs;
    s->shard_k = o.shard_k, s->shard_n = o.shard_n;
    L.xo = fl_xval_options_default();
    L.xo.full = o.full ? FL_XVAL_FULL_SUITE : 0;
    L.xo.seed = o.seed;
    L.xo.per_family = o.quick ? 3 : 8;
    L.xo.corpus_dir = fl_data_corpus_dir(o.corpus, NULL);
    if (split(o.sets, add_set, &L)) goto done;
    /* the shard: problems i with i mod N == K - 1 */
    size_t kept = 0;
    for (size_t i = 0; i < L.n; i++)
        if (i % (size_t)o.shard_n == (size_t)(o.shard_k - 1)) L.v[kept++] = L.v[i];
    L.n = kept;
    rc = 1;
    if (!mkdtemp(work)) {
        fprintf(stderr, "frictionlab bench suite: cannot create a directory under /tmp\n");
        goto done;
    }
    command_line(argc, argv, line, sizeof line);
    fl_suite_set(&s->command, line);
    fl_suite_set(&s->version, version);
    fl_suite_set(&s->commit, commit);
    time_t now = time(NULL);
    struct tm tm;
    char when[32] = "unknown";
    if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fl_suite_set(&s->started, when);
    machine(s, peer != NULL);
    printf("bench suite: %zu problems (shard %d/%d), %zu solvers, %zu tolerances, limit %g s, "
           "-j %d\n", L.n, o.shard_k, o.shard_n, s->nsolvers, s->ntols, s->time_limit, o.jobs);
    start_costs(s, work);
    double t0 = fl_clock_now();
    if (o.jobs > 1) rc = run_parallel(s, &L, o.jobs, work) ? 1 : 0;
    else worker(s, &L, 0, 1, work), rc = 0;
    char dur[64];
    fl_cli_duration(fl_clock_now() - t0, dur, sizeof dur);
    printf("bench suite: %zu runs in %s wall time\n", s->nrows, dur);
    if (write_outputs(s, o.out) != 0) rc = 1;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/trivial-out.hdf5", work);
    remove(tmp);
    rmdir(work);
done:
    free(L.v);
    fl_suite_free(s);
    return rc;
}

int fl_cli_bench_merge(int argc, char **argv)
{
    const char *out = NULL;
    int ndirs = 0;
    char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    if (!dirs) return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fl_cli_cmd_help(stdout, fl_cli_cmd_find("bench merge"));
            free(dirs);
            return 0;
        }
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (argv[i][0] == '-') {
            free(dirs);
            return bad_usage("merge: unknown option '%s'", argv[i]);
        } else dirs[ndirs++] = argv[i];
    }
    if (!out || ndirs == 0) {
        free(dirs);
        return bad_usage("merge needs DIR... and --out DIR%s", NULL);
    }
    fl_suite *all = NULL;
    int rc = 0, shards_n = 0;
    unsigned long long seen = 0;
    for (int i = 0; i < ndirs && rc == 0; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/suite.json", dirs[i]);
        fl_suite *part = NULL;
        fl_error e;
        if (fl_suite_read_json(path, &part, &e) != FL_OK ||
            (all && fl_suite_merge(all, part, &e) != FL_OK)) {
            fprintf(stderr, "frictionlab bench merge: %s\n", e.message);
            rc = 1;
        }
        if (rc == 0 && i > 0 && part->shard_n != shards_n) {
            fprintf(stderr, "frictionlab bench merge: %s is shard %d/%d, the others of %d\n",
                    path, part->shard_k, part->shard_n, shards_n);
            rc = 1;
        }
        if (rc == 0) {
            shards_n = part->shard_n;
            unsigned long long bit = part->shard_k <= 64 ? 1ULL << (part->shard_k - 1) : 0;
            if (bit & seen) {
                fprintf(stderr, "frictionlab bench merge: shard %d given twice\n", part->shard_k);
                rc = 1;
            }
            seen |= bit;
        }
        if (!all && rc == 0) all = part;
        else fl_suite_free(part);
    }
    if (rc == 0 && shards_n <= 64 && seen != (shards_n == 64 ? ~0ULL : (1ULL << shards_n) - 1))
        fprintf(stderr, "frictionlab bench merge: warning: not every shard of %d is given\n", shards_n);
    if (rc == 0) {
        char line[8192];
        all->shard_k = all->shard_n = 0;
        command_line(argc, argv, line, sizeof line);
        fl_suite_set(&all->command, line);
        if (write_outputs(all, out) != 0) rc = 1;
    }
    fl_suite_free(all);
    free(dirs);
    return rc;
}
