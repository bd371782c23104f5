/* midpoint.c — midpoint scheme for elastodynamic contact with friction
 * (002 (20)-(23)), dense reference.  Conventions: midpoint.h. */
#include "midpoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"
#include "fl_scalar.h"
#include "fl_clock.h"

fl_midpoint_options fl_midpoint_options_default(void)
{
    fl_midpoint_options o;
    o.dt = 1e-3;
    o.contact = FL_MIDPOINT_AT_MIDPOINT;
    o.solver = FL_MIDPOINT_LOCAL_GS;
    o.tol = 1e-12;
    o.max_iter = 5000;
    o.enum_max_contacts = 6;
    return o;
}

fl_status fl_midpoint_state_alloc(size_t n, size_t nc, fl_midpoint_state **out, fl_error *err)
{
    *out = NULL;
    if (n == 0) return FL_FAIL(err, FL_EINVAL, "state needs n >= 1");
    fl_midpoint_state *s = calloc(1, sizeof *s);
    if (s) {
        s->u = fl_dense_vector_calloc(n);
        s->v = fl_dense_vector_calloc(n);
        s->y = fl_dense_vector_calloc(2 * (nc ? nc : 1));
    }
    if (!s || !s->u || !s->v || !s->y) {
        fl_midpoint_state_free(s);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate a midpoint state");
    }
    s->n = n;
    s->nc = nc;
    *out = s;
    return FL_OK;
}

void fl_midpoint_state_free(fl_midpoint_state *st)
{
    if (!st) return;
    gsl_vector_free(st->u);
    gsl_vector_free(st->v);
    gsl_vector_free(st->y);
    free(st);
}

/* 002 (19) */
double fl_midpoint_energy(const fl_midpoint_problem *p, const gsl_vector *u, const gsl_vector *v)
{
    gsl_vector *t = fl_dense_vector_alloc(p->n);
    if (!t) return NAN;                             /* out of memory */
    double kin, pot, lin;
    gsl_blas_dsymv(CblasUpper, 1.0, p->Mr, v, 0.0, t);
    gsl_blas_ddot(v, t, &kin);
    gsl_blas_dsymv(CblasUpper, 1.0, p->A, u, 0.0, t);
    gsl_blas_ddot(u, t, &pot);
    gsl_blas_ddot(u, p->f, &lin);
    gsl_vector_free(t);
    return 0.5 * kin + 0.5 * pot - lin;
}

/* ---------------------------------------------------------------------- */
/* The condensed step problem w = D y + q                                  */

