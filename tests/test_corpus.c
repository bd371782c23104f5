/* test_corpus.c — the 25 real problem files of tests/data/siconos (written
 * by Siconos and LMGC90; provenance in that folder's README):
 *   - every file is read by both twins (dense and sparse) with the sizes
 *     Siconos 4.4's own readers report (sizes.tsv, and live for the .dat
 *     files through frictionContact_new_from_filename /
 *     globalFrictionContact_new_from_filename);
 *   - every file survives a conversion to the other format and back with
 *     every value unchanged;
 *   - the local problems where Siconos's Gauss-Seidel converges are solved by
 *     both Gauss-Seidel twins to a natural-map error <= 1e-8 (Newton and
 *     `auto`, both twins, on all 25 files, and the twins' agreement judged
 *     by code they do not share: tests/test_newton_corpus.c);
 *   - the issue-19 reproducers are refused fast and cleanly. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "fl_clock.h"
#include "fl_fclib.h"
#include "fl_residual.h"
#include "fl_siconos_text.h"
#include "reference/nsgs.h"
#include "optimized/nsgs_sparse.h"
#include "drivers/solve.h"
#include "corpus_path.h"
#include "drivers/fl_types.h"

#include <gsl/gsl_blas.h>
#include <FrictionContactProblem.h>
#include <GlobalFrictionContactProblem.h>
#include <NumericsMatrix.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <SolverOptions.h>
#include <fc3d_compute_error.h>

/* Read `name` as local (*p) or global (*g), dense or sparse. */
static fl_status read_any(const char *path, int fclib, int global, int dense, fl_sparse_ctx *ctx,
                          fl_local_problem **p, fl_global_problem **g, fl_error *err)
{
    *p = NULL;
    *g = NULL;
    fl_sparse_ctx *c = dense ? NULL : ctx;
    if (global)
        return fclib ? fl_fclib_read_global(path, dense, c, g, err)
                     : fl_siconos_text_read_global(path, dense, c, NULL, g, err);
    return fclib ? fl_fclib_read_local(path, dense, c, p, err)
                 : fl_siconos_text_read_local(path, dense, c, NULL, p, err);
}

Test(corpus, sizes_match_siconos_readers)
{
    char path[1024], line[512];
    corpus_path(path, sizeof path, "sizes.tsv");
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char name[256], kind[16], by[16];
        size_t nc, n;
        int dim;
        if (line[0] == '#' || sscanf(line, "%255s %15s %zu %d %zu %15s", name, kind, &nc, &dim,
                                     &n, by) != 6)
            continue;
        rows++;
        corpus_path(path, sizeof path, name);
        int global = strcmp(kind, "global") == 0, fclib = corpus_is_fclib(name), k = 0;
        fl_error err;
        cr_assert_eq(fclib ? fl_fclib_kind(path, &k, &err) : fl_siconos_text_kind(path, &k, &err),
                     FL_OK, "%s: %s", name, err.message);
        cr_assert_eq(k, global ? 2 : 1, "%s: kind %d", name, k);
        for (int dense = 0; dense < 2; dense++) {
            fl_local_problem *p;
            fl_global_problem *g;
            fl_status s = read_any(path, fclib, global, dense, &ctx, &p, &g, &err);
            cr_assert_eq(s, FL_OK, "%s (%s): %s", name, dense ? "dense" : "sparse", err.message);
            size_t rnc = p ? p->nc : g->nc, rn = p ? 0 : g->n;
            int rdim = p ? p->dim : g->dim;
            cr_assert(rnc == nc && rdim == dim && rn == n, "%s: nc %zu dim %d n %zu, table %zu %d %zu",
                      name, rnc, rdim, rn, nc, dim, n);
            fl_local_problem_free(p);
            fl_global_problem_free(g);
        }
        if (!fclib && !global) {   /* live: Siconos's own reader */
            FrictionContactProblem *sp = frictionContact_new_from_filename(path);
            cr_assert_not_null(sp, "%s", name);
            cr_assert(sp->numberOfContacts == (int)nc && sp->dimension == dim, "%s", name);
            frictionContactProblem_free(sp);
        } else if (!fclib) {
            GlobalFrictionContactProblem *sg = globalFrictionContact_new_from_filename(path);
            cr_assert_not_null(sg, "%s", name);
            cr_assert(sg->numberOfContacts == (int)nc && sg->dimension == dim &&
                      sg->M->size0 == (int)n, "%s", name);
            globalFrictionContact_free(sg);
        }
    }
    fclose(f);
    cr_assert_eq(rows, 25, "sizes.tsv lists %d files, want 25", rows);
    fl_sparse_finish(&ctx);
}

static void same_matrix(const gsl_matrix *A, const gsl_matrix *B, const char *what)
{
    cr_assert(A->size1 == B->size1 && A->size2 == B->size2, "%s: sizes differ", what);
    for (size_t i = 0; i < A->size1; i++)
        for (size_t j = 0; j < A->size2; j++)
            cr_assert_eq(gsl_matrix_get(A, i, j), gsl_matrix_get(B, i, j), "%s(%zu,%zu)", what, i, j);
}

