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
 * Local solver: fl_local_contact_solve_fast (reference/local_contact.h).
 * dim 3: with the inverses W_aa^-1 of the diagonal blocks computed once per
 * solve (fl_local_contact_invert3), open and stick first, the valid one
 * nearer the current r as in the reference's enumeration; else a verified
 * semismooth Newton slide (Alart & Curnier 1991 §3), else the reference's
 * exact enumeration fl_local_contact_solve, the certified fallback.  dim 2:
 * the reference's closed-form cases, the valid one nearest r; where the
 * contact's problem has exactly one solution (proofs/local_contact.md §6)
 * only that case, by the inline fl_local_contact_solve_unique2.
 *
 * Stopping rule (per sweep).  Cheap test, O(m): the sweep's change
 *   ||r_new - r_old||_2 <= tol * max(||r_new||_2, ||q||_2 / max_i W_ii)
 * (the second term, the problem's impulse scale, for r near 0).  The full natural-map error of core/fl_residual.h
 * (opt->norm, one product W r, O(nnz)) is computed only when the cheap test
 * passes, or after the first sweep (from a zero start the cheap test cannot
 * pass there, as r_new - r_old = r_new: a problem one sweep solves, e.g. a
 * contact-free one, would otherwise sweep check_every times), or every
 * opt->sparse.check_every-th sweep (default 10; 1 restores the
 * reference's rule of stopping at the first sweep below tol, which the
 * solution-set explorations of drivers/plurality_explore.c use so that both twins
 * sample the same set), or at the last allowed sweep, or at every sweep
 * when opt->callback is set (unless opt->callback_at_checks: then the
 * callback is called at these checks only); the iteration stops when that
 * full error is <= tol.  So a returned FL_OK always carries a full error <= tol.
 */
#include "optimized/nsgs_sparse.h"
#include "reference/nsgs_internal.h"
#include "optimized/nsgs_colored.h"
#include "fl_clock.h"
#include "reference/local_contact.h"

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

/* The dim x dim diagonal blocks of W into Wd (nc dd) from the rows of W
 * (columns of W^T, view v), then fl_nsgs_block_verdict per contact (the
 * reference's fl_nsgs_check_blocks, same order, same verdicts). */
static fl_status blocks_extract_check(const csc_view *v, const fl_local_problem *p, double *Wd,
                                      fl_error *err)
{
    const int dim = p->dim, dd = dim * dim;
    memset(Wd, 0, p->nc * (size_t)dd * sizeof *Wd);
    for (size_t a = 0; a < p->nc; a++) {
        int zero = 1;
        for (int i = 0; i < dim; i++) {
            size_t col = dim * a + i;
            for (size_t k = col_start(v, col); k < col_end(v, col); k++) {
                size_t row = row_of(v, k);
                if (i == 0 && v->x[k] != 0) zero = 0;
                /* W_aa[i][l] = W(dim a + i, dim a + l) = W^T(dim a + l, dim a + i) */
                if (row >= dim * a && row < dim * (a + 1))
                    Wd[a * dd + i * dim + (row - dim * a)] += v->x[k];
            }
        }
        FL_TRY(fl_nsgs_block_verdict(dim, a, Wd + a * dd, zero,
                                     gsl_vector_get(p->q, dim * a), err));
    }
    return FL_OK;
}

fl_status fl_nsgs_check_blocks_sparse(const fl_local_problem *p, fl_error *err)
{
    FL_TRY(fl_local_problem_check(p, err));
    if (!p->Ws || p->Ws->xtype != CHOLMOD_REAL)
        return FL_FAIL(err, FL_EINVAL, "nsgs_sparse: needs a real sparse W");
    cholmod_sparse *Wt = cholmod_transpose(p->Ws, 1, &p->ctx->cm);
    double *Wd = malloc((p->nc ? p->nc : 1) * (size_t)(p->dim * p->dim) * sizeof *Wd);
    fl_status s = FL_OK;
    if (!Wt || !Wd) {
        s = FL_FAIL(err, FL_ENOMEM, "nsgs_sparse: out of memory");
    } else {
        csc_view v = {Wt->p, Wt->i, Wt->nz, Wt->x, Wt->itype == CHOLMOD_LONG, Wt->packed};
        s = blocks_extract_check(&v, p, Wd, err);
    }
    if (Wt) cholmod_free_sparse(&Wt, &p->ctx->cm);
    free(Wd);
    return s;
}

/* One contact's visit of the sweep (003 §3): b, the local solve, the
 * relaxation, the sums of the stopping test. */
static inline void visit(const int dim, const csc_view *v, const fl_local_problem *p,
                         const fl_nsgs_options *opt, const double *q, size_t qs,
                         const double *Wd, const double *Wi, const unsigned char *has_inv,
                         size_t a, double *rr, double *dr2, double *r2, fl_nsgs_result *res)
{
    const int dd = dim * dim;
    double b[3], rl[3], old[3];
    double *ra = rr + dim * a;
    const double *Waa = Wd + a * dd;
    for (int i = 0; i < dim; i++) {
        size_t col = dim * a + i;
        double acc = q[col * qs] + row_dot(v, col, rr);
        for (int l = 0; l < dim; l++) acc -= Waa[i * dim + l] * ra[l];
        b[i] = acc;
    }
    for (int l = 0; l < dim; l++) rl[l] = old[l] = ra[l];
    /* dim 2: the fast solve's inline form (its early exit inlined here) */
    int nfound = dim == 2 ? fl_local_contact_solve_fast2(p->mu[a], Waa, b, rl)
                          : fl_local_contact_solve_fast(dim, p->mu[a], Waa, Wi + a * dd,
                                                        has_inv[a], b, rl);
    if (nfound == 0) res->local_fallbacks++;
    if (opt->omega == 1.0) {   /* no relaxation: the local answer */
        for (int l = 0; l < dim; l++) ra[l] = rl[l];
    } else {
        fl_nsgs_relax(dim, p->mu[a], opt->omega, rl, ra);
    }
    for (int l = 0; l < dim; l++) {
        *dr2 += (ra[l] - old[l]) * (ra[l] - old[l]);
        *r2 += ra[l] * ra[l];
    }
}

/* 003 §3 (nonlinear Gauss–Seidel) on sparse W; see the header for the
 * local solver and the stopping rule. */
fl_status fl_nsgs_solve_sparse(const fl_local_problem *p, const fl_nsgs_options *opt,
                               gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                               fl_error *err)
{
    double t0 = fl_clock_now();
    fl_nsgs_options dflt_opt = fl_nsgs_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
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
    /* coloured sweep, cached layout, or 2D (the 2x2 block sweep is faster) */
    if (opt->sparse.threads != 0 || opt->sparse.cache
        || (p->dim == 2 && !opt->sparse.csc && fl_nsgs_colored_fits(p)))
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
    double *rbest = opt->time_limit > 0 ? malloc(m * sizeof *rbest) : NULL;
    if (!Wt || !perm || !Wd || !Wi || !has_inv || !Ut || (opt->time_limit > 0 && !rbest)) {
        free(rbest);
        if (Wt) cholmod_free_sparse(&Wt, &p->ctx->cm);
        free(perm);
        free(Wd);
        free(Wi);
        free(has_inv);
        if (Ut) gsl_vector_free(Ut);
        return res->status = FL_FAIL(err, FL_ENOMEM, "nsgs_sparse: out of memory");
    }
    csc_view v = {Wt->p, Wt->i, Wt->nz, Wt->x, Wt->itype == CHOLMOD_LONG, Wt->packed};
    fl_status s = fl_nsgs_prepare(p, opt, r, perm, err);
    if (s == FL_OK) s = blocks_extract_check(&v, p, Wd, err);
    for (size_t a = 0; a < nc && s == FL_OK; a++)
        has_inv[a] = dim == 3 && fl_local_contact_invert3(Wd + a * dd, Wi + a * dd);
    double ebest = INFINITY;
    double e = INFINITY, normq = gsl_blas_dnrm2(p->q), wmax = 0;
    for (size_t a = 0; a < nc && s == FL_OK; a++)
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
            if (dim == 2)   /* dim a constant: the loops over it unrolled */
                visit(2, &v, p, opt, q, qs, Wd, Wi, has_inv, perm[k], rr, &dr2, &r2, res);
            else
                visit(dim, &v, p, opt, q, qs, Wd, Wi, has_inv, perm[k], rr, &dr2, &r2, res);
        }
        res->sweep_seconds += fl_clock_now() - ts;
        sweep++;
        int timeout = fl_nsgs_timed_out(opt, t0);
        int full = (opt->callback && !opt->callback_at_checks) ||
                   dr2 <= opt->tol * opt->tol * fmax(r2, rscale2) ||
                   sweep == 1 || sweep % opt->sparse.check_every == 0 ||
                   sweep == opt->max_sweeps || !isfinite(dr2) || timeout;
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
        if (rbest && e < ebest) {
            memcpy(rbest, rr, m * sizeof *rbest);
            ebest = e;
        }
        int stop = e <= opt->tol;
        if (opt->callback && opt->callback(opt->callback_data, sweep, e, r)) stop = 1;
        if (stop) break;
        if (timeout) {
            s = FL_WTIMEOUT;
            break;
        }
    }
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best checked iterate, its error */
        memcpy(rr, rbest, m * sizeof *rbest);
        gsl_vector_memcpy(Ut, p->q);
        s = fl_sparse_mv(p->ctx, p->Ws, 0, 1.0, rr, 1.0, Ut->data, err);
        e = fl_residual_natural_map(dim, nc, p->mu, rr, Ut->data, normq, opt->norm);
        if (s == FL_OK) s = FL_WTIMEOUT;
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
    free(rbest);
    gsl_vector_free(Ut);
    return s;
}
