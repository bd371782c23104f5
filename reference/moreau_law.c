/* moreau_law.c — Moreau's discrete contact law S(q,v) (000 §2), dense
 * reference, and the time-stepping scheme of 000 §2.
 *
 * Notation (000 §1–2): W = M^-1, n = dphi/|dphi| (library gap
 * convention, see moreau_law.h), T(q) = n^perp, R(q) = R+(n + D_1(q)),
 * c0 = -<v, n>.  Derivations of every formula not printed in 000 are in
 * proofs/moreau_law.md (sections cited as [PM §k]).
 */
#include "moreau_law.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>

#include "fl_dense.h"
#include "fl_scalar.h"
#include "fl_clock.h"

fl_moreau_options fl_moreau_options_default(void)
{
    fl_moreau_options o;
    o.tol = 1e-15;
    o.max_iter = 200;
    return o;
}

/* ------------------------------------------------------------------ */
/* Validation                                                           */
/* ------------------------------------------------------------------ */

/* (H3): D_1 closed, bounded, convex, 0 in D_1.  Checked on the set's fields
 * so the law does not depend on the set kernels. */
static fl_status check_set(const fl_friction_set *C, fl_error *err)
{
    if (!C) return FL_FAIL(err, FL_EINVAL, "friction set is NULL");
    switch (C->kind) {
    case FL_SET_DISC:
        if (C->dim != 1 && C->dim != 2)
            return FL_FAIL(err, FL_EINVAL, "disc friction set of dimension %d (1 or 2)", C->dim);
        if (!isfinite(C->mu) || C->mu < 0)
            return FL_FAIL(err, FL_EINVAL, "disc radius mu = %g must be finite and >= 0", C->mu);
        return FL_OK;
    case FL_SET_INTERVAL:
        if (C->dim != 1) return FL_FAIL(err, FL_EINVAL, "interval friction set must have dim 1");
        if (!isfinite(C->lo) || !isfinite(C->hi))
            return FL_FAIL(err, FL_EINVAL, "unbounded friction interval [%g, %g]: 000 (H3) "
                           "requires D_1 bounded", C->lo, C->hi);
        if (!(C->lo <= 0 && 0 <= C->hi))
            return FL_FAIL(err, FL_EINVAL, "friction interval [%g, %g] does not contain 0 "
                           "(000 (H3))", C->lo, C->hi);
        return FL_OK;
    case FL_SET_POLYGON:
        if (C->dim != 2) return FL_FAIL(err, FL_EINVAL, "polygon friction set must have dim 2");
        if (C->nray > 0)
            return FL_FAIL(err, FL_EINVAL, "polygon with recession rays is unbounded: 000 (H3) "
                           "requires D_1 bounded");
        if (C->nvert < 3 || !C->vert)
            return FL_FAIL(err, FL_EUNSUPPORTED, "polygon friction set with %zu < 3 vertices",
                           C->nvert);
        for (size_t i = 0; i < C->nvert; i++) {
            const double *a = C->vert + 2 * i, *b = C->vert + 2 * ((i + 1) % C->nvert);
            if (!isfinite(a[0]) || !isfinite(a[1]))
                return FL_FAIL(err, FL_ENONFINITE, "polygon vertex %zu is not finite", i);
            /* 0 on the left of (or on) every counter-clockwise edge a -> b */
            double cross = (b[0] - a[0]) * (0 - a[1]) - (b[1] - a[1]) * (0 - a[0]);
            double scale = fabs(a[0]) + fabs(a[1]) + fabs(b[0]) + fabs(b[1]);
            if (cross < -1e-14 * scale * scale)
                return FL_FAIL(err, FL_EINVAL, "polygon friction set does not contain 0 "
                               "(edge %zu; 000 (H3))", i);
        }
        return FL_OK;
    default:
        return FL_FAIL(err, FL_EINVAL, "unknown friction set kind %d", (int)C->kind);
    }
}

