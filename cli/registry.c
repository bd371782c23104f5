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
FL_CLI_CHECK_TASK(fl_sets_crosscheck)
FL_CLI_CHECK_TASK(fl_moreau_crosscheck)
FL_CLI_CHECK_TASK(fl_nsgs_crosscheck)
FL_CLI_CHECK_TASK(fl_newton_crosscheck)
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
    {"sets", "friction sets: projections, support functions, Coulomb statements (001 §2.1, §3.2)", cli_fl_sets_crosscheck},
    {"moreau", "000 §2 Moreau's discrete contact law: Prop. 1, minimality, ref vs sparse", cli_fl_moreau_crosscheck},
    {"nsgs", "003 §3 / 004 (18)-(21): NSGS ref vs sparse, Lemma 2.4, clouds vs enumeration", cli_fl_nsgs_crosscheck},
    {"newton", "Alart-Curnier semismooth Newton and GS twins: law at tol, enumeration oracle, global without W, same refusals", cli_fl_newton_crosscheck},
    {"stewart", "001 §6.2 Stewart P5: Lemke vs enumeration, Coulomb on real-world impulses, Painleve bar", cli_fl_stewart_crosscheck},
    {"p4", "001 §3-§6 P'4: Prop. 5.1, splits, C1-C4, certificate, ref vs sparse, §6.1 sets, trajectories", cli_fl_p4_crosscheck},
    {"stability", "004 §3.3/§5.4: partition, (84), orderings (ii)-(iii), Cholesky vs eig, constrained min", cli_fl_stability_crosscheck},
    {NULL, NULL, NULL}
};

const fl_cli_task fl_bench_tasks[] = {
    {"midpoint", "midpoint scheme (002): time per step, dense vs CHOLMOD, 1e2..1e5 dofs (dense stops at 1e4)", cli_fl_bench_midpoint},
    {"nsgs", "NSGS (003 §3): time per step and per sweep, dense vs CHOLMOD, 1e2..1e5 contacts, bandwidth bound, coloured sweep speed-up", cli_fl_bench_nsgs},
    {"discs", "rigid discs (003 §5): time per step and per sweep vs N = 1e2..1e5, reference vs optimized, bandwidth bound", cli_fl_bench_discs},
    {"moreau", "Moreau's law S(q,v): dense reference vs CHOLMOD, d = 1e2..1e5", cli_fl_bench_moreau},
    {"stability", "004 §5.4 methods 2-3 (Cholesky, min eig K*_S): dense reference vs CHOLMOD, n = 1e2..4e4", cli_fl_bench_stability},
    {"stewart", "Stewart-Trinkle step (001 §6.2): dense reference vs CHOLMOD Delassus, n = 1e2..1e5", cli_fl_bench_stewart},
    {NULL, NULL, NULL}
};

/* The paper each reproduce task reproduces, its parameter file and the
 * paper figure each of its PNG files reproduces (report.html, results.json).
 * Files go to out/<paper id>/<task>/. */
