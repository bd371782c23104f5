/* test_siconos_text_refusals.c — the Siconos text reader and writer
 * (io/fl_siconos_text.c) on the defects the fixture sweeps of
 * test_fl_siconos_text.c do not produce: malformed integers, CSparse size
 * lines and counts, NUL bytes in skipped lines, block structures that do
 * not add up, the memory budget of fl_read_options at each allocation,
 * duplicate entries that sum to Inf, and the writers on a full device
 * (and, with the FCLIB writer, on either symmetric storage of M).
 * Each refused file must come back with the status, the file, the line
 * (when the defect is on one) and the field named in the message; each
 * accepted one with the values written in it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fl_fclib.h"
#include "fl_siconos_text.h"
#include "symmetric_storage.h"

static char tmp_path[256];

/* The bytes [text, text + len) into a fresh file. */
static const char *bytes_file(const char *text, size_t len)
{
    snprintf(tmp_path, sizeof tmp_path, "/tmp/fl_cov_text_%d.dat", (int)getpid());
    FILE *f = fopen(tmp_path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    return tmp_path;
}

static const char *text_file(const char *text) { return bytes_file(text, strlen(text)); }

enum { LOCAL = 0, GLOBAL = 1 };

/* Read `path` (local or global, dense and/or sparse, budget max_bytes or
 * the default when 0) and check the outcome. */
static void expect_path(const char *path, int global, int dense, size_t max_bytes,
                        fl_status want, int line, const char *field)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_read_options o = fl_read_options_default();
    if (max_bytes) o.max_bytes = max_bytes;
    fl_error err;
    fl_error_clear(&err);
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    fl_status s = global ? fl_siconos_text_read_global(path, dense, dense ? NULL : &ctx, &o, &g, &err)
                         : fl_siconos_text_read_local(path, dense, dense ? NULL : &ctx, &o, &p, &err);
    cr_assert_eq(s, want, "status %d, want %d (%s)", s, want, err.message);
    if (want != FL_OK) {
        cr_assert(!p && !g, "a refused file leaves the output NULL");
        cr_assert_str_eq(err.file, path);
        if (line > 0) cr_assert_eq(err.line, line, "line %d, want %d (%s)", err.line, line, err.message);
        cr_assert(strstr(err.message, field) != NULL, "'%s' should name '%s'", err.message, field);
    }
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    fl_sparse_finish(&ctx);
}

static void expect_text(const char *text, int global, fl_status want, int line, const char *field)
{
    expect_path(text_file(text), global, 1, 0, want, line, field);
}

/* the smallest good local file: dim 2, one contact, W = I, q = (-1, 0), mu = 0.5 */
#define Q_MU "-1 0\n0.5\n"
#define LOCAL_GOOD "2\n1\n0\n2\n2\n2 2\n1 0 0 1\n" Q_MU
/* a CSparse header for W of 2 x 2 with origin o */
#define CSP(o) "2\n1\n2\n2\n2\n" o "\nCSparse Version 3.1.9\n"

Test(cov_io_text, whitespace_of_every_kind_separates_tokens)
{
    /* \f and \v are C isspace() characters, as Siconos's fscanf skips them */
    const char *path = text_file("2\f1\v0\n2\n2\n2 2\n1 0 0 1\n-1\t0\r\n0.5\n");
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert_eq(p->dim, 2);
    cr_assert_eq(p->nc, 1);
    cr_assert_eq(gsl_matrix_get(p->W, 1, 1), 1.0);
    cr_assert_eq(gsl_vector_get(p->q, 0), -1.0);
    cr_assert_eq(p->mu[0], 0.5);
    fl_local_problem_free(p);
}

Test(cov_io_text, malformed_integers_are_named)
{
    expect_text("2x\n1\n", LOCAL, FL_EPARSE, 1, "field dimension: '2x' is not an integer");
    char longtok[200];
    snprintf(longtok, sizeof longtok, "%060d%s\n1\n", 0, "z");
    expect_text(longtok, LOCAL, FL_EPARSE, 1, "...' is not an integer");
    expect_text("99999999999999999999999\n1\n", LOCAL, FL_EPARSE, 1, "field dimension");
    expect_text("2\n1000000000\n", LOCAL, FL_EPARSE, 2,
                "field number of contacts: 1000000000 is out of range");
    /* dense size1 repeated wrong */
    expect_text("2\n1\n0\n2\n2\n2 3\n1 0 0 1\n" Q_MU, LOCAL, FL_EDIM, 6,
                "field W dense sizes: 2 x 3, the header says 2 x 2");
    /* the local W's header of the wrong order, then a non-square one */
    expect_text("2\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n" Q_MU, LOCAL, FL_EDIM, 5,
                "field W sizes: 3 x 3, expected 2 x 3");
    expect_text("2\n1\n0\n2\n3\n2 3\n1 0 0 1 0 0\n" Q_MU, LOCAL, FL_EDIM, 0,
                "field W or M: 2 x 3 is not square");
}

