/* options.c — the option tables of the frictionlab command (options.h) and
 * what is printed and built from them. */
#define _GNU_SOURCE
#include "options.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const fl_cli_opt reproduce_opts[] = {
    {"all", 'a', NULL, "run every registered example [only the NAMEs given]", NULL},
    {"quick", 'q', NULL, "the short variants the test suite runs [full runs]", NULL},
    {"out", 'o', "DIR", "output directory [out]", "dir"},
    {"baseline", 'b', "FILE", "compare with the results.json of an earlier run: every status\n"
     "that changed and every number (value, expected, tolerance) that\n"
     "moved beyond 1e-9 relative, or the noise tolerance its check\n"
     "declares, is listed (DRIFT lines), exit status 3; --quick against\n"
     "full and another parameter file are named (WARNING lines); refused\n"
     "(exit 2) when --out would overwrite FILE [none]", "file"},
    {"params", 'P', "FILE", "the examples' parameters from FILE instead of data/ (its\n"
     "SHA-256 in the report); a task that does not read it says so [data/]", "file"},
    {"data", 'D', "DIR", "a directory standing for data/ (as FL_DATA_DIR) [data/ of the\n"
     "source tree or the installed share/frictionlab]", "dir"},
    {"list", 'l', NULL, "print the example names and their papers, then exit", NULL},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

