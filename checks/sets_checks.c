/* sets_checks.c — `frictionlab crosscheck --law sets`: the friction sets
 * of core/fl_friction_set.c on random sets of every kind (disc, interval
 * with infinite ends, polygons with 0..2 recession rays; testkit/fl_set_random.h)
 * against certificates and identities computed here independently:
 * projection optimality conditions (Euclidean and G metric), brute force on
 * the circle, support-function identities, Fenchel duality (001 §2.1), the
 * three statements of Coulomb's law (001 §2.1 (i)-(iii), §3.2) and Moreau's
 * cone decomposition.  One PASS/FAIL line per property with the worst
 * measured value and its tolerance; derivations in proofs/friction_sets.md.
 */
#include <math.h>
#include <stdio.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "checks/fl_check.h"
#include "checks/sets_checks.h"
#include "fl_friction_set.h"
#include "fl_rng.h"
#include "testkit/fl_set_random.h"
#include "checks/fl_tasks.h"
#include "fl_scalar.h"


static double nrm(int dim, const double *x)
{
    return dim == 1 ? fabs(x[0]) : hypot(x[0], x[1]);
}

static double dotd(int dim, const double *a, const double *b)
{
    return dim == 1 ? a[0] * b[0] : a[0] * b[0] + a[1] * b[1];
}

static void gmul(int dim, const double *G, const double *a, double *b)
{
    if (dim == 1) {
        b[0] = G[0] * a[0];
        return;
    }
    b[0] = G[0] * a[0] + G[1] * a[1];
    b[1] = G[2] * a[0] + G[3] * a[1];
}

static double gnorm(int dim, const double *G, const double *a)
{
    double b[2];
    gmul(dim, G, a, b);
    return sqrt(fmax(dotd(dim, a, b), 0.0));
}


/* checks/sets_checks.h */
double fl_sets_check_certificate(const fl_friction_set *C, const double *G, const double *x, const double *p)
{
    static const double I[4] = {1, 0, 0, 1};
    int dim = C->dim;
    double w[2] = {0, 0}, gw[2] = {0, 0}, worst = 0.0;
    if (!G) G = I;
    for (int i = 0; i < dim; i++) w[i] = x[i] - p[i];
    gmul(dim, G, w, gw);
    double gs = dim == 1 ? G[0] : fabs(G[0]) + fabs(G[3]);
    double sc = (nrm(dim, w) + 1e-300) * (fl_set_random_scale(C) + nrm(dim, x)) * gs;
    if (C->kind == FL_SET_DISC) {
        worst = fmax(worst, (C->mu * nrm(dim, gw) - dotd(dim, gw, p)) / sc);
        worst = fmax(worst, (nrm(dim, p) - C->mu) / fl_set_random_scale(C));
    } else if (C->kind == FL_SET_INTERVAL) {
        if (!isinf(C->lo)) worst = fmax(worst, gw[0] * (C->lo - p[0]) / sc);
        if (!isinf(C->hi)) worst = fmax(worst, gw[0] * (C->hi - p[0]) / sc);
        if (isinf(C->lo) && gw[0] < 0) worst = fmax(worst, -gw[0] * fl_set_random_scale(C) / sc);
        if (isinf(C->hi) && gw[0] > 0) worst = fmax(worst, gw[0] * fl_set_random_scale(C) / sc);
        worst = fmax(worst, (C->lo - p[0]) / fl_set_random_scale(C));
        worst = fmax(worst, (p[0] - C->hi) / fl_set_random_scale(C));
    } else {
        for (size_t k = 0; k < C->nvert; k++) {
            double d[2] = {C->vert[2 * k] - p[0], C->vert[2 * k + 1] - p[1]};
            worst = fmax(worst, dotd(2, gw, d) / sc);
        }
        for (size_t k = 0; k < C->nray; k++)
            worst = fmax(worst, dotd(2, gw, C->ray + 2 * k) / sc);
    }
    return worst;
}

/* Running maximum of a check over the random systems. */
typedef struct {
    const char *name;
    double worst;
    long bad;   /* calls that failed outright (status, membership) */
} stat;

