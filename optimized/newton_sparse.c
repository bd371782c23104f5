/* newton_sparse.c — semismooth Newton on the Alart–Curnier function
 * (Alart & Curnier 1991, §3; proofs/newton.md), sparse twin of
 * reference/newton.c: the generalized Jacobian (N3) / the (v, r) system
 * (N4) of newton.h in CSC storage with a pattern fixed for the whole solve,
 * UMFPACK symbolic analysis once, numeric LU per step.  See newton_sparse.h.
 */
#include "optimized/newton_sparse.h"
#include "reference/newton_internal.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <umfpack.h>

#include "fl_dense.h"
#include "reference/local_contact.h"
#include "reference/nsgs.h"
#include "optimized/nsgs_sparse.h"

/* y += alpha A x for a packed int CSC A (any shape, unsymmetric storage). */
static void csc_gaxpy(const cholmod_sparse *A, double alpha, const double *x, double *y)
{
    const int *Ap = A->p, *Ai = A->i;
    const double *Ax = A->x;
    for (size_t j = 0; j < A->ncol; j++) {
        double xj = alpha * x[j];
        if (xj == 0.0) continue;
        for (int k = Ap[j]; k < Ap[j + 1]; k++) y[Ai[k]] += Ax[k] * xj;
    }
}

/* Packed, sorted, int-indexed, unsymmetric-storage copy of A (symmetric
 * storage expanded), real values checked finite. */
static fl_status plain_copy(fl_sparse_ctx *ctx, const cholmod_sparse *A, const char *what,
                            cholmod_sparse **out, fl_error *err)
{
    *out = NULL;
    if (!ctx || !A) return FL_FAIL(err, FL_EINVAL, "newton_sparse: %s missing", what);
    if (A->xtype != CHOLMOD_REAL || A->itype != CHOLMOD_INT)
        return FL_FAIL(err, FL_EINVAL, "newton_sparse: %s must be real with int indices", what);
    cholmod_sparse *C = cholmod_copy((cholmod_sparse *)A, 0, 1, &ctx->cm);
    if (!C) return FL_FAIL(err, FL_ENOMEM, "newton_sparse: cannot copy %s", what);
    if (!cholmod_sort(C, &ctx->cm)) {
        cholmod_free_sparse(&C, &ctx->cm);
        return FL_FAIL(err, FL_ENOMEM, "newton_sparse: cannot sort %s", what);
    }
    const int *Cp = C->p;
    const double *Cx = C->x;
    for (int k = 0; k < Cp[C->ncol]; k++)
        if (!isfinite(Cx[k])) {
            cholmod_free_sparse(&C, &ctx->cm);
            return FL_FAIL(err, FL_ENONFINITE, "newton_sparse: %s has a non-finite entry "
                           "(stored entry %d)", what, k);
        }
    *out = C;
    return FL_OK;
}

/* The Newton system of (N3) (n = 0: local, G = W) or (N4) (G = H):
 *   K = [ A         B     ]   n rows        A = M, B = -H^T (constant)
 *       [ rho D G   I - D ]   m rows
 * with z = (v, r); G's columns are z's first columns (local: r itself). */
typedef struct newton_system {
    int N, n, m, dim;
    size_t nc;
    const cholmod_sparse *G;
    int *Kp, *Ki;
    double *Kx, *Kx0;       /* values; Kx0: constant top rows, zeros below */
    int *posG;              /* per entry of G: index in Kx of its block's first row */
    int *posD;              /* per r unknown j: index in Kx of row n + dim a, column n + j */
    void *sym, *num;
} newton_system;

