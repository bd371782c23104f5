/* nsgs_sparse.c — nonlinear Gauss–Seidel (003 §3–5) over a
 * sparse Delassus operator: the sparse twin of reference/nsgs.c, same
 * signature and options.  The twins share the law, not the iterates (the
 * local solver and the stopping test below differ from the reference's).
 *
 * Rows of W.  b_a = q_a + sum_{beta != a} W_{a beta} r_beta needs the rows
 * of contact a: W (CSC, full storage, possibly nonsymmetric) is transposed
 * once per solve, and the dim columns of W^T for contact a are read per
 * visit: one sweep touches each stored entry of W once, O(nnz) per sweep.
 * The dim x dim diagonal blocks are extracted once per solve.
 *
 * Local solver, dim 3 (fast path).  Per contact: open (r = 0, valid iff
 * b_N >= 0) and stick (r = -W_aa^-1 b, W_aa^-1 computed once per solve,
 * valid iff r in K_mu) are tested first, the nearer valid one to the
 * current r being taken, as in the reference's enumeration.  When neither
 * holds the contact slides: a few semismooth Newton steps on the local
 * Alart–Curnier equation (Alart & Curnier 1991 §3; reference/newton.h (N1)
 * – (N3) with W = W_aa, U = W_aa r + b) from the current r, accepted when
 * the local natural-map error |F_a(r, U)| <= 1e-10 (|r| + |U|) and r is on
 * the cone's boundary with U_N = 0 within 1e3 times that tolerance.  Otherwise the
 * exact enumeration of reference/nsgs.c (fl_nsgs_local_solve) is the
 * certified fallback.  dim 2: the reference's closed-form cases.
 *
 * Stopping rule (per sweep).  Cheap test, O(m): the sweep's change
 *   ||r_new - r_old||_2 <= tol * max(||r_new||_2, ||q||_2 / max_i W_ii)
 * (the second term, the problem's impulse scale, for r near 0).  The full natural-map error of core/fl_residual.h
 * (opt->norm, one product W r, O(nnz)) is computed only when the cheap test
 * passes, or every opt->check_every-th sweep (default 10; 1 restores the
 * reference's rule of stopping at the first sweep below tol, which the
 * solution-set explorations of drivers/plurality_explore.c use so that both twins
 * sample the same set), or at the last allowed sweep, or at every sweep
 * when opt->callback is set; the iteration stops when that full error
 * is <= tol.  So a returned FL_OK always carries a full error <= tol.
 */
#include "optimized/nsgs_sparse.h"
#include "optimized/nsgs_colored.h"
#include "fl_clock.h"
#include "reference/newton.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_blas.h>

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

/* sum_k W^T_{k,col} r_k over column col, in four partial sums added as
 * ((s0 + s1) + (s2 + s3)) with the tail in s0: four independent chains of
 * additions instead of one (a sweep is then limited by memory, not by the
 * latency of one add per stored entry).  optimized/nsgs_colored.c sums alike. */
#define FL_ROW_DOT(IT)                                                                    \
    do {                                                                                  \
        const IT *ri = v->i;                                                              \
        for (; k + 4 <= e; k += 4) {                                                      \
            s0 += v->x[k] * r[ri[k]];                                                     \
            s1 += v->x[k + 1] * r[ri[k + 1]];                                             \
            s2 += v->x[k + 2] * r[ri[k + 2]];                                             \
            s3 += v->x[k + 3] * r[ri[k + 3]];                                             \
        }                                                                                 \
        for (; k < e; k++) s0 += v->x[k] * r[ri[k]];                                      \
    } while (0)

static inline double row_dot(const csc_view *v, size_t col, const double *r)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t k = col_start(v, col), e = col_end(v, col);
    if (v->is_long) FL_ROW_DOT(SuiteSparse_long);
    else FL_ROW_DOT(int);
    return (s0 + s1) + (s2 + s3);
}
#undef FL_ROW_DOT

