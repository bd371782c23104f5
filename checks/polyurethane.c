/* polyurethane.c — `frictionlab reproduce polyurethane polyurethane_damping`:
 * the polyurethane block of 004 §5 (Villechaise & Zeghloul's experiment):
 * quasistatic tangential loading (§5.3), the stability analyses of §5.4 at
 * the Table 1 rows (dense reference and sparse twin side by side), and the
 * viscous damping study of §5.7 (Figs. 18-19).  004 §5.
 *
 * Model: plane stress P1 block L x H (H/L = 0.5, 20 x 10 cells each cut
 * into four triangles by its diagonals — the mesh keeps both symmetries, as
 * 004 §5.2 says of its meshes; 21 contact nodes, 862 dofs), E = 5 MPa, nu = 0.48, rho = 1.2e-3 g/mm^3, mu = 1.1; units mm, N,
 * tonne, s (so M^-1 K is in s^-2).  Mirrored axis y' = -y: the block is
 * [0, L] x [-H, 0], the rigid plane y' = 0 above it, so 004's u_N = u_y' <= 0.
 * The far face y' = -H is pressed by U_N^0 = 0.5 mm, then moved
 * tangentially by U_T (the plate moving right = the face moving left).
 * Quasistatic increments by fl_qs_step on the Schur complement onto the 42
 * contact dofs (exact for linear elasticity); each analysed state is
 * lifted back to the whole block.  L = 80 mm (first all-stuck frequency
 * near the quoted 454 Hz) and the thickness (F_N^0 = -55 N) are ours: 004
 * gives neither (data/004/polyurethane.json).  Eigenvalues of K*_S are
 * printed per unit thickness (N/mm per mm), as 004's Table 1 turns out to
 * be: they then agree to its three decimals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>

#include "checks/fl_check.h"
#include "fl_dense.h"
#include "optimized/stability_sparse.h"
#include "reference/fe2d.h"
#include "reference/quasistatic.h"
#include "reference/stability.h"
#include "checks/fl_tasks.h"
#include "checks/stability_checks.h"
#include "fl_scalar.h"
#include "fl_clock.h"


typedef struct poly {
    double L, H, E, nu, rho, mu, UN, dU, thick;
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
    fl_stab_system sc, sf;
    gsl_vector *f, *uk, *g, *u, *r, *ufull, *rfull;
    fl_qs_options qo;
    fl_spd *spd;
} poly;

static void poly_free(poly *b)
{
    free(b->cn); free(b->ln); free(b->ci); free(b->ii); free(b->pi);
    free(b->loadN); free(b->loadT); free(b->iT); free(b->iN); free(b->fT); free(b->fN); free(b->pres);
    gsl_matrix *mats[] = {b->K, b->M, b->X, b->S, b->Mc};
    for (size_t k = 0; k < sizeof mats / sizeof *mats; k++) if (mats[k]) gsl_matrix_free(mats[k]);
    gsl_vector *vecs[] = {b->f, b->uk, b->g, b->u, b->r, b->ufull, b->rfull};
    for (size_t k = 0; k < sizeof vecs / sizeof *vecs; k++) if (vecs[k]) gsl_vector_free(vecs[k]);
    fl_spd_free(b->spd);
    fl_fe2d_mesh_free(b->mesh);
    memset(b, 0, sizeof *b);
}

/* Contact load for the face displaced by (U_T, U_N). */
static void poly_load(poly *b, double UT)
{
    for (size_t a = 0; a < b->m; a++) gsl_vector_set(b->f, a, b->UN * b->loadN[a] + UT * b->loadT[a]);
}

/* Row i of K_ip times the unit patterns u_y' = 1 (sN) and u_x = 1 (sT) on
 * the loaded face. */
static void face_sums(const poly *b, size_t i, double *sN, double *sT)
{
    *sN = *sT = 0;
    for (size_t k = 0; k < b->nl; k++) {
        *sN += gsl_matrix_get(b->K, i, b->pi[2 * k + 1]);
        *sT += gsl_matrix_get(b->K, i, b->pi[2 * k]);
    }
}

/* Assemble, condense onto the contact dofs, press by U_N^0 (one increment
 * from rest) and set the thickness so that F_N^0 = -55 N. */
