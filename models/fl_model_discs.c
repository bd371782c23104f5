/* fl_model_discs.c — 003 §4-5 disc packings from their parameter files. */
#include "models/fl_model_discs.h"

#include <math.h>
#include <string.h>

#include "fl_json.h"
#include "models/fl_model_file.h"

/* One member of "params": its lower bound (kind GT: > lo, GE: >= lo) and
 * whether it must be a whole number. */
typedef enum bound { GT, GE } bound;
typedef struct field {
    const char *key;
    double *val;
    bound b;
    double lo;
    int whole;
} field;

static fl_status read_fields(const fl_json_doc *doc, const json_t *par, const field *f, size_t n, fl_error *err)
{
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        FL_TRY(fl_json_number(doc, par, "params", f[i].key, &v, err));
        if (f[i].b == GT ? !(v > f[i].lo) : !(v >= f[i].lo))
            return fl_json_error(doc, par, "params", f[i].key, err, FL_EINVAL, "must be %s %g (got %g)",
                                 f[i].b == GT ? ">" : ">=", f[i].lo, v);
        if (f[i].whole && (v != floor(v) || v > 1e9))
            return fl_json_error(doc, par, "params", f[i].key, err, FL_EINVAL, "must be a whole number <= 1e9 (got %g)", v);
        *f[i].val = v;
    }
    return FL_OK;
}

static fl_status radii(const fl_json_doc *doc, const json_t *par, double rmin, double rmax, fl_error *err)
{
    if (!(rmin <= rmax))
        return fl_json_error(doc, par, "params", "R_max", err, FL_EINVAL, "must be >= R_min (%g, got %g)", rmin, rmax);
    return FL_OK;
}

static fl_status load_28(const fl_json_doc *doc, void *model, fl_error *err)
{
    fl_model_discs_28 *m = model;
    const json_t *par = NULL;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    const field f[] = {{"N", &m->N, GE, 1, 1}, {"R_min", &m->R_min, GT, 0, 0}, {"R_max", &m->R_max, GT, 0, 0},
                       {"rho", &m->rho, GT, 0, 0}, {"g", &m->g, GT, 0, 0}, {"width", &m->width, GT, 0, 0},
                       {"mu_grain", &m->mu_grain, GE, 0, 0}, {"mu_wall", &m->mu_wall, GE, 0, 0},
                       {"seed", &m->seed, GE, 0, 1}, {"h_deposit", &m->h_deposit, GT, 0, 0},
                       {"deposit_steps", &m->deposit_steps, GE, 1, 1}, {"v_tol", &m->v_tol, GT, 0, 0},
                       {"h", &m->h, GT, 0, 0}, {"touch_tol", &m->touch_tol, GE, 0, 0},
                       {"margin", &m->margin, GT, 0, 0}, {"runs", &m->runs, GE, 1, 1},
                       {"runs_quick", &m->runs_quick, GE, 1, 1}, {"gs_tol", &m->gs_tol, GT, 0, 0},
                       {"gs_sweeps", &m->gs_sweeps, GE, 1, 1}};
    FL_TRY(read_fields(doc, par, f, sizeof f / sizeof *f, err));
    return radii(doc, par, m->R_min, m->R_max, err);
}

/* expected.rows: steps [11, 121], contacts, zero_sliding, tolerances */
static fl_status load_rows(const fl_json_doc *doc, fl_model_discs_355 *m, fl_error *err)
{
    const json_t *ex = NULL, *rows = NULL, *st = NULL, *a = NULL, *b = NULL;
    FL_TRY(fl_json_object(doc, doc->root, "", "expected", &ex, err));
    FL_TRY(fl_json_object(doc, ex, "expected", "rows", &rows, err));
    FL_TRY(fl_json_array(doc, rows, "expected.rows", "step", 2, &st, err));
    FL_TRY(fl_json_array(doc, rows, "expected.rows", "contacts", 2, &a, err));
    FL_TRY(fl_json_array(doc, rows, "expected.rows", "zero_sliding", 2, &b, err));
    FL_TRY(fl_json_number(doc, rows, "expected.rows", "contacts_rtol", &m->contacts_rtol, err));
    FL_TRY(fl_json_number(doc, rows, "expected.rows", "zero_sliding_atol", &m->zero_sliding_atol, err));
    for (size_t i = 0; i < 2; i++) {
        const json_t *s = json_array_get(st, i), *x = json_array_get(a, i), *y = json_array_get(b, i);
        if (!json_is_integer(s) || json_integer_value(s) != (i ? 121 : 11))
            return fl_json_error(doc, st, "expected.rows", "step", err, FL_EINVAL,
                                 "must be [11, 121] (the instants of 003 Figs. 4 and 5)");
        if (!json_is_number(x) || !(json_number_value(x) >= 0))
            return fl_json_error(doc, a, "expected.rows", "contacts", err, FL_EINVAL, "entry %zu must be a count >= 0", i);
        if (!json_is_number(y) || !(json_number_value(y) >= 0) || !(json_number_value(y) <= 1))
            return fl_json_error(doc, b, "expected.rows", "zero_sliding", err, FL_EINVAL,
                                 "entry %zu must be a fraction in [0, 1]", i);
        m->paper_contacts[i] = json_number_value(x);
        m->paper_zero_sliding[i] = json_number_value(y);
    }
    if (!(m->contacts_rtol > 0) || !(m->zero_sliding_atol > 0))
        return fl_json_error(doc, rows, "expected", "rows", err, FL_EINVAL, "tolerances must be > 0");
    return FL_OK;
}

