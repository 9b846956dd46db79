/* SPDX-License-Identifier: MIT */
/* The text report (-Rtext, the default) in DISKSPD 2.2's layout (2.3's
 * system section and effective affinity from report_sys.c at --diskspd=2.3): profile
 * echo, System information, then per timespan the timing, CPU table,
 * effective distributions, Total/Read/Write tables, latency percentiles and
 * wait statistics, and a Totals block when there are several timespans. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/percentiles.h"
#include "iospd/units.h"
#include "report_internal.h"
#include "report_sys.h"
#include "report_steady.h"
#include "report_verify.h"
#include "report_cost.h"
#include "report_waitstats.h"

#define ap iospd_strbuf_appendf

static const char kStars[] =
    "*******************************************************************"
    "************";
static const char kInterrupted[] =
    "The test was interrupted before the measurements began. No results are "
    "displayed.";

static void repeat(iospd_strbuf_t* out, char c, unsigned n) {
  for (unsigned i = 0; i < n; i++) iospd_strbuf_putc(out, c);
}

static void system_info(iospd_strbuf_t* out, const iospd_results_t* r) {
  if (iospd_rpt_level(r) >= IOSPD_DISKSPD_23) {
    iospd_rpt_system_text_23(out, r);
    return;
  }
  const iospd_cpu_topology_t* t = &r->topo;
  const iospd_utc_time_t* rt = &r->run_time;
  ap(out, "System information:\n\n");
  ap(out, "\tcomputer name: %s\n", r->sys.computer_name);
  ap(out, "\tstart time: %u/%02u/%02u %02u:%02u:%02u UTC\n\n", rt->year,
     rt->month, rt->day, rt->hour, rt->minute, rt->second);
  ap(out, "\tcpu count:\t\t%u\n", t->cpu_count);
  ap(out, "\tcore count:\t\t%u\n", t->core_count);
  ap(out, "\tgroup count:\t\t%u\n", t->group_count);
  ap(out, "\tnode count:\t\t%u\n", t->node_count);
  ap(out, "\tsocket count:\t\t%u\n", t->socket_count);
  ap(out, "\theterogeneous cores:\t%c\n\n", t->heterogeneous ? 'y' : 'n');
  const char* name = r->sys.power_scheme_name;
  ap(out, "\tactive power scheme:\t%s", name[0] ? name : "<unknown>");
  if (r->sys.power_scheme_guid[0]) ap(out, " (%s)", r->sys.power_scheme_guid);
  ap(out, "\n");
}

static void cpu_table(iospd_strbuf_t* out, const iospd_results_t* r,
                      const iospd_timespan_result_t* tr) {
  const iospd_cpu_topology_t* t = &r->topo;
  bool sock = t->socket_count > 1, node = t->node_count > 1;
  bool grp = t->group_count > 1, core = t->smt, cls = t->heterogeneous;
  unsigned extra = 9u * sock + 7u * node + 8u * grp + 7u * core + 8u * cls;
  uint8_t top_class = 0;
  for (uint32_t i = 0; i < t->cpu_count; i++)
    if (t->cpus[i].efficiency_class > top_class)
      top_class = t->cpus[i].efficiency_class;

  ap(out, "\n");
  if (sock) ap(out, "Socket | ");
  if (node) ap(out, "Node | ");
  if (grp) ap(out, "Group | ");
  if (core) ap(out, "Core | ");
  if (cls) ap(out, "Class | ");
  ap(out, "CPU |  Usage |  User  | Kernel |  Idle\n");
  repeat(out, '-', extra + 40);
  ap(out, "\n");
  iospd_cpu_usage_t sum = {0, 0, 0, 0};
  for (uint32_t i = 0; i < t->cpu_count; i++) {
    const iospd_cpu_info_t* c = &t->cpus[i];
    iospd_cpu_usage_t u = tr->cpu ? tr->cpu[i] : (iospd_cpu_usage_t){0, 0, 0, 0};
    if (sock) ap(out, "%7u| ", c->socket);
    if (node) ap(out, "%5u| ", c->node);
    if (grp) ap(out, "%6u| ", c->group);
    if (core) ap(out, "%5u| ", c->core);
    if (cls)
      ap(out, "%5u%c| ", c->efficiency_class,
         c->efficiency_class == top_class ? 'P' : ' ');
    if (tr->cpu_unknown) { /* a snapshot failed: no number is true */
      ap(out, "%4u| unknown\n", c->number);
      continue;
    }
    ap(out, "%4u| %6.2f%%| %6.2f%%| %6.2f%%| %6.2f%%\n", c->number, u.usage,
       u.user, u.kernel, u.idle);
    sum.usage += u.usage;
    sum.user += u.user;
    sum.kernel += u.kernel;
    sum.idle += u.idle;
  }
  repeat(out, '-', extra + 40);
  ap(out, "\n");
  double n = t->cpu_count ? (double)t->cpu_count : 1.0;
  repeat(out, ' ', extra);
  if (tr->cpu_unknown) {
    ap(out, "avg.| unknown (see the cpu_unknown warning)\n");
    return;
  }
  ap(out, "avg.| %6.2f%%| %6.2f%%| %6.2f%%| %6.2f%%\n", sum.usage / n,
     sum.user / n, sum.kernel / n, sum.idle / n);
}

