/* admm.c — reference ADMM for frictional contact (Acary, Brémond & Huber
 * 2018, De Saxcé form; Siconos numerics' FC3D_ADMM parameter rules), dense
 * W, GSL Cholesky of (W + W^T)/2 + rho I.  The iteration is shared with the
 * sparse twin (admm_internal.h); see admm.h for the method and
 * proofs/admm.md for the derivation. */
#include "admm.h"
#include "admm_internal.h"
#include "fl_clock.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"

/* rho stays within [rho_0 / ADMM_RHO_RANGE, rho_0 ADMM_RHO_RANGE]: residual
 * balancing stops there (A3), so that W + rho I stays well scaled. */
#define ADMM_RHO_RANGE 1e8

fl_admm_options fl_admm_options_default(void)
{
    fl_admm_options o;
    memset(&o, 0, sizeof o);
    o.max_iterations = 20000;
    o.tol = 1e-10;
    o.norm = FL_RESIDUAL_NORM_Q;
    o.start = FL_ADMM_START_ZERO;
    o.rho = 0.0;
    o.adapt = 1;
    o.balance_tau = 2.0;
    o.balance_phi = 10.0;
    o.accelerate = 1;
    o.restart_eta = 0.999;
    o.time_limit = 0.0;
    return o;
}

fl_status fl_admm_check_options(const fl_admm_options *opt, fl_error *err)
{
    if (!opt) return FL_FAIL(err, FL_EINVAL, "admm: NULL options");
    if (!(opt->tol > 0) || !isfinite(opt->tol))
        return FL_FAIL(err, FL_EINVAL, "admm: tol = %g must be positive", opt->tol);
    if (opt->max_iterations < 1)
        return FL_FAIL(err, FL_EINVAL, "admm: max_iterations = %d must be >= 1",
                       opt->max_iterations);
    if (!(opt->rho >= 0) || !isfinite(opt->rho))
        return FL_FAIL(err, FL_EINVAL, "admm: rho = %g must be >= 0 (0: ||W||_1)", opt->rho);
    if (opt->adapt != 0 && opt->adapt != 1)
        return FL_FAIL(err, FL_EINVAL, "admm: adapt = %d must be 0 or 1", opt->adapt);
    if (!(opt->balance_tau > 1) || !isfinite(opt->balance_tau))
        return FL_FAIL(err, FL_EINVAL, "admm: balance_tau = %g must be > 1", opt->balance_tau);
    if (!(opt->balance_phi > 1) || !isfinite(opt->balance_phi))
        return FL_FAIL(err, FL_EINVAL, "admm: balance_phi = %g must be > 1", opt->balance_phi);
    if (opt->accelerate != 0 && opt->accelerate != 1)
        return FL_FAIL(err, FL_EINVAL, "admm: accelerate = %d must be 0 or 1", opt->accelerate);
    if (!(opt->restart_eta > 0 && opt->restart_eta < 1))
        return FL_FAIL(err, FL_EINVAL, "admm: restart_eta = %g must be in (0, 1)",
                       opt->restart_eta);
    if (!(opt->time_limit >= 0) || !isfinite(opt->time_limit))
        return FL_FAIL(err, FL_EINVAL, "admm: time_limit = %g must be >= 0 seconds (0: none)",
                       opt->time_limit);
    if (opt->start != FL_ADMM_START_ZERO && opt->start != FL_ADMM_START_WARM)
        return FL_FAIL(err, FL_EINVAL, "admm: unknown start %d", (int)opt->start);
    if ((int)opt->norm < 0 || (int)opt->norm > (int)FL_RESIDUAL_ABSOLUTE)
        return FL_FAIL(err, FL_EINVAL, "admm: unknown residual norm %d", (int)opt->norm);
    return FL_OK;
}

fl_status fl_admm_check_start(const fl_local_problem *p, const fl_admm_options *opt,
                              gsl_vector *r, const gsl_vector *U, fl_error *err)
{
    if (!r || r->size != p->m || r->stride != 1)
        return FL_FAIL(err, FL_EDIM, "admm: r must be a contiguous vector of length %zu", p->m);
    if (U && (U->size != p->m || U->stride != 1))
        return FL_FAIL(err, FL_EDIM, "admm: U must have length %zu", p->m);
    if (opt->start == FL_ADMM_START_ZERO) {
        gsl_vector_set_zero(r);
        return FL_OK;
    }
    FL_TRY(fl_check_finite_vector(r, "warm start r", err));
    for (size_t a = 0; a < p->nc; a++)
        fl_coulomb_cone_project(p->dim, p->mu[a], r->data + p->dim * a, r->data + p->dim * a);
    return FL_OK;
}

