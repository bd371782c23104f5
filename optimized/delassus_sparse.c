/* delassus_sparse.c — the Delassus operator W = H M^-1 H^T and the local
 * data q = H M^-1 f + w of the Contact Dynamics core problem (003 §3;
 * 003 §3; 004 (18)–(21), 003 §3 "factor M once"), with CHOLMOD: the sparse twin of
 * fl_delassus_dense (reference/delassus.c); W is returned as a cholmod_sparse in
 * full storage.  Two ways are offered so the bench can measure both:
 *
 *   FL_DELASSUS_SOLVES    X = M^-1 H^T by sparse triangular solves with the
 *                         factor of M (cached in *L and reused while M is
 *                         unchanged), then W = H X (sparse product).
 *   FL_DELASSUS_TRAILING  factor K = [M H^T; H cI] with the contact unknowns
 *                         ordered last (AMD order of M first, then of H H^T); the
 *                         trailing block of K's factor satisfies
 *                         L22 L22^T = cI - H M^-1 H^T (Schur complement), so
 *                         W = cI - L22 L22^T.  c must exceed lambda_max(W):
 *                         start from ||H||_F^2 / min_i M_ii and multiply by 4
 *                         while CHOLMOD reports K not positive definite.
 *                         (Derivation: proofs/contact_dynamics.md.)
 */
#include "optimized/delassus_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fl_dense.h"

/* Sparse M and H of g, converted from the dense ones if needed (then owned
 * by the caller through *own_M / *own_H). */
static fl_status sparse_inputs(const fl_global_problem *g, cholmod_sparse **M,
                               cholmod_sparse **H, cholmod_sparse **own_M,
                               cholmod_sparse **own_H, fl_error *err)
{
    *own_M = *own_H = NULL;
    *M = g->Ms;
    *H = g->Hs;
    if (!*M) {
        if (!g->M) return FL_FAIL(err, FL_EINVAL, "delassus_sparse: M missing");
        FL_TRY(fl_sparse_from_dense(g->ctx, g->M, 1, 0.0, own_M, err));
        *M = *own_M;
    }
    if (!*H) {
        if (!g->H) return FL_FAIL(err, FL_EINVAL, "delassus_sparse: H missing");
        FL_TRY(fl_sparse_from_dense(g->ctx, g->H, 0, 0.0, own_H, err));
        *H = *own_H;
    }
    if ((*M)->nrow != g->n || (*M)->ncol != g->n || (*M)->stype == 0 ||
        (*H)->nrow != g->m || (*H)->ncol != g->n)
        return FL_FAIL(err, FL_EDIM, "delassus_sparse: M must be %zux%zu symmetric, "
                       "H %zux%zu", g->n, g->n, g->m, g->n);
    return FL_OK;
}

/* The shift c of the augmented matrix from ||H||_F^2 / min M_ii (an upper
 * bound of trace W when M is diagonal). */
static fl_status augmented_shift(cholmod_common *cm, size_t n, cholmod_sparse *M, cholmod_sparse *H, double *c,
                                 fl_error *err)
{
    double h2 = 0.0, mmin = INFINITY;
    cholmod_sparse *Hc = cholmod_copy_sparse(H, cm);
    if (!Hc) return FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
    for (size_t k = 0; k < (size_t)cholmod_nnz(Hc, cm); k++) h2 += ((double *)Hc->x)[k] * ((double *)Hc->x)[k];
    cholmod_free_sparse(&Hc, cm);
    cholmod_dense *d = NULL;
    cholmod_sparse *Mu = cholmod_copy(M, 0, 1, cm);   /* unsymmetric copy */
    if (Mu) {
        d = cholmod_allocate_dense(n, 1, n, CHOLMOD_REAL, cm);
        if (d) {
            int *Mp = Mu->p, *Mi = Mu->i;
            double *Mx = Mu->x, *dx = d->x;
            for (size_t j = 0; j < n; j++) {
                dx[j] = 0;
                for (int k = Mp[j]; k < Mp[j + 1]; k++)
                    if ((size_t)Mi[k] == j) dx[j] = Mx[k];
            }
            for (size_t j = 0; j < n; j++) mmin = fmin(mmin, dx[j]);
            cholmod_free_dense(&d, cm);
        }
        cholmod_free_sparse(&Mu, cm);
    }
    if (!(mmin > 0)) return FL_FAIL(err, FL_ENOTSPD, "delassus_sparse: M has a nonpositive diagonal");
    *c = fmax(h2 / mmin, 1e-300);
    return FL_OK;
}

