/* moreau_jean.c — one Contact Dynamics step with the Moreau–Jean impact rule
 * (003 §3; 004 (18)–(21), Lemma 2.4).  See moreau_jean.h. */
#include "moreau_jean.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_clock.h"

fl_moreau_jean_options fl_moreau_jean_options_default(void)
{
    fl_moreau_jean_options o;
    memset(&o, 0, sizeof o);
    o.delta = 1.0;
    o.impl = FL_IMPL_REFERENCE;
    o.nsgs = fl_nsgs_options_default();
    return o;
}

/* y = alpha A x + beta y with A = g's dense or sparse matrix (trans: A^T). */
static fl_status gmv(const fl_global_problem *g, int which_H, int trans, double alpha,
                     const gsl_vector *x, double beta, gsl_vector *y, fl_error *err)
{
    const gsl_matrix *A = which_H ? g->H : g->M;
    cholmod_sparse *As = which_H ? g->Hs : g->Ms;
    if (A) {
        gsl_blas_dgemv(trans ? CblasTrans : CblasNoTrans, alpha, A, x, beta, y);
        return FL_OK;
    }
    if (!As || !g->ctx) return FL_FAIL(err, FL_EINVAL, "moreau_jean: %s missing", which_H ? "H" : "M");
    cholmod_dense X, Y;
    memset(&X, 0, sizeof X);
    memset(&Y, 0, sizeof Y);
    X.nrow = X.d = x->size; X.ncol = 1; X.nzmax = x->size; X.x = x->data;
    X.xtype = CHOLMOD_REAL; X.dtype = CHOLMOD_DOUBLE;
    Y.nrow = Y.d = y->size; Y.ncol = 1; Y.nzmax = y->size; Y.x = y->data;
    Y.xtype = CHOLMOD_REAL; Y.dtype = CHOLMOD_DOUBLE;
    double a[2] = {alpha, 0}, b[2] = {beta, 0};
    if (!cholmod_sdmult(As, trans, a, b, &X, &Y, &g->ctx->cm))
        return FL_FAIL(err, fl_sparse_failure(&g->ctx->cm), "moreau_jean: cholmod_sdmult failed");
    return FL_OK;
}

/* 004 (20) reduced (004 (18)–(21), 003 §3): W_a = (1+delta)/2 W,
 * q_a = H((1-delta)/2 u- + (1+delta)/2 M^-1 f) + w. */
fl_status fl_moreau_jean_local(const fl_global_problem *g, const gsl_vector *u_minus, double delta,
                      fl_impl impl, cholmod_factor **L, fl_local_problem **out,
                      fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "moreau_jean: NULL output");
    *out = NULL;
    if (!g || !u_minus) return FL_FAIL(err, FL_EINVAL, "moreau_jean: NULL argument");
    if (!(delta >= 0 && delta <= 1))
        return FL_FAIL(err, FL_EINVAL, "moreau_jean: dissipation index delta = %g not in [0, 1] "
                       "(004 (21))", delta);
    if (u_minus->size != g->n || u_minus->stride != 1)
        return FL_FAIL(err, FL_EDIM, "moreau_jean: u- must have length %zu", g->n);
    FL_TRY(fl_check_finite_vector(u_minus, "u-", err));
    fl_local_problem *p = NULL;
    cholmod_factor *Lpriv = NULL;
    fl_status s;
    const fl_nsgs_type *im = fl_nsgs_type_get(impl);
    if (!im) return FL_FAIL(err, FL_EINVAL, "moreau_jean: unknown implementation %d", (int)impl);
    s = im->delassus(g, NULL, L ? L : &Lpriv, &p, err);
    if (Lpriv) fl_sparse_free_factor(g->ctx, &Lpriv);
    if (s != FL_OK) return s;
    double a = 0.5 * (1.0 + delta), c = 0.5 * (1.0 - delta);
    if (p->W) gsl_matrix_scale(p->W, a);
    if (p->Ws) {
        double *x = p->Ws->x;
        size_t nz = cholmod_nnz(p->Ws, &p->ctx->cm);
        for (size_t k = 0; k < nz; k++) x[k] *= a;
    }
    /* q = H M^-1 f + w  ->  a (q - w) + w + c H u- */
    gsl_vector_sub(p->q, g->w);
    gsl_vector_scale(p->q, a);
    gsl_vector_add(p->q, g->w);
    s = gmv(g, 1, 0, c, u_minus, 1.0, p->q, err);
    if (s != FL_OK) {
        fl_local_problem_free(p);
        return s;
    }
    *out = p;
    return FL_OK;
}

