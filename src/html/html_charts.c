/* SPDX-License-Identifier: MIT */
/* The report's charts, built from the runs (html_internal.h) and drawn by
 * html_chart.c. One run: per target and total, read and write. Several
 * runs: one line per run (and direction) overlaid. A chart with nothing to
 * draw (no time series, no -L) is a note saying why, never empty axes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_sections.h"
#include "iospd/alloc.h"

static const char* const k_dir_name[3] = {"read", "write", "total"};

void iospd_html_note(iospd_strbuf_t* out, const char* chart, const char* text) {
  iospd_strbuf_append(out, "<p class=\"note\" data-note=\"");
  iospd_html_text(out, chart);
  iospd_strbuf_append(out, "\">");
  iospd_html_text(out, text);
  iospd_strbuf_append(out, "</p>\n");
}

static html_series_t* add(html_series_t* s, size_t* n, const char* label,
                          int color, int dash, bool bold, size_t points,
                          double* x, double* y) {
  html_series_t* e = &s[(*n)++];
  memset(e, 0, sizeof *e);
  snprintf(e->label, sizeof e->label, "%s", label);
  e->color = color;
  e->dash = dash;
  e->bold = bold;
  e->n = points;
  e->x = x;
  e->y = y;
  return e;
}

static size_t spans_of(const html_ts_t* ts, html_span_t* sp) {
  size_t n = 0;
  if (ts->has_warm) sp[n++] = (html_span_t){ts->warm0, ts->warm1, "warm-up"};
  if (ts->has_cool) sp[n++] = (html_span_t){ts->cool0, ts->cool1, "cool-down"};
  return n;
}

static const char* run_letter(size_t i, char* buf) {
  buf[0] = (char)('A' + (i % 26));
  buf[1] = '\0';
  return buf;
}

/* IOPS or MiB/s over time. */
static void rate_chart(iospd_strbuf_t* out, const html_run_t* runs, size_t nr,
                       bool mib) {
  const char* id = mib ? "mibs-time" : "iops-time";
  const char* title = mib ? "Throughput over time" : "IOPS over time";
  const char* yl = mib ? "MiB/s" : "I/O per second";
  size_t cap = 0;
  for (size_t r = 0; r < nr; r++) cap += 2 * ((size_t)runs[r].ts.targets + 1) + 1;
  html_series_t* s = iospd_calloc(cap ? cap : 1, sizeof *s);
  if (s == NULL) return;
  size_t n = 0;
  char label[96], letter[2];
  for (size_t r = 0; r < nr; r++) {
    const html_ts_t* ts = &runs[r].ts;
    if (ts->n == 0) continue;
    double** v = mib ? ts->mibs : ts->iops;
    if (nr > 1) { /* one line per run: the total of read and write */
      snprintf(label, sizeof label, "run %s total", run_letter(r, letter));
      add(s, &n, label, (int)r, 0, true, ts->n, ts->x, v[ts->targets] + 2 * ts->n);
      continue;
    }
    /* One target: its lines are the total's, drawn once (as the total). */
    for (uint32_t t = ts->targets == 1 ? 1 : 0; t <= ts->targets; t++)
      for (int d = 0; d < 2; d++) {
        if (!ts->has_dir[d]) continue;
        if (t == ts->targets)
          snprintf(label, sizeof label, "total %s", k_dir_name[d]);
        else
          snprintf(label, sizeof label, "target %u %s", t, k_dir_name[d]);
        add(s, &n, label, t == ts->targets ? 7 : (int)(t % 7), d, t == ts->targets,
            ts->n, ts->x, v[t] + (size_t)d * ts->n);
      }
  }
  html_span_t sp[2];
  html_chart_t c = {id, title, "time from the start of measuring (s)", yl,
                    HTML_AXIS_LINEAR, HTML_AXIS_LINEAR, s, n, sp,
                    nr == 1 ? spans_of(&runs[0].ts, sp) : 0, NULL, 0, NULL,
                    0, NULL, 0, false};
  iospd_html_line_chart(out, &c);
  iospd_free(s);
}

