/* SPDX-License-Identifier: MIT */
/* The XML report (-Rxml) with DISKSPD 2.2's element tree, names and order
 * (2.3's additions under <System> and in each timespan at --diskspd=2.3),
 * two-space indentation and no newline after </Results>. Unlike DISKSPD,
 * every text and attribute value is escaped, so the document is always
 * well-formed: paths as the profile writes them (Escaped="U+F0NN" when they
 * hold bytes XML cannot carry), other text with U+FFFD for such bytes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/percentiles.h"
#include "iospd/version.h"
#include "iospd/xml_escape.h"
#include "iospd/xml_profile.h"
#include "report_internal.h"
#include "report_sys.h"
#include "report_steady.h"
#include "report_verify.h"
#include "report_cost.h"
#include "report_waitstats.h"

#define ap iospd_strbuf_appendf

static const char kInterrupted[] =
    "The test was interrupted before the measurements began. No results are "
    "displayed.";

static void ind(iospd_strbuf_t* out, unsigned level) {
  for (unsigned i = 0; i < level; i++) iospd_strbuf_append(out, "  ");
}

/* <name>text</name> with text escaped. */
static void elem_s(iospd_strbuf_t* out, unsigned lv, const char* name,
                   const char* text) {
  ind(out, lv);
  ap(out, "<%s>", name);
  iospd_strbuf_append_xml(out, text);
  ap(out, "</%s>\n", name);
}

/* A path, as the profile writes it: bytes XML cannot carry become U+F0NN
 * under Escaped="U+F0NN" (iospd/xml_escape.h). */
static void elem_path(iospd_strbuf_t* out, unsigned lv, const char* name,
                      const char* path) {
  if (!iospd_xml_needs_byte_escape(path)) {
    elem_s(out, lv, name, path);
    return;
  }
  ind(out, lv);
  ap(out, "<%s %s=\"%s\">", name, IOSPD_XML_ESCAPED_ATTR,
     IOSPD_XML_ESCAPED_VALUE);
  iospd_xml_append_escaped(out, path,
                           IOSPD_XML_ESC_QUOTES | IOSPD_XML_ESC_BYTES);
  ap(out, "</%s>\n", name);
}

static void elem_u(iospd_strbuf_t* out, unsigned lv, const char* name,
                   unsigned long long v) {
  ind(out, lv);
  ap(out, "<%s>%llu</%s>\n", name, v, name);
}

static void elem_f(iospd_strbuf_t* out, unsigned lv, const char* name,
                   const char* fmt, double v) {
  char num[64];
  snprintf(num, sizeof num, fmt, v);
  ind(out, lv);
  ap(out, "<%s>%s</%s>\n", name, num, name);
}

/* DISKSPD 2.3: one <Cache> per cache and sharing set, in the topology's
 * order. */
static void caches_xml(iospd_strbuf_t* out, const iospd_cpu_topology_t* t,
                       unsigned b) {
  for (uint32_t i = 0; i < t->cache_count && t->caches; i++) {
    const iospd_cache_info_t* c = &t->caches[i];
    ind(out, b + 2);
    ap(out, "<Cache Level=\"%u\" Associativity=\"%u\" LineSize=\"%u\" "
            "CacheSize=\"%u\" Type=\"%s\">\n",
       c->level, c->associativity, c->line_size, c->size,
       iospd_rpt_cache_type(c->type));
    ind(out, b + 3);
    ap(out, "<Group Group=\"%u\" Mask=\"0x%llx\"/>\n", c->group,
       (unsigned long long)c->mask);
    ind(out, b + 2);
    ap(out, "</Cache>\n");
  }
}

