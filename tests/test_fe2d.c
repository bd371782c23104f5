/* test_fe2d.c — P1 elasticity (reference/fe2d.c): closed-form element
 * matrices (002 §6 single triangle), rigid motions in the kernel of A,
 * patch test, total mass, Dirichlet elimination, contact vectors (002 (4)),
 * mesh reader and VTK output, bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_sort_vector.h>
#include <unistd.h>

#include "reference/fe2d.h"
#include "testkit/fl_random.h"

static const fl_fe2d_material steel = {300.0, 150.0, 1000.0, FL_FE2D_PLANE_STRAIN};

/* 002 §6: the node at the right angle of the triangle with sides l, l,
 * sqrt(2) l has stiffness [(lam+3mu)/2, (lam+mu)/2; (lam+mu)/2, (lam+3mu)/2]
 * (002 prints -(lam+mu)/2 because its nu axis is -x) and consistent mass
 * rho l^2/12, whatever l. */
Test(fe2d, single_triangle_closed_form_of_002_section_6)
{
    double l = 0.37, lam = 2.0, mu = 0.7;
    fl_fe2d_material m = {lam, mu, 5.0, FL_FE2D_PLANE_STRAIN};
    double xy[6] = {0, 0, l, 0, 0, l}, K[36], Me[36];
    cr_assert_eq(fl_fe2d_element_stiffness(xy, &m, K, NULL), FL_OK);
    cr_assert_float_eq(K[0], (lam + 3 * mu) / 2, 1e-13);
    cr_assert_float_eq(K[7], (lam + 3 * mu) / 2, 1e-13);
    cr_assert_float_eq(K[1], (lam + mu) / 2, 1e-13);
    cr_assert_float_eq(K[6], (lam + mu) / 2, 1e-13);
    /* node (l,0): grad phi = (1/l, 0): K_xx = (lam+2mu)/2, K_yy = mu/2 */
    cr_assert_float_eq(K[6 * 2 + 2], (lam + 2 * mu) / 2, 1e-13);
    cr_assert_float_eq(K[6 * 3 + 3], mu / 2, 1e-13);
    cr_assert_eq(fl_fe2d_element_mass(xy, 5.0, 0, Me, NULL), FL_OK);
    cr_assert_float_eq(Me[0], 5.0 * l * l / 12, 1e-15);
    cr_assert_float_eq(Me[2], 5.0 * l * l / 24, 1e-15);
    cr_assert_float_eq(Me[1], 0.0, 0.0);
    cr_assert_eq(fl_fe2d_element_mass(xy, 5.0, 1, Me, NULL), FL_OK);
    cr_assert_float_eq(Me[0], 5.0 * l * l / 6, 1e-15);
    cr_assert_float_eq(Me[2], 0.0, 0.0);
    /* clockwise orientation gives the same matrix */
    double cw[6] = {0, 0, 0, l, l, 0}, K2[36];
    cr_assert_eq(fl_fe2d_element_stiffness(cw, &m, K2, NULL), FL_OK);
    cr_assert_float_eq(K2[0], (lam + 3 * mu) / 2, 1e-13);
}

Test(fe2d, plane_stress_uses_reduced_lambda)
{
    fl_fe2d_material m = {2.0, 1.0, 1.0, FL_FE2D_PLANE_STRESS};
    double D[9];
    cr_assert_eq(fl_fe2d_elasticity(&m, D, NULL), FL_OK);
    double ls = 2.0 * 2.0 * 1.0 / (2.0 + 2.0);   /* 2 lam mu / (lam + 2 mu) = 1 */
    cr_assert_float_eq(D[0], ls + 2.0, 1e-15);
    cr_assert_float_eq(D[1], ls, 1e-15);
    cr_assert_float_eq(D[8], 1.0, 1e-15);
    m.model = FL_FE2D_PLANE_STRAIN;
    cr_assert_eq(fl_fe2d_elasticity(&m, D, NULL), FL_OK);
    cr_assert_float_eq(D[0], 4.0, 1e-15);
    cr_assert_float_eq(D[1], 2.0, 1e-15);
}

static double quad(const gsl_matrix *K, const gsl_vector *a, const gsl_vector *b)
{
    gsl_vector *t = gsl_vector_alloc(K->size1);
    gsl_blas_dgemv(CblasNoTrans, 1.0, K, b, 0.0, t);
    double s;
    gsl_blas_ddot(a, t, &s);
    gsl_vector_free(t);
    return s;
}

