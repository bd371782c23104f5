/* fl_model_example_4_6.c — 004 §4 Example 4.6 (Fig. 8) from
 * data/004/example_4_6.json (see the header). */
#include "models/fl_model_example_4_6.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_vector.h>

#include "fl_json.h"
#include "models/fl_model_file.h"

static fl_status pair(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key, int range,
                      double out[2], fl_error *err)
{
    gsl_vector *v = NULL;
    FL_TRY(fl_json_vector(doc, obj, where, key, 2, &v, err));
    out[0] = gsl_vector_get(v, 0);
    out[1] = gsl_vector_get(v, 1);
    gsl_vector_free(v);
    if (range && !(out[0] > 0 && out[0] < out[1]))
        return fl_json_error(doc, obj, where, key, err, FL_EINVAL, "expected a range 0 < lo < hi (got [%g, %g])",
                             out[0], out[1]);
    return FL_OK;
}

static fl_status load_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_model_example_4_6 *o = vout;
    const json_t *par = NULL, *ex = NULL, *g = NULL, *dy = NULL;
    const double big = 1e300, tiny = 1e-300;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "expected", &ex, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "grid_hm0", &g, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "dynamics", &dy, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "uD_dot", -big, big, &o->uD_dot, err));
    if (o->uD_dot == 0)
        return fl_json_error(doc, par, "params", "uD_dot", err, FL_EINVAL, "must be nonzero (steady sliding)");
    FL_TRY(fl_model_file_number_in(doc, par, "params", "mu", 0, big, &o->mu, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "Mg_over_EA", tiny, big, &o->Mg_over_EA, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "RB_over_L", tiny, big, &o->rb, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "HB_over_L", tiny, big, &o->hb, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "RM_over_L", tiny, big, &o->rm, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "HM_over_L", 0, big, &o->hm, err));
    FL_TRY(pair(doc, g, "grid_hm0", "mu", 1, o->grid_mu, err));
    FL_TRY(pair(doc, g, "grid_hm0", "RB_over_L", 1, o->grid_rb, err));
    FL_TRY(pair(doc, g, "grid_hm0", "HB_over_L", 1, o->grid_hb, err));
    FL_TRY(pair(doc, g, "grid_hm0", "RM_over_L", 1, o->grid_rm, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "tolerance", tiny, big, &o->tol, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "r0_N", -big, big, &o->r0_N, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "u0_theta", -big, big, &o->u0_theta, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "u0_D_minus_u0_T", -big, big, &o->u0_D_minus_u0_T, err));
    FL_TRY(pair(doc, ex, "expected", "Lambda_sigma_minus", 0, o->Lambda_sigma_minus, err));
    FL_TRY(pair(doc, ex, "expected", "Lambda_sigma_plus", 0, o->Lambda_sigma_plus, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "growth_rate", -big, big, &o->growth_rate, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "growth_rate_tolerance_dynamics", tiny, big, &o->growth_tol_dynamics, err));
    FL_TRY(fl_model_file_number_in(doc, dy, "dynamics", "h", tiny, 1.0, &o->h, err));
    FL_TRY(fl_model_file_number_in(doc, dy, "dynamics", "t_end", 100.0 + o->h, 1e7, &o->t_end, err));
    FL_TRY(fl_model_file_number_in(doc, dy, "dynamics", "t_end_quick", 100.0 + o->h, 1e7, &o->t_end_quick, err));
    FL_TRY(fl_model_file_number_in(doc, dy, "dynamics", "steady_t_end", o->h, 1e7, &o->steady_t_end, err));
    FL_TRY(fl_model_file_number_in(doc, dy, "dynamics", "perturbation_u_theta", -1.0, 1.0, &o->perturbation, err));
    FL_TRY(fl_model_file_number_in(doc, dy, "dynamics", "theta_method", tiny, 1.0, &o->theta, err));
    return FL_OK;
}

fl_status fl_model_example_4_6_load(const char *path, fl_model_example_4_6 *out, fl_error *err)
{
    if (!path || !out) return FL_FAIL(err, FL_EINVAL, "fl_model_example_4_6_load: NULL argument");
    fl_status st = fl_model_file_load(path, load_doc, out, sizeof *out, err);
    return st;
}

