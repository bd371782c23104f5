/* midpoint_checks.h — the report of `frictionlab crosscheck --law midpoint`
 * as a library function, from the statistics the crosscheck gathers over
 * its random FE blocks and Lemma 4.1 systems (so a test can feed it
 * corrupted statistics and see each check fail).  Plain values. */
#ifndef FL_MIDPOINT_CHECKS_H
#define FL_MIDPOINT_CHECKS_H

#include "checks/fl_check.h"
#include "reference/midpoint.h"

typedef struct fl_midpoint_xstats {
    long nblocks, failures, steps;      /* random FE blocks, those that failed, steps taken */
    double worst_state;      /* max relative difference reference vs sparse (u, r) */
    double worst_identity;   /* max |E^{k+1} - E^k - works| / scale (002 Prop. 5.1 identity) */
    double worst_friction;   /* max friction work per step / scale (<= 0) */
    double worst_res;        /* max natural-map residual of the steps */
    double worst_kernel;     /* max |lambda_nc(M_r)| / lambda_max (Ker M_r, 002 (6)) */
    double worst_gram;       /* max relative change of R^T M_r R */
    double worst_mr;         /* max relative difference low-rank sparse vs dense M_r */
    long lem, lem_bad;       /* Lemma 4.1 systems, failures */
    double worst_ratio;      /* max Lipschitz ratio / bound (<= 1) */
} fl_midpoint_xstats;

void fl_midpoint_crosscheck_report(fl_check_ctx *ctx, const fl_midpoint_xstats *x);

/* 002 §7, Fig. 9: "Numerical convergence with an order < 1 is found".
 * The fitted order is the least-squares slope of log e against log h over
 * the n points with h, e finite and > 0 (NAN if fewer than 2).  The
 * criterion of `reproduce square_block_002` (proofs/convergence_002.md):
 * each error below the previous one (h decreasing) in both norms, and both
 * fitted orders within [FL_MIDPOINT_FIG9_ORDER_MIN, FL_MIDPOINT_FIG9_ORDER_MAX],
 * the paper's range (0, 1) widened by 0.25 on either side of the upper
 * end and cut at 0.25 below: an order under 0.25 over the 8x refinement
 * of Table 2 is an error falling by less than 40%, not convergence. */
#define FL_MIDPOINT_FIG9_ORDER_MIN 0.25
#define FL_MIDPOINT_FIG9_ORDER_MAX 1.25
double fl_midpoint_fitted_order(size_t n, const double *h, const double *e);
int fl_midpoint_order_matches_fig9(size_t n, const double *eL2, const double *eH1, double pL2, double pH1);

/* The square block's initial state (002 §7; the initial state is [MISSING]
 * in 002): one sparse step of 1e6 s from rest, frictionless unless steady,
 * so u0 (n entries) is the static contact solution.  *open (may be NULL)
 * is increased by the number of open contacts.  0, or -1 with e filled.
 * The reproduction and bench/convergence_002.c start from it. */
int fl_midpoint_block_static_start(const fl_midpoint_problem *p, const fl_midpoint_options *o, int steady,
                                   double *u0, size_t *open, fl_error *e);

#endif
