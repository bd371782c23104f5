/* ppa.c — reference proximal-point method for frictional contact (Acary,
 * Brémond & Huber 2018, the proximal-point method with a Newton inner
 * solver; Siconos numerics' FC3D_PROX parameter rule), dense W, inner
 * solver fl_newton_solve.  The outer loop is shared with the sparse twin
 * (ppa_internal.h); see ppa.h for the method and proofs/ppa.md for the
 * derivation. */
#include "ppa.h"
#include "ppa_internal.h"
#include "fl_clock.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"

/* Largest proximal weight, in units of s_W: a bound on the growth by
 * fail_factor (an unsolved subproblem), so that W + eta I stays finite. */
#define PPA_ETA_MAX 1e12

/* (P7): Newton's stall test in a polishing run: none (0).  With 20 steps
 * it stopped the runs on singular3d_200_150 after 20-35 steps; the one
 * that solved it took 186 (doc/solvers-and-benchmarks.md). */
#define PPA_POLISH_STALL 0

fl_ppa_options fl_ppa_options_default(void)
{
    fl_ppa_options o;
    memset(&o, 0, sizeof o);
    o.max_outer = 100;
    o.tol = 1e-10;
    o.norm = FL_RESIDUAL_NORM_Q;
    o.start = FL_PPA_START_ZERO;
    o.sigma = 5.0;
    o.nu = 1.0;
    o.eta_fixed = 0.0;
    o.fail_factor = 10.0;
    o.shrink = 10.0;
    o.inner_ratio = 10.0;
    o.inner_max_iterations = 50;
    o.inner_stall_steps = 0;
    o.inner_gs_sweeps = 3000;
    o.polish_after = 5;
    o.polish_steps = 200;
    o.time_limit = 0.0;
    return o;
}

fl_status fl_ppa_check_options(const fl_ppa_options *opt, fl_error *err)
{
    if (!opt) return FL_FAIL(err, FL_EINVAL, "ppa: NULL options");
    if (!(opt->tol > 0) || !isfinite(opt->tol))
        return FL_FAIL(err, FL_EINVAL, "ppa: tol = %g must be positive", opt->tol);
    if (opt->max_outer < 1)
        return FL_FAIL(err, FL_EINVAL, "ppa: max_outer = %d must be >= 1", opt->max_outer);
    if (opt->inner_max_iterations < 1)
        return FL_FAIL(err, FL_EINVAL, "ppa: inner_max_iterations = %d must be >= 1",
                       opt->inner_max_iterations);
    if (opt->inner_stall_steps < 0)
        return FL_FAIL(err, FL_EINVAL, "ppa: inner_stall_steps = %d must be >= 0 (0: none)",
                       opt->inner_stall_steps);
    if (opt->inner_gs_sweeps < 0)
        return FL_FAIL(err, FL_EINVAL, "ppa: inner_gs_sweeps = %d must be >= 0 (0: none)",
                       opt->inner_gs_sweeps);
    if (opt->polish_after < 0 || opt->polish_steps < 1)
        return FL_FAIL(err, FL_EINVAL, "ppa: polish_after = %d must be >= 0 (0: never) and "
                       "polish_steps = %d >= 1", opt->polish_after, opt->polish_steps);
    if (!(opt->sigma > 0) || !isfinite(opt->sigma))
        return FL_FAIL(err, FL_EINVAL, "ppa: sigma = %g must be positive", opt->sigma);
    if (!(opt->nu >= 0) || !isfinite(opt->nu))
        return FL_FAIL(err, FL_EINVAL, "ppa: nu = %g must be finite and >= 0", opt->nu);
    if (!(opt->eta_fixed >= 0) || !isfinite(opt->eta_fixed))
        return FL_FAIL(err, FL_EINVAL, "ppa: eta_fixed = %g must be >= 0 (0: adaptive)",
                       opt->eta_fixed);
    if (!(opt->fail_factor > 1) || !isfinite(opt->fail_factor))
        return FL_FAIL(err, FL_EINVAL, "ppa: fail_factor = %g must be > 1", opt->fail_factor);
    if (!(opt->shrink >= 1) || !isfinite(opt->shrink))
        return FL_FAIL(err, FL_EINVAL, "ppa: shrink = %g must be >= 1", opt->shrink);
    if (!(opt->inner_ratio >= 1) || !isfinite(opt->inner_ratio))
        return FL_FAIL(err, FL_EINVAL, "ppa: inner_ratio = %g must be >= 1", opt->inner_ratio);
    if (!(opt->time_limit >= 0) || !isfinite(opt->time_limit))
        return FL_FAIL(err, FL_EINVAL, "ppa: time_limit = %g must be >= 0 seconds (0: none)",
                       opt->time_limit);
    if (opt->start != FL_PPA_START_ZERO && opt->start != FL_PPA_START_WARM)
        return FL_FAIL(err, FL_EINVAL, "ppa: unknown start %d", (int)opt->start);
    if ((int)opt->norm < 0 || (int)opt->norm > (int)FL_RESIDUAL_ABSOLUTE)
        return FL_FAIL(err, FL_EINVAL, "ppa: unknown residual norm %d", (int)opt->norm);
    return FL_OK;
}

