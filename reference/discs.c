/* discs.c — rigid discs with Contact Dynamics (003 §3–§5):
 * data, all-pairs contact detection with periodic images, the
 * global problem of a step (the step and the deposition are in
 * drivers/discs_step.c).  See discs.h for the model and proofs/discs.md for the derivations. */
#include "discs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_scalar.h"

fl_status fl_discs_alloc(size_t N, fl_discs **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "discs: NULL output");
    *out = NULL;
    if (N == 0) return FL_FAIL(err, FL_EINVAL, "discs: N must be > 0");
    fl_discs *d = calloc(1, sizeof *d);
    double *buf = d ? calloc(9 * N, sizeof *buf) : NULL;
    if (!buf) {
        free(d);
        return FL_FAIL(err, FL_ENOMEM, "discs: out of memory (N = %zu)", N);
    }
    d->N = N;
    d->x = buf; d->y = buf + N; d->theta = buf + 2 * N;
    d->vx = buf + 3 * N; d->vy = buf + 4 * N; d->w = buf + 5 * N;
    d->R = buf + 6 * N; d->m = buf + 7 * N; d->I = buf + 8 * N;
    d->gy = -9.81;
    d->mu_grain = d->mu_wall = 0.5;
    *out = d;
    return FL_OK;
}

void fl_discs_free(fl_discs *d)
{
    if (!d) return;
    free(d->x);
    free(d);
}

fl_status fl_discs_copy(const fl_discs *d, fl_discs **out, fl_error *err)
{
    if (!d) return FL_FAIL(err, FL_EINVAL, "discs: NULL input");
    FL_TRY(fl_discs_alloc(d->N, out, err));
    double *buf = (*out)->x;
    memcpy(buf, d->x, 9 * d->N * sizeof *buf);
    fl_discs keep = **out;
    **out = *d;
    (*out)->x = keep.x; (*out)->y = keep.y; (*out)->theta = keep.theta;
    (*out)->vx = keep.vx; (*out)->vy = keep.vy; (*out)->w = keep.w;
    (*out)->R = keep.R; (*out)->m = keep.m; (*out)->I = keep.I;
    return FL_OK;
}

void fl_discs_set(fl_discs *d, size_t i, double x, double y, double R, double rho)
{
    d->x[i] = x;
    d->y[i] = y;
    d->theta[i] = 0;
    d->R[i] = R;
    d->m[i] = rho * FL_PI * R * R;
    d->I[i] = d->m[i] * R * R / 2;
    d->vx[i] = d->vy[i] = d->w[i] = 0;
}

fl_status fl_discs_check(const fl_discs *d, fl_error *err)
{
    if (!d || !d->x) return FL_FAIL(err, FL_EINVAL, "discs: NULL system");
    double Rmax = 0;
    for (size_t i = 0; i < d->N; i++) {
        double v[9] = {d->x[i], d->y[i], d->theta[i], d->vx[i], d->vy[i], d->w[i],
                       d->R[i], d->m[i], d->I[i]};
        for (int k = 0; k < 9; k++)
            if (!isfinite(v[k]))
                return FL_FAIL(err, FL_ENONFINITE, "discs: non-finite data of disc %zu", i);
        if (!(d->R[i] > 0 && d->m[i] > 0 && d->I[i] > 0))
            return FL_FAIL(err, FL_EINVAL, "discs: disc %zu needs R, m, I > 0", i);
        Rmax = fmax(Rmax, d->R[i]);
    }
    double s[10] = {d->gx, d->gy, d->ground_y, d->wall_left, d->wall_right, d->a,
                    d->mu_grain, d->mu_wall, d->margin, d->touch_tol};
    for (int k = 0; k < 10; k++)
        if (!isfinite(s[k])) return FL_FAIL(err, FL_ENONFINITE, "discs: non-finite parameter");
    if (!(d->margin > 0) || !(d->touch_tol >= 0))
        return FL_FAIL(err, FL_EINVAL, "discs: margin must be > 0 and touch_tol >= 0");
    if (!(d->mu_grain >= 0 && d->mu_wall >= 0))
        return FL_FAIL(err, FL_EINVAL, "discs: friction coefficients must be >= 0");
    if (!(d->e_grain >= 0 && d->e_grain <= 1 && d->e_wall >= 0 && d->e_wall <= 1))
        return FL_FAIL(err, FL_EINVAL, "discs: restitution coefficients must be in [0, 1]");
    if (d->walls && !(d->wall_right > d->wall_left))
        return FL_FAIL(err, FL_EINVAL, "discs: wall_right must exceed wall_left");
    if (d->periodic) {
        if (!(2 * d->a > 2 * (2 * Rmax + d->margin)))
            return FL_FAIL(err, FL_EINVAL, "discs: periodic band 2a = %g too narrow for "
                           "2 (2 max R + margin) = %g", 2 * d->a, 2 * (2 * Rmax + d->margin));
        for (size_t i = 0; i < d->N; i++)
            if (!(d->x[i] >= -d->a && d->x[i] < d->a))
                return FL_FAIL(err, FL_EINVAL, "discs: centre of disc %zu outside the band", i);
    }
    return FL_OK;
}

