/* fl_json.c — JSON input through jansson, with messages that point into the
 * file (io/fl_json.h, README.md data/).
 *
 * jansson does all the parsing.  It keeps no source positions for values, so
 * when a member turns out to be missing, of the wrong type, non-finite or of
 * the wrong length, the small "position finder" below walks the stored file
 * text alongside the parsed tree to find where that member (or array
 * element) is written, and turns the byte offset into line:column.  The
 * finder runs only on error paths and only on text jansson has already
 * accepted, so it can assume well-formed JSON.
 */
#include "fl_json.h"
#include "fl_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fl_dense.h"

/* ------------------------------------------------------------------------ */
/* Position finder (messages only).                                         */
/* ------------------------------------------------------------------------ */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* p is at the opening quote; returns the byte after the closing quote.
 * A backslash always escapes the next byte, which covers \" and \\. */
static const char *skip_string(const char *p)
{
    for (p++; *p != '"'; p++)
        if (*p == '\\') p++;
    return p + 1;
}

/* p is at the first byte of a value; returns the byte after it.
 * Objects and arrays: count bracket depth, stepping over strings whole so
 * that brackets inside strings do not count. */
static const char *skip_value(const char *p)
{
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        do {
            if (*p == '"') {
                p = skip_string(p);
                continue;
            }
            if (*p == '{' || *p == '[') depth++;
            else if (*p == '}' || *p == ']') depth--;
            p++;
        } while (depth > 0);
        return p;
    }
    /* number, true, false, null: up to the next delimiter */
    while (*p && !strchr(",]} \t\r\n", *p)) p++;
    return p;
}

/* After a value inside an object or array: the next member/element, or NULL
 * at the closing bracket. */
static const char *next_item(const char *p)
{
    p = skip_ws(skip_value(p));
    return *p == ',' ? skip_ws(p + 1) : NULL;
}

/* The first member/element of the object/array whose bracket is at p, or
 * NULL if it is empty. */
static const char *first_item(const char *p)
{
    p = skip_ws(p + 1);
    return (*p == '}' || *p == ']') ? NULL : p;
}

/* Key token at p (a quoted string, escapes undecoded).  jansson decodes it,
 * so that keys written with escapes compare like the parsed tree's keys.
 * Returns a new reference to a json string (the text is valid JSON). */
static json_t *decode_key(const char *p)
{
    return json_loadb(p, (size_t)(skip_string(p) - p), JSON_DECODE_ANY, NULL);
}

/* Whether the key token at p names `key`.  A token without a backslash is
 * its own decoding (jansson has checked it is valid UTF-8), so the bytes
 * compare directly; only escaped keys go through decode_key.  The direct
 * path keeps a message's cost linear in the file: the finder visits every
 * key before the one it looks for. */
static int key_is(const char *p, const char *key)
{
    const char *body = p + 1;
    size_t n = (size_t)(skip_string(p) - 1 - body);
    if (!memchr(body, '\\', n)) return strlen(key) == n && memcmp(body, key, n) == 0;
    json_t *name = decode_key(p);
    int same = name && strcmp(json_string_value(name), key) == 0;
    json_decref(name);
    return same;
}

/* The member of object `node` whose key token is at p. */
static const json_t *member_named(const json_t *node, const char *p)
{
    const char *body = p + 1;
    size_t n = (size_t)(skip_string(p) - 1 - body);
    char buf[128];
    if (n < sizeof buf && !memchr(body, '\\', n)) {
        memcpy(buf, body, n);
        buf[n] = '\0';
        return json_object_get(node, buf);
    }
    json_t *name = decode_key(p);
    const json_t *child = name ? json_object_get(node, json_string_value(name)) : NULL;
    json_decref(name);
    return child;
}

/* Value of the member whose key token is at p. */
static const char *member_value(const char *p)
{
    p = skip_ws(skip_string(p));    /* now at ':' */
    return skip_ws(p + 1);
}

/* Where does `target` start in the text?  `node` is the value written at p.
 * Walks the text and the tree together, depth first. */
static const char *find_node(const char *p, const json_t *node, const json_t *target)
{
    if (node == target) return p;
    if (json_is_object(node)) {
        for (const char *k = first_item(p); k; k = next_item(member_value(k))) {
            const char *r = find_node(member_value(k), member_named(node, k), target);
            if (r) return r;
        }
    } else if (json_is_array(node)) {
        size_t i = 0;
        for (const char *e = first_item(p); e; e = next_item(e), i++) {
            const char *r = find_node(e, json_array_get(node, i), target);
            if (r) return r;
        }
    }
    return NULL;
}

