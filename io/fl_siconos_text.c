/* fl_siconos_text.c — Siconos numerics .dat frictional contact problems,
 * local and global, dense / sparse-block / CSparse storages (see
 * fl_siconos_text.h for the layout and the checks). */
#include "fl_siconos_text.h"
#include "fl_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* lexer: whitespace-separated tokens of any length, line numbers,      */
/* the bytes left in the file and a memory budget                       */
/* ------------------------------------------------------------------ */

typedef struct lexer {
    FILE *f;
    const char *path;
    int line;         /* current line */
    int tok_line;     /* line of the last token */
    long long size;   /* file size in bytes */
    char *tok;        /* last token (NUL-terminated) */
    size_t cap;
    size_t max_bytes, used;
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
    return fl_error_set(lx->err, s, lx->path, lx->tok_line, 0, "%s", msg);
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Open a regular file (a directory, a device or a pipe is refused). */
static fl_status lx_open(lexer *lx, const char *path, const fl_read_options *opt, fl_error *err)
{
    memset(lx, 0, sizeof *lx);
    lx->path = path;
    lx->line = lx->tok_line = 1;
    lx->err = err;
    lx->max_bytes = opt ? opt->max_bytes : FL_READ_MAX_BYTES_DEFAULT;
    if (!path) return FL_FAIL(err, FL_EINVAL, "siconos read: NULL path");
    fl_status s = fl_file_open(path, &lx->f, &lx->size, err);
    if (s != FL_OK) return s;
    return FL_OK;
}

static void lx_close(lexer *lx)
{
    if (lx->f) fclose(lx->f);
    free(lx->tok);
    lx->f = NULL;
    lx->tok = NULL;
}

static long long lx_left(lexer *lx)
{
    long pos = ftell(lx->f);
    return pos < 0 ? 0 : lx->size - (long long)pos;
}

/* Count values of `field` still to come: each takes at least 2 bytes
 * (a character and a separator), the last one 1. */
static fl_status lx_need_values(lexer *lx, const char *field, double count)
{
    double room = (double)(lx_left(lx) + 1) / 2.0;
    if (count > room)
        return lx_fail(lx, FL_EPARSE, "field %s: the file declares %.0f more values but only "
                       "%lld bytes are left (file ends early)", field, count, lx_left(lx));
    return FL_OK;
}

/* Charge `bytes` (a double, so products cannot overflow) to the budget. */
static fl_status lx_need_bytes(lexer *lx, const char *field, double bytes)
{
    if ((double)lx->used + bytes > (double)lx->max_bytes)
        return lx_fail(lx, FL_ENOMEM, "field %s: the problem would need %.0f bytes (%.3g GiB), "
                       "above the limit of %zu bytes (fl_read_options.max_bytes, solve "
                       "--max-memory)", field, (double)lx->used + bytes,
                       ((double)lx->used + bytes) / 1073741824.0, lx->max_bytes);
    lx->used += (size_t)bytes;
    return FL_OK;
}

/* Next token into lx->tok: 1, 0 at end of file, or an error status. */
static int lx_token(lexer *lx)
{
    int c;
    while ((c = fgetc(lx->f)) != EOF && is_space(c))
        if (c == '\n') lx->line++;
    if (c == EOF) return 0;
    lx->tok_line = lx->line;
    size_t n = 0;
    do {
        if (c == '\0')
            return lx_fail(lx, FL_EPARSE, "a NUL byte inside a token (binary data in a text "
                           "file)");
        if (n + 1 >= lx->cap) {
            size_t nc = lx->cap ? 2 * lx->cap : 64;
            char *t = realloc(lx->tok, nc);
            if (!t) return lx_fail(lx, FL_ENOMEM, "out of memory for a token");
            lx->tok = t;
            lx->cap = nc;
        }
        lx->tok[n++] = (char)c;
    } while ((c = fgetc(lx->f)) != EOF && !is_space(c));
    if (c == '\n') ungetc(c, lx->f);
    lx->tok[n] = '\0';
    return 1;
}

static fl_status lx_expect(lexer *lx, const char *field)
{
    int t = lx_token(lx);
    if (t < 0) return (fl_status)t;
    if (t == 0) {
        lx->tok_line = lx->line;
        return lx_fail(lx, FL_EPARSE, "field %s: missing value (file ends early)", field);
    }
    return FL_OK;
}

static fl_status lx_double(lexer *lx, const char *field, double *v)
{
    FL_TRY(lx_expect(lx, field));
    char *end;
    errno = 0;
    *v = strtod(lx->tok, &end);
    if (end == lx->tok || *end != '\0')
        return lx_fail(lx, FL_EPARSE, "field %s: '%.40s%s' is not a number", field, lx->tok,
                       strlen(lx->tok) > 40 ? "..." : "");
    if (!isfinite(*v)) return lx_fail(lx, FL_ENONFINITE, "field %s: NaN or Inf value", field);
    return FL_OK;
}

/* An integer in [lo, hi]. */
static fl_status lx_long(lexer *lx, const char *field, long lo, long hi, long *v)
{
    FL_TRY(lx_expect(lx, field));
    char *end;
    errno = 0;
    *v = strtol(lx->tok, &end, 10);
    if (end == lx->tok || *end != '\0')
        return lx_fail(lx, FL_EPARSE, "field %s: '%.40s%s' is not an integer", field, lx->tok,
                       strlen(lx->tok) > 40 ? "..." : "");
    if (errno || *v < lo || *v > hi)
        return lx_fail(lx, FL_EPARSE, "field %s: %.40s is out of range [%ld, %ld]", field,
                       lx->tok, lo, hi);
    return FL_OK;
}

/* A literal word, e.g. ":" or "col". */
static fl_status lx_word(lexer *lx, const char *field, const char *word)
{
    FL_TRY(lx_expect(lx, field));
    if (strcmp(lx->tok, word) != 0)
        return lx_fail(lx, FL_EPARSE, "field %s: expected '%s', found '%.40s'", field, word,
                       lx->tok);
    return FL_OK;
}

/* Skip the rest of the current line (Siconos's fgets after the origin). */
static fl_status lx_skip_line(lexer *lx)
{
    int c;
    while ((c = fgetc(lx->f)) != EOF && c != '\n')
        if (c == '\0') return lx_fail(lx, FL_EPARSE, "a NUL byte in a text line");
    if (c == '\n') lx->line++;
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* matrices as read: triplets                                           */
/* ------------------------------------------------------------------ */

typedef struct smat {
    size_t nrow, ncol;
    size_t nnz, cap;
    int *row, *col;
    double *val;
    int storage;
} smat;

static void smat_free(smat *a)
{
    free(a->row);
    free(a->col);
    free(a->val);
    memset(a, 0, sizeof *a);
}

static fl_status smat_push(lexer *lx, smat *a, const char *field, size_t i, size_t j, double v)
{
    if (a->nnz == a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 64;
        FL_TRY(lx_need_bytes(lx, field, (double)(nc - a->cap) * 16.0));
        int *r = realloc(a->row, nc * sizeof *r);
        if (r) a->row = r;
        int *c = realloc(a->col, nc * sizeof *c);
        if (c) a->col = c;
        double *x = realloc(a->val, nc * sizeof *x);
        if (x) a->val = x;
        if (!r || !c || !x) return lx_fail(lx, FL_ENOMEM, "field %s: out of memory", field);
        a->cap = nc;
    }
    a->row[a->nnz] = (int)i;
    a->col[a->nnz] = (int)j;
    a->val[a->nnz++] = v;
    return FL_OK;
}

/* Storage 0: size0*size1 values, column by column. */
static fl_status rd_dense(lexer *lx, const char *name, smat *a)
{
    char field[96];
    long s0, s1;
    snprintf(field, sizeof field, "%s dense size0", name);
    FL_TRY(lx_long(lx, field, 0, INT_MAX, &s0));
    snprintf(field, sizeof field, "%s dense size1", name);
    FL_TRY(lx_long(lx, field, 0, INT_MAX, &s1));
    if ((size_t)s0 != a->nrow || (size_t)s1 != a->ncol)
        return lx_fail(lx, FL_EDIM, "field %s dense sizes: %ld x %ld, the header says %zu x %zu",
                       name, s0, s1, a->nrow, a->ncol);
    double count = (double)a->nrow * (double)a->ncol;
    snprintf(field, sizeof field, "%s values", name);
    FL_TRY(lx_need_values(lx, field, count));
    for (size_t j = 0; j < a->ncol; j++)
        for (size_t i = 0; i < a->nrow; i++) {
            double v;
            snprintf(field, sizeof field, "%s(%zu,%zu)", name, i, j);
            FL_TRY(lx_double(lx, field, &v));
            if (v != 0.0) FL_TRY(smat_push(lx, a, field, i, j, v));
        }
    return FL_OK;
}

/* Cumulative block sizes: n values, increasing, last = total. */
static fl_status rd_block_sizes(lexer *lx, const char *field, size_t n, size_t total, long *cum)
{
    FL_TRY(lx_need_values(lx, field, (double)n));
    for (size_t k = 0; k < n; k++) {
        FL_TRY(lx_long(lx, field, 1, INT_MAX, &cum[k]));
        if (k > 0 && cum[k] <= cum[k - 1])
            return lx_fail(lx, FL_EPARSE, "field %s[%zu]: cumulative block sizes must increase "
                           "(%ld after %ld)", field, k, cum[k], cum[k - 1]);
    }
    if ((size_t)cum[n - 1] != total)
        return lx_fail(lx, FL_EDIM, "field %s: blocks add up to %ld, the matrix has %zu", field,
                       cum[n - 1], total);
    return FL_OK;
}

/* Storage 1: Siconos's sparse-block matrix (SBM_new_from_file). */
static fl_status rd_sbm(lexer *lx, const char *name, smat *a)
{
    char field[96];
    long nb, bn0, bn1, f1, f2;
    snprintf(field, sizeof field, "%s SBM nbblocks", name);
    FL_TRY(lx_long(lx, field, 0, INT_MAX, &nb));
    if (nb == 0) return FL_OK;
    if (a->nrow == 0 || a->ncol == 0)
        return lx_fail(lx, FL_EDIM, "field %s: %ld blocks in a %zu x %zu matrix", field, nb,
                       a->nrow, a->ncol);
    snprintf(field, sizeof field, "%s SBM blocknumber0", name);
    FL_TRY(lx_long(lx, field, 1, (long)a->nrow, &bn0));
    snprintf(field, sizeof field, "%s SBM blocknumber1", name);
    FL_TRY(lx_long(lx, field, 1, (long)a->ncol, &bn1));
    snprintf(field, sizeof field, "%s SBM block counts", name);
    FL_TRY(lx_need_values(lx, field, (double)bn0 + (double)bn1 + 2.0 + (double)bn0 + 1.0 +
                                         2.0 * (double)nb));
    FL_TRY(lx_need_bytes(lx, field, 8.0 * ((double)bn0 + (double)bn1 + (double)bn0 + 1.0 +
                                           (double)nb)));
    long *c0 = malloc((size_t)bn0 * sizeof *c0), *c1 = malloc((size_t)bn1 * sizeof *c1);
    long *i1 = malloc(((size_t)bn0 + 1) * sizeof *i1), *i2 = malloc((size_t)nb * sizeof *i2);
    fl_status s = FL_OK;
    if (!c0 || !c1 || !i1 || !i2) {
        s = lx_fail(lx, FL_ENOMEM, "field %s: out of memory", field);
        goto out;
    }
    snprintf(field, sizeof field, "%s SBM blocksize0", name);
    if ((s = rd_block_sizes(lx, field, (size_t)bn0, a->nrow, c0)) != FL_OK) goto out;
    snprintf(field, sizeof field, "%s SBM blocksize1", name);
    if ((s = rd_block_sizes(lx, field, (size_t)bn1, a->ncol, c1)) != FL_OK) goto out;
    snprintf(field, sizeof field, "%s SBM filled1", name);
    if ((s = lx_long(lx, field, bn0 + 1, bn0 + 1, &f1)) != FL_OK) goto out;
    snprintf(field, sizeof field, "%s SBM filled2", name);
    if ((s = lx_long(lx, field, nb, nb, &f2)) != FL_OK) goto out;
    snprintf(field, sizeof field, "%s SBM index1_data", name);
    for (long k = 0; k <= bn0; k++) {
        if ((s = lx_long(lx, field, 0, nb, &i1[k])) != FL_OK) goto out;
        if ((k == 0 && i1[k] != 0) || (k > 0 && i1[k] < i1[k - 1]) || (k == bn0 && i1[k] != nb)) {
            s = lx_fail(lx, FL_EPARSE, "field %s[%ld]: block-row pointers must go from 0 to %ld "
                        "without decreasing", field, k, nb);
            goto out;
        }
    }
    snprintf(field, sizeof field, "%s SBM index2_data", name);
    for (long k = 0; k < nb; k++)
        if ((s = lx_long(lx, field, 0, bn1 - 1, &i2[k])) != FL_OK) goto out;
    for (long br = 0; br < bn0; br++) {
        size_t r0 = br ? (size_t)c0[br - 1] : 0, nr = (size_t)c0[br] - r0;
        for (long b = i1[br]; b < i1[br + 1]; b++) {
            long bc = i2[b], num;
            size_t q0 = bc ? (size_t)c1[bc - 1] : 0, nq = (size_t)c1[bc] - q0;
            snprintf(field, sizeof field, "%s SBM block number", name);
            if ((s = lx_long(lx, field, b, b, &num)) != FL_OK) goto out;
            snprintf(field, sizeof field, "%s SBM block %ld", name, b);
            if ((s = lx_need_values(lx, field, (double)nr * (double)nq)) != FL_OK) goto out;
            for (size_t jj = 0; jj < nq; jj++)
                for (size_t ii = 0; ii < nr; ii++) {
                    double v;
                    snprintf(field, sizeof field, "%s SBM block %ld (%zu,%zu)", name, b, ii, jj);
                    if ((s = lx_double(lx, field, &v)) != FL_OK) goto out;
                    if ((s = smat_push(lx, a, field, r0 + ii, q0 + jj, v)) != FL_OK) goto out;
                }
        }
    }
out:
    free(c0);
    free(c1);
    free(i1);
    free(i2);
    return s;
}

/* "M-by-N," -> M, N. */
static int parse_by(const char *t, long *m, long *n)
{
    char *end;
    errno = 0;
    *m = strtol(t, &end, 10);
    if (end == t || strncmp(end, "-by-", 4) != 0) return -1;
    const char *u = end + 4;
    *n = strtol(u, &end, 10);
    if (end == u || errno || (*end != ',' && *end != '\0')) return -1;
    return 0;
}

/* Storage 2: CSparse printout (NSM_new_from_file / CSparseMatrix_new_from_file). */
static fl_status rd_csparse(lexer *lx, const char *name, smat *a)
{
    char field[96];
    long origin, m, n, nzmax, nnz;
    snprintf(field, sizeof field, "%s CSparse origin", name);
    FL_TRY(lx_long(lx, field, 1, 3, &origin));
    FL_TRY(lx_skip_line(lx));   /* rest of the origin line */
    FL_TRY(lx_skip_line(lx));   /* banner "CSparse Version ..." */
    snprintf(field, sizeof field, "%s CSparse size line", name);
    FL_TRY(lx_expect(lx, field));
    int triplet = strcmp(lx->tok, "triplet:") == 0;
    if (triplet) FL_TRY(lx_expect(lx, field));
    if (parse_by(lx->tok, &m, &n) != 0)
        return lx_fail(lx, FL_EPARSE, "field %s: expected 'M-by-N,', found '%.40s'", field,
                       lx->tok);
    if ((size_t)m != a->nrow || (size_t)n != a->ncol)
        return lx_fail(lx, FL_EDIM, "field %s: %ld-by-%ld, the header says %zu x %zu", field, m,
                       n, a->nrow, a->ncol);
    if (triplet != (origin == 1))
        return lx_fail(lx, FL_EPARSE, "field %s: origin %ld but a %s printout", field, origin,
                       triplet ? "triplet" : "compressed");
    FL_TRY(lx_word(lx, field, "nzmax:"));
    FL_TRY(lx_long(lx, field, 0, INT_MAX, &nzmax));
    FL_TRY(lx_word(lx, field, "nnz:"));
    FL_TRY(lx_expect(lx, field));
    {
        char *end;
        errno = 0;
        nnz = strtol(lx->tok, &end, 10);
        if (end == lx->tok || (*end != '\0' && strcmp(end, ",") != 0) || errno || nnz < 0 ||
            nnz > INT_MAX)
            return lx_fail(lx, FL_EPARSE, "field %s nnz: '%.40s' is not a count", field, lx->tok);
    }
    if (!triplet) FL_TRY(lx_skip_line(lx));   /* ", 1-norm: X" */
    snprintf(field, sizeof field, "%s CSparse entries", name);
    if (triplet) {
        FL_TRY(lx_need_values(lx, field, 4.0 * (double)nnz));
        for (long k = 0; k < nnz; k++) {
            long i, j;
            double v;
            snprintf(field, sizeof field, "%s triplet %ld row", name, k);
            FL_TRY(lx_long(lx, field, 0, m - 1, &i));
            snprintf(field, sizeof field, "%s triplet %ld column", name, k);
            FL_TRY(lx_long(lx, field, 0, n - 1, &j));
            FL_TRY(lx_word(lx, field, ":"));
            snprintf(field, sizeof field, "%s(%ld,%ld)", name, i, j);
            FL_TRY(lx_double(lx, field, &v));
            FL_TRY(smat_push(lx, a, field, (size_t)i, (size_t)j, v));
        }
        return FL_OK;
    }
    if (origin == 3 && m != n)
        return lx_fail(lx, FL_EUNSUPPORTED, "field %s: a compressed-row printout of a %ld x %ld "
                       "matrix is ambiguous (Siconos reads N blocks); only square ones are read",
                       field, m, n);
    FL_TRY(lx_need_values(lx, field, 7.0 * (double)n + 3.0 * (double)nnz));
    long at = 0;
    for (long j = 0; j < n; j++) {
        long jj, p0, p1;
        snprintf(field, sizeof field, "%s col %ld", name, j);
        FL_TRY(lx_word(lx, field, "col"));
        FL_TRY(lx_long(lx, field, j, j, &jj));
        FL_TRY(lx_word(lx, field, ":"));
        FL_TRY(lx_word(lx, field, "locations"));
        FL_TRY(lx_long(lx, field, at, at, &p0));
        FL_TRY(lx_word(lx, field, "to"));
        FL_TRY(lx_long(lx, field, p0 - 1, nnz - 1, &p1));
        for (long k = p0; k <= p1; k++) {
            long i;
            double v;
            snprintf(field, sizeof field, "%s col %ld entry %ld index", name, j, k);
            FL_TRY(lx_long(lx, field, 0, (origin == 3 ? n : m) - 1, &i));
            FL_TRY(lx_word(lx, field, ":"));
            snprintf(field, sizeof field, "%s(%ld,%ld)", name, origin == 3 ? j : i,
                     origin == 3 ? i : j);
            FL_TRY(lx_double(lx, field, &v));
            if (origin == 3) FL_TRY(smat_push(lx, a, field, (size_t)j, (size_t)i, v));
            else FL_TRY(smat_push(lx, a, field, (size_t)i, (size_t)j, v));
        }
        at = p1 + 1;
    }
    if (at != nnz)
        return lx_fail(lx, FL_EPARSE, "field %s: the columns hold %ld entries, nnz says %ld",
                       field, at, nnz);
    return FL_OK;
}

/* A NumericsMatrix: storage size0 size1 and its data.  want0/want1 < 0:
 * any size. */
static fl_status rd_matrix(lexer *lx, const char *name, long want0, long want1, smat *a)
{
    char field[96];
    long st, s0, s1;
    memset(a, 0, sizeof *a);
    snprintf(field, sizeof field, "%s storage", name);
    FL_TRY(lx_long(lx, field, 0, 2, &st));
    snprintf(field, sizeof field, "%s size0", name);
    FL_TRY(lx_long(lx, field, 0, INT_MAX, &s0));
    snprintf(field, sizeof field, "%s size1", name);
    FL_TRY(lx_long(lx, field, 0, INT_MAX, &s1));
    if ((want0 >= 0 && s0 != want0) || (want1 >= 0 && s1 != want1))
        return lx_fail(lx, FL_EDIM, "field %s sizes: %ld x %ld, expected %ld x %ld", name, s0, s1,
                       want0 >= 0 ? want0 : s0, want1 >= 0 ? want1 : s1);
    a->nrow = (size_t)s0;
    a->ncol = (size_t)s1;
    a->storage = (int)st;
    if (st == 0) return rd_dense(lx, name, a);
    if (st == 1) return rd_sbm(lx, name, a);
    return rd_csparse(lx, name, a);
}

static fl_status rd_values(lexer *lx, const char *name, size_t n, double *x)
{
    char field[96];
    snprintf(field, sizeof field, "%s", name);
    FL_TRY(lx_need_values(lx, field, (double)n));
    for (size_t k = 0; k < n; k++) {
        snprintf(field, sizeof field, "%s[%zu]", name, k);
        FL_TRY(lx_double(lx, field, &x[k]));
    }
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* the two problem forms                                               */
/* ------------------------------------------------------------------ */

typedef struct parsed {
    int kind;           /* 1 local, 2 global */
    long dim, nc;
    size_t m, n;
    smat A, H;          /* W (local) or M, H (global, H in Siconos's n x m) */
    double *q, *w, *mu; /* local: q[m]; global: q = f[n], w = b[m] */
} parsed;

static void parsed_free(parsed *p)
{
    smat_free(&p->A);
    smat_free(&p->H);
    free(p->q);
    free(p->w);
    free(p->mu);
}

/* 1 if a matrix header "storage n m" follows (position restored). */
static int global_header_follows(lexer *lx, size_t n, size_t m)
{
    long pos = ftell(lx->f);
    int line = lx->line, tl = lx->tok_line;
    long v[3];
    int ok = 1;
    for (int k = 0; k < 3 && ok; k++) {
        if (lx_token(lx) != 1) {
            ok = 0;
            break;
        }
        char *end;
        errno = 0;
        v[k] = strtol(lx->tok, &end, 10);
        if (end == lx->tok || *end != '\0' || errno) ok = 0;
    }
    ok = ok && v[0] >= 0 && v[0] <= 2 && v[1] == (long)n && v[2] == (long)m;
    fseek(lx->f, pos, SEEK_SET);
    lx->line = line;
    lx->tok_line = tl;
    if (lx->err) fl_error_clear(lx->err);
    return ok;
}

static fl_status alloc_values(lexer *lx, const char *field, size_t n, double **x)
{
    FL_TRY(lx_need_values(lx, field, (double)n));
    FL_TRY(lx_need_bytes(lx, field, 8.0 * (double)n));
    *x = calloc(n ? n : 1, sizeof **x);
    if (!*x) return lx_fail(lx, FL_ENOMEM, "field %s: out of memory", field);
    return FL_OK;
}

/* want: 0 any, 1 local, 2 global. */
static fl_status parse_file(lexer *lx, int want, parsed *P)
{
    memset(P, 0, sizeof *P);
    FL_TRY(lx_long(lx, "dimension", LONG_MIN, LONG_MAX, &P->dim));
    if (P->dim != 2 && P->dim != 3)
        return lx_fail(lx, FL_EPARSE, "field dimension: %ld is not 2 or 3", P->dim);
    FL_TRY(lx_long(lx, "number of contacts", 0, INT_MAX / 3, &P->nc));
    P->m = (size_t)P->dim * (size_t)P->nc;
    /* at least q and mu must follow */
    FL_TRY(lx_need_values(lx, "number of contacts", (double)P->m + (double)P->nc + 3.0));
    FL_TRY(rd_matrix(lx, want == 1 ? "W" : want == 2 ? "M" : "W or M",
                      want == 1 ? (long)P->m : -1, -1, &P->A));
    if (P->A.nrow != P->A.ncol)
        return lx_fail(lx, FL_EDIM, "field W or M: %zu x %zu is not square", P->A.nrow,
                       P->A.ncol);
    int global = want == 2 || (want == 0 && global_header_follows(lx, P->A.nrow, P->m));
    if (!global) {
        P->kind = 1;
        if (P->A.nrow != P->m)
            return lx_fail(lx, FL_EDIM, "field W sizes: %zu x %zu, expected %zu x %zu (dim * nc)",
                           P->A.nrow, P->A.ncol, P->m, P->m);
        FL_TRY(alloc_values(lx, "q", P->m, &P->q));
        FL_TRY(rd_values(lx, "q", P->m, P->q));
    } else {
        P->kind = 2;
        P->n = P->A.nrow;
        if (P->n == 0) return lx_fail(lx, FL_EDIM, "field M: no degree of freedom (0 x 0)");
        FL_TRY(rd_matrix(lx, "H", (long)P->n, (long)P->m, &P->H));
        FL_TRY(alloc_values(lx, "q (f)", P->n, &P->q));
        FL_TRY(rd_values(lx, "q (f)", P->n, P->q));
        FL_TRY(alloc_values(lx, "b (w)", P->m, &P->w));
        FL_TRY(rd_values(lx, "b (w)", P->m, P->w));
    }
    FL_TRY(alloc_values(lx, "mu", (size_t)P->nc, &P->mu));
    for (size_t a = 0; a < (size_t)P->nc; a++) {
        char field[64];
        snprintf(field, sizeof field, "mu[%zu]", a);
        FL_TRY(lx_double(lx, field, &P->mu[a]));
        if (P->mu[a] < 0) return lx_fail(lx, FL_EINVAL, "field %s: %g is negative", field, P->mu[a]);
    }
    /* whatever follows mu is ignored, as Siconos's readers do */
    return FL_OK;
}

static fl_status open_and_parse(const char *path, const fl_read_options *opt, int want,
                                lexer *lx, parsed *P, fl_error *err)
{
    FL_TRY(lx_open(lx, path, opt, err));
    fl_status s = parse_file(lx, want, P);
    if (s != FL_OK) {
        parsed_free(P);
        lx_close(lx);
    }
    return s;
}

fl_status fl_siconos_text_kind(const char *path, int *kind, fl_error *err)
{
    if (!kind) return FL_FAIL(err, FL_EINVAL, "siconos kind: NULL output");
    lexer lx;
    parsed P;
    FL_TRY(open_and_parse(path, NULL, 0, &lx, &P, err));
    *kind = P.kind;
    parsed_free(&P);
    lx_close(&lx);
    return FL_OK;
}

/* The sparse twin's memory for a matrix of nnz entries: CSC (12 per entry
 * plus column pointers) and CHOLMOD's triplet copy (16 per entry). */
static double sparse_bytes(size_t nnz, size_t ncol)
{
    return 28.0 * (double)nnz + 8.0 * ((double)ncol + 1.0);
}

fl_status fl_siconos_text_read_local(const char *path, int dense, fl_sparse_ctx *ctx,
                                     const fl_read_options *opt, fl_local_problem **out,
                                     fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "siconos read: NULL output");
    *out = NULL;
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "siconos read: ask for a dense or a sparse W");
    lexer lx;
    parsed P;
    FL_TRY(open_and_parse(path, opt, 1, &lx, &P, err));
    fl_local_problem *p = NULL;
    fl_status s = FL_OK;
    lx.tok_line = 0;
    if (dense && (s = lx_need_bytes(&lx, "W (dense)", 8.0 * (double)P.m * (double)P.m)) != FL_OK)
        goto out;
    if (ctx && (s = lx_need_bytes(&lx, "W (sparse)", sparse_bytes(P.A.nnz, P.m))) != FL_OK)
        goto out;
    if ((s = fl_local_problem_alloc((size_t)P.nc, (int)P.dim, dense, &p, err)) != FL_OK) goto out;
    if (P.m) memcpy(p->q->data, P.q, P.m * sizeof *P.q);
    if (P.nc) memcpy(p->mu, P.mu, (size_t)P.nc * sizeof *P.mu);
    if (dense)
        for (size_t k = 0; k < P.A.nnz; k++)
            *gsl_matrix_ptr(p->W, (size_t)P.A.row[k], (size_t)P.A.col[k]) += P.A.val[k];
    if (ctx) {
        p->ctx = ctx;
        if ((s = fl_sparse_from_triplet(ctx, P.m, P.m, P.A.nnz, P.A.row, P.A.col, P.A.val, 0,
                                        &p->Ws, err)) != FL_OK)
            goto out;
    }
    if ((s = fl_local_problem_check(p, err)) != FL_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        s = fl_error_set(err, s, path, 0, 0, "field W: %s", msg);
    }
out:
    parsed_free(&P);
    lx_close(&lx);
    if (s != FL_OK) fl_local_problem_free(p);
    else *out = p;
    return s;
}

fl_status fl_siconos_text_read(const char *path, int dense, fl_sparse_ctx *ctx,
                               fl_local_problem **out, fl_error *err)
{
    return fl_siconos_text_read_local(path, dense, ctx, NULL, out, err);
}

fl_status fl_siconos_text_read_global(const char *path, int dense, fl_sparse_ctx *ctx,
                                      const fl_read_options *opt, fl_global_problem **out,
                                      fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "siconos read: NULL output");
    *out = NULL;
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "siconos read: ask for dense or sparse M, H");
    lexer lx;
    parsed P;
    FL_TRY(open_and_parse(path, opt, 2, &lx, &P, err));
    fl_global_problem *g = NULL;
    fl_status s = FL_OK;
    lx.tok_line = 0;
    double asym, scale;
    size_t ai, aj;
    if (dense && (s = lx_need_bytes(&lx, "M, H (dense)", 8.0 * (double)P.n *
                                    ((double)P.n + (double)P.m))) != FL_OK)
        goto out;
    if (ctx && (s = lx_need_bytes(&lx, "M, H (sparse)", sparse_bytes(P.A.nnz, P.n) +
                                  sparse_bytes(P.H.nnz, P.n))) != FL_OK)
        goto out;
    if ((s = fl_triplet_asymmetry(P.A.nnz, P.A.row, P.A.col, P.A.val, &asym, &ai, &aj, &scale,
                                  err)) != FL_OK)
        goto out;
    if (asym > FL_SYMMETRY_RTOL * scale) {
        s = fl_error_set(err, FL_EINVAL, path, 0, 0, "field M: not symmetric: |M(%zu,%zu) - "
                         "M(%zu,%zu)| = %.3g = %.3g max|M| (tolerance %g relative)", ai, aj, aj,
                         ai, asym, asym / scale, FL_SYMMETRY_RTOL);
        goto out;
    }
    if ((s = fl_triplet_symmetrize(&P.A.nnz, &P.A.row, &P.A.col, &P.A.val, err)) != FL_OK)
        goto out;
    P.A.cap = P.A.nnz;
    if ((s = fl_global_problem_alloc(P.n, (size_t)P.nc, (int)P.dim, dense, &g, err)) != FL_OK)
        goto out;
    memcpy(g->f->data, P.q, P.n * sizeof *P.q);
    if (P.m) memcpy(g->w->data, P.w, P.m * sizeof *P.w);
    if (P.nc) memcpy(g->mu, P.mu, (size_t)P.nc * sizeof *P.mu);
    if (dense) {
        for (size_t k = 0; k < P.A.nnz; k++)
            *gsl_matrix_ptr(g->M, (size_t)P.A.row[k], (size_t)P.A.col[k]) += P.A.val[k];
        for (size_t k = 0; k < P.H.nnz; k++)   /* the library's H = Siconos's H^T */
            *gsl_matrix_ptr(g->H, (size_t)P.H.col[k], (size_t)P.H.row[k]) += P.H.val[k];
    }
    if (ctx) {
        g->ctx = ctx;
        if ((s = fl_sparse_from_triplet(ctx, P.n, P.n, P.A.nnz, P.A.row, P.A.col, P.A.val, 1,
                                        &g->Ms, err)) != FL_OK ||
            (s = fl_sparse_from_triplet(ctx, P.m, P.n, P.H.nnz, P.H.col, P.H.row, P.H.val, 0,
                                        &g->Hs, err)) != FL_OK)
            goto out;
    }
    if ((s = fl_global_problem_check(g, err)) != FL_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        s = fl_error_set(err, s, path, 0, 0, "%s", msg);
    }