int fl_discs_contact_cmp(const void *pa, const void *pb)
{
    const fl_disc_contact *a = pa, *b = pb;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    if (a->shift != b->shift) return a->shift < b->shift ? -1 : 1;
    return 0;
}

void fl_discs_contacts_sort(fl_disc_contact *c, size_t nc)
{
    if (nc > 1) qsort(c, nc, sizeof *c, fl_discs_contact_cmp);
}

/* Growable contact list used by both detectors. */
typedef struct clist {
    fl_disc_contact *c;
    size_t n, cap;
} clist;

static int clist_push(clist *l, fl_disc_contact c)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        fl_disc_contact *nc = realloc(l->c, cap * sizeof *nc);
        if (!nc) return -1;
        l->c = nc;
        l->cap = cap;
    }
    l->c[l->n++] = c;
    return 0;
}

/* Obstacle contacts of disc i (003 §5 ground; 003 §4 box): up to 3. */
size_t fl_discs_obstacle_contacts(const fl_discs *d, size_t i, fl_disc_contact c[3])
{
    size_t k = 0;
    fl_disc_contact t = {i, i, 0, 0, 0, 0, 0};
    if (d->ground) {
        t.kind = FL_DISC_GROUND; t.nx = 0; t.ny = 1;
        t.gap = d->y[i] - d->R[i] - d->ground_y;
        if (t.gap <= d->margin) c[k++] = t;
    }
    if (d->walls) {
        t.kind = FL_DISC_WALL_LEFT; t.nx = 1; t.ny = 0;
        t.gap = d->x[i] - d->R[i] - d->wall_left;
        if (t.gap <= d->margin) c[k++] = t;
        t.kind = FL_DISC_WALL_RIGHT; t.nx = -1; t.ny = 0;
        t.gap = d->wall_right - d->x[i] - d->R[i];
        if (t.gap <= d->margin) c[k++] = t;
    }
    return k;
}

/* Pair test of i < j with j translated by (2 a shift, 0) (003 §5 images). */
int fl_discs_pair_contact(const fl_discs *d, size_t i, size_t j, int shift, fl_disc_contact *c)
{
    double dx = d->x[i] - (d->x[j] + 2 * d->a * shift), dy = d->y[i] - d->y[j];
    double reach = d->R[i] + d->R[j] + d->margin;
    if (fabs(dx) > reach || fabs(dy) > reach) return 0;
    double dist = hypot(dx, dy);
    double gap = dist - d->R[i] - d->R[j];
    if (gap > d->margin || !(dist > 0)) return 0;   /* coincident centres: no normal */
    fl_disc_contact t = {i, j, FL_DISC_PAIR, shift, dx / dist, dy / dist, gap};
    *c = t;
    return 1;
}

/* Reference detection: every pair and, in a periodic band, every image
 * shift in {-1, 0, 1} (003 §5: images under translations (+-2a, 0)). */
