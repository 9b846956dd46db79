/* SPDX-License-Identifier: MIT */
/* The curve page (iospd/html.h, iospd_html_curve): a --curve document
 * (docs/curve.md, schema/iospd-curve.schema.json) drawn with the report's
 * charts. Everything shown is read from the document: the knee, the answer,
 * the cap and the verdict are the producer's, never recomputed here.
 * Latencies are shown in ms, as everywhere in the HTML report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_sections.h"
#include "iospd/alloc.h"

#define G iospd_json_get
#define NUM iospd_json_num
#define STR iospd_json_str

typedef struct cpt_s {
  const cJSON* p;
  double axis, iops, mibs, y, p99;
  const char* phase;
} cpt_t;

typedef struct curve_s {
  const cJSON* doc;
  const cJSON* limit; /* NULL: no latency limit */
  char stat[24];      /* the y statistic: the limit's, else p99 */
  double limit_ms;
  char axis; /* 'o', 't' or 'b' */
  cpt_t* pts;
  size_t n;
} curve_t;

static int bad(iospd_err_t* err, const char* what) {
  return iospd_html_doc_bad(err, "curve", what);
}

static int check(const cJSON* d, iospd_err_t* err) {
  int rc = iospd_html_doc_check(d, "iospd-curve", "curve", "--curve", err);
  if (rc < 0) return rc;
  if (!cJSON_IsArray(G(d, "points")))
    return bad(err, "no \"points\" array (a damaged or hand-edited file?)");
  if (!cJSON_IsObject(G(d, "axis")))
    return bad(err, "no \"axis\" object (a damaged or hand-edited file?)");
  return 0;
}

/* The latency statistic `stat` ("p99", "mean", "p99.9") of a point, ms. */
static double lat_ms(const cJSON* p, const char* stat) {
  return NUM(G(p, "latency_us"), stat) / 1000.0;
}

