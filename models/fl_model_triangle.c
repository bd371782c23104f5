/* fl_model_triangle.c — 002 §6 single triangle: constants, branches, regions,
 * and the solutions of its step problem (23) through the midpoint stepper. */
#include "models/fl_model_triangle.h"

#include <math.h>
#include <string.h>

#include "fl_json.h"
#include "fl_dense.h"
#include "models/fl_model_file.h"
#include "reference/midpoint.h"

/* 002 §6: a = 4 m1/dt^2 + (lam+3mu)/2, b = (lam+mu)/2, c = 4 m2/dt^2 + (lam+3mu)/2 */
void fl_model_triangle_constants(fl_model_triangle_system *t)
{
    double k = 4.0 / (t->dt * t->dt);
    t->a = k * t->m1 + 0.5 * (t->lam + 3 * t->mu);
    t->b = 0.5 * (t->lam + t->mu);
    t->c = k * t->m2 + 0.5 * (t->lam + 3 * t->mu);
}

/* 002 §6 (i)-(iv) (proofs/triangle_002.md) */
void fl_model_triangle_branch(const fl_model_triangle_system *t, int i, double fn, double ft, double S[4])
{
    double a = t->a, b = t->b, c = t->c, F = t->F, g = c * fn + b * ft;
    if (i == 1) {              /* (i) lambda = 0 */
        S[0] = g / (a * c - b * b);
        S[1] = (a * ft + b * fn) / (a * c - b * b);
        S[2] = S[3] = 0;
    } else if (i == 2) {       /* (ii) stick: u_nu = 0, u_tau = u_tau^k */
        S[0] = 0;
        S[1] = t->utk;
        S[2] = -(fn + b * t->utk);
        S[3] = c * t->utk - ft;
    } else if (i == 3) {       /* (iii) slide forward: lambda_tau = F lambda_nu */
        S[0] = 0;
        S[1] = (ft - F * fn) / (c + b * F);
        S[2] = -g / (c + b * F);
        S[3] = F * S[2];
    } else {                   /* (iv) slide backward: lambda_tau = -F lambda_nu */
        S[0] = 0;
        S[1] = (ft + F * fn) / (c - b * F);
        S[2] = -g / (c - b * F);
        S[3] = -F * S[2];
    }
}

/* sigma1: c fn + b ft <= 0; sigma2: fn >= -b utk and (c - bF) utk - F fn <=
 * ft <= (c + bF) utk + F fn; sigma3: c fn + b ft >= 0 and ft >= (c + bF) utk
 * + F fn; sigma4: fn >= -b utk with c fn + b ft and ft - ((c - bF) utk - F
 * fn) of the sign of F - c/b. */
int fl_model_triangle_region(const fl_model_triangle_system *t, int i, double fn, double ft, double margin)
{
    double b = t->b, c = t->c, F = t->F, u = t->utk;
    double v[4] = {-(c * fn + b * ft), fn + b * u, ft - ((c - b * F) * u - F * fn), ((c + b * F) * u + F * fn) - ft};
    int need[4] = {0}, sg[4] = {1, 1, 1, 1};
    if (i == 1) need[0] = 1;
    else if (i == 2) need[1] = need[2] = need[3] = 1;
    else if (i == 3) { need[0] = need[3] = 1; sg[0] = sg[3] = -1; }
    else { need[0] = need[1] = need[2] = 1; sg[0] = sg[2] = F < c / b ? -1 : 1; }
    int in = 1;
    for (int k = 0; k < 4; k++) {
        if (!need[k]) continue;
        if (fabs(v[k]) <= margin) return -1;
        if (sg[k] * v[k] < 0) in = 0;
    }
    return in;
}

static fl_status load(const fl_json_doc *doc, void *model, fl_error *err)
{
    fl_model_triangle *m = model;
    const json_t *par = NULL, *Fs = NULL, *box = NULL;
    fl_model_triangle_system *t = &m->sys;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "lambda", 0, 0, &t->lam, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "mu", 0, 1, &t->mu, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "m1", 0, 0, &t->m1, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "m2", 0, 0, &t->m2, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "dt", 0, 1, &t->dt, err));
    FL_TRY(fl_json_number(doc, par, "params", "u_tau_k", &t->utk, err));
    FL_TRY(fl_json_array(doc, par, "params", "F_values", 3, &Fs, err));
    for (size_t i = 0; i < 3; i++) {
        const json_t *v = json_array_get(Fs, i);
        if (!json_is_number(v) || !(json_number_value(v) >= 0))
            return fl_json_error(doc, Fs, "params", "F_values", err, FL_EINVAL, "entry %zu must be a number >= 0", i);
        m->F_values[i] = json_number_value(v);
    }
    FL_TRY(fl_json_array(doc, par, "params", "fhat_box", 2, &box, err));
    const json_t *lo = json_array_get(box, 0), *hi = json_array_get(box, 1);
    if (!json_is_number(lo) || !json_is_number(hi) || !(json_number_value(lo) < json_number_value(hi)))
        return fl_json_error(doc, box, "params", "fhat_box", err, FL_EINVAL, "must be [lo, hi] with lo < hi");
    m->fhat_lo = json_number_value(lo);
    m->fhat_hi = json_number_value(hi);
    t->F = m->F_values[0];
    fl_model_triangle_constants(t);
    return FL_OK;
}

