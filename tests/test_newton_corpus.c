/* test_newton_corpus.c — the library's solvers on the real problems of
 * tests/data/siconos/ (written by Siconos and LMGC90): wherever Siconos 4.4
 * (NSGS or its Alart–Curnier Newton NSN) converges at 1e-8, our `auto`
 * dispatcher (drivers/solve.h, optimized twins) must reach 1e-8 too, the
 * error (/ max(||r||, ||U||, ||q||), what Siconos 4.4 reports) recomputed
 * here from the returned r.  Siconos's outcome per file is the peer's own
 * (the corpus README table); the files are read by Siconos's reader
 * (frictionContact_new_from_filename, an independent reader: ours are
 * tested in test_fl_siconos_text.c) or, for FCLIB HDF5, by ours.
 * Two files are documented misses of this round (README, Solvers):
 * BoxesStack1 (Siconos NSN converges in 1,419 iterations, its NSGS stops at
 * 2.0e-5) and Capsules-i122-1617 (NSN converges in 4,338 iterations, NSGS
 * stops at 1.3e-8); there ours must do at least as well as Siconos's NSGS. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "FrictionContactProblem.h"
#include "NumericsMatrix.h"
#include "CSparseMatrix_internal.h"

#include "fl_fclib.h"
#include "fl_residual.h"
#include "drivers/solve.h"

static fl_sparse_ctx ctx;
static void setup(void) { cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK); }
static void teardown(void) { fl_sparse_finish(&ctx); }

static void corpus_path(char *buf, size_t len, const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    snprintf(buf, len, "%s/tests/data/siconos/%s", root ? root : ".", name);
}

/* Siconos text file -> local problem with sparse W (Siconos's reader). */
static fl_local_problem *read_siconos(const char *name)
{
    char path[1024];
    corpus_path(path, sizeof path, name);
    FrictionContactProblem *sp = frictionContact_new_from_filename(path);
    cr_assert(sp, "Siconos cannot read %s", path);
    size_t nc = (size_t)sp->numberOfContacts, m = (size_t)sp->dimension * nc;
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(nc, sp->dimension, 0, &p, NULL), FL_OK);
    CSparseMatrix *T = NM_triplet(sp->M);
    size_t nz = (size_t)T->nz;
    int *ri = malloc((nz + 1) * sizeof *ri), *ci = malloc((nz + 1) * sizeof *ci);
    for (size_t k = 0; k < nz; k++) {
        ri[k] = (int)T->i[k];
        ci[k] = (int)T->p[k];
    }
    cr_assert_eq(fl_sparse_from_triplet(&ctx, m, m, nz, ri, ci, T->x, 0, &p->Ws, NULL), FL_OK);
    free(ri);
    free(ci);
    p->ctx = &ctx;
    for (size_t i = 0; i < m; i++) gsl_vector_set(p->q, i, sp->q[i]);
    for (size_t a = 0; a < nc; a++) p->mu[a] = sp->mu[a];
    frictionContactProblem_free(sp);
    return p;
}

/* auto, optimized, tol 1e-8 on the MAX_NORM error; the recomputed error. */
static double solve_auto(const fl_local_problem *p, fl_solve_result *res)
{
    fl_solve_options o = fl_solve_options_default();
    o.tol = 1e-8;
    o.norm = FL_RESIDUAL_MAX_NORM;
    gsl_vector *r = gsl_vector_alloc(p->m), *U = gsl_vector_alloc(p->m);
    fl_error err;
    fl_status s = fl_solve_local(p, &o, r, U, res, &err);
    cr_assert_geq(s, 0, "%s", err.message);
    double e = fl_residual_natural_map(p->dim, p->nc, p->mu, r->data, U->data,
                                       gsl_blas_dnrm2(p->q), FL_RESIDUAL_MAX_NORM);
    gsl_vector_free(r);
    gsl_vector_free(U);
    return e;
}

Test(newton_corpus, converges_where_siconos_converges, .init = setup, .fini = teardown,
     .timeout = 300)
{
    static const char *files[] = {
        "Capsules-i101-404.dat",  "Confeti-ex03-Fc3D-SBM.dat", "Confeti-ex13-4contact-Fc3D-SBM.dat",
        "FC2D_SliderCrankLagrangian00000.dat", "FC3D_Example1.dat", "FC3D_Example1_SBM.dat",
        "FrictionContact3D_1c.dat", "FrictionContact3D_RR_1c.dat", "FrictionContactProblem00031.dat",
        "FrictionContactProblem00071.dat", "FrictionContactProblem00237.dat", "NESpheres_10_1.dat",
        "OneObject-i1028-138.hdf5.dat", "Rover1039.dat", "Rover11035.dat", "Rover4396.dat",
        "fc2d_granularflowonwall_00667_00000.dat"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        fl_local_problem *p = read_siconos(files[k]);
        fl_solve_result res;
        double e = solve_auto(p, &res);
        cr_assert(e <= 1e-8, "%s: error %.3g after %d sweeps + %d Newton steps (%s, %s)", files[k],
                  e, res.gs_sweeps, res.newton_steps, fl_solve_solver_name(res.finished_by),
                  fl_solve_stop_name(res.stop));
        fl_local_problem_free(p);
    }
    /* FCLIB local problem, our reader */
    char path[1024];
    corpus_path(path, sizeof path, "Capsules-i125-1213.hdf5");
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_fclib_read_local(path, 0, &ctx, &p, &err), FL_OK, "%s", err.message);
    fl_solve_result res;
    double e = solve_auto(p, &res);
    cr_assert(e <= 1e-8, "Capsules-i125-1213.hdf5: error %.3g", e);
    fl_local_problem_free(p);
}

Test(newton_corpus, documented_misses_at_least_as_good_as_siconos_nsgs, .init = setup,
     .fini = teardown, .timeout = 300)
{
    /* Siconos NSGS at 10,000 iterations: 2.0e-5 (BoxesStack1), 1.3e-8
     * (Capsules-i122-1617), corpus README. */
    static const char *files[] = {"BoxesStack1-i100000-32.hdf5.dat", "Capsules-i122-1617.dat"};
    static const double nsgs_err[] = {2.0e-5, 1.3e-8};
    for (int k = 0; k < 2; k++) {
        fl_local_problem *p = read_siconos(files[k]);
        fl_solve_result res;
        double e = solve_auto(p, &res);
        cr_assert(e <= nsgs_err[k], "%s: error %.3g > Siconos NSGS %.2g", files[k], e, nsgs_err[k]);
        fl_local_problem_free(p);
    }
}
