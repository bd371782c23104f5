/* fl_file.c — a non-blocking open of a regular input file (fl_file.h). */
#include "fl_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What kind of file the mode names, for the refusal message. */
static const char *kind_name(mode_t m)
{
    if (S_ISDIR(m)) return "is a directory";
    if (S_ISFIFO(m)) return "is a pipe (FIFO)";
    if (S_ISSOCK(m)) return "is a socket";
    if (S_ISCHR(m)) return "is a character device";
    if (S_ISBLK(m)) return "is a block device";
    return "is not a regular file";
}

fl_status fl_file_open(const char *path, FILE **out, long long *size, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fl_file_open: NULL output");
    *out = NULL;
    if (!path) return FL_FAIL(err, FL_EINVAL, "fl_file_open: NULL path");
    /* O_NONBLOCK: opening a FIFO with no writer returns at once */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot stat: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fl_error_set(err, FL_EIO, path, 0, 0, "%s, not a regular file",
                            kind_name(st.st_mode));
    }
    /* a regular file: back to ordinary blocking reads */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    if (size) *size = (long long)st.st_size;
    *out = f;
    return FL_OK;
}
