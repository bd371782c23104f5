/* ppa_problems.h — what the proximal-point tests (test_ppa.c,
 * test_ppa_decisions.c) share: their random problems (random_local.h) and
 * the error of the regularised subproblem (P1) of proofs/ppa.md, recomputed
 * independently of the solver.  Include after twin_check.h (its sparse
 * context `ctx`). */
#ifndef FL_TESTS_PPA_PROBLEMS_H
#define FL_TESTS_PPA_PROBLEMS_H

#include <gsl/gsl_blas.h>

#include "fl_residual.h"
#include "random_local.h"

/* |F(r, U)| of the law with the velocity U_k = W r + q + eta (r - r0)
 * (the regularised problem (P1)), unnormalised, recomputed here. */
static inline double regularised_error(const fl_local_problem *p, const gsl_vector *r,
                                       const gsl_vector *r0, double eta)
{
    gsl_vector *U = gsl_vector_alloc(p->m);
    gsl_vector_memcpy(U, p->q);
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, r, 1.0, U);
    gsl_blas_daxpy(eta, r, U);
    gsl_blas_daxpy(-eta, r0, U);
    double e = fl_residual_natural_map(p->dim, p->nc, p->mu, r->data, U->data, 1.0,
                                       FL_RESIDUAL_ABSOLUTE);
    gsl_vector_free(U);
    return e;
}

#endif
