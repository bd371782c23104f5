/* bench_lemke_siconos.c — our lexicographic Lemke (reference/lemke.c)
 * against Siconos numerics' lexicographic Lemke (SICONOS_LCP_LEMKE via
 * linearComplementarity_driver) on random LCPs of growing size.
 *
 * A separate program (bench/meson.build), not a `frictionlab bench` task:
 * Siconos is linked here and in tests only, never into the library or the
 * command.  Both answers are verified by the natural-map residual
 * (fl_lcp_residual); times are the mean over the problems of each size
 * (each solve repeated to fill ~20 ms).  Prints the ratio per size, writes
 * bench_lemke.csv and bench_lemke.png (gnuplot) to --out (default out/).
 *
 *   bench_lemke_siconos [--quick] [--out DIR] [--seed S]
 * Exit status 0 when every answer verified (ours always; Siconos when its
 * info is 0), 1 otherwise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "LinearComplementarityProblem.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

#include "fl_rng.h"
#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "testkit/fl_lcp_random.h"
#include "fl_clock.h"

/* One Siconos solve; returns info. */
static int siconos_solve(const gsl_matrix *M, const gsl_vector *q, double *z)
{
    int n = (int)q->size;
    double *Md = malloc((size_t)n * (size_t)n * sizeof *Md);
    double *qd = malloc((size_t)n * sizeof *qd), *w = calloc((size_t)n, sizeof *w);
    if (!Md || !qd || !w) {
        free(Md);
        free(qd);
        free(w);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        qd[i] = gsl_vector_get(q, (size_t)i);
        for (int j = 0; j < n; j++) Md[i + j * n] = gsl_matrix_get(M, (size_t)i, (size_t)j);
    }
    LinearComplementarityProblem *p = newLCP();
    p->size = n;
    p->M = NM_create_from_data(NM_DENSE, n, n, Md);
    p->q = qd;
    SolverOptions *o = solver_options_create(SICONOS_LCP_LEMKE);
    memset(z, 0, (size_t)n * sizeof *z);
    int info = linearComplementarity_driver(p, z, w, o);
    freeLinearComplementarityProblem(p);
    solver_options_delete(o);
    free(o);
    free(w);
    return info;
}

int main(int argc, char **argv)
{
    const char *out = "out";
    int quick = 0;
    unsigned long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_lemke_siconos [--quick] [--out DIR] [--seed S]\n");
            return 2;
        }
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench_lemke_siconos: cannot create %s\n", out);
        return 2;
    }
    char csvpath[2048], pngpath[2048];
    snprintf(csvpath, sizeof csvpath, "%s/bench_lemke.csv", out);
    snprintf(pngpath, sizeof pngpath, "%s/bench_lemke.png", out);
    FILE *csv = fopen(csvpath, "w");
    if (!csv) {
        fprintf(stderr, "bench_lemke_siconos: cannot write %s\n", csvpath);
        return 2;
    }
    fprintf(csv, "family,n,problems,ours_s,siconos_s,ratio_siconos_over_ours,ours_pivots,"
                 "siconos_failed,max_residual_ours,max_residual_siconos\n");
    gsl_rng *rng = fl_rng_alloc(seed);
    const size_t sizes[] = {5, 10, 20, 40, 80, 160, 320};
    const size_t nsizes = quick ? 4 : sizeof sizes / sizeof sizes[0];
    const char *fname[3] = {"pd", "pmatrix", "copositive_plus"};
    int bad = 0;
    printf("%-16s %5s %12s %12s %10s %8s %6s\n", "family", "n", "ours (s)", "Siconos (s)",
           "Sic/ours", "pivots", "Sfail");
    for (int fam = 0; fam < 3; fam++)
        for (size_t si = 0; si < nsizes; si++) {
            size_t n = sizes[si], problems = quick ? 3 : 8;
            double t_ours = 0, t_sic = 0, r_ours = 0, r_sic = 0, piv = 0;
            int sfail = 0;
            for (size_t k = 0; k < problems; k++) {
                gsl_matrix *M = gsl_matrix_alloc(n, n);
                gsl_vector *q = gsl_vector_alloc(n), *z = gsl_vector_alloc(n), *zs = gsl_vector_alloc(n);
                if (!M || !q || !z || !zs || fl_lcp_random(rng, (fl_lcp_family)fam, 0, M, q, NULL) != FL_OK) {
                    fprintf(stderr, "bench_lemke_siconos: out of memory drawing a %zu x %zu LCP\n", n, n);
                    return 1;
                }
                /* ours */
                int reps = 0;
                double t0 = fl_clock_now(), t1;
                fl_lemke_result lr;
                fl_status s;
                do {
                    s = fl_lemke_solve(M, q, z, NULL, NULL, &lr, NULL);
                    reps++;
                    t1 = fl_clock_now();
                } while (t1 - t0 < 0.02);
                t_ours += (t1 - t0) / reps;
                piv += (double)lr.iterations;
                double ro = fl_lcp_residual(M, q, z, NULL);
                if (s != FL_OK || !(ro <= 1e-9)) bad = 1;
                r_ours = fmax(r_ours, ro);
                /* Siconos */
                reps = 0;
                int info;
                t0 = fl_clock_now();
                do {
                    info = siconos_solve(M, q, zs->data);
                    reps++;
                    t1 = fl_clock_now();
                } while (t1 - t0 < 0.02);
                t_sic += (t1 - t0) / reps;
                double rs = fl_lcp_residual(M, q, zs, NULL);
                if (info != 0) sfail++;
                else if (!(rs <= 1e-8)) bad = 1;       /* success claimed, not verified */
                else r_sic = fmax(r_sic, rs);
                gsl_matrix_free(M);
                gsl_vector_free(q);
                gsl_vector_free(z);
                gsl_vector_free(zs);
            }
            t_ours /= (double)problems;
            t_sic /= (double)problems;
            piv /= (double)problems;
            printf("%-16s %5zu %12.3e %12.3e %10.2f %8.1f %6d\n", fname[fam], n, t_ours, t_sic,
                   t_sic / t_ours, piv, sfail);
            fprintf(csv, "%s,%zu,%zu,%.6e,%.6e,%.4f,%.1f,%d,%.3e,%.3e\n", fname[fam], n, problems,
                    t_ours, t_sic, t_sic / t_ours, piv, sfail, r_ours, r_sic);
            fflush(stdout);
        }
    fclose(csv);
    gsl_rng_free(rng);
    FILE *g = popen("gnuplot 2>&1", "w");
    if (g) {
        fprintf(g,
                "set terminal png size 900,600\nset output '%s'\nset datafile separator ','\n"
                "set logscale xy\nset xlabel 'LCP size n'\nset ylabel 'seconds per solve'\n"
                "set key top left\nset title 'Lexicographic Lemke: frictionlab vs Siconos 4.4 (random LCPs)'\n"
                "plot for [f in 'pd pmatrix copositive_plus'] '%s' using 2:(strcol(1) eq f ? $4 : 1/0) "
                "with linespoints lw 2 title 'ours '.f, "
                "for [f in 'pd pmatrix copositive_plus'] '%s' using 2:(strcol(1) eq f ? $5 : 1/0) "
                "with linespoints dt 2 title 'Siconos '.f\n",
                pngpath, csvpath, csvpath);
        if (pclose(g) != 0) fprintf(stderr, "bench_lemke_siconos: gnuplot failed (CSV written)\n");
    }
    printf("CSV %s, PNG %s\n%s\n", csvpath, pngpath,
           bad ? "FAIL: an answer did not verify" : "all answers verified");
    return bad ? 1 : 0;
}
