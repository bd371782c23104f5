/* test_moreau_law.c — Moreau's discrete contact law S(q,v) (000 §2):
 * reference/moreau_law.c and optimized/moreau_law_sparse.c through one
 * harness (every test below runs both implementations where the law
 * applies).  Kinds: unit (closed forms written here or in
 * proofs/moreau_law.md), property (the harness of checks/moreau_checks.c on
 * random systems, brute force included), example (the rod of data/000),
 * bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_randist.h>

#include "fl_dense.h"
#include "drivers/fl_types.h"
#include "testkit/fl_random.h"
#include "fl_sparse.h"
#include "checks/moreau_checks.h"
#include "models/fl_model_theorem1_rod.h"
#include "reference/moreau_law.h"
#include "optimized/moreau_law_sparse.h"

/* ---- one harness for both implementations ---- */

typedef struct impl_run {
    fl_sparse_ctx ctx;
    cholmod_sparse *Msp;
} impl_run;

/* Evaluate S with implementation `impl` (0 reference, 1 sparse). */
static fl_status run_law(int impl, fl_moreau_problem *p, gsl_vector *u, gsl_vector *r,
                         fl_moreau_result *res, fl_error *err)
{
    if (impl == 0) return fl_moreau_law(p, NULL, u, r, res, err);
    impl_run ir;
    memset(&ir, 0, sizeof ir);
    cr_assert_eq(fl_sparse_start(&ir.ctx, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ir.ctx, p->M, 1, 0.0, &ir.Msp, NULL), FL_OK);
    fl_moreau_problem q = *p;
    q.M = NULL;
    q.Msp = ir.Msp;
    q.ctx = &ir.ctx;
    fl_status st = fl_moreau_law_sparse(&q, NULL, u, r, res, err);
    fl_sparse_free(&ir.ctx, &ir.Msp);
    fl_sparse_finish(&ir.ctx);
    return st;
}

static gsl_matrix *matrix(size_t n, const double *a)
{
    gsl_matrix *M = gsl_matrix_alloc(n, n);
    memcpy(M->data, a, n * n * sizeof *a);
    return M;
}

static gsl_vector *vec(size_t n, const double *a)
{
    gsl_vector *v = gsl_vector_alloc(n);
    memcpy(v->data, a, n * sizeof *a);
    return v;
}

static void assert_vec(const gsl_vector *u, const double *want, double tol, const char *what,
                       int impl)
{
    for (size_t i = 0; i < u->size; i++)
        cr_assert(fabs(gsl_vector_get(u, i) - want[i]) <= tol,
                  "%s (impl %d): u[%zu] = %.17g, expected %.17g", what, impl, i,
                  gsl_vector_get(u, i), want[i]);
}

/* Frictionless closed form (000 §1): M = [2 1; 1 2], n = e2, v = (1, -1):
 * M^-1 n = (-1/3, 2/3), <n, M^-1 n> = 2/3, u = v + (3/2) M^-1 n = (1/2, 0). */
Test(moreau_law, frictionless_closed_form_by_hand)
{
    const double Ma[4] = {2, 1, 1, 2}, dg[2] = {0, 3}, va[2] = {1, -1}, want[2] = {0.5, 0};
    gsl_matrix *M = matrix(2, Ma);
    gsl_vector *dgap = vec(2, dg), *v = vec(2, va), *u = gsl_vector_alloc(2),
               *r = gsl_vector_alloc(2);
    for (int impl = 0; impl < 2; impl++) {
        fl_moreau_problem p = {.d = 2, .M = M, .gap = 0, .dgap = dgap,
                               .friction = FL_MOREAU_FRICTIONLESS, .v = v};
        fl_moreau_result res;
        cr_assert_eq(run_law(impl, &p, u, r, &res, NULL), FL_OK);
        cr_assert_eq(res.branch, FL_MOREAU_COLLISION);
        assert_vec(u, want, 1e-15, "frictionless", impl);
        /* r = M (u - v) = [2 1; 1 2](-1/2, 1) = (0, 3/2) = rho n */
        cr_assert_float_eq(gsl_vector_get(r, 0), 0.0, 1e-15);
        cr_assert_float_eq(gsl_vector_get(r, 1), 1.5, 1e-15);
        cr_assert_float_eq(res.rho, 1.5, 1e-15);
        cr_assert_float_eq(res.gamma, 2.0 / 3.0, 1e-15);
    }
    gsl_matrix_free(M);
    gsl_vector_free(dgap);
    gsl_vector_free(v);
    gsl_vector_free(u);
    gsl_vector_free(r);
}

/* M = m I reduces (6) to Coulomb's law (5): the normal impulse stops the
 * normal velocity (rho = m c0) and the tangential impulse of norm <= mu rho
 * opposes v_T:  u_T = max(0, 1 - mu c0/|v_T|) v_T  (proofs/moreau_law.md §7). */
