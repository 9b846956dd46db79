/* SPDX-License-Identifier: MIT */
/* Aggregates of per-target statistics: bytes, I/O counts, a merged latency
 * histogram and the summed IOPS series, for read (0), write (1) and total
 * (2). A timespan's total over every (thread, target) is computed once,
 * when the run ends (iospd_results_totals), and kept in its results for
 * every reporter; a reporter merges only the narrower rows it shows (one
 * target, one thread). */
#ifndef IOSPD_AGG_H
#define IOSPD_AGG_H

#include "iospd/stats.h"

typedef struct iospd_agg_s {
  uint64_t bytes[3], ios[3];
  iospd_hist_t* lat[3];        /* NULL when no input carried latency */
  iospd_buckets_sum_t iops[3]; /* no series when no input carried -D */
  bool failed;                 /* an allocation failed: latency partial */
} iospd_agg_t;

void iospd_agg_init(iospd_agg_t* a);
/* Adds one (thread, target)'s statistics. The IOPS series are read in
 * place: s must outlive a. */
void iospd_agg_add(iospd_agg_t* a, const iospd_target_stats_t* s);
void iospd_agg_destroy(iospd_agg_t* a);
/* Initialises a and adds every (thread, target) of tr. */
void iospd_agg_timespan(iospd_agg_t* a, const iospd_timespan_result_t* tr);

/* Computes each timespan's total into its results (tr->total), once, after
 * the statistics are final (the controller calls it as the run ends);
 * freed by iospd_results_destroy. Out of memory leaves a total NULL. */
void iospd_results_totals(iospd_results_t* r);

/* tr's total: the one computed by iospd_results_totals, or, for a results
 * tree built another way (tests, documents read back), computed now into
 * scratch. Destroy scratch after use either way. Not const: reading the
 * IOPS sums moves their cursors (iospd/buckets.h), which every reader
 * starts again from the first interval. */
iospd_agg_t* iospd_timespan_total(const iospd_timespan_result_t* tr,
                                  iospd_agg_t* scratch);

#endif
