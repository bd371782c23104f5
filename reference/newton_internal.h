/* newton_internal.h — what the two Newton twins share (reference/newton.c,
 * optimized/newton_sparse.c; proofs/newton.md) and a user does not call.
 * Not installed. */
#ifndef FL_NEWTON_INTERNAL_H
#define FL_NEWTON_INTERNAL_H

#include <stddef.h>

#include "reference/newton.h"

/* Check options; FL_EINVAL with a message naming the field. */
fl_status fl_newton_check_options(const fl_newton_options *opt, fl_error *err);

/* The end of a solve: iterations, residual e, status (FL_OK above tol
 * becomes FL_WMAXITER), stop reason (kept when the loop set it to
 * STALLED), seconds since t0 (fl_clock_now). */
void fl_newton_finish(fl_newton_result *res, fl_status s, int it, double e, double t0,
                      const fl_newton_options *opt);

/* The regularisation of the r-block of J at a step (N6):
 * lambda = nu min(opt->reg_max, e), e the current natural-map error. */
double fl_newton_regularization(const fl_newton_options *opt, double nu, double e);

/* The Levenberg–Marquardt update of nu after a step (N6): x10 (<= 1e6) when
 * the line search failed (ok = 0), /10 (>= 1) after a full step t = 1. */
double fl_newton_next_nu(double nu, int ok, double t);

/* The stall test (newton.h stall_steps): the reference error and its step,
 * {e0, 0} at the start; fl_newton_stalled is 1 when the solve must stop. */
typedef struct fl_newton_stall {
    double e_ref;
    int it_ref;
} fl_newton_stall;
int fl_newton_stalled(const fl_newton_options *opt, fl_newton_stall *st, int it, double e);

/* psi = |Phi|^2 / 2 over all contacts (phi may be NULL). */
double fl_newton_merit(int dim, size_t nc, const double *mu, const double *rho,
                       const double *r, const double *U, double *phi);

/* Time left of opt->time_limit since t0 (0: no limit; >= 1e-9 once spent). */
double fl_newton_time_left(const fl_newton_options *opt, double t0);

/* 1 when opt->time_limit > 0 and that much wall time passed since t0. */
int fl_newton_timed_out(const fl_newton_options *opt, double t0);

#endif
