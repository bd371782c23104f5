/* stability.h — dynamic stability of an equilibrium (or of steady sliding)
 * of a discrete elastic system with unilateral contact and Coulomb friction
 * in J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa, "Dynamic
 * stability of finite dimensional linearly elastic systems with unilateral
 * contact and Coulomb friction", Comput. Methods Appl. Mech. Engrg. 177
 * (3-4), 289-328, 1999 (paper 004):
 * §2.1-2.3, §3.3 (i)-(iii), §4, §5.4, §5.7, eqs. (51), (66), (79)-(86).
 *
 * Sign convention: 004's OWN, since every quantity here is defined there —
 * u_Np <= 0 is admissible (the normal axis points into the obstacle) and
 * r_Np <= 0 is compressive; the friction cone is |r_Tp| <= -mu r_Np.
 * (The library-wide convention of README.md is the opposite; convert at the
 * boundary: u_N^004 = -gap, r_N^004 = -r_N^library.)
 *
 * The system (004 (1)): M u'' + K u = f + r with n dofs.  Each dof is either
 * prescribed (S_D), free (S_F) or one of the two dofs (T, N) of a contact
 * candidate particle p (S_C).
 *
 * Ownership: fl_stability_system only borrows its pointers.  fl_stability_tangent and
 * fl_stability_result own everything they point to (free with their _free).
 */
#ifndef FL_STABILITY_H
#define FL_STABILITY_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_sparse.h"
#include "fl_status.h"

typedef struct fl_stability_system {
    size_t n;                       /* number of dofs */
    const gsl_matrix *K;            /* n x n stiffness */
    const gsl_matrix *M;            /* n x n mass */
    const unsigned char *prescribed;/* n flags, 1 = dof in S_D; NULL = none */
    size_t np;                      /* number of contact candidate particles */
    const size_t *iT, *iN;          /* dof index of T_p and N_p */
    double mu;                      /* friction coefficient (>= 0) */
} fl_stability_system;

/* First-order partition of 004 §2.3: P_C = P_f U P_z U P_d U P_s. */
typedef enum fl_stability_label {
    FL_STAB_PF = 0,   /* u_Np < 0: free */
    FL_STAB_PZ = 1,   /* in contact, r_Np = r_Tp = 0 */
    FL_STAB_PD = 2,   /* in contact, r_Np < 0, |r_Tp| < -mu r_Np (stick) */
    FL_STAB_PS = 3    /* in contact, r_Np < 0, |r_Tp| = -mu r_Np (slip) */
} fl_stability_label;

/* Check the system: sizes, finiteness, indices distinct and not prescribed. */
fl_status fl_stability_system_check(const fl_stability_system *s, fl_error *err);
/* Its contact part, shared with the sparse twin (optimized/stability_sparse.c)
 * so that both refuse the same systems: mu finite and >= 0, every contact
 * dof in range, used once and not prescribed (FL_EINVAL naming the particle
 * and the dof). */
fl_status fl_stability_check_contacts(size_t n, const unsigned char *prescribed, size_t np,
                                 const size_t *iT, const size_t *iN, double mu, fl_error *err);

/* 004 §2.1 and §2.3: labels[p] from (u, r) (length n), with "= 0" read as
 * |x| <= eps * scale (scale: max |u_N| or 1 for displacements, max |r_C|
 * for reactions).  FL_EINVAL if (u, r) is not in K_u x K_r(u) (12), (17)
 * beyond that tolerance. */
fl_status fl_stability_partition(const fl_stability_system *s, const gsl_vector *u,
                            const gsl_vector *r, double eps, fl_stability_label *labels,
                            fl_error *err);

/* 004 (79)-(82), (86): the active set S*(u, r), the tangent matrices and
 * their symmetric parts. */
typedef struct fl_stability_tangent {
    size_t nstar;          /* N* */
    size_t *dof;           /* dof[k]: original index of row/column k of S* */
    int *csign;            /* (79): 0 = unconstrained; c != 0: c * v_k <= 0
                              (c = +1 for N of P_z, c = sigma(r_T) for T of P_s) */
    gsl_matrix *Kstar, *Mstar;   /* (80)-(82) */
    gsl_matrix *KS, *MS;         /* (86) */
} fl_stability_tangent;

fl_status fl_stability_tangent_alloc(const fl_stability_system *s, const fl_stability_label *labels,
                                const gsl_vector *r, fl_stability_tangent **out, fl_error *err);
void fl_stability_tangent_free(fl_stability_tangent *t);

/* 004 (51): m*(A, a) = MA.a - sum_{p in P_c} mu [MA]_Np |a_Tp|; with K in
 * place of M it is a*(V, v) of (66).  P_c = P_z U P_d U P_s. */
