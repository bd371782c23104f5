/* test_quasistatic_sparse.c — optimized/quasistatic_sparse.c (004 §5.3
 * (115)-(117) with K in CSC): the same increments as the dense reference
 * (reference/quasistatic.c) on random systems with prescribed dofs, over
 * several consecutive increments (the memory u^k); the incremental Coulomb
 * conditions checked directly on the sparse result; a closed form (a
 * particle dragged through a chain of two springs: stick, slip both ways,
 * lift-off); rows of a nonsymmetric K in unsymmetric storage; bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_randist.h>

#include "testkit/fl_random.h"
#include "optimized/quasistatic_sparse.h"

static double max_abs(const gsl_vector *a)
{
    double m = 0.0;
    for (size_t i = 0; i < a->size; i++) m = fmax(m, fabs(gsl_vector_get(a, i)));
    return m;
}

/* max |a - b| / max(1, |a|_inf) */
static double rel_diff(const gsl_vector *a, const gsl_vector *b)
{
    double d = 0.0;
    for (size_t i = 0; i < a->size; i++) d = fmax(d, fabs(gsl_vector_get(a, i) - gsl_vector_get(b, i)));
    return d / fmax(1.0, max_abs(a));
}

typedef struct outcome { int stick, slip, open; } outcome;

/* The incremental Coulomb law in 004's signs, checked on (u, r = K u - f, g)
 * independently of how they were computed: equilibrium r_i = 0 on the free
 * dofs; per particle u_N <= 0, r_N <= 0, r_N u_N = 0, |r_T| <= mu |r_N|,
 * and when the particle slides (u_T != u^k_T) r_T = -mu |r_N| sgn(u_T - u^k_T)
 * (= mu r_N sgn(du_T): the friction force opposes the increment of slip);
 * g = mu |r_N| (117).  tol scales with the loads. */
static void check_coulomb(const fl_stability_system_sparse *s, const gsl_vector *uk, const gsl_vector *u,
                          const gsl_vector *r, const gsl_vector *g, double tol, outcome *oc)
{
    unsigned char *contact = calloc(s->n, 1);
    for (size_t p = 0; p < s->np; p++) contact[s->iT[p]] = contact[s->iN[p]] = 1;
    for (size_t i = 0; i < s->n; i++)
        if (!contact[i] && !(s->prescribed && s->prescribed[i]))
            cr_assert(fabs(gsl_vector_get(r, i)) <= tol, "free dof %zu not in equilibrium: r = %g %s", i,
                      gsl_vector_get(r, i), fl_test_seed_note());
    free(contact);
    for (size_t p = 0; p < s->np; p++) {
        double uN = gsl_vector_get(u, s->iN[p]), rN = gsl_vector_get(r, s->iN[p]);
        double rT = gsl_vector_get(r, s->iT[p]);
        double du = gsl_vector_get(u, s->iT[p]) - gsl_vector_get(uk, s->iT[p]);
        cr_assert(uN <= 1e-12, "u_N = %g > 0 %s", uN, fl_test_seed_note());
        cr_assert(rN <= tol, "r_N = %g > 0 %s", rN, fl_test_seed_note());
        cr_assert(fabs(rN * uN) <= tol, "r_N u_N = %g %s", rN * uN, fl_test_seed_note());
        cr_assert(fabs(rT) <= s->mu * fabs(rN) + tol, "cone: |r_T| = %g > mu |r_N| = %g %s", fabs(rT),
                  s->mu * fabs(rN), fl_test_seed_note());
        if (fabs(du) > 1e-9) {
            cr_assert(fabs(rT + s->mu * fabs(rN) * (du > 0 ? 1.0 : -1.0)) <= 10 * tol,
                      "slip rule: r_T = %g, du_T = %g, mu r_N = %g %s", rT, du, s->mu * rN, fl_test_seed_note());
            if (rN < -tol) oc->slip++;
        } else if (rN < -tol) {
            oc->stick++;
        }
        if (uN < -1e-9) oc->open++;
        cr_assert(fabs(gsl_vector_get(g, p) - s->mu * fabs(rN)) <= tol, "(117) g = mu |r_N| %s", fl_test_seed_note());
    }
}

