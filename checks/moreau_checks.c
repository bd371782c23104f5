/* moreau_checks.c — `frictionlab crosscheck --law moreau` and `frictionlab
 * reproduce theorem1`: property checks of Moreau's discrete contact law
 * (000 §2, Proposition 1) on random systems through one harness for both
 * implementations, and the reproduction of Theorem 1 (000 §3) on the rod of
 * data/000/theorem1_rod.json.
 */
#include "checks/moreau_checks.h"
#include "models/fl_model_theorem1_rod.h"
#include "testkit/fl_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "fl_dense.h"
#include "fl_rng.h"
#include "fl_sparse.h"
#include "checks/fl_tasks.h"
#include "optimized/moreau_law_sparse.h"
#include "fl_scalar.h"

/* ------------------------------------------------------------------ */
/* Random systems (proofs/README.md)                                       */
/* ------------------------------------------------------------------ */

enum { MH_FRICTIONLESS, MH_ISO_SMALL, MH_ISO_LARGE, MH_INTERVAL, MH_DISC2, MH_POLYGON, MH_NKIND };

typedef struct mh_sys {
    int kind;
    size_t d, k;
    gsl_matrix *M, *L, *T;     /* L: dense Cholesky factor of M (harness's own) */
    gsl_vector *dgap, *n, *ui, *f, *v;
    double gap, h, lmin;
    fl_moreau_friction fr;
    double mu;
    fl_friction_set C;
    int has_C;
} mh_sys;

static void mh_release(mh_sys *s)
{
    gsl_matrix_free(s->M);
    gsl_matrix_free(s->L);
    gsl_matrix_free(s->T);
    gsl_vector_free(s->dgap);
    gsl_vector_free(s->n);
    gsl_vector_free(s->ui);
    gsl_vector_free(s->f);
    gsl_vector_free(s->v);
    if (s->has_C) fl_friction_set_release(&s->C);
    memset(s, 0, sizeof *s);
}

static void gauss_vec(gsl_rng *r, double scale, gsl_vector *x)
{
    for (size_t i = 0; i < x->size; i++) gsl_vector_set(x, i, scale * gsl_ran_gaussian(r, 1.0));
}

static void mh_solve(const mh_sys *s, const gsl_vector *b, gsl_vector *x)
{
    gsl_vector_memcpy(x, b);
    gsl_linalg_cholesky_svx(s->L, x);
}

static double mh_knorm(const mh_sys *s, const gsl_vector *x)
{
    double q = 0;
    for (size_t i = 0; i < s->d; i++)
        for (size_t j = 0; j < s->d; j++)
            q += gsl_vector_get(x, i) * gsl_matrix_get(s->M, i, j) * gsl_vector_get(x, j);
    return sqrt(fmax(q, 0.0));
}

static int random_polygon(gsl_rng *r, fl_friction_set *C)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        size_t m = 3 + gsl_rng_uniform_int(r, 5);
        double ang[8] = {0}, v[16];   /* = {0}: gcc cannot see m >= 3 */
        for (size_t i = 0; i < m; i++) ang[i] = 2 * FL_PI * gsl_rng_uniform(r);
        for (size_t i = 1; i < m; i++)          /* insertion sort */
            for (size_t j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
                double t = ang[j]; ang[j] = ang[j - 1]; ang[j - 1] = t;
            }
        double gap = ang[0] + 2 * FL_PI - ang[m - 1];
        for (size_t i = 1; i < m; i++) gap = fmax(gap, ang[i] - ang[i - 1]);
        if (gap >= 0.9 * FL_PI) continue;        /* 0 strictly inside */
        int close = 0;
        for (size_t i = 1; i < m; i++) if (ang[i] - ang[i - 1] < 0.05) close = 1;
        if (close || ang[0] + 2 * FL_PI - ang[m - 1] < 0.05) continue;
        double a1 = fl_rng_loguniform(r, 1e-2, 10), a2 = a1 * fl_rng_loguniform(r, 0.3, 3);
        double rot = 2 * FL_PI * gsl_rng_uniform(r);
        for (size_t i = 0; i < m; i++) {
            double x = a1 * cos(ang[i]), y = a2 * sin(ang[i]);
            v[2 * i] = cos(rot) * x - sin(rot) * y;
            v[2 * i + 1] = sin(rot) * x + cos(rot) * y;
        }
        if (fl_friction_set_polygon(C, m, v, 0, NULL, NULL) == FL_OK) return 0;
    }
    return -1;
}

/* System number i cycles through the kinds; every other cycle is forced
 * into a collision (gap <= 0, <v, n> < 0) so that a few systems already
 * exercise every branch of every kind. */
