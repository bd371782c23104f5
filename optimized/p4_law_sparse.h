/* p4_law_sparse.h — the sparse twin of fl_p4_step (reference/p4_law.h).
 * Declared here, in the optimized layer, so that only optimized/ and the
 * layers above it (drivers/, checks/, cli/, bench/, tests/) see the sparse
 * twins. */
#ifndef FL_P4_LAW_SPARSE_H
#define FL_P4_LAW_SPARSE_H

#include "reference/p4_law.h"

/* ---- optimized (optimized/p4_law_sparse.c): same signature and result,
 * reads p->Ms and p->sctx (factor once per call, reused for every solve). */
fl_status fl_p4_step_sparse(const fl_p4_problem *p, const gsl_vector *v_minus,
                            const gsl_vector *impulse, const fl_p4_impact_law *law,
                            const fl_p4_options *opt, fl_p4_step_result *res,
                            fl_error *err);

#endif
