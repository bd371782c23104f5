/* bench_discs.c — `frictionlab bench discs`: Contact Dynamics steps of
 * rigid discs (reference/discs.c, optimized/discs_sparse.c; 003 §5) on
 * packings of N = 1e2 .. 1e5 discs on a 24 degree slope in a periodic band.
 * Reports the time per step (detection, Delassus, Gauss–Seidel) for the
 * reference (dense, all pairs; N <= 300) and the optimized implementation
 * (cell lists, CHOLMOD), and the time of one Gauss–Seidel sweep against the
 * memory-bandwidth bound: the bytes the sweep's data layout must move once
 * (fl_nsgs_colored_sweep_bytes: every stored value of W, 8 bytes, every
 * index of the layout, 4 per 2x2 block, the block-row starts, q and mu read
 * once, r read and written once) over B, the STREAM-like bandwidth of
 * bench/bench_stream.h measured in the same run (one thread for the serial
 * sweep; all threads for the coloured one).  The serial sweep without a
 * cache (CSC rows, nsgs_sparse.c) is printed against its own bound
 * (12 nnz + 24 m).  Sweep times are the best of single warm-started sweeps
 * over rounds interleaved with the bandwidth passes, after a warm-up
 * (bench_sweeps_measure).  The coloured parallel sweep (optimized/
 * nsgs_colored.c) is timed on one thread and on all cores: the speed-up over
 * one thread; 200 sweeps from zero (50 at 1e5 discs) by the serial and the
 * coloured sweeps with their setup cached, with their errors (1 and T
 * threads must agree exactly); and the steps with both.
 * Packings: discs of radius in [0.98, 1] on a triangular lattice of spacing
 * 2 (every neighbour within touch_tol, about 3 contacts per disc), rows of
 * sqrt(N) discs.  CSV + PNG in --out.  --quick: N = 1e2 and 1e3 only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/fl_check.h"
#include "drivers/fl_types.h"
#include "testkit/fclib_discpacking.h"
#include "fl_rng.h"
#include "drivers/discs_step.h"
#include "bench.h"
#include "optimized/nsgs_sparse.h"
#include "fl_scalar.h"
#include "fl_clock.h"
#include "bench_stream.h"

/* Mean time of nsteps steps of d (modified) with the coloured sweep on T threads. */
static double discs_steps_parallel(fl_discs *d, const fl_discs_step_options *opt, int nsteps,
                                   int T)
{
    fl_discs_work w;
    if (!d || fl_discs_work_init(&w, NULL) != FL_OK) return NAN;
    fl_discs_step_options o = *opt;
    o.nsgs.sparse.threads = T;
    double t = 0;
    for (int st = 0; st < nsteps; st++) {
        fl_discs_step_result res;
        if (fl_discs_step(d, &o, &w, &res, NULL) < 0) {
            t = NAN;
            break;
        }
        t += res.seconds / nsteps;
    }
    fl_discs_work_clear(&w);
    return t;
}

/* `sweeps` sweeps from zero on the step's problem with opt.sparse.threads =
 * threads and the cache c (set up by an earlier solve: the setup is reused,
 * as in a time stepper), wall time; res gets the error; r the result. */
static double discs_solve(const fl_local_problem *p, int threads, fl_nsgs_colored_cache *c,
                          int sweeps, gsl_vector *r, fl_nsgs_result *res)
{
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = 1e-300;
    o.max_sweeps = sweeps;
    o.sparse.threads = threads;
    o.sparse.cache = c;
    gsl_vector_set_zero(r);
    double t = fl_clock_now();
    fl_nsgs_solve_sparse(p, &o, r, NULL, res, NULL);
    return fl_clock_now() - t;
}

/* The sweeps (bench_sweeps_measure) and K-sweep solves on the step's local
 * problem p (optimized); printed lines and CSV columns.  *ratio_serial: the
 * cached serial sweep (the steps' sweep) over its bound; *speedup: coloured
 * sweep on 1 thread over T threads. */
