/* test_ppa.c — the proximal-point twins (reference/ppa.h,
 * optimized/ppa_sparse.h; proofs/ppa.md), each through fl_ppa_types[]:
 *   - closed forms: one contact with a diagonal W in each local case
 *     (open, stick, slide), 2D and 3D (proofs/ppa.md §4);
 *   - the frictionless case (mu = 0, the monotone case of the proximal-point
 *     theorem, proofs/ppa.md §3) against the exhaustive enumeration of the
 *     LCP(W_NN, q_N) (reference/lcp_enumerate.h, no code shared), with the
 *     adaptive rule and with a fixed weight, including a singular W;
 *   - the decisions, not only the answer: the first subproblem's weight is
 *     s_W sigma e_0^nu (P3), and its answer solves the regularised problem
 *     (P1) to the inner tolerance e_abs,0 / inner_ratio (P4), both
 *     recomputed here, and the original error obeys the bound (P2);
 *   - the twins agree on random problems with a positive definite W;
 *   - the time limit (FL_WTIMEOUT, the best iterate returned with its error);
 *   - bad input refused alike by both twins, naming the field. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_clock.h"
#include "fl_random.h"
#include "fl_residual.h"
#include "drivers/fl_types.h"
#include "reference/delassus.h"
#include "reference/lcp_enumerate.h"
#include "twin_check.h"
#include "ppa_problems.h"

static double error_of(const fl_local_problem *p, const gsl_vector *r, fl_residual_norm kind)
{
    double e = INFINITY;
    cr_assert_eq(fl_residual_local(p, r, NULL, kind, &e, NULL), FL_OK);
    return e;
}

/* One contact, W = diag(w_N, w_T, w_T) (the same w_T on the tangent
 * directions): the solution in closed form (proofs/ppa.md §4):
 * q_N >= 0: r = 0; else r_N = -q_N / w_N and, with the stick reaction
 * r_T = -q_T / w_T, r_T itself when |r_T| <= mu r_N, else
 * -mu r_N q_T / |q_T| (slide, U_T parallel to q_T). */
static void closed_form(int dim, const double *w, const double *q, double mu, double *r)
{
    memset(r, 0, 3 * sizeof *r);
    if (q[0] >= 0) return;
    r[0] = -q[0] / w[0];
    double st = 0, nq = 0;
    for (int k = 1; k < dim; k++) {
        r[k] = -q[k] / w[k];
        st += r[k] * r[k];
        nq += q[k] * q[k];
    }
    if (sqrt(st) <= mu * r[0]) return;
    for (int k = 1; k < dim; k++) r[k] = -mu * r[0] * q[k] / sqrt(nq);
}

Test(ppa, one_contact_closed_form_every_case_2d_3d, .init = setup, .fini = teardown)
{
    const double w[3] = {2.0, 0.5, 0.5};           /* isotropic tangent block */
    const double qs[4][3] = {{0.3, 1.0, -0.4},     /* open */
                             {-1.0, 0.05, 0.05},   /* stick */
                             {-1.0, 2.0, -1.5},    /* slide */
                             {-4.0, -0.6, 0.9}};   /* slide, other direction */
    for (int dim = 2; dim <= 3; dim++)
        for (int c = 0; c < 4; c++) {
            fl_local_problem *p = one_contact(dim, w, qs[c], 0.4);
            double want[3];
            closed_form(dim, w, qs[c], 0.4, want);
            for (int k = 0; fl_ppa_types[k].name; k++) {
                gsl_vector *r = gsl_vector_alloc(p->m);
                fl_ppa_result res;
                fl_status s = fl_ppa_types[k].solve(p, NULL, r, NULL, &res, NULL);
                cr_assert_eq(s, FL_OK, "%s dim %d case %d: status %d", fl_ppa_types[k].name, dim, c, s);
                for (int i = 0; i < dim; i++)
                    cr_assert_leq(fabs(r->data[i] - want[i]), 1e-9 * (1 + fabs(want[i])),
                                  "%s dim %d case %d r[%d] = %.17g, closed form %.17g",
                                  fl_ppa_types[k].name, dim, c, i, r->data[i], want[i]);
                gsl_vector_free(r);
            }
            fl_local_problem_free(p);
        }
}

