/* fe2d.h — linear elasticity with P1 triangles (002 §2), the finite-element
 * side of the elastodynamic contact problem of paper 002.
 *
 * Degrees of freedom: node p carries dofs 2p (x component) and 2p+1
 * (y component).  Thickness 1.  Units are the caller's (SI in data/002).
 *
 * Contents
 *   - meshes: structured rectangle nx x ny (two diagonal patterns) and a
 *     plain text reader (format below; the file is read by io/fl_mesh_io.c);
 *   - element matrices: stiffness A_e = area B^T D B (plane strain or plane
 *     stress), consistent mass rho area/12 [2 1 1;1 2 1;1 1 2] (x) I_2,
 *     lumped mass rho area/3 I_6 (002 §2, A_ij and M_ij);
 *   - assembly to triplets (shared by the dense reference and the sparse
 *     twin optimized/fe2d_sparse.c) and to dense GSL matrices;
 *   - Dirichlet conditions by elimination (a dof map free <-> full);
 *   - contact nodes: rows nu_i, tau_i of B_nu, B_tau in the free-dof space
 *     satisfying 002 (3)-(4);
 *   - legacy VTK output of the deformed mesh for ParaView (written by
 *     io/fl_mesh_io.c).
 *
 * Sign convention at this boundary.  002 writes u_N = nu_i^T u <= 0 with
 * nu_i the OUTWARD unit normal of the body.  The library (README.md) stores
 * gap >= 0 and compressive reaction >= 0: gap_i = -nu_i^T u and
 * r_n,i = -lambda_nu,i.  fe2d only builds nu_i and tau_i as in 002 (3); the
 * conversion is done in reference/midpoint.c.  tau_i is nu_i rotated by +90
 * degrees: tau = (-n_y, n_x).
 *
 * Ownership: every *_alloc returns an object owned by the caller, freed by
 * the matching *_free (which accepts NULL).
 *
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_FE2D_H
#define FL_FE2D_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_status.h"

typedef struct fl_fe2d_mesh {
    size_t nnodes;
    size_t nelems;
    double *xy;    /* 2 * nnodes coordinates (x0, y0, x1, y1, ...) */
    int *tri;      /* 3 * nelems node indices, counter-clockwise */
} fl_fe2d_mesh;

/* Diagonal pattern of the structured mesh: each cell [x_i,x_i+1]x[y_j,y_j+1]
 * is cut along the diagonal from its lower-left to its upper-right corner
 * (FL_FE2D_DIAG_RIGHT) or from its lower-right to its upper-left corner
 * (FL_FE2D_DIAG_LEFT), or along both through a centre node into four
 * triangles (FL_FE2D_CROSS: the mesh keeps both symmetries of the
 * rectangle, as 004 §5.2 asks of its meshes). */
typedef enum fl_fe2d_pattern {
    FL_FE2D_DIAG_RIGHT = 0,
    FL_FE2D_DIAG_LEFT = 1,
    FL_FE2D_CROSS = 2
} fl_fe2d_pattern;

/* Structured mesh of [x0, x0+lx] x [y0, y0+ly] with nx x ny cells, 2 nx ny
 * triangles (4 nx ny for FL_FE2D_CROSS); node (i, j) (0 <= i <= nx,
 * 0 <= j <= ny) has index j (nx+1) + i; the centre of cell (i, j) (CROSS
 * only) has index (nx+1)(ny+1) + j nx + i.  FL_EINVAL for nx or ny = 0 or
 * non-positive lengths. */
fl_status fl_fe2d_mesh_rect(double x0, double y0, double lx, double ly,
                            size_t nx, size_t ny, fl_fe2d_pattern pattern,
                            fl_fe2d_mesh **out, fl_error *err);

/* Plain mesh file:
 *     # comment lines start with '#'
 *     nodes N
 *     x y            (N lines)
 *     triangles T
 *     i j k          (T lines, 0-based node indices)
 * Triangles given clockwise are reoriented.  FL_EIO / FL_EPARSE (with the
 * line number in err) / FL_EINVAL (index out of range, degenerate element). */
fl_status fl_fe2d_mesh_read(const char *path, fl_fe2d_mesh **out, fl_error *err);
void fl_fe2d_mesh_free(fl_fe2d_mesh *mesh);

typedef enum fl_fe2d_model {
    FL_FE2D_PLANE_STRAIN = 0,
    FL_FE2D_PLANE_STRESS = 1
} fl_fe2d_model;

typedef struct fl_fe2d_material {
    double lambda;       /* Lame lambda >= 0 */
    double mu;           /* Lame mu > 0 */
    double rho;          /* density > 0 */
    fl_fe2d_model model;
} fl_fe2d_material;

/* Elasticity matrix D (3x3, Voigt order xx, yy, 2xy) of the model:
 * plane strain uses lambda; plane stress lambda* = 2 lambda mu/(lambda+2 mu). */
fl_status fl_fe2d_elasticity(const fl_fe2d_material *mat, double D[9], fl_error *err);

/* Element matrices (6x6, row-major, dof order x1 y1 x2 y2 x3 y3) of the
 * triangle with vertices xy[0..5].  FL_EINVAL for a degenerate triangle. */
