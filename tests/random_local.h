/* random_local.h — the random local problems of the solver tests
 * (test_newton.c, test_solver_decisions.c, test_ppa.c,
 * test_ppa_decisions.c), W = H M^-1 H^T from a random global problem.
 * Include after the sparse context `ctx` (twin_check.h, or the file's own). */
#ifndef FL_TESTS_RANDOM_LOCAL_H
#define FL_TESTS_RANDOM_LOCAL_H

#include "fl_random.h"
#include "reference/delassus.h"

/* A random local problem W = H M^-1 H^T (dense and sparse), q from f, n
 * body velocities (rank n when n < dim nc: a Gaussian H; else H of full
 * row rank); mu_all >= 0 for every contact, or < 0 for fl_random_mu. */
static inline fl_local_problem *random_local_rank(gsl_rng *rng, size_t nc, int dim, size_t n,
                                                  double mu_all)
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

/* Full row rank (dim nc + 2 body velocities), fl_random_mu for every contact. */
static inline fl_local_problem *random_local(gsl_rng *rng, size_t nc, int dim)
{
    return random_local_rank(rng, nc, dim, (size_t)dim * nc + 2, -1.0);
}

#endif