fl_status fl_discs_detect(const fl_discs *d, fl_disc_contact **out, size_t *nc, fl_error *err)
{
    if (!out || !nc) return FL_FAIL(err, FL_EINVAL, "discs: NULL output");
    *out = NULL;
    *nc = 0;
    FL_TRY(fl_discs_check(d, err));
    clist l = {NULL, 0, 0};
    fl_disc_contact t[3];
    for (size_t i = 0; i < d->N; i++) {
        size_t k = fl_discs_obstacle_contacts(d, i, t);
        for (size_t q = 0; q < k; q++)
            if (clist_push(&l, t[q])) goto oom;
        for (size_t j = i + 1; j < d->N; j++)
            for (int sh = d->periodic ? -1 : 0; sh <= (d->periodic ? 1 : 0); sh++)
                if (fl_discs_pair_contact(d, i, j, sh, t) && clist_push(&l, t[0])) goto oom;
    }
    fl_discs_contacts_sort(l.c, l.n);
    *out = l.c;
    *nc = l.n;
    return FL_OK;
oom:
    free(l.c);
    return FL_FAIL(err, FL_ENOMEM, "discs: out of memory in detection");
}

/* Rows of H for one contact (discs.h; proofs/discs.md §1). */
void fl_discs_contact_rows(const fl_discs *d, const fl_disc_contact *c, double row[2][6])
{
    double tx = -c->ny, ty = c->nx;
    row[0][0] = c->nx; row[0][1] = c->ny; row[0][2] = 0;
    row[1][0] = tx; row[1][1] = ty; row[1][2] = -d->R[c->i];
    if (c->kind == FL_DISC_PAIR) {
        row[0][3] = -c->nx; row[0][4] = -c->ny; row[0][5] = 0;
        row[1][3] = -tx; row[1][4] = -ty; row[1][5] = -d->R[c->j];
    } else {
        for (int k = 3; k < 6; k++) row[0][k] = row[1][k] = 0;
    }
}

static double rows_apply(const fl_discs *d, const fl_disc_contact *c, const double row[6],
                         const double *vx, const double *vy, const double *w)
{
    size_t i = c->i, j = c->j;
    double v = row[0] * vx[i] + row[1] * vy[i] + row[2] * w[i];
    if (c->kind == FL_DISC_PAIR) v += row[3] * vx[j] + row[4] * vy[j] + row[5] * w[j];
    (void)d;
    return v;
}

void fl_discs_local_velocity(const fl_discs *d, const fl_disc_contact *c, size_t nc, double *U)
{
    for (size_t a = 0; a < nc; a++) {
        double row[2][6];
        fl_discs_contact_rows(d, &c[a], row);
        U[2 * a] = rows_apply(d, &c[a], row[0], d->vx, d->vy, d->w);
        U[2 * a + 1] = rows_apply(d, &c[a], row[1], d->vx, d->vy, d->w);
    }
}

/* w of discs.h: gap / h for an open gap, restitution e U_N(u_i) when
 * touching (003 §3 weighted mean; proofs/discs.md §2). */
static void contact_w(const fl_discs *d, const fl_disc_contact *c, double h, double UNi,
                      double *w)
{
    double e = c->kind == FL_DISC_PAIR ? d->e_grain : d->e_wall;
    w[0] = c->gap > d->touch_tol ? c->gap / h : e * UNi;
    w[1] = 0;
}

