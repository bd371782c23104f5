/* bench_stream.h — STREAM-like memory bandwidth of this machine, measured
 * in the run of a benchmark (bench/bench_discs.c, bench/bench_nsgs.c), on
 * one thread or on an OpenMP team, the thread count of that team, and the
 * sweep timings both benchmarks print (bench_sweeps_measure).
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
#include "optimized/nsgs_colored.h"
#include "optimized/nsgs_sparse.h"
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

/* Whether OpenMP binds threads to places (OMP_PROC_BIND): printed beside
 * the speed-ups, which depend on it on a shared machine. */
static inline const char *bench_stream_binding(void)
{
#ifdef _OPENMP
    return omp_get_proc_bind() == omp_proc_bind_false ? "threads not bound (OMP_PROC_BIND unset)"
                                                      : "threads bound (OMP_PROC_BIND)";
#else
    return "no OpenMP";
#endif
}

/* Best times of single warm-started sweeps on p, in rounds interleaved with
 * bandwidth passes (the machine is shared: every measurement gets the same
 * chance of a quiet moment; the minimum is the least disturbed one):
 * csc, the serial sweep without a cache (CSC rows of W, nsgs_sparse.c);
 * serial, the serial sweep with a cache (the layout of nsgs_colored.c in the
 * natural order, what the disc steps use); col1 and colT, the coloured sweep
 * on 1 and T threads.  Each cached variant is set up and swept once before
 * the rounds (warm-up; first touch of its layout by the threads that sweep
 * it).  bytes_*: fl_nsgs_colored_sweep_bytes of the layouts. */
typedef struct bench_sweeps {
    double csc, serial, col1, colT, bw1, bwT, bytes_serial, bytes_col;
    int blocked;
} bench_sweeps;

static inline double bench_one_sweep(const fl_local_problem *p, int threads,
                                     fl_nsgs_colored_cache *c, gsl_vector *r)
{
    fl_nsgs_options o = fl_nsgs_options_default();
    o.sparse.csc = !c && threads == 0;   /* the CSC variant: never the 2D block layout */
    o.tol = 1e-300;
    o.max_sweeps = 1;
    o.sparse.threads = threads;
    o.sparse.cache = c;
    o.start = FL_NSGS_START_WARM;
    fl_nsgs_result res;
    if (fl_nsgs_solve_sparse(p, &o, r, NULL, &res, NULL) < 0) return NAN;
    return res.sweep_seconds;
}

static inline void bench_sweeps_measure(const fl_local_problem *p, int T, int rounds,
                                        bench_sweeps *b)
{
    fl_nsgs_colored_cache cs, c1, cT;
    fl_nsgs_colored_cache_init(&cs);
    fl_nsgs_colored_cache_init(&c1);
    fl_nsgs_colored_cache_init(&cT);
    gsl_vector *r = gsl_vector_calloc(p->m);
    b->csc = b->serial = b->col1 = b->colT = INFINITY;
    b->bw1 = b->bwT = 0;
    if (r) {   /* warm-up */
        bench_one_sweep(p, 0, &cs, r);
        bench_one_sweep(p, 1, &c1, r);
        bench_one_sweep(p, T, &cT, r);
    }
    for (int k = 0; r && k < rounds; k++) {
        b->csc = fmin(b->csc, bench_one_sweep(p, 0, NULL, r));
        b->serial = fmin(b->serial, bench_one_sweep(p, 0, &cs, r));
        b->col1 = fmin(b->col1, bench_one_sweep(p, 1, &c1, r));
        b->colT = fmin(b->colT, bench_one_sweep(p, T, &cT, r));
        b->bw1 = fmax(b->bw1, bench_stream_bandwidth(1, 1));
        b->bwT = fmax(b->bwT, bench_stream_bandwidth(T, 1));
    }
    b->bytes_serial = fl_nsgs_colored_sweep_bytes(&cs);
    b->bytes_col = fl_nsgs_colored_sweep_bytes(&c1);
    b->blocked = fl_nsgs_colored_blocked(&cs);
    fl_nsgs_colored_cache_clear(&cs);
    fl_nsgs_colored_cache_clear(&c1);
    fl_nsgs_colored_cache_clear(&cT);
    if (r) gsl_vector_free(r);
}

#endif
