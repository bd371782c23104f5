/* bench_stability.c — `frictionlab bench stability`: time of the §5.4
 * searches of 004 that scale (method 2: Cholesky of K*_S; method 3: its
 * smallest eigenvalue and eigenvector with the check (118)), dense reference
 * (reference/stability.c: gather + gsl_eigen_symmv, O(N^3)) against the
 * CHOLMOD twin (optimized/stability_sparse.c: CSC gather + certified
 * shifted inverse power), and the 20 lowest modes of M*^-1 K* for (ii)-(iii)
 * (dense QZ, gsl_eigen_genv, O(N^3), against ARPACK on a UMFPACK LU of K*),
 * on FE blocks of growing size (the polyurethane block's material, top face
 * prescribed, the bottom nodes contact particles alternately sliding (P_s)
 * and stuck (P_d)).  n = 10^2 .. 2 10^4 dofs (dense up to 2000; --quick:
 * 500 dense, 2000 sparse).  Prints the ratios at each n; CSV and PNG in
 * --out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/fl_check.h"
#include "fl_sparse.h"
#include "optimized/fe2d_sparse.h"
#include "optimized/stability_sparse.h"
#include "reference/fe2d.h"
#include "reference/stability.h"
#include "bench.h"
#include "fl_clock.h"

/* The polyurethane block of 004 §5 at growing size: plane stress P1 on an
 * nx x nx/2 grid (diagonals one way), K and M in CSC upper storage; the top
 * face prescribed, the bottom nodes contact particles. */
static fl_status fe_block(fl_sparse_ctx *ctx, size_t nx, cholmod_sparse **K, cholmod_sparse **M,
                          fl_fe2d_mesh **mesh, fl_error *err)
{
    const double E = 5.0, nu = 0.48;
    fl_fe2d_material mat = {.lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), .mu = E / (2 * (1 + nu)),
                            .rho = 1.2e-9, .model = FL_FE2D_PLANE_STRESS};
    FL_TRY(fl_fe2d_mesh_rect(0.0, -40.0, 80.0, 40.0, nx, nx / 2, FL_FE2D_DIAG_RIGHT, mesh, err));
    FL_TRY(fl_fe2d_assemble_sparse(ctx, *mesh, &mat, FL_FE2D_STIFFNESS, NULL, K, NULL, err));
    FL_TRY(fl_fe2d_assemble_sparse(ctx, *mesh, &mat, FL_FE2D_MASS, NULL, M, NULL, err));
    return FL_OK;
}

