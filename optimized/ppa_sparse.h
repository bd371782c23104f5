/* ppa_sparse.h — sparse twin of reference/ppa.h: the proximal-point method
 * for frictional contact (Acary, Brémond & Huber 2018; Siconos numerics'
 * FC3D_PROX parameter rule; proofs/ppa.md) with W + eta I held in CSC
 * storage (the pattern of W plus its diagonal, built once per solve; only
 * the diagonal values change with eta) and the sparse Newton twin
 * (fl_newton_solve_sparse, UMFPACK) as the inner solver.  Same options,
 * result, parameter rules, stopping test and refusals as the reference;
 * the twins share the outer loop (reference/ppa_internal.h), not the inner
 * iterates: each answer meets the tolerance on the original problem and
 * they agree where the solution is unique (tests/test_ppa.c). */
#ifndef FL_PPA_SPARSE_H
#define FL_PPA_SPARSE_H

#include "reference/ppa.h"

/* Local problem with sparse W (p->Ws; need not be symmetric). */
fl_status fl_ppa_solve_sparse(const fl_local_problem *p, const fl_ppa_options *opt,
                              gsl_vector *r, gsl_vector *U, fl_ppa_result *res, fl_error *err);

#endif
