/* twins.h — the agreement harness of the twin pairs: it runs every type of
 * a law's table (drivers/fl_types.h) on the same input and measures how far
 * each lies from the first (the reference).  Used by the crosscheck
 * functions of checks/ and by the tests (tests/test_twins.c, ...), so that
 * each twin comparison is written once.  Plain statistics, no verdicts: a
 * caller compares them with its tolerances. */
#ifndef FL_TWINS_H
#define FL_TWINS_H

#include "drivers/fl_types.h"

/* max |a_i - b_i| / max(|a_i|, |b_i|, 1e-300) */
double fl_twins_rel_diff(const double *a, const double *b, size_t n);

/* ---- midpoint (002 (20)-(23)) ---- */
/* Worst values over the steps run, accumulated (max) across calls; start
 * from fl_twins_midpoint_stats_init(). */
typedef struct fl_twins_midpoint_stats {
    long steps;               /* steps compared */
    long failures;            /* a stepper refused to allocate or to step */
    double du, dv, dy;        /* max relative difference of u^{k+1}, v^{k+1}, y = (r_n, r_t) */
    double delassus;          /* max relative difference of the contact Delassus D */
    double energy;            /* max |E_twin - E_ref| / (1 + |E_ref|) */
    double identity[2];       /* per type: max |E^{k+1} - E^k - works| / scale, scale =
                                 |E^k| + |E^{k+1}| + |works| (002 Prop. 5.1) */
    double friction[2];       /* per type: max friction work / the same scale (AT_MIDPOINT; <= 0) */
    double residual[2];       /* per type: max natural-map residual of the step problem */
} fl_twins_midpoint_stats;
fl_twins_midpoint_stats fl_twins_midpoint_stats_init(void);

/* Every type of fl_midpoint_types on problem p[k] (the same system, in the
 * storage type k reads; p[1] may equal p[0] when it carries both) with
 * options o, nsteps steps from the state start (u, v, y): each step starts
 * every type from the reference's state, so that roundoff amplified by an
 * unstable run does not hide a real difference.  start is not changed.
 * Returns the steps run (< nsteps after a failure, counted in failures). */
long fl_twins_midpoint(const fl_midpoint_problem *const p[2], const fl_midpoint_options *o,
                       const fl_midpoint_state *start, int nsteps, fl_twins_midpoint_stats *x);

#endif
