/* fe2d_sparse.c — sparse assembly of the P1 elasticity matrices (002 §2) and
 * the sparse FE block with the redistributed mass of 002 (6) in low-rank
 * form (proofs/redistribution.md (f)).  Same numbers as reference/fe2d.c,
 * reference/redistribution.c and fl_midpoint_block_alloc. */
#include "fe2d_sparse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"

fl_status fl_fe2d_assemble_sparse(fl_sparse_ctx *ctx, const fl_fe2d_mesh *mesh,
                                  const fl_fe2d_material *mat, fl_fe2d_matrix which,
                                  const fl_fe2d_dofmap *map, cholmod_sparse **out,
                                  double *shift, fl_error *err)
{
    *out = NULL;
    size_t nnz;
    int *r, *c;
    double *v;
    FL_TRY(fl_fe2d_assemble_triplets(mesh, mat, which, &nnz, &r, &c, &v, err));
    size_t nfull = 2 * mesh->nnodes, n = map ? map->nfree : nfull;
    if (map && map->nfull != nfull) {
        free(r); free(c); free(v);
        return FL_FAIL(err, FL_EDIM, "dof map has %zu dofs, mesh %zu", map->nfull, nfull);
    }
    if (shift) memset(shift, 0, n * sizeof(double));
    size_t k = 0;
    for (size_t t = 0; t < nnz; t++) {
        int i = map ? map->free_of_full[r[t]] : r[t];
        int j = map ? map->free_of_full[c[t]] : c[t];
        if (i >= 0 && j < 0 && shift) shift[i] -= v[t] * map->value[c[t]];   /* -K_fd u_d */
        if (i < 0 || j < 0) continue;
        r[k] = i;
        c[k] = j;
        v[k] = v[t];
        k++;
    }
    fl_status s = fl_sparse_from_triplet(ctx, n, n, k, r, c, v, 1, out, err);
    free(r); free(c); free(v);
    return s;
}

void fl_midpoint_block_free_sparse(fl_midpoint_block_sparse *b)
{
    if (!b) return;
    fl_sparse_free(b->ctx, &b->A);
    fl_sparse_free(b->ctx, &b->Mr0);
    fl_sparse_free(b->ctx, &b->Bnu);
    fl_sparse_free(b->ctx, &b->Btau);
    fl_fe2d_mesh_free(b->mesh);
    fl_fe2d_dofmap_free(b->map);
    free(b->cnodes);
    gsl_matrix_free(b->U);
    gsl_matrix_free(b->K);
    gsl_matrix_free(b->Bnu_d);
    gsl_matrix_free(b->Btau_d);
    gsl_vector_free(b->f);
    free(b);
}

/* Unsymmetric CSC rows (nrow x ncol) from (row, col, val) lists. */
static fl_status rows_matrix(fl_sparse_ctx *ctx, size_t nrow, size_t ncol, size_t nnz, const int *r,
                             const int *c, const double *v, cholmod_sparse **out, fl_error *err)
{
    return fl_sparse_from_triplet(ctx, nrow, ncol, nnz, r, c, v, 0, out, err);
}

/* x <- P x = x - B^T (B x) with B an unsymmetric CSC (m x n). */
static void project(fl_sparse_ctx *ctx, cholmod_sparse *B, double *x, double *bx)
{
    cholmod_dense X, Y;
    memset(&X, 0, sizeof X);
    memset(&Y, 0, sizeof Y);
    X.nrow = B->ncol; X.ncol = 1; X.nzmax = B->ncol; X.d = B->ncol; X.x = x;
    X.xtype = CHOLMOD_REAL; X.dtype = CHOLMOD_DOUBLE;
    Y.nrow = B->nrow; Y.ncol = 1; Y.nzmax = B->nrow; Y.d = B->nrow; Y.x = bx;
    Y.xtype = CHOLMOD_REAL; Y.dtype = CHOLMOD_DOUBLE;
    double one[2] = {1, 0}, zero[2] = {0, 0}, mone[2] = {-1, 0};
    cholmod_sdmult(B, 0, one, zero, &X, &Y, &ctx->cm);     /* bx = B x */
    cholmod_sdmult(B, 1, mone, one, &Y, &X, &ctx->cm);     /* x -= B^T bx */
}

