/* fclib_zero_solver.c — a deliberately WRONG solver for the README's
 * `frictionlab crosscheck --solver-cmd` example (it shows what failures
 * look like):  fclib_zero_solver IN OUT  reads the FCLIB local problem IN
 * and writes it to OUT with the "solution" r = 0, u = q — wrong whenever
 * some contact should be closed (q_N < 0 somewhere).  Exit 0, or 2 on a
 * file error. */
#include <stdio.h>
#include <string.h>

#include "fl_fclib.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fclib_zero_solver IN.hdf5 OUT.hdf5\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_local_problem *p = NULL;
    fl_fclib_solution *s = NULL;
    int rc = 2;
    if (fl_fclib_read_local(argv[1], 1, NULL, &p, &err) == FL_OK &&
        fl_fclib_write_local(argv[2], p, "zero solver", &err) == FL_OK &&
        fl_fclib_solution_alloc(0, p->m, &s, &err) == FL_OK) {
        memcpy(s->u, p->q->data, p->m * sizeof(double));   /* r = 0: u = W 0 + q */
        if (fl_fclib_write_solution(argv[2], s, &err) == FL_OK) rc = 0;
    }
    if (rc != 0) fprintf(stderr, "fclib_zero_solver: %s: %s\n", err.file, err.message);
    fl_fclib_solution_free(s);
    fl_local_problem_free(p);
    return rc;
}