static void discs_parallel(const fl_local_problem *p, size_t N, int T, size_t nnz, FILE *csv,
                           double *ratio_serial, double *speedup)
{
    gsl_vector *r = gsl_vector_calloc(p->m), *r2 = gsl_vector_calloc(p->m);
    bench_sweeps b;
    bench_sweeps_measure(p, T, N >= 100000 ? 20 : N >= 10000 ? 30 : 40, &b);
    const double csc_bytes = 12.0 * (double)nnz + 24.0 * (double)p->m;
    const double floor_bytes = 8.0 * (double)nnz + 24.0 * (double)p->m;
    *ratio_serial = b.serial / (b.bytes_serial / b.bw1);
    *speedup = b.col1 / b.colT;
    printf("discs: N = %6zu sweep, best of rounds interleaved with the bandwidth (%.2f GB/s on 1 "
           "thread, %.2f on %d): serial, cached %s layout %.3g s = %.2f x its bound (%.3g MB per "
           "sweep; %.2f x the values-only floor 8 nnz + 24 m), serial CSC (no cache) %.3g s = "
           "%.2f x its bound 12 nnz + 24 m; coloured 1 thread %.3g s = %.2f x bound, %d threads "
           "%.3g s = %.2f x the %d-thread bound; sweep speed-up over 1 thread %.2f (%s)\n",
           N, b.bw1 / 1e9, b.bwT / 1e9, T, b.blocked ? "2x2-block" : "scalar", b.serial,
           *ratio_serial, b.bytes_serial / 1e6, b.serial / (floor_bytes / b.bw1), b.csc,
           b.csc / (csc_bytes / b.bw1), b.col1, b.col1 / (b.bytes_col / b.bw1), T, b.colT,
           b.colT / (b.bytes_col / b.bwT), T, *speedup, bench_stream_binding());
    int sweeps = N >= 100000 ? 50 : 200;
    fl_nsgs_result rs, r1, rT;
    fl_nsgs_colored_cache cs, c1, cT;
    fl_nsgs_colored_cache_init(&cs);
    fl_nsgs_colored_cache_init(&c1);
    fl_nsgs_colored_cache_init(&cT);
    double ts0 = discs_solve(p, 0, &cs, sweeps, r, &rs);   /* set up, then reused */
    double t10 = discs_solve(p, 1, &c1, sweeps, r2, &r1);
    double tT0 = discs_solve(p, T, &cT, sweeps, r2, &rT);
    double ts = INFINITY, t1 = INFINITY, tT = INFINITY;
    for (int k = 0; k < 3; k++) {   /* best of 3, interleaved */
        ts = fmin(ts, discs_solve(p, 0, &cs, sweeps, r, &rs));
        t1 = fmin(t1, discs_solve(p, 1, &c1, sweeps, r2, &r1));
        tT = fmin(tT, discs_solve(p, T, &cT, sweeps, r2, &rT));
    }
    printf("discs: N = %6zu %d sweeps from zero, setup cached (first solve with the setup: "
           "serial %.3g s, 1 thread %.3g s, %d threads %.3g s): serial (natural order) %.3g s, "
           "error %.3g; coloured 1 thread %.3g s, error %.3g; %d threads %.3g s, error %.3g%s; "
           "speed-up over 1 thread %.2f, over serial %.2f\n",
           N, sweeps, ts0, t10, T, tT0, ts, rs.residual, t1, r1.residual, T, tT, rT.residual,
           r1.residual == rT.residual ? " (the same)" : " (DIFFERS)", t1 / tT, ts / tT);
    fprintf(csv, ",%.6g,%.4g,%.6g,%.6g,%.4g,%.4g,%.6g,%.4g,%.6g,%.4g,%.6g,%.4g,%.4g,%.6g,%.4g",
            b.serial, *ratio_serial, b.col1, b.colT, b.colT / (b.bytes_col / b.bwT), *speedup, ts,
            rs.residual, t1, r1.residual, tT, rT.residual, t1 / tT, b.csc,
            b.csc / (csc_bytes / b.bw1));
    fl_nsgs_colored_cache_clear(&cs);
    fl_nsgs_colored_cache_clear(&c1);
    fl_nsgs_colored_cache_clear(&cT);
    gsl_vector_free(r);
    gsl_vector_free(r2);
}

