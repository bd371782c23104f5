/* bench_fclib_siconos.c — our nonlinear Gauss–Seidel (003 §3; reference,
 * dense W: reference/nsgs.c; optimized, CHOLMOD W: optimized/nsgs_sparse.c)
 * against Siconos numerics' NSGS (fc3d_driver, SICONOS_FRICTION_3D_NSGS,
 * W given to Siconos in its sparse storage) on the same 3D problems of
 * growing size: time to reach the tolerances 1e-4 and 1e-8, ratios measured
 * in one run, and the Dolan–Moré performance profile at 1e-8.
 * Two families of problems (issue 11): the 3D disc-like problems below and
 * 2D FE blocks (testkit/fclib_feblock.h: an elastic P1 layer clamped to a
 * tilted, sheared plate and pressed on a rigid foundation, W = B A^-1 B^T
 * dense SPD, 100 to 1000 contacts, mu = 0.3 and 0.6), solved in 2D by
 * fc2d_driver (SICONOS_FRICTION_2D_NSGS, W given densely: Siconos's 2D NSGS
 * reads the dense storage).  The median ratio ours / Siconos is printed
 * overall and per family.  A third family, disc packings (reference/discs.h,
 * public API only): N discs of radius in [0.98, 1] on a triangular lattice
 * of spacing 2 in a periodic band on the ground under gravity (slope 24
 * degrees, mu 0.3 grain-grain, 0.5 ground), the local problem of one
 * Contact Dynamics step (fl_discs_local, h = 1e-3, sparse W), N = 100 to
 * 3400 (about 290 to 10^4 contacts); Siconos gets W in its sparse block
 * storage (SBM_from_csparse, 2 x 2 blocks: fc2d_driver refuses plain
 * sparse storage).  The dense reference is not run on packings.
 *
 * Problems ("disc-like" random granular systems, constructed here): nc
 * contacts between nb = nc rigid bodies of 6 degrees of freedom with unit
 * mass and inertia (M = I); contact k joins body i and a near neighbour
 * j = i + 1..3 (mod nb), or body i and the ground (probability 0.2), with a
 * random unit normal n, tangents t1, t2 and lever arms -+ n/2, so that
 * U = H u with the rows of H:  e . (v_j + w_j x b_j - v_i - w_i x a_i),
 * e in {n, t1, t2}.  W = H M^-1 H^T = H H^T (sparse, banded by the
 * neighbour structure), q = H u_free with u_free Gaussian, mu uniform in
 * [0.1, 1].  The stopping test is the same for all three: the natural-map
 * error divided by max(||r||, ||U||, ||q||) (FL_RESIDUAL_MAX_NORM), which is
 * what Siconos 4.4's fc3d_compute_error returns (tests/test_siconos_fc.c).
 *
 * The dense reference is run up to 200 contacts only (at 400 contacts it
 * already needs minutes per solve); the profile counts a solver that was
 * not run on a problem as failing it (ratio infinite, as Dolan and Moré
 * treat failures), and the median ratios skip those problems.  One untimed
 * warm-up solve per solver precedes the measurements.
 *
 *   bench_fclib_siconos [--quick] [--out DIR] [--seed S]
 * Writes bench_fclib_siconos.csv (every run), bench_fclib_siconos_profile.csv
 * and bench_fclib_siconos_profile.png (gnuplot) to DIR (default out/).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gsl/gsl_randist.h>

#include "FrictionContactProblem.h"
#include "drivers/fl_types.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"

#include "fl_problem.h"
#include "fl_rng.h"
#include "reference/nsgs.h"
#include "testkit/fclib_disclike.h"
#include "testkit/fclib_feblock.h"
#include "testkit/fclib_discpacking.h"
#include "SparseBlockMatrix.h"
#include "drivers/discs_step.h"
#include "optimized/nsgs_sparse.h"
#include "fl_clock.h"
#include "fl_dense.h"
#include "fl_scalar.h"

enum { NSOLVER = 3, NTOL = 2 };
static const char *solver_name[NSOLVER] = {"reference", "optimized", "siconos"};
static const double tols[NTOL] = {1e-4, 1e-8};

/* Siconos problem with W in Siconos's sparse (triplet -> CSC) storage
 * (3D), or dense column-major from p->W (2D). */
