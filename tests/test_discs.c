/* test_discs.c — rigid discs with Contact Dynamics (reference/discs.c,
 * optimized/discs_sparse.c; 003 §3–§5).
 * Unit: the rows of H against the rigid-body velocity of the contact point
 * written out here; periodic images across x = +-a.
 * Property (random packings deposited under gravity, both implementations
 * through one harness): after every step, non-penetration up to the
 * first-order bound of proofs/discs.md §3 (gap_f >= min(gap_i, 0) - tol),
 * Coulomb's law and the impact rule at every contact with U~ recomputed
 * from the end velocities, the same contacts from all-pairs and cell-list
 * detection, contacts invariant under a translation of the band
 * (periodic images consistent), reference and optimized steps agree.
 * Bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testkit/fl_random.h"
#include "fl_rng.h"
#include "drivers/discs_step.h"
#include "optimized/nsgs_sparse.h"
#include "optimized/discs_sparse.h"
#include "fl_scalar.h"


/* A random polydisperse system: N discs, radii in [0.5, 1], band or box. */
static fl_discs *random_system(gsl_rng *rng, size_t N, int periodic, double e)
{
    fl_discs *d = NULL;
    cr_assert_eq(fl_discs_alloc(N, &d, NULL), FL_OK);
    for (size_t i = 0; i < N; i++) fl_discs_set(d, i, 0, 0, 0.5 + 0.5 * gsl_rng_uniform(rng), 1.0);
    d->ground = 1;
    d->margin = 0.2;
    d->touch_tol = 1e-9;
    d->mu_grain = 0.3 + 0.5 * gsl_rng_uniform(rng);
    d->mu_wall = 0.5;
    d->e_grain = e;
    d->e_wall = e / 2;
    d->gy = -10;
    if (periodic) {
        d->periodic = 1;
        d->a = 4.5 + gsl_rng_uniform_int(rng, 4);
        d->gx = 10 * sin(24 * FL_PI / 180);
        d->gy = -10 * cos(24 * FL_PI / 180);
    } else {
        d->walls = 1;
        d->wall_left = -4.5;
        d->wall_right = 4.5;
    }
    return d;
}

static int same_contacts(const fl_disc_contact *a, size_t na, const fl_disc_contact *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t k = 0; k < na; k++)
        if (a[k].i != b[k].i || a[k].j != b[k].j || a[k].kind != b[k].kind ||
            a[k].shift != b[k].shift || fabs(a[k].gap - b[k].gap) > 1e-12 ||
            fabs(a[k].nx - b[k].nx) > 1e-12 || fabs(a[k].ny - b[k].ny) > 1e-12)
            return 0;
    return 1;
}

/* The smallest gap of every pair (all images) and obstacle, brute force. */
static void all_gaps(const fl_discs *d, double *gp)
{
    size_t N = d->N;
    for (size_t i = 0; i < N; i++) {
        double g = INFINITY;
        if (d->ground) g = fmin(g, d->y[i] - d->R[i] - d->ground_y);
        if (d->walls) g = fmin(g, fmin(d->x[i] - d->R[i] - d->wall_left,
                                       d->wall_right - d->x[i] - d->R[i]));
        gp[i * N + i] = g;
        for (size_t j = i + 1; j < N; j++) {
            double best = INFINITY;
            for (int sh = -1; sh <= 1; sh++) {
                if (!d->periodic && sh) continue;
                double dx = d->x[i] - d->x[j] - 2 * d->a * sh, dy = d->y[i] - d->y[j];
                best = fmin(best, hypot(dx, dy) - d->R[i] - d->R[j]);
            }
            gp[i * N + j] = best;
        }
    }
}