fl_status fl_fe2d_element_stiffness(const double xy[6], const fl_fe2d_material *mat,
                                    double K[36], fl_error *err);
fl_status fl_fe2d_element_mass(const double xy[6], double rho, int lumped,
                               double Me[36], fl_error *err);

/* Which matrix an assembly builds. */
typedef enum fl_fe2d_matrix {
    FL_FE2D_STIFFNESS = 0,
    FL_FE2D_MASS = 1,          /* consistent mass */
    FL_FE2D_MASS_LUMPED = 2,   /* row-sum lumped mass (rho area / 3 per node) */
    FL_FE2D_LAPLACE = 3        /* vector Laplacian int grad u : grad w (H1 seminorm; rho ignored) */
} fl_fe2d_matrix;

/* Triplets of the full (2 nnodes) matrix, duplicates not summed, 36 per
 * element.  Arrays owned by the caller (free()).  */
fl_status fl_fe2d_assemble_triplets(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat,
                                    fl_fe2d_matrix which, size_t *nnz, int **row,
                                    int **col, double **val, fl_error *err);

/* Dense full matrix (2 nnodes x 2 nnodes), allocated here. */
fl_status fl_fe2d_assemble_dense(const fl_fe2d_mesh *mesh, const fl_fe2d_material *mat,
                                 fl_fe2d_matrix which, gsl_matrix **out, fl_error *err);

/* Nodal interpolants of the six affine vector fields (002 §3: total mass,
 * centre of gravity and moments of inertia are the Gram matrix of these
 * fields in the mass inner product).  R is 2 nnodes x 6 with columns
 * (1,0), (0,1), (x,0), (0,x), (y,0), (0,y). */
fl_status fl_fe2d_affine_fields(const fl_fe2d_mesh *mesh, gsl_matrix **out, fl_error *err);

/* Dirichlet conditions by elimination: a map between the full dofs and the
 * free ones, and the prescribed values of the fixed ones. */
typedef struct fl_fe2d_dofmap {
    size_t nfull, nfree;
    int *free_of_full;     /* index in the free numbering, -1 if fixed */
    int *full_of_free;     /* inverse map, nfree entries */
    double *value;         /* prescribed value of each full dof (0 for free) */
} fl_fe2d_dofmap;

/* The caller lists the fixed full dofs and their values (nfix entries).
 * FL_EINVAL for an index out of range or listed twice. */
fl_status fl_fe2d_dofmap_alloc(size_t nfull, size_t nfix, const int *fixed_dofs,
                               const double *values, fl_fe2d_dofmap **out, fl_error *err);
void fl_fe2d_dofmap_free(fl_fe2d_dofmap *map);

/* Nodes whose coordinate `axis` (0 = x, 1 = y) lies within tol of `value`,
 * in increasing order of the other coordinate.  *idx allocated here. */
fl_status fl_fe2d_nodes_on_line(const fl_fe2d_mesh *mesh, int axis, double value,
                                double tol, size_t *count, int **idx, fl_error *err);

/* Reduction of a full matrix / vector to the free dofs (elimination):
 *   K_ff = K(free, free),  shift = -K(free, fixed) u_fixed.
 * shift may be NULL; *Kff allocated here. */
fl_status fl_fe2d_reduce_matrix(const gsl_matrix *K, const fl_fe2d_dofmap *map,
                                gsl_matrix **Kff, gsl_vector *shift, fl_error *err);
/* Free part of a full vector (out has nfree entries) and back (full gets
 * the prescribed values on fixed dofs). */
void fl_fe2d_restrict(const fl_fe2d_dofmap *map, const double *full, double *free_part);
void fl_fe2d_expand(const fl_fe2d_dofmap *map, const double *free_part, double *full);

/* Contact vectors of 002 (3): for the contact nodes node[0..nc-1] with the
 * outward unit normals normal[2i], normal[2i+1] (normalised here), rows
 * nu_i and tau_i = rot90(nu_i) of Bnu, Btau (nc x nfree, allocated here).
 * The map may be NULL (no Dirichlet dof).  FL_EINVAL if a contact node has a
 * fixed dof, appears twice or a normal is zero; then (4) holds exactly. */
fl_status fl_fe2d_contact_vectors(const fl_fe2d_mesh *mesh, const fl_fe2d_dofmap *map,
                                  size_t nc, const int *node, const double *normal,
                                  gsl_matrix **Bnu, gsl_matrix **Btau, fl_error *err);

/* Legacy VTK (ASCII, UNSTRUCTURED_GRID) of the mesh displaced by
 * scale * u (u: full dofs, may be NULL), with the displacement as point
 * data "displacement" and, if cell_data is non-NULL, one scalar per
 * element named cell_name. */
fl_status fl_fe2d_write_vtk(const char *path, const fl_fe2d_mesh *mesh, const double *u,
                            double scale, const double *cell_data, const char *cell_name,
                            fl_error *err);

/* Twice the signed area of a triangle (positive when counter-clockwise). */
double fl_fe2d_twice_area(const double xy[6]);

#endif
