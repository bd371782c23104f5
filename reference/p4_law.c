/* p4_law.c — the generalized friction law P'4 (paper 001 §3–§5), dense
 * reference.  The step algorithm is written once on the operator form
 * fl_p4_ops (x -> W x, x -> M x); this file supplies the dense operators
 * (Cholesky of M through fl_spd), optimized/p4_law_sparse.c the CHOLMOD ones.
 * Derivations not printed in 001: proofs/p4_law.md.
 */
#include "p4_law.h"
#include "p4_law_internal.h"
#include "fl_dense.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

fl_p4_options fl_p4_options_default(void)
{
    fl_p4_options o;
    o.tol = 1e-12;
    o.impact_tol = 1e-12;
    o.max_iter = 10000;
    o.check_impact_law = 1;
    return o;
}

fl_p4_step_result *fl_p4_step_result_alloc(size_t n, size_t m)
{
    fl_p4_step_result *r = calloc(1, sizeof *r);
    if (!r || n == 0) {
        free(r);
        return NULL;
    }
    r->n = n;
    r->m = m;
    r->v_plus = fl_dense_vector_calloc(n);
    r->R = fl_dense_vector_calloc(n);
    r->r_tau = fl_dense_vector_calloc(n);
    r->lambda = m ? fl_dense_vector_calloc(m) : NULL;
    if (!r->v_plus || !r->R || !r->r_tau || (m && !r->lambda)) {
        fl_p4_step_result_free(r);
        return NULL;
    }
    return r;
}

void fl_p4_step_result_free(fl_p4_step_result *r)
{
    if (!r) return;
    if (r->v_plus) gsl_vector_free(r->v_plus);
    if (r->R) gsl_vector_free(r->R);
    if (r->r_tau) gsl_vector_free(r->r_tau);
    if (r->lambda) gsl_vector_free(r->lambda);
    free(r);
}

/* ------------------------------------------------------------------------
 * Workspace: the operators of one configuration q.
 *   WDt = W D^T (n x m), G = D W D^T (m x m, Cholesky in Gf),
 *   E = all friction bases stacked (K x n, K = sum k_alpha), WE = W E^T.
 * Nothing here is n x n.
 * ---------------------------------------------------------------------- */
typedef struct p4_ws {
    const fl_p4_ops *ops;
    const fl_p4_problem *p;
    size_t n, m, K;
    size_t *off;           /* block offsets in the stacked basis, m + 1 */
    gsl_matrix *WDt, *G, *Gf;
    gsl_matrix *E, *WE;    /* K x n, n x K (NULL when K = 0) */
    gsl_vector *tn, *tn2;  /* n scratch */
    gsl_vector *tm;        /* m scratch */
} p4_ws;

static void ws_free(p4_ws *w)
{
    free(w->off);
    if (w->WDt) gsl_matrix_free(w->WDt);
    if (w->G) gsl_matrix_free(w->G);
    if (w->Gf) gsl_matrix_free(w->Gf);
    if (w->E) gsl_matrix_free(w->E);
    if (w->WE) gsl_matrix_free(w->WE);
    if (w->tn) gsl_vector_free(w->tn);
    if (w->tn2) gsl_vector_free(w->tn2);
    if (w->tm) gsl_vector_free(w->tm);
    memset(w, 0, sizeof *w);
}

static int set_dim(const fl_p4_problem *p, size_t a)
{
    return p->C ? p->C[a].set.dim : 0;
}

static fl_status ws_init(p4_ws *w, const fl_p4_ops *ops, const fl_p4_problem *p, fl_error *err)
{
    memset(w, 0, sizeof *w);
    w->ops = ops;
    w->p = p;
    w->n = p->n;
    w->m = p->m;
    size_t n = p->n, m = p->m;
    w->tn = fl_dense_vector_alloc(n);
    w->tn2 = fl_dense_vector_alloc(n);
    w->off = calloc(m + 1, sizeof *w->off);
    if (!w->tn || !w->tn2 || !w->off) goto nomem;
    for (size_t a = 0; a < m; a++) w->off[a + 1] = w->off[a] + (size_t)set_dim(p, a);
    w->K = w->off[m];
    if (m == 0) return FL_OK;
    w->tm = fl_dense_vector_alloc(m);
    w->WDt = fl_dense_matrix_alloc(n, m);
    w->G = fl_dense_matrix_alloc(m, m);
    w->Gf = fl_dense_matrix_alloc(m, m);
    if (!w->tm || !w->WDt || !w->G || !w->Gf) goto nomem;
    for (size_t a = 0; a < m; a++) {                 /* WDt(:,a) = W dphi_a */
        gsl_vector_const_view d = gsl_matrix_const_row(p->D, a);
        gsl_vector_view c = gsl_matrix_column(w->WDt, a);
        gsl_vector_memcpy(w->tn, &d.vector);
        FL_TRY(ops->solve(ops->ctx, w->tn, &c.vector));
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, p->D, w->WDt, 0.0, w->G); /* G = D W D^T */
    gsl_matrix_memcpy(w->Gf, w->G);
    if (fl_dense_cholesky(w->Gf, NULL) != FL_OK)
        return FL_FAIL(err, FL_ESINGULAR,
                       "constraint gradients dphi_alpha are linearly dependent (001 §5 independence)");
    if (w->K == 0) return FL_OK;
    w->E = fl_dense_matrix_alloc(w->K, n);
    w->WE = fl_dense_matrix_alloc(n, w->K);
    if (!w->E || !w->WE) goto nomem;
    for (size_t a = 0; a < m; a++) {
        for (size_t j = 0; j < (size_t)set_dim(p, a); j++) {
            gsl_vector_const_view e = gsl_matrix_const_row(p->C[a].E, j);
            gsl_vector_view dst = gsl_matrix_row(w->E, w->off[a] + j);
            gsl_vector_memcpy(&dst.vector, &e.vector);
            gsl_vector_view c = gsl_matrix_column(w->WE, w->off[a] + j);
            gsl_vector_memcpy(w->tn, &e.vector);
            FL_TRY(ops->solve(ops->ctx, w->tn, &c.vector));
        }
    }
    return FL_OK;
nomem:
    return FL_FAIL(err, FL_ENOMEM, "allocating the P'4 workspace");
}

/* ym = G^-1 xm (in place). */
static void g_solve(const p4_ws *w, gsl_vector *x)
{
    gsl_linalg_cholesky_svx(w->Gf, x);
}

/* 001 §3.1 / P'4 velocity split: v_n = W D^T G^-1 D v, v_t = v - v_n. */
static void ws_split_velocity(p4_ws *w, const gsl_vector *v, gsl_vector *vn, gsl_vector *vt)
{
    if (w->m == 0) {
        if (vn) gsl_vector_set_zero(vn);
        if (vt) gsl_vector_memcpy(vt, v);
        return;
    }
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->p->D, v, 0.0, w->tm);
    g_solve(w, w->tm);
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->WDt, w->tm, 0.0, w->tn2);
    if (vt) {
        gsl_vector_memcpy(vt, v);
        gsl_vector_sub(vt, w->tn2);
    }
    if (vn) gsl_vector_memcpy(vn, w->tn2);
}

/* min 1/2 x^T G x - b^T x over x >= 0, i.e. the LCP w = G x - b >= 0, x >= 0,
 * x.w = 0 with G symmetric positive definite (a P-matrix).  Murty's
 * least-index principal pivoting: finite for P-matrices ([DERIVED] NNLS,
 * proofs/p4_law.md §1).  G is m x m, m small. */
