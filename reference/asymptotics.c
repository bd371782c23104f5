/* asymptotics.c — gamma(q), A(q,u-), A_eps(q,u-) and Hausdorff distances
 * (000 §3, (8)-(10), Theorem 1); estimation procedure of 000 §3. */
#include "asymptotics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"

void fl_asymptotics_set_release(fl_asymptotics_set *A)
{
    if (!A) return;
    gsl_vector_free(A->a);
    gsl_vector_free(A->b);
    A->a = A->b = NULL;
}

/* 000 §3: A(q,u-) = {u-, u~} if gamma(q) < 0, [u-, u~] if gamma(q) = 0,
 * u~ = Proj_q(0, (u- + M^-1 R(q)) ∩ T(q)). */
fl_status fl_asymptotics_build(const fl_moreau_system *sys, const gsl_vector *q,
                        const gsl_vector *um, const fl_moreau_options *opt,
                        double gamma_tol, double gap_tol, fl_asymptotics_set *A,
                        fl_error *err)
{
    if (!A) return FL_FAIL(err, FL_EINVAL, "A is NULL");
    memset(A, 0, sizeof *A);
    if (!sys || !q || !um || um->size != sys->d || q->size != sys->d)
        return FL_FAIL(err, FL_EDIM, "q and u- must have length d");
    int onedim = (sys->friction == FL_MOREAU_SET && sys->k == 1) ||
                 (sys->friction == FL_MOREAU_ISOTROPIC && sys->d == 2);
    if (!onedim)
        return FL_FAIL(err, FL_EUNSUPPORTED, "A(q,u-) is given by 000 §3 for one-dimensional "
                       "friction only (H4)");
    const size_t d = sys->d;
    gsl_vector *dphi = fl_dense_vector_alloc(d), *up = fl_dense_vector_alloc(d);
    if (!dphi || !up) {
        gsl_vector_free(dphi);
        gsl_vector_free(up);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    double phi;
    fl_status st = sys->gap(q, &phi, dphi, sys->data);
    if (st != FL_OK) { st = FL_FAIL(err, st, "gap callback failed"); goto out; }
    if (!(phi <= gap_tol)) {
        st = FL_FAIL(err, FL_EINVAL, "contact not active at q (gap %g > %g)", phi, gap_tol);
        goto out;
    }
    double nd = gsl_blas_dnrm2(dphi), un;
    if (!(nd > 0)) { st = FL_FAIL(err, FL_EINVAL, "gradient of the gap vanishes (H2)"); goto out; }
    gsl_blas_ddot(um, dphi, &un);
    un /= nd;
    if (fabs(un) > 1e-12 * gsl_blas_dnrm2(um)) {
        st = FL_FAIL(err, FL_EINVAL, "<u-, n(q)> = %g is not 0 (000 §3 needs a tangential u-)",
                     un);
        goto out;
    }
    /* exact tangential u- for the projection (c0 = 0) */
    gsl_vector_memcpy(up, um);
    gsl_blas_daxpy(-un / nd, dphi, up);
    st = fl_moreau_system_gamma(sys, q, &A->gamma, err);
    if (st != FL_OK) goto out;
    A->a = fl_dense_vector_alloc(d);
    A->b = fl_dense_vector_alloc(d);
    if (!A->a || !A->b) { st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto out; }
    gsl_vector_memcpy(A->a, um);
    st = fl_moreau_system_project(sys, q, up, opt, A->b, NULL, err);
    if (st != FL_OK) goto out;
    A->segment = fabs(A->gamma) <= gamma_tol;
out:
    gsl_vector_free(dphi);
    gsl_vector_free(up);
    if (st != FL_OK) fl_asymptotics_set_release(A);
    return st;
}

static double dist_points(const gsl_vector *x, const gsl_vector *y)
{
    double s = 0;
    for (size_t i = 0; i < x->size; i++) {
        double t = gsl_vector_get(x, i) - gsl_vector_get(y, i);
        s += t * t;
    }
    return sqrt(s);
}

/* dist(x, [a,b]) by the clamped projection, dist(x, {a,b}) by a minimum. */
double fl_asymptotics_dist(const fl_asymptotics_set *A, const gsl_vector *x)
{
    if (!A->segment) return fmin(dist_points(x, A->a), dist_points(x, A->b));
    double ee = 0, ex = 0;
    for (size_t i = 0; i < x->size; i++) {
        double e = gsl_vector_get(A->b, i) - gsl_vector_get(A->a, i);
        ee += e * e;
        ex += e * (gsl_vector_get(x, i) - gsl_vector_get(A->a, i));
    }
    double t = ee > 0 ? fmin(1.0, fmax(0.0, ex / ee)) : 0.0;
    double s = 0;
    for (size_t i = 0; i < x->size; i++) {
        double ai = gsl_vector_get(A->a, i);
        double p = ai + t * (gsl_vector_get(A->b, i) - ai);
        double dlt = gsl_vector_get(x, i) - p;
        s += dlt * dlt;
    }
    return sqrt(s);
}

/* 000 §3: e(P, Q) = sup_{p in P} inf_{q in Q} |p - q|. */
double fl_asymptotics_excess_points(const gsl_matrix *P, size_t np, const gsl_matrix *Q, size_t nq)
{
    if (np == 0) return 0.0;
    if (nq == 0) return INFINITY;
    double e = 0;
    for (size_t i = 0; i < np; i++) {
        gsl_vector_const_view p = gsl_matrix_const_row(P, i);
        double best = INFINITY;
        for (size_t j = 0; j < nq && best > e; j++) {
            gsl_vector_const_view qq = gsl_matrix_const_row(Q, j);
            best = fmin(best, dist_points(&p.vector, &qq.vector));
        }
        e = fmax(e, best);
    }
    return e;
}

double fl_asymptotics_hausdorff_points(const gsl_matrix *P, size_t np, const gsl_matrix *Q, size_t nq)
{
    return fmax(fl_asymptotics_excess_points(P, np, Q, nq), fl_asymptotics_excess_points(Q, nq, P, np));
}

/* 000 (9): sup dist(S(q_eps, u_eps), A). */
double fl_asymptotics_excess_samples_to_set(const gsl_matrix *S, size_t ns, const fl_asymptotics_set *A)
{
    double e = 0;
    for (size_t i = 0; i < ns; i++) {
        gsl_vector_const_view s = gsl_matrix_const_row(S, i);
        e = fmax(e, fl_asymptotics_dist(A, &s.vector));
    }
    return e;
}

/* 000 (10): sup_{v in A} dist(v, A_eps), A discretised (000 §3). */
double fl_asymptotics_excess_set_to_samples(const fl_asymptotics_set *A, size_t K, const gsl_matrix *S,
                                     size_t ns)
{
    const size_t d = A->a->size;
    size_t npts = A->segment ? (K < 2 ? 2 : K) : 2;
    gsl_matrix *G = fl_dense_matrix_alloc(npts, d);
    if (!G) return NAN;
    for (size_t j = 0; j < npts; j++) {
        double t = A->segment ? (double)j / (double)(npts - 1) : (double)j;
        for (size_t i = 0; i < d; i++) {
            double ai = gsl_vector_get(A->a, i);
            gsl_matrix_set(G, j, i, ai + t * (gsl_vector_get(A->b, i) - ai));
        }
    }
    double e = fl_asymptotics_excess_points(G, npts, S, ns);
    gsl_matrix_free(G);
    return e;
}

void fl_asymptotics_ball_point(gsl_rng *rng, const gsl_vector *c, double radius, gsl_vector *x)
{
    const size_t d = c->size;
    double nrm = 0;
    do {
        nrm = 0;
        for (size_t i = 0; i < d; i++) {
            double g = gsl_ran_gaussian(rng, 1.0);
            gsl_vector_set(x, i, g);
            nrm += g * g;
        }
    } while (nrm == 0);
    double rad = radius * pow(gsl_rng_uniform(rng), 1.0 / (double)d) / sqrt(nrm);
    for (size_t i = 0; i < d; i++)
        gsl_vector_set(x, i, gsl_vector_get(c, i) + rad * gsl_vector_get(x, i));
}

/* 000 §3: A_eps(q,u-) = {S(q_eps, u-_eps) : q_eps in B(q,eps), u-_eps in B(u-,eps)}. */
fl_status fl_asymptotics_sample(const fl_moreau_system *sys, const gsl_vector *q,
                         const gsl_vector *um, double eps, size_t ns, gsl_rng *rng,
                         const fl_moreau_options *opt, gsl_matrix *S, size_t *ncollide,
                         fl_error *err)
{
    if (!sys || !q || !um || !rng || !S || q->size != sys->d || um->size != sys->d ||
        S->size1 < ns || S->size2 != sys->d)
        return FL_FAIL(err, FL_EDIM, "sample: bad sizes (S must be at least ns x d)");
    if (!(eps > 0) || !isfinite(eps)) return FL_FAIL(err, FL_EINVAL, "eps = %g must be > 0", eps);
    const size_t d = sys->d;
    gsl_vector *qe = fl_dense_vector_alloc(d), *ue = fl_dense_vector_alloc(d), *r = fl_dense_vector_alloc(d);
    fl_status st = FL_OK;
    size_t nc = 0;
    if (!qe || !ue || !r) { st = FL_FAIL(err, FL_ENOMEM, "out of memory"); goto out; }
    for (size_t i = 0; i < ns; i++) {
        fl_asymptotics_ball_point(rng, q, eps, qe);
        fl_asymptotics_ball_point(rng, um, eps, ue);
        gsl_vector_view row = gsl_matrix_row(S, i);
        fl_moreau_result res;
        st = fl_moreau_system_law(sys, qe, ue, opt, &row.vector, r, &res, err);
        if (st < 0) goto out;
        st = FL_OK;
        if (res.branch == FL_MOREAU_COLLISION) nc++;
    }
out:
    if (ncollide) *ncollide = nc;
    gsl_vector_free(qe);
    gsl_vector_free(ue);
    gsl_vector_free(r);
    return st;
}
