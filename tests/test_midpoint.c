/* test_midpoint.c — the midpoint scheme of 002 (reference/midpoint.c):
 * Lemma 4.1 (uniqueness of the static normal problem, Lipschitz ratios of
 * g1, g2), inequality (18), Proposition 5.1 (discrete energy identity,
 * friction work <= 0, persistency going to 0 with dt) on random small FE
 * systems, energy conservation without contact, Gauss-Seidel against
 * enumeration, the implicit variant's dissipation, bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "reference/midpoint.h"
#include "testkit/fl_random.h"
#include "models/fl_model_square_block.h"
#include "fl_rng.h"

/* ---------------- Lemma 4.1 ---------------- */

static double spectral_extreme(const gsl_matrix *A, int want_max)
{
    size_t n = A->size1;
    gsl_matrix *C = gsl_matrix_alloc(n, n);
    gsl_matrix_memcpy(C, A);
    gsl_vector *ev = gsl_vector_alloc(n);
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(n);
    gsl_eigen_symm(C, ev, w);
    double r = want_max ? gsl_vector_max(ev) : gsl_vector_min(ev);
    gsl_eigen_symm_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(C);
    return r;
}

/* Brute force: every active set J of the LCP z = b + ANN y (y_J > 0,
 * z_J = 0, y_rest = 0, z_rest >= 0); returns the number of solutions and
 * the last one in y. */
static int lcp_brute(const gsl_matrix *ANN, const gsl_vector *b, gsl_vector *y)
{
    size_t nc = b->size;
    int count = 0;
    for (size_t mask = 0; mask < ((size_t)1 << nc); mask++) {
        size_t k = 0, idx[16];
        for (size_t i = 0; i < nc; i++)
            if (mask & ((size_t)1 << i)) idx[k++] = i;
        gsl_vector *yy = gsl_vector_calloc(nc);
        if (k > 0) {
            gsl_matrix *S = gsl_matrix_alloc(k, k);
            gsl_vector *r = gsl_vector_alloc(k), *x = gsl_vector_alloc(k);
            for (size_t i = 0; i < k; i++) {
                gsl_vector_set(r, i, -gsl_vector_get(b, idx[i]));
                for (size_t j = 0; j < k; j++) gsl_matrix_set(S, i, j, gsl_matrix_get(ANN, idx[i], idx[j]));
            }
            gsl_linalg_cholesky_decomp1(S);
            gsl_linalg_cholesky_solve(S, r, x);
            for (size_t i = 0; i < k; i++) gsl_vector_set(yy, idx[i], gsl_vector_get(x, i));
            gsl_matrix_free(S); gsl_vector_free(r); gsl_vector_free(x);
        }
        int ok = 1;
        double sc = gsl_blas_dnrm2(b) + 1e-300;
        for (size_t i = 0; i < nc && ok; i++) {
            double z = gsl_vector_get(b, i);
            for (size_t j = 0; j < nc; j++) z += gsl_matrix_get(ANN, i, j) * gsl_vector_get(yy, j);
            if (gsl_vector_get(yy, i) < -1e-12 * sc || z < -1e-10 * sc) ok = 0;
        }
        if (ok) {
            count++;
            gsl_vector_memcpy(y, yy);
        }
        gsl_vector_free(yy);
    }
    return count;
}

static void random_rows(gsl_rng *r, size_t nc, size_t n, gsl_matrix *Bnu, gsl_matrix *Btau)
{
    gsl_matrix *Q = gsl_matrix_alloc(n, n);
    cr_assert_eq(fl_random_orthogonal(r, Q), FL_OK);
    for (size_t i = 0; i < nc; i++) {
        gsl_vector_view a = gsl_matrix_row(Q, i);
        gsl_matrix_set_row(Bnu, i, &a.vector);
        if (Btau) {
            gsl_vector_view b = gsl_matrix_row(Q, nc + i);
            gsl_matrix_set_row(Btau, i, &b.vector);
        }
    }
    gsl_matrix_free(Q);
}

