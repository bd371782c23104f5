/* fe2d.c — P1 triangles for plane linear elasticity (002 §2): meshes,
 * element and assembled stiffness A and mass M, Dirichlet elimination,
 * contact vectors nu_i, tau_i of 002 (3)-(4); the mesh file reader and VTK
 * writer are io/fl_mesh_io.c. */
#include "fe2d.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fl_dense.h"
#include "fl_mesh_io.h"

double fl_fe2d_twice_area(const double xy[6])
{
    return (xy[2] - xy[0]) * (xy[5] - xy[1]) - (xy[4] - xy[0]) * (xy[3] - xy[1]);
}

static fl_status mesh_alloc(size_t nn, size_t ne, fl_fe2d_mesh **out, fl_error *err)
{
    fl_fe2d_mesh *m = calloc(1, sizeof *m);
    if (m) {
        m->xy = malloc(2 * (nn ? nn : 1) * sizeof(double));
        m->tri = malloc(3 * (ne ? ne : 1) * sizeof(int));
    }
    if (!m || !m->xy || !m->tri) {
        fl_fe2d_mesh_free(m);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate a mesh of %zu nodes", nn);
    }
    m->nnodes = nn;
    m->nelems = ne;
    *out = m;
    return FL_OK;
}

void fl_fe2d_mesh_free(fl_fe2d_mesh *mesh)
{
    if (!mesh) return;
    free(mesh->xy);
    free(mesh->tri);
    free(mesh);
}

fl_status fl_fe2d_mesh_rect(double x0, double y0, double lx, double ly,
                            size_t nx, size_t ny, fl_fe2d_pattern pattern,
                            fl_fe2d_mesh **out, fl_error *err)
{
    *out = NULL;
    if (nx == 0 || ny == 0 || !(lx > 0) || !(ly > 0) || !isfinite(lx) || !isfinite(ly)
        || !isfinite(x0) || !isfinite(y0))
        return FL_FAIL(err, FL_EINVAL,
                       "rectangle mesh needs nx, ny >= 1 and finite positive lengths "
                       "(got nx=%zu ny=%zu lx=%g ly=%g)", nx, ny, lx, ly);
    if (pattern != FL_FE2D_DIAG_RIGHT && pattern != FL_FE2D_DIAG_LEFT && pattern != FL_FE2D_CROSS)
        return FL_FAIL(err, FL_EINVAL, "unknown diagonal pattern %d", (int)pattern);
    size_t ng = (nx + 1) * (ny + 1), cross = pattern == FL_FE2D_CROSS;
    fl_fe2d_mesh *m = NULL;
    FL_TRY(mesh_alloc(ng + cross * nx * ny, (2 + 2 * cross) * nx * ny, &m, err));
    for (size_t j = 0; j <= ny; j++)
        for (size_t i = 0; i <= nx; i++) {
            size_t p = j * (nx + 1) + i;
            m->xy[2 * p] = x0 + lx * (double)i / (double)nx;
            m->xy[2 * p + 1] = y0 + ly * (double)j / (double)ny;
        }
    size_t e = 0;
    for (size_t j = 0; j < ny; j++)
        for (size_t i = 0; i < nx; i++) {
            int a = (int)(j * (nx + 1) + i), b = a + 1;         /* lower-left, lower-right */
            int d = (int)((j + 1) * (nx + 1) + i), c = d + 1;   /* upper-left, upper-right */
            if (cross) {                           /* centre node z, four triangles */
                size_t z = ng + j * nx + i;
                m->xy[2 * z] = x0 + lx * ((double)i + 0.5) / (double)nx;
                m->xy[2 * z + 1] = y0 + ly * ((double)j + 0.5) / (double)ny;
                int s[12] = {a, b, (int)z, b, c, (int)z, c, d, (int)z, d, a, (int)z};
                memcpy(m->tri + 3 * e, s, sizeof s);
                e += 4;
                continue;
            }
            int t[6];
            if (pattern == FL_FE2D_DIAG_RIGHT) {   /* diagonal a-c */
                int s[6] = {a, b, c, a, c, d};
                memcpy(t, s, sizeof t);
            } else {                               /* diagonal b-d */
                int s[6] = {a, b, d, b, c, d};
                memcpy(t, s, sizeof t);
            }
            memcpy(m->tri + 3 * e, t, sizeof t);
            e += 2;
        }
    *out = m;
    return FL_OK;
}

