/* nsgs_colored.c — graph-coloured nonlinear Gauss–Seidel (003 §3) on
 * every core; see nsgs_colored.h and proofs/parallel_sweep.md.
 *
 * Layout.  The rows of W (columns of W^T, as in nsgs_sparse.c) are copied
 * once per solve in the coloured order, with 32-bit row indices renumbered
 * to that order, and q, mu, r, the diagonal blocks and their inverses are
 * permuted alike: a sweep streams its data once, front to back, and the
 * impulses it reads lie in the few colour blocks that progress together.
 * The entries of each row keep their order and the arithmetic of
 * nsgs_sparse.c's sweep (b = q_a + sum_k W_ak r_k - W_aa r_a, then
 * fl_local_contact_solve_fast and fl_nsgs_relax), hence the same iterates.
 *
 * Parallel sweep.  One OpenMP team per sweep; colour by colour, the
 * colour's units (or, single-contact colouring, runs of BLK contacts) are
 * shared out by `omp for` (implicit barrier at the end of a colour); a unit
 * keeps the review order's locality (the discs' canonical order follows
 * space), so a thread streams its units as the serial sweep does.  Each block writes
 * its sums |r_new - r_old|^2, |r_new|^2 and its count of local fallbacks
 * into its own slot; the slots are added in block order after the sweep, so
 * the stopping test is the same for every thread count.  The full
 * natural-map error (every check_every sweeps, as nsgs_sparse.c) computes
 * U = W r + q row by row in parallel.
 */
#include "optimized/nsgs_colored.h"
#include "optimized/nsgs_sparse.h"
#include "reference/local_contact.h"
#include "reference/nsgs_internal.h"
#include "fl_clock.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BLK = 512, MIN_PER_THREAD = 8192 };

int fl_nsgs_colored_threads(int opt_threads, size_t nc)
{
#ifdef _OPENMP
    if (opt_threads > 0) return opt_threads;
    size_t useful = nc / MIN_PER_THREAD;   /* a barrier per colour must be worth it */
    int t = omp_get_max_threads();
    return useful < 1 ? 1 : useful < (size_t)t ? (int)useful : t;
#else
    (void)opt_threads;
    (void)nc;
    return 1;
#endif
}

/* entries [*b, *e) of column j of a CHOLMOD CSC matrix, and row k */
static void col_range(const cholmod_sparse *A, size_t j, size_t *b, size_t *e)
{
    if (A->itype == CHOLMOD_LONG) {
        const SuiteSparse_long *p = A->p;
        *b = (size_t)p[j];
        *e = A->packed ? (size_t)p[j + 1] : *b + (size_t)((const SuiteSparse_long *)A->nz)[j];
    } else {
        const int *p = A->p;
        *b = (size_t)p[j];
        *e = A->packed ? (size_t)p[j + 1] : *b + (size_t)((const int *)A->nz)[j];
    }
}

static size_t row_at(const cholmod_sparse *A, size_t k)
{
    return A->itype == CHOLMOD_LONG ? (size_t)((const SuiteSparse_long *)A->i)[k]
                                    : (size_t)((const int *)A->i)[k];
}

/* W^T of a real CSC matrix into T (a header over malloc'ed long index
 * arrays and values): counts per row, then the columns of A scattered in
 * increasing order, so each column of T lists its entries by increasing row,
 * as cholmod_transpose does.  0 when out of memory. */
