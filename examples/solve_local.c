/* solve_local.c — the smallest program on the installed library: one 2D
 * contact, W = I, q = (-1, 0.5), mu = 0.3, solved by fl_solve_local
 * (drivers/solve.h).  Coulomb's law gives the sliding answer r = (1, -0.3),
 * U = (0, 0.2).  Build:  cc solve_local.c $(pkg-config --cflags --libs frictionlab) */
#include <stdio.h>
#include <frictionlab/frictionlab.h>

int main(void)
{
    fl_sparse_ctx ctx = {0};
    fl_local_problem *p = NULL;
    gsl_vector *r = gsl_vector_calloc(2);
    fl_status s = fl_sparse_start(&ctx, NULL);
    if (s == FL_OK) s = fl_local_problem_alloc(1, 2, 1, &p, NULL);
    if (s == FL_OK) {
        gsl_matrix_set_identity(p->W);
        gsl_vector_set(p->q, 0, -1.0);
        gsl_vector_set(p->q, 1, 0.5);
        p->mu[0] = 0.3;
        p->ctx = &ctx;   /* the sparse twin (default) reads Ws */
        s = fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL);
    }
    fl_solve_options o = fl_solve_options_default();
    if (s == FL_OK) s = fl_solve_local(p, &o, r, NULL, NULL, NULL);
    printf("%s: r = (%g, %g)\n", fl_strerror(s), gsl_vector_get(r, 0), gsl_vector_get(r, 1));
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    gsl_vector_free(r);
    return s == FL_OK ? 0 : 1;
}
