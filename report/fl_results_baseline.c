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
    o.rtol_untoleranced = 1e-9;
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

/* A check named more than once in a task (one per parameter value, say) is
 * matched by its rank among its namesakes and reported as "name#rank". */
static fl_status drift_add(fl_result_comparison *c, fl_result_drift_kind kind,
                           const fl_result_task *t, const fl_result_check *old,
                           const fl_result_check *cur, double tol, size_t occ, size_t count)
{
    FL_TRY(fl_results_grow((void **)&c->items, &c->cap, c->nitems, sizeof *c->items));
    fl_result_drift d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    const char *name = old ? old->name : cur->name;
    size_t len = strlen(name) + 24;
    d.task = fl_results_strdup(t->name);
    d.check = malloc(len);
    if (!d.task || !d.check) {
        free(d.task);
        free(d.check);
        return FL_ENOMEM;
    }
    if (count > 1) snprintf(d.check, len, "%s#%zu", name, occ + 1);
    else snprintf(d.check, len, "%s", name);
    d.old_status = old ? old->status : FL_RESULT_NOT_RUN;
    d.new_status = cur ? cur->status : FL_RESULT_NOT_RUN;
    d.has_old = old && old->has_value;
    d.has_new = cur && cur->has_value;
    d.old_value = d.has_old ? old->value : 0.0;
    d.new_value = d.has_new ? cur->value : 0.0;
    d.tolerance = tol;
    c->items[c->nitems++] = d;
    if (kind != FL_DRIFT_NEW) c->ndrift++;
    return FL_OK;
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

static fl_status compare_task(fl_result_comparison *c, const fl_result_task *bt,
                              const fl_result_task *ct, const fl_result_compare_options *o)
{
    for (size_t k = 0; k < bt->nchecks; k++) {
        const fl_result_check *old = &bt->checks[k];
        size_t occ = occurrence(bt, k), nb = 0, nc = 0;
        check_find(bt, old->name, 0, &nb);
        const fl_result_check *cur = check_find(ct, old->name, occ, &nc);
        size_t count = nb > nc ? nb : nc;
        if (!cur) {
            if (old->status != FL_RESULT_NOT_RUN)
                FL_TRY(drift_add(c, FL_DRIFT_STATUS, ct, old, NULL, 0.0, occ, count));
            continue;
        }
        c->ncompared++;
        if (old->status != cur->status) {
            FL_TRY(drift_add(c, FL_DRIFT_STATUS, ct, old, cur, 0.0, occ, count));
            continue;
        }
        if (!old->has_value && !cur->has_value) continue;
        double tol = old->has_tolerance   ? old->tolerance
                     : cur->has_tolerance ? cur->tolerance
                                          : -1.0;
        if (old->has_value && cur->has_value) {
            double t = tol >= 0.0 ? tol
                                  : o->rtol_untoleranced * fmax(fabs(old->value), fabs(cur->value));
            if (!same_value(old->value, cur->value, t))
                FL_TRY(drift_add(c, FL_DRIFT_VALUE, ct, old, cur, t, occ, count));
        } else {
            FL_TRY(drift_add(c, FL_DRIFT_VALUE, ct, old, cur, tol, occ, count));
        }
    }
    for (size_t k = 0; k < ct->nchecks; k++) {
        size_t occ = occurrence(ct, k), nb = 0, nc = 0;
        check_find(ct, ct->checks[k].name, 0, &nc);
        if (!check_find(bt, ct->checks[k].name, occ, &nb))
            FL_TRY(drift_add(c, FL_DRIFT_NEW, ct, NULL, &ct->checks[k], 0.0, occ,
                             nb > nc ? nb : nc));
    }
    return FL_OK;
}

fl_status fl_results_compare(const fl_results *baseline, const fl_results *current,
                             const fl_result_compare_options *opts,
                             fl_result_comparison **out, fl_error *err)
{
    *out = NULL;
    fl_result_compare_options o = opts ? *opts : fl_result_compare_options_default();
    if (!(o.rtol_untoleranced >= 0.0))
        return FL_FAIL(err, FL_EINVAL, "rtol_untoleranced must be >= 0");
    fl_result_comparison *c = calloc(1, sizeof *c);
    if (!c) return FL_FAIL(err, FL_ENOMEM, "out of memory comparing results");
    for (size_t i = 0; i < current->ntasks; i++) {
        const fl_result_task *ct = current->tasks[i];
        const fl_result_task *bt = fl_results_task_find(baseline, ct->name);
        fl_status s = FL_OK;
        if (bt) s = compare_task(c, bt, ct, &o);
        for (size_t k = 0; !bt && s == FL_OK && k < ct->nchecks; k++)
            s = drift_add(c, FL_DRIFT_NEW, ct, NULL, &ct->checks[k], 0.0, 0, 1);
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

