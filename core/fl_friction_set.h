/* fl_friction_set.h — the friction sets every law uses (001 §2.1, §3.2,
 * §6.2; 004 (10)-(11)).  Implemented in core/fl_friction_set.c.
 *
 * A friction set C lives in a tangent space of dimension 1 or 2 (the
 * coordinates of a tangential reaction in a chosen tangent basis):
 *   FL_SET_DISC      { x : |x| <= mu }            (dim 1: [-mu, mu]; dim 2: disc)
 *   FL_SET_INTERVAL  [lo, hi], dim 1; lo may be -INFINITY, hi +INFINITY
 *   FL_SET_POLYGON   conv{vertices} + cone{rays}, dim 2; 0..2 recession rays
 * The law's friction cone is then R+ (n + C) or r_n C (001 §3.2: r_t in
 * r_n C*).  Sets need not contain 0, but the laws of 001 require 0 in C.
 *
 * Polygon convention (checked by fl_friction_set_polygon, FL_EINVAL otherwise):
 * the boundary of C, traversed counter-clockwise (interior on the left),
 * is read from the arrays in order.
 *   0 rays: v_0 .. v_{m-1} is the closed boundary: m = 1 a point, m = 2 a
 *           segment, m >= 3 a strictly convex counter-clockwise polygon
 *           (every turn a strict left turn, one loop).
 *   1 ray d: C = conv{v} + R+ d.  The boundary comes in from infinity
 *           along -d to v_0, follows the chain v_0 -> .. -> v_{m-1} and
 *           leaves along d from v_{m-1}: both rays attach to the ends of
 *           the chain (m = 1: the half-line v_0 + R+ d).
 *   2 rays d0, d1: C = conv{v} + cone{d0, d1}, cross(d0, d1) < 0 (a pointed
 *           wedge of opening < pi; d0 on the right of d1 seen from inside).
 *           The boundary comes in along -d0 to v_0 and leaves along d1 from
 *           v_{m-1}.
 *   With rays, every chain edge e_k = v_{k+1} - v_k points strictly
 *   between -d0 and d_last (cross(-d0, e_k) > 0 and cross(e_k, d_last) > 0)
 *   and consecutive edges turn strictly left: this is exactly what keeps
 *   conv{v} + cone{rays} convex with the listed boundary.  Example: the
 *   "U" {|x| <= 1, y >= |x| - 1} is vertices (-1,0),(0,-1),(1,0)
 *   with the single ray (0,1).
 *
 * Scaling: rn C is the set scaled by rn >= 0, with 0 . C = {0} and
 * S_{0 C} = 0 (the convention 0 . (+inf) = 0 of 001's rn S_C terms).
 *
 * Ownership: a polygon owns copies of its vertex and ray arrays;
 * fl_friction_set_release frees them (safe on any set, and on a zeroed one).
 *
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_FRICTION_SET_H
#define FL_FRICTION_SET_H

#include <stddef.h>

#include "fl_status.h"

typedef enum fl_friction_set_kind {
    FL_SET_DISC = 1,
    FL_SET_INTERVAL = 2,
    FL_SET_POLYGON = 3
} fl_friction_set_kind;

typedef struct fl_friction_set {
    fl_friction_set_kind kind;
    int dim;            /* 1 or 2 */
    double mu;          /* disc radius */
    double lo, hi;      /* interval ends (possibly infinite) */
    size_t nvert;       /* polygon: number of vertices (>= 1) */
    double *vert;       /* polygon: 2*nvert coordinates, counter-clockwise */
    size_t nray;        /* polygon: number of recession rays (0..2) */
    double *ray;        /* polygon: 2*nray coordinates */
} fl_friction_set;

/* ---- construction (copies arrays; FL_EINVAL with a message on bad data:
 * mu < 0, lo > hi, NaN, empty polygon, non-convex or clockwise polygon,
 * ray count > 2, zero ray) ---- */
fl_status fl_friction_set_disc(fl_friction_set *C, int dim, double mu, fl_error *err);
fl_status fl_friction_set_interval(fl_friction_set *C, double lo, double hi, fl_error *err);
fl_status fl_friction_set_polygon(fl_friction_set *C, size_t nvert, const double *vert,
                         size_t nray, const double *ray, fl_error *err);
/* Deep copy (dst must be released by the caller). */
fl_status fl_friction_set_copy(fl_friction_set *dst, const fl_friction_set *src, fl_error *err);
void fl_friction_set_release(fl_friction_set *C);