static int mh_draw(gsl_rng *r, long i, mh_sys *s)
{
    memset(s, 0, sizeof *s);
    s->kind = (int)(i % MH_NKIND);
    const int force_collision = (i / MH_NKIND) % 2 == 0;
    switch (s->kind) {
    case MH_FRICTIONLESS: s->d = 1 + gsl_rng_uniform_int(r, 6); s->fr = FL_MOREAU_FRICTIONLESS; break;
    case MH_ISO_SMALL: s->d = 2 + gsl_rng_uniform_int(r, 2); s->fr = FL_MOREAU_ISOTROPIC; break;
    case MH_ISO_LARGE: s->d = 4 + gsl_rng_uniform_int(r, 3); s->fr = FL_MOREAU_ISOTROPIC; break;
    case MH_INTERVAL: s->d = 2 + gsl_rng_uniform_int(r, 5); s->fr = FL_MOREAU_SET; s->k = 1; break;
    default: s->d = 3 + gsl_rng_uniform_int(r, 4); s->fr = FL_MOREAU_SET; s->k = 2; break;
    }
    const size_t d = s->d;
    s->M = fl_dense_matrix_alloc(d, d);
    s->L = fl_dense_matrix_alloc(d, d);
    s->dgap = fl_dense_vector_alloc(d);
    s->n = fl_dense_vector_alloc(d);
    s->ui = fl_dense_vector_alloc(d);
    s->f = fl_dense_vector_alloc(d);
    s->v = fl_dense_vector_alloc(d);
    if (!s->M || !s->L || !s->dgap || !s->n || !s->ui || !s->f || !s->v
        || fl_random_spd_loguniform(r, 1e-2, 1e2, s->M, &s->lmin) != FL_OK) {
        mh_release(s);
        return -1;
    }
    gsl_matrix_memcpy(s->L, s->M);
    gsl_linalg_cholesky_decomp1(s->L);
    gauss_vec(r, fl_rng_loguniform(r, 0.1, 10), s->dgap);
    gsl_vector_memcpy(s->n, s->dgap);
    gsl_vector_scale(s->n, 1.0 / gsl_blas_dnrm2(s->dgap));
    double pg = gsl_rng_uniform(r);
    s->gap = pg < 0.3 ? 0.0 : pg < 0.8 ? -fl_rng_loguniform(r, 1e-6, 1) : fl_rng_loguniform(r, 1e-6, 1);
    if (force_collision && s->gap > 0) s->gap = -s->gap;
    gauss_vec(r, fl_rng_loguniform(r, 0.1, 10), s->ui);
    gauss_vec(r, fl_rng_loguniform(r, 0.1, 10), s->f);
    s->h = fl_rng_loguniform(r, 1e-3, 1);
    /* v = u_i + h M^-1 f  (000 §2) */
    mh_solve(s, s->f, s->v);
    gsl_vector_scale(s->v, s->h);
    gsl_vector_add(s->v, s->ui);
    double vn;
    gsl_blas_ddot(s->v, s->n, &vn);
    if (force_collision && vn > 0) {       /* flip u_i and f: v -> -v */
        gsl_vector_scale(s->ui, -1.0);
        gsl_vector_scale(s->f, -1.0);
        gsl_vector_scale(s->v, -1.0);
    }
    s->mu = fl_rng_loguniform(r, 1e-2, 10);
    if (s->k) {
        s->T = fl_dense_matrix_alloc(d, s->k);
        if (!s->T) { mh_release(s); return -1; }
        int orth = gsl_rng_uniform(r) < 0.5;
        for (size_t j = 0; j < s->k; j++) {
            gsl_vector_view t = gsl_matrix_column(s->T, j);
            gauss_vec(r, fl_rng_loguniform(r, 0.3, 3), &t.vector);
            if (orth) {
                double tn;
                gsl_blas_ddot(&t.vector, s->n, &tn);
                gsl_blas_daxpy(-tn, s->n, &t.vector);
            }
        }
        fl_status st;
        if (s->kind == MH_INTERVAL) {
            double lo = gsl_rng_uniform(r) < 0.2 ? 0.0 : -fl_rng_loguniform(r, 1e-2, 10);
            st = fl_friction_set_interval(&s->C, lo, fl_rng_loguniform(r, 1e-2, 10), NULL);
        } else if (s->kind == MH_DISC2) {
            st = fl_friction_set_disc(&s->C, 2, s->mu, NULL);
        } else {
            st = random_polygon(r, &s->C) == 0 ? FL_OK : FL_EINVAL;
        }
        if (st != FL_OK) { mh_release(s); return -1; }
        s->has_C = 1;
    }
    return 0;
}

static void mh_problem(const mh_sys *s, fl_moreau_problem *p)
{
    memset(p, 0, sizeof *p);
    p->d = s->d;
    p->M = s->M;
    p->gap = s->gap;
    p->dgap = s->dgap;
    p->friction = s->fr;
    p->mu = s->mu;
    p->tangent = s->T;
    p->C = s->has_C ? &s->C : NULL;
    p->v = s->v;
}

/* Distance of r to R(q) = R+(n + D_1), by least squares r ~ rho n + T s and
 * the membership s in rho C (independent of the law's internals). */
static double cone_violation(const mh_sys *s, const gsl_vector *r)
{
    double rn;
    gsl_blas_ddot(r, s->n, &rn);
    if (s->fr != FL_MOREAU_SET) {
        gsl_vector *rt = fl_dense_vector_alloc(s->d);
        if (!rt) return INFINITY;   /* not measured: not a pass */
        gsl_vector_memcpy(rt, r);
        gsl_blas_daxpy(-rn, s->n, rt);
        double nt = gsl_blas_dnrm2(rt);
        gsl_vector_free(rt);
        double mu = s->fr == FL_MOREAU_ISOTROPIC ? s->mu : 0.0;
        return fmax(0.0, fmax(-rn, nt - mu * rn));
    }
    const size_t m = s->k + 1;
    double A[9] = {0}, b[3] = {0}, x[3];
    gsl_matrix *H = fl_dense_matrix_alloc(s->d, m);
    if (!H) return INFINITY;
    gsl_matrix_set_col(H, 0, s->n);
    for (size_t j = 0; j < s->k; j++) {
        gsl_vector_view t = gsl_matrix_column(s->T, j);
        gsl_matrix_set_col(H, 1 + j, &t.vector);
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < m; j++)
            for (size_t l = 0; l < s->d; l++)
                A[i * m + j] += gsl_matrix_get(H, l, i) * gsl_matrix_get(H, l, j);
        for (size_t l = 0; l < s->d; l++) b[i] += gsl_matrix_get(H, l, i) * gsl_vector_get(r, l);
    }
    gsl_matrix_view Av = gsl_matrix_view_array(A, m, m);
    gsl_vector_view bv = gsl_vector_view_array(b, m), xv = gsl_vector_view_array(x, m);
    gsl_linalg_cholesky_decomp1(&Av.matrix);
    gsl_linalg_cholesky_solve(&Av.matrix, &bv.vector, &xv.vector);
    double res = 0;
    for (size_t l = 0; l < s->d; l++) {
        double e = gsl_vector_get(r, l);
        for (size_t j = 0; j < m; j++) e -= gsl_matrix_get(H, l, j) * x[j];
        res += e * e;
    }
    gsl_matrix_free(H);
    double rho = x[0], viol = fmax(sqrt(res), -rho);
    const fl_friction_set *C = &s->C;
    if (C->kind == FL_SET_INTERVAL)
        viol = fmax(viol, fmax(x[1] - rho * C->hi, rho * C->lo - x[1]));
    else if (C->kind == FL_SET_DISC)
        viol = fmax(viol, (C->dim == 1 ? fabs(x[1]) : hypot(x[1], x[2])) - rho * C->mu);
    else
        for (size_t i = 0; i < C->nvert; i++) {
            const double *P = C->vert + 2 * i, *Q = C->vert + 2 * ((i + 1) % C->nvert);
            double nu0 = Q[1] - P[1], nu1 = P[0] - Q[0], nn = hypot(nu0, nu1);
            double hh = nu0 * P[0] + nu1 * P[1];
            viol = fmax(viol, (nu0 * x[1] + nu1 * x[2] - rho * hh) / nn);
        }
    return fmax(0.0, viol);
}

/* Brute force over the feasible set of 000 §2 parametrised by the direction
 * w in D_1: u_w = v + rho W (n + w), rho = c0 / <n, W (n + w)> (> 0).  The
 * map w -> |u_w|_M is quasiconvex on D_1 (its sublevel sets are the traces
 * on n + D_1 of the convex cones generated by M (B_t ∩ T - v)), so a random
 * search refined around the best point ("zoom": 12 rounds, box shrunk by 3)
 * converges to the minimum, followed by golden-section searches along random
 * chords through the best point (quasiconvex = unimodal on chords; this
 * reaches minima in thin sublevel sets, e.g. u = 0 with a large impulse).
 * Coordinates w = B c with c in C_bf: the set's
 * tangent basis, or for the isotropic ball an orthonormal basis of n^perp
 * built here by Gram-Schmidt (independent of the law's Householder basis). */
