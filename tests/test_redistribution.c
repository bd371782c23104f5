/* test_redistribution.c — the redistributed mass of 002 (6)
 * (reference/redistribution.c, proofs/redistribution.md): symmetric, PSD,
 * kernel exactly span{nu_i} (or span{nu_i, tau_i} for "both"), and the
 * mass Gram matrix of the affine fields (total mass, centre of gravity,
 * moments of inertia) kept; on FE meshes and on random systems. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort_vector.h>

#include "reference/fe2d.h"
#include "reference/redistribution.h"
#include "testkit/fl_random.h"

/* Sorted eigenvalues of a symmetric matrix. */
static gsl_vector *eigs(const gsl_matrix *A)
{
    size_t n = A->size1;
    gsl_matrix *C = gsl_matrix_alloc(n, n);
    gsl_matrix_memcpy(C, A);
    gsl_vector *ev = gsl_vector_alloc(n);
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(n);
    gsl_eigen_symm(C, ev, w);
    gsl_eigen_symm_free(w);
    gsl_matrix_free(C);
    gsl_sort_vector(ev);
    return ev;
}

static double gram_error(const gsl_matrix *M, const gsl_matrix *Mr, const gsl_matrix *R)
{
    size_t n = M->size1, k = R->size2;
    gsl_matrix *T = gsl_matrix_alloc(n, k), *G = gsl_matrix_alloc(k, k), *Gr = gsl_matrix_alloc(k, k);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, M, R, 0.0, T);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, R, T, 0.0, G);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, Mr, R, 0.0, T);
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, R, T, 0.0, Gr);
    double e = 0, g = 0;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            e = fmax(e, fabs(gsl_matrix_get(G, i, j) - gsl_matrix_get(Gr, i, j)));
            g = fmax(g, fabs(gsl_matrix_get(G, i, j)));
        }
    gsl_matrix_free(T); gsl_matrix_free(G); gsl_matrix_free(Gr);
    return e / g;
}

/* Check (6) with kernel = span of the rows of B (m rows). */
static void check_kernel(const gsl_matrix *Mr, const gsl_matrix *B, const char *what)
{
    size_t n = Mr->size1, m = B->size1;
    gsl_vector *ev = eigs(Mr);
    double top = gsl_vector_get(ev, n - 1);
    for (size_t i = 0; i < m; i++)
        cr_assert_lt(fabs(gsl_vector_get(ev, i)), 1e-12 * top, "%s: eigenvalue %zu = %g should be 0 (%s)",
                     what, i, gsl_vector_get(ev, i), fl_test_seed_note());
    cr_assert_gt(gsl_vector_get(ev, m), 1e-8 * top, "%s: kernel larger than %zu (%s)", what, m,
                 fl_test_seed_note());
    /* Mr b_i = 0 for every row b_i */
    gsl_vector *y = gsl_vector_alloc(n);
    for (size_t i = 0; i < m; i++) {
        gsl_vector_const_view b = gsl_matrix_const_row(B, i);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Mr, &b.vector, 0.0, y);
        cr_assert_lt(gsl_blas_dnrm2(y), 1e-12 * top, "%s: M_r nu_%zu != 0", what, i);
    }
    /* symmetric */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            cr_assert_eq(gsl_matrix_get(Mr, i, j), gsl_matrix_get(Mr, j, i));
    gsl_vector_free(y);
    gsl_vector_free(ev);
}

