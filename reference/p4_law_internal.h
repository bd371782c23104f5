/* p4_law_internal.h — what the two P'4 twins share (reference/p4_law.c,
 * optimized/p4_law_sparse.c) and a user does not call.  Not installed. */
#ifndef FL_P4_LAW_INTERNAL_H
#define FL_P4_LAW_INTERNAL_H

#include <gsl/gsl_vector.h>

#include "reference/p4_law.h"

/* The operator form of fl_p4_step shared by both implementations: the
 * step needs only x -> W x and x -> M x. */
typedef struct fl_p4_ops {
    void *ctx;
    fl_status (*solve)(void *ctx, const gsl_vector *b, gsl_vector *x); /* x = W b */
    fl_status (*mult)(void *ctx, const gsl_vector *x, gsl_vector *y);  /* y = M x */
} fl_p4_ops;
fl_status fl_p4_step_ops(const fl_p4_ops *ops, const fl_p4_problem *p,
                         const gsl_vector *v_minus, const gsl_vector *impulse,
                         const fl_p4_impact_law *law, const fl_p4_options *opt,
                         fl_p4_step_result *res, fl_error *err);

#endif
