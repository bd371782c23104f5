/* fl_random.c — random systems for property tests; see fl_random.h. */
#include "testkit/fl_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"
#include "fl_rng.h"
#include "testkit/fl_set_random.h"

static unsigned long current_seed;
static char seed_note[96];

gsl_rng *fl_test_rng(unsigned long fallback)
{
    const char *s = getenv("FL_SEED");
    current_seed = (s && *s) ? strtoul(s, NULL, 10) : fallback;
    snprintf(seed_note, sizeof seed_note, "seed %lu (rerun with FL_SEED=%lu)", current_seed,
             current_seed);
    return fl_rng_alloc(current_seed);
}

unsigned long fl_test_seed(void)
{
    return current_seed;
}

const char *fl_test_seed_note(void)
{
    return seed_note;
}

void fl_random_vector(gsl_rng *r, double scale, gsl_vector *v)
{
    for (size_t i = 0; i < v->size; i++) gsl_vector_set(v, i, gsl_ran_gaussian(r, scale));
}

void fl_random_unit(gsl_rng *r, gsl_vector *v)
{
    double n;
    do {
        fl_random_vector(r, 1.0, v);
        n = gsl_blas_dnrm2(v);
    } while (n < 1e-8);
    gsl_vector_scale(v, 1.0 / n);
}

fl_status fl_random_orthogonal(gsl_rng *r, gsl_matrix *Q)
{
    size_t n = Q->size1;
    gsl_matrix *A = fl_dense_matrix_alloc(n, n);
    gsl_vector *tau = fl_dense_vector_alloc(n);
    gsl_matrix *R = fl_dense_matrix_alloc(n, n);
    fl_status s = (A && tau && R) ? FL_OK : FL_ENOMEM;
    if (s == FL_OK) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) gsl_matrix_set(A, i, j, gsl_ran_gaussian(r, 1.0));
        gsl_linalg_QR_decomp(A, tau);
        gsl_linalg_QR_unpack(A, tau, Q, R);
        /* Fix column signs so that Q is Haar distributed. */
        for (size_t j = 0; j < n; j++)
            if (gsl_matrix_get(R, j, j) < 0) {
                gsl_vector_view c = gsl_matrix_column(Q, j);
                gsl_vector_scale(&c.vector, -1.0);
            }
    }
    gsl_matrix_free(A);
    gsl_matrix_free(R);
    gsl_vector_free(tau);
    return s;
}

/* M = Q diag(lam) Q^T made exactly symmetric, Q = fl_random_orthogonal,
 * lam[j] = eig(j) drawn in column order (the one body of fl_random_spd and
 * fl_random_spd_loguniform).  FL_OK or FL_ENOMEM (M untouched). */
typedef double (*eig_draw)(gsl_rng *r, size_t j, size_t n, const double *par);

static fl_status spd_from_eigs(gsl_rng *r, eig_draw eig, const double *par, gsl_matrix *M,
                               double *lmin)
{
    size_t n = M->size1;
    gsl_matrix *Q = fl_dense_matrix_alloc(n, n);
    gsl_matrix *QD = fl_dense_matrix_alloc(n, n);
    fl_status s = (Q && QD) ? fl_random_orthogonal(r, Q) : FL_ENOMEM;
    if (s == FL_OK) {
        double least = INFINITY;
        for (size_t j = 0; j < n; j++) {
            double lam = eig(r, j, n, par);
            least = fmin(least, lam);
            for (size_t i = 0; i < n; i++) gsl_matrix_set(QD, i, j, gsl_matrix_get(Q, i, j) * lam);
        }
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, QD, Q, 0.0, M);
        for (size_t i = 0; i < n; i++)                     /* exact symmetry */
            for (size_t j = i + 1; j < n; j++) {
                double a = 0.5 * (gsl_matrix_get(M, i, j) + gsl_matrix_get(M, j, i));
                gsl_matrix_set(M, i, j, a);
                gsl_matrix_set(M, j, i, a);
            }
        if (lmin) *lmin = least;
    }
    gsl_matrix_free(Q);
    gsl_matrix_free(QD);
    return s;
}

/* par = {scale, cond}: log-spaced in [scale, scale cond]. */
static double eig_logspaced(gsl_rng *r, size_t j, size_t n, const double *par)
{
    (void)r;
    double t = n > 1 ? (double)j / (double)(n - 1) : 0.0;
    return par[0] * exp(t * log(par[1]));
}