/* Key token of member `key` in the object written at p, or NULL. */
static const char *find_key(const char *p, const char *key)
{
    for (const char *k = first_item(p); k; k = next_item(member_value(k)))
        if (key_is(k, key)) return k;
    return NULL;
}

/* Element i of the array written at p (i is in range: the tree says so). */
static const char *find_element(const char *p, size_t i)
{
    const char *e = first_item(p);
    while (i-- > 0) e = next_item(e);
    return e;
}

/* The text position an error about obj[key][idx[0]][idx[1]]... should point
 * at: the element for nidx > 0, else the key; the object itself when the
 * key is NULL or absent; NULL if obj is not part of doc. */
static const char *locate(const fl_json_doc *doc, const json_t *obj, const char *key,
                          size_t nidx, const size_t *idx)
{
    const char *at = find_node(skip_ws(doc->text), doc->root, obj);
    if (!at || !key || !json_is_object(obj)) return at;
    const char *k = find_key(at, key);
    if (!k) return at;
    if (nidx == 0) return k;
    at = member_value(k);
    for (size_t d = 0; d < nidx; d++) at = find_element(at, idx[d]);
    return at;
}

/* 1-based line and column of text position `at` (columns count characters,
 * i.e. UTF-8 lead bytes, as jansson's own syntax errors do). */
static void line_column(const fl_json_doc *doc, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = doc->text; p < at; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Error reports.                                                           */
/* ------------------------------------------------------------------------ */

/* JSON path of member `key` of the object at path `where`. */
static void join(char *buf, size_t len, const char *where, const char *key)
{
    if (!where || !where[0]) snprintf(buf, len, "%s", key ? key : "");
    else if (!key) snprintf(buf, len, "%s", where);
    else snprintf(buf, len, "%s.%s", where, key);
}

static fl_status vreport(const fl_json_doc *doc, const json_t *obj, const char *key,
                         size_t nidx, const size_t *idx, const char *path, fl_status s,
                         fl_error *err, const char *fmt, va_list ap)
{
    char what[384];
    vsnprintf(what, sizeof what, fmt, ap);
    const char *at = locate(doc, obj, key, nidx, idx);
    int line = 0, col = 0;
    if (at) line_column(doc, at, &line, &col);
    if (at)
        return fl_error_set(err, s, doc->path, line, col, "%s:%d:%d: field '%s': %s",
                            doc->path, line, col, path[0] ? path : "(top level)", what);
    /* obj does not belong to doc: a caller's mistake; no position to give */
    return fl_error_set(err, s, doc->path, 0, 0, "%s: field '%s': %s", doc->path,
                        path[0] ? path : "(top level)", what);
}

static fl_status report(const fl_json_doc *doc, const json_t *obj, const char *key,
                        size_t nidx, const size_t *idx, const char *path, fl_status s,
                        fl_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;

static fl_status report(const fl_json_doc *doc, const json_t *obj, const char *key,
                        size_t nidx, const size_t *idx, const char *path, fl_status s,
                        fl_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fl_status r = vreport(doc, obj, key, nidx, idx, path, s, err, fmt, ap);
    va_end(ap);
    return r;
}

/* Report about member `key` of obj (or obj itself when key is NULL). */
fl_status fl_json_error(const fl_json_doc *doc, const json_t *obj, const char *where,
                        const char *key, fl_error *err, fl_status s, const char *fmt, ...)
{
    char path[256];
    join(path, sizeof path, where, key);
    va_list ap;
    va_start(ap, fmt);
    fl_status r = vreport(doc, obj, key, 0, NULL, path, s, err, fmt, ap);
    va_end(ap);
    return r;
}

/* Declared without an fl_error (io/fl_json.h): it can only return s. */
/* ------------------------------------------------------------------------ */
/* Loading.                                                                 */
/* ------------------------------------------------------------------------ */

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: break;
    }
    return "null";
}

/* Whole file into a NUL-terminated buffer.  Only regular files (a
 * directory, /dev/zero or a pipe is refused before anything is read), and at
 * most FL_JSON_MAX_BYTES: the buffer is sized from the file size, never
 * grown without bound. */
