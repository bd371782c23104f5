/* stewart_law_sparse.c — the Stewart–Trinkle step of Stewart's P5 (001 §6.2)
 * with the LCP matrix built from the sparse Delassus operator
 * G = H M^-1 H^T (proofs/stewart_lcp.md §3).  Same signature and result as
 * fl_stewart_step (reference/stewart_law.c).
 *
 * CHOLMOD factors M once; the dim nc columns of X = M^-1 H^T come from
 * solves with that factor (no dense n x n object), G = H X and the local
 * free velocity u_free = H v_free are small (dim nc).  Then, with the
 * direction map P (z -> real-world impulse, §1 of the derivation):
 *     [ A_pp A_pb ]  = P^T G P,     [ b_p ] = P^T u_free + (gap/h, 0)
 *     [ A_bp A_bb ]                 [ b_b ]
 * and the E / mu blocks as in the reference.  v^+ = v_free + M^-1 H^T P~ by
 * one more solve with the same factor.
 */
#include "optimized/stewart_law_sparse.h"
#include "fl_dense.h"

#include <math.h>
#include <stdlib.h>

#include "fl_sparse.h"
#include "fl_clock.h"

/* Everything the step holds on to; released by ws_free. */
typedef struct sparse_ws {
    fl_sparse_ctx own;
    fl_sparse_ctx *ctx;
    cholmod_sparse *Mown, *Hown, *Ht;
    cholmod_sparse *Hs;        /* the problem's H or Hown */
    cholmod_factor *L;
    double *X, *G, *col, *tmp, *vfree, *ufree;
    gsl_matrix *A;
    gsl_vector *b;
} sparse_ws;

static void ws_free(sparse_ws *w)
{
    if (w->ctx) {
        fl_sparse_free(w->ctx, &w->Mown);
        fl_sparse_free(w->ctx, &w->Hown);
        fl_sparse_free(w->ctx, &w->Ht);
        fl_sparse_free_factor(w->ctx, &w->L);
    }
    if (w->ctx == &w->own) fl_sparse_finish(&w->own);
    free(w->X);
    free(w->G);
    free(w->col);
    free(w->tmp);
    free(w->vfree);
    free(w->ufree);
    gsl_matrix_free(w->A);
    gsl_vector_free(w->b);
}

/* The sizes and storage of the problem's matrices, and the result's. */
static fl_status step_check(const fl_stewart_problem *p, const fl_stewart_options *o, const fl_stewart_result *res,
                            fl_error *err)
{
    fl_status s = fl_stewart_problem_check(p, o, err);
    if (s == FL_OK && (!res || res->n != p->n || res->nc != p->nc || res->dim != p->dim ||
                       res->lcp_size != fl_stewart_lcp_size(p, o)))
        s = FL_FAIL(err, FL_EDIM, "result was allocated for another problem size");
    if (s == FL_OK && p->Ms && (p->Ms->nrow != p->n || p->Ms->ncol != p->n || p->Ms->stype == 0))
        s = FL_FAIL(err, FL_EDIM, "sparse mass matrix must be %zux%zu with symmetric storage",
                    p->n, p->n);
    if (s == FL_OK && p->nc && p->Hs &&
        (p->Hs->nrow != p->dim * p->nc || p->Hs->ncol != p->n))
        s = FL_FAIL(err, FL_EDIM, "sparse contact Jacobian must be %zux%zu", p->dim * p->nc, p->n);
    return s;
}

/* CHOLMOD's context, M = L L^T once, and v_free = v^- + h M^-1 f */
static fl_status ws_free_velocity(sparse_ws *w, const fl_stewart_problem *p, fl_error *err)
{
    size_t n = p->n;
    fl_status s;
    if (p->sctx) {
        w->ctx = p->sctx;
    } else {
        if ((s = fl_sparse_start(&w->own, err)) != FL_OK) return s;
        w->ctx = &w->own;
    }
    cholmod_sparse *Ms = p->Ms;
    if (!Ms) {
        if ((s = fl_sparse_from_dense(w->ctx, p->M, 1, 0.0, &w->Mown, err)) != FL_OK) return s;
        Ms = w->Mown;
    }
    s = fl_sparse_factor(w->ctx, Ms, &w->L, err);                   /* M = L L^T, once */
    if (s != FL_OK) return s;
    w->col = calloc(n, sizeof *w->col);
    w->tmp = calloc(n, sizeof *w->tmp);
    w->vfree = calloc(n, sizeof *w->vfree);
    if (!w->col || !w->tmp || !w->vfree) return FL_FAIL(err, FL_ENOMEM, "sparse Stewart workspace");
    /* v_free = v^- + h M^-1 f */
    for (size_t i = 0; i < n; i++) w->col[i] = p->f ? p->h * gsl_vector_get(p->f, i) : 0.0;
    s = fl_sparse_solve(w->ctx, w->L, w->col, w->vfree, err);
    if (s != FL_OK) return s;
    for (size_t i = 0; i < n; i++) w->vfree[i] += gsl_vector_get(p->v, i);
    return FL_OK;
}