static double vmaxabs(const double *x, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static double mmaxabs(const gsl_matrix *D)
{
    double m = 0;
    for (size_t i = 0; i < D->size1; i++)
        for (size_t j = 0; j < D->size2; j++) m = fmax(m, fabs(gsl_matrix_get(D, i, j)));
    return m;
}

double fl_midpoint_local_residual(const gsl_matrix *D, const gsl_vector *q, double mu,
                                  const gsl_vector *y)
{
    size_t m = q->size;
    double res = 0;
    for (size_t i = 0; i < m / 2; i++) {
        double wn = gsl_vector_get(q, 2 * i), wt = gsl_vector_get(q, 2 * i + 1);
        for (size_t j = 0; j < m; j++) {
            wn += gsl_matrix_get(D, 2 * i, j) * gsl_vector_get(y, j);
            wt += gsl_matrix_get(D, 2 * i + 1, j) * gsl_vector_get(y, j);
        }
        double rn = gsl_vector_get(y, 2 * i), rt = gsl_vector_get(y, 2 * i + 1);
        double en = fabs(rn - fmax(0.0, rn - wn));
        double lim = mu * fmax(rn, 0.0);
        double et = fabs(rt - fl_scalar_clamp(rt - wt, -lim, lim));
        res = fmax(res, fmax(en, et));
    }
    double scale = vmaxabs(q->data, m) + mmaxabs(D) * vmaxabs(y->data, m) + 1e-300;
    return res / scale;
}

enum { ST_OPEN = 0, ST_STICK = 1, ST_SLIDE_POS = 2, ST_SLIDE_NEG = 3 };

/* Solve the linear system of one state assignment and check its
 * inequalities.  Returns 1 if y is a solution.  E, rhs, perm are workspaces. */
static int solve_state(const gsl_matrix *D, const gsl_vector *q, double mu, const int *state,
                       gsl_matrix *E, gsl_vector *rhs, gsl_permutation *perm, gsl_vector *y)
{
    size_t m = q->size, nc = m / 2;
    gsl_matrix_set_zero(E);
    for (size_t i = 0; i < nc; i++) {
        size_t a = 2 * i, b = 2 * i + 1;
        switch (state[i]) {
        case ST_OPEN:      /* r_n = 0, r_t = 0 */
            gsl_matrix_set(E, a, a, 1.0);
            gsl_matrix_set(E, b, b, 1.0);
            gsl_vector_set(rhs, a, 0.0);
            gsl_vector_set(rhs, b, 0.0);
            break;
        case ST_STICK:     /* w_n = 0, w_t = 0 */
            for (size_t j = 0; j < m; j++) {
                gsl_matrix_set(E, a, j, gsl_matrix_get(D, a, j));
                gsl_matrix_set(E, b, j, gsl_matrix_get(D, b, j));
            }
            gsl_vector_set(rhs, a, -gsl_vector_get(q, a));
            gsl_vector_set(rhs, b, -gsl_vector_get(q, b));
            break;
        default: {         /* w_n = 0, r_t = -+ F r_n */
            double sgn = state[i] == ST_SLIDE_POS ? 1.0 : -1.0;
            for (size_t j = 0; j < m; j++) gsl_matrix_set(E, a, j, gsl_matrix_get(D, a, j));
            gsl_vector_set(rhs, a, -gsl_vector_get(q, a));
            gsl_matrix_set(E, b, b, 1.0);
            gsl_matrix_set(E, b, a, sgn * mu);
            gsl_vector_set(rhs, b, 0.0);
        }
        }
    }
    /* row equilibration, so that the pivot test below is scale-free */
    for (size_t i = 0; i < m; i++) {
        double rmax = 0;
        for (size_t j = 0; j < m; j++) rmax = fmax(rmax, fabs(gsl_matrix_get(E, i, j)));
        if (rmax == 0) return 0;
        for (size_t j = 0; j < m; j++) gsl_matrix_set(E, i, j, gsl_matrix_get(E, i, j) / rmax);
        gsl_vector_set(rhs, i, gsl_vector_get(rhs, i) / rmax);
    }
    int signum;
    gsl_error_handler_t *h = fl_gsl_handler_off();
    int rc = gsl_linalg_LU_decomp(E, perm, &signum);
    double rc_est = 0;
    if (rc == 0) {
        double dmax = 0, dmin = INFINITY;
        for (size_t i = 0; i < m; i++) {
            double d = fabs(gsl_matrix_get(E, i, i));
            dmax = fmax(dmax, d);
            dmin = fmin(dmin, d);
        }
        rc_est = dmax > 0 ? dmin / dmax : 0;
        if (rc_est > 1e-13) rc = gsl_linalg_LU_solve(E, perm, rhs, y);
    }
    fl_gsl_handler_restore(h);
    if (rc != 0 || rc_est <= 1e-13) return 0;
    /* inequalities, relative tolerance */
    double ys = vmaxabs(y->data, m), tol_r = 1e-9 * (ys + 1e-300);
    double tol_w = 1e-9 * (vmaxabs(q->data, m) + mmaxabs(D) * ys + 1e-300);
    for (size_t i = 0; i < nc; i++) {
        size_t a = 2 * i, b = 2 * i + 1;
        double wn = gsl_vector_get(q, a), wt = gsl_vector_get(q, b);
        for (size_t j = 0; j < m; j++) {
            wn += gsl_matrix_get(D, a, j) * gsl_vector_get(y, j);
            wt += gsl_matrix_get(D, b, j) * gsl_vector_get(y, j);
        }
        double rn = gsl_vector_get(y, a), rt = gsl_vector_get(y, b);
        switch (state[i]) {
        case ST_OPEN: if (wn < -tol_w) return 0; break;
        case ST_STICK: if (rn < -tol_r || fabs(rt) > mu * rn + tol_r) return 0; break;
        case ST_SLIDE_POS: if (rn < -tol_r || wt < -tol_w) return 0; break;
        default: if (rn < -tol_r || wt > tol_w) return 0; break;
        }
    }
    return 1;
}

/* exhaustive enumeration, proofs/contact_dynamics.md: enumeration of the 4^nc states. */
fl_status fl_midpoint_local_enumerate(const gsl_matrix *D, const gsl_vector *q, double mu,
                                      gsl_matrix *sols, size_t *nsol, fl_error *err)
{
    *nsol = 0;
    size_t m = q->size, nc = m / 2;
    if (m == 0 || m % 2 || D->size1 != m || D->size2 != m || !sols || sols->size2 != m)
        return FL_FAIL(err, FL_EDIM, "enumeration: D, q and solution rows must have 2 nc entries");
    if (nc > 8) return FL_FAIL(err, FL_EINVAL, "enumeration limited to 8 contacts (got %zu)", nc);
    if (!(mu >= 0) || !isfinite(mu)) return FL_FAIL(err, FL_EINVAL, "friction coefficient must be >= 0");
    gsl_matrix *E = fl_dense_matrix_alloc(m, m);
    gsl_vector *rhs = fl_dense_vector_alloc(m), *y = fl_dense_vector_alloc(m);
    gsl_permutation *perm = fl_dense_permutation_alloc(m);
    if (!E || !rhs || !y || !perm) {
        gsl_matrix_free(E); gsl_vector_free(rhs); gsl_vector_free(y); gsl_permutation_free(perm);
        return FL_FAIL(err, FL_ENOMEM, "enumeration: out of memory for %zu unknowns", m);
    }
    int state[8];
    size_t total = (size_t)1 << (2 * nc), found = 0;
    for (size_t code = 0; code < total; code++) {
        for (size_t i = 0; i < nc; i++) state[i] = (int)((code >> (2 * i)) & 3);
        if (!solve_state(D, q, mu, state, E, rhs, perm, y)) continue;
        /* merge duplicates (boundaries shared by two states) */
        double ys = vmaxabs(y->data, m);
        int dup = 0;
        for (size_t s = 0; s < found && s < sols->size1 && !dup; s++) {
            double d = 0, ss = ys;
            for (size_t j = 0; j < m; j++) {
                d = fmax(d, fabs(gsl_matrix_get(sols, s, j) - gsl_vector_get(y, j)));
                ss = fmax(ss, fabs(gsl_matrix_get(sols, s, j)));
            }
            if (d <= 1e-8 * (ss + 1e-300)) dup = 1;
        }
        if (dup) continue;
        if (found < sols->size1) gsl_matrix_set_row(sols, found, y);
        found++;
    }
    gsl_matrix_free(E);
    gsl_vector_free(rhs);
    gsl_vector_free(y);
    gsl_permutation_free(perm);
    *nsol = found;
    return FL_OK;
}

/* Exact solutions of one contact's 2x2 problem w = Dii y + b; keeps the
 * one closest to (y0n, y0t).  Returns 0 if none (cannot happen for Dii SPD). */
static int local_block(double d11, double d12, double d22, double bn, double bt, double mu,
                       double *yn, double *yt)
{
    double best = INFINITY, cn = *yn, ct = *yt, tn = 0, tt = 0;
    double scale = fabs(bn) + fabs(bt) + 1e-300, tol = 1e-12 * scale;
    /* open */
    if (bn >= -tol) {
        double d = hypot(cn, ct);
        if (d < best) { best = d; tn = 0; tt = 0; }
    }
    /* stick: Dii y = -b */
    double det = d11 * d22 - d12 * d12;
    if (det > 0) {
        double rn = (-bn * d22 + bt * d12) / det, rt = (-bt * d11 + bn * d12) / det;
        double tr = 1e-12 * (fabs(rn) + fabs(rt) + 1e-300);
        if (rn >= -tr && fabs(rt) <= mu * rn + tr) {
            double d = hypot(rn - cn, rt - ct);
            if (d < best) { best = d; tn = rn; tt = rt; }
        }
    }
    /* slide: r_t = -s F r_n, w_n = 0, s w_t >= 0 */
    for (int s = -1; s <= 1; s += 2) {
        double den = d11 - s * mu * d12;   /* w_n = den r_n + bn = 0 */
        if (den == 0) continue;
        double rn = -bn / den, rt = -s * mu * rn;
        if (rn < -1e-12 * (fabs(rn) + 1e-300)) continue;
        double wt = d12 * rn + d22 * rt + bt;
        if (s * wt < -tol) continue;
        double d = hypot(rn - cn, rt - ct);
        if (d < best) { best = d; tn = rn; tt = rt; }
    }
    if (!isfinite(best)) return 0;
    *yn = tn;
    *yt = tt;
    return 1;
}

fl_status fl_midpoint_local_gs(const gsl_matrix *D, const gsl_vector *q, double mu,
                               double tol, int max_iter, gsl_vector *y, int *iterations,
                               fl_error *err)
{
    size_t m = q->size, nc = m / 2;
    *iterations = 0;
    if (m == 0 || m % 2 || D->size1 != m || D->size2 != m || y->size != m)
        return FL_FAIL(err, FL_EDIM, "Gauss-Seidel: D, q, y must have 2 nc entries");
    for (int it = 1; it <= max_iter; it++) {
        double change = 0, ymax = 0;
        for (size_t i = 0; i < nc; i++) {
            size_t a = 2 * i, b = 2 * i + 1;
            double bn = gsl_vector_get(q, a), bt = gsl_vector_get(q, b);
            for (size_t j = 0; j < m; j++) {
                if (j == a || j == b) continue;
                bn += gsl_matrix_get(D, a, j) * gsl_vector_get(y, j);
                bt += gsl_matrix_get(D, b, j) * gsl_vector_get(y, j);
            }
            double yn = gsl_vector_get(y, a), yt = gsl_vector_get(y, b);
            double on = yn, ot = yt;
            if (!local_block(gsl_matrix_get(D, a, a), gsl_matrix_get(D, a, b),
                             gsl_matrix_get(D, b, b), bn, bt, mu, &yn, &yt))
                return FL_FAIL(err, FL_ENOCONV, "contact %zu: no local solution (block not SPD?)", i);
            gsl_vector_set(y, a, yn);
            gsl_vector_set(y, b, yt);
            change = fmax(change, fmax(fabs(yn - on), fabs(yt - ot)));
            ymax = fmax(ymax, fmax(fabs(yn), fabs(yt)));
        }
        *iterations = it;
        if (change <= tol * ymax) return FL_OK;   /* ymax = 0 needs change = 0 */
    }
    return FL_WMAXITER;
}

/* ---------------------------------------------------------------------- */
/* Reference stepper                                                        */

void fl_midpoint_free(fl_midpoint *mp)
{
    if (!mp) return;
    gsl_matrix_free(mp->S);
    gsl_matrix_free(mp->H);
    gsl_matrix_free(mp->Z);
    gsl_matrix_free(mp->D);
    gsl_matrix_free(mp->sols);
    gsl_vector_free(mp->fhat);
    gsl_vector_free(mp->z);
    gsl_vector_free(mp->q);
    gsl_vector_free(mp->uh);
    gsl_vector_free(mp->w1);
    gsl_vector_free(mp->w2);
    free(mp);
}

fl_status fl_midpoint_check_options(const fl_midpoint_problem *p, const fl_midpoint_options *o,
                                    fl_error *err)
{
    if (!p || !o) return FL_FAIL(err, FL_EINVAL, "midpoint needs a problem and options");
    if (p->n == 0 || p->nc == 0 || 2 * p->nc > p->n)
        return FL_FAIL(err, FL_EDIM, "midpoint needs n >= 2 nc >= 2 (n=%zu nc=%zu)", p->n, p->nc);
    if (!(o->dt > 0) || !isfinite(o->dt))
        return FL_FAIL(err, FL_EINVAL, "time step must be finite and positive (got %g)", o->dt);
    if (!(p->mu >= 0) || !isfinite(p->mu) || !isfinite(p->v_found))
        return FL_FAIL(err, FL_EINVAL, "friction coefficient must be >= 0 and v_found finite");
    if (o->contact != FL_MIDPOINT_AT_MIDPOINT && o->contact != FL_MIDPOINT_IMPLICIT)
        return FL_FAIL(err, FL_EINVAL, "unknown contact placement %d", (int)o->contact);
    if (o->solver != FL_MIDPOINT_LOCAL_GS && o->solver != FL_MIDPOINT_LOCAL_ENUM)
        return FL_FAIL(err, FL_EINVAL, "unknown local solver %d", (int)o->solver);
    if (o->solver == FL_MIDPOINT_LOCAL_ENUM && (p->nc > o->enum_max_contacts || p->nc > 8))
        return FL_FAIL(err, FL_EINVAL, "enumeration refused for %zu contacts (limit %zu)", p->nc,
                       o->enum_max_contacts);
    return FL_OK;
}

static fl_status check_problem(const fl_midpoint_problem *p, const fl_midpoint_options *o,
                               int need_dense, fl_error *err)
{
    FL_TRY(fl_midpoint_check_options(p, o, err));
    if (!p->f || p->f->size != p->n || !p->Bnu || !p->Btau || p->Bnu->size1 != p->nc
        || p->Btau->size1 != p->nc || p->Bnu->size2 != p->n || p->Btau->size2 != p->n)
        return FL_FAIL(err, FL_EDIM, "load or contact rows do not match n=%zu nc=%zu", p->n, p->nc);
    FL_TRY(fl_check_finite_vector(p->f, "load", err));
    FL_TRY(fl_check_finite_matrix(p->Bnu, "normal rows", err));
    FL_TRY(fl_check_finite_matrix(p->Btau, "tangent rows", err));
    if (need_dense) {
        if (!p->Mr || !p->A || p->Mr->size1 != p->n || p->Mr->size2 != p->n
            || p->A->size1 != p->n || p->A->size2 != p->n)
            return FL_FAIL(err, FL_EDIM, "dense M_r and A must be %zu x %zu", p->n, p->n);
        FL_TRY(fl_check_finite_matrix(p->Mr, "M_r", err));
        FL_TRY(fl_check_finite_matrix(p->A, "A", err));
    }
    return FL_OK;
}

fl_status fl_midpoint_alloc(const fl_midpoint_problem *p, const fl_midpoint_options *opt,
                            fl_midpoint **out, fl_error *err)
{
    *out = NULL;
    fl_midpoint_options dflt_opt = fl_midpoint_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    FL_TRY(check_problem(p, opt, 1, err));
    size_t n = p->n, m = 2 * p->nc;
    fl_midpoint *mp = calloc(1, sizeof *mp);
    if (!mp) return FL_FAIL(err, FL_ENOMEM, "cannot allocate the midpoint stepper");
    mp->p = p;
    mp->opt = *opt;
    mp->S = fl_dense_matrix_alloc(n, n);
    mp->H = fl_dense_matrix_alloc(m, n);
    mp->Z = fl_dense_matrix_alloc(n, m);
    mp->D = fl_dense_matrix_alloc(m, m);
    mp->sols = fl_dense_matrix_alloc(64, m);
    mp->fhat = fl_dense_vector_alloc(n);
    mp->z = fl_dense_vector_alloc(n);
    mp->q = fl_dense_vector_alloc(m);
    mp->uh = fl_dense_vector_alloc(n);
    mp->w1 = fl_dense_vector_alloc(n);
    mp->w2 = fl_dense_vector_alloc(n);
    if (!mp->S || !mp->H || !mp->Z || !mp->D || !mp->sols || !mp->fhat || !mp->z || !mp->q
        || !mp->uh || !mp->w1 || !mp->w2) {
        fl_midpoint_free(mp);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate the midpoint workspaces (n=%zu)", n);
    }
    /* S = (4/dt^2) M_r + A, 002 (23) */
    double c = 4.0 / (opt->dt * opt->dt);
    gsl_matrix_memcpy(mp->S, p->A);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            *gsl_matrix_ptr(mp->S, i, j) += c * gsl_matrix_get(p->Mr, i, j);
    fl_status s = fl_dense_cholesky(mp->S, err);
    if (s != FL_OK) {
        fl_midpoint_free(mp);
        return s;
    }
    /* H: rows -nu_i (normal, library sign) and tau_i */
    for (size_t i = 0; i < p->nc; i++)
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(mp->H, 2 * i, j, -gsl_matrix_get(p->Bnu, i, j));
            gsl_matrix_set(mp->H, 2 * i + 1, j, gsl_matrix_get(p->Btau, i, j));
        }
    /* Z = S^-1 H^T, D = H Z */
    for (size_t k = 0; k < m; k++) {
        gsl_vector_view zc = gsl_matrix_column(mp->Z, k);
        gsl_vector_const_view hr = gsl_matrix_const_row(mp->H, k);
        gsl_vector_memcpy(&zc.vector, &hr.vector);
        gsl_linalg_cholesky_svx(mp->S, &zc.vector);
    }
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, mp->H, mp->Z, 0.0, mp->D);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (gsl_matrix_get(mp->D, i, j) + gsl_matrix_get(mp->D, j, i));
            gsl_matrix_set(mp->D, i, j, a);
            gsl_matrix_set(mp->D, j, i, a);
        }
    *out = mp;
    return FL_OK;
}

