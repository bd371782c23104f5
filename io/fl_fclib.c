/* fl_fclib.c — FCLIB files: write through libfclib, read through HDF5 with
 * every field checked (see fl_fclib.h; conventions in proofs/fclib.md). */
#include "fl_fclib.h"
#include "fl_file.h"

#include <limits.h>
#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

#include <fclib.h>
#include <hdf5.h>

#include "fl_isolate.h"

/* ------------------------------------------------------------------ */
/* solutions                                                           */
/* ------------------------------------------------------------------ */

fl_status fl_fclib_solution_alloc(size_t n, size_t m, fl_fclib_solution **out, fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib solution: NULL output");
    *out = NULL;
    fl_fclib_solution *s = calloc(1, sizeof *s);
    if (!s) return FL_FAIL(err, FL_ENOMEM, "fclib solution: out of memory");
    s->n = n;
    s->m = m;
    s->u = calloc(m ? m : 1, sizeof *s->u);   /* m = 0: no contact, empty u and r */
    s->r = calloc(m ? m : 1, sizeof *s->r);
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
    c->i = calloc(nnz ? nnz : 1, sizeof *c->i);   /* nnz = 0: one zero slot for nzmax */
    c->x = calloc(nnz ? nnz : 1, sizeof *c->x);
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

static void csc_to_fclib(csc *c, struct fclib_matrix *fm, int nzflag)
{
    memset(fm, 0, sizeof *fm);
    fm->nzmax = c->nnz > 0 ? c->nnz : 1;
    fm->m = c->m;
    fm->n = c->n;
    fm->p = c->p;
    fm->i = c->i;
    fm->x = c->x;
    fm->nz = nzflag;
    fm->info = NULL;
}

/* Re-express c (CSC) in the FCLIB form `form` (fl_fclib_storage), in place:
 * triplets (nz = nnz: i rows, p columns, CSparse's convention) or compressed
 * row (nz = -2: p row pointers, i column indices).  0, or -1 out of memory. */
static int csc_to_form(csc *c, fl_fclib_storage form, int *nzflag)
{
    *nzflag = -1;
    if (form == FL_FCLIB_CSC) return 0;
    size_t nnz = (size_t)c->nnz;
    if (form == FL_FCLIB_TRIPLET) {
        int *col = malloc((nnz ? nnz : 1) * sizeof *col);
        if (!col) return -1;
        for (int j = 0; j < c->n; j++)
            for (int k = c->p[j]; k < c->p[j + 1]; k++) col[k] = j;
        free(c->p);
        c->p = col;   /* p: column of each entry; i: its row (unchanged) */
        *nzflag = c->nnz;
        return 0;
    }
    /* compressed row: the CSC of the transpose */
    int *rp = calloc((size_t)c->m + 1, sizeof *rp), *ci = malloc((nnz ? nnz : 1) * sizeof *ci);
    double *x = malloc((nnz ? nnz : 1) * sizeof *x);
    int *next = malloc(((size_t)c->m + 1) * sizeof *next);
    if (!rp || !ci || !x || !next) {
        free(rp);
        free(ci);
        free(x);
        free(next);
        return -1;
    }
    for (size_t k = 0; k < nnz; k++) rp[c->i[k] + 1]++;
    for (int r = 0; r < c->m; r++) rp[r + 1] += rp[r];
    memcpy(next, rp, ((size_t)c->m + 1) * sizeof *next);
    for (int j = 0; j < c->n; j++)
        for (int k = c->p[j]; k < c->p[j + 1]; k++) {
            int at = next[c->i[k]]++;
            ci[at] = j;
            x[at] = c->x[k];
        }
    free(next);
    free(c->p);
    free(c->i);
    free(c->x);
    c->p = rp;
    c->i = ci;
    c->x = x;
    *nzflag = -2;
    return 0;
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
    return fl_fclib_write_local_as(path, p, title, FL_FCLIB_CSC, err);
}

fl_status fl_fclib_write_local_as(const char *path, const fl_local_problem *p, const char *title,
                                  fl_fclib_storage form, fl_error *err)
{
    if (!p) return FL_FAIL(err, FL_EINVAL, "fclib write: NULL problem");
    if (form != FL_FCLIB_CSC && form != FL_FCLIB_CSR && form != FL_FCLIB_TRIPLET)
        return FL_FAIL(err, FL_EINVAL, "fclib write: unknown matrix form %d", (int)form);
    FL_TRY(fl_local_problem_check(p, err));
    FL_TRY(fresh_file(path, err));
    csc W;
    FL_TRY(csc_of(p->W, p->W ? NULL : p->Ws, 0, &W, "W", err));
    int nzW;
    if (csc_to_form(&W, form, &nzW) != 0) {
        csc_free(&W);
        return FL_FAIL(err, FL_ENOMEM, "fclib write: out of memory");
    }
    struct fclib_matrix fW;
    csc_to_fclib(&W, &fW, nzW);
    struct fclib_info info;
    struct fclib_local L;
    memset(&L, 0, sizeof L);
    L.W = &fW;
    /* libfclib exits the process on a NULL q or mu: a problem without
     * contact (m = 0) hands it a dummy pointer, of which nothing is read. */
    static double none[1] = {0.0};
    L.mu = p->m ? p->mu : none;
    L.q = p->m ? p->q->data : none;
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
    return fl_fclib_write_global_as(path, g, title, FL_FCLIB_CSC, err);
}

fl_status fl_fclib_write_global_as(const char *path, const fl_global_problem *g,
                                   const char *title, fl_fclib_storage form, fl_error *err)
{
    if (!g) return FL_FAIL(err, FL_EINVAL, "fclib write: NULL problem");
    if (form != FL_FCLIB_CSC && form != FL_FCLIB_CSR && form != FL_FCLIB_TRIPLET)
        return FL_FAIL(err, FL_EINVAL, "fclib write: unknown matrix form %d", (int)form);
    FL_TRY(fl_global_problem_check(g, err));
    if (g->f->stride != 1 || g->w->stride != 1)
        return FL_FAIL(err, FL_EINVAL, "fclib write: f and w must be contiguous");
    FL_TRY(fresh_file(path, err));
    csc M, H;
    FL_TRY(csc_of(g->M, g->M ? NULL : g->Ms, 0, &M, "M", err));
    fl_status s = csc_of(g->H, g->H ? NULL : g->Hs, 1, &H, "H", err);
    if (s != FL_OK) {
        csc_free(&M);
        return s;
    }
    int nzM, nzH;
    if (csc_to_form(&M, form, &nzM) != 0 || csc_to_form(&H, form, &nzH) != 0) {
        csc_free(&M);
        csc_free(&H);
        return FL_FAIL(err, FL_ENOMEM, "fclib write: out of memory");
    }
    struct fclib_matrix fM, fH;
    csc_to_fclib(&M, &fM, nzM);
    csc_to_fclib(&H, &fH, nzH);
    struct fclib_info info;
    struct fclib_global G;
    memset(&G, 0, sizeof G);
    G.M = &fM;
    G.H = &fH;
    static double none[1] = {0};
    G.mu = g->nc ? g->mu : none;
    G.f = g->f->data;
    G.w = g->m ? g->w->data : none;
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
    size_t max_bytes, used;   /* memory budget (fl_read_options) */
    H5E_auto2_t old_func;
    void *old_data;
} reader;

static fl_status rd_open(reader *rd, const char *path, fl_error *err)
{
    memset(rd, 0, sizeof *rd);
    rd->f = -1;
    rd->path = path;
    rd->err = err;
    rd->max_bytes = FL_READ_MAX_BYTES_DEFAULT;
    if (!path) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL path");
    FILE *fp = NULL;
    fl_status s_open = fl_file_open(path, &fp, NULL, err);
    if (s_open != FL_OK) return s_open;
    fclose(fp);
    H5Eget_auto2(H5E_DEFAULT, &rd->old_func, &rd->old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
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

/* Charge `bytes` to the memory budget of the read. */
static fl_status rd_need_bytes(reader *rd, const char *field, double bytes)
{
    if ((double)rd->used + bytes > (double)rd->max_bytes)
        return rd_fail(rd, FL_ENOMEM, field, "the problem would need %.0f bytes (%.3g GiB), above "
                       "the limit of %zu bytes (fl_read_options.max_bytes, solve --max-memory)",
                       (double)rd->used + bytes, ((double)rd->used + bytes) / 1073741824.0,
                       rd->max_bytes);
    rd->used += (size_t)bytes;
    return FL_OK;
}

/* Length of the 1-D dataset `name` without reading it. */
static fl_status rd_extent(reader *rd, const char *name, size_t *len)
{
    if (!rd_exists(rd, name)) return rd_fail(rd, FL_EPARSE, name, "missing dataset");
    hid_t ds = H5Dopen2(rd->f, name, H5P_DEFAULT);
    if (ds < 0) return rd_fail(rd, FL_EPARSE, name, "not a dataset");
    hid_t sp = H5Dget_space(ds);
    hsize_t dims[2] = {0, 0};
    int nd = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (nd == 1) H5Sget_simple_extent_dims(sp, dims, NULL);
    if (sp >= 0) H5Sclose(sp);
    H5Dclose(ds);
    if (nd != 1) return rd_fail(rd, FL_EPARSE, name, "expected a 1-D dataset, found rank %d", nd);
    *len = (size_t)dims[0];
    return FL_OK;
}

/* Whether dataset ds is stored compact (its values inside its object header)
 * with fewer bytes than its extent needs.  HDF5 1.10.8 reads such a corrupt
 * dataset by copying from a null pointer (the fuzz finding
 * fuzz/regression/fclib_global/hdf5_compact_dataset_without_data.hdf5), so it
 * is refused before H5Dread.  Contiguous and chunked datasets may
 * legitimately store less (never written: the fill value), compact ones may
 * not. */
static int compact_short(hid_t ds, double stored, double need)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0) return 0;
    H5D_layout_t layout = H5Pget_layout(dcpl);
    H5Pclose(dcpl);
    return layout == H5D_COMPACT && stored < need;
}

/* Read the 1-D dataset `name` (integers if ints, else doubles) into a new
 * array; *len gets its length; want > 0 requires exactly that length.
 * take > 0: the dataset must hold at least `take` values and only the
 * first `take` are read (matrix arrays longer than nz are not loaded).
 * Before anything is allocated, the values to read are checked against the
 * bytes HDF5 stores for the dataset (above 16 MiB, at most 1024:1
 * compression is believed, so a tiny file cannot declare a huge extent;
 * real files hold small datasets never written, read as their fill value)
 * and against the memory budget. */
static fl_status rd_array_take(reader *rd, const char *name, int ints, size_t want, size_t take,
                               void **out, size_t *len)
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
    if (take > 0 && dims[0] < take) {
        s = rd_fail(rd, FL_EDIM, name, "length %llu, at least %zu needed",
                    (unsigned long long)dims[0], take);
        goto done;
    }
    size_t n = take > 0 ? take : (size_t)dims[0];
    double stored = (double)H5Dget_storage_size(ds);
    double want_bytes = (double)n * (double)H5Tget_size(ty);
    if (compact_short(ds, stored, (double)dims[0] * (double)H5Tget_size(ty))) {
        s = rd_fail(rd, FL_EPARSE, name, "a compact dataset of %llu values whose header holds "
                    "only %.0f bytes for them (corrupt file)", (unsigned long long)dims[0],
                    stored);
        goto done;
    }
    if (want_bytes > 16777216.0 && stored * 1024.0 < want_bytes) {
        s = rd_fail(rd, FL_EPARSE, name, "declares %zu values but the file stores only %.0f bytes "
                    "for them", n, stored);
        goto done;
    }
    if ((s = rd_need_bytes(rd, name, (double)n * (ints ? sizeof(int) : sizeof(double)))) != FL_OK)
        goto done;
    void *buf = malloc((n ? n : 1) * (ints ? sizeof(int) : sizeof(double)));
    if (!buf) {
        s = rd_fail(rd, FL_ENOMEM, name, "out of memory");
        goto done;
    }
    hid_t msp = H5S_ALL, fsp = H5S_ALL;
    if (n > 0 && n < (size_t)dims[0]) {
        hsize_t start = 0, cnt = (hsize_t)n;
        fsp = H5Scopy(sp);
        msp = H5Screate_simple(1, &cnt, NULL);
        H5Sselect_hyperslab(fsp, H5S_SELECT_SET, &start, NULL, &cnt, NULL);
    }
    herr_t rr = n > 0 ? H5Dread(ds, ints ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, msp, fsp,
                                H5P_DEFAULT, buf) : 0;
    if (msp != H5S_ALL) H5Sclose(msp);
    if (fsp != H5S_ALL) H5Sclose(fsp);
    if (rr < 0) {
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

static fl_status rd_array(reader *rd, const char *name, int ints, size_t want, void **out,
                          size_t *len)
{
    return rd_array_take(rd, name, ints, want, 0, out, len);
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

/* Exactly `want` doubles (want = 0: an empty dataset, no contact). */
static fl_status rd_doubles(reader *rd, const char *name, size_t want, double **out)
{
    size_t len;
    FL_TRY(rd_array(rd, name, 0, want, (void **)out, &len));
    if (want == 0 && len != 0) {
        free(*out);
        *out = NULL;
        return rd_fail(rd, FL_EDIM, name, "length %zu, expected 0 (no contact)", len);
    }
    return FL_OK;
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

/* A matrix in FCLIB form under group `g`, as triplets.  FCLIB stores
 * CSparse's structure (fclib.h: nzmax, m, n, p, i, x, nz), and the real
 * files (Siconos, LMGC90) follow CSparse's conventions:
 *   nz >= 0  triplets: i = row indices, p = column indices, nz entries;
 *   nz = -1  compressed column: p[n+1] column pointers, i row indices;
 *   nz = -2  compressed row: p[m+1] row pointers, i column indices.
 * Only the first nz (or p[last]) entries of i and x are read. */
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
    fl_status s = FL_OK;
    size_t count;
    if (nz == -1 || nz == -2) {
        int outer = nz == -1 ? n : m, inner = nz == -1 ? m : n;
        snprintf(name, sizeof name, "%s/p", g);
        if ((s = rd_array(rd, name, 1, (size_t)outer + 1, (void **)&p, &lp)) != FL_OK) return s;
        snprintf(field, sizeof field, "%s/p", g);
        if (p[0] != 0) {
            s = rd_fail(rd, FL_EPARSE, field, "compressed pointers must start at 0 (p[0] = %d)",
                        p[0]);
            goto out;
        }
        for (int k = 0; k < outer; k++)
            if (p[k + 1] < p[k]) {
                s = rd_fail(rd, FL_EPARSE, field, "pointers decrease at %d", k);
                goto out;
            }
        count = (size_t)p[outer];
        if (count > 0) {
            snprintf(name, sizeof name, "%s/i", g);
            if ((s = rd_array_take(rd, name, 1, 0, count, (void **)&ix, &li)) != FL_OK) goto out;
            snprintf(name, sizeof name, "%s/x", g);
            if ((s = rd_array_take(rd, name, 0, 0, count, (void **)&x, &lx)) != FL_OK) goto out;
        }
        if ((s = rd_need_bytes(rd, g, 8.0 * (double)count)) != FL_OK) goto out;
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
        if (count > 0) {
            snprintf(name, sizeof name, "%s/p", g);
            if ((s = rd_array_take(rd, name, 1, 0, count, (void **)&p, &lp)) != FL_OK) goto out;
            snprintf(name, sizeof name, "%s/i", g);
            if ((s = rd_array_take(rd, name, 1, 0, count, (void **)&ix, &li)) != FL_OK) goto out;
            snprintf(name, sizeof name, "%s/x", g);
            if ((s = rd_array_take(rd, name, 0, 0, count, (void **)&x, &lx)) != FL_OK) goto out;
        }
        if ((s = rd_need_bytes(rd, g, 8.0 * (double)count)) != FL_OK) goto out;
        t->row = malloc((count ? count : 1) * sizeof *t->row);
        t->col = malloc((count ? count : 1) * sizeof *t->col);
        for (size_t e = 0; t->row && t->col && e < count; e++) {
            if (ix[e] < 0 || ix[e] >= m || p[e] < 0 || p[e] >= n) {
                snprintf(field, sizeof field, "%s/i,p", g);
                s = rd_fail(rd, FL_EPARSE, field, "triplet %zu: row i = %d, column p = %d out of "
                            "range for a %d x %d matrix", e, ix[e], p[e], m, n);
                goto out;
            }
            t->row[e] = ix[e];   /* CSparse triplets: i rows, p columns */
            t->col[e] = p[e];
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
    return fl_fclib_read_local_opt(path, dense, ctx, NULL, out, err);
}

fl_status fl_fclib_read_local_opt(const char *path, int dense, fl_sparse_ctx *ctx,
                                  const fl_read_options *opt, fl_local_problem **out,
                                  fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL output");
    *out = NULL;
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "fclib read: ask for a dense or a sparse W");
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    if (opt) rd.max_bytes = opt->max_bytes;
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
    if (m > INT_MAX) {
        s = rd_fail(&rd, FL_EDIM, "fclib_local/vectors/mu", "%zu contacts is too many", nc);
        goto out;
    }
    if ((s = rd_matrix(&rd, "/fclib_local/W", (int)m, (int)m, &W)) != FL_OK) goto out;
    if (dense && (s = rd_need_bytes(&rd, "fclib_local/W (dense)", 8.0 * (double)m * (double)m)) !=
        FL_OK)
        goto out;
    if (ctx && (s = rd_need_bytes(&rd, "fclib_local/W (sparse)", 28.0 * (double)W.nnz)) != FL_OK)
        goto out;
    if ((s = fl_local_problem_alloc(nc, dim, dense, &p, err)) != FL_OK) goto out;
    if (nc) memcpy(p->mu, mu, nc * sizeof *mu);
    if (m) memcpy(p->q->data, q, m * sizeof *q);
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
    return fl_fclib_read_global_opt(path, dense, ctx, NULL, out, err);
}

fl_status fl_fclib_read_global_opt(const char *path, int dense, fl_sparse_ctx *ctx,
                                   const fl_read_options *opt, fl_global_problem **out,
                                   fl_error *err)
{
    if (!out) return FL_FAIL(err, FL_EINVAL, "fclib read: NULL output");
    *out = NULL;
    if (!dense && !ctx) return FL_FAIL(err, FL_EINVAL, "fclib read: ask for dense or sparse M, H");
    reader rd;
    FL_TRY(rd_open(&rd, path, err));
    if (opt) rd.max_bytes = opt->max_bytes;
    double asym, scale;
    size_t ai, aj;
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
    if (m > INT_MAX) {
        s = rd_fail(&rd, FL_EDIM, "fclib_global/vectors/mu", "%zu contacts is too many", nc);
        goto out;
    }
    if ((s = rd_int(&rd, "/fclib_global/M/n", &n)) != FL_OK) goto out;
    if (n <= 0) {
        s = rd_fail(&rd, FL_EDIM, "fclib_global/M/n", "n = %d must be positive", n);
        goto out;
    }
    if ((s = rd_doubles(&rd, "/fclib_global/vectors/f", (size_t)n, &f)) != FL_OK) goto out;
    if ((s = rd_doubles(&rd, "/fclib_global/vectors/w", m, &w)) != FL_OK) goto out;
    if ((s = rd_matrix(&rd, "/fclib_global/M", n, n, &M)) != FL_OK) goto out;
    if ((s = rd_matrix(&rd, "/fclib_global/H", n, (int)m, &H)) != FL_OK) goto out;
    if (dense && (s = rd_need_bytes(&rd, "fclib_global/M,H (dense)",
                                    8.0 * (double)n * ((double)n + (double)m))) != FL_OK)
        goto out;
    if (ctx && (s = rd_need_bytes(&rd, "fclib_global/M,H (sparse)",
                                  28.0 * ((double)M.nnz + (double)H.nnz))) != FL_OK)
        goto out;
    if ((s = fl_triplet_asymmetry(M.nnz, M.row, M.col, M.val, &asym, &ai, &aj, &scale, err)) !=
        FL_OK)
        goto out;
    if (asym > FL_SYMMETRY_RTOL * scale) {
        s = rd_fail(&rd, FL_EINVAL, "fclib_global/M", "not symmetric: |M(%zu,%zu) - M(%zu,%zu)| "
                    "= %.3g = %.3g max|M| (tolerance %g relative)", ai, aj, aj, ai, asym,
                    asym / scale, FL_SYMMETRY_RTOL);
        goto out;
    }
    if ((s = fl_triplet_symmetrize(&M.nnz, &M.row, &M.col, &M.val, err)) != FL_OK) goto out;
    if ((s = fl_global_problem_alloc((size_t)n, nc, dim, dense, &g, err)) != FL_OK) goto out;
    if (nc) memcpy(g->mu, mu, nc * sizeof *mu);
    memcpy(g->f->data, f, (size_t)n * sizeof *f);
    if (m) memcpy(g->w->data, w, m * sizeof *w);
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

/* Sizes (n, m) of the problem stored in an open file: n = 0 for local.
 * Taken from the extents of the vectors actually stored (q or f, w), not
 * from the declared matrix sizes, and checked against those. */
static fl_status rd_sizes(reader *rd, size_t *n, size_t *m)
{
    int a, b;
    if (rd_exists(rd, "/fclib_local")) {
        FL_TRY(rd_extent(rd, "/fclib_local/vectors/q", m));
        FL_TRY(rd_int(rd, "/fclib_local/W/m", &a));
        *n = 0;
        if (a < 0 || (size_t)a != *m)
            return rd_fail(rd, FL_EDIM, "fclib_local/W/m", "W/m = %d but q has length %zu", a, *m);
    } else if (rd_exists(rd, "/fclib_global")) {
        FL_TRY(rd_extent(rd, "/fclib_global/vectors/w", m));
        FL_TRY(rd_extent(rd, "/fclib_global/vectors/f", n));
        FL_TRY(rd_int(rd, "/fclib_global/H/n", &a));
        FL_TRY(rd_int(rd, "/fclib_global/M/n", &b));
        if (a < 0 || (size_t)a != *m || b <= 0 || (size_t)b != *n)
            return rd_fail(rd, FL_EDIM, "fclib_global/H/n, M/n", "H/n = %d, M/n = %d but w has "
                           "length %zu and f %zu", a, b, *m, *n);
    } else {
        return rd_fail(rd, FL_EPARSE, "fclib_local / fclib_global", "no FCLIB problem group");
    }
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

/* libfclib refuses a solution without contact ("contact constraints must
 * be present"): the solution of a problem with no contact (v = M^-1 f,
 * empty u and r) is written here with HDF5, in libfclib's layout. */
static fl_status write_empty_solution(const char *path, const fl_fclib_solution *s,
                                      fl_error *err)
{
    H5E_auto2_t old;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t grp = f >= 0 ? H5Gcreate2(f, "/solution", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int ok = grp >= 0;
    const char *names[3] = {"v", "u", "r"};
    const double *data[3] = {s->v, s->u, s->r};
    hsize_t len[3] = {s->n, 0, 0};
    for (int k = 0; ok && k < (s->n ? 3 : 2); k++) {
        int kk = s->n ? k : k + 1;
        hid_t sp = H5Screate_simple(1, &len[kk], NULL);
        hid_t ds = sp >= 0 ? H5Dcreate2(grp, names[kk], H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT,
                                        H5P_DEFAULT, H5P_DEFAULT) : -1;
        if (ds < 0 || (len[kk] && H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                           data[kk]) < 0))
            ok = 0;
        if (ds >= 0) H5Dclose(ds);
        if (sp >= 0) H5Sclose(sp);
    }
    if (grp >= 0) H5Gclose(grp);
    if (f >= 0 && H5Fclose(f) < 0) ok = 0;
    H5Eset_auto2(H5E_DEFAULT, old, old_data);
    if (!ok) return fl_error_set(err, FL_EIO, path, 0, 0, "could not write the solution");
    return FL_OK;
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
    if (s->m == 0) return write_empty_solution(path, s, err);
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
    fl_fclib_solution *s = calloc(1, sizeof *s);
    if (!s) return rd_fail(rd, FL_ENOMEM, grp, "out of memory");
    s->n = n;
    s->m = m;
    fl_status st;
    const char *fields[3] = {"r", "u", "v"};
    double **dst[3] = {&s->r, &s->u, &s->v};
    for (int k = 0; k < (n ? 3 : 2); k++) {
        snprintf(name, sizeof name, "%s/%s", grp, fields[k]);
        size_t len = k == 2 ? n : m, got;
        if (len == 0) {
            *dst[k] = calloc(1, sizeof(double));
            continue;
        }
        if ((st = rd_array(rd, name, 0, len, (void **)dst[k], &got)) != FL_OK) {
            fl_fclib_solution_free(s);
            return st;
        }
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
    /* The declared count is bounded by the groups actually stored under
     * /guesses and by the memory budget before anything is allocated (each
     * guess's vectors are charged as they are read, rd_array). */
    if (s == FL_OK) {
        hsize_t links = 0;
        hid_t gg = H5Gopen2(rd.f, "/guesses", H5P_DEFAULT);
        H5G_info_t info;
        if (gg >= 0 && H5Gget_info(gg, &info) >= 0) links = info.nlinks;
        if (gg >= 0) H5Gclose(gg);
        if (gg < 0)
            s = rd_fail(&rd, FL_EPARSE, "guesses", "not a group");
        else if ((hsize_t)ng > links)
            s = rd_fail(&rd, FL_EDIM, "guesses/number_of_guesses", "declares %d guesses but the "
                        "group holds only %llu entries", ng, (unsigned long long)links);
    }
    if (s == FL_OK)
        s = rd_need_bytes(&rd, "guesses", (double)ng * ((double)sizeof(fl_fclib_solution *) +
                                                        (double)sizeof(fl_fclib_solution)));
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

int fl_fclib_is_hdf5(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char buf[8];
    FILE *f = NULL;
    if (fl_file_open(path, &f, NULL, NULL) != FL_OK) return 0;
    size_t n = fread(buf, 1, 8, f);
    fclose(f);
    return n == 8 && memcmp(buf, sig, 8) == 0;
}

/* ---- reading in a child process (fl_fclib_vet) --------------------------- */

typedef struct vet_job {
    const char *path;
    fl_read_options opt;
    int parts;
} vet_job;

/* Runs in the child: the reads the caller is about to do. */
static fl_status vet_read(void *arg, fl_error *err)
{
    const vet_job *job = arg;
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    int kind = 0;
    fl_status s = fl_sparse_start(&ctx, err);
    if (s == FL_OK && (job->parts & FL_FCLIB_VET_PROBLEM)) {
        if ((s = fl_fclib_kind(job->path, &kind, err)) == FL_OK && kind == 1) {
            fl_local_problem *p = NULL;
            s = fl_fclib_read_local_opt(job->path, 0, &ctx, &job->opt, &p, err);
            fl_local_problem_free(p);
        } else if (s == FL_OK) {
            fl_global_problem *g = NULL;
            s = fl_fclib_read_global_opt(job->path, 0, &ctx, &job->opt, &g, err);
            fl_global_problem_free(g);
        }
    }
    if (s == FL_OK && (job->parts & FL_FCLIB_VET_SOLUTION)) {
        fl_fclib_solution *sol = NULL;
        s = fl_fclib_read_solution(job->path, &sol, err);
        fl_fclib_solution_free(sol);
    }
    if ((s == FL_OK || s == FL_ENOTFOUND) && (job->parts & FL_FCLIB_VET_GUESSES)) {
        fl_fclib_solution **g = NULL;
        size_t count = 0;
        s = fl_fclib_read_guesses(job->path, &g, &count, err);
        fl_fclib_guesses_free(g, count);
    }
    if (s == FL_ENOTFOUND) {
        s = FL_OK;
        fl_error_clear(err);
    }
    fl_sparse_finish(&ctx);
    return s;
}

fl_status fl_fclib_vet(const char *path, const fl_read_options *opt, int parts, fl_error *err)
{
    if (!path) return FL_FAIL(err, FL_EINVAL, "fclib vet: NULL path");
    vet_job job = {path, opt ? *opt : fl_read_options_default(), parts};
    struct stat st;
    double mb = stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0.0;
    size_t slack = (size_t)1 << 30;
    fl_isolate_limits lim = {5.0 + mb, job.opt.max_bytes > SIZE_MAX - slack
                                           ? 0 : job.opt.max_bytes + slack};
    return fl_isolate_run(vet_read, &job, &lim, path, "reading the file with HDF5", err);
}
