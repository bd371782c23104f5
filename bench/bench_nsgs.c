/* bench_nsgs.c — `frictionlab bench nsgs`: one Contact Dynamics step (003 §3)
 * and one nonlinear Gauss–Seidel sweep, dense reference (reference/nsgs.c,
 * W dense, O(m^2) per sweep) against the CHOLMOD twin
 * (optimized/delassus_sparse.c + optimized/nsgs_sparse.c, O(nnz W) per
 * sweep), for random 2D granular-like systems with 10^2 .. 10^5 contacts.
 *
 * System: nb = nc/2 rigid bodies (dofs vx, vy, omega; block-diagonal M
 * factored by CHOLMOD), contact a between body i and body j = i + 1 + U{0..3}
 * (mod nb), random unit normal, lever arms of length 0.5, mu = 0.3, under a
 * random external impulse.  The sweep time (best of repeated single sweeps)
 * of the sparse solver is compared
 * with the memory-bandwidth bound 8 nnz(W) bytes / B, B measured here by a
 * 256 MB memcpy (read + write counted).  The graph-coloured sweep
 * (optimized/nsgs_colored.c) is timed on one thread and on all cores
 * (bench/bench_stream.h, bench_sweeps_measure), and the step's solve (to
 * 1e-8, at most 200 sweeps, setup cached) is run by the serial sweep and by
 * the coloured sweep on 1 and on all threads: verdicts, errors, the largest
 * difference to the serial impulses, and the speed-up over one thread, all
 * measured in the run.  The dense reference runs up to
 * 10^3 contacts (a dense W at 10^4 contacts is 3.2 GB).  Also times both
 * ways of forming W (sparse solves; trailing block of the augmented factor).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "checks/fl_check.h"
#include "fl_rng.h"
#include "fl_sparse.h"
#include "drivers/moreau_jean.h"
#include "bench.h"
#include "optimized/delassus_sparse.h"
#include "reference/delassus.h"
#include "optimized/nsgs_sparse.h"
#include "fl_clock.h"
#include "bench_stream.h"

/* Memory bandwidth in bytes/s: best of 5 copies of a 256 MB buffer. */
static double bench_bandwidth(void)
{
    size_t n = (size_t)256 << 20;
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) {
        free(a);
        free(b);
        return NAN;
    }
    memset(a, 1, n);
    memset(b, 2, n);
    double best = INFINITY;
    for (int k = 0; k < 5; k++) {
        double t0 = fl_clock_now();
        memcpy(k % 2 ? a : b, k % 2 ? b : a, n);
        best = fmin(best, fl_clock_now() - t0);
    }
    volatile char sink = a[n / 2] + b[n / 3];
    (void)sink;
    free(a);
    free(b);
    return 2.0 * (double)n / best;
}

/* The step's solve (1e-8, at most 200 sweeps, from zero) with opt.sparse.threads =
 * threads and the cache c (its setup from an earlier solve reused); returns the
 * wall time, fills res and r. */
static double nsgs_solve_timed(const fl_local_problem *p, int threads, fl_nsgs_colored_cache *c,
                               gsl_vector *r, fl_nsgs_result *res)
{
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = 1e-8;
    o.max_sweeps = 200;
    o.sparse.threads = threads;
    o.sparse.cache = c;
    gsl_vector_set_zero(r);
    double t = fl_clock_now();
    fl_nsgs_solve_sparse(p, &o, r, NULL, res, NULL);
    return fl_clock_now() - t;
}

/* Serial against coloured (1 and T threads), sweeps (bench_sweeps_measure) and
 * solves (setup cached, best of 3 after one that sets up): one printed line;
 * returns the sweep speed-up over one thread. */