/* The mesh, the Dirichlet dofs of the top edge and the contact nodes of the
 * bottom edge, none of which may be a Dirichlet dof. */
static fl_status block_mesh(fl_midpoint_block_sparse *b, const fl_midpoint_block_params *bp, fl_error *err)
{
    fl_status s;
    int *top = NULL, *fix = NULL;
    double *val = NULL;
    size_t ntop = 0;
    if ((s = fl_fe2d_mesh_rect(0, 0, bp->lx, bp->ly, bp->nx, bp->ny, bp->pattern, &b->mesh, err))) goto done;
    size_t nfull = 2 * b->mesh->nnodes;
    double tol = 1e-9 * bp->ly;
    if ((s = fl_fe2d_nodes_on_line(b->mesh, 1, bp->ly, tol, &ntop, &top, err))) goto done;
    if ((s = fl_fe2d_nodes_on_line(b->mesh, 1, 0.0, tol, &b->nc, &b->cnodes, err))) goto done;
    fix = malloc(2 * ntop * sizeof(int));
    val = malloc(2 * ntop * sizeof(double));
    if (!fix || !val) { s = FL_FAIL(err, FL_ENOMEM, "block workspaces"); goto done; }
    for (size_t i = 0; i < ntop; i++) {
        fix[2 * i] = 2 * top[i];
        val[2 * i] = bp->top_ux;
        fix[2 * i + 1] = 2 * top[i] + 1;
        val[2 * i + 1] = bp->top_uy;
    }
    if ((s = fl_fe2d_dofmap_alloc(nfull, 2 * ntop, fix, val, &b->map, err))) goto done;
    for (size_t i = 0; i < b->nc; i++)
        if (b->map->free_of_full[2 * b->cnodes[i]] < 0 || b->map->free_of_full[2 * b->cnodes[i] + 1] < 0) {
            s = FL_FAIL(err, FL_EINVAL, "contact node %d has a Dirichlet dof", b->cnodes[i]);
            goto done;
        }
done:
    free(top); free(fix); free(val);
    return s;
}

/* A on the free dofs, the full mass matrix *Mfull and the load
 * f = M (0, -g) restricted, plus the elimination shift -K_fd u_d. */
static fl_status block_stiffness_load(fl_sparse_ctx *ctx, fl_midpoint_block_sparse *b,
                                      const fl_midpoint_block_params *bp, cholmod_sparse **Mfull, fl_error *err)
{
    fl_status s;
    size_t n = b->map->nfree, nfull = 2 * b->mesh->nnodes;
    double *g = NULL, *fm = NULL, *shift = calloc(n, sizeof(double));
    if (!shift) return FL_FAIL(err, FL_ENOMEM, "shift");
    if ((s = fl_fe2d_assemble_sparse(ctx, b->mesh, &bp->mat, FL_FE2D_STIFFNESS, b->map, &b->A, shift, err)))
        goto done;
    fl_fe2d_matrix mk = bp->lumped ? FL_FE2D_MASS_LUMPED : FL_FE2D_MASS;
    if ((s = fl_fe2d_assemble_sparse(ctx, b->mesh, &bp->mat, mk, NULL, Mfull, NULL, err))) goto done;
    /* load: M (0, -g) restricted, plus shift */
    g = calloc(nfull, sizeof(double));
    fm = calloc(nfull, sizeof(double));
    b->f = fl_dense_vector_alloc(n);
    if (!g || !fm || !b->f) { s = FL_FAIL(err, FL_ENOMEM, "load"); goto done; }
    for (size_t p = 0; p < b->mesh->nnodes; p++) g[2 * p + 1] = -bp->gravity;
    if ((s = fl_sparse_mv(ctx, *Mfull, 0, 1.0, g, 0.0, fm, err))) goto done;
    fl_fe2d_restrict(b->map, fm, b->f->data);
    for (size_t i = 0; i < n; i++) b->f->data[i] += shift[i];
done:
    free(g); free(fm); free(shift);
    return s;
}

