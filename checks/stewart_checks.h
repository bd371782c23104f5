/* stewart_checks.h — independent oracles of Stewart's P5 step (001 §6.2;
 * proofs/stewart_lcp.md), used by `frictionlab crosscheck --law stewart`
 * (checks/stewart_checks.c) and by tests/test_stewart_law.c.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_STEWART_CHECKS_H
#define FL_STEWART_CHECKS_H

#include <stddef.h>

#include "checks/fl_check.h"
#include "reference/stewart_law.h"
#include "models/fl_model_painleve.h"

/* Momentum-balance defect of a step, max_i |M (v+ - v-) - h f - H^T P~|_i
 * divided by max(1, max_i |r_i|) (proofs/stewart_lcp.md §2). */
double fl_stewart_check_balance(const fl_stewart_problem *p, const fl_stewart_result *r);

/* What the enumeration of every complementary basis of the step's LCP
 * (reference/lcp_enumerate.c) says about a Lemke answer res. */
typedef struct fl_stewart_enum_stats {
    size_t solutions;    /* LCP solutions enumerated */
    int found;           /* res->z is one of them (1e-7 relative) */
    int distinct;        /* distinct physical (v+, P~) among them, capped at 2 */
    size_t violations;   /* enumerated solutions violating Coulomb by more than 1e-8 */
} fl_stewart_enum_stats;

/* Enumerate the LCP of p (options o) and compare with res.  FL_OK, or the
 * status of the LCP build or the enumeration. */
fl_status fl_stewart_check_enumeration(const fl_stewart_problem *p, const fl_stewart_options *o,
                                       const fl_stewart_result *res, fl_stewart_enum_stats *st,
                                       fl_error *err);

/* One step of the Painlevé bar (001 §6.2) from theta0 with xdot = V0,
 * thetadot = 0: the P5 problem p of fl_model_painleve_stewart_system at that state. */
typedef struct fl_stewart_check_bar {
    fl_model_painleve_bar bar;
    fl_stewart_system sys;
    gsl_matrix *M, *H;
    gsl_vector *q, *v, *f, *gap;
    fl_stewart_problem p;
} fl_stewart_check_bar;

/* 0, or -1 when fl_model_painleve_stewart_system refuses the bar.  Release with
 * fl_stewart_check_bar_free. */
int fl_stewart_check_bar_init(fl_stewart_check_bar *b, const fl_model_painleve_bar *bar, double V0, double h);
void fl_stewart_check_bar_free(fl_stewart_check_bar *b);

/* The distinct physical solutions (xdot+, thetadot+, P~_n, P~_t) of a
 * 2-dof, one-contact planar step p, from every LCP solution
 * (reference/lcp_enumerate.c) mapped by fl_stewart_lcp_recover: up to 4 in
 * sol; *coulomb (may be NULL) receives the largest Coulomb violation among
 * the enumerated solutions.  Returns the count, or -1. */
int fl_stewart_check_physical_solutions(const fl_stewart_problem *p, double sol[4][4], double *coulomb);

#endif
