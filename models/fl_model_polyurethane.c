/* fl_model_polyurethane.c — the polyurethane block of 004 §5 from
 * data/004/polyurethane.json (see the header). */
#include "models/fl_model_polyurethane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>

#include "fl_json.h"
#include "models/fl_model_file.h"

/* ---- the data file ---------------------------------------------------------- */

static fl_status whole(const fl_json_doc *doc, const json_t *obj, const char *where, const char *key, double lo,
                       double hi, double v, fl_error *err)
{
    if (!(v >= lo && v <= hi && v == floor(v)))
        return fl_json_error(doc, obj, where, key, err, FL_EINVAL, "%g is not a whole number in [%g, %g]", v, lo, hi);
    return FL_OK;
}

static fl_status load_rows(const fl_json_doc *doc, const json_t *ex, fl_model_polyurethane *o, fl_error *err)
{
    gsl_matrix *T = NULL;
    FL_TRY(fl_json_matrix(doc, ex, "expected", "table_1_rows", 0, 7, &T, err));
    fl_status st = FL_OK;
    if (T->size1 < 1 || T->size1 > FL_MODEL_POLYURETHANE_MAX_ROWS)
        st = fl_json_error(doc, ex, "expected", "table_1_rows", err, FL_EDIM, "1 to %d rows expected (got %zu)",
                           FL_MODEL_POLYURETHANE_MAX_ROWS, T->size1);
    for (size_t i = 0; st == FL_OK && i < T->size1; i++) {
        fl_model_polyurethane_row *r = &o->rows[i];
        r->UT = gsl_matrix_get(T, i, 0);
        for (int c = 1; c <= 6; c++)
            if (c != 4 && c != 5 && (gsl_matrix_get(T, i, (size_t)c) < 0 || gsl_matrix_get(T, i, (size_t)c) > 1e6 ||
                                     gsl_matrix_get(T, i, (size_t)c) != floor(gsl_matrix_get(T, i, (size_t)c))))
                st = fl_json_error(doc, ex, "expected", "table_1_rows", err, FL_EINVAL,
                                   "row %zu, column %d: counts and modes are whole numbers >= 0", i, c);
        if (st != FL_OK) break;
        r->stick = (int)gsl_matrix_get(T, i, 1);
        r->slip = (int)gsl_matrix_get(T, i, 2);
        r->no_contact = (int)gsl_matrix_get(T, i, 3);
        r->ks = gsl_matrix_get(T, i, 4);
        r->lambda = gsl_matrix_get(T, i, 5);
        r->flutter_mode = (int)gsl_matrix_get(T, i, 6);
        if (!(r->UT < 0 && r->UT >= o->UT_final - 0.5 * o->dU) || (i > 0 && !(r->UT < o->rows[i - 1].UT)))
            st = fl_json_error(doc, ex, "expected", "table_1_rows", err, FL_EINVAL,
                               "row %zu: U_T = %g must be negative, decreasing and not beyond U_T_final_mm = %g", i,
                               r->UT, o->UT_final);
        else if (r->stick + r->slip + r->no_contact != (int)o->contact_nodes)
            st = fl_json_error(doc, ex, "expected", "table_1_rows", err, FL_EINVAL,
                               "row %zu: stick + slip + no-contact = %d, not the %ld contact nodes", i,
                               r->stick + r->slip + r->no_contact, o->contact_nodes);
    }
    if (st == FL_OK) o->nrows = (int)T->size1;
    gsl_matrix_free(T);
    return st;
}

/* Mark the rows listed by U_T in array `key` (of numbers, or of objects
 * with U_T_mm and reason). */
