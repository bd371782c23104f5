/* fl_mesh_io.c — files of 2D triangle meshes: the plain mesh file reader
 * and legacy VTK output (fl_mesh_io.h). */
#include "fl_mesh_io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Twice the signed area of a triangle (positive when counter-clockwise). */
static double twice_area(const double c[6])
{
    return (c[2] - c[0]) * (c[5] - c[1]) - (c[4] - c[0]) * (c[3] - c[1]);
}

/* Next non-comment, non-blank line; returns 0 at end of file. */
static int next_line(FILE *f, char *buf, size_t len, int *lineno)
{
    while (fgets(buf, (int)len, f)) {
        (*lineno)++;
        char *p = buf;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
        return 1;
    }
    return 0;
}

fl_status fl_mesh_io_read(const char *path, size_t *nnodes, double **xy_out, size_t *nelems,
                          int **tri_out, fl_error *err)
{
    *xy_out = NULL;
    *tri_out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot open mesh file: %s",
                            strerror(errno));
    char buf[512];
    int ln = 0;
    long nn = -1, ne = -1;
    double *xy = NULL;
    int *tri = NULL;
    fl_status s = FL_OK;
    if (!next_line(f, buf, sizeof buf, &ln) || sscanf(buf, "nodes %ld", &nn) != 1 || nn < 3) {
        s = fl_error_set(err, FL_EPARSE, path, ln, 1, "expected 'nodes N' with N >= 3");
        goto done;
    }
    xy = malloc(2 * (size_t)nn * sizeof(double));
    if (!xy) {
        s = fl_error_set(err, FL_ENOMEM, path, ln, 1, "cannot allocate %ld nodes", nn);
        goto done;
    }
    for (long p = 0; p < nn; p++) {
        char extra;
        if (!next_line(f, buf, sizeof buf, &ln)
            || sscanf(buf, "%lf %lf %c", &xy[2 * p], &xy[2 * p + 1], &extra) != 2
            || !isfinite(xy[2 * p]) || !isfinite(xy[2 * p + 1])) {
            s = fl_error_set(err, FL_EPARSE, path, ln, 1,
                             "expected two finite coordinates for node %ld", p);
            goto done;
        }
    }
    if (!next_line(f, buf, sizeof buf, &ln) || sscanf(buf, "triangles %ld", &ne) != 1 || ne < 1) {
        s = fl_error_set(err, FL_EPARSE, path, ln, 1, "expected 'triangles T' with T >= 1");
        goto done;
    }
    tri = malloc(3 * (size_t)ne * sizeof(int));
    if (!tri) {
        s = FL_FAIL(err, FL_ENOMEM, "cannot allocate a mesh of %zu nodes", (size_t)nn);
        goto done;
    }
    for (long e = 0; e < ne; e++) {
        long v[3];
        char extra;
        if (!next_line(f, buf, sizeof buf, &ln)
            || sscanf(buf, "%ld %ld %ld %c", &v[0], &v[1], &v[2], &extra) != 3) {
            s = fl_error_set(err, FL_EPARSE, path, ln, 1,
                             "expected three node indices for triangle %ld", e);
            goto done;
        }
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || v[k] >= nn) {
                s = fl_error_set(err, FL_EINVAL, path, ln, 1,
                                 "triangle %ld: node index %ld out of range [0, %ld)", e, v[k], nn);
                goto done;
            }
        double c[6];
        for (int k = 0; k < 3; k++) {
            c[2 * k] = xy[2 * v[k]];
            c[2 * k + 1] = xy[2 * v[k] + 1];
        }
        double a2 = twice_area(c);
        if (a2 == 0.0) {
            s = fl_error_set(err, FL_EINVAL, path, ln, 1, "triangle %ld is degenerate", e);
            goto done;
        }
        if (a2 < 0) { long t = v[1]; v[1] = v[2]; v[2] = t; }   /* make it counter-clockwise */
        for (int k = 0; k < 3; k++) tri[3 * e + k] = (int)v[k];
    }
    if (next_line(f, buf, sizeof buf, &ln)) {
        s = fl_error_set(err, FL_EPARSE, path, ln, 1, "unexpected content after the last triangle");
        goto done;
    }
done:
    fclose(f);
    if (s != FL_OK) {
        free(xy);
        free(tri);
        return s;
    }
    *nnodes = (size_t)nn;
    *nelems = (size_t)ne;
    *xy_out = xy;
    *tri_out = tri;
    return FL_OK;
}

fl_status fl_mesh_io_write_vtk(const char *path, size_t nnodes, const double *xy, size_t nelems,
                               const int *tri, const double *u, double scale,
                               const double *cell_data, const char *cell_name, fl_error *err)
{
    if (!path || !xy || !tri) return FL_FAIL(err, FL_EINVAL, "write_vtk needs a mesh and a path");
    FILE *f = fopen(path, "w");
    if (!f)
        return fl_error_set(err, FL_EIO, path, 0, 0, "cannot write VTK file: %s", strerror(errno));
    fprintf(f, "# vtk DataFile Version 3.0\nfrictionlab fe2d deformed mesh\nASCII\n"
               "DATASET UNSTRUCTURED_GRID\nPOINTS %zu double\n", nnodes);
    for (size_t p = 0; p < nnodes; p++) {
        double ux = u ? u[2 * p] : 0.0, uy = u ? u[2 * p + 1] : 0.0;
        fprintf(f, "%.17g %.17g 0\n", xy[2 * p] + scale * ux,
                xy[2 * p + 1] + scale * uy);
    }
    fprintf(f, "CELLS %zu %zu\n", nelems, 4 * nelems);
    for (size_t e = 0; e < nelems; e++)
        fprintf(f, "3 %d %d %d\n", tri[3 * e], tri[3 * e + 1], tri[3 * e + 2]);
    fprintf(f, "CELL_TYPES %zu\n", nelems);
    for (size_t e = 0; e < nelems; e++) fputs("5\n", f);   /* VTK_TRIANGLE */
    fprintf(f, "POINT_DATA %zu\nVECTORS displacement double\n", nnodes);
    for (size_t p = 0; p < nnodes; p++)
        fprintf(f, "%.17g %.17g 0\n", u ? u[2 * p] : 0.0, u ? u[2 * p + 1] : 0.0);
    if (cell_data) {
        fprintf(f, "CELL_DATA %zu\nSCALARS %s double 1\nLOOKUP_TABLE default\n", nelems,
                cell_name ? cell_name : "cell_data");
        for (size_t e = 0; e < nelems; e++) fprintf(f, "%.17g\n", cell_data[e]);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return fl_error_set(err, FL_EIO, path, 0, 0, "error while writing VTK file");
    return FL_OK;
}
