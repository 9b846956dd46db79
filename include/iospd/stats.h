/* SPDX-License-Identifier: MIT */
/* What one worker records for one target while measuring, and the merged
 * results tree the reporters read. Workers write only their own stats; the
 * controller merges after joining them. */
#ifndef IOSPD_STATS_H
#define IOSPD_STATS_H

#include "iospd/buckets.h"
#include "iospd/common.h"
#include "iospd/cost.h"
#include "iospd/hist.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/vcounts.h"
#include "iospd/warnings.h"

/* Per (worker, target). Index 0 = read, 1 = write (IOSPD_OP_*). */
typedef struct iospd_target_stats_s {
  uint64_t bytes[2];
  uint64_t ios[2];
  iospd_hist_t* lat[2];      /* NULL unless -L */
  iospd_buckets_t iops[2];   /* capacity 0 unless -D */
  uint64_t errors[2];
  /* Sum of the latencies, with or without -L: the mean latency for the
   * Little's-law warning (iospd/warnings.h). */
  uint64_t lat_sum_ns[2];
  int first_error;           /* IOSPD_E* of the first failed I/O, or 0 */
  uint64_t first_error_offset;
} iospd_target_stats_t;

/* Allocates what the profile asks for (histograms with -L, buckets with -D). */
int iospd_target_stats_init(iospd_target_stats_t* s, bool latency,
                            bool iops, uint32_t interval_ms,
                            uint64_t duration_ms);
void iospd_target_stats_destroy(iospd_target_stats_t* s);
/* Hot path: one completion while measuring. */
void iospd_target_stats_record(iospd_target_stats_t* s, int op,
                               uint32_t bytes, uint64_t lat_ns,
                               uint64_t since_start_ns);
/* dst += src. dst must have been initialised with the same options. */
int iospd_target_stats_merge(iospd_target_stats_t* dst,
                             const iospd_target_stats_t* src);

/* One effective -rd range in bytes (DISKSPD's -rd ranges), as reported. */
typedef struct iospd_eff_range_s {
  uint32_t io_base, io_pct;
  uint64_t start, length;
} iospd_eff_range_t;

typedef struct iospd_wait_stats_s {
  uint64_t completion_wait, throttle_wait, throttle_sleep, lookaside;
  uint64_t lookaside_hist[8];
  /* DISKSPD 2.3 -vs "Completion Wait": waits that returned 0, 1, ..., 7 or
   * more completions. */
  uint64_t completion_wait_hist[8];
} iospd_wait_stats_t;

/* Results for one (thread, target) pair. */
typedef struct iospd_thread_target_result_s {
  uint32_t target_index;        /* into the timespan's targets */
  uint64_t file_size;           /* size seen at run time */
  iospd_target_stats_t stats;
  iospd_eff_range_t* dist;      /* effective distribution, or NULL */
  uint32_t dist_count;
  iospd_vcounts_t verify;       /* --verify: blocks written and checked */
  /* -Sy/-SY (DISKSPD 2.3): what BypassIO bypassed on this thread's handle
   * (state IOSPD_BYPASS_STATE_NOT_ASKED without them) and why not all
   * (note). For the reporters' "BypassIO" lines and <BypassIO> results. */
  iospd_bypass_result_t bypass_io;
} iospd_thread_target_result_t;

typedef struct iospd_thread_result_s {
  uint32_t id;
  /* How the thread issued I/O: the engine's name (static storage, NULL if
   * it never set up), the I/Os in flight -o/-O asked for and the most the
   * engine really kept (fewer: psync, a thread pool that could not start
   * every thread, kernel AIO on a buffered file). */
  const char* engine;
  uint32_t depth_asked, depth_kept;
  iospd_thread_target_result_t* targets;
  uint32_t target_count;
  iospd_wait_stats_t wait;
  /* The worker's CPU time and wall time over its run (0 when unknown),
   * as the generator-busy warning reads them; --curve's "tool" verdict. */
  uint64_t cpu_ns, wall_ns;
  /* --verify: the first failures the thread met (owned array). */
  iospd_vfail_t* vfails;
  uint32_t vfail_count;
  /* The tool's own cost on this thread (iospd/cost.h). */
  iospd_cost_raw_t cost;
} iospd_thread_result_t;

/* How busy a thread was, for the busy-generator warning and --curve's
 * "the tool is the limit": its CPU and wall time over the measured phase
 * (the tool_cost figures) when the worker took them, else over its whole
 * run (cpu_ns, wall_ns). False, and zeros, when neither is known. */
bool iospd_thread_busy_ns(const iospd_thread_result_t* th, uint64_t* cpu_ns,
                          uint64_t* wall_ns);

typedef struct iospd_cpu_usage_s {
  double usage, user, kernel, idle; /* percent; kernel excludes idle */
} iospd_cpu_usage_t;

typedef struct iospd_timespan_result_s {
  const iospd_timespan_t* ts;
  bool interrupted_before_measure; /* "The test was interrupted before..." */
  /* Why the timespan failed ("" if it did not): the reports print it in
   * place of DISKSPD's "interrupted" sentence (<Error> in XML), followed by
   * whatever was measured before the failure (seconds > 0). */
  char error[IOSPD_ERR_MSG_MAX];
  double seconds;                  /* measured elapsed seconds */
  uint32_t thread_count;
  iospd_cpu_usage_t* cpu;          /* topology cpu_count entries */
  /* A CPU snapshot failed: cpu[] holds zeros that mean nothing; the
   * reports say unknown (and a cpu_unknown warning says why). */
  bool cpu_unknown;
  iospd_thread_result_t* threads;
  uint32_t thread_count_alloc;
  /* Misleading set-ups seen before or after the run (iospd/warnings.h). */
  iospd_warning_t* warnings;
  uint32_t warning_count;
  /* Every (thread, target) merged, read/write/total (iospd/agg.h): filled
   * once as the run ends (iospd_results_totals), NULL before or without
   * memory; owned, freed by iospd_results_destroy. */
  struct iospd_agg_s* total;
  /* --steady-state: the test's rounds, last window and verdict
   * (iospd/steady_state.h); NULL without it. Owned. */
  struct iospd_ss_result_s* steady_state;
} iospd_timespan_result_t;

/* Appends a warning (text copied). 0 or IOSPD_ENOMEM. */
int iospd_timespan_warning_add(iospd_timespan_result_t* tr,
                               iospd_warn_kind_t kind, int32_t target,
                               int32_t thread, const char* text);

typedef struct iospd_results_s {
  const iospd_profile_t* profile;
  iospd_sysinfo_t sys;
  iospd_cpu_topology_t topo;
  iospd_utc_time_t run_time;   /* taken after the run, as DISKSPD does */
  const char* engine_name;     /* what ran: io_uring, psync, IOCP */
  iospd_timespan_result_t* timespans;
  uint32_t timespan_count;
  /* --tree runs: the file-tree section the reports add (iospd/tree.h);
   * NULL otherwise. Owned by the caller. */
  const struct iospd_tree_results_s* tree;
  /* --verify-only: the checking pass's summary (iospd/verify.h); NULL
   * otherwise. Freed by iospd_run_release. */
  struct iospd_vonly_s* vonly;
} iospd_results_t;

/* Frees everything in the tree except profile/topology (owned elsewhere). */
void iospd_results_destroy(iospd_results_t* r);

/* CPU usage from two snapshots (as DISKSPD computes CPU usage). */
void iospd_cpu_usage_compute(const iospd_cpu_times_t* start,
                             const iospd_cpu_times_t* end, uint32_t n,
                             iospd_cpu_usage_t* out);

#endif
