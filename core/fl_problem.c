/* fl_problem.c — FCLIB local and global frictional contact problems
 * (see fl_problem.h for the conventions). */
#include "fl_problem.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"

/* Checked allocation (fl_dense.h: NULL, never an abort, on failure).
 * A 0-length vector / matrix: GSL refuses to allocate size 0, but a struct
 * with size 0, no data and owner 0 is a valid view that gsl_*_free frees. */
static gsl_vector *vector_calloc(size_t n)
{
    if (n > 0) return fl_dense_vector_calloc(n);
    gsl_vector *v = calloc(1, sizeof *v);
    if (v) v->stride = 1;
    return v;
}

static gsl_matrix *matrix_calloc(size_t n1, size_t n2)
{
    if (n1 > 0 && n2 > 0) return fl_dense_matrix_calloc(n1, n2);
    gsl_matrix *A = calloc(1, sizeof *A);
    if (A) {
        A->size1 = n1;
        A->size2 = n2;
        A->tda = n2 ? n2 : 1;
    }
    return A;
}

fl_status fl_local_problem_alloc(size_t nc, int dim, int dense,
                                 fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "local problem: NULL output");
    *out = NULL;
    if (dim != 2 && dim != 3)
        return FL_FAIL(err, FL_EINVAL, "local problem: dim must be 2 or 3, got %d", dim);
    if (nc > SIZE_MAX / 64 / (size_t)dim)
        return FL_FAIL(err, FL_EINVAL, "local problem: %zu contacts is too many", nc);
    if (dense && nc > 0 && (size_t)dim * nc > SIZE_MAX / sizeof(double) / ((size_t)dim * nc))
        return FL_FAIL(err, FL_ENOMEM, "local problem: a dense W of order %zu cannot be "
                       "addressed", (size_t)dim * nc);
    fl_local_problem *p = calloc(1, sizeof *p);
    if (!p) return FL_FAIL(err, FL_ENOMEM, "local problem: out of memory");
    p->nc = nc;
    p->dim = dim;
    p->m = (size_t)dim * nc;
    p->q = vector_calloc(p->m);
    p->mu = nc ? calloc(nc, sizeof *p->mu) : NULL;
    if (dense) p->W = matrix_calloc(p->m, p->m);
    if (!p->q || (nc && !p->mu) || (dense && !p->W)) {
        fl_local_problem_free(p);
        return FL_FAIL(err, FL_ENOMEM, "local problem: out of memory");
    }
    *out = p;
    return FL_OK;
}

void fl_local_problem_free(fl_local_problem *p)
{
    if (!p) return;
    if (p->W) gsl_matrix_free(p->W);
    if (p->Ws && p->ctx) fl_sparse_free(p->ctx, &p->Ws);
    if (p->q) gsl_vector_free(p->q);
    free(p->mu);
    free(p);
}

fl_status fl_global_problem_alloc(size_t n, size_t nc, int dim, int dense,
                                  fl_global_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "global problem: NULL output");
    *out = NULL;
    if (dim != 2 && dim != 3)
        return FL_FAIL(err, FL_EINVAL, "global problem: dim must be 2 or 3, got %d", dim);
    if (n == 0) return FL_FAIL(err, FL_EINVAL, "global problem: n = 0 degrees of freedom");
    if (nc > SIZE_MAX / 64 / (size_t)dim || n > SIZE_MAX / 64)
        return FL_FAIL(err, FL_EINVAL, "global problem: n = %zu, nc = %zu is too many", n, nc);
    if (dense && (n > SIZE_MAX / sizeof(double) / n ||
                  (nc && (size_t)dim * nc > SIZE_MAX / sizeof(double) / n)))
        return FL_FAIL(err, FL_ENOMEM, "global problem: dense M, H of n = %zu, nc = %zu "
                       "cannot be addressed", n, nc);
    fl_global_problem *g = calloc(1, sizeof *g);
    if (!g) return FL_FAIL(err, FL_ENOMEM, "global problem: out of memory");
    g->n = n;
    g->nc = nc;
    g->dim = dim;
    g->m = (size_t)dim * nc;
    g->f = fl_dense_vector_calloc(n);
    g->w = vector_calloc(g->m);
    g->mu = nc ? calloc(nc, sizeof *g->mu) : NULL;
    if (dense) {
        g->M = fl_dense_matrix_calloc(n, n);
        g->H = matrix_calloc(g->m, n);
    }
    if (!g->f || !g->w || (nc && !g->mu) || (dense && (!g->M || !g->H))) {
        fl_global_problem_free(g);
        return FL_FAIL(err, FL_ENOMEM, "global problem: out of memory");
    }
    *out = g;
    return FL_OK;
}

