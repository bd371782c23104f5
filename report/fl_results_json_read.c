/* fl_results_json_read.c — the reader of results.json (jansson;
 * fl_results.h, fl_results_read_json): every field's type is checked and an
 * error names the file and field. */
#include "fl_results.h"
#include "fl_results_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct reader {
    const char *path;
    fl_error *err;
} reader;

static fl_status rfail(const reader *rd, const char *where, const char *what)
{
    return fl_error_set(rd->err, FL_EPARSE, rd->path, 0, 0, "%s: field '%s': %s", rd->path,
                        where, what);
}

/* Optional string member: absent or null gives NULL. */
static fl_status rstr(const reader *rd, const json_t *obj, const char *where, const char *key,
                      int required, char **out)
{
    char w[512];
    snprintf(w, sizeof w, "%s%s%s", where, *where ? "." : "", key);
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) {
        if (required) return rfail(rd, w, "missing");
        return FL_OK;
    }
    if (!json_is_string(v)) return rfail(rd, w, "expected a string");
    if (fl_results_set_str(out, json_string_value(v)) != FL_OK)
        return FL_FAIL(rd->err, FL_ENOMEM, "out of memory reading %s", rd->path);
    return FL_OK;
}

/* Optional number member (a number, or "nan", "inf", "-inf"). */
static fl_status rnum(const reader *rd, const json_t *obj, const char *where, const char *key,
                      int *has, double *out)
{
    char w[512];
    snprintf(w, sizeof w, "%s%s%s", where, *where ? "." : "", key);
    const json_t *v = json_object_get(obj, key);
    if (has) *has = 0;
    if (!v || json_is_null(v)) return FL_OK;
    if (json_is_number(v)) {
        *out = json_number_value(v);
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strcmp(s, "nan") == 0) *out = NAN;
        else if (strcmp(s, "inf") == 0) *out = INFINITY;
        else if (strcmp(s, "-inf") == 0) *out = -INFINITY;
        else return rfail(rd, w, "expected a number, \"nan\", \"inf\" or \"-inf\"");
    } else {
        return rfail(rd, w, "expected a number");
    }
    if (has) *has = 1;
    return FL_OK;
}

static const json_t *rarr(const reader *rd, const json_t *obj, const char *where,
                          const char *key, fl_status *s)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) return NULL;
    if (!json_is_array(v)) {
        char w[512];
        snprintf(w, sizeof w, "%s%s%s", where, *where ? "." : "", key);
        *s = rfail(rd, w, "expected an array");
    }
    return json_is_array(v) ? v : NULL;
}

static fl_status read_files(const reader *rd, const json_t *task, const char *where,
                            const char *key, fl_result_task *t, int figures)
{
    fl_status s = FL_OK;
    const json_t *a = rarr(rd, task, where, key, &s);
    if (s != FL_OK || !a) return s;
    for (size_t i = 0; i < json_array_size(a); i++) {
        char w[512];
        snprintf(w, sizeof w, "%s.%s[%zu]", where, key, i);
        const json_t *f = json_array_get(a, i);
        if (!json_is_object(f)) return rfail(rd, w, "expected an object");
        char *file = NULL, *caption = NULL;
        s = rstr(rd, f, w, "file", 1, &file);
        if (s == FL_OK && figures) s = rstr(rd, f, w, "caption", 0, &caption);
        if (s == FL_OK)
            s = figures ? fl_result_task_figure_add(t, file, caption) : fl_result_task_file_add(t, file);
        free(file);
        free(caption);
        if (s == FL_ENOMEM) return FL_FAIL(rd->err, s, "out of memory reading %s", rd->path);
        if (s != FL_OK) return s;
    }
    return FL_OK;
}

static fl_status read_check(const reader *rd, const json_t *co, const char *w, fl_result_task *t)
{
    if (!json_is_object(co)) return rfail(rd, w, "expected an object");
    fl_result_check c = fl_result_check_default();
    char *status = NULL;
    char sw[700];
    fl_status s = rstr(rd, co, w, "name", 1, &c.name);
    if (s == FL_OK) s = rstr(rd, co, w, "status", 1, &status);
    if (s == FL_OK && fl_result_status_parse(status, &c.status) != FL_OK) {
        snprintf(sw, sizeof sw, "%s.status", w);
        s = rfail(rd, sw, "expected \"PASS\", \"FAIL\", \"NOTE\" or \"NOT RUN\"");
    }
    if (s == FL_OK) s = rnum(rd, co, w, "value", &c.has_value, &c.value);
    if (s == FL_OK) s = rnum(rd, co, w, "expected", &c.has_expected, &c.expected);
    if (s == FL_OK) s = rnum(rd, co, w, "tolerance", &c.has_tolerance, &c.tolerance);
    if (s == FL_OK) s = rstr(rd, co, w, "reference", 0, &c.reference);
    if (s == FL_OK) s = rstr(rd, co, w, "detail", 0, &c.detail);
    if (s == FL_OK) s = rstr(rd, co, w, "discrepancy", 0, &c.discrepancy);
    if (s == FL_OK) s = rnum(rd, co, w, "noise_rtol", &c.has_noise_rtol, &c.noise_rtol);
    if (s == FL_OK) s = rstr(rd, co, w, "noise_reason", 0, &c.noise_reason);
    if (s == FL_OK && c.has_noise_rtol &&
        (!(c.noise_rtol >= 0.0 && c.noise_rtol < 1.0) || !c.noise_reason || !c.noise_reason[0])) {
        snprintf(sw, sizeof sw, "%s.noise_rtol", w);
        s = rfail(rd, sw, "expected a number in [0, 1) with a non-empty \"noise_reason\"");
    }
    if (s == FL_OK && fl_result_task_check_add(t, &c) != FL_OK)
        s = FL_FAIL(rd->err, FL_ENOMEM, "out of memory reading %s", rd->path);
    free(status);
    fl_result_check_clear(&c);
    return s;
}

