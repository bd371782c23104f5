/* fl_residual.c — natural-map error for frictional contact (fl_residual.h). */
#include "fl_residual.h"
#include "fl_dense.h"

#include <float.h>
#include <math.h>
#include <gsl/gsl_blas.h>

void fl_coulomb_cone_project(int dim, double mu, const double *x, double *p)
{
    double xn = x[0];
    double nt = dim == 2 ? fabs(x[1]) : hypot(x[1], x[2]);
    if (xn >= 0 && nt <= mu * xn) {     /* inside K */
        for (int k = 0; k < dim; k++) p[k] = x[k];
        return;
    }
    if (mu * nt <= -xn) {                /* inside the polar cone K° */
        for (int k = 0; k < dim; k++) p[k] = 0.0;
        return;
    }
    /* projection on the boundary ray through (1, mu x_T/|x_T|) (nt > 0 here) */
    double t = (xn + mu * nt) / (1.0 + mu * mu);
    p[0] = t;
    for (int k = 1; k < dim; k++) p[k] = mu * t * x[k] / nt;
}

double fl_residual_contact_sq(int dim, double mu, const double *r, const double *U)
{
    double y[3], py[3];
    double ut = dim == 2 ? fabs(U[1]) : hypot(U[1], U[2]);
    /* r - (U + mu |U_T| e_N), De Saxcé's modified velocity */
    y[0] = r[0] - (U[0] + mu * ut);
    for (int k = 1; k < dim; k++) y[k] = r[k] - U[k];
    fl_coulomb_cone_project(dim, mu, y, py);
    double s = 0.0;
    for (int k = 0; k < dim; k++) s += (r[k] - py[k]) * (r[k] - py[k]);
    return s;
}

double fl_residual_natural_map(int dim, size_t nc, const double *mu, const double *r,
                               const double *U, double norm_q, fl_residual_norm kind)
{
    double e = 0.0, nr = 0.0, nu = 0.0;
    size_t m = (size_t)dim * nc;
    for (size_t a = 0; a < nc; a++)
        e += fl_residual_contact_sq(dim, mu[a], r + (size_t)dim * a, U + (size_t)dim * a);
    e = sqrt(e);
    switch (kind) {
    case FL_RESIDUAL_NORM_Q:
        if (fabs(norm_q) > DBL_EPSILON) e /= norm_q;
        break;
    case FL_RESIDUAL_ONE_PLUS_NORM_Q:
        e /= 1.0 + norm_q;
        break;
    case FL_RESIDUAL_MAX_NORM:
        for (size_t i = 0; i < m; i++) {
            nr += r[i] * r[i];
            nu += U[i] * U[i];
        }
        {
            double s = fmax(sqrt(nr), fmax(sqrt(nu), norm_q));
            if (s > DBL_EPSILON) e /= s;
        }
        break;
    case FL_RESIDUAL_FCLIB_MERIT:   /* libfclib 3.1 fclib_merit_local */
        e /= 1.0 + sqrt(fabs(norm_q));
        break;
    case FL_RESIDUAL_ABSOLUTE:
    default:
        break;
    }
    return e;
}

fl_status fl_residual_local(const fl_local_problem *p, const gsl_vector *r,
                            gsl_vector *U, fl_residual_norm kind, double *out,
                            fl_error *err)
{
    if (!p || !r || !out) return FL_FAIL(err, FL_EINVAL, "residual: NULL argument");
    if (r->size != p->m || r->stride != 1 || (U && (U->size != p->m || U->stride != 1)))
        return FL_FAIL(err, FL_EDIM, "residual: vectors must be contiguous of length %zu", p->m);
    gsl_vector *tmp = U ? U : fl_dense_vector_alloc(p->m);
    if (!tmp) return FL_FAIL(err, FL_ENOMEM, "residual: out of memory");
    fl_status s = fl_local_problem_velocity(p, r, tmp, err);
    if (s == FL_OK)
        *out = fl_residual_natural_map(p->dim, p->nc, p->mu, r->data, tmp->data,
                                       gsl_blas_dnrm2(p->q), kind);
    if (!U) gsl_vector_free(tmp);
    return s;
}
