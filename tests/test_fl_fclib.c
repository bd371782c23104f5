/* test_fl_fclib.c — FCLIB files (io/fl_fclib.c): round trips of local and
 * global problems with solutions and guesses (dense and sparse, every
 * storage libfclib allows), the H convention checked against libfclib's own
 * reader (an independent implementation), and bad files: missing file,
 * not HDF5, truncated, missing dataset, wrong lengths, NaN, negative mu,
 * bad spacedim, unsupported constraints — each error names file and field. */
#include <criterion/criterion.h>
#include <fclib.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fl_fclib.h"
#include "fl_clock.h"
#include "testkit/fl_random.h"

static char dir[64];

static void mkdir_tmp(void)
{
    snprintf(dir, sizeof dir, "/tmp/fl_fclib_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void rm_tmp(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* A random local problem: W SPD (fl_random_spd), q Gaussian, mu random. */
static fl_local_problem *random_local(gsl_rng *rng, size_t nc, int dim)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(nc, dim, 1, &p, NULL), FL_OK);
    cr_assert_eq(fl_random_spd(rng, 100.0, 1.0, p->W), FL_OK);
    /* symmetrise exactly (fl_local_problem_check tolerates 1e-10) */
    for (size_t i = 0; i < p->m; i++)
        for (size_t j = 0; j < i; j++) gsl_matrix_set(p->W, i, j, gsl_matrix_get(p->W, j, i));
    fl_random_vector(rng, 1.0, p->q);
    for (size_t a = 0; a < nc; a++) p->mu[a] = fl_random_mu(rng);
    return p;
}

static void assert_local_equal(const fl_local_problem *a, const fl_local_problem *b)
{
    cr_assert_eq(a->nc, b->nc, "%s", fl_test_seed_note());
    cr_assert_eq(a->dim, b->dim, "%s", fl_test_seed_note());
    for (size_t k = 0; k < a->nc; k++) cr_assert_eq(a->mu[k], b->mu[k], "%s", fl_test_seed_note());
    for (size_t i = 0; i < a->m; i++) {
        cr_assert_eq(gsl_vector_get(a->q, i), gsl_vector_get(b->q, i), "%s", fl_test_seed_note());
        for (size_t j = 0; j < a->m; j++)
            cr_assert_eq(gsl_matrix_get(a->W, i, j), gsl_matrix_get(b->W, i, j),
                         "W(%zu,%zu) %s", i, j, fl_test_seed_note());
    }
}

Test(fl_fclib, local_round_trip_with_solution_and_guesses)
{
    mkdir_tmp();
    gsl_rng *rng = fl_test_rng(11);
    char path[128];
    path_in(path, sizeof path, "local.hdf5");
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = random_local(rng, 4, dim), *back = NULL;
        /* a zero entry and a zero q component survive */
        gsl_matrix_set(p->W, 0, p->m - 1, 0.0);
        gsl_matrix_set(p->W, p->m - 1, 0, 0.0);
        gsl_vector_set(p->q, 1, 0.0);
        fl_error err;
        cr_assert_eq(fl_fclib_write_local(path, p, "round trip", &err), FL_OK, "%s", err.message);
        int kind = 0;
        cr_assert_eq(fl_fclib_kind(path, &kind, NULL), FL_OK);
        cr_assert_eq(kind, 1);
        cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &back, &err), FL_OK, "%s", err.message);
        assert_local_equal(p, back);
        /* no solution yet */
        fl_fclib_solution *s = NULL, *s2 = NULL;
        cr_assert_eq(fl_fclib_read_solution(path, &s2, &err), FL_ENOTFOUND);
        cr_assert(strstr(err.message, "solution") != NULL);
        cr_assert_str_eq(err.file, path);
        fl_fclib_solution **gs = NULL;
        size_t ng = 0;
        cr_assert_eq(fl_fclib_read_guesses(path, &gs, &ng, &err), FL_ENOTFOUND);
        /* solution, written twice (the second replaces the first) */
        cr_assert_eq(fl_fclib_solution_alloc(0, p->m, &s, NULL), FL_OK);
        cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
        for (size_t i = 0; i < p->m; i++) {
            s->r[i] = gsl_rng_uniform(rng);
            s->u[i] = -gsl_rng_uniform(rng);
        }
        cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
        cr_assert_eq(fl_fclib_read_solution(path, &s2, &err), FL_OK, "%s", err.message);
        cr_assert_null(s2->v);
        for (size_t i = 0; i < p->m; i++) {
            cr_assert_eq(s2->r[i], s->r[i]);
            cr_assert_eq(s2->u[i], s->u[i]);
        }
        /* three guesses */
        fl_fclib_solution *g[3];
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(fl_fclib_solution_alloc(0, p->m, &g[k], NULL), FL_OK);
            for (size_t i = 0; i < p->m; i++) {
                g[k]->r[i] = k + 0.5 * (double)i;
                g[k]->u[i] = -k - (double)i;
            }
        }
        cr_assert_eq(fl_fclib_write_guesses(path, 3, (const fl_fclib_solution *const *)g, &err),
                     FL_OK, "%s", err.message);
        cr_assert_eq(fl_fclib_write_guesses(path, 3, (const fl_fclib_solution *const *)g, &err),
                     FL_OK, "%s", err.message);
        cr_assert_eq(fl_fclib_read_guesses(path, &gs, &ng, &err), FL_OK, "%s", err.message);
        cr_assert_eq(ng, 3);
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < p->m; i++) {
                cr_assert_eq(gs[k]->r[i], g[k]->r[i]);
                cr_assert_eq(gs[k]->u[i], g[k]->u[i]);
            }
        /* the problem is unchanged by the additions; sparse read agrees */
        fl_local_problem_free(back);
        fl_sparse_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
        cr_assert_eq(fl_fclib_read_local(path, 0, &ctx, &back, &err), FL_OK, "%s", err.message);
        cr_assert_null(back->W);
        cr_assert_not_null(back->Ws);
        cr_assert_eq(fl_sparse_to_dense(&ctx, back->Ws, &back->W, NULL), FL_OK);
        assert_local_equal(p, back);
        /* writing from the sparse W gives the same file content */
        char path2[128];
        path_in(path2, sizeof path2, "local_sparse.hdf5");
        gsl_matrix_free(back->W);
        back->W = NULL;
        cr_assert_eq(fl_fclib_write_local(path2, back, NULL, &err), FL_OK, "%s", err.message);
        fl_local_problem *back2 = NULL;
        cr_assert_eq(fl_fclib_read_local(path2, 1, NULL, &back2, &err), FL_OK, "%s", err.message);
        assert_local_equal(p, back2);
        fl_local_problem_free(back2);
        fl_local_problem_free(back);
        fl_sparse_finish(&ctx);
        for (int k = 0; k < 3; k++) fl_fclib_solution_free(g[k]);
        fl_fclib_guesses_free(gs, ng);
        fl_fclib_solution_free(s);
        fl_fclib_solution_free(s2);
        fl_local_problem_free(p);
    }
    gsl_rng_free(rng);
    rm_tmp();
}

/* libfclib's own writer with triplet (nz >= 0) and compressed-row (nz = -2)
 * storage: our reader must give the same dense W. */
Test(fl_fclib, reads_triplet_and_row_storage_written_by_libfclib)
{
    mkdir_tmp();
    /* W = [[4,1,0,0],[1,3,0,2],[0,0,5,0],[0,2,0,6]] (2 contacts in 2D) */
    double Wd[4][4] = {{4, 1, 0, 0}, {1, 3, 0, 2}, {0, 0, 5, 0}, {0, 2, 0, 6}};
    int tr[8] = {0, 0, 1, 1, 1, 2, 3, 3}, tc[8] = {0, 1, 0, 1, 3, 2, 1, 3};
    double tx[8] = {4, 1, 1, 3, 2, 5, 2, 6};
    /* CSR: rows 0..3 */
    int rp[5] = {0, 2, 5, 6, 8}, ci[8] = {0, 1, 0, 1, 3, 2, 1, 3};
    double q[4] = {-1, 0.5, -2, 0.25}, mu[2] = {0.3, 0.7};
    for (int form = 0; form < 2; form++) {
        struct fclib_matrix W;
        memset(&W, 0, sizeof W);
        W.nzmax = 8;
        W.m = 4;
        W.n = 4;
        if (form == 0) {
            W.p = tr;
            W.i = tc;
            W.nz = 8;
        } else {
            W.p = rp;
            W.i = ci;
            W.nz = -2;
        }
        W.x = tx;
        struct fclib_local L;
        memset(&L, 0, sizeof L);
        L.W = &W;
        L.mu = mu;
        L.q = q;
        L.spacedim = 2;
        char path[128];
        path_in(path, sizeof path, form ? "csr.hdf5" : "triplet.hdf5");
        cr_assert_eq(fclib_write_local(&L, path), 1);
        fl_local_problem *p = NULL;
        fl_error err;
        cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
        for (int i = 0; i < 4; i++) {
            cr_assert_eq(gsl_vector_get(p->q, i), q[i]);
            for (int j = 0; j < 4; j++) cr_assert_eq(gsl_matrix_get(p->W, i, j), Wd[i][j]);
        }
        cr_assert_eq(p->mu[1], 0.7);
        fl_local_problem_free(p);
    }
    rm_tmp();
}