/* ---- effective distributions ------------------------------------------- */

typedef struct dist_use_s {
  const iospd_thread_target_result_t* tt;
  const char* path;
  uint32_t thread;
} dist_use_t;

static bool same_dist(const iospd_thread_target_result_t* a,
                      const iospd_thread_target_result_t* b) {
  if (a->dist_count != b->dist_count) return false;
  for (uint32_t i = 0; i < a->dist_count; i++) {
    const iospd_eff_range_t *x = &a->dist[i], *y = &b->dist[i];
    if (x->io_base != y->io_base || x->io_pct != y->io_pct ||
        x->start != y->start || x->length != y->length)
      return false;
  }
  return true;
}

static int cmp_u32(const void* a, const void* b) {
  uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
  return x < y ? -1 : x > y;
}

static int cmp_str(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

/* " 0 1", " 0 - 2 4": runs of three or more collapse to "first - last". */
static void thread_list(iospd_strbuf_t* out, uint32_t* ids, uint32_t n) {
  qsort(ids, n, sizeof *ids, cmp_u32);
  uint32_t i = 0;
  while (i < n) {
    uint32_t j = i;
    while (j + 1 < n && ids[j + 1] <= ids[j] + 1) j++;
    /* duplicates count once */
    uint32_t distinct = ids[j] - ids[i] + 1;
    if (distinct >= 3) {
      ap(out, " %u - %u", ids[i], ids[j]);
    } else {
      for (uint32_t k = i; k <= j; k++)
        if (k == i || ids[k] != ids[k - 1]) ap(out, " %u", ids[k]);
    }
    i = j + 1;
  }
}

static void dist_ranges(iospd_strbuf_t* out,
                        const iospd_thread_target_result_t* tt) {
  uint32_t total = 0;
  for (uint32_t i = 0; i < tt->dist_count; i++) total += tt->dist[i].io_pct;
  for (uint32_t i = 0; i < tt->dist_count; i++) {
    const iospd_eff_range_t* d = &tt->dist[i];
    char a[32], b[32];
    iospd_rpt_size_w6(d->start, a, sizeof a);
    iospd_rpt_size_w6(d->start + d->length, b, sizeof b);
    if (total > 0 && total < 100)
      ap(out, "    %0.1f%% of IO => [%s - %s)\n",
         100.0 * d->io_pct / (double)total, a, b);
    else
      ap(out, "   %3u%% of IO => [%s - %s)\n", d->io_pct, a, b);
  }
}

static void effective_distributions(iospd_strbuf_t* out,
                                    const iospd_timespan_result_t* tr) {
  uint32_t n = 0;
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
    for (uint32_t k = 0; k < tr->threads[t].target_count; k++)
      n += tr->threads[t].targets[k].dist_count > 0;
  if (n == 0) return;
  dist_use_t* uses = iospd_calloc(n, sizeof *uses);
  bool* done = iospd_calloc(n, sizeof *done);
  const char** paths = iospd_calloc(n, sizeof *paths);
  uint32_t* ids = iospd_calloc(n, sizeof *ids);
  if (!uses || !done || !paths || !ids) {
    out->failed = true;
    goto out;
  }
  n = 0;
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    for (uint32_t k = 0; k < th->target_count; k++) {
      if (th->targets[k].dist_count == 0) continue;
      uses[n].tt = &th->targets[k];
      uses[n].path = iospd_rpt_target_path(tr, &th->targets[k]);
      uses[n].thread = th->id;
      n++;
    }
  }
  ap(out, "\nEffective IO Distributions\n--------------------------\n");
  for (uint32_t i = 0; i < n; i++) {
    if (done[i]) continue;
    /* All uses of this distribution, then one line per distinct path. */
    uint32_t np = 0;
    for (uint32_t j = i; j < n; j++) {
      if (done[j] || !same_dist(uses[i].tt, uses[j].tt)) continue;
      bool seen = false;
      for (uint32_t q = 0; q < np; q++) seen |= !strcmp(paths[q], uses[j].path);
      if (!seen) paths[np++] = uses[j].path;
    }
    qsort(paths, np, sizeof *paths, cmp_str);
    for (uint32_t q = 0; q < np; q++) {
      uint32_t ni = 0;
      for (uint32_t j = i; j < n; j++)
        if (!done[j] && !strcmp(uses[j].path, paths[q]) &&
            same_dist(uses[i].tt, uses[j].tt))
          ids[ni++] = uses[j].thread;
      ap(out, "target: %s [thread:", paths[q]);
      thread_list(out, ids, ni);
      ap(out, "]\n");
    }
    const iospd_thread_target_result_t* first = uses[i].tt;
    for (uint32_t j = i; j < n; j++)
      if (same_dist(first, uses[j].tt)) done[j] = true;
    dist_ranges(out, first);
  }
out:
  iospd_free(uses);
  iospd_free(done);
  iospd_free(paths);
  iospd_free(ids);
}

