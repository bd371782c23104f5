/* test_fl_siconos_text.c — the Siconos text format (io/fl_siconos_text.c):
 * fixtures under tests/data/siconos (one written by Siconos itself, values
 * restated here from tests/data/siconos/README.md), round trip of random
 * problems, and each bad fixture: status, line and field in the error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testkit/fl_random.h"
#include "fl_siconos_text.h"
#include "corpus_path.h"

Test(fl_siconos_text, reads_the_file_siconos_wrote)
{
    double W[6][6] = {{2, .1, 0, .3, 0, 0}, {.1, 1.5, .2, 0, 0, 0}, {0, .2, 1.5, 0, 0, .1},
                      {.3, 0, 0, 3, .2, 0}, {0, 0, 0, .2, 2, 0},   {0, 0, .1, 0, 0, 2}};
    double q[6] = {-1, .5, -.2, -.5, .1, .3};
    char path[512];
    corpus_path(path, sizeof path, "two_contacts_3d.dat");
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert_eq(p->dim, 3);
    cr_assert_eq(p->nc, 2);
    for (int i = 0; i < 6; i++) {
        cr_assert_float_eq(gsl_vector_get(p->q, i), q[i], 1e-15);
        for (int j = 0; j < 6; j++)
            cr_assert_float_eq(gsl_matrix_get(p->W, i, j), W[i][j], 1e-15, "W(%d,%d)", i, j);
    }
    cr_assert_float_eq(p->mu[0], 0.3, 1e-15);
    cr_assert_float_eq(p->mu[1], 0.8, 1e-15);
    fl_local_problem_free(p);
    /* sparse only */
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cr_assert_eq(fl_siconos_text_read(path, 0, &ctx, &p, &err), FL_OK, "%s", err.message);
    cr_assert_null(p->W);
    gsl_matrix *D = NULL;
    cr_assert_eq(fl_sparse_to_dense(&ctx, p->Ws, &D, NULL), FL_OK);
    cr_assert_float_eq(gsl_matrix_get(D, 3, 0), 0.3, 1e-15);
    gsl_matrix_free(D);
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
}

Test(fl_siconos_text, reads_the_2d_fixture_column_by_column)
{
    /* the file lists W column by column; W is symmetric, so check an entry
     * whose transpose differs in the bad_asymmetric fixture instead */
    char path[512];
    corpus_path(path, sizeof path, "two_contacts_2d.dat");
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert_eq(p->dim, 2);
    cr_assert_float_eq(gsl_matrix_get(p->W, 3, 0), 0.25, 1e-15);
    cr_assert_float_eq(gsl_matrix_get(p->W, 2, 3), 0.5, 1e-15);
    cr_assert_float_eq(gsl_vector_get(p->q, 2), -2.0, 1e-15);
    cr_assert_float_eq(p->mu[1], 0.2, 1e-15);
    fl_local_problem_free(p);
}

Test(fl_siconos_text, round_trip_random_problems)
{
    gsl_rng *rng = fl_test_rng(21);
    char path[] = "/tmp/fl_sicotext_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int k = 0; k < 6; k++) {
        int dim = 2 + k % 2;
        size_t nc = 1 + (size_t)k;
        fl_local_problem *p = NULL, *b = NULL;
        cr_assert_eq(fl_local_problem_alloc(nc, dim, 1, &p, NULL), FL_OK);
        cr_assert_eq(fl_random_spd(rng, 50.0, 1.0, p->W), FL_OK);
        for (size_t i = 0; i < p->m; i++)
            for (size_t j = 0; j < i; j++) gsl_matrix_set(p->W, i, j, gsl_matrix_get(p->W, j, i));
        fl_random_vector(rng, 1.0, p->q);
        for (size_t a = 0; a < nc; a++) p->mu[a] = fl_random_mu(rng);
        if (k == 5) {   /* written from the sparse W */
            p->ctx = &ctx;
            cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
            gsl_matrix *W = p->W;
            p->W = NULL;
            cr_assert_eq(fl_siconos_text_write(path, p, NULL), FL_OK);
            p->W = W;
        } else {
            cr_assert_eq(fl_siconos_text_write(path, p, NULL), FL_OK);
        }
        fl_error err;
        cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &b, &err), FL_OK, "%s", err.message);
        for (size_t i = 0; i < p->m; i++) {
            cr_assert_eq(gsl_vector_get(b->q, i), gsl_vector_get(p->q, i), "%s", fl_test_seed_note());
            for (size_t j = 0; j < p->m; j++)
                cr_assert_eq(gsl_matrix_get(b->W, i, j), gsl_matrix_get(p->W, i, j), "%s",
                             fl_test_seed_note());
        }
        for (size_t a = 0; a < nc; a++) cr_assert_eq(b->mu[a], p->mu[a], "%s", fl_test_seed_note());
        fl_local_problem_free(b);
        fl_local_problem_free(p);
    }
    fl_sparse_finish(&ctx);
    remove(path);
    gsl_rng_free(rng);
}