double fl_stability_form_star(const fl_stability_system *s, const gsl_matrix *A,
                         const fl_stability_label *labels, const gsl_vector *x,
                         const gsl_vector *y);

/* ---- admissible rate sets as violation measures (0 = member) ----------- */

/* 004 (34): v in K_u'(u, r): v in V_u; v_N <= 0 on P_z; v_N = 0 on P_d U P_s;
 * v_T sigma(r_T) <= 0 on P_s; v_T = 0 on P_d.  Returns the largest violation. */
double fl_stability_viol_Kudot(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *r, const gsl_vector *v);

/* 004 (35): w in K_r'(u, r, v), with w in V_r (w_i = 0 on S_F): on P_f w = 0;
 * on P_z w_N <= 0, w_N v_N = 0, w_T in mu w_N sigma(v_T); on P_s
 * w_T sigma(r_T) + mu w_N <= 0 with [..][v_T sigma(r_T)] = 0; P_d free. */
double fl_stability_viol_Krdot(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *r, const gsl_vector *v, const gsl_vector *w);

/* 004 (24): a in K_u''(u, v): a in V_u, a_N <= 0 on P_0 U P_v (contact,
 * v_N = 0).  004 (25): r in K_r(u, v, a), with r in V_r.  Particles are in
 * contact when u_N == 0 exactly (pass cleaned data).  Largest violation. */
double fl_stability_viol_Kuddot(const fl_stability_system *s, const gsl_vector *u, const gsl_vector *v,
                           const gsl_vector *a);
double fl_stability_viol_Kr_uva(const fl_stability_system *s, const gsl_vector *u, const gsl_vector *v,
                           const gsl_vector *a, const gsl_vector *r);

/* 004 Prop. 3.2 (52): acceleration and reaction jumps from an equilibrium
 * (u0, r0) at rest: A in K_u''(u0, 0), A != 0, r+ = r0 + M A in
 * K_r(u0, 0, A).  Exhaustive enumeration over the branches of every contact
 * particle in contact (stick, no reaction, slip with sigma(a_T) = -1, +1):
 * each branch is a 2n x 2n linear system; solutions passing (24)-(25) with
 * tolerance tol and A != 0 are returned (at most max_sol; columns of As and
 * Rs, n x max_sol).  *nsol receives their number; FL_WDEGENERATE if some
 * branch's system is singular (a family of solutions, e.g. 004 Case 2A). */
fl_status fl_stability_jumps(const fl_stability_system *s, const gsl_vector *u0, const gsl_vector *r0,
                        double tol, size_t max_sol, gsl_matrix *As, gsl_matrix *Rs,
                        size_t *nsol, fl_error *err);

/* ---- variational characterisations (004 Lemmas 2.6, 2.7) --------------
 * Each returns the EXACT infimum over the admissible test set of
 * LHS - RHS of the lemma's inequality, computed per component (the set is a
 * product): 0 or a negative number, -INFINITY when some component is
 * unbounded below.  The lemma says: member of the set  <=>  infimum >= 0.
 * The _value variants evaluate LHS - RHS at one test vector. */

/* Lemma 2.6 (28): R in K_r(U, V, A) iff for all a in K_u''(U, V)
 * R.(a - A) >= sum_{P_v} mu R_N sigma(V_T)(a_T - A_T) + sum_{P_0} mu R_N (|a_T| - |A_T|).
 * Contact: u_N == 0; P_0 / P_v: contact with v_N == 0 and v_T == 0 / != 0. */
double fl_stability_vi26_inf(const fl_stability_system *s, const gsl_vector *U, const gsl_vector *V,
                        const gsl_vector *A, const gsl_vector *R);
double fl_stability_vi26_value(const fl_stability_system *s, const gsl_vector *U, const gsl_vector *V,
                          const gsl_vector *A, const gsl_vector *R, const gsl_vector *a);

/* Lemma 2.7 (37): W in K_r'(U, R, V) iff for all v in K_u'(U, R)
 * W.(v - V) >= sum_{P_c} mu W_N (|v_T| - |V_T|). */
double fl_stability_vi27_inf(const fl_stability_system *s, const fl_stability_label *labels,
                        const gsl_vector *R, const gsl_vector *V, const gsl_vector *W);
double fl_stability_vi27_value(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *V, const gsl_vector *W, const gsl_vector *v);

/* ---- second-order sets (004 §2.3 (42)-(43)) and Lemma 2.9 ----------------
 * Sub-labels of a contact particle from (R, V, W): P_zf, P_zz, P_zd, P_zs
 * (of P_z) and P_sd, P_ss (of P_s); P_f, P_d keep their first-order label. */
