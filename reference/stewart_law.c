/* stewart_law.c — Stewart's formulation P5 (001 §6.2) as the Stewart–Trinkle
 * LCP, solved by Lemke's method.  See stewart_law.h and proofs/stewart_lcp.md
 * (§n below refers to that derivation). */
#include "stewart_law.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_clock.h"
#include "fl_scalar.h"


fl_stewart_options fl_stewart_options_default(void)
{
    fl_stewart_options o;
    o.k = 8;
    o.lemke = fl_lemke_options_default();
    o.coulomb_tol = 1e-8;
    return o;
}

size_t fl_stewart_directions(size_t dim, const fl_stewart_options *opt)
{
    if (dim == 2) return 2;
    return opt ? opt->k : fl_stewart_options_default().k;
}

size_t fl_stewart_lcp_size(const fl_stewart_problem *p, const fl_stewart_options *opt)
{
    return p->nc * (2 + fl_stewart_directions(p->dim, opt));
}

/* Component i (tangent coordinates) of friction direction j of K:
 * 2D: d_0 = +t, d_1 = -t (the exact two directions);
 * 3D: d_j = cos(2 pi j/K) t_1 + sin(2 pi j/K) t_2 (proofs/stewart_lcp.md §1). */
double fl_stewart_direction(size_t dim, size_t K, size_t j, size_t i)
{
    if (dim == 2) return j == 0 ? 1.0 : -1.0;
    double a = 2.0 * FL_PI * (double)j / (double)K;
    return i == 0 ? cos(a) : sin(a);
}

fl_stewart_result *fl_stewart_result_alloc(size_t n, size_t nc, size_t dim,
                                           const fl_stewart_options *opt)
{
    fl_stewart_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    size_t m = nc * (2 + fl_stewart_directions(dim, opt));
    r->n = n;
    r->nc = nc;
    r->dim = dim;
    r->lcp_size = m;
    r->v_plus = n ? fl_dense_vector_calloc(n) : NULL;
    r->r = n ? fl_dense_vector_calloc(n) : NULL;
    r->impulse = nc ? fl_dense_vector_calloc(dim * nc) : NULL;
    r->z = m ? fl_dense_vector_calloc(m) : NULL;
    if (!r->v_plus || !r->r || (nc && (!r->impulse || !r->z))) {
        fl_stewart_result_free(r);
        return NULL;
    }
    return r;
}

void fl_stewart_result_free(fl_stewart_result *r)
{
    if (!r) return;
    if (r->v_plus) gsl_vector_free(r->v_plus);
    if (r->r) gsl_vector_free(r->r);
    if (r->impulse) gsl_vector_free(r->impulse);
    if (r->z) gsl_vector_free(r->z);
    free(r);
}

