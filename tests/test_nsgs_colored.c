/* test_nsgs_colored.c — the graph-coloured Gauss–Seidel sweep
 * (optimized/nsgs_colored.c; proofs/parallel_sweep.md) on local problems
 * of disc packings (reference/discs.h, 003 §5): the colouring is valid, the
 * coloured sweep is the serial sweep of optimized/nsgs_sparse.c in the
 * coloured order bit for bit, its result does not depend on the thread
 * count, and the status and error it reports are those of the iterate it
 * returns. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_randist.h>

#include "testkit/fclib_discpacking.h"
#include "fl_rng.h"
#include "optimized/nsgs_colored.h"
#include "optimized/nsgs_sparse.h"

/* A packing of N discs on the lattice of fl_discpacking_lattice with each
 * centre moved by up to `jitter` (random radii and positions: a random
 * contact graph), and its local problem (h = 1e-3, sparse W). */
typedef struct packing {
    fl_discs *d;
    fl_disc_contact *c;
    size_t nc;
    fl_local_problem *p;
    fl_discs_work work;
} packing;

static void packing_make(packing *k, unsigned long seed, size_t N, double jitter)
{
    memset(k, 0, sizeof *k);
    gsl_rng *rng = fl_rng_alloc(seed);
    cr_assert_not_null(rng);
    k->d = fl_discpacking_lattice(rng, N);
    cr_assert_not_null(k->d);
    for (size_t i = 0; i < N; i++) {
        k->d->x[i] += jitter * (2 * gsl_rng_uniform(rng) - 1);
        k->d->y[i] += jitter * (2 * gsl_rng_uniform(rng) - 1);
        k->d->vx[i] = 0.1 * (2 * gsl_rng_uniform(rng) - 1);
    }
    fl_discs_wrap(k->d);
    gsl_rng_free(rng);
    cr_assert_eq(fl_discs_work_init(&k->work, NULL), FL_OK);
    fl_discs_step_options o = fl_discs_step_options_default();
    o.impl = FL_IMPL_OPTIMIZED;
    cr_assert_eq(fl_discs_local(k->d, &o, &k->work, &k->c, &k->nc, &k->p, NULL), FL_OK);
    cr_assert_not_null(k->p);
    cr_assert_gt(k->nc, N);   /* a packing: more contacts than discs */
}

static void packing_free(packing *k)
{
    if (k->p && k->p->Ws) fl_sparse_free(&k->work.ctx, &k->p->Ws);
    fl_local_problem_free(k->p);
    free(k->c);
    fl_discs_work_clear(&k->work);
    fl_discs_free(k->d);
}

/* 1 if W holds a stored entry in block (a, c). */
static int block_stored(const fl_local_problem *p, size_t a, size_t c)
{
    const cholmod_sparse *W = p->Ws;
    const int *cp = W->p, *ri = W->i;
    for (int j = 0; j < p->dim; j++) {
        size_t col = (size_t)p->dim * c + (size_t)j;
        for (int k = cp[col]; k < cp[col + 1]; k++)
            if ((size_t)ri[k] / (size_t)p->dim == a) return 1;
    }
    return 0;
}

