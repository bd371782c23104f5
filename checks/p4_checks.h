/* p4_checks.h — crosscheck and reproduce tasks of the generalized friction
 * law P'4 (paper 001 §3–§6); see checks/p4_checks.c.
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_P4_CHECKS_H
#define FL_P4_CHECKS_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "checks/fl_check.h"
#include "reference/p4_law.h"

int fl_p4_crosscheck(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_set(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_catastrophe(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_grazing(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_p5_vs_p3(fl_check_ctx *ctx);
int fl_p4_reproduce_systems_1_2(fl_check_ctx *ctx);
int fl_p4_reproduce_kane(fl_check_ctx *ctx);

/* A linear test system for fl_p4_simulate (the trajectories of
 * `crosscheck --law p4` and tests/test_p4_law.c): constant M (n x n) and
 * constraints phi(q) = D q + c (D m x n), force f = -k q + g, constant
 * friction sets C[a] (set and E).  fail = 1..5 makes the mass, force, gap,
 * gradient or friction callback fail (FL_EINVAL), to test the stepper's
 * error paths.  The struct is not owned by the system; it must outlive it. */
typedef struct fl_p4_check_linear {
    const gsl_matrix *M, *D;
    const fl_p4_friction *C;
    const gsl_vector *c, *g;
    double k;
    int fail;
} fl_p4_check_linear;

fl_p4_system fl_p4_check_linear_system(fl_p4_check_linear *L, double restitution);

#endif
