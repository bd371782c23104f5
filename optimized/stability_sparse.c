/* stability_sparse.c — K*, M*, K*_S in CSC and the §5.4 searches with
 * CHOLMOD (004 (80)-(86), §5.4 methods 2-3).  See stability_sparse.h. */
#include "optimized/stability_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void fl_stab_sparse_tangent_free(fl_sparse_ctx *ctx, fl_stab_sparse_tangent *t)
{
    if (!t) return;
    free(t->dof);
    free(t->csign);
    fl_sparse_free(ctx, &t->Kstar);
    fl_sparse_free(ctx, &t->Mstar);
    fl_sparse_free(ctx, &t->KS);
    free(t);
}

/* (81)-(82) for one matrix: entries (i, j), i, j in S*, plus f * A(N_p, j)
 * added to row T_p for sliding particles.  A is read in full storage. */
static fl_status gather(fl_sparse_ctx *ctx, cholmod_sparse *A, const long *pos,
                        const long *slide_row, const double *fac, size_t ns,
                        cholmod_sparse **out, fl_error *err)
{
    cholmod_sparse *F = cholmod_copy(A, 0, 1, &ctx->cm);      /* unsymmetric, both triangles */
    if (!F) return FL_FAIL(err, FL_ENOMEM, "cholmod_copy failed");
    const int *Ap = F->p, *Ai = F->i;
    const double *Ax = F->x;
    size_t nnz = 0, n = F->ncol;
    for (size_t j = 0; j < n; j++)
        if (pos[j] >= 0)
            for (int k = Ap[j]; k < Ap[j + 1]; k++)
                nnz += (pos[Ai[k]] >= 0) + (slide_row[Ai[k]] >= 0);
    int *ri = malloc((nnz + 1) * sizeof *ri), *ci = malloc((nnz + 1) * sizeof *ci);
    double *vv = malloc((nnz + 1) * sizeof *vv);
    if (!ri || !ci || !vv) {
        free(ri); free(ci); free(vv);
        cholmod_free_sparse(&F, &ctx->cm);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        if (pos[j] < 0) continue;
        for (int k = Ap[j]; k < Ap[j + 1]; k++) {
            size_t i = (size_t)Ai[k];
            if (pos[i] >= 0) { ri[m] = (int)pos[i]; ci[m] = (int)pos[j]; vv[m] = Ax[k]; m++; }
            if (slide_row[i] >= 0) {          /* i = N_p: row T_p += f A(N_p, j) */
                ri[m] = (int)slide_row[i]; ci[m] = (int)pos[j]; vv[m] = fac[i] * Ax[k]; m++;
            }
        }
    }
    fl_status st = fl_sparse_from_triplet(ctx, ns, ns, m, ri, ci, vv, 0, out, err);
    free(ri); free(ci); free(vv);
    cholmod_free_sparse(&F, &ctx->cm);
    return st;
}

