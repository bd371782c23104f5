/* fl_data.c — the data directory and the path of a data file.  See
 * fl_data.h.  FL_DATA_SOURCE_DIR, FL_DATA_BUILD_ROOT, FL_DATA_INSTALL_DIR
 * and FL_DATA_FROM_BINDIR are set by meson (core/meson.build). */
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
#ifndef FL_CORPUS_SOURCE_DIR
#error "FL_CORPUS_SOURCE_DIR must be defined by the build (core/meson.build)"
#endif
#ifndef FL_DATA_FROM_BINDIR
#error "FL_DATA_FROM_BINDIR must be defined by the build (core/meson.build)"
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

/* <directory of the running program>/FL_DATA_FROM_BINDIR when that is a
 * directory (an installed program, wherever the installed tree was put, e.g.
 * by `meson install --destdir`); NULL otherwise. */
static const char *installed_next_to_program(void)
{
    static char dir[4096];
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = '\0';
    int k = snprintf(dir, sizeof dir, "%s/%s", exe, FL_DATA_FROM_BINDIR);
    if (k < 0 || (size_t)k >= sizeof dir) return NULL;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
    return dir;
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
    } else if ((d = installed_next_to_program()) != NULL) {
        w = "installed";
    } else {
        d = FL_DATA_INSTALL_DIR;
        w = "installed";
    }
    if (why) *why = w;
    return d;
}

const char *fl_data_corpus_dir(const char *dir, const char **why)
{
    static char installed[4096];
    const char *w, *d;
    const char *env = getenv("FL_CORPUS_DIR");
    if (dir) {
        d = dir;
        w = "--corpus";
    } else if (env && *env) {
        d = env;
        w = "FL_CORPUS_DIR";
    } else if (run_from_build_tree()) {
        d = FL_CORPUS_SOURCE_DIR;
        w = "source tree";
    } else {
        const char *data = installed_next_to_program();
        snprintf(installed, sizeof installed, "%s/corpus", data ? data : FL_DATA_INSTALL_DIR);
        d = installed;
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
