/* corpus_path.h — where the tests find the real problem files of
 * tests/data/siconos/ (meson sets FL_SOURCE_ROOT; by hand, run the test
 * from build/), and which of them are FCLIB.  Header-only, for tests. */
#ifndef FL_TEST_CORPUS_PATH_H
#define FL_TEST_CORPUS_PATH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* buf = <source root>/tests/data/siconos/<name> */
static inline void corpus_path(char *buf, size_t len, const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    snprintf(buf, len, "%s/tests/data/siconos/%s", root ? root : "..", name);
}

/* 1 when name ends in .hdf5 (an FCLIB file of the corpus) */
static inline int corpus_is_fclib(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".hdf5") == 0;
}

#endif
