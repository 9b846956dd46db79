/* SPDX-License-Identifier: MIT */
/* The JSON report (-Rjson, --output=json:FILE): everything the XML report
 * holds, under stable snake_case keys, plus the full latency histograms in
 * their sparse form, the environment and the command line. The format is
 * schema/iospd-results.schema.json, explained in docs/results-json.md.
 * This file writes the results; report_json_env.c the system, environment
 * and profile; report_json_writer.c the JSON itself. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iospd/json_write.h"
#include "iospd/percentiles.h"
#include "report_internal.h"
#include "report_steady.h"
#include "report_verify.h"
#include "report_cost.h"
#include "report_json_writer.h"

/* ---- results ----------------------------------------------------------- */

static void histogram_json(iospd_jw_t* w, const iospd_hist_t* h) {
  iospd_hist_exact_t e;
  iospd_hist_get_exact(h, &e);
  char dec[IOSPD_U128_DEC_MAX];
  iospd_jw_obj(w, "histogram");
  iospd_jw_str(w, "layout", "iospd-hist-v1");
  iospd_jw_u64(w, "count", e.count);
  iospd_jw_u64(w, "min_ns", e.min_ns);
  iospd_jw_u64(w, "max_ns", e.max_ns);
  iospd_u128_to_dec(0, e.sum_ns, dec);
  iospd_jw_str(w, "sum_ns", dec);
  iospd_u128_to_dec(e.sumsq_hi, e.sumsq_lo, dec);
  iospd_jw_str(w, "sum_sq_ns2", dec);
  iospd_jw_arr(w, "buckets");
  iospd_hist_bucket_t b;
  uint32_t pos = 0;
  while (iospd_hist_next_bucket(h, &pos, &b)) {
    iospd_jw_key(w, NULL); /* one bucket per line: [lo, hi, count] */
    if (b.open_end)
      iospd_strbuf_appendf(w->out, "[%llu, null, %llu]",
                           (unsigned long long)b.lo_ns,
                           (unsigned long long)b.count);
    else
      iospd_strbuf_appendf(
          w->out, "[%llu, %llu, %llu]", (unsigned long long)b.lo_ns,
          (unsigned long long)b.hi_ns, (unsigned long long)b.count);
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
}

static void latency_json(iospd_jw_t* w, const iospd_hist_t* h,
                         bool percentiles) {
  if (!iospd_rpt_has_lat(h)) {
    iospd_jw_null(w, "latency");
    return;
  }
  iospd_jw_obj(w, "latency");
  iospd_jw_u64(w, "count", iospd_hist_count(h));
  iospd_jw_dbl(w, "min_ms", (double)iospd_hist_min_ns(h) / 1e6);
  iospd_jw_dbl(w, "max_ms", (double)iospd_hist_max_ns(h) / 1e6);
  iospd_jw_dbl(w, "mean_ms", iospd_rpt_mean_ms(h));
  iospd_jw_dbl(w, "stddev_ms", iospd_rpt_stddev_ms(h));
  if (percentiles) {
    iospd_jw_arr(w, "percentiles");
    /* The percentiles the XML report lists (iospd/percentiles.h). */
    size_t np;
    const iospd_pct_t* pct = iospd_pct_list(&np);
    for (size_t b = 0; b < np; b++) {
      iospd_jw_key(w, NULL);
      iospd_strbuf_append(w->out, "{\"percentile\": ");
      iospd_json_append_str(w->out, pct[b].label);
      iospd_strbuf_append(w->out, ", \"ms\": ");
      iospd_json_append_double(w->out, iospd_rpt_pct_ms(h, pct[b].p));
      iospd_strbuf_putc(w->out, '}');
    }
    iospd_jw_end_arr(w);
  }
  histogram_json(w, h);
  iospd_jw_end_obj(w);
}

static void directions_json(iospd_jw_t* w, const char* key, const rpt_agg_t* a,
                            double seconds) {
  static const char* const names[] = {"read", "write", "total"};
  iospd_jw_obj(w, key);
  for (int d = 0; d < 3; d++) {
    iospd_jw_obj(w, names[d]);
    iospd_jw_u64(w, "ios", a->ios[d]);
    iospd_jw_u64(w, "bytes", a->bytes[d]);
    iospd_jw_dbl(w, "iops", seconds > 0 ? (double)a->ios[d] / seconds : 0.0);
    iospd_jw_dbl(w, "mib_per_s",
                 seconds > 0 ? (double)a->bytes[d] / 1048576.0 / seconds : 0.0);
    latency_json(w, a->lat[d], true);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_obj(w);
}

/* As the XML: an interval's latency whenever it had I/O (null if none). */
static void bucket_latency_json(iospd_jw_t* w, const char* key,
                                const iospd_bucket_t* b) {
  if (b->count == 0) {
    iospd_jw_null(w, key);
    return;
  }
  double n = (double)b->count;
  double var = (b->lat_sumsq_us - b->lat_sum_us * b->lat_sum_us / n) / n;
  iospd_jw_obj(w, key);
  iospd_jw_dbl(w, "min_ms", b->lat_min_us / 1000.0);
  iospd_jw_dbl(w, "max_ms", b->lat_max_us / 1000.0);
  iospd_jw_dbl(w, "mean_ms", b->lat_sum_us / n / 1000.0);
  iospd_jw_dbl(w, "stddev_ms", var > 0 ? sqrt(var) / 1000.0 : 0.0);
  iospd_jw_end_obj(w);
}

static void iops_series_json(iospd_jw_t* w, iospd_buckets_sum_t* rd,
                             iospd_buckets_sum_t* wr, iospd_buckets_sum_t* tot,
                             uint32_t interval_ms) {
  iospd_jw_obj(w, "iops_series");
  iospd_jw_u64(w, "interval_ms", interval_ms);
  iospd_buckets_sum_t* s[3] = {rd, wr, tot};
  static const char* const sd[3] = {"read_iops_stddev", "write_iops_stddev",
                                    "iops_stddev"};
  for (int i = 0; i < 3; i++) {
    if (s[i]->used > 0)
      iospd_jw_dbl(w, sd[i], iospd_buckets_sum_iops_stddev(s[i]));
    else
      iospd_jw_null(w, sd[i]);
  }
  double secs = (double)interval_ms / 1000.0;
  uint32_t n = IOSPD_MAX(rd->used, wr->used);
  /* Slim: left out as the HTML report strips a parsed document (a list of
   * objects goes, an empty list stays). */
  if (w->slim && n > 0) {
    iospd_jw_end_obj(w);
    return;
  }
  iospd_jw_arr(w, "buckets");
  for (uint32_t i = 0; i < n; i++) {
    iospd_bucket_t r, wb;
    iospd_buckets_sum_get(rd, i, &r);
    iospd_buckets_sum_get(wr, i, &wb);
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "sample_ms", (uint64_t)interval_ms * (i + 1));
    iospd_jw_u64(w, "read_ios", r.count);
    iospd_jw_u64(w, "write_ios", wb.count);
    iospd_jw_u64(w, "read_bytes", r.bytes);
    iospd_jw_u64(w, "write_bytes", wb.bytes);
    iospd_jw_dbl(w, "read_iops", (double)r.count / secs);
    iospd_jw_dbl(w, "write_iops", (double)wb.count / secs);
    iospd_jw_dbl(w, "total_iops", (double)(r.count + wb.count) / secs);
    bucket_latency_json(w, "read_latency", &r);
    bucket_latency_json(w, "write_latency", &wb);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
}

static void errors_json(iospd_jw_t* w, uint64_t rd, uint64_t wr, int first,
                        uint64_t first_offset) {
  iospd_jw_obj(w, "errors");
  iospd_jw_u64(w, "read", rd);
  iospd_jw_u64(w, "write", wr);
  if (first != 0) {
    iospd_jw_str(w, "first_error", iospd_strerror(first));
    iospd_jw_u64(w, "first_error_offset", first_offset);
  } else {
    iospd_jw_null(w, "first_error");
    iospd_jw_null(w, "first_error_offset");
  }
  iospd_jw_end_obj(w);
}

static void cpu_json(iospd_jw_t* w, const iospd_results_t* r,
                     const iospd_timespan_result_t* tr) {
  const iospd_cpu_topology_t* t = &r->topo;
  iospd_cpu_usage_t sum = {0, 0, 0, 0};
  iospd_jw_obj(w, "cpu");
  iospd_jw_arr(w, "cpus");
  for (uint32_t i = 0; i < t->cpu_count && t->cpus; i++) {
    const iospd_cpu_info_t* c = &t->cpus[i];
    iospd_cpu_usage_t u =
        tr->cpu ? tr->cpu[i] : (iospd_cpu_usage_t){0, 0, 0, 0};
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "socket", c->socket);
    iospd_jw_u64(w, "node", c->node);
    iospd_jw_u64(w, "group", c->group);
    iospd_jw_u64(w, "core", c->core);
    iospd_jw_u64(w, "efficiency_class", c->efficiency_class);
    iospd_jw_u64(w, "id", c->number);
    iospd_jw_dbl(w, "usage_percent", u.usage);
    iospd_jw_dbl(w, "user_percent", u.user);
    iospd_jw_dbl(w, "kernel_percent", u.kernel);
    iospd_jw_dbl(w, "idle_percent", u.idle);
    iospd_jw_end_obj(w);
    sum.usage += u.usage;
    sum.user += u.user;
    sum.kernel += u.kernel;
    sum.idle += u.idle;
  }
  iospd_jw_end_arr(w);
  double n = t->cpu_count ? (double)t->cpu_count : 1.0;
  iospd_jw_obj(w, "average");
  iospd_jw_dbl(w, "usage_percent", sum.usage / n);
  iospd_jw_dbl(w, "user_percent", sum.user / n);
  iospd_jw_dbl(w, "kernel_percent", sum.kernel / n);
  iospd_jw_dbl(w, "idle_percent", sum.idle / n);
  iospd_jw_end_obj(w);
  iospd_jw_end_obj(w);
}

/* Each profile target summed over the threads that used it. */
static void target_totals_json(iospd_jw_t* w,
                               const iospd_timespan_result_t* tr) {
  const iospd_timespan_t* ts = tr->ts;
  iospd_jw_arr(w, "targets");
  for (uint32_t ti = 0; ti < ts->target_count; ti++) {
    rpt_agg_t a;
    iospd_rpt_agg_init(&a);
    uint64_t file_size = 0, err_rd = 0, err_wr = 0, first_off = 0;
    int first = 0;
    for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
      for (uint32_t i = 0; i < tr->threads[t].target_count; i++) {
        const iospd_thread_target_result_t* tt = &tr->threads[t].targets[i];
        if (tt->target_index != ti) continue;
        iospd_rpt_agg_add(&a, &tt->stats);
        if (file_size == 0) file_size = tt->file_size;
        err_rd += tt->stats.errors[0];
        err_wr += tt->stats.errors[1];
        if (first == 0 && tt->stats.first_error != 0) {
          first = tt->stats.first_error;
          first_off = tt->stats.first_error_offset;
        }
      }
    if (a.failed) w->out->failed = true;
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "target_index", ti);
    iospd_jw_str(w, "path", ts->targets[ti].path ? ts->targets[ti].path : "");
    iospd_jw_u64(w, "file_size", file_size);
    directions_json(w, "directions", &a, tr->seconds);
    errors_json(w, err_rd, err_wr, first, first_off);
    iospd_jw_end_obj(w);
    iospd_rpt_agg_destroy(&a);
  }
  iospd_jw_end_arr(w);
}