typedef struct bf_ctx {
    const mh_sys *s;
    size_t k;
    gsl_matrix *B, *WB;
    gsl_vector *Wn, *Wy, *u;
    double c0, best;
    double *cbest;
    int zmode;            /* search variable z = c / <n, W(n + Bc)> (convex) */
    double an, bn[8];     /* <n, W n>, <n, W B_j> */
} bf_ctx;

static int bf_inside(const bf_ctx *b, const double *c)
{
    const mh_sys *s = b->s;
    if (s->fr == FL_MOREAU_ISOTROPIC) {
        double q = 0;
        for (size_t j = 0; j < b->k; j++) q += c[j] * c[j];
        return sqrt(q) <= s->mu;
    }
    const fl_friction_set *C = &s->C;
    if (C->kind == FL_SET_INTERVAL) return C->lo <= c[0] && c[0] <= C->hi;
    if (C->kind == FL_SET_DISC) return (C->dim == 1 ? fabs(c[0]) : hypot(c[0], c[1])) <= C->mu;
    for (size_t i = 0; i < C->nvert; i++) {
        const double *P = C->vert + 2 * i, *Q = C->vert + 2 * ((i + 1) % C->nvert);
        if ((Q[0] - P[0]) * (c[1] - P[1]) - (Q[1] - P[1]) * (c[0] - P[0]) < 0) return 0;
    }
    return 1;
}

static double bf_eval(bf_ctx *b, const double *c)
{
    gsl_vector_memcpy(b->Wy, b->Wn);
    for (size_t j = 0; j < b->k; j++) {
        gsl_vector_view col = gsl_matrix_column(b->WB, j);
        gsl_blas_daxpy(c[j], &col.vector, b->Wy);
    }
    double an;
    gsl_blas_ddot(b->s->n, b->Wy, &an);
    if (!(an > 0)) return INFINITY;
    gsl_vector_memcpy(b->u, b->s->v);
    gsl_blas_daxpy(b->c0 / an, b->Wy, b->u);
    double val = mh_knorm(b->s, b->u);
    if (val < b->best) {
        b->best = val;
        memcpy(b->cbest, c, b->k * sizeof *c);
    }
    return val;
}

/* z-coordinates: z = c / a(c), a(c) = <n, W(n + Bc)>; then c = z / rho(z)
 * with rho(z) = (1 - bn.z)/an, and u = v + c0 (rho W n + W B z) is affine in
 * z, so |u|_M is convex in z on the convex set {rho > 0, z/rho in C_bf}. */
static int bf_z_to_c(const bf_ctx *b, const double *z, double *c)
{
    double bz = 0;
    for (size_t j = 0; j < b->k; j++) bz += b->bn[j] * z[j];
    double rho = (1 - bz) / b->an;
    if (!(rho > 0)) return 0;
    for (size_t j = 0; j < b->k; j++) c[j] = z[j] / rho;
    return bf_inside(b, c);
}

static int bf_in(const bf_ctx *b, const double *x)
{
    double c[8];
    return b->zmode ? bf_z_to_c(b, x, c) : bf_inside(b, x);
}

static double bf_val(bf_ctx *b, const double *x)
{
    double c[8];
    if (!b->zmode) return bf_eval(b, x);
    return bf_z_to_c(b, x, c) ? bf_eval(b, c) : INFINITY;
}

/* Golden-section search of the quasiconvex w -> |u_w|_M on the chord of
 * C_bf through `base` in direction e (infeasible = +inf); base moves to the
 * best point found on the chord, whose value is returned. */
static double bf_line(bf_ctx *b, double *base, double fbase, const double *e, double R)
{
    double c[8];
    const size_t k = b->k;
    double ends[2];
    for (int side = 0; side < 2; side++) {      /* chord ends by bisection */
        double in = 0, out = 4 * R * (side ? -1 : 1);
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (in + out);
            for (size_t j = 0; j < k; j++) c[j] = base[j] + mid * e[j];
            if (bf_in(b, c)) in = mid; else out = mid;
        }
        ends[side] = in;
    }
    double lo = ends[1], hi = ends[0], tbest = 0, fbest = fbase;
    const double g = 0.5 * (sqrt(5.0) - 1);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1, f2;
    for (size_t j = 0; j < k; j++) c[j] = base[j] + x1 * e[j];
    f1 = bf_val(b, c);
    for (size_t j = 0; j < k; j++) c[j] = base[j] + x2 * e[j];
    f2 = bf_val(b, c);
    for (int it = 0; it < 90 && hi - lo > 1e-15 * R; it++) {
        if (f1 < fbest) { fbest = f1; tbest = x1; }
        if (f2 < fbest) { fbest = f2; tbest = x2; }
        if (f1 <= f2) {
            hi = x2; x2 = x1; f2 = f1;
            x1 = hi - g * (hi - lo);
            for (size_t j = 0; j < k; j++) c[j] = base[j] + x1 * e[j];
            f1 = bf_val(b, c);
        } else {
            lo = x1; x1 = x2; f1 = f2;
            x2 = lo + g * (hi - lo);
            for (size_t j = 0; j < k; j++) c[j] = base[j] + x2 * e[j];
            f2 = bf_val(b, c);
        }
    }
    for (size_t j = 0; j < k; j++) base[j] += tbest * e[j];
    return fbest;
}

/* e <- a random unit direction of R^k (k Gaussian draws) */
static void bf_direction(gsl_rng *r, size_t k, double *e)
{
    double ne = 0;
    for (size_t j = 0; j < k; j++) {
        e[j] = gsl_ran_gaussian(r, 1.0);
        ne += e[j] * e[j];
    }
    ne = sqrt(ne);
    for (size_t j = 0; j < k; j++) e[j] /= ne;
}

/* The basis B of the tangent directions (the set's T, or Gram-Schmidt of
 * random vectors against n), WB = W B; returns the bounding half-width R
 * of C_bf. */
