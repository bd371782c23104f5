/* test_fl_problem.c — FCLIB local/global problem types (core/fl_problem.c):
 * allocation, checks, velocity with dense and sparse W, the Coulomb
 * violation measure on closed-form cases, the random generator, bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "fl_problem.h"
#include "fl_rng.h"

Test(fl_problem, velocity_dense_and_sparse_agree)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    double Wv[16] = {2, 1, 0, 0, 1, 3, 0, 1, 0, 0, 4, 0, 0, 1, 0, 5};
    for (int i = 0; i < 16; i++) p->W->data[i] = Wv[i];
    for (int i = 0; i < 4; i++) gsl_vector_set(p->q, i, i + 1.0);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    cr_assert_eq(fl_local_problem_check(p, NULL), FL_OK);
    gsl_vector *r = gsl_vector_alloc(4), *U1 = gsl_vector_alloc(4), *U2 = gsl_vector_alloc(4);
    for (int i = 0; i < 4; i++) gsl_vector_set(r, i, 1.0);
    cr_assert_eq(fl_local_problem_velocity(p, r, U1, NULL), FL_OK);
    gsl_matrix *W = p->W;
    p->W = NULL;
    cr_assert_eq(fl_local_problem_velocity(p, r, U2, NULL), FL_OK);
    p->W = W;
    /* closed form: row sums of W plus q */
    double expect[4] = {3 + 1, 5 + 2, 4 + 3, 6 + 4};
    for (int i = 0; i < 4; i++) {
        cr_assert_float_eq(gsl_vector_get(U1, i), expect[i], 1e-15);
        cr_assert_float_eq(gsl_vector_get(U2, i), expect[i], 1e-15);
    }
    fl_error err;
    gsl_vector *bad = gsl_vector_alloc(3);
    cr_assert_eq(fl_local_problem_velocity(p, U1, bad, &err), FL_EDIM);
    gsl_vector_free(bad);
    gsl_vector_free(r);
    gsl_vector_free(U1);
    gsl_vector_free(U2);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
}

Test(fl_problem, coulomb_violation_closed_forms)
{
    double mu = 0.5;
    double r_ok[2] = {2, -1}, U_ok[2] = {0, 3};            /* slide, r_T = -mu r_N */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_ok, U_ok, 1, 1), 0.0, 1e-15);
    double r_st[3] = {2, 0.5, 0.1}, U_st[3] = {0, 0, 0};   /* stick inside */
    cr_assert_float_eq(fl_coulomb_violation(3, 1, &mu, r_st, U_st, 1, 1), 0.0, 1e-15);
    double r_bad[2] = {2, 0}, U_bad[2] = {0.5, 0};         /* r_N U_N > 0: min(2, 0.5) */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_bad, U_bad, 1, 1), 0.5, 1e-15);
    double r_out[2] = {1, 2}, U0[2] = {0, 0};              /* outside the cone by 1.5 */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_out, U0, 1, 1), 1.5, 1e-15);
    double r_neg[2] = {0, 0}, U_neg[2] = {-0.25, 0};        /* penetration */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_neg, U_neg, 1, 1), 0.25, 1e-15);
    double r_dir[2] = {2, 1}, U_dir[2] = {0, 3};           /* friction along U_T: |1 + 1| = 2, |U_T| = 3 */
    cr_assert_float_eq(fl_coulomb_violation(2, 1, &mu, r_dir, U_dir, 1, 1), 2.0, 1e-15);
}