static double nsgs_parallel_line(const fl_local_problem *p, size_t nc, int T, int reps)
{
    bench_sweeps b;
    bench_sweeps_measure(p, T, reps, &b);
    gsl_vector *rs = gsl_vector_calloc(p->m), *r1 = gsl_vector_calloc(p->m);
    gsl_vector *rT = gsl_vector_calloc(p->m);
    fl_nsgs_colored_cache cs, c1, cT;
    fl_nsgs_colored_cache_init(&cs);
    fl_nsgs_colored_cache_init(&c1);
    fl_nsgs_colored_cache_init(&cT);
    if (!rs || !r1 || !rT) {
        if (rs) gsl_vector_free(rs);
        if (r1) gsl_vector_free(r1);
        if (rT) gsl_vector_free(rT);
        return NAN;
    }
    fl_nsgs_result es, e1, eT;
    double ts = INFINITY, t1 = INFINITY, tT = INFINITY;
    for (int k = 0; k < 4; k++) {   /* the first sets the caches up */
        double a = nsgs_solve_timed(p, 0, &cs, rs, &es), a1 = nsgs_solve_timed(p, 1, &c1, r1, &e1);
        double aT = nsgs_solve_timed(p, T, &cT, rT, &eT);
        if (k == 0) continue;
        ts = fmin(ts, a);
        t1 = fmin(t1, a1);
        tT = fmin(tT, aT);
    }
    double diff = 0, scale = 0, d1T = 0;
    for (size_t i = 0; i < p->m; i++) {
        diff = fmax(diff, fabs(rT->data[i] - rs->data[i]));
        scale = fmax(scale, fabs(rs->data[i]));
        d1T = fmax(d1T, fabs(rT->data[i] - r1->data[i]));
    }
    printf("nsgs: %6zu contacts sweep (best of %d rounds): serial cached %.3g s = %.2f x its bound, "
           "CSC %.3g s; coloured 1 thread %.3g s, %d threads %.3g s: speed-up %.2f (%s) | solve "
           "to 1e-8, setup cached: serial %.3g s (%s, %d sweeps, %.2g), coloured 1 thread %.3g s "
           "(%s, %d, %.2g), %d threads %.3g s (%s, %d, %.2g)%s; speed-up %.2f; max |r - "
           "r_serial| / max |r_serial| = %.2g\n",
           nc, reps, b.serial, b.serial / (b.bytes_serial / b.bw1), b.csc, b.col1, T, b.colT,
           b.col1 / b.colT, bench_stream_binding(), ts, fl_strerror(es.status), es.iterations,
           es.residual, t1, fl_strerror(e1.status), e1.iterations, e1.residual, T, tT,
           fl_strerror(eT.status), eT.iterations, eT.residual,
           d1T == 0 && e1.status == eT.status ? " (1 and T threads: the same)" : " (DIFFER)",
           t1 / tT, scale > 0 ? diff / scale : diff);
    fl_nsgs_colored_cache_clear(&cs);
    fl_nsgs_colored_cache_clear(&c1);
    fl_nsgs_colored_cache_clear(&cT);
    gsl_vector_free(rs);
    gsl_vector_free(r1);
    gsl_vector_free(rT);
    return b.col1 / b.colT;
}

/* Random granular-like global problem with sparse M, H (and dense copies if
 * dense != 0). */
static fl_global_problem *bench_problem(gsl_rng *r, fl_sparse_ctx *ctx, size_t nc, int dense)
{
    size_t nb = nc / 2 < 2 ? 2 : nc / 2, n = 3 * nb, m = 2 * nc;
    fl_global_problem *g = NULL;
    if (fl_global_problem_alloc(n, nc, 2, dense, &g, NULL) != FL_OK) return NULL;
    g->ctx = ctx;
    int *ri = malloc(12 * nc * sizeof *ri), *ci = malloc(12 * nc * sizeof *ci);
    double *va = malloc(12 * nc * sizeof *va);
    int *mi = malloc(n * sizeof *mi);
    double *mv = malloc(n * sizeof *mv);
    size_t t = 0;
    for (size_t b = 0; b < nb; b++) {
        double mass = 0.5 + gsl_rng_uniform(r);
        for (int k = 0; k < 3; k++) {
            mi[3 * b + k] = (int)(3 * b + k);
            mv[3 * b + k] = k < 2 ? mass : 0.1 * mass;
        }
    }
    for (size_t a = 0; a < nc; a++) {
        size_t i = a % nb, j = (i + 1 + gsl_rng_uniform_int(r, 4)) % nb;
        double th = 6.283185307179586 * gsl_rng_uniform(r);
        double nx = cos(th), ny = sin(th), tx = -ny, ty = nx;
        /* U = frame . (v_j + w_j x r_j - v_i - w_i x r_i), r_i = 0.5 n, r_j = -0.5 n */
        double rix = 0.5 * nx, riy = 0.5 * ny, rjx = -rix, rjy = -riy;
        double frame[2][2] = {{nx, ny}, {tx, ty}};
        for (int row = 0; row < 2; row++) {
            double ex = frame[row][0], ey = frame[row][1];
            int rr = (int)(2 * a + row);
            ri[t] = rr; ci[t] = (int)(3 * j); va[t++] = ex;
            ri[t] = rr; ci[t] = (int)(3 * j + 1); va[t++] = ey;
            ri[t] = rr; ci[t] = (int)(3 * j + 2); va[t++] = -rjy * ex + rjx * ey;
            ri[t] = rr; ci[t] = (int)(3 * i); va[t++] = -ex;
            ri[t] = rr; ci[t] = (int)(3 * i + 1); va[t++] = -ey;
            ri[t] = rr; ci[t] = (int)(3 * i + 2); va[t++] = -(-riy * ex + rix * ey);
        }
        g->mu[a] = 0.3;
    }
    /* keep 6 entries per row (j == i never happens: nb >= 2 and offset 1..4 < nb
     * unless nb <= 4, where duplicates are summed) */
    fl_status s = fl_sparse_from_triplet(ctx, m, n, t, ri, ci, va, 0, &g->Hs, NULL);
    if (s == FL_OK) s = fl_sparse_from_triplet(ctx, n, n, n, mi, mi, mv, 1, &g->Ms, NULL);
    for (size_t k = 0; k < n; k++) gsl_vector_set(g->f, k, 0.01 * gsl_ran_gaussian(r, 1.0));
    if (s == FL_OK && dense) {
        gsl_matrix *Md = NULL, *Hd = NULL;
        if (fl_sparse_to_dense(ctx, g->Ms, &Md, NULL) == FL_OK &&
            fl_sparse_to_dense(ctx, g->Hs, &Hd, NULL) == FL_OK) {
            gsl_matrix_memcpy(g->M, Md);
            gsl_matrix_memcpy(g->H, Hd);
        } else {
            s = FL_ENOMEM;
        }
        if (Md) gsl_matrix_free(Md);
        if (Hd) gsl_matrix_free(Hd);
    }
    free(ri);
    free(ci);
    free(va);
    free(mi);
    free(mv);
    if (s != FL_OK) {
        fl_global_problem_free(g);
        return NULL;
    }
    return g;
}

