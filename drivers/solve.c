/* solve.c — the solver dispatcher of drivers/solve.h: Gauss–Seidel (003 §3),
 * semismooth Newton on the Alart–Curnier function (Alart & Curnier 1991),
 * or the automatic choice, through the reference or the optimized twin. */
#include "drivers/solve.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "drivers/fl_types.h"

/* AUTO's patience with a converging Gauss–Seidel, in chunks (solve.h). */
#define AUTO_MORE_CHUNKS_2D 20.0
#define AUTO_MORE_CHUNKS_3D 4.0

fl_solve_options fl_solve_options_default(void)
{
    fl_solve_options o;
    memset(&o, 0, sizeof o);
    o.solver = FL_SOLVER_AUTO;
    o.impl = FL_IMPL_OPTIMIZED;
    o.tol = 1e-8;
    o.norm = FL_RESIDUAL_NORM_Q;
    o.max_sweeps = 10000;
    o.max_newton = 500;
    o.auto_gs_sweeps = 20;
    o.max_ppa = 100;
    o.warm = 0;
    return o;
}

fl_status fl_solve_parse_solver(const char *name, fl_solver_kind *out, fl_error *err)
{
    static const char *names[] = {"gs", "newton", "auto", "ppa"};
    for (int k = 0; k < FL_SOLVER_COUNT; k++)
        if (name && strcmp(name, names[k]) == 0) {
            *out = (fl_solver_kind)k;
            return FL_OK;
        }
    return FL_FAIL(err, FL_ENOTFOUND, "solver '%s' unknown (expected gs, newton, auto or ppa)",
                   name ? name : "(null)");
}

const char *fl_solve_solver_name(fl_solver_kind k)
{
    switch (k) {
    case FL_SOLVER_GS: return "gs";
    case FL_SOLVER_NEWTON: return "newton";
    case FL_SOLVER_AUTO: return "auto";
    case FL_SOLVER_PPA: return "ppa";
    }
    return "?";
}

const char *fl_solve_stop_name(fl_solve_stop s)
{
    switch (s) {
    case FL_SOLVE_STOP_TOL: return "tolerance reached";
    case FL_SOLVE_STOP_MAXITER: return "iteration limit";
    case FL_SOLVE_STOP_STALLED: return "Newton stalled (failed steps in a row)";
    case FL_SOLVE_STOP_ERROR: return "error";
    case FL_SOLVE_STOP_TIMEOUT: return "time limit reached (best iterate returned)";
    }
    return "?";
}

static fl_status check_options(const fl_solve_options *o, fl_error *err)
{
    if (!o) return FL_FAIL(err, FL_EINVAL, "solve: NULL options");
    if (o->solver != FL_SOLVER_GS && o->solver != FL_SOLVER_NEWTON && o->solver != FL_SOLVER_AUTO &&
        o->solver != FL_SOLVER_PPA)
        return FL_FAIL(err, FL_EINVAL, "solve: unknown solver %d", (int)o->solver);
    if (!fl_impl_name(o->impl))
        return FL_FAIL(err, FL_EINVAL, "solve: unknown implementation %d", (int)o->impl);
    if (!(o->tol > 0) || !isfinite(o->tol))
        return FL_FAIL(err, FL_EINVAL, "solve: tol = %g must be positive", o->tol);
    if (o->max_sweeps < 1 || o->max_newton < 1 || o->auto_gs_sweeps < 1 || o->max_ppa < 0
        || (o->max_ppa < 1 && o->solver == FL_SOLVER_PPA))
        return FL_FAIL(err, FL_EINVAL, "solve: max_sweeps = %d, max_newton = %d, "
                       "auto_gs_sweeps = %d must be >= 1, max_ppa = %d >= 1 (>= 0 for auto)", o->max_sweeps,
                       o->max_newton, o->auto_gs_sweeps, o->max_ppa);
    if (!(o->time_limit >= 0) || !isfinite(o->time_limit))
        return FL_FAIL(err, FL_EINVAL, "solve: time_limit = %g must be >= 0 seconds (0: none)",
                       o->time_limit);
    return FL_OK;
}