fl_status fl_moreau_check(const fl_moreau_problem *p, int need_dense, fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "problem is NULL");
    if (p->d < 1) return FL_FAIL(err, FL_EINVAL, "dimension d = 0");
    if (!p->v || !p->dgap) return FL_FAIL(err, FL_EINVAL, "v or dgap is NULL");
    if (p->v->size != p->d || p->dgap->size != p->d)
        return FL_FAIL(err, FL_EDIM, "v (%zu) and dgap (%zu) must have length d = %zu",
                       p->v->size, p->dgap->size, p->d);
    FL_TRY(fl_check_finite_vector(p->v, "v", err));
    FL_TRY(fl_check_finite_vector(p->dgap, "dgap", err));
    if (!isfinite(p->gap)) return FL_FAIL(err, FL_ENONFINITE, "gap is not finite");
    if (gsl_blas_dnrm2(p->dgap) == 0)
        return FL_FAIL(err, FL_EINVAL, "the gradient of the gap vanishes (000 (H2))");
    if (need_dense) {
        if (!p->M) return FL_FAIL(err, FL_EINVAL, "dense mass matrix M is NULL");
        if (p->M->size1 != p->d || p->M->size2 != p->d)
            return FL_FAIL(err, FL_EDIM, "M is %zux%zu, expected %zux%zu", p->M->size1,
                           p->M->size2, p->d, p->d);
        FL_TRY(fl_check_finite_matrix(p->M, "M", err));
    } else {
        if (!p->Msp || !p->ctx) return FL_FAIL(err, FL_EINVAL, "sparse M or its context is NULL");
        if (p->Msp->nrow != p->d || p->Msp->ncol != p->d || p->Msp->stype == 0)
            return FL_FAIL(err, FL_EDIM, "sparse M must be symmetric %zux%zu", p->d, p->d);
        FL_TRY(fl_sparse_check_finite(p->Msp, "M", err));
    }
    switch (p->friction) {
    case FL_MOREAU_FRICTIONLESS:
        break;
    case FL_MOREAU_ISOTROPIC:
        if (!isfinite(p->mu) || p->mu < 0)
            return FL_FAIL(err, FL_EINVAL, "friction coefficient mu = %g must be finite and >= 0",
                           p->mu);
        break;
    case FL_MOREAU_SET:
        FL_TRY(check_set(p->C, err));
        if (!p->tangent) return FL_FAIL(err, FL_EINVAL, "tangent basis is NULL");
        if (p->tangent->size1 != p->d || p->tangent->size2 != (size_t)p->C->dim)
            return FL_FAIL(err, FL_EDIM, "tangent basis is %zux%zu, expected %zux%d",
                           p->tangent->size1, p->tangent->size2, p->d, p->C->dim);
        if ((size_t)p->C->dim >= p->d)
            return FL_FAIL(err, FL_EDIM, "friction set of dimension %d needs d > %d", p->C->dim,
                           p->C->dim);
        FL_TRY(fl_check_finite_matrix(p->tangent, "tangent basis", err));
        break;
    default:
        return FL_FAIL(err, FL_EINVAL, "unknown friction kind %d", (int)p->friction);
    }
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* The local problem [PM §2]                                            */
/* ------------------------------------------------------------------ */

/* gamma = min_{s in C} (G (1, s))_0 = a + min_{s in C} b.s  [PM §5]. */
double fl_moreau_local_gamma(const fl_moreau_local *lp)
{
    const size_t k = lp->k;
    const double a = lp->G[0];
    const double *b = lp->G + 1;     /* first row, columns 1..k */
    if (k == 0) return a;
    if (lp->ball) {
        double nb = 0;
        for (size_t j = 0; j < k; j++) nb += b[j] * b[j];
        return a - lp->mu * sqrt(nb);
    }
    const fl_friction_set *C = lp->C;
    if (C->kind == FL_SET_DISC && C->dim == 2) return a - C->mu * hypot(b[0], b[1]);
    if (C->dim == 1) {
        double lo = C->kind == FL_SET_DISC ? -C->mu : C->lo;
        double hi = C->kind == FL_SET_DISC ? C->mu : C->hi;
        return a + fmin(lo * b[0], hi * b[0]);
    }
    double best = INFINITY;
    for (size_t i = 0; i < C->nvert; i++)
        best = fmin(best, b[0] * C->vert[2 * i] + b[1] * C->vert[2 * i + 1]);
    return a + best;
}

/* One-dimensional friction, s in rho(s)[lo, hi], rho(s) = (c0 - b s)/a >= 0:
 * three inequalities alpha s <= beta, then a clamp [PM §3]. */
static double solve_interval(double a, double b, double c0, double lo, double hi,
                             double Q, double p)
{
    const double alpha[3] = {a + hi * b, -(a + lo * b), b};
    const double beta[3] = {hi * c0, -lo * c0, c0};
    const double zero_tol = 1e-12 * (a + fabs(lo * b) + fabs(hi * b) + fabs(b));
    int has_lo = 0, has_hi = 0;
    double slo = 0, shi = 0;
    for (int i = 0; i < 3; i++) {
        if (fabs(alpha[i]) <= zero_tol) continue;   /* beta_i >= 0: no bound */
        double bound = beta[i] / alpha[i];
        if (alpha[i] > 0) {
            if (!has_hi || bound < shi) shi = bound;
            has_hi = 1;
        } else {
            if (!has_lo || bound > slo) slo = bound;
            has_lo = 1;
        }
    }
    if (has_lo && has_hi && slo > shi) slo = shi = 0.5 * (slo + shi); /* roundoff only */
    return fl_scalar_proj_interval(-p / Q, has_lo, slo, has_hi, shi);
}

/* Two-dimensional polygon C = {y : nu_i.y <= h_i}: the QP
 * min 1/2 s^T Q s + p.s s.t. alpha_j.s <= beta_j is solved exactly by
 * enumerating the candidate active sets of size 0, 1 and 2 [PM §4]. */
