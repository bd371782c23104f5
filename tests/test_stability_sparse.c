/* test_stability_sparse.c — optimized/stability_sparse.c against the dense
 * reference (reference/stability.c) on random sparse systems: the same K*,
 * M*, K*_S (004 (80)-(86)), the same verdict of the Cholesky test (§5.4
 * method 2), the same smallest eigenvalue of K*_S and sign check (118)
 * (method 3); the same eigenvalues of smallest modulus of M*^-1 K*
 * (ARPACK + UMFPACK vs QZ, (ii)-(iii)) and damped roots (§5.7); closed
 * forms: Example 3.15, a spring chain with Rayleigh damping; bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_sort_vector.h>

#include "testkit/fl_random.h"
#include "models/fl_model_example_3_15.h"
#include "optimized/stability_sparse.h"
#include "fl_scalar.h"


static double max_diff(const gsl_matrix *A, const gsl_matrix *B)
{
    double d = 0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            d = fmax(d, fabs(gsl_matrix_get(A, i, j) - gsl_matrix_get(B, i, j)));
    return d;
}

/* The k-th computed value has the k-th smallest modulus among all n
 * reference values, and is one of them (relative 1e-7). */
static void check_smallest(size_t n, const double *re, const double *im, size_t m,
                           const double *sre, const double *sim, const char *note)
{
    double *mod = malloc(n * sizeof *mod), *smod = malloc((m ? m : 1) * sizeof *smod);
    for (size_t k = 0; k < n; k++) mod[k] = hypot(re[k], im[k]);
    for (size_t k = 0; k < m; k++) smod[k] = hypot(sre[k], sim[k]);
    gsl_sort(mod, 1, n);
    gsl_sort(smod, 1, m);
    double big = mod[n - 1];
    for (size_t k = 0; k < m; k++) {
        cr_assert(fabs(smod[k] - mod[k]) <= 1e-7 * big, "modulus %zu: %.12g vs %.12g %s", k, smod[k], mod[k], note);
        double best = INFINITY;
        for (size_t j = 0; j < n; j++) best = fmin(best, hypot(sre[k] - re[j], sim[k] - im[j]));
        cr_assert(best <= 1e-7 * big, "value %zu (%.12g%+.12gi) off by %g %s", k, sre[k], sim[k], best, note);
    }
    free(mod);
    free(smod);
}

/* comparisons made (so the random test cannot pass vacuously) */
static int n_flutter_cmp, n_div_true;

/* 004 §5.4 (ii)-(iii): ARPACK's lowest modes vs the dense QZ. */
static void check_modes(const fl_stability_result *rd, const fl_stability_result *rs, const fl_stability_tangent *td,
                        const char *note)
{
    size_t n = td->nstar, want = n >= 3 ? (n - 2 < 20 ? n - 2 : 20) : 0;
    if (want == 0) {
        cr_assert(rs->lam_re == NULL && isnan(rs->lambda_real_min), "%s", note);
        return;
    }
    cr_assert_eq(rs->nlam >= want, 1, "%zu modes of %zu %s", rs->nlam, want, note);
    check_smallest(n, rd->lam_re, rd->lam_im, rs->nlam, rs->lam_re, rs->lam_im, note);
    /* flutter: the first complex Lambda is at the same place when it is
     * among the computed ones (strictly inside: a pair may straddle the end) */
    if (rd->flutter && rd->flutter_mode + 1 < rs->nlam) {
        cr_assert_eq(rs->flutter_mode, rd->flutter_mode, "flutter mode %s", note);
        n_flutter_cmp++;
    }
    else if (!rd->flutter)
        cr_assert(!rs->flutter, "%s", note);
    /* divergence: same verdict when every real Lambda <= 0 is computed */
    size_t last_neg = 0;
    for (size_t k = 0; k < n; k++)
        if (rd->lam_re[k] <= 0 && fabs(rd->lam_im[k]) <= 1e-9 * hypot(rd->lam_re[k], rd->lam_im[k])) last_neg = k + 1;
    if (last_neg + 1 < rs->nlam) {
        cr_assert_eq(rs->divergence, rd->divergence, "divergence %s", note);
        n_div_true += rd->divergence;
    }
}

