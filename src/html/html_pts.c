/* SPDX-License-Identifier: MIT */
/* The PTS page (iospd/html.h, iospd_html_pts): a --pts document
 * (docs/pts.md, schema/iospd-pts.schema.json) drawn as a SNIA PTS report
 * draws it. The window, its mean, excursions and fitted line are the
 * document's, never recomputed; the bands are the mean +-10 % and +-20 %.
 * Latencies are shown in ms, as everywhere in the HTML report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_sections.h"
#include "iospd/alloc.h"

#define G iospd_json_get
#define NUM iospd_json_num
#define STR iospd_json_str

static int bad(iospd_err_t* err, const char* what) {
  return iospd_html_doc_bad(err, "PTS", what);
}

static int check(const cJSON* d, iospd_err_t* err) {
  int rc = iospd_html_doc_check(d, "iospd-pts", "PTS", "--pts", err);
  if (rc < 0) return rc;
  if (!cJSON_IsArray(G(d, "rounds")))
    return bad(err, "no \"rounds\" array (a damaged or hand-edited file?)");
  if (!cJSON_IsObject(G(d, "matrix")) || !cJSON_IsObject(G(d, "tracked")))
    return bad(err,
               "no \"matrix\" or \"tracked\" object (a damaged or "
               "hand-edited file?)");
  return 0;
}

/* The metric of a cell: "iops", "mib_per_s" or "mean_latency_us" (ms). */
static double metric_of(const cJSON* cell, const char* metric) {
  if (strcmp(metric, "mean_latency_us") == 0)
    return NUM(G(cell, "latency_us"), "mean") / 1000.0;
  return NUM(cell, metric);
}

/* The value shown for a tracked value of the document (latency in ms). */
static double shown(const char* metric, double v) {
  return strcmp(metric, "mean_latency_us") == 0 ? v / 1000.0 : v;
}

static const char* metric_label(const char* metric) {
  if (strcmp(metric, "mib_per_s") == 0) return "MiB/s";
  if (strcmp(metric, "mean_latency_us") == 0) return "mean latency (ms)";
  return "IOPS";
}

/* v with at most dec decimals, trailing zeros cut ("-": not measured). */
static void fixed(char* buf, size_t cap, double v, int dec) {
  if (!isfinite(v)) {
    snprintf(buf, cap, "-");
    return;
  }
  snprintf(buf, cap, "%.*f", dec, v);
  if (strchr(buf, '.') == NULL) return;
  size_t n = strlen(buf);
  while (buf[n - 1] == '0') buf[--n] = '\0';
  if (buf[n - 1] == '.') buf[--n] = '\0';
}

static void size_text(char* buf, size_t cap, double bytes) {
  char num[32];
  if (bytes >= 1024 && fmod(bytes, 1024) == 0) {
    iospd_html_num(num, sizeof num, bytes / 1024);
    /* The length is checked: the optimiser's -Wformat-truncation warns
     * on an unchecked snprintf into a buffer it cannot size. */
    if (snprintf(buf, cap, "%s KiB", num) >= (int)cap && cap > 0)
      buf[cap - 1] = '\0';
  } else {
    iospd_html_num(num, sizeof num, bytes);
    if (snprintf(buf, cap, "%s B", num) >= (int)cap && cap > 0)
      buf[cap - 1] = '\0';
  }
}

/* "0/100" read/write, as PTS names a mix. */
static void mix_text(char* buf, size_t cap, double read_pct) {
  snprintf(buf, cap, "%.0f/%.0f", read_pct, 100 - read_pct);
}

static const char* yes_no(const cJSON* b) {
  return cJSON_IsTrue(b) ? "yes" : cJSON_IsFalse(b) ? "no" : "-";
}

