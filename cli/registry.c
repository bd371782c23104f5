/* registry.c — the tables of reproduce, crosscheck and bench tasks.
 * One line per task; keep the order in which a newcomer should read them. */
#include "registry.h"

#include <stddef.h>

const fl_cli_task fl_reproduce_tasks[] = {
    {NULL, NULL, NULL}
};

const fl_cli_task fl_crosscheck_tasks[] = {
    {NULL, NULL, NULL}
};

const fl_cli_task fl_bench_tasks[] = {
    {NULL, NULL, NULL}
};