Test(stability_sparse, matches_the_dense_reference_on_random_systems)
{
    int nsing = 0;
    gsl_rng *g = fl_test_rng(8014);
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    int nchol_fail = 0, ncases = 0;
    for (int trial = 0; trial < 60; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(g, 8), n = 2 * np + 2 + gsl_rng_uniform_int(g, 30);
        cholmod_sparse *K = fl_random_sparse_spd(g, &ctx, n, 4, 1e3);
        cholmod_sparse *M = fl_random_sparse_spd(g, &ctx, n, 2, 10.0);
        cr_assert(K && M);
        gsl_matrix *Kd, *Md;
        cr_assert_eq(fl_sparse_to_dense(&ctx, K, &Kd, NULL), FL_OK);
        cr_assert_eq(fl_sparse_to_dense(&ctx, M, &Md, NULL), FL_OK);
        double mu = fl_random_mu(g);
        size_t *iT = malloc(np * sizeof *iT), *iN = malloc(np * sizeof *iN);
        fl_stability_label *lab = malloc(np * sizeof *lab);
        gsl_vector *r = gsl_vector_calloc(n);
        unsigned char *pres = calloc(n, 1);
        pres[n - 1] = 1;
        for (size_t p = 0; p < np; p++) {
            /* spread the contact dofs over the matrix */
            iT[p] = 2 * p;
            iN[p] = 2 * p + 1;
            lab[p] = (fl_stability_label)gsl_rng_uniform_int(g, 4);
            double rN = -0.5 - gsl_rng_uniform(g);
            if (lab[p] == FL_STAB_PD || lab[p] == FL_STAB_PS) {
                gsl_vector_set(r, iN[p], rN);
                gsl_vector_set(r, iT[p], lab[p] == FL_STAB_PS ? (gsl_rng_uniform(g) < 0.5 ? 1 : -1) * mu * rN
                                                              : 0.3 * mu * rN);
            }
        }
        fl_stability_system sd = {.n = n, .K = Kd, .M = Md, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        fl_stability_system_sparse ss = {.n = n, .K = K, .M = M, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        fl_stability_tangent *td;
        fl_stability_tangent_sparse *ts;
        fl_status a = fl_stability_tangent_alloc(&sd, lab, r, &td, NULL);
        fl_status b = fl_stability_tangent_alloc_sparse(&ctx, &ss, lab, r->data, &ts, NULL);
        cr_assert_eq(a, b, "%s", fl_test_seed_note());
        if (a == FL_OK) {
            ncases++;
            cr_assert_eq(td->nstar, ts->nstar);
            for (size_t k = 0; k < td->nstar; k++) {
                cr_assert_eq(td->dof[k], ts->dof[k]);
                cr_assert_eq(td->csign[k], ts->csign[k]);
            }
            gsl_matrix *Ks, *Ms, *KSs;
            cr_assert_eq(fl_sparse_to_dense(&ctx, ts->Kstar, &Ks, NULL), FL_OK);
            cr_assert_eq(fl_sparse_to_dense(&ctx, ts->Mstar, &Ms, NULL), FL_OK);
            cr_assert_eq(fl_sparse_to_dense(&ctx, ts->KS, &KSs, NULL), FL_OK);
            cr_assert(max_diff(Ks, td->Kstar) < 1e-12 * 1e3, "K* %s", fl_test_seed_note());
            cr_assert(max_diff(Ms, td->Mstar) < 1e-12 * 1e3, "M* %s", fl_test_seed_note());
            cr_assert(max_diff(KSs, td->KS) < 1e-12 * 1e3, "K*_S %s", fl_test_seed_note());
            fl_stability_result rd, rs;
            cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = td}, NULL, &rd, NULL), FL_OK);
            fl_status st = fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = ts}, NULL, &rs, NULL);
            cr_assert_eq(st, FL_OK, "status %d %s", st, fl_test_seed_note());
            double scale = 0;
            for (size_t i = 0; i < td->nstar; i++)
                for (size_t j = 0; j < td->nstar; j++) scale = fmax(scale, fabs(gsl_matrix_get(td->KS, i, j)));
            cr_assert(fabs(rs.ks_min - rd.ks_min) < 1e-8 * scale, "%.15g vs %.15g %s", rs.ks_min, rd.ks_min,
                      fl_test_seed_note());
            if (fabs(rd.ks_min) > 1e-10 * scale) cr_assert_eq(rs.ks_cholesky_pd, rd.ks_cholesky_pd, "%s", fl_test_seed_note());
            nchol_fail += !rs.ks_cholesky_pd;
            /* eigenvector: same up to sign when lambda_min is simple (gap checked) */
            gsl_matrix *W = gsl_matrix_alloc(td->nstar, td->nstar);
            gsl_vector *ev = gsl_vector_alloc(td->nstar);
            gsl_matrix_memcpy(W, td->KS);
            gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(td->nstar);
            gsl_eigen_symm(W, ev, w);
            gsl_eigen_symm_free(w);
            gsl_sort_vector(ev);
            if (td->nstar > 1 && gsl_vector_get(ev, 1) - gsl_vector_get(ev, 0) > 1e-3 * scale) {
                double dot = 0;
                for (size_t k = 0; k < td->nstar; k++)
                    dot += gsl_vector_get(rd.ks_vec, k) * gsl_vector_get(rs.ks_vec, k);
                cr_assert(fabs(fabs(dot) - 1) < 1e-6, "eigenvectors |dot| = %g %s", fabs(dot), fl_test_seed_note());
                double near0 = INFINITY;   /* (118) is decided by signs: skip components at rounding level */
                for (size_t k = 0; k < td->nstar; k++)
                    if (td->csign[k]) near0 = fmin(near0, fabs(gsl_vector_get(rd.ks_vec, k)));
                if (near0 > 1e-7)
                    cr_assert_eq(rs.ks_vec_admissible, rd.ks_vec_admissible, "%s", fl_test_seed_note());
            }
            cr_assert(isnan(rs.ks_cone_min));
            check_modes(&rd, &rs, td, fl_test_seed_note());
            /* §5.7: damped roots of smallest modulus vs the dense companion pencil */
            if (td->nstar >= 2) {
                double al = 10 * gsl_rng_uniform(g), be = 1e-3 * gsl_rng_uniform(g);
                size_t N = 2 * td->nstar, nr = 0, nev = N > 12 ? 10 : N - 2;
                double *dre = malloc(N * sizeof *dre), *dim = malloc(N * sizeof *dim);
                double *sre = malloc((nev + 1) * sizeof *sre), *sim = malloc((nev + 1) * sizeof *sim);
                cr_assert_eq(fl_stability_rayleigh(td->Kstar, td->Mstar, al, be, dre, dim, NULL), FL_OK);
                fl_status sr = fl_stability_rayleigh_sparse(&ctx, ts, al, be, nev, 5000, sre, sim, &nr, NULL);
                if (sr == FL_ESINGULAR) nsing++;
                else {
                    cr_assert_eq(sr, FL_OK, "%d %s", sr, fl_test_seed_note());
                    check_smallest(N, dre, dim, nr, sre, sim, fl_test_seed_note());
                }
                free(dre); free(dim); free(sre); free(sim);
            }
            gsl_matrix_free(W);
            gsl_vector_free(ev);
            fl_stability_result_free(&rd);
            fl_stability_result_free(&rs);
            gsl_matrix_free(Ks);
            gsl_matrix_free(Ms);
            gsl_matrix_free(KSs);
            fl_stability_tangent_free(td);
            fl_stability_tangent_free_sparse(&ctx, ts);
        }
        gsl_matrix_free(Kd);
        gsl_matrix_free(Md);
        fl_sparse_free(&ctx, &K);
        fl_sparse_free(&ctx, &M);
        free(iT);
        free(iN);
        free(lab);
        free(pres);
        gsl_vector_free(r);
    }
    cr_assert(ncases > 40 && nchol_fail > 3 && nsing < 3, "%d cases, %d not PD, %d singular K* %s", ncases,
              nchol_fail, nsing, fl_test_seed_note());
    cr_assert(n_flutter_cmp > 5, "%d flutter modes compared (%d divergent states) %s", n_flutter_cmp,
              n_div_true, fl_test_seed_note());
    fl_sparse_finish(&ctx);
    gsl_rng_free(g);
}

