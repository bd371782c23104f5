/* fl_model_painleve.c — the Painlevé bar of 001 §6.2 under P'3; see
 * fl_model_painleve.h. */
#include "models/fl_model_painleve.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_vector.h>

#include "fl_scalar.h"
#include "models/fl_model_file.h"

fl_status fl_model_painleve_load(const char *path, fl_model_painleve_params *p, fl_error *err)
{
    static const fl_model_key keys[] = {
        {"m", FL_MODEL_POSITIVE},         {"J", FL_MODEL_POSITIVE},         {"l", FL_MODEL_POSITIVE},
        {"theta0", FL_MODEL_ANY},         {"mu_small", FL_MODEL_NONNEGATIVE}, {"mu_large", FL_MODEL_NONNEGATIVE},
        {"V0", FL_MODEL_ANY},             {"C0", FL_MODEL_ANY},             {"h", FL_MODEL_POSITIVE},
        {"T", FL_MODEL_POSITIVE}};
    double v[10];
    FL_TRY(fl_model_file_params(path, 10, keys, v, err));
    *p = (fl_model_painleve_params){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]};
    return FL_OK;
}

void fl_model_painleve_mass(const fl_model_painleve *b, gsl_matrix *M)
{
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, b->m);
    gsl_matrix_set(M, 1, 1, b->J);
}

/* 001 (6.1): r_x = r~_x, r_theta = l cos(theta0) r~_y - l sin(theta0) r~_x */
void fl_model_painleve_tl(const fl_model_painleve *b, gsl_matrix *tl)
{
    gsl_matrix_set_zero(tl);
    gsl_matrix_set(tl, 0, 0, 1.0);
    gsl_matrix_set(tl, 1, 0, -b->l * sin(b->theta0));
    gsl_matrix_set(tl, 1, 1, b->l * cos(b->theta0));
}

fl_status fl_model_painleve_init(fl_model_painleve *b, const fl_model_painleve_params *p, double mu,
                                 double ftheta, fl_fset_norm norm, fl_error *err)
{
    memset(b, 0, sizeof *b);
    *b = (fl_model_painleve){p->m, p->J, p->l, p->theta0, mu, 0.0, ftheta, {0}};
    return fl_model_painleve_build(b, norm, err);
}

fl_status fl_model_painleve_build(fl_model_painleve *b, fl_fset_norm norm, fl_error *err)
{
    double mu = b->mu;
    gsl_matrix *M = gsl_matrix_alloc(2, 2), *tl = gsl_matrix_alloc(2, 2), *E = gsl_matrix_calloc(1, 2);
    gsl_vector *dphi = gsl_vector_calloc(2);
    if (!M || !tl || !E || !dphi) {
        gsl_matrix_free(M);
        gsl_matrix_free(tl);
        gsl_matrix_free(E);
        gsl_vector_free(dphi);
        return FL_FAIL(err, FL_ENOMEM, "Painleve bar: out of memory");
    }
    fl_model_painleve_mass(b, M);
    fl_model_painleve_tl(b, tl);
    gsl_vector_set(dphi, 1, 1.0);                          /* phi = theta - theta0 */
    gsl_matrix_set(E, 0, 0, 1.0);                          /* coordinate r_x */
    fl_fset_contact c = {tl, {0.0, 1.0, 0.0}, mu};         /* obstacle normal (0, 1) */
    fl_fset_options o = fl_fset_options_default();
    o.norm = norm;
    o.basis = E;
    fl_status st = fl_fset_build(M, dphi, 1, &c, &o, &b->fs, err);
    gsl_matrix_free(M);
    gsl_matrix_free(tl);
    gsl_matrix_free(E);
    gsl_vector_free(dphi);
    return st;
}

void fl_model_painleve_release(fl_model_painleve *b)
{
    fl_fset_result_release(&b->fs);
}

static fl_status bar_mass(void *d, const gsl_vector *q, gsl_matrix *M)
{
    (void)q;
    fl_model_painleve_mass(d, M);
    return FL_OK;
}

static fl_status bar_force(void *d, double t, const gsl_vector *q, const gsl_vector *v, gsl_vector *f)
{
    (void)t;
    (void)q;
    (void)v;
    const fl_model_painleve *b = d;
    gsl_vector_set(f, 0, b->fx);
    gsl_vector_set(f, 1, b->ftheta);
    return FL_OK;
}