fl_status fl_discs_global(const fl_discs *d, const fl_disc_contact *c, size_t nc, double h,
                          int dense, fl_sparse_ctx *ctx, fl_global_problem **out,
                          fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "discs: NULL output");
    *out = NULL;
    if (!(h > 0) || !isfinite(h)) return FL_FAIL(err, FL_EINVAL, "discs: h must be > 0");
    if (nc == 0 || !c) return FL_FAIL(err, FL_EINVAL, "discs: no contact");
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "discs: sparse problem needs a context");
    FL_TRY(fl_discs_check(d, err));
    size_t N = d->N, n = 3 * N, m = 2 * nc;
    fl_global_problem *g = NULL;
    FL_TRY(fl_global_problem_alloc(n, nc, 2, dense, &g, err));
    g->ctx = ctx;
    for (size_t i = 0; i < N; i++) {
        double mm[3] = {d->m[i], d->m[i], d->I[i]}, u[3] = {d->vx[i], d->vy[i], d->w[i]};
        double F[3] = {d->m[i] * d->gx, d->m[i] * d->gy, 0};
        for (int k = 0; k < 3; k++) {
            gsl_vector_set(g->f, 3 * i + k, mm[k] * u[k] + h * F[k]);
            if (dense) gsl_matrix_set(g->M, 3 * i + k, 3 * i + k, mm[k]);
        }
    }
    int *ri = NULL, *ci = NULL;
    double *vv = NULL;
    fl_status s = FL_OK;
    if (!dense) {
        size_t cap = n + 12 * nc;
        ri = malloc(cap * sizeof *ri);
        ci = malloc(cap * sizeof *ci);
        vv = malloc(cap * sizeof *vv);
        if (!ri || !ci || !vv) s = FL_FAIL(err, FL_ENOMEM, "discs: out of memory");
    }
    size_t nz = 0;
    for (size_t a = 0; a < nc && s == FL_OK; a++) {
        if (c[a].i >= N || c[a].j >= N) {
            s = FL_FAIL(err, FL_EINVAL, "discs: contact %zu names a disc >= N", a);
            break;
        }
        double row[2][6];
        fl_discs_contact_rows(d, &c[a], row);
        size_t b[2] = {c[a].i, c[a].j};
        int nb = c[a].kind == FL_DISC_PAIR ? 2 : 1;
        for (int r = 0; r < 2; r++)
            for (int k = 0; k < nb; k++)
                for (int l = 0; l < 3; l++) {
                    double v = row[r][3 * k + l];
                    if (v == 0) continue;
                    size_t col = 3 * b[k] + l;
                    if (dense) {
                        gsl_matrix_set(g->H, 2 * a + r, col,
                                       gsl_matrix_get(g->H, 2 * a + r, col) + v);
                    } else {
                        ri[nz] = (int)(2 * a + r);
                        ci[nz] = (int)col;
                        vv[nz++] = v;
                    }
                }
        double Ui = rows_apply(d, &c[a], row[0], d->vx, d->vy, d->w);
        contact_w(d, &c[a], h, Ui, g->w->data + 2 * a);
        g->mu[a] = c[a].kind == FL_DISC_PAIR ? d->mu_grain : d->mu_wall;
    }
    if (s == FL_OK && !dense) {
        s = fl_sparse_from_triplet(ctx, m, n, nz, ri, ci, vv, 0, &g->Hs, err);
        nz = 0;
        for (size_t i = 0; i < N && s == FL_OK; i++) {
            double mm[3] = {d->m[i], d->m[i], d->I[i]};
            for (int k = 0; k < 3; k++) {
                ri[nz] = ci[nz] = (int)(3 * i + k);
                vv[nz++] = mm[k];
            }
        }
        if (s == FL_OK) s = fl_sparse_from_triplet(ctx, n, n, nz, ri, ci, vv, 1, &g->Ms, err);
    }
    free(ri);
    free(ci);
    free(vv);
    if (s != FL_OK) {
        if (!dense && g->Hs) fl_sparse_free(ctx, &g->Hs);
        if (!dense && g->Ms) fl_sparse_free(ctx, &g->Ms);
        fl_global_problem_free(g);
        return s;
    }
    *out = g;
    return FL_OK;
}

/* u_f = u_i + h g + M^-1 H^T s (003 §3 discretised MDE, M diagonal). */
void fl_discs_end_velocity(const fl_discs *d, const fl_disc_contact *c, size_t nc,
                           double h, const double *s, double *uf)
{
    for (size_t i = 0; i < d->N; i++) {
        uf[3 * i] = d->vx[i] + h * d->gx;
        uf[3 * i + 1] = d->vy[i] + h * d->gy;
        uf[3 * i + 2] = d->w[i];
    }
    for (size_t a = 0; a < nc; a++) {
        double row[2][6];
        fl_discs_contact_rows(d, &c[a], row);
        size_t b[2] = {c[a].i, c[a].j};
        int nb = c[a].kind == FL_DISC_PAIR ? 2 : 1;
        for (int k = 0; k < nb; k++) {
            size_t q = b[k];
            double inv[3] = {1 / d->m[q], 1 / d->m[q], 1 / d->I[q]};
            for (int l = 0; l < 3; l++)
                uf[3 * q + l] += inv[l] * (row[0][3 * k + l] * s[2 * a] +
                                           row[1][3 * k + l] * s[2 * a + 1]);
        }
    }
}

void fl_discs_wrap(fl_discs *d)
{
    if (!d->periodic) return;
    for (size_t i = 0; i < d->N; i++) {
        /* 003 §5: a disc leaving the master band is replaced by its image */
        while (d->x[i] >= d->a) d->x[i] -= 2 * d->a;
        while (d->x[i] < -d->a) d->x[i] += 2 * d->a;
    }
}