static fl_status solve_polygon(double a, const double *b, double c0, const fl_friction_set *C,
                               const double *Q, const double *p, double *s, fl_error *err)
{
    size_t m = C->nvert + 1;
    double *al = malloc(3 * m * sizeof *al);
    if (!al) return FL_FAIL(err, FL_ENOMEM, "out of memory in the polygon solver");
    double *be = al + 2 * m;
    for (size_t i = 0; i < C->nvert; i++) {
        const double *A = C->vert + 2 * i, *B = C->vert + 2 * ((i + 1) % C->nvert);
        double nu0 = B[1] - A[1], nu1 = -(B[0] - A[0]);     /* outward for ccw */
        double hi = nu0 * A[0] + nu1 * A[1];
        /* nu.s <= rho(s) h  <=>  (a nu + h b).s <= h c0 */
        al[2 * i] = a * nu0 + hi * b[0];
        al[2 * i + 1] = a * nu1 + hi * b[1];
        be[i] = hi * c0;
    }
    al[2 * (m - 1)] = b[0];                                 /* rho(s) >= 0 */
    al[2 * (m - 1) + 1] = b[1];
    be[m - 1] = c0;
    const double det = Q[0] * Q[3] - Q[1] * Q[2];
    /* Q^-1 */
    const double Qi[4] = {Q[3] / det, -Q[1] / det, -Q[2] / det, Q[0] / det};
    double best = INFINITY;
    s[0] = s[1] = 0;
    double scale = 0;
    for (size_t j = 0; j < m; j++) scale = fmax(scale, fabs(be[j]));
    double cand[2];
#define FL_TRY_CAND(x0, x1) do { \
        double c_[2] = {(x0), (x1)}; int ok_ = isfinite(c_[0]) && isfinite(c_[1]); \
        for (size_t j_ = 0; ok_ && j_ < m; j_++) { \
            double lhs_ = al[2 * j_] * c_[0] + al[2 * j_ + 1] * c_[1]; \
            double t_ = 1e-11 * (fabs(al[2 * j_] * c_[0]) + fabs(al[2 * j_ + 1] * c_[1]) + scale); \
            if (lhs_ > be[j_] + t_) ok_ = 0; } \
        if (ok_) { double f_ = 0.5 * (c_[0] * (Q[0] * c_[0] + Q[1] * c_[1]) + \
                                      c_[1] * (Q[2] * c_[0] + Q[3] * c_[1])) + p[0] * c_[0] + p[1] * c_[1]; \
            if (f_ < best) { best = f_; s[0] = c_[0]; s[1] = c_[1]; } } } while (0)
    FL_TRY_CAND(0.0, 0.0);          /* s = 0 is feasible (c0 >= 0, 0 in C) */
    /* unconstrained */
    const double su0 = -(Qi[0] * p[0] + Qi[1] * p[1]), su1 = -(Qi[2] * p[0] + Qi[3] * p[1]);
    FL_TRY_CAND(su0, su1);
    /* one active constraint: Q-projection of s_u on the line alpha.s = beta */
    for (size_t j = 0; j < m; j++) {
        const double *A = al + 2 * j;
        double QiA0 = Qi[0] * A[0] + Qi[1] * A[1], QiA1 = Qi[2] * A[0] + Qi[3] * A[1];
        double den = A[0] * QiA0 + A[1] * QiA1;
        if (!(den > 0)) continue;
        double t = (A[0] * su0 + A[1] * su1 - be[j]) / den;
        FL_TRY_CAND(su0 - t * QiA0, su1 - t * QiA1);
    }
    /* two active constraints: their intersection */
    for (size_t j = 0; j < m; j++)
        for (size_t l = j + 1; l < m; l++) {
            const double *A = al + 2 * j, *B = al + 2 * l;
            double dd = A[0] * B[1] - A[1] * B[0];
            double nrm = hypot(A[0], A[1]) * hypot(B[0], B[1]);
            if (!(fabs(dd) > 1e-14 * nrm)) continue;
            cand[0] = (be[j] * B[1] - A[1] * be[l]) / dd;
            cand[1] = (A[0] * be[l] - be[j] * B[0]) / dd;
            FL_TRY_CAND(cand[0], cand[1]);
        }
#undef FL_TRY_CAND
    free(al);
    return FL_OK;
}

/* Ball ||s|| <= mu rho(s) in R^k: Lagrangian dual in the single convex
 * constraint phi(s) = ||s|| + (mu/a) b.s - mu c0/a <= 0, bisection on its
 * multiplier lambda; the inner minimiser of 1/2 s^T Q s + (p + lambda mu b/a).s
 * + lambda ||s|| by the secular equation sigma ||(Q + sigma I)^-1 c|| = lambda
 * in the eigenbasis of Q [PM §6].  Convergent: phi(s(lambda)) is continuous
 * and nonincreasing; returns the KKT residual. */
typedef struct ball_ws {
    size_t k;
    const double *l;      /* eigenvalues of Q */
    const double *V;      /* eigenvectors, row-major k x k, columns */
    const double *pt;     /* V^T p */
    const double *bt;     /* V^T b */
    double a, mu, c0;
    double *ct, *st;      /* scratch */
    int max_iter;
    long iters;
} ball_ws;

static double vnorm(const double *x, size_t k)
{
    double s = 0;
    for (size_t i = 0; i < k; i++) s += x[i] * x[i];
    return sqrt(s);
}

/* s(lambda) in the eigenbasis (st); returns phi(s). */
static double ball_inner(ball_ws *w, double lambda)
{
    const size_t k = w->k;
    for (size_t i = 0; i < k; i++) w->ct[i] = w->pt[i] + lambda * w->mu / w->a * w->bt[i];
    double nc = vnorm(w->ct, k);
    double sigma;
    if (lambda == 0) {
        sigma = 0;
    } else if (nc <= lambda) {
        for (size_t i = 0; i < k; i++) w->st[i] = 0;
        return -w->mu * w->c0 / w->a;
    } else {
        double lmax = 0;
        for (size_t i = 0; i < k; i++) lmax = fmax(lmax, w->l[i]);
        double lo = 0, hi = lambda * lmax / (nc - lambda);
        for (int it = 0; it < w->max_iter; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) break;
            double g = 0;
            for (size_t i = 0; i < k; i++) {
                double t = mid * w->ct[i] / (w->l[i] + mid);
                g += t * t;
            }
            if (sqrt(g) < lambda) lo = mid; else hi = mid;
            w->iters++;
        }
        sigma = hi;
    }
    double bs = 0;
    for (size_t i = 0; i < k; i++) {
        w->st[i] = -w->ct[i] / (w->l[i] + sigma);
        bs += w->bt[i] * w->st[i];
    }
    return vnorm(w->st, k) + w->mu / w->a * bs - w->mu * w->c0 / w->a;
}

