/* test_stability.c — reference/stability.c: Example 3.15 and Example 4.6 of
 * 004 (closed forms in 004 Example 3.15; 004 Example 4.6 and proofs/stability.md), the
 * orderings of 004 §3.3 (ii)-(iii) and the identity (84) on random systems,
 * the three §5.4 searches against each other and against sampling, Rayleigh
 * damping against the modal closed form, and bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sort_vector.h>

#include "testkit/fl_random.h"
#include "models/fl_model_example_3_14.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "reference/stability.h"
#include "fl_scalar.h"

/* ---- Example 3.15 (004 §3.5, 004 Example 3.15): dofs (D, F, T, N); the system
 * is models/fl_model_example_3_15 ---------------------------------------- */
Test(stability, example_3_15_closed_forms)
{
    const double mus[] = {0.5, 1.0, 2.0, 2.8, 2.86, 3.0, 5.0};
    const double Ks = 3.0, Ms = 2.0, P = 0.7;
    for (size_t q = 0; q < sizeof mus / sizeof *mus; q++) {
        double mu = mus[q];
        fl_model_example_3_15_system *e = NULL;
        cr_assert_eq(fl_model_example_3_15_system_alloc(Ks, Ms, P, mu, &e, NULL), FL_OK);
        /* the equilibrium (30): K u0 - f = r0 with f = (-2P, 2P, mu P, 0) */
        fl_stability_label lab;
        cr_assert_eq(fl_stability_partition(&e->s, e->u0, e->r0, 1e-12, &lab, NULL), FL_OK);
        cr_assert_eq(lab, FL_STAB_PS, "mu = %g: the contact particle slides", mu);
        fl_stability_tangent *t;
        cr_assert_eq(fl_stability_tangent_alloc(&e->s, &lab, e->r0, &t, NULL), FL_OK);
        cr_assert_eq(t->nstar, 2);
        cr_assert_eq(t->dof[0], 1);
        cr_assert_eq(t->dof[1], 2);
        cr_assert_eq(t->csign[1], -1, "sigma(r_T) = -1");
        /* K* = K [2 0; mu 1] */
        double ex[2][2] = {{2, 0}, {mu, 1}};
        for (size_t a = 0; a < 2; a++)
            for (size_t b = 0; b < 2; b++)
                cr_assert(fabs(gsl_matrix_get(t->Kstar, a, b) - Ks * ex[a][b]) < 1e-14,
                          "K*[%zu][%zu] mu=%g", a, b, mu);
        fl_stability_result res;
        cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, &res, NULL), FL_OK);
        double lmin = (3.0 - sqrt(1.0 + mu * mu)) * Ks / 2.0;
        cr_assert(fabs(res.ks_min - lmin) < 1e-12 * Ks, "mu=%g: %.15g vs %.15g", mu, res.ks_min, lmin);
        /* eigenvector (-beta, 1)/norm, beta = mu / (1 + sqrt(1+mu^2)), admissible (v_T >= 0) */
        double beta = mu / (1.0 + sqrt(1.0 + mu * mu)), nv = hypot(beta, 1.0);
        cr_assert(res.ks_vec_admissible);
        cr_assert(fabs(gsl_vector_get(res.ks_vec, 0) + beta / nv) < 1e-12);
        cr_assert(fabs(gsl_vector_get(res.ks_vec, 1) - 1.0 / nv) < 1e-12);
        cr_assert(res.residual < 1e-13 * Ks);
        /* Cholesky fails exactly when mu >= 2 sqrt 2 (grid avoids the boundary) */
        cr_assert_eq(res.ks_cholesky_pd, mu < 2.0 * sqrt(2.0), "mu=%g", mu);
        cr_assert(fabs(res.ks_cone_min - lmin) < 1e-12 * Ks);
        /* M^-1 K*: Lambda = K/M and 2K/M, real positive: no divergence, no flutter */
        cr_assert(fabs(res.lam_re[0] - Ks / Ms) < 1e-12 && fabs(res.lam_re[1] - 2 * Ks / Ms) < 1e-12);
        cr_assert(res.lam_im[0] == 0.0 && res.lam_im[1] == 0.0);
        cr_assert_not(res.divergence);
        cr_assert_not(res.flutter);
        cr_assert_eq(res.flutter_mode, 0);
        cr_assert(fabs(res.ms_min - Ms) < 1e-14);
        /* (76) holds along V_S when mu >= 2 sqrt 2: a*(V_S, V_S) <= 0 via (66) */
        gsl_vector *V = gsl_vector_calloc(4);
        gsl_vector_set(V, 1, -beta);
        gsl_vector_set(V, 2, 1.0);
        double astar = fl_stability_form_star(&e->s, e->K, &lab, V, V);
        cr_assert(fabs(astar - lmin * nv * nv) < 1e-12 * Ks, "a*(V,V) = %g", astar);
        gsl_vector_free(V);
        fl_stability_result_free(&res);
        fl_stability_tangent_free(t);
        fl_model_example_3_15_system_free(e);
    }
}

/* ---- Example 4.6 (004 §4, 004 Example 4.6): dofs (D, theta, T, N); the system
 * is models/fl_model_example_4_6 ------------------------------------------ */
static fl_model_example_4_6_system *ex46_alloc(double mu, double rb, double hb, double rm, double hm)
{
    fl_model_example_4_6_system *e = NULL;
    cr_assert_eq(fl_model_example_4_6_system_alloc(mu, rb, hb, rm, hm, &e, NULL), FL_OK);
    return e;
}

/* steady sliding with sigma(u_T') = sig and r_N = -0.01 */
static void ex46_analyse(const fl_model_example_4_6_system *e, double sig, fl_stability_result *res)
{
    fl_error err;
    cr_assert_eq(fl_model_example_4_6_analyse(e, sig, -0.01, res, &err), FL_OK, "%s", err.message);
}

Test(stability, example_4_6_fig9_eigenvalues)
{
    fl_model_example_4_6_system *e = ex46_alloc(2.2, 0.07, 0.1, 0.15, 0.05);
    fl_stability_result res;
    ex46_analyse(e, -1.0, &res);
    /* Lambda = -lambda^2 = 1.0629778 -+ 0.1692809 i (004 Example 4.6, from the
     * characteristic polynomial 0.0225 s^2 + 0.047834 s + 0.026068) */
    cr_assert(res.flutter);
    cr_assert_eq(res.flutter_mode, 1);
    cr_assert(fabs(res.lam_re[0] - 1.0629778) < 1e-6, "%.9g", res.lam_re[0]);
    cr_assert(fabs(fabs(res.lam_im[0]) - 0.1692809) < 1e-6, "%.9g", res.lam_im[0]);
    cr_assert_not(res.divergence);
    fl_stability_result_free(&res);
    ex46_analyse(e, +1.0, &res);   /* s = -0.4080049, -1.4304840: neutral */
    cr_assert_not(res.flutter);
    cr_assert(fabs(res.lam_re[0] - 0.4080049) < 1e-6 && fabs(res.lam_re[1] - 1.4304840) < 1e-6,
              "%.9g %.9g", res.lam_re[0], res.lam_re[1]);
    fl_stability_result_free(&res);
    fl_model_example_4_6_system_free(e);
}

Test(stability, example_4_6_inequalities_hm0)
{
    /* H_M = 0: flutter iff [1+4 rho^2+eta^2]^2 - 8 rho^2 (2 - 3 mu hb sigma) < 0,
     * divergence iff 2 - 3 mu hb sigma <= 0 (rho = R_B/R_M, eta = H_B/R_M). */
    int nflutter = 0, ndiv = 0, n = 0;
    for (double mu = 0.1; mu <= 12.0; mu *= 1.37)
        for (double rb = 0.03; rb <= 0.2; rb *= 1.6)
            for (double hb = 0.05; hb <= 0.8; hb *= 1.9)
                for (double rm = 0.05; rm <= 0.4; rm *= 1.7)
                    for (int q = 0; q < 2; q++) {
                        double sig = q ? 1.0 : -1.0;
                        double rho = rb / rm, eta = hb / rm, c = 2.0 - 3.0 * mu * hb * sig;
                        double disc = pow(1 + 4 * rho * rho + eta * eta, 2) - 8 * rho * rho * c;
                        double scale = pow(1 + 4 * rho * rho + eta * eta, 2);
                        if (fabs(disc) < 1e-6 * scale || fabs(c) < 1e-6) continue;  /* boundary */
                        fl_model_example_4_6_system *e = ex46_alloc(mu, rb, hb, rm, 0.0);
                        fl_stability_result res;
                        ex46_analyse(e, sig, &res);
                        cr_assert_eq(res.flutter, disc < 0, "mu=%g rb=%g hb=%g rm=%g sig=%g disc=%g",
                                     mu, rb, hb, rm, sig, disc);
                        cr_assert_eq(res.divergence, c <= 0, "mu=%g rb=%g hb=%g rm=%g sig=%g c=%g",
                                     mu, rb, hb, rm, sig, c);
                        if (disc < 0) cr_assert(sig < 0, "flutter only when pulled");
                        if (c <= 0) cr_assert(sig > 0, "divergence only when pushed");
                        nflutter += res.flutter;
                        ndiv += res.divergence;
                        n++;
                        fl_stability_result_free(&res);
                        fl_model_example_4_6_system_free(e);
                    }
    cr_assert(nflutter > 5 && ndiv > 5 && n > 100, "grid covers both: %d %d %d", nflutter, ndiv, n);
}

