/* fl_model_file.c — the loader of the models' parameter files (see the
 * header). */
#include "models/fl_model_file.h"

#include <string.h>

fl_status fl_model_file_load(const char *path, fl_model_file_reader read, void *model, size_t size,
                             fl_error *err)
{
    if (!path || !read || !model) return FL_FAIL(err, FL_EINVAL, "fl_model_file_load: NULL argument");
    memset(model, 0, size);
    fl_json_doc *doc = NULL;
    FL_TRY(fl_json_load(path, &doc, err));
    fl_status s = read(doc, model, err);
    fl_json_free(doc);
    if (s != FL_OK) memset(model, 0, size);
    return s;
}

fl_status fl_model_file_number(const fl_json_doc *doc, const json_t *obj, const char *where,
                               const char *key, double lo, int strict, double *out, fl_error *err)
{
    FL_TRY(fl_json_number(doc, obj, where, key, out, err));
    if (strict ? !(*out > lo) : !(*out >= lo))
        return fl_json_error(doc, obj, where, key, err, FL_EINVAL, "must be %s %g (got %g)",
                             strict ? ">" : ">=", lo, *out);
    return FL_OK;
}

fl_status fl_model_file_number_in(const fl_json_doc *doc, const json_t *obj, const char *where,
                                  const char *key, double lo, double hi, double *out, fl_error *err)
{
    FL_TRY(fl_json_number(doc, obj, where, key, out, err));
    if (!(*out >= lo && *out <= hi))
        return fl_json_error(doc, obj, where, key, err, FL_EINVAL, "%g is outside [%g, %g]", *out,
                             lo, hi);
    return FL_OK;
}

typedef struct params_job {
    size_t nk;
    const fl_model_key *keys;
    double *vals;
} params_job;

static fl_status read_params(const fl_json_doc *doc, void *model, fl_error *err)
{
    const params_job *job = model;
    const json_t *par = NULL;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    for (size_t i = 0; i < job->nk; i++) {
        const fl_model_key *k = &job->keys[i];
        if (k->range == FL_MODEL_ANY)
            FL_TRY(fl_json_number(doc, par, "params", k->key, &job->vals[i], err));
        else
            FL_TRY(fl_model_file_number(doc, par, "params", k->key, 0.0, k->range == FL_MODEL_POSITIVE,
                                        &job->vals[i], err));
    }
    return FL_OK;
}

fl_status fl_model_file_params(const char *path, size_t nk, const fl_model_key *keys, double *vals,
                               fl_error *err)
{
    if (nk > 0 && (!keys || !vals)) return FL_FAIL(err, FL_EINVAL, "fl_model_file_params: NULL argument");
    params_job job = {nk, keys, vals};
    return fl_model_file_load(path, read_params, &job, 0, err);
}
