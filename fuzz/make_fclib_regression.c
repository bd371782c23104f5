/* make_fclib_regression.c — writes the FCLIB (HDF5) files of
 * fuzz/regression/fclib_(local,global,solution) and fuzz/seeds/: each reproducer is a
 * few kilobytes that DECLARES a huge problem (issue: the library aborted or
 * allocated gigabytes before reading a value).  Huge datasets are chunked
 * with no chunk written, so the file stays small and HDF5 returns the fill
 * value (0) for every element.  Run once by hand; the outputs are committed:
 *   make_fclib_regression OUTDIR   (writes OUTDIR/regression/... and seeds/...)
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fl_fclib.h"
#include "fl_problem.h"

static hid_t lcpl(void)
{
    hid_t p = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(p, 1);
    return p;
}

/* 1-D dataset of `n` elements; data == NULL: chunked, nothing written. */
static void put(hid_t f, const char *name, int ints, hsize_t n, const void *data)
{
    hid_t sp = H5Screate_simple(1, &n, NULL), lc = lcpl(), dc = H5Pcreate(H5P_DATASET_CREATE);
    if (!data) {
        hsize_t chunk = n < 4096 ? (n ? n : 1) : 4096;
        H5Pset_chunk(dc, 1, &chunk);
    }
    hid_t ds = H5Dcreate2(f, name, ints ? H5T_STD_I32LE : H5T_IEEE_F64LE, sp, lc, dc, H5P_DEFAULT);
    if (ds < 0) { fprintf(stderr, "cannot create %s\n", name); exit(1); }
    if (data) H5Dwrite(ds, ints ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds); H5Pclose(dc); H5Pclose(lc); H5Sclose(sp);
}

static void put_int(hid_t f, const char *name, int v) { put(f, name, 1, 1, &v); }

static hid_t create(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) { fprintf(stderr, "cannot create %s\n", path); exit(1); }
    printf("%s\n", path);
    return f;
}

/* A local problem of nc contacts in 3D whose W (m x m, compressed columns)
 * has no entry and whose vectors are all fill values; m_decl overrides W/m. */