Test(cov_io_text, nul_bytes_in_skipped_lines)
{
    /* the rest of the origin line and the banner line are skipped, but a NUL
     * byte there is binary data, not a CSparse printout */
    static const char a[] = "2\n1\n2\n2\n2\n1 x\0y\nCSparse\ntriplet: 2-by-2, nzmax: 1 nnz: 1\n"
                            " 0 0 : 1\n" Q_MU;
    expect_path(bytes_file(a, sizeof a - 1), LOCAL, 1, 0, FL_EPARSE, 0, "a NUL byte in a text line");
    static const char b[] = "2\n1\n2\n2\n2\n1\nCSparse\0Version\ntriplet: 2-by-2, nzmax: 1 nnz: 1\n"
                            " 0 0 : 1\n" Q_MU;
    expect_path(bytes_file(b, sizeof b - 1), LOCAL, 1, 0, FL_EPARSE, 0, "a NUL byte in a text line");
    static const char c[] = "2\n1\n2\n2\n2\n2\nCSparse\n2-by-2, nzmax: 1 nnz: 1, 1-\0norm: 1\n"
                            " col 0 : locations 0 to 0\n 0 : 1\n col 1 : locations 1 to 0\n" Q_MU;
    expect_path(bytes_file(c, sizeof c - 1), LOCAL, 1, 0, FL_EPARSE, 0, "a NUL byte in a text line");
}

Test(cov_io_text, sparse_block_structures_that_do_not_add_up)
{
    /* cumulative block-row sizes 2 then 1: not increasing */
    expect_text("2\n1\n1\n2\n2\n1\n2 2\n2 1\n1 2\n3\n1\n0 1 1\n0\n0\n1\n" Q_MU, LOCAL, FL_EPARSE, 8,
                "field W SBM blocksize0[1]: cumulative block sizes must increase");
    /* block-row pointers 0 1 1 end below nbblocks = 2 */
    expect_text("2\n1\n1\n2\n2\n2\n2 1\n1 2\n2\n3\n2\n0 1 1\n0 0\n0\n1 1\n1\n1 1\n" Q_MU, LOCAL,
                FL_EPARSE, 12, "field W SBM index1_data[2]");
    /* blocks in a matrix without rows (no contact) */
    expect_text("3\n0\n1\n0\n0\n1\n         \n         \n", LOCAL, FL_EDIM, 6,
                "field W SBM nbblocks: 1 blocks in a 0 x 0 matrix");
    /* no block at all: W = 0, as Siconos's SBM reader makes it */
    const char *path = text_file("2\n1\n1\n2\n2\n0\n" Q_MU);
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) cr_assert_eq(gsl_matrix_get(p->W, i, j), 0.0);
    cr_assert_eq(gsl_vector_get(p->q, 0), -1.0);
    fl_local_problem_free(p);
}