fl_status fl_fe2d_mesh_read(const char *path, fl_fe2d_mesh **out, fl_error *err)
{
    *out = NULL;
    fl_fe2d_mesh *m = calloc(1, sizeof *m);
    if (!m) return FL_FAIL(err, FL_ENOMEM, "%s: cannot allocate a mesh", path);
    fl_status s = fl_mesh_io_read(path, &m->nnodes, &m->xy, &m->nelems, &m->tri, err);
    if (s != FL_OK) {
        free(m);
        return s;
    }
    *out = m;
    return FL_OK;
}

fl_status fl_fe2d_elasticity(const fl_fe2d_material *mat, double D[9], fl_error *err)
{
    if (!mat || !isfinite(mat->lambda) || !isfinite(mat->mu) || !isfinite(mat->rho)
        || mat->lambda < 0 || !(mat->mu > 0) || !(mat->rho > 0))
        return FL_FAIL(err, FL_EINVAL,
                       "material needs finite lambda >= 0, mu > 0, rho > 0");
    double lam = mat->lambda, mu = mat->mu;
    if (mat->model == FL_FE2D_PLANE_STRESS) lam = 2.0 * lam * mu / (lam + 2.0 * mu);
    else if (mat->model != FL_FE2D_PLANE_STRAIN)
        return FL_FAIL(err, FL_EINVAL, "unknown elasticity model %d", (int)mat->model);
    double d[9] = {lam + 2 * mu, lam, 0, lam, lam + 2 * mu, 0, 0, 0, mu};
    memcpy(D, d, sizeof d);
    return FL_OK;
}

/* 002 §2: A_ij = int_Omega A eps(phi_i) : eps(phi_j).  For P1 the strain is
 * constant: eps = B u_e with the 3x6 matrix B of the shape-function
 * gradients, so A_e = area B^T D B. */
fl_status fl_fe2d_element_stiffness(const double xy[6], const fl_fe2d_material *mat,
                                    double K[36], fl_error *err)
{
    double D[9];
    FL_TRY(fl_fe2d_elasticity(mat, D, err));
    double a2 = fl_fe2d_twice_area(xy);
    if (!(fabs(a2) > 0) || !isfinite(a2))
        return FL_FAIL(err, FL_EINVAL, "degenerate triangle (twice area %g)", a2);
    /* grad phi_k = (y_{k+1} - y_{k+2}, x_{k+2} - x_{k+1}) / (2 area) */
    double bx[3], by[3];
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        bx[k] = (xy[2 * k1 + 1] - xy[2 * k2 + 1]) / a2;
        by[k] = (xy[2 * k2] - xy[2 * k1]) / a2;
    }
    double B[3][6] = {{0}};
    for (int k = 0; k < 3; k++) {
        B[0][2 * k] = bx[k];                          /* eps_xx */
        B[1][2 * k + 1] = by[k];                      /* eps_yy */
        B[2][2 * k] = by[k];                          /* 2 eps_xy */
        B[2][2 * k + 1] = bx[k];
    }
    double area = 0.5 * fabs(a2);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double s = 0;
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++) s += B[p][i] * D[3 * p + q] * B[q][j];
            K[6 * i + j] = area * s;
        }
    return FL_OK;
}

/* 002 §2: M_ij = int_Omega rho phi_i . phi_j; for P1,
 * int phi_a phi_b = area (1 + delta_ab) / 12.  Lumped: row sums. */
fl_status fl_fe2d_element_mass(const double xy[6], double rho, int lumped,
                               double Me[36], fl_error *err)
{
    if (!(rho > 0) || !isfinite(rho))
        return FL_FAIL(err, FL_EINVAL, "density must be finite and positive (got %g)", rho);
    double a2 = fl_fe2d_twice_area(xy);
    if (!(fabs(a2) > 0) || !isfinite(a2))
        return FL_FAIL(err, FL_EINVAL, "degenerate triangle (twice area %g)", a2);
    double area = 0.5 * fabs(a2);
    memset(Me, 0, 36 * sizeof(double));
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double v = lumped ? (a == b ? rho * area / 3.0 : 0.0)
                              : rho * area * (a == b ? 2.0 : 1.0) / 12.0;
            Me[6 * (2 * a) + 2 * b] = v;
            Me[6 * (2 * a + 1) + 2 * b + 1] = v;
        }
    return FL_OK;
}

