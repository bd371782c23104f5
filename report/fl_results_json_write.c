/* fl_results_json_write.c — results.json of a run (jansson; fl_results.h,
 * fl_results_write_json). */
#include "fl_results.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

static json_t *jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *jnum(double x)
{
    if (isnan(x)) return json_string("nan");
    if (isinf(x)) return json_string(x > 0 ? "inf" : "-inf");
    return json_real(x);
}

/* json_object_set_new that remembers a failure (NULL value or no memory). */
static void put(json_t *obj, const char *key, json_t *v, int *bad)
{
    if (!v || json_object_set_new(obj, key, v) != 0) *bad = 1;
}

static void append(json_t *arr, json_t *v, int *bad)
{
    if (!v || json_array_append_new(arr, v) != 0) *bad = 1;
}

static json_t *files_json(const fl_result_figure *f, size_t n, int captions, int *bad)
{
    json_t *a = json_array();
    if (!a) {
        *bad = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        if (!o) {
            *bad = 1;
            break;
        }
        put(o, "file", jstr(f[i].file), bad);
        if (captions) put(o, "caption", jstr(f[i].caption), bad);
        append(a, o, bad);
    }
    return a;
}

static json_t *task_json(const fl_result_task *t, int *bad)
{
    json_t *o = json_object();
    if (!o) {
        *bad = 1;
        return NULL;
    }
    put(o, "name", jstr(t->name), bad);
    put(o, "summary", jstr(t->summary), bad);
    put(o, "paper", jstr(t->paper), bad);
    put(o, "seconds", jnum(t->seconds), bad);
    if (t->params_file) {
        json_t *p = json_object();
        if (p) {
            put(p, "file", jstr(t->params_file), bad);
            put(p, "sha256", jstr(t->params_sha256), bad);
        }
        put(o, "params", p, bad);
    } else {
        put(o, "params", json_null(), bad);
    }
    put(o, "figures", files_json(t->figures, t->nfigures, 1, bad), bad);
    put(o, "files", files_json(t->files, t->nfiles, 0, bad), bad);
    json_t *checks = json_array();
    if (!checks) *bad = 1;
    for (size_t k = 0; checks && k < t->nchecks; k++) {
        const fl_result_check *c = &t->checks[k];
        json_t *co = json_object();
        if (!co) {
            *bad = 1;
            break;
        }
        put(co, "name", jstr(c->name), bad);
        put(co, "status", json_string(fl_result_status_name(c->status)), bad);
        if (c->has_value) put(co, "value", jnum(c->value), bad);
        if (c->has_expected) put(co, "expected", jnum(c->expected), bad);
        if (c->has_tolerance) put(co, "tolerance", jnum(c->tolerance), bad);
        if (c->reference) put(co, "reference", jstr(c->reference), bad);
        if (c->detail) put(co, "detail", jstr(c->detail), bad);
        if (c->discrepancy) put(co, "discrepancy", jstr(c->discrepancy), bad);
        if (c->has_noise_rtol) {
            put(co, "noise_rtol", jnum(c->noise_rtol), bad);
            put(co, "noise_reason", jstr(c->noise_reason), bad);
        }
        append(checks, co, bad);
    }
    put(o, "checks", checks, bad);
    return o;
}

fl_status fl_results_write_json(const fl_results *r, const char *path, fl_error *err)
{
    int bad = 0;
    json_t *root = json_object();
    if (!root) return FL_FAIL(err, FL_ENOMEM, "out of memory building %s", path);
    put(root, "format", json_string(FL_RESULTS_FORMAT), &bad);
    put(root, "version", jstr(r->version), &bad);
    put(root, "commit", jstr(r->commit), &bad);
    put(root, "started", jstr(r->started), &bad);
    put(root, "command", jstr(r->command), &bad);
    put(root, "seconds", jnum(r->seconds), &bad);
    if (r->quick >= 0) put(root, "quick", json_boolean(r->quick), &bad);
    json_t *papers = json_array();
    if (!papers) bad = 1;
    for (size_t i = 0; papers && i < r->npapers; i++) {
        json_t *p = json_object();
        if (!p) {
            bad = 1;
            break;
        }
        put(p, "id", jstr(r->papers[i].id), &bad);
        put(p, "reference", jstr(r->papers[i].reference), &bad);
        append(papers, p, &bad);
    }
    put(root, "papers", papers, &bad);
    json_t *tasks = json_array();
    if (!tasks) bad = 1;
    for (size_t i = 0; tasks && i < r->ntasks; i++) append(tasks, task_json(r->tasks[i], &bad), &bad);
    put(root, "tasks", tasks, &bad);
    if (bad) {
        json_decref(root);
        return FL_FAIL(err, FL_ENOMEM, "out of memory building %s", path);
    }
    /* 17 significant digits: a double survives the round trip. */
    int rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(root);
    if (rc != 0)
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: cannot write: %s", path,
                            strerror(errno));
    return FL_OK;
}

