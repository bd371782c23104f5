/* twin_check.h — what the tests that feed the same input to a reference
 * kernel and its optimized twin share (tests/test_*_refusals.c): one
 * CHOLMOD context per test, a one-contact local problem held both dense
 * and sparse, and the check that both twins returned the same status with
 * a message naming the field.  Header-only, for tests. */
#ifndef FL_TEST_TWIN_CHECK_H
#define FL_TEST_TWIN_CHECK_H

#include <criterion/criterion.h>
#include <string.h>

#include "fl_problem.h"
#include "fl_sparse.h"
#include "fl_status.h"

/* The context of the test (Criterion runs each test in its own process). */
static fl_sparse_ctx ctx;
static inline void setup(void) { cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK); }
static inline void teardown(void) { fl_sparse_finish(&ctx); }

/* One contact of dimension dim with W = diag(w) (dense and sparse) and q. */
static inline fl_local_problem *one_contact(int dim, const double *w, const double *q, double mu)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, dim, 1, &p, NULL), FL_OK);
    gsl_matrix_set_zero(p->W);
    for (int k = 0; k < dim; k++) {
        gsl_matrix_set(p->W, k, k, w[k]);
        gsl_vector_set(p->q, k, q[k]);
    }
    p->mu[0] = mu;
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    return p;
}

/* Both twins returned `want` (s[0] reference, s[1] optimized) and both
 * messages contain `needle`. */
#define TWIN_SAME(s, err, want, needle)                                                       \
    do {                                                                                      \
        cr_assert_eq((s)[0], want, "reference %d: %s", (s)[0], (err)[0].message);             \
        cr_assert_eq((s)[1], want, "optimized %d: %s", (s)[1], (err)[1].message);             \
        cr_assert(strstr((err)[0].message, needle), "reference: %s", (err)[0].message);       \
        cr_assert(strstr((err)[1].message, needle), "optimized: %s", (err)[1].message);       \
    } while (0)

#endif
