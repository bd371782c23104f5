/* moreau_law_sparse.c — Moreau's discrete contact law S(q,v) (000 §2) with a
 * sparse M(q) through CHOLMOD: the twin of reference/moreau_law.c, same
 * signature and result (fl_moreau_law_fn).
 *
 * One factorisation of M(q) per call (or none when the caller passes the
 * factor in p->Lsp), k+1 solves for M^-1 n and M^-1 t_j, the (k+1)x(k+1)
 * Delassus matrix G = H^T M^-1 H by dot products, the shared local problem
 * fl_moreau_local_solve, then u = v + rho M^-1 n + sum_j s_j M^-1 t_j with
 * no further solve.  No dense d x d object on the path.
 *
 * Limitation: the isotropic ball of 000 §1 has dimension d-1, so its local
 * problem has size d: it is handled for d <= FL_MOREAU_SPARSE_BALL_MAX (d
 * solves, a d x d Delassus matrix) and refused with FL_EUNSUPPORTED above,
 * where the local problem is no longer small (use FL_MOREAU_SET with a
 * tangent basis of dimension 1 or 2).
 */
#include "optimized/moreau_law_sparse.h"
#include "fl_dense.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_sparse.h"
#include "fl_clock.h"

fl_status fl_moreau_law_sparse(const fl_moreau_problem *p, const fl_moreau_options *opt,
                               gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                               fl_error *err)
{
    fl_moreau_result tmp;
    if (!res) res = &tmp;
    memset(res, 0, sizeof *res);
    fl_moreau_options o = opt ? *opt : fl_moreau_options_default();
    const double t0 = fl_clock_now();
    fl_status st = fl_moreau_check(p, 0, err);
    if (st == FL_OK && (!u || !r || u->size != p->d || r->size != p->d))
        st = FL_FAIL(err, FL_EDIM, "u and r must have length d = %zu", p->d);
    size_t k = 0;
    if (st == FL_OK) {
        if (p->friction == FL_MOREAU_ISOTROPIC) k = p->d - 1;
        else if (p->friction == FL_MOREAU_SET) k = (size_t)p->C->dim;
        if (p->friction == FL_MOREAU_ISOTROPIC && p->d > FL_MOREAU_SPARSE_BALL_MAX)
            st = FL_FAIL(err, FL_EUNSUPPORTED, "sparse law: the isotropic ball of dimension "
                         "d-1 = %zu > %d is not a small local problem (use FL_MOREAU_SET)", k,
                         FL_MOREAU_SPARSE_BALL_MAX - 1);
    }
    if (st != FL_OK) { res->status = st; return st; }

    const size_t d = p->d, m = k + 1;
    fl_sparse_ctx *ctx = p->ctx;
    cholmod_factor *L = p->Lsp;
    double *H = malloc(2 * m * d * sizeof *H);     /* columns n, t_j; then W times them */
    gsl_matrix *Tb = k ? fl_dense_matrix_alloc(d, k) : NULL;
    double *G = malloc((m * m + 2 * m) * sizeof *G);
    if (!H || !G || (k && !Tb)) { st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto out; }
    double *h = G + m * m, *x = h + m;
    double *WH = H + m * d;
    /* n = dphi/|dphi| (000 §1) */
    {
        double nd = gsl_blas_dnrm2(p->dgap);
        for (size_t i = 0; i < d; i++) H[i] = gsl_vector_get(p->dgap, i) / nd;
    }
    if (k) {
        if (p->friction == FL_MOREAU_ISOTROPIC) {
            gsl_vector_view nv = gsl_vector_view_array(H, d);
            fl_moreau_orthonormal_complement(&nv.vector, Tb);
        } else {
            gsl_matrix_memcpy(Tb, p->tangent);
        }
        for (size_t j = 0; j < k; j++)
            for (size_t i = 0; i < d; i++) H[(1 + j) * d + i] = gsl_matrix_get(Tb, i, j);
    }
    /* factor M(q) once (fill-reducing analysis inside fl_sparse_factor) */
    if (!L) {
        st = fl_sparse_factor(ctx, p->Msp, &L, err);
        if (st != FL_OK) goto out;
    }
    /* M^-1 n, M^-1 t_j */
    for (size_t j = 0; j < m; j++) {
        st = fl_sparse_solve(ctx, L, H + j * d, WH + j * d, err);
        if (st != FL_OK) goto out;
    }
    /* G = H^T W H (symmetrised), h = H^T v */
    for (size_t i = 0; i < m; i++) {
        double hv = 0;
        for (size_t l = 0; l < d; l++) hv += H[i * d + l] * gsl_vector_get(p->v, l);
        h[i] = hv;
        for (size_t j = 0; j <= i; j++) {
            double g1 = 0, g2 = 0;
            for (size_t l = 0; l < d; l++) {
                g1 += H[i * d + l] * WH[j * d + l];
                g2 += H[j * d + l] * WH[i * d + l];
            }
            G[i * m + j] = G[j * m + i] = 0.5 * (g1 + g2);
        }
    }
    fl_moreau_local lp = {k, G, h, p->friction == FL_MOREAU_ISOTROPIC, p->mu,
                          p->friction == FL_MOREAU_SET ? p->C : NULL};
    res->gamma = fl_moreau_local_gamma(&lp);
    if (p->gap > 0 || h[0] >= 0) {
        /* v in V(q): S(q, v) = v (000 §2) */
        res->branch = p->gap > 0 ? FL_MOREAU_FREE : FL_MOREAU_INWARD;
        gsl_vector_memcpy(u, p->v);
        gsl_vector_set_zero(r);
        goto out;
    }
    res->branch = FL_MOREAU_COLLISION;
    if (p->friction == FL_MOREAU_FRICTIONLESS) {
        x[0] = -h[0] / G[0];      /* 000 §1: u+_N = 0, u+_T = u-_T */
    } else {
        st = fl_moreau_local_solve(&lp, &o, x, res, err);
        if (st != FL_OK) goto out;
    }
    /* r = H x;  u = v + (W H) x  (no further solve) */
    {
        double un = 0;
        for (size_t i = 0; i < d; i++) {
            double ri = 0, wi = 0;
            for (size_t j = 0; j < m; j++) {
                ri += x[j] * H[j * d + i];
                wi += x[j] * WH[j * d + i];
            }
            gsl_vector_set(r, i, ri);
            double ui = gsl_vector_get(p->v, i) + wi;
            gsl_vector_set(u, i, ui);
            un += ui * H[i];
        }
        double nv = gsl_blas_dnrm2(p->v);
        res->residual = fmax(res->residual, nv > 0 ? fabs(un) / nv : fabs(un));
    }
    res->rho = x[0];
    res->s[0] = k >= 1 && p->friction == FL_MOREAU_SET ? x[1] : 0;
    res->s[1] = k >= 2 && p->friction == FL_MOREAU_SET ? x[2] : 0;
out:
    if (L && L != p->Lsp) fl_sparse_free_factor(ctx, &L);
    free(H);
    free(G);
    gsl_matrix_free(Tb);
    res->status = st;
    res->seconds = fl_clock_now() - t0;
    return st;
}