/* ---- Total / Read / Write tables ---------------------------------------- */

/* iops_sd: the row's IOPS standard deviation, printed with D. */
static void cells(iospd_strbuf_t* out, uint64_t bytes, uint64_t ios,
                  double secs, const iospd_hist_t* lat, double iops_sd,
                  bool L, bool D) {
  ap(out, " %15llu | %12llu | %10.2f | %10.2f", (unsigned long long)bytes,
     (unsigned long long)ios, (double)bytes / 1048576.0 / secs,
     (double)ios / secs);
  if (L) ap(out, " | %8.3f", iospd_rpt_mean_ms(lat));
  if (D) ap(out, " | %10.2f", iops_sd);
  if (L) {
    if (iospd_rpt_has_lat(lat))
      ap(out, " |  %8.3f", iospd_rpt_stddev_ms(lat));
    else
      ap(out, " |       N/A");
  }
}

static void io_table(iospd_strbuf_t* out, const iospd_timespan_result_t* tr,
                     rpt_agg_t* all, int k) {
  static const char* const titles[] = {"Read IO", "Write IO", "Total IO"};
  bool L = tr->ts->measure_latency, D = tr->ts->calc_iops_stddev;
  unsigned width = 78u + (L ? 23u : 0u) + (D ? 13u : 0u);
  ap(out, "\n%s\n", titles[k]);
  ap(out, "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s ");
  if (L) ap(out, "|  AvgLat  ");
  if (D) ap(out, "| IopsStdDev ");
  if (L) ap(out, "| LatStdDev ");
  ap(out, "|  file\n");
  repeat(out, '-', width);
  ap(out, "\n");
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    for (uint32_t i = 0; i < th->target_count; i++) {
      const iospd_thread_target_result_t* tt = &th->targets[i];
      const iospd_target_stats_t* s = &tt->stats;
      char sz[64];
      ap(out, "%6u |", th->id);
      if (k < 2) {
        cells(out, s->bytes[k], s->ios[k], tr->seconds, s->lat[k],
              D ? iospd_buckets_iops_stddev(&s->iops[k]) : 0.0, L, D);
      } else {
        rpt_agg_t row;
        iospd_rpt_agg_init(&row);
        iospd_rpt_agg_add(&row, s);
        if (row.failed) out->failed = true;
        cells(out, row.bytes[2], row.ios[2], tr->seconds, row.lat[2],
              D ? iospd_buckets_sum_iops_stddev(&row.iops[2]) : 0.0, L, D);
        iospd_rpt_agg_destroy(&row);
      }
      ap(out, " | %s (%s)\n", iospd_rpt_target_path(tr, tt),
         iospd_format_size(tt->file_size, sz, sizeof sz));
    }
  }
  repeat(out, '-', width);
  ap(out, "\ntotal:  ");
  cells(out, all->bytes[k], all->ios[k], tr->seconds, all->lat[k],
        D ? iospd_buckets_sum_iops_stddev(&all->iops[k]) : 0.0, L, D);
  ap(out, "\n");
}

