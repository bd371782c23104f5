/* test_nsgs_refusals.c — nonlinear Gauss–Seidel and the Delassus
 * operator of 003 §3 (reference/nsgs.c, optimized/nsgs_sparse.c,
 * optimized/delassus_sparse.c): the same bad options and problems fed to
 * both twins (same status, message naming the field), and closed forms:
 * one 3D contact with W = I, q = (-1, 3, 4), mu = 1/2 slides,
 * r = (1, -0.3, -0.4) (Coulomb's law in impulse form with W = I: r_N = -q_N,
 * r_T = -mu r_N q_T/|q_T|); the global form M = I, H = I, f = q, w = 0 has
 * W = H M^-1 H^T = I and q = H M^-1 f + w = f. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_rng.h"
#include "fl_sparse.h"
#include "reference/local_contact.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "optimized/nsgs_sparse.h"
#include "optimized/delassus_sparse.h"
#include "twin_check.h"
#include "drivers/fl_types.h"


static fl_local_problem *slide_problem(void)
{
    return one_contact(3, (const double[3]){1, 1, 1}, (const double[3]){-1, 3, 4}, 0.5);
}

#define SAME(want, needle) TWIN_SAME(s, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { both(p, &o, r, NULL, s, err); SAME(want, needle); } while (0)

static void both(const fl_local_problem *p, const fl_nsgs_options *o, gsl_vector *r, gsl_vector *U,
                 fl_status s[2], fl_error err[2])
{
    s[0] = fl_nsgs_solve(p, o, r, U, NULL, &err[0]);
    s[1] = fl_nsgs_solve_sparse(p, o, r, U, NULL, &err[1]);
}

Test(cov_nsgs, both_twins_refuse_the_same_options, .init = setup, .fini = teardown)
{
    fl_local_problem *p = slide_problem();
    gsl_vector *r = gsl_vector_alloc(3), *r2 = gsl_vector_alloc(2), *U = gsl_vector_alloc(3);
    gsl_matrix *R = gsl_matrix_alloc(3, 2);
    gsl_vector_view strided = gsl_matrix_column(R, 0);
    fl_status s[2];
    fl_error err[2];
    fl_nsgs_options o = fl_nsgs_options_default();
    /* NULL options mean the defaults (drivers/fl_types.h), in both twins */
    for (int k = 0; k < 2; k++) {
        gsl_vector *rd = gsl_vector_alloc(3);
        gsl_vector_set_zero(r);
        gsl_vector_set_zero(rd);
        fl_status sn = fl_nsgs_types[k].solve(p, NULL, r, NULL, NULL, NULL);
        fl_status sd = fl_nsgs_types[k].solve(p, &o, rd, NULL, NULL, NULL);
        cr_assert_eq(sn, FL_OK, "twin %d, NULL options", k);
        cr_assert_eq(sd, FL_OK);
        for (int i = 0; i < 3; i++) cr_assert_eq(gsl_vector_get(r, i), gsl_vector_get(rd, i), "twin %d r[%d]", k, i);
        gsl_vector_free(rd);
    }
    both(p, &o, NULL, NULL, s, err);
    SAME(FL_EDIM, "r must be a contiguous vector of length 3");
    both(p, &o, r2, NULL, s, err);
    SAME(FL_EDIM, "r must be a contiguous vector of length 3");
    both(p, &o, &strided.vector, NULL, s, err);
    SAME(FL_EDIM, "r must be a contiguous vector");
    o.tol = NAN;
    EXPECT(FL_EINVAL, "tol = nan");
    o.tol = INFINITY;
    EXPECT(FL_EINVAL, "tol = inf");
    o = fl_nsgs_options_default();
    o.omega = 2.0;
    EXPECT(FL_EINVAL, "omega = 2");
    o.omega = NAN;
    EXPECT(FL_EINVAL, "omega");
    o = fl_nsgs_options_default();
    o.max_sweeps = 0;
    EXPECT(FL_EINVAL, "max_sweeps = 0");
    o = fl_nsgs_options_default();
    o.order = FL_NSGS_ORDER_RANDOM;
    EXPECT(FL_EINVAL, "needs opt->rng");
    o = fl_nsgs_options_default();
    o.start = FL_NSGS_START_RANDOM;
    EXPECT(FL_EINVAL, "needs opt->rng");
    gsl_rng *rng = fl_rng_alloc(3UL);
    o.rng = rng;
    o.random_scale = 0;
    EXPECT(FL_EINVAL, "random_scale = 0");
    o.random_scale = INFINITY;
    EXPECT(FL_EINVAL, "random_scale = inf");
    o = fl_nsgs_options_default();
    o.order = FL_NSGS_ORDER_GIVEN;
    EXPECT(FL_EINVAL, "given ordering missing");
    size_t bad_perm[1] = {1};
    o.ordering = bad_perm;
    EXPECT(FL_EINVAL, "not a permutation of 0..0");
    o = fl_nsgs_options_default();
    o.order = (fl_nsgs_order)9;
    EXPECT(FL_EINVAL, "unknown ordering 9");
    o = fl_nsgs_options_default();
    o.start = (fl_nsgs_start)9;
    both(p, &o, r, NULL, s, err);
    cr_assert_eq(s[0], FL_EINVAL, "%s", err[0].message);
    cr_assert_eq(s[1], FL_EINVAL, "%s", err[1].message);
    o = fl_nsgs_options_default();
    both(p, &o, r, r2, s, err);
    cr_assert_eq(s[0], FL_EDIM, "%s", err[0].message);
    cr_assert_eq(s[1], FL_EDIM, "%s", err[1].message);
    both(p, &o, r, &strided.vector, s, err);
    cr_assert_eq(s[0], FL_EDIM);
    cr_assert_eq(s[1], FL_EDIM);
    /* the valid options: the slide closed form, also with a random start,
     * a given ordering and omega != 1 (the answer is unique) */
    const double want[3] = {1, -0.3, -0.4};
    for (int c = 0; c < 3; c++) {
        o = fl_nsgs_options_default();
        o.tol = 1e-13;
        o.max_sweeps = 10000;
        size_t perm0[1] = {0};
        if (c == 0) {
            o.start = FL_NSGS_START_RANDOM;
            o.rng = rng;
        } else if (c == 1) {
            o.order = FL_NSGS_ORDER_GIVEN;
            o.ordering = perm0;
        } else {
            o.omega = 0.7;
        }
        both(p, &o, r, U, s, err);
        cr_assert_eq(s[0], FL_OK, "case %d: %s", c, err[0].message);
        cr_assert_eq(s[1], FL_OK, "case %d: %s", c, err[1].message);
        for (int i = 0; i < 3; i++) cr_assert(fabs(r->data[i] - want[i]) <= 1e-10, "case %d", c);
    }
    /* the sparse twin needs a real sparse W */
    cholmod_sparse *Wk = p->Ws;
    cholmod_sparse *P = cholmod_copy_sparse(Wk, &ctx.cm);
    cr_assert(P && cholmod_sparse_xtype(CHOLMOD_PATTERN, P, &ctx.cm));
    p->Ws = NULL;
    o = fl_nsgs_options_default();
    cr_assert_eq(fl_nsgs_solve_sparse(p, &o, r, NULL, NULL, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "real sparse W"), "%s", err[1].message);
    p->Ws = Wk;
    cholmod_free_sparse(&P, &ctx.cm);
    gsl_rng_free(rng);
    gsl_matrix_free(R);
    gsl_vector_free(r);
    gsl_vector_free(r2);
    gsl_vector_free(U);
    fl_local_problem_free(p);
}

