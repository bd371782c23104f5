/* nsgs_colored.c — graph-coloured nonlinear Gauss–Seidel (003 §3) on
 * every core; see nsgs_colored.h and proofs/parallel_sweep.md.
 *
 * Layout.  The rows of W (columns of W^T, as in nsgs_sparse.c) are copied
 * in the coloured order with 32-bit indices renumbered to that order, and
 * q, mu and r are permuted alike: a sweep streams its data once, front to
 * back, and the impulses it reads lie in the few colour blocks that
 * progress together.  dim 2: 2x2 blocks, one index per block, zeros where W
 * stores no entry of a stored block, the diagonal block read from the row
 * (no separate copy); else (or when a contact has no stored diagonal block)
 * one index per stored entry, the entries in W's order, with the diagonal
 * blocks and (dim 3) their inverses beside.  The arithmetic is
 * nsgs_sparse.c's (b = q_a + sum_k W_ak r_k - W_aa r_a in four partial sums,
 * then fl_local_contact_solve_fast and fl_nsgs_relax); the 2x2 block
 * layout has its own sweep (sweep_block2: dim 2 written out, the row sums
 * two lanes at a time, the inline early exit of the local solve, a
 * software prefetch), with the same bits.  The index arrays
 * and, per value, its position in p->Ws->x are kept in a cache
 * (fl_nsgs_colored_cache) while the pattern of W and the order stay; each
 * solve only gathers the values.
 *
 * Parallel sweep.  One OpenMP team per sweep; colour by colour, the
 * colour's units (or, single-contact colouring, runs of BLK contacts) are
 * shared out by `omp for` (dynamic, one block at a time; implicit barrier
 * at the end of a colour); a unit
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
#ifdef __SSE2__
#include <emmintrin.h>
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

/* The pattern of W^T of a CSC matrix into T (a header over malloc'ed long
 * index arrays, no values) and, in *src (when src is not NULL), the
 * position in A->x of each entry of T: counts per row, then the columns of
 * A scattered in increasing order, so each column of T lists its entries by
 * increasing row, as cholmod_transpose does.  0 when out of memory. */
static int transpose_into(const cholmod_sparse *A, cholmod_sparse *T, size_t **src)
{
    const size_t nr = A->nrow, nc = A->ncol;
    size_t b, e, nnz = 0;
    for (size_t j = 0; j < nc; j++) {
        col_range(A, j, &b, &e);
        nnz += e - b;
    }
    SuiteSparse_long *tp = calloc(nr + 1, sizeof *tp), *ti = malloc((nnz ? nnz : 1) * sizeof *ti);
    size_t *ts = src ? malloc((nnz ? nnz : 1) * sizeof *ts) : NULL;
    size_t *fill = malloc((nr ? nr : 1) * sizeof *fill);
    if (!tp || !ti || (src && !ts) || !fill) {
        free(tp);
        free(ti);
        free(ts);
        free(fill);
        return 0;
    }
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
            if (ts) ts[t] = k;
        }
    }
    free(fill);
    memset(T, 0, sizeof *T);
    T->nrow = nc;
    T->ncol = nr;
    T->nzmax = nnz;
    T->p = tp;
    T->i = ti;
    T->stype = 0;
    T->itype = CHOLMOD_LONG;
    T->xtype = CHOLMOD_PATTERN;
    T->dtype = CHOLMOD_DOUBLE;
    T->sorted = 1;
    T->packed = 1;
    if (src) *src = ts;
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
    if (!transpose_into(p->Ws, &Wt, NULL))
        return FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory transposing W");
    fl_status s = color_from(p->Ws, &Wt, p->dim, p->nc, perm, out, err);
    transpose_free(&Wt);
    return s;
}

/* The serial mode's "colouring": one colour, one unit, the review order itself. */
static fl_status color_trivial(size_t nc, const size_t *perm, fl_nsgs_coloring *out,
                               fl_error *err)
{
    memset(out, 0, sizeof *out);
    out->order = malloc(nc * sizeof *out->order);
    out->color = calloc(nc, sizeof *out->color);
    out->start = malloc(2 * sizeof *out->start);
    out->ustart = malloc(2 * sizeof *out->ustart);
    if (!out->order || !out->color || !out->start || !out->ustart) {
        fl_nsgs_colored_clear(out);
        return FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory ordering %zu contacts", nc);
    }
    memcpy(out->order, perm, nc * sizeof *perm);
    out->start[0] = out->ustart[0] = 0;
    out->start[1] = out->ustart[1] = nc;
    out->nc = nc;
    out->ncolors = out->nunits = 1;
    out->unit = nc;
    return FL_OK;
}

/* The problem in the coloured order (file comment).  Structure (kept in
 * the cache): rp, ri, diag, src, pos, the sweep blocks.  Values (gathered
 * at every solve): x, q, mu, r, and Wd, Wi, has_inv. */
