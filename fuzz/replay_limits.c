/* replay_limits.c — the fuzz harnesses of fuzz/ as plain programs (gcc, no
 * sanitizer, no libFuzzer), run once per file to measure what each input
 * costs.  Linked with one harness (tests/meson.build, suite 'limits'):
 *   replay_fuzz_mm FILE_OR_DIRECTORY...
 * (a directory: each regular file in it, in name order).  Each file is replayed in its own child process (fork); the parent reads
 * the child's CPU time (user + system) and peak resident memory from wait4
 * and prints one line per file.  A file fails when the child does not end
 * normally with status 0 (the harness aborts when the library breaks its
 * error contract: a status without its error record, an error naming a
 * source file of ours instead of the input, a leaked HDF5 identifier), or
 * uses more than FL_REPLAY_CPU seconds (default 1) or FL_REPLAY_RSS_MB MB of
 * memory (default 100): issue 19's bound for every reproducer of the first
 * fuzzing campaign (fuzz/regression/).  Exit status 1 if any file failed.
 *
 * CPU time, not wall-clock time: it does not grow when the machine is
 * shared, and the readers do no waiting of their own. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double env_or(const char *name, double dflt)
{
    const char *v = getenv(name);
    char *end;
    double x = v ? strtod(v, &end) : 0.0;
    return v && end != v && *end == '\0' && x > 0 ? x : dflt;
}

/* The child: the file's bytes through the harness, then exit 0. */
static void replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(3);
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (!buf) exit(3);
    (void)LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    exit(0);
}

/* Replay one file and print its line; returns 1 if it failed. */
static int measure(const char *path, double cpu_max, double rss_max)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) replay(path);
    int st = 0;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0) {
        perror("wait4");
        return 1;
    }
    double cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                 (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    double rss = (double)ru.ru_maxrss / 1024.0;    /* kilobytes on Linux */
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && cpu <= cpu_max && rss <= rss_max;
    printf("%-4s %s: CPU %.3f s, peak memory %.1f MB", ok ? "ok" : "FAIL", path, cpu, rss);
    if (WIFSIGNALED(st)) printf(", killed by signal %d", WTERMSIG(st));
    else if (WEXITSTATUS(st) != 0) printf(", exit status %d", WEXITSTATUS(st));
    if (cpu > cpu_max) printf(", above %.3g s", cpu_max);
    if (rss > rss_max) printf(", above %.0f MB", rss_max);
    printf("\n");
    return !ok;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    double cpu_max = env_or("FL_REPLAY_CPU", 1.0), rss_max = env_or("FL_REPLAY_RSS_MB", 100.0);
    int failed = 0, files = 0;
    for (int k = 1; k < argc; k++) {
        struct stat sb;
        if (stat(argv[k], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            failed |= measure(argv[k], cpu_max, rss_max);
            files++;
            continue;
        }
        struct dirent **list;
        int n = scandir(argv[k], &list, NULL, by_name);
        if (n < 0) {
            perror(argv[k]);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[k], list[i]->d_name);
            if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
                failed |= measure(path, cpu_max, rss_max);
                files++;
            }
            free(list[i]);
        }
        free(list);
    }
    printf("%d file(s), %s\n", files, failed ? "some above the bounds or failed" : "all within the bounds");
    return failed || files == 0;
}