static fl_status solve_ball(double a, const double *b, double c0, double mu, size_t k,
                            const double *Q, const double *p, const fl_moreau_options *opt,
                            double *s, fl_moreau_result *res, fl_error *err)
{
    fl_status st = FL_OK;
    gsl_matrix *A = fl_dense_matrix_alloc(k, k), *V = fl_dense_matrix_alloc(k, k);
    gsl_vector *l = fl_dense_vector_alloc(k);
    gsl_error_handler_t *old = fl_gsl_handler_off();      /* NULL, never an abort */
    gsl_eigen_symmv_workspace *ew = gsl_eigen_symmv_alloc(k);
    fl_gsl_handler_restore(old);
    double *buf = malloc(5 * k * sizeof *buf);
    if (!A || !V || !l || !ew || !buf) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory in the ball solver");
        goto done;
    }
    memcpy(A->data, Q, k * k * sizeof *Q);   /* k x k contiguous (tda = k) */
    old = fl_gsl_handler_off();
    int rc = gsl_eigen_symmv(A, l, V, ew);
    fl_gsl_handler_restore(old);
    if (rc) { st = FL_FAIL(err, FL_EEXTERNAL, "eigen-decomposition failed"); goto done; }
    double lmin = gsl_vector_min(l);
    if (!(lmin > 1e-14 * gsl_vector_max(l)))
        { st = FL_FAIL(err, FL_ESINGULAR, "tangent directions are dependent on n "
                        "(local matrix singular)"); goto done; }
    double *pt = buf, *bt = buf + k, *ct = buf + 2 * k, *stv = buf + 3 * k;
    for (size_t i = 0; i < k; i++) {
        pt[i] = bt[i] = 0;
        for (size_t j = 0; j < k; j++) {
            pt[i] += gsl_matrix_get(V, j, i) * p[j];
            bt[i] += gsl_matrix_get(V, j, i) * b[j];
        }
    }
    ball_ws w = {k, l->data, V->data, pt, bt, a, mu, c0, ct, stv, opt->max_iter, 0};
    const double nb = vnorm(b, k);
    const double gam = a - mu * nb;
    double lambda = 0;
    if (c0 <= 0 && gam >= -1e-12 * a) {
        /* no strictly feasible point: F = {0} (gamma > 0) or the ray
         * s = kappa (-b/|b|), kappa >= 0 (gamma = 0) [PM §6] */
        for (size_t i = 0; i < k; i++) stv[i] = 0;
        if (gam <= 1e-12 * a && nb > 0) {
            double dQd = 0, pd = 0;
            for (size_t i = 0; i < k; i++) {
                double di = -bt[i] / nb;
                dQd += l->data[i] * di * di;
                pd += pt[i] * di;
            }
            double kappa = fmax(0.0, -pd / dQd);
            for (size_t i = 0; i < k; i++) stv[i] = -kappa * bt[i] / nb;
        }
    } else if (ball_inner(&w, 0) > 0) {
        double lo = 0, hi = vnorm(p, k) > 0 ? vnorm(p, k) : 1.0;
        int n = 0;
        while (ball_inner(&w, hi) > 0) {
            lo = hi;
            hi *= 2;
            if (++n > 2000) { st = FL_FAIL(err, FL_ENOCONV, "no multiplier bracket found");
                              goto done; }
        }
        for (int it = 0; it < opt->max_iter; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi || hi - lo <= opt->tol * hi) break;
            if (ball_inner(&w, mid) > 0) lo = mid; else hi = mid;
        }
        lambda = hi;
        ball_inner(&w, hi);               /* feasible side */
    }
    /* back to the original basis: s = V st */
    for (size_t i = 0; i < k; i++) {
        s[i] = 0;
        for (size_t j = 0; j < k; j++) s[i] += gsl_matrix_get(V, i, j) * stv[j];
    }
    /* KKT residual [PM §6] */
    {
        double ns = vnorm(s, k), bs = 0, stat = 0, scale = vnorm(p, k) + lambda * (1 + mu * nb / a);
        for (size_t i = 0; i < k; i++) bs += b[i] * s[i];
        double phi = ns + mu / a * bs - mu * c0 / a;
        double phiscale = ns + mu * (fabs(bs) + c0) / a;
        for (size_t i = 0; i < k; i++) {
            double g = p[i];
            for (size_t j = 0; j < k; j++) g += Q[i * k + j] * s[j];
            if (lambda > 0) g += lambda * ((ns > 0 ? s[i] / ns : 0) + mu * b[i] / a);
            stat += g * g;
            scale += fabs(g - p[i]);
        }
        stat = sqrt(stat);
        if (lambda > 0 && ns == 0) stat = 0;   /* subgradient at 0 */
        double r1 = scale > 0 ? stat / scale : stat;
        double r2 = phiscale > 0 ? fmax(0.0, phi) / phiscale : fmax(0.0, phi);
        double r3 = (lambda > 0 && phiscale > 0) ? fabs(phi) / phiscale : 0;
        res->residual = fmax(r1, fmax(r2, r3));
    }
    res->iterations = (int)w.iters;
