/* plurality_explore.c — clouds of Gauss–Seidel limits (003 §3–5).  See plurality_explore.h. */
#include "plurality_explore.h"
#include "fl_dense.h"

#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

fl_plurality_options fl_plurality_options_default(void)
{
    fl_plurality_options o;
    memset(&o, 0, sizeof o);
    o.mode = FL_PLURALITY_RANDOM_ORDER;
    o.runs = 100;
    o.dedup_tol = 1e-6;
    o.impl = FL_IMPL_REFERENCE;
    o.nsgs = fl_nsgs_options_default();
    return o;
}

void fl_cloud_free(fl_cloud *c)
{
    if (!c) return;
    free(c->pts);
    free(c->distinct);
    free(c->count);
    free(c);
}

/* 003 §3: many runs, random orderings from zero or random initial guesses. */
fl_status fl_plurality_explore(const fl_local_problem *p, const fl_plurality_options *opt,
                               fl_cloud **out, fl_plurality_result *res, fl_error *err)
{
    double t0 = fl_clock_now();
    fl_plurality_result dummy;
    if (!res) res = &dummy;
    memset(res, 0, sizeof *res);
    if (!out || !opt || !p) return res->status = FL_FAIL(err, FL_EINVAL, "plurality: NULL argument");
    *out = NULL;
    if (opt->runs == 0 || !opt->nsgs.rng || !(opt->dedup_tol > 0))
        return res->status = FL_FAIL(err, FL_EINVAL,
                                     "plurality: runs > 0, dedup_tol > 0 and an rng are required");
    if (opt->mode != FL_PLURALITY_RANDOM_ORDER && opt->mode != FL_PLURALITY_RANDOM_START)
        return res->status = FL_FAIL(err, FL_EINVAL, "plurality: unknown mode %d", (int)opt->mode);
    const fl_nsgs_type *im = fl_nsgs_type_get(opt->impl);
    if (!im) return res->status = FL_FAIL(err, FL_EINVAL, "plurality: unknown implementation %d",
                                          (int)opt->impl);
    fl_status s = fl_local_problem_check(p, err);
    if (s < 0) return res->status = s;
    const size_t m = p->m;
    fl_cloud *c = calloc(1, sizeof *c);
    gsl_vector *r = fl_dense_vector_alloc(m);
    if (c) {
        c->m = m;
        c->pts = malloc(opt->runs * m * sizeof *c->pts);
        c->distinct = malloc(opt->runs * m * sizeof *c->distinct);
        c->count = calloc(opt->runs, sizeof *c->count);
    }
    if (!c || !r || !c->pts || !c->distinct || !c->count) {
        fl_cloud_free(c);
        if (r) gsl_vector_free(r);
        return res->status = FL_FAIL(err, FL_ENOMEM, "plurality: out of memory");
    }
    fl_nsgs_options o = opt->nsgs;
    o.order = opt->mode == FL_PLURALITY_RANDOM_ORDER ? FL_NSGS_ORDER_RANDOM : FL_NSGS_ORDER_NATURAL;
    o.start = opt->mode == FL_PLURALITY_RANDOM_ORDER ? FL_NSGS_START_ZERO : FL_NSGS_START_RANDOM;
    /* a cloud dot is the first iterate below tol, as in the reference twin
     * (optimized/nsgs_sparse.c, stopping rule): both twins sample the same set */
    o.sparse.check_every = 1;
    for (size_t run = 0; run < opt->runs; run++) {
        fl_nsgs_result nr;
        s = im->solve(p, &o, r, NULL, &nr, err);
        res->iterations += nr.iterations;
        if (s < 0) break;
        s = FL_OK;
        if (nr.status != FL_OK) {
            c->nfailed++;
            continue;
        }
        res->residual = fmax(res->residual, nr.residual);
        memcpy(c->pts + c->npts * m, r->data, m * sizeof(double));
        c->npts++;
        double nrm = 0;
        for (size_t i = 0; i < m; i++) nrm += r->data[i] * r->data[i];
        nrm = sqrt(nrm);
        size_t k;
        for (k = 0; k < c->ndistinct; k++) {
            double d = 0;
            for (size_t i = 0; i < m; i++) {
                double t = c->distinct[k * m + i] - r->data[i];
                d += t * t;
            }
            if (sqrt(d) <= opt->dedup_tol * (1.0 + nrm)) break;
        }
        if (k == c->ndistinct) {
            memcpy(c->distinct + k * m, r->data, m * sizeof(double));
            c->ndistinct++;
        }
        c->count[k]++;
    }
    gsl_vector_free(r);
    res->seconds = fl_clock_now() - t0;
    if (s < 0) {
        fl_cloud_free(c);
        return res->status = s;
    }
    *out = c;
    return res->status = FL_OK;
}
