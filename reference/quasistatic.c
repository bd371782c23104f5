/* quasistatic.c — 004 §5.3 (115)-(117): SORP on the Tresca problem inside
 * a fixed point on the thresholds g (004 §5.3 (112)–(117); 004 §5.3 (116)–(117)).  Dense K. */
#include "reference/quasistatic.h"
#include "reference/quasistatic_internal.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_clock.h"

fl_quasistatic_options fl_quasistatic_options_default(void)
{
    fl_quasistatic_options o = {.omega = 1.5, .tol = 1e-12, .max_sweeps = 100000, .tol_g = 1e-10, .max_g_iter = 200};
    return o;
}

/* 004 (116) by projected (proximal) over-relaxation: per dof, the relaxed
 * Gauss-Seidel value y = (1-omega) v_i + omega b_i / K_ii is projected on
 * u_N <= 0 (normal dofs) or moved towards c = u^k_T by the proximal map of
 * omega g |x - c| / K_ii (tangential dofs); free dofs keep y. */
static int sorp(const fl_stability_system *s, const int *role, const size_t *part, const gsl_vector *f,
                const gsl_vector *uk, const gsl_vector *g, gsl_vector *v, const fl_quasistatic_options *o)
{
    size_t n = s->n;
    for (int sweep = 1; sweep <= o->max_sweeps; sweep++) {
        double dmax = 0.0, vmax = 1.0;
        for (size_t i = 0; i < n; i++) {
            if (role[i] == 0) continue;                 /* prescribed */
            double kii = gsl_matrix_get(s->K, i, i), vi = gsl_vector_get(v, i);
            double b = gsl_vector_get(f, i);
            for (size_t j = 0; j < n; j++)
                if (j != i) b -= gsl_matrix_get(s->K, i, j) * gsl_vector_get(v, j);
            double y = (1.0 - o->omega) * vi + o->omega * b / kii, x = y;
            if (role[i] == 2) {                         /* T_p: prox of omega g |x - c| / K_ii */
                double c = gsl_vector_get(uk, i), t = o->omega * gsl_vector_get(g, part[i]) / kii;
                double d = y - c;
                x = c + (d > t ? d - t : (d < -t ? d + t : 0.0));
            } else if (role[i] == 3) {                  /* N_p: projection on u_N <= 0 */
                x = fmin(0.0, y);
            }
            dmax = fmax(dmax, fabs(x - vi));
            vmax = fmax(vmax, fabs(x));
            gsl_vector_set(v, i, x);
        }
        if (dmax <= o->tol * vmax) return sweep;
    }
    return -o->max_sweeps;
}

/* Checks shared with the sparse twin (optimized/quasistatic_sparse.c), see
 * quasistatic.h: options, vector lengths and finiteness of the 004 §5.3 step. */
fl_status fl_quasistatic_check_args(size_t n, size_t np, const gsl_vector *f, const gsl_vector *uk,
                           const gsl_vector *g, const gsl_vector *u, const gsl_vector *r,
                           const fl_quasistatic_options *opt, fl_quasistatic_options *o, fl_error *err)
{
    *o = opt ? *opt : fl_quasistatic_options_default();
    if (!f || !uk || !g || !u || f->size != n || uk->size != n || u->size != n || g->size != np ||
        (r && r->size != n))
        return FL_FAIL(err, FL_EDIM, "quasistatic step: f, u^k, u (length %zu), g (length %zu)", n, np);
    if (!(o->omega > 0.0 && o->omega < 2.0) || !(o->tol > 0.0) || o->max_sweeps < 1 || o->max_g_iter < 1)
        return FL_FAIL(err, FL_EINVAL, "quasistatic step: omega in (0, 2), tol > 0, iteration limits >= 1");
    FL_TRY(fl_check_finite_vector(f, "f", err));
    FL_TRY(fl_check_finite_vector(uk, "u^k", err));
    FL_TRY(fl_check_finite_vector(u, "u", err));
    FL_TRY(fl_check_finite_vector(g, "g", err));
    return FL_OK;
}

/* The dof roles of the SORP sweep of 004 (116) (S_D, S_F, T_p, N_p), with
 * the checks of the contact indices; shared with the sparse twin. */
