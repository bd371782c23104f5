/* discs.h — rigid discs in a vertical plane under gravity, with Contact
 * Dynamics time-stepping, §2-§5 of
 * J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12 (paper 003).
 *
 * Each disc i has centre (x_i, y_i), rotation theta_i, radius R_i, mass m_i
 * and moment of inertia I_i; its velocity is u_i = (vx_i, vy_i, w_i), so
 * the system has n = 3N degrees of freedom and a diagonal mass matrix
 * M = diag(m_i, m_i, I_i).  Obstacles: the ground y = ground_y (normal +y),
 * two vertical walls x = wall_left (normal +x) and x = wall_right (normal
 * -x), and/or a periodic band -a <= x < a in which a disc near x = +-a meets
 * the images of the others translated by (+-2a, 0); a disc whose centre
 * leaves the band is replaced by its image (003 §5).
 *
 * Contact alpha between disc i and disc j (or an obstacle), normal n from j
 * to i, tangent t = (-n_y, n_x) (library convention of fl_problem.h: U_N >= 0
 * separating, r_N >= 0 compressive):
 *   U_N = (v_i - v_j).n,
 *   U_T = (v_i - v_j).t - R_i w_i - R_j w_j,
 * the relative velocity at the contact point of i with respect to j
 * (derivation: proofs/discs.md).  The rows of H for contact alpha hold
 * these coefficients, and H^T r gives the generalised contact forces
 * (force r_N n + r_T t on i at its contact point, the opposite on j).
 *
 * One Contact Dynamics step (003 §3), length h, from
 * velocities u_i and positions q_i:
 *   M (u_f - u_i) = h F + H^T s,   F = gravity,
 *   Coulomb's law (impulse form, 003 §3) between s_alpha and
 *   U~_alpha = H_alpha u_f + w_alpha  with
 *     w_alpha = (g_alpha / h, 0)        for a gap g_alpha > touch_tol
 *               (the contact may close during the step: the end-of-step
 *               gap g + h U_N stays >= 0),
 *     w_alpha = (e_alpha U_N(u_i), 0)    for a touching contact,
 *   e_alpha the normal restitution of the contact's type (grain–grain or
 *   grain–obstacle).  The last form is the weighted mean of 003 §3
 *   (U_N(u_f) + e U_N(u_i)) / (1 + e), scaled by 1 + e > 0, which leaves
 *   Coulomb's law unchanged (proofs/discs.md); e = 0 is the perfectly
 *   inelastic CD scheme.  Then q_f = q_i + h u_f and the periodic wrap.
 * Non-penetration: for two discs, |c + h dv| >= (c + h dv).n, so the
 * distance at the end of the step is at least d + h U_N: the gap of a
 * contact with g >= 0 stays >= 0, that of one with g < 0 does not decrease
 * (up to the solver tolerance); ground and walls are linear.
 *
 * Two implementations, one signature (drivers/discs_step.h, fl_discs_impl):
 * reference: all-pairs detection, dense M, H, W (fl_delassus_dense) and
 * fl_nsgs_solve; optimized (optimized/discs_sparse.c): cell-list detection,
 * CHOLMOD H and W = (H M^-1/2)(H M^-1/2)^T (fl_discs_delassus_diag) and
 * fl_nsgs_solve_sparse.  Both use the same contact order (sorted by
 * fl_discs_contacts_sort) so their results agree up to rounding.
 */
#ifndef FL_DISCS_H
#define FL_DISCS_H

#include <stddef.h>
#include <gsl/gsl_rng.h>

#include "fl_problem.h"
#include "fl_sparse.h"

typedef enum fl_disc_kind {
    FL_DISC_PAIR = 0,        /* disc i against disc j (possibly an image) */
    FL_DISC_GROUND = 1,      /* disc i on the ground, n = (0, 1) */
    FL_DISC_WALL_LEFT = 2,   /* disc i against x = wall_left, n = (1, 0) */
    FL_DISC_WALL_RIGHT = 3   /* disc i against x = wall_right, n = (-1, 0) */
} fl_disc_kind;

typedef struct fl_disc_contact {
    size_t i, j;             /* discs (j = i for obstacles) */
    int kind;                /* fl_disc_kind */
    int shift;               /* pairs: j is seen at x_j + 2 a shift, shift in {-1, 0, 1} */
    double nx, ny;           /* unit normal from j (or the obstacle) to i */
    double gap;              /* distance minus radii (< 0: overlap) */
} fl_disc_contact;

