/* fl_data.h — where the data files of the papers' examples are found.
 *
 * The data directory is data/ of the source tree, installed by `meson
 * install` as <prefix>/share/frictionlab.  It is, in this order:
 *   1. dir, when the caller passes one (the command's --data DIR);
 *   2. the environment variable FL_DATA_DIR, when set and not empty;
 *   3. the source tree's data/, when the running program lives in the
 *      build tree it was built in (a program run from build/);
 *   4. the installed share/frictionlab: next to the running program
 *      (<bindir>/../share/frictionlab, so a staged or moved installation
 *      finds its own data), else <prefix>/share/frictionlab.
 * A file that is not in the chosen directory is an error naming the file,
 * the directory and which of the four rules chose it: there is no second
 * directory tried and no built-in value to fall back to.
 */
#ifndef FL_DATA_H
#define FL_DATA_H

#include <stddef.h>

#include "fl_status.h"

/* The data directory by the rules above (never NULL; static or environment
 * storage, not to be freed).  *why (may be NULL) receives which rule chose
 * it: "--data", "FL_DATA_DIR", "source tree" or "installed". */
const char *fl_data_dir(const char *dir, const char **why);

/* buf = <data directory>/rel, e.g. rel = "001/painleve_p5.json".  FL_EIO if
 * the file is not a readable regular file there (the message names the
 * path and the rule), FL_EINVAL for a NULL argument or a path longer than
 * len - 1. */
fl_status fl_data_path(const char *dir, const char *rel, char *buf, size_t len,
                       fl_error *err);

/* The corpus of real problem files written by Siconos and LMGC90 (the
 * `corpus` family of `crosscheck --solver-cmd`, tests/data/siconos/ of the
 * source tree, installed with its README and its manifest sizes.tsv as
 * <prefix>/share/frictionlab/corpus).  It is, in this order:
 *   1. dir, when the caller passes one (the command's --corpus DIR);
 *   2. the environment variable FL_CORPUS_DIR, when set and not empty;
 *   3. the source tree's tests/data/siconos, when the running program lives
 *      in the build tree it was built in;
 *   4. <data directory of rule 4 above>/corpus: the installed one.
 * Never NULL; *why (may be NULL) receives "--corpus", "FL_CORPUS_DIR",
 * "source tree" or "installed". */
const char *fl_data_corpus_dir(const char *dir, const char **why);

#endif