static void project_perp(const gsl_matrix *B, gsl_vector *x)
{
    gsl_vector *c = gsl_vector_alloc(B->size1);
    gsl_blas_dgemv(CblasNoTrans, 1.0, B, x, 0.0, c);
    gsl_blas_dgemv(CblasTrans, -1.0, B, c, 1.0, x);
    gsl_vector_free(c);
}

Test(midpoint, lemma_4_1_unique_and_lipschitz)
{
    gsl_rng *r = fl_test_rng(41);
    for (int trial = 0; trial < 60; trial++) {
        size_t n = 10 + gsl_rng_uniform_int(r, 20), nc = 2 + gsl_rng_uniform_int(r, 5);
        gsl_matrix *A = gsl_matrix_alloc(n, n), *Bnu = gsl_matrix_alloc(nc, n);
        gsl_vector *f = gsl_vector_alloc(n);
        cr_assert_eq(fl_random_spd(r, 1e2, 1.0, A), FL_OK);
        random_rows(r, nc, n, Bnu, NULL);
        fl_random_vector(r, 1.0, f);
        /* A_NN and the derived bounds (002 Lemma 4.1) */
        gsl_matrix *AB = gsl_matrix_alloc(n, nc), *ANN = gsl_matrix_alloc(nc, nc);
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, A, Bnu, 0.0, AB);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Bnu, AB, 0.0, ANN);
        double nA = spectral_extreme(A, 1), lmin = spectral_extreme(ANN, 0), nANN = spectral_extreme(ANN, 1);
        double L1 = nA / lmin, L2 = (1 + nANN / lmin) * nA;
        gsl_vector *w[2], *g1[2], *g2[2];
        for (int k = 0; k < 2; k++) {
            w[k] = gsl_vector_alloc(n);
            g1[k] = gsl_vector_alloc(n);
            g2[k] = gsl_vector_alloc(nc);
            fl_random_vector(r, 1.0, w[k]);
            project_perp(Bnu, w[k]);
            fl_error e;
            cr_assert_eq(fl_midpoint_lemma41(A, f, Bnu, w[k], g1[k], g2[k], &e), FL_OK, "%s", e.message);
        }
        /* uniqueness: brute force over the 2^nc active sets finds exactly one,
         * and it is ours */
        gsl_vector *rr = gsl_vector_alloc(n), *b = gsl_vector_alloc(nc), *y = gsl_vector_alloc(nc);
        gsl_vector_memcpy(rr, f);
        gsl_blas_dgemv(CblasNoTrans, -1.0, A, w[0], 1.0, rr);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Bnu, rr, 0.0, b);
        cr_assert_eq(lcp_brute(ANN, b, y), 1, "static normal problem has one solution %s",
                     fl_test_seed_note());
        gsl_vector *xN = gsl_vector_alloc(nc);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Bnu, g1[0], 0.0, xN);     /* nu_i^T u_N = -y_i */
        for (size_t i = 0; i < nc; i++) {
            cr_assert_float_eq(gsl_vector_get(xN, i), -gsl_vector_get(y, i),
                               1e-9 * (gsl_blas_dnrm2(y) + 1e-12), "%s", fl_test_seed_note());
            cr_assert_leq(gsl_vector_get(g2[0], i), 0.0, "lambda_nu <= 0 (paper sign)");
            cr_assert_leq(fabs(gsl_vector_get(xN, i) * gsl_vector_get(g2[0], i)), 1e-12 * (1 + nA));
        }
        /* (10): B_nu A (u_perp + u_N) = B_nu f + lambda_nu */
        gsl_vector *s = gsl_vector_alloc(n), *As = gsl_vector_alloc(n), *res = gsl_vector_alloc(nc);
        gsl_vector_memcpy(s, w[0]);
        gsl_vector_add(s, g1[0]);
        gsl_blas_dgemv(CblasNoTrans, 1.0, A, s, 0.0, As);
        gsl_vector_sub(As, f);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Bnu, As, 0.0, res);
        gsl_vector_sub(res, g2[0]);
        cr_assert_lt(gsl_blas_dnrm2(res), 1e-10 * (1 + gsl_blas_dnrm2(f)), "residual of (10) %s",
                     fl_test_seed_note());
        /* Lipschitz ratios (11) */
        gsl_vector *d = gsl_vector_alloc(n), *d1 = gsl_vector_alloc(n), *d2 = gsl_vector_alloc(nc);
        gsl_vector_memcpy(d, w[0]); gsl_vector_sub(d, w[1]);
        gsl_vector_memcpy(d1, g1[0]); gsl_vector_sub(d1, g1[1]);
        gsl_vector_memcpy(d2, g2[0]); gsl_vector_sub(d2, g2[1]);
        double dn = gsl_blas_dnrm2(d);
        cr_assert_leq(gsl_blas_dnrm2(d1) / dn, L1 * (1 + 1e-9), "L1 %s", fl_test_seed_note());
        cr_assert_leq(gsl_blas_dnrm2(d2) / dn, L2 * (1 + 1e-9), "L2 %s", fl_test_seed_note());
        for (int k = 0; k < 2; k++) { gsl_vector_free(w[k]); gsl_vector_free(g1[k]); gsl_vector_free(g2[k]); }
        gsl_vector_free(d); gsl_vector_free(d1); gsl_vector_free(d2);
        gsl_vector_free(s); gsl_vector_free(As); gsl_vector_free(res); gsl_vector_free(xN);
        gsl_vector_free(rr); gsl_vector_free(b); gsl_vector_free(y);
        gsl_matrix_free(AB); gsl_matrix_free(ANN); gsl_matrix_free(A); gsl_matrix_free(Bnu);
        gsl_vector_free(f);
    }
    gsl_rng_free(r);
}

