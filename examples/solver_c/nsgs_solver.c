/* nsgs_solver.c — an example solver for `frictionlab crosscheck
 * --solver-cmd`, written to be copied: it reads an FCLIB local problem,
 * solves it with the library's nonlinear Gauss-Seidel (003 §3: M. Jean and
 * J.J. Moreau's contact-by-contact review; reference/nsgs.h, sparse twin)
 * and writes the problem and its FCLIB solution (/solution/r, u).
 *
 *   nsgs_solver IN.hdf5 OUT.hdf5 [--tol T] [--max-sweeps N]
 *
 * Exit 0 converged (natural-map error /||q|| <= T, default 1e-8), 1 not
 * converged (the last iterate is written), 2 usage or file error (the
 * message names the file and the field).  Replace the call to
 * fl_nsgs_solve_sparse by your own solver to cross-validate it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fl_fclib.h"
#include "fl_problem.h"
#include "fl_sparse.h"
#include "reference/nsgs.h"
#include "optimized/nsgs_sparse.h"

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    fl_nsgs_options opt = fl_nsgs_options_default();
    opt.tol = 1e-8;
    opt.max_sweeps = 10000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc) opt.tol = atof(argv[++i]);
        else if (strcmp(argv[i], "--max-sweeps") == 0 && i + 1 < argc) opt.max_sweeps = atoi(argv[++i]);
        else if (!in) in = argv[i];
        else if (!out) out = argv[i];
        else in = NULL, i = argc;
    }
    if (!in || !out) {
        fprintf(stderr, "usage: nsgs_solver IN.hdf5 OUT.hdf5 [--tol T] [--max-sweeps N]\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_fclib_solution *sol = NULL;
    gsl_vector *r = NULL, *U = NULL;
    fl_nsgs_result res;
    int rc = 2;
    fl_status s = fl_sparse_start(&ctx, &err);
    if (s == FL_OK) s = fl_fclib_read_local(in, 0, &ctx, &p, &err);   /* sparse W */
    if (s == FL_OK) {
        r = gsl_vector_calloc(p->m);
        U = gsl_vector_calloc(p->m);
        if (!r || !U) s = FL_FAIL(&err, FL_ENOMEM, "out of memory");
    }
    if (s == FL_OK) s = fl_nsgs_solve_sparse(p, &opt, r, U, &res, &err);   /* your solver here */
    if (s >= 0) {
        printf("nsgs: %zu contacts, dim %d: error %.3e after %d sweeps\n", p->nc, p->dim,
               res.residual, res.iterations);
        rc = s == FL_OK ? 0 : 1;
        s = fl_fclib_write_local(out, p, "nsgs_solver example", &err);
        if (s == FL_OK) s = fl_fclib_solution_alloc(0, p->m, &sol, &err);
        if (s == FL_OK) {
            memcpy(sol->r, r->data, p->m * sizeof(double));
            memcpy(sol->u, U->data, p->m * sizeof(double));
            s = fl_fclib_write_solution(out, sol, &err);
        }
    }
    if (s < 0) {
        fprintf(stderr, "nsgs_solver: %s: %s\n", in, err.message);
        rc = 2;
    }
    fl_fclib_solution_free(sol);
    gsl_vector_free(r);
    gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
