/* fl_rng.h — randomness only through gsl_rng (README.md, Vocabulary). */
#ifndef FL_RNG_H
#define FL_RNG_H

#include <gsl/gsl_rng.h>

/* A Mersenne-twister generator seeded with `seed`; NULL on allocation
 * failure.  Free with gsl_rng_free. */
gsl_rng *fl_rng_alloc(unsigned long seed);

/* Log-uniform draw in [lo, hi], 0 < lo <= hi (proofs/README.md). */
double fl_rng_loguniform(gsl_rng *r, double lo, double hi);

#endif