fl_status fl_midpoint_half_step(const fl_midpoint *mp, const gsl_vector *y, gsl_vector *uh)
{
    if (y->size != mp->D->size1 || uh->size != mp->p->n) return FL_EDIM;
    gsl_vector_memcpy(uh, mp->z);
    gsl_blas_dgemv(CblasNoTrans, 1.0, mp->Z, y, 1.0, uh);
    return FL_OK;
}

/* One step of 002 (20)-(23). */
fl_status fl_midpoint_step(fl_midpoint *mp, fl_midpoint_state *st, fl_midpoint_result *res,
                           fl_error *err)
{
    double t0 = fl_clock_now();
    const fl_midpoint_problem *p = mp->p;
    size_t n = p->n, nc = p->nc;
    fl_midpoint_result r;
    memset(&r, 0, sizeof r);
    if (!st || st->n != n || st->nc != nc)
        return FL_FAIL(err, FL_EDIM, "state does not match the problem");
    double dt = mp->opt.dt, c4 = 4.0 / (dt * dt), c2 = 2.0 / dt;
    /* fhat = f + (4/dt^2) M_r u^k + (2/dt) M_r v^k */
    gsl_vector_memcpy(mp->w1, st->u);
    gsl_vector_scale(mp->w1, c4);
    gsl_blas_daxpy(c2, st->v, mp->w1);
    gsl_vector_memcpy(mp->fhat, p->f);
    gsl_blas_dsymv(CblasUpper, 1.0, p->Mr, mp->w1, 1.0, mp->fhat);
    /* z = S^-1 fhat;  q = H z - c */
    gsl_vector_memcpy(mp->z, mp->fhat);
    gsl_linalg_cholesky_svx(mp->S, mp->z);
    gsl_blas_dgemv(CblasNoTrans, 1.0, mp->H, mp->z, 0.0, mp->q);
    for (size_t i = 0; i < nc; i++) {
        gsl_vector_const_view nu = gsl_matrix_const_row(p->Bnu, i), tau = gsl_matrix_const_row(p->Btau, i);
        double nu_u, tau_u, tau_v;
        gsl_blas_ddot(&nu.vector, st->u, &nu_u);
        gsl_blas_ddot(&tau.vector, st->u, &tau_u);
        gsl_blas_ddot(&tau.vector, st->v, &tau_v);
        if (mp->opt.contact == FL_MIDPOINT_AT_MIDPOINT) {
            *gsl_vector_ptr(mp->q, 2 * i + 1) -= tau_u + 0.5 * dt * p->v_found;
        } else {
            /* w_n = H_n u^{k+1/2} - H_n u^k / 2 with H_n = -nu^T */
            *gsl_vector_ptr(mp->q, 2 * i) += 0.5 * nu_u;
            *gsl_vector_ptr(mp->q, 2 * i + 1) -= tau_u + 0.25 * dt * (tau_v + p->v_found);
        }
    }
    fl_status s;
    if (mp->opt.solver == FL_MIDPOINT_LOCAL_ENUM) {
        s = fl_midpoint_local_enumerate(mp->D, mp->q, p->mu, mp->sols, &mp->nsols, err);
        if (s != FL_OK) return s;
        r.iterations = (int)((size_t)1 << (2 * nc));
        r.nsolutions = mp->nsols;
        if (mp->nsols == 0) return FL_FAIL(err, FL_ENOCONV, "enumeration found no solution");
        gsl_vector_view first = gsl_matrix_row(mp->sols, 0);
        gsl_vector_memcpy(st->y, &first.vector);
        r.status = mp->nsols > 1 ? FL_WNOTUNIQUE : FL_OK;
    } else {
        s = fl_midpoint_local_gs(mp->D, mp->q, p->mu, mp->opt.tol, mp->opt.max_iter, st->y,
                                 &r.iterations, err);
        if (s < 0) return s;
        r.status = s;
        r.nsolutions = 1;
        mp->nsols = 0;
    }
    r.residual = fl_midpoint_local_residual(mp->D, mp->q, p->mu, st->y);
    /* u^{k+1/2} = z + Z y; v^{k+1/2} = (2/dt)(u^{k+1/2} - u^k) */
    fl_midpoint_half_step(mp, st->y, mp->uh);
    gsl_vector_memcpy(mp->w1, mp->uh);
    gsl_vector_sub(mp->w1, st->u);
    gsl_vector_scale(mp->w1, c2);                 /* w1 = v^{k+1/2} */
    /* diagnostics (paper convention lambda_nu = -r_n, lambda_tau = r_t) */
    for (size_t i = 0; i < nc; i++) {
        gsl_vector_const_view nu = gsl_matrix_const_row(p->Bnu, i), tau = gsl_matrix_const_row(p->Btau, i);
        double nv, tv;
        gsl_blas_ddot(&nu.vector, mp->w1, &nv);
        gsl_blas_ddot(&tau.vector, mp->w1, &tv);
        double lam_nu = -gsl_vector_get(st->y, 2 * i), lam_tau = gsl_vector_get(st->y, 2 * i + 1);
        r.work_normal += lam_nu * nv * dt;        /* lambda_nu nu^T (u^{k+1} - u^k) */
        r.work_friction += dt * lam_tau * tv;
        r.persistency += fabs(lam_nu * nv);
    }
    /* u^{k+1} = 2 u^{k+1/2} - u^k, v^{k+1} = 2 v^{k+1/2} - v^k */
    gsl_vector_scale(st->u, -1.0);
    gsl_blas_daxpy(2.0, mp->uh, st->u);
    gsl_vector_scale(st->v, -1.0);
    gsl_blas_daxpy(2.0, mp->w1, st->v);
    st->t += dt;
    r.energy = fl_midpoint_energy(p, st->u, st->v);
    if (!isfinite(r.energy)) r.status = FL_ENONFINITE;
    r.seconds = fl_clock_now() - t0;
    if (res) *res = r;
    return r.status < 0 ? FL_FAIL(err, r.status, "non-finite state after the step") : r.status;
}