Test(nsgs_colored, coloring_valid_on_random_packings)
{
    for (unsigned long seed = 1; seed <= 4; seed++) {
        packing k;
        packing_make(&k, seed, seed % 2 ? 3000 : 1000, 0.08 * (double)seed / 4);
        cr_assert_eq(k.p->Ws->itype, CHOLMOD_INT);
        cr_assert(k.p->Ws->packed);
        /* seeds 1, 3: a random review order (single-contact colouring) */
        size_t *perm = NULL;
        if (seed % 2) {
            perm = malloc(k.nc * sizeof *perm);
            gsl_rng *g = fl_rng_alloc(seed);
            for (size_t a = 0; a < k.nc; a++) perm[a] = a;
            gsl_ran_shuffle(g, perm, k.nc, sizeof *perm);
            gsl_rng_free(g);
        }
        fl_nsgs_coloring col;
        cr_assert_eq(fl_nsgs_colored_color(k.p, perm, &col, NULL), FL_OK);
        cr_assert_eq(col.nc, k.nc);
        cr_assert_gt(col.ncolors, 1);
        cr_assert_lt(col.ncolors, 20);
        if (perm) cr_assert_eq(col.unit, 1);   /* random order: single contacts */
        else cr_assert_gt(col.unit, 1);        /* canonical order: units */
        /* the order is a permutation listing the colours in turn */
        unsigned char *seen = calloc(k.nc, 1);
        for (size_t c = 0; c < col.ncolors; c++)
            for (size_t q = col.start[c]; q < col.start[c + 1]; q++) {
                size_t a = col.order[q];
                cr_assert_lt(a, k.nc);
                cr_assert_eq(seen[a], 0);
                seen[a] = 1;
                cr_assert_eq(col.color[a], c);
            }
        cr_assert_eq(col.start[col.ncolors], k.nc);
        free(seen);
        /* no two contacts of one colour in different units share a disc, nor a
         * stored block of W */
        size_t *owner = malloc(k.d->N * sizeof *owner);
        for (size_t c = 0; c < col.ncolors; c++) {
            for (size_t i = 0; i < k.d->N; i++) owner[i] = SIZE_MAX;
            for (size_t u = 0; u < col.nunits; u++) {
                if (col.color[col.order[col.ustart[u]]] != c) continue;
                for (size_t q = col.ustart[u]; q < col.ustart[u + 1]; q++) {
                    const fl_disc_contact *ct = &k.c[col.order[q]];
                    size_t discs[2] = {ct->i, ct->kind == FL_DISC_PAIR ? ct->j : ct->i};
                    for (int t = 0; t < 2; t++) {
                        cr_assert(owner[discs[t]] == SIZE_MAX || owner[discs[t]] == u,
                                  "seed %lu colour %zu: disc %zu in units %zu and %zu", seed, c,
                                  discs[t], owner[discs[t]], u);
                        owner[discs[t]] = u;
                    }
                    if (seed == 2)
                        for (size_t q2 = col.start[c]; q2 < col.start[c + 1]; q2++)
                            if (q2 < col.ustart[u] || q2 >= col.ustart[u + 1])
                                cr_assert_not(block_stored(k.p, col.order[q], col.order[q2]));
                }
            }
        }
        free(owner);
        free(perm);
        fl_nsgs_colored_clear(&col);
        packing_free(&k);
    }
}

/* A fixed number of sweeps: tol below any error, no full-check stop. */
static fl_nsgs_options fixed_sweeps(int sweeps)
{
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = 1e-300;
    o.max_sweeps = sweeps;
    return o;
}

Test(nsgs_colored, one_thread_is_the_serial_sweep_in_coloured_order)
{
    packing k;
    packing_make(&k, 7, 400, 0.05);
    fl_nsgs_coloring col;
    cr_assert_eq(fl_nsgs_colored_color(k.p, NULL, &col, NULL), FL_OK);
    gsl_vector *r1 = gsl_vector_calloc(k.p->m), *r2 = gsl_vector_calloc(k.p->m);
    fl_nsgs_options o = fixed_sweeps(6);
    o.sparse.threads = 1;
    fl_nsgs_result res1, res2;
    cr_assert_eq(fl_nsgs_colored_solve(k.p, &o, r1, NULL, &res1, NULL), FL_WMAXITER);
    /* the serial sweep in the coloured order on the same (cached) layout */
    fl_nsgs_colored_cache cache;
    fl_nsgs_colored_cache_init(&cache);
    o.sparse.threads = 0;
    o.sparse.cache = &cache;
    o.order = FL_NSGS_ORDER_GIVEN;
    o.ordering = col.order;
    cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r2, NULL, &res2, NULL), FL_WMAXITER);
    cr_assert_eq(res1.iterations, 6);
    cr_assert_eq(res2.iterations, 6);
    cr_assert_gt(gsl_blas_dnrm2(r1), 0);
    cr_assert_eq(memcmp(r1->data, r2->data, k.p->m * sizeof(double)), 0);
    /* the CSC serial sweep (no cache) in that order: the same up to rounding */
    o.sparse.cache = NULL;
    o.sparse.csc = 1;
    cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r2, NULL, &res2, NULL), FL_WMAXITER);
    double rmax = 0;
    for (size_t i = 0; i < k.p->m; i++) rmax = fmax(rmax, fabs(r1->data[i]));
    for (size_t i = 0; i < k.p->m; i++)
        cr_assert(fabs(r1->data[i] - r2->data[i]) <= 1e-12 * rmax, "entry %zu: %.17g %.17g", i,
                  r1->data[i], r2->data[i]);
    fl_nsgs_colored_cache_clear(&cache);
    /* and differs from the natural order's sweep (else the test could not fail) */
    o.order = FL_NSGS_ORDER_NATURAL;
    cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r2, NULL, &res2, NULL), FL_WMAXITER);
    cr_assert_neq(memcmp(r1->data, r2->data, k.p->m * sizeof(double)), 0);
    gsl_vector_free(r1);
    gsl_vector_free(r2);
    fl_nsgs_colored_clear(&col);
    packing_free(&k);
}

