/* SPDX-License-Identifier: MIT */
/* Warnings about set-ups that make a run measure something other than the
 * storage (docs/warnings.md): a read of never-written or all-zero data, a
 * buffered read of a target that fits in free memory (the page cache), a
 * generator that may be the limit, more threads than CPUs. Each is one line
 * on stderr (before the run where it can be known then, else after it) and
 * an entry of its timespan's results (<Warnings> in XML, "warnings" in
 * JSON). The rules are pure functions here so that they can be tested with
 * exact numbers; the run (src/run) gathers the numbers. */
#ifndef IOSPD_WARNINGS_H
#define IOSPD_WARNINGS_H

#include "iospd/common.h"

typedef enum iospd_warn_kind {
  IOSPD_WARN_UNWRITTEN = 0,    /* never-written ranges (holes, unwritten) */
  IOSPD_WARN_ZERO_DATA,        /* every sampled block of a read is zeros */
  IOSPD_WARN_PAGE_CACHE,       /* buffered reads of a target that fits RAM */
  IOSPD_WARN_GENERATOR_BUSY,   /* a worker thread busy >= 95 % of the run */
  IOSPD_WARN_QUEUE_NOT_FULL,   /* IOPS x mean latency < 80 % of -o asked */
  IOSPD_WARN_THREADS_OVER_CPUS,
  IOSPD_WARN_CPU_UNKNOWN,      /* a CPU snapshot failed: usage unknown */
  IOSPD_WARN_BYPASS_IO,        /* -Sy: BypassIO partial or off on a target */
  IOSPD_WARN_KIND_COUNT
} iospd_warn_kind_t;

typedef struct iospd_warning_s {
  iospd_warn_kind_t kind;
  int32_t target;  /* index in the timespan's targets, -1 for none */
  int32_t thread;  /* worker thread, -1 for none */
  char* text;      /* the stderr line without "WARNING: " (owned) */
} iospd_warning_t;

/* "unwritten_target", "zero_data", "page_cache", "generator_busy",
 * "queue_not_full", "threads_over_cpus", "cpu_unknown", "bypass_io": the
 * XML Kind and
 * JSON kind. */
const char* iospd_warn_kind_name(iospd_warn_kind_t k);

/* Warnings known only after the run (busy generator, Little's law): the
 * results keep them and main prints them after the report. */
static inline bool iospd_warn_after_run(iospd_warn_kind_t k) {
  return k == IOSPD_WARN_GENERATOR_BUSY || k == IOSPD_WARN_QUEUE_NOT_FULL;
}

/* The rules (thresholds in docs/warnings.md). */
#define IOSPD_WARN_BUSY_PCT 95u      /* thread CPU time / wall time */
#define IOSPD_WARN_QUEUE_PCT 80u     /* Little's law: in flight / asked */
#define IOSPD_WARN_SAMPLES 32u       /* blocks sampled for zeros */
#define IOSPD_WARN_SAMPLE_MAX 65536u /* bytes read per sample at most */

/* A worker whose thread used at least 95 % of a CPU over the run. False
 * when either time is unknown (0). */
bool iospd_warn_busy(uint64_t cpu_ns, uint64_t wall_ns);
/* Little's law: the mean number of I/Os in flight, total latency over the
 * measured time, against the number asked for. False when nothing was
 * asked or measured. */
bool iospd_warn_queue_not_full(double latency_sum_s, double seconds,
                               uint64_t asked, double* in_flight);
/* Buffered reads whose span (bytes the run can touch) fits in the memory
 * available (0 = unknown: no warning). */
bool iospd_warn_page_cache(uint64_t span, uint64_t mem_available);
/* True if all n bytes are zero. */
bool iospd_warn_all_zero(const uint8_t* b, size_t n);
/* Where the k-th of n samples of len bytes (a multiple of 4096) is read in
 * [base, end): evenly spread, 4096-aligned. */
uint64_t iospd_warn_sample_offset(uint64_t base, uint64_t end, uint32_t len,
                                  uint32_t k, uint32_t n);

#endif
