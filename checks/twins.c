/* twins.c — the agreement harness of the twin pairs (see twins.h). */
#include "checks/twins.h"

#include <math.h>

double fl_twins_rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0, s = 1e-300;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    }
    return d / s;
}

/* ---- midpoint ---- */

fl_twins_midpoint_stats fl_twins_midpoint_stats_init(void)
{
    fl_twins_midpoint_stats x = {0, 0, 0, 0, 0, 0, 0, {0, 0}, {-INFINITY, -INFINITY}, {0, 0}};
    return x;
}

static void copy_state(fl_midpoint_state *to, const fl_midpoint_state *from)
{
    gsl_vector_memcpy(to->u, from->u);
    gsl_vector_memcpy(to->v, from->v);
    gsl_vector_memcpy(to->y, from->y);
    to->t = from->t;
}

/* The Delassus D = H S^-1 H^T both steppers formed at allocation. */
static void compare_delassus(void *const mp[2], size_t m, fl_twins_midpoint_stats *x)
{
    const gsl_matrix *D0 = ((fl_midpoint *)mp[0])->D, *D1 = ((fl_midpoint_sparse *)mp[1])->D;
    x->delassus = fmax(x->delassus, fl_twins_rel_diff(D1->data, D0->data, m * m));
}

/* One step's statistics: states against the reference, each type's
 * energy identity (E^k = e_prev) and friction work, residuals. */
static void step_stats(fl_midpoint_state *const st[2], const fl_midpoint_result res[2], double e_prev,
                       int at_midpoint, fl_twins_midpoint_stats *x)
{
    size_t n = st[0]->n, m = 2 * st[0]->nc;
    x->du = fmax(x->du, fl_twins_rel_diff(st[0]->u->data, st[1]->u->data, n));
    x->dv = fmax(x->dv, fl_twins_rel_diff(st[0]->v->data, st[1]->v->data, n));
    x->dy = fmax(x->dy, fl_twins_rel_diff(st[0]->y->data, st[1]->y->data, m));
    x->energy = fmax(x->energy, fabs(res[1].energy - res[0].energy) / (1 + fabs(res[0].energy)));
    for (int k = 0; k < 2; k++) {
        const fl_midpoint_result *r = &res[k];
        double sc = fabs(e_prev) + fabs(r->energy) + fabs(r->work_normal) + fabs(r->work_friction) + 1e-30;
        x->identity[k] = fmax(x->identity[k], fabs(r->energy - e_prev - r->work_normal - r->work_friction) / sc);
        if (at_midpoint) x->friction[k] = fmax(x->friction[k], r->work_friction / sc);
        x->residual[k] = fmax(x->residual[k], r->residual);
    }
}

long fl_twins_midpoint(const fl_midpoint_problem *const p[2], const fl_midpoint_options *o,
                       const fl_midpoint_state *start, int nsteps, fl_twins_midpoint_stats *x)
{
    void *mp[2] = {NULL, NULL};
    fl_midpoint_state *st[2] = {NULL, NULL};
    long done = 0;
    int ok = 1;
    for (int k = 0; k < 2 && ok; k++)
        ok = fl_midpoint_types[k].alloc(p[k], o, &mp[k], NULL) == FL_OK
             && fl_midpoint_state_alloc(start->n, start->nc, &st[k], NULL) == FL_OK;
    if (ok) {
        compare_delassus(mp, 2 * start->nc, x);
        copy_state(st[0], start);
        double e = fl_midpoint_types[0].energy(mp[0], st[0]->u, st[0]->v);
        double e1 = fl_midpoint_types[1].energy(mp[1], st[0]->u, st[0]->v);   /* 002 (19), both storages */
        x->energy = fmax(x->energy, fabs(e1 - e) / (1 + fabs(e)));
        for (int s = 0; s < nsteps && ok; s++) {
            fl_midpoint_result res[2];
            copy_state(st[1], st[0]);
            for (int k = 0; k < 2 && ok; k++) ok = fl_midpoint_types[k].step(mp[k], st[k], &res[k], NULL) >= 0;
            if (!ok) break;
            step_stats(st, res, e, o->contact == FL_MIDPOINT_AT_MIDPOINT, x);
            e = res[0].energy;
            done++;
        }
    }
    x->failures += !ok;
    x->steps += done;
    for (int k = 0; k < 2; k++) {
        if (mp[k]) fl_midpoint_types[k].free(mp[k]);
        fl_midpoint_state_free(st[k]);
    }
    return done;
}