void fl_global_problem_free(fl_global_problem *g)
{
    if (!g) return;
    if (g->M) gsl_matrix_free(g->M);
    if (g->H) gsl_matrix_free(g->H);
    if (g->ctx) {
        fl_sparse_free(g->ctx, &g->Ms);
        fl_sparse_free(g->ctx, &g->Hs);
    }
    if (g->f) gsl_vector_free(g->f);
    if (g->w) gsl_vector_free(g->w);
    free(g->mu);
    free(g);
}

fl_read_options fl_read_options_default(void)
{
    fl_read_options o;
    o.max_bytes = FL_READ_MAX_BYTES_DEFAULT;
    return o;
}

static fl_status check_mu(const double *mu, size_t nc, const char *what, fl_error *err)
{
    if (nc && !mu) return FL_FAIL(err, FL_EINVAL, "%s: mu missing", what);
    for (size_t a = 0; a < nc; a++)
        if (!isfinite(mu[a]) || mu[a] < 0)
            return FL_FAIL(err, isfinite(mu[a]) ? FL_EINVAL : FL_ENONFINITE,
                           "%s: mu[%zu] = %g must be finite and >= 0", what, a, mu[a]);
    return FL_OK;
}

static fl_status check_finite_vec(const gsl_vector *v, const char *what, fl_error *err)
{
    if (v->size == 0) return FL_OK;
    return fl_check_finite_vector(v, what, err);
}

/* Finite entries and shape of a sparse matrix. */
static fl_status check_sparse(const cholmod_sparse *A, fl_sparse_ctx *ctx, size_t nrow,
                              size_t ncol, const char *what, fl_error *err)
{
    if (!ctx) return FL_FAIL(err, FL_EINVAL, "%s: sparse matrix without its context", what);
    if (A->nrow != nrow || A->ncol != ncol || A->xtype != CHOLMOD_REAL)
        return FL_FAIL(err, FL_EDIM, "%s is %zux%zu, expected a real %zux%zu matrix", what,
                       A->nrow, A->ncol, nrow, ncol);
    const double *x = A->x;
    size_t nz = cholmod_nnz((cholmod_sparse *)A, &ctx->cm);
    for (size_t k = 0; k < nz; k++)
        if (!isfinite(x[k])) return FL_FAIL(err, FL_ENONFINITE, "%s has a NaN/Inf entry", what);
    return FL_OK;
}

fl_status fl_local_problem_check(const fl_local_problem *p, fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "local problem: NULL");
    if ((p->dim != 2 && p->dim != 3) || p->m != (size_t)p->dim * p->nc)
        return FL_FAIL(err, FL_EINVAL, "local problem: inconsistent dim %d, nc %zu, m %zu",
                       p->dim, p->nc, p->m);
    if (!p->q || p->q->size != p->m)
        return FL_FAIL(err, FL_EDIM, "local problem: q must have length %zu", p->m);
    FL_TRY(check_finite_vec(p->q, "q", err));
    FL_TRY(check_mu(p->mu, p->nc, "local problem", err));
    if (!p->W && !p->Ws) return FL_FAIL(err, FL_EINVAL, "local problem: W missing");
    if (p->W) {
        if (p->W->size1 != p->m || p->W->size2 != p->m)
            return FL_FAIL(err, FL_EDIM, "local problem: W is %zux%zu, expected %zux%zu",
                           p->W->size1, p->W->size2, p->m, p->m);
        if (p->m) FL_TRY(fl_check_finite_matrix(p->W, "W", err));
    }
    if (p->Ws) {
        if (p->Ws->stype != 0)
            return FL_FAIL(err, FL_EDIM, "local problem: sparse W must have unsymmetric "
                           "(full) storage");
        FL_TRY(check_sparse(p->Ws, p->ctx, p->m, p->m, "local problem: sparse W", err));
    }
    return FL_OK;
}

