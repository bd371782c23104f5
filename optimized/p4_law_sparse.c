/* p4_law_sparse.c — the generalized friction law P'4 (paper 001 §3–§5) with
 * a sparse mass matrix through CHOLMOD.  Same signature and result as
 * fl_p4_step (reference/p4_law.c): the step algorithm of 001 P'4 is shared
 * through the operator form fl_p4_ops; here x -> M^-1 x is a CHOLMOD solve
 * with one factorisation per call (reused for the m + K + 3 solves of the
 * step) and x -> M x a sparse product.  No dense n x n object is formed: the
 * largest dense objects are n x (m + K), K = sum of the friction-set
 * dimensions.
 */
#include "optimized/p4_law_sparse.h"
#include "reference/p4_law_internal.h"
#include "fl_dense.h"

#include <string.h>

typedef struct sparse_env {
    fl_sparse_ctx *ctx;
    cholmod_sparse *M;
    cholmod_factor *L;
} sparse_env;

/* x = M^-1 b (CHOLMOD, factor reused) */
static fl_status sparse_solve(void *envp, const gsl_vector *b, gsl_vector *x)
{
    sparse_env *env = envp;
    if (b->stride != 1 || x->stride != 1) {
        /* copy through contiguous storage */
        gsl_vector *tb = fl_dense_vector_alloc(b->size);
        if (!tb) return FL_ENOMEM;
        gsl_vector_memcpy(tb, b);
        fl_status st = fl_sparse_solve(env->ctx, env->L, tb->data, tb->data, NULL);
        if (st == FL_OK) gsl_vector_memcpy(x, tb);
        gsl_vector_free(tb);
        return st;
    }
    return fl_sparse_solve(env->ctx, env->L, b->data, x->data, NULL);
}

/* y = M x (sparse product) */
static fl_status sparse_mult(void *envp, const gsl_vector *x, gsl_vector *y)
{
    sparse_env *env = envp;
    if (x->stride != 1 || y->stride != 1 || x == y) {
        gsl_vector *tx = fl_dense_vector_alloc(x->size), *ty = fl_dense_vector_alloc(y->size);
        fl_status st = FL_ENOMEM;
        if (tx && ty) {
            gsl_vector_memcpy(tx, x);
            st = fl_sparse_mv(env->ctx, env->M, 0, 1.0, tx->data, 0.0, ty->data, NULL);
            if (st == FL_OK) gsl_vector_memcpy(y, ty);
        }
        if (tx) gsl_vector_free(tx);
        if (ty) gsl_vector_free(ty);
        return st;
    }
    return fl_sparse_mv(env->ctx, env->M, 0, 1.0, x->data, 0.0, y->data, NULL);
}

/* 001 P'4, one step (see fl_p4_step). */
fl_status fl_p4_step_sparse(const fl_p4_problem *p, const gsl_vector *v_minus,
                            const gsl_vector *impulse, const fl_p4_impact_law *law,
                            const fl_p4_options *opt, fl_p4_step_result *res,
                            fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "no problem given");
    if (!p->Ms || !p->sctx || !p->sctx->started)
        return FL_FAIL(err, FL_EINVAL, "the optimized step needs the sparse mass matrix Ms and a "
                                       "started CHOLMOD context");
    if (p->Ms->nrow != p->n || p->Ms->ncol != p->n)
        return FL_FAIL(err, FL_EDIM, "Ms is %zux%zu, expected n = %zu", (size_t)p->Ms->nrow,
                       (size_t)p->Ms->ncol, p->n);
    if (p->Ms->stype == 0)
        return FL_FAIL(err, FL_EINVAL, "Ms must be stored symmetric (stype != 0)");
    sparse_env env = {p->sctx, p->Ms, NULL};
    fl_status st = fl_sparse_factor(p->sctx, p->Ms, &env.L, err);
    if (st < 0) {
        fl_sparse_free_factor(p->sctx, &env.L);
        if (res) res->status = st;
        return st;
    }
    fl_p4_ops ops = {&env, sparse_solve, sparse_mult};
    st = fl_p4_step_ops(&ops, p, v_minus, impulse, law, opt, res, err);
    fl_sparse_free_factor(p->sctx, &env.L);
    return st;
}
