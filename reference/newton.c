/* newton.c — reference semismooth Newton method on the Alart–Curnier
 * function (Alart & Curnier 1991, §3; proofs/newton.md), dense, GSL LU.
 * See newton.h for the conventions, the globalisation and the stopping
 * rule. */
#include "newton.h"
#include "newton_internal.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>

#include "fl_dense.h"
#include "local_contact.h"
#include "nsgs.h"

fl_newton_options fl_newton_options_default(void)
{
    fl_newton_options o;
    memset(&o, 0, sizeof o);
    o.max_iterations = 200;
    o.tol = 1e-10;
    o.norm = FL_RESIDUAL_NORM_Q;
    o.start = FL_NEWTON_START_ZERO;
    o.ls_sigma = 1e-4;
    o.ls_max = 20;
    o.gs_sweeps = 20;
    o.max_fallbacks = 50;
    o.stall_steps = 0;
    o.stall_ratio = 0.8;
    o.reg_max = 0.1;
    return o;
}

fl_status fl_newton_check_options(const fl_newton_options *opt, fl_error *err)
{
    if (!opt) return FL_FAIL(err, FL_EINVAL, "newton: NULL options");
    if (!(opt->tol > 0) || !isfinite(opt->tol))
        return FL_FAIL(err, FL_EINVAL, "newton: tol = %g must be positive", opt->tol);
    if (opt->max_iterations < 1)
        return FL_FAIL(err, FL_EINVAL, "newton: max_iterations = %d must be >= 1",
                       opt->max_iterations);
    if (!(opt->ls_sigma > 0 && opt->ls_sigma < 0.5))
        return FL_FAIL(err, FL_EINVAL, "newton: ls_sigma = %g not in (0, 1/2)", opt->ls_sigma);
    if (opt->ls_max < 0 || opt->ls_max > 60)
        return FL_FAIL(err, FL_EINVAL, "newton: ls_max = %d not in [0, 60]", opt->ls_max);
    if (opt->gs_sweeps < 0)
        return FL_FAIL(err, FL_EINVAL, "newton: gs_sweeps = %d must be >= 0", opt->gs_sweeps);
    if (opt->max_fallbacks < 1)
        return FL_FAIL(err, FL_EINVAL, "newton: max_fallbacks = %d must be >= 1",
                       opt->max_fallbacks);
    if (opt->stall_steps < 0)
        return FL_FAIL(err, FL_EINVAL, "newton: stall_steps = %d must be >= 0 (0: never)",
                       opt->stall_steps);
    if (!(opt->stall_ratio > 0 && opt->stall_ratio < 1))
        return FL_FAIL(err, FL_EINVAL, "newton: stall_ratio = %g not in (0, 1)",
                       opt->stall_ratio);
    if (!(opt->rho >= 0) || !isfinite(opt->rho))
        return FL_FAIL(err, FL_EINVAL, "newton: rho = %g must be >= 0 (0: automatic)", opt->rho);
    if (!(opt->reg_max >= 0) || !isfinite(opt->reg_max))
        return FL_FAIL(err, FL_EINVAL, "newton: reg_max = %g must be finite and >= 0",
                       opt->reg_max);
    if (!(opt->time_limit >= 0) || !isfinite(opt->time_limit))
        return FL_FAIL(err, FL_EINVAL, "newton: time_limit = %g must be >= 0 seconds (0: none)",
                       opt->time_limit);
    if (opt->start != FL_NEWTON_START_ZERO && opt->start != FL_NEWTON_START_WARM)
        return FL_FAIL(err, FL_EINVAL, "newton: unknown start %d", (int)opt->start);
    if ((int)opt->norm < 0 || (int)opt->norm > (int)FL_RESIDUAL_ABSOLUTE)
        return FL_FAIL(err, FL_EINVAL, "newton: unknown residual norm %d", (int)opt->norm);
    return FL_OK;
}

/* Regularised Newton step (proofs/newton.md (N6); Levenberg–Marquardt
 * damping proportional to the residual after D.-H. Li, M. Fukushima, L. Qi
 * and N. Yamashita, Comput. Optim. Appl. 28 (2004) 131–147, here with the
 * natural-map error as the residual and a cap). */
