/* fl_model_file.c — the loader frame and ranged numbers of the models'
 * data files (see the header). */
#include "models/fl_model_file.h"

fl_status fl_model_file_load(const char *path, fl_status (*parse)(const fl_json_doc *doc, void *out, fl_error *err),
                             void *out, fl_error *err)
{
    if (!path || !parse || !out) return FL_FAIL(err, FL_EINVAL, "fl_model_file_load: NULL argument");
    fl_json_doc *doc = NULL;
    FL_TRY(fl_json_load(path, &doc, err));
    fl_status st = parse(doc, out, err);
    fl_json_free(doc);
    return st;
}

fl_status fl_model_file_number(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key,
                               double lo, double hi, double *out, fl_error *err)
{
    FL_TRY(fl_json_number(doc, obj, where, key, out, err));
    if (!(*out >= lo && *out <= hi))
        return fl_json_error(doc, obj, where, key, err, FL_EINVAL, "%g is outside [%g, %g]", *out, lo, hi);
    return FL_OK;
}