fl_status fl_fe2d_assemble_triplets(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat,
                                    fl_fe2d_matrix which, size_t *nnz, int **row,
                                    int **col, double **val, fl_error *err)
{
    *row = *col = NULL;
    *val = NULL;
    *nnz = 0;
    if (!mesh || mesh->nelems == 0)
        return FL_FAIL(err, FL_EINVAL, "empty mesh");
    if (which != FL_FE2D_STIFFNESS && which != FL_FE2D_MASS && which != FL_FE2D_MASS_LUMPED
        && which != FL_FE2D_LAPLACE)
        return FL_FAIL(err, FL_EINVAL, "unknown matrix kind %d", (int)which);
    double D[9];
    FL_TRY(fl_fe2d_elasticity(mat, D, err));
    size_t n = 36 * mesh->nelems;
    int *r = malloc(n * sizeof(int)), *c = malloc(n * sizeof(int));
    double *v = malloc(n * sizeof(double));
    if (!r || !c || !v) {
        free(r); free(c); free(v);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate %zu triplets", n);
    }
    size_t t = 0;
    for (size_t e = 0; e < mesh->nelems; e++) {
        const int *tri = mesh->tri + 3 * e;
        double xy[6], Ke[36];
        for (int k = 0; k < 3; k++) {
            xy[2 * k] = mesh->xy[2 * tri[k]];
            xy[2 * k + 1] = mesh->xy[2 * tri[k] + 1];
        }
        fl_status s;
        if (which == FL_FE2D_STIFFNESS) {
            s = fl_fe2d_element_stiffness(xy, mat, Ke, err);
        } else if (which == FL_FE2D_LAPLACE) {
            /* grad : grad of a vector field = two scalar Laplacians; it is the
             * stiffness of the "material" D = diag(1, 1, 1) minus the cross
             * terms, computed directly from the gradients */
            double a2 = fl_fe2d_twice_area(xy);
            s = fabs(a2) > 0 ? FL_OK : FL_FAIL(err, FL_EINVAL, "degenerate triangle (twice area %g)", a2);
            memset(Ke, 0, sizeof Ke);
            for (int a = 0; a < 3 && s == FL_OK; a++)
                for (int bb = 0; bb < 3; bb++) {
                    int a1 = (a + 1) % 3, a2i = (a + 2) % 3, b1 = (bb + 1) % 3, b2 = (bb + 2) % 3;
                    double gax = (xy[2 * a1 + 1] - xy[2 * a2i + 1]) / a2, gay = (xy[2 * a2i] - xy[2 * a1]) / a2;
                    double gbx = (xy[2 * b1 + 1] - xy[2 * b2 + 1]) / a2, gby = (xy[2 * b2] - xy[2 * b1]) / a2;
                    double val = 0.5 * fabs(a2) * (gax * gbx + gay * gby);
                    Ke[6 * (2 * a) + 2 * bb] = val;
                    Ke[6 * (2 * a + 1) + 2 * bb + 1] = val;
                }
        } else {
            s = fl_fe2d_element_mass(xy, mat->rho, which == FL_FE2D_MASS_LUMPED, Ke, err);
        }
        if (s != FL_OK) {
            free(r); free(c); free(v);
            return s;
        }
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                r[t] = 2 * tri[i / 2] + i % 2;
                c[t] = 2 * tri[j / 2] + j % 2;
                v[t] = Ke[6 * i + j];
                t++;
            }
    }
    *row = r;
    *col = c;
    *val = v;
    *nnz = t;
    return FL_OK;
}

fl_status fl_fe2d_assemble_dense(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat,
                                 fl_fe2d_matrix which, gsl_matrix **out, fl_error *err)
{
    *out = NULL;
    size_t nnz;
    int *r, *c;
    double *v;
    FL_TRY(fl_fe2d_assemble_triplets(mesh, mat, which, &nnz, &r, &c, &v, err));
    size_t n = 2 * mesh->nnodes;
    gsl_matrix *K = fl_dense_matrix_calloc(n, n);
    if (!K) {
        free(r); free(c); free(v);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate a dense %zu x %zu matrix", n, n);
    }
    for (size_t t = 0; t < nnz; t++)
        *gsl_matrix_ptr(K, (size_t)r[t], (size_t)c[t]) += v[t];
    free(r); free(c); free(v);
    *out = K;
    return FL_OK;
}

fl_status fl_fe2d_affine_fields(const fl_fe2d_mesh *mesh, gsl_matrix **out, fl_error *err)
{
    *out = NULL;
    if (!mesh || mesh->nnodes == 0) return FL_FAIL(err, FL_EINVAL, "empty mesh");
    gsl_matrix *R = fl_dense_matrix_calloc(2 * mesh->nnodes, 6);
    if (!R) return FL_FAIL(err, FL_ENOMEM, "cannot allocate affine fields");
    for (size_t p = 0; p < mesh->nnodes; p++) {
        double x = mesh->xy[2 * p], y = mesh->xy[2 * p + 1];
        gsl_matrix_set(R, 2 * p, 0, 1.0);
        gsl_matrix_set(R, 2 * p + 1, 1, 1.0);
        gsl_matrix_set(R, 2 * p, 2, x);
        gsl_matrix_set(R, 2 * p + 1, 3, x);
        gsl_matrix_set(R, 2 * p, 4, y);
        gsl_matrix_set(R, 2 * p + 1, 5, y);
    }
    *out = R;
    return FL_OK;
}

