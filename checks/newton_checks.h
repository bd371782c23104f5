/* newton_checks.h — the report of `frictionlab crosscheck --law newton`
 * (checks/newton_checks.c) as a library function, from the statistics the
 * crosscheck gathers over its random systems, so that a test can feed it
 * corrupted statistics and see each check fail.  Plain values. */
#ifndef FL_NEWTON_CHECKS_H
#define FL_NEWTON_CHECKS_H

#include "checks/fl_check.h"

/* The solvers compared: 0 reference GS, 1 optimized GS, 2 reference
 * Newton, 3 optimized Newton. */
enum { FL_NEWTON_XSOLVERS = 4 };

typedef struct fl_newton_xstats {
    long systems, errors;                      /* systems run, error statuses */
    long converged[FL_NEWTON_XSOLVERS];        /* converged runs per solver */
    double err_max[FL_NEWTON_XSOLVERS];        /* max natural-map error recomputed from r */
    double viol[FL_NEWTON_XSOLVERS];           /* max Coulomb/Signorini violation */
    long unique, unique_off;                   /* 2D unique systems, answers off the solution */
    double unique_dist;                        /* max distance to it (relative) */
    long global_runs, global_conv[2];          /* global problems, converged per twin */
    double global_viol[2], global_eq[2];       /* Coulomb at U = H v + w, |M v - f - H^T r| */
    long refuse_cases, refuse_mismatch;        /* inputs tried, accepted/refused differently */
} fl_newton_xstats;

/* The PASS/FAIL lines of crosscheck --law newton for st over N systems
 * (seed: ctx->seed, printed). */
void fl_newton_crosscheck_report(fl_check_ctx *ctx, const fl_newton_xstats *st, long N);

#endif
