/* stability.c — contact-state partition, tangent matrices K*, M*, K*_S,
 * M*_S and the eigen-searches of 004 §5.4 (dense, GSL).  See stability.h. */
#include "stability.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "fl_dense.h"
#include "fl_clock.h"

static double sgn(double x) { return (x > 0.0) - (x < 0.0); }

fl_status fl_stability_system_check(const fl_stability_system *s, fl_error *err)
{
    if (!s || !s->K || !s->M || (s->np > 0 && (!s->iT || !s->iN)))
        return FL_FAIL(err, FL_EINVAL, "stability system: missing K, M or contact indices");
    if (s->n == 0 || s->K->size1 != s->n || s->K->size2 != s->n || s->M->size1 != s->n ||
        s->M->size2 != s->n)
        return FL_FAIL(err, FL_EDIM, "stability system: K and M must be %zux%zu", s->n, s->n);
    FL_TRY(fl_check_finite_matrix(s->K, "stiffness K", err));
    FL_TRY(fl_check_finite_matrix(s->M, "mass M", err));
    return fl_stability_check_contacts(s->n, s->prescribed, s->np, s->iT, s->iN, s->mu, err);
}

fl_status fl_stability_check_contacts(size_t n, const unsigned char *prescribed, size_t np,
                                 const size_t *iT, const size_t *iN, double mu, fl_error *err)
{
    if (!isfinite(mu) || mu < 0.0)
        return FL_FAIL(err, FL_EINVAL, "friction coefficient mu = %g must be finite and >= 0", mu);
    unsigned char *used = calloc(n, 1);
    if (!used) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    fl_status st = FL_OK;
    for (size_t p = 0; p < np && st == FL_OK; p++) {
        size_t d[2] = {iT[p], iN[p]};
        for (int k = 0; k < 2 && st == FL_OK; k++) {
            if (d[k] >= n || used[d[k]] || (prescribed && prescribed[d[k]]))
                st = FL_FAIL(err, FL_EINVAL,
                             "contact particle %zu: dof %zu out of range, repeated or prescribed",
                             p, d[k]);
            else
                used[d[k]] = 1;
        }
    }
    free(used);
    return st;
}

/* 004 §2.1 (12), (17) and the partition of §2.3 (P_f, P_z, P_d, P_s). */
fl_status fl_stability_partition(const fl_stability_system *s, const gsl_vector *u,
                            const gsl_vector *r, double eps, fl_stability_label *labels,
                            fl_error *err)
{
    FL_TRY(fl_stability_system_check(s, err));
    if (!u || !r || !labels || u->size != s->n || r->size != s->n)
        return FL_FAIL(err, FL_EDIM, "partition: u and r must have length %zu", s->n);
    FL_TRY(fl_check_finite_vector(u, "displacement u", err));
    FL_TRY(fl_check_finite_vector(r, "reaction r", err));
    if (!(eps >= 0.0)) return FL_FAIL(err, FL_EINVAL, "partition: eps must be >= 0");
    double us = 1.0, rs = 0.0;
    for (size_t p = 0; p < s->np; p++) {
        us = fmax(us, fabs(gsl_vector_get(u, s->iN[p])));
        rs = fmax(rs, fmax(fabs(gsl_vector_get(r, s->iN[p])), fabs(gsl_vector_get(r, s->iT[p]))));
    }
    double tu = eps * us, tr = eps * rs;
    for (size_t p = 0; p < s->np; p++) {
        double uN = gsl_vector_get(u, s->iN[p]);
        double rN = gsl_vector_get(r, s->iN[p]), rT = gsl_vector_get(r, s->iT[p]);
        if (uN > tu)        /* (12) u_Np <= 0 */
            return FL_FAIL(err, FL_EINVAL, "particle %zu: u_N = %g > 0 is not in K_u (004 (12))", p, uN);
        if (rN > tr || fabs(rT) > -s->mu * rN + tr)   /* (17) */
            return FL_FAIL(err, FL_EINVAL,
                           "particle %zu: r = (%g, %g) is not in K_r(u) (004 (17))", p, rT, rN);
        if (uN < -tu) {
            if (fabs(rN) > tr || fabs(rT) > tr)
                return FL_FAIL(err, FL_EINVAL,
                               "particle %zu: free (u_N < 0) with a reaction (004 (17))", p);
            labels[p] = FL_STAB_PF;
        } else if (fabs(rN) <= tr && fabs(rT) <= tr) {
            labels[p] = FL_STAB_PZ;
        } else if (fabs(rT) < -s->mu * rN - tr) {
            labels[p] = FL_STAB_PD;
        } else {
            labels[p] = FL_STAB_PS;
        }
    }
    return FL_OK;
}

static int is_contact_dof(const fl_stability_system *s, size_t i)
{
    for (size_t p = 0; p < s->np; p++)
        if (s->iT[p] == i || s->iN[p] == i) return 1;
    return 0;
}

/* 004 (34). */
double fl_stability_viol_Kudot(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *r, const gsl_vector *v)
{
    double viol = 0.0;
    for (size_t i = 0; i < s->n; i++)          /* V_u (3): v_i = 0 on S_D */
        if (s->prescribed && s->prescribed[i]) viol = fmax(viol, fabs(gsl_vector_get(v, i)));
    for (size_t p = 0; p < s->np; p++) {
        double vT = gsl_vector_get(v, s->iT[p]), vN = gsl_vector_get(v, s->iN[p]);
        switch (labels[p]) {
        case FL_STAB_PZ: viol = fmax(viol, vN); break;
        case FL_STAB_PD: viol = fmax(viol, fmax(fabs(vN), fabs(vT))); break;
        case FL_STAB_PS:
            viol = fmax(viol, fmax(fabs(vN), vT * sgn(gsl_vector_get(r, s->iT[p]))));
            break;
        default: break;
        }
    }
    return viol;
}

/* 004 (35), with w in V_r (3). */
double fl_stability_viol_Krdot(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *r, const gsl_vector *v, const gsl_vector *w)
{
    double viol = 0.0;
    for (size_t i = 0; i < s->n; i++)          /* V_r (3): w_i = 0 on S_F */
        if (!(s->prescribed && s->prescribed[i]) && !is_contact_dof(s, i))
            viol = fmax(viol, fabs(gsl_vector_get(w, i)));
    for (size_t p = 0; p < s->np; p++) {
        double vT = gsl_vector_get(v, s->iT[p]), vN = gsl_vector_get(v, s->iN[p]);
        double wT = gsl_vector_get(w, s->iT[p]), wN = gsl_vector_get(w, s->iN[p]);
        switch (labels[p]) {
        case FL_STAB_PF: viol = fmax(viol, fmax(fabs(wT), fabs(wN))); break;
        case FL_STAB_PZ:
            viol = fmax(viol, fmax(wN, fabs(wN * vN)));
            if (vT != 0.0) viol = fmax(viol, fabs(wT - s->mu * wN * sgn(vT)));
            else viol = fmax(viol, fabs(wT) + s->mu * wN);   /* |w_T| <= -mu w_N */
            break;
        case FL_STAB_PS: {
            double sr = sgn(gsl_vector_get(r, s->iT[p])), g = wT * sr + s->mu * wN;
            viol = fmax(viol, fmax(g, fabs(g * vT * sr)));
            break;
        }
        default: break;
        }
    }
    return viol;
}

