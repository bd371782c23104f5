/* fl_model_params.c — see fl_model_params.h. */
#include "models/fl_model_params.h"

#include <jansson.h>

#include "fl_json.h"

fl_status fl_model_params_load(const char *path, size_t nk, const fl_model_key *keys, double *vals,
                               fl_error *err)
{
    fl_json_doc *doc = NULL;
    const json_t *par = NULL;
    fl_status s = fl_json_load(path, &doc, err);
    if (s == FL_OK) s = fl_json_object(doc, doc->root, "", "params", &par, err);
    for (size_t i = 0; s == FL_OK && i < nk; i++) {
        s = fl_json_number(doc, par, "params", keys[i].key, &vals[i], err);
        if (s != FL_OK) break;
        if (keys[i].range == FL_MODEL_POSITIVE && !(vals[i] > 0))
            s = fl_json_error(doc, par, "params", keys[i].key, err, FL_EINVAL, "must be > 0, got %g", vals[i]);
        else if (keys[i].range == FL_MODEL_NONNEGATIVE && !(vals[i] >= 0))
            s = fl_json_error(doc, par, "params", keys[i].key, err, FL_EINVAL, "must be >= 0, got %g", vals[i]);
    }
    fl_json_free(doc);
    return s;
}
