/* fl_model_theorem1_rod.c — the rod of 000 Theorem 1 (§3), built from
 * data/000/theorem1_rod.json (see fl_model_theorem1_rod.h). */
#include "models/fl_model_theorem1_rod.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fl_data.h"
#include "fl_json.h"
#include "models/fl_model_file.h"

/* mu_c(theta) = (J/m + l^2 cos^2) / (l^2 |sin cos|): gamma = 0 (Painlevé). */
static double rod_mu_crit(const fl_model_theorem1_rod *rod, double th)
{
    double c = cos(th), s = sin(th);
    return (rod->J / rod->m + rod->l * rod->l * c * c) / (rod->l * rod->l * fabs(s * c));
}

double fl_model_theorem1_rod_mu(const fl_model_theorem1_rod *rod, double th)
{
    double mu = rod->mu0 + rod->kappa * (th - rod->theta_ref) * (th - rod->theta_ref);
    if (rod->kappa_c != 0) mu += rod->kappa_c * rod_mu_crit(rod, th);
    return mu;
}

/* 000 §3, gamma(q) of the rod: proofs/moreau_law.md §9. */
double fl_model_theorem1_rod_gamma(const fl_model_theorem1_rod *rod, double th)
{
    double c = cos(th), s = sin(th), l2 = rod->l * rod->l;
    return 1.0 / rod->m + l2 * c * c / rod->J - fl_model_theorem1_rod_mu(rod, th) * l2 * fabs(s * c) / rod->J;
}

/* M(q) in the coordinates (x_A, y_A, theta) of the end A:
 * G = A + l (cos, sin), T = 1/2 m |G'|^2 + 1/2 J theta'^2 (000 (H1)). */
fl_status fl_model_theorem1_rod_mass(const gsl_vector *q, gsl_matrix *M, void *data)
{
    const fl_model_theorem1_rod *rod = data;
    double th = gsl_vector_get(q, 2), ml = rod->m * rod->l;
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, rod->m);
    gsl_matrix_set(M, 1, 1, rod->m);
    gsl_matrix_set(M, 0, 2, -ml * sin(th));
    gsl_matrix_set(M, 2, 0, -ml * sin(th));
    gsl_matrix_set(M, 1, 2, ml * cos(th));
    gsl_matrix_set(M, 2, 1, ml * cos(th));
    gsl_matrix_set(M, 2, 2, ml * rod->l + rod->J);
    return FL_OK;
}

/* library gap phi = y_A >= 0 (000: g(q) = -y_A <= 0; (H2)) */
static fl_status rod_gap(const gsl_vector *q, double *phi, gsl_vector *dphi, void *data)
{
    (void)data;
    *phi = gsl_vector_get(q, 1);
    gsl_vector_set_basis(dphi, 1);
    return FL_OK;
}

/* (H3)-(H4): D_1(q) = [-mu(q), mu(q)] e_x */
static fl_status rod_friction(const gsl_vector *q, const gsl_vector *n, double *mu,
                              gsl_matrix *T, const fl_friction_set **C, void *data)
{
    (void)n;
    fl_model_theorem1_rod *rod = data;
    double m = fl_model_theorem1_rod_mu(rod, gsl_vector_get(q, 2));
    *mu = m;
    gsl_matrix_set_zero(T);
    gsl_matrix_set(T, 0, 0, 1.0);         /* t = e_x: the obstacle's direction */
    rod->C.kind = FL_SET_DISC;
    rod->C.dim = 1;
    rod->C.mu = m;
    *C = &rod->C;
    return FL_OK;
}

void fl_model_theorem1_rod_system(fl_model_theorem1_rod *rod, fl_moreau_system *sys)
{
    memset(sys, 0, sizeof *sys);
    sys->d = 3;
    sys->mass = fl_model_theorem1_rod_mass;
    sys->gap = rod_gap;
    sys->friction = FL_MOREAU_SET;
    sys->friction_at = rod_friction;
    sys->k = 1;
    sys->data = rod;
}

/* A fixed-length array member into out[n]. */
static fl_status read3(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key,
                       double out[3], fl_error *err)
{
    gsl_vector *v = NULL;
    FL_TRY(fl_json_vector(doc, obj, where, key, 3, &v, err));
    for (size_t i = 0; i < 3; i++) out[i] = gsl_vector_get(v, i);
    gsl_vector_free(v);
    return FL_OK;
}