/* 004 (24). */
double fl_stability_viol_Kuddot(const fl_stability_system *s, const gsl_vector *u, const gsl_vector *v,
                           const gsl_vector *a)
{
    double viol = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (s->prescribed && s->prescribed[i]) viol = fmax(viol, fabs(gsl_vector_get(a, i)));
    for (size_t p = 0; p < s->np; p++)
        if (gsl_vector_get(u, s->iN[p]) == 0.0 && gsl_vector_get(v, s->iN[p]) == 0.0)
            viol = fmax(viol, gsl_vector_get(a, s->iN[p]));
    return viol;
}

/* 004 (25), with r in V_r (3). */
double fl_stability_viol_Kr_uva(const fl_stability_system *s, const gsl_vector *u, const gsl_vector *v,
                           const gsl_vector *a, const gsl_vector *r)
{
    double viol = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (!(s->prescribed && s->prescribed[i]) && !is_contact_dof(s, i))
            viol = fmax(viol, fabs(gsl_vector_get(r, i)));
    for (size_t p = 0; p < s->np; p++) {
        double rT = gsl_vector_get(r, s->iT[p]), rN = gsl_vector_get(r, s->iN[p]);
        double vT = gsl_vector_get(v, s->iT[p]), vN = gsl_vector_get(v, s->iN[p]);
        double aT = gsl_vector_get(a, s->iT[p]), aN = gsl_vector_get(a, s->iN[p]);
        if (gsl_vector_get(u, s->iN[p]) < 0.0 || vN < 0.0) {     /* P_f U P_cf: r = 0 */
            viol = fmax(viol, fmax(fabs(rT), fabs(rN)));
            continue;
        }
        viol = fmax(viol, fmax(rN, fabs(rN * aN)));                /* P_0 U P_v */
        if (vT != 0.0)                                              /* P_v */
            viol = fmax(viol, fabs(rT - s->mu * rN * sgn(vT)));
        else if (aT != 0.0)                                         /* P_0, sigma(a_T) */
            viol = fmax(viol, fabs(rT - s->mu * rN * sgn(aT)));
        else
            viol = fmax(viol, fabs(rT) + s->mu * rN);
    }
    return viol;
}

/* inf over x in R of  w (x - X) + c (|x| - |X|), c >= 0 assumed by callers
 * only when finite: -inf if |w| > c (or c < 0), else -(w X + c |X|). */
static double inf_abs_line(double w, double c, double X)
{
    if (c < 0.0 || fabs(w) > c) return -INFINITY;
    return -(w * X + c * fabs(X));
}

/* inf over y <= 0 of g (y - Y): -inf if g > 0, else -g Y. */
static double inf_halfline(double g, double Y)
{
    return g > 0.0 ? -INFINITY : -g * Y;
}

/* inf over x in R of w (x - X): 0 if w == 0, else -inf. */
static double inf_line(double w)
{
    return w == 0.0 ? 0.0 : -INFINITY;
}

/* 004 Lemma 2.6, (28), exact infimum over a in K_u''(U, V) (24). */
double fl_stability_vi26_inf(const fl_stability_system *s, const gsl_vector *U, const gsl_vector *V,
                        const gsl_vector *A, const gsl_vector *R)
{
    double tot = 0.0;
    for (size_t i = 0; i < s->n; i++)               /* free dofs: a_i in R */
        if (!(s->prescribed && s->prescribed[i]) && !is_contact_dof(s, i))
            tot += inf_line(gsl_vector_get(R, i));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        double RT = gsl_vector_get(R, iT), RN = gsl_vector_get(R, iN);
        double VT = gsl_vector_get(V, iT), VN = gsl_vector_get(V, iN);
        double AT = gsl_vector_get(A, iT), AN = gsl_vector_get(A, iN);
        if (gsl_vector_get(U, iN) < 0.0 || VN < 0.0) {   /* P_f U P_cf: a free */
            tot += inf_line(RT) + inf_line(RN);
            continue;
        }
        tot += inf_halfline(RN, AN);                   /* a_N <= 0: R_N (a_N - A_N) */
        if (VT != 0.0)                                  /* P_v: (R_T - mu R_N sigma(V_T))(a_T - A_T) */
            tot += inf_line(RT - s->mu * RN * sgn(VT));
        else                                            /* P_0: R_T (a_T - A_T) - mu R_N (|a_T| - |A_T|) */
            tot += inf_abs_line(RT, -s->mu * RN, AT);
    }
    return tot;
}

double fl_stability_vi26_value(const fl_stability_system *s, const gsl_vector *U, const gsl_vector *V,
                          const gsl_vector *A, const gsl_vector *R, const gsl_vector *a)
{
    double lhs = 0.0, rhs = 0.0;
    for (size_t i = 0; i < s->n; i++)
        lhs += gsl_vector_get(R, i) * (gsl_vector_get(a, i) - gsl_vector_get(A, i));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        if (gsl_vector_get(U, iN) < 0.0 || gsl_vector_get(V, iN) < 0.0) continue;
        double RN = gsl_vector_get(R, iN), VT = gsl_vector_get(V, iT);
        double aT = gsl_vector_get(a, iT), AT = gsl_vector_get(A, iT);
        if (VT != 0.0) rhs += s->mu * RN * sgn(VT) * (aT - AT);
        else rhs += s->mu * RN * (fabs(aT) - fabs(AT));
    }
    return lhs - rhs;
}

/* 004 Lemma 2.7, (37)-(38), exact infimum over v in K_u'(U, R) (34). */
double fl_stability_vi27_inf(const fl_stability_system *s, const fl_stability_label *labels,
                        const gsl_vector *R, const gsl_vector *V, const gsl_vector *W)
{
    double tot = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (!(s->prescribed && s->prescribed[i]) && !is_contact_dof(s, i))
            tot += inf_line(gsl_vector_get(W, i));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        double WT = gsl_vector_get(W, iT), WN = gsl_vector_get(W, iN);
        double VT = gsl_vector_get(V, iT), VN = gsl_vector_get(V, iN);
        switch (labels[p]) {
        case FL_STAB_PF: tot += inf_line(WT) + inf_line(WN); break;
        case FL_STAB_PZ:                                   /* v_N <= 0, v_T free */
            tot += inf_halfline(WN, VN) + inf_abs_line(WT, -s->mu * WN, VT);
            break;
        case FL_STAB_PD: break;                            /* v = V = 0 */
        case FL_STAB_PS: {                                 /* v_N = 0, y = sigma(R_T) v_T <= 0 */
            double sr = sgn(gsl_vector_get(R, iT));
            tot += inf_halfline(WT * sr + s->mu * WN, sr * VT);
            break;
        }
        }
    }
    return tot;
}