/* 002 Lemma 4.1 (static problem (12)) as an LCP, projected Gauss-Seidel. */
fl_status fl_midpoint_lemma41(const gsl_matrix *A, const gsl_vector *f, const gsl_matrix *Bnu,
                              const gsl_vector *uperp, gsl_vector *uN, gsl_vector *lam_nu,
                              fl_error *err)
{
    size_t n = A->size1, nc = Bnu->size1;
    if (A->size2 != n || f->size != n || Bnu->size2 != n || uperp->size != n || uN->size != n
        || lam_nu->size != nc || nc == 0)
        return FL_FAIL(err, FL_EDIM, "Lemma 4.1: dimensions do not match");
    gsl_matrix *AB = fl_dense_matrix_alloc(n, nc), *ANN = fl_dense_matrix_alloc(nc, nc);
    gsl_vector *r = fl_dense_vector_alloc(n), *b = fl_dense_vector_alloc(nc), *y = fl_dense_vector_calloc(nc);
    if (!AB || !ANN || !r || !b || !y) {
        gsl_matrix_free(AB); gsl_matrix_free(ANN);
        gsl_vector_free(r); gsl_vector_free(b); gsl_vector_free(y);
        return FL_FAIL(err, FL_ENOMEM, "Lemma 4.1: out of memory");
    }
    /* A_NN = B A B^T, b = B (f - A u_perp) */
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, A, Bnu, 0.0, AB);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Bnu, AB, 0.0, ANN);
    gsl_vector_memcpy(r, f);
    gsl_blas_dgemv(CblasNoTrans, -1.0, A, uperp, 1.0, r);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Bnu, r, 0.0, b);
    fl_status s = FL_WMAXITER;
    for (size_t i = 0; i < nc; i++)
        if (!(gsl_matrix_get(ANN, i, i) > 0)) s = FL_FAIL(err, FL_ENOTSPD, "A_NN has a non-positive diagonal");
    for (int it = 0; it < 100000 && s == FL_WMAXITER; it++) {
        double change = 0, ymax = 0;
        for (size_t i = 0; i < nc; i++) {
            double zi = gsl_vector_get(b, i);
            for (size_t j = 0; j < nc; j++) zi += gsl_matrix_get(ANN, i, j) * gsl_vector_get(y, j);
            double yi = gsl_vector_get(y, i);
            double ni = fmax(0.0, yi - zi / gsl_matrix_get(ANN, i, i));
            change = fmax(change, fabs(ni - yi));
            ymax = fmax(ymax, ni);
            gsl_vector_set(y, i, ni);
        }
        if (change <= 1e-15 * ymax) s = FL_OK;
    }
    if (s >= 0) {
        /* u_N = -B^T y, lambda_nu = -z = -(b + A_NN y) */
        gsl_blas_dgemv(CblasTrans, -1.0, Bnu, y, 0.0, uN);
        gsl_vector_memcpy(lam_nu, b);
        gsl_blas_dgemv(CblasNoTrans, 1.0, ANN, y, 1.0, lam_nu);
        gsl_vector_scale(lam_nu, -1.0);
        for (size_t i = 0; i < nc; i++)   /* exact complementarity: z = 0 where y > 0 */
            if (gsl_vector_get(y, i) > 0) gsl_vector_set(lam_nu, i, 0.0);
    }
    gsl_matrix_free(AB); gsl_matrix_free(ANN);
    gsl_vector_free(r); gsl_vector_free(b); gsl_vector_free(y);
    return s;
}