/* One check: the worst scaled residual over the systems, expected 0 (a
 * residual), with its tolerance and the proofs/ or paper reference. */
static void report(fl_check_ctx *ctx, const stat *s, double tol, const char *what, const char *ref)
{
    fl_check_value(ctx, s->bad == 0 && s->worst <= tol, s->name, s->worst, 0.0, tol, ref,
                   "worst %.3g over %ld systems%s (%s, tol %.0e)", s->worst, ctx->systems,
                   s->bad ? " with failed calls" : "", what, tol);
}

/* One random set; on failure counts a bad call. */
static int draw(gsl_rng *r, fl_friction_set *C, stat *s)
{
    if (fl_set_random(r, C, NULL) != FL_OK) {
        s->bad++;
        return 0;
    }
    return 1;
}

static void check_projections(fl_check_ctx *ctx, gsl_rng *r, int metric)
{
    stat cert = {metric ? "sets.proj_metric_certificate" : "sets.proj_certificate", 0, 0};
    stat idem = {metric ? "sets.proj_metric_idempotent" : "sets.proj_idempotent", 0, 0};
    stat lip = {metric ? "sets.proj_metric_nonexpansive" : "sets.proj_nonexpansive", 0, 0};
    for (long it = 0; it < ctx->systems; it++) {
        fl_check_progress(ctx, metric ? "sets: G-projections" : "sets: projections", it + 1,
                        ctx->systems);
        fl_friction_set C;
        if (!draw(r, &C, &cert)) continue;
        int dim = C.dim;
        double G[4] = {1, 0, 0, 1}, x[2], y[2], px[2], py[2], pp[2];
        if (metric) fl_set_random_metric(r, dim, 1e3, G);
        if (!metric && dim == 1) G[0] = 1;
        fl_set_random_near(r, &C, x);
        fl_set_random_near(r, &C, y);
        fl_status s1, s2, s3;
        if (metric) {
            s1 = fl_friction_set_project_metric(&C, G, x, px, NULL);
            s2 = fl_friction_set_project_metric(&C, G, y, py, NULL);
            s3 = fl_friction_set_project_metric(&C, G, px, pp, NULL);
        } else {
            s1 = fl_friction_set_project(&C, x, px, NULL);
            s2 = fl_friction_set_project(&C, y, py, NULL);
            s3 = fl_friction_set_project(&C, px, pp, NULL);
        }
        if (s1 != FL_OK || s2 != FL_OK || s3 != FL_OK) {
            cert.bad++;
            fl_friction_set_release(&C);
            continue;
        }
        cert.worst = fmax(cert.worst, fl_sets_check_certificate(&C, metric ? G : NULL, x, px));
        double d[2] = {pp[0] - px[0], dim == 2 ? pp[1] - px[1] : 0};
        idem.worst = fmax(idem.worst, nrm(dim, d) / (fl_set_random_scale(&C) + nrm(dim, x)));
        double dp[2] = {px[0] - py[0], dim == 2 ? px[1] - py[1] : 0};
        double dx[2] = {x[0] - y[0], dim == 2 ? x[1] - y[1] : 0};
        double ng = gnorm(dim, G, dx);
        lip.worst = fmax(lip.worst, (gnorm(dim, G, dp) - ng) /
                                        (ng + fl_set_random_scale(&C) + nrm(dim, x) + nrm(dim, y)));
        fl_friction_set_release(&C);
    }
    const char *src = metric ? "argmin (c-x)'G(c-x), G SPD cond <= 1e3" : "Euclidean";
    report(ctx, &cert, 1e-10, src, "proofs/friction_sets.md §2 (projection certificate)");
    report(ctx, &idem, 1e-12, "P(P x) = P x", "proofs/friction_sets.md §2");
    report(ctx, &lip, 1e-12, metric ? "|Px - Py|_G <= |x - y|_G" : "|Px - Py| <= |x - y|",
           "proofs/friction_sets.md §2");
}

