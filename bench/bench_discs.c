/* bench_discs.c — `frictionlab bench discs`: Contact Dynamics steps of
 * rigid discs (reference/discs.c, optimized/discs_sparse.c; 003 §5) on
 * packings of N = 1e2 .. 1e5 discs on a 24 degree slope in a periodic band.
 * Reports the time per step (detection, Delassus, Gauss–Seidel) for the
 * reference (dense, all pairs; N <= 300) and the optimized implementation
 * (cell lists, CHOLMOD), and the time of one Gauss–Seidel sweep against the
 * memory-bandwidth bound: a sweep streams W once (12 bytes per stored entry:
 * value + row index) plus r, U, q, so its time is at least
 *   (12 nnz(W) + 3 * 8 m) / B,
 * with B measured here by a memcpy loop (read + write counted).
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

/* bytes per second moved by memcpy of a 64 MB block (best of 4, 2 x size per copy) */
static double discs_bandwidth(void)
{
    size_t n = (size_t)64 << 20;
    unsigned char *src = malloc(n), *dst = malloc(n);
    double best = INFINITY;
    if (src && dst) {
        memset(src, 3, n);
        memset(dst, 0, n);
        for (int rep = 0; rep < 4; rep++) {
            double t = fl_clock_now();
            memcpy(dst, src, n);
            t = fl_clock_now() - t;
            if (t < best) best = t;
            src[rep] ^= dst[n - 1 - (size_t)rep];
        }
    }
    free(src);
    free(dst);
    return isfinite(best) && best > 0 ? 2.0 * (double)n / best : NAN;
}

int fl_bench_discs(fl_check_ctx *ctx)
{
    const size_t sizes[] = {100, 300, 1000, 10000, 100000};
    size_t nsizes = ctx->quick ? 3 : sizeof sizes / sizeof sizes[0];
    char path[4096];
    if (fl_check_out_path(ctx, "bench_discs.csv", path, sizeof path) != 0) return -1;
    FILE *csv = fopen(path, "w");
    if (!csv) return -1;
    double bw = discs_bandwidth();
    printf("discs: memory bandwidth %.2f GB/s (64 MB memcpy loop, read + write)\n", bw / 1e9);
    fprintf(csv, "N,contacts,impl,step_s,local_s,first_local_s,solve_s,sweeps,sweep_s,nnz_W,"
                 "bound_s,sweep_over_bound\n");
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
            if (p && p->Ws) fl_sparse_free(&work.ctx, &p->Ws);
            fl_local_problem_free(p);
            free(c);
            /* full steps (warm start after the first) */
            int nsteps = N >= 100000 ? 2 : 3;
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
            if (s != FL_OK) rc = -1;
            fprintf(csv, "%zu,%zu,%s,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%zu,%.6g,%.4g\n", N, contacts,
                    impl ? "optimized" : "reference", tstep, tdet, tdel, tsol, sweeps, sweep, nnz,
                    bound, sweep / bound);
            printf("discs: N = %6zu %-9s %6zu contacts: step %.4f s (detect+Delassus %.4f, "
                   "GS %.4f), sweep %.3g s = %.1f x bandwidth bound\n",
                   N, impl ? "optimized" : "reference", contacts, tstep, tdet, tsol, sweep,
                   sweep / bound);
            fflush(stdout);
            fl_discs_work_clear(&work);
            fl_discs_free(d);
        }
    }
    fclose(csv);
    gsl_rng_free(rng);
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
