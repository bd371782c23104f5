/* bench_admm.c — the ADMM twins (reference/admm.h, optimized/admm_sparse.h)
 * on one FCLIB local problem file, with its options on the command line:
 *     bench_admm FILE [--dense] [--tol T] [--time-limit S] [--max-iter N]
 *                [--rho R] [--no-adapt] [--no-accel] [--tau T] [--phi P]
 *                [--mu-scale C]
 *     bench_admm FILE --check SOLUTION.hdf5
 * prints one line "iterations .. factorizations .. restarts .. rho ..
 * error .. seconds .. status .." (error: the natural-map error / ||q|| of
 * the returned iterate).  The sparse twin unless --dense.  --mu-scale C
 * multiplies every mu by C >= 0 (C = 0: the frictionless problem, a convex
 * QP where ADMM's convergence is proved, proofs/admm.md).  --check prints
 * the error (/||q||, and Siconos 4.4's max-norm form) of the /solution r of
 * another file (an outside solver's answer to FILE) instead.  Exit 0, or 2
 * on an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frictionlab.h"

static const char *check_path;
static double mu_scale = 1.0;

/* The errors of the /solution r of check_path on p. */
static fl_status check(const fl_local_problem *p, gsl_vector *U, fl_error *err)
{
    fl_fclib_solution *sol = NULL;
    FL_TRY(fl_fclib_read_solution(check_path, &sol, err));
    fl_status s = FL_OK;
    if (!sol || sol->m != p->m) {
        s = FL_FAIL(err, FL_EDIM, "%s: no solution of length %zu", check_path, p->m);
    } else {
        gsl_vector_view rv = gsl_vector_view_array(sol->r, p->m);
        double e = 0, emax = 0;
        s = fl_residual_local(p, &rv.vector, U, FL_RESIDUAL_NORM_Q, &e, err);
        if (s == FL_OK) s = fl_residual_local(p, &rv.vector, U, FL_RESIDUAL_MAX_NORM, &emax, err);
        if (s == FL_OK) printf("error %.3e max_norm_error %.3e\n", e, emax);
    }
    fl_fclib_solution_free(sol);
    return s;
}

static int parse(int argc, char **argv, fl_admm_options *o, int *dense)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--dense")) *dense = 1;
        else if (!strcmp(a, "--no-adapt")) o->adapt = 0;
        else if (!strcmp(a, "--no-accel")) o->accelerate = 0;
        else if (!v) return -1;
        else if (!strcmp(a, "--check")) check_path = argv[++i];
        else if (!strcmp(a, "--mu-scale")) mu_scale = atof(argv[++i]);
        else if (!strcmp(a, "--tol")) o->tol = atof(argv[++i]);
        else if (!strcmp(a, "--time-limit")) o->time_limit = atof(argv[++i]);
        else if (!strcmp(a, "--max-iter")) o->max_iterations = atoi(argv[++i]);
        else if (!strcmp(a, "--rho")) o->rho = atof(argv[++i]);
        else if (!strcmp(a, "--tau")) o->balance_tau = atof(argv[++i]);
        else if (!strcmp(a, "--phi")) o->balance_phi = atof(argv[++i]);
        else return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    fl_admm_options o = fl_admm_options_default();
    o.tol = 1e-8;
    int dense = 0;
    if (argc < 2 || parse(argc, argv, &o, &dense) != 0) {
        fprintf(stderr, "usage: bench_admm FILE [--dense] [--tol T] [--time-limit S] "
                        "[--max-iter N] [--rho R] [--no-adapt] [--no-accel] [--tau T] [--phi P] "
                        "[--mu-scale C] | --check SOLUTION.hdf5\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    gsl_vector *r = NULL, *U = NULL;
    fl_admm_result res;
    memset(&res, 0, sizeof res);
    fl_status s = fl_sparse_start(&ctx, &err);
    if (s == FL_OK) s = fl_fclib_read_local(argv[1], dense, &ctx, &p, &err);
    if (s == FL_OK) {
        r = gsl_vector_alloc(p->m ? p->m : 1);
        U = gsl_vector_alloc(p->m ? p->m : 1);
        if (!r || !U) s = FL_ENOMEM;
    }
    for (size_t a = 0; s == FL_OK && a < p->nc; a++) p->mu[a] *= mu_scale;
    int checked = 0;
    if (s == FL_OK && check_path) {
        s = check(p, U, &err);
        checked = s == FL_OK;
    }
    if (s == FL_OK && !checked)
        s = dense ? fl_admm_solve(p, &o, r, U, &res, &err)
                  : fl_admm_solve_sparse(p, &o, r, U, &res, &err);
    int rc = 2;
    if (checked) {
        rc = 0;
    } else if (s >= 0) {
        printf("iterations %d factorizations %d restarts %d rho %.3e error %.3e seconds %.3f "
               "status %s\n", res.iterations, res.factorizations, res.restarts, res.rho,
               res.residual, res.seconds, fl_strerror(s));
        rc = 0;
    } else {
        fprintf(stderr, "bench_admm: %s: %s\n", argv[1], err.message);
    }
    if (r) gsl_vector_free(r);
    if (U) gsl_vector_free(U);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
