/* quasistatic_sparse.c — 004 §5.3 (115)-(117) with K in CSC: SORP on the
 * Tresca problem inside the fixed point g <- mu |r_N| (004 §5.3 (112)–(117),
 * (116)–(117)).  See quasistatic_sparse.h; the dense original is
 * reference/quasistatic.c, whose iterates this file reproduces. */
#include "optimized/quasistatic_sparse.h"
#include "reference/quasistatic_internal.h"
#include "fl_clock.h"

#include <math.h>
#include <stdlib.h>

/* Rows of K as CSC columns.  Symmetric storage: the full symmetric matrix
 * (cholmod_copy, both triangles), column i = row i.  Unsymmetric storage:
 * K^T (cholmod_transpose), column i = row i of K whether or not K is
 * symmetric, as the dense reference reads K(i, :). */
typedef struct rows {
    cholmod_sparse *R;
    const int *p, *i, *nz;
    const double *x;
    int packed;
} rows;

static int row_end(const rows *k, size_t i)
{
    return k->packed ? k->p[i + 1] : k->p[i] + k->nz[i];
}

/* 004 (116) by projected (proximal) over-relaxation, one dof at a time in
 * the order 0..n-1 as the reference: b = f_i - sum_{j != i} K_ij v_j over
 * the stored entries of row i (O(nnz(K)) per sweep), y = (1 - omega) v_i +
 * omega b / K_ii, then x = min(0, y) on N_p (u_N <= 0), the proximal map
 * x = c + shrink(y - c, omega g_p / K_ii) with c = u^k_T on T_p, x = y on
 * free dofs; prescribed dofs are skipped.  Stop when max |dv| <= tol
 * max(|v|, 1) (returns the sweeps), or -max_sweeps. */
static int sorp(const rows *k, const double *dia, const int *role, const size_t *part,
                const double *f, const double *uk, const double *g, double *v, size_t n,
                const fl_quasistatic_options *o)
{
    for (int sweep = 1; sweep <= o->max_sweeps; sweep++) {
        double dmax = 0.0, vmax = 1.0;
        for (size_t i = 0; i < n; i++) {
            if (role[i] == 0) continue;                 /* prescribed */
            double kii = dia[i], vi = v[i], b = f[i];
            for (int q = k->p[i], e = row_end(k, i); q < e; q++)
                if ((size_t)k->i[q] != i) b -= k->x[q] * v[k->i[q]];
            double y = (1.0 - o->omega) * vi + o->omega * b / kii, x = y;
            if (role[i] == 2) {                         /* T_p: prox of omega g |x - c| / K_ii */
                double c = uk[i], t = o->omega * g[part[i]] / kii;
                double d = y - c;
                x = c + (d > t ? d - t : (d < -t ? d + t : 0.0));
            } else if (role[i] == 3) {                  /* N_p: projection on u_N <= 0 */
                x = fmin(0.0, y);
            }
            dmax = fmax(dmax, fabs(x - vi));
            vmax = fmax(vmax, fabs(x));
            v[i] = x;
        }
        if (dmax <= o->tol * vmax) return sweep;
    }
    return -o->max_sweeps;
}

/* r = K v - f, row by row: "contact forces from the residues of
 * equilibrium" (004 §5.3). */
static void residue(const rows *k, const double *v, const double *f, double *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (int q = k->p[i], e = row_end(k, i); q < e; q++) s += k->x[q] * v[k->i[q]];
        r[i] = s - f[i];
    }
}

static void to_array(const gsl_vector *a, double *b)
{
    for (size_t i = 0; i < a->size; i++) b[i] = gsl_vector_get(a, i);
}

static void from_array(const double *b, gsl_vector *a)
{
    for (size_t i = 0; i < a->size; i++) gsl_vector_set(a, i, b[i]);
}

/* 004 (115)-(117): the fixed point g <- mu |r_N(u(g))| around (116), with
 * the stopping rules of fl_quasistatic_step. */
