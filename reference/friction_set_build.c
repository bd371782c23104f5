/* friction_set_build.c — 001 §6.1: friction sets C*_{alpha,q} as sections of
 * the cone of generalized forces produced by real-world Coulomb cones.
 * Derivation of the planar construction: proofs/p4_law.md §2.
 */
#include "friction_set_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_scalar.h"


fl_fset_options fl_fset_options_default(void)
{
    fl_fset_options o;
    o.norm = FL_FSET_BY_DPHI;
    o.facets = 16;
    o.rank_tol = 1e-10;
    o.basis = NULL;
    return o;
}

void fl_fset_result_release(fl_fset_result *res)
{
    if (!res) return;
    fl_friction_set_release(&res->set);
    if (res->E) gsl_matrix_free(res->E);
    if (res->gen) gsl_matrix_free(res->gen);
    res->E = NULL;
    res->gen = NULL;
}

/* W-inner product a.W.b with Wb precomputed by the caller when useful. */
static double winner(const fl_spd *s, const gsl_vector *a, const gsl_vector *b, gsl_vector *tmp)
{
    double r;
    fl_spd_solve(s, b, tmp);
    gsl_blas_ddot(a, tmp, &r);
    return r;
}

/* The generators of G = sum_i tl_i C_i (001 §6.1): in the plane the two edges
 * tl (n~ +- mu t~) of each Coulomb sector; in space `facets` edges
 * tl (n~ + mu (cos phi_k t1 + sin phi_k t2)) of the inscribed pyramid. */
static fl_status generators(size_t n, size_t nc, const fl_fset_contact *c, int facets,
                            gsl_matrix **out, fl_error *err)
{
    size_t ng = 0;
    for (size_t i = 0; i < nc; i++) {
        const gsl_matrix *tl = c[i].tl;
        if (!tl || tl->size1 != n || (tl->size2 != 2 && tl->size2 != 3))
            return FL_FAIL(err, FL_EDIM, "contact %zu: tl must be %zux2 (plane) or %zux3 (space)", i, n, n);
        FL_TRY(fl_check_finite_matrix(tl, "contact map tl", err));
        if (!(c[i].mu >= 0.0) || !isfinite(c[i].mu))
            return FL_FAIL(err, FL_EINVAL, "contact %zu: friction coefficient mu = %g must be finite and >= 0",
                           i, c[i].mu);
        size_t d = tl->size2;
        double nn = 0.0;
        for (size_t j = 0; j < d; j++) {
            if (!isfinite(c[i].normal[j]))
                return FL_FAIL(err, FL_ENONFINITE, "contact %zu: normal is not finite", i);
            nn += c[i].normal[j] * c[i].normal[j];
        }
        if (!(nn > 0)) return FL_FAIL(err, FL_EINVAL, "contact %zu: zero normal", i);
        ng += d == 2 ? 2 : (size_t)facets;
    }
    gsl_matrix *G = fl_dense_matrix_alloc(n, ng);
    if (!G) return FL_FAIL(err, FL_ENOMEM, "allocating %zu generators", ng);
    size_t col = 0;
    for (size_t i = 0; i < nc; i++) {
        const gsl_matrix *tl = c[i].tl;
        size_t d = tl->size2;
        double nv[3] = {0, 0, 0}, t1[3] = {0, 0, 0}, t2[3] = {0, 0, 0};
        double nn = 0;
        for (size_t j = 0; j < d; j++) nn += c[i].normal[j] * c[i].normal[j];
        for (size_t j = 0; j < d; j++) nv[j] = c[i].normal[j] / sqrt(nn);
        size_t nk;
        if (d == 2) {
            t1[0] = -nv[1];                      /* t~ = n~ rotated by +90 degrees */
            t1[1] = nv[0];
            nk = 2;
        } else {
            /* t1 orthogonal to n~ (Gram-Schmidt on the axis least aligned), t2 = n~ x t1 */
            int ax = fabs(nv[0]) <= fabs(nv[1]) ? (fabs(nv[0]) <= fabs(nv[2]) ? 0 : 2)
                                                 : (fabs(nv[1]) <= fabs(nv[2]) ? 1 : 2);
            double e[3] = {0, 0, 0};
            e[ax] = 1.0;
            double dd = e[0] * nv[0] + e[1] * nv[1] + e[2] * nv[2];
            for (int j = 0; j < 3; j++) t1[j] = e[j] - dd * nv[j];
            double tn = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
            for (int j = 0; j < 3; j++) t1[j] /= tn;
            t2[0] = nv[1] * t1[2] - nv[2] * t1[1];
            t2[1] = nv[2] * t1[0] - nv[0] * t1[2];
            t2[2] = nv[0] * t1[1] - nv[1] * t1[0];
            nk = (size_t)facets;
        }
        for (size_t k = 0; k < nk; k++) {
            double rw[3];
            if (d == 2) {
                double s = k == 0 ? 1.0 : -1.0;
                for (int j = 0; j < 2; j++) rw[j] = nv[j] + s * c[i].mu * t1[j];
            } else {
                double ph = 2.0 * FL_PI * (double)k / (double)nk;
                for (int j = 0; j < 3; j++)
                    rw[j] = nv[j] + c[i].mu * (cos(ph) * t1[j] + sin(ph) * t2[j]);
            }
            for (size_t r = 0; r < n; r++) {                   /* g = tl r~ */
                double s = 0.0;
                for (size_t j = 0; j < d; j++) s += gsl_matrix_get(tl, r, j) * rw[j];
                gsl_matrix_set(G, r, col, s);
            }
            col++;
        }
    }
    *out = G;
    return FL_OK;
}