typedef enum fl_stability_label2 {
    FL_STAB2_F = 0, FL_STAB2_D, FL_STAB2_ZF, FL_STAB2_ZZ, FL_STAB2_ZD, FL_STAB2_ZS,
    FL_STAB2_SD, FL_STAB2_SS, FL_STAB2_NONE   /* NONE: (V, W) not admissible */
} fl_stability_label2;

fl_stability_label2 fl_stability_label2_of(const fl_stability_system *s, fl_stability_label l1, size_t p,
                                 const gsl_vector *R, const gsl_vector *V, const gsl_vector *W);

/* (42): violation of a in K_u''(U, R, V, W); (43): of B in K_r''(U, R, V, W, a). */
double fl_stability_viol_Kuddot2(const fl_stability_system *s, const fl_stability_label *labels,
                            const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                            const gsl_vector *a);
double fl_stability_viol_Krddot(const fl_stability_system *s, const fl_stability_label *labels,
                           const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                           const gsl_vector *a, const gsl_vector *B);

/* Lemma 2.9 (44)-(45): exact infimum over a in K_u''(U, R, V, W) of LHS - RHS. */
double fl_stability_vi29_inf(const fl_stability_system *s, const fl_stability_label *labels,
                        const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                        const gsl_vector *A, const gsl_vector *B);
double fl_stability_vi29_value(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                          const gsl_vector *A, const gsl_vector *B, const gsl_vector *a);

/* ---- the eigen-searches of 004 §5.4 ---------------------------------- */

/* Smallest eigenvalue of a symmetric matrix and a unit eigenvector
 * (gsl_eigen_symmv).  v may be NULL. */
fl_status fl_stability_sym_min(const gsl_matrix *A, double *lmin, gsl_vector *v, fl_error *err);

/* 004 §5.4 method 2 (004 §5.4): 1 if the Cholesky factorisation of the
 * symmetric A succeeds (A positive definite), 0 if it fails. */
int fl_stability_cholesky_pd(const gsl_matrix *A);

/* 004 §5.4 method 1: min of v.Av over |v| = 1 and c_k v_k <= 0 (csign).
 * Exact by enumeration of the zero set among the constrained components
 * (proofs/stability.md §2): at most 2^(number constrained) reduced symmetric
 * eigenproblems; FL_EUNSUPPORTED if more than max_enum are constrained.
 * *tried receives the number of reduced problems solved (may be NULL). */
fl_status fl_stability_cone_min(const gsl_matrix *A, const int *csign, size_t max_enum,
                           double *vmin, gsl_vector *v, size_t *tried, fl_error *err);

/* Generalized eigenvalues Lambda of K V = Lambda M V (M NULL: identity),
 * i.e. of M^-1 K (004 §5.4 (ii), (iii)), sorted by |Lambda| ascending
 * (gsl_eigen_genv).  lam_re, lam_im: length n; evec (may be NULL): n x n,
 * column k the real part of eigenvector k (exactly real when Lambda is).
 * FL_ESINGULAR if M is singular (an infinite eigenvalue). */
fl_status fl_stability_gen_eig(const gsl_matrix *K, const gsl_matrix *M, double *lam_re,
                          double *lam_im, gsl_matrix *evec, fl_error *err);

/* Order of a list of complex eigenvalues (re[k], im[k]), sorted in place:
 * FL_STAB_BY_MODULUS: |Lambda| ascending, then Im (fl_stability_gen_eig);
 * FL_STAB_BY_FREQUENCY: |Im| ascending, then Re (fl_stability_rayleigh).
 * perm (may be NULL, length n): perm[k] = former index of entry k. */
enum { FL_STAB_BY_MODULUS = 0, FL_STAB_BY_FREQUENCY = 1 };
fl_status fl_stability_sort_eig(size_t n, double *re, double *im, int order, size_t *perm,
                           fl_error *err);

/* 1 if v or -v satisfies c_k v_k <= tol |v|_inf for all k (004 (118), (79)). */
int fl_stability_admissible(const gsl_vector *v, const int *csign, double tol);

/* 004 §5.7: roots lambda of det(lambda^2 M + lambda (alpha M + beta K) + K) = 0
 * (companion pencil of size 2n, gsl_eigen_gen), sorted by |Im| ascending then
 * Re; lre, lim: length 2n.  Damping ratio of a root: xi = -Re / |Im|. */
fl_status fl_stability_rayleigh(const gsl_matrix *K, const gsl_matrix *M, double alpha,
                           double beta, double *lre, double *lim, fl_error *err);