/* par = {lo, hi}: log-uniform draws. */
static double eig_loguniform(gsl_rng *r, size_t j, size_t n, const double *par)
{
    (void)j;
    (void)n;
    return fl_rng_loguniform(r, par[0], par[1]);
}

fl_status fl_random_spd(gsl_rng *r, double cond, double scale, gsl_matrix *M)
{
    const double par[2] = {scale, cond};
    return spd_from_eigs(r, eig_logspaced, par, M, NULL);
}

cholmod_sparse *fl_random_sparse_spd(gsl_rng *r, fl_sparse_ctx *ctx, size_t n,
                                     size_t per_row, double cond)
{
    /* A = D + L where L is a weighted graph Laplacian (PSD) on random edges
     * and D a positive diagonal.  Gershgorin: spec(A) in [min d, max(d + 2*deg_w)].
     * Choose d_i = 1 for a few nodes and weights scaled so that the upper
     * bound equals cond: then lambda_min >= 1 and lambda_max <= cond. */
    size_t nedge = n * per_row / 2;
    size_t cap = n + nedge * 3;
    int *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *x = malloc(cap * sizeof *x), *rowsum = calloc(n, sizeof *rowsum);
    cholmod_sparse *A = NULL;
    if (!ri || !ci || !x || !rowsum) goto done;
    size_t k = 0;
    for (size_t e = 0; e < nedge && n > 1; e++) {
        size_t i = gsl_rng_uniform_int(r, n);
        /* mostly local couplings (banded), some long-range */
        size_t span = gsl_rng_uniform(r) < 0.8 ? 1 + gsl_rng_uniform_int(r, 8) : gsl_rng_uniform_int(r, n);
        size_t j = (i + span) % n;
        if (i == j) continue;
        double w = 0.1 + gsl_rng_uniform(r);
        size_t a = i < j ? i : j, b = i < j ? j : i;
        ri[k] = (int)a; ci[k] = (int)b; x[k++] = -w;
        ri[k] = (int)a; ci[k] = (int)a; x[k++] = w;
        ri[k] = (int)b; ci[k] = (int)b; x[k++] = w;
        rowsum[a] += w;
        rowsum[b] += w;
    }
    double maxdeg = 0.0;
    for (size_t i = 0; i < n; i++) maxdeg = fmax(maxdeg, rowsum[i]);
    /* scale weights by s so that 1 + 2 s maxdeg = cond */
    double s = maxdeg > 0 ? (cond - 1.0) / (2.0 * maxdeg) : 0.0;
    for (size_t e = 0; e < k; e++) x[e] *= s;
    size_t kk = k;
    for (size_t i = 0; i < n; i++) {
        ri[kk] = (int)i; ci[kk] = (int)i; x[kk++] = 1.0;
    }
    if (fl_sparse_from_triplet(ctx, n, n, kk, ri, ci, x, 1, &A, NULL) != FL_OK) A = NULL;
done:
    free(ri);
    free(ci);
    free(x);
    free(rowsum);
    return A;
}

fl_status fl_random_full_rank_rows(gsl_rng *r, double cond, gsl_matrix *D)
{
    size_t m = D->size1, n = D->size2;
    gsl_matrix *Q = fl_dense_matrix_alloc(n, n);
    fl_status s = Q ? fl_random_orthogonal(r, Q) : FL_ENOMEM;
    if (s != FL_OK) {
        gsl_matrix_free(Q);
        return s;
    }
    double sc = sqrt(cond);
    for (size_t i = 0; i < m; i++) {
        double f = fl_rng_loguniform(r, 1.0 / sc, sc);
        for (size_t j = 0; j < n; j++) gsl_matrix_set(D, i, j, f * gsl_matrix_get(Q, i, j));
    }
    /* mix rows: row i += 0.5 * u * row k for k < i (unit lower triangular) */
    for (size_t i = m; i-- > 1;)
        for (size_t k2 = 0; k2 < i; k2++) {
            double c = 0.5 * (2.0 * gsl_rng_uniform(r) - 1.0) / (double)i;
            for (size_t j = 0; j < n; j++)
                gsl_matrix_set(D, i, j, gsl_matrix_get(D, i, j) + c * gsl_matrix_get(D, k2, j));
        }
    gsl_matrix_free(Q);
    return FL_OK;
}