/* fill-reducing order of M, contacts appended: among them a fill-reducing
 * order pc of H H^T (contacts sharing a body are neighbours), ipc its
 * inverse (W is permuted back at the end) */
static fl_status augmented_order(cholmod_common *cm, size_t n, size_t m, cholmod_sparse *M, cholmod_sparse *H,
                                 int **perm_out, int **pc_out, int **ipc_out, fl_error *err)
{
    int *perm = malloc((n + m) * sizeof *perm);
    if (!perm) return FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
    if (!cholmod_amd(M, NULL, 0, perm, cm)) {
        free(perm);
        return FL_FAIL(err, fl_sparse_failure(cm), "delassus_sparse: cholmod_amd failed");
    }
    int *pc = malloc(m * sizeof *pc), *ipc = malloc(m * sizeof *ipc);
    if (!pc || !ipc || !cholmod_amd(H, NULL, 0, pc, cm)) {
        free(pc);
        free(ipc);
        free(perm);
        return FL_FAIL(err, fl_sparse_failure(cm), "delassus_sparse: ordering the contacts failed");
    }
    for (size_t k = 0; k < m; k++) {
        perm[n + k] = (int)n + pc[k];
        ipc[pc[k]] = (int)k;
    }
    *perm_out = perm;
    *pc_out = pc;
    *ipc_out = ipc;
    return FL_OK;
}

/* upper triangle of K as triplets: M (upper), H^T block (rows < n, cols >= n),
 * cI from entry *diag0 on */
static fl_status augmented_triplet(cholmod_common *cm, size_t n, size_t m, cholmod_sparse *M, cholmod_sparse *H,
                                   double c, cholmod_triplet **Tout, size_t *nzK, size_t *diag0, fl_error *err)
{
    fl_status s = FL_OK;
    cholmod_sparse *Mu = cholmod_copy(M, 1, 1, cm);
    cholmod_sparse *Ht = cholmod_transpose(H, 1, cm);
    if (!Mu || !Ht) s = FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
    *nzK = s == FL_OK ? cholmod_nnz(Mu, cm) + cholmod_nnz(Ht, cm) + m : 0;
    cholmod_triplet *T = s == FL_OK ? cholmod_allocate_triplet(n + m, n + m, *nzK, 1, CHOLMOD_REAL, cm) : NULL;
    if (s == FL_OK && !T) s = FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
    if (s == FL_OK) {
        int *Ti = T->i, *Tj = T->j;
        double *Tx = T->x;
        size_t t = 0;
        int *p = Mu->p, *i = Mu->i;
        double *x = Mu->x;
        for (size_t j = 0; j < n; j++)
            for (int k = p[j]; k < p[j + 1]; k++) {
                Ti[t] = i[k]; Tj[t] = (int)j; Tx[t] = x[k]; t++;
            }
        p = Ht->p; i = Ht->i; x = Ht->x;
        for (size_t j = 0; j < m; j++)
            for (int k = p[j]; k < p[j + 1]; k++) {
                Ti[t] = i[k]; Tj[t] = (int)(n + j); Tx[t] = x[k]; t++;
            }
        *diag0 = t;
        for (size_t k = 0; k < m; k++) {
            Ti[t] = (int)(n + k); Tj[t] = (int)(n + k); Tx[t] = c; t++;
        }
        T->nnz = t;
    }
    cholmod_free_sparse(&Mu, cm);
    cholmod_free_sparse(&Ht, cm);
    *Tout = T;
    return s;
}

/* trailing block of the factor: columns/rows n..N-1 (contacts, in order);
 * W = cI - L22 L22^T permuted back, W(i,j) = Wp(ipc[i], ipc[j]) */
