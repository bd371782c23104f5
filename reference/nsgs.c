/* nsgs.c — reference nonlinear Gauss–Seidel for the Contact Dynamics core
 * problem on a dense Delassus operator (003 §3; 003 §3–5).
 * See nsgs.h for the conventions. */
#include "nsgs.h"
#include "fl_clock.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"

fl_nsgs_options fl_nsgs_options_default(void)
{
    fl_nsgs_options o;
    memset(&o, 0, sizeof o);
    o.max_sweeps = 1000;
    o.tol = 1e-10;
    o.omega = 1.0;
    o.order = FL_NSGS_ORDER_NATURAL;
    o.start = FL_NSGS_START_ZERO;
    o.random_scale = 1.0;
    o.norm = FL_RESIDUAL_NORM_Q;
    o.check_every = 10;
    return o;
}

/* ---- the single-contact problem (003 §3–5, local solver) ---- */

typedef struct cand_list {
    int n;
    double r[8][3];
} cand_list;

static void cand_add(cand_list *c, int dim, const double *r)
{
    if (c->n >= 8) return;
    for (int k = 0; k < dim; k++) c->r[c->n][k] = r[k];
    c->n++;
}

/* r in K_mu up to a relative slack (rounding on case boundaries). */
static int in_cone(int dim, double mu, const double *r)
{
    double nt = dim == 2 ? fabs(r[1]) : hypot(r[1], r[2]);
    double slack = 1e-12 * (fabs(r[0]) + nt);
    return r[0] >= -slack && nt <= mu * r[0] + slack;
}

/* Solve the dim x dim system A x = y by Gaussian elimination with partial
 * pivoting; returns 0 if singular (pivot below 1e-14 of the largest entry). */