/* ---- latency percentiles ------------------------------------------------ */

static void pct_cell(char* buf, size_t n, const iospd_hist_t* h, double p) {
  if (iospd_rpt_has_lat(h))
    snprintf(buf, n, "%.3f", iospd_rpt_pct_ms(h, p));
  else
    snprintf(buf, n, "N/A");
}

static void latency_table(iospd_strbuf_t* out, const rpt_agg_t* a) {
  ap(out, "  %%-ile |  Read (ms) | Write (ms) | Total (ms)\n");
  repeat(out, '-', 46);
  ap(out, "\n");
  size_t np;
  const iospd_pct_t* pct = iospd_pct_list(&np);
  for (size_t i = 0; i < np; i++) {
    if (!(pct[i].lists & IOSPD_PCT_TEXT)) continue;
    char r[32], w[32];
    double p = pct[i].p;
    pct_cell(r, sizeof r, a->lat[0], p);
    pct_cell(w, sizeof w, a->lat[1], p);
    ap(out, "%7s | %10s | %10s | %10.3f\n", pct[i].text, r, w,
       iospd_rpt_pct_ms(a->lat[2], p));
  }
}

static void latency_section(iospd_strbuf_t* out,
                            const iospd_timespan_result_t* tr,
                            const rpt_agg_t* all) {
  const iospd_timespan_t* ts = tr->ts;
  /* Distinct paths in first-appearance order (DISKSPD: hash-map order). */
  uint32_t np = 0;
  const char** paths = iospd_calloc(ts->target_count + 1, sizeof *paths);
  if (paths == NULL) {
    out->failed = true;
    return;
  }
  for (uint32_t i = 0; i < ts->target_count; i++) {
    const char* p = ts->targets[i].path ? ts->targets[i].path : "";
    bool seen = false;
    for (uint32_t q = 0; q < np; q++) seen |= !strcmp(paths[q], p);
    if (!seen) paths[np++] = p;
  }
  if (np > 1) {
    for (uint32_t q = 0; q < np; q++) {
      rpt_agg_t a;
      iospd_rpt_agg_init(&a);
      for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
        const iospd_thread_result_t* th = &tr->threads[t];
        for (uint32_t i = 0; i < th->target_count; i++)
          if (!strcmp(iospd_rpt_target_path(tr, &th->targets[i]), paths[q]))
            iospd_rpt_agg_add(&a, &th->targets[i].stats);
      }
      if (a.failed) out->failed = true;
      ap(out, "\nLatency distribution: %s\n", paths[q]);
      latency_table(out, &a);
      iospd_rpt_agg_destroy(&a);
    }
  }
  iospd_free(paths);
  ap(out, "\nTotal latency distribution:\n");
  latency_table(out, all);
}

static void wait_stats(iospd_strbuf_t* out,
                       const iospd_timespan_result_t* tr) {
  ap(out, "\nWait Statistics\n");
  ap(out, "thread | completion wait | throttle wait  -  sleep | lookaside | "
          "0 - 7+ complete per lookaside\n");
  repeat(out, '-', 95);
  ap(out, "\n");
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    const iospd_wait_stats_t* w = &th->wait;
    ap(out, "%6u | %15llu | %13llu  - %6llu | %9llu |", th->id,
       (unsigned long long)w->completion_wait,
       (unsigned long long)w->throttle_wait,
       (unsigned long long)w->throttle_sleep,
       (unsigned long long)w->lookaside);
    for (int i = 0; i < 8; i++)
      ap(out, " %llu", (unsigned long long)w->lookaside_hist[i]);
    ap(out, "\n");
  }
}

