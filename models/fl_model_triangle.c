/* fl_model_triangle.c — 002 §6 single triangle: constants, branches, regions. */
#include "models/fl_model_triangle.h"

#include <math.h>
#include <string.h>

#include "fl_json.h"
#include "models/fl_model_file.h"

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
