/* midpoint_sparse.c — the midpoint scheme of 002 (20)-(23) with one CHOLMOD
 * factorisation reused every step; same results as reference/midpoint.c.
 * Conventions and the Woodbury form: midpoint_sparse.h, midpoint.h. */
#include "midpoint_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"
#include "fl_clock.h"

static void dense_view(cholmod_dense *X, double *x, size_t n)
{
    memset(X, 0, sizeof *X);
    X->nrow = n;
    X->ncol = 1;
    X->nzmax = n;
    X->d = n;
    X->x = x;
    X->xtype = CHOLMOD_REAL;
    X->dtype = CHOLMOD_DOUBLE;
}

/* y = alpha op(A) x + beta y, op = A or A^T (unsymmetric A) */
static void sdmult(fl_sparse_ctx *ctx, cholmod_sparse *A, int transpose, double alpha, const double *x,
                   double beta, double *y)
{
    cholmod_dense X, Y;
    dense_view(&X, (double *)x, transpose ? A->nrow : A->ncol);
    dense_view(&Y, y, transpose ? A->ncol : A->nrow);
    double a[2] = {alpha, 0}, b[2] = {beta, 0};
    cholmod_sdmult(A, transpose, a, b, &X, &Y, &ctx->cm);
}

void fl_midpoint_free_sparse(fl_midpoint_sparse *mp)
{
    if (!mp) return;
    fl_sparse_free(&mp->ctx, &mp->S0);
    fl_sparse_free_factor(&mp->ctx, &mp->L);
    fl_sparse_free(&mp->ctx, &mp->Ht);
    if (mp->ctx.started) fl_sparse_finish(&mp->ctx);
    gsl_matrix_free(mp->Y);
    gsl_matrix_free(mp->T);
    gsl_permutation_free(mp->Tp);
    gsl_matrix_free(mp->D);
    gsl_matrix_free(mp->sols);
    free(mp->fhat);
    gsl_vector_free(mp->q);
    free(mp);
}

static size_t rank_k(const fl_midpoint_problem *p)
{
    return p->U ? p->U->size2 : 0;
}

/* y = M_r x = Mr0 x + U K U^T x */
static void mr_apply(fl_midpoint_sparse *mp, const double *x, double *y)
{
    const fl_midpoint_problem *p = mp->p;
    fl_sparse_mv(&mp->ctx, p->Mr0_s, 0, 1.0, x, 0.0, y, NULL);
    size_t k = rank_k(p), n = p->n;
    if (k == 0) return;
    double t[16] = {0}, t2[16] = {0};
    const double *U = p->U->data;
    size_t ld = p->U->tda;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < k; c++) t[c] += U[i * ld + c] * x[i];
    for (size_t a = 0; a < k; a++)
        for (size_t c = 0; c < k; c++) t2[a] += gsl_matrix_get(p->K, a, c) * t[c];
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t c = 0; c < k; c++) s += U[i * ld + c] * t2[c];
        y[i] += s;
    }
}

/* x = S^-1 b by CHOLMOD and Woodbury (b and x distinct). */
static fl_status s_solve(fl_midpoint_sparse *mp, const double *b, double *x, fl_error *err)
{
    FL_TRY(fl_sparse_solve(&mp->ctx, mp->L, b, x, err));
    size_t k = rank_k(mp->p), n = mp->p->n;
    if (k == 0) return FL_OK;
    double c4 = 4.0 / (mp->opt.dt * mp->opt.dt);
    double t[16] = {0}, t2[16] = {0};
    const double *Y = mp->Y->data;
    size_t ld = mp->Y->tda;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < k; c++) t[c] += Y[i * ld + c] * b[i];                       /* Y^T b */
    for (size_t a = 0; a < k; a++)
        for (size_t c = 0; c < k; c++) t2[a] += c4 * gsl_matrix_get(mp->p->K, a, c) * t[c];   /* C Y^T b */
    gsl_vector_view tv = gsl_vector_view_array(t2, k), sv = gsl_vector_view_array(t, k);
    gsl_linalg_LU_solve(mp->T, mp->Tp, &tv.vector, &sv.vector);                  /* T^-1 C Y^T b */
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t c = 0; c < k; c++) s += Y[i * ld + c] * t[c];
        x[i] -= s;
    }
    return FL_OK;
}

