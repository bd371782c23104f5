/* peer_siconos.c — frictionlab-peer-siconos: the solvers of Siconos
 * numerics (libsiconos-numerics) behind the FCLIB-in / FCLIB-out protocol
 * of `frictionlab crosscheck --solver-cmd` and `frictionlab bench suite`:
 *
 *   frictionlab-peer-siconos IN.hdf5 OUT.hdf5 --solver S [--tol T] [--max-iter N]
 *   frictionlab-peer-siconos --version
 *
 * S (Siconos's solver id, Friction_cst.h):
 *   nsgs    SICONOS_FRICTION_3D_NSGS; 2D: SICONOS_FRICTION_2D_NSGS
 *   nsn-ac  SICONOS_FRICTION_3D_NSN_AC  (semismooth Newton, Alart-Curnier)
 *   nsn-fb  SICONOS_FRICTION_3D_NSN_FB  (semismooth Newton, Fischer-Burmeister)
 *   prox    SICONOS_FRICTION_3D_PROX    (proximal point, NSN_AC inside)
 *   admm    SICONOS_FRICTION_3D_ADMM
 * Siconos 4.4 has only NSGS, CPG, Lemke and enumeration in 2D.  A 2D problem
 * given to nsn-ac, nsn-fb, prox or admm is lifted to 3D: contact a gets a
 * second tangent direction t2, decoupled (W_t2t2 = the mean diagonal of W,
 * no coupling, q_t2 = 0); a solution of the lifted problem with r_t2 = 0 is a
 * solution of the 2D one and conversely (the t2 velocity is W_t2t2 r_t2, so
 * r_t2 = 0 sticks with U_t2 = 0).  The line on stdout says "lifted to 3D".
 *
 * Reads IN with our FCLIB reader (fl_fclib.h), gives Siconos W as NM_SPARSE
 * (2D NSGS: 2 x 2 sparse-block storage, as fc2d_driver wants), the tolerance
 * T (default 1e-8, in Siconos's own error measure) and at most N iterations
 * (default 10000), and writes IN's problem plus /solution (r from Siconos,
 * u = W r + q recomputed).  Exit 0 when Siconos reports convergence (info
 * 0), 1 otherwise (the last iterate is written), 2 on a usage or file error. */
#include <limits.h>
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

#ifndef FL_SICONOS_VERSION
#define FL_SICONOS_VERSION "unknown"
#endif

typedef struct peer_solver {
    const char *name;
    int id3, id2;   /* Siconos ids in 3D and 2D (-1: lift 2D to 3D) */
} peer_solver;

static const peer_solver solvers[] = {
    {"nsgs", SICONOS_FRICTION_3D_NSGS, SICONOS_FRICTION_2D_NSGS},
    {"nsn-ac", SICONOS_FRICTION_3D_NSN_AC, -1},
    {"nsn-fb", SICONOS_FRICTION_3D_NSN_FB, -1},
    {"prox", SICONOS_FRICTION_3D_PROX, -1},
    {"admm", SICONOS_FRICTION_3D_ADMM, -1},
    {NULL, 0, 0}};

/* Siconos problem of dimension dim (p->dim, or 3 for a lifted 2D p). */
static FrictionContactProblem *to_siconos(const fl_local_problem *p, int dim)
{
    size_t m = (size_t)dim * p->nc, d0 = (size_t)p->dim;
    double *q = calloc(m, sizeof *q), *mu = malloc(p->nc * sizeof *mu);
    if (!q || !mu) {
        free(q);
        free(mu);
        return NULL;
    }
    const cholmod_sparse *W = p->Ws;
    const int *Wp = W->p, *Wi = W->i;
    const double *Wx = W->x;
    double dmean = 0;
    /* index of our row i in the Siconos vector (same, or skipping t2) */
#define MAP(i) (((i) / d0) * (size_t)dim + (i) % d0)
    for (size_t i = 0; i < p->m; i++) q[MAP(i)] = p->q->data[i];
    memcpy(mu, p->mu, p->nc * sizeof *mu);
    NumericsMatrix *M = NM_create(NM_SPARSE, (int)m, (int)m);
    NM_triplet_alloc(M, (CS_INT)Wp[W->ncol] + (CS_INT)p->nc);
    for (size_t j = 0; j < W->ncol; j++)
        for (int k = Wp[j]; k < Wp[j + 1]; k++) {
            NM_entry(M, (CS_INT)MAP((size_t)Wi[k]), (CS_INT)MAP(j), Wx[k]);
            if ((size_t)Wi[k] == j) dmean += Wx[k] / (double)p->m;
        }
    if (dim != p->dim)
        for (size_t a = 0; a < p->nc; a++)
            NM_entry(M, (CS_INT)(3 * a + 2), (CS_INT)(3 * a + 2), dmean > 0 ? dmean : 1.0);
#undef MAP
    if (dim == 2) {   /* fc2d's NSGS reads dense or sparse-block storage only */
        NumericsMatrix *B = NM_create(NM_SPARSE_BLOCK, (int)m, (int)m);
        int bad = SBM_from_csparse(2, NM_csc(M), B->matrix1) != 0;
        NM_free(M);
        if (bad) {
            NM_free(B);
            free(q);
            free(mu);
            return NULL;
        }
        M = B;
    }
    return frictionContactProblem_new_with_data(dim, (int)p->nc, M, q, mu);
}