fl_status fl_local_problem_asymmetry(const fl_local_problem *p, double *asym, size_t *i,
                                     size_t *j, double *scale, fl_error *err)
{
    FL_TRY(fl_local_problem_check(p, err));
    double worst = 0, big = 0;
    size_t wi = 0, wj = 0;
    if (p->W) {
        for (size_t a = 0; a < p->m; a++)
            for (size_t b = 0; b <= a; b++) {
                double x = gsl_matrix_get(p->W, a, b), y = gsl_matrix_get(p->W, b, a);
                big = fmax(big, fmax(fabs(x), fabs(y)));
                if (fabs(x - y) > worst) {
                    worst = fabs(x - y);
                    wi = a;
                    wj = b;
                }
            }
    } else {
        cholmod_common *cm = &p->ctx->cm;
        cholmod_sparse *T = cholmod_transpose(p->Ws, 1, cm);
        double one[2] = {1, 0}, minus[2] = {-1, 0};
        cholmod_sparse *D = T ? cholmod_add(p->Ws, T, one, minus, 1, 0, cm) : NULL;
        if (!D) {
            cholmod_free_sparse(&T, cm);
            return FL_FAIL(err, FL_ENOMEM, "local problem: out of memory (W - W^T)");
        }
        const int *Dp = D->p, *Di = D->i;
        const double *Dx = D->x;
        for (size_t c = 0; c < D->ncol; c++)
            for (int k = Dp[c]; k < Dp[c + 1]; k++)
                if (fabs(Dx[k]) > worst) {
                    worst = fabs(Dx[k]);
                    wi = (size_t)Di[k] > c ? (size_t)Di[k] : c;
                    wj = (size_t)Di[k] > c ? c : (size_t)Di[k];
                }
        size_t nz = cholmod_nnz(p->Ws, cm);
        const double *x = p->Ws->x;
        for (size_t k = 0; k < nz; k++) big = fmax(big, fabs(x[k]));
        cholmod_free_sparse(&D, cm);
        cholmod_free_sparse(&T, cm);
    }
    if (asym) *asym = worst;
    if (i) *i = wi;
    if (j) *j = wj;
    if (scale) *scale = big;
    return FL_OK;
}

fl_status fl_local_problem_check_symmetric(const fl_local_problem *p, const char *who,
                                           fl_error *err)
{
    double asym, scale;
    size_t i, j;
    FL_TRY(fl_local_problem_asymmetry(p, &asym, &i, &j, &scale, err));
    if (asym > FL_SYMMETRY_RTOL * scale)
        return FL_FAIL(err, FL_EINVAL,
                       "%s needs a symmetric W: largest asymmetry |W(%zu,%zu) - W(%zu,%zu)| = "
                       "%.3g = %.3g max|W| (tolerance %g relative)", who ? who : "this solver",
                       i, j, j, i, asym, scale > 0 ? asym / scale : INFINITY, FL_SYMMETRY_RTOL);
    return FL_OK;
}

typedef struct sym_entry {
    int r, c;        /* r >= c */
    double v;        /* +A_rc or -A_cr */
} sym_entry;

static int sym_cmp(const void *a, const void *b)
{
    const sym_entry *x = a, *y = b;
    if (x->r != y->r) return x->r < y->r ? -1 : 1;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return 0;
}

fl_status fl_triplet_asymmetry(size_t nnz, const int *row, const int *col, const double *val,
                               double *asym, size_t *i, size_t *j, double *scale,
                               fl_error *err)
{
    double worst = 0, big = 0;
    size_t wi = 0, wj = 0;
    sym_entry *e = malloc((nnz ? nnz : 1) * sizeof *e);
    sym_entry *a = malloc((nnz ? nnz : 1) * sizeof *a);
    if (!e || !a) {
        free(e);
        free(a);
        return FL_FAIL(err, FL_ENOMEM, "symmetry check: out of memory");
    }
    /* A_ij - A_ji summed per unordered pair {i, j}, i != j */
    size_t k = 0;
    for (size_t t = 0; t < nnz; t++) {
        a[t].r = row[t];
        a[t].c = col[t];
        a[t].v = val[t];
        if (row[t] == col[t]) continue;
        e[k].r = row[t] > col[t] ? row[t] : col[t];
        e[k].c = row[t] > col[t] ? col[t] : row[t];
        e[k++].v = row[t] > col[t] ? val[t] : -val[t];
    }
    qsort(e, k, sizeof *e, sym_cmp);
    for (size_t t = 0; t < k;) {
        size_t u = t;
        double d = 0;
        while (u < k && e[u].r == e[t].r && e[u].c == e[t].c) d += e[u++].v;
        if (fabs(d) > worst) {
            worst = fabs(d);
            wi = (size_t)e[t].r;
            wj = (size_t)e[t].c;
        }
        t = u;
    }
    /* max |A_ij| of the summed matrix */
    qsort(a, nnz, sizeof *a, sym_cmp);
    for (size_t t = 0; t < nnz;) {
        size_t u = t;
        double d = 0;
        while (u < nnz && a[u].r == a[t].r && a[u].c == a[t].c) d += a[u++].v;
        big = fmax(big, fabs(d));
        t = u;
    }
    free(e);
    free(a);
    if (asym) *asym = worst;
    if (i) *i = wi;
    if (j) *j = wj;
    if (scale) *scale = big;
    return FL_OK;
}