/* contact rows: full numbering (*Bfull, m rows, for P) and free numbering
 * (Bnu, Btau for the stepper, dense too below dense_rows_limit dofs);
 * normal (0,-1) on y = 0, tau = rot90(nu) = (1, 0) */
static fl_status block_contact_rows(fl_sparse_ctx *ctx, fl_midpoint_block_sparse *b, size_t m,
                                    size_t dense_rows_limit, cholmod_sparse **Bfull, fl_error *err)
{
    fl_status s;
    size_t n = b->map->nfree, nc = b->nc, nfull = 2 * b->mesh->nnodes;
    int *br = malloc(2 * nc * sizeof(int)), *bc = malloc(2 * nc * sizeof(int));
    double *bv = malloc(2 * nc * sizeof(double));
    if (!br || !bc || !bv) { s = FL_FAIL(err, FL_ENOMEM, "contact rows"); goto done; }
    for (size_t i = 0; i < nc; i++) {
        br[i] = (int)i; bc[i] = 2 * b->cnodes[i] + 1; bv[i] = -1.0;            /* nu_i */
        br[nc + i] = (int)(nc + i); bc[nc + i] = 2 * b->cnodes[i]; bv[nc + i] = 1.0;   /* tau_i */
    }
    if ((s = rows_matrix(ctx, m, nfull, m, br, bc, bv, Bfull, err))) goto done;
    for (size_t i = 0; i < nc; i++) {
        bc[i] = b->map->free_of_full[bc[i]];
        bc[nc + i] = b->map->free_of_full[bc[nc + i]];
        br[nc + i] = (int)i;
    }
    if ((s = rows_matrix(ctx, nc, n, nc, br, bc, bv, &b->Bnu, err))) goto done;
    if ((s = rows_matrix(ctx, nc, n, nc, br + nc, bc + nc, bv + nc, &b->Btau, err))) goto done;
    if (n <= dense_rows_limit) {
        b->Bnu_d = fl_dense_matrix_calloc(nc, n);
        b->Btau_d = fl_dense_matrix_calloc(nc, n);
        if (!b->Bnu_d || !b->Btau_d) {
            s = FL_FAIL(err, FL_ENOMEM, "out of memory for the dense contact rows (%zu x %zu)", nc, n);
            goto done;
        }
        for (size_t i = 0; i < nc; i++) {
            gsl_matrix_set(b->Bnu_d, i, (size_t)bc[i], bv[i]);
            gsl_matrix_set(b->Btau_d, i, (size_t)bc[nc + i], bv[nc + i]);
        }
    }
done:
    free(br); free(bc); free(bv);
    return s;
}

/* M_r0 = P M P (P = I - B^T B), then the free block */
static fl_status block_projected_mass(fl_sparse_ctx *ctx, fl_midpoint_block_sparse *b, fl_redist_kind redist,
                                      cholmod_sparse *Mfull, cholmod_sparse *Bfull, fl_error *err)
{
    fl_status s = FL_OK;
    size_t n = b->map->nfree, nfull = 2 * b->mesh->nnodes;
    cholmod_sparse *Pm = NULL, *PM = NULL, *PMP = NULL, *Sub = NULL;
    cholmod_sparse *Mu = cholmod_copy(Mfull, 0, 1, &ctx->cm);      /* unsymmetric copy */
    if (redist == FL_REDIST_NONE) {
        PMP = Mu;
        Mu = NULL;
    } else {
        cholmod_sparse *Bt = cholmod_transpose(Bfull, 1, &ctx->cm);
        cholmod_sparse *BtB = cholmod_ssmult(Bt, Bfull, 0, 1, 1, &ctx->cm);
        cholmod_sparse *I = cholmod_speye(nfull, nfull, CHOLMOD_REAL, &ctx->cm);
        double one[2] = {1, 0}, mone[2] = {-1, 0};
        Pm = cholmod_add(I, BtB, one, mone, 1, 1, &ctx->cm);
        cholmod_free_sparse(&Bt, &ctx->cm);
        cholmod_free_sparse(&BtB, &ctx->cm);
        cholmod_free_sparse(&I, &ctx->cm);
        PM = Pm ? cholmod_ssmult(Pm, Mu, 0, 1, 1, &ctx->cm) : NULL;
        PMP = PM ? cholmod_ssmult(PM, Pm, 0, 1, 1, &ctx->cm) : NULL;
    }
    if (!PMP) { s = FL_FAIL(err, fl_sparse_failure(&ctx->cm), "CHOLMOD failed forming P M P (status %d)", ctx->cm.status); goto done; }
    Sub = cholmod_submatrix(PMP, b->map->full_of_free, (long)n, b->map->full_of_free, (long)n, 1, 1, &ctx->cm);
    if (!Sub) { s = FL_FAIL(err, fl_sparse_failure(&ctx->cm), "cholmod_submatrix failed"); goto done; }
    b->Mr0 = cholmod_copy(Sub, 1, 1, &ctx->cm);     /* symmetric, upper */
    if (!b->Mr0) { s = FL_FAIL(err, fl_sparse_failure(&ctx->cm), "cholmod_copy failed"); goto done; }
done:
    fl_sparse_free(ctx, &Pm);
    fl_sparse_free(ctx, &Mu);
    fl_sparse_free(ctx, &PM);
    fl_sparse_free(ctx, &PMP);
    fl_sparse_free(ctx, &Sub);
    return s;
}

