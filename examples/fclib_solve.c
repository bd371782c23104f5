/* fclib_solve.c — a program that uses the installed library: read an FCLIB
 * problem (local, or global reduced to local by W = H M^-1 H^T), solve it
 * by nonlinear Gauss–Seidel (J. J. Moreau, Facing the plurality of
 * solutions in nonsmooth mechanics, Nonsmooth/Nonconvex Mechanics with
 * Applications in Engineering, Thessaloniki, 2006, §3) and print the
 * natural-map error of the answer (the FCLIB / Siconos error,
 * core/fl_residual.h).
 *
 * Build against an installed frictionlab, with pkg-config only:
 *   cc -std=c11 fclib_solve.c $(pkg-config --cflags --libs frictionlab) -o fclib_solve
 *   ./fclib_solve problem.hdf5
 * Exit status: 0 when the solve converged, 1 when it did not or failed.
 */
#include <stdio.h>

#include <frictionlab/frictionlab.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.hdf5\n", argv[0]);
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_local_problem *p = NULL;
    const char *form = "local";
    fl_status s = fl_fclib_read_local(argv[1], 1, NULL, &p, &err);
    if (s != FL_OK) {
        fl_global_problem *g = NULL;
        fl_error gerr;
        fl_error_clear(&gerr);
        if (fl_fclib_read_global(argv[1], 1, NULL, &g, &gerr) == FL_OK) {
            form = "global";
            s = fl_delassus_dense(g, NULL, NULL, &p, &err);
            fl_global_problem_free(g);
        }
    }
    if (s != FL_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        return 1;
    }
    gsl_vector *r = gsl_vector_calloc(p->m);
    fl_nsgs_options opt = fl_nsgs_options_default();
    fl_nsgs_result res;
    s = fl_nsgs_solve(p, &opt, r, NULL, &res, &err);
    double e = 0;
    if (s >= 0) s = fl_residual_local(p, r, NULL, FL_RESIDUAL_NORM_Q, &e, &err) == FL_OK ? s : FL_EINVAL;
    if (s < 0) fprintf(stderr, "%s: %s\n", argv[1], err.message);
    else
        printf("%s: %s problem, %zu contacts in dimension %d: %s after %d sweeps, error %.3e\n",
               argv[1], form, p->nc, p->dim, s == FL_OK ? "converged" : fl_strerror(s),
               res.iterations, e);
    gsl_vector_free(r);
    fl_local_problem_free(p);
    return s == FL_OK ? 0 : 1;
}
