/* fl_results.c — results model of a reproduction run, its results.json
 * (jansson), its report.html and the baseline comparison (fl_results.h).
 * SHA-256 and base64 come from OpenSSL's libcrypto (EVP). */
#include "fl_results.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- small helpers ---------------------------------------------------- */

static char *dup_or_null(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

/* Replace *dst by a copy of src; FL_ENOMEM leaves *dst unchanged. */
static fl_status set_str(char **dst, const char *src)
{
    char *d = NULL;
    if (src && !(d = dup_or_null(src))) return FL_ENOMEM;
    free(*dst);
    *dst = d;
    return FL_OK;
}

/* Grow an array of `size`-byte items to hold n + 1. */
static fl_status grow(void **items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return FL_OK;
    size_t nc = *cap ? 2 * *cap : 8;
    void *p = realloc(*items, nc * size);
    if (!p) return FL_ENOMEM;
    *items = p;
    *cap = nc;
    return FL_OK;
}

const char *fl_result_status_name(fl_result_status s)
{
    switch (s) {
    case FL_RESULT_PASS: return "PASS";
    case FL_RESULT_FAIL: return "FAIL";
    case FL_RESULT_NOTE: return "NOTE";
    case FL_RESULT_NOT_RUN: return "NOT RUN";
    }
    return "?";
}

fl_status fl_result_status_parse(const char *name, fl_result_status *out)
{
    static const fl_result_status all[] = {FL_RESULT_PASS, FL_RESULT_FAIL, FL_RESULT_NOTE,
                                           FL_RESULT_NOT_RUN};
    for (size_t i = 0; name && i < sizeof all / sizeof *all; i++)
        if (strcmp(name, fl_result_status_name(all[i])) == 0) {
            *out = all[i];
            return FL_OK;
        }
    return FL_ENOTFOUND;
}

fl_result_check fl_result_check_default(void)
{
    fl_result_check c;
    memset(&c, 0, sizeof c);
    c.status = FL_RESULT_PASS;
    return c;
}

/* ---- the model ---------------------------------------------------------- */

fl_results *fl_results_alloc(const char *version, const char *commit)
{
    fl_results *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (set_str(&r->version, version) != FL_OK || set_str(&r->commit, commit) != FL_OK) {
        fl_results_free(r);
        return NULL;
    }
    return r;
}

static void check_clear(fl_result_check *c)
{
    free(c->name);
    free(c->reference);
    free(c->detail);
    free(c->discrepancy);
}

static void task_free(fl_result_task *t)
{
    if (!t) return;
    free(t->name);
    free(t->summary);
    free(t->paper);
    free(t->params_file);
    free(t->params_sha256);
    for (size_t i = 0; i < t->nfigures; i++) {
        free(t->figures[i].file);
        free(t->figures[i].caption);
    }
    free(t->figures);
    for (size_t i = 0; i < t->nfiles; i++) {
        free(t->files[i].file);
        free(t->files[i].caption);
    }
    free(t->files);
    for (size_t i = 0; i < t->nchecks; i++) check_clear(&t->checks[i]);
    free(t->checks);
    free(t);
}

void fl_results_free(fl_results *r)
{
    if (!r) return;
    free(r->version);
    free(r->commit);
    free(r->started);
    free(r->command);
    for (size_t i = 0; i < r->npapers; i++) {
        free(r->papers[i].id);
        free(r->papers[i].reference);
    }
    free(r->papers);
    for (size_t i = 0; i < r->ntasks; i++) task_free(r->tasks[i]);
    free(r->tasks);
    free(r);
}

fl_status fl_results_set_started(fl_results *r, const char *iso8601)
{
    return set_str(&r->started, iso8601);
}

fl_status fl_results_set_command(fl_results *r, const char *command)
{
    return set_str(&r->command, command);
}

fl_status fl_results_paper_add(fl_results *r, const char *id, const char *reference)
{
    if (!id) return FL_EINVAL;
    for (size_t i = 0; i < r->npapers; i++)
        if (strcmp(r->papers[i].id, id) == 0) return set_str(&r->papers[i].reference, reference);
    FL_TRY(grow((void **)&r->papers, &r->cap_papers, r->npapers, sizeof *r->papers));
    fl_result_paper p = {dup_or_null(id), dup_or_null(reference)};
    if (!p.id || (reference && !p.reference)) {
        free(p.id);
        free(p.reference);
        return FL_ENOMEM;
    }
    r->papers[r->npapers++] = p;
    return FL_OK;
}

fl_status fl_results_task_add(fl_results *r, const char *name, const char *summary,
                              const char *paper, fl_result_task **task)
{
    if (!name) return FL_EINVAL;
    FL_TRY(grow((void **)&r->tasks, &r->cap_tasks, r->ntasks, sizeof *r->tasks));
    fl_result_task *t = calloc(1, sizeof *t);
    if (!t) return FL_ENOMEM;
    if (set_str(&t->name, name) != FL_OK || set_str(&t->summary, summary) != FL_OK ||
        set_str(&t->paper, paper) != FL_OK) {
        task_free(t);
        return FL_ENOMEM;
    }
    r->tasks[r->ntasks++] = t;
    if (task) *task = t;
    return FL_OK;
}

fl_result_task *fl_results_task_find(const fl_results *r, const char *name)
{
    for (size_t i = 0; i < r->ntasks; i++)
        if (strcmp(r->tasks[i]->name, name) == 0) return r->tasks[i];
    return NULL;
}

fl_status fl_result_task_set_paper(fl_result_task *t, const char *paper)
{
    return set_str(&t->paper, paper);
}

fl_status fl_results_sha256_file(const char *path, char hex[65], fl_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: cannot open: %s", path,
                            strerror(errno));
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(md);
        fclose(f);
        return FL_FAIL(err, FL_EEXTERNAL, "OpenSSL cannot start a SHA-256 digest");
    }
    unsigned char buf[65536];
    size_t n;
    int ok = 1;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (EVP_DigestUpdate(md, buf, n) != 1) ok = 0;
    int rerr = ferror(f);
    fclose(f);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(md, digest, &len) != 1 || len != 32) ok = 0;
    EVP_MD_CTX_free(md);
    if (rerr) return fl_error_set(err, FL_EIO, path, 0, 0, "%s: read error", path);
    if (!ok) return FL_FAIL(err, FL_EEXTERNAL, "OpenSSL SHA-256 of %s failed", path);
    for (unsigned i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    return FL_OK;
}