static void system_free(newton_system *S)
{
    free(S->Kp);
    free(S->Ki);
    free(S->Kx);
    free(S->Kx0);
    free(S->posG);
    free(S->posD);
    if (S->num) umfpack_di_free_numeric(&S->num);
    if (S->sym) umfpack_di_free_symbolic(&S->sym);
    memset(S, 0, sizeof *S);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Pattern of K, built once (A, B may be NULL when n = 0). */
static fl_status system_build(newton_system *S, int n, int m, int dim, const cholmod_sparse *A,
                              const cholmod_sparse *B, const cholmod_sparse *G, fl_error *err)
{
    memset(S, 0, sizeof *S);
    S->n = n;
    S->m = m;
    S->N = n + m;
    S->dim = dim;
    S->nc = (size_t)(m / dim);
    S->G = G;
    const int N = S->N, nc = m / dim;
    const int *Gp = G->p, *Gi = G->i;
    int *mark = malloc((size_t)nc * sizeof *mark), *blocks = malloc((size_t)nc * sizeof *blocks);
    S->Kp = malloc(((size_t)N + 1) * sizeof *S->Kp);
    S->posG = malloc(((size_t)Gp[G->ncol] + 1) * sizeof *S->posG);
    S->posD = malloc((size_t)m * sizeof *S->posD);
    if (!mark || !blocks || !S->Kp || !S->posG || !S->posD) goto nomem;
    for (int a = 0; a < nc; a++) mark[a] = -1;
    /* two passes: count (pass 0), then fill (pass 1) */
    for (int pass = 0; pass < 2; pass++) {
        size_t nz = 0;
        for (int j = 0; j < N; j++) {
            if (pass == 0) S->Kp[j] = (int)nz;
            else nz = (size_t)S->Kp[j];
            const cholmod_sparse *T = j < n ? A : B;     /* top part of column j */
            int tj = j < n ? j : j - n;
            if (T) {
                const int *Tp = T->p, *Ti = T->i;
                const double *Tx = T->x;
                for (int k = Tp[tj]; k < Tp[tj + 1]; k++, nz++)
                    if (pass) {
                        S->Ki[nz] = Ti[k];
                        S->Kx0[nz] = Tx[k];
                    }
            }
            int nb = 0;
            if ((size_t)j < G->ncol)
                for (int k = Gp[j]; k < Gp[j + 1]; k++) {
                    int a = Gi[k] / dim;
                    if (mark[a] != j) {
                        mark[a] = j;
                        blocks[nb++] = a;
                    }
                }
            if (j >= n) {
                int a = (j - n) / dim;
                if (mark[a] != j) {
                    mark[a] = j;
                    blocks[nb++] = a;
                }
            }
            qsort(blocks, (size_t)nb, sizeof *blocks, cmp_int);
            for (int b = 0; b < nb; b++) {
                int a = blocks[b];
                if (pass) {
                    /* positions: mark[a] now holds the index of the block's first row */
                    mark[a] = (int)nz;
                    for (int k = 0; k < dim; k++) {
                        S->Ki[nz + k] = n + dim * a + k;
                        S->Kx0[nz + k] = 0.0;
                    }
                }
                nz += dim;
            }
            if (pass) {
                if ((size_t)j < G->ncol)
                    for (int k = Gp[j]; k < Gp[j + 1]; k++) S->posG[k] = mark[Gi[k] / dim];
                if (j >= n) S->posD[j - n] = mark[(j - n) / dim];
                /* reset the marks of this column's blocks to an impossible column */
                for (int b = 0; b < nb; b++) mark[blocks[b]] = -1;
            }
        }
        if (pass == 0) {
            S->Kp[N] = (int)nz;
            S->Ki = malloc((nz + 1) * sizeof *S->Ki);
            S->Kx = malloc((nz + 1) * sizeof *S->Kx);
            S->Kx0 = malloc((nz + 1) * sizeof *S->Kx0);
            if (!S->Ki || !S->Kx || !S->Kx0) goto nomem;
            for (int a = 0; a < nc; a++) mark[a] = -1;
        }
    }
    free(mark);
    free(blocks);
    return FL_OK;
nomem:
    free(mark);
    free(blocks);
    system_free(S);
    return FL_FAIL(err, FL_ENOMEM, "newton_sparse: out of memory");
}

/* Numeric values of K at the current D (row-major dim x dim per contact). */
static void system_fill(newton_system *S, const double *Dall, const double *rho, double reg)
{
    const int dim = S->dim, n = S->n;
    memcpy(S->Kx, S->Kx0, (size_t)S->Kp[S->N] * sizeof *S->Kx);
    const int *Gp = S->G->p, *Gi = S->G->i;
    const double *Gx = S->G->x;
    for (size_t j = 0; j < S->G->ncol; j++)
        for (int k = Gp[j]; k < Gp[j + 1]; k++) {
            int a = Gi[k] / dim, l = Gi[k] % dim;
            const double *Da = Dall + 9 * a;
            double g = rho[a] * Gx[k];
            double *x = S->Kx + S->posG[k];
            for (int i = 0; i < dim; i++) x[i] += Da[i * dim + l] * g;
        }
    for (int j = 0; j < S->m; j++) {
        int a = j / dim, l = j % dim;
        const double *Da = Dall + 9 * a;
        double *x = S->Kx + S->posD[j];
        for (int i = 0; i < dim; i++) x[i] += (i == l ? 1.0 + reg : 0.0) - Da[i * dim + l];
    }
    (void)n;
}

/* Factor K (symbolic analysis on the first call only) and solve K x = b.
 * Returns 0 when K is singular or the solve fails (a failed step). */
static int system_solve(newton_system *S, const double *b, double *x, fl_status *s,
                        fl_error *err)
{
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    umfpack_di_defaults(control);
    if (!S->sym) {
        int rc = umfpack_di_symbolic(S->N, S->N, S->Kp, S->Ki, S->Kx, &S->sym, control, info);
        if (rc != UMFPACK_OK) {
            *s = FL_FAIL(err, rc == UMFPACK_ERROR_out_of_memory ? FL_ENOMEM : FL_EEXTERNAL,
                         "newton_sparse: UMFPACK symbolic analysis failed (status %d)", rc);
            return 0;
        }
    }
    if (S->num) umfpack_di_free_numeric(&S->num);
    int rc = umfpack_di_numeric(S->Kp, S->Ki, S->Kx, S->sym, &S->num, control, info);
    if (rc == UMFPACK_WARNING_singular_matrix) return 0;
    if (rc != UMFPACK_OK) {
        *s = FL_FAIL(err, rc == UMFPACK_ERROR_out_of_memory ? FL_ENOMEM : FL_EEXTERNAL,
                     "newton_sparse: UMFPACK numeric factorisation failed (status %d)", rc);
        return 0;
    }
    rc = umfpack_di_solve(UMFPACK_A, S->Kp, S->Ki, S->Kx, x, b, S->num, control, info);
    if (rc != UMFPACK_OK) return 0;
    for (int i = 0; i < S->N; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* The common Newton loop (newton.h): z = (v, r) with v empty on a local
 * problem; U = G z_G + c.  lp != NULL: local problem (Gauss–Seidel
 * fallback on lp); otherwise the failed step takes the smallest tried t. */
typedef struct loop_data {
    newton_system *S;
    const fl_local_problem *lp;
    const cholmod_sparse *A, *B;   /* global top rows (NULL on a local problem) */
    const double *f, *c;           /* f (global), c = q or w */
    const double *mu;
    double *rho, normq;
    double t0;                     /* the solve's start (time_limit) */
} loop_data;

static fl_status newton_loop(loop_data *L, const fl_newton_options *opt, double *z,
                             double *Uv, fl_newton_result *res, fl_error *err)
{
    newton_system *S = L->S;
    const int dim = S->dim, n = S->n, m = S->m, N = S->N;
    const size_t nc = S->nc;
    double *r = z + n;
    double *phi = malloc((size_t)m * sizeof *phi), *Dall = malloc(nc * 9 * sizeof *Dall);
    double *rhs = malloc((size_t)N * sizeof *rhs), *x = malloc((size_t)N * sizeof *x);
    double *zt = malloc((size_t)N * sizeof *zt), *Ut = malloc((size_t)m * sizeof *Ut);
    double *Gd = malloc((size_t)m * sizeof *Gd);
    double *zb = malloc((size_t)N * sizeof *zb), *Ub = malloc((size_t)m * sizeof *Ub);
    fl_status s = FL_OK;
    if (!phi || !Dall || !rhs || !x || !zt || !Ut || !Gd || !zb || !Ub) {
        s = FL_FAIL(err, FL_ENOMEM, "newton_sparse: out of memory");
        goto done;
    }
    /* U = G z_G + c */
    memcpy(Uv, L->c, (size_t)m * sizeof *Uv);
    csc_gaxpy(S->G, 1.0, z, Uv);
    double e = fl_residual_natural_map(dim, nc, L->mu, r, Uv, L->normq, opt->norm);
    int it = 0, fails_in_row = 0;
    fl_newton_stall stall = {e, 0};
    double nu = 1.0;   /* regularisation multiplier (N6) */
    double ebest = INFINITY;   /* the best iterate met (zb, Ub), for time_limit */
    while (s == FL_OK && !(e <= opt->tol) && it < opt->max_iterations) {
        if (e < ebest) {
            memcpy(zb, z, (size_t)N * sizeof *z);
            memcpy(Ub, Uv, (size_t)m * sizeof *Uv);
            ebest = e;
        }
        if (fl_newton_timed_out(opt, L->t0)) {
            s = FL_WTIMEOUT;
            break;
        }
        double psi = 0;
        for (size_t a = 0; a < nc; a++) {
            fl_local_contact_alart_curnier(dim, L->mu[a], L->rho[a], r + dim * a,
                                           Uv + dim * a, phi + dim * a, Dall + 9 * a);
            for (int k = 0; k < dim; k++) {
                psi += 0.5 * phi[dim * a + k] * phi[dim * a + k];
                rhs[n + dim * a + k] = -phi[dim * a + k];
            }
        }
        if (n > 0) {   /* -(M v - f - H^T r) = f - A v - B r */
            memcpy(rhs, L->f, (size_t)n * sizeof *rhs);
            csc_gaxpy(L->A, -1.0, z, rhs);
            csc_gaxpy(L->B, -1.0, r, rhs);
        }
        double lam = fl_newton_regularization(opt, nu, e);
        system_fill(S, Dall, L->rho, lam);
        int ok = system_solve(S, rhs, x, &s, err), stepped = ok;
        if (!ok && s == FL_OK) {   /* singular J (rank-deficient W): regularised retry */
            system_fill(S, Dall, L->rho, lam + 1e-10);
            ok = stepped = system_solve(S, rhs, x, &s, err);
            if (ok) res->regularized++;
        }
        if (s != FL_OK) break;
        double tmin = 1.0;
        if (ok) {
            memset(Gd, 0, (size_t)m * sizeof *Gd);
            csc_gaxpy(S->G, 1.0, x, Gd);
            ok = 0;
            double t = 1.0;
            for (int ls = 0; ls <= opt->ls_max; ls++, t *= 0.5) {
                for (int i = 0; i < N; i++) zt[i] = z[i] + t * x[i];
                for (int i = 0; i < m; i++) Ut[i] = Uv[i] + t * Gd[i];
                double pt = fl_newton_merit(dim, nc, L->mu, L->rho, zt + n, Ut, NULL);
                if (opt->ls_trial) opt->ls_trial(opt->ls_trial_data, t);
                tmin = t;
                if (pt <= (1.0 - 2.0 * opt->ls_sigma * t) * psi) {
                    ok = 1;
                    break;
                }
            }
        }
        nu = fl_newton_next_nu(nu, ok, tmin);
        it++;
        if (ok) {
            fails_in_row = 0;
            memcpy(z, zt, (size_t)N * sizeof *z);
            memcpy(Uv, Ut, (size_t)m * sizeof *Uv);
        } else {
            res->line_search_failures++;
            if (++fails_in_row > opt->max_fallbacks) {
                res->stop = FL_NEWTON_STOP_STALLED;
                break;
            }
            if (L->lp) {
                if (opt->gs_sweeps > 0) {
                    fl_nsgs_options go = fl_nsgs_options_default();
                    go.start = FL_NSGS_START_WARM;
                    go.max_sweeps = opt->gs_sweeps;
                    go.tol = opt->tol;
                    go.norm = opt->norm;
                    go.time_limit = fl_newton_time_left(opt, L->t0);
                    fl_nsgs_result gr;
                    gsl_vector_view rv = gsl_vector_view_array(r, (size_t)m);
                    fl_status gs = fl_nsgs_solve_sparse(L->lp, &go, &rv.vector, NULL, &gr, err);
                    res->gs_sweeps += gr.iterations;
                    if (gs < 0) {
                        s = gs;
                        break;
                    }
                }
                memcpy(Uv, L->c, (size_t)m * sizeof *Uv);
                csc_gaxpy(S->G, 1.0, z, Uv);
            } else {
                if (!stepped) {
                    res->stop = FL_NEWTON_STOP_STALLED;
                    break;
                }
                memcpy(z, zt, (size_t)N * sizeof *z);
                memcpy(Uv, Ut, (size_t)m * sizeof *Uv);
            }
        }
        e = fl_residual_natural_map(dim, nc, L->mu, r, Uv, L->normq, opt->norm);
        if (!isfinite(e))
            s = FL_FAIL(err, FL_ENOCONV, "newton_sparse: iterates became non-finite at step %d",
                        it);
        else if (fl_newton_stalled(opt, &stall, it, e)) {
            res->stop = FL_NEWTON_STOP_STALLED;
            break;
        }
    }
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best iterate met, its error */
        memcpy(z, zb, (size_t)N * sizeof *z);
        memcpy(Uv, Ub, (size_t)m * sizeof *Uv);
        e = ebest;
    }
    res->iterations = it;
    res->residual = e;
done:
    free(zb);
    free(Ub);
    free(phi);
    free(Dall);
    free(rhs);
    free(x);
    free(zt);
    free(Ut);
    free(Gd);
    return s;
}

static fl_status start_r(int dim, size_t nc, const double *mu, const fl_newton_options *opt,
                         double *r, fl_error *err)
{
    size_t m = (size_t)dim * nc;
    if (opt->start == FL_NEWTON_START_ZERO) {
        memset(r, 0, m * sizeof *r);
        return FL_OK;
    }
    for (size_t i = 0; i < m; i++)
        if (!isfinite(r[i]))
            return FL_FAIL(err, FL_ENONFINITE, "warm start r: entry %zu is not finite", i);
    for (size_t a = 0; a < nc; a++) fl_coulomb_cone_project(dim, mu[a], r + dim * a, r + dim * a);
    return FL_OK;
}

fl_status fl_newton_solve_sparse(const fl_local_problem *p, const fl_newton_options *opt,
                                 gsl_vector *r, gsl_vector *U, fl_newton_result *res,
                                 fl_error *err)
{
    double t0 = fl_clock_now();
    fl_newton_options dflt_opt = fl_newton_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_newton_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_NEWTON_STOP_ERROR;
    fl_status s = fl_local_problem_check(p, err);
    if (s == FL_OK) s = fl_newton_check_options(opt, err);
    if (s == FL_OK && (!p->Ws || p->Ws->xtype != CHOLMOD_REAL))
        s = FL_FAIL(err, FL_EINVAL, "newton_sparse: needs a real sparse W");
    if (s == FL_OK && (!r || r->size != p->m || r->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton: r must be a contiguous vector of length %zu", p->m);
    if (s == FL_OK && U && (U->size != p->m || U->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton: U must have length %zu", p->m);
    if (s == FL_OK) s = start_r(p->dim, p->nc, p->mu, opt, r->data, err);
    if (s != FL_OK) return res->status = s;
    const int dim = p->dim;
    const size_t m = p->m, nc = p->nc;
    cholmod_sparse *W = NULL;
    newton_system S;
    memset(&S, 0, sizeof S);
    double *rho = malloc(nc * sizeof *rho), *Uv = malloc(m * sizeof *Uv);
    if (!rho || !Uv) s = FL_FAIL(err, FL_ENOMEM, "newton_sparse: out of memory");
    if (s == FL_OK) s = plain_copy(p->ctx, p->Ws, "W", &W, err);
    if (s == FL_OK) s = system_build(&S, 0, (int)m, dim, NULL, NULL, W, err);
    if (s == FL_OK) {
        /* rho_a = dim / trace(W_aa) */
        const int *Wp = W->p, *Wi = W->i;
        const double *Wx = W->x;
        for (size_t a = 0; a < nc; a++) {
            double tr = 0;
            for (int k = 0; k < dim; k++) {
                size_t j = dim * a + k;
                for (int kk = Wp[j]; kk < Wp[j + 1]; kk++)
                    if ((size_t)Wi[kk] == j) tr += Wx[kk];
            }
            rho[a] = opt->rho > 0 ? opt->rho : tr > 0 && isfinite(tr) ? dim / tr : 1.0;
        }
        double nq = 0;
        for (size_t i = 0; i < m; i++) nq += gsl_vector_get(p->q, i) * gsl_vector_get(p->q, i);
        double *qc = malloc(m * sizeof *qc);
        if (!qc) {
            s = FL_FAIL(err, FL_ENOMEM, "newton_sparse: out of memory");
        } else {
            for (size_t i = 0; i < m; i++) qc[i] = gsl_vector_get(p->q, i);
            loop_data L = {&S, p, NULL, NULL, NULL, qc, p->mu, rho, sqrt(nq), t0};
            s = newton_loop(&L, opt, r->data, Uv, res, err);
            free(qc);
        }
    }
    fl_newton_finish(res, s, res->iterations, s >= 0 ? res->residual : NAN, t0, opt);
    if (U && res->status >= 0) memcpy(U->data, Uv, m * sizeof *Uv);
    system_free(&S);
    if (W) cholmod_free_sparse(&W, &p->ctx->cm);
    free(rho);
    free(Uv);
    return res->status;
}

fl_status fl_newton_global_solve_sparse(const fl_global_problem *g,
                                        const fl_newton_options *opt, gsl_vector *v,
                                        gsl_vector *r, gsl_vector *U, fl_newton_result *res,
                                        fl_error *err)
{
    double t0 = fl_clock_now();
    fl_newton_options dflt_opt = fl_newton_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_newton_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_NEWTON_STOP_ERROR;
    fl_status s = FL_OK;
    if (!g || !g->Ms || !g->Hs || !g->f || !g->w || !g->mu || !g->ctx)
        s = FL_FAIL(err, FL_EINVAL, "newton global: sparse M, H, f, w, mu and ctx are required");
    else if ((g->dim != 2 && g->dim != 3) || g->nc == 0 || g->m != (size_t)g->dim * g->nc)
        s = FL_FAIL(err, FL_EDIM, "newton global: dim = %d, nc = %zu, m = %zu inconsistent",
                    g->dim, g->nc, g->m);
    else if (g->Ms->nrow != g->n || g->Ms->ncol != g->n || g->Hs->nrow != g->m ||
             g->Hs->ncol != g->n || g->f->size != g->n || g->w->size != g->m)
        s = FL_FAIL(err, FL_EDIM, "newton global: M %zux%zu, H %zux%zu, f %zu, w %zu do not "
                    "match n = %zu, m = %zu", g->Ms->nrow, g->Ms->ncol, g->Hs->nrow,
                    g->Hs->ncol, g->f->size, g->w->size, g->n, g->m);
    else if (g->Ms->stype == 0)
        s = FL_FAIL(err, FL_EINVAL, "newton global: sparse M must have symmetric storage");
    if (s == FL_OK) s = fl_check_finite_vector(g->f, "f", err);
    if (s == FL_OK) s = fl_check_finite_vector(g->w, "w", err);
    for (size_t a = 0; s == FL_OK && a < g->nc; a++)
        if (!(g->mu[a] >= 0) || !isfinite(g->mu[a]))
            s = FL_FAIL(err, FL_EINVAL, "newton global: mu[%zu] = %g must be finite and >= 0",
                        a, g->mu[a]);
    if (s == FL_OK) s = fl_newton_check_options(opt, err);
    if (s == FL_OK && (!r || r->size != g->m || r->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton global: r must be a contiguous vector of length %zu",
                    g->m);
    if (s == FL_OK && U && (U->size != g->m || U->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton global: U must have length %zu", g->m);
    if (s == FL_OK && v && (v->size != g->n || v->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton global: v must have length %zu", g->n);
    if (s == FL_OK) s = start_r(g->dim, g->nc, g->mu, opt, r->data, err);
    if (s != FL_OK) return res->status = s;

    fl_sparse_ctx *ctx = g->ctx;
    const int dim = g->dim;
    const size_t n = g->n, m = g->m, nc = g->nc;
    cholmod_sparse *A = NULL, *H = NULL, *B = NULL;
    cholmod_factor *Lf = NULL;
    newton_system S;
    memset(&S, 0, sizeof S);
    double *rho = malloc(nc * sizeof *rho), *Uv = malloc(m * sizeof *Uv);
    double *z = malloc((n + m) * sizeof *z), *y = malloc(n * sizeof *y);
    double *q = malloc(m * sizeof *q);
    if (!rho || !Uv || !z || !y || !q) s = FL_FAIL(err, FL_ENOMEM, "newton_sparse: out of memory");
    if (s == FL_OK) s = plain_copy(ctx, g->Ms, "M", &A, err);
    if (s == FL_OK) s = plain_copy(ctx, g->Hs, "H", &H, err);
    if (s == FL_OK) {
        B = cholmod_transpose(H, 1, &ctx->cm);   /* B = -H^T */
        if (!B) s = FL_FAIL(err, FL_ENOMEM, "newton_sparse: cannot transpose H");
        else
            for (int k = 0; k < ((int *)B->p)[B->ncol]; k++) ((double *)B->x)[k] *= -1.0;
    }
    if (s == FL_OK) s = fl_sparse_factor(ctx, g->Ms, &Lf, err);   /* FL_ENOTSPD if not SPD */
    /* q = H M^-1 f + w;  v = M^-1 (f + H^T r) */
    if (s == FL_OK) s = fl_sparse_solve(ctx, Lf, g->f->data, y, err);
    if (s == FL_OK) {
        for (size_t i = 0; i < m; i++) q[i] = gsl_vector_get(g->w, i);
        csc_gaxpy(H, 1.0, y, q);
        memcpy(y, g->f->data, n * sizeof *y);
        csc_gaxpy(B, -1.0, r->data, y);
        s = fl_sparse_solve(ctx, Lf, y, z, err);
    }
    if (s == FL_OK) {
        memcpy(z + n, r->data, m * sizeof *z);
        /* rho_a = dim / trace(H_a diag(M)^-1 H_a^T) */
        const int *Ap = A->p, *Ai = A->i, *Hp = H->p, *Hi = H->i;
        const double *Ax = A->x, *Hx = H->x;
        for (size_t a = 0; a < nc; a++) rho[a] = 0.0;
        for (size_t j = 0; j < n; j++) {
            double mjj = 0;
            for (int k = Ap[j]; k < Ap[j + 1]; k++)
                if ((size_t)Ai[k] == j) mjj = Ax[k];
            for (int k = Hp[j]; k < Hp[j + 1]; k++)
                rho[Hi[k] / dim] += mjj > 0 ? Hx[k] * Hx[k] / mjj : 0.0;
        }
        for (size_t a = 0; a < nc; a++)
            rho[a] = opt->rho > 0 ? opt->rho : rho[a] > 0 && isfinite(rho[a]) ? dim / rho[a] : 1.0;
        s = system_build(&S, (int)n, (int)m, dim, A, B, H, err);
    }
    if (s == FL_OK) {
        double nq = 0;
        for (size_t i = 0; i < m; i++) nq += q[i] * q[i];
        loop_data L = {&S, NULL, A, B, g->f->data, g->w->data, g->mu, rho, sqrt(nq), t0};
        s = newton_loop(&L, opt, z, Uv, res, err);
    }
    fl_newton_finish(res, s, res->iterations, s >= 0 ? res->residual : NAN, t0, opt);
    if (res->status >= 0) {
        memcpy(r->data, z + n, m * sizeof *z);
        if (v) memcpy(v->data, z, n * sizeof *z);
        if (U) memcpy(U->data, Uv, m * sizeof *Uv);
    }
    system_free(&S);
    if (A) cholmod_free_sparse(&A, &ctx->cm);
    if (H) cholmod_free_sparse(&H, &ctx->cm);
    if (B) cholmod_free_sparse(&B, &ctx->cm);
    fl_sparse_free_factor(ctx, &Lf);
    free(rho);
    free(Uv);
    free(z);
    free(y);
    free(q);
    return res->status;
}
