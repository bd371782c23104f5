/* test_models_001.c — the mechanical systems of paper 001 (Charles &
 * Ballard, ZAMP 2016, §6.2–§6.3) in models/, each built from its data/001
 * file, against the closed forms of proofs/p4_law.md §5–§6; and the refusal
 * of bad parameter files, naming the file and the field. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_data.h"
#include "fl_scalar.h"
#include "models/fl_model_kane.h"
#include "models/fl_model_painleve.h"
#include "models/fl_model_file.h"
#include "models/fl_model_system1.h"
#include "models/fl_model_system2.h"
#include "check_capture.h"

static void data_file(const char *rel, char *path, size_t len)
{
    fl_error e;
    cr_assert_eq(fl_data_path(NULL, rel, path, len, &e), FL_OK, "%s", e.message);
}

#define NEAR(a, b, tol, what) \
    cr_assert(fabs((a) - (b)) <= (tol), "%s: %.17g vs closed form %.17g", what, (double)(a), (double)(b))

Test(models_001, painleve_bar_mass_tl_gap_and_set_closed_forms)
{
    char path[4096];
    data_file("001/painleve_set.json", path, sizeof path);
    fl_model_painleve_params P;
    fl_error e;
    cr_assert_eq(fl_model_painleve_load(path, &P, &e), FL_OK, "%s", e.message);
    /* the file's values (data/001/painleve_set.json) */
    NEAR(P.m, 1.0, 0, "m");
    NEAR(P.J, 1.0 / 3.0, 1e-16, "J");
    NEAR(P.theta0, -FL_PI / 6, 1e-15, "theta0");
    for (int k = 0; k < 2; k++) {
        double mu = k ? P.mu_large : P.mu_small;
        fl_model_painleve b;
        cr_assert_eq(fl_model_painleve_init(&b, &P, mu, P.C0, FL_FSET_BY_DPHI, &e), FL_OK, "%s", e.message);
        gsl_matrix *M = gsl_matrix_alloc(2, 2), *tl = gsl_matrix_alloc(2, 2);
        fl_model_painleve_mass(&b, M);
        fl_model_painleve_tl(&b, tl);
        NEAR(gsl_matrix_get(M, 0, 0), P.m, 0, "M_xx = m");
        NEAR(gsl_matrix_get(M, 1, 1), P.J, 0, "M_tt = J");
        NEAR(gsl_matrix_get(M, 0, 1), 0.0, 0, "M_xt");
        /* 001 (6.1) at theta0 = -pi/6, l = 1: [1 0; 1/2 sqrt3/2] */
        NEAR(gsl_matrix_get(tl, 0, 0), 1.0, 0, "tl_00");
        NEAR(gsl_matrix_get(tl, 0, 1), 0.0, 0, "tl_01");
        NEAR(gsl_matrix_get(tl, 1, 0), 0.5, 1e-15, "tl_10 = -l sin theta0");
        NEAR(gsl_matrix_get(tl, 1, 1), sqrt(3.0) / 2, 1e-15, "tl_11 = l cos theta0");
        /* C*: proofs/p4_law.md §5 */
        double c = cos(P.theta0), s = sin(P.theta0), l = P.l, thr = -1.0 / tan(P.theta0);
        NEAR(b.fs.set.hi, mu / (l * (c - mu * s)), 1e-12, "upper end of C*");
        if (mu < thr) {
            NEAR(b.fs.set.lo, -mu / (l * (c + mu * s)), 1e-12, "lower end of C*");
            cr_assert(b.fs.bounded);
        } else {
            cr_assert(isinf(b.fs.set.lo) && b.fs.set.lo < 0, "mu = %g >= sqrt 3: C* = ]-inf, b]", mu);
            cr_assert(!b.fs.bounded);
        }
        /* the P'4 system: phi = theta - theta0, dphi = (0, 1), f = (0, C0) */
        fl_p4_system sys = fl_model_painleve_system(&b);
        cr_assert_eq(sys.n, 2);
        cr_assert_eq(sys.nc, 1);
        gsl_vector *q = gsl_vector_alloc(2), *v = gsl_vector_calloc(2), *f = gsl_vector_alloc(2),
                   *phi = gsl_vector_alloc(1), *dphi = gsl_vector_alloc(2);
        gsl_vector_set(q, 0, 0.3);
        gsl_vector_set(q, 1, P.theta0 + 0.25);
        cr_assert_eq(sys.gap(sys.data, q, phi), FL_OK);
        NEAR(gsl_vector_get(phi, 0), 0.25, 1e-15, "phi = theta - theta0");
        cr_assert_eq(sys.gradient(sys.data, q, 0, dphi), FL_OK);
        NEAR(gsl_vector_get(dphi, 0), 0.0, 0, "dphi_x");
        NEAR(gsl_vector_get(dphi, 1), 1.0, 0, "dphi_theta");
        cr_assert_eq(sys.force(sys.data, 0.0, q, v, f), FL_OK);
        NEAR(gsl_vector_get(f, 0), 0.0, 0, "f_x");
        NEAR(gsl_vector_get(f, 1), P.C0, 0, "f_theta = C0");
        gsl_matrix_set_all(M, 7.0);
        cr_assert_eq(sys.mass(sys.data, q, M), FL_OK);
        NEAR(gsl_matrix_get(M, 1, 0), 0.0, 0, "M from the callback is diagonal");
        fl_friction_set set;
        gsl_matrix *E = NULL;
        cr_assert_eq(sys.friction(sys.data, q, 0, &set, &E, &e), FL_OK, "%s", e.message);
        NEAR(set.hi, b.fs.set.hi, 0, "callback set = built set");
        NEAR(gsl_matrix_get(E, 0, 0), 1.0, 0, "coordinate r_x");
        fl_friction_set_release(&set);
        gsl_matrix_free(E);
        /* the dphi normalisation vs n*: C*_dphi = |dphi|* C*_n*, |dphi|* = 1/sqrt(J) (§2) */
        fl_model_painleve bn = b;
        memset(&bn.fs, 0, sizeof bn.fs);
        cr_assert_eq(fl_model_painleve_build(&bn, FL_FSET_BY_NSTAR, &e), FL_OK, "%s", e.message);
        NEAR(b.fs.set.hi, bn.fs.set.hi / sqrt(P.J), 1e-12, "normalisation");
        fl_model_painleve_release(&bn);
        gsl_vector_free(q);
        gsl_vector_free(v);
        gsl_vector_free(f);
        gsl_vector_free(phi);
        gsl_vector_free(dphi);
        gsl_matrix_free(M);
        gsl_matrix_free(tl);
        fl_model_painleve_release(&b);
    }
}