/* Run solver s on p; r (length p->m) receives the answer.  Returns
 * Siconos's info, INT_MIN when out of memory. */
static int run_siconos(const peer_solver *s, const fl_local_problem *p, double tol, int max_iter,
                       double *r, int *lifted)
{
    int dim = p->dim == 2 && s->id2 < 0 ? 3 : p->dim;
    *lifted = dim != p->dim;
    FrictionContactProblem *sp = to_siconos(p, dim);
    if (!sp) return INT_MIN;
    size_t m = (size_t)dim * p->nc;
    double *rs = calloc(m, sizeof *rs), *us = calloc(m, sizeof *us);
    int info = INT_MIN;
    if (rs && us) {
        SolverOptions *o = solver_options_create(dim == 2 ? s->id2 : s->id3);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        o->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
        info = dim == 2 ? fc2d_driver(sp, rs, us, o) : fc3d_driver(sp, rs, us, o);
        printf("siconos %s: %zu contacts, dim %d%s: info %d, %d iterations, error %.3e\n",
               s->name, p->nc, p->dim, *lifted ? " (lifted to 3D)" : "", info,
               o->iparam[SICONOS_IPARAM_ITER_DONE], o->dparam[SICONOS_DPARAM_RESIDU]);
        solver_options_delete(o);
        free(o);
        for (size_t a = 0; a < p->nc; a++)
            for (int k = 0; k < p->dim; k++)
                r[a * (size_t)p->dim + (size_t)k] = rs[a * (size_t)dim + (size_t)k];
    }
    free(rs);
    free(us);
    frictionContactProblem_free(sp);
    return info;
}

static int usage(void)
{
    fprintf(stderr, "usage: frictionlab-peer-siconos IN.hdf5 OUT.hdf5 --solver "
                    "nsgs|nsn-ac|nsn-fb|prox|admm [--tol T] [--max-iter N]\n"
                    "       frictionlab-peer-siconos --version\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *sname = NULL;
    double tol = 1e-8;
    int max_iter = 10000, bad = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--version") == 0) {
            printf("frictionlab-peer-siconos: Siconos numerics %s\n", FL_SICONOS_VERSION);
            return 0;
        }
        if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc) tol = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--max-iter") == 0 && i + 1 < argc) max_iter = atoi(argv[++i]);
        else if (strcmp(argv[i], "--solver") == 0 && i + 1 < argc) sname = argv[++i];
        else if (argv[i][0] == '-') bad = 1;
        else if (!in) in = argv[i];
        else if (!out) out = argv[i];
        else bad = 1;
    }
    const peer_solver *s = NULL;
    for (const peer_solver *t = solvers; sname && t->name; t++)
        if (strcmp(t->name, sname) == 0) s = t;
    if (bad || !in || !out || !(tol > 0) || max_iter <= 0) return usage();
    if (!s) {
        fprintf(stderr, "frictionlab-peer-siconos: unknown solver '%s'\n", sname ? sname : "");
        return usage();
    }
    fl_error err;
    fl_error_clear(&err);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_local_problem *p = NULL;
    fl_fclib_solution *sol = NULL;
    int rc = 2;
    char producer[64];
    snprintf(producer, sizeof producer, "Siconos %s", s->name);
    fl_status st = fl_sparse_start(&ctx, &err);
    if (st == FL_OK) st = fl_fclib_read_local(in, 0, &ctx, &p, &err);
    if (st == FL_OK) st = fl_fclib_solution_alloc(0, p->m, &sol, &err);
    if (st == FL_OK) {
        if (p->nc == 0) {   /* Siconos 4.4 aborts on a 2D problem without contact */
            printf("siconos %s: 0 contacts: nothing to solve, r empty\n", s->name);
            rc = 0;
        } else {
            int lifted = 0, info = run_siconos(s, p, tol, max_iter, sol->r, &lifted);
            if (info == INT_MIN) st = FL_FAIL(&err, FL_ENOMEM, "out of memory");
            rc = info == 0 ? 0 : 1;
        }
    }
    if (st == FL_OK) {
        gsl_vector_view rv = gsl_vector_view_array(sol->r, p->m), uv = gsl_vector_view_array(sol->u, p->m);
        if (p->m) st = fl_local_problem_velocity(p, &rv.vector, &uv.vector, &err);
        if (st == FL_OK) st = fl_fclib_write_local(out, p, producer, &err);
        if (st == FL_OK) st = fl_fclib_write_solution(out, sol, &err);
    }
    if (st != FL_OK) {
        fprintf(stderr, "frictionlab-peer-siconos: %s: %s\n", in, err.message);
        rc = 2;
    }
    fl_fclib_solution_free(sol);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return rc;
}
