/* registry.h — entry points of every registered task.  A module adds its
 * functions here and one line to the matching table in registry.c. */
#ifndef FL_REGISTRY_H
#define FL_REGISTRY_H

#include "cli.h"

/* crosscheck --law ... */
int fl_midpoint_crosscheck(fl_cli_ctx *ctx);           /* cli/midpoint_checks.c */
int fl_crosscheck_sets(fl_cli_ctx *ctx);             /* cli/sets_checks.c */
int fl_moreau_crosscheck(fl_cli_ctx *ctx);            /* cli/moreau_checks.c */
int fl_stewart_crosscheck(fl_cli_ctx *ctx);           /* cli/stewart_checks.c */
int fl_nsgs_crosscheck(fl_cli_ctx *ctx);              /* cli/nsgs_checks.c */
int fl_newton_crosscheck(fl_cli_ctx *ctx);            /* cli/newton_checks.c */

int fl_p4_crosscheck(fl_cli_ctx *ctx);                /* cli/p4_checks.c */
int fl_stability_crosscheck(fl_cli_ctx *ctx);         /* cli/stability_checks.c */

/* reproduce NAME */
int fl_midpoint_reproduce_triangle(fl_cli_ctx *ctx);     /* cli/midpoint_checks.c */
int fl_midpoint_reproduce_square_block(fl_cli_ctx *ctx); /* cli/midpoint_checks.c */
int fl_moreau_reproduce_theorem1(fl_cli_ctx *ctx);   /* cli/moreau_checks.c */
int fl_stewart_reproduce_painleve(fl_cli_ctx *ctx);  /* cli/stewart_checks.c */
int fl_nsgs_reproduce_wedged_rod(fl_cli_ctx *ctx);    /* cli/nsgs_checks.c */

int fl_p4_reproduce_painleve_set(fl_cli_ctx *ctx);          /* cli/p4_checks.c */
int fl_p4_reproduce_painleve_catastrophe(fl_cli_ctx *ctx);  /* cli/p4_checks.c */
int fl_p4_reproduce_painleve_grazing(fl_cli_ctx *ctx);      /* cli/p4_checks.c */
int fl_p4_reproduce_painleve_p5_vs_p3(fl_cli_ctx *ctx);     /* cli/p4_checks.c */
int fl_p4_reproduce_systems_1_2(fl_cli_ctx *ctx);           /* cli/p4_checks.c */
int fl_p4_reproduce_kane(fl_cli_ctx *ctx);                  /* cli/p4_checks.c */
int fl_stability_reproduce_example_3_14(fl_cli_ctx *ctx);  /* cli/stability_checks.c */
int fl_stability_reproduce_example_3_15(fl_cli_ctx *ctx);  /* cli/stability_checks.c */
int fl_stability_reproduce_example_4_6(fl_cli_ctx *ctx);   /* cli/stability_checks.c */
int fl_stability_reproduce_polyurethane(fl_cli_ctx *ctx);  /* cli/polyurethane.c */
int fl_stability_reproduce_polyurethane_damping(fl_cli_ctx *ctx); /* cli/polyurethane.c */


int fl_discs_reproduce_28(fl_cli_ctx *ctx);            /* cli/discs_checks.c */
int fl_discs_reproduce_slope(fl_cli_ctx *ctx);         /* cli/discs_checks.c */

/* bench NAME (bench/) */
int fl_bench_stewart(fl_cli_ctx *ctx);               /* bench/bench_lemke.c */
int fl_bench_midpoint(fl_cli_ctx *ctx);              /* bench/bench_midpoint.c */
int fl_bench_nsgs(fl_cli_ctx *ctx);                  /* bench/bench_nsgs.c */
int fl_bench_discs(fl_cli_ctx *ctx);                 /* bench/bench_discs.c */
int fl_bench_moreau(fl_cli_ctx *ctx);                /* bench/bench_moreau.c */
int fl_bench_stability(fl_cli_ctx *ctx);             /* bench/bench_stability.c */

#endif