double fl_newton_regularization(const fl_newton_options *opt, double nu, double e)
{
    double c = isfinite(e) && e < opt->reg_max ? e : opt->reg_max;
    return nu * c;
}

/* (N6): the damping multiplier goes up by 10 after a failed line search,
 * down by 10 after a full step. */
double fl_newton_next_nu(double nu, int ok, double t)
{
    if (!ok) return nu * 10.0 < 1e6 ? nu * 10.0 : 1e6;
    if (t == 1.0) return nu / 10.0 > 1.0 ? nu / 10.0 : 1.0;
    return nu;
}

/* The stall test of newton.h (stall_steps, stall_ratio): the error e of
 * step it against the reference (e_ref, it_ref), which moves to (e, it)
 * on every fall below stall_ratio e_ref. */
int fl_newton_stalled(const fl_newton_options *opt, fl_newton_stall *st, int it, double e)
{
    if (opt->stall_steps <= 0 || e <= opt->tol) return 0;
    if (e < opt->stall_ratio * st->e_ref) {
        st->e_ref = e;
        st->it_ref = it;
        return 0;
    }
    return it - st->it_ref >= opt->stall_steps;
}

double fl_newton_merit(int dim, size_t nc, const double *mu, const double *rho, const double *r,
                       const double *U, double *phi)
{
    double s = 0.0, D[9], f[3];
    for (size_t a = 0; a < nc; a++) {
        double *pa = phi ? phi + dim * a : f;
        fl_local_contact_alart_curnier(dim, mu[a], rho[a], r + dim * a, U + dim * a, pa, D);
        for (int k = 0; k < dim; k++) s += pa[k] * pa[k];
    }
    return 0.5 * s;
}

/* Initial r: zero or the warm start projected on the cones. */
static fl_status start_r(int dim, size_t nc, const double *mu, const fl_newton_options *opt,
                         gsl_vector *r, fl_error *err)
{
    if (opt->start == FL_NEWTON_START_ZERO) {
        gsl_vector_set_zero(r);
        return FL_OK;
    }
    FL_TRY(fl_check_finite_vector(r, "warm start r", err));
    for (size_t a = 0; a < nc; a++)
        fl_coulomb_cone_project(dim, mu[a], r->data + dim * a, r->data + dim * a);
    return FL_OK;
}

/* Solve K x = b by GSL LU on a copy LU of K with extra added to the
 * diagonal entries from index `from` on (the r-block); 0 when K is singular
 * or x is not finite (a failed step). */
static int lu_step(const gsl_matrix *K, gsl_matrix *LU, gsl_permutation *perm,
                   const gsl_vector *b, gsl_vector *x, size_t from, double extra)
{
    int sign;
    gsl_matrix_memcpy(LU, K);
    for (size_t i = from; i < K->size1 && extra != 0.0; i++) *gsl_matrix_ptr(LU, i, i) += extra;
    if (gsl_linalg_LU_decomp(LU, perm, &sign) != 0 || gsl_linalg_LU_solve(LU, perm, b, x) != 0)
        return 0;
    for (size_t i = 0; i < x->size; i++)
        if (!isfinite(x->data[i])) return 0;
    return 1;
}

/* Fill the result's common fields at the end of a solve (both twins): a
 * finished loop above tol is FL_WMAXITER, and the stop reason follows the
 * status unless the loop already said it stalled. */
void fl_newton_finish(fl_newton_result *res, fl_status s, int it, double e, double t0,
                      const fl_newton_options *opt)
{
    res->iterations = it;
    res->residual = e;
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    res->status = s;
    if (s < 0) res->stop = FL_NEWTON_STOP_ERROR;
    else if (s == FL_OK) res->stop = FL_NEWTON_STOP_TOL;
    else if (s == FL_WTIMEOUT) res->stop = FL_NEWTON_STOP_TIMEOUT;
    else if (res->stop != FL_NEWTON_STOP_STALLED) res->stop = FL_NEWTON_STOP_MAXITER;
    res->seconds = fl_clock_now() - t0;
}

