/* nsgs_internal.h — what the two Gauss–Seidel twins share (reference/nsgs.c,
 * optimized/nsgs_sparse.c) and a user does not call.  Not installed. */
#ifndef FL_NSGS_INTERNAL_H
#define FL_NSGS_INTERNAL_H

#include <stddef.h>
#include <gsl/gsl_vector.h>

#include "reference/nsgs.h"

/* Shared by both implementations: check options against p, set the
 * initial r according to opt->start and fill perm (length nc) with the
 * review order. */
fl_status fl_nsgs_prepare(const fl_local_problem *p, const fl_nsgs_options *opt,
                          gsl_vector *r, size_t *perm, fl_error *err);

/* Relaxed update of one contact: r_a <- P_K((1-omega) r_a + omega rloc). */
void fl_nsgs_relax(int dim, double mu, double omega, const double *rloc, double *ra);

/* The verdict of fl_nsgs_check_blocks on contact a (both twins): W_aa its
 * diagonal block (row-major), normal_row_zero 1 if row dim a of W has no
 * nonzero entry, qN = q_{dim a}. */
fl_status fl_nsgs_block_verdict(int dim, size_t a, const double *Waa, int normal_row_zero,
                                double qN, fl_error *err);

/* Time-limit bookkeeping of both twins (fl_nsgs_options.time_limit). */
int fl_nsgs_timed_out(const fl_nsgs_options *opt, double t0);

#endif
