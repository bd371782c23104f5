/* fl_mesh_io.h — files of 2D triangle meshes, over plain arrays: node
 * coordinates xy (2 per node: x0, y0, x1, y1, ...) and triangles tri (3
 * node indices per triangle, counter-clockwise).  reference/fe2d.h holds
 * the mesh type and reads and writes it through these functions
 * (fl_fe2d_mesh_read, fl_fe2d_write_vtk).
 *
 * Plain mesh file:
 *     # comment lines start with '#'
 *     nodes N
 *     x y            (N lines)
 *     triangles T
 *     i j k          (T lines, 0-based node indices)
 * Triangles given clockwise are reoriented.
 */
#ifndef FL_MESH_IO_H
#define FL_MESH_IO_H

#include <stddef.h>

#include "fl_status.h"

/* Read a plain mesh file: *xy (2 nnodes doubles) and *tri (3 nelems ints)
 * are new arrays owned by the caller (free).  FL_EIO / FL_EPARSE (with the
 * line number in err) / FL_EINVAL (index out of range, degenerate element);
 * on error nothing is allocated. */
fl_status fl_mesh_io_read(const char *path, size_t *nnodes, double **xy, size_t *nelems,
                          int **tri, fl_error *err);

/* Legacy VTK (ASCII, UNSTRUCTURED_GRID) of the mesh displaced by
 * scale * u (u: 2 nnodes values, may be NULL), with the displacement as
 * point data "displacement" and, if cell_data is non-NULL, one scalar per
 * triangle named cell_name.  FL_EINVAL for a NULL path or mesh array,
 * FL_EIO when the file cannot be written. */
fl_status fl_mesh_io_write_vtk(const char *path, size_t nnodes, const double *xy, size_t nelems,
                               const int *tri, const double *u, double scale,
                               const double *cell_data, const char *cell_name, fl_error *err);

#endif
