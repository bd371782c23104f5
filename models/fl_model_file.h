/* fl_model_file.h — reading the data file of a model (models/fl_model_*.c):
 * one loader frame and the range-checked members every model needs, so that
 * each error names the file, line and field (io/fl_json.h). */
#ifndef FL_MODEL_FILE_H
#define FL_MODEL_FILE_H

#include "fl_json.h"
#include "fl_status.h"

/* Parse `path` and hand the document to parse(doc, out, err); the document
 * is freed whatever parse returns.  Returns fl_json_load's or parse's status. */
fl_status fl_model_file_load(const char *path, fl_status (*parse)(const fl_json_doc *doc, void *out, fl_error *err),
                             void *out, fl_error *err);

/* A number in [lo, hi]; FL_EINVAL naming the field otherwise. */
fl_status fl_model_file_number(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key,
                               double lo, double hi, double *out, fl_error *err);

#endif