Test(fl_problem, random_global_and_bad_input)
{
    gsl_rng *r = fl_rng_alloc(3);
    fl_global_problem *g = NULL;
    fl_error err;
    cr_assert_eq(fl_global_problem_random(r, 8, 3, 2, 0.1, 1.0, &g, NULL), FL_OK);
    for (size_t a = 0; a < 3; a++) cr_assert(g->mu[a] >= 0.1 && g->mu[a] <= 1.0);
    cr_assert_eq(g->m, 6);
    fl_global_problem_free(g);
    cr_assert_eq(fl_global_problem_random(r, 8, 3, 2, 0.0, 1.0, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_random(NULL, 8, 3, 2, 0.1, 1.0, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_alloc(0, 3, 2, 1, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_alloc(3, 3, 5, 1, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_global_problem_alloc(3, 3, 2, 1, NULL, &err), FL_EINVAL);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_local_problem_alloc(1, 2, 0, &p, &err), FL_OK);
    cr_assert_eq(fl_local_problem_check(p, &err), FL_EINVAL);       /* no W */
    p->W = gsl_matrix_alloc(3, 3);
    gsl_matrix_set_identity(p->W);
    cr_assert_eq(fl_local_problem_check(p, &err), FL_EDIM);
    gsl_matrix_free(p->W);
    p->W = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(p->W, 0, 0, NAN);
    cr_assert_eq(fl_local_problem_check(p, &err), FL_ENONFINITE);
    gsl_matrix_set(p->W, 0, 0, 1);
    p->mu[0] = INFINITY;
    cr_assert_eq(fl_local_problem_check(p, &err), FL_ENONFINITE);
    p->mu[0] = 0;
    p->m = 5;
    cr_assert_eq(fl_local_problem_check(p, &err), FL_EINVAL);
    p->m = 2;
    cr_assert_eq(fl_local_problem_check(NULL, &err), FL_EINVAL);
    gsl_matrix *W = p->W;
    p->W = NULL;
    gsl_vector *v = gsl_vector_alloc(2);
    cr_assert_eq(fl_local_problem_velocity(p, v, v, &err), FL_EINVAL);
    p->W = W;
    gsl_vector_free(v);
    fl_local_problem_free(p);
    gsl_rng_free(r);
}

/* One validation for both twins (fl_local_problem_check): the dense and the
 * sparse Gauss-Seidel get the same bad and borderline problems and must
 * return the same status.  Each case edits one entry of a good 2-contact 3D
 * problem (W = diag + coupling, q pushing both contacts closed). */
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "optimized/nsgs_sparse.h"
#include "optimized/delassus_sparse.h"

typedef struct twin_case {
    const char *what;
    int i, j;           /* W entry to set (i >= 0), or -1 */
    double wv;
    int qi;             /* q entry to set, or -1 */
    double qv;
    int mui;            /* mu entry to set, or -1 */
    double muv;
    fl_status want;     /* the common verdict (>= 0: accepted) */
} twin_case;

Test(fl_problem, twins_refuse_and_accept_alike)
{
    static const twin_case cases[] = {
        {"good", -1, 0, 0, -1, 0, -1, 0, FL_OK},
        {"NaN in q", -1, 0, 0, 2, NAN, -1, 0, FL_ENONFINITE},
        {"Inf in q", -1, 0, 0, 0, INFINITY, -1, 0, FL_ENONFINITE},
        {"Inf in W", 1, 4, INFINITY, -1, 0, -1, 0, FL_ENONFINITE},
        {"NaN in W", 0, 0, NAN, -1, 0, -1, 0, FL_ENONFINITE},
        {"negative mu", -1, 0, 0, -1, 0, 1, -0.1, FL_EINVAL},
        {"NaN mu", -1, 0, 0, -1, 0, 0, NAN, FL_ENONFINITE},
        {"mu = 0 (frictionless, borderline)", -1, 0, 0, -1, 0, 0, 0.0, FL_OK},
        {"nonsymmetric W (accepted: rows are read)", 0, 3, 0.4, -1, 0, -1, 0, FL_OK},
        {"asymmetry at rounding level", 3, 0, 0.1 + 1e-17, -1, 0, -1, 0, FL_OK},
    };
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const twin_case *k = &cases[c];
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_local_problem_alloc(2, 3, 1, &p, NULL), FL_OK);
        for (size_t i = 0; i < 6; i++) gsl_matrix_set(p->W, i, i, 2.0 + 0.1 * (double)i);
        gsl_matrix_set(p->W, 0, 3, 0.1);
        gsl_matrix_set(p->W, 3, 0, 0.1);
        gsl_vector_set(p->q, 0, -1.0);
        gsl_vector_set(p->q, 3, -0.5);
        gsl_vector_set(p->q, 1, 0.3);
        p->mu[0] = 0.3;
        p->mu[1] = 0.6;
        if (k->i >= 0) gsl_matrix_set(p->W, (size_t)k->i, (size_t)k->j, k->wv);
        if (k->qi >= 0) gsl_vector_set(p->q, (size_t)k->qi, k->qv);
        if (k->mui >= 0) p->mu[k->mui] = k->muv;
        /* the sparse twin's W from the same entries (NaN/Inf kept) */
        int row[36], col[36];
        double val[36];
        size_t nnz = 0;
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++)
                if (gsl_matrix_get(p->W, i, j) != 0.0) {
                    row[nnz] = i;
                    col[nnz] = j;
                    val[nnz++] = gsl_matrix_get(p->W, i, j);
                }
        cholmod_sparse *Ws = cholmod_allocate_sparse(6, 6, nnz, 1, 1, 0, CHOLMOD_REAL, &ctx.cm);
        cr_assert_not_null(Ws);
        int *Wp = Ws->p, *Wi = Ws->i;
        double *Wx = Ws->x;
        size_t at = 0;
        for (int j = 0; j < 6; j++) {
            Wp[j] = (int)at;
            for (size_t t = 0; t < nnz; t++)
                if (col[t] == j) {
                    Wi[at] = row[t];
                    Wx[at++] = val[t];
                }
        }
        Wp[6] = (int)at;
        p->Ws = Ws;
        p->ctx = &ctx;
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1e-12;
        gsl_vector *r1 = gsl_vector_calloc(6), *r2 = gsl_vector_calloc(6);
        fl_error e1, e2;
        fl_status s1 = fl_nsgs_solve(p, &o, r1, NULL, NULL, &e1);
        fl_status s2 = fl_nsgs_solve_sparse(p, &o, r2, NULL, NULL, &e2);
        cr_assert_eq(s1, s2, "%s: reference %d (%s), optimized %d (%s)", k->what, s1,
                     s1 ? e1.message : "", s2, s2 ? e2.message : "");
        if (k->want < 0) cr_assert_eq(s1, k->want, "%s: status %d, want %d", k->what, s1, k->want);
        else cr_assert_geq(s1, 0, "%s: refused (%s)", k->what, e1.message);
        if (s1 == FL_OK)   /* accepted: the same r (rows of W in both) */
            for (size_t i = 0; i < 6; i++)
                cr_assert(fabs(gsl_vector_get(r1, i) - gsl_vector_get(r2, i)) <= 1e-12,
                          "%s: r[%zu] %g vs %g", k->what, i, gsl_vector_get(r1, i),
                          gsl_vector_get(r2, i));
        gsl_vector_free(r1);
        gsl_vector_free(r2);
        fl_local_problem_free(p);
    }
    fl_sparse_finish(&ctx);
}