Test(fe2d, rigid_motions_span_the_kernel_of_A_before_dirichlet)
{
    for (int pat = 0; pat < 3; pat++) {
        fl_fe2d_mesh *mesh;
        cr_assert_eq(fl_fe2d_mesh_rect(0.1, -0.2, 2.0, 1.5, 4, 3, (fl_fe2d_pattern)pat, &mesh, NULL),
                     FL_OK);
        gsl_matrix *A;
        cr_assert_eq(fl_fe2d_assemble_dense(mesh, &steel, FL_FE2D_STIFFNESS, &A, NULL), FL_OK);
        size_t n = A->size1;
        gsl_vector *r = gsl_vector_alloc(n), *Ar = gsl_vector_alloc(n);
        for (int k = 0; k < 3; k++) {
            for (size_t p = 0; p < mesh->nnodes; p++) {
                double x = mesh->xy[2 * p], y = mesh->xy[2 * p + 1];
                gsl_vector_set(r, 2 * p, k == 0 ? 1.0 : k == 1 ? 0.0 : -y);
                gsl_vector_set(r, 2 * p + 1, k == 0 ? 0.0 : k == 1 ? 1.0 : x);
            }
            gsl_blas_dgemv(CblasNoTrans, 1.0, A, r, 0.0, Ar);
            cr_assert_lt(gsl_blas_dnrm2(Ar), 1e-10 * 300.0, "rigid motion %d, pattern %d", k, pat);
        }
        /* exactly 3: eigenvalues of A, the 4th smallest is clearly positive */
        gsl_matrix *C = gsl_matrix_alloc(n, n);
        gsl_matrix_memcpy(C, A);
        gsl_vector *ev = gsl_vector_alloc(n);
        gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(n);
        gsl_eigen_symm(C, ev, w);
        gsl_sort_vector(ev);
        cr_assert_lt(fabs(gsl_vector_get(ev, 2)), 1e-9 * gsl_vector_get(ev, n - 1));
        cr_assert_gt(gsl_vector_get(ev, 3), 1e-4 * gsl_vector_get(ev, n - 1));
        gsl_eigen_symm_free(w);
        gsl_vector_free(ev);
        gsl_matrix_free(C);
        gsl_vector_free(r);
        gsl_vector_free(Ar);
        gsl_matrix_free(A);
        fl_fe2d_mesh_free(mesh);
    }
}

/* Patch test: an affine displacement has constant stress, so the internal
 * force A u vanishes at every interior node; and with the affine values
 * prescribed on the boundary (elimination) the solve reproduces it. */
