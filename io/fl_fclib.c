/* fl_fclib.c — FCLIB files: write through libfclib, read through HDF5 with
 * every field checked (see fl_fclib.h; conventions in proofs/fclib.md). */
#include "fl_fclib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

#include <fclib.h>
#include <hdf5.h>

/* ------------------------------------------------------------------ */
/* solutions                                                           */
/* ------------------------------------------------------------------ */

fl_status fl_fclib_solution_alloc(size_t n, size_t m, fl_fclib_solution **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib solution: NULL output");
    *out = NULL;
    if (m == 0) return FL_FAIL(err, FL_EINVAL, "fclib solution: m must be positive");
    fl_fclib_solution *s = calloc(1, sizeof *s);
    if (!s) return FL_FAIL(err, FL_ENOMEM, "fclib solution: out of memory");
    s->n = n;
    s->m = m;
    s->u = calloc(m, sizeof *s->u);
    s->r = calloc(m, sizeof *s->r);
    if (n) s->v = calloc(n, sizeof *s->v);
    if (!s->u || !s->r || (n && !s->v)) {
        fl_fclib_solution_free(s);
        return FL_FAIL(err, FL_ENOMEM, "fclib solution: out of memory");
    }
    *out = s;
    return FL_OK;
}

void fl_fclib_solution_free(fl_fclib_solution *s)
{
    if (!s) return;
    free(s->v);
    free(s->u);
    free(s->r);
    free(s);
}

void fl_fclib_guesses_free(fl_fclib_solution **g, size_t count)
{
    if (!g) return;
    for (size_t k = 0; k < count; k++) fl_fclib_solution_free(g[k]);
    free(g);
}

/* ------------------------------------------------------------------ */
/* matrices in compressed-column form for the writer                   */
/* ------------------------------------------------------------------ */

typedef struct csc {
    int m, n, nnz;
    int *p, *i;
    double *x;
} csc;

static void csc_free(csc *c)
{
    free(c->p);
    free(c->i);
    free(c->x);
    memset(c, 0, sizeof *c);
}

/* Triplets (row, col, val) of nnz entries -> CSC of nrow x ncol (counting
 * sort by column; row order within a column as given). */
static int csc_from_triplets(int nrow, int ncol, size_t nnz, const int *row, const int *col,
                             const double *val, csc *c)
{
    c->m = nrow;
    c->n = ncol;
    c->nnz = (int)nnz;
    c->p = calloc((size_t)ncol + 1, sizeof *c->p);
    c->i = malloc((nnz ? nnz : 1) * sizeof *c->i);
    c->x = malloc((nnz ? nnz : 1) * sizeof *c->x);
    if (!c->p || !c->i || !c->x) return -1;
    for (size_t k = 0; k < nnz; k++) c->p[col[k] + 1]++;
    for (int j = 0; j < ncol; j++) c->p[j + 1] += c->p[j];
    int *next = malloc(((size_t)ncol + 1) * sizeof *next);
    if (!next) return -1;
    memcpy(next, c->p, ((size_t)ncol + 1) * sizeof *next);
    for (size_t k = 0; k < nnz; k++) {
        int at = next[col[k]]++;
        c->i[at] = row[k];
        c->x[at] = val[k];
    }
    free(next);
    return 0;
}

/* CSC of A (dense A or sparse As; transpose != 0: of A^T), zeros dropped,
 * symmetric storage of As expanded. */