/* Brute force on the circle for the disc's G-projection: 4000 samples then
 * golden-section refinement. */
void fl_sets_check_brute_disc(double mu, const double *G, const double *x, double *best)
{
    double bd = INFINITY, bt = 0, h = 2 * FL_PI / 4000.0;
    for (int k = 0; k < 4000; k++) {
        double t = h * k, c[2] = {mu * cos(t) - x[0], mu * sin(t) - x[1]};
        double g = gnorm(2, G, c);
        if (g < bd) {
            bd = g;
            bt = t;
        }
    }
    double a = bt - h, b = bt + h, phi = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 80; it++) {
        double t1 = b - phi * (b - a), t2 = a + phi * (b - a);
        double c1[2] = {mu * cos(t1) - x[0], mu * sin(t1) - x[1]};
        double c2[2] = {mu * cos(t2) - x[0], mu * sin(t2) - x[1]};
        if (gnorm(2, G, c1) < gnorm(2, G, c2)) b = t2;
        else a = t1;
    }
    best[0] = mu * cos((a + b) / 2);
    best[1] = mu * sin((a + b) / 2);
}

static void check_disc_metric(fl_check_ctx *ctx, gsl_rng *r)
{
    stat s = {"sets.disc_metric_vs_brute_force", 0, 0};
    long n = ctx->systems < 200 ? ctx->systems : 200;
    for (long it = 0; it < n; it++) {
        fl_check_progress(ctx, "sets: disc G-projection vs brute force", it + 1, n);
        fl_friction_set C;
        if (fl_set_random_variant(r, FL_SETRAND_DISC2, &C, NULL) != FL_OK) {
            s.bad++;
            continue;
        }
        double G[4], x[2], p[2], b[2];
        fl_set_random_metric(r, 2, 1e3, G);
        do fl_set_random_near(r, &C, x); while (hypot(x[0], x[1]) <= C.mu);
        if (fl_friction_set_project_metric(&C, G, x, p, NULL) != FL_OK) {
            s.bad++;
            continue;
        }
        fl_sets_check_brute_disc(C.mu, G, x, b);
        s.worst = fmax(s.worst, hypot(p[0] - b[0], p[1] - b[1]) / C.mu);
    }
    fl_check_value(ctx, s.bad == 0 && s.worst <= 1e-6, s.name, s.worst, 0.0, 1e-6,
                   "proofs/friction_sets.md §3 (disc in the metric G) vs brute force",
                   "worst |p - p_brute|/mu = %.3g over %ld discs (Newton on 1/|c(lambda)| vs "
                   "4000 samples + golden section, cond(G) <= 1e3, tol 1e-6)", s.worst, n);
}