static fl_status load_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_model_theorem1 *out = vout;
    const json_t *sys = NULL, *cases = NULL, *smp = NULL;
    double m, l, J;
    FL_TRY(fl_json_object(doc, doc->root, "", "system", &sys, err));
    FL_TRY(fl_model_file_number_in(doc, sys, "system", "m", 1e-300, 1e300, &m, err));
    FL_TRY(fl_model_file_number_in(doc, sys, "system", "l", 1e-300, 1e300, &l, err));
    FL_TRY(fl_model_file_number_in(doc, sys, "system", "J", 1e-300, 1e300, &J, err));
    FL_TRY(fl_json_array(doc, doc->root, "", "cases", 3, &cases, err));
    for (size_t c = 0; c < 3; c++) {
        const json_t *cj = json_array_get(cases, c), *ex = NULL;
        char where[32], wex[48];
        snprintf(where, sizeof where, "cases[%zu]", c);
        snprintf(wex, sizeof wex, "cases[%zu].expected", c);
        if (!json_is_object(cj))
            return fl_json_error(doc, cases, "cases", NULL, err, FL_EPARSE, "element %zu is not an object", c);
        fl_model_theorem1_case *k = &out->cases[c];
        const char *name = NULL, *A = NULL;
        k->rod.m = m;
        k->rod.l = l;
        k->rod.J = J;
        FL_TRY(fl_json_string(doc, cj, where, "name", &name, err));
        snprintf(k->name, sizeof k->name, "%s", name);
        FL_TRY(fl_json_number(doc, cj, where, "mu0", &k->rod.mu0, err));
        FL_TRY(fl_json_number(doc, cj, where, "kappa_c", &k->rod.kappa_c, err));
        FL_TRY(fl_json_number(doc, cj, where, "kappa", &k->rod.kappa, err));
        FL_TRY(fl_json_number(doc, cj, where, "theta_ref", &k->rod.theta_ref, err));
        if (k->rod.mu0 < 0 || k->rod.kappa_c < 0 || k->rod.kappa < 0)
            return fl_json_error(doc, cj, where, "mu0", err, FL_EINVAL,
                                 "mu0, kappa_c and kappa must be >= 0 (mu(q) >= 0, 000 (H3))");
        FL_TRY(read3(doc, cj, where, "q", k->q, err));
        FL_TRY(read3(doc, cj, where, "u_minus", k->u_minus, err));
        FL_TRY(fl_json_object(doc, cj, where, "expected", &ex, err));
        FL_TRY(fl_json_number(doc, ex, wex, "gamma", &k->gamma, err));
        FL_TRY(fl_model_file_number_in(doc, ex, wex, "gamma_tol", 1e-300, 1e300, &k->gamma_tol, err));
        FL_TRY(fl_json_string(doc, ex, wex, "A", &A, err));
        if (strcmp(A, "segment") != 0 && strcmp(A, "pair") != 0)
            return fl_json_error(doc, ex, wex, "A", err, FL_EINVAL, "must be \"segment\" or \"pair\" (got \"%s\")", A);
        k->segment = strcmp(A, "segment") == 0;
        FL_TRY(read3(doc, ex, wex, "u_tilde", k->u_tilde, err));
        FL_TRY(fl_model_file_number_in(doc, ex, wex, "u_tilde_tol", 1e-300, 1e300, &k->u_tilde_tol, err));
        FL_TRY(fl_json_number(doc, ex, wex, "dH_limit", &k->dH_limit, err));
    }
    gsl_vector *eps = NULL;
    double ns, qns, grid, qneps;
    FL_TRY(fl_json_object(doc, doc->root, "", "sampling", &smp, err));
    FL_TRY(fl_json_vector(doc, smp, "sampling", "eps", 0, &eps, err));
    if (eps->size < 1 || eps->size > FL_MODEL_THEOREM1_MAX_EPS) {
        size_t n = eps->size;
        gsl_vector_free(eps);
        return fl_json_error(doc, smp, "sampling", "eps", err, FL_EDIM, "1 to %d values expected (got %zu)",
                             FL_MODEL_THEOREM1_MAX_EPS, n);
    }
    out->neps = eps->size;
    for (size_t i = 0; i < eps->size; i++) {
        out->eps[i] = gsl_vector_get(eps, i);
        if (!(out->eps[i] > 0 && out->eps[i] <= 1)) {
            gsl_vector_free(eps);
            return fl_json_error(doc, smp, "sampling", "eps", err, FL_EINVAL, "eps[%zu] = %g is not in (0, 1]", i,
                                 out->eps[i]);
        }
    }
    gsl_vector_free(eps);
    FL_TRY(fl_model_file_number_in(doc, smp, "sampling", "samples_per_eps", 1e-300, 1e300, &ns, err));
    FL_TRY(fl_model_file_number_in(doc, smp, "sampling", "quick_samples_per_eps", 1e-300, 1e300, &qns, err));
    FL_TRY(fl_model_file_number_in(doc, smp, "sampling", "quick_eps_count", 1e-300, 1e300, &qneps, err));
    FL_TRY(fl_model_file_number_in(doc, smp, "sampling", "segment_grid", 1e-300, 1e300, &grid, err));
    if (ns > 1e7 || qns > 1e7 || grid > 1e6 || qneps > (double)out->neps || ns != floor(ns) || qns != floor(qns) ||
        grid < 2 || grid != floor(grid) || qneps != floor(qneps))
        return fl_json_error(doc, smp, "sampling", NULL, err, FL_EINVAL,
                             "samples (<= 1e7), segment_grid (2 to 1e6) and quick_eps_count (<= the number of eps) "
                             "must be whole numbers in range");
    out->samples = (long)ns;
    out->quick_samples = (long)qns;
    out->quick_neps = (size_t)qneps;
    out->segment_grid = (long)grid;
    return FL_OK;
}

fl_status fl_model_theorem1_load(const char *path, fl_model_theorem1 *out, fl_error *err)
{
    if (!path || !out) return FL_FAIL(err, FL_EINVAL, "fl_model_theorem1_load: NULL argument");
    fl_status st = fl_model_file_load(path, load_doc, out, sizeof *out, err);
    return st;
}

fl_status fl_model_theorem1_load_data(const char *dir, fl_model_theorem1 *out, fl_error *err)
{
    char path[4096];
    FL_TRY(fl_data_path(dir, "000/theorem1_rod.json", path, sizeof path, err));
    return fl_model_theorem1_load(path, out, err);
}

fl_status fl_model_theorem1_case_data(const char *dir, int which, fl_model_theorem1_case *out, fl_error *err)
{
    if (!out || which < 0 || which > 2) return FL_FAIL(err, FL_EINVAL, "fl_model_theorem1_case_data: no case %d", which);
    fl_model_theorem1 mod;
    FL_TRY(fl_model_theorem1_load_data(dir, &mod, err));
    *out = mod.cases[which];
    return FL_OK;
}