/* H^T as an n x 2nc CSC: column 2i = -nu_i, column 2i+1 = tau_i. */
static fl_status build_Ht(fl_midpoint_sparse *mp, fl_error *err)
{
    const fl_midpoint_problem *p = mp->p;
    size_t nnz = 0;
    const cholmod_sparse *B[2] = {p->Bnu_s, p->Btau_s};
    for (int k = 0; k < 2; k++) {
        if (B[k]->stype != 0 || B[k]->nrow != p->nc || B[k]->ncol != p->n || B[k]->itype != CHOLMOD_INT
            || B[k]->xtype != CHOLMOD_REAL || !B[k]->packed)
            return FL_FAIL(err, FL_EDIM, "sparse contact rows must be packed nc x n unsymmetric real");
        nnz += ((const int *)B[k]->p)[B[k]->ncol];
    }
    int *r = malloc((nnz + 1) * sizeof(int)), *c = malloc((nnz + 1) * sizeof(int));
    double *v = malloc((nnz + 1) * sizeof(double));
    if (!r || !c || !v) {
        free(r); free(c); free(v);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate H^T");
    }
    size_t t = 0;
    for (int k = 0; k < 2; k++) {
        const int *Bp = B[k]->p, *Bi = B[k]->i;
        const double *Bx = B[k]->x;
        for (size_t j = 0; j < B[k]->ncol; j++)
            for (int q = Bp[j]; q < Bp[j + 1]; q++) {
                r[t] = (int)j;
                c[t] = 2 * Bi[q] + k;
                v[t] = k == 0 ? -Bx[q] : Bx[q];
                t++;
            }
    }
    fl_status s = fl_sparse_from_triplet(&mp->ctx, p->n, 2 * p->nc, t, r, c, v, 0, &mp->Ht, err);
    free(r); free(c); free(v);
    return s;
}