static fl_status csc_of(const gsl_matrix *A, const cholmod_sparse *As, int transpose, csc *c,
                        const char *what, fl_error *err)
{
    memset(c, 0, sizeof *c);
    size_t cap = 0, nnz = 0, nrow, ncol;
    int *row = NULL, *col = NULL;
    double *val = NULL;
    if (A) {
        nrow = A->size1;
        ncol = A->size2;
        cap = nrow * ncol;
    } else if (As) {
        nrow = As->nrow;
        ncol = As->ncol;
        const int *Ap = As->p, *Anz = As->nz;
        for (size_t j = 0; j < ncol; j++)
            cap += (size_t)(As->packed ? Ap[j + 1] - Ap[j] : Anz[j]);
        cap = 2 * cap + 1;
    } else {
        return FL_FAIL(err, FL_EINVAL, "fclib write: matrix %s missing", what);
    }
    if (cap == 0) cap = 1;
    row = malloc(cap * sizeof *row);
    col = malloc(cap * sizeof *col);
    val = malloc(cap * sizeof *val);
    if (!row || !col || !val) goto nomem;
    if (A) {
        for (size_t i = 0; i < nrow; i++)
            for (size_t j = 0; j < ncol; j++) {
                double a = gsl_matrix_get(A, i, j);
                if (a == 0.0) continue;
                row[nnz] = (int)i;
                col[nnz] = (int)j;
                val[nnz++] = a;
            }
    } else {
        const int *Ap = As->p, *Ai = As->i, *Anz = As->nz;
        const double *Ax = As->x;
        for (size_t j = 0; j < ncol; j++) {
            int start = Ap[j], end = As->packed ? Ap[j + 1] : Ap[j] + Anz[j];
            for (int k = start; k < end; k++) {
                int i = Ai[k];
                double a = Ax[k];
                if (a == 0.0) continue;
                if ((As->stype > 0 && (size_t)i > j) || (As->stype < 0 && (size_t)i < j))
                    continue;
                row[nnz] = i;
                col[nnz] = (int)j;
                val[nnz++] = a;
                if (As->stype != 0 && (size_t)i != j) {
                    row[nnz] = (int)j;
                    col[nnz] = i;
                    val[nnz++] = a;
                }
            }
        }
    }
    int rc = transpose ? csc_from_triplets((int)ncol, (int)nrow, nnz, col, row, val, c)
                       : csc_from_triplets((int)nrow, (int)ncol, nnz, row, col, val, c);
    free(row);
    free(col);
    free(val);
    if (rc != 0) {
        csc_free(c);
        return FL_FAIL(err, FL_ENOMEM, "fclib write: out of memory");
    }
    return FL_OK;
nomem:
    free(row);
    free(col);
    free(val);
    return FL_FAIL(err, FL_ENOMEM, "fclib write: out of memory");
}

static void csc_to_fclib(csc *c, struct fclib_matrix *fm)
{
    memset(fm, 0, sizeof *fm);
    fm->nzmax = c->nnz > 0 ? c->nnz : 1;
    fm->m = c->m;
    fm->n = c->n;
    fm->p = c->p;
    fm->i = c->i;
    fm->x = c->x;
    fm->nz = -1;
    fm->info = NULL;
}

/* libfclib's writers open an existing file and add to it: start afresh, and
 * check first that the path can be created (libfclib exits on HDF5 errors). */
static fl_status fresh_file(const char *path, fl_error *err)
{
    if (!path) return FL_FAIL(err, FL_EINVAL, "fclib write: NULL path");
    FILE *f = fopen(path, "wb");
    if (!f) return fl_error_set(err, FL_EIO, path, 0, 0, "cannot create the file");
    fclose(f);
    if (remove(path) != 0) return fl_error_set(err, FL_EIO, path, 0, 0, "cannot replace the file");
    return FL_OK;
}

static struct fclib_info *make_info(const char *title, struct fclib_info *info)
{
    if (!title) return NULL;
    info->title = (char *)title;
    info->description = (char *)"written by frictionlab";
    info->math_info = (char *)"";
    return info;
}

static int finite_all(const double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k])) return 0;
    return 1;
}

fl_status fl_fclib_write_local(const char *path, const fl_local_problem *p, const char *title,
                               fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "fclib write: NULL problem");
    FL_TRY(fl_local_problem_check(p, err));
    FL_TRY(fresh_file(path, err));
    csc W;
    FL_TRY(csc_of(p->W, p->W ? NULL : p->Ws, 0, &W, "W", err));
    struct fclib_matrix fW;
    csc_to_fclib(&W, &fW);
    struct fclib_info info;
    struct fclib_local L;
    memset(&L, 0, sizeof L);
    L.W = &fW;
    L.mu = p->mu;
    L.q = p->q->data;
    if (p->q->stride != 1) {
        csc_free(&W);
        return FL_FAIL(err, FL_EINVAL, "fclib write: q must be contiguous");
    }
    L.spacedim = p->dim;
    L.info = make_info(title, &info);
    int ok = fclib_write_local(&L, path);
    csc_free(&W);
    if (!ok) return fl_error_set(err, FL_EEXTERNAL, path, 0, 0, "libfclib could not write the local problem");
    return FL_OK;
}

