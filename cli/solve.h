/* solve.h — `frictionlab solve FILE` (cli/solve.c): problem files in,
 * FCLIB solutions out. */
#ifndef FL_CLI_SOLVE_H
#define FL_CLI_SOLVE_H

#include "cli.h"
#include "fl_status.h"

/* frictionlab solve FILE [--impl optimized|reference] [--out FILE] [--tol T]
 *                        [--max-sweeps N] [--guess K] [--max-memory BYTES] [--help]
 * argv[0] is FILE or an option (the words after "solve"; argv[-1] must be
 * the word "solve", getopt_long's program name).  Exit status 0 converged
 * (or --help), 1 not converged, 2 usage or file error. */
int fl_cli_solve(int argc, char **argv);

/* frictionlab convert IN OUT (cli/convert.c): Siconos text (.dat) <->
 * FCLIB (.hdf5), local or global, chosen by the extensions; same argv
 * convention as fl_cli_solve.  Exit 0 done, 2 usage or file error. */
int fl_cli_convert(int argc, char **argv);

/* "frictionlab CMD: FILE:LINE: message" when the error names the input or
 * the output file, else "frictionlab CMD: IN: message" (never a source file
 * of the library). */
void fl_cli_print_file_error(const char *cmd, const fl_error *e, const char *in, const char *out);

/* "500M", "4G", "123" -> bytes; -1 if not a positive size. */
int fl_cli_parse_bytes(const char *s, size_t *out);

#endif