Test(cov_io_text, csparse_size_lines_and_counts)
{
    const char *tail = " 0 0 : 1\n" Q_MU;
    char buf[512];
    static const char *const bad_by[] = {"2x2,", "2-by-x,", "2-by-99999999999999999999,", "2-by-2;"};
    for (int k = 0; k < 4; k++) {
        snprintf(buf, sizeof buf, CSP("1") "triplet: %s nzmax: 1 nnz: 1\n%s", bad_by[k], tail);
        expect_text(buf, LOCAL, FL_EPARSE, 8, "expected 'M-by-N,'");
    }
    snprintf(buf, sizeof buf, CSP("1") "triplet: 3-by-2, nzmax: 1 nnz: 1\n%s", tail);
    expect_text(buf, LOCAL, FL_EDIM, 8, "field W CSparse size line: 3-by-2, the header says 2 x 2");
    /* the origin and the printout must agree */
    snprintf(buf, sizeof buf, CSP("2") "triplet: 2-by-2, nzmax: 1 nnz: 1\n%s", tail);
    expect_text(buf, LOCAL, FL_EPARSE, 8, "origin 2 but a triplet printout");
    snprintf(buf, sizeof buf, CSP("1") "2-by-2, nzmax: 1 nnz: 1, 1-norm: 1\n%s", tail);
    expect_text(buf, LOCAL, FL_EPARSE, 8, "origin 1 but a compressed printout");
    /* nnz: negative, overflowing, beyond INT_MAX, with a stray character */
    static const char *const bad_nnz[] = {"-1", "99999999999999999999", "3000000000", "1;"};
    for (int k = 0; k < 4; k++) {
        snprintf(buf, sizeof buf, CSP("1") "triplet: 2-by-2, nzmax: 1 nnz: %s\n%s", bad_nnz[k], tail);
        expect_text(buf, LOCAL, FL_EPARSE, 8, "is not a count");
    }
    /* compressed columns holding 2 entries where nnz says 3 */
    expect_text(CSP("2") "2-by-2, nzmax: 3 nnz: 3, 1-norm: 1\n col 0 : locations 0 to 0\n 0 : 1\n"
                " col 1 : locations 1 to 1\n 1 : 1\n" Q_MU "                                    \n",
                LOCAL, FL_EPARSE, 12, "the columns hold 2 entries, nnz says 3");
    /* a compressed-row H of 3 x 2 (Siconos would read N = 2 blocks of it) */
    expect_text("2\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n2\n3\n2\n3\nCSparse\n"
                "3-by-2, nzmax: 1 nnz: 1, 1-norm: 1\n col 0 : locations 0 to 0\n 0 : 1\n"
                "-1 -1 -1\n0 0\n0.3\n",
                GLOBAL, FL_EUNSUPPORTED, 13, "field H CSparse entries: a compressed-row printout");
}

Test(cov_io_text, the_problem_kind_from_what_follows_the_first_matrix)
{
    int kind = 0;
    cr_assert_eq(fl_siconos_text_kind("unused", NULL, NULL), FL_EINVAL);
    /* q = (5, 2), mu = 2: three integers, but 5 is no storage: local */
    /* q = (1, 7): 7 is not the order 2 of W; q = (1, 2), mu = 5: 5 is not m = 2;
     * q = (-1, 2): no storage -1; a q[0] beyond long: not a header either */
    static const char *const local_tails[] = {"5 2\n2\n", "1 7\n2\n", "1 2\n5\n", "-1 2\n2\n",
                                              "99999999999999999999 2\n2\n"};
    char buf[256];
    for (int k = 0; k < 5; k++) {
        snprintf(buf, sizeof buf, "2\n1\n0\n2\n2\n2 2\n1 0 0 1\n%s", local_tails[k]);
        fl_error err;
        kind = 0;
        cr_assert_eq(fl_siconos_text_kind(text_file(buf), &kind, &err), FL_OK, "%d: %s", k,
                     err.message);
        cr_assert_eq(kind, 1, "tail %d", k);
    }
    /* no contact and nothing after W: local */
    kind = 0;
    cr_assert_eq(fl_siconos_text_kind(text_file("3\n0\n0\n0\n0\n0 0\n        \n"), &kind, NULL), FL_OK);
    cr_assert_eq(kind, 1);
    /* W of order 3 for m = 2 and no H after it: neither form */
    expect_path(text_file("2\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n" Q_MU), LOCAL, 1, 0, FL_EDIM, 5,
                "field W sizes: 3 x 3, expected 2 x 3");
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_siconos_text_kind(text_file("2\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n" Q_MU),
                                      &kind, &err), FL_EDIM);
    cr_assert(strstr(err.message, "field W sizes: 3 x 3, expected 2 x 2 (dim * nc)"), "%s", err.message);
    /* a global file without degree of freedom */
    expect_text("2\n1\n0\n0\n0\n0 0\n0\n0\n2\n0 0\n0.5\n          \n", GLOBAL, FL_EDIM, 0,
                "field M: no degree of freedom");
}