typedef struct fl_nsgs_layout {
    int dim, dd, blocked;
    size_t nc, m, nval, nidx;  /* stored values; indices (blocks or entries) */
    uint32_t *rp;              /* blocked: nc + 1 block-row starts; scalar: m + 1 row starts */
    uint32_t *ri;              /* blocked: block column (a coloured position); scalar: column */
    uint32_t *diag;            /* blocked: the diagonal block of each contact */
    uint32_t *src;             /* nval: position in p->Ws->x of each value */
    size_t *pos;               /* nc: coloured position of contact a */
    double *x, *q, *mu, *Wd, *Wi, *r, *U, *rbest;
    unsigned char *has_inv;
    size_t nblocks;            /* blocks of the sweep (units, or runs of BLK contacts) */
    size_t *bstart, *cb;       /* nblocks + 1 contact ranges; ncolors + 1 block ranges */
    double *bd2, *br2;         /* per-block sums */
    long *bfb;                 /* per-block local fallbacks */
} fl_nsgs_layout;

typedef fl_nsgs_layout layout;

static void layout_free(layout *L)
{
    if (!L) return;
    void *v[] = {L->rp, L->ri, L->diag, L->src, L->pos, L->x, L->q, L->mu, L->Wd, L->Wi,
                 L->r, L->U, L->rbest, L->has_inv, L->bstart, L->cb, L->bd2, L->br2, L->bfb};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) free(v[k]);
    free(L);
}

/* The blocks of the sweep: the units, or (single-contact colouring) runs of
 * at most BLK contacts, none across a colour boundary; cb[c] the first block
 * of colour c. */
static int layout_blocks(layout *L, const fl_nsgs_coloring *col)
{
    size_t nb = 0;
    if (col->unit > 1) nb = col->nunits;
    else
        for (size_t c = 0; c < col->ncolors; c++)
            nb += (col->start[c + 1] - col->start[c] + BLK - 1) / BLK;
    L->nblocks = nb;
    L->bstart = malloc((nb + 1) * sizeof *L->bstart);
    L->cb = malloc((col->ncolors + 1) * sizeof *L->cb);
    L->bd2 = malloc((nb + 1) * sizeof *L->bd2);
    L->br2 = malloc((nb + 1) * sizeof *L->br2);
    L->bfb = malloc((nb + 1) * sizeof *L->bfb);
    if (!L->bstart || !L->cb || !L->bd2 || !L->br2 || !L->bfb) return 0;
    if (col->unit > 1) {
        memcpy(L->bstart, col->ustart, (nb + 1) * sizeof *L->bstart);
    } else {
        nb = 0;
        for (size_t c = 0; c < col->ncolors; c++)
            for (size_t k = col->start[c]; k < col->start[c + 1]; k += BLK) L->bstart[nb++] = k;
        L->bstart[nb] = col->nc;
    }
    size_t b = 0;
    for (size_t c = 0; c < col->ncolors; c++) {
        while (b < L->nblocks && L->bstart[b] < col->start[c]) b++;
        L->cb[c] = b;
    }
    L->cb[col->ncolors] = L->nblocks;
    return 1;
}

/* Walk the 2 x 2 blocks of contact a's two rows of Wt (dim 2): the union of
 * the column contacts of rows 2a and 2a + 1, by increasing contact; for
 * each, fn gets the block's contact and the positions in Wt of its four
 * entries (SIZE_MAX where W stores none: the blocked layout holds a zero). */
