/* bench.h — the benchmark tasks of bench/, run by `frictionlab bench NAME`:
 * each measures reference against optimized in one run, writes CSV and a
 * plot through ctx (checks/fl_check.h) and returns 0, or -1 if it could not
 * run at all. */
#ifndef FL_BENCH_H
#define FL_BENCH_H

#include "checks/fl_check.h"

/* bench NAME (bench/) */
int fl_bench_stewart(fl_check_ctx *ctx);               /* bench/bench_lemke.c */
int fl_bench_midpoint(fl_check_ctx *ctx);              /* bench/bench_midpoint.c */
int fl_bench_nsgs(fl_check_ctx *ctx);                  /* bench/bench_nsgs.c */
int fl_bench_discs(fl_check_ctx *ctx);                 /* bench/bench_discs.c */
int fl_bench_moreau(fl_check_ctx *ctx);                /* bench/bench_moreau.c */
int fl_bench_stability(fl_check_ctx *ctx);             /* bench/bench_stability.c */

#endif
