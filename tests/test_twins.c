/* test_twins.c — every type of the laws' tables (drivers/fl_types.h) on
 * the inputs where a twin's own code path differs from the reference's:
 *   - nonsymmetric contact blocks, 2D and 3D, every local case (open,
 *     stick, slide): the sparse twins read the diagonal blocks of W
 *     themselves (optimized/nsgs_sparse.c);
 *   - global problems whose contacts the fill-reducing ordering permutes:
 *     the sparse Delassus operator is computed in that order and must come
 *     back in the caller's (optimized/delassus_sparse.c, both methods);
 *   - Moreau's law with polygonal friction sets (000 §2, §3): the answer is
 *     feasible (reaction in R+(n + T C)) and of least kinetic energy, and
 *     gamma(q) = a_n - S_C(-T^T M^-1 n) (the set's support function) is
 *     its minimum over the vertices, by brute force over the polygon;
 *   - NULL options mean the defaults, for every table.
 * Each answer is judged by an oracle that shares no code with the twins:
 * the natural-map residual with the true W (core/fl_residual.h), the dense
 * Delassus in the caller's order, brute force over the friction set. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "checks/twins.h"
#include "drivers/fl_types.h"
#include "fl_friction_set.h"
#include "fl_residual.h"
#include "fl_scalar.h"
#include "fl_rng.h"
#include "testkit/fl_random.h"

static fl_sparse_ctx ctx;
static void setup(void) { cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK); }
static void teardown(void) { fl_sparse_finish(&ctx); }

enum { CASE_OPEN = 0, CASE_STICK = 1, CASE_SLIDE = 2 };

/* A local problem of nc contacts with a known solution in the given local
 * case per contact (De Saxcé's form of Coulomb's law, core/fl_residual.h):
 * W = blocks A A^T + I plus a skew part (nonsymmetric blocks) plus a weak
 * nonsymmetric coupling; r*, U* chosen in the case; q = U* - W r*. */
static fl_local_problem *known_problem(gsl_rng *g, size_t nc, int dim, const int *cases)
{
    fl_local_problem *p = NULL;
    size_t m = nc * (size_t)dim;
    cr_assert_eq(fl_local_problem_alloc(nc, dim, 1, &p, NULL), FL_OK);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            int same = i / dim == j / dim;
            gsl_matrix_set(p->W, i, j, same ? 0.0 : 0.03 * gsl_ran_gaussian(g, 1.0));
        }
    for (size_t a = 0; a < nc; a++) {
        double A[9], S[9];
        for (int k = 0; k < dim * dim; k++) A[k] = gsl_ran_gaussian(g, 1.0), S[k] = gsl_ran_gaussian(g, 0.4);
        for (int i = 0; i < dim; i++)
            for (int j = 0; j < dim; j++) {
                double s = i == j ? 1.0 : 0.0;
                for (int l = 0; l < dim; l++) s += A[i * dim + l] * A[j * dim + l];
                s += S[i * dim + j] - S[j * dim + i];                 /* skew: W_aa != W_aa^T */
                gsl_matrix_set(p->W, a * dim + i, a * dim + j, s);
            }
    }
    gsl_vector *r = gsl_vector_calloc(m), *U = gsl_vector_calloc(m);
    for (size_t a = 0; a < nc; a++) {
        double mu = p->mu[a] = 0.1 + 0.5 * gsl_rng_uniform(g), t[2] = {0, 0}, nt = 0;
        for (int k = 1; k < dim; k++) t[k - 1] = gsl_ran_gaussian(g, 1.0), nt += t[k - 1] * t[k - 1];
        nt = sqrt(nt);
        size_t o = a * (size_t)dim;
        if (cases[a] == CASE_OPEN) {                     /* r = 0, U_N > 0 */
            gsl_vector_set(U, o, 0.5 + gsl_rng_uniform(g));
            for (int k = 1; k < dim; k++) gsl_vector_set(U, o + k, t[k - 1]);
        } else if (cases[a] == CASE_STICK) {             /* U = 0, |r_T| < mu r_N */
            double rn = 0.5 + gsl_rng_uniform(g), f = 0.8 * mu * rn * gsl_rng_uniform(g) / nt;
            gsl_vector_set(r, o, rn);
            for (int k = 1; k < dim; k++) gsl_vector_set(r, o + k, f * t[k - 1]);
        } else {                                         /* U_N = 0, r_T = -mu r_N U_T/|U_T| */
            double rn = 0.5 + gsl_rng_uniform(g);
            gsl_vector_set(r, o, rn);
            for (int k = 1; k < dim; k++) {
                gsl_vector_set(U, o + k, t[k - 1]);
                gsl_vector_set(r, o + k, -mu * rn * t[k - 1] / nt);
            }
        }
    }
    gsl_vector_memcpy(p->q, U);
    gsl_blas_dgemv(CblasNoTrans, -1.0, p->W, r, 1.0, p->q);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    gsl_vector_free(r);
    gsl_vector_free(U);
    return p;
}