static fl_status trailing_read(cholmod_common *cm, cholmod_factor *LK, size_t n, size_t m, double c,
                               int *ipc, cholmod_sparse **W, fl_error *err)
{
    cholmod_factor *Lc = cholmod_copy_factor(LK, cm);
    cholmod_sparse *Ls = Lc ? cholmod_factor_to_sparse(Lc, cm) : NULL;
    int *rs = malloc(m * sizeof *rs);
    cholmod_sparse *L22 = NULL, *S = NULL, *Id = NULL;
    if (Ls && rs) {
        for (size_t k = 0; k < m; k++) rs[k] = (int)(n + k);
        L22 = cholmod_submatrix(Ls, rs, (SuiteSparse_long)m, rs, (SuiteSparse_long)m, 1, 1, cm);
    }
    if (L22) S = cholmod_aat(L22, NULL, 0, 1, cm);          /* L22 L22^T */
    if (S) {
        Id = cholmod_speye(m, m, CHOLMOD_REAL, cm);
        double alpha[2] = {c, 0}, beta[2] = {-1.0, 0};
        cholmod_sparse *Wp = Id ? cholmod_add(Id, S, alpha, beta, 1, 1, cm) : NULL;
        /* W(i,j) = Wp(ipc[i], ipc[j]) */
        if (Wp) *W = cholmod_submatrix(Wp, ipc, (SuiteSparse_long)m, ipc,
                                      (SuiteSparse_long)m, 1, 1, cm);
        cholmod_free_sparse(&Wp, cm);
    }
    fl_status s = FL_OK;
    if (!*W) s = FL_FAIL(err, FL_ENOMEM, "delassus_sparse: forming the trailing block failed");
    free(rs);
    cholmod_free_sparse(&Id, cm);
    cholmod_free_sparse(&S, cm);
    cholmod_free_sparse(&L22, cm);
    cholmod_free_sparse(&Ls, cm);
    cholmod_free_factor(&Lc, cm);
    return s;
}

/* W = cI - L22 L22^T from the factor of [M H^T; H cI], contacts last. */
static fl_status trailing_block(const fl_global_problem *g, cholmod_sparse *M,
                                cholmod_sparse *H, cholmod_sparse **W, fl_error *err)
{
    cholmod_common *cm = &g->ctx->cm;
    size_t n = g->n, m = g->m;
    double c = 0.0;
    FL_TRY(augmented_shift(cm, n, M, H, &c, err));
    int *perm = NULL, *pc = NULL, *ipc = NULL;
    FL_TRY(augmented_order(cm, n, m, M, H, &perm, &pc, &ipc, err));
    cholmod_triplet *T = NULL;
    size_t nzK = 0, diag0 = 0;
    fl_status s = augmented_triplet(cm, n, m, M, H, c, &T, &nzK, &diag0, err);
    cholmod_factor *LK = NULL;
    int saved_nmethods = cm->nmethods, saved_ordering = cm->method[0].ordering;
    int saved_super = cm->supernodal, saved_ll = cm->final_ll, saved_post = cm->postorder;
    cm->nmethods = 1;
    cm->method[0].ordering = CHOLMOD_GIVEN;
    /* no etree postordering: it would move contact unknowns out of the last
     * m positions of the factor (with M = H = I the postorder interleaves
     * them with the body unknowns, and the "trailing block" read below was
     * then not L22) */
    cm->postorder = 0;
    cm->supernodal = CHOLMOD_SIMPLICIAL;
    cm->final_ll = 1;
    for (int attempt = 0; s == FL_OK && attempt < 30; attempt++) {
        double *Tx = T->x;
        for (size_t k = 0; k < m; k++) Tx[diag0 + k] = c;
        cholmod_sparse *K = cholmod_triplet_to_sparse(T, nzK, cm);
        if (!K) {
            s = FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
            break;
        }
        if (!LK) LK = cholmod_analyze_p(K, perm, NULL, 0, cm);
        int ok = LK && cholmod_factorize(K, LK, cm);
        cholmod_free_sparse(&K, cm);
        if (!LK || !ok) {
            s = FL_FAIL(err, fl_sparse_failure(cm), "delassus_sparse: CHOLMOD failed on the augmented matrix");
            break;
        }
        if (cm->status == CHOLMOD_NOT_POSDEF) {
            c *= 4.0;
            continue;
        }
        s = trailing_read(cm, LK, n, m, c, ipc, W, err);
        break;
    }
    if (s == FL_OK && !*W)
        s = FL_FAIL(err, FL_ENOTSPD, "delassus_sparse: no shift c made the augmented matrix SPD");
    cm->nmethods = saved_nmethods;
    cm->method[0].ordering = saved_ordering;
    cm->supernodal = saved_super;
    cm->final_ll = saved_ll;
    cm->postorder = saved_post;
    cholmod_free_factor(&LK, cm);
    cholmod_free_triplet(&T, cm);
    free(perm);
    free(pc);
    free(ipc);
    return s;
}

