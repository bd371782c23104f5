/* fl_model_kane.c — Kane's double pendulum (001 §6.2 item 2); see
 * fl_model_kane.h. */
#include "models/fl_model_kane.h"

#include <math.h>

#include "fl_json.h"
#include "models/fl_model_file.h"

fl_status fl_model_kane_load(const char *path, fl_model_kane *k, fl_error *err)
{
    static const fl_model_key keys[] = {
        {"m1", FL_MODEL_POSITIVE}, {"m2", FL_MODEL_POSITIVE},    {"L1", FL_MODEL_POSITIVE},
        {"L2", FL_MODEL_POSITIVE}, {"theta1", FL_MODEL_ANY},     {"theta2", FL_MODEL_ANY},
        {"omega1", FL_MODEL_ANY},  {"omega2", FL_MODEL_ANY},     {"mu", FL_MODEL_NONNEGATIVE},
        {"e", FL_MODEL_NONNEGATIVE}};
    double v[10];
    FL_TRY(fl_model_file_params(path, 10, keys, v, err));
    if (v[9] > 1.0) {                                     /* restitution e in [0, 1] */
        fl_json_doc *doc = NULL;
        const json_t *par = NULL;
        fl_status s = fl_json_load(path, &doc, err);
        if (s == FL_OK) s = fl_json_object(doc, doc->root, "", "params", &par, err);
        if (s == FL_OK) s = fl_json_error(doc, par, "params", "e", err, FL_EINVAL, "must be <= 1, got %g", v[9]);
        fl_json_free(doc);
        return s;
    }
    *k = (fl_model_kane){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]};
    return FL_OK;
}

void fl_model_kane_mass(const fl_model_kane *k, gsl_matrix *M)
{
    double c = k->m2 * k->L1 * k->L2 / 2 * cos(k->theta1 - k->theta2);
    gsl_matrix_set(M, 0, 0, k->m1 * k->L1 * k->L1 / 3 + k->m2 * k->L1 * k->L1);
    gsl_matrix_set(M, 0, 1, c);
    gsl_matrix_set(M, 1, 0, c);
    gsl_matrix_set(M, 1, 1, k->m2 * k->L2 * k->L2 / 3);
}

void fl_model_kane_jacobian(const fl_model_kane *k, gsl_matrix *Jc)
{
    gsl_matrix_set(Jc, 0, 0, -k->L1 * sin(k->theta1));
    gsl_matrix_set(Jc, 0, 1, -k->L2 * sin(k->theta2));
    gsl_matrix_set(Jc, 1, 0, k->L1 * cos(k->theta1));
    gsl_matrix_set(Jc, 1, 1, k->L2 * cos(k->theta2));
}

void fl_model_kane_velocity(const fl_model_kane *k, gsl_vector *qdot)
{
    gsl_vector_set(qdot, 0, k->omega1);
    gsl_vector_set(qdot, 1, k->omega2);
}