static void coulomb_identity_case(size_t d, int iso, double mu, const double *va,
                                  const double *want)
{
    double m = 2.0;
    gsl_matrix *M = gsl_matrix_alloc(d, d);
    gsl_matrix_set_identity(M);
    gsl_matrix_scale(M, m);
    gsl_vector *dgap = gsl_vector_calloc(d), *v = vec(d, va), *u = gsl_vector_alloc(d),
               *r = gsl_vector_alloc(d);
    gsl_vector_set(dgap, d - 1, 1.0);
    gsl_matrix *T = gsl_matrix_calloc(d, 2);
    gsl_matrix_set(T, 0, 0, 1.0);
    gsl_matrix_set(T, 1, 1, 1.0);
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_disc(&C, 2, mu, NULL), FL_OK);
    for (int impl = 0; impl < 2; impl++) {
        fl_moreau_problem p = {.d = d, .M = M, .gap = -0.5, .dgap = dgap,
                               .friction = iso ? FL_MOREAU_ISOTROPIC : FL_MOREAU_SET,
                               .mu = mu, .tangent = iso ? NULL : T, .C = iso ? NULL : &C,
                               .v = v};
        fl_moreau_result res;
        cr_assert_eq(run_law(impl, &p, u, r, &res, NULL), FL_OK);
        assert_vec(u, want, 1e-9, iso ? "isotropic ball, M = mI" : "disc set, M = mI", impl);
        cr_assert(res.residual <= 1e-9, "residual %g", res.residual);
        cr_assert_float_eq(res.gamma, 1.0 / m, 1e-15);  /* <n, M^-1 n> - mu |P M^-1 n| */
    }
    fl_friction_set_release(&C);
    gsl_matrix_free(M);
    gsl_matrix_free(T);
    gsl_vector_free(dgap);
    gsl_vector_free(v);
    gsl_vector_free(u);
    gsl_vector_free(r);
}

Test(moreau_law, isotropic_and_disc_reduce_to_coulomb_for_identity_mass)
{
    /* d = 3, v_T = (3, 4), c0 = 1: mu = 0.5 slides, u_T = (1 - 0.5/5) v_T */
    const double v3[3] = {3, 4, -1};
    const double slide3[3] = {3 * 0.9, 4 * 0.9, 0};
    const double stick3[3] = {0, 0, 0};
    coulomb_identity_case(3, 1, 0.5, v3, slide3);
    coulomb_identity_case(3, 0, 0.5, v3, slide3);
    coulomb_identity_case(3, 1, 6.0, v3, stick3);    /* mu c0 = 6 >= |v_T| = 5: stick */
    coulomb_identity_case(3, 0, 6.0, v3, stick3);
    /* d = 5 (ball of dimension 4): v_T = (1, 2, 2, 0), |v_T| = 3, c0 = 2 */
    const double v5[5] = {1, 2, 2, 0, -2};
    const double slide5[5] = {1.0 / 3, 2.0 / 3, 2.0 / 3, 0, 0};   /* 1 - 0.5*2/3 */
    coulomb_identity_case(5, 1, 1.0, v5, slide5);
    /* mu = 0 (frictionless closed form of the local solve, 000 §1): the
     * normal velocity is stopped, v_T is kept: u = (3, 4, 0) */
    const double free3[3] = {3, 4, 0};
    coulomb_identity_case(3, 1, 0.0, v3, free3);
    coulomb_identity_case(3, 0, 0.0, v3, free3);
}

/* One-dimensional friction, M = I, asymmetric interval [lo, hi] = [-0.25, 1],
 * n = e2, t = e1: s = clamp(-v_t, lo c0, hi c0) (Coulomb on an interval). */
Test(moreau_law, interval_with_identity_mass)
{
    const double Ma[4] = {1, 0, 0, 1}, dg[2] = {0, 1};
    gsl_matrix *M = matrix(2, Ma);
    gsl_matrix *T = gsl_matrix_calloc(2, 1);
    gsl_matrix_set(T, 0, 0, 1.0);
    gsl_vector *dgap = vec(2, dg), *u = gsl_vector_alloc(2), *r = gsl_vector_alloc(2);
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_interval(&C, -0.25, 1.0, NULL), FL_OK);
    const double cases[3][4] = {  /* v_t, v_n, expected u_t */
        {2.0, -1.0, 2.0 - 0.25},  /* s = lo c0 = -0.25 */
        {-3.0, -2.0, -3.0 + 2.0}, /* s = hi c0 = 2 */
        {0.1, -1.0, 0.0},         /* stick */
    };
    for (int c = 0; c < 3; c++) {
        gsl_vector *v = vec(2, cases[c]);
        const double want[2] = {cases[c][2], 0};
        for (int impl = 0; impl < 2; impl++) {
            fl_moreau_problem p = {.d = 2, .M = M, .gap = 0, .dgap = dgap,
                                   .friction = FL_MOREAU_SET, .tangent = T, .C = &C, .v = v};
            fl_moreau_result res;
            cr_assert_eq(run_law(impl, &p, u, r, &res, NULL), FL_OK);
            assert_vec(u, want, 1e-14, "interval", impl);
            cr_assert_float_eq(res.rho, -cases[c][1], 1e-14);
        }
        gsl_vector_free(v);
    }
    fl_friction_set_release(&C);
    gsl_matrix_free(M);
    gsl_matrix_free(T);
    gsl_vector_free(dgap);
    gsl_vector_free(u);
    gsl_vector_free(r);
}

