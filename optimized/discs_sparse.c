/* discs_sparse.c — cell-list contact detection for the discs of
 * reference/discs.h (003 §5 periodic band; 003 §2–5; 003 §3–5).
 *
 * Cells of side c = 2 max R + margin cover the centres; two discs closer
 * than the margin lie in the same or in adjacent cells, so each disc i is
 * tested against the discs j > i of its 3 x 3 block of cells (O(N) work
 * for a packing).  In a periodic band the cell columns wrap around and the
 * column crossed at x = +-a gives the image shift of j (x_j + 2 a shift,
 * 003 §5).  With two columns only, a pair may be met twice with the same
 * shift; duplicates are removed after sorting.  The contacts and their order
 * are those of fl_discs_detect (the all-pairs reference); the rest of the
 * optimized step (CHOLMOD H and Delassus W, sparse Gauss–Seidel) is
 * selected by fl_impl in reference/discs.c.
 */
#include "optimized/discs_sparse.h"
#include "optimized/delassus_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_vector.h>

fl_status fl_discs_detect_cells(const fl_discs *d, fl_disc_contact **out, size_t *nc,
                                fl_error *err)
{
    if (!out || !nc) return FL_FAIL(err, FL_EINVAL, "discs: NULL output");
    *out = NULL;
    *nc = 0;
    FL_TRY(fl_discs_check(d, err));
    size_t N = d->N;
    double Rmax = 0, xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < N; i++) {
        Rmax = fmax(Rmax, d->R[i]);
        xmin = fmin(xmin, d->x[i]);
        xmax = fmax(xmax, d->x[i]);
        ymin = fmin(ymin, d->y[i]);
        ymax = fmax(ymax, d->y[i]);
    }
    double cs = 2 * Rmax + d->margin;
    double x0 = xmin, cx = cs, cy = cs;
    size_t ncx, ncy;
    if (d->periodic) {
        x0 = -d->a;
        ncx = (size_t)floor(2 * d->a / cs);   /* >= 2 by fl_discs_check */
        cx = 2 * d->a / ncx;                  /* >= cs */
    } else {
        /* at most about 2 sqrt(N) + 1 columns and rows of cells per side of
         * the bounding box beyond which cells are enlarged (sparse outliers) */
        double lim = 4.0 * N + 16;
        if ((xmax - xmin) / cx > lim) cx = (xmax - xmin) / lim;
        ncx = (size_t)floor((xmax - xmin) / cx) + 1;
    }
    if ((ymax - ymin) / cy > 4.0 * N + 16) cy = (ymax - ymin) / (4.0 * N + 16);
    ncy = (size_t)floor((ymax - ymin) / cy) + 1;
    size_t ncell = ncx * ncy;
    size_t *head = malloc((ncell + 1) * sizeof *head);
    size_t *cell = malloc(N * sizeof *cell), *order = malloc(N * sizeof *order);
    size_t cap = 4 * N + 16, n = 0;
    fl_disc_contact *c = malloc(cap * sizeof *c);
    if (!head || !cell || !order || !c) goto oom;
    /* counting sort of the discs by cell */
    memset(head, 0, (ncell + 1) * sizeof *head);
    for (size_t i = 0; i < N; i++) {
        size_t ix = (size_t)floor((d->x[i] - x0) / cx), iy = (size_t)floor((d->y[i] - ymin) / cy);
        if (ix >= ncx) ix = ncx - 1;
        if (iy >= ncy) iy = ncy - 1;
        cell[i] = iy * ncx + ix;
        head[cell[i] + 1]++;
    }
    for (size_t k = 0; k < ncell; k++) head[k + 1] += head[k];
    {
        size_t *fill = malloc(ncell * sizeof *fill);
        if (!fill) goto oom;
        memcpy(fill, head, ncell * sizeof *fill);
        for (size_t i = 0; i < N; i++) order[fill[cell[i]]++] = i;
        free(fill);
    }
    for (size_t i = 0; i < N; i++) {
        if (n + 3 > cap) {
            cap *= 2;
            fl_disc_contact *nc2 = realloc(c, cap * sizeof *c);
            if (!nc2) goto oom;
            c = nc2;
        }
        n += fl_discs_obstacle_contacts(d, i, c + n);
        long ix = (long)(cell[i] % ncx), iy = (long)(cell[i] / ncx);
        for (long dy = -1; dy <= 1; dy++) {
            long jy = iy + dy;
            if (jy < 0 || jy >= (long)ncy) continue;
            for (long dx = -1; dx <= 1; dx++) {
                long jx = ix + dx;
                int shift = 0;
                if (jx < 0 || jx >= (long)ncx) {
                    if (!d->periodic) continue;
                    shift = jx < 0 ? -1 : 1;   /* the column across x = -a or x = +a */
                    jx = jx < 0 ? jx + (long)ncx : jx - (long)ncx;
                }
                size_t k = (size_t)jy * ncx + (size_t)jx;
                for (size_t q = head[k]; q < head[k + 1]; q++) {
                    size_t j = order[q];
                    if (j <= i) continue;
                    if (n + 1 > cap) {
                        cap *= 2;
                        fl_disc_contact *nc2 = realloc(c, cap * sizeof *c);
                        if (!nc2) goto oom;
                        c = nc2;
                    }
                    n += (size_t)fl_discs_pair_contact(d, i, j, shift, c + n);
                }
            }
        }
    }
    fl_discs_contacts_sort(c, n);
    /* duplicates (two columns of cells in a periodic band) */
    size_t u = 0;
    for (size_t k = 0; k < n; k++)
        if (u == 0 || c[u - 1].i != c[k].i || c[u - 1].j != c[k].j ||
            c[u - 1].kind != c[k].kind || c[u - 1].shift != c[k].shift)
            c[u++] = c[k];
    free(head);
    free(cell);
    free(order);
    if (u == 0) {
        free(c);
        c = NULL;
    }
    *out = c;
    *nc = u;
    return FL_OK;