/* 004 §5.7 and §5.4 (iii) with damping: among the N roots (sorted as by
 * fl_stability_rayleigh) the growing oscillatory ones, Re lambda > tol |lambda|
 * and Im lambda > tol |lambda|; returns the mode number of the lowest one,
 * 0 if none.  Modes are the roots with Im > 0 in increasing Im.  A flutter
 * pair is two coalesced modes k, k+1 (undamped: the roots +-x + iy; damped:
 * two roots of nearly equal Im, one growing); its number is k, the lower,
 * as in 004 Table 1 (the growing root's rank, less one when its nearest
 * frequency lies below it).  *growth (may be NULL) receives its Re lambda. */
size_t fl_stability_damped_flutter_mode(size_t N, const double *lre, const double *lim,
                                   double tol, double *growth);

/* ---- the whole §5.4 analysis of one state -------------------------- */

typedef struct fl_stability_options {
    double real_tol;      /* Lambda is real when |Im| <= real_tol |Lambda| (1e-9) */
    double sign_tol;      /* tolerance of the sign check (118) (1e-10) */
    size_t max_enum;      /* method 1 enumeration limit (12); beyond: skipped */
    struct {              /* the sparse twin's own tuning (the reference ignores it) */
        size_t nev;       /* number of Lambda of smallest modulus computed by ARPACK
                             (20); 0 skips (ii)-(iii) there */
        int max_iter;     /* inverse power steps / Arnoldi restarts when called
                             through fl_stability_types (5000) */
    } sparse;
} fl_stability_options;

fl_stability_options fl_stability_options_default(void);

typedef struct fl_stability_result {
    fl_status status;
    int iterations;        /* reduced problems of method 1 */
    double residual;       /* |K*_S v - ks_min v| of the method-3 eigenvector */
    double seconds;
    size_t nstar;
    /* (i) necessary condition for divergence, three ways */
    double ks_min;         /* method 3: smallest eigenvalue of K*_S */
    gsl_vector *ks_vec;    /* its unit eigenvector, oriented to satisfy (118) if possible */
    int ks_vec_admissible; /* the eigenvector satisfies (118) */
    int ks_cholesky_pd;    /* method 2: Cholesky of K*_S succeeded */
    double ks_cone_min;    /* method 1: constrained minimum (NaN if skipped) */
    double ms_min;         /* smallest eigenvalue of M*_S ((89)) */
    /* (ii) divergence: real Lambda <= 0 of M*^-1 K* with an admissible eigenvector */
    double lambda_real_min;/* smallest real Lambda (+inf if none) */
    int divergence;
    /* (iii) flutter: complex Lambda */
    int flutter;
    size_t flutter_mode;   /* 1-based position (|Lambda| ascending) of the first complex one, 0 if none */
    double min_re_lambda;  /* smallest real part over all Lambda */
    size_t nlam;           /* entries of lam_re, lam_im: nstar here, the number of
                              modes computed in the sparse twin */
    double *lam_re, *lam_im; /* Lambda sorted by |Lambda| ascending (length nlam) */
} fl_stability_result;

/* One tangent system in both storages: dense for the reference, sparse (on
 * ctx, optimized/stability_sparse.h) for the sparse twin; a twin reads only
 * its own fields (the others may be NULL). */
struct fl_stability_tangent_sparse;
typedef struct fl_stability_tangents {
    const fl_stability_tangent *dense;
    fl_sparse_ctx *ctx;
    const struct fl_stability_tangent_sparse *sparse;
} fl_stability_tangents;

/* The one contract of the stability twins (004 §5.4): the analysis of the
 * tangent system t (the reference reads t->dense and ignores opt->sparse);
 * the sparse twin fl_stability_analyse_sparse has the same signature.
 * opt NULL: fl_stability_options_default(). */
fl_status fl_stability_analyse(const fl_stability_tangents *t, const fl_stability_options *opt,
                               fl_stability_result *res, fl_error *err);
void fl_stability_result_free(fl_stability_result *res);

/* 004 §5.4 (ii), (iii) from res->nlam eigenvalues res->lam_re/lam_im
 * (sorted by |Lambda|) and E (nstar x nlam, column k the real part of the
 * eigenvector of Lambda_k): fills lambda_real_min, min_re_lambda (over the
 * nlam given), divergence (a real Lambda <= 0 whose eigenvector satisfies
 * (118)) and flutter, flutter_mode (position of the first complex one). */
void fl_stability_classify(const fl_stability_options *o, const int *csign, const gsl_matrix *E,
                      fl_stability_result *res);

#endif