fl_status fl_midpoint_alloc_sparse(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                                   fl_midpoint_sparse **out, fl_error *err)
{
    *out = NULL;
    fl_midpoint_options dflt_opt = fl_midpoint_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    FL_TRY(fl_midpoint_check_options(p, opt, err));
    if (!p->A_s || !p->Mr0_s || !p->Bnu_s || !p->Btau_s || !p->f || p->f->size != p->n
        || p->A_s->nrow != p->n || p->Mr0_s->nrow != p->n || p->A_s->stype == 0 || p->Mr0_s->stype == 0)
        return FL_FAIL(err, FL_EDIM, "sparse problem needs symmetric A_s, Mr0_s (n x n), rows and load");
    if ((p->U == NULL) != (p->K == NULL) || (p->U && (p->U->size1 != p->n || p->U->size2 > 16
                                                     || p->K->size1 != p->U->size2
                                                     || p->K->size2 != p->U->size2)))
        return FL_FAIL(err, FL_EDIM, "low-rank part U (n x k, k <= 16), K (k x k) inconsistent");
    FL_TRY(fl_check_finite_vector(p->f, "load", err));
    size_t n = p->n, m = 2 * p->nc, k = rank_k(p);
    fl_midpoint_sparse *mp = calloc(1, sizeof *mp);
    if (!mp) return FL_FAIL(err, FL_ENOMEM, "cannot allocate the sparse stepper");
    mp->p = p;
    mp->opt = *opt;
    fl_status s = fl_sparse_start(&mp->ctx, err);
    if (s) { free(mp); return s; }
    mp->fhat = malloc(8 * n * sizeof(double) + 2 * m * sizeof(double));
    mp->q = fl_dense_vector_alloc(m);
    mp->D = fl_dense_matrix_alloc(m, m);
    mp->sols = fl_dense_matrix_alloc(64, m);
    if (!mp->fhat || !mp->q || !mp->D || !mp->sols) {
        fl_midpoint_free_sparse(mp);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate the sparse stepper workspaces");
    }
    mp->z = mp->fhat + n;
    mp->uh = mp->z + n;
    mp->w1 = mp->uh + n;
    mp->w2 = mp->w1 + n;
    mp->wk = mp->w2 + n;
    mp->wk2 = mp->wk + n;
    mp->hy = mp->wk2 + 2 * n;   /* 2 m entries: H x and a spare */
    /* S0 = (4/dt^2) Mr0 + A, one factorisation for the run */
    double c4 = 4.0 / (opt->dt * opt->dt);
    double a1[2] = {c4, 0}, a2[2] = {1, 0};
    mp->S0 = cholmod_add(p->Mr0_s, p->A_s, a1, a2, 1, 1, &mp->ctx.cm);
    if (!mp->S0) {
        fl_status fs = fl_sparse_failure(&mp->ctx.cm);
        fl_midpoint_free_sparse(mp);
        return FL_FAIL(err, fs, "cholmod_add failed");
    }
    if ((s = fl_sparse_factor(&mp->ctx, mp->S0, &mp->L, err)) != FL_OK) {
        fl_midpoint_free_sparse(mp);
        return s;
    }
    /* Woodbury: Y = S0^-1 U, T = I + C U^T Y */
    if (k > 0) {
        mp->Y = fl_dense_matrix_alloc(n, k);
        mp->T = fl_dense_matrix_alloc(k, k);
        mp->Tp = fl_dense_permutation_alloc(k);
        if (!mp->Y || !mp->T || !mp->Tp) {
            fl_midpoint_free_sparse(mp);
            return FL_FAIL(err, FL_ENOMEM, "out of memory for the %zu-column Woodbury update", k);
        }
        for (size_t c = 0; c < k; c++) {
            for (size_t i = 0; i < n; i++) mp->w1[i] = gsl_matrix_get(p->U, i, c);
            if ((s = fl_sparse_solve(&mp->ctx, mp->L, mp->w1, mp->w2, err))) {
                fl_midpoint_free_sparse(mp);
                return s;
            }
            for (size_t i = 0; i < n; i++) gsl_matrix_set(mp->Y, i, c, mp->w2[i]);
        }
        gsl_matrix *UtY = fl_dense_matrix_alloc(k, k);
        if (!UtY) {
            fl_midpoint_free_sparse(mp);
            return FL_FAIL(err, FL_ENOMEM, "out of memory for the %zu-column Woodbury update", k);
        }
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, p->U, mp->Y, 0.0, UtY);
        gsl_matrix_set_identity(mp->T);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, c4, p->K, UtY, 1.0, mp->T);
        gsl_matrix_free(UtY);
        int sg;
        gsl_linalg_LU_decomp(mp->T, mp->Tp, &sg);
    }
    /* Delassus D = H S^-1 H^T, column by column (2nc solves) */
    if ((s = build_Ht(mp, err)) != FL_OK) {
        fl_midpoint_free_sparse(mp);
        return s;
    }
    const int *Hp = mp->Ht->p, *Hi = mp->Ht->i;
    const double *Hx = mp->Ht->x;
    for (size_t j = 0; j < m; j++) {
        memset(mp->w1, 0, n * sizeof(double));
        for (int q = Hp[j]; q < Hp[j + 1]; q++) mp->w1[Hi[q]] = Hx[q];
        if ((s = s_solve(mp, mp->w1, mp->w2, err))) {
            fl_midpoint_free_sparse(mp);
            return s;
        }
        sdmult(&mp->ctx, mp->Ht, 1, 1.0, mp->w2, 0.0, mp->hy);
        for (size_t i = 0; i < m; i++) gsl_matrix_set(mp->D, i, j, mp->hy[i]);
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (gsl_matrix_get(mp->D, i, j) + gsl_matrix_get(mp->D, j, i));
            gsl_matrix_set(mp->D, i, j, a);
            gsl_matrix_set(mp->D, j, i, a);
        }
    *out = mp;
    return FL_OK;
}

double fl_midpoint_energy_sparse(fl_midpoint_sparse *mp, const gsl_vector *u, const gsl_vector *v)
{
    const fl_midpoint_problem *p = mp->p;
    size_t n = p->n;
    double kin = 0, pot = 0, lin = 0;
    mr_apply(mp, v->data, mp->wk);
    fl_sparse_mv(&mp->ctx, p->A_s, 0, 1.0, u->data, 0.0, mp->wk2, NULL);
    for (size_t i = 0; i < n; i++) {
        kin += v->data[i] * mp->wk[i];
        pot += u->data[i] * mp->wk2[i];
        lin += u->data[i] * p->f->data[i];
    }
    return 0.5 * kin + 0.5 * pot - lin;
}

