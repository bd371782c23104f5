/* fl_clock.h — the one wall clock of the library: monotonic seconds
 * (POSIX clock_gettime(CLOCK_MONOTONIC)), for the `seconds` fields of the
 * result structs and for the benchmarks.  Only differences of two readings
 * mean anything. */
#ifndef FL_CLOCK_H
#define FL_CLOCK_H

/* Seconds on the monotonic clock. */
double fl_clock_now(void);

#endif