static double bf_basis(bf_ctx *b, const mh_sys *s, gsl_rng *r)
{
    double R = 0;
    if (s->fr == FL_MOREAU_SET) {
        gsl_matrix_memcpy(b->B, s->T);
    } else {                          /* Gram-Schmidt of random vectors against n */
        for (size_t j = 0; j < b->k; j++) {
            gsl_vector_view bj = gsl_matrix_column(b->B, j);
            double nrm;
            do {
                gauss_vec(r, 1.0, &bj.vector);
                for (int pass = 0; pass < 2; pass++) {
                    double t;
                    gsl_blas_ddot(&bj.vector, s->n, &t);
                    gsl_blas_daxpy(-t, s->n, &bj.vector);
                    for (size_t l = 0; l < j; l++) {
                        gsl_vector_view bl = gsl_matrix_column(b->B, l);
                        gsl_blas_ddot(&bj.vector, &bl.vector, &t);
                        gsl_blas_daxpy(-t, &bl.vector, &bj.vector);
                    }
                }
                nrm = gsl_blas_dnrm2(&bj.vector);
            } while (nrm < 1e-3);
            gsl_vector_scale(&bj.vector, 1.0 / nrm);
        }
    }
    for (size_t j = 0; j < b->k; j++) {
        gsl_vector_view bj = gsl_matrix_column(b->B, j), wj = gsl_matrix_column(b->WB, j);
        mh_solve(s, &bj.vector, &wj.vector);
    }
    /* bounding half-width of C_bf */
    if (s->fr == FL_MOREAU_ISOTROPIC) R = s->mu;
    else if (s->C.kind == FL_SET_INTERVAL) R = fmax(-s->C.lo, s->C.hi);
    else if (s->C.kind == FL_SET_DISC) R = s->C.mu;
    else for (size_t i = 0; i < 2 * s->C.nvert; i++) R = fmax(R, fabs(s->C.vert[i]));
    return R;
}

/* adaptive zoom: keep the box while it improves, shrink it by 3 when a
 * round brings nothing; then descents by line searches along random
 * directions (a quasiconvex function is unimodal on every chord), from the
 * best point and from 2 random points of C_bf */
static void bf_search(bf_ctx *b, gsl_rng *r, double R, double *c)
{
    const double *cb = b->cbest;
    double centre[8] = {0}, half = R;
    for (int round = 0; round < 30 && half > 1e-13 * R; round++) {
        long N = round == 0 ? 10000 : 600;
        double before = b->best;
        for (long i = 0; i < N; i++) {
            for (size_t j = 0; j < b->k; j++)
                c[j] = centre[j] + half * (2 * gsl_rng_uniform(r) - 1);
            if (bf_inside(b, c)) bf_eval(b, c);
        }
        memcpy(centre, cb, b->k * sizeof *cb);
        if (round > 0 && !(b->best < before - 1e-15 * before)) half /= 3;
        else if (round == 0) half /= 3;
    }
    for (int start = 0; start < 3; start++) {
        double x[8], e[8];
        if (start == 0) {
            memcpy(x, cb, b->k * sizeof *x);
        } else {
            do {
                for (size_t j = 0; j < b->k; j++) x[j] = R * (2 * gsl_rng_uniform(r) - 1);
            } while (!bf_inside(b, x));
        }
        double fx = bf_eval(b, x);
        for (int it = 0; it < 30; it++) {
            bf_direction(r, b->k, e);
            fx = bf_line(b, x, fx, e, R);
        }
    }
}

/* finally the convex z-phase from the best point: zoom, then line
 * searches (reaches thin valleys where the impulse is large) */
static void bf_z_phase(bf_ctx *b, const mh_sys *s, gsl_rng *r, double R)
{
    const double *cb = b->cbest;
    gsl_blas_ddot(s->n, b->Wn, &b->an);
    for (size_t j = 0; j < b->k; j++) {
        gsl_vector_view wj = gsl_matrix_column(b->WB, j);
        gsl_blas_ddot(s->n, &wj.vector, &b->bn[j]);
    }
    double ac = b->an, z[8], zc[8], zb[8], e[8];
    for (size_t j = 0; j < b->k; j++) ac += b->bn[j] * cb[j];
    double zscale = R / b->an;
    for (size_t j = 0; j < b->k; j++) {
        zb[j] = cb[j] / ac;
        zscale = fmax(zscale, fabs(zb[j]));
    }
    b->zmode = 1;
    double fz = bf_val(b, zb), zhalf = 2 * zscale;
    for (int round = 0; round < 25 && zhalf > 1e-13 * zscale; round++) {
        int improved = 0;
        memcpy(zc, zb, b->k * sizeof *zc);
        for (int i = 0; i < 300; i++) {
            for (size_t j = 0; j < b->k; j++) z[j] = zc[j] + zhalf * (2 * gsl_rng_uniform(r) - 1);
            double fv = bf_val(b, z);
            if (fv < fz) { fz = fv; memcpy(zb, z, b->k * sizeof *zb); improved = 1; }
        }
        if (!improved) zhalf /= 3;
    }
    for (int it = 0; it < 100; it++) {
        bf_direction(r, b->k, e);
        fz = bf_line(b, zb, fz, e, 4 * zscale);
    }
}

static double brute_min(const mh_sys *s, gsl_rng *r)
{
    const size_t d = s->d;
    bf_ctx b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.best = INFINITY;
    gsl_blas_ddot(s->v, s->n, &b.c0);
    b.c0 = -b.c0;
    b.k = s->fr == FL_MOREAU_SET ? s->k : s->fr == FL_MOREAU_ISOTROPIC ? d - 1 : 0;
    b.Wn = fl_dense_vector_alloc(d);
    b.Wy = fl_dense_vector_alloc(d);
    b.u = fl_dense_vector_alloc(d);
    if (b.k > 0) {
        b.B = fl_dense_matrix_alloc(d, b.k);
        b.WB = fl_dense_matrix_alloc(d, b.k);
    }
    if (!b.Wn || !b.Wy || !b.u || (b.k > 0 && (!b.B || !b.WB))) {
        b.best = NAN;   /* no search: the caller skips the system */
        goto done;
    }
    mh_solve(s, s->n, b.Wn);
    double c[8] = {0}, cb[8] = {0}, R = 0;
    b.cbest = cb;
    if (b.k > 0) R = bf_basis(&b, s, r);
    bf_eval(&b, c);                       /* w = 0 */
    if (b.k > 0) {
        bf_search(&b, r, R, c);
        bf_z_phase(&b, s, r, R);
    }
done:
    gsl_vector_free(b.Wn);
    gsl_vector_free(b.Wy);
    gsl_vector_free(b.u);
    gsl_matrix_free(b.B);
    gsl_matrix_free(b.WB);
    return b.best;
}

static void note_worst(fl_moreau_harness_impl *im, int which, double *field, double val,
                       unsigned long sysid)
{
    if (val > *field) {
        *field = val;
        im->worst_system[which] = sysid;
    }
}

