/* fl_model_square_block.c — 002 §7 square block from its parameter file. */
#include "models/fl_model_square_block.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fl_data.h"
#include "fl_json.h"
#include "models/fl_model_file.h"

/* number of cells L/h when it is an integer >= 1 (relative 1e-9), else 0 */
static size_t cells(double L, double h)
{
    if (!(L > 0) || !(h > 0)) return 0;
    double q = L / h, r = round(q);
    return r >= 1 && fabs(q - r) <= 1e-9 * r ? (size_t)r : 0;
}

/* a word among `words` (NULL-terminated): *out is its index */
static fl_status word(const fl_json_doc *doc, const json_t *obj, const char *key, const char *const *words,
                      int *out, fl_error *err)
{
    const char *s = NULL;
    FL_TRY(fl_json_string(doc, obj, "params", key, &s, err));
    for (int i = 0; words[i]; i++)
        if (strcmp(s, words[i]) == 0) {
            *out = i;
            return FL_OK;
        }
    return fl_json_error(doc, obj, "params", key, err, FL_EINVAL, "unknown value '%s'", s);
}

/* three positive time steps in array `key` of obj */
static fl_status three_dts(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key,
                           double dt[3], fl_error *err)
{
    const json_t *a = NULL;
    FL_TRY(fl_json_array(doc, obj, where, key, 3, &a, err));
    for (size_t i = 0; i < 3; i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_number(v) || !(json_number_value(v) > 0))
            return fl_json_error(doc, a, where, key, err, FL_EINVAL, "entry %zu must be a time step > 0", i);
        dt[i] = json_number_value(v);
    }
    return FL_OK;
}

