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