static void expect_bad(const char *name, fl_status want, int line, const char *field)
{
    char path[512];
    corpus_path(path, sizeof path, name);
    fl_local_problem *p = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_siconos_text_read(path, 1, NULL, &p, &err);
    cr_assert_eq(s, want, "%s: status %d, want %d (%s)", name, s, want, err.message);
    cr_assert_null(p);
    cr_assert_str_eq(err.file, path);
    if (line > 0) cr_assert_eq(err.line, line, "%s: line %d, want %d", name, err.line, line);
    cr_assert(strstr(err.message, field) != NULL, "%s: '%s' should name '%s'", name, err.message,
              field);
}

Test(fl_siconos_text, bad_files)
{
    expect_bad("bad_dimension.dat", FL_EPARSE, 1, "field dimension");
    expect_bad("bad_truncated.dat", FL_EPARSE, 6, "field W values");
    expect_bad("bad_nan.dat", FL_ENONFINITE, 11, "field q[1]");
    expect_bad("bad_sizes.dat", FL_EDIM, 6, "field W dense sizes");
    expect_bad("bad_storage.dat", FL_EPARSE, 3, "field W storage");
    expect_bad("bad_mu.dat", FL_EINVAL, 12, "field mu[1]");
    expect_bad("bad_text.dat", FL_EPARSE, 8, "field W(1,1)");
    expect_bad("no_such_file.dat", FL_EIO, 0, "cannot open");
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_siconos_text_read(NULL, 1, NULL, &p, NULL), FL_EINVAL);
    cr_assert_eq(fl_siconos_text_read("x", 0, NULL, &p, NULL), FL_EINVAL);
    cr_assert_eq(fl_siconos_text_read("x", 1, NULL, NULL, NULL), FL_EINVAL);
    cr_assert_eq(fl_siconos_text_write(NULL, NULL, NULL), FL_EINVAL);
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    cr_assert_eq(fl_siconos_text_write("/nonexistent-dir/x.dat", p, NULL), FL_EIO);
    p->mu[0] = -1;
    cr_assert_eq(fl_siconos_text_write("/tmp/unused.dat", p, NULL), FL_EINVAL);
    fl_local_problem_free(p);
}

/* ---- the sparse storages, global files and Siconos's tolerances ---- */

static char tmp_path[256];

