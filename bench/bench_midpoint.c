/* bench_midpoint.c — `frictionlab bench midpoint`: time per step of the
 * midpoint scheme of 002 (20)-(23) on the square block of 002 §7 (Table 1
 * material, partial mass redistribution, foundation at 20 m/s, start from
 * rest with the top compression; both implementations from the same state), dense reference (reference/midpoint.c: dense
 * Cholesky of (4/dt^2) M_r + A, dense Delassus) against the CHOLMOD twin
 * (optimized/midpoint_sparse.c), for meshes of about 10^2 to 10^5 free
 * degrees of freedom.  Set-up (assembly, redistribution, factorisation,
 * Delassus) is timed separately from the steps.  The dense reference stops
 * at about 10^4 dofs (its n x n matrices take 0.8 GB each there and 80 GB
 * at 10^5); --quick stops it at 10^3 and the sparse run at 10^4.  Times are
 * process CPU seconds (CLOCK_PROCESS_CPUTIME_ID), not wall time.  Prints
 * the ratio at each size; CSV and PNG in --out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks/fl_check.h"
#include "bench.h"
#include "reference/midpoint.h"
#include "optimized/fe2d_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "models/fl_model_square_block.h"

typedef struct bench_row {
    size_t nx, n, nc;
    double ref_setup, ref_step, opt_setup, opt_step;
    int ref_steps, opt_steps;
    double gs_sweeps;
} bench_row;

static const double BENCH_DT = 4e-6;

/* CPU seconds of the process (all threads): the machine is shared, so wall
 * time would measure the neighbours. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The block of data/002/square_block_002.json with nx x nx cells. */
static int block_002(fl_check_ctx *ctx, size_t nx, fl_midpoint_block_params *bp)
{
    fl_model_square_block m;
    fl_error e;
    if (fl_model_square_block_load_data(ctx->data_dir, &m, &e) != FL_OK) {
        fl_check_message(ctx, "bench midpoint: %s", e.message);
        return -1;
    }
    *bp = m.block;
    bp->nx = bp->ny = nx;
    return 0;
}

static int bench_dense(size_t nx, bench_row *row, fl_check_ctx *ctx)
{
    fl_midpoint_block_params bp;
    if (block_002(ctx, nx, &bp) != 0) return -1;
    double t0 = cpu_now();
    fl_midpoint_block *b;
    fl_error e;
    if (fl_midpoint_block_alloc(&bp, &b, &e)) {
        fl_check_message(ctx, "bench midpoint (dense, nx=%zu): %s", nx, e.message);
        return -1;
    }
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = BENCH_DT;
    o.tol = 1e-10;
    fl_midpoint *mp;
    fl_midpoint_state *st;
    if (fl_midpoint_alloc(&b->prob, &o, &mp, &e) || fl_midpoint_state_alloc(b->prob.n, b->prob.nc, &st, &e)) {
        fl_check_message(ctx, "bench midpoint (dense, nx=%zu): %s", nx, e.message);
        fl_midpoint_block_free(b);
        return -1;
    }
    row->ref_setup = cpu_now() - t0;
    int steps = 0;
    double t1 = cpu_now();
    while (steps < 3 || (cpu_now() - t1 < 1.0 && steps < 200)) {
        fl_midpoint_step(mp, st, NULL, NULL);
        steps++;
        fl_check_progress(ctx, "dense steps", steps, 200);
    }
    fl_check_progress(ctx, "dense steps", 200, 200);
    row->ref_step = (cpu_now() - t1) / steps;
    row->ref_steps = steps;
    fl_midpoint_state_free(st);
    fl_midpoint_free(mp);
    fl_midpoint_block_free(b);
    return 0;
}