static int load(curve_t* c, const cJSON* d, iospd_err_t* err) {
  memset(c, 0, sizeof *c);
  c->doc = d;
  const char* sw = STR(G(d, "axis"), "switch");
  c->axis = sw != NULL ? sw[0] : 'o';
  const cJSON* lim = G(d, "latency_limit");
  c->limit = cJSON_IsObject(lim) ? lim : NULL;
  const char* st = c->limit != NULL ? STR(c->limit, "stat") : NULL;
  snprintf(c->stat, sizeof c->stat, "%s", st != NULL ? st : "p99");
  c->limit_ms = c->limit != NULL ? NUM(c->limit, "limit_us") / 1000.0 : NAN;
  size_t n = (size_t)cJSON_GetArraySize(G(d, "points"));
  c->pts = iospd_calloc(n ? n : 1, sizeof *c->pts);
  if (c->pts == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  const cJSON* p;
  cJSON_ArrayForEach(p, G(d, "points")) {
    if (!cJSON_IsObject(p)) continue;
    cpt_t* e = &c->pts[c->n++];
    e->p = p;
    e->axis = NUM(p, "axis_value");
    e->iops = NUM(p, "iops");
    e->mibs = NUM(p, "mib_per_s");
    e->p99 = lat_ms(p, "p99");
    /* The bound's statistic as the producer measured it, else the same
     * statistic from the point's latencies. */
    double ls = NUM(p, "limit_stat_us");
    e->y = isfinite(ls) ? ls / 1000.0 : lat_ms(p, c->stat);
    const char* ph = STR(p, "phase");
    e->phase = ph != NULL ? ph : "curve";
  }
  return 0;
}

static const cpt_t* point_n(const curve_t* c, double n) {
  for (size_t i = 0; i < c->n; i++)
    if (NUM(c->pts[i].p, "n") == n) return &c->pts[i];
  return NULL;
}

/* What the axis is called in a chart and the table ("outstanding I/Os per
 * thread"), and the value shown (KiB for -b). */
static const char* axis_label(const curve_t* c) {
  switch (c->axis) {
    case 't':
      return "threads per target (-t)";
    case 'b':
      return "block size (KiB, -b)";
    default:
      return "outstanding I/Os per thread (-o)";
  }
}

static double axis_shown(const curve_t* c, double v) {
  return c->axis == 'b' ? v / 1024.0 : v;
}

static const char* stopped_text(const char* s) {
  static const struct {
    const char* word;
    const char* text;
  } k[] = {{"plateau", "throughput stopped growing (a plateau)"},
           {"limit_broken", "the latency limit was broken"},
           {"end_of_axis", "the end of the axis was reached"},
           {"interrupted", "interrupted (Ctrl-C): the points done are kept"},
           {"failed", "a point failed"}};
  for (size_t i = 0; s != NULL && i < sizeof k / sizeof k[0]; i++)
    if (strcmp(s, k[i].word) == 0) return k[i].text;
  return s != NULL ? s : "-";
}

static void header(iospd_strbuf_t* out, const curve_t* c) {
  const cJSON* d = c->doc;
  const cJSON* sys = G(d, "system");
  char buf[256], num[32];
  snprintf(buf, sizeof buf, "iospd curve: %s %s",
           STR(sys, "computer_name") ? STR(sys, "computer_name") : "",
           STR(sys, "run_time") ? STR(sys, "run_time") : "");
  iospd_html_page_begin(out, buf);
  if (cJSON_IsTrue(G(d, "interrupted")))
    iospd_strbuf_appendf(out,
                         "<p class=\"banner\" data-banner=\"interrupted\">"
                         "The curve was cut short (Ctrl-C): %zu point%s done; "
                         "the knee, the answer and the verdict are of those "
                         "points only.</p>\n",
                         c->n, c->n == 1 ? "" : "s");
  iospd_strbuf_append(out,
                      "<h1>iospd curve</h1>\n<table data-table=\"run\">\n");
  iospd_html_kv(out, "computer", STR(sys, "computer_name"));
  iospd_html_kv(out, "started (UTC)", STR(sys, "run_time"));
  iospd_strbuf_append(out, "<tr><th>command line</th><td><code>");
  const char* cl = STR(d, "command_line");
  iospd_html_text(out, cl != NULL ? cl : "");
  iospd_strbuf_append(out, "</code></td></tr>\n");
  iospd_strbuf_t planned;
  iospd_strbuf_init(&planned);
  const cJSON* v;
  cJSON_ArrayForEach(v, G(G(d, "axis"), "planned")) {
    iospd_html_num(num, sizeof num,
                   axis_shown(c, cJSON_IsNumber(v) ? v->valuedouble : NAN));
    iospd_strbuf_appendf(&planned, "%s%s", planned.len ? ", " : "", num);
  }
  snprintf(buf, sizeof buf, "%s: %s", axis_label(c),
           iospd_strbuf_cstr(&planned));
  iospd_strbuf_destroy(&planned);
  iospd_html_kv(out, "axis", buf);
  if (c->limit != NULL) {
    iospd_html_num(num, sizeof num, c->limit_ms);
    const char* op = STR(c->limit, "op");
    snprintf(buf, sizeof buf, "%s of %s I/O <= %s ms", c->stat,
             op != NULL ? op : "total", num);
  } else {
    snprintf(buf, sizeof buf, "none (no --latency-limit)");
  }
  iospd_html_kv(out, "latency limit", buf);
  const cJSON* ex = G(d, "expect");
  if (cJSON_IsObject(ex)) {
    const char* k = STR(ex, "kind");
    bool mibs = k != NULL && strcmp(k, "mibs") == 0;
    iospd_html_num(num, sizeof num, NUM(ex, "value"));
    snprintf(buf, sizeof buf, "%s %s", num, mibs ? "MiB/s" : "IOPS");
    iospd_html_kv(out, "expected (--expect)", buf);
  }
  iospd_html_kv(out, "stopped", stopped_text(STR(d, "stopped")));
  iospd_strbuf_append(out, "</table>\n");
}

static void verdict(iospd_strbuf_t* out, const cJSON* d) {
  iospd_strbuf_append(out,
                      "<section id=\"verdict\"><h2>Verdict</h2>\n"
                      "<ul data-list=\"verdict\">\n");
  size_t n = 0;
  const cJSON* s;
  cJSON_ArrayForEach(s, G(d, "verdict")) {
    if (!cJSON_IsString(s)) continue;
    iospd_strbuf_append(out, "<li>");
    iospd_html_text(out, s->valuestring);
    iospd_strbuf_append(out, "</li>\n");
    n++;
  }
  iospd_strbuf_append(out, "</ul>\n");
  if (n == 0) iospd_html_note(out, "verdict", "The document has no verdict.");
  iospd_strbuf_append(out, "</section>\n");
}

/* The knee, the answer and the cap, as the document gives them. */
static void findings(iospd_strbuf_t* out, const curve_t* c) {
  const cJSON* d = c->doc;
  char buf[512], a[32], b[32], e[32];
  iospd_strbuf_append(out,
                      "<section id=\"findings\"><h2>Knee, answer and "
                      "cap</h2>\n<table data-table=\"findings\">\n");
  const cJSON* k = G(d, "knee");
  if (cJSON_IsObject(k)) {
    iospd_html_num(a, sizeof a, axis_shown(c, NUM(k, "axis_value")));
    iospd_html_num(b, sizeof b, NUM(k, "iops"));
    iospd_html_num(e, sizeof e, NUM(G(k, "latency_us"), "p99") / 1000.0);
    char mib[32];
    iospd_html_num(mib, sizeof mib, NUM(k, "mib_per_s"));
    snprintf(buf, sizeof buf,
             "point %.0f, axis value %s: %s IOPS, %s MiB/s, "
             "p99 %s ms",
             NUM(k, "point"), a, b, mib, e);
  } else {
    snprintf(buf, sizeof buf,
             "none found (throughput still grew at the "
             "last point)");
  }
  iospd_html_kv(out, "knee", buf);
  const cJSON* an = G(d, "answer");
  if (cJSON_IsObject(an)) {
    const cJSON* br = G(an, "bracket");
    char g[32], bd[32];
    iospd_html_num(a, sizeof a, axis_shown(c, NUM(an, "axis_value")));
    iospd_html_num(b, sizeof b, NUM(an, "iops"));
    iospd_html_num(e, sizeof e, NUM(an, "latency_us") / 1000.0);
    iospd_html_num(g, sizeof g, axis_shown(c, NUM(br, "good_axis_value")));
    iospd_html_num(bd, sizeof bd, axis_shown(c, NUM(br, "bad_axis_value")));
    snprintf(buf, sizeof buf,
             "point %.0f, axis value %s: %s IOPS at %s %s ms "
             "(bracketed between %s, within the limit, and %s, over it)",
             NUM(an, "point"), a, b, c->stat, e, g, bd);
  } else if (c->limit != NULL) {
    snprintf(buf, sizeof buf, "no point stayed within the limit");
  } else {
    snprintf(buf, sizeof buf, "no latency limit was asked");
  }
  iospd_html_kv(out, "answer", buf);
  const cJSON* cap = G(d, "cap");
  if (cJSON_IsObject(cap)) {
    const char* kind = STR(cap, "kind");
    const char* unit = STR(cap, "unit");
    iospd_html_num(a, sizeof a, NUM(cap, "value"));
    const char* what = kind == NULL                     ? "-"
                       : strcmp(kind, "iops") == 0      ? "an IOPS cap"
                       : strcmp(kind, "bandwidth") == 0 ? "a bandwidth cap"
                       : strcmp(kind, "tool") == 0
                           ? "iospd itself (add threads)"
                           : "no cap found";
    snprintf(buf, sizeof buf, "%s at %s %s: %s", what, a,
             unit != NULL ? unit : "",
             STR(cap, "evidence") ? STR(cap, "evidence") : "");
  } else {
    snprintf(buf, sizeof buf, "not determined");
  }
  iospd_html_kv(out, "cap", buf);
  iospd_strbuf_append(out, "</table>\n");
  const cJSON* ll = G(d, "littles_law");
  if (cJSON_GetArraySize(ll) > 0) {
    iospd_strbuf_append(out,
                        "<h3>Little's law past the knee</h3>\n<table "
                        "data-table=\"littles-law\"><tr><th>point</th>"
                        "<th>outstanding (all threads)</th><th>IOPS</th>"
                        "<th>expected mean latency (ms)</th><th>measured "
                        "(ms)</th></tr>\n");
    const cJSON* r;
    cJSON_ArrayForEach(r, ll) {
      iospd_strbuf_append(out, "<tr>");
      iospd_html_td_num(out, NUM(r, "point"), 0, NULL);
      iospd_html_td_num(out, NUM(r, "outstanding_total"), 0, NULL);
      iospd_html_td_num(out, NUM(r, "iops"), HTML_DEC_IOPS, NULL);
      iospd_html_td_num(out, NUM(r, "expected_latency_us") / 1000.0,
                        HTML_DEC_MS, NULL);
      iospd_html_td_num(out, NUM(r, "measured_latency_us") / 1000.0,
                        HTML_DEC_MS, NULL);
      iospd_strbuf_append(out, "</tr>\n");
    }
    iospd_strbuf_append(out, "</table>\n");
  }
  iospd_strbuf_append(out, "</section>\n");
}

static bool is_phase(const cpt_t* p, const char* a, const char* b) {
  return strcmp(p->phase, a) == 0 || (b != NULL && strcmp(p->phase, b) == 0);
}

/* The points of one or two phases as a series (x, y picked by which). */
enum { X_IOPS, X_AXIS };
enum { Y_STAT, Y_RATE, Y_P99 };

static size_t fill(const curve_t* c, const char* ph, const char* ph2, int xw,
                   int yw, double* x, double* y) {
  size_t m = 0;
  for (size_t i = 0; i < c->n; i++) {
    const cpt_t* p = &c->pts[i];
    if (!is_phase(p, ph, ph2)) continue;
    x[m] = xw == X_IOPS ? p->iops : axis_shown(c, p->axis);
    y[m] = yw == Y_STAT     ? p->y
           : yw == Y_P99    ? p->p99
           : c->axis == 'b' ? p->mibs
                            : p->iops;
    m++;
  }
  return m;
}

static void series(html_series_t* s, const char* label, int color, bool line,
                   size_t n, double* x, double* y) {
  memset(s, 0, sizeof *s);
  snprintf(s->label, sizeof s->label, "%s", label);
  s->color = color;
  s->n = n;
  s->x = x;
  s->y = y;
  s->markers = true;
  s->no_line = !line;
  s->bold = line;
}

/* A log x axis when the values span a factor of 8 or more (1, 2, 4 ... 64). */
static int x_axis_of(const double* x, size_t n) {
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite(x[i]) && x[i] > 0) {
      if (x[i] < lo) lo = x[i];
      if (x[i] > hi) hi = x[i];
    }
  return hi >= 8 * lo ? HTML_AXIS_LOG : HTML_AXIS_LINEAR;
}

