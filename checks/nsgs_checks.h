/* nsgs_checks.h — the checks of `frictionlab crosscheck --law nsgs` as
 * library functions: one random system's checks accumulated into a stats
 * struct, the clouds of 003 §3 against the enumerated solution set, 004
 * Lemma 2.4 on one impact, and the PASS/FAIL lines from the stats (so a
 * test can feed the report corrupted statistics and see it fail).
 * Ownership: the stats struct is plain values.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_NSGS_CHECKS_H
#define FL_NSGS_CHECKS_H

#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "checks/fl_check.h"
#include "fl_problem.h"
#include "fl_sparse.h"
#include "reference/enumerate.h"

typedef struct fl_nsgs_stats {
    long systems, converged[2], unique, unique_disagree, errors;
    double viol[2];           /* max Coulomb violation of the limits (reference, optimized) */
    double unique_diff;       /* max |r_ref - r_opt| / (1 + |r_ref|) on unique systems */
    double lemma_err;         /* max |dT - Lemma 2.4| / (T- + 1e-3) */
    double dT_max;            /* max dT / (T- + 1e-3) */
    double impact_viol;       /* max violation of 004 (19) with U^a */
    long lemma_n;
    long cloud_dots, cloud_outside, unique_spread, enum_solutions, enum_reached, fixed_fail;
    double delassus_solves, delassus_trailing;
} fl_nsgs_stats;

/* Every check of crosscheck --law nsgs on the random system of `seed`. */
int fl_nsgs_check_system(unsigned long seed, fl_sparse_ctx *ctx, fl_nsgs_stats *st);

/* 003 §3 clouds (random orderings from zero: reference; random starts:
 * optimized; `runs` each) of p against its enumerated solutions e: dots
 * outside e (cloud_outside), a unique problem giving several distinct
 * limits (unique_spread); seen[k] set for each solution k < 64 reached. */
void fl_nsgs_check_clouds(const fl_local_problem *p, const fl_enumerate_result *e, gsl_rng *rng, size_t runs,
                          unsigned char seen[64], fl_nsgs_stats *st);

/* 004 Lemma 2.4 (identity and dT <= 0) and the impact rule (19)-(20) on the
 * pure impact f = M u- of g (g->f is overwritten), both implementations. */
void fl_nsgs_check_impact(fl_global_problem *g, const gsl_vector *um, double delta, fl_nsgs_stats *st);

/* The PASS/FAIL lines of crosscheck --law nsgs for st over N systems. */
void fl_nsgs_report(fl_check_ctx *ctx, const fl_nsgs_stats *st, long N);

#endif
