/* enumerate.c — exhaustive status enumeration for small 2D frictional
 * contact problems (exhaustive enumeration, proofs/contact_dynamics.md; 003 §3–4).  See enumerate.h. */
#include "enumerate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"

void fl_enumerate_scales(const fl_local_problem *p, double *rs, double *us)
{
    double nq = gsl_blas_dnrm2(p->q), wmax = 0;
    for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
    *us = fmax(nq, 1e-300);
    *rs = wmax > 0 ? *us / wmax : *us;
}

int fl_enumerate_is_solution(const fl_local_problem *p, const double *r, double tol)
{
    double rs, us;
    fl_enumerate_scales(p, &rs, &us);
    gsl_vector_const_view rv = gsl_vector_const_view_array(r, p->m);
    gsl_vector *U = fl_dense_vector_alloc(p->m);
    if (!U) return 0;
    gsl_vector_memcpy(U, p->q);
    gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, &rv.vector, 1.0, U);
    double v = fl_coulomb_violation(p->dim, p->nc, p->mu, r, U->data, rs, us);
    gsl_vector_free(U);
    return v <= tol;
}

long fl_enumerate_find(const fl_enumerate_result *e, const double *r, double tol)
{
    double nr = 0;
    for (size_t i = 0; i < e->m; i++) nr += r[i] * r[i];
    nr = sqrt(nr);
    for (size_t k = 0; k < e->nsol; k++) {
        double d = 0;
        for (size_t i = 0; i < e->m; i++) {
            double t = e->sol[k * e->m + i] - r[i];
            d += t * t;
        }
        if (sqrt(d) <= tol * (1.0 + nr)) return (long)k;
    }
    return -1;
}

void fl_enumerate_result_free(fl_enumerate_result *e)
{
    if (!e) return;
    free(e->sol);
    free(e->status);
    free(e);
}