/* 004 §4 (Fig. 8): the non-dimensional M and K over (u_D, u_theta, u_T, u_N). */
fl_status fl_model_example_4_6_system_alloc(double mu, double rb, double hb, double rm, double hm,
                                            fl_model_example_4_6_system **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fl_model_example_4_6_system_alloc: NULL argument");
    *out = NULL;
    if (!(mu >= 0 && rb > 0 && hb > 0 && rm > 0 && hm >= 0) || !isfinite(mu) || !isfinite(rb) || !isfinite(hb) ||
        !isfinite(rm) || !isfinite(hm))
        return FL_FAIL(err, FL_EINVAL, "Example 4.6: mu, H_M must be >= 0 and R_B, H_B, R_M > 0, finite");
    fl_model_example_4_6_system *e = calloc(1, sizeof *e);
    if (!e) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    e->K = gsl_matrix_alloc(4, 4);
    e->M = gsl_matrix_alloc(4, 4);
    if (!e->K || !e->M) {
        fl_model_example_4_6_system_free(e);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    const double K[4][4] = {{1, hb, -1, 0},
                            {hb, 4 * rb * rb + hb * hb, -hb, 6 * rb * rb},
                            {-1, -hb, 1, 0},
                            {0, 6 * rb * rb, 0, 12 * rb * rb}};
    const double M[4][4] = {{1, 0, 0, 0}, {0, hm * hm + rm * rm, -hm, 0}, {0, -hm, 1, 0}, {0, 0, 0, 1}};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            gsl_matrix_set(e->K, i, j, K[i][j]);
            gsl_matrix_set(e->M, i, j, M[i][j]);
        }
    e->pres[0] = 1;        /* u_D prescribed (steady sliding at uD_dot) */
    e->iT = 2;
    e->iN = 3;
    e->s = (fl_stability_system){.n = 4, .K = e->K, .M = e->M, .prescribed = e->pres, .np = 1,
                            .iT = &e->iT, .iN = &e->iN, .mu = mu};
    *out = e;
    return FL_OK;
}

void fl_model_example_4_6_system_free(fl_model_example_4_6_system *e)
{
    if (!e) return;
    if (e->K) gsl_matrix_free(e->K);
    if (e->M) gsl_matrix_free(e->M);
    free(e);
}

/* 004 §4: the steady sliding state (closed forms, printed for sigma = -1). */
void fl_model_example_4_6_steady(const fl_model_example_4_6 *m, double *rN, double *uth, double *dDT)
{
    double sig = m->uD_dot < 0 ? -1.0 : 1.0, mus = -sig * m->mu, hb = m->hb, rb = m->rb, mg = m->Mg_over_EA;
    double c = 1.0 + 1.5 * mus * hb;
    *rN = -mg / c;
    *uth = mus * mg * hb / (4.0 * c * rb * rb);
    *dDT = -mus * mg * (1.0 + 0.25 * (hb / rb) * (hb / rb)) / c;
}

fl_status fl_model_example_4_6_analyse(const fl_model_example_4_6_system *e, double sig, double rN,
                                       fl_stability_result *res, fl_error *err)
{
    gsl_vector *u = gsl_vector_calloc(4), *r = gsl_vector_calloc(4);
    if (!u || !r) {
        if (u) gsl_vector_free(u);
        if (r) gsl_vector_free(r);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    gsl_vector_set(r, 3, rN);
    gsl_vector_set(r, 2, e->s.mu * rN * sig);     /* r_T = mu r_N sigma(u_T') (16) */
    fl_stability_label lab;
    fl_stability_tangent *t = NULL;
    fl_status st = fl_stability_partition(&e->s, u, r, 1e-12, &lab, err);
    if (st == FL_OK) st = fl_stability_tangent_alloc(&e->s, &lab, r, &t, err);
    if (st == FL_OK) st = fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, res, err);
    fl_stability_tangent_free(t);
    gsl_vector_free(u);
    gsl_vector_free(r);
    return st;
}