Test(quasistatic_sparse, matches_the_dense_reference_over_increments)
{
    gsl_rng *rg = fl_test_rng(8115);
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    outcome oc = {0, 0, 0};
    double worst = 0.0;
    for (int trial = 0; trial < 60; trial++) {
        size_t np = 1 + gsl_rng_uniform_int(rg, 4), nx = 2 + gsl_rng_uniform_int(rg, 12), n = 2 * np + nx;
        /* K: dense random SPD (upper storage), sparse random SPD (upper
         * storage), or the latter in unsymmetric storage (both triangles) */
        int kind = trial % 3;
        gsl_matrix *Kd = NULL;
        cholmod_sparse *Ks = NULL;
        if (kind == 0) {
            Kd = gsl_matrix_alloc(n, n);
            /* mild coupling: the g fixed point contracts for small mu */
            cr_assert_eq(fl_random_spd(rg, 5.0, 1.0, Kd), FL_OK);
            cr_assert_eq(fl_sparse_from_dense(&ctx, Kd, 1, 0.0, &Ks, NULL), FL_OK);
        } else {
            Ks = fl_random_sparse_spd(rg, &ctx, n, 3, 5.0);
            cr_assert(Ks);
            cr_assert_eq(fl_sparse_to_dense(&ctx, Ks, &Kd, NULL), FL_OK);
            if (kind == 2) {
                cholmod_sparse *Ku = cholmod_copy(Ks, 0, 1, &ctx.cm);
                cr_assert(Ku && Ku->stype == 0);
                cholmod_free_sparse(&Ks, &ctx.cm);
                Ks = Ku;
            }
        }
        /* dofs in random order: the first 2 np are the contact dofs, then
         * one or two prescribed, the rest free */
        size_t *perm = malloc(n * sizeof *perm);
        for (size_t i = 0; i < n; i++) perm[i] = i;
        gsl_ran_shuffle(rg, perm, n, sizeof *perm);
        size_t *iT = malloc(np * sizeof *iT), *iN = malloc(np * sizeof *iN);
        unsigned char *pres = calloc(n, 1);
        for (size_t p = 0; p < np; p++) { iT[p] = perm[2 * p]; iN[p] = perm[2 * p + 1]; }
        size_t npres = 1 + gsl_rng_uniform_int(rg, 2);
        for (size_t k = 0; k < npres; k++) pres[perm[2 * np + k]] = 1;
        double mu = 0.05 + 0.25 * gsl_rng_uniform(rg);
        fl_stability_system sd = {.n = n, .K = Kd, .M = Kd, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        fl_stability_system_sparse ss = {.n = n, .K = Ks, .M = NULL, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        gsl_vector *f = gsl_vector_calloc(n);
        gsl_vector *ud = gsl_vector_calloc(n), *ukd = gsl_vector_alloc(n), *gd = gsl_vector_calloc(np), *rd = gsl_vector_alloc(n);
        gsl_vector *us = gsl_vector_calloc(n), *uks = gsl_vector_alloc(n), *gs = gsl_vector_calloc(np), *rs = gsl_vector_alloc(n);
        for (size_t i = 0; i < n; i++)
            if (pres[i]) gsl_vector_set(ud, i, 0.1 * gsl_ran_gaussian(rg, 1.0));
        gsl_vector_memcpy(us, ud);
        for (size_t p = 0; p < np; p++) gsl_vector_set(f, iN[p], 0.8);   /* pressed at the start */
        for (int inc = 0; inc < 5; inc++) {
            /* f^{k+1} = f^k + random increment; now and then pull a particle off */
            for (size_t i = 0; i < n; i++) gsl_vector_set(f, i, gsl_vector_get(f, i) + 0.5 * gsl_ran_gaussian(rg, 1.0));
            if (gsl_rng_uniform(rg) < 0.25) {
                size_t p = gsl_rng_uniform_int(rg, np);
                gsl_vector_set(f, iN[p], -fabs(gsl_vector_get(f, iN[p])) - 0.5);
            }
            gsl_vector_memcpy(ukd, ud);
            gsl_vector_memcpy(uks, us);
            fl_quasistatic_result resd, ress;
            fl_status a = fl_quasistatic_step(&(fl_quasistatic_system){.dense = &sd}, f, ukd, gd, ud, rd, NULL, &resd, NULL);
            fl_status b = fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &ss}, f, uks, gs, us, rs, NULL, &ress, NULL);
            cr_assert_eq(a, FL_OK, "reference status %d (trial %d inc %d) %s", a, trial, inc, fl_test_seed_note());
            cr_assert_eq(b, FL_OK, "sparse status %d (trial %d inc %d) %s", b, trial, inc, fl_test_seed_note());
            cr_assert_eq(ress.status, FL_OK);
            cr_assert_eq(resd.g_iterations, ress.g_iterations, "g-iterations %d vs %d %s", resd.g_iterations,
                         ress.g_iterations, fl_test_seed_note());
            cr_assert(abs(resd.iterations - ress.iterations) <= resd.g_iterations, "sweeps %d vs %d %s",
                      resd.iterations, ress.iterations, fl_test_seed_note());
            double du = rel_diff(ud, us), dr = rel_diff(rd, rs), dg = rel_diff(gd, gs);
            worst = fmax(worst, fmax(du, fmax(dr, dg)));
            cr_assert(du <= 1e-9 && dr <= 1e-9 && dg <= 1e-9, "u %g r %g g %g (trial %d inc %d kind %d) %s",
                      du, dr, dg, trial, inc, kind, fl_test_seed_note());
            for (size_t i = 0; i < n; i++)
                if (pres[i]) cr_assert_eq(gsl_vector_get(us, i), gsl_vector_get(ukd, i), "prescribed dof moved");
            check_coulomb(&ss, uks, us, rs, gs, 1e-8 * fmax(1.0, max_abs(f)), &oc);
        }
        free(perm); free(iT); free(iN); free(pres);
        gsl_matrix_free(Kd);
        cholmod_free_sparse(&Ks, &ctx.cm);
        gsl_vector_free(f);
        gsl_vector_free(ud); gsl_vector_free(ukd); gsl_vector_free(gd); gsl_vector_free(rd);
        gsl_vector_free(us); gsl_vector_free(uks); gsl_vector_free(gs); gsl_vector_free(rs);
    }
    cr_log_info("largest relative difference sparse vs dense: %g; %d slip, %d stick, %d open", worst,
                oc.slip, oc.stick, oc.open);
    cr_assert(oc.slip > 30 && oc.stick > 30 && oc.open > 10, "outcomes: %d slip, %d stick, %d open %s",
              oc.slip, oc.stick, oc.open, fl_test_seed_note());
    fl_sparse_finish(&ctx);
    gsl_rng_free(rg);
}