/* (18): (a1 z - a2 x)(b1 - b2) <= |a1 - a2||b1 - b2| for a1, a2 <= 0,
 * z in Sgn(b1), x in Sgn(b2). */
Test(midpoint, inequality_18)
{
    gsl_rng *r = fl_test_rng(18);
    for (int k = 0; k < 200000; k++) {
        double a1 = -fabs(gsl_ran_gaussian(r, 1)), a2 = -fabs(gsl_ran_gaussian(r, 1));
        double b1 = k % 5 == 0 ? 0.0 : gsl_ran_gaussian(r, 1), b2 = k % 7 == 0 ? 0.0 : gsl_ran_gaussian(r, 1);
        double z = b1 != 0 ? copysign(1.0, b1) : 2 * gsl_rng_uniform(r) - 1;
        double x = b2 != 0 ? copysign(1.0, b2) : 2 * gsl_rng_uniform(r) - 1;
        cr_assert_leq((a1 * z - a2 * x) * (b1 - b2), fabs(a1 - a2) * fabs(b1 - b2) + 1e-15,
                      "%s", fl_test_seed_note());
    }
    gsl_rng_free(r);
}

/* ---------------- Proposition 5.1 on random FE blocks ---------------- */

static fl_midpoint_block *random_block(gsl_rng *r, fl_redist_kind kind)
{
    fl_random_block_options o = fl_random_block_options_default();
    o.nx_max = 4;
    o.ny_max = 3;
    o.mu_max = 2.0;
    fl_midpoint_block_params bp = fl_random_midpoint_block(r, &o, kind);
    fl_midpoint_block *b;
    fl_error e;
    cr_assert_eq(fl_midpoint_block_alloc(&bp, &b, &e), FL_OK, "%s", e.message);
    return b;
}

typedef struct run_stats {
    double max_identity, max_friction, max_residual, sum_abs_normal, net_normal, sum_persistency, e0, e_end;
} run_stats;