int fl_bench_stability(fl_check_ctx *ctx)
{
    size_t nxs[] = {6, 10, 20, 30, 60, 100, 140};
    size_t nw = sizeof nxs / sizeof *nxs, dense_max = ctx->quick ? 500 : 2000, sparse_max = ctx->quick ? 2000 : 25000;
    char path[1024];
    FILE *csv = NULL;
    if (fl_check_out_path(ctx, "bench_stability.csv", path, sizeof path) == 0) csv = fopen(path, "w");
    if (csv) fprintf(csv, "n,dense_KS_seconds,sparse_KS_seconds,dense_modes_seconds,sparse_modes_seconds,ks_min_dense,ks_min_sparse,lambda1_dense,lambda1_sparse\n");
    fl_sparse_ctx sc = {0};
    if (fl_sparse_start(&sc, NULL) != FL_OK) { if (csv) fclose(csv); return -1; }
    int bad = 0, ran = 0;
    for (size_t k = 0; k < nw; k++) {
        size_t nx = nxs[k], n = 2 * (nx + 1) * (nx / 2 + 1);
        if (n > sparse_max) break;
        cholmod_sparse *K = NULL, *M = NULL;
        fl_fe2d_mesh *mesh = NULL;
        fl_error err;
        if (fe_block(&sc, nx, &K, &M, &mesh, &err) != FL_OK) {
            fl_check_message(ctx, "bench stability: %s", err.message);
            fl_sparse_free(&sc, &K);
            fl_fe2d_mesh_free(mesh);
            bad++;
            break;
        }
        size_t np = nx + 1, top = (nx / 2) * (nx + 1);   /* bottom row: nodes 0..nx; top row from `top` */
        size_t *iT = malloc(np * sizeof *iT), *iN = malloc(np * sizeof *iN);
        fl_stability_label *lab = malloc(np * sizeof *lab);
        double *r = calloc(n, sizeof *r);
        unsigned char *pres = calloc(n, 1);
        double mu = 1.1;
        for (size_t q = top; q < top + nx + 1; q++) pres[2 * q] = pres[2 * q + 1] = 1;
        for (size_t p = 0; p < np; p++) {
            iT[p] = 2 * p;
            iN[p] = 2 * p + 1;
            lab[p] = p % 2 ? FL_STAB_PS : FL_STAB_PD;
            r[iN[p]] = -1.0;
            r[iT[p]] = lab[p] == FL_STAB_PS ? mu : 0.1;
        }
        fl_stability_system_sparse ss = {.n = n, .K = K, .M = M, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
        fl_stability_options o = fl_stability_options_default();
        o.sparse.nev = 0;                                   /* methods 2-3 alone, then the modes */
        o.sparse.max_iter = 20000;
        double t0 = fl_clock_now();
        fl_stability_tangent_sparse *ts = NULL;
        fl_stability_result rs = {0};
        fl_status st = fl_stability_tangent_alloc_sparse(&sc, &ss, lab, r, &ts, &err);
        if (st == FL_OK) st = fl_stability_analyse_sparse(&(fl_stability_tangents){.ctx = &sc, .sparse = ts}, &o, &rs, &err);
        double tsp = fl_clock_now() - t0;
        o.sparse.nev = 20;
        t0 = fl_clock_now();
        if (st == FL_OK) st = fl_stability_modes_sparse(&sc, ts, &o, 5000, &rs, &err);
        double tsm = fl_clock_now() - t0;
        double l1s = rs.nlam ? hypot(rs.lam_re[0], rs.lam_im[0]) : NAN;
        double tde = NAN, tdm = NAN, kd = NAN, l1d = NAN;
        if (n <= dense_max && st == FL_OK) {
            gsl_matrix *Kd, *Md;
            fl_sparse_to_dense(&sc, K, &Kd, NULL);
            fl_sparse_to_dense(&sc, M, &Md, NULL);
            gsl_vector_view rv = gsl_vector_view_array(r, n);
            fl_stability_system sd = {.n = n, .K = Kd, .M = Md, .prescribed = pres, .np = np, .iT = iT, .iN = iN, .mu = mu};
            t0 = fl_clock_now();
            fl_stability_tangent *td = NULL;
            if (fl_stability_tangent_alloc(&sd, lab, &rv.vector, &td, NULL) == FL_OK) {
                gsl_vector *v = gsl_vector_alloc(td->nstar);
                fl_stability_sym_min(td->KS, &kd, v, NULL);
                (void)fl_stability_cholesky_pd(td->KS);
                (void)fl_stability_admissible(v, td->csign, 1e-10);
                gsl_vector_free(v);
                tde = fl_clock_now() - t0;
                double *re = malloc(td->nstar * sizeof *re), *im = malloc(td->nstar * sizeof *im);
                t0 = fl_clock_now();
                if (re && im && fl_stability_gen_eig(td->Kstar, td->Mstar, re, im, NULL, NULL) == FL_OK) l1d = hypot(re[0], im[0]);
                tdm = fl_clock_now() - t0;
                free(re);
                free(im);
            }
            fl_stability_tangent_free(td);
            gsl_matrix_free(Kd);
            gsl_matrix_free(Md);
            double kscale = 0;   /* max |K_ij| bounds max |K*_S| up to (1 + mu) */
            for (size_t q = 0; q < ((cholmod_sparse *)K)->nzmax; q++) kscale = fmax(kscale, fabs(((double *)K->x)[q]));
            if (!(fabs(kd - rs.ks_min) < 1e-8 * (1 + mu) * kscale) || !(fabs(l1d - l1s) < 1e-8 * l1d)) bad++;
            ran++;
        }
        printf("n = %6zu  K*_S: dense %.4g s, sparse %.4g s (%d steps), ratio %.3g | 20 lowest modes: QZ %.4g s, ARPACK %.4g s, ratio %.3g | |Lambda_1| %.10g%s\n",
               n, tde, tsp, rs.iterations, tde / tsp, tdm, tsm, tdm / tsm, l1s, st == FL_OK ? "" : " (sparse status not OK)");
        if (csv) fprintf(csv, "%zu,%.6g,%.6g,%.6g,%.6g,%.12g,%.12g,%.12g,%.12g\n", n, tde, tsp, tdm, tsm, kd, rs.ks_min, l1d, l1s);
        if (st != FL_OK) bad++;
        fl_stability_result_free(&rs);
        fl_stability_tangent_free_sparse(&sc, ts);
        fl_sparse_free(&sc, &K);
        fl_sparse_free(&sc, &M);
        fl_fe2d_mesh_free(mesh);
        free(iT);
        free(iN);
        free(lab);
        free(r);
        free(pres);
        fl_check_progress(ctx, "bench stability sizes", (long)k + 1, (long)nw);
    }
    fl_sparse_finish(&sc);
    if (csv) {
        fclose(csv);
        char png[1024], script[4096];
        if (fl_check_out_path(ctx, "bench_stability.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 800,500\nset output '%s'\nset datafile separator ','\n"
                     "set logscale xy\nset xlabel 'dofs n'\nset ylabel 'seconds'\nset key left top\n"
                     "set title '004 §5.4 searches on FE blocks: dense reference vs sparse twin'\n"
                     "plot '%s' every ::1 u 1:2 w lp t 'min eig K*_S: dense (gsl_eigen_symmv)', '' every ::1 u 1:3 w lp t 'min eig K*_S: CHOLMOD inverse power', "
                     "'' every ::1 u 1:4 w lp t '20 lowest Lambda: dense QZ', '' every ::1 u 1:5 w lp t '20 lowest Lambda: ARPACK + UMFPACK'\n",
                     png, path);
            fl_check_plot(ctx, script);
        }
    }
    fl_check_report(ctx, bad == 0 && ran > 0, "bench.stability_agree", "dense and sparse min eig K*_S (1e-8 (1 + mu) max|K|) and |Lambda_1| (1e-8 relative) agree at the %d sizes where both ran", ran);
    return 0;
}