/* ---- random systems: partition, (84), orderings of §3.3, the searches ---- */
typedef struct rsys {
    size_t n, np;
    gsl_matrix *K, *M;
    gsl_vector *u, *r;
    unsigned char *pres;
    size_t *iT, *iN;
    fl_stability_label *lab;
    fl_stability_system s;
} rsys;

static void rsys_init(rsys *x, gsl_rng *g, size_t n, size_t np)
{
    x->n = n;
    x->np = np;
    x->K = gsl_matrix_alloc(n, n);
    x->M = gsl_matrix_alloc(n, n);
    cr_assert_eq(fl_random_spd(g, 1e3, 1.0, x->K), FL_OK);
    cr_assert_eq(fl_random_spd(g, 10.0, 1.0, x->M), FL_OK);
    x->u = gsl_vector_calloc(n);
    x->r = gsl_vector_calloc(n);
    x->pres = calloc(n, 1);
    x->iT = malloc(np * sizeof(size_t));
    x->iN = malloc(np * sizeof(size_t));
    x->lab = malloc(np * sizeof(fl_stability_label));
    double mu = fl_random_mu(g);
    for (size_t p = 0; p < np; p++) {
        x->iT[p] = 2 * p;
        x->iN[p] = 2 * p + 1;
        fl_stability_label l = (fl_stability_label)gsl_rng_uniform_int(g, 4);
        x->lab[p] = l;
        double rN = -0.5 - gsl_rng_uniform(g);
        if (l == FL_STAB_PF) gsl_vector_set(x->u, x->iN[p], -0.1 - gsl_rng_uniform(g));
        if (l == FL_STAB_PD) {
            gsl_vector_set(x->r, x->iN[p], rN);
            gsl_vector_set(x->r, x->iT[p], -mu * rN * (1.8 * gsl_rng_uniform(g) - 0.9));
        }
        if (l == FL_STAB_PS) {
            gsl_vector_set(x->r, x->iN[p], rN);
            gsl_vector_set(x->r, x->iT[p], (gsl_rng_uniform(g) < 0.5 ? 1 : -1) * mu * rN);
        }
    }
    if (2 * np < n && gsl_rng_uniform(g) < 0.5) x->pres[n - 1] = 1;
    x->s = (fl_stability_system){.n = n, .K = x->K, .M = x->M, .prescribed = x->pres, .np = np,
                            .iT = x->iT, .iN = x->iN, .mu = mu};
}

static void rsys_free(rsys *x)
{
    gsl_matrix_free(x->K);
    gsl_matrix_free(x->M);
    gsl_vector_free(x->u);
    gsl_vector_free(x->r);
    free(x->pres);
    free(x->iT);
    free(x->iN);
    free(x->lab);
}

Test(stability, random_partition_identity_84_and_orderings)
{
    gsl_rng *g = fl_test_rng(8004);
    int ncases = 0, nneg = 0;
    for (int trial = 0; trial < 300; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(g, 4);
        size_t n = 2 * np + gsl_rng_uniform_int(g, 4);
        rsys x;
        rsys_init(&x, g, n, np);
        fl_stability_label *lab = malloc(np * sizeof *lab);
        cr_assert_eq(fl_stability_partition(&x.s, x.u, x.r, 1e-12, lab, NULL), FL_OK, "%s", fl_test_seed_note());
        for (size_t p = 0; p < np; p++)
            cr_assert_eq(lab[p], x.lab[p], "particle %zu %s", p, fl_test_seed_note());
        fl_stability_tangent *t;
        fl_status st = fl_stability_tangent_alloc(&x.s, lab, x.r, &t, NULL);
        if (st != FL_OK) { free(lab); rsys_free(&x); continue; }   /* S* empty */
        size_t ns = t->nstar;
        /* (84): a*(v,v) of (66) equals K*_S v*.v* - sum_{P_z} mu [Kv]_N |v_T|
         * for v = (0, v*) with v* in K*_u' (79) */
        gsl_vector *vs = gsl_vector_alloc(ns), *v = gsl_vector_calloc(n), *tmp = gsl_vector_alloc(ns);
        fl_random_vector(g, 1.0, vs);
        for (size_t k = 0; k < ns; k++)
            if (t->csign[k] * gsl_vector_get(vs, k) > 0) gsl_vector_set(vs, k, -gsl_vector_get(vs, k));
        for (size_t k = 0; k < ns; k++) gsl_vector_set(v, t->dof[k], gsl_vector_get(vs, k));
        double a66 = fl_stability_form_star(&x.s, x.K, lab, v, v);
        gsl_blas_dgemv(CblasNoTrans, 1.0, t->KS, vs, 0.0, tmp);
        double a84;
        gsl_blas_ddot(tmp, vs, &a84);
        gsl_vector *Kv = gsl_vector_alloc(n);
        gsl_blas_dgemv(CblasNoTrans, 1.0, x.K, v, 0.0, Kv);
        for (size_t p = 0; p < np; p++)
            if (lab[p] == FL_STAB_PZ)
                a84 -= x.s.mu * gsl_vector_get(Kv, x.iN[p]) * fabs(gsl_vector_get(v, x.iT[p]));
        cr_assert(fabs(a66 - a84) < 1e-9 * (1 + fabs(a66)) * (1 + x.s.mu) * 1e3,
                  "(84): %g vs %g %s", a66, a84, fl_test_seed_note());
        /* §3.3 (ii): lambda_min(K*_S) <= min Re eig(K*); (iii) <= any real
         * eigenvalue with an admissible real eigenvector */
        fl_stability_result res;
        cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, &res, NULL), FL_OK, "%s", fl_test_seed_note());
        double *re = malloc(ns * sizeof *re), *im = malloc(ns * sizeof *im);
        gsl_matrix *E = gsl_matrix_alloc(ns, ns);
        cr_assert_eq(fl_stability_gen_eig(t->Kstar, NULL, re, im, E, NULL), FL_OK);
        double normK = 0;
        for (size_t a = 0; a < ns; a++)
            for (size_t b = 0; b < ns; b++) normK = fmax(normK, fabs(gsl_matrix_get(t->Kstar, a, b)));
        double minre = INFINITY;
        for (size_t k = 0; k < ns; k++) minre = fmin(minre, re[k]);
        cr_assert(res.ks_min <= minre + 1e-12 * ns * normK, "(ii) %g > %g %s", res.ks_min, minre,
                  fl_test_seed_note());
        for (size_t k = 0; k < ns; k++) {
            gsl_vector_view c = gsl_matrix_column(E, k);
            if (im[k] == 0.0 && fl_stability_admissible(&c.vector, t->csign, 1e-10))
                cr_assert(minre <= re[k], "(iii) %s", fl_test_seed_note());
        }
        /* method 2 agrees with method 3 outside a band */
        if (fabs(res.ks_min) > 1e-10 * normK)
            cr_assert_eq(res.ks_cholesky_pd, res.ks_min > 0, "%g %s", res.ks_min, fl_test_seed_note());
        /* method 1: ks_min <= cone min, equality when the eigenvector is admissible,
         * and no sampled admissible unit vector does better */
        cr_assert(res.ks_cone_min >= res.ks_min - 1e-12 * normK, "%s", fl_test_seed_note());
        if (res.ks_vec_admissible)
            cr_assert(fabs(res.ks_cone_min - res.ks_min) < 1e-10 * normK, "%s", fl_test_seed_note());
        for (int q = 0; q < 50; q++) {
            fl_random_unit(g, vs);
            for (size_t k = 0; k < ns; k++)
                if (t->csign[k] * gsl_vector_get(vs, k) > 0) gsl_vector_set(vs, k, -gsl_vector_get(vs, k));
            double rq;
            gsl_blas_dgemv(CblasNoTrans, 1.0, t->KS, vs, 0.0, tmp);
            gsl_blas_ddot(tmp, vs, &rq);
            cr_assert(rq >= res.ks_cone_min - 1e-10 * normK, "sample %g < %g %s", rq,
                      res.ks_cone_min, fl_test_seed_note());
        }
        /* eigenvalues of M*^-1 K*: every one satisfies det(K* - Lambda M*) ~ 0
         * via the real case: residual of the eigenvector */
        ncases++;
        nneg += res.ks_min < 0;
        free(re);
        free(im);
        gsl_matrix_free(E);
        gsl_vector_free(Kv);
        gsl_vector_free(vs);
        gsl_vector_free(v);
        gsl_vector_free(tmp);
        fl_stability_result_free(&res);
        fl_stability_tangent_free(t);
        free(lab);
        rsys_free(&x);
    }
    cr_assert(ncases > 200, "%d cases %s", ncases, fl_test_seed_note());
    gsl_rng_free(g);
    (void)nneg;
}

