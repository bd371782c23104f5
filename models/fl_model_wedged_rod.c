/* fl_model_wedged_rod.c — 003 §2 wedged rod from its parameter file. */
#include "models/fl_model_wedged_rod.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_json.h"
#include "models/fl_model_file.h"
#include "fl_scalar.h"

static fl_status load(const fl_json_doc *doc, void *model, fl_error *err)
{
    fl_model_wedged_rod *w = model;
    const json_t *par = NULL;
    double beta_deg = 0;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "L", 0, 1, &w->L, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "m", 0, 1, &w->m, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "g", 0, 1, &w->g, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "beta_deg", 0, 1, &beta_deg, err));
    if (!(beta_deg < 90))
        return fl_json_error(doc, par, "params", "beta_deg", err, FL_EINVAL, "must be < 90 (got %g)", beta_deg);
    FL_TRY(fl_model_file_number(doc, par, "params", "mu", 0, 0, &w->mu, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "h", 0, 1, &w->h, err));
    FL_TRY(fl_json_number(doc, par, "params", "P_start_mg", &w->P_start, err));
    FL_TRY(fl_json_number(doc, par, "params", "P_max_mg", &w->P_max, err));
    FL_TRY(fl_json_number(doc, par, "params", "P_end_mg", &w->P_end, err));
    FL_TRY(fl_json_integer(doc, par, "params", "steps_up", &w->steps_up, err));
    if (w->steps_up < 1) return fl_json_error(doc, par, "params", "steps_up", err, FL_EINVAL, "must be >= 1");
    FL_TRY(fl_json_integer(doc, par, "params", "steps_down", &w->steps_down, err));
    if (w->steps_down < 1) return fl_json_error(doc, par, "params", "steps_down", err, FL_EINVAL, "must be >= 1");
    w->beta = beta_deg * FL_PI / 180.0;
    return FL_OK;
}

fl_status fl_model_wedged_rod_load(const char *path, fl_model_wedged_rod *w, fl_error *err)
{
    return fl_model_file_load(path, load, w, sizeof *w, err);
}

fl_status fl_model_wedged_rod_problem(const fl_model_wedged_rod *w, const double ui[3], double P,
                                      fl_global_problem **out, fl_error *err)
{
    fl_global_problem *g = NULL;
    FL_TRY(fl_global_problem_alloc(3, 2, 2, 1, &g, err));
    double cb = cos(w->beta), sb = sin(w->beta), l2 = 0.5 * w->L;
    double J = w->m * w->L * w->L / 12.0, M[3] = {w->m, w->m, J};
    /* rows: U_N,A = n_A.v_A, U_T,A = t_A.v_A, then B; v_A = (vx, vy - omega L/2), v_B = (vx, vy + omega L/2) */
    const double H[4][3] = {{cb, -sb, sb * l2}, {sb, cb, -cb * l2}, {-cb, -sb, -sb * l2}, {-sb, cb, cb * l2}};
    for (int j = 0; j < 3; j++) gsl_matrix_set(g->M, (size_t)j, (size_t)j, M[j]);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) gsl_matrix_set(g->H, (size_t)i, (size_t)j, H[i][j]);
    for (int j = 0; j < 3; j++) gsl_vector_set(g->f, (size_t)j, M[j] * ui[j]);
    *gsl_vector_ptr(g->f, 1) += w->h * (P - w->m * w->g);
    g->mu[0] = g->mu[1] = w->mu;
    *out = g;
    return FL_OK;
}

fl_status fl_model_wedged_rod_wedged_forces(const fl_model_wedged_rod *w, double r[4], fl_error *err)
{
    double cb = cos(w->beta), sb = sin(w->beta), mg = w->m * w->g;
    if (!(w->mu * cb - sb > 0))
        return FL_FAIL(err, FL_EINVAL, "no wedging: mu cos(beta) - sin(beta) = %g <= 0", w->mu * cb - sb);
    double RNmin = mg / (2.0 * (w->mu * cb - sb)), RN = 2.0 * RNmin, RT = (0.5 * mg + RN * sb) / cb;
    r[0] = r[2] = RN;
    r[1] = r[3] = RT;
    return FL_OK;
}

double fl_model_wedged_rod_detachment(const fl_model_wedged_rod *w, double X)
{
    double cb = cos(w->beta), sb = sin(w->beta), mg = w->m * w->g;
    return (mg - 2.0 * X * (w->mu * cb - sb) / (cb + w->mu * sb)) / mg;
}
