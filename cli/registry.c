/* registry.c — the tables of reproduce, crosscheck and bench tasks.
 * One line per task; keep the order in which a newcomer should read them. */
#include "registry.h"

#include <stddef.h>

const fl_cli_task fl_reproduce_tasks[] = {
    {"theorem1", "000 Theorem 1: asymptotic indeterminacy of Moreau's law on a rod", fl_moreau_reproduce_theorem1},
    {"wedged_rod", "003 §2 rod wedged between converging walls: both outcomes, warm start", fl_nsgs_reproduce_wedged_rod},
    {"painleve_p5", "001 §6.2 Painleve bar under Stewart P5: sliding, frictional catastrophe, indeterminacy", fl_stewart_reproduce_painleve},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_crosscheck_tasks[] = {
    {"moreau", "000 §2 Moreau's discrete contact law: Prop. 1, minimality, ref vs sparse", fl_moreau_crosscheck},
    {"nsgs", "003 §3 / 004 (18)-(21): NSGS ref vs sparse, Lemma 2.4, clouds vs enumeration", fl_nsgs_crosscheck},
    {"stewart", "001 §6.2 Stewart P5: Lemke vs enumeration, Coulomb on real-world impulses, Painleve bar", fl_stewart_crosscheck},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_bench_tasks[] = {
    {"moreau", "Moreau's law S(q,v): dense reference vs CHOLMOD, d = 1e2..1e5", fl_bench_moreau},
    {NULL, NULL, NULL}
};