/* Run nsteps from (u0, v0) and collect the Prop. 5.1 quantities. */
static run_stats run(const fl_midpoint_problem *p, double dt, int nsteps, fl_midpoint_contact where,
                     const gsl_vector *u0, const gsl_vector *v0)
{
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = dt;
    o.contact = where;
    o.tol = 1e-13;
    fl_midpoint *mp;
    fl_midpoint_state *st;
    fl_error e;
    cr_assert_eq(fl_midpoint_alloc(p, &o, &mp, &e), FL_OK, "%s", e.message);
    cr_assert_eq(fl_midpoint_state_alloc(p->n, p->nc, &st, &e), FL_OK);
    gsl_vector_memcpy(st->u, u0);
    gsl_vector_memcpy(st->v, v0);
    run_stats s;
    memset(&s, 0, sizeof s);
    s.e0 = fl_midpoint_energy(p, st->u, st->v);
    double eprev = s.e0;
    for (int k = 0; k < nsteps; k++) {
        fl_midpoint_result res;
        fl_status rc = fl_midpoint_step(mp, st, &res, &e);
        cr_assert_geq(rc, FL_OK, "step %d: %s", k, e.message);
        double scale = fabs(eprev) + fabs(res.energy) + fabs(res.work_normal) + fabs(res.work_friction) + 1e-30;
        s.max_identity = fmax(s.max_identity, fabs(res.energy - eprev - res.work_normal - res.work_friction) / scale);
        s.max_friction = fmax(s.max_friction, res.work_friction / scale);
        s.max_residual = fmax(s.max_residual, res.residual);
        s.sum_abs_normal += fabs(res.work_normal);
        s.net_normal += res.work_normal;
        s.sum_persistency += res.persistency * dt;
        eprev = res.energy;
    }
    s.e_end = eprev;
    fl_midpoint_state_free(st);
    fl_midpoint_free(mp);
    return s;
}

Test(midpoint, proposition_5_1_energy_identity_and_friction_sign)
{
    gsl_rng *r = fl_test_rng(51);
    for (int trial = 0; trial < 12; trial++) {
        fl_midpoint_block *b = random_block(r, (fl_redist_kind)(trial % 3));
        const fl_midpoint_problem *p = &b->prob;
        gsl_vector *u0 = gsl_vector_calloc(p->n), *v0 = gsl_vector_alloc(p->n);
        fl_error e;
        cr_assert_eq(fl_midpoint_static(p, u0, &e), FL_OK, "%s", e.message);
        fl_random_vector(r, 0.3, v0);
        for (int where = 0; where < 2; where++) {
            run_stats s = run(p, 0.02, 150, (fl_midpoint_contact)where, u0, v0);
            cr_assert_lt(s.max_identity, 1e-9, "E^{k+1}-E^k = normal + friction work (trial %d) %s", trial,
                         fl_test_seed_note());
            if (where == 0)
                cr_assert_leq(s.max_friction, 1e-12, "friction work <= 0 (Prop. 5.1) %s", fl_test_seed_note());
            cr_assert_lt(s.max_residual, 1e-8, "step problems solved %s", fl_test_seed_note());
        }
        gsl_vector_free(u0);
        gsl_vector_free(v0);
        fl_midpoint_block_free(b);
    }
    gsl_rng_free(r);
}

/* With the paper's redistribution the energy (19) can only grow through
 * the normal work (Prop. 5.1: friction work <= 0), and the net normal work
 * over a fixed time goes to 0 with dt (the discrete trace of the
 * persistency condition, 002 §5).  Observed, and asserted as such: the
 * per-step terms |lambda_nu nu^T v^{k+1/2}| do NOT vanish with dt for the
 * plain midpoint scheme: with Ker M_r = N the normal displacement at
 * integer steps keeps an alternating mode (u^{k+1} = 2 u^{k+1/2} - u^k with
 * nu^T u^{k+1/2} = 0), whose contributions cancel in the sum. */
