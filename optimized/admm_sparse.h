/* admm_sparse.h — sparse twin of reference/admm.h: the ADMM for frictional
 * contact in the De Saxcé form (Acary, Brémond & Huber 2018; Siconos
 * numerics' FC3D_ADMM parameter rules; proofs/admm.md) with
 * (W + W^T)/2 + rho I held in CSC upper storage (the pattern of W plus its
 * diagonal, built once per solve, analysed once; only the diagonal values
 * change with rho) and factorised by CHOLMOD.  Same options, result,
 * parameter rules, stopping test and refusals as the reference; the twins
 * share the iteration (reference/admm_internal.h). */
#ifndef FL_ADMM_SPARSE_H
#define FL_ADMM_SPARSE_H

#include "reference/admm.h"

/* Local problem with sparse W (p->Ws, full storage as fl_problem.h says). */
fl_status fl_admm_solve_sparse(const fl_local_problem *p, const fl_admm_options *opt,
                               gsl_vector *r, gsl_vector *U, fl_admm_result *res,
                               fl_error *err);

#endif
