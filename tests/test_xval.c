/* test_xval.c — the solver cross-validation library (checks/xval.c,
 * checks/xval_families.c): family names, command quoting, the child
 * process and its time limit, the law measures and the certificate on a
 * closed-form contact, the performance profile on hand-computed times, and
 * the families' problems (sizes, W symmetric positive definite, the edge
 * cases' defining property). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/xval.h"
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_fclib.h"
#include "fl_sparse.h"
#include <gsl/gsl_rng.h>
#include <time.h>
#include <unistd.h>

Test(xval, family_parse)
{
    unsigned mask = 0;
    fl_error err;
    cr_assert_eq(fl_xval_family_parse("random,edge", &mask, NULL), FL_OK);
    cr_assert_eq(mask, (1u << FL_XVAL_RANDOM) | (1u << FL_XVAL_EDGE));
    cr_assert_eq(fl_xval_family_parse("all", &mask, NULL), FL_OK);
    cr_assert_eq(mask, 31u);
    cr_assert_eq(fl_xval_family_parse("corpus,bogus", &mask, &err), FL_ENOTFOUND);
    cr_assert(strstr(err.message, "'bogus'"), "%s", err.message);
    cr_assert_eq(fl_xval_family_parse("", &mask, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_family_parse("rand", &mask, &err), FL_ENOTFOUND);
    cr_assert_str_eq(fl_xval_family_name(FL_XVAL_DISCS), "discs");
    cr_assert_null(fl_xval_family_name(FL_XVAL_NFAMILY));
}

Test(xval, command_quoting)
{
    char buf[128];
    cr_assert_eq(fl_xval_command("solve {in} -o {out}", "/t/a'b", "/t/o", buf, sizeof buf, NULL),
                 FL_OK);
    cr_assert_str_eq(buf, "solve '/t/a'\\''b' -o '/t/o'");
    fl_error err;
    cr_assert_eq(fl_xval_command("{in}{in}{in}", "0123456789012345678901234567890123456789", "o",
                                 buf, 64, &err), FL_EINVAL);
}

Test(xval, spawn_exit_status_signal_and_time_limit)
{
    fl_xval_run run;
    cr_assert_eq(fl_xval_spawn("exit 3", 10, NULL, &run, NULL), FL_OK);
    cr_assert_eq(run.exit_code, 3);
    cr_assert_eq(run.timed_out, 0);
    cr_assert_eq(fl_xval_spawn("kill -9 $$", 10, NULL, &run, NULL), FL_OK);
    cr_assert_eq(run.exit_code, 128 + 9);
    /* a child that would run 30 s, and a grandchild of it: both killed */
    cr_assert_eq(fl_xval_spawn("sleep 30 & sleep 30", 0.3, NULL, &run, NULL), FL_OK);
    cr_assert_eq(run.timed_out, 1);
    cr_assert(run.seconds < 5, "took %g s", run.seconds);
    fl_error err;
    cr_assert_eq(fl_xval_spawn("true", 0, NULL, &run, &err), FL_EINVAL);
}

/* Dolan & Moré profile on three problems: (user, ours) times (1, 2),
 * (3, 3), (failed, 1).  rho_user(1) = 2/3 (problems 0 and 1),
 * rho_ours(1) = 2/3 (1 and 2), rho_ours(2) = 1, rho_user(1e9) = 2/3. */
Test(xval, performance_profile_by_hand)
{
    double t[6] = {1, 2, 3, 3, INFINITY, 1};
    cr_assert_float_eq(fl_xval_profile_rho(t, 3, 0, 1.0), 2.0 / 3, 1e-15);
    cr_assert_float_eq(fl_xval_profile_rho(t, 3, 1, 1.0), 2.0 / 3, 1e-15);
    cr_assert_float_eq(fl_xval_profile_rho(t, 3, 1, 1.999), 2.0 / 3, 1e-15);
    cr_assert_float_eq(fl_xval_profile_rho(t, 3, 1, 2.0), 1.0, 1e-15);
    cr_assert_float_eq(fl_xval_profile_rho(t, 3, 0, 1e9), 2.0 / 3, 1e-15);
    cr_assert(isnan(fl_xval_profile_rho(t, 0, 0, 1.0)));
}

/* One 2D contact, W = diag(2, 1), q = (-2, 0.5), mu = 1.  Sticking
 * (W r + q = 0): r = (1, -0.5), |r_T| = 0.5 <= mu r_N = 1, and it is the
 * only solution (open: U_N = -2 < 0; sliding needs U_N = 0, r_N = 1 and
 * r_T = -+1, then U_T = 0.5 -+ 1 has the wrong sign).  The wrong
 * tangential sign r = (1, 0.5) gives U = (0, 1): sliding with r_T = +0.5
 * != -mu r_N = -1, a violation of 1.5 impulse scales. */
static fl_local_problem *stick_contact(void)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set(p->W, 0, 0, 2);
    gsl_matrix_set(p->W, 1, 1, 1);
    gsl_vector_set(p->q, 0, -2);
    gsl_vector_set(p->q, 1, 0.5);
    p->mu[0] = 1;
    return p;
}

/* q at round-off level (||q|| = 1e-18 <= DBL_EPSILON, as in the corpus's
 * fc2d_granularflowonwall_00667): no scale, the law is measured in absolute
 * units like the natural-map error.  W = I, q = (1e-18, 0): r = 0 is the
 * solution; r = (1e-22, 0) is it up to round-off (U_N = 1e-18 + 1e-22,
 * complementarity min(r_N, U_N) = 1e-22); r = (1, 0) is wrong (U_N = 1 > 0
 * with r_N = 1 > 0: complementarity violated by min(1, 1) = 1). */
Test(xval, law_at_roundoff_q_is_absolute)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    gsl_matrix_set(p->W, 0, 0, 1);
    gsl_matrix_set(p->W, 1, 1, 1);
    gsl_vector_set(p->q, 0, 1e-18);
    p->mu[0] = 0.5;
    fl_xval_law law;
    double near[2] = {1e-22, 0}, wrong[2] = {1, 0};
    cr_assert_eq(fl_xval_law_measure(p, near, &law, NULL), FL_OK);
    cr_assert(law.complementarity < 1e-20 && law.coulomb < 1e-20, "complementarity %g",
              law.complementarity);
    cr_assert_eq(fl_xval_law_measure(p, wrong, &law, NULL), FL_OK);
    cr_assert_float_eq(law.complementarity, 1.0, 1e-12);
    fl_local_problem_free(p);
}

