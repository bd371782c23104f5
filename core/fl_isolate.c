/* fl_isolate.c — work in a child process under limits (fl_isolate.h). */
#include "fl_isolate.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fl_clock.h"

#ifdef FL_COVERAGE
void __gcov_dump(void);
#endif

/* Peak address space of this process in bytes (Linux /proc/self/status,
 * VmPeak), 0 when unknown. */
static size_t peak_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmPeak: %lu kB", &kb) == 1) break;
    fclose(f);
    return (size_t)kb * 1024;
}

static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

static void child(int fd, fl_isolate_fn fn, void *arg, const fl_isolate_limits *lim)
{
    rlim_t cpu = (rlim_t)ceil(lim->cpu_seconds);
    struct rlimit rc = {cpu, cpu + 1};
    (void)setrlimit(RLIMIT_CPU, &rc);
    if (lim->max_bytes > 0) {
        struct rlimit ra = {(rlim_t)lim->max_bytes, (rlim_t)lim->max_bytes};
        (void)setrlimit(RLIMIT_AS, &ra);
    }
    fl_error e;
    fl_error_clear(&e);
    fl_status s = fn(arg, &e);
    e.status = s;
    if (s < 0 && lim->max_bytes > 0 && peak_bytes() >= lim->max_bytes / 10 * 9) {
        char was[sizeof e.message];
        memcpy(was, e.message, sizeof was);
        snprintf(e.message, sizeof e.message, "ran out of memory under the limit of %zu bytes "
                 "(the error it then reported: %.300s)", lim->max_bytes, was);
    }
    write_all(fd, &e, sizeof e);
#ifdef FL_COVERAGE
    __gcov_dump();    /* _exit skips the counts' writing at exit */
#endif
    _exit(0);
}

/* Read one fl_error from fd until EOF or the wall-clock deadline; returns
 * the bytes read, or -1 when the deadline passed first. */
static long read_report(int fd, fl_error *e, double deadline)
{
    size_t got = 0;
    char *p = (char *)e;
    while (got < sizeof *e) {
        double left = deadline - fl_clock_now();
        if (left <= 0) return -1;
        struct pollfd pf = {fd, POLLIN, 0};
        int r = poll(&pf, 1, (int)fmin(left * 1000.0 + 1.0, 60000.0));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return (long)got;
        if (r == 0) continue;
        ssize_t n = read(fd, p + got, sizeof *e - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    return (long)got;
}

fl_status fl_isolate_run(fl_isolate_fn fn, void *arg, const fl_isolate_limits *lim,
                         const char *what, const char *task, fl_error *err)
{
    if (!fn || !lim || !(lim->cpu_seconds > 0) || !(lim->cpu_seconds <= 1e6))
        return FL_FAIL(err, FL_EINVAL, "fl_isolate_run: the CPU time limit must be in (0, 1e6] s");
    if (!what) what = "";
    if (!task) task = "the work";
    int pfd[2];
    if (pipe(pfd) != 0)
        return fl_error_set(err, FL_EEXTERNAL, what, 0, 0, "cannot create a pipe to a child "
                            "process (%s)", strerror(errno));
    fflush(NULL);    /* the child must not write our buffered output twice */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(pfd[0]);
        close(pfd[1]);
        return fl_error_set(err, FL_EEXTERNAL, what, 0, 0, "cannot start a child process (%s)",
                            strerror(e));
    }
    if (pid == 0) {
        close(pfd[0]);
        child(pfd[1], fn, arg, lim);
    }
    close(pfd[1]);
    fl_error rep;
    fl_error_clear(&rep);
    double wall = 4.0 * lim->cpu_seconds + 1.0;
    long got = read_report(pfd[0], &rep, fl_clock_now() + wall);
    close(pfd[0]);
    int killed = got < 0;
    if (killed) kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (got == (long)sizeof rep) {
        if (err) *err = rep;
        return rep.status;
    }
    if (killed || (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU))
        return fl_error_set(err, FL_EEXTERNAL, what, 0, 0, "%s did not finish within %.3g s of "
                            "CPU time (%.3g s of wall-clock time) and was stopped", task,
                            lim->cpu_seconds, wall);
    if (WIFSIGNALED(st))
        return fl_error_set(err, FL_EEXTERNAL, what, 0, 0, "%s crashed (signal %d, %s)%s", task,
                            WTERMSIG(st), strsignal(WTERMSIG(st)),
                            WTERMSIG(st) == SIGKILL ? "; the system may have run out of memory"
                                                    : "");
    return fl_error_set(err, FL_EEXTERNAL, what, 0, 0, "%s ended (exit status %d) without "
                        "reporting a result", task, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}
