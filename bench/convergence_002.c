/* convergence_002.c — the experiments behind proofs/convergence_002.md: why
 * the Table 2 convergence study of 002 §7 (Ligurský & Renard, QJMAM 64
 * (2011), Fig. 9) does not decrease at F = 1.2 in this model.
 *
 *   ./build/bench/convergence_002 [options] REF_NX:REF_DT NX:DT[:PERT] ...
 *
 * Runs the square block of data/002/square_block_002.json (sparse midpoint
 * scheme, partial redistribution, the check's static frictionless start)
 * on the reference mesh (REF_NX cells per side, time step REF_DT) and on
 * each NX:DT mesh, samples every 8e-5 s over [0, T], and prints for each
 * run the maxima over [0, T] of the L2 norm and H1 seminorm of u_ref - I u
 * (nested meshes: exact P1 interpolation, the same norms as the check),
 * the fitted order of consecutive runs, the largest |u_ref| in L2, the
 * most contact nodes open at one step and the range of the slip velocity
 * of the nodes in contact.  PERT multiplies the initial displacement by
 * 1 + PERT sin(1 + 7 i) (sensitivity to the initial state).
 * Options: --F f (friction, default the file's 1.2), --T t (default
 * 0.005 s), --steady (start from the static sliding state: F and the
 * foundation speed in the static step), --lumped, --plane-stress,
 * --per-sample (print the errors at every sample).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/midpoint.h"
#include "optimized/midpoint_sparse.h"
#include "optimized/fe2d_sparse.h"
#include "models/fl_model_square_block.h"
#include "checks/midpoint_checks.h"

#define SAMPLE_DT 8e-5

typedef struct run {
    size_t nx, ns, nfull;
    double **u;                   /* ns samples of the full displacement */
    double slip_min, slip_max;    /* slip velocity of the nodes in contact */
    size_t open_max;              /* most contact nodes open at one step */
    size_t open0;                 /* contact nodes open in the initial state */
} run;

typedef struct opts {
    double T;
    int steady, per_sample;
    double pert;
} opts;

static void run_free(run *r)
{
    for (size_t k = 0; r->u && k < r->ns; k++) free(r->u[k]);
    free(r->u);
    r->u = NULL;
}

/* the contact statistics once a step has set the forces (stepped), and
 * the sample at a multiple of SAMPLE_DT */
static void record(run *R, const fl_midpoint_block_sparse *b, const fl_midpoint_state *st, double v_found, int stepped)
{
    size_t open = 0;
    for (size_t i = 0; stepped && i < b->prob.nc; i++) {
        if (st->y->data[2 * i] == 0) {
            open++;
            continue;
        }
        double s = st->v->data[b->map->free_of_full[2 * b->cnodes[i]]] - v_found;
        R->slip_min = fmin(R->slip_min, s);
        R->slip_max = fmax(R->slip_max, s);
    }
    if (open > R->open_max) R->open_max = open;
    double q = st->t / SAMPLE_DT;
    size_t j = (size_t)llround(q);
    if (fabs(q - (double)j) < 1e-6 && j < R->ns && !R->u[j] && (R->u[j] = malloc(R->nfull * sizeof(double))))
        fl_fe2d_expand(b->map, st->u->data, R->u[j]);
}

static int do_run(fl_midpoint_block_params bp, size_t nx, double dt, const opts *op, double pert, run *R)
{
    memset(R, 0, sizeof *R);
    R->slip_min = INFINITY;
    R->slip_max = -INFINITY;
    bp.nx = bp.ny = nx;
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    fl_error e;
    fl_midpoint_block_sparse *b = NULL;
    fl_midpoint_sparse *ms = NULL;
    fl_midpoint_state *st = NULL;
    int rc = -1;
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = dt;
    o.tol = 1e-10;
    if (fl_sparse_start(&sctx, &e) || fl_midpoint_block_alloc_sparse(&sctx, &bp, 0, &b, &e)
        || fl_midpoint_alloc_sparse(&b->prob, &o, &ms, &e) || fl_midpoint_state_alloc(b->prob.n, b->prob.nc, &st, &e)
        || fl_midpoint_block_static_start(&b->prob, &o, op->steady, st->u->data, &R->open0, &e)) {
        fprintf(stderr, "convergence_002: nx = %zu: %s\n", nx, e.message);
        goto done;
    }
    for (size_t i = 0; i < b->prob.n; i++) st->u->data[i] *= 1 + pert * sin(1.0 + 7.0 * (double)i);
    R->nx = nx;
    R->nfull = b->map->nfull;
    R->ns = (size_t)llround(op->T / SAMPLE_DT) + 1;
    R->u = calloc(R->ns, sizeof(double *));
    if (!R->u) goto done;
    record(R, b, st, bp.v_found, 0);
    size_t nsteps = (size_t)llround(op->T / dt);
    for (size_t k = 1; k <= nsteps; k++) {
        if (fl_midpoint_step_sparse(ms, st, NULL, &e) < 0) {
            fprintf(stderr, "convergence_002: nx = %zu, step %zu: %s\n", nx, k, e.message);
            goto done;
        }
        record(R, b, st, bp.v_found, 1);
    }
    rc = 0;
done:
    fl_midpoint_state_free(st);
    fl_midpoint_free_sparse(ms);
    fl_midpoint_block_free_sparse(b);
    if (sctx.started) fl_sparse_finish(&sctx);
    return rc;
}

