/* fl_model_discs.h — the disc packings of 003 §4-5 (J. J. Moreau, Facing
 * the plurality of solutions in nonsmooth mechanics, 2006), built from
 * data/003/discs_28.json and data/003/discs_355.json.
 *
 * discs_28 (003 §4, Fig. 2): N rigid discs of random radius in [R_min,
 * R_max] (density rho) dropped under gravity g into a box of the given
 * width with a ground, friction mu_grain between grains and mu_wall with
 * the box.  discs_355 (003 §5, Figs. 3-5): N discs in a periodic band of
 * width 2a on a ground, grains mu_grain, ground mu_ground, restitution e;
 * deposited under vertical gravity, then the gravity is tilted by
 * slope_deg.  Every number (sizes, steps, solver tolerances of the run,
 * the paper's contact counts of 003 §5) comes from the file; what 003 does
 * not give is chosen and documented in data/003/README-discs.md.
 *
 * The counts (N, seed, steps, runs, sweeps) are whole numbers held as
 * doubles, as read.  Ownership: plain values; fl_discs built are the
 * caller's (fl_discs_free).
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_MODEL_DISCS_H
#define FL_MODEL_DISCS_H

#include <gsl/gsl_rng.h>

#include "fl_status.h"
#include "reference/discs.h"

typedef struct fl_model_discs_28 {
    double N, R_min, R_max, rho, g, width, mu_grain, mu_wall, seed, h_deposit,
        deposit_steps, v_tol, h, touch_tol, margin, runs, runs_quick, gs_tol, gs_sweeps;
} fl_model_discs_28;

typedef struct fl_model_discs_355 {
    double N, R_min, R_max, rho, g, slope_deg, a, mu_grain, mu_ground, e, seed, h_deposit,
        deposit_steps, deposit_steps_quick, margin_deposit, h, margin, steps, steps_quick, runs,
        runs_quick, gs_tol, gs_sweeps, step_gs_tol;
    /* 003 §5 at the instants of Figs. 4 and 5 (steps 11 and 121), in the
     * paper's own packing: contacts and zero-sliding fractions, and the
     * tolerances of the comparison (expected.rows of the file) */
    double paper_contacts[2], paper_zero_sliding[2], contacts_rtol, zero_sliding_atol;
} fl_model_discs_355;

/* Read the parameter files.  Lengths, densities, g, time steps, tolerances
 * > 0; friction >= 0; restitution in [0, 1]; R_min <= R_max; counts whole
 * numbers >= 1 (seed >= 0).  FL_EPARSE / FL_EINVAL naming file and field. */
fl_status fl_model_discs_28_load(const char *path, fl_model_discs_28 *m, fl_error *err);
fl_status fl_model_discs_355_load(const char *path, fl_model_discs_355 *m, fl_error *err);

/* The discs before deposition: radii drawn from rng (uniform in [R_min,
 * R_max]), centres at the origin (fl_discs_deposit places them), the
 * obstacles, friction, margin (355: margin_deposit) and the deposition
 * gravity (vertical). */
fl_status fl_model_discs_28_build(const fl_model_discs_28 *m, gsl_rng *rng, fl_discs **out, fl_error *err);
fl_status fl_model_discs_355_build(const fl_model_discs_355 *m, gsl_rng *rng, fl_discs **out, fl_error *err);

#endif