/* Closed form, independent of both codes.  Dofs 0 = T, 1 = N of the
 * particle, 2 = W (free), 3 = D (prescribed, the driver at position a):
 *   D --k1-- W --k2-- T,   N --kN-- ground,
 *   energy 1/2 k1 (w - a)^2 + 1/2 k2 (u_T - w)^2 + 1/2 kN u_N^2, so
 *   K = [[k2, 0, -k2, 0], [0, kN, 0, 0], [-k2, 0, k1 + k2, -k1], [0, 0, -k1, k1]],
 *   f = (0, fN, 0, 0).
 * Equilibrium of W: w = (k1 a + k2 u_T) / (k1 + k2), hence
 *   r_T = k2 (u_T - w) = k (u_T - a),  k = k1 k2 / (k1 + k2)  (springs in series),
 * and, the columns of the chain summing to zero, r_D = -r_T.
 * Normal: fN > 0 presses (004: u_N <= 0, the load pushes towards u_N > 0):
 *   u_N = 0, r_N = -fN; fN < 0: u_N = fN / kN, r_N = 0 (open).
 * Tangential with memory c = u^k_T and g = mu |r_N| = mu fN:
 *   stick  |k (c - a)| <= mu fN:  u_T = c, r_T = k (c - a);
 *   slip   otherwise:             u_T = a + sgn(c - a) mu fN / k (the particle
 *          lags the driver by mu fN / k), r_T = -mu fN sgn(u_T - c);
 *   open:  r_T = 0, u_T = a.
 * With k1 = 3, k2 = 6 (k = 2), kN = 4, fN = 2, mu = 0.5: mu fN / k = 0.5.
 * Driver a = 0.2, 0.8, 1.0, 0.4, -0.3, then fN = -1 (at a = -0.3):
 *   a = 0.2: c = 0,   k|c - a| = 0.4 <= 1: stick, u_T = 0,   r_T = -0.4
 *   a = 0.8: c = 0,   1.6 > 1: slip forward,  u_T = 0.3, r_T = -1
 *   a = 1.0: c = 0.3, 1.4 > 1: slip forward,  u_T = 0.5, r_T = -1
 *   a = 0.4: c = 0.5, 0.2 <= 1: stick,        u_T = 0.5, r_T = 0.2
 *   a = -0.3: c = 0.5, 1.6 > 1: slip back,    u_T = 0.2, r_T = +1
 *   fN = -1: open, u_N = -0.25, u_T = -0.3, r = 0.  (hysteresis of the
 *   stick window |u_T - a| <= 0.5) */
