/* SPDX-License-Identifier: MIT */
/* Two curves overlaid (iospd --report a-curve.json b-curve.json,
 * iospd_html_curve_compare): both hockey sticks, IOPS and p99 against the
 * axis, the point-by-point table of iospd --compare (IOPS and p99 of B
 * over A) and both verdicts. Values from the documents; only the ratios
 * are computed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_sections.h"
#include "iospd/alloc.h"
#include "iospd/compare.h"

#define G iospd_json_get
#define NUM iospd_json_num
#define STR iospd_json_str

enum { MAXV = 256 };

/* The y statistic of a curve: its limit's, else p99. */
static const char* stat_of(const cJSON* d) {
  const cJSON* l = G(d, "latency_limit");
  const char* s = cJSON_IsObject(l) ? STR(l, "stat") : NULL;
  return s != NULL ? s : "p99";
}

static double ystat(const cJSON* p, const char* stat) {
  double ls = NUM(p, "limit_stat_us");
  return (isfinite(ls) ? ls : NUM(G(p, "latency_us"), stat)) / 1000.0;
}

static void series(html_series_t* s, const char* label, int color, int dash,
                   size_t n, double* x, double* y) {
  memset(s, 0, sizeof *s);
  snprintf(s->label, sizeof s->label, "%s", label);
  s->color = color;
  s->dash = dash;
  s->bold = true;
  s->n = n;
  s->x = x;
  s->y = y;
  s->markers = true;
}

/* The curve points of d: x = IOPS or the axis value, y = the statistic,
 * the rate (IOPS, MiB/s for -b) or p99. */
enum { HS, RATE, P99 };
static size_t fill(const cJSON* d, int which, double* x, double* y) {
  size_t m = 0;
  const char* sw = STR(G(d, "axis"), "switch");
  bool b = sw != NULL && sw[0] == 'b';
  const cJSON* p;
  cJSON_ArrayForEach(p, G(d, "points")) {
    const char* ph = STR(p, "phase");
    if ((ph != NULL && strcmp(ph, "curve") != 0) || m >= MAXV) continue;
    double ax = NUM(p, "axis_value") / (b ? 1024.0 : 1.0);
    x[m] = which == HS ? NUM(p, "iops") : ax;
    y[m] = which == HS    ? ystat(p, stat_of(d))
           : which == P99 ? NUM(G(p, "latency_us"), "p99") / 1000.0
           : b            ? NUM(p, "mib_per_s")
                          : NUM(p, "iops");
    m++;
  }
  return m;
}

static int charts(iospd_strbuf_t* out, const cJSON* const* d) {
  double* buf = iospd_calloc(4 * MAXV, sizeof *buf);
  if (buf == NULL) return IOSPD_ENOMEM;
  const char* sw = STR(G(d[0], "axis"), "switch");
  bool b = sw != NULL && sw[0] == 'b';
  const char* xl = sw == NULL || sw[0] == 'o'
                       ? "outstanding I/Os per thread (-o)"
                   : sw[0] == 't' ? "threads per target (-t)"
                                  : "block size (KiB, -b)";
  html_series_t s[2];
  html_hline_t hl[2];
  html_mark_t mk[2];
  char lab[2][64], klab[2][48];
  size_t nh = 0, nm = 0;
  for (int k = 0; k < 2; k++) {
    const cJSON* lim = G(d[k], "latency_limit");
    double v = cJSON_IsObject(lim) ? NUM(lim, "limit_us") / 1000.0 : NAN;
    if (isfinite(v) && !(nh == 1 && hl[0].y == v)) {
      char num[32];
      iospd_html_num(num, sizeof num, v);
      snprintf(lab[k], sizeof lab[k], "limit of %c: %s <= %s ms", 'A' + k,
               stat_of(d[k]), num);
      hl[nh++] =
          (html_hline_t){k ? "limit-B" : "limit-A", lab[k], v, k ? 5 : 1, 1};
    }
    const cJSON* knee = G(d[k], "knee");
    if (cJSON_IsObject(knee)) {
      const cJSON* p = iospd_compare_curve_point(d[k], NUM(knee, "axis_value"));
      if (p != NULL) {
        snprintf(klab[k], sizeof klab[k], "knee of %c", 'A' + k);
        mk[nm++] = (html_mark_t){k ? "knee-B" : "knee-A", klab[k],
                                 NUM(p, "iops"), ystat(p, stat_of(d[k])), k};
      }
    }
  }
  for (int k = 0; k < 2; k++) {
    size_t m = fill(d[k], HS, buf + 2 * k * MAXV, buf + (2 * k + 1) * MAXV);
    series(&s[k], k ? "B" : "A", k, k, m, buf + 2 * k * MAXV,
           buf + (2 * k + 1) * MAXV);
  }
  char yl[64];
  snprintf(yl, sizeof yl, "%s latency (ms)", stat_of(d[0]));
  html_chart_t hs = {.id = "curve-latency",
                     .title = "Latency against IOPS: A and B",
                     .x_label = "I/O per second",
                     .y_label = yl,
                     .series = s,
                     .series_count = 2,
                     .hlines = hl,
                     .hline_count = nh,
                     .marks = mk,
                     .mark_count = nm,
                     .plot_attrs = true};
  iospd_html_line_chart(out, &hs);
  for (int w = RATE; w <= P99; w++) {
    for (int k = 0; k < 2; k++) {
      size_t m = fill(d[k], w, buf + 2 * k * MAXV, buf + (2 * k + 1) * MAXV);
      series(&s[k], k ? "B" : "A", k, k, m, buf + 2 * k * MAXV,
             buf + (2 * k + 1) * MAXV);
    }
    html_chart_t c = {.id = w == RATE ? "curve-throughput" : "curve-p99",
                      .title = w == RATE ? "Throughput against the axis: A "
                                           "and B"
                                         : "p99 latency against the axis: A "
                                           "and B",
                      .x_label = xl,
                      .y_label = w == P99 ? "latency (ms)"
                                 : b      ? "MiB/s"
                                          : "I/O per second",
                      .x_axis = HTML_AXIS_LOG,
                      .series = s,
                      .series_count = 2,
                      .hlines = w == P99 ? hl : NULL,
                      .hline_count = w == P99 ? nh : 0,
                      .plot_attrs = true};
    iospd_html_line_chart(out, &c);
  }
  iospd_free(buf);
  return 0;
}

