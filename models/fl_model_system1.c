/* fl_model_system1.c — system 1 of 001 §6.3; see fl_model_system1.h. */
#include "models/fl_model_system1.h"

#include <math.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_scalar.h"
#include "models/fl_model_file.h"

fl_status fl_model_system1_load(const char *path, fl_model_system1 *s, fl_error *err)
{
    static const fl_model_key keys[] = {{"J1", FL_MODEL_POSITIVE}, {"C0", FL_MODEL_ANY},
                                        {"theta_tilde0_deg", FL_MODEL_ANY}, {"mu", FL_MODEL_NONNEGATIVE},
                                        {"l", FL_MODEL_POSITIVE}, {"T", FL_MODEL_POSITIVE},
                                        {"h", FL_MODEL_POSITIVE}};
    double v[7];
    FL_TRY(fl_model_file_params(path, 7, keys, v, err));
    *s = (fl_model_system1){v[0], v[1], v[2] * FL_PI / 180.0, v[3], v[4], v[5], v[6]};
    return FL_OK;
}

double fl_model_system1_r_theta(const fl_model_system1 *s, double rn, double rt)
{
    return s->l * (rt * cos(s->theta_tilde0) + rn * sin(s->theta_tilde0));
}

static fl_status s1_mass(void *d, const gsl_vector *q, gsl_matrix *M)
{
    (void)q;
    gsl_matrix_set(M, 0, 0, ((const fl_model_system1 *)d)->J);
    return FL_OK;
}

static fl_status s1_force(void *d, double t, const gsl_vector *q, const gsl_vector *v, gsl_vector *f)
{
    (void)t;
    (void)q;
    (void)v;
    gsl_vector_set(f, 0, ((const fl_model_system1 *)d)->C0);
    return FL_OK;
}

static fl_status s1_gap(void *d, const gsl_vector *q, gsl_vector *phi)
{
    (void)d;
    gsl_vector_set(phi, 0, gsl_vector_get(q, 0));           /* phi = theta >= 0 */
    return FL_OK;
}

static fl_status s1_grad(void *d, const gsl_vector *q, size_t a, gsl_vector *dphi)
{
    (void)d;
    (void)q;
    (void)a;
    gsl_vector_set(dphi, 0, 1.0);
    return FL_OK;
}

fl_p4_system fl_model_system1_system(fl_model_system1 *s)
{
    /* restitution 0 (completely inelastic): system 1 starts at rest and is pulled
     * away, so no impact occurs and the law is never used */
    fl_p4_system sys = {1, 1, s, s1_mass, s1_force, s1_gap, s1_grad, NULL, 0.0};
    return sys;
}
