/* bench_moreau.c — `frictionlab bench moreau`: time of one evaluation of
 * Moreau's discrete contact law S(q,v) (000 §2) in the dense reference
 * (reference/moreau_law.c: dense Cholesky of M, O(d^3)) and the CHOLMOD
 * twin (optimized/moreau_law_sparse.c: sparse factorisation, k+1 solves),
 * as d grows from 10^2 to 10^5, on a collision with a 2D disc friction set.
 * The dense reference runs up to d = 10^4 (above, the d x d matrix alone
 * is 80 GB at 10^5); --quick stops the reference at 10^3 and the sparse
 * law at 10^4.  Prints the ratio at each d; CSV and PNG in --out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "fl_rng.h"
#include "fl_sparse.h"
#include "reference/moreau_law.h"
#include "bench.h"
#include "optimized/moreau_law_sparse.h"
#include "fl_clock.h"

/* Sparse SPD M with the pattern of a 2D finite-element mass/stiffness mix:
 * the 5-point grid stencil on a w x w grid (w = ceil(sqrt d)), random
 * couplings, diagonally dominant (diag = 1 + sum |off-diagonal|), upper
 * storage.  Nested-dissection fill stays O(d log d). */
static cholmod_sparse *bench_matrix(fl_sparse_ctx *ctx, gsl_rng *r, size_t d)
{
    size_t w = (size_t)ceil(sqrt((double)d));
    size_t cap = 3 * d;
    int *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *va = malloc(cap * sizeof *va), *diag = calloc(d, sizeof *diag);
    size_t nnz = 0;
    for (size_t i = 0; i < d; i++) {
        size_t nb[2] = {(i % w + 1 < w) ? i + 1 : d, i + w};
        for (int e = 0; e < 2; e++) {
            size_t j = nb[e];
            if (j >= d) continue;
            double wt = gsl_rng_uniform(r) - 0.5;
            ri[nnz] = (int)i;
            ci[nnz] = (int)j;
            va[nnz++] = wt;
            diag[i] += fabs(wt);
            diag[j] += fabs(wt);
        }
    }
    for (size_t i = 0; i < d; i++) {
        ri[nnz] = ci[nnz] = (int)i;
        va[nnz++] = 1.0 + diag[i];
    }
    cholmod_sparse *A = NULL;
    fl_sparse_from_triplet(ctx, d, d, nnz, ri, ci, va, 1, &A, NULL);
    free(ri);
    free(ci);
    free(va);
    free(diag);
    return A;
}

/* Mean seconds of law() over repeats filling ~0.3 s (at least one call). */
static double time_law(fl_moreau_law_fn law, const fl_moreau_problem *p, gsl_vector *u,
                       gsl_vector *r, int *ok)
{
    int reps = 0;
    double t0 = fl_clock_now(), t;
    do {
        fl_moreau_result res;
        *ok = law(p, NULL, u, r, &res, NULL) == FL_OK && res.branch == FL_MOREAU_COLLISION;
        reps++;
        t = fl_clock_now() - t0;
    } while (t < 0.3 && reps < 1000);
    return t / reps;
}

