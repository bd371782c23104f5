/* test_siconos_fc.c — cross-validation of our nonlinear Gauss–Seidel (003
 * §3; reference/nsgs.c and optimized/nsgs_sparse.c) and of our FCLIB and
 * Siconos-text files against Siconos numerics, a peer implementation:
 * fc2d_driver / fc3d_driver with SICONOS_FRICTION_2D_NSGS /
 * SICONOS_FRICTION_3D_NSGS, fc2d_compute_error / fc3d_compute_error, and
 * frictionContact_newFromFile.  Siconos is linked into this test only.
 *
 * Problems: random local problems of growing size (fl_global_problem_random
 * + the dense Delassus operator, the generator of the nsgs crosscheck) and
 * disc-like granular problems (testkit/fclib_disclike.h), 2D FE blocks (an
 * elastic P1 layer pressed and sheared on a rigid foundation,
 * testkit/fclib_feblock.h),
 * written to FCLIB and read back, and the Siconos-format fixtures of
 * tests/data/siconos.  Checks: both solvers reach the tolerance by both
 * error functions (ours, core/fl_residual.h, and Siconos's on the same
 * vectors: the two definitions must agree to rounding), and in 2D, where
 * reference/enumerate.h decides that the solution is unique, both solutions
 * coincide with it.  In 3D uniqueness is not decided: residuals only.
 *
 * Lemke against Siconos's lexicographic Lemke on our Stewart LCPs is
 * tests/test_siconos_lemke.c (not repeated here).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <gsl/gsl_blas.h>

#include "FrictionContactProblem.h"
#include "drivers/fl_types.h"
#include "GlobalFrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "fc2d_compute_error.h"
#include "fc3d_compute_error.h"

#include "fl_fclib.h"
#include "testkit/fl_random.h"
#include "fl_residual.h"
#include "fl_rng.h"
#include "fl_siconos_text.h"
#include "reference/enumerate.h"
#include "reference/nsgs.h"
#include "reference/delassus.h"
#include "testkit/fclib_disclike.h"
#include "testkit/fclib_feblock.h"
#include "fl_dense.h"
#include "optimized/nsgs_sparse.h"
#include "corpus_path.h"
#include <gsl/gsl_linalg.h>

/* A Siconos problem holding a copy of p (dense, column-major). */
static FrictionContactProblem *to_siconos(const fl_local_problem *p)
{
    int m = (int)p->m;
    double *Md = malloc((size_t)m * (size_t)m * sizeof *Md);
    double *q = malloc((size_t)m * sizeof *q), *mu = malloc(p->nc * sizeof *mu);
    cr_assert(Md && q && mu);
    for (int i = 0; i < m; i++) {
        q[i] = gsl_vector_get(p->q, (size_t)i);
        for (int j = 0; j < m; j++) Md[i + j * m] = gsl_matrix_get(p->W, (size_t)i, (size_t)j);
    }
    memcpy(mu, p->mu, p->nc * sizeof *mu);
    NumericsMatrix *M = NM_create_from_data(NM_DENSE, m, m, Md);
    return frictionContactProblem_new_with_data(p->dim, (int)p->nc, M, q, mu);
}

/* Siconos's error function on r (U recomputed by Siconos), norm ||q||
 * (its solvers' choice). */
static double siconos_error(FrictionContactProblem *sp, const fl_local_problem *p, double *r)
{
    double *w = calloc(p->m, sizeof *w), e = NAN;
    double nq = gsl_blas_dnrm2(p->q);
    if (p->dim == 2) {
        fc2d_compute_error(sp, r, w, 1e-300, nq, &e);
    } else {
        SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
        fc3d_compute_error(sp, r, w, 1e-300, o, nq, &e);
        solver_options_delete(o);
        free(o);
    }
    free(w);
    return e;
}