Test(discs, rows_are_the_contact_point_velocity)
{
    /* disc 0 at (0,0) R = 1, disc 1 at (2.5, 0) R = 1.5: n from 1 to 0 = (-1, 0),
     * t = (0, -1).  Point of 0: (-1,0) offset R0 n; its velocity
     * v0 + w0 k x (R0 n... ) written out: p0 = -R0 n = (1, 0), v = v0 + w0 (-p0y, p0x)
     * = v0 + w0 (0, 1); point of 1: p1 = R1 n = (-1.5, 0), v = v1 + w1 (0, -1.5). */
    fl_discs *d = NULL;
    cr_assert_eq(fl_discs_alloc(2, &d, NULL), FL_OK);
    fl_discs_set(d, 0, 0, 0, 1.0, 1.0);
    fl_discs_set(d, 1, 2.5, 0, 1.5, 1.0);
    d->margin = 0.1;
    double v[6] = {0.3, -0.7, 1.1, -0.2, 0.4, -0.9};
    d->vx[0] = v[0]; d->vy[0] = v[1]; d->w[0] = v[2];
    d->vx[1] = v[3]; d->vy[1] = v[4]; d->w[1] = v[5];
    fl_disc_contact *c = NULL;
    size_t nc = 0;
    cr_assert_eq(fl_discs_detect(d, &c, &nc, NULL), FL_OK);
    cr_assert_eq(nc, 1);
    cr_assert(fabs(c[0].nx + 1) < 1e-15 && fabs(c[0].ny) < 1e-15 && fabs(c[0].gap) < 1e-15);
    double p0[2] = {v[0] + 0 * v[2], v[1] + 1.0 * v[2]};
    double p1[2] = {v[3] + 0 * v[5], v[4] - 1.5 * v[5]};
    double rel[2] = {p0[0] - p1[0], p0[1] - p1[1]};
    double U[2];
    fl_discs_local_velocity(d, c, nc, U);
    cr_assert(fabs(U[0] - (-rel[0])) < 1e-14, "U_N %g vs %g", U[0], -rel[0]);
    cr_assert(fabs(U[1] - (-rel[1])) < 1e-14, "U_T %g vs %g", U[1], -rel[1]);
    /* mass and inertia of a uniform disc */
    cr_assert(fabs(d->m[1] - FL_PI * 2.25) < 1e-12 && fabs(d->I[1] - d->m[1] * 2.25 / 2) < 1e-12);
    free(c);
    fl_discs_free(d);
}

Test(discs, periodic_images_across_the_band)
{
    fl_discs *d = NULL;
    cr_assert_eq(fl_discs_alloc(3, &d, NULL), FL_OK);
    d->periodic = 1;
    d->a = 5;
    d->margin = 0.1;
    fl_discs_set(d, 0, 4.6, 1, 0.5, 1);    /* touches the image of 1 at x = -4.4 + 10 */
    fl_discs_set(d, 1, -4.4, 1, 0.5, 1);
    fl_discs_set(d, 2, 0, 1, 0.5, 1);
    fl_disc_contact *c = NULL, *c2 = NULL;
    size_t nc = 0, nc2 = 0;
    cr_assert_eq(fl_discs_detect(d, &c, &nc, NULL), FL_OK);
    cr_assert_eq(nc, 1);
    cr_assert(c[0].i == 0 && c[0].j == 1 && c[0].shift == 1 && fabs(c[0].gap) < 1e-12);
    cr_assert(fabs(c[0].nx + 1) < 1e-12);   /* from the image (5.6, 1) to disc 0 */
    cr_assert_eq(fl_discs_detect_cells(d, &c2, &nc2, NULL), FL_OK);
    cr_assert(same_contacts(c, nc, c2, nc2));
    free(c2);
    /* exit and re-entry: the wrap keeps the centre in [-a, a) */
    d->x[0] = 5.2;
    fl_discs_wrap(d);
    cr_assert(fabs(d->x[0] + 4.8) < 1e-12);
    d->x[1] = -5.3;
    fl_discs_wrap(d);
    cr_assert(fabs(d->x[1] - 4.7) < 1e-12);
    free(c);
    fl_discs_free(d);
}