const fl_cli_task_info fl_reproduce_info[] = {
    {"triangle_002", "002 §6 single triangle", "data/002/triangle_002.json",
     {{"triangle_002_fig3_F_below_c_over_b.png", "002 Fig. 3 (structure of the solution, F in (0, c/b))"},
      {"triangle_002_fig4_F_above_c_over_b.png", "002 Fig. 4 (structure of the solution, F > c/b)"},
      {"triangle_002_fig5_F_equal_c_over_b.png", "002 Fig. 5 (structure of the solution, F = c/b)"},
      {NULL, NULL}}},
    {"square_block_002", "002 §7 square block, Figs. 7-10, Table 2", "data/002/square_block_002.json",
     {{"square_block_002_fig7.png", "002 Fig. 7 (evolution of the energy, four situations)"},
      {"square_block_002_fig8.png", "002 Fig. 8 (total energy minus the energy transferred by friction)"},
      {"square_block_002_table2.png", "002 Fig. 9 and Table 2 (convergence, partial mass redistribution)"},
      {"square_block_002_table2_orders.png", "002 Fig. 9: fitted orders of the errors over [0, t] (proofs/convergence_002.md)"},
      {"square_block_002_fig10_friction_at_origin.png", "002 Fig. 10 (friction force density at (0, 0))"},
      {NULL, NULL}}},
    {"discs_28", "003 §4 Fig. 2 (28 discs at equilibrium)", "data/003/discs_28.json",
     {{"discs_28_clouds.png", "003 Fig. 2 (contact force indeterminacy)"}, {NULL, NULL}}},
    {"slope_355", "003 §5 Figs. 3-5 (355 discs on a 24° slope)", "data/003/discs_355.json",
     {{"slope_355_acc_step11.png", "003 Fig. 4 (acceleration vector indeterminacy at t = .00044)"},
      {"slope_355_acc_step121.png", "003 Fig. 5 (acceleration vector indeterminacy at t = .00484)"},
      {"slope_355_range.png", "003 §5 text: indeterminacy against time (no figure in the paper)"},
      {NULL, NULL}}},
    {"theorem1", "000 §3 Theorem 1", "data/000/theorem1_rod.json",
     {{"theorem1_hausdorff.png", "000 Theorem 1: Hausdorff distance against eps (no figure in the paper)"},
      {NULL, NULL}}},
    {"wedged_rod", "003 §2 Fig. 1 (rod wedged between converging walls)", "data/003/wedged_rod.json",
     {{"wedged_rod_forces.png", "003 Fig. 1 setting: contact forces of the wedged rod against time"},
      {NULL, NULL}}},
    {"painleve_p5", "001 §6.2 Painlevé bar under Stewart's P5", "data/001/painleve_p5.json",
     {{"painleve_p5.png", "001 §6.2, Fig. 1 system: the Painlevé bar under P5"}, {NULL, NULL}}},
    {"painleve_set", "001 §6.2 friction set of the Painlevé bar", "data/001/painleve_set.json",
     {{"painleve_set.png", "001 §6.2: friction set C* built by §6.1 vs closed form"}, {NULL, NULL}}},
    {"painleve_catastrophe", "001 §6.2 frictional catastrophe under P'3", "data/001/painleve_catastrophe.json",
     {{"painleve_catastrophe.png", "001 §6.2: tangential impact then rest, and sliding to rest"}, {NULL, NULL}}},
    {"painleve_grazing", "001 §6.2 grazing motion under P'3", "data/001/painleve_grazing.json",
     {{NULL, NULL}}},
    {"painleve_p5_vs_p3", "001 §6.2 P'3 and P5 agree for mu < -1/tan(theta0)", "data/001/painleve_p5_vs_p3.json",
     {{"painleve_p5_vs_p3.png", "001 §6.2: the same motion under P'3 and P5"}, {NULL, NULL}}},
    {"systems_1_2", "001 §6.3 systems 1 and 2 (Fig. 2)", "data/001/systems_1_2.json",
     {{"systems_1_p6_family.png", "001 §6.3, Fig. 2 system 1: the P6 family of wedged solutions"}, {NULL, NULL}}},
    {"kane", "001 §6.2 Kane's paradox", "data/001/kane.json", {{NULL, NULL}}},
    {"example_3_14", "004 §3.5 Example 3.14 (Figs. 3-6)", "data/004/example_3_14.json",
     {{"example_3_14_fig6.png", "004 Fig. 6 (theta_M where M_TT + mu M_NT = 0: infinitely many smooth evolutions after a jump)"},
      {NULL, NULL}}},
    {"example_3_15", "004 §3.5 Example 3.15", "data/004/example_3_15.json",
     {{"example_3_15.png", "004 §3.5 Example 3.15: min eig of K*_S against mu (threshold 2 sqrt 2)"},
      {NULL, NULL}}},
    {"example_4_6", "004 §4 Example 4.6 (Figs. 8-10)", "data/004/example_4_6.json",
     {{"example_4_6_fig9.png", "004 Fig. 9 (phase plane of the tangential displacement and velocity of the pin)"},
      {"example_4_6_fig10.png", "004 Fig. 10 (phase plane of the normal displacement and velocity of the pin)"},
      {NULL, NULL}}},
    {"polyurethane", "004 §5 polyurethane block, Table 1", "data/004/polyurethane.json",
     {{"polyurethane_table1.png", "004 Table 1 (min eig K*_S and min real Lambda of M*^-1 K* against U_T, ours beside the paper's)"},
      {"polyurethane_fig15.png", "004 Fig. 15 (numerical total tangential force)"},
      {NULL, NULL}}},
    {"polyurethane_damping", "004 §5.7 polyurethane block with Rayleigh damping (Figs. 18-19)",
     "data/004/polyurethane.json",
     {{"polyurethane_fig18.png", "004 Fig. 18 (frequency dependence of the damping ratios)"},
      {"polyurethane_fig19.png", "004 Fig. 19 (prescribed U_T at which low-order flutter occurs, per damping level)"},
      {NULL, NULL}}},
    {NULL, NULL, NULL, {{NULL, NULL}}}
};

/* The source papers, cited in full (report.html headings). */
const fl_cli_paper fl_cli_papers[] = {
    {"000", "Asymptotic properties of Moreau's discrete contact law (Contact Dynamics time "
            "stepping, one unilateral constraint, Coulomb friction)"},
    {"001", "A. Charles, P. Ballard, The formulation of dynamical contact problems with friction "
            "in the case of systems of rigid bodies and general discrete mechanical systems - "
            "Painlevé and Kane paradoxes revisited, Zeitschrift für Angewandte Mathematik und Physik 67 (4) (2016)"},
    {"002", "T. Ligurský, Y. Renard, A well-posed semi-discretization of elastodynamic contact "
            "problems with friction, Quarterly Journal of Mechanics and Applied Mathematics 64 (2) "
            "(2011) 215-238"},
    {"003", "J. J. Moreau, Facing the plurality of solutions in nonsmooth mechanics, "
            "Nonsmooth/Nonconvex Mechanics with Applications in Engineering, Thessaloniki (2006) 3-12"},
    {"004", "J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa, Dynamic stability of "
            "finite dimensional linearly elastic systems with unilateral contact and Coulomb "
            "friction, Computer Methods in Applied Mechanics and Engineering 177 (3-4) (1999) 289-328"},
    {NULL, NULL}
};