/* mu = 0: r_T = 0 and r_N solves LCP(W_NN, q_N); the enumeration's unique
 * solution (W_NN positive definite) is the oracle. */
static void frictionless_against_enumeration(fl_local_problem *p, double eta_fixed)
{
    size_t nc = p->nc, dim = (size_t)p->dim;
    gsl_matrix *Wn = gsl_matrix_alloc(nc, nc);
    gsl_vector *qn = gsl_vector_alloc(nc);
    for (size_t a = 0; a < nc; a++) {
        gsl_vector_set(qn, a, gsl_vector_get(p->q, dim * a));
        for (size_t b = 0; b < nc; b++) gsl_matrix_set(Wn, a, b, gsl_matrix_get(p->W, dim * a, dim * b));
    }
    fl_lcp_solutions *sol = NULL;
    cr_assert_eq(fl_lcp_enumerate(Wn, qn, NULL, &sol, NULL, NULL), FL_OK);
    cr_assert_eq(sol->count, 1, "the LCP of a positive definite W_NN has one solution");
    for (int k = 0; fl_ppa_types[k].name; k++) {
        gsl_vector *r = gsl_vector_alloc(p->m);
        fl_ppa_options o = fl_ppa_options_default();
        o.eta_fixed = eta_fixed;
        o.max_outer = 1000;
        fl_ppa_result res;
        fl_status s = fl_ppa_types[k].solve(p, &o, r, NULL, &res, NULL);
        cr_assert_eq(s, FL_OK, "%s eta_fixed %g: status %d error %g after %d outer",
                     fl_ppa_types[k].name, eta_fixed, s, res.residual, res.outer);
        for (size_t a = 0; a < nc; a++) {
            double z = sol->z[a];
            cr_assert_leq(fabs(r->data[dim * a] - z), 1e-8 * (1 + fabs(z)), "%s contact %zu: r_N %.17g, "
                          "enumeration %.17g", fl_ppa_types[k].name, a, r->data[dim * a], z);
            for (size_t i = 1; i < dim; i++) cr_assert_leq(fabs(r->data[dim * a + i]), 1e-12);
        }
        gsl_vector_free(r);
    }
    fl_lcp_solutions_free(sol);
    gsl_matrix_free(Wn);
    gsl_vector_free(qn);
}

Test(ppa, frictionless_lcp_against_enumeration_adaptive_and_fixed_weight, .init = setup,
     .fini = teardown)
{
    gsl_rng *rng = fl_test_rng(2828);
    for (int trial = 0; trial < 6; trial++) {
        int dim = trial % 2 ? 3 : 2;
        size_t nc = 4 + (size_t)trial;
        fl_local_problem *p = random_local_rank(rng, nc, dim, (size_t)dim * nc + 2, 0.0);
        frictionless_against_enumeration(p, 0.0);    /* adaptive (P3) */
        frictionless_against_enumeration(p, 1.0);    /* fixed: the monotone theorem */
        fl_local_problem_free(p);
    }
    gsl_rng_free(rng);
}

/* Monotone but singular: W of rank n < m (more contact rows than body
 * velocities), frictionless.  The solution set may be a continuum; the
 * answer is judged by the law only. */