Test(stability, cone_min_exact_on_a_2x2)
{
    /* A = diag(1, -1), v_1 constrained c = +1 (v_1 <= 0): min -1 at (0, +-1);
     * A = [[-1, 0],[0, 2]] with v_0 <= 0: min -1 at (-1, 0). */
    gsl_matrix *A = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(A, 0, 0, 2.0);
    gsl_matrix_set(A, 0, 1, -3.0);
    gsl_matrix_set(A, 1, 0, -3.0);
    gsl_matrix_set(A, 1, 1, 2.0);
    /* eigenvalues -1 (vector (1,1)/sqrt2) and 5 ((1,-1)/sqrt2).  Constraint
     * v_0 <= 0 and v_1 >= 0 (c = (+1, -1)) excludes (1,1): on the arc
     * v = (-cos a, sin a) the quotient is 2 + 6 cos a sin a >= 2 at the ends. */
    int c[2] = {1, -1};
    double m;
    gsl_vector *v = gsl_vector_alloc(2);
    size_t tried;
    cr_assert_eq(fl_stability_cone_min(A, c, 12, &m, v, &tried, NULL), FL_OK);
    cr_assert(fabs(m - 2.0) < 1e-12, "%g", m);
    cr_assert_eq(tried, 3);   /* the all-zero set is not a unit vector */
    int c2[2] = {1, 1};   /* v <= 0 componentwise admits -(1,1)/sqrt2 */
    cr_assert_eq(fl_stability_cone_min(A, c2, 12, &m, v, NULL, NULL), FL_OK);
    cr_assert(fabs(m + 1.0) < 1e-12);
    cr_assert(gsl_vector_get(v, 0) < 0 && gsl_vector_get(v, 1) < 0);
    cr_assert_eq(fl_stability_cone_min(A, c2, 1, &m, v, NULL, NULL), FL_EUNSUPPORTED);
    gsl_vector_free(v);
    gsl_matrix_free(A);
}

Test(stability, rayleigh_modal_damping_ratio)
{
    /* K, M SPD, C = alpha M + beta K: each mode omega has
     * zeta = (alpha + beta omega^2)/(2 omega), xi = zeta / sqrt(1 - zeta^2)
     * (004 §5.4, §5.7, proofs/stability.md §3). */
    gsl_rng *g = fl_test_rng(5007);
    size_t n = 5;
    gsl_matrix *K = gsl_matrix_alloc(n, n), *M = gsl_matrix_alloc(n, n);
    cr_assert_eq(fl_random_spd(g, 20.0, 4.0, K), FL_OK);
    cr_assert_eq(fl_random_spd(g, 3.0, 1.0, M), FL_OK);
    double alpha = 0.05, beta = 0.01;
    gsl_matrix *A = gsl_matrix_alloc(n, n), *B = gsl_matrix_alloc(n, n);
    gsl_matrix_memcpy(A, K);
    gsl_matrix_memcpy(B, M);
    gsl_vector *w2 = gsl_vector_alloc(n);
    gsl_eigen_gensymm_workspace *ws = gsl_eigen_gensymm_alloc(n);
    gsl_eigen_gensymm(A, B, w2, ws);
    gsl_eigen_gensymm_free(ws);
    gsl_sort_vector(w2);
    double *lre = malloc(2 * n * sizeof *lre), *lim = malloc(2 * n * sizeof *lim);
    cr_assert_eq(fl_stability_rayleigh(K, M, alpha, beta, lre, lim, NULL), FL_OK);
    for (size_t k = 0; k < n; k++) {
        double om = sqrt(gsl_vector_get(w2, k)), zeta = (alpha + beta * om * om) / (2 * om);
        cr_assert(zeta < 1);
        double xi = zeta / sqrt(1 - zeta * zeta);
        /* roots 2k, 2k+1 form the conjugate pair of mode k */
        for (int j = 0; j < 2; j++) {
            double re = lre[2 * k + j], im = lim[2 * k + j];
            cr_assert(fabs(re + zeta * om) < 1e-9 * om, "%s", fl_test_seed_note());
            cr_assert(fabs(fabs(im) - om * sqrt(1 - zeta * zeta)) < 1e-9 * om, "%s", fl_test_seed_note());
            cr_assert(fabs(-re / fabs(im) - xi) < 1e-8, "%s", fl_test_seed_note());
        }
    }
    free(lre);
    free(lim);
    gsl_vector_free(w2);
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
    gsl_rng_free(g);
}