int fl_bench_nsgs(fl_check_ctx *ctx)
{
    const size_t sizes[] = {100, 300, 1000, 3000, 10000, 100000};
    const size_t nsizes = ctx->quick ? 2 : sizeof sizes / sizeof sizes[0];
    const size_t dense_max = 1000;
    char path[4096];
    if (fl_check_out_path(ctx, "bench_nsgs.csv", path, sizeof path) != 0) return -1;
    FILE *csv = fopen(path, "w");
    if (!csv) return -1;
    double bw = bench_bandwidth();
    printf("nsgs: measured memory bandwidth %.2f GB/s (256 MB memcpy, read + write)\n", bw / 1e9);
    fprintf(csv, "contacts,nnz_W,delassus_solves_s,delassus_trailing_s,step_ref_s,step_opt_s,"
                 "sweep_ref_s,sweep_opt_s,bandwidth_bound_s,sweep_opt_over_bound\n");
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL) != FL_OK) {
        fclose(csv);
        return -1;
    }
    gsl_rng *r = fl_rng_alloc(ctx->seed ? ctx->seed : 1);
    double ratio_last = NAN, speedup_last = NAN;
    int ok = 1;
    for (size_t k = 0; k < nsizes; k++) {
        size_t nc = sizes[k];
        int dense = nc <= dense_max;
        fl_global_problem *g = bench_problem(r, &sctx, nc, dense);
        if (!g) {
            ok = 0;
            break;
        }
        /* forming W: sparse solves (factor reused on the second call) vs trailing block */
        /* at 1e5 contacts only the trailing block (the sparse solves take
         * minutes there) and no Moreau–Jean step (it forms W by solves) */
        const int huge = nc >= 100000;
        cholmod_factor *L = NULL;
        fl_local_problem *p = NULL, *pt = NULL;
        double t0 = fl_clock_now();
        fl_status s = huge ? FL_OK : fl_delassus_sparse(g, NULL, &L, &p, NULL);
        double t_solves = huge ? NAN : fl_clock_now() - t0;
        t0 = fl_clock_now();
        fl_status s2 = fl_delassus_sparse(g, &(fl_delassus_options){.sparse.method = FL_DELASSUS_TRAILING}, &L, &pt, NULL);
        double t_trail = fl_clock_now() - t0;
        if (huge) {
            p = pt;
            s = s2;
            pt = NULL;
        }
        fl_local_problem_free(pt);
        if (s != FL_OK) {
            ok = 0;
            fl_global_problem_free(g);
            fl_sparse_free_factor(&sctx, &L);
            break;
        }
        if (s2 != FL_OK) t_trail = NAN;
        double nnzW = (double)cholmod_nnz(p->Ws, &sctx.cm);
        /* sweep time: best of `reps` single warm-started sweeps (the machine is
         * shared: the minimum is the least disturbed measurement) */
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1e-300;
        o.max_sweeps = 1;
        const int reps = nc >= 3000 ? 15 : 30;
        gsl_vector *rr = gsl_vector_calloc(p->m);
        fl_nsgs_result res;
        double sweep_opt = INFINITY, sweep_ref = NAN, step_ref = NAN;
        for (int k2 = 0; k2 < reps; k2++) {
            o.start = k2 ? FL_NSGS_START_WARM : FL_NSGS_START_ZERO;
            fl_nsgs_solve_sparse(p, &o, rr, NULL, &res, NULL);
            sweep_opt = fmin(sweep_opt, res.sweep_seconds);
        }
        if (dense) {
            fl_local_problem *pd = NULL;
            if (fl_delassus_dense(g, NULL, NULL, &pd, NULL) == FL_OK) {
                sweep_ref = INFINITY;
                for (int k2 = 0; k2 < (nc >= 1000 ? 5 : reps); k2++) {
                    o.start = k2 ? FL_NSGS_START_WARM : FL_NSGS_START_ZERO;
                    fl_nsgs_solve(pd, &o, rr, NULL, &res, NULL);
                    sweep_ref = fmin(sweep_ref, res.sweep_seconds);
                }
            }
            fl_local_problem_free(pd);
        }
        /* one full step (Delassus + NSGS to 1e-8, at most 200 sweeps + u+) */
        gsl_vector *u0 = gsl_vector_calloc(g->n), *up = gsl_vector_alloc(g->n);
        fl_moreau_jean_options mo = fl_moreau_jean_options_default();
        mo.nsgs.tol = 1e-8;
        mo.nsgs.max_sweeps = 200;
        mo.impl = FL_IMPL_OPTIMIZED;
        t0 = fl_clock_now();
        if (!huge) fl_moreau_jean_step(g, u0, &mo, &L, rr, up, NULL, NULL);
        double step_opt = huge ? NAN : fl_clock_now() - t0;
        if (dense) {
            mo.impl = FL_IMPL_REFERENCE;
            t0 = fl_clock_now();
            fl_moreau_jean_step(g, u0, &mo, NULL, rr, up, NULL, NULL);
            step_ref = fl_clock_now() - t0;
        }
        speedup_last = nsgs_parallel_line(p, nc, bench_stream_threads(), nc >= 100000 ? 10 : reps);
        double bound = 8.0 * nnzW / bw;
        ratio_last = sweep_opt / bound;
        fprintf(csv, "%zu,%.0f,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g\n", nc, nnzW, t_solves,
                t_trail, step_ref, step_opt, sweep_ref, sweep_opt, bound, ratio_last);
        printf("nsgs: %5zu contacts nnz(W) %8.0f | W: solves %.3g s, trailing %.3g s | step ref "
               "%.3g s opt %.3g s | sweep ref %.3g s opt %.3g s (ref/opt %.1f) | bound %.3g s, "
               "opt/bound %.2f\n",
               nc, nnzW, t_solves, t_trail, step_ref, step_opt, sweep_ref, sweep_opt,
               sweep_ref / sweep_opt, bound, ratio_last);
        fflush(stdout);
        gsl_vector_free(rr);
        gsl_vector_free(u0);
        gsl_vector_free(up);
        fl_local_problem_free(p);
        fl_sparse_free_factor(&sctx, &L);
        fl_global_problem_free(g);
        fl_check_progress(ctx, "bench nsgs", (long)k + 1, (long)nsizes);
    }
    fclose(csv);
    gsl_rng_free(r);
    fl_sparse_finish(&sctx);
    printf("nsgs: optimized sweep time / bandwidth bound at %zu contacts = %.2f; coloured sweep "
           "speed-up on %d threads over 1 thread %.2f (target >= 1.6 on 2 cores at 1e5)\n",
           sizes[nsizes - 1], ratio_last, bench_stream_threads(), speedup_last);
    char png[4096], script[10000];
    if (fl_check_out_path(ctx, "bench_nsgs.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png size 900,600\nset output '%s'\nset datafile separator ','\n"
                 "set logscale xy\nset format y '%%g'\nset key top left noenhanced\nset xlabel 'contacts'\n"
                 "set ylabel 'seconds'\nset title 'NSGS (003 §3): per sweep and per step, "
                 "dense reference vs CHOLMOD twin'\n"
                 "plot '%s' using 1:7 with linespoints title 'sweep, reference', "
                 "'' using 1:8 with linespoints title 'sweep, optimized', "
                 "'' using 1:9 with lines dt 2 title 'bandwidth bound 8 nnz(W)/B', "
                 "'' using 1:5 with linespoints title 'step, reference', "
                 "'' using 1:6 with linespoints title 'step, optimized'\n",
                 png, path);
        if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "bench nsgs: no PNG (gnuplot failed)");
    }
    return ok ? 0 : -1;
}
