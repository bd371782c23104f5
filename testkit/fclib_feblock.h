/* fclib_feblock.h — 2D frictional local problems (FCLIB form W, q, mu) of
 * an elastic P1 finite-element block pressed on a rigid foundation, shared
 * by bench/bench_fclib_siconos.c and tests/test_siconos_fc.c (header-only,
 * static functions, as testkit/fclib_disclike.h).
 *
 * Block.  The rectangle [0, 1] x [0, ly], nx = nc - 1 square cells along x
 * and ny = min(nx, FL_FEBLOCK_NY_MAX) cells along y (ly = ny / nx: a thin
 * elastic layer for large nc, a square block for small nc), P1 triangles
 * (reference/fe2d.h, 002 §2), plane strain, Lame lambda = mu_L = 1
 * (Poisson ratio 1/4).  The nc nodes of the bottom edge y = 0 are the
 * contact nodes; the foundation is the line y = 0 (zero initial gap).
 *
 * Load.  The top edge y = ly is bonded to a rigid plate (Dirichlet,
 * eliminated, fl_fe2d_dofmap): its nodes move by
 *     u_x = s = 0.75 d0,   u_y = -d(x) = -d0 (1.4 x - 0.4),   d0 = 0.01 ly,
 * a tilted plate that lifts the left end (x < 0.29: the layer is pulled
 * away, contacts open), presses the right end (x > 0.29) and shears the
 * whole layer.  For a layer the column at x carries a normal traction
 * ~ (lambda + 2 mu_L) d(x) / ly = 3 d(x) / ly and a shear one ~ s / ly, so
 * with friction coefficient mu the nodes with 3 mu d(x) < s slide and
 * those with 3 mu d(x) > s stick: for mu = 0.5, open for x < 0.29, sliding
 * for 0.29 < x < 0.64, sticking for x > 0.64 (the edges of a short block
 * perturb these bounds).
 *
 * Local problem.  Static equilibrium with the top fixed: the per-step
 * problem of the midpoint scheme (002 (20)-(23), optimized/midpoint_sparse.h)
 * with S = A (the stiffness on the free dofs, SPD since the top edge is
 * clamped) in place of (4/dt^2) M_r + A:
 *     A u = fhat + B^T r,   fhat = -A(free, fixed) u_fixed,
 *     U = B u = W r + q,    W = B A^-1 B^T,   q = B A^-1 fhat,
 * where B has the rows of the contact vectors of 002 (3) in the library
 * convention (fe2d.h): outward normal nu = (0, -1), tau = rot90(nu) =
 * (1, 0); U_N = -nu^T u = u_y is the gap (>= 0 admissible), U_T = tau^T u =
 * u_x the slip, r_N >= 0 the compressive reaction pushing the body up, so
 * the row of (N, T) is the unit vector of the node's y (x) dof.  W is SPD
 * (distinct unit rows, A SPD) and dense (A^-1 is); it is computed column by
 * column with one CHOLMOD factor of A (2 nc solves, no dense n x n).  The
 * components are stored [N, T] per contact (FCLIB), mu is the same for
 * every contact.
 *
 * Returned: p->W (dense) and, if ctx != NULL, p->Ws (full storage, every
 * entry of W kept) on ctx.  NULL on failure (nc < 2, mu < 0, assembly or
 * factor error).
 *
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_FCLIB_FEBLOCK_H
#define FL_FCLIB_FEBLOCK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fl_problem.h"
#include "fl_sparse.h"
#include "optimized/fe2d_sparse.h"
#include "reference/fe2d.h"

#define FL_FEBLOCK_NY_MAX 10

static fl_local_problem *fl_feblock_problem(fl_sparse_ctx *ctx, size_t nc, double mu)
{
    if (nc < 2 || !(mu >= 0)) return NULL;
    size_t nx = nc - 1, ny = nx < FL_FEBLOCK_NY_MAX ? nx : FL_FEBLOCK_NY_MAX;
    double ly = (double)ny / (double)nx, d0 = 0.01 * ly, s = 0.75 * d0;
    fl_sparse_ctx own;
    memset(&own, 0, sizeof own);
    fl_sparse_ctx *c = ctx;
    if (!c) {
        if (fl_sparse_start(&own, NULL) != FL_OK) return NULL;
        c = &own;
    }
    fl_fe2d_mesh *mesh = NULL;
    fl_fe2d_dofmap *map = NULL;
    cholmod_sparse *A = NULL;
    cholmod_factor *L = NULL;
    fl_local_problem *p = NULL;
    int *fix = NULL;
    double *val = NULL, *shift = NULL, *x = NULL, *e = NULL;
    int ok = 0;
    if (fl_fe2d_mesh_rect(0, 0, 1, ly, nx, ny, FL_FE2D_DIAG_RIGHT, &mesh, NULL) != FL_OK)
        goto done;
    /* clamp the top edge: nodes (i, ny), index ny (nx+1) + i */
    size_t ntop = nx + 1, nfull = 2 * mesh->nnodes;
    fix = malloc(2 * ntop * sizeof *fix);
    val = malloc(2 * ntop * sizeof *val);
    if (!fix || !val) goto done;
    for (size_t i = 0; i < ntop; i++) {
        size_t node = ny * (nx + 1) + i;
        double xi = mesh->xy[2 * node];
        fix[2 * i] = (int)(2 * node), val[2 * i] = s;
        fix[2 * i + 1] = (int)(2 * node + 1), val[2 * i + 1] = -d0 * (1.4 * xi - 0.4);
    }
    if (fl_fe2d_dofmap_alloc(nfull, 2 * ntop, fix, val, &map, NULL) != FL_OK) goto done;
    fl_fe2d_material mat = {1.0, 1.0, 1.0, FL_FE2D_PLANE_STRAIN};
    size_t n = map->nfree;
    shift = malloc(n * sizeof *shift);
    x = malloc(n * sizeof *x);
    e = calloc(n, sizeof *e);
    if (!shift || !x || !e) goto done;
    if (fl_fe2d_assemble_sparse(c, mesh, &mat, FL_FE2D_STIFFNESS, map, &A, shift, NULL) != FL_OK ||
        fl_sparse_factor(c, A, &L, NULL) != FL_OK ||
        fl_local_problem_alloc(nc, 2, 1, &p, NULL) != FL_OK)
        goto done;
    /* free index of the contact dof: bottom node i (index i), component
     * N -> y (2i+1), T -> x (2i) */
    size_t m = 2 * nc;
    int *row = malloc(m * sizeof *row);
    if (!row) goto done;
    for (size_t i = 0; i < nc; i++) {
        row[2 * i] = map->free_of_full[2 * i + 1];
        row[2 * i + 1] = map->free_of_full[2 * i];
    }
    for (size_t b = 0; b < m; b++) {   /* column b of W = B A^-1 B^T e_b */
        e[row[b]] = 1.0;
        if (fl_sparse_solve(c, L, e, x, NULL) != FL_OK) {
            free(row);
            goto done;
        }
        e[row[b]] = 0.0;
        for (size_t a = 0; a < m; a++) gsl_matrix_set(p->W, a, b, x[row[a]]);
    }
    /* symmetrise the rounding */
    for (size_t a = 0; a < m; a++)
        for (size_t b = a + 1; b < m; b++) {
            double w = 0.5 * (gsl_matrix_get(p->W, a, b) + gsl_matrix_get(p->W, b, a));
            gsl_matrix_set(p->W, a, b, w);
            gsl_matrix_set(p->W, b, a, w);
        }
    if (fl_sparse_solve(c, L, shift, x, NULL) != FL_OK) {
        free(row);
        goto done;
    }
    for (size_t a = 0; a < m; a++) gsl_vector_set(p->q, a, x[row[a]]);
    free(row);
    for (size_t i = 0; i < nc; i++) p->mu[i] = mu;
    if (ctx) {
        if (fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, NULL) != FL_OK) goto done;
        p->ctx = ctx;
    }
    ok = 1;
done:
    fl_sparse_free_factor(c, &L);
    fl_sparse_free(c, &A);
    fl_fe2d_dofmap_free(map);
    fl_fe2d_mesh_free(mesh);
    free(fix);
    free(val);
    free(shift);
    free(x);
    free(e);
    if (!ctx) fl_sparse_finish(&own);
    if (!ok) {
        fl_local_problem_free(p);
        return NULL;
    }
    return p;
}

#endif
