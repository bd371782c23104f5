/* stability_checks.c — `frictionlab reproduce example_3_15 example_4_6` and
 * `frictionlab crosscheck --law stability` (004 §3.3, §3.5, §4, §5.4;
 * 004 §3.3 (i)–(iii), §5.4; 004 Example 3.15; 004 Example 4.6).  Expected values come from the closed forms
 * of proofs/stability.md and the data/004 files, never from the code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "checks/fl_check.h"
#include "fl_dense.h"
#include "fl_problem.h"
#include "fl_rng.h"
#include "drivers/moreau_jean.h"
#include "drivers/fl_types.h"
#include "optimized/stability_sparse.h"
#include "reference/stability.h"
#include "checks/fl_tasks.h"
#include "checks/stability_checks.h"
#include "models/fl_model_example_3_14.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "fl_scalar.h"

/* Open data/004/<name>.json (or the user's file of the same schema,
 * --params).  A missing file is an error. */
/* ---- Example 3.15 -------------------------------------------------------- */

int fl_stability_reproduce_example_3_15(fl_check_ctx *ctx)
{
    char path[1024];
    fl_model_example_3_15 mod;
    fl_error err;
    if (fl_check_params_path(ctx, "004/example_3_15.json", path, sizeof path) != 0) return -1;
    if (fl_model_example_3_15_load(path, &mod, &err) != FL_OK) {
        fl_check_message(ctx, "example_3_15: %s", err.message);
        return -1;
    }
    const double Ks = mod.K, Ms = mod.M, P = mod.P;
    const gsl_vector *mus = mod.mu;
    FILE *csv = NULL;
    if (fl_check_out_path(ctx, "example_3_15.csv", path, sizeof path) == 0) csv = fopen(path, "w");
    if (csv) fprintf(csv, "mu,min_eig_KS,closed_form,cholesky_pd,min_eig_Kstar\n");
    gsl_vector *V = fl_dense_vector_calloc(4), *W = fl_dense_vector_alloc(4), *Ku = fl_dense_vector_alloc(4);
    gsl_matrix *A = fl_dense_matrix_alloc(4, 4);
    int rc = 0;
    if (!V || !W || !Ku || !A) {
        fl_check_message(ctx, "example_3_15: out of memory");
        rc = -1;
        if (csv) fclose(csv);
        goto done;
    }
    for (size_t q = 0; q < mus->size; q++) {
        double mu = gsl_vector_get(mus, q);
        fl_model_example_3_15_system *sys = NULL;
        if (fl_model_example_3_15_system_alloc(Ks, Ms, P, mu, &sys, &err) != FL_OK) {
            fl_check_report(ctx, 0, "example_3_15.analyse", "mu=%g: %s", mu, err.message);
            continue;
        }
        const fl_stability_system s = sys->s;
        const gsl_matrix *K = sys->K, *M = sys->M;
        const gsl_vector *u = sys->u0, *r = sys->r0;
        /* the equilibrium of the model: K u0 - f = r0 (004 §3.5) */
        gsl_blas_dgemv(CblasNoTrans, 1.0, K, u, 0.0, Ku);
        double e0 = 0;
        for (size_t i = 0; i < 4; i++)
            e0 += fabs(gsl_vector_get(Ku, i) - gsl_vector_get(sys->f, i) - gsl_vector_get(r, i));
        fl_check_note(ctx, "example_3_15.equilibrium", "mu=%g |K u0 - f - r0| = %.1e (004 §3.5, tol 1e-14)", mu, e0);
        fl_stability_label lab;
        fl_stability_tangent *t = NULL;
        fl_stability_result res = {0};
        if (fl_stability_partition(&s, u, r, 1e-12, &lab, &err) != FL_OK ||
            fl_stability_tangent_alloc(&s, &lab, r, &t, &err) != FL_OK ||
            fl_stability_analyse(&(fl_stability_tangents){.dense = t}, NULL, &res, &err) != FL_OK) {
            fl_check_report(ctx, 0, "example_3_15.analyse", "mu=%g: %s", mu, err.message);
            fl_stability_tangent_free(t);
            fl_stability_result_free(&res);
            fl_model_example_3_15_system_free(sys);
            continue;
        }
        fl_check_value(ctx, lab == FL_STAB_PS && t->nstar == 2, "example_3_15.state", (double)t->nstar, 2.0, 0.0,
                       "004 §3.5 Example 3.15: S* = {u_F, u_T}",
                     "mu=%g particle in P_s, N* = %zu (expected 2: u_F, u_T)", mu, t->nstar);
        double kex[2][2] = {{2 * Ks, 0}, {mu * Ks, Ks}}, ek = 0;
        for (size_t a = 0; a < 2; a++)
            for (size_t b = 0; b < 2; b++) ek = fmax(ek, fabs(gsl_matrix_get(t->Kstar, a, b) - kex[a][b]));
        fl_check_value(ctx, ek < 1e-14 * Ks, "example_3_15.Kstar", ek, 0.0, 1e-14 * Ks,
                       "004 §3.5 Example 3.15, K* = K[2 0; mu 1]; proofs/stability.md §4", "mu=%g max|K* - K[2 0; mu 1]| = %.1e (004 §3.5, tol 1e-14)", mu, ek);
        double re[2], im[2];
        fl_stability_gen_eig(t->Kstar, NULL, re, im, NULL, &err);
        double eK = fmax(fmax(fabs(re[0] - Ks), fabs(re[1] - 2 * Ks)), fmax(fabs(im[0]), fabs(im[1])));
        fl_check_value(ctx, fabs(re[0] - Ks) < mod.tol * Ks && fabs(re[1] - 2 * Ks) < mod.tol * Ks && im[0] == 0 && im[1] == 0,
                     "example_3_15.eig_Kstar", eK, 0.0, mod.tol * Ks, "004 §3.5 Example 3.15, eig K* = {K, 2K}", "mu=%g eig K* = {%.15g, %.15g} (expected {K, 2K}, tol 1e-12)", mu, re[0], re[1]);
        double cf = (3.0 - sqrt(1.0 + mu * mu)) * Ks / 2.0;
        fl_check_value(ctx, fabs(res.ks_min - cf) < mod.tol * Ks, "example_3_15.min_eig_KS", res.ks_min, cf, mod.tol * Ks,
                     "004 §3.5 Example 3.15, closed form (3-sqrt(1+mu^2))K/2",
                     "mu=%g min eig K*_S = %.10g (closed form (3-sqrt(1+mu^2))K/2 = %.10g, tol 1e-12)", mu, res.ks_min, cf);
        int crit = mu >= 2.0 * sqrt(2.0);
        fl_check_value(ctx, (res.ks_min <= 0) == crit && res.ks_cholesky_pd == !crit, "example_3_15.threshold",
                       (double)res.ks_cholesky_pd, (double)!crit, 0.0,
                       "004 §3.5 Example 3.15: K*_S positive definite iff mu < 2 sqrt 2 (value: Cholesky succeeds)",
                     "mu=%g min eig K*_S %s 0, Cholesky %s (non-positive exactly for mu >= 2 sqrt 2)",
                     mu, res.ks_min <= 0 ? "<=" : ">", res.ks_cholesky_pd ? "succeeds" : "fails");
        fl_check_value(ctx, res.ks_vec_admissible && fabs(res.ks_cone_min - res.ks_min) < mod.tol * Ks,
                     "example_3_15.eigvec_118", res.ks_cone_min - res.ks_min, 0.0, mod.tol * Ks,
                     "004 §5.4 method 1 vs method 3, (118)", "mu=%g eigenvector (-beta, 1) satisfies (118); method 1 = method 3 (diff %.1e)",
                     mu, fabs(res.ks_cone_min - res.ks_min));
        fl_check_value(ctx, !res.divergence && !res.flutter && fabs(res.lambda_real_min - Ks / Ms) < mod.tol * Ks / Ms,
                     "example_3_15.no_divergence_87", res.lambda_real_min, Ks / Ms, mod.tol * Ks / Ms,
                     "004 §3.5 Example 3.15, (87): smallest Lambda of M*^-1 K* = K/M",
                     "mu=%g smallest Lambda of M*^-1 K* = %.6g > 0 (closed form K/M), no complex Lambda", mu, res.lambda_real_min);
        /* the full system of Props. 3.6/3.9 (67): V in K_u'(u0, r0), lambda >= 0,
         * W = (lambda^2 M + K) V in K_r'(u0, r0, V) — no solution (004 Example 3.15).
         * Scan lambda, V_F, V_T; record the smallest violation found. */
        double best = INFINITY;
        int nl = ctx->quick ? 8 : 40, nab = ctx->quick ? 5 : 20;
        long scanned = 0;
        for (int il = 0; il <= nl; il++) {
            double lam = 5.0 * il / nl;
            gsl_matrix_memcpy(A, M);
            gsl_matrix_scale(A, lam * lam);
            gsl_matrix_add(A, K);
            for (int a = -nab; a <= nab; a++)
                for (int b = 0; b <= nab; b++) {
                    if (a == 0 && b == 0) continue;
                    double vF = (double)a / nab, vT = (double)b / nab, nv = hypot(vF, vT);
                    scanned++;
                    gsl_vector_set_zero(V);
                    gsl_vector_set(V, 1, vF / nv);
                    gsl_vector_set(V, 2, vT / nv);
                    if (fl_stability_viol_Kudot(&s, &lab, r, V) > 0) continue;
                    gsl_blas_dgemv(CblasNoTrans, 1.0, A, V, 0.0, W);
                    best = fmin(best, fl_stability_viol_Krdot(&s, &lab, r, V, W));
                }
        }
        fl_check_value(ctx, best > 1e-3 * Ks, "example_3_15.no_solution_67", best, NAN, 1e-3 * Ks,
                       "004 §3.5 Example 3.15: (67) has no solution (value: smallest violation, must exceed the tolerance)",
                     "mu=%g min violation of (67) over %ld (lambda, V) = %.3g > 0 (004 §3.5: no solution)", mu, scanned, best);
        if (csv) fprintf(csv, "%.10g,%.15g,%.15g,%d,%.15g\n", mu, res.ks_min, cf, res.ks_cholesky_pd, re[0]);
        fl_stability_result_free(&res);
        fl_stability_tangent_free(t);
        fl_model_example_3_15_system_free(sys);
    }
    if (csv) {
        fclose(csv);
        char png[1024], script[4096];
        if (fl_check_out_path(ctx, "example_3_15.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 800,500\nset output '%s'\nset datafile separator ','\n"
                     "set xlabel 'mu'\nset ylabel 'eigenvalue / K'\nset key left bottom\n"
                     "set title 'Example 3.15 (004): min eig K*_S vs min eig K*'\n"
                     "f(x) = (3 - sqrt(1 + x*x))/2\nset xrange [0:5.2]\n"
                     "plot f(x) w l t '(3-sqrt(1+mu^2))/2', '%s' u 1:2 w p pt 7 t 'min eig K*_S (code)', "
                     "'%s' u 1:5 w lp t 'min eig K*', 0 w l lt 0 notitle\n",
                     png, path, path);
            fl_check_plot(ctx, script);
        }
    }
done:
    fl_model_example_3_15_release(&mod);
    gsl_matrix_free(A);
    gsl_vector_free(Ku);
    gsl_vector_free(V);
    gsl_vector_free(W);
    return rc;
}

