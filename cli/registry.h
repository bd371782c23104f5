/* registry.h — entry points of every registered task.  A module adds its
 * functions here and one line to the matching table in registry.c. */
#ifndef FL_REGISTRY_H
#define FL_REGISTRY_H

#include "cli.h"

/* crosscheck --law ... */

/* reproduce NAME */

/* bench NAME (bench/) */

#endif