/* Zero contacts is a valid problem; symmetry is measured with the stated
 * relative tolerance and the refusal names the largest asymmetry. */
Test(fl_problem, zero_contacts_and_symmetry_tolerance)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(0, 3, 1, &p, NULL), FL_OK);
    cr_assert_eq(p->m, 0);
    cr_assert_eq(fl_local_problem_check(p, NULL), FL_OK);
    fl_local_problem_free(p);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(4, 0, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    cr_assert_eq(fl_global_problem_check(g, NULL), FL_OK);
    fl_global_problem_free(g);
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set(p->W, 0, 0, 1.0);
    gsl_matrix_set(p->W, 1, 1, 1.0);
    gsl_matrix_set(p->W, 0, 1, 0.5);
    gsl_matrix_set(p->W, 1, 0, 0.5 + 0.5 * FL_SYMMETRY_RTOL);   /* within */
    fl_error err;
    cr_assert_eq(fl_local_problem_check_symmetric(p, "test solver", &err), FL_OK);
    gsl_matrix_set(p->W, 1, 0, 0.5 + 2 * FL_SYMMETRY_RTOL);     /* beyond */
    cr_assert_eq(fl_local_problem_check_symmetric(p, "test solver", &err), FL_EINVAL);
    cr_assert(strstr(err.message, "test solver needs a symmetric W") != NULL, "%s", err.message);
    cr_assert(strstr(err.message, "W(1,0) - W(0,1)") != NULL, "%s", err.message);
    double asym;
    size_t i, j;
    cr_assert_eq(fl_local_problem_asymmetry(p, &asym, &i, &j, NULL, NULL), FL_OK);
    cr_assert_float_eq(asym, 2 * FL_SYMMETRY_RTOL, 1e-15);
    fl_local_problem_free(p);
}