out:
    parsed_free(&P);
    lx_close(&lx);
    if (s != FL_OK) fl_global_problem_free(g);
    else *out = g;
    return s;
}

/* ------------------------------------------------------------------ */
/* writers                                                             */
/* ------------------------------------------------------------------ */

/* Entries of a CHOLMOD matrix (symmetric storage expanded), transposed if
 * asked, printed as CSparse triplets "i j : x". */
static void write_sparse(FILE *f, const cholmod_sparse *A, int transpose)
{
    size_t nrow = transpose ? A->ncol : A->nrow, ncol = transpose ? A->nrow : A->ncol;
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    size_t nnz = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            fprintf(f, "2\n%zu\n%zu\n1\nCSparse Version 3.2.0, Sept 12, 2017.  Copyright (c) "
                    "Timothy A. Davis, 2006-2016\ntriplet: %zu-by-%zu, nzmax: %zu nnz: %zu\n",
                    nrow, ncol, nrow, ncol, nnz ? nnz : 1, nnz);
        for (size_t j = 0; j < A->ncol; j++) {
            int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
            for (int k = Ap[j]; k < end; k++) {
                size_t i = (size_t)Ai[k];
                if ((A->stype > 0 && i > j) || (A->stype < 0 && i < j)) continue;
                int twice = A->stype != 0 && i != j;
                if (pass == 0) {
                    nnz += twice ? 2 : 1;
                    continue;
                }
                size_t r = transpose ? j : i, c = transpose ? i : j;
                fprintf(f, "    %zu %zu : %.17g\n", r, c, Ax[k]);
                if (twice) fprintf(f, "    %zu %zu : %.17g\n", c, r, Ax[k]);
            }
        }
    }
}

