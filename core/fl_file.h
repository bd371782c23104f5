/* fl_file.h — opening an input file for reading without ever blocking.
 *
 * fopen() of a FIFO waits for a writer, and of some devices for data, before
 * any check can run.  fl_file_open opens with O_NONBLOCK, refuses anything
 * that is not a regular file (directory, FIFO, socket, character or block
 * device) by its fstat() before a byte is read, then hands back an ordinary
 * blocking stream.  Every reader of the library (io/) opens its input here.
 */
#ifndef FL_FILE_H
#define FL_FILE_H

#include <stdio.h>

#include "fl_status.h"

/* Open the regular file `path` for reading.  On success *out is a stream
 * the caller closes with fclose, and *size (may be NULL) its size in bytes.
 * Errors (FL_EIO, err->file = path; the message does not repeat the path):
 * "cannot open: <reason>", or "is a directory, not a regular file" (likewise
 * a pipe (FIFO), a socket, a character or a block device); FL_EINVAL on NULL
 * arguments.  *out is NULL on error. */
fl_status fl_file_open(const char *path, FILE **out, long long *size, fl_error *err);

#endif