/* X = M^-1 B, column by column (B packed, n x k), with cholmod_solve2 and one
 * set of workspaces; exact zeros are dropped.  cholmod_spsolve computes the
 * same by blocks of columns, but in CHOLMOD 3.0.14 (SuiteSparse 5.12, Debian
 * 12) it dereferences the result of an internal solve that ran out of memory
 * (tests/test_alloc_failure.c, delassus scenario, reached it); here every
 * allocation is checked and NULL is returned with cm->status set. */
static cholmod_sparse *solve_columns(cholmod_factor *L, cholmod_sparse *B, cholmod_common *cm)
{
    size_t n = L->n, k = B->ncol;
    cholmod_dense *Bd = cholmod_zeros(n, 1, CHOLMOD_REAL, cm), *Xd = NULL, *Y = NULL, *E = NULL;
    size_t cap = cholmod_nnz(B, cm) + n;
    cholmod_sparse *X = Bd ? cholmod_allocate_sparse(n, k, cap, 1, 1, 0, CHOLMOD_REAL, cm) : NULL;
    const int *Bp = B->p, *Bi = B->i;
    const double *Bx = B->x;
    double *b = Bd ? Bd->x : NULL;
    size_t nz = 0;
    int ok = X != NULL;
    for (size_t j = 0; ok && j < k; j++) {
        ((int *)X->p)[j] = (int)nz;
        for (int t = Bp[j]; t < Bp[j + 1]; t++) b[Bi[t]] = Bx[t];
        ok = cholmod_solve2(CHOLMOD_A, L, Bd, NULL, &Xd, NULL, &Y, &E, cm);
        for (int t = Bp[j]; t < Bp[j + 1]; t++) b[Bi[t]] = 0.0;
        const double *x = ok ? Xd->x : NULL;
        for (size_t i = 0; ok && i < n; i++) {
            if (x[i] == 0.0) continue;
            if (nz == X->nzmax) ok = cholmod_reallocate_sparse(2 * X->nzmax + n, X, cm);
            if (!ok) break;
            ((int *)X->i)[nz] = (int)i;
            ((double *)X->x)[nz++] = x[i];
        }
    }
    if (ok) ((int *)X->p)[k] = (int)nz;
    else cholmod_free_sparse(&X, cm);
    cholmod_free_dense(&Bd, cm);
    cholmod_free_dense(&Xd, cm);
    cholmod_free_dense(&Y, cm);
    cholmod_free_dense(&E, cm);
    return X;
}

