/* fclib_siconos_nsgs.c — Siconos numerics' NSGS behind the FCLIB-in /
 * FCLIB-out interface of `frictionlab crosscheck --solver-cmd`, so the
 * peer is scored by the same harness as any researcher's solver:
 *
 *   fclib_siconos_nsgs IN.hdf5 OUT.hdf5 [--tol T] [--max-iter N]
 *   frictionlab crosscheck --family all \
 *       --solver-cmd "build/bench/fclib_siconos_nsgs {in} {out}"
 *
 * Reads the FCLIB local problem IN (our reader, fl_fclib.h), builds the
 * Siconos FrictionContactProblem (frictionContactProblem_new_with_data;
 * 3D: W as NM_SPARSE triplets, 2D: W in 2 x 2 sparse-block storage
 * (SBM_from_csparse), as fc2d_driver's NSGS wants), runs SICONOS_FRICTION_3D_NSGS / SICONOS_FRICTION_2D_NSGS
 * with its default local solvers at tolerance T (default 1e-8, Siconos's
 * own error measure) and at most N iterations (default 10000), and writes
 * IN's problem plus /solution (r from Siconos, u = W r + q recomputed).
 * Exit 0 when Siconos reports convergence (info 0), 1 otherwise (the last
 * iterate is written), 2 on a usage or file error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "SparseBlockMatrix.h"

#include "fl_fclib.h"
#include "fl_problem.h"
#include "fl_sparse.h"

static FrictionContactProblem *to_siconos(const fl_local_problem *p)
{
    int m = (int)p->m;
    double *q = malloc(p->m * sizeof *q), *mu = malloc(p->nc * sizeof *mu);
    if (!q || !mu) {
        free(q);
        free(mu);
        return NULL;
    }
    memcpy(q, p->q->data, p->m * sizeof *q);
    memcpy(mu, p->mu, p->nc * sizeof *mu);
    const cholmod_sparse *W = p->Ws;
    const int *Wp = W->p, *Wi = W->i;
    const double *Wx = W->x;
    NumericsMatrix *M = NM_create(NM_SPARSE, m, m);
    NM_triplet_alloc(M, (CS_INT)Wp[W->ncol]);
    for (size_t j = 0; j < W->ncol; j++)
        for (int k = Wp[j]; k < Wp[j + 1]; k++) NM_entry(M, Wi[k], (int)j, Wx[k]);
    if (p->dim == 2) {   /* fc2d's NSGS reads dense or sparse-block storage only */
        NumericsMatrix *B = NM_create(NM_SPARSE_BLOCK, m, m);
        int bad = SBM_from_csparse(2, NM_csc(M), B->matrix1) != 0;
        NM_free(M);   /* frees the matrix and its storage */
        if (bad) {
            NM_free(B);
            free(q);
            free(mu);
            return NULL;
        }
        M = B;
    }
    return frictionContactProblem_new_with_data(p->dim, (int)p->nc, M, q, mu);
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    double tol = 1e-8;
    int max_iter = 10000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc) tol = atof(argv[++i]);
        else if (strcmp(argv[i], "--max-iter") == 0 && i + 1 < argc) max_iter = atoi(argv[++i]);
        else if (!in) in = argv[i];
        else if (!out) out = argv[i];
        else in = NULL, i = argc;
    }
    if (!in || !out || !(tol > 0) || max_iter <= 0) {
        fprintf(stderr, "usage: fclib_siconos_nsgs IN.hdf5 OUT.hdf5 [--tol T] [--max-iter N]\n");
        return 2;
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_fclib_solution *sol = NULL;
    FrictionContactProblem *sp = NULL;
    int rc = 2;
    fl_status s = fl_sparse_start(&ctx, &err);
    if (s == FL_OK) s = fl_fclib_read_local(in, 0, &ctx, &p, &err);
    if (s == FL_OK) s = fl_fclib_solution_alloc(0, p->m, &sol, &err);
    if (s == FL_OK && p->nc == 0) {
        /* A 2D problem without contact made this wrapper abort inside
         * Siconos 4.4 (exit 134): the answer, r empty, is written here
         * without calling Siconos. */
        printf("siconos nsgs: 0 contacts: nothing to solve, r empty\n");
        s = fl_fclib_write_local(out, p, "Siconos NSGS", &err);
        if (s == FL_OK) s = fl_fclib_write_solution(out, sol, &err);
        rc = 0;
    } else if (s == FL_OK && !(sp = to_siconos(p))) {
        s = FL_FAIL(&err, FL_ENOMEM, "out of memory");
    }
    if (s == FL_OK && p->nc > 0) {
        SolverOptions *o = solver_options_create(p->dim == 2 ? SICONOS_FRICTION_2D_NSGS
                                                             : SICONOS_FRICTION_3D_NSGS);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        o->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
        int info = p->dim == 2 ? fc2d_driver(sp, sol->r, sol->u, o) : fc3d_driver(sp, sol->r, sol->u, o);
        printf("siconos nsgs: %zu contacts, dim %d: info %d, %d iterations, error %.3e\n", p->nc,
               p->dim, info, o->iparam[SICONOS_IPARAM_ITER_DONE], o->dparam[SICONOS_DPARAM_RESIDU]);
        rc = info == 0 ? 0 : 1;
        solver_options_delete(o);
        free(o);
        gsl_vector_view rv = gsl_vector_view_array(sol->r, p->m), uv = gsl_vector_view_array(sol->u, p->m);
        s = fl_local_problem_velocity(p, &rv.vector, &uv.vector, &err);   /* u = W r + q */
        if (s == FL_OK) s = fl_fclib_write_local(out, p, "Siconos NSGS", &err);
        if (s == FL_OK) s = fl_fclib_write_solution(out, sol, &err);
    }
    if (s != FL_OK) {
        fprintf(stderr, "fclib_siconos_nsgs: %s: %s\n", in, err.message);
        rc = 2;
    }
    if (sp) frictionContactProblem_free(sp);   /* asserts on NULL */
    fl_fclib_solution_free(sol);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