static int charts(iospd_strbuf_t* out, const curve_t* c) {
  size_t n = c->n ? c->n : 1;
  double* buf = iospd_calloc(6 * n, sizeof *buf);
  if (buf == NULL) return IOSPD_ENOMEM;
  double *x0 = buf, *y0 = buf + n, *x1 = buf + 2 * n, *y1 = buf + 3 * n,
         *x2 = buf + 4 * n, *y2 = buf + 5 * n;
  html_series_t s[3];
  size_t ns = 0;
  char yl[96], lab[96], num[32];
  iospd_strbuf_append(out, "<section id=\"charts\"><h2>Charts</h2>\n");
  /* 1. The hockey stick. */
  size_t m = fill(c, "curve", NULL, X_IOPS, Y_STAT, x0, y0);
  series(&s[ns++], "points of the curve", 0, true, m, x0, y0);
  m = fill(c, "bisect", "rate", X_IOPS, Y_STAT, x1, y1);
  if (m) series(&s[ns++], "bisection and rate points", 1, false, m, x1, y1);
  m = fill(c, "block_size_probe", NULL, X_IOPS, Y_STAT, x2, y2);
  if (m) series(&s[ns++], "second block size (probe)", 2, false, m, x2, y2);
  html_hline_t hl[1];
  size_t nh = 0;
  if (c->limit != NULL && isfinite(c->limit_ms)) {
    iospd_html_num(num, sizeof num, c->limit_ms);
    snprintf(lab, sizeof lab, "limit: %s <= %s ms", c->stat, num);
    hl[nh++] = (html_hline_t){"limit", lab, c->limit_ms, 1, 1};
  }
  html_mark_t mk[2];
  size_t nm = 0;
  char klab[64], alab[64];
  /* The answer first: its label above it, the knee's below. */
  const cJSON* an = G(c->doc, "answer");
  if (cJSON_IsObject(an)) {
    iospd_html_num(num, sizeof num, NUM(an, "iops"));
    snprintf(alab, sizeof alab, "answer: %s IOPS", num);
    mk[nm++] = (html_mark_t){"answer", alab, NUM(an, "iops"),
                             NUM(an, "latency_us") / 1000.0, 2};
  }
  const cpt_t* kp = point_n(c, NUM(G(c->doc, "knee"), "point"));
  if (kp != NULL) {
    snprintf(klab, sizeof klab, "knee (point %.0f)", NUM(kp->p, "n"));
    mk[nm++] = (html_mark_t){"knee", klab, kp->iops, kp->y, 7};
  }
  snprintf(yl, sizeof yl, "%s latency (ms)", c->stat);
  html_chart_t hs = {.id = "curve-latency",
                     .title = "Latency against IOPS (the hockey stick)",
                     .x_label = "I/O per second",
                     .y_label = yl,
                     .series = s,
                     .series_count = ns,
                     .hlines = hl,
                     .hline_count = nh,
                     .marks = mk,
                     .mark_count = nm,
                     .plot_attrs = true};
  iospd_html_line_chart(out, &hs);
  if (c->limit == NULL)
    iospd_html_note(out, "curve-latency-limit",
                    "No latency limit was asked (--latency-limit): the chart "
                    "shows p99 and has no limit line.");
  /* 2. Throughput against the axis. */
  m = fill(c, "curve", NULL, X_AXIS, Y_RATE, x0, y0);
  series(&s[0], c->axis == 'b' ? "MiB/s" : "IOPS", 0, true, m, x0, y0);
  html_chart_t tp = {.id = "curve-throughput",
                     .title = c->axis == 'b' ? "Throughput against block size"
                                             : "IOPS against the axis",
                     .x_label = axis_label(c),
                     .y_label = c->axis == 'b' ? "MiB/s" : "I/O per second",
                     .x_axis = x_axis_of(x0, m),
                     .series = s,
                     .series_count = 1,
                     .plot_attrs = true};
  if (kp != NULL && is_phase(kp, "curve", NULL)) {
    mk[0] = (html_mark_t){"knee", klab, axis_shown(c, kp->axis),
                          c->axis == 'b' ? kp->mibs : kp->iops, 7};
    tp.marks = mk;
    tp.mark_count = 1;
  }
  iospd_html_line_chart(out, &tp);
  /* 3. p99 against the axis, with the limit when it is on p99. */
  m = fill(c, "curve", NULL, X_AXIS, Y_P99, x0, y0);
  series(&s[0], "p99", 0, true, m, x0, y0);
  ns = 1;
  if (strcmp(c->stat, "p99") != 0 && c->limit != NULL) {
    size_t m2 = fill(c, "curve", NULL, X_AXIS, Y_STAT, x1, y1);
    series(&s[ns++], c->stat, 1, true, m2, x1, y1);
  }
  html_chart_t pc = {.id = "curve-p99",
                     .title = "p99 latency against the axis",
                     .x_label = axis_label(c),
                     .y_label = "latency (ms)",
                     .x_axis = x_axis_of(x0, m),
                     .series = s,
                     .series_count = ns,
                     .hlines = hl,
                     .hline_count = nh,
                     .plot_attrs = true};
  iospd_html_line_chart(out, &pc);
  iospd_strbuf_append(out, "</section>\n");
  iospd_free(buf);
  return 0;
}