/* 003 §3: W = H M^-1 H^T, q = H M^-1 f + w, with CHOLMOD; L non-NULL. */
static fl_status delassus_sparse(const fl_global_problem *g, fl_delassus_method method,
                                 cholmod_factor **L, fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "delassus_sparse: NULL output");
    *out = NULL;
    if (!g || !g->ctx || !g->f || !g->w || (!g->mu && g->nc) || !L)
        return FL_FAIL(err, FL_EINVAL, "delassus_sparse: context, f, w, mu and the factor "
                       "cache are required");
    if (method != FL_DELASSUS_SOLVES && method != FL_DELASSUS_TRAILING)
        return FL_FAIL(err, FL_EINVAL, "delassus_sparse: unknown method %d", (int)method);
    if (g->f->size != g->n || g->w->size != g->m)
        return FL_FAIL(err, FL_EDIM, "delassus_sparse: f must have length %zu, w %zu", g->n, g->m);
    FL_TRY(fl_check_finite_vector(g->f, "f", err));
    FL_TRY(fl_check_finite_vector(g->w, "w", err));
    for (size_t a = 0; a < g->nc; a++)
        if (!(g->mu[a] >= 0) || !isfinite(g->mu[a]))
            return FL_FAIL(err, FL_EINVAL, "delassus_sparse: mu[%zu] = %g must be finite and >= 0",
                           a, g->mu[a]);
    fl_sparse_ctx *ctx = g->ctx;
    cholmod_common *cm = &ctx->cm;
    if (g->m == 0) {   /* no contact: an empty local problem */
        FL_TRY(fl_local_problem_alloc(0, g->dim, 0, out, err));
        (*out)->ctx = ctx;
        (*out)->Ws = cholmod_spzeros(0, 0, 0, CHOLMOD_REAL, cm);
        if (!(*out)->Ws) {
            fl_local_problem_free(*out);
            *out = NULL;
            return FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
        }
        return FL_OK;
    }
    cholmod_sparse *M, *H, *own_M, *own_H;
    fl_status s = sparse_inputs(g, &M, &H, &own_M, &own_H, err);
    fl_local_problem *p = NULL;
    double *y = NULL;
    if (s == FL_OK) s = fl_local_problem_alloc(g->nc, g->dim, 0, &p, err);
    if (s == FL_OK) {
        p->ctx = ctx;
        memcpy(p->mu, g->mu, g->nc * sizeof *p->mu);
        s = fl_sparse_factor(ctx, M, L, err);   /* analysis once, numeric redo on reuse */
    }
    if (s == FL_OK && method == FL_DELASSUS_SOLVES) {
        /* X = M^-1 H^T (sparse solves), W = H X */
        cholmod_sparse *Ht = cholmod_transpose(H, 1, cm);
        cholmod_sparse *X = Ht ? solve_columns(*L, Ht, cm) : NULL;
        cholmod_sparse *W = X ? cholmod_ssmult(H, X, 0, 1, 1, cm) : NULL;
        if (!W) s = FL_FAIL(err, fl_sparse_failure(cm), "delassus_sparse: sparse solve/product failed");
        cholmod_free_sparse(&X, cm);
        cholmod_free_sparse(&Ht, cm);
        p->Ws = W;
    } else if (s == FL_OK) {
        s = trailing_block(g, M, H, &p->Ws, err);
    }
    if (s == FL_OK) {
        /* symmetrise rounding: W <- (W + W^T)/2 */
        cholmod_sparse *Wt = cholmod_transpose(p->Ws, 1, cm);
        double half[2] = {0.5, 0}, h2[2] = {0.5, 0};
        cholmod_sparse *Wsym = Wt ? cholmod_add(p->Ws, Wt, half, h2, 1, 1, cm) : NULL;
        cholmod_free_sparse(&Wt, cm);
        if (!Wsym) s = FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
        else {
            cholmod_free_sparse(&p->Ws, cm);
            p->Ws = Wsym;
            p->Ws->stype = 0;
        }
    }
    if (s == FL_OK) {
        /* q = H M^-1 f + w */
        y = malloc(g->n * sizeof *y);
        if (!y) s = FL_FAIL(err, FL_ENOMEM, "delassus_sparse: out of memory");
        /* y = M^-1 f, f copied first: any stride is read, as by the dense twin */
        if (s == FL_OK) {
            for (size_t i = 0; i < g->n; i++) y[i] = gsl_vector_get(g->f, i);
            s = fl_sparse_solve(ctx, *L, y, y, err);
        }
        if (s == FL_OK) {
            gsl_vector_memcpy(p->q, g->w);
            cholmod_dense Y, Q;
            memset(&Y, 0, sizeof Y);
            memset(&Q, 0, sizeof Q);
            Y.nrow = Y.d = g->n; Y.ncol = 1; Y.nzmax = g->n; Y.x = y;
            Y.xtype = CHOLMOD_REAL; Y.dtype = CHOLMOD_DOUBLE;
            Q.nrow = Q.d = g->m; Q.ncol = 1; Q.nzmax = g->m; Q.x = p->q->data;
            Q.xtype = CHOLMOD_REAL; Q.dtype = CHOLMOD_DOUBLE;
            double one[2] = {1, 0};
            if (!cholmod_sdmult(H, 0, one, one, &Y, &Q, cm))
                s = FL_FAIL(err, fl_sparse_failure(cm), "delassus_sparse: cholmod_sdmult failed");
        }
    }
    free(y);
    fl_sparse_free(ctx, &own_M);
    fl_sparse_free(ctx, &own_H);
    if (s != FL_OK) {
        fl_local_problem_free(p);
        return s;
    }
    *out = p;
    return FL_OK;
}

/* The contract of fl_delassus_dense (003 §3); L NULL: a private factor. */
fl_status fl_delassus_sparse(const fl_global_problem *g, const fl_delassus_options *opt,
                             cholmod_factor **L, fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "delassus_sparse: NULL output");
    *out = NULL;
    FL_TRY(fl_delassus_options_check(opt, err));
    fl_delassus_method method = opt ? opt->sparse.method : FL_DELASSUS_SOLVES;
    cholmod_factor *own = NULL;
    fl_status s = delassus_sparse(g, method, L ? L : &own, out, err);
    if (own) fl_sparse_free_factor(g->ctx, &own);
    return s;
}
