/* registry.h — the tasks of reproduce, crosscheck and bench: their entry
 * points are declared by checks/fl_tasks.h and bench/bench.h and take an
 * fl_check_ctx; cli/registry.c wraps each one for the command. */
#ifndef FL_REGISTRY_H
#define FL_REGISTRY_H

#include "cli.h"

#endif