/* The natural-map error of r with the true (dense, nonsymmetric) W. */
static double true_error(const fl_local_problem *p, const gsl_vector *r)
{
    double e = INFINITY;
    cr_assert_eq(fl_residual_local(p, r, NULL, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
    return e;
}

Test(twins, nonsymmetric_blocks_every_local_case_2d_and_3d, .init = setup, .fini = teardown)
{
    gsl_rng *g = fl_test_rng(2601);
    for (int dim = 2; dim <= 3; dim++)
        for (int c = 0; c < 3; c++)
            for (int trial = 0; trial < 6; trial++) {
                size_t nc = trial % 2 ? 3 : 1;
                int cases[3] = {c, (c + trial) % 3, (c + 2 * trial) % 3};
                fl_local_problem *p = known_problem(g, nc, dim, cases);
                for (int k = 0; fl_nsgs_types[k].name; k++) {
                    gsl_vector *r = gsl_vector_calloc(p->m);
                    fl_nsgs_options o = fl_nsgs_options_default();
                    o.tol = 1e-12;
                    o.max_sweeps = 5000;
                    fl_error err;
                    fl_status s = fl_nsgs_types[k].solve(p, &o, r, NULL, NULL, &err);
                    cr_assert_eq(s, FL_OK, "nsgs %s dim %d case %d trial %d: %d %s %s", fl_nsgs_types[k].name,
                                 dim, c, trial, s, err.message, fl_test_seed_note());
                    double e = true_error(p, r);
                    cr_assert_leq(e, 1e-9, "nsgs %s dim %d case %d trial %d: error %g with the true W %s",
                                  fl_nsgs_types[k].name, dim, c, trial, e, fl_test_seed_note());
                    gsl_vector_free(r);
                }
                for (int k = 0; fl_newton_types[k].name; k++) {
                    gsl_vector *r = gsl_vector_calloc(p->m);
                    fl_newton_options o = fl_newton_options_default();
                    fl_status s = fl_newton_types[k].solve(p, &o, r, NULL, NULL, NULL);
                    cr_assert_eq(s, FL_OK, "newton %s dim %d case %d trial %d %s", fl_newton_types[k].name, dim, c,
                                 trial, fl_test_seed_note());
                    double e = true_error(p, r);
                    cr_assert_leq(e, 1e-9, "newton %s dim %d case %d trial %d: error %g %s",
                                  fl_newton_types[k].name, dim, c, trial, e, fl_test_seed_note());
                    gsl_vector_free(r);
                }
                for (int k = 0; fl_ppa_types[k].name; k++) {
                    gsl_vector *r = gsl_vector_calloc(p->m);
                    fl_status s = fl_ppa_types[k].solve(p, NULL, r, NULL, NULL, NULL);
                    cr_assert_eq(s, FL_OK, "ppa %s dim %d case %d trial %d %s", fl_ppa_types[k].name, dim, c,
                                 trial, fl_test_seed_note());
                    double e = true_error(p, r);
                    cr_assert_leq(e, 1e-9, "ppa %s dim %d case %d trial %d: error %g %s",
                                  fl_ppa_types[k].name, dim, c, trial, e, fl_test_seed_note());
                    gsl_vector_free(r);
                }
                fl_local_problem_free(p);
            }
    gsl_rng_free(g);
}

/* nb bodies of 2 dofs on a line, contact k between bodies pi(k) and
 * pi(k) + 1 (pi a random permutation): the contacts of H H^T form a chain
 * in scrambled order, which the fill-reducing ordering rearranges. */
static fl_global_problem *chain_problem(gsl_rng *g, size_t nb, int dim)
{
    size_t nc = nb - 1, n = (size_t)dim * nb;
    fl_global_problem *gp = NULL;
    cr_assert_eq(fl_global_problem_alloc(n, nc, dim, 1, &gp, NULL), FL_OK);
    size_t *pi = malloc(nc * sizeof *pi);
    for (size_t k = 0; k < nc; k++) pi[k] = k;
    gsl_ran_shuffle(g, pi, nc, sizeof *pi);
    gsl_matrix_set_zero(gp->M);
    for (size_t b = 0; b < nb; b++)
        for (int i = 0; i < dim; i++) {
            gsl_matrix_set(gp->M, dim * b + i, dim * b + i, 1.0 + gsl_rng_uniform(g));
            if (i > 0) {
                double c = 0.2 * gsl_rng_uniform(g);
                gsl_matrix_set(gp->M, dim * b + i, dim * b, c);
                gsl_matrix_set(gp->M, dim * b, dim * b + i, c);
            }
        }
    gsl_matrix_set_zero(gp->H);
    for (size_t k = 0; k < nc; k++) {
        for (int i = 0; i < dim; i++) {
            double a = gsl_ran_gaussian(g, 1.0);
            gsl_matrix_set(gp->H, dim * k + i, dim * pi[k] + i, a);
            gsl_matrix_set(gp->H, dim * k + i, dim * (pi[k] + 1) + i, -a + 0.1);
        }
        gp->mu[k] = 0.3;
    }
    fl_random_vector(g, 1.0, gp->f);
    fl_random_vector(g, 1.0, gp->w);
    gp->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, gp->M, 1, 0.0, &gp->Ms, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, gp->H, 0, 0.0, &gp->Hs, NULL), FL_OK);
    free(pi);
    return gp;
}