static void same_array(const double *a, const double *b, size_t n, const char *what)
{
    for (size_t k = 0; k < n; k++) cr_assert_eq(a[k], b[k], "%s[%zu]", what, k);
}

Test(corpus, convert_round_trip_is_exact)
{
    static const char *files[] = {
        "Rover1039.dat", "Capsules-i122-1617.dat", "Confeti-ex03-Fc3D-SBM.dat",
        "fc2d_granularflowonwall_00667_00000.dat", "GFC3D_TwoRods1.dat", "GFC3D_Example00.dat",
        "gfc2d_granularflowonwall_00000_00117.dat", "Box_Stacks-i0122-82-5.hdf5",
        "Capsules-i125-1213.hdf5", "CubeH8.hdf5", "FrictionContactProblem00071.dat"};
    char path[1024], tmp[256];
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        corpus_path(path, sizeof path, files[k]);
        int fclib = corpus_is_fclib(files[k]), kind = 0;
        fl_error err;
        cr_assert_eq(fclib ? fl_fclib_kind(path, &kind, &err) : fl_siconos_text_kind(path, &kind, &err), FL_OK);
        snprintf(tmp, sizeof tmp, "/tmp/fl_corpus_%d_%zu.%s", (int)getpid(), k, fclib ? "dat" : "hdf5");
        fl_local_problem *p, *p2 = NULL;
        fl_global_problem *g, *g2 = NULL;
        cr_assert_eq(read_any(path, fclib, kind == 2, 1, NULL, &p, &g, &err), FL_OK, "%s", err.message);
        if (p) {
            cr_assert_eq(fclib ? fl_siconos_text_write(tmp, p, &err) : fl_fclib_write_local(tmp, p, NULL, &err), FL_OK, "%s", err.message);
            cr_assert_eq(read_any(tmp, !fclib, 0, 1, NULL, &p2, &g2, &err), FL_OK, "%s", err.message);
            same_matrix(p->W, p2->W, files[k]);
            same_array(p->q->data, p2->q->data, p->m, "q");
            same_array(p->mu, p2->mu, p->nc, "mu");
        } else {
            cr_assert_eq(fclib ? fl_siconos_text_write_global(tmp, g, &err) : fl_fclib_write_global(tmp, g, NULL, &err), FL_OK, "%s", err.message);
            cr_assert_eq(read_any(tmp, !fclib, 1, 1, NULL, &p2, &g2, &err), FL_OK, "%s", err.message);
            same_matrix(g->M, g2->M, files[k]);
            same_matrix(g->H, g2->H, files[k]);
            same_array(g->f->data, g2->f->data, g->n, "f");
            same_array(g->w->data, g2->w->data, g->m, "w");
            same_array(g->mu, g2->mu, g->nc, "mu");
        }
        remove(tmp);
        fl_local_problem_free(p);
        fl_local_problem_free(p2);
        fl_global_problem_free(g);
        fl_global_problem_free(g2);
    }
}

/* The files where Siconos's NSGS converges (README of tests/data/siconos),
 * solved by both Gauss-Seidel twins; sweep budgets from Siconos's NSGS
 * counts with margin. */
typedef struct solve_row {
    const char *file;
    int max_sweeps;
} solve_row;

static const solve_row rows[] = {
    {"Confeti-ex03-Fc3D-SBM.dat", 1000},
    {"Confeti-ex13-4contact-Fc3D-SBM.dat", 100},
    {"FC3D_Example1.dat", 100},
    {"FC3D_Example1_SBM.dat", 100},
    {"FrictionContact3D_1c.dat", 100},
    {"FrictionContact3D_RR_1c.dat", 100},
    {"FrictionContactProblem00031.dat", 100},
    {"FrictionContactProblem00071.dat", 1000},
    {"FrictionContactProblem00237.dat", 2000},
    {"NESpheres_10_1.dat", 500},
    {"OneObject-i1028-138.hdf5.dat", 3000},
    {"Rover1039.dat", 200},
    {"Rover11035.dat", 100},
    {"Rover4396.dat", 100},
    {"fc2d_granularflowonwall_00667_00000.dat", 100},
};