static void chain_case(int stype)
{
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    const double k1 = 3.0, k2 = 6.0, kN = 4.0, mu = 0.5;
    int ri[] = {0, 1, 2, 3, 0, 2, 2, 3}, ci[] = {0, 1, 2, 3, 2, 3, 0, 2};
    double vv[] = {k2, kN, k1 + k2, k1, -k2, -k1, -k2, -k1};
    cholmod_sparse *K;
    /* stype 1 keeps the upper entries only (the last two are dropped) */
    cr_assert_eq(fl_sparse_from_triplet(&ctx, 4, 4, 8, ri, ci, vv, stype, &K, NULL), FL_OK);
    unsigned char pres[4] = {0, 0, 0, 1};
    size_t iT = 0, iN = 1;
    fl_stability_system_sparse s = {.n = 4, .K = K, .M = NULL, .prescribed = pres, .np = 1, .iT = &iT, .iN = &iN, .mu = mu};
    gsl_vector *f = gsl_vector_calloc(4), *uk = gsl_vector_calloc(4), *g = gsl_vector_calloc(1);
    gsl_vector *u = gsl_vector_calloc(4), *r = gsl_vector_alloc(4);
    const double a[] = {0.2, 0.8, 1.0, 0.4, -0.3, -0.3}, fN[] = {2, 2, 2, 2, 2, -1};
    const double uT[] = {0.0, 0.3, 0.5, 0.5, 0.2, -0.3}, rT[] = {-0.4, -1, -1, 0.2, 1, 0};
    outcome oc = {0, 0, 0};
    for (int k = 0; k < 6; k++) {
        gsl_vector_memcpy(uk, u);
        gsl_vector_set(u, 3, a[k]);          /* the driver: prescribed value */
        gsl_vector_set(f, 1, fN[k]);
        fl_quasistatic_result res;
        cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, f, uk, g, u, r, NULL, &res, NULL), FL_OK, "increment %d", k);
        double uN = fN[k] > 0 ? 0.0 : fN[k] / kN, rN = fN[k] > 0 ? -fN[k] : 0.0;
        double w = (k1 * a[k] + k2 * uT[k]) / (k1 + k2);
        cr_assert(fabs(gsl_vector_get(u, 0) - uT[k]) < 1e-10, "inc %d: u_T = %.15g, expected %g", k, gsl_vector_get(u, 0), uT[k]);
        cr_assert(fabs(gsl_vector_get(u, 1) - uN) < 1e-12, "inc %d: u_N = %g", k, gsl_vector_get(u, 1));
        cr_assert(fabs(gsl_vector_get(u, 2) - w) < 1e-10, "inc %d: w = %g, expected %g", k, gsl_vector_get(u, 2), w);
        cr_assert_eq(gsl_vector_get(u, 3), a[k], "driver kept");
        cr_assert(fabs(gsl_vector_get(r, 0) - rT[k]) < 1e-9, "inc %d: r_T = %.15g, expected %g", k, gsl_vector_get(r, 0), rT[k]);
        cr_assert(fabs(gsl_vector_get(r, 1) - rN) < 1e-10, "inc %d: r_N = %g", k, gsl_vector_get(r, 1));
        cr_assert(fabs(gsl_vector_get(r, 2)) < 1e-10 && fabs(gsl_vector_get(r, 3) + rT[k]) < 1e-9, "inc %d: r_W, r_D", k);
        cr_assert(fabs(gsl_vector_get(g, 0) - mu * fabs(rN)) < 1e-9, "inc %d: g", k);
        cr_assert(res.g_iterations <= 8, "%d g-iterations (004: usually less than 8)", res.g_iterations);
        check_coulomb(&s, uk, u, r, g, 1e-9, &oc);
    }
    cr_assert(oc.stick == 2 && oc.slip == 3 && oc.open == 1, "%d %d %d", oc.stick, oc.slip, oc.open);
    cholmod_free_sparse(&K, &ctx.cm);
    gsl_vector_free(f); gsl_vector_free(uk); gsl_vector_free(g); gsl_vector_free(u); gsl_vector_free(r);
    fl_sparse_finish(&ctx);
}