/* 004 (80)-(82), (86). */
fl_status fl_stab_sparse_tangent_alloc(fl_sparse_ctx *ctx, const fl_stab_sparse_system *s,
                                       const fl_stab_label *labels, const double *r,
                                       fl_stab_sparse_tangent **out, fl_error *err)
{
    *out = NULL;
    if (!s || !s->K || !s->M || !labels || !r || s->n == 0 || s->K->nrow != s->n ||
        s->K->ncol != s->n || s->M->nrow != s->n || s->M->ncol != s->n)
        return FL_FAIL(err, FL_EDIM, "sparse tangent: K, M must be %zux%zu", s ? s->n : 0,
                       s ? s->n : 0);
    size_t n = s->n;
    long *pos = malloc(n * sizeof *pos), *srow = malloc(n * sizeof *srow);
    int *cs = calloc(n, sizeof *cs);
    double *fac = calloc(n, sizeof *fac);
    fl_stab_sparse_tangent *t = calloc(1, sizeof *t);
    if (!pos || !srow || !cs || !fac || !t) {
        free(pos); free(srow); free(cs); free(fac); free(t);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    int *in = cs;   /* reuse: mark S* membership in pos first */
    (void)in;
    for (size_t i = 0; i < n; i++) { pos[i] = (s->prescribed && s->prescribed[i]) ? -1 : 0; srow[i] = -1; }
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        if (iT >= n || iN >= n) {
            free(pos); free(srow); free(cs); free(fac); free(t);
            return FL_FAIL(err, FL_EINVAL, "sparse tangent: contact dof out of range");
        }
        switch (labels[p]) {
        case FL_STAB_PF: pos[iT] = pos[iN] = 0; break;
        case FL_STAB_PZ: pos[iT] = pos[iN] = 0; cs[iN] = 1; break;
        case FL_STAB_PD: pos[iT] = pos[iN] = -1; break;
        case FL_STAB_PS:
            pos[iT] = 0; pos[iN] = -1;
            cs[iT] = (r[iT] > 0) - (r[iT] < 0);
            fac[iN] = s->mu * cs[iT];
            srow[iN] = (long)iT;         /* original T index, mapped below */
            break;
        default:
            free(pos); free(srow); free(cs); free(fac); free(t);
            return FL_FAIL(err, FL_EINVAL, "sparse tangent: bad label %d", (int)labels[p]);
        }
    }
    size_t ns = 0;
    for (size_t i = 0; i < n; i++) if (pos[i] >= 0) pos[i] = (long)ns++;
    if (ns == 0) {
        free(pos); free(srow); free(cs); free(fac); free(t);
        return FL_FAIL(err, FL_EINVAL, "sparse tangent: S* is empty");
    }
    for (size_t i = 0; i < n; i++) if (srow[i] >= 0) srow[i] = pos[srow[i]];
    t->nstar = ns;
    t->dof = malloc(ns * sizeof *t->dof);
    t->csign = malloc(ns * sizeof *t->csign);
    fl_status st = (!t->dof || !t->csign) ? FL_FAIL(err, FL_ENOMEM, "out of memory") : FL_OK;
    if (st == FL_OK)
        for (size_t i = 0; i < n; i++)
            if (pos[i] >= 0) { t->dof[pos[i]] = i; t->csign[pos[i]] = cs[i]; }
    if (st == FL_OK) st = gather(ctx, s->K, pos, srow, fac, ns, &t->Kstar, err);
    if (st == FL_OK) st = gather(ctx, s->M, pos, srow, fac, ns, &t->Mstar, err);
    if (st == FL_OK) {                       /* (86): K*_S = (K* + K*^T)/2, upper storage */
        cholmod_sparse *Tt = cholmod_transpose(t->Kstar, 1, &ctx->cm);
        double half[2] = {0.5, 0.0};
        cholmod_sparse *S = Tt ? cholmod_add(t->Kstar, Tt, half, half, 1, 1, &ctx->cm) : NULL;
        t->KS = S ? cholmod_copy(S, 1, 1, &ctx->cm) : NULL;
        cholmod_free_sparse(&Tt, &ctx->cm);
        cholmod_free_sparse(&S, &ctx->cm);
        if (!t->KS) st = FL_FAIL(err, FL_ENOMEM, "cholmod_add/copy failed");
    }
    free(pos); free(srow); free(cs); free(fac);
    if (st != FL_OK) { fl_stab_sparse_tangent_free(ctx, t); return st; }
    *out = t;
    return FL_OK;
}

/* K*_S - sigma I in upper storage (the pattern always holds the diagonal). */
static cholmod_sparse *shifted(fl_sparse_ctx *ctx, cholmod_sparse *KS, double sigma)
{
    cholmod_sparse *I = cholmod_speye(KS->nrow, KS->ncol, CHOLMOD_REAL, &ctx->cm);
    if (!I) return NULL;
    I->stype = 1;
    double one[2] = {1.0, 0.0}, ms[2] = {-sigma, 0.0};
    cholmod_sparse *A = cholmod_add(KS, I, one, ms, 1, 1, &ctx->cm);
    cholmod_free_sparse(&I, &ctx->cm);
    if (A) A->stype = 1;
    return A;
}

/* Try a Cholesky factorisation of K*_S - sigma I: 1 = SPD, 0 = not, -1 = error. */
static int try_factor(fl_sparse_ctx *ctx, cholmod_sparse *KS, double sigma, cholmod_factor **L)
{
    cholmod_sparse *A = shifted(ctx, KS, sigma);
    if (!A) return -1;
    fl_error e;
    fl_status st = fl_sparse_factor(ctx, A, L, &e);
    cholmod_free_sparse(&A, &ctx->cm);
    if (st == FL_OK) return 1;
    if (st == FL_ENOTSPD) return 0;
    return -1;
}