Test(xval, law_and_certificate_closed_form)
{
    fl_local_problem *p = stick_contact();
    fl_xval_certificate c;
    cr_assert_eq(fl_xval_certify(p, &c, NULL), FL_OK);
    cr_assert_eq(c.method, FL_XVAL_ENUMERATION);
    cr_assert_eq(c.unique, 1);
    cr_assert_float_eq(c.r[0], 1.0, 1e-12);
    cr_assert_float_eq(c.r[1], -0.5, 1e-12);
    fl_xval_law law;
    cr_assert_eq(fl_xval_law_measure(p, c.r, &law, NULL), FL_OK);
    cr_assert(law.error < 1e-12 && law.cone < 1e-12 && law.coulomb < 1e-12);
    double wrong[2] = {1, 0.5};
    cr_assert_eq(fl_xval_law_measure(p, wrong, &law, NULL), FL_OK);
    cr_assert_float_eq(law.cone, 0.0, 1e-15);
    cr_assert(law.error > 0.1, "natural-map error %g", law.error);
    /* us = |q| = sqrt(4.25), rs_0 = us / 2; the slide term
     * min(|U_T|/us, |r_T + mu r_N|/rs_0) = min(1/us, 1.5 * 2/us) = 1/us */
    cr_assert_float_eq(law.coulomb, 1 / sqrt(4.25), 1e-12);
    fl_xval_certificate_clear(&c);
    fl_local_problem_free(p);
}