static void header(iospd_strbuf_t* out, const cJSON* d) {
  const cJSON* sys = G(d, "system");
  const cJSON* tg = G(d, "target");
  const cJSON* tr = G(d, "tracked");
  char buf[512], a[64], b[64];
  snprintf(buf, sizeof buf, "iospd PTS %s test: %s",
           STR(d, "test") ? STR(d, "test") : "",
           STR(tg, "path") ? STR(tg, "path") : "");
  iospd_html_page_begin(out, buf);
  if (cJSON_IsTrue(G(d, "interrupted")))
    iospd_strbuf_appendf(out,
                         "<p class=\"banner\" data-banner=\"interrupted\">"
                         "The run was cut short (Ctrl-C) after %d round%s: "
                         "the finished rounds are kept (--pts-resume "
                         "continues it).</p>\n",
                         cJSON_GetArraySize(G(d, "rounds")),
                         cJSON_GetArraySize(G(d, "rounds")) == 1 ? "" : "s");
  iospd_strbuf_append(out,
                      "<h1>iospd PTS report</h1>\n"
                      "<table data-table=\"pts-header\">\n");
  snprintf(buf, sizeof buf, "SNIA SSS PTS 2.0.2 %s test",
           STR(d, "test") ? STR(d, "test") : "-");
  iospd_html_kv(out, "test", buf);
  size_text(a, sizeof a, NUM(tg, "capacity_bytes"));
  iospd_html_num(b, sizeof b, NUM(tg, "capacity_bytes"));
  snprintf(buf, sizeof buf, "%s (%s, %s bytes)",
           STR(tg, "path") ? STR(tg, "path") : "-",
           STR(tg, "kind") ? STR(tg, "kind") : "-", b);
  iospd_html_kv(out, "device", buf);
  iospd_html_kv(out, "model", STR(tg, "model") ? STR(tg, "model") : "unknown");
  iospd_html_kv(out, "firmware",
                STR(tg, "firmware") ? STR(tg, "firmware") : "unknown");
  iospd_html_kv(out, "serial",
                STR(tg, "serial") ? STR(tg, "serial") : "unknown");
  const cJSON* tool = G(sys, "tool");
  snprintf(buf, sizeof buf, "%s, %s, %s %s",
           STR(sys, "computer_name") ? STR(sys, "computer_name") : "-",
           STR(sys, "os") ? STR(sys, "os") : "-",
           STR(tool, "name") ? STR(tool, "name") : "iospd",
           STR(tool, "version") ? STR(tool, "version") : "");
  iospd_html_kv(out, "platform", buf);
  iospd_html_kv(out, "started (UTC)", STR(sys, "run_time"));
  iospd_strbuf_append(out, "<tr><th>command line</th><td><code>");
  iospd_html_text(out, STR(d, "command_line") ? STR(d, "command_line") : "");
  iospd_strbuf_append(out, "</code></td></tr>\n");
  const cJSON* pu = G(d, "purge");
  const char* pm = STR(pu, "method");
  if (pm == NULL || strcmp(pm, "none") == 0) {
    snprintf(buf, sizeof buf, "none");
  } else {
    fixed(a, sizeof a, NUM(pu, "seconds"), 3);
    snprintf(buf, sizeof buf, "%s (%s s)", pm, a);
  }
  iospd_html_kv(out, "purge", buf);
  const cJSON* w = G(d, "wipc");
  size_text(a, sizeof a, NUM(w, "block_size"));
  char s[32], n[32], bytes[32];
  fixed(s, sizeof s, NUM(w, "seconds"), 3);
  iospd_html_num(n, sizeof n, NUM(w, "writes"));
  iospd_html_num(bytes, sizeof bytes, NUM(w, "bytes_written"));
  snprintf(buf, sizeof buf, "%s writes of %s sequential, %s bytes in %s s%s", n,
           a, bytes, s,
           cJSON_IsFalse(G(w, "complete")) ? " (not complete)" : "");
  iospd_html_kv(out, "preconditioning (WIPC)", buf);
  iospd_html_num(a, sizeof a, NUM(d, "threads"));
  iospd_html_num(b, sizeof b, NUM(d, "outstanding"));
  snprintf(buf, sizeof buf, "%s thread%s, %s outstanding I/Os each", a,
           NUM(d, "threads") == 1 ? "" : "s", b);
  iospd_html_kv(out, "threads and depth", buf);
  fixed(a, sizeof a, NUM(d, "cell_seconds"), 3);
  snprintf(buf, sizeof buf, "%s s", a);
  iospd_html_kv(out, "cell", buf);
  double resumed = NUM(d, "resumed_rounds");
  snprintf(buf, sizeof buf, "%d of at most %.0f%s",
           cJSON_GetArraySize(G(d, "rounds")), NUM(d, "max_rounds"), "");
  if (resumed > 0) {
    size_t l = strlen(buf);
    snprintf(buf + l, sizeof buf - l, " (%.0f read back by --pts-resume)",
             resumed);
  }
  iospd_html_kv(out, "rounds", buf);
  size_text(a, sizeof a, NUM(tr, "block_size"));
  mix_text(b, sizeof b, NUM(tr, "read_pct"));
  snprintf(buf, sizeof buf, "%s of %s %s, %s read/write",
           metric_label(STR(tr, "metric") ? STR(tr, "metric") : "iops"), a,
           STR(tr, "access") ? STR(tr, "access") : "", b);
  iospd_html_kv(out, "tracked", buf);
  const char* stopped = STR(d, "stopped");
  snprintf(buf, sizeof buf, "%s",
           cJSON_IsTrue(G(d, "converged"))
               ? "yes: steady state was reached"
               : "no: steady state was not reached");
  size_t l = strlen(buf);
  if (stopped != NULL)
    snprintf(buf + l, sizeof buf - l, " (stopped: %s)",
             strcmp(stopped, "max_rounds") == 0    ? "after the 25-round cap"
             : strcmp(stopped, "steady") == 0      ? "steady"
             : strcmp(stopped, "interrupted") == 0 ? "interrupted"
                                                   : stopped);
  iospd_html_kv(out, "steady state", buf);
  iospd_strbuf_append(out, "<tr><th>conformant</th><td data-conformant=\"");
  iospd_strbuf_append(
      out, cJSON_IsTrue(G(d, "conformant")) ? "yes\">yes" : "no\">no");
  const cJSON* r;
  bool first = true;
  cJSON_ArrayForEach(r, G(d, "nonconformant_reasons")) {
    if (!cJSON_IsString(r)) continue;
    iospd_strbuf_append(out, first ? ": " : "; ");
    iospd_html_text(out, r->valuestring);
    first = false;
  }
  iospd_strbuf_append(out, "</td></tr>\n");
  const char* e = STR(d, "error");
  if (e != NULL) iospd_html_kv(out, "error", e);
  iospd_strbuf_append(out, "</table>\n");
}

