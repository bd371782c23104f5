/* test_asymptotics.c — gamma(q), A(q,u-), A_eps, excesses and Hausdorff
 * distances (000 §3; reference/asymptotics.c), and Theorem 1 on the rod of
 * data/000/theorem1_rod.json.  Kinds: unit (hand-computed distances,
 * gamma closed forms against a brute-force minimum over D_1), example
 * (data/000 values), property (random systems), bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>

#include "fl_data.h"
#include "fl_dense.h"
#include "testkit/fl_random.h"
#include "fl_rng.h"
#include "checks/moreau_checks.h"
#include "models/fl_model_theorem1_rod.h"
#include "reference/asymptotics.h"
#include "fl_scalar.h"

static gsl_vector *vec(size_t n, const double *a)
{
    gsl_vector *v = gsl_vector_alloc(n);
    memcpy(v->data, a, n * sizeof *a);
    return v;
}

/* ---- distances (000 §3) by hand ---- */
Test(asymptotics, distances_and_excesses_by_hand)
{
    const double a[2] = {0, 0}, b[2] = {2, 0};
    fl_asymptotics_set A = {1, vec(2, a), vec(2, b), 0};
    const double x1[2] = {1, 3}, x2[2] = {-3, 4}, x3[2] = {5, 4};
    gsl_vector *p1 = vec(2, x1), *p2 = vec(2, x2), *p3 = vec(2, x3);
    cr_assert_float_eq(fl_asymptotics_dist(&A, p1), 3.0, 1e-15);   /* projection inside */
    cr_assert_float_eq(fl_asymptotics_dist(&A, p2), 5.0, 1e-15);   /* clamped at a */
    cr_assert_float_eq(fl_asymptotics_dist(&A, p3), 5.0, 1e-15);   /* clamped at b */
    A.segment = 0;
    cr_assert_float_eq(fl_asymptotics_dist(&A, p1), sqrt(10.0), 1e-15);
    /* finite sets: P = {(0,0), (4,0)}, Q = {(1,0)}: e(P,Q) = 3, e(Q,P) = 1 */
    gsl_matrix *P = gsl_matrix_calloc(2, 2), *Q = gsl_matrix_calloc(1, 2);
    gsl_matrix_set(P, 1, 0, 4);
    gsl_matrix_set(Q, 0, 0, 1);
    cr_assert_float_eq(fl_asymptotics_excess_points(P, 2, Q, 1), 3.0, 1e-15);
    cr_assert_float_eq(fl_asymptotics_excess_points(Q, 1, P, 2), 1.0, 1e-15);
    cr_assert_float_eq(fl_asymptotics_hausdorff_points(P, 2, Q, 1), 3.0, 1e-15);
    cr_assert_float_eq(fl_asymptotics_hausdorff_points(Q, 1, P, 2), 3.0, 1e-15);
    cr_assert_eq(fl_asymptotics_excess_points(P, 0, Q, 1), 0.0);
    cr_assert(isinf(fl_asymptotics_excess_points(P, 2, Q, 0)));
    /* the segment [(0,0),(2,0)] against samples {(0,0)}: e(A,S) = 2 (the far
     * end), e(S,A) = 0; against {(0,0),(2,0)} as a pair: 0 */
    A.segment = 1;
    gsl_matrix *S = gsl_matrix_calloc(2, 2);
    cr_assert_float_eq(fl_asymptotics_excess_set_to_samples(&A, 101, S, 1), 2.0, 1e-15);
    cr_assert_float_eq(fl_asymptotics_excess_samples_to_set(S, 1, &A), 0.0, 1e-15);
    gsl_matrix_set(S, 1, 0, 2);
    cr_assert_float_eq(fl_asymptotics_excess_set_to_samples(&A, 101, S, 2), 1.0, 1e-15); /* midpoint */
    cr_assert_float_eq(fl_asymptotics_excess_set_to_samples(&A, 1, S, 2), 0.0, 1e-15);   /* K < 2 -> ends */
    A.segment = 0;
    cr_assert_float_eq(fl_asymptotics_excess_set_to_samples(&A, 101, S, 2), 0.0, 1e-15);
    /* a degenerate segment a = b */
    fl_asymptotics_set Z = {1, vec(2, a), vec(2, a), 0};
    cr_assert_float_eq(fl_asymptotics_dist(&Z, p1), sqrt(10.0), 1e-15);
    fl_asymptotics_set_release(&Z);
    fl_asymptotics_set_release(&A);
    fl_asymptotics_set_release(NULL);
    gsl_matrix_free(P);
    gsl_matrix_free(Q);
    gsl_matrix_free(S);
    gsl_vector_free(p1);
    gsl_vector_free(p2);
    gsl_vector_free(p3);
}