/* 004 (18)-(21) and Lemma 2.4; 003 §3 time step. */
fl_status fl_moreau_jean_step(const fl_global_problem *g, const gsl_vector *u_minus,
                     const fl_moreau_jean_options *opt, cholmod_factor **L, gsl_vector *s,
                     gsl_vector *u_plus, fl_moreau_jean_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_moreau_jean_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    if (!opt || !g || !s || !u_plus)
        return res->status = FL_FAIL(err, FL_EINVAL, "moreau_jean: NULL argument");
    if (u_plus->size != g->n || u_plus->stride != 1 || s->size != g->m)
        return res->status = FL_FAIL(err, FL_EDIM, "moreau_jean: u+ must have length %zu, s %zu",
                                     g->n, g->m);
    cholmod_factor *Lpriv = NULL, **Lc = L ? L : &Lpriv;
    fl_local_problem *p = NULL;
    fl_status st = fl_moreau_jean_local(g, u_minus, opt->delta, opt->impl, Lc, &p, err);
    if (st != FL_OK) return res->status = st;
    fl_nsgs_result nr;
    const fl_nsgs_type *im = fl_nsgs_type_get(opt->impl);   /* checked by fl_moreau_jean_local */
    st = im->solve(p, &opt->nsgs, s, NULL, &nr, err);
    res->iterations = nr.iterations;
    res->residual = nr.residual;
    fl_local_problem_free(p);
    gsl_vector *rhs = fl_dense_vector_alloc(g->n), *du = fl_dense_vector_alloc(g->n),
               *Mu = fl_dense_vector_alloc(g->n), *Ua = fl_dense_vector_alloc(g->m);
    if (!rhs || !du || !Mu || !Ua) st = FL_FAIL(err, FL_ENOMEM, "moreau_jean: out of memory");
    fl_status st2 = FL_OK;
    if (st >= 0 && st2 == FL_OK) {
        /* 004 (18): M u+ = f + H^T s */
        gsl_vector_memcpy(rhs, g->f);
        st2 = gmv(g, 1, 1, 1.0, s, 1.0, rhs, err);
        if (st2 == FL_OK) st2 = im->mass_solve(g, Lc, rhs, u_plus, err);
    }
    if (st >= 0 && st2 == FL_OK) {
        /* energies: T = 1/2 u.Mu */
        st2 = gmv(g, 0, 0, 1.0, u_minus, 0.0, Mu, err);
        double tm = 0, tp = 0, dmd = 0;
        if (st2 == FL_OK) gsl_blas_ddot(u_minus, Mu, &tm);
        if (st2 == FL_OK) st2 = gmv(g, 0, 0, 1.0, u_plus, 0.0, Mu, err);
        if (st2 == FL_OK) gsl_blas_ddot(u_plus, Mu, &tp);
        gsl_vector_memcpy(du, u_plus);
        gsl_vector_sub(du, u_minus);
        if (st2 == FL_OK) st2 = gmv(g, 0, 0, 1.0, du, 0.0, Mu, err);
        if (st2 == FL_OK) gsl_blas_ddot(du, Mu, &dmd);
        /* U^a = H u^a + w, u^a = (1-delta)/2 u- + (1+delta)/2 u+  (004 (20)) */
        gsl_vector_memcpy(rhs, u_minus);
        gsl_vector_scale(rhs, 0.5 * (1.0 - opt->delta));
        gsl_blas_daxpy(0.5 * (1.0 + opt->delta), u_plus, rhs);
        gsl_vector_memcpy(Ua, g->w);
        if (st2 == FL_OK) st2 = gmv(g, 1, 0, 1.0, rhs, 1.0, Ua, err);
        if (st2 == FL_OK) {
            /* 004 Lemma 2.4 in library signs (moreau_jean.h) */
            double lemma = -0.5 * opt->delta * dmd, sw = 0;
            int dim = g->dim;
            for (size_t a = 0; a < g->nc; a++) {
                double ut = dim == 2 ? fabs(gsl_vector_get(Ua, dim * a + 1))
                                     : hypot(gsl_vector_get(Ua, dim * a + 1),
                                             gsl_vector_get(Ua, dim * a + 2));
                lemma -= g->mu[a] * gsl_vector_get(s, dim * a) * ut;
            }
            gsl_blas_ddot(s, g->w, &sw);
            res->T_minus = 0.5 * tm;
            res->T_plus = 0.5 * tp;
            res->dT = res->T_plus - res->T_minus;
            res->dT_lemma = lemma - sw;
        }
    }
    if (rhs) gsl_vector_free(rhs);
    if (du) gsl_vector_free(du);
    if (Mu) gsl_vector_free(Mu);
    if (Ua) gsl_vector_free(Ua);
    if (Lpriv) fl_sparse_free_factor(g->ctx, &Lpriv);
    if (st2 != FL_OK) st = st2;
    res->status = st;
    res->seconds = fl_clock_now() - t0;
    return st;
}
