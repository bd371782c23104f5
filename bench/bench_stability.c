/* bench_stability.c — `frictionlab bench stability`: time of the §5.4
 * searches of 004 that scale (method 2: Cholesky of K*_S; method 3: its
 * smallest eigenvalue and eigenvector with the check (118)), dense reference
 * (reference/stability.c: gather + gsl_eigen_symmv, O(N^3)) against the
 * CHOLMOD twin (optimized/stability_sparse.c: CSC gather + certified
 * shifted inverse power), on a w x w grid stiffness with a row of np
 * contact particles, half of them sliding (P_s), the others stuck (P_d).
 * n = 10^2 .. 4 10^4 (dense up to 1600; --quick: 400 dense, 6400 sparse).
 * Prints the ratio at each n; CSV and PNG in --out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fl_sparse.h"
#include "optimized/stability_sparse.h"
#include "reference/stability.h"
#include "registry.h"

/* 5-point stencil on a w x w grid, SPD (diag 4.2), upper storage. */
static cholmod_sparse *grid_matrix(fl_sparse_ctx *ctx, size_t w, double diag, double off)
{
    size_t n = w * w, cap = 3 * n;
    int *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *va = malloc(cap * sizeof *va);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        ri[m] = ci[m] = (int)i;
        va[m++] = diag;
        if (i % w + 1 < w) { ri[m] = (int)i; ci[m] = (int)(i + 1); va[m++] = off; }
        if (i + w < n) { ri[m] = (int)i; ci[m] = (int)(i + w); va[m++] = off; }
    }
    cholmod_sparse *A = NULL;
    fl_sparse_from_triplet(ctx, n, n, m, ri, ci, va, 1, &A, NULL);
    free(ri);
    free(ci);
    free(va);
    return A;
}

int fl_bench_stability(fl_cli_ctx *ctx)
{
    size_t ws[] = {10, 20, 40, 80, 120, 200};
    size_t nw = sizeof ws / sizeof *ws, dense_max = ctx->quick ? 400 : 1600, sparse_max = ctx->quick ? 6400 : 40000;
    char path[1024];
    FILE *csv = NULL;
    if (fl_cli_out_path(ctx, "bench_stability.csv", path, sizeof path) == 0) csv = fopen(path, "w");
    if (csv) fprintf(csv, "n,dense_seconds,sparse_seconds,ks_min_dense,ks_min_sparse,sparse_iterations\n");
    fl_sparse_ctx sc = {0};
    if (fl_sparse_start(&sc, NULL) != FL_OK) { if (csv) fclose(csv); return -1; }
    int bad = 0;
    for (size_t k = 0; k < nw; k++) {
        size_t w = ws[k], n = w * w;
        if (n > sparse_max) break;
        cholmod_sparse *K = grid_matrix(&sc, w, 4.2, -1.0), *M = grid_matrix(&sc, w, 1.0, 0.0);
        size_t np = w / 2;
        size_t *iT = malloc(np * sizeof *iT), *iN = malloc(np * sizeof *iN);
        fl_stab_label *lab = malloc(np * sizeof *lab);
        double *r = calloc(n, sizeof *r);
        double mu = 2.0;
        for (size_t p = 0; p < np; p++) {
            iT[p] = 2 * p;       /* first grid row: neighbouring dofs */
            iN[p] = 2 * p + 1;
            lab[p] = p % 2 ? FL_STAB_PS : FL_STAB_PD;
            r[iN[p]] = -1.0;
            r[iT[p]] = lab[p] == FL_STAB_PS ? mu : 0.1;
        }
        fl_stab_sparse_system ss = {.n = n, .K = K, .M = M, .prescribed = NULL, .np = np, .iT = iT, .iN = iN, .mu = mu};
        double t0 = fl_cli_now();
        fl_stab_sparse_tangent *ts = NULL;
        fl_stab_result rs = {0};
        fl_error err;
        fl_status st = fl_stab_sparse_tangent_alloc(&sc, &ss, lab, r, &ts, &err);
        if (st == FL_OK) st = fl_stab_sparse_analyse(&sc, ts, NULL, 20000, &rs, &err);
        double tsp = fl_cli_now() - t0;
        double tde = NAN, kd = NAN;
        if (n <= dense_max) {
            gsl_matrix *Kd, *Md;
            fl_sparse_to_dense(&sc, K, &Kd, NULL);
            fl_sparse_to_dense(&sc, M, &Md, NULL);
            gsl_vector_view rv = gsl_vector_view_array(r, n);
            fl_stab_system sd = {.n = n, .K = Kd, .M = Md, .prescribed = NULL, .np = np, .iT = iT, .iN = iN, .mu = mu};
            t0 = fl_cli_now();
            fl_stab_tangent *td = NULL;
            if (fl_stab_tangent_alloc(&sd, lab, &rv.vector, &td, NULL) == FL_OK) {
                gsl_vector *v = gsl_vector_alloc(td->nstar);
                fl_stab_sym_min(td->KS, &kd, v, NULL);
                (void)fl_stab_cholesky_pd(td->KS);
                (void)fl_stab_admissible(v, td->csign, 1e-10);
                gsl_vector_free(v);
            }
            tde = fl_cli_now() - t0;
            fl_stab_tangent_free(td);
            gsl_matrix_free(Kd);
            gsl_matrix_free(Md);
            if (!(fabs(kd - rs.ks_min) < 1e-8 * 6.0)) bad++;
        }
        printf("n = %6zu  dense %.4g s  sparse %.4g s (%d inverse-power steps)  ratio %.3g  min eig K*_S %.10g%s\n",
               n, tde, tsp, rs.iterations, tde / tsp, rs.ks_min, st == FL_OK ? "" : " (sparse status not OK)");
        if (csv) fprintf(csv, "%zu,%.6g,%.6g,%.12g,%.12g,%d\n", n, tde, tsp, kd, rs.ks_min, rs.iterations);
        fl_stab_result_free(&rs);
        fl_stab_sparse_tangent_free(&sc, ts);
        fl_sparse_free(&sc, &K);
        fl_sparse_free(&sc, &M);
        free(iT);
        free(iN);
        free(lab);
        free(r);
    }
    fl_sparse_finish(&sc);
    if (csv) {
        fclose(csv);
        char png[1024], script[4096];
        if (fl_cli_out_path(ctx, "bench_stability.png", png, sizeof png) == 0) {
            snprintf(script, sizeof script,
                     "set terminal png size 800,500\nset output '%s'\nset datafile separator ','\n"
                     "set logscale xy\nset xlabel 'dofs n'\nset ylabel 'seconds'\nset key left top\n"
                     "set title '004 §5.4 methods 2-3: dense reference vs CHOLMOD'\n"
                     "plot '%s' every ::1 u 1:2 w lp t 'dense (gsl_eigen_symmv)', '' every ::1 u 1:3 w lp t 'sparse (CHOLMOD, inverse power)'\n",
                     png, path);
            fl_cli_gnuplot(script);
        }
    }
    fl_cli_check(ctx, bad == 0, "bench.stability_agree", "dense and sparse min eig K*_S agree (tol 6e-8) at every n where both ran");
    return 0;
}