static fl_status nonneg_qp(const gsl_matrix *G, const gsl_vector *b, gsl_vector *x)
{
    size_t m = G->size1;
    int *basic = calloc(m, sizeof *basic);
    gsl_matrix *S = fl_dense_matrix_alloc(m, m);
    gsl_vector *rhs = fl_dense_vector_alloc(m);
    gsl_vector *wv = fl_dense_vector_alloc(m);
    size_t *idx = calloc(m, sizeof *idx);
    fl_status st = FL_OK;
    if (!basic || !S || !rhs || !wv || !idx) {
        st = FL_ENOMEM;
        goto done;
    }
    double scale = 0.0;
    for (size_t i = 0; i < m; i++) scale = fmax(scale, fabs(gsl_vector_get(b, i)));
    double tol = 1e-14 * (scale > 0 ? scale : 1.0);
    for (int it = 0; it < 1 << 20; it++) {
        /* x_B = G_BB^-1 b_B, x_N = 0 */
        size_t nb = 0;
        for (size_t i = 0; i < m; i++) if (basic[i]) idx[nb++] = i;
        gsl_vector_set_zero(x);
        if (nb) {
            gsl_matrix_view Sb = gsl_matrix_submatrix(S, 0, 0, nb, nb);
            gsl_vector_view rb = gsl_vector_subvector(rhs, 0, nb);
            for (size_t i = 0; i < nb; i++) {
                gsl_vector_set(&rb.vector, i, gsl_vector_get(b, idx[i]));
                for (size_t j = 0; j < nb; j++)
                    gsl_matrix_set(&Sb.matrix, i, j, gsl_matrix_get(G, idx[i], idx[j]));
            }
            if (fl_dense_cholesky(&Sb.matrix, NULL) != FL_OK) {
                st = FL_ESINGULAR;
                goto done;
            }
            gsl_linalg_cholesky_svx(&Sb.matrix, &rb.vector);
            for (size_t i = 0; i < nb; i++) gsl_vector_set(x, idx[i], gsl_vector_get(&rb.vector, i));
        }
        gsl_vector_memcpy(wv, b);
        gsl_blas_dgemv(CblasNoTrans, 1.0, G, x, -1.0, wv);        /* w = G x - b */
        size_t flip = m;
        for (size_t i = 0; i < m && flip == m; i++) {
            if (basic[i] && gsl_vector_get(x, i) < -tol) flip = i;
            if (!basic[i] && gsl_vector_get(wv, i) < -tol) flip = i;
        }
        if (flip == m) {
            for (size_t i = 0; i < m; i++)
                if (gsl_vector_get(x, i) < 0) gsl_vector_set(x, i, 0.0);
            goto done;
        }
        basic[flip] = !basic[flip];
    }
    st = FL_ENOCONV;
done:
    free(basic);
    free(idx);
    if (S) gsl_matrix_free(S);
    if (rhs) gsl_vector_free(rhs);
    if (wv) gsl_vector_free(wv);
    return st;
}

/* 001 (4.1), P'4 reaction split: lambda = argmin_{lambda >= 0} |r - D^T lambda|_W^2
 * (expanding: 1/2 lambda^T G lambda - lambda^T (D W r)); r_tau = r - D^T lambda.
 * KKT = (4.1): lambda >= 0, D W r_tau <= 0, lambda . D W r_tau = 0. */
static fl_status ws_split_reaction(p4_ws *w, const gsl_vector *r, gsl_vector *lambda,
                                   gsl_vector *r_tau)
{
    if (w->m == 0) {
        if (r_tau) gsl_vector_memcpy(r_tau, r);
        return FL_OK;
    }
    gsl_vector *b = fl_dense_vector_alloc(w->m);
    gsl_vector *l = fl_dense_vector_alloc(w->m);
    if (!b || !l) {
        if (b) gsl_vector_free(b);
        if (l) gsl_vector_free(l);
        return FL_ENOMEM;
    }
    gsl_blas_dgemv(CblasTrans, 1.0, w->WDt, r, 0.0, b);         /* b = D W r */
    fl_status st = nonneg_qp(w->G, b, l);
    if (st == FL_OK) {
        if (lambda) gsl_vector_memcpy(lambda, l);
        if (r_tau) {
            gsl_vector_memcpy(r_tau, r);
            gsl_blas_dgemv(CblasTrans, -1.0, w->p->D, l, 1.0, r_tau);  /* r - D^T lambda */
        }
    }
    gsl_vector_free(b);
    gsl_vector_free(l);
    return st;
}

/* S_{C*}(v) = sup_{c in set} c.(E v) (001 §3.2, §6.2). */
int fl_p4_support(const fl_p4_friction *C, const gsl_vector *v, double *value)
{
    double y[2] = {0.0, 0.0};
    for (int j = 0; j < C->set.dim; j++) {
        gsl_vector_const_view e = gsl_matrix_const_row(C->E, (size_t)j);
        gsl_blas_ddot(&e.vector, v, &y[j]);
    }
    return fl_friction_set_support(&C->set, y, value);
}

/* Multipliers at rounding level are zero: lambda_alpha |dphi_alpha|* <=
 * 1e-12 scale (a momentum scale).  Without this, an unbounded C*_alpha would
 * turn a rounding residue lambda_alpha = 1e-16 into an unbounded admissible
 * set lambda_alpha C*_alpha, while 0 C* = {0} (001 §3.2). */
static void cut_rounding(const p4_ws *w, gsl_vector *lam, double scale)
{
    for (size_t a = 0; a < w->m; a++) {
        double dn = sqrt(gsl_matrix_get(w->G, a, a));
        if (gsl_vector_get(lam, a) * dn <= 1e-12 * scale) gsl_vector_set(lam, a, 0.0);
    }
}

/* Euclidean projection of z (2D) onto the barrier cone D(S) = {z : rho_k.z
 * <= 0 for every ray rho_k} of a polygon with at most two rays: z itself, or
 * its projection on the boundary line of one violated constraint when it
 * satisfies the other, or the apex 0 (proofs/p4_law.md §3, the certificate). */
static void barrier_project(const fl_friction_set *set, const double *z, double *p)
{
    p[0] = z[0];
    p[1] = z[1];
    int ok = 1;
    for (size_t k = 0; k < set->nray; k++)
        if (set->ray[2 * k] * z[0] + set->ray[2 * k + 1] * z[1] > 0) ok = 0;
    if (ok) return;
    double best = INFINITY;
    for (size_t k = 0; k < set->nray; k++) {
        const double *r = set->ray + 2 * k;
        double rz = r[0] * z[0] + r[1] * z[1], rr = r[0] * r[0] + r[1] * r[1];
        if (rz <= 0) continue;
        double c[2] = {z[0] - rz / rr * r[0], z[1] - rz / rr * r[1]};
        int feas = 1;
        for (size_t j = 0; j < set->nray; j++)
            if (j != k && set->ray[2 * j] * c[0] + set->ray[2 * j + 1] * c[1] > 0) feas = 0;
        double d = hypot(z[0] - c[0], z[1] - c[1]);
        if (feas && d < best) {
            best = d;
            p[0] = c[0];
            p[1] = c[1];
        }
    }
    if (isinf(best)) p[0] = p[1] = 0.0;                    /* the apex */
}

/* S_set(y) where y may lie outside D(S) by rounding only: y at distance
 * <= tol from D(S) (the recession condition rho.y <= 0, 001 §6.2) is
 * replaced by its projection on D(S) before evaluating.  Returns 0 when
 * S(y) = +inf beyond tol.
 * The distance is measured to D(S) itself, not ray by ray: with two rays
 * a one-ray-at-a-time correction of a y violating both (y a rounding
 * residue of a sticking v_t = 0, so rho.y / |y| is O(1) although |y| is
 * 1e-15 of the velocity scale) can end outside D(S) again, which turned
 * a sticking step's certificate into +inf.  fl_friction_set_support's own test is
 * relative to |y| (right for a y of the problem's size, wrong for a
 * rounding residue): tol is relative to the velocity scale. */
static int support_tol(const fl_friction_set *set, const double *y, double tol, double *value)
{
    if (fl_friction_set_support(set, y, value)) return 1;
    double z[2] = {y[0], set->dim == 2 ? y[1] : 0.0};
    if (set->kind == FL_SET_INTERVAL) {
        if (fabs(z[0]) > tol) return 0;
        z[0] = 0.0;
    } else if (set->kind == FL_SET_POLYGON && set->nray <= 2) {
        double pz[2], zero[2] = {0.0, 0.0};
        barrier_project(set, z, pz);
        if (hypot(z[0] - pz[0], z[1] - pz[1]) <= tol && fl_friction_set_support(set, pz, value)) return 1;
        /* pz lands near the apex after a cancellation (|pz| << |z|): its
         * rounding is relative to |z|, not |pz|, and may fail the recession
         * test again; the apex 0 is in D(S) and is within tol when |z| is */
        if (hypot(z[0], z[1]) > tol) return 0;
        z[0] = zero[0];
        z[1] = zero[1];
    } else if (set->kind == FL_SET_POLYGON) {
        for (size_t k = 0; k < set->nray; k++) {
            const double *r = set->ray + 2 * k;
            double rr = sqrt(r[0] * r[0] + r[1] * r[1]), ry = (r[0] * z[0] + r[1] * z[1]) / rr;
            if (ry > tol) return 0;
            if (ry > 0) {
                z[0] -= ry * r[0] / rr;
                z[1] -= ry * r[1] / rr;
            }
        }
    }
    return fl_friction_set_support(set, z, value);
}