fl_status fl_midpoint_static(const fl_midpoint_problem *p, gsl_vector *u, fl_error *err)
{
    fl_midpoint_options o = fl_midpoint_options_default();
    FL_TRY(check_problem(p, &o, 1, err));
    if (u->size != p->n) return FL_FAIL(err, FL_EDIM, "static: u must have n entries");
    size_t n = p->n, m = 2 * p->nc;
    gsl_matrix *L = fl_dense_matrix_alloc(n, n), *Z = fl_dense_matrix_alloc(n, m), *H = fl_dense_matrix_alloc(m, n);
    gsl_matrix *D = fl_dense_matrix_alloc(m, m);
    gsl_vector *z = fl_dense_vector_alloc(n), *q = fl_dense_vector_alloc(m), *y = fl_dense_vector_calloc(m);
    fl_status s = FL_OK;
    if (!L || !Z || !H || !D || !z || !q || !y)
        s = FL_FAIL(err, FL_ENOMEM, "static problem: out of memory for n = %zu", n);
    if (s == FL_OK) gsl_matrix_memcpy(L, p->A);
    if (s == FL_OK) s = fl_dense_cholesky(L, err);
    if (s == FL_OK) {
        for (size_t i = 0; i < p->nc; i++)
            for (size_t j = 0; j < n; j++) {
                gsl_matrix_set(H, 2 * i, j, -gsl_matrix_get(p->Bnu, i, j));
                gsl_matrix_set(H, 2 * i + 1, j, gsl_matrix_get(p->Btau, i, j));
            }
        for (size_t k = 0; k < m; k++) {
            gsl_vector_view zc = gsl_matrix_column(Z, k);
            gsl_vector_const_view hr = gsl_matrix_const_row(H, k);
            gsl_vector_memcpy(&zc.vector, &hr.vector);
            gsl_linalg_cholesky_svx(L, &zc.vector);
        }
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, H, Z, 0.0, D);
        gsl_vector_memcpy(z, p->f);
        gsl_linalg_cholesky_svx(L, z);
        gsl_blas_dgemv(CblasNoTrans, 1.0, H, z, 0.0, q);
        int it;
        s = fl_midpoint_local_gs(D, q, 0.0, 1e-14, 100000, y, &it, err);
        if (s >= 0) {
            gsl_vector_memcpy(u, z);
            gsl_blas_dgemv(CblasNoTrans, 1.0, Z, y, 1.0, u);
        }
    }
    gsl_matrix_free(L); gsl_matrix_free(Z); gsl_matrix_free(H); gsl_matrix_free(D);
    gsl_vector_free(z); gsl_vector_free(q); gsl_vector_free(y);
    return s;
}

