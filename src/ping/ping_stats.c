/* SPDX-License-Identifier: MIT */
/* The probe's statistics: every request is timed, the first (the warm-up,
 * often slow because the device was idle or asleep) is shown but left out,
 * as ioping does by default. The counted times go into an iospd histogram,
 * whose exact sums give min/avg/max/mdev and whose buckets give the -L
 * percentiles; nothing is allocated per request. */
#include <string.h>

#include "iospd/ping.h"

int iospd_ping_stats_init(iospd_ping_stats_t* s) {
  memset(s, 0, sizeof *s);
  s->hist = iospd_hist_create();
  return s->hist != NULL ? 0 : IOSPD_ENOMEM;
}

void iospd_ping_stats_destroy(iospd_ping_stats_t* s) {
  iospd_hist_destroy(s->hist);
  s->hist = NULL;
}

/* "Much faster or slower": under half, or over twice, the mean of the
 * requests counted before this one. With none counted yet (the warm-up and
 * the request after it) there is nothing to compare with. */
iospd_ping_mark_t iospd_ping_stats_add(iospd_ping_stats_t* s, uint64_t ns) {
  s->requests++;
  if (s->requests == 1) return IOSPD_PING_MARK_WARMUP;
  iospd_ping_mark_t mark = IOSPD_PING_MARK_NONE;
  if (s->counted > 0) {
    /* ns < mean / 2  <=>  2 * ns * counted < sum (integers, exact). */
    double twice = 2.0 * (double)ns * (double)s->counted;
    double sum = (double)s->sum_ns;
    if (twice < sum)
      mark = IOSPD_PING_MARK_FAST;
    else if ((double)ns * (double)s->counted > 2.0 * sum)
      mark = IOSPD_PING_MARK_SLOW;
  }
  s->counted++;
  s->sum_ns += ns;
  iospd_hist_record(s->hist, ns);
  return mark;
}

void iospd_ping_summarize(const iospd_ping_stats_t* s, uint32_t size,
                          iospd_ping_summary_t* o) {
  memset(o, 0, sizeof *o);
  o->requests = s->requests;
  o->counted = s->counted;
  o->time_ns = s->sum_ns;
  o->wall_ns = s->wall_ns;
  o->bytes = s->counted * size;
  o->all_bytes = s->requests * size;
  if (o->time_ns > 0) {
    o->iops = (double)o->counted * 1e9 / (double)o->time_ns;
    o->bps = (double)o->bytes * 1e9 / (double)o->time_ns;
  }
  if (o->wall_ns > 0) {
    o->wall_iops = (double)o->requests * 1e9 / (double)o->wall_ns;
    o->wall_bps = (double)o->all_bytes * 1e9 / (double)o->wall_ns;
  }
  if (s->counted > 0) {
    o->min_ns = iospd_hist_min_ns(s->hist);
    o->max_ns = iospd_hist_max_ns(s->hist);
    o->avg_ns = iospd_hist_mean_ns(s->hist);
    o->mdev_ns = iospd_hist_stddev_ns(s->hist);
  }
}
