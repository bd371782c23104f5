/* fl_lcp_random.h — random linear complementarity problems LCP(M, q) with
 * a planted solution: the families on which the LCP solvers
 * (reference/lemke.h, reference/lcp_enumerate.h) are property-tested and
 * cross-checked (tests/test_lcp_enumerate.c, tests/test_lemke.c,
 * checks/stewart_checks.c, bench/bench_lemke_siconos.c). */
#ifndef FL_LCP_RANDOM_H
#define FL_LCP_RANDOM_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

/* Random LCP families for property tests and cross-checks (all draws from
 * the gsl_rng passed in):
 *   FL_LCP_PD       M = A A^T + I/10 + S, S skew: positive definite (x.Mx > 0),
 *                   a P-matrix: exactly one solution for every q;
 *   FL_LCP_PMATRIX  a P-matrix that is not positive definite in general:
 *                   D1 P U P^T D2 with U upper triangular with diagonal in
 *                   [0.5, 1.5] and off-diagonal entries up to 3 (n <= 4) or
 *                   12/n (n > 4, to keep U^-1 bounded), P a random
 *                   permutation, D1, D2 positive diagonal (every principal
 *                   minor is a positive product of diagonal entries);
 *   FL_LCP_COPOSITIVE_PLUS  M = B B^T + S, B of rank ~n/2, S skew:
 *                   positive semidefinite, hence copositive-plus (several
 *                   solutions possible; Lemke solves every feasible one).
 * q is planted: q = w* - M z* with z*, w* >= 0, z*.w* = 0 and a random
 * support, so a solution exists; with `degenerate` some pairs are both 0
 * (and q gets zeros). */
typedef enum fl_lcp_family {
    FL_LCP_PD = 0,
    FL_LCP_PMATRIX = 1,
    FL_LCP_COPOSITIVE_PLUS = 2
} fl_lcp_family;

/* M n x n and q, z_star (may be NULL) of length n.  FL_OK, or FL_ENOMEM
 * when a workspace allocation fails (M, q, z_star are then unspecified). */
fl_status fl_lcp_random(gsl_rng *r, fl_lcp_family family, int degenerate, gsl_matrix *M,
                   gsl_vector *q, gsl_vector *z_star);

#endif
