/* xval_stale_u_solver.c — a DELIBERATELY WRONG solver for the test of the
 * solver cross-validation (tests/meson.build, cli_xval_stale_u): it solves
 * the FCLIB local problem IN correctly with the library's Gauss-Seidel and
 * writes that right r, but a STALE u: the velocity before the impulse,
 * u = q (W 0 + q), as a solver that forgets to update its velocity after
 * the last sweep would.  r alone passes every law measure; only the check
 * that u = W r + q catches it.  Where r = 0 (every contact open) u = q is
 * the right velocity and the answer is right.
 *   xval_stale_u_solver IN.hdf5 OUT.hdf5          exit 0, or 2 on a file error */
#include <stdio.h>
#include <string.h>

#include "fl_fclib.h"
#include "optimized/nsgs_sparse.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: xval_stale_u_solver IN.hdf5 OUT.hdf5\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_fclib_solution *s = NULL;
    gsl_vector *r = NULL, *U = NULL;
    int rc = 2;
    fl_nsgs_options opt = fl_nsgs_options_default();
    opt.tol = 1e-10;
    opt.max_sweeps = 20000;
    fl_nsgs_result res;
    if (fl_sparse_start(&ctx, &err) == FL_OK && fl_fclib_read_local(argv[1], 0, &ctx, &p, &err) == FL_OK &&
        (r = gsl_vector_calloc(p->m)) && (U = gsl_vector_calloc(p->m)) &&
        fl_nsgs_solve_sparse(p, &opt, r, U, &res, &err) >= 0 &&
        fl_fclib_write_local(argv[2], p, "stale-u solver", &err) == FL_OK &&
        fl_fclib_solution_alloc(0, p->m, &s, &err) == FL_OK) {
        if (p->m) {
            memcpy(s->r, r->data, p->m * sizeof(double));
            memcpy(s->u, p->q->data, p->m * sizeof(double));   /* THE BUG: u before the impulse */
        }
        if (fl_fclib_write_solution(argv[2], s, &err) == FL_OK) rc = 0;
    }
    if (rc != 0) fprintf(stderr, "xval_stale_u_solver: %s: %s\n", argv[1], err.message);
    fl_fclib_solution_free(s);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