Test(fl_fclib, global_round_trip_and_libfclib_h_convention)
{
    mkdir_tmp();
    gsl_rng *rng = fl_test_rng(12);
    char path[128];
    path_in(path, sizeof path, "global.hdf5");
    fl_global_problem *g = NULL, *back = NULL;
    cr_assert_eq(fl_global_problem_random(rng, 7, 2, 3, 0.1, 1.0, &g, NULL), FL_OK);
    fl_random_vector(rng, 1.0, g->w);
    fl_error err;
    cr_assert_eq(fl_fclib_write_global(path, g, "global", &err), FL_OK, "%s", err.message);
    int kind = 0;
    cr_assert_eq(fl_fclib_kind(path, &kind, NULL), FL_OK);
    cr_assert_eq(kind, 2);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &back, &err), FL_OK, "%s", err.message);
    cr_assert_eq(back->n, 7);
    cr_assert_eq(back->m, 6);
    for (size_t i = 0; i < 7; i++) {
        cr_assert_eq(gsl_vector_get(back->f, i), gsl_vector_get(g->f, i));
        for (size_t j = 0; j < 7; j++)
            cr_assert_eq(gsl_matrix_get(back->M, i, j), gsl_matrix_get(g->M, i, j));
    }
    for (size_t i = 0; i < 6; i++) {
        cr_assert_eq(gsl_vector_get(back->w, i), gsl_vector_get(g->w, i));
        for (size_t j = 0; j < 7; j++)
            cr_assert_eq(gsl_matrix_get(back->H, i, j), gsl_matrix_get(g->H, i, j));
    }
    /* libfclib's reader (independent): its H is n x m and equals our H^T, so
     * that its u = H^T v + w is our U = H v + w. */
    struct fclib_global *fg = fclib_read_global(path);
    cr_assert_not_null(fg);
    cr_assert_eq(fg->H->m, 7);
    cr_assert_eq(fg->H->n, 6);
    cr_assert_eq(fg->H->nz, -1);
    for (int j = 0; j < fg->H->n; j++)
        for (int e = fg->H->p[j]; e < fg->H->p[j + 1]; e++)
            cr_assert_eq(fg->H->x[e], gsl_matrix_get(g->H, (size_t)j, (size_t)fg->H->i[e]));
    fclib_delete_global(fg);
    free(fg);
    /* solution with v, and one guess */
    fl_fclib_solution *s = NULL, *s2 = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(7, 6, &s, NULL), FL_OK);
    for (size_t i = 0; i < 7; i++) s->v[i] = (double)i - 3;
    for (size_t i = 0; i < 6; i++) s->r[i] = (double)i;
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_fclib_read_solution(path, &s2, &err), FL_OK, "%s", err.message);
    for (size_t i = 0; i < 7; i++) cr_assert_eq(s2->v[i], s->v[i]);
    for (size_t i = 0; i < 6; i++) cr_assert_eq(s2->r[i], s->r[i]);
    const fl_fclib_solution *one[1] = {s};
    cr_assert_eq(fl_fclib_write_guesses(path, 1, one, &err), FL_OK, "%s", err.message);
    fl_fclib_solution **gs = NULL;
    size_t ng = 0;
    cr_assert_eq(fl_fclib_read_guesses(path, &gs, &ng, &err), FL_OK, "%s", err.message);
    cr_assert_eq(ng, 1);
    cr_assert_eq(gs[0]->v[6], 3.0);
    fl_fclib_guesses_free(gs, ng);
    /* a local-sized solution is refused for a global problem */
    fl_fclib_solution *bad = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 6, &bad, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(path, bad, &err), FL_EDIM);
    cr_assert(strstr(err.message, "solution") != NULL);
    fl_fclib_solution_free(bad);
    /* sparse read: Ms (upper) and Hs */
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_global_problem *sp = NULL;
    cr_assert_eq(fl_fclib_read_global(path, 0, &ctx, &sp, &err), FL_OK, "%s", err.message);
    gsl_matrix *Md = NULL, *Hd = NULL;
    cr_assert_eq(fl_sparse_to_dense(&ctx, sp->Ms, &Md, NULL), FL_OK);
    cr_assert_eq(fl_sparse_to_dense(&ctx, sp->Hs, &Hd, NULL), FL_OK);
    for (size_t i = 0; i < 7; i++)
        for (size_t j = 0; j < 7; j++)
            cr_assert_float_eq(gsl_matrix_get(Md, i, j), gsl_matrix_get(g->M, i, j), 1e-15);
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 7; j++)
            cr_assert_eq(gsl_matrix_get(Hd, i, j), gsl_matrix_get(g->H, i, j));
    /* and written back from the sparse members */
    char path2[128];
    path_in(path2, sizeof path2, "global_sparse.hdf5");
    cr_assert_eq(fl_fclib_write_global(path2, sp, NULL, &err), FL_OK, "%s", err.message);
    fl_global_problem *b2 = NULL;
    cr_assert_eq(fl_fclib_read_global(path2, 1, NULL, &b2, &err), FL_OK, "%s", err.message);
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 7; j++)
            cr_assert_eq(gsl_matrix_get(b2->H, i, j), gsl_matrix_get(g->H, i, j));
    for (size_t i = 0; i < 7; i++)
        for (size_t j = 0; j < 7; j++)
            cr_assert_float_eq(gsl_matrix_get(b2->M, i, j), gsl_matrix_get(g->M, i, j), 1e-15);
    /* a global file is not a local one */
    fl_local_problem *lp = NULL;
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &lp, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "fclib_local") != NULL);
    fl_global_problem_free(b2);
    gsl_matrix_free(Md);
    gsl_matrix_free(Hd);
    fl_global_problem_free(sp);
    fl_sparse_finish(&ctx);
    fl_fclib_solution_free(s);
    fl_fclib_solution_free(s2);
    fl_global_problem_free(back);
    fl_global_problem_free(g);
    gsl_rng_free(rng);
    rm_tmp();
}

/* ---- bad files ---- */

/* Replace dataset `name` of the file by `n` doubles (or ints). */
static void put_dataset(const char *path, const char *name, const void *data, size_t n, int ints)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert(f >= 0);
    if (H5Lexists(f, name, H5P_DEFAULT) > 0) H5Ldelete(f, name, H5P_DEFAULT);
    if (data) {
        hsize_t dims[1] = {n};
        hid_t sp = H5Screate_simple(1, dims, NULL);
        hid_t ds = H5Dcreate2(f, name, ints ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT);
        cr_assert(ds >= 0);
        H5Dwrite(ds, ints ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        H5Dclose(ds);
        H5Sclose(sp);
    }
    H5Fclose(f);
}

static void write_good(const char *path)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p, NULL), FL_OK);
    for (size_t i = 0; i < 4; i++) gsl_matrix_set(p->W, i, i, 2.0 + (double)i);
    gsl_matrix_set(p->W, 0, 1, 0.5);
    gsl_matrix_set(p->W, 1, 0, 0.5);
    gsl_vector_set(p->q, 0, -1.0);
    p->mu[0] = 0.5;
    p->mu[1] = 0.2;
    cr_assert_eq(fl_fclib_write_local(path, p, NULL, NULL), FL_OK);
    fl_local_problem_free(p);
}

static void expect_bad(const char *path, fl_status want, const char *field)
{
    fl_local_problem *p = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_fclib_read_local(path, 1, NULL, &p, &err);
    cr_assert_eq(s, want, "status %d, want %d: %s", s, want, err.message);
    cr_assert_null(p);
    cr_assert_str_eq(err.file, path);
    cr_assert(strstr(err.message, field) != NULL, "message '%s' should name '%s'", err.message,
              field);
}

