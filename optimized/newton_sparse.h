/* newton_sparse.h — sparse twin of reference/newton.h: semismooth Newton on
 * the Alart–Curnier function (Alart & Curnier 1991, §3; proofs/newton.md)
 * with the generalized Jacobian in CSC storage and factored by UMFPACK.
 *
 * The Jacobian's pattern does not depend on the iterate (newton.h (N3),
 * (N4): D_a is a full dim x dim block wherever it may be nonzero), so it is
 * built once per solve with every block of D stored, and UMFPACK's symbolic
 * analysis (umfpack_di_symbolic) is computed once and reused by the numeric
 * factorisation of every Newton step.  Same options, result, stopping rule,
 * line search and fallback as the reference; the Gauss–Seidel fallback is
 * the sparse one (fl_nsgs_solve_sparse).  The twins share the law, not the
 * iterates: each answer satisfies the natural-map tolerance, and they agree
 * where the solution is unique (tests/test_newton.c).
 */
#ifndef FL_NEWTON_SPARSE_H
#define FL_NEWTON_SPARSE_H

#include "reference/newton.h"

/* Local problem with sparse W (p->Ws; need not be symmetric). */
fl_status fl_newton_solve_sparse(const fl_local_problem *p, const fl_newton_options *opt,
                                 gsl_vector *r, gsl_vector *U, fl_newton_result *res,
                                 fl_error *err);

/* Global problem with sparse g->Ms (SPD, stype 1) and g->Hs (m x n), no W
 * formed: Newton on (v, r), system (N4) of newton.h by UMFPACK; M^-1 is
 * applied by a CHOLMOD factor only for the initial v and the error
 * normalisation q = H M^-1 f + w. */
fl_status fl_newton_global_solve_sparse(const fl_global_problem *g,
                                        const fl_newton_options *opt, gsl_vector *v,
                                        gsl_vector *r, gsl_vector *U, fl_newton_result *res,
                                        fl_error *err);

#endif