/* lambda_alpha S_{C*_alpha}(x) with 0 * (+inf) = 0 (001 §3.2: S_{0 C*} = 0).
 * Returns 0 when the value is +inf (lambda > 0 and x outside D(S) by more
 * than tol in the coordinates E x). */
static int scaled_support(const fl_p4_friction *C, double lambda, const gsl_vector *x,
                          double tol, double *value)
{
    if (lambda <= 0.0) {
        *value = 0.0;
        return 1;
    }
    double s, y[2] = {0.0, 0.0};
    for (int j = 0; j < C->set.dim; j++) {
        gsl_vector_const_view e = gsl_matrix_const_row(C->E, (size_t)j);
        gsl_blas_ddot(&e.vector, x, &y[j]);
    }
    if (!support_tol(&C->set, y, tol, &s)) return 0;
    *value = lambda * s;
    return 1;
}

/* Projection of x (k coordinates) onto lam * set in the metric H (k x k, row
 * major): lam * Proj_H(x / lam, set); lam = 0 gives 0 (0 C* = {0}). */
static fl_status project_scaled(const fl_friction_set *set, double lam, const double *H,
                                const double *x, double *p, fl_error *err)
{
    int k = set->dim;
    if (lam <= 0.0) {
        p[0] = p[1] = 0.0;
        return FL_OK;
    }
    double xs[2] = {0.0, 0.0}, ps[2] = {0.0, 0.0};
    for (int j = 0; j < k; j++) xs[j] = x[j] / lam;
    FL_TRY(fl_friction_set_project_metric(set, H, xs, ps, err));
    for (int j = 0; j < k; j++) p[j] = lam * ps[j];
    return FL_OK;
}

/* Block Gauss–Seidel for min 1/2 c^T H c + g^T c over c_alpha in lam_alpha C_alpha
 * (H K x K symmetric PSD, blocks of size k_alpha positive definite).  Each
 * block update is an exact projection in the metric H_aa.  Converges for
 * convex QPs with strictly convex blocks (proofs/p4_law.md §3).  Stops when
 * the largest block change is <= tol * scale, or after max_iter sweeps. */
static fl_status block_gauss_seidel(const p4_ws *w, const gsl_matrix *H, const gsl_vector *g,
                                    const gsl_vector *lam, gsl_vector *c, double tol,
                                    double scale, int max_iter, int *iters, fl_error *err)
{
    size_t m = w->m;
    gsl_vector_set_zero(c);
    if (!(scale > 0.0)) scale = 1.0;
    int nblocks_active = 0;
    for (size_t a = 0; a < m; a++) if (w->off[a + 1] > w->off[a]) nblocks_active++;
    int it = 0;
    for (it = 1; it <= max_iter; it++) {
        double change = 0.0;
        for (size_t a = 0; a < m; a++) {
            size_t o = w->off[a], k = w->off[a + 1] - o;
            if (k == 0) continue;
            double Haa[4] = {0, 0, 0, 0}, rhs[2] = {0, 0}, x[2] = {0, 0}, pnew[2] = {0, 0};
            for (size_t i = 0; i < k; i++) {
                double s = gsl_vector_get(g, o + i);
                for (size_t j = 0; j < H->size2; j++)
                    if (j < o || j >= o + k) s += gsl_matrix_get(H, o + i, j) * gsl_vector_get(c, j);
                rhs[i] = s;
                for (size_t j = 0; j < k; j++) Haa[i * k + j] = gsl_matrix_get(H, o + i, o + j);
            }
            /* unconstrained block minimiser x = -Haa^+ rhs.  A block whose span
             * meets span D^T is singular (W Q kills that direction): use the
             * pseudo-inverse, and project in Haa + reg I (the tie along the
             * null direction is broken by the nearest point to x). */
            double tr = 0.0;
            for (size_t i = 0; i < k; i++) tr += Haa[i * k + i];
            if (k == 1) {
                x[0] = Haa[0] > 0 ? -rhs[0] / Haa[0] : 0.0;
                if (!(Haa[0] > 0)) Haa[0] = 1.0;
            } else {
                double det = Haa[0] * Haa[3] - Haa[1] * Haa[2];
                if (det > 1e-10 * tr * tr) {
                    x[0] = -(Haa[3] * rhs[0] - Haa[1] * rhs[1]) / det;
                    x[1] = -(-Haa[2] * rhs[0] + Haa[0] * rhs[1]) / det;
                } else {
                    /* rank <= 1: Haa ~ tr u u^T with u the unit eigenvector of the
                     * largest eigenvalue; x = -(u.rhs / tr) u */
                    double ux = Haa[0] >= Haa[3] ? Haa[0] : Haa[1];
                    double uy = Haa[0] >= Haa[3] ? Haa[2] : Haa[3];
                    double un = hypot(ux, uy);
                    if (un > 0 && tr > 0) {
                        ux /= un;
                        uy /= un;
                        double t = -(ux * rhs[0] + uy * rhs[1]) / tr;
                        x[0] = t * ux;
                        x[1] = t * uy;
                    }
                    double reg = 1e-10 * (tr > 0 ? tr : 1.0);
                    Haa[0] += reg;
                    Haa[3] += reg;
                }
            }
            FL_TRY(project_scaled(&w->p->C[a].set, gsl_vector_get(lam, a), Haa, x, pnew, err));
            /* change measured in the metric H_aa: |W Q E_a^T dc|_M for the step,
             * |E_a^T dc|*_M for K_frict (the primal change, not the dual one) */
            double dc[2] = {0, 0}, q = 0.0;
            for (size_t i = 0; i < k; i++) dc[i] = pnew[i] - gsl_vector_get(c, o + i);
            for (size_t i = 0; i < k; i++)
                for (size_t j = 0; j < k; j++) q += dc[i] * gsl_matrix_get(H, o + i, o + j) * dc[j];
            change = fmax(change, sqrt(fmax(q, 0.0)));
            for (size_t i = 0; i < k; i++) gsl_vector_set(c, o + i, pnew[i]);
        }
        if (change <= tol * scale || nblocks_active <= 1) break;
    }
    if (it > max_iter) it = max_iter;
    *iters = it;
    return FL_OK;
}

/* ------------------------------------------------------------------------
 * Impact law and its consistency (001 §5, conditions C1–C4)
 * ---------------------------------------------------------------------- */

static fl_status ws_newton(p4_ws *w, const fl_p4_impact_law *law, const gsl_vector *v,
                           gsl_vector *F, fl_error *err)
{
    if (w->m == 0) {
        gsl_vector_set_zero(F);
        return FL_OK;
    }
    gsl_vector *u = fl_dense_vector_alloc(w->m);
    if (!u) return FL_FAIL(err, FL_ENOMEM, "allocating Newton's law");
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->p->D, v, 0.0, u);     /* u = D v */
    for (size_t a = 0; a < w->m; a++) {
        double e = law->e_alpha ? law->e_alpha[a] : law->e;
        double ua = gsl_vector_get(u, a);
        if (ua < 0) gsl_vector_set(u, a, -e * ua);                 /* D_a F = -e D_a v */
    }
    g_solve(w, u);
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->WDt, u, 0.0, F);        /* F = W D^T G^-1 u */
    gsl_vector_free(u);
    return FL_OK;
}

/* Moreau's inelastic law (001 §1.4, C1–C4 positive fixture): v^+ = Proj_M(v, {D v >= 0})
 * = v + W D^T mu with mu = argmin_{mu >= 0} 1/2 mu^T G mu + mu^T D v; F = its
 * normal part = v_n + W D^T mu. */