static int bench_sparse(size_t nx, bench_row *row, fl_check_ctx *ctx)
{
    fl_midpoint_block_params bp;
    if (block_002(ctx, nx, &bp) != 0) return -1;
    double t0 = cpu_now();
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    if (fl_sparse_start(&sctx, NULL)) return -1;
    fl_midpoint_block_sparse *b;
    fl_error e;
    int rc = -1;
    if (fl_midpoint_block_alloc_sparse(&sctx, &bp, 0, &b, &e)) {
        fl_check_message(ctx, "bench midpoint (sparse, nx=%zu): %s", nx, e.message);
        fl_sparse_finish(&sctx);
        return -1;
    }
    row->n = b->prob.n;
    row->nc = b->prob.nc;
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = BENCH_DT;
    o.tol = 1e-10;
    fl_midpoint_sparse *mp = NULL;
    fl_midpoint_state *st = NULL;
    if (fl_midpoint_alloc_sparse(&b->prob, &o, &mp, &e) || fl_midpoint_state_alloc(b->prob.n, b->prob.nc, &st, &e)) {
        fl_check_message(ctx, "bench midpoint (sparse, nx=%zu): %s", nx, e.message);
        goto done;
    }
    row->opt_setup = cpu_now() - t0;
    int steps = 0;
    double sweeps = 0;
    double t1 = cpu_now();
    while (steps < 5 || (cpu_now() - t1 < 1.0 && steps < 2000)) {
        fl_midpoint_result r;
        fl_midpoint_step_sparse(mp, st, &r, NULL);
        sweeps += r.iterations;
        steps++;
    }
    row->opt_step = (cpu_now() - t1) / steps;
    row->opt_steps = steps;
    row->gs_sweeps = sweeps / steps;
    (void)ctx;
    rc = 0;
done:
    fl_midpoint_state_free(st);
    fl_midpoint_free_sparse(mp);
    fl_midpoint_block_free_sparse(b);
    fl_sparse_finish(&sctx);
    return rc;
}

int fl_bench_midpoint(fl_check_ctx *ctx)
{
    /* free dofs n = 2 nx (nx + 1) - 0 (top row fixed): nx = 7, 22, 70, 223 give
     * about 1.1e2, 1.0e3, 1.0e4, 1.0e5 */
    const size_t nxs[4] = {7, 22, 70, 223};
    size_t dense_max = ctx->quick ? 22 : 70, sparse_max = ctx->quick ? 70 : 223;
    bench_row rows[4];
    memset(rows, 0, sizeof rows);
    int nrows = 0, rc = 0;
    for (int k = 0; k < 4 && nxs[k] <= sparse_max; k++) {
        bench_row *row = &rows[nrows++];
        row->nx = nxs[k];
        if (bench_sparse(nxs[k], row, ctx)) rc = -1;
        if (nxs[k] <= dense_max && bench_dense(nxs[k], row, ctx)) rc = -1;
        if (row->ref_step > 0)
            printf("midpoint n=%zu nc=%zu: dense %.3g s/step (setup %.3g s), CHOLMOD %.3g s/step (setup %.3g s, "
                   "%.1f GS sweeps/step): ratio %.1f\n", row->n, row->nc, row->ref_step, row->ref_setup,
                   row->opt_step, row->opt_setup, row->gs_sweeps, row->ref_step / row->opt_step);
        else
            printf("midpoint n=%zu nc=%zu: dense not run (above %zu dofs), CHOLMOD %.3g s/step (setup %.3g s, "
                   "%.1f GS sweeps/step)\n", row->n, row->nc, 2 * dense_max * (dense_max + 1), row->opt_step,
                   row->opt_setup, row->gs_sweeps);
        fflush(stdout);
    }
    char csv[4096], png[4096];
    if (fl_check_out_path(ctx, "bench_midpoint.csv", csv, sizeof csv) == 0) {
        FILE *f = fopen(csv, "w");
        if (f) {
            fprintf(f, "n,nc,ref_s_per_step,ref_setup_s,opt_s_per_step,opt_setup_s,gs_sweeps_per_step,ratio\n");
            for (int k = 0; k < nrows; k++)
                fprintf(f, "%zu,%zu,%.6g,%.6g,%.6g,%.6g,%.2f,%.4g\n", rows[k].n, rows[k].nc, rows[k].ref_step,
                        rows[k].ref_setup, rows[k].opt_step, rows[k].opt_setup, rows[k].gs_sweeps,
                        rows[k].ref_step > 0 ? rows[k].ref_step / rows[k].opt_step : NAN);
            fclose(f);
            if (fl_check_out_path(ctx, "bench_midpoint.png", png, sizeof png) == 0) {
                char script[9000];
                snprintf(script, sizeof script,
                         "set terminal png noenhanced size 640,480\nset output '%s'\nset datafile separator ','\n"
                         "set logscale xy\nset key top left\nset xlabel 'free degrees of freedom'\n"
                         "set ylabel 'CPU seconds per step'\nset title 'midpoint scheme (002), square block, dt = 4e-6 s'\n"
                         "plot '%s' every ::1 using 1:($3 > 0 ? $3 : 1/0) with linespoints title 'dense reference', "
                         "'' every ::1 using 1:5 with linespoints title 'CHOLMOD'\n", png, csv);
                fl_check_plot(ctx, script);
            }
        }
    }
    return rc;
}
