/* xval.c — cross-validation of an outside solver command (see xval.h):
 * running the command, measuring its answer, our certified answer, the
 * performance profile.  The problem families are in xval_families.c. */
#include "xval.h"
#include "fl_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_blas.h>

#include "fl_dense.h"
#include "fl_fclib.h"
#include "fl_residual.h"
#include "reference/enumerate.h"
#include "reference/nsgs.h"
#include "optimized/nsgs_sparse.h"
#include "drivers/solve.h"

/* The problem scales of fl_enumerate_scales (velocity us = ||q||, impulse
 * rs = us / max_i W_ii), read from the dense or the sparse W.  As for the
 * natural-map error (fl_residual.h, FL_RESIDUAL_NORM_Q, FCLIB's
 * definition), ||q|| <= DBL_EPSILON is no scale: us = 1 then, absolute
 * units.  Otherwise a q at round-off level (fc2d_granularflowonwall_00667
 * of the corpus: ||q|| = 4e-18, the exact answer has |r| ~ 1e-22) turns the
 * round-off of W r + q into a "violation" of order 1e-4. */
static void scales(const fl_local_problem *p, double *rs, double *us)
{
    double nq = gsl_blas_dnrm2(p->q), wmax = 0;
    if (p->W) {
        for (size_t i = 0; i < p->m; i++) wmax = fmax(wmax, gsl_matrix_get(p->W, i, i));
    } else if (p->Ws) {
        const int *Wp = p->Ws->p, *Wi = p->Ws->i;
        const double *Wx = p->Ws->x;
        for (size_t j = 0; j < p->Ws->ncol; j++)
            for (int k = Wp[j]; k < Wp[j + 1]; k++)
                if ((size_t)Wi[k] == j) wmax = fmax(wmax, Wx[k]);
    }
    *us = nq > DBL_EPSILON ? nq : 1.0;
    *rs = wmax > 0 ? *us / wmax : *us;
}

/* Largest diagonal entry of contact a's block of W. */
static double diag_max(const fl_local_problem *p, size_t a)
{
    double w = 0;
    for (int c = 0; c < p->dim; c++) {
        size_t i = a * (size_t)p->dim + (size_t)c;
        if (p->W) {
            w = fmax(w, gsl_matrix_get(p->W, i, i));
        } else {
            const int *Wp = p->Ws->p, *Wi = p->Ws->i;
            const double *Wx = p->Ws->x;
            for (int k = Wp[i]; k < Wp[i + 1]; k++)
                if ((size_t)Wi[k] == i) w = fmax(w, Wx[k]);
        }
    }
    return w;
}

/* ------------------------------------------------------------------ */
/* our solver and the certified answer                                 */
/* ------------------------------------------------------------------ */

const char *fl_xval_our_solver_name(void)
{
    return "auto";   /* keep in step with fl_xval_our_solve */
}

fl_status fl_xval_our_solve(const fl_local_problem *p, double tol, int max_iter, double *r,
                            double *error, int *iterations, double *seconds, fl_error *err)
{
    /* The one place that says which of our solvers answers: the dispatcher
     * of drivers/solve.h, solver auto (Gauss-Seidel chunks of 003 §3, then
     * the semismooth Newton method on the natural map of Alart & Curnier,
     * CMAME 92 (1991), eq. (31)), sparse twins when the sparse W is present. */
    fl_solve_options o = fl_solve_options_default();
    o.solver = FL_SOLVER_AUTO;
    o.impl = p->Ws && p->ctx ? FL_IMPL_OPTIMIZED : FL_IMPL_REFERENCE;
    o.tol = tol;
    o.max_sweeps = max_iter;
    gsl_vector_view rv = gsl_vector_view_array(r, p->m);
    gsl_vector_set_zero(&rv.vector);
    fl_solve_result res;
    memset(&res, 0, sizeof res);
    double t0 = fl_clock_now();
    fl_status s = p->m == 0 ? FL_OK : fl_solve_local(p, &o, &rv.vector, NULL, &res, err);
    if (p->m == 0) res.status = FL_OK;
    else if (s >= 0) s = res.status;
    if (seconds) *seconds = fl_clock_now() - t0;
    if (error) *error = s >= 0 ? res.residual : INFINITY;
    if (iterations) *iterations = res.gs_sweeps + res.newton_steps;
    return s;
}

