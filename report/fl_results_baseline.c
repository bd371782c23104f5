/* fl_results_baseline.c — every check of a run against the same-named
 * check of a baseline run (fl_results.h, fl_results_compare). */
#include "fl_results.h"
#include "fl_results_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fl_result_compare_options fl_result_compare_options_default(void)
{
    fl_result_compare_options o;
    o.rtol = 1e-9;
    return o;
}

/* Occurrence `occ` (0-based) of the check named `name` in t, or NULL; *count
 * (may be NULL) receives how many checks of t have that name. */
static const fl_result_check *check_find(const fl_result_task *t, const char *name, size_t occ,
                                         size_t *count)
{
    const fl_result_check *hit = NULL;
    size_t n = 0;
    for (size_t k = 0; k < t->nchecks; k++)
        if (strcmp(t->checks[k].name, name) == 0) {
            if (n == occ) hit = &t->checks[k];
            n++;
        }
    if (count) *count = n;
    return hit;
}

/* How many checks before index k of t have the same name as check k. */
static size_t occurrence(const fl_result_task *t, size_t k)
{
    size_t n = 0;
    for (size_t j = 0; j < k; j++)
        if (strcmp(t->checks[j].name, t->checks[k].name) == 0) n++;
    return n;
}

/* A new item of c (zeroed, task name copied), or NULL when out of memory. */
static fl_result_drift *item_new(fl_result_comparison *c, fl_result_drift_kind kind,
                                 const fl_result_task *t)
{
    if (fl_results_grow((void **)&c->items, &c->cap, c->nitems, sizeof *c->items) != FL_OK)
        return NULL;
    fl_result_drift *d = &c->items[c->nitems];
    memset(d, 0, sizeof *d);
    d->kind = kind;
    if (!(d->task = fl_results_strdup(t->name))) return NULL;
    c->nitems++;
    if (kind == FL_DRIFT_VALUE || kind == FL_DRIFT_STATUS) c->ndrift++;
    if (kind == FL_DRIFT_PARAMS) c->nwarnings++;
    return d;
}

/* A check named more than once in a task (one per parameter value, say) is
 * matched by its rank among its namesakes and reported as "name#rank". */
static fl_result_drift *drift_add(fl_result_comparison *c, fl_result_drift_kind kind,
                                  const fl_result_task *t, const fl_result_check *old,
                                  const fl_result_check *cur, size_t occ, size_t count)
{
    fl_result_drift *d = item_new(c, kind, t);
    if (!d) return NULL;
    const char *name = old ? old->name : cur->name;
    size_t len = strlen(name) + 24;
    if (!(d->check = malloc(len))) return NULL;
    if (count > 1) snprintf(d->check, len, "%s#%zu", name, occ + 1);
    else snprintf(d->check, len, "%s", name);
    d->old_status = old ? old->status : FL_RESULT_NOT_RUN;
    d->new_status = cur ? cur->status : FL_RESULT_NOT_RUN;
    d->has_old = old && old->has_value;
    d->has_new = cur && cur->has_value;
    d->old_value = d->has_old ? old->value : 0.0;
    d->new_value = d->has_new ? cur->value : 0.0;
    return d;
}

/* Whether two values agree within tol (non-finite: identical class). */
static int same_value(double a, double b, double tol)
{
    if (!isfinite(a) || !isfinite(b)) {
        if (isnan(a) && isnan(b)) return 1;
        return a == b;
    }
    return fabs(a - b) <= tol;
}

/* The numbers of a check, by field. */
static int field_of(const fl_result_check *k, int f, double *x)
{
    switch (f) {
    case 0: *x = k->value; return k->has_value;
    case 1: *x = k->expected; return k->has_expected;
    default: *x = k->tolerance; return k->has_tolerance;
    }
}

static const char *const field_names[3] = {"value", "expected", "tolerance"};

/* Every number of two same-named checks (same status) at the
 * reproducibility tolerance: the check's declared noise, else o->rtol. */
static fl_status compare_numbers(fl_result_comparison *c, const fl_result_task *ct,
                                 const fl_result_check *old, const fl_result_check *cur,
                                 const fl_result_compare_options *o, size_t occ, size_t count)
{
    const fl_result_check *noisy = cur->has_noise_rtol   ? cur
                                   : old->has_noise_rtol ? old
                                                         : NULL;
    double rtol = noisy ? noisy->noise_rtol : o->rtol;
    for (int f = 0; f < 3; f++) {
        double a = 0.0, b = 0.0;
        int ha = field_of(old, f, &a), hb = field_of(cur, f, &b);
        if (!ha && !hb) continue;
        c->nvalues++;
        double tol = rtol * fmax(fabs(a), fabs(b));
        if (ha && hb && same_value(a, b, tol)) continue;
        fl_result_drift *d = drift_add(c, FL_DRIFT_VALUE, ct, old, cur, occ, count);
        if (!d) return FL_ENOMEM;
        d->field = field_names[f];
        d->has_old = ha;
        d->has_new = hb;
        d->old_value = ha ? a : 0.0;
        d->new_value = hb ? b : 0.0;
        d->tolerance = ha && hb ? tol : 0.0;
        d->rtol = rtol;
        d->noise_reason = noisy ? noisy->noise_reason : NULL;
    }
    return FL_OK;
}

