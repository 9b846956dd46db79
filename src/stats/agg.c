/* SPDX-License-Identifier: MIT */
/* Aggregates of per-target statistics (iospd/agg.h): the per-timespan total
 * computed once for every reporter, and the narrower rows they merge. */
#include "iospd/agg.h"

#include <string.h>

#include "iospd/alloc.h"

void iospd_agg_init(iospd_agg_t* a) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < 3; i++) iospd_buckets_sum_init(&a->iops[i]);
}

void iospd_agg_destroy(iospd_agg_t* a) {
  for (int i = 0; i < 3; i++) {
    iospd_hist_destroy(a->lat[i]);
    iospd_buckets_sum_destroy(&a->iops[i]);
  }
  memset(a, 0, sizeof *a);
}

static void merge_hist(iospd_agg_t* a, int i, const iospd_hist_t* h) {
  if (h == NULL) return;
  if (a->lat[i] == NULL && (a->lat[i] = iospd_hist_create()) == NULL) {
    a->failed = true;
    return;
  }
  iospd_hist_merge(a->lat[i], h);
}

static void merge_buckets(iospd_agg_t* a, int i, const iospd_buckets_t* b) {
  /* The series are read in place at report time: no copy per interval. */
  if (iospd_buckets_sum_add(&a->iops[i], b) < 0) a->failed = true;
}

void iospd_agg_add(iospd_agg_t* a, const iospd_target_stats_t* s) {
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

void iospd_agg_timespan(iospd_agg_t* a, const iospd_timespan_result_t* tr) {
  iospd_agg_init(a);
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
    for (uint32_t i = 0; i < tr->threads[t].target_count; i++)
      iospd_agg_add(a, &tr->threads[t].targets[i].stats);
}

void iospd_results_totals(iospd_results_t* r) {
  for (uint32_t i = 0; i < r->timespan_count; i++) {
    iospd_timespan_result_t* tr = &r->timespans[i];
    if (tr->total != NULL) continue;
    iospd_agg_t* a = iospd_malloc(sizeof *a);
    if (a == NULL) continue;
    iospd_agg_timespan(a, tr);
    tr->total = a;
  }
}

iospd_agg_t* iospd_timespan_total(const iospd_timespan_result_t* tr,
                                  iospd_agg_t* scratch) {
  iospd_agg_init(scratch);
  if (tr->total != NULL) return tr->total;
  iospd_agg_timespan(scratch, tr);
  return scratch;
}