static void latency_time_chart(iospd_strbuf_t* out, const html_run_t* runs,
                               size_t nr) {
  static const char* const k_names[3] = {"p50", "p99", "p99.9"};
  html_series_t s[3 * 26 + 6];
  size_t n = 0;
  char label[96], letter[2];
  for (size_t r = 0; r < nr && r < 26; r++) {
    const html_ts_t* ts = &runs[r].ts;
    if (ts->n == 0 || !ts->has_lat) continue;
    if (nr > 1) {
      for (int k = 0; k < 3; k++) {
        snprintf(label, sizeof label, "run %s %s", run_letter(r, letter),
                 k_names[k]);
        add(s, &n, label, (int)r, k == 0 ? 2 : k == 1 ? 0 : 1, k == 1, ts->n,
            ts->x, ts->lat[2][k]);
      }
      continue;
    }
    for (int d = 0; d < 2; d++) {
      if (!ts->has_dir[d]) continue;
      for (int k = 0; k < 3; k++) {
        snprintf(label, sizeof label, "%s %s", k_dir_name[d], k_names[k]);
        add(s, &n, label, d * 3 + k, d, false, ts->n, ts->x, ts->lat[d][k]);
      }
    }
  }
  html_span_t sp[2];
  html_chart_t c = {"latency-time", "Latency over time (per interval)",
                    "time from the start of measuring (s)", "latency (ms)",
                    HTML_AXIS_LINEAR, HTML_AXIS_LOG, s, n, sp,
                    nr == 1 ? spans_of(&runs[0].ts, sp) : 0, NULL, 0, NULL,
                    0, NULL, 0, false};
  iospd_html_line_chart(out, &c);
}

static bool run_has_lat(const html_run_t* r) {
  const cJSON* ts = cJSON_GetArrayItem(iospd_json_get(r->doc, "timespans"), 0);
  const cJSON* tot = iospd_json_get(iospd_json_get(ts, "total"), "total");
  return cJSON_IsObject(iospd_json_get(tot, "latency"));
}

/* The percentile curve of timespan 0's read and write latency. */
static void percentile_chart(iospd_strbuf_t* out, const html_run_t* runs,
                             size_t nr) {
  enum { MAXP = 160 };
  size_t cap = nr * 2;
  html_series_t* s = iospd_calloc(cap, sizeof *s);
  double* xy = iospd_calloc(cap * 2 * MAXP, sizeof *xy);
  if (s == NULL || xy == NULL) {
    iospd_free(s);
    iospd_free(xy);
    return;
  }
  size_t n = 0;
  char label[96], letter[2];
  for (size_t r = 0; r < nr; r++) {
    const cJSON* ts =
        cJSON_GetArrayItem(iospd_json_get(runs[r].doc, "timespans"), 0);
    for (int d = 0; d < 2; d++) {
      const cJSON* lat = iospd_json_get(
          iospd_json_get(iospd_json_get(ts, "total"), k_dir_name[d]), "latency");
      if (!cJSON_IsObject(lat)) continue;
      double* x = xy + (n * 2) * MAXP;
      double* y = x + MAXP;
      size_t m = 0;
      const cJSON* e;
      cJSON_ArrayForEach(e, iospd_json_get(lat, "percentiles")) {
        const char* l = iospd_json_str(e, "percentile");
        double p = l != NULL ? strtod(l, NULL) : NAN;
        double ms = iospd_json_num(e, "ms");
        if (!(p >= 50 && p <= 99.99995) || !(ms > 0) || m >= MAXP) continue;
        x[m] = p;
        y[m] = ms;
        m++;
      }
      if (m == 0) continue;
      if (nr > 1)
        snprintf(label, sizeof label, "run %s %s", run_letter(r, letter),
                 k_dir_name[d]);
      else
        snprintf(label, sizeof label, "%s", k_dir_name[d]);
      add(s, &n, label, nr > 1 ? (int)r : d, d, false, m, x, y);
    }
  }
  html_chart_t c = {"percentiles", "Latency percentiles",
                    "percentile (nines scale)", "latency (ms)",
                    HTML_AXIS_NINES, HTML_AXIS_LOG, s, n, NULL, 0, NULL, 0,
                    NULL, 0, NULL, 0, false};
  iospd_html_line_chart(out, &c);
  iospd_free(xy);
  iospd_free(s);
}

/* Log-spaced buckets: 1, 2, 5 x 10^k ns. */
static double bin_lo(int i) {
  double v = 1;
  for (int k = 0; k < i / 3; k++) v *= 10;
  return v * (i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 5);
}

