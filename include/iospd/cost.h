/* SPDX-License-Identifier: MIT */
/* The tool's own cost (issue #29): what each worker spent to move its
 * I/Os, and the figures every report prints from it: CPU time per I/O
 * (user and system, in microseconds), IOPS per busy core, completions per
 * wait (DISKSPD 2.3's -vs 0..7+ histogram, iospd_wait_stats_t) and I/Os
 * per submit call. With --engine=null they are the tool's ceiling on the
 * machine (README, "The tool's own cost"). */
#ifndef IOSPD_COST_H
#define IOSPD_COST_H

#include "iospd/common.h"

/* What a worker counts. The CPU and wall times cover the measured phase
 * only, as the I/O counts do (read by the worker's own thread as it sees
 * the phase begin and end); 0 when unknown (a workload that does not
 * take them, a platform without per-thread CPU times). The call counts
 * cover every phase: they give ratios. */
typedef struct iospd_cost_raw_s {
  uint64_t user_ns, sys_ns, wall_ns;
  uint64_t submit_calls, submitted;    /* calls that handed I/Os over */
  uint64_t waits, wait_completions;    /* counted waits, what they reaped */
} iospd_cost_raw_t;

/* The figures. A figure whose inputs are unknown or zero is NaN
 * (reported as null / "n/a"). */
typedef struct iospd_cost_s {
  uint64_t ios;
  double user_us_per_io, sys_us_per_io, cpu_us_per_io;
  double busy_cores;     /* CPU time / measured wall time */
  double iops_per_core;  /* I/Os per second of CPU time */
  double completions_per_wait, ios_per_submit;
} iospd_cost_t;

/* dst += src (a timespan's total; wall_ns takes the longest). */
void iospd_cost_add(iospd_cost_raw_t* dst, const iospd_cost_raw_t* src);
/* The figures for ios I/Os measured with raw's counts. */
void iospd_cost_compute(const iospd_cost_raw_t* raw, uint64_t ios,
                        iospd_cost_t* out);

#endif
