/* bench_lemke.c — `frictionlab bench stewart`: time of one Stewart–Trinkle
 * step (001 §6.2 P5, Lemke on the LCP) in the dense reference
 * (reference/stewart_law.c: dense Cholesky of M, O(n^3)) and the CHOLMOD
 * twin (optimized/stewart_law_sparse.c: one sparse factorisation, d nc + 2
 * solves), as the number of degrees of freedom n grows from 10^2 to 10^5
 * with 4 contacts in 3D (k = 8 directions: an LCP of size 40).  The dense
 * reference stops at 3000 (1000 with --quick).  Prints the ratio at each n;
 * CSV and PNG in --out.  The comparison with Siconos's Lemke is a separate
 * program, bench/bench_lemke_siconos.c (Siconos stays out of the command).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "fl_rng.h"
#include "fl_sparse.h"
#include "reference/stewart_law.h"
#include "bench.h"
#include "optimized/stewart_law_sparse.h"
#include "fl_clock.h"

/* Sparse SPD M with the pattern of a 2D grid of bodies (couplings i+1 and
 * i+s, s = ceil(sqrt n)), random weights, diagonally dominant: CHOLMOD's
 * fill-reducing ordering keeps the factor O(n log n). */
static cholmod_sparse *chain_matrix(fl_sparse_ctx *ctx, gsl_rng *r, size_t n)
{
    size_t cap = 4 * n;
    int *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *va = malloc(cap * sizeof *va), *diag = calloc(n, sizeof *diag);
    cholmod_sparse *A = NULL;
    if (ri && ci && va && diag) {
        size_t nnz = 0;
        size_t side = (size_t)ceil(sqrt((double)n));
        for (size_t i = 0; i < n; i++)
            for (int e = 0; e < 2; e++) {
                size_t j = e == 0 ? i + 1 : i + side;
                if (j >= n || j == i) continue;
                double w = gsl_rng_uniform(r) - 0.5;
                ri[nnz] = (int)(i < j ? i : j);
                ci[nnz] = (int)(i < j ? j : i);
                va[nnz++] = w;
                diag[i] += fabs(w);
                diag[j] += fabs(w);
            }
        for (size_t i = 0; i < n; i++) {
            ri[nnz] = ci[nnz] = (int)i;
            va[nnz++] = 1.0 + diag[i];
        }
        fl_sparse_from_triplet(ctx, n, n, nnz, ri, ci, va, 1, &A, NULL);
    }
    free(ri);
    free(ci);
    free(va);
    free(diag);
    return A;
}

typedef fl_status (*step_fn)(const fl_stewart_problem *, const fl_stewart_options *,
                             fl_stewart_result *, fl_error *);

static double time_step(step_fn f, const fl_stewart_problem *p, const fl_stewart_options *o,
                        fl_stewart_result *r, int *ok)
{
    int reps = 0;
    double t0 = fl_clock_now(), t;
    do {
        *ok = f(p, o, r, NULL) == FL_OK;
        reps++;
        t = fl_clock_now() - t0;
    } while (t < 0.3 && reps < 1000);
    return t / reps;
}

