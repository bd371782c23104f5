/* admm_internal.h — what the two ADMM twins share (reference/admm.c,
 * optimized/admm_sparse.c; proofs/admm.md) and a user does not call: the
 * option and start checks and the iteration of admm.h, which each twin runs
 * with its own factorisation of (W + W^T)/2 + rho I and its own product
 * U = W z + q.  Not installed. */
#ifndef FL_ADMM_INTERNAL_H
#define FL_ADMM_INTERNAL_H

#include <stddef.h>

#include "reference/admm.h"

/* Check options; FL_EINVAL with a message naming the field. */
fl_status fl_admm_check_options(const fl_admm_options *opt, fl_error *err);

/* The checks of r and U (lengths, contiguous) and the starting point (zero,
 * or the finite warm start projected on the cones), the same in both twins. */
fl_status fl_admm_check_start(const fl_local_problem *p, const fl_admm_options *opt,
                              gsl_vector *r, const gsl_vector *U, fl_error *err);

/* One twin as the iteration sees it. */
typedef struct fl_admm_twin {
    double norm1;   /* ||W||_1, the largest column sum of |W| (A3) */
    /* factorise (W + W^T)/2 + rho I; FL_ENOTSPD when it is not positive definite */
    fl_status (*factor)(void *data, double rho, fl_error *err);
    /* x = ((W + W^T)/2 + rho I)^-1 b with the last factor; x may equal b */
    fl_status (*solve)(void *data, const double *b, double *x, fl_error *err);
    /* U = W z + q (the original W) */
    fl_status (*velocity)(void *data, const double *z, double *U, fl_error *err);
    void *data;
} fl_admm_twin;

/* The iteration of admm.h from the checked start r: fills res (status,
 * stop, counts, residual, seconds since t0), writes U = W r + q when U is
 * not NULL and the status is not an error, returns res->status. */
fl_status fl_admm_iterate(const fl_local_problem *p, const fl_admm_options *opt,
                          fl_admm_twin *tw, gsl_vector *r, gsl_vector *U, fl_admm_result *res,
                          double t0, fl_error *err);

#endif