Test(fl_fclib, bad_files_name_file_and_field)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "bad.hdf5");
    /* missing file */
    char none[128];
    path_in(none, sizeof none, "none.hdf5");
    expect_bad(none, FL_EIO, "cannot open");
    /* not HDF5 */
    FILE *f = fopen(path, "w");
    fputs("2\n1\n1 0\n0 1\n", f);
    fclose(f);
    expect_bad(path, FL_EPARSE, "not an HDF5");
    int kind;
    cr_assert_eq(fl_fclib_kind(path, &kind, NULL), FL_EPARSE);
    /* truncated: the first half of a good file */
    write_good(path);
    f = fopen(path, "rb");
    char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    f = fopen(path, "wb");
    fwrite(buf, 1, len / 2, f);
    fclose(f);
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_lt(fl_fclib_read_local(path, 1, NULL, &p, &err), 0);
    cr_assert_str_eq(err.file, path);
    cr_assert_null(p);
    /* missing dataset */
    write_good(path);
    put_dataset(path, "/fclib_local/vectors/q", NULL, 0, 0);
    expect_bad(path, FL_EPARSE, "fclib_local/vectors/q");
    /* wrong length of q */
    write_good(path);
    double q3[3] = {1, 2, 3};
    put_dataset(path, "/fclib_local/vectors/q", q3, 3, 0);
    expect_bad(path, FL_EDIM, "fclib_local/vectors/q");
    /* NaN in q */
    write_good(path);
    double qn[4] = {1, NAN, 0, 0};
    put_dataset(path, "/fclib_local/vectors/q", qn, 4, 0);
    expect_bad(path, FL_ENONFINITE, "fclib_local/vectors/q");
    /* Inf in W */
    write_good(path);
    double wx[6] = {2, 0.5, 0.5, INFINITY, 4, 5};
    put_dataset(path, "/fclib_local/W/x", wx, 6, 0);
    expect_bad(path, FL_ENONFINITE, "fclib_local/W/x");
    /* negative mu */
    write_good(path);
    double mneg[2] = {0.5, -0.1};
    put_dataset(path, "/fclib_local/vectors/mu", mneg, 2, 0);
    expect_bad(path, FL_EINVAL, "fclib_local/vectors/mu");
    /* mu of length 3: m = 6 does not match W (4 x 4) */
    write_good(path);
    double m3[3] = {0.5, 0.1, 0.2};
    put_dataset(path, "/fclib_local/vectors/mu", m3, 3, 0);
    expect_bad(path, FL_EDIM, "fclib_local/vectors/q");
    /* W 4 x 5 */
    write_good(path);
    int five = 5;
    put_dataset(path, "/fclib_local/W/n", &five, 1, 1);
    expect_bad(path, FL_EDIM, "fclib_local/W");
    /* spacedim 4 */
    write_good(path);
    int four = 4;
    put_dataset(path, "/fclib_local/spacedim", &four, 1, 1);
    expect_bad(path, FL_EPARSE, "fclib_local/spacedim");
    /* spacedim stored as a double */
    write_good(path);
    double dtwo = 2.0;
    put_dataset(path, "/fclib_local/spacedim", &dtwo, 1, 0);
    expect_bad(path, FL_EPARSE, "fclib_local/spacedim");
    /* row index out of range */
    write_good(path);
    int ibad[6] = {0, 1, 0, 9, 2, 3};
    put_dataset(path, "/fclib_local/W/i", ibad, 6, 1);
    expect_bad(path, FL_EPARSE, "fclib_local/W/i");
    /* decreasing column pointers */
    write_good(path);
    int pbad[5] = {0, 3, 2, 5, 6};
    put_dataset(path, "/fclib_local/W/p", pbad, 5, 1);
    expect_bad(path, FL_EPARSE, "fclib_local/W/p");
    /* unknown storage */
    write_good(path);
    int nz7 = -7;
    put_dataset(path, "/fclib_local/W/nz", &nz7, 1, 1);
    expect_bad(path, FL_EPARSE, "fclib_local/W/nz");
    /* a non-symmetric W is a valid problem (real files have them), read as is */
    write_good(path);
    double wu[6] = {2, 0.5, 0.7, 3, 4, 5};
    put_dataset(path, "/fclib_local/W/x", wu, 6, 0);
    {
        fl_local_problem *pu = NULL;
        cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &pu, &err), FL_OK, "%s", err.message);
        cr_assert_eq(gsl_matrix_get(pu->W, 1, 0), 0.5);
        cr_assert_eq(gsl_matrix_get(pu->W, 0, 1), 0.7);
        cr_assert_eq(fl_local_problem_check_symmetric(pu, "test", &err), FL_EINVAL);
        cr_assert(strstr(err.message, "W(1,0) - W(0,1)") != NULL, "%s", err.message);
        fl_local_problem_free(pu);
    }
    /* FCLIB's equality constraints are refused */
    write_good(path);
    double s1[1] = {0};
    put_dataset(path, "/fclib_local/vectors/s", s1, 1, 0);
    expect_bad(path, FL_EUNSUPPORTED, "fclib_local/vectors/s");
    /* a solution with NaN, of the wrong size, on a non-HDF5 path */
    write_good(path);
    fl_fclib_solution *s = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &s, NULL), FL_OK);
    s->r[2] = NAN;
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_ENONFINITE);
    s->r[2] = 0;
    cr_assert_eq(fl_fclib_write_solution(none, s, &err), FL_EIO);
    fl_fclib_solution_free(s);
    cr_assert_eq(fl_fclib_solution_alloc(0, 6, &s, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EDIM);
    const fl_fclib_solution *one[1] = {s};
    cr_assert_eq(fl_fclib_write_guesses(path, 1, one, &err), FL_EDIM);
    cr_assert_eq(fl_fclib_write_guesses(path, 0, one, &err), FL_EINVAL);
    fl_fclib_solution_free(s);
    /* a truncated solution dataset */
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &s, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK);
    put_dataset(path, "/solution/u", q3, 3, 0);
    fl_fclib_solution *s2 = NULL;
    cr_assert_eq(fl_fclib_read_solution(path, &s2, &err), FL_EDIM);
    cr_assert(strstr(err.message, "solution/u") != NULL, "%s", err.message);
    cr_assert_eq(fl_fclib_write_guesses(path, 1, (const fl_fclib_solution *const *)&s, &err), FL_OK);
    int zero = 0;
    put_dataset(path, "/guesses/number_of_guesses", &zero, 1, 1);
    fl_fclib_solution **gs = NULL;
    size_t ng = 7;
    cr_assert_eq(fl_fclib_read_guesses(path, &gs, &ng, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "guesses/number_of_guesses") != NULL, "%s", err.message);
    cr_assert_eq(ng, 0);
    fl_fclib_solution_free(s);
    /* unwritable path */
    write_good(path);
    fl_local_problem *lp = NULL;
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &lp, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_local("/nonexistent-dir/x.hdf5", lp, NULL, &err), FL_EIO);
    cr_assert_eq(fl_fclib_read_local(path, 0, NULL, &p, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_read_local(NULL, 1, NULL, &p, &err), FL_EINVAL);
    /* a bad problem is not written */
    lp->mu[0] = NAN;
    cr_assert_lt(fl_fclib_write_local(path, lp, NULL, &err), 0);
    fl_local_problem_free(lp);
    /* global: bad files */
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &g, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "fclib_global") != NULL);
    cr_assert_eq(fl_fclib_read_global(none, 1, NULL, &g, &err), FL_EIO);
    rm_tmp();
}