Test(nsgs_colored, two_threads_equal_one_thread)
{
    packing k;
    packing_make(&k, 11, 1000, 0.05);
    gsl_vector *r1 = gsl_vector_calloc(k.p->m), *r2 = gsl_vector_calloc(k.p->m);
    gsl_vector *U1 = gsl_vector_calloc(k.p->m), *U2 = gsl_vector_calloc(k.p->m);
    fl_nsgs_options o = fl_nsgs_options_default();
    o.tol = 1e-9;
    o.max_sweeps = 60;
    fl_nsgs_result res1, res2;
    o.sparse.threads = 1;
    fl_status s1 = fl_nsgs_solve_sparse(k.p, &o, r1, U1, &res1, NULL);
    o.sparse.threads = 2;
    fl_status s2 = fl_nsgs_solve_sparse(k.p, &o, r2, U2, &res2, NULL);
    cr_assert_eq(s1, s2);
    cr_assert_eq(res1.iterations, res2.iterations);
    cr_assert_eq(res1.residual, res2.residual);
    cr_assert_eq(memcmp(r1->data, r2->data, k.p->m * sizeof(double)), 0);
    cr_assert_eq(memcmp(U1->data, U2->data, k.p->m * sizeof(double)), 0);
    gsl_vector_free(r1);
    gsl_vector_free(r2);
    gsl_vector_free(U1);
    gsl_vector_free(U2);
    packing_free(&k);
}

Test(nsgs_colored, status_and_error_are_those_of_the_returned_iterate)
{
    packing k;
    packing_make(&k, 3, 300, 0.05);
    gsl_vector *r = gsl_vector_calloc(k.p->m), *U = gsl_vector_calloc(k.p->m);
    gsl_vector *V = gsl_vector_calloc(k.p->m);
    /* a tolerance the iteration reaches within the sweep range (the error
     * after 20 sweeps), so that both verdicts occur */
    fl_nsgs_options o20 = fixed_sweeps(20);
    o20.sparse.threads = 2;
    fl_nsgs_result r20;
    fl_nsgs_solve_sparse(k.p, &o20, r, NULL, &r20, NULL);
    cr_assert(r20.residual > 0 && r20.residual < 1);
    int ok = 0, maxiter = 0;
    for (int sweeps = 1; sweeps <= 30; sweeps++) {
        fl_nsgs_options o = fl_nsgs_options_default();
        o.tol = 1.0001 * r20.residual;
        o.max_sweeps = sweeps;
        o.sparse.threads = 2;
        fl_nsgs_result res;
        fl_status s = fl_nsgs_solve_sparse(k.p, &o, r, U, &res, NULL);
        double e;
        cr_assert_eq(fl_residual_local(k.p, r, V, o.norm, &e, NULL), FL_OK);
        cr_assert_float_eq(res.residual, e, 1e-12 * e, "sweeps %d: reported %.17g, iterate %.17g",
                           sweeps, res.residual, e);
        cr_assert_eq(res.status, s);
        cr_assert_eq(s, e <= o.tol ? FL_OK : FL_WMAXITER, "sweeps %d", sweeps);
        for (size_t i = 0; i < k.p->m; i++)
            cr_assert_float_eq(U->data[i], V->data[i], 1e-12 * (1 + fabs(V->data[i])));
        if (s == FL_OK) ok++;
        else maxiter++;
    }
    cr_assert_gt(ok, 0);
    cr_assert_gt(maxiter, 0);
    gsl_vector_free(r);
    gsl_vector_free(U);
    gsl_vector_free(V);
    packing_free(&k);
}

