/* solve.h — `frictionlab solve FILE` (cli/solve.c): problem files in,
 * FCLIB solutions out. */
#ifndef FL_CLI_SOLVE_H
#define FL_CLI_SOLVE_H

#include "cli.h"

/* frictionlab solve FILE [--law nsgs] [--impl reference|optimized] [--out FILE]
 *                        [--tol T] [--max-sweeps N]
 * argv[0] is FILE or an option (the words after "solve").  Exit status 0
 * converged, 1 not converged, 2 usage or file error. */
int fl_cli_solve(int argc, char **argv);

#endif