/* Uniform points of B(c, r) stay in the ball and fill it (mean radius
 * d/(d+1) r for the uniform ball in R^d). */
Test(asymptotics, ball_points_are_uniform_in_the_ball)
{
    gsl_rng *rng = fl_test_rng(5);
    const double c[3] = {1, -2, 0.5};
    gsl_vector *cv = vec(3, c), *x = gsl_vector_alloc(3);
    double mean = 0;
    const int N = 20000;
    for (int i = 0; i < N; i++) {
        fl_asymptotics_ball_point(rng, cv, 0.25, x);
        gsl_vector_sub(x, cv);
        double rr = gsl_blas_dnrm2(x);
        cr_assert(rr <= 0.25 * (1 + 1e-15), "%s", fl_test_seed_note());
        mean += rr / N;
    }
    cr_assert(fabs(mean - 0.75 * 0.25) < 0.01 * 0.25, "mean radius %g; %s", mean,
              fl_test_seed_note());
    gsl_vector_free(cv);
    gsl_vector_free(x);
    gsl_rng_free(rng);
}

/* gamma(q) = min_{w in D_1} <n, M^-1 (n + w)> (000 §3): the closed forms of
 * fl_moreau_gamma against a brute-force minimum over a fine sampling of D_1
 * (upper bound) and the exact minimiser direction (lower bound), on random
 * systems: isotropic ball, interval, 2D disc and polygon. */