static void check_support(fl_check_ctx *ctx, gsl_rng *r)
{
    stat hom = {"sets.support_homogeneous", 0, 0}, sub = {"sets.support_subadditive", 0, 0};
    stat att = {"sets.support_attained", 0, 0}, rec = {"sets.support_recession", 0, 0};
    long ninf = 0;
    for (long it = 0; it < ctx->systems; it++) {
        fl_check_progress(ctx, "sets: support functions", it + 1, ctx->systems);
        fl_friction_set C;
        if (!draw(r, &C, &hom)) continue;
        int dim = C.dim;
        double y[2] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)};
        double z[2] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)};
        double t = fl_rng_loguniform(r, 1e-3, 1e3);
        double ty[2] = {t * y[0], t * y[1]}, yz[2] = {y[0] + z[0], y[1] + z[1]};
        double sy = 0, sz = 0, sty = 0, syz = 0;
        int fy = fl_friction_set_support(&C, y, &sy), fz = fl_friction_set_support(&C, z, &sz);
        int fty = fl_friction_set_support(&C, ty, &sty), fyz = fl_friction_set_support(&C, yz, &syz);
        double sc = fl_set_random_scale(&C) * (nrm(dim, y) + nrm(dim, z));
        if (fy != fty) hom.bad++;
        else if (fy) hom.worst = fmax(hom.worst, fabs(sty - t * sy) / (t * sc));
        if (fy && fz) {
            if (!fyz) sub.bad++;
            else sub.worst = fmax(sub.worst, (syz - sy - sz) / sc);
        }
        if (fy) {
            double c[2], q[2];
            if (fl_friction_set_support_point(&C, y, c, NULL) != FL_OK ||
                !fl_friction_set_contains(&C, c, 1e-12 * fl_set_random_scale(&C))) {
                att.bad++;
            } else {
                att.worst = fmax(att.worst, fabs(dotd(dim, c, y) - sy) / sc);
                for (int j = 0; j < 5; j++) {
                    fl_set_random_point(r, &C, q);
                    att.worst = fmax(att.worst, (dotd(dim, q, y) - sy) /
                                                    (sc + nrm(dim, q) * nrm(dim, y)));
                }
            }
        } else {
            /* +inf: a recession direction d with d.y > 0 must exist, and
             * c + 1e6 d stays in C (independent of the support code) */
            ninf++;
            double c0[2] = {0, 0}, d[2] = {0, 0};
            fl_set_random_point(r, &C, c0);
            if (C.kind == FL_SET_POLYGON) {
                for (size_t k = 0; k < C.nray; k++)
                    if (dotd(2, C.ray + 2 * k, y) > 0) {
                        d[0] = C.ray[2 * k];
                        d[1] = C.ray[2 * k + 1];
                    }
            } else if (C.kind == FL_SET_INTERVAL) {
                d[0] = (y[0] > 0 && isinf(C.hi)) ? 1.0 : (y[0] < 0 && isinf(C.lo)) ? -1.0 : 0.0;
            }
            double far[2] = {c0[0] + 1e6 * d[0], c0[1] + 1e6 * d[1]};
            if (!(dotd(dim, d, y) > 0) ||
                !fl_friction_set_contains(&C, far, 1e-6 * (fl_set_random_scale(&C) + nrm(dim, far))))
                rec.bad++;
        }
        fl_friction_set_release(&C);
    }
    report(ctx, &hom, 1e-13, "S(t y) = t S(y), 001 §2.1", "001 §2.1; proofs/friction_sets.md §1");
    report(ctx, &sub, 1e-13, "S(y + z) <= S(y) + S(z)", "001 §2.1; proofs/friction_sets.md §1");
    report(ctx, &att, 1e-13, "S(y) = c.y at the support point c in C, >= q.y for q in C",
           "001 §2.1; proofs/friction_sets.md §1");
    fl_check_value(ctx, rec.bad == 0 && ninf > 0, rec.name, (double)rec.bad, 0.0, 0.0,
                   "001 §6.2 D(S); proofs/friction_sets.md §1 (recession test)",
                   "%ld of %ld directions with S = +inf, %ld without a recession direction "
                   "d.y > 0 (001 §6.2 D(S), [DERIVED] recession test; value: failures)", ninf, ctx->systems,
                   rec.bad);
}