oom:
    free(head);
    free(cell);
    free(order);
    free(c);
    return FL_FAIL(err, FL_ENOMEM, "discs: out of memory in cell-list detection");
}

/* Delassus operator of the discs (003 §3, 003 §3) for the diagonal
 * mass matrix: W = H M^-1 H^T = (H D)(H D)^T with D = M^-1/2 (CHOLMOD's
 * A A^T, linear in the number of contacts), q = H M^-1 f + w.  Same W and q
 * as fl_delassus_dense / fl_delassus_sparse (tests/test_discs.c). */
fl_status fl_discs_delassus_diag(const fl_discs *d, const fl_global_problem *g,
                                 fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "discs: NULL output");
    *out = NULL;
    if (!d || !g || !g->Hs || !g->ctx || g->n != 3 * d->N)
        return FL_FAIL(err, FL_EINVAL, "discs: sparse H, context and n = 3N required");
    cholmod_common *cm = &g->ctx->cm;
    size_t n = g->n;
    double *dm = malloc(n * sizeof *dm), *y = malloc(n * sizeof *y);
    fl_local_problem *p = NULL;
    cholmod_sparse *HD = NULL;
    fl_status s = dm && y ? FL_OK : FL_FAIL(err, FL_ENOMEM, "discs: out of memory");
    if (s == FL_OK) {
        for (size_t i = 0; i < d->N; i++) {
            double mm[3] = {d->m[i], d->m[i], d->I[i]};
            for (int k = 0; k < 3; k++) {
                dm[3 * i + k] = 1 / sqrt(mm[k]);
                y[3 * i + k] = gsl_vector_get(g->f, 3 * i + k) / mm[k];
            }
        }
        s = fl_local_problem_alloc(g->nc, 2, 0, &p, err);
    }
    if (s == FL_OK) {
        HD = cholmod_copy_sparse(g->Hs, cm);
        cholmod_dense Dv;
        memset(&Dv, 0, sizeof Dv);
        Dv.nrow = Dv.d = Dv.nzmax = n;
        Dv.ncol = 1;
        Dv.x = dm;
        Dv.xtype = CHOLMOD_REAL;
        Dv.dtype = CHOLMOD_DOUBLE;
        if (!HD || !cholmod_scale(&Dv, CHOLMOD_COL, HD, cm)) {
            s = FL_FAIL(err, fl_sparse_failure(cm), "discs: cholmod_scale failed");
        } else {
            p->Ws = cholmod_aat(HD, NULL, 0, 1, cm);
            if (!p->Ws || !cholmod_sort(p->Ws, cm))
                s = FL_FAIL(err, fl_sparse_failure(cm), "discs: cholmod_aat failed");
            else p->Ws->stype = 0;
        }
    }
    if (s == FL_OK) {
        p->ctx = g->ctx;
        memcpy(p->mu, g->mu, g->nc * sizeof *p->mu);
        s = fl_sparse_mv(g->ctx, g->Hs, 0, 1.0, y, 0.0, p->q->data, err);
        if (s == FL_OK) gsl_vector_add(p->q, g->w);
    }
    cholmod_free_sparse(&HD, cm);
    free(dm);
    free(y);
    if (s != FL_OK) {
        if (p && p->Ws) cholmod_free_sparse(&p->Ws, cm);
        fl_local_problem_free(p);
        return s;
    }
    *out = p;
    return FL_OK;
}
