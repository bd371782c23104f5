/* test_fl_isolate.c — work in a child process under limits
 * (core/fl_isolate.h) and FCLIB files vetted that way (fl_fclib_vet,
 * io/fl_fclib.h).  Each failure the child can meet is provoked for real: a
 * crash, a CPU-bound loop, a process that waits forever, unbounded
 * allocation under an address-space cap, an exit without a report; and the
 * vetting of a file must give exactly the in-process reader's answer. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "corpus_path.h"
#include "fl_clock.h"
#include "fl_fclib.h"
#include "fl_isolate.h"

static fl_status work_ok(void *arg, fl_error *err)
{
    (void)err;
    *(int *)arg = 42;    /* changes the child's copy only */
    return FL_OK;
}

static fl_status work_refuses(void *arg, fl_error *err)
{
    (void)arg;
    return fl_error_set(err, FL_EPARSE, "input.dat", 7, 3, "field q: '%s' is not a number", "x1");
}

static fl_status work_warns(void *arg, fl_error *err)
{
    (void)arg;
    (void)err;
    return FL_WMAXITER;
}

static fl_status work_crashes(void *arg, fl_error *err)
{
    (void)arg;
    (void)err;
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return FL_OK;
}

static fl_status work_spins(void *arg, fl_error *err)
{
    (void)err;
    volatile double x = *(double *)arg;
    for (;;) x = x * 0.5 + 1.0;
    return FL_OK;
}

static fl_status work_waits(void *arg, fl_error *err)
{
    (void)arg;
    (void)err;
    for (;;) pause();
    return FL_OK;
}

/* Allocate and touch 16 MB blocks until malloc fails (the address-space
 * cap), as HDF5's runaway does; then report the failure as a library would. */
static fl_status work_grows(void *arg, fl_error *err)
{
    (void)arg;
    for (size_t k = 0; k < 100000; k++) {
        char *b = malloc((size_t)16 << 20);
        if (!b) return fl_error_set(err, FL_ENOTFOUND, "", 0, 0, "no FCLIB problem group");
        memset(b, 1, (size_t)16 << 20);
    }
    return FL_OK;
}

static fl_status work_exits(void *arg, fl_error *err)
{
    (void)arg;
    (void)err;
    _exit(5);
}

static const fl_isolate_limits two_seconds = {2.0, 0};

Test(fl_isolate, success_comes_back_and_memory_stays_the_childs)
{
    int x = 0;
    fl_error err;
    fl_error_set(&err, FL_EINVAL, "old", 1, 1, "stale");
    cr_assert_eq(fl_isolate_run(work_ok, &x, &two_seconds, "f", "the work", &err), FL_OK);
    cr_assert_eq(err.status, FL_OK);
    cr_assert_str_empty(err.message);
    cr_assert_eq(x, 0, "the child's write must not reach the caller");
    cr_assert_eq(fl_isolate_run(work_warns, NULL, &two_seconds, "f", "the work", &err),
                 FL_WMAXITER);
}

Test(fl_isolate, an_error_comes_back_unchanged)
{
    fl_error err, direct;
    fl_error_clear(&err);
    fl_error_clear(&direct);
    cr_assert_eq(fl_isolate_run(work_refuses, NULL, &two_seconds, "f", "the work", &err),
                 FL_EPARSE);
    cr_assert_eq(work_refuses(NULL, &direct), FL_EPARSE);
    cr_assert_eq(memcmp(&err, &direct, sizeof err), 0);
    cr_assert_str_eq(err.file, "input.dat");
    cr_assert_eq(err.line, 7);
}

Test(fl_isolate, a_crash_is_an_error_naming_the_signal)
{
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_isolate_run(work_crashes, NULL, &two_seconds, "in.hdf5", "reading", &err),
                 FL_EEXTERNAL);
    cr_assert_str_eq(err.file, "in.hdf5");
    cr_assert(strstr(err.message, "reading crashed (signal 11") != NULL, "%s", err.message);
}

Test(fl_isolate, cpu_time_is_bounded, .timeout = 30)
{
    fl_isolate_limits one = {1.0, 0};
    double x = 1.0, t0 = fl_clock_now();
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_isolate_run(work_spins, &x, &one, "in.hdf5", "reading", &err),
                 FL_EEXTERNAL);
    cr_assert(strstr(err.message, "reading did not finish within 1 s of CPU time") != NULL,
              "%s", err.message);
    /* 1 s of CPU, or 4 s + 1 of wall-clock time on a loaded machine */
    cr_assert_lt(fl_clock_now() - t0, 6.0);
}

Test(fl_isolate, wall_clock_time_is_bounded_for_a_child_that_waits, .timeout = 30)
{
    fl_isolate_limits half = {0.5, 0};
    double t0 = fl_clock_now();
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_isolate_run(work_waits, NULL, &half, "f", "the work", &err), FL_EEXTERNAL);
    double t = fl_clock_now() - t0;
    cr_assert(strstr(err.message, "did not finish within 0.5 s of CPU time (3 s of wall-clock")
              != NULL, "%s", err.message);
    cr_assert(t >= 2.9 && t < 10.0, "waited %g s, the wall-clock limit is 3 s", t);
}