static fl_status poly_init(poly *b, fl_error *err)
{
    memset(b, 0, sizeof *b);
    b->L = 80.0; b->H = 40.0; b->E = 5.0; b->nu = 0.48; b->rho = 1.2e-9; b->mu = 1.1; b->UN = 0.5; b->dU = 0.01;
    const size_t nx = 20, ny = 10;
    FL_TRY(fl_fe2d_mesh_rect(0.0, -b->H, b->L, b->H, nx, ny, FL_FE2D_CROSS, &b->mesh, err));
    fl_fe2d_material mat = {.lambda = b->E * b->nu / ((1 + b->nu) * (1 - 2 * b->nu)),
                            .mu = b->E / (2 * (1 + b->nu)), .rho = b->rho, .model = FL_FE2D_PLANE_STRESS};
    FL_TRY(fl_fe2d_assemble_dense(b->mesh, &mat, FL_FE2D_STIFFNESS, &b->K, err));
    FL_TRY(fl_fe2d_assemble_dense(b->mesh, &mat, FL_FE2D_MASS, &b->M, err));
    FL_TRY(fl_fe2d_nodes_on_line(b->mesh, 1, 0.0, 1e-9, &b->nc, &b->cn, err));
    FL_TRY(fl_fe2d_nodes_on_line(b->mesh, 1, -b->H, 1e-9, &b->nl, &b->ln, err));
    size_t n = b->n = b->K->size1, nc = b->nc, nl = b->nl, m = b->m = 2 * nc;
    int *cls = calloc(n, sizeof *cls);   /* 0 interior, 1 contact, 2 prescribed */
    b->ci = malloc(m * sizeof *b->ci);
    b->ii = malloc(n * sizeof *b->ii);
    b->pi = malloc(2 * nl * sizeof *b->pi);
    b->loadN = malloc(m * sizeof *b->loadN);
    b->loadT = malloc(m * sizeof *b->loadT);
    b->iT = malloc(nc * sizeof *b->iT); b->iN = malloc(nc * sizeof *b->iN);
    b->fT = malloc(nc * sizeof *b->fT); b->fN = malloc(nc * sizeof *b->fN);
    b->pres = calloc(n, 1);
    if (!cls || !b->ci || !b->ii || !b->pi || !b->loadN || !b->loadT || !b->iT || !b->iN || !b->fT || !b->fN || !b->pres) {
        free(cls);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < nc; k++) {
        b->ci[2 * k] = 2 * (size_t)b->cn[k];
        b->ci[2 * k + 1] = 2 * (size_t)b->cn[k] + 1;
        cls[b->ci[2 * k]] = cls[b->ci[2 * k + 1]] = 1;
        b->iT[k] = 2 * k; b->iN[k] = 2 * k + 1;
        b->fT[k] = b->ci[2 * k]; b->fN[k] = b->ci[2 * k + 1];
    }
    for (size_t k = 0; k < nl; k++) {
        b->pi[2 * k] = 2 * (size_t)b->ln[k];
        b->pi[2 * k + 1] = 2 * (size_t)b->ln[k] + 1;
        cls[b->pi[2 * k]] = cls[b->pi[2 * k + 1]] = 2;
        b->pres[b->pi[2 * k]] = b->pres[b->pi[2 * k + 1]] = 1;
    }
    for (size_t i = 0; i < n; i++) if (cls[i] == 0) b->ii[b->ni++] = i;
    free(cls);
    size_t ni = b->ni;
    /* S = K_cc - K_ci K_ii^-1 K_ic; f_c = -(K_cp - K_ci K_ii^-1 K_ip) u_p */
    gsl_matrix *Kii = gsl_matrix_alloc(ni, ni), *B = gsl_matrix_alloc(ni, m + 2);
    b->X = gsl_matrix_alloc(ni, m + 2);
    b->S = gsl_matrix_alloc(m, m);
    b->Mc = gsl_matrix_alloc(m, m);
    if (!Kii || !B || !b->X || !b->S || !b->Mc) {
        if (Kii) gsl_matrix_free(Kii);
        if (B) gsl_matrix_free(B);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t a = 0; a < ni; a++) {
        for (size_t c = 0; c < ni; c++) gsl_matrix_set(Kii, a, c, gsl_matrix_get(b->K, b->ii[a], b->ii[c]));
        for (size_t c = 0; c < m; c++) gsl_matrix_set(B, a, c, gsl_matrix_get(b->K, b->ii[a], b->ci[c]));
        double sN, sT;
        face_sums(b, b->ii[a], &sN, &sT);
        gsl_matrix_set(B, a, m, sN);
        gsl_matrix_set(B, a, m + 1, sT);
    }
    fl_status st = fl_spd_alloc(Kii, &b->spd, err);
    if (st == FL_OK) st = fl_spd_solve_matrix(b->spd, B, b->X);
    gsl_matrix_free(Kii);
    gsl_matrix_free(B);
    FL_TRY(st);
    for (size_t a = 0; a < m; a++) {
        for (size_t c = 0; c < m; c++) {
            double v = gsl_matrix_get(b->K, b->ci[a], b->ci[c]);
            for (size_t k = 0; k < ni; k++) v -= gsl_matrix_get(b->K, b->ci[a], b->ii[k]) * gsl_matrix_get(b->X, k, c);
            gsl_matrix_set(b->S, a, c, v);
        }
        double sN, sT;
        face_sums(b, b->ci[a], &sN, &sT);
        for (size_t k = 0; k < ni; k++) {
            sN -= gsl_matrix_get(b->K, b->ci[a], b->ii[k]) * gsl_matrix_get(b->X, k, m);
            sT -= gsl_matrix_get(b->K, b->ci[a], b->ii[k]) * gsl_matrix_get(b->X, k, m + 1);
        }
        b->loadN[a] = -sN;
        b->loadT[a] = -sT;
    }
    gsl_matrix_set_identity(b->Mc);
    b->sc = (fl_stab_system){.n = m, .K = b->S, .M = b->Mc, .prescribed = NULL, .np = nc, .iT = b->iT, .iN = b->iN, .mu = b->mu};
    b->sf = (fl_stab_system){.n = n, .K = b->K, .M = b->M, .prescribed = b->pres, .np = nc, .iT = b->fT, .iN = b->fN, .mu = b->mu};
    b->f = gsl_vector_alloc(m); b->uk = gsl_vector_calloc(m); b->g = gsl_vector_calloc(nc);
    b->u = gsl_vector_calloc(m); b->r = gsl_vector_alloc(m);
    b->ufull = gsl_vector_calloc(n); b->rfull = gsl_vector_alloc(n);
    if (!b->f || !b->uk || !b->g || !b->u || !b->r || !b->ufull || !b->rfull) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    b->qo = fl_qs_options_default();
    b->qo.tol = 1e-13;
    poly_load(b, 0.0);
    fl_qs_result qr;
    FL_TRY(fl_qs_step(&b->sc, b->f, b->uk, b->g, b->u, b->r, &b->qo, &qr, err));
    double FN1 = 0;
    for (size_t k = 0; k < nc; k++) FN1 += gsl_vector_get(b->r, b->iN[k]);
    if (!(FN1 < 0)) return FL_FAIL(err, FL_EINVAL, "pressing gave no compressive normal force (%g)", FN1);
    b->thick = -55.0 / FN1;
    return FL_OK;
}

/* 004 (115)-(117): one quasistatic increment to the face position U_T. */
static fl_status poly_advance(poly *b, double UT, fl_qs_result *qr, fl_error *err)
{
    gsl_vector_memcpy(b->uk, b->u);
    poly_load(b, UT);
    return fl_qs_step(&b->sc, b->f, b->uk, b->g, b->u, b->r, &b->qo, qr, err);
}

/* The current state lifted to the whole block (u_i = -K_ii^-1 (K_ic u_c +
 * K_ip u_p), r = K u with the interior residue set to its exact 0) and its
 * 004 §2.3 partition; counts of stick / slip / free and F_T per unit
 * thickness. */
