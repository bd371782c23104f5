/* suite.h — one run of a solver command in a benchmark suite
 * (`frictionlab bench suite`): the FCLIB protocol of xval.h ({in}, {out},
 * and here also {tol}), the wall time, the exit status, and our recheck of
 * the answer under the three normalisations of fl_suite.h.  The results
 * model (rows, verdicts, statistics, the files) is report/fl_suite.h.
 *
 * Library code: prints nothing, returns fl_status and fills fl_error.
 */
#ifndef FL_CHECKS_SUITE_H
#define FL_CHECKS_SUITE_H

#include <stddef.h>

#include "fl_problem.h"
#include "fl_status.h"
#include "fl_suite.h"

/* The three rechecked errors of r (length p->m), U = W r + q by us. */
fl_status fl_suite_recheck(const fl_local_problem *p, const double *r,
                           double err[FL_SUITE_NNORM], fl_error *err_out);

/* Replace {tol} in tmpl by the tolerance (%.3g), then {in} and {out} by the
 * quoted paths (fl_xval_command). */
fl_status fl_suite_command(const char *tmpl, double tol, const char *in, const char *out,
                           char *buf, size_t len, fl_error *err);

/* Run one solver command on p (already written to in_path as FCLIB) at tol
 * within limit seconds, the output of the command to out_path.log, and fill
 * row's measured fields (not solver/problem/set; row->note is allocated). */
fl_status fl_suite_run(const fl_local_problem *p, const char *tmpl, double tol, double limit,
                       const char *in_path, const char *out_path, fl_suite_row *row,
                       fl_error *err);

#endif
