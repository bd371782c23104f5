/* registry.h — entry points of every registered task.  A module adds its
 * functions here and one line to the matching table in registry.c. */
#ifndef FL_REGISTRY_H
#define FL_REGISTRY_H

#include "cli.h"

/* crosscheck --law ... */
int fl_moreau_crosscheck(fl_cli_ctx *ctx);            /* cli/moreau_checks.c */
int fl_stewart_crosscheck(fl_cli_ctx *ctx);           /* cli/stewart_checks.c */
int fl_nsgs_crosscheck(fl_cli_ctx *ctx);              /* cli/nsgs_checks.c */

/* reproduce NAME */
int fl_moreau_reproduce_theorem1(fl_cli_ctx *ctx);   /* cli/moreau_checks.c */
int fl_stewart_reproduce_painleve(fl_cli_ctx *ctx);  /* cli/stewart_checks.c */
int fl_nsgs_reproduce_wedged_rod(fl_cli_ctx *ctx);    /* cli/nsgs_checks.c */

/* bench NAME (bench/) */
int fl_bench_moreau(fl_cli_ctx *ctx);                /* bench/bench_moreau.c */

#endif
