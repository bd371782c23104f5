/* fl_mm.c — Matrix Market coordinate files (io/fl_mm.h, README.md data/).
 *
 * Reading is in two passes over the same FILE*:
 *   1. our own line-by-line check of the banner, the size line and every
 *      entry line, so that each message names the file line and what is
 *      wrong (field of the size line, index out of range, NaN/Inf, an entry
 *      above the diagonal of a symmetric file, too few or too many entries);
 *   2. rewind, and cholmod_read_sparse builds the matrix.
 * CHOLMOD alone would refuse NaN and truncated files without saying where,
 * silently ignore entries beyond the declared count, and silently add an
 * upper entry to its lower mirror in a symmetric file — hence pass 1.
 *
 * Writing is our own loop (full precision, "%.17g"), so that a general
 * matrix is written "general" and a real one "real" whatever its values.
 */
#include "fl_mm.h"
#include "fl_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* What pass 1 learned from the header. */
typedef struct mm_header {
    int pattern;       /* entries have no value */
    int integer;       /* values must be integers */
    int symmetric;     /* only the lower triangle is stored */
    long rows, cols, nnz;
} mm_header;

/* Longest line accepted: the Matrix Market definition limits lines to 1024
 * characters, and so does CHOLMOD's reader of pass 2 (a longer line would
 * reach it in pieces, each read as a line).  Longer lines are refused, never
 * buffered without bound. */
enum { MM_LINE_MAX = 1025 };   /* 1024 characters and the newline */

/* Largest dimension accepted for a file of `bytes` bytes: CHOLMOD allocates
 * O(rows + cols) before reading an entry, and a header may declare any
 * size, so a dimension is bounded by the file it comes from: 10^6 plus 8
 * per byte of file (a real matrix with more empty rows or columns than that
 * is not what a Matrix Market file is for), and by INT_MAX (int indices). */
static long mm_dim_max(long long bytes)
{
    long long m = 1000000LL + 8LL * bytes;
    return m > 2147483646LL ? 2147483646L : (long)m;
}

/* Reader state: the file, its name and the current line. */
typedef struct mm_reader {
    FILE *f;
    const char *path;
    char *buf;          /* MM_LINE_MAX + 1 bytes, NUL-terminated line */
    long line;          /* number of the line in buf (1-based) */
    long long bytes;    /* file size */
    int bad;            /* last next_line: 1 line too long, 2 NUL byte, 3 read error */
} mm_reader;

/* Next line into r->buf, with its number; 0 at end of file or on a bad
 * line (r->bad says which).  Bytes are read whole: a NUL inside a line is
 * refused (C string functions would silently drop the rest of the line). */
static int next_line(mm_reader *r)
{
    size_t n = 0;
    int ch = EOF;
    r->bad = 0;
    while ((ch = getc(r->f)) != EOF) {
        if (ch == '\0') r->bad = 2;
        if (n == MM_LINE_MAX) {
            r->bad = 1;
            break;
        }
        r->buf[n++] = (char)ch;
        if (ch == '\n') break;
    }
    if (ch == EOF && ferror(r->f)) r->bad = 3;
    if (n == 0 && !r->bad) return 0;
    r->buf[n] = '\0';
    r->line++;
    return !r->bad;
}

static int blank(const char *s)
{
    s += strspn(s, " \t\r\n");
    return *s == '\0';
}