/* value of the coarse P1 field (nx cells, DIAG_RIGHT) at (x, y), component d */
static double interp(const double *u, size_t nx, double L, double x, double y, int d)
{
    double h = L / (double)nx;
    size_t i = (size_t)fmin(floor(x / h), (double)nx - 1), j = (size_t)fmin(floor(y / h), (double)nx - 1);
    double xi = x / h - (double)i, eta = y / h - (double)j;
    size_t a = j * (nx + 1) + i, b = a + 1, dd = (j + 1) * (nx + 1) + i, c = dd + 1;
    double ua = u[2 * a + d], ub = u[2 * b + d], uc = u[2 * c + d], ud = u[2 * dd + d];
    if (xi >= eta) return ua + xi * (ub - ua) + eta * (uc - ub);
    return ua + xi * (uc - ud) + eta * (ud - ua);
}

/* max over the samples of |u_ref - I u| in L2 and H1-semi, and of |u_ref| in L2 */
static int errors(const run *c, const run *f, const fl_midpoint_block_params *bp, int per, double out[3])
{
    fl_fe2d_mesh *fm = NULL;
    fl_sparse_ctx sctx;
    memset(&sctx, 0, sizeof sctx);
    fl_fe2d_material unit = {0.0, 1.0, 1.0, FL_FE2D_PLANE_STRAIN};
    cholmod_sparse *Ms = NULL, *Ls = NULL;
    double *err = NULL, *tmp = NULL;
    size_t nf = 0;
    int ok = fl_fe2d_mesh_rect(0, 0, bp->lx, bp->ly, f->nx, f->nx, bp->pattern, &fm, NULL) == FL_OK
             && fl_sparse_start(&sctx, NULL) == FL_OK
             && fl_fe2d_assemble_sparse(&sctx, fm, &unit, FL_FE2D_MASS, NULL, &Ms, NULL, NULL) == FL_OK
             && fl_fe2d_assemble_sparse(&sctx, fm, &unit, FL_FE2D_LAPLACE, NULL, &Ls, NULL, NULL) == FL_OK
             && (nf = 2 * fm->nnodes, err = malloc(nf * sizeof(double))) && (tmp = malloc(nf * sizeof(double)));
    out[0] = out[1] = out[2] = 0;
    for (size_t k = 0; ok && k < f->ns && k < c->ns; k++) {
        if (!f->u[k] || !c->u[k]) continue;
        for (size_t p = 0; p < fm->nnodes; p++)
            for (int d = 0; d < 2; d++)
                err[2 * p + d] = f->u[k][2 * p + d] - interp(c->u[k], c->nx, bp->lx, fm->xy[2 * p], fm->xy[2 * p + 1], d);
        double a = 0, b = 0, n0 = 0;
        fl_sparse_mv(&sctx, Ms, 0, 1.0, err, 0.0, tmp, NULL);
        for (size_t i = 0; i < nf; i++) a += err[i] * tmp[i];
        fl_sparse_mv(&sctx, Ls, 0, 1.0, err, 0.0, tmp, NULL);
        for (size_t i = 0; i < nf; i++) b += err[i] * tmp[i];
        fl_sparse_mv(&sctx, Ms, 0, 1.0, f->u[k], 0.0, tmp, NULL);
        for (size_t i = 0; i < nf; i++) n0 += f->u[k][i] * tmp[i];
        if (per) printf("  t = %.5f s  L2 %.4e  H1-semi %.4e  |u_ref| %.4e\n", SAMPLE_DT * (double)k, sqrt(a), sqrt(b), sqrt(n0));
        out[0] = fmax(out[0], sqrt(fmax(a, 0)));
        out[1] = fmax(out[1], sqrt(fmax(b, 0)));
        out[2] = fmax(out[2], sqrt(fmax(n0, 0)));
    }
    free(err);
    free(tmp);
    fl_sparse_free(&sctx, &Ms);
    fl_sparse_free(&sctx, &Ls);
    if (sctx.started) fl_sparse_finish(&sctx);
    fl_fe2d_mesh_free(fm);
    return ok ? 0 : -1;
}

