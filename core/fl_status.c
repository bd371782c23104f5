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

fl_status fl_error_vset(fl_error *err, fl_status s, const char *file, int line,
                        int column, const char *fmt, va_list ap)
{
    if (!err) return s;
    err->status = s;
    err->line = line;
    err->column = column;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    vsnprintf(err->message, sizeof err->message, fmt, ap);
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