Test(midpoint, net_normal_work_shrinks_with_dt)
{
    gsl_rng *r = fl_test_rng(52);
    int improved = 0, trials = 8;
    for (int trial = 0; trial < trials; trial++) {
        fl_midpoint_block *b = random_block(r, FL_REDIST_NORMAL);
        const fl_midpoint_problem *p = &b->prob;
        gsl_vector *u0 = gsl_vector_calloc(p->n), *v0 = gsl_vector_alloc(p->n);
        fl_midpoint_static(p, u0, NULL);
        fl_random_vector(r, 0.3, v0);
        run_stats s1 = run(p, 0.02, 100, FL_MIDPOINT_AT_MIDPOINT, u0, v0);
        run_stats s2 = run(p, 0.005, 400, FL_MIDPOINT_AT_MIDPOINT, u0, v0);
        run_stats s3 = run(p, 0.00125, 1600, FL_MIDPOINT_AT_MIDPOINT, u0, v0);
        cr_log_info("net normal work %g -> %g -> %g (sum of |.|: %g %g %g)", s1.net_normal, s2.net_normal,
                    s3.net_normal, s1.sum_abs_normal, s2.sum_abs_normal, s3.sum_abs_normal);
        if (fabs(s3.net_normal) < fabs(s1.net_normal) || s1.sum_abs_normal < 1e-12) improved++;
        cr_assert_leq(s3.e_end - s3.e0, s3.net_normal + 1e-9 * (fabs(s3.e0) + s3.sum_abs_normal),
                      "E(T) - E(0) <= net normal work %s", fl_test_seed_note());
        gsl_vector_free(u0);
        gsl_vector_free(v0);
        fl_midpoint_block_free(b);
    }
    cr_assert_geq(improved, trials - 1, "net normal work shrinks with dt in %d of %d systems %s", improved, trials,
                  fl_test_seed_note());
    gsl_rng_free(r);
}

/* Without active contact the midpoint scheme conserves (19) exactly. */
Test(midpoint, energy_conserved_without_contact)
{
    gsl_rng *r = fl_test_rng(53);
    fl_midpoint_block *b = random_block(r, FL_REDIST_NORMAL);
    fl_midpoint_problem p = b->prob;
    gsl_vector *f = gsl_vector_alloc(p.n);
    gsl_vector_memcpy(f, p.f);
    for (size_t i = 0; i < p.nc; i++) {     /* pull hard away from the foundation */
        gsl_vector_const_view nu = gsl_matrix_const_row(p.Bnu, i);
        gsl_blas_daxpy(-50.0, &nu.vector, f);
    }
    p.f = f;
    gsl_vector *u0 = gsl_vector_calloc(p.n), *v0 = gsl_vector_calloc(p.n);
    fl_midpoint_static(&p, u0, NULL);
    run_stats s = run(&p, 0.01, 200, FL_MIDPOINT_AT_MIDPOINT, u0, v0);
    cr_assert_lt(s.sum_abs_normal, 1e-14);
    cr_assert_float_eq(s.e_end, s.e0, 1e-11 * fabs(s.e0));
    gsl_vector_free(f); gsl_vector_free(u0); gsl_vector_free(v0);
    fl_midpoint_block_free(b);
    gsl_rng_free(r);
}

/* Implicit contact forces: the normal work -r_n . gap^k is <= 0. */
Test(midpoint, implicit_contact_forces_dissipate_in_the_normal_direction)
{
    gsl_rng *r = fl_test_rng(54);
    for (int trial = 0; trial < 4; trial++) {
        fl_midpoint_block *b = random_block(r, FL_REDIST_NONE);
        const fl_midpoint_problem *p = &b->prob;
        fl_midpoint_options o = fl_midpoint_options_default();
        o.dt = 0.02;
        o.contact = FL_MIDPOINT_IMPLICIT;
        fl_midpoint *mp;
        fl_midpoint_state *st;
        cr_assert_eq(fl_midpoint_alloc(p, &o, &mp, NULL), FL_OK);
        fl_midpoint_state_alloc(p->n, p->nc, &st, NULL);
        fl_midpoint_static(p, st->u, NULL);
        fl_random_vector(r, 0.3, st->v);
        for (int k = 0; k < 100; k++) {
            fl_midpoint_result res;
            cr_assert_geq(fl_midpoint_step(mp, st, &res, NULL), FL_OK);
            cr_assert_leq(res.work_normal, 1e-12 * (1 + fabs(res.energy)), "step %d %s", k, fl_test_seed_note());
            /* gap at t_{k+1} >= 0 */
            for (size_t i = 0; i < p->nc; i++) {
                gsl_vector_const_view nu = gsl_matrix_const_row(p->Bnu, i);
                double g;
                gsl_blas_ddot(&nu.vector, st->u, &g);
                cr_assert_leq(g, 1e-12, "nu^T u^{k+1} <= 0");
            }
        }
        fl_midpoint_state_free(st);
        fl_midpoint_free(mp);
        fl_midpoint_block_free(b);
    }
    gsl_rng_free(r);
}

