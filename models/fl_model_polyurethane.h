/* fl_model_polyurethane.h — the polyurethane block of 004 §5 (Villechaise
 * and Zeghloul's experiment), built from data/004/polyurethane.json.
 *
 * Plane stress P1 block L x H (structured nx x ny cells, each cut into four
 * triangles by its diagonals, as 004 §5.2's meshes keep both symmetries),
 * E, nu, rho, mu from 004 §5; units mm, N, tonne, s (so M^-1 K is in
 * s^-2).  Mirrored axis y' = -y: the block is [0, L] x [-H, 0], the rigid
 * plane y' = 0 above it, so 004's u_N = u_y' <= 0.  The far face y' = -H is
 * pressed by U_N^0, then moved tangentially by U_T.  Quasistatic increments
 * (004 (115)-(117)) by fl_quasistatic_step on the Schur complement onto the contact
 * dofs (exact for linear elasticity); each state is lifted back to the
 * whole block.  The thickness is set so that the pressing gives F_N^0.
 *
 * Ownership: the block owns every matrix, vector and index array it holds;
 * sc and sf point into them; the sparse twin owns its CHOLMOD context and
 * matrices.
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_MODEL_POLYURETHANE_H
#define FL_MODEL_POLYURETHANE_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_dense.h"
#include "fl_sparse.h"
#include "optimized/stability_sparse.h"
#include "reference/fe2d.h"
#include "reference/quasistatic.h"
#include "reference/stability.h"

#define FL_MODEL_POLYURETHANE_MAX_ROWS 64
#define FL_MODEL_POLYURETHANE_MAX_LEVELS 16

/* One row of 004 Table 1. */
typedef struct fl_model_polyurethane_row {
    double UT;                   /* prescribed tangential displacement (mm) */
    int stick, slip, no_contact, flutter_mode;
    double ks;                   /* min eig K*_S per unit thickness */
    double lambda;               /* min real Lambda of M*^-1 K* (s^-2) */
    int quick;                   /* a row of the --quick run */
    const char *discrepancy;     /* the documented reason when the Lambda column is not reproduced, or NULL */
    char reason[256];
} fl_model_polyurethane_row;

/* The data file. */
typedef struct fl_model_polyurethane {
    double E, nu, rho, mu;       /* MPa, -, tonne/mm^3, - */
    double L, H, UN, dU, UT_final, FN0;
    long nx, ny, contact_nodes;
    /* 004 Table 1 and the paper's statements on it */
    fl_model_polyurethane_row rows[FL_MODEL_POLYURETHANE_MAX_ROWS];
    int nrows;
    double tol_ks, tol_lambda_rel, nec_UT;
    int lambda_digits;           /* significant digits of Table 1's Lambda column */
    /* §5.7 damping */
    double xi[FL_MODEL_POLYURETHANE_MAX_LEVELS];
    int nlevels;
    double xi_ratio;             /* xi at the last mode / xi at the first */
    int first_mode, last_mode, low_mode;
    double onset_strongest, onset_tol;
    double switch_xi[2];
    int switch_mode[2];
} fl_model_polyurethane;

/* The assembled block along the loading. */
typedef struct fl_model_polyurethane_block {
    const fl_model_polyurethane *par;
    double thick;                 /* mm: F_N^0 after pressing */
    fl_fe2d_mesh *mesh;
    gsl_matrix *K, *M;            /* whole block, n x n */
    size_t n, nc, nl, ni, m;      /* dofs, contact nodes, loaded nodes, interior dofs, 2 nc */
    int *cn, *ln;
    size_t *ci, *ii, *pi;         /* contact, interior, prescribed dofs */
    gsl_matrix *X;                /* K_ii^-1 [K_ic, K_ip e_N, K_ip e_T] */
    gsl_matrix *S, *Mc;           /* Schur complement on the contact dofs; Mc = I (unused) */
    double *loadN, *loadT;        /* contact load per unit U_N, U_T */
    size_t *iT, *iN;              /* contact dofs in the Schur numbering */
    size_t *fT, *fN;              /* contact dofs in the block numbering */
    unsigned char *pres;
    fl_stability_system sc, sf;        /* Schur (quasistatic) and whole block (stability) */
    gsl_vector *f, *uk, *g, *u, *r, *ufull, *rfull;
    fl_quasistatic_options qo;
    fl_spd *spd;
} fl_model_polyurethane_block;

/* The sparse twin of the block: K and M in CSC (symmetric upper storage). */
typedef struct fl_model_polyurethane_sparse {
    fl_sparse_ctx ctx;
    cholmod_sparse *K, *M;
    fl_stability_system_sparse s;
} fl_model_polyurethane_sparse;

/* Read the file; errors name the file, line and field (E > 0, 0 <= nu <
 * 0.5, rho > 0, mu >= 0, L, H > 0, H/L = H_over_L, cells >= 1, rows in
 * decreasing U_T, ...). */
fl_status fl_model_polyurethane_load(const char *path, fl_model_polyurethane *out, fl_error *err);

/* Assemble, condense onto the contact dofs, press by U_N^0 (one increment
 * from rest) and set the thickness from F_N^0.  FL_EINVAL when the mesh
 * does not have the file's number of contact nodes.  *b is zeroed first;
 * free it with fl_model_polyurethane_block_free even on error. */
fl_status fl_model_polyurethane_block_init(const fl_model_polyurethane *par, fl_model_polyurethane_block *b,
                                           fl_error *err);
void fl_model_polyurethane_block_free(fl_model_polyurethane_block *b);

/* 004 (115)-(117): one quasistatic increment to the face position U_T. */
fl_status fl_model_polyurethane_advance(fl_model_polyurethane_block *b, double UT, fl_quasistatic_result *qr, fl_error *err);

/* The current state lifted to the whole block (ufull, rfull), its 004 §2.3
 * partition into lab (nc labels), the counts of stick / slip / free nodes
 * and the total tangential and normal reactions per unit thickness.  With
 * lab NULL only the lifted state and the forces (FT, FN may be NULL); the
 * counts are then not touched. */
fl_status fl_model_polyurethane_state(fl_model_polyurethane_block *b, double UT, fl_stability_label *lab, int *nstick,
                                      int *nslip, int *nfree, double *FT, double *FN, fl_error *err);

fl_status fl_model_polyurethane_sparse_init(const fl_model_polyurethane_block *b, fl_model_polyurethane_sparse *ps,
                                            fl_error *err);
void fl_model_polyurethane_sparse_free(fl_model_polyurethane_sparse *ps);

/* 004 §5.7: Rayleigh C = alpha M + beta K with damping ratio xi1 at the
 * angular frequency w1 and xi1 * ratio at w2: for proportional damping each
 * mode is lambda^2 + 2 z w lambda + w^2 = 0, z(w) = alpha/(2w) + beta w/2,
 * xi = z/sqrt(1 - z^2) (proofs/stability.md §3); a 2 x 2 solve. */
void fl_model_polyurethane_rayleigh(double xi1, double ratio, double w1, double w2, double *alpha, double *beta);

#endif