/* The cell of a round with that block size and mix (NULL: none). */
static const cJSON* cell_of(const cJSON* round, double bs, double rp,
                            const char* access) {
  const cJSON* c;
  cJSON_ArrayForEach(c, G(round, "cells")) {
    const char* a = STR(c, "access");
    if (NUM(c, "block_size") == bs && NUM(c, "read_pct") == rp &&
        (access == NULL || a == NULL || strcmp(a, access) == 0))
      return c;
  }
  return NULL;
}

static void series(html_series_t* s, const char* label, int color, int dash,
                   bool bold, size_t n, double* x, double* y) {
  memset(s, 0, sizeof *s);
  snprintf(s->label, sizeof s->label, "%s", label);
  s->color = color;
  s->dash = dash;
  s->bold = bold;
  s->n = n;
  s->x = x;
  s->y = y;
  s->markers = true;
}

enum { MAX_LINES = 24 };

/* The tracked value and every block size's value of the tracked mix,
 * across rounds. */
static int convergence(iospd_strbuf_t* out, const cJSON* d) {
  const cJSON* tr = G(d, "tracked");
  const char* metric = STR(tr, "metric") ? STR(tr, "metric") : "iops";
  const char* access = STR(tr, "access");
  const cJSON* rounds = G(d, "rounds");
  size_t nr = (size_t)cJSON_GetArraySize(rounds);
  const cJSON* bss = G(G(d, "matrix"), "block_sizes");
  size_t nb = (size_t)cJSON_GetArraySize(bss);
  if (nb > MAX_LINES - 1) nb = MAX_LINES - 1;
  double* v = iospd_calloc((nb + 2) * (nr ? nr : 1), sizeof *v);
  if (v == NULL) return IOSPD_ENOMEM;
  double* x = v;
  html_series_t s[MAX_LINES];
  size_t ns = 0, i = 0;
  const cJSON* r;
  cJSON_ArrayForEach(r, rounds) x[i++] = NUM(r, "n");
  char lab[96], bsz[32], mix[16];
  mix_text(mix, sizeof mix, NUM(tr, "read_pct"));
  double* y = v + nr;
  i = 0;
  cJSON_ArrayForEach(r, rounds) y[i++] = shown(metric, NUM(r, "tracked_value"));
  size_text(bsz, sizeof bsz, NUM(tr, "block_size"));
  snprintf(lab, sizeof lab, "tracked: %s %s", bsz, mix);
  series(&s[ns++], lab, 7, 0, true, nr, x, y);
  size_t k = 0;
  const cJSON* b;
  cJSON_ArrayForEach(b, bss) {
    if (k >= nb) break;
    double* yb = v + (2 + k) * nr;
    i = 0;
    cJSON_ArrayForEach(r, rounds) {
      const cJSON* c = cell_of(r, b->valuedouble, NUM(tr, "read_pct"), access);
      yb[i++] = c != NULL ? metric_of(c, metric) : NAN;
    }
    size_text(bsz, sizeof bsz, b->valuedouble);
    snprintf(lab, sizeof lab, "%s %s", bsz, mix);
    series(&s[ns++], lab, (int)(k % 7), 1 + (int)(k / 7) % 2, false, nr, x, yb);
    k++;
  }
  snprintf(lab, sizeof lab, "%s", metric_label(metric));
  html_chart_t c = {.id = "pts-convergence",
                    .title =
                        "Steady-state convergence (every block size of "
                        "the tracked mix, per round)",
                    .x_label = "round",
                    .y_label = lab,
                    .x_axis = HTML_AXIS_LINEAR,
                    .y_axis = strcmp(metric, "iops") == 0 && nb > 1
                                  ? HTML_AXIS_LOG
                                  : HTML_AXIS_LINEAR,
                    .series = s,
                    .series_count = ns,
                    .plot_attrs = true};
  iospd_html_line_chart(out, &c);
  iospd_free(v);
  return 0;
}

