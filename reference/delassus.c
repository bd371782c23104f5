/* delassus.c — the dense Delassus operator W = H M^-1 H^T and the local
 * data of a global problem (003 §3; see delassus.h).  Its sparse twin is
 * optimized/delassus_sparse.c. */
#include "delassus.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"

fl_delassus_options fl_delassus_options_default(void)
{
    fl_delassus_options o;
    memset(&o, 0, sizeof o);
    o.sparse.method = FL_DELASSUS_SOLVES;
    return o;
}

fl_status fl_delassus_options_check(const fl_delassus_options *opt, fl_error *err)
{
    if (opt && opt->sparse.method != FL_DELASSUS_SOLVES && opt->sparse.method != FL_DELASSUS_TRAILING)
        return FL_FAIL(err, FL_EINVAL, "delassus: unknown method %d (opt.sparse.method)",
                       (int)opt->sparse.method);
    return FL_OK;
}

/* 003 §3: W = H M^-1 H^T, q = H M^-1 f + w.  opt is checked only (its
 * sparse.method is the sparse twin's), L is not used. */
fl_status fl_delassus_dense(const fl_global_problem *g, const fl_delassus_options *opt,
                            cholmod_factor **L, fl_local_problem **out, fl_error *err)
{
    (void)L;
    if (!out) return FL_FAIL(err, FL_EINVAL, "delassus: NULL output");
    *out = NULL;
    FL_TRY(fl_delassus_options_check(opt, err));
    if (!g || !g->M || !g->H || !g->f || !g->w || (!g->mu && g->nc))
        return FL_FAIL(err, FL_EINVAL, "delassus: dense M, H, f, w and mu are required");
    if (g->M->size1 != g->n || g->M->size2 != g->n || g->H->size1 != g->m ||
        g->H->size2 != g->n || g->f->size != g->n || g->w->size != g->m)
        return FL_FAIL(err, FL_EDIM, "delassus: M %zux%zu, H %zux%zu, f %zu, w %zu do not "
                       "match n = %zu, m = %zu", g->M->size1, g->M->size2, g->H->size1,
                       g->H->size2, g->f->size, g->w->size, g->n, g->m);
    if (g->m == 0) return fl_local_problem_alloc(0, g->dim, 1, out, err);   /* no contact */
    FL_TRY(fl_check_finite_matrix(g->H, "H", err));
    FL_TRY(fl_check_finite_vector(g->f, "f", err));
    FL_TRY(fl_check_finite_vector(g->w, "w", err));
    fl_spd *spd = NULL;
    FL_TRY(fl_spd_alloc(g->M, &spd, err));
    fl_local_problem *p = NULL;
    fl_status s = fl_local_problem_alloc(g->nc, g->dim, 1, &p, err);
    gsl_matrix *X = fl_dense_matrix_alloc(g->n, g->m);    /* X = M^-1 H^T */
    gsl_vector *y = fl_dense_vector_alloc(g->n);
    if (s == FL_OK && (!X || !y)) s = FL_FAIL(err, FL_ENOMEM, "delassus: out of memory");
    if (s == FL_OK) {
        gsl_matrix_transpose_memcpy(X, g->H);
        s = fl_spd_solve_matrix(spd, X, X);
        if (s == FL_OK) s = fl_spd_solve(spd, g->f, y);
    }
    if (s == FL_OK) {
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, g->H, X, 0.0, p->W);
        /* symmetrise the rounding */
        for (size_t i = 0; i < g->m; i++)
            for (size_t j = 0; j < i; j++) {
                double v = 0.5 * (gsl_matrix_get(p->W, i, j) + gsl_matrix_get(p->W, j, i));
                gsl_matrix_set(p->W, i, j, v);
                gsl_matrix_set(p->W, j, i, v);
            }
        gsl_vector_memcpy(p->q, g->w);
        gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, y, 1.0, p->q);
        memcpy(p->mu, g->mu, g->nc * sizeof *p->mu);
        for (size_t a = 0; a < g->nc; a++)
            if (!(p->mu[a] >= 0) || !isfinite(p->mu[a]))
                s = FL_FAIL(err, FL_EINVAL, "delassus: mu[%zu] = %g must be finite and >= 0",
                            a, p->mu[a]);
    }
    if (X) gsl_matrix_free(X);
    if (y) gsl_vector_free(y);
    fl_spd_free(spd);
    if (s != FL_OK) {
        fl_local_problem_free(p);
        return s;
    }
    *out = p;
    return FL_OK;
}