fl_status fl_result_task_set_params(fl_result_task *t, const char *shown, const char *path,
                                    fl_error *err)
{
    char hex[65];
    FL_TRY(fl_results_sha256_file(path, hex, err));
    FL_TRY(set_str(&t->params_file, shown ? shown : path));
    return set_str(&t->params_sha256, hex);
}

static fl_status file_list_add(fl_result_figure **items, size_t *n, size_t *cap,
                               const char *file, const char *caption)
{
    if (!file) return FL_EINVAL;
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*items)[i].file, file) == 0)
            return caption ? set_str(&(*items)[i].caption, caption) : FL_OK;
    FL_TRY(grow((void **)items, cap, *n, sizeof **items));
    fl_result_figure f = {dup_or_null(file), dup_or_null(caption)};
    if (!f.file || (caption && !f.caption)) {
        free(f.file);
        free(f.caption);
        return FL_ENOMEM;
    }
    (*items)[(*n)++] = f;
    return FL_OK;
}

fl_status fl_result_task_figure_add(fl_result_task *t, const char *file, const char *caption)
{
    return file_list_add(&t->figures, &t->nfigures, &t->cap_figures, file, caption);
}

fl_status fl_result_task_file_add(fl_result_task *t, const char *file)
{
    return file_list_add(&t->files, &t->nfiles, &t->cap_files, file, NULL);
}