static void points_table(iospd_strbuf_t* out, const curve_t* c) {
  iospd_strbuf_append(out,
                      "<section id=\"points\"><h2>Points</h2>\n<table "
                      "data-table=\"points\"><tr><th>point</th><th>phase</th>"
                      "<th>axis value</th><th>block size (bytes)</th>"
                      "<th>threads</th><th>outstanding</th><th>IOPS</th>"
                      "<th>MiB/s</th><th>mean (ms)</th><th>p50 (ms)</th>"
                      "<th>p99 (ms)</th><th>p99.9 (ms)</th><th>max (ms)</th>"
                      "<th>CPU busy (%)</th><th>busiest thread CPU (%)</th>"
                      "<th>within the limit</th></tr>\n");
  char attrs[96];
  static const char* const lat[] = {"mean", "p50", "p99", "p99.9", "max"};
  for (size_t i = 0; i < c->n; i++) {
    const cpt_t* p = &c->pts[i];
    double n = NUM(p->p, "n");
    iospd_strbuf_appendf(out, "<tr data-point=\"%.0f\">", n);
    iospd_html_td_num(out, n, 0, NULL);
    iospd_html_td_text(out, p->phase);
#define CELL(metric, v, dec)                                                  \
  snprintf(attrs, sizeof attrs, " data-point=\"%.0f\" data-metric=\"%s\"", n, \
           metric);                                                           \
  iospd_html_td_num(out, v, dec, attrs)
    CELL("axis_value", axis_shown(c, p->axis), 3);
    CELL("block_size", NUM(p->p, "block_size"), 0);
    CELL("threads", NUM(p->p, "threads"), 0);
    CELL("outstanding", NUM(p->p, "outstanding"), 0);
    CELL("iops", p->iops, HTML_DEC_IOPS);
    CELL("mib_per_s", p->mibs, HTML_DEC_MIBS);
    for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++) {
      char metric[24];
      snprintf(metric, sizeof metric, "%s_ms", lat[k]);
      CELL(metric, lat_ms(p->p, lat[k]), HTML_DEC_MS);
    }
    CELL("cpu_percent", NUM(p->p, "cpu_percent"), HTML_DEC_PCT);
    CELL("busiest_thread_cpu_percent", NUM(p->p, "busiest_thread_cpu_percent"),
         HTML_DEC_PCT);
#undef CELL
    const cJSON* w = G(p->p, "within_limit");
    iospd_html_td_text(out, cJSON_IsTrue(w)    ? "yes"
                            : cJSON_IsFalse(w) ? "no"
                                               : "-");
    iospd_strbuf_append(out, "</tr>\n");
  }
  iospd_strbuf_append(out, "</table>\n");
  if (c->n == 0) iospd_html_note(out, "points", "No point was measured.");
  iospd_strbuf_append(out, "</section>\n");
}

int iospd_html_curve(const cJSON* curve_doc, iospd_strbuf_t* out,
                     iospd_err_t* err) {
  int rc = check(curve_doc, err);
  if (rc < 0) return rc;
  curve_t c;
  rc = load(&c, curve_doc, err);
  if (rc == 0) {
    header(out, &c);
    verdict(out, curve_doc);
    rc = charts(out, &c);
    findings(out, &c);
    points_table(out, &c);
    iospd_html_page_end(out);
    if (rc == 0 && out->failed) rc = IOSPD_ENOMEM;
    if (rc < 0) iospd_err_set(err, rc, "out of memory (HTML curve page)");
  }
  iospd_free(c.pts);
  return rc;
}

int iospd_html_curve_text(const char* name, const char* json, size_t len,
                          iospd_strbuf_t* out, iospd_err_t* err) {
  return iospd_html_doc_text(name, json, len, iospd_html_curve, out, err);
}
