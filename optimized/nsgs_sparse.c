/* nsgs_sparse.c — nonlinear Gauss–Seidel (003 §3–5) over a
 * sparse Delassus operator: the sparse twin of reference/nsgs.c, same
 * signature and iterates (up to rounding).
 *
 * W is a cholmod_sparse in full (both triangles) CSC storage.  Since W is
 * symmetric, row k of W equals column k, so the velocity of contact a
 * without its own impulse, b_a = q_a + sum_{beta != a} W_{a beta} r_beta,
 * is read off the dim columns of contact a: one sweep touches each stored
 * entry of W exactly once (8 nnz(W) bytes of values), O(nnz) per sweep.
 * The dim x dim diagonal blocks are extracted once per solve. */
#include "optimized/nsgs_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_blas.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Column access of a packed or unpacked CSC matrix with int or long indices. */
typedef struct csc_view {
    const void *p, *i, *nz;
    const double *x;
    int is_long, packed;
} csc_view;

static inline size_t col_start(const csc_view *v, size_t j)
{
    return v->is_long ? (size_t)((const SuiteSparse_long *)v->p)[j]
                      : (size_t)((const int *)v->p)[j];
}

static inline size_t col_end(const csc_view *v, size_t j)
{
    if (v->packed) return col_start(v, j + 1);
    return col_start(v, j) + (v->is_long ? (size_t)((const SuiteSparse_long *)v->nz)[j]
                                         : (size_t)((const int *)v->nz)[j]);
}

static inline size_t row_of(const csc_view *v, size_t k)
{
    return v->is_long ? (size_t)((const SuiteSparse_long *)v->i)[k]
                      : (size_t)((const int *)v->i)[k];
}

/* 003 §3 (nonlinear Gauss–Seidel) on sparse W: see reference/nsgs.c. */
fl_status fl_nsgs_sparse_solve(const fl_local_problem *p, const fl_nsgs_options *opt,
                               gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                               fl_error *err)
{
    double t0 = now_seconds();
    fl_nsgs_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->status = fl_local_problem_check(p, err);
    if (res->status < 0) return res->status;
    if (!p->Ws || p->Ws->xtype != CHOLMOD_REAL)
        return res->status = FL_FAIL(err, FL_EINVAL, "nsgs_sparse: needs a real sparse W");
    if (U && (U->size != p->m || U->stride != 1))
        return res->status = FL_FAIL(err, FL_EDIM, "nsgs_sparse: U must have length %zu", p->m);
    const int dim = p->dim;
    const size_t m = p->m, nc = p->nc;
    csc_view v = {p->Ws->p, p->Ws->i, p->Ws->nz, p->Ws->x,
                  p->Ws->itype == CHOLMOD_LONG, p->Ws->packed};
    size_t *perm = malloc(nc * sizeof *perm);
    double *Wd = malloc(nc * (size_t)(dim * dim) * sizeof *Wd);   /* diagonal blocks */
    gsl_vector *Ut = gsl_vector_alloc(m);
    if (!perm || !Wd || !Ut) {
        free(perm);
        free(Wd);
        if (Ut) gsl_vector_free(Ut);
        return res->status = FL_FAIL(err, FL_ENOMEM, "nsgs_sparse: out of memory");
    }
    /* W_aa[i][l] = W(dim a + i, dim a + l) = W(dim a + l, dim a + i) */
    memset(Wd, 0, nc * (size_t)(dim * dim) * sizeof *Wd);
    for (size_t a = 0; a < nc; a++)
        for (int i = 0; i < dim; i++) {
            size_t col = dim * a + i;
            for (size_t k = col_start(&v, col); k < col_end(&v, col); k++) {
                size_t row = row_of(&v, k);
                if (row >= dim * a && row < dim * (a + 1))
                    Wd[a * dim * dim + (row - dim * a) * dim + i] += v.x[k];
            }
        }
    fl_status s = fl_nsgs_prepare(p, opt, r, perm, err);
    double e = INFINITY, normq = gsl_blas_dnrm2(p->q);
    int sweep = 0;
    double *rr = r->data;
    const double *q = p->q->data;
    const size_t qs = p->q->stride;
    while (s == FL_OK && sweep < opt->max_sweeps) {
        double ts = now_seconds();
        for (size_t k = 0; k < nc; k++) {
            size_t a = perm[k];
            double b[3], rl[3];
            double *ra = rr + dim * a;
            const double *Waa = Wd + a * dim * dim;
            for (int i = 0; i < dim; i++) {
                size_t col = dim * a + i;
                double acc = q[col * qs];
                size_t e1 = col_end(&v, col);
                for (size_t kk = col_start(&v, col); kk < e1; kk++)
                    acc += v.x[kk] * rr[row_of(&v, kk)];
                for (int l = 0; l < dim; l++) acc -= Waa[i * dim + l] * ra[l];
                b[i] = acc;
            }
            for (int l = 0; l < dim; l++) rl[l] = ra[l];
            if (fl_nsgs_local_solve(dim, p->mu[a], Waa, b, rl) == 0) res->local_fallbacks++;
            fl_nsgs_relax(dim, p->mu[a], opt->omega, rl, ra);
        }
        res->sweep_seconds += now_seconds() - ts;
        sweep++;
        gsl_vector_memcpy(Ut, p->q);
        s = fl_sparse_mv(p->ctx, p->Ws, 1.0, rr, 1.0, Ut->data, err);
        if (s != FL_OK) break;
        e = fl_residual_natural_map(dim, nc, p->mu, rr, Ut->data, normq, opt->norm);
        if (!isfinite(e)) {
            s = FL_FAIL(err, FL_ENOCONV, "nsgs_sparse: iterates became non-finite at sweep %d",
                        sweep);
            break;
        }
        int stop = e <= opt->tol;
        if (opt->callback && opt->callback(opt->callback_data, sweep, e, r)) stop = 1;
        if (stop) break;
    }
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    if (U && s >= 0) gsl_vector_memcpy(U, Ut);
    res->iterations = sweep;
    res->residual = e;
    res->status = s;
    res->seconds = now_seconds() - t0;
    free(perm);
    free(Wd);
    gsl_vector_free(Ut);
    return s;
}
