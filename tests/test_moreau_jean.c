/* test_moreau_jean.c — the Moreau–Jean impact rule (004 (18)–(21)) and the
 * Contact Dynamics step (003 §3): Lemma 2.4 of 004 on random systems with
 * both implementations through one harness, the impact rule itself, the
 * equilibrium test of 003 §3 (closed form), bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_data.h"
#include "testkit/fl_random.h"
#include "drivers/moreau_jean.h"
#include "checks/nsgs_checks.h"
#include "reference/delassus.h"

static fl_global_problem *random_global(gsl_rng *r, size_t n, size_t nc, int dim,
                                        fl_sparse_ctx *ctx)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(n, nc, dim, 1, &g, NULL), FL_OK);
    cr_assert_eq(fl_random_spd(r, 100.0, 1.0, g->M), FL_OK);
    cr_assert_eq(fl_random_full_rank_rows(r, 10.0, g->H), FL_OK);
    for (size_t a = 0; a < nc; a++) g->mu[a] = fl_random_mu(r);
    g->ctx = ctx;
    return g;
}

/* 004 Lemma 2.4 (library signs, moreau_jean.h), through the check of
 * crosscheck --law nsgs (fl_nsgs_check_impact):
 * T+ - T- = -delta/2 du.M du - sum mu s_N |U^a_T|  <= 0, for a pure impact
 * (f = M u-), and the impulse satisfies Coulomb's law with U^a (004 (19)). */
Test(moreau_jean, lemma_2_4_energy_jump_both_implementations)
{
    gsl_rng *rng = fl_test_rng(404);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    const double deltas[4] = {0.0, 0.3, 1.0, -1.0};
    int checked = 0;
    fl_nsgs_stats st;
    memset(&st, 0, sizeof st);
    for (int t = 0; t < 1000; t++) {
        int dim = 2 + t % 2;
        size_t nc = 1 + gsl_rng_uniform_int(rng, 4);
        size_t n = dim * nc + gsl_rng_uniform_int(rng, 3);
        fl_global_problem *g = random_global(rng, n, nc, dim, &ctx);
        gsl_vector *um = gsl_vector_alloc(n);
        fl_random_vector(rng, 1.0, um);
        double delta = deltas[t % 4] >= 0 ? deltas[t % 4] : gsl_rng_uniform(rng);
        long before = st.lemma_n;
        fl_nsgs_check_impact(g, um, delta, &st);   /* both implementations, pure impact f = M u- */
        checked += (int)(st.lemma_n - before);
        cr_assert_eq(st.errors, 0, "system %d: an error status (%s)", t, fl_test_seed_note());
        cr_assert_leq(st.lemma_err, 1e-8, "system %d delta %g: dT off Lemma 2.4 by %g (T- + 1e-3) (%s)", t, delta,
                      st.lemma_err, fl_test_seed_note());
        cr_assert_leq(st.dT_max, 1e-8, "system %d: energy increased by %g (T- + 1e-3) (%s)", t, st.dT_max,
                      fl_test_seed_note());
        cr_assert_leq(st.impact_viol, 1e-7, "system %d: impact rule violated by %g (%s)", t, st.impact_viol,
                      fl_test_seed_note());
        gsl_vector_free(um);
        fl_global_problem_free(g);
    }
    cr_assert_gt(checked, 1900, "only %d converged steps (%s)", checked, fl_test_seed_note());
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
}

/* Binary collision, frictionless: a unit mass hitting a wall with speed v
 * rebounds with e = (1 - delta)/(1 + delta) (004 (18)–(21), 003 §3). */