static fl_status mark_rows(const fl_json_doc *doc, const json_t *ex, const char *key, int quick,
                           fl_model_polyurethane *o, fl_error *err)
{
    const json_t *arr = NULL;
    FL_TRY(fl_json_array(doc, ex, "expected", key, 0, &arr, err));
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *el = json_array_get(arr, i);
        char where[96];
        snprintf(where, sizeof where, "expected.%s[%zu]", key, i);
        double UT;
        const char *reason = NULL;
        if (quick) {
            if (!json_is_number(el))
                return fl_json_error(doc, arr, "expected", key, err, FL_EPARSE, "element %zu is not a number", i);
            UT = json_number_value(el);
        } else {
            if (!json_is_object(el))
                return fl_json_error(doc, arr, "expected", key, err, FL_EPARSE, "element %zu is not an object", i);
            FL_TRY(fl_json_number(doc, el, where, "U_T_mm", &UT, err));
            FL_TRY(fl_json_string(doc, el, where, "reason", &reason, err));
        }
        int found = 0;
        for (int r = 0; r < o->nrows; r++)
            if (fabs(o->rows[r].UT - UT) < 1e-9) {
                found = 1;
                if (quick) o->rows[r].quick = 1;
                else {
                    snprintf(o->rows[r].reason, sizeof o->rows[r].reason, "%s", reason);
                    o->rows[r].discrepancy = o->rows[r].reason;
                }
            }
        if (!found)
            return fl_json_error(doc, arr, "expected", key, err, FL_EINVAL, "U_T = %g is not a row of table_1_rows", UT);
    }
    return FL_OK;
}