Test(fe2d, patch_test_affine_field_is_exact)
{
    fl_fe2d_mesh *mesh;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1.0, 1.0, 5, 4, FL_FE2D_DIAG_LEFT, &mesh, NULL), FL_OK);
    /* perturb interior nodes to get an irregular mesh */
    gsl_rng *rng = fl_test_rng(11);
    for (size_t p = 0; p < mesh->nnodes; p++) {
        double x = mesh->xy[2 * p], y = mesh->xy[2 * p + 1];
        if (x > 1e-9 && x < 1 - 1e-9 && y > 1e-9 && y < 1 - 1e-9) {
            mesh->xy[2 * p] += 0.04 * (gsl_rng_uniform(rng) - 0.5);
            mesh->xy[2 * p + 1] += 0.04 * (gsl_rng_uniform(rng) - 0.5);
        }
    }
    fl_fe2d_material pm = {1.0, 0.5, 1.0, FL_FE2D_PLANE_STRESS};
    gsl_matrix *A;
    cr_assert_eq(fl_fe2d_assemble_dense(mesh, &pm, FL_FE2D_STIFFNESS, &A, NULL), FL_OK);
    size_t n = 2 * mesh->nnodes;
    double *u = malloc(n * sizeof(double));
    int *fix = malloc(n * sizeof(int));
    double *val = malloc(n * sizeof(double));
    size_t nfix = 0;
    for (size_t p = 0; p < mesh->nnodes; p++) {
        double x = mesh->xy[2 * p], y = mesh->xy[2 * p + 1];
        u[2 * p] = 0.3 + 0.1 * x - 0.2 * y;
        u[2 * p + 1] = -0.1 + 0.05 * x + 0.4 * y;
        int boundary = x < 1e-9 || x > 1 - 1e-9 || y < 1e-9 || y > 1 - 1e-9;
        if (boundary) {
            fix[nfix] = (int)(2 * p); val[nfix++] = u[2 * p];
            fix[nfix] = (int)(2 * p + 1); val[nfix++] = u[2 * p + 1];
        }
    }
    gsl_vector_view uv = gsl_vector_view_array(u, n);
    gsl_vector *Au = gsl_vector_alloc(n);
    gsl_blas_dgemv(CblasNoTrans, 1.0, A, &uv.vector, 0.0, Au);
    fl_fe2d_dofmap *map;
    cr_assert_eq(fl_fe2d_dofmap_alloc(n, nfix, fix, val, &map, NULL), FL_OK);
    for (size_t i = 0; i < map->nfree; i++)
        cr_assert_lt(fabs(gsl_vector_get(Au, (size_t)map->full_of_free[i])), 1e-12);
    gsl_matrix *Aff;
    gsl_vector *rhs = gsl_vector_alloc(map->nfree);
    cr_assert_eq(fl_fe2d_reduce_matrix(A, map, &Aff, rhs, NULL), FL_OK);
    gsl_linalg_cholesky_decomp1(Aff);
    gsl_linalg_cholesky_svx(Aff, rhs);
    double *full = malloc(n * sizeof(double));
    fl_fe2d_expand(map, rhs->data, full);
    for (size_t j = 0; j < n; j++) cr_assert_float_eq(full[j], u[j], 1e-12);
    double *back = malloc(map->nfree * sizeof(double));
    fl_fe2d_restrict(map, full, back);
    for (size_t i = 0; i < map->nfree; i++) cr_assert_float_eq(back[i], rhs->data[i], 0.0);
    free(back);
    free(full);
    gsl_vector_free(rhs);
    gsl_matrix_free(Aff);
    fl_fe2d_dofmap_free(map);
    gsl_vector_free(Au);
    free(u); free(fix); free(val);
    gsl_matrix_free(A);
    gsl_rng_free(rng);
    fl_fe2d_mesh_free(mesh);
}

/* Total mass, centre of gravity and second moments: for affine fields the
 * consistent mass gives the exact integrals of rho r.r' over the rectangle
 * [0,a]x[0,b]: mass rho a b, first moment rho a^2 b / 2, rho a^3 b / 3. */
Test(fe2d, mass_matrix_integrates_affine_fields_exactly)
{
    double a = 2.0, b = 1.5, rho = 3.0;
    fl_fe2d_material m = {1.0, 1.0, rho, FL_FE2D_PLANE_STRAIN};
    fl_fe2d_mesh *mesh;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, a, b, 3, 5, FL_FE2D_DIAG_RIGHT, &mesh, NULL), FL_OK);
    gsl_matrix *M, *ML, *R;
    cr_assert_eq(fl_fe2d_assemble_dense(mesh, &m, FL_FE2D_MASS, &M, NULL), FL_OK);
    cr_assert_eq(fl_fe2d_assemble_dense(mesh, &m, FL_FE2D_MASS_LUMPED, &ML, NULL), FL_OK);
    cr_assert_eq(fl_fe2d_affine_fields(mesh, &R, NULL), FL_OK);
    gsl_vector_view tx = gsl_matrix_column(R, 0), ty = gsl_matrix_column(R, 1);
    gsl_vector_view xx = gsl_matrix_column(R, 2), yy = gsl_matrix_column(R, 5);
    cr_assert_float_eq(quad(M, &tx.vector, &tx.vector), rho * a * b, 1e-12);
    cr_assert_float_eq(quad(M, &ty.vector, &ty.vector), rho * a * b, 1e-12);
    cr_assert_float_eq(quad(M, &tx.vector, &ty.vector), 0.0, 1e-12);
    cr_assert_float_eq(quad(ML, &tx.vector, &tx.vector), rho * a * b, 1e-12);
    cr_assert_float_eq(quad(M, &tx.vector, &xx.vector), rho * a * a * b / 2, 1e-12);
    cr_assert_float_eq(quad(ML, &ty.vector, &yy.vector), rho * a * b * b / 2, 1e-12);
    cr_assert_float_eq(quad(M, &xx.vector, &xx.vector), rho * a * a * a * b / 3, 1e-12);
    cr_assert_float_eq(quad(M, &yy.vector, &yy.vector), rho * a * b * b * b / 3, 1e-12);
    /* lumped mass is diagonal */
    for (size_t i = 0; i < ML->size1; i++)
        for (size_t j = 0; j < ML->size2; j++)
            if (i != j) cr_assert_eq(gsl_matrix_get(ML, i, j), 0.0);
    gsl_matrix_free(M);
    gsl_matrix_free(ML);
    gsl_matrix_free(R);
    fl_fe2d_mesh_free(mesh);
}