static fl_status ws_inelastic(p4_ws *w, const gsl_vector *v, gsl_vector *F, fl_error *err)
{
    if (w->m == 0) {
        gsl_vector_set_zero(F);
        return FL_OK;
    }
    gsl_vector *b = fl_dense_vector_alloc(w->m), *mu = fl_dense_vector_alloc(w->m);
    fl_status st = FL_OK;
    if (!b || !mu) st = FL_FAIL(err, FL_ENOMEM, "allocating the inelastic law");
    if (st == FL_OK) {
        gsl_blas_dgemv(CblasNoTrans, -1.0, w->p->D, v, 0.0, b);   /* b = -D v */
        st = nonneg_qp(w->G, b, mu);
        if (st < 0) FL_FAIL(err, st, "inelastic impact law: LCP failed");
    }
    if (st == FL_OK) {
        ws_split_velocity(w, v, F, NULL);
        gsl_blas_dgemv(CblasNoTrans, 1.0, w->WDt, mu, 1.0, F);
    }
    if (b) gsl_vector_free(b);
    if (mu) gsl_vector_free(mu);
    return st;
}

static fl_status ws_impact_eval(p4_ws *w, const fl_p4_impact_law *law, const gsl_vector *v,
                                gsl_vector *F, fl_error *err)
{
    if (!law) return FL_FAIL(err, FL_EINVAL, "no impact law given");
    if (law->kind == FL_P4_IMPACT_NEWTON) {
        if (!isfinite(law->e) && !law->e_alpha)
            return FL_FAIL(err, FL_ENONFINITE, "restitution coefficient is not finite");
        return ws_newton(w, law, v, F, err);
    }
    if (law->kind == FL_P4_IMPACT_INELASTIC) return ws_inelastic(w, v, F, err);
    if (law->kind == FL_P4_IMPACT_CUSTOM && law->fn) {
        FL_TRY(law->fn(law->data, w->p, v, F, err));
        return fl_check_finite_vector(F, "impact law value F(q, v^-)", err);
    }
    return FL_FAIL(err, FL_EINVAL, "unknown impact law kind %d", (int)law->kind);
}

static double m_norm(p4_ws *w, const gsl_vector *v, gsl_vector *scratch)
{
    double s;
    w->ops->mult(w->ops->ctx, v, scratch);
    gsl_blas_ddot(v, scratch, &s);
    return sqrt(fmax(s, 0.0));
}

/* W-distance of r to K_frict: cone split, then min over c_alpha in
 * lambda_alpha C_alpha of |r_tau - sum E_alpha^T c_alpha|_W (001 §3–§5). */
static fl_status ws_kfrict_distance(p4_ws *w, const gsl_vector *r, double tol, int max_iter,
                                    double *dist, fl_error *err)
{
    size_t n = w->n, m = w->m, K = w->K;
    gsl_vector *rt = fl_dense_vector_alloc(n), *lam = m ? fl_dense_vector_alloc(m) : NULL;
    gsl_vector *Wr = fl_dense_vector_alloc(n);
    fl_status st = FL_OK;
    if (!rt || !Wr || (m && !lam)) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating K_frict test");
        goto done;
    }
    st = ws_split_reaction(w, r, lam, rt);
    if (st < 0) {
        FL_FAIL(err, st, "cone split of the reaction failed");
        goto done;
    }
    double rstar;                                            /* |r|*_M */
    if ((st = w->ops->solve(w->ops->ctx, r, Wr)) < 0) goto done;
    gsl_blas_ddot(r, Wr, &rstar);
    rstar = sqrt(fmax(rstar, 0.0));
    if (m) cut_rounding(w, lam, rstar);
    if (K > 0) {
        /* minimise 1/2 c^T (E W E^T) c - c^T (E W r_tau) */
        gsl_matrix *H = fl_dense_matrix_alloc(K, K);
        gsl_vector *g = fl_dense_vector_alloc(K), *c = fl_dense_vector_alloc(K);
        if (!H || !g || !c) {
            st = FL_FAIL(err, FL_ENOMEM, "allocating K_frict test");
        } else {
            int it;
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, w->E, w->WE, 0.0, H);
            gsl_blas_dgemv(CblasTrans, -1.0, w->WE, rt, 0.0, g);
            st = block_gauss_seidel(w, H, g, lam, c, tol, rstar, max_iter, &it, err);
            if (st == FL_OK) gsl_blas_dgemv(CblasTrans, -1.0, w->E, c, 1.0, rt); /* r_tau - E^T c */
        }
        if (H) gsl_matrix_free(H);
        if (g) gsl_vector_free(g);
        if (c) gsl_vector_free(c);
        if (st != FL_OK) goto done;
    }
    FL_TRY(w->ops->solve(w->ops->ctx, rt, Wr));
    double d2;
    gsl_blas_ddot(rt, Wr, &d2);
    *dist = sqrt(fmax(d2, 0.0));
done:
    if (rt) gsl_vector_free(rt);
    if (Wr) gsl_vector_free(Wr);
    if (lam) gsl_vector_free(lam);
    return st;
}

static fl_status ws_impact_check(p4_ws *w, const gsl_vector *v, const gsl_vector *F, double tol,
                                 fl_p4_consistency *rep, fl_error *err)
{
    size_t n = w->n, m = w->m;
    fl_p4_consistency c;
    memset(&c, 0, sizeof c);
    c.c2_domain_ok = 1;
    gsl_vector *vn = fl_dense_vector_alloc(n), *Ft = fl_dense_vector_alloc(n), *sc = fl_dense_vector_alloc(n);
    gsl_vector *r = fl_dense_vector_alloc(n), *mF = fl_dense_vector_alloc(n);
    fl_status st = FL_OK;
    if (!vn || !Ft || !sc || !r || !mF) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating the consistency check");
        goto done;
    }
    ws_split_velocity(w, v, vn, NULL);
    double nv = m_norm(w, v, sc), nvn = m_norm(w, vn, sc), nF = m_norm(w, F, sc);
    double scale = fmax(fmax(nv, nF), 1e-300);
    /* C1: F in sum R grad phi_alpha: its tangential part vanishes */
    ws_split_velocity(w, F, NULL, Ft);
    c.c1 = m_norm(w, Ft, sc) / scale;
    /* C2: <dphi_alpha, F> >= 0; = 0 => -F in D(S_{C*_alpha}) */
    for (size_t a = 0; a < m; a++) {
        gsl_vector_const_view d = gsl_matrix_const_row(w->p->D, a);
        double dF;
        gsl_blas_ddot(&d.vector, F, &dF);
        double dn = sqrt(gsl_matrix_get(w->G, a, a));       /* |dphi_a|* */
        double viol = fmax(-dF / (dn * scale), 0.0);
        c.c2 = fmax(c.c2, viol);
        if (fabs(dF) <= tol * dn * scale && w->p->C && w->p->C[a].set.dim > 0) {
            double s;
            gsl_vector_memcpy(mF, F);
            gsl_vector_scale(mF, -1.0);
            if (!fl_p4_support(&w->p->C[a], mF, &s)) c.c2_domain_ok = 0;
        }
    }
    /* C3: M (F - v^-_n) in K_frict */
    gsl_vector_memcpy(mF, F);
    gsl_vector_sub(mF, vn);
    w->ops->mult(w->ops->ctx, mF, r);
    double d3;
    st = ws_kfrict_distance(w, r, 1e-14, 100000, &d3, err);
    if (st < 0) goto done;
    c.c3 = d3 / scale;
    /* C4: |F|_M <= |v^-_n|_M */
    c.c4 = fmax(nF - nvn, 0.0) / scale;
    if (c.c1 > tol) c.failed = 1;
    else if (c.c2 > tol || !c.c2_domain_ok) c.failed = 2;
    else if (c.c3 > 1e3 * tol) c.failed = 3;
    else if (c.c4 > tol) c.failed = 4;
    if (rep) *rep = c;
    switch (c.failed) {
    case 1:
        st = FL_FAIL(err, FL_EINVAL,
                     "impact law inconsistent, C1 failed: F(q,v^-) has a tangential part "
                     "(|F_t|_M/|v|_M = %.3g > %.1g; 001 §5, F must lie in sum R n*_alpha)", c.c1, tol);
        break;
    case 2:
        if (c.c2 > tol)
            st = FL_FAIL(err, FL_EINVAL,
                         "impact law inconsistent, C2 failed: <dphi_alpha, F> < 0 "
                         "(violation %.3g > %.1g; 001 §5, F must satisfy the unilateral constraints)",
                         c.c2, tol);
        else
            st = FL_FAIL(err, FL_EINVAL,
                         "impact law inconsistent, C2 failed: <dphi_alpha, F> = 0 but -F is outside "
                         "D(S_C*) of an unbounded friction set (001 §5)");
        break;
    case 3:
        st = FL_FAIL(err, FL_EINVAL,
                     "impact law inconsistent, C3 failed: the percussion M(F - v^-_n) is not in "
                     "K_frict (W-distance %.3g; 001 §5)", c.c3);
        break;
    case 4:
        st = FL_FAIL(err, FL_EINVAL,
                     "impact law inconsistent, C4 failed: |F|_M > |v^-_n|_M, kinetic energy increases "
                     "(excess %.3g > %.1g; 001 §5)", c.c4, tol);
        break;
    default:
        break;
    }