Test(asymptotics, gamma_closed_forms_match_brute_force)
{
    gsl_rng *rng = fl_test_rng(17);
    for (int it = 0; it < 80; it++) {
        int kind = it % 4;
        size_t d = kind == 0 ? 2 + it % 5 : kind == 1 ? 2 + it % 4 : 3 + it % 3;
        gsl_matrix *M = gsl_matrix_alloc(d, d);
        cr_assert_eq(fl_random_spd(rng, 100.0, fl_rng_loguniform(rng, 0.1, 10), M), FL_OK);
        gsl_vector *dgap = gsl_vector_alloc(d), *n = gsl_vector_alloc(d), *y = gsl_vector_alloc(d),
                   *Wy = gsl_vector_alloc(d);
        fl_random_vector(rng, 1.0, dgap);
        gsl_vector_memcpy(n, dgap);
        gsl_vector_scale(n, 1.0 / gsl_blas_dnrm2(dgap));
        size_t k = kind == 0 ? 0 : kind == 1 ? 1 : 2;
        gsl_matrix *T = k ? gsl_matrix_alloc(d, k) : NULL;
        for (size_t i = 0; k && i < d; i++)
            for (size_t j = 0; j < k; j++) gsl_matrix_set(T, i, j, gsl_ran_gaussian(rng, 1.0));
        fl_friction_set C;
        memset(&C, 0, sizeof C);
        double mu = fl_random_mu(rng);
        if (kind == 1) fl_friction_set_interval(&C, -mu, fl_random_mu(rng), NULL);
        if (kind == 2) fl_friction_set_disc(&C, 2, mu, NULL);
        if (kind == 3) {
            const double pent[10] = {1, 0, 0.3, 0.9, -0.8, 0.6, -0.8, -0.6, 0.3, -0.9};
            double v[10];
            for (int i = 0; i < 10; i++) v[i] = mu * pent[i];
            cr_assert_eq(fl_friction_set_polygon(&C, 5, v, 0, NULL, NULL), FL_OK);
        }
        fl_moreau_problem p = {.d = d, .M = M, .gap = 0, .dgap = dgap,
                               .friction = kind == 0 ? FL_MOREAU_ISOTROPIC : FL_MOREAU_SET,
                               .mu = mu, .tangent = T, .C = kind ? &C : NULL, .v = dgap};
        double g;
        cr_assert_eq(fl_moreau_gamma(&p, &g, NULL), FL_OK, "%s", fl_test_seed_note());
        fl_spd *spd = NULL;
        fl_spd_alloc(M, &spd, NULL);
        /* brute force: sample w in D_1 */
        double best = INFINITY;
        gsl_vector *w = gsl_vector_alloc(d), *wbest = gsl_vector_calloc(d);
        for (int s = 0; s < 20000; s++) {
            gsl_vector_memcpy(y, n);
            if (kind == 0) {                        /* ball of radius mu in n^perp */
                /* first half: random points; second half: random perturbations
                 * of the best point, shrinking (a hill climb on the sphere) */
                fl_random_vector(rng, 1.0, w);
                double rad = s % 2 ? 1.0 : gsl_rng_uniform(rng);
                if (s >= 10000) {
                    gsl_vector_scale(w, mu * pow(0.999, s - 10000));
                    gsl_vector_add(w, wbest);
                    rad = 1.0;
                }
                double wn;
                gsl_blas_ddot(w, n, &wn);
                gsl_blas_daxpy(-wn, n, w);
                gsl_vector_scale(w, mu * rad / gsl_blas_dnrm2(w));
                gsl_vector_add(y, w);
            } else {
                double c[2] = {0, 0};
                if (kind == 1) c[0] = C.lo + (C.hi - C.lo) * s / 19999.0;
                else if (kind == 2) {
                    c[0] = mu * cos(2 * FL_PI * s / 20000.0);
                    c[1] = mu * sin(2 * FL_PI * s / 20000.0);
                } else {
                    size_t e = (size_t)s % 5;
                    double t = (double)(s / 5) / 3999.0;   /* grid, vertices included */
                    const double *A = C.vert + 2 * e, *B = C.vert + 2 * ((e + 1) % 5);
                    c[0] = A[0] + t * (B[0] - A[0]);
                    c[1] = A[1] + t * (B[1] - A[1]);
                }
                for (size_t j = 0; j < k; j++) {
                    gsl_vector_view tj = gsl_matrix_column(T, j);
                    gsl_blas_daxpy(c[j], &tj.vector, y);
                }
            }
            fl_spd_solve(spd, y, Wy);
            double val;
            gsl_blas_ddot(n, Wy, &val);
            if (val < best) {
                best = val;
                if (kind == 0) gsl_vector_memcpy(wbest, w);
            }
        }
        gsl_vector_free(w);
        gsl_vector_free(wbest);
        /* problem scale: <n, W n> + max over D_1 of |<n, W w>| (>= |gamma|) */
        fl_spd_solve(spd, n, Wy);
        double an;
        gsl_blas_ddot(n, Wy, &an);
        double pscale = an + fabs(an - g);
        cr_assert(g <= best + 1e-10 * pscale, "kind %d: gamma %.17g above a sampled value %.17g; %s",
                  kind, g, best, fl_test_seed_note());
        /* sampling resolution: random in the ball (kind 0), grids otherwise */
        double tol = kind == 0 ? 1e-4 : kind == 2 ? 1e-6 : 1e-9;
        cr_assert(best - g <= tol * pscale, "kind %d: gamma %g vs brute force %g (scale %g); %s",
                  kind, g, best, pscale, fl_test_seed_note());
        fl_spd_free(spd);
        if (kind) fl_friction_set_release(&C);
        gsl_matrix_free(M);
        gsl_matrix_free(T);
        gsl_vector_free(dgap);
        gsl_vector_free(n);
        gsl_vector_free(y);
        gsl_vector_free(Wy);
    }
    gsl_rng_free(rng);
}