Test(fl_fclib, bad_global_files)
{
    mkdir_tmp();
    gsl_rng *rng = fl_test_rng(13);
    char path[128];
    path_in(path, sizeof path, "g.hdf5");
    fl_global_problem *g = NULL, *b = NULL;
    fl_error err;
    cr_assert_eq(fl_global_problem_random(rng, 5, 2, 2, 0.1, 1.0, &g, NULL), FL_OK);
    /* H stored as m x n (the library's orientation) is refused by its shape */
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_OK, "%s", err.message);
    int four = 4, five = 5;
    put_dataset(path, "/fclib_global/H/m", &four, 1, 1);
    put_dataset(path, "/fclib_global/H/n", &five, 1, 1);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &b, &err), FL_EDIM);
    cr_assert(strstr(err.message, "fclib_global/H") != NULL, "%s", err.message);
    /* f of wrong length */
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_OK);
    double f3[3] = {1, 2, 3};
    put_dataset(path, "/fclib_global/vectors/f", f3, 3, 0);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &b, &err), FL_EDIM);
    cr_assert(strstr(err.message, "fclib_global/vectors/f") != NULL, "%s", err.message);
    /* G present: unsupported */
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_OK);
    put_dataset(path, "/fclib_global/vectors/b", f3, 1, 0);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &b, &err), FL_EUNSUPPORTED);
    /* n = 0 */
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_OK);
    int zero = 0;
    put_dataset(path, "/fclib_global/M/n", &zero, 1, 1);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &b, &err), FL_EDIM);
    cr_assert_eq(fl_fclib_read_global(path, 0, NULL, &b, &err), FL_EINVAL);
    /* writing a global problem with NaN or bad sizes */
    gsl_vector_set(g->f, 0, NAN);
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_ENONFINITE);
    gsl_vector_set(g->f, 0, 0);
    gsl_matrix *H = g->H;
    g->H = gsl_matrix_calloc(3, 5);
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_EDIM);
    gsl_matrix_free(g->H);
    g->H = NULL;
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_EINVAL);
    g->H = H;
    cr_assert_eq(fl_fclib_write_global(path, NULL, NULL, &err), FL_EINVAL);
    fl_global_problem_free(g);
    gsl_rng_free(rng);
    rm_tmp();
}

/* ---- issue-19 reproducers: huge declared sizes, refused fast ---- */

/* A chunked dataset of extent n holding no data (HDF5 reads it as zeros):
 * a tiny file that declares a huge array. */
static void put_empty(const char *path, const char *name, size_t n, int ints)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert(f >= 0);
    if (H5Lexists(f, name, H5P_DEFAULT) > 0) H5Ldelete(f, name, H5P_DEFAULT);
    hsize_t dims[1] = {n}, chunk[1] = {n < 1024 ? n : 1024};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(pl, 1, chunk);
    hid_t ds = H5Dcreate2(f, name, ints ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, pl,
                          H5P_DEFAULT);
    cr_assert(ds >= 0);
    H5Dclose(ds);
    H5Pclose(pl);
    H5Sclose(sp);
    H5Fclose(f);
}

static void put_int(const char *path, const char *name, int v)
{
    put_dataset(path, name, &v, 1, 1);
}

#include <sys/resource.h>
#include <time.h>

/* Peak resident memory of this (Criterion-forked) test process, bytes. */
static double peak_bytes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return 1024.0 * (double)ru.ru_maxrss;
}

Test(fl_fclib, huge_declared_sizes_refused_fast_and_small)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "huge.hdf5");
    fl_error err;
    fl_local_problem *p = NULL;
    fl_global_problem *g = NULL;
    double t0 = fl_clock_now();
    /* local m = 1e5: mu 5e4 and q 1e5 declared, W 1e5 x 1e5 with empty
     * column pointers; a dense W would take 80 GB: over the memory cap */
    write_good(path);
    put_empty(path, "/fclib_local/vectors/mu", 50000, 0);
    put_empty(path, "/fclib_local/vectors/q", 100000, 0);
    put_int(path, "/fclib_local/W/m", 100000);
    put_int(path, "/fclib_local/W/n", 100000);
    put_empty(path, "/fclib_local/W/p", 100001, 1);
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &p, &err), FL_ENOMEM, "%s", err.message);
    cr_assert(strstr(err.message, "would need 80") != NULL, "%s", err.message);
    cr_assert_null(p);
    /* global n = 1e5: M 1e5 x 1e5 */
    fl_global_problem *g0 = NULL;
    cr_assert_eq(fl_global_problem_alloc(3, 1, 2, 1, &g0, NULL), FL_OK);
    gsl_matrix_set_identity(g0->M);
    gsl_matrix_set(g0->H, 0, 0, 1.0);
    g0->mu[0] = 0.3;
    cr_assert_eq(fl_fclib_write_global(path, g0, NULL, &err), FL_OK, "%s", err.message);
    fl_global_problem_free(g0);
    put_empty(path, "/fclib_global/vectors/f", 100000, 0);
    put_int(path, "/fclib_global/M/m", 100000);
    put_int(path, "/fclib_global/M/n", 100000);
    put_empty(path, "/fclib_global/M/p", 100001, 1);
    put_int(path, "/fclib_global/H/m", 100000);
    put_empty(path, "/fclib_global/H/p", 3, 1);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &g, &err), FL_ENOMEM, "%s", err.message);
    cr_assert(strstr(err.message, "fclib_global/M,H (dense)") != NULL, "%s", err.message);
    cr_assert_null(g);
    /* extents of 2e8: triplets nz = 2e8 over arrays the file holds no data for */
    write_good(path);
    put_int(path, "/fclib_local/W/nz", 200000000);
    put_empty(path, "/fclib_local/W/p", 200000000, 1);
    put_empty(path, "/fclib_local/W/i", 200000000, 1);
    put_empty(path, "/fclib_local/W/x", 200000000, 0);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    cr_assert_eq(fl_fclib_read_local(path, 0, &ctx, &p, &err), FL_EPARSE, "%s", err.message);
    cr_assert(strstr(err.message, "fclib_local/W/p") != NULL &&
              strstr(err.message, "stores only") != NULL, "%s", err.message);
    fl_sparse_finish(&ctx);
    /* a solution of a problem declaring W/m = 1e9 */
    write_good(path);
    fl_fclib_solution *s = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &s, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
    fl_fclib_solution_free(s);
    s = NULL;
    put_int(path, "/fclib_local/W/m", 1000000000);
    put_empty(path, "/solution/r", 1000000000, 0);
    cr_assert_eq(fl_fclib_read_solution(path, &s, &err), FL_EDIM, "%s", err.message);
    cr_assert(strstr(err.message, "W/m = 1000000000 but q has length 4") != NULL, "%s",
              err.message);
    cr_assert_null(s);
    double dt = fl_clock_now() - t0, mem = peak_bytes();
    cr_assert_lt(dt, 4.0, "four reproducers took %g s", dt);
    cr_assert_lt(mem, 100e6, "peak memory %g bytes", mem);
    /* not a regular file */
    cr_assert_eq(fl_fclib_read_local("/dev/zero", 1, NULL, &p, &err), FL_EIO);
    cr_assert(strstr(err.message, "not a regular file") != NULL, "%s", err.message);
    cr_assert_eq(fl_fclib_read_local("/tmp", 1, NULL, &p, &err), FL_EIO);
    cr_assert(strstr(err.message, "is a directory") != NULL, "%s", err.message);
    rm_tmp();
}

/* The writer's three matrix forms, read back exactly, and laid out as the
 * real files are: libfclib's own reader returns arrays where, in triplet
 * form, i is the row and p the column of each entry (W is made
 * nonsymmetric so that a swap would show). */