/* Before the results: the engine of every thread and the I/Os it kept in
 * flight, one line per run of threads that agree, and a WARNING for each
 * thread that kept fewer than asked. Nothing when no engine is known. */
static void engine_lines(iospd_strbuf_t* out,
                         const iospd_timespan_result_t* tr) {
  const iospd_thread_result_t* th = tr->threads;
  uint32_t n = tr->thread_count_alloc;
  bool any = false;
  for (uint32_t t = 0; t < n; t++) any = any || th[t].engine != NULL;
  if (!any) return;
  for (uint32_t t = 0; t < n;) {
    uint32_t e = t + 1;
    while (e < n && th[e].engine != NULL && th[t].engine != NULL &&
           strcmp(th[e].engine, th[t].engine) == 0 &&
           th[e].depth_kept == th[t].depth_kept &&
           th[e].depth_asked == th[t].depth_asked)
      e++;
    if (th[t].engine != NULL) {
      if (e - t == n)
        ap(out, "I/O engine:\t\t%s, %u I/O%s in flight per thread\n",
           th[t].engine, th[t].depth_kept, th[t].depth_kept == 1 ? "" : "s");
      else if (e - t == 1)
        ap(out, "I/O engine (thread %u):\t%s, %u I/O%s in flight\n",
           th[t].id, th[t].engine, th[t].depth_kept,
           th[t].depth_kept == 1 ? "" : "s");
      else
        ap(out, "I/O engine (threads %u-%u):\t%s, %u I/O%s in flight each\n",
           th[t].id, th[e - 1].id, th[t].engine, th[t].depth_kept,
           th[t].depth_kept == 1 ? "" : "s");
    }
    t = e;
  }
  for (uint32_t t = 0; t < n; t++)
    if (th[t].engine != NULL && th[t].depth_kept < th[t].depth_asked)
      ap(out,
         "WARNING: thread %u: the %s engine kept %u I/O%s in flight, not "
         "the %u asked for\n",
         th[t].id, th[t].engine, th[t].depth_kept,
         th[t].depth_kept == 1 ? "" : "s", th[t].depth_asked);
}

static void timespan_results(iospd_strbuf_t* out, const iospd_results_t* r,
                             uint32_t idx) {
  const iospd_timespan_result_t* tr = &r->timespans[idx];
  const iospd_timespan_t* ts = tr->ts;
  ap(out, "\nResults for timespan %u:\n%s\n", idx + 1, kStars);
  bool measured =
      !tr->interrupted_before_measure && tr->seconds >= 1e-7 && ts != NULL;
  /* A failed timespan names its error where DISKSPD prints its
   * "interrupted" sentence, then shows what was measured before it. */
  if (tr->error[0] != '\0')
    ap(out, "The test failed: %s\n%s", tr->error,
       measured ? "The results measured before the failure follow.\n" : "");
  else if (!measured)
    ap(out, "%s\n", kInterrupted);
  if (!measured) return;
  ap(out, "\nactual test time:\t%.2fs\n", tr->seconds);
  ap(out, "thread count:\t\t%u\n", tr->thread_count);
  if (ts->thread_count > 0 && ts->request_count > 0)
    ap(out, "request count:\t\t%u\n", ts->request_count);
  engine_lines(out, tr);
  if (iospd_rpt_level(r) >= IOSPD_DISKSPD_23)
    iospd_rpt_effective_affinity_text(out, r, tr);
  cpu_table(out, r, tr);
  effective_distributions(out, tr);

  rpt_agg_t scratch;
  rpt_agg_t* all = iospd_timespan_total(tr, &scratch);
  if (all->failed) out->failed = true;
  io_table(out, tr, all, 2);
  io_table(out, tr, all, 0);
  io_table(out, tr, all, 1);
  if (ts->measure_latency) latency_section(out, tr, all);
  iospd_rpt_agg_destroy(&scratch);
  if (r->profile != NULL && r->profile->verbose_stats &&
      !iospd_rpt_waitstats_text(out, r, tr))
    wait_stats(out, tr);
  if (r->profile != NULL && r->profile->verbose_stats)
    iospd_rpt_cost_text(out, tr);
}

