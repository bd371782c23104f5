/* convert.c — `frictionlab convert IN OUT`: Siconos numerics text (.dat)
 * <-> FCLIB (.hdf5), local or global problems, the direction chosen by the
 * extension of OUT (.hdf5/.h5: FCLIB, anything else: Siconos text) and the
 * input format by its content (HDF5 signature).  Values are written with
 * 17 significant digits (Siconos text) or as binary doubles (FCLIB), so a
 * round trip is exact; the global H is transposed between the two
 * conventions (io/fl_siconos_text.h, io/fl_fclib.h).  Matrices are
 * read sparse; up to order FL_CONVERT_DENSE_MAX they are written dense in
 * Siconos text (storage 0), above it as CSparse triplets.  An FCLIB
 * solution and guesses are not carried into Siconos text, which has no
 * place for them. */
#include "solve.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "fl_fclib.h"
#include "fl_siconos_text.h"
#include "options.h"

/* Matrices up to this order are written dense (Siconos storage 0). */
#define FL_CONVERT_DENSE_MAX 2000

static void convert_usage(FILE *f, int full)
{
    const fl_cli_cmd *c = fl_cli_cmd_find("convert");
    if (full) fl_cli_cmd_help(f, c);
    else fl_cli_cmd_short(f, c);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int fl_cli_convert(int argc, char **argv)
{
    struct option longs[8];
    char shorts[8];
    fl_cli_cmd_longopts(fl_cli_cmd_find("convert"), longs, 8, shorts, sizeof shorts);
    fl_read_options ro = fl_read_options_default();
    int ac = argc + 1, c;
    char **av = argv - 1;   /* av[0] is the word "convert" */
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(ac, av, shorts, longs, NULL)) != -1) {
        if (c == 'h') {
            convert_usage(stdout, 1);
            return 0;
        }
        if (c == 'm' && fl_cli_parse_bytes(optarg, &ro.max_bytes) == 0) continue;
        if (c == 'm') fprintf(stderr, "frictionlab convert: --max-memory %s is not a size\n", optarg);
        else if (c == ':') fprintf(stderr, "frictionlab convert: option '%s' needs a value\n", av[optind - 1]);
        else fprintf(stderr, "frictionlab convert: unknown option '%s'\n", av[optind - 1]);
        convert_usage(stderr, 0);
        return 2;
    }
    if (ac - optind != 2) {
        fprintf(stderr, "frictionlab convert: name an input and an output file\n");
        convert_usage(stderr, 0);
        return 2;
    }
    const char *in = av[optind], *out = av[optind + 1];
    int to_fclib = ends_with(out, ".hdf5") || ends_with(out, ".h5");
    int from_fclib = fl_fclib_is_hdf5(in), kind = 0;
    fl_error err;
    fl_error_clear(&err);
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    /* read sparse (what scales); small matrices are then written dense
     * (storage 0 in Siconos text, readable by eye), large ones sparse */
    fl_status s = fl_sparse_start(&ctx, &err);
    /* an FCLIB file is read first in a child process: HDF5 defects crash
     * or run away on some corrupt files (io/fl_fclib.h) */
    if (s == FL_OK && from_fclib) s = fl_fclib_vet(in, &ro, FL_FCLIB_VET_PROBLEM, &err);
    if (s == FL_OK)
        s = from_fclib ? fl_fclib_kind(in, &kind, &err) : fl_siconos_text_kind(in, &kind, &err);
    if (s == FL_OK) {
        if (kind == 1)
            s = from_fclib ? fl_fclib_read_local_opt(in, 0, &ctx, &ro, &p, &err)
                           : fl_siconos_text_read_local(in, 0, &ctx, &ro, &p, &err);
        else
            s = from_fclib ? fl_fclib_read_global_opt(in, 0, &ctx, &ro, &g, &err)
                           : fl_siconos_text_read_global(in, 0, &ctx, &ro, &g, &err);
    }
    if (s == FL_OK && p && p->m <= FL_CONVERT_DENSE_MAX)
        s = fl_sparse_to_dense(&ctx, p->Ws, &p->W, &err);
    if (s == FL_OK && g && g->n <= FL_CONVERT_DENSE_MAX && g->m <= FL_CONVERT_DENSE_MAX &&
        g->m > 0) {
        s = fl_sparse_to_dense(&ctx, g->Ms, &g->M, &err);
        if (s == FL_OK) s = fl_sparse_to_dense(&ctx, g->Hs, &g->H, &err);
    }
    if (s == FL_OK) {
        if (p) s = to_fclib ? fl_fclib_write_local(out, p, "frictionlab convert", &err)
                            : fl_siconos_text_write(out, p, &err);
        else s = to_fclib ? fl_fclib_write_global(out, g, "frictionlab convert", &err)
                          : fl_siconos_text_write_global(out, g, &err);
    }
    if (s == FL_OK)
        printf("%s (%s, %s, nc %zu) -> %s (%s)\n", in, from_fclib ? "FCLIB" : "Siconos text",
               p ? "local" : "global", p ? p->nc : g->nc, out, to_fclib ? "FCLIB" : "Siconos text");
    else
        fl_cli_print_file_error("convert", &err, in, out);
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
    return s == FL_OK ? 0 : 2;
}