Test(fl_fclib, three_matrix_forms_written_and_read)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "forms.hdf5");
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 3, 1, &p, NULL), FL_OK);
    for (size_t i = 0; i < 6; i++) gsl_matrix_set(p->W, i, i, 2.0 + (double)i);
    gsl_matrix_set(p->W, 0, 4, 0.25);     /* only above the diagonal: nonsymmetric */
    gsl_matrix_set(p->W, 5, 1, -0.125);   /* only below */
    for (size_t i = 0; i < 6; i++) gsl_vector_set(p->q, i, 0.1 * (double)i - 0.2);
    p->mu[0] = 0.3;
    p->mu[1] = 0.7;
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(5, 1, 3, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set(g->M, 0, 1, 0.5);
    gsl_matrix_set(g->M, 1, 0, 0.5);
    gsl_matrix_set(g->H, 0, 4, 1.5);      /* H (3 x 5): FCLIB stores H^T (5 x 3) */
    gsl_matrix_set(g->H, 2, 1, -2.0);
    g->mu[0] = 0.4;
    gsl_vector_set(g->f, 3, 1.0);
    static const fl_fclib_storage forms[3] = {FL_FCLIB_TRIPLET, FL_FCLIB_CSC, FL_FCLIB_CSR};
    for (int k = 0; k < 3; k++) {
        fl_error err;
        cr_assert_eq(fl_fclib_write_local_as(path, p, NULL, forms[k], &err), FL_OK, "%s", err.message);
        struct fclib_local *L = fclib_read_local(path);
        cr_assert_not_null(L);
        cr_assert_eq(L->W->nz, forms[k] == FL_FCLIB_TRIPLET ? 8 : (int)forms[k]);
        if (forms[k] == FL_FCLIB_TRIPLET)
            for (int e = 0; e < L->W->nz; e++)
                cr_assert_eq(L->W->x[e], gsl_matrix_get(p->W, (size_t)L->W->i[e], (size_t)L->W->p[e]),
                             "triplet %d: i must be the row, p the column", e);
        fclib_delete_local(L);
        fl_local_problem *b = NULL;
        cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &b, &err), FL_OK, "%s", err.message);
        for (size_t i = 0; i < 6; i++)
            for (size_t j = 0; j < 6; j++)
                cr_assert_eq(gsl_matrix_get(b->W, i, j), gsl_matrix_get(p->W, i, j));
        fl_local_problem_free(b);
        cr_assert_eq(fl_fclib_write_global_as(path, g, NULL, forms[k], &err), FL_OK, "%s", err.message);
        struct fclib_global *G = fclib_read_global(path);
        cr_assert_not_null(G);
        cr_assert(G->H->m == 5 && G->H->n == 3, "FCLIB H is n x m");
        if (forms[k] == FL_FCLIB_TRIPLET)
            for (int e = 0; e < G->H->nz; e++)   /* FCLIB H(i, p) = our H(p, i) */
                cr_assert_eq(G->H->x[e], gsl_matrix_get(g->H, (size_t)G->H->p[e], (size_t)G->H->i[e]));
        fclib_delete_global(G);
        fl_global_problem *h = NULL;
        cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &h, &err), FL_OK, "%s", err.message);
        for (size_t i = 0; i < 5; i++) {
            for (size_t j = 0; j < 5; j++) cr_assert_eq(gsl_matrix_get(h->M, i, j), gsl_matrix_get(g->M, i, j));
            for (size_t j = 0; j < 3; j++) cr_assert_eq(gsl_matrix_get(h->H, j, i), gsl_matrix_get(g->H, j, i));
        }
        fl_global_problem_free(h);
    }
    fl_local_problem_free(p);
    fl_global_problem_free(g);
    rm_tmp();
}

/* ---- reproducers of the fuzzing campaign (fuzz/regression/fclib_*) ------ */

static char regression_path[1024];

static const char *regression(const char *sub, const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (run through meson test)");
    snprintf(regression_path, sizeof regression_path, "%s/fuzz/regression/%s/%s", root, sub,
             name);
    return regression_path;
}

/* A 17 KB file whose /guesses/number_of_guesses says 2^29 (the fuzzer's
 * calloc of 4 GiB): the count is bounded by the groups stored under
 * /guesses before anything is allocated. */
Test(fl_fclib, regression_guesses_count_bounded_by_the_groups_present)
{
    const char *path = regression("fclib_solution", "guesses_count_unbounded.hdf5");
    fl_fclib_solution **g = NULL;
    size_t count = 7;
    fl_error err;
    double t0 = fl_clock_now();
    fl_status s = fl_fclib_read_guesses(path, &g, &count, &err);
    cr_assert_eq(s, FL_EDIM, "%d: %s", (int)s, err.message);
    cr_assert_null(g);
    cr_assert_eq(count, 0);
    cr_assert_str_eq(err.file, path);
    cr_assert(strstr(err.message, "guesses/number_of_guesses") != NULL &&
              strstr(err.message, "group holds only") != NULL, "%s", err.message);
    cr_assert_lt(fl_clock_now() - t0, 1.0);
    cr_assert_lt(peak_bytes(), 100e6);
}

/* Global files that HDF5 itself leaks on (see fuzz/lsan.supp): a clean
 * error naming the file and the dataset, and no HDF5 identifier left open. */
static void assert_global_refused(const char *name, const char *field)
{
    const char *path = regression("fclib_global", name);
    for (int dense = 0; dense <= 1; dense++) {
        fl_sparse_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        if (!dense) cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
        fl_global_problem *g = NULL;
        fl_error err;
        fl_status s = fl_fclib_read_global(path, dense, dense ? NULL : &ctx, &g, &err);
        cr_assert_lt(s, 0);
        cr_assert_null(g);
        cr_assert_str_eq(err.file, path);
        cr_assert(strstr(err.message, field) != NULL, "%s: %s", name, err.message);
        cr_assert_eq(H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
        if (!dense) fl_sparse_finish(&ctx);
    }
}

Test(fl_fclib, regression_corrupt_object_header_clean_error)
{
    assert_global_refused("hdf5_corrupt_object_header.hdf5", "fclib_global/H/p");
}

/* A dataset whose layout message is corrupt (HDF5 leaks on it too, second
 * entry of fuzz/lsan.supp). */
Test(fl_fclib, regression_corrupt_layout_message_clean_error)
{
    assert_global_refused("hdf5_corrupt_layout_message.hdf5", "fclib_global/vectors/mu");
}

/* A fuzz finding: H/nz declared as one int stored compact (in the object
 * header) with no bytes, which HDF5 1.10.8's H5Dread copies from a null
 * pointer.  The reader checks a compact dataset's stored bytes first. */
Test(fl_fclib, regression_compact_dataset_without_data_refused)
{
    assert_global_refused("hdf5_compact_dataset_without_data.hdf5", "fclib_global/H/nz");
    const char *path = regression("fclib_global", "hdf5_compact_dataset_without_data.hdf5");
    fl_global_problem *g = NULL;
    fl_error err;
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &g, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "compact dataset of 1 values whose header holds only 0 bytes"),
              "%s", err.message);
}

/* ---- every dataset of a good file, broken in turn, is refused by name ---- */

typedef struct ds_list {
    char name[32][128];
    int n;
} ds_list;

static herr_t collect_dataset(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
    (void)obj;
    ds_list *l = data;
    if (info->type == H5O_TYPE_DATASET && l->n < 32)
        snprintf(l->name[l->n++], sizeof l->name[0], "/%s", name);
    return 0;
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    cr_assert(a && b, "copy %s -> %s", from, to);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0) cr_assert_eq(fwrite(buf, 1, n, b), n);
    fclose(a);
    fclose(b);
}

/* Replace dataset `name` of `path` by: 0 nothing (deleted), 1 a 2 x 2
 * dataset of doubles, 2 a 1-D dataset of strings, 3 a group, 4 a 1-D
 * dataset of doubles (for an integer field). */