/* 004 §5.4 methods 2 and 3 (CATALOGUE D.5, D.6). */
fl_status fl_stab_sparse_analyse(fl_sparse_ctx *ctx, const fl_stab_sparse_tangent *t,
                                 const fl_stab_options *opt, int max_iter,
                                 fl_stab_result *res, fl_error *err)
{
    fl_stab_options o = opt ? *opt : fl_stab_options_default();
    memset(res, 0, sizeof *res);
    if (!t || t->nstar == 0 || !t->KS)
        return res->status = FL_FAIL(err, FL_EINVAL, "sparse analyse: empty tangent system");
    double t0 = now_s();
    size_t n = t->nstar;
    res->nstar = n;
    res->ks_cone_min = res->ms_min = res->lambda_real_min = res->min_re_lambda = NAN;
    /* Gershgorin bounds of K*_S (full rows from the upper storage) */
    cholmod_sparse *F = cholmod_copy(t->KS, 0, 1, &ctx->cm);
    double *lo = malloc(n * sizeof *lo), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    res->ks_vec = gsl_vector_alloc(n);
    cholmod_factor *L = NULL;
    fl_status st = FL_OK;
    if (!F || !lo || !x || !y || !res->ks_vec) { st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto done; }
    double scale = 0.0;
    for (size_t i = 0; i < n; i++) lo[i] = 0.0;
    {
        const int *Fp = F->p, *Fi = F->i;
        const double *Fx = F->x;
        double *rad = calloc(n, sizeof *rad), *dia = calloc(n, sizeof *dia);
        if (!rad || !dia) { free(rad); free(dia); st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto done; }
        for (size_t j = 0; j < n; j++)
            for (int k = Fp[j]; k < Fp[j + 1]; k++) {
                size_t i = (size_t)Fi[k];
                if (!isfinite(Fx[k])) { free(rad); free(dia); st = FL_FAIL(err, FL_ENONFINITE, "K*_S has a non-finite entry"); goto done; }
                scale = fmax(scale, fabs(Fx[k]));
                if (i == j) dia[i] += Fx[k]; else rad[i] += fabs(Fx[k]);
            }
        for (size_t i = 0; i < n; i++) lo[i] = dia[i] - rad[i];
        free(rad);
        free(dia);
    }
    if (scale == 0.0) scale = 1.0;
    /* method 2: Cholesky of K*_S itself, status from CHOLMOD */
    int pd = try_factor(ctx, t->KS, 0.0, &L);
    if (pd < 0) { st = FL_FAIL(err, FL_EEXTERNAL, "CHOLMOD factorisation failed"); goto done; }
    res->ks_cholesky_pd = pd;
    /* method 3: shifted inverse power; sigma certified below lambda_min */
    double sigma = INFINITY;
    for (size_t i = 0; i < n; i++) sigma = fmin(sigma, lo[i]);
    sigma -= 1e-3 * scale;
    if (try_factor(ctx, t->KS, sigma, &L) != 1) { st = FL_FAIL(err, FL_EEXTERNAL, "shift below the Gershgorin bound not SPD"); goto done; }
    for (size_t i = 0; i < n; i++) x[i] = 1.0 + 0.1 * sin(1.0 + (double)i);   /* deterministic start */
    double rho = 0.0, resid = INFINITY;
    int it;
    for (it = 1; it <= max_iter; it++) {
        double nx = 0.0;
        for (size_t i = 0; i < n; i++) nx += x[i] * x[i];
        nx = sqrt(nx);
        for (size_t i = 0; i < n; i++) x[i] /= nx;
        fl_sparse_mv(ctx, t->KS, 1.0, x, 0.0, y, err);           /* y = K*_S x */
        rho = 0.0;
        for (size_t i = 0; i < n; i++) rho += x[i] * y[i];
        resid = 0.0;
        for (size_t i = 0; i < n; i++) resid += (y[i] - rho * x[i]) * (y[i] - rho * x[i]);
        resid = sqrt(resid);
        if (resid <= 1e-10 * scale) break;
        if (it % 8 == 0) {              /* move the shift up if a factorisation certifies it */
            double cand = rho - 2.0 * resid;
            if (cand > sigma && try_factor(ctx, t->KS, cand, &L) == 1) sigma = cand;
            else if (try_factor(ctx, t->KS, sigma, &L) != 1) { st = FL_FAIL(err, FL_EEXTERNAL, "refactorisation failed"); goto done; }
        }
        st = fl_sparse_solve(ctx, L, x, y, err);                  /* y = (K*_S - sigma I)^-1 x */
        if (st != FL_OK) goto done;
        memcpy(x, y, n * sizeof *x);
    }
    res->iterations = it > max_iter ? max_iter : it;
    res->ks_min = rho;
    res->residual = resid;
    for (size_t i = 0; i < n; i++) gsl_vector_set(res->ks_vec, i, x[i]);
    res->ks_vec_admissible = fl_stab_admissible(res->ks_vec, t->csign, o.sign_tol);
    if (res->ks_vec_admissible) {
        double worst = 0.0;
        for (size_t k = 0; k < n; k++) worst = fmax(worst, (double)t->csign[k] * x[k]);
        if (worst > 0.0) gsl_vector_scale(res->ks_vec, -1.0);
    }
    if (resid > 1e-10 * scale) st = FL_WMAXITER;
done:
    fl_sparse_free_factor(ctx, &L);
    if (F) cholmod_free_sparse(&F, &ctx->cm);
    free(lo); free(x); free(y);
    res->seconds = now_s() - t0;
    res->status = st;
    return st;
}