/* The window: the tracked value per round, its mean, the bands and the
 * fitted line, all from the document. */
static void window_plot(iospd_strbuf_t* out, const cJSON* d) {
  const cJSON* w = G(d, "window");
  const char* metric = STR(G(d, "tracked"), "metric");
  if (metric == NULL) metric = "iops";
  if (!cJSON_IsObject(w)) {
    iospd_html_note(out, "pts-window",
                    "No measurement window yet: the steady-state test needs "
                    "five rounds.");
    return;
  }
  double first = NUM(w, "first_round"), last = NUM(w, "last_round");
  const cJSON* vals = G(w, "values");
  size_t n = (size_t)cJSON_GetArraySize(vals);
  if (n > 64) n = 64;
  double x[64], y[64], fx[2], fy[2];
  size_t i = 0;
  const cJSON* v;
  cJSON_ArrayForEach(v, vals) {
    if (i >= n) break;
    x[i] = first + (double)i;
    y[i] = shown(metric, cJSON_IsNumber(v) ? v->valuedouble : NAN);
    i++;
  }
  double mean = NUM(w, "mean"), slope = NUM(w, "slope"),
         icpt = NUM(w, "intercept");
  fx[0] = first;
  fx[1] = last;
  fy[0] = shown(metric, icpt);
  fy[1] = shown(metric, icpt + slope * (last - first));
  html_series_t s[2];
  series(&s[0], "tracked value", 0, 0, true, n, x, y);
  series(&s[1], "fitted line (least squares)", 1, 1, false, 2, fx, fy);
  s[1].markers = false;
  double m = shown(metric, mean);
  html_hline_t hl[1] = {{"mean", "mean", m, 7, 0}};
  html_band_t bd[2] = {{"20", "mean +-20 %", m * 0.8, m * 1.2},
                       {"10", "mean +-10 %", m * 0.9, m * 1.1}};
  html_hline_t edges[5] = {hl[0],
                           {"plus20", "+20 %", m * 1.2, 2, 2},
                           {"minus20", "-20 %", m * 0.8, 2, 2},
                           {"plus10", "+10 %", m * 1.1, 4, 2},
                           {"minus10", "-10 %", m * 0.9, 4, 2}};
  char yl[64];
  snprintf(yl, sizeof yl, "%s", metric_label(metric));
  html_chart_t c = {.id = "pts-window",
                    .title =
                        "Measurement window (rounds of the last "
                        "steady-state test)",
                    .x_label = "round",
                    .y_label = yl,
                    .series = s,
                    .series_count = 2,
                    .hlines = edges,
                    .hline_count = 5,
                    .bands = bd,
                    .band_count = 2,
                    .plot_attrs = true};
  iospd_html_line_chart(out, &c);
}

