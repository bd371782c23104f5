/* fl_model_params.h — the numbers of a model, read from its data/ JSON
 * parameter file (member "params"), with a range check per number.
 *
 * The models of models/ keep no parameter in C: each reads its file through
 * fl_model_params_load, which refuses a missing file, a missing or
 * non-numeric member and a number out of its range with an error naming the
 * file, line:column and field ("data/001/kane.json:6:5: field 'params.m1':
 * must be > 0, got -1"), as io/fl_json.h does.
 */
#ifndef FL_MODEL_PARAMS_H
#define FL_MODEL_PARAMS_H

#include <stddef.h>

#include "fl_status.h"

typedef enum fl_model_range {
    FL_MODEL_ANY = 0,        /* any finite number */
    FL_MODEL_POSITIVE,       /* > 0 */
    FL_MODEL_NONNEGATIVE     /* >= 0 */
} fl_model_range;

typedef struct fl_model_key {
    const char *key;         /* member of "params" */
    fl_model_range range;
} fl_model_key;

/* vals[i] = params.<keys[i].key> of the JSON file at path.  FL_OK, or the
 * reader's status (FL_EIO, FL_EPARSE, FL_ENONFINITE) or FL_EINVAL for a
 * number out of range, with err naming the file and the field. */
fl_status fl_model_params_load(const char *path, size_t nk, const fl_model_key *keys, double *vals,
                               fl_error *err);

#endif