static void totals(iospd_strbuf_t* out, const iospd_results_t* r) {
  uint64_t bytes[2] = {0, 0}, ios[2] = {0, 0};
  double secs = 0;
  for (uint32_t i = 0; i < r->timespan_count; i++) {
    const iospd_timespan_result_t* tr = &r->timespans[i];
    if (tr->interrupted_before_measure || tr->seconds < 1e-7) continue;
    secs += tr->seconds;
    for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
      for (uint32_t k = 0; k < tr->threads[t].target_count; k++)
        for (int op = 0; op < 2; op++) {
          bytes[op] += tr->threads[t].targets[k].stats.bytes[op];
          ios[op] += tr->threads[t].targets[k].stats.ios[op];
        }
  }
  double d = secs > 0 ? secs : 1.0;
  ap(out, "\n\nTotals:\n%s\n\n", kStars);
  ap(out, "type   |       bytes     |     I/Os     |    MiB/s   |  I/O per s\n");
  repeat(out, '-', 79);
  ap(out, "\n");
  static const char* const names[] = {"read   ", "write  "};
  for (int k = 1; k >= 0; k--)
    ap(out, "%s| %15llu | %12llu | %10.2f | %10.2f\n", names[k],
       (unsigned long long)bytes[k], (unsigned long long)ios[k],
       (double)bytes[k] / 1048576.0 / d, (double)ios[k] / d);
  repeat(out, '-', 79);
  uint64_t tb = bytes[0] + bytes[1], ti = ios[0] + ios[1];
  ap(out, "\ntotal  | %15llu | %12llu | %10.2f | %10.2f\n\n",
     (unsigned long long)tb, (unsigned long long)ti,
     (double)tb / 1048576.0 / d, (double)ti / d);
  ap(out, "total test time:\t%.2fs\n", secs);
}

/* The engine the threads of one target used: the first name, the largest
 * depth asked and the smallest kept (a shortfall anywhere shows). */
static bool target_engine(void* ctx, uint32_t timespan, uint32_t target,
                          iospd_engine_use_t* use) {
  const iospd_results_t* r = ctx;
  if (timespan >= r->timespan_count) return false;
  const iospd_timespan_result_t* tr = &r->timespans[timespan];
  bool found = false;
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    if (th->engine == NULL) continue;
    for (uint32_t k = 0; k < th->target_count; k++) {
      if (th->targets[k].target_index != target) continue;
      if (!found) {
        *use = (iospd_engine_use_t){th->engine, th->depth_asked,
                                    th->depth_kept};
        found = true;
      }
      if (th->depth_asked > use->asked) use->asked = th->depth_asked;
      if (th->depth_kept < use->kept) use->kept = th->depth_kept;
    }
  }
  return found;
}

void iospd_report_text_profile(iospd_strbuf_t* out,
                               const iospd_results_t* r) {
  if (r->profile != NULL)
    iospd_report_profile_text_sys(out, r->profile, r->engine_name,
                                  target_engine, (void*)r, &r->topo,
                                  r->sys.page_size);
}

void iospd_report_text(iospd_strbuf_t* out, const iospd_results_t* r) {
  iospd_report_text_profile(out, r);
  system_info(out, r);
  for (uint32_t i = 0; i < r->timespan_count; i++) timespan_results(out, r, i);
  if (r->timespan_count > 1) totals(out, r);
  iospd_report_tree_text(out, r);
  iospd_rpt_verify_text(out, r);
  iospd_rpt_steady_text(out, r);
}

void iospd_report_system_text(iospd_strbuf_t* out, const iospd_results_t* r) {
  iospd_rpt_system_text_23(out, r);
}
