/* fl_isolate.h — run a piece of work in a child process under CPU-time and
 * address-space limits, so that a crash, a hang or an unbounded allocation
 * inside it becomes an error status of the caller instead of the end of the
 * caller's process.
 *
 * Why: the library's own code never aborts, and it bounds what a file
 * declares before allocating; but HDF5 1.10.8, which reads FCLIB files, has
 * defects that corrupt files drive into a NULL dereference or into
 * allocating without bound (README "Fuzzing").  Only a separate process can
 * contain those.  io/fl_fclib.h's fl_fclib_vet uses this to read a file
 * once, in a child, before the caller reads it in-process.
 *
 * POSIX (fork, setrlimit, poll, waitpid).  The child ends with _exit, never
 * returning into the caller's code; the caller's process never exits.  Not
 * for multi-threaded callers (fork copies only the calling thread).
 */
#ifndef FL_ISOLATE_H
#define FL_ISOLATE_H

#include <stddef.h>

#include "fl_status.h"

typedef struct fl_isolate_limits {
    double cpu_seconds;   /* CPU time (user + system) of the child; > 0 */
    size_t max_bytes;     /* address space of the child; 0: no limit */
} fl_isolate_limits;

/* The work: returns a status and fills err like any library function. */
typedef fl_status (*fl_isolate_fn)(void *arg, fl_error *err);

/* Run fn(arg, err) in a child process under `lim` and return its status
 * and error record as if it had run here.  What fn changes in memory is
 * lost: only the status and err come back.  The failures below are
 * FL_EEXTERNAL with err->file = `what` (the input file, say) and a message
 * starting with `task` ("reading with HDF5", say):
 *   - the child was killed by a signal (a crash: "<task> crashed (signal 11,
 *     Segmentation fault)");
 *   - it used up its CPU time, or four times that in wall-clock time;
 *   - it ended without reporting (an exit inside fn).
 * An error status from fn itself comes back unchanged, except that when the
 * child's peak address space reached 90% of max_bytes the message says the
 * work ran out of memory under the limit (the error a failed allocation
 * made a library report is often unrelated, such as "not found").
 * FL_EINVAL for a bad limit, FL_EEXTERNAL when fork or pipe fail. */
fl_status fl_isolate_run(fl_isolate_fn fn, void *arg, const fl_isolate_limits *lim,
                         const char *what, const char *task, fl_error *err);

#endif
