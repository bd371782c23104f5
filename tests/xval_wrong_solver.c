/* xval_wrong_solver.c — DELIBERATELY WRONG solvers for the tests of the
 * solver cross-validation (tests/meson.build: cli_xval_broken_solver,
 * cli_xval_stale_u).  Each solves the FCLIB local problem IN correctly with
 * the library's Gauss-Seidel, then writes a wrong answer to OUT:
 *
 *   flip-rt  the impulse with the WRONG SIGN OF ITS TANGENTIAL PART
 *            (r_T -> -r_T, as a solver that reverses the tangent basis
 *            would), and u = W r + q of that wrong r.  Invisible exactly
 *            where r_T = 0 (mu = 0, every contact open); everywhere else a
 *            sticking or sliding contact violates Coulomb's law.
 *   stale-u  the right r but a STALE u: the velocity before the impulse,
 *            u = q, as a solver that forgets to update its velocity after
 *            the last sweep would.  r alone passes every law measure; only
 *            the check that u = W r + q catches it (right where r = 0).
 *
 *   xval_wrong_solver flip-rt|stale-u IN.hdf5 OUT.hdf5    exit 0, or 2 on an error */
#include <stdio.h>
#include <string.h>

#include "fl_fclib.h"
#include "optimized/nsgs_sparse.h"

/* The wrong answer of `mode` from the right one (r, U = W r + q). */
static fl_status corrupt(const char *mode, const fl_local_problem *p, gsl_vector *r, gsl_vector *U, fl_error *err)
{
    if (strcmp(mode, "stale-u") == 0) {
        gsl_vector_memcpy(U, p->q);                                  /* THE BUG: u before the impulse */
        return FL_OK;
    }
    for (size_t i = 0; i < p->m; i++)
        if (i % (size_t)p->dim != 0) gsl_vector_set(r, i, -gsl_vector_get(r, i));   /* THE BUG */
    return fl_local_problem_velocity(p, r, U, err);
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "flip-rt") != 0 && strcmp(argv[1], "stale-u") != 0)) {
        fprintf(stderr, "usage: xval_wrong_solver flip-rt|stale-u IN.hdf5 OUT.hdf5\n");
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
    if (fl_sparse_start(&ctx, &err) == FL_OK && fl_fclib_read_local(argv[2], 0, &ctx, &p, &err) == FL_OK &&
        (r = gsl_vector_calloc(p->m)) && (U = gsl_vector_calloc(p->m)) &&
        fl_nsgs_solve_sparse(p, &opt, r, U, &res, &err) >= 0 && corrupt(argv[1], p, r, U, &err) == FL_OK &&
        fl_fclib_write_local(argv[3], p, argv[1], &err) == FL_OK &&
        fl_fclib_solution_alloc(0, p->m, &s, &err) == FL_OK) {
        if (p->m) {
            memcpy(s->r, r->data, p->m * sizeof(double));
            memcpy(s->u, U->data, p->m * sizeof(double));
        }
        if (fl_fclib_write_solution(argv[3], s, &err) == FL_OK) rc = 0;
    }
    if (rc != 0) fprintf(stderr, "xval_wrong_solver: %s: %s\n", argv[2], err.message);
    fl_fclib_solution_free(s);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