/* Error at line `line` of the file (0: no line). */
static fl_status fail_at(const mm_reader *r, long line, fl_status s, fl_error *err,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static fl_status fail_at(const mm_reader *r, long line, fl_status s, fl_error *err,
                         const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (line > 0)
        return fl_error_set(err, s, r->path, (int)line, 0, "%s:%ld: %s", r->path, line, what);
    return fl_error_set(err, s, r->path, 0, 0, "%s: %s", r->path, what);
}

/* The error for a line next_line refused, or for the end of the file. */
static fl_status bad_line(const mm_reader *r, fl_error *err)
{
    if (r->bad == 1)
        return fail_at(r, r->line, FL_EPARSE, err, "line is longer than %d characters "
                       "(the Matrix Market limit is 1024)", (int)MM_LINE_MAX - 1);
    if (r->bad == 2)
        return fail_at(r, r->line, FL_EPARSE, err, "line contains a NUL byte");
    return fail_at(r, r->line, FL_EIO, err, "cannot read: %s", strerror(errno));
}

/* Copy the next whitespace-separated token of *s into tok, advancing *s;
 * returns 0 if there is none.  A token that does not fit in tok whole is
 * never cut: tok receives its first 40 bytes followed by "..." and the
 * caller's number parse then refuses it (no field of a valid file is
 * that long: integers fit in 20 digits, a double in 17 significant ones). */
static int token(const char **s, char *tok, size_t len)
{
    const char *p = *s + strspn(*s, " \t\r\n");
    size_t n = strcspn(p, " \t\r\n");
    if (n == 0) return 0;
    if (n < len)
        snprintf(tok, len, "%.*s", (int)n, p);
    else
        snprintf(tok, len, "%.40s... (%zu characters)", p, n);
    *s = p + n;
    return 1;
}

/* One banner word: token number k must be one of `ok` (a NULL-terminated
 * list); `unsupported` words are valid Matrix Market this reader refuses. */
static fl_status banner_word(const mm_reader *r, const char **s, const char *field,
                             const char *const *ok, const char *const *unsupported,
                             int *which, fl_error *err)
{
    char tok[128];
    if (!token(s, tok, sizeof tok))
        return fail_at(r, 1, FL_EPARSE, err, "banner field \"%s\" is missing (expected "
                       "'%%%%MatrixMarket matrix coordinate real|integer|pattern "
                       "general|symmetric')", field);
    for (int i = 0; ok[i]; i++)
        if (strcasecmp(tok, ok[i]) == 0) {
            *which = i;
            return FL_OK;
        }
    for (int i = 0; unsupported && unsupported[i]; i++)
        if (strcasecmp(tok, unsupported[i]) == 0)
            return fail_at(r, 1, FL_EUNSUPPORTED, err, "banner field \"%s\": \"%s\" "
                           "matrices are not supported", field, tok);
    return fail_at(r, 1, FL_EPARSE, err, "banner field \"%s\": unknown word \"%s\"", field,
                   tok);
}

static fl_status read_banner(mm_reader *r, mm_header *h, fl_error *err)
{
    static const char *const object[] = {"matrix", NULL};
    static const char *const format[] = {"coordinate", NULL};
    static const char *const format_no[] = {"array", NULL};
    static const char *const type[] = {"real", "integer", "pattern", NULL};
    static const char *const type_no[] = {"complex", NULL};
    static const char *const sym[] = {"general", "symmetric", NULL};
    static const char *const sym_no[] = {"skew-symmetric", "hermitian", NULL};
    if (!next_line(r))
        return r->bad ? bad_line(r, err)
                      : fail_at(r, 0, FL_EPARSE, err, "empty file (expected a "
                                "'%%%%MatrixMarket' banner)");
    const char *s = r->buf;
    char tok[128];
    if (!token(&s, tok, sizeof tok) || strcmp(tok, "%%MatrixMarket") != 0)
        return fail_at(r, 1, FL_EPARSE, err, "not a Matrix Market file: the first line "
                       "must start with '%%%%MatrixMarket'");
    int w;
    FL_TRY(banner_word(r, &s, "object", object, NULL, &w, err));
    FL_TRY(banner_word(r, &s, "format", format, format_no, &w, err));
    FL_TRY(banner_word(r, &s, "type", type, type_no, &w, err));
    h->pattern = w == 2;
    h->integer = w == 1;
    FL_TRY(banner_word(r, &s, "symmetry", sym, sym_no, &w, err));
    h->symmetric = w == 1;
    return FL_OK;
}

/* One field of the size line: a non-negative integer (positive for rows
 * and columns). */
static fl_status size_field(mm_reader *r, const char **s, const char *field, long min,
                            long *out, fl_error *err)
{
    char tok[128], *end;
    if (!token(s, tok, sizeof tok))
        return fail_at(r, r->line, FL_EPARSE, err, "field \"%s\" of the size line "
                       "\"rows cols entries\" is missing", field);
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (*end != '\0' || errno || v < min)
        return fail_at(r, r->line, FL_EPARSE, err, "field \"%s\" of the size line: "
                       "expected an integer >= %ld, got \"%s\"", field, min, tok);
    *out = v;
    return FL_OK;
}

static fl_status read_size(mm_reader *r, mm_header *h, fl_error *err)
{
    /* comments ('%') and blank lines may follow the banner */
    do {
        if (!next_line(r))
            return r->bad ? bad_line(r, err) : fail_at(r, r->line + 1, FL_EPARSE, err, "end of file before the size "
                           "line \"rows cols entries\"");
    } while (r->buf[0] == '%' || blank(r->buf));
    const char *s = r->buf;
    FL_TRY(size_field(r, &s, "rows", 1, &h->rows, err));
    FL_TRY(size_field(r, &s, "cols", 1, &h->cols, err));
    FL_TRY(size_field(r, &s, "entries", 0, &h->nnz, err));
    char tok[128];
    if (token(&s, tok, sizeof tok))
        return fail_at(r, r->line, FL_EPARSE, err, "size line: unexpected fourth field "
                       "\"%s\" (expected \"rows cols entries\")", tok);
    long most_dim = mm_dim_max(r->bytes);
    if (h->rows > most_dim || h->cols > most_dim)
        return fail_at(r, r->line, FL_EINVAL, err, "size line declares %ld x %ld, but a "
                       "file of %lld bytes may declare at most %ld rows or columns "
                       "(10^6 + 8 per byte)", h->rows, h->cols, r->bytes, most_dim);
    if (h->symmetric && h->rows != h->cols)
        return fail_at(r, r->line, FL_EDIM, err, "a symmetric matrix must be square, "
                       "got %ld x %ld", h->rows, h->cols);
    /* at most one entry per position (the lower triangle if symmetric) */
    double most = h->symmetric ? 0.5 * (double)h->rows * ((double)h->rows + 1.0)
                               : (double)h->rows * (double)h->cols;
    if ((double)h->nnz > most)
        return fail_at(r, r->line, FL_EPARSE, err, "field \"entries\" of the size line: "
                       "%ld entries cannot fit in a %ld x %ld%s matrix", h->nnz, h->rows,
                       h->cols, h->symmetric ? " symmetric (lower triangle)" : "");
    return FL_OK;
}

/* One index of an entry: an integer in 1..n. */
static fl_status entry_index(mm_reader *r, const char **s, long k, const char *what,
                             long n, long *out, fl_error *err)
{
    char tok[128], *end;
    if (!token(s, tok, sizeof tok))
        return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: the %s index is missing",
                       k, what);
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (*end != '\0' || errno)
        return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: %s index \"%s\" is not an "
                       "integer", k, what, tok);
    if (v < 1 || v > n)
        return fail_at(r, r->line, FL_EINVAL, err, "entry %ld: %s index %ld out of range "
                       "1..%ld", k, what, v, n);
    *out = v;
    return FL_OK;
}