/* The rod: gamma closed form along theta (data/000/theorem1_rod.json). */
Test(asymptotics, rod_gamma_matches_closed_form)
{
    for (int c = 0; c < 3; c++) {
        fl_model_theorem1_case cs;
        cr_assert_eq(fl_model_theorem1_case_data(NULL, c, &cs, NULL), FL_OK);
        fl_model_theorem1_rod rod = cs.rod;
        double *q = cs.q;
        fl_moreau_system sys;
        fl_model_theorem1_rod_system(&rod, &sys);
        for (int i = 1; i < 40; i++) {
            q[2] = i * (FL_PI / 2) / 40;
            gsl_vector_view qv = gsl_vector_view_array(q, 3);
            double g;
            cr_assert_eq(fl_moreau_system_gamma(&sys, &qv.vector, &g, NULL), FL_OK);
            double c2 = cos(q[2]) * cos(q[2]), sc = sin(q[2]) * cos(q[2]);
            double want = (1 + 3 * c2 - 3 * fl_model_theorem1_rod_mu(&rod, q[2]) * sc) / rod.m;
            cr_assert(fabs(g - want) <= 1e-12 * (1 + fabs(want)), "case %d theta %g: %g vs %g", c,
                      q[2], g, want);
        }
    }
}

/* The rod model of data/000/theorem1_rod.json: A(q, u-) built by the
 * library equals the file's expected gamma(q), kind of A and u~, and u~
 * equals the closed form (0, 0, (3/4) sin theta) of proofs/moreau_law.md §9
 * (angular momentum about A, m = l = 1, J = 1/3). */
Test(asymptotics, rod_cases_match_data_file)
{
    fl_model_theorem1 mod;
    fl_error err;
    cr_assert_eq(fl_model_theorem1_load_data(NULL, &mod, &err), FL_OK, "%s", err.message);
    for (int c = 0; c < 3; c++) {
        fl_model_theorem1_case *cs = &mod.cases[c];
        cr_assert_float_eq(cs->rod.J, cs->rod.m * cs->rod.l * cs->rod.l / 3.0, 1e-15,
                           "J of a slender rod of length 2l");
        fl_moreau_system sys;
        fl_model_theorem1_rod_system(&cs->rod, &sys);
        gsl_vector_view qv = gsl_vector_view_array(cs->q, 3), uv = gsl_vector_view_array(cs->u_minus, 3);
        fl_asymptotics_set A;
        cr_assert_eq(fl_asymptotics_build(&sys, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, &err), FL_OK,
                     "%s", err.message);
        cr_assert(fabs(A.gamma - cs->gamma) <= cs->gamma_tol, "case %d gamma %g", c, A.gamma);
        cr_assert_eq(A.segment, cs->segment, "case %d", c);
        for (size_t i = 0; i < 3; i++)
            cr_assert(fabs(gsl_vector_get(A.b, i) - cs->u_tilde[i]) <= cs->u_tilde_tol,
                      "case %d u~[%zu] = %.17g vs %.17g", c, i, gsl_vector_get(A.b, i), cs->u_tilde[i]);
        /* independent check: u~ = (0, 0, (3/4) sin theta) */
        cr_assert_float_eq(gsl_vector_get(A.b, 2), 0.75 * sin(cs->q[2]), 1e-12);
        fl_asymptotics_set_release(&A);
    }
}

/* 000 Theorem 1 on the rod, small samples: d_H(A_eps, A) decreases in the
 * first two cases; in the third d_H({u-, u~}, A_eps) decreases while
 * d_H(A, A_eps) stays near |u~ - u-|/2.  Consistency (9) in all cases. */