static int transpose_into(const cholmod_sparse *A, cholmod_sparse *T)
{
    const size_t nr = A->nrow, nc = A->ncol;
    size_t b, e, nnz = 0;
    for (size_t j = 0; j < nc; j++) {
        col_range(A, j, &b, &e);
        nnz += e - b;
    }
    SuiteSparse_long *tp = calloc(nr + 1, sizeof *tp), *ti = malloc((nnz ? nnz : 1) * sizeof *ti);
    double *tx = malloc((nnz ? nnz : 1) * sizeof *tx);
    size_t *fill = malloc((nr ? nr : 1) * sizeof *fill);
    if (!tp || !ti || !tx || !fill) {
        free(tp);
        free(ti);
        free(tx);
        free(fill);
        return 0;
    }
    const double *ax = A->x;
    for (size_t j = 0; j < nc; j++) {
        col_range(A, j, &b, &e);
        for (size_t k = b; k < e; k++) tp[row_at(A, k) + 1]++;
    }
    for (size_t i = 0; i < nr; i++) {
        tp[i + 1] += tp[i];
        fill[i] = (size_t)tp[i];
    }
    for (size_t j = 0; j < nc; j++) {
        col_range(A, j, &b, &e);
        for (size_t k = b; k < e; k++) {
            size_t t = fill[row_at(A, k)]++;
            ti[t] = (SuiteSparse_long)j;
            tx[t] = ax[k];
        }
    }
    free(fill);
    memset(T, 0, sizeof *T);
    T->nrow = nc;
    T->ncol = nr;
    T->nzmax = nnz;
    T->p = tp;
    T->i = ti;
    T->x = tx;
    T->stype = 0;
    T->itype = CHOLMOD_LONG;
    T->xtype = CHOLMOD_REAL;
    T->dtype = CHOLMOD_DOUBLE;
    T->sorted = 1;
    T->packed = 1;
    return 1;
}

static void transpose_free(cholmod_sparse *T)
{
    free(T->p);
    free(T->i);
    free(T->x);
    memset(T, 0, sizeof *T);
}

/* Mark the colours of the coloured units met in the dim columns of contact a of A. */
static void mark_neighbours(const cholmod_sparse *A, int dim, size_t a, const size_t *unit,
                            const size_t *ucolor, size_t *mark, size_t stamp)
{
    for (int i = 0; i < dim; i++) {
        size_t b, e;
        col_range(A, (size_t)dim * a + (size_t)i, &b, &e);
        for (size_t k = b; k < e; k++) {
            size_t u = unit[row_at(A, k) / (size_t)dim];
            if (u != stamp && ucolor[u] != SIZE_MAX) mark[ucolor[u]] = stamp;
        }
    }
}

/* Greedy colouring of the units of G consecutive contacts of perm; 0 when out of memory. */
static int color_units(const cholmod_sparse *Ws, const cholmod_sparse *Wt, int dim, size_t nc,
                       const size_t *perm, size_t G, fl_nsgs_coloring *out)
{
    size_t nu = (nc + G - 1) / G;
    size_t *unit = malloc(nc * sizeof *unit), *ucolor = malloc(nu * sizeof *ucolor);
    size_t *mark = malloc((nu + 1) * sizeof *mark), *count = calloc(nu + 2, sizeof *count);
    size_t *uorder = malloc(nu * sizeof *uorder);
    out->order = malloc(nc * sizeof *out->order);
    out->color = malloc(nc * sizeof *out->color);
    out->ustart = malloc((nu + 1) * sizeof *out->ustart);
    int ok = unit && ucolor && mark && count && uorder && out->order && out->color && out->ustart;
    if (ok) {
        for (size_t k = 0; k < nc; k++) unit[perm ? perm[k] : k] = k / G;
        for (size_t u = 0; u <= nu; u++) mark[u] = SIZE_MAX;
        for (size_t u = 0; u < nu; u++) ucolor[u] = SIZE_MAX;
        size_t ncolors = 0;
        for (size_t u = 0; u < nu; u++) {
            for (size_t k = u * G; k < nc && k < (u + 1) * G; k++) {
                size_t a = perm ? perm[k] : k;
                mark_neighbours(Ws, dim, a, unit, ucolor, mark, u);
                mark_neighbours(Wt, dim, a, unit, ucolor, mark, u);
            }
            size_t c = 0;
            while (mark[c] == u) c++;   /* at most nu colours */
            ucolor[u] = c;
            count[c + 1]++;
            if (c + 1 > ncolors) ncolors = c + 1;
        }
        for (size_t c = 0; c < ncolors; c++) count[c + 1] += count[c];
        for (size_t u = 0; u < nu; u++) uorder[count[ucolor[u]]++] = u;   /* stable by colour */
        size_t pos = 0, c = 0;
        out->start = count;   /* reused: start[c] = first position of colour c */
        for (size_t i = 0; i < nu; i++) {
            size_t u = uorder[i];
            while (c <= ucolor[u]) count[c++] = pos;
            out->ustart[i] = pos;
            for (size_t k = u * G; k < nc && k < (u + 1) * G; k++) {
                size_t a = perm ? perm[k] : k;
                out->order[pos++] = a;
                out->color[a] = ucolor[u];
            }
        }
        while (c <= ncolors) count[c++] = pos;
        out->ustart[nu] = nc;
        out->nc = nc;
        out->ncolors = ncolors;
        out->nunits = nu;
        out->unit = G;
        count = NULL;
    }
    free(unit);
    free(ucolor);
    free(mark);
    free(count);
    free(uorder);
    return ok;
}