Test(xval, check_reports_a_missing_solution_and_a_timeout)
{
    fl_local_problem *p = stick_contact();
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    snprintf(c.name, sizeof c.name, "closed_form");
    fl_xval_certificate cert;
    cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
    fl_xval_options o = fl_xval_options_default();
    char dir[] = "/tmp/test_xval_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/in.hdf5", dir);
    snprintf(out, sizeof out, "%s/out.hdf5", dir);
    fl_xval_result res;
    cr_assert_eq(fl_xval_check(&c, &cert, "cp {in} {out}", in, out, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert_eq(res.have_solution, 0);
    cr_assert(strstr(res.reason, "no solution read"), "%s", res.reason);
    o.timeout = 0.3;
    cr_assert_eq(fl_xval_check(&c, &cert, "sleep 20; cp {in} {out}", in, out, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert_eq(res.run.timed_out, 1);
    cr_assert(strstr(res.reason, "timed out"), "%s", res.reason);
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_assert_eq(system(rm), 0);
    fl_xval_certificate_clear(&cert);
    fl_xval_case_clear(&c);
}

/* In-process solvers for fl_xval_check_fn on stick_contact (W = diag(2, 1),
 * q = (-2, 0.5), mu = 1: U_N = 2 r_N - 2 = 0 gives r_N = 1; sticking needs
 * r_T = -0.5, inside |r_T| <= 1: the unique solution (1, -0.5)). */
static int exact_fn(const fl_local_problem *p, double *r, double *u, void *user, char *msg,
                    size_t len)
{
    (void)p, (void)u, (void)msg, (void)len;
    const double *a = user;
    r[0] = a[0];
    r[1] = a[1];
    return 0;
}

static int failing_fn(const fl_local_problem *p, double *r, double *u, void *user, char *msg,
                      size_t len)
{
    (void)p, (void)r, (void)u, (void)user;
    snprintf(msg, len, "no idea");
    return 3;
}

static int slow_fn(const fl_local_problem *p, double *r, double *u, void *user, char *msg,
                   size_t len)
{
    struct timespec ts = {0, 20000000};   /* 20 ms */
    nanosleep(&ts, NULL);
    return exact_fn(p, r, u, user, msg, len);
}

/* The exact r = (1, -0.5) of stick_contact with the u given in user:
 * U = W r + q = (2 - 2, -0.5 + 0.5) = (0, 0) is right, the stale q (the
 * velocity before the impulse, (-2, 0.5)) is wrong. */
static int with_u_fn(const fl_local_problem *p, double *r, double *u, void *user, char *msg,
                     size_t len)
{
    (void)p, (void)msg, (void)len;
    const double *given = user;
    r[0] = 1;
    r[1] = -0.5;
    u[0] = given[0];
    u[1] = given[1];
    return 0;
}

/* The verdicts of fl_xval_check_fn: the exact answer passes at distance 0,
 * a wrong one fails on the law (the judge shared with the command path), a
 * failing call and a call over the time limit fail with their reasons, NULL
 * arguments are refused. */
Test(xval, check_fn_in_process_verdicts)
{
    fl_local_problem *p = stick_contact();
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    snprintf(c.name, sizeof c.name, "closed_form");
    fl_xval_certificate cert;
    cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
    cr_assert_eq(cert.unique, 1);
    fl_xval_options o = fl_xval_options_default();
    fl_xval_result res;
    double exact[2] = {1, -0.5}, wrong[2] = {1, 0.5};
    cr_assert_eq(fl_xval_check_fn(&c, &cert, exact_fn, exact, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 1, "%s", res.reason);
    cr_assert_eq(res.run.exit_code, 0);
    cr_assert_float_eq(res.dist, 0.0, 1e-15);
    cr_assert_eq(fl_xval_check_fn(&c, &cert, exact_fn, wrong, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert(strstr(res.reason, "natural-map error"), "%s", res.reason);
    cr_assert(strstr(res.reason, "distance"), "%s", res.reason);
    cr_assert_eq(fl_xval_check_fn(&c, &cert, failing_fn, NULL, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert_eq(res.run.exit_code, 3);
    cr_assert(strstr(res.reason, "returned 3): no idea"), "%s", res.reason);
    o.timeout = 0.005;
    cr_assert_eq(fl_xval_check_fn(&c, &cert, slow_fn, exact, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert_eq(res.run.timed_out, 1);
    cr_assert(strstr(res.reason, "over the time limit"), "%s", res.reason);
    fl_error err;
    cr_assert_eq(fl_xval_check_fn(&c, &cert, NULL, NULL, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check_fn(NULL, &cert, exact_fn, exact, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check_fn(&c, NULL, exact_fn, exact, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check_fn(&c, &cert, exact_fn, exact, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check_fn(&c, &cert, exact_fn, exact, &o, NULL, &err), FL_EINVAL);
    fl_xval_certificate_clear(&cert);
    fl_xval_case_clear(&c);
}

/* W symmetric positive definite: Cholesky of the dense W succeeds. */
static int spd(const fl_local_problem *p)
{
    fl_spd *s = NULL;
    int ok = fl_spd_alloc(p->W, &s, NULL) == FL_OK;
    fl_spd_free(s);
    return ok && fl_local_problem_check(p, NULL) == FL_OK;
}

Test(xval, families_build_their_problems)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_xval_options o = fl_xval_options_default();
    const fl_xval_family fams[3] = {FL_XVAL_RANDOM, FL_XVAL_FEBLOCK, FL_XVAL_DISCS};
    for (int f = 0; f < 3; f++) {
        size_t n = 0;
        cr_assert_eq(fl_xval_family_count(fams[f], &o, &n, NULL), FL_OK);
        cr_assert(n >= 3);
        for (size_t k = 0; k < n; k++) {
            fl_xval_case c;
            cr_assert_eq(fl_xval_case_make(fams[f], k, &o, &ctx, &c, NULL), FL_OK);
            cr_assert_not_null(c.p, "%s: %s", c.name, c.error);
            cr_assert_not_null(c.p->Ws, "%s", c.name);
            /* random (block-triangular H) and FE blocks (A SPD, distinct unit
             * rows): W SPD; disc-like packings: W = H H^T symmetric, possibly
             * singular (more contact unknowns than a body cluster's dofs) */
            if (fams[f] == FL_XVAL_DISCS)
                cr_assert_eq(fl_local_problem_check(c.p, NULL), FL_OK, "%s", c.name);
            else
                cr_assert(spd(c.p), "%s: W not SPD", c.name);
            fl_xval_case_clear(&c);
        }
    }
    /* the random ladder grows to 1000 contacts in the full variant */
    o.full = 1;
    size_t n = 0, biggest = 0;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_RANDOM, &o, &n, NULL), FL_OK);
    fl_xval_case c;
    cr_assert_eq(fl_xval_case_make(FL_XVAL_RANDOM, n - 1, &o, &ctx, &c, NULL), FL_OK);
    biggest = c.p->nc;
    fl_xval_case_clear(&c);
    cr_assert_eq(biggest, 1000);
    fl_error err;
    cr_assert_eq(fl_xval_case_make(FL_XVAL_RANDOM, n, &o, &ctx, &c, &err), FL_EINVAL);
    fl_sparse_finish(&ctx);
}

Test(xval, edge_cases_have_their_defining_property)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_xval_options o = fl_xval_options_default();
    size_t n = 0;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_EDGE, &o, &n, NULL), FL_OK);
    cr_assert_eq(n, 11);
    int seen = 0;
    for (size_t k = 0; k < n; k++) {
        fl_xval_case c;
        cr_assert_eq(fl_xval_case_make(FL_XVAL_EDGE, k, &o, &ctx, &c, NULL), FL_OK);
        const fl_local_problem *p = c.p;
        if (strstr(c.name, "zero_contacts")) {
            /* today the local problem type refuses nc = 0: the harness
             * must say so (a failure), not skip it */
            if (!p) cr_assert(strstr(c.error, "0 contacts"), "%s", c.error);
            else cr_assert_eq(p->nc, 0);
            seen |= 1;
        } else if (strstr(c.name, "mu0")) {
            for (size_t a = 0; a < p->nc; a++) cr_assert_eq(p->mu[a], 0.0);
            fl_xval_certificate cert;
            cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
            cr_assert_eq(cert.unique, 1, "%s: %s", c.name, cert.note);
            fl_xval_certificate_clear(&cert);
            seen |= 2;
        } else if (strstr(c.name, "mu_large")) {
            for (size_t a = 0; a < p->nc; a++) cr_assert_eq(p->mu[a], 1e3);
            seen |= 4;
        } else if (strstr(c.name, "nonsymmetric")) {
            double asym = 0;
            for (size_t i = 0; i < p->m; i++)
                for (size_t j = 0; j < p->m; j++)
                    asym = fmax(asym, fabs(gsl_matrix_get(p->W, i, j) - gsl_matrix_get(p->W, j, i)));
            cr_assert(asym > 1e-3, "asymmetry %g", asym);
            seen |= 8;
        } else if (strstr(c.name, "rank_deficient")) {
            /* twin contacts 1 and 2: equal rows, W singular */
            for (size_t j = 0; j < p->m; j++) {
                cr_assert_eq(gsl_matrix_get(p->W, 2, j), gsl_matrix_get(p->W, 4, j));
                cr_assert_eq(gsl_matrix_get(p->W, 3, j), gsl_matrix_get(p->W, 5, j));
            }
            fl_xval_certificate cert;
            cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
            cr_assert_eq(cert.unique, 0, "%s", cert.note);
            fl_xval_certificate_clear(&cert);
            seen |= 16;
        } else if (strstr(c.name, "badly_scaled")) {
            double lo = INFINITY, hi = 0;
            for (size_t i = 0; i < p->m; i++) {
                lo = fmin(lo, gsl_matrix_get(p->W, i, i));
                hi = fmax(hi, gsl_matrix_get(p->W, i, i));
            }
            cr_assert(hi / lo > 1e5, "%s: diagonal spread %g", c.name, hi / lo);
            seen |= 32;
        } else if (strstr(c.name, "grazing")) {
            double nq = gsl_blas_dnrm2(p->q);
            cr_assert(gsl_vector_get(p->q, 0) < 0 && gsl_vector_get(p->q, 0) > -1e-8 * nq);
            seen |= 64;
        }
        fl_xval_case_clear(&c);
    }
    cr_assert_eq(seen, 127);
    fl_sparse_finish(&ctx);
}

/* The corpus family draws the rows of tests/data/siconos/sizes.tsv (sizes
 * as Siconos's own readers report them): 25 real problems with --full, the
 * 20 of at most 100 contacts without; never a bad_* fixture.  Every problem
 * is read, a global one reduced to its local problem (the contact count
 * of the manifest, 0 for the contact-free gfc2d step). */
Test(xval, corpus_family_lists_the_manifest, .timeout = 120)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/data/siconos", root);
    fl_xval_options o = fl_xval_options_default();
    o.corpus_dir = dir;
    size_t n = 0;
    o.full = 1;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, NULL), FL_OK);
    cr_assert_eq(n, 25, "%zu files", n);
    o.full = 0;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, NULL), FL_OK);
    cr_assert_eq(n, 20, "%zu files", n);
    static const struct { const char *name; size_t nc; } want[] = {
        {"corpus.GFC3D_TwoRods1.dat", 3},         {"corpus.gfc2d_granularflowonwall_00000_00117.dat", 0},
        {"corpus.Box_Stacks-i0122-82-5.hdf5", 82}, {"corpus.CubeH8.hdf5", 1},
        {"corpus.NESpheres_10_1.dat", 9}};
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    int seen = 0;
    for (size_t k = 0; k < n; k++) {
        fl_xval_case c;
        cr_assert_eq(fl_xval_case_make(FL_XVAL_CORPUS, k, &o, &ctx, &c, NULL), FL_OK);
        cr_assert(strncmp(c.name, "corpus.bad_", 11) != 0, "%s", c.name);
        cr_assert_not_null(c.p, "%s: %s", c.name, c.error);
        for (size_t i = 0; i < sizeof want / sizeof *want; i++)
            if (strcmp(c.name, want[i].name) == 0) {
                cr_assert_eq(c.p->nc, want[i].nc, "%s: nc %zu", c.name, c.p->nc);
                seen |= 1 << i;
            }
        fl_xval_case_clear(&c);
    }
    cr_assert_eq(seen, 31);
    fl_sparse_finish(&ctx);
    o.corpus_dir = "/nonexistent-dir";
    fl_error err;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_EIO);
    cr_assert(strstr(err.message, "/nonexistent-dir"));
}

/* The command fits its buffer exactly when the buffer holds it and its NUL:
 * every shorter buffer is refused (never a cut command), every longer one
 * gives the same text.  Expected text written by hand: ' quoted as '\''. */
Test(xval, command_every_buffer_length)
{
    const char *want = "solve '/t/a'\\''b' -o '/t/o' && echo done";
    size_t n = strlen(want);
    char buf[128];
    for (size_t len = 1; len <= n + 4; len++) {
        fl_error e;
        fl_error_clear(&e);
        memset(buf, 'z', sizeof buf);
        fl_status s = fl_xval_command("solve {in} -o {out} && echo done", "/t/a'b", "/t/o", buf,
                                      len, &e);
        if (len > n) {
            cr_assert_eq(s, FL_OK, "len %zu: %s", len, e.message);
            cr_assert_str_eq(buf, want);
        } else {
            cr_assert_eq(s, FL_EINVAL, "len %zu: a command of %zu bytes accepted", len, n);
            cr_assert(strstr(e.message, "longer than"), "len %zu: %s", len, e.message);
        }
    }
    cr_assert_eq(fl_xval_command(NULL, "a", "b", buf, sizeof buf, NULL), FL_EINVAL);
    cr_assert_eq(fl_xval_command("x", "a", "b", buf, 0, NULL), FL_EINVAL);
}

/* The child's stdout and stderr go to the log; an unwritable log sends
 * them nowhere, and the command still runs. */
Test(xval, spawn_output_goes_to_the_log)
{
    char log[64];
    snprintf(log, sizeof log, "/tmp/fl_xval_log_%d", (int)getpid());
    fl_xval_run run;
    cr_assert_eq(fl_xval_spawn("echo to-out; echo to-err >&2; exit 4", 10, log, &run, NULL),
                 FL_OK);
    cr_assert_eq(run.exit_code, 4);
    FILE *f = fopen(log, "r");
    cr_assert_not_null(f);
    char text[256] = "";
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    remove(log);
    cr_assert(strstr(text, "to-out") && strstr(text, "to-err"), "log holds '%s'", text);
    cr_assert_eq(fl_xval_spawn("exit 5", 10, "/nonexistent-dir/log", &run, NULL), FL_OK);
    cr_assert_eq(run.exit_code, 5);
}

/* The law measures read W's diagonal from the dense W or, when a problem
 * holds only the sparse one, from it: the same numbers either way. */
Test(xval, law_measure_sparse_only_problem)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 17);
    for (int dim = 2; dim <= 3; dim++) {
        fl_local_problem *p = NULL;
        cr_assert_eq(fl_local_problem_alloc(3, dim, 1, &p, NULL), FL_OK);
        for (size_t i = 0; i < p->m; i++) {
            gsl_matrix_set(p->W, i, i, 1.0 + (double)i);
            gsl_vector_set(p->q, i, gsl_rng_uniform(rng) - 0.5);
        }
        gsl_matrix_set(p->W, 0, 2, 0.25);
        gsl_matrix_set(p->W, 2, 0, 0.25);
        for (size_t a = 0; a < 3; a++) p->mu[a] = 0.2 + 0.3 * (double)a;
        p->ctx = &ctx;
        cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
        double r[9];
        for (size_t i = 0; i < p->m; i++) r[i] = gsl_rng_uniform(rng);
        fl_xval_law a, b;
        cr_assert_eq(fl_xval_law_measure(p, r, &a, NULL), FL_OK);
        gsl_matrix *W = p->W;
        p->W = NULL;
        cr_assert_eq(fl_xval_law_measure(p, r, &b, NULL), FL_OK);
        p->W = W;
        cr_assert_float_eq(a.error, b.error, 1e-14);
        cr_assert_float_eq(a.cone, b.cone, 1e-14);
        cr_assert_float_eq(a.complementarity, b.complementarity, 1e-14);
        cr_assert_float_eq(a.coulomb, b.coulomb, 1e-14);
        fl_local_problem_free(p);
    }
    gsl_rng_free(rng);
    fl_sparse_finish(&ctx);
}