/* 1 if every mu is 0 and the symmetric W is positive definite (then the
 * problem is an LCP on the principal W_NN, a P-matrix: one solution). */
static int frictionless_spd(const fl_local_problem *p)
{
    for (size_t a = 0; a < p->nc; a++)
        if (p->mu[a] != 0) return 0;
    if (!p->W || fl_local_problem_check(p, NULL) != FL_OK) return 0;
    fl_spd *spd = NULL;
    int ok = fl_spd_alloc(p->W, &spd, NULL) == FL_OK;
    fl_spd_free(spd);
    return ok;
}

void fl_xval_certificate_clear(fl_xval_certificate *c)
{
    if (!c) return;
    free(c->r);
    memset(c, 0, sizeof *c);
}

fl_status fl_xval_certify(const fl_local_problem *p, fl_xval_certificate *c, fl_error *err)
{
    if (!p || !c) return FL_FAIL(err, FL_EINVAL, "xval certify: NULL argument");
    memset(c, 0, sizeof *c);
    c->r = calloc(p->m, sizeof *c->r);
    if (!c->r) return FL_FAIL(err, FL_ENOMEM, "xval certify: out of memory");
    double t0 = fl_clock_now();
    fl_error e2;
    fl_error_clear(&e2);
    if (p->dim == 2 && p->nc <= FL_XVAL_ENUM_MAX && p->W) {
        fl_enumerate_result *en = NULL;
        fl_status s = fl_enumerate_solutions(p, 1e-9, &en, &e2);
        if (s == FL_OK && en->nsol >= 1) {
            memcpy(c->r, en->sol, p->m * sizeof *c->r);
            c->method = FL_XVAL_ENUMERATION;
            c->unique = en->nsol == 1 && en->singular == 0;
            snprintf(c->note, sizeof c->note,
                     "enumeration of 4^%zu statuses: %zu isolated solution(s), %zu singular "
                     "assignment(s)%s", p->nc, en->nsol, en->singular,
                     c->unique ? ": unique" : ": not unique, law only");
        }
        fl_enumerate_result_free(en);
        if (c->method == FL_XVAL_ENUMERATION) {
            gsl_vector_view rv = gsl_vector_view_array(c->r, p->m);
            fl_residual_local(p, &rv.vector, NULL, FL_RESIDUAL_NORM_Q, &c->error, NULL);
            c->seconds = fl_clock_now() - t0;
            return FL_OK;
        }
    }
    const double tight = 1e-10;
    const int max_iter = p->m > 3000 ? 5000 : 20000;
    fl_status s = fl_xval_our_solve(p, tight, max_iter, c->r, &c->error, &c->iterations, NULL,
                                    &e2);
    c->seconds = fl_clock_now() - t0;
    if (s < 0) {
        free(c->r);
        c->r = NULL;
        c->method = FL_XVAL_NONE;
        snprintf(c->note, sizeof c->note, "no certified answer: our solver refused: %.200s",
                 e2.message);
        return FL_OK;
    }
    c->method = FL_XVAL_SOLVER;
    c->unique = s == FL_OK && frictionless_spd(p);   /* an unconverged answer certifies nothing */
    if (s == FL_OK)
        snprintf(c->note, sizeof c->note, "our %s to %.0e: reached %.2e in %d iterations%s",
                 fl_xval_our_solver_name(), tight, c->error, c->iterations,
                 c->unique ? "; unique (mu = 0, W SPD)" : "; uniqueness not decided, law only");
    else
        snprintf(c->note, sizeof c->note,
                 "our %s to %.0e: NOT reached, best error %.2e after %d iterations: no "
                 "certified answer, law only", fl_xval_our_solver_name(), tight, c->error,
                 c->iterations);
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* measuring the law                                                   */
/* ------------------------------------------------------------------ */

fl_status fl_xval_law_measure(const fl_local_problem *p, const double *r, fl_xval_law *out,
                              fl_error *err)
{
    if (!p || !r || !out) return FL_FAIL(err, FL_EINVAL, "xval law: NULL argument");
    gsl_vector *U = gsl_vector_alloc(p->m);
    if (!U) return FL_FAIL(err, FL_ENOMEM, "xval law: out of memory");
    gsl_vector_const_view rv = gsl_vector_const_view_array(r, p->m);
    fl_status s = fl_local_problem_velocity(p, &rv.vector, U, err);
    if (s != FL_OK) {
        gsl_vector_free(U);
        return s;
    }
    double rs, us, nq = gsl_blas_dnrm2(p->q);
    scales(p, &rs, &us);
    out->error = fl_residual_natural_map(p->dim, p->nc, p->mu, r, U->data, nq, FL_RESIDUAL_NORM_Q);
    out->cone = 0;
    out->complementarity = 0;
    out->coulomb = 0;
    for (size_t a = 0; a < p->nc; a++) {
        const double *ra = r + a * (size_t)p->dim, *Ua = U->data + a * (size_t)p->dim;
        /* impulse scale of contact a: the impulse that changes its own
         * velocity by us (rs_a = us / max diag W_aa), so that a badly
         * scaled W (soft and stiff contacts) is judged on velocities */
        double wa = diag_max(p, a), rsa = wa > 0 ? us / wa : rs;
        double t = p->dim == 2 ? fabs(ra[1]) : hypot(ra[1], ra[2]);
        out->cone = fmax(out->cone, fmax(-ra[0], t - p->mu[a] * ra[0]) / rsa);
        out->complementarity = fmax(out->complementarity,
                                    fmax(-Ua[0] / us, fmin(ra[0] / rsa, Ua[0] / us)));
        out->coulomb = fmax(out->coulomb,
                            fl_coulomb_violation(p->dim, 1, p->mu + a, ra, Ua, rsa, us));
    }
    gsl_vector_free(U);
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* the parts of an answer (proofs/xval.md §6)                          */
/* ------------------------------------------------------------------ */

/* Largest |a_i - b_i - c_i| (c may be NULL) relative to the largest
 * |b_i|, |c_i| (the terms a should equal; 1 when that is below
 * DBL_EPSILON: no scale); a non-finite difference counts as +inf.  *at:
 * its index. */
static double part_gap(const double *a, const double *b, const double *c, size_t len,
                       size_t *at)
{
    double worst = 0, scale = 0;
    *at = 0;
    for (size_t i = 0; i < len; i++) {
        double d = fabs(a[i] - b[i] - (c ? c[i] : 0));
        if (isnan(d)) d = INFINITY;
        if (d > worst) {
            worst = d;
            *at = i;
        }
        scale = fmax(scale, fabs(b[i]));
        if (c) scale = fmax(scale, fabs(c[i]));
    }
    if (!isfinite(scale)) return INFINITY;
    return worst / (scale > DBL_EPSILON ? scale : 1.0);
}

/* y = A x (trans 0) or A^T x (trans 1), dense A if present, else the
 * sparse As on ctx. */
static fl_status gmul(const gsl_matrix *A, const cholmod_sparse *As, fl_sparse_ctx *ctx,
                      int trans, const double *x, size_t nx, double *y, size_t ny, fl_error *err)
{
    if (nx == 0 || ny == 0) {
        for (size_t i = 0; i < ny; i++) y[i] = 0;
        return FL_OK;
    }
    if (A) {
        gsl_vector_const_view xv = gsl_vector_const_view_array(x, nx);
        gsl_vector_view yv = gsl_vector_view_array(y, ny);
        gsl_blas_dgemv(trans ? CblasTrans : CblasNoTrans, 1.0, A, &xv.vector, 0.0, &yv.vector);
        return FL_OK;
    }
    if (!As || !ctx) return FL_FAIL(err, FL_EINVAL, "xval parts: the global problem has no matrix");
    return fl_sparse_mv(ctx, As, trans, 1.0, x, 0.0, y, err);
}

/* M v = H^T r + f and u = H v + w of a global answer; why as in
 * fl_xval_parts_check. */
static fl_status global_parts(const fl_global_problem *g, const double *r, const double *u,
                              const double *v, double tol, int *agree, char *why, size_t whylen,
                              fl_error *err)
{
    size_t n = g->n, m = g->m, at;
    double *Mv = malloc((n ? n : 1) * sizeof *Mv), *Hr = malloc((n ? n : 1) * sizeof *Hr);
    double *Hv = malloc((m ? m : 1) * sizeof *Hv);
    fl_status s = Mv && Hr && Hv ? FL_OK : FL_FAIL(err, FL_ENOMEM, "xval parts: out of memory");
    if (s == FL_OK) s = gmul(g->M, g->Ms, g->ctx, 0, v, n, Mv, n, err);
    if (s == FL_OK) s = gmul(g->H, g->Hs, g->ctx, 1, r, m, Hr, n, err);
    if (s == FL_OK) s = gmul(g->H, g->Hs, g->ctx, 0, v, n, Hv, m, err);
    if (s == FL_OK) {
        double d = part_gap(Mv, Hr, g->f->data, n, &at);
        if (!(d <= tol)) {
            *agree = 0;
            snprintf(why, whylen, "M v differs from H^T r + f by %.2e (relative) at degree of "
                     "freedom %zu (tol %.0e)", d, at, tol);
        } else if (u) {
            d = part_gap(u, Hv, m ? g->w->data : NULL, m, &at);
            if (!(d <= tol)) {
                *agree = 0;
                snprintf(why, whylen, "u differs from H v + w by %.2e (relative) at contact %zu "
                         "(tol %.0e)", d, at / (size_t)g->dim, tol);
            }
        }
    }
    free(Mv);
    free(Hr);
    free(Hv);
    return s;
}

fl_status fl_xval_parts_check(const fl_local_problem *p, const fl_global_problem *g,
                              const double *r, const double *u, const double *v, double tol,
                              int *agree, char *why, size_t whylen, fl_error *err)
{
    if (!p || !r || !agree || !why || whylen == 0)
        return FL_FAIL(err, FL_EINVAL, "xval parts: NULL argument");
    *agree = 1;
    why[0] = '\0';
    if (g && v && g->m != p->m) return FL_FAIL(err, FL_EINVAL, "xval parts: global size %zu != %zu", g->m, p->m);
    if (u) {   /* u = W r + q: U - q is W r, so the gap is |u - (W r) - q| */
        double *U = malloc((p->m ? p->m : 1) * sizeof *U), *Wr = malloc((p->m ? p->m : 1) * sizeof *Wr);
        if (!U || !Wr) {
            free(U);
            free(Wr);
            return FL_FAIL(err, FL_ENOMEM, "xval parts: out of memory");
        }
        gsl_vector_const_view rv = gsl_vector_const_view_array(r, p->m);
        gsl_vector_view Uv = gsl_vector_view_array(U, p->m);
        fl_status s = p->m ? fl_local_problem_velocity(p, &rv.vector, &Uv.vector, err) : FL_OK;
        for (size_t i = 0; s == FL_OK && i < p->m; i++) Wr[i] = U[i] - p->q->data[i];
        size_t at;
        double d = s == FL_OK ? part_gap(u, Wr, p->m ? p->q->data : NULL, p->m, &at) : 0;
        free(U);
        free(Wr);
        FL_TRY(s);
        if (!(d <= tol)) {
            *agree = 0;
            snprintf(why, whylen, "u differs from W r + q by %.2e (relative) at contact %zu "
                     "(tol %.0e)", d, at / (size_t)p->dim, tol);
            return FL_OK;
        }
    }
    if (g && v) return global_parts(g, r, u, v, tol, agree, why, whylen, err);
    return FL_OK;
}

/* Bytes of the escaped form of ch (\xHH for a non-printable byte). */
static size_t escaped_len(unsigned char ch)
{
    return ch >= 0x20 && ch < 0x7f ? 1 : 4;
}

void fl_xval_last_line(const char *path, char *buf, size_t len)
{
    if (!buf || len == 0) return;
    buf[0] = '\0';
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return;
    char tail[2048];
    size_t got = 0;
    long from = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        from = size > (long)sizeof tail ? size - (long)sizeof tail : 0;
        if (size > 0 && fseek(f, from, SEEK_SET) == 0) got = fread(tail, 1, sizeof tail, f);
    }
    fclose(f);
    while (got > 0 && (tail[got - 1] == '\n' || tail[got - 1] == '\r')) got--;
    size_t start = got;
    while (start > 0 && tail[start - 1] != '\n') start--;
    /* the line began before the bytes read: it is cut whatever len is */
    int cut = start == 0 && from > 0;
    size_t need = 0;
    for (size_t i = start; i < got; i++) need += escaped_len((unsigned char)tail[i]);
    if (cut || need > len - 1) {
        /* keep the end (the message is usually there), from a word start,
         * after "...": the cut is visible and no word loses its front */
        size_t budget = len - 1 > 3 ? len - 1 - 3 : 0, at = got, used = 0;
        while (at > start && used + escaped_len((unsigned char)tail[at - 1]) <= budget)
            used += escaped_len((unsigned char)tail[--at]);
        if (!(at > start && tail[at - 1] == ' ')) {   /* at may be inside a word */
            size_t w = at;
            while (w < got && tail[w] != ' ') w++;
            if (w + 1 < got) at = w + 1;   /* the next word (none: keep the cut) */
        }
        start = at;
        snprintf(buf, len, "...");
    }
    size_t n = strlen(buf);
    for (size_t i = start; i < got; i++) {
        unsigned char ch = (unsigned char)tail[i];
        char one[5];
        if (escaped_len(ch) == 1) snprintf(one, sizeof one, "%c", ch);
        else snprintf(one, sizeof one, "\\x%02x", ch);
        size_t k = strlen(one);
        if (n + k + 1 > len) break;
        memcpy(buf + n, one, k + 1);
        n += k;
    }
}

/* ------------------------------------------------------------------ */
/* running the command                                                 */
/* ------------------------------------------------------------------ */

static int append_quoted(char *buf, size_t len, size_t *at, const char *s)
{
    if (*at + 1 >= len) return -1;
    buf[(*at)++] = '\'';
    for (; *s; s++) {
        if (*s == '\'') {   /* ' -> '\'' */
            if (*at + 4 >= len) return -1;
            memcpy(buf + *at, "'\\''", 4);
            *at += 4;
        } else {
            if (*at + 1 >= len) return -1;
            buf[(*at)++] = *s;
        }
    }
    if (*at + 1 >= len) return -1;
    buf[(*at)++] = '\'';
    buf[*at] = '\0';
    return 0;
}

fl_status fl_xval_command(const char *tmpl, const char *in, const char *out, char *buf,
                          size_t len, fl_error *err)
{
    if (!tmpl || !in || !out || !buf || len == 0)
        return FL_FAIL(err, FL_EINVAL, "xval command: NULL argument");
    size_t at = 0;
    buf[0] = '\0';
    while (*tmpl) {
        int bad = 0;
        if (strncmp(tmpl, "{in}", 4) == 0) {
            bad = append_quoted(buf, len, &at, in);
            tmpl += 4;
        } else if (strncmp(tmpl, "{out}", 5) == 0) {
            bad = append_quoted(buf, len, &at, out);
            tmpl += 5;
        } else if (at + 1 >= len) {
            bad = 1;
        } else {
            buf[at++] = *tmpl++;
            buf[at] = '\0';
        }
        if (bad) return FL_FAIL(err, FL_EINVAL, "xval command: longer than %zu bytes", len - 1);
    }
    return FL_OK;
}

/* Process group being waited for (fl_xval_spawn_running). */
static volatile sig_atomic_t running_group = 0;

int fl_xval_spawn_running(void)
{
    return (int)running_group;
}

/* In the child: fd `to` (1 or 2) onto path, or /dev/null if it cannot be
 * opened: never the caller's terminal. */
static void redirect(const char *path, int to)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) fd = open("/dev/null", O_WRONLY);
    if (fd >= 0 && fd != to) {
        dup2(fd, to);
        close(fd);
    }
}