/* A row of the steady-state test: the "<test>_excursion" of the window w,
 * as a value and a percentage of the mean, the document's limit and
 * whether it passed ("<test>_ok"). */
static void excursion_row(iospd_strbuf_t* out, const cJSON* d,
                          const cJSON* w, const char* metric, int dec,
                          const char* test, const char* label) {
  char key[48], attrs[64];
  iospd_strbuf_append(out, "<tr><th>");
  iospd_html_text(out, label);
  iospd_strbuf_append(out, "</th>");
  snprintf(key, sizeof key, "%s_excursion", test);
  snprintf(attrs, sizeof attrs, " data-w=\"%s\"", key);
  iospd_html_td_num(out, shown(metric, NUM(w, key)), dec, attrs);
  snprintf(key, sizeof key, "%s_excursion_pct", test);
  snprintf(attrs, sizeof attrs, " data-w=\"%s\"", key);
  iospd_html_td_num(out, NUM(w, key), HTML_DEC_PCT, attrs);
  snprintf(key, sizeof key, "%s_excursion_limit_pct", test);
  iospd_html_td_num(out, NUM(d, key), HTML_DEC_PCT, NULL);
  snprintf(key, sizeof key, "%s_ok", test);
  iospd_html_td_text(out, yes_no(G(w, key)));
  iospd_strbuf_append(out, "</tr>\n");
}

