/* fuzz_input.h — shared by the fuzz harnesses of fuzz/: the readers take a
 * path, so each input is written to one temporary file per process (created
 * on first use, rewritten in place every run) and read back by path.
 *
 * The harness contract (libFuzzer, LLVMFuzzerTestOneInput): a reader must
 * return a status for any bytes, free everything it allocated, and never
 * abort, hang or allocate without bound; ASan/UBSan and libFuzzer's -rss_limit_mb
 * and -timeout turn a violation into a finding.  The harnesses also check
 * the library's contract: on error the out-pointer is NULL, err.status
 * equals the returned status, and err.file is the input or empty (never a
 * library source file).
 */
#ifndef FL_FUZZ_INPUT_H
#define FL_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fl_status.h"

static char fuzz_path_[128];

static void fuzz_remove_input(void)
{
    if (fuzz_path_[0]) unlink(fuzz_path_);
}

/* Path of this process's temporary file, holding exactly data[0..size). */
static const char *fuzz_input_file(const uint8_t *data, size_t size, const char *suffix)
{
    char *path = fuzz_path_;
    static int fd = -1;
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        (void)suffix;    /* the readers take the format from the call, not the name */
        snprintf(path, sizeof fuzz_path_, "%s/fl_fuzz_XXXXXX", dir && dir[0] ? dir : "/tmp");
        fd = mkstemp(path);
        if (fd < 0) {
            perror("fuzz: mkstemp");
            abort();
        }
        atexit(fuzz_remove_input);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) {
        perror("fuzz: writing the input file");
        abort();
    }
    return path;
}

/* The error record agrees with the status, and the location it gives is
 * the input (this process's file) or nothing, never a library source. */
static void fuzz_check_status(fl_status s, const fl_error *err)
{
    if (s >= 0) return;
    if (err->status != s) {
        fprintf(stderr, "fuzz: returned %d, err.status %d (%s)\n", (int)s,
                (int)err->status, err->message);
        abort();
    }
    if (err->file[0] && strcmp(err->file, fuzz_path_) != 0) {
        fprintf(stderr, "fuzz: the error names '%s', not the input: %s\n", err->file,
                err->message);
        abort();
    }
}

/* The library's error contract, checked on every run (a violation aborts,
 * which libFuzzer reports as a finding). */
static void fuzz_check_error(fl_status s, const fl_error *err, const void *out)
{
    if (s < 0) {
        if (out != NULL) {
            fprintf(stderr, "fuzz: status %d but an object was returned\n", (int)s);
            abort();
        }
        fuzz_check_status(s, err);
    } else if (out == NULL) {
        fprintf(stderr, "fuzz: status %d but no object returned\n", (int)s);
        abort();
    }
}

#ifdef FUZZ_HDF5
#include <hdf5.h>
/* Every HDF5 identifier the reader opened is closed again: one left open
 * keeps the file open inside HDF5, so the next input, written to the same
 * path, would be read through the stale metadata cache of the previous one. */
static void fuzz_check_hdf5_closed(const char *call)
{
    ssize_t open = H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
    if (open != 0) {
        fprintf(stderr, "fuzz: %s left %zd HDF5 identifiers open\n", call, open);
        abort();
    }
}
#endif

#endif