static fl_status bar_gap(void *d, const gsl_vector *q, gsl_vector *phi)
{
    gsl_vector_set(phi, 0, gsl_vector_get(q, 1) - ((const fl_model_painleve *)d)->theta0);
    return FL_OK;
}

static fl_status bar_grad(void *d, const gsl_vector *q, size_t a, gsl_vector *dphi)
{
    (void)d;
    (void)q;
    (void)a;
    gsl_vector_set(dphi, 0, 0.0);
    gsl_vector_set(dphi, 1, 1.0);
    return FL_OK;
}

static fl_status bar_friction(void *d, const gsl_vector *q, size_t a, fl_friction_set *set, gsl_matrix **E,
                              fl_error *err)
{
    (void)q;
    (void)a;
    const fl_model_painleve *b = d;
    FL_TRY(fl_friction_set_copy(set, &b->fs.set, err));
    *E = gsl_matrix_alloc(b->fs.E->size1, b->fs.E->size2);
    if (!*E) {
        fl_friction_set_release(set);
        return FL_FAIL(err, FL_ENOMEM, "Painleve bar: out of memory");
    }
    gsl_matrix_memcpy(*E, b->fs.E);
    return FL_OK;
}

fl_p4_system fl_model_painleve_system(fl_model_painleve *b)
{
    fl_p4_system sys = {2, 1, b, bar_mass, bar_force, bar_gap, bar_grad, bar_friction, 0.0};
    return sys;
}

/* ---- the bar under Stewart's P5 (001 §6.2), reference/stewart_law.h ---- */

static fl_status p5_mass(void *data, const gsl_vector *q, gsl_matrix *M, fl_error *err)
{
    const fl_model_painleve_bar *b = data;
    (void)q;
    (void)err;
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 0, 0, b->m);                 /* M = diag(m, J) */
    gsl_matrix_set(M, 1, 1, b->J);
    return FL_OK;
}

static fl_status p5_force(void *data, double t, const gsl_vector *q, const gsl_vector *v,
                           gsl_vector *f, fl_error *err)
{
    const fl_model_painleve_bar *b = data;
    (void)t;
    (void)q;
    (void)v;
    (void)err;
    gsl_vector_set(f, 0, b->fx);
    gsl_vector_set(f, 1, b->ftheta);
    return FL_OK;
}

/* Contact point A = G + l (cos theta, sin theta), G at height -l sin theta0:
 * gap = l (sin theta - sin theta0); velocity of A: (xdot - l sin theta
 * thetadot, l cos theta thetadot), so H = [0, l cos theta; 1, -l sin theta],
 * whose transpose at theta0 is 001 (6.1). */
static fl_status p5_contacts(void *data, const gsl_vector *q, gsl_vector *gap, gsl_matrix *H,
                              fl_error *err)
{
    const fl_model_painleve_bar *b = data;
    (void)err;
    double th = gsl_vector_get(q, 1);
    gsl_vector_set(gap, 0, b->l * (sin(th) - sin(b->theta0)));
    gsl_matrix_set(H, 0, 0, 0.0);
    gsl_matrix_set(H, 0, 1, b->l * cos(th));
    gsl_matrix_set(H, 1, 0, 1.0);
    gsl_matrix_set(H, 1, 1, -b->l * sin(th));
    return FL_OK;
}

fl_status fl_model_painleve_stewart_system(const fl_model_painleve_bar *bar, fl_stewart_system *sys, fl_error *err)
{
    if (!bar || !sys) return FL_FAIL(err, FL_EINVAL, "Painlevé bar or system is NULL");
    if (!(bar->m > 0.0) || !(bar->J > 0.0) || !(bar->l > 0.0) || !(bar->mu >= 0.0) ||
        !isfinite(bar->m) || !isfinite(bar->J) || !isfinite(bar->l) || !isfinite(bar->mu) ||
        !isfinite(bar->fx) || !isfinite(bar->ftheta))
        return FL_FAIL(err, FL_EINVAL, "Painlevé bar needs finite m, J, l > 0, mu >= 0, forces");
    if (!(bar->theta0 > -FL_PI / 2 && bar->theta0 < 0.0))
        return FL_FAIL(err, FL_EINVAL, "Painlevé bar needs -pi/2 < theta0 < 0 (001 §6.2), got %g",
                       bar->theta0);
    sys->n = 2;
    sys->nc = 1;
    sys->dim = 2;
    sys->mu = &bar->mu;
    sys->data = (void *)bar;
    sys->mass = p5_mass;
    sys->force = p5_force;
    sys->contacts = p5_contacts;
    return FL_OK;
}
