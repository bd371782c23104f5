/* smoke_core.c — a plain program (no Criterion fork) exercising the core
 * helpers, run under `meson test --setup valgrind` to catch leaks and
 * invalid accesses, including on the error paths. */
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_matrix.h>

#include "fl_dense.h"
#include "testkit/fl_random.h"
#include "fl_sparse.h"

int main(void)
{
    int bad = 0;
    gsl_rng *r = fl_test_rng(5);
    gsl_matrix *M = gsl_matrix_alloc(6, 6), *D = gsl_matrix_alloc(2, 6);
    bad |= fl_random_spd(r, 100.0, 1.0, M) != FL_OK;
    bad |= fl_random_full_rank_rows(r, 10.0, D) != FL_OK;
    fl_spd *s = NULL;
    bad |= fl_spd_alloc(M, &s, NULL) != FL_OK;
    gsl_vector *v = gsl_vector_alloc(6), *a = gsl_vector_alloc(6), *b = gsl_vector_alloc(6);
    fl_random_vector(r, 1.0, v);
    bad |= fl_spd_split_velocity(s, D, v, a, b, NULL) != FL_OK;
    bad |= fl_spd_split_reaction(s, D, v, a, b, NULL, NULL) != FL_OK;
    gsl_matrix_set_all(D, 1.0);   /* dependent rows: error path */
    bad |= fl_spd_split_velocity(s, D, v, a, b, NULL) != FL_ESINGULAR;
    gsl_matrix_set(M, 0, 0, -1.0);
    fl_spd *s2 = NULL;
    bad |= fl_spd_alloc(M, &s2, NULL) == FL_OK;

    fl_sparse_ctx ctx;
    bad |= fl_sparse_start(&ctx, NULL) != FL_OK;
    cholmod_sparse *A = fl_random_sparse_spd(r, &ctx, 200, 4, 1e3);
    cholmod_factor *L = NULL;
    double *x = calloc(200, sizeof *x), *y = calloc(200, sizeof *y);
    for (int i = 0; i < 200; i++) x[i] = 1.0;
    bad |= fl_sparse_factor(&ctx, A, &L, NULL) != FL_OK;
    bad |= fl_sparse_solve(&ctx, L, x, y, NULL) != FL_OK;
    bad |= fl_sparse_factor(&ctx, A, &L, NULL) != FL_OK;   /* reuse */
    bad |= fl_sparse_mv(&ctx, A, 0, 1.0, y, 0.0, x, NULL) != FL_OK;
    for (int i = 0; i < 200; i++) bad |= !fl_close(x[i], 1.0, 1e-9, 1e-9);
    free(x);
    free(y);
    fl_sparse_free_factor(&ctx, &L);
    fl_sparse_free(&ctx, &A);
    fl_sparse_finish(&ctx);

    gsl_vector_free(v); gsl_vector_free(a); gsl_vector_free(b);
    gsl_matrix_free(M); gsl_matrix_free(D);
    fl_spd_free(s);
    fl_spd_free(s2);
    gsl_rng_free(r);
    printf("smoke_core: %s\n", bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