Test(stability, bad_input)
{
    fl_model_example_3_15_system *e = NULL;
    cr_assert_eq(fl_model_example_3_15_system_alloc(1.0, 1.0, 1.0, 1.0, &e, NULL), FL_OK);
    fl_stability_label lab;
    fl_error err;
    /* u_N > 0 is not admissible (12) */
    gsl_vector_set(e->u0, 3, 0.1);
    cr_assert_eq(fl_stability_partition(&e->s, e->u0, e->r0, 1e-12, &lab, &err), FL_EINVAL);
    gsl_vector_set(e->u0, 3, -0.1);   /* free but with a reaction */
    cr_assert_eq(fl_stability_partition(&e->s, e->u0, e->r0, 1e-12, &lab, &err), FL_EINVAL);
    gsl_vector_set(e->u0, 3, 0.0);
    gsl_vector_set(e->r0, 2, -1.5);   /* outside the cone (17) */
    cr_assert_eq(fl_stability_partition(&e->s, e->u0, e->r0, 1e-12, &lab, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "(17)"));
    gsl_vector_set(e->r0, 2, NAN);
    cr_assert_eq(fl_stability_partition(&e->s, e->u0, e->r0, 1e-12, &lab, &err), FL_ENONFINITE);
    gsl_vector_set(e->r0, 2, -1.0);
    cr_assert_eq(fl_stability_partition(&e->s, e->u0, e->r0, -1.0, &lab, &err), FL_EINVAL);
    gsl_vector *short_v = gsl_vector_calloc(3);
    cr_assert_eq(fl_stability_partition(&e->s, short_v, e->r0, 1e-12, &lab, &err), FL_EDIM);
    gsl_vector_free(short_v);
    fl_stability_system bad = e->s;
    bad.mu = -1;
    cr_assert_eq(fl_stability_system_check(&bad, &err), FL_EINVAL);
    bad = e->s;
    bad.n = 3;
    cr_assert_eq(fl_stability_system_check(&bad, &err), FL_EDIM);
    bad = e->s;
    size_t iN0 = 0;   /* prescribed dof as contact dof */
    bad.iN = &iN0;
    cr_assert_eq(fl_stability_system_check(&bad, &err), FL_EINVAL);
    bad = e->s;
    bad.K = NULL;
    cr_assert_eq(fl_stability_system_check(&bad, &err), FL_EINVAL);
    /* stuck particle and every other dof prescribed: S* empty */
    unsigned char allp[4] = {1, 1, 0, 0};
    bad = e->s;
    bad.prescribed = allp;
    fl_stability_label stuck = FL_STAB_PD, wrong = (fl_stability_label)7;
    fl_stability_tangent *t;
    cr_assert_eq(fl_stability_tangent_alloc(&bad, &stuck, e->r0, &t, &err), FL_EINVAL);
    cr_assert_eq(fl_stability_tangent_alloc(&e->s, &wrong, e->r0, &t, &err), FL_EINVAL);
    cr_assert_eq(fl_stability_tangent_alloc(&e->s, &stuck, NULL, &t, &err), FL_EDIM);
    /* singular mass: infinite eigenvalue */
    gsl_matrix *Z = gsl_matrix_calloc(2, 2), *I2 = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(I2);
    double re[4], im[4];
    cr_assert_eq(fl_stability_gen_eig(I2, Z, re, im, NULL, &err), FL_ESINGULAR);
    cr_assert_eq(fl_stability_rayleigh(I2, Z, 0, 0, re, im, &err), FL_ESINGULAR);
    cr_assert_eq(fl_stability_rayleigh(I2, I2, NAN, 0, re, im, &err), FL_ENONFINITE);
    gsl_matrix *R = gsl_matrix_calloc(2, 3);
    cr_assert_eq(fl_stability_gen_eig(R, NULL, re, im, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_stability_rayleigh(R, I2, 0, 0, re, im, &err), FL_EDIM);
    cr_assert_eq(fl_stability_sym_min(R, re, NULL, &err), FL_EDIM);
    int cz[3] = {0, 0, 0};
    cr_assert_eq(fl_stability_cone_min(R, cz, 4, re, NULL, NULL, &err), FL_EDIM);
    gsl_matrix_set(Z, 0, 0, INFINITY);
    cr_assert_eq(fl_stability_sym_min(Z, re, NULL, &err), FL_ENONFINITE);
    cr_assert_eq(fl_stability_analyse(&(fl_stability_tangents){.dense = NULL}, NULL, &(fl_stability_result){0}, &err), FL_EINVAL);
    fl_stability_result_free(NULL);
    fl_stability_tangent_free(NULL);
    gsl_matrix_free(R);
    gsl_matrix_free(Z);
    gsl_matrix_free(I2);
    fl_model_example_3_15_system_free(e);
}

/* ---- Example 3.14 (004 §3.5, 004 Example 3.14): jumps by enumeration vs the
 * closed forms of Cases 1A, 1B, 2A, 2B ------------------------------------- */
Test(stability, example_3_14_jumps_match_closed_forms)
{
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *K = gsl_matrix_alloc(2, 2);
    gsl_matrix *As = gsl_matrix_alloc(2, 4), *Rs = gsl_matrix_alloc(2, 4);
    gsl_vector *u0 = gsl_vector_calloc(2), *r0 = gsl_vector_alloc(2);
    size_t iT = 0, iN = 1;
    const double mMs[] = {0.01, 0.05, 0.2, 1.0}, mus[] = {0.3, 1.0, 2.0}, fr[] = {0.0, 0.3, 0.8, 1.0};
    int n1A = 0, n1B = 0, n2B = 0, nnone = 0;
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 4; c++)
                for (int it = 1; it < 24; it++)
                    for (int ik = 1; ik < 4; ik++) {
                        double mM = mMs[a], mu = mus[b], al = fr[c] * mu, th = it * (FL_PI / 2) / 24;
                        double thK = ik * (FL_PI / 2) / 4, KI = 2.0, KV = 1.0;
                        fl_model_example_3_14_mass(mM, 1.0, th, M);
                        gsl_matrix_set(K, 0, 0, KI * sin(thK) * sin(thK));
                        gsl_matrix_set(K, 0, 1, -KI * sin(thK) * cos(thK));
                        gsl_matrix_set(K, 1, 0, -KI * sin(thK) * cos(thK));
                        gsl_matrix_set(K, 1, 1, KV + KI * cos(thK) * cos(thK));
                        /* K_TT + mu K_NT = K_I sin(thK)(sin(thK) - mu cos(thK)) */
                        cr_assert(fabs(gsl_matrix_get(K, 0, 0) + mu * gsl_matrix_get(K, 1, 0) -
                                       KI * sin(thK) * (sin(thK) - mu * cos(thK))) < 1e-14);
                        gsl_vector_set(r0, 0, al);
                        gsl_vector_set(r0, 1, -1.0);
                        fl_stability_system s = {.n = 2, .K = K, .M = M, .prescribed = NULL, .np = 1,
                                            .iT = &iT, .iN = &iN, .mu = mu};
                        size_t ns;
                        fl_status st = fl_stability_jumps(&s, u0, r0, 1e-12, 4, As, Rs, &ns, NULL);
                        double MTT = gsl_matrix_get(M, 0, 0), MTN = gsl_matrix_get(M, 0, 1);
                        double MNT = MTN, MNN = gsl_matrix_get(M, 1, 1);
                        double det = MTT * MNN - MTN * MNT;
                        cr_assert(fabs(det - mM * (mM + 1.0)) < 1e-14, "det M = m(m+M)");
                        double g = MTT + al * MNT, gm = MTT + mu * MNT;
                        if (fabs(g) < 1e-9 || fabs(gm) < 1e-9) continue;   /* degenerate: below */
                        cr_assert(st == FL_OK);
                        /* expected set: 1A (if alpha < mu and g < 0), 1B/2B (if g < 0) */
                        int want1A = fr[c] < 1.0 && g < 0, wantB = g < 0;
                        cr_assert_eq((int)ns, want1A + wantB, "m/M=%g mu=%g alpha=%g th=%g: %zu solutions",
                                     mM, mu, al, th, ns);
                        for (size_t k = 0; k < ns; k++) {
                            double aT = gsl_matrix_get(As, 0, k), aN = gsl_matrix_get(As, 1, k);
                            double rT = gsl_matrix_get(Rs, 0, k), rN = gsl_matrix_get(Rs, 1, k);
                            if (aN == 0.0 || fabs(aN) < 1e-13) {   /* Case 1A: left slip */
                                cr_assert(want1A);
                                cr_assert(fabs(aT - (mu - al) / gm) < 1e-10 * (1 + fabs(aT)));
                                cr_assert(fabs(rN + g / gm) < 1e-10);
                                cr_assert(fabs(rT + mu * rN) < 1e-10 && aT < 0 && rN < 0);
                                cr_assert(rN > -1.0 && fabs(rT) < al + 1e-12, "both magnitudes decrease");
                                n1A++;
                            } else {                                 /* Case 1B / 2B: no reaction */
                                cr_assert(fabs(aT + (MTN + al * MNN) / det) < 1e-9 * (1 + fabs(aT)));
                                cr_assert(fabs(aN - g / det) < 1e-9 * (1 + fabs(aN)));
                                cr_assert(fabs(rT) < 1e-12 && fabs(rN) < 1e-12);
                                if (fr[c] < 1.0) n1B++; else n2B++;
                            }
                        }
                        nnone += ns == 0;
                    }
    cr_assert(n1A > 20 && n1B > 20 && n2B > 20 && nnone > 20, "%d %d %d %d", n1A, n1B, n2B, nnone);
    /* Fig. 6: M_TT + mu M_NT = 0 at theta_M = (atan mu +- acos((2m/M+1)/sqrt(1+mu^2)))/2
     * (m/M = 0.05, mu = 1: 0.0528937 and 0.7325044): Case 2A is a family of
     * solutions — the enumeration reports the degenerate branch. */
    for (int sg = -1; sg <= 1; sg += 2) {
        double mu = 1.0, mM = 0.05;
        double th = 0.5 * (atan(mu) + sg * acos((2 * mM + 1) / sqrt(1 + mu * mu)));
        cr_assert(fabs(th - (sg < 0 ? 0.0528937 : 0.7325044)) < 1e-7);
        fl_model_example_3_14_mass(mM, 1.0, th, M);
        cr_assert(fabs(gsl_matrix_get(M, 0, 0) + mu * gsl_matrix_get(M, 1, 0)) < 1e-14);
        gsl_vector_set(r0, 0, mu);
        gsl_vector_set(r0, 1, -1.0);
        fl_stability_system s = {.n = 2, .K = K, .M = M, .prescribed = NULL, .np = 1,
                            .iT = &iT, .iN = &iN, .mu = mu};
        size_t ns;
        cr_assert_eq(fl_stability_jumps(&s, u0, r0, 1e-12, 4, As, Rs, &ns, NULL), FL_WDEGENERATE);
    }
    /* no jump from r0 = 0 (004 §3.5): only A = 0 */
    gsl_vector_set_zero(r0);
    fl_stability_system s = {.n = 2, .K = K, .M = M, .prescribed = NULL, .np = 1, .iT = &iT, .iN = &iN, .mu = 0.5};
    fl_model_example_3_14_mass(0.1, 1.0, 0.4, M);
    size_t ns;
    cr_assert_eq(fl_stability_jumps(&s, u0, r0, 1e-12, 4, As, Rs, &ns, NULL), FL_OK);
    cr_assert_eq(ns, 0);
    cr_assert_eq(fl_stability_jumps(&s, u0, r0, 1e-12, 4, NULL, Rs, &ns, NULL), FL_EDIM);
    gsl_matrix_free(M);
    gsl_matrix_free(K);
    gsl_matrix_free(As);
    gsl_matrix_free(Rs);
    gsl_vector_free(u0);
    gsl_vector_free(r0);
}

