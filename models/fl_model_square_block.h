/* fl_model_square_block.h — the square block of 002 §7 (Ligurský & Renard,
 * QJMAM 64 (2011), §7, Tables 1 and 2), built from data/002/square_block_002.json.
 *
 * An elastic square ]0, L[^2 (Table 1: rho, lambda, mu, L) pressed by its
 * clamped top edge (u = (top_u1, top_u2)) onto a rigid foundation moving at
 * v_found along x, Coulomb friction F: fl_midpoint_block_params for the
 * midpoint scheme (reference/midpoint.h).  Every number comes from the file;
 * the choices 002 leaves out (plane strain, diagonals, mass, gravity,
 * redistribution) are members of the file too (data/002/README.md).
 *
 * Ownership: plain values, nothing to free.
 */
#ifndef FL_MODEL_SQUARE_BLOCK_H
#define FL_MODEL_SQUARE_BLOCK_H

#include <stddef.h>

#include "fl_status.h"
#include "reference/midpoint.h"

/* Rows of 002 Table 2: experiments 1-4, then the reference solution. */
#define FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS 5

typedef struct fl_model_square_block {
    fl_midpoint_block_params block;   /* Table 1 at the energy-study mesh size h */
    double h, h_quick;                /* mesh sizes of the energy study (m): full, --quick */
    double T;                         /* length of the energy study (s) */
    double dt_energy[3];              /* time steps of Figs. 7-8 (s) */
    double dt_energy_quick[3];
    double energy_sample_dt;          /* sampling period of the energy curves (s) */
    double fig6_t, fig6_dt, fig6_scale;   /* Fig. 6: time, time step, displacement scale */
    /* 002 Table 2 (the paper's units): h in cm, dt in s */
    double table2_h_cm[FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS];
    double table2_dt_s[FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS];
    double table2_T;                  /* interval of the convergence test (s) */
    double table2_sample_dt;          /* sampling period of the errors (s) */
    /* rows (0-based) of the full run whose H1-seminorm error does not
     * decrease, and the reason of the documented discrepancy of the
     * Table 2 study with 002 Fig. 9 (expected.table2_H1_not_decreasing of
     * the file; optional; a longer reason is refused, not cut) */
    int table2_h1_documented[FL_MODEL_SQUARE_BLOCK_TABLE2_ROWS];
    char table2_h1_reason[1536];
} fl_model_square_block;

/* Read the parameter file (schema of data/002/square_block_002.json).
 * FL_EPARSE / FL_EINVAL naming the file, line and field for a missing or
 * out-of-range member: lengths, densities, Lamé moduli and time steps > 0,
 * F >= 0, L/h an integer number of cells, known plane/diagonals/mass/
 * redistribution words, 5 rows of Table 2 with L/h an integer. */
fl_status fl_model_square_block_load(const char *path, fl_model_square_block *m, fl_error *err);

/* The same from the data file 002/square_block_002.json found by
 * fl_data_path (data_dir: --data override or NULL). */
fl_status fl_model_square_block_load_data(const char *data_dir, fl_model_square_block *m, fl_error *err);

/* The block with cells of size h (m): L/h must be an integer (to 1e-9). */
fl_status fl_model_square_block_params(const fl_model_square_block *m, double h,
                                       fl_midpoint_block_params *out, fl_error *err);

/* Cells per side for Table 2 row `row` (h_cm / 100 m): L/h, an integer. */
size_t fl_model_square_block_table2_cells(const fl_model_square_block *m, int row);

#endif
