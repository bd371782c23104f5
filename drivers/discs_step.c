/* discs_step.c — Contact Dynamics steps of the rigid discs of
 * reference/discs.h (003 §3–§5): the local problem of a step, the step,
 * and deposition under gravity.  The implementation (all-pairs detection,
 * dense W, fl_nsgs_solve; or cell lists, CHOLMOD W, fl_nsgs_solve_sparse)
 * comes from the table fl_discs_reference / fl_discs_optimized. */
#include "drivers/discs_step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>

#include "optimized/discs_sparse.h"
#include "optimized/nsgs_sparse.h"
#include "reference/delassus.h"
#include "fl_clock.h"
#include "fl_dense.h"

static fl_status delassus_dense(const fl_discs *d, const fl_global_problem *g,
                                fl_local_problem **out, fl_error *err)
{
    (void)d;
    return fl_delassus_dense(g, NULL, NULL, out, err);
}

static const fl_discs_impl discs_reference = {
    "reference", 1, fl_discs_detect, delassus_dense, fl_nsgs_solve
};
static const fl_discs_impl discs_optimized = {
    "optimized", 0, fl_discs_detect_cells, fl_discs_delassus_diag, fl_nsgs_solve_sparse
};
const fl_discs_impl *const fl_discs_reference = &discs_reference;
const fl_discs_impl *const fl_discs_optimized = &discs_optimized;

const fl_discs_impl *fl_discs_impl_get(fl_impl impl)
{
    return impl == FL_IMPL_REFERENCE ? fl_discs_reference
         : impl == FL_IMPL_OPTIMIZED ? fl_discs_optimized : NULL;
}

fl_discs_step_options fl_discs_step_options_default(void)
{
    fl_discs_step_options o;
    o.h = 1e-3;
    o.impl = FL_IMPL_REFERENCE;
    o.warm = 1;
    o.nsgs = fl_nsgs_options_default();
    return o;
}

fl_status fl_discs_work_init(fl_discs_work *w, fl_error *err)
{
    if (!w) return FL_FAIL(err, FL_EINVAL, "discs: NULL work");
    memset(w, 0, sizeof *w);
    FL_TRY(fl_sparse_start(&w->ctx, err));
    w->started = 1;
    return FL_OK;
}

void fl_discs_work_clear(fl_discs_work *w)
{
    if (!w) return;
    free(w->c);
    free(w->s);
    fl_nsgs_colored_cache_clear(&w->cache);
    if (w->started) {
        fl_sparse_free_factor(&w->ctx, &w->L);
        fl_sparse_finish(&w->ctx);
    }
    memset(w, 0, sizeof *w);
}

fl_status fl_discs_local(const fl_discs *d, const fl_discs_step_options *opt,
                         fl_discs_work *work, fl_disc_contact **c, size_t *nc,
                         fl_local_problem **p, fl_error *err)
{
    if (!opt || !work || !work->started || !c || !nc || !p)
        return FL_FAIL(err, FL_EINVAL, "discs: options, initialised work and outputs required");
    *p = NULL;
    *c = NULL;
    *nc = 0;
    const fl_discs_impl *im = fl_discs_impl_get(opt->impl);
    if (!im) return FL_FAIL(err, FL_EINVAL, "discs: unknown implementation %d", (int)opt->impl);
    if (!(opt->h > 0) || !isfinite(opt->h)) return FL_FAIL(err, FL_EINVAL, "discs: h must be > 0");
    int dense = im->dense;
    FL_TRY(im->detect(d, c, nc, err));
    if (*nc == 0) return FL_OK;
    fl_global_problem *g = NULL;
    fl_status s = fl_discs_global(d, *c, *nc, opt->h, dense, &work->ctx, &g, err);
    if (s == FL_OK) {
        s = im->delassus(d, g, p, err);
    }
    if (g && !dense) {
        fl_sparse_free(&work->ctx, &g->Hs);
        fl_sparse_free(&work->ctx, &g->Ms);
    }
    fl_global_problem_free(g);
    if (s != FL_OK) {
        free(*c);
        *c = NULL;
        *nc = 0;
    }
    return s;
}