/* One system through one implementation: the checks of 000 Proposition 1. */
static void check_impl(const mh_sys *s, fl_moreau_law_fn law, int sparse, fl_sparse_ctx *ctx,
                       cholmod_sparse *Msp, fl_moreau_harness_impl *im, unsigned long sysid,
                       gsl_vector *u, double bf_min, int have_bf)
{
    fl_moreau_problem p;
    mh_problem(s, &p);
    if (sparse) {
        p.M = NULL;
        p.Msp = Msp;
        p.ctx = ctx;
    }
    const size_t d = s->d;
    gsl_vector *r = fl_dense_vector_alloc(d), *tmp = fl_dense_vector_alloc(d);
    fl_moreau_result res;
    im->runs++;
    if (!r || !tmp) { im->errors++; goto out; }
    fl_status st = law(&p, NULL, u, r, &res, NULL);
    if (st == FL_EUNSUPPORTED && sparse && s->kind == MH_ISO_LARGE &&
        s->d > FL_MOREAU_SPARSE_BALL_MAX) {
        im->unsupported++;
        goto out;
    }
    if (st < 0) { im->errors++; goto out; }
    double Mui, Mv;
    gsl_blas_dgemv(CblasNoTrans, 1.0, s->M, s->ui, 0.0, tmp);
    Mui = gsl_blas_dnrm2(tmp);
    gsl_blas_dgemv(CblasNoTrans, 1.0, s->M, s->v, 0.0, tmp);
    Mv = gsl_blas_dnrm2(tmp);
    const double scale = Mui + s->h * gsl_blas_dnrm2(s->f) + Mv;     /* proofs/README.md */
    const double nv = gsl_blas_dnrm2(s->v), kv = mh_knorm(s, s->v);
    /* r_{i+1} = M(u_{i+1} - u_i) - h f, computed here (Prop. 1) */
    gsl_vector_memcpy(tmp, u);
    gsl_vector_sub(tmp, s->ui);
    gsl_blas_dgemv(CblasNoTrans, 1.0, s->M, tmp, 0.0, r);
    gsl_blas_daxpy(-s->h, s->f, r);
    if (res.branch != FL_MOREAU_COLLISION) {
        int same = memcmp(u->data, s->v->data, d * sizeof(double)) == 0;
        if (!same || !(s->gap > 0 || res.branch == FL_MOREAU_INWARD)) im->not_v++;
    } else {
        im->collisions++;
        double un;
        gsl_blas_ddot(u, s->n, &un);
        note_worst(im, 0, &im->normal, fabs(un) / nv, sysid);
        double ku = mh_knorm(s, u);
        im->proj_norm = fmax(im->proj_norm, (ku - kv) / kv);
        if (have_bf) {
            im->brute_n++;
            note_worst(im, 3, &im->brute_lower, (ku - bf_min) / kv, sysid);
            if (s->kind != MH_ISO_LARGE)   /* random search is reliable for k <= 2 */
                note_worst(im, 4, &im->brute_gap, (bf_min - ku) / kv, sysid);
        }
    }
    /* Prop. 1 (a): r in R(q); (b): <u, r> <= 0; (c) the norm bound */
    note_worst(im, 0, &im->cone, cone_violation(s, r) / scale, sysid);
    double ur;
    gsl_blas_ddot(u, r, &ur);
    note_worst(im, 1, &im->dissip, fmax(0.0, ur) / (scale * nv + 1e-300), sysid);
    double bound = mh_knorm(s, s->ui) + s->h * gsl_blas_dnrm2(s->f) / sqrt(s->lmin);
    note_worst(im, 2, &im->norm_bound, (mh_knorm(s, u) - bound) / bound, sysid);
    im->residual = fmax(im->residual, res.residual);
    if (s->fr == FL_MOREAU_FRICTIONLESS && res.branch == FL_MOREAU_COLLISION) {
        /* 000 §1: u+ = u- - <u-, n>/<n, W n> W n */
        gsl_vector *Wn = fl_dense_vector_alloc(d);
        if (!Wn) { im->errors++; goto out; }
        mh_solve(s, s->n, Wn);
        double vn, an;
        gsl_blas_ddot(s->v, s->n, &vn);
        gsl_blas_ddot(s->n, Wn, &an);
        gsl_vector_memcpy(tmp, s->v);
        gsl_blas_daxpy(-vn / an, Wn, tmp);
        gsl_vector_sub(tmp, u);
        im->frictionless = fmax(im->frictionless, gsl_blas_dnrm2(tmp) / nv);
        im->frictionless_n++;
        gsl_vector_free(Wn);
    }
out:
    gsl_vector_free(r);
    gsl_vector_free(tmp);
}

int fl_moreau_harness_run(unsigned long seed, long nsys, fl_moreau_harness_stats *out,
                          void (*progress)(void *data, long done, long total), void *pdata)
{
    memset(out, 0, sizeof *out);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    if (fl_sparse_start(&ctx, NULL) != FL_OK) return -1;
    for (long i = 0; i < nsys; i++) {
        unsigned long sysid = seed + (unsigned long)i;
        gsl_rng *r = fl_rng_alloc(sysid);
        mh_sys s;
        out->systems++;   /* counted when drawn or not: an undrawable system is not a pass */
        if (!r || mh_draw(r, i, &s) != 0) { gsl_rng_free(r); continue; }
        cholmod_sparse *Msp = NULL;
        fl_sparse_from_dense(&ctx, s.M, 1, 0.0, &Msp, NULL);
        double vn;
        gsl_blas_ddot(s.v, s.n, &vn);
        int collide = s.gap <= 0 && vn < 0;
        double bf = collide ? brute_min(&s, r) : 0.0;
        gsl_vector *u0 = fl_dense_vector_alloc(s.d), *u1 = fl_dense_vector_alloc(s.d);
        if (!u0 || !u1 || isnan(bf)) goto next;   /* not run: runs < systems, a FAIL */
        long err0 = out->impl[0].errors;
        check_impl(&s, fl_moreau_law, 0, &ctx, Msp, &out->impl[0], sysid, u0, bf, collide);
        long err1 = out->impl[1].errors + out->impl[1].unsupported;
        check_impl(&s, fl_moreau_law_sparse, 1, &ctx, Msp, &out->impl[1], sysid, u1, bf, collide);
        /* both answers exist (an error of either is counted and FAILs) */
        if (out->impl[0].errors == err0 && out->impl[1].errors + out->impl[1].unsupported == err1) {
            gsl_vector_sub(u1, u0);
            double nv = gsl_blas_dnrm2(s.v);
            out->agree = fmax(out->agree, gsl_blas_dnrm2(u1) / nv);
            out->agree_n++;
        }
    next:
        gsl_vector_free(u0);
        gsl_vector_free(u1);
        fl_sparse_free(&ctx, &Msp);
        mh_release(&s);
        gsl_rng_free(r);
        if (progress) progress(pdata, i + 1, nsys);
    }
    fl_sparse_finish(&ctx);
    return 0;
}