static int differ(const char *a, const char *b)
{
    return a && b && strcmp(a, b) != 0;
}

/* Which parameter file each side read: a different name or SHA-256 is
 * named (a warning: the values then differ by design). */
static fl_status compare_params(fl_result_comparison *c, const fl_result_task *bt,
                                const fl_result_task *ct)
{
    if (!differ(bt->params_sha256, ct->params_sha256) && !differ(bt->params_file, ct->params_file) &&
        !bt->params_sha256 == !ct->params_sha256)
        return FL_OK;
    fl_result_drift *d = item_new(c, FL_DRIFT_PARAMS, ct);
    if (!d) return FL_ENOMEM;
    d->old_params = bt->params_file;
    d->new_params = ct->params_file;
    d->old_sha256 = bt->params_sha256;
    d->new_sha256 = ct->params_sha256;
    return FL_OK;
}

static fl_status compare_task(fl_result_comparison *c, const fl_result_task *bt,
                              const fl_result_task *ct, const fl_result_compare_options *o)
{
    FL_TRY(compare_params(c, bt, ct));
    for (size_t k = 0; k < bt->nchecks; k++) {
        const fl_result_check *old = &bt->checks[k];
        size_t occ = occurrence(bt, k), nb = 0, nc = 0;
        check_find(bt, old->name, 0, &nb);
        const fl_result_check *cur = check_find(ct, old->name, occ, &nc);
        size_t count = nb > nc ? nb : nc;
        if (!cur) {
            if (old->status != FL_RESULT_NOT_RUN &&
                !drift_add(c, FL_DRIFT_STATUS, ct, old, NULL, occ, count))
                return FL_ENOMEM;
            continue;
        }
        c->ncompared++;
        if (old->status != cur->status) {
            if (!drift_add(c, FL_DRIFT_STATUS, ct, old, cur, occ, count)) return FL_ENOMEM;
            continue;
        }
        FL_TRY(compare_numbers(c, ct, old, cur, o, occ, count));
    }
    for (size_t k = 0; k < ct->nchecks; k++) {
        size_t occ = occurrence(ct, k), nb = 0, nc = 0;
        check_find(ct, ct->checks[k].name, 0, &nc);
        if (!check_find(bt, ct->checks[k].name, occ, &nb) &&
            !drift_add(c, FL_DRIFT_NEW, ct, NULL, &ct->checks[k], occ, nb > nc ? nb : nc))
            return FL_ENOMEM;
    }
    return FL_OK;
}

/* 1 for a --quick run, 0 for a full one, -1 unknown: a results.json from
 * before "quick" was recorded says it in its command line. */
static int run_mode(const fl_results *r)
{
    if (r->quick >= 0) return r->quick;
    if (!r->command || !strstr(r->command, " reproduce")) return -1;
    const char *q = strstr(r->command, " --quick");
    return q && (q[8] == ' ' || q[8] == '\0');
}

fl_status fl_results_compare(const fl_results *baseline, const fl_results *current,
                             const fl_result_compare_options *opts,
                             fl_result_comparison **out, fl_error *err)
{
    *out = NULL;
    fl_result_compare_options o = opts ? *opts : fl_result_compare_options_default();
    if (!(o.rtol >= 0.0 && o.rtol < 1.0))
        return FL_FAIL(err, FL_EINVAL, "rtol must be in [0, 1)");
    fl_result_comparison *c = calloc(1, sizeof *c);
    if (!c) return FL_FAIL(err, FL_ENOMEM, "out of memory comparing results");
    c->baseline_quick = run_mode(baseline);
    c->current_quick = run_mode(current);
    c->mode_differs = c->baseline_quick >= 0 && c->current_quick >= 0 &&
                      c->baseline_quick != c->current_quick;
    if (c->mode_differs) c->nwarnings++;
    for (size_t i = 0; i < current->ntasks; i++) {
        const fl_result_task *ct = current->tasks[i];
        const fl_result_task *bt = fl_results_task_find(baseline, ct->name);
        fl_status s = FL_OK;
        if (bt) s = compare_task(c, bt, ct, &o);
        for (size_t k = 0; !bt && s == FL_OK && k < ct->nchecks; k++)
            if (!drift_add(c, FL_DRIFT_NEW, ct, NULL, &ct->checks[k], 0, 1)) s = FL_ENOMEM;
        if (s != FL_OK) {
            fl_result_comparison_free(c);
            return FL_FAIL(err, FL_ENOMEM, "out of memory comparing results");
        }
    }
    *out = c;
    return FL_OK;
}

void fl_result_comparison_free(fl_result_comparison *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nitems; i++) {
        free(c->items[i].task);
        free(c->items[i].check);
    }
    free(c->items);
    free(c);
}