static fl_status read_all(const char *path, char **text, size_t *len, fl_error *err)
{
    FILE *f = NULL;
    long long bytes = 0;
    fl_error e_open;
    fl_error_clear(&e_open);
    fl_status s_open = fl_file_open(path, &f, &bytes, &e_open);
    if (s_open != FL_OK)
        return fl_error_set(err, s_open, path, 0, 0, "%s: %s", path, e_open.message);
    struct stat sb = {0};
    sb.st_size = (off_t)bytes;
    if (sb.st_size > (off_t)FL_JSON_MAX_BYTES) {
        fclose(f);
        return fl_error_set(err, FL_EINVAL, path, 0, 0, "%s: %lld bytes, more than the %lld "
                            "a JSON parameter file may have", path, (long long)sb.st_size,
                            (long long)FL_JSON_MAX_BYTES);
    }
    size_t cap = (size_t)sb.st_size + 1;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        return fl_error_set(err, FL_ENOMEM, path, 0, 0, "%s: out of memory for %zu bytes",
                            path, cap);
    }
    /* read one byte more than the size: a file that grew meanwhile is refused */
    size_t n = fread(buf, 1, cap, f);
    int bad = ferror(f);
    int saved = errno;
    fclose(f);
    if (bad || n == cap) {
        free(buf);
        return bad ? fl_error_set(err, FL_EIO, path, 0, 0, "%s: cannot read: %s", path,
                                  strerror(saved))
                   : fl_error_set(err, FL_EIO, path, 0, 0, "%s: the file grew while being "
                                  "read", path);
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return FL_OK;
}

fl_status fl_json_load(const char *path, fl_json_doc **doc, fl_error *err)
{
    *doc = NULL;
    fl_json_doc *d = calloc(1, sizeof *d);
    if (!d) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    snprintf(d->path, sizeof d->path, "%s", path);
    size_t len = 0;
    fl_status s = read_all(path, &d->text, &len, err);
    if (s != FL_OK) {
        free(d);
        return s;
    }
    /* A NUL byte is never valid JSON text, and jansson does not always say
     * so (it ends a number at a NUL and goes on): refuse it here. */
    const char *nul = memchr(d->text, '\0', len);
    if (nul) {
        int line, col;
        line_column(d, nul, &line, &col);
        fl_error_set(err, FL_EPARSE, d->path, line, col, "%s:%d:%d: NUL byte in the file "
                     "(not JSON text)", d->path, line, col);
        fl_json_free(d);
        return FL_EPARSE;
    }
    /* Duplicated keys are refused so that every key names one place. */
    json_error_t je;
    memset(&je, 0, sizeof je);   /* jansson leaves it unset when an allocation fails */
    d->root = json_loadb(d->text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!d->root && json_error_code(&je) == json_error_out_of_memory) {
        fl_error_set(err, FL_ENOMEM, d->path, 0, 0, "%s: out of memory parsing the JSON text",
                     d->path);
        fl_json_free(d);
        return FL_ENOMEM;
    }
    if (!d->root) {
        /* jansson refuses real literals beyond DBL_MAX ("real number
         * overflow"): they would be Inf, so say so with the right status. */
        s = (json_error_code(&je) == json_error_numeric_overflow && strstr(je.text, "real"))
                ? FL_ENONFINITE : FL_EPARSE;
        /* jansson says column 0 just after a newline (end of file). */
        int col = je.column < 1 ? 1 : je.column;
        fl_error_set(err, s, d->path, je.line, col, "%s:%d:%d: %s%s", d->path,
                     je.line, col, je.text,
                     s == FL_ENONFINITE ? " (the number is not finite as a double)" : "");
        fl_json_free(d);
        return s;
    }
    if (!json_is_object(d->root)) {
        int line, col;
        line_column(d, skip_ws(d->text), &line, &col);
        fl_error_set(err, FL_EPARSE, d->path, line, col,
                     "%s:%d:%d: the top level must be an object, got %s", d->path, line, col,
                     type_name(d->root));
        fl_json_free(d);
        return FL_EPARSE;
    }
    *doc = d;
    return FL_OK;
}

void fl_json_free(fl_json_doc *doc)
{
    if (!doc) return;
    json_decref(doc->root);
    free(doc->text);
    free(doc);
}

/* ------------------------------------------------------------------------ */
/* Members.                                                                 */
/* ------------------------------------------------------------------------ */

