/* registry.c — the tables of reproduce, crosscheck and bench tasks.
 * One line per task; keep the order in which a newcomer should read them. */
#include "registry.h"

#include <stddef.h>

const fl_cli_task fl_reproduce_tasks[] = {
    {"wedged_rod", "003 §2 rod wedged between converging walls: both outcomes, warm start", fl_nsgs_reproduce_wedged_rod},
    {"painleve_p5", "001 §6.2 Painleve bar under Stewart P5: sliding, frictional catastrophe, indeterminacy", fl_stewart_reproduce_painleve},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_crosscheck_tasks[] = {
    {"nsgs", "003 §3 / 004 (18)-(21): NSGS ref vs sparse, Lemma 2.4, clouds vs enumeration", fl_nsgs_crosscheck},
    {"stewart", "001 §6.2 Stewart P5: Lemke vs enumeration, Coulomb on real-world impulses, Painleve bar", fl_stewart_crosscheck},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_bench_tasks[] = {
    {NULL, NULL, NULL}
};