/* ---- 2D helpers for the polygon ---- */
static double cross2(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int cmp_pt(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    if (a[1] != b[1]) return a[1] < b[1] ? -1 : 1;
    return 0;
}

/* Strict convex hull, counter-clockwise (Andrew's monotone chain); pts is
 * 2*np doubles, sorted in place; hull receives <= np points (2 doubles each);
 * `tag` follows the points (which are original). */
static size_t hull2(double *pts, size_t np, double eps, double *hull)
{
    qsort(pts, np, 2 * sizeof(double), cmp_pt);
    if (np == 1) {
        hull[0] = pts[0];
        hull[1] = pts[1];
        return 1;
    }
    size_t k = 0;
    double *H = malloc(2 * (2 * np + 1) * sizeof(double));
    if (!H) return 0;
    for (size_t i = 0; i < np; i++) {                       /* lower hull */
        while (k >= 2 && cross2(H + 2 * (k - 2), H + 2 * (k - 1), pts + 2 * i) <= eps) k--;
        H[2 * k] = pts[2 * i];
        H[2 * k + 1] = pts[2 * i + 1];
        k++;
    }
    size_t lo = k + 1;
    for (size_t i = np - 1; i-- > 0;) {                     /* upper hull */
        while (k >= lo && cross2(H + 2 * (k - 2), H + 2 * (k - 1), pts + 2 * i) <= eps) k--;
        H[2 * k] = pts[2 * i];
        H[2 * k + 1] = pts[2 * i + 1];
        k++;
    }
    if (k > 1) k--;                                          /* last = first */
    /* drop coincident points (all points equal) */
    size_t out = 0;
    for (size_t i = 0; i < k; i++) {
        int dup = 0;
        for (size_t j = 0; j < out; j++)
            if (fabs(H[2 * i] - hull[2 * j]) <= eps && fabs(H[2 * i + 1] - hull[2 * j + 1]) <= eps) dup = 1;
        if (!dup) {
            hull[2 * out] = H[2 * i];
            hull[2 * out + 1] = H[2 * i + 1];
            out++;
        }
    }
    free(H);
    return out;
}

/* conv(P) + cone(R) as a fl_friction_set polygon (vertices CCW, <= 2 rays). */
static fl_status polygon_from(double *P, size_t np, double *R, size_t nr, fl_friction_set *set,
                              fl_error *err)
{
    double diam = 0.0;
    for (size_t i = 0; i < np; i++) diam = fmax(diam, hypot(P[2 * i], P[2 * i + 1]));
    double eps = 1e-12 * (diam > 0 ? diam * diam : 1.0);
    if (nr == 0) {
        double *H = malloc(2 * np * sizeof(double));
        if (!H) return FL_FAIL(err, FL_ENOMEM, "allocating a hull");
        size_t nh = hull2(P, np, eps, H);
        fl_status st = fl_friction_set_polygon(set, nh, H, 0, NULL, err);
        free(H);
        return st;
    }
    /* extreme rays: the recession cone is pointed; find the largest angular gap */
    double *ang = malloc(nr * sizeof(double));
    if (!ang) return FL_FAIL(err, FL_ENOMEM, "allocating rays");
    for (size_t j = 0; j < nr; j++) ang[j] = atan2(R[2 * j + 1], R[2 * j]);
    size_t ia = 0, ib = 0;   /* the cone spans from ray ia (counter-clockwise) to ray ib */
    double best = -1.0;
    for (size_t j = 0; j < nr; j++) {
        /* gap from ray j counter-clockwise to the next ray */
        double gmin = 2 * FL_PI + 1;
        size_t nxt = j;
        for (size_t l = 0; l < nr; l++) {
            if (l == j) continue;
            double g = ang[l] - ang[j];
            while (g <= 1e-12) g += 2 * FL_PI;
            if (g < gmin) {
                gmin = g;
                nxt = l;
            }
        }
        if (nr == 1 || gmin > 2 * FL_PI) gmin = 2 * FL_PI;
        if (gmin > best) {
            best = gmin;
            ib = j;       /* the cone ends at j ... */
            ia = nxt;     /* ... and starts at the ray after the gap */
        }
    }
    free(ang);
    if (best < FL_PI - 1e-12)
        return FL_FAIL(err, FL_EUNSUPPORTED, "the section contains a line or a half-plane: "
                                             "not representable as fl_friction_set");
    double ra[2] = {R[2 * ia], R[2 * ia + 1]}, rb[2] = {R[2 * ib], R[2 * ib + 1]};
    int one = fabs(ra[0] * rb[1] - ra[1] * rb[0]) <= 1e-12 * hypot(ra[0], ra[1]) * hypot(rb[0], rb[1]);
    /* hull of P and far points P + L r, keep the original points */
    double L = 1e3 * (diam > 0 ? diam : 1.0) + 1.0;
    size_t nq = 3 * np;
    double *Q = malloc(2 * nq * sizeof(double)), *H = malloc(2 * nq * sizeof(double));
    if (!Q || !H) {
        free(Q);
        free(H);
        return FL_FAIL(err, FL_ENOMEM, "allocating a hull");
    }
    double na = hypot(ra[0], ra[1]), nb = hypot(rb[0], rb[1]);
    for (size_t i = 0; i < np; i++) {
        Q[2 * i] = P[2 * i];
        Q[2 * i + 1] = P[2 * i + 1];
        Q[2 * (np + i)] = P[2 * i] + L * ra[0] / na;
        Q[2 * (np + i) + 1] = P[2 * i + 1] + L * ra[1] / na;
        Q[2 * (2 * np + i)] = P[2 * i] + L * rb[0] / nb;
        Q[2 * (2 * np + i) + 1] = P[2 * i + 1] + L * rb[1] / nb;
    }
    size_t nh = hull2(Q, nq, eps, H);
    /* flag original points: within diam (far points are at distance ~L) */
    int *orig = calloc(nh, sizeof *orig);
    double *V = malloc(2 * nh * sizeof(double));
    fl_status st = FL_OK;
    if (!orig || !V) {
        st = FL_FAIL(err, FL_ENOMEM, "allocating a hull");
        goto done;
    }
    size_t start = 0;
    for (size_t i = 0; i < nh; i++) orig[i] = hypot(H[2 * i], H[2 * i + 1]) <= 2 * diam + 1e-9 * L;
    for (size_t i = 0; i < nh; i++)                        /* first original after a far one */
        if (orig[i] && !orig[(i + nh - 1) % nh]) start = i;
    size_t nv = 0;
    for (size_t s = 0; s < nh; s++) {
        size_t i = (start + s) % nh;
        if (!orig[i]) break;
        V[2 * nv] = H[2 * i];
        V[2 * nv + 1] = H[2 * i + 1];
        nv++;
    }
    if (nv == 0) {
        st = FL_FAIL(err, FL_EINVAL, "no vertex found in the unbounded section");
        goto done;
    }
    {
        double rays[4] = {ra[0] / na, ra[1] / na, rb[0] / nb, rb[1] / nb};
        double swp[4] = {rb[0] / nb, rb[1] / nb, ra[0] / na, ra[1] / na};
        st = fl_friction_set_polygon(set, nv, V, one ? 1 : 2, rays, NULL);
        if (st != FL_OK) st = fl_friction_set_polygon(set, nv, V, one ? 1 : 2, swp, err);
    }
done:
    free(Q);
    free(H);
    free(orig);
    free(V);
    return st;
}

/* The construction of fl_fset_build: the metric W = M^-1 (spd), the normal
 * N and W N, the section vectors S (vertices, then rays), the basis rows B
 * of their span and their coordinates P (vertices), R (rays) in it. */
typedef struct {
    size_t n;
    fl_spd *spd;
    gsl_vector *N, *wN, *tmp, *x;
    double NN;                 /* (N, N)* */
    double *kap;               /* kappa_j of each generator */
    gsl_matrix *S;             /* section vectors (columns): vertices then rays */
    gsl_matrix *B;             /* basis rows */
    size_t nv, nr, k;          /* vertices, rays, basis rows */
    double smax;               /* largest |s|* of the section vectors */
    double *P, *R;
} fset_work;

static void fset_work_free(fset_work *w)
{
    fl_spd_free(w->spd);
    if (w->N) gsl_vector_free(w->N);
    if (w->wN) gsl_vector_free(w->wN);
    if (w->tmp) gsl_vector_free(w->tmp);
    if (w->x) gsl_vector_free(w->x);
    if (w->S) gsl_matrix_free(w->S);
    if (w->B) gsl_matrix_free(w->B);
    free(w->kap);
    free(w->P);
    free(w->R);
}

/* The normal: N = dphi (or n* = dphi / |dphi|*), W N and (N, N)*. */
static fl_status fset_normal(fset_work *w, const gsl_vector *dphi, const fl_fset_options *opt,
                             fl_fset_result *res, fl_error *err)
{
    size_t n = w->n;
    w->N = fl_dense_vector_alloc(n);
    w->wN = fl_dense_vector_alloc(n);
    w->tmp = fl_dense_vector_alloc(n);
    w->x = fl_dense_vector_alloc(n);
    if (!w->N || !w->wN || !w->tmp || !w->x) return FL_FAIL(err, FL_ENOMEM, "allocating the construction");
    double dn = fl_spd_dual_norm(w->spd, dphi);                 /* |dphi|* */
    if (!(dn > 0)) return FL_FAIL(err, FL_EINVAL, "dphi is zero: no normal direction");
    res->dual_norm_dphi = dn;
    gsl_vector_memcpy(w->N, dphi);
    if (opt->norm == FL_FSET_BY_NSTAR) gsl_vector_scale(w->N, 1.0 / dn);   /* n* = dphi / |dphi|* */
    fl_spd_solve(w->spd, w->N, w->wN);
    gsl_blas_ddot(w->N, w->wN, &w->NN);
    return FL_OK;
}

/* recession rays: g_j (kappa_j = 0, projected on T*), kappa_k g_j - kappa_j g_k */
static void fset_rays(fset_work *w, const gsl_matrix *gen)
{
    size_t ng = gen->size2;
    const double *kap = w->kap;
    for (size_t j = 0; j < ng; j++) {
        gsl_vector_const_view gj = gsl_matrix_const_column(gen, j);
        if (kap[j] == 0.0) {
            gsl_vector_view s = gsl_matrix_column(w->S, w->nv + w->nr);
            gsl_vector_memcpy(&s.vector, &gj.vector);
            double gw;
            gsl_blas_ddot(&gj.vector, w->wN, &gw);
            gsl_blas_daxpy(-gw / w->NN, w->N, &s.vector);
            if (fl_spd_dual_norm(w->spd, &s.vector) > 0) w->nr++;
        } else if (kap[j] < 0) {
            for (size_t k = 0; k < ng; k++) {
                if (!(kap[k] > 0)) continue;
                gsl_vector_const_view gk = gsl_matrix_const_column(gen, k);
                gsl_vector_view s = gsl_matrix_column(w->S, w->nv + w->nr);
                gsl_vector_memcpy(&s.vector, &gj.vector);
                gsl_vector_scale(&s.vector, kap[k]);
                gsl_blas_daxpy(-kap[j], &gk.vector, &s.vector);
                double sn = fl_spd_dual_norm(w->spd, &s.vector);
                if (sn > 0) {
                    gsl_vector_scale(&s.vector, 1.0 / sn);
                    w->nr++;
                }
            }
        }
    }
}

/* The section C* of the cone of generalized reactions by r_n = 1 (001
 * §6.1): its vertices g_j / kappa_j - N and its recession rays. */
static fl_status fset_section(fset_work *w, fl_fset_result *res, fl_error *err)
{
    size_t ng = res->gen->size2;
    res->ngen = ng;
    w->kap = malloc(ng * sizeof *w->kap);
    w->S = fl_dense_matrix_alloc(w->n, ng + ng * ng + 1);
    if (!w->kap || !w->S) return FL_FAIL(err, FL_ENOMEM, "allocating the section");
    /* kappa_j = (g_j, N)* / (N, N)*: the coefficient of N in the linear split of g_j */
    int anypos = 0;
    for (size_t j = 0; j < ng; j++) {
        gsl_vector_const_view g = gsl_matrix_const_column(res->gen, j);
        double gw;
        gsl_blas_ddot(&g.vector, w->wN, &gw);
        double gs = fl_spd_dual_norm(w->spd, &g.vector);
        w->kap[j] = gw / w->NN;
        if (fabs(gw) <= 1e-12 * gs * sqrt(w->NN)) w->kap[j] = 0.0;
        if (w->kap[j] > 0) anypos = 1;
        if (w->kap[j] < 0) res->negative_rn = 1;                 /* r_n < 0 in G (001 §6.1) */
    }
    if (!anypos)
        return FL_FAIL(err, FL_EINVAL, "the cone of generalized reactions has no element with r_n > 0: "
                                       "the section C* is empty (001 §6.1)");
    /* vertices g_j / kappa_j - N */
    for (size_t j = 0; j < ng; j++) {
        if (!(w->kap[j] > 0)) continue;
        gsl_vector_view s = gsl_matrix_column(w->S, w->nv);
        gsl_vector_const_view g = gsl_matrix_const_column(res->gen, j);
        gsl_vector_memcpy(&s.vector, &g.vector);
        gsl_vector_scale(&s.vector, 1.0 / w->kap[j]);
        gsl_vector_sub(&s.vector, w->N);
        w->nv++;
    }
    fset_rays(w, res->gen);
    res->nvert = w->nv;
    res->nray = w->nr;
    return FL_OK;
}

/* The caller's basis rows: 1 or 2 rows of length n, in T*_q. */
static fl_status fset_basis_given(fset_work *w, const gsl_matrix *basis, fl_error *err)
{
    size_t n = w->n;
    if (basis->size2 != n || basis->size1 < 1 || basis->size1 > 2)
        return FL_FAIL(err, FL_EDIM, "basis must be 1xn or 2xn (n = %zu)", n);
    w->k = basis->size1;
    for (size_t i = 0; i < w->k; i++) {
        gsl_vector_const_view b = gsl_matrix_const_row(basis, i);
        gsl_matrix_set_row(w->B, i, &b.vector);
        double bw;
        gsl_blas_ddot(&b.vector, w->wN, &bw);
        if (fabs(bw) > 1e-10 * fl_spd_dual_norm(w->spd, &b.vector) * sqrt(w->NN))
            return FL_FAIL(err, FL_EINVAL, "basis row %zu is not in T*_q (b W dphi != 0)", i);
    }
    return FL_OK;
}

/* W-Gram-Schmidt on the section vectors; C* = {0}: any unit vector of T*. */
static fl_status fset_basis_gram_schmidt(fset_work *w, double rank_tol, fl_error *err)
{
    size_t n = w->n, ns = w->nv + w->nr;
    gsl_vector *x = w->x;
    for (size_t j = 0; j < ns && w->smax > 0; j++) {
        gsl_vector_const_view s = gsl_matrix_const_column(w->S, j);
        gsl_vector_memcpy(x, &s.vector);
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < w->k; i++) {
                gsl_vector_view b = gsl_matrix_row(w->B, i);
                double c = winner(w->spd, &b.vector, x, w->tmp);
                gsl_blas_daxpy(-c, &b.vector, x);
            }
        double xn = fl_spd_dual_norm(w->spd, x);
        if (xn > rank_tol * w->smax) {
            if (w->k >= 2)
                return FL_FAIL(err, FL_EUNSUPPORTED,
                               "the friction set has dimension > 2 (fl_friction_set holds 1 or 2); "
                               "split the contact points over several constraints");
            gsl_vector_scale(x, 1.0 / xn);
            gsl_matrix_set_row(w->B, w->k++, x);
        }
    }
    if (w->k == 0) {
        /* C* = {0}: any unit vector of T* as basis */
        double best = -1;
        for (size_t i = 0; i < n; i++) {
            gsl_vector_set_basis(x, i);
            double xw;
            gsl_blas_ddot(x, w->wN, &xw);
            gsl_blas_daxpy(-xw / w->NN, w->N, x);
            double xn = fl_spd_dual_norm(w->spd, x);
            if (xn > best) {
                best = xn;
                gsl_vector_scale(x, xn > 0 ? 1.0 / xn : 0.0);
                gsl_matrix_set_row(w->B, 0, x);
            }
        }
        w->k = 1;
    }
    return FL_OK;
}