/* A dense matrix (or its transpose) as storage 0, column by column. */
static void write_dense(FILE *f, const gsl_matrix *A, int transpose)
{
    size_t nrow = transpose ? A->size2 : A->size1, ncol = transpose ? A->size1 : A->size2;
    fprintf(f, "0\n%zu\n%zu\n%zu\t%zu\n", nrow, ncol, nrow, ncol);
    for (size_t j = 0; j < ncol; j++) {
        for (size_t i = 0; i < nrow; i++)
            fprintf(f, " %.17g", transpose ? gsl_matrix_get(A, j, i) : gsl_matrix_get(A, i, j));
        fputc('\n', f);
    }
}

static void write_values(FILE *f, const double *x, size_t n, size_t stride)
{
    for (size_t k = 0; k < n; k++) fprintf(f, " %.17g", x[k * stride]);
    fputc('\n', f);
}

static fl_status finish(FILE *f, const char *path, fl_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) return fl_error_set(err, FL_EIO, path, 0, 0, "write failed");
    return FL_OK;
}

fl_status fl_siconos_text_write(const char *path, const fl_local_problem *p, fl_error *err)
{
    if (!path || !p) return FL_FAIL(err, FL_EINVAL, "siconos write: NULL argument");
    FL_TRY(fl_local_problem_check(p, err));
    FILE *f = fopen(path, "w");
    if (!f) return fl_error_set(err, FL_EIO, path, 0, 0, "cannot create the file");
    fprintf(f, "%d\n%zu\n", p->dim, p->nc);
    if (p->W) write_dense(f, p->W, 0);
    else write_sparse(f, p->Ws, 0);
    if (p->m) write_values(f, p->q->data, p->m, p->q->stride);
    else fputc('\n', f);
    write_values(f, p->mu, p->nc, 1);
    return finish(f, path, err);
}

fl_status fl_siconos_text_write_global(const char *path, const fl_global_problem *g,
                                       fl_error *err)
{
    if (!path || !g) return FL_FAIL(err, FL_EINVAL, "siconos write: NULL argument");
    FL_TRY(fl_global_problem_check(g, err));
    FILE *f = fopen(path, "w");
    if (!f) return fl_error_set(err, FL_EIO, path, 0, 0, "cannot create the file");
    fprintf(f, "%d\n%zu\n", g->dim, g->nc);
    if (g->M) write_dense(f, g->M, 0);
    else write_sparse(f, g->Ms, 0);
    if (g->H) write_dense(f, g->H, 1);   /* Siconos's H = the library's H^T, n x m */
    else write_sparse(f, g->Hs, 1);
    write_values(f, g->f->data, g->n, g->f->stride);
    if (g->m) write_values(f, g->w->data, g->m, g->w->stride);
    else fputc('\n', f);
    write_values(f, g->mu, g->nc, 1);
    return finish(f, path, err);
}