/* Colouring (header): units of G = nc / 64 contacts (256 .. 4096) when that
 * needs at most 8 colours (a review order that follows space, as the
 * discs' canonical one, couples each unit to a few others only), else
 * single contacts. */
static fl_status color_from(const cholmod_sparse *Ws, const cholmod_sparse *Wt, int dim,
                            size_t nc, const size_t *perm, fl_nsgs_coloring *out,
                            fl_error *err)
{
    memset(out, 0, sizeof *out);
    size_t G = nc / 64 < 256 ? 256 : nc / 64 > 4096 ? 4096 : nc / 64;
    int ok = 1;
    if (G < nc) {
        ok = color_units(Ws, Wt, dim, nc, perm, G, out);
        if (ok && out->ncolors <= 8) return FL_OK;
        fl_nsgs_colored_clear(out);
    }
    if (ok) ok = color_units(Ws, Wt, dim, nc, perm, 1, out);
    if (!ok) {
        fl_nsgs_colored_clear(out);
        return FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory colouring %zu contacts", nc);
    }
    return FL_OK;
}

void fl_nsgs_colored_clear(fl_nsgs_coloring *c)
{
    if (!c) return;
    free(c->order);
    free(c->start);
    free(c->color);
    free(c->ustart);
    memset(c, 0, sizeof *c);
}

fl_status fl_nsgs_colored_color(const fl_local_problem *p, const size_t *perm,
                                fl_nsgs_coloring *out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "nsgs_colored: NULL output");
    memset(out, 0, sizeof *out);
    FL_TRY(fl_local_problem_check(p, err));
    if (!p->Ws || !p->ctx)
        return FL_FAIL(err, FL_EINVAL, "nsgs_colored: needs a sparse W and its context");
    if (p->nc == 0) return FL_OK;
    if (p->Ws->xtype != CHOLMOD_REAL) return FL_FAIL(err, FL_EINVAL, "nsgs_colored: needs a real W");
    cholmod_sparse Wt;
    if (!transpose_into(p->Ws, &Wt))
        return FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory transposing W");
    fl_status s = color_from(p->Ws, &Wt, p->dim, p->nc, perm, out, err);
    transpose_free(&Wt);
    return s;
}

/* The problem in the coloured order (file comment). */
typedef struct layout {
    int dim, dd;
    size_t nc, m, nblocks;
    size_t *cp;              /* m + 1 row starts */
    uint32_t *ri;            /* renumbered column indices of W's rows */
    double *x;
    double *q, *mu, *Wd, *Wi, *r, *U;
    unsigned char *has_inv;
    size_t *bstart;          /* nblocks + 1: contact ranges of the blocks */
    double *bd2, *br2;       /* per-block sums */
    long *bfb;               /* per-block local fallbacks */
} layout;

static void layout_free(layout *L)
{
    free(L->cp);
    free(L->ri);
    free(L->x);
    free(L->q);
    free(L->mu);
    free(L->Wd);
    free(L->Wi);
    free(L->r);
    free(L->U);
    free(L->has_inv);
    free(L->bstart);
    free(L->bd2);
    free(L->br2);
    free(L->bfb);
}