Test(moreau_jean, restitution_of_a_binary_collision)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set(g->H, 0, 1, 1.0);   /* U_N = vertical velocity */
    gsl_matrix_set(g->H, 1, 0, 1.0);   /* U_T = horizontal velocity */
    g->mu[0] = 0.0;
    gsl_vector *um = gsl_vector_alloc(2), *up = gsl_vector_alloc(2), *s = gsl_vector_alloc(2);
    gsl_vector_set(um, 0, 0.5);
    gsl_vector_set(um, 1, -2.0);
    gsl_vector_memcpy(g->f, um);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    g->ctx = &ctx;
    for (int impl = 0; impl < 2; impl++)
        for (double delta = 0.0; delta <= 1.0; delta += 0.25) {
            fl_moreau_jean_options o = fl_moreau_jean_options_default();
            o.delta = delta;
            o.impl = impl ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
            cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, up, NULL, NULL), FL_OK);
            double e = (1 - delta) / (1 + delta);
            cr_assert_float_eq(gsl_vector_get(up, 1), 2.0 * e, 1e-12, "impl %d delta %g", impl,
                               delta);
            cr_assert_float_eq(gsl_vector_get(up, 0), 0.5, 1e-12);
        }
    g->ctx = NULL;
    fl_sparse_finish(&ctx);
    gsl_vector_free(um);
    gsl_vector_free(up);
    gsl_vector_free(s);
    fl_global_problem_free(g);
}

/* 003 §3 equilibrium test: a block of mass 2 at rest on a floor with
 * friction, gravity 9.81, a horizontal push P < mu m g: one step from u_i = 0
 * returns u_f = 0 and r = s/h = (m g, -P) (closed form); with P > mu m g the
 * block slides (u_f != 0). */
Test(moreau_jean, equilibrium_test_one_step_from_rest)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    double m = 2.0, grav = 9.81, h = 1e-2, mu = 0.4;
    gsl_matrix_set(g->M, 0, 0, m);
    gsl_matrix_set(g->M, 1, 1, m);
    gsl_matrix_set(g->H, 0, 1, 1.0);
    gsl_matrix_set(g->H, 1, 0, 1.0);
    g->mu[0] = mu;
    gsl_vector *u0 = gsl_vector_calloc(2), *up = gsl_vector_alloc(2), *s = gsl_vector_alloc(2);
    for (int k = 0; k < 2; k++) {
        double P = k ? 1.2 * mu * m * grav : 0.5 * mu * m * grav;
        gsl_vector_set(g->f, 0, h * P);          /* f = M u_i + h F, u_i = 0 */
        gsl_vector_set(g->f, 1, -h * m * grav);
        fl_moreau_jean_options o = fl_moreau_jean_options_default();
        cr_assert_eq(fl_moreau_jean_step(g, u0, &o, NULL, s, up, NULL, NULL), FL_OK);
        if (k == 0) {
            cr_assert_float_eq(gsl_vector_get(up, 0), 0.0, 1e-14);
            cr_assert_float_eq(gsl_vector_get(up, 1), 0.0, 1e-14);
            cr_assert_float_eq(gsl_vector_get(s, 0) / h, m * grav, 1e-10);
            cr_assert_float_eq(gsl_vector_get(s, 1) / h, -P, 1e-10);
        } else {
            cr_assert_float_eq(gsl_vector_get(up, 0), h * (P - mu * m * grav) / m, 1e-12);
            cr_assert_float_eq(gsl_vector_get(s, 1) / h, -mu * m * grav, 1e-10);
        }
    }
    gsl_vector_free(u0);
    gsl_vector_free(up);
    gsl_vector_free(s);
    fl_global_problem_free(g);
}

Test(moreau_jean, bad_input)
{
    fl_global_problem *g = NULL;
    fl_error err;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set_identity(g->H);
    gsl_vector *um = gsl_vector_calloc(2), *up = gsl_vector_alloc(2), *s = gsl_vector_alloc(2),
               *bad = gsl_vector_alloc(3);
    fl_moreau_jean_options o = fl_moreau_jean_options_default();
    o.delta = 1.5;
    cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, up, NULL, &err), FL_EINVAL);
    o.delta = 1.0;
    cr_assert_eq(fl_moreau_jean_step(g, bad, &o, NULL, s, up, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, bad, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_moreau_jean_step(g, um, NULL, NULL, s, up, NULL, &err), FL_EINVAL);
    o.impl = (fl_impl)7;
    cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, up, NULL, &err), FL_EINVAL);
    o.impl = FL_IMPL_OPTIMIZED;   /* no sparse context */
    cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, up, NULL, &err), FL_EINVAL);
    gsl_vector_set(um, 0, NAN);
    o.impl = FL_IMPL_REFERENCE;
    cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, up, NULL, &err), FL_ENONFINITE);
    gsl_vector_free(um);
    gsl_vector_free(up);
    gsl_vector_free(s);
    gsl_vector_free(bad);
    fl_global_problem_free(g);
}