fl_status fl_fe2d_dofmap_alloc(size_t nfull, size_t nfix, const int *fixed_dofs,
                               const double *values, fl_fe2d_dofmap **out, fl_error *err)
{
    *out = NULL;
    if (nfull == 0 || nfix >= nfull)
        return FL_FAIL(err, FL_EINVAL, "dof map needs at least one free dof (%zu of %zu fixed)",
                       nfix, nfull);
    fl_fe2d_dofmap *m = calloc(1, sizeof *m);
    if (m) {
        m->free_of_full = malloc(nfull * sizeof(int));
        m->full_of_free = malloc(nfull * sizeof(int));
        m->value = calloc(nfull, sizeof(double));
    }
    if (!m || !m->free_of_full || !m->full_of_free || !m->value) {
        fl_fe2d_dofmap_free(m);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate a dof map");
    }
    m->nfull = nfull;
    for (size_t i = 0; i < nfull; i++) m->free_of_full[i] = 0;
    for (size_t k = 0; k < nfix; k++) {
        int d = fixed_dofs[k];
        double val = values ? values[k] : 0.0;
        if (d < 0 || (size_t)d >= nfull || m->free_of_full[d] == -1 || !isfinite(val)) {
            fl_fe2d_dofmap_free(m);
            return FL_FAIL(err, FL_EINVAL,
                           "fixed dof %d (entry %zu) out of range, repeated or with a "
                           "non-finite value", d, k);
        }
        m->free_of_full[d] = -1;
        m->value[d] = val;
    }
    size_t nf = 0;
    for (size_t i = 0; i < nfull; i++)
        if (m->free_of_full[i] == 0) {
            m->free_of_full[i] = (int)nf;
            m->full_of_free[nf++] = (int)i;
        }
    m->nfree = nf;
    *out = m;
    return FL_OK;
}

void fl_fe2d_dofmap_free(fl_fe2d_dofmap *map)
{
    if (!map) return;
    free(map->free_of_full);
    free(map->full_of_free);
    free(map->value);
    free(map);
}

fl_status fl_fe2d_nodes_on_line(const fl_fe2d_mesh *mesh, int axis, double value,
                                double tol, size_t *count, int **idx, fl_error *err)
{
    *count = 0;
    *idx = NULL;
    if (!mesh || (axis != 0 && axis != 1) || !(tol >= 0))
        return FL_FAIL(err, FL_EINVAL, "nodes_on_line needs a mesh, axis 0 or 1 and tol >= 0");
    int *list = malloc((mesh->nnodes ? mesh->nnodes : 1) * sizeof(int));
    if (!list) return FL_FAIL(err, FL_ENOMEM, "cannot allocate a node list");
    size_t n = 0;
    for (size_t p = 0; p < mesh->nnodes; p++)
        if (fabs(mesh->xy[2 * p + axis] - value) <= tol) list[n++] = (int)p;
    /* insertion sort on the other coordinate */
    int other = 1 - axis;
    for (size_t i = 1; i < n; i++) {
        int key = list[i];
        size_t j = i;
        while (j > 0 && mesh->xy[2 * list[j - 1] + other] > mesh->xy[2 * key + other]) {
            list[j] = list[j - 1];
            j--;
        }
        list[j] = key;
    }
    *count = n;
    *idx = list;
    return FL_OK;
}

fl_status fl_fe2d_reduce_matrix(const gsl_matrix *K, const fl_fe2d_dofmap *map,
                                gsl_matrix **Kff, gsl_vector *shift, fl_error *err)
{
    *Kff = NULL;
    if (!K || !map || K->size1 != map->nfull || K->size2 != map->nfull
        || (shift && shift->size != map->nfree))
        return FL_FAIL(err, FL_EDIM, "reduce_matrix: matrix or shift does not match the dof map");
    gsl_matrix *R = fl_dense_matrix_alloc(map->nfree, map->nfree);
    if (!R) return FL_FAIL(err, FL_ENOMEM, "cannot allocate the reduced matrix");
    for (size_t i = 0; i < map->nfree; i++)
        for (size_t j = 0; j < map->nfree; j++)
            gsl_matrix_set(R, i, j, gsl_matrix_get(K, (size_t)map->full_of_free[i],
                                                   (size_t)map->full_of_free[j]));
    if (shift) {
        for (size_t i = 0; i < map->nfree; i++) {
            double s = 0;
            for (size_t j = 0; j < map->nfull; j++)
                if (map->free_of_full[j] < 0)
                    s -= gsl_matrix_get(K, (size_t)map->full_of_free[i], j) * map->value[j];
            gsl_vector_set(shift, i, s);
        }
    }
    *Kff = R;
    return FL_OK;
}