static void window_table(iospd_strbuf_t* out, const cJSON* d) {
  const cJSON* w = G(d, "window");
  if (!cJSON_IsObject(w)) return;
  const char* metric = STR(G(d, "tracked"), "metric");
  if (metric == NULL) metric = "iops";
  int dec = strcmp(metric, "mean_latency_us") == 0   ? HTML_DEC_MS
            : strcmp(metric, "mib_per_s") == 0 ? HTML_DEC_MIBS
                                               : HTML_DEC_IOPS;
  iospd_strbuf_append(out,
                      "<h3>Measurement window</h3>\n<table "
                      "data-table=\"pts-window\"><tr><th>round</th><th>");
  iospd_html_text(out, metric_label(metric));
  iospd_strbuf_append(out, "</th><th>fitted line</th></tr>\n");
  double first = NUM(w, "first_round");
  double slope = NUM(w, "slope"), icpt = NUM(w, "intercept");
  int i = 0;
  const cJSON* v;
  char attrs[64];
  cJSON_ArrayForEach(v, G(w, "values")) {
    iospd_strbuf_append(out, "<tr>");
    iospd_html_td_num(out, first + i, 0, NULL);
    snprintf(attrs, sizeof attrs, " data-round=\"%.0f\"", first + i);
    iospd_html_td_num(out,
                      shown(metric, cJSON_IsNumber(v) ? v->valuedouble : NAN),
                      dec, attrs);
    iospd_html_td_num(out, shown(metric, icpt + slope * i), dec, NULL);
    iospd_strbuf_append(out, "</tr>\n");
    i++;
  }
  iospd_strbuf_append(out,
                      "</table>\n<table data-table=\"pts-test\"><tr>"
                      "<th>test</th><th>value</th><th>% of the mean</th>"
                      "<th>limit (% of the mean)</th><th>passes</th>"
                      "</tr>\n");
  iospd_strbuf_append(out, "<tr><th>mean</th>");
  iospd_html_td_num(out, shown(metric, NUM(w, "mean")), dec,
                    " data-w=\"mean\"");
  iospd_strbuf_append(out, "<td></td><td></td><td></td></tr>\n");
  excursion_row(out, d, w, metric, dec, "data", "data excursion (max - min)");
  excursion_row(out, d, w, metric, dec, "slope",
                "slope excursion (fitted line, first to last round)");
  iospd_strbuf_append(out, "<tr><th>fitted line</th><td colspan=\"4\">");
  char a[32], b[32];
  fixed(a, sizeof a, shown(metric, icpt), dec + 1);
  fixed(b, sizeof b, shown(metric, slope), dec + 1);
  iospd_strbuf_appendf(out, "y = %s %s %s &#215; (round - %.0f)</td></tr>\n", a,
                       slope < 0 ? "-" : "+", b[0] == '-' ? b + 1 : b, first);
  iospd_strbuf_append(out, "</table>\n");
}

/* The last round as a table (block size x mix) and a plot (metric by
 * block size, one line per mix). */