/* Example (data/003/wedged_rod.json, 003 §2): the rod between converging
 * walls, one step from rest without push.  Zero start: free fall (closed
 * form).  The closed-form wedged impulses R_N = 2 m g/(2(mu cos b - sin b)),
 * R_T = (m g/2 + R_N sin b)/cos b also solve it and a warm start keeps them. */
#include "reference/enumerate.h"
#include "models/fl_model_wedged_rod.h"

Test(moreau_jean, wedged_rod_both_outcomes_from_data)
{
    char path[4096];
    fl_error err;
    fl_model_wedged_rod w;
    cr_assert_eq(fl_data_path(NULL, "003/wedged_rod.json", path, sizeof path, &err), FL_OK,
                 "%s", err.message);
    cr_assert_eq(fl_model_wedged_rod_load(path, &w, &err), FL_OK, "%s", err.message);
    double grav = w.g, h = w.h, ui[3] = {0, 0, 0}, wf[4];
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_model_wedged_rod_problem(&w, ui, 0.0, &g, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_model_wedged_rod_wedged_forces(&w, wf, &err), FL_OK, "%s", err.message);
    gsl_vector *u0 = gsl_vector_calloc(3), *up = gsl_vector_alloc(3), *s = gsl_vector_alloc(4);
    fl_moreau_jean_options o = fl_moreau_jean_options_default();
    cr_assert_eq(fl_moreau_jean_step(g, u0, &o, NULL, s, up, NULL, NULL), FL_OK);
    cr_assert_float_eq(gsl_vector_get(up, 1), -grav * h, 1e-15);
    cr_assert_float_eq(gsl_blas_dnrm2(s), 0.0, 1e-300);
    double RN = wf[0];
    double ws[4] = {h * wf[0], h * wf[1], h * wf[2], h * wf[3]};
    memcpy(s->data, ws, sizeof ws);
    o.nsgs.start = FL_NSGS_START_WARM;
    cr_assert_eq(fl_moreau_jean_step(g, u0, &o, NULL, s, up, NULL, NULL), FL_OK);
    cr_assert_leq(gsl_blas_dnrm2(up), 1e-12 * grav * h, "wedged state not kept: |u_f| = %g",
                  gsl_blas_dnrm2(up));
    for (int i = 0; i < 4; i++) cr_assert_float_eq(s->data[i], ws[i], 1e-12 * h * RN);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
    cr_assert(fl_enumerate_is_solution(p, ws, 1e-10));
    double zero[4] = {0, 0, 0, 0};
    cr_assert(fl_enumerate_is_solution(p, zero, 1e-10));
    fl_local_problem_free(p);
    gsl_vector_free(u0);
    gsl_vector_free(up);
    gsl_vector_free(s);
    fl_global_problem_free(g);
}

/* One sliding impact in closed form, through a problem that holds only the
 * sparse M and H (the optimized twin's matrices), and the same through the
 * dense reference: M = H = I (3D), w = 0, f = M u- (no force), u- = (-1, 2,
 * 0), mu = 1/2, delta = 0.  004 (20): W_a = (1 + delta)/2 W = I/2, q_a =
 * H u- + w = (-1, 2, 0).  The contact closes: U_N = r_N/2 - 1 = 0 gives
 * r_N = 2; sticking would need |r_T| = 4 > mu r_N = 1, so it slides with
 * r_T = (-1, 0) and U_T = -1/2 + 2 = 3/2.  u+ = M^-1 (f + H^T s) = u- + s =
 * (1, 1, 0); T- = 5/2, T+ = 1. */
