/* fl_model_system2.c — system 2 of 001 §6.3; see fl_model_system2.h. */
#include "models/fl_model_system2.h"

#include <math.h>
#include <string.h>

#include "fl_scalar.h"
#include "models/fl_model_file.h"

fl_status fl_model_system2_load(const char *path, fl_model_system2 *s, fl_error *err)
{
    static const fl_model_key keys[] = {{"m2", FL_MODEL_POSITIVE},  {"J2", FL_MODEL_POSITIVE},
                                        {"l2", FL_MODEL_POSITIVE},  {"beta_deg", FL_MODEL_ANY},
                                        {"mu2", FL_MODEL_NONNEGATIVE}, {"F2", FL_MODEL_ANY},
                                        {"T", FL_MODEL_POSITIVE},   {"h", FL_MODEL_POSITIVE}};
    double v[8];
    FL_TRY(fl_model_file_params(path, 8, keys, v, err));
    *s = (fl_model_system2){v[0], v[1], v[2], v[3] * FL_PI / 180.0, v[4], v[5], v[6], v[7]};
    return FL_OK;
}

void fl_model_system2_mass(const fl_model_system2 *s, gsl_matrix *M)
{
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, s->m);
    gsl_matrix_set(M, 1, 1, s->m);
    gsl_matrix_set(M, 2, 2, s->J);
}

/* r = (r~x, r~y, moment about G) for the end P = G + sgn l e(theta) */
void fl_model_system2_tl(const fl_model_system2 *s, const gsl_vector *q, size_t a, gsl_matrix *tl)
{
    double th = gsl_vector_get(q, 2), sgn = a == 0 ? -1.0 : 1.0;
    double px = sgn * s->l * cos(th), py = sgn * s->l * sin(th);   /* P - G */
    gsl_matrix_set_zero(tl);
    gsl_matrix_set(tl, 0, 0, 1.0);
    gsl_matrix_set(tl, 1, 1, 1.0);
    gsl_matrix_set(tl, 2, 0, -py);
    gsl_matrix_set(tl, 2, 1, px);
}

static void normal(const fl_model_system2 *s, size_t a, double n[3])
{
    n[0] = a == 0 ? cos(s->beta) : -cos(s->beta);
    n[1] = sin(s->beta);
    n[2] = 0.0;
}

void fl_model_system2_gap(const fl_model_system2 *s, const gsl_vector *q, gsl_vector *phi)
{
    double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1), th = gsl_vector_get(q, 2);
    double A[2] = {x - s->l * cos(th), y - s->l * sin(th)}, B[2] = {x + s->l * cos(th), y + s->l * sin(th)};
    double cb = cos(s->beta), sb = sin(s->beta);
    gsl_vector_set(phi, 0, cb * (A[0] + s->l) + sb * A[1]);   /* nL.(A - A0) */
    gsl_vector_set(phi, 1, -cb * (B[0] - s->l) + sb * B[1]);  /* nR.(B - B0) */
}

void fl_model_system2_grad(const fl_model_system2 *s, const gsl_vector *q, size_t a, gsl_vector *dphi)
{
    double buf[6], n[3];
    gsl_matrix_view tl = gsl_matrix_view_array(buf, 3, 2);
    fl_model_system2_tl(s, q, a, &tl.matrix);
    normal(s, a, n);
    for (size_t i = 0; i < 3; i++) gsl_vector_set(dphi, i, buf[2 * i] * n[0] + buf[2 * i + 1] * n[1]);
}

fl_status fl_model_system2_fset(const fl_model_system2 *s, const gsl_vector *q, size_t a, fl_fset_result *fr,
                                fl_error *err)
{
    gsl_matrix *M = gsl_matrix_alloc(3, 3), *tl = gsl_matrix_alloc(3, 2);
    gsl_vector *dphi = gsl_vector_alloc(3);
    if (!M || !tl || !dphi) {
        gsl_matrix_free(M);
        gsl_matrix_free(tl);
        gsl_vector_free(dphi);
        return FL_FAIL(err, FL_ENOMEM, "system 2: out of memory");
    }
    fl_model_system2_mass(s, M);
    fl_model_system2_tl(s, q, a, tl);
    fl_model_system2_grad(s, q, a, dphi);
    fl_fset_contact c = {tl, {0.0, 0.0, 0.0}, s->mu};
    normal(s, a, c.normal);
    fl_status st = fl_fset_build(M, dphi, 1, &c, NULL, fr, err);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_vector_free(dphi);
    return st;
}

static fl_status s2_mass(void *d, const gsl_vector *q, gsl_matrix *M)
{
    (void)q;
    fl_model_system2_mass(d, M);
    return FL_OK;
}

static fl_status s2_force(void *d, double t, const gsl_vector *q, const gsl_vector *v, gsl_vector *f)
{
    (void)t;
    (void)q;
    (void)v;
    gsl_vector_set_zero(f);
    gsl_vector_set(f, 1, ((const fl_model_system2 *)d)->F);   /* pulls the bar up, away */
    return FL_OK;
}

static fl_status s2_gap(void *d, const gsl_vector *q, gsl_vector *phi)
{
    fl_model_system2_gap(d, q, phi);
    return FL_OK;
}

static fl_status s2_grad(void *d, const gsl_vector *q, size_t a, gsl_vector *dphi)
{
    fl_model_system2_grad(d, q, a, dphi);
    return FL_OK;
}

static fl_status s2_friction(void *d, const gsl_vector *q, size_t a, fl_friction_set *set, gsl_matrix **E,
                             fl_error *err)
{
    fl_fset_result fr;
    FL_TRY(fl_model_system2_fset(d, q, a, &fr, err));      /* 001 §6.1 at the current q */
    *set = fr.set;
    *E = fr.E;
    fr.E = NULL;
    memset(&fr.set, 0, sizeof fr.set);
    fl_fset_result_release(&fr);
    return FL_OK;
}

fl_p4_system fl_model_system2_system(fl_model_system2 *s)
{
    fl_p4_system sys = {3, 2, s, s2_mass, s2_force, s2_gap, s2_grad, s2_friction, 0.0};
    return sys;
}