static FrictionContactProblem *to_siconos(const fl_local_problem *p)
{
    int m = (int)p->m;
    if (p->dim == 2 && !p->W) {   /* sparse 2D: block storage from CSC */
        NumericsMatrix *S = NM_create(NM_SPARSE, m, m);
        const cholmod_sparse *W = p->Ws;
        const int *Wp = W->p, *Wi = W->i;
        const double *Wx = W->x;
        NM_triplet_alloc(S, (CS_INT)Wp[W->ncol]);
        for (size_t j = 0; j < W->ncol; j++)
            for (int k = Wp[j]; k < Wp[j + 1]; k++) NM_entry(S, Wi[k], (int)j, Wx[k]);
        NumericsMatrix *B = NM_create(NM_SPARSE_BLOCK, m, m);
        if (SBM_from_csparse(2, NM_csc(S), B->matrix1) != 0) return NULL;
        NM_free(S);
        double *q2 = malloc(p->m * sizeof *q2), *mu2 = malloc(p->nc * sizeof *mu2);
        memcpy(q2, p->q->data, p->m * sizeof *q2);
        memcpy(mu2, p->mu, p->nc * sizeof *mu2);
        return frictionContactProblem_new_with_data(2, (int)p->nc, B, q2, mu2);
    }
    if (p->dim == 2) {
        double *Md = malloc((size_t)m * (size_t)m * sizeof *Md);
        double *q2 = malloc(p->m * sizeof *q2), *mu2 = malloc(p->nc * sizeof *mu2);
        for (int i = 0; i < m; i++) {
            q2[i] = gsl_vector_get(p->q, (size_t)i);
            for (int j = 0; j < m; j++)
                Md[i + j * m] = gsl_matrix_get(p->W, (size_t)i, (size_t)j);
        }
        memcpy(mu2, p->mu, p->nc * sizeof *mu2);
        return frictionContactProblem_new_with_data(2, (int)p->nc,
                                                    NM_create_from_data(NM_DENSE, m, m, Md), q2,
                                                    mu2);
    }
    NumericsMatrix *M = NM_create(NM_SPARSE, m, m);
    const cholmod_sparse *W = p->Ws;
    const int *Wp = W->p, *Wi = W->i;
    const double *Wx = W->x;
    NM_triplet_alloc(M, (CS_INT)Wp[W->ncol]);
    for (size_t j = 0; j < W->ncol; j++)
        for (int k = Wp[j]; k < Wp[j + 1]; k++) NM_entry(M, Wi[k], (int)j, Wx[k]);
    double *q = malloc(p->m * sizeof *q), *mu = malloc(p->nc * sizeof *mu);
    memcpy(q, p->q->data, p->m * sizeof *q);
    memcpy(mu, p->mu, p->nc * sizeof *mu);
    return frictionContactProblem_new_with_data(3, (int)p->nc, M, q, mu);
}

/* One run from r = 0: seconds (NAN if the tolerance was not reached). */
static double run(int solver, const fl_local_problem *p, FrictionContactProblem *sp, double tol,
                  int *iters)
{
    double *r = calloc(p->m, sizeof *r), *U = calloc(p->m, sizeof *U), t;
    int ok;
    if (solver < 2) {
        fl_nsgs_options opt = fl_nsgs_options_default();
        opt.tol = tol;
        opt.max_sweeps = 5000;
        opt.norm = FL_RESIDUAL_MAX_NORM;
        gsl_vector_view rv = gsl_vector_view_array(r, p->m), Uv = gsl_vector_view_array(U, p->m);
        fl_nsgs_result res;
        double t0 = fl_clock_now();
        fl_status s = fl_nsgs_types[solver].solve(p, &opt, &rv.vector, &Uv.vector, &res, NULL);
        t = fl_clock_now() - t0;
        ok = s == FL_OK;
        *iters = res.iterations;
    } else {
        SolverOptions *o = solver_options_create(p->dim == 2 ? SICONOS_FRICTION_2D_NSGS
                                                             : SICONOS_FRICTION_3D_NSGS);
        o->dparam[SICONOS_DPARAM_TOL] = tol;
        o->iparam[SICONOS_IPARAM_MAX_ITER] = 5000;
        double t0 = fl_clock_now();
        int info = p->dim == 2 ? fc2d_driver(sp, r, U, o) : fc3d_driver(sp, r, U, o);
        t = fl_clock_now() - t0;
        ok = info == 0;
        *iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(o);
        free(o);
    }
    free(r);
    free(U);
    return ok ? t : NAN;
}

