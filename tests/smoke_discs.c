/* smoke_discs.c — a few Contact Dynamics steps of 12 discs in a periodic
 * band (reference/discs.c, optimized/discs_sparse.c) for the valgrind
 * setup: both implementations, the same contacts, no error, no leak. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fl_rng.h"
#include "drivers/discs_step.h"
#include "optimized/discs_sparse.h"

int main(void)
{
    int bad = 0;
    for (int impl = 0; impl < 2; impl++) {
        gsl_rng *rng = fl_rng_alloc(5);
        fl_discs *d = NULL;
        if (fl_discs_alloc(12, &d, NULL) != FL_OK) return 1;
        for (size_t i = 0; i < d->N; i++) fl_discs_set(d, i, 0, 0, 0.4 + 0.1 * (double)(i % 3), 1);
        d->ground = 1;
        d->periodic = 1;
        d->a = 3;
        d->margin = 0.1;
        d->gx = 4;
        fl_discs_step_options o = fl_discs_step_options_default();
        o.h = 0.01;
        o.impl = impl ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
        int steps = 0;
        fl_error err;
        if (fl_discs_deposit(d, &o, rng, 30, 1e-9, &steps, &err) < 0) {
            fprintf(stderr, "smoke_discs: %s\n", err.message);
            bad = 1;
        }
        fl_disc_contact *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        if (fl_discs_detect(d, &a, &na, NULL) != FL_OK ||
            fl_discs_detect_cells(d, &b, &nb, NULL) != FL_OK || na != nb || na == 0) {
            fprintf(stderr, "smoke_discs: contacts differ (%zu vs %zu)\n", na, nb);
            bad = 1;
        }
        printf("smoke_discs: impl %d, %d steps, %zu contacts\n", impl, steps, na);
        free(a);
        free(b);
        fl_discs_free(d);
        gsl_rng_free(rng);
    }
    return bad;
}