static int matrix(iospd_strbuf_t* out, const cJSON* d) {
  const cJSON* mx = G(d, "matrix");
  const cJSON* bss = G(mx, "block_sizes");
  const cJSON* mixes = G(mx, "mixes");
  const char* access = STR(mx, "access");
  const char* test = STR(d, "test");
  const char* metric =
      test != NULL && strcmp(test, "throughput") == 0 ? "mib_per_s"
      : test != NULL && strcmp(test, "latency") == 0  ? "mean_latency_us"
                                                      : "iops";
  int dec = strcmp(metric, "mean_latency_us") == 0   ? HTML_DEC_MS
            : strcmp(metric, "mib_per_s") == 0 ? HTML_DEC_MIBS
                                               : HTML_DEC_IOPS;
  const cJSON* rounds = G(d, "rounds");
  int nr = cJSON_GetArraySize(rounds);
  const cJSON* last = nr > 0 ? cJSON_GetArrayItem(rounds, nr - 1) : NULL;
  char buf[96], mix[16];
  iospd_strbuf_append(out, "<section id=\"pts-matrix\"><h2>");
  iospd_html_text(out, metric_label(metric));
  iospd_strbuf_appendf(out, " of the last round (round %.0f)</h2>\n",
                       NUM(last, "n"));
  if (last == NULL) {
    iospd_html_note(out, "pts-matrix", "No round was finished.");
    iospd_strbuf_append(out, "</section>\n");
    return 0;
  }
  iospd_strbuf_append(out,
                      "<table data-table=\"pts-matrix\"><tr><th>block "
                      "size</th>");
  const cJSON* m;
  cJSON_ArrayForEach(m, mixes) {
    mix_text(mix, sizeof mix, NUM(m, "read_pct"));
    iospd_strbuf_appendf(out, "<th>%s R/W</th>", mix);
  }
  iospd_strbuf_append(out, "</tr>\n");
  const cJSON* b;
  char attrs[96];
  cJSON_ArrayForEach(b, bss) {
    size_text(buf, sizeof buf, b->valuedouble);
    iospd_strbuf_appendf(out, "<tr><th>%s</th>", buf);
    cJSON_ArrayForEach(m, mixes) {
      const cJSON* c =
          cell_of(last, b->valuedouble, NUM(m, "read_pct"), access);
      snprintf(attrs, sizeof attrs, " data-bs=\"%.0f\" data-read=\"%.0f\"",
               b->valuedouble, NUM(m, "read_pct"));
      iospd_html_td_num(out, c != NULL ? metric_of(c, metric) : NAN, dec,
                        attrs);
    }
    iospd_strbuf_append(out, "</tr>\n");
  }
  iospd_strbuf_append(out, "</table>\n");
  size_t nb = (size_t)cJSON_GetArraySize(bss);
  size_t nm = (size_t)cJSON_GetArraySize(mixes);
  if (nm > MAX_LINES) nm = MAX_LINES;
  double* v = iospd_calloc((nm + 1) * (nb ? nb : 1), sizeof *v);
  if (v == NULL) return IOSPD_ENOMEM;
  size_t i = 0;
  cJSON_ArrayForEach(b, bss) v[i++] = b->valuedouble / 1024.0;
  html_series_t s[MAX_LINES];
  size_t k = 0;
  cJSON_ArrayForEach(m, mixes) {
    if (k >= nm) break;
    double* y = v + (1 + k) * nb;
    i = 0;
    cJSON_ArrayForEach(b, bss) {
      const cJSON* c =
          cell_of(last, b->valuedouble, NUM(m, "read_pct"), access);
      y[i++] = c != NULL ? metric_of(c, metric) : NAN;
    }
    mix_text(mix, sizeof mix, NUM(m, "read_pct"));
    snprintf(buf, sizeof buf, "%s R/W", mix);
    series(&s[k], buf, (int)(k % 7), (int)(k / 7) % 3, false, nb, v, y);
    k++;
  }
  snprintf(buf, sizeof buf, "%s by block size (one line per read/write mix)",
           metric_label(metric));
  html_chart_t c = {
      .id = "pts-matrix-plot",
      .title = buf,
      .x_label = "block size (KiB)",
      .y_label = metric_label(metric),
      .x_axis = nb > 1 ? HTML_AXIS_LOG : HTML_AXIS_LINEAR,
      .y_axis = strcmp(metric, "iops") == 0 ? HTML_AXIS_LOG : HTML_AXIS_LINEAR,
      .series = s,
      .series_count = k,
      .plot_attrs = true};
  iospd_html_line_chart(out, &c);
  iospd_free(v);
  iospd_strbuf_append(out, "</section>\n");
  return 0;
}

int iospd_html_pts(const cJSON* pts_doc, iospd_strbuf_t* out,
                   iospd_err_t* err) {
  int rc = check(pts_doc, err);
  if (rc < 0) return rc;
  header(out, pts_doc);
  iospd_strbuf_append(out,
                      "<section id=\"pts-steady\"><h2>Steady state</h2>\n");
  rc = convergence(out, pts_doc);
  window_plot(out, pts_doc);
  window_table(out, pts_doc);
  iospd_strbuf_append(out, "</section>\n");
  if (rc == 0) rc = matrix(out, pts_doc);
  iospd_html_page_end(out);
  if (rc == 0 && out->failed) rc = IOSPD_ENOMEM;
  if (rc < 0) iospd_err_set(err, rc, "out of memory (HTML PTS page)");
  return rc;
}

int iospd_html_pts_text(const char* name, const char* json, size_t len,
                        iospd_strbuf_t* out, iospd_err_t* err) {
  return iospd_html_doc_text(name, json, len, iospd_html_pts, out, err);
}
