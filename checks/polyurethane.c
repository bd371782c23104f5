/* polyurethane.c — `frictionlab reproduce polyurethane polyurethane_damping`:
 * the polyurethane block of 004 §5 (Villechaise & Zeghloul's experiment):
 * quasistatic tangential loading (§5.3), the stability analyses of §5.4 at
 * the Table 1 rows (dense reference and sparse twin side by side), and the
 * viscous damping study of §5.7 (Figs. 18-19).  004 §5.
 *
 * The block (plane stress P1, 21 contact nodes, pressed then sheared by
 * quasistatic increments, each state lifted to the whole block) is
 * models/fl_model_polyurethane.h, built from data/004/polyurethane.json
 * with every parameter, Table 1 and the paper's statements on it; L and
 * the thickness are ours (the data file says why).  Eigenvalues of K*_S are
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
#include "models/fl_model_polyurethane.h"
#include "fl_scalar.h"
#include "fl_clock.h"


/* The data file and the block (models/fl_model_polyurethane.h); a missing
 * or bad file is an error naming the file and field. */
static int poly_open(fl_check_ctx *ctx, const char *task, fl_model_polyurethane *par,
                     fl_model_polyurethane_block *b, fl_model_polyurethane_sparse *ps)
{
    char path[1024];
    fl_error err;
    memset(b, 0, sizeof *b);
    memset(ps, 0, sizeof *ps);
    if (fl_check_params_path(ctx, "004/polyurethane.json", path, sizeof path) != 0) return -1;
    fl_status st = fl_model_polyurethane_load(path, par, &err);
    if (st == FL_OK) st = fl_model_polyurethane_block_init(par, b, &err);
    if (st == FL_OK) st = fl_model_polyurethane_sparse_init(b, ps, &err);
    if (st != FL_OK) {
        fl_check_message(ctx, "%s: %s", task, err.message);
        fl_model_polyurethane_sparse_free(ps);
        fl_model_polyurethane_block_free(b);
        return -1;
    }
    return 0;
}

