/* fl_problem.c — FCLIB local and global frictional contact problems
 * (see fl_problem.h for the conventions). */
#include "fl_problem.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"

fl_status fl_local_problem_alloc(size_t nc, int dim, int dense,
                                 fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "local problem: NULL output");
    *out = NULL;
    if (dim != 2 && dim != 3)
        return FL_FAIL(err, FL_EINVAL, "local problem: dim must be 2 or 3, got %d", dim);
    if (nc == 0) return FL_FAIL(err, FL_EINVAL, "local problem: no contact");
    fl_local_problem *p = calloc(1, sizeof *p);
    if (!p) return FL_FAIL(err, FL_ENOMEM, "local problem: out of memory");
    p->nc = nc;
    p->dim = dim;
    p->m = (size_t)dim * nc;
    p->q = gsl_vector_calloc(p->m);
    p->mu = calloc(nc, sizeof *p->mu);
    if (dense) p->W = gsl_matrix_calloc(p->m, p->m);
    if (!p->q || !p->mu || (dense && !p->W)) {
        fl_local_problem_free(p);
        return FL_FAIL(err, FL_ENOMEM, "local problem: out of memory");
    }
    *out = p;
    return FL_OK;
}

void fl_local_problem_free(fl_local_problem *p)
{
    if (!p) return;
    if (p->W) gsl_matrix_free(p->W);
    if (p->Ws && p->ctx) fl_sparse_free(p->ctx, &p->Ws);
    if (p->q) gsl_vector_free(p->q);
    free(p->mu);
    free(p);
}

fl_status fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense,
                                  fl_global_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "global problem: NULL output");
    *out = NULL;
    if (dim != 2 && dim != 3)
        return FL_FAIL(err, FL_EINVAL, "global problem: dim must be 2 or 3, got %d", dim);
    if (nc == 0 || n == 0)
        return FL_FAIL(err, FL_EINVAL, "global problem: n = %zu, nc = %zu must be positive",
                       n, nc);
    fl_global_problem *g = calloc(1, sizeof *g);
    if (!g) return FL_FAIL(err, FL_ENOMEM, "global problem: out of memory");
    g->n = n;
    g->nc = nc;
    g->dim = dim;
    g->m = (size_t)dim * nc;
    g->f = gsl_vector_calloc(n);
    g->w = gsl_vector_calloc(g->m);
    g->mu = calloc(nc, sizeof *g->mu);
    if (dense) {
        g->M = gsl_matrix_calloc(n, n);
        g->H = gsl_matrix_calloc(g->m, n);
    }
    if (!g->f || !g->w || !g->mu || (dense && (!g->M || !g->H))) {
        fl_global_problem_free(g);
        return FL_FAIL(err, FL_ENOMEM, "global problem: out of memory");
    }
    *out = g;
    return FL_OK;
}

void fl_global_problem_free(fl_global_problem *g)
{
    if (!g) return;
    if (g->M) gsl_matrix_free(g->M);
    if (g->H) gsl_matrix_free(g->H);
    if (g->ctx) {
        fl_sparse_free(g->ctx, &g->Ms);
        fl_sparse_free(g->ctx, &g->Hs);
    }
    if (g->f) gsl_vector_free(g->f);
    if (g->w) gsl_vector_free(g->w);
    free(g->mu);
    free(g);
}

fl_status fl_local_problem_check(const fl_local_problem *p, fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "local problem: NULL");
    if ((p->dim != 2 && p->dim != 3) || p->nc == 0 || p->m != (size_t)p->dim * p->nc)
        return FL_FAIL(err, FL_EINVAL, "local problem: inconsistent dim %d, nc %zu, m %zu",
                       p->dim, p->nc, p->m);
    if (!p->q || p->q->size != p->m)
        return FL_FAIL(err, FL_EDIM, "local problem: q must have length %zu", p->m);
    if (!p->mu) return FL_FAIL(err, FL_EINVAL, "local problem: mu missing");
    FL_TRY(fl_check_finite_vector(p->q, "q", err));
    for (size_t a = 0; a < p->nc; a++)
        if (!isfinite(p->mu[a]) || p->mu[a] < 0)
            return FL_FAIL(err, isfinite(p->mu[a]) ? FL_EINVAL : FL_ENONFINITE,
                           "local problem: mu[%zu] = %g must be finite and >= 0", a, p->mu[a]);
    if (!p->W && !p->Ws) return FL_FAIL(err, FL_EINVAL, "local problem: W missing");
    if (p->W) {
        if (p->W->size1 != p->m || p->W->size2 != p->m)
            return FL_FAIL(err, FL_EDIM, "local problem: W is %zux%zu, expected %zux%zu",
                           p->W->size1, p->W->size2, p->m, p->m);
        FL_TRY(fl_check_finite_matrix(p->W, "W", err));
        double scale = 0;
        for (size_t i = 0; i < p->m; i++) scale = fmax(scale, fabs(gsl_matrix_get(p->W, i, i)));
        for (size_t i = 0; i < p->m; i++)
            for (size_t j = 0; j < i; j++)
                if (fabs(gsl_matrix_get(p->W, i, j) - gsl_matrix_get(p->W, j, i)) > 1e-10 * scale)
                    return FL_FAIL(err, FL_EINVAL, "local problem: W not symmetric at (%zu,%zu)",
                                   i, j);
    }
    if (p->Ws) {
        if (p->Ws->nrow != p->m || p->Ws->ncol != p->m || p->Ws->stype != 0 || !p->ctx)
            return FL_FAIL(err, FL_EDIM,
                           "local problem: sparse W must be %zux%zu, unsymmetric storage, "
                           "with its context", p->m, p->m);
        const double *x = p->Ws->x;
        size_t nz = cholmod_nnz(p->Ws, &p->ctx->cm);
        for (size_t k = 0; k < nz; k++)
            if (!isfinite(x[k]))
                return FL_FAIL(err, FL_ENONFINITE, "local problem: sparse W has a NaN/Inf");
    }
    return FL_OK;
}