Test(asymptotics, theorem1_on_the_rod, .timeout = 120)
{
    gsl_rng *rng = fl_test_rng(29);
    const size_t ns = 3000;
    gsl_matrix *S = gsl_matrix_alloc(ns, 3);
    const double eps[2] = {1e-1, 1e-3};
    for (int c = 0; c < 3; c++) {
        fl_model_theorem1_case cs;
        cr_assert_eq(fl_model_theorem1_case_data(NULL, c, &cs, NULL), FL_OK);
        fl_model_theorem1_rod rod = cs.rod;
        double *q = cs.q, *um = cs.u_minus;
        fl_moreau_system sys;
        fl_model_theorem1_rod_system(&rod, &sys);
        gsl_vector_view qv = gsl_vector_view_array(q, 3), uv = gsl_vector_view_array(um, 3);
        fl_asymptotics_set A;
        cr_assert_eq(fl_asymptotics_build(&sys, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, NULL), FL_OK);
        fl_asymptotics_set pair = A;
        pair.segment = 0;
        double span = sqrt(1 + gsl_vector_get(A.b, 2) * gsl_vector_get(A.b, 2));
        double dH[2], dP[2], eS[2];
        for (int e = 0; e < 2; e++) {
            size_t nc = 0;
            cr_assert_eq(fl_asymptotics_sample(&sys, &qv.vector, &uv.vector, eps[e], ns, rng, NULL, S, &nc,
                                        NULL), FL_OK);
            cr_assert(nc > ns / 10, "collisions %zu", nc);
            eS[e] = fl_asymptotics_excess_samples_to_set(S, ns, &A);
            dH[e] = fmax(eS[e], fl_asymptotics_excess_set_to_samples(&A, 200, S, ns));
            dP[e] = fmax(fl_asymptotics_excess_samples_to_set(S, ns, &pair),
                         fl_asymptotics_excess_set_to_samples(&pair, 2, S, ns));
        }
        cr_assert(eS[1] <= 3 * eps[1] * span, "case %d: consistency e(A_eps,A) = %g; %s", c, eS[1],
                  fl_test_seed_note());
        if (c < 2) {
            cr_assert(dH[1] <= 0.05 * span && dH[1] < 0.5 * dH[0],
                      "case %d: d_H %g -> %g; %s", c, dH[0], dH[1], fl_test_seed_note());
        } else {
            cr_assert(dP[1] <= 0.05 * span && dP[1] < 0.5 * dP[0], "pair: %g -> %g; %s", dP[0],
                      dP[1], fl_test_seed_note());
            cr_assert(dH[0] >= 0.4 * span && dH[1] >= 0.45 * span && dH[1] <= 0.5 * span + 0.01,
                      "d_H(A, A_eps) = %g, %g should stay near |u~ - u-|/2 = %g; %s", dH[0], dH[1],
                      span / 2, fl_test_seed_note());
        }
        fl_asymptotics_set_release(&A);
    }
    gsl_matrix_free(S);
    gsl_rng_free(rng);
}

/* gamma > 0: M^-1 R ∩ T = {0}, u~ = u-, A = {u-}. */
Test(asymptotics, positive_gamma_gives_a_single_point)
{
    fl_model_theorem1_case cs;
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 1, &cs, NULL), FL_OK);
    fl_model_theorem1_rod rod = cs.rod;
    double *q = cs.q, *um = cs.u_minus;
    q[2] = 0.3;                                   /* gamma(0.3) > 0 for mu = 2 */
    fl_moreau_system sys;
    fl_model_theorem1_rod_system(&rod, &sys);
    gsl_vector_view qv = gsl_vector_view_array(q, 3), uv = gsl_vector_view_array(um, 3);
    fl_asymptotics_set A;
    cr_assert_eq(fl_asymptotics_build(&sys, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, NULL), FL_OK);
    cr_assert(A.gamma > 0);
    cr_assert_eq(A.segment, 0);
    for (size_t i = 0; i < 3; i++)
        cr_assert_float_eq(gsl_vector_get(A.b, i), um[i], 1e-14);
    fl_asymptotics_set_release(&A);
}

static fl_status iso_mass(const gsl_vector *q, gsl_matrix *M, void *data)
{
    (void)q; (void)data;
    gsl_matrix_set_identity(M);
    return FL_OK;
}

static fl_status iso_gap(const gsl_vector *q, double *phi, gsl_vector *dphi, void *data)
{
    (void)data;
    *phi = gsl_vector_get(q, q->size - 1);
    gsl_vector_set_basis(dphi, q->size - 1);
    return FL_OK;
}

