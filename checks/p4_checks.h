/* p4_checks.h — crosscheck and reproduce tasks of the generalized friction
 * law P'4 (paper 001 §3–§6); see checks/p4_checks.c. */
#ifndef FL_P4_CHECKS_H
#define FL_P4_CHECKS_H

#include "checks/fl_check.h"

int fl_p4_crosscheck(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_set(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_catastrophe(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_grazing(fl_check_ctx *ctx);
int fl_p4_reproduce_painleve_p5_vs_p3(fl_check_ctx *ctx);
int fl_p4_reproduce_systems_1_2(fl_check_ctx *ctx);
int fl_p4_reproduce_kane(fl_check_ctx *ctx);

#endif