fl_status fl_random_frame(gsl_rng *r, gsl_matrix *frame)
{
    return fl_random_orthogonal(r, frame);
}

double fl_random_mu(gsl_rng *r)
{
    return fl_rng_loguniform(r, 1e-2, 10.0);
}

fl_status fl_random_friction_set(gsl_rng *r, fl_friction_set *C)
{
    return fl_set_random(r, C, NULL);
}

void fl_random_point_in_set(gsl_rng *r, const fl_friction_set *C, double *x)
{
    fl_set_random_point(r, C, x);
}

int fl_random_coulomb_pair(gsl_rng *r, const fl_friction_set *C, double *rn, double *rt,
                           double *v, double *nhat)
{
    return fl_set_random_coulomb(r, C, rn, rt, v, nhat);
}

int fl_random_coulomb_violation(gsl_rng *r, const fl_friction_set *C, double *rn,
                                double *rt, double *v)
{
    return fl_set_random_violation(r, C, rn, rt, v);
}

const char *fl_random_kind_name(fl_random_kind kind)
{
    switch (kind) {
    case FL_RANDOM_PLAIN: return "plain";
    case FL_RANDOM_LARGE: return "large";
    case FL_RANDOM_ILL_CONDITIONED: return "ill-conditioned";
    case FL_RANDOM_FRICTIONLESS: return "frictionless";
    case FL_RANDOM_GRAZING: return "grazing";
    case FL_RANDOM_RANK_DEFICIENT: return "rank-deficient";
    }
    return "unknown";
}

/* W = H M^-1 H^T and q = H M^-1 f + w for dense M (Cholesky by GSL). */
static fl_status delassus_of(const gsl_matrix *M, const gsl_matrix *H, const gsl_vector *f,
                             const gsl_vector *w, fl_local_problem *p)
{
    size_t n = M->size1, m = H->size1;
    gsl_matrix *L = fl_dense_matrix_alloc(n, n), *X = fl_dense_matrix_alloc(n, m);
    gsl_vector *y = fl_dense_vector_alloc(n);
    if (!L || !X || !y) {
        gsl_matrix_free(L); gsl_matrix_free(X); gsl_vector_free(y);
        return FL_ENOMEM;
    }
    gsl_matrix_memcpy(L, M);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_linalg_cholesky_decomp1(L);
    gsl_set_error_handler(old);
    if (rc == 0) {
        gsl_matrix_transpose_memcpy(X, H);
        for (size_t j = 0; j < m; j++) {
            gsl_vector_view c = gsl_matrix_column(X, j);
            gsl_linalg_cholesky_svx(L, &c.vector);
        }
        gsl_vector_memcpy(y, f);
        gsl_linalg_cholesky_svx(L, y);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, H, X, 0.0, p->W);
        for (size_t i = 0; i < m; i++)          /* exact symmetry */
            for (size_t j = 0; j < i; j++) {
                double a = 0.5 * (gsl_matrix_get(p->W, i, j) + gsl_matrix_get(p->W, j, i));
                gsl_matrix_set(p->W, i, j, a);
                gsl_matrix_set(p->W, j, i, a);
            }
        gsl_vector_memcpy(p->q, w);
        gsl_blas_dgemv(CblasNoTrans, 1.0, H, y, 1.0, p->q);
    }
    gsl_matrix_free(L); gsl_matrix_free(X); gsl_vector_free(y);
    return rc == 0 ? FL_OK : FL_ENOTSPD;
}

/* LARGE: M diagonal, H with three entries per row; W = H M^-1 H^T formed
 * column of H by column of H (each column touches few rows). */