static fl_status poly_state(poly *b, double UT, fl_stab_label *lab, int *nst, int *nsl, int *nfr,
                            double *FT, fl_error *err)
{
    gsl_vector_set_zero(b->ufull);
    for (size_t a = 0; a < b->m; a++) gsl_vector_set(b->ufull, b->ci[a], gsl_vector_get(b->u, a));
    for (size_t k = 0; k < b->nl; k++) { gsl_vector_set(b->ufull, b->pi[2 * k], UT); gsl_vector_set(b->ufull, b->pi[2 * k + 1], b->UN); }
    for (size_t a = 0; a < b->ni; a++) {
        double v = b->UN * gsl_matrix_get(b->X, a, b->m) + UT * gsl_matrix_get(b->X, a, b->m + 1);
        for (size_t c = 0; c < b->m; c++) v += gsl_matrix_get(b->X, a, c) * gsl_vector_get(b->u, c);
        gsl_vector_set(b->ufull, b->ii[a], -v);
    }
    gsl_blas_dgemv(CblasNoTrans, 1.0, b->K, b->ufull, 0.0, b->rfull);   /* r = K u (f = 0) */
    for (size_t a = 0; a < b->ni; a++) gsl_vector_set(b->rfull, b->ii[a], 0.0);
    FL_TRY(fl_stab_partition(&b->sf, b->ufull, b->rfull, 1e-7, lab, err));
    *nst = *nsl = *nfr = 0;
    *FT = 0;
    for (size_t k = 0; k < b->nc; k++) {
        *nst += lab[k] == FL_STAB_PD;
        *nsl += lab[k] == FL_STAB_PS;
        *nfr += lab[k] == FL_STAB_PF || lab[k] == FL_STAB_PZ;
        *FT += gsl_vector_get(b->rfull, b->fT[k]);
    }
    return FL_OK;
}

/* The sparse twin of the block: K and M in CSC (symmetric upper storage). */
typedef struct poly_sparse {
    fl_sparse_ctx ctx;
    cholmod_sparse *K, *M;
    fl_stab_sparse_system s;
} poly_sparse;

static fl_status poly_sparse_init(poly_sparse *ps, const poly *b, fl_error *err)
{
    memset(ps, 0, sizeof *ps);
    FL_TRY(fl_sparse_start(&ps->ctx, err));
    FL_TRY(fl_sparse_from_dense(&ps->ctx, b->K, 1, 0.0, &ps->K, err));
    FL_TRY(fl_sparse_from_dense(&ps->ctx, b->M, 1, 0.0, &ps->M, err));
    ps->s = (fl_stab_sparse_system){.n = b->n, .K = ps->K, .M = ps->M, .prescribed = b->pres, .np = b->nc,
                                    .iT = b->fT, .iN = b->fN, .mu = b->mu};
    return FL_OK;
}

static void poly_sparse_free(poly_sparse *ps)
{
    fl_sparse_free(&ps->ctx, &ps->K);
    fl_sparse_free(&ps->ctx, &ps->M);
    fl_sparse_finish(&ps->ctx);
}

/* ---- Table 1 -------------------------------------------------------------- */

static const double poly_rows[16] = {-0.87, -1.05, -1.20, -1.35, -1.45, -1.65, -1.75, -1.78,
                                     -1.82, -2.00, -2.20, -2.45, -2.71, -2.75, -3.40, -6.20};
static const int poly_paper[16][4] = {   /* stick, slip, no-contact, flutter mode (Table 1) */
    {20, 1, 0, 57}, {19, 1, 1, 11}, {18, 1, 2, 10}, {17, 2, 2, 3}, {16, 2, 3, 3}, {14, 4, 3, 3},
    {12, 6, 3, 3}, {10, 8, 3, 3}, {7, 11, 3, 3}, {4, 14, 3, 3}, {3, 15, 3, 3}, {2, 16, 3, 3},
    {2, 16, 3, 3}, {2, 15, 4, 5}, {1, 16, 4, 5}, {0, 17, 4, 5}};
static const double poly_paper_ks[16] = {0.076, 0.071, 0.068, -0.130, -0.106, -0.502, -0.676, -0.760,
                                         -0.821, -0.851, -0.858, -0.864, -0.864, -0.859, -0.868, -0.974};
static const double poly_paper_lam[16] = {8.19e6, 7.91e6, 7.69e6, 7.43e6, 7.09e6, 6.26e6, 5.47e6, 6.76e6,
                                          5.37e6, 3.34e6, 3.08e6, 2.78e6, 2.78e6, 2.68e6, 2.30e6, 1.23e6};

/* The rows of Table 1 whose min real Lambda we do not reproduce (U_T =
 * -1.78 and -1.82: ours 4.83e6 and 4.05e6, the paper's 6.76e6 and 5.37e6;
 * the paper's -1.78 value breaks the decreasing trend of its own column).
 * They are reported as documented discrepancies, never as PASS. */
static int poly_lam_documented(int row)
{
    return row == 7 || row == 8;
}