static void bin_label(char* buf, size_t cap, double ns) {
  char num[32];
  if (ns >= 1e6) {
    iospd_html_num(num, sizeof num, ns / 1e6);
    snprintf(buf, cap, "%s ms", num);
  } else if (ns >= 1e3) {
    iospd_html_num(num, sizeof num, ns / 1e3);
    snprintf(buf, cap, "%s \xc2\xb5s", num); /* µs */
  } else {
    iospd_html_num(num, sizeof num, ns);
    snprintf(buf, cap, "%s ns", num);
  }
}

static void histogram_chart(iospd_strbuf_t* out, const html_run_t* run) {
  enum { NB = 3 * 13 }; /* 1 ns .. 10^13 ns */
  double cnt[2][NB];
  memset(cnt, 0, sizeof cnt);
  const cJSON* ts = cJSON_GetArrayItem(iospd_json_get(run->doc, "timespans"), 0);
  int first = NB, last = -1;
  for (int d = 0; d < 2; d++) {
    const cJSON* h = iospd_json_get(
        iospd_json_get(iospd_json_get(iospd_json_get(ts, "total"), k_dir_name[d]),
                       "latency"),
        "histogram");
    const cJSON* b;
    cJSON_ArrayForEach(b, iospd_json_get(h, "buckets")) {
      double lo = cJSON_IsNumber(cJSON_GetArrayItem(b, 0))
                      ? cJSON_GetArrayItem(b, 0)->valuedouble : NAN;
      double c = cJSON_IsNumber(cJSON_GetArrayItem(b, 2))
                     ? cJSON_GetArrayItem(b, 2)->valuedouble : 0;
      if (!(lo >= 0) || !(c > 0)) continue;
      int i = 0;
      while (i + 1 < NB && bin_lo(i + 1) <= lo) i++;
      cnt[d][i] += c;
      if (i < first) first = i;
      if (i > last) last = i;
    }
  }
  if (last < 0) return;
  html_bar_t bars[NB];
  size_t nb = 0;
  for (int i = first; i <= last; i++) {
    bin_label(bars[nb].label, sizeof bars[nb].label, bin_lo(i));
    bars[nb].v[0] = cnt[0][i];
    bars[nb].v[1] = cnt[1][i];
    nb++;
  }
  html_bars_t b = {"histogram",
                   "Latency histogram (buckets from 1, 2, 5 x 10^k; I/Os on "
                   "a log scale)",
                   "latency from (log buckets)", "I/Os (log scale)",
                   {"read", "write"}, bars, nb, true, true};
  iospd_html_bar_chart(out, &b);
}

/* Population coefficient of variation, in %; NaN for < 2 values. */
static double cv_pct(const html_bar_t* b, size_t n) {
  if (n < 2) return NAN;
  double sum = 0, sq = 0;
  for (size_t i = 0; i < n; i++) sum += b[i].v[0];
  double mean = sum / (double)n;
  for (size_t i = 0; i < n; i++) sq += (b[i].v[0] - mean) * (b[i].v[0] - mean);
  return mean > 0 ? sqrt(sq / (double)n) / mean * 100 : NAN;
}

static void balance_chart(iospd_strbuf_t* out, const html_run_t* run,
                          bool threads) {
  const cJSON* ts = cJSON_GetArrayItem(iospd_json_get(run->doc, "timespans"), 0);
  double secs = iospd_json_num(ts, "test_time_seconds");
  const cJSON* list = iospd_json_get(ts, threads ? "threads" : "targets");
  size_t n = (size_t)cJSON_GetArraySize(list);
  if (n == 0) return;
  html_bar_t* bars = iospd_calloc(n, sizeof *bars);
  if (bars == NULL) return;
  size_t i = 0;
  const cJSON* e;
  cJSON_ArrayForEach(e, list) {
    double v = 0;
    if (threads) {
      const cJSON* tt;
      cJSON_ArrayForEach(tt, iospd_json_get(e, "targets")) {
        double ios = iospd_json_num(tt, "ios");
        if (ios > 0) v += ios;
      }
      v = secs > 0 ? v / secs : 0;
      snprintf(bars[i].label, sizeof bars[i].label, "%.0f",
               iospd_json_num(e, "id"));
    } else {
      v = iospd_json_num(
          iospd_json_get(iospd_json_get(e, "directions"), "total"), "iops");
      snprintf(bars[i].label, sizeof bars[i].label, "%.0f",
               iospd_json_num(e, "target_index"));
    }
    bars[i].v[0] = isfinite(v) ? v : 0;
    i++;
  }
  double cv = cv_pct(bars, n);
  char title[128], num[32];
  iospd_html_num(num, sizeof num, cv);
  snprintf(title, sizeof title, "IOPS per %s (coefficient of variation %s%s)",
           threads ? "thread" : "target", num, isfinite(cv) ? " %" : "");
  html_bars_t b = {threads ? "balance-threads" : "balance-targets", title,
                   threads ? "thread" : "target", "I/O per second",
                   {"IOPS", NULL}, bars, n, false, false};
  iospd_html_bar_chart(out, &b);
  iospd_strbuf_appendf(out, "<p class=\"cv\" data-cv=\"%s\">coefficient of "
                       "variation (standard deviation / mean) of the IOPS per "
                       "%s: %s%s</p>\n",
                       threads ? "threads" : "targets",
                       threads ? "thread" : "target", num,
                       isfinite(cv) ? " %" : " (fewer than two)");
  iospd_free(bars);
}