fl_status fl_ppa_check_start(const fl_local_problem *p, const fl_ppa_options *opt,
                             gsl_vector *r, const gsl_vector *U, fl_error *err)
{
    if (!r || r->size != p->m || r->stride != 1)
        return FL_FAIL(err, FL_EDIM, "ppa: r must be a contiguous vector of length %zu", p->m);
    if (U && (U->size != p->m || U->stride != 1))
        return FL_FAIL(err, FL_EDIM, "ppa: U must have length %zu", p->m);
    if (opt->start == FL_PPA_START_ZERO) {
        gsl_vector_set_zero(r);
        return FL_OK;
    }
    FL_TRY(fl_check_finite_vector(r, "warm start r", err));
    for (size_t a = 0; a < p->nc; a++)
        fl_coulomb_cone_project(p->dim, p->mu[a], r->data + p->dim * a, r->data + p->dim * a);
    return FL_OK;
}

/* (P3): eta = s_W sigma e^nu (adaptive) or s_W eta_fixed, at most
 * s_W PPA_ETA_MAX. */
double fl_ppa_eta(const fl_ppa_options *opt, double s_W, double e)
{
    double c = opt->eta_fixed > 0 ? opt->eta_fixed : opt->sigma * pow(e, opt->nu);
    if (!(c <= PPA_ETA_MAX)) c = PPA_ETA_MAX;
    return s_W * c;
}

/* The error of r in opt->norm (*e) and unnormalised (*eabs); U = W r + q. */
static fl_status errors(const fl_local_problem *p, const fl_ppa_options *opt, const gsl_vector *r,
                        gsl_vector *U, double *e, double *eabs, fl_error *err)
{
    FL_TRY(fl_residual_local(p, r, U, opt->norm, e, err));
    FL_TRY(fl_residual_local(p, r, U, FL_RESIDUAL_ABSOLUTE, eabs, err));
    if (!isfinite(*e) || !isfinite(*eabs))
        return FL_FAIL(err, FL_ENOCONV, "ppa: the error of the outer iterate is not finite");
    return FL_OK;
}

/* (P4): the inner (absolute) tolerance: the outer error / inner_ratio, not
 * below the outer tolerance in absolute units. */
static double inner_tol(const fl_ppa_options *opt, double e, double eabs)
{
    double t = eabs / opt->inner_ratio, floor = e > 0 ? opt->tol * eabs / e : opt->tol;
    if (t < floor) t = floor;
    return t > DBL_MIN ? t : DBL_MIN;
}

static double time_left(const fl_ppa_options *opt, double t0)
{
    if (!(opt->time_limit > 0)) return 0.0;
    double left = opt->time_limit - (fl_clock_now() - t0);
    return left > 1e-9 ? left : 1e-9;
}

/* Newton warm-started at r on q (the subproblem's W_k, or the original
 * problem) to tol in norm, at most max_iterations steps, with the stall
 * test stall_steps; its steps and sweeps counted in res and st.  Returns
 * Newton's status. */
static fl_status run_newton(const fl_local_problem *q, const fl_ppa_options *opt, fl_ppa_twin *tw,
                            fl_residual_norm norm, double tol, int max_iterations,
                            int stall_steps, double t0, gsl_vector *r, fl_ppa_result *res,
                            fl_ppa_step *st, fl_error *err)
{
    fl_newton_options no = fl_newton_options_default();
    no.start = FL_NEWTON_START_WARM;
    no.norm = norm;
    no.tol = tol;
    no.max_iterations = max_iterations;
    no.stall_steps = stall_steps;
    no.time_limit = time_left(opt, t0);
    fl_newton_result nr;
    memset(&nr, 0, sizeof nr);
    fl_status si = tw->inner(q, &no, r, NULL, &nr, err);
    res->inner += nr.iterations;
    res->gs_sweeps += nr.gs_sweeps;
    res->outer++;
    st->inner_steps = nr.iterations;
    st->inner_sweeps = nr.gs_sweeps;
    st->inner_status = si;
    return si;
}

/* One subproblem (P1) from r = r^k with weight eta: q_k = q - eta r^k,
 * W_k = W + eta I, Newton warm-started at r^k.  Returns the inner status. */