fl_status fl_fclib_write_global(const char *path, const fl_global_problem *g, const char *title,
                                fl_error *err)
{
    if (!g) return FL_FAIL(err, FL_EINVAL, "fclib write: NULL problem");
    if (!g->f || !g->w || !g->mu || g->f->size != g->n || g->w->size != g->m ||
        g->f->stride != 1 || g->w->stride != 1)
        return FL_FAIL(err, FL_EDIM, "fclib write: global problem f, w or mu missing or of wrong size");
    if (!finite_all(g->f->data, g->n) || !finite_all(g->w->data, g->m) ||
        !finite_all(g->mu, g->nc))
        return FL_FAIL(err, FL_ENONFINITE, "fclib write: global problem has NaN or Inf in f, w or mu");
    if ((g->M && (g->M->size1 != g->n || g->M->size2 != g->n)) ||
        (g->H && (g->H->size1 != g->m || g->H->size2 != g->n)))
        return FL_FAIL(err, FL_EDIM, "fclib write: M must be n x n and H m x n");
    FL_TRY(fresh_file(path, err));
    csc M, H;
    FL_TRY(csc_of(g->M, g->M ? NULL : g->Ms, 0, &M, "M", err));
    fl_status s = csc_of(g->H, g->H ? NULL : g->Hs, 1, &H, "H", err);
    if (s != FL_OK) {
        csc_free(&M);
        return s;
    }
    struct fclib_matrix fM, fH;
    csc_to_fclib(&M, &fM);
    csc_to_fclib(&H, &fH);
    struct fclib_info info;
    struct fclib_global G;
    memset(&G, 0, sizeof G);
    G.M = &fM;
    G.H = &fH;
    G.mu = g->mu;
    G.f = g->f->data;
    G.w = g->w->data;
    G.spacedim = g->dim;
    G.info = make_info(title, &info);
    int ok = fclib_write_global(&G, path);
    csc_free(&M);
    csc_free(&H);
    if (!ok) return fl_error_set(err, FL_EEXTERNAL, path, 0, 0, "libfclib could not write the global problem");
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* reading with HDF5                                                   */
/* ------------------------------------------------------------------ */

typedef struct reader {
    hid_t f;
    const char *path;
    fl_error *err;
    H5E_auto2_t old_func;
    void *old_data;
} reader;

static fl_status rd_open(reader *rd, const char *path, fl_error *err)
{
    memset(rd, 0, sizeof *rd);
    rd->f = -1;
    rd->path = path;
    rd->err = err;
    if (!path) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL path");
    H5Eget_auto2(H5E_DEFAULT, &rd->old_func, &rd->old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        H5Eset_auto2(H5E_DEFAULT, rd->old_func, rd->old_data);
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot open the file");
    }
    fclose(fp);
    if (H5Fis_hdf5(path) <= 0) {
        H5Eset_auto2(H5E_DEFAULT, rd->old_func, rd->old_data);
        return fl_error_set(err, FL_EPARSE, path, 0, 0,
                            "not an HDF5 file (or a truncated one): not an FCLIB file");
    }
    rd->f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (rd->f < 0) {
        H5Eset_auto2(H5E_DEFAULT, rd->old_func, rd->old_data);
        return fl_error_set(err, FL_EPARSE, path, 0, 0, "HDF5 cannot open the file (truncated?)");
    }
    return FL_OK;
}

static void rd_close(reader *rd)
{
    if (rd->f >= 0) H5Fclose(rd->f);
    rd->f = -1;
    H5Eset_auto2(H5E_DEFAULT, rd->old_func, rd->old_data);
}

/* 1 if every component of the absolute link name exists. */
static int rd_exists(reader *rd, const char *name)
{
    char buf[256];
    size_t len = strlen(name);
    if (len >= sizeof buf) return 0;
    memcpy(buf, name, len + 1);
    for (size_t k = 1; k <= len; k++) {
        if (buf[k] == '/' || buf[k] == '\0') {
            char c = buf[k];
            buf[k] = '\0';
            if (H5Lexists(rd->f, buf, H5P_DEFAULT) <= 0) return 0;
            buf[k] = c;
        }
    }
    return 1;
}

static fl_status rd_fail(reader *rd, fl_status s, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static fl_status rd_fail(reader *rd, fl_status s, const char *field, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fl_error_set(rd->err, s, rd->path, 0, 0, "field %s: %s", field, msg);
}

/* Read the 1-D dataset `name` (integers if ints, else doubles) into a new
 * array; *len gets its length; want > 0 requires exactly that length. */
static fl_status rd_array(reader *rd, const char *name, int ints, size_t want, void **out,
                          size_t *len)
{
    *out = NULL;
    if (!rd_exists(rd, name)) return rd_fail(rd, FL_EPARSE, name, "missing dataset");
    hid_t ds = H5Dopen2(rd->f, name, H5P_DEFAULT);
    if (ds < 0) return rd_fail(rd, FL_EPARSE, name, "not a dataset");
    hid_t sp = H5Dget_space(ds), ty = H5Dget_type(ds);
    fl_status s = FL_OK;
    hsize_t dims[2] = {0, 0};
    int nd = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    H5T_class_t cls = ty >= 0 ? H5Tget_class(ty) : H5T_NO_CLASS;
    if (nd != 1) {
        s = rd_fail(rd, FL_EPARSE, name, "expected a 1-D dataset, found rank %d", nd);
        goto done;
    }
    H5Sget_simple_extent_dims(sp, dims, NULL);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
        s = rd_fail(rd, FL_EPARSE, name, "expected numbers");
        goto done;
    }
    if (ints && cls != H5T_INTEGER) {
        s = rd_fail(rd, FL_EPARSE, name, "expected integers, found floating-point values");
        goto done;
    }
    if (want > 0 && dims[0] != want) {
        s = rd_fail(rd, FL_EDIM, name, "length %llu, expected %zu", (unsigned long long)dims[0],
                    want);
        goto done;
    }
    size_t n = (size_t)dims[0];
    void *buf = malloc((n ? n : 1) * (ints ? sizeof(int) : sizeof(double)));
    if (!buf) {
        s = rd_fail(rd, FL_ENOMEM, name, "out of memory");
        goto done;
    }
    if (n > 0 && H5Dread(ds, ints ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                         H5P_DEFAULT, buf) < 0) {
        free(buf);
        s = rd_fail(rd, FL_EPARSE, name, "HDF5 read failed (truncated file?)");
        goto done;
    }
    if (!ints && !finite_all(buf, n)) {
        free(buf);
        s = rd_fail(rd, FL_ENONFINITE, name, "NaN or Inf value");
        goto done;
    }
    *out = buf;
    *len = n;
done:
    if (ty >= 0) H5Tclose(ty);
    if (sp >= 0) H5Sclose(sp);
    H5Dclose(ds);
    return s;
}

static fl_status rd_int(reader *rd, const char *name, int *v)
{
    int *a;
    size_t len;
    FL_TRY(rd_array(rd, name, 1, 1, (void **)&a, &len));
    *v = a[0];
    free(a);
    return FL_OK;
}

static fl_status rd_doubles(reader *rd, const char *name, size_t want, double **out)
{
    size_t len;
    return rd_array(rd, name, 0, want, (void **)out, &len);
}

/* A matrix in FCLIB form under group `g` as triplets. */
typedef struct trip {
    int m, n;
    size_t nnz;
    int *row, *col;
    double *val;
} trip;

static void trip_free(trip *t)
{
    free(t->row);
    free(t->col);
    free(t->val);
    memset(t, 0, sizeof *t);
}

static fl_status rd_matrix(reader *rd, const char *g, int want_m, int want_n, trip *t)
{
    char name[256], field[256];
    memset(t, 0, sizeof *t);
    int m, n, nz;
    snprintf(name, sizeof name, "%s/m", g);
    FL_TRY(rd_int(rd, name, &m));
    snprintf(name, sizeof name, "%s/n", g);
    FL_TRY(rd_int(rd, name, &n));
    snprintf(name, sizeof name, "%s/nz", g);
    FL_TRY(rd_int(rd, name, &nz));
    snprintf(field, sizeof field, "%s/m,n", g);
    if (m != want_m || n != want_n)
        return rd_fail(rd, FL_EDIM, field, "matrix is %d x %d, expected %d x %d", m, n, want_m,
                       want_n);
    int *p = NULL, *ix = NULL;
    double *x = NULL;
    size_t lp, li, lx;
    fl_status s;
    snprintf(name, sizeof name, "%s/p", g);
    if ((s = rd_array(rd, name, 1, 0, (void **)&p, &lp)) != FL_OK) return s;
    snprintf(name, sizeof name, "%s/i", g);
    if ((s = rd_array(rd, name, 1, 0, (void **)&ix, &li)) != FL_OK) goto out;
    snprintf(name, sizeof name, "%s/x", g);
    if ((s = rd_array(rd, name, 0, 0, (void **)&x, &lx)) != FL_OK) goto out;
    size_t count;
    if (nz == -1 || nz == -2) {
        int outer = nz == -1 ? n : m, inner = nz == -1 ? m : n;
        snprintf(field, sizeof field, "%s/p", g);
        if (lp != (size_t)outer + 1 || p[0] != 0) {
            s = rd_fail(rd, FL_EDIM, field, "compressed pointers: length %zu, expected %d with p[0] = 0",
                        lp, outer + 1);
            goto out;
        }
        for (int k = 0; k < outer; k++)
            if (p[k + 1] < p[k]) {
                s = rd_fail(rd, FL_EPARSE, field, "pointers decrease at %d", k);
                goto out;
            }
        count = (size_t)p[outer];
        if (li < count || lx < count) {
            snprintf(field, sizeof field, "%s/%s", g, li < count ? "i" : "x");
            s = rd_fail(rd, FL_EDIM, field, "%zu entries, pointers need %zu",
                        li < count ? li : lx, count);
            goto out;
        }
        t->row = malloc((count ? count : 1) * sizeof *t->row);
        t->col = malloc((count ? count : 1) * sizeof *t->col);
        for (int k = 0; t->row && t->col && k < outer; k++)
            for (int e = p[k]; e < p[k + 1]; e++) {
                if (ix[e] < 0 || ix[e] >= inner) {
                    snprintf(field, sizeof field, "%s/i", g);
                    s = rd_fail(rd, FL_EPARSE, field, "index %d out of range [0, %d)", ix[e], inner);
                    goto out;
                }
                t->row[e] = nz == -1 ? ix[e] : k;
                t->col[e] = nz == -1 ? k : ix[e];
            }
    } else if (nz >= 0) {
        count = (size_t)nz;
        if (lp < count || li < count || lx < count) {
            snprintf(field, sizeof field, "%s/p,i,x", g);
            s = rd_fail(rd, FL_EDIM, field, "triplet arrays shorter than nz = %d", nz);
            goto out;
        }
        t->row = malloc((count ? count : 1) * sizeof *t->row);
        t->col = malloc((count ? count : 1) * sizeof *t->col);
        for (size_t e = 0; t->row && t->col && e < count; e++) {
            if (p[e] < 0 || p[e] >= m || ix[e] < 0 || ix[e] >= n) {
                snprintf(field, sizeof field, "%s/p,i", g);
                s = rd_fail(rd, FL_EPARSE, field, "triplet %zu: (%d, %d) out of range", e, p[e],
                            ix[e]);
                goto out;
            }
            t->row[e] = p[e];
            t->col[e] = ix[e];
        }
    } else {
        snprintf(field, sizeof field, "%s/nz", g);
        s = rd_fail(rd, FL_EPARSE, field, "unknown storage nz = %d", nz);
        goto out;
    }
    if (!t->row || !t->col) {
        s = rd_fail(rd, FL_ENOMEM, g, "out of memory");
        goto out;
    }
    t->m = m;
    t->n = n;
    t->nnz = count;
    t->val = x;
    x = NULL;
out:
    free(p);
    free(ix);
    free(x);
    if (s != FL_OK) trip_free(t);
    return s;
}

static fl_status trip_to_dense(const trip *t, int transpose, gsl_matrix *A)
{
    gsl_matrix_set_zero(A);
    for (size_t e = 0; e < t->nnz; e++) {
        size_t i = (size_t)t->row[e], j = (size_t)t->col[e];
        if (transpose) *gsl_matrix_ptr(A, j, i) += t->val[e];
        else *gsl_matrix_ptr(A, i, j) += t->val[e];
    }
    return FL_OK;
}

/* spacedim and mu; nc = length of mu, checked against m = spacedim nc. */
static fl_status rd_dim_mu(reader *rd, const char *grp, int *dim, double **mu, size_t *nc)
{
    char name[128];
    snprintf(name, sizeof name, "%s/spacedim", grp);
    FL_TRY(rd_int(rd, name, dim));
    if (*dim != 2 && *dim != 3) return rd_fail(rd, FL_EPARSE, name, "spacedim %d is not 2 or 3", *dim);
    snprintf(name, sizeof name, "%s/vectors/mu", grp);
    FL_TRY(rd_array(rd, name, 0, 0, (void **)mu, nc));
    if (*nc == 0) {
        free(*mu);
        *mu = NULL;
        return rd_fail(rd, FL_EDIM, name, "no contact");
    }
    for (size_t k = 0; k < *nc; k++)
        if ((*mu)[k] < 0) {
            double v = (*mu)[k];
            free(*mu);
            *mu = NULL;
            return rd_fail(rd, FL_EINVAL, name, "mu[%zu] = %g is negative", k, v);
        }
    return FL_OK;
}

static fl_status rd_unsupported(reader *rd, const char *grp, const char *const *names)
{
    char name[128];
    for (; *names; names++) {
        snprintf(name, sizeof name, "%s/%s", grp, *names);
        if (rd_exists(rd, name))
            return rd_fail(rd, FL_EUNSUPPORTED, name,
                           "equality constraints are not supported by frictionlab");
    }
    return FL_OK;
}

fl_status fl_fclib_kind(const char *path, int *kind, fl_error *err)
{
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    fl_status s = FL_OK;
    if (rd_exists(&rd, "/fclib_local")) *kind = 1;
    else if (rd_exists(&rd, "/fclib_global")) *kind = 2;
    else s = fl_error_set(err, FL_EPARSE, path, 0, 0,
                          "field fclib_local / fclib_global: no FCLIB problem group");
    rd_close(&rd);
    return s;
}

fl_status fl_fclib_read_local(const char *path, int dense, fl_sparse_ctx *ctx,
                              fl_local_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL output");
    *out = NULL;
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "fclib read: ask for a dense or a sparse W");
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    fl_status s;
    double *mu = NULL, *q = NULL;
    trip W = {0};
    fl_local_problem *p = NULL;
    size_t nc = 0;
    int dim = 0;
    static const char *const extra[] = {"V", "R", "vectors/s", NULL};
    if (!rd_exists(&rd, "/fclib_local")) {
        s = rd_fail(&rd, FL_EPARSE, "fclib_local", "missing group (not a local FCLIB problem)");
        goto out;
    }
    if ((s = rd_unsupported(&rd, "/fclib_local", extra)) != FL_OK) goto out;
    if ((s = rd_dim_mu(&rd, "/fclib_local", &dim, &mu, &nc)) != FL_OK) goto out;
    size_t m = (size_t)dim * nc;
    if ((s = rd_doubles(&rd, "/fclib_local/vectors/q", m, &q)) != FL_OK) goto out;
    if ((s = rd_matrix(&rd, "/fclib_local/W", (int)m, (int)m, &W)) != FL_OK) goto out;
    if ((s = fl_local_problem_alloc(nc, dim, dense, &p, err)) != FL_OK) goto out;
    memcpy(p->mu, mu, nc * sizeof *mu);
    memcpy(p->q->data, q, m * sizeof *q);
    if (dense) trip_to_dense(&W, 0, p->W);
    if (ctx) {
        p->ctx = ctx;
        if ((s = fl_sparse_from_triplet(ctx, m, m, W.nnz, W.row, W.col, W.val, 0, &p->Ws, err)) !=
            FL_OK)
            goto out;
    }
    if ((s = fl_local_problem_check(p, err)) != FL_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        s = rd_fail(&rd, s, "fclib_local/W", "%s", msg);
        goto out;
    }
out:
    rd_close(&rd);
    free(mu);
    free(q);
    trip_free(&W);
    if (s != FL_OK) fl_local_problem_free(p);
    else *out = p;
    return s;
}