/* Inverse of a 3 x 3 row-major matrix by cofactors; 0 if (nearly) singular. */
static int inv3(const double *A, double *X)
{
    double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8],
           c2 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c0 + A[1] * c1 + A[2] * c2, big = 0;
    for (int k = 0; k < 9; k++) big = fmax(big, fabs(A[k]));
    if (!(big > 0) || !(fabs(det) > 1e-14 * big * big * big)) return 0;
    double id = 1.0 / det;
    X[0] = c0 * id;
    X[1] = (A[2] * A[7] - A[1] * A[8]) * id;
    X[2] = (A[1] * A[5] - A[2] * A[4]) * id;
    X[3] = c1 * id;
    X[4] = (A[0] * A[8] - A[2] * A[6]) * id;
    X[5] = (A[2] * A[3] - A[0] * A[5]) * id;
    X[6] = c2 * id;
    X[7] = (A[1] * A[6] - A[0] * A[7]) * id;
    X[8] = (A[0] * A[4] - A[1] * A[3]) * id;
    return 1;
}

static void mv3(const double *A, const double *x, const double *b, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2] + b[i];
}

/* Sliding contact, dim 3: semismooth Newton on the local Alart–Curnier
 * equation (newton.h (N1)-(N3) with W = Waa), damped by halving on the
 * merit |Phi|^2.  Returns 1 and r when the local natural-map error and the
 * sliding conditions hold to 1e-10 (see the header), else 0, r untouched. */
static int slide3_newton(double mu, const double *W, const double *b, double *r)
{
    double rho = 3.0 / (W[0] + W[4] + W[8]);
    if (!(rho > 0) || !isfinite(rho)) return 0;
    double x[3] = {r[0], r[1], r[2]}, U[3], phi[3], D[9];
    if (!(x[0] > 0)) {   /* start on the sliding side of the cone */
        x[0] = fmax(-b[0] / W[0], 0.0);
        x[1] = x[2] = 0.0;
    }
    mv3(W, x, b, U);
    fl_newton_ac_contact(3, mu, rho, x, U, phi, D);
    double psi = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2];
    for (int it = 0; it < 30; it++) {
        double J[9], Ji[9], d[3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double acc = 0;
                for (int l = 0; l < 3; l++) acc += D[3 * i + l] * W[3 * l + j];
                J[3 * i + j] = (i == j ? 1.0 : 0.0) - D[3 * i + j] + rho * acc;
            }
        if (!inv3(J, Ji)) return 0;
        for (int i = 0; i < 3; i++) d[i] = -(Ji[3 * i] * phi[0] + Ji[3 * i + 1] * phi[1] + Ji[3 * i + 2] * phi[2]);
        double t = 1.0, xt[3], Ut[3], pt[3], Dt[9], psit = INFINITY;
        for (int ls = 0; ls < 20; ls++, t *= 0.5) {
            for (int k = 0; k < 3; k++) xt[k] = x[k] + t * d[k];
            mv3(W, xt, b, Ut);
            fl_newton_ac_contact(3, mu, rho, xt, Ut, pt, Dt);
            psit = pt[0] * pt[0] + pt[1] * pt[1] + pt[2] * pt[2];
            if (psit <= (1.0 - 1e-4 * t) * psi) break;
        }
        if (!(psit < psi)) break;
        memcpy(x, xt, sizeof x);
        memcpy(U, Ut, sizeof U);
        memcpy(phi, pt, sizeof phi);
        memcpy(D, Dt, sizeof D);
        psi = psit;
        double sc = 1e-10 * (fabs(x[0]) + hypot(x[1], x[2]) + fabs(U[0]) + hypot(U[1], U[2]));
        if (fl_residual_contact_sq(3, mu, x, U) <= sc * sc) {
            /* sliding: U_N = 0, |r_T| = mu r_N, r_N > 0 (else open/stick were exact) */
            double nt = hypot(x[1], x[2]);
            if (x[0] > 0 && fabs(U[0]) <= sc * 1e3 && fabs(nt - mu * x[0]) <= sc * 1e3) {
                fl_coulomb_cone_project(3, mu, x, r);
                return 1;
            }
            return 0;
        }
    }
    return 0;
}