static void cpu_chart(iospd_strbuf_t* out, const html_run_t* run) {
  const cJSON* ts = cJSON_GetArrayItem(iospd_json_get(run->doc, "timespans"), 0);
  const cJSON* cpus = iospd_json_get(iospd_json_get(ts, "cpu"), "cpus");
  size_t n = (size_t)cJSON_GetArraySize(cpus);
  if (n == 0) {
    iospd_html_note(out, "cpu", "No per-CPU figures in these results.");
    return;
  }
  html_bar_t* bars = iospd_calloc(n, sizeof *bars);
  if (bars == NULL) return;
  size_t i = 0;
  const cJSON* c;
  cJSON_ArrayForEach(c, cpus) {
    snprintf(bars[i].label, sizeof bars[i].label, "%.0f",
             iospd_json_num(c, "id"));
    double u = iospd_json_num(c, "user_percent");
    double k = iospd_json_num(c, "kernel_percent");
    bars[i].v[0] = isfinite(u) ? u : 0;
    bars[i].v[1] = isfinite(k) ? k : 0;
    i++;
  }
  html_bars_t b = {"cpu", "CPU use per core", "CPU", "% of the core",
                   {"user", "kernel"}, bars, n, false, false};
  iospd_html_bar_chart(out, &b);
  iospd_free(bars);
}

void iospd_html_charts(iospd_strbuf_t* out, const html_run_t* runs, size_t nr) {
  bool any_ts = false, any_lat_ts = false, any_lat = false;
  for (size_t r = 0; r < nr; r++) {
    any_ts |= runs[r].ts.n > 0;
    any_lat_ts |= runs[r].ts.n > 0 && runs[r].ts.has_lat;
    any_lat |= run_has_lat(&runs[r]);
  }
  iospd_strbuf_append(out, "<section id=\"over-time\"><h2>Over time</h2>\n");
  if (any_ts) {
    rate_chart(out, runs, nr, false);
    rate_chart(out, runs, nr, true);
    if (any_lat_ts)
      latency_time_chart(out, runs, nr);
    else
      iospd_html_note(out, "latency-time",
                      "Latency over time: not measured (the run had no -L).");
  } else {
    iospd_html_note(out, "iops-time",
                    "No time series in these results: run with "
                    "--output=html:FILE, or give the run's --timeseries .jsonl "
                    "after its JSON file to iospd --report.");
  }
  iospd_strbuf_append(out, "</section>\n<section id=\"latency\"><h2>Latency"
                           "</h2>\n");
  if (any_lat) {
    percentile_chart(out, runs, nr);
    if (nr == 1) histogram_chart(out, &runs[0]);
  } else {
    iospd_html_note(out, "percentiles",
                    "Latency percentiles and histogram: not measured (the run "
                    "had no -L).");
  }
  iospd_strbuf_append(out, "</section>\n");
  if (nr == 1) {
    iospd_strbuf_append(out, "<section id=\"balance\"><h2>Balance</h2>\n");
    balance_chart(out, &runs[0], true);
    balance_chart(out, &runs[0], false);
    iospd_strbuf_append(out, "</section>\n<section id=\"cpu-use\"><h2>CPU"
                             "</h2>\n");
    cpu_chart(out, &runs[0]);
    iospd_strbuf_append(out, "</section>\n");
  }
}