done:
    if (vn) gsl_vector_free(vn);
    if (Ft) gsl_vector_free(Ft);
    if (sc) gsl_vector_free(sc);
    if (r) gsl_vector_free(r);
    if (mF) gsl_vector_free(mF);
    return st;
}

/* ------------------------------------------------------------------------
 * Problem checks
 * ---------------------------------------------------------------------- */
static fl_status check_common(const fl_p4_problem *p, fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "no problem given");
    if (p->n == 0) return FL_FAIL(err, FL_EDIM, "problem has no degrees of freedom");
    if (p->m > 0) {
        if (!p->D) return FL_FAIL(err, FL_EINVAL, "m = %zu active constraints but D is NULL", p->m);
        if (p->D->size1 != p->m || p->D->size2 != p->n)
            return FL_FAIL(err, FL_EDIM, "D is %zux%zu, expected %zux%zu (m x n)",
                           p->D->size1, p->D->size2, p->m, p->n);
        FL_TRY(fl_check_finite_matrix(p->D, "constraint gradients D", err));
        if (p->m > p->n)
            return FL_FAIL(err, FL_ESINGULAR, "%zu active constraints on %zu dofs cannot be independent",
                           p->m, p->n);
    }
    if (p->C) {
        for (size_t a = 0; a < p->m; a++) {
            const fl_p4_friction *C = &p->C[a];
            if (C->set.dim != 1 && C->set.dim != 2)
                return FL_FAIL(err, FL_EINVAL, "friction set %zu has dimension %d (expected 1 or 2)",
                               a, C->set.dim);
            if (!C->E || C->E->size1 != (size_t)C->set.dim || C->E->size2 != p->n)
                return FL_FAIL(err, FL_EDIM, "friction basis E of constraint %zu must be %dx%zu", a,
                               C->set.dim, p->n);
            FL_TRY(fl_check_finite_matrix(C->E, "friction basis E", err));
            double zero[2] = {0.0, 0.0};
            if (!fl_friction_set_contains(&C->set, zero, 1e-12))
                return FL_FAIL(err, FL_EINVAL,
                               "friction set %zu does not contain 0 (001 §3.2, Prop. 5.1 needs 0 in C*)", a);
        }
    }
    return FL_OK;
}

/* C*_alpha in T*_alpha: |E W dphi_alpha| small (relative). */
static fl_status check_tangent(p4_ws *w, fl_error *err)
{
    const fl_p4_problem *p = w->p;
    if (!p->C) return FL_OK;
    for (size_t a = 0; a < p->m; a++) {
        double dn = sqrt(gsl_matrix_get(w->G, a, a));
        for (int j = 0; j < p->C[a].set.dim; j++) {
            gsl_vector_const_view e = gsl_matrix_const_row(p->C[a].E, (size_t)j);
            gsl_vector_const_view wd = gsl_matrix_const_column(w->WDt, a);
            double x, en;
            gsl_blas_ddot(&e.vector, &wd.vector, &x);
            gsl_vector_const_view we = gsl_matrix_const_column(w->WE, w->off[a] + (size_t)j);
            gsl_blas_ddot(&e.vector, &we.vector, &en);
            if (fabs(x) > 1e-10 * sqrt(fmax(en, 0.0)) * dn)
                return FL_FAIL(err, FL_EINVAL,
                               "friction set %zu is not in T*_alpha: E W dphi = %.3g != 0 (001 §5)", a, x);
        }
    }
    return FL_OK;
}

/* ------------------------------------------------------------------------
 * The step (001 P'4 at the level of one time step; proofs/p4_law.md §3)
 * ---------------------------------------------------------------------- */

/* The vectors of one step: v_free, its normal and tangential parts v_n, a,
 * a scratch vector, the normal velocities u = D v^+, the friction
 * multipliers lam and the normal impulse lc. */
typedef struct {
    p4_ws *w;
    const fl_p4_problem *p;
    const fl_p4_options *opt;
    gsl_vector *vfree, *vn, *a, *sc, *u, *lam, *lc;
    double vscale;             /* the velocity scale max(|v^-|_M, |v_free|_M) */
} p4_step;

/* persistent contact: D v^+ = D v_free + G lc >= 0, lc >= 0, lc.D v^+ = 0 */
static fl_status step_persistent(p4_step *S, fl_error *err)
{
    const fl_p4_problem *p = S->p;
    size_t m = p->m;
    gsl_vector *b = fl_dense_vector_alloc(m);
    if (!b) return FL_FAIL(err, FL_ENOMEM, "allocating the contact LCP");
    gsl_blas_dgemv(CblasNoTrans, -1.0, p->D, S->vfree, 0.0, b);
    fl_status st = nonneg_qp(S->w->G, b, S->lc);
    gsl_vector_free(b);
    if (st < 0) {
        FL_FAIL(err, st, "the contact LCP failed");
        return st;
    }
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->D, S->vfree, 0.0, S->u);
    gsl_blas_dgemv(CblasNoTrans, 1.0, S->w->G, S->lc, 1.0, S->u);      /* u = D v_free + G lc */
    for (size_t al = 0; al < m; al++)
        if (gsl_vector_get(S->u, al) < 0) gsl_vector_set(S->u, al, 0.0);
    return FL_OK;
}

/* ---- normal part ---- */
static fl_status step_normal(p4_step *S, const gsl_vector *v_minus, const fl_p4_impact_law *law,
                             fl_p4_step_result *res, fl_error *err)
{
    const fl_p4_problem *p = S->p;
    p4_ws *w = S->w;
    size_t m = p->m;
    fl_status st;
    gsl_vector *u = S->u, *lc = S->lc, *vn = S->vn, *sc = S->sc;
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->D, v_minus, 0.0, u);   /* D v^- */
    for (size_t al = 0; al < m; al++) {
        double dn = sqrt(gsl_matrix_get(w->G, al, al));
        if (gsl_vector_get(u, al) < -S->opt->impact_tol * dn * fmax(S->vscale, 1e-300)) res->impact = 1;
    }
    if (res->impact) {
        /* impact: v^+_n = F(q, v_free), checked against C1–C4 (001 §5) */
        if ((st = ws_impact_eval(w, law, S->vfree, vn, err)) < 0) return st;
        if (S->opt->check_impact_law && (st = ws_impact_check(w, S->vfree, vn, 1e-9, NULL, err)) < 0)
            return st;
        gsl_blas_dgemv(CblasNoTrans, 1.0, p->D, vn, 0.0, u);     /* target D v^+ */
    } else if ((st = step_persistent(S, err)) < 0) {
        return st;
    }
    /* v^+_n = W D^T G^-1 u and the normal impulse lc = G^-1 (u - D v_free) */
    gsl_vector_memcpy(lc, u);
    g_solve(w, lc);
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->WDt, lc, 0.0, vn);
    gsl_blas_dgemv(CblasNoTrans, -1.0, p->D, S->vfree, 0.0, lc);
    gsl_vector_add(lc, u);
    g_solve(w, lc);
    /* friction multipliers: the cone split of the normal percussion D^T lc */
    gsl_blas_dgemv(CblasTrans, 1.0, p->D, lc, 0.0, sc);
    if ((st = ws_split_reaction(w, sc, S->lam, NULL)) < 0) {
        FL_FAIL(err, st, "cone split failed");
        return st;
    }
    cut_rounding(w, S->lam, S->vscale);
    return FL_OK;
}