/* The local Delassus operator G = H X, X = M^-1 H^T (column-major, nl x nl),
 * and u_free = H v_free; the LCP's A (m x m) and b allocated. */
static fl_status ws_delassus(sparse_ws *w, const fl_stewart_problem *p, size_t m, fl_error *err)
{
    size_t n = p->n, nc = p->nc, nl = p->dim * nc;
    fl_status s = FL_OK;
    w->Hs = p->Hs;
    if (!w->Hs) {
        if ((s = fl_sparse_from_dense(w->ctx, p->H, 0, 0.0, &w->Hown, err)) != FL_OK) return s;
        w->Hs = w->Hown;
    }
    w->Ht = cholmod_transpose(w->Hs, 1, &w->ctx->cm);              /* H^T, sparse */
    w->X = calloc(n * nl, sizeof *w->X);
    w->G = calloc(nl * nl, sizeof *w->G);
    w->ufree = calloc(nl, sizeof *w->ufree);
    w->A = fl_dense_matrix_calloc(m, m);
    w->b = fl_dense_vector_calloc(m);
    if (!w->Ht || !w->X || !w->G || !w->ufree || !w->A || !w->b)
        return FL_FAIL(err, FL_ENOMEM, "sparse Stewart workspace (%zu contacts)", nc);
    /* X(:,i) = M^-1 H^T e_i: the contact columns of M^-1 */
    double *e = calloc(nl, sizeof *e);
    if (!e) return FL_FAIL(err, FL_ENOMEM, "sparse Stewart workspace");
    for (size_t i = 0; i < nl && s == FL_OK; i++) {
        e[i] = 1.0;
        s = fl_sparse_mv(w->ctx, w->Ht, 0, 1.0, e, 0.0, w->col, err);
        if (s == FL_OK) s = fl_sparse_solve(w->ctx, w->L, w->col, w->X + i * n, err);
        e[i] = 0.0;
    }
    free(e);
    if (s != FL_OK) return s;
    /* G(:,i) = H X(:,i) (column-major nl x nl);  u_free = H v_free */
    for (size_t i = 0; i < nl && s == FL_OK; i++)
        s = fl_sparse_mv(w->ctx, w->Hs, 0, 1.0, w->X + i * n, 0.0, w->G + i * nl, err);
    if (s == FL_OK) s = fl_sparse_mv(w->ctx, w->Hs, 0, 1.0, w->vfree, 0.0, w->ufree, err);
    return s;
}

/* entry r of column a of the direction map P (a < nc + nb): the normal
 * entry (a = c) or the direction d_j of contact c(a) */
static double p_entry(size_t dim, size_t nc, size_t K, size_t a, size_t r)
{
    return a < nc ? (r == 0) : (r == 0 ? 0.0 : fl_stewart_direction(dim, K, (a - nc) % K, r - 1));
}

/* The LCP: P^T G P and P^T u_free (+ gap / h), then the E / mu blocks. */
static void ws_lcp(sparse_ws *w, const fl_stewart_problem *p, size_t K)
{
    size_t nc = p->nc, dim = p->dim, nl = dim * nc, nb = nc * K;
    /* P^T G P and P^T u_free.  Column a of P (a < nc + nb) has support in
     * contact c(a): the normal entry (a = c) or the direction d_j. */
    size_t na = nc + nb;
    for (size_t a = 0; a < na; a++) {
        size_t ca = a < nc ? a : (a - nc) / K;
        double ba = 0.0;
        for (size_t bcol = 0; bcol < na; bcol++) {
            size_t cb = bcol < nc ? bcol : (bcol - nc) / K;
            double acc = 0.0;
            for (size_t r = 0; r < dim; r++) {
                double par = p_entry(dim, nc, K, a, r);
                if (par == 0.0) continue;
                for (size_t t = 0; t < dim; t++) {
                    double pbt = p_entry(dim, nc, K, bcol, t);
                    if (pbt == 0.0) continue;
                    acc += par * w->G[(dim * cb + t) * nl + dim * ca + r] * pbt;
                }
            }
            gsl_matrix_set(w->A, a, bcol, acc);
        }
        for (size_t r = 0; r < dim; r++) ba += p_entry(dim, nc, K, a, r) * w->ufree[dim * ca + r];
        if (a < nc && p->gap) ba += gsl_vector_get(p->gap, a) / p->h;
        gsl_vector_set(w->b, a, ba);
    }
    for (size_t c = 0; c < nc; c++) {
        size_t lam = nc + nb + c;
        for (size_t j = 0; j < K; j++) {
            gsl_matrix_set(w->A, nc + c * K + j, lam, 1.0);     /* E    */
            gsl_matrix_set(w->A, lam, nc + c * K + j, -1.0);    /* -E^T */
        }
        gsl_matrix_set(w->A, lam, c, p->mu[c]);                 /* mu   */
    }
}