/* ---- Example 3.14 -------------------------------------------------------- */

int fl_stability_reproduce_example_3_14(fl_check_ctx *ctx)
{
    char path[1024];
    fl_model_example_3_14 mod;
    fl_model_example_3_14_system *sys = NULL;
    fl_error err;
    if (fl_check_params_path(ctx, "004/example_3_14.json", path, sizeof path) != 0) return -1;
    if (fl_model_example_3_14_load(path, &mod, &err) != FL_OK ||
        fl_model_example_3_14_system_alloc(mod.m, mod.M, mod.theta_M, mod.mu, mod.alpha, &sys, &err) != FL_OK) {
        fl_check_message(ctx, "example_3_14: %s", err.message);
        fl_model_example_3_14_release(&mod);
        return -1;
    }
    const double tol = mod.tol, e1aT = mod.case_1A_aT, e1rN = mod.case_1A_rN, e1rT = mod.case_1A_rT;
    const double ebT = mod.case_1B_aT, ebN = mod.case_1B_aN, f6mM = mod.fig6_m_over_M, f6mu = mod.fig6_mu;
    const double steps = (double)mod.theta_M_steps;
    const gsl_vector *gm = mod.grid_m_over_M, *gmu = mod.grid_mu, *gal = mod.grid_alpha_over_mu;
    gsl_vector_const_view f6v = gsl_vector_const_view_array(mod.fig6_theta_M, 2);
    const gsl_vector *f6 = &f6v.vector;
    gsl_matrix *M = sys->M;
    gsl_matrix *As = fl_dense_matrix_alloc(2, 4), *Rs = fl_dense_matrix_alloc(2, 4);
    gsl_vector *u0 = sys->u0, *r0 = sys->r0;
    fl_stability_system s = sys->s;
    size_t ns = 0;
    /* the fixture (no workspace: FL_ENOMEM, no jump found, the checks FAIL) */
    fl_status st = As && Rs ? fl_stability_jumps(&s, u0, r0, 1e-12, 4, As, Rs, &ns, &err) : FL_ENOMEM;
    int got1A = 0, got1B = 0;
    double dev = 0;      /* largest difference from the closed forms */
    for (size_t k = 0; k < ns && k < 4; k++) {
        double aT = gsl_matrix_get(As, 0, k), aN = gsl_matrix_get(As, 1, k);
        double rT = gsl_matrix_get(Rs, 0, k), rN = gsl_matrix_get(Rs, 1, k);
        double d;
        if (fabs(aN) < 1e-13) {
            d = fmax(fabs(aT - e1aT), fmax(fabs(rN - e1rN), fabs(rT - e1rT)));
            got1A = d < tol;
        } else {
            d = fmax(fabs(aT - ebT), fmax(fabs(aN - ebN), fabs(rT) + fabs(rN)));
            got1B = d < tol && fabs(rT) + fabs(rN) < 1e-12;
        }
        dev = fmax(dev, d);
    }
    if (ns != 2) dev = INFINITY;
    fl_check_value(ctx, st == FL_OK && ns == 2 && got1A && got1B, "example_3_14.fixture", dev, 0.0, tol,
                   "004 §3.5 Example 3.14, Cases 1A and 1B closed forms (data/004/example_3_14.json)",
                 "%zu jumps from (52) by enumeration: Case 1A (a_T %.7f, r_N %.7f) and 1B (a_T %.7f, a_N %.7f) (closed forms, tol %g)",
                 ns, e1aT, e1rN, ebT, ebN, tol);
    /* the grid: enumerated solutions == the closed forms of Cases 1A, 1B, 2B */
    long n = 0, bad = 0, c1A = 0, c1B = 0, c2B = 0;
    for (size_t a = 0; a < gm->size; a++)
        for (size_t b = 0; b < gmu->size; b++)
            for (size_t c = 0; c < gal->size; c++)
                for (int it = 1; it <= (int)steps; it++) {
                    double mM = gsl_vector_get(gm, a), mu2 = gsl_vector_get(gmu, b);
                    double fa = gsl_vector_get(gal, c), al2 = fa * mu2, th2 = it * (FL_PI / 2) / (steps + 1);
                    fl_model_example_3_14_mass(mM, 1.0, th2, M);
                    double MTT = gsl_matrix_get(M, 0, 0), MTN = gsl_matrix_get(M, 0, 1), MNN = gsl_matrix_get(M, 1, 1);
                    double det = MTT * MNN - MTN * MTN, g = MTT + al2 * MTN, gmu2 = MTT + mu2 * MTN;
                    if (fabs(g) < 1e-9 || fabs(gmu2) < 1e-9) continue;
                    gsl_vector_set(r0, 0, al2);
                    s.mu = mu2;
                    if (fl_stability_jumps(&s, u0, r0, 1e-12, 4, As, Rs, &ns, &err) != FL_OK) { bad++; continue; }
                    int w1A = fa < 1.0 && g < 0, wB = g < 0;
                    n++;
                    if ((int)ns != w1A + wB) { bad++; continue; }
                    for (size_t k = 0; k < ns; k++) {
                        double aT = gsl_matrix_get(As, 0, k), aN = gsl_matrix_get(As, 1, k);
                        double rT = gsl_matrix_get(Rs, 0, k), rN = gsl_matrix_get(Rs, 1, k);
                        if (fabs(aN) < 1e-13) {
                            if (!(w1A && fabs(aT - (mu2 - al2) / gmu2) < 1e-9 * (1 + fabs(aT)) &&
                                  fabs(rN + g / gmu2) < 1e-9 && fabs(rT + mu2 * rN) < 1e-9)) bad++;
                            c1A++;
                        } else {
                            if (!(fabs(aT + (MTN + al2 * MNN) / det) < 1e-9 * (1 + fabs(aT)) &&
                                  fabs(aN - g / det) < 1e-9 * (1 + fabs(aN)) && fabs(rT) + fabs(rN) < 1e-12)) bad++;
                            if (fa < 1.0) c1B++; else c2B++;
                        }
                    }
                }
    fl_check_value(ctx, bad == 0 && c1A > 0 && c1B > 0 && c2B > 0, "example_3_14.grid", (double)bad, 0.0, 0.0,
                   "004 §3.5 Example 3.14, Cases 1A, 1B, 2B closed forms (value: mismatches)",
                 "%ld states (theta_M, m/M, mu, alpha): enumerated jumps = closed forms 1A (%ld), 1B (%ld), 2B (%ld); %ld mismatches; none towards right slip",
                 n, c1A, c1B, c2B, bad);
    /* Fig. 6: M_TT + mu M_NT = 0 — Case 2A, a family (degenerate branch) */
    long okf = 0;
    double dev6 = 0;
    for (int sg = -1; sg <= 1; sg += 2) {
        double mu2 = f6mu, mM = f6mM;
        double t6 = 0.5 * (atan(mu2) + sg * acos((2 * mM + 1) / sqrt(1 + mu2 * mu2)));
        fl_model_example_3_14_mass(mM, 1.0, t6, M);
        gsl_vector_set(r0, 0, mu2);
        s.mu = mu2;
        st = fl_stability_jumps(&s, u0, r0, 1e-12, 4, As, Rs, &ns, &err);
        dev6 = fmax(dev6, fabs(t6 - gsl_vector_get(f6, sg < 0 ? 0 : 1)));
        okf += fabs(t6 - gsl_vector_get(f6, sg < 0 ? 0 : 1)) < tol && st == FL_WDEGENERATE &&
               fabs(gsl_matrix_get(M, 0, 0) + mu2 * gsl_matrix_get(M, 1, 0)) < 1e-14;
    }
    fl_check_value(ctx, okf == 2, "example_3_14.fig6_case_2A", dev6, 0.0, tol,
                   "004 §3.5 Example 3.14, Fig. 6: m/M + sin theta_M (sin theta_M - mu cos theta_M) = 0",
                 "theta_M = %.7f, %.7f give M_TT + mu M_NT = 0 and a singular left-slip branch (infinitely many jumps, Prop. 3.13)",
                 gsl_vector_get(f6, 0), gsl_vector_get(f6, 1));
    /* Fig. 6: (M_TT + mu M_NT)/M = m/M + sin theta_M (sin theta_M - mu cos theta_M)
     * over [0, pi/2] from the mass matrix the code builds, with the two angles
     * of the data file where it vanishes (Case 2A) */
    if (fl_check_out_path(ctx, "example_3_14_fig6.csv", path, sizeof path) == 0) {
        FILE *csv = fopen(path, "w");
        if (csv) {
            fprintf(csv, "theta_M,MTT_plus_mu_MNT_over_M,closed_form\n");
            for (int k = 0; k <= 200; k++) {
                double t = k * (FL_PI / 2) / 200;
                fl_model_example_3_14_mass(f6mM, 1.0, t, M);
                fprintf(csv, "%.10g,%.12g,%.12g\n", t, gsl_matrix_get(M, 0, 0) + f6mu * gsl_matrix_get(M, 1, 0),
                        f6mM + sin(t) * (sin(t) - f6mu * cos(t)));
            }
            fclose(csv);
            char png[1024], script[4096];
            if (fl_check_out_path(ctx, "example_3_14_fig6.png", png, sizeof png) == 0) {
                snprintf(script, sizeof script,
                         "set terminal png size 800,500 noenhanced\nset output '%s'\nset datafile separator ','\n"
                         "set xlabel 'theta_M (rad)'\nset ylabel '(M_TT + mu M_NT)/M'\nset key left top\n"
                         "set title 'Example 3.14 (004 Fig. 6): m/M = %g, mu = %g; zeros give infinitely many jumps (Case 2A)'\n"
                         "set arrow from %.10g, graph 0 to %.10g, graph 1 nohead dt 2\n"
                         "set arrow from %.10g, graph 0 to %.10g, graph 1 nohead dt 2\n"
                         "plot '%s' every ::1 u 1:2 w l lw 2 t 'M_TT + mu M_NT (code)', '' every ::1 u 1:3 w l dt 3 t 'closed form', 0 w l lt 0 notitle\n",
                         png, f6mM, f6mu, gsl_vector_get(f6, 0), gsl_vector_get(f6, 0), gsl_vector_get(f6, 1),
                         gsl_vector_get(f6, 1), path);
                fl_check_plot(ctx, script);
            }
        }
    }
    fl_model_example_3_14_release(&mod);
    fl_model_example_3_14_system_free(sys);
    gsl_matrix_free(As);
    gsl_matrix_free(Rs);
    return 0;
}