fl_status fl_stewart_problem_check(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                   fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "Stewart problem is NULL");
    if (p->dim != 2 && p->dim != 3)
        return FL_FAIL(err, FL_EINVAL, "contact dimension %zu, expected 2 or 3", p->dim);
    if (p->dim == 3 && fl_stewart_directions(3, opt) < 3)
        return FL_FAIL(err, FL_EINVAL, "%zu friction directions in 3D, need at least 3",
                       fl_stewart_directions(3, opt));
    if (opt && !(opt->coulomb_tol > 0.0))
        return FL_FAIL(err, FL_EINVAL, "Coulomb tolerance must be positive");
    if (p->n == 0) return FL_FAIL(err, FL_EDIM, "system with no degree of freedom");
    if (!(p->h > 0.0) || !isfinite(p->h))
        return FL_FAIL(err, FL_EINVAL, "time step h = %g, expected finite and > 0", p->h);
    if (!p->M && !p->Ms) return FL_FAIL(err, FL_EINVAL, "no mass matrix given");
    if (p->M) {
        if (p->M->size1 != p->n || p->M->size2 != p->n)
            return FL_FAIL(err, FL_EDIM, "mass matrix is %zux%zu, expected %zux%zu",
                           p->M->size1, p->M->size2, p->n, p->n);
        FL_TRY(fl_check_finite_matrix(p->M, "mass matrix", err));
    }
    if (!p->v || p->v->size != p->n)
        return FL_FAIL(err, FL_EDIM, "velocity v^- must have length %zu", p->n);
    FL_TRY(fl_check_finite_vector(p->v, "velocity v^-", err));
    if (p->f) {
        if (p->f->size != p->n)
            return FL_FAIL(err, FL_EDIM, "force f has length %zu, expected %zu", p->f->size, p->n);
        FL_TRY(fl_check_finite_vector(p->f, "force f", err));
    }
    if (p->nc == 0) return FL_OK;
    if (!p->H && !p->Hs) return FL_FAIL(err, FL_EINVAL, "no contact Jacobian H given");
    if (p->H) {
        if (p->H->size1 != p->dim * p->nc || p->H->size2 != p->n)
            return FL_FAIL(err, FL_EDIM, "contact Jacobian is %zux%zu, expected %zux%zu",
                           p->H->size1, p->H->size2, p->dim * p->nc, p->n);
        FL_TRY(fl_check_finite_matrix(p->H, "contact Jacobian H", err));
    }
    if (p->gap) {
        if (p->gap->size != p->nc)
            return FL_FAIL(err, FL_EDIM, "gap vector has length %zu, expected %zu",
                           p->gap->size, p->nc);
        FL_TRY(fl_check_finite_vector(p->gap, "gap", err));
    }
    if (!p->mu) return FL_FAIL(err, FL_EINVAL, "friction coefficients missing");
    for (size_t c = 0; c < p->nc; c++)
        if (!(p->mu[c] >= 0.0) || !isfinite(p->mu[c]))
            return FL_FAIL(err, FL_EINVAL, "friction coefficient mu[%zu] = %g, expected finite >= 0",
                           c, p->mu[c]);
    return FL_OK;
}

/* N (n x nc) and D (n x nc K): columns are the real-world normal and the
 * friction directions mapped to generalized forces (proofs/stewart_lcp.md §1):
 * N e_c = H_{n,c}^T,   D e_{cK+j} = H_{t,c}^T d_j. */
static void normal_and_directions(const fl_stewart_problem *p, size_t K, gsl_matrix *N,
                                  gsl_matrix *D)
{
    size_t dim = p->dim;
    for (size_t c = 0; c < p->nc; c++)
        for (size_t a = 0; a < p->n; a++) {
            gsl_matrix_set(N, a, c, gsl_matrix_get(p->H, dim * c, a));
            for (size_t j = 0; j < K; j++) {
                double s = 0.0;
                for (size_t i = 0; i + 1 < dim; i++)
                    s += fl_stewart_direction(dim, K, j, i) * gsl_matrix_get(p->H, dim * c + 1 + i, a);
                gsl_matrix_set(D, a, c * K + j, s);
            }
        }
}