/* DISKSPD 2.3: the buffer separation and the CPUs the threads used. */
static void effective_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                          const iospd_timespan_result_t* tr) {
  elem_u(out, 2, "EffectiveBufferSeparation",
         iospd_rpt_buffer_separation(r, tr->ts));
  uint32_t groups = r->topo.group_count;
  uint64_t* masks = groups ? iospd_calloc(groups, sizeof *masks) : NULL;
  if (groups && masks == NULL) {
    out->failed = true;
    return;
  }
  if (masks != NULL && iospd_rpt_effective_affinity(r, tr, masks)) {
    ind(out, 2);
    ap(out, "<EffectiveAffinity>\n");
    for (uint32_t g = 0; g < groups; g++) {
      if (masks[g] == 0) continue;
      ind(out, 3);
      ap(out, "<Group Group=\"%u\" Mask=\"0x%llx\"/>\n", g,
         (unsigned long long)masks[g]);
    }
    ind(out, 2);
    ap(out, "</EffectiveAffinity>\n");
  }
  iospd_free(masks);
}

/* <System> with its opening tag at indentation level b (1 in the results). */
static void system_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                       unsigned b, bool v23) {
  const iospd_cpu_topology_t* t = &r->topo;
  const iospd_utc_time_t* rt = &r->run_time;
  char buf[64];
  ind(out, b);
  ap(out, "<System>\n");
  elem_s(out, b + 1, "ComputerName", r->sys.computer_name);
  if (v23) elem_s(out, b + 1, "ProcessorName", t->processor_name);
  ind(out, b + 1);
  ap(out, "<Tool>\n");
  elem_s(out, b + 2, "Version",
         iospd_rpt_diskspd_version(v23 ? IOSPD_DISKSPD_23 : IOSPD_DISKSPD_22));
  elem_s(out, b + 2, "VersionDate",
         iospd_rpt_diskspd_version_date(v23 ? IOSPD_DISKSPD_23
                                            : IOSPD_DISKSPD_22));
  ind(out, b + 1);
  ap(out, "</Tool>\n");
  snprintf(buf, sizeof buf, "%u/%02u/%02u %02u:%02u:%02u UTC", rt->year,
           rt->month, rt->day, rt->hour, rt->minute, rt->second);
  elem_s(out, b + 1, "RunTime", buf);
  ind(out, b + 1);
  ap(out, "<PowerScheme Name=\"");
  iospd_strbuf_append_xml(out, r->sys.power_scheme_name[0]
                                   ? r->sys.power_scheme_name
                                   : "<unknown>");
  ap(out, "\" Guid=\"");
  iospd_strbuf_append_xml(out, r->sys.power_scheme_guid);
  ap(out, "\"/>\n");
  if (v23) elem_u(out, b + 1, "PageSize", r->sys.page_size);

  ind(out, b + 1);
  ap(out, "<ProcessorTopology Heterogeneous=\"%s\">\n",
     t->heterogeneous ? "true" : "false");
  for (uint32_t g = 0; g < t->group_count && t->groups; g++) {
    ind(out, b + 2);
    ap(out,
       "<Group Group=\"%u\" MaximumProcessors=\"%u\" ActiveProcessors=\"%u\" "
       "ActiveProcessorMask=\"0x%llx\"/>\n",
       g, t->groups[g].max_processors, t->groups[g].active_processors,
       (unsigned long long)t->groups[g].active_mask);
  }
  /* Nodes and sockets: consecutive entries with one id form one element. */
  const struct iospd_topo_mask_s* lists[2] = {t->node_masks, t->socket_masks};
  uint32_t counts[2] = {t->node_mask_count, t->socket_mask_count};
  const char* names[2] = {"Node", "Socket"};
  for (int l = 0; l < 2; l++) {
    for (uint32_t i = 0; i < counts[l];) {
      uint32_t id = lists[l][i].id;
      ind(out, b + 2);
      ap(out, "<%s %s=\"%u\">\n", names[l], names[l], id);
      for (; i < counts[l] && lists[l][i].id == id; i++) {
        ind(out, b + 3);
        ap(out, "<Group Group=\"%u\" Mask=\"0x%llx\"/>\n", lists[l][i].group,
           (unsigned long long)lists[l][i].mask);
      }
      ind(out, b + 2);
      ap(out, "</%s>\n", names[l]);
    }
  }
  for (uint32_t i = 0; i < t->core_mask_count; i++) {
    const struct iospd_topo_mask_s* c = &t->core_masks[i];
    ind(out, b + 2);
    ap(out, "<Core Group=\"%u\" Core=\"%u\" Mask=\"0x%llx\" "
            "EfficiencyClass=\"%u\"/>\n",
       c->group, c->id, (unsigned long long)c->mask, c->efficiency_class);
  }
  if (v23) caches_xml(out, t, b);
  ind(out, b + 1);
  ap(out, "</ProcessorTopology>\n");
  ind(out, b);
  ap(out, "</System>\n");
}