/* certificate: gap = sum lambda S(-v_t) - <y, -v_t>,  y = E^T c, normalised
 * by |y|*_M |v_free|_M (the scale of both terms) */
static double step_gap(p4_step *S, const gsl_vector *g, const gsl_vector *c, const gsl_vector *v_plus)
{
    const fl_p4_problem *p = S->p;
    p4_ws *w = S->w;
    gsl_vector *sc = S->sc;
    double sup = 0.0, yv;
    gsl_vector_memcpy(sc, v_plus);
    gsl_vector_scale(sc, -1.0);
    int finite = 1;
    for (size_t al = 0; al < p->m; al++) {
        double s;
        if (set_dim(p, al) == 0) continue;
        double ga = 0.0;                 /* scale of E_alpha a */
        for (size_t j = w->off[al]; j < w->off[al + 1]; j++) ga = fmax(ga, fabs(gsl_vector_get(g, j)));
        if (!scaled_support(&p->C[al], gsl_vector_get(S->lam, al), sc, 1e-9 * ga + 1e-300, &s))
            finite = 0;
        else sup += s;
    }
    gsl_vector_view ev = gsl_vector_subvector(w->tn2, 0, p->n);
    gsl_blas_dgemv(CblasTrans, 1.0, w->E, c, 0.0, &ev.vector);          /* y = E^T c */
    gsl_blas_ddot(&ev.vector, sc, &yv);
    /* normalise by |y|*_M |v_free|_M (the scale of both terms) */
    double y2;
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->WE, c, 0.0, w->tn);            /* W y */
    gsl_blas_ddot(&ev.vector, w->tn, &y2);
    double scl = sqrt(fmax(y2, 0.0)) * S->vscale;
    return !finite ? INFINITY : (scl > 0 ? fabs(sup - yv) / scl : 0.0);
}

/* ---- tangential part: a = v_free,t; v_t = a + W Q E^T c ---- */
static fl_status step_tangential(p4_step *S, fl_p4_step_result *res, fl_error *err)
{
    p4_ws *w = S->w;
    size_t n = S->p->n, K = w->K;
    ws_split_velocity(w, S->vfree, NULL, S->a);
    gsl_vector_memcpy(res->v_plus, S->a);
    if (K == 0) return FL_OK;
    fl_status st = FL_OK;
    gsl_matrix *H = fl_dense_matrix_alloc(K, K), *WQE = fl_dense_matrix_alloc(n, K);
    gsl_vector *g = fl_dense_vector_alloc(K), *c = fl_dense_vector_alloc(K);
    if (!H || !WQE || !g || !c) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating the tangential problem");
        goto done;
    }
    for (size_t j = 0; j < K; j++) {                   /* WQE(:,j) = tangential part of W E_j */
        gsl_vector_view col = gsl_matrix_column(WQE, j);
        gsl_vector_const_view we = gsl_matrix_const_column(w->WE, j);
        gsl_vector_memcpy(S->sc, &we.vector);
        ws_split_velocity(w, S->sc, NULL, &col.vector);
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, w->E, WQE, 0.0, H); /* H = E W Q E^T */
    gsl_blas_dgemv(CblasNoTrans, 1.0, w->E, S->a, 0.0, g);              /* g = E a */
    int it = 0;
    st = block_gauss_seidel(w, H, g, S->lam, c, 1e-2 * S->opt->tol, S->vscale, S->opt->max_iter, &it, err);
    if (st < 0) goto done;
    res->iterations = it;
    gsl_blas_dgemv(CblasNoTrans, 1.0, WQE, c, 1.0, res->v_plus);       /* v_t */
    res->gap = step_gap(S, g, c, res->v_plus);
done:
    if (H) gsl_matrix_free(H);
    if (WQE) gsl_matrix_free(WQE);
    if (g) gsl_vector_free(g);
    if (c) gsl_vector_free(c);
    return st;
}

/* ---- reaction impulse, its cone split and the certificate ---- */
static fl_status step_reaction(p4_step *S, const fl_p4_ops *ops, fl_p4_step_result *res, fl_error *err)
{
    const fl_p4_problem *p = S->p;
    size_t m = p->m;
    fl_status st;
    gsl_vector_memcpy(S->sc, res->v_plus);
    gsl_vector_sub(S->sc, S->vfree);
    if ((st = ops->mult(ops->ctx, S->sc, res->R)) < 0) return st;           /* R = M(v^+ - v_free) */
    if ((st = ws_split_reaction(S->w, res->R, res->lambda, res->r_tau)) < 0) {
        FL_FAIL(err, st, "cone split of the reaction failed");
        return st;
    }
    if (m > 0) {
        gsl_vector *du = fl_dense_vector_alloc(m);
        if (!du) return FL_FAIL(err, FL_ENOMEM, "allocating");
        gsl_blas_dgemv(CblasNoTrans, 1.0, p->D, res->v_plus, 0.0, du);
        gsl_vector_sub(du, S->u);
        double nr = 0.0, sd = 0.0, vscale = S->vscale;
        for (size_t al = 0; al < m; al++) {
            /* both relative to the momentum scale: lambda_alpha |dphi_alpha|* / |v|_M */
            double dn = sqrt(gsl_matrix_get(S->w->G, al, al));
            nr = fmax(nr, fabs(gsl_vector_get(du, al)) / (dn * fmax(vscale, 1e-300)));
            sd = fmax(sd, fabs(gsl_vector_get(res->lambda, al) - gsl_vector_get(S->lam, al)) * dn /
                              fmax(vscale, 1e-300));
        }
        gsl_vector_free(du);
        res->normal_residual = vscale > 0 ? nr : 0.0;
        res->split_defect = vscale > 0 ? sd : 0.0;
    }
    res->energy_plus = 0.5 * pow(m_norm(S->w, res->v_plus, S->sc), 2);
    res->residual = fmax(res->gap, res->normal_residual);
    if (m == 1) res->residual = fmax(res->residual, res->split_defect);
    res->status = res->residual <= fmax(S->opt->tol, 1e-9) ? FL_OK : FL_WMAXITER;
    return res->status;
}

static fl_status step_check_args(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *impulse,
                                 const fl_p4_step_result *res, fl_error *err)
{
    FL_TRY(check_common(p, err));
    if (!res || res->n != p->n || res->m != p->m)
        return FL_FAIL(err, FL_EDIM, "step result must be allocated for n = %zu, m = %zu", p->n, p->m);
    if (v_minus->size != p->n || (impulse && impulse->size != p->n))
        return FL_FAIL(err, FL_EDIM, "velocity and impulse must have length %zu", p->n);
    FL_TRY(fl_check_finite_vector(v_minus, "velocity v^-", err));
    if (impulse) FL_TRY(fl_check_finite_vector(impulse, "force impulse h f", err));
    return FL_OK;
}