/* Zero contacts through both Gauss-Seidel twins; the asymmetry of a sparse
 * W (the sparse twin's path) equals the dense one's; the global check
 * refuses what it must. */
Test(fl_problem, zero_contacts_twins_sparse_asymmetry_global_check)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(0, 2, 1, &p, NULL), FL_OK);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    fl_nsgs_options o = fl_nsgs_options_default();
    fl_nsgs_result r1, r2;
    fl_error err;
    cr_assert_eq(fl_nsgs_solve(p, &o, NULL, NULL, &r1, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_nsgs_solve_sparse(p, &o, NULL, NULL, &r2, &err), FL_OK, "%s", err.message);
    cr_assert_eq(r1.iterations, 0);
    cr_assert_eq(r2.iterations, 0);
    fl_local_problem_free(p);
    /* sparse asymmetry = dense asymmetry: W(2,0) - W(0,2) = 0.3 is the largest */
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    for (size_t i = 0; i < 4; i++) gsl_matrix_set(p->W, i, i, 4.0);
    gsl_matrix_set(p->W, 2, 0, 0.5);
    gsl_matrix_set(p->W, 0, 2, 0.2);
    gsl_matrix_set(p->W, 3, 1, 0.1);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    double a1, a2, s1, s2;
    size_t i1, j1, i2, j2;
    cr_assert_eq(fl_local_problem_asymmetry(p, &a1, &i1, &j1, &s1, NULL), FL_OK);
    gsl_matrix *W = p->W;
    p->W = NULL;
    cr_assert_eq(fl_local_problem_asymmetry(p, &a2, &i2, &j2, &s2, NULL), FL_OK);
    cr_assert_eq(fl_local_problem_check_symmetric(p, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "this solver needs a symmetric W") != NULL, "%s", err.message);
    p->W = W;
    cr_assert_float_eq(a1, 0.3, 1e-15);
    cr_assert_float_eq(a2, 0.3, 1e-15);
    cr_assert(i1 == 2 && j1 == 0 && i2 == 2 && j2 == 0, "(%zu,%zu) (%zu,%zu)", i1, j1, i2, j2);
    cr_assert_eq(s1, 4.0);
    cr_assert_eq(s2, 4.0);
    fl_local_problem_free(p);
    /* global check */
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(3, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    cr_assert_eq(fl_global_problem_check(g, NULL), FL_OK);
    gsl_matrix_set(g->M, 0, 1, 0.5);
    cr_assert_eq(fl_global_problem_check(g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "M not symmetric") != NULL, "%s", err.message);
    gsl_matrix_set(g->M, 0, 1, 0.0);
    gsl_vector_set(g->f, 1, NAN);
    cr_assert_eq(fl_global_problem_check(g, &err), FL_ENONFINITE);
    gsl_vector_set(g->f, 1, 0.0);
    g->mu[0] = -1;
    cr_assert_eq(fl_global_problem_check(g, &err), FL_EINVAL);
    g->mu[0] = 0.1;
    gsl_matrix_set(g->H, 1, 2, INFINITY);
    cr_assert_eq(fl_global_problem_check(g, &err), FL_ENONFINITE);
    gsl_matrix_set(g->H, 1, 2, 0.0);
    gsl_matrix *H = g->H;
    g->H = NULL;
    cr_assert_eq(fl_global_problem_check(g, &err), FL_EINVAL);
    g->H = H;
    cr_assert_eq(fl_global_problem_check(NULL, &err), FL_EINVAL);
    fl_global_problem_free(g);
    cr_assert_eq(fl_global_problem_alloc(0, 1, 2, 1, &g, &err), FL_EINVAL);
    size_t nnz = 3;
    int *row = malloc(3 * sizeof *row), *col = malloc(3 * sizeof *col);
    double *val = malloc(3 * sizeof *val);
    row[0] = 0, col[0] = 0, val[0] = 2.0;
    row[1] = 0, col[1] = 1, val[1] = 1.0;
    row[2] = 1, col[2] = 0, val[2] = 1.0 + 1e-9;
    double asym, scale;
    cr_assert_eq(fl_triplet_asymmetry(nnz, row, col, val, &asym, NULL, NULL, &scale, NULL), FL_OK);
    cr_assert_float_eq(asym, 1e-9, 1e-15);
    cr_assert_eq(fl_triplet_symmetrize(&nnz, &row, &col, &val, NULL), FL_OK);
    cr_assert_eq(nnz, 5);
    cr_assert_eq(fl_triplet_asymmetry(nnz, row, col, val, &asym, NULL, NULL, &scale, NULL), FL_OK);
    cr_assert_leq(asym, 1e-16);
    free(row);
    free(col);
    free(val);
    fl_sparse_finish(&ctx);
}

/* A global problem without contact reduces to an empty local problem in
 * both Delassus twins (and the CLI then reports v = M^-1 f). */
Test(fl_problem, delassus_twins_without_contact)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(4, 0, 3, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    g->ctx = &ctx;
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert(p->nc == 0 && p->m == 0 && p->W);
    fl_local_problem_free(p);
    cholmod_factor *L = NULL;
    cr_assert_eq(fl_delassus_sparse(g, NULL, &L, &p, &err), FL_OK, "%s", err.message);
    cr_assert(p->nc == 0 && p->m == 0 && p->Ws);
    cr_assert_eq(fl_local_problem_check(p, NULL), FL_OK);
    fl_local_problem_free(p);
    fl_sparse_free_factor(&ctx, &L);
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
}

/* Problem allocation never aborts (fl_dense.h, Allocation): with GSL's
 * default (aborting) handler installed, sizes no machine has (8 TB of
 * doubles for f, q; 32 TB for a dense M) come back as FL_ENOMEM. */
Test(fl_problem, huge_problems_fail_with_enomem_not_abort)
{
    gsl_set_error_handler(NULL);
    fl_error e;
    fl_global_problem *g = NULL;
    fl_error_clear(&e);
    cr_assert_eq(fl_global_problem_alloc((size_t)1 << 40, 0, 3, 0, &g, &e), FL_ENOMEM);
    cr_assert_null(g);
    cr_assert_eq(e.status, FL_ENOMEM);
    cr_assert_eq(fl_global_problem_alloc((size_t)1 << 21, 1, 3, 1, &g, &e), FL_ENOMEM);
    cr_assert_null(g);
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc((size_t)1 << 38, 3, 0, &p, &e), FL_ENOMEM);
    cr_assert_null(p);
    cr_assert_eq(fl_local_problem_alloc((size_t)1 << 21, 3, 1, &p, &e), FL_ENOMEM);
    cr_assert_null(p);
}