static void cpu_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                    const iospd_timespan_result_t* tr) {
  const iospd_cpu_topology_t* t = &r->topo;
  iospd_cpu_usage_t sum = {0, 0, 0, 0};
  ind(out, 2);
  ap(out, "<CpuUtilization>\n");
  for (uint32_t i = 0; i < t->cpu_count; i++) {
    const iospd_cpu_info_t* c = &t->cpus[i];
    iospd_cpu_usage_t u = tr->cpu ? tr->cpu[i] : (iospd_cpu_usage_t){0, 0, 0, 0};
    ind(out, 3);
    ap(out, "<CPU>\n");
    elem_u(out, 4, "Socket", c->socket);
    elem_u(out, 4, "Node", c->node);
    elem_u(out, 4, "Group", c->group);
    elem_u(out, 4, "Core", c->core);
    elem_u(out, 4, "EfficiencyClass", c->efficiency_class);
    elem_u(out, 4, "Id", c->number);
    elem_f(out, 4, "UsagePercent", "%.2f", u.usage);
    elem_f(out, 4, "UserPercent", "%.2f", u.user);
    elem_f(out, 4, "KernelPercent", "%.2f", u.kernel);
    elem_f(out, 4, "IdlePercent", "%.2f", u.idle);
    ind(out, 3);
    ap(out, "</CPU>\n");
    sum.usage += u.usage;
    sum.user += u.user;
    sum.kernel += u.kernel;
    sum.idle += u.idle;
  }
  double n = t->cpu_count ? (double)t->cpu_count : 1.0;
  ind(out, 3);
  ap(out, "<Average>\n");
  elem_f(out, 4, "UsagePercent", "%.2f", sum.usage / n);
  elem_f(out, 4, "UserPercent", "%.2f", sum.user / n);
  elem_f(out, 4, "KernelPercent", "%.2f", sum.kernel / n);
  elem_f(out, 4, "IdlePercent", "%.2f", sum.idle / n);
  ind(out, 3);
  ap(out, "</Average>\n");
  ind(out, 2);
  ap(out, "</CpuUtilization>\n");
}

static void latency_xml(iospd_strbuf_t* out, const rpt_agg_t* a) {
  static const char* const cols[] = {"ReadMilliseconds", "WriteMilliseconds",
                                     "TotalMilliseconds"};
  ind(out, 2);
  ap(out,
     "<Latency ReadHistoBuckets=\"%llu\" WriteHistoBuckets=\"%llu\" "
     "TotalHistoBuckets=\"%llu\">\n",
     (unsigned long long)(a->lat[0] ? iospd_hist_bucket_count(a->lat[0]) : 0),
     (unsigned long long)(a->lat[1] ? iospd_hist_bucket_count(a->lat[1]) : 0),
     (unsigned long long)(a->lat[2] ? iospd_hist_bucket_count(a->lat[2]) : 0));
  if (iospd_rpt_has_lat(a->lat[0])) {
    elem_f(out, 3, "AverageReadMilliseconds", "%.3f",
           iospd_rpt_mean_ms(a->lat[0]));
    elem_f(out, 3, "ReadLatencyStdev", "%.3f", iospd_rpt_stddev_ms(a->lat[0]));
  }
  if (iospd_rpt_has_lat(a->lat[1])) {
    elem_f(out, 3, "AverageWriteMilliseconds", "%.3f",
           iospd_rpt_mean_ms(a->lat[1]));
    elem_f(out, 3, "WriteLatencyStdev", "%.3f",
           iospd_rpt_stddev_ms(a->lat[1]));
  }
  if (iospd_rpt_has_lat(a->lat[2])) {
    elem_f(out, 3, "AverageTotalMilliseconds", "%.3f",
           iospd_rpt_mean_ms(a->lat[2]));
    elem_f(out, 3, "LatencyStdev", "%.3f", iospd_rpt_stddev_ms(a->lat[2]));
  }
  size_t np;
  const iospd_pct_t* pct = iospd_pct_list(&np);
  for (size_t b = 0; b < np; b++) {
    ind(out, 3);
    ap(out, "<Bucket>\n");
    elem_s(out, 4, "Percentile", pct[b].label);
    for (int k = 0; k < 3; k++)
      if (iospd_rpt_has_lat(a->lat[k]))
        elem_f(out, 4, cols[k], "%.3f",
               iospd_rpt_pct_ms(a->lat[k], pct[b].p));
    ind(out, 3);
    ap(out, "</Bucket>\n");
  }
  ind(out, 2);
  ap(out, "</Latency>\n");
}

