/* fl_rng.c — seeded generators (README.md: no srand, no global state). */
#include "fl_rng.h"

#include <math.h>
#include <gsl/gsl_errno.h>

gsl_rng *fl_rng_alloc(unsigned long seed)
{
    gsl_error_handler_t *old = gsl_set_error_handler_off();   /* NULL, never an abort */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_set_error_handler(old);
    if (r) gsl_rng_set(r, seed);
    return r;
}

double fl_rng_loguniform(gsl_rng *r, double lo, double hi)
{
    return exp(log(lo) + (log(hi) - log(lo)) * gsl_rng_uniform(r));
}
