/* fl_suite.c — the model of a benchmark suite, its verdicts and figures
 * (fl_suite.h).  Files: fl_suite_json.c (suite.json, suite.csv),
 * fl_suite_html.c (report.html); one run of a solver: checks/suite.c. */
#include "fl_suite.h"
#include "fl_results_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const norm_names[FL_SUITE_NNORM] = {"q", "siconos", "fclib"};
static const char *const norm_text[FL_SUITE_NNORM] = {
    "e / ||q|| (Acary, Bremond & Huber 2018)",
    "e / max(||r||, ||U||, ||q||) (Siconos 4.4 fc3d_compute_error)",
    "e / (1 + sqrt(||q||)) (libfclib 3.1 fclib_merit_local)"};

const char *fl_suite_norm_name(int norm)
{
    return norm >= 0 && norm < FL_SUITE_NNORM ? norm_names[norm] : NULL;
}

const char *fl_suite_norm_describe(int norm)
{
    return norm >= 0 && norm < FL_SUITE_NNORM ? norm_text[norm] : NULL;
}

fl_status fl_suite_norm_parse(const char *name, int *norm, fl_error *err)
{
    for (int k = 0; name && k < FL_SUITE_NNORM; k++)
        if (strcmp(name, norm_names[k]) == 0) {
            *norm = k;
            return FL_OK;
        }
    return FL_FAIL(err, FL_ENOTFOUND, "suite: unknown normalisation '%s' (q, siconos, fclib)",
                   name ? name : "");
}

fl_suite *fl_suite_alloc(void)
{
    fl_suite *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->time_limit = 60;
    s->norm = FL_SUITE_NORM_Q;
    s->shift = 0.01;
    s->shell_start = NAN;
    s->jobs = 1;
    s->shard_k = s->shard_n = 1;
    return s;
}

static void row_clear(fl_suite_row *r)
{
    free(r->solver);
    free(r->problem);
    free(r->set);
    free(r->note);
}

void fl_suite_free(fl_suite *s)
{
    if (!s) return;
    char **strs[] = {&s->version, &s->commit, &s->started, &s->command, &s->cpu, &s->versions};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) free(*strs[i]);
    for (size_t i = 0; i < s->nsolvers; i++) {
        free(s->solvers[i].name);
        free(s->solvers[i].kind);
        free(s->solvers[i].command);
    }
    for (size_t i = 0; i < s->nrows; i++) row_clear(&s->rows[i]);
    free(s->solvers);
    free(s->rows);
    free(s->tols);
    free(s);
}

fl_status fl_suite_set(char **dst, const char *value)
{
    return fl_results_set_str(dst, value);
}

/* Grow *v (element size el) to hold n + 1 elements; nonzero when out of memory. */
static int grow(void **v, size_t *cap, size_t n, size_t el)
{
    return fl_results_grow(v, cap, n, el) != FL_OK;
}

fl_status fl_suite_tol_add(fl_suite *s, double tol)
{
    if (grow((void **)&s->tols, &s->cap_tols, s->ntols, sizeof *s->tols)) return FL_ENOMEM;
    s->tols[s->ntols++] = tol;
    return FL_OK;
}

fl_status fl_suite_solver_add(fl_suite *s, const char *name, const char *kind,
                              const char *command, double start_cost)
{
    if (grow((void **)&s->solvers, &s->cap_solvers, s->nsolvers, sizeof *s->solvers))
        return FL_ENOMEM;
    fl_suite_solver *v = &s->solvers[s->nsolvers];
    memset(v, 0, sizeof *v);
    v->start_cost = start_cost;
    if (fl_suite_set(&v->name, name) || fl_suite_set(&v->kind, kind) ||
        fl_suite_set(&v->command, command)) {
        free(v->name);
        free(v->kind);
        free(v->command);
        return FL_ENOMEM;
    }
    s->nsolvers++;
    return FL_OK;
}

int fl_suite_solver_find(const fl_suite *s, const char *name)
{
    for (size_t i = 0; name && i < s->nsolvers; i++)
        if (strcmp(s->solvers[i].name, name) == 0) return (int)i;
    return -1;
}