/* ---- Example 4.6 -------------------------------------------------------- */

/* ---- Example 4.6, dynamic run (Figs. 9-10) ---------------------------------
 * Moreau-Jean with delta = 1 (impacts perfectly plastic, 004 (18)-(21)) and
 * the theta-method (theta = 1/2) on the elastic forces, on q = (u_theta, u_T,
 * u_N) with u_D(t) = uD_dot t prescribed.  Library contact convention:
 * U_N = -u_N' (gap = -u_N), U_T = u_T', so H = [[0, 0, -1], [0, 1, 0]] and the
 * 004 reaction is r_N = -s_N / h.  Values 004 omits (stated in
 * data/004/example_4_6.json): step h, length, perturbation of u_theta. */
typedef struct ex46_run {
    double rate;        /* growth rate fitted on the early peaks of |u_theta - u0_theta| */
    double amp_a, amp_b;/* max |u_theta - u0_theta| over the two last windows */
    double steady_dev;  /* max |u_theta - u0_theta| over the run */
    long lift_steps;    /* steps with u_N < -1e-9 (loss of contact, Fig. 10) */
    long stick_steps;   /* steps with |u_T'| <= 1e-9 (stick) */
    int ok;
} ex46_run;

static int ex46_dynamic(fl_check_ctx *ctx, const fl_model_example_4_6_system *e, double th, double uDd, double mg,
                        double uth0, double dDT, double pert, double h, double tend, FILE *csv, ex46_run *out)
{
    size_t n = 3;
    fl_global_problem *g = NULL;
    fl_error err;
    memset(out, 0, sizeof *out);
    if (fl_global_problem_alloc(n, 1, 2, 1, &g, &err) != FL_OK) return -1;
    gsl_matrix *Mq = fl_dense_matrix_alloc(n, n), *Kq = fl_dense_matrix_alloc(n, n);
    if (!Mq || !Kq) {
        gsl_matrix_free(Mq);
        gsl_matrix_free(Kq);
        fl_global_problem_free(g);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            gsl_matrix_set(Mq, i, j, gsl_matrix_get(e->M, i + 1, j + 1));
            gsl_matrix_set(Kq, i, j, gsl_matrix_get(e->K, i + 1, j + 1));
        }
    /* theta-method: q_theta = q + h theta (theta v+ + (1 - theta) v), so
     * (M + h^2 theta^2 K) v+ = M v + h F(t + theta h) - h K (q + h theta (1 - theta) v) + H^T s */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(g->M, i, j, gsl_matrix_get(Mq, i, j) + h * h * th * th * gsl_matrix_get(Kq, i, j));
    gsl_matrix_set_zero(g->H);
    gsl_matrix_set(g->H, 0, 2, -1.0);
    gsl_matrix_set(g->H, 1, 1, 1.0);
    g->mu[0] = e->s.mu;
    fl_spd *spd = NULL;
    if (fl_spd_alloc(g->M, &spd, &err) != FL_OK) {
        gsl_matrix_free(Mq);
        gsl_matrix_free(Kq);
        fl_global_problem_free(g);
        return -1;
    }
    gsl_vector *q = fl_dense_vector_alloc(n), *v = fl_dense_vector_alloc(n), *vp = fl_dense_vector_alloc(n);
    gsl_vector *s = fl_dense_vector_calloc(2), *tmp = fl_dense_vector_alloc(n);
    int ok = q && v && vp && s && tmp;   /* no workspace: no run, -1 */
    /* steady sliding (004 §4) with u_D(0) = 0: u_T(0) = -(u0_D - u0_T) */
    if (ok) gsl_vector_set(q, 0, uth0 + pert);
    if (ok) {
        gsl_vector_set(q, 1, -dDT);
        gsl_vector_set(q, 2, 0.0);
        gsl_vector_set(v, 0, 0.0);
        gsl_vector_set(v, 1, uDd);
        gsl_vector_set(v, 2, 0.0);
    }
    fl_moreau_jean_options o = fl_moreau_jean_options_default();
    o.delta = 1.0;
    o.nsgs.tol = 1e-13;
    long steps = (long)(tend / h + 0.5);
    enum { NPK = 8192 };
    double *peak_t = malloc(NPK * sizeof(double)), *peak_a = malloc(NPK * sizeof(double));
    int npk = 0;
    double prev2 = 0, prev1 = 0, amp_a = 0, amp_b = 0, dev = 0;
    long lift = 0, stick = 0;
    ok = ok && peak_t && peak_a;
    for (long k = 0; k < steps && ok; k++) {
        double t = k * h, tm = t + th * h;
        /* F(t) = f - K_{q,D} u_D(t), f = (0, 0, Mg/EA) */
        double uD = uDd * tm;
        double F[3] = {-gsl_matrix_get(e->K, 1, 0) * uD, -gsl_matrix_get(e->K, 2, 0) * uD,
                       mg - gsl_matrix_get(e->K, 3, 0) * uD};
        /* free momentum: M v + h (F - K (q + h theta (1 - theta) v)) */
        gsl_vector_memcpy(tmp, q);
        gsl_blas_daxpy(h * th * (1 - th), v, tmp);
        gsl_blas_dgemv(CblasNoTrans, 1.0, Mq, v, 0.0, g->f);
        gsl_blas_dgemv(CblasNoTrans, -h, Kq, tmp, 1.0, g->f);
        for (size_t i = 0; i < n; i++) gsl_vector_set(g->f, i, gsl_vector_get(g->f, i) + h * F[i]);
        /* the contact enters when the predicted gap closes */
        double gap = -(gsl_vector_get(q, 2) + h * gsl_vector_get(v, 2));
        if (gap <= 1e-12) {
            fl_moreau_jean_result r;
            if (fl_moreau_jean_step(g, v, &o, NULL, s, vp, &r, &err) < 0) { ok = 0; break; }
        } else {
            fl_spd_solve(spd, g->f, vp);
            gsl_vector_set_zero(s);
        }
        /* q+ = q + h (theta v+ + (1 - theta) v) */
        gsl_blas_daxpy(h * th, vp, q);
        gsl_blas_daxpy(h * (1 - th), v, q);
        gsl_vector_memcpy(v, vp);
        double a = gsl_vector_get(q, 0) - uth0, tt = (double)(k + 1) * h;
        dev = fmax(dev, fabs(a));
        if (gsl_vector_get(q, 2) < -1e-9) lift++;
        if (fabs(gsl_vector_get(v, 1)) <= 1e-9) stick++;
        if (k > 1 && fabs(prev1) > fabs(prev2) && fabs(prev1) >= fabs(a) && npk < NPK) {
            peak_t[npk] = tt - h;
            peak_a[npk] = fabs(prev1);
            npk++;
        }
        prev2 = prev1;
        prev1 = a;
        if (tt > tend - 100.0 && tt <= tend - 50.0) amp_a = fmax(amp_a, fabs(a));
        if (tt > tend - 50.0) amp_b = fmax(amp_b, fabs(a));
        if (csv && k % 10 == 0)
            fprintf(csv, "%.6f,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", tt,
                    gsl_vector_get(q, 1) - uDd * tt, gsl_vector_get(v, 1) - uDd,
                    gsl_vector_get(q, 2), gsl_vector_get(v, 2), gsl_vector_get(q, 0),
                    -gsl_vector_get(s, 0) / h);
        if (k % 5000 == 0) fl_check_progress(ctx, "example_4_6 dynamics", k, steps);
    }
    fl_check_progress(ctx, "example_4_6 dynamics", steps, steps);
    /* growth rate: least squares of log(peak) while below 1/10 of the final amplitude */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; ok && i < npk; i++)
        if (peak_t[i] > 5.0 && peak_a[i] < 0.1 * amp_b) {
            sx += peak_t[i];
            sy += log(peak_a[i]);
            sxx += peak_t[i] * peak_t[i];
            sxy += peak_t[i] * log(peak_a[i]);
            m++;
        }
    out->rate = m > 3 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) : NAN;
    out->amp_a = amp_a;
    out->amp_b = amp_b;
    out->steady_dev = dev;
    out->lift_steps = lift;
    out->stick_steps = stick;
    out->ok = ok;
    free(peak_t);
    free(peak_a);
    fl_spd_free(spd);
    gsl_matrix_free(Mq);
    gsl_matrix_free(Kq);
    gsl_vector_free(q);
    gsl_vector_free(v);
    gsl_vector_free(vp);
    gsl_vector_free(s);
    gsl_vector_free(tmp);
    fl_global_problem_free(g);
    return ok ? 0 : -1;
}