static void bucket_lat(iospd_strbuf_t* out, const char* dir,
                       const iospd_bucket_t* b) {
  double mn = 0, mx = 0, avg = 0, sd = 0;
  if (b != NULL && b->count > 0) {
    double n = (double)b->count;
    mn = b->lat_min_us / 1000.0;
    mx = b->lat_max_us / 1000.0;
    avg = b->lat_sum_us / n / 1000.0;
    double var = (b->lat_sumsq_us - b->lat_sum_us * b->lat_sum_us / n) / n;
    sd = var > 0 ? sqrt(var) / 1000.0 : 0.0;
  }
  ap(out,
     " %sMinLatencyMilliseconds=\"%.3f\" %sMaxLatencyMilliseconds=\"%.3f\" "
     "%sAvgLatencyMilliseconds=\"%.3f\" %sLatencyStdDev=\"%.3f\"",
     dir, mn, dir, mx, dir, avg, dir, sd);
}

/* <Iops> for the read, write and total series, at level lv. */
static void iops_xml(iospd_strbuf_t* out, unsigned lv, iospd_buckets_sum_t* rd,
                     iospd_buckets_sum_t* wr, iospd_buckets_sum_t* tot,
                     uint32_t interval_ms) {
  ind(out, lv);
  ap(out, "<Iops>\n");
  if (rd->used > 0)
    elem_f(out, lv + 1, "ReadIopsStdDev", "%.3f",
           iospd_buckets_sum_iops_stddev(rd));
  if (wr->used > 0)
    elem_f(out, lv + 1, "WriteIopsStdDev", "%.3f",
           iospd_buckets_sum_iops_stddev(wr));
  if (tot->used > 0)
    elem_f(out, lv + 1, "IopsStdDev", "%.3f",
           iospd_buckets_sum_iops_stddev(tot));
  double secs = (double)interval_ms / 1000.0;
  uint32_t n = IOSPD_MAX(rd->used, wr->used);
  for (uint32_t i = 0; i < n; i++) {
    iospd_bucket_t r, w;
    iospd_buckets_sum_get(rd, i, &r);
    iospd_buckets_sum_get(wr, i, &w);
    ind(out, lv + 1);
    ap(out, "<Bucket SampleMillisecond=\"%llu\" Read=\"%.0f\" Write=\"%.0f\" "
            "Total=\"%.0f\"",
       (unsigned long long)interval_ms * (i + 1), (double)r.count / secs,
       (double)w.count / secs, (double)(r.count + w.count) / secs);
    bucket_lat(out, "Read", &r);
    bucket_lat(out, "Write", &w);
    ap(out, "/>\n");
  }
  ind(out, lv);
  ap(out, "</Iops>\n");
}