int fl_bench_discs(fl_check_ctx *ctx)
{
    const size_t sizes[] = {100, 300, 1000, 10000, 100000};
    size_t nsizes = ctx->quick ? 3 : sizeof sizes / sizeof sizes[0];
    char path[4096];
    if (fl_check_out_path(ctx, "bench_discs.csv", path, sizeof path) != 0) return -1;
    FILE *csv = fopen(path, "w");
    if (!csv) return -1;
    const int T = bench_stream_threads();
    double bw = bench_stream_bandwidth(1, 8), bwT = bench_stream_bandwidth(T, 8);
    printf("discs: memory bandwidth %.2f GB/s on 1 thread, %.2f GB/s on %d threads (STREAM-like "
           "copy and read of 64 MB arrays, best of 8; bench/bench_stream.h)\n", bw / 1e9,
           bwT / 1e9, T);
    printf("discs: bandwidth bound of a sweep = the bytes its layout must move once / bandwidth: "
           "every stored value (8), every index (4 per 2x2 block, or per entry), row starts (4), "
           "q and mu read, r read and written (doc/parallel.md)\n");
    fprintf(csv, "N,contacts,impl,step_s,local_s,first_local_s,solve_s,sweeps,sweep_s,nnz_W,"
                 "bound_s,sweep_over_bound,step_par_s,step_speedup,sweep_serial_s,"
                 "serial_over_bound,sweep_col1_s,sweep_colT_s,colT_over_boundT,sweep_speedup,"
                 "solveK_serial_s,solveK_serial_error,solveK_col1_s,solveK_col1_error,"
                 "solveK_colT_s,solveK_colT_error,solveK_speedup,sweep_csc_s,csc_over_bound\n");
    double worst = 0, speedup_last = NAN, sweep_speedup = NAN;
    gsl_rng *rng = fl_rng_alloc(ctx->seed ? ctx->seed : 1);
    int rc = 0;
    for (size_t k = 0; k < nsizes && rc == 0; k++) {
        for (int impl = 0; impl < 2; impl++) {
            size_t N = sizes[k];
            if (impl == 0 && N > 300) continue;   /* dense W of 2 kappa ~ 6N rows */
            fl_discs *d = fl_discpacking_lattice(rng, N);
            fl_discs_work work;
            if (!d || fl_discs_work_init(&work, NULL) != FL_OK) {
                fl_discs_free(d);
                rc = -1;
                break;
            }
            fl_discs_step_options o = fl_discs_step_options_default();
            o.h = 1e-3;
            o.impl = impl ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
            o.nsgs.tol = 1e-300;       /* a fixed number of sweeps */
            o.nsgs.max_sweeps = 20;
            /* the sweep alone, on the step's local problem */
            fl_disc_contact *c = NULL;
            size_t nc = 0;
            fl_local_problem *p = NULL;
            double t0 = fl_clock_now();
            fl_status s = fl_discs_local(d, &o, &work, &c, &nc, &p, NULL);
            double t_local = fl_clock_now() - t0;
            double sweep = NAN, bound = NAN;
            size_t nnz = 0;
            if (s == FL_OK && p) {
                gsl_vector *r = gsl_vector_calloc(p->m), *U = gsl_vector_calloc(p->m);
                fl_nsgs_result nr;
                fl_nsgs_types[impl].solve(p, &o.nsgs, r, U, &nr, NULL);
                sweep = nr.sweep_seconds / (nr.iterations > 0 ? nr.iterations : 1);
                nnz = impl ? (size_t)cholmod_nnz(p->Ws, &work.ctx.cm) : p->m * p->m;
                bound = (12.0 * (double)nnz + 24.0 * (double)p->m) / bw;
                gsl_vector_free(r);
                gsl_vector_free(U);
            }
            char extra[1024] = "";
            if (impl && s == FL_OK && p) {
                FILE *mem = fmemopen(extra, sizeof extra - 1, "w");
                double ratio = NAN, sp = NAN;
                discs_parallel(p, N, T, nnz, mem ? mem : csv, &ratio, &sp);
                if (mem) fclose(mem);
                if (N >= 1000) worst = fmax(worst, ratio);
                if (N == 100000) sweep_speedup = sp;
            }
            if (p && p->Ws) fl_sparse_free(&work.ctx, &p->Ws);
            fl_local_problem_free(p);
            free(c);
            /* full steps (warm start after the first) */
            int nsteps = N >= 100000 ? 2 : 3;
            fl_discs *d0 = NULL;
            if (impl && fl_discs_copy(d, &d0, NULL) != FL_OK) d0 = NULL;
            /* tdet: detection + assembly + Delassus of a step; tdel: the same, first step */
            double tstep = 0, tdet = 0, tdel = 0, tsol = 0;
            int sweeps = 0;
            size_t contacts = 0;
            for (int st = 0; st < nsteps && s == FL_OK; st++) {
                fl_discs_step_result res;
                s = fl_discs_step(d, &o, &work, &res, NULL);
                if (s < 0) break;
                s = FL_OK;
                tstep += res.seconds / nsteps;
                tdet += res.detect_seconds / nsteps;
                tsol += res.solve_seconds / nsteps;
                sweeps = res.iterations;
                contacts = res.ncontacts;
            }
            tdel = t_local;   /* detection + Delassus of the first step */
            /* the same steps with the coloured sweep on every core (optimized) */
            double tpar = impl && s == FL_OK ? discs_steps_parallel(d0, &o, nsteps, T) : NAN;
            if (s != FL_OK) rc = -1;
            fprintf(csv, "%zu,%zu,%s,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%zu,%.6g,%.4g,%.6g,%.4g%s\n", N,
                    contacts, impl ? "optimized" : "reference", tstep, tdet, tdel, tsol, sweeps,
                    sweep, nnz, bound, sweep / bound, tpar, tstep / tpar, extra);
            if (impl && N == 100000) speedup_last = tstep / tpar;
            printf("discs: N = %6zu %-9s %6zu contacts: step %.4f s (detect+Delassus %.4f, "
                   "GS %.4f), sweep %.3g s = %.1f x the bound 12 nnz + 24 m (no cache)\n",
                   N, impl ? "optimized" : "reference", contacts, tstep, tdet, tsol, sweep,
                   sweep / bound);
            if (impl)
                printf("discs: N = %6zu steps with the coloured sweep on %d threads %.4f s: "
                       "speed-up %.2f over the serial steps\n", N, T, tpar, tstep / tpar);
            fflush(stdout);
            fl_discs_work_clear(&work);
            fl_discs_free(d);
            fl_discs_free(d0);
        }
    }
    fclose(csv);
    gsl_rng_free(rng);
    printf("discs: worst serial sweep / bandwidth bound over N = 1e3..%s: %.2f (target <= 1.5); "
           "at 1e5 discs on %d threads: coloured sweep speed-up over 1 thread %.2f (target >= "
           "1.6), steps speed-up over the serial steps %.2f\n",
           ctx->quick ? "1e3" : "1e5", worst, T, sweep_speedup, speedup_last);
    char png[4096], script[12000];
    if (rc == 0 && fl_check_out_path(ctx, "bench_discs.png", png, sizeof png) == 0) {
        snprintf(script, sizeof script,
                 "set terminal png size 1000,600\nset output '%s'\nset datafile separator ','\n"
                 "set logscale xy\nset xlabel 'discs N'\nset ylabel 'seconds'\nset key left top\n"
                 "set title 'Contact Dynamics of discs (003 §5): time per step and per "
                 "Gauss-Seidel sweep' noenhanced\n"
                 "plot '%s' using (strcol(3) eq 'reference' ? $1 : 1/0):4 every ::1 with linespoints "
                 "title 'step, reference', '' using (strcol(3) eq 'optimized' ? $1 : 1/0):4 every ::1 "
                 "with linespoints title 'step, optimized', '' using (strcol(3) eq 'optimized' ? "
                 "$1 : 1/0):9 every ::1 with linespoints title 'sweep, optimized', '' using "
                 "(strcol(3) eq 'optimized' ? $1 : 1/0):11 every ::1 with lines dt 2 title "
                 "'bandwidth bound of a sweep'\n",
                 png, path);
        if (fl_check_plot(ctx, script) != 0) fl_check_message(ctx, "discs: no PNG (gnuplot failed)");
    }
    return rc;
}