Test(ppa, frictionless_singular_w_fixed_weight_converges, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_test_rng(2829);
    for (int trial = 0; trial < 4; trial++) {
        fl_local_problem *p = random_local_rank(rng, 10, 3, 12, 0.0);   /* rank 12 of 30 */
        for (int k = 0; fl_ppa_types[k].name; k++) {
            gsl_vector *r = gsl_vector_alloc(p->m);
            fl_ppa_options o = fl_ppa_options_default();
            o.eta_fixed = 1.0;
            o.max_outer = 2000;
            o.tol = 1e-9;
            fl_ppa_result res;
            fl_status s = fl_ppa_types[k].solve(p, &o, r, NULL, &res, NULL);
            cr_assert_eq(s, FL_OK, "%s trial %d: status %d error %g after %d outer %s",
                         fl_ppa_types[k].name, trial, s, res.residual, res.outer, fl_test_seed_note());
            cr_assert_leq(error_of(p, r, FL_RESIDUAL_NORM_Q), 1e-9);
            gsl_vector_free(r);
        }
        fl_local_problem_free(p);
    }
    gsl_rng_free(rng);
}


Test(ppa, first_subproblem_weight_and_tolerance_are_the_documented_ones, .init = setup,
     .fini = teardown)
{
    gsl_rng *rng = fl_test_rng(2830);
    fl_local_problem *p = random_local_rank(rng, 12, 3, 38, -1.0);
    double tr = 0;
    for (size_t i = 0; i < p->m; i++) tr += gsl_matrix_get(p->W, i, i);
    double s_W = tr / (double)p->m;
    gsl_vector *r0 = gsl_vector_alloc(p->m);
    fl_random_vector(rng, 0.1, r0);
    for (size_t a = 0; a < p->nc; a++)   /* a point of the cones */
        fl_coulomb_cone_project(3, p->mu[a], r0->data + 3 * a, r0->data + 3 * a);
    double e0 = error_of(p, r0, FL_RESIDUAL_NORM_Q), ea0 = error_of(p, r0, FL_RESIDUAL_ABSOLUTE);
    for (int k = 0; fl_ppa_types[k].name; k++) {
        gsl_vector *r = gsl_vector_alloc(p->m);
        gsl_vector_memcpy(r, r0);
        fl_ppa_options o = fl_ppa_options_default();
        o.start = FL_PPA_START_WARM;
        o.max_outer = 1;
        fl_ppa_result res;
        fl_status s = fl_ppa_types[k].solve(p, &o, r, NULL, &res, NULL);
        cr_assert(s == FL_WMAXITER || s == FL_OK, "%s status %d", fl_ppa_types[k].name, s);
        cr_assert_eq(res.outer, 1);
        double eta = s_W * o.sigma * pow(e0, o.nu);   /* (P3) */
        cr_assert_leq(fabs(res.eta - eta), 1e-12 * eta, "%s: eta %.17g, (P3) gives %.17g",
                      fl_ppa_types[k].name, res.eta, eta);
        double ereg = regularised_error(p, r, r0, eta), tol_in = ea0 / o.inner_ratio;   /* (P4) */
        cr_assert_leq(ereg, tol_in, "%s: the subproblem's error %.3g above tol_in %.3g",
                      fl_ppa_types[k].name, ereg, tol_in);
        cr_assert_gt(ereg, 0.0, "an exact subproblem answer would not test (P4)");
        /* (P2): e_abs(original) <= e_abs(subproblem) + (1 + max mu) eta |r1 - r0| */
        double mumax = 0, dr = 0;
        for (size_t a = 0; a < p->nc; a++) mumax = fmax(mumax, p->mu[a]);
        for (size_t i = 0; i < p->m; i++) dr += (r->data[i] - r0->data[i]) * (r->data[i] - r0->data[i]);
        double eorig = error_of(p, r, FL_RESIDUAL_ABSOLUTE);
        cr_assert_leq(eorig, ereg + (1 + mumax) * eta * sqrt(dr) * (1 + 1e-12),
                      "%s: (P2) bound: original %.17g > %.17g + %.17g", fl_ppa_types[k].name, eorig,
                      ereg, (1 + mumax) * eta * sqrt(dr));
        cr_log_info("%s: eta %.3g, subproblem error %.3g <= %.3g, %d Newton steps",
                    fl_ppa_types[k].name, res.eta, ereg, tol_in, res.inner);
        gsl_vector_free(r);
    }
    gsl_vector_free(r0);
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

Test(ppa, twins_agree_on_positive_definite_w_small_mu, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_test_rng(2831);
    for (int trial = 0; trial < 8; trial++) {
        int dim = trial % 2 ? 3 : 2;
        size_t nc = 5 + (size_t)(3 * trial);
        fl_local_problem *p = random_local_rank(rng, nc, dim, (size_t)dim * nc + 3, 0.1);
        gsl_vector *r[2];
        for (int k = 0; k < 2; k++) {
            r[k] = gsl_vector_alloc(p->m);
            fl_ppa_options o = fl_ppa_options_default();
            o.tol = 1e-12;
            fl_ppa_result res;
            fl_status s = fl_ppa_types[k].solve(p, &o, r[k], NULL, &res, NULL);
            cr_assert_eq(s, FL_OK, "%s trial %d: status %d, error %g %s", fl_ppa_types[k].name, trial,
                         s, res.residual, fl_test_seed_note());
            cr_assert_leq(error_of(p, r[k], FL_RESIDUAL_NORM_Q), 1e-12);
        }
        double d = 0, sc = 0;
        for (size_t i = 0; i < p->m; i++) {
            d = fmax(d, fabs(r[0]->data[i] - r[1]->data[i]));
            sc = fmax(sc, fabs(r[0]->data[i]));
        }
        cr_assert_leq(d, 1e-8 * (1 + sc), "trial %d: twins differ by %g (scale %g) %s", trial, d, sc,
                      fl_test_seed_note());
        gsl_vector_free(r[0]);
        gsl_vector_free(r[1]);
        fl_local_problem_free(p);
    }
    gsl_rng_free(rng);
}

Test(ppa, time_limit_stops_with_the_best_iterate, .init = setup, .fini = teardown)
{
    gsl_rng *rng = fl_test_rng(2832);
    fl_local_problem *p = random_local_rank(rng, 60, 3, 182, -1.0);
    for (int k = 0; fl_ppa_types[k].name; k++) {
        gsl_vector *r = gsl_vector_alloc(p->m);
        fl_ppa_options o = fl_ppa_options_default();
        o.tol = 1e-300;             /* never reached: only the clock stops it */
        o.max_outer = 100000000;
        o.time_limit = 0.2;
        fl_ppa_result res;
        double t0 = fl_clock_now();
        fl_status s = fl_ppa_types[k].solve(p, &o, r, NULL, &res, NULL);
        double dt = fl_clock_now() - t0;
        cr_assert_eq(s, FL_WTIMEOUT, "%s status %d", fl_ppa_types[k].name, s);
        cr_assert_eq(res.stop, FL_PPA_STOP_TIMEOUT);
        cr_assert_lt(dt, 0.5, "%s took %g s", fl_ppa_types[k].name, dt);
        cr_assert_gt(res.outer, 1, "%s: %d outer iterations", fl_ppa_types[k].name, res.outer);
        double e = error_of(p, r, FL_RESIDUAL_NORM_Q), e0 = 0;
        gsl_vector *z = gsl_vector_calloc(p->m);
        e0 = error_of(p, z, FL_RESIDUAL_NORM_Q);
        gsl_vector_free(z);
        cr_assert_leq(fabs(e - res.residual), 1e-8 * e + 1e-15, "%s: error of r %.17g, reported %.17g",
                      fl_ppa_types[k].name, e, res.residual);
        cr_assert_leq(e, e0, "%s: returned error %g above the start's %g", fl_ppa_types[k].name, e, e0);
        gsl_vector_free(r);
    }
    fl_local_problem_free(p);
    gsl_rng_free(rng);
}

/* ---- bad input: the same status and a message naming the field ---- */

static void both(fl_local_problem *p, const fl_ppa_options *o, gsl_vector *r, gsl_vector *U,
                 fl_status want, const char *needle)
{
    fl_status s[2];
    fl_error err[2];
    for (int k = 0; k < 2; k++) {
        memset(&err[k], 0, sizeof err[k]);
        fl_ppa_result res;
        s[k] = fl_ppa_types[k].solve(p, o, r, U, &res, &err[k]);
        cr_assert_eq(res.status, s[k]);
        cr_assert_eq(res.outer, 0);
    }
    TWIN_SAME(s, err, want, needle);
}

Test(ppa_refusals, bad_options_vectors_and_problem_alike_in_both_twins, .init = setup,
     .fini = teardown)
{
    const double w[3] = {1, 1, 1}, q[3] = {-1, 0.2, 0.1};
    fl_local_problem *p = one_contact(3, w, q, 0.5);
    gsl_vector *r = gsl_vector_calloc(3), *r2 = gsl_vector_calloc(2), *U2 = gsl_vector_calloc(2);
    static const char *cases[] = {"max_outer", "tol", "sigma", "nu", "eta_fixed", "fail_factor",
                                  "inner_ratio", "inner_max_iterations", "time_limit", "start",
                                  "norm", "shrink", "inner_stall_steps", "inner_gs_sweeps"};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        fl_ppa_options o = fl_ppa_options_default();
        switch (c) {
        case 0: o.max_outer = 0; break;
        case 1: o.tol = NAN; break;
        case 2: o.sigma = 0; break;
        case 3: o.nu = -1; break;
        case 4: o.eta_fixed = -1; break;
        case 5: o.fail_factor = 1; break;
        case 6: o.inner_ratio = 0.5; break;
        case 7: o.inner_max_iterations = 0; break;
        case 8: o.time_limit = INFINITY; break;
        case 9: o.start = (fl_ppa_start)7; break;
        case 10: o.norm = (fl_residual_norm)9; break;
        case 11: o.shrink = 0.5; break;
        case 12: o.inner_stall_steps = -1; break;
        default: o.inner_gs_sweeps = -1; break;
        }
        both(p, &o, r, NULL, FL_EINVAL, cases[c]);
    }
    both(p, NULL, r2, NULL, FL_EDIM, "r must be");
    both(p, NULL, r, U2, FL_EDIM, "U must");
    fl_ppa_options warm = fl_ppa_options_default();
    warm.start = FL_PPA_START_WARM;
    gsl_vector_set(r, 1, NAN);
    both(p, &warm, r, NULL, FL_ENONFINITE, "warm start r");
    gsl_vector_set(r, 1, 0.0);
    p->mu[0] = -0.5;
    fl_status s[2];
    fl_error err[2];
    for (int k = 0; k < 2; k++) s[k] = fl_ppa_types[k].solve(p, NULL, r, NULL, NULL, &err[k]);
    cr_assert_eq(s[0], s[1]);
    cr_assert_lt(s[0], 0);
    cr_assert_str_eq(err[0].message, err[1].message);
    p->mu[0] = 0.5;
    /* each twin's storage missing: refused with FL_EINVAL */
    gsl_matrix *W = p->W;
    p->W = NULL;
    cr_assert_eq(fl_ppa_types[0].solve(p, NULL, r, NULL, NULL, &err[0]), FL_EINVAL);
    cr_assert(strstr(err[0].message, "dense W"), "%s", err[0].message);
    p->W = W;
    cholmod_sparse *Ws = p->Ws;
    p->Ws = NULL;
    cr_assert_eq(fl_ppa_types[1].solve(p, NULL, r, NULL, NULL, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "sparse W"), "%s", err[1].message);
    p->Ws = Ws;
    gsl_vector_free(r);
    gsl_vector_free(r2);
    gsl_vector_free(U2);
    fl_local_problem_free(p);
}

Test(ppa_refusals, type_table_ends_with_null, .init = setup, .fini = teardown)
{
    cr_assert_str_eq(fl_ppa_types[0].name, "reference");
    cr_assert_str_eq(fl_ppa_types[1].name, "optimized");
    cr_assert_null(fl_ppa_types[2].name);
}