Test(cov_nsgs, local_solve_degenerate_blocks)
{
    /* fl_local_contact_solve on one 2D contact: r = argmin of the law with
     * U = W r + b.  Open (b_N >= 0): r = 0.  W = 0 (zero trace, rho = 1):
     * with b = (1, 0.5) the contact is open, r = 0. */
    double W[4] = {0, 0, 0, 0}, b[2] = {1, 0.5}, r[2] = {7, 7};
    fl_local_contact_solve(2, 0.3, W, b, r);
    cr_assert(r[0] == 0 && r[1] == 0, "r = (%g, %g)", r[0], r[1]);
    /* W = I, b = (-2, 0.2), mu = 1/2: stick, r = -b = (2, -0.2) */
    double I2[4] = {1, 0, 0, 1}, b2[2] = {-2, 0.2};
    fl_local_contact_solve(2, 0.5, I2, b2, r);
    cr_assert(fabs(r[0] - 2) <= 1e-14 && fabs(r[1] + 0.2) <= 1e-14, "r = (%g, %g)", r[0], r[1]);
}

/* ---- Delassus twins ------------------------------------------------------ */

static fl_global_problem *global_slide(void)
{
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(3, 1, 3, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set_identity(g->H);
    gsl_vector_set(g->f, 0, -1);
    gsl_vector_set(g->f, 1, 3);
    gsl_vector_set(g->f, 2, 4);
    gsl_vector_set_zero(g->w);
    g->mu[0] = 0.5;
    g->ctx = &ctx;
    return g;
}

static void both_delassus(const fl_global_problem *g, fl_status s[2], fl_error err[2])
{
    fl_local_problem *p = NULL, *ps = NULL;
    cholmod_factor *L = NULL;
    s[0] = fl_delassus_dense(g, NULL, NULL, &p, &err[0]);
    s[1] = fl_delassus_sparse(g, NULL, &L, &ps, &err[1]);
    if (s[0] != FL_OK) cr_assert_null(p);
    if (s[1] != FL_OK) cr_assert_null(ps);
    fl_local_problem_free(p);
    fl_local_problem_free(ps);
    fl_sparse_free_factor(&ctx, &L);
}

Test(cov_nsgs, delassus_twins_refuse_alike, .init = setup, .fini = teardown)
{
    fl_global_problem *g = global_slide();
    fl_status s[2];
    fl_error err[2];
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_OK);
    cr_assert_eq(s[1], FL_OK);
    gsl_vector_set(g->f, 2, NAN);
    both_delassus(g, s, err);
    SAME(FL_ENONFINITE, "f[2]");
    gsl_vector_set(g->f, 2, 4);
    gsl_vector_set(g->w, 0, INFINITY);
    both_delassus(g, s, err);
    SAME(FL_ENONFINITE, "w[0]");
    gsl_vector_set(g->w, 0, 0);
    g->mu[0] = NAN;
    both_delassus(g, s, err);
    SAME(FL_EINVAL, "mu[0] = nan");
    g->mu[0] = -2;
    both_delassus(g, s, err);
    SAME(FL_EINVAL, "mu[0] = -2");
    g->mu[0] = 0.5;
    double *mk = g->mu;
    g->mu = NULL;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    g->mu = mk;
    gsl_vector *fk = g->f, *f2 = gsl_vector_calloc(2);
    g->f = f2;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EDIM, "%s", err[0].message);
    cr_assert_eq(s[1], FL_EDIM, "%s", err[1].message);
    g->f = NULL;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    g->f = fk;
    gsl_vector_free(f2);
    gsl_vector *wk = g->w, *w2 = gsl_vector_calloc(2);
    g->w = w2;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EDIM);
    cr_assert_eq(s[1], FL_EDIM);
    g->w = NULL;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    g->w = wk;
    gsl_vector_free(w2);
    /* H: missing, of the wrong size (the sparse twin converts the dense H) */
    gsl_matrix *Hk = g->H, *H23 = gsl_matrix_calloc(2, 3);
    g->H = NULL;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    cr_assert(strstr(err[1].message, "H missing"));
    g->H = H23;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EDIM, "%s", err[0].message);
    cr_assert_eq(s[1], FL_EDIM, "%s", err[1].message);
    g->H = Hk;
    gsl_matrix_free(H23);
    /* M: missing, not SPD */
    gsl_matrix *Mk = g->M;
    g->M = NULL;
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    cr_assert(strstr(err[1].message, "M missing"));
    g->M = Mk;
    gsl_matrix_set(g->M, 1, 1, -1);
    both_delassus(g, s, err);
    cr_assert_eq(s[0], FL_ENOTSPD, "%s", err[0].message);
    cr_assert_eq(s[1], FL_ENOTSPD, "%s", err[1].message);
    gsl_matrix_set(g->M, 1, 1, 1);
    /* the contract's arguments: output, factor cache (NULL: a private
     * factor), method (refused by both twins), ctx */
    fl_local_problem *ps = NULL;
    cholmod_factor *L = NULL;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, NULL, &err[1]), FL_EINVAL);
    cr_assert_eq(fl_delassus_sparse(g, NULL, NULL, &ps, &err[1]), FL_OK, "%s", err[1].message);
    fl_local_problem_free(ps);
    ps = NULL;
    const fl_delassus_options bad = {.sparse.method = (fl_delassus_method)7};
    cr_assert_eq(fl_delassus_sparse(g, &bad, &L, &ps, &err[1]), FL_EINVAL);
    cr_assert(strstr(err[1].message, "unknown method 7"));
    cr_assert_eq(fl_delassus_dense(g, &bad, NULL, &ps, &err[0]), FL_EINVAL);
    cr_assert(strstr(err[0].message, "unknown method 7"));
    g->ctx = NULL;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &ps, &err[1]), FL_EINVAL);
    g->ctx = &ctx;
    cr_assert_eq(fl_delassus_sparse(NULL, NULL, &L, &ps, &err[1]), FL_EINVAL);
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, NULL, &err[0]), FL_EINVAL);
    cr_assert_eq(fl_delassus_dense(NULL, NULL, NULL, &ps, &err[0]), FL_EINVAL);
    /* sparse M in unsymmetric storage */
    cholmod_sparse *Mfull = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 0, 0.0, &Mfull, NULL), FL_OK);
    g->Ms = Mfull;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &ps, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "symmetric"), "%s", err[1].message);
    g->Ms = NULL;
    cholmod_free_sparse(&Mfull, &ctx.cm);
    /* both methods give W = I, q = f */
    for (int method = 0; method < 2; method++) {
        cr_assert_eq(fl_delassus_sparse(g, &(fl_delassus_options){.sparse.method = (fl_delassus_method)method}, &L, &ps,
                                        &err[1]), FL_OK,
                     "%s", err[1].message);
        gsl_matrix *W = NULL;
        cr_assert_eq(fl_sparse_to_dense(&ctx, ps->Ws, &W, NULL), FL_OK);
        for (size_t i = 0; i < 3; i++) {
            for (size_t j = 0; j < 3; j++)
                cr_assert(fabs(gsl_matrix_get(W, i, j) - (i == j)) <= 1e-14, "method %d W(%zu,%zu) = %.17g",
                          method, i, j, gsl_matrix_get(W, i, j));
            cr_assert(fabs(gsl_vector_get(ps->q, i) - gsl_vector_get(g->f, i)) <= 1e-14);
        }
        gsl_matrix_free(W);
        fl_local_problem_free(ps);
        ps = NULL;
    }
    fl_sparse_free_factor(&ctx, &L);
    fl_global_problem_free(g);
}