/* The iterates of (A1)–(A3): r, z = z^{k+1}, zk = z^k, zh = ẑ, the scaled
 * multipliers xi, xik, xih, U = W z^k + q, the right-hand side b and the
 * best iterate met. */
typedef struct admm_state {
    double *r, *z, *zk, *zh, *xi, *xik, *xih, *U, *b, *best;
    double rho, rho0, tau_k, c_k, norm_q, ebest;
} admm_state;

/* (A1): one iteration from ẑ, ξ̂ and U = W z^k + q; *rp = |r - z|,
 * *sd = rho |z - ẑ|. */
static fl_status admm_step(const fl_local_problem *p, fl_admm_twin *tw, admm_state *st,
                           double *rp, double *sd, fl_error *err)
{
    const size_t m = p->m;
    const int dim = p->dim;
    for (size_t i = 0; i < m; i++)
        st->b[i] = st->rho * (st->zh[i] - st->xih[i]) - gsl_vector_get(p->q, i);
    for (size_t a = 0; a < p->nc; a++) {   /* De Saxcé's shift on the normal row */
        const double *Ua = st->U + dim * a;
        double ut = dim == 2 ? fabs(Ua[1]) : hypot(Ua[1], Ua[2]);
        st->b[dim * a] -= p->mu[a] * ut;
    }
    FL_TRY(tw->solve(tw->data, st->b, st->r, err));
    for (size_t i = 0; i < m; i++) st->z[i] = st->r[i] + st->xih[i];
    for (size_t a = 0; a < p->nc; a++)
        fl_coulomb_cone_project(dim, p->mu[a], st->z + dim * a, st->z + dim * a);
    double p2 = 0, d2 = 0;
    for (size_t i = 0; i < m; i++) {
        double di = st->r[i] - st->z[i], dz = st->z[i] - st->zh[i];
        st->xi[i] = st->xih[i] + di;
        p2 += di * di;
        d2 += dz * dz;
    }
    *rp = sqrt(p2);
    *sd = st->rho * sqrt(d2);
    return FL_OK;
}

/* (A2): the next ẑ, ξ̂ (Goldstein et al. 2014, Algorithm 8), then
 * z^k <- z, ξ^k <- ξ.  Returns 1 on a restart. */
static int admm_accelerate(const fl_admm_options *opt, size_t m, admm_state *st, double c)
{
    int restart = 0;
    if (!opt->accelerate) {
        memcpy(st->zh, st->z, m * sizeof *st->z);
        memcpy(st->xih, st->xi, m * sizeof *st->xi);
    } else if (c < opt->restart_eta * st->c_k) {
        double tau = 0.5 * (1.0 + sqrt(1.0 + 4.0 * st->tau_k * st->tau_k));
        double alpha = (st->tau_k - 1.0) / tau;
        for (size_t i = 0; i < m; i++) {
            st->zh[i] = st->z[i] + alpha * (st->z[i] - st->zk[i]);
            st->xih[i] = st->xi[i] + alpha * (st->xi[i] - st->xik[i]);
        }
        st->tau_k = tau;
        st->c_k = c;
    } else {   /* restart from the previous iterate */
        memcpy(st->zh, st->zk, m * sizeof *st->zk);
        memcpy(st->xih, st->xik, m * sizeof *st->xik);
        st->tau_k = 1.0;
        st->c_k /= opt->restart_eta;
        restart = 1;
    }
    memcpy(st->zk, st->z, m * sizeof *st->z);
    memcpy(st->xik, st->xi, m * sizeof *st->xi);
    return restart;
}

/* (A3): residual balancing; refactorises when rho changes. */
static fl_status admm_balance(const fl_admm_options *opt, size_t m, fl_admm_twin *tw,
                              admm_state *st, double rp, double sd, fl_admm_result *res,
                              fl_error *err)
{
    if (!opt->adapt) return FL_OK;
    double next = st->rho;
    if (rp > opt->balance_phi * sd) next = st->rho * opt->balance_tau;
    else if (sd > opt->balance_phi * rp) next = st->rho / opt->balance_tau;
    if (next == st->rho || next > st->rho0 * ADMM_RHO_RANGE || next < st->rho0 / ADMM_RHO_RANGE)
        return FL_OK;
    double ratio = st->rho / next;   /* xi = y / rho */
    for (size_t i = 0; i < m; i++) {
        st->xi[i] *= ratio;
        st->xik[i] *= ratio;
        st->xih[i] *= ratio;
    }
    st->rho = next;
    st->tau_k = 1.0;          /* a new rho restarts the acceleration (A2): c changes scale */
    st->c_k = INFINITY;
    res->factorizations++;
    return tw->factor(tw->data, next, err);
}

