/* SPDX-License-Identifier: MIT */
/* fio's JSON (--output=fio-json:FILE, -Rfio-json): the document fio 3.x
 * writes with --output-format=json, filled from iospd's results, for the
 * tools that read fio (fio-plot, fio2gnuplot, dashboards). One fio job per
 * iospd thread, as fio reports numjobs=N without group_reporting; the
 * timespan is fio's groupid. "fio version" names iospd so that nobody takes
 * the file for fio's. What iospd does not measure (submission latency, the
 * depth histograms, context switches, disk_util) is left out or zero as
 * docs/fio-json.md says. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iospd/version.h"
#include "report_internal.h"
#include "report_json_writer.h"

/* fio's default percentile list (its "percentile" map keys, "%f"). */
static const double fio_pcts[] = {1,  5,  10, 20,   30,   40,    50,   60, 70,
                                  80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

/* fio prints its floats with "%f": always a JSON number with a fraction. */
static void fdbl(iospd_jw_t* w, const char* key, double v) {
  iospd_jw_key(w, key);
  iospd_strbuf_appendf(w->out, "%.6f", isfinite(v) ? v : 0.0);
}

static uint64_t ns_of(double v) { return v > 0 ? (uint64_t)llround(v) : 0; }

/* {"min", "max", "mean", "stddev", "N"} of h in ns (zeros without I/O);
 * with pct, fio's "percentile" map. */
static void lat_obj(iospd_jw_t* w, const char* key, const iospd_hist_t* h,
                    bool pct) {
  bool has = iospd_rpt_has_lat(h);
  iospd_jw_obj(w, key);
  iospd_jw_u64(w, "min", has ? iospd_hist_min_ns(h) : 0);
  iospd_jw_u64(w, "max", has ? iospd_hist_max_ns(h) : 0);
  fdbl(w, "mean", has ? iospd_rpt_mean_ms(h) * 1e6 : 0.0);
  fdbl(w, "stddev", has ? iospd_rpt_stddev_ms(h) * 1e6 : 0.0);
  iospd_jw_u64(w, "N", has ? iospd_hist_count(h) : 0);
  if (pct && has) {
    iospd_jw_obj(w, "percentile");
    for (size_t i = 0; i < sizeof fio_pcts / sizeof fio_pcts[0]; i++) {
      char k[24];
      snprintf(k, sizeof k, "%f", fio_pcts[i]);
      iospd_jw_u64(w, k, ns_of(iospd_hist_percentile_ns(h, fio_pcts[i])));
    }
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_obj(w);
}

static void zero_lat(iospd_jw_t* w, const char* key) {
  lat_obj(w, key, NULL, false);
}

/* min, max, mean, sample standard deviation and count of n values. */
typedef struct {
  double min, max, mean, dev;
  uint32_t n;
} series_t;

static void series_add(series_t* s, double v, double* sum, double* sumsq) {
  if (s->n == 0 || v < s->min) s->min = v;
  if (s->n == 0 || v > s->max) s->max = v;
  s->n++;
  *sum += v;
  *sumsq += v * v;
}

static void series_end(series_t* s, double sum, double sumsq) {
  if (s->n == 0) return;
  s->mean = sum / s->n;
  double var = s->n > 1 ? (sumsq - sum * sum / s->n) / (s->n - 1) : 0.0;
  s->dev = var > 0 ? sqrt(var) : 0.0;
}

/* The -D intervals of one direction as fio's bw (KiB/s) and iops samples;
 * none without -D. */
static void samples(iospd_buckets_sum_t* sum, uint32_t interval_ms,
                    series_t* bw, series_t* iops) {
  memset(bw, 0, sizeof *bw);
  memset(iops, 0, sizeof *iops);
  if (interval_ms == 0) return;
  double secs = interval_ms / 1000.0, bs = 0, bq = 0, is = 0, iq = 0;
  for (uint32_t i = 0; i < sum->used; i++) {
    iospd_bucket_t b;
    iospd_buckets_sum_get(sum, i, &b);
    series_add(bw, (double)b.bytes / 1024.0 / secs, &bs, &bq);
    series_add(iops, (double)b.count / secs, &is, &iq);
  }
  series_end(bw, bs, bq);
  series_end(iops, is, iq);
}

/* "read" or "write" (d 0 or 1) of one job; group_bytes: the direction's
 * bytes over every job of the group (fio's bw_agg). */
static void direction(iospd_jw_t* w, const char* key, rpt_agg_t* a,
                      int d, double seconds, uint64_t group_bytes,
                      uint32_t interval_ms) {
  uint64_t bytes = a->bytes[d], ios = a->ios[d];
  double bw_bytes = seconds > 0 ? (double)bytes / seconds : 0.0;
  iospd_jw_obj(w, key);
  iospd_jw_u64(w, "io_bytes", bytes);
  iospd_jw_u64(w, "io_kbytes", bytes / 1024);
  iospd_jw_u64(w, "bw_bytes", (uint64_t)bw_bytes);
  iospd_jw_u64(w, "bw", (uint64_t)(bw_bytes / 1024.0));
  fdbl(w, "iops", seconds > 0 ? (double)ios / seconds : 0.0);
  iospd_jw_u64(w, "runtime", ios > 0 ? ns_of(seconds * 1000.0) : 0);
  iospd_jw_u64(w, "total_ios", ios);
  iospd_jw_u64(w, "short_ios", 0);
  iospd_jw_u64(w, "drop_ios", 0);
  zero_lat(w, "slat_ns"); /* iospd times submission to completion */
  lat_obj(w, "clat_ns", a->lat[d], true);
  lat_obj(w, "lat_ns", a->lat[d], false);
  series_t bw, iops;
  samples(&a->iops[d], interval_ms, &bw, &iops);
  iospd_jw_u64(w, "bw_min", ns_of(bw.min));
  iospd_jw_u64(w, "bw_max", ns_of(bw.max));
  fdbl(w, "bw_agg", group_bytes > 0 ? 100.0 * bytes / group_bytes : 0.0);
  fdbl(w, "bw_mean", bw.mean);
  fdbl(w, "bw_dev", bw.dev);
  iospd_jw_u64(w, "bw_samples", bw.n);
  iospd_jw_u64(w, "iops_min", ns_of(iops.min));
  iospd_jw_u64(w, "iops_max", ns_of(iops.max));
  fdbl(w, "iops_mean", iops.mean);
  fdbl(w, "iops_stddev", iops.dev);
  iospd_jw_u64(w, "iops_samples", iops.n);
  iospd_jw_end_obj(w);
}

/* fio's latency_ns/_us/_ms maps: the percent of the job's I/Os whose
 * latency is below each bound and at or above the one before. */
static void latency_bins(iospd_jw_t* w, const iospd_hist_t* h) {
  static const uint64_t b[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  static const char* const keys[] = {"latency_ns", "latency_us", "latency_ms"};
  uint64_t cnt[3][12] = {{0}};
  uint64_t total = iospd_rpt_has_lat(h) ? iospd_hist_count(h) : 0;
  if (total > 0) {
    iospd_hist_bucket_t hb;
    uint32_t pos = 0;
    while (iospd_hist_next_bucket(h, &pos, &hb)) {
      uint64_t v = hb.lo_ns, unit = 1;
      int u = 0;
      while (u < 2 && v >= unit * 1000) {
        unit *= 1000;
        u++;
      }
      int k = 0;
      while (k < 10 && v >= b[k] * unit) k++;
      /* ms goes on to 2000 and ">=2000" */
      if (u == 2 && k == 10) k = v < 2000 * unit ? 10 : 11;
      cnt[u][k < 10 || u == 2 ? k : 9] += hb.count;
    }
  }
  for (int u = 0; u < 3; u++) {
    iospd_jw_obj(w, keys[u]);
    for (int k = 0; k < (u == 2 ? 12 : 10); k++) {
      char key[16];
      if (k < 10)
        snprintf(key, sizeof key, "%llu", (unsigned long long)b[k]);
      else
        snprintf(key, sizeof key, "%s", k == 10 ? "2000" : ">=2000");
      fdbl(w, key, total > 0 ? 100.0 * cnt[u][k] / total : 0.0);
    }
    iospd_jw_end_obj(w);
  }
}

/* fio's rw word of a target: read, write, rw (mixed) and their rand forms. */
static const char* rw_word(const iospd_target_t* t) {
  bool rnd = t->random_ratio > 0;
  if (t->write_ratio == 0) return rnd ? "randread" : "read";
  if (t->write_ratio == 100) return rnd ? "randwrite" : "write";
  return rnd ? "randrw" : "rw";
}

static void opt_u64(iospd_jw_t* w, const char* key, uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  iospd_jw_str(w, key, buf);
}

/* "job options" as fio lists them (strings), from the thread's first
 * target and the timespan; filename joins every target as fio's ':'. */
static void job_options(iospd_jw_t* w, const iospd_results_t* r,
                        const iospd_timespan_result_t* tr,
                        const iospd_thread_result_t* th, const char* name) {
  const iospd_timespan_t* ts = tr->ts;
  const iospd_target_t* t = &ts->targets[th->targets[0].target_index];
  iospd_jw_obj(w, "job options");
  iospd_jw_str(w, "name", name);
  iospd_jw_key(w, "filename");
  iospd_strbuf_t fn;
  iospd_strbuf_init(&fn);
  for (uint32_t i = 0; i < th->target_count; i++)
    iospd_strbuf_appendf(&fn, "%s%s", i ? ":" : "",
                         iospd_rpt_target_path(tr, &th->targets[i]));
  iospd_json_append_str(w->out, iospd_strbuf_cstr(&fn));
  if (fn.failed) w->out->failed = true;
  iospd_strbuf_destroy(&fn);
  iospd_jw_str(w, "rw", rw_word(t));
  if (t->write_ratio > 0 && t->write_ratio < 100)
    opt_u64(w, "rwmixread", 100 - t->write_ratio);
  if (t->random_ratio > 0 && t->random_ratio < 100)
    opt_u64(w, "percentage_random", t->random_ratio);
  opt_u64(w, "bs", t->block_size);
  opt_u64(w, "iodepth", th->depth_asked ? th->depth_asked : t->request_count);
  opt_u64(w, "numjobs", tr->thread_count);
  /* fio's engine word: iospd's engine name up to its first space */
  const char* eng =
      th->engine ? th->engine : (r->engine_name ? r->engine_name : "iospd");
  char engw[32];
  snprintf(engw, sizeof engw, "%.*s", (int)strcspn(eng, " "), eng);
  iospd_jw_str(w, "ioengine", engw);
  iospd_jw_str(w, "direct", t->cache_mode == IOSPD_CACHE_CACHED ? "0" : "1");
  if (t->throughput_bpms > 0)
    opt_u64(w, "rate", (uint64_t)t->throughput_bpms * 1000);
  opt_u64(w, "runtime", ts->duration);
  if (ts->warmup > 0) opt_u64(w, "ramp_time", ts->warmup);
  iospd_jw_str(w, "time_based", "1");
  iospd_jw_end_obj(w);
}

static void job_json(iospd_jw_t* w, const iospd_results_t* r, uint32_t span,
                     const iospd_thread_result_t* th,
                     const uint64_t group_bytes[2],
                     const iospd_cpu_usage_t* cpu) {
  const iospd_timespan_result_t* tr = &r->timespans[span];
  rpt_agg_t a;
  iospd_rpt_agg_init(&a);
  uint64_t errors = 0;
  for (uint32_t i = 0; i < th->target_count; i++) {
    iospd_rpt_agg_add(&a, &th->targets[i].stats);
    errors += th->targets[i].stats.errors[0] + th->targets[i].stats.errors[1];
  }
  if (a.failed) w->out->failed = true;
  char name[32];
  snprintf(name, sizeof name, "iospd-thread%u", (unsigned)th->id);
  uint32_t ims = tr->ts->calc_iops_stddev ? tr->ts->io_bucket_ms : 0;
  iospd_jw_obj(w, NULL);
  iospd_jw_str(w, "jobname", name);
  iospd_jw_u64(w, "groupid", span);
  iospd_jw_u64(w, "error", errors > 0 ? 5 : 0); /* fio's errno: EIO */
  iospd_jw_u64(w, "eta", 0);
  iospd_jw_u64(w, "elapsed", ns_of(th->wall_ns > 0 ? th->wall_ns / 1e9
                                                   : tr->seconds));
  job_options(w, r, tr, th, name);
  direction(w, "read", &a, 0, tr->seconds, group_bytes[0], ims);
  direction(w, "write", &a, 1, tr->seconds, group_bytes[1], ims);
  /* iospd issues no trims and no syncs in its counts. */
  rpt_agg_t none;
  iospd_rpt_agg_init(&none);
  direction(w, "trim", &none, 0, 0, 0, 0);
  iospd_rpt_agg_destroy(&none);
  iospd_jw_obj(w, "sync");
  iospd_jw_u64(w, "total_ios", 0);
  zero_lat(w, "lat_ns");
  iospd_jw_end_obj(w);
  iospd_jw_u64(w, "job_runtime", ns_of(tr->seconds * 1000.0));
  /* The machine's CPU over the run, not the job's own (docs/fio-json.md). */
  fdbl(w, "usr_cpu", cpu->user);
  fdbl(w, "sys_cpu", cpu->kernel);
  latency_bins(w, a.lat[2]);
  iospd_jw_u64(w, "latency_depth",
               th->depth_asked ? th->depth_asked : tr->ts->request_count);
  iospd_jw_u64(w, "latency_target", 0);
  fdbl(w, "latency_percentile", 100.0);
  iospd_jw_u64(w, "latency_window", 0);
  iospd_jw_end_obj(w);
  iospd_rpt_agg_destroy(&a);
}

/* Seconds since 1970 of a UTC date (days from the civil calendar). */
static int64_t epoch_of(const iospd_utc_time_t* t, int* weekday) {
  int64_t y = (int64_t)t->year - (t->month <= 2);
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t mp = (t->month + 9) % 12;
  int64_t doy = (153 * mp + 2) / 5 + t->day - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = era * 146097 + doe - 719468;
  *weekday = (int)((days % 7 + 11) % 7); /* 1970-01-01 was a Thursday */
  return days * 86400 + t->hour * 3600 + t->minute * 60 + t->second;
}

int iospd_report_fio_json_write(iospd_sink_t* sink, const iospd_results_t* r) {
  static const char* const wd[] = {"Sun", "Mon", "Tue", "Wed",
                                   "Thu", "Fri", "Sat"};
  static const char* const mo[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  iospd_jw_t w;
  iospd_jw_init(&w, sink, false);
  iospd_jw_obj(&w, NULL);
  iospd_jw_str(&w, "fio version", "iospd-" IOSPD_VERSION " (fio-json)");
  int day = 0;
  int64_t now = epoch_of(&r->run_time, &day);
  iospd_jw_u64(&w, "timestamp", (uint64_t)now);
  iospd_jw_u64(&w, "timestamp_ms", (uint64_t)now * 1000);
  char when[40];
  const iospd_utc_time_t* t = &r->run_time;
  snprintf(when, sizeof when, "%s %s %2u %02u:%02u:%02u %u", wd[day],
           mo[t->month >= 1 && t->month <= 12 ? t->month - 1 : 0],
           (unsigned)t->day, (unsigned)t->hour, (unsigned)t->minute,
           (unsigned)t->second, (unsigned)t->year);
  iospd_jw_str(&w, "time", when);
  iospd_jw_arr(&w, "jobs");
  for (uint32_t s = 0; s < r->timespan_count; s++) {
    const iospd_timespan_result_t* tr = &r->timespans[s];
    if (tr->ts == NULL || tr->interrupted_before_measure || tr->seconds < 1e-7)
      continue; /* nothing measured: fio lists no job */
    uint64_t gb[2] = {0, 0};
    iospd_cpu_usage_t cpu = {0, 0, 0, 0};
    for (uint32_t i = 0; i < r->topo.cpu_count && tr->cpu; i++) {
      cpu.user += tr->cpu[i].user / r->topo.cpu_count;
      cpu.kernel += tr->cpu[i].kernel / r->topo.cpu_count;
    }
    for (uint32_t k = 0; k < tr->thread_count_alloc; k++)
      for (uint32_t i = 0; i < tr->threads[k].target_count; i++)
        for (int d = 0; d < 2; d++)
          gb[d] += tr->threads[k].targets[i].stats.bytes[d];
    for (uint32_t k = 0; k < tr->thread_count_alloc; k++)
      if (tr->threads[k].target_count > 0)
        job_json(&w, r, s, &tr->threads[k], gb, &cpu);
  }
  iospd_jw_end_arr(&w);
  iospd_jw_end_obj(&w);
  iospd_strbuf_putc(w.out, '\n');
  return iospd_jw_finish(&w);
}
