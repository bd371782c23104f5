/* hard_problems.c — hard frictional contact problems from our own engines,
 * written as FCLIB local files for `frictionlab bench suite --set DIR`
 * (issue 28: the problems where Gauss–Seidel and Newton stall, for the
 * proximal-point method of reference/ppa.h and the peers):
 *
 *   discs_packing_N     N discs on a triangular lattice in a periodic band
 *                       on a slope (testkit/fclib_discpacking.h, 003 §4-5):
 *                       one Contact Dynamics step, 2D, about 3 contacts per
 *                       disc, W rank-deficient (more contact rows than the
 *                       3 N disc velocities);
 *   discs_packing_N_muM the same step with every mu = M (high friction);
 *   discs_stack_CxR     a tall stack: R rows of C columns (C = 8), the same
 *                       engine and settings (the lattice of fclib_discpacking.h
 *                       with its column count fixed), mu as above or M;
 *   singular3d_NC_n     3D, W = H M^-1 H^T of a random global problem
 *                       (fl_global_problem_random) with n body velocities
 *                       for 3 NC > n contact rows (W singular, rank n),
 *                       mu log-uniform in [1, 2], w_N > 0 (strictly feasible:
 *                       v = 0 separates every contact, so a solution exists);
 *   feblock_NC_muM      the elastic block of testkit/fclib_feblock.h with a
 *                       high mu.
 *
 *   hard_problems OUTDIR [--quick]
 *   hard_problems --trace FILE [SECONDS [NAME=VALUE ...]]
 *                       the sparse ppa twin from zero, one line per outer
 *                       iteration; NAME: sigma shrink fail_factor
 *                       inner_ratio inner_max stall gs polish_after eta_fixed
 *                       (fl_ppa_options),
 *                       then_newton (seconds of the Newton twin from ppa's
 *                       answer: a second method's verdict)
 * writes OUTDIR/<name>.hdf5 and the list OUTDIR/problems.tsv (not named
 * sizes.tsv: bench suite would read that as a corpus manifest), then measure with
 *   frictionlab bench suite --set OUTDIR --ours gs,newton,ppa,auto \
 *       --peer siconos:nsgs,nsn-ac,prox --tol 1e-8 --time-limit 60 --out DIR
 * (doc/solvers-and-benchmarks.md, "Hard problems").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gsl/gsl_blas.h>

#include "fl_fclib.h"
#include "fl_problem.h"
#include "fl_rng.h"
#include "fl_scalar.h"
#include "drivers/discs_step.h"
#include "reference/delassus.h"
#include "optimized/newton_sparse.h"
#include "optimized/ppa_sparse.h"
#include "testkit/fclib_discpacking.h"
#include "testkit/fclib_feblock.h"

/* One step's local problem of the discs d (h = 1e-3, sparse W). */
static fl_local_problem *discs_problem(fl_discs *d, fl_discs_work *work, fl_disc_contact **c)
{
    fl_discs_step_options o = fl_discs_step_options_default();
    o.h = 1e-3;
    o.impl = FL_IMPL_OPTIMIZED;
    size_t nc = 0;
    fl_local_problem *p = NULL;
    if (fl_discs_local(d, &o, work, c, &nc, &p, NULL) != FL_OK) return NULL;
    return p;
}

static int write(const char *dir, const char *name, fl_local_problem *p, double mu, FILE *tsv)
{
    if (!p) {
        fprintf(stderr, "hard_problems: %s: generation failed\n", name);
        return 1;
    }
    if (mu > 0)
        for (size_t a = 0; a < p->nc; a++) p->mu[a] = mu;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.hdf5", dir, name);
    fl_error err;
    if (fl_fclib_write_local(path, p, name, &err) != FL_OK) {
        fprintf(stderr, "hard_problems: %s: %s\n", path, err.message);
        return 1;
    }
    fprintf(tsv, "%s.hdf5\tlocal\t%zu\t%d\t0\tfrictionlab\n", name, p->nc, p->dim);
    printf("%-28s nc %6zu dim %d\n", name, p->nc, p->dim);
    return 0;
}

/* N discs (cols 0: the square-ish packing of fclib_discpacking.h), once
 * with the engine's mu and once with every mu = mu_hi. */