Test(models_001, system1_closed_forms)
{
    char path[4096];
    data_file("001/systems_1_2.json", path, sizeof path);
    fl_model_system1 S;
    fl_error e;
    cr_assert_eq(fl_model_system1_load(path, &S, &e), FL_OK, "%s", e.message);
    NEAR(S.theta_tilde0, 20.0 * FL_PI / 180.0, 1e-15, "theta~0 in radians");
    fl_p4_system sys = fl_model_system1_system(&S);
    cr_assert_eq(sys.n, 1);
    cr_assert_null(sys.friction, "one dof: no tangent space, no friction set");
    gsl_matrix *M = gsl_matrix_alloc(1, 1);
    gsl_vector *q = gsl_vector_alloc(1), *f = gsl_vector_alloc(1), *phi = gsl_vector_alloc(1),
               *dphi = gsl_vector_alloc(1);
    gsl_vector_set(q, 0, 0.125);
    sys.mass(sys.data, q, M);
    sys.force(sys.data, 0.0, q, q, f);
    sys.gap(sys.data, q, phi);
    sys.gradient(sys.data, q, 0, dphi);
    NEAR(gsl_matrix_get(M, 0, 0), S.J, 0, "M = J");
    NEAR(gsl_vector_get(f, 0), S.C0, 0, "f = C0");
    NEAR(gsl_vector_get(phi, 0), 0.125, 0, "phi = theta");
    NEAR(gsl_vector_get(dphi, 0), 1.0, 0, "dphi = 1");
    /* proofs/p4_law.md §6: the stuck member has r_theta = -C0 */
    double den = S.mu * cos(S.theta_tilde0) - sin(S.theta_tilde0), rn = S.C0 / (S.l * den);
    NEAR(fl_model_system1_r_theta(&S, rn, -S.mu * rn), -S.C0, 1e-14, "r_theta of the stuck member");
    NEAR(fl_model_system1_r_theta(&S, 1.0, 0.0), S.l * sin(S.theta_tilde0), 1e-15, "r_theta of r~_n = 1");
    gsl_matrix_free(M);
    gsl_vector_free(q);
    gsl_vector_free(f);
    gsl_vector_free(phi);
    gsl_vector_free(dphi);
}