fl_status fl_fclib_read_global(const char *path, int dense, fl_sparse_ctx *ctx,
                               fl_global_problem **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL output");
    *out = NULL;
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "fclib read: ask for dense or sparse M, H");
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    fl_status s;
    double *mu = NULL, *f = NULL, *w = NULL;
    trip M = {0}, H = {0};
    fl_global_problem *g = NULL;
    size_t nc = 0;
    int dim = 0, n = 0;
    static const char *const extra[] = {"G", "vectors/b", NULL};
    if (!rd_exists(&rd, "/fclib_global")) {
        s = rd_fail(&rd, FL_EPARSE, "fclib_global", "missing group (not a global FCLIB problem)");
        goto out;
    }
    if ((s = rd_unsupported(&rd, "/fclib_global", extra)) != FL_OK) goto out;
    if ((s = rd_dim_mu(&rd, "/fclib_global", &dim, &mu, &nc)) != FL_OK) goto out;
    size_t m = (size_t)dim * nc;
    if ((s = rd_int(&rd, "/fclib_global/M/n", &n)) != FL_OK) goto out;
    if (n <= 0) {
        s = rd_fail(&rd, FL_EDIM, "fclib_global/M/n", "n = %d must be positive", n);
        goto out;
    }
    if ((s = rd_doubles(&rd, "/fclib_global/vectors/f", (size_t)n, &f)) != FL_OK) goto out;
    if ((s = rd_doubles(&rd, "/fclib_global/vectors/w", m, &w)) != FL_OK) goto out;
    if ((s = rd_matrix(&rd, "/fclib_global/M", n, n, &M)) != FL_OK) goto out;
    if ((s = rd_matrix(&rd, "/fclib_global/H", n, (int)m, &H)) != FL_OK) goto out;
    if ((s = fl_global_problem_alloc((size_t)n, nc, dim, dense, &g, err)) != FL_OK) goto out;
    memcpy(g->mu, mu, nc * sizeof *mu);
    memcpy(g->f->data, f, (size_t)n * sizeof *f);
    memcpy(g->w->data, w, m * sizeof *w);
    if (dense) {
        trip_to_dense(&M, 0, g->M);
        trip_to_dense(&H, 1, g->H);   /* FCLIB H is n x m: the library's H^T */
    }
    if (ctx) {
        g->ctx = ctx;
        if ((s = fl_sparse_from_triplet(ctx, (size_t)n, (size_t)n, M.nnz, M.row, M.col, M.val, 1,
                                        &g->Ms, err)) != FL_OK ||
            (s = fl_sparse_from_triplet(ctx, m, (size_t)n, H.nnz, H.col, H.row, H.val, 0, &g->Hs,
                                        err)) != FL_OK)
            goto out;
    }