static fl_status large_system(gsl_rng *r, fl_local_problem *p)
{
    size_t m = p->m, n = m;
    int *cols = malloc(3 * m * sizeof *cols);
    double *vals = malloc(3 * m * sizeof *vals), *minv = malloc(n * sizeof *minv);
    double *f = malloc(n * sizeof *f);
    size_t *count = calloc(n, sizeof *count), *start = calloc(n + 1, sizeof *start);
    size_t *rows = malloc(3 * m * sizeof *rows);
    double *hv = malloc(3 * m * sizeof *hv);
    if (!cols || !vals || !minv || !f || !count || !start || !rows || !hv) {
        free(cols); free(vals); free(minv); free(f); free(count); free(start); free(rows); free(hv);
        return FL_ENOMEM;
    }
    for (size_t k = 0; k < n; k++) {
        minv[k] = 1.0 / fl_rng_loguniform(r, 1.0, 10.0);
        f[k] = gsl_ran_gaussian(r, 1.0);
    }
    for (size_t i = 0; i < m; i++) {
        cols[3 * i] = (int)i;
        vals[3 * i] = gsl_rng_uniform(r) < 0.5 ? -1.0 : 1.0;
        for (int e = 1; e < 3; e++) {
            size_t j;
            do j = gsl_rng_uniform_int(r, n); while (j == i || (e == 2 && (int)j == cols[3 * i + 1]));
            cols[3 * i + e] = (int)j;
            vals[3 * i + e] = 0.3 * (2.0 * gsl_rng_uniform(r) - 1.0);
        }
        for (int e = 0; e < 3; e++) count[cols[3 * i + e]]++;
    }
    for (size_t k = 0; k < n; k++) start[k + 1] = start[k] + count[k];
    for (size_t k = 0; k < n; k++) count[k] = 0;
    for (size_t i = 0; i < m; i++)
        for (int e = 0; e < 3; e++) {
            size_t k = (size_t)cols[3 * i + e], at = start[k] + count[k]++;
            rows[at] = i;
            hv[at] = vals[3 * i + e];
        }
    gsl_matrix_set_zero(p->W);
    gsl_vector_set_zero(p->q);
    for (size_t k = 0; k < n; k++)
        for (size_t a = start[k]; a < start[k + 1]; a++) {
            *gsl_vector_ptr(p->q, rows[a]) += hv[a] * minv[k] * f[k];
            for (size_t b = start[k]; b < start[k + 1]; b++)
                *gsl_matrix_ptr(p->W, rows[a], rows[b]) += hv[a] * minv[k] * hv[b];
        }
    free(cols); free(vals); free(minv); free(f); free(count); free(start); free(rows); free(hv);
    return FL_OK;
}

fl_status fl_random_local_problem(gsl_rng *r, fl_random_kind kind, size_t nc, int dim,
                                  fl_sparse_ctx *ctx, fl_local_problem **out)
{
    *out = NULL;
    fl_local_problem *p = NULL;
    FL_TRY(fl_local_problem_alloc(nc, dim, 1, &p, NULL));
    size_t m = p->m;
    fl_status s = FL_OK;
    if (kind == FL_RANDOM_LARGE) {
        s = large_system(r, p);
    } else {
        size_t n = kind == FL_RANDOM_RANK_DEFICIENT ? (m > (size_t)dim ? m - (size_t)dim : 1)
                                                   : m + 2;
        gsl_matrix *M = fl_dense_matrix_alloc(n, n), *H = fl_dense_matrix_alloc(m, n);
        gsl_vector *f = fl_dense_vector_alloc(n), *w = fl_dense_vector_calloc(m);
        if (!M || !H || !f || !w) s = FL_ENOMEM;
        if (s == FL_OK)
            s = fl_random_spd(r, kind == FL_RANDOM_ILL_CONDITIONED ? 1e8 : 100.0, 1.0, M);
        if (s == FL_OK && kind == FL_RANDOM_RANK_DEFICIENT) {
            /* m > n: the transpose of n independent rows of length m */
            gsl_matrix *Ht = fl_dense_matrix_alloc(n, m);
            s = Ht ? fl_random_full_rank_rows(r, 10.0, Ht) : FL_ENOMEM;
            if (s == FL_OK) gsl_matrix_transpose_memcpy(H, Ht);
            gsl_matrix_free(Ht);
        } else if (s == FL_OK) {
            s = fl_random_full_rank_rows(r, 10.0, H);
        }
        if (s == FL_OK) {
            fl_random_vector(r, 1.0, f);
            s = delassus_of(M, H, f, w, p);
        }
        gsl_matrix_free(M); gsl_matrix_free(H); gsl_vector_free(f); gsl_vector_free(w);
    }
    for (size_t a = 0; a < nc; a++) {
        p->mu[a] = kind == FL_RANDOM_FRICTIONLESS ? 0.0 : fl_random_mu(r);
        if (kind == FL_RANDOM_GRAZING && a % 2 == 0) gsl_vector_set(p->q, (size_t)dim * a, 0.0);
    }
    if (s == FL_OK && ctx) {
        p->ctx = ctx;
        s = fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, NULL);
    }
    if (s != FL_OK) {
        fl_local_problem_free(p);
        return s;
    }
    *out = p;
    return FL_OK;
}