static void mean_stddev_json(iospd_jw_t* w, const char* key,
                             const iospd_hist_t* h) {
  iospd_jw_obj(w, key);
  iospd_jw_dbl(w, "mean_ms", iospd_rpt_mean_ms(h));
  iospd_jw_dbl(w, "stddev_ms", iospd_rpt_stddev_ms(h));
  iospd_jw_end_obj(w);
}

static void thread_target_json(iospd_jw_t* w, const iospd_timespan_result_t* tr,
                               const iospd_thread_target_result_t* tt) {
  const iospd_target_stats_t* s = &tt->stats;
  const iospd_timespan_t* ts = tr->ts;
  iospd_jw_obj(w, NULL);
  iospd_jw_u64(w, "target_index", tt->target_index);
  iospd_jw_str(w, "path", iospd_rpt_target_path(tr, tt));
  iospd_jw_u64(w, "file_size", tt->file_size);
  iospd_jw_u64(w, "bytes", s->bytes[0] + s->bytes[1]);
  iospd_jw_u64(w, "ios", s->ios[0] + s->ios[1]);
  iospd_jw_u64(w, "read_bytes", s->bytes[0]);
  iospd_jw_u64(w, "read_ios", s->ios[0]);
  iospd_jw_u64(w, "write_bytes", s->bytes[1]);
  iospd_jw_u64(w, "write_ios", s->ios[1]);
  errors_json(w, s->errors[0], s->errors[1], s->first_error,
              s->first_error_offset);
  if (ts->measure_latency) {
    if (iospd_rpt_has_lat(s->lat[0]))
      mean_stddev_json(w, "read_latency", s->lat[0]);
    if (iospd_rpt_has_lat(s->lat[1]))
      mean_stddev_json(w, "write_latency", s->lat[1]);
  }
  if (tt->dist_count > 0) {
    iospd_jw_arr(w, "distribution");
    for (uint32_t i = 0; i < tt->dist_count; i++) {
      iospd_jw_obj(w, NULL);
      iospd_jw_u64(w, "io_pct", tt->dist[i].io_pct);
      iospd_jw_u64(w, "offset", tt->dist[i].start);
      iospd_jw_u64(w, "length", tt->dist[i].length);
      iospd_jw_end_obj(w);
    }
    iospd_jw_end_arr(w);
  }
  if (ts->calc_iops_stddev) {
    iospd_buckets_sum_t sums[3]; /* read, write, total */
    if (!iospd_rpt_iops_sums_init(sums, s)) w->out->failed = true;
    iops_series_json(w, &sums[0], &sums[1], &sums[2], ts->io_bucket_ms);
    iospd_rpt_iops_sums_destroy(sums);
  }
  iospd_jw_end_obj(w);
}

