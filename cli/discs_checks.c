/* discs_checks.c — `frictionlab reproduce discs_28` and `reproduce
 * slope_355`: Moreau's granular examples (003 §4, §5; CATALOGUE C.6 (b),
 * (c), D.1, B.18) with the discs of reference/discs.h.
 *
 * discs_28: 28 frictional discs deposited under gravity in a box; one CD
 * step from rest; Gauss–Seidel runs from zero with random orderings and from
 * random initial guesses; every dot is an equilibrium (u_f = 0) satisfying
 * Coulomb's law, inside the cones; the affine dimension of the cloud (SVD)
 * equals the kernel dimension of the equilibrium map restricted to the
 * active contacts (proofs/discs.md §4), and dim A = 2 kappa - 3N.
 * slope_355: 355 discs on ground sloping 24 degrees in a periodic band,
 * restitution 0; acceleration clouds at steps 11 and 121, the indetermination
 * range of a typical grain against time, contacts and sticking fractions.
 * Parameters: data/003/discs_28.json, data/003/discs_355.json
 * (data/003/README-discs.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "cli.h"
#include "fl_dense.h"
#include "fl_json.h"
#include "fl_rng.h"
#include "reference/discs.h"
#include "reference/plurality.h"
#include "registry.h"

#define DISCS_PI 3.14159265358979323846

typedef struct param_ref {
    const char *key;
    double *val;
} param_ref;

/* Read the numbers of "params" in data/003/<file> (FL_SOURCE_ROOT or .);
 * the defaults already in the struct are kept when the file is absent. */