static void break_dataset(const char *path, const char *name, int how)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert(f >= 0);
    /* strings and doubles keep the original length: only the type is wrong */
    hsize_t len = 1;
    hid_t old = H5Dopen2(f, name, H5P_DEFAULT), osp = H5Dget_space(old);
    if (H5Sget_simple_extent_ndims(osp) == 1) H5Sget_simple_extent_dims(osp, &len, NULL);
    if (len < 1 || len > 64) len = 1;
    H5Sclose(osp);
    H5Dclose(old);
    cr_assert(H5Ldelete(f, name, H5P_DEFAULT) >= 0, "%s", name);
    if (how == 1 || how == 4) {
        hsize_t dims[2] = {how == 1 ? 2 : len, 2};
        double v[128];
        for (int k = 0; k < 128; k++) v[k] = 0.5 + k;
        hid_t sp = H5Screate_simple(how == 1 ? 2 : 1, dims, NULL);
        hid_t ds = H5Dcreate2(f, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        cr_assert(ds >= 0);
        H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        H5Dclose(ds);
        H5Sclose(sp);
    } else if (how == 2) {
        hid_t ty = H5Tcopy(H5T_C_S1);
        H5Tset_size(ty, 4);
        hsize_t dims[1] = {len};
        char text[4 * 64] = "abc";
        hid_t sp = H5Screate_simple(1, dims, NULL);
        hid_t ds = H5Dcreate2(f, name, ty, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        cr_assert(ds >= 0);
        H5Dwrite(ds, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, text);
        H5Dclose(ds);
        H5Sclose(sp);
        H5Tclose(ty);
    } else if (how == 3) {
        hid_t g = H5Gcreate2(f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        cr_assert(g >= 0);
        H5Gclose(g);
    }
    H5Fclose(f);
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static fl_status read_kind(const char *path, int kind, int dense, fl_sparse_ctx *ctx,
                           fl_error *err)
{
    fl_status s;
    if (kind == 1) {
        fl_local_problem *p = NULL;
        s = fl_fclib_read_local(path, dense, ctx, &p, err);
        if (s < 0) cr_assert_null(p);
        fl_local_problem_free(p);
    } else if (kind == 2) {
        fl_global_problem *g = NULL;
        s = fl_fclib_read_global(path, dense, ctx, &g, err);
        if (s < 0) cr_assert_null(g);
        fl_global_problem_free(g);
    } else {
        fl_fclib_solution *sol = NULL;
        s = fl_fclib_read_solution(path, &sol, err);
        if (s < 0) cr_assert_null(sol);
        fl_fclib_solution_free(sol);
    }
    H5garbage_collect();
    cr_assert_eq(H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL), 0, "identifiers left open");
    return s;
}

Test(fl_fclib, every_dataset_broken_in_turn_refused_by_name, .init = mkdir_tmp, .fini = rm_tmp)
{
    char good[3][256], bad[256];
    path_in(good[0], sizeof good[0], "local.hdf5");
    path_in(good[1], sizeof good[1], "global.hdf5");
    path_in(good[2], sizeof good[2], "solution.hdf5");
    path_in(bad, sizeof bad, "bad.hdf5");
    write_good(good[0]);
    const char *root = getenv("FL_SOURCE_ROOT");
    char fixture[512];
    snprintf(fixture, sizeof fixture, "%s/tests/data/fclib/global_small.hdf5", root ? root : ".");
    copy_file(fixture, good[1]);
    write_good(good[2]);
    fl_fclib_solution *sol = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &sol, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(good[2], sol, NULL), FL_OK);
    fl_fclib_solution_free(sol);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    static const char *const how_name[5] = {"deleted", "2-D", "strings", "group", "doubles"};
    static const char *const says[5] = {"missing dataset", "expected a 1-D dataset, found rank 2",
                                        "expected numbers", "not a dataset",
                                        "expected integers"};
    long refused = 0, ignored = 0;
    for (int kind = 1; kind <= 3; kind++) {
        ds_list l;
        memset(&l, 0, sizeof l);
        hid_t f = H5Fopen(good[kind - 1], H5F_ACC_RDONLY, H5P_DEFAULT);
        cr_assert(f >= 0);
        H5Ovisit(f, H5_INDEX_NAME, H5_ITER_NATIVE, collect_dataset, &l);
        H5Fclose(f);
        cr_assert_gt(l.n, 3);
        for (int k = 0; k < l.n; k++) {
            const char *nm = l.name[k];
            /* what the reader of this kind reads: the problem but its
             * nzmax and info/ (libfclib's bookkeeping and free text); for a
             * solution, the sizes it is checked against and /solution */
            int read = kind == 3 ? (strcmp(nm, "/fclib_local/W/m") == 0 ||
                                    strcmp(nm, "/fclib_local/vectors/q") == 0 ||
                                    strncmp(nm, "/solution/", 10) == 0)
                                 : !ends_with(nm, "/nzmax") && !strstr(nm, "/info/");
            int integer = ends_with(nm, "/m") || ends_with(nm, "/n") || ends_with(nm, "/nz") ||
                          ends_with(nm, "/p") || ends_with(nm, "/i") || ends_with(nm, "/spacedim");
            for (int how = 0; how < 5; how++) {
                if (how == 4 && !integer) continue;
                fl_status s[2];
                fl_error err[2];
                for (int dense = 0; dense <= 1; dense++) {
                    copy_file(good[kind - 1], bad);
                    break_dataset(bad, nm, how);
                    fl_error_clear(&err[dense]);
                    s[dense] = read_kind(bad, kind, dense, dense ? NULL : &ctx, &err[dense]);
                }
                cr_assert_eq(s[0], s[1], "%s %s: sparse %d, dense %d", nm, how_name[how], s[0], s[1]);
                /* a solution needs only the length of q, whatever its type */
                int extent_only = kind == 3 && strcmp(nm, "/fclib_local/vectors/q") == 0;
                if (!read || (extent_only && how == 2)) {
                    cr_assert_eq(s[1], FL_OK, "%s %s is not read, yet: %s", nm, how_name[how],
                                 err[1].message);
                    ignored++;
                    continue;
                }
                char want[256];
                snprintf(want, sizeof want, "field %s: %s", nm, says[how]);
                cr_assert_eq(s[1], FL_EPARSE, "%s %s: status %d (%s)", nm, how_name[how], s[1],
                             err[1].message);
                cr_assert_str_eq(err[1].file, bad);
                cr_assert(strncmp(err[1].message, want, strlen(want)) == 0,
                          "%s %s: '%s', want '%s'", nm, how_name[how], err[1].message, want);
                refused++;
            }
        }
    }
    /* local: 9 datasets read x 4 ways + 6 integer ones as doubles = 42;
     * global: 16 x 4 + 11 = 75; solution: W/m 4 + 1, q 3 (deleted, 2-D,
     * group), u and r 4 each = 16 */
    cr_assert_eq(refused, 42 + 75 + 16, "refused %ld, ignored %ld", refused, ignored);
    cr_assert_gt(ignored, 20);
    fl_sparse_finish(&ctx);
}

/* ---- the writers' refusals, empty problems, the memory budget, matrix
 * arrays longer than nz, duplicates summing to Inf, rewritten solutions
 * and the size checks before a solution is written ---- */

/* The number after "would need " in a budget message. */
static double needed_bytes(const char *msg)
{
    const char *at = strstr(msg, "would need ");
    cr_assert_not_null(at, "%s", msg);
    return strtod(at + 11, NULL);
}

Test(fl_fclib, writers_refuse_forms_strides_and_paths)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "w.hdf5");
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    fl_error err;
    cr_assert_eq(fl_fclib_write_local_as(path, p, NULL, (fl_fclib_storage)3, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown matrix form 3"), "%s", err.message);
    cr_assert_eq(fl_fclib_write_local("/nonexistent-dir/w.hdf5", p, NULL, &err), FL_EIO);
    cr_assert_str_eq(err.file, "/nonexistent-dir/w.hdf5");
    cr_assert(strstr(err.message, "cannot create the file"), "%s", err.message);
    /* q as a column of a matrix: stride 2 */
    gsl_matrix *Q = gsl_matrix_calloc(2, 2);
    gsl_vector_view col = gsl_matrix_column(Q, 0);
    gsl_vector *q = p->q;
    p->q = &col.vector;
    cr_assert_eq(fl_fclib_write_local(path, p, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "q must be contiguous"), "%s", err.message);
    p->q = q;
    fl_local_problem_free(p);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set_identity(g->H);
    cr_assert_eq(fl_fclib_write_global_as(path, g, NULL, (fl_fclib_storage)-7, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "unknown matrix form -7"), "%s", err.message);
    cr_assert_eq(fl_fclib_write_global_as(path, NULL, NULL, FL_FCLIB_CSC, &err), FL_EINVAL);
    gsl_vector *f = g->f;
    g->f = &col.vector;
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "f and w must be contiguous"), "%s", err.message);
    g->f = f;
    gsl_vector *w = g->w;
    g->w = &col.vector;
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_EINVAL);
    g->w = w;
    fl_global_problem_free(g);
    gsl_matrix_free(Q);
    cr_assert_eq(fl_fclib_solution_alloc(1, 1, NULL, &err), FL_EINVAL);
    rm_tmp();
}

Test(fl_fclib, problems_without_contact_and_their_solutions)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "empty.hdf5");
    /* a local problem with no contact: empty q and mu, W 0 x 0 */
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(0, 3, 1, &p, NULL), FL_OK);
    fl_error err;
    cr_assert_eq(fl_fclib_write_local(path, p, "no contact", &err), FL_OK, "%s", err.message);
    fl_local_problem_free(p);
    p = NULL;
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert(p->nc == 0 && p->m == 0 && p->dim == 3);
    fl_local_problem_free(p);
    /* its solution: u and r empty, no v */
    fl_fclib_solution *s = NULL, *back = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 0, &s, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_fclib_read_solution(path, &back, &err), FL_OK, "%s", err.message);
    cr_assert(back->n == 0 && back->m == 0);
    fl_fclib_solution_free(back);
    fl_fclib_solution_free(s);
    rm_tmp();
}