static fl_status load_doc(const fl_json_doc *doc, void *vout, fl_error *err)
{
    fl_model_polyurethane *o = vout;
    const json_t *par = NULL, *ch = NULL, *dm = NULL, *ex = NULL, *ms = NULL;
    const double big = 1e300, tiny = 1e-300;
    double rho_g, HL, nc, v;
    FL_TRY(fl_json_object(doc, doc->root, "", "params", &par, err));
    FL_TRY(fl_json_object(doc, par, "params", "chosen", &ch, err));
    FL_TRY(fl_json_object(doc, ch, "params.chosen", "damping", &dm, err));
    FL_TRY(fl_json_object(doc, doc->root, "", "expected", &ex, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "E_MPa", tiny, big, &o->E, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "nu", 0, 0.4999, &o->nu, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "rho_g_per_mm3", tiny, big, &rho_g, err));
    o->rho = rho_g * 1e-6;                            /* g/mm^3 -> tonne/mm^3 */
    FL_TRY(fl_model_file_number_in(doc, par, "params", "mu", 0, big, &o->mu, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "H_over_L", tiny, big, &HL, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "U_N0_mm", tiny, big, &o->UN, err));
    FL_TRY(fl_model_file_number_in(doc, par, "params", "contact_nodes", 2, 1e5, &nc, err));
    FL_TRY(whole(doc, par, "params", "contact_nodes", 2, 1e5, nc, err));
    o->contact_nodes = (long)nc;
    FL_TRY(fl_model_file_number_in(doc, par, "params", "F_N0_N", -big, -tiny, &o->FN0, err));
    FL_TRY(fl_model_file_number_in(doc, ch, "params.chosen", "L_mm", tiny, big, &o->L, err));
    FL_TRY(fl_model_file_number_in(doc, ch, "params.chosen", "H_mm", tiny, big, &o->H, err));
    if (fabs(o->H / o->L - HL) > 1e-12 * HL)
        return fl_json_error(doc, ch, "params.chosen", "H_mm", err, FL_EINVAL, "H/L = %g differs from params.H_over_L = %g",
                             o->H / o->L, HL);
    FL_TRY(fl_json_array(doc, ch, "params.chosen", "mesh_cells", 2, &ms, err));
    for (size_t i = 0; i < 2; i++) {
        const json_t *el = json_array_get(ms, i);
        v = json_is_number(el) ? json_number_value(el) : -1;
        FL_TRY(whole(doc, ch, "params.chosen", "mesh_cells", 1, 1000, v, err));
        if (i == 0) o->nx = (long)v;
        else o->ny = (long)v;
    }
    FL_TRY(fl_model_file_number_in(doc, ch, "params.chosen", "U_T_increment_mm", 1e-6, big, &o->dU, err));
    FL_TRY(fl_model_file_number_in(doc, ch, "params.chosen", "U_T_final_mm", -big, -o->dU, &o->UT_final, err));
    if (-o->UT_final / o->dU > 1e6)
        return fl_json_error(doc, ch, "params.chosen", "U_T_final_mm", err, FL_EINVAL,
                             "more than 1e6 increments of U_T_increment_mm");
    /* damping */
    gsl_vector *xi = NULL;
    FL_TRY(fl_json_vector(doc, dm, "params.chosen.damping", "levels_xi_at_454Hz", 0, &xi, err));
    fl_status st = FL_OK;
    if (xi->size < 1 || xi->size > FL_MODEL_POLYURETHANE_MAX_LEVELS)
        st = fl_json_error(doc, dm, "params.chosen.damping", "levels_xi_at_454Hz", err, FL_EDIM, "1 to %d levels expected",
                           FL_MODEL_POLYURETHANE_MAX_LEVELS);
    for (size_t i = 0; st == FL_OK && i < xi->size; i++) {
        o->xi[i] = gsl_vector_get(xi, i);
        if (!(o->xi[i] > 0 && o->xi[i] < 1) || (i > 0 && !(o->xi[i] > o->xi[i - 1])))
            st = fl_json_error(doc, dm, "params.chosen.damping", "levels_xi_at_454Hz", err, FL_EINVAL,
                               "level %zu = %g: levels must increase within (0, 1)", i, o->xi[i]);
    }
    o->nlevels = (int)xi->size;
    gsl_vector_free(xi);
    FL_TRY(st);
    FL_TRY(fl_model_file_number_in(doc, dm, "params.chosen.damping", "xi_last_over_xi_first", tiny, 1, &o->xi_ratio, err));
    FL_TRY(fl_model_file_number_in(doc, dm, "params.chosen.damping", "first_mode", 1, 1, &v, err));
    o->first_mode = 1;
    FL_TRY(fl_model_file_number_in(doc, dm, "params.chosen.damping", "last_mode", 2, 38, &v, err));
    FL_TRY(whole(doc, dm, "params.chosen.damping", "last_mode", 2, 38, v, err));
    o->last_mode = (int)v;
    FL_TRY(fl_model_file_number_in(doc, dm, "params.chosen.damping", "low_order_max_mode", 1, 12, &v, err));
    FL_TRY(whole(doc, dm, "params.chosen.damping", "low_order_max_mode", 1, 12, v, err));
    o->low_mode = (int)v;
    /* expected */
    FL_TRY(load_rows(doc, ex, o, err));
    FL_TRY(mark_rows(doc, ex, "quick_rows_U_T_mm", 1, o, err));
    FL_TRY(mark_rows(doc, ex, "table_1_Lambda_discrepancies", 0, o, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "table_1_tolerance_KS", tiny, big, &o->tol_ks, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "table_1_tolerance_Lambda_relative", tiny, big, &o->tol_lambda_rel, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "table_1_Lambda_significant_digits", 1, 17, &v, err));
    FL_TRY(whole(doc, ex, "expected", "table_1_Lambda_significant_digits", 1, 17, v, err));
    o->lambda_digits = (int)v;
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "necessary_condition_U_T_mm", -big, 0, &o->nec_UT, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "damping_onset_strongest_U_T_mm", -big, 0, &o->onset_strongest, err));
    FL_TRY(fl_model_file_number_in(doc, ex, "expected", "damping_onset_tolerance_mm", tiny, big, &o->onset_tol, err));
    const json_t *sw = NULL;
    gsl_vector *sx = NULL, *sm = NULL;
    FL_TRY(fl_json_object(doc, ex, "expected", "damping_mode_switch", &sw, err));
    FL_TRY(fl_json_vector(doc, sw, "expected.damping_mode_switch", "xi", 2, &sx, err));
    st = fl_json_vector(doc, sw, "expected.damping_mode_switch", "mode", 2, &sm, err);
    if (st == FL_OK) {
        int lv[2] = {-1, -1};
        for (int i = 0; i < 2; i++) {
            o->switch_xi[i] = gsl_vector_get(sx, (size_t)i);
            o->switch_mode[i] = (int)gsl_vector_get(sm, (size_t)i);
            for (int l = 0; l < o->nlevels; l++)
                if (o->xi[l] == o->switch_xi[i]) lv[i] = l;
        }
        if (lv[0] < 0 || lv[1] < 0 || lv[1] != lv[0] + 1)
            st = fl_json_error(doc, sw, "expected.damping_mode_switch", "xi", err, FL_EINVAL,
                               "must be two consecutive damping levels of levels_xi_at_454Hz");
    }
    if (sx) gsl_vector_free(sx);
    if (sm) gsl_vector_free(sm);
    return st;
}

