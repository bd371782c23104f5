/* nsgs.c — reference nonlinear Gauss–Seidel for the Contact Dynamics core
 * problem on a dense Delassus operator (003 §3; 003 §3–5).
 * See nsgs.h for the conventions. */
#include "nsgs.h"
#include "nsgs_internal.h"
#include "fl_clock.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"
#include "local_contact.h"

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
    o.sparse.check_every = 10;
    return o;
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

/* proofs/degenerate-problems.md: (D1) a zero normal row with q_N < 0 has no
 * solution; (D2) a zero W_aa leaves contact a's single-contact problem
 * without a unique answer.  A singular but nonzero W_aa is accepted: the
 * rank-deficient systems of testkit/fl_random.h have such blocks and both
 * solvers solve them (tests/test_nsgs.c). */
fl_status fl_nsgs_block_verdict(int dim, size_t a, const double *Waa, int normal_row_zero,
                                double qN, fl_error *err)
{
    if (normal_row_zero && qN < 0)
        return FL_FAIL(err, FL_EINVAL,
                       "contact %zu: no solution exists: row %zu of W (its normal velocity) "
                       "is zero and q_N = %g < 0, so U_N = q_N < 0 for every r, while "
                       "Coulomb's law needs U_N >= 0", a, (size_t)dim * a, qN);
    double mx = 0;
    for (int k = 0; k < dim * dim; k++) mx = fmax(mx, fabs(Waa[k]));
    if (mx == 0)
        return FL_FAIL(err, FL_ESINGULAR,
                       "contact %zu: its diagonal block W_aa is zero: the single-contact "
                       "problem has no unique answer (Gauss-Seidel cannot treat it)", a);
    return FL_OK;
}

fl_status fl_nsgs_check_blocks(const fl_local_problem *p, fl_error *err)
{
    FL_TRY(fl_local_problem_check(p, err));
    if (!p->W) return FL_FAIL(err, FL_EINVAL, "nsgs: reference needs a dense W");
    const int dim = p->dim;
    for (size_t a = 0; a < p->nc; a++) {
        double Waa[9];
        int zero = 1;
        for (size_t j = 0; j < p->m && zero; j++) zero = gsl_matrix_get(p->W, dim * a, j) == 0;
        for (int i = 0; i < dim; i++)
            for (int l = 0; l < dim; l++)
                Waa[i * dim + l] = gsl_matrix_get(p->W, dim * a + i, dim * a + l);
        FL_TRY(fl_nsgs_block_verdict(dim, a, Waa, zero, gsl_vector_get(p->q, dim * a), err));
    }
    return FL_OK;
}

int fl_nsgs_timed_out(const fl_nsgs_options *opt, double t0)
{
    return opt->time_limit > 0 && fl_clock_now() - t0 >= opt->time_limit;
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
    if (!(opt->time_limit >= 0) || !isfinite(opt->time_limit))
        return FL_FAIL(err, FL_EINVAL, "nsgs: time_limit = %g must be >= 0 seconds (0: none)",
                       opt->time_limit);
    if (opt->sparse.check_every < 1)
        return FL_FAIL(err, FL_EINVAL, "nsgs: sparse.check_every = %d must be >= 1", opt->sparse.check_every);
    if (opt->sparse.threads < -1)
        return FL_FAIL(err, FL_EINVAL, "nsgs: sparse.threads = %d must be >= -1", opt->sparse.threads);
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
    fl_nsgs_options dflt_opt = fl_nsgs_options_default();   /* NULL options: the defaults */
    if (!opt) opt = &dflt_opt;
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
    double *rbest = opt->time_limit > 0 ? malloc(p->m * sizeof *rbest) : NULL;
    if (!perm || !Ut || (opt->time_limit > 0 && !rbest)) {
        free(perm);
        free(rbest);
        if (Ut) gsl_vector_free(Ut);
        return res->status = FL_FAIL(err, FL_ENOMEM, "nsgs: out of memory");
    }
    fl_status s = fl_nsgs_prepare(p, opt, r, perm, err);
    if (s == FL_OK) s = fl_nsgs_check_blocks(p, err);
    const int dim = p->dim;
    const size_t m = p->m;
    double e = INFINITY, ebest = INFINITY;
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
            if (fl_local_contact_solve(dim, p->mu[a], Waa, b, rl) == 0) res->local_fallbacks++;
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
        if (rbest && e < ebest) {
            memcpy(rbest, r->data, m * sizeof *rbest);
            ebest = e;
        }
        int stop = e <= opt->tol;
        if (opt->callback && opt->callback(opt->callback_data, sweep, e, r)) stop = 1;
        if (stop) break;
        if (fl_nsgs_timed_out(opt, t0)) {
            s = FL_WTIMEOUT;
            break;
        }
    }
    if (s == FL_WTIMEOUT && ebest < e) {   /* the best checked iterate, its error */
        memcpy(r->data, rbest, m * sizeof *rbest);
        fl_status s2 = fl_residual_local(p, r, Ut, opt->norm, &e, err);
        if (s2 != FL_OK) s = s2;
    }
    if (s == FL_OK && !(e <= opt->tol)) s = FL_WMAXITER;
    if (U && s >= 0) gsl_vector_memcpy(U, Ut);
    res->iterations = sweep;
    res->residual = e;
    res->status = s;
    res->seconds = fl_clock_now() - t0;
    free(perm);
    free(rbest);
    gsl_vector_free(Ut);
    return s;
}