Test(fl_isolate, unbounded_allocation_is_stopped_by_the_address_space_cap, .timeout = 60)
{
    fl_isolate_limits capped = {20.0, (size_t)512 << 20};
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_isolate_run(work_grows, NULL, &capped, "f", "the work", &err), FL_ENOTFOUND);
    cr_assert(strstr(err.message, "ran out of memory under the limit of 536870912 bytes") != NULL,
              "%s", err.message);
    cr_assert(strstr(err.message, "no FCLIB problem group") != NULL, "%s", err.message);
}

Test(fl_isolate, an_exit_without_report_is_an_error)
{
    fl_error err;
    fl_error_clear(&err);
    cr_assert_eq(fl_isolate_run(work_exits, NULL, &two_seconds, "f", NULL, &err), FL_EEXTERNAL);
    cr_assert(strstr(err.message, "the work ended (exit status 5) without reporting") != NULL,
              "%s", err.message);
}

Test(fl_isolate, bad_limits_are_refused)
{
    fl_error err;
    fl_isolate_limits zero = {0.0, 0}, nan_cpu = {NAN, 0};
    cr_assert_eq(fl_isolate_run(work_ok, NULL, &zero, "f", "w", &err), FL_EINVAL);
    cr_assert_eq(fl_isolate_run(work_ok, NULL, &nan_cpu, "f", "w", &err), FL_EINVAL);
    cr_assert_eq(fl_isolate_run(work_ok, NULL, NULL, "f", "w", &err), FL_EINVAL);
    cr_assert_eq(fl_isolate_run(NULL, NULL, &two_seconds, "f", "w", &err), FL_EINVAL);
}

/* ---- fl_fclib_vet: the same answer as the in-process readers ------------ */

static char path_[1024];

static const char *regression(const char *sub, const char *name)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    snprintf(path_, sizeof path_, "%s/fuzz/regression/%s/%s", root ? root : "..", sub, name);
    return path_;
}

Test(fl_fclib_vet, good_files_pass)
{
    const char *files[] = {"Capsules-i125-1213.hdf5", "Box_Stacks-i0122-82-5.hdf5", "CubeH8.hdf5", NULL};
    for (int k = 0; files[k]; k++) {
        fl_error err;
        fl_error_clear(&err);
        char p[1024];
        corpus_path(p, sizeof p, files[k]);
        int parts = FL_FCLIB_VET_PROBLEM | FL_FCLIB_VET_SOLUTION | FL_FCLIB_VET_GUESSES;
        cr_assert_eq(fl_fclib_vet(p, NULL, parts, &err), FL_OK, "%s: %s", p, err.message);
    }
}

Test(fl_fclib_vet, a_bad_file_gets_the_readers_own_error)
{
    const char *p = regression("fclib_local", "mu_extent_2e8.hdf5");
    fl_read_options ro = fl_read_options_default();
    fl_error vet, direct;
    fl_error_clear(&vet);
    fl_error_clear(&direct);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    fl_local_problem *lp = NULL;
    fl_status sd = fl_fclib_read_local_opt(p, 0, &ctx, &ro, &lp, &direct);
    fl_sparse_finish(&ctx);
    cr_assert_lt(sd, 0);
    cr_assert_eq(fl_fclib_vet(p, &ro, FL_FCLIB_VET_PROBLEM, &vet), sd);
    cr_assert_str_eq(vet.message, direct.message);
    cr_assert_str_eq(vet.file, p);
}

Test(fl_fclib_vet, a_solution_read_alone)
{
    /* W/m = 1e9 in the problem, but only the solution is asked for: its own
     * bounds refuse it, as fl_fclib_read_solution does in-process */
    const char *p = regression("fclib_solution", "W_m_1e9.hdf5");
    fl_error vet, direct;
    fl_error_clear(&vet);
    fl_error_clear(&direct);
    fl_fclib_solution *sol = NULL;
    fl_status sd = fl_fclib_read_solution(p, &sol, &direct);
    fl_fclib_solution_free(sol);
    fl_status sv = fl_fclib_vet(p, NULL, FL_FCLIB_VET_SOLUTION, &vet);
    cr_assert_eq(sv, sd == FL_ENOTFOUND ? FL_OK : sd, "vet %d, reader %d (%s)", sv, sd,
                 direct.message);
    if (sd < 0 && sd != FL_ENOTFOUND) cr_assert_str_eq(vet.message, direct.message);
}

Test(fl_fclib_vet, null_path_and_missing_file)
{
    fl_error err;
    cr_assert_eq(fl_fclib_vet(NULL, NULL, FL_FCLIB_VET_PROBLEM, &err), FL_EINVAL);
    fl_error_clear(&err);
    cr_assert_lt(fl_fclib_vet("/nonexistent/x.hdf5", NULL, FL_FCLIB_VET_PROBLEM, &err), 0);
    cr_assert_str_eq(err.file, "/nonexistent/x.hdf5");
}

Test(fl_isolate, no_descriptor_left_for_the_pipe)
{
    struct rlimit old, none;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
    none = old;
    none.rlim_cur = 0;    /* every new descriptor fails with EMFILE */
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &none), 0);
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_isolate_run(work_ok, NULL, &two_seconds, NULL, "the work", &err);
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
    cr_assert_eq(s, FL_EEXTERNAL);
    cr_assert(strstr(err.message, "cannot create a pipe") != NULL, "%s", err.message);
    cr_assert_str_empty(err.file);
}