/* The blocks of the sweep: the units, or (single-contact colouring) runs of
 * at most BLK contacts, none across a colour boundary. */
static int layout_blocks(layout *L, const fl_nsgs_coloring *col)
{
    if (col->unit > 1) {   /* the units */
        L->nblocks = col->nunits;
        L->bstart = malloc((col->nunits + 1) * sizeof *L->bstart);
        L->bd2 = malloc((col->nunits + 1) * sizeof *L->bd2);
        L->br2 = malloc((col->nunits + 1) * sizeof *L->br2);
        L->bfb = malloc((col->nunits + 1) * sizeof *L->bfb);
        if (!L->bstart || !L->bd2 || !L->br2 || !L->bfb) return 0;
        memcpy(L->bstart, col->ustart, (col->nunits + 1) * sizeof *L->bstart);
        return 1;
    }
    size_t nb = 0;
    for (size_t c = 0; c < col->ncolors; c++)
        nb += (col->start[c + 1] - col->start[c] + BLK - 1) / BLK;
    L->nblocks = nb;
    L->bstart = malloc((nb + 1) * sizeof *L->bstart);
    L->bd2 = malloc((nb + 1) * sizeof *L->bd2);
    L->br2 = malloc((nb + 1) * sizeof *L->br2);
    L->bfb = malloc((nb + 1) * sizeof *L->bfb);
    if (!L->bstart || !L->bd2 || !L->br2 || !L->bfb) return 0;
    nb = 0;
    for (size_t c = 0; c < col->ncolors; c++)
        for (size_t k = col->start[c]; k < col->start[c + 1]; k += BLK) L->bstart[nb++] = k;
    L->bstart[nb] = col->nc;
    return 1;
}

/* Copy W^T's columns, q, mu, the diagonal blocks and r into the coloured order. */
static fl_status layout_build(layout *L, const fl_local_problem *p, const cholmod_sparse *Wt,
                              const double *Wd, const double *Wi, const unsigned char *has_inv,
                              const fl_nsgs_coloring *col, const double *r, int threads,
                              fl_error *err)
{
    const int dim = p->dim, dd = dim * dim;
    const size_t nc = p->nc, m = p->m;
    size_t nnz0, nnz;
    col_range(Wt, 0, &nnz0, &nnz);
    col_range(Wt, Wt->ncol - 1, &nnz0, &nnz);   /* packed: the last column's end */
    memset(L, 0, sizeof *L);
    L->dim = dim;
    L->dd = dd;
    L->nc = nc;
    L->m = m;
    size_t *pos = malloc(nc * sizeof *pos);
    L->cp = malloc((m + 1) * sizeof *L->cp);
    L->ri = malloc((nnz ? nnz : 1) * sizeof *L->ri);
    L->x = malloc((nnz ? nnz : 1) * sizeof *L->x);
    L->q = malloc(m * sizeof *L->q);
    L->mu = malloc(nc * sizeof *L->mu);
    L->Wd = malloc(nc * (size_t)dd * sizeof *L->Wd);
    L->Wi = malloc(nc * (size_t)dd * sizeof *L->Wi);
    L->r = malloc(m * sizeof *L->r);
    L->U = malloc(m * sizeof *L->U);
    L->has_inv = malloc(nc);
    if (!pos || !L->cp || !L->ri || !L->x || !L->q || !L->mu || !L->Wd || !L->Wi || !L->r ||
        !L->U || !L->has_inv || !layout_blocks(L, col)) {
        free(pos);
        return FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory for %zu stored entries", nnz);
    }
    for (size_t k = 0; k < nc; k++) pos[col->order[k]] = k;
    const size_t qs = p->q->stride;
    size_t t = 0, b, e;
    for (size_t k = 0; k < nc; k++)   /* row starts in the coloured order */
        for (int i = 0; i < dim; i++) {
            L->cp[(size_t)dim * k + (size_t)i] = t;
            col_range(Wt, (size_t)dim * col->order[k] + (size_t)i, &b, &e);
            t += e - b;
        }
    L->cp[m] = t;
    (void)b;
    (void)e;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t k = 0; k < nc; k++) {
        size_t a = col->order[k];
        for (int i = 0; i < dim; i++) {
            size_t b2, e2, row = (size_t)dim * k + (size_t)i, src = (size_t)dim * a + (size_t)i;
            size_t t2 = L->cp[row];
            col_range(Wt, src, &b2, &e2);
            for (size_t kk = b2; kk < e2; kk++, t2++) {
                size_t j = row_at(Wt, kk);
                L->ri[t2] = (uint32_t)((size_t)dim * pos[j / (size_t)dim] + j % (size_t)dim);
                L->x[t2] = ((const double *)Wt->x)[kk];
            }
            L->q[row] = p->q->data[src * qs];
            L->r[row] = r[src];
        }
        L->mu[k] = p->mu[a];
        memcpy(L->Wd + k * (size_t)dd, Wd + a * (size_t)dd, (size_t)dd * sizeof *Wd);
        memcpy(L->Wi + k * (size_t)dd, Wi + a * (size_t)dd, (size_t)dd * sizeof *Wi);
        L->has_inv[k] = has_inv[a];
    }
    free(pos);
    return FL_OK;
}