/* Every step of a deposition: all invariants of the file comment. */
static void run_steps(fl_impl impl, int periodic, double e)
{
    gsl_rng *rng = fl_test_rng(77 + (unsigned long)periodic + 2 * (unsigned long)impl);
    long steps_checked = 0, contacts_checked = 0;
    for (int sys = 0; sys < 3; sys++) {
        size_t N = 10 + gsl_rng_uniform_int(rng, 10);
        fl_discs *d = random_system(rng, N, periodic, e);
        fl_discs_step_options o = fl_discs_step_options_default();
        o.h = 0.01;
        o.impl = impl;
        o.nsgs.tol = 1e-12;
        o.nsgs.max_sweeps = 5000;
        /* loose initial grid: the deposition generator with one step */
        int done = 0;
        cr_assert_eq(fl_discs_deposit(d, &o, rng, 1, 1e-3, &done, NULL), FL_OK);
        fl_discs_work work;
        cr_assert_eq(fl_discs_work_init(&work, NULL), FL_OK);
        double *g0 = malloc(N * N * sizeof *g0), *g1 = malloc(N * N * sizeof *g1);
        double *uf = malloc(3 * N * sizeof *uf);
        for (int k = 0; k < 60; k++) {
            /* the step's problem, solved here, checked against U~ rebuilt */
            fl_disc_contact *c = NULL, *cc = NULL;
            size_t nc = 0, ncc = 0;
            fl_local_problem *p = NULL;
            cr_assert_eq(fl_discs_local(d, &o, &work, &c, &nc, &p, NULL), FL_OK);
            cr_assert_eq(fl_discs_detect_cells(d, &cc, &ncc, NULL), FL_OK);
            fl_disc_contact *cr = NULL;
            size_t ncr = 0;
            cr_assert_eq(fl_discs_detect(d, &cr, &ncr, NULL), FL_OK);
            cr_assert(same_contacts(cr, ncr, cc, ncc), "all-pairs vs cells: %zu vs %zu %s",
                      ncr, ncc, fl_test_seed_note());
            free(cr);
            free(cc);
            if (nc) {
                gsl_vector *r = gsl_vector_calloc(2 * nc), *U = gsl_vector_calloc(2 * nc);
                fl_nsgs_result nr;
                fl_status s = impl == FL_IMPL_REFERENCE
                                  ? fl_nsgs_solve(p, &o.nsgs, r, U, &nr, NULL)
                                  : fl_nsgs_solve_sparse(p, &o.nsgs, r, U, &nr, NULL);
                cr_assert_eq(s, FL_OK, "nsgs status %d %s", s, fl_test_seed_note());
                fl_discs_end_velocity(d, c, nc, o.h, r->data, uf);
                double *Ui = malloc(2 * nc * sizeof *Ui), *Uf = malloc(2 * nc * sizeof *Uf);
                fl_discs_local_velocity(d, c, nc, Ui);
                fl_discs *e2 = NULL;
                cr_assert_eq(fl_discs_copy(d, &e2, NULL), FL_OK);
                for (size_t i = 0; i < N; i++) {
                    e2->vx[i] = uf[3 * i]; e2->vy[i] = uf[3 * i + 1]; e2->w[i] = uf[3 * i + 2];
                }
                fl_discs_local_velocity(e2, c, nc, Uf);
                fl_discs_free(e2);
                double smax = 1e-300, vs = 10 * o.h + 1e-300;
                for (size_t q = 0; q < 2 * nc; q++) smax = fmax(smax, fabs(r->data[q]));
                for (size_t a = 0; a < nc; a++) {
                    double ea = c[a].kind == FL_DISC_PAIR ? d->e_grain : d->e_wall;
                    double Ut[2] = {Uf[2 * a] + (c[a].gap > d->touch_tol ? c[a].gap / o.h
                                                                         : ea * Ui[2 * a]),
                                    Uf[2 * a + 1]};
                    double mu = c[a].kind == FL_DISC_PAIR ? d->mu_grain : d->mu_wall;
                    double v = fl_coulomb_violation(2, 1, &mu, r->data + 2 * a, Ut, smax, vs);
                    cr_assert(v < 1e-7, "Coulomb / impact rule violated (%g) at contact %zu, "
                              "step %d %s", v, a, k, fl_test_seed_note());
                    contacts_checked++;
                }
                free(Ui);
                free(Uf);
                gsl_vector_free(r);
                gsl_vector_free(U);
            }
            if (p && p->Ws) fl_sparse_free(&work.ctx, &p->Ws);
            fl_local_problem_free(p);
            free(c);
            /* the step itself, then non-penetration */
            all_gaps(d, g0);
            fl_discs_step_result res;
            fl_status s = fl_discs_step(d, &o, &work, &res, NULL);
            cr_assert_eq(s, FL_OK, "step status %d %s", s, fl_test_seed_note());
            all_gaps(d, g1);
            for (size_t i = 0; i < N; i++)
                for (size_t j = i; j < N; j++) {
                    double tol = 1e-7;
                    cr_assert(g1[i * N + j] >= fmin(g0[i * N + j], 0) - tol,
                              "penetration %g -> %g (%zu, %zu) step %d %s", g0[i * N + j],
                              g1[i * N + j], i, j, k, fl_test_seed_note());
                }
            for (size_t i = 0; i < N && periodic; i++)
                cr_assert(d->x[i] >= -d->a && d->x[i] < d->a, "disc %zu left the band %s", i,
                          fl_test_seed_note());
            steps_checked++;
        }
        free(g0);
        free(g1);
        free(uf);
        fl_discs_work_clear(&work);
        fl_discs_free(d);
    }
    cr_assert(steps_checked == 180 && contacts_checked > 500, "checked %ld contacts",
              contacts_checked);
    gsl_rng_free(rng);
}