Test(cov_io_text, memory_budget_at_each_allocation)
{
    /* the budget counts 16 bytes per triplet slot, 64 slots at a time, then
     * 8 per value of q and mu, then W itself (dense 8 m^2, sparse 28 nnz +
     * 8 (m + 1)): each limit below falls inside one of those steps */
    const char *local = LOCAL_GOOD;
    expect_path(text_file(local), LOCAL, 1, 100, FL_ENOMEM, 7, "field W(0,0): the problem would need 1024 bytes");
    expect_path(text_file("2\n1\n0\n2\n2\n2 2\n0 0 0 0\n" Q_MU), LOCAL, 1, 8, FL_ENOMEM, 0,
                "field q: the problem would need 16 bytes");
    expect_path(text_file(local), LOCAL, 1, 1060, FL_ENOMEM, 0,
                "field W (dense): the problem would need 1080 bytes");
    expect_path(text_file(local), LOCAL, 0, 1100, FL_ENOMEM, 0,
                "field W (sparse): the problem would need 1128 bytes");
    expect_path(text_file(local), LOCAL, 0, 1128, FL_OK, 0, "");
    /* sparse block: the block tables (8 per entry of 5) */
    expect_path(text_file("2\n1\n1\n2\n2\n1\n1 1\n2\n2\n2\n1\n0 1\n0\n0\n1 0 0 1\n" Q_MU), LOCAL, 1,
                10, FL_ENOMEM, 0, "field W SBM block counts: the problem would need 40 bytes");
    /* CSparse entries: triplet, compressed column, compressed row */
    expect_path(text_file(CSP("1") "triplet: 2-by-2, nzmax: 1 nnz: 1\n 0 0 : 1\n" Q_MU), LOCAL, 1, 100,
                FL_ENOMEM, 9, "field W(0,0): the problem would need 1024 bytes");
    for (int o = 2; o <= 3; o++) {
        char buf[400];
        snprintf(buf, sizeof buf, "2\n1\n2\n2\n2\n%d\nCSparse\n2-by-2, nzmax: 2 nnz: 2, 1-norm: 1\n"
                 " col 0 : locations 0 to 0\n 0 : 1\n col 1 : locations 1 to 1\n 1 : 1\n" Q_MU, o);
        expect_path(text_file(buf), LOCAL, 1, 100, FL_ENOMEM, 10,
                    "field W(0,0): the problem would need 1024 bytes");
    }
    /* global: M = I, H = I (1024 each), f, w (24 each), mu (8): 2104; dense
     * M, H: 144 more; sparse: 2 x (28 x 3 + 8 x 4) = 232 more */
    const char *global = "3\n1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n"
                         "-1 -1 -1\n0 0 0\n0.1\n";
    expect_path(text_file(global), GLOBAL, 1, 2200, FL_ENOMEM, 0,
                "field M, H (dense): the problem would need 2248 bytes");
    expect_path(text_file(global), GLOBAL, 0, 2300, FL_ENOMEM, 0,
                "field M, H (sparse): the problem would need 2336 bytes");
    expect_path(text_file(global), GLOBAL, 0, 2336, FL_OK, 0, "");
}

Test(cov_io_text, duplicates_summing_to_inf_are_refused_by_both_twins)
{
    /* Siconos sums duplicate entries; 1e308 + 1e308 overflows to Inf, which
     * the problem check refuses, naming the matrix */
    const char *w = CSP("1") "triplet: 2-by-2, nzmax: 3 nnz: 3\n 0 0 : 1e308\n 0 0 : 1e308\n"
                    " 1 1 : 1\n" Q_MU;
    expect_path(text_file(w), LOCAL, 1, 0, FL_ENONFINITE, 0, "field W: W");
    expect_path(text_file(w), LOCAL, 0, 0, FL_ENONFINITE, 0, "field W: local problem: sparse W has a NaN/Inf");
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_siconos_text_read(text_file(w), 1, NULL, &p, NULL), FL_ENONFINITE);
    cr_assert_null(p);
    /* global: on the diagonal of M (no asymmetry), dense and sparse */
    const char *g = "3\n1\n2\n3\n3\n1\nCSparse\ntriplet: 3-by-3, nzmax: 4 nnz: 4\n 0 0 : 1e308\n"
                    " 0 0 : 1e308\n 1 1 : 1\n 2 2 : 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n"
                    "-1 -1 -1\n0 0 0\n0.1\n";
    expect_path(text_file(g), GLOBAL, 1, 0, FL_ENONFINITE, 0, "M");
    expect_path(text_file(g), GLOBAL, 0, 0, FL_ENONFINITE, 0, "global problem: sparse M has a NaN/Inf");
    fl_global_problem *gp = NULL;
    fl_read_options o = fl_read_options_default();
    cr_assert_eq(fl_siconos_text_read_global(text_file(g), 1, NULL, &o, &gp, NULL), FL_ENONFINITE);
    cr_assert_null(gp);
    cr_assert_eq(fl_siconos_text_read_global(text_file(g), 1, NULL, &o, NULL, NULL), FL_EINVAL);
    cr_assert_eq(fl_siconos_text_read_global(text_file(g), 0, NULL, &o, &gp, NULL), FL_EINVAL);
}

