/* fl_model_triangle.h — the single linear triangle of 002 §6 (Ligurský &
 * Renard, QJMAM 64 (2011), §6), built from data/002/triangle_002.json.
 *
 * One free node with dofs (u_nu, u_tau), M_r = diag(m1, m2), Lamé lambda,
 * mu; the per-step problem (23) of the midpoint scheme reads
 *   a u_nu - b u_tau = fhat_nu + lambda_nu,  -b u_nu + c u_tau = fhat_tau + lambda_tau,
 * a = 4 m1/dt^2 + (lambda+3mu)/2, b = (lambda+mu)/2, c = 4 m2/dt^2 + (lambda+3mu)/2,
 * with its closed-form branches S1-S4 and regions sigma1-sigma4 (002 §6
 * (i)-(iv), with the transcription fixes of proofs/triangle_002.md), in
 * the PAPER's convention (u_nu <= 0, lambda_nu <= 0).
 *
 * Ownership: plain values.
 */
#ifndef FL_MODEL_TRIANGLE_H
#define FL_MODEL_TRIANGLE_H

#include <stddef.h>

#include "fl_status.h"

/* One instance of the triangle's step problem. */
typedef struct fl_model_triangle_system {
    double lam, mu, m1, m2, dt;   /* Lamé moduli, redistributed masses, time step */
    double F, utk;                /* friction coefficient, u_tau^k */
    double a, b, c;               /* 002 §6 constants (fl_model_triangle_constants) */
} fl_model_triangle_system;

/* The example of the parameter file: the 002 §6 trial run. */
typedef struct fl_model_triangle {
    fl_model_triangle_system sys; /* F is F_values[0] */
    double F_values[3];           /* one F per figure: Figs. 3, 5, 4 (below, at, above c/b) */
    double fhat_lo, fhat_hi;      /* the fhat box drawn */
} fl_model_triangle;

/* a, b, c of 002 §6 from lam, mu, m1, m2, dt. */
void fl_model_triangle_constants(fl_model_triangle_system *t);

/* Branch S_i (i = 1..4) of 002 §6 at fhat = (fn, ft): S = (u_nu, u_tau,
 * lambda_nu, lambda_tau) at k+1/2.  S4 needs F != c/b. */
void fl_model_triangle_branch(const fl_model_triangle_system *t, int i, double fn, double ft, double S[4]);

/* 1 when fhat is inside sigma_i (i = 1..4, 002 §6), 0 outside, -1 within
 * `margin` of one of its boundary lines. */
int fl_model_triangle_region(const fl_model_triangle_system *t, int i, double fn, double ft, double margin);

/* Read the parameter file (schema of data/002/triangle_002.json): lambda >= 0,
 * mu > 0, m1, m2 >= 0, dt > 0, three F_values >= 0 and fhat_box [lo, hi]
 * with lo < hi.  FL_EPARSE / FL_EINVAL naming the file and field. */
fl_status fl_model_triangle_load(const char *path, fl_model_triangle *m, fl_error *err);

/* ---- the step problem (23) through the midpoint stepper (reference/midpoint.h) ----
 * One free node, dofs (u_nu, u_tau), M_r = diag(m1, m2),
 * A = [(lam+3mu)/2, -(lam+mu)/2; -(lam+mu)/2, (lam+3mu)/2], nu = (1,0),
 * tau = (0,1).  Runs one ENUM step of the midpoint scheme from u^k =
 * (0, utk), v^k = 0 with the load chosen so that fhat^{k+1/2} = fhat, and
 * returns every solution found of problem (23), in the PAPER's convention,
 * as rows (u_nu, u_tau, lambda_nu, lambda_tau) at k+1/2 of sols (max rows;
 * *nsol counts all).  The constants of 002 §6 are
 *   a = 4 m1/dt^2 + (lam+3mu)/2, b = (lam+mu)/2, c = 4 m2/dt^2 + (lam+3mu)/2. */
fl_status fl_model_triangle_002(double lam, double mu_lame, double m1, double m2, double dt,
                                   double F, double utk, double fhat_nu, double fhat_tau,
                                   size_t max, double *sols, size_t *nsol, fl_error *err);

#endif