/* sum_k x_k r_{ri_k} over [b, e) in four partial sums, ((s0 + s1) + (s2 + s3)),
 * the tail into s0: nsgs_sparse.c's row_dot, term for term. */
static inline double row_dot(const double *x, const uint32_t *ri, size_t b, size_t e,
                             const double *r)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t k = b;
    for (; k + 4 <= e; k += 4) {
        s0 += x[k] * r[ri[k]];
        s1 += x[k + 1] * r[ri[k + 1]];
        s2 += x[k + 2] * r[ri[k + 2]];
        s3 += x[k + 3] * r[ri[k + 3]];
    }
    for (; k < e; k++) s0 += x[k] * r[ri[k]];
    return (s0 + s1) + (s2 + s3);
}

/* One block of the sweep: the contacts [k0, k1) of one colour (nsgs_sparse.c's arithmetic). */
static void sweep_block(layout *L, double omega, size_t blk)
{
    const int dim = L->dim, dd = L->dd;
    const size_t *cp = L->cp;
    const uint32_t *ri = L->ri;
    const double *x = L->x;
    double *rr = L->r, d2 = 0, r2 = 0;
    long fb = 0;
    for (size_t k = L->bstart[blk]; k < L->bstart[blk + 1]; k++) {
        double b[3], rl[3], old[3];
        double *ra = rr + (size_t)dim * k;
        const double *Waa = L->Wd + k * (size_t)dd;
        for (int i = 0; i < dim; i++) {
            size_t row = (size_t)dim * k + (size_t)i;
            double acc = L->q[row] + row_dot(x, ri, cp[row], cp[row + 1], rr);
            for (int l = 0; l < dim; l++) acc -= Waa[i * dim + l] * ra[l];
            b[i] = acc;
        }
        for (int l = 0; l < dim; l++) rl[l] = old[l] = ra[l];
        if (fl_local_contact_solve_fast(dim, L->mu[k], Waa, L->Wi + k * (size_t)dd,
                                       L->has_inv[k], b, rl) == 0)
            fb++;
        fl_nsgs_relax(dim, L->mu[k], omega, rl, ra);
        for (int l = 0; l < dim; l++) {
            d2 += (ra[l] - old[l]) * (ra[l] - old[l]);
            r2 += ra[l] * ra[l];
        }
    }
    L->bd2[blk] = d2;
    L->br2[blk] = r2;
    L->bfb[blk] = fb;
}