double fl_stability_vi27_value(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *V, const gsl_vector *W, const gsl_vector *v)
{
    double lhs = 0.0, rhs = 0.0;
    for (size_t i = 0; i < s->n; i++)
        lhs += gsl_vector_get(W, i) * (gsl_vector_get(v, i) - gsl_vector_get(V, i));
    for (size_t p = 0; p < s->np; p++)
        if (labels[p] != FL_STAB_PF)
            rhs += s->mu * gsl_vector_get(W, s->iN[p]) *
                   (fabs(gsl_vector_get(v, s->iT[p])) - fabs(gsl_vector_get(V, s->iT[p])));
    return lhs - rhs;
}

/* 004 §2.3, second-order partition. */
fl_stability_label2 fl_stability_label2_of(const fl_stability_system *s, fl_stability_label l1, size_t p,
                                 const gsl_vector *R, const gsl_vector *V, const gsl_vector *W)
{
    size_t iT = s->iT[p], iN = s->iN[p];
    double VT = gsl_vector_get(V, iT), VN = gsl_vector_get(V, iN);
    double WT = gsl_vector_get(W, iT), WN = gsl_vector_get(W, iN), mu = s->mu;
    switch (l1) {
    case FL_STAB_PF: return FL_STAB2_F;
    case FL_STAB_PD: return FL_STAB2_D;
    case FL_STAB_PZ:
        if (VN < 0) return FL_STAB2_ZF;
        if (WT == 0.0 && WN == 0.0) return FL_STAB2_ZZ;
        if (VT == 0.0 && WN < 0 && fabs(WT) < -mu * WN) return FL_STAB2_ZD;
        if (WN < 0 && ((VT != 0.0 && WT == mu * WN * sgn(VT)) || (VT == 0.0 && fabs(WT) == -mu * WN)))
            return FL_STAB2_ZS;
        return FL_STAB2_NONE;
    case FL_STAB_PS: {
        double sr = sgn(gsl_vector_get(R, iT)), g = WT * sr + mu * WN;
        if (VT == 0.0 && g < 0) return FL_STAB2_SD;
        if (g == 0.0 && (VT == 0.0 || sgn(VT) == -sr)) return FL_STAB2_SS;
        return FL_STAB2_NONE;
    }
    }
    return FL_STAB2_NONE;
}

/* 004 (42). */
double fl_stability_viol_Kuddot2(const fl_stability_system *s, const fl_stability_label *labels,
                            const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                            const gsl_vector *a)
{
    double viol = 0.0;
    for (size_t i = 0; i < s->n; i++)
        if (s->prescribed && s->prescribed[i]) viol = fmax(viol, fabs(gsl_vector_get(a, i)));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        double aT = gsl_vector_get(a, iT), aN = gsl_vector_get(a, iN), VT = gsl_vector_get(V, iT);
        fl_stability_label2 l = fl_stability_label2_of(s, labels[p], p, R, V, W);
        switch (l) {
        case FL_STAB2_ZZ: viol = fmax(viol, aN); break;                          /* a_N <= 0 */
        case FL_STAB2_D: case FL_STAB2_SD: case FL_STAB2_ZD:                       /* a = 0 */
            viol = fmax(viol, fmax(fabs(aN), fabs(aT)));
            break;
        case FL_STAB2_SS:
            viol = fmax(viol, fabs(aN));
            if (VT == 0.0) viol = fmax(viol, aT * sgn(gsl_vector_get(R, iT)));
            break;
        case FL_STAB2_ZS:
            viol = fmax(viol, fabs(aN));
            if (VT == 0.0) viol = fmax(viol, aT * sgn(gsl_vector_get(W, iT)));
            break;
        default: break;
        }
    }
    return viol;
}

/* 004 (43), with B in V_r. */
double fl_stability_viol_Krddot(const fl_stability_system *s, const fl_stability_label *labels,
                           const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                           const gsl_vector *a, const gsl_vector *B)
{
    double viol = 0.0, mu = s->mu;
    for (size_t i = 0; i < s->n; i++)
        if (!(s->prescribed && s->prescribed[i]) && !is_contact_dof(s, i))
            viol = fmax(viol, fabs(gsl_vector_get(B, i)));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        double aT = gsl_vector_get(a, iT), aN = gsl_vector_get(a, iN), VT = gsl_vector_get(V, iT);
        double BT = gsl_vector_get(B, iT), BN = gsl_vector_get(B, iN);
        fl_stability_label2 l = fl_stability_label2_of(s, labels[p], p, R, V, W);
        if (l == FL_STAB2_F || l == FL_STAB2_ZF) { viol = fmax(viol, fmax(fabs(BT), fabs(BN))); continue; }
        if (l == FL_STAB2_ZZ) viol = fmax(viol, fmax(BN, fabs(BN * aN)));
        int contact_slide = (l == FL_STAB2_ZZ || l == FL_STAB2_ZS || l == FL_STAB2_SS);
        if (contact_slide && VT != 0.0) { viol = fmax(viol, fabs(BT - mu * BN * sgn(VT))); continue; }   /* P_v */
        if (l == FL_STAB2_SS || l == FL_STAB2_ZS) {                                                      /* P_0 */
            double sg = sgn(gsl_vector_get(l == FL_STAB2_SS ? R : W, iT)), g = BT * sg + mu * BN;
            viol = fmax(viol, fmax(g, fabs(g * aT * sg)));
        } else if (l == FL_STAB2_ZZ) {                                                                   /* P_zz n P_0 */
            if (aT != 0.0) viol = fmax(viol, fabs(BT - mu * BN * sgn(aT)));
            else viol = fmax(viol, fabs(BT) + mu * BN);
        }
    }
    return viol;
}

/* 004 Lemma 2.9 (45), exact infimum over a in (42). */
double fl_stability_vi29_inf(const fl_stability_system *s, const fl_stability_label *labels,
                        const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                        const gsl_vector *A, const gsl_vector *B)
{
    double tot = 0.0, mu = s->mu;
    for (size_t i = 0; i < s->n; i++)
        if (!(s->prescribed && s->prescribed[i]) && !is_contact_dof(s, i))
            tot += inf_line(gsl_vector_get(B, i));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        double VT = gsl_vector_get(V, iT), AT = gsl_vector_get(A, iT), AN = gsl_vector_get(A, iN);
        double BT = gsl_vector_get(B, iT), BN = gsl_vector_get(B, iN);
        fl_stability_label2 l = fl_stability_label2_of(s, labels[p], p, R, V, W);
        switch (l) {
        case FL_STAB2_F: case FL_STAB2_ZF: tot += inf_line(BT) + inf_line(BN); break;
        case FL_STAB2_D: case FL_STAB2_SD: case FL_STAB2_ZD: break;
        case FL_STAB2_ZZ:
            tot += inf_halfline(BN, AN);
            tot += VT != 0.0 ? inf_line(BT - mu * BN * sgn(VT)) : inf_abs_line(BT, -mu * BN, AT);
            break;
        case FL_STAB2_ZS: case FL_STAB2_SS: {
            if (VT != 0.0) { tot += inf_line(BT - mu * BN * sgn(VT)); break; }
            double sg = sgn(gsl_vector_get(l == FL_STAB2_SS ? R : W, iT));
            tot += inf_halfline(BT * sg + mu * BN, sg * AT);
            break;
        }
        default: return NAN;
        }
    }
    return tot;
}