/* U = W z + q and the error of z in opt->norm; keeps the best iterate. */
static fl_status admm_error(const fl_local_problem *p, const fl_admm_options *opt,
                            fl_admm_twin *tw, admm_state *st, const double *z, double *e,
                            fl_error *err)
{
    FL_TRY(tw->velocity(tw->data, z, st->U, err));
    *e = fl_residual_natural_map(p->dim, p->nc, p->mu, z, st->U, st->norm_q, opt->norm);
    if (!isfinite(*e)) return FL_FAIL(err, FL_ENOCONV, "admm: the error of the iterate is not finite");
    if (*e < st->ebest) {
        st->ebest = *e;
        memcpy(st->best, z, p->m * sizeof *z);
    }
    return FL_OK;
}

static fl_status admm_loop(const fl_local_problem *p, const fl_admm_options *opt,
                           fl_admm_twin *tw, admm_state *st, fl_admm_result *res, double t0,
                           fl_error *err)
{
    const size_t m = p->m;
    double e = INFINITY;
    FL_TRY(admm_error(p, opt, tw, st, st->zk, &e, err));
    if (e <= opt->tol) return FL_OK;   /* the start (m = 0 included): nothing to factor */
    res->factorizations = 1;
    FL_TRY(tw->factor(tw->data, st->rho, err));
    while (!(e <= opt->tol)) {
        if (res->iterations >= opt->max_iterations) return FL_WMAXITER;
        if (opt->time_limit > 0 && fl_clock_now() - t0 >= opt->time_limit) return FL_WTIMEOUT;
        double rp = 0, sd = 0;
        FL_TRY(admm_step(p, tw, st, &rp, &sd, err));
        res->iterations++;
        res->restarts += admm_accelerate(opt, m, st, rp * rp + sd * sd);
        FL_TRY(admm_balance(opt, m, tw, st, rp, sd, res, err));
        FL_TRY(admm_error(p, opt, tw, st, st->z, &e, err));   /* U = W z^k + q for (A1) */
    }
    return FL_OK;
}

fl_status fl_admm_iterate(const fl_local_problem *p, const fl_admm_options *opt,
                          fl_admm_twin *tw, gsl_vector *r, gsl_vector *U, fl_admm_result *res,
                          double t0, fl_error *err)
{
    const size_t m = p->m, mm = m ? m : 1;
    double *blk = calloc(10 * mm, sizeof *blk);
    if (!blk) return res->status = FL_FAIL(err, FL_ENOMEM, "admm: out of memory");
    admm_state st;
    double **v[10] = {&st.r, &st.z, &st.zk, &st.zh, &st.xi, &st.xik, &st.xih, &st.U, &st.b,
                      &st.best};
    for (int k = 0; k < 10; k++) *v[k] = blk + (size_t)k * mm;
    memcpy(st.zk, r->data, m * sizeof *st.zk);
    memcpy(st.zh, r->data, m * sizeof *st.zh);
    st.rho0 = opt->rho > 0 ? opt->rho : tw->norm1 > DBL_MIN ? tw->norm1 : 1.0;
    st.rho = st.rho0;
    st.tau_k = 1.0;
    st.c_k = INFINITY;
    st.norm_q = gsl_blas_dnrm2(p->q);
    st.ebest = INFINITY;
    fl_status s = admm_loop(p, opt, tw, &st, res, t0, err);
    if (s >= 0) {   /* the best iterate met, its velocity and error */
        fl_status s0 = s;
        memcpy(r->data, st.best, m * sizeof *st.best);
        s = tw->velocity(tw->data, r->data, st.U, err);
        if (s == FL_OK) {
            res->residual = fl_residual_natural_map(p->dim, p->nc, p->mu, r->data, st.U,
                                                    st.norm_q, opt->norm);
            if (U) memcpy(U->data, st.U, m * sizeof *st.U);
            s = res->residual <= opt->tol ? FL_OK : s0 == FL_WTIMEOUT ? FL_WTIMEOUT : FL_WMAXITER;
        }
    }
    free(blk);
    res->status = s;
    res->rho = st.rho;
    res->residual = s < 0 ? NAN : res->residual;
    res->stop = s < 0 ? FL_ADMM_STOP_ERROR : s == FL_OK ? FL_ADMM_STOP_TOL
              : s == FL_WTIMEOUT ? FL_ADMM_STOP_TIMEOUT : FL_ADMM_STOP_MAXITER;
    res->seconds = fl_clock_now() - t0;
    return s;
}

