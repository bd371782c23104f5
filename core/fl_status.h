/* fl_status.h — status codes and error reports shared by every module.
 *
 * Convention (README.md, Vocabulary): 0 is success, negative codes are
 * errors, positive codes are warnings (the result is usable but the caller
 * should know).  The library never exits, aborts or prints: it returns a
 * status and, when the caller passes a non-NULL fl_error, fills it.
 */
#ifndef FL_STATUS_H
#define FL_STATUS_H

#include <stdarg.h>
#include <stddef.h>

typedef enum fl_status {
    FL_OK = 0,
    /* errors */
    FL_EINVAL = -1,       /* invalid argument or inconsistent data */
    FL_ENOMEM = -2,       /* allocation failed */
    FL_ENOTSPD = -3,      /* matrix not symmetric positive definite */
    FL_EIO = -4,          /* file cannot be opened, read or written */
    FL_EPARSE = -5,       /* malformed file content */
    FL_EDIM = -6,         /* dimension mismatch */
    FL_ENONFINITE = -7,   /* NaN or Inf in input */
    FL_ESINGULAR = -8,    /* singular or rank-deficient matrix */
    FL_ERAY = -9,         /* pivoting ended on a ray (no solution found) */
    FL_ENOTFOUND = -10,   /* unknown name (law, check, field) */
    FL_EUNSUPPORTED = -11,/* valid request this build does not support */
    FL_ENOCONV = -12,     /* iterative method diverged or broke down */
    FL_EEXTERNAL = -13,   /* an external library or program failed */
    /* warnings */
    FL_WMAXITER = 1,      /* iteration limit reached before tolerance */
    FL_WNOTUNIQUE = 2,    /* several solutions exist; one was returned */
    FL_WDEGENERATE = 3,   /* input on a case boundary, result chosen by convention */
    FL_WTIMEOUT = 4       /* time limit reached before tolerance: the best iterate
                             found so far is returned with its error.  A warning,
                             not an error, like FL_WMAXITER: the answer is usable
                             (measured, not certified) */
} fl_status;

/* A short, static, English description of a status code. Never NULL. */
const char *fl_strerror(fl_status s);

/* Error report.  `file`/`line`/`column` locate the error in the INPUT: for
 * I/O and parse errors they name the input file (line and column 1-based, 0
 * if unknown), or the dataset for HDF5.  An error the library detects in
 * data it was handed in memory (a matrix that is not positive definite, a
 * dimension mismatch) has an empty `file` and line 0: the library does not
 * know where the data came from, so the caller that read it (the command,
 * naming the input file and field) adds that.  `file` never names a source
 * file of the library.  `message` is a complete sentence fragment suitable
 * for printing after "error: "; it holds no control byte and no byte
 * outside well-formed UTF-8 (fl_error_escape). */
typedef struct fl_error {
    fl_status status;
    char message[512];
    char file[256];
    int line;
    int column;
} fl_error;

/* Reset an error record to FL_OK and empty strings (err may be NULL). */
void fl_error_clear(fl_error *err);

/* Fill `err` (may be NULL) and return `s`.  printf-style message. */
fl_status fl_error_set(fl_error *err, fl_status s, const char *file, int line,
                       int column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

fl_status fl_error_vset(fl_error *err, fl_status s, const char *file, int line,
                        int column, const char *fmt, va_list ap);

/* Copy `in` into out[size] (always terminated, cut at a character boundary
 * when too long) with every byte that could disturb a terminal written as
 * \xNN: control bytes and bytes outside well-formed UTF-8.  Printable
 * ASCII and valid UTF-8 (the messages' §, —, ≤) are kept.  fl_error_set and
 * fl_error_vset escape `message` and `file` this way, so a message quoting
 * a token of a random or binary input file prints as text. */
void fl_error_escape(const char *in, char *out, size_t size);

/* Report an error detected by library code in in-memory data: no input
 * location (file "", line 0), and never our own source path. */
#define FL_FAIL(err, s, ...) \
    fl_error_set((err), (s), NULL, 0, 0, __VA_ARGS__)

/* Propagate a non-OK error status (warnings pass through). */
#define FL_TRY(expr) \
    do { fl_status fl_try_s_ = (expr); if (fl_try_s_ < 0) return fl_try_s_; } while (0)

#endif