/* y in dS_C(x) <=> x in N_C(y) (001 §2.1, Fenchel). */
static void check_fenchel(fl_check_ctx *ctx, gsl_rng *r)
{
    stat s = {"sets.fenchel_subdifferential", 0, 0};
    long nlean = 0;
    for (long it = 0; it < ctx->systems; it++) {
        fl_check_progress(ctx, "sets: Fenchel duality", it + 1, ctx->systems);
        fl_friction_set C;
        if (!draw(r, &C, &s)) continue;
        int dim = C.dim;
        double z[2], y[2], x[2], val;
        fl_set_random_near(r, &C, z);
        fl_friction_set_project(&C, z, y, NULL);
        for (int i = 0; i < dim; i++) x[i] = z[i] - y[i];   /* x in N_C(y) */
        if (fl_friction_set_support(&C, x, &val))                    /* => y in dS_C(x) */
            s.worst = fmax(s.worst, fabs(val - dotd(dim, x, y)) /
                                        ((fl_set_random_scale(&C) + nrm(dim, z)) * (1 + nrm(dim, x))));
        else
            nlean++;   /* rounding leaned x into a ray (|x| tiny against |y|) */
        double w[2] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)}, c[2], q[2];
        if (fl_friction_set_support(&C, w, &val)) {   /* c in dS_C(w) => w in N_C(c) */
            if (fl_friction_set_support_point(&C, w, c, NULL) != FL_OK) {
                s.bad++;
            } else {
                double cw[2] = {c[0] + w[0], dim == 2 ? c[1] + w[1] : 0};
                fl_friction_set_project(&C, cw, q, NULL);
                double d[2] = {q[0] - c[0], dim == 2 ? q[1] - c[1] : 0};
                s.worst = fmax(s.worst, nrm(dim, d) / ((fl_set_random_scale(&C) + nrm(dim, c)) *
                                                       (1 + nrm(dim, w))));
            }
        }
        fl_friction_set_release(&C);
    }
    fl_check_value(ctx, s.bad == 0 && s.worst <= 1e-12 && nlean * 20 <= ctx->systems, s.name, s.worst, 0.0, 1e-12,
                   "001 §2.1 Fenchel; proofs/friction_sets.md §1, §4",
                   "worst %.3g over %ld systems, %ld normals lost to rounding (<= 5%%) (S(x) = x.y for "
                   "x in N_C(y); P_C(c + w) = c for c in dS_C(w); 001 §2.1; tol 1e-12)",
                   s.worst, ctx->systems, nlean);
}

static void check_coulomb(fl_check_ctx *ctx, gsl_rng *r)
{
    const double tol = 1e-10;
    long held[3] = {0, 0, 0}, failed[3] = {0, 0, 0}, nslide = 0, nstick = 0, nzero = 0;
    long modes[5] = {0};
    double vi_worst = 0.0;
    for (long it = 0; it < ctx->systems; it++) {
        fl_check_progress(ctx, "sets: Coulomb statements", it + 1, ctx->systems);
        fl_friction_set C;
        if (fl_set_random(r, &C, NULL) != FL_OK) continue;
        int dim = C.dim;
        double rn, rt[2], v[2], n[2];
        fl_set_random_coulomb(r, &C, &rn, rt, v, n);
        if (rn == 0) nzero++;
        else if (nrm(dim, v) > 0) nslide++;
        else nstick++;
        held[0] += fl_friction_set_normality(&C, rn, rt, v, tol);
        held[1] += fl_friction_set_max_dissipation(&C, rn, rt, v, tol);
        held[2] += fl_friction_set_variational(&C, rn, rt, v, tol);
        /* (iii) sampled over trial velocities: never negative on law pairs */
        double mv[2] = {-v[0], dim == 2 ? -v[1] : 0}, sv = 0, F = nrm(dim, rt) + rn * fl_set_random_scale(&C);
        if (rn > 0 && fl_friction_set_support(&C, mv, &sv)) {
            for (int j = 0; j < 20; j++) {
                double w[2] = {gsl_ran_gaussian(r, 3), gsl_ran_gaussian(r, 3)};
                double mw[2] = {-w[0], -w[1]}, sw;
                if (!fl_friction_set_support(&C, mw, &sw)) continue;
                double dw[2] = {w[0] - v[0], w[1] - v[1]};
                double val = dotd(dim, rt, dw) + rn * (sw - sv);
                vi_worst = fmax(vi_worst, -val / (F * (1 + nrm(dim, w) + nrm(dim, v))));
            }
        }
        int mode = fl_set_random_violation(r, &C, &rn, rt, v);
        modes[mode]++;
        failed[0] += !fl_friction_set_normality(&C, rn, rt, v, tol);
        failed[1] += !fl_friction_set_max_dissipation(&C, rn, rt, v, tol);
        failed[2] += !fl_friction_set_variational(&C, rn, rt, v, tol);
        fl_friction_set_release(&C);
    }
    long N = ctx->systems;
    /* values: the number of law pairs (resp. perturbed pairs) on which a statement disagrees */
    fl_check_value(ctx, held[0] == N && held[1] == N && held[2] == N, "sets.coulomb_agree",
                   (double)(3 * N - held[0] - held[1] - held[2]), 0.0, 0.0,
                   "001 §2.1 (2.1), §3.2; proofs/friction_sets.md §4",
                   "(i) %ld, (ii) %ld, (iii) %ld of %ld law pairs hold (%ld sliding, %ld sticking, "
                   "%ld with rn = 0; 001 §2.1 (2.1), §3.2; tol %.0e)", held[0], held[1], held[2],
                   N, nslide, nstick, nzero, tol);
    fl_check_value(ctx, failed[0] == N && failed[1] == N && failed[2] == N, "sets.coulomb_violations",
                   (double)(3 * N - failed[0] - failed[1] - failed[2]), 0.0, 0.0,
                   "001 §2.1, §3.2; proofs/friction_sets.md §4, §6",
                   "(i) %ld, (ii) %ld, (iii) %ld of %ld perturbed pairs fail (r out of rn C: %ld, "
                   "dissipation deficit: %ld, rn = 0 with r != 0: %ld, S(-v) = +inf: %ld; "
                   "001 §2.1, §3.2)", failed[0], failed[1], failed[2], N, modes[1], modes[2],
                   modes[3], modes[4]);
    fl_check_value(ctx, vi_worst <= 1e-10, "sets.coulomb_vi_sampled", vi_worst, 0.0, 1e-10,
                   "001 §3.2 (iii); proofs/friction_sets.md §4",
                   "worst negative value %.3g of (iii) over 20 trial velocities per law pair "
                   "(001 §3.2 (iii), independent of its closed-form infimum; tol 1e-10)",
                   vi_worst);
}