/* The time a stage may take: none (0) without a limit, else what is left
 * of o->time_limit since t0 (at least 1e-9 s: a spent budget still stops
 * the stage at its first check). */
static double time_left(const fl_solve_options *o, double t0)
{
    if (!(o->time_limit > 0)) return 0.0;
    double left = o->time_limit - (fl_clock_now() - t0);
    return left > 1e-9 ? left : 1e-9;
}

static fl_solve_stop stop_of(fl_status s)
{
    return s < 0 ? FL_SOLVE_STOP_ERROR : s == FL_OK ? FL_SOLVE_STOP_TOL
         : s == FL_WTIMEOUT ? FL_SOLVE_STOP_TIMEOUT : FL_SOLVE_STOP_MAXITER;
}

/* AUTO's watch on its Gauss–Seidel (drivers/solve.h): at the end of each
 * chunk of `chunk` sweeps from the second on, the linear rate per chunk
 * e_k / e_{k-1}; the sweeps stop (hand-over to Newton) when it does not
 * predict the tolerance within `more` chunks. */
typedef struct auto_watch {
    int chunk;
    double tol, more, e_prev;
} auto_watch;

static int auto_watch_cb(void *data, int sweep, double e, const gsl_vector *r)
{
    (void)r;
    auto_watch *w = data;
    if (sweep % w->chunk != 0) return 0;
    double rate = e / w->e_prev;
    int first = sweep == w->chunk;
    w->e_prev = e;
    if (first || e <= w->tol) return 0;
    return !(rate < 1) || log(w->tol / e) / log(rate) > w->more;
}

static fl_status run_gs(const fl_local_problem *p, const fl_solve_options *o, int sweeps,
                        int warm, double t0, auto_watch *watch, gsl_vector *r,
                        fl_solve_result *res, fl_error *err)
{
    fl_nsgs_options g = fl_nsgs_options_default();
    g.time_limit = time_left(o, t0);
    g.tol = o->tol;
    g.norm = o->norm;
    g.max_sweeps = sweeps;
    g.start = warm ? FL_NSGS_START_WARM : FL_NSGS_START_ZERO;
    if (watch) {   /* the chunks' ends must be checked sweeps of the sparse twin */
        g.callback = auto_watch_cb;
        g.callback_data = watch;
        g.callback_at_checks = 1;
        if (watch->chunk % g.sparse.check_every != 0) g.sparse.check_every = watch->chunk;
    }
    g.sparse.threads = o->threads;
    fl_nsgs_result gr;
    fl_status s = fl_nsgs_types[o->impl].solve(p, &g, r, NULL, &gr, err);
    res->gs_sweeps += gr.iterations;
    res->finished_by = FL_SOLVER_GS;
    res->stop = stop_of(s);
    res->residual = gr.residual;
    return s;
}

static fl_solve_stop newton_stop(fl_newton_stop s)
{
    switch (s) {
    case FL_NEWTON_STOP_TOL: return FL_SOLVE_STOP_TOL;
    case FL_NEWTON_STOP_MAXITER: return FL_SOLVE_STOP_MAXITER;
    case FL_NEWTON_STOP_STALLED: return FL_SOLVE_STOP_STALLED;
    case FL_NEWTON_STOP_ERROR: return FL_SOLVE_STOP_ERROR;
    case FL_NEWTON_STOP_TIMEOUT: return FL_SOLVE_STOP_TIMEOUT;
    }
    return FL_SOLVE_STOP_ERROR;
}

static fl_newton_options newton_options(const fl_solve_options *o, int warm)
{
    fl_newton_options n = fl_newton_options_default();
    n.tol = o->tol;
    n.norm = o->norm;
    n.max_iterations = o->max_newton;
    n.start = warm ? FL_NEWTON_START_WARM : FL_NEWTON_START_ZERO;
    return n;
}