/* A global M in either symmetric storage, with a 99 in the ignored
 * triangle, is written as the symmetric matrix it stands for, by the
 * Siconos text writer and by the FCLIB writer. */
Test(cov_io_text, writers_expand_either_symmetric_storage)
{
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    char h5[64];
    snprintf(h5, sizeof h5, "/tmp/fl_cov_text_%d.hdf5", (int)getpid());
    for (int k = 0; k < 4; k++) {
        int stype = k % 2 ? 1 : -1, fclib = k / 2;
        fl_global_problem *g = NULL;
        cr_assert_eq(fl_global_problem_alloc(3, 1, 3, 0, &g, NULL), FL_OK);
        g->ctx = &ctx;
        g->Ms = tagged_symmetric(&ctx, stype);
        int hr[] = {0, 1, 2}, hc[] = {0, 1, 2};
        double hx[] = {1, 1, 1};
        cr_assert_eq(fl_sparse_from_triplet(&ctx, 3, 3, 3, hr, hc, hx, 0, &g->Hs, NULL), FL_OK);
        g->mu[0] = 0.3;
        gsl_vector_set_all(g->f, -1);
        const char *path = fclib ? h5 : text_file("");
        fl_error err;
        cr_assert_eq(fclib ? fl_fclib_write_global(path, g, NULL, &err)
                           : fl_siconos_text_write_global(path, g, &err), FL_OK, "%s", err.message);
        fl_global_problem *b = NULL;
        cr_assert_eq(fclib ? fl_fclib_read_global(path, 1, NULL, &b, &err)
                           : fl_siconos_text_read_global(path, 1, NULL, NULL, &b, &err), FL_OK, "%s",
                     err.message);
        expect_tagged(b->M, stype);
        fl_global_problem_free(b);
        fl_global_problem_free(g);
        remove(path);
    }
    fl_sparse_finish(&ctx);
}

Test(cov_io_text, writers_refuse_and_report_failures)
{
    /* local and global problems without contact: empty q, w */
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(0, 3, 1, &p, NULL), FL_OK);
    const char *path = text_file("");
    fl_error err;
    cr_assert_eq(fl_siconos_text_write(path, p, &err), FL_OK, "%s", err.message);
    fl_local_problem *b = NULL;
    cr_assert_eq(fl_siconos_text_read(path, 1, NULL, &b, &err), FL_OK, "%s", err.message);
    cr_assert(b->nc == 0 && b->m == 0 && b->dim == 3);
    fl_local_problem_free(b);
    /* a full device: the write fails at the end, naming the file */
    fl_error_clear(&err);
    cr_assert_eq(fl_siconos_text_write("/dev/full", p, &err), FL_EIO);
    cr_assert_str_eq(err.file, "/dev/full");
    cr_assert(strstr(err.message, "write failed"), "%s", err.message);
    fl_local_problem_free(p);

    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 0, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_vector_set_all(g->f, 1);
    cr_assert_eq(fl_siconos_text_write_global(path, g, &err), FL_OK, "%s", err.message);
    fl_global_problem *gb = NULL;
    cr_assert_eq(fl_siconos_text_read_global(path, 1, NULL, NULL, &gb, &err), FL_OK, "%s", err.message);
    cr_assert(gb->n == 2 && gb->nc == 0 && gsl_vector_get(gb->f, 1) == 1.0);
    fl_global_problem_free(gb);
    cr_assert_eq(fl_siconos_text_write_global(NULL, g, NULL), FL_EINVAL);
    cr_assert_eq(fl_siconos_text_write_global(path, NULL, NULL), FL_EINVAL);
    fl_error_clear(&err);
    cr_assert_eq(fl_siconos_text_write_global("/nonexistent-dir/g.dat", g, &err), FL_EIO);
    cr_assert_str_eq(err.file, "/nonexistent-dir/g.dat");
    cr_assert_eq(fl_siconos_text_write_global("/dev/full", g, &err), FL_EIO);
    cr_assert(strstr(err.message, "write failed"), "%s", err.message);
    gsl_vector_set(g->f, 0, NAN);
    cr_assert_eq(fl_siconos_text_write_global(path, g, &err), FL_ENONFINITE);
    fl_global_problem_free(g);
    remove(path);
}