/* Siconos NSGS to tol: returns the driver's info; r, U filled. */
static int siconos_nsgs(FrictionContactProblem *sp, int dim, double tol, double *r, double *U,
                        int *iters)
{
    SolverOptions *o = solver_options_create(dim == 2 ? SICONOS_FRICTION_2D_NSGS
                                                      : SICONOS_FRICTION_3D_NSGS);
    o->dparam[SICONOS_DPARAM_TOL] = tol;
    o->iparam[SICONOS_IPARAM_MAX_ITER] = 20000;
    int info = dim == 2 ? fc2d_driver(sp, r, U, o) : fc3d_driver(sp, r, U, o);
    *iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(o);
    free(o);
    return info;
}

typedef struct xv_stats {
    long problems, unique2d, enum_skipped;
    long nonconv_ours, nonconv_sic;   /* NSGS is not guaranteed to converge */
    double our_err, sic_err, def_diff, dist;
} xv_stats;

/* Solve p by our reference and optimized NSGS and by Siconos; check. */
static void cross_validate(const fl_local_problem *p, double tol, xv_stats *st, const char *what)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem q = *p;
    q.ctx = &ctx;
    q.Ws = NULL;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &q.Ws, NULL), FL_OK);
    size_t m = p->m;
    gsl_vector *r[2], *U = gsl_vector_alloc(m);
    double *rs = calloc(m, sizeof *rs), *Us = calloc(m, sizeof *Us);
    FrictionContactProblem *sp = to_siconos(p);
    fl_nsgs_options opt = fl_nsgs_options_default();
    opt.tol = tol;
    opt.max_sweeps = 20000;
    int conv[3] = {1, 1, 1};
    for (int impl = 0; impl < 2; impl++) {
        r[impl] = gsl_vector_calloc(m);
        fl_nsgs_result res;
        const fl_local_problem *pk = impl == FL_IMPL_OPTIMIZED ? &q : p;   /* W sparse, dense */
        fl_status s = fl_nsgs_types[impl].solve(pk, &opt, r[impl], U, &res, NULL);
        cr_assert_geq(s, 0, "%s: our nsgs failed (%d), %s", what, s, fl_test_seed_note());
        if (s != FL_OK) {   /* counted; the caller bounds the share */
            conv[impl] = 0;
            st->nonconv_ours++;
            continue;
        }
        double e_ours = 0;
        fl_residual_local(p, r[impl], NULL, FL_RESIDUAL_NORM_Q, &e_ours, NULL);
        double e_sic = siconos_error(sp, p, r[impl]->data);   /* max-norm scaled: <= ours */
        cr_assert_leq(e_ours, tol, "%s: %s", what, fl_test_seed_note());
        cr_assert_leq(e_sic, 10 * tol, "%s: Siconos's error of our solution %g, %s", what, e_sic,
                      fl_test_seed_note());
        st->our_err = fmax(st->our_err, e_ours);
    }
    /* the two error definitions agree, on a point far from the solution
     * (near it both are rounding-dominated) */
    {
        gsl_vector *x = gsl_vector_alloc(m);
        for (size_t i = 0; i < m; i++)
            gsl_vector_set(x, i, gsl_vector_get(r[0], i) * (1 + 0.3 * sin((double)i + 1)) + 0.1);
        /* the installed Siconos (4.4) fc2d_compute_error and
         * fc3d_compute_error both divide by max(||r||, ||U||, norm), norm =
         * the ||q|| passed (found on W = I, q = 0: every error is 1 with
         * norm 1): our FL_RESIDUAL_MAX_NORM (core/fl_residual.h) */
        double e_ours = 0;
        fl_residual_local(p, x, NULL, FL_RESIDUAL_MAX_NORM, &e_ours, NULL);
        double e_sic = siconos_error(sp, p, x->data);
        double d = fabs(e_ours - e_sic) / e_ours;
        cr_assert_leq(d, 1e-10, "%s (dim %d): error definitions differ: ours %.17g, Siconos %.17g, %s",
                      what, p->dim, e_ours, e_sic, fl_test_seed_note());
        st->def_diff = fmax(st->def_diff, d);
        gsl_vector_free(x);
    }
    int iters = 0;
    int info = siconos_nsgs(sp, p->dim, tol, rs, Us, &iters);
    if (info != 0) {
        conv[2] = 0;
        st->nonconv_sic++;
    }
    gsl_vector_view rsv = gsl_vector_view_array(rs, m);
    double e_ours = 0;
    fl_residual_local(p, &rsv.vector, NULL, FL_RESIDUAL_NORM_Q, &e_ours, NULL);
    if (conv[2]) {
        cr_assert_leq(e_ours, 10 * tol, "%s: our error of Siconos's solution %g, %s", what,
                      e_ours, fl_test_seed_note());
        st->sic_err = fmax(st->sic_err, e_ours);
    }
    if (p->dim == 2 && p->nc <= 6) {
        fl_enumerate_result *en = NULL;
        cr_assert_eq(fl_enumerate_solutions(p, 1e-10, &en, NULL), FL_OK);
        if (en->nsol == 1 && en->singular == 0) {
            st->unique2d++;
            for (int k = 0; k < 3; k++) {
                if (!conv[k]) continue;
                const double *x = k < 2 ? r[k]->data : rs;
                double d = 0, nr = 0;
                for (size_t i = 0; i < m; i++) {
                    d = fmax(d, fabs(x[i] - en->sol[i]));
                    nr = fmax(nr, fabs(en->sol[i]));
                }
                d /= 1 + nr;
                st->dist = fmax(st->dist, d);
                cr_assert_leq(d, 1e-6, "%s: solver %d differs from the unique solution by %g, %s",
                              what, k, d, fl_test_seed_note());
            }
        } else {
            st->enum_skipped++;
        }
        fl_enumerate_result_free(en);
    }
    st->problems++;
    frictionContactProblem_free(sp);
    free(rs);
    free(Us);
    gsl_vector_free(r[0]);
    gsl_vector_free(r[1]);
    gsl_vector_free(U);
    fl_sparse_free(&ctx, &q.Ws);
    fl_sparse_finish(&ctx);
}