static const char *text_file(const char *text)
{
    snprintf(tmp_path, sizeof tmp_path, "/tmp/fl_sic_text_%d.dat", (int)getpid());
    FILE *f = fopen(tmp_path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return tmp_path;
}

static void expect_text(const char *text, int global, fl_status want, int line, const char *field)
{
    const char *path = text_file(text);
    fl_error err;
    fl_error_clear(&err);
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    fl_status s = global ? fl_siconos_text_read_global(path, 1, NULL, NULL, &g, &err)
                         : fl_siconos_text_read_local(path, 1, NULL, NULL, &p, &err);
    cr_assert_eq(s, want, "status %d, want %d (%s) for:\n%s", s, want, err.message, text);
    if (want != FL_OK) {
        cr_assert(!p && !g);
        cr_assert_str_eq(err.file, path);
        if (line > 0) cr_assert_eq(err.line, line, "line %d, want %d (%s)", err.line, line, err.message);
        cr_assert(strstr(err.message, field) != NULL, "'%s' should name '%s'", err.message, field);
    }
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    remove(path);
}

/* 2D, 2 contacts, W = diag(1, 2, 3, 4) + W(0,2) = W(2,0) = 0.5 in three storages */
#define SBM_GOOD "2\n2\n1\n4\n4\n4\n2\n2\n2 4\n2 4\n3\n4\n0 2 4\n0 1 0 1\n" \
                 "0\n1 0 0 2\n1\n0.5 0 0 0\n2\n0.5 0 0 0\n3\n3 0 0 4\n"
#define Q_MU "-1 0.5 -2 0.1\n0.3 0.4\n"
/* the same W as triplets and compressed columns (CSparse printouts) */
#define TRIPLET_GOOD \
    "2\n2\n2\n4\n4\n1\nCSparse Version 3.1.9\ntriplet: 4-by-4, nzmax: 6 nnz: 6\n" \
    "    0 0 : 1\n    1 1 : 2\n    2 2 : 3\n    3 3 : 4\n    0 2 : 0.5\n    2 0 : 0.5\n"
#define CSC_GOOD \
    "2\n2\n2\n4\n4\n2\nCSparse Version 3.1.9\n4-by-4, nzmax: 6 nnz: 6, 1-norm: 4.5\n" \
    "    col 0 : locations 0 to 1\n      0 : 1\n      2 : 0.5\n" \
    "    col 1 : locations 2 to 2\n      1 : 2\n" \
    "    col 2 : locations 3 to 4\n      0 : 0.5\n      2 : 3\n" \
    "    col 3 : locations 5 to 5\n      3 : 4\n"

Test(fl_siconos_text, sparse_block_and_csparse_storages)
{
    /* the same W from the three storages */
    const char *good[3] = {
        SBM_GOOD Q_MU,
        TRIPLET_GOOD Q_MU,
        CSC_GOOD Q_MU};
    double W[4][4] = {{1, 0, 0.5, 0}, {0, 2, 0, 0}, {0.5, 0, 3, 0}, {0, 0, 0, 4}};
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int k = 0; k < 3; k++) {
        const char *path = text_file(good[k]);
        fl_local_problem *p = NULL;
        fl_error err;
        cr_assert_eq(fl_siconos_text_read(path, 1, &ctx, &p, &err), FL_OK, "storage %d: %s", k, err.message);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                cr_assert_eq(gsl_matrix_get(p->W, i, j), W[i][j], "storage %d W(%d,%d)", k, i, j);
        cr_assert_eq(gsl_vector_get(p->q, 2), -2.0);
        cr_assert_eq(p->mu[1], 0.4);
        fl_local_problem_free(p);
        remove(path);
    }
    /* compressed row (origin 3): the "col j" blocks are rows; a nonsymmetric
     * W shows the difference: W(0,2) = 0.5, W(2,0) = 0 */
    {
        const char *csr = "2\n2\n2\n4\n4\n3\nCSparse Version 3.1.9\n4-by-4, nzmax: 5 nnz: 5, 1-norm: 4\n"
                          "    col 0 : locations 0 to 1\n      0 : 1\n      2 : 0.5\n"
                          "    col 1 : locations 2 to 2\n      1 : 2\n"
                          "    col 2 : locations 3 to 3\n      2 : 3\n"
                          "    col 3 : locations 4 to 4\n      3 : 4\n" Q_MU;
        const char *path = text_file(csr);
        fl_local_problem *p = NULL;
        fl_error err;
        cr_assert_eq(fl_siconos_text_read(path, 1, &ctx, &p, &err), FL_OK, "%s", err.message);
        cr_assert_eq(gsl_matrix_get(p->W, 0, 2), 0.5);
        cr_assert_eq(gsl_matrix_get(p->W, 2, 0), 0.0);
        cr_assert_eq(gsl_matrix_get(p->W, 3, 3), 4.0);
        fl_local_problem_free(p);
        remove(path);
    }
    fl_sparse_finish(&ctx);
    /* defects, each named with its line and field */
    expect_text("2\n2\n1\n4\n4\n3\n2\n2\n2 5\n2 4\n3\n3\n0 2 3\n0 1 1\n"
                "0\n1 0 0 2\n1\n0.5 0 0 0\n2\n3 0 0 4\n" Q_MU, 0, FL_EDIM, 9,
                "W SBM blocksize0");
    expect_text("2\n2\n1\n4\n4\n3\n2\n2\n2 4\n2 4\n3\n3\n0 2 3\n0 1 1\n0\n1 0 0 2\n7\n"
                "0.5 0 0 0\n2\n3 0 0 4\n" Q_MU, 0,
                FL_EPARSE, 17, "W SBM block number");
    expect_text("2\n2\n1\n4\n4\n3\n2\n2\n2 4\n2 4\n3\n3\n0 3 2\n0 1 1\n"
                "0\n1 0 0 2\n1\n0.5 0 0 0\n2\n3 0 0 4\n" Q_MU, 0, FL_EPARSE, 13,
                "W SBM index1_data");
    expect_text("2\n2\n2\n4\n4\n1\nbanner\ntriplet: 4-by-4, nzmax: 1 nnz: 1\n    0 9 : 1\n" Q_MU, 0,
                FL_EPARSE, 9, "W triplet 0 column");
    expect_text("2\n2\n2\n4\n4\n1\nbanner\ntriplet: 4-by-5, nzmax: 1 nnz: 1\n    0 0 : 1\n" Q_MU, 0,
                FL_EDIM, 8, "W CSparse size line");
    expect_text("2\n2\n2\n4\n4\n2\nbanner\n4-by-4, nzmax: 1 nnz: 1, 1-norm: 1\n"
                "    col 0 : locations 0 to 0\n      0 : 1\n    col 1 : locations 3 to 2\n" Q_MU,
                0, FL_EPARSE, 11, "W col 1");
    expect_text("2\n2\n2\n4\n4\n7\n" Q_MU, 0, FL_EPARSE, 6, "W CSparse origin");
    /* what follows mu is ignored (Siconos's reader stops after mu) */
    expect_text(SBM_GOOD Q_MU "1 2 3 trailing words\n", 0, FL_OK, 0, "");
    /* no contact */
    expect_text("3\n0\n0\n0\n0\n0\t0\n\n\n", 0, FL_OK, 0, "");
    /* a token of any length is read whole: 200 digits then garbage */
    char longtok[600];
    snprintf(longtok, sizeof longtok, "2\n1\n0\n2\n2\n2 2\n1 0 0 1\n-1.%0200d%s 0\n0.5\n", 0, "x");
    expect_text(longtok, 0, FL_EPARSE, 8, "field q[0]");
    /* global: M nonsymmetric beyond the tolerance, H of the wrong shape */
    expect_text("3\n1\n0\n3\n3\n3 3\n1 0 0 0.5 1 0 0 0 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n"
                "0 0 0\n0 0 0\n0.1\n", 1, FL_EINVAL, 0, "field M: not symmetric");
    expect_text("3\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n0\n3\n2\n1 2 3 4 5 6 7\n", 1, FL_EDIM, 10,
                "field H sizes: 3 x 2, expected 3 x 3");
}