static void check_cones(fl_check_ctx *ctx, gsl_rng *r)
{
    stat mo = {"sets.cone_moreau", 0, 0}, tw = {"sets.cone_disc1_vs_interval", 0, 0};
    for (long it = 0; it < ctx->systems; it++) {
        fl_check_progress(ctx, "sets: cone projections", it + 1, ctx->systems);
        fl_friction_set C;
        if (fl_set_random_variant(r, (int)(it % FL_SETRAND_NVARIANTS), &C, NULL) != FL_OK) {
            mo.bad++;
            continue;
        }
        int n = C.dim + 1;
        double x[3], p[3], q[3], pp[3], qq[3];
        for (int i = 0; i < n; i++) x[i] = gsl_ran_gaussian(r, 2.0);
        if (fl_friction_set_cone_project(&C, x, p, NULL) != FL_OK ||
            fl_friction_set_cone_project_polar(&C, x, q, NULL) != FL_OK ||
            fl_friction_set_cone_project(&C, p, pp, NULL) != FL_OK ||
            fl_friction_set_cone_project_polar(&C, q, qq, NULL) != FL_OK) {
            mo.bad++;
            continue;
        }
        double nx = 0, pq = 0, sum = 0, idem = 0, sc = fl_set_random_scale(&C);
        for (int i = 0; i < n; i++) {
            nx += x[i] * x[i];
            pq += p[i] * q[i];
            sum = fmax(sum, fabs(p[i] + q[i] - x[i]));
            idem = fmax(idem, fabs(pp[i] - p[i]) + fabs(qq[i] - q[i]));
        }
        nx = sqrt(nx);
        mo.worst = fmax(mo.worst, sum / (nx * sc));
        mo.worst = fmax(mo.worst, fabs(pq) / (nx * nx * sc * sc));
        mo.worst = fmax(mo.worst, idem / (nx * sc));
        if (p[0] < -1e-14 * nx) mo.bad++;   /* p in K: p_n >= 0, p_t in p_n C */
        if (p[0] > 0) {
            double t[2] = {p[1] / p[0], n == 3 ? p[2] / p[0] : 0}, pt[2];
            if (fl_friction_set_project(&C, t, pt, NULL) != FL_OK) {
                mo.bad++;
            } else {
                double d[2] = {t[0] - pt[0], n == 3 ? t[1] - pt[1] : 0};
                mo.worst = fmax(mo.worst, p[0] * nrm(C.dim, d) / (nx * sc));
            }
        }
        /* q in K° = {y : y_n + S_C(y_t) <= 0}, through the support function */
        double qt[2] = {q[1], n == 3 ? q[2] : 0}, sq;
        if (fl_friction_set_support(&C, qt, &sq)) {
            mo.worst = fmax(mo.worst, (q[0] + sq) / (nx * sc));
        } else {   /* S = +inf only by rounding: measure how far q_t leans into a ray */
            double lean = C.kind == FL_SET_POLYGON ? 0.0 : fabs(qt[0]);
            for (size_t k = 0; C.kind == FL_SET_POLYGON && k < C.nray; k++)
                lean = fmax(lean, dotd(2, C.ray + 2 * k, qt) / nrm(2, C.ray + 2 * k));
            mo.worst = fmax(mo.worst, lean / nx);
        }
        if (C.kind == FL_SET_DISC && C.dim == 1) {   /* two code paths, one cone */
            fl_friction_set L;
            double pl[2];
            if (fl_friction_set_interval(&L, -C.mu, C.mu, NULL) != FL_OK ||
                fl_friction_set_cone_project(&L, x, pl, NULL) != FL_OK) {
                tw.bad++;
            } else {
                tw.worst = fmax(tw.worst, (fabs(pl[0] - p[0]) + fabs(pl[1] - p[1])) / (nx * sc));
            }
        }
        fl_friction_set_release(&C);
    }
    report(ctx, &mo, 1e-13, "x = P_K x + P_K° x, P_K x . P_K° x = 0, P_K x in K, "
                            "P_K° x in K° by S_C; every kind incl. polygons; Moreau",
           "001 (2.1); proofs/friction_sets.md §5 (Moreau's decomposition)");
    report(ctx, &tw, 1e-13, "second-order cone of [-mu,mu] vs the interval wedge", "proofs/friction_sets.md §5");
}

