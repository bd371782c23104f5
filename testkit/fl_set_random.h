/* fl_set_random.h — random friction sets and random pairs (r, v) that obey
 * (or violate) Coulomb's law, for property tests and `frictionlab
 * crosscheck --law sets` (proofs/README.md; 001 §2.1, §3.2).
 *
 * These live in the library (not only in tests/support) because the
 * frictionlab command draws the same random systems as the Criterion tests;
 * testkit/fl_random.h wraps them as fl_random_friction_set & co.
 * Randomness only through the gsl_rng passed in.
 *
 * Every set drawn contains 0 (the laws of 001 require 0 in C*).  Scales are
 * log-uniform in [1e-2, 10] like friction coefficients.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_SET_RANDOM_H
#define FL_SET_RANDOM_H

#include <gsl/gsl_rng.h>

#include "fl_friction_set.h"

/* The variants fl_set_random_variant draws (fl_set_random picks one
 * uniformly). */
enum {
    FL_SETRAND_DISC1 = 0,        /* [-mu, mu] as a 1D disc */
    FL_SETRAND_DISC2,            /* mu B, the Coulomb disc */
    FL_SETRAND_INTERVAL,         /* [a, b], a <= 0 <= b */
    FL_SETRAND_INTERVAL_UPPER,   /* ]-inf, b], b >= 0 (001 §6.2) */
    FL_SETRAND_INTERVAL_LOWER,   /* [a, +inf[, a <= 0 */
    FL_SETRAND_LINE,             /* ]-inf, +inf[ */
    FL_SETRAND_POLYGON,          /* bounded, strictly convex, 3..8 vertices */
    FL_SETRAND_SEGMENT,          /* degenerate polygon: a point or a segment */
    FL_SETRAND_POLYGON_RAY1,     /* conv + one ray (1..5 vertices; 1: half-line) */
    FL_SETRAND_POLYGON_RAY2,     /* conv + two rays (a pointed wedge) */
    FL_SETRAND_NVARIANTS
};

/* Draw a set of the given variant into C (release with fl_friction_set_release). */
fl_status fl_set_random_variant(gsl_rng *r, int variant, fl_friction_set *C, fl_error *err);
/* Draw a set of a uniformly chosen variant. */
fl_status fl_set_random(gsl_rng *r, fl_friction_set *C, fl_error *err);

/* A random point of C (length C->dim): convex combination of the vertices
 * plus a nonnegative combination of the rays; uniform in discs and bounded
 * intervals; an exponential tail along infinite interval ends. */
void fl_set_random_point(gsl_rng *r, const fl_friction_set *C, double *x);

/* A random point of R^dim around C: a random point of C plus a Gaussian of
 * the size of C (inside or outside C). */
void fl_set_random_near(gsl_rng *r, const fl_friction_set *C, double *x);

/* Random SPD dim x dim matrix (row-major), condition number log-uniform in
 * [1, cond_max], scale log-uniform in [1e-1, 10]. */
void fl_set_random_metric(gsl_rng *r, int dim, double cond_max, double *G);

/* A random (rn, r, v) obeying Coulomb's law with the set rn C (001 §3.2):
 * r = rn p with p = P_C(x) for a random x outside C, n = (x - p)/|x - p| a
 * unit outer normal (n in N_C(p)), v = -lambda n with lambda >= 0
 * (lambda = 0 sometimes: sticking; rn = 0 sometimes: r = 0 and any v).
 * nhat receives n (a random unit vector when rn = 0; 0 when r / rn was
 * drawn inside C with v = 0); returns 1 when a boundary point was found, 0
 * when C has none (C = R: then v = 0, nhat = 0 and r is any point of rn C). */
int fl_set_random_coulomb(gsl_rng *r, const fl_friction_set *C, double *rn, double *rt,
                          double *v, double *nhat);

/* A random (rn, r, v) that violates Coulomb's law by a margin far above
 * any rounding (proofs/friction_sets.md §6): a law-obeying triple is
 * perturbed by r += delta n (r leaves rn C by delta), r -= delta n while
 * sliding (dissipation deficit delta |v|), r = delta u when rn = 0, or
 * v != 0 for C = R (S_C(-v) = +inf).  Returns the perturbation used
 * (1..4). */
int fl_set_random_violation(gsl_rng *r, const fl_friction_set *C, double *rn, double *rt,
                            double *v);

/* Scale of a set for relative tolerances in the property checks shared by
 * the crosscheck (checks/sets_checks.c) and the tests: 1 + mu for a disc,
 * 1 + |finite ends| for an interval, 1 + sum of |vertex| for a polygon. */
double fl_set_random_scale(const fl_friction_set *C);

#endif