Test(stability, rate_set_predicates)
{
    /* one particle (T=0, N=1) and a free dof 2; hand-made members / non-members */
    gsl_matrix *I3 = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(I3);
    size_t iT = 0, iN = 1;
    fl_stability_system s = {.n = 3, .K = I3, .M = I3, .prescribed = NULL, .np = 1, .iT = &iT, .iN = &iN, .mu = 0.5};
    gsl_vector *r = gsl_vector_calloc(3), *v = gsl_vector_calloc(3), *w = gsl_vector_calloc(3);
    fl_stability_label l = FL_STAB_PZ;
    /* (35) on P_z, v_T = 0: |w_T| <= -mu w_N */
    gsl_vector_set(w, 1, -2.0);
    gsl_vector_set(w, 0, 0.9);
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 0.0);
    gsl_vector_set(w, 0, 1.1);
    cr_assert(fabs(fl_stability_viol_Krdot(&s, &l, r, v, w) - 0.1) < 1e-15);
    /* v_T > 0: w_T = mu w_N sigma(v_T) = -1 */
    gsl_vector_set(v, 0, 3.0);
    gsl_vector_set(w, 0, -1.0);
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 0.0);
    gsl_vector_set(w, 2, 0.5);   /* free dof: w in V_r fails */
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 0.5);
    gsl_vector_set(w, 2, 0.0);
    l = FL_STAB_PF;              /* free particle: w = 0 */
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 2.0);
    l = FL_STAB_PD;              /* stick: (34) v = 0, (35) unconstrained */
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 0.0);
    cr_assert(fl_stability_viol_Kudot(&s, &l, r, v) == 3.0);
    /* P_s with r_T > 0: v_T sigma(r_T) <= 0 fails for v_T = 3 */
    l = FL_STAB_PS;
    gsl_vector_set(r, 0, 0.5);
    gsl_vector_set(r, 1, -1.0);
    cr_assert(fl_stability_viol_Kudot(&s, &l, r, v) == 3.0);
    gsl_vector_set(v, 0, -3.0);
    cr_assert(fl_stability_viol_Kudot(&s, &l, r, v) == 0.0);
    /* (35) on P_s: w_T + mu w_N <= 0 with complementarity against v_T sigma */
    gsl_vector_set(w, 0, 1.0);   /* 1 + 0.5 (-2) = 0: on the boundary, sliding allowed */
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 0.0);
    gsl_vector_set(w, 0, 0.0);   /* -1 < 0 while sliding: complementarity fails */
    cr_assert(fl_stability_viol_Krdot(&s, &l, r, v, w) == 3.0);
    /* (24)-(25): contact at rest, a_N > 0 is not admissible */
    gsl_vector *u = gsl_vector_calloc(3), *a = gsl_vector_calloc(3), *z = gsl_vector_calloc(3);
    gsl_vector_set(a, 1, 0.25);
    cr_assert(fl_stability_viol_Kuddot(&s, u, z, a) == 0.25);
    gsl_vector_set(u, 1, -1.0);  /* free: r must vanish */
    gsl_vector_set(r, 2, 0.0);
    cr_assert(fl_stability_viol_Kr_uva(&s, u, z, a, r) == 1.0);
    gsl_vector_set(u, 1, 0.0);   /* P_v with v_T < 0: r_T = -mu r_N */
    gsl_vector_set(v, 1, 0.0);
    gsl_vector_set(a, 1, 0.0);
    cr_assert(fl_stability_viol_Kr_uva(&s, u, v, a, r) == 0.0);
    gsl_vector_set(v, 0, 1.0);
    cr_assert(fabs(fl_stability_viol_Kr_uva(&s, u, v, a, r) - 1.0) < 1e-15);
    gsl_vector_free(u);
    gsl_vector_free(a);
    gsl_vector_free(z);
    gsl_vector_free(r);
    gsl_vector_free(v);
    gsl_vector_free(w);
    gsl_matrix_free(I3);
}

/* ---- Lemmas 2.6 and 2.7 (004 §2.2-2.3, 004 Lemmas 2.6, 2.7, 2.9): the variational
 * inequality holds exactly for the members of the set it characterises ---- */
static double pick(gsl_rng *g, double scale)
{   /* zero with probability 0.3, else Gaussian */
    return gsl_rng_uniform(g) < 0.3 ? 0.0 : scale * (2 * gsl_rng_uniform(g) - 1);
}

/* Rates per contact particle: V in K_u'(u, r) (34) and W in K_r'(u, r, V)
 * (35), drawn by label (004 §2.3). */
static void draw_particle_rates(const rsys *x, gsl_rng *g, gsl_vector *V, gsl_vector *W)
{
    double mu = x->s.mu;
    for (size_t p = 0; p < x->np; p++) {
        size_t iT = x->iT[p], iN = x->iN[p];
        double sr = (gsl_vector_get(x->r, iT) > 0) - (gsl_vector_get(x->r, iT) < 0);
        switch (x->lab[p]) {
        case FL_STAB_PF: gsl_vector_set(V, iT, pick(g, 1)); gsl_vector_set(V, iN, pick(g, 1)); break;
        case FL_STAB_PZ: {
            gsl_vector_set(V, iN, -fabs(pick(g, 1)));
            gsl_vector_set(V, iT, pick(g, 1));
            double wN = gsl_vector_get(V, iN) < 0 ? 0.0 : -fabs(pick(g, 1));
            double vT = gsl_vector_get(V, iT);
            double wT = vT != 0 ? mu * wN * (vT > 0 ? 1 : -1) : -mu * wN * (2 * gsl_rng_uniform(g) - 1);
            gsl_vector_set(W, iN, wN);
            gsl_vector_set(W, iT, wT);
            break;
        }
        case FL_STAB_PD:
            gsl_vector_set(W, iT, pick(g, 1));
            gsl_vector_set(W, iN, pick(g, 1));
            break;
        case FL_STAB_PS: {
            gsl_vector_set(V, iT, -sr * fabs(pick(g, 1)));
            double wN = pick(g, 1), gg = gsl_vector_get(V, iT) != 0 ? 0.0 : -fabs(pick(g, 1));
            gsl_vector_set(W, iN, wN);
            gsl_vector_set(W, iT, sr * (gg - mu * wN));
            break;
        }
        }
    }
}

/* The verdicts shared by the VI-membership tests (Lemmas 2.6, 2.7, 2.9):
 * no sampled test vector goes below the exact infimum; members never reach
 * a negative value; sampling exhibits the failure for >= 80% of the
 * non-members. */
typedef struct vi_tally {
    long members, others, found;
} vi_tally;

static double vi_sample(double val, double inf, double vmin)
{
    cr_assert(val >= inf - 1e-9, "sample %g below infimum %g %s", val, inf, fl_test_seed_note());
    return fmin(vmin, val);
}

static void vi_count(vi_tally *t, int member, double vmin)
{
    if (member) {
        t->members++;
        cr_assert(vmin >= -1e-9, "%s", fl_test_seed_note());
    } else {
        t->others++;
        t->found += vmin < 0;
    }
}

static void vi_verdict(const vi_tally *t)
{
    cr_assert(t->members > 100 && t->others > 50, "%ld %ld %s", t->members, t->others, fl_test_seed_note());
    cr_assert(t->found >= 0.8 * t->others, "sampling exhibits the failure for %ld of %ld non-members %s", t->found,
              t->others, fl_test_seed_note());
}