static size_t drop_missing(fl_result_figure *items, size_t n, const char *base_dir)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", base_dir ? base_dir : ".", items[i].file);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            items[m++] = items[i];
        } else {
            free(items[i].file);
            free(items[i].caption);
        }
    }
    return m;
}

void fl_result_task_drop_missing(fl_result_task *t, const char *base_dir)
{
    t->nfigures = drop_missing(t->figures, t->nfigures, base_dir);
    t->nfiles = drop_missing(t->files, t->nfiles, base_dir);
}

fl_status fl_result_task_check_add(fl_result_task *t, const fl_result_check *c)
{
    if (!c || !c->name) return FL_EINVAL;
    FL_TRY(grow((void **)&t->checks, &t->cap_checks, t->nchecks, sizeof *t->checks));
    fl_result_check d = *c;
    d.name = dup_or_null(c->name);
    d.reference = dup_or_null(c->reference);
    d.detail = dup_or_null(c->detail);
    d.discrepancy = dup_or_null(c->discrepancy);
    if (!d.name || (c->reference && !d.reference) || (c->detail && !d.detail) ||
        (c->discrepancy && !d.discrepancy)) {
        check_clear(&d);
        return FL_ENOMEM;
    }
    t->checks[t->nchecks++] = d;
    return FL_OK;
}

void fl_results_count(const fl_results *r, long *pass, long *fail, long *note, long *not_run)
{
    long c[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < r->ntasks; i++)
        for (size_t k = 0; k < r->tasks[i]->nchecks; k++) {
            unsigned s = (unsigned)r->tasks[i]->checks[k].status;
            if (s < 4) c[s]++;
        }
    if (pass) *pass = c[FL_RESULT_PASS];
    if (fail) *fail = c[FL_RESULT_FAIL];
    if (note) *note = c[FL_RESULT_NOTE];
    if (not_run) *not_run = c[FL_RESULT_NOT_RUN];
}

/* ---- results.json: writer ------------------------------------------------ */

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

/* ---- results.json: reader ------------------------------------------------ */

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
    if (set_str(out, json_string_value(v)) != FL_OK)
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
    if (s == FL_OK && fl_result_task_check_add(t, &c) != FL_OK)
        s = FL_FAIL(rd->err, FL_ENOMEM, "out of memory reading %s", rd->path);
    free(status);
    check_clear(&c);
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

/* ---- report.html --------------------------------------------------------- */

static void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* An href or id: file names are written as they are, each byte outside a
 * safe set percent-encoded. */
static void html_url(FILE *f, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789-_.~/";
    for (; s && *s; s++) {
        if (strchr(safe, *s)) fputc(*s, f);
        else fprintf(f, "%%%02X", (unsigned char)*s);
    }
}

static void html_num(FILE *f, int has, double x)
{
    if (has) fprintf(f, "%.10g", x);
    else fputs("&mdash;", f);
}

/* The paper id of a task: the first word of its paper reference. */
static size_t paper_id(const char *paper, char *id, size_t len)
{
    size_t n = 0;
    if (paper)
        while (paper[n] && paper[n] != ' ' && n + 1 < len) {
            id[n] = paper[n];
            n++;
        }
    id[n] = '\0';
    return n;
}

/* Read a whole file; NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 65536;
            unsigned char *p = realloc(buf, nc);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
            cap = nc;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int is_png(const char *file)
{
    size_t n = strlen(file);
    return n > 4 && strcmp(file + n - 4, ".png") == 0;
}

/* <img> with the PNG inlined as a base64 data URI; 0 on success. */
static int html_inline_png(FILE *f, const char *base_dir, const char *file, const char *alt)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", base_dir ? base_dir : ".", file);
    size_t n = 0;
    unsigned char *bytes = slurp(path, &n);
    if (!bytes) return -1;
    if (n > (size_t)1 << 28) {
        free(bytes);
        return -1;
    }
    unsigned char *b64 = malloc(4 * ((n + 2) / 3) + 1);
    if (!b64) {
        free(bytes);
        return -1;
    }
    EVP_EncodeBlock(b64, bytes, (int)n);
    free(bytes);
    fputs("<img alt=\"", f);
    html_text(f, alt);
    fputs("\" src=\"data:image/png;base64,", f);
    fputs((const char *)b64, f);
    fputs("\">", f);
    free(b64);
    return 0;
}