Test(fl_siconos_text, global_files_both_twins)
{
    /* GFC3D_Example00: M = I, H = I, q = f = (-1,-1,-1), b = w = 0, mu = 0.1, then
     * a trailing "0" */
    char path[512];
    corpus_path(path, sizeof path, "GFC3D_Example00.dat");
    int kind = 0;
    cr_assert_eq(fl_siconos_text_kind(path, &kind, NULL), FL_OK);
    cr_assert_eq(kind, 2);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *g = NULL;
    fl_error err;
    cr_assert_eq(fl_siconos_text_read_global(path, 1, &ctx, NULL, &g, &err), FL_OK, "%s", err.message);
    cr_assert(g->n == 3 && g->nc == 1 && g->dim == 3);
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(gsl_vector_get(g->f, i), -1.0);
        cr_assert_eq(gsl_vector_get(g->w, i), 0.0);
        for (size_t j = 0; j < 3; j++) {
            cr_assert_eq(gsl_matrix_get(g->M, i, j), i == j ? 1.0 : 0.0);
            cr_assert_eq(gsl_matrix_get(g->H, i, j), i == j ? 1.0 : 0.0);
        }
    }
    cr_assert_eq(g->mu[0], 0.1);
    cr_assert_not_null(g->Ms);
    cr_assert_not_null(g->Hs);
    /* write (dense, then sparse) and read back: the same numbers */
    const char *out = text_file("");
    for (int sparse = 0; sparse < 2; sparse++) {
        gsl_matrix *M = g->M, *H = g->H;
        if (sparse) g->M = g->H = NULL;
        cr_assert_eq(fl_siconos_text_write_global(out, g, &err), FL_OK, "%s", err.message);
        g->M = M;
        g->H = H;
        fl_global_problem *b = NULL;
        cr_assert_eq(fl_siconos_text_read_global(out, 1, NULL, NULL, &b, &err), FL_OK, "%s", err.message);
        for (size_t i = 0; i < 3; i++)
            for (size_t j = 0; j < 3; j++) {
                cr_assert_eq(gsl_matrix_get(b->M, i, j), gsl_matrix_get(g->M, i, j));
                cr_assert_eq(gsl_matrix_get(b->H, i, j), gsl_matrix_get(g->H, i, j));
            }
        fl_global_problem_free(b);
    }
    remove(out);
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
}