Test(twins, delassus_in_the_callers_contact_order, .init = setup, .fini = teardown)
{
    gsl_rng *g = fl_test_rng(2602);
    for (int dim = 2; dim <= 3; dim++)
        for (int method = 0; method < 2; method++) {
            fl_global_problem *gp = chain_problem(g, 30, dim);
            /* the case is reached: the contact order of H H^T is not the identity */
            int *pc = malloc(gp->m * sizeof *pc), moved = 0;
            cr_assert(cholmod_amd(gp->Hs, NULL, 0, pc, &ctx.cm));
            for (size_t k = 0; k < gp->m; k++) moved += pc[k] != (int)k;
            cr_assert_gt(moved, 0, "the ordering must permute the contacts");
            free(pc);
            fl_local_problem *p[2] = {NULL, NULL};
            fl_delassus_options o = fl_delassus_options_default();
            o.sparse.method = (fl_delassus_method)method;
            for (int k = 0; fl_delassus_types[k].name; k++)
                cr_assert_eq(fl_delassus_types[k].delassus(gp, &o, NULL, &p[k], NULL), FL_OK, "%s method %d",
                             fl_delassus_types[k].name, method);
            gsl_matrix *Ws = NULL;
            cr_assert_eq(fl_sparse_to_dense(&ctx, p[1]->Ws, &Ws, NULL), FL_OK);
            double dW = fl_twins_rel_diff(p[0]->W->data, Ws->data, gp->m * gp->m);
            double dq = fl_twins_rel_diff(p[0]->q->data, p[1]->q->data, gp->m);
            cr_assert_lt(dW, 1e-10, "W, dim %d method %d: %g %s", dim, method, dW, fl_test_seed_note());
            cr_assert_lt(dq, 1e-10, "q, dim %d method %d: %g %s", dim, method, dq, fl_test_seed_note());
            gsl_matrix_free(Ws);
            fl_local_problem_free(p[0]);
            fl_local_problem_free(p[1]);
            fl_global_problem_free(gp);
        }
    gsl_rng_free(g);
}

/* A convex polygon (counter-clockwise) around a point near 0, containing 0. */
static void random_polygon(gsl_rng *g, fl_friction_set *C)
{
    double vert[12], cx = 0.1 * gsl_ran_gaussian(g, 1.0), cy = 0.1 * gsl_ran_gaussian(g, 1.0);
    int nv = 3 + (int)gsl_rng_uniform_int(g, 4);
    for (int i = 0; i < nv; i++) {
        double th = 2 * FL_PI * (i + 0.3 * gsl_rng_uniform(g)) / nv, rad = 0.5 + 0.5 * gsl_rng_uniform(g);
        vert[2 * i] = cx + rad * cos(th);
        vert[2 * i + 1] = cy + rad * sin(th);
    }
    memset(C, 0, sizeof *C);
    fl_error err;
    cr_assert_eq(fl_friction_set_polygon(C, (size_t)nv, vert, 0, NULL, &err), FL_OK, "%s", err.message);
}