static fl_status quasistatic_step_sparse(fl_sparse_ctx *ctx, const fl_stability_system_sparse *s,
                                         const gsl_vector *f, const gsl_vector *uk, gsl_vector *g,
                                         gsl_vector *u, gsl_vector *r, const fl_quasistatic_options *opt,
                                         fl_quasistatic_result *res, fl_error *err)
{
    fl_quasistatic_options o;
    fl_quasistatic_result dummy;
    if (!res) res = &dummy;
    res->status = FL_OK;
    res->iterations = res->g_iterations = 0;
    res->residual = 0.0;
    res->seconds = 0.0;
    double t0 = fl_clock_now();
    if (!ctx || !ctx->started || !s || !s->K)
        return res->status = FL_FAIL(err, FL_EINVAL, "sparse quasistatic step: missing context, system or K");
    size_t n = s->n;
    const cholmod_sparse *K = s->K;
    if (n == 0 || K->nrow != n || K->ncol != n)
        return res->status = FL_FAIL(err, FL_EDIM, "sparse quasistatic step: K is %zux%zu, must be %zux%zu",
                                     K->nrow, K->ncol, n, n);
    if (K->xtype != CHOLMOD_REAL || K->itype != CHOLMOD_INT || K->dtype != CHOLMOD_DOUBLE || !K->x)
        return res->status = FL_FAIL(err, FL_EUNSUPPORTED,
                                     "sparse quasistatic step: K must be real double with int indices");
    fl_status st = fl_quasistatic_check_args(n, s->np, f, uk, g, u, r, opt, &o, err);
    if (st != FL_OK) return res->status = st;
    int *role;
    size_t *part;
    if ((st = fl_quasistatic_roles(n, s->prescribed, s->np, s->iT, s->iN, s->mu, &role, &part, err)) != FL_OK)
        return res->status = st;

    rows k = {0};
    k.R = K->stype != 0 ? cholmod_copy((cholmod_sparse *)K, 0, 1, &ctx->cm)
                        : cholmod_transpose((cholmod_sparse *)K, 1, &ctx->cm);
    double *w = malloc(5 * n * sizeof *w + (s->np ? s->np : 1) * sizeof *w);
    if (!k.R || !w) {
        st = FL_FAIL(err, FL_ENOMEM, "sparse quasistatic step: out of memory (copy of K)");
        goto done;
    }
    k.p = k.R->p;
    k.i = k.R->i;
    k.nz = k.R->nz;
    k.x = k.R->x;
    k.packed = k.R->packed;
    double *dia = w, *v = w + n, *fb = w + 2 * n, *ukb = w + 3 * n, *rr = w + 4 * n, *gb = w + 5 * n;
    for (size_t i = 0; i < n; i++) {
        dia[i] = 0.0;
        for (int q = k.p[i], e = row_end(&k, i); q < e; q++) {
            if (!isfinite(k.x[q])) {
                st = FL_FAIL(err, FL_ENONFINITE, "stiffness K: non-finite entry (%d, %zu)", k.i[q], i);
                goto done;
            }
            if ((size_t)k.i[q] == i) dia[i] += k.x[q];
        }
    }
    for (size_t i = 0; i < n; i++)
        if (role[i] != 0 && !(dia[i] > 0.0)) {
            st = FL_FAIL(err, FL_ENOTSPD, "quasistatic step: K_%zu%zu <= 0", i, i);
            goto done;
        }
    to_array(f, fb);
    to_array(uk, ukb);
    to_array(u, v);
    to_array(g, gb);
    double fscale = 0.0;
    for (size_t i = 0; i < n; i++) fscale = fmax(fscale, fabs(fb[i]));
    st = FL_WMAXITER;
    for (int it = 1; it <= o.max_g_iter; it++) {
        int sw = sorp(&k, dia, role, part, fb, ukb, gb, v, n, &o);   /* (116) with the current g */
        res->iterations += sw > 0 ? sw : -sw;
        res->g_iterations = it;
        residue(&k, v, fb, rr, n);                                  /* r = K u - f */
        double dg = 0.0, gm = 0.0;
        for (size_t p = 0; p < s->np; p++) {                        /* (117) g <- mu |r_N| */
            double gn = s->mu * fabs(rr[s->iN[p]]);
            dg = fmax(dg, fabs(gn - gb[p]));
            gm = fmax(gm, gn);
            gb[p] = gn;
        }
        res->residual = gm > 0 ? dg / gm : dg;
        /* floor: changes of g at the rounding level of mu |f| count as converged */
        if (sw > 0 && dg <= o.tol_g * gm + 1e-13 * s->mu * fmax(fscale, 1.0)) { st = FL_OK; break; }
    }
    from_array(v, u);
    from_array(gb, g);
    if (r) from_array(rr, r);
done:
    if (k.R) cholmod_free_sparse(&k.R, &ctx->cm);
    free(w);
    free(role);
    free(part);
    res->seconds = fl_clock_now() - t0;
    return res->status = st;
}

/* 004 (115)-(117): the contract of fl_quasistatic_step on s->ctx, s->sparse. */
fl_status fl_quasistatic_step_sparse(const fl_quasistatic_system *s, const gsl_vector *f,
                                     const gsl_vector *uk, gsl_vector *g, gsl_vector *u, gsl_vector *r,
                                     const fl_quasistatic_options *opt, fl_quasistatic_result *res,
                                     fl_error *err)
{
    return quasistatic_step_sparse(s ? s->ctx : NULL, s ? s->sparse : NULL, f, uk, g, u, r, opt, res, err);
}
