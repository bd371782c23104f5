/* stability_sparse.h — sparse twin of reference/stability.h for the
 * tangent matrices (004 (80)-(86)) and the §5.4 searches that scale:
 * method 2 (Cholesky failure of K*_S, from CHOLMOD's status) and method 3
 * (smallest eigenvalue of K*_S with its eigenvector and the check (118)) by
 * the shifted inverse power method of 004 §5.4 on CHOLMOD
 * factors of K*_S - sigma I, every shift certified below the spectrum by a
 * successful Cholesky factorisation.
 *
 * The eigenvalues of smallest modulus of M*^-1 K* (divergence (ii),
 * flutter (iii)) and the damped roots of §5.7 come from ARPACK (dnaupd /
 * dneupd) on the shift-inverted operator, with one UMFPACK LU of K*.
 *
 * Same sign convention, labels and result struct (fl_stability_result) as the
 * reference.  Not computed here: method 1 (exponential enumeration) and
 * M*_S.
 *
 * Ownership: fl_stability_system_sparse borrows K and M (CSC, symmetric or
 * unsymmetric storage, owned by the caller's fl_sparse_ctx);
 * fl_stability_tangent_sparse owns its matrices (free with _free and the same ctx).
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_STABILITY_SPARSE_H
#define FL_STABILITY_SPARSE_H

#include "fl_sparse.h"
#include "reference/stability.h"

typedef struct fl_stability_system_sparse {
    size_t n;
    cholmod_sparse *K, *M;           /* n x n */
    const unsigned char *prescribed; /* n flags or NULL */
    size_t np;
    const size_t *iT, *iN;
    double mu;
} fl_stability_system_sparse;

typedef struct fl_stability_tangent_sparse {
    size_t nstar;
    size_t *dof;                     /* as fl_stability_tangent */
    int *csign;
    cholmod_sparse *Kstar, *Mstar;   /* unsymmetric CSC (80)-(82) */
    cholmod_sparse *KS;              /* (86), symmetric upper storage */
} fl_stability_tangent_sparse;

/* 004 (80)-(82), (86) in O(nnz). */
fl_status fl_stability_tangent_alloc_sparse(fl_sparse_ctx *ctx, const fl_stability_system_sparse *s,
                                       const fl_stability_label *labels, const double *r,
                                       fl_stability_tangent_sparse **out, fl_error *err);
void fl_stability_tangent_free_sparse(fl_sparse_ctx *ctx, fl_stability_tangent_sparse *t);

/* 004 §5.4 methods 2 and 3, then (ii)-(iii) by fl_stability_modes_sparse when
 * opt->sparse.nev > 0 and N* >= 3.  Fills ks_min, ks_vec (owned by res),
 * ks_vec_admissible, ks_cholesky_pd, residual, iterations (inverse power
 * steps); ks_cone_min and ms_min are NaN.  Without modes: lambda_real_min,
 * min_re_lambda NaN, divergence = flutter = 0, lam_re = lam_im = NULL.
 * FL_WMAXITER if the residual |K*_S v - ks_min v| stays above
 * 1e-10 max|K*_S| after opt->sparse.max_iter steps.  The contract of
 * fl_stability_analyse (reference/stability.h); it reads t->ctx, t->sparse. */
fl_status fl_stability_analyse_sparse(const fl_stability_tangents *t, const fl_stability_options *opt,
                                      fl_stability_result *res, fl_error *err);

/* 004 §5.4 (ii)-(iii): the min(opt->sparse.nev, N* - 2) eigenvalues Lambda of
 * M*^-1 K* of smallest modulus (ARPACK on K*^-1 M*, UMFPACK LU of K*),
 * sorted as the reference's and classified by fl_stability_classify with their
 * Ritz vectors: fills nlam, lam_re, lam_im (owned by res), lambda_real_min,
 * min_re_lambda, divergence, flutter, flutter_mode — all over the computed
 * modes only (flutter_mode is exact when <= nlam).  res->iterations: the
 * Arnoldi restarts.  FL_ESINGULAR if K* is singular (Lambda = 0);
 * FL_WMAXITER if fewer than nev converged in max_iter restarts. */
fl_status fl_stability_modes_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t,
                               const fl_stability_options *opt, int max_iter, fl_stability_result *res,
                               fl_error *err);

/* 004 §5.7: the min(nev, 2 N* - 2) roots of smallest modulus of
 * det(lambda^2 M* + lambda (alpha M* + beta K*) + K*) = 0 (ARPACK on the
 * first-order form, UMFPACK LU of K*), sorted as fl_stability_rayleigh's (|Im|
 * ascending, then Re); lre, lim: length nev + 1; *nroots their number. */
fl_status fl_stability_rayleigh_sparse(fl_sparse_ctx *ctx, const fl_stability_tangent_sparse *t, double alpha,
                                  double beta, size_t nev, int max_iter, double *lre, double *lim,
                                  size_t *nroots, fl_error *err);

#endif