/* The Stewart–Trinkle LCP, proofs/stewart_lcp.md §2 (Stewart [26] for P5). */
fl_status fl_stewart_lcp_build(const fl_stewart_problem *p, const fl_stewart_options *opt,
                               gsl_matrix *A, gsl_vector *b, fl_error *err)
{
    FL_TRY(fl_stewart_problem_check(p, opt, err));
    if (!p->M || (p->nc && !p->H))
        return FL_FAIL(err, FL_EINVAL, "the reference needs the dense M and H");
    size_t n = p->n, nc = p->nc, K = fl_stewart_directions(p->dim, opt);
    size_t m = nc * (K + 2), nb = nc * K;
    if (m == 0) return FL_FAIL(err, FL_EDIM, "no contact: the LCP is empty");
    if (!A || !b || A->size1 != m || A->size2 != m || b->size != m)
        return FL_FAIL(err, FL_EDIM, "Stewart LCP storage must be %zux%zu and %zu", m, m, m);
    fl_spd *spd;
    FL_TRY(fl_spd_alloc(p->M, &spd, err));
    gsl_matrix *N = fl_dense_matrix_alloc(n, nc), *D = fl_dense_matrix_alloc(n, nb);
    gsl_matrix *WN = fl_dense_matrix_alloc(n, nc), *WD = fl_dense_matrix_alloc(n, nb);
    gsl_vector *vfree = fl_dense_vector_alloc(n);
    fl_status s = FL_OK;
    if (!N || !D || !WN || !WD || !vfree) {
        s = FL_FAIL(err, FL_ENOMEM, "Stewart LCP workspace");
        goto done;
    }
    normal_and_directions(p, K, N, D);
    fl_spd_solve_matrix(spd, N, WN);                   /* W N = M^-1 N */
    fl_spd_solve_matrix(spd, D, WD);                   /* W D = M^-1 D */
    /* v_free = v^- + h W f */
    gsl_vector_memcpy(vfree, p->v);
    if (p->f) {
        gsl_vector *Wf = fl_dense_vector_alloc(n);
        if (!Wf) {
            s = FL_FAIL(err, FL_ENOMEM, "Stewart LCP workspace");
            goto done;
        }
        fl_spd_solve(spd, p->f, Wf);
        gsl_blas_daxpy(p->h, Wf, vfree);
        gsl_vector_free(Wf);
    }
    gsl_matrix_set_zero(A);
    gsl_matrix_view App = gsl_matrix_submatrix(A, 0, 0, nc, nc);
    gsl_matrix_view Apb = gsl_matrix_submatrix(A, 0, nc, nc, nb);
    gsl_matrix_view Abp = gsl_matrix_submatrix(A, nc, 0, nb, nc);
    gsl_matrix_view Abb = gsl_matrix_submatrix(A, nc, nc, nb, nb);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, N, WN, 0.0, &App.matrix);   /* N^T W N */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, N, WD, 0.0, &Apb.matrix);   /* N^T W D */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, D, WN, 0.0, &Abp.matrix);   /* D^T W N */
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, D, WD, 0.0, &Abb.matrix);   /* D^T W D */
    for (size_t c = 0; c < nc; c++) {
        size_t lam = nc + nb + c;
        for (size_t j = 0; j < K; j++) {
            gsl_matrix_set(A, nc + c * K + j, lam, 1.0);    /* E      */
            gsl_matrix_set(A, lam, nc + c * K + j, -1.0);   /* -E^T   */
        }
        gsl_matrix_set(A, lam, c, p->mu[c]);                /* mu     */
    }
    gsl_vector_view bp = gsl_vector_subvector(b, 0, nc);
    gsl_vector_view bb = gsl_vector_subvector(b, nc, nb);
    gsl_blas_dgemv(CblasTrans, 1.0, N, vfree, 0.0, &bp.vector);              /* N^T v_free */
    gsl_blas_dgemv(CblasTrans, 1.0, D, vfree, 0.0, &bb.vector);              /* D^T v_free */
    for (size_t c = 0; c < nc; c++) {
        if (p->gap) gsl_vector_set(b, c, gsl_vector_get(b, c) + gsl_vector_get(p->gap, c) / p->h);
        gsl_vector_set(b, nc + nb + c, 0.0);
    }
done:
    fl_spd_free(spd);
    gsl_matrix_free(N);
    gsl_matrix_free(D);
    gsl_matrix_free(WN);
    gsl_matrix_free(WD);
    gsl_vector_free(vfree);
    return s;
}

/* Impulses from z (proofs/stewart_lcp.md §1): P~_c = (p_c, sum_j beta_cj d_j). */
static void impulses_from_z(size_t dim, size_t nc, size_t K, const gsl_vector *z,
                            gsl_vector *impulse)
{
    for (size_t c = 0; c < nc; c++) {
        gsl_vector_set(impulse, dim * c, gsl_vector_get(z, c));
        for (size_t i = 0; i + 1 < dim; i++) {
            double s = 0.0;
            for (size_t j = 0; j < K; j++)
                s += gsl_vector_get(z, nc + c * K + j) * fl_stewart_direction(dim, K, j, i);
            gsl_vector_set(impulse, dim * c + 1 + i, s);
        }
    }
}

