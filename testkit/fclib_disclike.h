/* fclib_disclike.h — the "disc-like" random granular problems shared by
 * bench/bench_fclib_siconos.c and tests/test_siconos_fc.c (header-only,
 * static functions).
 *
 * nc contacts between nb = nc rigid bodies of 6 degrees of freedom with unit
 * mass and inertia (M = I); contact k joins body i and a near neighbour
 * j = i + 1..3 (mod nb), or body i and the ground (probability 0.2), with a
 * random unit normal n, tangents t1, t2 and lever arms -+ n/2, so that
 * U = H u with the rows of H:  e . (v_j + w_j x b_j - v_i - w_i x a_i),
 * e in {n, t1, t2} (003 §3: U = H u, W = H M^-1 H^T).  W = H H^T (sparse,
 * banded by the neighbour structure), q = H u_free with u_free Gaussian,
 * mu uniform in [0.1, 1].  p->Ws on ctx, and the dense p->W when 3 nc <= 2000
 * (above, a dense W would not fit: 1e4 contacts make 7.2 GB).
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_FCLIB_DISCLIKE_H
#define FL_FCLIB_DISCLIKE_H

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>

#include "fl_problem.h"
#include "fl_sparse.h"

static void unit_random(gsl_rng *rng, double *x)
{
    gsl_ran_dir_3d(rng, &x[0], &x[1], &x[2]);
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The disc-like problem described above; p->Ws (on ctx) and p->W. */
static fl_local_problem *fl_disclike_problem(gsl_rng *rng, fl_sparse_ctx *ctx, size_t nc)
{
    size_t nb = nc, n = 6 * nb, m = 3 * nc;
    size_t cap = m * 12;
    int *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *vx = malloc(cap * sizeof *vx);
    size_t nnz = 0;
    for (size_t k = 0; k < nc; k++) {
        size_t i = gsl_rng_uniform_int(rng, nb);
        int ground = gsl_rng_uniform(rng) < 0.2;
        size_t j = (i + 1 + gsl_rng_uniform_int(rng, 3)) % nb;
        double e[3][3], a[3], b[3], ax[3];
        unit_random(rng, e[0]);
        /* tangents: any orthonormal completion */
        double h[3] = {1, 0, 0};
        if (fabs(e[0][0]) > 0.9) h[0] = 0, h[1] = 1;
        cross(e[0], h, e[1]);
        double nn = sqrt(e[1][0] * e[1][0] + e[1][1] * e[1][1] + e[1][2] * e[1][2]);
        for (int c = 0; c < 3; c++) e[1][c] /= nn;
        cross(e[0], e[1], e[2]);
        for (int c = 0; c < 3; c++) {
            a[c] = 0.5 * e[0][c];
            b[c] = -0.5 * e[0][c];
        }
        for (int r = 0; r < 3; r++) {
            int row = (int)(3 * k) + r;
            if (!ground) {   /* body j: +e . v_j + (b x e) . w_j */
                cross(b, e[r], ax);
                for (int c = 0; c < 3; c++) {
                    ri[nnz] = row, ci[nnz] = (int)(6 * j) + c, vx[nnz++] = e[r][c];
                    ri[nnz] = row, ci[nnz] = (int)(6 * j) + 3 + c, vx[nnz++] = ax[c];
                }
            }
            cross(a, e[r], ax);   /* body i: -e . v_i - (a x e) . w_i */
            for (int c = 0; c < 3; c++) {
                ri[nnz] = row, ci[nnz] = (int)(6 * i) + c, vx[nnz++] = -e[r][c];
                ri[nnz] = row, ci[nnz] = (int)(6 * i) + 3 + c, vx[nnz++] = -ax[c];
            }
        }
    }
    cholmod_sparse *H = NULL;
    fl_local_problem *p = NULL;
    if (fl_sparse_from_triplet(ctx, m, n, nnz, ri, ci, vx, 0, &H, NULL) != FL_OK ||
        fl_local_problem_alloc(nc, 3, 0, &p, NULL) != FL_OK)
        goto fail;
    p->ctx = ctx;
    /* W = H H^T (M = I), full symmetric storage */
    cholmod_sparse *W = cholmod_aat(H, NULL, 0, 1, &ctx->cm);
    if (!W) goto fail;
    W->stype = 0;
    p->Ws = W;
    double *u = malloc(n * sizeof *u);
    for (size_t k = 0; k < n; k++) u[k] = gsl_ran_gaussian(rng, 1.0);
    fl_sparse_mv(ctx, H, 0, 1.0, u, 0.0, p->q->data, NULL);
    free(u);
    for (size_t k = 0; k < nc; k++) p->mu[k] = 0.1 + 0.9 * gsl_rng_uniform(rng);
    if (m <= 2000 && fl_sparse_to_dense(ctx, p->Ws, &p->W, NULL) != FL_OK) goto fail;
    fl_sparse_free(ctx, &H);
    free(ri);
    free(ci);
    free(vx);
    return p;
fail:
    fl_sparse_free(ctx, &H);
    fl_local_problem_free(p);
    free(ri);
    free(ci);
    free(vx);
    return NULL;
}

#endif
