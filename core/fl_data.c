/* fl_data.c — the data directory and the path of a data file.  See
 * fl_data.h.  FL_DATA_SOURCE_DIR, FL_DATA_BUILD_ROOT and
 * FL_DATA_INSTALL_DIR are set by meson (core/meson.build). */
#include "fl_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FL_DATA_SOURCE_DIR
#error "FL_DATA_SOURCE_DIR must be defined by the build (core/meson.build)"
#endif
#ifndef FL_DATA_BUILD_ROOT
#error "FL_DATA_BUILD_ROOT must be defined by the build (core/meson.build)"
#endif
#ifndef FL_DATA_INSTALL_DIR
#error "FL_DATA_INSTALL_DIR must be defined by the build (core/meson.build)"
#endif

/* 1 when /proc/self/exe lies under the build tree this library was built in. */
static int run_from_build_tree(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = '\0';
    size_t b = strlen(FL_DATA_BUILD_ROOT);
    return (size_t)n > b && strncmp(exe, FL_DATA_BUILD_ROOT, b) == 0 && exe[b] == '/';
}

const char *fl_data_dir(const char *dir, const char **why)
{
    const char *w, *d;
    const char *env = getenv("FL_DATA_DIR");
    if (dir) {
        d = dir;
        w = "--data";
    } else if (env && *env) {
        d = env;
        w = "FL_DATA_DIR";
    } else if (run_from_build_tree()) {
        d = FL_DATA_SOURCE_DIR;
        w = "source tree";
    } else {
        d = FL_DATA_INSTALL_DIR;
        w = "installed";
    }
    if (why) *why = w;
    return d;
}

fl_status fl_data_path(const char *dir, const char *rel, char *buf, size_t len,
                       fl_error *err)
{
    if (!rel || !buf || len == 0) return FL_FAIL(err, FL_EINVAL, "data: NULL argument");
    const char *why = NULL;
    const char *d = fl_data_dir(dir, &why);
    int n = snprintf(buf, len, "%s/%s", d, rel);
    if (n < 0 || (size_t)n >= len)
        return FL_FAIL(err, FL_EINVAL, "data: path too long: %s/%s", d, rel);
    struct stat st;
    if (stat(buf, &st) != 0)
        return FL_FAIL(err, FL_EIO, "%s: %s (data directory %s chosen by %s; "
                       "pass --data DIR or set FL_DATA_DIR)", buf, strerror(errno), d, why);
    if (!S_ISREG(st.st_mode))
        return FL_FAIL(err, FL_EIO, "%s: not a regular file (data directory %s chosen by %s)",
                       buf, d, why);
    if (access(buf, R_OK) != 0)
        return FL_FAIL(err, FL_EIO, "%s: %s (data directory %s chosen by %s)", buf,
                       strerror(errno), d, why);
    return FL_OK;
}
