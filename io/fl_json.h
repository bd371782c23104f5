/* fl_json.h — JSON input through jansson (README.md, data/).
 *
 * Every error names the file, a 1-based line:column and the field:
 * syntax errors carry jansson's position; type, range and dimension errors
 * carry the position of the offending member's key (or array element) in the
 * file text and its JSON path, e.g.
 *   data/004/example_3_15.json:7:5: field 'params.mu': expected a number, got a string
 * The record `err` receives file, line and column; `message` repeats them.
 *
 * Ownership: a fl_json_doc owns the parsed tree and the file text; values
 * returned through gsl_vector / gsl_matrix out-arguments belong to the
 * caller.  Keys are looked up in `obj`, a member of doc->root (or the root
 * itself); `where` is the JSON path of `obj` used in messages ("" for root).
 */
#ifndef FL_JSON_H
#define FL_JSON_H

#include <jansson.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

typedef struct fl_json_doc {
    json_t *root;
    char *text;        /* the file's bytes, for locating members in messages */
    char path[256];    /* the file name as given */
} fl_json_doc;

/* Largest JSON file accepted (parameter files are a few kilobytes; jansson's
 * tree takes several times the text). */
#define FL_JSON_MAX_BYTES (64L * 1024 * 1024)

/* Parse a file.  FL_EIO if it cannot be read or is not a regular file (a
 * directory, a device such as /dev/zero, a pipe), FL_EINVAL above
 * FL_JSON_MAX_BYTES, FL_EPARSE with line:column on
 * a syntax error (truncated file included), on a duplicated key or when the
 * top level is not an object; FL_ENONFINITE for a real literal that
 * overflows a double (1e999).  *doc is NULL on error. */
fl_status fl_json_load(const char *path, fl_json_doc **doc, fl_error *err);
void fl_json_free(fl_json_doc *doc);

/* Required members.  FL_EPARSE if missing or of the wrong type,
 * FL_ENONFINITE for NaN/Inf (written as strings or out-of-range literals),
 * FL_EDIM when a vector/matrix length differs from `expect` (pass 0 to accept
 * any length; matrices: rows x cols, 0 for either to accept any). */
fl_status fl_json_number(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, double *out, fl_error *err);
fl_status fl_json_integer(const fl_json_doc *doc, const json_t *obj, const char *where,
                          const char *key, long *out, fl_error *err);
fl_status fl_json_string(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, const char **out, fl_error *err);
fl_status fl_json_object(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, const json_t **out, fl_error *err);
fl_status fl_json_vector(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, size_t expect, gsl_vector **out, fl_error *err);
/* A matrix is an array of rows, each an array of numbers of equal length. */
fl_status fl_json_matrix(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, size_t rows, size_t cols, gsl_matrix **out,
                         fl_error *err);

/* An array member (elements read by the caller with json_array_get; pass an
 * element to the functions above as `obj` with `where` = "key[i]").  FL_EDIM
 * when its length differs from `expect` (0 accepts any length, even 0). */
fl_status fl_json_array(const fl_json_doc *doc, const json_t *obj, const char *where,
                        const char *key, size_t expect, const json_t **out, fl_error *err);
/* A boolean member (true/false): *out is 1 or 0. */
fl_status fl_json_bool(const fl_json_doc *doc, const json_t *obj, const char *where,
                       const char *key, int *out, fl_error *err);

/* Optional number: *out keeps `fallback` when the member is absent. */
fl_status fl_json_number_or(const fl_json_doc *doc, const json_t *obj, const char *where,
                            const char *key, double fallback, double *out, fl_error *err);

/* Report an error about member `key` of `obj` at its position in the file
 * (for range checks done by the caller, e.g. "mu must be >= 0"): fills err
 * like the readers above ("file:line:col: field 'where.key': <fmt>") and
 * returns s.  With key NULL the error is about `obj` itself and points at
 * it (obj an object or array: jansson shares one true/false/null value
 * among all literals, so those cannot be told apart by pointer). */
fl_status fl_json_error(const fl_json_doc *doc, const json_t *obj, const char *where,
                        const char *key, fl_error *err, fl_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

#endif