/* n >= 3 m degrees of freedom for nc > 4: W = H M^-1 H^T then has a
 * dominant block diagonal and Gauss–Seidel converges (with n ~ m and many
 * contacts, plain NSGS may cycle — ours and Siconos's alike). */
static fl_local_problem *random_problem(gsl_rng *rng, int dim, size_t nc)
{
    size_t n = (size_t)dim * nc * (nc > 4 ? 3 : 1) + gsl_rng_uniform_int(rng, 3);
    double mu_hi = gsl_rng_uniform(rng) < 0.5 ? 1.0 : 10.0;
    fl_global_problem *g = NULL;
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_global_problem_random(rng, n, nc, dim, 0.01, mu_hi, &g, NULL), FL_OK);
    cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, NULL), FL_OK);
    fl_global_problem_free(g);
    return p;
}

Test(siconos_fc, random_problems_through_fclib_files)
{
    gsl_rng *rng = fl_test_rng(31);
    char dir[] = "/tmp/fl_siconos_fc_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/p.hdf5", dir);
    xv_stats st;
    memset(&st, 0, sizeof st);
    const size_t sizes[] = {1, 2, 3, 4, 5, 6, 10, 20};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
            for (int rep = 0; rep < 3; rep++) {
                fl_local_problem *p = random_problem(rng, dim, sizes[k]), *b = NULL;
                fl_error err;
                cr_assert_eq(fl_fclib_write_local(path, p, "siconos cross-validation", &err), FL_OK,
                             "%s", err.message);
                cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &b, &err), FL_OK, "%s",
                             err.message);
                char what[64];
                snprintf(what, sizeof what, "dim %d nc %zu rep %d", dim, sizes[k], rep);
                cross_validate(b, 1e-10, &st, what);
                fl_local_problem_free(b);
                fl_local_problem_free(p);
            }
    cr_assert_eq(st.problems, 48);
    /* NSGS (ours and Siconos's) may cycle: at most 1 run in 8 may stop on
     * the sweep limit (each is reported), the rest must meet the tolerance */
    cr_assert_leq(st.nonconv_ours + st.nonconv_sic, 3 * 48 / 8,
                  "%ld of our runs and %ld Siconos runs did not converge, %s", st.nonconv_ours,
                  st.nonconv_sic, fl_test_seed_note());
    /* the 2D uniqueness check must have been exercised */
    cr_assert_geq(st.unique2d, 5, "only %ld unique 2D problems, %s", st.unique2d,
                  fl_test_seed_note());
    /* the natural-map error definitions agree to rounding */
    cr_assert_leq(st.def_diff, 1e-10, "our vs Siconos error definition: rel. diff %g, %s",
                  st.def_diff, fl_test_seed_note());
    fprintf(stderr,
            "siconos_fc: %ld problems, max error ours %.2e, Siconos %.2e; %ld unique 2D "
            "(max dist %.2e), %ld 2D not decided; error definitions rel. diff %.2e; "
            "sweep limit reached: ours %ld, Siconos %ld\n",
            st.problems, st.our_err, st.sic_err, st.unique2d, st.dist, st.enum_skipped,
            st.def_diff, st.nonconv_ours, st.nonconv_sic);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    gsl_rng_free(rng);
}

