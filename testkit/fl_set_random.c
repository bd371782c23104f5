/* fl_set_random.c — random friction sets and Coulomb pairs; see
 * fl_set_random.h.  Constructions in proofs/friction_sets.md §6. */
#include "testkit/fl_set_random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "fl_rng.h"
#include "fl_scalar.h"


static double set_scale(gsl_rng *r)
{
    return fl_rng_loguniform(r, 1e-2, 10.0);
}

/* Strict convex hull of n points (Andrew's monotone chain), counter-
 * clockwise, collinear points dropped.  h has room for n + 1 points. */
static int cmp_pt(const void *a, const void *b)
{
    const double *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    if (p[1] != q[1]) return p[1] < q[1] ? -1 : 1;
    return 0;
}

static double turn(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static size_t hull(size_t n, double *pts, double *h)
{
    qsort(pts, n, 2 * sizeof(double), cmp_pt);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {   /* lower hull */
        while (k >= 2 && turn(h + 2 * (k - 2), h + 2 * (k - 1), pts + 2 * i) <= 0) k--;
        h[2 * k] = pts[2 * i];
        h[2 * k + 1] = pts[2 * i + 1];
        k++;
    }
    size_t lo = k + 1;
    for (size_t i = n - 1; i-- > 0;) {   /* upper hull */
        while (k >= lo && turn(h + 2 * (k - 2), h + 2 * (k - 1), pts + 2 * i) <= 0) k--;
        h[2 * k] = pts[2 * i];
        h[2 * k + 1] = pts[2 * i + 1];
        k++;
    }
    return k > 1 ? k - 1 : k;   /* the last point repeats the first */
}

/* Polygon with rays: a chain whose edge directions turn strictly left
 * between -d0 and d1 (the convention of fl_friction_set.h). */
static fl_status random_unbounded(gsl_rng *r, int nray, double s, fl_friction_set *C,
                                  fl_error *err)
{
    double a0 = 2 * FL_PI * gsl_rng_uniform(r);            /* angle of d0 */
    double tau = nray == 1 ? FL_PI : 0.15 + (FL_PI - 0.3) * gsl_rng_uniform(r);
    double d[4];
    double l0 = fl_rng_loguniform(r, 0.1, 10.0), l1 = fl_rng_loguniform(r, 0.1, 10.0);
    d[0] = l0 * cos(a0);
    d[1] = l0 * sin(a0);
    double a1 = a0 + FL_PI + tau;                           /* angle of d1 */
    d[2] = l1 * cos(a1);
    d[3] = l1 * sin(a1);
    size_t m = 1 + gsl_rng_uniform_int(r, 5);
    double u[4];
    for (;;) {   /* m-1 sorted fractions of the turn, well separated */
        for (size_t k = 0; k + 1 < m; k++) u[k] = 0.05 + 0.9 * gsl_rng_uniform(r);
        for (size_t k = 1; k + 1 < m; k++)   /* insertion sort */
            for (size_t j = k; j > 0 && u[j] < u[j - 1]; j--) {
                double t = u[j];
                u[j] = u[j - 1];
                u[j - 1] = t;
            }
        int ok = 1;
        for (size_t k = 1; k + 1 < m; k++)
            if (u[k] - u[k - 1] < 0.02) ok = 0;
        if (ok) break;
    }
    double v[10] = {0.0, 0.0};
    for (size_t k = 0; k + 1 < m; k++) {
        double phi = a0 + FL_PI + tau * u[k], len = s * (0.2 + gsl_rng_uniform(r));
        v[2 * k + 2] = v[2 * k] + len * cos(phi);
        v[2 * k + 3] = v[2 * k + 1] + len * sin(phi);
    }
    /* shift so that 0 = mean(v) + t (d0 + d1)/2 lies in C */
    double q[2] = {0.0, 0.0};
    for (size_t k = 0; k < m; k++) {
        q[0] += v[2 * k] / (double)m;
        q[1] += v[2 * k + 1] / (double)m;
    }
    double t = s * gsl_rng_uniform(r);
    double dd[2] = {cos(a0) + cos(a1), sin(a0) + sin(a1)};
    if (nray == 1) {
        dd[0] = cos(a0);
        dd[1] = sin(a0);
    }
    for (size_t k = 0; k < m; k++) {
        v[2 * k] -= q[0] + t * dd[0];
        v[2 * k + 1] -= q[1] + t * dd[1];
    }
    return fl_friction_set_polygon(C, m, v, (size_t)nray, d, err);
}

fl_status fl_set_random_variant(gsl_rng *r, int variant, fl_friction_set *C, fl_error *err)
{
    if (!r || !C || variant < 0 || variant >= FL_SETRAND_NVARIANTS) {
        if (C) memset(C, 0, sizeof *C);
        return FL_FAIL(err, FL_EINVAL, "fl_set_random_variant: unknown variant %d or NULL "
                       "argument", variant);
    }
    double s = set_scale(r);
    switch (variant) {
    case FL_SETRAND_DISC1:
        return fl_friction_set_disc(C, 1, s, err);
    case FL_SETRAND_DISC2:
        return fl_friction_set_disc(C, 2, s, err);
    case FL_SETRAND_INTERVAL:
        return fl_friction_set_interval(C, -s * gsl_rng_uniform(r), s * gsl_rng_uniform(r), err);
    case FL_SETRAND_INTERVAL_UPPER:
        return fl_friction_set_interval(C, -INFINITY, s * gsl_rng_uniform(r), err);
    case FL_SETRAND_INTERVAL_LOWER:
        return fl_friction_set_interval(C, -s * gsl_rng_uniform(r), INFINITY, err);
    case FL_SETRAND_LINE:
        return fl_friction_set_interval(C, -INFINITY, INFINITY, err);
    case FL_SETRAND_POLYGON:
        for (int attempt = 0; attempt < 100; attempt++) {
            double pts[16], h[18], c[2] = {0.0, 0.0};
            size_t n = 3 + gsl_rng_uniform_int(r, 6);
            for (size_t k = 0; k < n; k++) {
                pts[2 * k] = gsl_ran_gaussian(r, s);
                pts[2 * k + 1] = gsl_ran_gaussian(r, s);
                c[0] += pts[2 * k] / (double)n;
                c[1] += pts[2 * k + 1] / (double)n;
            }
            for (size_t k = 0; k < n; k++) {   /* centroid to 0: 0 in C */
                pts[2 * k] -= c[0];
                pts[2 * k + 1] -= c[1];
            }
            size_t m = hull(n, pts, h);
            if (m < 3) continue;
            if (fl_friction_set_polygon(C, m, h, 0, NULL, NULL) == FL_OK) return FL_OK;
        }
        return fl_friction_set_polygon(C, 0, NULL, 0, NULL, err);   /* unreachable in practice */
    case FL_SETRAND_SEGMENT: {
        double p[4] = {0.0, 0.0, 0.0, 0.0};
        if (gsl_rng_uniform(r) < 0.2) return fl_friction_set_polygon(C, 1, p, 0, NULL, err);   /* {0} */
        double a = 2 * FL_PI * gsl_rng_uniform(r), t = fl_rng_loguniform(r, 0.2, 5.0);
        p[0] = s * cos(a);
        p[1] = s * sin(a);
        p[2] = -t * p[0];
        p[3] = -t * p[1];
        return fl_friction_set_polygon(C, 2, p, 0, NULL, err);
    }
    case FL_SETRAND_POLYGON_RAY1:
    case FL_SETRAND_POLYGON_RAY2:
        for (int attempt = 0; attempt < 100; attempt++)
            if (random_unbounded(r, variant == FL_SETRAND_POLYGON_RAY1 ? 1 : 2, s, C, NULL) ==
                FL_OK)
                return FL_OK;
        return random_unbounded(r, variant == FL_SETRAND_POLYGON_RAY1 ? 1 : 2, s, C, err);
    }
    return FL_FAIL(err, FL_EINVAL, "fl_set_random_variant: unknown variant %d", variant);
}

fl_status fl_set_random(gsl_rng *r, fl_friction_set *C, fl_error *err)
{
    return fl_set_random_variant(r, (int)gsl_rng_uniform_int(r, FL_SETRAND_NVARIANTS), C, err);
}

/* A computed outer normal n of a polygon may lean by rounding into a
 * recession ray rho (n.rho > 0 is impossible in exact arithmetic): remove
 * that component so that n stays in the barrier cone. */
static void clean_normal(const fl_friction_set *C, double *n)
{
    if (C->kind != FL_SET_POLYGON) return;
    for (size_t k = 0; k < C->nray; k++) {
        const double *d = C->ray + 2 * k;
        double dd = d[0] * d[0] + d[1] * d[1], t = (n[0] * d[0] + n[1] * d[1]) / dd;
        if (t > 0) {
            n[0] -= t * d[0];
            n[1] -= t * d[1];
        }
    }
    double l = hypot(n[0], n[1]);
    n[0] /= l;
    n[1] /= l;
}

/* Size of C's description, at least 1e-3 (scales the draws). */
static double draw_size(const fl_friction_set *C)
{
    double s = 0.0;
    if (C->kind == FL_SET_DISC) s = C->mu;
    if (C->kind == FL_SET_INTERVAL) {
        if (!isinf(C->lo)) s = fabs(C->lo);
        if (!isinf(C->hi)) s = fmax(s, fabs(C->hi));
        if (isinf(C->lo) || isinf(C->hi)) s = fmax(s, 1.0);
    }
    if (C->kind == FL_SET_POLYGON) {
        for (size_t k = 0; k < C->nvert; k++)
            s = fmax(s, hypot(C->vert[2 * k], C->vert[2 * k + 1]));
        for (size_t k = 0; k < C->nray; k++)
            s = fmax(s, hypot(C->ray[2 * k], C->ray[2 * k + 1]));
    }
    return fmax(s, 1e-3);
}

void fl_set_random_point(gsl_rng *r, const fl_friction_set *C, double *x)
{
    switch (C->kind) {
    case FL_SET_DISC:
        if (C->dim == 1) {
            x[0] = C->mu * (2 * gsl_rng_uniform(r) - 1);
        } else {
            double rad = C->mu * sqrt(gsl_rng_uniform(r)), a = 2 * FL_PI * gsl_rng_uniform(r);
            x[0] = rad * cos(a);
            x[1] = rad * sin(a);
        }
        return;
    case FL_SET_INTERVAL: {
        double s = draw_size(C);
        if (!isinf(C->lo) && !isinf(C->hi))
            x[0] = C->lo + (C->hi - C->lo) * gsl_rng_uniform(r);
        else if (!isinf(C->lo))
            x[0] = C->lo + gsl_ran_exponential(r, s);
        else if (!isinf(C->hi))
            x[0] = C->hi - gsl_ran_exponential(r, s);
        else
            x[0] = gsl_ran_gaussian(r, s);
        return;
    }
    case FL_SET_POLYGON: {
        double w[64], sum = 0.0;
        size_t m = C->nvert < 64 ? C->nvert : 64;
        for (size_t k = 0; k < m; k++) sum += (w[k] = gsl_ran_exponential(r, 1.0));
        x[0] = x[1] = 0.0;
        for (size_t k = 0; k < m; k++) {
            x[0] += w[k] / sum * C->vert[2 * k];
            x[1] += w[k] / sum * C->vert[2 * k + 1];
        }
        double s = draw_size(C);
        for (size_t k = 0; k < C->nray; k++) {
            double l = hypot(C->ray[2 * k], C->ray[2 * k + 1]);
            double t = gsl_ran_exponential(r, s) / l;
            x[0] += t * C->ray[2 * k];
            x[1] += t * C->ray[2 * k + 1];
        }
        return;
    }
    }
}

void fl_set_random_near(gsl_rng *r, const fl_friction_set *C, double *x)
{
    double s = draw_size(C);
    fl_set_random_point(r, C, x);
    for (int i = 0; i < C->dim; i++) x[i] += gsl_ran_gaussian(r, 1.5 * s);
}

void fl_set_random_metric(gsl_rng *r, int dim, double cond_max, double *G)
{
    double sc = fl_rng_loguniform(r, 0.1, 10.0);
    if (dim == 1) {
        G[0] = sc;
        return;
    }
    double cond = fl_rng_loguniform(r, 1.0, cond_max < 1 ? 1.0 : cond_max);
    double a = 2 * FL_PI * gsl_rng_uniform(r), c = cos(a), s = sin(a);
    /* G = Q diag(sc, sc cond) Q^T */
    double l0 = sc, l1 = sc * cond;
    G[0] = l0 * c * c + l1 * s * s;
    G[1] = G[2] = (l0 - l1) * c * s;
    G[3] = l0 * s * s + l1 * c * c;
}

int fl_set_random_coulomb(gsl_rng *r, const fl_friction_set *C, double *rn, double *rt,
                          double *v, double *nhat)
{
    int dim = C->dim;
    double x[2] = {0.0, 0.0}, p[2] = {0.0, 0.0};
    if (gsl_rng_uniform(r) < 0.1) {   /* rn = 0: r = 0, v anything */
        *rn = 0.0;
        double a = 2 * FL_PI * gsl_rng_uniform(r);
        nhat[0] = dim == 1 ? (a < FL_PI ? 1.0 : -1.0) : cos(a);
        if (dim == 2) nhat[1] = sin(a);
        for (int i = 0; i < dim; i++) {
            rt[i] = 0.0;
            v[i] = gsl_ran_gaussian(r, 1.0);
        }
        return 1;
    }
    *rn = fl_rng_loguniform(r, 1e-2, 1e2);
    int found = 0;
    for (int attempt = 0; attempt < 50 && !found; attempt++) {
        fl_set_random_near(r, C, x);
        fl_friction_set_project(C, x, p, NULL);
        double d = dim == 1 ? fabs(x[0] - p[0]) : hypot(x[0] - p[0], x[1] - p[1]);
        if (d > 1e-6 * draw_size(C)) {
            for (int i = 0; i < dim; i++) nhat[i] = (x[i] - p[i]) / d;
            clean_normal(C, nhat);
            found = 1;
        }
    }
    if (!found) {   /* C = R: no boundary; v = 0, r any point of rn C */
        fl_set_random_point(r, C, p);
        for (int i = 0; i < dim; i++) {
            rt[i] = *rn * p[i];
            v[i] = 0.0;
            nhat[i] = 0.0;
        }
        return 0;
    }
    double lam = gsl_rng_uniform(r) < 0.3 ? 0.0 : fl_rng_loguniform(r, 1e-2, 1e2);
    if (lam == 0.0 && gsl_rng_uniform(r) < 0.5) {
        /* sticking at an inner point: any point of C, v = 0, no normal */
        fl_set_random_point(r, C, p);
        for (int i = 0; i < dim; i++) nhat[i] = 0.0;
    }
    for (int i = 0; i < dim; i++) {
        rt[i] = *rn * p[i];
        v[i] = -lam * nhat[i];
    }
    return 1;
}

int fl_set_random_violation(gsl_rng *r, const fl_friction_set *C, double *rn, double *rt,
                            double *v)
{
    int dim = C->dim;
    double nhat[2] = {0.0, 0.0};
    int found = fl_set_random_coulomb(r, C, rn, rt, v, nhat);
    if (!found) {   /* C = R: any v != 0 has S_C(-v) = +inf */
        for (int i = 0; i < dim; i++) v[i] = gsl_ran_gaussian(r, 1.0) + 0.5;
        return 4;
    }
    if (*rn == 0.0) {   /* r must be 0 */
        double delta = 0.1 * fl_rng_loguniform(r, 1e-2, 1e2);
        for (int i = 0; i < dim; i++) rt[i] = delta * nhat[i];
        return 3;
    }
    double vn = dim == 1 ? fabs(v[0]) : hypot(v[0], v[1]);
    double delta = 0.1 * *rn * draw_size(C) * (0.5 + 0.5 * gsl_rng_uniform(r));
    /* the outward move needs r / rn on the boundary with normal nhat; an
     * inner sticking draw (nhat = 0, v = 0) gets a fresh boundary point. */
    if (vn > 0 && gsl_rng_uniform(r) < 0.5) {
        for (int i = 0; i < dim; i++) rt[i] -= delta * nhat[i];   /* deficit delta |v| */
        return 2;
    }
    if (nhat[0] == 0.0 && (dim == 1 || nhat[1] == 0.0)) {
        /* inner sticking point: rebuild r on the boundary with its normal */
        double x[2], p[2];
        for (int attempt = 0; attempt < 50; attempt++) {
            fl_set_random_near(r, C, x);
            fl_friction_set_project(C, x, p, NULL);
            double d = dim == 1 ? fabs(x[0] - p[0]) : hypot(x[0] - p[0], x[1] - p[1]);
            if (d > 1e-6 * draw_size(C)) {
                for (int i = 0; i < dim; i++) {
                    nhat[i] = (x[i] - p[i]) / d;
                    rt[i] = *rn * p[i];
                }
                clean_normal(C, nhat);
                break;
            }
        }
    }
    for (int i = 0; i < dim; i++) rt[i] += delta * nhat[i];   /* r leaves rn C by delta */
    return 1;
}

double fl_set_random_scale(const fl_friction_set *C)
{
    double s = 1.0;
    if (C->kind == FL_SET_DISC) s += C->mu;
    if (C->kind == FL_SET_INTERVAL) {
        if (!isinf(C->lo)) s += fabs(C->lo);
        if (!isinf(C->hi)) s += fabs(C->hi);
    }
    if (C->kind == FL_SET_POLYGON)
        for (size_t k = 0; k < C->nvert; k++) s += hypot(C->vert[2 * k], C->vert[2 * k + 1]);
    return s;
}