/* u^T M u */
static double kinetic(const gsl_matrix *M, const gsl_vector *u)
{
    gsl_vector *t = gsl_vector_alloc(u->size);
    double e;
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, u, 0.0, t);
    gsl_blas_ddot(u, t, &e);
    gsl_vector_free(t);
    return e;
}

/* Least squares M (u - v) = a0 dg/|dg| + a1 t1 + a2 t2; returns the
 * relative residual of the fit. */
static double fit_reaction(const gsl_matrix *M, const gsl_vector *dg, const gsl_matrix *T, const gsl_vector *v,
                           const gsl_vector *u, double a[3])
{
    size_t d = v->size;
    gsl_matrix *B = gsl_matrix_alloc(d, 3);
    gsl_vector *rr = gsl_vector_alloc(d), *du = gsl_vector_alloc(d), *tau = gsl_vector_alloc(3),
               *x = gsl_vector_alloc(3), *res = gsl_vector_alloc(d);
    double nd = gsl_blas_dnrm2(dg);
    for (size_t i = 0; i < d; i++) {
        gsl_matrix_set(B, i, 0, gsl_vector_get(dg, i) / nd);
        gsl_matrix_set(B, i, 1, gsl_matrix_get(T, i, 0));
        gsl_matrix_set(B, i, 2, gsl_matrix_get(T, i, 1));
    }
    gsl_vector_memcpy(du, u);
    gsl_vector_sub(du, v);
    gsl_blas_dgemv(CblasNoTrans, 1.0, M, du, 0.0, rr);
    gsl_linalg_QR_decomp(B, tau);
    gsl_linalg_QR_lssolve(B, tau, rr, x, res);
    for (int j = 0; j < 3; j++) a[j] = gsl_vector_get(x, j);
    double e = gsl_blas_dnrm2(res) / (gsl_blas_dnrm2(rr) + 1e-300);
    gsl_matrix_free(B);
    gsl_vector_free(rr); gsl_vector_free(du); gsl_vector_free(tau); gsl_vector_free(x); gsl_vector_free(res);
    return e;
}

/* min over c in C (vertices, edge points, interior points) of |u(c)|_M^2,
 * u(c) = v + rho M^-1 (n + T c) with rho >= 0 making <n, u(c)> = 0. */
static double brute_force_min(const gsl_matrix *M, const gsl_vector *dg, const gsl_matrix *T, const gsl_vector *v,
                              const fl_friction_set *C, double *gamma)
{
    size_t d = v->size;
    gsl_matrix *L = gsl_matrix_alloc(d, d);
    gsl_matrix_memcpy(L, M);
    gsl_linalg_cholesky_decomp1(L);
    gsl_vector *w[3], *u = gsl_vector_alloc(d);
    double nd = gsl_blas_dnrm2(dg), best = INFINITY;
    for (int j = 0; j < 3; j++) {
        w[j] = gsl_vector_alloc(d);
        for (size_t i = 0; i < d; i++)
            gsl_vector_set(w[j], i, j == 0 ? gsl_vector_get(dg, i) / nd : gsl_matrix_get(T, i, j - 1));
        gsl_linalg_cholesky_svx(L, w[j]);                    /* M^-1 n, M^-1 t_j */
    }
    double nv, nw[3];
    gsl_blas_ddot(dg, v, &nv);
    for (int j = 0; j < 3; j++) gsl_blas_ddot(dg, w[j], &nw[j]);
    size_t nvx = C->nvert;
    /* gamma = min_{c in C} <n, M^-1 (n + T c)> (000 §3): a vertex minimises */
    *gamma = INFINITY;
    for (size_t e = 0; e < nvx; e++)
        *gamma = fmin(*gamma, (nw[0] + C->vert[2 * e] * nw[1] + C->vert[2 * e + 1] * nw[2]) / nd);
    for (size_t e = 0; e < nvx; e++)
        for (int s = 0; s <= 200; s++)
            for (int in = 0; in <= 20; in++) {
                const double *p0 = C->vert + 2 * e, *p1 = C->vert + 2 * ((e + 1) % nvx);
                double t = s / 200.0, sh = in / 20.0;     /* edge point shrunk towards 0 (kept if in C) */
                double c[2] = {(1 - sh) * ((1 - t) * p0[0] + t * p1[0]), (1 - sh) * ((1 - t) * p0[1] + t * p1[1])};
                if (!fl_friction_set_contains(C, c, 0.0)) continue;
                double den = nw[0] + c[0] * nw[1] + c[1] * nw[2];
                if (!(den > 0)) continue;
                double rho = -nv / den;
                gsl_vector_memcpy(u, v);
                gsl_blas_daxpy(rho, w[0], u);
                gsl_blas_daxpy(rho * c[0], w[1], u);
                gsl_blas_daxpy(rho * c[1], w[2], u);
                best = fmin(best, kinetic(M, u));
            }
    for (int j = 0; j < 3; j++) gsl_vector_free(w[j]);
    gsl_vector_free(u);
    gsl_matrix_free(L);
    return best;
}