fl_status fl_suite_row_add(fl_suite *s, const fl_suite_row *row)
{
    if (grow((void **)&s->rows, &s->cap_rows, s->nrows, sizeof *s->rows)) return FL_ENOMEM;
    fl_suite_row r = *row;
    r.solver = r.problem = r.set = r.note = NULL;
    if (fl_suite_set(&r.solver, row->solver) || fl_suite_set(&r.problem, row->problem) ||
        fl_suite_set(&r.set, row->set) || fl_suite_set(&r.note, row->note)) {
        row_clear(&r);
        return FL_ENOMEM;
    }
    s->rows[s->nrows++] = r;
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* verdicts and figures                                                */
/* ------------------------------------------------------------------ */

static int row_solved(const fl_suite *s, const fl_suite_row *r)
{
    return !r->timed_out && r->seconds <= s->time_limit && r->have_solution &&
           r->err[s->norm] <= r->tol;
}

void fl_suite_judge(fl_suite *s)
{
    for (size_t i = 0; i < s->nrows; i++) s->rows[i].solved = row_solved(s, &s->rows[i]);
}

void fl_suite_row_reason(const fl_suite *s, const fl_suite_row *r, char *buf, size_t len)
{
    buf[0] = '\0';
    if (r->solved) return;
    if (r->timed_out || r->seconds > s->time_limit)
        snprintf(buf, len, "timeout after %.3g s (limit %.3g s)", r->seconds, s->time_limit);
    else if (!r->have_solution)
        snprintf(buf, len, "exit %d: %s", r->exit_code, r->note ? r->note : "");
    else
        snprintf(buf, len, "exit %d; rechecked error %.2e > %.0e (%s)%s%s", r->exit_code,
                 r->err[s->norm], r->tol, norm_names[s->norm],
                 r->exit_code && r->note && r->note[0] ? "; last line: " : "",
                 r->exit_code && r->note ? r->note : "");
}

static int in_scope(const fl_suite_row *r, const char *set, double tol)
{
    return r->tol == tol && (!set || (r->set && strcmp(r->set, set) == 0));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

fl_status fl_suite_stats_compute(const fl_suite *s, const char *set, double tol,
                                 fl_suite_stats *st, fl_error *err)
{
    if (!s || !st) return FL_FAIL(err, FL_EINVAL, "suite stats: NULL argument");
    double *errs = malloc((s->nrows ? s->nrows : 1) * sizeof *errs);
    if (!errs) return FL_FAIL(err, FL_ENOMEM, "suite stats: out of memory");
    double best = INFINITY;
    for (size_t k = 0; k < s->nsolvers; k++) {
        fl_suite_stats *o = &st[k];
        memset(o, 0, sizeof *o);
        double logsum = 0;
        size_t ne = 0;
        for (size_t i = 0; i < s->nrows; i++) {
            const fl_suite_row *r = &s->rows[i];
            if (!in_scope(r, set, tol) || strcmp(r->solver, s->solvers[k].name) != 0) continue;
            int ok = row_solved(s, r);
            o->runs++;
            o->solved += ok;
            o->claims += r->claimed;
            o->honest += r->claimed && ok;
            double t = ok ? r->seconds : s->time_limit;
            logsum += log(t + s->shift);
            if (r->have_solution) errs[ne++] = r->err[s->norm];
        }
        o->sgm = o->runs ? exp(logsum / (double)o->runs) - s->shift : NAN;
        if (o->runs && o->sgm < best) best = o->sgm;
        qsort(errs, ne, sizeof *errs, cmp_double);
        o->median_err = ne == 0 ? NAN : ne % 2 ? errs[ne / 2] : 0.5 * (errs[ne / 2 - 1] + errs[ne / 2]);
    }
    for (size_t k = 0; k < s->nsolvers; k++)
        st[k].sgm_rel = st[k].runs && best > 0 ? st[k].sgm / best : st[k].runs ? 1.0 : NAN;
    free(errs);
    return FL_OK;
}

fl_status fl_suite_profile(const fl_suite *s, const char *set, double tol, double tau,
                           double *rho, fl_error *err)
{
    /* Dolan & Moré (2002) eq. (1)-(2): r_{p,s} = t_{p,s} / min_s t_{p,s},
     * rho_s(tau) = #{p : r_{p,s} <= tau} / n_p, t = +inf when not solved. */
    if (!s || !rho) return FL_FAIL(err, FL_EINVAL, "suite profile: NULL argument");
    size_t ns = s->nsolvers, np = 0;
    const char **probs = malloc((s->nrows ? s->nrows : 1) * sizeof *probs);
    double *t = malloc((s->nrows ? s->nrows : 1) * (ns ? ns : 1) * sizeof *t);
    if (!probs || !t) {
        free(probs);
        free(t);
        return FL_FAIL(err, FL_ENOMEM, "suite profile: out of memory");
    }
    for (size_t i = 0; i < s->nrows; i++) {
        const fl_suite_row *r = &s->rows[i];
        if (!in_scope(r, set, tol)) continue;
        size_t p = 0;
        while (p < np && strcmp(probs[p], r->problem) != 0) p++;
        if (p == np) {
            probs[np++] = r->problem;
            for (size_t k = 0; k < ns; k++) t[p * ns + k] = INFINITY;
        }
        int k = fl_suite_solver_find(s, r->solver);
        if (k >= 0 && row_solved(s, r)) t[p * ns + (size_t)k] = fmax(r->seconds, 1e-9);
    }
    for (size_t k = 0; k < ns; k++) {
        size_t hit = 0;
        for (size_t p = 0; p < np; p++) {
            double best = INFINITY;
            for (size_t j = 0; j < ns; j++) best = fmin(best, t[p * ns + j]);
            if (isfinite(t[p * ns + k]) && t[p * ns + k] <= tau * best) hit++;
        }
        rho[k] = np ? (double)hit / (double)np : NAN;
    }
    free(probs);
    free(t);
    return FL_OK;
}

fl_status fl_suite_sets(const fl_suite *s, const char ***sets, size_t *nsets, fl_error *err)
{
    const char **v = malloc((s->nrows ? s->nrows : 1) * sizeof *v);
    if (!v) return FL_FAIL(err, FL_ENOMEM, "suite sets: out of memory");
    size_t n = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        size_t j = 0;
        while (j < n && strcmp(v[j], s->rows[i].set) != 0) j++;
        if (j == n) v[n++] = s->rows[i].set;
    }
    *sets = v;
    *nsets = n;
    return FL_OK;
}

fl_status fl_suite_merge(fl_suite *dst, const fl_suite *src, fl_error *err)
{
    if (!dst || !src) return FL_FAIL(err, FL_EINVAL, "suite merge: NULL argument");
    if (dst->ntols != src->ntols)
        return FL_FAIL(err, FL_EINVAL, "suite merge: %zu tolerances here, %zu in the other part",
                       dst->ntols, src->ntols);
    for (size_t i = 0; i < dst->ntols; i++)
        if (dst->tols[i] != src->tols[i])
            return FL_FAIL(err, FL_EINVAL, "suite merge: tolerance %g here, %g in the other part",
                           dst->tols[i], src->tols[i]);
    if (dst->time_limit != src->time_limit || dst->norm != src->norm || dst->shift != src->shift)
        return FL_FAIL(err, FL_EINVAL, "suite merge: the parts differ in time limit (%g, %g s), "
                       "normalisation (%s, %s) or shift", dst->time_limit, src->time_limit,
                       norm_names[dst->norm], norm_names[src->norm]);
    for (size_t k = 0; k < src->nsolvers; k++)
        if (fl_suite_solver_find(dst, src->solvers[k].name) < 0)
            if (fl_suite_solver_add(dst, src->solvers[k].name, src->solvers[k].kind,
                                    src->solvers[k].command, src->solvers[k].start_cost) != FL_OK)
                return FL_FAIL(err, FL_ENOMEM, "suite merge: out of memory");
    for (size_t i = 0; i < src->nrows; i++)
        if (fl_suite_row_add(dst, &src->rows[i]) != FL_OK)
            return FL_FAIL(err, FL_ENOMEM, "suite merge: out of memory");
    if (src->jobs > dst->jobs) dst->jobs = src->jobs;
    return FL_OK;
}
