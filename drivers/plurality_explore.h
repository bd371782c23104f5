/* plurality_explore.h — Moreau's exploration of the solution set of the Contact
 * Dynamics core problem (003 §3–5 modes (b), (c)).
 *
 * "One possibility for this exploration is to execute a large number of
 * runs of the cyclic iteration process, each time with initial guess drawn
 * at random from some plausible range ... Alternatively, one may launch all
 * runs from zero initial guess while choosing at random, for each run, the
 * ordering of the cyclic review of contacts." (003 §3)  Each converged run
 * gives one dot; the dots form the cloud, and the distinct ones (within
 * dedup_tol) are collected with their multiplicities.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_PLURALITY_H
#define FL_PLURALITY_H

#include "moreau_jean.h"

typedef enum fl_plurality_mode {
    FL_PLURALITY_RANDOM_ORDER = 0,   /* zero start, one random ordering per run */
    FL_PLURALITY_RANDOM_START = 1    /* random initial guess, natural ordering */
} fl_plurality_mode;

typedef struct fl_plurality_options {
    fl_plurality_mode mode;
    size_t runs;              /* default 100 */
    double dedup_tol;         /* distinct if |r - r'| > dedup_tol (1 + |r|); default 1e-6 */
    fl_impl impl;             /* reference (dense W) or optimized (sparse W) */
    fl_nsgs_options nsgs;     /* rng required; order/start are set by the mode */
} fl_plurality_options;

typedef struct fl_cloud {
    size_t m;
    size_t npts;              /* converged runs */
    double *pts;              /* npts x m */
    size_t ndistinct;
    double *distinct;         /* ndistinct x m */
    size_t *count;            /* runs reaching each distinct point */
    size_t nfailed;           /* runs that did not converge */
} fl_cloud;

typedef struct fl_plurality_result {
    fl_status status;
    int iterations;           /* total sweeps */
    double residual;          /* worst final error of a converged run */
    double seconds;
} fl_plurality_result;

fl_plurality_options fl_plurality_options_default(void);

/* Run opt->runs Gauss–Seidel runs on p and collect the cloud. */
fl_status fl_plurality_explore(const fl_local_problem *p, const fl_plurality_options *opt,
                               fl_cloud **out, fl_plurality_result *res, fl_error *err);
void fl_cloud_free(fl_cloud *c);

#endif