Test(twins, moreau_polygonal_sets_against_brute_force, .init = setup, .fini = teardown)
{
    gsl_rng *g = fl_test_rng(2603);
    const size_t d = 5;
    long slid = 0;
    for (int trial = 0; trial < 40; trial++) {
        gsl_matrix *M = gsl_matrix_alloc(d, d), *T = gsl_matrix_alloc(d, 2);
        gsl_vector *dg = gsl_vector_alloc(d), *v = gsl_vector_alloc(d);
        cr_assert_eq(fl_random_spd(g, 50.0, 1.0, M), FL_OK);
        fl_random_vector(g, 1.0, dg);
        for (size_t i = 0; i < d; i++)
            for (int j = 0; j < 2; j++) gsl_matrix_set(T, i, j, gsl_ran_gaussian(g, 1.0));
        fl_random_vector(g, 1.0, v);
        double vn;
        gsl_blas_ddot(v, dg, &vn);
        if (vn > 0) gsl_blas_daxpy(-2 * vn / pow(gsl_blas_dnrm2(dg), 2), dg, v);   /* approaching */
        fl_friction_set C;
        random_polygon(g, &C);
        cholmod_sparse *Ms = NULL;
        cr_assert_eq(fl_sparse_from_dense(&ctx, M, 1, 0.0, &Ms, NULL), FL_OK);
        fl_moreau_problem p = {.d = d, .M = M, .Msp = Ms, .ctx = &ctx, .gap = 0.0, .dgap = dg,
                               .friction = FL_MOREAU_SET, .tangent = T, .C = &C, .v = v};
        gsl_vector *u[2], *r[2];
        fl_moreau_result res[2];
        for (int k = 0; fl_moreau_types[k].name; k++) {
            u[k] = gsl_vector_alloc(d);
            r[k] = gsl_vector_alloc(d);
            fl_error err;
            cr_assert_eq(fl_moreau_types[k].law(&p, NULL, u[k], r[k], &res[k], &err), FL_OK, "%s: %s",
                         fl_moreau_types[k].name, err.message);
            cr_assert_eq(res[k].branch, FL_MOREAU_COLLISION);
            /* the answer is feasible: M (u - v) = a0 n + a1 t1 + a2 t2, a0 >= 0,
             * (a1, a2) / a0 in C, <n, u> = 0 (000 §2), and no point
             * c of C gives a smaller kinetic energy (brute force over C) */
            double a[3], K = kinetic(M, u[k]);
            cr_assert_leq(fit_reaction(M, dg, T, v, u[k], a), 1e-9, "%s trial %d: M(u - v) not in span(n, T)",
                          fl_moreau_types[k].name, trial);
            cr_assert_geq(a[0], -1e-12);
            double c[2] = {a[0] > 0 ? a[1] / a[0] : 0, a[0] > 0 ? a[2] / a[0] : 0};
            cr_assert(fl_friction_set_contains(&C, c, 1e-7), "%s trial %d: s / rho = (%g, %g) not in C",
                      fl_moreau_types[k].name, trial, c[0], c[1]);
            double un;
            gsl_blas_ddot(u[k], dg, &un);
            cr_assert_leq(fabs(un), 1e-9 * gsl_blas_dnrm2(v) * gsl_blas_dnrm2(dg), "<n, u> = %g", un);
            double gamma, Kmin = brute_force_min(M, dg, T, v, &C, &gamma);
            cr_assert_leq(fabs(res[k].gamma - gamma), 1e-10 * (fabs(gamma) + 1), "%s trial %d: gamma %.12g, over "
                          "the vertices %.12g %s", fl_moreau_types[k].name, trial, res[k].gamma, gamma, fl_test_seed_note());
            cr_assert_leq(K, Kmin * (1 + 1e-9) + 1e-14, "%s trial %d: |u|_M^2 = %.12g > %.12g over C %s",
                          fl_moreau_types[k].name, trial, K, Kmin, fl_test_seed_note());
            double yT[2];
            for (int j = 0; j < 2; j++) {
                gsl_vector_const_view tj = gsl_matrix_const_column(T, j);
                gsl_blas_ddot(&tj.vector, u[k], &yT[j]);
            }
            slid += k == 0 && hypot(yT[0], yT[1]) > 1e-6;
        }
        cr_assert_lt(fl_twins_rel_diff(u[0]->data, u[1]->data, d), 1e-8, "u, trial %d %s", trial,
                     fl_test_seed_note());
        cr_assert_lt(fl_twins_rel_diff(r[0]->data, r[1]->data, d), 1e-8, "r, trial %d %s", trial,
                     fl_test_seed_note());
        for (int k = 0; k < 2; k++) {
            gsl_vector_free(u[k]);
            gsl_vector_free(r[k]);
        }
        fl_sparse_free(&ctx, &Ms);
        fl_friction_set_release(&C);
        gsl_matrix_free(M);
        gsl_matrix_free(T);
        gsl_vector_free(dg);
        gsl_vector_free(v);
    }
    cr_assert_gt(slid, 5, "sliding answers (y_T != 0) reached: %ld", slid);
    gsl_rng_free(g);
}