static void local_declaring(const char *dir, const char *name, int nc, int m_decl, int n_decl)
{
    hid_t f = create(dir, name);
    int m = 3 * nc;
    put_int(f, "/fclib_local/spacedim", 3);
    put(f, "/fclib_local/vectors/mu", 0, (hsize_t)nc, NULL);
    put(f, "/fclib_local/vectors/q", 0, (hsize_t)m, NULL);
    put_int(f, "/fclib_local/W/m", m_decl ? m_decl : m);
    put_int(f, "/fclib_local/W/n", n_decl ? n_decl : m);
    put_int(f, "/fclib_local/W/nz", -1);
    put(f, "/fclib_local/W/p", 1, (hsize_t)(n_decl ? n_decl : m) + 1, NULL);
    put(f, "/fclib_local/W/i", 1, 0, NULL);
    put(f, "/fclib_local/W/x", 0, 0, NULL);
    H5Fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s OUTDIR\n", argv[0]); return 2; }
    char reg_local[512], reg_global[512], reg_sol[512], seed_local[512], seed_sol[512];
    snprintf(reg_local, sizeof reg_local, "%s/regression/fclib_local", argv[1]);
    snprintf(reg_global, sizeof reg_global, "%s/regression/fclib_global", argv[1]);
    snprintf(reg_sol, sizeof reg_sol, "%s/regression/fclib_solution", argv[1]);
    snprintf(seed_local, sizeof seed_local, "%s/seeds/fclib_local", argv[1]);
    snprintf(seed_sol, sizeof seed_sol, "%s/seeds/fclib_solution", argv[1]);
    /* m = 3 nc = 100002 contact unknowns, declared through mu's extent */
    local_declaring(reg_local, "declares_m_1e5.hdf5", 33334, 0, 0);
    /* W declared 100000 x 100000 beside a 2-contact problem */
    local_declaring(reg_local, "declares_W_1e5.hdf5", 2, 100000, 100000);
    /* m = 30000: the "more than 60 s, 7-19 GB" case */
    local_declaring(reg_local, "declares_m_3e4.hdf5", 10000, 0, 0);
    /* a dataset extent of 2e8: mu's 1.6 GB were allocated before any check */
    local_declaring(reg_local, "mu_extent_2e8.hdf5", 200000000, 0, 0);

    /* global: n = 1e5 (M/n and f's extent), 2 contacts */
    {
        hid_t f = create(reg_global, "declares_n_1e5.hdf5");
        int n = 100000;
        put_int(f, "/fclib_global/spacedim", 3);
        double mu[2] = {0.5, 0.5};
        put(f, "/fclib_global/vectors/mu", 0, 2, mu);
        put(f, "/fclib_global/vectors/f", 0, (hsize_t)n, NULL);
        put(f, "/fclib_global/vectors/w", 0, 6, NULL);
        put_int(f, "/fclib_global/M/m", n);
        put_int(f, "/fclib_global/M/n", n);
        put_int(f, "/fclib_global/M/nz", -1);
        put(f, "/fclib_global/M/p", 1, (hsize_t)n + 1, NULL);
        put(f, "/fclib_global/M/i", 1, 0, NULL);
        put(f, "/fclib_global/M/x", 0, 0, NULL);
        put_int(f, "/fclib_global/H/m", n);
        put_int(f, "/fclib_global/H/n", 6);
        put_int(f, "/fclib_global/H/nz", -1);
        int hp[7] = {0, 0, 0, 0, 0, 0, 0};
        put(f, "/fclib_global/H/p", 1, 7, hp);
        put(f, "/fclib_global/H/i", 1, 0, NULL);
        put(f, "/fclib_global/H/x", 0, 0, NULL);
        H5Fclose(f);
    }
    /* global: m = 3e4 through mu's extent */
    {
        hid_t f = create(reg_global, "declares_m_3e4.hdf5");
        put_int(f, "/fclib_global/spacedim", 3);
        put(f, "/fclib_global/vectors/mu", 0, 10000, NULL);
        double fv[2] = {1, 1};
        put(f, "/fclib_global/vectors/f", 0, 2, fv);
        put(f, "/fclib_global/vectors/w", 0, 30000, NULL);
        put_int(f, "/fclib_global/M/m", 2);
        put_int(f, "/fclib_global/M/n", 2);
        put_int(f, "/fclib_global/M/nz", -1);
        int mp[3] = {0, 1, 2}, mi[2] = {0, 1};
        double mx[2] = {1, 1};
        put(f, "/fclib_global/M/p", 1, 3, mp);
        put(f, "/fclib_global/M/i", 1, 2, mi);
        put(f, "/fclib_global/M/x", 0, 2, mx);
        put_int(f, "/fclib_global/H/m", 2);
        put_int(f, "/fclib_global/H/n", 30000);
        put_int(f, "/fclib_global/H/nz", -1);
        put(f, "/fclib_global/H/p", 1, 30001, NULL);
        put(f, "/fclib_global/H/i", 1, 0, NULL);
        put(f, "/fclib_global/H/x", 0, 0, NULL);
        H5Fclose(f);
    }

    /* solution of a problem whose W/m says 1e9: calloc'd 8 GB twice */
    {
        hid_t f = create(reg_sol, "W_m_1e9.hdf5");
        put_int(f, "/fclib_local/spacedim", 3);
        double mu[1] = {0.5}, three[3] = {0, 0, 0};
        put(f, "/fclib_local/vectors/mu", 0, 1, mu);
        put(f, "/fclib_local/vectors/q", 0, 3, three);
        put_int(f, "/fclib_local/W/m", 1000000000);
        put_int(f, "/fclib_local/W/n", 3);
        put_int(f, "/fclib_local/W/nz", -1);
        int p[4] = {0, 0, 0, 0};
        put(f, "/fclib_local/W/p", 1, 4, p);
        put(f, "/fclib_local/W/i", 1, 0, NULL);
        put(f, "/fclib_local/W/x", 0, 0, NULL);
        put(f, "/solution/r", 0, 3, three);
        put(f, "/solution/u", 0, 3, three);
        put(f, "/guesses/number_of_guesses", 1, 1, (int[]){1});
        put(f, "/guesses/1/r", 0, 3, three);
        put(f, "/guesses/1/u", 0, 3, three);
        H5Fclose(f);
    }

    /* seeds: a valid 2-contact local problem, and the same with a solution */
    fl_local_problem *p = NULL;
    if (fl_local_problem_alloc(2, 3, 1, &p, NULL) != FL_OK) return 1;
    static const double W[6][6] = {{2, .1, 0, .3, 0, 0}, {.1, 1.5, .2, 0, 0, 0},
                                   {0, .2, 1.5, 0, 0, .1}, {.3, 0, 0, 3, .2, 0},
                                   {0, 0, 0, .2, 2, 0}, {0, 0, .1, 0, 0, 2}};
    static const double q[6] = {-1, .5, -.2, -.5, .1, .3};
    for (int i = 0; i < 6; i++) {
        gsl_vector_set(p->q, (size_t)i, q[i]);
        for (int j = 0; j < 6; j++) gsl_matrix_set(p->W, (size_t)i, (size_t)j, W[i][j]);
    }
    p->mu[0] = 0.3;
    p->mu[1] = 0.8;
    char path[1024];
    fl_error err;
    snprintf(path, sizeof path, "%s/two_contacts_3d.hdf5", seed_local);
    if (fl_fclib_write_local(path, p, "fuzz seed", &err) != FL_OK) { fprintf(stderr, "%s\n", err.message); return 1; }
    printf("%s\n", path);
    snprintf(path, sizeof path, "%s/two_contacts_3d_solution.hdf5", seed_sol);
    if (fl_fclib_write_local(path, p, "fuzz seed", &err) != FL_OK) return 1;
    fl_fclib_solution *s = NULL;
    if (fl_fclib_solution_alloc(0, 6, &s, &err) != FL_OK) return 1;
    for (int i = 0; i < 6; i++) { s->r[i] = 0.1 * i; s->u[i] = -0.05 * i; }
    if (fl_fclib_write_solution(path, s, &err) != FL_OK) { fprintf(stderr, "%s\n", err.message); return 1; }
    const fl_fclib_solution *gs[1] = {s};
    if (fl_fclib_write_guesses(path, 1, gs, &err) != FL_OK) { fprintf(stderr, "%s\n", err.message); return 1; }
    printf("%s\n", path);
    fl_fclib_solution_free(s);
    fl_local_problem_free(p);
    return 0;
}
