/* registry.c — the tables of reproduce, crosscheck and bench tasks.
 * One line per task; keep the order in which a newcomer should read them. */
#include "registry.h"

#include <stddef.h>

#include "bench/bench.h"
#include "checks/fl_tasks.h"
#include "check_run.h"

/* One wrapper per task: runs it on an fl_check_ctx made from the command's
 * context (cli/check_run.c). */
#define FL_CLI_CHECK_TASK(fn) \
    static int cli_##fn(fl_cli_ctx *ctx) { return fl_cli_run_check(ctx, fn); }
FL_CLI_CHECK_TASK(fl_midpoint_reproduce_triangle)
FL_CLI_CHECK_TASK(fl_midpoint_reproduce_square_block)
FL_CLI_CHECK_TASK(fl_discs_reproduce_28)
FL_CLI_CHECK_TASK(fl_discs_reproduce_slope)
FL_CLI_CHECK_TASK(fl_moreau_reproduce_theorem1)
FL_CLI_CHECK_TASK(fl_nsgs_reproduce_wedged_rod)
FL_CLI_CHECK_TASK(fl_stewart_reproduce_painleve)
FL_CLI_CHECK_TASK(fl_p4_reproduce_painleve_set)
FL_CLI_CHECK_TASK(fl_p4_reproduce_painleve_catastrophe)
FL_CLI_CHECK_TASK(fl_p4_reproduce_painleve_grazing)
FL_CLI_CHECK_TASK(fl_p4_reproduce_painleve_p5_vs_p3)
FL_CLI_CHECK_TASK(fl_p4_reproduce_systems_1_2)
FL_CLI_CHECK_TASK(fl_p4_reproduce_kane)
FL_CLI_CHECK_TASK(fl_stability_reproduce_example_3_14)
FL_CLI_CHECK_TASK(fl_stability_reproduce_example_3_15)
FL_CLI_CHECK_TASK(fl_stability_reproduce_example_4_6)
FL_CLI_CHECK_TASK(fl_stability_reproduce_polyurethane)
FL_CLI_CHECK_TASK(fl_stability_reproduce_polyurethane_damping)
FL_CLI_CHECK_TASK(fl_midpoint_crosscheck)
FL_CLI_CHECK_TASK(fl_crosscheck_sets)
FL_CLI_CHECK_TASK(fl_moreau_crosscheck)
FL_CLI_CHECK_TASK(fl_nsgs_crosscheck)
FL_CLI_CHECK_TASK(fl_stewart_crosscheck)
FL_CLI_CHECK_TASK(fl_p4_crosscheck)
FL_CLI_CHECK_TASK(fl_stability_crosscheck)
FL_CLI_CHECK_TASK(fl_bench_midpoint)
FL_CLI_CHECK_TASK(fl_bench_nsgs)
FL_CLI_CHECK_TASK(fl_bench_discs)
FL_CLI_CHECK_TASK(fl_bench_moreau)
FL_CLI_CHECK_TASK(fl_bench_stability)
FL_CLI_CHECK_TASK(fl_bench_stewart)

