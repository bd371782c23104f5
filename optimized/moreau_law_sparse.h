/* moreau_law_sparse.h — the sparse twin of fl_moreau_law (reference/moreau_law.h).
 * Declared here, in the optimized layer, so that only optimized/ and the
 * layers above it (drivers/, checks/, cli/, bench/, tests/) see the sparse
 * twins. */
#ifndef FL_MOREAU_LAW_SPARSE_H
#define FL_MOREAU_LAW_SPARSE_H

#include "reference/moreau_law.h"

/* The sparse law handles the isotropic ball (local problem of size d) up to
 * this dimension and returns FL_EUNSUPPORTED above. */
#define FL_MOREAU_SPARSE_BALL_MAX 64
fl_status fl_moreau_law_sparse(const fl_moreau_problem *p, const fl_moreau_options *opt,
                               gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                               fl_error *err);

#endif