Test(quasistatic_sparse, chain_closed_form_symmetric_storage) { chain_case(1); }
Test(quasistatic_sparse, chain_closed_form_unsymmetric_storage) { chain_case(0); }

/* Unsymmetric storage: row i of K drives dof i even when K is not
 * symmetric, as in the dense reference (strictly diagonally dominant K, so
 * Gauss-Seidel converges; omega = 1). */
Test(quasistatic_sparse, nonsymmetric_K_rows_as_the_reference)
{
    gsl_rng *rg = fl_test_rng(8116);
    fl_sparse_ctx ctx = {0};
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int trial = 0; trial < 20; trial++) {
        size_t n = 8;
        gsl_matrix *Kd = gsl_matrix_calloc(n, n);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++)
                if (j != i && gsl_rng_uniform(rg) < 0.4) gsl_matrix_set(Kd, i, j, 0.3 * (2 * gsl_rng_uniform(rg) - 1));
            gsl_matrix_set(Kd, i, i, 3.0 + gsl_rng_uniform(rg));
        }
        cholmod_sparse *Ks;
        cr_assert_eq(fl_sparse_from_dense(&ctx, Kd, 0, 0.0, &Ks, NULL), FL_OK);
        size_t iT[2] = {1, 5}, iN[2] = {4, 2};
        fl_stability_system sd = {.n = n, .K = Kd, .M = Kd, .prescribed = NULL, .np = 2, .iT = iT, .iN = iN, .mu = 0.2};
        fl_stability_system_sparse ss = {.n = n, .K = Ks, .M = NULL, .prescribed = NULL, .np = 2, .iT = iT, .iN = iN, .mu = 0.2};
        gsl_vector *f = gsl_vector_alloc(n), *uk = gsl_vector_calloc(n);
        gsl_vector *ud = gsl_vector_calloc(n), *us = gsl_vector_calloc(n), *gd = gsl_vector_calloc(2), *gs = gsl_vector_calloc(2);
        gsl_vector *rd = gsl_vector_alloc(n), *rs = gsl_vector_alloc(n);
        fl_random_vector(rg, 1.0, f);
        gsl_vector_set(f, 4, gsl_vector_get(f, 4) + 1.0);
        fl_quasistatic_options o = fl_quasistatic_options_default();
        o.omega = 1.0;
        cr_assert_eq(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &sd}, f, uk, gd, ud, rd, &o, NULL, NULL), FL_OK);
        cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &ss}, f, uk, gs, us, rs, &o, NULL, NULL), FL_OK);
        cr_assert(rel_diff(ud, us) <= 1e-9 && rel_diff(rd, rs) <= 1e-9 && rel_diff(gd, gs) <= 1e-9, "%s", fl_test_seed_note());
        gsl_matrix_free(Kd);
        cholmod_free_sparse(&Ks, &ctx.cm);
        gsl_vector_free(f); gsl_vector_free(uk); gsl_vector_free(ud); gsl_vector_free(us);
        gsl_vector_free(gd); gsl_vector_free(gs); gsl_vector_free(rd); gsl_vector_free(rs);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rg);
}

