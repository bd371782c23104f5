/* stability_sparse.h — sparse twin of reference/stability.h for the
 * tangent matrices (004 (80)-(86)) and the §5.4 searches that scale:
 * method 2 (Cholesky failure of K*_S, from CHOLMOD's status) and method 3
 * (smallest eigenvalue of K*_S with its eigenvector and the check (118)) by
 * the shifted inverse power method of 004 §5.4 (CATALOGUE D.5) on CHOLMOD
 * factors of K*_S - sigma I, every shift certified below the spectrum by a
 * successful Cholesky factorisation.
 *
 * Same sign convention, labels and result struct (fl_stab_result) as the
 * reference.  Not computed here (left as documented below): method 1, the
 * eigenvalues of M*^-1 K* (divergence (ii), flutter (iii)) and M*_S.
 *
 * Ownership: fl_stab_sparse_system borrows K and M (CSC, symmetric or
 * unsymmetric storage, owned by the caller's fl_sparse_ctx);
 * fl_stab_sparse_tangent owns its matrices (free with _free and the same ctx).
 */
#ifndef FL_STABILITY_SPARSE_H
#define FL_STABILITY_SPARSE_H

#include "fl_sparse.h"
#include "reference/stability.h"

typedef struct fl_stab_sparse_system {
    size_t n;
    cholmod_sparse *K, *M;           /* n x n */
    const unsigned char *prescribed; /* n flags or NULL */
    size_t np;
    const size_t *iT, *iN;
    double mu;
} fl_stab_sparse_system;

typedef struct fl_stab_sparse_tangent {
    size_t nstar;
    size_t *dof;                     /* as fl_stab_tangent */
    int *csign;
    cholmod_sparse *Kstar, *Mstar;   /* unsymmetric CSC (80)-(82) */
    cholmod_sparse *KS;              /* (86), symmetric upper storage */
} fl_stab_sparse_tangent;

/* 004 (80)-(82), (86) in O(nnz). */
fl_status fl_stab_sparse_tangent_alloc(fl_sparse_ctx *ctx, const fl_stab_sparse_system *s,
                                       const fl_stab_label *labels, const double *r,
                                       fl_stab_sparse_tangent **out, fl_error *err);
void fl_stab_sparse_tangent_free(fl_sparse_ctx *ctx, fl_stab_sparse_tangent *t);

/* 004 §5.4 methods 2 and 3.  Fills ks_min, ks_vec (owned by res),
 * ks_vec_admissible, ks_cholesky_pd, residual, iterations (inverse power
 * steps); sets ks_cone_min, ms_min, lambda_real_min, min_re_lambda to NaN,
 * divergence = flutter = 0, flutter_mode = 0, lam_re = lam_im = NULL.
 * FL_WMAXITER if the residual |K*_S v - ks_min v| stays above
 * 1e-10 max|K*_S| after max_iter steps. */
fl_status fl_stab_sparse_analyse(fl_sparse_ctx *ctx, const fl_stab_sparse_tangent *t,
                                 const fl_stab_options *opt, int max_iter,
                                 fl_stab_result *res, fl_error *err);

#endif
