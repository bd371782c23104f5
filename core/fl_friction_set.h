/* fl_friction_set.h — the friction sets every law uses (001 §2.1, §3.2,
 * §6.2; 004 (10)-(11)).  Implemented in reference/friction_sets.c.
 *
 * A friction set C lives in a tangent space of dimension 1 or 2 (the
 * coordinates of a tangential reaction in a chosen tangent basis):
 *   FL_SET_DISC      { x : |x| <= mu }            (dim 1: [-mu, mu]; dim 2: disc)
 *   FL_SET_INTERVAL  [lo, hi], dim 1; lo may be -INFINITY, hi +INFINITY
 *   FL_SET_POLYGON   conv{vertices} + cone{rays}, dim 2; 0..2 recession rays
 * The law's friction cone is then R+ (n + C) or r_n C (001 §3.2: r_t in
 * r_n C*).  Sets need not contain 0, but the laws of 001 require 0 in C.
 *
 * Ownership: a polygon owns copies of its vertex and ray arrays;
 * fl_set_release frees them (safe on any set, and on a zeroed one).
 */
#ifndef FL_FRICTION_SET_H
#define FL_FRICTION_SET_H

#include <stddef.h>

#include "fl_status.h"

typedef enum fl_set_kind {
    FL_SET_DISC = 1,
    FL_SET_INTERVAL = 2,
    FL_SET_POLYGON = 3
} fl_set_kind;

typedef struct fl_friction_set {
    fl_set_kind kind;
    int dim;            /* 1 or 2 */
    double mu;          /* disc radius */
    double lo, hi;      /* interval ends (possibly infinite) */
    size_t nvert;       /* polygon: number of vertices (>= 1) */
    double *vert;       /* polygon: 2*nvert coordinates, counter-clockwise */
    size_t nray;        /* polygon: number of recession rays (0..2) */
    double *ray;        /* polygon: 2*nray coordinates */
} fl_friction_set;

#endif