static const fl_cli_opt bench_opts[] = {
    {"all", 'a', NULL, "run every benchmark [only the NAMEs given]", NULL},
    {"quick", 'q', NULL, "smaller sizes, where the benchmark has them [full]", NULL},
    {"out", 'o', "DIR", "output directory [out]", "dir"},
    {"list", 'l', NULL, "print the benchmark names, then exit", NULL},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

static const fl_cli_opt crosscheck_opts[] = {
    {"law", 'L', "LAW", "the law to check, or all [all]; LAW is one of the names of --list",
     "names+all crosscheck"},
    {"systems", 'n', "N", "random systems per check, N >= 1 [200]", NULL},
    {"seed", 's', "S", "seed of the random systems, S >= 0 [1]", NULL},
    {"solver-cmd", 'c', "CMD", "check an outside solver instead: CMD is run through /bin/sh once\n"
     "per FCLIB problem with {in} and {out} replaced by the problem and\n"
     "solution files; the directory of this program comes first on its\n"
     "PATH, so `frictionlab` in CMD is this program [none]", NULL},
    {"family", 'F', "F,G|all", "with --solver-cmd: problem families among random, corpus,\n"
     "feblock, discs, edge, or all [random]", "words random corpus feblock discs edge all"},
    {"timeout", 'T', "S", "with --solver-cmd: seconds per problem; the command is killed\n"
     "and the problem fails [60]", NULL},
    {"full", 'f', NULL, "with --solver-cmd: the full sizes (random up to 1000 contacts)", NULL},
    {"corpus", 'C', "DIR", "with --solver-cmd: the corpus directory [the installed or\n"
     "source tests/data/siconos]", "dir"},
    {"out", 'o', "DIR", "with --solver-cmd: report (CSV, summary, profile PNG) [out]", "dir"},
    {"list", 'l', NULL, "print the law names, then exit", NULL},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

static const fl_cli_opt solve_opts_table[] = {
    {"solver", 'S', "S", "gs, newton, auto or ppa [auto]", "words gs newton auto ppa"},
    {"impl", 'i', "I", "optimized (sparse W, CHOLMOD) or reference (dense W) [optimized]",
     "words optimized reference"},
    {"tol", 't', "T", "natural-map error target, normalised by ||q|| [1e-8]", NULL},
    {"max-sweeps", 's', "N", "Gauss-Seidel sweeps at most, Newton's fallback included [10000]", NULL},
    {"max-newton", 'n', "N", "Newton steps at most [500]", NULL},
    {"guess", 'g', "K", "start from the file's stored guess K (FCLIB /guesses/K) [zero start]", NULL},
    {"max-memory", 'm', "B", "refuse a file whose problem would need more than B bytes\n"
     "(suffix K, M, G allowed) [4G]", NULL},
    {"time-limit", 'T', "S", "stop after S seconds of solving with the best iterate found\n"
     "(status: not converged (time limit ...), exit 1) [0: none]", NULL},
    {"threads", 'j', "N", "Gauss-Seidel sweeps (gs, auto) of the optimized implementation on\n"
     "N threads: the graph-coloured sweep, the same answer for every\n"
     "N >= 1 (doc/parallel.md); 0: all cores, at most one thread per\n"
     "8192 contacts [the serial sweep in the natural order]", NULL},
    {"out", 'o', "FILE", "write the problem and its solution, the format chosen by the\n"
     "extension: .hdf5 or .h5 FCLIB with the solution (r, u, and v if\n"
     "global); .dat Siconos text, which has no place for a solution, and\n"
     "the solution beside it in FILE.sol (the lines of --print) [none]", "file"},
    {"print", 'p', NULL, "print r and u (and v if global), one contact per line\n"
     "[by default for up to 10 contacts]", NULL},
    {"no-print", 'P', NULL, "do not print r and u", NULL},
    {"law", 'l', "LAW", "the law: nsgs only (what crosscheck --solver-cmd passes) [nsgs]",
     "words nsgs"},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

static const fl_cli_opt convert_opts[] = {
    {"max-memory", 'm', "B", "refuse an input needing more than B bytes (K, M, G) [4G]", NULL},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

static const fl_cli_opt suite_opts_table[] = {
    {"solver", 'S', "NAME=CMD", "an outside solver in the FCLIB protocol of crosscheck\n"
     "--solver-cmd: {in} problem, {out} answer, {tol} tolerance; the\n"
     "directory of this program comes first on its PATH", NULL},
    {"ours", 'O', "LIST", "our solvers gs, newton, auto, ppa, run as `frictionlab solve`\n"
     "processes (like with like: every solver is a process)", "words gs newton auto ppa"},
    {"peer", 'P', "siconos:LIST", "Siconos numerics' nsgs, nsn-ac, nsn-fb, prox, admm through\n"
     "frictionlab-peer-siconos (env FL_PEER_SICONOS: its path)",
     "words siconos:nsgs siconos:nsn-ac siconos:nsn-fb siconos:prox siconos:admm"},
    {"set", 'e', "LIST", "corpus, random, discs, feblock, edge, or a directory of FCLIB /\n"
     "Siconos files (its sizes.tsv manifest if any) [corpus]",
     "words corpus random discs feblock edge"},
    {"corpus", 'c', "DIR", "the corpus directory [the installed corpus, or the source tree's\n"
     "tests/data/siconos from the build tree; $FL_CORPUS_DIR]", "dir"},
    {"tol", 't', "LIST", "tolerances [1e-4,1e-8]", NULL},
    {"time-limit", 'T', "S", "seconds per run [60; --quick: 10]", NULL},
    {"norm", 'n', "N", "normalisation of the verdict: q, siconos, fclib [q]", "words q siconos fclib"},
    {"quick", 'q', NULL, "small families and corpus problems <= 100 contacts", NULL},
    {"full", 'f', NULL, "the full ladders of the families", NULL},
    {"max-iter", 'm', "N", "iterations given to the Siconos solvers [10000]", NULL},
    {"j", 'j', "N", "N runs at a time (times then marked as concurrent) [1]", NULL},
    {"shard", 'k', "K/N", "only the K-th of N disjoint parts of the problems [1/1]", NULL},
    {"seed", 's', "S", "seed of the generated families [1]", NULL},
    {"out", 'o', "DIR", "output directory [out/suite]", "dir"},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

static const fl_cli_opt merge_opts[] = {
    {"out", 'o', "DIR", "the directory of the joined report (required)", "dir"},
    {"help", 'h', NULL, "print this help, then exit", NULL},
    {NULL, 0, NULL, NULL, NULL}};

const fl_cli_cmd fl_cli_cmds[] = {
    {"reproduce", "reproduce [NAME ...|--all] [--out DIR] [--quick] [--baseline FILE] [--params FILE]\n"
     "          [--data DIR] [--list]",
     "Reproduce the examples and tables of the source papers.  One line per check on\n"
     "stdout (PASS, FAIL, NOTE or NOT RUN), then 'N passed, M failed'.  Every run\n"
     "writes DIR/results.json (for machines) and DIR/report.html (one offline page:\n"
     "per paper and example the claim, our numbers beside the paper's, the figures\n"
     "captioned with the paper figure they reproduce, every check, the parameter\n"
     "file with its SHA-256, version, commit and run time).  Figures and data files\n"
     "go to DIR/<paper>/<example>/, e.g. out/004/polyurethane/.",
     reproduce_opts,
     "0 every check passed (and no drift), 1 a check failed, 2 usage error,\n"
     "3 drift from the baseline.",
     "frictionlab reproduce example_3_15 --quick --out repro\n"
     "frictionlab reproduce example_3_15 --quick --out repro2 --baseline repro/results.json\n"
     "frictionlab reproduce --list",
     "names reproduce"},
    {"crosscheck", "crosscheck [--law LAW|all] [--systems N] [--seed S] [--list]\n"
     "crosscheck --solver-cmd CMD [--family F,G|all] [--timeout S] [--full]\n"
     "            [--systems N] [--corpus DIR] [--out DIR]",
     "Check a law's properties (the papers' propositions and lemmas, reference against\n"
     "optimized, against brute force or enumeration) on random systems; or, with\n"
     "--solver-cmd, any solver command on FCLIB problems of the families random,\n"
     "corpus, feblock, discs, edge.  One line per check on stdout, then\n"
     "'N passed, M failed'.",
     crosscheck_opts, "0 every check passed, 1 a check failed, 2 usage error.",
     "frictionlab crosscheck --law moreau --systems 50 --seed 1\n"
     "frictionlab crosscheck --systems 3 --out xval --solver-cmd 'frictionlab solve {in} --out {out}'",
     NULL},
    {"bench", "bench [NAME ...|--all] [--out DIR] [--quick] [--list]\n"
     "bench suite ...   (bench suite --help)\n"
     "bench merge DIR... --out DIR",
     "Benchmarks: the dense reference against the sparse optimized twin, sizes from\n"
     "1e2 upwards; the ratios are measured in one run.  CSV and PNG go to DIR.\n"
     "`bench suite` runs solvers against the field; `bench merge` joins the shards\n"
     "of bench suite into one report.",
     bench_opts, "0 the benchmarks ran, 1 one failed, 2 usage error.",
     "frictionlab bench stability --quick --out bench\n"
     "frictionlab bench --list",
     "names bench"},
    {"bench suite", "bench suite [--solver NAME='CMD {in} {out}']... [--ours gs,newton,auto]\n"
     "  [--peer siconos:nsgs,nsn-ac,nsn-fb,prox,admm] [--set corpus,random,discs,feblock,edge,DIR]\n"
     "  [--tol 1e-4,1e-8] [--time-limit S] [--quick|--full] [-j N] [--shard K/N] [--out DIR]",
     "Run several solvers on several problem sets at several tolerances and write one\n"
     "report (suite.json, suite.csv, report.html with Dolan-More profiles).  A run is\n"
     "solved when it ends within the limit and our recheck of its r (U = W r + q by\n"
     "us) meets the tolerance in the stated normalisation; exit 0 is only a claim.",
     suite_opts_table, "0 the report is written, 2 usage error.",
     "frictionlab bench suite --ours auto --set random --quick --tol 1e-4 --shard 1/2 --out part1\n"
     "frictionlab bench suite --ours auto --set random --quick --tol 1e-4 --shard 2/2 --out part2\n"
     "frictionlab bench merge part1 part2 --out all",
     NULL},
    {"bench merge", "bench merge DIR... --out DIR",
     "Join the suite.json of the shards of `bench suite --shard K/N` into one report.",
     merge_opts, "0 the report is written, 2 usage error.", NULL, "dir"},
    {"solve", "solve FILE [--solver gs|newton|auto|ppa] [--impl optimized|reference] [--tol T]\n"
     "       [--max-sweeps N] [--max-newton N] [--guess K] [--max-memory BYTES]\n"
     "       [--time-limit S] [--threads N] [--out FILE.hdf5|FILE.dat] [--print|--no-print]",
     "Solve a frictional contact problem file: FCLIB (.hdf5, local or global) or\n"
     "Siconos numerics text (.dat, local or global, dense, sparse-block or CSparse\n"
     "storage).  Solvers: nonlinear Gauss-Seidel (gs, 003 §3), semismooth Newton on\n"
     "the Alart-Curnier function with line search and Gauss-Seidel fallback (newton,\n"
     "Alart & Curnier 1991), the proximal-point method with that Newton method as\n"
     "its inner solver (ppa, Acary, Bremond & Huber 2018), or auto: Gauss-Seidel\n"
     "while it converges fast, then Newton from its iterate, then Gauss-Seidel\n"
     "again from the better iterate, then ppa if both stall.\n"
     "A global problem is solved as a global problem (newton, auto: on (v, r)\n"
     "without forming W); gs and ppa go through the Delassus operator\n"
     "W = H M^-1 H^T.\n"
     "With no contact the answer is v = M^-1 f.\n"
     "Output: the file and its sizes (nc, dim, m, n), the solver asked for and the\n"
     "implementation, the solver that finished and why it stopped, iterations\n"
     "(Gauss-Seidel sweeps and Newton steps), the error / ||q|| and the error as\n"
     "Siconos 4.4 reports it (/ max(||r||, ||U||, ||q||)), time, status, then r and u.",
     solve_opts_table, "0 converged, 1 not converged (iteration or time limit: the answer\n"
     "printed is the best found), 2 bad usage, bad file, or a degenerate problem (a\n"
     "contact with a zero diagonal block of W, or with a zero normal row of W and\n"
     "q_N < 0: no solution), named.",
     "frictionlab solve tests/data/siconos/Rover1039.dat\n"
     "frictionlab solve tests/data/siconos/Capsules-i101-404.dat --solver newton\n"
     "frictionlab solve tests/data/siconos/Confeti-ex03-Fc3D-SBM.dat --solver gs --no-print\n"
     "frictionlab solve tests/data/siconos/Box_Stacks-i0122-82-5.hdf5 --guess 1 --out sol.hdf5\n"
     "frictionlab solve tests/data/siconos/Capsules-i101-404.dat --impl reference --tol 1e-10 --out sol.dat",
     "problem"},
    {"convert", "convert IN OUT [--max-memory BYTES]",
     "Convert a frictional contact problem between Siconos numerics text (.dat) and\n"
     "FCLIB (.hdf5), local or global.  OUT's extension chooses the format written\n"
     "(.hdf5 or .h5: FCLIB; otherwise Siconos text); IN's format is read from its content.\n"
     "Values keep every digit (%.17g): a round trip gives the same numbers.",
     convert_opts, "0 done, 2 bad usage or bad file.",
     "frictionlab convert tests/data/siconos/Rover1039.dat rover.hdf5\n"
     "frictionlab convert tests/data/siconos/CubeH8.hdf5 cube.dat\n"
     "frictionlab convert tests/data/siconos/GFC3D_TwoRods1.dat rods.hdf5",
     "problem"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL}};

const fl_cli_cmd *fl_cli_cmd_find(const char *name)
{
    for (const fl_cli_cmd *c = fl_cli_cmds; c->name; c++)
        if (strcmp(c->name, name) == 0) return c;
    return NULL;
}

/* text's lines on f, each after indent (the first after first, if given) */
static void print_lines(FILE *f, const char *first, const char *indent, const char *text)
{
    int line = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(f, "%s%.*s\n", line++ == 0 && first ? first : indent, (int)n, p);
        p += n + (e ? 1 : 0);
    }
}

/* the synopsis: "usage: frictionlab " before the first line, "frictionlab "
 * before a new form, spaces before a continuation (a line starting with ' ') */
static void print_synopsis(FILE *f, const char *syn)
{
    int line = 0;
    for (const char *p = syn; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(f, "%s%.*s\n", line++ == 0 ? "usage: frictionlab " : *p == ' ' ? "                  "
                                                                      : "       frictionlab ",
                (int)n, p);
        p += n + (e ? 1 : 0);
    }
}

void fl_cli_cmd_short(FILE *f, const fl_cli_cmd *c)
{
    print_synopsis(f, c->synopsis);
    fprintf(f, "Try 'frictionlab %s --help'.\n", c->name);
}

void fl_cli_cmd_help(FILE *f, const fl_cli_cmd *c)
{
    print_synopsis(f, c->synopsis);
    fputc('\n', f);
    print_lines(f, NULL, "", c->description);
    fputs("\noptions (default in brackets):\n", f);
    for (const fl_cli_opt *o = c->opts; o->name; o++) {
        char head[64];
        snprintf(head, sizeof head, "  %s%s%s%s", o->name[1] ? "--" : "-", o->name,
                 o->value ? " " : "", o->value ? o->value : "");
        char first[96];
        snprintf(first, sizeof first, "%-21s", head);
        if (strlen(head) >= 21) snprintf(first, sizeof first, "%s  ", head);
        print_lines(f, first, "                     ", o->help);
        if (o->complete && strncmp(o->complete, "names", 5) == 0 && strcmp(c->name, "crosscheck") == 0) {
            fputs("                     laws:", f);
            for (const fl_cli_task *t = fl_crosscheck_tasks; t->name; t++) fprintf(f, " %s", t->name);
            fputc('\n', f);
        }
    }
    fputs("\nexit status: ", f);
    print_lines(f, "", "", c->exit_status);
    if (c->examples) {
        fputs("\nexamples:\n", f);
        print_lines(f, NULL, "  ", c->examples);
    }
}

int fl_cli_cmd_longopts(const fl_cli_cmd *c, struct option *longs, size_t cap, char *shorts,
                        size_t scap)
{
    size_t n = 0, k = 0;
    if (scap < 3) return -1;
    shorts[k++] = ':';
    shorts[k++] = 'h';
    for (const fl_cli_opt *o = c->opts; o->name; o++) {
        if (!o->name[1]) {
            if (k + 3 > scap) return -1;
            shorts[k++] = o->name[0];
            if (o->value) shorts[k++] = ':';
            continue;
        }
        if (n + 1 >= cap) return -1;
        longs[n].name = o->name;
        longs[n].has_arg = o->value ? required_argument : no_argument;
        longs[n].flag = NULL;
        longs[n].val = o->key;
        n++;
    }
    shorts[k] = '\0';
    memset(&longs[n], 0, sizeof longs[n]);
    return 0;
}

int fl_cli_path_self_first(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    const char *old = getenv("PATH");
    size_t len = strlen(exe) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(len);
    if (!path) return -1;
    snprintf(path, len, "%s%s%s", exe, old && *old ? ":" : "", old ? old : "");
    int r = setenv("PATH", path, 1);
    free(path);
    return r;
}