Test(stability, lemma_2_7_vi_iff_member)
{
    gsl_rng *g = fl_test_rng(2007);
    vi_tally tally = {0, 0, 0};
    for (int trial = 0; trial < 400; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(g, 3), n = 2 * np + gsl_rng_uniform_int(g, 3);
        rsys x;
        rsys_init(&x, g, n, np);
        gsl_vector *V = gsl_vector_calloc(n), *W = gsl_vector_calloc(n), *v = gsl_vector_calloc(n);
        for (size_t i = 2 * np; i < n; i++)
            if (!x.pres[i]) { gsl_vector_set(V, i, pick(g, 1)); }
            else gsl_vector_set(W, i, pick(g, 1));
        draw_particle_rates(&x, g, V, W);
        cr_assert(fl_stability_viol_Kudot(&x.s, x.lab, x.r, V) == 0.0, "%s", fl_test_seed_note());
        int perturb = gsl_rng_uniform(g) < 0.5;
        if (perturb) {
            size_t i = gsl_rng_uniform_int(g, n);
            gsl_vector_set(W, i, gsl_vector_get(W, i) + (gsl_rng_uniform(g) < 0.5 ? -0.3 : 0.3));
        }
        int member = fl_stability_viol_Krdot(&x.s, x.lab, x.r, V, W) <= 1e-12;
        double inf = fl_stability_vi27_inf(&x.s, x.lab, x.r, V, W);
        cr_assert_eq(member, inf >= -1e-12, "trial %d: member %d, VI infimum %g %s", trial, member, inf,
                     fl_test_seed_note());
        if (!perturb) cr_assert(member, "constructed inside (35) %s", fl_test_seed_note());
        /* sampled test vectors v in K_u'(U, R): never below the infimum */
        double vmin = INFINITY;
        for (int q = 0; q < 200; q++) {
            gsl_vector_set_zero(v);
            for (size_t i = 2 * np; i < n; i++) if (!x.pres[i]) gsl_vector_set(v, i, pick(g, 10));
            for (size_t p = 0; p < np; p++) {
                size_t iT = x.iT[p], iN = x.iN[p];
                double sr = (gsl_vector_get(x.r, iT) > 0) - (gsl_vector_get(x.r, iT) < 0);
                if (x.lab[p] == FL_STAB_PF) { gsl_vector_set(v, iT, pick(g, 10)); gsl_vector_set(v, iN, pick(g, 10)); }
                if (x.lab[p] == FL_STAB_PZ) { gsl_vector_set(v, iT, pick(g, 10)); gsl_vector_set(v, iN, -fabs(pick(g, 10))); }
                if (x.lab[p] == FL_STAB_PS) gsl_vector_set(v, iT, -sr * fabs(pick(g, 10)));
            }
            double val = fl_stability_vi27_value(&x.s, x.lab, V, W, v);
            vmin = vi_sample(val, inf, vmin);
        }
        vi_count(&tally, member, vmin);
        gsl_vector_free(V);
        gsl_vector_free(W);
        gsl_vector_free(v);
        rsys_free(&x);
    }
    vi_verdict(&tally);
    gsl_rng_free(g);
}

Test(stability, lemma_2_6_vi_iff_member)
{
    gsl_rng *g = fl_test_rng(2006);
    vi_tally tally = {0, 0, 0};
    for (int trial = 0; trial < 400; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(g, 3), n = 2 * np + gsl_rng_uniform_int(g, 3);
        rsys x;
        rsys_init(&x, g, n, np);
        double mu = x.s.mu;
        gsl_vector *U = x.u, *V = gsl_vector_calloc(n), *A = gsl_vector_calloc(n);
        gsl_vector *R = gsl_vector_calloc(n), *a = gsl_vector_calloc(n);
        for (size_t i = 2 * np; i < n; i++)
            if (!x.pres[i]) { gsl_vector_set(V, i, pick(g, 1)); gsl_vector_set(A, i, pick(g, 1)); }
            else gsl_vector_set(R, i, pick(g, 1));
        int *kind = malloc(np * sizeof *kind);   /* 0: P_f or P_cf, 1: P_0, 2: P_v */
        for (size_t p = 0; p < np; p++) {
            size_t iT = x.iT[p], iN = x.iN[p];
            int k = x.lab[p] == FL_STAB_PF ? 0 : (int)gsl_rng_uniform_int(g, 3);
            kind[p] = k;
            gsl_vector_set(V, iT, pick(g, 1));
            gsl_vector_set(A, iT, pick(g, 1));
            gsl_vector_set(A, iN, pick(g, 1));
            if (k == 0) {
                if (x.lab[p] != FL_STAB_PF) gsl_vector_set(V, iN, -0.5 - gsl_rng_uniform(g));   /* P_cf */
                else gsl_vector_set(V, iN, pick(g, 1));
                continue;
            }
            if (k == 1) gsl_vector_set(V, iT, 0.0);
            if (k == 2 && gsl_vector_get(V, iT) == 0.0) gsl_vector_set(V, iT, 0.7);
            gsl_vector_set(A, iN, -fabs(gsl_vector_get(A, iN)));
            double RN = gsl_vector_get(A, iN) < 0 ? 0.0 : -fabs(pick(g, 1));
            double RT;
            double vT = gsl_vector_get(V, iT), aT = gsl_vector_get(A, iT);
            if (k == 2) RT = mu * RN * (vT > 0 ? 1 : -1);
            else if (aT != 0) RT = mu * RN * (aT > 0 ? 1 : -1);
            else RT = -mu * RN * (2 * gsl_rng_uniform(g) - 1);
            gsl_vector_set(R, iN, RN);
            gsl_vector_set(R, iT, RT);
        }
        gsl_vector *z = gsl_vector_calloc(n);
        cr_assert(fl_stability_viol_Kuddot(&x.s, U, V, A) == 0.0, "%s", fl_test_seed_note());
        int perturb = gsl_rng_uniform(g) < 0.5;
        if (perturb) {
            size_t i = gsl_rng_uniform_int(g, n);
            gsl_vector_set(R, i, gsl_vector_get(R, i) + (gsl_rng_uniform(g) < 0.5 ? -0.3 : 0.3));
        }
        int member = fl_stability_viol_Kr_uva(&x.s, U, V, A, R) <= 1e-12;
        double inf = fl_stability_vi26_inf(&x.s, U, V, A, R);
        cr_assert_eq(member, inf >= -1e-12, "trial %d: member %d, VI infimum %g %s", trial, member, inf,
                     fl_test_seed_note());
        if (!perturb) cr_assert(member, "constructed inside (25) %s", fl_test_seed_note());
        double vmin = INFINITY;
        for (int q = 0; q < 200; q++) {
            gsl_vector_set_zero(a);
            for (size_t i = 0; i < n; i++) if (!x.pres[i]) gsl_vector_set(a, i, pick(g, 10));
            for (size_t p = 0; p < np; p++)
                if (kind[p] != 0) gsl_vector_set(a, x.iN[p], -fabs(gsl_vector_get(a, x.iN[p])));
            cr_assert(fl_stability_viol_Kuddot(&x.s, U, V, a) == 0.0);
            double val = fl_stability_vi26_value(&x.s, U, V, A, R, a);
            vmin = vi_sample(val, inf, vmin);
        }
        vi_count(&tally, member, vmin);
        free(kind);
        gsl_vector_free(z);
        gsl_vector_free(V);
        gsl_vector_free(A);
        gsl_vector_free(R);
        gsl_vector_free(a);
        rsys_free(&x);
    }
    vi_verdict(&tally);
    gsl_rng_free(g);
}

/* ---- Proposition 3.1 (004 §3.1, 004 Propositions 3.1–3.5): from rest (u'- = 0, pure
 * impact, w = 0) the Moreau-Jean rule gives u'+ = 0 and a zero impulse ---- */
#include "fl_problem.h"
#include "drivers/moreau_jean.h"

Test(stability, proposition_3_1_no_velocity_jump_from_rest)
{
    gsl_rng *g = fl_test_rng(3001);
    for (int trial = 0; trial < 100; trial++) {
        size_t nc = 1 + gsl_rng_uniform_int(g, 4), n = 2 * nc + gsl_rng_uniform_int(g, 4);
        fl_global_problem *p;
        cr_assert_eq(fl_global_problem_random(g, n, nc, 2, 0.01, 10.0, &p, NULL), FL_OK);
        gsl_vector *um = gsl_vector_calloc(n), *up = gsl_vector_alloc(n), *s = gsl_vector_alloc(2 * nc);
        gsl_vector_set_zero(p->f);   /* pure impact: f = M u- = 0 */
        double deltas[3] = {0.0, 0.5, 1.0};
        for (int k = 0; k < 3; k++) {
            fl_moreau_jean_options o = fl_moreau_jean_options_default();
            o.delta = deltas[k];
            gsl_vector_set_all(s, 0.0);
            fl_moreau_jean_result r;
            cr_assert(fl_moreau_jean_step(p, um, &o, NULL, s, up, &r, NULL) >= 0, "%s", fl_test_seed_note());
            cr_assert(gsl_vector_max(up) == 0.0 && gsl_vector_min(up) == 0.0, "u+ != 0 %s", fl_test_seed_note());
            cr_assert(gsl_vector_max(s) == 0.0 && gsl_vector_min(s) == 0.0, "I != 0 %s", fl_test_seed_note());
            cr_assert(r.dT == 0.0);
        }
        gsl_vector_free(um);
        gsl_vector_free(up);
        gsl_vector_free(s);
        fl_global_problem_free(p);
    }
    gsl_rng_free(g);
}