int fl_stability_reproduce_example_4_6(fl_check_ctx *ctx)
{
    char path[1024];
    fl_model_example_4_6 mod;
    fl_model_example_4_6_system *sys = NULL;
    fl_error err;
    if (fl_check_params_path(ctx, "004/example_4_6.json", path, sizeof path) != 0) return -1;
    if (fl_model_example_4_6_load(path, &mod, &err) != FL_OK ||
        fl_model_example_4_6_system_alloc(mod.mu, mod.rb, mod.hb, mod.rm, mod.hm, &sys, &err) != FL_OK) {
        fl_check_message(ctx, "example_4_6: %s", err.message);
        return -1;
    }
    const double uDd = mod.uD_dot, mu = mod.mu, mg = mod.Mg_over_EA, tol = mod.tol;
    const double r0N = mod.r0_N, u0th = mod.u0_theta, dDT = mod.u0_D_minus_u0_T;
    const double grow = mod.growth_rate, gtol = mod.growth_tol_dynamics;
    gsl_vector_const_view lmv = gsl_vector_const_view_array(mod.Lambda_sigma_minus, 2);
    gsl_vector_const_view lpv = gsl_vector_const_view_array(mod.Lambda_sigma_plus, 2);
    const gsl_vector *lm = &lmv.vector, *lp = &lpv.vector;
    /* steady sliding state of 004 §4 (closed forms), sigma(uD_dot) = sign(uD_dot) */
    double sig = uDd < 0 ? -1.0 : 1.0, rN, uth, dt;
    fl_model_example_4_6_steady(&mod, &rN, &uth, &dt);
    double dss = fmax(fabs(rN - r0N), fmax(fabs(uth - u0th), fabs(dt - dDT)));
    fl_check_value(ctx, fabs(rN - r0N) < tol && fabs(uth - u0th) < tol && fabs(dt - dDT) < tol,
                 "example_4_6.steady_state", dss, 0.0, tol, "004 §4 steady sliding closed forms (data/004/example_4_6.json)", "r0_N = %.10f, u0_theta = %.10f, u0_D - u0_T = %.10f (004 §4 closed forms vs data, tol %g)",
                 rN, uth, dt, tol);
    /* K u0 = f + r0 with f = (0, 0, 0, Mg/EA), r0 = (., 0, mu r_N sigma, r_N)  (rows theta, T, N) */
    gsl_vector *u0 = fl_dense_vector_calloc(4), *Ku = fl_dense_vector_alloc(4);
    if (!u0 || !Ku) {
        fl_check_message(ctx, "example_4_6: out of memory");
        gsl_vector_free(u0);
        gsl_vector_free(Ku);
        fl_model_example_4_6_system_free(sys);
        return -1;
    }
    gsl_vector_set(u0, 0, dt);             /* u_T(tau) = 0 chosen (one is arbitrary) */
    gsl_vector_set(u0, 1, uth);
    gsl_blas_dgemv(CblasNoTrans, 1.0, sys->K, u0, 0.0, Ku);
    double res_eq = fmax(fabs(gsl_vector_get(Ku, 1)),
                         fmax(fabs(gsl_vector_get(Ku, 2) - mu * rN * sig),
                              fabs(gsl_vector_get(Ku, 3) - (mg + rN))));
    fl_check_value(ctx, res_eq < 1e-14, "example_4_6.steady_equilibrium", res_eq, 0.0, 1e-14, "004 (16), residual of K u0 = f + r0",
                 "|K u0 - f - r0| on (theta, T, N) = %.1e with r_T = mu r_N sigma(u_T') (004 (16), tol 1e-14)", res_eq);
    gsl_vector_free(u0);
    gsl_vector_free(Ku);
    /* Fig. 9 state: flutter, Lambda = -lambda^2 from the biquadratic (108) */
    fl_stability_result res = {0};
    if (fl_model_example_4_6_analyse(sys, sig, rN, &res, &err) == FL_OK) {
        double d9 = fmax(fabs(res.lam_re[0] - gsl_vector_get(lm, 0)), fabs(fabs(res.lam_im[0]) - gsl_vector_get(lm, 1)));
        fl_check_value(ctx, res.flutter && res.flutter_mode == 1 && fabs(res.lam_re[0] - gsl_vector_get(lm, 0)) < tol &&
                     fabs(fabs(res.lam_im[0]) - gsl_vector_get(lm, 1)) < tol,
                     "example_4_6.fig9_flutter", d9, 0.0, tol, "004 Example 4.6, roots of the biquadratic (108), sigma = -1", "Lambda = %.7f +- %.7fi, mode %zu (closed form %.7f +- %.7fi, tol %g): flutter",
                     res.lam_re[0], fabs(res.lam_im[0]), res.flutter_mode, gsl_vector_get(lm, 0), gsl_vector_get(lm, 1), tol);
        double lam = sqrt(0.5 * (hypot(res.lam_re[0], res.lam_im[0]) - res.lam_re[0]));
        fl_check_value(ctx, fabs(lam - grow) < tol, "example_4_6.growth_rate", lam, grow, tol,
                     "004 Example 4.6, Re lambda of (108)",
                     "Re lambda = %.7f (004 Example 4.6: %.7f, tol %g)", lam, grow, tol);
    } else {
        fl_check_report(ctx, 0, "example_4_6.fig9_flutter", "%s", err.message);
    }
    fl_stability_result_free(&res);
    if (fl_model_example_4_6_analyse(sys, -sig, rN, &res, &err) == FL_OK) {
        double d9r = fmax(fabs(res.lam_re[0] - gsl_vector_get(lp, 0)), fabs(res.lam_re[1] - gsl_vector_get(lp, 1)));
        fl_check_value(ctx, !res.flutter && !res.divergence && fabs(res.lam_re[0] - gsl_vector_get(lp, 0)) < tol &&
                     fabs(res.lam_re[1] - gsl_vector_get(lp, 1)) < tol,
                     "example_4_6.fig9_reversed", d9r, 0.0, tol, "004 Example 4.6, roots of (108), sigma = +1", "sigma = +1: Lambda = {%.7f, %.7f} real > 0 (closed form {%.7f, %.7f}): neutral",
                     res.lam_re[0], res.lam_re[1], gsl_vector_get(lp, 0), gsl_vector_get(lp, 1));
    } else {
        fl_check_report(ctx, 0, "example_4_6.fig9_reversed", "%s", err.message);
    }
    fl_stability_result_free(&res);
    /* the two inequalities of 004 §4 (H_M = 0) over a grid, both sigma */
    FILE *csv = NULL;
    if (fl_check_out_path(ctx, "example_4_6_grid.csv", path, sizeof path) == 0) csv = fopen(path, "w");
    if (csv) fprintf(csv, "mu,RB,HB,RM,sigma,flutter_formula,flutter_code,divergence_formula,divergence_code\n");
    long n = 0, bad = 0, nfl = 0, ndv = 0, wrong_side = 0;
    double step = ctx->quick ? 1.9 : 1.37;
    /* the ranges of data/004/example_4_6.json grid_hm0, geometric steps */
    for (double m = mod.grid_mu[0]; m <= mod.grid_mu[1] * (1 + 1e-12); m *= step)
        for (double b = mod.grid_rb[0]; b <= mod.grid_rb[1] * (1 + 1e-12); b *= 1.6)
            for (double h = mod.grid_hb[0]; h <= mod.grid_hb[1] * (1 + 1e-12); h *= 1.9)
                for (double rr = mod.grid_rm[0]; rr <= mod.grid_rm[1] * (1 + 1e-12); rr *= 1.7)
                    for (int q = 0; q < 2; q++) {
                        double sg = q ? 1.0 : -1.0;
                        double rho = b / rr, eta = h / rr, cc = 2.0 - 3.0 * m * h * sg;
                        double a1 = 1 + 4 * rho * rho + eta * eta, disc = a1 * a1 - 8 * rho * rho * cc;
                        if (fabs(disc) < 1e-6 * a1 * a1 || fabs(cc) < 1e-6) continue;
                        fl_model_example_4_6_system *g = NULL;
                        fl_status sg_st = fl_model_example_4_6_system_alloc(m, b, h, rr, 0.0, &g, &err);
                        if (sg_st == FL_OK) sg_st = fl_model_example_4_6_analyse(g, sg, -0.01, &res, &err);
                        fl_model_example_4_6_system_free(g);
                        if (sg_st != FL_OK) { bad++; continue; }
                        int fl = disc < 0, dv = cc <= 0;
                        if (res.flutter != fl || res.divergence != dv) bad++;
                        if ((fl && sg > 0) || (dv && sg < 0)) wrong_side++;
                        nfl += fl;
                        ndv += dv;
                        n++;
                        if (csv) fprintf(csv, "%g,%g,%g,%g,%g,%d,%d,%d,%d\n", m, b, h, rr, sg, fl, res.flutter, dv, res.divergence);
                        fl_stability_result_free(&res);
                    }
    if (csv) fclose(csv);
    fl_check_value(ctx, bad == 0 && nfl > 0 && ndv > 0, "example_4_6.inequalities", (double)bad, 0.0, 0.0,
                   "004 §4 flutter and divergence inequalities (H_M = 0); proofs/stability.md §5 (value: mismatches)",
                 "%ld states (H_M = 0): flutter iff discriminant < 0 (%ld), divergence iff 2 - 3 mu H_B sigma <= 0 (%ld), %ld mismatches (004 §4)",
                 n, nfl, ndv, bad);
    fl_check_value(ctx, wrong_side == 0, "example_4_6.sides", (double)wrong_side, 0.0, 0.0,
                   "004 §4: flutter needs sigma = -1, divergence sigma = +1 (value: exceptions)",
                 "flutter only with sigma = -1, divergence only with sigma = +1 (%ld exceptions)", wrong_side);
    /* dynamic run (Figs. 9-10): steady sliding kept without perturbation;
     * with one, flutter grows at Re lambda and settles on a limit cycle */
    {
        double h = mod.h, tend = ctx->quick ? mod.t_end_quick : mod.t_end;
        ex46_run r0, r1;
        int a0 = ex46_dynamic(ctx, sys, mod.theta, uDd, mg, uth, dt, 0.0, h, mod.steady_t_end, NULL, &r0);
        fl_check_value(ctx, a0 == 0 && r0.steady_dev < 1e-9 && r0.lift_steps == 0 && r0.stick_steps == 0,
                     "example_4_6.steady_run", r0.steady_dev, 0.0, 1e-9, "004 §4 steady sliding is an equilibrium of (18)-(21)", "unperturbed Moreau-Jean run (h = %g, t = 20): max |u_theta - u0_theta| = %.1e (tol 1e-9), no lift-off, no stick",
                     h, r0.steady_dev);
        char cpath[1024];
        FILE *dc = NULL;
        if (fl_check_out_path(ctx, "example_4_6_dynamics.csv", cpath, sizeof cpath) == 0) dc = fopen(cpath, "w");
        if (dc) fprintf(dc, "t,uT_minus_uDdot_t,uTdot_minus_uDdot,uN,uNdot,utheta,rN\n");
        int a1 = ex46_dynamic(ctx, sys, mod.theta, uDd, mg, uth, dt, mod.perturbation, h, tend, dc, &r1);
        if (dc) fclose(dc);
        fl_check_value(ctx, a1 == 0 && fabs(r1.rate - grow) < gtol, "example_4_6.growth", r1.rate, grow,
                     gtol, "004 Example 4.6, Re lambda of (108)",
                     "perturbed run (u_theta + 1e-4): fitted growth rate %.4f (Re lambda of (108) = %.7f, tol %g)", r1.rate, grow, gtol);
        double lc = r1.amp_b > 0 ? fabs(r1.amp_b - r1.amp_a) / r1.amp_b : INFINITY;
        fl_check_value(ctx, a1 == 0 && r1.amp_b > 1e-2 && fabs(r1.amp_b - r1.amp_a) < 0.05 * r1.amp_b,
                     "example_4_6.limit_cycle", lc, 0.0, 0.05, "004 Example 4.6, Figs. 9-10: limit cycle (value: relative change of the amplitude)", "max |u_theta - u0_theta| over [T-100, T-50] = %.5f and [T-50, T] = %.5f (T = %g): bounded, within 5%% (limit cycle, 004 Figs. 9-10); lift-off in %ld steps, stick in %ld",
                     r1.amp_a, r1.amp_b, tend, r1.lift_steps, r1.stick_steps);
        char png[1024], script[4096];
        if (dc && fl_check_out_path(ctx, "example_4_6_fig9.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 800,600\nset output '%s'\nset datafile separator ','\n"
                     "set xlabel 'u_T - v_D t'\nset ylabel 'du_T/dt - v_D'\nset title 'Example 4.6 (004 Fig. 9): tangential phase portrait'\n"
                     "plot '%s' every ::1 u 2:3 w l notitle\n", png, cpath);
            fl_check_plot(ctx, script);
        }
        if (dc && fl_check_out_path(ctx, "example_4_6_fig10.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 800,600\nset output '%s'\nset datafile separator ','\n"
                     "set xlabel 'u_N'\nset ylabel 'du_N/dt'\nset title 'Example 4.6 (004 Fig. 10): normal phase portrait'\n"
                     "plot '%s' every ::1 u 4:5 w l notitle\n", png, cpath);
            fl_check_plot(ctx, script);
        }
    }
    fl_model_example_4_6_system_free(sys);
    return 0;
}