Test(fe2d, structured_mesh_counts_and_area)
{
    for (int pat = 0; pat < 3; pat++) {
        fl_fe2d_mesh *mesh;
        cr_assert_eq(fl_fe2d_mesh_rect(1, 2, 3.0, 2.0, 6, 4, (fl_fe2d_pattern)pat, &mesh, NULL), FL_OK);
        /* 7 x 5 grid nodes (+ 24 cell centres); 2 (or 4) triangles per cell */
        cr_assert_eq(mesh->nnodes, pat == FL_FE2D_CROSS ? 59u : 35u);
        cr_assert_eq(mesh->nelems, pat == FL_FE2D_CROSS ? 96u : 48u);
        if (pat == FL_FE2D_CROSS) {   /* centre of cell (i, j) = (2, 1): (1 + 2.5 * 0.5, 2 + 1.5 * 0.5) */
            cr_assert_float_eq(mesh->xy[2 * (35 + 1 * 6 + 2)], 2.25, 1e-14);
            cr_assert_float_eq(mesh->xy[2 * (35 + 1 * 6 + 2) + 1], 2.75, 1e-14);
        }
        double area = 0;
        for (size_t e = 0; e < mesh->nelems; e++) {
            double xy[6];
            for (int k = 0; k < 3; k++) {
                xy[2 * k] = mesh->xy[2 * mesh->tri[3 * e + k]];
                xy[2 * k + 1] = mesh->xy[2 * mesh->tri[3 * e + k] + 1];
            }
            double a2 = fl_fe2d_twice_area(xy);
            cr_assert_gt(a2, 0.0, "counter-clockwise");
            area += a2 / 2;
        }
        cr_assert_float_eq(area, 6.0, 1e-12);
        size_t cnt;
        int *idx;
        cr_assert_eq(fl_fe2d_nodes_on_line(mesh, 1, 2.0, 1e-12, &cnt, &idx, NULL), FL_OK);
        cr_assert_eq(cnt, 7u);
        for (size_t i = 0; i < cnt; i++) cr_assert_eq(idx[i], (int)i);
        free(idx);
        cr_assert_eq(fl_fe2d_nodes_on_line(mesh, 0, 4.0, 1e-12, &cnt, &idx, NULL), FL_OK);
        cr_assert_eq(cnt, 5u);
        cr_assert_eq(idx[4], 34);
        free(idx);
        fl_fe2d_mesh_free(mesh);
    }
}