void fl_midpoint_block_free(fl_midpoint_block *b)
{
    if (!b) return;
    fl_fe2d_mesh_free(b->mesh);
    fl_fe2d_dofmap_free(b->map);
    free(b->cnodes);
    gsl_matrix_free(b->Mr);
    gsl_matrix_free(b->A);
    gsl_matrix_free(b->Bnu);
    gsl_matrix_free(b->Btau);
    gsl_vector_free(b->f);
    free(b);
}

fl_status fl_midpoint_block_alloc(const fl_midpoint_block_params *bp, fl_midpoint_block **out,
                                  fl_error *err)
{
    *out = NULL;
    fl_midpoint_block *b = calloc(1, sizeof *b);
    if (!b) return FL_FAIL(err, FL_ENOMEM, "cannot allocate a block");
    fl_status s;
    gsl_matrix *Afull = NULL, *Mfull = NULL, *R = NULL, *Bn_full = NULL, *Bt_full = NULL, *Mr_full = NULL;
    fl_redistribution *rd = NULL;
    int *top = NULL, *fix = NULL;
    double *val = NULL, *nrm = NULL, *ffull = NULL;
    size_t ntop = 0;
    s = fl_fe2d_mesh_rect(0, 0, bp->lx, bp->ly, bp->nx, bp->ny, bp->pattern, &b->mesh, err);
    if (s) goto done;
    size_t nfull = 2 * b->mesh->nnodes;
    if ((s = fl_fe2d_assemble_dense(b->mesh, &bp->mat, FL_FE2D_STIFFNESS, &Afull, err))) goto done;
    if ((s = fl_fe2d_assemble_dense(b->mesh, &bp->mat, bp->lumped ? FL_FE2D_MASS_LUMPED : FL_FE2D_MASS,
                                    &Mfull, err))) goto done;
    if ((s = fl_fe2d_affine_fields(b->mesh, &R, err))) goto done;
    double tol = 1e-9 * bp->ly;
    if ((s = fl_fe2d_nodes_on_line(b->mesh, 1, bp->ly, tol, &ntop, &top, err))) goto done;
    if ((s = fl_fe2d_nodes_on_line(b->mesh, 1, 0.0, tol, &b->nc, &b->cnodes, err))) goto done;
    fix = malloc(2 * ntop * sizeof(int));
    val = malloc(2 * ntop * sizeof(double));
    nrm = calloc(2 * b->nc, sizeof(double));
    ffull = calloc(nfull, sizeof(double));
    if (!fix || !val || !nrm || !ffull) { s = FL_FAIL(err, FL_ENOMEM, "block workspaces"); goto done; }
    for (size_t i = 0; i < ntop; i++) {
        fix[2 * i] = 2 * top[i];
        val[2 * i] = bp->top_ux;
        fix[2 * i + 1] = 2 * top[i] + 1;
        val[2 * i + 1] = bp->top_uy;
    }
    for (size_t i = 0; i < b->nc; i++) nrm[2 * i + 1] = -1.0;
    if ((s = fl_fe2d_dofmap_alloc(nfull, 2 * ntop, fix, val, &b->map, err))) goto done;
    /* contact rows on the full dofs (for the redistribution), then reduced */
    if ((s = fl_fe2d_contact_vectors(b->mesh, NULL, b->nc, b->cnodes, nrm, &Bn_full, &Bt_full, err))) goto done;
    if ((s = fl_fe2d_contact_vectors(b->mesh, b->map, b->nc, b->cnodes, nrm, &b->Bnu, &b->Btau, err))) goto done;
    if ((s = fl_redistribution_alloc(Mfull, bp->redist == FL_REDIST_NONE ? NULL : R, Bn_full, Bt_full,
                                     bp->redist, &rd, err))) goto done;
    if ((s = fl_redistribution_dense(rd, Mfull, &Mr_full, err))) goto done;
    /* load: body force (0, -rho g) integrated with the consistent mass, then
     * elimination: f_f - A_fd u_d */
    gsl_vector *g = fl_dense_vector_calloc(nfull), *fm = fl_dense_vector_calloc(nfull);
    b->f = fl_dense_vector_alloc(b->map->nfree);
    gsl_vector *shift = fl_dense_vector_alloc(b->map->nfree);
    if (!g || !fm || !b->f || !shift) {
        gsl_vector_free(g); gsl_vector_free(fm); gsl_vector_free(shift);
        s = FL_FAIL(err, FL_ENOMEM, "FE block: out of memory for %zu nodes", b->mesh->nnodes);
        goto done;
    }
    for (size_t p = 0; p < b->mesh->nnodes; p++) gsl_vector_set(g, 2 * p + 1, -bp->gravity);
    gsl_blas_dgemv(CblasNoTrans, 1.0, Mfull, g, 0.0, fm);
    fl_fe2d_restrict(b->map, fm->data, b->f->data);
    gsl_vector_free(g);
    gsl_vector_free(fm);
    s = fl_fe2d_reduce_matrix(Afull, b->map, &b->A, shift, err);
    if (s == FL_OK) gsl_vector_add(b->f, shift);
    gsl_vector_free(shift);
    if (s) goto done;
    if ((s = fl_fe2d_reduce_matrix(Mr_full, b->map, &b->Mr, NULL, err))) goto done;
    memset(&b->prob, 0, sizeof b->prob);
    b->prob.n = b->map->nfree;
    b->prob.nc = b->nc;
    b->prob.mu = bp->mu;
    b->prob.v_found = bp->v_found;
    b->prob.f = b->f;
    b->prob.Bnu = b->Bnu;
    b->prob.Btau = b->Btau;
    b->prob.Mr = b->Mr;
    b->prob.A = b->A;
done:
    gsl_matrix_free(Afull); gsl_matrix_free(Mfull); gsl_matrix_free(R);
    gsl_matrix_free(Bn_full); gsl_matrix_free(Bt_full); gsl_matrix_free(Mr_full);
    fl_redistribution_free(rd);
    free(top); free(fix); free(val); free(nrm); free(ffull);
    if (s != FL_OK) fl_midpoint_block_free(b);
    else *out = b;
    return s;
}
