/* ppa_sparse.c — sparse twin of the proximal-point method (ppa_sparse.h):
 * W_k = W + eta I in CSC storage, inner solver fl_newton_solve_sparse, the
 * outer loop of reference/ppa_internal.h. */
#include "ppa_sparse.h"
#include "reference/ppa_internal.h"
#include "fl_clock.h"

#include <stdlib.h>
#include <string.h>

#include "optimized/newton_sparse.h"
#include "optimized/nsgs_sparse.h"

/* W + eta I: the CSC matrix Wk (pattern of W and the diagonal), the index
 * of each diagonal entry in Wk->x and the diagonal of W itself. */
typedef struct sparse_reg {
    cholmod_sparse *Wk;
    size_t *diag;
    double *d0;
} sparse_reg;

static void sparse_set_eta(void *data, double eta)
{
    sparse_reg *d = data;
    double *x = d->Wk->x;
    for (size_t j = 0; j < d->Wk->ncol; j++) x[d->diag[j]] = d->d0[j] + eta;
}

/* Wk = W + I (cholmod_add, sorted), then the diagonal positions and
 * d0 = diag(Wk) - 1 = diag(W); *s_W = mean of diag(W) (1 when not > 0). */
static fl_status sparse_reg_build(const fl_local_problem *p, sparse_reg *d, double *s_W,
                                  fl_error *err)
{
    cholmod_common *cm = &p->ctx->cm;
    double one[2] = {1.0, 0.0};
    size_t m = p->m;
    cholmod_sparse *I = cholmod_speye(m, m, CHOLMOD_REAL, cm);
    d->Wk = I ? cholmod_add(p->Ws, I, one, one, 1, 1, cm) : NULL;
    if (I) cholmod_free_sparse(&I, cm);
    d->diag = malloc(m * sizeof *d->diag);
    d->d0 = malloc(m * sizeof *d->d0);
    if (!d->Wk || !d->diag || !d->d0) return FL_FAIL(err, FL_ENOMEM, "ppa_sparse: out of memory");
    if (d->Wk->itype != CHOLMOD_INT)
        return FL_FAIL(err, FL_EINVAL, "ppa_sparse: W must have int indices");
    const int *Ap = d->Wk->p, *Ai = d->Wk->i;
    const double *Ax = d->Wk->x;
    double tr = 0;
    for (size_t j = 0; j < m; j++) {
        int k = Ap[j];
        while (k < Ap[j + 1] && (size_t)Ai[k] != j) k++;
        if (k == Ap[j + 1])   /* cannot happen: I holds every diagonal entry */
            return FL_FAIL(err, FL_EEXTERNAL, "ppa_sparse: W + I lost diagonal %zu", j);
        d->diag[j] = (size_t)k;
        d->d0[j] = Ax[k] - 1.0;
        tr += d->d0[j];
    }
    *s_W = tr > 0 ? tr / (double)m : 1.0;
    return FL_OK;
}

fl_status fl_ppa_solve_sparse(const fl_local_problem *p, const fl_ppa_options *opt,
                              gsl_vector *r, gsl_vector *U, fl_ppa_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_ppa_options dflt_opt = fl_ppa_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_ppa_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_PPA_STOP_ERROR;
    fl_status s = fl_local_problem_check(p, err);
    if (s == FL_OK) s = fl_ppa_check_options(opt, err);
    if (s == FL_OK && (!p->Ws || p->Ws->xtype != CHOLMOD_REAL || !p->ctx))
        s = FL_FAIL(err, FL_EINVAL, "ppa_sparse: needs a real sparse W and its context");
    if (s == FL_OK) s = fl_ppa_check_start(p, opt, r, U, err);
    if (s != FL_OK) return res->status = s;

    sparse_reg d = {NULL, NULL, NULL};
    fl_local_problem reg = *p;   /* nc, dim, m, mu, ctx shared; Ws and q its own */
    reg.W = NULL;
    reg.q = gsl_vector_alloc(p->m);
    double s_W = 1.0;
    s = reg.q ? sparse_reg_build(p, &d, &s_W, err)
              : FL_FAIL(err, FL_ENOMEM, "ppa_sparse: out of memory");
    if (s == FL_OK) {
        reg.Ws = d.Wk;
        fl_ppa_twin tw = {&reg, s_W, sparse_set_eta, &d, fl_newton_solve_sparse,
                          fl_nsgs_solve_sparse};
        s = fl_ppa_outer(p, opt, &tw, r, U, res, t0, err);
    }
    if (d.Wk) cholmod_free_sparse(&d.Wk, &p->ctx->cm);
    free(d.diag);
    free(d.d0);
    if (reg.q) gsl_vector_free(reg.q);
    if (s < 0) {
        res->status = s;
        res->stop = FL_PPA_STOP_ERROR;
    }
    return s;
}