Test(fe2d, contact_vectors_satisfy_002_eq_4)
{
    fl_fe2d_mesh *mesh;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 4, 4, FL_FE2D_DIAG_RIGHT, &mesh, NULL), FL_OK);
    size_t nb, nt;
    int *bot, *top;
    cr_assert_eq(fl_fe2d_nodes_on_line(mesh, 1, 0.0, 1e-12, &nb, &bot, NULL), FL_OK);
    cr_assert_eq(fl_fe2d_nodes_on_line(mesh, 1, 1.0, 1e-12, &nt, &top, NULL), FL_OK);
    int fix[10];
    for (size_t i = 0; i < nt; i++) { fix[2 * i] = 2 * top[i]; fix[2 * i + 1] = 2 * top[i] + 1; }
    fl_fe2d_dofmap *map;
    cr_assert_eq(fl_fe2d_dofmap_alloc(50, 10, fix, NULL, &map, NULL), FL_OK);
    cr_assert_eq(map->nfree, 40u);
    double *nrm = malloc(2 * nb * sizeof(double));
    for (size_t i = 0; i < nb; i++) { nrm[2 * i] = 0.0; nrm[2 * i + 1] = -3.0; }
    nrm[0] = -1; nrm[1] = -1;   /* a slanted normal at the corner, normalised */
    gsl_matrix *N, *T;
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, map, nb, bot, nrm, &N, &T, NULL), FL_OK);
    for (size_t i = 0; i < nb; i++)
        for (size_t j = 0; j < nb; j++) {
            gsl_vector_view ni = gsl_matrix_row(N, i), nj = gsl_matrix_row(N, j);
            gsl_vector_view ti = gsl_matrix_row(T, i), tj = gsl_matrix_row(T, j);
            double nn, tt, nt2;
            gsl_blas_ddot(&ni.vector, &nj.vector, &nn);
            gsl_blas_ddot(&ti.vector, &tj.vector, &tt);
            gsl_blas_ddot(&ni.vector, &tj.vector, &nt2);
            cr_assert_float_eq(nn, i == j ? 1.0 : 0.0, 1e-15);
            cr_assert_float_eq(tt, i == j ? 1.0 : 0.0, 1e-15);
            cr_assert_float_eq(nt2, 0.0, 1e-15);
        }
    /* bottom middle node: nu = (0,-1), tau = (1,0) */
    int p = bot[2];
    cr_assert_float_eq(gsl_matrix_get(N, 2, (size_t)map->free_of_full[2 * p + 1]), -1.0, 0.0);
    cr_assert_float_eq(gsl_matrix_get(T, 2, (size_t)map->free_of_full[2 * p]), 1.0, 0.0);
    gsl_matrix_free(N);
    gsl_matrix_free(T);
    /* bad: a contact node with a Dirichlet dof, twice the same node, zero normal */
    fl_error e;
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, map, 1, top, nrm, &N, &T, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "Dirichlet"));
    int twice[2] = {bot[1], bot[1]};
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, map, 2, twice, nrm, &N, &T, &e), FL_EINVAL);
    double zero[2] = {0, 0};
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, NULL, 1, bot, zero, &N, &T, &e), FL_EINVAL);
    int out_of_range = 99;
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, NULL, 1, &out_of_range, nrm, &N, &T, &e), FL_EINVAL);
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, NULL, 0, bot, nrm, &N, &T, &e), FL_EINVAL);
    fl_fe2d_dofmap *bad_map;
    int z = 0;
    cr_assert_eq(fl_fe2d_dofmap_alloc(8, 1, &z, NULL, &bad_map, NULL), FL_OK);
    cr_assert_eq(fl_fe2d_contact_vectors(mesh, bad_map, 1, bot, nrm, &N, &T, &e), FL_EDIM);
    fl_fe2d_dofmap_free(bad_map);
    free(nrm); free(bot); free(top);
    fl_fe2d_dofmap_free(map);
    fl_fe2d_mesh_free(mesh);
}

static const char *tmpfile_with(const char *content)
{
    static char path[64];
    strcpy(path, "/tmp/fl_fe2d_meshXXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(content, f);
    fclose(f);
    return path;
}

Test(fe2d, mesh_reader_reads_and_reorients)
{
    const char *p = tmpfile_with("# unit square, two triangles\nnodes 4\n0 0\n1 0\n1 1\n0 1\n\n"
                                 "triangles 2\n0 1 2\n0 3 2\n");
    fl_fe2d_mesh *m;
    cr_assert_eq(fl_fe2d_mesh_read(p, &m, NULL), FL_OK);
    cr_assert_eq(m->nnodes, 4u);
    cr_assert_eq(m->nelems, 2u);
    cr_assert_eq(m->tri[4], 2);   /* 0 3 2 was clockwise: reordered to 0 2 3 */
    cr_assert_eq(m->tri[5], 3);
    fl_fe2d_mesh_free(m);
    remove(p);
}

Test(fe2d, mesh_reader_rejects_bad_files)
{
    const char *bad[] = {
        "nodes 2\n0 0\n1 0\ntriangles 1\n0 1 1\n",
        "nodes 3\n0 0\n1 x\n0 1\ntriangles 1\n0 1 2\n",
        "nodes 3\n0 0\n1 0\n0 1\ntriangle 1\n0 1 2\n",
        "nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n0 1 5\n",
        "nodes 3\n0 0\n1 0\n2 0\ntriangles 1\n0 1 2\n",
        "nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n0 1\n",
        "nodes 3\n0 0\n1 0\n0 1\ntriangles 1\n0 1 2\n7\n",
        "nodes 3\n0 0 0\n1 0\n0 1\ntriangles 1\n0 1 2\n",
    };
    fl_status want[] = {FL_EPARSE, FL_EPARSE, FL_EPARSE, FL_EINVAL, FL_EINVAL, FL_EPARSE,
                        FL_EPARSE, FL_EPARSE};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const char *p = tmpfile_with(bad[k]);
        fl_fe2d_mesh *m = (fl_fe2d_mesh *)1;
        fl_error e;
        cr_assert_eq(fl_fe2d_mesh_read(p, &m, &e), want[k], "case %zu: %s", k, e.message);
        cr_assert_null(m);
        cr_assert_gt(e.line, 0, "case %zu has a line number", k);
        remove(p);
    }
    fl_fe2d_mesh *m;
    fl_error e;
    cr_assert_eq(fl_fe2d_mesh_read("/nonexistent/mesh.txt", &m, &e), FL_EIO);
}