static fl_status run_newton(const fl_local_problem *p, const fl_solve_options *o, int warm,
                            int max_fallbacks, int max_steps, double t0, gsl_vector *r,
                            fl_solve_result *res, fl_error *err)
{
    fl_newton_options n = newton_options(o, warm);
    n.time_limit = time_left(o, t0);
    if (max_fallbacks > 0) {   /* auto's 2D Newton phase: plain steps (solve.h) */
        n.max_fallbacks = max_fallbacks;
        n.reg_max = 0.0;
    }
    if (max_steps > 0 && max_steps < n.max_iterations) n.max_iterations = max_steps;
    fl_newton_result nr;
    fl_status s = fl_newton_types[o->impl].solve(p, &n, r, NULL, &nr, err);
    res->newton_steps += nr.iterations;
    res->gs_sweeps += nr.gs_sweeps;
    res->finished_by = FL_SOLVER_NEWTON;
    res->stop = newton_stop(nr.stop);
    res->residual = nr.residual;
    return s;
}

/* The proximal-point method (reference/ppa.h) from r (warm) or zero. */
static fl_status run_ppa(const fl_local_problem *p, const fl_solve_options *o, int warm,
                         double t0, gsl_vector *r, fl_solve_result *res, fl_error *err)
{
    fl_ppa_options a = fl_ppa_options_default();
    a.tol = o->tol;
    a.norm = o->norm;
    a.max_outer = o->max_ppa;
    a.start = warm ? FL_PPA_START_WARM : FL_PPA_START_ZERO;
    a.time_limit = time_left(o, t0);
    fl_ppa_result pr;
    memset(&pr, 0, sizeof pr);
    fl_status s = fl_ppa_types[o->impl].solve(p, &a, r, NULL, &pr, err);
    res->ppa_outer += pr.outer;
    res->newton_steps += pr.inner;
    res->gs_sweeps += pr.gs_sweeps;
    res->finished_by = FL_SOLVER_PPA;
    res->stop = stop_of(s);   /* ppa's stop follows its status (reference/ppa.c finish) */
    res->residual = pr.residual;
    return s;
}

/* AUTO on a local problem (solve.h): Gauss–Seidel in whole chunks, one
 * run watched at each chunk's end (the twin's setup, W^T and the diagonal
 * blocks, is paid once) while their rate predicts the tolerance soon; then
 * Newton; then Gauss–Seidel for the sweeps left from the better of the two
 * iterates; then (both stalled) the proximal-point method from the best. */
static fl_status run_auto(const fl_local_problem *p, const fl_solve_options *opt, double t0,
                          gsl_vector *r, fl_solve_result *res, fl_error *err)
{
    int chunk = opt->auto_gs_sweeps < opt->max_sweeps ? opt->auto_gs_sweeps : opt->max_sweeps;
    auto_watch w = {chunk, opt->tol, p->dim == 2 ? AUTO_MORE_CHUNKS_2D : AUTO_MORE_CHUNKS_3D, INFINITY};
    fl_status s = run_gs(p, opt, opt->max_sweeps / chunk * chunk, opt->warm, t0, &w, r, res, err);
    if (s != FL_WMAXITER) return s;
    gsl_vector *rg = gsl_vector_alloc(p->m);   /* the best iterate met so far */
    if (!rg) return FL_FAIL(err, FL_ENOMEM, "solve: out of memory");
    gsl_vector_memcpy(rg, r);
    double eg = res->residual;
    /* 2D: plain steps, given up at the 2nd failed one in a row (solve.h) */
    s = run_newton(p, opt, p->dim == 2, p->dim == 2 ? 1 : 0, 200, t0, r, res, err);
    if (s == FL_WTIMEOUT || s == FL_WMAXITER) {
        if (res->residual <= eg) {
            gsl_vector_memcpy(rg, r);
            eg = res->residual;
        } else {   /* Newton short of tol and worse: the Gauss–Seidel iterate is
                    * kept, returned or resumed (also when no sweep is left) */
            gsl_vector_memcpy(r, rg);
            res->residual = eg;
            res->finished_by = FL_SOLVER_GS;
            res->stop = stop_of(s);
        }
    }
    if (s == FL_WMAXITER && res->gs_sweeps < opt->max_sweeps) {
        s = run_gs(p, opt, opt->max_sweeps - res->gs_sweeps, 1, t0, NULL, r, res, err);
        if ((s == FL_WMAXITER || s == FL_WTIMEOUT) && res->residual <= eg) {
            gsl_vector_memcpy(rg, r);
            eg = res->residual;
        }
    }
    if (s == FL_WMAXITER && opt->max_ppa > 0) {   /* both stalled: ppa from the best */
        gsl_vector_memcpy(r, rg);
        s = run_ppa(p, opt, 1, t0, r, res, err);
    }
    if ((s == FL_WTIMEOUT || s == FL_WMAXITER) && !(res->residual <= eg)) {   /* the best */
        gsl_vector_memcpy(r, rg);
        res->residual = eg;
    }
    gsl_vector_free(rg);
    return s;
}

