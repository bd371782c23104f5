/* fl_status.c — status strings and error records (README.md, Vocabulary). */
#include "fl_status.h"

#include <stdio.h>
#include <string.h>

const char *fl_strerror(fl_status s)
{
    switch (s) {
    case FL_OK: return "success";
    case FL_EINVAL: return "invalid argument";
    case FL_ENOMEM: return "out of memory";
    case FL_ENOTSPD: return "matrix is not symmetric positive definite";
    case FL_EIO: return "input/output error";
    case FL_EPARSE: return "malformed input";
    case FL_EDIM: return "dimension mismatch";
    case FL_ENONFINITE: return "non-finite value (NaN or Inf)";
    case FL_ESINGULAR: return "singular or rank-deficient matrix";
    case FL_ERAY: return "ray termination: no solution found by pivoting";
    case FL_ENOTFOUND: return "not found";
    case FL_EUNSUPPORTED: return "not supported";
    case FL_ENOCONV: return "method broke down or diverged";
    case FL_EEXTERNAL: return "external library or program failed";
    case FL_WMAXITER: return "warning: iteration limit reached";
    case FL_WNOTUNIQUE: return "warning: solution not unique";
    case FL_WDEGENERATE: return "warning: degenerate input";
    case FL_WTIMEOUT: return "warning: time limit reached (best iterate returned)";
    }
    return "unknown status";
}

void fl_error_clear(fl_error *err)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
}

/* Length of the valid UTF-8 sequence of a printable character at s (1 for
 * printable ASCII), 0 for a byte that must be escaped: a control byte
 * (< 0x20, 0x7f) or a byte that does not start a well-formed UTF-8
 * sequence (RFC 3629 §4: no overlong forms, no surrogates, <= U+10FFFF). */
static size_t printable_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c >= 0x20 && c < 0x7f) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf) return 0;
    return n;
}

void fl_error_escape(const char *in, char *out, size_t size)
{
    if (!out || size == 0) return;
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    size_t o = 0;
    while (*s) {
        size_t n = printable_len(s);
        if (n > 0) {
            if (o + n >= size) break;
            memcpy(out + o, s, n);
            o += n;
            s += n;
        } else {
            if (o + 4 >= size) break;
            snprintf(out + o, 5, "\\x%02x", *s);
            o += 4;
            s++;
        }
    }
    out[o] = '\0';
}

fl_status fl_error_vset(fl_error *err, fl_status s, const char *file, int line,
                        int column, const char *fmt, va_list ap)
{
    if (!err) return s;
    err->status = s;
    err->line = line;
    err->column = column;
    char raw[sizeof err->message];
    vsnprintf(raw, sizeof raw, fmt, ap);
    fl_error_escape(file ? file : "", err->file, sizeof err->file);
    fl_error_escape(raw, err->message, sizeof err->message);
    return s;
}

fl_status fl_error_set(fl_error *err, fl_status s, const char *file, int line,
                       int column, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fl_error_vset(err, s, file, line, column, fmt, ap);
    va_end(ap);
    return s;
}