Test(stability_sparse, example_3_15_closed_form)
{
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    /* the system of models/fl_model_example_3_15 with K = M = P = 1 */
    fl_model_example_3_15_system *e = NULL;
    cr_assert_eq(fl_model_example_3_15_system_alloc(1.0, 1.0, 1.0, 1.0, &e, NULL), FL_OK);
    cholmod_sparse *K, *M;
    cr_assert_eq(fl_sparse_from_dense(&ctx, e->K, 1, 0.0, &K, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, e->M, 0, 0.0, &M, NULL), FL_OK);
    unsigned char *pres = e->pres;
    size_t iT = e->iT, iN = e->iN;
    double *r = e->r0->data;      /* (P, 0, -mu P, -P) */
    fl_stability_label lab = FL_STAB_PS;
    for (double mu = 0.5; mu < 6; mu += 0.75) {
        r[2] = -mu;
        fl_stability_system_sparse s = {.n = 4, .K = K, .M = M, .prescribed = pres, .np = 1, .iT = &iT, .iN = &iN, .mu = mu};
        fl_stability_tangent_sparse *t;
        cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s, &lab, r, &t, NULL), FL_OK);
        fl_stability_result res;
        cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = t}, NULL, &res, NULL), FL_OK);
        double cf = (3 - sqrt(1 + mu * mu)) / 2;
        cr_assert(fabs(res.ks_min - cf) < 1e-10, "mu=%g %.15g vs %.15g", mu, res.ks_min, cf);
        cr_assert_eq(res.ks_cholesky_pd, mu < 2 * sqrt(2.0));
        cr_assert(res.ks_vec_admissible);
        cr_assert(gsl_vector_get(res.ks_vec, 1) > 0, "v_T >= 0 (118)");
        fl_stability_result_free(&res);
        fl_stability_tangent_free_sparse(&ctx, t);
    }
    /* bad input */
    fl_error err;
    fl_stability_tangent_sparse *t;
    fl_stability_system_sparse bad = {.n = 3, .K = K, .M = M, .prescribed = pres, .np = 1, .iT = &iT, .iN = &iN, .mu = 1};
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &bad, &lab, r, &t, &err), FL_EDIM);
    bad.n = 4;
    fl_stability_label wrong = (fl_stability_label)9, stuck = FL_STAB_PD;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &bad, &wrong, r, &t, &err), FL_EINVAL);
    size_t big = 7;
    bad.iN = &big;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &bad, &lab, r, &t, &err), FL_EINVAL);
    unsigned char allp[4] = {1, 1, 0, 0};
    bad.iN = &iN;
    bad.prescribed = allp;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &bad, &stuck, r, &t, &err), FL_EINVAL);
    fl_stability_result res;
    cr_assert_eq(fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &ctx, .sparse = NULL}, NULL, &res, &err), FL_EINVAL);
    fl_stability_tangent_free_sparse(&ctx, NULL);
    fl_sparse_free(&ctx, &K);
    fl_sparse_free(&ctx, &M);
    fl_model_example_3_15_system_free(e);
    fl_sparse_finish(&ctx);
}