/* Pass 1 over the entries: k counts entries from 1. */
static fl_status check_entries(mm_reader *r, const mm_header *h, fl_error *err)
{
    long k = 0;
    while (next_line(r)) {
        if (r->buf[0] == '%' || blank(r->buf)) continue;
        k++;
        if (k > h->nnz)
            return fail_at(r, r->line, FL_EPARSE, err, "more entries than the %ld declared "
                           "on the size line", h->nnz);
        const char *s = r->buf;
        long i, j;
        FL_TRY(entry_index(r, &s, k, "row", h->rows, &i, err));
        FL_TRY(entry_index(r, &s, k, "column", h->cols, &j, err));
        if (h->symmetric && i < j)
            return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: (%ld, %ld) is above the "
                           "diagonal; a symmetric file holds the lower triangle only", k, i,
                           j);
        char tok[128];
        if (!h->pattern) {
            if (!token(&s, tok, sizeof tok))
                return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: the value is "
                               "missing", k);
            char *end;
            errno = 0;
            double v = strtod(tok, &end);
            if (*end != '\0' || end == tok)
                return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: value \"%s\" is "
                               "not a number", k, tok);
            if (h->integer) {
                errno = 0;
                (void)strtol(tok, &end, 10);
                if (*end != '\0' || errno)
                    return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: value \"%s\" is "
                                   "not an integer (the banner says 'integer')", k, tok);
            }
            if (!isfinite(v))
                return fail_at(r, r->line, FL_ENONFINITE, err, "entry %ld: value \"%s\" "
                               "is not finite", k, tok);
        }
        if (token(&s, tok, sizeof tok))
            return fail_at(r, r->line, FL_EPARSE, err, "entry %ld: unexpected extra "
                           "field \"%s\"", k, tok);
    }
    if (r->bad) return bad_line(r, err);
    if (k < h->nnz)
        return fail_at(r, r->line + 1, FL_EPARSE, err, "expected %ld entries, found %ld "
                       "(truncated file?)", h->nnz, k);
    return FL_OK;
}

