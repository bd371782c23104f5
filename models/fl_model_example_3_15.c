/* fl_model_example_3_15.c — 004 §3.5 Example 3.15 (Fig. 7) from
 * data/004/example_3_15.json (see the header). */
#include "models/fl_model_example_3_15.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fl_json.h"
#include "models/fl_model_file.h"

static fl_status read_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_model_example_3_15 *out = vout;
    const json_t *par = NULL, *ex = NULL;
    const double tiny = 1e-300, big = 1e300;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "expected", &ex, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "K", tiny, big, &out->K, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "M", tiny, big, &out->M, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "P", tiny, big, &out->P, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "tolerance", tiny, big, &out->tol, err));
    FL_TRY(fl_json_vector(doc, par, "params", "mu", 0, &out->mu, err));
    if (out->mu->size == 0) return fl_json_error(doc, par, "params", "mu", err, FL_EDIM, "the mu grid is empty");
    for (size_t i = 0; i < out->mu->size; i++)
        if (!(gsl_vector_get(out->mu, i) >= 0))
            return fl_json_error(doc, par, "params", "mu", err, FL_EINVAL, "mu[%zu] = %g is negative", i,
                                 gsl_vector_get(out->mu, i));
    return FL_OK;
}

/* The reader for fl_model_file_load: on error it frees the vectors read
 * so far itself, since the frame zeroes the model (and its pointers) after. */
static fl_status load_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_status st = read_doc(doc, vout, err);
    if (st != FL_OK) fl_model_example_3_15_release(vout);
    return st;
}

fl_status fl_model_example_3_15_load(const char *path, fl_model_example_3_15 *out, fl_error *err)
{
    if (!path || !out) return FL_FAIL(err, FL_EINVAL, "fl_model_example_3_15_load: NULL argument");
    return fl_model_file_load(path, load_doc, out, sizeof *out, err);
}

void fl_model_example_3_15_release(fl_model_example_3_15 *m)
{
    if (!m) return;
    if (m->mu) gsl_vector_free(m->mu);
    m->mu = NULL;
}

/* 004 Example 3.15: K, M of Fig. 7, the load f and the equilibrium (30). */
fl_status fl_model_example_3_15_system_alloc(double K, double M, double P, double mu,
                                             fl_model_example_3_15_system **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fl_model_example_3_15_system_alloc: NULL argument");
    *out = NULL;
    if (!(K > 0 && M > 0 && P > 0 && mu >= 0) || !isfinite(K) || !isfinite(M) || !isfinite(P) || !isfinite(mu))
        return FL_FAIL(err, FL_EINVAL, "Example 3.15: K, M, P must be finite and > 0, mu >= 0 (got %g, %g, %g, %g)",
                       K, M, P, mu);
    fl_model_example_3_15_system *e = calloc(1, sizeof *e);
    if (!e) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    e->K = gsl_matrix_alloc(4, 4);
    e->M = gsl_matrix_calloc(4, 4);
    e->u0 = gsl_vector_calloc(4);
    e->r0 = gsl_vector_calloc(4);
    e->f = gsl_vector_calloc(4);
    if (!e->K || !e->M || !e->u0 || !e->r0 || !e->f) {
        fl_model_example_3_15_system_free(e);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    static const double k[4][4] = {{1, -1, 0, 0}, {-1, 2, 0, -1}, {0, 0, 1, 0}, {0, -1, 0, 1}};
    for (size_t i = 0; i < 4; i++) {
        for (size_t j = 0; j < 4; j++) gsl_matrix_set(e->K, i, j, K * k[i][j]);
        gsl_matrix_set(e->M, i, i, M);
    }
    /* f = Phi - K Psi = (-2P, 2P, mu P, 0); u0 = (0, P/K, 0, 0); r0 = K u0 - f */
    gsl_vector_set(e->f, 0, -2 * P);
    gsl_vector_set(e->f, 1, 2 * P);
    gsl_vector_set(e->f, 2, mu * P);
    gsl_vector_set(e->u0, 1, P / K);
    gsl_vector_set(e->r0, 0, P);
    gsl_vector_set(e->r0, 2, -mu * P);
    gsl_vector_set(e->r0, 3, -P);
    e->pres[0] = 1;
    e->iT = 2;
    e->iN = 3;
    e->s = (fl_stability_system){.n = 4, .K = e->K, .M = e->M, .prescribed = e->pres, .np = 1,
                            .iT = &e->iT, .iN = &e->iN, .mu = mu};
    *out = e;
    return FL_OK;
}

void fl_model_example_3_15_system_free(fl_model_example_3_15_system *e)
{
    if (!e) return;
    if (e->K) gsl_matrix_free(e->K);
    if (e->M) gsl_matrix_free(e->M);
    if (e->u0) gsl_vector_free(e->u0);
    if (e->r0) gsl_vector_free(e->r0);
    if (e->f) gsl_vector_free(e->f);
    free(e);
}
