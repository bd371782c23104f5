/* friction_sets.c — the friction sets every law uses (001 §2.1, §3.2, §6.2;
 * 001 §2.1, §3.2; [DERIVED]).  Contracts in core/fl_friction_set.h;
 * derivations of every formula not printed in the papers in
 * proofs/friction_sets.md.
 *
 * Scalar work goes through the kernels of core/fl_scalar.h (proved by
 * Frama-C in the real model): an infinite interval end is handed to them as
 * a has_lo / has_hi flag, never as an infinite double.
 */
#include "fl_friction_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fl_scalar.h"


/* ------------------------------------------------------------------ */
/* small 2-vector helpers                                              */

static double cross2(const double *a, const double *b)
{
    return a[0] * b[1] - a[1] * b[0];
}

static double dot2(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1];
}

static double norm_dim(int dim, const double *x)
{
    return dim == 1 ? fabs(x[0]) : hypot(x[0], x[1]);
}

static int finite_dim(int dim, const double *x)
{
    for (int i = 0; i < dim; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* (c - x)^T G (c - x) for dim 2, G row-major (G == NULL: identity). */
static double gdist2(const double *G, const double *c, const double *x)
{
    double d0 = c[0] - x[0], d1 = c[1] - x[1];
    if (!G) return d0 * d0 + d1 * d1;
    return G[0] * d0 * d0 + (G[1] + G[2]) * d0 * d1 + G[3] * d1 * d1;
}

/* a^T G b (G == NULL: identity), dim 2. */
static double gdot(const double *G, const double *a, const double *b)
{
    if (!G) return dot2(a, b);
    return a[0] * (G[0] * b[0] + G[1] * b[1]) + a[1] * (G[2] * b[0] + G[3] * b[1]);
}

/* interval ends as the flags the scalar kernels take (fl_scalar.h) */
static int has_lo(const fl_friction_set *C)
{
    return !isinf(C->lo);
}

static int has_hi(const fl_friction_set *C)
{
    return !isinf(C->hi);
}

/* ------------------------------------------------------------------ */
/* construction                                                        */

fl_status fl_friction_set_disc(fl_friction_set *C, int dim, double mu, fl_error *err)
{
    if (!C) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_disc: C is NULL");
    memset(C, 0, sizeof *C);
    if (dim != 1 && dim != 2)
        return FL_FAIL(err, FL_EDIM, "fl_friction_set_disc: dim must be 1 or 2 (got %d)", dim);
    if (!isfinite(mu))
        return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_disc: mu is not finite (%g)", mu);
    if (mu < 0) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_disc: mu must be >= 0 (got %g)", mu);
    C->kind = FL_SET_DISC;
    C->dim = dim;
    C->mu = mu;
    return FL_OK;
}

fl_status fl_friction_set_interval(fl_friction_set *C, double lo, double hi, fl_error *err)
{
    if (!C) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_interval: C is NULL");
    memset(C, 0, sizeof *C);
    if (isnan(lo) || isnan(hi))
        return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_interval: NaN end ([%g, %g])", lo, hi);
    if (lo == INFINITY || hi == -INFINITY)
        return FL_FAIL(err, FL_EINVAL,
                       "fl_friction_set_interval: empty interval [%g, %g] (lo may only be -inf, "
                       "hi only +inf)", lo, hi);
    if (lo > hi)
        return FL_FAIL(err, FL_EINVAL, "fl_friction_set_interval: lo > hi ([%g, %g])", lo, hi);
    C->kind = FL_SET_INTERVAL;
    C->dim = 1;
    C->lo = lo;
    C->hi = hi;
    return FL_OK;
}

/* Polygon validation (convention in fl_friction_set.h).  Returns FL_OK or
 * fills err. */
static fl_status polygon_check(size_t m, const double *v, size_t nr, const double *d,
                               fl_error *err)
{
    for (size_t k = 0; k < 2 * m; k++)
        if (!isfinite(v[k]))
            return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_polygon: vertex %zu is not finite",
                           k / 2);
    for (size_t k = 0; k < 2 * nr; k++)
        if (!isfinite(d[k]))
            return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_polygon: ray %zu is not finite", k / 2);
    for (size_t k = 0; k < nr; k++)
        if (d[2 * k] == 0.0 && d[2 * k + 1] == 0.0)
            return FL_FAIL(err, FL_EINVAL, "fl_friction_set_polygon: ray %zu is zero", k);
    /* edges e_k = v_{k+1} - v_k must be nonzero */
    size_t nedge = m - 1;
    if (nr == 0 && m >= 3) nedge = m;   /* closing edge v_{m-1} -> v_0 */
    for (size_t k = 0; k < nedge; k++) {
        size_t j = (k + 1) % m;
        if (v[2 * j] == v[2 * k] && v[2 * j + 1] == v[2 * k + 1])
            return FL_FAIL(err, FL_EINVAL,
                           "fl_friction_set_polygon: vertices %zu and %zu coincide", k, j);
    }
    if (nr == 0) {
        if (m < 3) return FL_OK;   /* a point or a segment */
        /* strictly convex, counter-clockwise: every turn is a strict left
         * turn and the turning angles add up to exactly 2 pi (one loop). */
        double turn = 0.0;
        for (size_t k = 0; k < m; k++) {
            size_t j = (k + 1) % m, l = (k + 2) % m;
            double e0[2] = {v[2 * j] - v[2 * k], v[2 * j + 1] - v[2 * k + 1]};
            double e1[2] = {v[2 * l] - v[2 * j], v[2 * l + 1] - v[2 * j + 1]};
            double c = cross2(e0, e1);
            if (!(c > 0))
                return FL_FAIL(err, FL_EINVAL,
                               "fl_friction_set_polygon: the turn at vertex %zu is not a strict left "
                               "turn (the polygon must be strictly convex and "
                               "counter-clockwise)", j);
            turn += atan2(c, dot2(e0, e1));
        }
        if (turn > 3.0 * FL_PI)
            return FL_FAIL(err, FL_EINVAL,
                           "fl_friction_set_polygon: the vertices wind around more than once "
                           "(total turn %g rad; the polygon must be simple)", turn);
        return FL_OK;
    }
    if (nr > 2)
        return FL_FAIL(err, FL_EINVAL, "fl_friction_set_polygon: at most 2 rays (got %zu)", nr);
    const double *d0 = d, *d1 = d + 2 * (nr - 1);
    double md0[2] = {-d0[0], -d0[1]};
    if (nr == 2 && !(cross2(md0, d1) > 0))
        return FL_FAIL(err, FL_EINVAL,
                       "fl_friction_set_polygon: the rays must span a pointed wedge with "
                       "cross(ray0, ray1) < 0 (ray0 enters at the first vertex, ray1 leaves "
                       "at the last; parallel rays: give one ray)");
    for (size_t k = 0; k + 1 < m; k++) {
        double e[2] = {v[2 * k + 2] - v[2 * k], v[2 * k + 3] - v[2 * k + 1]};
        if (!(cross2(md0, e) > 0) || !(cross2(e, d1) > 0))
            return FL_FAIL(err, FL_EINVAL,
                           "fl_friction_set_polygon: edge %zu -> %zu does not point strictly between "
                           "-ray0 and ray_last (the rays would make the set non-convex)",
                           k, k + 1);
        if (k + 2 < m) {
            double f[2] = {v[2 * k + 4] - v[2 * k + 2], v[2 * k + 5] - v[2 * k + 3]};
            if (!(cross2(e, f) > 0))
                return FL_FAIL(err, FL_EINVAL,
                               "fl_friction_set_polygon: the turn at vertex %zu is not a strict left "
                               "turn (the chain must be strictly convex and "
                               "counter-clockwise)", k + 1);
        }
    }
    return FL_OK;
}

fl_status fl_friction_set_polygon(fl_friction_set *C, size_t nvert, const double *vert, size_t nray,
                         const double *ray, fl_error *err)
{
    if (!C) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_polygon: C is NULL");
    memset(C, 0, sizeof *C);
    if (nvert == 0 || !vert)
        return FL_FAIL(err, FL_EINVAL, "fl_friction_set_polygon: empty polygon (no vertices)");
    if (nray > 2)
        return FL_FAIL(err, FL_EINVAL, "fl_friction_set_polygon: at most 2 rays (got %zu)", nray);
    if (nray > 0 && !ray)
        return FL_FAIL(err, FL_EINVAL, "fl_friction_set_polygon: %zu rays but ray is NULL", nray);
    FL_TRY(polygon_check(nvert, vert, nray, ray, err));
    C->vert = malloc(2 * nvert * sizeof(double));
    C->ray = nray ? malloc(2 * nray * sizeof(double)) : NULL;
    if (!C->vert || (nray && !C->ray)) {
        free(C->vert);
        free(C->ray);
        memset(C, 0, sizeof *C);
        return FL_FAIL(err, FL_ENOMEM, "fl_friction_set_polygon: out of memory");
    }
    memcpy(C->vert, vert, 2 * nvert * sizeof(double));
    if (nray) memcpy(C->ray, ray, 2 * nray * sizeof(double));
    C->kind = FL_SET_POLYGON;
    C->dim = 2;
    C->nvert = nvert;
    C->nray = nray;
    return FL_OK;
}

fl_status fl_friction_set_copy(fl_friction_set *dst, const fl_friction_set *src, fl_error *err)
{
    if (!dst || !src) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_copy: NULL argument");
    switch (src->kind) {
    case FL_SET_DISC:
        return fl_friction_set_disc(dst, src->dim, src->mu, err);
    case FL_SET_INTERVAL:
        return fl_friction_set_interval(dst, src->lo, src->hi, err);
    case FL_SET_POLYGON:
        return fl_friction_set_polygon(dst, src->nvert, src->vert, src->nray, src->ray, err);
    }
    memset(dst, 0, sizeof *dst);
    return FL_FAIL(err, FL_EINVAL, "fl_friction_set_copy: unknown set kind %d", (int)src->kind);
}

void fl_friction_set_release(fl_friction_set *C)
{
    if (!C) return;
    free(C->vert);
    free(C->ray);
    C->vert = NULL;
    C->ray = NULL;
    C->nvert = 0;
    C->nray = 0;
}

int fl_friction_set_is_bounded(const fl_friction_set *C)
{
    switch (C->kind) {
    case FL_SET_DISC:
        return 1;
    case FL_SET_INTERVAL:
        return has_lo(C) && has_hi(C);
    case FL_SET_POLYGON:
        return C->nray == 0;
    }
    return 0;
}

/* A valid set as the constructors leave it (guards the public entries). */
static fl_status set_valid(const fl_friction_set *C, const char *who, fl_error *err)
{
    if (!C) return FL_FAIL(err, FL_EINVAL, "%s: C is NULL", who);
    switch (C->kind) {
    case FL_SET_DISC:
        if ((C->dim == 1 || C->dim == 2) && isfinite(C->mu) && C->mu >= 0) return FL_OK;
        break;
    case FL_SET_INTERVAL:
        if (C->dim == 1 && !isnan(C->lo) && !isnan(C->hi) && C->lo <= C->hi &&
            C->lo != INFINITY && C->hi != -INFINITY)
            return FL_OK;
        break;
    case FL_SET_POLYGON:
        if (C->dim == 2 && C->nvert >= 1 && C->vert && C->nray <= 2 &&
            (C->nray == 0 || C->ray))
            return FL_OK;
        break;
    }
    return FL_FAIL(err, FL_EINVAL, "%s: not a valid friction set (build it with fl_set_*)",
                   who);
}

/* ------------------------------------------------------------------ */
/* polygon geometry: boundary pieces (convention in fl_friction_set.h)  */

static int poly_full_dim(const fl_friction_set *C)
{
    return (C->nray == 0 && C->nvert >= 3) || (C->nray == 1 && C->nvert >= 2) ||
           C->nray == 2;
}

/* 1 if x lies in the polygon (full-dimensional case only): on the left of
 * (or on) the supporting line of every boundary piece traversed
 * counter-clockwise. */
static int poly_inside(const fl_friction_set *C, const double *x)
{
    size_t m = C->nvert;
    const double *v = C->vert;
    size_t nedge = (C->nray == 0) ? m : m - 1;
    for (size_t k = 0; k < nedge; k++) {
        size_t j = (k + 1) % m;
        double e[2] = {v[2 * j] - v[2 * k], v[2 * j + 1] - v[2 * k + 1]};
        double w[2] = {x[0] - v[2 * k], x[1] - v[2 * k + 1]};
        if (cross2(e, w) < 0) return 0;
    }
    if (C->nray > 0) {
        const double *d0 = C->ray, *d1 = C->ray + 2 * (C->nray - 1);
        double md0[2] = {-d0[0], -d0[1]};
        double w0[2] = {x[0] - v[0], x[1] - v[1]};
        double w1[2] = {x[0] - v[2 * m - 2], x[1] - v[2 * m - 1]};
        if (cross2(md0, w0) < 0) return 0;
        if (cross2(d1, w1) < 0) return 0;
    }
    return 1;
}

/* Keep candidate c if it is G-closer to x than the best so far. */
static void poly_candidate(const double *G, const double *x, const double *c, double *best,
                           double *p)
{
    double d = gdist2(G, c, x);
    if (d < *best) {
        *best = d;
        p[0] = c[0];
        p[1] = c[1];
    }
}

/* G-projection of x onto the segment [a, b]: t* = clamp(e^T G (x-a) / e^T G e,
 * 0, 1), e = b - a (proofs/friction_sets.md §2). */
static void seg_project(const double *G, const double *a, const double *b, const double *x,
                        double *c)
{
    double e[2] = {b[0] - a[0], b[1] - a[1]};
    double w[2] = {x[0] - a[0], x[1] - a[1]};
    double t = fl_scalar_clamp(gdot(G, e, w) / gdot(G, e, e), 0.0, 1.0);
    c[0] = a[0] + t * e[0];
    c[1] = a[1] + t * e[1];
}

/* G-projection onto the half-line a + t d, t >= 0: t* = max(0, d^T G (x-a) /
 * d^T G d) (the interval [0, +inf[ of fl_scalar_proj_interval). */
static void ray_project(const double *G, const double *a, const double *d, const double *x,
                        double *c)
{
    double w[2] = {x[0] - a[0], x[1] - a[1]};
    double t = fl_scalar_proj_interval(gdot(G, d, w) / gdot(G, d, d), 1, 0.0, 0, 0.0);
    c[0] = a[0] + t * d[0];
    c[1] = a[1] + t * d[1];
}

/* argmin over the polygon of (c - x)^T G (c - x): x itself if inside, else
 * the best candidate over the boundary pieces (edges, rays, vertices — the
 * vertices are the clamped ends of the pieces).  G == NULL: Euclidean. */
static void poly_project(const fl_friction_set *C, const double *G, const double *x,
                         double *p)
{
    double xx[2] = {x[0], x[1]};
    if (poly_full_dim(C) && poly_inside(C, xx)) {
        p[0] = xx[0];
        p[1] = xx[1];
        return;
    }
    size_t m = C->nvert;
    const double *v = C->vert;
    double best = INFINITY, c[2];
    p[0] = v[0];
    p[1] = v[1];
    poly_candidate(G, xx, v, &best, p);
    size_t nedge = (C->nray == 0 && m >= 3) ? m : m - 1;
    for (size_t k = 0; k < nedge; k++) {
        size_t j = (k + 1) % m;
        seg_project(G, v + 2 * k, v + 2 * j, xx, c);
        poly_candidate(G, xx, c, &best, p);
    }
    if (C->nray > 0) {
        ray_project(G, v, C->ray, xx, c);
        poly_candidate(G, xx, c, &best, p);
        ray_project(G, v + 2 * (m - 1), C->ray + 2 * (C->nray - 1), xx, c);
        poly_candidate(G, xx, c, &best, p);
    }
}

/* ------------------------------------------------------------------ */
/* projections                                                         */

fl_status fl_friction_set_project(const fl_friction_set *C, const double *x, double *p, fl_error *err)
{
    FL_TRY(set_valid(C, "fl_friction_set_project", err));
    if (!x || !p) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_project: NULL vector");
    if (!finite_dim(C->dim, x))
        return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_project: x is not finite");
    switch (C->kind) {
    case FL_SET_DISC:
        if (C->dim == 1) {
            p[0] = fl_scalar_clamp(x[0], -C->mu, C->mu);   /* [-mu, mu] */
        } else {
            double px, py;
            fl_scalar_proj_disc(C->mu, x[0], x[1], &px, &py);   /* 001 (2.1): mu B */
            p[0] = px;
            p[1] = py;
        }
        break;
    case FL_SET_INTERVAL:   /* 001 §6.2: [a,b], ]-inf,b] */
        p[0] = fl_scalar_proj_interval(x[0], has_lo(C), C->lo, has_hi(C), C->hi);
        break;
    case FL_SET_POLYGON:
        poly_project(C, NULL, x, p);
        break;
    }
    return FL_OK;
}

/* Check that G (dim x dim, row-major) is symmetric positive definite. */
static fl_status metric_check(int dim, const double *G, fl_error *err)
{
    if (!G) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_project_metric: G is NULL");
    for (int i = 0; i < dim * dim; i++)
        if (!isfinite(G[i]))
            return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_project_metric: G is not finite");
    if (dim == 1) {
        if (!(G[0] > 0))
            return FL_FAIL(err, FL_ENOTSPD, "fl_friction_set_project_metric: G = %g is not > 0", G[0]);
        return FL_OK;
    }
    double scale = fabs(G[0]) + fabs(G[1]) + fabs(G[2]) + fabs(G[3]);
    if (fabs(G[1] - G[2]) > 1e-12 * scale)
        return FL_FAIL(err, FL_ENOTSPD, "fl_friction_set_project_metric: G is not symmetric "
                       "(G01 = %g, G10 = %g)", G[1], G[2]);
    double det = G[0] * G[3] - G[1] * G[2];
    if (!(G[0] > 0) || !(det > 0))
        return FL_FAIL(err, FL_ENOTSPD, "fl_friction_set_project_metric: G is not positive definite "
                       "(G00 = %g, det = %g)", G[0], det);
    return FL_OK;
}

/* G-projection onto the disc of radius mu (dim 2), x outside the disc.
 * KKT: G (c - x) + lambda c = 0, lambda > 0, |c| = mu, so
 * c(lambda) = (G + lambda I)^{-1} G x.  psi(lambda) = 1/|c(lambda)| - 1/mu
 * is increasing and concave (proofs/friction_sets.md §3), psi(0) < 0:
 * Newton from lambda = 0 climbs monotonically to the root. */
static void disc_project_metric(double mu, const double *G, const double *x, double *p)
{
    if (mu == 0) {
        p[0] = p[1] = 0.0;
        return;
    }
    double g[2] = {G[0] * x[0] + G[1] * x[1], G[2] * x[0] + G[3] * x[1]};
    double lam = 0.0, c[2] = {x[0], x[1]};
    for (int it = 0; it < 200; it++) {
        double a = G[0] + lam, b = G[1], d = G[3] + lam;
        double det = a * d - b * b;
        c[0] = (d * g[0] - b * g[1]) / det;   /* c = (G + lam I)^{-1} G x */
        c[1] = (a * g[1] - b * g[0]) / det;
        double nc = hypot(c[0], c[1]);
        double hc[2] = {(d * c[0] - b * c[1]) / det, (a * c[1] - b * c[0]) / det};
        double chc = dot2(c, hc);             /* c^T (G + lam I)^{-1} c > 0 */
        double psi = 1.0 / nc - 1.0 / mu;
        if (!(psi < 0) || !(chc > 0)) break;  /* at (or past) the root */
        double step = -psi * nc * nc * nc / chc;
        if (!(step > 0) || !isfinite(step)) break;
        double nl = lam + step;
        if (nl == lam) break;
        lam = nl;
        if (step <= 1e-16 * lam) break;   /* converged */
    }
    {
        double a = G[0] + lam, b = G[1], d = G[3] + lam;
        double det = a * d - b * b;
        c[0] = (d * g[0] - b * g[1]) / det;
        c[1] = (a * g[1] - b * g[0]) / det;
    }
    /* Put the result exactly on the circle (its radius is mu up to rounding). */
    double nc = hypot(c[0], c[1]);
    p[0] = c[0] * (mu / nc);
    p[1] = c[1] * (mu / nc);
}

fl_status fl_friction_set_project_metric(const fl_friction_set *C, const double *G, const double *x,
                                double *p, fl_error *err)
{
    FL_TRY(set_valid(C, "fl_friction_set_project_metric", err));
    if (!x || !p) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_project_metric: NULL vector");
    FL_TRY(metric_check(C->dim, G, err));
    if (!finite_dim(C->dim, x))
        return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_project_metric: x is not finite");
    if (C->dim == 1) return fl_friction_set_project(C, x, p, err);   /* g (c-x)^2: same argmin */
    if (C->kind == FL_SET_DISC) {
        if (x[0] * x[0] + x[1] * x[1] <= C->mu * C->mu) {
            p[0] = x[0];
            p[1] = x[1];
        } else {
            double xx[2] = {x[0], x[1]};
            disc_project_metric(C->mu, G, xx, p);
        }
        return FL_OK;
    }
    poly_project(C, G, x, p);
    return FL_OK;
}

int fl_friction_set_contains(const fl_friction_set *C, const double *x, double tol)
{
    double p[2];
    if (!x || set_valid(C, "fl_friction_set_contains", NULL) != FL_OK) return 0;
    if (fl_friction_set_project(C, x, p, NULL) != FL_OK) return 0;
    double d[2] = {x[0] - p[0], C->dim == 2 ? x[1] - p[1] : 0.0};
    return norm_dim(C->dim, d) <= tol;
}

/* ------------------------------------------------------------------ */
/* support function (001 §2.1, §6.2; [DERIVED])                 */

#define FL_RAY_EPS (64 * 2.220446049250313e-16)

/* rho.y > eps |rho| |y| (the recession test of a polygon, up to eps). */
static int ray_positive_eps(const double *rho, const double *y, double eps)
{
    return dot2(rho, y) > eps * hypot(rho[0], rho[1]) * hypot(y[0], y[1]);
}

static int support_eps(const fl_friction_set *C, const double *y, double eps, double *value);

int fl_friction_set_support(const fl_friction_set *C, const double *y, double *value)
{
    return support_eps(C, y, FL_RAY_EPS, value);
}

/* S_C(y) with the polygon's recession test relaxed to rho.y > eps |rho| |y|
 * (eps >= FL_RAY_EPS); the Coulomb checkers pass their tolerance. */
static int support_eps(const fl_friction_set *C, const double *y, double eps, double *value)
{
    double s = 0.0;
    if (!y || !value || set_valid(C, "fl_friction_set_support", NULL) != FL_OK) return 0;
    if (!finite_dim(C->dim, y)) return 0;
    switch (C->kind) {
    case FL_SET_DISC:
        /* S_{mu B}(y) = mu |y| (001 §2.1) */
        if (C->dim == 1) {
            if (!fl_scalar_support_interval(1, -C->mu, 1, C->mu, y[0], &s)) return 0;
        } else {
            s = C->mu * hypot(y[0], y[1]);
        }
        break;
    case FL_SET_INTERVAL:
        /* 001 §6.2: S_[a,b](v) = b max(v,0) - a max(-v,0); S_]-inf,b] = +inf on v < 0 */
        if (!fl_scalar_support_interval(has_lo(C), C->lo, has_hi(C), C->hi, y[0], &s))
            return 0;
        break;
    case FL_SET_POLYGON:
        /* recession test: +inf iff some ray rho has rho.y > 0; otherwise the
         * vertex maximum (proofs/friction_sets.md §1).  rho.y within
         * rounding of 0 (FL_RAY_EPS |rho| |y|) counts as 0: a normal to a
         * ray computed in floating point stays in the barrier cone. */
        for (size_t k = 0; k < C->nray; k++)
            if (ray_positive_eps(C->ray + 2 * k, y, eps)) return 0;
        s = dot2(C->vert, y);
        for (size_t k = 1; k < C->nvert; k++) {
            double t = dot2(C->vert + 2 * k, y);
            if (t > s) s = t;
        }
        break;
    }
    *value = s;
    return 1;
}

fl_status fl_friction_set_support_point(const fl_friction_set *C, const double *y, double *c,
                               fl_error *err)
{
    double s;
    FL_TRY(set_valid(C, "fl_friction_set_support_point", err));
    if (!y || !c) return FL_FAIL(err, FL_EINVAL, "fl_friction_set_support_point: NULL vector");
    if (!finite_dim(C->dim, y))
        return FL_FAIL(err, FL_ENONFINITE, "fl_friction_set_support_point: y is not finite");
    if (!fl_friction_set_support(C, y, &s))
        return FL_FAIL(err, FL_EINVAL,
                       "fl_friction_set_support_point: S_C(y) = +inf (y leaves the barrier cone of "
                       "the unbounded set): no maximiser");
    if (norm_dim(C->dim, y) == 0.0) {
        double z[2] = {0.0, 0.0};   /* every point maximises: take P_C(0) */
        return fl_friction_set_project(C, z, c, err);
    }
    switch (C->kind) {
    case FL_SET_DISC:
        if (C->dim == 1) {
            c[0] = y[0] > 0 ? C->mu : -C->mu;
        } else {
            double n = hypot(y[0], y[1]);
            c[0] = C->mu * y[0] / n;   /* mu y / |y| */
            c[1] = C->mu * y[1] / n;
        }
        break;
    case FL_SET_INTERVAL:
        c[0] = y[0] > 0 ? C->hi : C->lo;   /* finite: S_C(y) < inf */
        break;
    case FL_SET_POLYGON: {
        size_t best = 0;
        double bv = dot2(C->vert, y);
        for (size_t k = 1; k < C->nvert; k++) {
            double t = dot2(C->vert + 2 * k, y);
            if (t > bv) {
                bv = t;
                best = k;
            }
        }
        c[0] = C->vert[2 * best];
        c[1] = C->vert[2 * best + 1];
        break;
    }
    }
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* the three statements of Coulomb's law (001 §2.1 (i)-(iii), §3.2)     */

/* Size of C: the largest finite |point| of its description (for scales). */
static double set_size(const fl_friction_set *C)
{
    double s = 0.0;
    switch (C->kind) {
    case FL_SET_DISC:
        s = C->mu;
        break;
    case FL_SET_INTERVAL:
        if (has_lo(C)) s = fabs(C->lo);
        if (has_hi(C) && fabs(C->hi) > s) s = fabs(C->hi);
        break;
    case FL_SET_POLYGON:
        for (size_t k = 0; k < C->nvert; k++) {
            double t = hypot(C->vert[2 * k], C->vert[2 * k + 1]);
            if (t > s) s = t;
        }
        break;
    }
    return s;
}

/* Common argument check: 1 if the law's arguments are usable. */
static int law_args_ok(const fl_friction_set *C, double rn, const double *r, const double *v,
                       double tol)
{
    if (!r || !v || set_valid(C, "coulomb", NULL) != FL_OK) return 0;
    if (!isfinite(rn) || rn < 0 || !(tol >= 0)) return 0;
    return finite_dim(C->dim, r) && finite_dim(C->dim, v);
}

/* Force scale of the law: |r| + rn (1 + size(C)). */
static double force_scale(const fl_friction_set *C, double rn, const double *r)
{
    return norm_dim(C->dim, r) + rn * (1.0 + set_size(C));
}

/* dist(r, rn C); rn C = {0} when rn = 0 (0 . C = {0}). */
static double dist_scaled(const fl_friction_set *C, double rn, const double *r)
{
    double p[2] = {0.0, 0.0};
    if (rn > 0) {
        double x[2] = {r[0] / rn, C->dim == 2 ? r[1] / rn : 0.0};
        fl_friction_set_project(C, x, p, NULL);
        p[0] *= rn;
        p[1] *= rn;
    }
    double d[2] = {r[0] - p[0], C->dim == 2 ? r[1] - p[1] : 0.0};
    return norm_dim(C->dim, d);
}

/* (i) normality: -v in N_{rn C}(r)  <=>  P_{rn C}(r + s (-v)/|v|) = r for
 * any s > 0 (the projection characterisation of the normal cone,
 * proofs/friction_sets.md §4).  s = force scale. */
int fl_friction_set_normality(const fl_friction_set *C, double rn, const double *r,
                         const double *v, double tol)
{
    if (!law_args_ok(C, rn, r, v, tol)) return 0;
    int dim = C->dim;
    double sc = force_scale(C, rn, r);
    double nv = norm_dim(dim, v);
    double z[2] = {r[0], dim == 2 ? r[1] : 0.0};
    if (nv > 0) {
        z[0] -= sc * v[0] / nv;
        if (dim == 2) z[1] -= sc * v[1] / nv;
    }
    double p[2] = {0.0, 0.0};
    if (rn > 0) {   /* P_{rn C}(z) = rn P_C(z / rn) */
        double zz[2] = {z[0] / rn, z[1] / rn};
        if (fl_friction_set_project(C, zz, p, NULL) != FL_OK) return 0;
        p[0] *= rn;
        p[1] *= rn;
    }
    double d[2] = {p[0] - r[0], dim == 2 ? p[1] - r[1] : 0.0};
    return norm_dim(dim, d) <= tol * sc;
}

/* (ii) maximum dissipation: r in dS_{rn C}(-v)  <=>  r in rn C and
 * r.(-v) = S_{rn C}(-v) (Fenchel's equality, 001 §2.1).  S_{rn C} = rn S_C
 * for rn > 0 and 0 for rn = 0. */
int fl_friction_set_max_dissipation(const fl_friction_set *C, double rn, const double *r,
                               const double *v, double tol)
{
    if (!law_args_ok(C, rn, r, v, tol)) return 0;
    int dim = C->dim;
    double sc = force_scale(C, rn, r);
    if (dist_scaled(C, rn, r) > tol * sc) return 0;
    double mv[2] = {-v[0], dim == 2 ? -v[1] : 0.0};
    double S = 0.0;
    if (rn > 0) {
        if (!support_eps(C, mv, fmax(tol, FL_RAY_EPS), &S)) return 0;   /* +inf */
        S *= rn;
    }
    double rv = r[0] * mv[0] + (dim == 2 ? r[1] * mv[1] : 0.0);
    return fabs(S - rv) <= tol * sc * norm_dim(dim, v);
}

/* (iii) variational inequality, decided by its closed-form infimum
 * (001 §2.1, §3.2; proofs/friction_sets.md §4):
 *   inf_w [ r.(w - v) + rn (S_C(-w) - S_C(-v)) ]
 *     = -I_{rn C}(r) - r.v - rn S_C(-v),
 * because inf_w [r.w + S_{rn C}(-w)] = -S*_{rn C}(r) = -I_{rn C}(r).  It
 * is >= 0 iff r in rn C and r.(-v) >= rn S_C(-v) (hence equality).  When
 * rn > 0 and S_C(-v) = +inf the infimum is -inf (w = 0 gives
 * r.(-v) - rn.inf): (iii) fails; when rn = 0 the term rn S_C is 0
 * (0 . inf = 0, rn C = {0}) and (iii) holds iff r = 0. */
int fl_friction_set_variational(const fl_friction_set *C, double rn, const double *r,
                           const double *v, double tol)
{
    if (!law_args_ok(C, rn, r, v, tol)) return 0;
    int dim = C->dim;
    double sc = force_scale(C, rn, r);
    double rv = r[0] * v[0] + (dim == 2 ? r[1] * v[1] : 0.0);
    if (rn == 0) return norm_dim(dim, r) <= tol * sc;
    /* first term: -I_{rn C}(r) */
    double x[2] = {r[0] / rn, dim == 2 ? r[1] / rn : 0.0};
    if (!fl_friction_set_contains(C, x, tol * sc / rn)) return 0;   /* -inf */
    double mv[2] = {-v[0], dim == 2 ? -v[1] : 0.0}, S;
    if (!support_eps(C, mv, fmax(tol, FL_RAY_EPS), &S)) return 0;   /* -inf */
    double inf = -rv - rn * S;                             /* the closed-form infimum */
    return inf >= -tol * sc * norm_dim(dim, v);
}

/* ------------------------------------------------------------------ */
/* the Coulomb cone K and its polar (001 (2.1); proofs/friction_sets.md §5) */

/* Second-order cone K_mu = {(n, t) : |t| <= mu n} in R^{1+dim}:
 *   x in K            -> x;
 *   mu |t| <= -n      -> 0            (x in the polar);
 *   otherwise         -> (n + mu |t|)/(1 + mu^2) (1, mu t/|t|). */
static void soc_project(int dim, double mu, const double *x, double *p)
{
    double n = x[0], s = dim == 1 ? fabs(x[1]) : hypot(x[1], x[2]);
    if (s <= mu * n) {
        for (int i = 0; i <= dim; i++) p[i] = x[i];
        return;
    }
    if (mu * s <= -n) {
        for (int i = 0; i <= dim; i++) p[i] = 0.0;
        return;
    }
    double a = (n + mu * s) / (1.0 + mu * mu);   /* s > 0 here */
    p[0] = a;
    for (int i = 1; i <= dim; i++) p[i] = a * mu * x[i] / s;
}

/* Polar K_mu° = {(n, t) : mu |t| <= -n}:
 *   x in K°           -> x;
 *   |t| <= mu n       -> 0            (x in K);
 *   otherwise         -> (|t| - mu n)/(1 + mu^2) (-mu, t/|t|). */
static void soc_project_polar(int dim, double mu, const double *x, double *p)
{
    double n = x[0], s = dim == 1 ? fabs(x[1]) : hypot(x[1], x[2]);
    if (mu * s <= -n) {
        for (int i = 0; i <= dim; i++) p[i] = x[i];
        return;
    }
    if (s <= mu * n) {
        for (int i = 0; i <= dim; i++) p[i] = 0.0;
        return;
    }
    double a = (s - mu * n) / (1.0 + mu * mu);   /* s > 0 here */
    p[0] = -mu * a;
    for (int i = 1; i <= dim; i++) p[i] = a * x[i] / s;
}

/* A closed convex cone of the plane: a ray cone{a}, a wedge cone{a, b}
 * with cross(a, b) > 0, or a half-plane {y : y.a <= 0}. */
typedef enum { CONE_RAY, CONE_WEDGE, CONE_HALFPLANE } cone2_kind;
typedef struct {
    cone2_kind kind;
    double a[2], b[2];
} cone2;

/* K for C = [lo, hi]: {(n, t) : n >= 0, lo n <= t <= hi n}. */
static cone2 interval_cone(const fl_friction_set *C)
{
    cone2 K;
    if (has_lo(C) && has_hi(C)) {
        K.kind = C->lo < C->hi ? CONE_WEDGE : CONE_RAY;
        K.a[0] = 1.0; K.a[1] = C->lo;                      /* generator (1, lo) */
        K.b[0] = 1.0; K.b[1] = C->hi;                      /* generator (1, hi) */
    } else if (has_lo(C)) {
        K.kind = CONE_WEDGE;
        K.a[0] = 1.0; K.a[1] = C->lo;
        K.b[0] = 0.0; K.b[1] = 1.0;                        /* hi = +inf */
    } else if (has_hi(C)) {
        K.kind = CONE_WEDGE;
        K.a[0] = 0.0; K.a[1] = -1.0;                       /* lo = -inf */
        K.b[0] = 1.0; K.b[1] = C->hi;
    } else {
        K.kind = CONE_HALFPLANE;                           /* {n >= 0} */
        K.a[0] = -1.0; K.a[1] = 0.0;
        K.b[0] = K.b[1] = 0.0;
    }
    return K;
}

/* The polar {y : y.x <= 0 for x in K}: ray <-> half-plane; the wedge
 * cone{a, b} has polar cone{rot+90(b), rot-90(a)} (outward edge normals). */
static cone2 cone2_polar(const cone2 *K)
{
    cone2 P;
    P.b[0] = P.b[1] = 0.0;
    switch (K->kind) {
    case CONE_RAY:
        P.kind = CONE_HALFPLANE;
        P.a[0] = K->a[0]; P.a[1] = K->a[1];
        break;
    case CONE_HALFPLANE:
        P.kind = CONE_RAY;
        P.a[0] = K->a[0]; P.a[1] = K->a[1];
        break;
    case CONE_WEDGE:
        P.kind = CONE_WEDGE;
        P.a[0] = -K->b[1]; P.a[1] = K->b[0];               /* rot+90(b) */
        P.b[0] = K->a[1]; P.b[1] = -K->a[0];               /* rot-90(a) */
        break;
    }
    return P;
}

/* Euclidean projection onto the half-line cone{a}. */
static void halfline_project(const double *a, const double *x, double *p)
{
    double t = fl_scalar_proj_interval(dot2(a, x) / dot2(a, a), 1, 0.0, 0, 0.0);
    p[0] = t * a[0];
    p[1] = t * a[1];
}

static void cone2_project(const cone2 *K, const double *x, double *p)
{
    double xx[2] = {x[0], x[1]};
    switch (K->kind) {
    case CONE_RAY:
        halfline_project(K->a, xx, p);
        return;
    case CONE_HALFPLANE: {   /* x - max(0, x.a/|a|^2) a */
        double t = fl_scalar_proj_interval(dot2(K->a, xx) / dot2(K->a, K->a), 1, 0.0, 0, 0.0);
        p[0] = xx[0] - t * K->a[0];
        p[1] = xx[1] - t * K->a[1];
        return;
    }
    case CONE_WEDGE: {
        if (cross2(K->a, xx) >= 0 && cross2(xx, K->b) >= 0) {
            p[0] = xx[0];
            p[1] = xx[1];
            return;
        }
        double pa[2], pb[2];
        halfline_project(K->a, xx, pa);
        halfline_project(K->b, xx, pb);
        const double *q = gdist2(NULL, pa, xx) <= gdist2(NULL, pb, xx) ? pa : pb;
        p[0] = q[0];
        p[1] = q[1];
        return;
    }
    }
}

/* ---- the cone over a polygon: a polyhedral cone of R^3 (proofs §5) ---- */

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Extreme rays of K = {(n, t) : n >= 0, t in n C} in cyclic order:
 * (0, d_0), (1, v_0), .., (1, v_{m-1}), (0, d_last) (the ray generators
 * only when there are rays; one ray appears once, next to both ends).
 * Consecutive generators span the 2D faces; with k >= 3 generators the
 * list is closed (last -> first is a face too) and K has interior. */
static fl_status poly_cone_generators(const fl_friction_set *C, double **g, size_t *k,
                                      fl_error *err)
{
    size_t m = C->nvert, j = 0;
    double *G = malloc(3 * (m + C->nray) * sizeof(double));
    if (!G) return FL_FAIL(err, FL_ENOMEM, "fl_friction_set_cone_project: out of memory");
    if (C->nray > 0) {
        G[0] = 0.0; G[1] = C->ray[0]; G[2] = C->ray[1];
        j = 1;
    }
    for (size_t i = 0; i < m; i++, j++) {
        G[3 * j] = 1.0; G[3 * j + 1] = C->vert[2 * i]; G[3 * j + 2] = C->vert[2 * i + 1];
    }
    if (C->nray == 2) {
        G[3 * j] = 0.0; G[3 * j + 1] = C->ray[2]; G[3 * j + 2] = C->ray[3];
        j++;
    }
    *g = G;
    *k = j;
    return FL_OK;
}

/* Outward normals of the faces cone{g_i, g_{i+1}} of a closed list (k >= 3),
 * in the same cyclic order: the extreme rays of the polar K°.  nrm has 3k
 * entries. */
static void gen_cone_normals(size_t k, const double *g, double *nrm)
{
    double c[3] = {0.0, 0.0, 0.0};   /* an interior point: sum of unit generators */
    for (size_t i = 0; i < k; i++) {
        double l = sqrt(dot3(g + 3 * i, g + 3 * i));
        for (int a = 0; a < 3; a++) c[a] += g[3 * i + a] / l;
    }
    for (size_t i = 0; i < k; i++) {
        double *n = nrm + 3 * i;
        cross3(g + 3 * i, g + 3 * ((i + 1) % k), n);
        if (dot3(n, c) > 0)
            for (int a = 0; a < 3; a++) n[a] = -n[a];
    }
}

/* Euclidean projection onto cone{g_0, .., g_{k-1}} given in cyclic order
 * (closed when k >= 3): x if inside, else the nearest candidate among 0,
 * the extreme rays and the 2D faces (orthogonal projection on the plane of
 * cone{g_i, g_{i+1}}, kept when it lies between g_i and g_{i+1}). */
static void gen_cone_project(size_t k, const double *g, const double *nrm, const double *x,
                             double *p)
{
    double xx[3] = {x[0], x[1], x[2]};
    int closed = k >= 3;
    if (closed) {
        int inside = 1;
        for (size_t i = 0; i < k && inside; i++)
            if (dot3(nrm + 3 * i, xx) > 0) inside = 0;
        if (inside) {
            p[0] = xx[0]; p[1] = xx[1]; p[2] = xx[2];
            return;
        }
    }
    double best = dot3(xx, xx), c[3];
    p[0] = p[1] = p[2] = 0.0;
    for (size_t i = 0; i < k; i++) {   /* rays: max(0, x.g/|g|^2) g */
        const double *a = g + 3 * i;
        double t = fl_scalar_proj_interval(dot3(a, xx) / dot3(a, a), 1, 0.0, 0, 0.0);
        for (int j = 0; j < 3; j++) c[j] = t * a[j] - xx[j];
        double d = dot3(c, c);
        if (d < best) {
            best = d;
            for (int j = 0; j < 3; j++) p[j] = t * a[j];
        }
    }
    size_t nf = closed ? k : (k >= 2 ? k - 1 : 0);
    for (size_t i = 0; i < nf; i++) {   /* faces */
        const double *a = g + 3 * i, *b = g + 3 * ((i + 1) % k);
        double n[3], y[3], u[3], w[3];
        cross3(a, b, n);                   /* plane of the face: y = x - (x.n) n/|n|^2 */
        double nn = dot3(n, n);
        if (!(nn > 0)) continue;
        double t = dot3(xx, n) / nn;
        for (int j = 0; j < 3; j++) y[j] = xx[j] - t * n[j];
        cross3(a, y, u);                   /* y between a and b: (a x y).n >= 0, (y x b).n >= 0 */
        cross3(y, b, w);
        if (dot3(u, n) < 0 || dot3(w, n) < 0) continue;
        for (int j = 0; j < 3; j++) c[j] = y[j] - xx[j];
        double d = dot3(c, c);
        if (d < best) {
            best = d;
            for (int j = 0; j < 3; j++) p[j] = y[j];
        }
    }
}

/* P_K (polar = 0) or P_K° (polar = 1) for a polygon.  K° is generated by
 * the outward face normals of K in cyclic order when K has interior;
 * otherwise (a point, a segment, a half-line: K is a ray or a planar
 * wedge and K° contains a line) P_K° x = x - P_K x (Moreau). */
static fl_status poly_cone(const fl_friction_set *C, const double *x, double *p, int polar,
                           fl_error *err)
{
    double *g = NULL;
    size_t k = 0;
    FL_TRY(poly_cone_generators(C, &g, &k, err));
    double *nrm = k >= 3 ? malloc(3 * k * sizeof(double)) : NULL;
    if (k >= 3 && !nrm) {
        free(g);
        return FL_FAIL(err, FL_ENOMEM, "fl_friction_set_cone_project: out of memory");
    }
    if (nrm) gen_cone_normals(k, g, nrm);
    if (!polar) {
        gen_cone_project(k, g, nrm, x, p);
    } else if (nrm) {
        double *pn = malloc(3 * k * sizeof(double));
        if (!pn) {
            free(g);
            free(nrm);
            return FL_FAIL(err, FL_ENOMEM, "fl_friction_set_cone_project_polar: out of memory");
        }
        gen_cone_normals(k, nrm, pn);   /* the polar's own face normals */
        gen_cone_project(k, nrm, pn, x, p);
        free(pn);
    } else {
        double q[3];
        gen_cone_project(k, g, NULL, x, q);
        for (int j = 0; j < 3; j++) p[j] = x[j] - q[j];
    }
    free(g);
    free(nrm);
    return FL_OK;
}

static fl_status cone_args(const fl_friction_set *C, const double *x, double *p,
                           const char *who, fl_error *err)
{
    FL_TRY(set_valid(C, who, err));
    if (!x || !p) return FL_FAIL(err, FL_EINVAL, "%s: NULL vector", who);
    if (!finite_dim(C->dim + 1, x)) return FL_FAIL(err, FL_ENONFINITE, "%s: x is not finite", who);
    return FL_OK;
}

fl_status fl_friction_set_cone_project(const fl_friction_set *C, const double *x, double *p, fl_error *err)
{
    FL_TRY(cone_args(C, x, p, "fl_friction_set_cone_project", err));
    if (C->kind == FL_SET_POLYGON) return poly_cone(C, x, p, 0, err);
    if (C->kind == FL_SET_DISC) {
        soc_project(C->dim, C->mu, x, p);
    } else {
        cone2 K = interval_cone(C);
        cone2_project(&K, x, p);
    }
    return FL_OK;
}

fl_status fl_friction_set_cone_project_polar(const fl_friction_set *C, const double *x, double *p,
                                fl_error *err)
{
    FL_TRY(cone_args(C, x, p, "fl_friction_set_cone_project_polar", err));
    if (C->kind == FL_SET_POLYGON) return poly_cone(C, x, p, 1, err);
    if (C->kind == FL_SET_DISC) {
        soc_project_polar(C->dim, C->mu, x, p);
    } else {
        cone2 K = interval_cone(C);
        cone2 P = cone2_polar(&K);
        cone2_project(&P, x, p);
    }
    return FL_OK;
}