/* One coloured sweep on `threads` threads; returns the sums in block order. */
static void sweep_colored(layout *L, const fl_nsgs_coloring *col, double omega, int threads,
                          double *dr2, double *r2, long *fallbacks)
{
    size_t b0 = 0;
    (void)threads;
#pragma omp parallel num_threads(threads) firstprivate(b0)
    for (size_t c = 0; c < col->ncolors; c++) {
        size_t b1 = b0;
        while (b1 < L->nblocks && L->bstart[b1] < col->start[c + 1]) b1++;
#pragma omp for schedule(static)
        for (size_t blk = b0; blk < b1; blk++) sweep_block(L, omega, blk);
        b0 = b1;
    }
    double d = 0, s = 0;
    long f = 0;
    for (size_t blk = 0; blk < L->nblocks; blk++) {
        d += L->bd2[blk];
        s += L->br2[blk];
        f += L->bfb[blk];
    }
    *dr2 = d;
    *r2 = s;
    *fallbacks += f;
}

/* U = W r + q in the coloured order, rows in parallel. */
static void velocity_colored(layout *L, int threads)
{
    const size_t m = L->m;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t row = 0; row < m; row++) {
        double acc = L->q[row];
        for (size_t kk = L->cp[row]; kk < L->cp[row + 1]; kk++) acc += L->x[kk] * L->r[L->ri[kk]];
        L->U[row] = acc;
    }
}

/* v (original order) <- w (coloured order) */
static void unpermute(const layout *L, const fl_nsgs_coloring *col, const double *w, double *v)
{
    for (size_t k = 0; k < L->nc; k++)
        for (int i = 0; i < L->dim; i++)
            v[(size_t)L->dim * col->order[k] + (size_t)i] = w[(size_t)L->dim * k + (size_t)i];
}

/* The diagonal blocks W_aa and their inverses, as nsgs_sparse.c forms them. */
static void diagonal_blocks(const cholmod_sparse *Wt, int dim, size_t nc, double *Wd, double *Wi,
                            unsigned char *has_inv)
{
    const size_t dd = (size_t)dim * (size_t)dim, ud = (size_t)dim;
    memset(Wd, 0, nc * dd * sizeof *Wd);
    memset(Wi, 0, nc * dd * sizeof *Wi);
    for (size_t a = 0; a < nc; a++) {
        for (size_t i = 0; i < ud; i++) {
            size_t b, e;
            col_range(Wt, ud * a + i, &b, &e);
            for (size_t k = b; k < e; k++) {
                size_t row = row_at(Wt, k);
                if (row >= ud * a && row < ud * (a + 1))
                    Wd[a * dd + i * ud + (row - ud * a)] += ((const double *)Wt->x)[k];
            }
        }
        has_inv[a] = dim == 3 ? fl_local_contact_invert3(Wd + a * dd, Wi + a * dd)
                              : fl_local_contact_invert2(Wd + a * dd, Wi + a * dd);
    }
}

/* Transpose, diagonal blocks, colouring and layout of p for the sweeps. */
static fl_status colored_setup(const fl_local_problem *p, const fl_nsgs_options *opt,
                               gsl_vector *r, int threads, layout *L, fl_nsgs_coloring *col,
                               double *wmax, fl_error *err)
{
    const size_t nc = p->nc, dd = (size_t)p->dim * (size_t)p->dim;
    memset(L, 0, sizeof *L);
    memset(col, 0, sizeof *col);
    cholmod_sparse WtT, *Wt = transpose_into(p->Ws, &WtT) ? &WtT : NULL;
    size_t *perm = malloc(nc * sizeof *perm);
    double *Wd = malloc(nc * dd * sizeof *Wd), *Wi = malloc(nc * dd * sizeof *Wi);
    unsigned char *has_inv = malloc(nc);
    fl_status s = Wt && perm && Wd && Wi && has_inv
                      ? FL_OK : FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory");
    if (s == FL_OK) s = fl_nsgs_prepare(p, opt, r, perm, err);
    if (s == FL_OK) {
        diagonal_blocks(Wt, p->dim, nc, Wd, Wi, has_inv);
        *wmax = 0;
        for (size_t a = 0; a < nc; a++)
            for (int i = 0; i < p->dim; i++)
                *wmax = fmax(*wmax, fabs(Wd[a * dd + (size_t)i * (size_t)(p->dim + 1)]));
        s = color_from(p->Ws, Wt, p->dim, nc, perm, col, err);
    }
    if (s == FL_OK) s = layout_build(L, p, Wt, Wd, Wi, has_inv, col, r->data, threads, err);
    if (Wt) transpose_free(Wt);
    free(perm);
    free(Wd);
    free(Wi);
    free(has_inv);
    return s;
}