Test(siconos_fc, siconos_text_files_read_alike_and_solve_alike)
{
    const char *names[] = {"two_contacts_3d.dat", "two_contacts_2d.dat"};
    xv_stats st;
    memset(&st, 0, sizeof st);
    for (int k = 0; k < 2; k++) {
        char path[512];
        corpus_path(path, sizeof path, names[k]);
        fl_local_problem *p = NULL;
        fl_error err;
        cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
        /* Siconos's own reader gives the same data */
        FILE *f = fopen(path, "r");
        cr_assert_not_null(f);
        FrictionContactProblem *sp = frictionContact_newFromFile(f);
        fclose(f);
        cr_assert_not_null(sp);
        cr_assert_eq(sp->dimension, p->dim);
        cr_assert_eq((size_t)sp->numberOfContacts, p->nc);
        cr_assert_eq(sp->M->storageType, NM_DENSE);
        int m = (int)p->m;
        for (int i = 0; i < m; i++) {
            cr_assert_eq(sp->q[i], gsl_vector_get(p->q, (size_t)i));
            for (int j = 0; j < m; j++)
                cr_assert_eq(sp->M->matrix0[i + j * m],
                             gsl_matrix_get(p->W, (size_t)i, (size_t)j), "%s W(%d,%d)", names[k],
                             i, j);
        }
        for (size_t a = 0; a < p->nc; a++) cr_assert_eq(sp->mu[a], p->mu[a]);
        frictionContactProblem_free(sp);
        cross_validate(p, 1e-12, &st, names[k]);
        fl_local_problem_free(p);
    }
    cr_assert_eq(st.unique2d, 1, "the 2D fixture has a unique solution (enumeration)");
    cr_assert_eq(st.nonconv_ours + st.nonconv_sic, 0, "every solver converges on the fixtures");
}

/* Siconos's frictionContact_printInFile output of a random problem is read
 * by our reader exactly (the writer is the peer's). */
Test(siconos_fc, files_written_by_siconos)
{
    gsl_rng *rng = fl_test_rng(32);
    char path[] = "/tmp/fl_siconos_dat_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = random_problem(rng, dim, 4), *b = NULL;
        FrictionContactProblem *sp = to_siconos(p);
        FILE *f = fopen(path, "w");
        cr_assert_eq(frictionContact_printInFile(sp, f), 0);
        fclose(f);
        frictionContactProblem_free(sp);
        fl_error err;
        /* Siconos prints 25 significant digits: exact for doubles */
        fl_status s = fl_siconos_text_read(path, 1, NULL, &b, &err);
        cr_assert_eq(s, FL_OK, "%s", err.message);
        for (size_t i = 0; i < p->m; i++) {
            cr_assert_eq(gsl_vector_get(b->q, i), gsl_vector_get(p->q, i), "%s", fl_test_seed_note());
            for (size_t j = 0; j < p->m; j++)
                cr_assert_eq(gsl_matrix_get(b->W, i, j), gsl_matrix_get(p->W, i, j), "%s",
                             fl_test_seed_note());
        }
        fl_local_problem_free(b);
        fl_local_problem_free(p);
    }
    remove(path);
    gsl_rng_free(rng);
}