typedef struct fl_discs {
    size_t N;                /* number of discs */
    double *x, *y, *theta;   /* positions (length N each) */
    double *vx, *vy, *w;     /* velocities */
    double *R, *m, *I;       /* radius, mass, moment of inertia (> 0) */
    double gx, gy;           /* gravity (acceleration) */
    int ground;              /* ground y = ground_y present */
    double ground_y;
    int walls;               /* walls x = wall_left and x = wall_right present */
    double wall_left, wall_right;
    int periodic;            /* periodic band -a <= x < a */
    double a;
    double mu_grain, mu_wall;   /* friction: grain–grain, grain–ground/wall */
    double e_grain, e_wall;     /* normal restitution per contact type, in [0, 1] */
    double margin;           /* contacts are detected for gap <= margin (> 0) */
    double touch_tol;        /* gap <= touch_tol counts as touching (>= 0) */
} fl_discs;

/* N discs with zero arrays, no obstacle, gravity (0, -9.81), friction 0.5,
 * restitution 0, margin 0 (set it), touch_tol 0.  FL_EINVAL for N == 0. */
fl_status fl_discs_alloc(size_t N, fl_discs **out, fl_error *err);
void fl_discs_free(fl_discs *d);
fl_status fl_discs_copy(const fl_discs *d, fl_discs **out, fl_error *err);

/* Disc i: centre (x, y), radius R, uniform density rho per unit area:
 * m = rho pi R^2, I = m R^2 / 2; velocity zero. */
void fl_discs_set(fl_discs *d, size_t i, double x, double y, double R, double rho);

/* Validate: finite data, R, m, I > 0, margin > 0, touch_tol >= 0, mu >= 0,
 * e in [0, 1], walls ordered, periodic band 2a > 2 (2 max R + margin)
 * (at most one image of a disc can touch another) and centres inside it. */
fl_status fl_discs_check(const fl_discs *d, fl_error *err);

/* All contacts with gap <= margin, all pairs tested (reference), in the
 * canonical order of fl_discs_contacts_sort.  *out is malloc'ed (free()),
 * possibly NULL when *nc == 0. */
fl_status fl_discs_detect(const fl_discs *d, fl_disc_contact **out, size_t *nc,
                          fl_error *err);
/* Shared by both detectors: the obstacle contacts of disc i within the
 * margin (returns how many, <= 3), and the pair test of i < j with j seen
 * at x_j + 2 a shift (returns 1 and fills *c when gap <= margin). */
size_t fl_discs_obstacle_contacts(const fl_discs *d, size_t i, fl_disc_contact c[3]);
int fl_discs_pair_contact(const fl_discs *d, size_t i, size_t j, int shift, fl_disc_contact *c);
/* Sort by (i, kind, j, shift): the canonical contact order. */
void fl_discs_contacts_sort(fl_disc_contact *c, size_t nc);

/* The 2 x 6 (pair) or 2 x 3 (obstacle) coefficients of contact c: rows N, T;
 * columns (vx_i, vy_i, w_i, vx_j, vy_j, w_j). */
void fl_discs_contact_rows(const fl_discs *d, const fl_disc_contact *c, double row[2][6]);

/* U = H u for the velocities stored in d (length 2 nc). */
void fl_discs_local_velocity(const fl_discs *d, const fl_disc_contact *c, size_t nc,
                             double *U);

/* The global problem of one step (above): M, H dense (dense != 0) or as
 * CHOLMOD matrices on ctx, f = M u_i + h F, w, mu per contact type. */
fl_status fl_discs_global(const fl_discs *d, const fl_disc_contact *c, size_t nc, double h,
                          int dense, fl_sparse_ctx *ctx, fl_global_problem **out,
                          fl_error *err);


/* u_f = M^-1 (f + H^T s), written as (vx, vy, w) triples (length 3N),
 * computed contact by contact (both implementations). */
void fl_discs_end_velocity(const fl_discs *d, const fl_disc_contact *c, size_t nc,
                           double h, const double *s, double *uf);

/* Periodic wrap of the centres into -a <= x < a (003 §5). */
void fl_discs_wrap(fl_discs *d);

/* The canonical contact order as a qsort / bsearch comparator. */
int fl_discs_contact_cmp(const void *pa, const void *pb);

#endif