double fl_stability_vi29_value(const fl_stability_system *s, const fl_stability_label *labels,
                          const gsl_vector *R, const gsl_vector *V, const gsl_vector *W,
                          const gsl_vector *A, const gsl_vector *B, const gsl_vector *a)
{
    double lhs = 0.0, rhs = 0.0, mu = s->mu;
    for (size_t i = 0; i < s->n; i++)
        lhs += gsl_vector_get(B, i) * (gsl_vector_get(a, i) - gsl_vector_get(A, i));
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        double VT = gsl_vector_get(V, iT), BN = gsl_vector_get(B, iN);
        double aT = gsl_vector_get(a, iT), AT = gsl_vector_get(A, iT);
        fl_stability_label2 l = fl_stability_label2_of(s, labels[p], p, R, V, W);
        int slide = (l == FL_STAB2_ZZ || l == FL_STAB2_ZS || l == FL_STAB2_SS);
        if (slide && VT != 0.0) rhs += mu * BN * sgn(VT) * (aT - AT);                 /* P_v */
        else if (l == FL_STAB2_ZZ) rhs += mu * BN * (fabs(aT) - fabs(AT));             /* P_zz n P_0 */
        else if (l == FL_STAB2_SS) rhs -= mu * BN * sgn(gsl_vector_get(R, iT)) * (aT - AT);
        else if (l == FL_STAB2_ZS) rhs -= mu * BN * sgn(gsl_vector_get(W, iT)) * (aT - AT);
    }
    return lhs - rhs;
}

/* 004 Prop. 3.2 (52) by enumeration of the contact branches. */
fl_status fl_stability_jumps(const fl_stability_system *s, const gsl_vector *u0, const gsl_vector *r0,
                        double tol, size_t max_sol, gsl_matrix *As, gsl_matrix *Rs,
                        size_t *nsol, fl_error *err)
{
    FL_TRY(fl_stability_system_check(s, err));
    size_t n = s->n;
    if (!u0 || !r0 || u0->size != n || r0->size != n || (max_sol > 0 && (!As || !Rs ||
        As->size1 != n || Rs->size1 != n || As->size2 < max_sol || Rs->size2 < max_sol)))
        return FL_FAIL(err, FL_EDIM, "jumps: bad dimensions");
    FL_TRY(fl_check_finite_vector(u0, "u0", err));
    FL_TRY(fl_check_finite_vector(r0, "r0", err));
    if (s->np > 12) return FL_FAIL(err, FL_EUNSUPPORTED, "jumps: more than 12 contact particles");
    size_t N2 = 2 * n;
    gsl_matrix *S = fl_dense_matrix_alloc(N2, N2);
    gsl_vector *b = fl_dense_vector_alloc(N2), *x = fl_dense_vector_alloc(N2);
    gsl_permutation *perm = fl_dense_permutation_alloc(N2);
    gsl_vector *v0 = fl_dense_vector_calloc(n);
    if (!S || !b || !x || !perm || !v0) {
        if (S) gsl_matrix_free(S);
        if (b) gsl_vector_free(b);
        if (x) gsl_vector_free(x);
        if (perm) gsl_permutation_free(perm);
        if (v0) gsl_vector_free(v0);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    gsl_vector_view A = gsl_vector_subvector(x, 0, n), R = gsl_vector_subvector(x, n, n);
    size_t branches = 1;
    for (size_t p = 0; p < s->np; p++) branches *= 4;
    fl_status st = FL_OK;
    *nsol = 0;
    for (size_t code = 0; code < branches; code++) {
        /* rows 0..n-1: M A - R = -r0 (the jump of (1) at equilibrium) */
        gsl_matrix_set_zero(S);
        gsl_vector_set_zero(b);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++) gsl_matrix_set(S, i, j, gsl_matrix_get(s->M, i, j));
            gsl_matrix_set(S, i, n + i, -1.0);
            gsl_vector_set(b, i, -gsl_vector_get(r0, i));
        }
        /* rows n..2n-1: one condition per dof; R = r+ = r0 + M A */
        for (size_t i = 0; i < n; i++) {
            if (s->prescribed && s->prescribed[i]) gsl_matrix_set(S, n + i, i, 1.0);  /* a_i = 0 */
            else gsl_matrix_set(S, n + i, n + i, 1.0);                                 /* r_i = 0 */
        }
        size_t c = code;
        int trivial_branch = 1;
        for (size_t p = 0; p < s->np; p++, c /= 4) {
            size_t iT = s->iT[p], iN = s->iN[p];
            int br = (int)(c % 4);
            gsl_matrix_set(S, n + iT, n + iT, 0.0);
            gsl_matrix_set(S, n + iN, n + iN, 0.0);
            if (gsl_vector_get(u0, iN) < 0.0) br = 1;      /* free particle: r = 0 only */
            if (br != 0) trivial_branch = 0;
            switch (br) {
            case 0:   /* stick: a_T = a_N = 0 */
                gsl_matrix_set(S, n + iT, iT, 1.0);
                gsl_matrix_set(S, n + iN, iN, 1.0);
                break;
            case 1:   /* no reaction: r_T = r_N = 0 */
                gsl_matrix_set(S, n + iT, n + iT, 1.0);
                gsl_matrix_set(S, n + iN, n + iN, 1.0);
                break;
            default: {/* slip, sigma(a_T) = -1 (2) or +1 (3): a_N = 0, r_T = mu sigma r_N */
                double sg = br == 2 ? -1.0 : 1.0;
                gsl_matrix_set(S, n + iN, iN, 1.0);
                gsl_matrix_set(S, n + iT, n + iT, 1.0);
                gsl_matrix_set(S, n + iT, n + iN, -s->mu * sg);
                break;
            }
            }
            if (gsl_vector_get(u0, iN) < 0.0 && (c % 4) != 1) trivial_branch = -1;  /* duplicate */
        }
        if (trivial_branch != 0) continue;   /* all stuck gives A = 0; skip duplicates */
        int signum;
        gsl_linalg_LU_decomp(S, perm, &signum);
        double dmin = INFINITY, dmax = 0.0;
        for (size_t i = 0; i < N2; i++) {
            double d = fabs(gsl_matrix_get(S, i, i));
            dmin = fmin(dmin, d);
            dmax = fmax(dmax, d);
        }
        if (dmin <= 1e-12 * dmax) { st = FL_WDEGENERATE; continue; }
        gsl_linalg_LU_solve(S, perm, b, x);
        double an = gsl_blas_dnrm2(&A.vector);
        if (an <= tol) continue;
        if (fl_stability_viol_Kuddot(s, u0, v0, &A.vector) > tol ||
            fl_stability_viol_Kr_uva(s, u0, v0, &A.vector, &R.vector) > tol)
            continue;
        /* branch consistency: slip needs the sign of a_T it assumed (strict) */
        int ok = 1;
        c = code;
        for (size_t p = 0; p < s->np; p++, c /= 4) {
            double aT = gsl_vector_get(&A.vector, s->iT[p]);
            if ((c % 4 == 2 && !(aT < -tol)) || (c % 4 == 3 && !(aT > tol))) ok = 0;
        }
        if (!ok) continue;
        if (*nsol < max_sol) {
            gsl_vector_view ca = gsl_matrix_column(As, *nsol), cr = gsl_matrix_column(Rs, *nsol);
            gsl_vector_memcpy(&ca.vector, &A.vector);
            gsl_vector_memcpy(&cr.vector, &R.vector);
        }
        (*nsol)++;
    }
    gsl_matrix_free(S);
    gsl_vector_free(b);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    gsl_vector_free(v0);
    return st;
}