Test(models_001, system2_closed_forms)
{
    char path[4096];
    data_file("001/systems_1_2.json", path, sizeof path);
    fl_model_system2 S;
    fl_error e;
    cr_assert_eq(fl_model_system2_load(path, &S, &e), FL_OK, "%s", e.message);
    double b = S.beta, l = S.l, cb = cos(b), sb = sin(b);
    NEAR(b, 10.0 * FL_PI / 180.0, 1e-15, "beta in radians");
    fl_p4_system sys = fl_model_system2_system(&S);
    cr_assert_eq(sys.n, 3);
    cr_assert_eq(sys.nc, 2);
    gsl_vector *q = gsl_vector_calloc(3), *phi = gsl_vector_alloc(2), *dphi = gsl_vector_alloc(3),
               *f = gsl_vector_alloc(3);
    gsl_matrix *M = gsl_matrix_alloc(3, 3);
    double x = 0.2, y = 0.7;
    gsl_vector_set(q, 0, x);
    gsl_vector_set(q, 1, y);
    sys.gap(sys.data, q, phi);
    NEAR(gsl_vector_get(phi, 0), x * cb + y * sb, 1e-15, "phi_A");
    NEAR(gsl_vector_get(phi, 1), -x * cb + y * sb, 1e-15, "phi_B");
    double want[2][3] = {{cb, sb, -l * sb}, {-cb, sb, l * sb}};
    for (size_t a = 0; a < 2; a++) {
        sys.gradient(sys.data, q, a, dphi);
        for (size_t i = 0; i < 3; i++) NEAR(gsl_vector_get(dphi, i), want[a][i], 1e-15, "dphi");
    }
    /* dphi is the derivative of phi: central difference at a rotated q */
    gsl_vector_set(q, 2, 0.3);
    for (size_t a = 0; a < 2; a++) {
        sys.gradient(sys.data, q, a, dphi);
        for (size_t i = 0; i < 3; i++) {
            double hq = 1e-6, p1, p0;
            gsl_vector_set(q, i, gsl_vector_get(q, i) + hq);
            sys.gap(sys.data, q, phi);
            p1 = gsl_vector_get(phi, a);
            gsl_vector_set(q, i, gsl_vector_get(q, i) - 2 * hq);
            sys.gap(sys.data, q, phi);
            p0 = gsl_vector_get(phi, a);
            gsl_vector_set(q, i, gsl_vector_get(q, i) + hq);
            NEAR(gsl_vector_get(dphi, i), (p1 - p0) / (2 * hq), 1e-8, "dphi vs finite difference of phi");
        }
    }
    sys.mass(sys.data, q, M);
    NEAR(gsl_matrix_get(M, 0, 0), S.m, 0, "M_xx");
    NEAR(gsl_matrix_get(M, 1, 1), S.m, 0, "M_yy");
    NEAR(gsl_matrix_get(M, 2, 2), S.J, 0, "M_tt");
    sys.force(sys.data, 0.0, q, q, f);
    NEAR(gsl_vector_get(f, 1), S.F, 0, "upward pull F");
    NEAR(gsl_vector_get(f, 0) + fabs(gsl_vector_get(f, 2)), 0.0, 0, "no other force");
    /* the friction sets (001 §6.1) contain 0 and come back through the callback */
    gsl_vector_set_zero(q);
    for (size_t a = 0; a < 2; a++) {
        fl_friction_set set;
        gsl_matrix *E = NULL;
        fl_fset_result fr;
        cr_assert_eq(fl_model_system2_fset(&S, q, a, &fr, &e), FL_OK, "%s", e.message);
        cr_assert(fr.contains_zero);
        cr_assert_eq(sys.friction(sys.data, q, a, &set, &E, &e), FL_OK, "%s", e.message);
        cr_assert_eq(set.kind, fr.set.kind);
        fl_friction_set_release(&set);
        gsl_matrix_free(E);
        fl_fset_result_release(&fr);
    }
    gsl_vector_free(q);
    gsl_vector_free(phi);
    gsl_vector_free(dphi);
    gsl_vector_free(f);
    gsl_matrix_free(M);
}

