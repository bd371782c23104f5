/* main.c — the frictionlab command (README.md, The command).
 *
 *   frictionlab reproduce [NAME ...|--all] [--out DIR] [--quick] [--list]
 *   frictionlab crosscheck [--law L|all] [--systems N] [--seed S] [--list]
 *   frictionlab bench [NAME ...|--all] [--out DIR] [--list]
 *   frictionlab --help | --version
 *
 * Exit status: 0 when every check passed, 1 when a check failed, 2 on a
 * usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "cli.h"
#include "solve.h"

#ifndef FL_VERSION
#define FL_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fprintf(f,
        "frictionlab %s — verified laws of unilateral contact with Coulomb friction\n"
        "\n"
        "usage:\n"
        "  frictionlab reproduce [NAME ...|--all] [--out DIR] [--quick] [--list]\n"
        "      reproduce the papers' examples; figures (CSV, PNG) go to DIR (default out/)\n"
        "  frictionlab crosscheck [--law LAW|all] [--systems N] [--seed S] [--list]\n"
        "      property checks of a law on N random systems (default 200, seed 1)\n"
        "  frictionlab bench [NAME ...|--all] [--out DIR] [--list]\n"
        "      benchmarks: reference vs optimized, ratios measured in one run\n"
        "  frictionlab solve FILE [--impl reference|optimized] [--out FILE] [--tol T]\n"
        "      solve an FCLIB (.hdf5) or Siconos (.dat) problem; crosscheck --solver-cmd CMD\n"
        "      checks any solver command (\"CMD {in} {out}\") on random FCLIB problems\n"
        "  frictionlab --help | --version\n"
        "\n"
        "reproduce and crosscheck print one PASS/FAIL line per check and end with\n"
        "'N passed, M failed'; the exit status is 0 only if every check passed.\n"
        "Progress goes to stderr.  --list prints the registered names.\n",
        FL_VERSION);
}

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

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *s == '\0' || *end != '\0' || v < 0) return -1;
    *out = v;
    return 0;
}

static void run_task(fl_cli_ctx *ctx, const fl_cli_task *t)
{
    fprintf(stderr, "== %s: %s\n", t->name, t->summary);
    if (t->run(ctx) != 0) fl_cli_check(ctx, 0, t->name, "could not run (see stderr)");
}

static int finish(fl_cli_ctx *ctx)
{
    printf("%ld passed, %ld failed\n", ctx->passed, ctx->failed);
    return ctx->failed == 0 ? 0 : 1;
}

/* reproduce / bench: positional names or --all. */
static int run_named(fl_cli_ctx *ctx, const fl_cli_task *table, const char *cmd,
                     int argc, char **argv)
{
    const char *names[256];
    int nnames = 0, all = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--all") == 0) all = 1;
        else if (strcmp(argv[i], "--quick") == 0) ctx->quick = 1;
        else if (strcmp(argv[i], "--list") == 0) { list_tasks(table); return 0; }
        else if (strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "frictionlab %s: --out needs a directory\n", cmd);
                return 2;
            }
            ctx->out_dir = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "frictionlab %s: unknown option '%s'\n", cmd, argv[i]);
            return 2;
        } else if (nnames < 256) names[nnames++] = argv[i];
    }
    if (!all && nnames == 0) {
        fprintf(stderr, "frictionlab %s: name a task or pass --all (see --list)\n", cmd);
        return 2;
    }
    for (int i = 0; i < nnames; i++)
        if (!find_task(table, names[i])) {
            fprintf(stderr, "frictionlab %s: unknown name '%s' (see --list)\n", cmd, names[i]);
            return 2;
        }
    if (all)
        for (const fl_cli_task *t = table; t->name; t++) run_task(ctx, t);
    else
        for (int i = 0; i < nnames; i++) run_task(ctx, find_task(table, names[i]));
    return finish(ctx);
}

static int crosscheck(fl_cli_ctx *ctx, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) { list_tasks(fl_crosscheck_tasks); return 0; }
        if (i + 1 >= argc) {
            fprintf(stderr, "frictionlab crosscheck: '%s' needs a value or is unknown\n", argv[i]);
            return 2;
        }
        long v;
        if (strcmp(argv[i], "--law") == 0) ctx->law = argv[++i];
        else if (strcmp(argv[i], "--solver-cmd") == 0) ctx->solver_cmd = argv[++i];
        else if (strcmp(argv[i], "--systems") == 0 && parse_long(argv[i + 1], &v) == 0 && v > 0) {
            ctx->systems = v;
            i++;
        } else if (strcmp(argv[i], "--seed") == 0 && parse_long(argv[i + 1], &v) == 0) {
            ctx->seed = (unsigned long)v;
            i++;
        } else {
            fprintf(stderr, "frictionlab crosscheck: bad option '%s %s'\n", argv[i], argv[i + 1]);
            return 2;
        }
    }
    if (ctx->solver_cmd) {
        static const fl_cli_task t = {"solver_cmd", "any solver command on random FCLIB problems", fl_cli_solver_cmd_crosscheck};
        run_task(ctx, &t);
    } else if (strcmp(ctx->law, "all") == 0) {
        for (const fl_cli_task *t = fl_crosscheck_tasks; t->name; t++) run_task(ctx, t);
    } else {
        const fl_cli_task *t = find_task(fl_crosscheck_tasks, ctx->law);
        if (!t) {
            fprintf(stderr, "frictionlab crosscheck: unknown law '%s' (see --list)\n", ctx->law);
            return 2;
        }
        run_task(ctx, t);
    }
    return finish(ctx);
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

    if (fl_cli_global_options(&argc, argv) != 0) return 2;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("frictionlab %s\n", FL_VERSION);
        return 0;
    }
    if (strcmp(cmd, "reproduce") == 0)
        return run_named(&ctx, fl_reproduce_tasks, cmd, argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return run_named(&ctx, fl_bench_tasks, cmd, argc - 2, argv + 2);
    if (strcmp(cmd, "solve") == 0) return fl_cli_solve(argc - 2, argv + 2);
    if (strcmp(cmd, "crosscheck") == 0)
        return crosscheck(&ctx, argc - 2, argv + 2);
    fprintf(stderr, "frictionlab: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