fl_status fl_p4_step_ops(const fl_p4_ops *ops, const fl_p4_problem *p,
                         const gsl_vector *v_minus, const gsl_vector *impulse,
                         const fl_p4_impact_law *law, const fl_p4_options *opt_in,
                         fl_p4_step_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    FL_TRY(step_check_args(p, v_minus, impulse, res, err));
    fl_p4_options opt = opt_in ? *opt_in : fl_p4_options_default();

    size_t n = p->n, m = p->m;
    p4_ws w;
    fl_status st = ws_init(&w, ops, p, err);
    p4_step S = {&w, p, &opt, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0.0};
    S.vfree = fl_dense_vector_alloc(n);
    S.vn = fl_dense_vector_alloc(n);
    S.a = fl_dense_vector_alloc(n);
    S.sc = fl_dense_vector_alloc(n);
    S.u = m ? fl_dense_vector_alloc(m) : NULL;
    S.lam = m ? fl_dense_vector_alloc(m) : NULL;
    S.lc = m ? fl_dense_vector_alloc(m) : NULL;
    if (st < 0) goto done;
    if (!S.vfree || !S.vn || !S.a || !S.sc || (m && (!S.u || !S.lam || !S.lc))) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating the step");
        goto done;
    }
    if ((st = check_tangent(&w, err)) < 0) goto done;
    res->status = FL_OK;
    res->iterations = 0;
    res->impact = 0;
    res->gap = res->normal_residual = res->split_defect = 0.0;

    /* v_free = v^- + W (h f(t, q, v^-))  — f at v^- (001 §3) */
    if (impulse) {
        if ((st = ops->solve(ops->ctx, impulse, S.vfree)) < 0) goto done;
        gsl_vector_add(S.vfree, v_minus);
    } else {
        gsl_vector_memcpy(S.vfree, v_minus);
    }
    S.vscale = fmax(m_norm(&w, v_minus, S.sc), m_norm(&w, S.vfree, S.sc));
    res->energy_minus = 0.5 * pow(m_norm(&w, v_minus, S.sc), 2);
    res->energy_free = 0.5 * pow(m_norm(&w, S.vfree, S.sc), 2);
    if (m > 0) {
        if ((st = step_normal(&S, v_minus, law, res, err)) < 0) goto done;
    } else {
        gsl_vector_set_zero(S.vn);
    }
    if ((st = step_tangential(&S, res, err)) < 0) goto done;
    gsl_vector_add(res->v_plus, S.vn);                                       /* v^+ = v_n + v_t */
    st = step_reaction(&S, ops, res, err);
done:
    res->seconds = fl_clock_now() - t0;
    if (st < 0) res->status = st;
    ws_free(&w);
    gsl_vector *vecs[] = {S.vfree, S.vn, S.a, S.sc, S.u, S.lam, S.lc};
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
        if (vecs[i]) gsl_vector_free(vecs[i]);
    return st;
}

/* ------------------------------------------------------------------------
 * Dense operators (reference)
 * ---------------------------------------------------------------------- */
static fl_status dense_solve(void *ctx, const gsl_vector *b, gsl_vector *x)
{
    return fl_spd_solve((const fl_spd *)ctx, b, x);
}

static fl_status dense_mult(void *ctx, const gsl_vector *x, gsl_vector *y)
{
    const fl_spd *s = ctx;
    gsl_blas_dgemv(CblasNoTrans, 1.0, s->M, x, 0.0, y);
    return FL_OK;
}

typedef struct dense_env {
    fl_spd *spd;
    fl_p4_ops ops;
    p4_ws w;
} dense_env;

static fl_status dense_open(const fl_p4_problem *p, dense_env *env, int with_ws, fl_error *err)
{
    memset(env, 0, sizeof *env);
    FL_TRY(check_common(p, err));
    if (!p->M) return FL_FAIL(err, FL_EINVAL, "the reference needs the dense mass matrix M");
    if (p->M->size1 != p->n)
        return FL_FAIL(err, FL_EDIM, "M is %zux%zu, expected n = %zu", p->M->size1, p->M->size2, p->n);
    FL_TRY(fl_spd_alloc(p->M, &env->spd, err));
    env->ops.ctx = env->spd;
    env->ops.solve = dense_solve;
    env->ops.mult = dense_mult;
    if (with_ws) {
        fl_status st = ws_init(&env->w, &env->ops, p, err);
        if (st < 0) {
            ws_free(&env->w);
            fl_spd_free(env->spd);
            env->spd = NULL;
            return st;
        }
    }
    return FL_OK;
}

static void dense_close(dense_env *env)
{
    ws_free(&env->w);
    fl_spd_free(env->spd);
}

fl_status fl_p4_problem_check(const fl_p4_problem *p, fl_error *err)
{
    dense_env env;
    FL_TRY(dense_open(p, &env, 1, err));
    fl_status st = check_tangent(&env.w, err);
    dense_close(&env);
    return st;
}

fl_status fl_p4_split_velocity(const fl_p4_problem *p, const gsl_vector *v, gsl_vector *vn,
                               gsl_vector *vt, fl_error *err)
{
    dense_env env;
    FL_TRY(dense_open(p, &env, 0, err));
    fl_status st;
    if (p->m == 0) {
        if (v->size != p->n) st = FL_FAIL(err, FL_EDIM, "velocity must have length %zu", p->n);
        else {
            if (vn) gsl_vector_set_zero(vn);
            if (vt) gsl_vector_memcpy(vt, v);
            st = FL_OK;
        }
    } else {
        st = fl_spd_split_velocity(env.spd, p->D, v, vn, vt, err);   /* core, 001 §3.1 */
    }
    dense_close(&env);
    return st;
}

fl_status fl_p4_split_reaction(const fl_p4_problem *p, const gsl_vector *r, gsl_vector *lambda,
                               gsl_vector *r_tau, fl_error *err)
{
    if (r->size != p->n || (lambda && lambda->size != p->m) || (r_tau && r_tau->size != p->n))
        return FL_FAIL(err, FL_EDIM, "reaction split: r and r_tau length %zu, lambda length %zu",
                       p->n, p->m);
    FL_TRY(fl_check_finite_vector(r, "reaction r", err));
    dense_env env;
    FL_TRY(dense_open(p, &env, 1, err));
    fl_status st = FL_OK;
    if (p->m > 0) {
        /* the linear split of 001 §3.1 first: if its multipliers are >= 0 it
         * already satisfies (4.1) with D W r_tau = 0 (proofs/p4_law.md §1) */
        gsl_vector *l = fl_dense_vector_alloc(p->m), *rt = fl_dense_vector_alloc(p->n);
        int done = 0;
        if (l && rt && fl_spd_split_reaction(env.spd, p->D, r, NULL, rt, l, NULL) == FL_OK &&
            gsl_vector_min(l) >= 0.0) {
            if (lambda) gsl_vector_memcpy(lambda, l);
            if (r_tau) gsl_vector_memcpy(r_tau, rt);
            done = 1;
        }
        if (l) gsl_vector_free(l);
        if (rt) gsl_vector_free(rt);
        if (done) {
            dense_close(&env);
            return FL_OK;
        }
    }
    /* otherwise the Moreau decomposition onto the cone: NNLS in the W metric */
    st = ws_split_reaction(&env.w, r, lambda, r_tau);
    if (st < 0) FL_FAIL(err, st, "cone split (NNLS in the M^-1 metric) failed");
    dense_close(&env);
    return st;
}

fl_status fl_p4_kfrict_distance(const fl_p4_problem *p, const gsl_vector *r, double *dist,
                                fl_error *err)
{
    if (r->size != p->n) return FL_FAIL(err, FL_EDIM, "r must have length %zu", p->n);
    FL_TRY(fl_check_finite_vector(r, "reaction r", err));
    dense_env env;
    FL_TRY(dense_open(p, &env, 1, err));
    fl_status st = check_tangent(&env.w, err);
    if (st == FL_OK) st = ws_kfrict_distance(&env.w, r, 1e-14, 100000, dist, err);
    dense_close(&env);
    return st;
}

fl_status fl_p4_impact_newton(const fl_p4_problem *p, const fl_p4_impact_law *law,
                              const gsl_vector *v_minus, gsl_vector *F, fl_error *err)
{
    if (v_minus->size != p->n || F->size != p->n)
        return FL_FAIL(err, FL_EDIM, "v^- and F must have length %zu", p->n);
    dense_env env;
    FL_TRY(dense_open(p, &env, 1, err));
    fl_status st = ws_newton(&env.w, law, v_minus, F, err);
    dense_close(&env);
    return st;
}

fl_status fl_p4_impact_eval(const fl_p4_problem *p, const fl_p4_impact_law *law,
                            const gsl_vector *v_minus, gsl_vector *F, fl_error *err)
{
    if (v_minus->size != p->n || F->size != p->n)
        return FL_FAIL(err, FL_EDIM, "v^- and F must have length %zu", p->n);
    dense_env env;
    FL_TRY(dense_open(p, &env, 1, err));
    fl_status st = ws_impact_eval(&env.w, law, v_minus, F, err);
    dense_close(&env);
    return st;
}