/* 1 if C is bounded. */
int fl_friction_set_is_bounded(const fl_friction_set *C);
/* 1 if x (length C->dim) lies in C up to tol (distance <= tol). */
int fl_friction_set_contains(const fl_friction_set *C, const double *x, double tol);

/* Euclidean projection of x onto C (p may alias x). */
fl_status fl_friction_set_project(const fl_friction_set *C, const double *x, double *p,
                         fl_error *err);
/* Projection in the metric of an SPD matrix G (dim x dim, row-major):
 * p = argmin_{c in C} (c - x)^T G (c - x).  Exact for intervals and
 * polygons; for the 2D disc a monotone scalar root-finding on the
 * multiplier, converged to machine precision. */
fl_status fl_friction_set_project_metric(const fl_friction_set *C, const double *G,
                                const double *x, double *p, fl_error *err);

/* Support function S_C(y) = sup_{c in C} c.y (001 §2.1, §6.2).  Returns 1
 * and sets *value when finite, 0 when S_C(y) = +inf (and, value untouched,
 * for a non-finite y or an invalid set).  Polygons: +inf iff some ray rho
 * has rho.y > 64 eps |rho| |y| (a direction within rounding of the barrier
 * cone counts as in it; proofs/friction_sets.md §1). */
int fl_friction_set_support(const fl_friction_set *C, const double *y, double *value);
/* One maximiser c in argmax_{c in C} c.y when S_C(y) is finite (a face
 * point chosen deterministically); FL_EINVAL when S_C(y) = +inf. */
fl_status fl_friction_set_support_point(const fl_friction_set *C, const double *y, double *c,
                               fl_error *err);

/* The three equivalent statements of Coulomb's law with the friction set
 * scaled by rn >= 0 (001 §2.1 (2.1), (i)-(iii); §3.2 for general C):
 *   (i)   normality:           -v in N_{rn C}(r)   (r in rn C and
 *                              (c - r).(-v) <= 0 for all c in rn C)
 *   (ii)  maximum dissipation: r in dS_{rn C}(-v)  (r in rn C and
 *                              r.(-v) = S_{rn C}(-v))
 *   (iii) variational ineq.:   for all w: r.(w - v) + rn (S_C(-w) - S_C(-v)) >= 0
 * Each returns 1 if the statement holds within tol, 0 otherwise (also on
 * invalid arguments: rn < 0, NaN).  Tolerances are relative to the force
 * scale F = |r| + rn (1 + size(C)), size(C) the largest |point| of the
 * description: membership dist(r, rn C) <= tol F; dissipation
 * |S_{rn C}(-v) - r.(-v)| <= tol F |v|.  Each statement is computed its own
 * way: (i) by the projection test P_{rn C}(r - F v/|v|) = r, (ii) by
 * membership and Fenchel's equality, (iii) exactly by its closed-form
 * infimum -I_{rn C}(r) - r.v - rn S_C(-v) (proofs/friction_sets.md §4):
 * with rn > 0 and S_C(-v) = +inf all three fail; with rn = 0 they hold
 * iff r = 0. */
int fl_friction_set_normality(const fl_friction_set *C, double rn, const double *r,
                         const double *v, double tol);
int fl_friction_set_max_dissipation(const fl_friction_set *C, double rn, const double *r,
                               const double *v, double tol);
int fl_friction_set_variational(const fl_friction_set *C, double rn, const double *r,
                           const double *v, double tol);

/* Coulomb cone K = {(rn, rt) : rn >= 0, rt in rn C} in R^{1+dim} for a disc
 * C (second-order cone, 001 (2.1)) and its polar K° = {y : y.x <= 0 for all
 * x in K}: Euclidean projections (closed forms).  x, p have length 1+dim;
 * x[0] is the normal component.  Also for an interval C (a planar cone:
 * wedge, ray or half-plane) and a polygon C (a polyhedral cone of R^3 with
 * extreme rays (1, v_k) and (0, d_j): exact projection over its faces; the
 * polar is generated by the outward face normals, or P_K° x = x - P_K x when
 * the polygon has no interior).  FL_ENOMEM possible for polygons only. */
fl_status fl_friction_set_cone_project(const fl_friction_set *C, const double *x, double *p,
                          fl_error *err);
fl_status fl_friction_set_cone_project_polar(const fl_friction_set *C, const double *x, double *p,
                                fl_error *err);

#endif