Test(fl_fclib, memory_budget_of_the_dense_and_sparse_twins)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "budget.hdf5");
    /* 100 contacts in 3D, W = 2 I: small arrays, a dense W of 720,000 bytes */
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(100, 3, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    gsl_matrix_scale(p->W, 2.0);
    fl_error err;
    cr_assert_eq(fl_fclib_write_local(path, p, NULL, &err), FL_OK, "%s", err.message);
    fl_local_problem_free(p);
    p = NULL;
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_read_options o = fl_read_options_default();
    o.max_bytes = 100000;
    cr_assert_eq(fl_fclib_read_local_opt(path, 1, NULL, &o, &p, &err), FL_ENOMEM);
    cr_assert(strstr(err.message, "field fclib_local/W (dense): the problem would need"), "%s",
              err.message);
    /* the arrays read before W is formed, then W's sparse copy (28 bytes
     * per entry, 300 entries) one byte over the cap */
    double arrays = needed_bytes(err.message) - 8.0 * 300 * 300;
    o.max_bytes = (size_t)(arrays + 28.0 * 300) - 1;
    cr_assert_eq(fl_fclib_read_local_opt(path, 0, &ctx, &o, &p, &err), FL_ENOMEM);
    cr_assert(strstr(err.message, "field fclib_local/W (sparse)"), "%s", err.message);
    o.max_bytes += 1;
    cr_assert_eq(fl_fclib_read_local_opt(path, 0, &ctx, &o, &p, &err), FL_OK, "%s", err.message);
    fl_local_problem_free(p);
    /* global: n = 200, M = I, one contact */
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(200, 1, 3, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set(g->H, 0, 0, 1.0);
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_OK, "%s", err.message);
    fl_global_problem_free(g);
    g = NULL;
    o.max_bytes = 100000;
    cr_assert_eq(fl_fclib_read_global_opt(path, 1, NULL, &o, &g, &err), FL_ENOMEM);
    cr_assert(strstr(err.message, "field fclib_global/M,H (dense)"), "%s", err.message);
    cr_assert_null(g);
    fl_sparse_finish(&ctx);
    rm_tmp();
}

Test(fl_fclib, matrix_arrays_beyond_nz_and_bad_storages)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "arrays.hdf5");
    /* triplets: nz = 2 entries of 5-long arrays; the 3 extra are not read */
    write_good(path);
    int ip[5] = {0, 1, 9, 9, 9}, ii[5] = {0, 1, 9, 9, 9};
    double xx[5] = {4, 6, NAN, NAN, NAN};
    put_int(path, "/fclib_local/W/nz", 2);
    put_dataset(path, "/fclib_local/W/p", ip, 5, 1);
    put_dataset(path, "/fclib_local/W/i", ii, 5, 1);
    put_dataset(path, "/fclib_local/W/x", xx, 5, 0);
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    cr_assert_eq(gsl_matrix_get(p->W, 0, 0), 4.0);
    cr_assert_eq(gsl_matrix_get(p->W, 1, 1), 6.0);
    cr_assert_eq(gsl_matrix_get(p->W, 0, 1), 0.0);
    fl_local_problem_free(p);
    /* x shorter than nz, in triplet and compressed form */
    put_dataset(path, "/fclib_local/W/x", xx, 1, 0);
    expect_bad(path, FL_EDIM, "fclib_local/W/x: length 1, at least 2 needed");
    write_good(path);
    put_dataset(path, "/fclib_local/W/x", xx, 1, 0);
    expect_bad(path, FL_EDIM, "fclib_local/W/x: length 1, at least 6 needed");
    /* compressed column pointers of the wrong length; an unknown storage */
    write_good(path);
    put_dataset(path, "/fclib_local/W/p", ip, 2, 1);
    expect_bad(path, FL_EDIM, "fclib_local/W/p: length 2, expected 5");
    put_int(path, "/fclib_local/W/nz", -3);
    expect_bad(path, FL_EPARSE, "fclib_local/W/nz: unknown storage nz = -3");
    /* mu declared 3,000,000 long but never written: no data behind it */
    write_good(path);
    put_empty(path, "/fclib_local/vectors/mu", 3000000, 0);
    expect_bad(path, FL_EPARSE, "fclib_local/vectors/mu: declares 3000000 values but the file "
                                "stores only 0 bytes");
    /* a global file without spacedim */
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    gsl_matrix_set_identity(g->M);
    gsl_matrix_set_identity(g->H);
    cr_assert_eq(fl_fclib_write_global(path, g, NULL, &err), FL_OK, "%s", err.message);
    fl_global_problem_free(g);
    g = NULL;
    put_dataset(path, "/fclib_global/spacedim", NULL, 0, 1);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &g, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "fclib_global/spacedim: missing dataset"), "%s", err.message);
    rm_tmp();
}

Test(fl_fclib, duplicates_summing_to_inf_refused_by_both_twins)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "inf.hdf5");
    write_good(path);
    /* triplets (0,0) twice, 1e308 each: W(0,0) = Inf once summed */
    int ip[3] = {0, 0, 1}, ii[3] = {0, 0, 1};
    double xx[3] = {1e308, 1e308, 1.0};
    put_int(path, "/fclib_local/W/nz", 3);
    put_dataset(path, "/fclib_local/W/p", ip, 3, 1);
    put_dataset(path, "/fclib_local/W/i", ii, 3, 1);
    put_dataset(path, "/fclib_local/W/x", xx, 3, 0);
    expect_bad(path, FL_ENONFINITE, "field fclib_local/W: W");
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_fclib_read_local(path, 0, &ctx, &p, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "field fclib_local/W: local problem: sparse W has a NaN/Inf"),
              "%s", err.message);
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &p, NULL), FL_ENONFINITE);
    cr_assert_null(p);
    fl_sparse_finish(&ctx);
    rm_tmp();
}

Test(fl_fclib, solutions_checked_against_the_stored_problem)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "sol.hdf5");
    write_good(path);   /* local, m = 4 */
    fl_error err;
    cr_assert_eq(fl_fclib_write_solution(path, NULL, &err), FL_EINVAL);
    fl_fclib_solution *s = NULL, *back = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &s, NULL), FL_OK);
    /* written twice: the second replaces the first */
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
    s->r[2] = 7.5;
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_fclib_read_solution(path, &back, &err), FL_OK, "%s", err.message);
    cr_assert_eq(back->r[2], 7.5);
    fl_fclib_solution_free(back);
    /* guesses: refused without any, with a NULL one; written twice */
    const fl_fclib_solution *gs[2] = {s, NULL};
    cr_assert_eq(fl_fclib_write_guesses(path, 0, gs, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_write_guesses(path, 1, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_write_guesses(path, 2, gs, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "guess 2 is NULL"), "%s", err.message);
    cr_assert_eq(fl_fclib_write_guesses(path, 1, gs, &err), FL_OK, "%s", err.message);
    s->u[0] = -2.0;
    cr_assert_eq(fl_fclib_write_guesses(path, 1, gs, &err), FL_OK, "%s", err.message);
    fl_fclib_solution **g = NULL;
    size_t count = 0;
    cr_assert_eq(fl_fclib_read_guesses(path, &g, &count, &err), FL_OK, "%s", err.message);
    cr_assert_eq(count, 1);
    cr_assert_eq(g[0]->u[0], -2.0);
    fl_fclib_guesses_free(g, count);
    /* sizes and values: v for a local problem, missing u or r, NaN */
    fl_fclib_solution bad = *s;
    bad.n = 2;
    cr_assert_eq(fl_fclib_write_solution(path, &bad, &err), FL_EDIM);
    cr_assert(strstr(err.message, "field solution: sizes n = 2, m = 4, the problem has n = 0, m = 4"),
              "%s", err.message);
    bad = *s;
    bad.u = NULL;
    cr_assert_eq(fl_fclib_write_solution(path, &bad, &err), FL_EDIM);
    bad = *s;
    bad.r = NULL;
    cr_assert_eq(fl_fclib_write_solution(path, &bad, &err), FL_EDIM);
    s->u[3] = NAN;
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_ENONFINITE);
    cr_assert(strstr(err.message, "field solution: NaN or Inf value"), "%s", err.message);
    s->u[3] = 0.0;
    /* the problem's own sizes must agree: W/m against q */
    put_int(path, "/fclib_local/W/m", 7);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EDIM);
    cr_assert(strstr(err.message, "W/m = 7 but q has length 4"), "%s", err.message);
    fl_fclib_solution_free(s);
    /* global: n = 2, m = 2 */
    fl_global_problem *gp = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &gp, NULL), FL_OK);
    gsl_matrix_set_identity(gp->M);
    gsl_matrix_set_identity(gp->H);
    cr_assert_eq(fl_fclib_write_global(path, gp, NULL, &err), FL_OK, "%s", err.message);
    fl_global_problem_free(gp);
    cr_assert_eq(fl_fclib_solution_alloc(2, 2, &s, NULL), FL_OK);
    bad = *s;
    bad.v = NULL;
    cr_assert_eq(fl_fclib_write_solution(path, &bad, &err), FL_EDIM);
    s->v[1] = INFINITY;
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_ENONFINITE);
    s->v[1] = 0.0;
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_OK, "%s", err.message);
    static const char *const cut[] = {"/fclib_global/vectors/w", "/fclib_global/vectors/f",
                                      "/fclib_global/H/n"};
    char copy[128];
    path_in(copy, sizeof copy, "cut.hdf5");
    for (int k = 0; k < 3; k++) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
        cr_assert_eq(system(cmd), 0);
        put_dataset(copy, cut[k], NULL, 0, 0);
        cr_assert_eq(fl_fclib_read_solution(copy, &back, &err), FL_EPARSE);
        cr_assert(strstr(err.message, cut[k] + 1) && strstr(err.message, "missing dataset"),
                  "%s: %s", cut[k], err.message);
    }
    put_int(path, "/fclib_global/M/n", 3);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EDIM);
    cr_assert(strstr(err.message, "H/n = 2, M/n = 3 but w has length 2 and f 2"), "%s", err.message);
    fl_fclib_solution_free(s);
    rm_tmp();
}