fl_status fl_xval_spawn(const char *cmd, double timeout, const char *log_path, fl_xval_run *run,
                        fl_error *err)
{
    return fl_xval_spawn_split(cmd, timeout, log_path, NULL, run, err);
}

fl_status fl_xval_spawn_split(const char *cmd, double timeout, const char *log_path,
                              const char *err_path, fl_xval_run *run, fl_error *err)
{
    if (!cmd || !run) return FL_FAIL(err, FL_EINVAL, "xval spawn: NULL argument");
    if (!(timeout > 0)) return FL_FAIL(err, FL_EINVAL, "xval spawn: timeout %g must be positive", timeout);
    memset(run, 0, sizeof *run);
    run->exit_code = -1;
    double t0 = fl_clock_now();
    pid_t pid = fork();
    if (pid < 0) return FL_FAIL(err, FL_EEXTERNAL, "xval spawn: fork: %s", strerror(errno));
    if (pid == 0) {   /* child: own process group, output to the log */
        setpgid(0, 0);
        if (log_path) {   /* the log, or nowhere: never the caller's stdout */
            redirect(log_path, 1);
            if (!err_path) dup2(1, 2);
        }
        if (err_path) redirect(err_path, 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);   /* also in the parent: no race with kill below */
    running_group = (sig_atomic_t)pid;
    int st = 0;
    long nap_ns = 200000;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            kill(-pid, SIGKILL);
            running_group = 0;
            return FL_FAIL(err, FL_EEXTERNAL, "xval spawn: waitpid: %s", strerror(errno));
        }
        if (fl_clock_now() - t0 > timeout) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
            run->timed_out = 1;
            break;
        }
        struct timespec ts = {0, nap_ns};
        nanosleep(&ts, NULL);
        if (nap_ns < 20000000) nap_ns *= 2;
    }
    run->seconds = fl_clock_now() - t0;
    kill(-pid, SIGKILL);   /* anything the command left running in its group */
    running_group = 0;
    run->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* one problem                                                         */