/* basis of span{vertices, rays}: W-Gram-Schmidt (or the caller's basis) */
static fl_status fset_basis(fset_work *w, const fl_fset_options *opt, fl_error *err)
{
    size_t ns = w->nv + w->nr;
    w->smax = 0.0;
    for (size_t j = 0; j < ns; j++) {
        gsl_vector_const_view s = gsl_matrix_const_column(w->S, j);
        w->smax = fmax(w->smax, fl_spd_dual_norm(w->spd, &s.vector));
    }
    w->B = fl_dense_matrix_calloc(w->n + 1, w->n);
    if (!w->B) return FL_FAIL(err, FL_ENOMEM, "allocating a basis");
    return opt->basis ? fset_basis_given(w, opt->basis, err) : fset_basis_gram_schmidt(w, opt->rank_tol, err);
}

/* coordinates c = (E W E^T)^-1 E W s, with a reconstruction check */
static fl_status fset_coordinates(fset_work *w, fl_fset_result *res, fl_error *err)
{
    size_t k = w->k, nv = w->nv, nr = w->nr, ns = nv + nr;
    res->E = fl_dense_matrix_alloc(k, w->n);
    w->P = calloc(2 * (nv + 1), sizeof *w->P);
    w->R = calloc(2 * (nr + 1), sizeof *w->R);
    if (!res->E || !w->P || !w->R) return FL_FAIL(err, FL_ENOMEM, "allocating coordinates");
    for (size_t i = 0; i < k; i++) {
        gsl_vector_view b = gsl_matrix_row(w->B, i);
        gsl_matrix_set_row(res->E, i, &b.vector);
    }
    double H[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            gsl_vector_view bi = gsl_matrix_row(w->B, i), bj = gsl_matrix_row(w->B, j);
            H[i * 2 + j] = winner(w->spd, &bi.vector, &bj.vector, w->tmp);
        }
    double det = k == 1 ? H[0] : H[0] * H[3] - H[1] * H[2];
    if (!(fabs(det) > 0)) return FL_FAIL(err, FL_EINVAL, "basis rows are dependent");
    for (size_t j = 0; j < ns; j++) {
        gsl_vector_const_view s = gsl_matrix_const_column(w->S, j);
        double b[2] = {0, 0}, c[2] = {0, 0};
        for (size_t i = 0; i < k; i++) {
            gsl_vector_view bi = gsl_matrix_row(w->B, i);
            b[i] = winner(w->spd, &bi.vector, &s.vector, w->tmp);
        }
        if (k == 1) c[0] = b[0] / H[0];
        else {
            c[0] = (H[3] * b[0] - H[1] * b[1]) / det;
            c[1] = (-H[2] * b[0] + H[0] * b[1]) / det;
        }
        gsl_vector_memcpy(w->x, &s.vector);                      /* reconstruction residual */
        for (size_t i = 0; i < k; i++) {
            gsl_vector_view bi = gsl_matrix_row(w->B, i);
            gsl_blas_daxpy(-c[i], &bi.vector, w->x);
        }
        if (fl_spd_dual_norm(w->spd, w->x) > 1e-8 * (w->smax > 0 ? w->smax : 1.0))
            return FL_FAIL(err, FL_EINVAL, "the given basis does not span the friction set");
        double *dst = j < nv ? w->P + 2 * j : w->R + 2 * (j - nv);
        dst[0] = c[0];
        dst[1] = c[1];
    }
    return FL_OK;
}