static void distribution_xml(iospd_strbuf_t* out,
                             const iospd_thread_target_result_t* tt) {
  ind(out, 4);
  ap(out, "<Distribution>\n");
  ind(out, 5);
  ap(out, "<Absolute>\n");
  uint64_t prev_end = 0;
  for (uint32_t i = 0; i < tt->dist_count; i++) {
    const iospd_eff_range_t* d = &tt->dist[i];
    if (i > 0 && d->start > prev_end) {
      ind(out, 6);
      ap(out, "<Range IO=\"0\">%llu</Range>\n",
         (unsigned long long)(d->start - prev_end));
    }
    ind(out, 6);
    ap(out, "<Range IO=\"%u\">%llu</Range>\n", d->io_pct,
       (unsigned long long)d->length);
    prev_end = d->start + d->length;
  }
  ind(out, 5);
  ap(out, "</Absolute>\n");
  ind(out, 4);
  ap(out, "</Distribution>\n");
}

static void target_xml(iospd_strbuf_t* out, const iospd_timespan_result_t* tr,
                       const iospd_thread_target_result_t* tt) {
  const iospd_target_stats_t* s = &tt->stats;
  const iospd_timespan_t* ts = tr->ts;
  ind(out, 3);
  ap(out, "<Target>\n");
  elem_path(out, 4, "Path", iospd_rpt_target_path(tr, tt));
  elem_u(out, 4, "BytesCount", s->bytes[0] + s->bytes[1]);
  elem_u(out, 4, "FileSize", tt->file_size);
  elem_u(out, 4, "IOCount", s->ios[0] + s->ios[1]);
  elem_u(out, 4, "ReadBytes", s->bytes[0]);
  elem_u(out, 4, "ReadCount", s->ios[0]);
  elem_u(out, 4, "WriteBytes", s->bytes[1]);
  elem_u(out, 4, "WriteCount", s->ios[1]);
  if (tt->dist_count > 0) distribution_xml(out, tt);
  if (ts->measure_latency) {
    /* DISKSPD 2.2 prints no target-level total latency (the real samples
     * show only the read and write pairs), so neither do we. */
    if (iospd_rpt_has_lat(s->lat[0])) {
      elem_f(out, 4, "AverageReadLatencyMilliseconds", "%.3f",
             iospd_rpt_mean_ms(s->lat[0]));
      elem_f(out, 4, "ReadLatencyStdev", "%.3f",
             iospd_rpt_stddev_ms(s->lat[0]));
    }
    if (iospd_rpt_has_lat(s->lat[1])) {
      elem_f(out, 4, "AverageWriteLatencyMilliseconds", "%.3f",
             iospd_rpt_mean_ms(s->lat[1]));
      elem_f(out, 4, "WriteLatencyStdev", "%.3f",
             iospd_rpt_stddev_ms(s->lat[1]));
    }
  }
  if (ts->calc_iops_stddev) {
    iospd_buckets_sum_t sums[3]; /* read, write, total */
    if (!iospd_rpt_iops_sums_init(sums, s)) out->failed = true;
    iops_xml(out, 4, &sums[0], &sums[1], &sums[2], ts->io_bucket_ms);
    iospd_rpt_iops_sums_destroy(sums);
  }
  ind(out, 3);
  ap(out, "</Target>\n");
}

static void wait_xml(iospd_strbuf_t* out, const iospd_wait_stats_t* w) {
  ind(out, 3);
  ap(out, "<WaitStatistics>\n");
  elem_u(out, 4, "CompletionWait", w->completion_wait);
  elem_u(out, 4, "ThrottleWait", w->throttle_wait);
  elem_u(out, 4, "ThrottleSleep", w->throttle_sleep);
  elem_u(out, 4, "Lookaside", w->lookaside);
  ind(out, 4);
  ap(out, "<LookasideCompletion>");
  for (int i = 0; i < 8; i++)
    ap(out, "%s%llu", i ? " " : "", (unsigned long long)w->lookaside_hist[i]);
  ap(out, "</LookasideCompletion>\n");
  ind(out, 3);
  ap(out, "</WaitStatistics>\n");
}

/* iospd: misleading set-ups seen before or after the run
 * (iospd/warnings.h); absent when there were none. */