fl_status fl_stewart_lcp_recover(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                 const gsl_vector *z, gsl_vector *v_plus,
                                 gsl_vector *impulse, gsl_vector *r, fl_error *err)
{
    FL_TRY(fl_stewart_problem_check(p, opt, err));
    if (!p->M || (p->nc && !p->H))
        return FL_FAIL(err, FL_EINVAL, "the reference needs the dense M and H");
    size_t n = p->n, nc = p->nc, dim = p->dim, K = fl_stewart_directions(dim, opt);
    if (!v_plus || v_plus->size != n || (r && r->size != n) ||
        (nc && (!z || z->size != nc * (K + 2) || !impulse || impulse->size != dim * nc)))
        return FL_FAIL(err, FL_EDIM, "Stewart recovery: wrong output or z sizes");
    fl_spd *spd;
    FL_TRY(fl_spd_alloc(p->M, &spd, err));
    gsl_vector *g = fl_dense_vector_calloc(n);
    if (!g) {
        fl_spd_free(spd);
        return FL_FAIL(err, FL_ENOMEM, "Stewart recovery workspace");
    }
    if (nc) {
        impulses_from_z(dim, nc, K, z, impulse);
        gsl_blas_dgemv(CblasTrans, 1.0, p->H, impulse, 0.0, g);   /* r = H^T P~ (001 (6.1)) */
    }
    if (r) gsl_vector_memcpy(r, g);
    if (p->f) gsl_blas_daxpy(p->h, p->f, g);                      /* h f + r */
    fl_spd_solve(spd, g, v_plus);                                 /* W (h f + r) */
    gsl_vector_add(v_plus, p->v);                                 /* v^+ = v^- + ... */
    gsl_vector_free(g);
    fl_spd_free(spd);
    return FL_OK;
}

/* Coulomb on real-world impulses (001 §6.2, P5); see stewart_law.h. */
fl_status fl_stewart_coulomb_violation(const fl_stewart_problem *p,
                                       const fl_stewart_options *opt,
                                       const gsl_vector *v_plus, const gsl_vector *impulse,
                                       double *violation, fl_error *err)
{
    FL_TRY(fl_stewart_problem_check(p, opt, err));
    if (!violation) return FL_FAIL(err, FL_EINVAL, "no output for the violation");
    *violation = 0.0;
    if (p->nc == 0) return FL_OK;
    if (!p->H) return FL_FAIL(err, FL_EINVAL, "the Coulomb check needs the dense H");
    if (!v_plus || v_plus->size != p->n)
        return FL_FAIL(err, FL_EDIM, "Coulomb check: v^+ must have length %zu", p->n);
    gsl_vector *u = fl_dense_vector_alloc(p->dim * p->nc);
    if (!u) return FL_FAIL(err, FL_ENOMEM, "Coulomb check workspace");
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->H, v_plus, 0.0, u);      /* u = H v^+ */
    fl_status s = fl_stewart_coulomb_violation_local(p, opt, u, impulse, violation, err);
    gsl_vector_free(u);
    return s;
}