/* Our Siconos text, local, dense and sparse (CSparse triplets) storage, read
 * back by Siconos's own reader (frictionContact_new_from_filename): the same
 * W, q, mu to the last bit. */
Test(siconos_fc, siconos_reads_our_local_text)
{
    static const char *files[] = {"Rover1039.dat", "Confeti-ex03-Fc3D-SBM.dat",
                                  "fc2d_granularflowonwall_00667_00000.dat"};
    char path[1024], out[128];
    /* Siconos picks its reader by the extension (check_hdf5_file): ".dat" */
    snprintf(out, sizeof out, "/tmp/fl_siconos_out_%d.dat", (int)getpid());
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        corpus_path(path, sizeof path, files[k]);
        for (int sparse = 0; sparse < 2; sparse++) {
            fl_local_problem *p = NULL;
            fl_error err;
            cr_assert_eq(fl_siconos_text_read(path, 1, &ctx, &p, &err), FL_OK, "%s", err.message);
            gsl_matrix *W = p->W;
            if (sparse) p->W = NULL;   /* written from Ws: storage 2, triplets */
            cr_assert_eq(fl_siconos_text_write(out, p, &err), FL_OK, "%s", err.message);
            p->W = W;
            FrictionContactProblem *sp = frictionContact_new_from_filename(out);
            cr_assert_not_null(sp);
            cr_assert_eq(sp->numberOfContacts, (int)p->nc);
            cr_assert_eq(sp->dimension, p->dim);
            cr_assert_eq(sp->M->storageType, sparse ? NM_SPARSE : NM_DENSE);
            for (size_t i = 0; i < p->m; i++) {
                cr_assert_eq(sp->q[i], gsl_vector_get(p->q, i), "%s q[%zu]", files[k], i);
                for (size_t j = 0; j < p->m; j++)
                    cr_assert_eq(NM_get_value(sp->M, (int)i, (int)j), gsl_matrix_get(p->W, i, j),
                                 "%s W(%zu,%zu)", files[k], i, j);
            }
            for (size_t a = 0; a < p->nc; a++) cr_assert_eq(sp->mu[a], p->mu[a]);
            frictionContactProblem_free(sp);
            fl_local_problem_free(p);
        }
    }
    fl_sparse_finish(&ctx);
    remove(out);
}

/* Global problems: our Siconos text read back by
 * globalFrictionContact_new_from_filename (M, Siconos's H = our H^T, q = f,
 * b = w, mu exact), and Siconos's own reduction to a local problem
 * (globalFrictionContact_reformulation_FrictionContact) gives the W and q of
 * our Delassus operator (fl_delassus_dense): two independent computations
 * of W = H M^-1 H^T, q = H M^-1 f + w. */