/* Time left of opt->time_limit since t0: 0 when none is set, a positive
 * number otherwise (tiny once spent, so that a stage handed it stops at once). */
double fl_newton_time_left(const fl_newton_options *opt, double t0)
{
    if (!(opt->time_limit > 0)) return 0.0;
    double left = opt->time_limit - (fl_clock_now() - t0);
    return left > 1e-9 ? left : 1e-9;
}

int fl_newton_timed_out(const fl_newton_options *opt, double t0)
{
    return opt->time_limit > 0 && fl_clock_now() - t0 >= opt->time_limit;
}

/* Phi and D at (r, U) per contact ((N1)-(N2), fl_local_contact_alart_curnier),
 * J = I - D + rho D W + lam I (N3), (N6) and rhs = -Phi; returns
 * psi = |Phi|^2 / 2. */
static double local_assemble(const fl_local_problem *p, const double *rho, const gsl_vector *r,
                             const gsl_vector *Uv, double lam, double *phi, double *Dall,
                             gsl_matrix *J, gsl_vector *rhs)
{
    const int dim = p->dim;
    const size_t m = p->m;
    double psi = 0;
    for (size_t a = 0; a < p->nc; a++) {
        double *Da = Dall + 9 * a;
        fl_local_contact_alart_curnier(dim, p->mu[a], rho[a], r->data + dim * a,
                                       Uv->data + dim * a, phi + dim * a, Da);
        for (int k = 0; k < dim; k++) {
            psi += 0.5 * phi[dim * a + k] * phi[dim * a + k];
            gsl_vector_set(rhs, dim * a + k, -phi[dim * a + k]);
            for (size_t j = 0; j < m; j++) {
                double acc = 0;
                for (int l = 0; l < dim; l++)
                    acc += Da[k * dim + l] * gsl_matrix_get(p->W, dim * a + l, j);
                gsl_matrix_set(J, dim * a + k, j, rho[a] * acc);
            }
            for (int l = 0; l < dim; l++)
                *gsl_matrix_ptr(J, dim * a + k, dim * a + l) +=
                    (k == l ? 1.0 + lam : 0.0) - Da[k * dim + l];
        }
    }
    return psi;
}

/* Armijo backtracking on psi (N5) along d; U(r + t d) = U + t W d.  The
 * trial point is left in (rt, Ut); returns 1 when accepted; *tmin = the
 * last t tried. */
static int local_line_search(const fl_local_problem *p, const fl_newton_options *opt,
                             const double *rho, const gsl_vector *r, const gsl_vector *Uv,
                             const gsl_vector *d, double psi, gsl_vector *Wd, gsl_vector *rt,
                             gsl_vector *Ut, double *tmin)
{
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, d, 0.0, Wd);
    double t = 1.0;
    for (int ls = 0; ls <= opt->ls_max; ls++, t *= 0.5) {
        gsl_vector_memcpy(rt, r);
        gsl_blas_daxpy(t, d, rt);
        gsl_vector_memcpy(Ut, Uv);
        gsl_blas_daxpy(t, Wd, Ut);
        double pt = fl_newton_merit(p->dim, p->nc, p->mu, rho, rt->data, Ut->data, NULL);
        if (opt->ls_trial) opt->ls_trial(opt->ls_trial_data, t);
        *tmin = t;
        if (pt <= (1.0 - 2.0 * opt->ls_sigma * t) * psi) return 1;
    }
    return 0;
}