/* Member `key` of obj, or an FL_EPARSE report "missing" pointing at obj.
 * path receives the member's JSON path. */
static fl_status get(const fl_json_doc *doc, const json_t *obj, const char *where,
                     const char *key, char *path, size_t len, const json_t **v,
                     fl_error *err)
{
    *v = NULL;
    if (!doc || !obj || !key)
        return FL_FAIL(err, FL_EINVAL, "fl_json: NULL document, object or key");
    join(path, len, where, key);
    if (!json_is_object(obj))
        return report(doc, obj, NULL, 0, NULL, path, FL_EPARSE, err,
                      "cannot look up a member in %s", type_name(obj));
    *v = json_object_get(obj, key);
    if (!*v)
        return report(doc, obj, key, 0, NULL, path, FL_EPARSE, err,
                      "missing (required member of %s)",
                      where && where[0] ? where : "the top-level object");
    return FL_OK;
}

/* Strings a person might write for a non-finite value. */
static int names_nonfinite(const char *s)
{
    if (*s == '+' || *s == '-') s++;
    return strcasecmp(s, "nan") == 0 || strcasecmp(s, "inf") == 0 ||
           strcasecmp(s, "infinity") == 0;
}

/* v (at obj[key][idx...]) as a double.  Integers are accepted as reals.
 * jansson never produces a non-finite real (its lexer refuses overflow and
 * json_real refuses NaN/Inf), so only strings can carry NaN/Inf here. */
static fl_status number_of(const fl_json_doc *doc, const json_t *obj, const char *key,
                           size_t nidx, const size_t *idx, const char *path,
                           const json_t *v, double *out, fl_error *err)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return FL_OK;
    }
    if (json_is_string(v) && names_nonfinite(json_string_value(v)))
        return report(doc, obj, key, nidx, idx, path, FL_ENONFINITE, err,
                      "\"%s\" is not a finite number (JSON has no NaN or Inf; "
                      "a finite number is required)", json_string_value(v));
    return report(doc, obj, key, nidx, idx, path, FL_EPARSE, err,
                  "expected a number, got %s", type_name(v));
}

fl_status fl_json_number(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, double *out, fl_error *err)
{
    char path[256];
    const json_t *v;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    return number_of(doc, obj, key, 0, NULL, path, v, out, err);
}

fl_status fl_json_number_or(const fl_json_doc *doc, const json_t *obj, const char *where,
                            const char *key, double fallback, double *out, fl_error *err)
{
    if (obj && key && json_is_object(obj) && !json_object_get(obj, key)) {
        *out = fallback;
        return FL_OK;
    }
    return fl_json_number(doc, obj, where, key, out, err);
}

fl_status fl_json_integer(const fl_json_doc *doc, const json_t *obj, const char *where,
                          const char *key, long *out, fl_error *err)
{
    char path[256];
    const json_t *v;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    if (!json_is_integer(v))
        return report(doc, obj, key, 0, NULL, path, FL_EPARSE, err,
                      "expected an integer, got %s", type_name(v));
    *out = (long)json_integer_value(v);
    return FL_OK;
}

fl_status fl_json_string(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, const char **out, fl_error *err)
{
    char path[256];
    const json_t *v;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    if (!json_is_string(v))
        return report(doc, obj, key, 0, NULL, path, FL_EPARSE, err,
                      "expected a string, got %s", type_name(v));
    *out = json_string_value(v);
    return FL_OK;
}

fl_status fl_json_bool(const fl_json_doc *doc, const json_t *obj, const char *where,
                       const char *key, int *out, fl_error *err)
{
    char path[256];
    const json_t *v;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    if (!json_is_boolean(v))
        return report(doc, obj, key, 0, NULL, path, FL_EPARSE, err,
                      "expected true or false, got %s", type_name(v));
    *out = json_is_true(v);
    return FL_OK;
}

fl_status fl_json_object(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, const json_t **out, fl_error *err)
{
    char path[256];
    const json_t *v;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    if (!json_is_object(v))
        return report(doc, obj, key, 0, NULL, path, FL_EPARSE, err,
                      "expected an object, got %s", type_name(v));
    *out = v;
    return FL_OK;
}