done:
    gsl_matrix_free(A);
    gsl_matrix_free(V);
    gsl_vector_free(l);
    if (ew) gsl_eigen_symmv_free(ew);
    free(buf);
    return st;
}

/* 000 §2: S's projection, written on the Delassus data (G, h) [PM §2]:
 * x = (rho, s), rho(s) = (c0 - b.s)/a, Q = G_ss - b b^T/a, p = h_s + (c0/a) b. */
fl_status fl_moreau_local_solve(const fl_moreau_local *lp, const fl_moreau_options *opt,
                                double *x, fl_moreau_result *res, fl_error *err)
{
    const size_t k = lp->k, m = k + 1;
    const double a = lp->G[0];
    const double c0 = -lp->h[0];
    if (!(a > 0)) return FL_FAIL(err, FL_ENOTSPD, "<n, M^-1 n> = %g is not positive", a);
    if (c0 < 0) return FL_FAIL(err, FL_EINVAL, "<v, n> > 0: (v + M^-1 R) ∩ T is empty");
    res->iterations = 0;
    res->residual = 0;
    res->gamma = fl_moreau_local_gamma(lp);
    if (k == 0 || (lp->ball && lp->mu == 0) ||
        (!lp->ball && lp->C->kind == FL_SET_DISC && lp->C->mu == 0)) {
        /* frictionless closed form (000 §1): rho = c0 / <n, W n> */
        x[0] = c0 / a;
        for (size_t j = 1; j < m; j++) x[j] = 0;
        return FL_OK;
    }
    const double *b = lp->G + 1;
    double *Q = malloc((k * k + k) * sizeof *Q);
    if (!Q) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    double *p = Q + k * k;
    for (size_t i = 0; i < k; i++) {
        p[i] = lp->h[1 + i] + c0 / a * b[i];
        for (size_t j = 0; j < k; j++)
            Q[i * k + j] = lp->G[(1 + i) * m + 1 + j] - b[i] * b[j] / a;
    }
    fl_status st = FL_OK;
    double *s = x + 1;
    if (k == 1) {
        double lo, hi;
        if (lp->ball) { lo = -lp->mu; hi = lp->mu; }
        else if (lp->C->kind == FL_SET_DISC) { lo = -lp->C->mu; hi = lp->C->mu; }
        else { lo = lp->C->lo; hi = lp->C->hi; }
        if (!(Q[0] > 1e-14 * lp->G[3])) st = FL_FAIL(err, FL_ESINGULAR,
            "tangent direction is parallel to n (local matrix singular)");
        else s[0] = solve_interval(a, b[0], c0, lo, hi, Q[0], p[0]);
    } else if (lp->ball || lp->C->kind == FL_SET_DISC) {
        double mu = lp->ball ? lp->mu : lp->C->mu;
        st = solve_ball(a, b, c0, mu, k, Q, p, opt, s, res, err);
    } else {
        double det = Q[0] * Q[3] - Q[1] * Q[2];
        if (!(det > 1e-14 * (Q[0] * Q[3]))) st = FL_FAIL(err, FL_ESINGULAR,
            "tangent directions are dependent on n (local matrix singular)");
        else st = solve_polygon(a, b, c0, lp->C, Q, p, s, err);
    }
    if (st == FL_OK) {
        double bs = 0;
        for (size_t j = 0; j < k; j++) bs += b[j] * s[j];
        x[0] = (c0 - bs) / a;                  /* (G x)_0 = c0 */
        if (x[0] < 0) x[0] = 0;                /* roundoff only */
    }
    free(Q);
    return st;
}

/* ------------------------------------------------------------------ */
/* Dense assembly (reference)                                           */
/* ------------------------------------------------------------------ */

/* Orthonormal basis of n^perp (|n| = 1) from a Householder reflection:
 * H = I - 2 w w^T / w.w with w = n + sign(n_j) e_j maps n to -sign(n_j) e_j,
 * so the columns of H other than j are orthonormal and orthogonal to n. */
void fl_moreau_orthonormal_complement(const gsl_vector *n, gsl_matrix *T)
{
    const size_t d = n->size;
    size_t j = gsl_blas_idamax(n);
    double sg = gsl_vector_get(n, j) >= 0 ? 1.0 : -1.0;
    double ww = 2.0 * (1.0 + fabs(gsl_vector_get(n, j)));   /* |n + sg e_j|^2 */
    size_t col = 0;
    for (size_t c = 0; c < d; c++) {
        if (c == j) continue;
        double wc = gsl_vector_get(n, c);
        for (size_t i = 0; i < d; i++) {
            double wi = gsl_vector_get(n, i) + (i == j ? sg : 0.0);
            gsl_matrix_set(T, i, col, (i == c ? 1.0 : 0.0) - 2.0 * wi * wc / ww);
        }
        col++;
    }
}

/* Everything S needs at one configuration, dense. */
typedef struct dense_ctx {
    fl_spd *spd;
    gsl_vector *n;
    gsl_matrix *H;     /* d x (k+1): columns n, t_1..t_k */
    gsl_matrix *WH;    /* M^-1 H */
    double *G, *h;
    fl_moreau_local lp;
} dense_ctx;

