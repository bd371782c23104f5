/* check_capture.h — run a check of checks/ in a test and read back what it
 * reported (header-only, for the tests of checks/p4_checks.c,
 * stewart_checks.c and sets_checks.c).
 *
 * capture_ctx() gives a context whose callbacks record every result by
 * name and kind; capture_kind() finds one.  capture_data_dir() copies
 * data/001 to a fresh directory and replaces one member of one file, so
 * that a check can be fed a corrupted input and seen to FAIL. */
#ifndef FL_TEST_CHECK_CAPTURE_H
#define FL_TEST_CHECK_CAPTURE_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/fl_check.h"
#include "fl_data.h"

#define CAPTURE_MAX 128

typedef struct capture {
    int n;
    char name[CAPTURE_MAX][96];
    fl_check_kind kind[CAPTURE_MAX];
    double value[CAPTURE_MAX];
    char message[1024];          /* the last diagnostic */
    char dir[256];               /* the temporary directory (data and out) */
} capture;

static inline void capture_line(void *data, fl_check_kind kind, const char *name, const char *detail)
{
    (void)detail;
    capture *c = data;
    if (c->n >= CAPTURE_MAX) return;
    snprintf(c->name[c->n], sizeof c->name[0], "%s", name);
    c->kind[c->n] = kind;
    c->value[c->n] = NAN;
    c->n++;
}

static inline void capture_value(void *data, const fl_check_value_info *v)
{
    capture *c = data;
    if (c->n >= CAPTURE_MAX) return;
    snprintf(c->name[c->n], sizeof c->name[0], "%s", v->name);
    c->kind[c->n] = v->kind;
    c->value[c->n] = v->value;
    c->n++;
}

static inline void capture_message(void *data, const char *text)
{
    capture *c = data;
    snprintf(c->message, sizeof c->message, "%s", text);
}

/* A context reporting into c, out_dir under a fresh temporary directory. */
static inline fl_check_ctx capture_ctx(capture *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->dir, sizeof c->dir, "/tmp/fl_check_capture_XXXXXX");
    cr_assert_not_null(mkdtemp(c->dir));
    fl_check_ctx ctx = fl_check_ctx_default();
    static char out[300];
    snprintf(out, sizeof out, "%s/out", c->dir);
    ctx.out_dir = out;
    ctx.quick = 1;
    ctx.io.data = c;
    ctx.io.line = capture_line;
    ctx.io.value = capture_value;
    ctx.io.message = capture_message;
    return ctx;
}

/* The kind of the check `name` (-1 when it was not reported). */
static inline int capture_kind(const capture *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0) return (int)c->kind[i];
    return -1;
}

/* Copy data/001/<file> of the source tree to <c->dir>/data/001/<file>,
 * replacing the value of the first member `key` (a JSON member "key": v)
 * after the text `after` (NULL: from the start) by `value` (key NULL: an
 * unchanged copy).  Returns the data directory to put in ctx.data_dir. */
static inline const char *capture_data_dir(capture *c, const char *file, const char *after, const char *key,
                                    const char *value)
{
    static char dir[300];
    char src[4096], rel[128], dst[400];
    fl_error e;
    snprintf(rel, sizeof rel, "001/%s", file);
    cr_assert_eq(fl_data_path(NULL, rel, src, sizeof src, &e), FL_OK, "%s", e.message);
    snprintf(dir, sizeof dir, "%s/data", c->dir);
    snprintf(dst, sizeof dst, "%s/001", dir);
    cr_assert_eq(fl_check_mkdir_p(dst), 0);
    FILE *in = fopen(src, "r");
    cr_assert_not_null(in);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = 0;
    snprintf(dst, sizeof dst, "%s/001/%s", dir, file);
    FILE *o = fopen(dst, "w");
    cr_assert_not_null(o);
    if (!key) {
        fputs(text, o);
    } else {
        char pat[96];
        snprintf(pat, sizeof pat, "\"%s\": ", key);
        char *from = after ? strstr(text, after) : text;
        cr_assert_not_null(from, "%s has no %s", file, after);
        char *p = strstr(from, pat);
        cr_assert_not_null(p, "%s has no member %s", file, key);
        char *v = p + strlen(pat), *end = v + strcspn(v, ",\n}");
        fwrite(text, 1, (size_t)(v - text), o);
        fputs(value, o);
        fputs(end, o);
    }
    fclose(o);
    return dir;
}

/* Remove the temporary directory. */
static inline void capture_cleanup(capture *c)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->dir);
    cr_assert_eq(system(cmd), 0);
}

#endif