static fl_status subproblem(const fl_local_problem *p, const fl_ppa_options *opt,
                            fl_ppa_twin *tw, double eta, double tol_in, double t0,
                            gsl_vector *r, fl_ppa_result *res, fl_ppa_step *st, fl_error *err)
{
    tw->set_eta(tw->data, eta);
    gsl_vector_memcpy(tw->reg->q, p->q);
    gsl_blas_daxpy(-eta, r, tw->reg->q);                 /* q_k = q - eta r^k */
    fl_status si = run_newton(tw->reg, opt, tw, FL_RESIDUAL_ABSOLUTE, tol_in,
                              opt->inner_max_iterations, opt->inner_stall_steps, t0, r, res,
                              st, err);
    if (si == FL_WMAXITER && opt->inner_gs_sweeps > 0) {
        /* Newton did not solve it: Gauss–Seidel on W + eta I from Newton's
         * iterate, to the same tolerance (P5) */
        fl_nsgs_options go = fl_nsgs_options_default();
        go.start = FL_NSGS_START_WARM;
        go.max_sweeps = opt->inner_gs_sweeps;
        go.tol = tol_in;
        go.norm = FL_RESIDUAL_ABSOLUTE;
        go.time_limit = time_left(opt, t0);
        fl_nsgs_result gr;
        memset(&gr, 0, sizeof gr);
        si = tw->gs(tw->reg, &go, r, NULL, &gr, err);
        res->gs_sweeps += gr.iterations;
        st->inner_sweeps += gr.iterations;
        st->gs_solved = si == FL_OK;
        st->inner_status = si;
    }
    res->eta = eta;
    st->eta = eta;
    st->tol_in = tol_in;
    return si;
}

/* (P7): the limit eta = 0 of (P1), the original problem itself, by the
 * Newton twin from r, to the outer tolerance, at most polish_steps steps.
 * Returns Newton's status. */
static fl_status polish(const fl_local_problem *p, const fl_ppa_options *opt, fl_ppa_twin *tw,
                        double tol_abs, double t0, gsl_vector *r, fl_ppa_result *res,
                        fl_ppa_step *st, fl_error *err)
{
    fl_status si = run_newton(p, opt, tw, opt->norm, opt->tol, opt->polish_steps,
                              PPA_POLISH_STALL, t0, r, res, st, err);
    res->polishes++;
    st->eta = 0.0;
    st->tol_in = tol_abs;
    return si;
}

static void finish(fl_ppa_result *res, fl_status s, double e, double t0, const fl_ppa_options *opt)
{
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    res->status = s;
    res->residual = s < 0 ? NAN : e;
    res->stop = s < 0 ? FL_PPA_STOP_ERROR : s == FL_OK ? FL_PPA_STOP_TOL
              : s == FL_WTIMEOUT ? FL_PPA_STOP_TIMEOUT : FL_PPA_STOP_MAXITER;
    res->seconds = fl_clock_now() - t0;
}