/* The sparse twin's single-contact solve (header): 1 if an exact case or a
 * verified Newton slide was found, else the enumeration's return value. */
static int local3_fast(double mu, const double *Waa, const double *Winv, int has_inv,
                       const double *b, double *r)
{
    double cand[2][3];
    int n = 0;
    if (b[0] >= 0) {
        cand[n][0] = cand[n][1] = cand[n][2] = 0.0;
        n++;
    }
    if (has_inv) {
        double x[3], z[3] = {0, 0, 0}, nb[3] = {-b[0], -b[1], -b[2]};
        mv3(Winv, nb, z, x);
        double nt = hypot(x[1], x[2]), slack = 1e-12 * (fabs(x[0]) + nt);
        if (x[0] >= -slack && nt <= mu * x[0] + slack) {
            memcpy(cand[n], x, sizeof x);
            n++;
        }
    }
    if (n > 0) {
        int best = 0;
        if (n == 2) {
            double d0 = 0, d1 = 0;
            for (int k = 0; k < 3; k++) {
                d0 += (cand[0][k] - r[k]) * (cand[0][k] - r[k]);
                d1 += (cand[1][k] - r[k]) * (cand[1][k] - r[k]);
            }
            best = d1 < d0;
        }
        fl_coulomb_cone_project(3, mu, cand[best], r);
        return n;
    }
    if (b[0] < 0 && slide3_newton(mu, Waa, b, r)) return 1;
    return fl_nsgs_local_solve(3, mu, Waa, b, r);
}

/* 003 §3 (nonlinear Gauss–Seidel) on sparse W; see the header for the
 * local solver and the stopping rule. */
