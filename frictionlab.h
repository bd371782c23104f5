/* frictionlab.h — the whole library in one include.
 *
 * Installed as <includedir>/frictionlab/frictionlab.h; a program writes
 *     #include <frictionlab/frictionlab.h>
 * and compiles with `pkg-config --cflags --libs frictionlab`.  The library
 * headers are installed by layer: core/, io/ and report/ headers (fl_*.h)
 * directly in <includedir>/frictionlab, the others in
 * <includedir>/frictionlab/<layer>/; they include each other as
 * "fl_status.h" or "reference/nsgs.h", which the -I<includedir>/frictionlab
 * of frictionlab.pc resolves, as -I. -Icore -Iio -Ireport do in the source
 * tree.  This header includes every installed (public) header; the
 * <module>_internal.h headers that twins share are never installed
 * (tests/check_layers.sh checks both).
 *
 * Layers (each includes only from those to its left):
 *   core <- io <- report
 *   core <- io <- reference <- optimized <- drivers <- testkit, models <- checks
 */
#ifndef FL_FRICTIONLAB_H
#define FL_FRICTIONLAB_H

/* core: status, clock, data paths, dense and sparse helpers, friction sets */
#include "fl_clock.h"
#include "fl_data.h"
#include "fl_dense.h"
#include "fl_file.h"
#include "fl_friction_set.h"
#include "fl_isolate.h"
#include "fl_problem.h"
#include "fl_residual.h"
#include "fl_rng.h"
#include "fl_scalar.h"
#include "fl_sparse.h"
#include "fl_status.h"

/* io: JSON, Matrix Market, FCLIB, Siconos text, mesh files and VTK */
#include "fl_fclib.h"
#include "fl_json.h"
#include "fl_mesh_io.h"
#include "fl_mm.h"
#include "fl_siconos_text.h"

/* report: the results of a run (results.json, report.html, baseline) */
#include "fl_results.h"
#include "fl_suite.h"

/* reference: dense, paper-faithful laws */
#include "reference/asymptotics.h"
#include "reference/delassus.h"
#include "reference/discs.h"
#include "reference/enumerate.h"
#include "reference/fe2d.h"
#include "reference/friction_set_build.h"
#include "reference/lcp_enumerate.h"
#include "reference/lemke.h"
#include "reference/local_contact.h"
#include "reference/midpoint.h"
#include "reference/moreau_law.h"
#include "reference/newton.h"
#include "reference/nsgs.h"
#include "reference/p4_law.h"
#include "reference/ppa.h"
#include "reference/quasistatic.h"
#include "reference/redistribution.h"
#include "reference/stability.h"
#include "reference/stewart_law.h"

/* optimized: the sparse twins */
#include "optimized/delassus_sparse.h"
#include "optimized/discs_sparse.h"
#include "optimized/fe2d_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "optimized/moreau_law_sparse.h"
#include "optimized/newton_sparse.h"
#include "optimized/nsgs_colored.h"
#include "optimized/nsgs_sparse.h"
#include "optimized/p4_law_sparse.h"
#include "optimized/ppa_sparse.h"
#include "optimized/quasistatic_sparse.h"
#include "optimized/stability_sparse.h"
#include "optimized/stewart_law_sparse.h"

/* drivers: implementation tables, steppers, explorations, the solver dispatcher */
#include "drivers/discs_step.h"
#include "drivers/moreau_jean.h"
#include "drivers/fl_types.h"
#include "drivers/plurality_explore.h"
#include "drivers/solve.h"

/* testkit: random systems and LCPs */
#include "testkit/fl_lcp_random.h"
#include "testkit/fl_random.h"
#include "testkit/fl_set_random.h"

/* models: the papers' systems, built from data/ files */
#include "models/fl_model_discs.h"
#include "models/fl_model_example_3_14.h"
#include "models/fl_model_example_3_15.h"
#include "models/fl_model_example_4_6.h"
#include "models/fl_model_file.h"
#include "models/fl_model_kane.h"
#include "models/fl_model_painleve.h"
#include "models/fl_model_polyurethane.h"
#include "models/fl_model_square_block.h"
#include "models/fl_model_system1.h"
#include "models/fl_model_system2.h"
#include "models/fl_model_theorem1_rod.h"
#include "models/fl_model_triangle.h"
#include "models/fl_model_wedged_rod.h"

/* checks: invariant checks and oracles, reporting through fl_check_ctx;
 * the crosscheck and reproduce entry points (fl_tasks.h); the
 * cross-validation of an outside solver (xval.h) */
#include "checks/fl_check.h"
#include "checks/fl_tasks.h"
#include "checks/midpoint_checks.h"
#include "checks/moreau_checks.h"
#include "checks/newton_checks.h"
#include "checks/nsgs_checks.h"
#include "checks/p4_checks.h"
#include "checks/sets_checks.h"
#include "checks/stability_checks.h"
#include "checks/stewart_checks.h"
#include "checks/suite.h"
#include "checks/twins.h"
#include "checks/xval.h"

#endif