fl_status fl_ppa_outer(const fl_local_problem *p, const fl_ppa_options *opt, fl_ppa_twin *tw,
                       gsl_vector *r, gsl_vector *U, fl_ppa_result *res, double t0,
                       fl_error *err)
{
    const size_t m = p->m;
    gsl_vector *rk = gsl_vector_alloc(m), *rbest = gsl_vector_alloc(m), *Uv = gsl_vector_alloc(m);
    fl_status s = FL_OK;
    double e = INFINITY, eabs = INFINITY, ebest = INFINITY;
    if (!rk || !rbest || !Uv) s = FL_FAIL(err, FL_ENOMEM, "ppa: out of memory");
    if (s == FL_OK) s = errors(p, opt, r, Uv, &e, &eabs, err);
    double eta = fl_ppa_eta(opt, tw->s_W, e);
    double e_ref = e;   /* (P7): the error at the last halving, and when */
    int k_ref = 0;
    while (s == FL_OK && !(e <= opt->tol) && res->outer < opt->max_outer) {
        if (e < ebest) {
            gsl_vector_memcpy(rbest, r);
            ebest = e;
        }
        if (opt->time_limit > 0 && fl_clock_now() - t0 >= opt->time_limit) {
            s = FL_WTIMEOUT;
            break;
        }
        gsl_vector_memcpy(rk, r);
        fl_ppa_step st = {.k = res->outer, .e_before = e, .seconds = fl_clock_now()};
        int pol = opt->polish_after > 0 && res->outer - k_ref >= opt->polish_after;
        fl_status si = pol ? polish(p, opt, tw, e > 0 ? opt->tol * eabs / e : opt->tol, t0, r,
                                    res, &st, err)
                           : subproblem(p, opt, tw, eta, inner_tol(opt, e, eabs), t0, r, res,
                                        &st, err);
        if (si < 0 && si != FL_ENOCONV) {
            s = si;
            break;
        }
        double e1 = INFINITY, eabs1 = INFINITY;
        if (si == FL_ENOCONV || errors(p, opt, r, Uv, &e1, &eabs1, err) != FL_OK) e1 = INFINITY;
        st.solved = si == FL_OK && isfinite(e1);
        if (pol) {                                         /* (P7): eta unchanged */
            if (!(e1 < e)) {
                gsl_vector_memcpy(r, rk);
                e1 = e;
                eabs1 = eabs;
            }
            k_ref = res->outer;
        } else if (st.solved) {
            double next = fl_ppa_eta(opt, tw->s_W, e1);      /* (P3) */
            if (opt->eta_fixed == 0 && eta / opt->shrink < next) next = eta / opt->shrink;
            eta = next;
        } else {                                           /* unsolved subproblem */
            res->inner_failures++;
            if (!(e1 < e)) {                               /* keep r^k */
                gsl_vector_memcpy(r, rk);
                e1 = e;
                eabs1 = eabs;
            }
            eta = eta * opt->fail_factor < tw->s_W * PPA_ETA_MAX ? eta * opt->fail_factor
                                                                 : tw->s_W * PPA_ETA_MAX;
        }
        e = e1;
        eabs = eabs1;
        if (e < 0.5 * e_ref) {
            e_ref = e;
            k_ref = res->outer;
        }
        if (opt->on_outer) {
            st.e_after = e;
            st.seconds = fl_clock_now() - st.seconds;
            opt->on_outer(opt->on_outer_data, &st);
        }
        if (si == FL_WTIMEOUT) s = FL_WTIMEOUT;
    }
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best iterate met, its error */
        gsl_vector_memcpy(r, rbest);
        e = ebest;
    }
    if (s >= 0) {
        fl_status s2 = fl_residual_local(p, r, Uv, opt->norm, &e, err);
        if (s2 != FL_OK) s = s2;
        else if (U) gsl_vector_memcpy(U, Uv);
    }
    finish(res, s, e, t0, opt);
    if (rk) gsl_vector_free(rk);
    if (rbest) gsl_vector_free(rbest);
    if (Uv) gsl_vector_free(Uv);
    return res->status;
}

/* ---- the reference twin: dense W_k = W + eta I ---- */

typedef struct dense_reg {
    const gsl_matrix *W;   /* the original W */
    gsl_matrix *Wk;        /* W + eta I */
} dense_reg;

static void dense_set_eta(void *data, double eta)
{
    dense_reg *d = data;
    for (size_t i = 0; i < d->W->size1; i++)
        gsl_matrix_set(d->Wk, i, i, gsl_matrix_get(d->W, i, i) + eta);
}

fl_status fl_ppa_solve(const fl_local_problem *p, const fl_ppa_options *opt, gsl_vector *r,
                       gsl_vector *U, fl_ppa_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_ppa_options dflt_opt = fl_ppa_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
    fl_ppa_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_PPA_STOP_ERROR;
    fl_status s = fl_local_problem_check(p, err);
    if (s == FL_OK) s = fl_ppa_check_options(opt, err);
    if (s == FL_OK && !p->W) s = FL_FAIL(err, FL_EINVAL, "ppa: the reference needs a dense W");
    if (s == FL_OK) s = fl_ppa_check_start(p, opt, r, U, err);
    if (s != FL_OK) return res->status = s;

    fl_local_problem reg = *p;   /* nc, dim, m, mu shared; W and q its own */
    reg.Ws = NULL;
    reg.ctx = NULL;
    reg.W = gsl_matrix_alloc(p->m, p->m);
    reg.q = gsl_vector_alloc(p->m);
    if (!reg.W || !reg.q) {
        s = FL_FAIL(err, FL_ENOMEM, "ppa: out of memory");
    } else {
        gsl_matrix_memcpy(reg.W, p->W);
        double tr = 0;   /* s_W = trace(W) / m */
        for (size_t i = 0; i < p->m; i++) tr += gsl_matrix_get(p->W, i, i);
        dense_reg d = {p->W, reg.W};
        fl_ppa_twin tw = {&reg, tr > 0 ? tr / (double)p->m : 1.0, dense_set_eta, &d,
                          fl_newton_solve, fl_nsgs_solve};
        s = fl_ppa_outer(p, opt, &tw, r, U, res, t0, err);
    }
    if (reg.W) gsl_matrix_free(reg.W);
    if (reg.q) gsl_vector_free(reg.q);
    if (s < 0) res->status = s;
    return s;
}
