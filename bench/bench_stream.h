/* bench_stream.h — STREAM-like memory bandwidth of this machine, measured
 * in the run of a benchmark (bench/bench_discs.c, bench/bench_nsgs.c), on
 * one thread or on an OpenMP team, and the thread count of that team.
 *
 * Two kernels on arrays of 2^23 doubles (64 MB each, beyond any cache):
 * copy a[i] = b[i] (16 bytes per element: one read, one write; no
 * write-allocate counted, as STREAM) and read s += a[i] (8 bytes, four
 * independent sums).  The bandwidth is the larger of the two, each the best
 * of `reps` passes: the faster the memory is taken to be, the stricter a
 * bound of the form bytes / bandwidth.  Header-only, static inline. */
#ifndef FL_BENCH_STREAM_H
#define FL_BENCH_STREAM_H

#include <math.h>
#include <stdlib.h>

#include "fl_clock.h"
#ifdef _OPENMP
#include <omp.h>
#endif

static inline int bench_stream_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* Bytes per second on `threads` threads (best of reps passes of each kernel). */
static inline double bench_stream_bandwidth(int threads, int reps)
{
    const long n = 1L << 23;
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return NAN;
    }
    double best_copy = INFINITY, best_read = INFINITY, sink = 0;
    (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = (double)(i & 7);
    }
    for (int rep = 0; rep < reps; rep++) {
        double t = fl_clock_now();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++) a[i] = b[i] + (double)rep;   /* no memcpy call */
        best_copy = fmin(best_copy, fl_clock_now() - t);
        t = fl_clock_now();
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : s0, s1, s2, s3)
        for (long i = 0; i < n; i += 4) {
            s0 += a[i];
            s1 += a[i + 1];
            s2 += a[i + 2];
            s3 += a[i + 3];
        }
        best_read = fmin(best_read, fl_clock_now() - t);
        sink += s0 + s1 + s2 + s3;
    }
    volatile double keep = sink;
    (void)keep;
    free(a);
    free(b);
    return fmax(16.0 * (double)n / best_copy, 8.0 * (double)n / best_read);
}

#endif
