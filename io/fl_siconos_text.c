/* fl_siconos_text.c — Siconos numerics .dat frictional contact problems
 * (see fl_siconos_text.h). */
#include "fl_siconos_text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    FILE *f;
    const char *path;
    int line;
    fl_error *err;
} lexer;

static fl_status lx_fail(lexer *lx, fl_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static fl_status lx_fail(lexer *lx, fl_status s, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fl_error_set(lx->err, s, lx->path, lx->line, 0, "%s", msg);
}

/* Next whitespace-separated token into buf; 0 at end of file. */
static int lx_token(lexer *lx, char *buf, size_t len)
{
    int c;
    while ((c = fgetc(lx->f)) != EOF && isspace(c))
        if (c == '\n') lx->line++;
    if (c == EOF) return 0;
    size_t n = 0;
    do {
        if (n + 1 < len) buf[n++] = (char)c;
    } while ((c = fgetc(lx->f)) != EOF && !isspace(c));
    if (c == '\n') ungetc(c, lx->f);
    buf[n] = '\0';
    return 1;
}

static fl_status lx_double(lexer *lx, const char *field, double *v)
{
    char tok[128];
    if (!lx_token(lx, tok, sizeof tok))
        return lx_fail(lx, FL_EPARSE, "field %s: missing value (file ends early)", field);
    char *end;
    errno = 0;
    *v = strtod(tok, &end);
    if (end == tok || *end != '\0')
        return lx_fail(lx, FL_EPARSE, "field %s: '%s' is not a number", field, tok);
    if (!isfinite(*v)) return lx_fail(lx, FL_ENONFINITE, "field %s: NaN or Inf value", field);
    return FL_OK;
}

static fl_status lx_int(lexer *lx, const char *field, long *v)
{
    char tok[128];
    if (!lx_token(lx, tok, sizeof tok))
        return lx_fail(lx, FL_EPARSE, "field %s: missing value (file ends early)", field);
    char *end;
    errno = 0;
    *v = strtol(tok, &end, 10);
    if (end == tok || *end != '\0' || errno)
        return lx_fail(lx, FL_EPARSE, "field %s: '%s' is not an integer", field, tok);
    return FL_OK;
}

fl_status fl_siconos_text_read(const char *path, int dense, fl_sparse_ctx *ctx,
                               fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "siconos read: NULL output");
    *out = NULL;
    if (!path) return FL_FAIL(err, FL_EINVAL, "siconos read: NULL path");
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "siconos read: ask for a dense or a sparse W");
    lexer lx = {fopen(path, "r"), path, 1, err};
    if (!lx.f) return fl_error_set(err, FL_EIO, path, 0, 0, "cannot open the file");
    fl_status s;
    long dim, nc, storage, s0, s1;
    fl_local_problem *p = NULL;
    gsl_matrix *W = NULL;
    if ((s = lx_int(&lx, "dimension", &dim)) != FL_OK) goto out;
    if (dim != 2 && dim != 3) {
        s = lx_fail(&lx, FL_EPARSE, "field dimension: %ld is not 2 or 3", dim);
        goto out;
    }
    if ((s = lx_int(&lx, "number of contacts", &nc)) != FL_OK) goto out;
    if (nc <= 0 || nc > 10000000) {
        s = lx_fail(&lx, FL_EPARSE, "field number of contacts: %ld is not positive", nc);
        goto out;
    }
    size_t m = (size_t)dim * (size_t)nc;
    if ((s = lx_int(&lx, "W storage type", &storage)) != FL_OK) goto out;
    if (storage != 0) {
        s = lx_fail(&lx, storage == 1 || storage == 2 ? FL_EUNSUPPORTED : FL_EPARSE,
                    "field W storage type: %ld (only 0, dense, is supported)", storage);
        goto out;
    }
    for (int rep = 0; rep < 2; rep++) {
        if ((s = lx_int(&lx, "W size0", &s0)) != FL_OK || (s = lx_int(&lx, "W size1", &s1)) != FL_OK)
            goto out;
        if (s0 != (long)m || s1 != (long)m) {
            s = lx_fail(&lx, FL_EDIM, "field W sizes: %ld x %ld, expected %zu x %zu (dim * nc)",
                        s0, s1, m, m);
            goto out;
        }
    }
    if ((s = fl_local_problem_alloc((size_t)nc, (int)dim, 1, &p, err)) != FL_OK) goto out;
    W = p->W;
    char field[64];
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++) {
            snprintf(field, sizeof field, "W(%zu,%zu)", i, j);
            if ((s = lx_double(&lx, field, gsl_matrix_ptr(W, i, j))) != FL_OK) goto out;
        }
    for (size_t i = 0; i < m; i++) {
        snprintf(field, sizeof field, "q[%zu]", i);
        if ((s = lx_double(&lx, field, gsl_vector_ptr(p->q, i))) != FL_OK) goto out;
    }
    for (size_t a = 0; a < (size_t)nc; a++) {
        snprintf(field, sizeof field, "mu[%zu]", a);
        if ((s = lx_double(&lx, field, &p->mu[a])) != FL_OK) goto out;
        if (p->mu[a] < 0) {
            s = lx_fail(&lx, FL_EINVAL, "field mu[%zu]: %g is negative", a, p->mu[a]);
            goto out;
        }
    }
    char tok[64];
    if (lx_token(&lx, tok, sizeof tok)) {
        s = lx_fail(&lx, FL_EPARSE, "field end of file: unexpected trailing data '%s'", tok);
        goto out;
    }
    if ((s = fl_local_problem_check(p, err)) != FL_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        s = fl_error_set(err, s, path, 0, 0, "field W: %s", msg);
        goto out;
    }
    if (ctx) {
        p->ctx = ctx;
        if ((s = fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, err)) != FL_OK) goto out;
    }
    if (!dense) {
        gsl_matrix_free(p->W);
        p->W = NULL;
    }
out:
    fclose(lx.f);
    if (s != FL_OK) fl_local_problem_free(p);
    else *out = p;
    return s;
}

fl_status fl_siconos_text_write(const char *path, const fl_local_problem *p, fl_error *err)
{
    if (!path || !p) return FL_FAIL(err, FL_EINVAL, "siconos write: NULL argument");
    FL_TRY(fl_local_problem_check(p, err));
    gsl_matrix *W = p->W, *tmp = NULL;
    if (!W) {
        FL_TRY(fl_sparse_to_dense(p->ctx, p->Ws, &tmp, err));
        W = tmp;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        if (tmp) gsl_matrix_free(tmp);
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot create the file");
    }
    fprintf(f, "%d\n%zu\n0\n%zu\n%zu\n%zu\t%zu\n", p->dim, p->nc, p->m, p->m, p->m, p->m);
    for (size_t j = 0; j < p->m; j++) {
        for (size_t i = 0; i < p->m; i++) fprintf(f, " %.17g", gsl_matrix_get(W, i, j));
        fputc('\n', f);
    }
    for (size_t i = 0; i < p->m; i++) fprintf(f, " %.17g", gsl_vector_get(p->q, i));
    fputc('\n', f);
    for (size_t a = 0; a < p->nc; a++) fprintf(f, " %.17g", p->mu[a]);
    fputc('\n', f);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (tmp) gsl_matrix_free(tmp);
    if (bad) return fl_error_set(err, FL_EIO, path, 0, 0, "write failed");
    return FL_OK;
}