int fl_stability_reproduce_polyurethane(fl_check_ctx *ctx)
{
    fl_error err;
    fl_model_polyurethane par;
    fl_model_polyurethane_block b;
    fl_model_polyurethane_sparse ps;
    if (poly_open(ctx, "polyurethane", &par, &b, &ps) != 0) return -1;
    const fl_model_polyurethane_row *rows = par.rows;
    fl_check_note(ctx, "polyurethane.press", "pressing by U_N = %g mm: F_N = %.4g N per mm of thickness; thickness %.3f mm gives F_N^0 = %g N (004 §5)",
                 par.UN, par.FN0 / b.thick, b.thick, par.FN0);
    char path[1024];
    FILE *csv = NULL;
    if (fl_check_out_path(ctx, "polyurethane_table1.csv", path, sizeof path) == 0) csv = fopen(path, "w");
    if (csv) fprintf(csv, "U_T,stick,slip,no_contact,min_eig_KS,min_real_Lambda,flutter_mode,F_T,paper_stick,paper_slip,paper_noc,paper_min_eig_KS,paper_min_real_Lambda,paper_flutter_mode\n");
    fl_check_text(ctx, "  U_T    stick slip no-c | min eig K*_S   min real Lambda  flutter | paper: stick slip no-c  K*_S    Lambda   flutter\n");
    int row = 0, nrows = par.nrows, maxg = 0, qs_ok = 1;
    int mono_bad = 0, prev_free = -1, div_any = 0, fl_bad = 0, nec_before2 = 0, twin_bad = 0, twin_n = 0;
    int states_bad = 0, mode_bad = 0, ks_bad = 0, lam_bad = 0, first_nec_row = -1, first_low_row = -1;
    double ks_worst = 0, lam_worst = 0;
    char lam_off[256] = "";
    double ks_last = NAN, twin_s_ref = 0, twin_s_opt = 0;
    int stick_last = -1, done_rows = 0;
    fl_stability_label *lab = malloc(b.nc * sizeof *lab);
    long steps = (long)(-par.UT_final / par.dU + 0.5);
    char fpath[1024];
    FILE *fcsv = NULL;      /* 004 Fig. 15: total tangential force along the loading */
    if (fl_check_out_path(ctx, "polyurethane_fig15.csv", fpath, sizeof fpath) == 0) fcsv = fopen(fpath, "w");
    if (fcsv) fprintf(fcsv, "U_T,F_T_N,F_N_N\n");
    for (long s = 1; lab && s <= steps && row < nrows; s++) {
        double UT = -par.dU * (double)s;
        fl_quasistatic_result qr;
        if (fl_model_polyurethane_advance(&b, UT, &qr, &err) != FL_OK) qs_ok = 0;
        maxg = qr.g_iterations > maxg ? qr.g_iterations : maxg;
        if (fcsv) {
            double ft, fn;
            if (fl_model_polyurethane_state(&b, UT, NULL, NULL, NULL, NULL, &ft, &fn, &err) == FL_OK)
                fprintf(fcsv, "%.2f,%.8g,%.8g\n", UT, ft * b.thick, fn * b.thick);
        }
        if (fabs(UT - rows[row].UT) > 0.5 * par.dU) continue;
        if (ctx->quick && !rows[row].quick) { row++; continue; }
        int nst, nsl, nfr;
        double FT;
        fl_stability_result res = {0}, rs = {0};
        fl_stability_tangent *t = NULL;
        fl_stability_tangent_sparse *ts = NULL;
        fl_status s2 = fl_model_polyurethane_state(&b, UT, lab, &nst, &nsl, &nfr, &FT, NULL, &err);
        if (s2 == FL_OK) s2 = fl_stability_tangent_alloc(&b.sf, lab, b.rfull, &t, &err);
        fl_stability_options so = fl_stability_options_default();
        so.max_enum = 0;
        if (s2 == FL_OK) s2 = fl_stability_analyse(t, &so, &res, &err);
        if (s2 != FL_OK) {
            fl_check_report(ctx, 0, "polyurethane.row", "U_T = %.2f: %s", UT, err.message);
        } else {
            fl_check_text(ctx, "%6.2f  %5d %4d %4d | %12.4f  %15.4g  %7zu | %19d %4d %4d %7.3f %9.3g %7d\n", UT, nst, nsl, nfr, res.ks_min,
                   res.lambda_real_min, res.flutter_mode, rows[row].stick, rows[row].slip, rows[row].no_contact,
                   rows[row].ks, rows[row].lambda, rows[row].flutter_mode);
            if (csv) fprintf(csv, "%.2f,%d,%d,%d,%.8g,%.8g,%zu,%.6g,%d,%d,%d,%.3f,%.3g,%d\n", UT, nst, nsl, nfr, res.ks_min,
                             res.lambda_real_min, res.flutter_mode, FT * b.thick, rows[row].stick, rows[row].slip,
                             rows[row].no_contact, rows[row].ks, rows[row].lambda, rows[row].flutter_mode);
            /* side by side with Table 1 */
            states_bad += nst != rows[row].stick || nsl != rows[row].slip || nfr != rows[row].no_contact;
            mode_bad += (int)res.flutter_mode != rows[row].flutter_mode;
            ks_worst = fmax(ks_worst, fabs(res.ks_min - rows[row].ks));
            ks_bad += fabs(res.ks_min - rows[row].ks) > par.tol_ks;
            char nm[96], ref[64];
            snprintf(ref, sizeof ref, "004 Table 1, U_T = %.2f", rows[row].UT);
            snprintf(nm, sizeof nm, "polyurethane.table1_KS.UT%.2f", rows[row].UT);
            fl_check_value(ctx, fabs(res.ks_min - rows[row].ks) <= par.tol_ks, nm, res.ks_min, rows[row].ks,
                           par.tol_ks, ref, "min eig K*_S per unit thickness %.4f, paper %.3f (tol %g)", res.ks_min,
                           rows[row].ks, par.tol_ks);
            double lrel = fabs(res.lambda_real_min / rows[row].lambda - 1);
            snprintf(nm, sizeof nm, "polyurethane.table1_Lambda.UT%.2f", rows[row].UT);
            if (rows[row].discrepancy) {
                fl_check_discrepancy(ctx, nm, res.lambda_real_min, rows[row].lambda, ref, rows[row].discrepancy,
                                     "min real Lambda of M*^-1 K* %.3g, paper %.3g (%.0f%% off)", res.lambda_real_min,
                                     rows[row].lambda, 100 * lrel);
            } else {
                fl_check_value(ctx, lrel <= par.tol_lambda_rel, nm, res.lambda_real_min, rows[row].lambda,
                               par.tol_lambda_rel * fabs(rows[row].lambda),
                               ref, "min real Lambda of M*^-1 K* %.4g, paper %.3g (%.2g%% off, tol 1%%)", res.lambda_real_min,
                               rows[row].lambda, 100 * lrel);
            }
            if (lrel > par.tol_lambda_rel) {
                if (!rows[row].discrepancy) lam_bad++;
                size_t len = strlen(lam_off);
                snprintf(lam_off + len, sizeof lam_off - len, "%s%.2f (%.3g vs %.3g)", len ? ", " : "", UT,
                         res.lambda_real_min, rows[row].lambda);
            } else lam_worst = fmax(lam_worst, lrel);
            if (first_nec_row < 0 && res.ks_min <= 0) first_nec_row = row;
            if (first_low_row < 0 && res.flutter && res.flutter_mode <= (size_t)par.low_mode) first_low_row = row;
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
            if (fl_stability_tangent_alloc_sparse(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &e2) != FL_OK ||
                fl_stability_analyse_sparse(&ps.ctx, ts, &so, 5000, &rs, &e2) != FL_OK || !fl_stability_twin_agrees(t, &res, &rs))
                twin_bad++;
            twin_s_ref += res.seconds;
            twin_s_opt += rs.seconds;
        }
        fl_stability_result_free(&res);
        fl_stability_result_free(&rs);
        fl_stability_tangent_free(t);
        fl_stability_tangent_free_sparse(&ps.ctx, ts);
        fl_check_progress(ctx, "polyurethane rows", row + 1, nrows);
        row++;
    }
    fl_check_value(ctx, qs_ok && maxg <= 60, "polyurethane.quasistatic", (double)maxg, NAN, 60.0,
                   "004 §5.3 (115)-(117) (value: most g-iterations of an increment, at most the tolerance)",
                   "%ld increments of %.2f mm by SORP + fixed point on g: all converged, at most %d g-iterations (004: usually < 8)", steps, par.dU, maxg);
    fl_check_value(ctx, mono_bad == 0 && done_rows > 0, "polyurethane.slip_zone_grows", (double)mono_bad, 0.0, 0.0,
                   "004 §5.6 (value: rows where slip + no-contact decreases)",
                   "slip + no-contact count never decreases along the rows (004 §5.6: the slip zone grows, nodes lose contact)");
    fl_check_value(ctx, stick_last == 0, "polyurethane.final_sliding", (double)stick_last, 0.0, 0.0,
                   "004 Table 1, last row: no stuck node",
                   "last row (U_T = %.2f): %d stuck nodes (004 Table 1: %d, steady sliding)", rows[nrows - 1].UT, stick_last,
                   rows[nrows - 1].stick);
    fl_check_value(ctx, !div_any, "polyurethane.no_divergence", (double)div_any, 0.0, 0.0,
                   "004 §5.6, Table 1 (value: 1 if a row diverges)",
                   "no real Lambda <= 0 of M*^-1 K* with an admissible eigenvector at any row (004 §5.6)");
    fl_check_value(ctx, fl_bad == 0, "polyurethane.flutter_when_sliding", (double)fl_bad, 0.0, 0.0,
                   "004 §5.6 (value: exceptions)",
                   "complex Lambda (flutter) at every row with a sliding node (004 §5.6), %d exceptions", fl_bad);
    /* 004 §5.6's necessary condition for low-order flutter, one check per
     * criterion so that a failure says which one: min eig K*_S stays > 0
     * while fewer than two nodes slide, first turns <= 0 at the U_T the
     * paper gives, there together with the first low-order flutter, and is
     * <= 0 at the final state */
    double nec_UT = first_nec_row >= 0 ? rows[first_nec_row].UT : NAN;
    double low_UT = first_low_row >= 0 ? rows[first_low_row].UT : NAN;
    fl_check_value(ctx, nec_before2 == 0 && done_rows > 0, "polyurethane.ks_positive_below_two_sliding",
                   (double)nec_before2, 0.0, 0.0,
                   "004 §5.6 (value: rows with fewer than two sliding nodes and min eig K*_S <= 0)",
                   "min eig K*_S > 0 at every row where fewer than two nodes slide (%d exceptions, 004 §5.6)",
                   nec_before2);
    fl_check_value(ctx, first_nec_row >= 0 && fabs(nec_UT - par.nec_UT) < 0.5 * par.dU,
                   "polyurethane.necessary_condition", nec_UT, par.nec_UT, 0.5 * par.dU,
                   "004 §5.6: min eig K*_S first <= 0 at the U_T the paper gives",
                   "min eig K*_S first turns <= 0 at U_T = %.2f (004 §5.6: %.2f)", nec_UT, par.nec_UT);
    fl_check_value(ctx, first_nec_row >= 0 && first_nec_row == first_low_row,
                   "polyurethane.necessary_with_low_flutter", low_UT, nec_UT, 0.0,
                   "004 §5.6: the first low-order flutter where min eig K*_S first <= 0 (value: its U_T)",
                   "low-order flutter (mode <= %d) first appears at U_T = %.2f, min eig K*_S first <= 0 at %.2f "
                   "(004 §5.6: the same row)", par.low_mode, low_UT, nec_UT);
    fl_check_value(ctx, ks_last <= 0, "polyurethane.ks_nonpositive_at_end", ks_last, 0.0, NAN,
                   "004 Table 1, last row (value: min eig K*_S per unit thickness, at most 0)",
                   "min eig K*_S = %.4f at the final state (004 §5.6: <= 0 once two nodes slide)", ks_last);
    fl_check_value(ctx, states_bad == 0 && done_rows > 0, "polyurethane.table1_states", (double)states_bad, 0.0, 0.0,
                   "004 Table 1 stick / slip / no-contact columns (value: rows that differ)",
                   "stick / slip / no-contact counts equal 004 Table 1 at %d of %d rows", done_rows - states_bad, done_rows);
    fl_check_value(ctx, mode_bad == 0 && done_rows > 0, "polyurethane.table1_flutter_mode", (double)mode_bad, 0.0, 0.0,
                   "004 Table 1 flutter mode column (value: rows that differ)",
                   "lowest flutter mode equals 004 Table 1 at %d of %d rows (57, 11, 10, then 3, then 5)", done_rows - mode_bad, done_rows);
    fl_check_value(ctx, ks_bad == 0 && done_rows > 0, "polyurethane.table1_KS", ks_worst, 0.0, par.tol_ks,
                   "004 Table 1 min eig K*_S column (value: largest difference)",
                   "min eig K*_S per unit thickness within %g of 004 Table 1 at %d of %d rows (largest difference %.4f)", par.tol_ks, done_rows - ks_bad, done_rows, ks_worst);
    if (ctx->quick)
        for (int r = 0; r < nrows; r++)
            if (rows[r].discrepancy && !rows[r].quick)
                fl_check_note(ctx, "polyurethane.table1_Lambda", "U_T = %.2f (a documented discrepancy with 004 Table 1, paper %.3g) is a row of the full run only",
                              rows[r].UT, rows[r].lambda);
    fl_check_value(ctx, lam_bad == 0 && done_rows > 0, "polyurethane.table1_Lambda", lam_worst, 0.0, par.tol_lambda_rel,
                   "004 Table 1 min real Lambda column (value: largest relative difference, documented rows excluded)",
                   "min real Lambda of M*^-1 K* within 1%% of 004 Table 1 at every row but the documented discrepancies of the data file: %d rows, largest %.2g%%; off: %s",
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
    fl_model_polyurethane_sparse_free(&ps);
    fl_model_polyurethane_block_free(&b);
    return 0;
}

/* ---- §5.7: viscous damping delays flutter (Figs. 18-19) -------------------
 * Rayleigh damping C = alpha M + beta K.  For the all-stuck block (K*, M*
 * symmetric, C proportional) each mode w_k is the oscillator
 * lambda^2 + 2 z w lambda + w^2 = 0, z(w) = alpha / (2 w) + beta w / 2, whose
 * roots give 004's ratio xi = -Re lambda / |Im lambda| = z / sqrt(1 - z^2).
 * 004 fixes xi at 454 Hz (its first mode) and says xi decreases over the
 * 18 first modes (454-1530 Hz) without giving the curves of Fig. 18: the
 * data file states the profile (xi at the last mode over xi at the first),
 * and fl_model_polyurethane_rayleigh gives alpha, beta by a 2 x 2 solve. */

/* Signature of the tangent matrices: the labels and, for sliding nodes, the
 * sign of r_T (004 (79)-(82)); K*, M* are constant while it is. */
static int poly_signature_changed(const fl_model_polyurethane_block *b, const fl_stability_label *lab, int *sig)
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

#define POLY_NROOTS 24       /* damped roots computed: about the 12 lowest modes */

int fl_stability_reproduce_polyurethane_damping(fl_check_ctx *ctx)
{
    fl_error err;
    fl_model_polyurethane par;
    fl_model_polyurethane_block b;
    fl_model_polyurethane_sparse ps;
    if (poly_open(ctx, "polyurethane_damping", &par, &b, &ps) != 0) return -1;
    const int POLY_LEVELS = par.nlevels, LM = par.last_mode;
    const size_t POLY_LOW_MODE = (size_t)par.low_mode;
    const double *xi_levels = par.xi;
    fl_status st = FL_OK;
    fl_stability_label *lab = malloc(b.nc * sizeof *lab);
    int *sig = malloc(b.nc * sizeof *sig);
    if (!lab || !sig) {
        fl_check_message(ctx, "polyurethane_damping: out of memory");
        free(lab); free(sig);
        fl_model_polyurethane_sparse_free(&ps);
        fl_model_polyurethane_block_free(&b);
        return -1;
    }
    for (size_t k = 0; k < b.nc; k++) sig[k] = -1;
    int nst, nsl, nfr;
    double FT, lre[POLY_NROOTS + 1], lim[POLY_NROOTS + 1];
    size_t nr = 0;
    /* all-stuck frequencies (the pressed state, U_T = 0) */
    fl_stability_tangent_sparse *ts = NULL;
    fl_stability_result rs = {0};
    fl_stability_options so = fl_stability_options_default();
    so.sparse.nev = (size_t)LM + 2;
    st = fl_model_polyurethane_state(&b, 0.0, lab, &nst, &nsl, &nfr, &FT, NULL, &err);
    if (st == FL_OK) st = fl_stability_tangent_alloc_sparse(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &err);
    if (st == FL_OK) st = fl_stability_modes_sparse(&ps.ctx, ts, &so, 5000, &rs, &err);
    double w1 = NAN, w18 = NAN;     /* the first and last modes of the damping profile */
    if (st == FL_OK && rs.nlam >= (size_t)LM) { w1 = sqrt(rs.lam_re[0]); w18 = sqrt(rs.lam_re[LM - 1]); }
    fl_check_note(ctx, "polyurethane_damping.frequencies", "all %d nodes stuck after pressing; natural frequencies f_1 = %.1f Hz (L chosen for 004's 454 Hz), f_%d = %.1f Hz (004: 1530 Hz)",
                 nst, w1 / (2 * FL_PI), LM, w18 / (2 * FL_PI));
    double alpha[FL_MODEL_POLYURETHANE_MAX_LEVELS], beta[FL_MODEL_POLYURETHANE_MAX_LEVELS];
    for (int l = 0; l < POLY_LEVELS; l++)
        fl_model_polyurethane_rayleigh(xi_levels[l], par.xi_ratio, w1, w18, &alpha[l], &beta[l]);
    /* closed form of the proportional damping on the all-stuck state: the
     * strongest level's xi at modes 1 and 18 */
    double xi_1 = NAN, xi_18 = NAN;
    if (st == FL_OK) {
        double l2[80], i2[80];   /* 2 (LM + 1) roots: modes 1 to LM + 1 */
        size_t n2 = 0;
        fl_status s2 = fl_stability_rayleigh_sparse(&ps.ctx, ts, alpha[POLY_LEVELS - 1], beta[POLY_LEVELS - 1], 2 * (size_t)LM + 2,
                                               5000, l2, i2, &n2, &err);
        if (s2 == FL_OK && n2 >= 2 * (size_t)LM) { xi_1 = -l2[0] / fabs(i2[0]); xi_18 = -l2[2 * LM - 1] / fabs(i2[2 * LM - 1]); }
    }
    double want = xi_levels[POLY_LEVELS - 1], want18 = par.xi_ratio * want;
    double dxi = fmax(fabs(xi_1 - want), fabs(xi_18 - want18));
    if (isnan(xi_1) || isnan(xi_18)) dxi = INFINITY;
    fl_check_value(ctx, fabs(xi_1 - want) < 1e-6 && fabs(xi_18 - want18) < 1e-6, "polyurethane_damping.rayleigh", dxi, 0.0, 1e-6,
                   "004 §5.7 xi = -Re/|Im|; proofs/stability.md §3 (value: largest difference from the targets)",
                 "xi = -Re/|Im| of the damped all-stuck roots: mode 1 %.8f (target %.4f), mode %d %.8f (target %.4f) (004 §5.7 definition, proportional-damping closed form)",
                 xi_1, want, LM, xi_18, want18);
    fl_stability_result_free(&rs);
    fl_stability_tangent_free_sparse(&ps.ctx, ts);
    ts = NULL;
    /* the loading path: analyse each new signature */
    double onset[FL_MODEL_POLYURETHANE_MAX_LEVELS], onset_undamped = NAN, onset_zero = NAN;
    size_t mode_at[FL_MODEL_POLYURETHANE_MAX_LEVELS];
    for (int l = 0; l < POLY_LEVELS; l++) { onset[l] = NAN; mode_at[l] = 0; }
    long steps = (long)(-par.UT_final / par.dU + 0.5), nsig = 0;
    int qs_ok = 1, an_ok = 1;
    long nfail = 0;
    for (long s = 1; s <= steps; s++) {
        double UT = -par.dU * (double)s;
        fl_quasistatic_result qr;
        if (fl_model_polyurethane_advance(&b, UT, &qr, &err) != FL_OK) { qs_ok = 0; nfail++; }
        if (fl_model_polyurethane_state(&b, UT, lab, &nst, &nsl, &nfr, &FT, NULL, &err) != FL_OK) { an_ok = 0; nfail++; continue; }
        if (!poly_signature_changed(&b, lab, sig)) continue;
        nsig++;
        if (fl_stability_tangent_alloc_sparse(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &err) != FL_OK) { an_ok = 0; nfail++; continue; }
        memset(&rs, 0, sizeof rs);
        if (fl_stability_modes_sparse(&ps.ctx, ts, &so, 5000, &rs, &err) != FL_OK) { an_ok = 0; nfail++; }
        else if (isnan(onset_undamped) && rs.flutter && rs.flutter_mode <= POLY_LOW_MODE) onset_undamped = UT;
        fl_stability_result_free(&rs);
        if (isnan(onset_zero) && fl_stability_rayleigh_sparse(&ps.ctx, ts, 0.0, 0.0, POLY_NROOTS, 5000, lre, lim, &nr, &err) == FL_OK) {
            size_t mz = fl_stability_damped_flutter_mode(nr, lre, lim, 1e-9, NULL);
            if (mz >= 1 && mz <= POLY_LOW_MODE) onset_zero = UT;
        }
        for (int l = 0; l < POLY_LEVELS; l++) {
            if (!isnan(onset[l])) continue;
            if (fl_stability_rayleigh_sparse(&ps.ctx, ts, alpha[l], beta[l], POLY_NROOTS, 5000, lre, lim, &nr, &err) != FL_OK) { an_ok = 0; nfail++; continue; }
            size_t md = fl_stability_damped_flutter_mode(nr, lre, lim, 1e-9, NULL);
            if (md >= 1 && md <= POLY_LOW_MODE) { onset[l] = UT; mode_at[l] = md; }
        }
        fl_stability_tangent_free_sparse(&ps.ctx, ts);
        ts = NULL;
        fl_check_progress(ctx, "damping scan (increments)", s, steps);
    }
    fl_check_progress(ctx, "damping scan (increments)", steps, steps);
    fl_check_text(ctx, "  xi(454 Hz)   alpha (1/s)   beta (s)      first U_T with a growing mode <= %d   mode\n", par.low_mode);
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
    fl_check_value(ctx, mono && later && fabs(last_onset - par.onset_strongest) <= par.onset_tol, "polyurethane_damping.delays_flutter",
                   last_onset, par.onset_strongest, par.onset_tol,
                   "004 §5.7, Fig. 19: onset delayed to the paper's U_T at the strongest damping",
                 "the onset of low-order flutter moves to larger |U_T| as xi grows, and the strongest damping (xi = %.3f) delays it from %.2f to %.2f mm (004 §5.7, Fig. 19)",
                 xi_levels[POLY_LEVELS - 1], onset_undamped, onset[POLY_LEVELS - 1]);
    /* 004 §5.7: "for xi = 0.1475 mode 3 is concerned and for 0.15 mode 5"
     * (the two consecutive levels and modes of the data file) */
    int la = 0;
    while (la + 1 < POLY_LEVELS && xi_levels[la] != par.switch_xi[0]) la++;
    const int lb = la + 1 < POLY_LEVELS ? la + 1 : la;
    fl_check_value(ctx, (int)mode_at[la] == par.switch_mode[0], "polyurethane_damping.mode_before_switch", (double)mode_at[la],
                   (double)par.switch_mode[0], 0.0, "004 §5.7: the mode concerned at the lower of the two levels",
                   "xi = %g: growing low mode %zu at U_T = %.2f (004 §5.7: mode %d)", xi_levels[la], mode_at[la], onset[la],
                   par.switch_mode[0]);
    fl_check_value(ctx, (int)mode_at[la] == par.switch_mode[0] && (int)mode_at[lb] == par.switch_mode[1] && onset[lb] < onset[la],
                 "polyurethane_damping.mode_switch", (double)mode_at[lb], (double)par.switch_mode[1], 0.0,
                 "004 §5.7: the mode concerned at the higher level, with a sudden change in U_T",
                 "xi = %g: mode %zu at U_T = %.2f; xi = %g: mode %zu at U_T = %.2f (004 §5.7: mode %d, then mode %d with a sudden delay)",
                 xi_levels[la], mode_at[la], onset[la], xi_levels[lb], mode_at[lb], onset[lb], par.switch_mode[0], par.switch_mode[1]);
    /* the dense reference on the final (steady sliding) state, strongest level */
    if (!ctx->quick) {
        fl_stability_tangent *t = NULL;
        double *dre = NULL, *dim = NULL;
        int agree = 0;
        size_t md = 0, ms = 0, N = 0;
        double t0 = fl_clock_now(), tdense = 0, tsparse = 0;
        st = fl_stability_tangent_alloc(&b.sf, lab, b.rfull, &t, &err);
        if (st == FL_OK) {
            N = 2 * t->nstar;
            dre = malloc(N * sizeof *dre);
            dim = malloc(N * sizeof *dim);
            st = (dre && dim) ? fl_stability_rayleigh(t->Kstar, t->Mstar, alpha[POLY_LEVELS - 1], beta[POLY_LEVELS - 1], dre, dim, &err)
                              : FL_FAIL(&err, FL_ENOMEM, "out of memory");
        }
        tdense = fl_clock_now() - t0;
        t0 = fl_clock_now();
        if (st == FL_OK) st = fl_stability_tangent_alloc_sparse(&ps.ctx, &ps.s, lab, b.rfull->data, &ts, &err);
        if (st == FL_OK) st = fl_stability_rayleigh_sparse(&ps.ctx, ts, alpha[POLY_LEVELS - 1], beta[POLY_LEVELS - 1], POLY_NROOTS, 5000, lre, lim, &nr, &err);
        tsparse = fl_clock_now() - t0;
        if (st == FL_OK) agree = fl_stability_damped_agree(N, dre, dim, nr, lre, lim, &md, &ms);
        fl_check_value(ctx, st == FL_OK && agree, "polyurethane_damping.ref_vs_sparse", (double)ms, (double)md, 0.0,
                       "004 §5.7; sparse twin vs dense companion pencil (value: growing low mode, sparse; expected: dense)",
                     "final state, xi = %.3f: the %zu damped roots of smallest modulus by ARPACK + UMFPACK equal the dense companion-pencil QZ's (1e-8), growing low mode %zu vs %zu; %.3g s dense (2N* = %zu) vs %.3g s sparse",
                     xi_levels[POLY_LEVELS - 1], nr, ms, md, tdense, N, tsparse);
        free(dre);
        free(dim);
        fl_stability_tangent_free(t);
        fl_stability_tangent_free_sparse(&ps.ctx, ts);
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
                         "set yrange [%g:0]\nset xrange [-0.01:%g]\n"
                         "plot '%s' every ::1 u 1:4 w lp pt 7 t 'onset of low-order flutter (no point: none up to %g mm)', '' every ::1 u 1:4:5 w labels offset 1,1 t '', %g w l lt 0 t 'end of the loading'\n",
                         png, par.low_mode, par.UT_final - 0.2, xi_levels[POLY_LEVELS - 1] + 0.015, path, par.UT_final, par.UT_final);
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
    fl_model_polyurethane_sparse_free(&ps);
    fl_model_polyurethane_block_free(&b);
    return 0;
}