static int discs(const char *dir, gsl_rng *rng, size_t N, size_t cols, double mu_hi, FILE *tsv)
{
    fl_discs_work work;
    if (fl_discs_work_init(&work, NULL) != FL_OK) return 1;
    fl_discs *d = fl_discpacking_lattice_cols(rng, N, cols);
    fl_disc_contact *c = NULL;
    fl_local_problem *p = d ? discs_problem(d, &work, &c) : NULL;
    char name[128];
    if (cols) snprintf(name, sizeof name, "discs_stack_%zux%zu", cols, N / cols);
    else snprintf(name, sizeof name, "discs_packing_%zu", N);
    int rc = write(dir, name, p, 0, tsv);
    size_t len = strlen(name);
    snprintf(name + len, sizeof name - len, "_mu%g", mu_hi);
    if (!rc) rc = write(dir, name, p, mu_hi, tsv);
    fl_local_problem_free(p);
    free(c);
    fl_discs_free(d);
    fl_discs_work_clear(&work);
    return rc;
}

/* 3D, rank n < 3 nc, mu in [1, 2], w_N in [0.01, 0.11]. */
static int singular3d(const char *dir, gsl_rng *rng, size_t nc, size_t n, FILE *tsv)
{
    fl_global_problem *g = NULL;
    if (fl_global_problem_random(rng, n, nc, 3, 1.0, 2.0, &g, NULL) != FL_OK) return 1;
    for (size_t a = 0; a < nc; a++) gsl_vector_set(g->w, 3 * a, 0.01 + 0.1 * gsl_rng_uniform(rng));
    fl_local_problem *p = NULL;
    fl_status s = fl_delassus_dense(g, NULL, NULL, &p, NULL);
    fl_global_problem_free(g);
    char name[128];
    snprintf(name, sizeof name, "singular3d_%zu_%zu", nc, n);
    int rc = write(dir, name, s == FL_OK ? p : NULL, 0, tsv);
    fl_local_problem_free(p);
    return rc;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static void print_step(void *data, const fl_ppa_step *st)
{
    (void)data;
    printf("%4d eta %9.3e tol_in %9.3e inner %2d %3d steps %4d sweeps e %9.3e -> %9.3e %s %6.2f s\n",
           st->k, st->eta, st->tol_in, (int)st->inner_status, st->inner_steps, st->inner_sweeps,
           st->e_before, st->e_after, st->gs_solved ? "GS-solved" : st->solved ? "solved" : "FAILED", st->seconds);
    fflush(stdout);
}

/* Where the error of r sits: the share of e^2 held by the k contacts of
 * largest error, for k = 1, 10, 100, and the largest one's index and mu. */
static void error_spread(const fl_local_problem *p, const gsl_vector *r)
{
    gsl_vector *U = gsl_vector_alloc(p->m);
    double *ea = malloc(p->nc * sizeof *ea), tot = 0, top = -1;
    size_t atop = 0;
    if (!U || !ea || fl_residual_local(p, r, U, FL_RESIDUAL_ABSOLUTE, &tot, NULL) != FL_OK) {
        if (U) gsl_vector_free(U);
        free(ea);
        return;
    }
    tot = 0;
    for (size_t a = 0; a < p->nc; a++) {
        ea[a] = fl_residual_contact_sq(p->dim, p->mu[a], r->data + p->dim * a, U->data + p->dim * a);
        tot += ea[a];
        if (ea[a] > top) top = ea[a], atop = a;
    }
    qsort(ea, p->nc, sizeof *ea, cmp_desc);
    double acc = 0;
    printf("error spread:");
    for (size_t a = 0; a < p->nc; a++) {
        acc += ea[a];
        if (a == 0 || a == 9 || a == 99) printf(" top %zu %.1f%%", a + 1, 100 * acc / tot);
    }
    printf("; largest at contact %zu (mu %g)\n", atop, p->mu[atop]);
    const double *ra = r->data + p->dim * atop, *Ua = U->data + p->dim * atop;
    double rt = 0, ut = 0, rmax = 0;
    for (int k = 1; k < p->dim; k++) rt += ra[k] * ra[k], ut += Ua[k] * Ua[k];
    for (size_t a = 0; a < p->nc; a++) rmax = fmax(rmax, fabs(r->data[p->dim * a]));
    printf("  that contact: r_N %.3e |r_T|/(mu r_N) %.6f U_N %.3e |U_T| %.3e error %.3e; "
           "max r_N %.3e, |r| %.3e, |q| %.3e\n", ra[0], sqrt(rt) / (p->mu[atop] * ra[0]), Ua[0],
           sqrt(ut), sqrt(top), rmax, gsl_blas_dnrm2(r), gsl_blas_dnrm2(p->q));
    free(ea);
    gsl_vector_free(U);
}

/* --trace FILE [SECONDS]: the sparse ppa twin from zero, tol 1e-8, one
 * line per outer iteration (fl_ppa_options.on_outer). */
static int trace(const char *file, double limit, char **set, int nset)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_error err;
    fl_local_problem *p = NULL;
    if (fl_sparse_start(&ctx, &err) != FL_OK
        || fl_fclib_read_local(file, 0, &ctx, &p, &err) != FL_OK) {
        fprintf(stderr, "hard_problems: %s: %s\n", file, err.message);
        fl_sparse_finish(&ctx);
        return 1;
    }
    fl_ppa_options o = fl_ppa_options_default();
    o.tol = 1e-8;
    o.max_outer = 1000;
    o.time_limit = limit;
    o.on_outer = print_step;
    double newton_s = 0;   /* > 0: Newton from ppa's answer for that long */
    for (int i = 0; i < nset; i++) {   /* NAME=VALUE overrides of the options */
        const char *kv = set[i], *v = strchr(kv, '=');
        if (!v) {
            fprintf(stderr, "hard_problems: %s is not NAME=VALUE, ignored\n", kv);
            continue;
        }
        double x = atof(v + 1);
        if (!strncmp(kv, "sigma=", 6)) o.sigma = x;
        else if (!strncmp(kv, "shrink=", 7)) o.shrink = x;
        else if (!strncmp(kv, "fail_factor=", 12)) o.fail_factor = x;
        else if (!strncmp(kv, "inner_ratio=", 12)) o.inner_ratio = x;
        else if (!strncmp(kv, "inner_max=", 10)) o.inner_max_iterations = (int)x;
        else if (!strncmp(kv, "stall=", 6)) o.inner_stall_steps = (int)x;
        else if (!strncmp(kv, "gs=", 3)) o.inner_gs_sweeps = (int)x;
        else if (!strncmp(kv, "polish_after=", 13)) o.polish_after = (int)x;
        else if (!strncmp(kv, "eta_fixed=", 10)) o.eta_fixed = x;
        else if (!strncmp(kv, "then_newton=", 12)) newton_s = x;
        else fprintf(stderr, "hard_problems: unknown option %s ignored\n", kv);
    }
    gsl_vector *r = gsl_vector_calloc(p->m);
    fl_ppa_result res;
    fl_status s = fl_ppa_solve_sparse(p, &o, r, NULL, &res, &err);
    printf("%s: status %d, error %.3e, %d outer (%d polishing), %d Newton steps, %d sweeps, "
           "%d failures, %.1f s\n", file, (int)s, res.residual, res.outer, res.polishes, res.inner,
           res.gs_sweeps, res.inner_failures, res.seconds);
    if (s >= 0) error_spread(p, r);
    if (s >= 0 && newton_s > 0) {   /* a second method from ppa's answer */
        fl_newton_options no = fl_newton_options_default();
        no.start = FL_NEWTON_START_WARM;
        no.tol = o.tol;
        no.max_iterations = 100000;
        no.time_limit = newton_s;
        fl_newton_result nr;
        s = fl_newton_solve_sparse(p, &no, r, NULL, &nr, &err);
        if (s >= 0) error_spread(p, r);
        printf("then Newton: status %d, error %.3e, %d steps, %d sweeps, %d failed steps, %.1f s\n",
               (int)s, nr.residual, nr.iterations, nr.gs_sweeps, nr.line_search_failures,
               nr.seconds);
    }
    gsl_vector_free(r);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    return s < 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--trace"))
        return trace(argv[2], argc > 3 ? atof(argv[3]) : 0.0, argv + 4, argc > 4 ? argc - 4 : 0);
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--quick"))) {
        fprintf(stderr, "usage: hard_problems OUTDIR [--quick]\n"
                "       hard_problems --trace FILE [SECONDS [NAME=VALUE ...]]\n");
        return 2;
    }
    const char *dir = argv[1];
    int quick = argc == 3;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "hard_problems: cannot create %s: %s\n", dir, strerror(errno));
        return 2;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/problems.tsv", dir);
    FILE *tsv = fopen(path, "w");
    if (!tsv) {
        fprintf(stderr, "hard_problems: cannot write %s\n", path);
        return 2;
    }
    fprintf(tsv, "# file\tkind\tnc\tdim\tn\tread_by\n");
    gsl_rng *rng = fl_rng_alloc(28);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    int rc = fl_sparse_start(&ctx, NULL) != FL_OK;
    if (!rc) rc = discs(dir, rng, quick ? 500 : 2000, 0, 1.5, tsv);
    if (!rc) rc = discs(dir, rng, quick ? 400 : 1200, 8, 2.0, tsv);
    if (!rc) rc = singular3d(dir, rng, quick ? 60 : 200, quick ? 60 : 150, tsv);
    if (!rc) {
        fl_local_problem *p = fl_feblock_problem(&ctx, quick ? 100 : 400, 1.5);
        rc = write(dir, quick ? "feblock_100_mu1.5" : "feblock_400_mu1.5", p, 0, tsv);
        fl_local_problem_free(p);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(rng);
    fclose(tsv);
    return rc ? 1 : 0;
}