/* Gauss-Seidel and enumeration agree where the step problem has one
 * solution (small F, few contacts). */
Test(midpoint, gauss_seidel_matches_enumeration)
{
    gsl_rng *r = fl_test_rng(55);
    int compared = 0;
    for (int trial = 0; trial < 200; trial++) {
        size_t nc = 1 + gsl_rng_uniform_int(r, 3), m = 2 * nc;
        gsl_matrix *D = gsl_matrix_alloc(m, m), *sols = gsl_matrix_alloc(16, m);
        gsl_vector *q = gsl_vector_alloc(m), *y = gsl_vector_calloc(m);
        cr_assert_eq(fl_random_spd(r, 10.0, 1.0, D), FL_OK);
        fl_random_vector(r, 1.0, q);
        double mu = fl_rng_loguniform(r, 0.01, 0.3);
        size_t ns;
        cr_assert_eq(fl_midpoint_local_enumerate(D, q, mu, sols, &ns, NULL), FL_OK);
        cr_assert_geq(ns, 1u, "a solution exists %s", fl_test_seed_note());
        int it;
        cr_assert_eq(fl_midpoint_local_gs(D, q, mu, 1e-14, 10000, y, &it, NULL), FL_OK);
        cr_assert_lt(fl_midpoint_local_residual(D, q, mu, y), 1e-10);
        if (ns == 1) {
            compared++;
            for (size_t j = 0; j < m; j++)
                cr_assert_float_eq(gsl_vector_get(y, j), gsl_matrix_get(sols, 0, j), 1e-8 * (1 + gsl_blas_dnrm2(y)),
                                   "%s", fl_test_seed_note());
        }
        for (size_t k = 0; k < ns && k < 16; k++) {
            gsl_vector_view s = gsl_matrix_row(sols, k);
            cr_assert_lt(fl_midpoint_local_residual(D, q, mu, &s.vector), 1e-9);
        }
        gsl_matrix_free(D); gsl_matrix_free(sols); gsl_vector_free(q); gsl_vector_free(y);
    }
    cr_assert_gt(compared, 150);
    gsl_rng_free(r);
}

