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

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--quick"))) {
        fprintf(stderr, "usage: hard_problems OUTDIR [--quick]\n");
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