/* ------------------------------------------------------------------ */
/* crosscheck --law moreau                                              */
/* ------------------------------------------------------------------ */

static void cli_progress(void *data, long done, long total)
{
    fl_check_progress((fl_check_ctx *)data, "moreau systems", done, total);
}

/* Tolerances of the property checks (normalised as in proofs/README.md). */
#define MC_TOL_EXACT 1e-9      /* Prop. 1 (a), (b), normal velocity, frictionless */
#define MC_TOL_NORM 1e-10      /* Prop. 1 (c) and |u|_q <= |v|_q, relative */
#define MC_TOL_BRUTE 1e-9      /* |u|_q <= min over sampled feasible points */
#define MC_TOL_GRID 2e-3       /* min over samples - |u|_q: search resolution */
#define MC_TOL_AGREE 1e-7      /* reference vs optimized */

int fl_moreau_crosscheck(fl_check_ctx *ctx)
{
    fl_moreau_harness_stats st;
    long n = ctx->systems;
    if (fl_moreau_harness_run(ctx->seed, n, &st, cli_progress, ctx) != 0) return -1;
    fl_moreau_crosscheck_report(ctx, &st);
    return 0;
}

void fl_moreau_crosscheck_report(fl_check_ctx *ctx, const fl_moreau_harness_stats *stp)
{
    const fl_moreau_harness_stats st = *stp;
    static const char *impl_name[2] = {"reference", "optimized"};
    char name[96];
    for (int k = 0; k < 2; k++) {
        const fl_moreau_harness_impl *im = &st.impl[k];
        const char *nm = impl_name[k];
#define MC_CHECK(tag, ok, val, expct, tl, ref, ...) do { snprintf(name, sizeof name, "moreau.%s.%s", nm, tag); \
        fl_check_value(ctx, ok, name, val, expct, tl, ref, __VA_ARGS__); } while (0)
        MC_CHECK("runs_without_error", im->errors == 0 && im->runs == st.systems, (double)im->errors, 0.0, 0.0,
                 "000 §2 (value: error statuses)",
                 "%ld systems, %ld collisions, %ld errors, %ld unsupported (sparse: isotropic d > 64)",
                 im->runs, im->collisions, im->errors, im->unsupported);
        MC_CHECK("prop1_r_in_R", im->cone <= MC_TOL_EXACT, im->cone, 0.0, MC_TOL_EXACT, "000 Prop. 1; proofs/README.md normalisation",
                 "max dist(r, R(q))/s = %.3g (000 Prop. 1, tol %g, worst system seed %lu)",
                 im->cone, MC_TOL_EXACT, im->worst_system[0]);
        MC_CHECK("prop1_dissipation", im->dissip <= MC_TOL_EXACT, im->dissip, 0.0, MC_TOL_EXACT, "000 Prop. 1",
                 "max <u,r>+/(s|v|) = %.3g (000 Prop. 1, tol %g, worst seed %lu)", im->dissip,
                 MC_TOL_EXACT, im->worst_system[1]);
        MC_CHECK("prop1_norm_bound", im->norm_bound <= MC_TOL_NORM, im->norm_bound, 0.0, MC_TOL_NORM, "000 Prop. 1",
                 "max (|u+|_q - |u_i|_q - h|M^-1/2||f|)/bound = %.3g (000 Prop. 1, tol %g, worst seed %lu)",
                 im->norm_bound, MC_TOL_NORM, im->worst_system[2]);
        MC_CHECK("projection_decreases_norm", im->proj_norm <= MC_TOL_NORM, im->proj_norm, 0.0, MC_TOL_NORM,
                 "000 Prop. 1 proof; proofs/moreau_law.md §8",
                 "max (|u|_q - |v|_q)/|v|_q = %.3g over collisions (proof of Prop. 1, tol %g)",
                 im->proj_norm, MC_TOL_NORM);
        MC_CHECK("collision_in_T", im->normal <= MC_TOL_EXACT, im->normal, 0.0, MC_TOL_EXACT, "000 §2: u in T(q)",
                 "max |<u,n>|/|v| = %.3g (u in T(q), 000 §2, tol %g)", im->normal, MC_TOL_EXACT);
        MC_CHECK("v_kept_in_V", im->not_v == 0, (double)im->not_v, 0.0, 0.0, "000 §2: S = v on V(q) (value: exceptions)",
                 "%ld non-collision evaluations with u != v bitwise (000 §2: S = v on V(q))",
                 im->not_v);
        MC_CHECK("frictionless_closed_form", im->frictionless_n > 0 && im->frictionless <= MC_TOL_EXACT, im->frictionless, 0.0,
                 MC_TOL_EXACT, "000 §1 frictionless closed form; proofs/moreau_law.md §2",
                 "max |u - (v - <v,n>/<n,M^-1 n> M^-1 n)|/|v| = %.3g on %ld collisions (000 §1, tol %g)",
                 im->frictionless, im->frictionless_n, MC_TOL_EXACT);
        MC_CHECK("minimises_kinetic_norm", im->brute_n > 0 && im->brute_lower <= MC_TOL_BRUTE, im->brute_lower, 0.0,
                 MC_TOL_BRUTE, "000 (7), brute force over D_1",
                 "max (|u|_q - min_samples |u_w|_q)/|v|_q = %.3g on %ld collisions (000 (7), brute "
                 "force over D_1, tol %g, worst seed %lu)", im->brute_lower, im->brute_n,
                 MC_TOL_BRUTE, im->worst_system[3]);
        MC_CHECK("brute_force_attains", im->brute_gap <= MC_TOL_GRID, im->brute_gap, 0.0, MC_TOL_GRID,
                 "000 (7), brute force search resolution",
                 "max (min_samples |u_w|_q - |u|_q)/|v|_q = %.3g (search resolution, k <= 2, tol %g, "
                 "worst seed %lu)", im->brute_gap, MC_TOL_GRID, im->worst_system[4]);
        MC_CHECK("optimality_residual", im->residual <= 1e-8, im->residual, 0.0, 1e-8, "proofs/moreau_law.md §6-§7 KKT residual",
                 "max returned residual %.3g (tol 1e-8)", im->residual);
#undef MC_CHECK
    }
    fl_check_value(ctx, st.agree_n > 0 && st.agree <= MC_TOL_AGREE, "moreau.reference_vs_optimized", st.agree, 0.0,
                   MC_TOL_AGREE, "000 §2, reference vs optimized twin",
                 "max |u_ref - u_opt|/|v| = %.3g on %ld systems (tol %g)", st.agree, st.agree_n,
                 MC_TOL_AGREE);
}

/* ------------------------------------------------------------------ */
/* reproduce theorem1                                                   */
/* ------------------------------------------------------------------ */

