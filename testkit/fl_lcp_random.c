/* fl_lcp_random.c — random LCP families with a planted solution, for the
 * property tests and cross-checks of the LCP solvers (fl_lcp_random.h). */
#include "fl_lcp_random.h"

#include <math.h>
#include <stdlib.h>

#include "fl_dense.h"

/* Random LCP families (see fl_lcp_random.h for why each is what it claims). */
fl_status fl_lcp_random(gsl_rng *r, fl_lcp_family family, int degenerate, gsl_matrix *M,
                   gsl_vector *q, gsl_vector *z_star)
{
    size_t n = M->size1;
    gsl_matrix_set_zero(M);
    if (family == FL_LCP_PMATRIX) {
        size_t *perm = malloc(n * sizeof *perm);
        double *d1 = malloc(n * sizeof *d1), *d2 = malloc(n * sizeof *d2);
        /* off-diagonal amplitude 3 for n <= 4, 12/n above: U^-1 (hence the
         * LCP) stays reasonably conditioned as n grows */
        double amp = n <= 4 ? 3.0 : 12.0 / (double)n;
        if (!perm || !d1 || !d2) {
            free(perm);
            free(d1);
            free(d2);
            return FL_ENOMEM;
        }
        {
            for (size_t i = 0; i < n; i++) {
                perm[i] = i;
                d1[i] = exp(gsl_rng_uniform(r) * 2.0 - 1.0);
                d2[i] = exp(gsl_rng_uniform(r) * 2.0 - 1.0);
            }
            for (size_t i = n; i > 1; i--) {          /* Fisher–Yates */
                size_t j = gsl_rng_uniform_int(r, i), t = perm[i - 1];
                perm[i - 1] = perm[j];
                perm[j] = t;
            }
            for (size_t i = 0; i < n; i++)
                for (size_t j = i; j < n; j++) {      /* U upper triangular */
                    double u = (i == j) ? 0.5 + gsl_rng_uniform(r)
                                        : 2.0 * amp * (gsl_rng_uniform(r) - 0.5);
                    gsl_matrix_set(M, perm[i], perm[j], d1[perm[i]] * u * d2[perm[j]]);
                }
        }
        free(perm);
        free(d1);
        free(d2);
    } else {
        size_t rank = family == FL_LCP_PD ? n : (n + 1) / 2;
        gsl_matrix *B = fl_dense_matrix_alloc(n, rank);
        if (!B) return FL_ENOMEM;
        {
            for (size_t i = 0; i < n; i++)
                for (size_t k = 0; k < rank; k++) gsl_matrix_set(B, i, k, gsl_rng_uniform(r) * 2.0 - 1.0);
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++) {
                    double s = 0.0;
                    for (size_t k = 0; k < rank; k++)
                        s += gsl_matrix_get(B, i, k) * gsl_matrix_get(B, j, k);
                    gsl_matrix_set(M, i, j, s + ((i == j && family == FL_LCP_PD) ? 0.1 : 0.0));
                }
            gsl_matrix_free(B);
        }
        for (size_t i = 0; i < n; i++)              /* + S, skew-symmetric */
            for (size_t j = i + 1; j < n; j++) {
                double s = gsl_rng_uniform(r) - 0.5;
                gsl_matrix_set(M, i, j, gsl_matrix_get(M, i, j) + s);
                gsl_matrix_set(M, j, i, gsl_matrix_get(M, j, i) - s);
            }
    }
    /* planted solution: z* > 0 on a random support, w* > 0 off it */
    double *zs = calloc(n, sizeof *zs);
    if (!zs) return FL_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        double wi = 0.0;
        int zero_pair = degenerate && gsl_rng_uniform(r) < 0.3;
        if (!zero_pair) {
            if (gsl_rng_uniform(r) < 0.5) zs[i] = 0.1 + gsl_rng_uniform(r);
            else wi = 0.1 + gsl_rng_uniform(r);
        }
        gsl_vector_set(q, i, wi);
    }
    for (size_t i = 0; i < n; i++) {                  /* q = w* - M z* */
        double s = gsl_vector_get(q, i);
        for (size_t j = 0; j < n; j++) s -= gsl_matrix_get(M, i, j) * zs[j];
        gsl_vector_set(q, i, s);
        if (z_star) gsl_vector_set(z_star, i, zs[i]);
    }
    free(zs);
    return FL_OK;
}
