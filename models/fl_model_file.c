/* fl_model_file.c — one loader for the parameter files of models/. */
#include "models/fl_model_file.h"

#include <string.h>

fl_status fl_model_file_load(const char *path, fl_model_file_reader read, void *model, size_t size, fl_error *err)
{
    memset(model, 0, size);
    fl_json_doc *doc = NULL;
    FL_TRY(fl_json_load(path, &doc, err));
    fl_status s = read(doc, model, err);
    fl_json_free(doc);
    if (s != FL_OK) memset(model, 0, size);
    return s;
}

fl_status fl_model_file_number(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key,
                               double lo, int strict, double *out, fl_error *err)
{
    FL_TRY(fl_json_number(doc, obj, where, key, out, err));
    if (strict ? !(*out > lo) : !(*out >= lo))
        return fl_json_error(doc, obj, where, key, err, FL_EINVAL, "must be %s %g (got %g)", strict ? ">" : ">=", lo,
                             *out);
    return FL_OK;
}
