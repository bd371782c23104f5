/* test_small_kernels_refusals.c — argument checks and degenerate cases of the
 * smaller kernels: P1 finite elements and their mesh reader
 * (reference/fe2d.c: every malformed file refused with its line), mass
 * redistribution (reference/redistribution.c), the quasistatic increment of
 * 004 §5.3 (reference/quasistatic.c and optimized/quasistatic_sparse.c fed
 * the same bad arguments: same status) and the asymptotics of 000 §3
 * (reference/asymptotics.c).
 *
 * Closed forms: the quasistatic step without contact (np = 0) solves
 * K u = f, so with K = diag(2, 4) and f = (2, -2), u = (1, -1/2) for both
 * twins; a P1 triangle (0,0), (1,0), (0,1) has twice-area 1 and the lumped
 * mass rho/6 per node. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fl_rng.h"
#include "fl_sparse.h"
#include "reference/asymptotics.h"
#include "reference/fe2d.h"
#include "reference/quasistatic.h"
#include "reference/enumerate.h"
#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "reference/redistribution.h"
#include "optimized/quasistatic_sparse.h"
#include "twin_check.h"
#include "drivers/fl_types.h"

/* ---- mesh files ---------------------------------------------------------- */

static char mesh_path[64];

static const char *write_mesh(const char *text)
{
    snprintf(mesh_path, sizeof mesh_path, "/tmp/fl_cov_mesh_%d.txt", (int)getpid());
    FILE *f = fopen(mesh_path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return mesh_path;
}

Test(cov_fe2d, mesh_reader_names_the_bad_line)
{
    struct {
        const char *text;
        fl_status st;
        int line;
        const char *needle;
    } cases[] = {
        {"nodes 2\n0 0\n1 0\n", FL_EPARSE, 1, "nodes N' with N >= 3"},
        {"# a comment\n  \t\n\r\nnodes 3\n0 0\n1 0\nnan 1\n", FL_EPARSE, 7, "node 2"},
        {"nodes 3\n0 0\n1 0\n0 1 7\n", FL_EPARSE, 4, "node 2"},
        {"nodes 3\n0 0\n1 0\n", FL_EPARSE, 3, "node 2"},
        {"nodes 3\n0 0\n1 0\n0 1\ntriangles 0\n", FL_EPARSE, 5, "triangles T' with T >= 1"},
        {"nodes 3\n0 0\n1 0\n0 1\n", FL_EPARSE, 4, "triangles T"},
        {"nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n0 1 5\n", FL_EINVAL, 6, "node index 5 out of range"},
        {"nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n-1 1 2\n", FL_EINVAL, 6, "node index -1"},
        {"nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n0 1\n", FL_EPARSE, 6, "three node indices"},
        {"nodes 3\n0 0\n1 0\n2 0\ntriangles 1\n0 1 2\n", FL_EINVAL, 6, "degenerate"},
        {"nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n0 1 2\n0 1 2\n", FL_EPARSE, 7, "after the last"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const char *path = write_mesh(cases[c].text);
        fl_fe2d_mesh *m = NULL;
        fl_error err;
        cr_assert_eq(fl_fe2d_mesh_read(path, &m, &err), cases[c].st, "case %zu: %s", c, err.message);
        cr_assert_null(m);
        cr_assert_eq(err.line, cases[c].line, "case %zu: line %d", c, err.line);
        cr_assert_str_eq(err.file, path);
        cr_assert(strstr(err.message, cases[c].needle), "case %zu: %s", c, err.message);
    }
    /* a clockwise triangle is reoriented; comments and blank lines skipped */
    const char *path = write_mesh("# unit triangle\nnodes 3\n\t0 0\n0 1\n1 0\n\ntriangles 1\n0 1 2\n");
    fl_fe2d_mesh *m = NULL;
    cr_assert_eq(fl_fe2d_mesh_read(path, &m, NULL), FL_OK);
    double c[6];
    for (int k = 0; k < 3; k++) {
        c[2 * k] = m->xy[2 * m->tri[k]];
        c[2 * k + 1] = m->xy[2 * m->tri[k] + 1];
    }
    cr_assert_eq(fl_fe2d_twice_area(c), 1.0);
    fl_fe2d_mesh_free(m);
    unlink(mesh_path);
}

Test(cov_fe2d, elements_meshes_and_maps_refuse_bad_arguments)
{
    fl_error err;
    fl_fe2d_mesh *m = NULL;
    /* rectangles */
    const double bad[6][4] = {{0, 0, 0, 1}, {0, 0, 1, -1}, {0, 0, INFINITY, 1},
                              {0, 0, 1, NAN}, {NAN, 0, 1, 1}, {0, INFINITY, 1, 1}};
    for (int k = 0; k < 6; k++) {
        cr_assert_eq(fl_fe2d_mesh_rect(bad[k][0], bad[k][1], bad[k][2], bad[k][3], 2, 2,
                                       FL_FE2D_DIAG_RIGHT, &m, &err), FL_EINVAL, "case %d", k);
        cr_assert_null(m);
    }
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 0, 2, FL_FE2D_DIAG_RIGHT, &m, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 2, 2, (fl_fe2d_pattern)9, &m, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown diagonal pattern 9"));
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 1, 1, FL_FE2D_DIAG_RIGHT, &m, &err), FL_OK);
    /* materials */
    fl_fe2d_material mat = {.lambda = 1, .mu = 1, .rho = 1, .model = FL_FE2D_PLANE_STRAIN};
    double D[9], K[36], Me[36];
    fl_fe2d_material bm[6] = {mat, mat, mat, mat, mat, mat};
    bm[0].lambda = NAN;
    bm[1].mu = INFINITY;
    bm[2].rho = NAN;
    bm[3].lambda = -1;
    bm[4].mu = 0;
    bm[5].rho = 0;
    for (int k = 0; k < 6; k++) {
        cr_assert_eq(fl_fe2d_elasticity(&bm[k], D, &err), FL_EINVAL, "material %d", k);
        cr_assert(strstr(err.message, "material needs"));
    }
    cr_assert_eq(fl_fe2d_elasticity(NULL, D, &err), FL_EINVAL);
    bm[0] = mat;
    bm[0].model = (fl_fe2d_model)5;
    cr_assert_eq(fl_fe2d_elasticity(&bm[0], D, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown elasticity model 5"));
    /* degenerate and non-finite triangles; densities */
    const double flat[6] = {0, 0, 1, 0, 2, 0}, inf[6] = {0, 0, INFINITY, 0, 0, 1};
    const double unit[6] = {0, 0, 1, 0, 0, 1};
    cr_assert_eq(fl_fe2d_element_stiffness(flat, &mat, K, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_element_stiffness(inf, &mat, K, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_element_stiffness(unit, &bm[0], K, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_element_mass(flat, 1, 0, Me, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_element_mass(inf, 1, 1, Me, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_element_mass(unit, 0, 0, Me, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_element_mass(unit, NAN, 0, Me, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "density"));
    cr_assert_eq(fl_fe2d_element_mass(unit, 3, 1, Me, &err), FL_OK);
    cr_assert(fabs(Me[0] - 0.5) <= 1e-15 && Me[1] == 0);   /* rho area / 3 = 3 (1/2) / 3 */
    /* assemblies of an empty mesh or an unknown kind */
    size_t nnz;
    int *row, *col;
    double *val;
    gsl_matrix *A = NULL;
    cr_assert_eq(fl_fe2d_assemble_triplets(NULL, &mat, FL_FE2D_MASS, &nnz, &row, &col, &val, &err),
                 FL_EINVAL);
    cr_assert_eq(fl_fe2d_assemble_triplets(m, &mat, (fl_fe2d_matrix)8, &nnz, &row, &col, &val, &err),
                 FL_EINVAL);
    cr_assert(strstr(err.message, "unknown matrix kind 8"));
    cr_assert_eq(fl_fe2d_assemble_dense(m, &bm[3], FL_FE2D_STIFFNESS, &A, &err), FL_EINVAL);
    cr_assert_null(A);
    cr_assert_eq(fl_fe2d_affine_fields(NULL, &A, &err), FL_EINVAL);
    /* dof maps */
    fl_fe2d_dofmap *map = NULL;
    const int dofs[2] = {1, 1};
    const double vals[2] = {0, NAN};
    cr_assert_eq(fl_fe2d_dofmap_alloc(8, 2, dofs, NULL, &map, &err), FL_EINVAL);   /* repeated */
    cr_assert(strstr(err.message, "fixed dof 1 (entry 1)"));
    const int dofs2[2] = {1, 9}, dofs3[2] = {-1, 2}, dofs4[2] = {1, 2};
    cr_assert_eq(fl_fe2d_dofmap_alloc(8, 2, dofs2, NULL, &map, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_dofmap_alloc(8, 2, dofs3, NULL, &map, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_dofmap_alloc(8, 2, dofs4, vals, &map, &err), FL_EINVAL);
    cr_assert_null(map);
    cr_assert_eq(fl_fe2d_dofmap_alloc(8, 2, dofs4, NULL, &map, &err), FL_OK);
    /* nodes on a line: bad axis, negative tolerance; the unit square's
     * bottom side holds nodes 0 and 1 in increasing x */
    size_t cnt;
    int *idx = NULL;
    cr_assert_eq(fl_fe2d_nodes_on_line(m, 2, 0, 1e-12, &cnt, &idx, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_nodes_on_line(m, 0, 0, -1, &cnt, &idx, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_nodes_on_line(m, 0, 0, NAN, &cnt, &idx, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_nodes_on_line(NULL, 0, 0, 0, &cnt, &idx, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_nodes_on_line(m, 1, 0, 1e-12, &cnt, &idx, &err), FL_OK);
    cr_assert_eq(cnt, 2);
    cr_assert(idx[0] == 0 && idx[1] == 1);
    free(idx);
    /* reduction: sizes */
    gsl_matrix *K8 = gsl_matrix_calloc(8, 8), *K7 = gsl_matrix_calloc(7, 7), *R = NULL;
    gsl_vector *sh5 = gsl_vector_alloc(5);
    cr_assert_eq(fl_fe2d_reduce_matrix(K7, map, &R, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_fe2d_reduce_matrix(K8, map, &R, sh5, &err), FL_EDIM);
    cr_assert_eq(fl_fe2d_reduce_matrix(NULL, map, &R, NULL, &err), FL_EDIM);
    cr_assert_eq(fl_fe2d_reduce_matrix(K8, NULL, &R, NULL, &err), FL_EDIM);
    cr_assert_null(R);
    /* contact vectors: no node, bad node, zero or non-finite normal, map size */
    gsl_matrix *Bn = NULL, *Bt = NULL;
    const int node0[1] = {0}, node9[1] = {9};
    const double nrm[2] = {0, -1}, zero[2] = {0, 0}, nanv[2] = {NAN, 1};
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 0, node0, nrm, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, NULL, nrm, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, node0, NULL, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, node9, nrm, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "contact node 9 out of range"));
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, node0, zero, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, node0, nanv, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "zero or non-finite normal"));
    fl_fe2d_dofmap *map6 = NULL;
    cr_assert_eq(fl_fe2d_dofmap_alloc(6, 0, NULL, NULL, &map6, &err), FL_OK);
    cr_assert_eq(fl_fe2d_contact_vectors(m, map6, 1, node0, nrm, &Bn, &Bt, &err), FL_EDIM);
    cr_assert_null(Bn);
    /* node 0, normal (0, -1): nu = (0, -1) on dofs (0, 1), tau = rot90(nu) */
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, node0, nrm, &Bn, &Bt, &err), FL_OK);
    cr_assert(gsl_matrix_get(Bn, 0, 0) == 0 && gsl_matrix_get(Bn, 0, 1) == -1);
    cr_assert(fabs(gsl_matrix_get(Bt, 0, 0)) == 1 && gsl_matrix_get(Bt, 0, 1) == 0);
    gsl_matrix_free(Bn);
    gsl_matrix_free(Bt);
    gsl_matrix_free(K8);
    gsl_matrix_free(K7);
    gsl_vector_free(sh5);
    fl_fe2d_dofmap_free(map);
    fl_fe2d_dofmap_free(map6);
    fl_fe2d_mesh_free(m);
}

/* ---- redistribution ------------------------------------------------------ */

Test(cov_redistribution, bad_arguments)
{
    gsl_matrix *M = gsl_matrix_alloc(4, 4), *M23 = gsl_matrix_calloc(2, 3);
    gsl_matrix_set_identity(M);
    gsl_matrix *Bn = gsl_matrix_calloc(1, 4), *Bt = gsl_matrix_calloc(1, 4), *B3 = gsl_matrix_calloc(1, 3);
    gsl_matrix *B24 = gsl_matrix_calloc(2, 4), *R = gsl_matrix_calloc(4, 1), *R4 = gsl_matrix_calloc(4, 4);
    gsl_matrix *R3 = gsl_matrix_calloc(3, 1);
    gsl_matrix_set(Bn, 0, 1, 1);
    gsl_matrix_set(Bt, 0, 0, 1);
    gsl_matrix_set(R, 2, 0, 1);
    fl_redistribution *rd = NULL;
    fl_error err;
    cr_assert_eq(fl_redistribution_alloc(NULL, NULL, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M23, NULL, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, Bn, Bt, (fl_redist_kind)7, &rd, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown redistribution kind 7"));
    cr_assert_eq(fl_redistribution_alloc(M, NULL, NULL, Bt, FL_REDIST_NORMAL, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B3, Bt, FL_REDIST_NORMAL, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, Bn, NULL, FL_REDIST_BOTH, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, Bn, B3, FL_REDIST_BOTH, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, Bn, B24, FL_REDIST_BOTH, &rd, &err), FL_EDIM);
    cr_assert(strstr(err.message, "contact rows"));
    cr_assert_eq(fl_redistribution_alloc(M, NULL, B24, B24, FL_REDIST_BOTH, &rd, &err), FL_EDIM);
    cr_assert(strstr(err.message, "kernel dimension"));
    cr_assert_eq(fl_redistribution_alloc(M, R3, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_alloc(M, R4, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_EDIM);
    cr_assert(strstr(err.message, "preserved fields"));
    gsl_matrix_set(Bn, 0, 3, NAN);
    cr_assert_eq(fl_redistribution_alloc(M, NULL, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "contact rows"));
    gsl_matrix_set(Bn, 0, 3, 0);
    gsl_matrix_set(R, 0, 0, INFINITY);
    cr_assert_eq(fl_redistribution_alloc(M, R, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "preserved fields"));
    gsl_matrix_set(R, 0, 0, 0);
    gsl_matrix_set(M, 2, 2, NAN);
    cr_assert_eq(fl_redistribution_alloc(M, R, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_ENONFINITE);
    gsl_matrix_set(M, 2, 2, 1);
    cr_assert_null(rd);
    /* M = I, contact row e2, kept field R = e3 (002 (6), proofs/
     * redistribution.md): P = I - B^T B = diag(1, 0, 1, 1), Q = P R = R, so
     * the Gram matrices G = R^T M R and G0 = Q^T M Q agree and K = 0:
     * M_r = P M P = diag(1, 0, 1, 1), no mass on the normal dof. */
    cr_assert_eq(fl_redistribution_alloc(M, R, Bn, Bt, FL_REDIST_NORMAL, &rd, &err), FL_OK, "%s",
                 err.message);
    gsl_matrix *Mr = NULL;
    cr_assert_eq(fl_redistribution_dense(rd, M23, &Mr, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_dense(NULL, M, &Mr, &err), FL_EDIM);
    cr_assert_eq(fl_redistribution_dense(rd, M, &Mr, &err), FL_OK);
    cr_assert(fabs(gsl_matrix_get(Mr, 1, 1)) <= 1e-14, "%g", gsl_matrix_get(Mr, 1, 1));
    cr_assert(fabs(gsl_matrix_get(Mr, 2, 2) - 1) <= 1e-14);
    gsl_matrix_free(Mr);
    fl_redistribution_free(rd);
    fl_redistribution_free(NULL);
    gsl_matrix *mats[] = {M, M23, Bn, Bt, B3, B24, R, R4, R3};
    for (size_t k = 0; k < sizeof mats / sizeof *mats; k++) gsl_matrix_free(mats[k]);
}

/* ---- quasistatic twins --------------------------------------------------- */

Test(cov_quasistatic, both_twins_refuse_the_same_arguments, .init = setup, .fini = teardown)
{
    gsl_matrix *K = gsl_matrix_calloc(2, 2), *M = gsl_matrix_alloc(2, 2);
    gsl_matrix_set(K, 0, 0, 2);
    gsl_matrix_set(K, 1, 1, 4);
    gsl_matrix_set_identity(M);
    cholmod_sparse *Ks = NULL, *Ms = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, K, 1, 0.0, &Ks, NULL), FL_OK);
    cr_assert_eq(fl_sparse_from_dense(&ctx, M, 1, 0.0, &Ms, NULL), FL_OK);
    size_t iT = 0, iN = 1;
    fl_stability_system d = {.n = 2, .K = K, .M = M, .np = 1, .iT = &iT, .iN = &iN, .mu = 0.5};
    fl_stability_system_sparse s = {.n = 2, .K = Ks, .M = Ms, .np = 1, .iT = &iT, .iN = &iN, .mu = 0.5};
    gsl_vector *f = gsl_vector_alloc(2), *uk = gsl_vector_calloc(2), *u = gsl_vector_calloc(2);
    gsl_vector *g = gsl_vector_calloc(1), *v3 = gsl_vector_calloc(3), *r = gsl_vector_alloc(2);
    gsl_vector_set(f, 0, 2);
    gsl_vector_set(f, 1, -2);
    fl_quasistatic_options o = fl_quasistatic_options_default();
    fl_status st[2];
    fl_error err[2];
#define BOTH(F, UK, G, U, R, O)                                                               \
    do {                                                                                      \
        st[0] = fl_quasistatic_step(&(fl_quasistatic_system){.dense = &d}, F, UK, G, U, R, O, NULL, &err[0]);                             \
        st[1] = fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, F, UK, G, U, R, O, NULL, &err[1]);                \
    } while (0)
#define SAME(want, needle) TWIN_SAME(st, err, want, needle)
/* the usual call of this file on both twins, then SAME */
#define EXPECT(want, needle) do { BOTH(f, uk, g, u, NULL, &o); SAME(want, needle); } while (0)
    BOTH(NULL, uk, g, u, NULL, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    BOTH(v3, uk, g, u, NULL, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    BOTH(f, v3, g, u, NULL, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    BOTH(f, uk, v3, u, NULL, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    BOTH(f, uk, g, v3, NULL, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    BOTH(f, uk, g, u, v3, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    BOTH(f, uk, g, NULL, NULL, &o);
    SAME(FL_EDIM, "quasistatic step: f, u^k");
    fl_quasistatic_options bo[4] = {o, o, o, o};
    bo[0].omega = 2;
    bo[1].tol = 0;
    bo[2].max_sweeps = 0;
    bo[3].max_g_iter = 0;
    for (int k = 0; k < 4; k++) {
        BOTH(f, uk, g, u, NULL, &bo[k]);
        SAME(FL_EINVAL, "omega in (0, 2), tol > 0");
    }
    gsl_vector_set(uk, 1, NAN);
    EXPECT(FL_ENONFINITE, "u^k[1]");
    gsl_vector_set(uk, 1, 0);
    gsl_vector_set(u, 0, INFINITY);
    EXPECT(FL_ENONFINITE, "u[0]");
    gsl_vector_set(u, 0, 0);
    gsl_vector_set(g, 0, NAN);
    EXPECT(FL_ENONFINITE, "g[0]");
    gsl_vector_set(g, 0, 0);
    d.mu = s.mu = NAN;
    EXPECT(FL_EINVAL, "mu = nan");
    d.mu = s.mu = 0.5;
    d.iT = s.iT = NULL;
    BOTH(f, uk, g, u, NULL, &o);
    cr_assert_eq(st[0], FL_EINVAL);
    cr_assert_eq(st[1], FL_EINVAL);
    d.iT = s.iT = &iT;
    /* the sparse twin's own checks */
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = NULL, .sparse = &s}, f, uk, g, u, NULL, &o, NULL, &err[1]), FL_EINVAL);
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = NULL}, f, uk, g, u, NULL, &o, NULL, &err[1]), FL_EINVAL);
    s.n = 3;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, f, uk, g, u, NULL, &o, NULL, &err[1]), FL_EDIM);
    cr_assert(strstr(err[1].message, "K is 2x2, must be 3x3"));
    s.n = 0;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, f, uk, g, u, NULL, &o, NULL, &err[1]), FL_EDIM);
    s.n = 2;
    cholmod_sparse *P = cholmod_copy_sparse(Ks, &ctx.cm);
    cr_assert(P && cholmod_sparse_xtype(CHOLMOD_PATTERN, P, &ctx.cm));
    s.K = P;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, f, uk, g, u, NULL, &o, NULL, &err[1]), FL_EUNSUPPORTED);
    s.K = Ks;
    cholmod_free_sparse(&P, &ctx.cm);
    /* no contact: K u = f, u = (1, -1/2), r = K u - f = 0 */
    d.np = s.np = 0;
    gsl_vector g0 = {0, 1, NULL, NULL, 0};
    const fl_quasistatic_system both = {&d, &ctx, &s};   /* one system, both storages */
    for (int k = 0; fl_quasistatic_types[k].name; k++) {
        gsl_vector_set_zero(u);
        fl_status sk = fl_quasistatic_types[k].step(&both, f, uk, &g0, u, r, NULL, NULL, &err[k]);
        cr_assert_eq(sk, FL_OK, "impl %d: %s", k, err[k].message);
        cr_assert(fabs(u->data[0] - 1) <= 1e-11 && fabs(u->data[1] + 0.5) <= 1e-11,
                  "impl %d u = (%g, %g)", k, u->data[0], u->data[1]);
        cr_assert(fabs(r->data[0]) <= 1e-10 && fabs(r->data[1]) <= 1e-10);
    }
#undef BOTH
#undef SAME
#undef EXPECT
    gsl_vector *vs[] = {f, uk, u, g, v3, r};
    for (size_t k = 0; k < sizeof vs / sizeof *vs; k++) gsl_vector_free(vs[k]);
    gsl_matrix_free(K);
    gsl_matrix_free(M);
    cholmod_free_sparse(&Ks, &ctx.cm);
    cholmod_free_sparse(&Ms, &ctx.cm);
}

/* ---- asymptotics of S (000 §3) ------------------------------------------- */

static fl_status a_mass(const gsl_vector *q, gsl_matrix *M, void *data)
{
    (void)q;
    (void)data;
    gsl_matrix_set_identity(M);
    return FL_OK;
}

static fl_status a_gap(const gsl_vector *q, double *phi, gsl_vector *dphi, void *data)
{
    const int *zero = data;
    *phi = gsl_vector_get(q, 1);
    gsl_vector_set_zero(dphi);
    if (!*zero) gsl_vector_set(dphi, 1, 1.0);
    return FL_OK;
}

Test(cov_asymptotics, bad_arguments)
{
    int zero = 0;
    fl_moreau_system sys = {.d = 2, .mass = a_mass, .gap = a_gap,
                            .friction = FL_MOREAU_ISOTROPIC, .mu = 0.5, .data = &zero};
    gsl_vector *q = gsl_vector_calloc(2), *um = gsl_vector_calloc(2), *v3 = gsl_vector_calloc(3);
    gsl_vector_set(um, 0, 1.0);   /* tangential: <u-, n> = 0 */
    fl_asymptotics_set A;
    fl_error err;
    cr_assert_eq(fl_asymptotics_build(&sys, q, um, NULL, 1e-12, 1e-12, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_asymptotics_build(NULL, q, um, NULL, 1e-12, 1e-12, &A, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_build(&sys, NULL, um, NULL, 1e-12, 1e-12, &A, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_build(&sys, q, NULL, NULL, 1e-12, 1e-12, &A, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_build(&sys, v3, um, NULL, 1e-12, 1e-12, &A, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_build(&sys, q, v3, NULL, 1e-12, 1e-12, &A, &err), FL_EDIM);
    /* friction of dimension 2 (d = 3, isotropic): not covered by 000 §3 */
    fl_moreau_system s3 = sys;
    s3.d = 3;
    cr_assert_eq(fl_asymptotics_build(&s3, v3, v3, NULL, 1e-12, 1e-12, &A, &err), FL_EUNSUPPORTED);
    cr_assert(strstr(err.message, "one-dimensional friction"));
    /* vanishing gradient (H2) */
    zero = 1;
    cr_assert_eq(fl_asymptotics_build(&sys, q, um, NULL, 1e-12, 1e-12, &A, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "vanishes"), "%s", err.message);
    zero = 0;
    /* sampling: sizes, eps */
    gsl_rng *rng = fl_rng_alloc(1UL);
    gsl_matrix *S = gsl_matrix_alloc(4, 2), *S3 = gsl_matrix_alloc(4, 3);
    size_t nc;
    cr_assert_eq(fl_asymptotics_sample(&sys, q, um, 0.1, 5, rng, NULL, S, &nc, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(&sys, q, um, 0.1, 4, rng, NULL, S3, &nc, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(&sys, q, um, 0.1, 4, NULL, NULL, S, &nc, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(&sys, v3, um, 0.1, 4, rng, NULL, S, &nc, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(&sys, q, v3, 0.1, 4, rng, NULL, S, &nc, &err), FL_EDIM);
    cr_assert_eq(fl_asymptotics_sample(NULL, q, um, 0.1, 4, rng, NULL, S, &nc, &err), FL_EDIM);
    cr_assert(strstr(err.message, "S must be at least ns x d"));
    cr_assert_eq(fl_asymptotics_sample(&sys, q, um, 0, 4, rng, NULL, S, &nc, &err), FL_EINVAL);
    cr_assert_eq(fl_asymptotics_sample(&sys, q, um, INFINITY, 4, rng, NULL, S, &nc, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "eps = inf"));
    gsl_rng_free(rng);
    gsl_matrix_free(S);
    gsl_matrix_free(S3);
    gsl_vector_free(q);
    gsl_vector_free(um);
    gsl_vector_free(v3);
}

Test(cov_fe2d, more_mesh_files_lines_and_vtk)
{
    struct {
        const char *text;
        fl_status st;
        int line;
    } cases[] = {
        {"vertices 3\n", FL_EPARSE, 1},
        {"nodes 3\n0 0\n1 inf\n", FL_EPARSE, 3},
        {"nodes 3\n0 0\n1 0\n0 1\ntriangles 2\n0 1 2\n", FL_EPARSE, 6},
        {"", FL_EPARSE, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const char *path = write_mesh(cases[c].text);
        fl_fe2d_mesh *m = NULL;
        fl_error err;
        cr_assert_eq(fl_fe2d_mesh_read(path, &m, &err), cases[c].st, "case %zu: %s", c, err.message);
        cr_assert_eq(err.line, cases[c].line, "case %zu: line %d", c, err.line);
        cr_assert_null(m);
    }
    fl_fe2d_mesh *m = NULL;
    fl_error err;
    cr_assert_eq(fl_fe2d_mesh_read("/nonexistent/mesh.txt", &m, &err), FL_EIO);
    cr_assert_str_eq(err.file, "/nonexistent/mesh.txt");
    /* nodes listed right to left: nodes_on_line sorts them by x */
    const char *path = write_mesh("nodes 3\n1 0\n0 0\n0 1\ntriangles 1\n0 1 2\n");
    cr_assert_eq(fl_fe2d_mesh_read(path, &m, &err), FL_OK, "%s", err.message);
    size_t cnt;
    int *idx = NULL;
    cr_assert_eq(fl_fe2d_nodes_on_line(m, 1, 0.0, 1e-12, &cnt, &idx, &err), FL_OK);
    cr_assert_eq(cnt, 2);
    cr_assert(idx[0] == 1 && idx[1] == 0, "order %d %d", idx[0], idx[1]);
    free(idx);
    /* contact vectors: a negative node, an infinite normal */
    gsl_matrix *Bn = NULL, *Bt = NULL;
    const int nodem[1] = {-1}, node0[1] = {0};
    const double nrm[2] = {0, -1}, infn[2] = {INFINITY, 0};
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, nodem, nrm, &Bn, &Bt, &err), FL_EINVAL);
    cr_assert_eq(fl_fe2d_contact_vectors(m, NULL, 1, node0, infn, &Bn, &Bt, &err), FL_EINVAL);
    /* element mass with an infinite density; an empty mesh */
    const double unit[6] = {0, 0, 1, 0, 0, 1};
    double Me[36];
    cr_assert_eq(fl_fe2d_element_mass(unit, INFINITY, 0, Me, &err), FL_EINVAL);
    fl_fe2d_mesh empty = {0};
    fl_fe2d_material mat = {.lambda = 1, .mu = 1, .rho = 1, .model = FL_FE2D_PLANE_STRESS};
    size_t nnz;
    int *row, *col;
    double *val;
    gsl_matrix *A = NULL;
    cr_assert_eq(fl_fe2d_assemble_triplets(&empty, &mat, FL_FE2D_MASS, &nnz, &row, &col, &val, &err),
                 FL_EINVAL);
    cr_assert_eq(fl_fe2d_affine_fields(&empty, &A, &err), FL_EINVAL);
    /* reduction with a K of the wrong width */
    fl_fe2d_dofmap *map = NULL;
    cr_assert_eq(fl_fe2d_dofmap_alloc(6, 0, NULL, NULL, &map, &err), FL_OK);
    gsl_matrix *K67 = gsl_matrix_calloc(6, 7), *R = NULL;
    cr_assert_eq(fl_fe2d_reduce_matrix(K67, map, &R, NULL, &err), FL_EDIM);
    /* VTK: with cell data; an unwritable path; a full device */
    double u[6] = {0, 0, 0, 0, 0, 0}, cd[1] = {2.5};
    char vtk[64];
    snprintf(vtk, sizeof vtk, "/tmp/fl_cov_mesh_%d.vtk", (int)getpid());
    cr_assert_eq(fl_fe2d_write_vtk(vtk, m, u, 1.0, cd, "strain", &err), FL_OK, "%s", err.message);
    FILE *f = fopen(vtk, "r");
    cr_assert_not_null(f);
    char buf[4096];
    size_t nread = fread(buf, 1, sizeof buf - 1, f);
    buf[nread] = 0;
    fclose(f);
    cr_assert(strstr(buf, "CELL_DATA 1") && strstr(buf, "SCALARS strain double 1"), "%s", buf);
    unlink(vtk);
    cr_assert_eq(fl_fe2d_write_vtk("/nonexistent/dir/x.vtk", m, u, 1.0, NULL, NULL, &err), FL_EIO);
    /* /dev/full (every Linux system has it): the writes fail at fclose */
    cr_assert_eq(access("/dev/full", W_OK), 0, "this test needs /dev/full");
    cr_assert_eq(fl_fe2d_write_vtk("/dev/full", m, u, 1.0, cd, "strain", &err), FL_EIO);
    cr_assert_str_eq(err.file, "/dev/full");
    gsl_matrix_free(K67);
    fl_fe2d_dofmap_free(map);
    fl_fe2d_mesh_free(m);
    unlink(mesh_path);
}

Test(cov_lcp, enumerator_and_lemke_arguments)
{
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *M23 = gsl_matrix_calloc(2, 3);
    gsl_matrix_set_identity(M);
    gsl_vector *q = gsl_vector_alloc(2), *z = gsl_vector_alloc(2);
    gsl_vector_set(q, 0, -1);
    gsl_vector_set(q, 1, 2);
    fl_lcp_solutions *sol = NULL;
    fl_error err;
    /* M = I, q = (-1, 2): z = (1, 0), w = (0, 2), unique */
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, NULL, NULL, &err), FL_OK);
    cr_assert(fabs(z->data[0] - 1) <= 1e-15 && z->data[1] == 0);
    cr_assert_eq(fl_lemke_solve(M23, q, z, NULL, NULL, NULL, &err), FL_EDIM);
    fl_lemke_options lo = fl_lemke_options_default();
    lo.pivot_tol = 0;
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, &lo, NULL, &err), FL_EINVAL);
    lo = fl_lemke_options_default();
    lo.verify_tol = NAN;
    cr_assert_eq(fl_lemke_solve(M, q, z, NULL, &lo, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "tolerances must be positive"));
    fl_lcp_enum_options eo = fl_lcp_enum_options_default();
    eo.max_n = 1;
    cr_assert_eq(fl_lcp_enumerate(M, q, &eo, &sol, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "too large to enumerate (max 1)"));
    eo = fl_lcp_enum_options_default();
    eo.dedup_tol = -1;
    cr_assert_eq(fl_lcp_enumerate(M, q, &eo, &sol, NULL, &err), FL_EINVAL);
    eo = fl_lcp_enum_options_default();
    eo.sing_tol = NAN;
    cr_assert_eq(fl_lcp_enumerate(M, q, &eo, &sol, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "nonnegative"));
    cr_assert_null(sol);
    double mm;
    cr_assert_eq(fl_lcp_min_principal_minor(M23, &mm, &err), FL_EDIM);
    gsl_matrix A0 = {0, 0, 0, NULL, NULL, 0};
    cr_assert_eq(fl_lcp_min_principal_minor(&A0, &mm, &err), FL_EDIM);
    cr_assert_eq(fl_lcp_min_principal_minor(M, &mm, &err), FL_OK);
    cr_assert_eq(mm, 1.0);   /* principal minors of I: 1, 1, 1 */
    gsl_matrix_free(M);
    gsl_matrix_free(M23);
    gsl_vector_free(q);
    gsl_vector_free(z);
}

Test(cov_enumerate, refuses_what_it_cannot_enumerate)
{
    fl_local_problem *p = NULL;
    fl_enumerate_result *e = NULL;
    fl_error err;
    cr_assert_eq(fl_local_problem_alloc(1, 3, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    gsl_vector_set_all(p->q, 1.0);
    p->mu[0] = 0.5;
    cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "only dense 2D problems (dim = 3)"));
    p->mu[0] = -1;
    cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &e, &err), FL_EINVAL);
    cr_assert_null(e);
    fl_local_problem_free(p);
}

Test(cov_quasistatic, sparse_context_and_matrix_checks, .init = setup, .fini = teardown)
{
    fl_sparse_ctx idle;
    memset(&idle, 0, sizeof idle);
    gsl_matrix *K = gsl_matrix_alloc(2, 2);
    gsl_matrix_set_identity(K);
    cholmod_sparse *Ks = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, K, 1, 0.0, &Ks, NULL), FL_OK);
    fl_stability_system_sparse s = {.n = 2, .K = Ks, .M = Ks, .np = 0, .mu = 0.5};
    gsl_vector *f = gsl_vector_calloc(2), *uk = gsl_vector_calloc(2), *u = gsl_vector_calloc(2);
    gsl_vector g0 = {0, 1, NULL, NULL, 0};
    fl_error err;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &idle, .sparse = &s}, f, uk, &g0, u, NULL, NULL, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "missing context, system or K"));
    s.K = NULL;
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, f, uk, &g0, u, NULL, NULL, NULL, &err), FL_EINVAL);
    s.K = Ks;
    /* K in unpacked storage (same values): the step reads it; K = I, f = 0:
     * u = 0 */
    cholmod_sparse *U = cholmod_allocate_sparse(2, 2, 2, 1, 0, 0, CHOLMOD_REAL, &ctx.cm);
    cr_assert_not_null(U);
    for (int j = 0; j < 2; j++) {
        ((int *)U->p)[j] = j;
        ((int *)U->nz)[j] = 1;
        ((int *)U->i)[j] = j;
        ((double *)U->x)[j] = 1.0;
    }
    ((int *)U->p)[2] = 2;
    s.K = U;
    gsl_vector_set(f, 0, 3.0);
    cr_assert_eq(fl_quasistatic_step_sparse(&(fl_quasistatic_system){.ctx = &ctx, .sparse = &s}, f, uk, &g0, u, NULL, NULL, NULL, &err), FL_OK, "%s",
                 err.message);
    cr_assert(fabs(u->data[0] - 3) <= 1e-11 && fabs(u->data[1]) <= 1e-11);
    cholmod_free_sparse(&U, &ctx.cm);
    cholmod_free_sparse(&Ks, &ctx.cm);
    gsl_matrix_free(K);
    gsl_vector_free(f);
    gsl_vector_free(uk);
    gsl_vector_free(u);
}

Test(cov_asymptotics, friction_sets_of_dimension_two_are_not_covered)
{
    int zero = 0;
    fl_moreau_system sys = {.d = 3, .mass = a_mass, .gap = a_gap, .friction = FL_MOREAU_SET,
                            .k = 2, .data = &zero};
    gsl_vector *q = gsl_vector_calloc(3), *um = gsl_vector_calloc(3);
    fl_asymptotics_set A;
    fl_error err;
    cr_assert_eq(fl_asymptotics_build(&sys, q, um, NULL, 1e-12, 1e-12, &A, &err), FL_EUNSUPPORTED);
    sys.friction = FL_MOREAU_FRICTIONLESS;
    cr_assert_eq(fl_asymptotics_build(&sys, q, um, NULL, 1e-12, 1e-12, &A, &err), FL_EUNSUPPORTED);
    gsl_rng *rng = fl_rng_alloc(2UL);
    cr_assert_eq(fl_asymptotics_sample(&sys, q, um, 0.1, 1, rng, NULL, NULL, NULL, &err), FL_EDIM);
    gsl_rng_free(rng);
    gsl_vector_free(q);
    gsl_vector_free(um);
}
