/* xval_broken_solver.c — a DELIBERATELY WRONG solver for the test of the
 * solver cross-validation (tests/xval_expect.sh): it solves the FCLIB
 * local problem IN correctly with the library's Gauss-Seidel, then writes
 * the impulse with the WRONG SIGN OF ITS TANGENTIAL PART (r_T -> -r_T, as
 * a solver that reverses the tangent basis would), and u = W r + q of that
 * wrong r.  The bug is invisible exactly where r_T = 0: frictionless
 * problems (mu = 0) and problems whose contacts are all open; everywhere
 * else a sticking or sliding contact makes the answer violate Coulomb's
 * law (the friction is turned against the sliding, or a stick impulse no
 * longer stops the contact).
 *   xval_broken_solver IN.hdf5 OUT.hdf5          exit 0, or 2 on a file error */
#include <stdio.h>
#include <string.h>

#include "fl_fclib.h"
#include "reference/nsgs.h"
#include "optimized/nsgs_sparse.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: xval_broken_solver IN.hdf5 OUT.hdf5\n");
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
        fl_nsgs_solve_sparse(p, &opt, r, U, &res, &err) >= 0) {
        for (size_t i = 0; i < p->m; i++)
            if (i % (size_t)p->dim != 0) gsl_vector_set(r, i, -gsl_vector_get(r, i));   /* THE BUG */
        if (fl_local_problem_velocity(p, r, U, &err) == FL_OK &&
            fl_fclib_write_local(argv[2], p, "broken solver", &err) == FL_OK &&
            fl_fclib_solution_alloc(0, p->m, &s, &err) == FL_OK) {
            memcpy(s->r, r->data, p->m * sizeof(double));
            memcpy(s->u, U->data, p->m * sizeof(double));
            if (fl_fclib_write_solution(argv[2], s, &err) == FL_OK) rc = 0;
        }
    }
    if (rc != 0) fprintf(stderr, "xval_broken_solver: %s: %s\n", argv[1], err.message);
    fl_fclib_solution_free(s);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
