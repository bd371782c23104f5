/* fl_results_internal.h — helpers shared by the report/fl_results*.c files
 * (the model, the reader, the baseline comparison).  Not installed: not
 * part of the library's interface. */
#ifndef FL_RESULTS_INTERNAL_H
#define FL_RESULTS_INTERNAL_H

#include <stddef.h>

#include "fl_results.h"

/* A copy of s (NULL for NULL or when out of memory). */
char *fl_results_strdup(const char *s);

/* Replace *dst by a copy of src; FL_ENOMEM leaves *dst unchanged. */
fl_status fl_results_set_str(char **dst, const char *src);

/* Grow an array of `size`-byte items to hold n + 1. */
fl_status fl_results_grow(void **items, size_t *cap, size_t n, size_t size);

/* Free the strings of c (not c itself). */
void fl_result_check_clear(fl_result_check *c);

#endif