/* NULL options: the documented defaults, for every table entry that takes
 * options on a local problem. */
Test(twins, null_options_mean_the_defaults, .init = setup, .fini = teardown)
{
    gsl_rng *g = fl_test_rng(2604);
    int cases[3] = {CASE_SLIDE, CASE_STICK, CASE_OPEN};
    fl_local_problem *p = known_problem(g, 3, 3, cases);
    for (int k = 0; k < FL_IMPL_COUNT; k++) {
        gsl_vector *a = gsl_vector_calloc(p->m), *b = gsl_vector_calloc(p->m);
        fl_nsgs_options on = fl_nsgs_options_default();
        cr_assert_eq(fl_nsgs_types[k].solve(p, NULL, a, NULL, NULL, NULL), FL_OK);
        cr_assert_eq(fl_nsgs_types[k].solve(p, &on, b, NULL, NULL, NULL), FL_OK);
        cr_assert_eq(fl_twins_rel_diff(a->data, b->data, p->m), 0.0, "nsgs %s", fl_nsgs_types[k].name);
        fl_newton_options ow = fl_newton_options_default();
        gsl_vector_set_zero(a);
        gsl_vector_set_zero(b);
        cr_assert_eq(fl_newton_types[k].solve(p, NULL, a, NULL, NULL, NULL), FL_OK);
        cr_assert_eq(fl_newton_types[k].solve(p, &ow, b, NULL, NULL, NULL), FL_OK);
        cr_assert_eq(fl_twins_rel_diff(a->data, b->data, p->m), 0.0, "newton %s", fl_newton_types[k].name);
        gsl_vector_free(a);
        gsl_vector_free(b);
        cr_assert_str_eq(fl_impl_name((fl_impl)k), fl_nsgs_types[k].name);
    }
    fl_impl im = FL_IMPL_REFERENCE;
    cr_assert_eq(fl_impl_parse("optimized", &im, NULL), FL_OK);
    cr_assert_eq(im, FL_IMPL_OPTIMIZED);
    cr_assert_eq(fl_impl_parse("fast", &im, NULL), FL_ENOTFOUND);
    cr_assert_eq(im, FL_IMPL_OPTIMIZED);
    cr_assert_null(fl_impl_name((fl_impl)5));
    cr_assert_null(fl_nsgs_type_get((fl_impl)5));
    /* every table has the two twins then its end */
    cr_assert_null(fl_delassus_types[2].name);
    cr_assert_null(fl_nsgs_types[2].name);
    cr_assert_null(fl_newton_types[2].name);
    cr_assert_null(fl_moreau_types[2].name);
    cr_assert_null(fl_p4_types[2].name);
    cr_assert_null(fl_stewart_types[2].name);
    cr_assert_null(fl_quasistatic_types[2].name);
    cr_assert_null(fl_stability_types[2].name);
    cr_assert_null(fl_midpoint_types[2].name);
    fl_local_problem_free(p);
    gsl_rng_free(g);
}
