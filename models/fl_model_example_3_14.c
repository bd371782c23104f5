/* fl_model_example_3_14.c — 004 §3.5 Example 3.14 (Fig. 3) from
 * data/004/example_3_14.json (see the header). */
#include "models/fl_model_example_3_14.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fl_json.h"
#include "models/fl_model_file.h"
#include "fl_scalar.h"

/* 004 Example 3.14: M of the particle m and the hanging mass M. */
void fl_model_example_3_14_mass(double m, double Mb, double th, gsl_matrix *M)
{
    double sn = sin(th), cs = cos(th);
    gsl_matrix_set(M, 0, 0, m + Mb * sn * sn);
    gsl_matrix_set(M, 0, 1, -Mb * sn * cs);
    gsl_matrix_set(M, 1, 0, -Mb * sn * cs);
    gsl_matrix_set(M, 1, 1, m + Mb * cs * cs);
}

static fl_status grid(const fl_json_doc *doc, const json_t *obj, const char *key, double lo, gsl_vector **out,
                      fl_error *err)
{
    FL_TRY(fl_json_vector(doc, obj, "grid", key, 0, out, err));
    if ((*out)->size == 0) return fl_json_error(doc, obj, "grid", key, err, FL_EDIM, "empty grid");
    for (size_t i = 0; i < (*out)->size; i++)
        if (!(gsl_vector_get(*out, i) >= lo))
            return fl_json_error(doc, obj, "grid", key, err, FL_EINVAL, "value %zu (%g) is below %g", i,
                                 gsl_vector_get(*out, i), lo);
    return FL_OK;
}

static fl_status read_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_model_example_3_14 *o = vout;
    const json_t *par = NULL, *ex = NULL, *c1a = NULL, *c1b = NULL, *g = NULL, *f6p = NULL;
    const double big = 1e300;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "expected", &ex, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "grid", &g, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "M", 1e-300, big, &o->M, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "m", 1e-300, big, &o->m, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "theta_M", 0, FL_PI / 2, &o->theta_M, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "mu", 0, big, &o->mu, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "alpha", 0, o->mu, &o->alpha, err));
    FL_TRY(grid(doc, g, "m_over_M", 1e-300, &o->grid_m_over_M, err));
    FL_TRY(grid(doc, g, "mu", 0, &o->grid_mu, err));
    FL_TRY(grid(doc, g, "alpha_over_mu", 0, &o->grid_alpha_over_mu, err));
    double steps;
    FL_TRY(fl_model_file_number_in(doc, g, "grid", "theta_M_steps", 1, 1e6, &steps, err));
    if (steps != floor(steps))
        return fl_json_error(doc, g, "grid", "theta_M_steps", err, FL_EINVAL, "must be a whole number (got %g)", steps);
    o->theta_M_steps = (long)steps;
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "tolerance", 1e-300, big, &o->tol, err));
    FL_TRY(fl_json_object(doc, ex, "expected", "case_1A", &c1a, err));
    FL_TRY(fl_json_object(doc, ex, "expected", "case_1B", &c1b, err));
    FL_TRY(fl_json_number(doc, c1a, "expected.case_1A", "a_T", &o->case_1A_aT, err));
    FL_TRY(fl_json_number(doc, c1a, "expected.case_1A", "r_N", &o->case_1A_rN, err));
    FL_TRY(fl_json_number(doc, c1a, "expected.case_1A", "r_T", &o->case_1A_rT, err));
    FL_TRY(fl_json_number(doc, c1b, "expected.case_1B", "a_T", &o->case_1B_aT, err));
    FL_TRY(fl_json_number(doc, c1b, "expected.case_1B", "a_N", &o->case_1B_aN, err));
    gsl_vector *f6 = NULL;
    FL_TRY(fl_json_vector(doc, ex, "expected", "fig6_theta_M", 2, &f6, err));
    o->fig6_theta_M[0] = gsl_vector_get(f6, 0);
    o->fig6_theta_M[1] = gsl_vector_get(f6, 1);
    gsl_vector_free(f6);
    FL_TRY(fl_json_object(doc, ex, "expected", "fig6_params", &f6p, err));
    FL_TRY(fl_model_file_number_in(doc, f6p, "expected.fig6_params", "m_over_M", 1e-300, big, &o->fig6_m_over_M, err));
    FL_TRY(fl_model_file_number_in(doc, f6p, "expected.fig6_params", "mu", 0, big, &o->fig6_mu, err));
    return FL_OK;
}

