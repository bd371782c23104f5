/* main.c — the frictionlab command (README.md, The command).
 *
 *   frictionlab reproduce [NAME ...|--all] [--out DIR] [--quick] [--baseline FILE] [--list]
 *   frictionlab crosscheck [--law L|all] [--systems N] [--seed S] [--solver-cmd CMD] [--list]
 *   frictionlab bench [NAME ...|--all] [--out DIR] [--list]
 *   frictionlab solve FILE ...                  (cli/solve.c)
 *   frictionlab help [SUB] | SUB --help | --help | --version
 *
 * Options are parsed with getopt_long.  Exit status: 0 when every check
 * passed, 1 when a check failed, 2 on a usage error, 3 when `reproduce
 * --baseline` found a value or status that moved.  A usage error prints the
 * subcommand's short usage on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cholmod.h>
#include <gsl/gsl_version.h>
#include <hdf5.h>
#include <umfpack.h>

#include "check_run.h"
#include "fl_clock.h"
#include "cli.h"
#include "fl_commit.h"
#include "bench_suite.h"
#include "solve.h"
#include "options.h"
#include "xval_cmd.h"
#include "checks/xval.h"

#ifndef FL_VERSION
#define FL_VERSION "unknown"
#endif
#ifndef FL_FCLIB_VERSION
#define FL_FCLIB_VERSION "unknown"
#endif

enum { EXIT_USAGE = 2, EXIT_DRIFT = 3 };

/* ---- help texts ------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
        "frictionlab %s — verified laws of unilateral contact with Coulomb friction\n"
        "\n"
        "usage:\n"
        "  frictionlab reproduce [NAME ...|--all] [--out DIR] [--quick] [--baseline FILE] [--list]\n"
        "      reproduce the papers' examples; writes DIR/report.html and DIR/results.json,\n"
        "      figures (CSV, PNG) under DIR/<paper>/<example>/ (default DIR: out)\n"
        "  frictionlab crosscheck [--law LAW|all] [--systems N] [--seed S] [--list]\n"
        "      property checks of a law on N random systems (default 200, seed 1)\n"
        "  frictionlab bench [NAME ...|--all] [--out DIR] [--list]\n"
        "      benchmarks: reference vs optimized, ratios measured in one run\n"
        "  frictionlab bench suite --ours auto --peer siconos:nsgs [--set S] [--tol T] [--out DIR]\n"
        "      solvers against the field: solved counts, profiles, honest verdicts\n"
        "  frictionlab bench merge DIR... --out DIR\n"
        "      join the shards of bench suite --shard K/N into one report\n"
        "  frictionlab solve FILE [--impl optimized|reference] [--out FILE] [--guess K] ...\n"
        "      solve an FCLIB (.hdf5) or Siconos (.dat) problem (solve --help)\n"
        "  frictionlab convert IN OUT\n"
        "      Siconos text (.dat) <-> FCLIB (.hdf5), local or global (convert --help)\n"
        "  frictionlab crosscheck --solver-cmd \"CMD {in} {out}\" [--family F,G|all]\n"
        "                         [--timeout S] [--systems N] [--full] [--corpus DIR] [--out DIR]\n"
        "      check any solver command on FCLIB problems of the families random, corpus,\n"
        "      feblock, discs, edge (default random); report (CSV, profile PNG) in DIR\n"
        "  frictionlab help SUBCOMMAND     (or: frictionlab SUBCOMMAND --help)\n"
        "  frictionlab --help | --version\n"
        "\n"
        "reproduce and crosscheck print one PASS/FAIL line per check and end with\n"
        "'N passed, M failed'; the exit status is 0 only if every check passed.\n"
        "Progress goes to stderr.  --list prints the registered names.\n"
        "See also: man frictionlab (generated into build/doc/frictionlab.1).\n",
        FL_VERSION);
}

/* The short usage of subcommand name (cli/options.c) on f. */
static void cmd_short(FILE *f, const char *name)
{
    fl_cli_cmd_short(f, fl_cli_cmd_find(name));
}

static void cmd_help(const char *name)
{
    fl_cli_cmd_help(stdout, fl_cli_cmd_find(name));
}

/* ---- small helpers ------------------------------------------------------ */

static void list_tasks(const fl_cli_task *t)
{
    for (; t->name; t++) printf("%-20s %s\n", t->name, t->summary);
}

static const fl_cli_task *find_task(const fl_cli_task *t, const char *name)
{
    for (; t->name; t++)
        if (strcmp(t->name, name) == 0) return t;
    return NULL;
}