fl_status fl_discs_step(fl_discs *d, const fl_discs_step_options *opt, fl_discs_work *work,
                        fl_discs_step_result *res, fl_error *err)
{
    fl_discs_step_result tmp;
    if (!res) res = &tmp;
    memset(res, 0, sizeof *res);
    double t0 = fl_clock_now();
    fl_disc_contact *c = NULL;
    size_t nc = 0;
    fl_local_problem *p = NULL;
    if (!d) return res->status = FL_FAIL(err, FL_EINVAL, "discs: NULL system");
    fl_status s = fl_discs_local(d, opt, work, &c, &nc, &p, err);
    double t1 = fl_clock_now();
    res->ncontacts = nc;
    double *uf = malloc(3 * d->N * sizeof *uf);
    gsl_vector *r = nc ? fl_dense_vector_calloc(2 * nc) : NULL;
    gsl_vector *U = nc ? fl_dense_vector_calloc(2 * nc) : NULL;
    if (s == FL_OK && (!uf || (nc && (!r || !U))))
        s = FL_FAIL(err, FL_ENOMEM, "discs: out of memory");
    fl_status solve_s = FL_OK;
    if (s == FL_OK && nc) {
        fl_nsgs_options o = opt->nsgs;
        o.start = FL_NSGS_START_ZERO;
        if (opt->warm && work->nc) {
            /* 003 §3: previous impulses of the contacts already active */
            o.start = FL_NSGS_START_WARM;
            for (size_t a = 0; a < nc; a++) {
                fl_disc_contact *prev = bsearch(&c[a], work->c, work->nc, sizeof *c,
                                                fl_discs_contact_cmp);
                if (prev) {
                    size_t b = (size_t)(prev - work->c);
                    r->data[2 * a] = work->s[2 * b];
                    r->data[2 * a + 1] = work->s[2 * b + 1];
                }
            }
        }
        if (!fl_discs_impl_get(opt->impl)->dense && !o.sparse.cache) o.sparse.cache = &work->cache;
        fl_nsgs_result nr;
        solve_s = fl_discs_impl_get(opt->impl)->solve(p, &o, r, U, &nr, err);
        res->iterations = nr.iterations;
        res->residual = nr.residual;
        if (solve_s < 0) s = solve_s;
    }
    res->solve_seconds = fl_clock_now() - t1;
    if (s == FL_OK) {
        double umax = 0;
        for (size_t k = 0; k < 2 * nc; k++) umax = fmax(umax, fabs(U->data[k]));
        /* zero sliding up to the solver's accuracy: the natural-map error
         * bounds each |U_T| error by tol |q| */
        double stick_tol = fmax(1e-9 * (1 + umax),
                                p ? 10 * opt->nsgs.tol * gsl_blas_dnrm2(p->q) : 0);
        for (size_t a = 0; a < nc; a++)
            if (r->data[2 * a] > 0) {
                res->nactive++;
                if (fabs(U->data[2 * a + 1]) <= stick_tol) res->nsticking++;
            }
        fl_discs_end_velocity(d, c, nc, opt->h, r ? r->data : NULL, uf);
        for (size_t i = 0; i < d->N; i++) {
            d->vx[i] = uf[3 * i];
            d->vy[i] = uf[3 * i + 1];
            d->w[i] = uf[3 * i + 2];
            d->x[i] += opt->h * d->vx[i];
            d->y[i] += opt->h * d->vy[i];
            d->theta[i] += opt->h * d->w[i];
        }
        fl_discs_wrap(d);
        free(work->c);
        free(work->s);
        work->c = c;
        work->nc = nc;
        work->s = NULL;
        if (nc) {
            work->s = malloc(2 * nc * sizeof *work->s);
            if (work->s) memcpy(work->s, r->data, 2 * nc * sizeof *work->s);
            else work->nc = 0;
        }
        c = NULL;
    }
    free(c);
    free(uf);
    gsl_vector_free(r);
    gsl_vector_free(U);
    if (p && p->Ws) fl_sparse_free(&work->ctx, &p->Ws);
    fl_local_problem_free(p);
    res->detect_seconds = t1 - t0;
    res->seconds = fl_clock_now() - t0;
    res->status = s == FL_OK ? solve_s : s;
    return res->status;
}

fl_status fl_discs_deposit(fl_discs *d, const fl_discs_step_options *opt, gsl_rng *rng,
                           int max_steps, double v_tol, int *steps, fl_error *err)
{
    if (!d || !opt || !rng || max_steps < 1 || !(v_tol > 0))
        return FL_FAIL(err, FL_EINVAL, "discs: deposit needs discs, options, rng, "
                       "max_steps >= 1, v_tol > 0");
    if (!d->ground || !(d->walls || d->periodic))
        return FL_FAIL(err, FL_EINVAL, "discs: deposit needs the ground and walls or a band");
    double Rmax = 0;
    for (size_t i = 0; i < d->N; i++) Rmax = fmax(Rmax, d->R[i]);
    double left = d->walls ? d->wall_left : -d->a;
    double right = d->walls ? d->wall_right : d->a;
    if (d->walls && d->periodic) {
        left = fmax(left, -d->a);
        right = fmin(right, d->a);
    }
    double sp = 2.2 * Rmax;
    size_t cols = (size_t)floor((right - left) / sp);
    if (cols == 0) return FL_FAIL(err, FL_EINVAL, "discs: deposit region narrower than a disc");
    for (size_t i = 0; i < d->N; i++) {
        size_t row = i / cols, col = i % cols;
        d->x[i] = left + sp * (col + 0.5) + 0.05 * Rmax * (2 * gsl_rng_uniform(rng) - 1);
        d->y[i] = d->ground_y + sp * (row + 0.5) + 0.05 * Rmax * gsl_rng_uniform(rng);
        d->theta[i] = d->vx[i] = d->vy[i] = d->w[i] = 0;
    }
    fl_discs_wrap(d);
    fl_discs_work work;
    FL_TRY(fl_discs_work_init(&work, err));
    fl_status s = FL_OK;
    int k;
    for (k = 0; k < max_steps; k++) {
        s = fl_discs_step(d, opt, &work, NULL, err);
        if (s < 0) break;
        s = FL_OK;
        double vmax = 0;
        for (size_t i = 0; i < d->N; i++)
            vmax = fmax(vmax, fmax(hypot(d->vx[i], d->vy[i]), fabs(d->w[i]) * d->R[i]));
        if (k >= 10 && vmax < v_tol) {
            k++;
            break;
        }
    }
    if (steps) *steps = k;
    fl_discs_work_clear(&work);
    return s;
}