out:
    rd_close(&rd);
    free(mu);
    free(f);
    free(w);
    trip_free(&M);
    trip_free(&H);
    if (s != FL_OK) fl_global_problem_free(g);
    else *out = g;
    return s;
}

/* Sizes (n, m) of the problem stored in an open file: n = 0 for local. */
static fl_status rd_sizes(reader *rd, size_t *n, size_t *m)
{
    int a, b;
    if (rd_exists(rd, "/fclib_local")) {
        FL_TRY(rd_int(rd, "/fclib_local/W/m", &a));
        *n = 0;
        *m = a > 0 ? (size_t)a : 0;
    } else if (rd_exists(rd, "/fclib_global")) {
        FL_TRY(rd_int(rd, "/fclib_global/H/n", &a));
        FL_TRY(rd_int(rd, "/fclib_global/M/n", &b));
        *m = a > 0 ? (size_t)a : 0;
        *n = b > 0 ? (size_t)b : 0;
        if (*n == 0) return rd_fail(rd, FL_EDIM, "fclib_global/M/n", "not positive");
    } else {
        return rd_fail(rd, FL_EPARSE, "fclib_local / fclib_global", "no FCLIB problem group");
    }
    if (*m == 0) return rd_fail(rd, FL_EDIM, "W/m or H/n", "no contact unknowns");
    return FL_OK;
}