/* ------------------------------------------------------------------ */

/* Append ", what" to the reason. */
static void say(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(char *buf, size_t len, const char *fmt, ...)
{
    size_t at = strlen(buf);
    if (at + 3 >= len) return;
    if (at) {
        buf[at++] = ';';
        buf[at++] = ' ';
        buf[at] = '\0';
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
}

/* Start of a check: res reset, our time to the same tolerance (for the
 * performance profile).  FL_ENOMEM only. */
static fl_status check_begin(const fl_local_problem *p, const fl_xval_options *opt,
                             fl_xval_result *res, fl_error *err)
{
    memset(res, 0, sizeof *res);
    res->dist = NAN;
    res->run.exit_code = -1;
    res->law.error = res->law.cone = res->law.complementarity = res->law.coulomb = NAN;
    double *rr = malloc((p->m ? p->m : 1) * sizeof *rr);
    if (!rr) return FL_FAIL(err, FL_ENOMEM, "xval check: out of memory");
    fl_status os = fl_xval_our_solve(p, opt->tol, 20000, rr, NULL, NULL, &res->ours_seconds, NULL);
    res->ours_solved = os == FL_OK;
    free(rr);
    return FL_OK;
}

/* The verdict on the answer r (length p->m) of the solver under test, the
 * same whether it came from a command's file or an in-process call:
 * the law measures, the distance to a unique certified answer, and
 * pass/fail with opt's tolerances (res->run already filled). */
static void judge(const fl_local_problem *p, const fl_global_problem *g,
                  const fl_xval_certificate *cert, const double *r, const double *u,
                  const double *v, const fl_xval_options *opt, fl_xval_result *res)
{
    char *reason = res->reason;
    const size_t rlen = sizeof res->reason;
    fl_error e2;
    fl_error_clear(&e2);
    res->have_solution = 1;
    char why[256];
    fl_status s = fl_xval_parts_check(p, g, r, u, v, opt->parts_tol, &res->parts_agree, why,
                                      sizeof why, &e2);
    if (s == FL_OK) s = fl_xval_law_measure(p, r, &res->law, &e2);
    if (s == FL_OK && cert->method != FL_XVAL_NONE && cert->unique) {
        double d = 0, nr = 0, rs, us;
        scales(p, &rs, &us);
        for (size_t i = 0; i < p->m; i++) {
            d = fmax(d, fabs(r[i] - cert->r[i]));
            nr = fmax(nr, fabs(cert->r[i]));
        }
        res->dist = d / fmax(nr, rs);
    }
    if (s != FL_OK) {
        say(reason, rlen, "could not measure the answer: %.300s", e2.message);
        return;
    }
    const double tol = opt->tol;
    if (res->run.exit_code != 0) say(reason, rlen, "exit status %d", res->run.exit_code);
    if (!res->parts_agree) say(reason, rlen, "%s", why);
    if (!(res->law.error <= tol))
        say(reason, rlen, "natural-map error %.2e > %.0e", res->law.error, tol);
    if (!(res->law.cone <= tol))
        say(reason, rlen, "r outside the Coulomb cone by %.2e (> %.0e)", res->law.cone, tol);
    if (!(res->law.complementarity <= tol))
        say(reason, rlen, "Signorini complementarity violated by %.2e (> %.0e)",
            res->law.complementarity, tol);
    if (!(res->law.coulomb <= opt->coulomb_tol))
        say(reason, rlen, "Coulomb law (stick/slide) violated by %.2e (> %.0e)",
            res->law.coulomb, opt->coulomb_tol);
    if (!isnan(res->dist) && !(res->dist <= opt->dist_tol))
        say(reason, rlen, "distance %.2e to the unique solution (> %.0e)", res->dist,
            opt->dist_tol);
    res->pass = reason[0] == '\0';
}

/* fl_xval_check without the solver's last word on the reason. */
static fl_status check_cmd(const fl_xval_case *c, const fl_xval_certificate *cert,
                           const char *solver_cmd, const char *in_path, const char *out_path,
                           const fl_xval_options *opt, fl_xval_result *res, fl_error *err)
{
    const fl_local_problem *p = c->p;
    FL_TRY(check_begin(p, opt, res, err));
    char *reason = res->reason;
    const size_t rlen = sizeof res->reason;
    fl_error e2;
    fl_error_clear(&e2);

    remove(out_path);
    if (fl_fclib_write_local(in_path, p, "frictionlab crosscheck", &e2) != FL_OK) {
        say(reason, rlen, "could not write the problem to %s: %.300s", in_path, e2.message);
        return FL_OK;
    }
    char cmd[8192], log[4096], elog[4096];
    if (fl_xval_command(solver_cmd, in_path, out_path, cmd, sizeof cmd, &e2) != FL_OK) {
        say(reason, rlen, "%.300s", e2.message);
        return FL_OK;
    }
    snprintf(log, sizeof log, "%s.log", out_path);
    snprintf(elog, sizeof elog, "%s.stderr", out_path);
    if (fl_xval_spawn_split(cmd, opt->timeout, log, elog, &res->run, &e2) != FL_OK) {
        say(reason, rlen, "could not run the command: %.300s", e2.message);
        return FL_OK;
    }
    fl_xval_last_line(elog, res->solver_said, sizeof res->solver_said);
    if (res->run.timed_out) {
        say(reason, rlen, "timed out after %.3g s (killed)", opt->timeout);
        return FL_OK;
    }
    fl_fclib_solution *sol = NULL;
    fl_error_clear(&e2);
    /* the solver's file is read first in a child process (io/fl_fclib.h) */
    if (fl_fclib_vet(out_path, NULL, FL_FCLIB_VET_SOLUTION, &e2) != FL_OK ||
        fl_fclib_read_solution(out_path, &sol, &e2) != FL_OK || sol->m != p->m) {
        say(reason, rlen, "exit %d; no solution read from %s: %.200s", res->run.exit_code,
            out_path, sol ? "wrong size" : e2.message);
        fl_fclib_solution_free(sol);
        return FL_OK;
    }
    /* a global answer (v of the file's global problem) is checked whole */
    const fl_global_problem *g = c->g && sol->v && sol->n == c->g->n ? c->g : NULL;
    judge(p, g, cert, sol->r, sol->u, g ? sol->v : NULL, opt, res);
    fl_fclib_solution_free(sol);
    return FL_OK;
}

fl_status fl_xval_check(const fl_xval_case *c, const fl_xval_certificate *cert,
                        const char *solver_cmd, const char *in_path, const char *out_path,
                        const fl_xval_options *opt, fl_xval_result *res, fl_error *err)
{
    if (!c || !c->p || !cert || !solver_cmd || !in_path || !out_path || !opt || !res)
        return FL_FAIL(err, FL_EINVAL, "xval check: NULL argument");
    FL_TRY(check_cmd(c, cert, solver_cmd, in_path, out_path, opt, res, err));
    if (!res->pass && res->solver_said[0])   /* the failure in the solver's own words */
        say(res->reason, sizeof res->reason, "solver's stderr: \"%s\"", res->solver_said);
    return FL_OK;
}

fl_status fl_xval_check_fn(const fl_xval_case *c, const fl_xval_certificate *cert,
                           fl_xval_solver_fn fn, void *user, const fl_xval_options *opt,
                           fl_xval_result *res, fl_error *err)
{
    if (!c || !c->p || !cert || !fn || !opt || !res)
        return FL_FAIL(err, FL_EINVAL, "xval check: NULL argument");
    const fl_local_problem *p = c->p;
    FL_TRY(check_begin(p, opt, res, err));
    double *r = calloc(p->m ? p->m : 1, sizeof *r), *u = malloc((p->m ? p->m : 1) * sizeof *u);
    if (!r || !u) {
        free(r);
        free(u);
        return FL_FAIL(err, FL_ENOMEM, "xval check: out of memory");
    }
    for (size_t i = 0; i < p->m; i++) u[i] = NAN;
    char msg[400] = "";
    double t0 = fl_clock_now();
    int rc = fn(p, r, u, user, msg, sizeof msg);
    res->run.seconds = fl_clock_now() - t0;
    res->run.exit_code = rc;
    if (rc != 0) {
        say(res->reason, sizeof res->reason, "the solver failed (returned %d): %.400s", rc,
            msg[0] ? msg : "no message");
    } else if (res->run.seconds > opt->timeout) {
        /* a function cannot be killed as a process group is: it is let
         * finish and judged over time, as the command would be killed */
        res->run.timed_out = 1;
        say(res->reason, sizeof res->reason,
            "took %.3g s, over the time limit of %.3g s (in-process: not interrupted)",
            res->run.seconds, opt->timeout);
    } else {
        int given = 0;   /* u left all NaN: the solver gave none */
        for (size_t i = 0; i < p->m && !given; i++) given = !isnan(u[i]);
        judge(p, NULL, cert, r, given ? u : NULL, NULL, opt, res);
    }
    free(r);
    free(u);
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* performance profile                                                 */
/* ------------------------------------------------------------------ */

double fl_xval_profile_rho(const double *t, size_t np, int s, double tau)
{
    /* Dolan & Moré, Math. Program. 91 (2002) 201-213, eq. (1)-(2):
     * r_{p,s} = t_{p,s} / min_s t_{p,s}, rho_s(tau) = #{p : r_{p,s} <= tau} / np. */
    if (np == 0 || (s != 0 && s != 1)) return NAN;
    size_t k = 0;
    for (size_t i = 0; i < np; i++) {
        double a = t[2 * i], b = t[2 * i + 1], best = fmin(a, b), mine = t[2 * i + s];
        if (isinf(mine) || isnan(mine) || isinf(best)) continue;
        double ratio = best > 0 ? mine / best : (mine > 0 ? INFINITY : 1.0);
        if (ratio <= tau) k++;
    }
    return (double)k / (double)np;
}