Test(siconos_fc, siconos_reads_our_global_text_and_reformulates_alike)
{
    char out[128], path[1024];
    snprintf(out, sizeof out, "/tmp/fl_siconos_gout_%d.dat", (int)getpid());
    gsl_rng *rng = fl_test_rng(77);
    for (int k = 0; k < 4; k++) {
        fl_global_problem *g = NULL;
        fl_error err;
        if (k == 0) {
            corpus_path(path, sizeof path, "GFC3D_TwoRods1.dat");
            cr_assert_eq(fl_siconos_text_read_global(path, 1, NULL, NULL, &g, &err), FL_OK, "%s",
                         err.message);
        } else if (k == 1) {
            corpus_path(path, sizeof path, "CubeH8.hdf5");
            cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &g, &err), FL_OK, "%s", err.message);
        } else {
            cr_assert_eq(fl_global_problem_random(rng, 12, 3, k == 2 ? 2 : 3, 0.1, 1.0, &g, &err),
                         FL_OK);
            for (size_t i = 0; i < g->m; i++) gsl_vector_set(g->w, i, 0.1 * (double)i - 0.3);
        }
        cr_assert_eq(fl_siconos_text_write_global(out, g, &err), FL_OK, "%s", err.message);
        GlobalFrictionContactProblem *sg = globalFrictionContact_new_from_filename(out);
        cr_assert_not_null(sg);
        cr_assert_eq(sg->numberOfContacts, (int)g->nc);
        cr_assert_eq(sg->M->size0, (int)g->n);
        cr_assert_eq(sg->H->size0, (int)g->n);
        cr_assert_eq(sg->H->size1, (int)g->m);
        for (size_t i = 0; i < g->n; i++) {
            cr_assert_eq(sg->q[i], gsl_vector_get(g->f, i));
            for (size_t j = 0; j < g->n; j++)
                cr_assert_eq(NM_get_value(sg->M, (int)i, (int)j), gsl_matrix_get(g->M, i, j));
            for (size_t j = 0; j < g->m; j++)   /* Siconos's H (n x m) = our H^T */
                cr_assert_eq(NM_get_value(sg->H, (int)i, (int)j), gsl_matrix_get(g->H, j, i));
        }
        for (size_t i = 0; i < g->m; i++) cr_assert_eq(sg->b[i], gsl_vector_get(g->w, i));
        for (size_t a = 0; a < g->nc; a++) cr_assert_eq(sg->mu[a], g->mu[a]);
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_delassus_dense(g, NULL, NULL, &p, &err), FL_OK, "%s", err.message);
        /* Siconos 4.4 prints the reformulated problem on stdout: silence it */
        fflush(stdout);
        int saved = dup(1), devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        FrictionContactProblem *fc = globalFrictionContact_reformulation_FrictionContact(sg);
        fflush(stdout);
        dup2(saved, 1);
        close(saved);
        close(devnull);
        cr_assert_not_null(fc);
        double wmax = 0, qmax = 0;
        for (size_t i = 0; i < p->m; i++) {
            qmax = fmax(qmax, fabs(gsl_vector_get(p->q, i)));
            for (size_t j = 0; j < p->m; j++) wmax = fmax(wmax, fabs(gsl_matrix_get(p->W, i, j)));
        }
        for (size_t i = 0; i < p->m; i++) {
            cr_assert(fabs(fc->q[i] - gsl_vector_get(p->q, i)) <= 1e-9 * qmax + 1e-300,
                      "problem %d: q[%zu] Siconos %.17g, ours %.17g", k, i, fc->q[i],
                      gsl_vector_get(p->q, i));
            for (size_t j = 0; j < p->m; j++)
                cr_assert(fabs(NM_get_value(fc->M, (int)i, (int)j) - gsl_matrix_get(p->W, i, j)) <=
                              1e-9 * wmax,
                          "problem %d: W(%zu,%zu) Siconos %.17g, ours %.17g", k, i, j,
                          NM_get_value(fc->M, (int)i, (int)j), gsl_matrix_get(p->W, i, j));
        }
        frictionContactProblem_free(fc);
        globalFrictionContact_free(sg);
        fl_local_problem_free(p);
        fl_global_problem_free(g);
    }
    gsl_rng_free(rng);
    remove(out);
}

/* Disc-like granular problems (testkit/fclib_disclike.h: rigid bodies with
 * unit mass, neighbour and ground contacts, W = H H^T sparse), written to
 * FCLIB and read back with the sparse W only, then cross-validated. */