/* Check the file holds a problem whose sizes match s (before libfclib). */
static fl_status check_sizes(const char *path, const fl_fclib_solution *s, fl_error *err)
{
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    size_t n = 0, m = 0;
    fl_status st = rd_sizes(&rd, &n, &m);
    if (st == FL_OK && (s->m != m || s->n != n || (n && !s->v) || !s->u || !s->r))
        st = rd_fail(&rd, FL_EDIM, "solution", "sizes n = %zu, m = %zu, the problem has n = %zu, m = %zu",
                     s->n, s->m, n, m);
    if (st == FL_OK && (!finite_all(s->u, m) || !finite_all(s->r, m) || (n && !finite_all(s->v, n))))
        st = rd_fail(&rd, FL_ENONFINITE, "solution", "NaN or Inf value");
    rd_close(&rd);
    return st;
}

fl_status fl_fclib_write_solution(const char *path, const fl_fclib_solution *s, fl_error *err)
{
    if (!s) return FL_FAIL(err, FL_EINVAL, "fclib write: NULL solution");
    FL_TRY(check_sizes(path, s, err));
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    int has = rd_exists(&rd, "/solution");
    rd_close(&rd);
    if (has) {
        hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
        if (f >= 0) {
            H5Ldelete(f, "/solution", H5P_DEFAULT);
            H5Fclose(f);
        }
    }
    struct fclib_solution fs = {s->v, s->u, s->r, NULL};
    if (!fclib_write_solution(&fs, path))
        return fl_error_set(err, FL_EEXTERNAL, path, 0, 0, "libfclib could not write the solution");
    return FL_OK;
}