/* W = I of nc contacts in dimension dim, q_N = -1, q_T = 0: every contact
 * closes with r = (1, 0[, 0]) and U = 0, whatever mu (the stick reaction 0
 * lies in every cone). */
static fl_local_problem *closing_contacts(size_t nc, int dim, double mu)
{
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_local_problem_alloc(nc, dim, 1, &p, NULL), FL_OK);
    gsl_matrix_set_identity(p->W);
    for (size_t a = 0; a < nc; a++) {
        gsl_vector_set(p->q, a * (size_t)dim, -1.0);
        p->mu[a] = mu;
    }
    return p;
}

static void expect_closing_answer(const fl_local_problem *p, const double *r)
{
    for (size_t i = 0; i < p->m; i++)
        cr_assert(fabs(r[i] - (i % (size_t)p->dim == 0 ? 1.0 : 0.0)) <= 1e-9, "r[%zu] = %g", i, r[i]);
}

/* How each problem is certified (checks/xval.h): enumeration in 2D up to
 * FL_XVAL_ENUM_MAX contacts, else our solver at 1e-10, unique only for
 * mu = 0 with a dense SPD W; an unsolvable problem certifies nothing, and a
 * problem our solver refuses has no certified answer. */
Test(xval, certificates_of_every_kind)
{
    fl_xval_certificate c;
    fl_error err;
    cr_assert_eq(fl_xval_certify(NULL, &c, &err), FL_EINVAL);
    fl_xval_certificate_clear(NULL);
    /* 3D, mu = 0, W = I: our solver, unique */
    fl_local_problem *p = closing_contacts(2, 3, 0.0);
    cr_assert_eq(fl_xval_certify(p, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_certify(p, &c, &err), FL_OK, "%s", err.message);
    cr_assert_eq(c.method, FL_XVAL_SOLVER);
    cr_assert_eq(c.unique, 1, "%s", c.note);
    cr_assert(strstr(c.note, "unique (mu = 0, W SPD)"), "%s", c.note);
    expect_closing_answer(p, c.r);
    fl_xval_certificate_clear(&c);
    /* the same with only the sparse W: uniqueness not decided */
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    p->ctx = &ctx;
    cr_assert_eq(fl_sparse_from_dense(&ctx, p->W, 0, 0.0, &p->Ws, NULL), FL_OK);
    gsl_matrix *W = p->W;
    p->W = NULL;
    cr_assert_eq(fl_xval_certify(p, &c, &err), FL_OK, "%s", err.message);
    cr_assert_eq(c.method, FL_XVAL_SOLVER);
    cr_assert_eq(c.unique, 0);
    cr_assert(strstr(c.note, "uniqueness not decided, law only"), "%s", c.note);
    expect_closing_answer(p, c.r);
    fl_xval_certificate_clear(&c);
    p->W = W;
    fl_local_problem_free(p);
    fl_sparse_finish(&ctx);
    /* 2D with more contacts than enumeration takes */
    p = closing_contacts(FL_XVAL_ENUM_MAX + 1, 2, 0.5);
    cr_assert_eq(fl_xval_certify(p, &c, &err), FL_OK, "%s", err.message);
    cr_assert_eq(c.method, FL_XVAL_SOLVER);
    cr_assert_eq(c.unique, 0);
    expect_closing_answer(p, c.r);
    fl_xval_certificate_clear(&c);
    fl_local_problem_free(p);
    /* 2D, W = 0, q_N = -1: U_N = -1 for every r, no solution; enumeration
     * finds none and our solver refuses the problem before any sweep,
     * naming the contact (proofs/degenerate-problems.md): no certified
     * answer, law only */
    p = closing_contacts(1, 2, 0.5);
    gsl_matrix_set_zero(p->W);
    cr_assert_eq(fl_xval_certify(p, &c, &err), FL_OK, "%s", err.message);
    cr_assert_eq(c.method, FL_XVAL_NONE);
    cr_assert_eq(c.unique, 0);
    cr_assert(strstr(c.note, "our solver refused") && strstr(c.note, "contact 0"), "%s", c.note);
    fl_xval_certificate_clear(&c);
    fl_local_problem_free(p);
    /* 3D with a negative mu: refused by our solver, no certified answer */
    p = closing_contacts(1, 3, 0.5);
    p->mu[0] = -1;
    cr_assert_eq(fl_xval_certify(p, &c, &err), FL_OK, "%s", err.message);
    cr_assert_eq(c.method, FL_XVAL_NONE);
    cr_assert_null(c.r);
    cr_assert(strstr(c.note, "our solver refused") && strstr(c.note, "mu[0] = -1"), "%s", c.note);
    fl_xval_certificate_clear(&c);
    fl_local_problem_free(p);
}

/* The law's own refusals, and a contact whose block of W is zero: its
 * impulse scale falls back to the problem's (rs = us / max diag W). */
Test(xval, law_refusals_and_a_zero_block)
{
    fl_local_problem *p = closing_contacts(2, 2, 0.5);
    gsl_matrix_set(p->W, 2, 2, 0.0);
    gsl_matrix_set(p->W, 3, 3, 0.0);
    gsl_vector_set(p->q, 2, 0.0);   /* contact 1 open: U = 0, r = 0 */
    double r[4] = {1, 0, 0, 0};
    fl_xval_law law;
    fl_error err;
    cr_assert_eq(fl_xval_law_measure(p, r, &law, &err), FL_OK, "%s", err.message);
    cr_assert_eq(law.cone, 0.0);
    cr_assert_eq(law.complementarity, 0.0);
    cr_assert_eq(law.coulomb, 0.0);
    /* r_T of contact 1 = 1 with r_N = 0: outside its cone by 1 / rs, rs =
     * us / max diag W = ||q|| / 1 = 1 */
    r[3] = 1.0;
    cr_assert_eq(fl_xval_law_measure(p, r, &law, &err), FL_OK, "%s", err.message);
    cr_assert_float_eq(law.cone, 1.0, 1e-15);
    cr_assert_eq(fl_xval_law_measure(NULL, r, &law, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_law_measure(p, NULL, &law, &err), FL_EINVAL);
    gsl_matrix *W = p->W;
    p->W = NULL;
    cr_assert_eq(fl_xval_law_measure(p, r, &law, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "W missing"), "%s", err.message);
    p->W = W;
    char buf[16];
    cr_assert_eq(fl_xval_command("x {in}", "a", "b", buf, 0, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_command(NULL, "a", "b", buf, sizeof buf, &err), FL_EINVAL);
    fl_xval_options o = fl_xval_options_default();
    fl_xval_result res;
    fl_xval_certificate c;
    memset(&c, 0, sizeof c);
    fl_xval_case k;
    memset(&k, 0, sizeof k);
    cr_assert_eq(fl_xval_check(&k, &c, "true", "/tmp/a", "/tmp/b", &o, &res, &err), FL_EINVAL);
    cr_assert(strstr(err.message, "xval check: NULL argument"), "%s", err.message);
    fl_local_problem_free(p);
}

/* Dolan & Moré, Math. Program. 91 (2002), eq. (1)-(2), by hand on the
 * degenerate times: (NaN, 1) counts as a failure of the user's solver;
 * (2, Inf) as one of ours; (0, 0) solves both instantly: ratio 1 for each;
 * (0, 3): best 0, the user's 0 has ratio 1 and ours is infinitely slower
 * (never within tau).  Over 4 problems: rho_user(1) = 3/4 (problems 1, 2,
 * 3), rho_ours(1) = 2/4 (problems 0, where fmin ignores the NaN, and 2),
 * still 2/4 at tau = 1e300.  An s other than 0 or 1 has no profile. */
Test(xval, performance_profile_degenerate_times)
{
    double t[8] = {NAN, 1, 2, INFINITY, 0, 0, 0, 3};
    cr_assert_float_eq(fl_xval_profile_rho(t, 4, 0, 1.0), 3.0 / 4, 1e-15);
    cr_assert_float_eq(fl_xval_profile_rho(t, 4, 1, 1.0), 2.0 / 4, 1e-15);
    cr_assert_float_eq(fl_xval_profile_rho(t, 4, 1, 1e300), 2.0 / 4, 1e-15);
    cr_assert(isnan(fl_xval_profile_rho(t, 4, 2, 1.0)));
}

/* Every NULL argument of the law, the command builder, the spawner and the
 * check is refused with FL_EINVAL. */
Test(xval, null_arguments_refused)
{
    fl_local_problem *p = stick_contact();
    double r[2] = {1, -0.5};
    fl_xval_law law;
    fl_error err;
    cr_assert_eq(fl_xval_law_measure(p, r, NULL, &err), FL_EINVAL);
    char buf[64];
    cr_assert_eq(fl_xval_command("x", NULL, "b", buf, sizeof buf, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_command("x", "a", NULL, buf, sizeof buf, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_command("x", "a", "b", NULL, sizeof buf, &err), FL_EINVAL);
    fl_xval_run run;
    cr_assert_eq(fl_xval_spawn(NULL, 10, NULL, &run, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_spawn("true", 10, NULL, NULL, &err), FL_EINVAL);
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    fl_xval_certificate cert;
    memset(&cert, 0, sizeof cert);
    fl_xval_options o = fl_xval_options_default();
    fl_xval_result res;
    const char *in = "/tmp/in.hdf5", *out = "/tmp/out.hdf5";
    cr_assert_eq(fl_xval_check(NULL, &cert, "true", in, out, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check(&c, NULL, "true", in, out, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check(&c, &cert, NULL, in, out, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check(&c, &cert, "true", NULL, out, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check(&c, &cert, "true", in, NULL, &o, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check(&c, &cert, "true", in, out, NULL, &res, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_check(&c, &cert, "true", in, out, &o, NULL, &err), FL_EINVAL);
    (void)law;
    fl_local_problem_free(p);
}

/* The check's early exits, each with its reason: the problem cannot be
 * written (a directory that does not exist), the command template is too
 * long for the buffer. */
Test(xval, check_reasons_before_the_solver_runs)
{
    fl_local_problem *p = stick_contact();
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    fl_xval_certificate cert;
    fl_error err;
    cr_assert_eq(fl_xval_certify(p, &cert, &err), FL_OK);
    fl_xval_options o = fl_xval_options_default();
    fl_xval_result res;
    cr_assert_eq(fl_xval_check(&c, &cert, "true {in} {out}", "/nonexistent-dir/in.hdf5",
                               "/nonexistent-dir/out.hdf5", &o, &res, &err), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert(strstr(res.reason, "could not write the problem to /nonexistent-dir/in.hdf5"), "%s",
              res.reason);
    char in[64], out[64];
    snprintf(in, sizeof in, "/tmp/fl_xval_in_%d.hdf5", (int)getpid());
    snprintf(out, sizeof out, "/tmp/fl_xval_out_%d.hdf5", (int)getpid());
    static char huge[9000];
    memset(huge, 'x', sizeof huge - 1);
    cr_assert_eq(fl_xval_check(&c, &cert, huge, in, out, &o, &res, &err), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert(strstr(res.reason, "xval command"), "%s", res.reason);
    remove(in);
    fl_xval_certificate_clear(&cert);
    fl_local_problem_free(p);
}

/* A "solver" that copies a prepared FCLIB file (the problem and a chosen
 * r) to {out}: the check's verdict on the closed-form stick contact.  The
 * exact r = (1, -0.5) passes at distance 0 from the unique certified
 * answer; r = (1, +0.5) fails by its natural-map error, the stick/slide law
 * and its distance |0.5 - (-0.5)| = 1 over max(max|r|, rs) = rs = ||q|| /
 * max W_ii = sqrt(4.25) / 2, i.e. 2 / sqrt(4.25) = 0.970; the right r
 * with exit status 3 fails by the status alone; a solution of a problem
 * with two contacts has the wrong size. */
Test(xval, check_verdicts_on_prepared_solutions)
{
    fl_local_problem *p = stick_contact();
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    fl_xval_certificate cert;
    cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
    cr_assert_eq(cert.unique, 1);
    fl_xval_options o = fl_xval_options_default();
    char dir[] = "/tmp/test_xval_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char in[128], out[128], tmpl[128], cmd[400];
    snprintf(in, sizeof in, "%s/in.hdf5", dir);
    snprintf(out, sizeof out, "%s/out.hdf5", dir);
    snprintf(tmpl, sizeof tmpl, "%s/prepared.hdf5", dir);
    fl_error err;
    fl_fclib_solution *s = NULL;
    cr_assert_eq(fl_fclib_solution_alloc(0, 2, &s, NULL), FL_OK);
    fl_xval_result res;
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(fl_fclib_write_local(tmpl, p, NULL, &err), FL_OK, "%s", err.message);
        s->r[0] = 1.0;
        s->r[1] = k == 1 ? 0.5 : -0.5;
        cr_assert_eq(fl_fclib_write_solution(tmpl, s, &err), FL_OK, "%s", err.message);
        snprintf(cmd, sizeof cmd, "cp '%s' {out}%s", tmpl, k == 2 ? "; exit 3" : "");
        cr_assert_eq(fl_xval_check(&c, &cert, cmd, in, out, &o, &res, &err), FL_OK, "%s", err.message);
        cr_assert_eq(res.have_solution, 1, "case %d: %s", k, res.reason);
        if (k == 0) {
            cr_assert_eq(res.pass, 1, "%s", res.reason);
            cr_assert_float_eq(res.dist, 0.0, 1e-12);
        } else if (k == 1) {
            cr_assert_eq(res.pass, 0);
            cr_assert_float_eq(res.dist, 2.0 / sqrt(4.25), 1e-12);
            cr_assert(strstr(res.reason, "natural-map error") &&
                      strstr(res.reason, "Coulomb law (stick/slide) violated") &&
                      strstr(res.reason, "distance 9.70e-01 to the unique solution"), "%s",
                      res.reason);
        } else {
            cr_assert_eq(res.pass, 0);
            cr_assert_eq(res.run.exit_code, 3);
            cr_assert_str_eq(res.reason, "exit status 3");
        }
    }
    fl_fclib_solution_free(s);
    /* the solution of another problem (two contacts, m = 4) */
    fl_local_problem *p2 = NULL;
    cr_assert_eq(fl_local_problem_alloc(2, 2, 1, &p2, NULL), FL_OK);
    gsl_matrix_set_identity(p2->W);
    cr_assert_eq(fl_fclib_write_local(tmpl, p2, NULL, &err), FL_OK, "%s", err.message);
    cr_assert_eq(fl_fclib_solution_alloc(0, 4, &s, NULL), FL_OK);
    cr_assert_eq(fl_fclib_write_solution(tmpl, s, &err), FL_OK, "%s", err.message);
    snprintf(cmd, sizeof cmd, "cp '%s' {out}", tmpl);
    cr_assert_eq(fl_xval_check(&c, &cert, cmd, in, out, &o, &res, &err), FL_OK);
    cr_assert_eq(res.have_solution, 0);
    cr_assert(strstr(res.reason, "wrong size"), "%s", res.reason);
    fl_fclib_solution_free(s);
    fl_local_problem_free(p2);
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_assert_eq(system(rm), 0);
    fl_xval_certificate_clear(&cert);
    fl_local_problem_free(p);
}

/* Every part of an answer checked, in-process: the right r with its
 * right u (0, 0) passes; the right r with the stale u = q = (-2, 0.5)
 * fails, naming u, the relative gap |u - (W r + q)|_inf / max(|W r|, |q|)
 * = 2 / 2 = 1 and contact 0, although r alone would pass. */
Test(xval, check_fn_stale_u_fails)
{
    fl_local_problem *p = stick_contact();
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    snprintf(c.name, sizeof c.name, "closed_form");
    fl_xval_certificate cert;
    cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
    fl_xval_options o = fl_xval_options_default();
    fl_xval_result res;
    double right[2] = {0, 0}, stale[2] = {-2, 0.5}, off[2] = {0, 1e-6};
    cr_assert_eq(fl_xval_check_fn(&c, &cert, with_u_fn, right, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 1, "%s", res.reason);
    cr_assert_eq(res.parts_agree, 1);
    cr_assert_eq(fl_xval_check_fn(&c, &cert, with_u_fn, stale, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert_eq(res.parts_agree, 0);
    cr_assert(strstr(res.reason, "u differs from W r + q by 1.00e+00 (relative) at contact 0"),
              "%s", res.reason);
    cr_assert_null(strstr(res.reason, "natural-map"), "%s", res.reason);   /* r itself is right */
    /* 1e-6 / 2 = 5e-7 relative: over parts_tol 1e-8 */
    cr_assert_eq(fl_xval_check_fn(&c, &cert, with_u_fn, off, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert(strstr(res.reason, "u differs from W r + q by 5.00e-07"), "%s", res.reason);
    fl_xval_certificate_clear(&cert);
    fl_xval_case_clear(&c);
}

/* The global parts, by hand: n = 2, one 2D contact, M = 2 I, H = I, f =
 * (1, 0), w = 0; its Delassus problem W = H M^-1 H^T = I/2, q = H M^-1 f
 * + w = (0.5, 0).  For r = (1, 0.3): v = M^-1 (H^T r + f) = (1, 0.15),
 * u = H v + w = (1, 0.15) = W r + q.  A wrong v or u is named. */
Test(xval, parts_check_global_by_hand)
{
    fl_global_problem *g = NULL;
    fl_local_problem *p = NULL;
    cr_assert_eq(fl_global_problem_alloc(2, 1, 2, 1, &g, NULL), FL_OK);
    cr_assert_eq(fl_local_problem_alloc(1, 2, 1, &p, NULL), FL_OK);
    for (int i = 0; i < 2; i++) {
        gsl_matrix_set(g->M, i, i, 2);
        gsl_matrix_set(g->H, i, i, 1);
        gsl_matrix_set(p->W, i, i, 0.5);
    }
    gsl_vector_set(g->f, 0, 1);
    gsl_vector_set(p->q, 0, 0.5);
    g->mu[0] = p->mu[0] = 0.5;
    double r[2] = {1, 0.3}, v[2] = {1, 0.15}, u[2] = {1, 0.15};
    double badv[2] = {1, 0.25}, badu[2] = {1, 0.15 + 1e-3};
    char why[256];
    int agree = -1;
    cr_assert_eq(fl_xval_parts_check(p, g, r, u, v, 1e-8, &agree, why, sizeof why, NULL), FL_OK);
    cr_assert_eq(agree, 1, "%s", why);
    cr_assert_eq(fl_xval_parts_check(p, g, r, u, badv, 1e-8, &agree, why, sizeof why, NULL), FL_OK);
    cr_assert_eq(agree, 0);
    /* M v - H^T r - f = (0, 0.5 - 0.3) = 0.2 at dof 1, over max(|H^T r|, |f|) = 1 */
    cr_assert(strstr(why, "M v differs from H^T r + f by 2.00e-01 (relative) at degree of freedom 1"),
              "%s", why);
    /* u off by 1e-3 fails on W r + q already (scale max(|W r|, |q|) = 0.5) */
    cr_assert_eq(fl_xval_parts_check(p, g, r, badu, v, 1e-8, &agree, why, sizeof why, NULL), FL_OK);
    cr_assert_eq(agree, 0);
    cr_assert(strstr(why, "u differs from W r + q by 2.00e-03"), "%s", why);
    /* u = W r + q, but w changed: H v + w = (1, 0.151), gap 1e-3 over
     * max(|H v|, |w|) = 1 */
    gsl_vector_set(g->w, 1, 1e-3);
    cr_assert_eq(fl_xval_parts_check(p, g, r, u, v, 1e-8, &agree, why, sizeof why, NULL), FL_OK);
    cr_assert_eq(agree, 0);
    cr_assert(strstr(why, "u differs from H v + w by 1.00e-03 (relative) at contact 0"), "%s", why);
    double nanu[2] = {NAN, 0.15};
    cr_assert_eq(fl_xval_parts_check(p, NULL, r, nanu, NULL, 1e-8, &agree, why, sizeof why, NULL),
                 FL_OK);
    cr_assert_eq(agree, 0, "a NaN u must not agree");
    fl_error err;
    cr_assert_eq(fl_xval_parts_check(NULL, g, r, u, v, 1e-8, &agree, why, sizeof why, &err), FL_EINVAL);
    fl_global_problem_free(g);
    fl_local_problem_free(p);
}

/* The solver's last word: the last non-empty line of its stderr, with
 * non-printable bytes escaped, the end of a long line kept; on the FAIL
 * reason of the command path. */
Test(xval, last_line_of_the_solver_stderr)
{
    char dir[] = "/tmp/test_xval_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128], buf[40];
    snprintf(path, sizeof path, "%s/err", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("Traceback (most recent call last):\n  ...\nModuleNotFoundError: No module named 'h5'\n\n", f);
    fclose(f);
    fl_xval_last_line(path, buf, sizeof buf);
    /* too long for 39 bytes: the end from a word start, the cut shown */
    cr_assert_str_eq(buf, "...No module named 'h5'");
    char big[200];
    fl_xval_last_line(path, big, sizeof big);
    cr_assert_str_eq(big, "ModuleNotFoundError: No module named 'h5'");
    f = fopen(path, "w");
    fputs("bad\001\033[31m\n", f);
    fclose(f);
    fl_xval_last_line(path, big, sizeof big);
    cr_assert_str_eq(big, "bad\\x01\\x1b[31m");
    fl_xval_last_line("/nonexistent/err", big, sizeof big);
    cr_assert_str_eq(big, "");

    fl_local_problem *p = stick_contact();
    fl_xval_case c;
    memset(&c, 0, sizeof c);
    c.p = p;
    snprintf(c.name, sizeof c.name, "closed_form");
    fl_xval_certificate cert;
    cr_assert_eq(fl_xval_certify(p, &cert, NULL), FL_OK);
    fl_xval_options o = fl_xval_options_default();
    fl_xval_result res;
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/in.hdf5", dir);
    snprintf(out, sizeof out, "%s/out.hdf5", dir);
    cr_assert_eq(fl_xval_check(&c, &cert, "echo noise; echo 'ModuleNotFoundError: x' >&2; exit 1",
                               in, out, &o, &res, NULL), FL_OK);
    cr_assert_eq(res.pass, 0);
    cr_assert(strstr(res.reason, "solver's stderr: \"ModuleNotFoundError: x\""), "%s", res.reason);
    cr_assert_eq(fl_xval_check(&c, &cert, "mysolver-not-there-xyz {in} {out}", in, out, &o, &res,
                               NULL), FL_OK);
    cr_assert(strstr(res.reason, "mysolver-not-there-xyz: not found"), "%s", res.reason);
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    cr_assert_eq(system(rm), 0);
    fl_xval_certificate_clear(&cert);
    fl_xval_case_clear(&c);
}

/* The example Python solver's complaint, with its path in front, is quoted
 * whole on the FAIL line (it used to be cut to its last 199 bytes, which
 * began "he frictionlab module ..."); a line longer than the room keeps its
 * end from a word start after "...", also when it is longer than the bytes
 * read from the end of the file. */
Test(xval, last_line_keeps_whole_words)
{
    char dir[] = "/tmp/test_xval_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/err", dir);
    const char *said =
        "/home/user/src/frictionlab/examples/solver_python/pgs_solver.py: the frictionlab module "
        "cannot be imported (No module named 'frictionlab'): build it (ninja -C build) and set "
        "PYTHONPATH=build/python, or meson install it (doc/python.md); run Debian's "
        "/usr/bin/python3";
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "%s\n", said);
    fclose(f);
    fl_xval_result res;
    fl_xval_last_line(path, res.solver_said, sizeof res.solver_said);
    cr_assert_str_eq(res.solver_said, said);

    /* 400 words of 8 bytes ("w000000 "): 3200 bytes, more than is read */
    f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < 400; i++) fprintf(f, "w%06d ", i);
    fprintf(f, "end\n");
    fclose(f);
    char small[64];
    const size_t sizes[2] = {sizeof small, sizeof res.solver_said};
    for (int k = 0; k < 2; k++) {
        char *b = k ? res.solver_said : small;
        fl_xval_last_line(path, b, sizes[k]);
        size_t n = strlen(b);
        cr_assert(n < sizes[k] && n > sizes[k] - 12, "kept %zu of %zu bytes: %s", n, sizes[k], b);
        cr_assert(strncmp(b, "...w", 4) == 0, "cut not shown, or inside a word: %s", b);
        for (int d = 4; d < 10; d++) cr_assert(b[d] >= '0' && b[d] <= '9', "%s", b);
        cr_assert_eq(b[10], ' ', "%s", b);
        cr_assert(strcmp(b + n - 4, " end") == 0, "%s", b);
    }
    remove(path);
    rmdir(dir);
}
