/* stability_sparse.c — K*, M*, K*_S in CSC and the §5.4 searches with
 * CHOLMOD (004 (80)-(86), §5.4 methods 2-3).  See stability_sparse.h. */
#include "optimized/stability_sparse.h"
#include "fl_dense.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <arpack.h>

void fl_stability_tangent_free_sparse(fl_sparse_ctx *ctx, fl_stability_tangent_sparse *t)
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
fl_status fl_stability_tangent_alloc_sparse(fl_sparse_ctx *ctx, const fl_stability_system_sparse *s,
                                       const fl_stability_label *labels, const double *r,
                                       fl_stability_tangent_sparse **out, fl_error *err)
{
    *out = NULL;
    /* the reference's refusals, in its order (fl_stability_system_check, then
     * fl_stability_tangent_alloc's own): missing data, sizes, values, contacts */
    if (!s || !s->K || !s->M || (s->np > 0 && (!s->iT || !s->iN)))
        return FL_FAIL(err, FL_EINVAL, "stability system: missing K, M or contact indices");
    if (s->n == 0 || s->K->nrow != s->n || s->K->ncol != s->n || s->M->nrow != s->n ||
        s->M->ncol != s->n)
        return FL_FAIL(err, FL_EDIM, "stability system: K and M must be %zux%zu", s->n, s->n);
    if (!s->K->packed || !s->M->packed)    /* how the rest of this file reads them */
        return FL_FAIL(err, FL_EINVAL, "stability system: K and M must be packed sparse matrices");
    FL_TRY(fl_sparse_check_finite(s->K, "stiffness K", err));
    FL_TRY(fl_sparse_check_finite(s->M, "mass M", err));
    FL_TRY(fl_stability_check_contacts(s->n, s->prescribed, s->np, s->iT, s->iN, s->mu, err));
    if (!labels || !r)
        return FL_FAIL(err, FL_EDIM, "tangent: labels and r (length %zu) required", s->n);
    size_t n = s->n;
    long *pos = malloc(n * sizeof *pos), *srow = malloc(n * sizeof *srow);
    int *cs = calloc(n, sizeof *cs);
    double *fac = calloc(n, sizeof *fac);
    fl_stability_tangent_sparse *t = calloc(1, sizeof *t);
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
    if (st != FL_OK) { fl_stability_tangent_free_sparse(ctx, t); return st; }
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

/* 004 §5.4 methods 2 and 3 (004 §5.4). */
static fl_status analyse_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t,
                                const fl_stability_options *opt, int max_iter,
                                fl_stability_result *res, fl_error *err)
{
    fl_stability_options o = opt ? *opt : fl_stability_options_default();
    memset(res, 0, sizeof *res);
    if (!t || t->nstar == 0 || !t->KS || !ctx)
        return res->status = FL_FAIL(err, FL_EINVAL, "sparse analyse: empty tangent system or no context");
    double t0 = fl_clock_now();
    size_t n = t->nstar;
    res->nstar = n;
    res->ks_cone_min = res->ms_min = res->lambda_real_min = res->min_re_lambda = NAN;
    /* Gershgorin bounds of K*_S (full rows from the upper storage) */
    cholmod_sparse *F = cholmod_copy(t->KS, 0, 1, &ctx->cm);
    double *lo = malloc(n * sizeof *lo), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    res->ks_vec = fl_dense_vector_alloc(n);
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
    if (pd < 0) { st = FL_FAIL(err, fl_sparse_failure(&ctx->cm), "CHOLMOD factorisation failed"); goto done; }
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
        fl_sparse_mv(ctx, t->KS, 0, 1.0, x, 0.0, y, err);           /* y = K*_S x */
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
    res->ks_vec_admissible = fl_stability_admissible(res->ks_vec, t->csign, o.sign_tol);
    if (res->ks_vec_admissible) {
        double worst = 0.0;
        for (size_t k = 0; k < n; k++) worst = fmax(worst, (double)t->csign[k] * x[k]);
        if (worst > 0.0) gsl_vector_scale(res->ks_vec, -1.0);
    }
    if (resid > 1e-10 * scale) st = FL_WMAXITER;
    if (o.sparse.nev > 0 && n >= 3) {           /* (ii), (iii): lowest modes of M*^-1 K* */
        fl_status sm = fl_stability_modes_sparse(ctx, t, &o, max_iter, res, err);
        if (sm != FL_OK) st = sm;
    }
done:
    fl_sparse_free_factor(ctx, &L);
    if (F) cholmod_free_sparse(&F, &ctx->cm);
    free(lo); free(x); free(y);
    res->seconds = fl_clock_now() - t0;
    res->status = st;
    return st;
}