/* NX:DT[:PERT] with NX >= 1 dividing nothing here (the model checks L/h) and DT > 0 */
static int parse_run(const char *s, size_t *nx, double *dt, double *pert)
{
    char *end = NULL;
    long n = strtol(s, &end, 10);
    if (n < 1 || n > 4096 || *end != ':') return -1;
    *dt = strtod(end + 1, &end);
    if (!(*dt > 0) || (*end && *end != ':')) return -1;
    *pert = *end ? strtod(end + 1, &end) : 0.0;
    if (*end || !isfinite(*pert)) return -1;
    *nx = (size_t)n;
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: convergence_002 [--F f] [--T t] [--steady] [--lumped] [--plane-stress] [--per-sample] "
                    "REF_NX:REF_DT NX:DT[:PERT] ...\n");
    return 2;
}

int main(int argc, char **argv)
{
    fl_model_square_block m;
    fl_error e;
    if (fl_model_square_block_load_data(NULL, &m, &e) != FL_OK) {
        fprintf(stderr, "convergence_002: %s\n", e.message);
        return 1;
    }
    fl_midpoint_block_params bp = m.block;
    opts op = {m.table2_T, 0, 0, 0};
    int a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        char *end = NULL;
        if (strcmp(argv[a], "--F") == 0 && a + 1 < argc) {
            bp.mu = strtod(argv[++a], &end);
            if (*end || !(bp.mu >= 0)) return usage();
        } else if (strcmp(argv[a], "--T") == 0 && a + 1 < argc) {
            op.T = strtod(argv[++a], &end);
            if (*end || !(op.T >= 0) || op.T > 1) return usage();
        } else if (strcmp(argv[a], "--steady") == 0) op.steady = 1;
        else if (strcmp(argv[a], "--lumped") == 0) bp.lumped = 1;
        else if (strcmp(argv[a], "--plane-stress") == 0) bp.mat.model = FL_FE2D_PLANE_STRESS;
        else if (strcmp(argv[a], "--per-sample") == 0) op.per_sample = 1;
        else return usage();
    }
    size_t nx;
    double dt, pert;
    if (a >= argc || parse_run(argv[a], &nx, &dt, &pert)) return usage();
    run ref;
    if (do_run(bp, nx, dt, &op, pert, &ref)) return 1;
    printf("F = %g, T = %g s, reference nx = %zu dt = %g s: slip in contact [%.3g, %.3g] m/s, at most %zu of %zu "
           "contact nodes open (%zu in the initial state)\n", bp.mu, op.T, nx, dt, ref.slip_min, ref.slip_max,
           ref.open_max, nx + 1, ref.open0);
    double ph = NAN, pl = NAN, pH = NAN;
    int status = 0;
    for (a++; a < argc; a++) {
        run r;
        double ev[3];
        if (parse_run(argv[a], &nx, &dt, &pert) || ref.nx % nx != 0) {
            fprintf(stderr, "convergence_002: '%s': NX:DT[:PERT] with NX dividing the reference's %zu\n", argv[a], ref.nx);
            status = 2;
            continue;
        }
        if (do_run(bp, nx, dt, &op, pert, &r) || errors(&r, &ref, &bp, op.per_sample, ev)) {
            run_free(&r);
            status = 1;
            continue;
        }
        double h = bp.lx / (double)nx;
        printf("nx = %3zu dt = %.3g s pert = %g: max L2 %.4e  max H1-semi %.4e  (max |u_ref| L2 %.4e; slip [%.3g, "
               "%.3g], open <= %zu, %zu of %zu at the start)", nx, dt, pert, ev[0], ev[1], ev[2], r.slip_min, r.slip_max,
               r.open_max, r.open0, nx + 1);
        if (!isnan(ph) && ph != h && pert == 0)
            printf("  orders L2 %.2f H1 %.2f", log(pl / ev[0]) / log(ph / h), log(pH / ev[1]) / log(ph / h));
        printf("\n");
        fflush(stdout);
        ph = h;
        pl = ev[0];
        pH = ev[1];
        run_free(&r);
    }
    run_free(&ref);
    return status;
}