fl_status fl_local_problem_velocity(const fl_local_problem *p, const gsl_vector *r,
                                    gsl_vector *U, fl_error *err)
{
    if (!p || !r || !U || r->size != p->m || U->size != p->m)
        return FL_FAIL(err, FL_EDIM, "local velocity: vectors must have length %zu",
                       p ? p->m : 0);
    gsl_vector_memcpy(U, p->q);
    if (p->W) {
        gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, r, 1.0, U);
        return FL_OK;
    }
    if (!p->Ws || !p->ctx) return FL_FAIL(err, FL_EINVAL, "local velocity: W missing");
    if (r->stride != 1 || U->stride != 1)
        return FL_FAIL(err, FL_EINVAL, "local velocity: vectors must be contiguous");
    return fl_sparse_mv(p->ctx, p->Ws, 1.0, r->data, 1.0, U->data, err);
}

double fl_coulomb_violation(int dim, size_t nc, const double *mu, const double *r,
                            const double *U, double rs, double us)
{
    double worst = 0.0;
    for (size_t a = 0; a < nc; a++) {
        const double *ra = r + (size_t)dim * a, *Ua = U + (size_t)dim * a;
        double rT = dim == 2 ? fabs(ra[1]) : hypot(ra[1], ra[2]);
        double UT = dim == 2 ? fabs(Ua[1]) : hypot(Ua[1], Ua[2]);
        double v[5];
        v[0] = fmax(0.0, -ra[0]) / rs;
        v[1] = fmax(0.0, rT - mu[a] * ra[0]) / rs;
        v[2] = fmax(0.0, -Ua[0]) / us;
        v[3] = fmax(0.0, fmin(ra[0] / rs, Ua[0] / us));
        /* stick (U_T = 0) or slide with r_T = -mu r_N U_T/|U_T| */
        double align = 0.0;
        if (UT > 0) {
            for (int k = 1; k < dim; k++) {
                double e = ra[k] + mu[a] * fmax(ra[0], 0.0) * Ua[k] / UT;
                align += e * e;
            }
            align = sqrt(align) / rs;
        }
        v[4] = fmin(UT / us, align);
        for (int k = 0; k < 5; k++)
            if (!(v[k] <= worst)) worst = v[k];   /* NaN propagates */
    }
    return worst;
}

fl_status fl_global_problem_random(gsl_rng *r, size_t n, size_t nc, int dim, double mu_lo,
                                   double mu_hi, fl_global_problem **out, fl_error *err)
{
    if (!r) return FL_FAIL(err, FL_EINVAL, "random problem: NULL generator");
    if (!(mu_lo > 0 && mu_hi >= mu_lo))
        return FL_FAIL(err, FL_EINVAL, "random problem: need 0 < mu_lo <= mu_hi");
    FL_TRY(fl_global_problem_alloc(n, nc, dim, 1, out, err));
    fl_global_problem *g = *out;
    gsl_matrix *B = gsl_matrix_alloc(n, n);
    if (!B) {
        fl_global_problem_free(g);
        *out = NULL;
        return FL_FAIL(err, FL_ENOMEM, "random problem: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) gsl_matrix_set(B, i, j, gsl_ran_gaussian(r, 1.0));
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0 / (double)n, B, B, 0.0, g->M);
    for (size_t i = 0; i < n; i++) *gsl_matrix_ptr(g->M, i, i) += 0.1;
    gsl_matrix_free(B);
    for (size_t i = 0; i < g->m; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(g->H, i, j, gsl_ran_gaussian(r, 1.0) / sqrt((double)n));
    for (size_t i = 0; i < n; i++) gsl_vector_set(g->f, i, gsl_ran_gaussian(r, 1.0));
    for (size_t a = 0; a < nc; a++)
        g->mu[a] = exp(log(mu_lo) + (log(mu_hi) - log(mu_lo)) * gsl_rng_uniform(r));
    return FL_OK;
}