Test(discs, steps_reference_box) { run_steps(FL_IMPL_REFERENCE, 0, 0.0); }
Test(discs, steps_optimized_band) { run_steps(FL_IMPL_OPTIMIZED, 1, 0.0); }
Test(discs, steps_reference_band_restitution) { run_steps(FL_IMPL_REFERENCE, 1, 0.6); }
Test(discs, steps_optimized_box_restitution) { run_steps(FL_IMPL_OPTIMIZED, 0, 0.4); }

Test(discs, same_contacts_random_and_translation_invariance)
{
    gsl_rng *rng = fl_test_rng(9);
    for (int t = 0; t < 300; t++) {
        int periodic = t % 2;
        size_t N = 2 + gsl_rng_uniform_int(rng, 60);
        fl_discs *d = random_system(rng, N, periodic, 0);
        if (periodic && t % 4 == 1) d->a = 2.3;   /* two columns of cells */
        double Lx = periodic ? 2 * d->a : 9, Ly = 2 + 0.3 * N;
        for (size_t i = 0; i < N; i++) {
            d->x[i] = (periodic ? -d->a : -4.5) + Lx * gsl_rng_uniform(rng);
            if (periodic && d->x[i] >= d->a) d->x[i] = -d->a;
            d->y[i] = Ly * gsl_rng_uniform(rng);
        }
        fl_disc_contact *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        cr_assert_eq(fl_discs_detect(d, &a, &na, NULL), FL_OK);
        cr_assert_eq(fl_discs_detect_cells(d, &b, &nb, NULL), FL_OK);
        cr_assert(same_contacts(a, na, b, nb), "t=%d all-pairs %zu vs cells %zu %s", t, na, nb,
                  fl_test_seed_note());
        free(b);
        if (periodic) {
            /* translate the band: same pairs and gaps (images consistent) */
            double sx = 2 * d->a * gsl_rng_uniform(rng);
            for (size_t i = 0; i < N; i++) d->x[i] += sx;
            fl_discs_wrap(d);
            cr_assert_eq(fl_discs_detect_cells(d, &b, &nb, NULL), FL_OK);
            cr_assert_eq(na, nb, "translation changed the contacts %s", fl_test_seed_note());
            for (size_t k = 0; k < na; k++) {
                int found = 0;
                for (size_t q = 0; q < nb && !found; q++)
                    found = a[k].i == b[q].i && a[k].j == b[q].j && a[k].kind == b[q].kind &&
                            fabs(a[k].gap - b[q].gap) < 1e-9 && fabs(a[k].nx - b[q].nx) < 1e-9;
                cr_assert(found, "contact %zu lost by the translation %s", k, fl_test_seed_note());
            }
            free(b);
        }
        free(a);
        fl_discs_free(d);
    }
    gsl_rng_free(rng);
}

