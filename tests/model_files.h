/* model_files.h — the data files of models/ in tests (header-only, for
 * tests/test_models_004.c, tests/test_models_refusals.c, tests/test_checks_004.c):
 * the path of a shipped file, a copy of it with one member changed, and the check that a
 * loader refuses that copy with a message naming the file and the member
 * (models/fl_model_file.h: "each error names the file, line:column and
 * field"). */
#ifndef FL_TEST_MODEL_FILES_H
#define FL_TEST_MODEL_FILES_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fl_data.h"
#include "fl_status.h"

static inline void data_path(const char *rel, char *buf, size_t len)
{
    fl_error err;
    cr_assert_eq(fl_data_path(NULL, rel, buf, len, &err), FL_OK, "%s", err.message);
}

/* Write root (then released) to a new temporary file; its path in out. */
static inline void dump_tmp(json_t *root, char *out, size_t len)
{
    snprintf(out, len, "/tmp/fl_model_files_XXXXXX");
    int fd = mkstemp(out);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(json_dump_file(root, out, JSON_INDENT(2)), 0);
    json_decref(root);
}

/* Copy data file rel to a temporary file with the member at dotted path
 * `at` ("params.chosen.L_mm", "cases.1.mu0": a number indexes an array)
 * set to v (stolen), or removed when v is NULL.  Its path goes to out. */
static inline void write_broken(const char *rel, const char *at, json_t *v, char *out, size_t len)
{
    char path[4096], keys[256];
    data_path(rel, path, sizeof path);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    cr_assert_not_null(root, "%s", je.text);
    snprintf(keys, sizeof keys, "%s", at);
    json_t *o = root;
    char *save = NULL, *k = strtok_r(keys, ".", &save);
    for (char *next = strtok_r(NULL, ".", &save); next; k = next, next = strtok_r(NULL, ".", &save)) {
        o = json_is_array(o) ? json_array_get(o, strtoul(k, NULL, 10)) : json_object_get(o, k);
        cr_assert_not_null(o, "%s: no member %s on the way to %s", rel, k, at);
    }
    if (json_is_array(o)) {
        size_t i = strtoul(k, NULL, 10);
        if (v) cr_assert_eq(json_array_set_new(o, i, v), 0, "%s", at);
        else cr_assert_eq(json_array_remove(o, i), 0, "%s", at);
    } else if (v) {
        json_object_set_new(o, k, v);
    } else {
        cr_assert_eq(json_object_del(o, k), 0, "%s: no member %s", rel, at);
    }
    dump_tmp(root, out, len);
}

/* A loader under test: loads path into a model of its own, releases it. */
typedef fl_status (*model_loader)(const char *path, fl_error *err);

/* A loader for model type T read by fn (no release needed). */
#define MODEL_LOADER(name, T, fn)                                                                                      \
    static fl_status name(const char *p, fl_error *e)                                                                  \
    {                                                                                                                  \
        static T m;                                                                                                    \
        return fn(p, &m, e);                                                                                           \
    }

/* The same, for a model that owns memory (released by rel). */
#define MODEL_LOADER_RELEASE(name, T, fn, rel)                                                                         \
    static fl_status name(const char *p, fl_error *e)                                                                  \
    {                                                                                                                  \
        static T m;                                                                                                    \
        fl_status st = fn(p, &m, e);                                                                                   \
        rel(&m);                                                                                                       \
        return st;                                                                                                     \
    }

/* The copy of rel with `at` set to value (NULL: removed) is refused (an
 * error status) with a message naming the copy and '<field>'. */
static inline void refuse_one(const char *rel, model_loader load, const char *at, json_t *value, const char *field)
{
    char p[64];
    fl_error e;
    write_broken(rel, at, value, p, sizeof p);
    memset(&e, 0, sizeof e);
    fl_status st = load(p, &e);
    cr_assert(st < 0, "%s: %s changed, accepted (status %d)", rel, at, st);
    cr_assert_not_null(strstr(e.message, p), "%s: %s: message does not name the file: %s", rel, at, e.message);
    char quoted[160];
    snprintf(quoted, sizeof quoted, "'%s'", field);
    cr_assert_not_null(strstr(e.message, quoted), "%s: %s: message does not name field %s: %s", rel, at, quoted,
                       e.message);
    unlink(p);
}

#endif
