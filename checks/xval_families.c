/* xval_families.c — the problem families of the solver cross-validation
 * (xval.h): random systems of growing size, the real corpus, FE blocks and
 * disc-like packings from our own engines, and edge cases. */
#include "xval.h"

#include <dirent.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "fl_fclib.h"
#include "fl_rng.h"
#include "fl_siconos_text.h"
#include "reference/nsgs.h"
#include "testkit/fclib_disclike.h"
#include "testkit/fclib_discpacking.h"
#include "testkit/fclib_feblock.h"
#include "optimized/delassus_sparse.h"

static const char *family_names[FL_XVAL_NFAMILY] = {"random", "corpus", "feblock", "discs",
                                                    "edge"};

const char *fl_xval_family_name(fl_xval_family f)
{
    return (unsigned)f < FL_XVAL_NFAMILY ? family_names[f] : NULL;
}

fl_status fl_xval_family_parse(const char *list, unsigned *mask, fl_error *err)
{
    if (!list || !mask) return FL_FAIL(err, FL_EINVAL, "--family: NULL argument");
    *mask = 0;
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        int found = 0;
        if (n == 3 && strncmp(s, "all", 3) == 0) {
            *mask |= (1u << FL_XVAL_NFAMILY) - 1;
            found = 1;
        }
        for (int f = 0; f < FL_XVAL_NFAMILY && !found; f++)
            if (strlen(family_names[f]) == n && strncmp(s, family_names[f], n) == 0) {
                *mask |= 1u << f;
                found = 1;
            }
        if (!found)
            return FL_FAIL(err, FL_ENOTFOUND,
                           "--family: unknown family '%.*s' (random, corpus, feblock, discs, "
                           "edge, all)", (int)(n > 64 ? 64 : n), s);
        s += n;
        if (*s == ',') s++;
    }
    if (*mask == 0) return FL_FAIL(err, FL_EINVAL, "--family: empty list");
    return FL_OK;
}

fl_xval_options fl_xval_options_default(void)
{
    fl_xval_options o;
    memset(&o, 0, sizeof o);
    o.tol = 1e-6;
    o.coulomb_tol = 1e-3;
    o.dist_tol = 1e-4;
    o.parts_tol = 1e-8;   /* proofs/xval.md §6 */
    o.timeout = 60;
    o.per_family = 8;
    o.full = 0;
    o.seed = 1;
    o.corpus_dir = NULL;
    return o;
}