int fl_bench_moreau(fl_check_ctx *ctx)
{
    const size_t dims[4] = {100, 1000, 10000, 100000};
    const size_t ref_max = ctx->quick ? 1000 : 10000, opt_max = ctx->quick ? 10000 : 100000;
    char csvpath[1024], png[1024], script[4096];
    if (fl_check_out_path(ctx, "bench_moreau.csv", csvpath, sizeof csvpath) != 0) return -1;
    FILE *csv = fopen(csvpath, "w");
    if (!csv) return -1;
    fprintf(csv, "d,nnz,reference_s,optimized_s,ratio,agreement\n");
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL) != FL_OK) { fclose(csv); return -1; }
    gsl_rng *rng = fl_rng_alloc(ctx->seed);
    fl_friction_set C;
    fl_friction_set_disc(&C, 2, 0.5, NULL);
    for (int i = 0; i < 4 && dims[i] <= opt_max; i++) {
        const size_t d = dims[i];
        cholmod_sparse *Msp = bench_matrix(&sctx, rng, d);
        gsl_vector *dg = gsl_vector_alloc(d), *v = gsl_vector_alloc(d);
        gsl_vector *u0 = gsl_vector_alloc(d), *u1 = gsl_vector_alloc(d), *r = gsl_vector_alloc(d);
        gsl_matrix *T = gsl_matrix_alloc(d, 2);
        for (size_t l = 0; l < d; l++) {
            gsl_vector_set(dg, l, gsl_ran_gaussian(rng, 1.0));
            gsl_vector_set(v, l, gsl_ran_gaussian(rng, 1.0));
            gsl_matrix_set(T, l, 0, gsl_ran_gaussian(rng, 1.0));
            gsl_matrix_set(T, l, 1, gsl_ran_gaussian(rng, 1.0));
        }
        double vn, nd = gsl_blas_dnrm2(dg);
        gsl_blas_ddot(v, dg, &vn);
        if (vn > 0) gsl_vector_scale(v, -1.0);       /* a collision: <v, n> < 0 */
        fl_moreau_problem p;
        memset(&p, 0, sizeof p);
        p.d = d;
        p.Msp = Msp;
        p.ctx = &sctx;
        p.gap = 0.0;
        p.dgap = dg;
        p.friction = FL_MOREAU_SET;
        p.tangent = T;
        p.C = &C;
        p.v = v;
        (void)nd;
        int ok1 = 0, ok0 = 0;
        double topt = time_law(fl_moreau_law_sparse, &p, u1, r, &ok1);
        double tref = NAN, agree = NAN;
        gsl_matrix *Md = NULL;
        if (d <= ref_max && fl_sparse_to_dense(&sctx, Msp, &Md, NULL) == FL_OK) {
            p.M = Md;
            tref = time_law(fl_moreau_law, &p, u0, r, &ok0);
            gsl_vector_sub(u0, u1);
            agree = gsl_blas_dnrm2(u0) / gsl_blas_dnrm2(v);
        }
        size_t nnz = cholmod_nnz(Msp, &sctx.cm);
        printf("moreau bench d = %zu (nnz %zu): reference %.4g s, optimized %.4g s, ratio %.4g%s\n",
               d, nnz, tref, topt, tref / topt, d <= ref_max ? "" : " (reference skipped: dense d x d too large)");
        fprintf(csv, "%zu,%zu,%.6e,%.6e,%.6e,%.3e\n", d, nnz, tref, topt, tref / topt, agree);
        char name[64];
        snprintf(name, sizeof name, "moreau.bench.d%zu", d);
        fl_check_report(ctx, ok1 && (d > ref_max || (ok0 && agree <= 1e-7)), name,
                     "collision solved; reference vs optimized |du|/|v| = %.3g (tol 1e-7)", agree);
        gsl_matrix_free(Md);
        gsl_matrix_free(T);
        gsl_vector_free(dg);
        gsl_vector_free(v);
        gsl_vector_free(u0);
        gsl_vector_free(u1);
        gsl_vector_free(r);
        fl_sparse_free(&sctx, &Msp);
    }
    fclose(csv);
    fl_friction_set_release(&C);
    gsl_rng_free(rng);
    fl_sparse_finish(&sctx);
    if (fl_check_out_path(ctx, "bench_moreau.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png size 900,600 noenhanced\nset output '%s'\nset datafile separator ','\n"
                 "set logscale xy\nset key top left\nset xlabel 'd'\nset ylabel 'seconds per S(q,v)'\n"
                 "set title 'Moreau law (000 §2): dense reference vs CHOLMOD'\n"
                 "plot '%s' every ::1 using 1:3 w lp t 'reference (dense)', '' every ::1 using 1:4 w lp t 'optimized (CHOLMOD)'\n",
                 png, csvpath);
        if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "bench moreau: no PNG (gnuplot failed)");
    }
    return 0;
}