fl_status fl_stewart_coulomb_violation_local(const fl_stewart_problem *p,
                                             const fl_stewart_options *opt,
                                             const gsl_vector *u, const gsl_vector *impulse,
                                             double *violation, fl_error *err)
{
    FL_TRY(fl_stewart_problem_check(p, opt, err));
    size_t nc = p->nc, dim = p->dim, K = fl_stewart_directions(dim, opt);
    if (!violation) return FL_FAIL(err, FL_EINVAL, "no output for the violation");
    *violation = 0.0;
    if (nc == 0) return FL_OK;
    if (!u || u->size != dim * nc || !impulse || impulse->size != dim * nc)
        return FL_FAIL(err, FL_EDIM, "Coulomb check: velocities and impulses must have length %zu",
                       dim * nc);
    double pscale = 1.0, uscale = 1.0;
    for (size_t i = 0; i < dim * nc; i++) {
        pscale = fmax(pscale, 1.0 + fabs(gsl_vector_get(impulse, i)));
        uscale = fmax(uscale, 1.0 + fabs(gsl_vector_get(u, i)));
    }
    if (p->gap)
        for (size_t c = 0; c < nc; c++)
            uscale = fmax(uscale, 1.0 + fabs(gsl_vector_get(p->gap, c)) / p->h);
    double worst = 0.0;
    for (size_t c = 0; c < nc; c++) {
        double pn = gsl_vector_get(impulse, dim * c), mu = p->mu[c];
        double un = gsl_vector_get(u, dim * c) + (p->gap ? gsl_vector_get(p->gap, c) / p->h : 0.0);
        double pt[2] = {0, 0}, ut[2] = {0, 0};
        for (size_t i = 0; i + 1 < dim; i++) {
            pt[i] = gsl_vector_get(impulse, dim * c + 1 + i);
            ut[i] = gsl_vector_get(u, dim * c + 1 + i);
        }
        double e = fmax(0.0, -pn) / pscale;                          /* p >= 0 */
        e = fmax(e, fmax(0.0, -un) / uscale);                        /* u_n + gap/h >= 0 */
        e = fmax(e, fabs(pn * un) / (pscale * uscale));              /* complementarity */
        double cone;                                                 /* P~_t in mu p C */
        if (dim == 2) {
            cone = fabs(pt[0]) - mu * pn;
        } else {
            cone = -INFINITY;
            for (size_t i = 0; i < K; i++) {
                double a = (2.0 * (double)i + 1.0) * FL_PI / (double)K;
                cone = fmax(cone, pt[0] * cos(a) + pt[1] * sin(a) - mu * pn * cos(FL_PI / (double)K));
            }
        }
        e = fmax(e, fmax(0.0, cone) / pscale);
        double smax = -INFINITY, ptut = 0.0;                         /* maximal dissipation */
        for (size_t j = 0; j < K; j++) {
            double dv = 0.0;
            for (size_t i = 0; i + 1 < dim; i++) dv += fl_stewart_direction(dim, K, j, i) * ut[i];
            smax = fmax(smax, -dv);
        }
        for (size_t i = 0; i + 1 < dim; i++) ptut += pt[i] * ut[i];
        e = fmax(e, fabs(ptut + mu * pn * smax) / (pscale * uscale));
        if (!(e <= worst)) worst = e;
    }
    *violation = worst;
    return FL_OK;
}

/* Shared tail of both implementations once z is known; both call it with
 * the reference recovery/check so the results are computed identically. */
static fl_status finish_step(const fl_stewart_problem *p, const fl_stewart_options *o,
                             fl_stewart_result *res, fl_status s, fl_error *err)
{
    if (s == FL_OK) {
        fl_status c = fl_stewart_coulomb_violation(p, o, res->v_plus, res->impulse,
                                                   &res->coulomb, err);
        if (c != FL_OK) return c;
        if (!(res->coulomb <= o->coulomb_tol))
            s = FL_FAIL(err, FL_ENOCONV, "Stewart step violates Coulomb's law by %g (tol %g)",
                        res->coulomb, o->coulomb_tol);
    }
    return s;
}

/* One step of P5 (001 §6.2) by the Stewart–Trinkle LCP and Lemke. */
fl_status fl_stewart_step(const fl_stewart_problem *p, const fl_stewart_options *opt,
                          fl_stewart_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_stewart_options o = opt ? *opt : fl_stewart_options_default();
    fl_status s = fl_stewart_problem_check(p, &o, err);
    if (s == FL_OK && (!res || res->n != p->n || res->nc != p->nc || res->dim != p->dim ||
                       res->lcp_size != fl_stewart_lcp_size(p, &o)))
        s = FL_FAIL(err, FL_EDIM, "result was allocated for another problem size");
    if (s == FL_OK && (!p->M || (p->nc && !p->H)))
        s = FL_FAIL(err, FL_EINVAL, "the reference needs the dense M and H");
    if (s != FL_OK) {
        if (res) res->status = s;
        return s;
    }
    res->iterations = 0;
    res->residual = 0.0;
    res->coulomb = 0.0;
    size_t m = res->lcp_size;
    if (m == 0) {                                     /* no contact: v^+ = v_free */
        s = fl_stewart_lcp_recover(p, &o, NULL, res->v_plus, NULL, res->r, err);
        res->status = s;
        res->seconds = fl_clock_now() - t0;
        return s;
    }
    gsl_matrix *A = fl_dense_matrix_alloc(m, m);
    gsl_vector *b = fl_dense_vector_alloc(m);
    if (!A || !b) {
        s = FL_FAIL(err, FL_ENOMEM, "Stewart LCP of size %zu", m);
    } else {
        s = fl_stewart_lcp_build(p, &o, A, b, err);
        if (s == FL_OK) {
            fl_lemke_result lr;
            s = fl_lemke_solve(A, b, res->z, NULL, &o.lemke, &lr, err);
            res->iterations = lr.iterations;
            res->residual = lr.residual;
            if (s == FL_OK)
                s = fl_stewart_lcp_recover(p, &o, res->z, res->v_plus, res->impulse, res->r, err);
            s = finish_step(p, &o, res, s, err);
        }
    }
    gsl_matrix_free(A);
    gsl_vector_free(b);
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    return s;
}