Test(midpoint, bad_input)
{
    gsl_rng *r = fl_test_rng(56);
    fl_midpoint_block *b = random_block(r, FL_REDIST_NORMAL);
    fl_midpoint_problem p = b->prob;
    fl_midpoint_options o = fl_midpoint_options_default();
    fl_midpoint *mp = (fl_midpoint *)1;
    fl_error e;
    o.dt = -1;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EINVAL);
    cr_assert_null(mp);
    o = fl_midpoint_options_default();
    o.solver = FL_MIDPOINT_LOCAL_ENUM;   /* too many contacts for enumeration */
    o.enum_max_contacts = 1;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EINVAL);
    o = fl_midpoint_options_default();
    o.contact = (fl_midpoint_contact)5;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EINVAL);
    o = fl_midpoint_options_default();
    o.solver = (fl_midpoint_local)5;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EINVAL);
    o = fl_midpoint_options_default();
    p.mu = -1;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EINVAL);
    p = b->prob;
    p.Mr = NULL;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EDIM);
    p = b->prob;
    p.nc = 0;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_EDIM);
    p = b->prob;
    gsl_vector *fbad = gsl_vector_alloc(p.n);
    gsl_vector_memcpy(fbad, p.f);
    gsl_vector_set(fbad, 0, NAN);
    p.f = fbad;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_ENONFINITE);
    p = b->prob;
    /* A not positive definite */
    gsl_matrix *Abad = gsl_matrix_calloc(p.n, p.n);
    p.A = Abad;
    gsl_matrix *Z = gsl_matrix_calloc(p.n, p.n);
    p.Mr = Z;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_ENOTSPD);
    p = b->prob;
    cr_assert_eq(fl_midpoint_alloc(&p, &o, &mp, &e), FL_OK);
    fl_midpoint_state *st;
    cr_assert_eq(fl_midpoint_state_alloc(p.n + 1, p.nc, &st, &e), FL_OK);
    cr_assert_eq(fl_midpoint_step(mp, st, NULL, &e), FL_EDIM);
    fl_midpoint_state_free(st);
    cr_assert_eq(fl_midpoint_state_alloc(0, 1, &st, &e), FL_EINVAL);
    fl_midpoint_free(mp);
    fl_midpoint_free(NULL);
    fl_midpoint_state_free(NULL);
    /* local solvers */
    gsl_matrix *D = gsl_matrix_alloc(3, 3), *S = gsl_matrix_alloc(2, 3);
    gsl_vector *q = gsl_vector_alloc(3), *y = gsl_vector_alloc(3);
    size_t ns;
    int it;
    cr_assert_eq(fl_midpoint_local_enumerate(D, q, 0.1, S, &ns, &e), FL_EDIM);
    cr_assert_eq(fl_midpoint_local_gs(D, q, 0.1, 1e-10, 10, y, &it, &e), FL_EDIM);
    gsl_matrix *D18 = gsl_matrix_calloc(18, 18), *S18 = gsl_matrix_alloc(1, 18);
    gsl_vector *q18 = gsl_vector_calloc(18);
    cr_assert_eq(fl_midpoint_local_enumerate(D18, q18, 0.1, S18, &ns, &e), FL_EINVAL);
    gsl_matrix *D2 = gsl_matrix_alloc(2, 2), *S2 = gsl_matrix_alloc(1, 2);
    gsl_matrix_set_identity(D2);
    gsl_vector *q2 = gsl_vector_calloc(2), *y2 = gsl_vector_calloc(2);
    cr_assert_eq(fl_midpoint_local_enumerate(D2, q2, -1, S2, &ns, &e), FL_EINVAL);
    gsl_vector_set(q2, 0, -1.0);
    gsl_vector_set(q2, 1, 5.0);
    cr_assert_eq(fl_midpoint_local_gs(D2, q2, 0.5, 1e-30, 1, y2, &it, &e), FL_WMAXITER, "stops at max_iter");
    cr_assert_eq(fl_midpoint_local_gs(D2, q2, 0.5, 1e-30, 5, y2, &it, &e), FL_OK, "one block: exact at sweep 2");
    gsl_vector *uN = gsl_vector_alloc(p.n), *ln = gsl_vector_alloc(3);
    cr_assert_eq(fl_midpoint_lemma41(p.A, p.f, p.Bnu, p.f, uN, ln, &e), FL_EDIM);
    gsl_vector *u = gsl_vector_alloc(3);
    cr_assert_eq(fl_midpoint_static(&p, u, &e), FL_EDIM);
    fl_model_square_block m002;
    fl_error e002;
    cr_assert_eq(fl_model_square_block_load_data(NULL, &m002, &e002), FL_OK, "%s", e002.message);
    fl_midpoint_block_params bp = m002.block;
    bp.nx = 0;
    fl_midpoint_block *bb;
    cr_assert_eq(fl_midpoint_block_alloc(&bp, &bb, &e), FL_EINVAL);
    fl_midpoint_block_free(NULL);
    gsl_matrix_free(D); gsl_matrix_free(S); gsl_vector_free(q); gsl_vector_free(y);
    gsl_matrix_free(D18); gsl_matrix_free(S18); gsl_vector_free(q18);
    gsl_matrix_free(D2); gsl_matrix_free(S2); gsl_vector_free(q2); gsl_vector_free(y2);
    gsl_vector_free(uN); gsl_vector_free(ln); gsl_vector_free(u);
    gsl_matrix_free(Abad); gsl_matrix_free(Z); gsl_vector_free(fbad);
    fl_midpoint_block_free(b);
    gsl_rng_free(r);
}
