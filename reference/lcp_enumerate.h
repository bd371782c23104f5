/* lcp_enumerate.h — all solutions of a small LCP by enumeration of the
 * complementary bases (exhaustive enumeration, proofs/contact_dynamics.md, applied to LCP(M, q) of 004 §5.3).
 *
 * For every index set alpha of {0..n-1} (2^n sets) the principal system
 *     M_{alpha alpha} z_alpha = -q_alpha,   z_j = 0 (j not in alpha)
 * is solved by LU; the candidate is kept when z_alpha >= -tol and
 * w = M z + q >= -tol on the complement (then z.w = 0 by construction), and
 * deduplicated against the solutions already found.  Every solution whose
 * support has a nonsingular principal submatrix (in particular every
 * solution when all principal minors are nonzero, and every vertex of the
 * solution set otherwise) is found; bases with a singular principal
 * submatrix are skipped and counted in `singular_bases`, which tells the
 * caller that a continuum of solutions may have been seen only through its
 * vertices.  Used to show non-uniqueness (001 §6.2, Painlevé) and as the
 * independent reference for Lemke (reference/lemke.c) on small n.
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 */
#ifndef FL_LCP_ENUMERATE_H
#define FL_LCP_ENUMERATE_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

typedef struct fl_lcp_enum_options {
    size_t max_n;       /* refuse n > max_n (FL_EINVAL); default 20 */
    double feas_tol;    /* sign tolerance, relative to 1 + ||q||_inf (1e-10) */
    double dedup_tol;   /* two solutions are equal if ||z1 - z2||_inf <=
                           dedup_tol (1 + ||z1||_inf)  (1e-8) */
    double sing_tol;    /* |pivot| <= sing_tol * max|M_aa| is singular (1e-12) */
} fl_lcp_enum_options;

fl_lcp_enum_options fl_lcp_enum_options_default(void);

/* The solution list: `count` vectors of length n, row-major in z
 * (solution k is z[k*n .. k*n+n-1]), in the order the bases were visited
 * (alpha by increasing bit mask).  Owned by the caller: fl_lcp_solutions_free. */
typedef struct fl_lcp_solutions {
    size_t n, count, capacity;
    double *z;
} fl_lcp_solutions;

void fl_lcp_solutions_free(fl_lcp_solutions *s);

typedef struct fl_lcp_enum_result {
    fl_status status;        /* FL_OK, or an input/memory error */
    size_t bases;            /* 2^n index sets tried */
    size_t singular_bases;   /* principal submatrices found singular */
    double residual;         /* max fl_lcp_residual over the kept solutions */
    double seconds;
} fl_lcp_enum_result;

/* All solutions of LCP(M, q) (exhaustive enumeration, proofs/contact_dynamics.md).  *out receives a new list
 * (possibly with count 0: the LCP has no solution with a nonsingular
 * support).  opt and res may be NULL. */
fl_status fl_lcp_enumerate(const gsl_matrix *M, const gsl_vector *q,
                           const fl_lcp_enum_options *opt, fl_lcp_solutions **out,
                           fl_lcp_enum_result *res, fl_error *err);

/* Smallest principal minor of M over all 2^n - 1 nonempty index sets
 * (a P-matrix iff it is > 0: then LCP(M, q) has exactly one solution for
 * every q; Cottle, Pang & Stone Thm 3.3.7).  n <= max_n of the defaults. */
fl_status fl_lcp_min_principal_minor(const gsl_matrix *M, double *min_minor,
                                     fl_error *err);

#endif
