/* suite.c — one run of a solver command in a benchmark suite, and the
 * recheck of its answer (suite.h); the model, verdicts and figures are
 * report/fl_suite.c. */
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "fl_fclib.h"
#include "fl_residual.h"
#include "xval.h"

/* the fl_residual_norm of each */
static const fl_residual_norm norm_kind[FL_SUITE_NNORM] = {
    FL_RESIDUAL_NORM_Q, FL_RESIDUAL_MAX_NORM, FL_RESIDUAL_FCLIB_MERIT};

/* ------------------------------------------------------------------ */
/* one run                                                             */
/* ------------------------------------------------------------------ */

fl_status fl_suite_recheck(const fl_local_problem *p, const double *r,
                           double err[FL_SUITE_NNORM], fl_error *err_out)
{
    if (!p || !r || !err) return FL_FAIL(err_out, FL_EINVAL, "suite recheck: NULL argument");
    gsl_vector *U = gsl_vector_alloc(p->m ? p->m : 1);
    if (!U) return FL_FAIL(err_out, FL_ENOMEM, "suite recheck: out of memory");
    fl_status st = FL_OK;
    if (p->m) {
        gsl_vector_const_view rv = gsl_vector_const_view_array(r, p->m);
        gsl_vector_view Uv = gsl_vector_subvector(U, 0, p->m);
        st = fl_local_problem_velocity(p, &rv.vector, &Uv.vector, err_out);
    }
    double nq = p->m ? gsl_blas_dnrm2(p->q) : 0.0;
    for (int k = 0; st == FL_OK && k < FL_SUITE_NNORM; k++)
        err[k] = fl_residual_natural_map(p->dim, p->nc, p->mu, r, U->data, nq, norm_kind[k]);
    gsl_vector_free(U);
    return st;
}

fl_status fl_suite_command(const char *tmpl, double tol, const char *in, const char *out,
                           char *buf, size_t len, fl_error *err)
{
    if (!tmpl || !buf) return FL_FAIL(err, FL_EINVAL, "suite command: NULL argument");
    char t[8192], num[32];
    snprintf(num, sizeof num, "%.3g", tol);
    size_t at = 0;
    while (*tmpl) {
        if (strncmp(tmpl, "{tol}", 5) == 0) {
            size_t n = strlen(num);
            if (at + n >= sizeof t) break;
            memcpy(t + at, num, n);
            at += n;
            tmpl += 5;
        } else {
            if (at + 1 >= sizeof t) break;
            t[at++] = *tmpl++;
        }
    }
    if (*tmpl) return FL_FAIL(err, FL_EINVAL, "suite command: longer than %zu bytes", sizeof t - 1);
    t[at] = '\0';
    return fl_xval_command(t, in, out, buf, len, err);
}

/* The last non-empty line of a log file into buf ("" if none). */
static void last_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        if (n && line[0] != '\0') snprintf(buf, len, "%s", line);
    }
    fclose(f);
}

fl_status fl_suite_run(const fl_local_problem *p, const char *tmpl, double tol, double limit,
                       const char *in_path, const char *out_path, fl_suite_row *row,
                       fl_error *err)
{
    if (!p || !tmpl || !in_path || !out_path || !row)
        return FL_FAIL(err, FL_EINVAL, "suite run: NULL argument");
    char cmd[16384], log[4096], note[1024] = "";
    row->dim = p->dim;
    row->nc = p->nc;
    row->tol = tol;
    row->exit_code = -1;
    row->timed_out = row->claimed = row->have_solution = row->solved = 0;
    for (int k = 0; k < FL_SUITE_NNORM; k++) row->err[k] = NAN;
    FL_TRY(fl_suite_command(tmpl, tol, in_path, out_path, cmd, sizeof cmd, err));
    snprintf(log, sizeof log, "%s.log", out_path);
    remove(out_path);
    fl_xval_run run;
    FL_TRY(fl_xval_spawn(cmd, limit, log, &run, err));
    row->seconds = run.seconds;
    row->exit_code = run.exit_code;
    row->timed_out = run.timed_out;
    row->claimed = !run.timed_out && run.exit_code == 0;
    last_line(log, note, sizeof note);
    if (!run.timed_out) {
        fl_error e2;
        fl_error_clear(&e2);
        fl_fclib_solution *sol = NULL;
        /* the solver's file is read first in a child process (io/fl_fclib.h) */
        if (fl_fclib_vet(out_path, NULL, FL_FCLIB_VET_SOLUTION, &e2) == FL_OK &&
            fl_fclib_read_solution(out_path, &sol, &e2) == FL_OK && sol->m == p->m &&
            fl_suite_recheck(p, sol->r, row->err, &e2) == FL_OK) {
            row->have_solution = 1;
        } else {
            char out_line[1024];
            snprintf(out_line, sizeof out_line, "%s", note);
            snprintf(note, sizeof note, "no solution read: %.500s%s%.400s",
                     sol && sol->m != p->m ? "/solution/r has the wrong size" : e2.message,
                     out_line[0] ? "; last output line: " : "", out_line);
        }
        fl_fclib_solution_free(sol);
    }
    free(row->note);
    row->note = strdup(note);
    remove(log);
    remove(out_path);
    return row->note ? FL_OK : FL_FAIL(err, FL_ENOMEM, "suite run: out of memory");
}