void fl_fe2d_restrict(const fl_fe2d_dofmap *map, const double *full, double *free_part)
{
    for (size_t i = 0; i < map->nfree; i++) free_part[i] = full[map->full_of_free[i]];
}

void fl_fe2d_expand(const fl_fe2d_dofmap *map, const double *free_part, double *full)
{
    for (size_t j = 0; j < map->nfull; j++)
        full[j] = map->free_of_full[j] < 0 ? map->value[j] : free_part[map->free_of_full[j]];
}

/* 002 (3)-(4): u_N(a_i) = nu_i^T u, u_T(a_i) = tau_i^T u with unit,
 * mutually orthogonal vectors.  Each contact node owns two free dofs, so the
 * rows have disjoint supports and (4) holds exactly. */
fl_status fl_fe2d_contact_vectors(const fl_fe2d_mesh *mesh, const fl_fe2d_dofmap *map,
                                  size_t nc, const int *node, const double *normal,
                                  gsl_matrix **Bnu, gsl_matrix **Btau, fl_error *err)
{
    *Bnu = *Btau = NULL;
    if (!mesh || nc == 0 || !node || !normal)
        return FL_FAIL(err, FL_EINVAL, "contact_vectors needs at least one contact node");
    size_t nfull = 2 * mesh->nnodes;
    if (map && map->nfull != nfull)
        return FL_FAIL(err, FL_EDIM, "dof map has %zu dofs, mesh %zu", map->nfull, nfull);
    size_t nfree = map ? map->nfree : nfull;
    gsl_matrix *N = fl_dense_matrix_calloc(nc, nfree), *T = fl_dense_matrix_calloc(nc, nfree);
    if (!N || !T) {
        gsl_matrix_free(N);
        gsl_matrix_free(T);
        return FL_FAIL(err, FL_ENOMEM, "cannot allocate contact vectors");
    }
    fl_status s = FL_OK;
    for (size_t i = 0; i < nc && s == FL_OK; i++) {
        int p = node[i];
        double nx = normal[2 * i], ny = normal[2 * i + 1], len = hypot(nx, ny);
        if (p < 0 || (size_t)p >= mesh->nnodes) {
            s = FL_FAIL(err, FL_EINVAL, "contact node %d out of range", p);
            break;
        }
        if (!(len > 0) || !isfinite(len)) {
            s = FL_FAIL(err, FL_EINVAL, "contact node %d: zero or non-finite normal", p);
            break;
        }
        for (size_t k = 0; k < i; k++)
            if (node[k] == p) s = FL_FAIL(err, FL_EINVAL, "contact node %d listed twice", p);
        if (s != FL_OK) break;
        int dx = 2 * p, dy = 2 * p + 1;
        if (map) {
            dx = map->free_of_full[dx];
            dy = map->free_of_full[dy];
            if (dx < 0 || dy < 0) {
                s = FL_FAIL(err, FL_EINVAL, "contact node %d has a Dirichlet dof", p);
                break;
            }
        }
        nx /= len;
        ny /= len;
        gsl_matrix_set(N, i, (size_t)dx, nx);
        gsl_matrix_set(N, i, (size_t)dy, ny);
        gsl_matrix_set(T, i, (size_t)dx, -ny);   /* tau = rot90(nu) */
        gsl_matrix_set(T, i, (size_t)dy, nx);
    }
    if (s != FL_OK) {
        gsl_matrix_free(N);
        gsl_matrix_free(T);
        return s;
    }
    *Bnu = N;
    *Btau = T;
    return FL_OK;
}

fl_status fl_fe2d_write_vtk(const char *path, const fl_fe2d_mesh *mesh, const double *u,
                            double scale, const double *cell_data, const char *cell_name,
                            fl_error *err)
{
    if (!mesh || !path) return FL_FAIL(err, FL_EINVAL, "write_vtk needs a mesh and a path");
    return fl_mesh_io_write_vtk(path, mesh->nnodes, mesh->xy, mesh->nelems, mesh->tri, u, scale,
                                cell_data, cell_name, err);
}