void fl_stability_tangent_free(fl_stability_tangent *t)
{
    if (!t) return;
    free(t->dof);
    free(t->csign);
    if (t->Kstar) gsl_matrix_free(t->Kstar);
    if (t->Mstar) gsl_matrix_free(t->Mstar);
    if (t->KS) gsl_matrix_free(t->KS);
    if (t->MS) gsl_matrix_free(t->MS);
    free(t);
}

/* 004 (80)-(82): rows and columns of S*; row T_p of a sliding particle gets
 * mu sigma(r_Tp) times row N_p.  (86): symmetric parts. */
fl_status fl_stability_tangent_alloc(const fl_stability_system *s, const fl_stability_label *labels,
                                const gsl_vector *r, fl_stability_tangent **out, fl_error *err)
{
    *out = NULL;
    FL_TRY(fl_stability_system_check(s, err));
    if (!labels || !r || r->size != s->n)
        return FL_FAIL(err, FL_EDIM, "tangent: labels and r (length %zu) required", s->n);
    size_t n = s->n;
    /* role of each dof: 1 in S*, 0 not; partner[i] = N dof for T of P_s */
    int *in = calloc(n, sizeof *in);
    int *cs = calloc(n, sizeof *cs);
    size_t *partner = malloc(n * sizeof *partner);
    fl_stability_tangent *t = calloc(1, sizeof *t);
    if (!in || !cs || !partner || !t) {
        free(in); free(cs); free(partner); free(t);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        in[i] = !(s->prescribed && s->prescribed[i]);   /* S_F (contact dofs fixed below) */
        partner[i] = n;
    }
    for (size_t p = 0; p < s->np; p++) {
        size_t iT = s->iT[p], iN = s->iN[p];
        switch (labels[p]) {
        case FL_STAB_PF: in[iT] = in[iN] = 1; break;                 /* both dofs of P_f */
        case FL_STAB_PZ: in[iT] = in[iN] = 1; cs[iN] = 1; break;     /* both of P_z, v_N <= 0 */
        case FL_STAB_PD: in[iT] = in[iN] = 0; break;                 /* stuck: none */
        case FL_STAB_PS:                                             /* T of P_s */
            in[iT] = 1; in[iN] = 0;
            cs[iT] = (int)sgn(gsl_vector_get(r, iT));                /* v_T sigma(r_T) <= 0 */
            partner[iT] = iN;
            break;
        default:
            free(in); free(cs); free(partner); free(t);
            return FL_FAIL(err, FL_EINVAL, "tangent: bad label %d of particle %zu", (int)labels[p], p);
        }
    }
    size_t ns = 0;
    for (size_t i = 0; i < n; i++) ns += in[i] ? 1 : 0;
    t->nstar = ns;
    if (ns == 0) {
        free(in); free(cs); free(partner); free(t);
        return FL_FAIL(err, FL_EINVAL, "tangent: S* is empty (every dof prescribed or stuck)");
    }
    t->dof = malloc(ns * sizeof *t->dof);
    t->csign = malloc(ns * sizeof *t->csign);
    t->Kstar = fl_dense_matrix_alloc(ns, ns);
    t->Mstar = fl_dense_matrix_alloc(ns, ns);
    t->KS = fl_dense_matrix_alloc(ns, ns);
    t->MS = fl_dense_matrix_alloc(ns, ns);
    if (!t->dof || !t->csign || !t->Kstar || !t->Mstar || !t->KS || !t->MS) {
        free(in); free(cs); free(partner);
        fl_stability_tangent_free(t);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t i = 0, k = 0; i < n; i++)
        if (in[i]) { t->dof[k] = i; t->csign[k] = cs[i]; k++; }
    for (size_t a = 0; a < ns; a++) {
        size_t i = t->dof[a];
        double f = 0.0;
        if (partner[i] < n) f = s->mu * (double)cs[i];   /* (82): mu sigma(r_Tp) */
        for (size_t b = 0; b < ns; b++) {
            size_t j = t->dof[b];
            double kij = gsl_matrix_get(s->K, i, j), mij = gsl_matrix_get(s->M, i, j);
            if (partner[i] < n) {
                kij += f * gsl_matrix_get(s->K, partner[i], j);
                mij += f * gsl_matrix_get(s->M, partner[i], j);
            }
            gsl_matrix_set(t->Kstar, a, b, kij);
            gsl_matrix_set(t->Mstar, a, b, mij);
        }
    }
    for (size_t a = 0; a < ns; a++)           /* (86) */
        for (size_t b = 0; b < ns; b++) {
            gsl_matrix_set(t->KS, a, b, 0.5 * (gsl_matrix_get(t->Kstar, a, b) +
                                                gsl_matrix_get(t->Kstar, b, a)));
            gsl_matrix_set(t->MS, a, b, 0.5 * (gsl_matrix_get(t->Mstar, a, b) +
                                                gsl_matrix_get(t->Mstar, b, a)));
        }
    free(in); free(cs); free(partner);
    *out = t;
    return FL_OK;
}