int main(int argc, char **argv)
{
    int quick = 0;
    const char *out = "out";
    unsigned long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_fclib_siconos [--quick] [--out DIR] [--seed S]\n");
            return 2;
        }
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench_fclib_siconos: cannot create %s\n", out);
        return 2;
    }
    static const size_t full[] = {100, 200, 400, 700, 1000}, small[] = {20, 40};
    /* disc packings: numbers of discs (about 3 contacts per disc) */
    static const size_t dfull[] = {100, 300, 1000, 2000, 3400}, dsmall[] = {10, 20};
    const size_t *sizes = quick ? small : full;
    enum { NFAM = 3 };
    static const char *fam_name[NFAM] = {"disc-like 3D", "FE block 2D", "packing 2D"};
    int nsizes = quick ? 2 : 5, reps = 2, nprob = NFAM * nsizes * reps;
    int *probfam = malloc((size_t)nprob * sizeof *probfam);
    double *T = malloc((size_t)nprob * NSOLVER * NTOL * sizeof *T);   /* [prob][solver][tol] */
    size_t *probnc = malloc((size_t)nprob * sizeof *probnc);
    char path[1024];
    snprintf(path, sizeof path, "%s/bench_fclib_siconos.csv", out);
    FILE *csv = fopen(path, "w");
    if (!csv || !T || !probnc || !probfam) {
        fprintf(stderr, "bench_fclib_siconos: cannot write %s\n", path);
        return 2;
    }
    fprintf(csv, "problem,family,nc,solver,tol,seconds,iterations\n");
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    if (fl_sparse_start(&ctx, NULL) != FL_OK) return 2;
    gsl_rng *rng = fl_rng_alloc(seed);
    printf("NSGS to tolerance (error / max(||r||,||U||,||q||)), 3D disc-like random problems, "
           "2D FE blocks and 2D disc packings, seconds\n");
    printf("%-12s %6s %5s | %10s %10s %10s | %10s %10s %10s | %8s %8s\n", "family", "nc", "rep",
           "ref 1e-4", "opt 1e-4", "sic 1e-4", "ref 1e-8", "opt 1e-8", "sic 1e-8", "ref/sic",
           "opt/sic");
    int pi = 0;
    for (int fam = 0; fam < NFAM; fam++)
    for (int si = 0; si < nsizes; si++)
        for (int rep = 0; rep < reps; rep++, pi++) {
            fl_discs_work work;
            fl_discs *discs = NULL;
            fl_disc_contact *dc = NULL;
            if (fl_discs_work_init(&work, NULL) != FL_OK) return 2;
            fl_local_problem *p =
                fam == 0   ? fl_disclike_problem(rng, &ctx, sizes[si])
                : fam == 1 ? fl_feblock_problem(&ctx, sizes[si], rep ? 0.6 : 0.3)
                           : fl_discpacking_problem(rng, (quick ? dsmall : dfull)[si], &work, &discs, &dc);
            if (!p) {
                fprintf(stderr, "bench_fclib_siconos: problem generation failed\n");
                return 2;
            }
            FrictionContactProblem *sp = to_siconos(p);
            if (!sp) {
                fprintf(stderr, "bench_fclib_siconos: Siconos block storage failed\n");
                return 2;
            }
            size_t ncp = p->nc;
            probnc[pi] = ncp;
            probfam[pi] = fam;
            if (pi == 0)
                for (int s = 0; s < NSOLVER; s++) {
                    int it;
                    run(s, p, sp, 1e-4, &it);
                }
            for (int s = 0; s < NSOLVER; s++)
                for (int t = 0; t < NTOL; t++) {
                    int it = 0;
                    /* the dense reference is O(m^2) or worse per sweep: only
                     * up to 200 contacts (NAN = not run) */
                    double sec = s == 0 && (ncp > 200 || !p->W) ? NAN : run(s, p, sp, tols[t], &it);
                    T[(pi * NSOLVER + s) * NTOL + t] = sec;
                    fprintf(csv, "%d,%s,%zu,%s,%g,%.6g,%d\n", pi, fam_name[fam], ncp,
                            solver_name[s], tols[t], sec, it);
                }
            double *tt = &T[pi * NSOLVER * NTOL];
            printf("%-12s %6zu %5d | %10.4g %10.4g %10.4g | %10.4g %10.4g %10.4g | %8.3g %8.3g\n",
                   fam_name[fam], ncp, rep, tt[0], tt[2], tt[4], tt[1], tt[3], tt[5], tt[1] / tt[5],
                   tt[3] / tt[5]);
            fflush(stdout);
            frictionContactProblem_free(sp);
            fl_local_problem_free(p);
            free(dc);
            fl_discs_free(discs);
            fl_discs_work_clear(&work);
        }
    fclose(csv);
    /* medians of the time ratios ours / Siconos at each tolerance */
    double *rr = malloc((size_t)nprob * sizeof *rr);
    for (int t = 0; t < NTOL; t++)
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < nprob; k++)
                rr[k] = T[(k * NSOLVER + s) * NTOL + t] / T[(k * NSOLVER + 2) * NTOL + t];
            printf("median time ratio %s/siconos at %g: %.3g\n", solver_name[s], tols[t],
                   fl_dense_median_finite(rr, nprob));
            for (int fam = 0; fam < NFAM; fam++) {
                int k2 = 0;
                for (int k = 0; k < nprob; k++)
                    if (probfam[k] == fam)
                        rr[k2++] = T[(k * NSOLVER + s) * NTOL + t] /
                                   T[(k * NSOLVER + 2) * NTOL + t];
                printf("  %s: %.3g\n", fam_name[fam], fl_dense_median_finite(rr, k2));
            }
        }
    /* Dolan–Moré profile at 1e-8: rho_s(tau) = share of problems solved
     * within tau times the best time */
    snprintf(path, sizeof path, "%s/bench_fclib_siconos_profile.csv", out);
    FILE *pf = fopen(path, "w");
    if (!pf) return 2;
    fprintf(pf, "tau,reference,optimized,siconos\n");
    for (int k = 0; k <= 200; k++) {
        double tau = pow(10.0, 3.0 * k / 200.0);
        fprintf(pf, "%.6g", tau);
        for (int s = 0; s < NSOLVER; s++) {
            int cnt = 0;
            for (int p = 0; p < nprob; p++) {
                double best = INFINITY;
                for (int z = 0; z < NSOLVER; z++) {
                    double v = T[(p * NSOLVER + z) * NTOL + 1];
                    if (isfinite(v)) best = fmin(best, v);
                }
                double v = T[(p * NSOLVER + s) * NTOL + 1];
                if (isfinite(v) && v <= tau * best) cnt++;
            }
            fprintf(pf, ",%.6g", (double)cnt / nprob);
        }
        fprintf(pf, "\n");
    }
    fclose(pf);
    FILE *g = popen("gnuplot 2>&1", "w");
    if (g) {
        fprintf(g,
                "set terminal png size 800,560\nset output '%s/bench_fclib_siconos_profile.png'\n"
                "set datafile separator ','\nset logscale x\nset key bottom right\n"
                "set xlabel 'tau (time / best time, tol 1e-8)'\nset ylabel 'share of problems'\n"
                "set yrange [0:1.05]\nset title 'Performance profile (Dolan-More): NSGS, %d problems'\n"
                "plot '%s' every ::1 using 1:2 with steps lw 2 title 'ours, reference', "
                "'' every ::1 using 1:3 with steps lw 2 title 'ours, optimized', "
                "'' every ::1 using 1:4 with steps lw 2 title 'Siconos fc2d/fc3d NSGS'\n",
                out, nprob, path);
        if (pclose(g) != 0) fprintf(stderr, "bench_fclib_siconos: gnuplot failed (CSV written)\n");
    }
    printf("wrote %s/bench_fclib_siconos.csv, %s and %s/bench_fclib_siconos_profile.png\n", out,
           path, out);
    free(rr);
    free(T);
    free(probnc);
    free(probfam);
    gsl_rng_free(rng);
    fl_sparse_finish(&ctx);
    return 0;
}
