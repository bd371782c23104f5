/* admm_sparse.c — sparse twin of the ADMM (admm_sparse.h): CHOLMOD factor
 * of (W + W^T)/2 + rho I, the iteration of reference/admm_internal.h. */
#include "admm_sparse.h"
#include "reference/admm_internal.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A = (W + W^T)/2 + rho I in upper CSC storage, the index of each diagonal
 * entry in A->x, the diagonal of (W + W^T)/2 and the factor L of A. */
typedef struct sparse_admm {
    const fl_local_problem *p;
    cholmod_sparse *A;
    size_t *diag;
    double *d0;
    cholmod_factor *L;
} sparse_admm;

static fl_status sparse_factor(void *data, double rho, fl_error *err)
{
    sparse_admm *d = data;
    double *x = d->A->x;
    for (size_t j = 0; j < d->A->ncol; j++) x[d->diag[j]] = d->d0[j] + rho;
    fl_status s = fl_sparse_factor(d->p->ctx, d->A, &d->L, err);
    if (s == FL_ENOTSPD)
        return FL_FAIL(err, FL_ENOTSPD, "admm: (W + W^T)/2 + rho I with rho = %g is not positive "
                       "definite: W is not positive semidefinite", rho);
    return s;
}

static fl_status sparse_solve(void *data, const double *b, double *x, fl_error *err)
{
    sparse_admm *d = data;
    return fl_sparse_solve(d->p->ctx, d->L, b, x, err);
}

static fl_status sparse_velocity(void *data, const double *z, double *U, fl_error *err)
{
    sparse_admm *d = data;
    memcpy(U, d->p->q->data, d->p->m * sizeof *U);
    return fl_sparse_mv(d->p->ctx, d->p->Ws, 0, 1.0, z, 1.0, U, err);
}

/* ||W||_1: the largest column sum of |W_ij| (A3), W in full storage. */
static double sparse_norm1(const cholmod_sparse *W)
{
    const int *Ap = W->p;
    const double *Ax = W->x;
    double best = 0;
    for (size_t j = 0; j < W->ncol; j++) {
        double c = 0;
        for (int k = Ap[j]; k < Ap[j + 1]; k++) c += fabs(Ax[k]);
        if (c > best) best = c;
    }
    return best;
}

/* A = upper part of (W + W^T)/2 + I, then the diagonal positions and
 * d0 = diag(A) - 1. */
static fl_status sparse_build(const fl_local_problem *p, sparse_admm *d, fl_error *err)
{
    cholmod_common *cm = &p->ctx->cm;
    double half[2] = {0.5, 0.0}, one[2] = {1.0, 0.0};
    size_t m = p->m;
    cholmod_sparse *Wt = cholmod_transpose(p->Ws, 2, cm);
    cholmod_sparse *S = Wt ? cholmod_add(p->Ws, Wt, half, half, 1, 1, cm) : NULL;
    cholmod_sparse *I = cholmod_speye(m, m, CHOLMOD_REAL, cm);
    cholmod_sparse *SI = S && I ? cholmod_add(S, I, one, one, 1, 1, cm) : NULL;
    d->A = SI ? cholmod_copy(SI, 1, 1, cm) : NULL;
    cholmod_free_sparse(&Wt, cm);
    cholmod_free_sparse(&S, cm);
    cholmod_free_sparse(&I, cm);
    cholmod_free_sparse(&SI, cm);
    d->diag = malloc((m ? m : 1) * sizeof *d->diag);
    d->d0 = malloc((m ? m : 1) * sizeof *d->d0);
    if (!d->A || !d->diag || !d->d0) return FL_FAIL(err, FL_ENOMEM, "admm_sparse: out of memory");
    const int *Ap = d->A->p, *Ai = d->A->i;
    const double *Ax = d->A->x;
    for (size_t j = 0; j < m; j++) {
        int k = Ap[j];
        while (k < Ap[j + 1] && (size_t)Ai[k] != j) k++;
        if (k == Ap[j + 1])   /* cannot happen: I holds every diagonal entry */
            return FL_FAIL(err, FL_EEXTERNAL, "admm_sparse: W + I lost diagonal %zu", j);
        d->diag[j] = (size_t)k;
        d->d0[j] = Ax[k] - 1.0;
    }
    return FL_OK;
}

fl_status fl_admm_solve_sparse(const fl_local_problem *p, const fl_admm_options *opt,
                               gsl_vector *r, gsl_vector *U, fl_admm_result *res,
                               fl_error *err)
{
    double t0 = fl_clock_now();
    fl_admm_options dflt_opt = fl_admm_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_admm_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_ADMM_STOP_ERROR;
    fl_status s = fl_local_problem_check_symmetric(p, "admm", err);
    if (s == FL_OK) s = fl_admm_check_options(opt, err);
    if (s == FL_OK && (!p->Ws || p->Ws->xtype != CHOLMOD_REAL || p->Ws->stype != 0 || !p->ctx ||
                       p->Ws->itype != CHOLMOD_INT))
        s = FL_FAIL(err, FL_EINVAL, "admm_sparse: needs a real sparse W in full storage "
                    "(int indices) and its context");
    if (s == FL_OK) s = fl_admm_check_start(p, opt, r, U, err);
    if (s != FL_OK) return res->status = s;
    sparse_admm d = {p, NULL, NULL, NULL, NULL};
    s = sparse_build(p, &d, err);
    if (s == FL_OK) {
        fl_admm_twin tw = {sparse_norm1(p->Ws), sparse_factor, sparse_solve, sparse_velocity, &d};
        s = fl_admm_iterate(p, opt, &tw, r, U, res, t0, err);
    } else {
        res->status = s;
    }
    if (d.A) cholmod_free_sparse(&d.A, &p->ctx->cm);
    if (d.L) cholmod_free_factor(&d.L, &p->ctx->cm);
    free(d.diag);
    free(d.d0);
    return s;
}