/* 004 (51) / (66): A x . y - sum_{P_c} mu [A x]_Np |y_Tp|. */
double fl_stability_form_star(const fl_stability_system *s, const gsl_matrix *A,
                         const fl_stability_label *labels, const gsl_vector *x,
                         const gsl_vector *y)
{
    gsl_vector *Ax = fl_dense_vector_alloc(s->n);
    if (!Ax) return NAN;
    gsl_blas_dgemv(CblasNoTrans, 1.0, A, x, 0.0, Ax);
    double v;
    gsl_blas_ddot(Ax, y, &v);
    for (size_t p = 0; p < s->np; p++)
        if (labels[p] != FL_STAB_PF)
            v -= s->mu * gsl_vector_get(Ax, s->iN[p]) * fabs(gsl_vector_get(y, s->iT[p]));
    gsl_vector_free(Ax);
    return v;
}

fl_status fl_stability_sym_min(const gsl_matrix *A, double *lmin, gsl_vector *v, fl_error *err)
{
    size_t n = A->size1;
    if (n == 0 || A->size2 != n || (v && v->size != n))
        return FL_FAIL(err, FL_EDIM, "symmetric eigenproblem: bad dimensions");
    FL_TRY(fl_check_finite_matrix(A, "symmetric matrix", err));
    gsl_matrix *W = fl_dense_matrix_alloc(n, n), *E = fl_dense_matrix_alloc(n, n);
    gsl_vector *ev = fl_dense_vector_alloc(n);
    gsl_error_handler_t *old = fl_gsl_handler_off();      /* NULL, never an abort */
    gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(n);
    fl_gsl_handler_restore(old);
    fl_status st = FL_OK;
    if (!W || !E || !ev || !w) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory");
    } else {
        gsl_matrix_memcpy(W, A);
        gsl_eigen_symmv(W, ev, E, w);
        size_t k = gsl_vector_min_index(ev);
        *lmin = gsl_vector_get(ev, k);
        if (v) {
            gsl_vector_const_view c = gsl_matrix_const_column(E, k);
            gsl_vector_memcpy(v, &c.vector);
        }
    }
    if (w) gsl_eigen_symmv_free(w);
    if (W) gsl_matrix_free(W);
    if (E) gsl_matrix_free(E);
    if (ev) gsl_vector_free(ev);
    return st;
}

/* 004 §5.4 method 2 (004 §5.4). */
int fl_stability_cholesky_pd(const gsl_matrix *A)
{
    gsl_matrix *L = fl_dense_matrix_alloc(A->size1, A->size2);
    if (!L) return 0;
    gsl_matrix_memcpy(L, A);
    fl_status st = fl_dense_cholesky(L, NULL);
    gsl_matrix_free(L);
    return st == FL_OK;
}

int fl_stability_admissible(const gsl_vector *v, const int *csign, double tol)
{
    double scale = 0.0;
    for (size_t k = 0; k < v->size; k++) scale = fmax(scale, fabs(gsl_vector_get(v, k)));
    int plus = 1, minus = 1;
    for (size_t k = 0; k < v->size; k++) {
        double cv = (double)csign[k] * gsl_vector_get(v, k);
        if (cv > tol * scale) plus = 0;
        if (-cv > tol * scale) minus = 0;
    }
    return plus || minus;
}

/* 004 §5.4 method 1, exact by enumeration (proofs/stability.md §2): the
 * constrained minimiser is the smallest eigenvector of A restricted to the
 * components not in its zero set Z, so the minimum is the least lambda_min
 * of the reduced matrices whose eigenvector (up to sign) is admissible. */
fl_status fl_stability_cone_min(const gsl_matrix *A, const int *csign, size_t max_enum,
                           double *vmin, gsl_vector *v, size_t *tried, fl_error *err)
{
    size_t n = A->size1;
    if (n == 0 || A->size2 != n || (v && v->size != n))
        return FL_FAIL(err, FL_EDIM, "cone minimum: bad dimensions");
    FL_TRY(fl_check_finite_matrix(A, "symmetric matrix", err));
    size_t nc = 0;
    for (size_t k = 0; k < n; k++) nc += csign[k] != 0;
    if (nc > max_enum || nc >= 8 * sizeof(unsigned long) - 1)
        return FL_FAIL(err, FL_EUNSUPPORTED,
                       "cone minimum: %zu constrained components exceed the enumeration limit %zu",
                       nc, max_enum);
    size_t *cidx = malloc((nc + 1) * sizeof *cidx), *keep = malloc(n * sizeof *keep);
    gsl_vector *full = fl_dense_vector_alloc(n);
    if (!cidx || !keep || !full) {
        free(cidx); free(keep); if (full) gsl_vector_free(full);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t k = 0, c = 0; k < n; k++) if (csign[k]) cidx[c++] = k;
    double best = INFINITY;
    size_t count = 0;
    fl_status st = FL_OK;
    for (unsigned long mask = 0; mask < (1UL << nc) && st == FL_OK; mask++) {
        /* components with bit set are forced to zero */
        size_t m = 0;
        for (size_t k = 0, c = 0; k < n; k++) {
            int zero = 0;
            if (c < nc && cidx[c] == k) { zero = (mask >> c) & 1UL; c++; }
            if (!zero) keep[m++] = k;
        }
        if (m == 0) continue;
        gsl_matrix *R = fl_dense_matrix_alloc(m, m);
        gsl_vector *y = fl_dense_vector_alloc(m);
        if (!R || !y) {
            if (R) gsl_matrix_free(R);
            if (y) gsl_vector_free(y);
            st = FL_FAIL(err, FL_ENOMEM, "out of memory");
            break;
        }
        for (size_t a = 0; a < m; a++)
            for (size_t b = 0; b < m; b++)
                gsl_matrix_set(R, a, b, gsl_matrix_get(A, keep[a], keep[b]));
        double l;
        st = fl_stability_sym_min(R, &l, y, err);
        count++;
        if (st == FL_OK && l < best) {
            gsl_vector_set_zero(full);
            for (size_t a = 0; a < m; a++) gsl_vector_set(full, keep[a], gsl_vector_get(y, a));
            if (fl_stability_admissible(full, csign, 1e-12)) {
                /* orient so that c_k v_k <= 0 */
                double worst = 0.0;
                for (size_t k = 0; k < n; k++)
                    worst = fmax(worst, (double)csign[k] * gsl_vector_get(full, k));
                if (worst > 1e-12) gsl_vector_scale(full, -1.0);
                best = l;
                if (v) gsl_vector_memcpy(v, full);
            }
        }
        gsl_matrix_free(R);
        gsl_vector_free(y);
    }
    free(cidx); free(keep); gsl_vector_free(full);
    if (tried) *tried = count;
    if (st == FL_OK) *vmin = best;
    return st;
}

/* Sort helper: order of (re, im) by key ascending. */
typedef struct { double key, key2, re, im; size_t col; } eig_entry;

static int eig_cmp(const void *a, const void *b)
{
    const eig_entry *x = a, *y = b;
    if (x->key < y->key) return -1;
    if (x->key > y->key) return 1;
    if (x->key2 < y->key2) return -1;
    if (x->key2 > y->key2) return 1;
    return 0;
}