/* Bad input: the status expected, and the dense reference's status on the
 * same data where it has a counterpart (the shared checks). */
typedef struct bad {
    fl_sparse_ctx ctx;
    gsl_matrix *Kd;
    cholmod_sparse *Ks;
    size_t iT, iN;
    unsigned char pres[3];
    fl_stability_system sd;
    fl_stability_system_sparse ss;
    gsl_vector *f, *uk, *g, *u;
} bad;

static void bad_setup(bad *b, const double *Kv)   /* 3 dofs: T = 0, N = 1, free 2 */
{
    cr_assert_eq(fl_sparse_start(&b->ctx, NULL), FL_OK);
    b->Kd = gsl_matrix_alloc(3, 3);
    for (size_t i = 0; i < 9; i++) b->Kd->data[i] = Kv[i];
    cr_assert_eq(fl_sparse_from_dense(&b->ctx, b->Kd, 1, 0.0, &b->Ks, NULL), FL_OK);
    b->iT = 0;
    b->iN = 1;
    b->pres[0] = b->pres[1] = b->pres[2] = 0;
    b->sd = (fl_stability_system){.n = 3, .K = b->Kd, .M = b->Kd, .prescribed = b->pres, .np = 1, .iT = &b->iT, .iN = &b->iN, .mu = 0.3};
    b->ss = (fl_stability_system_sparse){.n = 3, .K = b->Ks, .M = NULL, .prescribed = b->pres, .np = 1, .iT = &b->iT, .iN = &b->iN, .mu = 0.3};
    b->f = gsl_vector_calloc(3);
    b->uk = gsl_vector_calloc(3);
    b->g = gsl_vector_calloc(1);
    b->u = gsl_vector_calloc(3);
    gsl_vector_set(b->f, 1, 1.0);
}

static void bad_teardown(bad *b)
{
    gsl_matrix_free(b->Kd);
    cholmod_free_sparse(&b->Ks, &b->ctx.cm);
    gsl_vector_free(b->f); gsl_vector_free(b->uk); gsl_vector_free(b->g); gsl_vector_free(b->u);
    fl_sparse_finish(&b->ctx);
}

/* both steppers on b with options o (NULL: default) give `want` */
static void both(bad *b, const gsl_vector *g, const fl_quasistatic_options *o, fl_status want, const char *what)
{
    fl_error e1, e2;
    fl_quasistatic_result r1, r2;
    fl_status s1 = fl_quasistatic_step(&(fl_quasistatic_system){.dense = &b->sd}, b->f, b->uk, (gsl_vector *)g, b->u, NULL, o, &r1, &e1);
    fl_status s2 = fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &b->ctx, .sparse = &b->ss}, b->f, b->uk, (gsl_vector *)g, b->u, NULL, o, &r2, &e2);
    cr_assert_eq(s2, want, "%s: sparse status %d (%s), expected %d", what, s2, e2.message, want);
    cr_assert_eq(r2.status, want, "%s: res.status", what);
    cr_assert_eq(s1, want, "%s: reference status %d, expected %d", what, s1, want);
    if (want < 0) cr_assert(e2.message[0] != '\0', "%s: an error message", what);
}

static const double good_K[9] = {2, 0.5, 0, 0.5, 3, 0.2, 0, 0.2, 1};