/* iospd: misleading set-ups seen before or after the run
 * (iospd/warnings.h); an empty array when there were none. */
static void warnings_json(iospd_jw_t* w, const iospd_timespan_result_t* tr) {
  iospd_jw_arr(w, "warnings");
  for (uint32_t i = 0; i < tr->warning_count; i++) {
    const iospd_warning_t* x = &tr->warnings[i];
    iospd_jw_obj(w, NULL);
    iospd_jw_str(w, "kind", iospd_warn_kind_name(x->kind));
    if (x->target >= 0)
      iospd_jw_u64(w, "target_index", (uint64_t)x->target);
    else
      iospd_jw_null(w, "target_index");
    if (x->thread >= 0)
      iospd_jw_u64(w, "thread", (uint64_t)x->thread);
    else
      iospd_jw_null(w, "thread");
    iospd_jw_str(w, "message", x->text);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
}

static void timespan_json(iospd_jw_t* w, const iospd_results_t* r,
                          uint32_t index) {
  const iospd_timespan_result_t* tr = &r->timespans[index];
  const iospd_timespan_t* ts = tr->ts;
  bool measured =
      !tr->interrupted_before_measure && tr->seconds >= 1e-7 && ts != NULL;
  iospd_jw_obj(w, NULL);
  iospd_jw_u64(w, "index", index);
  if (tr->error[0] != '\0')
    iospd_jw_str(w, "error", tr->error);
  else if (!measured)
    iospd_jw_str(w, "error",
                 "The test was interrupted before the measurements "
                 "began. No results are displayed.");
  else
    iospd_jw_null(w, "error");
  iospd_jw_bool(w, "measured", measured);
  warnings_json(w, tr);
  if (!measured) {
    iospd_jw_end_obj(w);
    return;
  }
  iospd_jw_dbl(w, "test_time_seconds", tr->seconds);
  iospd_jw_u64(w, "thread_count", tr->thread_count);
  iospd_jw_u64(w, "request_count", ts->request_count);
  iospd_jw_u64(w, "proc_count", r->topo.cpu_count);
  cpu_json(w, r, tr);

  rpt_agg_t scratch;
  rpt_agg_t* all = iospd_timespan_total(tr, &scratch);
  if (all->failed) w->out->failed = true;
  directions_json(w, "total", all, tr->seconds);
  if (ts->calc_iops_stddev)
    iops_series_json(w, &all->iops[0], &all->iops[1], &all->iops[2],
                     ts->io_bucket_ms);
  iospd_rpt_agg_destroy(&scratch);
  target_totals_json(w, tr);
  iospd_rpt_cost_total_json(w, tr);

  iospd_jw_arr(w, "threads");
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "id", th->id);
    iospd_jw_str(w, "io_engine", th->engine); /* NULL: null */
    iospd_jw_u64(w, "io_engine_depth", th->depth_kept);
    iospd_jw_u64(w, "io_engine_depth_asked", th->depth_asked);
    iospd_jw_arr(w, "targets");
    for (uint32_t i = 0; i < th->target_count; i++)
      thread_target_json(w, tr, &th->targets[i]);
    iospd_jw_end_arr(w);
    iospd_cost_t cost;
    iospd_rpt_cost_thread(th, &cost);
    iospd_rpt_cost_json(w, &cost, &th->cost, th->wait.completion_wait_hist);
    if (r->profile != NULL && r->profile->verbose_stats) {
      const iospd_wait_stats_t* ws = &th->wait;
      iospd_jw_obj(w, "wait_statistics");
      iospd_jw_u64(w, "completion_wait", ws->completion_wait);
      iospd_jw_u64(w, "throttle_wait", ws->throttle_wait);
      iospd_jw_u64(w, "throttle_sleep", ws->throttle_sleep);
      iospd_jw_u64(w, "lookaside", ws->lookaside);
      iospd_jw_arr(w, "lookaside_completion");
      for (int i = 0; i < 8; i++) iospd_jw_u64(w, NULL, ws->lookaside_hist[i]);
      iospd_jw_end_arr(w);
      if (r->profile->ext.diskspd >= IOSPD_DISKSPD_23) {
        /* DISKSPD 2.3's <WaitCompletion>: waits returning 0..7+. */
        iospd_jw_arr(w, "wait_completion");
        for (int i = 0; i < 8; i++)
          iospd_jw_u64(w, NULL, ws->completion_wait_hist[i]);
        iospd_jw_end_arr(w);
      }
      iospd_jw_end_obj(w);
    }
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_rpt_verify_json(w, r, tr);
  iospd_rpt_steady_json(w, tr);
  iospd_jw_end_obj(w);
}