Test(models_001, kane_mass_jacobian_and_energy_closed_forms)
{
    char path[4096];
    data_file("001/kane.json", path, sizeof path);
    fl_model_kane K;
    fl_error e;
    cr_assert_eq(fl_model_kane_load(path, &K, &e), FL_OK, "%s", e.message);
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *Jc = gsl_matrix_alloc(2, 2);
    gsl_vector *qd = gsl_vector_alloc(2), *Mq = gsl_vector_alloc(2);
    fl_model_kane_mass(&K, M);
    fl_model_kane_jacobian(&K, Jc);
    fl_model_kane_velocity(&K, qd);
    /* data/001/kane.json: unit rods, theta = (-0.56, -0.79), omega = (0, -1) */
    NEAR(gsl_matrix_get(M, 0, 0), 4.0 / 3.0, 1e-15, "M_11 = m1 L1^2/3 + m2 L1^2");
    NEAR(gsl_matrix_get(M, 0, 1), 0.5 * cos(0.23), 1e-15, "M_12 = m2 L1 L2 cos(t1 - t2)/2");
    NEAR(gsl_matrix_get(M, 1, 0), gsl_matrix_get(M, 0, 1), 0, "M symmetric");
    NEAR(gsl_matrix_get(M, 1, 1), 1.0 / 3.0, 1e-15, "M_22 = m2 L2^2/3");
    NEAR(gsl_matrix_get(Jc, 0, 0), -sin(-0.56), 1e-15, "Jc_t1");
    NEAR(gsl_matrix_get(Jc, 0, 1), -sin(-0.79), 1e-15, "Jc_t2");
    NEAR(gsl_matrix_get(Jc, 1, 0), cos(-0.56), 1e-15, "Jc_n1");
    NEAR(gsl_matrix_get(Jc, 1, 1), cos(-0.79), 1e-15, "Jc_n2");
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, qd, 0.0, Mq);
    double K0;
    gsl_blas_ddot(qd, Mq, &K0);
    NEAR(0.5 * K0, 1.0 / 6.0, 1e-15, "K- = 1/6 (proofs/p4_law.md §6)");
    /* the tip approaches the floor: u_n = L2 cos(theta2) omega2 < 0 */
    cr_assert_lt(gsl_matrix_get(Jc, 1, 1) * gsl_vector_get(qd, 1), 0.0);
    gsl_matrix_free(M);
    gsl_matrix_free(Jc);
    gsl_vector_free(qd);
    gsl_vector_free(Mq);
}

/* A parameter file with one member of "params" replaced
 * (tests/check_capture.h), in the temporary directory of c. */
static void write_bad(capture *c, const char *file, const char *key, const char *value, char *out, size_t len)
{
    snprintf(out, len, "%s/001/%s", capture_data_dir(c, file, "\"params\"", key, value), file);
}

static void expect_refused(fl_status s, const fl_error *e, const char *path, const char *field)
{
    cr_assert_lt(s, 0, "a bad file must be refused");
    cr_assert_not_null(strstr(e->message, path), "message names the file: %s", e->message);
    cr_assert_not_null(strstr(e->message, field), "message names the field %s: %s", field, e->message);
}

Test(models_001, bad_files_refused_naming_file_and_field)
{
    char path[400];
    fl_error e;
    capture c;
    capture_ctx(&c);
    fl_model_painleve_params P;
    write_bad(&c, "painleve_set.json", "J", "-0.5", path, sizeof path);
    expect_refused(fl_model_painleve_load(path, &P, &e), &e, path, "params.J");
    write_bad(&c, "painleve_catastrophe.json", "mu_small", "\"half\"", path, sizeof path);
    expect_refused(fl_model_painleve_load(path, &P, &e), &e, path, "params.mu_small");
    fl_model_system1 S1;
    write_bad(&c, "systems_1_2.json", "J1", "0", path, sizeof path);
    expect_refused(fl_model_system1_load(path, &S1, &e), &e, path, "params.J1");
    fl_model_system2 S2;
    write_bad(&c, "systems_1_2.json", "mu2", "-1", path, sizeof path);
    expect_refused(fl_model_system2_load(path, &S2, &e), &e, path, "params.mu2");
    fl_model_kane K;
    write_bad(&c, "kane.json", "e", "1.5", path, sizeof path);
    expect_refused(fl_model_kane_load(path, &K, &e), &e, path, "params.e");
    write_bad(&c, "kane.json", "L2", "-1", path, sizeof path);
    expect_refused(fl_model_kane_load(path, &K, &e), &e, path, "params.L2");
    /* a missing member and a missing file */
    const fl_model_key keys[] = {{"no_such_member", FL_MODEL_ANY}};
    double v;
    char kane[4096];
    data_file("001/kane.json", kane, sizeof kane);
    expect_refused(fl_model_file_params(kane, 1, keys, &v, &e), &e, kane, "no_such_member");
    expect_refused(fl_model_kane_load("/nonexistent/kane.json", &K, &e), &e, "/nonexistent/kane.json", "");
    capture_cleanup(&c);
}