Test(fe2d, vtk_output_lists_points_cells_and_data)
{
    fl_fe2d_mesh *mesh;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 2, 1, FL_FE2D_DIAG_RIGHT, &mesh, NULL), FL_OK);
    double u[12] = {0}, cells[4] = {1, 2, 3, 4};
    u[11] = 0.5;   /* node 5 (1,1) moves up */
    char path[] = "/tmp/fl_fe2d_vtkXXXXXX";
    int fd = mkstemp(path);
    close(fd);
    cr_assert_eq(fl_fe2d_write_vtk(path, mesh, u, 2.0, cells, "stress", NULL), FL_OK);
    FILE *f = fopen(path, "r");
    char buf[4096];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    cr_assert(strstr(buf, "DATASET UNSTRUCTURED_GRID"));
    cr_assert(strstr(buf, "POINTS 6 double"));
    cr_assert(strstr(buf, "1 2 0\n"), "deformed point 1 + 2*0.5");
    cr_assert(strstr(buf, "CELLS 4 16"));
    cr_assert(strstr(buf, "SCALARS stress double 1"));
    cr_assert_eq(fl_fe2d_write_vtk(path, mesh, NULL, 1.0, NULL, NULL, NULL), FL_OK);
    remove(path);
    cr_assert_eq(fl_fe2d_write_vtk("/nonexistent/dir/x.vtk", mesh, u, 1.0, NULL, NULL, NULL), FL_EIO);
    cr_assert_eq(fl_fe2d_write_vtk(path, NULL, u, 1.0, NULL, NULL, NULL), FL_EINVAL);
    fl_fe2d_mesh_free(mesh);
}