Test(nsgs_colored, refuses_what_the_serial_twin_refuses)
{
    packing k;
    packing_make(&k, 5, 100, 0.0);
    gsl_vector *r = gsl_vector_calloc(k.p->m), *rs = gsl_vector_calloc(k.p->m + 1);
    fl_nsgs_options o = fl_nsgs_options_default();
    o.sparse.threads = -2;
    fl_error err;
    cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r, NULL, NULL, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "threads") != NULL, "%s", err.message);
    o.sparse.threads = 2;
    o.tol = 0;
    cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r, NULL, NULL, NULL), FL_EINVAL);
    o.tol = 1e-8;
    cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, rs, NULL, NULL, NULL), FL_EDIM);
    gsl_vector_free(r);
    gsl_vector_free(rs);
    packing_free(&k);
}

/* r and U of a solve with options o (threads, cache as set), fresh vectors. */
static fl_status solve_into(const fl_local_problem *p, fl_nsgs_options o, gsl_vector *r,
                            gsl_vector *U, fl_nsgs_result *res)
{
    gsl_vector_set_zero(r);
    return fl_nsgs_solve_sparse(p, &o, r, U, res, NULL);
}

Test(nsgs_colored, cache_reused_while_the_pattern_stays_and_answers_unchanged)
{
    packing k;
    packing_make(&k, 13, 1000, 0.05);
    const size_t m = k.p->m;
    gsl_vector *r0 = gsl_vector_calloc(m), *r1 = gsl_vector_calloc(m);
    gsl_vector *U0 = gsl_vector_calloc(m), *U1 = gsl_vector_calloc(m);
    for (int threads = 0; threads <= 2; threads += 2) {
        fl_nsgs_colored_cache cache;
        fl_nsgs_colored_cache_init(&cache);
        fl_nsgs_options o = fixed_sweeps(7);
        o.sparse.threads = threads;
        fl_nsgs_result a, b;
        /* a fresh setup (no cache) against a reused one, bit for bit */
        cr_assert_eq(solve_into(k.p, o, r0, U0, &a), FL_WMAXITER);
        o.sparse.cache = &cache;
        for (int rep = 0; rep < 2; rep++) {
            cr_assert_eq(solve_into(k.p, o, r1, U1, &b), FL_WMAXITER);
            if (threads == 0) {   /* no cache: the CSC sweep; to rounding */
                double rmax = 0;
                for (size_t i = 0; i < m; i++) rmax = fmax(rmax, fabs(r0->data[i]));
                for (size_t i = 0; i < m; i++)
                    cr_assert(fabs(r0->data[i] - r1->data[i]) <= 1e-12 * rmax);
                continue;
            }
            cr_assert_eq(memcmp(r0->data, r1->data, m * sizeof(double)), 0, "threads %d", threads);
            cr_assert_eq(memcmp(U0->data, U1->data, m * sizeof(double)), 0, "threads %d", threads);
        }
        cr_assert_eq(cache.builds, 1);
        cr_assert_eq(cache.reuses, 1);
        cr_assert(fl_nsgs_colored_blocked(&cache), "discs: full 2x2 blocks");
        /* new values on the same pattern (another step of the same contacts):
         * the cache is reused and the answer is that of the new values */
        double *x = k.p->Ws->x;
        for (size_t t = 0; t < k.p->Ws->nzmax; t++) x[t] *= 1.0 + 0.01 * (double)(t % 7);
        for (size_t i = 0; i < m; i++) k.p->q->data[i] *= 1.5;
        fl_nsgs_colored_cache fresh;
        fl_nsgs_colored_cache_init(&fresh);
        o.sparse.cache = &fresh;
        cr_assert_eq(solve_into(k.p, o, r0, NULL, &a), FL_WMAXITER);
        fl_nsgs_colored_cache_clear(&fresh);
        o.sparse.cache = &cache;
        cr_assert_eq(solve_into(k.p, o, r1, NULL, &b), FL_WMAXITER);
        cr_assert_eq(cache.reuses, 2);
        cr_assert_eq(memcmp(r0->data, r1->data, m * sizeof(double)), 0);
        /* another order: built again */
        size_t *perm = malloc(k.nc * sizeof *perm);
        for (size_t a2 = 0; a2 < k.nc; a2++) perm[a2] = k.nc - 1 - a2;
        o.order = FL_NSGS_ORDER_GIVEN;
        o.ordering = perm;
        cr_assert_eq(solve_into(k.p, o, r1, NULL, &b), FL_WMAXITER);
        cr_assert_eq(cache.builds, 2);
        o.sparse.cache = &fresh;
        cr_assert_eq(solve_into(k.p, o, r0, NULL, &a), FL_WMAXITER);
        fl_nsgs_colored_cache_clear(&fresh);
        cr_assert_eq(memcmp(r0->data, r1->data, m * sizeof(double)), 0);
        free(perm);
        fl_nsgs_colored_cache_clear(&cache);
        for (size_t t = 0; t < k.p->Ws->nzmax; t++) x[t] /= 1.0 + 0.01 * (double)(t % 7);
        for (size_t i = 0; i < m; i++) k.p->q->data[i] /= 1.5;
    }
    gsl_vector_free(r0);
    gsl_vector_free(r1);
    gsl_vector_free(U0);
    gsl_vector_free(U1);
    packing_free(&k);
}