/* Index ranges, pointers, empty matrices, a nonsymmetric global M, the
 * problem sizes a solution is checked against, NULL outputs and files
 * without any FCLIB group: each refused with the field named. */
Test(fl_fclib, indices_pointers_sizes_and_groups)
{
    mkdir_tmp();
    char path[128];
    path_in(path, sizeof path, "idx.hdf5");
    fl_error err;
    fl_local_problem *p = NULL;
    /* compressed columns: pointers not starting at 0, a row index out of range */
    write_good(path);
    int p5[5] = {1, 2, 3, 4, 6};
    put_dataset(path, "/fclib_local/W/p", p5, 5, 1);
    expect_bad(path, FL_EPARSE, "fclib_local/W/p: compressed pointers must start at 0 (p[0] = 1)");
    write_good(path);
    int i6[6] = {0, 1, 1, 2, 3, 4};
    put_dataset(path, "/fclib_local/W/i", i6, 6, 1);
    expect_bad(path, FL_EPARSE, "fclib_local/W/i: index 4 out of range [0, 4)");
    /* triplets: each of the four index bounds */
    static const int bad_i[4] = {-1, 4, 0, 0}, bad_p[4] = {0, 0, -1, 4};
    for (int k = 0; k < 4; k++) {
        write_good(path);
        int ip[1] = {bad_p[k]}, ii[1] = {bad_i[k]};
        double xx[1] = {1.0};
        put_int(path, "/fclib_local/W/nz", 1);
        put_dataset(path, "/fclib_local/W/p", ip, 1, 1);
        put_dataset(path, "/fclib_local/W/i", ii, 1, 1);
        put_dataset(path, "/fclib_local/W/x", xx, 1, 0);
        expect_bad(path, FL_EPARSE, "fclib_local/W/i,p: triplet 0");
    }
    /* an empty triplet matrix (nz = 0): W = 0 */
    write_good(path);
    put_int(path, "/fclib_local/W/nz", 0);
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &p, &err), FL_OK, "%s", err.message);
    for (size_t i = 0; i < 4; i++) cr_assert_eq(gsl_matrix_get(p->W, i, i), 0.0);
    cr_assert_eq(gsl_vector_get(p->q, 0), -1.0);
    fl_local_problem_free(p);
    p = NULL;
    /* no contact (mu empty) but a q of length 3 */
    write_good(path);
    put_dataset(path, "/fclib_local/vectors/mu", NULL, 0, 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hsize_t zero = 0;
    hid_t sp = H5Screate_simple(1, &zero, NULL);
    hid_t ds = H5Dcreate2(f, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(ds);
    H5Sclose(sp);
    H5Fclose(f);
    double q3[3] = {1, 2, 3};
    put_dataset(path, "/fclib_local/vectors/q", q3, 3, 0);
    expect_bad(path, FL_EDIM, "fclib_local/vectors/q: length 3, expected 0 (no contact)");
    /* the memory cap at the first dataset */
    write_good(path);
    fl_read_options o = fl_read_options_default();
    o.max_bytes = 2;
    cr_assert_eq(fl_fclib_read_local_opt(path, 1, NULL, &o, &p, &err), FL_ENOMEM);
    cr_assert(strstr(err.message, "field /fclib_local/spacedim: the problem would need 4 bytes"),
              "%s", err.message);
    /* NULL outputs and paths */
    fl_local_problem *lp = NULL;
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, NULL, &err), FL_EINVAL);
    fl_global_problem *g = NULL;
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_read_solution(path, NULL, &err), FL_EINVAL);
    size_t count;
    fl_fclib_solution **gs = NULL;
    cr_assert_eq(fl_fclib_read_guesses(path, NULL, &count, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_read_guesses(path, &gs, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_read_guesses("/nonexistent-dir/x.hdf5", &gs, &count, &err), FL_EIO);
    cr_assert_eq(fl_fclib_write_local_as(path, NULL, NULL, FL_FCLIB_CSC, &err), FL_EINVAL);
    cr_assert_eq(fl_fclib_read_local(path, 1, NULL, &lp, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_fclib_write_local(NULL, lp, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "NULL path"), "%s", err.message);
    /* the problem's sizes a solution is checked against: W/m negative */
    fl_fclib_solution *s = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &s, NULL), FL_OK);
    put_int(path, "/fclib_local/W/m", -1);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EDIM);
    cr_assert(strstr(err.message, "W/m = -1 but q has length 4"), "%s", err.message);
    fl_fclib_solution_free(s);
    /* a global M made nonsymmetric: M(0,1) = 0.5, M(1,0) = 0 */
    fl_global_problem *g0 = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g0, NULL), FL_OK);
    gsl_matrix_set_identity(g0->M);
    gsl_matrix_set_identity(g0->H);
    cr_assert_eq(fl_fclib_write_global_as(path, g0, NULL, FL_FCLIB_TRIPLET, &err), FL_OK, "%s",
                 err.message);
    int mp[3] = {0, 1, 1}, mi[3] = {0, 1, 0};
    double mx[3] = {1, 1, 0.5};
    put_int(path, "/fclib_global/M/nz", 3);
    put_dataset(path, "/fclib_global/M/p", mp, 3, 1);
    put_dataset(path, "/fclib_global/M/i", mi, 3, 1);
    put_dataset(path, "/fclib_global/M/x", mx, 3, 0);
    cr_assert_eq(fl_fclib_read_global(path, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "field fclib_global/M: not symmetric: |M(1,0) - M(0,1)| = 0.5"),
              "%s", err.message);
    cr_assert_null(g);
    /* a global file's sizes: M/n missing, then 0; H/n negative */
    cr_assert_eq(fl_fclib_write_global(path, g0, NULL, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_fclib_solution_alloc(2, 2, &s, NULL), FL_OK);
    put_int(path, "/fclib_global/M/n", 0);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EDIM);
    cr_assert(strstr(err.message, "H/n = 2, M/n = 0"), "%s", err.message);
    put_int(path, "/fclib_global/M/n", 2);
    put_int(path, "/fclib_global/H/n", -1);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EDIM);
    cr_assert(strstr(err.message, "H/n = -1, M/n = 2"), "%s", err.message);
    put_dataset(path, "/fclib_global/M/n", NULL, 0, 1);
    cr_assert_eq(fl_fclib_write_solution(path, s, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "fclib_global/M/n: missing dataset"), "%s", err.message);
    fl_fclib_solution_free(s);
    fl_global_problem_free(g0);
    fl_local_problem_free(lp);
    /* an HDF5 file without any FCLIB group */
    path_in(path, sizeof path, "nogroup.hdf5");
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert(f >= 0);
    H5Fclose(f);
    int kind = 0;
    cr_assert_eq(fl_fclib_kind(path, &kind, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "no FCLIB problem group"), "%s", err.message);
    fl_fclib_solution *sol = NULL;
    cr_assert_eq(fl_fclib_read_solution(path, &sol, &err), FL_EPARSE);
    cr_assert(strstr(err.message, "field fclib_local / fclib_global: no FCLIB problem group"), "%s",
              err.message);
    rm_tmp();
}