/* ---- the reference twin: dense (W + W^T)/2 + rho I, GSL Cholesky ---- */

typedef struct dense_admm {
    const fl_local_problem *p;
    gsl_matrix *A;   /* the Cholesky factor of (W + W^T)/2 + rho I */
} dense_admm;

static fl_status dense_factor(void *data, double rho, fl_error *err)
{
    dense_admm *d = data;
    const gsl_matrix *W = d->p->W;
    size_t m = W->size1;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            gsl_matrix_set(d->A, i, j, 0.5 * (gsl_matrix_get(W, i, j) + gsl_matrix_get(W, j, i)));
    for (size_t i = 0; i < m; i++) gsl_matrix_set(d->A, i, i, gsl_matrix_get(d->A, i, i) + rho);
    if (fl_dense_cholesky(d->A, NULL) != FL_OK)
        return FL_FAIL(err, FL_ENOTSPD, "admm: (W + W^T)/2 + rho I with rho = %g is not positive "
                       "definite: W is not positive semidefinite", rho);
    return FL_OK;
}

static fl_status dense_solve(void *data, const double *b, double *x, fl_error *err)
{
    dense_admm *d = data;
    size_t m = d->A->size1;
    if (x != b) memcpy(x, b, m * sizeof *x);
    gsl_vector_view xv = gsl_vector_view_array(x, m);
    gsl_error_handler_t *old = fl_gsl_handler_off();
    int rc = gsl_linalg_cholesky_svx(d->A, &xv.vector);
    fl_gsl_handler_restore(old);
    if (rc != GSL_SUCCESS) return FL_FAIL(err, FL_EEXTERNAL, "admm: Cholesky solve failed");
    return FL_OK;
}

static fl_status dense_velocity(void *data, const double *z, double *U, fl_error *err)
{
    (void)err;
    dense_admm *d = data;
    size_t m = d->p->m;
    gsl_vector_const_view zv = gsl_vector_const_view_array(z, m);
    gsl_vector_view Uv = gsl_vector_view_array(U, m);
    gsl_vector_memcpy(&Uv.vector, d->p->q);
    gsl_blas_dgemv(CblasNoTrans, 1.0, d->p->W, &zv.vector, 1.0, &Uv.vector);
    return FL_OK;
}

/* ||W||_1: the largest column sum of |W_ij| (A3). */
static double dense_norm1(const gsl_matrix *W)
{
    double best = 0;
    for (size_t j = 0; j < W->size2; j++) {
        double c = 0;
        for (size_t i = 0; i < W->size1; i++) c += fabs(gsl_matrix_get(W, i, j));
        if (c > best) best = c;
    }
    return best;
}

fl_status fl_admm_solve(const fl_local_problem *p, const fl_admm_options *opt, gsl_vector *r,
                        gsl_vector *U, fl_admm_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_admm_options dflt_opt = fl_admm_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_admm_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_ADMM_STOP_ERROR;
    fl_status s = fl_local_problem_check_symmetric(p, "admm", err);
    if (s == FL_OK) s = fl_admm_check_options(opt, err);
    if (s == FL_OK && !p->W) s = FL_FAIL(err, FL_EINVAL, "admm: the reference needs a dense W");
    if (s == FL_OK) s = fl_admm_check_start(p, opt, r, U, err);
    if (s != FL_OK) return res->status = s;
    dense_admm d = {p, gsl_matrix_alloc(p->m ? p->m : 1, p->m ? p->m : 1)};
    if (!d.A) return res->status = FL_FAIL(err, FL_ENOMEM, "admm: out of memory");
    if (p->m == 0) {   /* a 0 x 0 factor: GSL has none; nothing to solve */
        gsl_matrix_free(d.A);
        d.A = NULL;
    }
    fl_admm_twin tw = {dense_norm1(p->W), dense_factor, dense_solve, dense_velocity, &d};
    s = fl_admm_iterate(p, opt, &tw, r, U, res, t0, err);
    if (d.A) gsl_matrix_free(d.A);
    return s;
}