fl_status fl_json_array(const fl_json_doc *doc, const json_t *obj, const char *where,
                        const char *key, size_t expect, const json_t **out, fl_error *err)
{
    char path[256];
    const json_t *v;
    *out = NULL;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    if (!json_is_array(v))
        return report(doc, obj, key, 0, NULL, path, FL_EPARSE, err,
                      "expected an array, got %s", type_name(v));
    if (expect && json_array_size(v) != expect)
        return report(doc, obj, key, 0, NULL, path, FL_EDIM, err,
                      "expected %zu entries, got %zu", expect, json_array_size(v));
    *out = v;
    return FL_OK;
}

/* An array member of numbers with the length rules of vectors and matrix
 * rows: non-empty, and `expect` entries unless expect is 0. */
static fl_status number_array(const fl_json_doc *doc, const json_t *obj, const char *key,
                              size_t nidx, const size_t *idx, const char *path,
                              const json_t *v, size_t expect, fl_error *err)
{
    if (!json_is_array(v))
        return report(doc, obj, key, nidx, idx, path, FL_EPARSE, err,
                      "expected an array of numbers, got %s", type_name(v));
    size_t n = json_array_size(v);
    if (n == 0)
        return report(doc, obj, key, nidx, idx, path, FL_EDIM, err,
                      "expected a non-empty array of numbers");
    if (expect && n != expect)
        return report(doc, obj, key, nidx, idx, path, FL_EDIM, err,
                      "expected %zu entries, got %zu", expect, n);
    return FL_OK;
}

fl_status fl_json_vector(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, size_t expect, gsl_vector **out, fl_error *err)
{
    char path[256], epath[300];
    const json_t *v;
    *out = NULL;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    FL_TRY(number_array(doc, obj, key, 0, NULL, path, v, expect, err));
    size_t n = json_array_size(v);
    gsl_vector *x = fl_dense_vector_alloc(n);
    if (!x) return FL_FAIL(err, FL_ENOMEM, "out of memory for '%s' (%zu entries)", path, n);
    for (size_t i = 0; i < n; i++) {
        double a;
        snprintf(epath, sizeof epath, "%s[%zu]", path, i);
        fl_status s = number_of(doc, obj, key, 1, &i, epath, json_array_get(v, i), &a, err);
        if (s != FL_OK) {
            gsl_vector_free(x);
            return s;
        }
        gsl_vector_set(x, i, a);
    }
    *out = x;
    return FL_OK;
}

fl_status fl_json_matrix(const fl_json_doc *doc, const json_t *obj, const char *where,
                         const char *key, size_t rows, size_t cols, gsl_matrix **out,
                         fl_error *err)
{
    char path[256], rpath[300], epath[340];
    const json_t *v;
    *out = NULL;
    FL_TRY(get(doc, obj, where, key, path, sizeof path, &v, err));
    if (!json_is_array(v) || json_array_size(v) == 0)
        return report(doc, obj, key, 0, NULL, path,
                      json_is_array(v) ? FL_EDIM : FL_EPARSE, err,
                      "expected a non-empty array of rows, got %s",
                      json_is_array(v) ? "an empty array" : type_name(v));
    size_t m = json_array_size(v);
    if (rows && m != rows)
        return report(doc, obj, key, 0, NULL, path, FL_EDIM, err,
                      "expected %zu rows, got %zu", rows, m);
    /* The first row fixes the number of columns unless `cols` does. */
    size_t n = cols;
    if (!n && json_is_array(json_array_get(v, 0))) n = json_array_size(json_array_get(v, 0));
    gsl_matrix *A = NULL;
    for (size_t i = 0; i < m; i++) {
        const json_t *row = json_array_get(v, i);
        snprintf(rpath, sizeof rpath, "%s[%zu]", path, i);
        fl_status s = number_array(doc, obj, key, 1, &i, rpath, row, n, err);
        if (s == FL_OK && !A) {
            A = fl_dense_matrix_alloc(m, n);
            if (!A) s = FL_FAIL(err, FL_ENOMEM, "out of memory for '%s' (%zu x %zu)", path, m, n);
        }
        for (size_t j = 0; s == FL_OK && j < n; j++) {
            size_t ij[2] = {i, j};
            double a = 0.0;
            snprintf(epath, sizeof epath, "%s[%zu]", rpath, j);
            s = number_of(doc, obj, key, 2, ij, epath, json_array_get(row, j), &a, err);
            gsl_matrix_set(A, i, j, a);
        }
        if (s != FL_OK) {
            gsl_matrix_free(A);
            return s;
        }
    }
    *out = A;
    return FL_OK;
}
