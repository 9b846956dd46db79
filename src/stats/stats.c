/* SPDX-License-Identifier: MIT */
/* Per (worker, target) statistics: the hot-path record, the merge the
 * controller does after joining the workers, CPU usage from two snapshots
 * (as DISKSPD computes CPU usage), and freeing the results tree. */
#include "iospd/stats.h"

#include <string.h>

#include "iospd/agg.h"
#include "iospd/alloc.h"
#include "iospd/error.h"

int iospd_target_stats_init(iospd_target_stats_t* s, bool latency,
                            bool iops, uint32_t interval_ms,
                            uint64_t duration_ms) {
  memset(s, 0, sizeof *s);
  for (int op = 0; op < 2; op++) {
    if (latency && (s->lat[op] = iospd_hist_create()) == NULL) goto nomem;
    if (iops) {
      int rc = iospd_buckets_init(&s->iops[op], interval_ms, duration_ms);
      if (rc < 0) {
        iospd_target_stats_destroy(s);
        return rc;
      }
    }
  }
  return 0;
nomem:
  iospd_target_stats_destroy(s);
  return IOSPD_ENOMEM;
}

void iospd_target_stats_destroy(iospd_target_stats_t* s) {
  for (int op = 0; op < 2; op++) {
    iospd_hist_destroy(s->lat[op]);
    iospd_buckets_destroy(&s->iops[op]);
  }
  memset(s, 0, sizeof *s);
}

void iospd_target_stats_record(iospd_target_stats_t* s, int op,
                               uint32_t bytes, uint64_t lat_ns,
                               uint64_t since_start_ns) {
  s->bytes[op] += bytes;
  s->ios[op]++;
  s->lat_sum_ns[op] += lat_ns;
  if (s->lat[op] != NULL) iospd_hist_record(s->lat[op], lat_ns);
  if (s->iops[op].capacity != 0)
    iospd_buckets_add(&s->iops[op], since_start_ns, lat_ns, bytes);
}

int iospd_target_stats_merge(iospd_target_stats_t* dst,
                             const iospd_target_stats_t* src) {
  for (int op = 0; op < 2; op++) {
    dst->bytes[op] += src->bytes[op];
    dst->ios[op] += src->ios[op];
    dst->errors[op] += src->errors[op];
    dst->lat_sum_ns[op] += src->lat_sum_ns[op];
    if (src->lat[op] != NULL) {
      /* Not the hot path: a destination made without -L gets one here. */
      if (dst->lat[op] == NULL &&
          (dst->lat[op] = iospd_hist_create()) == NULL)
        return IOSPD_ENOMEM;
      iospd_hist_merge(dst->lat[op], src->lat[op]);
    }
    int rc = iospd_buckets_merge(&dst->iops[op], &src->iops[op]);
    if (rc < 0) return rc;
  }
  if (dst->first_error == 0 && src->first_error != 0) {
    dst->first_error = src->first_error;
    dst->first_error_offset = src->first_error_offset;
  }
  return 0;
}

void iospd_results_destroy(iospd_results_t* r) {
  if (r == NULL) return;
  for (uint32_t i = 0; i < r->timespan_count; i++) {
    iospd_timespan_result_t* tr = &r->timespans[i];
    /* First: it reads the targets' IOPS series in place. */
    if (tr->total != NULL) {
      iospd_agg_destroy(tr->total);
      iospd_free(tr->total);
      tr->total = NULL;
    }
    iospd_free(tr->cpu);
    for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
      iospd_thread_result_t* th = &tr->threads[t];
      for (uint32_t k = 0; k < th->target_count; k++) {
        iospd_target_stats_destroy(&th->targets[k].stats);
        iospd_free(th->targets[k].dist);
      }
      iospd_free(th->targets);
      iospd_free(th->vfails);
    }
    iospd_free(tr->threads);
    for (uint32_t w = 0; w < tr->warning_count; w++)
      iospd_free(tr->warnings[w].text);
    iospd_free(tr->warnings);
    iospd_free(tr->steady_state);
  }
  iospd_free(r->timespans);
  r->timespans = NULL;
  r->timespan_count = 0;
}

int iospd_timespan_warning_add(iospd_timespan_result_t* tr,
                               iospd_warn_kind_t kind, int32_t target,
                               int32_t thread, const char* text) {
  iospd_warning_t* a =
      iospd_realloc(tr->warnings, (tr->warning_count + 1) * sizeof *a);
  if (a == NULL) return IOSPD_ENOMEM;
  tr->warnings = a;
  char* t = iospd_strdup(text);
  if (t == NULL) return IOSPD_ENOMEM;
  a[tr->warning_count++] = (iospd_warning_t){kind, target, thread, t};
  return 0;
}

static uint64_t delta(uint64_t a, uint64_t b) { return b > a ? b - a : 0; }

void iospd_cpu_usage_compute(const iospd_cpu_times_t* start,
                             const iospd_cpu_times_t* end, uint32_t n,
                             iospd_cpu_usage_t* out) {
  for (uint32_t i = 0; i < n; i++) {
    /* The platform reports kernel time without idle (platform.h), so the
     * total is idle + kernel + user; DISKSPD's "kernel - idle" is ours. */
    uint64_t idle = delta(start[i].idle, end[i].idle);
    uint64_t kernel = delta(start[i].kernel, end[i].kernel);
    uint64_t user = delta(start[i].user, end[i].user);
    uint64_t total = idle + kernel + user;
    iospd_cpu_usage_t* o = &out[i];
    if (total == 0) {
      o->idle = 100.0;
      o->user = o->kernel = o->usage = 0.0;
      continue;
    }
    o->idle = 100.0 * (double)idle / (double)total;
    o->user = 100.0 * (double)user / (double)total;
    o->kernel = 100.0 * (double)kernel / (double)total;
    o->usage = o->kernel + o->user;
  }
}