static void dense_free(dense_ctx *c)
{
    fl_spd_free(c->spd);
    gsl_vector_free(c->n);
    gsl_matrix_free(c->H);
    gsl_matrix_free(c->WH);
    free(c->G);
}

static fl_status dense_setup(const fl_moreau_problem *p, dense_ctx *c, fl_error *err)
{
    memset(c, 0, sizeof *c);
    const size_t d = p->d;
    size_t k = 0;
    if (p->friction == FL_MOREAU_ISOTROPIC) k = d - 1;
    else if (p->friction == FL_MOREAU_SET) k = (size_t)p->C->dim;
    FL_TRY(fl_spd_alloc(p->M, &c->spd, err));
    c->n = fl_dense_vector_alloc(d);
    c->H = fl_dense_matrix_alloc(d, k + 1);
    c->WH = fl_dense_matrix_alloc(d, k + 1);
    c->G = malloc(((k + 1) * (k + 1) + k + 1) * sizeof *c->G);
    if (!c->n || !c->H || !c->WH || !c->G) {
        dense_free(c);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    c->h = c->G + (k + 1) * (k + 1);
    /* n = dphi / |dphi|  (000 §1: n = -grad g/|grad g|) */
    gsl_vector_memcpy(c->n, p->dgap);
    gsl_vector_scale(c->n, 1.0 / gsl_blas_dnrm2(p->dgap));
    gsl_matrix_set_col(c->H, 0, c->n);
    if (k > 0) {
        gsl_matrix_view Tv = gsl_matrix_submatrix(c->H, 0, 1, d, k);
        if (p->friction == FL_MOREAU_ISOTROPIC) fl_moreau_orthonormal_complement(c->n, &Tv.matrix);
        else gsl_matrix_memcpy(&Tv.matrix, p->tangent);
    }
    /* W H = M^-1 [n t_1 .. t_k] */
    fl_status st = fl_spd_solve_matrix(c->spd, c->H, c->WH);
    if (st != FL_OK) { dense_free(c); return FL_FAIL(err, st, "solve with M failed"); }
    /* G = H^T W H, h = H^T v */
    gsl_matrix_view Gv = gsl_matrix_view_array(c->G, k + 1, k + 1);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, c->H, c->WH, 0.0, &Gv.matrix);
    for (size_t i = 0; i <= k; i++)          /* symmetrise roundoff */
        for (size_t j = 0; j < i; j++) {
            double g = 0.5 * (c->G[i * (k + 1) + j] + c->G[j * (k + 1) + i]);
            c->G[i * (k + 1) + j] = c->G[j * (k + 1) + i] = g;
        }
    gsl_vector_view hv = gsl_vector_view_array(c->h, k + 1);
    gsl_blas_dgemv(CblasTrans, 1.0, c->H, p->v, 0.0, &hv.vector);
    c->lp.k = k;
    c->lp.G = c->G;
    c->lp.h = c->h;
    c->lp.ball = p->friction == FL_MOREAU_ISOTROPIC;
    c->lp.mu = p->mu;
    c->lp.C = p->friction == FL_MOREAU_SET ? p->C : NULL;
    return FL_OK;
}

/* |<u, n>| / |v| for the residual. */
static double normal_residual(const gsl_vector *u, const gsl_vector *n, const gsl_vector *v)
{
    double un;
    gsl_blas_ddot(u, n, &un);
    double nv = gsl_blas_dnrm2(v);
    return nv > 0 ? fabs(un) / nv : fabs(un);
}

/* u = Proj_q(0, (v + M^-1 R(q)) ∩ T(q))  (000 §2, (6)-(7)) */
static fl_status dense_project(const fl_moreau_problem *p, const fl_moreau_options *opt,
                               dense_ctx *c, gsl_vector *u, gsl_vector *r,
                               fl_moreau_result *res, fl_error *err)
{
    const size_t k = c->lp.k;
    double *x = malloc((k + 1) * sizeof *x);
    if (!x) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    fl_status st;
    if (p->friction == FL_MOREAU_FRICTIONLESS) {
        /* 000 §1: u+ = u- - <u-, n>/<n, M^-1 n> M^-1 n  (u+_N = 0, u+_T = u-_T) */
        double c0 = -c->h[0];
        if (c0 < 0) {
            free(x);
            return FL_FAIL(err, FL_EINVAL, "<v, n> > 0: (v + M^-1 R) ∩ T is empty");
        }
        x[0] = c0 / c->G[0];
        res->gamma = c->G[0];
        res->iterations = 0;
        res->residual = 0;
        st = FL_OK;
    } else {
        st = fl_moreau_local_solve(&c->lp, opt, x, res, err);
    }
    if (st == FL_OK) {
        /* r = rho n + sum_j s_j t_j = H x ;  u = v + M^-1 r */
        gsl_vector_view xv = gsl_vector_view_array(x, k + 1);
        gsl_blas_dgemv(CblasNoTrans, 1.0, c->H, &xv.vector, 0.0, r);
        fl_spd_solve(c->spd, r, u);
        gsl_vector_add(u, p->v);
        res->rho = x[0];
        res->s[0] = k >= 1 && p->friction == FL_MOREAU_SET ? x[1] : 0;
        res->s[1] = k >= 2 && p->friction == FL_MOREAU_SET ? x[2] : 0;
        res->residual = fmax(res->residual, normal_residual(u, c->n, p->v));
    }
    free(x);
    return st;
}