/* K = G0^-1 (G - G0) G0^-1 (symmetrised), by a Cholesky factor of G0 */
static fl_status block_low_rank_K(gsl_matrix *K, const gsl_matrix *G, const gsl_matrix *G0, fl_error *err)
{
    size_t k = K->size1;
    gsl_matrix *L = fl_dense_matrix_alloc(k, k);
    if (!L) return FL_FAIL(err, FL_ENOMEM, "out of memory for the %zu x %zu Gram matrix", k, k);
    gsl_matrix_memcpy(L, G0);
    gsl_error_handler_t *h = fl_gsl_handler_off();
    int rc = gsl_linalg_cholesky_decomp1(L);
    fl_gsl_handler_restore(h);
    if (rc != 0) {
        gsl_matrix_free(L);
        return FL_FAIL(err, FL_ESINGULAR, "affine fields dependent once projected on N^perp");
    }
    gsl_matrix_memcpy(K, G);
    gsl_matrix_sub(K, G0);
    for (size_t c = 0; c < k; c++) {
        gsl_vector_view v = gsl_matrix_column(K, c);
        gsl_linalg_cholesky_svx(L, &v.vector);
    }
    gsl_matrix_transpose(K);
    for (size_t c = 0; c < k; c++) {
        gsl_vector_view v = gsl_matrix_column(K, c);
        gsl_linalg_cholesky_svx(L, &v.vector);
    }
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (gsl_matrix_get(K, i, j) + gsl_matrix_get(K, j, i));
            gsl_matrix_set(K, i, j, a);
            gsl_matrix_set(K, j, i, a);
        }
    gsl_matrix_free(L);
    return FL_OK;
}