/* Local problem, dense W, GSL LU of J = I - D + rho D W (N3). */
fl_status fl_newton_solve(const fl_local_problem *p, const fl_newton_options *opt,
                          gsl_vector *r, gsl_vector *U, fl_newton_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_newton_options dflt_opt = fl_newton_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_newton_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_NEWTON_STOP_ERROR;
    fl_status s = fl_local_problem_check(p, err);
    if (s == FL_OK) s = fl_newton_check_options(opt, err);
    if (s == FL_OK && !p->W) s = FL_FAIL(err, FL_EINVAL, "newton: reference needs a dense W");
    if (s == FL_OK && (!r || r->size != p->m || r->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton: r must be a contiguous vector of length %zu", p->m);
    if (s == FL_OK && U && (U->size != p->m || U->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton: U must have length %zu", p->m);
    if (s == FL_OK) s = start_r(p->dim, p->nc, p->mu, opt, r, err);
    if (s != FL_OK) return res->status = s;

    const int dim = p->dim;
    const size_t m = p->m, nc = p->nc;
    double *rho = malloc(nc * sizeof *rho), *phi = malloc(m * sizeof *phi);
    double *Dall = malloc(nc * 9 * sizeof *Dall);
    gsl_vector *Uv = gsl_vector_alloc(m), *d = gsl_vector_alloc(m), *Wd = gsl_vector_alloc(m);
    gsl_vector *rt = gsl_vector_alloc(m), *Ut = gsl_vector_alloc(m), *rhs = gsl_vector_alloc(m);
    gsl_matrix *J = gsl_matrix_alloc(m, m), *Jc = gsl_matrix_alloc(m, m);
    gsl_permutation *perm = gsl_permutation_alloc(m);
    gsl_vector *rbest = gsl_vector_alloc(m);   /* the best iterate (time_limit) */
    if (!rho || !phi || !Dall || !Uv || !d || !Wd || !rt || !Ut || !rhs || !J || !Jc || !perm ||
        !rbest) {
        s = FL_FAIL(err, FL_ENOMEM, "newton: out of memory");
        goto done;
    }
    /* rho_a = dim / trace(W_aa) */
    for (size_t a = 0; a < nc; a++) {
        double tr = 0;
        for (int k = 0; k < dim; k++) tr += gsl_matrix_get(p->W, dim * a + k, dim * a + k);
        rho[a] = opt->rho > 0 ? opt->rho : tr > 0 && isfinite(tr) ? dim / tr : 1.0;
    }
    double e = INFINITY, nu = 1.0;   /* nu: regularisation multiplier (N6) */
    double ebest = INFINITY;
    int it = 0, fails_in_row = 0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    s = fl_residual_local(p, r, Uv, opt->norm, &e, err);
    fl_newton_stall stall = {e, 0};
    while (s == FL_OK && !(e <= opt->tol) && it < opt->max_iterations) {
        if (e < ebest) {
            gsl_vector_memcpy(rbest, r);
            ebest = e;
        }
        if (fl_newton_timed_out(opt, t0)) {
            s = FL_WTIMEOUT;
            break;
        }
        double psi = local_assemble(p, rho, r, Uv, fl_newton_regularization(opt, nu, e), phi,
                                    Dall, J, rhs);
        int ok = lu_step(J, Jc, perm, rhs, d, 0, 0.0);
        if (!ok) {   /* singular J: one retry with 1e-10 more on the diagonal */
            ok = lu_step(J, Jc, perm, rhs, d, 0, 1e-10);
            if (ok) res->regularized++;
        }
        double tmin = 1.0;
        if (ok) ok = local_line_search(p, opt, rho, r, Uv, d, psi, Wd, rt, Ut, &tmin);
        nu = fl_newton_next_nu(nu, ok, tmin);
        it++;
        if (ok) {
            fails_in_row = 0;
            gsl_vector_memcpy(r, rt);
        } else {
            res->line_search_failures++;
            if (++fails_in_row > opt->max_fallbacks) {
                res->stop = FL_NEWTON_STOP_STALLED;
                break;
            }
            if (opt->gs_sweeps > 0) {   /* Gauss–Seidel from the current r */
                fl_nsgs_options go = fl_nsgs_options_default();
                go.start = FL_NSGS_START_WARM;
                go.max_sweeps = opt->gs_sweeps;
                go.tol = opt->tol;
                go.norm = opt->norm;
                go.time_limit = fl_newton_time_left(opt, t0);
                fl_nsgs_result gr;
                fl_status gs = fl_nsgs_solve(p, &go, r, NULL, &gr, err);
                res->gs_sweeps += gr.iterations;
                if (gs < 0) {
                    s = gs;
                    break;
                }
            }
        }
        s = fl_residual_local(p, r, Uv, opt->norm, &e, err);
        if (s == FL_OK && !isfinite(e))
            s = FL_FAIL(err, FL_ENOCONV, "newton: iterates became non-finite at step %d", it);
        if (s == FL_OK && fl_newton_stalled(opt, &stall, it, e)) {
            res->stop = FL_NEWTON_STOP_STALLED;
            break;
        }
    }
    gsl_set_error_handler(old);
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best iterate met, its error */
        gsl_vector_memcpy(r, rbest);
        fl_status s2 = fl_residual_local(p, r, Uv, opt->norm, &e, err);
        if (s2 != FL_OK) s = s2;
    }
    fl_newton_finish(res, s, it, e, t0, opt);
    s = res->status;
    if (U && s >= 0) gsl_vector_memcpy(U, Uv);
done:
    free(rho);
    free(phi);
    free(Dall);
    if (Uv) gsl_vector_free(Uv);
    if (d) gsl_vector_free(d);
    if (Wd) gsl_vector_free(Wd);
    if (rt) gsl_vector_free(rt);
    if (Ut) gsl_vector_free(Ut);
    if (rhs) gsl_vector_free(rhs);
    if (J) gsl_matrix_free(J);
    if (Jc) gsl_matrix_free(Jc);
    if (perm) gsl_permutation_free(perm);
    if (rbest) gsl_vector_free(rbest);
    if (s < 0) res->status = s;
    return s;
}

/* Checks shared by the global solvers' argument lists (dense part). */
static fl_status global_check_dense(const fl_global_problem *g, fl_error *err)
{
    if (!g || !g->M || !g->H || !g->f || !g->w || !g->mu)
        return FL_FAIL(err, FL_EINVAL, "newton global: dense M, H, f, w and mu are required");
    if ((g->dim != 2 && g->dim != 3) || g->nc == 0 || g->m != (size_t)g->dim * g->nc)
        return FL_FAIL(err, FL_EDIM, "newton global: dim = %d, nc = %zu, m = %zu inconsistent",
                       g->dim, g->nc, g->m);
    if (g->M->size1 != g->n || g->M->size2 != g->n || g->H->size1 != g->m ||
        g->H->size2 != g->n || g->f->size != g->n || g->w->size != g->m)
        return FL_FAIL(err, FL_EDIM, "newton global: M %zux%zu, H %zux%zu, f %zu, w %zu do "
                       "not match n = %zu, m = %zu", g->M->size1, g->M->size2, g->H->size1,
                       g->H->size2, g->f->size, g->w->size, g->n, g->m);
    FL_TRY(fl_check_finite_matrix(g->H, "H", err));
    FL_TRY(fl_check_finite_vector(g->f, "f", err));
    FL_TRY(fl_check_finite_vector(g->w, "w", err));
    for (size_t a = 0; a < g->nc; a++)
        if (!(g->mu[a] >= 0) || !isfinite(g->mu[a]))
            return FL_FAIL(err, FL_EINVAL, "newton global: mu[%zu] = %g must be finite and >= 0",
                           a, g->mu[a]);
    return FL_OK;
}

/* The argument checks of fl_newton_global_solve, then the initial r. */
static fl_status global_check_args(const fl_global_problem *g, const fl_newton_options *opt,
                                   const gsl_vector *v, gsl_vector *r, const gsl_vector *U,
                                   fl_error *err)
{
    fl_status s = global_check_dense(g, err);
    if (s == FL_OK) s = fl_newton_check_options(opt, err);
    if (s == FL_OK && (!r || r->size != g->m || r->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton global: r must be a contiguous vector of length %zu",
                    g->m);
    if (s == FL_OK && U && (U->size != g->m || U->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton global: U must have length %zu", g->m);
    if (s == FL_OK && v && (v->size != g->n || v->stride != 1))
        s = FL_FAIL(err, FL_EDIM, "newton global: v must have length %zu", g->n);
    if (s == FL_OK) s = start_r(g->dim, g->nc, g->mu, opt, r, err);
    return s;
}

/* Work space of the global Newton: (v, U) the current state, K and its LU
 * copy Kc of (N4), x = [dv; dr], (rt, Ut) the trial point of the line
 * search, Hdv = H dv, y and qv scratch of length n and m. */
typedef struct global_ws {
    double *rho, *phi, *Dall;
    gsl_vector *vv, *Uv, *y, *qv, *rhs, *x, *rt, *Ut, *Hdv;
    gsl_matrix *K, *Kc;
    gsl_permutation *perm;
} global_ws;

static void global_ws_free(global_ws *w)
{
    free(w->rho);
    free(w->phi);
    free(w->Dall);
    gsl_vector *vecs[] = {w->vv, w->Uv, w->y, w->qv, w->rhs, w->x, w->rt, w->Ut, w->Hdv};
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
        if (vecs[i]) gsl_vector_free(vecs[i]);
    if (w->K) gsl_matrix_free(w->K);
    if (w->Kc) gsl_matrix_free(w->Kc);
    if (w->perm) gsl_permutation_free(w->perm);
}

static fl_status global_ws_alloc(const fl_global_problem *g, global_ws *w, fl_error *err)
{
    const size_t m = g->m, n = g->n, nc = g->nc, N = n + m;
    w->rho = malloc(nc * sizeof *w->rho);
    w->phi = malloc(m * sizeof *w->phi);
    w->Dall = malloc(nc * 9 * sizeof *w->Dall);
    w->vv = gsl_vector_alloc(n);
    w->Uv = gsl_vector_alloc(m);
    w->y = gsl_vector_alloc(n);
    w->qv = gsl_vector_alloc(m);
    w->rhs = gsl_vector_alloc(N);
    w->x = gsl_vector_alloc(N);
    w->rt = gsl_vector_alloc(m);
    w->Ut = gsl_vector_alloc(m);
    w->Hdv = gsl_vector_alloc(m);
    w->K = gsl_matrix_alloc(N, N);
    w->Kc = gsl_matrix_alloc(N, N);
    w->perm = gsl_permutation_alloc(N);
    if (!w->rho || !w->phi || !w->Dall || !w->vv || !w->Uv || !w->y || !w->qv || !w->rhs ||
        !w->x || !w->rt || !w->Ut || !w->Hdv || !w->K || !w->Kc || !w->perm)
        return FL_FAIL(err, FL_ENOMEM, "newton global: out of memory");
    return FL_OK;
}

/* rho_a = dim / trace(H_a diag(M)^-1 H_a^T) (proofs/newton.md, rho). */
static void global_rho(const fl_global_problem *g, const fl_newton_options *opt, double *rho)
{
    const int dim = g->dim;
    for (size_t a = 0; a < g->nc; a++) {
        double tr = 0;
        for (int k = 0; k < dim; k++)
            for (size_t j = 0; j < g->n; j++) {
                double h = gsl_matrix_get(g->H, dim * a + k, j);
                tr += h * h / gsl_matrix_get(g->M, j, j);
            }
        rho[a] = opt->rho > 0 ? opt->rho : tr > 0 && isfinite(tr) ? dim / tr : 1.0;
    }
}

/* The initial state: q = H M^-1 f + w (the local problem's q, for the error
 * normalisation: *normq = |q|), v = M^-1 (f + H^T r), U = H v + w. */
static fl_status global_start(const fl_global_problem *g, const fl_spd *spd,
                              const gsl_vector *r, global_ws *w, double *normq)
{
    fl_status s = fl_spd_solve(spd, g->f, w->y);
    if (s == FL_OK) {
        gsl_vector_memcpy(w->qv, g->w);
        gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, w->y, 1.0, w->qv);
    }
    if (s == FL_OK) {
        gsl_vector_memcpy(w->y, g->f);
        gsl_blas_dgemv(CblasTrans, 1.0, g->H, r, 1.0, w->y);
        s = fl_spd_solve(spd, w->y, w->vv);
    }
    *normq = s == FL_OK ? gsl_blas_dnrm2(w->qv) : 0.0;
    if (s == FL_OK) {
        gsl_vector_memcpy(w->Uv, g->w);
        gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, w->vv, 1.0, w->Uv);
    }
    return s;
}

/* (N4): K = [M, -H^T; rho D H, (1 + lam) I - D], rhs = -[M v - f - H^T r; Phi],
 * Phi and D per contact from fl_local_contact_alart_curnier; returns
 * psi = |Phi|^2 / 2. */
static double global_assemble(const fl_global_problem *g, const gsl_vector *r, double lam,
                              global_ws *w)
{
    const int dim = g->dim;
    const size_t m = g->m, n = g->n;
    gsl_matrix *K = w->K;
    double psi = 0, *phi = w->phi;
    gsl_matrix_set_zero(K);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) gsl_matrix_set(K, i, j, gsl_matrix_get(g->M, i, j));
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) gsl_matrix_set(K, j, n + i, -gsl_matrix_get(g->H, i, j));
    gsl_vector_view top = gsl_vector_subvector(w->rhs, 0, n);
    gsl_vector_memcpy(&top.vector, g->f);               /* -(M v - f - H^T r) */
    gsl_blas_dgemv(CblasTrans, 1.0, g->H, r, 1.0, &top.vector);
    gsl_blas_dgemv(CblasNoTrans, -1.0, g->M, w->vv, 1.0, &top.vector);
    for (size_t a = 0; a < g->nc; a++) {
        double *Da = w->Dall + 9 * a;
        fl_local_contact_alart_curnier(dim, g->mu[a], w->rho[a], r->data + dim * a,
                                       w->Uv->data + dim * a, phi + dim * a, Da);
        for (int k = 0; k < dim; k++) {
            size_t row = n + dim * a + k;
            psi += 0.5 * phi[dim * a + k] * phi[dim * a + k];
            gsl_vector_set(w->rhs, row, -phi[dim * a + k]);
            for (size_t j = 0; j < n; j++) {
                double acc = 0;
                for (int l = 0; l < dim; l++)
                    acc += Da[k * dim + l] * gsl_matrix_get(g->H, dim * a + l, j);
                gsl_matrix_set(K, row, j, w->rho[a] * acc);
            }
            for (int l = 0; l < dim; l++)
                gsl_matrix_set(K, row, n + dim * a + l,
                               (k == l ? 1.0 + lam : 0.0) - Da[k * dim + l]);
        }
    }
    return psi;
}

/* Armijo backtracking on psi (N5) along x = [dv; dr]: (rt, Ut) = (r, U) +
 * t (dr, H dv), t = 1, 1/2, ...; returns 1 when accepted; *tmin = the last
 * t tried (the accepted one on success). */
static int global_line_search(const fl_global_problem *g, const fl_newton_options *opt,
                              const gsl_vector *r, double psi, global_ws *w, double *tmin)
{
    const size_t m = g->m, n = g->n;
    gsl_vector_view dv = gsl_vector_subvector(w->x, 0, n), dr = gsl_vector_subvector(w->x, n, m);
    gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, &dv.vector, 0.0, w->Hdv);
    double t = 1.0;
    for (int ls = 0; ls <= opt->ls_max; ls++, t *= 0.5) {
        gsl_vector_memcpy(w->rt, r);
        gsl_blas_daxpy(t, &dr.vector, w->rt);
        gsl_vector_memcpy(w->Ut, w->Uv);
        gsl_blas_daxpy(t, w->Hdv, w->Ut);
        double pt = fl_newton_merit(g->dim, g->nc, g->mu, w->rho, w->rt->data, w->Ut->data,
                                    NULL);
        if (opt->ls_trial) opt->ls_trial(opt->ls_trial_data, t);
        *tmin = t;
        if (pt <= (1.0 - 2.0 * opt->ls_sigma * t) * psi) return 1;
    }
    return 0;
}

/* Global problem without W: Newton on (v, r), system (N4), GSL LU. */
fl_status fl_newton_global_solve(const fl_global_problem *g, const fl_newton_options *opt,
                                 gsl_vector *v, gsl_vector *r, gsl_vector *U,
                                 fl_newton_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_newton_options dflt_opt = fl_newton_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_newton_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_NEWTON_STOP_ERROR;
    fl_status s = global_check_args(g, opt, v, r, U, err);
    if (s != FL_OK) return res->status = s;
    fl_spd *spd = NULL;
    s = fl_spd_alloc(g->M, &spd, err);
    if (s != FL_OK) return res->status = s;

    const int dim = g->dim;
    const size_t n = g->n, nc = g->nc;
    global_ws w;
    memset(&w, 0, sizeof w);
    s = global_ws_alloc(g, &w, err);
    if (s != FL_OK) goto done;
    global_rho(g, opt, w.rho);
    double normq, e = INFINITY, nu = 1.0;
    s = global_start(g, spd, r, &w, &normq);
    int it = 0, fails_in_row = 0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (s == FL_OK)
        e = fl_residual_natural_map(dim, nc, g->mu, r->data, w.Uv->data, normq, opt->norm);
    /* the best iterate (v, r, U) met, for time_limit */
    gsl_vector *bv = n ? gsl_vector_alloc(n) : NULL, *br = gsl_vector_alloc(g->m);
    gsl_vector *bU = gsl_vector_alloc(g->m);
    double ebest = INFINITY;
    fl_newton_stall stall = {e, 0};
    if (s == FL_OK && ((n && !bv) || !br || !bU))
        s = FL_FAIL(err, FL_ENOMEM, "newton global: out of memory");
    while (s == FL_OK && !(e <= opt->tol) && it < opt->max_iterations) {
        if (e < ebest) {
            if (n) gsl_vector_memcpy(bv, w.vv);
            gsl_vector_memcpy(br, r);
            gsl_vector_memcpy(bU, w.Uv);
            ebest = e;
        }
        if (fl_newton_timed_out(opt, t0)) {
            s = FL_WTIMEOUT;
            break;
        }
        double psi = global_assemble(g, r, fl_newton_regularization(opt, nu, e), &w);
        int ok = lu_step(w.K, w.Kc, w.perm, w.rhs, w.x, n, 0.0);
        if (!ok) {   /* singular: one retry with 1e-10 more on the r-block's diagonal */
            ok = lu_step(w.K, w.Kc, w.perm, w.rhs, w.x, n, 1e-10);
            if (ok) res->regularized++;
        }
        double tmin = 1.0;
        int stepped = ok;
        if (ok) ok = global_line_search(g, opt, r, psi, &w, &tmin);
        nu = fl_newton_next_nu(nu, ok, tmin);
        it++;
        if (!ok) {
            res->line_search_failures++;
            if (++fails_in_row > opt->max_fallbacks || !stepped) {
                res->stop = FL_NEWTON_STOP_STALLED;
                break;
            }
        } else {
            fails_in_row = 0;
        }
        /* take the accepted step, or the smallest tried one (newton.h) */
        gsl_vector_view dv = gsl_vector_subvector(w.x, 0, n);
        gsl_vector_memcpy(r, w.rt);
        gsl_blas_daxpy(tmin, &dv.vector, w.vv);
        gsl_vector_memcpy(w.Uv, w.Ut);
        e = fl_residual_natural_map(dim, nc, g->mu, r->data, w.Uv->data, normq, opt->norm);
        if (!isfinite(e))
            s = FL_FAIL(err, FL_ENOCONV, "newton global: iterates became non-finite at step %d",
                        it);
        else if (fl_newton_stalled(opt, &stall, it, e)) {
            res->stop = FL_NEWTON_STOP_STALLED;
            break;
        }
    }
    gsl_set_error_handler(old);
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best iterate met, its error */
        if (n) gsl_vector_memcpy(w.vv, bv);
        gsl_vector_memcpy(r, br);
        gsl_vector_memcpy(w.Uv, bU);
        e = ebest;
    }
    if (bv) gsl_vector_free(bv);
    if (br) gsl_vector_free(br);
    if (bU) gsl_vector_free(bU);
    fl_newton_finish(res, s, it, e, t0, opt);
    s = res->status;
    if (s >= 0) {
        if (U) gsl_vector_memcpy(U, w.Uv);
        if (v) gsl_vector_memcpy(v, w.vv);
    }
done:
    fl_spd_free(spd);
    global_ws_free(&w);
    if (s < 0) res->status = s;
    return s;
}