void fl_xval_case_clear(fl_xval_case *c)
{
    if (!c) return;
    fl_local_problem_free(c->p);
    fl_global_problem_free(c->g);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------------ */
/* size ladders                                                        */
/* ------------------------------------------------------------------ */

typedef struct rung {
    int dim;
    size_t nc;
} rung;

/* random: sizes interleaved 2D/3D, growing. */
static const rung random_quick[] = {{2, 1}, {3, 1}, {2, 2}, {3, 4}, {2, 4}, {3, 8}, {2, 6},
                                    {3, 24}, {2, 12}};
static const rung random_full[] = {{2, 1},  {3, 1},   {2, 2},   {3, 3},   {2, 4},    {3, 10},
                                   {2, 6},  {3, 30},  {2, 10},  {3, 100}, {2, 30},   {3, 300},
                                   {2, 100}, {3, 1000}, {2, 300}, {2, 1000}};
/* the suite's full ladder (FL_XVAL_FULL_SUITE, `bench suite --full`): the
 * crosscheck's, then up to 1e4 contacts */
static const rung random_suite[] = {{2, 1},   {3, 1},    {2, 2},    {3, 3},    {2, 4},   {3, 10},
                                    {2, 6},   {3, 30},   {2, 10},   {3, 100},  {2, 30},  {3, 300},
                                    {2, 100}, {3, 1000}, {2, 300},  {2, 1000}, {3, 3000},
                                    {2, 3000}, {3, 10000}, {2, 10000}};
/* An FE block's Delassus matrix is dense (every contact dof of the elastic
 * block couples to every other): 1e4 contacts would be a 2e4 x 2e4 dense W,
 * 3.2 GB in memory and in every problem file, so the suite stops at 1000. */
static const size_t feblock_quick[] = {3, 6, 12}, feblock_full[] = {3, 10, 30, 100, 300},
                    feblock_suite[] = {3, 10, 30, 100, 300, 1000};
static const size_t discs_quick[] = {5, 20, 50}, discs_full[] = {10, 100, 300, 1000},
                    discs_suite[] = {10, 100, 300, 1000, 3000, 10000};
/* real packings of the granular engine (number of discs; about 3 contacts
 * a disc: 800 discs make 2370 contacts, 3400 make about 1e4) */
static const size_t packing_quick[] = {12, 40}, packing_full[] = {40, 200, 800},
                    packing_suite[] = {40, 200, 800, 3400};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The ladders of one level of opt->full. */
typedef struct ladders {
    const rung *random;
    size_t nrandom;
    const size_t *feblock, *discs, *packing;
    size_t nfeblock, ndiscs, npacking;
} ladders;

#define LADDERS(r, f, d, p) {r, NELEM(r), f, d, p, NELEM(f), NELEM(d), NELEM(p)}

static ladders ladders_of(const fl_xval_options *opt)
{
    static const ladders quick = LADDERS(random_quick, feblock_quick, discs_quick, packing_quick),
                         full = LADDERS(random_full, feblock_full, discs_full, packing_full),
                         suite = LADDERS(random_suite, feblock_suite, discs_suite, packing_suite);
    return opt->full >= FL_XVAL_FULL_SUITE ? suite : opt->full ? full : quick;
}

static const char *const edge_names[] = {
    "mu0_2d",         "mu0_3d",         "mu_large_2d",    "mu_large_3d",
    "zero_contacts",  "nonsymmetric_2d", "rank_deficient_2d", "badly_scaled_2d",
    "badly_scaled_3d", "grazing_2d",     "grazing_3d"};

/* ------------------------------------------------------------------ */
/* corpus directory                                                    */
/* ------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Contacts of the largest corpus problem drawn without --full (the quick
 * set keeps the test suite fast; --full draws every problem). */
#define CORPUS_QUICK_MAX_NC 100

/* A growing list of file names (corpus_list's result). */
typedef struct name_list {
    char **v;
    size_t n, cap;
} name_list;

static fl_status name_list_add(name_list *l, const char *name, fl_error *err)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        char **w = realloc(l->v, cap * sizeof *w);
        if (!w) return FL_FAIL(err, FL_ENOMEM, "corpus family: out of memory");
        l->v = w;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(name))) return FL_FAIL(err, FL_ENOMEM, "corpus family: out of memory");
    l->n++;
    return FL_OK;
}

/* The rows of the manifest sizes.tsv (file, kind, nc, dim, n, read_by, as
 * Siconos's own readers report them), so only real problem files are
 * drawn, never the bad_* fixtures or the reproducers next to them. */
static fl_status corpus_manifest(FILE *f, const char *path, const fl_xval_options *opt,
                                 name_list *l, fl_error *err)
{
    size_t line = 0;
    char buf[1024];
    fl_status s = FL_OK;
    while (s == FL_OK && fgets(buf, sizeof buf, f)) {
        line++;
        if (buf[0] == '#' || buf[0] == '\n') continue;
        char name[512], kind[32];
        unsigned long nc;
        if (sscanf(buf, "%511[^\t]\t%31[^\t]\t%lu", name, kind, &nc) != 3)
            return FL_FAIL(err, FL_EPARSE, "%s line %zu: expected file, kind, nc", path, line);
        if (!opt->full && nc > CORPUS_QUICK_MAX_NC) continue;
        s = name_list_add(l, name, err);
    }
    return s;
}

/* 1 for the name of a problem file: *.dat or *.hdf5 (FCLIB), not hidden. */
static int problem_file_name(const char *name)
{
    size_t n = strlen(name);
    if (name[0] == '.') return 0;
    return (n > 4 && strcmp(name + n - 4, ".dat") == 0) ||
           (n > 5 && strcmp(name + n - 5, ".hdf5") == 0);
}

