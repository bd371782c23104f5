/* fl_model_file.h — how every model of models/ reads its data/ parameter
 * file: one loader frame, and the range-checked numbers the models need, so
 * that each error names the file, line:column and field (io/fl_json.h),
 * e.g. "data/001/kane.json:6:5: field 'params.m1': must be > 0 (got -1)".
 * No model keeps a parameter in C. */
#ifndef FL_MODEL_FILE_H
#define FL_MODEL_FILE_H

#include <stddef.h>

#include "fl_json.h"
#include "fl_status.h"

/* A model's reader: fills *model from the parsed document. */
typedef fl_status (*fl_model_file_reader)(const fl_json_doc *doc, void *model, fl_error *err);

/* Zero model (size bytes), parse path, run read on the document, free it;
 * the model is zeroed again on error, so a read that allocates must free
 * what it allocated before it returns an error.  Returns fl_json_load's or
 * read's status (FL_EINVAL for a NULL argument). */
fl_status fl_model_file_load(const char *path, fl_model_file_reader read, void *model, size_t size,
                             fl_error *err);

/* Required number obj.key (where names obj in messages) with a lower bound:
 * *out > lo when strict, *out >= lo otherwise; FL_EINVAL naming the field. */
fl_status fl_model_file_number(const fl_json_doc *doc, const json_t *obj, const char *where,
                               const char *key, double lo, int strict, double *out, fl_error *err);

/* Required number obj.key in [lo, hi]; FL_EINVAL naming the field. */
fl_status fl_model_file_number_in(const fl_json_doc *doc, const json_t *obj, const char *where,
                                  const char *key, double lo, double hi, double *out, fl_error *err);

/* The flat form, for models whose numbers all sit in the file's "params"
 * object: vals[i] = params.<keys[i].key> with keys[i].range checked. */
typedef enum fl_model_range {
    FL_MODEL_ANY = 0,        /* any finite number */
    FL_MODEL_POSITIVE,       /* > 0 */
    FL_MODEL_NONNEGATIVE     /* >= 0 */
} fl_model_range;

typedef struct fl_model_key {
    const char *key;         /* member of "params" */
    fl_model_range range;
} fl_model_key;

fl_status fl_model_file_params(const char *path, size_t nk, const fl_model_key *keys, double *vals,
                               fl_error *err);

#endif
