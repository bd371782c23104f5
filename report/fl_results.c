/* fl_results.c — the results model of a reproduction run (fl_results.h):
 * tasks, checks, figures and files, counts, the SHA-256 of a parameter file
 * (OpenSSL's libcrypto, EVP).  Its writers, reader and baseline comparison
 * are the other report/fl_results_*.c files. */
#include "fl_results.h"
#include "fl_results_internal.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- small helpers ---------------------------------------------------- */

char *fl_results_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

/* Replace *dst by a copy of src; FL_ENOMEM leaves *dst unchanged. */
fl_status fl_results_set_str(char **dst, const char *src)
{
    char *d = NULL;
    if (src && !(d = fl_results_strdup(src))) return FL_ENOMEM;
    free(*dst);
    *dst = d;
    return FL_OK;
}

/* Grow an array of `size`-byte items to hold n + 1. */
fl_status fl_results_grow(void **items, size_t *cap, size_t n, size_t size)
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
    r->quick = -1;
    if (fl_results_set_str(&r->version, version) != FL_OK || fl_results_set_str(&r->commit, commit) != FL_OK) {
        fl_results_free(r);
        return NULL;
    }
    return r;
}

void fl_result_check_clear(fl_result_check *c)
{
    free(c->name);
    free(c->reference);
    free(c->detail);
    free(c->discrepancy);
    free(c->noise_reason);
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
    for (size_t i = 0; i < t->nchecks; i++) fl_result_check_clear(&t->checks[i]);
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
    return fl_results_set_str(&r->started, iso8601);
}

fl_status fl_results_set_command(fl_results *r, const char *command)
{
    return fl_results_set_str(&r->command, command);
}

fl_status fl_results_paper_add(fl_results *r, const char *id, const char *reference)
{
    if (!id) return FL_EINVAL;
    for (size_t i = 0; i < r->npapers; i++)
        if (strcmp(r->papers[i].id, id) == 0) return fl_results_set_str(&r->papers[i].reference, reference);
    FL_TRY(fl_results_grow((void **)&r->papers, &r->cap_papers, r->npapers, sizeof *r->papers));
    fl_result_paper p = {fl_results_strdup(id), fl_results_strdup(reference)};
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
    FL_TRY(fl_results_grow((void **)&r->tasks, &r->cap_tasks, r->ntasks, sizeof *r->tasks));
    fl_result_task *t = calloc(1, sizeof *t);
    if (!t) return FL_ENOMEM;
    if (fl_results_set_str(&t->name, name) != FL_OK || fl_results_set_str(&t->summary, summary) != FL_OK ||
        fl_results_set_str(&t->paper, paper) != FL_OK) {
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
    return fl_results_set_str(&t->paper, paper);
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
    FL_TRY(fl_results_set_str(&t->params_file, shown ? shown : path));
    return fl_results_set_str(&t->params_sha256, hex);
}

static fl_status file_list_add(fl_result_figure **items, size_t *n, size_t *cap,
                               const char *file, const char *caption)
{
    if (!file) return FL_EINVAL;
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*items)[i].file, file) == 0)
            return caption ? fl_results_set_str(&(*items)[i].caption, caption) : FL_OK;
    FL_TRY(fl_results_grow((void **)items, cap, *n, sizeof **items));
    fl_result_figure f = {fl_results_strdup(file), fl_results_strdup(caption)};
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
    /* a noise tolerance comes with its reason, and is a relative tolerance */
    if (c->has_noise_rtol && (!(c->noise_rtol >= 0.0 && c->noise_rtol < 1.0) ||
                              !c->noise_reason || !c->noise_reason[0]))
        return FL_EINVAL;
    FL_TRY(fl_results_grow((void **)&t->checks, &t->cap_checks, t->nchecks, sizeof *t->checks));
    fl_result_check d = *c;
    d.name = fl_results_strdup(c->name);
    d.reference = fl_results_strdup(c->reference);
    d.detail = fl_results_strdup(c->detail);
    d.discrepancy = fl_results_strdup(c->discrepancy);
    d.noise_reason = c->has_noise_rtol ? fl_results_strdup(c->noise_reason) : NULL;
    if (!d.has_noise_rtol) d.noise_rtol = 0.0;
    if (!d.name || (c->reference && !d.reference) || (c->detail && !d.detail) ||
        (c->discrepancy && !d.discrepancy) || (c->has_noise_rtol && !d.noise_reason)) {
        fl_result_check_clear(&d);
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