static int small_solve(int dim, const double *A, const double *y, double *x)
{
    double a[3][4];
    double big = 0;
    for (int i = 0; i < dim; i++) {
        for (int j = 0; j < dim; j++) {
            a[i][j] = A[i * dim + j];
            big = fmax(big, fabs(a[i][j]));
        }
        a[i][dim] = y[i];
    }
    if (!(big > 0)) return 0;
    for (int k = 0; k < dim; k++) {
        int p = k;
        for (int i = k + 1; i < dim; i++)
            if (fabs(a[i][k]) > fabs(a[p][k])) p = i;
        if (fabs(a[p][k]) <= 1e-14 * big) return 0;
        if (p != k)
            for (int j = 0; j <= dim; j++) {
                double t = a[k][j];
                a[k][j] = a[p][j];
                a[p][j] = t;
            }
        for (int i = k + 1; i < dim; i++) {
            double f = a[i][k] / a[k][k];
            for (int j = k; j <= dim; j++) a[i][j] -= f * a[k][j];
        }
    }
    for (int i = dim - 1; i >= 0; i--) {
        double s = a[i][dim];
        for (int j = i + 1; j < dim; j++) s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return 1;
}

/* dim 3 sliding: with d = (cos t, sin t), r_T = -mu r_N d, U_N = 0 gives
 * r_N = -b_N / den(t), den = W_NN - mu W_NT.d, and
 * den U_T = den b_T - b_N (W_TN - mu W_TT d).  Sliding needs U_T parallel to
 * d with U_T.d >= 0: the roots of G(t) = (den U_T) x d, a trigonometric
 * polynomial of degree 2 (proofs/contact_dynamics.md). */
static double slide3_G(const double *W, const double *b, double mu, double t, double *den_out,
                       double *dUT)
{
    double d0 = cos(t), d1 = sin(t);
    double den = W[0] - mu * (W[1] * d0 + W[2] * d1);
    dUT[0] = den * b[1] - b[0] * (W[3] - mu * (W[4] * d0 + W[5] * d1));
    dUT[1] = den * b[2] - b[0] * (W[6] - mu * (W[7] * d0 + W[8] * d1));
    *den_out = den;
    return dUT[0] * d1 - dUT[1] * d0;
}

static void slide3_try(const double *W, const double *b, double mu, double t, cand_list *c)
{
    double den, dUT[2];
    slide3_G(W, b, mu, t, &den, dUT);
    if (den == 0.0) return;
    double rn = -b[0] / den;
    double d0 = cos(t), d1 = sin(t);
    double ut_d = (dUT[0] * d0 + dUT[1] * d1) / den;
    if (rn < 0 || ut_d < -1e-12 * (fabs(dUT[0]) + fabs(dUT[1])) / fabs(den)) return;
    double r[3] = {rn, -mu * rn * d0, -mu * rn * d1};
    cand_add(c, 3, r);
}

static void slide3(const double *W, const double *b, double mu, cand_list *c)
{
    enum { NS = 360 };
    const double two_pi = 6.283185307179586;
    double den, dUT[2];
    double t0 = 0.0, g0 = slide3_G(W, b, mu, t0, &den, dUT);
    for (int i = 1; i <= NS; i++) {
        double t1 = two_pi * i / NS, g1 = slide3_G(W, b, mu, t1, &den, dUT);
        if (g0 == 0.0) {
            slide3_try(W, b, mu, t0, c);
        } else if ((g0 < 0) != (g1 < 0) && g1 != 0.0) {
            double lo = t0, hi = t1, glo = g0;
            for (int it = 0; it < 80; it++) {
                double mid = 0.5 * (lo + hi), gm = slide3_G(W, b, mu, mid, &den, dUT);
                if ((gm < 0) == (glo < 0)) {
                    lo = mid;
                    glo = gm;
                } else {
                    hi = mid;
                }
            }
            slide3_try(W, b, mu, 0.5 * (lo + hi), c);
        }
        t0 = t1;
        g0 = g1;
    }
}

/* Projected fixed point on the natural map (fallback, dim 3):
 * r <- P_K(r - rho (Waa r + b + mu |U_T| e_N)), rho = 1 / trace(Waa). */
static void local_fallback(int dim, double mu, const double *W, const double *b, double *r)
{
    double tr = 0;
    for (int k = 0; k < dim; k++) tr += W[k * dim + k];
    double rho = tr > 0 ? 1.0 / tr : 1.0;
    for (int it = 0; it < 2000; it++) {
        double U[3], y[3];
        for (int i = 0; i < dim; i++) {
            U[i] = b[i];
            for (int j = 0; j < dim; j++) U[i] += W[i * dim + j] * r[j];
        }
        double ut = dim == 2 ? fabs(U[1]) : hypot(U[1], U[2]);
        y[0] = r[0] - rho * (U[0] + mu * ut);
        for (int k = 1; k < dim; k++) y[k] = r[k] - rho * U[k];
        fl_coulomb_cone_project(dim, mu, y, r);
    }
}

/* dim 2: the same cases and choice as the general path below, written out
 * for the 2 x 2 block (the Gauss–Seidel sweep spends most of its time here).
 * W = [a c; c2 d] row-major. */
static int local2(double mu, const double *W, const double *b, double *r)
{
    const double a = W[0], c = W[1], c2 = W[2], d = W[3];
    double bx = 0, by = 0, bestd = INFINITY;
    int n = 0;
#define FL_LOCAL2_TAKE(x0, x1)                                                        \
    do {                                                                              \
        double e0 = (x0) - r[0], e1 = (x1) - r[1], dd = e0 * e0 + e1 * e1;            \
        n++;                                                                          \
        if (dd < bestd) { bestd = dd; bx = (x0); by = (x1); }                         \
    } while (0)
    if (b[0] >= 0) FL_LOCAL2_TAKE(0.0, 0.0);                          /* open */
    {                                                                  /* stick */
        double big = fmax(fmax(fabs(a), fabs(c)), fmax(fabs(c2), fabs(d)));
        double det = a * d - c * c2;
        if (big > 0 && fabs(det) > 1e-14 * big * big) {
            double x0 = (-b[0] * d + c * b[1]) / det, x1 = (-a * b[1] + c2 * b[0]) / det;
            double nt = fabs(x1), slack = 1e-12 * (fabs(x0) + nt);
            if (x0 >= -slack && nt <= mu * x0 + slack) FL_LOCAL2_TAKE(x0, x1);
        }
    }
    for (int s = 1; s >= -1; s -= 2) {                                /* slide */
        double den = a - s * mu * c;
        if (den == 0.0) continue;
        double rn = -b[0] / den;
        if (rn < 0) continue;
        double rt = -s * mu * rn;
        double ut = c2 * rn + d * rt + b[1];
        if (s * ut < -1e-12 * (fabs(b[1]) + fabs(c2 * rn) + fabs(d * rt))) continue;
        FL_LOCAL2_TAKE(rn, rt);
    }
#undef FL_LOCAL2_TAKE
    if (n == 0) {
        local_fallback(2, mu, W, b, r);
        return 0;
    }
    double x[2] = {bx, by};
    fl_coulomb_cone_project(2, mu, x, r);
    return n;
}

/* 003 §3 (single-contact problem of the Gauss–Seidel review); cases of
 * 003 §3–5 steps 2-4, extended to dim 3. */
int fl_nsgs_local_solve(int dim, double mu, const double *Waa, const double *b, double *r)
{
    if (dim == 2) return local2(mu, Waa, b, r);
    cand_list c;
    c.n = 0;
    /* open: r = 0 is admissible iff U_N = b_N >= 0 */
    if (b[0] >= 0) {
        double z[3] = {0, 0, 0};
        cand_add(&c, dim, z);
    }
    /* stick: U = 0, i.e. Waa r = -b, r in K */
    {
        double y[3], x[3];
        for (int k = 0; k < dim; k++) y[k] = -b[k];
        if (small_solve(dim, Waa, y, x) && in_cone(dim, mu, x)) cand_add(&c, dim, x);
    }
    /* slide (dim 3) */
    if (b[0] < 0 || mu > 0) slide3(Waa, b, mu, &c);
    if (c.n == 0) {
        local_fallback(dim, mu, Waa, b, r);
        return 0;
    }
    int best = 0;
    double bestd = INFINITY;
    for (int i = 0; i < c.n; i++) {
        double d = 0;
        for (int k = 0; k < dim; k++) d += (c.r[i][k] - r[k]) * (c.r[i][k] - r[k]);
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    fl_coulomb_cone_project(dim, mu, c.r[best], r);   /* removes rounding outside K */
    return c.n;
}

void fl_nsgs_relax(int dim, double mu, double omega, const double *rloc, double *ra)
{
    if (omega == 1.0) {
        for (int k = 0; k < dim; k++) ra[k] = rloc[k];
        return;
    }
    double y[3];
    for (int k = 0; k < dim; k++) y[k] = (1.0 - omega) * ra[k] + omega * rloc[k];
    fl_coulomb_cone_project(dim, mu, y, ra);
}

fl_status fl_nsgs_prepare(const fl_local_problem *p, const fl_nsgs_options *opt,
                          gsl_vector *r, size_t *perm, fl_error *err)
{
    if (!opt) return FL_FAIL(err, FL_EINVAL, "nsgs: NULL options");
    if (!r || r->size != p->m || r->stride != 1)
        return FL_FAIL(err, FL_EDIM, "nsgs: r must be a contiguous vector of length %zu", p->m);
    if (!(opt->tol > 0) || !isfinite(opt->tol))
        return FL_FAIL(err, FL_EINVAL, "nsgs: tol = %g must be positive", opt->tol);
    if (!(opt->omega > 0 && opt->omega < 2))
        return FL_FAIL(err, FL_EINVAL, "nsgs: relaxation omega = %g not in (0, 2)", opt->omega);
    if (opt->max_sweeps < 1)
        return FL_FAIL(err, FL_EINVAL, "nsgs: max_sweeps = %d must be >= 1", opt->max_sweeps);
    if (opt->check_every < 1)
        return FL_FAIL(err, FL_EINVAL, "nsgs: check_every = %d must be >= 1", opt->check_every);
    if (opt->threads < -1)
        return FL_FAIL(err, FL_EINVAL, "nsgs: threads = %d must be >= -1", opt->threads);
    if ((opt->order == FL_NSGS_ORDER_RANDOM || opt->start == FL_NSGS_START_RANDOM) && !opt->rng)
        return FL_FAIL(err, FL_EINVAL, "nsgs: random ordering or start needs opt->rng");
    for (size_t a = 0; a < p->nc; a++) perm[a] = a;
    switch (opt->order) {
    case FL_NSGS_ORDER_NATURAL:
        break;
    case FL_NSGS_ORDER_RANDOM:
        gsl_ran_shuffle(opt->rng, perm, p->nc, sizeof *perm);
        break;
    case FL_NSGS_ORDER_GIVEN: {
        if (!opt->ordering) return FL_FAIL(err, FL_EINVAL, "nsgs: given ordering missing");
        unsigned char *seen = calloc(p->nc, 1);
        if (!seen) return FL_FAIL(err, FL_ENOMEM, "nsgs: out of memory");
        for (size_t a = 0; a < p->nc; a++) {
            size_t k = opt->ordering[a];
            if (k >= p->nc || seen[k]) {
                free(seen);
                return FL_FAIL(err, FL_EINVAL,
                               "nsgs: given ordering is not a permutation of 0..%zu", p->nc - 1);
            }
            seen[k] = 1;
            perm[a] = k;
        }
        free(seen);
        break;
    }
    default:
        return FL_FAIL(err, FL_EINVAL, "nsgs: unknown ordering %d", (int)opt->order);
    }
    switch (opt->start) {
    case FL_NSGS_START_ZERO:
        gsl_vector_set_zero(r);
        break;
    case FL_NSGS_START_WARM:
        FL_TRY(fl_check_finite_vector(r, "warm start r", err));
        for (size_t a = 0; a < p->nc; a++)   /* a warm start outside K is projected */
            fl_coulomb_cone_project(p->dim, p->mu[a], r->data + p->dim * a, r->data + p->dim * a);
        break;
    case FL_NSGS_START_RANDOM:
        if (!(opt->random_scale > 0) || !isfinite(opt->random_scale))
            return FL_FAIL(err, FL_EINVAL, "nsgs: random_scale = %g must be positive",
                           opt->random_scale);
        for (size_t a = 0; a < p->nc; a++) {
            double *ra = r->data + p->dim * a;
            ra[0] = opt->random_scale * gsl_rng_uniform(opt->rng);
            if (p->dim == 2) {
                ra[1] = p->mu[a] * ra[0] * (2.0 * gsl_rng_uniform(opt->rng) - 1.0);
            } else {
                double rad = p->mu[a] * ra[0] * sqrt(gsl_rng_uniform(opt->rng));
                double th = 6.283185307179586 * gsl_rng_uniform(opt->rng);
                ra[1] = rad * cos(th);
                ra[2] = rad * sin(th);
            }
        }
        break;
    default:
        return FL_FAIL(err, FL_EINVAL, "nsgs: unknown start %d", (int)opt->start);
    }
    return FL_OK;
}

/* 003 §3: nonlinear Gauss–Seidel, cyclic review of the contacts, each
 * solved with the others' impulses frozen; stop on the natural-map error. */
fl_status fl_nsgs_solve(const fl_local_problem *p, const fl_nsgs_options *opt,
                        gsl_vector *r, gsl_vector *U, fl_nsgs_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_nsgs_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->status = fl_local_problem_check(p, err);
    if (res->status < 0) return res->status;
    if (!p->W) return res->status = FL_FAIL(err, FL_EINVAL, "nsgs: reference needs a dense W");
    if (p->m == 0) {   /* no contact: a valid problem, r is empty (fl_problem.h) */
        res->status = FL_OK;
        return FL_OK;
    }
    if (U && (U->size != p->m || U->stride != 1))
        return res->status = FL_FAIL(err, FL_EDIM, "nsgs: U must have length %zu", p->m);
    size_t *perm = malloc(p->nc * sizeof *perm);
    gsl_vector *Ut = fl_dense_vector_alloc(p->m);
    if (!perm || !Ut) {
        free(perm);
        if (Ut) gsl_vector_free(Ut);
        return res->status = FL_FAIL(err, FL_ENOMEM, "nsgs: out of memory");
    }
    fl_status s = fl_nsgs_prepare(p, opt, r, perm, err);
    const int dim = p->dim;
    const size_t m = p->m;
    double e = INFINITY;
    int sweep = 0;
    while (s == FL_OK && sweep < opt->max_sweeps) {
        double ts = fl_clock_now();
        for (size_t k = 0; k < p->nc; k++) {
            size_t a = perm[k];
            double Waa[9], b[3], rl[3];
            double *ra = r->data + dim * a;
            for (int i = 0; i < dim; i++) {
                size_t row = dim * a + i;
                /* b = q_a + sum_{beta != a} W_{a beta} r_beta */
                double acc = gsl_vector_get(p->q, row);
                for (size_t j = 0; j < m; j++) acc += gsl_matrix_get(p->W, row, j) * r->data[j];
                for (int l = 0; l < dim; l++) {
                    Waa[i * dim + l] = gsl_matrix_get(p->W, row, dim * a + l);
                    acc -= Waa[i * dim + l] * ra[l];
                }
                b[i] = acc;
            }
            for (int l = 0; l < dim; l++) rl[l] = ra[l];
            if (fl_nsgs_local_solve(dim, p->mu[a], Waa, b, rl) == 0) res->local_fallbacks++;
            fl_nsgs_relax(dim, p->mu[a], opt->omega, rl, ra);
        }
        res->sweep_seconds += fl_clock_now() - ts;
        sweep++;
        s = fl_residual_local(p, r, Ut, opt->norm, &e, err);
        if (s != FL_OK) break;
        if (!isfinite(e)) {
            s = FL_FAIL(err, FL_ENOCONV, "nsgs: iterates became non-finite at sweep %d", sweep);
            break;
        }
        int stop = e <= opt->tol;
        if (opt->callback && opt->callback(opt->callback_data, sweep, e, r)) stop = 1;
        if (stop) break;
    }
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    if (U && s >= 0) gsl_vector_memcpy(U, Ut);
    res->iterations = sweep;
    res->residual = e;
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    free(perm);
    gsl_vector_free(Ut);
    return s;
}

/* 003 §3: W = H M^-1 H^T, q = H M^-1 f + w. */
fl_status fl_delassus_dense(const fl_global_problem *g, fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "delassus: NULL output");
    *out = NULL;
    if (!g || !g->M || !g->H || !g->f || !g->w || (!g->mu && g->nc))
        return FL_FAIL(err, FL_EINVAL, "delassus: dense M, H, f, w and mu are required");
    if (g->M->size1 != g->n || g->M->size2 != g->n || g->H->size1 != g->m ||
        g->H->size2 != g->n || g->f->size != g->n || g->w->size != g->m)
        return FL_FAIL(err, FL_EDIM, "delassus: M %zux%zu, H %zux%zu, f %zu, w %zu do not "
                       "match n = %zu, m = %zu", g->M->size1, g->M->size2, g->H->size1,
                       g->H->size2, g->f->size, g->w->size, g->n, g->m);
    if (g->m == 0) return fl_local_problem_alloc(0, g->dim, 1, out, err);   /* no contact */
    FL_TRY(fl_check_finite_matrix(g->H, "H", err));
    FL_TRY(fl_check_finite_vector(g->f, "f", err));
    FL_TRY(fl_check_finite_vector(g->w, "w", err));
    fl_spd *spd = NULL;
    FL_TRY(fl_spd_alloc(g->M, &spd, err));
    fl_local_problem *p = NULL;
    fl_status s = fl_local_problem_alloc(g->nc, g->dim, 1, &p, err);
    gsl_matrix *X = fl_dense_matrix_alloc(g->n, g->m);    /* X = M^-1 H^T */
    gsl_vector *y = fl_dense_vector_alloc(g->n);
    if (s == FL_OK && (!X || !y)) s = FL_FAIL(err, FL_ENOMEM, "delassus: out of memory");
    if (s == FL_OK) {
        gsl_matrix_transpose_memcpy(X, g->H);
        s = fl_spd_solve_matrix(spd, X, X);
        if (s == FL_OK) s = fl_spd_solve(spd, g->f, y);
    }
    if (s == FL_OK) {
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, g->H, X, 0.0, p->W);
        /* symmetrise the rounding */
        for (size_t i = 0; i < g->m; i++)
            for (size_t j = 0; j < i; j++) {
                double v = 0.5 * (gsl_matrix_get(p->W, i, j) + gsl_matrix_get(p->W, j, i));
                gsl_matrix_set(p->W, i, j, v);
                gsl_matrix_set(p->W, j, i, v);
            }
        gsl_vector_memcpy(p->q, g->w);
        gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, y, 1.0, p->q);
        memcpy(p->mu, g->mu, g->nc * sizeof *p->mu);
        for (size_t a = 0; a < g->nc; a++)
            if (!(p->mu[a] >= 0) || !isfinite(p->mu[a]))
                s = FL_FAIL(err, FL_EINVAL, "delassus: mu[%zu] = %g must be finite and >= 0",
                            a, p->mu[a]);
    }
    if (X) gsl_matrix_free(X);
    if (y) gsl_vector_free(y);
    fl_spd_free(spd);
    if (s != FL_OK) {
        fl_local_problem_free(p);
        return s;
    }
    *out = p;
    return FL_OK;
}