const fl_cli_task fl_reproduce_tasks[] = {
    {"triangle_002", "002 §6 single triangle: branches S1-S5, regions sigma1-sigma5, dt bound of the redistribution", cli_fl_midpoint_reproduce_triangle},
    {"square_block_002", "002 §7 square block on a moving foundation: Figs. 7-8 (four situations), Table 2 convergence", cli_fl_midpoint_reproduce_square_block},
    {"discs_28", "003 §4 28 frictional discs at equilibrium: force clouds, cones, dimension 2 kappa - 3N", cli_fl_discs_reproduce_28},
    {"slope_355", "003 §5 355 discs flowing on a 24 deg slope: acceleration clouds, indeterminacy against time", cli_fl_discs_reproduce_slope},
    {"theorem1", "000 Theorem 1: asymptotic indeterminacy of Moreau's law on a rod", cli_fl_moreau_reproduce_theorem1},
    {"wedged_rod", "003 §2 rod wedged between converging walls: both outcomes, warm start", cli_fl_nsgs_reproduce_wedged_rod},
    {"painleve_p5", "001 §6.2 Painleve bar under Stewart P5: sliding, frictional catastrophe, indeterminacy", cli_fl_stewart_reproduce_painleve},
    {"painleve_set", "001 §6.2 Painleve friction set built by §6.1 vs closed form, both sides of mu = -1/tan(theta0)", cli_fl_p4_reproduce_painleve_set},
    {"painleve_catastrophe", "001 §6.2 P'3: tangential impact at t = 0 then rest (unbounded C*); sliding to rest (bounded C*)", cli_fl_p4_reproduce_painleve_catastrophe},
    {"painleve_grazing", "001 §6.2 P'3: grazing x = V0 t is the unique motion; the P5 stop is not in K_frict", cli_fl_p4_reproduce_painleve_grazing},
    {"painleve_p5_vs_p3", "001 §6.2 mu < -1/tan(theta0): P'3 and Stewart's P5 give the same motion", cli_fl_p4_reproduce_painleve_p5_vs_p3},
    {"systems_1_2", "001 §6.3 systems 1 and 2: P'4 reaction vanishes, the P6 family of wedged solutions", cli_fl_p4_reproduce_systems_1_2},
    {"kane", "001 §6.2 Kane's paradox: real-world Coulomb + Newton gains energy, P'4 does not", cli_fl_p4_reproduce_kane},
    {"example_3_14", "004 §3.5 Example 3.14: acceleration/reaction jumps (52) by enumeration vs Cases 1A, 1B, 2A, 2B", cli_fl_stability_reproduce_example_3_14},
    {"example_3_15", "004 §3.5 Example 3.15: K*, K*_S closed forms, threshold mu = 2 sqrt 2, no divergence", cli_fl_stability_reproduce_example_3_15},
    {"example_4_6", "004 §4 Example 4.6: steady sliding, flutter (sigma = -1) and divergence (sigma = +1) inequalities", cli_fl_stability_reproduce_example_4_6},
    {"polyurethane", "004 §5 polyurethane block: quasistatic loading, Table 1 rows (stick/slip, K*_S, M*^-1 K*, flutter)", cli_fl_stability_reproduce_polyurethane},
    {"polyurethane_damping", "004 §5.7 polyurethane block with Rayleigh damping: onset of low-order flutter vs xi (Figs. 18-19)", cli_fl_stability_reproduce_polyurethane_damping},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_crosscheck_tasks[] = {
    {"midpoint", "002: midpoint scheme ref vs sparse, Prop. 5.1, Lemma 4.1, redistribution (6), §6 branches", cli_fl_midpoint_crosscheck},
    {"sets", "friction sets: projections, support functions, Coulomb statements (001 §2.1, §3.2)", cli_fl_crosscheck_sets},
    {"moreau", "000 §2 Moreau's discrete contact law: Prop. 1, minimality, ref vs sparse", cli_fl_moreau_crosscheck},
    {"nsgs", "003 §3 / 004 (18)-(21): NSGS ref vs sparse, Lemma 2.4, clouds vs enumeration", cli_fl_nsgs_crosscheck},
    {"stewart", "001 §6.2 Stewart P5: Lemke vs enumeration, Coulomb on real-world impulses, Painleve bar", cli_fl_stewart_crosscheck},
    {"p4", "001 §3-§6 P'4: Prop. 5.1, splits, C1-C4, certificate, ref vs sparse, §6.1 sets, trajectories", cli_fl_p4_crosscheck},
    {"stability", "004 §3.3/§5.4: partition, (84), orderings (ii)-(iii), Cholesky vs eig, constrained min", cli_fl_stability_crosscheck},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_bench_tasks[] = {
    {"midpoint", "midpoint scheme (002): time per step, dense vs CHOLMOD, 1e2..1e5 dofs (dense stops at 1e4)", cli_fl_bench_midpoint},
    {"nsgs", "NSGS (003 §3): time per step and per sweep, dense vs CHOLMOD, 1e2..1e4 contacts, bandwidth bound", cli_fl_bench_nsgs},
    {"discs", "rigid discs (003 §5): time per step and per sweep vs N = 1e2..1e5, reference vs optimized, bandwidth bound", cli_fl_bench_discs},
    {"moreau", "Moreau's law S(q,v): dense reference vs CHOLMOD, d = 1e2..1e5", cli_fl_bench_moreau},
    {"stability", "004 §5.4 methods 2-3 (Cholesky, min eig K*_S): dense reference vs CHOLMOD, n = 1e2..4e4", cli_fl_bench_stability},
    {"stewart", "Stewart-Trinkle step (001 §6.2): dense reference vs CHOLMOD Delassus, n = 1e2..1e5", cli_fl_bench_stewart},
    {NULL, NULL, NULL}
};