fl_status fl_random_spd_loguniform(gsl_rng *r, double lo, double hi, gsl_matrix *M,
                                   double *lmin)
{
    const double par[2] = {lo, hi};
    return spd_from_eigs(r, eig_loguniform, par, M, lmin);
}

fl_status fl_random_stewart_problem(gsl_rng *r, int single, double cond_max,
                                    fl_random_stewart *s)
{
    s->n = 2 + gsl_rng_uniform_int(r, 5);
    s->nc = 1 + gsl_rng_uniform_int(r, 3);
    s->dim = 2 + gsl_rng_uniform_int(r, 2);
    if (single) {
        s->nc = 1;
        s->dim = 2;
    }
    s->M = fl_dense_matrix_alloc(s->n, s->n);
    s->H = fl_dense_matrix_alloc(s->dim * s->nc, s->n);
    s->v = fl_dense_vector_alloc(s->n);
    s->f = fl_dense_vector_alloc(s->n);
    s->gap = fl_dense_vector_alloc(s->nc);
    s->p = (fl_stewart_problem){0};
    fl_status st = (s->M && s->H && s->v && s->f && s->gap)
                       ? fl_random_spd(r, fl_rng_loguniform(r, 1.0, cond_max), 1.0, s->M)
                       : FL_ENOMEM;
    if (st != FL_OK) {
        fl_random_stewart_free(s);
        return st;
    }
    for (size_t i = 0; i < s->H->size1; i++) {
        gsl_vector_view row = gsl_matrix_row(s->H, i);
        fl_random_vector(r, 1.0, &row.vector);
    }
    fl_random_vector(r, 1.0, s->v);
    fl_random_vector(r, 1.0, s->f);
    for (size_t c = 0; c < s->nc; c++) {
        gsl_vector_set(s->gap, c, gsl_rng_uniform(r) < 0.6 ? 0.0 : 0.01 * gsl_rng_uniform(r));
        s->mu[c] = fl_random_mu(r);
    }
    s->p = (fl_stewart_problem){s->n, s->nc, s->dim, s->M, s->H, NULL, NULL, NULL, s->v, s->f,
                                s->gap, s->mu, 0.01};
    return FL_OK;
}

void fl_random_stewart_free(fl_random_stewart *s)
{
    gsl_matrix_free(s->M);
    gsl_matrix_free(s->H);
    gsl_vector_free(s->v);
    gsl_vector_free(s->f);
    gsl_vector_free(s->gap);
    s->M = s->H = NULL;
    s->v = s->f = s->gap = NULL;
}

fl_random_block_options fl_random_block_options_default(void)
{
    fl_random_block_options o = {5, 4, 0.5, 0};
    return o;
}

fl_midpoint_block_params fl_random_midpoint_block(gsl_rng *r, const fl_random_block_options *o,
                                                  fl_redist_kind kind)
{
    fl_midpoint_block_params bp;
    size_t nxm = o->nx_max > 2 ? o->nx_max : 2, nym = o->ny_max > 2 ? o->ny_max : 2;
    bp.nx = 2 + gsl_rng_uniform_int(r, nxm - 1);
    bp.ny = 2 + gsl_rng_uniform_int(r, nym - 1);
    bp.lx = 0.5 + gsl_rng_uniform(r);
    bp.ly = 0.5 + gsl_rng_uniform(r);
    bp.pattern = (fl_fe2d_pattern)gsl_rng_uniform_int(r, 2);
    bp.mat.lambda = gsl_rng_uniform(r);
    bp.mat.mu = 0.3 + gsl_rng_uniform(r);
    bp.mat.rho = 0.5 + gsl_rng_uniform(r);
    bp.mat.model = (fl_fe2d_model)gsl_rng_uniform_int(r, 2);
    bp.lumped = (int)gsl_rng_uniform_int(r, 2);
    bp.top_ux = 0.0;
    bp.top_uy = -0.01 * gsl_rng_uniform(r);
    bp.gravity = 0.5 * gsl_rng_uniform(r);
    bp.mu = fl_rng_loguniform(r, 0.05, o->mu_max > 0.05 ? o->mu_max : 0.05);
    bp.v_found = o->moving_foundation && gsl_rng_uniform(r) >= 0.5 ? 0.2 * gsl_rng_uniform(r) : 0.0;
    bp.redist = kind;
    return bp;
}