/* Closed form: the chain of n unit masses and unit springs fixed at both
 * ends (K = tridiag(-1, 2, -1), M = I, no contact) has
 * Lambda_k = 4 sin^2(k pi / (2 (n + 1))); with Rayleigh damping
 * C = alpha I + beta K each mode is an oscillator lambda^2 + 2 z w lambda
 * + w^2 = 0, w = sqrt(Lambda_k), z = alpha / (2 w) + beta w / 2, so
 * lambda = -z w +- i w sqrt(1 - z^2) while z < 1. */
Test(stability_sparse, spring_chain_closed_forms)
{
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    const size_t n = 400;
    int *ri = malloc(3 * n * sizeof *ri), *ci = malloc(3 * n * sizeof *ci);
    double *v = malloc(3 * n * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        ri[m] = ci[m] = (int)i; v[m++] = 2.0;
        if (i + 1 < n) { ri[m] = (int)i; ci[m] = (int)i + 1; v[m++] = -1.0; }
    }
    cholmod_sparse *K, *M = cholmod_speye(n, n, CHOLMOD_REAL, &ctx.cm);
    cr_assert_eq(fl_sparse_from_triplet(&ctx, n, n, m, ri, ci, v, 1, &K, NULL), FL_OK);
    fl_stability_system_sparse s = {.n = n, .K = K, .M = M, .np = 0, .mu = 0.5};
    fl_stability_tangent_sparse *t;
    fl_stability_label none = FL_STAB_PF;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s, &none, v, &t, NULL), FL_OK);
    fl_stability_options o = fl_stability_options_default();
    o.sparse.nev = 12;
    fl_stability_result res;
    memset(&res, 0, sizeof res);
    cr_assert_eq(fl_stability_modes_sparse(&ctx, t, &o, 1000, &res, NULL), FL_OK);
    cr_assert(res.nlam >= 12);
    for (size_t k = 0; k < 12; k++) {
        double lk = 4 * pow(sin((double)(k + 1) * FL_PI / (2.0 * (double)(n + 1))), 2);
        cr_assert(fabs(res.lam_re[k] - lk) <= 1e-9 * lk && res.lam_im[k] == 0.0, "Lambda_%zu = %.15g vs %.15g",
                  k + 1, res.lam_re[k], lk);
    }
    cr_assert(!res.flutter && !res.divergence && fabs(res.lambda_real_min - 4 * pow(sin(FL_PI / (2.0 * (n + 1))), 2)) < 1e-15);
    fl_stability_result_free(&res);
    double al = 2e-3, be = 0.05, lre[11], lim[11];
    size_t nr;
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, t, al, be, 10, 1000, lre, lim, &nr, NULL), FL_OK);
    cr_assert(nr >= 10);
    for (size_t k = 0; k < 10; k++) {   /* sorted by |Im|, then Re: conjugates -, + */
        size_t mode = k / 2 + 1;
        double w = 2 * sin((double)mode * FL_PI / (2.0 * (double)(n + 1))), z = al / (2 * w) + be * w / 2;
        double want_im = (k % 2 ? 1.0 : -1.0) * w * sqrt(1 - z * z);
        cr_assert(fabs(lre[k] + z * w) <= 1e-9 * w && fabs(fabs(lim[k]) - fabs(want_im)) <= 1e-9 * w,
                  "root %zu: %.15g%+.15gi vs %.15g +- %.15gi", k, lre[k], lim[k], -z * w, fabs(want_im));
    }
    cr_assert_eq(fl_stability_damped_flutter_mode(nr, lre, lim, 1e-9, NULL), 0);   /* all decay */
    fl_stability_tangent_free_sparse(&ctx, t);
    /* (ii) divergence: K - c I with Lambda_1 < c < Lambda_2 has the real
     * eigenvalue Lambda_1 - c < 0 (no contact: every vector meets (118)) */
    double l1 = 4 * pow(sin(FL_PI / (2.0 * (double)(n + 1))), 2), l2 = 4 * pow(sin(FL_PI / (double)(n + 1)), 2);
    double c = 0.5 * (l1 + l2);
    for (size_t k = 0; k < m; k++) if (ri[k] == ci[k]) v[k] -= c;
    cholmod_sparse *Kc;
    cr_assert_eq(fl_sparse_from_triplet(&ctx, n, n, m, ri, ci, v, 1, &Kc, NULL), FL_OK);
    s.K = Kc;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s, &none, v, &t, NULL), FL_OK);
    memset(&res, 0, sizeof res);
    cr_assert_eq(fl_stability_modes_sparse(&ctx, t, &o, 1000, &res, NULL), FL_OK);
    cr_assert(res.divergence && fabs(res.lambda_real_min - (l1 - c)) < 1e-12, "%.15g vs %.15g", res.lambda_real_min, l1 - c);
    fl_stability_result_free(&res);
    fl_sparse_free(&ctx, &Kc);
    for (size_t k = 0; k < m; k++) if (ri[k] == ci[k]) v[k] += c;
    s.K = K;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s, &none, v, &t, NULL), FL_OK);
    /* bad input */
    fl_error err;
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, t, NAN, be, 10, 1000, lre, lim, &nr, &err), FL_ENONFINITE);
    cr_assert_eq(fl_stability_rayleigh_sparse(&ctx, t, al, be, 0, 1000, lre, lim, &nr, &err), FL_EDIM);
    fl_stability_tangent_free_sparse(&ctx, t);
    /* a singular K* (free-free chain: drop the ends' springs) */
    cholmod_sparse *Kf;
    v[0] = 1.0;
    for (size_t k = m; k-- > 0;)
        if (ri[k] == (int)(n - 1) && ci[k] == (int)(n - 1)) { v[k] = 1.0; break; }
    cr_assert_eq(fl_sparse_from_triplet(&ctx, n, n, m, ri, ci, v, 1, &Kf, NULL), FL_OK);
    s.K = Kf;
    cr_assert_eq(fl_stability_tangent_alloc_sparse(&ctx, &s, &none, v, &t, NULL), FL_OK);
    memset(&res, 0, sizeof res);
    cr_assert_eq(fl_stability_modes_sparse(&ctx, t, &o, 1000, &res, &err), FL_ESINGULAR);
    cr_assert(strstr(err.message, "singular") != NULL, "%s", err.message);
    fl_stability_result_free(&res);
    fl_stability_tangent_free_sparse(&ctx, t);
    fl_sparse_free(&ctx, &Kf);
    fl_sparse_free(&ctx, &K);
    fl_sparse_free(&ctx, &M);
    free(ri); free(ci); free(v);
    fl_sparse_finish(&ctx);
}
