/* check_run.h — runs the checks of checks/ inside the command: an
 * fl_check_ctx made from the command's fl_cli_ctx, whose callbacks print
 * PASS/FAIL/NOTE lines on stdout, progress and diagnostics on stderr, and
 * draw plots with gnuplot. */
#ifndef FL_CHECK_RUN_H
#define FL_CHECK_RUN_H

#include "cli.h"
#include "checks/fl_check.h"

typedef int (*fl_cli_check_fn)(fl_check_ctx *ctx);

/* Run fn on a check context built from cli; PASS/FAIL lines go through
 * fl_cli_check (so cli's counts are the checks' counts). */
int fl_cli_run_check(fl_cli_ctx *cli, fl_cli_check_fn fn);

/* The options every command takes: `--data DIR` (where data/ is) and
 * `--params FILE` (reproduce NAME --params FILE: the example on the user's
 * own parameters).  Removes them from argv (updating *argc) and keeps their
 * values for fl_cli_run_check.  Returns 0, or 2 after a message when a
 * value is missing. */
int fl_cli_global_options(int *argc, char **argv);

/* The --data DIR of this run, or NULL (core/fl_data.h then decides). */
const char *fl_cli_data_dir(void);

/* The --params FILE of this run, or NULL. */
const char *fl_cli_params(void);

#endif
