/* moreau_checks.h — the one harness that runs Moreau's discrete contact law
 * (000 §2) in both implementations on random systems, and the constructed
 * reproduction of Theorem 1 (000 §3) on the rod of
 * models/fl_model_theorem1_rod.h.  Used by
 * `frictionlab crosscheck --law moreau`, `frictionlab reproduce theorem1`
 * and the Criterion tests (tests/test_moreau_law.c, tests/test_asymptotics.c).
 *
 * Paper 000: "Asymptotic properties of Moreau's discrete contact law"
 * (the copy worked from carries neither authors nor journal).
 */
#ifndef FL_MOREAU_CHECKS_H
#define FL_MOREAU_CHECKS_H

#include <gsl/gsl_rng.h>

#include "checks/fl_check.h"
#include "reference/asymptotics.h"
#include "reference/moreau_law.h"

/* Maximum normalised violations over the random systems, for one
 * implementation (proofs/README.md normalisation by
 * s = |M u_i| + h |f| + |M v|). */
typedef struct fl_moreau_harness_impl {
    long runs;           /* systems evaluated */
    long collisions;     /* collision branches */
    long errors;         /* unexpected error statuses */
    long unsupported;    /* FL_EUNSUPPORTED (sparse, isotropic d > 64) */
    long not_v;          /* non-collision branch with u != v (bitwise) */
    double cone;         /* r in R(q): distance to R(q) / s */
    double dissip;       /* max(0, <u, r>) / (s |v|) */
    double norm_bound;   /* (|u|_q - |u_i|_q - h |M^-1/2| |f|) / bound */
    double proj_norm;    /* collision: (|u|_q - |v|_q) / |v|_q */
    double normal;       /* collision: |<u, n>| / |v| */
    double frictionless; /* |u - closed form| / |v|, frictionless systems */
    long frictionless_n;
    double brute_lower;  /* (|u|_q - min over samples of the feasible set) / |v|_q */
    double brute_gap;    /* (min over samples - |u|_q) / |v|_q, k <= 2 only */
    long brute_n;
    double residual;     /* largest optimality residual the law returned */
    unsigned long worst_system[5]; /* seeds of the worst cone/dissip/norm/brute/gap */
} fl_moreau_harness_impl;

typedef struct fl_moreau_harness_stats {
    long systems;                     /* asked for, drawn or not (runs < systems: some not drawn) */
    fl_moreau_harness_impl impl[2];   /* 0 reference, 1 optimized (sparse) */
    double agree;                     /* max |u_ref - u_opt| / |v| */
    long agree_n;
} fl_moreau_harness_stats;

/* Draw `nsys` random systems from `seed` (system i uses the generator seeded
 * with seed + i and the kind i mod 6, so a failure is reproducible) and run every check on both
 * implementations.  progress (may be NULL) is called every system. */
int fl_moreau_harness_run(unsigned long seed, long nsys, fl_moreau_harness_stats *out,
                          void (*progress)(void *data, long done, long total), void *pdata);

/* The PASS/FAIL lines of `frictionlab crosscheck --law moreau` from the
 * statistics of fl_moreau_harness_run (so a test can feed it corrupted
 * statistics and see each check fail). */
void fl_moreau_crosscheck_report(fl_check_ctx *ctx, const fl_moreau_harness_stats *st);

#endif