Test(cov_nsgs, delassus_without_contacts_and_dense_shapes, .init = setup, .fini = teardown)
{
    /* no contact: both twins return an empty local problem */
    fl_global_problem *g0 = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 0, 2, 1, &g0, NULL), FL_OK);
    gsl_matrix_set_identity(g0->M);
    gsl_vector_set_zero(g0->f);
    g0->ctx = &ctx;
    fl_local_problem *p = NULL, *ps = NULL;
    cholmod_factor *L = NULL;
    fl_error err;
    cr_assert_eq(fl_delassus_dense(g0, NULL, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert_eq(p->nc, 0);
    cr_assert_eq(fl_delassus_sparse(g0, NULL, &L, &ps, &err), FL_OK, "%s", err.message);
    cr_assert_eq(ps->nc, 0);
    /* and NSGS on it: nothing to do */
    fl_nsgs_options o = fl_nsgs_options_default();
    gsl_vector r0 = {0, 1, NULL, NULL, 0};
    cr_assert_eq(fl_nsgs_solve(p, &o, &r0, NULL, NULL, &err), FL_OK);
    cr_assert_eq(fl_nsgs_solve_sparse(ps, &o, &r0, NULL, NULL, &err), FL_OK);
    fl_local_problem_free(p);
    fl_local_problem_free(ps);
    fl_sparse_free_factor(&ctx, &L);
    fl_global_problem_free(g0);
    /* dense shapes: M 3x2, H 2x3, H 3x2; H non-finite; mu = inf */
    fl_global_problem *g = global_slide();
    fl_status s[2];
    fl_error e2[2];
    gsl_matrix *A32 = gsl_matrix_calloc(3, 2), *A23 = gsl_matrix_calloc(2, 3), *Mk = g->M, *Hk = g->H;
    g->M = A32;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_EDIM);
    g->M = Mk;
    g->H = A23;
    both_delassus(g, s, e2);
    cr_assert_eq(s[0], FL_EDIM);
    cr_assert_eq(s[1], FL_EDIM);
    g->H = A32;
    both_delassus(g, s, e2);
    cr_assert_eq(s[0], FL_EDIM);
    cr_assert_eq(s[1], FL_EDIM);
    g->H = Hk;
    gsl_matrix_set(g->H, 2, 1, NAN);
    both_delassus(g, s, e2);
    cr_assert_eq(s[0], FL_ENONFINITE, "%s", e2[0].message);
    cr_assert_eq(s[1], FL_ENONFINITE, "%s", e2[1].message);
    gsl_matrix_set(g->H, 2, 1, 0);
    g->mu[0] = INFINITY;
    both_delassus(g, s, e2);
    cr_assert_eq(s[0], FL_EINVAL);
    cr_assert_eq(s[1], FL_EINVAL);
    g->mu[0] = 0.5;
    /* f and w as strided views (columns of a matrix): both twins read them,
     * q = f (M = H = I, w = 0) */
    gsl_matrix *F = gsl_matrix_calloc(3, 2);
    gsl_vector_view fv = gsl_matrix_column(F, 0), wv = gsl_matrix_column(F, 1);
    gsl_vector_memcpy(&fv.vector, g->f);
    gsl_vector *fk = g->f, *wk = g->w;
    g->f = &fv.vector;
    g->w = &wv.vector;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &ps, &err), FL_OK, "%s", err.message);
    for (size_t i = 0; i < 3; i++) {
        cr_assert(fabs(gsl_vector_get(p->q, i) - gsl_vector_get(fk, i)) <= 1e-15);
        cr_assert(fabs(gsl_vector_get(ps->q, i) - gsl_vector_get(fk, i)) <= 1e-15);
    }
    fl_local_problem_free(p);
    fl_local_problem_free(ps);
    g->f = fk;
    g->w = wk;
    gsl_matrix_free(F);
    gsl_matrix_free(A32);
    gsl_matrix_free(A23);
    fl_sparse_free_factor(&ctx, &L);
    fl_global_problem_free(g);
    /* the 3D local solve: W = 0 (zero trace, rho = 1), b = (1, 0, 0)
     * open: r = 0 */
    double W0[9] = {0}, b[3] = {1, 0, 0}, r[3] = {5, 5, 5};
    fl_local_contact_solve(3, 0.5, W0, b, r);
    cr_assert(r[0] == 0 && r[1] == 0 && r[2] == 0);
}