/* exhaustive enumeration, proofs/contact_dynamics.md: one linear system per status assignment. */
fl_status fl_enumerate_solutions(const fl_local_problem *p, double tol, fl_enumerate_result **out,
                                 fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "enumerate: NULL output");
    *out = NULL;
    FL_TRY(fl_local_problem_check(p, err));
    if (p->dim != 2 || !p->W)
        return FL_FAIL(err, FL_EINVAL, "enumerate: only dense 2D problems (dim = %d)", p->dim);
    if (p->nc > FL_ENUM_MAX_CONTACTS)
        return FL_FAIL(err, FL_EINVAL, "enumerate: %zu contacts exceed the limit %d", p->nc,
                       FL_ENUM_MAX_CONTACTS);
    if (!(tol > 0)) return FL_FAIL(err, FL_EINVAL, "enumerate: tol = %g must be positive", tol);
    const size_t nc = p->nc, m = p->m;
    fl_enumerate_result *e = calloc(1, sizeof *e);
    gsl_matrix *A = fl_dense_matrix_alloc(m, m);
    gsl_vector *b = fl_dense_vector_alloc(m), *x = fl_dense_vector_alloc(m), *U = fl_dense_vector_alloc(m);
    gsl_permutation *P = fl_dense_permutation_alloc(m);
    int *st = malloc(nc * sizeof *st);
    size_t cap = 16;
    if (e) {
        e->sol = malloc(cap * m * sizeof *e->sol);
        e->status = malloc(cap * nc * sizeof *e->status);
    }
    if (!e || !A || !b || !x || !U || !P || !st || !e->sol || !e->status) {
        fl_enumerate_result_free(e);
        e = NULL;
    }
    fl_status s = e ? FL_OK : FL_FAIL(err, FL_ENOMEM, "enumerate: out of memory");
    double rs = 1, us = 1, wmax = 0;
    if (e) {
        fl_enumerate_scales(p, &rs, &us);
        for (size_t i = 0; i < m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
        e->m = m;
        e->nc = nc;
        e->tried = (size_t)1 << (2 * nc);
    }
    gsl_error_handler_t *old = fl_gsl_handler_off();
    for (size_t code = 0; s == FL_OK && code < e->tried; code++) {
        for (size_t a = 0; a < nc; a++) st[a] = (int)((code >> (2 * a)) & 3u);
        gsl_matrix_set_zero(A);
        gsl_vector_set_zero(b);
        double scale = fmax(wmax, 1e-300);
        for (size_t a = 0; a < nc; a++) {
            size_t iN = 2 * a, iT = iN + 1;
            double mu = p->mu[a];
            if (st[a] == FL_CONTACT_OPEN) {
                gsl_matrix_set(A, iN, iN, scale);
                gsl_matrix_set(A, iT, iT, scale);
                continue;
            }
            /* U_N = 0: row iN of W r = -q_N */
            for (size_t j = 0; j < m; j++) gsl_matrix_set(A, iN, j, gsl_matrix_get(p->W, iN, j));
            gsl_vector_set(b, iN, -gsl_vector_get(p->q, iN));
            if (st[a] == FL_CONTACT_STICK) {
                for (size_t j = 0; j < m; j++)
                    gsl_matrix_set(A, iT, j, gsl_matrix_get(p->W, iT, j));
                gsl_vector_set(b, iT, -gsl_vector_get(p->q, iT));
            } else {
                double sg = st[a] == FL_CONTACT_SLIDE_POS ? 1.0 : -1.0;
                /* r_T + sg mu r_N = 0 */
                gsl_matrix_set(A, iT, iT, scale);
                gsl_matrix_set(A, iT, iN, sg * mu * scale);
            }
        }
        int sign;
        if (gsl_linalg_LU_decomp(A, P, &sign)) {
            e->singular++;
            continue;
        }
        double dmax = 0, dmin = INFINITY;
        for (size_t i = 0; i < m; i++) {
            double d = fabs(gsl_matrix_get(A, i, i));
            dmax = fmax(dmax, d);
            dmin = fmin(dmin, d);
        }
        if (!(dmin > 1e-11 * dmax)) {
            e->singular++;
            continue;
        }
        if (gsl_linalg_LU_solve(A, P, b, x)) {
            e->singular++;
            continue;
        }
        gsl_vector_memcpy(U, p->q);
        gsl_blas_dgemv(CblasNoTrans, 1.0, p->W, x, 1.0, U);
        int ok = 1;
        for (size_t a = 0; a < nc && ok; a++) {
            double rN = x->data[2 * a], rT = x->data[2 * a + 1];
            double UN = U->data[2 * a], UT = U->data[2 * a + 1];
            switch (st[a]) {
            case FL_CONTACT_OPEN:
                ok = UN >= -tol * us;
                break;
            case FL_CONTACT_STICK:
                ok = rN >= -tol * rs && fabs(rT) <= p->mu[a] * rN + tol * rs;
                break;
            case FL_CONTACT_SLIDE_POS:
                ok = rN >= -tol * rs && UT >= -tol * us;
                break;
            default:
                ok = rN >= -tol * rs && UT <= tol * us;
                break;
            }
        }
        if (!ok || fl_enumerate_find(e, x->data, 1e-7) >= 0) continue;
        if (e->nsol == cap) {
            cap *= 2;
            double *ns = realloc(e->sol, cap * m * sizeof *ns);
            if (ns) e->sol = ns;
            int *nst = realloc(e->status, cap * nc * sizeof *nst);
            if (nst) e->status = nst;
            if (!ns || !nst) {
                s = FL_FAIL(err, FL_ENOMEM, "enumerate: out of memory");
                break;
            }
        }
        memcpy(e->sol + e->nsol * m, x->data, m * sizeof(double));
        memcpy(e->status + e->nsol * nc, st, nc * sizeof *st);
        e->nsol++;
    }
    fl_gsl_handler_restore(old);
    if (A) gsl_matrix_free(A);
    if (b) gsl_vector_free(b);
    if (x) gsl_vector_free(x);
    if (U) gsl_vector_free(U);
    if (P) gsl_permutation_free(P);
    free(st);
    if (s != FL_OK) {
        fl_enumerate_result_free(e);
        return s;
    }
    *out = e;
    return FL_OK;
}