int fl_bench_stewart(fl_check_ctx *ctx)
{
    const size_t dims[4] = {100, 1000, 10000, 100000};
    const size_t ref_max = ctx->quick ? 1000 : 3000, opt_max = ctx->quick ? 10000 : 100000;
    const size_t nc = 4, dim = 3;
    char csvpath[1024], png[1024], script[4096];
    if (fl_check_out_path(ctx, "bench_stewart.csv", csvpath, sizeof csvpath) != 0) return -1;
    FILE *csv = fopen(csvpath, "w");
    if (!csv) return -1;
    fprintf(csv, "n,nnz,lcp_size,reference_s,optimized_s,ratio,agreement\n");
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL) != FL_OK) {
        fclose(csv);
        return -1;
    }
    gsl_rng *rng = fl_rng_alloc(ctx->seed);
    fl_stewart_options o = fl_stewart_options_default();
    double mu[4] = {0.3, 0.5, 1.0, 0.1};
    for (int i = 0; i < 4 && dims[i] <= opt_max; i++) {
        size_t n = dims[i];
        cholmod_sparse *Ms = chain_matrix(&sctx, rng, n);
        /* H: each contact row touches 3 random dofs (real-world Jacobian of a
         * contact point on a chain of bodies) */
        int ri[3 * 3 * 4], ci[3 * 3 * 4];
        double va[3 * 3 * 4];
        size_t nnz = 0;
        for (size_t row = 0; row < dim * nc; row++)
            for (int e = 0; e < 3; e++) {
                ri[nnz] = (int)row;
                ci[nnz] = (int)gsl_rng_uniform_int(rng, n);
                va[nnz++] = gsl_ran_gaussian(rng, 1.0);
            }
        cholmod_sparse *Hs = NULL;
        fl_sparse_from_triplet(&sctx, dim * nc, n, nnz, ri, ci, va, 0, &Hs, NULL);
        gsl_vector *v = gsl_vector_alloc(n), *f = gsl_vector_alloc(n);
        for (size_t l = 0; l < n; l++) {
            gsl_vector_set(v, l, gsl_ran_gaussian(rng, 1.0));
            gsl_vector_set(f, l, gsl_ran_gaussian(rng, 1.0));
        }
        fl_stewart_problem p = {n, nc, dim, NULL, NULL, Ms, Hs, &sctx, v, f, NULL, mu, 0.01};
        fl_stewart_result *r1 = fl_stewart_result_alloc(n, nc, dim, &o);
        fl_stewart_result *r0 = fl_stewart_result_alloc(n, nc, dim, &o);
        int ok1 = 0, ok0 = 0;
        double topt = time_step(fl_stewart_step_sparse, &p, &o, r1, &ok1);
        double tref = NAN, agree = NAN;
        gsl_matrix *Md = NULL, *Hd = NULL;
        if (n <= ref_max && fl_sparse_to_dense(&sctx, Ms, &Md, NULL) == FL_OK &&
            fl_sparse_to_dense(&sctx, Hs, &Hd, NULL) == FL_OK) {
            fl_stewart_problem pd = p;
            pd.M = Md;
            pd.H = Hd;
            tref = time_step(fl_stewart_step, &pd, &o, r0, &ok0);
            agree = 0.0;
            double vs = 1.0;
            for (size_t l = 0; l < n; l++) {
                agree = fmax(agree, fabs(gsl_vector_get(r0->v_plus, l) - gsl_vector_get(r1->v_plus, l)));
                vs = fmax(vs, fabs(gsl_vector_get(r1->v_plus, l)));
            }
            agree /= vs;
        }
        size_t mnnz = cholmod_nnz(Ms, &sctx.cm);
        printf("stewart bench n = %zu (nnz %zu, LCP %zu): reference %.4g s, optimized %.4g s, "
               "ratio %.4g%s\n", n, mnnz, r1->lcp_size, tref, topt, tref / topt,
               n <= ref_max ? "" : " (reference skipped: dense n x n too large)");
        fprintf(csv, "%zu,%zu,%zu,%.6e,%.6e,%.6e,%.3e\n", n, mnnz, r1->lcp_size, tref, topt,
                tref / topt, agree);
        char name[64];
        snprintf(name, sizeof name, "stewart.bench.n%zu", n);
        fl_check_report(ctx, ok1 && r1->coulomb <= 1e-8 && (n > ref_max || (ok0 && agree <= 1e-7)),
                     name, "step solved (Coulomb violation %.2g); reference vs optimized "
                     "|dv+|/|v+| = %.3g (tol 1e-7; same solution when unique)", r1->coulomb, agree);
        gsl_matrix_free(Md);
        gsl_matrix_free(Hd);
        gsl_vector_free(v);
        gsl_vector_free(f);
        fl_stewart_result_free(r0);
        fl_stewart_result_free(r1);
        fl_sparse_free(&sctx, &Ms);
        fl_sparse_free(&sctx, &Hs);
        fl_check_progress(ctx, "stewart bench", i + 1, 4);
    }
    fclose(csv);
    gsl_rng_free(rng);
    fl_sparse_finish(&sctx);
    if (fl_check_out_path(ctx, "bench_stewart.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png size 900,600 noenhanced\nset output '%s'\nset datafile separator ','\n"
                 "set logscale xy\nset key top left\nset xlabel 'n (degrees of freedom)'\n"
                 "set ylabel 'seconds per step'\n"
                 "set title 'Stewart-Trinkle step (001 6.2, 4 contacts in 3D, k = 8): dense vs CHOLMOD'\n"
                 "plot '%s' every ::1 using 1:4 w lp t 'reference (dense)', '' every ::1 using 1:5 w lp t "
                 "'optimized (CHOLMOD Delassus)'\n",
                 png, csvpath);
        if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "bench stewart: no PNG (gnuplot failed)");
    }
    return 0;
}
