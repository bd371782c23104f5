/* test_stability_sparse.c — optimized/stability_sparse.c against the dense
 * reference (reference/stability.c) on random sparse systems: the same K*,
 * M*, K*_S (004 (80)-(86)), the same verdict of the Cholesky test (§5.4
 * method 2), the same smallest eigenvalue of K*_S and sign check (118)
 * (method 3); Example 3.15's closed form; bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_sort_vector.h>

#include "fl_random.h"
#include "optimized/stability_sparse.h"

static double max_diff(const gsl_matrix *A, const gsl_matrix *B)
{
    double d = 0;
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            d = fmax(d, fabs(gsl_matrix_get(A, i, j) - gsl_matrix_get(B, i, j)));
    return d;
}

Test(stability_sparse, matches_the_dense_reference_on_random_systems)
{
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
        fl_stab_label *lab = malloc(np * sizeof *lab);
        gsl_vector *r = gsl_vector_calloc(n);
        unsigned char *pres = calloc(n, 1);
        pres[n - 1] = 1;
        for (size_t p = 0; p < np; p++) {
            /* spread the contact dofs over the matrix */
            iT[p] = 2 * p;
            iN[p] = 2 * p + 1;
            lab[p] = (fl_stab_label)gsl_rng_uniform_int(g, 4);
            double rN = -0.5 - gsl_rng_uniform(g);
            if (lab[p] == FL_STAB_PD || lab[p] == FL_STAB_PS) {
                gsl_vector_set(r, iN[p], rN);
                gsl_vector_set(r, iT[p], lab[p] == FL_STAB_PS ? (gsl_rng_uniform(g) < 0.5 ? 1 : -1) * mu * rN
                                                              : 0.3 * mu * rN);
            }
        }
        fl_stab_system sd = {.n = n, .K = Kd, .M = Md, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        fl_stab_sparse_system ss = {.n = n, .K = K, .M = M, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        fl_stab_tangent *td;
        fl_stab_sparse_tangent *ts;
        fl_status a = fl_stab_tangent_alloc(&sd, lab, r, &td, NULL);
        fl_status b = fl_stab_sparse_tangent_alloc(&ctx, &ss, lab, r->data, &ts, NULL);
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
            fl_stab_result rd, rs;
            cr_assert_eq(fl_stab_analyse(td, NULL, &rd, NULL), FL_OK);
            fl_status st = fl_stab_sparse_analyse(&ctx, ts, NULL, 5000, &rs, NULL);
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
                cr_assert_eq(rs.ks_vec_admissible, rd.ks_vec_admissible, "%s", fl_test_seed_note());
            }
            cr_assert(isnan(rs.ks_cone_min) && isnan(rs.lambda_real_min) && rs.lam_re == NULL);
            gsl_matrix_free(W);
            gsl_vector_free(ev);
            fl_stab_result_free(&rd);
            fl_stab_result_free(&rs);
            gsl_matrix_free(Ks);
            gsl_matrix_free(Ms);
            gsl_matrix_free(KSs);
            fl_stab_tangent_free(td);
            fl_stab_sparse_tangent_free(&ctx, ts);
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
    cr_assert(ncases > 40 && nchol_fail > 3, "%d cases, %d not PD %s", ncases, nchol_fail, fl_test_seed_note());
    fl_sparse_finish(&ctx);
    gsl_rng_free(g);
}

Test(stability_sparse, example_3_15_closed_form)
{
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    const double k[4][4] = {{1, -1, 0, 0}, {-1, 2, 0, -1}, {0, 0, 1, 0}, {0, -1, 0, 1}};
    gsl_matrix *Kd = gsl_matrix_alloc(4, 4), *Md = gsl_matrix_alloc(4, 4);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) gsl_matrix_set(Kd, i, j, k[i][j]);
    gsl_matrix_set_identity(Md);
    cholmod_sparse *K, *M;
    cr_assert_eq(fl_sparse_from_dense(&ctx, Kd, 1, 0.0, &K, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, Md, 0, 0.0, &M, NULL), FL_OK);
    unsigned char pres[4] = {1, 0, 0, 0};
    size_t iT = 2, iN = 3;
    double r[4] = {1, 0, 0, -1};
    fl_stab_label lab = FL_STAB_PS;
    for (double mu = 0.5; mu < 6; mu += 0.75) {
        r[2] = -mu;
        fl_stab_sparse_system s = {.n = 4, .K = K, .M = M, .prescribed = pres, .np = 1, .iT = &iT, .iN = &iN, .mu = mu};
        fl_stab_sparse_tangent *t;
        cr_assert_eq(fl_stab_sparse_tangent_alloc(&ctx, &s, &lab, r, &t, NULL), FL_OK);
        fl_stab_result res;
        cr_assert_eq(fl_stab_sparse_analyse(&ctx, t, NULL, 1000, &res, NULL), FL_OK);
        double cf = (3 - sqrt(1 + mu * mu)) / 2;
        cr_assert(fabs(res.ks_min - cf) < 1e-10, "mu=%g %.15g vs %.15g", mu, res.ks_min, cf);
        cr_assert_eq(res.ks_cholesky_pd, mu < 2 * sqrt(2.0));
        cr_assert(res.ks_vec_admissible);
        cr_assert(gsl_vector_get(res.ks_vec, 1) > 0, "v_T >= 0 (118)");
        fl_stab_result_free(&res);
        fl_stab_sparse_tangent_free(&ctx, t);
    }
    /* bad input */
    fl_error err;
    fl_stab_sparse_tangent *t;
    fl_stab_sparse_system bad = {.n = 3, .K = K, .M = M, .prescribed = pres, .np = 1, .iT = &iT, .iN = &iN, .mu = 1};
    cr_assert_eq(fl_stab_sparse_tangent_alloc(&ctx, &bad, &lab, r, &t, &err), FL_EDIM);
    bad.n = 4;
    fl_stab_label wrong = (fl_stab_label)9, stuck = FL_STAB_PD;
    cr_assert_eq(fl_stab_sparse_tangent_alloc(&ctx, &bad, &wrong, r, &t, &err), FL_EINVAL);
    size_t big = 7;
    bad.iN = &big;
    cr_assert_eq(fl_stab_sparse_tangent_alloc(&ctx, &bad, &lab, r, &t, &err), FL_EINVAL);
    unsigned char allp[4] = {1, 1, 0, 0};
    bad.iN = &iN;
    bad.prescribed = allp;
    cr_assert_eq(fl_stab_sparse_tangent_alloc(&ctx, &bad, &stuck, r, &t, &err), FL_EINVAL);
    fl_stab_result res;
    cr_assert_eq(fl_stab_sparse_analyse(&ctx, NULL, NULL, 10, &res, &err), FL_EINVAL);
    fl_stab_sparse_tangent_free(&ctx, NULL);
    fl_sparse_free(&ctx, &K);
    fl_sparse_free(&ctx, &M);
    gsl_matrix_free(Kd);
    gsl_matrix_free(Md);
    fl_sparse_finish(&ctx);
}