/* low-rank part: Q = P R, G = R^T M R, G0 = Q^T M Q, K = G0^-1 (G - G0) G0^-1, U = P M Q */
static fl_status block_low_rank(fl_sparse_ctx *ctx, fl_midpoint_block_sparse *b, size_t m,
                                cholmod_sparse *Mfull, cholmod_sparse *Bfull, fl_error *err)
{
    fl_status s;
    size_t k = 6, n = b->map->nfree, nfull = 2 * b->mesh->nnodes;
    double *bx = NULL, *col = NULL;
    gsl_matrix *R = NULL, *Q = NULL, *MQ = NULL, *MR = NULL, *G = NULL, *G0 = NULL, *Ufull = NULL;
    if ((s = fl_fe2d_affine_fields(b->mesh, &R, err))) goto done;
    Q = fl_dense_matrix_alloc(nfull, k); MQ = fl_dense_matrix_alloc(nfull, k); MR = fl_dense_matrix_alloc(nfull, k);
    G = fl_dense_matrix_alloc(k, k); G0 = fl_dense_matrix_alloc(k, k); Ufull = fl_dense_matrix_alloc(nfull, k);
    b->K = fl_dense_matrix_alloc(k, k);
    b->U = fl_dense_matrix_alloc(n, k);
    col = malloc(2 * nfull * sizeof(double));
    bx = malloc(m * sizeof(double));
    if (!Q || !MQ || !MR || !G || !G0 || !Ufull || !b->K || !b->U || !col || !bx) {
        s = FL_FAIL(err, FL_ENOMEM, "redistribution workspaces");
        goto done;
    }
    double *y = col + nfull;
    for (size_t c = 0; c < k; c++) {
        for (size_t i = 0; i < nfull; i++) col[i] = gsl_matrix_get(R, i, c);
        if ((s = fl_sparse_mv(ctx, Mfull, 0, 1.0, col, 0.0, y, err))) goto done;
        for (size_t i = 0; i < nfull; i++) gsl_matrix_set(MR, i, c, y[i]);
        project(ctx, Bfull, col, bx);
        for (size_t i = 0; i < nfull; i++) gsl_matrix_set(Q, i, c, col[i]);
        if ((s = fl_sparse_mv(ctx, Mfull, 0, 1.0, col, 0.0, y, err))) goto done;
        for (size_t i = 0; i < nfull; i++) gsl_matrix_set(MQ, i, c, y[i]);
        project(ctx, Bfull, y, bx);
        for (size_t i = 0; i < nfull; i++) gsl_matrix_set(Ufull, i, c, y[i]);
    }
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, R, MR, 0.0, G);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, Q, MQ, 0.0, G0);
    if ((s = block_low_rank_K(b->K, G, G0, err))) goto done;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < k; c++)
            gsl_matrix_set(b->U, i, c, gsl_matrix_get(Ufull, (size_t)b->map->full_of_free[i], c));
done:
    free(bx); free(col);
    gsl_matrix_free(R); gsl_matrix_free(Q); gsl_matrix_free(MQ); gsl_matrix_free(MR);
    gsl_matrix_free(G); gsl_matrix_free(G0); gsl_matrix_free(Ufull);
    return s;
}

fl_status fl_midpoint_block_alloc_sparse(fl_sparse_ctx *ctx, const fl_midpoint_block_params *bp,
                                         size_t dense_rows_limit,
                                         fl_midpoint_block_sparse **out, fl_error *err)
{
    *out = NULL;
    fl_midpoint_block_sparse *b = calloc(1, sizeof *b);
    if (!b) return FL_FAIL(err, FL_ENOMEM, "cannot allocate a sparse block");
    b->ctx = ctx;
    cholmod_sparse *Mfull = NULL, *Bfull = NULL;
    fl_status s = block_mesh(b, bp, err);
    size_t m = bp->redist == FL_REDIST_BOTH ? 2 * b->nc : b->nc;
    if (s == FL_OK) s = block_stiffness_load(ctx, b, bp, &Mfull, err);
    if (s == FL_OK) s = block_contact_rows(ctx, b, m, dense_rows_limit, &Bfull, err);
    if (s == FL_OK) s = block_projected_mass(ctx, b, bp->redist, Mfull, Bfull, err);
    if (s == FL_OK && bp->redist != FL_REDIST_NONE) s = block_low_rank(ctx, b, m, Mfull, Bfull, err);
    if (s == FL_OK) {
        memset(&b->prob, 0, sizeof b->prob);
        b->prob.n = b->map->nfree;
        b->prob.nc = b->nc;
        b->prob.mu = bp->mu;
        b->prob.v_found = bp->v_found;
        b->prob.f = b->f;
        b->prob.Bnu = b->Bnu_d;
        b->prob.Btau = b->Btau_d;
        b->prob.Mr0_s = b->Mr0;
        b->prob.A_s = b->A;
        b->prob.U = b->U;
        b->prob.K = b->K;
        b->prob.Bnu_s = b->Bnu;
        b->prob.Btau_s = b->Btau;
    }
    fl_sparse_free(ctx, &Mfull);
    fl_sparse_free(ctx, &Bfull);
    if (s != FL_OK) fl_midpoint_block_free_sparse(b);
    else *out = b;
    return s;
}
