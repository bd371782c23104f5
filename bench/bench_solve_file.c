/* bench_solve_file.c — the C side of bench/bench_python.py: the wall time
 * of one solve of a local problem file called from C, as a C user calls
 * it (the problem read once, the CHOLMOD context started once):
 *     bench_solve_file FILE REPEATS [gs|newton|auto]
 * prints "seconds <wall> cpu <cpu> iterations <n> error <e>": the least
 * wall time and the least CPU time of the process (CLOCK_PROCESS_CPUTIME_ID:
 * all its threads, BLAS ones included) of one fl_solve_local over REPEATS
 * calls (optimized twins, tol 1e-8, zero start): the least, because other
 * processes on a shared machine only ever add time.  Exit 0, or 2 on an
 * error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frictionlab.h"
#include "drivers/solve.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int reps = argc >= 3 ? atoi(argv[2]) : 0;
    if (argc < 3 || argc > 4 || reps < 1) {
        fprintf(stderr, "usage: bench_solve_file FILE REPEATS [gs|newton|auto]\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_solve_options o = fl_solve_options_default();
    double wall = 1e300, cpu = 1e300;
    gsl_vector *r = NULL, *U = NULL;
    fl_solve_result res;
    memset(&res, 0, sizeof res);
    fl_status s = fl_sparse_start(&ctx, &err);
    if (s == FL_OK && argc == 4) s = fl_solve_parse_solver(argv[3], &o.solver, &err);
    if (s == FL_OK) s = fl_fclib_read_local(argv[1], 0, &ctx, &p, &err);
    if (s == FL_OK) {
        r = gsl_vector_alloc(p->m ? p->m : 1);
        U = gsl_vector_alloc(p->m ? p->m : 1);
        if (!r || !U) s = FL_ENOMEM;
    }
    for (int k = 0; s >= 0 && k < reps; k++) {
        double t0 = fl_clock_now(), c0 = cpu_now();
        s = fl_solve_local(p, &o, r, U, &res, &err);
        double c1 = cpu_now(), t1 = fl_clock_now();
        if (t1 - t0 < wall) wall = t1 - t0;
        if (c1 - c0 < cpu) cpu = c1 - c0;
    }
    int rc = 2;
    if (s >= 0) {
        printf("seconds %.9g cpu %.9g iterations %d error %.6e\n", wall, cpu,
               res.gs_sweeps + res.newton_steps, res.residual_norm_q);
        rc = 0;
    } else {
        fprintf(stderr, "bench_solve_file: %s: %s\n", argv[1], err.message);
    }
    if (r) gsl_vector_free(r);
    if (U) gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
