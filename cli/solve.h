/* solve.h — `frictionlab solve FILE` and `frictionlab crosscheck
 * --solver-cmd CMD` (cli/solve.c): problem files in, FCLIB solutions out,
 * and the crosscheck of any solver command against the library. */
#ifndef FL_CLI_SOLVE_H
#define FL_CLI_SOLVE_H

#include "cli.h"

/* frictionlab solve FILE [--law nsgs] [--impl reference|optimized] [--out FILE]
 *                        [--tol T] [--max-sweeps N]
 * argv[0] is FILE or an option (the words after "solve").  Exit status 0
 * converged, 1 not converged, 2 usage or file error. */
int fl_cli_solve(int argc, char **argv);

/* crosscheck --solver-cmd CMD: ctx->systems random problems of ctx->law
 * (nsgs: Coulomb local problems) written as FCLIB files, CMD run on each
 * ({in}, {out} replaced by shell-quoted paths), solutions checked.  One
 * PASS/FAIL line per problem.  Returns 0, or -1 if it could not run. */
int fl_cli_solver_cmd_crosscheck(fl_cli_ctx *ctx);

#endif