/* gamma(q) against its closed form, the hypothesis on the neighbourhood and
 * the set A(q, u-) (000 Theorem 1, §3); returns |u~ - u-|. */
static double theorem1_check_set(fl_check_ctx *ctx, const fl_model_theorem1_case *cs, int kind,
                                 const fl_asymptotics_set *A)
{
    const fl_model_theorem1_rod *rodp = &cs->rod;
    const char *cname = cs->name;
    const double *q = cs->q, *um = cs->u_minus;
    char name[128];
    double g_closed = cs->gamma, gtol = cs->gamma_tol;
    snprintf(name, sizeof name, "theorem1.%s.gamma", cname);
    int gok = fabs(A->gamma - g_closed) <= gtol;
    fl_check_value(ctx, gok, name, A->gamma, g_closed, gtol,
                 "000 Theorem 1, gamma closed form (data/000/theorem1_rod.json, proofs/moreau_law.md §9)",
                 "gamma(q) = %.6g, closed form 1/m + l^2c^2/J - mu l^2|sc|/J "
                 "= %.6g (tol %g)", A->gamma, g_closed, gtol);
    /* the hypothesis on the neighbourhood (000 Theorem 1) */
    double gminus = fl_model_theorem1_rod_gamma(rodp, q[2] - 1e-3), gplus = fl_model_theorem1_rod_gamma(rodp, q[2] + 1e-3);
    snprintf(name, sizeof name, "theorem1.%s.neighbourhood", cname);
    /* value: the largest gamma nearby (c = 0, 2: must be < 0 / <= 0) or
     * gamma just below theta (c = 1: must be > 0) */
    if (kind == 0)
        fl_check_value(ctx, gminus < 0 && gplus < 0, name, fmax(gminus, gplus), NAN, 0.0,
                       "000 Theorem 1 hypothesis: gamma < 0 near q", "gamma(theta -+ 1e-3) = %.3g, %.3g < 0",
                     gminus, gplus);
    else if (kind == 1)
        fl_check_value(ctx, gminus > 0, name, gminus, NAN, 0.0, "000 Theorem 1 hypothesis: gamma > 0 nearby",
                       "gamma(theta - 1e-3) = %.3g > 0", gminus);
    else
        fl_check_value(ctx, gminus <= 0 && gplus <= 0, name, fmax(gminus, gplus), NAN, 0.0,
                       "000 Theorem 1 hypothesis: gamma <= 0 near q",
                     "gamma(theta -+ 1e-3) = %.3g, %.3g <= 0", gminus, gplus);
    double span = 0;
    for (size_t i = 0; i < 3; i++) {
        double t = gsl_vector_get(A->b, i) - gsl_vector_get(A->a, i);
        span += t * t;
    }
    span = sqrt(span);
    snprintf(name, sizeof name, "theorem1.%s.set_A", cname);
    double utd = 0;      /* |u~ - u~ closed form (3/4) sin theta e_theta| (data/000) */
    for (size_t i = 0; i < 3; i++) utd = fmax(utd, fabs(gsl_vector_get(A->b, i) - cs->u_tilde[i]));
    fl_check_value(ctx, span > 0.1 && A->segment == cs->segment && utd <= cs->u_tilde_tol, name, utd, 0.0, cs->u_tilde_tol,
                   "000 §3 A(q,u-); u~ = (0, 0, (3/4) sin theta), proofs/moreau_law.md §9 (value: |u~ - closed form|)",
                 "A = %s u- = (%g, %g, %g), u~ = (%.6g, %.6g, %.6g), |u~ - u-| = %.4g",
                 A->segment ? "[u-, u~]," : "{u-, u~},", um[0], um[1], um[2],
                 gsl_vector_get(A->b, 0), gsl_vector_get(A->b, 1), gsl_vector_get(A->b, 2), span);
    return span;
}

/* A limit d(eps) -> 0 (a claim with no rate) checked at finitely many eps
 * of a geometric sequence: d decreases at every step of the sequence and is
 * at most tol at the smallest eps.  The observed order (log-log slope from
 * the first to the last eps) is reported, not checked. */
static int theorem1_limit_check(fl_check_ctx *ctx, const char *name, const char *reference, const char *what,
                                const double *eps, const double *d, int neps, double tol)
{
    int down = 1;
    for (int e = 1; e < neps; e++) down = down && d[e] < d[e - 1];
    double order = neps > 1 ? log(d[neps - 1] / d[0]) / log(eps[neps - 1] / eps[0]) : NAN;
    return fl_check_value(ctx, down && d[neps - 1] <= tol, name, d[neps - 1], 0.0, tol, reference,
                          "%s = %.3g at eps = %g, %.3g at eps = %g, decreasing at each of the %d eps: %s "
                          "(observed order %.2f; the claim is a limit: tol %.3g at the smallest eps and a decrease at every step)",
                          what, d[0], eps[0], d[neps - 1], eps[neps - 1], neps, down ? "yes" : "no", order, tol);
}

/* The limits as eps -> 0 (000 (9), Theorem 1) from the distances eS
 * (e(A_eps, A)), dH (d_H(A, A_eps)) and dP (d_H({u-, u~}, A_eps)). */
static void theorem1_check_limits(fl_check_ctx *ctx, const fl_model_theorem1 *mod, const fl_model_theorem1_case *cs,
                                  int kind, int neps, double span, const double *eS, const double *dH,
                                  const double *dP)
{
    const char *cname = cs->name;
    char name[128];
    snprintf(name, sizeof name, "theorem1.%s.consistency", cname);
    theorem1_limit_check(ctx, name, "000 (9), consistency", "e(A_eps, A)", mod->eps, eS, neps, 0.05 * span);
    if (kind < 2) {
        snprintf(name, sizeof name, "theorem1.%s.dH_to_zero", cname);
        theorem1_limit_check(ctx, name, "000 Theorem 1: d_H(A_eps, A) -> 0", "d_H(A_eps, A)", mod->eps, dH, neps,
                             0.05 * span);
        return;
    }
    snprintf(name, sizeof name, "theorem1.%s.pair_dH_to_zero", cname);
    theorem1_limit_check(ctx, name, "000 Theorem 1: d_H({u-, u~}, A_eps) -> 0", "d_H({u-, u~}, A_eps)", mod->eps, dP,
                         neps, 0.05 * span);
    double mn = dH[0];
    for (int e = 1; e < neps; e++) mn = fmin(mn, dH[e]);
    snprintf(name, sizeof name, "theorem1.%s.dH_bounded_away", cname);
    fl_check_value(ctx, fabs(mn - cs->dH_limit) <= 0.1 * span, name, mn, cs->dH_limit, 0.1 * span,
                   "000 Theorem 1: d_H(A, A_eps) does not tend to 0; limit |u~ - u-|/2 (data/000/theorem1_rod.json dH_limit)",
                 "min over eps of d_H(A, A_eps) = %.3g, limit |u~ - u-|/2 = %.3g (data file), tol 0.1 |u~ - u-| = %.3g "
                 "(000 Theorem 1: does not tend to 0)", mn, cs->dH_limit, 0.1 * span);
}