/* ---- crosscheck --law stability ----------------------------------------- */

/* Random state: SPD K (cond 1e3) and M, np particles with random labels. */
/* Sparse twin vs reference on one state (004 §5.4): min eig K*_S
 * (1e-8 max|K*_S|), the Cholesky verdict and, when the twin computed modes
 * (N* >= 3), the k-th smallest |Lambda| (1e-8 relative to the largest
 * compared), the flutter mode (exact when inside the computed range) and
 * the smallest real Lambda.  Returns 1 if they agree. */
int fl_stability_twin_agrees(const fl_stability_tangent *t, const fl_stability_result *rd, const fl_stability_result *rs)
{
    double kmax = 0;
    for (size_t a = 0; a < t->nstar; a++)
        for (size_t c = 0; c < t->nstar; c++) kmax = fmax(kmax, fabs(gsl_matrix_get(t->KS, a, c)));
    if (fabs(rs->ks_min - rd->ks_min) > 1e-8 * kmax) return 0;
    if (fabs(rd->ks_min) > 1e-10 * kmax && rs->ks_cholesky_pd != rd->ks_cholesky_pd) return 0;
    if (t->nstar < 3) return rs->nlam == 0;
    if (rs->nlam < 1) return 0;
    double big = hypot(rd->lam_re[rs->nlam - 1], rd->lam_im[rs->nlam - 1]);
    for (size_t k = 0; k < rs->nlam; k++)
        if (fabs(hypot(rs->lam_re[k], rs->lam_im[k]) - hypot(rd->lam_re[k], rd->lam_im[k])) > 1e-8 * big) return 0;
    if (rd->flutter_mode + 1 < rs->nlam && rs->flutter_mode != rd->flutter_mode) return 0;
    if (rd->flutter_mode + 1 >= rs->nlam && rs->flutter_mode != 0 && rs->flutter_mode < rd->flutter_mode) return 0;
    /* the smallest real Lambda, when the reference's is among the computed */
    for (size_t k = 0; k + 1 < rs->nlam; k++)
        if (rd->lam_re[k] == rd->lambda_real_min) return fabs(rs->lambda_real_min - rd->lambda_real_min) <= 1e-8 * big;
    return 1;
}