Test(moreau_jean, sliding_impact_closed_form_sparse_only_and_dense)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int impl = 0; impl <= 1; impl++) {
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_alloc(3, 1, 3, 1, &g, NULL), FL_OK);
        gsl_matrix_set_identity(g->M);
        gsl_matrix_set_identity(g->H);
        g->mu[0] = 0.5;
        gsl_vector_set(g->f, 0, -1.0);
        gsl_vector_set(g->f, 1, 2.0);
        if (impl == FL_IMPL_OPTIMIZED) {
            g->ctx = &ctx;
            cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
            cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
            gsl_matrix_free(g->M);
            gsl_matrix_free(g->H);
            g->M = g->H = NULL;
        }
        gsl_vector *um = gsl_vector_alloc(3), *up = gsl_vector_calloc(3), *s = gsl_vector_calloc(3);
        gsl_vector_memcpy(um, g->f);
        fl_moreau_jean_options o = fl_moreau_jean_options_default();
        o.delta = 0.0;
        o.impl = (fl_impl)impl;
        o.nsgs.tol = 1e-14;
        fl_moreau_jean_result res;
        fl_error err;
        cholmod_factor *L = NULL;
        cr_assert_eq(fl_moreau_jean_step(g, um, &o, impl ? &L : NULL, s, up, &res, &err), FL_OK, "impl %d: %s",
                     impl, err.message);
        double sw[3] = {2, -1, 0}, uw[3] = {1, 1, 0};
        for (int k = 0; k < 3; k++) {
            cr_assert(fabs(gsl_vector_get(s, k) - sw[k]) <= 1e-10, "impl %d s[%d] = %g", impl, k,
                      gsl_vector_get(s, k));
            cr_assert(fabs(gsl_vector_get(up, k) - uw[k]) <= 1e-10, "impl %d u+[%d] = %g", impl, k,
                      gsl_vector_get(up, k));
        }
        cr_assert_float_eq(res.T_minus, 2.5, 1e-12);
        cr_assert_float_eq(res.T_plus, 1.0, 1e-10);
        fl_sparse_free_factor(&ctx, &L);
        /* the refusals of fl_moreau_jean_local and fl_moreau_jean_step */
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_moreau_jean_local(g, um, 0.0, (fl_impl)impl, NULL, NULL, &err), FL_EINVAL);
        cr_assert_eq(fl_moreau_jean_local(NULL, um, 0.0, (fl_impl)impl, NULL, &p, &err), FL_EINVAL);
        cr_assert_eq(fl_moreau_jean_local(g, NULL, 0.0, (fl_impl)impl, NULL, &p, &err), FL_EINVAL);
        cr_assert_eq(fl_moreau_jean_local(g, um, NAN, (fl_impl)impl, NULL, &p, &err), FL_EINVAL);
        cr_assert(strstr(err.message, "delta = nan not in [0, 1]"), "%s", err.message);
        gsl_matrix *A = gsl_matrix_calloc(3, 2);
        gsl_vector_view col = gsl_matrix_column(A, 0);
        cr_assert_eq(fl_moreau_jean_local(g, &col.vector, 0.0, (fl_impl)impl, NULL, &p, &err), FL_EDIM);
        cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, &col.vector, NULL, &err), FL_EDIM);
        cr_assert_eq(fl_moreau_jean_step(NULL, um, &o, NULL, s, up, NULL, &err), FL_EINVAL);
        cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, NULL, up, NULL, &err), FL_EINVAL);
        cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s, NULL, NULL, &err), FL_EINVAL);
        gsl_vector *s2 = gsl_vector_calloc(2);
        cr_assert_eq(fl_moreau_jean_step(g, um, &o, NULL, s2, up, NULL, &err), FL_EDIM);
        cr_assert(strstr(err.message, "s 3"), "%s", err.message);
        gsl_vector_free(s2);
        gsl_matrix_free(A);
        gsl_vector_free(um);
        gsl_vector_free(up);
        gsl_vector_free(s);
        fl_global_problem_free(g);
    }
    fl_sparse_finish(&ctx);
}