int fl_stability_reproduce_polyurethane(fl_check_ctx *ctx)
{
    fl_error err;
    poly b;
    poly_sparse ps;
    fl_status st = poly_init(&b, &err);
    if (st == FL_OK) st = poly_sparse_init(&ps, &b, &err);
    if (st != FL_OK) {
        fl_check_message(ctx, "polyurethane: %s", err.message);
        poly_free(&b);
        return -1;
    }
    fl_check_note(ctx, "polyurethane.press", "pressing by U_N = 0.5 mm: F_N = %.4g N per mm of thickness; thickness %.3f mm gives F_N^0 = -55 N (004 §5)",
                 -55.0 / b.thick, b.thick);
    char path[1024];
    FILE *csv = NULL;
    if (fl_check_out_path(ctx, "polyurethane_table1.csv", path, sizeof path) == 0) csv = fopen(path, "w");
    if (csv) fprintf(csv, "U_T,stick,slip,no_contact,min_eig_KS,min_real_Lambda,flutter_mode,F_T,paper_stick,paper_slip,paper_noc,paper_min_eig_KS,paper_min_real_Lambda,paper_flutter_mode\n");
    fl_check_text(ctx, "  U_T    stick slip no-c | min eig K*_S   min real Lambda  flutter | paper: stick slip no-c  K*_S    Lambda   flutter\n");
    int row = 0, nrows = 16, maxg = 0, qs_ok = 1;
    int mono_bad = 0, prev_free = -1, div_any = 0, fl_bad = 0, nec_before2 = 0, twin_bad = 0, twin_n = 0;
    int states_bad = 0, mode_bad = 0, ks_bad = 0, lam_bad = 0, first_nec_row = -1, first_low_row = -1;
    double ks_worst = 0, lam_worst = 0;
    char lam_off[256] = "";
    double ks_last = NAN, twin_s_ref = 0, twin_s_opt = 0;
    int stick_last = -1, done_rows = 0;
    fl_stab_label *lab = malloc(b.nc * sizeof *lab);
    long steps = (long)(6.2 / b.dU + 0.5);
    char fpath[1024];
    FILE *fcsv = NULL;      /* 004 Fig. 15: total tangential force along the loading */
    if (fl_check_out_path(ctx, "polyurethane_fig15.csv", fpath, sizeof fpath) == 0) fcsv = fopen(fpath, "w");
    if (fcsv) fprintf(fcsv, "U_T,F_T_N,F_N_N,stick,slip,no_contact\n");
    for (long s = 1; lab && s <= steps && row < nrows; s++) {
        double UT = -b.dU * (double)s;
        fl_qs_result qr;
        if (poly_advance(&b, UT, &qr, &err) != FL_OK) qs_ok = 0;
        maxg = qr.g_iterations > maxg ? qr.g_iterations : maxg;
        if (fcsv) {
            int a1, a2, a3;
            double ft;
            if (poly_state(&b, UT, lab, &a1, &a2, &a3, &ft, &err) == FL_OK) {
                double fn = 0;
                for (size_t k = 0; k < b.nc; k++) fn += gsl_vector_get(b.rfull, b.fN[k]);
                fprintf(fcsv, "%.2f,%.8g,%.8g,%d,%d,%d\n", UT, ft * b.thick, fn * b.thick, a1, a2, a3);
            }
        }
        if (fabs(UT - poly_rows[row]) > 0.5 * b.dU) continue;
        if (ctx->quick && row != 0 && row != 3 && row != 15) { row++; continue; }
        int nst, nsl, nfr;
        double FT;
        fl_stab_result res = {0}, rs = {0};
        fl_stab_tangent *t = NULL;
        fl_stab_sparse_tangent *ts = NULL;
        fl_status s2 = poly_state(&b, UT, lab, &nst, &nsl, &nfr, &FT, &err);
        if (s2 == FL_OK) s2 = fl_stab_tangent_alloc(&b.sf, lab, b.rfull, &t, &err);
        fl_stab_options so = fl_stab_options_default();
        so.max_enum = 0;
        if (s2 == FL_OK) s2 = fl_stab_analyse(t, &so, &res, &err);
        if (s2 != FL_OK) {
            fl_check_report(ctx, 0, "polyurethane.row", "U_T = %.2f: %s", UT, err.message);
        } else {
            fl_check_text(ctx, "%6.2f  %5d %4d %4d | %12.4f  %15.4g  %7zu | %19d %4d %4d %7.3f %9.3g %7d\n", UT, nst, nsl, nfr, res.ks_min,
                   res.lambda_real_min, res.flutter_mode, poly_paper[row][0], poly_paper[row][1], poly_paper[row][2],
                   poly_paper_ks[row], poly_paper_lam[row], poly_paper[row][3]);
            if (csv) fprintf(csv, "%.2f,%d,%d,%d,%.8g,%.8g,%zu,%.6g,%d,%d,%d,%.3f,%.3g,%d\n", UT, nst, nsl, nfr, res.ks_min,
                             res.lambda_real_min, res.flutter_mode, FT * b.thick, poly_paper[row][0], poly_paper[row][1],
                             poly_paper[row][2], poly_paper_ks[row], poly_paper_lam[row], poly_paper[row][3]);
            /* side by side with Table 1 */
            states_bad += nst != poly_paper[row][0] || nsl != poly_paper[row][1] || nfr != poly_paper[row][2];
            mode_bad += (int)res.flutter_mode != poly_paper[row][3];
            ks_worst = fmax(ks_worst, fabs(res.ks_min - poly_paper_ks[row]));
            ks_bad += fabs(res.ks_min - poly_paper_ks[row]) > 0.002;
            char nm[96], ref[64];
            snprintf(ref, sizeof ref, "004 Table 1, U_T = %.2f", poly_rows[row]);
            snprintf(nm, sizeof nm, "polyurethane.table1_KS.UT%.2f", poly_rows[row]);
            fl_check_value(ctx, fabs(res.ks_min - poly_paper_ks[row]) <= 0.002, nm, res.ks_min, poly_paper_ks[row],
                           0.002, ref, "min eig K*_S per unit thickness %.4f, paper %.3f (tol 0.002)", res.ks_min,
                           poly_paper_ks[row]);
            double lrel = fabs(res.lambda_real_min / poly_paper_lam[row] - 1);
            snprintf(nm, sizeof nm, "polyurethane.table1_Lambda.UT%.2f", poly_rows[row]);
            if (poly_lam_documented(row)) {
                fl_check_discrepancy(ctx, nm, res.lambda_real_min, poly_paper_lam[row], ref,
                                     row == 7 ? "the paper's 6.76e6 breaks the decreasing trend of its own column (5.47e6 at U_T = -1.75, 5.37e6 at -1.82)"
                                              : "our min real Lambda is 25% below the paper's at this row only, next to the paper's out-of-trend -1.78 row",
                                     "min real Lambda of M*^-1 K* %.3g, paper %.3g (%.0f%% off)", res.lambda_real_min,
                                     poly_paper_lam[row], 100 * lrel);
            } else {
                fl_check_value(ctx, lrel <= 0.01, nm, res.lambda_real_min, poly_paper_lam[row], 0.01 * fabs(poly_paper_lam[row]),
                               ref, "min real Lambda of M*^-1 K* %.4g, paper %.3g (%.2g%% off, tol 1%%)", res.lambda_real_min,
                               poly_paper_lam[row], 100 * lrel);
            }
            if (lrel > 0.01) {
                if (!poly_lam_documented(row)) lam_bad++;
                size_t len = strlen(lam_off);
                snprintf(lam_off + len, sizeof lam_off - len, "%s%.2f (%.3g vs %.3g)", len ? ", " : "", UT,
                         res.lambda_real_min, poly_paper_lam[row]);
            } else lam_worst = fmax(lam_worst, lrel);
            if (first_nec_row < 0 && res.ks_min <= 0) first_nec_row = row;
            if (first_low_row < 0 && res.flutter && res.flutter_mode <= 5) first_low_row = row;
            if (prev_free >= 0 && nsl + nfr < prev_free) mono_bad++;
            prev_free = nsl + nfr;
            div_any |= res.divergence;
            if (nsl >= 1 && !res.flutter) fl_bad++;
            if (nsl < 2 && res.ks_min <= 0) nec_before2++;
            ks_last = res.ks_min;
            stick_last = nst;
            done_rows++;
            /* the sparse twin on the same state */
            fl_error e2;
            twin_n++;
            if (fl_stab_sparse_tangent_alloc(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &e2) != FL_OK ||
                fl_stab_sparse_analyse(&ps.ctx, ts, &so, 5000, &rs, &e2) != FL_OK || !fl_stability_twin_agrees(t, &res, &rs))
                twin_bad++;
            twin_s_ref += res.seconds;
            twin_s_opt += rs.seconds;
        }
        fl_stab_result_free(&res);
        fl_stab_result_free(&rs);
        fl_stab_tangent_free(t);
        fl_stab_sparse_tangent_free(&ps.ctx, ts);
        fl_check_progress(ctx, "polyurethane rows", row + 1, nrows);
        row++;
    }
    fl_check_value(ctx, qs_ok && maxg <= 60, "polyurethane.quasistatic", (double)maxg, NAN, 60.0,
                   "004 §5.3 (115)-(117) (value: most g-iterations of an increment, at most the tolerance)",
                   "%ld increments of %.2f mm by SORP + fixed point on g: all converged, at most %d g-iterations (004: usually < 8)", steps, b.dU, maxg);
    fl_check_value(ctx, mono_bad == 0 && done_rows > 0, "polyurethane.slip_zone_grows", (double)mono_bad, 0.0, 0.0,
                   "004 §5.6 (value: rows where slip + no-contact decreases)",
                   "slip + no-contact count never decreases along the rows (004 §5.6: the slip zone grows, nodes lose contact)");
    fl_check_value(ctx, stick_last == 0, "polyurethane.final_sliding", (double)stick_last, 0.0, 0.0,
                   "004 Table 1, U_T = -6.20: no stuck node",
                   "last row (U_T = -6.2): %d stuck nodes (004 Table 1: 0, steady sliding)", stick_last);
    fl_check_value(ctx, !div_any, "polyurethane.no_divergence", (double)div_any, 0.0, 0.0,
                   "004 §5.6, Table 1 (value: 1 if a row diverges)",
                   "no real Lambda <= 0 of M*^-1 K* with an admissible eigenvector at any row (004 §5.6)");
    fl_check_value(ctx, fl_bad == 0, "polyurethane.flutter_when_sliding", (double)fl_bad, 0.0, 0.0,
                   "004 §5.6 (value: exceptions)",
                   "complex Lambda (flutter) at every row with a sliding node (004 §5.6), %d exceptions", fl_bad);
    double nec_UT = first_nec_row >= 0 ? poly_rows[first_nec_row] : NAN;
    fl_check_value(ctx, ks_last <= 0 && nec_before2 == 0 && first_nec_row >= 0 && first_nec_row == first_low_row &&
                            fabs(nec_UT - (-1.35)) < 0.005,
                 "polyurethane.necessary_condition", nec_UT, -1.35, 0.005,
                 "004 §5.6: min eig K*_S first <= 0, with low-order flutter, at U_T = -1.35 mm", "min eig K*_S > 0 while fewer than two nodes slide (%d exceptions); it first turns <= 0 at U_T = %.2f, where low-order flutter (mode <= 5) first appears (row %.2f); %.4f at the final state (004 §5.6)",
                 nec_before2, first_nec_row >= 0 ? poly_rows[first_nec_row] : NAN, first_low_row >= 0 ? poly_rows[first_low_row] : NAN, ks_last);
    fl_check_value(ctx, states_bad == 0 && done_rows > 0, "polyurethane.table1_states", (double)states_bad, 0.0, 0.0,
                   "004 Table 1 stick / slip / no-contact columns (value: rows that differ)",
                   "stick / slip / no-contact counts equal 004 Table 1 at %d of %d rows", done_rows - states_bad, done_rows);
    fl_check_value(ctx, mode_bad == 0 && done_rows > 0, "polyurethane.table1_flutter_mode", (double)mode_bad, 0.0, 0.0,
                   "004 Table 1 flutter mode column (value: rows that differ)",
                   "lowest flutter mode equals 004 Table 1 at %d of %d rows (57, 11, 10, then 3, then 5)", done_rows - mode_bad, done_rows);
    fl_check_value(ctx, ks_bad == 0 && done_rows > 0, "polyurethane.table1_KS", ks_worst, 0.0, 0.002,
                   "004 Table 1 min eig K*_S column (value: largest difference)",
                   "min eig K*_S per unit thickness within 0.002 of 004 Table 1 at %d of %d rows (largest difference %.4f)", done_rows - ks_bad, done_rows, ks_worst);
    if (ctx->quick)
        for (int r = 0; r < nrows; r++)
            if (poly_lam_documented(r))
                fl_check_note(ctx, "polyurethane.table1_Lambda", "U_T = %.2f (a documented discrepancy with 004 Table 1, paper %.3g) is a row of the full run only",
                              poly_rows[r], poly_paper_lam[r]);
    fl_check_value(ctx, lam_bad == 0 && done_rows > 0, "polyurethane.table1_Lambda", lam_worst, 0.0, 0.01,
                   "004 Table 1 min real Lambda column (value: largest relative difference, documented rows excluded)",
                   "min real Lambda of M*^-1 K* within 1%% of 004 Table 1 at every row but the documented discrepancies (U_T = -1.78, -1.82): %d rows, largest %.2g%%; off: %s",
                 done_rows, 100 * lam_worst, lam_off[0] ? lam_off : "none");
    fl_check_value(ctx, twin_bad == 0 && twin_n > 0, "polyurethane.ref_vs_sparse", (double)twin_bad, 0.0, 0.0,
                   "004 §5.4; sparse twin vs dense reference (value: disagreements)",
                   "sparse twin (CHOLMOD inverse power, ARPACK + UMFPACK lowest 20 modes) vs dense reference at %d rows: %d disagreements in min eig K*_S, Cholesky, Lambda, flutter mode; analysis time %.3g s dense vs %.3g s sparse",
                 twin_n, twin_bad, twin_s_ref, twin_s_opt);
    char png[1024], script[4096];
    if (fcsv) {
        fclose(fcsv);
        if (fl_check_out_path(ctx, "polyurethane_fig15.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 800,500 noenhanced\nset output '%s'\nset datafile separator ','\n"
                     "set xlabel 'prescribed tangential displacement U_T (mm)'\nset ylabel 'total contact force (N)'\n"
                     "set title 'Polyurethane block (004 Fig. 15): numerical total tangential force'\nset key left center\n"
                     "plot '%s' every ::1 u 1:2 w l lw 2 t 'F_T', '' every ::1 u 1:3 w l t 'F_N'\n",
                     png, fpath);
            fl_check_plot(ctx, script);
        }
    }
    if (csv) {
        fclose(csv);
        if (fl_check_out_path(ctx, "polyurethane_table1.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 900,500 noenhanced\nset output '%s'\nset datafile separator ','\n"
                     "set multiplot layout 1,2 title 'Polyurethane block (004 Table 1): ours (lines) and the paper (points)'\n"
                     "set xlabel 'U_T (mm)'\nset ylabel 'min eig K*_S (per unit thickness)'\nset key left bottom\n"
                     "plot '%s' every ::1 u 1:5 w lp t 'ours', '' every ::1 u 1:12 w p pt 7 t '004 Table 1', 0 w l lt 0 notitle\n"
                     "set ylabel 'min real Lambda of M*^-1 K* (s^-2)'\n"
                     "plot '%s' every ::1 u 1:6 w lp t 'ours', '' every ::1 u 1:13 w p pt 7 t '004 Table 1'\n"
                     "unset multiplot\n",
                     png, path, path);
            fl_check_plot(ctx, script);
        }
    }
    free(lab);
    poly_sparse_free(&ps);
    poly_free(&b);
    return 0;
}