/* 004 §5.7: the nr damped roots of the sparse twin (lre, lim) are the nr of
 * smallest modulus among the reference's N (dre, dim: reordered here), to
 * 1e-8 of the largest, and give the same lowest growing mode (*md dense,
 * *ms sparse; the dense one over the roots of the same modulus range). */
int fl_stability_damped_agree(size_t N, double *dre, double *dim, size_t nr, const double *lre,
                              const double *lim, size_t *md, size_t *ms)
{
    double *dm = malloc(N * sizeof *dm), *sm = malloc((nr ? nr : 1) * sizeof *sm);
    int agree = dm && sm && nr > 0;
    if (agree) {
        for (size_t k = 0; k < N; k++) dm[k] = hypot(dre[k], dim[k]);
        for (size_t k = 0; k < nr; k++) sm[k] = hypot(lre[k], lim[k]);
        gsl_sort(dm, 1, N);
        gsl_sort(sm, 1, nr);
        for (size_t k = 0; k < nr; k++) agree &= fabs(dm[k] - sm[k]) <= 1e-8 * sm[nr - 1];
        size_t nd = 0;
        for (size_t k = 0; k < N; k++)
            if (hypot(dre[k], dim[k]) <= sm[nr - 1] * (1 + 1e-8)) { dre[nd] = dre[k]; dim[nd] = dim[k]; nd++; }
        *md = fl_stability_damped_flutter_mode(nd, dre, dim, 1e-9, NULL);
        *ms = fl_stability_damped_flutter_mode(nr, lre, lim, 1e-9, NULL);
        agree &= *md == *ms;
    }
    free(dm);
    free(sm);
    return agree;
}

/* The counts of crosscheck --law stability. lost: states whose checks
 * could not run (an allocation failed), a FAIL. */
typedef struct stab_counts {
    long used, lost, part_bad, ord2, ord3, chol, cone, f84, samp, neg, sp_bad, modes_cmp, damp_bad, damp_cmp,
        damp_grow;
} stab_counts;

/* One random state: SPD K (by B B^T + 0.05 I) and M (+ I), np particles
 * with random labels want[] and the (u, r) that give them. */
typedef struct stab_state {
    size_t n, np;
    double mu;
    gsl_matrix *K, *M, *Q, *T;
    size_t *iT, *iN;
    fl_stability_label *want, *lab;
    gsl_vector *u, *r;
} stab_state;

