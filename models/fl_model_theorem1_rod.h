/* fl_model_theorem1_rod.h — the rod on which `frictionlab reproduce
 * theorem1` checks Theorem 1 of 000 §3 (000 has no numerical example; the
 * system is constructed in data/000/README.md and proofs/moreau_law.md §9),
 * built from data/000/theorem1_rod.json.
 *
 * A slender rigid rod in the plane, half-length l, mass m, inertia J about
 * its centre; coordinates q = (x_A, y_A, theta) of its lower end A and its
 * angle to the horizontal; obstacle y = 0; library gap phi(q) = y_A
 * (000: g(q) = -y_A).  Friction along t = (1, 0, 0) with D_1(q) =
 * [-mu(q), mu(q)] t, mu(q) = mu0 + kappa_c mu_c(theta) + kappa (theta -
 * theta_ref)^2, mu_c the critical (Painlevé) coefficient.
 *
 * Ownership: plain values; fl_model_theorem1_rod_system stores a pointer to
 * the rod in sys->data (the rod must outlive sys).
 *
 * Paper 000: "Asymptotic properties of Moreau's discrete contact law"
 * (the copy worked from carries neither authors nor journal).
 */
#ifndef FL_MODEL_THEOREM1_ROD_H
#define FL_MODEL_THEOREM1_ROD_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "fl_friction_set.h"
#include "fl_status.h"
#include "reference/moreau_law.h"

typedef struct fl_model_theorem1_rod {
    double m, l, J;
    double mu0, kappa_c, kappa, theta_ref;
    fl_friction_set C;        /* scratch, updated by the friction callback */
} fl_model_theorem1_rod;

/* One case of Theorem 1 (data/000/theorem1_rod.json "cases"). */
typedef struct fl_model_theorem1_case {
    char name[64];
    fl_model_theorem1_rod rod;
    double q[3], u_minus[3];
    /* expected (closed forms of proofs/moreau_law.md §9) */
    double gamma, gamma_tol;
    int segment;              /* A is the segment [u-, u~] (1) or the pair {u-, u~} (0) */
    double u_tilde[3], u_tilde_tol;
    double dH_limit;          /* limit of d_H(A, A_eps) (0 when it tends to 0) */
} fl_model_theorem1_case;

#define FL_MODEL_THEOREM1_MAX_EPS 8

typedef struct fl_model_theorem1 {
    fl_model_theorem1_case cases[3];
    double eps[FL_MODEL_THEOREM1_MAX_EPS];
    size_t neps, quick_neps;
    long samples, quick_samples, segment_grid;
} fl_model_theorem1;

/* Read the file (the schema of data/000/theorem1_rod.json).  Errors name the
 * file, line and field (FL_EPARSE, FL_EDIM, FL_EINVAL for a value out of
 * range: m, l, J > 0, three cases, 1 to 8 eps in (0, 1], samples >= 1). */
fl_status fl_model_theorem1_load(const char *path, fl_model_theorem1 *out, fl_error *err);
/* The same from 000/theorem1_rod.json of the data directory (dir: the
 * --data override, or NULL for fl_data_dir's rules). */
fl_status fl_model_theorem1_load_data(const char *dir, fl_model_theorem1 *out, fl_error *err);
/* Case `which` (0, 1, 2) of that file into *out. */
fl_status fl_model_theorem1_case_data(const char *dir, int which, fl_model_theorem1_case *out, fl_error *err);

/* The moreau system of the rod (000 (H1)-(H4)): mass, gap, friction. */
void fl_model_theorem1_rod_system(fl_model_theorem1_rod *rod, fl_moreau_system *sys);
/* M(q) = [m 0 -ml sin; 0 m ml cos; -ml sin  ml cos  ml^2 + J] (data/000/README.md). */
fl_status fl_model_theorem1_rod_mass(const gsl_vector *q, gsl_matrix *M, void *rod);
/* mu(theta) and gamma(q) = 1/m + l^2 cos^2/J - mu l^2 |sin cos|/J (000 §3;
 * proofs/moreau_law.md §9). */
double fl_model_theorem1_rod_mu(const fl_model_theorem1_rod *rod, double theta);
double fl_model_theorem1_rod_gamma(const fl_model_theorem1_rod *rod, double theta);

#endif