fl_status fl_mm_read(fl_sparse_ctx *ctx, const char *path, cholmod_sparse **out,
                     fl_error *err)
{
    *out = NULL;
    mm_reader r = {NULL, path, NULL, 0, 0, 0};
    /* only regular files: a directory, /dev/zero or a pipe is refused
     * before anything is read, without blocking */
    fl_error e_open;
    fl_error_clear(&e_open);
    fl_status s_open = fl_file_open(path, &r.f, &r.bytes, &e_open);
    if (s_open != FL_OK)
        return fl_error_set(err, s_open, path, 0, 0, "%s: %s", path, e_open.message);
    r.buf = malloc(MM_LINE_MAX + 1);
    if (!r.buf) {
        fclose(r.f);
        return fl_error_set(err, FL_ENOMEM, path, 0, 0, "%s: out of memory", path);
    }
    mm_header h = {0};
    fl_status s = read_banner(&r, &h, err);
    if (s == FL_OK) s = read_size(&r, &h, err);
    if (s == FL_OK) s = check_entries(&r, &h, err);
    free(r.buf);
    if (s == FL_OK) {
        /* pass 2: the file is well formed; CHOLMOD builds the matrix
         * (pattern files get values 1, symmetric ones symmetric storage) */
        rewind(r.f);
        cholmod_sparse *A = cholmod_read_sparse(r.f, &ctx->cm);
        if (!A)
            s = fl_error_set(err, fl_sparse_failure(&ctx->cm), path, 0, 0, "%s: cholmod_read_sparse "
                             "failed (CHOLMOD status %d)", path, ctx->cm.status);
        *out = A;
    }
    fclose(r.f);
    return s;
}

/* Entries written for A: all of them (general), or one triangle mirrored
 * into the lower one (symmetric storage, stype != 0). */
static int written(const cholmod_sparse *A, long i, long j)
{
    return A->stype == 0 || (A->stype > 0 ? i <= j : i >= j);
}

fl_status fl_mm_write(fl_sparse_ctx *ctx, const char *path, const cholmod_sparse *A,
                      fl_error *err)
{
    (void)ctx;
    if (!A || A->xtype != CHOLMOD_REAL || A->itype != CHOLMOD_INT)
        return FL_FAIL(err, FL_EINVAL, "fl_mm_write: '%s': need a real CHOLMOD matrix "
                       "with int indices", path);
    /* CHOLMOD allows symmetric storage (stype != 0) only for square A. */
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    long count = 0;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int p = Ap[j]; p < end; p++) {
            if (!written(A, Ai[p], (long)j)) continue;
            if (!isfinite(Ax[p]))
                return FL_FAIL(err, FL_ENONFINITE, "fl_mm_write: '%s': A(%d, %zu) = %g "
                               "is not finite", path, Ai[p] + 1, j + 1, Ax[p]);
            count++;
        }
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: cannot create: %s", path,
                            strerror(errno));
    fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n",
            A->stype ? "symmetric" : "general");
    fprintf(f, "%% written by frictionlab (io/fl_mm.c)\n");
    fprintf(f, "%zu %zu %ld\n", A->nrow, A->ncol, count);
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int p = Ap[j]; p < end; p++) {
            if (!written(A, Ai[p], (long)j)) continue;
            /* upper storage: (i, j) with i <= j is written as (j, i) */
            long i = Ai[p], jj = (long)j;
            if (A->stype > 0) {
                i = (long)j;
                jj = Ai[p];
            }
            fprintf(f, "%ld %ld %.17g\n", i + 1, jj + 1, Ax[p]);
        }
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s: write failed: %s", path,
                            strerror(errno));
    return FL_OK;
}