/* Polygon (square [-1, 1]^2), M = I, d = 3: s = clamp(-v_T, -c0, c0) per
 * component (the box is a product of intervals). */
Test(moreau_law, square_polygon_with_identity_mass)
{
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(M);
    gsl_matrix *T = gsl_matrix_calloc(3, 2);
    gsl_matrix_set(T, 0, 0, 1.0);
    gsl_matrix_set(T, 1, 1, 1.0);
    const double dg[3] = {0, 0, 2}, sq[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
    gsl_vector *dgap = vec(3, dg), *u = gsl_vector_alloc(3), *r = gsl_vector_alloc(3);
    fl_friction_set C;
    cr_assert_eq(fl_friction_set_polygon(&C, 4, sq, 0, NULL, NULL), FL_OK);
    const double cases[3][6] = {   /* v, expected u */
        {3, -0.5, -1, 2, 0, 0},    /* x slides (s = -1), y sticks */
        {3, -4, -2, 1, -2, 0},     /* both slide */
        {0.5, 0.25, -1, 0, 0, 0},  /* stick */
    };
    for (int c = 0; c < 3; c++) {
        gsl_vector *v = vec(3, cases[c]);
        for (int impl = 0; impl < 2; impl++) {
            fl_moreau_problem p = {.d = 3, .M = M, .gap = 0, .dgap = dgap,
                                   .friction = FL_MOREAU_SET, .tangent = T, .C = &C, .v = v};
            fl_moreau_result res;
            cr_assert_eq(run_law(impl, &p, u, r, &res, NULL), FL_OK);
            assert_vec(u, cases[c] + 3, 1e-13, "square polygon", impl);
        }
        gsl_vector_free(v);
    }
    fl_friction_set_release(&C);
    gsl_matrix_free(M);
    gsl_matrix_free(T);
    gsl_vector_free(dgap);
    gsl_vector_free(u);
    gsl_vector_free(r);
}

/* 000 §2: S(q, v) = v on V(q) — g(q) < 0 (gap > 0), or <v, n> >= 0
 * (including Moreau's choice in the tangential case <v, n> = 0). */
Test(moreau_law, v_is_kept_on_V)
{
    const double Ma[4] = {2, 1, 1, 2}, dg[2] = {0, 1};
    gsl_matrix *M = matrix(2, Ma);
    gsl_vector *dgap = vec(2, dg), *u = gsl_vector_alloc(2), *r = gsl_vector_alloc(2);
    const double vs[3][2] = {{1, -1}, {1, 0}, {1, 0.5}};
    const double gaps[3] = {0.1, 0.0, -0.2};
    const int branch[3] = {FL_MOREAU_FREE, FL_MOREAU_INWARD, FL_MOREAU_INWARD};
    for (int c = 0; c < 3; c++) {
        gsl_vector *v = vec(2, vs[c]);
        for (int impl = 0; impl < 2; impl++) {
            fl_moreau_problem p = {.d = 2, .M = M, .gap = gaps[c], .dgap = dgap,
                                   .friction = FL_MOREAU_ISOTROPIC, .mu = 3.0, .v = v};
            fl_moreau_result res;
            cr_assert_eq(run_law(impl, &p, u, r, &res, NULL), FL_OK);
            cr_assert_eq((int)res.branch, branch[c]);
            cr_assert(memcmp(u->data, v->data, 2 * sizeof(double)) == 0);
            cr_assert(gsl_vector_isnull(r));
            /* gamma = (1 - mu |b|)/(1 - b^2) for M = [1 b; b 1] scaled by 2
             * (000 Theorem 1): b = 1/2, mu = 3 -> (1 - 1.5)/(0.75)/2 */
            cr_assert_float_eq(res.gamma, (1 - 1.5) / 0.75 / 2, 1e-14);
        }
        gsl_vector_free(v);
    }
    gsl_matrix_free(M);
    gsl_vector_free(dgap);
    gsl_vector_free(u);
    gsl_vector_free(r);
}

/* u~ of 000 Theorem 1 fixtures T2/T3: M = [1 b; b 1], n = e2, D_1 =
 * [-2, 2] e1, u- = (-1, 0): u~ = (0, 0) for b = 0.5 and b = 0.6. */
Test(moreau_law, project_tangential_velocity_catalogue_fixture)
{
    const double bs[2] = {0.5, 0.6};
    for (int c = 0; c < 2; c++) {
        const double Ma[4] = {1, bs[c], bs[c], 1}, dg[2] = {0, 1}, va[2] = {-1, 0};
        gsl_matrix *M = matrix(2, Ma);
        gsl_vector *dgap = vec(2, dg), *v = vec(2, va), *u = gsl_vector_alloc(2),
                   *r = gsl_vector_alloc(2);
        fl_moreau_problem p = {.d = 2, .M = M, .gap = 0, .dgap = dgap,
                               .friction = FL_MOREAU_ISOTROPIC, .mu = 2.0, .v = v};
        fl_moreau_result res;
        cr_assert_eq(fl_moreau_project(&p, NULL, u, r, &res, NULL), FL_OK);
        const double want[2] = {0, 0};
        assert_vec(u, want, 1e-12, "u~", 0);
        double g;
        cr_assert_eq(fl_moreau_gamma(&p, &g, NULL), FL_OK);
        cr_assert_float_eq(g, (1 - 2 * bs[c]) / (1 - bs[c] * bs[c]), 1e-14);
        /* Moreau's choice: S keeps the tangential velocity */
        cr_assert_eq(fl_moreau_law(&p, NULL, u, r, &res, NULL), FL_OK);
        assert_vec(u, va, 0, "S(q, u-) = u-", 0);
        gsl_matrix_free(M);
        gsl_vector_free(dgap);
        gsl_vector_free(v);
        gsl_vector_free(u);
        gsl_vector_free(r);
    }
}

/* Property: Prop. 1 (a)-(c), u in T(q), S = v on V(q), the frictionless
 * closed form, minimality against the brute force over D_1 and reference
 * vs optimized agreement, on 1000 random systems (as the command). */
Test(moreau_law, harness_properties_on_random_systems, .timeout = 120)
{
    gsl_rng *r = fl_test_rng(11);
    unsigned long seed = fl_test_seed();
    gsl_rng_free(r);
    fl_moreau_harness_stats st;
    cr_assert_eq(fl_moreau_harness_run(seed, 1000, &st, NULL, NULL), 0);
    cr_assert_eq(st.systems, 1000, "%s", fl_test_seed_note());
    for (int k = 0; k < 2; k++) {
        const fl_moreau_harness_impl *im = &st.impl[k];
        cr_assert_eq(im->errors, 0, "impl %d: %ld errors; %s", k, im->errors, fl_test_seed_note());
        cr_assert(im->collisions >= 250, "impl %d: only %ld collisions", k, im->collisions);
        cr_assert(im->cone <= 1e-9, "impl %d: r in R(q) violated by %g; %s", k, im->cone,
                  fl_test_seed_note());
        cr_assert(im->dissip <= 1e-9, "impl %d: <u,r> = %g; %s", k, im->dissip, fl_test_seed_note());
        cr_assert(im->norm_bound <= 1e-10, "impl %d: norm bound %g; %s", k, im->norm_bound,
                  fl_test_seed_note());
        cr_assert(im->proj_norm <= 1e-10, "impl %d: |u|_q > |v|_q by %g; %s", k, im->proj_norm,
                  fl_test_seed_note());
        cr_assert(im->normal <= 1e-9, "impl %d: <u,n> = %g; %s", k, im->normal, fl_test_seed_note());
        cr_assert_eq(im->not_v, 0, "impl %d: %s", k, fl_test_seed_note());
        cr_assert(im->frictionless_n > 0 && im->frictionless <= 1e-9,
                  "impl %d: frictionless %g on %ld; %s", k, im->frictionless, im->frictionless_n,
                  fl_test_seed_note());
        cr_assert(im->brute_n > 0 && im->brute_lower <= 1e-9,
                  "impl %d: not minimal by %g; %s", k, im->brute_lower, fl_test_seed_note());
        cr_assert(im->brute_gap <= 2e-3, "impl %d: brute force below by %g; %s", k,
                  im->brute_gap, fl_test_seed_note());
        cr_assert(im->residual <= 1e-8, "impl %d: residual %g; %s", k, im->residual,
                  fl_test_seed_note());
    }
    cr_assert(st.impl[1].unsupported == 0, "the sparse law handles the isotropic ball up to d = 64");
    cr_assert(st.agree_n >= 990 && st.agree <= 1e-7, "ref vs opt %g on %ld; %s", st.agree,
              st.agree_n, fl_test_seed_note());
}

/* Anisotropic 2D disc with a non-orthonormal tangent basis = an ellipse:
 * both implementations agree and the KKT residual is small (random). */
Test(moreau_law, random_ellipse_sets_agree_between_implementations)
{
    gsl_rng *rng = fl_test_rng(23);
    for (int it = 0; it < 30; it++) {
        size_t d = 3 + it % 4;
        gsl_matrix *M = gsl_matrix_alloc(d, d), *T = gsl_matrix_alloc(d, 2);
        cr_assert_eq(fl_random_spd(rng, 100.0, 1.0, M), FL_OK);
        gsl_vector *dgap = gsl_vector_alloc(d), *v = gsl_vector_alloc(d);
        gsl_vector *u0 = gsl_vector_alloc(d), *u1 = gsl_vector_alloc(d), *r = gsl_vector_alloc(d);
        fl_random_vector(rng, 1.0, dgap);
        fl_random_vector(rng, 1.0, v);
        for (size_t i = 0; i < d; i++)
            for (size_t j = 0; j < 2; j++) gsl_matrix_set(T, i, j, gsl_ran_gaussian(rng, 1.0));
        double vn;
        gsl_blas_ddot(v, dgap, &vn);
        if (vn > 0) gsl_vector_scale(v, -1.0);
        fl_friction_set C;
        fl_friction_set_disc(&C, 2, fl_random_mu(rng), NULL);
        fl_moreau_problem p = {.d = d, .M = M, .gap = 0, .dgap = dgap,
                               .friction = FL_MOREAU_SET, .tangent = T, .C = &C, .v = v};
        fl_moreau_result r0, r1;
        cr_assert_eq(run_law(0, &p, u0, r, &r0, NULL), FL_OK, "%s", fl_test_seed_note());
        cr_assert_eq(run_law(1, &p, u1, r, &r1, NULL), FL_OK, "%s", fl_test_seed_note());
        cr_assert(r0.residual <= 1e-8 && r1.residual <= 1e-8, "%g %g; %s", r0.residual,
                  r1.residual, fl_test_seed_note());
        gsl_vector_sub(u1, u0);
        cr_assert(gsl_blas_dnrm2(u1) <= 1e-8 * gsl_blas_dnrm2(v), "%s", fl_test_seed_note());
        fl_friction_set_release(&C);
        gsl_matrix_free(M);
        gsl_matrix_free(T);
        gsl_vector_free(dgap);
        gsl_vector_free(v);
        gsl_vector_free(u0);
        gsl_vector_free(u1);
        gsl_vector_free(r);
    }
    gsl_rng_free(rng);
}

/* The scheme of 000 §2 on the rod of data/000 under gravity: Prop. 1 at
 * every step (r in R(q), <u, r> <= 0, the kinetic-norm bound). */
static fl_status gravity(double t, const gsl_vector *q, const gsl_vector *u, gsl_vector *f,
                         void *data)
{
    (void)t; (void)u;
    const fl_model_theorem1_rod *rod = data;
    /* weight -m g on G_y = y_A + l sin(theta): f = -m g (0, 1, l cos(theta)) */
    gsl_vector_set(f, 0, 0.0);
    gsl_vector_set(f, 1, -9.81 * rod->m);
    gsl_vector_set(f, 2, -9.81 * rod->m * rod->l * cos(gsl_vector_get(q, 2)));
    return FL_OK;
}

static double lambda_min(const gsl_matrix *M)
{
    gsl_matrix *A = gsl_matrix_alloc(M->size1, M->size1);
    gsl_matrix_memcpy(A, M);
    gsl_vector *ev = gsl_vector_alloc(M->size1);
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(M->size1);
    gsl_eigen_symm(A, ev, w);
    double l = gsl_vector_min(ev);
    gsl_eigen_symm_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(A);
    return l;
}

Test(moreau_law, time_stepping_rod_satisfies_proposition_1)
{
    fl_model_theorem1_case cs;
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 0, &cs, NULL), FL_OK);
    fl_model_theorem1_rod rod = cs.rod;
    double *q0 = cs.q, *um = cs.u_minus;
    fl_moreau_system sys;
    fl_model_theorem1_rod_system(&rod, &sys);
    sys.force = gravity;
    q0[1] = 0.05;                             /* start above the obstacle */
    gsl_vector *q = vec(3, q0), *u = vec(3, um), *r = gsl_vector_alloc(3);
    gsl_vector *uold = gsl_vector_alloc(3), *f = gsl_vector_alloc(3);
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    const double h = 1e-3;
    double t = 0;
    int collisions = 0;
    for (int i = 0; i < 400; i++) {
        gsl_vector_memcpy(uold, u);
        fl_moreau_result res;
        fl_error err;
        cr_assert_eq(fl_moreau_step(&sys, NULL, t, h, q, u, r, &res, &err), FL_OK, "%s",
                     err.message);
        t += h;
        if (res.branch == FL_MOREAU_COLLISION) collisions++;
        sys.mass(q, M, sys.data);
        gravity(t, q, uold, f, &rod);
        /* r in R(q) = R+(n + [-mu, mu] t): r_y >= 0, |r_x| <= mu r_y, r_theta = 0 */
        double rx = gsl_vector_get(r, 0), ry = gsl_vector_get(r, 1);
        double mu = fl_model_theorem1_rod_mu(&rod, gsl_vector_get(q, 2));
        double sc = 1e-10 * (1 + gsl_blas_dnrm2(r) + h * gsl_blas_dnrm2(f));
        cr_assert(ry >= -sc && fabs(rx) <= mu * ry + sc && fabs(gsl_vector_get(r, 2)) <= sc,
                  "step %d: r = (%g, %g, %g)", i, rx, ry, gsl_vector_get(r, 2));
        double ur;
        gsl_blas_ddot(u, r, &ur);
        cr_assert(ur <= sc * (1 + gsl_blas_dnrm2(u)), "step %d: <u, r> = %g", i, ur);
        /* |u_{i+1}|_q <= |u_i|_q + h |M^-1/2| |f|, |M^-1/2| = 1/sqrt(lambda_min) */
        fl_spd *spd = NULL;
        cr_assert_eq(fl_spd_alloc(M, &spd, NULL), FL_OK);
        double bound = fl_spd_norm(spd, uold) + h * gsl_blas_dnrm2(f) / sqrt(lambda_min(M));
        cr_assert(fl_spd_norm(spd, u) <= bound * (1 + 1e-12), "step %d: |u|_q = %g > %g", i,
                  fl_spd_norm(spd, u), bound);
        fl_spd_free(spd);
    }
    cr_assert(collisions >= 1, "the rod reached the obstacle");
    gsl_vector_free(q);
    gsl_vector_free(u);
    gsl_vector_free(r);
    gsl_vector_free(uold);
    gsl_vector_free(f);
    gsl_matrix_free(M);
}