fl_status fl_model_polyurethane_load(const char *path, fl_model_polyurethane *out, fl_error *err)
{
    if (!path || !out) return FL_FAIL(err, FL_EINVAL, "fl_model_polyurethane_load: NULL argument");
    fl_status st = fl_model_file_load(path, load_doc, out, sizeof *out, err);
    return st;
}

/* ---- the block --------------------------------------------------------------- */

void fl_model_polyurethane_block_free(fl_model_polyurethane_block *b)
{
    if (!b) return;
    free(b->cn); free(b->ln); free(b->ci); free(b->ii); free(b->pi);
    free(b->loadN); free(b->loadT); free(b->iT); free(b->iN); free(b->fT); free(b->fN); free(b->pres);
    gsl_matrix *mats[] = {b->K, b->M, b->X, b->S, b->Mc};
    for (size_t k = 0; k < sizeof mats / sizeof *mats; k++) if (mats[k]) gsl_matrix_free(mats[k]);
    gsl_vector *vecs[] = {b->f, b->uk, b->g, b->u, b->r, b->ufull, b->rfull};
    for (size_t k = 0; k < sizeof vecs / sizeof *vecs; k++) if (vecs[k]) gsl_vector_free(vecs[k]);
    fl_spd_free(b->spd);
    fl_fe2d_mesh_free(b->mesh);
    memset(b, 0, sizeof *b);
}

/* Contact load for the face displaced by (U_T, U_N). */
static void block_load(fl_model_polyurethane_block *b, double UT)
{
    for (size_t a = 0; a < b->m; a++) gsl_vector_set(b->f, a, b->par->UN * b->loadN[a] + UT * b->loadT[a]);
}

/* Row i of K_ip times the unit patterns u_y' = 1 (sN) and u_x = 1 (sT) on
 * the loaded face. */
static void face_sums(const fl_model_polyurethane_block *b, size_t i, double *sN, double *sT)
{
    *sN = *sT = 0;
    for (size_t k = 0; k < b->nl; k++) {
        *sN += gsl_matrix_get(b->K, i, b->pi[2 * k + 1]);
        *sT += gsl_matrix_get(b->K, i, b->pi[2 * k]);
    }
}