static void check_generator(fl_check_ctx *ctx, gsl_rng *r)
{
    long seen[FL_SETRAND_NVARIANTS] = {0}, bad = 0;
    for (long it = 0; it < ctx->systems; it++) {
        int var = (int)(it % FL_SETRAND_NVARIANTS);
        fl_friction_set C, D;
        if (fl_set_random_variant(r, var, &C, NULL) != FL_OK) {
            bad++;
            continue;
        }
        double z[2] = {0, 0};
        if (!fl_friction_set_contains(&C, z, 1e-12 * fl_set_random_scale(&C))) bad++;
        if (fl_friction_set_copy(&D, &C, NULL) != FL_OK) bad++;   /* re-validates */
        else fl_friction_set_release(&D);
        seen[var]++;
        fl_friction_set_release(&C);
    }
    long kinds = 0;
    for (int k = 0; k < FL_SETRAND_NVARIANTS; k++) kinds += seen[k] > 0;
    long want = ctx->systems < FL_SETRAND_NVARIANTS ? ctx->systems : FL_SETRAND_NVARIANTS;
    fl_check_value(ctx, bad == 0 && kinds == want, "sets.generator", (double)bad, 0.0, 0.0,
                   "001 §3.2 (0 in C*); proofs/friction_sets.md §6",
                   "%ld of %d variants drawn (discs, [a,b], ]-inf,b], [a,inf[, R, polygons, "
                   "segments, 1 and 2 rays), %ld sets invalid or without 0 (001 §3.2: 0 in C*)",
                   kinds, FL_SETRAND_NVARIANTS, bad);
}

int fl_sets_crosscheck(fl_check_ctx *ctx)
{
    gsl_rng *r = fl_rng_alloc(ctx->seed);
    if (!r) return -1;
    check_generator(ctx, r);
    check_projections(ctx, r, 0);
    check_projections(ctx, r, 1);
    check_disc_metric(ctx, r);
    check_support(ctx, r);
    check_fenchel(ctx, r);
    check_coulomb(ctx, r);
    check_cones(ctx, r);
    gsl_rng_free(r);
    return 0;
}