static void corpus_read(const char *path, fl_sparse_ctx *ctx, fl_xval_case *c);

/* A directory without a manifest (a user's own files): every regular
 * *.dat and *.hdf5 file.  Without opt->full each file is read once to learn
 * its number of contacts; a file our readers refuse stays in the list, so
 * that the run names it as not readable. */
static fl_status corpus_scan(const char *dir, const fl_xval_options *opt, name_list *l,
                             fl_error *err)
{
    DIR *d = opendir(dir);
    if (!d) return FL_FAIL(err, FL_EIO, "corpus family: cannot open the directory %s", dir);
    fl_sparse_ctx ctx;
    fl_status s = opt->full ? FL_OK : fl_sparse_start(&ctx, err);
    if (s != FL_OK) {
        closedir(d);
        return s;
    }
    struct dirent *e;
    char path[4096];
    while (s == FL_OK && (e = readdir(d)) != NULL) {
        if (!problem_file_name(e->d_name)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (!opt->full) {
            fl_xval_case c;
            memset(&c, 0, sizeof c);
            corpus_read(path, &ctx, &c);
            size_t nc = c.p ? c.p->nc : 0;
            fl_xval_case_clear(&c);
            if (nc > CORPUS_QUICK_MAX_NC) continue;
        }
        s = name_list_add(l, e->d_name, err);
    }
    if (!opt->full) fl_sparse_finish(&ctx);
    closedir(d);
    return s;
}

/* Sorted names of the corpus problems (caller frees each and the array):
 * the manifest's rows when the directory has a sizes.tsv, else every
 * problem file of the directory (corpus_scan).  Without opt->full, only
 * the problems of at most CORPUS_QUICK_MAX_NC contacts. */
static fl_status corpus_list(const fl_xval_options *opt, char ***names, size_t *count,
                             fl_error *err)
{
    *names = NULL;
    *count = 0;
    const char *dir = opt->corpus_dir;
    if (!dir) return FL_FAIL(err, FL_EINVAL, "corpus family: no directory given");
    DIR *d = opendir(dir);
    if (!d) return FL_FAIL(err, FL_EIO, "corpus family: cannot open the directory %s", dir);
    closedir(d);
    char path[4096];
    snprintf(path, sizeof path, "%s/sizes.tsv", dir);
    name_list l = {NULL, 0, 0};
    fl_status s;
    FILE *f = fopen(path, "r");
    if (f) {
        s = corpus_manifest(f, path, opt, &l, err);
        fclose(f);
    } else {
        s = corpus_scan(dir, opt, &l, err);
    }
    if (s != FL_OK) {
        for (size_t i = 0; i < l.n; i++) free(l.v[i]);
        free(l.v);
        return s;
    }
    if (l.n) qsort(l.v, l.n, sizeof *l.v, cmp_str);
    *names = l.v;
    *count = l.n;
    return FL_OK;
}

static void corpus_free(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
}

fl_status fl_xval_family_count(fl_xval_family f, const fl_xval_options *opt, size_t *count,
                               fl_error *err)
{
    if (!opt || !count) return FL_FAIL(err, FL_EINVAL, "xval: NULL argument");
    size_t per = opt->per_family > 0 ? (size_t)opt->per_family : 1;
    ladders lad = ladders_of(opt);
    switch (f) {
    case FL_XVAL_RANDOM: {
        size_t L = lad.nrandom;
        *count = opt->full && per < L ? L : per;
        return FL_OK;
    }
    case FL_XVAL_FEBLOCK: {
        size_t L = lad.nfeblock;
        *count = per < L ? per : L;
        if (opt->full) *count = L;
        return FL_OK;
    }
    case FL_XVAL_DISCS: {
        size_t L = lad.ndiscs;
        *count = per < L ? per : L;
        if (opt->full) *count = L;
        *count += lad.npacking;
        return FL_OK;
    }
    case FL_XVAL_EDGE:
        *count = NELEM(edge_names);
        return FL_OK;
    case FL_XVAL_CORPUS: {
        char **names;
        FL_TRY(corpus_list(opt, &names, count, err));
        corpus_free(names, *count);
        return FL_OK;
    }
    default:
        return FL_FAIL(err, FL_EINVAL, "xval: unknown family %d", (int)f);
    }
}

/* ------------------------------------------------------------------ */
/* random systems                                                      */
/* ------------------------------------------------------------------ */

/* A random orthonormal contact frame (rows: normal, tangents). */
static void random_frame(gsl_rng *rng, int dim, double E[3][3])
{
    if (dim == 2) {
        double th = 6.283185307179586 * gsl_rng_uniform(rng);
        E[0][0] = cos(th), E[0][1] = sin(th);
        E[1][0] = -sin(th), E[1][1] = cos(th);
        return;
    }
    double x[3], nn;
    do {
        for (int c = 0; c < 3; c++) x[c] = gsl_ran_gaussian(rng, 1.0);
        nn = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    } while (nn < 1e-3);
    for (int c = 0; c < 3; c++) E[0][c] = x[c] / nn;
    double h[3] = {1, 0, 0};
    if (fabs(E[0][0]) > 0.9) h[0] = 0, h[1] = 1;
    E[1][0] = E[0][1] * h[2] - E[0][2] * h[1];
    E[1][1] = E[0][2] * h[0] - E[0][0] * h[2];
    E[1][2] = E[0][0] * h[1] - E[0][1] * h[0];
    nn = sqrt(E[1][0] * E[1][0] + E[1][1] * E[1][1] + E[1][2] * E[1][2]);
    for (int c = 0; c < 3; c++) E[1][c] /= nn;
    E[2][0] = E[0][1] * E[1][2] - E[0][2] * E[1][1];
    E[2][1] = E[0][2] * E[1][0] - E[0][0] * E[1][2];
    E[2][2] = E[0][0] * E[1][1] - E[0][1] * E[1][0];
}

/* nc point bodies of dim translational dofs and masses log-uniform in
 * [1, 100]; contact a joins body a and an earlier body (or the ground, for
 * a = 0 and with probability 0.2): U_a = E_a (v_a - v_b), E_a a random
 * orthonormal frame.  H is block lower triangular with orthogonal diagonal
 * blocks, so W = H M^-1 H^T is symmetric positive definite (003 §3:
 * W = H M^-1 H^T) and sparse.  q = H u_free, u_free Gaussian, then q_N
 * lowered by rms(q)/2 (about 70% of the contacts approaching), mu uniform
 * in [0.1, 1].  p->Ws on ctx, and
 * p->W when m <= 2000. */
static fl_status random_system(gsl_rng *rng, fl_sparse_ctx *ctx, int dim, size_t nc,
                               fl_local_problem **out, fl_error *err)
{
    size_t m = (size_t)dim * nc, n = m, cap = 2 * m * (size_t)dim;
    int *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *vx = malloc(cap * sizeof *vx), *u = malloc(n * sizeof *u);
    double *sm = malloc(nc * sizeof *sm);   /* M^-1/2 per body */
    fl_local_problem *p = NULL;
    cholmod_sparse *B = NULL;
    fl_status s = FL_OK;
    if (!ri || !ci || !vx || !u || !sm) {
        s = FL_FAIL(err, FL_ENOMEM, "random system: out of memory");
        goto done;
    }
    size_t nnz = 0;
    for (size_t a = 0; a < nc; a++) sm[a] = 1 / sqrt(pow(10.0, 2 * gsl_rng_uniform(rng)));
    for (size_t a = 0; a < nc; a++) {
        double E[3][3];
        random_frame(rng, dim, E);
        long b = (a == 0 || gsl_rng_uniform(rng) < 0.2) ? -1 : (long)gsl_rng_uniform_int(rng, a);
        double sa = sm[a], sb = b >= 0 ? sm[b] : 0;
        for (int r = 0; r < dim; r++)
            for (int c = 0; c < dim; c++) {
                ri[nnz] = (int)(a * (size_t)dim) + r, ci[nnz] = (int)(a * (size_t)dim) + c;
                vx[nnz++] = E[r][c] * sa;
                if (b >= 0) {
                    ri[nnz] = (int)(a * (size_t)dim) + r, ci[nnz] = (int)((size_t)b * (size_t)dim) + c;
                    vx[nnz++] = -E[r][c] * sb;
                }
            }
    }
    /* B = H M^-1/2 (block lower triangular, invertible diagonal blocks) */
    if ((s = fl_sparse_from_triplet(ctx, m, n, nnz, ri, ci, vx, 0, &B, err)) != FL_OK) goto done;
    if ((s = fl_local_problem_alloc(nc, dim, 0, &p, err)) != FL_OK) goto done;
    p->ctx = ctx;
    p->Ws = cholmod_aat(B, NULL, 0, 1, &ctx->cm);   /* W = B B^T */
    if (!p->Ws) {
        s = FL_FAIL(err, FL_ENOMEM, "random system: cholmod_aat failed");
        goto done;
    }
    cholmod_sort(p->Ws, &ctx->cm);
    p->Ws->stype = 0;
    for (size_t k = 0; k < n; k++) u[k] = gsl_ran_gaussian(rng, 1.0);
    if ((s = fl_sparse_mv(ctx, B, 0, 1.0, u, 0.0, p->q->data, err)) != FL_OK) goto done;
    /* shift q_N down by half the rms of q: about 70% of the contacts approach */
    double rms = gsl_blas_dnrm2(p->q) / sqrt((double)m);
    for (size_t a = 0; a < nc; a++) p->q->data[a * (size_t)dim] -= 0.5 * rms;
    for (size_t a = 0; a < nc; a++) p->mu[a] = 0.1 + 0.9 * gsl_rng_uniform(rng);
    if (m <= 2000 && (s = fl_sparse_to_dense(ctx, p->Ws, &p->W, err)) != FL_OK) goto done;
done:
    fl_sparse_free(ctx, &B);
    free(ri);
    free(ci);
    free(vx);
    free(u);
    free(sm);
    if (s != FL_OK) {
        fl_local_problem_free(p);
        p = NULL;
    }
    *out = p;
    return s;
}

/* Replace p->Ws by the sparse copy of the (modified) dense p->W. */
static fl_status resparse(fl_local_problem *p, fl_sparse_ctx *ctx, fl_error *err)
{
    fl_sparse_free(ctx, &p->Ws);
    p->ctx = ctx;
    return fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, err);
}

