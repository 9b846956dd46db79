/* SPDX-License-Identifier: MIT */
/* Shared pieces of the reporters: merging stats for a table row or a total,
 * latency in milliseconds, and the aligned size format of distributions. */
#include <string.h>

#include "iospd/units.h"
#include "report_internal.h"

void iospd_rpt_agg_init(rpt_agg_t* a) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < 3; i++) iospd_buckets_sum_init(&a->iops[i]);
}

void iospd_rpt_agg_destroy(rpt_agg_t* a) {
  for (int i = 0; i < 3; i++) {
    iospd_hist_destroy(a->lat[i]);
    iospd_buckets_sum_destroy(&a->iops[i]);
  }
  memset(a, 0, sizeof *a);
}

static void merge_hist(rpt_agg_t* a, int i, const iospd_hist_t* h) {
  if (h == NULL) return;
  if (a->lat[i] == NULL && (a->lat[i] = iospd_hist_create()) == NULL) {
    a->failed = true;
    return;
  }
  iospd_hist_merge(a->lat[i], h);
}

static void merge_buckets(rpt_agg_t* a, int i, const iospd_buckets_t* b) {
  /* The series are read in place at report time: no copy per interval. */
  if (iospd_buckets_sum_add(&a->iops[i], b) < 0) a->failed = true;
}

void iospd_rpt_agg_add(rpt_agg_t* a, const iospd_target_stats_t* s) {
  for (int op = 0; op < 2; op++) {
    a->bytes[op] += s->bytes[op];
    a->ios[op] += s->ios[op];
    a->bytes[2] += s->bytes[op];
    a->ios[2] += s->ios[op];
    merge_hist(a, op, s->lat[op]);
    merge_hist(a, 2, s->lat[op]);
    merge_buckets(a, op, &s->iops[op]);
    merge_buckets(a, 2, &s->iops[op]);
  }
}

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

void iospd_rpt_agg_timespan(rpt_agg_t* a, const iospd_timespan_result_t* tr) {
  iospd_rpt_agg_init(a);
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
    for (uint32_t i = 0; i < tr->threads[t].target_count; i++)
      iospd_rpt_agg_add(a, &tr->threads[t].targets[i].stats);
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