Test(corpus, local_problems_solved_where_siconos_converges, .timeout = 120)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    char path[1024];
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
        const solve_row *w = &rows[k];
        corpus_path(path, sizeof path, w->file);
        fl_error err;
        fl_local_problem *p = NULL;
        int fclib = corpus_is_fclib(w->file);
        fl_status s = fclib ? fl_fclib_read_local(path, 1, &ctx, &p, &err)
                            : fl_siconos_text_read(path, 1, &ctx, &p, &err);
        cr_assert_eq(s, FL_OK, "%s: %s", w->file, err.message);
        gsl_vector *r[2] = {gsl_vector_calloc(p->m), gsl_vector_calloc(p->m)};
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1e-8;
        o.max_sweeps = w->max_sweeps;
        for (int impl = 0; impl < 2; impl++) {
            fl_nsgs_result res;
            s = fl_nsgs_types[impl].solve(p, &o, r[impl], NULL, &res, &err);
            int iters = res.iterations;
            double self = res.residual;
            cr_assert_eq(s, FL_OK, "%s (%s): status %d, error %g after %d iterations", w->file,
                         impl ? "optimized" : "reference", s, self, iters);
            double e;
            cr_assert_eq(fl_residual_local(p, r[impl], NULL, FL_RESIDUAL_NORM_Q, &e, NULL), FL_OK);
            cr_assert_leq(e, 1e-8, "%s: natural-map error %g", w->file, e);
        }
        {   /* same iterates up to rounding (measured; the law asks less) */
            double d = 0, nr = 0;
            for (size_t i = 0; i < p->m; i++) {
                d = fmax(d, fabs(gsl_vector_get(r[0], i) - gsl_vector_get(r[1], i)));
                nr = fmax(nr, fabs(gsl_vector_get(r[0], i)));
            }
            cr_assert_leq(d, 1e-6 * (nr + 1e-300) + 1e-14, "%s: twins differ by %g", w->file, d);
        }
        gsl_vector_free(r[0]);
        gsl_vector_free(r[1]);
        fl_local_problem_free(p);
    }
    fl_sparse_finish(&ctx);
}

static void refused(const char *path, fl_status want, const char *words)
{
    double t0 = fl_clock_now();
    fl_local_problem *p = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_siconos_text_read(path, 1, NULL, &p, &err);
    cr_assert_eq(s, want, "%s: status %d, want %d (%s)", path, s, want, err.message);
    cr_assert_null(p);
    cr_assert(strstr(err.message, words) != NULL, "%s: '%s' should say '%s'", path, err.message, words);
    cr_assert_lt((fl_clock_now() - t0), 1.0, "%s: refused after %g s", path, (fl_clock_now() - t0));
}

Test(corpus, reproducers_refused_fast)
{
    char path[1024];
    corpus_path(path, sizeof path, "huge_contacts.dat");
    refused(path, FL_EPARSE, "file ends early");
    corpus_path(path, sizeof path, "long_token.dat");
    refused(path, FL_EPARSE, "is not a number");
    corpus_path(path, sizeof path, "nul_token.dat");
    refused(path, FL_EPARSE, "NUL");
    refused("/dev/zero", FL_EIO, "not a regular file");
    corpus_path(path, sizeof path, "");
    refused(path, FL_EIO, "is a directory");
    /* the memory cap: the Rover file needs about 1.2 kB as a dense W */
    corpus_path(path, sizeof path, "Rover1039.dat");
    fl_read_options o = {100};
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_siconos_text_read_local(path, 1, NULL, &o, &p, &err), FL_ENOMEM);
    cr_assert(strstr(err.message, "would need") != NULL, "%s", err.message);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    cr_assert_lt(1024.0 * (double)ru.ru_maxrss, 100e6, "peak memory %ld kB", ru.ru_maxrss);
}

/* `frictionlab solve --out` on global files: the v it writes satisfies
 * M v = f + H^T r with the r it writes (checked here with GSL, apart from
 * the command's own computation), for a file with contacts and for the
 * file without contact (v = M^-1 f). */
Test(corpus, solve_writes_the_global_velocity)
{
    const char *cmd = getenv("FRICTIONLAB");
    cr_assert_not_null(cmd, "FRICTIONLAB (the command's path) must be set by meson");
    static const char *files[] = {"GFC3D_TwoRods1.dat", "gfc2d_granularflowonwall_00000_00117.dat",
                                  "Box_Stacks-i0122-82-5.hdf5"};
    for (size_t k = 0; k < 3; k++) {
        char path[1024], out[256], line[2048];
        corpus_path(path, sizeof path, files[k]);
        snprintf(out, sizeof out, "/tmp/fl_corpus_sol_%d_%zu.hdf5", (int)getpid(), k);
        snprintf(line, sizeof line, "'%s' solve '%s' --out '%s' > /dev/null", cmd, path, out);
        cr_assert_eq(system(line), 0, "%s", line);
        fl_global_problem *g = NULL;
        fl_fclib_solution *s = NULL;
        fl_error err;
        cr_assert_eq(fl_fclib_read_global(out, 1, NULL, &g, &err), FL_OK, "%s", err.message);
        cr_assert_eq(fl_fclib_read_solution(out, &s, &err), FL_OK, "%s", err.message);
        cr_assert(s->n == g->n && s->m == g->m);
        double worst = 0, scale = 0;
        for (size_t i = 0; i < g->n; i++) {
            double lhs = 0, rhs = gsl_vector_get(g->f, i);
            for (size_t j = 0; j < g->n; j++) lhs += gsl_matrix_get(g->M, i, j) * s->v[j];
            for (size_t a = 0; a < g->m; a++) rhs += gsl_matrix_get(g->H, a, i) * s->r[a];
            worst = fmax(worst, fabs(lhs - rhs));
            scale = fmax(scale, fabs(rhs));
        }
        cr_assert_leq(worst, 1e-10 * scale + 1e-300, "%s: |M v - f - H^T r| = %g (scale %g)",
                      files[k], worst, scale);
        fl_fclib_solution_free(s);
        fl_global_problem_free(g);
        remove(out);
    }
}