/* Both normalisations of the error at the returned r, recomputed here. */
static fl_status local_errors(const fl_local_problem *p, const gsl_vector *r, gsl_vector *U,
                              fl_solve_result *res, fl_error *err)
{
    FL_TRY(fl_residual_local(p, r, U, FL_RESIDUAL_NORM_Q, &res->residual_norm_q, err));
    res->residual_max_norm = fl_residual_natural_map(p->dim, p->nc, p->mu, r->data, U->data,
                                                     gsl_blas_dnrm2(p->q), FL_RESIDUAL_MAX_NORM);
    return FL_OK;
}

fl_status fl_solve_local(const fl_local_problem *p, const fl_solve_options *opt,
                         gsl_vector *r, gsl_vector *U, fl_solve_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_solve_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_SOLVE_STOP_ERROR;
    res->status = check_options(opt, err);
    if (res->status == FL_OK) res->status = fl_local_problem_check(p, err);
    if (res->status != FL_OK) return res->status;
    if (!r || r->size != p->m || r->stride != 1)
        return res->status = FL_FAIL(err, FL_EDIM, "solve: r must be a contiguous vector of "
                                     "length %zu", p->m);
    if (U && (U->size != p->m || U->stride != 1))
        return res->status = FL_FAIL(err, FL_EDIM, "solve: U must have length %zu", p->m);
    /* degenerate: refused before any iteration; Gauss–Seidel (gs, and auto's
     * first stage) refuses them itself with the same verdicts, in its own
     * setup; Newton and ppa (whose W + eta I hides a zero block) do not */
    if (opt->solver == FL_SOLVER_NEWTON || opt->solver == FL_SOLVER_PPA) {
        res->status = fl_nsgs_types[opt->impl].check_blocks(p, err);
        if (res->status != FL_OK) return res->status;
    }
    gsl_vector *Uw = gsl_vector_alloc(p->m);
    if (!Uw) return res->status = FL_FAIL(err, FL_ENOMEM, "solve: out of memory");
    fl_status s;
    switch (opt->solver) {
    case FL_SOLVER_GS:
        s = run_gs(p, opt, opt->max_sweeps, opt->warm, t0, NULL, r, res, err);
        break;
    case FL_SOLVER_NEWTON:
        s = run_newton(p, opt, opt->warm, 0, 0, t0, r, res, err);
        break;
    case FL_SOLVER_PPA:
        s = run_ppa(p, opt, opt->warm, t0, r, res, err);
        break;
    default:   /* AUTO: drivers/solve.h */
        s = run_auto(p, opt, t0, r, res, err);
        break;
    }
    if (s >= 0) {
        fl_status s2 = local_errors(p, r, Uw, res, err);
        if (s2 != FL_OK) s = s2;
        else if (U) gsl_vector_memcpy(U, Uw);
    }
    if (s < 0) res->stop = FL_SOLVE_STOP_ERROR;
    gsl_vector_free(Uw);
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    return s;
}