static const fl_cli_task_info *find_info(const char *name)
{
    for (const fl_cli_task_info *i = fl_reproduce_info; i->name; i++)
        if (strcmp(i->name, name) == 0) return i;
    return NULL;
}

/* Every reproduce task has its report metadata (paper reference) in
 * fl_reproduce_info, and every entry there names a task: checked by
 * `reproduce --list` (a test), so a new task cannot miss the report. */
static int check_info(void)
{
    int bad = 0;
    for (const fl_cli_task *t = fl_reproduce_tasks; t->name; t++) {
        const fl_cli_task_info *i = find_info(t->name);
        if (!i || !i->paper) {
            fprintf(stderr, "frictionlab: reproduce task '%s' has no paper reference in "
                            "fl_reproduce_info (cli/registry.c)\n", t->name);
            bad = 1;
        }
    }
    for (const fl_cli_task_info *i = fl_reproduce_info; i->name; i++)
        if (!find_task(fl_reproduce_tasks, i->name)) {
            fprintf(stderr, "frictionlab: fl_reproduce_info names '%s', which is no reproduce "
                            "task (cli/registry.c)\n", i->name);
            bad = 1;
        }
    return bad;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *s == '\0' || *end != '\0' || v < 0) return -1;
    *out = v;
    return 0;
}

/* A getopt_long error ('?' or ':') as a message plus the short usage. */
static int usage_error(const char *cmd, int c, int argc, char **argv)
{
    const char *opt = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "?";
    if (c == ':')
        fprintf(stderr, "frictionlab %s: '%s' needs a value\n", cmd, opt);
    else if (optopt && optopt != '?')
        fprintf(stderr, "frictionlab %s: unknown option '-%c'\n", cmd, optopt);
    else
        fprintf(stderr, "frictionlab %s: unknown option '%s'\n", cmd, opt);
    cmd_short(stderr, cmd);
    return EXIT_USAGE;
}

/* ---- running tasks ---------------------------------------------------------- */

typedef struct run_state {
    const fl_cli_task **list; /* the tasks of this run, in order (NULL: one task) */
    int index, count;         /* tasks started so far, and how many */
    double t0;                /* start of the run */
    const fl_results *timing;  /* earlier task times for the ETA, or NULL */
    const char *timing_from;   /* "the baseline" or "the previous run" */
} run_state;

static void run_task(fl_cli_ctx *ctx, const fl_cli_task *t, run_state *rs, int reproduce)
{
    char el[32], eta[64] = "";
    double t0 = fl_clock_now();
    fl_cli_duration(t0 - rs->t0, el, sizeof el);
    if (rs->timing && rs->list) {
        /* ETA from an earlier run's task times (the baseline, else the
         * results.json already in --out): the only honest estimate, since the
         * tasks differ by orders of magnitude */
        double left = 0.0;
        int known = 1;
        for (int k = rs->index; k < rs->count && known; k++) {
            const fl_result_task *b = fl_results_task_find(rs->timing, rs->list[k]->name);
            if (b) left += b->seconds;
            else known = 0;
        }
        if (known) {
            char e[32];
            fl_cli_duration(left, e, sizeof e);
            snprintf(eta, sizeof eta, ", ETA %s by %s", e, rs->timing_from);
        }
    }
    rs->index++;
    fprintf(stderr, "== [%d/%d, %s elapsed%s] %s: %s\n", rs->index, rs->count, el, eta, t->name,
            t->summary);
    if (reproduce) fl_cli_task_begin(ctx, t->name, t->summary, find_info(t->name));
    if (t->run(ctx) != 0) fl_cli_check(ctx, 0, t->name, "could not run (see stderr)");
    if (reproduce) fl_cli_task_end(ctx, fl_clock_now() - t0);
}

static int finish(fl_cli_ctx *ctx)
{
    printf("%ld passed, %ld failed\n", ctx->passed, ctx->failed);
    return ctx->failed == 0 ? 0 : 1;
}