fl_status fl_fclib_write_guesses(const char *path, size_t count,
                                 const fl_fclib_solution *const *g, fl_error *err)
{
    if (!g || count == 0) return FL_FAIL(err, FL_EINVAL, "fclib write: no guess");
    for (size_t k = 0; k < count; k++) {
        if (!g[k]) return FL_FAIL(err, FL_EINVAL, "fclib write: guess %zu is NULL", k + 1);
        FL_TRY(check_sizes(path, g[k], err));
    }
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    int has = rd_exists(&rd, "/guesses");
    rd_close(&rd);
    if (has) {
        hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
        if (f >= 0) {
            H5Ldelete(f, "/guesses", H5P_DEFAULT);
            H5Fclose(f);
        }
    }
    struct fclib_solution *fs = calloc(count, sizeof *fs);
    if (!fs) return FL_FAIL(err, FL_ENOMEM, "fclib write: out of memory");
    for (size_t k = 0; k < count; k++) {
        fs[k].v = g[k]->v;
        fs[k].u = g[k]->u;
        fs[k].r = g[k]->r;
    }
    int ok = fclib_write_guesses((int)count, fs, path);
    free(fs);
    if (!ok) return fl_error_set(err, FL_EEXTERNAL, path, 0, 0, "libfclib could not write the guesses");
    return FL_OK;
}