/* ---- every defect of a good file is refused by name ---- */

/* The good files below, one per storage and form.  Tokens that the reader
 * skips by design (Siconos's readers skip them too): the "CSparse Version"
 * banner line and the ", 1-norm: X" tail of a compressed size line. */
static const char *const sweep_local[] = {
    SBM_GOOD Q_MU,
    TRIPLET_GOOD Q_MU,
    CSC_GOOD Q_MU,
    "2\n2\n0\n4\n4\n4 4\n1 0 0.5 0\n0 2 0 0\n0.5 0 3 0\n0 0 0 4\n" Q_MU,
};
static const char *const sweep_global[] = {
    "3\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n-1 -1 -1\n0 0 0\n0.1\n",
    "3\n1\n2\n3\n3\n1\nCSparse Version 3.1.9\ntriplet: 3-by-3, nzmax: 3 nnz: 3\n"
    "    0 0 : 1\n    1 1 : 1\n    2 2 : 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n-1 -1 -1\n0 0 0\n0.1\n",
};

typedef struct sweep_token {
    size_t start, end;
    int line;
    int skipped;
} sweep_token;

static size_t sweep_tokens(const char *text, sweep_token *tok, size_t max)
{
    size_t n = 0, i = 0;
    int line = 1, line_skipped = 0, after_norm = 0;
    while (text[i]) {
        if (text[i] == '\n') {
            line++;
            line_skipped = after_norm = 0;
            i++;
            continue;
        }
        if (text[i] == ' ') {
            i++;
            continue;
        }
        size_t s = i;
        while (text[i] && text[i] != ' ' && text[i] != '\n') i++;
        cr_assert_lt(n, max);
        if (strncmp(text + s, "CSparse", 7) == 0) line_skipped = 1;
        if (strncmp(text + s, "1-norm:", 7) == 0) after_norm = 1;
        tok[n++] = (sweep_token){s, i, line, line_skipped || after_norm};
    }
    return n;
}