/* The full natural-map error of the current iterate (nsgs_sparse.c's rule). */
static double colored_error(layout *L, const fl_nsgs_options *opt, double normq, int threads)
{
    velocity_colored(L, threads);
    return fl_residual_natural_map(L->dim, L->nc, L->mu, L->r, L->U, normq, opt->norm);
}

/* 003 §3 (nonlinear Gauss–Seidel) in the coloured order; nsgs_colored.h. */
fl_status fl_nsgs_colored_solve(const fl_local_problem *p, const fl_nsgs_options *opt,
                                gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                                fl_error *err)
{
    double t0 = fl_clock_now();
    fl_nsgs_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->status = fl_local_problem_check(p, err);
    if (res->status < 0) return res->status;
    if (p->m == 0) return res->status = FL_OK;
    if (!p->Ws || p->Ws->xtype != CHOLMOD_REAL)
        return res->status = FL_FAIL(err, FL_EINVAL, "nsgs_sparse: needs a real sparse W");
    if (U && (U->size != p->m || U->stride != 1))
        return res->status = FL_FAIL(err, FL_EDIM, "nsgs_sparse: U must have length %zu", p->m);
    if (p->m > UINT32_MAX && opt) {   /* 32-bit indices of the layout: the serial sweep */
        fl_nsgs_options o = *opt;
        o.sparse.threads = 0;
        return fl_nsgs_solve_sparse(p, &o, r, U, res, err);
    }
    layout L;
    fl_nsgs_coloring col;
    double wmax = 0, e = INFINITY, normq = gsl_blas_dnrm2(p->q);
    const int threads = opt ? fl_nsgs_colored_threads(opt->sparse.threads, p->nc) : 1;
    fl_status s = colored_setup(p, opt, r, threads, &L, &col, &wmax, err);
    const double rscale2 = wmax > 0 ? (normq / wmax) * (normq / wmax) : 0.0;
    int sweep = 0;
    while (s == FL_OK && sweep < opt->max_sweeps) {
        double ts = fl_clock_now(), dr2, r2;
        sweep_colored(&L, &col, opt->omega, threads, &dr2, &r2, &res->local_fallbacks);
        res->sweep_seconds += fl_clock_now() - ts;
        sweep++;
        int full = opt->callback || dr2 <= opt->tol * opt->tol * fmax(r2, rscale2) ||
                   sweep == 1 || sweep % opt->sparse.check_every == 0 || sweep == opt->max_sweeps ||
                   !isfinite(dr2);
        if (!full) continue;
        e = colored_error(&L, opt, normq, threads);
        if (!isfinite(e)) {
            s = FL_FAIL(err, FL_ENOCONV, "nsgs_sparse: iterates became non-finite at sweep %d",
                        sweep);
            break;
        }
        int stop = e <= opt->tol;
        if (opt->callback) {
            unpermute(&L, &col, L.r, r->data);
            if (opt->callback(opt->callback_data, sweep, e, r)) stop = 1;
        }
        if (stop) break;
    }
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    if (s >= 0 || s == FL_ENOCONV) {
        if (L.r) unpermute(&L, &col, L.r, r->data);
        if (U && s >= 0) unpermute(&L, &col, L.U, U->data);
    }
    res->iterations = sweep;
    res->residual = e;
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    layout_free(&L);
    fl_nsgs_colored_clear(&col);
    return s;
}