static int load_params(const char *file, const param_ref *refs, size_t n, char *src, size_t len)
{
    const char *roots[2] = {getenv("FL_SOURCE_ROOT"), "."};
    snprintf(src, len, "built-in defaults (data/003/%s not found)", file);
    for (int k = 0; k < 2; k++) {
        if (!roots[k]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/data/003/%s", roots[k], file);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        fclose(f);
        fl_json_doc *doc = NULL;
        fl_error err;
        const json_t *par = NULL;
        int bad = fl_json_load(path, &doc, &err) != FL_OK ||
                  fl_json_object(doc, doc->root, "", "params", &par, &err) != FL_OK;
        for (size_t i = 0; i < n && !bad; i++)
            bad = fl_json_number(doc, par, "params", refs[i].key, refs[i].val, &err) != FL_OK;
        fl_json_free(doc);
        if (bad) {
            fprintf(stderr, "discs: %s\n", err.message);
            return -1;
        }
        snprintf(src, len, "%s", path);
        return 0;
    }
    return 0;
}

/* Numerical rank of A (rows x cols) by SVD: singular values > rtol * max. */
static size_t svd_rank(const gsl_matrix *A, double rtol, double *smax_out)
{
    size_t r = A->size1, c = A->size2;
    int tr = r < c;
    gsl_matrix *U = gsl_matrix_alloc(tr ? c : r, tr ? r : c);
    if (tr) gsl_matrix_transpose_memcpy(U, A);
    else gsl_matrix_memcpy(U, A);
    gsl_matrix *V = gsl_matrix_alloc(U->size2, U->size2);
    gsl_vector *S = gsl_vector_alloc(U->size2), *w = gsl_vector_alloc(U->size2);
    gsl_error_handler_t *old = fl_gsl_handler_off();
    gsl_linalg_SV_decomp(U, V, S, w);
    fl_gsl_handler_restore(old);
    double smax = gsl_vector_max(S);
    size_t rank = 0;
    for (size_t k = 0; k < S->size; k++)
        if (S->data[k] > rtol * smax && smax > 0) rank++;
    if (smax_out) *smax_out = smax;
    gsl_matrix_free(U);
    gsl_matrix_free(V);
    gsl_vector_free(S);
    gsl_vector_free(w);
    return rank;
}

/* ------------------------------------------------------------------ */
/* discs_28 (003 §4)                                                   */
/* ------------------------------------------------------------------ */

typedef struct d28_params {
    double N, R_min, R_max, rho, g, width, mu_grain, mu_wall, seed, h_deposit,
        deposit_steps, v_tol, h, touch_tol, margin, runs, runs_quick, gs_tol, gs_sweeps;
} d28_params;

static fl_discs *d28_build(const d28_params *P, gsl_rng *rng)
{
    fl_discs *d = NULL;
    if (fl_discs_alloc((size_t)P->N, &d, NULL) != FL_OK) return NULL;
    for (size_t i = 0; i < d->N; i++)
        fl_discs_set(d, i, 0, 0, P->R_min + (P->R_max - P->R_min) * gsl_rng_uniform(rng), P->rho);
    d->gx = 0;
    d->gy = -P->g;
    d->ground = 1;
    d->walls = 1;
    d->wall_left = -P->width / 2;
    d->wall_right = P->width / 2;
    d->mu_grain = P->mu_grain;
    d->mu_wall = P->mu_wall;
    d->margin = P->margin;
    d->touch_tol = P->touch_tol;
    return d;
}

/* the force r_N n + r_T t on disc i of contact c */
static void force_xy(const fl_disc_contact *c, const double *r, double *F)
{
    F[0] = r[0] * c->nx - r[1] * c->ny;
    F[1] = r[0] * c->ny + r[1] * c->nx;
}

int fl_discs_reproduce_28(fl_cli_ctx *ctx)
{
    d28_params P = {28, 0.8, 1.2, 1.0, 9.81, 11.0, 0.5, 0.5, 3, 0.01, 4000, 1e-5, 0.01, 1e-4,
                    0.05, 200, 15, 1e-11, 200000};
    param_ref refs[] = {{"N", &P.N}, {"R_min", &P.R_min}, {"R_max", &P.R_max}, {"rho", &P.rho},
                        {"g", &P.g}, {"width", &P.width}, {"mu_grain", &P.mu_grain},
                        {"mu_wall", &P.mu_wall}, {"seed", &P.seed}, {"h_deposit", &P.h_deposit},
                        {"deposit_steps", &P.deposit_steps}, {"v_tol", &P.v_tol}, {"h", &P.h},
                        {"touch_tol", &P.touch_tol}, {"margin", &P.margin}, {"runs", &P.runs},
                        {"runs_quick", &P.runs_quick}, {"gs_tol", &P.gs_tol},
                        {"gs_sweeps", &P.gs_sweeps}};
    char src[4200];
    if (load_params("discs_28.json", refs, sizeof refs / sizeof *refs, src, sizeof src)) {
        fl_cli_check(ctx, 0, "discs28.params", "cannot read data/003/discs_28.json");
        return 0;
    }
    printf("discs_28: parameters from %s\n", src);
    gsl_rng *rng = fl_rng_alloc((unsigned long)P.seed);
    fl_discs *d = d28_build(&P, rng);
    fl_discs_step_options o = fl_discs_step_options_default();
    o.h = P.h_deposit;
    o.nsgs.tol = 1e-6;          /* deposition only builds the packing */
    o.nsgs.max_sweeps = 300;
    int steps = 0;
    fl_error err;
    fl_status s = fl_discs_deposit(d, &o, rng, (int)P.deposit_steps, P.v_tol * P.g * P.h_deposit,
                                   &steps, &err);
    double vmax = 0;
    for (size_t i = 0; i < d->N; i++)
        vmax = fmax(vmax, fmax(hypot(d->vx[i], d->vy[i]), fabs(d->w[i]) * d->R[i]));
    fl_cli_check(ctx, s == FL_OK && vmax < P.v_tol * P.g * P.h_deposit, "discs28.deposit_settled",
                 "%zu discs deposited under gravity in a box of width %g: %d CD steps, largest "
                 "speed %.2e < %.0e g h (generator, data/003/discs_28.json)",
                 d->N, P.width, steps, vmax, P.v_tol);
    /* one step from rest (003 §3 equilibrium test) */
    for (size_t i = 0; i < d->N; i++) d->vx[i] = d->vy[i] = d->w[i] = 0;
    fl_discs_work work;
    fl_discs_work_init(&work, NULL);
    o.h = P.h;
    fl_disc_contact *c = NULL;
    size_t nc = 0;
    fl_local_problem *p = NULL;
    s = fl_discs_local(d, &o, &work, &c, &nc, &p, &err);
    if (s != FL_OK || !p) {
        fl_cli_check(ctx, 0, "discs28.problem", "no local problem: %s", err.message);
        goto out;
    }
    size_t N = d->N, m = 2 * nc, n = 3 * N;
    size_t kappa = 0;
    for (size_t a = 0; a < nc; a++) kappa += c[a].gap <= d->touch_tol;
    /* exploration: both procedures of 003 §3 */
    size_t runs = (size_t)(ctx->quick ? P.runs_quick : P.runs);
    fl_cloud *cl[2] = {NULL, NULL};
    fl_plurality_result pr[2];
    for (int mode = 0; mode < 2; mode++) {
        fl_plurality_options po = fl_plurality_options_default();
        po.mode = mode ? FL_PLURALITY_RANDOM_START : FL_PLURALITY_RANDOM_ORDER;
        po.runs = runs;
        po.impl = FL_IMPL_REFERENCE;
        po.nsgs.rng = rng;
        po.nsgs.tol = P.gs_tol;
        po.nsgs.max_sweeps = (int)P.gs_sweeps;
        /* random guesses up to twice the largest impulse m g h (D.1 (b)) */
        double smax = 0;
        for (size_t i = 0; i < N; i++) smax = fmax(smax, d->m[i] * P.g * P.h);
        po.nsgs.random_scale = 2 * smax * N / 4;
        s = fl_plurality_explore(p, &po, &cl[mode], &pr[mode], &err);
        if (s < 0) {
            fl_cli_check(ctx, 0, "discs28.explore", "mode %d: %s", mode, err.message);
            goto out;
        }
    }
    /* per dot: u_f = 0, Coulomb, cones */
    double *uf = malloc(n * sizeof *uf), ufmax = 0, cone_out = 0, viol = 0;
    gsl_vector *rv = gsl_vector_alloc(m), *U = gsl_vector_alloc(m);
    double gh = P.g * P.h, fscale = 0;
    size_t dots = 0;
    for (int mode = 0; mode < 2; mode++)
        for (size_t k = 0; k < cl[mode]->npts; k++) {
            const double *r = cl[mode]->pts + k * m;
            fl_discs_end_velocity(d, c, nc, P.h, r, uf);
            for (size_t q = 0; q < n; q++)
                ufmax = fmax(ufmax, fabs(uf[q]) * (q % 3 == 2 ? d->R[q / 3] : 1) / gh);
            memcpy(rv->data, r, m * sizeof *r);
            fl_local_problem_velocity(p, rv, U, NULL);
            double rs = 0;
            for (size_t q = 0; q < m; q++) rs = fmax(rs, fabs(r[q]));
            fscale = fmax(fscale, rs);
            viol = fmax(viol, fl_coulomb_violation(2, nc, p->mu, r, U->data, rs, gh));
            for (size_t a = 0; a < nc; a++)
                cone_out = fmax(cone_out, fmax(-r[2 * a], fabs(r[2 * a + 1]) - p->mu[a] * r[2 * a]) / rs);
            dots++;
        }
    fl_cli_check(ctx, dots > 0 && cl[0]->nfailed + cl[1]->nfailed == 0, "discs28.runs_converged",
                 "%zu runs (random orderings from zero, random starts), %zu converged, "
                 "GS tol %.0e (003 §3)", 2 * runs, dots, P.gs_tol);
    fl_cli_check(ctx, ufmax < 1e-6, "discs28.equilibrium_u_f_zero",
                 "every dot: max |u_f| / (g h) = %.2e < 1e-6 (one step from rest returns "
                 "u_f = 0: an equilibrium, 003 §3)", ufmax);
    fl_cli_check(ctx, viol < 1e-8, "discs28.coulomb",
                 "every dot satisfies Coulomb's law: max violation %.2e < 1e-8 (CATALOGUE D.1)",
                 viol);
    fl_cli_check(ctx, cone_out < 1e-9, "discs28.clouds_in_cones",
                 "every dot of every contact lies in its Coulomb angular region C_alpha: max "
                 "excess %.2e < 1e-9 of the largest impulse (003 §4, B.18)", cone_out);
    /* dimensions: A (all touching contacts) and the cloud's affine hull */
    gsl_matrix *Ht = gsl_matrix_calloc(n, m);
    for (size_t a = 0; a < nc; a++) {
        double row[2][6];
        fl_discs_contact_rows(d, &c[a], row);
        size_t b[2] = {c[a].i, c[a].j};
        for (int rr = 0; rr < 2; rr++)
            for (int kb = 0; kb < (c[a].kind == FL_DISC_PAIR ? 2 : 1); kb++)
                for (int l = 0; l < 3; l++)
                    gsl_matrix_set(Ht, 3 * b[kb] + l, 2 * a + rr,
                                   gsl_matrix_get(Ht, 3 * b[kb] + l, 2 * a + rr) + row[rr][3 * kb + l]);
    }
    /* touching contacts only for A */
    gsl_matrix *Htt = gsl_matrix_calloc(n, 2 * (kappa ? kappa : 1));
    for (size_t a = 0, t = 0; a < nc; a++)
        if (c[a].gap <= d->touch_tol) {
            for (size_t q = 0; q < n; q++) {
                gsl_matrix_set(Htt, q, 2 * t, gsl_matrix_get(Ht, q, 2 * a));
                gsl_matrix_set(Htt, q, 2 * t + 1, gsl_matrix_get(Ht, q, 2 * a + 1));
            }
            t++;
        }
    size_t rankH = svd_rank(Htt, 1e-10, NULL);
    long dimA = (long)(2 * kappa) - (long)rankH, dim_paper = 2 * (long)kappa - 3 * (long)N;
    fl_cli_check(ctx, rankH == 3 * N && dimA == dim_paper, "discs28.dimension_A_2kappa_minus_3N",
                 "kappa = %zu touching contacts, N = %zu: rank H^T = %zu = 3N (independent "
                 "equilibrium equations), dim A = 2 kappa - rank = %ld = 2 kappa - 3N = %ld (003 §4)",
                 kappa, N, rankH, dimA, dim_paper);
    /* affine hull of the whole cloud vs the constrained kernel (proofs/discs.md §4) */
    size_t npts = cl[0]->npts + cl[1]->npts;
    gsl_matrix *Cc = gsl_matrix_alloc(npts, m);
    double *mean = calloc(m, sizeof *mean);
    for (int mode = 0, k = 0; mode < 2; mode++)
        for (size_t j = 0; j < cl[mode]->npts; j++, k++)
            for (size_t q = 0; q < m; q++) {
                double v = cl[mode]->pts[j * m + q] / fscale;
                gsl_matrix_set(Cc, (size_t)k, q, v);
                mean[q] += v / npts;
            }
    for (size_t k = 0; k < npts; k++)
        for (size_t q = 0; q < m; q++) gsl_matrix_set(Cc, k, q, gsl_matrix_get(Cc, k, q) - mean[q]);
    size_t dim_cloud = npts > 1 ? svd_rank(Cc, 1e-7, NULL) : 0;
    /* constraint rows: H^T, never-active contacts (2 rows), always-on-boundary (1 row) */
    size_t nrow = n + 2 * nc, never = 0, boundary = 0, active = 0, sticking_all = 0;
    gsl_matrix *B = gsl_matrix_calloc(nrow, m);
    for (size_t q = 0; q < n; q++)
        for (size_t l = 0; l < m; l++) gsl_matrix_set(B, q, l, gsl_matrix_get(Ht, q, l));
    double ftol = 1e-7 * fscale;
    for (size_t a = 0; a < nc; a++) {
        int is_active = 0, all_plus = 1, all_minus = 1, some_inside = 0;
        for (int mode = 0; mode < 2; mode++)
            for (size_t k = 0; k < cl[mode]->npts; k++) {
                const double *r = cl[mode]->pts + k * m + 2 * a;
                if (r[0] > ftol) is_active = 1;
                double ex = p->mu[a] * r[0] - fabs(r[1]);
                if (!(fabs(r[1] - p->mu[a] * r[0]) <= ftol)) all_plus = 0;
                if (!(fabs(r[1] + p->mu[a] * r[0]) <= ftol)) all_minus = 0;
                if (ex > ftol) some_inside = 1;
            }
        if (!is_active) {
            gsl_matrix_set(B, n + 2 * a, 2 * a, 1);
            gsl_matrix_set(B, n + 2 * a + 1, 2 * a + 1, 1);
            never++;
        } else {
            active++;
            if (all_plus || all_minus) {
                gsl_matrix_set(B, n + 2 * a, 2 * a, all_plus ? -p->mu[a] : p->mu[a]);
                gsl_matrix_set(B, n + 2 * a, 2 * a + 1, 1);
                boundary++;
            }
            if (some_inside) sticking_all++;
        }
    }
    size_t rankB = svd_rank(B, 1e-10, NULL);
    size_t dim_kernel = m - rankB;
    fl_cli_check(ctx, dim_cloud == dim_kernel && dim_kernel > 0, "discs28.dimension_cloud_equals_kernel",
                 "affine dimension of the %zu-dot cloud (SVD of the centred cloud, rel. tol 1e-7) "
                 "= %zu; kernel of H^T on the %zu active contacts (%zu never loaded, %zu always on a "
                 "cone edge) = %zu (proofs/discs.md §4); 2 kappa - 3N = %ld",
                 npts, dim_cloud, active, never, boundary, dim_kernel, dim_paper);
    printf("discs_28: %zu distinct limits from random orderings, %zu from random starts; "
           "%zu GS sweeps in all\n",
           cl[0]->ndistinct, cl[1]->ndistinct, (size_t)(pr[0].iterations + pr[1].iterations));
    /* CSVs and figure (Fig. 2): grains chosen by their contacts */
    size_t *deg = calloc(N, sizeof *deg);
    for (size_t a = 0; a < nc; a++)
        if (c[a].gap <= d->touch_tol) {
            deg[c[a].i]++;
            if (c[a].kind == FL_DISC_PAIR) deg[c[a].j]++;
        }
    size_t g_two = N, g_many = 0;
    for (size_t i = 0; i < N; i++) {
        if (deg[i] > deg[g_many]) g_many = i;
        if (deg[i] == 3 && g_two == N) g_two = i;
    }
    if (g_two == N) g_two = (g_many + 1) % N;
    char path[4096], pk[4096], pc[4096];
    FILE *f = NULL;
    if (fl_cli_out_path(ctx, "discs_28_packing.csv", pk, sizeof pk) == 0 && (f = fopen(pk, "w"))) {
        fprintf(f, "disc,x,y,R,contacts\n");
        for (size_t i = 0; i < N; i++)
            fprintf(f, "%zu,%.9g,%.9g,%.9g,%zu\n", i, d->x[i], d->y[i], d->R[i], deg[i]);
        fclose(f);
    }
    double fmaxF = 0;
    if (fl_cli_out_path(ctx, "discs_28_clouds.csv", pc, sizeof pc) == 0 && (f = fopen(pc, "w"))) {
        fprintf(f, "mode,run,contact,grain,px,py,Fx,Fy,rN,rT\n");
        for (int mode = 0; mode < 2; mode++)
            for (size_t k = 0; k < cl[mode]->npts; k++)
                for (size_t a = 0; a < nc; a++) {
                    size_t gi = c[a].i == g_two || c[a].i == g_many ? c[a].i : c[a].j;
                    if (gi != g_two && gi != g_many) continue;
                    if (c[a].kind != FL_DISC_PAIR && c[a].i != gi) continue;
                    const double *r = cl[mode]->pts + k * m + 2 * a;
                    double F[2], sg = gi == c[a].i ? 1 : -1;
                    force_xy(&c[a], r, F);
                    double R = gi == c[a].i ? d->R[c[a].i] : d->R[c[a].j];
                    double nx = c[a].nx, ny = c[a].ny;
                    /* the contact point on grain gi, force on gi */
                    double px = d->x[gi] - sg * R * nx, py = d->y[gi] - sg * R * ny;
                    fmaxF = fmax(fmaxF, hypot(F[0], F[1]) / P.h);
                    fprintf(f, "%d,%zu,%zu,%zu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", mode, k, a, gi, px,
                            py, sg * F[0] / P.h, sg * F[1] / P.h, r[0] / P.h, r[1] / P.h);
                }
        fclose(f);
    }
    if (fl_cli_out_path(ctx, "discs_28_clouds.png", path, sizeof path) == 0) {
        double sc = 2.0 / fmax(fmaxF, 1e-300);
        char script[20000];
        snprintf(script, sizeof script,
                 "set terminal png size 1100,800\nset output '%s'\nset datafile separator ','\n"
                 "set size ratio -1\nset key outside noenhanced\n"
                 "set title 'N = 28 discs at equilibrium (003 §4, Fig. 2): tips of contact forces "
                 "on grains %zu (3 contacts) and %zu (%zu contacts), scale %.3g' noenhanced\n"
                 "plot '%s' using 2:3:4 every ::1 with circles lc rgb 'gray' notitle, "
                 "'%s' using ($1==0 ? $5+%g*$7 : 1/0):($6+%g*$8) every ::1 with points pt 7 ps 0.4 "
                 "lc rgb 'blue' title 'zero start, random orderings', "
                 "'%s' using ($1==1 ? $5+%g*$7 : 1/0):($6+%g*$8) every ::1 with points pt 7 ps 0.4 "
                 "lc rgb 'red' title 'random starts'\n",
                 path, g_two, g_many, deg[g_many], sc, pk, pc, sc, sc, pc, sc, sc);
        if (fl_cli_gnuplot(script) != 0) fprintf(stderr, "discs_28: no PNG (gnuplot failed)\n");
    }
    free(deg);
    free(mean);
    gsl_matrix_free(B);
    gsl_matrix_free(Cc);
    gsl_matrix_free(Ht);
    gsl_matrix_free(Htt);
    gsl_vector_free(rv);
    gsl_vector_free(U);
    free(uf);
out:
    fl_cloud_free(cl[0]);
    fl_cloud_free(cl[1]);
    free(c);
    fl_local_problem_free(p);
    fl_discs_work_clear(&work);
    fl_discs_free(d);
    gsl_rng_free(rng);
    return 0;
}