/* The coloured path refuses, naming the same contact, what the serial twin
 * refuses (a zero diagonal block: proofs/degenerate-problems.md); before,
 * it iterated such a problem. */
Test(nsgs_colored, refuses_a_zero_diagonal_block_like_the_serial_twin)
{
    packing k;
    packing_make(&k, 17, 400, 0.05);
    const size_t bad = 37, dim = 2;
    /* zero every stored entry in the rows and columns of contact `bad` (same pattern) */
    const cholmod_sparse *W = k.p->Ws;
    const int *cp = W->p, *ri = W->i;
    double *x = W->x;
    for (size_t j = 0; j < W->ncol; j++)
        for (int t = cp[j]; t < cp[j + 1]; t++)
            if (j / dim == bad || (size_t)ri[t] / dim == bad) x[t] = 0;
    gsl_vector_set(k.p->q, dim * bad, 1.0);   /* q_N > 0: a zero block, not infeasibility */
    gsl_vector *r = gsl_vector_calloc(k.p->m);
    fl_nsgs_colored_cache cache;
    fl_nsgs_colored_cache_init(&cache);
    char msg[3][512];
    for (int v = 0; v < 3; v++) {
        fl_nsgs_options o = fixed_sweeps(5);
        o.sparse.threads = v == 0 ? 0 : 2;
        o.sparse.cache = v == 2 ? &cache : NULL;
        o.sparse.csc = v == 0;   /* the CSC sweep's message is the one to match */
        fl_error err;
        cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r, NULL, NULL, &err), FL_ESINGULAR, "variant %d", v);
        snprintf(msg[v], sizeof msg[v], "%s", err.message);
    }
    cr_assert(strstr(msg[0], "37") != NULL, "%s", msg[0]);
    cr_assert_str_eq(msg[1], msg[0]);
    cr_assert_str_eq(msg[2], msg[0]);
    fl_nsgs_colored_cache_clear(&cache);
    gsl_vector_free(r);
    packing_free(&k);
}

/* The time limit of the options bounds the coloured path too (the old
 * coloured path ignored it and ran all max_sweeps): a spent budget stops
 * after the first sweep with FL_WTIMEOUT, the iterate's own error. */
Test(nsgs_colored, time_limit_stops_the_coloured_sweep)
{
    packing k;
    packing_make(&k, 19, 300, 0.05);
    gsl_vector *r = gsl_vector_calloc(k.p->m), *V = gsl_vector_calloc(k.p->m);
    for (int threads = 0; threads <= 2; threads++) {
        fl_nsgs_colored_cache cache;
        fl_nsgs_colored_cache_init(&cache);
        fl_nsgs_options o = fixed_sweeps(500);
        o.sparse.threads = threads;
        o.sparse.cache = threads == 0 ? &cache : NULL;
        o.time_limit = 1e-12;
        fl_nsgs_result res;
        gsl_vector_set_zero(r);
        cr_assert_eq(fl_nsgs_solve_sparse(k.p, &o, r, NULL, &res, NULL), FL_WTIMEOUT, "threads %d",
                     threads);
        cr_assert_eq(res.iterations, 1);
        double e;
        cr_assert_eq(fl_residual_local(k.p, r, V, o.norm, &e, NULL), FL_OK);
        cr_assert_float_eq(res.residual, e, 1e-12 * e);
        fl_nsgs_colored_cache_clear(&cache);
    }
    gsl_vector_free(r);
    gsl_vector_free(V);
    packing_free(&k);
}