Test(redistribution, fe_block_normal_and_both_keep_mass_centre_and_inertia)
{
    for (int pat = 0; pat < 2; pat++) {
        fl_fe2d_mesh *mesh;
        cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 0.1, 0.1, 4, 4, (fl_fe2d_pattern)pat, &mesh, NULL), FL_OK);
        fl_fe2d_material mat = {3e8, 1.5e8, 1e3, FL_FE2D_PLANE_STRAIN};
        gsl_matrix *M, *R, *Bnu, *Btau;
        cr_assert_eq(fl_fe2d_assemble_dense(mesh, &mat, FL_FE2D_MASS, &M, NULL), FL_OK);
        cr_assert_eq(fl_fe2d_affine_fields(mesh, &R, NULL), FL_OK);
        size_t nc;
        int *bot;
        cr_assert_eq(fl_fe2d_nodes_on_line(mesh, 1, 0.0, 1e-12, &nc, &bot, NULL), FL_OK);
        double *nrm = calloc(2 * nc, sizeof(double));
        for (size_t i = 0; i < nc; i++) nrm[2 * i + 1] = -1.0;
        cr_assert_eq(fl_fe2d_contact_vectors(mesh, NULL, nc, bot, nrm, &Bnu, &Btau, NULL), FL_OK);
        fl_redistribution *rd;
        gsl_matrix *Mr;
        /* the paper's method: normal component only */
        cr_assert_eq(fl_redistribution_alloc(M, R, Bnu, Btau, FL_REDIST_NORMAL, &rd, NULL), FL_OK);
        cr_assert_eq(fl_redistribution_dense(rd, M, &Mr, NULL), FL_OK);
        check_kernel(Mr, Bnu, "normal");
        cr_assert_lt(gram_error(M, Mr, R), 1e-12, "mass, centre of gravity, inertia kept");
        /* total mass rho * area in both directions */
        gsl_vector_view ty = gsl_matrix_column(R, 1);
        gsl_vector *t = gsl_vector_alloc(M->size1);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Mr, &ty.vector, 0.0, t);
        double mass;
        gsl_blas_ddot(&ty.vector, t, &mass);
        cr_assert_float_eq(mass, 1e3 * 0.01, 1e-12);
        gsl_vector_free(t);
        gsl_matrix_free(Mr);
        fl_redistribution_free(rd);
        /* both components: kernel span{nu_i, tau_i} */
        cr_assert_eq(fl_redistribution_alloc(M, R, Bnu, Btau, FL_REDIST_BOTH, &rd, NULL), FL_OK);
        cr_assert_eq(fl_redistribution_dense(rd, M, &Mr, NULL), FL_OK);
        gsl_matrix *B2 = gsl_matrix_alloc(2 * nc, M->size1);
        for (size_t i = 0; i < nc; i++) {
            gsl_vector_view a = gsl_matrix_row(Bnu, i), b = gsl_matrix_row(Btau, i);
            gsl_matrix_set_row(B2, i, &a.vector);
            gsl_matrix_set_row(B2, nc + i, &b.vector);
        }
        check_kernel(Mr, B2, "both");
        cr_assert_lt(gram_error(M, Mr, R), 1e-12);
        gsl_matrix_free(B2);
        gsl_matrix_free(Mr);
        fl_redistribution_free(rd);
        /* none: M itself */
        cr_assert_eq(fl_redistribution_alloc(M, R, NULL, NULL, FL_REDIST_NONE, &rd, NULL), FL_OK);
        cr_assert_eq(fl_redistribution_dense(rd, M, &Mr, NULL), FL_OK);
        for (size_t i = 0; i < M->size1; i++)
            for (size_t j = 0; j < M->size2; j++)
                cr_assert_eq(gsl_matrix_get(Mr, i, j), gsl_matrix_get(M, i, j));
        gsl_matrix_free(Mr);
        fl_redistribution_free(rd);
        free(nrm); free(bot);
        gsl_matrix_free(M); gsl_matrix_free(R); gsl_matrix_free(Bnu); gsl_matrix_free(Btau);
        fl_fe2d_mesh_free(mesh);
    }
}