/* ---- bad input: both implementations ---- */
Test(moreau_law, bad_input_is_rejected_with_a_status)
{
    const double Ma[4] = {2, 1, 1, 2}, dg[2] = {0, 1}, va[2] = {1, -1}, zero[2] = {0, 0};
    gsl_matrix *M = matrix(2, Ma);
    gsl_vector *dgap = vec(2, dg), *v = vec(2, va), *u = gsl_vector_alloc(2),
               *r = gsl_vector_alloc(2), *z = vec(2, zero), *u3 = gsl_vector_alloc(3);
    fl_error e;
    fl_moreau_result res;
    for (int impl = 0; impl < 2; impl++) {
        fl_moreau_law_fn law = fl_moreau_types[impl].law;
        cr_assert_eq(law(NULL, NULL, u, r, &res, &e), FL_EINVAL);
        fl_moreau_problem p = {.d = 2, .M = M, .gap = 0, .dgap = dgap,
                               .friction = FL_MOREAU_ISOTROPIC, .mu = 1, .v = v};
        fl_moreau_problem q = p;
        q.dgap = z;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        cr_assert(strstr(e.message, "gradient"), "%s", e.message);
        q = p;
        q.mu = -1;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        q = p;
        q.gap = NAN;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_ENONFINITE);
        q = p;
        q.friction = (fl_moreau_friction)7;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        cr_assert_eq(run_law(impl, &p, u3, r, &res, &e), FL_EDIM);
        q = p;
        q.v = NULL;
        cr_assert_eq(law(&q, NULL, u, r, &res, &e), FL_EINVAL);
        q = p;
        q.d = 0;
        cr_assert_eq(law(&q, NULL, u, r, &res, &e), FL_EINVAL);
        q = p;
        q.d = 3;
        cr_assert_eq(law(&q, NULL, u, r, &res, &e), FL_EDIM);
        /* friction sets violating (H3) */
        fl_friction_set C;
        gsl_matrix *T = gsl_matrix_calloc(2, 1);
        gsl_matrix_set(T, 0, 0, 1);
        q = p;
        q.friction = FL_MOREAU_SET;
        q.tangent = T;
        q.C = &C;
        fl_friction_set_interval(&C, 0.5, 1.0, NULL);
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        cr_assert(strstr(e.message, "contain 0"), "%s", e.message);
        fl_friction_set_interval(&C, -INFINITY, 1.0, NULL);
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        cr_assert(strstr(e.message, "bounded"), "%s", e.message);
        C.kind = (fl_friction_set_kind)9;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        fl_friction_set_disc(&C, 1, 1.0, NULL);
        C.mu = NAN;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        C.mu = 1;
        C.dim = 3;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        fl_friction_set_disc(&C, 1, 1.0, NULL);
        q.C = NULL;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        q.C = &C;
        q.tangent = NULL;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EINVAL);
        /* tangent parallel to n: the local matrix is singular */
        gsl_matrix_set(T, 0, 0, 0);
        gsl_matrix_set(T, 1, 0, 1);
        q.tangent = T;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_ESINGULAR);
        /* a 2D set needs d > 2 */
        gsl_matrix *T2 = gsl_matrix_calloc(2, 2);
        fl_friction_set_disc(&C, 2, 1.0, NULL);
        q.tangent = T2;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EDIM);
        gsl_matrix *T3 = gsl_matrix_calloc(3, 1);
        fl_friction_set_disc(&C, 1, 1.0, NULL);
        q.tangent = T3;
        cr_assert_eq(run_law(impl, &q, u, r, &res, &e), FL_EDIM);
        gsl_matrix_free(T);
        gsl_matrix_free(T2);
        gsl_matrix_free(T3);
    }
    /* polygons: rays (unbounded), 0 outside, too few vertices */
    {
        gsl_matrix *M3 = gsl_matrix_alloc(3, 3);
        gsl_matrix_set_identity(M3);
        gsl_matrix *T = gsl_matrix_calloc(3, 2);
        gsl_matrix_set(T, 0, 0, 1);
        gsl_matrix_set(T, 1, 1, 1);
        const double d3[3] = {0, 0, 1}, v3[3] = {1, 1, -1};
        gsl_vector *dg3 = vec(3, d3), *vv = vec(3, v3), *uu = gsl_vector_alloc(3),
                   *rr = gsl_vector_alloc(3);
        const double tri[6] = {1, 1, 2, 1, 1, 2}, ray[2] = {1, 0};
        const double tri0[6] = {-1, -1, 1, -1, 0, 1};
        fl_friction_set C;
        fl_moreau_problem p = {.d = 3, .M = M3, .gap = 0, .dgap = dg3,
                               .friction = FL_MOREAU_SET, .tangent = T, .C = &C, .v = vv};
        cr_assert_eq(fl_friction_set_polygon(&C, 3, tri, 0, NULL, NULL), FL_OK);
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_EINVAL);
        cr_assert(strstr(e.message, "contain 0"), "%s", e.message);
        fl_friction_set_release(&C);
        cr_assert_eq(fl_friction_set_polygon(&C, 3, tri0, 0, NULL, NULL), FL_OK);
        C.nray = 1;                                  /* a recession ray: unbounded */
        C.ray = (double *)ray;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_EINVAL);
        cr_assert(strstr(e.message, "unbounded"), "%s", e.message);
        C.nray = 0;
        C.ray = NULL;
        fl_friction_set_release(&C);
        cr_assert_eq(fl_friction_set_polygon(&C, 3, tri0, 0, NULL, NULL), FL_OK);
        C.nvert = 2;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_EUNSUPPORTED);
        C.nvert = 3;
        C.vert[0] = NAN;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_ENONFINITE);
        C.vert[0] = -1;
        C.dim = 1;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_EINVAL);
        C.dim = 2;
        fl_friction_set I;
        fl_friction_set_interval(&I, -1, 1, NULL);
        I.dim = 2;
        p.C = &I;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_EINVAL);
        /* tangent directions dependent: T = [e1, e1] with a disc / polygon */
        gsl_matrix_set(T, 1, 1, 0);
        gsl_matrix_set(T, 0, 1, 1);
        p.C = &C;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_ESINGULAR);
        fl_friction_set D;
        fl_friction_set_disc(&D, 2, 1.0, NULL);
        p.C = &D;
        cr_assert_eq(fl_moreau_law(&p, NULL, uu, rr, &res, &e), FL_ESINGULAR);
        fl_friction_set_release(&C);
        gsl_matrix_free(M3);
        gsl_matrix_free(T);
        gsl_vector_free(dg3);
        gsl_vector_free(vv);
        gsl_vector_free(uu);
        gsl_vector_free(rr);
    }
    /* dense-only and sparse-only failures */
    {
        const double bad[4] = {1, 2, 2, 1};        /* not positive definite */
        gsl_matrix *B = matrix(2, bad);
        fl_moreau_problem p = {.d = 2, .M = B, .gap = 0, .dgap = dgap,
                               .friction = FL_MOREAU_FRICTIONLESS, .v = v};
        cr_assert_eq(fl_moreau_law(&p, NULL, u, r, &res, &e), FL_ENOTSPD);
        cr_assert_eq(run_law(1, &p, u, r, &res, &e), FL_ENOTSPD);
        p.M = NULL;
        cr_assert_eq(fl_moreau_law(&p, NULL, u, r, &res, &e), FL_EINVAL);
        cr_assert_eq(fl_moreau_law_sparse(&p, NULL, u, r, &res, &e), FL_EINVAL);
        gsl_matrix *W = gsl_matrix_alloc(2, 3);
        p.M = W;
        cr_assert_eq(fl_moreau_law(&p, NULL, u, r, &res, &e), FL_EDIM);
        gsl_matrix_free(W);
        gsl_matrix_free(B);
        /* sparse: the isotropic ball of dimension d - 1 is refused above
         * d = FL_MOREAU_SPARSE_BALL_MAX */
        const size_t db = FL_MOREAU_SPARSE_BALL_MAX + 1;
        gsl_matrix *M5 = gsl_matrix_alloc(db, db);
        gsl_matrix_set_identity(M5);
        gsl_vector *d5 = gsl_vector_calloc(db), *v5 = gsl_vector_calloc(db),
                   *u5 = gsl_vector_alloc(db), *r5 = gsl_vector_alloc(db);
        gsl_vector_set(d5, 0, 1);
        fl_moreau_problem p5 = {.d = db, .M = M5, .gap = 0, .dgap = d5,
                                .friction = FL_MOREAU_ISOTROPIC, .mu = 1, .v = v5};
        cr_assert_eq(run_law(1, &p5, u5, r5, &res, &e), FL_EUNSUPPORTED);
        cr_assert_eq(run_law(0, &p5, u5, r5, &res, &e), FL_OK);
        gsl_matrix_free(M5);
        gsl_vector_free(d5);
        gsl_vector_free(v5);
        gsl_vector_free(u5);
        gsl_vector_free(r5);
    }
    /* fl_moreau_project needs <v, n> <= 0 */
    {
        const double vp[2] = {0, 1};
        gsl_vector *vv = vec(2, vp);
        fl_moreau_problem p = {.d = 2, .M = M, .gap = 0, .dgap = dgap,
                               .friction = FL_MOREAU_ISOTROPIC, .mu = 1, .v = vv};
        cr_assert_eq(fl_moreau_project(&p, NULL, u, r, &res, &e), FL_EINVAL);
        p.friction = FL_MOREAU_FRICTIONLESS;
        cr_assert_eq(fl_moreau_project(&p, NULL, u, r, &res, &e), FL_EINVAL);
        cr_assert_eq(fl_moreau_project(&p, NULL, u3, r, &res, &e), FL_EDIM);
        cr_assert_eq(fl_moreau_project(NULL, NULL, u, r, NULL, &e), FL_EINVAL);
        double g;
        cr_assert_eq(fl_moreau_gamma(NULL, &g, &e), FL_EINVAL);
        gsl_vector_free(vv);
    }
    gsl_matrix_free(M);
    gsl_vector_free(dgap);
    gsl_vector_free(v);
    gsl_vector_free(u);
    gsl_vector_free(r);
    gsl_vector_free(z);
    gsl_vector_free(u3);
}