fl_status fl_model_polyurethane_block_init(const fl_model_polyurethane *par, fl_model_polyurethane_block *b,
                                           fl_error *err)
{
    if (!b) return FL_FAIL(err, FL_EINVAL, "fl_model_polyurethane_block_init: NULL argument");
    memset(b, 0, sizeof *b);
    if (!par) return FL_FAIL(err, FL_EINVAL, "fl_model_polyurethane_block_init: NULL argument");
    b->par = par;
    FL_TRY(fl_fe2d_mesh_rect(0.0, -par->H, par->L, par->H, (size_t)par->nx, (size_t)par->ny, FL_FE2D_CROSS, &b->mesh,
                             err));
    fl_fe2d_material mat = {.lambda = par->E * par->nu / ((1 + par->nu) * (1 - 2 * par->nu)),
                            .mu = par->E / (2 * (1 + par->nu)), .rho = par->rho, .model = FL_FE2D_PLANE_STRESS};
    FL_TRY(fl_fe2d_assemble_dense(b->mesh, &mat, FL_FE2D_STIFFNESS, &b->K, err));
    FL_TRY(fl_fe2d_assemble_dense(b->mesh, &mat, FL_FE2D_MASS, &b->M, err));
    FL_TRY(fl_fe2d_nodes_on_line(b->mesh, 1, 0.0, 1e-9, &b->nc, &b->cn, err));
    FL_TRY(fl_fe2d_nodes_on_line(b->mesh, 1, -par->H, 1e-9, &b->nl, &b->ln, err));
    if ((long)b->nc != par->contact_nodes)
        return FL_FAIL(err, FL_EINVAL, "polyurethane: the %ld x %ld mesh has %zu contact nodes, the data file says %ld",
                       par->nx, par->ny, b->nc, par->contact_nodes);
    size_t n = b->n = b->K->size1, nc = b->nc, nl = b->nl, m = b->m = 2 * nc;
    int *cls = calloc(n, sizeof *cls);   /* 0 interior, 1 contact, 2 prescribed */
    b->ci = malloc(m * sizeof *b->ci);
    b->ii = malloc(n * sizeof *b->ii);
    b->pi = malloc(2 * nl * sizeof *b->pi);
    b->loadN = malloc(m * sizeof *b->loadN);
    b->loadT = malloc(m * sizeof *b->loadT);
    b->iT = malloc(nc * sizeof *b->iT); b->iN = malloc(nc * sizeof *b->iN);
    b->fT = malloc(nc * sizeof *b->fT); b->fN = malloc(nc * sizeof *b->fN);
    b->pres = calloc(n, 1);
    if (!cls || !b->ci || !b->ii || !b->pi || !b->loadN || !b->loadT || !b->iT || !b->iN || !b->fT || !b->fN || !b->pres) {
        free(cls);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < nc; k++) {
        b->ci[2 * k] = 2 * (size_t)b->cn[k];
        b->ci[2 * k + 1] = 2 * (size_t)b->cn[k] + 1;
        cls[b->ci[2 * k]] = cls[b->ci[2 * k + 1]] = 1;
        b->iT[k] = 2 * k; b->iN[k] = 2 * k + 1;
        b->fT[k] = b->ci[2 * k]; b->fN[k] = b->ci[2 * k + 1];
    }
    for (size_t k = 0; k < nl; k++) {
        b->pi[2 * k] = 2 * (size_t)b->ln[k];
        b->pi[2 * k + 1] = 2 * (size_t)b->ln[k] + 1;
        cls[b->pi[2 * k]] = cls[b->pi[2 * k + 1]] = 2;
        b->pres[b->pi[2 * k]] = b->pres[b->pi[2 * k + 1]] = 1;
    }
    for (size_t i = 0; i < n; i++) if (cls[i] == 0) b->ii[b->ni++] = i;
    free(cls);
    size_t ni = b->ni;
    /* S = K_cc - K_ci K_ii^-1 K_ic; f_c = -(K_cp - K_ci K_ii^-1 K_ip) u_p */
    gsl_matrix *Kii = gsl_matrix_alloc(ni, ni), *B = gsl_matrix_alloc(ni, m + 2);
    b->X = gsl_matrix_alloc(ni, m + 2);
    b->S = gsl_matrix_alloc(m, m);
    b->Mc = gsl_matrix_alloc(m, m);
    if (!Kii || !B || !b->X || !b->S || !b->Mc) {
        if (Kii) gsl_matrix_free(Kii);
        if (B) gsl_matrix_free(B);
        return FL_FAIL(err, FL_ENOMEM, "out of memory");
    }
    for (size_t a = 0; a < ni; a++) {
        for (size_t c = 0; c < ni; c++) gsl_matrix_set(Kii, a, c, gsl_matrix_get(b->K, b->ii[a], b->ii[c]));
        for (size_t c = 0; c < m; c++) gsl_matrix_set(B, a, c, gsl_matrix_get(b->K, b->ii[a], b->ci[c]));
        double sN, sT;
        face_sums(b, b->ii[a], &sN, &sT);
        gsl_matrix_set(B, a, m, sN);
        gsl_matrix_set(B, a, m + 1, sT);
    }
    fl_status st = fl_spd_alloc(Kii, &b->spd, err);
    if (st == FL_OK) st = fl_spd_solve_matrix(b->spd, B, b->X);
    gsl_matrix_free(Kii);
    gsl_matrix_free(B);
    FL_TRY(st);
    for (size_t a = 0; a < m; a++) {
        for (size_t c = 0; c < m; c++) {
            double v = gsl_matrix_get(b->K, b->ci[a], b->ci[c]);
            for (size_t k = 0; k < ni; k++) v -= gsl_matrix_get(b->K, b->ci[a], b->ii[k]) * gsl_matrix_get(b->X, k, c);
            gsl_matrix_set(b->S, a, c, v);
        }
        double sN, sT;
        face_sums(b, b->ci[a], &sN, &sT);
        for (size_t k = 0; k < ni; k++) {
            sN -= gsl_matrix_get(b->K, b->ci[a], b->ii[k]) * gsl_matrix_get(b->X, k, m);
            sT -= gsl_matrix_get(b->K, b->ci[a], b->ii[k]) * gsl_matrix_get(b->X, k, m + 1);
        }
        b->loadN[a] = -sN;
        b->loadT[a] = -sT;
    }
    gsl_matrix_set_identity(b->Mc);
    b->sc = (fl_stability_system){.n = m, .K = b->S, .M = b->Mc, .prescribed = NULL, .np = nc, .iT = b->iT, .iN = b->iN, .mu = par->mu};
    b->sf = (fl_stability_system){.n = n, .K = b->K, .M = b->M, .prescribed = b->pres, .np = nc, .iT = b->fT, .iN = b->fN, .mu = par->mu};
    b->f = gsl_vector_alloc(m); b->uk = gsl_vector_calloc(m); b->g = gsl_vector_calloc(nc);
    b->u = gsl_vector_calloc(m); b->r = gsl_vector_alloc(m);
    b->ufull = gsl_vector_calloc(n); b->rfull = gsl_vector_alloc(n);
    if (!b->f || !b->uk || !b->g || !b->u || !b->r || !b->ufull || !b->rfull) return FL_FAIL(err, FL_ENOMEM, "out of memory");
    b->qo = fl_quasistatic_options_default();
    b->qo.tol = 1e-13;
    block_load(b, 0.0);
    fl_quasistatic_result qr;
    FL_TRY(fl_quasistatic_step(&(fl_quasistatic_system){.dense = &b->sc}, b->f, b->uk, b->g, b->u, b->r, &b->qo, &qr, err));
    double FN1 = 0;
    for (size_t k = 0; k < nc; k++) FN1 += gsl_vector_get(b->r, b->iN[k]);
    if (!(FN1 < 0)) return FL_FAIL(err, FL_EINVAL, "pressing gave no compressive normal force (%g)", FN1);
    b->thick = par->FN0 / FN1;
    return FL_OK;
}

