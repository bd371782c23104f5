/* suite_loose_solver.c — an outside solver for tests/bench_suite.sh that
 * claims more than it delivers: it solves the FCLIB problem IN by our
 * Gauss-Seidel to a natural-map error of 1e-2 only (/||q||), writes the
 * answer to OUT and exits 0 (a claim of success) whatever the tolerance it
 * was asked for.  `bench suite` must not count its answers solved at 1e-4
 * where the recheck finds them above 1e-4.
 *   suite_loose_solver IN.hdf5 OUT.hdf5 */
#include <stdio.h>
#include <string.h>

#include "fl_fclib.h"
#include "fl_sparse.h"
#include "drivers/solve.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: suite_loose_solver IN.hdf5 OUT.hdf5\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_fclib_solution *sol = NULL;
    fl_status s = fl_sparse_start(&ctx, &err);
    if (s == FL_OK) s = fl_fclib_read_local(argv[1], 0, &ctx, &p, &err);
    if (s == FL_OK) s = fl_fclib_solution_alloc(0, p->m, &sol, &err);
    if (s == FL_OK && p->m > 0) {
        fl_solve_options o = fl_solve_options_default();
        o.solver = FL_SOLVER_GS;
        o.tol = 1e-2;
        o.impl = FL_IMPL_OPTIMIZED;
        fl_solve_result res;
        memset(&res, 0, sizeof res);
        gsl_vector_view rv = gsl_vector_view_array(sol->r, p->m);
        gsl_vector_view uv = gsl_vector_view_array(sol->u, p->m);
        s = fl_solve_local(p, &o, &rv.vector, &uv.vector, &res, &err);
        if (s > 0) s = FL_OK;   /* not converged: still claimed */
        printf("loose solver: error %.3e, claimed converged\n", res.residual);
    }
    if (s == FL_OK) s = fl_fclib_write_local(argv[2], p, "loose solver", &err);
    if (s == FL_OK) s = fl_fclib_write_solution(argv[2], sol, &err);
    if (s != FL_OK) fprintf(stderr, "suite_loose_solver: %s: %s\n", argv[1], err.message);
    fl_fclib_solution_free(sol);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return s == FL_OK ? 0 : 2;
}
