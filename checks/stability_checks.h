/* stability_checks.h — comparisons of the sparse stability twin with the
 * dense reference (004 §5.4, §5.7), shared by the crosscheck
 * (checks/stability_checks.c) and the polyurethane tasks (checks/polyurethane.c).
 *
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 */
#ifndef FL_STABILITY_CHECKS_H
#define FL_STABILITY_CHECKS_H

#include <stddef.h>

#include "reference/stability.h"

int fl_stability_twin_agrees(const fl_stability_tangent *t, const fl_stability_result *rd, const fl_stability_result *rs);
int fl_stability_damped_agree(size_t N, double *dre, double *dim, size_t nr, const double *lre,
                              const double *lim, size_t *md, size_t *ms);

#endif