/* fl_global_problem_check names the field it refuses: one good global
 * problem (dense and sparse M, H), then one field broken at a time. */
typedef enum gfield {
    G_GOOD, G_DIM, G_N0, G_F_NULL, G_W_SIZE, G_F_NAN, G_W_INF, G_MU_NEG, G_M_MISSING,
    G_H_MISSING, G_M_SIZE, G_M_NAN, G_M_ASYM, G_H_SIZE, G_H_NAN, G_NO_CTX, G_MS_SIZE, G_MS_NAN,
    G_HS_NAN, G_MU_ZERO, G_NFIELD
} gfield;

Test(fl_problem, global_check_names_each_field)
{
    static const struct {
        gfield f;
        fl_status want;
        const char *names;
    } cases[] = {
        {G_GOOD, FL_OK, NULL},
        {G_DIM, FL_EINVAL, "inconsistent dim 4"},
        {G_N0, FL_EINVAL, "n 0"},
        {G_F_NULL, FL_EDIM, "f must have length 6"},
        {G_W_SIZE, FL_EDIM, "w 6"},
        {G_F_NAN, FL_ENONFINITE, "f"},
        {G_W_INF, FL_ENONFINITE, "w"},
        {G_MU_NEG, FL_EINVAL, "mu"},
        {G_M_MISSING, FL_EINVAL, "M missing"},
        {G_H_MISSING, FL_EINVAL, "H missing"},
        {G_M_SIZE, FL_EDIM, "M is 5x5, expected 6x6"},
        {G_M_NAN, FL_ENONFINITE, "M"},
        {G_M_ASYM, FL_EINVAL, "M not symmetric: |M(3,1) - M(1,3)|"},
        {G_H_SIZE, FL_EDIM, "H is 5x5, expected 6x6"},
        {G_H_NAN, FL_ENONFINITE, "H"},
        {G_NO_CTX, FL_EINVAL, "sparse M: sparse matrix without its context"},
        {G_MS_SIZE, FL_EDIM, "sparse M is 5x5"},
        {G_MS_NAN, FL_ENONFINITE, "sparse M has a NaN/Inf entry"},
        {G_HS_NAN, FL_ENONFINITE, "sparse H has a NaN/Inf entry"},
        {G_MU_ZERO, FL_OK, NULL},
    };
    cr_assert_eq(sizeof cases / sizeof *cases, G_NFIELD);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 3);
    gsl_matrix *M5 = gsl_matrix_calloc(5, 5);
    gsl_matrix_set_identity(M5);
    cholmod_sparse *S5 = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, M5, 1, 0.0, &S5, NULL), FL_OK);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_random(rng, 6, 2, 3, 0.1, 0.8, &g, NULL), FL_OK);
        g->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, g->M, 1, 0.0, &g->Ms, NULL), FL_OK);
        cr_assert_eq(fl_sparse_from_dense(&ctx, g->H, 0, 0.0, &g->Hs, NULL), FL_OK);
        gsl_matrix *M = g->M, *H = g->H;
        cholmod_sparse *Ms = g->Ms, *Hs = g->Hs;
        gsl_vector *f = g->f;
        size_t n = g->n;
        int dim = g->dim;
        switch (cases[k].f) {
        case G_GOOD: break;
        case G_DIM: g->dim = 4; break;
        case G_N0: g->n = 0; break;
        case G_F_NULL: g->f = NULL; break;
        case G_W_SIZE: g->w->size = 5; break;
        case G_F_NAN: gsl_vector_set(g->f, 2, NAN); break;
        case G_W_INF: gsl_vector_set(g->w, 1, INFINITY); break;
        case G_MU_NEG: g->mu[1] = -0.5; break;
        case G_M_MISSING: g->M = NULL; g->Ms = NULL; break;
        case G_H_MISSING: g->H = NULL; g->Hs = NULL; break;
        case G_M_SIZE: g->M = M5; break;
        case G_M_NAN: gsl_matrix_set(g->M, 4, 4, NAN); break;
        case G_M_ASYM: gsl_matrix_set(g->M, 3, 1, gsl_matrix_get(g->M, 3, 1) + 1.0); break;
        case G_H_SIZE: g->H = M5; break;
        case G_H_NAN: gsl_matrix_set(g->H, 0, 3, NAN); break;
        case G_NO_CTX: g->ctx = NULL; break;
        case G_MS_SIZE: g->Ms = S5; break;
        case G_MS_NAN: ((double *)g->Ms->x)[0] = NAN; break;
        case G_HS_NAN: ((double *)g->Hs->x)[1] = INFINITY; break;
        case G_MU_ZERO: g->mu[0] = g->mu[1] = 0.0; break;
        case G_NFIELD: break;
        }
        fl_error e;
        fl_error_clear(&e);
        fl_status s = fl_global_problem_check(g, &e);
        cr_assert_eq(s, cases[k].want, "case %zu: status %d, want %d (%s)", k, s, cases[k].want,
                     e.message);
        if (cases[k].names)
            cr_assert(strstr(e.message, cases[k].names), "case %zu: '%s' should name '%s'", k,
                      e.message, cases[k].names);
        /* restore what the problem owns before freeing it */
        g->M = M;
        g->H = H;
        g->Ms = Ms;
        g->Hs = Hs;
        g->f = f;
        g->n = n;
        g->dim = dim;
        g->w->size = g->m;
        g->ctx = &ctx;
        fl_sparse_free(&ctx, &g->Ms);
        fl_sparse_free(&ctx, &g->Hs);
        fl_global_problem_free(g);
    }
    fl_sparse_free(&ctx, &S5);
    gsl_matrix_free(M5);
    gsl_rng_free(rng);
    fl_sparse_finish(&ctx);
}