static fl_status rd_solution(reader *rd, const char *grp, size_t n, size_t m,
                             fl_fclib_solution **out)
{
    char name[128];
    fl_fclib_solution *s;
    FL_TRY(fl_fclib_solution_alloc(n, m, &s, rd->err));
    double *a = NULL;
    fl_status st;
    const char *fields[3] = {"r", "u", "v"};
    double **dst[3] = {&s->r, &s->u, &s->v};
    for (int k = 0; k < (n ? 3 : 2); k++) {
        snprintf(name, sizeof name, "%s/%s", grp, fields[k]);
        if ((st = rd_doubles(rd, name, k == 2 ? n : m, &a)) != FL_OK) {
            fl_fclib_solution_free(s);
            return st;
        }
        free(*dst[k]);
        *dst[k] = a;
    }
    *out = s;
    return FL_OK;
}

fl_status fl_fclib_read_solution(const char *path, fl_fclib_solution **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL output");
    *out = NULL;
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    size_t n = 0, m = 0;
    fl_status s = rd_sizes(&rd, &n, &m);
    if (s == FL_OK && !rd_exists(&rd, "/solution"))
        s = rd_fail(&rd, FL_ENOTFOUND, "solution", "the file holds no solution");
    if (s == FL_OK) s = rd_solution(&rd, "/solution", n, m, out);
    rd_close(&rd);
    return s;
}

fl_status fl_fclib_read_guesses(const char *path, fl_fclib_solution ***out, size_t *count,
                                fl_error *err)
{
    if (!out || !count) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL output");
    *out = NULL;
    *count = 0;
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    size_t n = 0, m = 0;
    int ng = 0;
    fl_status s = rd_sizes(&rd, &n, &m);
    if (s == FL_OK && !rd_exists(&rd, "/guesses"))
        s = rd_fail(&rd, FL_ENOTFOUND, "guesses", "the file holds no guess");
    if (s == FL_OK) s = rd_int(&rd, "/guesses/number_of_guesses", &ng);
    if (s == FL_OK && ng <= 0)
        s = rd_fail(&rd, FL_EPARSE, "guesses/number_of_guesses", "%d is not positive", ng);
    fl_fclib_solution **g = NULL;
    if (s == FL_OK && !(g = calloc((size_t)ng, sizeof *g)))
        s = rd_fail(&rd, FL_ENOMEM, "guesses", "out of memory");
    for (int k = 0; s == FL_OK && k < ng; k++) {
        char grp[64];
        snprintf(grp, sizeof grp, "/guesses/%d", k + 1);
        s = rd_solution(&rd, grp, n, m, &g[k]);
    }
    rd_close(&rd);
    if (s != FL_OK) {
        fl_fclib_guesses_free(g, g ? (size_t)ng : 0);
        return s;
    }
    *out = g;
    *count = (size_t)ng;
    return FL_OK;
}
