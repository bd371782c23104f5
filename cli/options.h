/* options.h — the one source of every option of the frictionlab command.
 *
 * Each subcommand is a table (fl_cli_cmd): its name, synopsis, description,
 * options {long name, getopt key, value placeholder, help with its default,
 * completion}, exit status and examples.  From these tables come the --help
 * texts (fl_cli_cmd_help), the getopt_long arrays (fl_cli_cmd_longopts) and,
 * at build time, the man page frictionlab(1) and the bash completion
 * (cli/gen_doc.c), so that the four cannot drift apart.
 */
#ifndef FL_CLI_OPTIONS_H
#define FL_CLI_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* One option.  name: the long name without "--", or one letter for a
 * short-only option (-j); value: the placeholder of its value, NULL for a
 * flag; help: one or more lines ('\n' between), the default in brackets;
 * complete: what the bash completion offers for the value: "words a b c",
 * "file", "dir", "names SUB" (the names `frictionlab SUB --list` prints),
 * "names+all SUB" (the same and "all"), or NULL (nothing). */
typedef struct fl_cli_opt {
    const char *name;
    int key;
    const char *value;
    const char *help;
    const char *complete;
} fl_cli_opt;

/* One subcommand.  name: "solve", "bench suite"; synopsis: the usage lines
 * without "frictionlab " ('\n' between); operands: what the completion
 * offers for a word that is not an option ("names SUB", "problem" (a .hdf5,
 * .h5 or .dat file), "file", "dir", NULL); examples: command lines ('\n'
 * between), each run by tests/help_examples.sh. */
typedef struct fl_cli_cmd {
    const char *name;
    const char *synopsis;
    const char *description;
    const fl_cli_opt *opts;   /* ends with {NULL} */
    const char *exit_status;
    const char *examples;
    const char *operands;
} fl_cli_cmd;

/* Every subcommand, ending with {NULL}. */
extern const fl_cli_cmd fl_cli_cmds[];

/* The table of the subcommand NAME ("solve", "bench suite"), or NULL. */
const fl_cli_cmd *fl_cli_cmd_find(const char *name);

/* The full --help text of c on f. */
void fl_cli_cmd_help(FILE *f, const fl_cli_cmd *c);

/* The short usage (synopsis and "Try 'frictionlab NAME --help'.") on f. */
void fl_cli_cmd_short(FILE *f, const fl_cli_cmd *c);

/* getopt_long's arrays of c: longs (room for cap entries, ending with a
 * zero entry) and shorts (room for scap chars: ":h" and the short-only
 * options).  Returns 0, or -1 when the room is too small. */
int fl_cli_cmd_longopts(const fl_cli_cmd *c, struct option *longs, size_t cap, char *shorts,
                        size_t scap);

/* The directory of the running program (/proc/self/exe) put first on PATH,
 * so that `frictionlab` in a command started by crosscheck --solver-cmd or
 * bench suite is this very program.  0, or -1 if it cannot be found. */
int fl_cli_path_self_first(void);

#endif