/* The reader for fl_model_file_load: on error it frees the vectors read
 * so far itself, since the frame zeroes the model (and its pointers) after. */
static fl_status load_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_status st = read_doc(doc, vout, err);
    if (st != FL_OK) fl_model_example_3_14_release(vout);
    return st;
}

fl_status fl_model_example_3_14_load(const char *path, fl_model_example_3_14 *out, fl_error *err)
{
    if (!path || !out) return FL_FAIL(err, FL_EINVAL, "fl_model_example_3_14_load: NULL argument");
    return fl_model_file_load(path, load_doc, out, sizeof *out, err);
}

void fl_model_example_3_14_release(fl_model_example_3_14 *m)
{
    if (!m) return;
    if (m->grid_m_over_M) gsl_vector_free(m->grid_m_over_M);
    if (m->grid_mu) gsl_vector_free(m->grid_mu);
    if (m->grid_alpha_over_mu) gsl_vector_free(m->grid_alpha_over_mu);
    m->grid_m_over_M = m->grid_mu = m->grid_alpha_over_mu = NULL;
}

void fl_model_example_3_14_system_set(fl_model_example_3_14_system *e, double m, double Mb, double th, double mu,
                                      double alpha)
{
    fl_model_example_3_14_mass(m, Mb, th, e->M);
    gsl_vector_set_zero(e->u0);
    gsl_vector_set(e->r0, 0, alpha);
    gsl_vector_set(e->r0, 1, -1.0);
    e->s.mu = mu;
}

fl_status fl_model_example_3_14_system_alloc(double m, double Mb, double th, double mu, double alpha,
                                             fl_model_example_3_14_system **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fl_model_example_3_14_system_alloc: NULL argument");
    *out = NULL;
    if (!(m > 0 && Mb > 0 && mu >= 0) || !isfinite(m) || !isfinite(Mb) || !isfinite(th) || !isfinite(mu) ||
        !isfinite(alpha))
        return FL_FAIL(err, FL_EINVAL, "Example 3.14: m, M must be finite and > 0, mu >= 0 (got %g, %g, %g)", m, Mb, mu);
    fl_model_example_3_14_system *e = calloc(1, sizeof *e);
    if (!e) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    e->M = gsl_matrix_alloc(2, 2);
    e->K = gsl_matrix_alloc(2, 2);
    e->u0 = gsl_vector_calloc(2);
    e->r0 = gsl_vector_calloc(2);
    if (!e->M || !e->K || !e->u0 || !e->r0) {
        fl_model_example_3_14_system_free(e);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    gsl_matrix_set_identity(e->K);     /* K does not enter (52) */
    e->iT = 0;
    e->iN = 1;
    e->s = (fl_stability_system){.n = 2, .K = e->K, .M = e->M, .prescribed = NULL, .np = 1, .iT = &e->iT, .iN = &e->iN,
                            .mu = mu};
    fl_model_example_3_14_system_set(e, m, Mb, th, mu, alpha);
    *out = e;
    return FL_OK;
}

void fl_model_example_3_14_system_free(fl_model_example_3_14_system *e)
{
    if (!e) return;
    if (e->M) gsl_matrix_free(e->M);
    if (e->K) gsl_matrix_free(e->K);
    if (e->u0) gsl_vector_free(e->u0);
    if (e->r0) gsl_vector_free(e->r0);
    free(e);
}