/* ---- time stepping ---- */

fl_status fl_stewart_integrate(const fl_stewart_system *sys, const fl_stewart_options *opt,
                               double t0, double h, size_t steps, gsl_vector *q, gsl_vector *v,
                               fl_stewart_observer obs, void *obs_data, fl_stewart_run *run,
                               fl_error *err)
{
    double tstart = fl_clock_now();
    fl_stewart_run rr = {FL_OK, 0, 0, 0.0, 0.0, 0.0};
    fl_stewart_options o = opt ? *opt : fl_stewart_options_default();
    fl_status s = FL_OK;
    if (!sys || !sys->mass || !sys->contacts || (sys->nc && !sys->mu))
        s = FL_FAIL(err, FL_EINVAL, "system callbacks (mass, contacts) or mu missing");
    else if (!q || !v || q->size != sys->n || v->size != sys->n)
        s = FL_FAIL(err, FL_EDIM, "q and v must have length %zu", sys->n);
    else if (!(h > 0.0) || !isfinite(h) || !isfinite(t0))
        s = FL_FAIL(err, FL_EINVAL, "time step h = %g, expected finite and > 0", h);
    if (s != FL_OK) {
        rr.status = s;
        if (run) *run = rr;
        return s;
    }
    size_t n = sys->n, nc = sys->nc, dim = sys->dim;
    gsl_matrix *M = fl_dense_matrix_alloc(n, n);
    gsl_matrix *H = nc ? fl_dense_matrix_alloc(dim * nc, n) : NULL;
    gsl_vector *f = fl_dense_vector_calloc(n), *gap = nc ? fl_dense_vector_alloc(nc) : NULL;
    fl_stewart_result *res = (dim == 2 || dim == 3) ? fl_stewart_result_alloc(n, nc, dim, &o) : NULL;
    if (!M || !f || !res || (nc && (!H || !gap))) {
        s = (dim == 2 || dim == 3) ? FL_FAIL(err, FL_ENOMEM, "integration workspace")
                                   : FL_FAIL(err, FL_EINVAL, "contact dimension %zu", dim);
        goto done;
    }
    for (size_t k = 0; k < steps; k++) {
        double t = t0 + (double)k * h;
        s = sys->mass(sys->data, q, M, err);
        if (s >= 0 && sys->force) s = sys->force(sys->data, t, q, v, f, err);
        if (s >= 0 && nc) s = sys->contacts(sys->data, q, gap, H, err);
        if (s < 0) break;
        fl_stewart_problem p = {n, nc, dim, M, H, NULL, NULL, NULL, v, f, gap, sys->mu, h};
        s = fl_stewart_step(&p, &o, res, err);
        rr.iterations += res->iterations;
        rr.residual = fmax(rr.residual, res->residual);
        rr.coulomb = fmax(rr.coulomb, res->coulomb);
        if (s < 0) break;
        if (s > rr.status) rr.status = s;
        gsl_vector_memcpy(v, res->v_plus);
        gsl_blas_daxpy(h, v, q);                        /* q += h v^+ */
        rr.steps++;
        if (obs && obs(obs_data, k + 1, t + h, q, res)) break;
    }
    if (s < 0) rr.status = s;
    s = rr.status;
done:
    gsl_matrix_free(M);
    if (H) gsl_matrix_free(H);
    gsl_vector_free(f);
    if (gap) gsl_vector_free(gap);
    fl_stewart_result_free(res);
    rr.status = s;
    rr.seconds = fl_clock_now() - tstart;
    if (run) *run = rr;
    return s;
}