static int stab_state_alloc(gsl_rng *g, stab_state *st)
{
    size_t np = 1 + gsl_rng_uniform_int(g, 4), n = 2 * np + gsl_rng_uniform_int(g, 4);
    st->n = n;
    st->np = np;
    st->K = fl_dense_matrix_alloc(n, n);
    st->M = fl_dense_matrix_alloc(n, n);
    st->Q = fl_dense_matrix_alloc(n, n);
    st->T = fl_dense_matrix_alloc(n, n);
    st->iT = malloc(np * sizeof *st->iT);
    st->iN = malloc(np * sizeof *st->iN);
    st->want = malloc(np * sizeof *st->want);
    st->lab = malloc(np * sizeof *st->lab);
    st->u = fl_dense_vector_calloc(n);
    st->r = fl_dense_vector_calloc(n);
    return st->K && st->M && st->Q && st->T && st->iT && st->iN && st->want && st->lab && st->u && st->r;
}

static void stab_state_free(stab_state *st)
{
    gsl_matrix_free(st->K);
    gsl_matrix_free(st->M);
    gsl_matrix_free(st->Q);
    gsl_matrix_free(st->T);
    gsl_vector_free(st->u);
    gsl_vector_free(st->r);
    free(st->iT);
    free(st->iN);
    free(st->want);
    free(st->lab);
}

static void stab_state_draw(gsl_rng *g, stab_state *st)
{
    size_t n = st->n;
    /* SPD by B B^T + shift (independent of the tests' generator) */
    for (int w = 0; w < 2; w++) {
        gsl_matrix *X = w ? st->M : st->K;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) gsl_matrix_set(st->Q, i, j, gsl_ran_gaussian(g, 1.0));
        gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, st->Q, st->Q, 0.0, st->T);
        gsl_matrix_memcpy(X, st->T);
        for (size_t i = 0; i < n; i++) gsl_matrix_set(X, i, i, gsl_matrix_get(X, i, i) + (w ? 1.0 : 0.05));
    }
    double mu = st->mu = exp(log(0.01) + gsl_rng_uniform(g) * log(1000.0));
    for (size_t p = 0; p < st->np; p++) {
        st->iT[p] = 2 * p;
        st->iN[p] = 2 * p + 1;
        st->want[p] = (fl_stability_label)gsl_rng_uniform_int(g, 4);
        double rN = -0.5 - gsl_rng_uniform(g);
        if (st->want[p] == FL_STAB_PF) gsl_vector_set(st->u, st->iN[p], -0.1 - gsl_rng_uniform(g));
        if (st->want[p] == FL_STAB_PD) {
            gsl_vector_set(st->r, st->iN[p], rN);
            gsl_vector_set(st->r, st->iT[p], -mu * rN * (1.8 * gsl_rng_uniform(g) - 0.9));
        }
        if (st->want[p] == FL_STAB_PS) {
            gsl_vector_set(st->r, st->iN[p], rN);
            gsl_vector_set(st->r, st->iT[p], (gsl_rng_uniform(g) < 0.5 ? 1 : -1) * mu * rN);
        }
    }
}

/* 20 random directions of the cone (118): the constrained minimum of
 * method 1, the identity (84) = (66) and (34) v in K_u'. */
static void stab_samples(gsl_rng *g, const fl_stability_system *s, const stab_state *st, const fl_stability_tangent *t,
                         const fl_stability_result *res, double nK, gsl_vector *vs, gsl_vector *v, gsl_vector *tmp,
                         gsl_vector *Kv, stab_counts *c)
{
    size_t ns = t->nstar;
    for (int q = 0; q < 20; q++) {
        for (size_t k = 0; k < ns; k++) {
            double x = gsl_rng_uniform(g) - 0.5;
            if (t->csign[k] * x > 0) x = -x;
            gsl_vector_set(vs, k, x);
        }
        double nv = gsl_blas_dnrm2(vs);
        if (nv == 0) continue;
        gsl_vector_scale(vs, 1.0 / nv);
        double rq;
        gsl_blas_dgemv(CblasNoTrans, 1.0, t->KS, vs, 0.0, tmp);
        gsl_blas_ddot(tmp, vs, &rq);
        if (rq < res->ks_cone_min - 1e-10 * nK) c->samp++;
        /* (84) vs (66) */
        gsl_vector_set_zero(v);
        for (size_t k = 0; k < ns; k++) gsl_vector_set(v, t->dof[k], gsl_vector_get(vs, k));
        double a66 = fl_stability_form_star(s, st->K, st->lab, v, v), a84 = rq;
        gsl_blas_dgemv(CblasNoTrans, 1.0, st->K, v, 0.0, Kv);
        for (size_t p = 0; p < st->np; p++)
            if (st->lab[p] == FL_STAB_PZ) a84 -= st->mu * gsl_vector_get(Kv, st->iN[p]) * fabs(gsl_vector_get(v, st->iT[p]));
        if (fabs(a66 - a84) > 1e-10 * (1 + st->mu) * (1 + nK)) c->f84++;
        /* (34): v = (0, v*) is in K_u'(u, r) */
        if (fl_stability_viol_Kudot(s, st->lab, st->r, v) > 0) c->f84++;
    }
}

/* 004 §3.3 (ii), (iii) and §5.4 methods 1-3 on the reference's analysis. */
static void stab_reference_checks(gsl_rng *g, const fl_stability_system *s, const stab_state *st,
                                  const fl_stability_tangent *t, const fl_stability_result *res, stab_counts *c)
{
    size_t ns = t->nstar;
    double nK = 0;
    for (size_t a = 0; a < ns; a++)
        for (size_t b = 0; b < ns; b++) nK = fmax(nK, fabs(gsl_matrix_get(t->Kstar, a, b)));
    double *re = malloc(ns * sizeof *re), *im = malloc(ns * sizeof *im);
    gsl_matrix *E = fl_dense_matrix_alloc(ns, ns);
    gsl_vector *vs = fl_dense_vector_alloc(ns), *v = fl_dense_vector_calloc(st->n), *tmp = fl_dense_vector_alloc(ns),
               *Kv = fl_dense_vector_alloc(st->n);
    if (!re || !im || !E || !vs || !v || !tmp || !Kv || fl_stability_gen_eig(t->Kstar, NULL, re, im, E, NULL) < 0) {
        c->lost++;
    } else {
        double minre = INFINITY;
        for (size_t k = 0; k < ns; k++) minre = fmin(minre, re[k]);
        if (res->ks_min > minre + 1e-12 * ns * nK) c->ord2++;            /* §3.3 (ii) */
        for (size_t k = 0; k < ns; k++) {                                /* §3.3 (iii) */
            gsl_vector_view cv = gsl_matrix_column(E, k);
            if (im[k] == 0.0 && fl_stability_admissible(&cv.vector, t->csign, 1e-10) && re[k] < minre) c->ord3++;
        }
        if (fabs(res->ks_min) > 1e-10 * nK && res->ks_cholesky_pd != (res->ks_min > 0)) c->chol++;
        if (res->ks_cone_min < res->ks_min - 1e-12 * nK ||
            (res->ks_vec_admissible && fabs(res->ks_cone_min - res->ks_min) > 1e-10 * nK)) c->cone++;
        c->neg += res->ks_min <= 0;
        stab_samples(g, s, st, t, res, nK, vs, v, tmp, Kv, c);
    }
    gsl_vector_free(vs);
    gsl_vector_free(v);
    gsl_vector_free(tmp);
    gsl_vector_free(Kv);
    gsl_matrix_free(E);
    free(re);
    free(im);
}

/* 004 §5.7: damped roots with random Rayleigh coefficients, sparse twin vs
 * the companion QZ of the reference. */
static void stab_damped(gsl_rng *g, fl_sparse_ctx *sctx, const fl_stability_tangent *t,
                        const fl_stability_tangent_sparse *ts, stab_counts *c)
{
    size_t ns = t->nstar, N2 = 2 * ns, nr = 0, md = 0, msp = 0, nev = N2 - 2 < 10 ? N2 - 2 : 10;
    double al = gsl_rng_uniform(g), be = 0.1 * gsl_rng_uniform(g);
    double *dre = malloc(N2 * sizeof *dre), *dim = malloc(N2 * sizeof *dim);
    double lre[11], lim[11];
    fl_status sd = !dre || !dim ? FL_ENOMEM : fl_stability_rayleigh(t->Kstar, t->Mstar, al, be, dre, dim, NULL);
    fl_status sr = sd == FL_ENOMEM ? FL_ENOMEM : fl_stability_rayleigh_sparse(sctx, ts, al, be, nev, 5000, lre, lim, &nr, NULL);
    if (sd != FL_OK || (sr != FL_OK && sr != FL_ESINGULAR) ||
        (sr == FL_OK && !fl_stability_damped_agree(N2, dre, dim, nr, lre, lim, &md, &msp)))
        c->damp_bad++;
    c->damp_cmp += sr == FL_OK;
    c->damp_grow += sr == FL_OK && msp > 0;
    free(dre);
    free(dim);
}