fl_status fl_model_triangle_load(const char *path, fl_model_triangle *m, fl_error *err)
{
    return fl_model_file_load(path, load, m, sizeof *m, err);
}

/* 002 §6, problem (23) through the general stepper. */
fl_status fl_model_triangle_002(double lam, double mu_lame, double m1, double m2, double dt,
                                   double F, double utk, double fhat_nu, double fhat_tau,
                                   size_t max, double *sols, size_t *nsol, fl_error *err)
{
    *nsol = 0;
    if (!(lam >= 0) || !(mu_lame > 0) || !(m1 >= 0) || !(m2 >= 0) || !isfinite(lam)
        || !isfinite(mu_lame) || !isfinite(m1) || !isfinite(m2) || !isfinite(utk)
        || !isfinite(fhat_nu) || !isfinite(fhat_tau))
        return FL_FAIL(err, FL_EINVAL, "triangle of 002 §6 needs lambda >= 0, mu > 0, m1, m2 >= 0 "
                                       "and finite data");
    gsl_matrix *Mr = fl_dense_matrix_calloc(2, 2), *A = fl_dense_matrix_alloc(2, 2);
    gsl_matrix *Bn = fl_dense_matrix_calloc(1, 2), *Bt = fl_dense_matrix_calloc(1, 2);
    gsl_vector *f = fl_dense_vector_alloc(2);
    if (!Mr || !A || !Bn || !Bt || !f) {
        gsl_matrix_free(Mr); gsl_matrix_free(A); gsl_matrix_free(Bn); gsl_matrix_free(Bt);
        gsl_vector_free(f);
        return FL_FAIL(err, FL_ENOMEM, "triangle of 002 §6: out of memory");
    }
    gsl_matrix_set(Mr, 0, 0, m1);
    gsl_matrix_set(Mr, 1, 1, m2);
    gsl_matrix_set(A, 0, 0, 0.5 * (lam + 3 * mu_lame));
    gsl_matrix_set(A, 1, 1, 0.5 * (lam + 3 * mu_lame));
    gsl_matrix_set(A, 0, 1, -0.5 * (lam + mu_lame));
    gsl_matrix_set(A, 1, 0, -0.5 * (lam + mu_lame));
    gsl_matrix_set(Bn, 0, 0, 1.0);
    gsl_matrix_set(Bt, 0, 1, 1.0);
    /* fhat = f + (4/dt^2) M_r u^k with u^k = (0, utk), v^k = 0 */
    gsl_vector_set(f, 0, fhat_nu);
    gsl_vector_set(f, 1, fhat_tau - 4.0 * m2 * utk / (dt * dt));
    fl_midpoint_problem p;
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.nc = 1;
    p.mu = F;
    p.f = f;
    p.Bnu = Bn;
    p.Btau = Bt;
    p.Mr = Mr;
    p.A = A;
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = dt;
    o.solver = FL_MIDPOINT_LOCAL_ENUM;
    fl_midpoint *mp = NULL;
    fl_midpoint_state *st = NULL;
    fl_status s = fl_midpoint_alloc(&p, &o, &mp, err);
    if (s == FL_OK) s = fl_midpoint_state_alloc(2, 1, &st, err);
    if (s == FL_OK) {
        gsl_vector_set(st->u, 1, utk);
        s = fl_midpoint_step(mp, st, NULL, err);
        if (s >= 0) {
            s = FL_OK;
            gsl_vector *uh = fl_dense_vector_alloc(2);
            if (!uh) s = FL_FAIL(err, FL_ENOMEM, "triangle of 002 §6: out of memory");
            for (size_t k = 0; uh && k < mp->nsols && k < max && k < mp->sols->size1; k++) {
                gsl_vector_view y = gsl_matrix_row(mp->sols, k);
                fl_midpoint_half_step(mp, &y.vector, uh);
                sols[4 * k] = gsl_vector_get(uh, 0);
                sols[4 * k + 1] = gsl_vector_get(uh, 1);
                sols[4 * k + 2] = -gsl_vector_get(&y.vector, 0);   /* lambda_nu = -r_n */
                sols[4 * k + 3] = gsl_vector_get(&y.vector, 1);    /* lambda_tau = r_t */
            }
            gsl_vector_free(uh);
            if (uh) *nsol = mp->nsols;
        }
    }
    fl_midpoint_state_free(st);
    fl_midpoint_free(mp);
    gsl_matrix_free(Mr); gsl_matrix_free(A); gsl_matrix_free(Bn); gsl_matrix_free(Bt);
    gsl_vector_free(f);
    return s;
}