static fl_status failing_gap(const gsl_vector *q, double *phi, gsl_vector *dphi, void *data)
{
    (void)q; (void)phi; (void)dphi; (void)data;
    return FL_EINVAL;
}

Test(asymptotics, bad_input_is_rejected)
{
    fl_model_theorem1_case cs;
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 0, &cs, NULL), FL_OK);
    fl_model_theorem1_rod rod = cs.rod;
    double *q = cs.q, *um = cs.u_minus;
    fl_moreau_system sys;
    fl_model_theorem1_rod_system(&rod, &sys);
    gsl_vector_view qv = gsl_vector_view_array(q, 3), uv = gsl_vector_view_array(um, 3);
    fl_asymptotics_set A;
    fl_error e;
    cr_assert_eq(fl_asymptotics_build(&sys, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, NULL, &e), FL_EINVAL);
    cr_assert_eq(fl_asymptotics_build(&sys, NULL, &uv.vector, NULL, 1e-10, 0.0, &A, &e), FL_EDIM);
    q[1] = 0.1;                                   /* not in contact */
    cr_assert_eq(fl_asymptotics_build(&sys, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "not active"), "%s", e.message);
    q[1] = 0.0;
    um[1] = -0.5;                                 /* not tangential */
    cr_assert_eq(fl_asymptotics_build(&sys, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "tangential"), "%s", e.message);
    um[1] = 0.0;
    fl_moreau_system bad = sys;
    bad.gap = failing_gap;
    cr_assert_eq(fl_asymptotics_build(&bad, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, &e), FL_EINVAL);
    /* isotropic d = 3: the disc is two-dimensional, outside (H4) */
    fl_moreau_system iso;
    memset(&iso, 0, sizeof iso);
    iso.d = 3;
    iso.mass = iso_mass;
    iso.gap = iso_gap;
    iso.friction = FL_MOREAU_ISOTROPIC;
    iso.mu = 1;
    cr_assert_eq(fl_asymptotics_build(&iso, &qv.vector, &uv.vector, NULL, 1e-10, 0.0, &A, &e),
                 FL_EUNSUPPORTED);
    /* isotropic d = 2 is one-dimensional friction: u~ of M = I is Coulomb */
    iso.d = 2;
    const double q2[2] = {0, 0}, u2[2] = {-1, 0};
    gsl_vector *qq = vec(2, q2), *uu = vec(2, u2);
    cr_assert_eq(fl_asymptotics_build(&iso, qq, uu, NULL, 1e-10, 0.0, &A, &e), FL_OK, "%s", e.message);
    cr_assert_float_eq(A.gamma, 1.0, 1e-15);
    cr_assert_eq(A.segment, 0);
    fl_asymptotics_set_release(&A);
    /* sampling */
    gsl_rng *rng = fl_rng_alloc(1);
    gsl_matrix *S = gsl_matrix_alloc(10, 3), *S2 = gsl_matrix_alloc(10, 2);
    cr_assert_eq(fl_asymptotics_sample(&sys, &qv.vector, &uv.vector, 0.0, 10, rng, NULL, S, NULL, &e),
                 FL_EINVAL);
    cr_assert_eq(fl_asymptotics_sample(&sys, &qv.vector, &uv.vector, 0.1, 11, rng, NULL, S, NULL, &e),
                 FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(&sys, &qv.vector, &uv.vector, 0.1, 10, rng, NULL, S2, NULL, &e),
                 FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(&bad, &qv.vector, &uv.vector, 0.1, 10, rng, NULL, S, NULL, &e),
                 FL_EINVAL);
    cr_assert_eq(fl_asymptotics_sample(&sys, &qv.vector, &uv.vector, 0.1, 10, rng, NULL, S, NULL, &e),
                 FL_OK);
    gsl_rng_free(rng);
    gsl_matrix_free(S);
    gsl_matrix_free(S2);
    gsl_vector_free(qq);
    gsl_vector_free(uu);
}