Test(quasistatic_sparse, bad_input)
{
    bad b;
    bad_setup(&b, good_K);
    both(&b, b.g, NULL, FL_OK, "good data");
    /* dimension mismatches */
    gsl_vector *g2 = gsl_vector_calloc(2);
    both(&b, g2, NULL, FL_EDIM, "g of length 2 for 1 particle");
    gsl_vector_free(g2);
    b.ss.n = b.sd.n = 2;
    fl_error e;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &b.ctx, .sparse = &b.ss}, b.f, b.uk, b.g, b.u, NULL, NULL, NULL, &e), FL_EDIM, "K 3x3, n = 2");
    b.ss.n = b.sd.n = 3;
    cholmod_sparse *Kr = cholmod_allocate_sparse(3, 2, 0, 1, 1, 0, CHOLMOD_REAL, &b.ctx.cm);
    b.ss.K = Kr;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &b.ctx, .sparse = &b.ss}, b.f, b.uk, b.g, b.u, NULL, NULL, NULL, &e), FL_EDIM, "K 3x2");
    cholmod_free_sparse(&Kr, &b.ctx.cm);
    b.ss.K = b.Ks;
    /* non-finite data */
    gsl_vector_set(b.f, 2, NAN);
    both(&b, b.g, NULL, FL_ENONFINITE, "NaN in f");
    gsl_vector_set(b.f, 2, 0.0);
    gsl_vector_set(b.uk, 0, INFINITY);
    both(&b, b.g, NULL, FL_ENONFINITE, "inf in u^k");
    gsl_vector_set(b.uk, 0, 0.0);
    ((double *)b.Ks->x)[1] = NAN;      /* an off-diagonal entry of the upper triangle */
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &b.ctx, .sparse = &b.ss}, b.f, b.uk, b.g, b.u, NULL, NULL, NULL, &e), FL_ENONFINITE, "NaN in K");
    ((double *)b.Ks->x)[1] = 0.5;
    both(&b, b.g, NULL, FL_OK, "good again");
    /* options, mu, indices */
    fl_quasistatic_options o = fl_quasistatic_options_default();
    o.omega = 2.0;
    both(&b, b.g, &o, FL_EINVAL, "omega = 2");
    o = fl_quasistatic_options_default();
    o.tol = 0.0;
    both(&b, b.g, &o, FL_EINVAL, "tol = 0");
    b.sd.mu = b.ss.mu = -1.0;
    both(&b, b.g, NULL, FL_EINVAL, "mu < 0");
    b.sd.mu = b.ss.mu = 0.3;
    b.iN = 3;
    both(&b, b.g, NULL, FL_EINVAL, "contact dof out of range");
    b.iN = 0;
    both(&b, b.g, NULL, FL_EINVAL, "repeated contact dof");
    b.iN = 1;
    b.pres[1] = 1;
    both(&b, b.g, NULL, FL_EINVAL, "prescribed contact dof");
    b.pres[1] = 0;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = NULL, .sparse = &b.ss}, b.f, b.uk, b.g, b.u, NULL, NULL, NULL, &e), FL_EINVAL, "no context");
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &b.ctx, .sparse = NULL}, b.f, b.uk, b.g, b.u, NULL, NULL, NULL, &e), FL_EINVAL, "no system");
    /* iteration limits: a warning, the result usable */
    o = fl_quasistatic_options_default();
    o.max_g_iter = 1;
    o.max_sweeps = 1;
    gsl_vector_set(b.f, 0, 1.0);
    both(&b, b.g, &o, FL_WMAXITER, "one sweep");
    bad_teardown(&b);
}

Test(quasistatic_sparse, non_positive_diagonal)
{
    /* K_NN = 0 (not even stored), K_TT < 0: FL_ENOTSPD from both */
    const double kz[9] = {2, 0.5, 0, 0.5, 0, 0.2, 0, 0.2, 1}, kneg[9] = {-1, 0.5, 0, 0.5, 3, 0.2, 0, 0.2, 1};
    const double kfree0[9] = {2, 0.5, 0, 0.5, 3, 0, 0, 0, 0};
    bad b;
    bad_setup(&b, kz);
    both(&b, b.g, NULL, FL_ENOTSPD, "K_NN = 0");
    bad_teardown(&b);
    bad_setup(&b, kneg);
    both(&b, b.g, NULL, FL_ENOTSPD, "K_TT < 0");
    bad_teardown(&b);
    /* a zero row on a free dof is an error, on a prescribed dof it is not read */
    bad_setup(&b, kfree0);
    both(&b, b.g, NULL, FL_ENOTSPD, "K_22 = 0 on a free dof");
    b.pres[2] = 1;
    both(&b, b.g, NULL, FL_OK, "K_22 = 0 on a prescribed dof");
    bad_teardown(&b);
}