fl_status fl_p4_impact_check(const fl_p4_problem *p, const gsl_vector *v_minus,
                             const gsl_vector *F, double tol, fl_p4_consistency *rep,
                             fl_error *err)
{
    if (v_minus->size != p->n || F->size != p->n)
        return FL_FAIL(err, FL_EDIM, "v^- and F must have length %zu", p->n);
    FL_TRY(fl_check_finite_vector(F, "impact law value F", err));
    FL_TRY(fl_check_finite_vector(v_minus, "velocity v^-", err));
    dense_env env;
    FL_TRY(dense_open(p, &env, 1, err));
    fl_status st = check_tangent(&env.w, err);
    if (st == FL_OK) st = ws_impact_check(&env.w, v_minus, F, tol, rep, err);
    dense_close(&env);
    return st;
}

fl_status fl_p4_step(const fl_p4_problem *p, const gsl_vector *v_minus, const gsl_vector *impulse,
                     const fl_p4_impact_law *law, const fl_p4_options *opt,
                     fl_p4_step_result *res, fl_error *err)
{
    dense_env env;
    fl_status st = dense_open(p, &env, 0, err);
    if (st < 0) {
        if (res) res->status = st;
        return st;
    }
    st = fl_p4_step_ops(&env.ops, p, v_minus, impulse, law, opt, res, err);
    dense_close(&env);
    return st;
}

/* The active constraints at q (phi_alpha <= 0): their gradients as the rows
 * of D, their friction sets C and bases Es, their indices act; *m of them. */
static fl_status sim_active(const fl_p4_system *sys, const gsl_vector *q, gsl_vector *phi, gsl_vector *dphi,
                            gsl_matrix *D, fl_p4_friction *C, gsl_matrix **Es, size_t *act, size_t *m_out,
                            fl_error *err)
{
    fl_status st;
    size_t m = 0;
    *m_out = 0;
    if ((st = sys->gap(sys->data, q, phi)) < 0) return FL_FAIL(err, st, "gap callback failed");
    for (size_t a = 0; a < sys->nc; a++) {
        if (gsl_vector_get(phi, a) > 0.0) continue;
        if ((st = sys->gradient(sys->data, q, a, dphi)) < 0) return FL_FAIL(err, st, "gradient callback failed");
        gsl_matrix_set_row(D, m, dphi);
        memset(&C[m], 0, sizeof C[m]);
        if (sys->friction) {
            if ((st = sys->friction(sys->data, q, a, &C[m].set, &Es[m], err)) < 0) return st;
            C[m].E = Es[m];
        } else {
            fl_friction_set_interval(&C[m].set, 0.0, 0.0, NULL);
            Es[m] = fl_dense_matrix_calloc(1, sys->n);
            C[m].E = Es[m];
        }
        act[m++] = a;
        *m_out = m;
    }
    return FL_OK;
}

/* ------------------------------------------------------------------------
 * Time stepper (Moreau midpoint; 001 gives no scheme, 001 §3–§5)
 * ---------------------------------------------------------------------- */
fl_status fl_p4_simulate(const fl_p4_system *sys, double t0, double h, long nsteps,
                         gsl_vector *q, gsl_vector *v, const fl_p4_options *opt,
                         fl_p4_observer obs, void *obs_data, fl_p4_sim_result *res,
                         fl_error *err)
{
    double tstart = fl_clock_now();
    if (!sys || !sys->mass || !sys->force || (sys->nc && (!sys->gap || !sys->gradient)))
        return FL_FAIL(err, FL_EINVAL, "system callbacks missing (mass, force, gap, gradient)");
    if (!(h > 0) || !isfinite(h) || nsteps < 0)
        return FL_FAIL(err, FL_EINVAL, "time step h = %g must be positive and finite", h);
    if (q->size != sys->n || v->size != sys->n)
        return FL_FAIL(err, FL_EDIM, "q and v must have length %zu", sys->n);
    if (!(sys->restitution >= 0.0 && sys->restitution <= 1.0))
        return FL_FAIL(err, FL_EINVAL, "restitution e = %g must lie in [0, 1] (001 §5)", sys->restitution);
    size_t n = sys->n, nc = sys->nc;
    fl_p4_sim_result r;
    memset(&r, 0, sizeof r);
    r.energy_violation = -INFINITY;
    gsl_matrix *M = fl_dense_matrix_alloc(n, n);
    gsl_vector *f = fl_dense_vector_alloc(n), *phi = nc ? fl_dense_vector_alloc(nc) : NULL;
    gsl_vector *dphi = fl_dense_vector_alloc(n);
    gsl_matrix *D = nc ? fl_dense_matrix_alloc(nc, n) : NULL;
    fl_p4_friction *C = nc ? calloc(nc, sizeof *C) : NULL;
    gsl_matrix **Es = nc ? calloc(nc, sizeof *Es) : NULL;
    size_t *act = nc ? calloc(nc, sizeof *act) : NULL;
    fl_status st = FL_OK;
    if (!M || !f || !dphi || (nc && (!phi || !D || !C || !Es || !act))) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating the time stepper");
        goto done;
    }
    /* impact law: Newton (restitution e) for simple impacts; Moreau's
     * inelastic law when several constraints are active (Newton's law is not
     * consistent for obtuse angles, 001 §4) */
    fl_p4_impact_law newton = {FL_P4_IMPACT_NEWTON, sys->restitution, NULL, NULL, NULL};
    fl_p4_impact_law inelastic = {FL_P4_IMPACT_INELASTIC, 0.0, NULL, NULL, NULL};
    double t = t0;
    for (long k = 0; k < nsteps; k++) {
        /* q_m = q_k + h/2 v_k */
        gsl_blas_daxpy(0.5 * h, v, q);
        double tm = t + 0.5 * h;
        if ((st = sys->mass(sys->data, q, M)) < 0) { FL_FAIL(err, st, "mass callback failed"); goto done; }
        if ((st = sys->force(sys->data, tm, q, v, f)) < 0) { FL_FAIL(err, st, "force callback failed"); goto done; }
        gsl_vector_scale(f, h);                                   /* impulse h f(t, q, v^-) */
        size_t m = 0;
        if (nc && (st = sim_active(sys, q, phi, dphi, D, C, Es, act, &m, err)) < 0) goto done;
        gsl_matrix_view Dv = gsl_matrix_submatrix(D ? D : M, 0, 0, m ? m : 1, n);
        fl_p4_problem p = {n, m, M, NULL, NULL, m ? &Dv.matrix : NULL, m ? C : NULL};
        fl_p4_step_result *sr = fl_p4_step_result_alloc(n, m);
        if (!sr) {
            st = FL_FAIL(err, FL_ENOMEM, "allocating a step result");
            goto done;
        }
        st = fl_p4_step(&p, v, f, m > 1 ? &inelastic : &newton, opt, sr, err);
        for (size_t a = 0; a < m; a++) {
            fl_friction_set_release(&C[a].set);
            if (Es[a]) gsl_matrix_free(Es[a]);
            Es[a] = NULL;
        }
        if (st < 0) {
            fl_p4_step_result_free(sr);
            goto done;
        }
        r.max_residual = fmax(r.max_residual, sr->residual);
        r.energy_violation = fmax(r.energy_violation, sr->energy_plus - sr->energy_free);
        gsl_vector_memcpy(v, sr->v_plus);
        gsl_blas_daxpy(0.5 * h, v, q);                            /* q_{k+1} = q_m + h/2 v_{k+1} */
        t += h;
        r.steps = k + 1;
        int stop = obs ? obs(obs_data, k, t, q, v, sr) : 0;
        fl_p4_step_result_free(sr);
        if (stop) break;
    }
    st = FL_OK;
done:
    if (M) gsl_matrix_free(M);
    if (f) gsl_vector_free(f);
    if (phi) gsl_vector_free(phi);
    if (dphi) gsl_vector_free(dphi);
    if (D) gsl_matrix_free(D);
    if (Es) {
        for (size_t a = 0; a < nc; a++) if (Es[a]) gsl_matrix_free(Es[a]);
        free(Es);
    }
    free(C);
    free(act);
    r.status = st;
    r.seconds = fl_clock_now() - tstart;
    if (res) *res = r;
    return st;
}