/* Random SPD M, random orthonormal rows (002 (4)), random fields R. */
Test(redistribution, random_systems_satisfy_6_and_keep_the_gram_matrix)
{
    gsl_rng *rng = fl_test_rng(2024);
    for (int trial = 0; trial < 40; trial++) {
        size_t n = 6 + gsl_rng_uniform_int(rng, 10);
        size_t nc = 1 + gsl_rng_uniform_int(rng, (n - 2) / 2 - 1);
        size_t k = 1 + gsl_rng_uniform_int(rng, n - 2 * nc - 1);
        gsl_matrix *M = gsl_matrix_alloc(n, n), *Q = gsl_matrix_alloc(n, n);
        gsl_matrix *Bnu = gsl_matrix_alloc(nc, n), *Btau = gsl_matrix_alloc(nc, n);
        gsl_matrix *R = gsl_matrix_alloc(n, k);
        cr_assert_eq(fl_random_spd(rng, 1e3, 1.0, M), FL_OK);
        cr_assert_eq(fl_random_orthogonal(rng, Q), FL_OK);
        for (size_t i = 0; i < nc; i++) {
            gsl_vector_view a = gsl_matrix_row(Q, i), b = gsl_matrix_row(Q, nc + i);
            gsl_matrix_set_row(Bnu, i, &a.vector);
            gsl_matrix_set_row(Btau, i, &b.vector);
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < k; j++) gsl_matrix_set(R, i, j, gsl_ran_gaussian(rng, 1.0));
        for (int kind = 1; kind <= 2; kind++) {
            fl_redistribution *rd;
            gsl_matrix *Mr;
            fl_error e;
            fl_status s = fl_redistribution_alloc(M, trial % 3 ? R : NULL, Bnu, Btau,
                                                  (fl_redist_kind)kind, &rd, &e);
            cr_assert_eq(s, FL_OK, "trial %d: %s (%s)", trial, e.message, fl_test_seed_note());
            cr_assert_eq(fl_redistribution_dense(rd, M, &Mr, NULL), FL_OK);
            gsl_matrix *B = gsl_matrix_alloc(kind == 1 ? nc : 2 * nc, n);
            for (size_t i = 0; i < B->size1; i++) {
                gsl_vector_view a = gsl_matrix_row(Q, i);
                gsl_matrix_set_row(B, i, &a.vector);
            }
            check_kernel(Mr, B, kind == 1 ? "normal (random)" : "both (random)");
            if (trial % 3)
                cr_assert_lt(gram_error(M, Mr, R), 1e-9, "trial %d (%s)", trial, fl_test_seed_note());
            gsl_matrix_free(B);
            gsl_matrix_free(Mr);
            fl_redistribution_free(rd);
        }
        gsl_matrix_free(M); gsl_matrix_free(Q); gsl_matrix_free(Bnu);
        gsl_matrix_free(Btau); gsl_matrix_free(R);
    }
    gsl_rng_free(rng);
}

Test(redistribution, bad_input)
{
    gsl_matrix *M = gsl_matrix_alloc(4, 4), *B = gsl_matrix_calloc(1, 4), *R = gsl_matrix_calloc(4, 1);
    gsl_matrix_set_identity(M);
    fl_redistribution *rd = (fl_redistribution *)1;
    fl_error e;
    /* row not unit */
    gsl_matrix_set(B, 0, 0, 2.0);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B, NULL, FL_REDIST_NORMAL, &rd, &e), FL_EINVAL);
    cr_assert_null(rd);
    gsl_matrix_set(B, 0, 0, 1.0);
    /* the preserved field lies in N: projected to zero */
    gsl_matrix_set(R, 0, 0, 1.0);
    cr_assert_eq(fl_redistribution_alloc(M, R, B, NULL, FL_REDIST_NORMAL, &rd, &e), FL_ESINGULAR);
    /* sizes */
    gsl_matrix *R5 = gsl_matrix_calloc(5, 1), *M23 = gsl_matrix_calloc(2, 3);
    cr_assert_eq(fl_redistribution_alloc(M, R5, B, NULL, FL_REDIST_NORMAL, &rd, &e), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M23, NULL, B, NULL, FL_REDIST_NORMAL, &rd, &e), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, NULL, NULL, FL_REDIST_NORMAL, &rd, &e), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B, NULL, FL_REDIST_BOTH, &rd, &e), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B, NULL, (fl_redist_kind)7, &rd, &e), FL_EINVAL);
    gsl_matrix_set(M, 1, 1, NAN);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B, NULL, FL_REDIST_NORMAL, &rd, &e), FL_ENONFINITE);
    gsl_matrix_set(M, 1, 1, 1.0);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B, NULL, FL_REDIST_NORMAL, &rd, &e), FL_OK);
    gsl_matrix *Mr;
    cr_assert_eq(fl_redistribution_dense(rd, M23, &Mr, &e), FL_EDIM);
    fl_redistribution_free(rd);
    fl_redistribution_free(NULL);
    gsl_matrix_free(M); gsl_matrix_free(B); gsl_matrix_free(R); gsl_matrix_free(R5); gsl_matrix_free(M23);
}