/* ---- lowest modes by ARPACK on a shift-inverted operator ----------------
 * 004 §5.4 (ii)-(iii) ("Lanczos algorithm along with the double QR") and
 * §5.7: the eigenvalues of smallest modulus of a pencil are the dominant
 * ones of its inverse, so ARPACK's implicitly restarted Arnoldi (dnaupd,
 * regular mode, bmat = 'I', which = "LM") runs on OP = A^-1 B applied with
 * one UMFPACK LU of A (004 §5.4). */

typedef struct op_ctx {
    fl_sparse_ctx *ctx;
    fl_sparse_lu *lu;            /* LU of K* (the shift is 0 in both operators) */
    cholmod_sparse *K, *M;       /* K*, M* */
    double alpha, beta;          /* Rayleigh coefficients (damped only) */
    size_t n;
    double *w;                   /* workspace, length n */
    fl_error *err;
} op_ctx;

/* undamped: y = K*^-1 M* x; eigenvalue nu = 1 / Lambda of M*^-1 K*. */
static fl_status op_undamped(op_ctx *c, const double *x, double *y)
{
    FL_TRY(fl_sparse_mv(c->ctx, c->M, 0, 1.0, x, 0.0, c->w, c->err));
    return fl_sparse_lu_solve(c->lu, c->w, y, c->err);
}

/* damped, first-order form z = (V, lambda V) of
 *   (lambda^2 M* + lambda C + K*) V = 0,  C = alpha M* + beta K*:
 * A z = lambda B z with A = [0 I; -K* -C], B = [I 0; 0 M*].  y = A^-1 B x:
 * y2 = x1, y1 = -K*^-1 (M* x2 + C x1); eigenvalue nu = 1 / lambda. */
static fl_status op_damped(op_ctx *c, const double *x, double *y)
{
    size_t n = c->n;
    const double *x1 = x, *x2 = x + n;
    FL_TRY(fl_sparse_mv(c->ctx, c->M, 0, 1.0, x2, 0.0, c->w, c->err));
    FL_TRY(fl_sparse_mv(c->ctx, c->M, 0, c->alpha, x1, 1.0, c->w, c->err));
    FL_TRY(fl_sparse_mv(c->ctx, c->K, 0, c->beta, x1, 1.0, c->w, c->err));
    FL_TRY(fl_sparse_lu_solve(c->lu, c->w, y, c->err));
    for (size_t i = 0; i < n; i++) y[i] = -y[i];
    memcpy(y + n, x1, n * sizeof *y);
    return FL_OK;
}

/* Ritz values are accepted at a residual of 1e-12 |nu| (ARPACK's default,
 * machine precision, stalls on the clustered pairs +-i w of lightly damped
 * modes). */
#define ARNOLDI_TOL 1e-12

/* Reverse-communication loop of dnaupd / dneupd.  Returns in nr, ni (length
 * nev + 1) the converged nu, *nconv their number, and in Z (N x (nev + 1),
 * may be NULL) the Ritz vectors (a complex pair in two columns: re, im). */