static double ratio(double b, double a) {
  return isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

static void table(iospd_strbuf_t* out, const cJSON* const* d) {
  iospd_strbuf_append(out,
                      "<h2>Point by point (B against A)</h2>\n<table "
                      "data-table=\"curve-compare\"><tr><th>axis value</th>"
                      "<th>IOPS A</th><th>IOPS B</th><th>B/A</th><th>p99 A "
                      "(ms)</th><th>p99 B (ms)</th><th>B/A</th></tr>\n");
  double v[MAXV];
  size_t n = iospd_compare_curve_values(d[0], d[1], v, MAXV);
  char attrs[80];
  for (size_t i = 0; i < n; i++) {
    const cJSON* pa = iospd_compare_curve_point(d[0], v[i]);
    const cJSON* pb = iospd_compare_curve_point(d[1], v[i]);
    double ia = NUM(pa, "iops"), ib = NUM(pb, "iops");
    double la = NUM(G(pa, "latency_us"), "p99") / 1000.0;
    double lb = NUM(G(pb, "latency_us"), "p99") / 1000.0;
    iospd_strbuf_append(out, "<tr>");
    iospd_html_td_num(out, v[i], 0, NULL);
    iospd_html_td_num(out, ia, HTML_DEC_IOPS, NULL);
    iospd_html_td_num(out, ib, HTML_DEC_IOPS, NULL);
    snprintf(attrs, sizeof attrs, " data-axis=\"%.0f\" data-ratio=\"iops\"",
             v[i]);
    iospd_html_td_num(out, ratio(ib, ia), HTML_DEC_RATIO, attrs);
    iospd_html_td_num(out, la, HTML_DEC_MS, NULL);
    iospd_html_td_num(out, lb, HTML_DEC_MS, NULL);
    snprintf(attrs, sizeof attrs, " data-axis=\"%.0f\" data-ratio=\"p99\"",
             v[i]);
    iospd_html_td_num(out, ratio(lb, la), HTML_DEC_RATIO, attrs);
    iospd_strbuf_append(out, "</tr>\n");
  }
  iospd_strbuf_append(out, "</table>\n");
}

int iospd_html_curve_compare(const cJSON* a, const cJSON* b, const char* name_a,
                             const char* name_b, iospd_strbuf_t* out,
                             iospd_err_t* err) {
  int rc = iospd_compare_curve_check(a, name_a, err);
  if (rc == 0) rc = iospd_compare_curve_check(b, name_b, err);
  if (rc < 0) return rc;
  const cJSON* d[2] = {a, b};
  const char* names[2] = {name_a, name_b};
  iospd_html_page_begin(out, "iospd curves compared");
  iospd_strbuf_append(out,
                      "<h1>iospd curves compared</h1>\n<table "
                      "data-table=\"runs\"><tr><th>run</th><th>file</th>"
                      "<th>computer</th><th>command line</th>"
                      "<th>stopped</th></tr>\n");
  for (int k = 0; k < 2; k++) {
    iospd_strbuf_appendf(out, "<tr><td>%c</td>", 'A' + k);
    iospd_html_td_text(out, names[k]);
    iospd_html_td_text(out, STR(G(d[k], "system"), "computer_name"));
    iospd_strbuf_append(out, "<td><code>");
    iospd_html_text(out,
                    STR(d[k], "command_line") ? STR(d[k], "command_line") : "");
    iospd_strbuf_append(out, "</code></td>");
    iospd_html_td_text(out, STR(d[k], "stopped"));
    iospd_strbuf_append(out, "</tr>\n");
  }
  iospd_strbuf_append(out,
                      "</table>\n<section id=\"charts\"><h2>Charts"
                      "</h2>\n");
  rc = charts(out, d);
  iospd_strbuf_append(out, "</section>\n");
  table(out, d);
  for (int k = 0; k < 2; k++) {
    iospd_strbuf_appendf(out,
                         "<h2>Verdict of %c%s</h2>\n<ul data-list=\""
                         "verdict-%c\">\n",
                         'A' + k,
                         cJSON_IsTrue(G(d[k], "interrupted"))
                             ? " (the curve was cut short)"
                             : "",
                         'A' + k);
    const cJSON* s;
    cJSON_ArrayForEach(s, G(d[k], "verdict")) {
      if (!cJSON_IsString(s)) continue;
      iospd_strbuf_append(out, "<li>");
      iospd_html_text(out, s->valuestring);
      iospd_strbuf_append(out, "</li>\n");
    }
    iospd_strbuf_append(out, "</ul>\n");
  }
  iospd_html_page_end(out);
  if (rc == 0 && out->failed) rc = IOSPD_ENOMEM;
  if (rc < 0) iospd_err_set(err, rc, "out of memory (HTML curve comparison)");
  return rc;
}
