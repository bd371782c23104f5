/* xval_cmd.h — `frictionlab crosscheck --solver-cmd CMD` (cli/xval_cmd.c):
 * the command glue of the solver cross-validation of checks/xval.h. */
#ifndef FL_CLI_XVAL_CMD_H
#define FL_CLI_XVAL_CMD_H

#include "cli.h"
#include "checks/xval.h"

/* crosscheck --solver-cmd CMD [--family F,G|all] [--timeout S] [--systems N]
 * [--full] [--corpus DIR] [--out DIR]: the problems of the chosen families
 * written as FCLIB files, CMD run on each ({in}, {out} replaced by
 * shell-quoted paths), each answer checked (one PASS/FAIL line per
 * problem).  In ctx->out_dir: xval.csv (a row per problem), xval_summary.txt
 * (by family: solved, failed, median time ratio), xval_profile.csv and
 * xval_profile.png (performance profile, gnuplot).  Returns 0, or -1 if it
 * could not run. */
int fl_cli_xval_crosscheck(fl_cli_ctx *ctx);

/* The same with the solver fn called in this process (fl_xval_check_fn)
 * instead of a command: the same problems, certified answers, verdicts,
 * PASS/FAIL lines and report files (label names it where the command would
 * be named); no problem file is written.  For the Python module's
 * frictionlab.crosscheck (python/). */
int fl_cli_xval_crosscheck_fn(fl_cli_ctx *ctx, fl_xval_solver_fn fn, void *user,
                              const char *label);

/* Parse a --timeout value (seconds, > 0, finite).  0 or -1. */
int fl_cli_xval_parse_timeout(const char *s, double *out);

#endif
