/* ppa_internal.h — what the two proximal-point twins share
 * (reference/ppa.c, optimized/ppa_sparse.c; proofs/ppa.md) and a user does
 * not call: the option checks, the proximal-weight rule (P3) and the outer
 * loop, which each twin runs with its own regularised problem and its own
 * Newton twin as the inner solver.  Not installed. */
#ifndef FL_PPA_INTERNAL_H
#define FL_PPA_INTERNAL_H

#include <stddef.h>

#include "reference/newton.h"
#include "reference/nsgs.h"
#include "reference/ppa.h"

/* Check options; FL_EINVAL with a message naming the field. */
fl_status fl_ppa_check_options(const fl_ppa_options *opt, fl_error *err);

/* The checks of r and U (lengths, contiguous) and the starting point (zero,
 * or the finite warm start projected on the cones), the same in both twins. */
fl_status fl_ppa_check_start(const fl_local_problem *p, const fl_ppa_options *opt,
                             gsl_vector *r, const gsl_vector *U, fl_error *err);

/* The proximal weight (P3) after a solved subproblem (and at the start):
 * s_W eta_fixed if eta_fixed > 0, else s_W sigma e^nu. */
double fl_ppa_eta(const fl_ppa_options *opt, double s_W, double e);

/* One twin as the outer loop sees it: the regularised problem `reg`
 * (same nc, dim, mu as the original; its W is W + eta I after set_eta, its
 * q is written by the loop), the scale s_W, and the inner Newton twin. */
typedef struct fl_ppa_twin {
    fl_local_problem *reg;
    double s_W;
    void (*set_eta)(void *data, double eta);   /* W_k = W + eta I */
    void *data;
    fl_status (*inner)(const fl_local_problem *p, const fl_newton_options *opt, gsl_vector *r,
                       gsl_vector *U, fl_newton_result *res, fl_error *err);
    /* the Gauss–Seidel twin of the same storage: the subproblem's second
     * solver when Newton fails (opt->inner_gs_sweeps) */
    fl_status (*gs)(const fl_local_problem *p, const fl_nsgs_options *opt, gsl_vector *r,
                    gsl_vector *U, fl_nsgs_result *res, fl_error *err);
} fl_ppa_twin;

/* The outer loop of ppa.h from the checked start r: fills res (status,
 * stop, counts, residual, seconds since t0), writes U = W r + q when U is
 * not NULL and the status is not an error, returns res->status. */
fl_status fl_ppa_outer(const fl_local_problem *p, const fl_ppa_options *opt, fl_ppa_twin *tw,
                       gsl_vector *r, gsl_vector *U, fl_ppa_result *res, double t0,
                       fl_error *err);

#endif