/* ---- §5.7: viscous damping delays flutter (Figs. 18-19) -------------------
 * Rayleigh damping C = alpha M + beta K.  For the all-stuck block (K*, M*
 * symmetric, C proportional) each mode w_k is the oscillator
 * lambda^2 + 2 z w lambda + w^2 = 0, z(w) = alpha / (2 w) + beta w / 2, whose
 * roots give 004's ratio xi = -Re lambda / |Im lambda| = z / sqrt(1 - z^2).
 * 004 fixes xi at 454 Hz (its first mode) and says xi decreases over the
 * 18 first modes (454-1530 Hz) without giving the curves of Fig. 18: we take
 * xi(f_18) = xi(f_1) / 2, so z_1 = xi_1 / sqrt(1 + xi_1^2) at w_1 and
 * z_18 likewise at w_18 give alpha, beta by a 2 x 2 solve. */
static void rayleigh_coefficients(double xi1, double w1, double w18, double *alpha, double *beta)
{
    double z1 = xi1 / sqrt(1 + xi1 * xi1), x18 = 0.5 * xi1, z18 = x18 / sqrt(1 + x18 * x18);
    /* [1/(2 w1)  w1/2; 1/(2 w18) w18/2] (alpha, beta) = (z1, z18) */
    double a11 = 0.5 / w1, a12 = 0.5 * w1, a21 = 0.5 / w18, a22 = 0.5 * w18, det = a11 * a22 - a12 * a21;
    *alpha = (z1 * a22 - a12 * z18) / det;
    *beta = (a11 * z18 - a21 * z1) / det;
}