/* ||q||, q = H M^-1 f + w, and both normalised errors of (r, U). */
static fl_status global_errors(const fl_global_problem *g, int optimized, const gsl_vector *r,
                               const gsl_vector *U, fl_solve_result *res, fl_error *err)
{
    gsl_vector *y = gsl_vector_alloc(g->n), *q = gsl_vector_alloc(g->m);
    fl_status s = y && q ? FL_OK : FL_FAIL(err, FL_ENOMEM, "solve: out of memory");
    if (s == FL_OK && !optimized) {
        fl_spd *spd = NULL;
        s = fl_spd_alloc(g->M, &spd, err);
        if (s == FL_OK) s = fl_spd_solve(spd, g->f, y);
        fl_spd_free(spd);
        if (s == FL_OK) {
            gsl_vector_memcpy(q, g->w);
            gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, y, 1.0, q);
        }
    } else if (s == FL_OK) {
        cholmod_factor *L = NULL;
        s = fl_sparse_factor(g->ctx, g->Ms, &L, err);
        if (s == FL_OK) s = fl_sparse_solve(g->ctx, L, g->f->data, y->data, err);
        fl_sparse_free_factor(g->ctx, &L);
        if (s == FL_OK) {
            gsl_vector_memcpy(q, g->w);
            s = fl_sparse_mv(g->ctx, g->Hs, 0, 1.0, y->data, 1.0, q->data, err);
        }
    }
    if (s == FL_OK) {
        double nq = gsl_blas_dnrm2(q);
        res->residual_norm_q = fl_residual_natural_map(g->dim, g->nc, g->mu, r->data, U->data,
                                                       nq, FL_RESIDUAL_NORM_Q);
        res->residual_max_norm = fl_residual_natural_map(g->dim, g->nc, g->mu, r->data,
                                                         U->data, nq, FL_RESIDUAL_MAX_NORM);
    }
    if (y) gsl_vector_free(y);
    if (q) gsl_vector_free(q);
    return s;
}

/* The matrices the chosen twin reads must be present. */
static fl_status global_check_required(const fl_global_problem *g, int optimized, fl_error *err)
{
    if (optimized && (!g->Ms || !g->Hs || !g->ctx))
        return FL_FAIL(err, FL_EINVAL, "solve: the optimized solvers need sparse M and H");
    if (!optimized && (!g->M || !g->H))
        return FL_FAIL(err, FL_EINVAL, "solve: the reference solvers need dense M and H");
    if (!g->f || !g->w || !g->mu || g->f->size != g->n || g->w->size != g->m)
        return FL_FAIL(err, FL_EINVAL, "solve: f (length %zu) and w (length %zu) are required",
                       g->n, g->m);
    return FL_OK;
}