/* The optimized type of fl_stability_types on the same state: same K*,
 * K*_S verdicts (004 §5.4 methods 2-3), modes, damped roots. */
static void stab_twin_checks(gsl_rng *g, fl_sparse_ctx *sctx, const stab_state *st, const fl_stability_tangent *t,
                             const fl_stability_result *res, stab_counts *c)
{
    cholmod_sparse *Ks = NULL, *Ms = NULL;
    fl_stability_tangent_sparse *ts = NULL;
    fl_stability_result rs = {0};
    fl_stability_system_sparse ss = {.n = st->n, .K = NULL, .M = NULL, .prescribed = NULL,
                                     .np = st->np, .iT = st->iT, .iN = st->iN, .mu = st->mu};
    int ok = fl_sparse_from_dense(sctx, st->K, 1, 0.0, &Ks, NULL) == FL_OK &&
             fl_sparse_from_dense(sctx, st->M, 0, 0.0, &Ms, NULL) == FL_OK;
    ss.K = Ks;
    ss.M = Ms;
    ok = ok && fl_stability_tangent_alloc_sparse(sctx, &ss, st->lab, st->r->data, &ts, NULL) == FL_OK;
    fl_stability_tangents tg = {NULL, sctx, ts};
    ok = ok && fl_stability_types[FL_IMPL_OPTIMIZED].analyse(&tg, NULL, &rs, NULL) == FL_OK;
    if (!ok || !fl_stability_twin_agrees(t, res, &rs)) c->sp_bad++;
    c->modes_cmp += ok && rs.nlam > 0;
    if (ok && t->nstar >= 2) stab_damped(g, sctx, t, ts, c);   /* ARPACK needs 2 N* >= 3 */
    fl_stability_result_free(&rs);
    fl_stability_tangent_free_sparse(sctx, ts);
    fl_sparse_free(sctx, &Ks);
    fl_sparse_free(sctx, &Ms);
}

/* One random state: the partition, the reference's analysis and its
 * checks, then the twin. */
static void stab_one_state(gsl_rng *g, fl_sparse_ctx *sctx, stab_counts *c)
{
    stab_state st;
    memset(&st, 0, sizeof st);
    fl_stability_tangent *t = NULL;
    fl_stability_result res = {0};
    if (!stab_state_alloc(g, &st)) {
        c->lost++;
        goto done;
    }
    stab_state_draw(g, &st);
    fl_stability_system s = {.n = st.n, .K = st.K, .M = st.M, .prescribed = NULL, .np = st.np, .iT = st.iT,
                             .iN = st.iN, .mu = st.mu};
    if (fl_stability_partition(&s, st.u, st.r, 1e-12, st.lab, NULL) != FL_OK) {
        c->part_bad++;
        goto done;
    }
    for (size_t p = 0; p < st.np; p++) c->part_bad += st.lab[p] != st.want[p];
    fl_stability_tangents tg = {NULL, NULL, NULL};
    if (fl_stability_tangent_alloc(&s, st.lab, st.r, &t, NULL) != FL_OK) goto done;
    tg.dense = t;
    if (fl_stability_types[FL_IMPL_REFERENCE].analyse(&tg, NULL, &res, NULL) != FL_OK) goto done;
    c->used++;
    long lost = c->lost;
    stab_reference_checks(g, &s, &st, t, &res, c);
    if (c->lost == lost) stab_twin_checks(g, sctx, &st, t, &res, c);
done:
    fl_stability_result_free(&res);
    fl_stability_tangent_free(t);
    stab_state_free(&st);
}

static void stab_report(fl_check_ctx *ctx, long N, const stab_counts *c)
{
    fl_check_value(ctx, c->part_bad == 0 && c->lost == 0, "stability.partition", (double)c->part_bad, 0.0, 0.0, "004 §2.3 partition P_f, P_z, P_d, P_s (value: mislabelled states)", "%ld of %ld states mislabelled, %ld not checked (allocation failed) (004 §2.3 P_f, P_z, P_d, P_s)", c->part_bad, N, c->lost);
    fl_check_value(ctx, c->ord2 == 0 && c->used > 0, "stability.order_ii", (double)c->ord2, 0.0, 0.0, "004 §3.3 (ii) (value: violations)", "min eig K*_S <= min Re eig K*: %ld violations in %ld states (004 §3.3 (ii))", c->ord2, c->used);
    fl_check_value(ctx, c->ord3 == 0, "stability.order_iii", (double)c->ord3, 0.0, 0.0, "004 §3.3 (iii) (value: violations)", "min Re eig K* <= admissible real eigenvalues: %ld violations (004 §3.3 (iii))", c->ord3);
    fl_check_value(ctx, c->chol == 0, "stability.cholesky_vs_eig", (double)c->chol, 0.0, 0.0, "004 §5.4 methods 2, 3 (value: disagreements)", "Cholesky of K*_S fails iff min eig <= 0: %ld disagreements, %ld non-PD states (004 §5.4 methods 2, 3)", c->chol, c->neg);
    fl_check_value(ctx, c->cone == 0 && c->samp == 0, "stability.method1", (double)(c->cone + c->samp), 0.0, 0.0, "004 §5.4 method 1, (118) (value: violations)", "constrained min >= min eig, = when the eigenvector meets (118); %ld+%ld violations vs %ld samples (004 §5.4 method 1)", c->cone, c->samp, 20 * c->used);
    fl_check_value(ctx, c->sp_bad == 0 && c->modes_cmp > 0, "stability.ref_vs_sparse", (double)c->sp_bad, 0.0, 0.0, "004 §5.4; proofs/README.md sparse stability row (value: disagreements)", "optimized/stability_sparse.c vs reference: min eig K*_S (tol 1e-8 max|K*_S|), Cholesky verdict, and (in %ld states with N* >= 3) the ARPACK + UMFPACK lowest Lambda, flutter mode, smallest real Lambda vs QZ: %ld disagreements in %ld states",
                 c->modes_cmp, c->sp_bad, c->used);
    fl_check_value(ctx, c->damp_bad == 0 && c->damp_cmp > 0, "stability.damped_ref_vs_sparse", (double)c->damp_bad, 0.0, 0.0, "004 §5.7 damped roots (value: disagreements)", "004 §5.7 roots of lambda^2 M* + lambda (alpha M* + beta K*) + K*, random alpha, beta: sparse (ARPACK) vs companion QZ, smallest moduli and lowest growing mode: %ld disagreements in %ld states (%ld with a growing mode)",
                 c->damp_bad, c->damp_cmp, c->damp_grow);
    fl_check_value(ctx, c->f84 == 0, "stability.identity_84", (double)c->f84, 0.0, 0.0, "004 (84), (66), (34) (value: violations)", "a*(v,v) by (66) = K*_S v*.v* - sum_Pz ... (84), v in K_u' (34): %ld violations", c->f84);
}

int fl_stability_crosscheck(fl_check_ctx *ctx)
{
    gsl_rng *g = fl_rng_alloc(ctx->seed);
    if (!g) return -1;
    stab_counts c;
    memset(&c, 0, sizeof c);
    fl_sparse_ctx sctx = {0};
    if (fl_sparse_start(&sctx, NULL) != FL_OK) { gsl_rng_free(g); return -1; }
    for (long it = 0; it < ctx->systems; it++) {
        stab_one_state(g, &sctx, &c);
        fl_check_progress(ctx, "stability", it + 1, ctx->systems);
    }
    gsl_rng_free(g);
    fl_sparse_finish(&sctx);
    stab_report(ctx, ctx->systems, &c);
    return 0;
}