typedef void (*block_fn)(void *data, size_t c, const size_t kk[4]);
static size_t walk_blocks(const cholmod_sparse *Wt, size_t a, block_fn fn, void *data)
{
    size_t b[2], e[2], n = 0;
    col_range(Wt, 2 * a, &b[0], &e[0]);
    col_range(Wt, 2 * a + 1, &b[1], &e[1]);
    while (b[0] < e[0] || b[1] < e[1]) {
        size_t c = SIZE_MAX, kk[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
        for (int i = 0; i < 2; i++)
            if (b[i] < e[i] && row_at(Wt, b[i]) / 2 < c) c = row_at(Wt, b[i]) / 2;
        for (int i = 0; i < 2; i++)
            while (b[i] < e[i] && row_at(Wt, b[i]) / 2 == c) {
                kk[2 * i + row_at(Wt, b[i]) % 2] = b[i];
                b[i]++;
            }
        if (fn) fn(data, c, kk);
        n++;
    }
    return n;
}

typedef struct block_fill {
    layout *L;
    const size_t *tsrc;
    size_t a, k, t;
    int has_diag;
} block_fill;

static void fill_block(void *data, size_t c, const size_t kk[4])
{
    block_fill *f = data;
    size_t t = f->t++;
    if (c == f->a) {
        f->L->diag[f->k] = (uint32_t)t;
        f->has_diag = 1;
    }
    f->L->ri[t] = (uint32_t)f->L->pos[c];
    for (int i = 0; i < 4; i++)
        f->L->src[4 * t + (size_t)i] = kk[i] == SIZE_MAX ? UINT32_MAX : (uint32_t)f->tsrc[kk[i]];
}

/* Index arrays of the blocked layout (dim 2): block row k lists the 2 x 2
 * blocks of contact order[k] by increasing original column (zeros where W
 * stores no entry of a block).  0 when out of memory, too large, or a
 * contact without a stored diagonal block (the scalar layout then). */
static int structure_blocked(layout *L, const cholmod_sparse *Wt, const size_t *tsrc,
                             const fl_nsgs_coloring *col)
{
    const size_t nc = L->nc;
    size_t nb = 0;
    for (size_t a = 0; a < nc; a++) nb += walk_blocks(Wt, a, NULL, NULL);
    if (4 * nb >= UINT32_MAX) return 0;
    L->nidx = nb;
    L->nval = 4 * nb;
    L->rp = malloc((nc + 1) * sizeof *L->rp);
    L->ri = malloc((nb ? nb : 1) * sizeof *L->ri);
    L->diag = malloc(nc * sizeof *L->diag);
    L->src = malloc((L->nval ? L->nval : 1) * sizeof *L->src);
    if (!L->rp || !L->ri || !L->diag || !L->src) return 0;
    block_fill f = {L, tsrc, 0, 0, 0, 0};
    for (size_t k = 0; k < nc; k++) {
        f.a = col->order[k];
        f.k = k;
        f.has_diag = 0;
        L->rp[k] = (uint32_t)f.t;
        walk_blocks(Wt, f.a, fill_block, &f);
        if (!f.has_diag) return 0;
    }
    L->rp[nc] = (uint32_t)f.t;
    return 1;
}

/* Index arrays of the scalar layout: the rows of W (columns of W^T) in
 * the coloured order, entries in their order, columns renumbered. */
static int structure_scalar(layout *L, const cholmod_sparse *Wt, const size_t *tsrc,
                            const fl_nsgs_coloring *col)
{
    const size_t dim = (size_t)L->dim;
    L->nidx = L->nval;
    L->rp = malloc((L->m + 1) * sizeof *L->rp);
    L->ri = malloc((L->nval ? L->nval : 1) * sizeof *L->ri);
    L->src = malloc((L->nval ? L->nval : 1) * sizeof *L->src);
    if (!L->rp || !L->ri || !L->src) return 0;
    size_t t = 0;
    for (size_t k = 0; k < L->nc; k++)
        for (size_t i = 0; i < dim; i++) {
            size_t b, e;
            L->rp[dim * k + i] = (uint32_t)t;
            col_range(Wt, dim * col->order[k] + i, &b, &e);
            for (size_t kk = b; kk < e; kk++, t++) {
                size_t j = row_at(Wt, kk);
                L->ri[t] = (uint32_t)(dim * L->pos[j / dim] + j % dim);
                L->src[t] = (uint32_t)tsrc[kk];
            }
        }
    L->rp[L->m] = (uint32_t)t;
    return 1;
}

/* The structure of the layout of p in the colouring col (allocates the
 * value arrays too; they are filled by layout_gather).  0 when out of memory. */
static int layout_structure(layout *L, const fl_local_problem *p, const cholmod_sparse *Wt,
                            const size_t *tsrc, const fl_nsgs_coloring *col)
{
    const size_t nc = p->nc, m = p->m, dd = (size_t)p->dim * (size_t)p->dim;
    L->dim = p->dim;
    L->dd = (int)dd;
    L->nc = nc;
    L->m = m;
    L->nval = Wt->nzmax;
    L->pos = malloc(nc * sizeof *L->pos);
    if (!L->pos || !layout_blocks(L, col)) return 0;
    for (size_t k = 0; k < nc; k++) L->pos[col->order[k]] = k;
    L->blocked = p->dim == 2 && structure_blocked(L, Wt, tsrc, col);
    if (!L->blocked) {   /* dim 3, or no stored diagonal block somewhere */
        free(L->rp);
        free(L->ri);
        free(L->diag);
        free(L->src);
        L->rp = L->ri = L->diag = L->src = NULL;
        L->nval = Wt->nzmax;
        if (!structure_scalar(L, Wt, tsrc, col)) return 0;
    }
    L->x = malloc((L->nval ? L->nval : 1) * sizeof *L->x);
    L->q = malloc(m * sizeof *L->q);
    L->mu = malloc(nc * sizeof *L->mu);
    L->r = malloc(m * sizeof *L->r);
    L->U = malloc(m * sizeof *L->U);
    L->has_inv = malloc(nc);
    if (!L->blocked) {
        L->Wd = malloc(nc * dd * sizeof *L->Wd);
        L->Wi = malloc(nc * dd * sizeof *L->Wi);
    }
    return L->x && L->q && L->mu && L->r && L->U && L->has_inv &&
           (L->blocked || (L->Wd && L->Wi));
}

/* Gather the values of W, q, mu and r into the layout, the blocks of each
 * colour on the threads that sweep them (first touch). */
static void layout_gather(layout *L, const fl_local_problem *p, const fl_nsgs_coloring *col,
                          const double *r, int threads)
{
    const size_t dim = (size_t)L->dim, qs = p->q->stride;
    const double *wx = p->Ws->x;
    (void)threads;
#pragma omp parallel num_threads(threads)
    for (size_t c = 0; c < col->ncolors; c++) {
#pragma omp for schedule(static)
        for (size_t blk = L->cb[c]; blk < L->cb[c + 1]; blk++)
            for (size_t k = L->bstart[blk]; k < L->bstart[blk + 1]; k++) {
                size_t a = col->order[k];
                size_t v0 = L->blocked ? 4 * (size_t)L->rp[k] : L->rp[dim * k];
                size_t v1 = L->blocked ? 4 * (size_t)L->rp[k + 1] : L->rp[dim * k + dim];
                for (size_t t = v0; t < v1; t++)
                    L->x[t] = L->src[t] == UINT32_MAX ? 0.0 : wx[L->src[t]];
                for (size_t i = 0; i < dim; i++) {
                    L->q[dim * k + i] = p->q->data[(dim * a + i) * qs];
                    L->r[dim * k + i] = r[dim * a + i];
                }
                L->mu[k] = p->mu[a];
            }
    }
}

/* The diagonal block W_aa of the contact at position k (row-major), as
 * nsgs_sparse.c forms it (zero, then the stored entries added), and whether
 * its normal row of W holds a nonzero value. */
static void layout_diag(const layout *L, size_t k, double *Waa, int *normal_row_zero)
{
    const size_t dim = (size_t)L->dim;
    *normal_row_zero = 1;
    for (size_t i = 0; i < dim * dim; i++) Waa[i] = 0.0;
    if (L->blocked) {
        const double *D = L->x + 4 * (size_t)L->diag[k];
        for (int i = 0; i < 4; i++) Waa[i] += D[i];
        for (size_t t = L->rp[k]; t < L->rp[k + 1]; t++)
            if (L->x[4 * t] != 0 || L->x[4 * t + 1] != 0) *normal_row_zero = 0;
        return;
    }
    for (size_t i = 0; i < dim; i++)
        for (size_t t = L->rp[dim * k + i]; t < L->rp[dim * k + i + 1]; t++) {
            size_t j = L->ri[t];
            if (i == 0 && L->x[t] != 0) *normal_row_zero = 0;
            if (j >= dim * k && j < dim * (k + 1)) Waa[i * dim + (j - dim * k)] += L->x[t];
        }
}

/* Diagonal blocks, their inverses (dim 3), the verdicts of
 * fl_nsgs_block_verdict in the natural contact order (nsgs_sparse.c's
 * refusals, the same contact named), and max |W_ii|. */
static fl_status layout_check(layout *L, const fl_local_problem *p, double *wmax, fl_error *err)
{
    const size_t dim = (size_t)L->dim, dd = dim * dim;
    *wmax = 0;
    for (size_t a = 0; a < L->nc; a++) {
        size_t k = L->pos[a];
        double Waa[9];
        int zero;
        layout_diag(L, k, Waa, &zero);
        FL_TRY(fl_nsgs_block_verdict(L->dim, a, Waa, zero, gsl_vector_get(p->q, dim * a), err));
        for (size_t i = 0; i < dim; i++) *wmax = fmax(*wmax, fabs(Waa[i * (dim + 1)]));
        L->has_inv[k] = 0;
        if (!L->blocked) {
            memcpy(L->Wd + k * dd, Waa, dd * sizeof *Waa);
            memset(L->Wi + k * dd, 0, dd * sizeof *L->Wi);
            L->has_inv[k] = dim == 3 && fl_local_contact_invert3(Waa, L->Wi + k * dd);
        }
    }
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

/* The two row sums of contact k in the blocked layout (dim 2): two blocks
 * per step into four partial sums per row (row_dot's grouping, with one
 * index per block and the zeros of the padded blocks; so the sums agree with
 * the scalar layout's up to rounding, not bit for bit). */
static inline void block_row_dot(const layout *L, size_t k, const double *r, double *d0,
                                 double *d1)
{
    const double *x = L->x;
    const uint32_t *ri = L->ri;
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    size_t t = L->rp[k], e = L->rp[k + 1];
#ifdef __SSE2__
    /* the same products and partial sums, two lanes at a time: (a0, a1),
     * (c0, c1) over the even blocks, (a2, a3), (c2, c3) over the odd ones */
    __m128d A = _mm_setzero_pd(), A2 = A, C = A, C2 = A;
    for (; t + 2 <= e; t += 2) {
        const double *X = x + 4 * t;
        const __m128d r0 = _mm_loadu_pd(r + 2 * (size_t)ri[t]);
        const __m128d r1 = _mm_loadu_pd(r + 2 * (size_t)ri[t + 1]);
        A = _mm_add_pd(A, _mm_mul_pd(_mm_loadu_pd(X), r0));
        C = _mm_add_pd(C, _mm_mul_pd(_mm_loadu_pd(X + 2), r0));
        A2 = _mm_add_pd(A2, _mm_mul_pd(_mm_loadu_pd(X + 4), r1));
        C2 = _mm_add_pd(C2, _mm_mul_pd(_mm_loadu_pd(X + 6), r1));
    }
    a0 = _mm_cvtsd_f64(A);
    a1 = _mm_cvtsd_f64(_mm_unpackhi_pd(A, A));
    a2 = _mm_cvtsd_f64(A2);
    a3 = _mm_cvtsd_f64(_mm_unpackhi_pd(A2, A2));
    c0 = _mm_cvtsd_f64(C);
    c1 = _mm_cvtsd_f64(_mm_unpackhi_pd(C, C));
    c2 = _mm_cvtsd_f64(C2);
    c3 = _mm_cvtsd_f64(_mm_unpackhi_pd(C2, C2));
#endif
    for (; t + 2 <= e; t += 2) {
        const double *X = x + 4 * t, *r0 = r + 2 * (size_t)ri[t], *r1 = r + 2 * (size_t)ri[t + 1];
        a0 += X[0] * r0[0];
        a1 += X[1] * r0[1];
        a2 += X[4] * r1[0];
        a3 += X[5] * r1[1];
        c0 += X[2] * r0[0];
        c1 += X[3] * r0[1];
        c2 += X[6] * r1[0];
        c3 += X[7] * r1[1];
    }
    if (t < e) {
        const double *X = x + 4 * t, *r0 = r + 2 * (size_t)ri[t];
        a0 += X[0] * r0[0];
        a0 += X[1] * r0[1];
        c0 += X[2] * r0[0];
        c0 += X[3] * r0[1];
    }
    *d0 = (a0 + a1) + (a2 + a3);
    *d1 = (c0 + c1) + (c2 + c3);
}

/* b = q_a + sum_k W_ak r_k - W_aa r_a for the contact at position k, and
 * its diagonal block (nsgs_sparse.c's arithmetic); returns W_aa. */
static inline const double *local_rhs(const layout *L, size_t k, double *b, double *Wbuf)
{
    const int dim = L->dim;
    const double *rr = L->r, *ra = rr + (size_t)dim * k, *Waa;
    double dot[3];
    if (L->blocked) {
        block_row_dot(L, k, rr, &dot[0], &dot[1]);
        const double *D = L->x + 4 * (size_t)L->diag[k];
        for (int i = 0; i < 4; i++) Wbuf[i] = 0.0 + D[i];
        Waa = Wbuf;
    } else {
        for (int i = 0; i < dim; i++) {
            size_t row = (size_t)dim * k + (size_t)i;
            dot[i] = row_dot(L->x, L->ri, L->rp[row], L->rp[row + 1], rr);
        }
        Waa = L->Wd + k * (size_t)L->dd;
    }
    for (int i = 0; i < dim; i++) {
        double acc = L->q[(size_t)dim * k + (size_t)i] + dot[i];
        for (int l = 0; l < dim; l++) acc -= Waa[i * dim + l] * ra[l];
        b[i] = acc;
    }
    return Waa;
}

/* One block of the sweep: the contacts [k0, k1) of one colour (nsgs_sparse.c's arithmetic). */
static void sweep_block(layout *L, double omega, size_t blk)
{
    const int dim = L->dim, dd = L->dd;
    static const double zero9[9];
    double d2 = 0, r2 = 0;
    long fb = 0;
    for (size_t k = L->bstart[blk]; k < L->bstart[blk + 1]; k++) {
        double b[3], rl[3], old[3], Wbuf[4];
        double *ra = L->r + (size_t)dim * k;
        const double *Waa = local_rhs(L, k, b, Wbuf);
        const double *Wi = L->blocked ? zero9 : L->Wi + k * (size_t)dd;
        for (int l = 0; l < dim; l++) rl[l] = old[l] = ra[l];
        if (fl_local_contact_solve_fast(dim, L->mu[k], Waa, Wi, L->has_inv[k], b, rl) == 0) fb++;
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

/* sweep_block for the 2x2 block layout: the same arithmetic with dim = 2
 * written out, fl_local_contact_solve_fast's dim-2 path in its inline form
 * (fl_local_contact_solve_fast2), no relaxation call at omega = 1. */
static void sweep_block2(layout *L, double omega, size_t blk)
{
    double *rr = L->r;
    double d2 = 0, r2 = 0;
    long fb = 0;
    for (size_t k = L->bstart[blk]; k < L->bstart[blk + 1]; k++) {
        double dot0, dot1, W[4], b[2];
        double *ra = rr + 2 * k;
        /* software prefetch PF bytes ahead in the values and the indices:
         * the local solves between the rows leave the hardware prefetcher
         * behind (at 1e5 discs, best sweep 12.4 -> 12.0 ms) */
        enum { PF = 4096 };   /* (addresses as integers: they may pass the arrays' ends) */
        for (uintptr_t xb = (uintptr_t)(L->x + 4 * (size_t)L->rp[k]) + PF,
                       xe = (uintptr_t)(L->x + 4 * (size_t)L->rp[k + 1]) + PF;
             xb < xe; xb += 64)
            __builtin_prefetch((const void *)xb);
        __builtin_prefetch((const void *)((uintptr_t)(L->ri + L->rp[k]) + PF / 8));
        block_row_dot(L, k, rr, &dot0, &dot1);
        const double *D = L->x + 4 * (size_t)L->diag[k];
        for (int i = 0; i < 4; i++) W[i] = 0.0 + D[i];
        const double o0 = ra[0], o1 = ra[1], mu = L->mu[k];
        b[0] = L->q[2 * k] + dot0;
        b[0] -= W[0] * o0;
        b[0] -= W[1] * o1;
        b[1] = L->q[2 * k + 1] + dot1;
        b[1] -= W[2] * o0;
        b[1] -= W[3] * o1;
        double rl[2] = {o0, o1};
        if (fl_local_contact_solve_fast2(mu, W, b, rl) == 0) fb++;
        if (omega == 1.0) {
            ra[0] = rl[0];
            ra[1] = rl[1];
        } else {
            fl_nsgs_relax(2, mu, omega, rl, ra);
        }
        d2 += (ra[0] - o0) * (ra[0] - o0);
        r2 += ra[0] * ra[0];
        d2 += (ra[1] - o1) * (ra[1] - o1);
        r2 += ra[1] * ra[1];
    }
    L->bd2[blk] = d2;
    L->br2[blk] = r2;
    L->bfb[blk] = fb;
}

/* One coloured sweep on `threads` threads; returns the sums in block order. */
static void sweep_colored(layout *L, const fl_nsgs_coloring *col, double omega, int threads,
                          double *dr2, double *r2, long *fallbacks)
{
    if (threads <= 1) {
        for (size_t blk = 0; blk < L->nblocks; blk++)
            (L->blocked ? sweep_block2 : sweep_block)(L, omega, blk);
    } else {
#pragma omp parallel num_threads(threads)
        for (size_t c = 0; c < col->ncolors; c++) {
            /* dynamic: on a shared machine a thread that is descheduled leaves its
             * blocks to the others (the result does not depend on who sweeps a block) */
#pragma omp for schedule(dynamic, 1)
            for (size_t blk = L->cb[c]; blk < L->cb[c + 1]; blk++)
                (L->blocked ? sweep_block2 : sweep_block)(L, omega, blk);
        }
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

/* U = W r + q in the coloured order, contacts in parallel (each row summed in order). */
static void velocity_colored(layout *L, int threads)
{
    const size_t nc = L->nc, dim = (size_t)L->dim;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t k = 0; k < nc; k++)
        for (size_t i = 0; i < dim; i++) {
            double acc = L->q[dim * k + i];
            if (L->blocked)
                for (size_t t = L->rp[k]; t < L->rp[k + 1]; t++)
                    for (size_t l = 0; l < 2; l++)
                        acc += L->x[4 * t + 2 * i + l] * L->r[2 * (size_t)L->ri[t] + l];
            else
                for (size_t t = L->rp[dim * k + i]; t < L->rp[dim * k + i + 1]; t++)
                    acc += L->x[t] * L->r[L->ri[t]];
            L->U[dim * k + i] = acc;
        }
}

/* v (original order) <- w (coloured order) */
static void unpermute(const layout *L, const fl_nsgs_coloring *col, const double *w, double *v)
{
    for (size_t k = 0; k < L->nc; k++)
        for (int i = 0; i < L->dim; i++)
            v[(size_t)L->dim * col->order[k] + (size_t)i] = w[(size_t)L->dim * k + (size_t)i];
}

void fl_nsgs_colored_cache_init(fl_nsgs_colored_cache *c)
{
    if (c) memset(c, 0, sizeof *c);
}

void fl_nsgs_colored_cache_clear(fl_nsgs_colored_cache *c)
{
    if (!c) return;
    free(c->kp);
    free(c->ki);
    free(c->perm);
    fl_nsgs_colored_clear(&c->col);
    layout_free(c->layout);
    long builds = c->builds, reuses = c->reuses;
    memset(c, 0, sizeof *c);
    c->builds = builds;
    c->reuses = reuses;
}

int fl_nsgs_colored_blocked(const fl_nsgs_colored_cache *c)
{
    return c && c->valid && c->layout && c->layout->blocked;
}

double fl_nsgs_colored_sweep_bytes(const fl_nsgs_colored_cache *c)
{
    if (!c || !c->valid || !c->layout) return 0;
    const layout *L = c->layout;
    double nc = (double)L->nc, m = (double)L->m, dd = (double)L->dd;
    double b = 8.0 * (double)L->nval + 4.0 * (double)L->nidx + 8.0 * m + 8.0 * nc + 16.0 * m;
    if (L->blocked) return b + 4.0 * (nc + 1);
    b += 4.0 * (m + 1) + 8.0 * dd * nc;   /* row starts, diagonal blocks */
    if (L->dim == 3) b += 8.0 * dd * nc + nc;   /* inverses and their flags */
    return b;
}

/* 1 when the cache holds the setup of p with the review order perm in this mode. */
static int cache_matches(const fl_nsgs_colored_cache *c, const fl_local_problem *p,
                         const size_t *perm, int colored)
{
    const cholmod_sparse *W = p->Ws;
    if (!c->valid || !W->packed || c->dim != p->dim || c->colored != colored ||
        c->itype != W->itype || c->nrow != W->nrow || c->ncol != W->ncol)
        return 0;
    size_t isz = W->itype == CHOLMOD_LONG ? sizeof(SuiteSparse_long) : sizeof(int);
    size_t b, e;
    col_range(W, W->ncol - 1, &b, &e);
    return e == c->nnz && memcmp(c->kp, W->p, (W->ncol + 1) * isz) == 0 &&
           memcmp(c->ki, W->i, e * isz) == 0 && memcmp(c->perm, perm, p->nc * sizeof *perm) == 0;
}

/* Build the cache's setup for p, perm and the mode: transpose, colouring,
 * layout structure, key.  The old content is freed first. */
static fl_status cache_build(fl_nsgs_colored_cache *c, const fl_local_problem *p,
                             const size_t *perm, int colored, fl_error *err)
{
    const cholmod_sparse *W = p->Ws;
    fl_nsgs_colored_cache_clear(c);
    cholmod_sparse Wt;
    size_t *tsrc = NULL;
    if (!transpose_into(W, &Wt, &tsrc))
        return FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory transposing W");
    fl_status s = colored ? color_from(W, &Wt, p->dim, p->nc, perm, &c->col, err)
                          : color_trivial(p->nc, perm, &c->col, err);
    size_t isz = W->itype == CHOLMOD_LONG ? sizeof(SuiteSparse_long) : sizeof(int);
    if (s == FL_OK) {
        c->layout = calloc(1, sizeof *c->layout);
        c->kp = malloc((W->ncol + 1) * isz);
        c->ki = malloc((Wt.nzmax ? Wt.nzmax : 1) * isz);
        c->perm = malloc(p->nc * sizeof *c->perm);
        if (!c->layout || !c->kp || !c->ki || !c->perm ||
            !layout_structure(c->layout, p, &Wt, tsrc, &c->col))
            s = FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory for the layout of %zu "
                        "stored entries", (size_t)Wt.nzmax);
    }
    if (s == FL_OK) {
        memcpy(c->kp, W->p, (W->ncol + 1) * isz);
        memcpy(c->ki, W->i, Wt.nzmax * isz);
        memcpy(c->perm, perm, p->nc * sizeof *perm);
        c->nnz = Wt.nzmax;
        c->nrow = W->nrow;
        c->ncol = W->ncol;
        c->itype = W->itype;
        c->dim = p->dim;
        c->colored = colored;
        c->valid = W->packed;   /* an unpacked W is set up again at every solve */
        c->builds++;
    }
    free(tsrc);
    transpose_free(&Wt);
    if (s != FL_OK) fl_nsgs_colored_cache_clear(c);
    return s;
}

/* The full natural-map error of the current iterate (nsgs_sparse.c's rule). */
static double colored_error(layout *L, const fl_nsgs_options *opt, double normq, int threads)
{
    velocity_colored(L, threads);
    return fl_residual_natural_map(L->dim, L->nc, L->mu, L->r, L->U, normq, opt->norm);
}

/* The sweeps (nsgs_sparse.c's loop and stopping rule) on the gathered layout. */
static fl_status colored_iterate(layout *L, const fl_nsgs_coloring *col,
                                 const fl_nsgs_options *opt, int threads, double wmax,
                                 double normq, double t0, gsl_vector *r, fl_nsgs_result *res,
                                 fl_error *err)
{
    const double rscale2 = wmax > 0 ? (normq / wmax) * (normq / wmax) : 0.0;
    double e = INFINITY, ebest = INFINITY;
    fl_status s = FL_OK;
    int sweep = 0;
    while (sweep < opt->max_sweeps) {
        double ts = fl_clock_now(), dr2, r2;
        sweep_colored(L, col, opt->omega, threads, &dr2, &r2, &res->local_fallbacks);
        res->sweep_seconds += fl_clock_now() - ts;
        sweep++;
        int timeout = fl_nsgs_timed_out(opt, t0);
        int full = (opt->callback && !opt->callback_at_checks) ||
                   dr2 <= opt->tol * opt->tol * fmax(r2, rscale2) ||
                   sweep == 1 || sweep % opt->sparse.check_every == 0 || sweep == opt->max_sweeps ||
                   !isfinite(dr2) || timeout;
        if (!full) continue;
        e = colored_error(L, opt, normq, threads);
        if (!isfinite(e)) {
            s = FL_FAIL(err, FL_ENOCONV, "nsgs_sparse: iterates became non-finite at sweep %d",
                        sweep);
            break;
        }
        if (L->rbest && e < ebest) {
            memcpy(L->rbest, L->r, L->m * sizeof *L->r);
            ebest = e;
        }
        int stop = e <= opt->tol;
        if (opt->callback) {
            unpermute(L, col, L->r, r->data);
            if (opt->callback(opt->callback_data, sweep, e, r)) stop = 1;
        }
        if (stop) break;
        if (timeout) {
            s = FL_WTIMEOUT;
            break;
        }
    }
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best checked iterate, its error */
        memcpy(L->r, L->rbest, L->m * sizeof *L->r);
        e = colored_error(L, opt, normq, threads);
    }
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    res->iterations = sweep;
    res->residual = e;
    return s;
}

/* Whether p fits the layout's 32-bit indices; nsgs_colored.h. */
int fl_nsgs_colored_fits(const fl_local_problem *p)
{
    size_t b, e;
    col_range(p->Ws, p->Ws->ncol - 1, &b, &e);
    return p->m < UINT32_MAX && e < UINT32_MAX && p->Ws->packed;
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
    if (!opt) return res->status = FL_FAIL(err, FL_EINVAL, "nsgs: NULL options");
    if (p->m == 0) return res->status = FL_OK;
    if (!p->Ws || p->Ws->xtype != CHOLMOD_REAL)
        return res->status = FL_FAIL(err, FL_EINVAL, "nsgs_sparse: needs a real sparse W");
    if (U && (U->size != p->m || U->stride != 1))
        return res->status = FL_FAIL(err, FL_EDIM, "nsgs_sparse: U must have length %zu", p->m);
    if (!fl_nsgs_colored_fits(p)) {
        /* 32-bit indices of the layout, packed W: else the serial sweep */
        fl_nsgs_options o = *opt;
        o.sparse.threads = 0;
        o.sparse.cache = NULL;
        o.sparse.csc = 1;
        return fl_nsgs_solve_sparse(p, &o, r, U, res, err);
    }
    const int colored = opt->sparse.threads != 0;
    const int threads = colored ? fl_nsgs_colored_threads(opt->sparse.threads, p->nc) : 1;
    fl_nsgs_colored_cache own, *c = opt->sparse.cache ? opt->sparse.cache : &own;
    if (c == &own) fl_nsgs_colored_cache_init(&own);
    size_t *perm = malloc(p->nc * sizeof *perm);
    fl_status s = perm ? FL_OK : FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory");
    if (s == FL_OK) s = fl_nsgs_prepare(p, opt, r, perm, err);
    if (s == FL_OK && cache_matches(c, p, perm, colored)) c->reuses++;
    else if (s == FL_OK) s = cache_build(c, p, perm, colored, err);
    free(perm);
    layout *L = s == FL_OK ? c->layout : NULL;
    double wmax = 0, normq = gsl_blas_dnrm2(p->q);
    if (L) {
        layout_gather(L, p, &c->col, r->data, threads);
        s = layout_check(L, p, &wmax, err);
    }
    if (L && s == FL_OK && opt->time_limit > 0 && !L->rbest) {
        L->rbest = malloc(L->m * sizeof *L->rbest);
        if (!L->rbest) s = FL_FAIL(err, FL_ENOMEM, "nsgs_colored: out of memory");
    }
    if (L && s == FL_OK)
        s = colored_iterate(L, &c->col, opt, threads, wmax, normq, t0, r, res, err);
    if (L && (s >= 0 || s == FL_ENOCONV)) {
        unpermute(L, &c->col, L->r, r->data);
        if (U && s >= 0) unpermute(L, &c->col, L->U, U->data);
    }
    if (c == &own) fl_nsgs_colored_cache_clear(&own);
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    return s;
}