static char *join_args(int argc, char **argv)
{
    size_t n = 1;
    for (int i = 0; i < argc; i++) n += strlen(argv[i]) + 1;
    char *s = malloc(n);
    if (!s) return NULL;
    s[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i) strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

/* One DRIFT line: the check, which number, both values, the move and the
 * tolerance it broke, with where that tolerance comes from. */
static void print_drift(const fl_result_drift *d)
{
    if (d->kind == FL_DRIFT_STATUS) {
        printf("DRIFT %s status %s -> %s [%s]\n", d->check, fl_result_status_name(d->old_status),
               fl_result_status_name(d->new_status), d->task);
        return;
    }
    printf("DRIFT %s %s ", d->check, d->field);
    if (d->has_old) printf("%.17g", d->old_value);
    else printf("(none)");
    printf(" -> ");
    if (d->has_new) printf("%.17g", d->new_value);
    else printf("(none)");
    if (d->has_old && d->has_new) {
        printf(" (moved %.3g, tolerance %.3g: ", d->new_value - d->old_value, d->tolerance);
        if (d->noise_reason) printf("the check's noise tolerance %.3g relative, %s)", d->rtol,
                                    d->noise_reason);
        else printf("reproducibility %.3g relative)", d->rtol);
    }
    printf(" [%s]\n", d->task);
}

/* WARNING lines: the runs differ by design (--quick against full, another
 * parameter file), so their numbers are not expected to agree. */
static void print_warnings(const fl_result_comparison *c, const char *baseline_path)
{
    if (c->mode_differs)
        printf("WARNING baseline %s is a %s run, this run is %s: their numbers differ by design\n",
               baseline_path, c->baseline_quick ? "--quick" : "full",
               c->current_quick ? "--quick" : "full");
    for (size_t i = 0; i < c->nitems; i++) {
        const fl_result_drift *d = &c->items[i];
        if (d->kind != FL_DRIFT_PARAMS) continue;
        printf("WARNING %s parameter file: baseline %s (sha256 %s), this run %s (sha256 %s)\n",
               d->task, d->old_params ? d->old_params : "(none)",
               d->old_sha256 ? d->old_sha256 : "not recorded",
               d->new_params ? d->new_params : "(none)",
               d->new_sha256 ? d->new_sha256 : "not recorded");
    }
}

/* Write results.json and report.html into the output directory; compare
 * with the baseline.  Returns 0, 1 (could not write) or EXIT_DRIFT. */
static int write_results(fl_cli_ctx *ctx, const fl_results *baseline, const char *baseline_path)
{
    fl_results *r = ctx->results;
    char json[4096], html[4096];
    ctx->task_dir[0] = '\0';
    if (fl_cli_out_path(ctx, "results.json", json, sizeof json) != 0 ||
        fl_cli_out_path(ctx, "report.html", html, sizeof html) != 0)
        return 1;
    fl_error err;
    if (fl_results_write_json(r, json, &err) != FL_OK ||
        fl_results_write_html(r, html, ctx->out_dir, &err) != FL_OK) {
        fprintf(stderr, "frictionlab reproduce: %s\n", err.message);
        return 1;
    }
    if (!baseline) return 0;
    fl_result_comparison *c = NULL;
    if (fl_results_compare(baseline, r, NULL, &c, &err) != FL_OK) {
        fprintf(stderr, "frictionlab reproduce: %s\n", err.message);
        return 1;
    }
    print_warnings(c, baseline_path);
    size_t nnew = 0;
    for (size_t i = 0; i < c->nitems; i++) {
        if (c->items[i].kind == FL_DRIFT_VALUE || c->items[i].kind == FL_DRIFT_STATUS)
            print_drift(&c->items[i]);
        nnew += c->items[i].kind == FL_DRIFT_NEW;
    }
    printf("baseline %s: %zu checks compared (%zu numbers), %zu drifted, %zu new", baseline_path,
           c->ncompared, c->nvalues, c->ndrift, nnew);
    if (c->nwarnings) printf(", %zu warning%s", c->nwarnings, c->nwarnings > 1 ? "s" : "");
    putchar('\n');
    int rc = c->ndrift > 0 ? EXIT_DRIFT : 0;
    fl_result_comparison_free(c);
    return rc;
}

/* Whether writing DIR/results.json would overwrite the baseline file (the
 * same file: device and inode, whatever the spelling of either path). */
static int overwrites_baseline(const char *out_dir, const char *baseline_path)
{
    char json[4096];
    struct stat a, b;
    if ((size_t)snprintf(json, sizeof json, "%s/results.json", out_dir) >= sizeof json) return 0;
    if (stat(baseline_path, &a) != 0 || stat(json, &b) != 0) return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int by_seconds_desc(const void *a, const void *b)
{
    double x = (*(const fl_result_task *const *)a)->seconds;
    double y = (*(const fl_result_task *const *)b)->seconds;
    return (x < y) - (x > y);
}

static void utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else snprintf(buf, len, "unknown");
}

/* reproduce / bench: positional names or --all; `line` is the command line. */
static int run_named_parsed(fl_cli_ctx *ctx, const fl_cli_task *table, int reproduce, int argc,
                            char **argv, const char *line)
{
    const char *cmd = argv[0];
    const char *sub = reproduce ? "reproduce" : "bench";
    struct option opts[16];
    char shorts[16];
    fl_cli_cmd_longopts(fl_cli_cmd_find(sub), opts, 16, shorts, sizeof shorts);
    int all = 0, c;
    const char *baseline_path = NULL;

    optind = 0; /* glibc: full re-initialisation */
    while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
        switch (c) {
        case 'a': all = 1; break;
        case 'q': ctx->quick = 1; break;
        case 'o': ctx->out_dir = optarg; break;
        case 'b':
            baseline_path = optarg;
            break;
        case 'l': list_tasks(table); return reproduce ? check_info() : 0;
        case 'h': cmd_help(sub); return 0;
        default: return usage_error(sub, c, argc, argv);
        }
    }
    int nnames = argc - optind;
    char **names = argv + optind;
    if (!all && nnames == 0) {
        fprintf(stderr, "frictionlab %s: name a task or pass --all (see --list)\n", cmd);
        cmd_short(stderr, sub);
        return EXIT_USAGE;
    }
    if (*ctx->out_dir == '\0') {
        fprintf(stderr, "frictionlab %s: --out needs a directory\n", cmd);
        cmd_short(stderr, sub);
        return EXIT_USAGE;
    }
    for (int i = 0; i < nnames; i++)
        if (!find_task(table, names[i])) {
            fprintf(stderr, "frictionlab %s: unknown name '%s' (see --list)\n", cmd, names[i]);
            cmd_short(stderr, sub);
            return EXIT_USAGE;
        }
    if (baseline_path && overwrites_baseline(ctx->out_dir, baseline_path)) {
        /* before any work: the run would replace the file it compares with
         * (and the report beside it) by its own results */
        fprintf(stderr, "frictionlab %s: --out %s would overwrite the baseline %s (%s/results.json "
                "is that file); write this run elsewhere (--out DIR) or copy the baseline first\n",
                cmd, ctx->out_dir, baseline_path, ctx->out_dir);
        cmd_short(stderr, sub);
        return EXIT_USAGE;
    }
    fl_results *baseline = NULL;
    if (baseline_path) {
        fl_error err;
        if (fl_results_read_json(baseline_path, &baseline, &err) != FL_OK) {
            fprintf(stderr, "frictionlab %s: --baseline: %s\n", cmd, err.message);
            return EXIT_USAGE;
        }
    }
    if (reproduce) {
        ctx->results = fl_results_alloc(FL_VERSION, FL_COMMIT);
        char started[32];
        utc_now(started, sizeof started);
        if (ctx->results) ctx->results->quick = ctx->quick;
        if (!ctx->results || fl_results_set_started(ctx->results, started) != FL_OK ||
            fl_results_set_command(ctx->results, line) != FL_OK) {
            fprintf(stderr, "frictionlab %s: out of memory\n", cmd);
            fl_results_free(ctx->results);
            fl_results_free(baseline);
            return 1;
        }
        for (const fl_cli_paper *p = fl_cli_papers; p->id; p++)
            if (fl_results_paper_add(ctx->results, p->id, p->reference) != FL_OK)
                fprintf(stderr, "frictionlab %s: out of memory recording paper %s\n", cmd, p->id);
    }
    int ntable = 0;
    while (table[ntable].name) ntable++;
    const fl_cli_task **list = malloc((size_t)(all ? ntable : nnames) * sizeof *list + 1);
    if (!list) {
        fprintf(stderr, "frictionlab %s: out of memory\n", cmd);
        fl_results_free(ctx->results);
        fl_results_free(baseline);
        return 1;
    }
    fl_results *previous = NULL;
    if (reproduce && !baseline) {
        /* the last run's results.json, if any: task times for the ETA only */
        char prev[4096];
        snprintf(prev, sizeof prev, "%s/results.json", ctx->out_dir);
        if (access(prev, R_OK) == 0 && fl_results_read_json(prev, &previous, NULL) != FL_OK)
            previous = NULL;
    }
    run_state rs = {list, 0, all ? ntable : nnames, fl_clock_now(), baseline ? baseline : previous,
                    baseline ? "the baseline" : "the previous run"};
    for (int i = 0; i < rs.count; i++) list[i] = all ? &table[i] : find_task(table, names[i]);
    for (int i = 0; i < rs.count; i++) run_task(ctx, list[i], &rs, reproduce);
    free(list);
    fl_results_free(previous);
    int extra = 0;
    if (reproduce) {
        ctx->results->seconds = fl_clock_now() - rs.t0;
        extra = write_results(ctx, baseline, baseline_path);
    }
    int rc = finish(ctx);
    if (reproduce && ctx->results->ntasks > 1) {
        /* where the time went, longest first (README's times come from here) */
        size_t n = ctx->results->ntasks;
        const fl_result_task **by = malloc(n * sizeof *by);
        if (by) {
            for (size_t i = 0; i < n; i++) by[i] = ctx->results->tasks[i];
            qsort(by, n, sizeof *by, by_seconds_desc);
            fprintf(stderr, "frictionlab reproduce: time per example:");
            for (size_t i = 0; i < n; i++) {
                char t[32];
                fl_cli_duration(by[i]->seconds, t, sizeof t);
                fprintf(stderr, "%s %s %s", i ? "," : "", by[i]->name, t);
            }
            fputc('\n', stderr);
            free(by);
        }
    }
    if (reproduce) {
        char took[32];
        fl_cli_duration(ctx->results->seconds, took, sizeof took);
        if (extra == 1)   /* write_results said why */
            fprintf(stderr, "frictionlab reproduce: %s; report and results not written in %s\n",
                    took, ctx->out_dir);
        else
            fprintf(stderr, "frictionlab reproduce: %s; report: %s/report.html, results: "
                    "%s/results.json\n", took, ctx->out_dir, ctx->out_dir);
    }
    fl_results_free(ctx->results);
    ctx->results = NULL;
    fl_results_free(baseline);
    if (rc != 0) return rc;
    return extra;
}