/* The samples and the workspace all cases share. */
typedef struct {
    FILE *csv;
    gsl_rng *rng;
    gsl_matrix *S;             /* ns sampled outcomes u_eps */
    int neps;
    size_t ns, K;
} theorem1_work;

/* Case c of the data file: A(q, u-), then A_eps sampled at each eps and
 * its distances to A and to the pair {u-, u~}.  -1: an error (reported). */
static int theorem1_case(fl_check_ctx *ctx, fl_model_theorem1 *mod, int c, theorem1_work *tw)
{
    fl_error err;
    fl_model_theorem1_case *cs = &mod->cases[c];
    const char *cname = cs->name;
    /* the case of Theorem 1 the data file describes: gamma < 0 (A a pair),
     * gamma = 0 with d_H -> 0, gamma = 0 with d_H(A, A_eps) -> dH_limit > 0 */
    const int kind = !cs->segment ? 0 : cs->dH_limit == 0 ? 1 : 2;
    size_t ns = tw->ns;
    fl_moreau_options opt = fl_moreau_options_default();
    fl_moreau_system sys;
    fl_model_theorem1_rod_system(&cs->rod, &sys);
    gsl_vector_view qv = gsl_vector_view_array(cs->q, 3), uv = gsl_vector_view_array(cs->u_minus, 3);
    fl_asymptotics_set A;
    if (fl_asymptotics_build(&sys, &qv.vector, &uv.vector, &opt, 1e-10, 0.0, &A, &err) != FL_OK) {
        fl_check_message(ctx, "theorem1: %s", err.message);
        return -1;
    }
    double span = theorem1_check_set(ctx, cs, kind, &A);
    double dH[4], dP[4], eS[4];
    fl_asymptotics_set pair = A;
    pair.segment = 0;
    for (int e = 0; e < tw->neps; e++) {
        double eps = mod->eps[e];
        size_t nc = 0;
        if (fl_asymptotics_sample(&sys, &qv.vector, &uv.vector, eps, ns, tw->rng, &opt, tw->S, &nc, &err)
            != FL_OK) {
            fl_check_message(ctx, "theorem1: %s", err.message);
            fl_asymptotics_set_release(&A);
            return -1;
        }
        eS[e] = fl_asymptotics_excess_samples_to_set(tw->S, ns, &A);
        double eA = fl_asymptotics_excess_set_to_samples(&A, tw->K, tw->S, ns);
        dH[e] = fmax(eS[e], eA);
        dP[e] = fmax(fl_asymptotics_excess_samples_to_set(tw->S, ns, &pair),
                     fl_asymptotics_excess_set_to_samples(&pair, 2, tw->S, ns));
        fprintf(tw->csv, "%s,%g,%zu,%zu,%.6e,%.6e,%.6e,%.6e\n", cname, eps, ns, nc, eS[e], eA,
                dH[e], dP[e]);
        fl_check_progress(ctx, "theorem1 eps", c * tw->neps + e + 1, 3 * tw->neps);
    }
    theorem1_check_limits(ctx, mod, cs, kind, tw->neps, span, eS, dH, dP);
    fl_asymptotics_set_release(&A);
    return 0;
}

static void theorem1_plot(fl_check_ctx *ctx, const char *path)
{
    char png[1024], script[4096];
    if (fl_check_out_path(ctx, "theorem1_hausdorff.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png size 900,600 noenhanced\nset output '%s'\nset datafile separator ','\n"
                 "set logscale xy\nset key bottom right\nset xlabel 'eps'\n"
                 "set ylabel 'Hausdorff distance'\nset title '000 Theorem 1: rod, d_H(A_eps, A)'\n"
                 "plot '%s' using ($2):(strcol(1) eq 'gamma_negative' ? $7 : 1/0) w lp t 'gamma<0: d_H(A,A_eps)', "
                 "'' using ($2):(strcol(1) eq 'gamma_zero_positive_nearby' ? $7 : 1/0) w lp t 'gamma=0, >0 nearby: d_H(A,A_eps)', "
                 "'' using ($2):(strcol(1) eq 'gamma_zero_nonpositive_nearby' ? $7 : 1/0) w lp t 'gamma=0, <=0 nearby: d_H(A,A_eps)', "
                 "'' using ($2):(strcol(1) eq 'gamma_zero_nonpositive_nearby' ? $8 : 1/0) w lp t 'gamma=0, <=0 nearby: d_H({u-,u~},A_eps)'\n",
                 png, path);
        if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "theorem1: no PNG (gnuplot failed)");
    }
}

/* 000 Theorem 1 on the rod of the data file, its three cases: compute
 * A and A_eps, check, plot d_H against eps. */
int fl_moreau_reproduce_theorem1(fl_check_ctx *ctx)
{
    char path[1024];
    fl_model_theorem1 mod;
    fl_error err;
    if (fl_check_params_path(ctx, "000/theorem1_rod.json", path, sizeof path) != 0) return -1;
    if (fl_model_theorem1_load(path, &mod, &err) != FL_OK) {
        fl_check_message(ctx, "theorem1: %s", err.message);
        return -1;
    }
    theorem1_work tw;
    tw.neps = (int)(ctx->quick ? mod.quick_neps : mod.neps);
    tw.ns = (size_t)(ctx->quick ? mod.quick_samples : mod.samples);
    tw.K = (size_t)mod.segment_grid;
    if (fl_check_out_path(ctx, "theorem1_hausdorff.csv", path, sizeof path) != 0) return -1;
    tw.csv = fopen(path, "w");
    if (!tw.csv) return -1;
    fprintf(tw.csv, "case,eps,samples,collisions,e_Aeps_A,e_A_Aeps,dH_A_Aeps,dH_pair_Aeps\n");
    tw.rng = fl_rng_alloc(ctx->seed);
    tw.S = fl_dense_matrix_alloc(tw.ns, 3);
    if (!tw.rng || !tw.S) {
        fl_check_message(ctx, "theorem1: out of memory");
        fclose(tw.csv);
        gsl_matrix_free(tw.S);
        gsl_rng_free(tw.rng);
        return -1;
    }
    int rc = 0;
    for (int c = 0; c < 3 && rc == 0; c++) rc = theorem1_case(ctx, &mod, c, &tw);
    fclose(tw.csv);
    gsl_matrix_free(tw.S);
    gsl_rng_free(tw.rng);
    if (rc) return rc;
    theorem1_plot(ctx, path);
    return 0;
}