fl_status fl_model_polyurethane_advance(fl_model_polyurethane_block *b, double UT, fl_quasistatic_result *qr, fl_error *err)
{
    gsl_vector_memcpy(b->uk, b->u);
    block_load(b, UT);
    return fl_quasistatic_step(&(fl_quasistatic_system){.dense = &b->sc}, b->f, b->uk, b->g, b->u, b->r, &b->qo, qr, err);
}

/* u_i = -K_ii^-1 (K_ic u_c + K_ip u_p), r = K u with the interior residue
 * set to its exact 0. */
fl_status fl_model_polyurethane_state(fl_model_polyurethane_block *b, double UT, fl_stability_label *lab, int *nst,
                                      int *nsl, int *nfr, double *FT, double *FN, fl_error *err)
{
    gsl_vector_set_zero(b->ufull);
    for (size_t a = 0; a < b->m; a++) gsl_vector_set(b->ufull, b->ci[a], gsl_vector_get(b->u, a));
    for (size_t k = 0; k < b->nl; k++) {
        gsl_vector_set(b->ufull, b->pi[2 * k], UT);
        gsl_vector_set(b->ufull, b->pi[2 * k + 1], b->par->UN);
    }
    for (size_t a = 0; a < b->ni; a++) {
        double v = b->par->UN * gsl_matrix_get(b->X, a, b->m) + UT * gsl_matrix_get(b->X, a, b->m + 1);
        for (size_t c = 0; c < b->m; c++) v += gsl_matrix_get(b->X, a, c) * gsl_vector_get(b->u, c);
        gsl_vector_set(b->ufull, b->ii[a], -v);
    }
    gsl_blas_dgemv(CblasNoTrans, 1.0, b->K, b->ufull, 0.0, b->rfull);   /* r = K u (f = 0) */
    for (size_t a = 0; a < b->ni; a++) gsl_vector_set(b->rfull, b->ii[a], 0.0);
    double ft = 0, fn = 0;
    for (size_t k = 0; k < b->nc; k++) {
        ft += gsl_vector_get(b->rfull, b->fT[k]);
        fn += gsl_vector_get(b->rfull, b->fN[k]);
    }
    if (lab) {      /* the partition (it checks the whole system: O(n^2)) */
        FL_TRY(fl_stability_partition(&b->sf, b->ufull, b->rfull, 1e-7, lab, err));
        *nst = *nsl = *nfr = 0;
        for (size_t k = 0; k < b->nc; k++) {
            *nst += lab[k] == FL_STAB_PD;
            *nsl += lab[k] == FL_STAB_PS;
            *nfr += lab[k] == FL_STAB_PF || lab[k] == FL_STAB_PZ;
        }
    }
    if (FT) *FT = ft;
    if (FN) *FN = fn;
    return FL_OK;
}