fl_status fl_quasistatic_roles(size_t n, const unsigned char *prescribed, size_t np, const size_t *iT,
                      const size_t *iN, double mu, int **role, size_t **part, fl_error *err)
{
    *role = NULL;
    *part = NULL;
    if (!isfinite(mu) || mu < 0.0)
        return FL_FAIL(err, FL_EINVAL, "friction coefficient mu = %g must be finite and >= 0", mu);
    if (np > 0 && (!iT || !iN))
        return FL_FAIL(err, FL_EINVAL, "quasistatic step: missing contact indices");
    int *ro = malloc((n ? n : 1) * sizeof *ro);
    size_t *pa = calloc(n ? n : 1, sizeof *pa);
    if (!ro || !pa) {
        free(ro); free(pa);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) ro[i] = (prescribed && prescribed[i]) ? 0 : 1;
    for (size_t p = 0; p < np; p++) {
        size_t d[2] = {iT[p], iN[p]};
        for (int k = 0; k < 2; k++) {
            if (d[k] >= n || ro[d[k]] != 1) {       /* out of range, prescribed (0) or used (2, 3) */
                free(ro); free(pa);
                return FL_FAIL(err, FL_EINVAL,
                               "contact particle %zu: dof %zu out of range, repeated or prescribed", p, d[k]);
            }
            ro[d[k]] = 2 + k;
            pa[d[k]] = p;
        }
    }
    *role = ro;
    *part = pa;
    return FL_OK;
}

/* 004 (115)-(117) on the dense system s. */
static fl_status quasistatic_step(const fl_stability_system *s, const gsl_vector *f, const gsl_vector *uk,
                                  gsl_vector *g, gsl_vector *u, gsl_vector *r,
                                  const fl_quasistatic_options *opt, fl_quasistatic_result *res,
                                  fl_error *err)
{
    fl_quasistatic_options o;
    fl_quasistatic_result dummy;
    if (!res) res = &dummy;
    res->status = FL_OK;
    res->iterations = res->g_iterations = 0;
    res->residual = 0.0;
    res->seconds = 0.0;
    double t0 = fl_clock_now();
    fl_status st = fl_stability_system_check(s, err);
    if (st != FL_OK) return res->status = st;
    size_t n = s->n;
    if ((st = fl_quasistatic_check_args(n, s->np, f, uk, g, u, r, opt, &o, err)) != FL_OK)
        return res->status = st;
    for (size_t i = 0; i < n; i++)
        if (!(s->prescribed && s->prescribed[i]) && !(gsl_matrix_get(s->K, i, i) > 0.0))
            return res->status = FL_FAIL(err, FL_ENOTSPD, "quasistatic step: K_%zu%zu <= 0", i, i);
    int *role;
    size_t *part;
    if ((st = fl_quasistatic_roles(n, s->prescribed, s->np, s->iT, s->iN, s->mu, &role, &part, err)) != FL_OK)
        return res->status = st;
    gsl_vector *rr = fl_dense_vector_alloc(n);
    if (!rr) {
        free(role); free(part);
        return res->status = FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    double fscale = 0.0;
    for (size_t i = 0; i < n; i++) fscale = fmax(fscale, fabs(gsl_vector_get(f, i)));
    st = FL_WMAXITER;
    for (int it = 1; it <= o.max_g_iter; it++) {
        int sw = sorp(s, role, part, f, uk, g, u, &o);   /* (116) with the current g */
        res->iterations += sw > 0 ? sw : -sw;
        res->g_iterations = it;
        /* r = K u - f: contact forces from the residues of equilibrium */
        gsl_vector_memcpy(rr, f);
        gsl_blas_dgemv(CblasNoTrans, 1.0, s->K, u, -1.0, rr);
        double dg = 0.0, gm = 0.0;
        for (size_t p = 0; p < s->np; p++) {              /* (117) g <- mu |r_N| */
            double gn = s->mu * fabs(gsl_vector_get(rr, s->iN[p]));
            dg = fmax(dg, fabs(gn - gsl_vector_get(g, p)));
            gm = fmax(gm, gn);
            gsl_vector_set(g, p, gn);
        }
        res->residual = gm > 0 ? dg / gm : dg;
        /* floor: changes of g at the rounding level of mu |f| count as converged */
        if (sw > 0 && dg <= o.tol_g * gm + 1e-13 * s->mu * fmax(fscale, 1.0)) { st = FL_OK; break; }
    }
    if (r) gsl_vector_memcpy(r, rr);
    free(role);
    free(part);
    gsl_vector_free(rr);
    res->seconds = fl_clock_now() - t0;
    return res->status = st;
}

/* 004 (115)-(117): the contract of both twins; the reference reads s->dense. */
fl_status fl_quasistatic_step(const fl_quasistatic_system *s, const gsl_vector *f, const gsl_vector *uk,
                              gsl_vector *g, gsl_vector *u, gsl_vector *r, const fl_quasistatic_options *opt,
                              fl_quasistatic_result *res, fl_error *err)
{
    return quasistatic_step(s ? s->dense : NULL, f, uk, g, u, r, opt, res, err);
}