static fl_status arnoldi(op_ctx *c, fl_status (*op)(op_ctx *, const double *, double *),
                         size_t N, size_t nev, int max_iter, double *nr, double *ni, double *Z,
                         size_t *nconv, fl_error *err)
{
    a_int ncv = (a_int)(2 * nev + 1 < 20 ? 20 : 2 * nev + 1);
    if ((size_t)ncv > N) ncv = (a_int)N;
    a_int lworkl = 3 * ncv * ncv + 6 * ncv, info = 1, ido = 0, iparam[11] = {0}, ipntr[14] = {0};
    double *resid = malloc(N * sizeof *resid), *V = malloc(N * (size_t)ncv * sizeof *V);
    double *workd = malloc(3 * N * sizeof *workd), *workl = malloc((size_t)lworkl * sizeof *workl);
    double *workev = malloc(3 * (size_t)ncv * sizeof *workev), *Zw = NULL;
    a_int *select = calloc((size_t)ncv, sizeof *select);
    fl_status st = FL_OK;
    if (!Z) Zw = malloc(N * (nev + 1) * sizeof *Zw);
    if (!resid || !V || !workd || !workl || !workev || !select || (!Z && !Zw)) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < N; i++) resid[i] = 1.0 + 0.1 * sin(1.0 + (double)i);  /* deterministic start */
    iparam[0] = 1;             /* exact shifts */
    iparam[2] = max_iter;
    iparam[6] = 1;             /* regular mode on OP */
    for (;;) {
        dnaupd_c(&ido, "I", (a_int)N, "LM", (a_int)nev, ARNOLDI_TOL, resid, ncv, V, (a_int)N, iparam, ipntr,
                 workd, workl, lworkl, &info);
        if (ido != -1 && ido != 1) break;
        st = op(c, workd + ipntr[0] - 1, workd + ipntr[1] - 1);
        if (st != FL_OK) goto done;
    }
    if (info < 0) { st = FL_FAIL(err, FL_EEXTERNAL, "ARPACK dnaupd failed (info %d)", (int)info); goto done; }
    dneupd_c(1, "A", select, nr, ni, Z ? Z : Zw, (a_int)N, 0.0, 0.0, workev, "I", (a_int)N, "LM",
             (a_int)nev, ARNOLDI_TOL, resid, ncv, V, (a_int)N, iparam, ipntr, workd, workl, lworkl, &info);
    if (info != 0) { st = FL_FAIL(err, FL_EEXTERNAL, "ARPACK dneupd failed (info %d)", (int)info); goto done; }
    *nconv = (size_t)iparam[4];
    if (*nconv < nev) st = FL_WMAXITER;   /* info = 1 (restart limit) with nconv >= nev is fine */
done:
    free(resid); free(V); free(workd); free(workl); free(workev); free(select); free(Zw);
    return st;
}

/* The pencil's eigenvalues from ARPACK's nu = 1 / eigenvalue. */
static void invert_ritz(size_t m, const double *nr, const double *ni, double *re, double *im)
{
    for (size_t k = 0; k < m; k++) {
        double d = nr[k] * nr[k] + ni[k] * ni[k];
        re[k] = d > 0 ? nr[k] / d : INFINITY;
        im[k] = d > 0 ? -ni[k] / d : 0.0;
    }
}

/* Sizes ARPACK accepts: 1 <= nev <= N - 2. */
static size_t clip_nev(size_t nev, size_t N) { return nev + 2 > N ? (N > 2 ? N - 2 : 0) : nev; }

fl_status fl_stability_modes_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t,
                               const fl_stability_options *opt, int max_iter, fl_stability_result *res,
                               fl_error *err)
{
    fl_stability_options o = opt ? *opt : fl_stability_options_default();
    size_t n = t ? t->nstar : 0, nev = clip_nev(o.sparse.nev, n);
    if (!t || !t->Kstar || !t->Mstar || nev == 0)
        return FL_FAIL(err, FL_EDIM, "lowest modes: need N* >= 3 and nev >= 1 (N* = %zu)", n);
    double t0 = fl_clock_now();
    op_ctx c = {.ctx = ctx, .K = t->Kstar, .M = t->Mstar, .n = n, .err = err};
    double *nr = malloc((nev + 1) * sizeof *nr), *ni = malloc((nev + 1) * sizeof *ni);
    double *Z = malloc(n * (nev + 1) * sizeof *Z);
    size_t *perm = malloc((nev + 1) * sizeof *perm);
    gsl_matrix *E = NULL;
    c.w = malloc(n * sizeof *c.w);
    free(res->lam_re);
    free(res->lam_im);
    res->lam_re = malloc((nev + 1) * sizeof *res->lam_re);
    res->lam_im = malloc((nev + 1) * sizeof *res->lam_im);
    res->nlam = 0;
    fl_status st = FL_OK, st2;
    size_t nconv = 0;
    if (!nr || !ni || !Z || !perm || !c.w || !res->lam_re || !res->lam_im) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory");
        goto done;
    }
    st = fl_sparse_lu_alloc(ctx, t->Kstar, &c.lu, err);
    if (st == FL_ESINGULAR) {
        st = FL_FAIL(err, FL_ESINGULAR, "K* is singular: Lambda = 0 is an eigenvalue of M*^-1 K*");
        goto done;
    }
    if (st != FL_OK) goto done;
    st2 = arnoldi(&c, op_undamped, n, nev, max_iter, nr, ni, Z, &nconv, err);
    if (st2 < 0) { st = st2; goto done; }
    /* Lambda = 1 / nu; the Ritz vector of a complex nu = a + ib is column
     * pair (re, im) for nu and its conjugate: keep the real part. */
    invert_ritz(nconv, nr, ni, res->lam_re, res->lam_im);
    res->nlam = nconv;
    st = fl_stability_sort_eig(nconv, res->lam_re, res->lam_im, FL_STAB_BY_MODULUS, perm, err);
    if (st != FL_OK) goto done;
    E = fl_dense_matrix_alloc(n, nconv ? nconv : 1);
    if (!E) { st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto done; }
    for (size_t k = 0; k < nconv; k++) {
        size_t col = perm[k];
        if (ni[col] != 0.0 && col > 0 && ni[col - 1] == -ni[col] && nr[col - 1] == nr[col]) col--;
        for (size_t i = 0; i < n; i++) gsl_matrix_set(E, i, k, Z[col * n + i]);
    }
    fl_stability_classify(&o, t->csign, E, res);
    st = st2;