/* One step of 002 (20)-(23), as fl_midpoint_step. */
fl_status fl_midpoint_step_sparse(fl_midpoint_sparse *mp, fl_midpoint_state *st,
                                  fl_midpoint_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    const fl_midpoint_problem *p = mp->p;
    size_t n = p->n, nc = p->nc, m = 2 * nc;
    fl_midpoint_result r;
    memset(&r, 0, sizeof r);
    if (!st || st->n != n || st->nc != nc) return FL_FAIL(err, FL_EDIM, "state does not match the problem");
    double dt = mp->opt.dt, c4 = 4.0 / (dt * dt), c2 = 2.0 / dt;
    double *u = st->u->data, *v = st->v->data, *hu = mp->hy, *hv = mp->hy + m;
    /* fhat = f + M_r (c4 u + c2 v) */
    for (size_t i = 0; i < n; i++) mp->w1[i] = c4 * u[i] + c2 * v[i];
    mr_apply(mp, mp->w1, mp->fhat);
    for (size_t i = 0; i < n; i++) mp->fhat[i] += p->f->data[i];
    FL_TRY(s_solve(mp, mp->fhat, mp->z, err));
    sdmult(&mp->ctx, mp->Ht, 1, 1.0, mp->z, 0.0, mp->q->data);     /* q = H z */
    sdmult(&mp->ctx, mp->Ht, 1, 1.0, u, 0.0, hu);                   /* (-nu^T u, tau^T u) */
    sdmult(&mp->ctx, mp->Ht, 1, 1.0, v, 0.0, hv);
    for (size_t i = 0; i < nc; i++) {
        double nu_u = -hu[2 * i], tau_u = hu[2 * i + 1], tau_v = hv[2 * i + 1];
        if (mp->opt.contact == FL_MIDPOINT_AT_MIDPOINT) {
            mp->q->data[2 * i + 1] -= tau_u + 0.5 * dt * p->v_found;
        } else {
            mp->q->data[2 * i] += 0.5 * nu_u;
            mp->q->data[2 * i + 1] -= tau_u + 0.25 * dt * (tau_v + p->v_found);
        }
    }
    fl_status s;
    if (mp->opt.solver == FL_MIDPOINT_LOCAL_ENUM) {
        FL_TRY(fl_midpoint_local_enumerate(mp->D, mp->q, p->mu, mp->sols, &mp->nsols, err));
        r.iterations = (int)((size_t)1 << (2 * nc));
        r.nsolutions = mp->nsols;
        if (mp->nsols == 0) return FL_FAIL(err, FL_ENOCONV, "enumeration found no solution");
        gsl_vector_view first = gsl_matrix_row(mp->sols, 0);
        gsl_vector_memcpy(st->y, &first.vector);
        r.status = mp->nsols > 1 ? FL_WNOTUNIQUE : FL_OK;
    } else {
        s = fl_midpoint_local_gs(mp->D, mp->q, p->mu, mp->opt.tol, mp->opt.max_iter, st->y, &r.iterations, err);
        if (s < 0) return s;
        r.status = s;
        r.nsolutions = 1;
    }
    r.residual = fl_midpoint_local_residual(mp->D, mp->q, p->mu, st->y);
    /* u^{k+1/2} = z + S^-1 H^T y */
    sdmult(&mp->ctx, mp->Ht, 0, 1.0, st->y->data, 0.0, mp->w1);
    FL_TRY(s_solve(mp, mp->w1, mp->uh, err));
    for (size_t i = 0; i < n; i++) {
        mp->uh[i] += mp->z[i];
        mp->w2[i] = c2 * (mp->uh[i] - u[i]);                        /* v^{k+1/2} */
    }
    sdmult(&mp->ctx, mp->Ht, 1, 1.0, mp->w2, 0.0, hv);
    for (size_t i = 0; i < nc; i++) {
        double nv = -hv[2 * i], tv = hv[2 * i + 1];
        double lam_nu = -st->y->data[2 * i], lam_tau = st->y->data[2 * i + 1];
        r.work_normal += lam_nu * nv * dt;
        r.work_friction += dt * lam_tau * tv;
        r.persistency += fabs(lam_nu * nv);
    }
    for (size_t i = 0; i < n; i++) {
        u[i] = 2.0 * mp->uh[i] - u[i];
        v[i] = 2.0 * mp->w2[i] - v[i];
    }
    st->t += dt;
    r.energy = fl_midpoint_energy_sparse(mp, st->u, st->v);
    if (!isfinite(r.energy)) r.status = FL_ENONFINITE;
    r.seconds = fl_clock_now() - t0;
    if (res) *res = r;
    return r.status < 0 ? FL_FAIL(err, r.status, "non-finite state after the step") : r.status;
}
