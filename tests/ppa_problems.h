/* ppa_problems.h — what the proximal-point tests (test_ppa.c,
 * test_ppa_decisions.c) share: their random problems and the error of the
 * regularised subproblem (P1) of proofs/ppa.md, recomputed independently
 * of the solver.  Include after twin_check.h (its sparse context `ctx`). */
#ifndef FL_TESTS_PPA_PROBLEMS_H
#define FL_TESTS_PPA_PROBLEMS_H

#include <gsl/gsl_blas.h>

#include "fl_random.h"
#include "fl_residual.h"
#include "reference/delassus.h"

/* A random local problem W = H M^-1 H^T (dense and sparse), q from f;
 * mu_all >= 0 for every contact, or < 0 for fl_random_mu. */
static fl_local_problem *random_local(gsl_rng *rng, size_t nc, int dim, size_t n, double mu_all)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(n, nc, dim, 1, &g, NULL), FL_OK);
    cr_assert_eq(fl_random_spd(rng, 100.0, 1.0, g->M), FL_OK);
    if (n >= (size_t)dim * nc) cr_assert_eq(fl_random_full_rank_rows(rng, 10.0, g->H), FL_OK);
    else {   /* rank n < m: a Gaussian H */
        gsl_vector_view h = gsl_vector_view_array(g->H->data, g->H->size1 * n);
        fl_random_vector(rng, 1.0, &h.vector);
    }
    fl_random_vector(rng, 1.0, g->f);
    for (size_t a = 0; a < nc; a++) g->mu[a] = mu_all >= 0 ? mu_all : fl_random_mu(rng);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
    fl_global_problem_free(g);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

/* |F(r, U)| of the law with the velocity U_k = W r + q + eta (r - r0)
 * (the regularised problem (P1)), unnormalised, recomputed here. */
static double regularised_error(const fl_local_problem *p, const gsl_vector *r,
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