static fl_status read_task(const reader *rd, const json_t *to, const char *w, fl_results *r)
{
    if (!json_is_object(to)) return rfail(rd, w, "expected an object");
    char *name = NULL;
    fl_result_task *t = NULL;
    fl_status s = rstr(rd, to, w, "name", 1, &name);
    if (s == FL_OK && fl_results_task_add(r, name, NULL, NULL, &t) != FL_OK)
        s = FL_FAIL(rd->err, FL_ENOMEM, "out of memory reading %s", rd->path);
    free(name);
    if (s != FL_OK) return s;
    FL_TRY(rstr(rd, to, w, "summary", 0, &t->summary));
    FL_TRY(rstr(rd, to, w, "paper", 0, &t->paper));
    FL_TRY(rnum(rd, to, w, "seconds", NULL, &t->seconds));
    const json_t *p = json_object_get(to, "params");
    if (p && !json_is_null(p)) {
        char pw[600];
        snprintf(pw, sizeof pw, "%s.params", w);
        if (!json_is_object(p)) return rfail(rd, pw, "expected an object or null");
        FL_TRY(rstr(rd, p, pw, "file", 1, &t->params_file));
        FL_TRY(rstr(rd, p, pw, "sha256", 0, &t->params_sha256));
    }
    FL_TRY(read_files(rd, to, w, "figures", t, 1));
    FL_TRY(read_files(rd, to, w, "files", t, 0));
    const json_t *checks = rarr(rd, to, w, "checks", &s);
    if (s != FL_OK) return s;
    for (size_t k = 0; checks && k < json_array_size(checks); k++) {
        char cw[600];
        snprintf(cw, sizeof cw, "%s.checks[%zu]", w, k);
        FL_TRY(read_check(rd, json_array_get(checks, k), cw, t));
    }
    return FL_OK;
}

static fl_status read_root(const reader *rd, const json_t *root, fl_results *r)
{
    if (!json_is_object(root)) return rfail(rd, "(top level)", "expected an object");
    char *format = NULL;
    FL_TRY(rstr(rd, root, "", "format", 1, &format));
    int same = strcmp(format, FL_RESULTS_FORMAT) == 0;
    free(format);
    if (!same) return rfail(rd, "format", "expected \"" FL_RESULTS_FORMAT "\"");
    FL_TRY(rstr(rd, root, "", "version", 0, &r->version));
    FL_TRY(rstr(rd, root, "", "commit", 0, &r->commit));
    FL_TRY(rstr(rd, root, "", "started", 0, &r->started));
    FL_TRY(rstr(rd, root, "", "command", 0, &r->command));
    FL_TRY(rnum(rd, root, "", "seconds", NULL, &r->seconds));
    const json_t *q = json_object_get(root, "quick");
    if (q && !json_is_null(q)) {
        if (!json_is_boolean(q)) return rfail(rd, "quick", "expected true or false");
        r->quick = json_is_true(q);
    }
    fl_status s = FL_OK;
    const json_t *papers = rarr(rd, root, "", "papers", &s);
    if (s != FL_OK) return s;
    for (size_t i = 0; papers && i < json_array_size(papers); i++) {
        char w[64];
        snprintf(w, sizeof w, "papers[%zu]", i);
        const json_t *p = json_array_get(papers, i);
        if (!json_is_object(p)) return rfail(rd, w, "expected an object");
        char *id = NULL, *ref = NULL;
        s = rstr(rd, p, w, "id", 1, &id);
        if (s == FL_OK) s = rstr(rd, p, w, "reference", 0, &ref);
        if (s == FL_OK && fl_results_paper_add(r, id, ref) != FL_OK)
            s = FL_FAIL(rd->err, FL_ENOMEM, "out of memory reading %s", rd->path);
        free(id);
        free(ref);
        if (s != FL_OK) return s;
    }
    const json_t *tasks = rarr(rd, root, "", "tasks", &s);
    if (s != FL_OK) return s;
    if (!tasks) return rfail(rd, "tasks", "missing");
    for (size_t i = 0; i < json_array_size(tasks); i++) {
        char w[64];
        snprintf(w, sizeof w, "tasks[%zu]", i);
        FL_TRY(read_task(rd, json_array_get(tasks, i), w, r));
    }
    return FL_OK;
}

fl_status fl_results_read_json(const char *path, fl_results **out, fl_error *err)
{
    *out = NULL;
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        fl_status s = je.line < 0 && je.position == 0 ? FL_EIO : FL_EPARSE;
        return fl_error_set(err, s, path, je.line > 0 ? je.line : 0,
                            je.column > 0 ? je.column : 0, "%s:%d:%d: %s", path, je.line,
                            je.column, je.text);
    }
    fl_results *r = fl_results_alloc(NULL, NULL);
    if (!r) {
        json_decref(root);
        return FL_FAIL(err, FL_ENOMEM, "out of memory reading %s", path);
    }
    reader rd = {path, err};
    fl_status s = read_root(&rd, root, r);
    json_decref(root);
    if (s != FL_OK) {
        fl_results_free(r);
        return s;
    }
    *out = r;
    return FL_OK;
}