static fl_status load_355(const fl_json_doc *doc, void *model, fl_error *err)
{
    fl_model_discs_355 *m = model;
    const json_t *par = NULL;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    const field f[] = {{"N", &m->N, GE, 1, 1}, {"R_min", &m->R_min, GT, 0, 0}, {"R_max", &m->R_max, GT, 0, 0},
                       {"rho", &m->rho, GT, 0, 0}, {"g", &m->g, GT, 0, 0}, {"slope_deg", &m->slope_deg, GE, 0, 0},
                       {"a", &m->a, GT, 0, 0}, {"mu_grain", &m->mu_grain, GE, 0, 0},
                       {"mu_ground", &m->mu_ground, GE, 0, 0}, {"restitution", &m->e, GE, 0, 0},
                       {"seed", &m->seed, GE, 0, 1}, {"h_deposit", &m->h_deposit, GT, 0, 0},
                       {"deposit_steps", &m->deposit_steps, GE, 1, 1},
                       {"deposit_steps_quick", &m->deposit_steps_quick, GE, 1, 1},
                       {"margin_deposit", &m->margin_deposit, GT, 0, 0}, {"h", &m->h, GT, 0, 0},
                       {"margin", &m->margin, GT, 0, 0}, {"steps", &m->steps, GE, 1, 1},
                       {"steps_quick", &m->steps_quick, GE, 1, 1}, {"runs", &m->runs, GE, 1, 1},
                       {"runs_quick", &m->runs_quick, GE, 1, 1}, {"gs_tol", &m->gs_tol, GT, 0, 0},
                       {"gs_sweeps", &m->gs_sweeps, GE, 1, 1}, {"step_gs_tol", &m->step_gs_tol, GT, 0, 0}};
    FL_TRY(read_fields(doc, par, f, sizeof f / sizeof *f, err));
    if (!(m->e <= 1)) return fl_json_error(doc, par, "params", "restitution", err, FL_EINVAL, "must be <= 1 (got %g)", m->e);
    if (!(m->slope_deg < 90))
        return fl_json_error(doc, par, "params", "slope_deg", err, FL_EINVAL, "must be < 90 (got %g)", m->slope_deg);
    FL_TRY(radii(doc, par, m->R_min, m->R_max, err));
    return load_rows(doc, m, err);
}

fl_status fl_model_discs_28_load(const char *path, fl_model_discs_28 *m, fl_error *err)
{
    return fl_model_file_load(path, load_28, m, sizeof *m, err);
}

fl_status fl_model_discs_355_load(const char *path, fl_model_discs_355 *m, fl_error *err)
{
    return fl_model_file_load(path, load_355, m, sizeof *m, err);
}

/* N discs with radii uniform in [rmin, rmax] drawn from rng, centres at 0 */
static fl_status discs_drawn(double N, double rmin, double rmax, double rho, gsl_rng *rng, fl_discs **out,
                             fl_error *err)
{
    fl_discs *d = NULL;
    FL_TRY(fl_discs_alloc((size_t)N, &d, err));
    for (size_t i = 0; i < d->N; i++) fl_discs_set(d, i, 0, 0, rmin + (rmax - rmin) * gsl_rng_uniform(rng), rho);
    *out = d;
    return FL_OK;
}

fl_status fl_model_discs_28_build(const fl_model_discs_28 *m, gsl_rng *rng, fl_discs **out, fl_error *err)
{
    fl_discs *d = NULL;
    FL_TRY(discs_drawn(m->N, m->R_min, m->R_max, m->rho, rng, &d, err));
    d->gx = 0;
    d->gy = -m->g;
    d->ground = 1;
    d->walls = 1;
    d->wall_left = -m->width / 2;
    d->wall_right = m->width / 2;
    d->mu_grain = m->mu_grain;
    d->mu_wall = m->mu_wall;
    d->margin = m->margin;
    d->touch_tol = m->touch_tol;
    *out = d;
    return FL_OK;
}

fl_status fl_model_discs_355_build(const fl_model_discs_355 *m, gsl_rng *rng, fl_discs **out, fl_error *err)
{
    fl_discs *d = NULL;
    FL_TRY(discs_drawn(m->N, m->R_min, m->R_max, m->rho, rng, &d, err));
    d->ground = 1;
    d->periodic = 1;
    d->a = m->a;
    d->mu_grain = m->mu_grain;
    d->mu_wall = m->mu_ground;
    d->e_grain = d->e_wall = m->e;
    d->margin = m->margin_deposit;
    d->gx = 0;
    d->gy = -m->g;   /* deposition: vertical gravity */
    *out = d;
    return FL_OK;
}
