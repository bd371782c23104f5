/* sets_checks.h — independent oracles on friction sets
 * (proofs/friction_sets.md), used by `frictionlab crosscheck --law sets`
 * (checks/sets_checks.c) and by tests/test_friction_sets.c. */
#ifndef FL_SETS_CHECKS_H
#define FL_SETS_CHECKS_H

#include "fl_friction_set.h"

/* Exact optimality certificate of p = P^G_C(x) (proofs/friction_sets.md §2):
 * p in C and (x - p)^T G (g - p) <= 0 for the generators g of C (vertices;
 * for the directions d of rays (x - p)^T G d <= 0), or mu |G (x - p)| <=
 * (G (x - p)).p for a disc.  G (dim x dim, row major) may be NULL for the
 * Euclidean metric.  Returns the worst violation, scaled (0 when certified;
 * compare with a tolerance of rounding size). */
double fl_sets_check_certificate(const fl_friction_set *C, const double *G, const double *x, const double *p);

/* Brute force for the projection of x onto the disc mu B (2D) in the
 * metric G (2 x 2 SPD, row major): 4000 samples of the circle then a
 * golden-section refinement; best receives the nearest boundary point
 * (x outside the disc). */
void fl_sets_check_brute_disc(double mu, const double *G, const double *x, double *best);

#endif