done:
    if (E) gsl_matrix_free(E);
    fl_sparse_lu_free(c.lu);
    free(nr); free(ni); free(Z); free(perm); free(c.w);
    res->seconds += fl_clock_now() - t0;
    return st;
}

fl_status fl_stability_rayleigh_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t, double alpha,
                                  double beta, size_t nev, int max_iter, double *lre, double *lim,
                                  size_t *nroots, fl_error *err)
{
    size_t n = t ? t->nstar : 0;
    *nroots = 0;
    nev = clip_nev(nev, 2 * n);
    if (!t || !t->Kstar || !t->Mstar || nev == 0)
        return FL_FAIL(err, FL_EDIM, "damped roots: need N* >= 2 and nev >= 1 (N* = %zu)", n);
    if (!isfinite(alpha) || !isfinite(beta))
        return FL_FAIL(err, FL_ENONFINITE, "Rayleigh coefficients must be finite");
    op_ctx c = {.ctx = ctx, .K = t->Kstar, .M = t->Mstar, .alpha = alpha, .beta = beta, .n = n, .err = err};
    double *nr = malloc((nev + 1) * sizeof *nr), *ni = malloc((nev + 1) * sizeof *ni);
    c.w = malloc(n * sizeof *c.w);
    size_t nconv = 0;
    fl_status st = (!nr || !ni || !c.w) ? FL_FAIL(err, FL_ENOMEM, "out of memory") : FL_OK;
    if (st == FL_OK) {
        st = fl_sparse_lu_alloc(ctx, t->Kstar, &c.lu, err);
        if (st == FL_ESINGULAR) st = FL_FAIL(err, FL_ESINGULAR, "K* is singular: lambda = 0 is a root");
    }
    if (st == FL_OK) st = arnoldi(&c, op_damped, 2 * n, nev, max_iter, nr, ni, NULL, &nconv, err);
    if (st >= 0) {
        invert_ritz(nconv, nr, ni, lre, lim);
        *nroots = nconv;
        fl_status s2 = fl_stability_sort_eig(nconv, lre, lim, FL_STAB_BY_FREQUENCY, NULL, err);
        if (s2 != FL_OK) st = s2;
    }
    fl_sparse_lu_free(c.lu);
    free(nr); free(ni); free(c.w);
    return st;
}

/* 004 §5.4 methods 2 and 3: the contract of fl_stability_analyse on
 * t->ctx, t->sparse, with opt->sparse.max_iter steps. */
fl_status fl_stability_analyse_sparse(const fl_stability_tangents *t, const fl_stability_options *opt,
                                      fl_stability_result *res, fl_error *err)
{
    fl_stability_options o = opt ? *opt : fl_stability_options_default();
    return analyse_sparse(t ? t->ctx : NULL, t ? t->sparse : NULL, &o, o.sparse.max_iter, res, err);
}