static fl_status load(const fl_json_doc *doc, void *model, fl_error *err)
{
    fl_model_square_block *m = model;
    const json_t *par = NULL, *quick = NULL, *t2 = NULL, *hs = NULL, *dts = NULL;
    fl_midpoint_block_params *b = &m->block;
    double L = 0;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "rho", 0, 1, &b->mat.rho, err));
    FL_TRY(fl_json_number(doc, par, "params", "lambda", &b->mat.lambda, err));
    if (!(b->mat.lambda >= 0))
        return fl_json_error(doc, par, "params", "lambda", err, FL_EINVAL, "must be >= 0 (got %g)", b->mat.lambda);
    FL_TRY(fl_model_file_number(doc, par, "params", "mu", 0, 1, &b->mat.mu, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "L", 0, 1, &L, err));
    FL_TRY(fl_json_number(doc, par, "params", "F", &b->mu, err));
    if (!(b->mu >= 0)) return fl_json_error(doc, par, "params", "F", err, FL_EINVAL, "must be >= 0 (got %g)", b->mu);
    FL_TRY(fl_json_number(doc, par, "params", "v_found", &b->v_found, err));
    FL_TRY(fl_json_number(doc, par, "params", "top_u1", &b->top_ux, err));
    FL_TRY(fl_json_number(doc, par, "params", "top_u2", &b->top_uy, err));
    FL_TRY(fl_json_number(doc, par, "params", "gravity", &b->gravity, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "T", 0, 1, &m->T, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "h", 0, 1, &m->h, err));
    if (!cells(L, m->h))
        return fl_json_error(doc, par, "params", "h", err, FL_EINVAL, "L/h = %g is not a whole number of cells", L / m->h);
    static const char *const planes[] = {"strain", "stress", NULL};
    static const char *const diags[] = {"right", "left", NULL};
    static const char *const masses[] = {"consistent", "lumped", NULL};
    static const char *const redist[] = {"none", "normal", "both", NULL};
    int k = 0;
    FL_TRY(word(doc, par, "plane", planes, &k, err));
    b->mat.model = k == 0 ? FL_FE2D_PLANE_STRAIN : FL_FE2D_PLANE_STRESS;
    FL_TRY(word(doc, par, "diagonals", diags, &k, err));
    b->pattern = k == 0 ? FL_FE2D_DIAG_RIGHT : FL_FE2D_DIAG_LEFT;
    FL_TRY(word(doc, par, "mass", masses, &k, err));
    b->lumped = k;
    FL_TRY(word(doc, par, "redistribution", redist, &k, err));
    b->redist = k == 0 ? FL_REDIST_NONE : k == 1 ? FL_REDIST_NORMAL : FL_REDIST_BOTH;
    FL_TRY(three_dts(doc, par, "params", "dt_energy_study", m->dt_energy, err));
    FL_TRY(fl_model_file_number(doc, par, "params", "energy_sample_dt_s", 0, 1, &m->energy_sample_dt, err));
    const json_t *f6 = NULL;
    FL_TRY(fl_json_object(doc, par, "params", "fig6", &f6, err));
    FL_TRY(fl_model_file_number(doc, f6, "params.fig6", "t_s", 0, 1, &m->fig6_t, err));
    FL_TRY(fl_model_file_number(doc, f6, "params.fig6", "dt_s", 0, 1, &m->fig6_dt, err));
    FL_TRY(fl_model_file_number(doc, f6, "params.fig6", "displacement_scale", 0, 1, &m->fig6_scale, err));
    FL_TRY(fl_json_object(doc, par, "params", "quick", &quick, err));
    FL_TRY(fl_model_file_number(doc, quick, "params.quick", "h", 0, 1, &m->h_quick, err));
    if (!cells(L, m->h_quick))
        return fl_json_error(doc, quick, "params.quick", "h", err, FL_EINVAL, "L/h = %g is not a whole number of cells",
                             L / m->h_quick);
    FL_TRY(three_dts(doc, quick, "params.quick", "dt_energy_study", m->dt_energy_quick, err));
    FL_TRY(fl_json_object(doc, par, "params", "table2", &t2, err));
    FL_TRY(fl_json_array(doc, t2, "params.table2", "h_cm", FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS, &hs, err));
    FL_TRY(fl_json_array(doc, t2, "params.table2", "dt_s", FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS, &dts, err));
    for (size_t i = 0; i < FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS; i++) {
        const json_t *h = json_array_get(hs, i), *d = json_array_get(dts, i);
        if (!json_is_number(h) || !cells(L, 0.01 * json_number_value(h)))
            return fl_json_error(doc, hs, "params.table2", "h_cm", err, FL_EINVAL,
                                 "row %zu: h must divide L into a whole number of cells", i + 1);
        if (!json_is_number(d) || !(json_number_value(d) > 0))
            return fl_json_error(doc, dts, "params.table2", "dt_s", err, FL_EINVAL, "row %zu: dt must be > 0", i + 1);
        m->table2_h_cm[i] = json_number_value(h);
        m->table2_dt_s[i] = json_number_value(d);
    }
    FL_TRY(fl_model_file_number(doc, t2, "params.table2", "interval_s", 0, 1, &m->table2_T, err));
    FL_TRY(fl_model_file_number(doc, t2, "params.table2", "sample_dt_s", 0, 1, &m->table2_sample_dt, err));
    b->lx = b->ly = L;
    b->nx = b->ny = cells(L, m->h);
    /* optional: documented discrepancies of the H1 column */
    const json_t *ex = json_object_get(doc->root, "expected"), *h1 = ex ? json_object_get(ex, "table2_H1_not_decreasing") : NULL;
    if (h1) {
        const json_t *rows = NULL;
        const char *why = NULL;
        FL_TRY(fl_json_array(doc, h1, "expected.table2_H1_not_decreasing", "rows", 0, &rows, err));
        FL_TRY(fl_json_string(doc, h1, "expected.table2_H1_not_decreasing", "reason", &why, err));
        for (size_t i = 0; i < json_array_size(rows); i++) {
            const json_t *r = json_array_get(rows, i);
            if (!json_is_integer(r) || json_integer_value(r) < 2 || json_integer_value(r) > 4)
                return fl_json_error(doc, rows, "expected.table2_H1_not_decreasing", "rows", err, FL_EINVAL,
                                     "entry %zu must be an experiment 2, 3 or 4", i);
            m->table2_h1_documented[json_integer_value(r) - 1] = 1;
        }
        if (strlen(why) >= sizeof m->table2_h1_reason)
            return fl_json_error(doc, h1, "expected.table2_H1_not_decreasing", "reason", err, FL_EINVAL,
                                 "longer than %zu characters", sizeof m->table2_h1_reason - 1);
        snprintf(m->table2_h1_reason, sizeof m->table2_h1_reason, "%s", why);
    }
    return FL_OK;
}

fl_status fl_model_square_block_load(const char *path, fl_model_square_block *m, fl_error *err)
{
    return fl_model_file_load(path, load, m, sizeof *m, err);
}

fl_status fl_model_square_block_load_data(const char *data_dir, fl_model_square_block *m, fl_error *err)
{
    char path[4096];
    memset(m, 0, sizeof *m);
    FL_TRY(fl_data_path(data_dir, "002/square_block_002.json", path, sizeof path, err));
    return fl_model_square_block_load(path, m, err);
}

fl_status fl_model_square_block_params(const fl_model_square_block *m, double h, fl_midpoint_block_params *out,
                                       fl_error *err)
{
    size_t n = cells(m->block.lx, h);
    if (!n) return FL_FAIL(err, FL_EINVAL, "mesh size h = %g m does not divide L = %g m", h, m->block.lx);
    *out = m->block;
    out->nx = out->ny = n;
    return FL_OK;
}

size_t fl_model_square_block_table2_cells(const fl_model_square_block *m, int row)
{
    if (row < 0 || row >= FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS) return 0;
    return cells(m->block.lx, 0.01 * m->table2_h_cm[row]);
}