fl_status fl_stability_sort_eig(size_t n, double *re, double *im, int order, size_t *perm,
                           fl_error *err)
{
    eig_entry *e = malloc((n ? n : 1) * sizeof *e);
    if (!e) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        e[k].re = re[k];
        e[k].im = im[k];
        e[k].key = order == FL_STAB_BY_MODULUS ? hypot(re[k], im[k]) : fabs(im[k]);
        e[k].key2 = order == FL_STAB_BY_MODULUS ? im[k] : re[k];
        e[k].col = k;
    }
    qsort(e, n, sizeof *e, eig_cmp);
    for (size_t k = 0; k < n; k++) {
        re[k] = e[k].re;
        im[k] = e[k].im;
        if (perm) perm[k] = e[k].col;
    }
    free(e);
    return FL_OK;
}

/* 004 §5.4 (ii)-(iii), 004 §5.4: generalized eigenproblem by QZ. */
fl_status fl_stability_gen_eig(const gsl_matrix *K, const gsl_matrix *M, double *lam_re,
                          double *lam_im, gsl_matrix *evec, fl_error *err)
{
    size_t n = K->size1;
    if (n == 0 || K->size2 != n || (M && (M->size1 != n || M->size2 != n)) ||
        (evec && (evec->size1 != n || evec->size2 != n)))
        return FL_FAIL(err, FL_EDIM, "generalized eigenproblem: bad dimensions");
    FL_TRY(fl_check_finite_matrix(K, "K*", err));
    if (M) FL_TRY(fl_check_finite_matrix(M, "M*", err));
    gsl_matrix *A = fl_dense_matrix_alloc(n, n), *B = fl_dense_matrix_alloc(n, n);
    gsl_vector *beta = fl_dense_vector_alloc(n);
    gsl_error_handler_t *old = fl_gsl_handler_off();      /* NULL, never an abort */
    gsl_vector_complex *alpha = gsl_vector_complex_alloc(n);
    gsl_matrix_complex *V = n <= SIZE_MAX / 16 / (n ? n : 1) ? gsl_matrix_complex_alloc(n, n) : NULL;
    gsl_eigen_genv_workspace *w = gsl_eigen_genv_alloc(n);
    fl_gsl_handler_restore(old);
    size_t *perm = malloc(n * sizeof *perm);
    fl_status st = FL_OK;
    if (!A || !B || !alpha || !beta || !V || !w || !perm) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory");
        goto done;
    }
    gsl_matrix_memcpy(A, K);
    if (M) gsl_matrix_memcpy(B, M); else gsl_matrix_set_identity(B);
    old = fl_gsl_handler_off();
    int rc = gsl_eigen_genv(A, B, alpha, beta, V, w);
    fl_gsl_handler_restore(old);
    if (rc != GSL_SUCCESS) {
        st = FL_FAIL(err, FL_ENOCONV, "QZ iteration failed (gsl_eigen_genv)");
        goto done;
    }
    double bscale = 0.0;
    for (size_t k = 0; k < n; k++) bscale = fmax(bscale, fabs(gsl_vector_get(beta, k)));
    for (size_t k = 0; k < n; k++) {
        double b = gsl_vector_get(beta, k);
        if (fabs(b) <= 1e-14 * bscale || bscale == 0.0) {
            st = FL_FAIL(err, FL_ESINGULAR, "M* is singular: infinite generalized eigenvalue");
            goto done;
        }
        gsl_complex a = gsl_vector_complex_get(alpha, k);
        lam_re[k] = GSL_REAL(a) / b;
        lam_im[k] = GSL_IMAG(a) / b;
    }
    st = fl_stability_sort_eig(n, lam_re, lam_im, FL_STAB_BY_MODULUS, perm, err);
    if (st == FL_OK && evec)
        for (size_t k = 0; k < n; k++)
            for (size_t i = 0; i < n; i++)
                gsl_matrix_set(evec, i, k, GSL_REAL(gsl_matrix_complex_get(V, i, perm[k])));
done:
    if (A) gsl_matrix_free(A);
    if (B) gsl_matrix_free(B);
    if (alpha) gsl_vector_complex_free(alpha);
    if (beta) gsl_vector_free(beta);
    if (V) gsl_matrix_complex_free(V);
    if (w) gsl_eigen_genv_free(w);
    free(perm);
    return st;
}

/* 004 §5.7: (lambda^2 M + lambda C + K) V = 0 with C = alpha M + beta K,
 * as the pencil [0 I; -K -C] x = lambda [I 0; 0 M] x (004 §5.4, §5.7). */
fl_status fl_stability_rayleigh(const gsl_matrix *K, const gsl_matrix *M, double alpha,
                           double beta, double *lre, double *lim, fl_error *err)
{
    size_t n = K->size1;
    if (n == 0 || K->size2 != n || M->size1 != n || M->size2 != n)
        return FL_FAIL(err, FL_EDIM, "Rayleigh eigenproblem: bad dimensions");
    if (!isfinite(alpha) || !isfinite(beta))
        return FL_FAIL(err, FL_ENONFINITE, "Rayleigh coefficients must be finite");
    FL_TRY(fl_check_finite_matrix(K, "K*", err));
    FL_TRY(fl_check_finite_matrix(M, "M*", err));
    size_t N = 2 * n;
    gsl_matrix *A = fl_dense_matrix_calloc(N, N), *B = fl_dense_matrix_calloc(N, N);
    gsl_vector *be = fl_dense_vector_alloc(N);
    gsl_error_handler_t *old = fl_gsl_handler_off();      /* NULL, never an abort */
    gsl_vector_complex *al = gsl_vector_complex_alloc(N);
    gsl_eigen_gen_workspace *w = gsl_eigen_gen_alloc(N);
    fl_gsl_handler_restore(old);
    fl_status st = FL_OK;
    if (!A || !B || !al || !be || !w) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        gsl_matrix_set(A, i, n + i, 1.0);
        gsl_matrix_set(B, i, i, 1.0);
        for (size_t j = 0; j < n; j++) {
            double k = gsl_matrix_get(K, i, j), m = gsl_matrix_get(M, i, j);
            gsl_matrix_set(A, n + i, j, -k);
            gsl_matrix_set(A, n + i, n + j, -(alpha * m + beta * k));
            gsl_matrix_set(B, n + i, n + j, m);
        }
    }
    old = fl_gsl_handler_off();
    int rc = gsl_eigen_gen(A, B, al, be, w);
    fl_gsl_handler_restore(old);
    if (rc != GSL_SUCCESS) {
        st = FL_FAIL(err, FL_ENOCONV, "QZ iteration failed (gsl_eigen_gen)");
        goto done;
    }
    double bscale = 0.0;
    for (size_t k = 0; k < N; k++) bscale = fmax(bscale, fabs(gsl_vector_get(be, k)));
    for (size_t k = 0; k < N; k++) {
        double b = gsl_vector_get(be, k);
        if (bscale == 0.0 || fabs(b) <= 1e-14 * bscale) {
            st = FL_FAIL(err, FL_ESINGULAR, "M* is singular: infinite root");
            goto done;
        }
        gsl_complex a = gsl_vector_complex_get(al, k);
        lre[k] = GSL_REAL(a) / b;
        lim[k] = GSL_IMAG(a) / b;
    }
    st = fl_stability_sort_eig(N, lre, lim, FL_STAB_BY_FREQUENCY, NULL, err);