/* P~ = P z;  r = H^T P~;  tmp = M^-1 r */
static fl_status ws_impulse(sparse_ws *w, const fl_stewart_problem *p, size_t K, fl_stewart_result *res,
                            fl_error *err)
{
    size_t nc = p->nc, dim = p->dim;
    for (size_t c = 0; c < nc; c++) {
        gsl_vector_set(res->impulse, dim * c, gsl_vector_get(res->z, c));
        for (size_t i = 0; i + 1 < dim; i++) {
            double acc = 0.0;
            for (size_t j = 0; j < K; j++)
                acc += gsl_vector_get(res->z, nc + c * K + j) * fl_stewart_direction(dim, K, j, i);
            gsl_vector_set(res->impulse, dim * c + 1 + i, acc);
        }
    }
    fl_status s = fl_sparse_mv(w->ctx, w->Ht, 0, 1.0, res->impulse->data, 0.0, res->r->data, err);
    if (s == FL_OK) s = fl_sparse_solve(w->ctx, w->L, res->r->data, w->tmp, err);
    return s;
}

/* Coulomb check from u = H v^+ (sparse product) */
static fl_status ws_coulomb(sparse_ws *w, const fl_stewart_problem *p, const fl_stewart_options *o,
                            fl_stewart_result *res, fl_error *err)
{
    gsl_vector *u = fl_dense_vector_alloc(p->dim * p->nc);
    if (!u) return FL_FAIL(err, FL_ENOMEM, "sparse Stewart workspace");
    fl_status s = fl_sparse_mv(w->ctx, w->Hs, 0, 1.0, res->v_plus->data, 0.0, u->data, err);
    if (s == FL_OK)
        s = fl_stewart_coulomb_violation_local(p, o, u, res->impulse, &res->coulomb, err);
    gsl_vector_free(u);
    if (s == FL_OK && !(res->coulomb <= o->coulomb_tol))
        s = FL_FAIL(err, FL_ENOCONV, "Stewart step violates Coulomb's law by %g (tol %g)",
                    res->coulomb, o->coulomb_tol);
    return s;
}

/* One step of P5 (001 §6.2) from the sparse Delassus operator. */
fl_status fl_stewart_step_sparse(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                 fl_stewart_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_stewart_options o = opt ? *opt : fl_stewart_options_default();
    fl_status s = step_check(p, &o, res, err);
    if (s != FL_OK) {
        if (res) res->status = s;
        return s;
    }
    size_t n = p->n, nc = p->nc, K = fl_stewart_directions(p->dim, &o);
    res->iterations = 0;
    res->residual = 0.0;
    res->coulomb = 0.0;

    sparse_ws w = {0};
    if ((s = ws_free_velocity(&w, p, err)) != FL_OK) goto out;
    if (nc > 0) {
        if ((s = ws_delassus(&w, p, res->lcp_size, err)) != FL_OK) goto out;
        ws_lcp(&w, p, K);
        fl_lemke_result lr;
        s = fl_lemke_solve(w.A, w.b, res->z, NULL, &o.lemke, &lr, err);
        res->iterations = lr.iterations;
        res->residual = lr.residual;
        if (s != FL_OK) goto out;
        if ((s = ws_impulse(&w, p, K, res, err)) != FL_OK) goto out;
    } else {
        gsl_vector_set_zero(res->r);
        for (size_t i = 0; i < n; i++) w.tmp[i] = 0.0;
    }
    for (size_t i = 0; i < n; i++) gsl_vector_set(res->v_plus, i, w.vfree[i] + w.tmp[i]);
    if (nc > 0) s = ws_coulomb(&w, p, &o, res, err);
out:
    ws_free(&w);
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    return s;
}