static int run_named(fl_cli_ctx *ctx, const fl_cli_task *table, int reproduce, int argc,
                     char **argv, int full_argc, char **full_argv)
{
    char *line = join_args(full_argc, full_argv); /* before getopt permutes argv */
    if (!line) {
        fprintf(stderr, "frictionlab %s: out of memory\n", argv[0]);
        return 1;
    }
    int rc = run_named_parsed(ctx, table, reproduce, argc, argv, line);
    free(line);
    return rc;
}

static int crosscheck(fl_cli_ctx *ctx, int argc, char **argv)
{
    struct option opts[16];
    char shorts[16];
    fl_cli_cmd_longopts(fl_cli_cmd_find("crosscheck"), opts, 16, shorts, sizeof shorts);
    int c;
    long v;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
        switch (c) {
        case 'L': ctx->law = optarg; break;
        case 'c': ctx->solver_cmd = optarg; break;
        case 'F': {
            unsigned mask;
            fl_error ferr;
            if (fl_xval_family_parse(optarg, &mask, &ferr) != FL_OK) {
                fprintf(stderr, "frictionlab crosscheck: %s\n", ferr.message);
                cmd_short(stderr, "crosscheck");
                return EXIT_USAGE;
            }
            ctx->family = optarg;
            break;
        }
        case 'C': ctx->corpus_dir = optarg; break;
        case 'o': ctx->out_dir = optarg; break;
        case 'f': ctx->full = 1; break;
        case 'T':
            if (fl_cli_xval_parse_timeout(optarg, &ctx->timeout) != 0) {
                fprintf(stderr, "frictionlab crosscheck: bad option '--timeout %s' (seconds > 0)\n", optarg);
                cmd_short(stderr, "crosscheck");
                return EXIT_USAGE;
            }
            break;
        case 'n':
            if (parse_long(optarg, &v) != 0 || v == 0) {
                fprintf(stderr, "frictionlab crosscheck: bad option '--systems %s' (an integer >= 1)\n",
                        optarg);
                cmd_short(stderr, "crosscheck");
                return EXIT_USAGE;
            }
            ctx->systems = v;
            ctx->systems_set = 1;
            break;
        case 's':
            if (parse_long(optarg, &v) != 0) {
                fprintf(stderr, "frictionlab crosscheck: bad option '--seed %s' (an integer >= 0)\n",
                        optarg);
                cmd_short(stderr, "crosscheck");
                return EXIT_USAGE;
            }
            ctx->seed = (unsigned long)v;
            break;
        case 'l': list_tasks(fl_crosscheck_tasks); return 0;
        case 'h': cmd_help("crosscheck"); return 0;
        default: return usage_error("crosscheck", c, argc, argv);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "frictionlab crosscheck: unexpected argument '%s' (use --law)\n", argv[optind]);
        cmd_short(stderr, "crosscheck");
        return EXIT_USAGE;
    }
    if (!ctx->solver_cmd && (ctx->family || ctx->corpus_dir || ctx->timeout > 0 || ctx->full)) {
        fprintf(stderr, "frictionlab crosscheck: --family, --corpus, --timeout and --full apply "
                "to --solver-cmd only\n");
        cmd_short(stderr, "crosscheck");
        return EXIT_USAGE;
    }
    run_state rs = {NULL, 0, 1, fl_clock_now(), NULL, NULL};
    if (ctx->solver_cmd) {
        static const fl_cli_task t = {"solver_cmd", "any solver command on families of FCLIB problems",
                                      fl_cli_xval_crosscheck};
        run_task(ctx, &t, &rs, 0);
    } else if (strcmp(ctx->law, "all") == 0) {
        rs.count = 0;
        for (const fl_cli_task *t = fl_crosscheck_tasks; t->name; t++) rs.count++;
        for (const fl_cli_task *t = fl_crosscheck_tasks; t->name; t++) run_task(ctx, t, &rs, 0);
    } else {
        const fl_cli_task *t = find_task(fl_crosscheck_tasks, ctx->law);
        if (!t) {
            fprintf(stderr, "frictionlab crosscheck: unknown law '%s' (see --list)\n", ctx->law);
            cmd_short(stderr, "crosscheck");
            return EXIT_USAGE;
        }
        run_task(ctx, t, &rs, 0);
    }
    return finish(ctx);
}