/* Gauss–Seidel or the proximal-point method on the Delassus problem of g, then v = M^-1 (f + H^T r). */
static fl_status global_gs(const fl_global_problem *g, const fl_solve_options *o, double t0,
                           gsl_vector *v, gsl_vector *r, gsl_vector *U, fl_solve_result *res,
                           fl_error *err)
{
    fl_local_problem *p = NULL;
    cholmod_factor *L = NULL;
    int optimized = o->impl == FL_IMPL_OPTIMIZED;
    fl_status s = fl_delassus_types[o->impl].delassus(g, NULL, &L, &p, err);
    if (s == FL_OK)
        s = o->solver == FL_SOLVER_PPA ? run_ppa(p, o, o->warm, t0, r, res, err)
                                       : run_gs(p, o, o->max_sweeps, o->warm, t0, NULL, r, res, err);
    gsl_vector *y = s >= 0 ? gsl_vector_alloc(g->n) : NULL;
    if (s >= 0 && !y) s = FL_FAIL(err, FL_ENOMEM, "solve: out of memory");
    if (s >= 0) {
        fl_status s2 = FL_OK;
        gsl_vector_memcpy(y, g->f);
        if (optimized) {
            s2 = fl_sparse_mv(g->ctx, g->Hs, 1, 1.0, r->data, 1.0, y->data, err);   /* y += H^T r */
            if (s2 == FL_OK) s2 = fl_sparse_solve(g->ctx, L, y->data, v->data, err);
        } else {
            fl_spd *spd = NULL;
            gsl_blas_dgemv(CblasTrans, 1.0, g->H, r, 1.0, y);
            s2 = fl_spd_alloc(g->M, &spd, err);
            if (s2 == FL_OK) s2 = fl_spd_solve(spd, y, v);
            fl_spd_free(spd);
        }
        if (s2 == FL_OK) {
            gsl_vector_memcpy(U, g->w);
            if (optimized) s2 = fl_sparse_mv(g->ctx, g->Hs, 0, 1.0, v->data, 1.0, U->data, err);
            else gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, v, 1.0, U);
        }
        if (s2 != FL_OK) s = s2;
    }
    if (y) gsl_vector_free(y);
    if (L) fl_sparse_free_factor(g->ctx, &L);
    fl_local_problem_free(p);
    return s;
}

fl_status fl_solve_global(const fl_global_problem *g, const fl_solve_options *opt,
                          gsl_vector *v, gsl_vector *r, gsl_vector *U, fl_solve_result *res,
                          fl_error *err)
{
    double t0 = fl_clock_now();
    fl_solve_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    res->stop = FL_SOLVE_STOP_ERROR;
    res->status = check_options(opt, err);
    if (res->status != FL_OK) return res->status;
    if (!g) return res->status = FL_FAIL(err, FL_EINVAL, "solve: NULL global problem");
    if (!r || r->size != g->m || r->stride != 1)
        return res->status = FL_FAIL(err, FL_EDIM, "solve: r must be a contiguous vector of "
                                     "length %zu", g->m);
    if ((v && (v->size != g->n || v->stride != 1)) || (U && (U->size != g->m || U->stride != 1)))
        return res->status = FL_FAIL(err, FL_EDIM, "solve: v must have length %zu and U %zu",
                                     g->n, g->m);
    gsl_vector *vw = gsl_vector_alloc(g->n ? g->n : 1), *Uw = gsl_vector_alloc(g->m);
    if (!vw || !Uw) {
        if (vw) gsl_vector_free(vw);
        if (Uw) gsl_vector_free(Uw);
        return res->status = FL_FAIL(err, FL_ENOMEM, "solve: out of memory");
    }
    fl_status s;
    if (opt->solver == FL_SOLVER_GS || opt->solver == FL_SOLVER_PPA) {
        s = global_check_required(g, opt->impl == FL_IMPL_OPTIMIZED, err);
        if (s == FL_OK) s = global_gs(g, opt, t0, vw, r, Uw, res, err);
    } else {
        fl_newton_options n = newton_options(opt, opt->warm);
        n.time_limit = time_left(opt, t0);
        fl_newton_result nr;
        s = fl_newton_types[opt->impl].global_solve(g, &n, vw, r, Uw, &nr, err);
        res->newton_steps = nr.iterations;
        res->finished_by = FL_SOLVER_NEWTON;
        res->stop = newton_stop(nr.stop);
        res->residual = nr.residual;
    }
    if (s >= 0) {
        fl_status s2 = global_errors(g, opt->impl == FL_IMPL_OPTIMIZED, r, Uw, res, err);
        if (s2 != FL_OK) s = s2;
        else {
            if (v) gsl_vector_memcpy(v, vw);
            if (U) gsl_vector_memcpy(U, Uw);
        }
    }
    if (s < 0) res->stop = FL_SOLVE_STOP_ERROR;
    gsl_vector_free(vw);
    gsl_vector_free(Uw);
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    return s;
}