/* ---- Lemma 2.8 (004 §2.3, 004 Lemma 2.8): a straight quasistatic path
 * u0(t) = u0 + V (t - tau), r0(t) = r0 + W (t - tau) with K V = f' + W,
 * V in K_u'(u0, r0) (34), W in K_r'(u0, r0, V) (35) stays an equilibrium
 * (30) for t - tau < Delta0 (the first crossing time of the listed strict
 * inequalities), and generically leaves it just after. ---- */
Test(stability, lemma_2_8_straight_paths)
{
    gsl_rng *g = fl_test_rng(2008);
    int tested = 0, left_after = 0;
    for (int trial = 0; trial < 300; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(g, 3), n = 2 * np + gsl_rng_uniform_int(g, 3);
        rsys x;
        rsys_init(&x, g, n, np);
        double mu = x.s.mu;
        /* rates: V in (34), W in (35) built per particle, then f' = K V - W */
        gsl_vector *V = gsl_vector_calloc(n), *W = gsl_vector_calloc(n), *fd = gsl_vector_alloc(n);
        for (size_t i = 2 * np; i < n; i++) if (!x.pres[i]) gsl_vector_set(V, i, pick(g, 1));
        for (size_t i = 0; i < n; i++) if (x.pres[i]) gsl_vector_set(W, i, pick(g, 1));
        draw_particle_rates(&x, g, V, W);
        cr_assert(fl_stability_viol_Kudot(&x.s, x.lab, x.r, V) == 0.0 && fl_stability_viol_Krdot(&x.s, x.lab, x.r, V, W) <= 1e-14);
        gsl_blas_dgemv(CblasNoTrans, 1.0, x.K, V, 0.0, fd);
        gsl_vector_sub(fd, W);   /* (40): K V = f' + W */
        /* Delta0: first crossing of u_N < 0 (P_f), r_N < 0 and |r_T| < -mu r_N (P_d),
         * r_N < 0 (P_s), |r_T| < -mu r_N on P_s with V = 0 and W_T s + mu W_N < 0 */
        double D0 = INFINITY;
        for (size_t p = 0; p < np; p++) {
            size_t iT = x.iT[p], iN = x.iN[p];
            double uN = gsl_vector_get(x.u, iN), rN = gsl_vector_get(x.r, iN), rT = gsl_vector_get(x.r, iT);
            double VN = gsl_vector_get(V, iN), VT = gsl_vector_get(V, iT);
            double WN = gsl_vector_get(W, iN), WT = gsl_vector_get(W, iT);
            if (x.lab[p] == FL_STAB_PF && VN > 0) D0 = fmin(D0, -uN / VN);
            if (x.lab[p] == FL_STAB_PD || x.lab[p] == FL_STAB_PS)
                if (WN > 0) D0 = fmin(D0, -rN / WN);
            if (x.lab[p] == FL_STAB_PD) {   /* -mu r_N - |r_T| > 0, two linear pieces */
                double c0 = -mu * rN, c1 = -mu * WN;
                if (WT - c1 > 0) D0 = fmin(D0, (c0 - rT) / (WT - c1));
                if (-WT - c1 > 0) D0 = fmin(D0, (c0 + rT) / (-WT - c1));
            }
            if (x.lab[p] == FL_STAB_PS && VT == 0.0 && VN == 0.0) {
                /* the side s r_T <= -mu r_N holds (its rate W_T s + mu W_N <= 0 by (35));
                 * the opposite side -s r_T <= -mu r_N starts at slack 2|r_T| */
                double sr = rT > 0 ? 1 : -1, rate = mu * WN - sr * WT;
                if (rate > 0) D0 = fmin(D0, 2 * fabs(rT) / rate);
            }
        }
        if (!isfinite(D0)) D0 = 1.0;
        /* at theta Delta0: the path is an equilibrium (30) */
        gsl_vector *u = gsl_vector_alloc(n), *r = gsl_vector_alloc(n), *res = gsl_vector_alloc(n);
        double thetas[3] = {0.1, 0.5, 0.99};
        for (int q = 0; q < 3; q++) {
            double t = thetas[q] * D0;
            gsl_vector_memcpy(u, x.u);
            gsl_blas_daxpy(t, V, u);
            gsl_vector_memcpy(r, x.r);
            gsl_blas_daxpy(t, W, r);
            /* K u(t) - f(t) - r(t) = [K u0 - f0 - r0] + t (K V - f' - W) = t * 0 */
            gsl_blas_dgemv(CblasNoTrans, 1.0, x.K, V, 0.0, res);
            gsl_vector_sub(res, fd);
            gsl_vector_sub(res, W);
            cr_assert(gsl_blas_dnrm2(res) < 1e-10, "(40) %s", fl_test_seed_note());
            fl_stability_label *l2 = malloc(np * sizeof *l2);
            fl_error e2;
            fl_status st = fl_stability_partition(&x.s, u, r, 1e-9, l2, &e2);
            cr_assert_eq(st, FL_OK, "theta=%g D0=%g: (u, r)(t) leaves K_u x K_r(u): %s %s", thetas[q], D0, e2.message, fl_test_seed_note());
            free(l2);
        }
        /* just after Delta0 some predicate generically fails */
        if (D0 != 1.0) {
            gsl_vector_memcpy(u, x.u);
            gsl_blas_daxpy(1.01 * D0, V, u);
            gsl_vector_memcpy(r, x.r);
            gsl_blas_daxpy(1.01 * D0, W, r);
            fl_stability_label *l2 = malloc(np * sizeof *l2);
            fl_status st = fl_stability_partition(&x.s, u, r, 1e-12, l2, NULL);
            int changed = st != FL_OK;
            for (size_t p = 0; st == FL_OK && p < np; p++) changed |= l2[p] != x.lab[p];
            left_after += changed;
            free(l2);
        }
        tested++;
        gsl_vector_free(u);
        gsl_vector_free(r);
        gsl_vector_free(res);
        gsl_vector_free(V);
        gsl_vector_free(W);
        gsl_vector_free(fd);
        rsys_free(&x);
    }
    cr_assert(tested == 300 && left_after > 50, "%d %d %s", tested, left_after, fl_test_seed_note());
    gsl_rng_free(g);
}