/* A factor supplied by the caller is reused (no refactorisation), and the
 * system wrappers reject bad systems. */
Test(moreau_law, sparse_reuses_a_supplied_factor_and_systems_are_checked)
{
    const double Ma[4] = {2, 1, 1, 2}, dg[2] = {0, 1}, va[2] = {1, -1};
    gsl_matrix *M = matrix(2, Ma);
    gsl_vector *dgap = vec(2, dg), *v = vec(2, va), *u = gsl_vector_alloc(2),
               *r = gsl_vector_alloc(2);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_sparse_start(&ctx, NULL);
    cholmod_sparse *A = NULL;
    cholmod_factor *L = NULL;
    fl_sparse_from_dense(&ctx, M, 1, 0.0, &A, NULL);
    cr_assert_eq(fl_sparse_factor(&ctx, A, &L, NULL), FL_OK);
    fl_moreau_problem p = {.d = 2, .Msp = A, .ctx = &ctx, .Lsp = L, .gap = 0, .dgap = dgap,
                           .friction = FL_MOREAU_FRICTIONLESS, .v = v};
    fl_moreau_result res;
    cr_assert_eq(fl_moreau_law_sparse(&p, NULL, u, r, NULL, NULL), FL_OK);
    cr_assert_eq(fl_moreau_law_sparse(&p, NULL, u, r, &res, NULL), FL_OK);
    cr_assert_float_eq(gsl_vector_get(u, 0), 0.5, 1e-15);
    cr_assert_not_null(p.Lsp);
    fl_sparse_free_factor(&ctx, &L);
    fl_sparse_free(&ctx, &A);
    fl_sparse_finish(&ctx);
    /* systems */
    fl_moreau_system bad;
    memset(&bad, 0, sizeof bad);
    fl_error e;
    cr_assert_eq(fl_moreau_system_law(&bad, v, v, NULL, u, r, &res, &e), FL_EINVAL);
    fl_model_theorem1_case cs;
    cr_assert_eq(fl_model_theorem1_case_data(NULL, 0, &cs, NULL), FL_OK);
    fl_model_theorem1_rod rod = cs.rod;
    double *q0 = cs.q, *um = cs.u_minus;
    fl_moreau_system sys;
    fl_model_theorem1_rod_system(&rod, &sys);
    cr_assert_eq(fl_moreau_system_law(&sys, v, v, NULL, u, r, &res, &e), FL_EDIM);
    sys.k = 3;
    gsl_vector *q = vec(3, q0), *w = vec(3, um), *u3 = gsl_vector_alloc(3);
    cr_assert_eq(fl_moreau_system_gamma(&sys, q, &res.gamma, &e), FL_EINVAL);
    sys.k = 1;
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, -1, q, w, NULL, &res, &e), FL_EINVAL);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 1e-3, q, v, NULL, &res, &e), FL_EDIM);
    cr_assert_eq(fl_moreau_step(&sys, NULL, 0, 1e-3, q, w, NULL, &res, &e), FL_OK);
    cr_assert_eq(fl_moreau_system_project(&sys, q, w, NULL, u3, &res, &e), FL_OK);
    gsl_matrix_free(M);
    gsl_vector_free(dgap);
    gsl_vector_free(v);
    gsl_vector_free(u);
    gsl_vector_free(r);
    gsl_vector_free(q);
    gsl_vector_free(w);
    gsl_vector_free(u3);
}