Test(fe2d, bad_input_is_rejected)
{
    fl_fe2d_mesh *m = (fl_fe2d_mesh *)1;
    fl_error e;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 0, 1, FL_FE2D_DIAG_RIGHT, &m, &e), FL_EINVAL);
    cr_assert_null(m);
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, NAN, 1, 1, 1, FL_FE2D_DIAG_RIGHT, &m, &e), FL_EINVAL);
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 1, 1, (fl_fe2d_pattern)7, &m, &e), FL_EINVAL);
    double tri[6] = {0, 0, 1, 0, 2, 0}, K[36], D[9];
    cr_assert_eq(fl_fe2d_element_stiffness(tri, &steel, K, &e), FL_EINVAL);
    cr_assert(strstr(e.message, "degenerate"));
    cr_assert_eq(fl_fe2d_element_mass(tri, 1.0, 0, K, &e), FL_EINVAL);
    double ok[6] = {0, 0, 1, 0, 0, 1};
    cr_assert_eq(fl_fe2d_element_mass(ok, -1.0, 0, K, &e), FL_EINVAL);
    fl_fe2d_material bad = {1.0, 0.0, 1.0, FL_FE2D_PLANE_STRAIN};
    cr_assert_eq(fl_fe2d_elasticity(&bad, D, &e), FL_EINVAL);
    bad.mu = 1.0;
    bad.model = (fl_fe2d_model)9;
    cr_assert_eq(fl_fe2d_elasticity(&bad, D, &e), FL_EINVAL);
    cr_assert_eq(fl_fe2d_elasticity(NULL, D, &e), FL_EINVAL);
    fl_fe2d_mesh *mesh;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 1, 1, 1, 1, FL_FE2D_DIAG_RIGHT, &mesh, NULL), FL_OK);
    gsl_matrix *A;
    cr_assert_eq(fl_fe2d_assemble_dense(mesh, &bad, FL_FE2D_STIFFNESS, &A, &e), FL_EINVAL);
    cr_assert_null(A);
    size_t nnz;
    int *r, *c;
    double *v;
    cr_assert_eq(fl_fe2d_assemble_triplets(mesh, &steel, (fl_fe2d_matrix)5, &nnz, &r, &c, &v, &e),
                 FL_EINVAL);
    cr_assert_eq(fl_fe2d_assemble_triplets(NULL, &steel, FL_FE2D_MASS, &nnz, &r, &c, &v, &e),
                 FL_EINVAL);
    mesh->xy[2] = 0.0;   /* node 1 onto node 0: element 0 degenerate */
    mesh->xy[3] = 0.0;
    cr_assert_eq(fl_fe2d_assemble_triplets(mesh, &steel, FL_FE2D_MASS, &nnz, &r, &c, &v, &e),
                 FL_EINVAL);
    gsl_matrix *R;
    cr_assert_eq(fl_fe2d_affine_fields(NULL, &R, &e), FL_EINVAL);
    fl_fe2d_dofmap *map;
    int dup[2] = {1, 1}, neg = -1;
    cr_assert_eq(fl_fe2d_dofmap_alloc(4, 2, dup, NULL, &map, &e), FL_EINVAL);
    cr_assert_eq(fl_fe2d_dofmap_alloc(4, 1, &neg, NULL, &map, &e), FL_EINVAL);
    cr_assert_eq(fl_fe2d_dofmap_alloc(2, 2, dup, NULL, &map, &e), FL_EINVAL);
    double nanv = NAN;
    int one = 1;
    cr_assert_eq(fl_fe2d_dofmap_alloc(4, 1, &one, &nanv, &map, &e), FL_EINVAL);
    cr_assert_eq(fl_fe2d_dofmap_alloc(4, 1, &one, NULL, &map, &e), FL_OK);
    gsl_matrix *K3 = gsl_matrix_calloc(3, 3), *Kff;
    cr_assert_eq(fl_fe2d_reduce_matrix(K3, map, &Kff, NULL, &e), FL_EDIM);
    size_t cnt;
    int *idx;
    cr_assert_eq(fl_fe2d_nodes_on_line(mesh, 2, 0.0, 0.0, &cnt, &idx, &e), FL_EINVAL);
    gsl_matrix_free(K3);
    fl_fe2d_dofmap_free(map);
    fl_fe2d_dofmap_free(NULL);
    fl_fe2d_mesh_free(NULL);
    fl_fe2d_mesh_free(mesh);
}

/* Vector Laplacian (H1 seminorm used by the convergence study of 002 §7):
 * int |grad u|^2 = area for u = (x, 0), 2 area for the rotation (-y, x),
 * 0 for translations. */
Test(fe2d, laplace_matrix_closed_forms)
{
    fl_fe2d_mesh *mesh;
    cr_assert_eq(fl_fe2d_mesh_rect(0, 0, 2.0, 3.0, 3, 4, FL_FE2D_DIAG_LEFT, &mesh, NULL), FL_OK);
    fl_fe2d_material m = {0.0, 1.0, 1.0, FL_FE2D_PLANE_STRAIN};
    gsl_matrix *L;
    cr_assert_eq(fl_fe2d_assemble_dense(mesh, &m, FL_FE2D_LAPLACE, &L, NULL), FL_OK);
    size_t n = L->size1;
    gsl_vector *u = gsl_vector_alloc(n), *r = gsl_vector_alloc(n), *t = gsl_vector_alloc(n);
    for (size_t p = 0; p < mesh->nnodes; p++) {
        double x = mesh->xy[2 * p], y = mesh->xy[2 * p + 1];
        gsl_vector_set(u, 2 * p, x);
        gsl_vector_set(u, 2 * p + 1, 0.0);
        gsl_vector_set(r, 2 * p, -y);
        gsl_vector_set(r, 2 * p + 1, x);
        gsl_vector_set(t, 2 * p, 1.0);
        gsl_vector_set(t, 2 * p + 1, 1.0);
    }
    cr_assert_float_eq(quad(L, u, u), 6.0, 1e-12);
    cr_assert_float_eq(quad(L, r, r), 12.0, 1e-12);
    cr_assert_float_eq(quad(L, t, t), 0.0, 1e-12);
    gsl_vector_free(u); gsl_vector_free(r); gsl_vector_free(t);
    gsl_matrix_free(L);
    fl_fe2d_mesh_free(mesh);
}