fl_status fl_model_polyurethane_sparse_init(const fl_model_polyurethane_block *b, fl_model_polyurethane_sparse *ps,
                                            fl_error *err)
{
    memset(ps, 0, sizeof *ps);
    FL_TRY(fl_sparse_start(&ps->ctx, err));
    FL_TRY(fl_sparse_from_dense(&ps->ctx, b->K, 1, 0.0, &ps->K, err));
    FL_TRY(fl_sparse_from_dense(&ps->ctx, b->M, 1, 0.0, &ps->M, err));
    ps->s = (fl_stability_system_sparse){.n = b->n, .K = ps->K, .M = ps->M, .prescribed = b->pres, .np = b->nc,
                                    .iT = b->fT, .iN = b->fN, .mu = b->par->mu};
    return FL_OK;
}

void fl_model_polyurethane_sparse_free(fl_model_polyurethane_sparse *ps)
{
    if (!ps) return;
    fl_sparse_free(&ps->ctx, &ps->K);
    fl_sparse_free(&ps->ctx, &ps->M);
    fl_sparse_finish(&ps->ctx);
}

/* 004 §5.7; proofs/stability.md §3. */
void fl_model_polyurethane_rayleigh(double xi1, double ratio, double w1, double w2, double *alpha, double *beta)
{
    double z1 = xi1 / sqrt(1 + xi1 * xi1), x2 = ratio * xi1, z2 = x2 / sqrt(1 + x2 * x2);
    /* [1/(2 w1)  w1/2; 1/(2 w2) w2/2] (alpha, beta) = (z1, z2) */
    double a11 = 0.5 / w1, a12 = 0.5 * w1, a21 = 0.5 / w2, a22 = 0.5 * w2, det = a11 * a22 - a12 * a21;
    *alpha = (z1 * a22 - a12 * z2) / det;
    *beta = (a11 * z2 - a21 * z1) / det;
}