fl_status fl_triplet_symmetrize(size_t *nnz, int **row, int **col, double **val,
                                fl_error *err)
{
    size_t n = *nnz, off = 0;
    for (size_t k = 0; k < n; k++) off += (*row)[k] != (*col)[k];
    size_t cap = n + off ? n + off : 1;
    int *r = malloc(cap * sizeof *r), *c = malloc(cap * sizeof *c);
    double *v = malloc(cap * sizeof *v);
    if (!r || !c || !v) {
        free(r);
        free(c);
        free(v);
        return FL_FAIL(err, FL_ENOMEM, "symmetrize: out of memory");
    }
    size_t t = 0;
    for (size_t k = 0; k < n; k++) {
        int i = (*row)[k], j = (*col)[k];
        double x = (*val)[k];
        if (i == j) {
            r[t] = i;
            c[t] = j;
            v[t++] = x;
            continue;
        }
        r[t] = i;   /* (A + A^T)/2: A_ij/2 at (i,j) and at (j,i) */
        c[t] = j;
        v[t++] = 0.5 * x;
        r[t] = j;
        c[t] = i;
        v[t++] = 0.5 * x;
    }
    free(*row);
    free(*col);
    free(*val);
    *row = r;
    *col = c;
    *val = v;
    *nnz = t;
    return FL_OK;
}

fl_status fl_global_problem_check(const fl_global_problem *g, fl_error *err)
{
    if (!g) return FL_FAIL(err, FL_EINVAL, "global problem: NULL");
    if ((g->dim != 2 && g->dim != 3) || g->n == 0 || g->m != (size_t)g->dim * g->nc)
        return FL_FAIL(err, FL_EINVAL, "global problem: inconsistent dim %d, n %zu, nc %zu, "
                       "m %zu", g->dim, g->n, g->nc, g->m);
    if (!g->f || g->f->size != g->n || !g->w || g->w->size != g->m)
        return FL_FAIL(err, FL_EDIM, "global problem: f must have length %zu and w %zu",
                       g->n, g->m);
    FL_TRY(check_finite_vec(g->f, "f", err));
    FL_TRY(check_finite_vec(g->w, "w", err));
    FL_TRY(check_mu(g->mu, g->nc, "global problem", err));
    if (!g->M && !g->Ms) return FL_FAIL(err, FL_EINVAL, "global problem: M missing");
    if (!g->H && !g->Hs) return FL_FAIL(err, FL_EINVAL, "global problem: H missing");
    if (g->M) {
        if (g->M->size1 != g->n || g->M->size2 != g->n)
            return FL_FAIL(err, FL_EDIM, "global problem: M is %zux%zu, expected %zux%zu",
                           g->M->size1, g->M->size2, g->n, g->n);
        FL_TRY(fl_check_finite_matrix(g->M, "M", err));
        double big = 0, worst = 0;
        size_t wi = 0, wj = 0;
        for (size_t a = 0; a < g->n; a++)
            for (size_t b = 0; b <= a; b++) {
                double x = gsl_matrix_get(g->M, a, b), y = gsl_matrix_get(g->M, b, a);
                big = fmax(big, fmax(fabs(x), fabs(y)));
                if (fabs(x - y) > worst) {
                    worst = fabs(x - y);
                    wi = a;
                    wj = b;
                }
            }
        if (worst > FL_SYMMETRY_RTOL * big)
            return FL_FAIL(err, FL_EINVAL, "global problem: M not symmetric: |M(%zu,%zu) - "
                           "M(%zu,%zu)| = %.3g = %.3g max|M| (tolerance %g relative)", wi, wj,
                           wj, wi, worst, worst / big, FL_SYMMETRY_RTOL);
    }
    if (g->H && (g->H->size1 != g->m || g->H->size2 != g->n))
        return FL_FAIL(err, FL_EDIM, "global problem: H is %zux%zu, expected %zux%zu",
                       g->H->size1, g->H->size2, g->m, g->n);
    if (g->H && g->m) FL_TRY(fl_check_finite_matrix(g->H, "H", err));
    if (g->Ms) FL_TRY(check_sparse(g->Ms, g->ctx, g->n, g->n, "global problem: sparse M", err));
    if (g->Hs) FL_TRY(check_sparse(g->Hs, g->ctx, g->m, g->n, "global problem: sparse H", err));
    return FL_OK;
}