/* ------------------------------------------------------------------ */
/* edge cases                                                          */
/* ------------------------------------------------------------------ */

static fl_status edge_case(size_t k, gsl_rng *rng, fl_sparse_ctx *ctx, fl_xval_case *c,
                           fl_error *err)
{
    const char *name = edge_names[k];
    int dim = strstr(name, "_3d") ? 3 : 2;
    fl_local_problem *p = NULL;
    fl_status s;
    if (strcmp(name, "zero_contacts") == 0) {
        /* A contact-free step is a valid problem (the corpus has one); the
         * local problem type must be able to hold it for the file to be
         * written. */
        fl_error e2;
        fl_error_clear(&e2);
        if (fl_local_problem_alloc(0, 3, 1, &p, &e2) != FL_OK) {
            snprintf(c->error, sizeof c->error,
                     "cannot build a problem with 0 contacts: %.400s", e2.message);
            return FL_OK;
        }
        c->p = p;
        return resparse(p, ctx, err);
    }
    if (strcmp(name, "rank_deficient_2d") == 0) {
        /* contacts 0, 1 of a random 2-contact system and a copy of contact 1
         * (the same rows of H twice): W = E W0 E^T has rank 4 < 6, and the
         * impulse can be shared between the twin contacts in a continuum of
         * ways (as in the wedged rod of 003 §2). */
        fl_local_problem *p0 = NULL;
        FL_TRY(random_system(rng, ctx, 2, 2, &p0, err));
        gsl_vector_set(p0->q, 2, -fabs(gsl_vector_get(p0->q, 2)) - 0.5);   /* contact 1 closes */
        s = fl_local_problem_alloc(3, 2, 1, &p, err);
        if (s == FL_OK) {
            const size_t map[6] = {0, 1, 2, 3, 2, 3};
            for (size_t i = 0; i < 6; i++) {
                gsl_vector_set(p->q, i, gsl_vector_get(p0->q, map[i]));
                for (size_t j = 0; j < 6; j++)
                    gsl_matrix_set(p->W, i, j, gsl_matrix_get(p0->W, map[i], map[j]));
            }
            p->mu[0] = p0->mu[0];
            p->mu[1] = p->mu[2] = p0->mu[1];
            s = resparse(p, ctx, err);
        }
        fl_local_problem_free(p0);
        if (s != FL_OK) {
            fl_local_problem_free(p);
            return s;
        }
        c->p = p;
        return FL_OK;
    }
    size_t nc = dim == 2 ? 4 : 8;
    if (strncmp(name, "grazing", 7) == 0) nc = dim == 2 ? 2 : 4;
    if (strncmp(name, "nonsym", 6) == 0) nc = 3;
    FL_TRY(random_system(rng, ctx, dim, nc, &p, err));
    c->p = p;
    const size_t m = p->m;
    if (strncmp(name, "mu0", 3) == 0) {
        for (size_t a = 0; a < nc; a++) p->mu[a] = 0;
    } else if (strncmp(name, "mu_large", 8) == 0) {
        for (size_t a = 0; a < nc; a++) p->mu[a] = 1e3;
    } else if (strncmp(name, "nonsymmetric", 12) == 0) {
        /* W + S, S skew (0.3 sqrt(W_ii W_jj) Gaussian): the symmetric part
         * stays W, so W + S is positive definite but not symmetric (as the
         * Rover files of the Siconos corpus). */
        for (size_t i = 0; i < m; i++)
            for (size_t j = i + 1; j < m; j++) {
                double sk = 0.3 * sqrt(gsl_matrix_get(p->W, i, i) * gsl_matrix_get(p->W, j, j)) *
                            gsl_ran_gaussian(rng, 1.0);
                *gsl_matrix_ptr(p->W, i, j) += sk;
                *gsl_matrix_ptr(p->W, j, i) -= sk;
            }
        FL_TRY(resparse(p, ctx, err));
    } else if (strncmp(name, "badly_scaled", 12) == 0) {
        /* W <- D W D, q <- D q, D = diag(s_a I), s_a = 10^(3 a/(nc-1)):
         * the diagonal blocks spread by s^2 = 1e6. */
        for (size_t i = 0; i < m; i++) {
            double si = pow(10.0, 3.0 * (double)(i / (size_t)dim) / (double)(nc - 1));
            *gsl_vector_ptr(p->q, i) *= si;
            for (size_t j = 0; j < m; j++) {
                double sj = pow(10.0, 3.0 * (double)(j / (size_t)dim) / (double)(nc - 1));
                *gsl_matrix_ptr(p->W, i, j) *= si * sj;
            }
        }
        FL_TRY(resparse(p, ctx, err));
    } else if (strncmp(name, "grazing", 7) == 0) {
        /* contact 0 barely approaching (q_N = -1e-9 |q|) while sliding
         * fast (q_T of order |q|): a tiny normal impulse, full slip. */
        double nq = gsl_blas_dnrm2(p->q);
        gsl_vector_set(p->q, 0, -1e-9 * nq);
        gsl_vector_set(p->q, 1, nq);
    }
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* corpus files                                                        */
/* ------------------------------------------------------------------ */

/* Read a corpus file into c->p (local form; a global problem is reduced by
 * the sparse Delassus operator).  A file our readers refuse leaves c->p
 * NULL and says why. */
static void corpus_read(const char *path, fl_sparse_ctx *ctx, fl_xval_case *c)
{
    fl_error e;
    fl_error_clear(&e);
    fl_status s;
    fl_local_problem *p = NULL;
    if (fl_fclib_is_hdf5(path)) {
        int kind = 0;
        s = fl_fclib_kind(path, &kind, &e);
        if (s == FL_OK && kind == 1) {
            s = fl_fclib_read_local(path, 0, ctx, &p, &e);
        } else if (s == FL_OK) {
            cholmod_factor *L = NULL;
            s = fl_fclib_read_global(path, 0, ctx, &c->g, &e);
            if (s == FL_OK) s = fl_delassus_sparse(c->g, NULL, &L, &p, &e);
            fl_sparse_free_factor(ctx, &L);
        }
    } else {
        int kind = 0;
        s = fl_siconos_text_kind(path, &kind, &e);
        if (s == FL_OK && kind == 1) {
            s = fl_siconos_text_read(path, 0, ctx, &p, &e);
        } else if (s == FL_OK) {
            cholmod_factor *L = NULL;
            s = fl_siconos_text_read_global(path, 0, ctx, NULL, &c->g, &e);
            if (s == FL_OK) s = fl_delassus_sparse(c->g, NULL, &L, &p, &e);
            fl_sparse_free_factor(ctx, &L);
        }
    }
    if (s == FL_OK && p && !p->Ws) {
        p->ctx = ctx;
        s = fl_sparse_from_dense(ctx, p->W, 0, 0.0, &p->Ws, &e);
    }
    if (s == FL_OK && p && !p->W && p->m <= 2000) s = fl_sparse_to_dense(ctx, p->Ws, &p->W, &e);
    if (s != FL_OK || !p) {
        fl_local_problem_free(p);
        snprintf(c->error, sizeof c->error, "%.200s: not readable: %.280s", path, e.message);
        return;
    }
    p->ctx = ctx;
    c->p = p;
}

void fl_xval_case_read(const char *path, const char *name, fl_sparse_ctx *ctx, fl_xval_case *c)
{
    memset(c, 0, sizeof *c);
    c->family = FL_XVAL_CORPUS;
    snprintf(c->name, sizeof c->name, "%s", name);
    corpus_read(path, ctx, c);
}

/* A real packing of N discs (testkit/fclib_discpacking.h): the engine
 * builds its step's local problem on its own context; W is copied to ctx. */
static void packing(gsl_rng *rng, size_t N, fl_sparse_ctx *ctx, fl_xval_case *c)
{
    fl_discs_work work;
    fl_discs *d = NULL;
    fl_disc_contact *dc = NULL;
    fl_local_problem *p0 = NULL, *p = NULL;
    if (fl_discs_work_init(&work, NULL) != FL_OK) {
        snprintf(c->error, sizeof c->error, "the disc engine could not start");
        return;
    }
    p0 = fl_discpacking_problem(rng, N, &work, &d, &dc);
    fl_status s = p0 && p0->Ws ? FL_OK : FL_EINVAL;
    if (s == FL_OK) s = fl_local_problem_alloc(p0->nc, p0->dim, 0, &p, NULL);
    if (s == FL_OK) {
        const cholmod_sparse *W = p0->Ws;
        const int *Wp = W->p, *Wi = W->i;
        const double *Wx = W->x;
        size_t nnz = (size_t)Wp[W->ncol];
        int *ri = malloc((nnz ? nnz : 1) * sizeof *ri), *ci = malloc((nnz ? nnz : 1) * sizeof *ci);
        s = ri && ci ? FL_OK : FL_ENOMEM;
        for (size_t j = 0; s == FL_OK && j < W->ncol; j++)
            for (int k = Wp[j]; k < Wp[j + 1]; k++) ri[k] = Wi[k], ci[k] = (int)j;
        if (s == FL_OK) s = fl_sparse_from_triplet(ctx, p->m, p->m, nnz, ri, ci, Wx, 0, &p->Ws, NULL);
        free(ri);
        free(ci);
        p->ctx = ctx;
        gsl_vector_memcpy(p->q, p0->q);
        memcpy(p->mu, p0->mu, p->nc * sizeof *p->mu);
    }
    if (s == FL_OK && p->m <= 2000) s = fl_sparse_to_dense(ctx, p->Ws, &p->W, NULL);
    if (s != FL_OK) {
        fl_local_problem_free(p);
        p = NULL;
        snprintf(c->error, sizeof c->error, "the packing of %zu discs could not be built", N);
    }
    c->p = p;
    fl_local_problem_free(p0);
    free(dc);
    fl_discs_free(d);
    fl_discs_work_clear(&work);
}

/* ------------------------------------------------------------------ */
/* one problem of a family                                             */
/* ------------------------------------------------------------------ */

fl_status fl_xval_case_make(fl_xval_family f, size_t k, const fl_xval_options *opt,
                            fl_sparse_ctx *ctx, fl_xval_case *c, fl_error *err)
{
    if (!opt || !ctx || !c) return FL_FAIL(err, FL_EINVAL, "xval case: NULL argument");
    memset(c, 0, sizeof *c);
    c->family = f;
    size_t count;
    FL_TRY(fl_xval_family_count(f, opt, &count, err));
    if (k >= count)
        return FL_FAIL(err, FL_EINVAL, "xval case: family %s has %zu problems, not %zu",
                       fl_xval_family_name(f), count, k + 1);
    unsigned long seed = opt->seed * 1000003UL + 7919UL * (unsigned long)f + (unsigned long)k;
    gsl_rng *rng = fl_rng_alloc(seed);
    if (!rng) return FL_FAIL(err, FL_ENOMEM, "xval case: out of memory");
    fl_status s = FL_OK;
    ladders lad = ladders_of(opt);
    switch (f) {
    case FL_XVAL_RANDOM: {
        rung g = lad.random[k % lad.nrandom];
        snprintf(c->name, sizeof c->name, "random.%dd.nc%04zu.s%zu", g.dim, g.nc, k);
        s = random_system(rng, ctx, g.dim, g.nc, &c->p, err);
        break;
    }
    case FL_XVAL_FEBLOCK: {
        size_t nc = lad.feblock[k];
        double mu = k % 2 ? 0.3 : 0.5;
        snprintf(c->name, sizeof c->name, "feblock.2d.nc%04zu.mu%.1f", nc, mu);
        c->p = fl_feblock_problem(ctx, nc, mu);
        if (!c->p) snprintf(c->error, sizeof c->error, "the FE block could not be built");
        else c->p->ctx = ctx;
        break;
    }
    case FL_XVAL_DISCS: {
        size_t nl = count - lad.npacking;
        if (k >= nl) {
            size_t N = lad.packing[k - nl];
            snprintf(c->name, sizeof c->name, "discs.packing2d.n%04zu", N);
            packing(rng, N, ctx, c);
            break;
        }
        size_t nc = lad.discs[k];
        snprintf(c->name, sizeof c->name, "discs.3d.nc%04zu", nc);
        c->p = fl_disclike_problem(rng, ctx, nc);
        if (!c->p) snprintf(c->error, sizeof c->error, "the disc packing could not be built");
        break;
    }
    case FL_XVAL_EDGE:
        snprintf(c->name, sizeof c->name, "edge.%s", edge_names[k]);
        s = edge_case(k, rng, ctx, c, err);
        break;
    case FL_XVAL_CORPUS: {
        char **names;
        size_t n;
        s = corpus_list(opt, &names, &n, err);
        if (s != FL_OK) break;
        if (k < n) {
            char path[4096];
            snprintf(c->name, sizeof c->name, "corpus.%.100s", names[k]);
            snprintf(path, sizeof path, "%s/%s", opt->corpus_dir, names[k]);
            corpus_read(path, ctx, c);
        }
        corpus_free(names, n);
        break;
    }
    default:
        s = FL_FAIL(err, FL_EINVAL, "xval case: unknown family %d", (int)f);
    }
    gsl_rng_free(rng);
    if (s != FL_OK) fl_xval_case_clear(c);
    return s;
}