/* Signature of the tangent matrices: the labels and, for sliding nodes, the
 * sign of r_T (004 (79)-(82)); K*, M* are constant while it is. */
static int poly_signature_changed(const poly *b, const fl_stab_label *lab, int *sig)
{
    int changed = 0;
    for (size_t k = 0; k < b->nc; k++) {
        double rT = gsl_vector_get(b->rfull, b->fT[k]);
        int v = (int)lab[k] * 3 + (lab[k] == FL_STAB_PS ? (rT > 0) - (rT < 0) + 1 : 0);
        if (sig[k] != v) changed = 1;
        sig[k] = v;
    }
    return changed;
}

#define POLY_LEVELS 6
#define POLY_LOW_MODE 5      /* "low order": the modes 004 reports (3 and 5) */
#define POLY_NROOTS 24       /* damped roots computed: about the 12 lowest modes */

int fl_stability_reproduce_polyurethane_damping(fl_check_ctx *ctx)
{
    static const double xi_levels[POLY_LEVELS] = {0.05, 0.10, 0.14, 0.1475, 0.15, 0.165};
    fl_error err;
    poly b;
    poly_sparse ps;
    fl_status st = poly_init(&b, &err);
    if (st == FL_OK) st = poly_sparse_init(&ps, &b, &err);
    fl_stab_label *lab = malloc(b.nc * sizeof *lab);
    int *sig = malloc(b.nc * sizeof *sig);
    if (st != FL_OK || !lab || !sig) {
        fl_check_message(ctx, "polyurethane_damping: %s", st != FL_OK ? err.message : "out of memory");
        free(lab); free(sig);
        poly_free(&b);
        return -1;
    }
    for (size_t k = 0; k < b.nc; k++) sig[k] = -1;
    int nst, nsl, nfr;
    double FT, lre[POLY_NROOTS + 1], lim[POLY_NROOTS + 1];
    size_t nr = 0;
    /* all-stuck frequencies (the pressed state, U_T = 0) */
    fl_stab_sparse_tangent *ts = NULL;
    fl_stab_result rs = {0};
    fl_stab_options so = fl_stab_options_default();
    so.nev = 20;
    st = poly_state(&b, 0.0, lab, &nst, &nsl, &nfr, &FT, &err);
    if (st == FL_OK) st = fl_stab_sparse_tangent_alloc(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &err);
    if (st == FL_OK) st = fl_stab_sparse_modes(&ps.ctx, ts, &so, 5000, &rs, &err);
    double w1 = NAN, w18 = NAN;
    if (st == FL_OK && rs.nlam >= 18) { w1 = sqrt(rs.lam_re[0]); w18 = sqrt(rs.lam_re[17]); }
    fl_check_note(ctx, "polyurethane_damping.frequencies", "all %d nodes stuck after pressing; natural frequencies f_1 = %.1f Hz (L chosen for 004's 454 Hz), f_18 = %.1f Hz (004: 1530 Hz)",
                 nst, w1 / (2 * FL_PI), w18 / (2 * FL_PI));
    double alpha[POLY_LEVELS], beta[POLY_LEVELS];
    for (int l = 0; l < POLY_LEVELS; l++) rayleigh_coefficients(xi_levels[l], w1, w18, &alpha[l], &beta[l]);
    /* closed form of the proportional damping on the all-stuck state: the
     * strongest level's xi at modes 1 and 18 */
    double xi_1 = NAN, xi_18 = NAN;
    if (st == FL_OK) {
        double l2[40], i2[40];   /* 38 roots: modes 1 to 19 */
        size_t n2 = 0;
        fl_status s2 = fl_stab_sparse_rayleigh(&ps.ctx, ts, alpha[POLY_LEVELS - 1], beta[POLY_LEVELS - 1], 38, 5000, l2, i2, &n2, &err);
        if (s2 == FL_OK && n2 >= 36) { xi_1 = -l2[0] / fabs(i2[0]); xi_18 = -l2[35] / fabs(i2[35]); }
    }
    double want = xi_levels[POLY_LEVELS - 1];
    double dxi = fmax(fabs(xi_1 - want), fabs(xi_18 - want / 2));
    if (isnan(xi_1) || isnan(xi_18)) dxi = INFINITY;
    fl_check_value(ctx, fabs(xi_1 - want) < 1e-6 && fabs(xi_18 - want / 2) < 1e-6, "polyurethane_damping.rayleigh", dxi, 0.0, 1e-6,
                   "004 §5.7 xi = -Re/|Im|; proofs/stability.md §3 (value: largest difference from the targets)",
                 "xi = -Re/|Im| of the damped all-stuck roots: mode 1 %.8f (target %.4f), mode 18 %.8f (target %.4f) (004 §5.7 definition, proportional-damping closed form)",
                 xi_1, want, xi_18, want / 2);
    fl_stab_result_free(&rs);
    fl_stab_sparse_tangent_free(&ps.ctx, ts);
    ts = NULL;
    /* the loading path: analyse each new signature */
    double onset[POLY_LEVELS], onset_undamped = NAN, onset_zero = NAN;
    size_t mode_at[POLY_LEVELS];
    for (int l = 0; l < POLY_LEVELS; l++) { onset[l] = NAN; mode_at[l] = 0; }
    long steps = (long)(6.2 / b.dU + 0.5), nsig = 0;
    int qs_ok = 1, an_ok = 1;
    long nfail = 0;
    for (long s = 1; s <= steps; s++) {
        double UT = -b.dU * (double)s;
        fl_qs_result qr;
        if (poly_advance(&b, UT, &qr, &err) != FL_OK) { qs_ok = 0; nfail++; }
        if (poly_state(&b, UT, lab, &nst, &nsl, &nfr, &FT, &err) != FL_OK) { an_ok = 0; nfail++; continue; }
        if (!poly_signature_changed(&b, lab, sig)) continue;
        nsig++;
        if (fl_stab_sparse_tangent_alloc(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &err) != FL_OK) { an_ok = 0; nfail++; continue; }
        memset(&rs, 0, sizeof rs);
        if (fl_stab_sparse_modes(&ps.ctx, ts, &so, 5000, &rs, &err) != FL_OK) { an_ok = 0; nfail++; }
        else if (isnan(onset_undamped) && rs.flutter && rs.flutter_mode <= POLY_LOW_MODE) onset_undamped = UT;
        fl_stab_result_free(&rs);
        if (isnan(onset_zero) && fl_stab_sparse_rayleigh(&ps.ctx, ts, 0.0, 0.0, POLY_NROOTS, 5000, lre, lim, &nr, &err) == FL_OK) {
            size_t mz = fl_stab_damped_flutter_mode(nr, lre, lim, 1e-9, NULL);
            if (mz >= 1 && mz <= POLY_LOW_MODE) onset_zero = UT;
        }
        for (int l = 0; l < POLY_LEVELS; l++) {
            if (!isnan(onset[l])) continue;
            if (fl_stab_sparse_rayleigh(&ps.ctx, ts, alpha[l], beta[l], POLY_NROOTS, 5000, lre, lim, &nr, &err) != FL_OK) { an_ok = 0; nfail++; continue; }
            size_t md = fl_stab_damped_flutter_mode(nr, lre, lim, 1e-9, NULL);
            if (md >= 1 && md <= POLY_LOW_MODE) { onset[l] = UT; mode_at[l] = md; }
        }
        fl_stab_sparse_tangent_free(&ps.ctx, ts);
        ts = NULL;
        fl_check_progress(ctx, "damping scan (increments)", s, steps);
    }
    fl_check_progress(ctx, "damping scan (increments)", steps, steps);
    fl_check_text(ctx, "  xi(454 Hz)   alpha (1/s)   beta (s)      first U_T with a growing mode <= %d   mode\n", POLY_LOW_MODE);
    fl_check_text(ctx, "  %-10s   %-11s   %-11s   %10.2f\n", "0", "0", "0", onset_undamped);
    for (int l = 0; l < POLY_LEVELS; l++)
        fl_check_text(ctx, "  %-10.4f   %-11.5g   %-11.5g   %10.2f   %zu\n", xi_levels[l], alpha[l], beta[l], onset[l], mode_at[l]);
    fl_check_value(ctx, qs_ok && an_ok && nsig > 1, "polyurethane_damping.scan", (double)nfail, 0.0, 0.0,
                   "004 §5.3, §5.7 (value: failed increments or analyses)",
                   "%ld increments, %ld distinct contact states analysed (sparse K*, M*: ARPACK + UMFPACK)", steps, nsig);
    fl_check_value(ctx, !isnan(onset_undamped) && onset_zero == onset_undamped, "polyurethane_damping.undamped_onset", onset_zero, onset_undamped, 0.0,
                   "004 §5.7: the pencil with alpha = beta = 0 is M*^-1 K* (value: onset from the pencil, expected: from M*^-1 K*)",
                   "no damping: low-order flutter first at U_T = %.2f from M*^-1 K* and at %.2f from the quadratic pencil with alpha = beta = 0",
                 onset_undamped, onset_zero);
    int mono = 1, later = 0;
    double prev = onset_undamped;
    for (int l = 0; l < POLY_LEVELS; l++) {
        double o = isnan(onset[l]) ? -INFINITY : onset[l];   /* never: later than any U_T */
        if (o > prev) mono = 0;
        prev = o;
    }
    later = (isnan(onset[POLY_LEVELS - 1]) ? -INFINITY : onset[POLY_LEVELS - 1]) < onset_undamped;
    double last_onset = isnan(onset[POLY_LEVELS - 1]) ? -INFINITY : onset[POLY_LEVELS - 1];
    fl_check_value(ctx, mono && later && fabs(last_onset - (-6.2)) <= 0.1, "polyurethane_damping.delays_flutter", last_onset, -6.2, 0.1,
                   "004 §5.7, Fig. 19: from U_T = -1.35 (no damping) to -6.2 mm (strongest damping)",
                 "the onset of low-order flutter moves to larger |U_T| as xi grows, and the strongest damping (xi = %.3f) delays it from %.2f to %.2f mm (004 §5.7, Fig. 19)",
                 xi_levels[POLY_LEVELS - 1], onset_undamped, onset[POLY_LEVELS - 1]);
    /* 004 §5.7: "for xi = 0.1475 mode 3 is concerned and for 0.15 mode 5" */
    fl_check_value(ctx, xi_levels[3] == 0.1475 && mode_at[3] == 3, "polyurethane_damping.mode_at_xi_0.1475", (double)mode_at[3], 3.0, 0.0,
                   "004 §5.7: for xi = 0.1475 mode 3 is concerned", "xi = 0.1475: growing low mode %zu at U_T = %.2f (004 §5.7: mode 3)",
                   mode_at[3], onset[3]);
    fl_check_value(ctx, xi_levels[3] == 0.1475 && xi_levels[4] == 0.15 && mode_at[3] == 3 && mode_at[4] == 5 &&
                          onset[4] < onset[3],
                 "polyurethane_damping.mode_switch", (double)mode_at[4], 5.0, 0.0,
                 "004 §5.7: for xi = 0.15 mode 5 is concerned, with a sudden change in U_T", "xi = 0.1475: mode %zu at U_T = %.2f; xi = 0.15: mode %zu at U_T = %.2f (004 §5.7: mode 3, then mode 5 with a sudden delay)",
                 mode_at[3], onset[3], mode_at[4], onset[4]);
    /* the dense reference on the final (steady sliding) state, strongest level */
    if (!ctx->quick) {
        fl_stab_tangent *t = NULL;
        double *dre = NULL, *dim = NULL;
        int agree = 0;
        size_t md = 0, ms = 0, N = 0;
        double t0 = fl_clock_now(), tdense = 0, tsparse = 0;
        st = fl_stab_tangent_alloc(&b.sf, lab, b.rfull, &t, &err);
        if (st == FL_OK) {
            N = 2 * t->nstar;
            dre = malloc(N * sizeof *dre);
            dim = malloc(N * sizeof *dim);
            st = (dre && dim) ? fl_stab_rayleigh(t->Kstar, t->Mstar, alpha[POLY_LEVELS - 1], beta[POLY_LEVELS - 1], dre, dim, &err)
                              : FL_FAIL(&err, FL_ENOMEM, "out of memory");
        }
        tdense = fl_clock_now() - t0;
        t0 = fl_clock_now();
        if (st == FL_OK) st = fl_stab_sparse_tangent_alloc(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &err);
        if (st == FL_OK) st = fl_stab_sparse_rayleigh(&ps.ctx, ts, alpha[POLY_LEVELS - 1], beta[POLY_LEVELS - 1], POLY_NROOTS, 5000, lre, lim, &nr, &err);
        tsparse = fl_clock_now() - t0;
        if (st == FL_OK) agree = fl_stability_damped_agree(N, dre, dim, nr, lre, lim, &md, &ms);
        fl_check_value(ctx, st == FL_OK && agree, "polyurethane_damping.ref_vs_sparse", (double)ms, (double)md, 0.0,
                       "004 §5.7; sparse twin vs dense companion pencil (value: growing low mode, sparse; expected: dense)",
                     "final state, xi = %.3f: the %zu damped roots of smallest modulus by ARPACK + UMFPACK equal the dense companion-pencil QZ's (1e-8), growing low mode %zu vs %zu; %.3g s dense (2N* = %zu) vs %.3g s sparse",
                     xi_levels[POLY_LEVELS - 1], nr, ms, md, tdense, N, tsparse);
        free(dre);
        free(dim);
        fl_stab_tangent_free(t);
        fl_stab_sparse_tangent_free(&ps.ctx, ts);
        ts = NULL;
    }
    char path[1024], png[1024], script[4096];
    if (fl_check_out_path(ctx, "polyurethane_damping.csv", path, sizeof path) == 0) {
        FILE *csv = fopen(path, "w");
        if (csv) {
            fprintf(csv, "xi_454Hz,alpha,beta,onset_U_T,mode\n0,0,0,%.2f,\n", onset_undamped);
            for (int l = 0; l < POLY_LEVELS; l++) {
                if (isnan(onset[l])) fprintf(csv, "%.4f,%.8g,%.8g,,\n", xi_levels[l], alpha[l], beta[l]);
                else fprintf(csv, "%.4f,%.8g,%.8g,%.2f,%zu\n", xi_levels[l], alpha[l], beta[l], onset[l], mode_at[l]);
            }
            fclose(csv);
            if (fl_check_out_path(ctx, "polyurethane_fig19.png", png, sizeof png) == 0) {
                snprintf(script, sizeof script,
                         "set terminal png size 800,600\nset output '%s'\nset datafile separator ','\n"
                         "set xlabel 'damping ratio xi at the first all-stuck frequency'\nset ylabel 'U_T at the first growing mode <= %d (mm)'\n"
                         "set title 'Polyurethane block (004 Fig. 19): damping delays flutter'\n"
                         "set yrange [-6.4:0]\nset xrange [-0.01:0.18]\n"
                         "plot '%s' every ::1 u 1:4 w lp pt 7 t 'onset of low-order flutter (no point: none up to -6.2 mm)', '' every ::1 u 1:4:5 w labels offset 1,1 t '', -6.2 w l lt 0 t 'end of the loading'\n",
                         png, POLY_LOW_MODE, path);
                fl_check_plot(ctx, script);
            }
        }
    }
    if (fl_check_out_path(ctx, "polyurethane_fig18.png", png, sizeof png) == 0) {
        int k = snprintf(script, sizeof script,
                         "set terminal png size 800,600\nset output '%s'\nset xlabel 'frequency (Hz)'\nset ylabel 'xi = -Re/|Im|'\n"
                         "set title 'Rayleigh damping ratios of the six levels (cf. 004 Fig. 18)'\nset xrange [400:1700]\n"
                         "z(f,a,b) = a/(4*pi*f) + b*pi*f\nx(f,a,b) = z(f,a,b)/sqrt(1 - z(f,a,b)**2)\nplot ",
                         png);
        for (int l = 0; l < POLY_LEVELS && k > 0 && (size_t)k < sizeof script; l++)
            k += snprintf(script + k, sizeof script - (size_t)k, "%sx(x,%.10g,%.10g) w l t 'xi(454 Hz) = %.4g'", l ? ", " : "",
                          alpha[l], beta[l], xi_levels[l]);
        if (k > 0 && (size_t)k + 2 < sizeof script) {
            strcat(script, "\n");
            fl_check_plot(ctx, script);
        }
    }
    free(lab);
    free(sig);
    poly_sparse_free(&ps);
    poly_free(&b);
    return 0;
}