/* --version: ours, then the libraries linked, from their headers and, where
 * they have one, their runtime version call. */
static void version(void)
{
    int cv[3] = {0, 0, 0}, sv[3] = {0, 0, 0};
    unsigned h5[3] = {0, 0, 0};
    cholmod_version(cv);
    SuiteSparse_version(sv);
    H5get_libversion(&h5[0], &h5[1], &h5[2]);
    printf("frictionlab %s\n", FL_VERSION);
    printf("commit %s\n", FL_COMMIT);
    printf("GSL %s\n", gsl_version);
    printf("SuiteSparse %d.%d.%d (CHOLMOD %d.%d.%d, UMFPACK %d.%d.%d)\n", sv[0], sv[1], sv[2],
           cv[0], cv[1], cv[2], UMFPACK_MAIN_VERSION, UMFPACK_SUB_VERSION, UMFPACK_SUBSUB_VERSION);
    printf("HDF5 %u.%u.%u\n", h5[0], h5[1], h5[2]);
    printf("FCLIB %s\n", FL_FCLIB_VERSION);
}

int main(int argc, char **argv)
{
    fl_cli_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out_dir = "out";
    ctx.systems = 200;
    ctx.seed = 1;
    ctx.law = "all";
    ctx.progress = 1;
    ctx.progress_tty = isatty(STDERR_FILENO);

    if (fl_cli_global_options(&argc, argv) != 0) return 2;
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        (strcmp(cmd, "help") == 0 && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "help") == 0) {
        const char *sub = argv[2];
        if (argc > 3) {
            fprintf(stderr, "frictionlab help: one subcommand at a time\n");
            return EXIT_USAGE;
        }
        if (fl_cli_cmd_find(sub)) cmd_help(sub);
        else {
            fprintf(stderr, "frictionlab help: unknown subcommand '%s'\n\n", sub);
            usage(stderr);
            return EXIT_USAGE;
        }
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        version();
        return 0;
    }
    if (strcmp(cmd, "reproduce") == 0)
        return run_named(&ctx, fl_reproduce_tasks, 1, argc - 1, argv + 1, argc, argv);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "suite") == 0)
        return fl_cli_bench_suite(argc - 2, argv + 2, FL_VERSION, FL_COMMIT);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "merge") == 0)
        return fl_cli_bench_merge(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return run_named(&ctx, fl_bench_tasks, 0, argc - 1, argv + 1, argc, argv);
    if (strcmp(cmd, "solve") == 0) return fl_cli_solve(argc - 2, argv + 2);
    if (strcmp(cmd, "convert") == 0) return fl_cli_convert(argc - 2, argv + 2);
    if (strcmp(cmd, "crosscheck") == 0) return crosscheck(&ctx, argc - 1, argv + 1);
    fprintf(stderr, "frictionlab: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