static void result_init(fl_moreau_result *res)
{
    memset(res, 0, sizeof *res);
}

fl_status fl_moreau_project(const fl_moreau_problem *p, const fl_moreau_options *opt,
                            gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                            fl_error *err)
{
    fl_moreau_result tmp;
    if (!res) res = &tmp;
    result_init(res);
    fl_moreau_options o = opt ? *opt : fl_moreau_options_default();
    double t0 = fl_clock_now();
    fl_status st = fl_moreau_check(p, 1, err);
    if (st == FL_OK && (!u || !r || u->size != p->d || r->size != p->d))
        st = FL_FAIL(err, FL_EDIM, "u and r must have length d = %zu", p->d);
    if (st == FL_OK) {
        dense_ctx c;
        st = dense_setup(p, &c, err);
        if (st == FL_OK) {
            res->branch = FL_MOREAU_COLLISION;
            st = dense_project(p, &o, &c, u, r, res, err);
            dense_free(&c);
        }
    }
    res->status = st;
    res->seconds = fl_clock_now() - t0;
    return st;
}

/* 000 §2: S(q, v) = v if v in V(q), the projection otherwise, with
 * V(q) = R^d if g(q) < 0 and {<v, n> >= 0} if g(q) >= 0 (Moreau's choice
 * u = v also in the tangential case <v, n> = 0). */
fl_status fl_moreau_law(const fl_moreau_problem *p, const fl_moreau_options *opt,
                        gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                        fl_error *err)
{
    fl_moreau_result tmp;
    if (!res) res = &tmp;
    result_init(res);
    fl_moreau_options o = opt ? *opt : fl_moreau_options_default();
    double t0 = fl_clock_now();
    fl_status st = fl_moreau_check(p, 1, err);
    if (st == FL_OK && (!u || !r || u->size != p->d || r->size != p->d))
        st = FL_FAIL(err, FL_EDIM, "u and r must have length d = %zu", p->d);
    if (st != FL_OK) { res->status = st; return st; }
    dense_ctx c;
    st = dense_setup(p, &c, err);
    if (st != FL_OK) { res->status = st; return st; }
    res->gamma = fl_moreau_local_gamma(&c.lp);
    double vn = c.h[0];                           /* <v, n> */
    if (p->gap > 0 || vn >= 0) {
        /* v in V(q): S(q, v) = v, r = 0 */
        res->branch = p->gap > 0 ? FL_MOREAU_FREE : FL_MOREAU_INWARD;
        gsl_vector_memcpy(u, p->v);
        gsl_vector_set_zero(r);
    } else {
        res->branch = FL_MOREAU_COLLISION;
        st = dense_project(p, &o, &c, u, r, res, err);
    }
    dense_free(&c);
    res->status = st;
    res->seconds = fl_clock_now() - t0;
    return st;
}

