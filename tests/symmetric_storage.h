/* symmetric_storage.h — a matrix in CHOLMOD's symmetric storage that also
 * holds an entry in the triangle CHOLMOD ignores (stype > 0: the lower one,
 * stype < 0: the upper one), for the writers and converters that must
 * expand the kept triangle and skip the other.  Header-only, for tests. */
#ifndef FL_TEST_SYMMETRIC_STORAGE_H
#define FL_TEST_SYMMETRIC_STORAGE_H

#include <criterion/criterion.h>

#include "fl_sparse.h"

/* The matrix it stands for. */
static const double tagged_M[3][3] = {{2, 1, 0}, {1, 3, 0}, {0, 0, 4}};

/* tagged_M in symmetric storage `stype` (+-1), with 99 at the ignored
 * position of the (0,1) pair. */
static inline cholmod_sparse *tagged_symmetric(fl_sparse_ctx *ctx, int stype)
{
    int r[] = {0, 1, 2, 0, 1}, c[] = {0, 1, 2, 1, 0};
    double x[] = {2, 3, 4, stype > 0 ? 1 : 99, stype > 0 ? 99 : 1};
    cholmod_sparse *A = NULL;
    cr_assert_eq(fl_sparse_from_triplet(ctx, 3, 3, 5, r, c, x, 0, &A, NULL), FL_OK);
    A->stype = stype;   /* CHOLMOD ignores the other triangle */
    return A;
}

/* Every entry of the dense D equals tagged_M. */
static inline void expect_tagged(const gsl_matrix *D, int stype)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cr_assert_eq(gsl_matrix_get(D, i, j), tagged_M[i][j], "stype %d (%d,%d)", stype, i, j);
}

#endif