Test(siconos_fc, disclike_problems_through_fclib_files)
{
    gsl_rng *rng = fl_test_rng(33);
    char dir[] = "/tmp/fl_siconos_dl_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/p.hdf5", dir);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    xv_stats st;
    memset(&st, 0, sizeof st);
    const size_t sizes[] = {5, 10, 20, 40};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (int rep = 0; rep < 2; rep++) {
            fl_local_problem *p = fl_disclike_problem(rng, &ctx, sizes[k]), *b = NULL;
            cr_assert_not_null(p);
            gsl_matrix_free(p->W);   /* written from the sparse W */
            p->W = NULL;
            fl_error err;
            cr_assert_eq(fl_fclib_write_local(path, p, "disc-like", &err), FL_OK, "%s", err.message);
            cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &b, &err), FL_OK, "%s", err.message);
            char what[64];
            snprintf(what, sizeof what, "disc-like nc %zu rep %d", sizes[k], rep);
            cross_validate(b, 1e-8, &st, what);
            fl_local_problem_free(b);
            fl_local_problem_free(p);
        }
    cr_assert_eq(st.problems, 8);
    cr_assert_leq(st.nonconv_ours + st.nonconv_sic, 3, "%ld of ours, %ld of Siconos's did not "
                  "converge, %s", st.nonconv_ours, st.nonconv_sic, fl_test_seed_note());
    fprintf(stderr, "siconos_fc disc-like: %ld problems, max error ours %.2e, Siconos %.2e\n",
            st.problems, st.our_err, st.sic_err);
    fl_sparse_finish(&ctx);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    gsl_rng_free(rng);
}

/* 2D FE blocks (testkit/fclib_feblock.h: P1 elastic layer clamped to a tilted,
 * sheared plate on a rigid foundation; open, sliding and sticking contacts;
 * W = B A^-1 B^T dense SPD), written to FCLIB and read back, then
 * cross-validated: both tolerances reached, and for nc <= 6 enumeration
 * (reference/enumerate.h) decides uniqueness inside cross_validate.  For
 * nc > 6 enumeration is out of reach; an SPD W does not make the solution of
 * this law unique, so when our optimized NSGS and Siconos's both reach
 * 1e-10 on an SPD W their impulses and velocities are compared, and if they
 * differ both must satisfy Coulomb's law (fl_coulomb_violation).  Up to 10
 * contacts the load must give open, sticking and sliding contacts. */
