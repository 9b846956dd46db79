/* SPDX-License-Identifier: MIT */
/* Shared pieces of the reporters: latency in milliseconds, and the aligned
 * size format of distributions (the aggregates are the stats layer's,
 * iospd/agg.h). */
#include <string.h>

#include "iospd/units.h"
#include "report_internal.h"

bool iospd_rpt_has_lat(const iospd_hist_t* h) {
  return h != NULL && iospd_hist_count(h) > 0;
}

double iospd_rpt_mean_ms(const iospd_hist_t* h) {
  return iospd_rpt_has_lat(h) ? iospd_hist_mean_ns(h) / 1e6 : 0.0;
}

double iospd_rpt_stddev_ms(const iospd_hist_t* h) {
  return iospd_rpt_has_lat(h) ? iospd_hist_stddev_ns(h) / 1e6 : 0.0;
}

double iospd_rpt_pct_ms(const iospd_hist_t* h, double p) {
  return iospd_rpt_has_lat(h) ? iospd_hist_percentile_ns(h, p) / 1e6 : 0.0;
}

char* iospd_rpt_size_w6(uint64_t bytes, char* buf, size_t n) {
  return iospd_format_size_w(bytes, 6, buf, n);
}

const char* iospd_rpt_target_path(const iospd_timespan_result_t* tr,
                                  const iospd_thread_target_result_t* tt) {
  if (tr->ts == NULL || tt->target_index >= tr->ts->target_count) return "";
  const char* p = tr->ts->targets[tt->target_index].path;
  return p != NULL ? p : "";
}

bool iospd_rpt_iops_sums_init(iospd_buckets_sum_t sums[3],
                              const iospd_target_stats_t* s) {
  for (int i = 0; i < 3; i++) iospd_buckets_sum_init(&sums[i]);
  return iospd_buckets_sum_add(&sums[0], &s->iops[0]) >= 0 &&
         iospd_buckets_sum_add(&sums[1], &s->iops[1]) >= 0 &&
         iospd_buckets_sum_add(&sums[2], &s->iops[0]) >= 0 &&
         iospd_buckets_sum_add(&sums[2], &s->iops[1]) >= 0;
}

void iospd_rpt_iops_sums_destroy(iospd_buckets_sum_t sums[3]) {
  for (int i = 0; i < 3; i++) iospd_buckets_sum_destroy(&sums[i]);
}
