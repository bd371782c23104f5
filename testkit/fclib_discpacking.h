/* fclib_discpacking.h — 2D frictional local problems of real disc
 * packings from our granular engine (reference/discs.h, 003 §4-5, public
 * API only), shared by bench/bench_fclib_siconos.c, bench/bench_solvers.c,
 * bench/bench_discs.c (the lattice alone) and the crosscheck `discs` family
 * (checks/xval_families.c).  Header-only as testkit/fclib_feblock.h, static
 * inline so that a file may use one of the two functions.  Returns NULL on
 * failure (or when the packing has no contact).
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_FCLIB_DISCPACKING_H
#define FL_FCLIB_DISCPACKING_H

#include <math.h>
#include <gsl/gsl_rng.h>

#include "fl_problem.h"
#include "drivers/discs_step.h"
#include "fl_scalar.h"

/* N discs of radius in [0.98, 1] on a triangular lattice of spacing 2 in a
 * periodic band of `cols` columns (0: ceil(sqrt(N)); at least 8; tall when
 * N / cols is large) on the ground under gravity (slope 24 degrees, mu 0.3
 * grain-grain, 0.5 ground); NULL when the allocation fails.  Also the
 * packings of bench/bench_discs.c and the stacks of bench/hard_problems.c. */
static inline fl_discs *fl_discpacking_lattice_cols(gsl_rng *rng, size_t N, size_t cols)
{
    fl_discs *d = NULL;
    if (fl_discs_alloc(N, &d, NULL) != FL_OK) return NULL;
    if (cols == 0) cols = (size_t)ceil(sqrt((double)N));
    if (cols < 8) cols = 8;
    d->periodic = 1;
    d->a = (double)cols;   /* band 2a = 2 cols: spacing 2 */
    d->ground = 1;
    d->margin = 0.1;
    d->touch_tol = 0.05;
    d->mu_grain = 0.3;
    d->mu_wall = 0.5;
    d->gx = 9.81 * sin(24 * FL_PI / 180);
    d->gy = -9.81 * cos(24 * FL_PI / 180);
    for (size_t i = 0; i < N; i++) {
        size_t row = i / cols, col = i % cols;
        double x = -d->a + 1 + 2.0 * (double)col + (row % 2 ? 1.0 : 0.0);
        if (x >= d->a) x -= 2 * d->a;
        fl_discs_set(d, i, x, 1 + sqrt(3.0) * (double)row, 0.98 + 0.02 * gsl_rng_uniform(rng), 1);
    }
    return d;
}

/* fl_discpacking_lattice_cols with its default band, ceil(sqrt(N)) columns. */
static inline fl_discs *fl_discpacking_lattice(gsl_rng *rng, size_t N)
{
    return fl_discpacking_lattice_cols(rng, N, 0);
}

/* The local problem of one Contact Dynamics step (fl_discs_local, h = 1e-3,
 * sparse W) of fl_discpacking_lattice(rng, N); the step's local problem on
 * work->ctx.  *d, *c owned by the caller. */
static inline fl_local_problem *fl_discpacking_problem(gsl_rng *rng, size_t N, fl_discs_work *work,
                                                       fl_discs **dout, fl_disc_contact **c)
{
    fl_discs *d = fl_discpacking_lattice(rng, N);
    *dout = d;
    if (!d) return NULL;
    fl_discs_step_options o = fl_discs_step_options_default();
    o.h = 1e-3;
    o.impl = FL_IMPL_OPTIMIZED;
    size_t nc = 0;
    fl_local_problem *p = NULL;
    if (fl_discs_local(d, &o, work, c, &nc, &p, NULL) != FL_OK) return NULL;
    return p;
}

#endif