/* "timeseries": the kept .jsonl rows as they are, one array element per
 * line (each line is one JSON object already). */
static void timeseries_json(iospd_jw_t* w, const iospd_json_extra_t* x) {
  if (x->timeseries_dropped > 0)
    iospd_jw_u64(w, "timeseries_dropped_intervals", x->timeseries_dropped);
  if (w->slim) return;
  iospd_jw_arr(w, "timeseries");
  const char* s = x->timeseries_rows;
  const char* end = s + x->timeseries_len;
  while (s < end) {
    const char* nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl != NULL ? (size_t)(nl - s) : (size_t)(end - s);
    if (n > 0) {
      iospd_jw_key(w, NULL);
      iospd_strbuf_append_n(w->out, s, n);
    }
    s += n + 1;
  }
  iospd_jw_end_arr(w);
}

int iospd_report_json_write(iospd_sink_t* sink, const iospd_results_t* r,
                            const iospd_json_extra_t* extra, bool slim) {
  iospd_jw_t w;
  iospd_jw_init(&w, sink, slim);
  iospd_jw_obj(&w, NULL);
  iospd_jw_str(&w, "format", "iospd-results");
  iospd_jw_u64(&w, "format_version", 1);
  iospd_rpt_json_system(&w, r);
  iospd_rpt_json_environment(&w, r, extra);
  if (r->profile != NULL) {
    /* The profile as the text report (-Rptext) shows it, for readers such
     * as the HTML report that want the familiar layout. */
    iospd_strbuf_t pt;
    iospd_strbuf_init(&pt);
    iospd_report_text_profile(&pt, r);
    iospd_jw_str(&w, "profile_text", iospd_strbuf_cstr(&pt));
    iospd_strbuf_destroy(&pt);
    iospd_rpt_json_profile(&w, r->profile);
  } else {
    iospd_profile_t empty;
    iospd_profile_init(&empty);
    iospd_rpt_json_profile(&w, &empty);
    iospd_profile_destroy(&empty);
  }
  iospd_jw_arr(&w, "timespans");
  for (uint32_t i = 0; i < r->timespan_count; i++) timespan_json(&w, r, i);
  iospd_jw_end_arr(&w);
  iospd_rpt_tree_json(&w, r, latency_json);
  if (extra != NULL && extra->warning_count > 0) {
    iospd_jw_arr(&w, "warnings");
    for (uint32_t i = 0; i < extra->warning_count; i++)
      iospd_jw_str(&w, NULL, extra->warnings[i]);
    iospd_jw_end_arr(&w);
  }
  if (extra != NULL && extra->timeseries_rows != NULL) timeseries_json(&w, extra);
  iospd_jw_end_obj(&w);
  iospd_strbuf_putc(w.out, '\n');
  return iospd_jw_finish(&w);
}

void iospd_report_json(iospd_strbuf_t* out, const iospd_results_t* r,
                       const iospd_json_extra_t* extra) {
  iospd_sink_t sink;
  iospd_sink_to_strbuf(&sink, out);
  if (iospd_report_json_write(&sink, r, extra, false) == IOSPD_ENOMEM)
    out->failed = true; /* as when the text was built here */
}