Test(discs, bad_input)
{
    fl_discs *d = NULL;
    fl_error err;
    cr_assert_eq(fl_discs_alloc(0, &d, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_alloc(2, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_alloc(2, &d, NULL), FL_OK);
    fl_discs_set(d, 0, 0, 1, 1, 1);
    fl_discs_set(d, 1, 3, 1, 1, 1);
    fl_disc_contact *c = NULL;
    size_t nc = 0;
    cr_assert_eq(fl_discs_detect(d, &c, &nc, &err), FL_EINVAL);   /* margin 0 */
    d->margin = 0.1;
    cr_assert_eq(fl_discs_check(d, &err), FL_OK);
    d->x[1] = NAN;
    cr_assert_eq(fl_discs_check(d, &err), FL_ENONFINITE);
    d->x[1] = 3;
    d->R[0] = -1;
    cr_assert_eq(fl_discs_detect_cells(d, &c, &nc, &err), FL_EINVAL);
    d->R[0] = 1;
    d->e_grain = 2;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->e_grain = 0;
    d->mu_wall = -1;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->mu_wall = 0.5;
    d->walls = 1;
    d->wall_left = 1;
    d->wall_right = 0;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);
    d->walls = 0;
    d->periodic = 1;
    d->a = 1;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);   /* band too narrow */
    d->a = 2.5;
    cr_assert_eq(fl_discs_check(d, &err), FL_EINVAL);   /* x = 3 outside */
    d->periodic = 0;
    d->gx = INFINITY;
    cr_assert_eq(fl_discs_check(d, &err), FL_ENONFINITE);
    d->gx = 0;
    fl_global_problem *g = NULL;
    fl_disc_contact one = {0, 1, FL_DISC_PAIR, 0, -1, 0, 1};
    cr_assert_eq(fl_discs_global(d, &one, 1, 0, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_global(d, NULL, 0, 1, 1, NULL, &g, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_global(d, &one, 1, 1, 0, NULL, &g, &err), FL_EINVAL);
    one.j = 7;
    cr_assert_eq(fl_discs_global(d, &one, 1, 1, 1, NULL, &g, &err), FL_EINVAL);
    fl_discs_step_options o = fl_discs_step_options_default();
    fl_discs_work w;
    memset(&w, 0, sizeof w);
    cr_assert_eq(fl_discs_step(d, &o, &w, NULL, &err), FL_EINVAL);   /* work not started */
    cr_assert_eq(fl_discs_work_init(&w, &err), FL_OK);
    o.h = -1;
    cr_assert_eq(fl_discs_step(d, &o, &w, NULL, &err), FL_EINVAL);
    o.h = 0.01;
    o.impl = (fl_impl)7;
    cr_assert_eq(fl_discs_step(d, &o, &w, NULL, &err), FL_EINVAL);
    o.impl = FL_IMPL_REFERENCE;
    /* no contact: free fall */
    fl_discs_step_result res;
    cr_assert_eq(fl_discs_step(d, &o, &w, &res, &err), FL_OK);
    cr_assert(res.ncontacts == 0 && fabs(d->vy[0] + 9.81 * 0.01) < 1e-15);
    cr_assert_eq(fl_discs_step(NULL, &o, &w, &res, &err), FL_EINVAL);
    gsl_rng *rng = fl_rng_alloc(1);
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 5, 1e-3, NULL, &err), FL_EINVAL);   /* no ground */
    d->ground = 1;
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 5, 1e-3, NULL, &err), FL_EINVAL);   /* no walls */
    d->walls = 1;
    d->wall_left = 0;
    d->wall_right = 1;
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 5, 1e-3, NULL, &err), FL_EINVAL);   /* too narrow */
    cr_assert_eq(fl_discs_deposit(d, &o, rng, 0, 1e-3, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_copy(NULL, &d, &err), FL_EINVAL);
    fl_discs_local(d, NULL, &w, &c, &nc, NULL, &err);
    cr_assert_eq(fl_discs_local(d, NULL, &w, &c, &nc, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_detect(d, NULL, &nc, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_detect_cells(d, NULL, &nc, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_work_init(NULL, &err), FL_EINVAL);
    fl_discs_work_clear(&w);
    fl_discs_work_clear(NULL);
    fl_discs_free(NULL);
    gsl_rng_free(rng);
    fl_discs_free(d);
}

/* Reference (dense W, fl_delassus_dense) and optimized (CHOLMOD A A^T)
 * local problems of the same state coincide, and so do the steps. */
Test(discs, reference_and_optimized_agree)
{
    gsl_rng *rng = fl_test_rng(31);
    for (int sys = 0; sys < 4; sys++) {
        fl_discs *d = random_system(rng, 12 + gsl_rng_uniform_int(rng, 10), sys % 2, 0.3 * (sys / 2));
        fl_discs_step_options o = fl_discs_step_options_default();
        o.h = 0.01;
        o.nsgs.tol = 1e-13;
        o.nsgs.max_sweeps = 20000;
        int done = 0;
        cr_assert_eq(fl_discs_deposit(d, &o, rng, 40, 1e-9, &done, NULL), FL_OK);
        fl_discs *e = NULL;
        cr_assert_eq(fl_discs_copy(d, &e, NULL), FL_OK);
        fl_discs_work w0, w1;
        cr_assert_eq(fl_discs_work_init(&w0, NULL), FL_OK);
        cr_assert_eq(fl_discs_work_init(&w1, NULL), FL_OK);
        fl_disc_contact *c0 = NULL, *c1 = NULL;
        size_t n0 = 0, n1 = 0;
        fl_local_problem *p0 = NULL, *p1 = NULL;
        cr_assert_eq(fl_discs_local(d, &o, &w0, &c0, &n0, &p0, NULL), FL_OK);
        fl_discs_step_options o1 = o;
        o1.impl = FL_IMPL_OPTIMIZED;
        cr_assert_eq(fl_discs_local(d, &o1, &w1, &c1, &n1, &p1, NULL), FL_OK);
        cr_assert(n0 == n1 && n0 > 0 && p0 && p1);
        gsl_matrix *W1 = NULL;
        cr_assert_eq(fl_sparse_to_dense(&w1.ctx, p1->Ws, &W1, NULL), FL_OK);
        double wmax = 0, dw = 0, dq = 0, qmax = 0;
        for (size_t i = 0; i < p0->m; i++) {
            qmax = fmax(qmax, fabs(p0->q->data[i]));
            dq = fmax(dq, fabs(p0->q->data[i] - p1->q->data[i]));
            for (size_t j = 0; j < p0->m; j++) {
                wmax = fmax(wmax, fabs(gsl_matrix_get(p0->W, i, j)));
                dw = fmax(dw, fabs(gsl_matrix_get(p0->W, i, j) - gsl_matrix_get(W1, i, j)));
            }
        }
        cr_assert(dw <= 1e-12 * wmax && dq <= 1e-12 * (qmax + 1), "W diff %g, q diff %g %s", dw,
                  dq, fl_test_seed_note());
        gsl_matrix_free(W1);
        fl_sparse_free(&w1.ctx, &p1->Ws);
        fl_local_problem_free(p0);
        fl_local_problem_free(p1);
        free(c0);
        free(c1);
        for (int k = 0; k < 5; k++) {
            cr_assert(fl_discs_step(d, &o, &w0, NULL, NULL) >= 0);
            cr_assert(fl_discs_step(e, &o1, &w1, NULL, NULL) >= 0);
        }
        double dv = 0;
        for (size_t i = 0; i < d->N; i++)
            dv = fmax(dv, fabs(d->vx[i] - e->vx[i]) + fabs(d->vy[i] - e->vy[i]) +
                              fabs(d->x[i] - e->x[i]) + fabs(d->y[i] - e->y[i]));
        cr_assert(dv < 1e-8, "reference and optimized steps differ by %g %s", dv,
                  fl_test_seed_note());
        fl_discs_work_clear(&w0);
        fl_discs_work_clear(&w1);
        fl_discs_free(d);
        fl_discs_free(e);
    }
    gsl_rng_free(rng);
}

/* Crowded and spread-out configurations (list growth, enlarged cells) and
 * the bad input of the optimized Delassus operator. */
Test(discs, cells_crowded_spread_and_delassus_bad_input)
{
    gsl_rng *rng = fl_test_rng(5);
    for (int t = 0; t < 20; t++) {
        size_t N = 30 + gsl_rng_uniform_int(rng, 20);
        fl_discs *d = random_system(rng, N, t % 2, 0);
        d->a = 6;
        for (size_t i = 0; i < N; i++) {
            d->x[i] = 1.5 * gsl_rng_uniform(rng);   /* every pair overlaps */
            d->y[i] = 1.5 * gsl_rng_uniform(rng);
        }
        if (t % 4 == 0) d->y[0] = 1e7;             /* an outlier far above */
        if (t % 4 == 2 && !d->periodic) {
            d->walls = 0;                          /* an outlier far to the left */
            d->x[1] = -1e7;
        }
        fl_disc_contact *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        cr_assert_eq(fl_discs_detect(d, &a, &na, NULL), FL_OK);
        cr_assert_eq(fl_discs_detect_cells(d, &b, &nb, NULL), FL_OK);
        cr_assert(na > 4 * N && same_contacts(a, na, b, nb), "t=%d: %zu vs %zu %s", t, na, nb,
                  fl_test_seed_note());
        free(a);
        free(b);
        fl_discs_free(d);
    }
    fl_discs *d = random_system(rng, 3, 0, 0);
    fl_local_problem *p = NULL;
    fl_error err;
    cr_assert_eq(fl_discs_delassus_diag(d, NULL, &p, &err), FL_EINVAL);
    cr_assert_eq(fl_discs_delassus_diag(d, NULL, NULL, &err), FL_EINVAL);
    fl_global_problem *g = NULL;
    fl_disc_contact one = {0, 0, FL_DISC_GROUND, 0, 0, 1, 0};
    d->y[0] = d->R[0];
    cr_assert_eq(fl_discs_global(d, &one, 1, 0.01, 1, NULL, &g, &err), FL_OK);
    cr_assert_eq(fl_discs_delassus_diag(d, g, &p, &err), FL_EINVAL);   /* dense H only */
    fl_global_problem_free(g);
    fl_discs_free(d);
    gsl_rng_free(rng);
}