static void warnings_xml(iospd_strbuf_t* out,
                         const iospd_timespan_result_t* tr) {
  if (tr->warning_count == 0) return;
  ind(out, 2);
  ap(out, "<Warnings>\n");
  for (uint32_t i = 0; i < tr->warning_count; i++) {
    const iospd_warning_t* w = &tr->warnings[i];
    ind(out, 3);
    ap(out, "<Warning>\n");
    elem_s(out, 4, "Kind", iospd_warn_kind_name(w->kind));
    if (w->target >= 0) elem_u(out, 4, "TargetIndex", (uint64_t)w->target);
    if (w->thread >= 0) elem_u(out, 4, "Thread", (uint64_t)w->thread);
    elem_s(out, 4, "Message", w->text);
    ind(out, 3);
    ap(out, "</Warning>\n");
  }
  ind(out, 2);
  ap(out, "</Warnings>\n");
}

static void timespan_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                         const iospd_timespan_result_t* tr) {
  const iospd_timespan_t* ts = tr->ts;
  ind(out, 1);
  ap(out, "<TimeSpan>\n");
  /* A failed timespan: DISKSPD's <Error> element, holding the real error
   * rather than its "interrupted" sentence; what was measured before the
   * failure follows. */
  if (tr->error[0] != '\0') elem_s(out, 2, "Error", tr->error);
  if (tr->interrupted_before_measure || tr->seconds < 1e-7 || ts == NULL) {
    if (tr->error[0] == '\0') elem_s(out, 2, "Error", kInterrupted);
    warnings_xml(out, tr);
    ind(out, 1);
    ap(out, "</TimeSpan>\n");
    return;
  }
  elem_f(out, 2, "TestTimeSeconds", "%.2f", tr->seconds);
  elem_u(out, 2, "ThreadCount", tr->thread_count);
  elem_u(out, 2, "RequestCount", ts->request_count);
  elem_u(out, 2, "ProcCount", r->topo.cpu_count);
  if (iospd_rpt_level(r) >= IOSPD_DISKSPD_23) effective_xml(out, r, tr);
  cpu_xml(out, r, tr);

  rpt_agg_t scratch;
  rpt_agg_t* all = iospd_timespan_total(tr, &scratch);
  if (all->failed) out->failed = true;
  if (ts->measure_latency) latency_xml(out, all);
  if (ts->calc_iops_stddev)
    iops_xml(out, 2, &all->iops[0], &all->iops[1], &all->iops[2],
             ts->io_bucket_ms);
  iospd_rpt_agg_destroy(&scratch);

  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    ind(out, 2);
    ap(out, "<Thread>\n");
    elem_u(out, 3, "Id", th->id);
    if (th->engine != NULL) {
      /* iospd: the engine and the I/Os it really kept in flight. */
      elem_s(out, 3, "IoEngine", th->engine);
      elem_u(out, 3, "IoEngineDepth", th->depth_kept);
    }
    for (uint32_t i = 0; i < th->target_count; i++)
      target_xml(out, tr, &th->targets[i]);
    if (r->profile != NULL && r->profile->verbose_stats &&
        !iospd_rpt_waitstats_xml(out, r, &th->wait))
      wait_xml(out, &th->wait);
    ind(out, 2);
    ap(out, "</Thread>\n");
  }
  iospd_rpt_verify_xml(out, r, tr);
  iospd_rpt_steady_xml(out, tr);
  warnings_xml(out, tr);
  if (r->profile != NULL && r->profile->verbose_stats)
    iospd_rpt_cost_xml(out, tr);
  ind(out, 1);
  ap(out, "</TimeSpan>\n");
}

void iospd_report_xml(iospd_strbuf_t* out, const iospd_results_t* r) {
  ap(out, "<Results>\n");
  system_xml(out, r, 1, iospd_rpt_level(r) >= IOSPD_DISKSPD_23);
  if (r->profile != NULL) iospd_xml_profile_write(out, r->profile, 1);
  for (uint32_t i = 0; i < r->timespan_count; i++)
    timespan_xml(out, r, &r->timespans[i]);
  iospd_report_tree_xml(out, r);
  ap(out, "</Results>");
}

void iospd_report_system_xml(iospd_strbuf_t* out, const iospd_results_t* r) {
  system_xml(out, r, 0, true);
}