static fl_status sweep_read(const char *path, int global, int sparse, fl_sparse_ctx *ctx,
                            fl_error *err)
{
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    fl_status s = global ? fl_siconos_text_read_global(path, !sparse, sparse ? ctx : NULL, NULL,
                                                       &g, err)
                         : fl_siconos_text_read(path, !sparse, sparse ? ctx : NULL, &p, err);
    if (s != FL_OK) cr_assert(!p && !g, "a refused file leaves the output NULL");
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    return s;
}

/* Each good file cut after every token (the last one excepted: mu is
 * complete only then) must be refused as ending early, naming the file and
 * the field; each token replaced by "x" must be refused as that token, on
 * its line, naming the field; the skipped tokens must leave the file
 * readable.  Dense and sparse readers alike. */
Test(fl_siconos_text, every_cut_and_every_bad_token_refused_by_name)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    size_t nl = sizeof sweep_local / sizeof *sweep_local;
    size_t ng = sizeof sweep_global / sizeof *sweep_global;
    char buf[2048];
    sweep_token tok[256];
    long refused = 0, skipped = 0;
    for (size_t f = 0; f < nl + ng; f++) {
        int global = f >= nl;
        const char *text = global ? sweep_global[f - nl] : sweep_local[f];
        size_t nt = sweep_tokens(text, tok, 256);
        for (int sparse = 0; sparse <= 1; sparse++) {
            fl_error err;
            cr_assert_eq(sweep_read(text_file(text), global, sparse, &ctx, &err), FL_OK,
                         "file %zu: %s", f, err.message);
            for (size_t k = 0; k + 1 < nt; k++) {
                cr_assert_lt(tok[k].end, sizeof buf);
                memcpy(buf, text, tok[k].end);
                buf[tok[k].end] = '\0';
                const char *path = text_file(buf);
                fl_error_clear(&err);
                fl_status s = sweep_read(path, global, sparse, &ctx, &err);
                cr_assert_eq(s, FL_EPARSE, "file %zu cut after token %zu: status %d (%s)", f, k, s,
                             err.message);
                cr_assert_str_eq(err.file, path);
                cr_assert(err.line >= 1 && err.line <= tok[k].line + 1, "file %zu cut %zu: line %d",
                          f, k, err.line);
                cr_assert(strstr(err.message, "field ") && strstr(err.message, "ends early"),
                          "file %zu cut after token %zu: '%s'", f, k, err.message);
                refused++;
            }
            for (size_t k = 0; k < nt; k++) {
                int n = snprintf(buf, sizeof buf, "%.*sx%s", (int)tok[k].start, text,
                                 text + tok[k].end);
                cr_assert_lt((size_t)n, sizeof buf);
                const char *path = text_file(buf);
                fl_error_clear(&err);
                fl_status s = sweep_read(path, global, sparse, &ctx, &err);
                if (tok[k].skipped) {
                    cr_assert_eq(s, FL_OK, "file %zu token %zu is skipped by design: %s", f, k,
                                 err.message);
                    skipped++;
                    continue;
                }
                cr_assert_eq(s, FL_EPARSE, "file %zu token %zu '%.*s' -> x: status %d (%s)", f, k,
                             (int)(tok[k].end - tok[k].start), text + tok[k].start, s,
                             err.message);
                cr_assert_str_eq(err.file, path);
                cr_assert_eq(err.line, tok[k].line, "file %zu token %zu: line %d, want %d (%s)", f,
                             k, err.line, tok[k].line, err.message);
                cr_assert(strstr(err.message, "field ") && strstr(err.message, "'x'"),
                          "file %zu token %zu: '%s'", f, k, err.message);
                refused++;
            }
        }
    }
    /* banner (3 tokens) of 3 CSparse printouts, 1-norm tail (2 tokens) of one;
     * each read dense and sparse */
    cr_assert_eq(skipped, 2 * (3 * 3 + 2));
    cr_assert_gt(refused, 500);
    remove(tmp_path);
    fl_sparse_finish(&ctx);
}