/* The friction set from the coordinates: an interval (k = 1) or a polygon. */
static fl_status fset_set(fset_work *w, fl_fset_result *res, fl_error *err)
{
    size_t nv = w->nv, nr = w->nr;
    double *P = w->P, *R = w->R;
    fl_status st;
    if (nv == 0) nv = 1;                                     /* C* = {0} */
    if (w->k == 1) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t j = 0; j < nv; j++) {
            lo = fmin(lo, P[2 * j]);
            hi = fmax(hi, P[2 * j]);
        }
        for (size_t j = 0; j < nr; j++) {
            if (R[2 * j] > 0) hi = INFINITY;
            if (R[2 * j] < 0) lo = -INFINITY;
        }
        st = fl_friction_set_interval(&res->set, lo, hi, err);
    } else {
        st = polygon_from(P, nv, R, nr, &res->set, err);
    }
    if (st < 0) return st;
    res->bounded = fl_friction_set_is_bounded(&res->set);
    double zero[2] = {0.0, 0.0};
    res->contains_zero = fl_friction_set_contains(&res->set, zero, 1e-9 * (w->smax > 0 ? w->smax : 1.0));
    return st;
}

/* 001 §6.1 */
fl_status fl_fset_build(const gsl_matrix *M, const gsl_vector *dphi, size_t ncontact,
                        const fl_fset_contact *contacts, const fl_fset_options *opt_in,
                        fl_fset_result *res, fl_error *err)
{
    if (!res) return FL_FAIL(err, FL_EINVAL, "no result record");
    memset(res, 0, sizeof *res);
    fl_fset_options opt = opt_in ? *opt_in : fl_fset_options_default();
    if (!M || !dphi || (ncontact && !contacts) || ncontact == 0)
        return res->status = FL_FAIL(err, FL_EINVAL, "M, dphi and at least one contact are required");
    size_t n = M->size1;
    if (dphi->size != n)
        return res->status = FL_FAIL(err, FL_EDIM, "dphi has length %zu, M is %zux%zu", dphi->size, n, n);
    if (opt.norm != FL_FSET_BY_NSTAR && opt.norm != FL_FSET_BY_DPHI)
        return res->status = FL_FAIL(err, FL_EINVAL, "unknown normalisation %d", (int)opt.norm);
    if (opt.facets < 3)
        return res->status = FL_FAIL(err, FL_EINVAL, "a pyramid needs >= 3 facets (got %d)", opt.facets);
    fl_status st = fl_check_finite_vector(dphi, "dphi", err);
    if (st < 0) return res->status = st;
    fset_work w;
    memset(&w, 0, sizeof w);
    w.n = n;
    if ((st = fl_spd_alloc(M, &w.spd, err)) < 0) return res->status = st;
    st = fset_normal(&w, dphi, &opt, res, err);
    if (st >= 0) st = generators(n, ncontact, contacts, opt.facets, &res->gen, err);
    if (st >= 0) st = fset_section(&w, res, err);
    if (st >= 0) st = fset_basis(&w, &opt, err);
    if (st >= 0) st = fset_coordinates(&w, res, err);
    if (st >= 0) st = fset_set(&w, res, err);
    if (st < 0) {
        fl_fset_result_release(res);
        res->status = st;
    }
    fset_work_free(&w);
    return st;
}
