/* bench_suite.h — `frictionlab bench suite` and `frictionlab bench merge`
 * (cli/bench_suite.c; the library part is checks/suite.h and
 * report/fl_suite.h).  argv[0] is the word "suite" / "merge"; version and commit are the command's (for
 * suite.json).  Each returns the exit code. */
#ifndef FL_BENCH_SUITE_H
#define FL_BENCH_SUITE_H

int fl_cli_bench_suite(int argc, char **argv, const char *version, const char *commit);
int fl_cli_bench_merge(int argc, char **argv);

#endif