done:
    if (A) gsl_matrix_free(A);
    if (B) gsl_matrix_free(B);
    if (al) gsl_vector_complex_free(al);
    if (be) gsl_vector_free(be);
    if (w) gsl_eigen_gen_free(w);
    return st;
}

/* 004 §5.4 (ii) sufficient condition for divergence, (iii) flutter. */
void fl_stability_classify(const fl_stability_options *o, const int *csign, const gsl_matrix *E,
                      fl_stability_result *res)
{
    res->lambda_real_min = INFINITY;
    res->min_re_lambda = INFINITY;
    res->divergence = res->flutter = 0;
    res->flutter_mode = 0;
    for (size_t k = 0; k < res->nlam; k++) {
        double re = res->lam_re[k], im = res->lam_im[k];
        res->min_re_lambda = fmin(res->min_re_lambda, re);
        if (fabs(im) <= o->real_tol * hypot(re, im)) {
            res->lambda_real_min = fmin(res->lambda_real_min, re);
            gsl_vector_const_view c = gsl_matrix_const_column(E, k);
            if (re <= 0.0 && fl_stability_admissible(&c.vector, csign, o->sign_tol))
                res->divergence = 1;
        } else if (!res->flutter) {
            res->flutter = 1;
            res->flutter_mode = k + 1;
        }
    }
}

/* 004 §5.7 with (iii): the lowest growing oscillatory root. */
size_t fl_stability_damped_flutter_mode(size_t N, const double *lre, const double *lim,
                                   double tol, double *growth)
{
    size_t best = 0;
    double g = 0.0;
    for (size_t k = 0; k < N; k++) {
        double mod = hypot(lre[k], lim[k]);
        if (!(lim[k] > tol * mod) || !(lre[k] > tol * mod)) continue;
        size_t rank = 1, near = N;
        double gap = INFINITY;
        for (size_t j = 0; j < N; j++) {
            if (j == k || !(lim[j] > tol * hypot(lre[j], lim[j]))) continue;
            if (lim[j] < lim[k]) rank++;
            if (fabs(lim[j] - lim[k]) < gap) { gap = fabs(lim[j] - lim[k]); near = j; }
        }
        /* the partner of a flutter pair is the nearest frequency: when it lies
         * below, the pair's lower mode number is the pair's number */
        if (near < N && lim[near] < lim[k]) rank--;
        if (best == 0 || rank < best) { best = rank; g = lre[k]; }
    }
    if (growth) *growth = g;
    return best;
}

fl_stability_options fl_stability_options_default(void)
{
    fl_stability_options o = {.real_tol = 1e-9, .sign_tol = 1e-10, .max_enum = 12, .sparse = {.nev = 20, .max_iter = 5000}};
    return o;
}

void fl_stability_result_free(fl_stability_result *res)
{
    if (!res) return;
    if (res->ks_vec) gsl_vector_free(res->ks_vec);
    free(res->lam_re);
    free(res->lam_im);
    res->ks_vec = NULL;
    res->lam_re = res->lam_im = NULL;
}

/* 004 §5.4: (i) by methods 1-3, (ii) divergence, (iii) flutter. */
static fl_status analyse_dense(const fl_stability_tangent *t, const fl_stability_options *opt,
                               fl_stability_result *res, fl_error *err)
{
    fl_stability_options o = opt ? *opt : fl_stability_options_default();
    memset(res, 0, sizeof *res);
    if (!t || t->nstar == 0)
        return res->status = FL_FAIL(err, FL_EINVAL, "analyse: empty tangent system");
    double t0 = fl_clock_now();
    size_t n = t->nstar;
    res->nstar = n;
    res->ks_vec = fl_dense_vector_alloc(n);
    res->nlam = n;
    res->lam_re = malloc(n * sizeof(double));
    res->lam_im = malloc(n * sizeof(double));
    gsl_matrix *E = fl_dense_matrix_alloc(n, n);
    gsl_vector *tmp = fl_dense_vector_alloc(n);
    fl_status st = FL_OK;
    if (!res->ks_vec || !res->lam_re || !res->lam_im || !E || !tmp) {
        st = FL_FAIL(err, FL_ENOMEM, "out of memory");
        goto done;
    }
    /* (i) method 3: smallest eigenvalue of K*_S and the sign check (118) */
    st = fl_stability_sym_min(t->KS, &res->ks_min, res->ks_vec, err);
    if (st != FL_OK) goto done;
    gsl_blas_dgemv(CblasNoTrans, 1.0, t->KS, res->ks_vec, 0.0, tmp);
    gsl_blas_daxpy(-res->ks_min, res->ks_vec, tmp);
    res->residual = gsl_blas_dnrm2(tmp);
    res->ks_vec_admissible = fl_stability_admissible(res->ks_vec, t->csign, o.sign_tol);
    if (res->ks_vec_admissible) {
        double worst = 0.0;
        for (size_t k = 0; k < n; k++)
            worst = fmax(worst, (double)t->csign[k] * gsl_vector_get(res->ks_vec, k));
        if (worst > 0.0) gsl_vector_scale(res->ks_vec, -1.0);
    }
    /* (i) method 2: Cholesky */
    res->ks_cholesky_pd = fl_stability_cholesky_pd(t->KS);
    /* (i) method 1: constrained minimisation (skipped beyond max_enum) */
    size_t tried = 0;
    fl_error e1;
    if (fl_stability_cone_min(t->KS, t->csign, o.max_enum, &res->ks_cone_min, NULL, &tried, &e1) != FL_OK)
        res->ks_cone_min = NAN;
    res->iterations = (int)tried;
    /* (89) */
    st = fl_stability_sym_min(t->MS, &res->ms_min, NULL, err);
    if (st != FL_OK) goto done;
    /* (ii), (iii): Lambda of M*^-1 K* */
    st = fl_stability_gen_eig(t->Kstar, t->Mstar, res->lam_re, res->lam_im, E, err);
    if (st != FL_OK) goto done;
    fl_stability_classify(&o, t->csign, E, res);
done:
    if (E) gsl_matrix_free(E);
    if (tmp) gsl_vector_free(tmp);
    res->seconds = fl_clock_now() - t0;
    res->status = st;
    return st;
}

/* 004 §5.4: the contract of both twins; the reference reads t->dense. */
fl_status fl_stability_analyse(const fl_stability_tangents *t, const fl_stability_options *opt,
                               fl_stability_result *res, fl_error *err)
{
    return analyse_dense(t ? t->dense : NULL, opt, res, err);
}
