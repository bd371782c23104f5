/* fl_tasks.h — the entry points of the checks and examples of checks/:
 * each runs its checks and reports them through ctx (checks/fl_check.h),
 * returning 0, or -1 if it could not run at all (the command counts that as
 * one failed check).  The command registers them (cli/registry.c); the
 * tests may call them directly. */
#ifndef FL_TASKS_H
#define FL_TASKS_H

#include "checks/fl_check.h"

/* crosscheck --law ... */
int fl_midpoint_crosscheck(fl_check_ctx *ctx);           /* checks/midpoint_checks.c */
int fl_sets_crosscheck(fl_check_ctx *ctx);             /* checks/sets_checks.c */
int fl_moreau_crosscheck(fl_check_ctx *ctx);            /* checks/moreau_checks.c */
int fl_stewart_crosscheck(fl_check_ctx *ctx);           /* checks/stewart_checks.c */
int fl_nsgs_crosscheck(fl_check_ctx *ctx);              /* checks/nsgs_checks.c */
int fl_newton_crosscheck(fl_check_ctx *ctx);            /* checks/newton_checks.c */

int fl_p4_crosscheck(fl_check_ctx *ctx);                /* checks/p4_checks.c */
int fl_stability_crosscheck(fl_check_ctx *ctx);         /* checks/stability_checks.c */

/* reproduce NAME */
int fl_midpoint_reproduce_triangle(fl_check_ctx *ctx);     /* checks/midpoint_checks.c */
int fl_midpoint_reproduce_square_block(fl_check_ctx *ctx); /* checks/midpoint_checks.c */
int fl_moreau_reproduce_theorem1(fl_check_ctx *ctx);   /* checks/moreau_checks.c */
int fl_stewart_reproduce_painleve(fl_check_ctx *ctx);  /* checks/stewart_checks.c */
int fl_nsgs_reproduce_wedged_rod(fl_check_ctx *ctx);    /* checks/nsgs_checks.c */

int fl_p4_reproduce_painleve_set(fl_check_ctx *ctx);          /* checks/p4_checks.c */
int fl_p4_reproduce_painleve_catastrophe(fl_check_ctx *ctx);  /* checks/p4_checks.c */
int fl_p4_reproduce_painleve_grazing(fl_check_ctx *ctx);      /* checks/p4_checks.c */
int fl_p4_reproduce_painleve_p5_vs_p3(fl_check_ctx *ctx);     /* checks/p4_checks.c */
int fl_p4_reproduce_systems_1_2(fl_check_ctx *ctx);           /* checks/p4_checks.c */
int fl_p4_reproduce_kane(fl_check_ctx *ctx);                  /* checks/p4_checks.c */
int fl_stability_reproduce_example_3_14(fl_check_ctx *ctx);  /* checks/stability_checks.c */
int fl_stability_reproduce_example_3_15(fl_check_ctx *ctx);  /* checks/stability_checks.c */
int fl_stability_reproduce_example_4_6(fl_check_ctx *ctx);   /* checks/stability_checks.c */
int fl_stability_reproduce_polyurethane(fl_check_ctx *ctx);  /* checks/polyurethane.c */
int fl_stability_reproduce_polyurethane_damping(fl_check_ctx *ctx); /* checks/polyurethane.c */


int fl_discs_reproduce_28(fl_check_ctx *ctx);            /* checks/discs_checks.c */
int fl_discs_reproduce_slope(fl_check_ctx *ctx);         /* checks/discs_checks.c */

#endif