fl_status fl_moreau_gamma(const fl_moreau_problem *p, double *gamma, fl_error *err)
{
    FL_TRY(fl_moreau_check(p, 1, err));
    dense_ctx c;
    FL_TRY(dense_setup(p, &c, err));
    *gamma = fl_moreau_local_gamma(&c.lp);
    dense_free(&c);
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* Systems and time stepping (000 §2)                                   */
/* ------------------------------------------------------------------ */

typedef struct sys_eval {
    gsl_matrix *M, *T;
    gsl_vector *dgap, *n;
    fl_moreau_problem p;
} sys_eval;

static void sys_free(sys_eval *e)
{
    gsl_matrix_free(e->M);
    gsl_matrix_free(e->T);
    gsl_vector_free(e->dgap);
    gsl_vector_free(e->n);
}

/* M(q), phi(q), dphi(q) and D_1(q) at q. */
static fl_status sys_at(const fl_moreau_system *sys, const gsl_vector *q, sys_eval *e,
                        fl_error *err)
{
    memset(e, 0, sizeof *e);
    if (!sys || !sys->mass || !sys->gap || sys->d < 1)
        return FL_FAIL(err, FL_EINVAL, "system needs d >= 1, mass and gap callbacks");
    if (!q || q->size != sys->d) return FL_FAIL(err, FL_EDIM, "q must have length d");
    const size_t d = sys->d;
    size_t k = sys->friction == FL_MOREAU_SET ? sys->k : 0;
    if (sys->friction == FL_MOREAU_SET && (k < 1 || k > 2 || !sys->friction_at))
        return FL_FAIL(err, FL_EINVAL, "a friction-set system needs k in {1,2} and friction_at");
    e->M = fl_dense_matrix_alloc(d, d);
    e->dgap = fl_dense_vector_alloc(d);
    e->n = fl_dense_vector_alloc(d);
    if (k) e->T = fl_dense_matrix_alloc(d, k);
    if (!e->M || !e->dgap || !e->n || (k && !e->T)) {
        sys_free(e);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    fl_status st = sys->mass(q, e->M, sys->data);
    if (st == FL_OK) st = sys->gap(q, &e->p.gap, e->dgap, sys->data);
    if (st != FL_OK) { sys_free(e); return FL_FAIL(err, st, "system callback failed at q"); }
    double nd = gsl_blas_dnrm2(e->dgap);
    gsl_vector_memcpy(e->n, e->dgap);
    if (nd > 0) gsl_vector_scale(e->n, 1.0 / nd);
    e->p.d = d;
    e->p.M = e->M;
    e->p.dgap = e->dgap;
    e->p.friction = sys->friction;
    e->p.mu = sys->mu;
    if (sys->friction_at && sys->friction != FL_MOREAU_FRICTIONLESS) {
        st = sys->friction_at(q, e->n, &e->p.mu, e->T, &e->p.C, sys->data);
        if (st != FL_OK) { sys_free(e); return FL_FAIL(err, st, "friction callback failed at q"); }
    }
    e->p.tangent = e->T;
    return FL_OK;
}

fl_status fl_moreau_system_law(const fl_moreau_system *sys, const gsl_vector *q,
                               const gsl_vector *v, const fl_moreau_options *opt,
                               gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                               fl_error *err)
{
    sys_eval e;
    FL_TRY(sys_at(sys, q, &e, err));
    e.p.v = v;
    fl_status st = fl_moreau_law(&e.p, opt, u, r, res, err);
    sys_free(&e);
    return st;
}

fl_status fl_moreau_system_gamma(const fl_moreau_system *sys, const gsl_vector *q,
                                 double *gamma, fl_error *err)
{
    sys_eval e;
    FL_TRY(sys_at(sys, q, &e, err));
    e.p.v = e.dgap;               /* any vector of length d: gamma ignores v */
    fl_status st = fl_moreau_gamma(&e.p, gamma, err);
    sys_free(&e);
    return st;
}

fl_status fl_moreau_system_project(const fl_moreau_system *sys, const gsl_vector *q,
                                   const gsl_vector *v, const fl_moreau_options *opt,
                                   gsl_vector *u, fl_moreau_result *res, fl_error *err)
{
    sys_eval e;
    FL_TRY(sys_at(sys, q, &e, err));
    e.p.v = v;
    gsl_vector *r = fl_dense_vector_alloc(sys->d);
    fl_status st = r ? fl_moreau_project(&e.p, opt, u, r, res, err)
                     : FL_FAIL(err, FL_ENOMEM, "out of memory");
    gsl_vector_free(r);
    sys_free(&e);
    return st;
}

/* 000 §2: q_{i+1} = q_i + h u_i; v_{i+1} = u_i + h M^-1(q_{i+1}) f(t_{i+1},
 * q_{i+1}, u_i); u_{i+1} = S(q_{i+1}, v_{i+1});
 * r_{i+1} = M(q_{i+1})(u_{i+1} - u_i) - h f  (Prop. 1). */
fl_status fl_moreau_step(const fl_moreau_system *sys, const fl_moreau_options *opt,
                         double t, double h, gsl_vector *q, gsl_vector *u,
                         gsl_vector *r, fl_moreau_result *res, fl_error *err)
{
    if (!sys || !q || !u || q->size != sys->d || u->size != sys->d || (r && r->size != sys->d))
        return FL_FAIL(err, FL_EDIM, "q, u (and r) must have length d");
    if (!(h > 0) || !isfinite(h) || !isfinite(t))
        return FL_FAIL(err, FL_EINVAL, "step h = %g must be finite and > 0", h);
    const size_t d = sys->d;
    gsl_vector *qn = fl_dense_vector_alloc(d), *f = fl_dense_vector_alloc(d), *v = fl_dense_vector_alloc(d),
               *un = fl_dense_vector_alloc(d), *rn = fl_dense_vector_alloc(d);
    fl_status st = FL_OK;
    sys_eval e;
    int have_e = 0;
    if (!qn || !f || !v || !un || !rn) { st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto out; }
    gsl_vector_memcpy(qn, q);
    gsl_blas_daxpy(h, u, qn);                          /* q_{i+1} = q_i + h u_i */
    st = sys_at(sys, qn, &e, err);
    if (st != FL_OK) goto out;
    have_e = 1;
    gsl_vector_set_zero(f);
    if (sys->force) {
        st = sys->force(t + h, qn, u, f, sys->data);
        if (st != FL_OK) { st = FL_FAIL(err, st, "force callback failed"); goto out; }
    }
    {
        fl_spd *spd = NULL;
        st = fl_spd_alloc(e.M, &spd, err);
        if (st != FL_OK) goto out;
        fl_spd_solve(spd, f, v);                      /* v = M^-1 f */
        fl_spd_free(spd);
    }
    gsl_vector_scale(v, h);
    gsl_vector_add(v, u);                              /* v_{i+1} = u_i + h M^-1 f */
    e.p.v = v;
    st = fl_moreau_law(&e.p, opt, un, rn, res, err);  /* u_{i+1} = S(q_{i+1}, v_{i+1}) */
    if (st < 0) goto out;
    if (r) {
        /* r_{i+1} = M (u_{i+1} - u_i) - h f */
        gsl_vector_memcpy(v, un);
        gsl_vector_sub(v, u);
        gsl_blas_dgemv(CblasNoTrans, 1.0, e.M, v, 0.0, r);
        gsl_blas_daxpy(-h, f, r);
    }
    gsl_vector_memcpy(q, qn);
    gsl_vector_memcpy(u, un);
out:
    if (have_e) sys_free(&e);
    gsl_vector_free(qn);
    gsl_vector_free(f);
    gsl_vector_free(v);
    gsl_vector_free(un);
    gsl_vector_free(rn);
    return st;
}