fl_status fl_nsgs_solve_sparse(const fl_local_problem *p, const fl_nsgs_options *opt,
                               gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                               fl_error *err)
{
    double t0 = fl_clock_now();
    fl_nsgs_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->status = fl_local_problem_check(p, err);
    if (res->status < 0) return res->status;
    if (p->m == 0) {   /* no contact: a valid problem, r is empty (fl_problem.h) */
        res->status = FL_OK;
        return FL_OK;
    }
    if (!p->Ws || p->Ws->xtype != CHOLMOD_REAL)
        return res->status = FL_FAIL(err, FL_EINVAL, "nsgs_sparse: needs a real sparse W");
    if (U && (U->size != p->m || U->stride != 1))
        return res->status = FL_FAIL(err, FL_EDIM, "nsgs_sparse: U must have length %zu", p->m);
    if (opt && opt->threads != 0)   /* the graph-coloured parallel sweep */
        return fl_nsgs_colored_solve(p, opt, r, U, res, err);
    const int dim = p->dim, dd = dim * dim;
    const size_t m = p->m, nc = p->nc;
    /* rows of W = columns of W^T (transposed once; W may be nonsymmetric) */
    cholmod_sparse *Wt = cholmod_transpose(p->Ws, 1, &p->ctx->cm);
    size_t *perm = malloc(nc * sizeof *perm);
    double *Wd = malloc(nc * (size_t)dd * sizeof *Wd);     /* diagonal blocks */
    double *Wi = malloc(nc * (size_t)dd * sizeof *Wi);     /* their inverses (dim 3) */
    unsigned char *has_inv = malloc(nc);
    gsl_vector *Ut = gsl_vector_alloc(m);
    if (!Wt || !perm || !Wd || !Wi || !has_inv || !Ut) {
        if (Wt) cholmod_free_sparse(&Wt, &p->ctx->cm);
        free(perm);
        free(Wd);
        free(Wi);
        free(has_inv);
        if (Ut) gsl_vector_free(Ut);
        return res->status = FL_FAIL(err, FL_ENOMEM, "nsgs_sparse: out of memory");
    }
    csc_view v = {Wt->p, Wt->i, Wt->nz, Wt->x, Wt->itype == CHOLMOD_LONG, Wt->packed};
    /* W_aa[i][l] = W(dim a + i, dim a + l) = W^T(dim a + l, dim a + i) */
    memset(Wd, 0, nc * (size_t)dd * sizeof *Wd);
    for (size_t a = 0; a < nc; a++) {
        for (int i = 0; i < dim; i++) {
            size_t col = dim * a + i;
            for (size_t k = col_start(&v, col); k < col_end(&v, col); k++) {
                size_t row = row_of(&v, k);
                if (row >= dim * a && row < dim * (a + 1))
                    Wd[a * dd + i * dim + (row - dim * a)] += v.x[k];
            }
        }
        has_inv[a] = dim == 3 && inv3(Wd + a * dd, Wi + a * dd);
    }
    fl_status s = fl_nsgs_prepare(p, opt, r, perm, err);
    double e = INFINITY, normq = gsl_blas_dnrm2(p->q), wmax = 0;
    for (size_t a = 0; a < nc; a++)
        for (int i = 0; i < dim; i++) wmax = fmax(wmax, fabs(Wd[a * dd + i * dim + i]));
    /* impulse scale of the problem (proofs/README.md, random systems: problem scales): |q| / max W_ii */
    const double rscale2 = wmax > 0 ? (normq / wmax) * (normq / wmax) : 0.0;
    int sweep = 0;
    double *rr = s == FL_OK ? r->data : NULL;   /* r may be NULL when prepare refused it */
    const double *q = p->q->data;
    const size_t qs = p->q->stride;
    while (s == FL_OK && sweep < opt->max_sweeps) {
        double ts = fl_clock_now(), dr2 = 0, r2 = 0;
        for (size_t k = 0; k < nc; k++) {
            size_t a = perm[k];
            double b[3], rl[3], old[3];
            double *ra = rr + dim * a;
            const double *Waa = Wd + a * dd;
            for (int i = 0; i < dim; i++) {
                size_t col = dim * a + i;
                double acc = q[col * qs] + row_dot(&v, col, rr);
                for (int l = 0; l < dim; l++) acc -= Waa[i * dim + l] * ra[l];
                b[i] = acc;
            }
            for (int l = 0; l < dim; l++) rl[l] = old[l] = ra[l];
            int nfound = dim == 3 ? local3_fast(p->mu[a], Waa, Wi + a * dd, has_inv[a], b, rl)
                                  : fl_nsgs_local_solve(dim, p->mu[a], Waa, b, rl);
            if (nfound == 0) res->local_fallbacks++;
            fl_nsgs_relax(dim, p->mu[a], opt->omega, rl, ra);
            for (int l = 0; l < dim; l++) {
                dr2 += (ra[l] - old[l]) * (ra[l] - old[l]);
                r2 += ra[l] * ra[l];
            }
        }
        res->sweep_seconds += fl_clock_now() - ts;
        sweep++;
        int full = opt->callback || dr2 <= opt->tol * opt->tol * fmax(r2, rscale2) ||
                   sweep % opt->check_every == 0 ||
                   sweep == opt->max_sweeps || !isfinite(dr2);
        if (!full) continue;
        gsl_vector_memcpy(Ut, p->q);
        s = fl_sparse_mv(p->ctx, p->Ws, 0, 1.0, rr, 1.0, Ut->data, err);
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
    res->seconds = fl_clock_now() - t0;
    cholmod_free_sparse(&Wt, &p->ctx->cm);
    free(perm);
    free(Wd);
    free(Wi);
    free(has_inv);
    gsl_vector_free(Ut);
    return s;
}

/* The single-contact solve of the sweep above, for optimized/nsgs_colored.c
 * (the same function, so that its iterates are this sweep's bit for bit). */
int fl_nsgs_local_solve_sparse(int dim, double mu, const double *Waa, const double *Winv,
                               int has_inv, const double *b, double *r)
{
    return dim == 3 ? local3_fast(mu, Waa, Winv, has_inv, b, r)
                    : fl_nsgs_local_solve(dim, mu, Waa, b, r);
}

int fl_nsgs_block_inverse_sparse(const double *A, double *X)
{
    return inv3(A, X);
}