/* "3.2 s", "53 min 35 s", "1 h 02 min". */
static void html_duration(FILE *f, double seconds)
{
    if (!(seconds >= 0.0)) seconds = 0.0;
    long s = (long)(seconds + 0.5);
    if (seconds < 60.0) fprintf(f, "%.1f s", seconds);
    else if (s < 3600) fprintf(f, "%ld min %02ld s", s / 60, s % 60);
    else fprintf(f, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
}

static const char *status_class(fl_result_status s, const char *discrepancy)
{
    if (discrepancy) return "disc";
    switch (s) {
    case FL_RESULT_PASS: return "pass";
    case FL_RESULT_FAIL: return "fail";
    case FL_RESULT_NOTE: return "note";
    case FL_RESULT_NOT_RUN: return "notrun";
    }
    return "note";
}

static void html_task(FILE *f, const fl_result_task *t, const char *base_dir)
{
    fputs("<section class=\"task\" id=\"task-", f);
    html_url(f, t->name);
    fputs("\">\n<h3>", f);
    html_text(f, t->name);
    if (t->paper) {
        fputs(" <span class=\"ref\">", f);
        html_text(f, t->paper);
        fputs("</span>", f);
    }
    fputs("</h3>\n", f);
    if (t->summary) {
        fputs("<p class=\"claim\"><b>Claim reproduced:</b> ", f);
        html_text(f, t->summary);
        fputs("</p>\n", f);
    }
    fputs("<p class=\"meta\">Parameters: ", f);
    if (t->params_file) {
        fputs("<code>", f);
        html_text(f, t->params_file);
        fputs("</code>, SHA-256 <code>", f);
        html_text(f, t->params_sha256 ? t->params_sha256 : "unknown");
        fputs("</code>", f);
    } else {
        fputs("built into the task (no data file)", f);
    }
    fputs(". Run time ", f);
    html_duration(f, t->seconds);
    fputs(".</p>\n", f);

    long cnt[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < t->nchecks; k++)
        if ((unsigned)t->checks[k].status < 4) cnt[t->checks[k].status]++;
    fprintf(f, "<p class=\"meta\">Checks: %ld passed, %ld failed, %ld notes, %ld not run.</p>\n",
            cnt[0], cnt[1], cnt[2], cnt[3]);

    for (size_t i = 0; i < t->nfigures; i++) {
        const fl_result_figure *g = &t->figures[i];
        fputs("<figure>", f);
        const char *alt = g->caption ? g->caption : g->file;
        if (!is_png(g->file) || html_inline_png(f, base_dir, g->file, alt) != 0) {
            fputs("<p class=\"fail\">figure ", f);
            html_text(f, g->file);
            fputs(" could not be read</p>", f);
        }
        fputs("<figcaption>", f);
        if (g->caption) {
            fputs("Reproduces ", f);
            html_text(f, g->caption);
            fputs(" &mdash; ", f);
        } else {
            fputs("(no paper figure) &mdash; ", f);
        }
        fputs("<a href=\"", f);
        html_url(f, g->file);
        fputs("\">", f);
        html_text(f, g->file);
        fputs("</a></figcaption></figure>\n", f);
    }
    if (t->nfiles > 0) {
        fputs("<p class=\"files\">Data files: ", f);
        for (size_t i = 0; i < t->nfiles; i++) {
            if (i) fputs(", ", f);
            fputs("<a href=\"", f);
            html_url(f, t->files[i].file);
            fputs("\">", f);
            html_text(f, t->files[i].file);
            fputs("</a>", f);
        }
        fputs("</p>\n", f);
    }
    fputs("<table class=\"checks\">\n<tr><th>check</th><th>status</th><th>ours</th>"
          "<th>paper / expected</th><th>difference</th><th>tolerance</th><th>reference</th>"
          "<th>detail</th></tr>\n", f);
    for (size_t k = 0; k < t->nchecks; k++) {
        const fl_result_check *c = &t->checks[k];
        fprintf(f, "<tr class=\"%s\"><td>", status_class(c->status, c->discrepancy));
        html_text(f, c->name);
        fputs("</td><td>", f);
        if (c->discrepancy) fputs("DISCREPANCY (", f);
        fputs(fl_result_status_name(c->status), f);
        if (c->discrepancy) fputs(")", f);
        fputs("</td><td>", f);
        html_num(f, c->has_value, c->value);
        fputs("</td><td>", f);
        html_num(f, c->has_expected, c->expected);
        fputs("</td><td>", f);
        html_num(f, c->has_value && c->has_expected, c->value - c->expected);
        fputs("</td><td>", f);
        html_num(f, c->has_tolerance, c->tolerance);
        fputs("</td><td>", f);
        html_text(f, c->reference);
        fputs("</td><td>", f);
        html_text(f, c->detail);
        if (c->discrepancy) {
            fputs("<br><b>Documented discrepancy:</b> ", f);
            html_text(f, c->discrepancy);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</section>\n", f);
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>frictionlab reproduction report</title>\n<style>\n"
    "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em;line-height:1.4}\n"
    "table{border-collapse:collapse;font-size:90%;width:100%}\n"
    "td,th{border:1px solid #ccc;padding:2px 4px;vertical-align:top;text-align:left}\n"
    "tr.pass td:nth-child(2){color:#060}tr.fail td:nth-child(2){color:#b00;font-weight:bold}\n"
    "tr.disc td:nth-child(2){color:#a60;font-weight:bold}tr.notrun td:nth-child(2){color:#666}\n"
    ".fail{color:#b00}figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}\n"
    "figcaption{font-style:italic}.ref{font-weight:normal;color:#444}.meta{color:#333}\n"
    "section.task{border-top:1px solid #999;margin-top:2em}\n"
    "</style>\n</head>\n<body>\n";

static void html_paper(FILE *f, const fl_results *r, const char *id, const char *reference,
                       const char *base_dir, int *done)
{
    fputs("<section class=\"paper\" id=\"paper-", f);
    html_url(f, *id ? id : "other");
    fputs("\">\n<h2>", f);
    if (*id) {
        fputs("Paper ", f);
        html_text(f, id);
        if (reference) {
            fputs(": ", f);
            html_text(f, reference);
        }
    } else {
        fputs("Tasks without a paper reference", f);
    }
    fputs("</h2>\n", f);
    for (size_t i = 0; i < r->ntasks; i++) {
        char tid[64];
        paper_id(r->tasks[i]->paper, tid, sizeof tid);
        if (done[i] || strcmp(tid, id) != 0) continue;
        done[i] = 1;
        html_task(f, r->tasks[i], base_dir);
    }
    fputs("</section>\n", f);
}

fl_status fl_results_write_html(const fl_results *r, const char *path, const char *base_dir,
                                fl_error *err)
{
    int *done = calloc(r->ntasks + 1, sizeof *done);
    if (!done) return FL_FAIL(err, FL_ENOMEM, "out of memory writing %s", path);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(done);
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: cannot create: %s", path,
                            strerror(errno));
    }
    long pass, fail, note, not_run;
    fl_results_count(r, &pass, &fail, &note, &not_run);
    fputs(html_head, f);
    fputs("<h1>frictionlab reproduction report</h1>\n<p class=\"meta\">frictionlab ", f);
    html_text(f, r->version ? r->version : "(unknown version)");
    fputs(", commit <code>", f);
    html_text(f, r->commit ? r->commit : "unknown");
    fputs("</code>; started ", f);
    html_text(f, r->started ? r->started : "(unknown)");
    fputs("; run time ", f);
    html_duration(f, r->seconds);
    fputs(".", f);
    if (r->command) {
        fputs(" Command: <code>", f);
        html_text(f, r->command);
        fputs("</code>.", f);
    }
    fprintf(f, "</p>\n<p><b>%ld passed, %ld failed</b>, %ld notes, %ld not run.</p>\n", pass,
            fail, note, not_run);
    /* contents */
    fputs("<nav><ul>\n", f);
    for (size_t i = 0; i < r->ntasks; i++) {
        const fl_result_task *t = r->tasks[i];
        fputs("<li><a href=\"#task-", f);
        html_url(f, t->name);
        fputs("\">", f);
        html_text(f, t->name);
        fputs("</a> ", f);
        html_text(f, t->paper);
        fputs("</li>\n", f);
    }
    fputs("</ul></nav>\n", f);
    /* per paper: the declared papers in order, then any other paper id met
     * in the tasks, then the tasks without one */
    for (size_t p = 0; p < r->npapers; p++)
        html_paper(f, r, r->papers[p].id, r->papers[p].reference, base_dir, done);
    for (size_t i = 0; i < r->ntasks; i++) {
        char tid[64];
        if (done[i] || paper_id(r->tasks[i]->paper, tid, sizeof tid) == 0) continue;
        html_paper(f, r, tid, NULL, base_dir, done);
    }
    for (size_t i = 0; i < r->ntasks; i++)
        if (!done[i]) {
            html_paper(f, r, "", NULL, base_dir, done);
            break;
        }
    fputs("</body>\n</html>\n", f);
    free(done);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: write error", path);
    return FL_OK;
}

/* ---- baseline comparison --------------------------------------------------- */

fl_result_compare_options fl_result_compare_options_default(void)
{
    fl_result_compare_options o;
    o.rtol_untoleranced = 1e-9;
    return o;
}

/* Occurrence `occ` (0-based) of the check named `name` in t, or NULL; *count
 * (may be NULL) receives how many checks of t have that name. */
static const fl_result_check *check_find(const fl_result_task *t, const char *name, size_t occ,
                                         size_t *count)
{
    const fl_result_check *hit = NULL;
    size_t n = 0;
    for (size_t k = 0; k < t->nchecks; k++)
        if (strcmp(t->checks[k].name, name) == 0) {
            if (n == occ) hit = &t->checks[k];
            n++;
        }
    if (count) *count = n;
    return hit;
}

/* How many checks before index k of t have the same name as check k. */
static size_t occurrence(const fl_result_task *t, size_t k)
{
    size_t n = 0;
    for (size_t j = 0; j < k; j++)
        if (strcmp(t->checks[j].name, t->checks[k].name) == 0) n++;
    return n;
}

/* A check named more than once in a task (one per parameter value, say) is
 * matched by its rank among its namesakes and reported as "name#rank". */
static fl_status drift_add(fl_result_comparison *c, fl_result_drift_kind kind,
                           const fl_result_task *t, const fl_result_check *old,
                           const fl_result_check *cur, double tol, size_t occ, size_t count)
{
    FL_TRY(grow((void **)&c->items, &c->cap, c->nitems, sizeof *c->items));
    fl_result_drift d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    const char *name = old ? old->name : cur->name;
    size_t len = strlen(name) + 24;
    d.task = dup_or_null(t->name);
    d.check = malloc(len);
    if (!d.task || !d.check) {
        free(d.task);
        free(d.check);
        return FL_ENOMEM;
    }
    if (count > 1) snprintf(d.check, len, "%s#%zu", name, occ + 1);
    else snprintf(d.check, len, "%s", name);
    d.old_status = old ? old->status : FL_RESULT_NOT_RUN;
    d.new_status = cur ? cur->status : FL_RESULT_NOT_RUN;
    d.has_old = old && old->has_value;
    d.has_new = cur && cur->has_value;
    d.old_value = d.has_old ? old->value : 0.0;
    d.new_value = d.has_new ? cur->value : 0.0;
    d.tolerance = tol;
    c->items[c->nitems++] = d;
    if (kind != FL_DRIFT_NEW) c->ndrift++;
    return FL_OK;
}

/* Whether two values agree within tol (non-finite: identical class). */
static int same_value(double a, double b, double tol)
{
    if (!isfinite(a) || !isfinite(b)) {
        if (isnan(a) && isnan(b)) return 1;
        return a == b;
    }
    return fabs(a - b) <= tol;
}

static fl_status compare_task(fl_result_comparison *c, const fl_result_task *bt,
                              const fl_result_task *ct, const fl_result_compare_options *o)
{
    for (size_t k = 0; k < bt->nchecks; k++) {
        const fl_result_check *old = &bt->checks[k];
        size_t occ = occurrence(bt, k), nb = 0, nc = 0;
        check_find(bt, old->name, 0, &nb);
        const fl_result_check *cur = check_find(ct, old->name, occ, &nc);
        size_t count = nb > nc ? nb : nc;
        if (!cur) {
            if (old->status != FL_RESULT_NOT_RUN)
                FL_TRY(drift_add(c, FL_DRIFT_STATUS, ct, old, NULL, 0.0, occ, count));
            continue;
        }
        c->ncompared++;
        if (old->status != cur->status) {
            FL_TRY(drift_add(c, FL_DRIFT_STATUS, ct, old, cur, 0.0, occ, count));
            continue;
        }
        if (!old->has_value && !cur->has_value) continue;
        double tol = old->has_tolerance   ? old->tolerance
                     : cur->has_tolerance ? cur->tolerance
                                          : -1.0;
        if (old->has_value && cur->has_value) {
            double t = tol >= 0.0 ? tol
                                  : o->rtol_untoleranced * fmax(fabs(old->value), fabs(cur->value));
            if (!same_value(old->value, cur->value, t))
                FL_TRY(drift_add(c, FL_DRIFT_VALUE, ct, old, cur, t, occ, count));
        } else {
            FL_TRY(drift_add(c, FL_DRIFT_VALUE, ct, old, cur, tol, occ, count));
        }
    }
    for (size_t k = 0; k < ct->nchecks; k++) {
        size_t occ = occurrence(ct, k), nb = 0, nc = 0;
        check_find(ct, ct->checks[k].name, 0, &nc);
        if (!check_find(bt, ct->checks[k].name, occ, &nb))
            FL_TRY(drift_add(c, FL_DRIFT_NEW, ct, NULL, &ct->checks[k], 0.0, occ,
                             nb > nc ? nb : nc));
    }
    return FL_OK;
}

fl_status fl_results_compare(const fl_results *baseline, const fl_results *current,
                             const fl_result_compare_options *opts,
                             fl_result_comparison **out, fl_error *err)
{
    *out = NULL;
    fl_result_compare_options o = opts ? *opts : fl_result_compare_options_default();
    if (!(o.rtol_untoleranced >= 0.0))
        return FL_FAIL(err, FL_EINVAL, "rtol_untoleranced must be >= 0");
    fl_result_comparison *c = calloc(1, sizeof *c);
    if (!c) return FL_FAIL(err, FL_ENOMEM, "out of memory comparing results");
    for (size_t i = 0; i < current->ntasks; i++) {
        const fl_result_task *ct = current->tasks[i];
        const fl_result_task *bt = fl_results_task_find(baseline, ct->name);
        fl_status s = FL_OK;
        if (bt) s = compare_task(c, bt, ct, &o);
        for (size_t k = 0; !bt && s == FL_OK && k < ct->nchecks; k++)
            s = drift_add(c, FL_DRIFT_NEW, ct, NULL, &ct->checks[k], 0.0, 0, 1);
        if (s != FL_OK) {
            fl_result_comparison_free(c);
            return FL_FAIL(err, FL_ENOMEM, "out of memory comparing results");
        }
    }
    *out = c;
    return FL_OK;
}

void fl_result_comparison_free(fl_result_comparison *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nitems; i++) {
        free(c->items[i].task);
        free(c->items[i].check);
    }
    free(c->items);
    free(c);
}
