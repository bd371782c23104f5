/* discs_step.h — Contact Dynamics steps of the rigid discs of
 * reference/discs.h (003 §3–§5) through a chosen implementation.
 *
 * The implementation table (as GSL's solver types): fl_discs_reference
 * (all-pairs detection fl_discs_detect, dense M, H, W = fl_delassus_dense,
 * fl_nsgs_solve) and fl_discs_optimized (cell lists fl_discs_detect_cells,
 * CHOLMOD H and W = fl_discs_delassus_diag, fl_nsgs_solve_sparse).  Both
 * use the same contact order, so their results agree up to rounding.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_DISCS_STEP_H
#define FL_DISCS_STEP_H

#include <gsl/gsl_rng.h>

#include "drivers/fl_types.h"
#include "reference/discs.h"
#include "optimized/nsgs_colored.h"

typedef struct fl_discs_impl {
    const char *name;        /* "reference" or "optimized" */
    int dense;               /* dense M, H, W (1) or CHOLMOD ones on the work's context (0) */
    fl_status (*detect)(const fl_discs *d, fl_disc_contact **out, size_t *nc, fl_error *err);
    fl_status (*delassus)(const fl_discs *d, const fl_global_problem *g,
                          fl_local_problem **out, fl_error *err);
    fl_nsgs_solve_fn solve;
} fl_discs_impl;

extern const fl_discs_impl *const fl_discs_reference;
extern const fl_discs_impl *const fl_discs_optimized;
/* The table entry of impl, NULL for an unknown value. */
const fl_discs_impl *fl_discs_impl_get(fl_impl impl);

typedef struct fl_discs_step_options {
    double h;                /* time step, > 0 */
    fl_impl impl;            /* reference or optimized (fl_discs_impl_get) */
    int warm;                /* warm start from the previous step's impulses (003 §3) */
    fl_nsgs_options nsgs;    /* Gauss–Seidel options (start is set from warm) */
} fl_discs_step_options;

typedef struct fl_discs_step_result {
    fl_status status;
    int iterations;
    double residual;
    double seconds, solve_seconds;
    double detect_seconds;   /* detection, assembly of H and the Delassus operator */
    size_t ncontacts;        /* detected */
    size_t nactive;          /* s_N > 0 */
    size_t nsticking;        /* s_N > 0 and zero sliding |U_T| <= stick_tol */
} fl_discs_step_result;

fl_discs_step_options fl_discs_step_options_default(void);

/* Work space carried from step to step: the previous contacts and impulses
 * (warm start) and the CHOLMOD context.  L is not used by the steps (M is
 * diagonal: fl_discs_delassus_diag needs no factor); it is freed if set. */
typedef struct fl_discs_work {
    fl_disc_contact *c;      /* contacts of the last step */
    size_t nc;
    double *s;               /* impulses of the last step (length 2 nc) */
    fl_sparse_ctx ctx;
    cholmod_factor *L;
    int started;
    fl_nsgs_colored_cache cache;   /* optimized steps: the Gauss–Seidel setup (transpose,
                                      colouring, layout) kept while the contact set and
                                      so the pattern of W stay (optimized/nsgs_colored.h) */
} fl_discs_work;

fl_status fl_discs_work_init(fl_discs_work *w, fl_error *err);
void fl_discs_work_clear(fl_discs_work *w);

/* The local problem of the step at the current state of d (detection,
 * global problem, Delassus) without solving it: *c, *nc as fl_discs_detect,
 * *p a new local problem (dense W or sparse W on work->ctx).  *p is NULL
 * when there is no contact. */
fl_status fl_discs_local(const fl_discs *d, const fl_discs_step_options *opt,
                         fl_discs_work *work, fl_disc_contact **c, size_t *nc,
                         fl_local_problem **p, fl_error *err);

/* One Contact Dynamics step (003 §3): detection, solve, q_f = q_i + h u_f,
 * periodic wrap.  work->c / work->s receive the step's contacts and
 * impulses.  Zero sliding: |U_T| <= max(1e-9 (1 + max |U|), 10 tol |q|), tol the
 * Gauss–Seidel tolerance (its natural-map error bounds the error of U_T). */
fl_status fl_discs_step(fl_discs *d, const fl_discs_step_options *opt, fl_discs_work *work,
                        fl_discs_step_result *res, fl_error *err);

/* Deposition under gravity (generator of packings): the N discs of d (radii,
 * masses set by the caller) are placed on a loose grid above the ground
 * (spacing 2.2 max R, rows filled left to right across the walls or the
 * band, random jitter of 0.05 max R from rng), then steps of opt are run
 * until the largest speed is below v_tol or max_steps is reached.
 * Requires the ground and walls or a periodic band.  *steps: steps done. */
fl_status fl_discs_deposit(fl_discs *d, const fl_discs_step_options *opt, gsl_rng *rng,
                           int max_steps, double v_tol, int *steps, fl_error *err);

#endif