fl_status fl_local_problem_velocity(const fl_local_problem *p, const gsl_vector *r,
                                    gsl_vector *U, fl_error *err)
{
    if (!p || !r || !U || r->size != p->m || U->size != p->m)
        return FL_FAIL(err, FL_EDIM, "local velocity: vectors must have length %zu",
                       p ? p->m : 0);
    if (p->m == 0) return FL_OK;
    gsl_vector_memcpy(U, p->q);
    if (p->W) {
        gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, r, 1.0, U);
        return FL_OK;
    }
    if (!p->Ws || !p->ctx) return FL_FAIL(err, FL_EINVAL, "local velocity: W missing");
    if (r->stride != 1 || U->stride != 1)
        return FL_FAIL(err, FL_EINVAL, "local velocity: vectors must be contiguous");
    return fl_sparse_mv(p->ctx, p->Ws, 0, 1.0, r->data, 1.0, U->data, err);
}

double fl_coulomb_violation(int dim, size_t nc, const double *mu, const double *r,
                            const double *U, double rs, double us)
{
    double worst = 0.0;
    for (size_t a = 0; a < nc; a++) {
        const double *ra = r + (size_t)dim * a, *Ua = U + (size_t)dim * a;
        double rT = dim == 2 ? fabs(ra[1]) : hypot(ra[1], ra[2]);
        double UT = dim == 2 ? fabs(Ua[1]) : hypot(Ua[1], Ua[2]);
        double v[5];
        v[0] = fmax(0.0, -ra[0]) / rs;
        v[1] = fmax(0.0, rT - mu[a] * ra[0]) / rs;
        v[2] = fmax(0.0, -Ua[0]) / us;
        v[3] = fmax(0.0, fmin(ra[0] / rs, Ua[0] / us));
        /* stick (U_T = 0) or slide with r_T = -mu r_N U_T/|U_T| */
        double align = 0.0;
        if (UT > 0) {
            for (int k = 1; k < dim; k++) {
                double e = ra[k] + mu[a] * fmax(ra[0], 0.0) * Ua[k] / UT;
                align += e * e;
            }
            align = sqrt(align) / rs;
        }
        v[4] = fmin(UT / us, align);
        for (int k = 0; k < 5; k++)
            if (!(v[k] <= worst)) worst = v[k];   /* NaN propagates */
    }
    return worst;
}

fl_status fl_global_problem_random(gsl_rng *r, size_t n, size_t nc, int dim, double mu_lo,
                                   double mu_hi, fl_global_problem **out, fl_error *err)
{
    if (!r) return FL_FAIL(err, FL_EINVAL, "random problem: NULL generator");
    if (!(mu_lo > 0 && mu_hi >= mu_lo))
        return FL_FAIL(err, FL_EINVAL, "random problem: need 0 < mu_lo <= mu_hi");
    FL_TRY(fl_global_problem_alloc(n, nc, dim, 1, out, err));
    fl_global_problem *g = *out;
    gsl_matrix *B = fl_dense_matrix_alloc(n, n);
    if (!B) {
        fl_global_problem_free(g);
        *out = NULL;
        return FL_FAIL(err, FL_ENOMEM, "random problem: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) gsl_matrix_set(B, i, j, gsl_ran_gaussian(r, 1.0));
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0 / (double)n, B, B, 0.0, g->M);
    for (size_t i = 0; i < n; i++) *gsl_matrix_ptr(g->M, i, i) += 0.1;
    gsl_matrix_free(B);
    for (size_t i = 0; i < g->m; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(g->H, i, j, gsl_ran_gaussian(r, 1.0) / sqrt((double)n));
    for (size_t i = 0; i < n; i++) gsl_vector_set(g->f, i, gsl_ran_gaussian(r, 1.0));
    for (size_t a = 0; a < nc; a++)
        g->mu[a] = exp(log(mu_lo) + (log(mu_hi) - log(mu_lo)) * gsl_rng_uniform(r));
    return FL_OK;
}
