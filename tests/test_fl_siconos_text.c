/* test_fl_siconos_text.c — the Siconos text format (core/fl_siconos_text.c):
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

static void fixture(char *buf, size_t len, const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    snprintf(buf, len, "%s/tests/data/siconos/%s", root ? root : ".", name);
}

Test(fl_siconos_text, reads_the_file_siconos_wrote)
{
    double W[6][6] = {{2, .1, 0, .3, 0, 0}, {.1, 1.5, .2, 0, 0, 0}, {0, .2, 1.5, 0, 0, .1},
                      {.3, 0, 0, 3, .2, 0}, {0, 0, 0, .2, 2, 0},   {0, 0, .1, 0, 0, 2}};
    double q[6] = {-1, .5, -.2, -.5, .1, .3};
    char path[512];
    fixture(path, sizeof path, "two_contacts_3d.dat");
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
    fixture(path, sizeof path, "two_contacts_2d.dat");
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
        fl_random_spd(rng, 50.0, 1.0, p->W);
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
    fixture(path, sizeof path, name);
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
    expect_bad("bad_truncated.dat", FL_EPARSE, 9, "field W(0,2)");
    expect_bad("bad_nan.dat", FL_ENONFINITE, 11, "field q[1]");
    expect_bad("bad_sizes.dat", FL_EDIM, 6, "field W sizes");
    expect_bad("bad_storage.dat", FL_EUNSUPPORTED, 3, "field W storage type");
    expect_bad("bad_trailing.dat", FL_EPARSE, 13, "end of file");
    expect_bad("bad_mu.dat", FL_EINVAL, 12, "field mu[1]");
    expect_bad("bad_asymmetric.dat", FL_EINVAL, 0, "field W");
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