/* ---- Lemma 2.9 (004 §2.3, (42)-(45)): second-order sets ---------------- */
Test(stability, lemma_2_9_vi_iff_member)
{
    gsl_rng *g = fl_test_rng(2009);
    vi_tally tally = {0, 0, 0};
    long seen[9] = {0};
    for (int trial = 0; trial < 500; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(g, 3), n = 2 * np + gsl_rng_uniform_int(g, 3);
        rsys x;
        rsys_init(&x, g, n, np);
        double mu = x.s.mu;
        gsl_vector *V = gsl_vector_calloc(n), *W = gsl_vector_calloc(n), *A = gsl_vector_calloc(n);
        gsl_vector *B = gsl_vector_calloc(n), *a = gsl_vector_calloc(n);
        for (size_t i = 2 * np; i < n; i++)
            if (!x.pres[i]) { gsl_vector_set(V, i, pick(g, 1)); gsl_vector_set(A, i, pick(g, 1)); }
            else gsl_vector_set(B, i, pick(g, 1));
        for (size_t p = 0; p < np; p++) {
            size_t iT = x.iT[p], iN = x.iN[p];
            double sr = (gsl_vector_get(x.r, iT) > 0) - (gsl_vector_get(x.r, iT) < 0);
            double u1 = 0.5 + gsl_rng_uniform(g), u2 = 0.5 + gsl_rng_uniform(g);
            int k = (int)gsl_rng_uniform_int(g, 5);
            switch (x.lab[p]) {
            case FL_STAB_PF: gsl_vector_set(V, iT, pick(g, 1)); gsl_vector_set(V, iN, pick(g, 1)); break;
            case FL_STAB_PD: gsl_vector_set(W, iT, pick(g, 1)); gsl_vector_set(W, iN, pick(g, 1)); break;
            case FL_STAB_PZ:
                if (k == 0) gsl_vector_set(V, iN, -u1);                                  /* zf */
                else if (k == 1) gsl_vector_set(V, iT, pick(g, 1));                      /* zz */
                else if (k == 2) { gsl_vector_set(W, iN, -u1); gsl_vector_set(W, iT, 0.5 * mu * u1 * (2 * gsl_rng_uniform(g) - 1)); } /* zd */
                else if (k == 3) { gsl_vector_set(V, iT, u2 * (gsl_rng_uniform(g) < 0.5 ? 1 : -1)); gsl_vector_set(W, iN, -u1);
                                   gsl_vector_set(W, iT, -mu * u1 * (gsl_vector_get(V, iT) > 0 ? 1 : -1)); }           /* zs n P_v */
                else { gsl_vector_set(W, iN, -u1); gsl_vector_set(W, iT, mu * u1 * (gsl_rng_uniform(g) < 0.5 ? 1 : -1)); } /* zs n P_0 */
                break;
            case FL_STAB_PS: {
                double wN = pick(g, 1);
                gsl_vector_set(W, iN, wN);
                if (k <= 1) gsl_vector_set(W, iT, sr * (-u1 - mu * wN));                  /* sd */
                else {
                    gsl_vector_set(W, iT, -sr * mu * wN);                                   /* ss: g = 0 */
                    if (k >= 3) gsl_vector_set(V, iT, -sr * u2);
                }
                break;
            }
            }
        }
        /* A in (42) and B in (43), per sub-label */
        for (size_t p = 0; p < np; p++) {
            size_t iT = x.iT[p], iN = x.iN[p];
            fl_stability_label2 l = fl_stability_label2_of(&x.s, x.lab[p], p, x.r, V, W);
            cr_assert(l != FL_STAB2_NONE, "constructed state has a sub-label %s", fl_test_seed_note());
            seen[l]++;
            double VT = gsl_vector_get(V, iT);
            double sr = (gsl_vector_get(x.r, iT) > 0) - (gsl_vector_get(x.r, iT) < 0);
            double sw = (gsl_vector_get(W, iT) > 0) - (gsl_vector_get(W, iT) < 0);
            double aT = pick(g, 1), aN = pick(g, 1), BN = pick(g, 1), BT = pick(g, 1);
            switch (l) {
            case FL_STAB2_F: case FL_STAB2_ZF: BT = BN = 0; break;
            case FL_STAB2_D: case FL_STAB2_SD: case FL_STAB2_ZD: aT = aN = 0; break;
            case FL_STAB2_ZZ:
                aN = -fabs(aN);
                BN = aN < 0 ? 0.0 : -fabs(BN);
                if (VT != 0) BT = mu * BN * (VT > 0 ? 1 : -1);
                else if (aT != 0) BT = mu * BN * (aT > 0 ? 1 : -1);
                else BT = -mu * BN * (2 * gsl_rng_uniform(g) - 1);
                break;
            case FL_STAB2_ZS: case FL_STAB2_SS: {
                aN = 0;
                if (VT != 0) { BT = mu * BN * (VT > 0 ? 1 : -1); break; }
                double sg = l == FL_STAB2_SS ? sr : sw;
                aT = -sg * fabs(aT);
                double gg = aT != 0 ? 0.0 : -fabs(pick(g, 1));
                BT = sg * (gg - mu * BN);
                break;
            }
            default: break;
            }
            gsl_vector_set(A, iT, aT);
            gsl_vector_set(A, iN, aN);
            gsl_vector_set(B, iT, BT);
            gsl_vector_set(B, iN, BN);
        }
        cr_assert(fl_stability_viol_Kuddot2(&x.s, x.lab, x.r, V, W, A) == 0.0, "%s", fl_test_seed_note());
        int perturb = gsl_rng_uniform(g) < 0.5;
        if (perturb) {
            size_t i = gsl_rng_uniform_int(g, n);
            gsl_vector_set(B, i, gsl_vector_get(B, i) + (gsl_rng_uniform(g) < 0.5 ? -0.3 : 0.3));
        }
        int member = fl_stability_viol_Krddot(&x.s, x.lab, x.r, V, W, A, B) <= 1e-12;
        double inf = fl_stability_vi29_inf(&x.s, x.lab, x.r, V, W, A, B);
        cr_assert_eq(member, inf >= -1e-12, "trial %d: member %d, VI infimum %g %s", trial, member, inf,
                     fl_test_seed_note());
        if (!perturb) cr_assert(member, "constructed inside (43) %s", fl_test_seed_note());
        double vmin = INFINITY;
        for (int q = 0; q < 200; q++) {
            gsl_vector_set_zero(a);
            for (size_t i = 2 * np; i < n; i++) if (!x.pres[i]) gsl_vector_set(a, i, pick(g, 10));
            for (size_t p = 0; p < np; p++) {
                size_t iT = x.iT[p], iN = x.iN[p];
                fl_stability_label2 l = fl_stability_label2_of(&x.s, x.lab[p], p, x.r, V, W);
                double VT = gsl_vector_get(V, iT), aT = pick(g, 10), aN = pick(g, 10);
                double sr = (gsl_vector_get(x.r, iT) > 0) - (gsl_vector_get(x.r, iT) < 0);
                double sw = (gsl_vector_get(W, iT) > 0) - (gsl_vector_get(W, iT) < 0);
                if (l == FL_STAB2_D || l == FL_STAB2_SD || l == FL_STAB2_ZD) aT = aN = 0;
                if (l == FL_STAB2_ZZ) aN = -fabs(aN);
                if (l == FL_STAB2_ZS || l == FL_STAB2_SS) {
                    aN = 0;
                    if (VT == 0) aT = -(l == FL_STAB2_SS ? sr : sw) * fabs(aT);
                }
                gsl_vector_set(a, iT, aT);
                gsl_vector_set(a, iN, aN);
            }
            cr_assert(fl_stability_viol_Kuddot2(&x.s, x.lab, x.r, V, W, a) == 0.0);
            double val = fl_stability_vi29_value(&x.s, x.lab, x.r, V, W, A, B, a);
            vmin = vi_sample(val, inf, vmin);
        }
        vi_count(&tally, member, vmin);
        gsl_vector_free(V);
        gsl_vector_free(W);
        gsl_vector_free(A);
        gsl_vector_free(B);
        gsl_vector_free(a);
        rsys_free(&x);
    }
    for (int l = 0; l < 8; l++) cr_assert(seen[l] > 10, "sub-label %d seen %ld times %s", l, seen[l], fl_test_seed_note());
    vi_verdict(&tally);
    gsl_rng_free(g);
}

/* fl_stability_damped_flutter_mode on hand-made root lists (modes = roots with
 * Im > 0 in increasing Im; a flutter pair takes the lower number). */
Test(stability, damped_flutter_mode_numbering)
{
    /* modes at Im 1, (2, 2) undamped pair +-0.3 + 2i, 3; conjugates included */
    double re1[] = {-0.1, -0.1, -0.3, 0.3, -0.3, 0.3, -0.1, -0.1};
    double im1[] = {-1, 1, -2, -2, 2, 2, -3, 3};
    double g;
    cr_assert_eq(fl_stability_damped_flutter_mode(8, re1, im1, 1e-9, &g), 2);
    cr_assert_float_eq(g, 0.3, 1e-15);
    /* damped pair: partner below (-0.5 + 1.99i), growing above (0.1 + 2.01i) */
    double re2[] = {-0.1, -0.5, 0.1, -0.1}, im2[] = {1, 1.99, 2.01, 3};
    cr_assert_eq(fl_stability_damped_flutter_mode(4, re2, im2, 1e-9, NULL), 2);
    /* growing below its partner */
    double re3[] = {-0.1, 0.1, -0.5, -0.1}, im3[] = {1, 1.99, 2.01, 3};
    cr_assert_eq(fl_stability_damped_flutter_mode(4, re3, im3, 1e-9, NULL), 2);
    /* growing but not oscillating (real root), and all decaying: none */
    double re4[] = {0.5, -0.1, -0.1}, im4[] = {0, 1, -1};
    cr_assert_eq(fl_stability_damped_flutter_mode(3, re4, im4, 1e-9, NULL), 0);
    /* two growing pairs: the lower wins */
    double re5[] = {-0.2, 0.2, -0.2, 0.2}, im5[] = {4, 4, 7, 7};
    cr_assert_eq(fl_stability_damped_flutter_mode(4, re5, im5, 1e-9, NULL), 1);
}
