/* fl_model_file.h — how every model of models/ reads its parameter file:
 * parse the JSON file, run the model's reader on it, free it; on error the
 * model is zeroed and err names the file, line and field (io/fl_json.h). */
#ifndef FL_MODEL_FILE_H
#define FL_MODEL_FILE_H

#include <stddef.h>

#include "fl_json.h"
#include "fl_status.h"

/* A model's reader: fills *model from the parsed document. */
typedef fl_status (*fl_model_file_reader)(const fl_json_doc *doc, void *model, fl_error *err);

/* Zero model (size bytes), parse path, run read; model zeroed again on error. */
fl_status fl_model_file_load(const char *path, fl_model_file_reader read, void *model, size_t size, fl_error *err);

/* Required number obj.key (where names obj in messages) with a lower bound:
 * *out > lo when strict, *out >= lo otherwise; FL_EINVAL naming the field. */
fl_status fl_model_file_number(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key,
                               double lo, int strict, double *out, fl_error *err);

#endif