Test(siconos_fc, feblock_problems_through_fclib_files)
{
    char dir[] = "/tmp/fl_siconos_fe_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/p.hdf5", dir);
    xv_stats st;
    memset(&st, 0, sizeof st);
    const size_t sizes[] = {5, 6, 10, 20};
    const double mus[] = {0.3, 0.6, 1.0};
    long compared = 0, agreed = 0;
    double maxdist = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (size_t j = 0; j < sizeof mus / sizeof *mus; j++) {
            fl_local_problem *p = fl_feblock_problem(NULL, sizes[k], mus[j]), *b = NULL;
            cr_assert_not_null(p);
            cr_assert_eq(fl_local_problem_check(p, NULL), FL_OK);
            fl_error err;
            cr_assert_eq(fl_fclib_write_local(path, p, "FE block", &err), FL_OK, "%s", err.message);
            cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &b, &err), FL_OK, "%s", err.message);
            for (size_t a = 0; a < p->m; a++) {   /* the file holds the problem */
                cr_assert_eq(gsl_vector_get(b->q, a), gsl_vector_get(p->q, a));
                for (size_t c = 0; c < p->m; c++)
                    cr_assert_eq(gsl_matrix_get(b->W, a, c), gsl_matrix_get(p->W, a, c));
            }
            char what[64];
            snprintf(what, sizeof what, "FE block nc %zu mu %g", sizes[k], mus[j]);
            cross_validate(b, 1e-10, &st, what);
            size_t m = b->m;
            gsl_vector *r = gsl_vector_calloc(m), *U = gsl_vector_calloc(m);
            fl_nsgs_options opt = fl_nsgs_options_default();
            opt.tol = 1e-10;
            opt.max_sweeps = 20000;
            fl_nsgs_result res;
            fl_status s = fl_nsgs_solve(b, &opt, r, U, &res, NULL);
            double rsc, usc;
            fl_enumerate_scales(b, &rsc, &usc);
            if (b->nc <= 10) {   /* the load gives every contact status (header comment) */
                int nopen = 0, nstick = 0, nslide = 0;
                for (size_t i = 0; i < b->nc; i++) {
                    double rn = r->data[2 * i], rt = r->data[2 * i + 1];
                    if (rn <= 1e-9 * rsc) nopen++;
                    else if (fabs(rt) < b->mu[i] * rn * (1 - 1e-6)) nstick++;
                    else nslide++;
                }
                cr_assert(s == FL_OK && nopen > 0 && nstick > 0 && nslide > 0,
                          "%s: open %d, stick %d, slide %d (status %d)", what, nopen, nstick,
                          nslide, s);
            }
            if (b->nc > 6) {
                /* SPD W (Cholesky of a copy) */
                gsl_matrix *C = gsl_matrix_alloc(b->m, b->m);
                gsl_matrix_memcpy(C, b->W);
                gsl_error_handler_t *h = fl_gsl_handler_off();
                int spd = gsl_linalg_cholesky_decomp1(C) == GSL_SUCCESS;
                fl_gsl_handler_restore(h);
                gsl_matrix_free(C);
                cr_assert(spd, "%s: W = B A^-1 B^T must be SPD", what);
                double *rs = calloc(m, sizeof *rs), *Us = calloc(m, sizeof *Us);
                FrictionContactProblem *sp = to_siconos(b);
                int iters = 0, info = siconos_nsgs(sp, 2, 1e-10, rs, Us, &iters);
                frictionContactProblem_free(sp);
                if (s == FL_OK && info == 0) {
                    compared++;
                    double d = 0;
                    for (size_t i = 0; i < m; i++) {
                        d = fmax(d, fabs(r->data[i] - rs[i]) / rsc);
                        d = fmax(d, fabs(U->data[i] - Us[i]) / usc);
                    }
                    if (d <= 1e-6) {
                        agreed++;
                        maxdist = fmax(maxdist, d);
                    } else {
                        double v1 = fl_coulomb_violation(2, b->nc, b->mu, r->data, U->data, rsc, usc);
                        double v2 = fl_coulomb_violation(2, b->nc, b->mu, rs, Us, rsc, usc);
                        cr_assert_leq(fmax(v1, v2), 1e-7, "%s: solutions differ by %g and one "
                                      "violates the law (ours %g, Siconos %g), %s", what, d, v1, v2,
                                      fl_test_seed_note());
                    }
                }
                free(rs);
                free(Us);
            }
            gsl_vector_free(r);
            gsl_vector_free(U);
            fl_local_problem_free(b);
            fl_local_problem_free(p);
        }
    cr_assert_eq(st.problems, 12);
    cr_assert_eq(st.nonconv_ours + st.nonconv_sic, 0, "%ld of ours, %ld of Siconos's did not "
                 "converge, %s", st.nonconv_ours, st.nonconv_sic, fl_test_seed_note());
    cr_assert_geq(st.unique2d, 3, "only %ld FE blocks with nc <= 6 decided unique, %s",
                  st.unique2d, fl_test_seed_note());
    cr_assert_eq(compared, 6, "both solvers reach 1e-10 on the larger blocks, %s",
                 fl_test_seed_note());
    fprintf(stderr, "siconos_fc FE blocks: %ld problems, max error ours %.2e, Siconos %.2e; %ld "
            "unique (max dist %.2e); nc > 6: %ld compared, %ld agree (max dist %.2e)\n",
            st.problems, st.our_err, st.sic_err, st.unique2d, st.dist, compared, agreed, maxdist);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
