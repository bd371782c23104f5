/* enumerate.h — exhaustive enumeration of the solutions of a small 2D
 * frictional contact problem (exhaustive enumeration, proofs/contact_dynamics.md; an independent oracle of
 * the whole solution set explored by 003 §3–4).
 *
 * Each contact takes one of four statuses; each assignment of statuses
 * turns the local problem U = W r + q (fl_problem.h, library signs) into a
 * square linear system (proofs/contact_dynamics.md):
 *   open   r_N = 0, r_T = 0                      check U_N >= 0
 *   stick  U_N = 0, U_T = 0                      check r_N >= 0, |r_T| <= mu r_N
 *   slide+ U_N = 0, r_T + mu r_N = 0 (U_T > 0)  check r_N >= 0, U_T >= 0
 *   slide- U_N = 0, r_T - mu r_N = 0 (U_T < 0)  check r_N >= 0, U_T <= 0
 * solved by LU; the solutions passing the checks (within tol times the
 * problem scales) are collected and deduplicated.  An assignment whose
 * system is singular may carry a continuum of solutions (e.g. the wedged
 * rod, 003 §2): it is counted in `singular` and not listed; membership of
 * a point in such a continuum is tested by fl_enumerate_is_solution.
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 */
#ifndef FL_ENUMERATE_H
#define FL_ENUMERATE_H

#include <stddef.h>

#include "fl_problem.h"
#include "fl_status.h"

typedef enum fl_contact_status {
    FL_CONTACT_OPEN = 0,
    FL_CONTACT_STICK = 1,
    FL_CONTACT_SLIDE_POS = 2,   /* U_T > 0, r_T = -mu r_N */
    FL_CONTACT_SLIDE_NEG = 3    /* U_T < 0, r_T = +mu r_N */
} fl_contact_status;

typedef struct fl_enumerate_result {
    size_t m, nc;
    size_t nsol;            /* distinct isolated solutions */
    double *sol;            /* nsol x m, row-major */
    int *status;            /* nsol x nc statuses of the first assignment giving it */
    size_t tried;           /* 4^nc */
    size_t singular;        /* assignments with a singular system */
} fl_enumerate_result;

/* Largest problem accepted: nc <= FL_ENUM_MAX_CONTACTS (4^8 = 65536 systems). */
#define FL_ENUM_MAX_CONTACTS 8

/* Enumerate the isolated solutions of the 2D local problem p (dense W).
 * tol: relative tolerance of the inequality checks (e.g. 1e-9).
 * FL_EINVAL for dim != 2, nc > FL_ENUM_MAX_CONTACTS, bad problem. */
fl_status fl_enumerate_solutions(const fl_local_problem *p, double tol, fl_enumerate_result **out,
                                 fl_error *err);
void fl_enumerate_result_free(fl_enumerate_result *e);

/* Index of the listed solution within dist <= tol (1 + |r|) of r, or -1. */
long fl_enumerate_find(const fl_enumerate_result *e, const double *r, double tol);

/* 1 if r solves the 2D problem p within tol (fl_coulomb_violation with the
 * problem scales of fl_enumerate_scales), whether isolated or in a continuum. */
int fl_enumerate_is_solution(const fl_local_problem *p, const double *r, double tol);

/* Problem scales used by the checks: velocity us = max(||q||, tiny),
 * impulse rs = us / max_i W_ii. */
void fl_enumerate_scales(const fl_local_problem *p, double *rs, double *us);

#endif
