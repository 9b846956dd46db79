/* SPDX-License-Identifier: MIT */
/* The HTML report page (iospd/html.h): header, headline numbers, charts,
 * comparison, resolved profile, environment, warnings, and the embedded
 * documents. Everything shown comes from the documents; nothing from the
 * clock, the locale or the platform. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_sections.h"
#include "iospd/alloc.h"
#include "iospd/results_doc.h"

static const char k_style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,"
    "Arial,sans-serif;margin:1.5em auto;max-width:940px;color:#111;"
    "background:#fff;line-height:1.35}"
    "h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.25em;margin:1.4em 0 "
    ".4em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:.4em 0;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.15em .5em;text-align:left;"
    "vertical-align:top}td.n{text-align:right;font-variant-numeric:"
    "tabular-nums}th{background:#f0f0f0}"
    "tr.differs td{background:#fff3c4}td.real{font-weight:bold}"
    ".banner{border:2px solid #D55E00;background:#fde6d8;padding:.6em;"
    "font-weight:bold}.note{font-style:italic;color:#444}"
    "figure{margin:.8em 0;break-inside:avoid}figcaption{font-weight:bold}"
    "svg{max-width:100%;height:auto;font-size:12px}svg text{fill:#111}"
    "svg .grid{stroke:#ddd}svg .frame{fill:none;stroke:#888}"
    "svg .span{fill:#000;fill-opacity:.07}svg .sl{fill:#555}"
    "svg .al{font-size:13px}code,pre{font-size:.9em}"
    "@media print{body{max-width:none}button{display:none}}";

/* Saves an embedded document as a file: inflates it in the browser
 * (DecompressionStream, no network). Without it the data stays in the
 * page (docs/html-report.md shows how to extract it in a shell). */
static const char k_script[] =
    "(function(){'use strict';"
    "var bs=document.querySelectorAll('button[data-save]');"
    "for(var i=0;i<bs.length;i++){bs[i].addEventListener('click',function(e){"
    "var b=e.currentTarget,el=document.getElementById(b.getAttribute("
    "'data-save'));if(!el||typeof DecompressionStream==='undefined')return;"
    "var s=atob(JSON.parse(el.textContent)),u=new Uint8Array(s.length);"
    "for(var k=0;k<s.length;k++)u[k]=s.charCodeAt(k);"
    "new Response(new Blob([u]).stream().pipeThrough(new DecompressionStream("
    "'deflate'))).blob().then(function(x){var a=document.createElement('a');"
    "a.href=URL.createObjectURL(new Blob([x],{type:'application/json'}));"
    "a.download=b.getAttribute('data-file');a.click();});});}"
    "document.documentElement.setAttribute('data-ready','1');})();";

static const char* or_empty(const char* s) { return s != NULL ? s : ""; }

void iospd_html_page_begin(iospd_strbuf_t* out, const char* title) {
  iospd_strbuf_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                           "<meta charset=\"utf-8\"><meta name=\"viewport\" "
                           "content=\"width=device-width, initial-scale=1\">"
                           "<title>");
  iospd_html_text(out, title);
  iospd_strbuf_appendf(out, "</title><style>%s</style></head><body>\n",
                       k_style);
}

void iospd_html_page_end(iospd_strbuf_t* out) {
  iospd_strbuf_appendf(out, "<script>%s</script>\n</body></html>\n",
                       k_script);
}

static void td_text(iospd_strbuf_t* out, const char* s) {
  iospd_strbuf_append(out, "<td>");
  iospd_html_text(out, s != NULL ? s : "");
  iospd_strbuf_append(out, "</td>");
}

/* A value cell: the unit's decimals (HTML_DEC_*), trailing zeros cut. */
static void td_num(iospd_strbuf_t* out, double v, int decimals,
                   const char* attrs) {
  char buf[64];
  if (!isfinite(v)) {
    snprintf(buf, sizeof buf, "-");
  } else {
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (strchr(buf, '.') != NULL) {
      size_t n = strlen(buf);
      while (buf[n - 1] == '0') buf[--n] = '\0';
      if (buf[n - 1] == '.') buf[--n] = '\0';
    }
  }
  iospd_strbuf_appendf(out, "<td class=\"n\"%s>%s</td>", attrs, buf);
}

static const char* const k_dirs[3] = {"read", "write", "total"};

/* Headline numbers: per run, timespan and direction. */
static void headline(iospd_strbuf_t* out, const html_run_t* runs, size_t nr) {
  iospd_strbuf_append(
      out,
      "<section id=\"headline\"><h2>Headline numbers</h2>\n<table "
      "data-table=\"headline\"><tr>");
  if (nr > 1) iospd_strbuf_append(out, "<th>run</th>");
  iospd_strbuf_append(out,
                      "<th>timespan</th><th>direction</th><th>IOPS</th>"
                      "<th>MiB/s</th><th>I/Os</th><th>mean (ms)</th>"
                      "<th>p50 (ms)</th><th>p99 (ms)</th><th>p99.9 (ms)</th>"
                      "<th>max (ms)</th><th>CPU busy (%)</th></tr>\n");
  char attrs[128];
  for (size_t r = 0; r < nr; r++) {
    const cJSON* ts;
    int ti = 0;
    cJSON_ArrayForEach(ts, iospd_json_get(runs[r].doc, "timespans")) {
      const cJSON* tot = iospd_json_get(ts, "total");
      double cpu = iospd_json_num(
          iospd_json_get(iospd_json_get(ts, "cpu"), "average"), "usage_percent");
      for (int d = 0; d < 3; d++) {
        const cJSON* dir = iospd_json_get(tot, k_dirs[d]);
        const cJSON* lat = iospd_json_get(dir, "latency");
        iospd_strbuf_append(out, "<tr>");
        if (nr > 1)
          iospd_strbuf_appendf(out, "<td>%c</td>", (char)('A' + r % 26));
        /* numbered from 1, as DISKSPD numbers timespans */
        iospd_strbuf_appendf(out, "<td class=\"n\">%d</td>", ti + 1);
        td_text(out, k_dirs[d]);
#define CELL(metric, value, dec)                                              \
  snprintf(attrs, sizeof attrs,                                               \
           " data-run=\"%zu\" data-timespan=\"%d\" data-dir=\"%s\" "          \
           "data-metric=\"%s\"",                                              \
           r, ti, k_dirs[d], metric);                                         \
  td_num(out, value, dec, attrs)
        CELL("iops", iospd_json_num(dir, "iops"), HTML_DEC_IOPS);
        CELL("mib_per_s", iospd_json_num(dir, "mib_per_s"), HTML_DEC_MIBS);
        CELL("ios", iospd_json_num(dir, "ios"), 0);
        CELL("mean_ms", iospd_json_num(lat, "mean_ms"), HTML_DEC_MS);
        CELL("p50_ms", iospd_html_pct(lat, "50"), HTML_DEC_MS);
        CELL("p99_ms", iospd_html_pct(lat, "99"), HTML_DEC_MS);
        CELL("p99_9_ms", iospd_html_pct(lat, "99.9"), HTML_DEC_MS);
        CELL("max_ms", iospd_json_num(lat, "max_ms"), HTML_DEC_MS);
#undef CELL
        if (d == 0)
          td_num(out, cpu, HTML_DEC_PCT, " rowspan=\"3\"");
        iospd_strbuf_append(out, "</tr>\n");
      }
      ti++;
    }
  }
  iospd_strbuf_append(out, "</table>\n");
  bool lat = false;
  for (size_t r = 0; r < nr; r++) {
    const cJSON* ts;
    cJSON_ArrayForEach(ts, iospd_json_get(runs[r].doc, "timespans")) {
      lat |= cJSON_IsObject(iospd_json_get(
          iospd_json_get(iospd_json_get(ts, "total"), "total"), "latency"));
    }
  }
  if (!lat)
    iospd_html_note(out, "headline",
                    "Latency was not measured (no -L): the latency columns "
                    "are empty.");
  iospd_strbuf_append(out, "</section>\n");
}

/* A JSON value as short text for a table cell. */
static void value_text(iospd_strbuf_t* out, const cJSON* v) {
  char num[64];
  if (cJSON_IsString(v)) {
    iospd_html_text(out, v->valuestring);
  } else if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (d == floor(d) && fabs(d) < 1e15)
      snprintf(num, sizeof num, "%.0f", d);
    else
      snprintf(num, sizeof num, "%.6g", d);
    iospd_strbuf_append(out, num);
  } else if (cJSON_IsBool(v)) {
    iospd_strbuf_append(out, cJSON_IsTrue(v) ? "true" : "false");
  } else if (cJSON_IsNull(v)) {
    iospd_strbuf_append(out, "null");
  } else if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 0) {
    iospd_strbuf_append(out, "[]");
  }
}

/* Every leaf of a JSON object as "path | value" rows. */
static void flatten(iospd_strbuf_t* out, const cJSON* v, char* path,
                    size_t len, size_t cap) {
  if ((cJSON_IsObject(v) || cJSON_IsArray(v)) && v->child != NULL) {
    int i = 0;
    const cJSON* c;
    cJSON_ArrayForEach(c, v) {
      int k;
      if (cJSON_IsArray(v))
        k = snprintf(path + len, cap - len, "[%d]", i);
      else
        k = snprintf(path + len, cap - len, "%s%s", len ? "." : "",
                     c->string ? c->string : "");
      if (k > 0 && (size_t)k < cap - len)
        flatten(out, c, path, len + (size_t)k, cap);
      path[len] = '\0';
      i++;
    }
    return;
  }
  iospd_strbuf_append(out, "<tr><td><code>");
  iospd_html_text(out, path);
  iospd_strbuf_append(out, "</code></td><td>");
  value_text(out, v);
  iospd_strbuf_append(out, "</td></tr>\n");
}

/* A row of the readable tables: a number shown whole, "-" when absent. */
static void kv_num(iospd_strbuf_t* out, const char* name, double v) {
  char buf[48];
  if (isfinite(v))
    snprintf(buf, sizeof buf, "%.0f", v);
  else
    snprintf(buf, sizeof buf, "-");
  iospd_html_kv(out, name, buf);
}

static void kv_bytes(iospd_strbuf_t* out, const char* name, double v) {
  char buf[64];
  if (!isfinite(v))
    snprintf(buf, sizeof buf, "-");
  else if (v >= 1024.0 * 1024 * 1024)
    snprintf(buf, sizeof buf, "%.1f GiB", v / (1024.0 * 1024 * 1024));
  else if (v >= 1024 && fmod(v, 1024) == 0)
    snprintf(buf, sizeof buf, "%.0fKiB", v / 1024);
  else
    snprintf(buf, sizeof buf, "%.0f bytes", v);
  iospd_html_kv(out, name, buf);
}

/* The system and environment as the text report's "System information"
 * names them, then iospd's build and each target's device. */
static void system_table(iospd_strbuf_t* out, const cJSON* doc, size_t r) {
  const cJSON* sys = iospd_json_get(doc, "system");
  const cJSON* env = iospd_json_get(doc, "environment");
  const cJSON* topo = iospd_json_get(sys, "processor_topology");
  char buf[256];
  iospd_strbuf_appendf(out, "<table data-table=\"system\" data-run=\"%zu\">"
                       "\n", r);
  iospd_html_kv(out, "computer name", iospd_json_str(sys, "computer_name"));
  iospd_html_kv(out, "processor name", iospd_json_str(env, "cpu_model"));
  iospd_html_kv(out, "start time (UTC)", iospd_json_str(sys, "run_time"));
  const char* ps = iospd_json_str(iospd_json_get(sys, "power_scheme"),
                                     "name");
  iospd_html_kv(out, "active power scheme",
                ps != NULL && ps[0] ? ps : "<unknown>");
  kv_bytes(out, "page size", iospd_json_num(sys, "page_size"));
  kv_num(out, "cpu count", iospd_json_num(env, "logical_cpus"));
  kv_num(out, "core count", iospd_json_num(env, "cores"));
  kv_num(out, "group count",
         (double)cJSON_GetArraySize(iospd_json_get(topo, "groups")));
  kv_num(out, "node count", iospd_json_num(env, "numa_nodes"));
  kv_num(out, "socket count", iospd_json_num(env, "sockets"));
  const cJSON* het = iospd_json_get(topo, "heterogeneous");
  iospd_html_kv(out, "heterogeneous cores",
                cJSON_IsBool(het) ? (cJSON_IsTrue(het) ? "y" : "n") : "-");
  kv_bytes(out, "memory", iospd_json_num(env, "memory_bytes"));
  snprintf(buf, sizeof buf, "%s %s", or_empty(iospd_json_str(env, "os_name")),
           or_empty(iospd_json_str(env, "os_release")));
  iospd_html_kv(out, "operating system", buf);
  iospd_html_kv(out, "operating system version",
                iospd_json_str(env, "os_version"));
  iospd_html_kv(out, "architecture", iospd_json_str(env, "arch"));
  iospd_html_kv(out, "I/O engine", iospd_json_str(sys, "io_engine"));
  snprintf(buf, sizeof buf, "%s (%s)",
           or_empty(iospd_json_str(env, "iospd_version")),
           or_empty(iospd_json_str(env, "iospd_commit")));
  iospd_html_kv(out, "iospd version", buf);
  iospd_html_kv(out, "DISKSPD version", iospd_json_str(
                    iospd_json_get(sys, "tool"), "diskspd_version"));
  iospd_html_kv(out, "build", iospd_json_str(env, "build"));
  iospd_strbuf_append(out, "</table>\n");
  const cJSON* tgs = iospd_json_get(env, "targets");
  if (cJSON_GetArraySize(tgs) == 0) return;
  iospd_strbuf_appendf(out, "<table data-table=\"target-devices\" "
                       "data-run=\"%zu\"><tr><th>path</th><th>file system"
                       "</th><th>device</th><th>model</th><th>firmware</th>"
                       "<th>bus</th><th>rotational</th><th>scheduler</th>"
                       "<th>queue depth</th><th>cache</th></tr>\n", r);
  const cJSON* t;
  cJSON_ArrayForEach(t, tgs) {
    iospd_strbuf_append(out, "<tr>");
    td_text(out, iospd_json_str(t, "path"));
    td_text(out, iospd_json_str(t, "fs_type"));
    td_text(out, iospd_json_str(t, "device"));
    td_text(out, iospd_json_str(t, "model"));
    td_text(out, iospd_json_str(t, "firmware"));
    td_text(out, iospd_json_str(t, "bus"));
    const cJSON* rot = iospd_json_get(t, "rotational");
    td_text(out, cJSON_IsBool(rot) ? (cJSON_IsTrue(rot) ? "yes" : "no") : "-");
    td_text(out, iospd_json_str(t, "scheduler"));
    iospd_html_td_num(out, iospd_json_num(t, "queue_depth"), 0, NULL);
    td_text(out, iospd_json_str(t, "cache"));
    iospd_strbuf_append(out, "</tr>\n");
  }
  iospd_strbuf_append(out, "</table>\n");
}

static void key_table(iospd_strbuf_t* out, const char* id, const char* title,
                      const html_run_t* runs, size_t nr, const char* key,
                      const char* key2) {
  iospd_strbuf_appendf(out, "<section id=\"%s\"><h2>%s</h2>\n", id, title);
  char path[512];
  for (size_t r = 0; r < nr; r++) {
    if (nr > 1)
      iospd_strbuf_appendf(out, "<h3>run %c</h3>\n", (char)('A' + r % 26));
    /* The profile as -Rptext shows it, when the results carry it (iospd
     * writes "profile_text" since the HTML report exists); every key of
     * the JSON profile follows in the table. */
    const char* text = strcmp(key, "profile") == 0
                           ? iospd_json_str(runs[r].doc, "profile_text")
                           : NULL;
    if (text != NULL) {
      iospd_strbuf_appendf(out, "<pre data-profile-text=\"%zu\">", r);
      iospd_html_text(out, text);
      iospd_strbuf_append(out, "</pre>\n");
    }
    if (strcmp(key, "system") == 0) system_table(out, runs[r].doc, r);
    /* Every key as the JSON holds it, folded away: the readable form is
     * above (issue #31). */
    iospd_strbuf_appendf(out, "<details><summary>every %s key as the JSON "
                         "holds it</summary>\n", id);
    iospd_strbuf_appendf(out, "<table data-table=\"%s\" data-run=\"%zu\">"
                         "<tr><th>setting</th><th>value</th></tr>\n", id, r);
    const char* keys[2] = {key, key2};
    for (int k = 0; k < 2; k++) {
      if (keys[k] == NULL) continue;
      snprintf(path, sizeof path, "%s", keys[k]);
      flatten(out, iospd_json_get(runs[r].doc, keys[k]), path, strlen(path),
              sizeof path);
    }
    iospd_strbuf_append(out, "</table>\n</details>\n");
  }
  iospd_strbuf_append(out, "</section>\n");
}

static void warnings(iospd_strbuf_t* out, const html_run_t* runs, size_t nr) {
  iospd_strbuf_append(out, "<section id=\"warnings\"><h2>Warnings</h2>\n"
                           "<ul data-list=\"warnings\">\n");
  size_t count = 0;
  for (size_t r = 0; r < nr; r++) {
    const cJSON* w;
    cJSON_ArrayForEach(w, iospd_json_get(runs[r].doc, "warnings")) {
      if (!cJSON_IsString(w)) continue;
      iospd_strbuf_append(out, "<li>");
      if (nr > 1) iospd_strbuf_appendf(out, "run %c: ", (char)('A' + r % 26));
      iospd_html_text(out, w->valuestring);
      iospd_strbuf_append(out, "</li>\n");
      count++;
    }
    const cJSON* ts;
    cJSON_ArrayForEach(ts, iospd_json_get(runs[r].doc, "timespans")) {
      const char* e = iospd_json_str(ts, "error");
      if (e == NULL) continue;
      iospd_strbuf_append(out, "<li>");
      if (nr > 1) iospd_strbuf_appendf(out, "run %c: ", (char)('A' + r % 26));
      iospd_strbuf_append(out, "timespan error: ");
      iospd_html_text(out, e);
      iospd_strbuf_append(out, "</li>\n");
      count++;
    }
    double dropped = iospd_json_num(runs[r].doc,
                                       "timeseries_dropped_intervals");
    if (dropped > 0) {
      iospd_strbuf_append(out, "<li>");
      if (nr > 1) iospd_strbuf_appendf(out, "run %c: ", (char)('A' + r % 26));
      iospd_strbuf_appendf(out, "%.0f intervals are missing from the time "
                           "series (the memory kept for it was full)</li>\n",
                           dropped);
      count++;
    }
  }
  iospd_strbuf_append(out, "</ul>\n");
  if (count == 0)
    iospd_strbuf_append(out, "<p data-note=\"warnings\">No warnings.</p>\n");
  iospd_strbuf_append(out, "</section>\n");
}

/* All embedded data together stays under this (base64 bytes), so that a
 * report is at most 1 MiB with its charts. */
#define HTML_EMBED_BUDGET ((size_t)560 << 10)

static int embedded(iospd_strbuf_t* out, const iospd_html_input_t* in,
                    const html_run_t* runs, size_t nr) {
  iospd_strbuf_append(out, "<section id=\"data\"><h2>Data</h2>\n<p>This page "
                           "holds the results it was drawn from "
                           "(docs/html-report.md says how to extract them).</p>\n");
  char file[48];
  for (size_t r = 0; r < nr; r++) {
    bool slim = false;
    iospd_strbuf_t el;
    iospd_strbuf_init(&el);
    int rc = iospd_html_embed_run(&el, &in[r], &runs[r], r,
                                  HTML_EMBED_BUDGET / nr, &slim);
    if (rc < 0) {
      iospd_strbuf_destroy(&el);
      return rc;
    }
    if (nr > 1) iospd_strbuf_appendf(out, "<h3>run %c</h3>\n", (char)('A' + r % 26));
    if (slim)
      iospd_html_note(out, "data",
                      "These results are too large to embed whole: the page "
                      "holds them without their per-interval lists, and the "
                      "time series as columns (every interval's I/Os and "
                      "bytes per target, the total's latency percentiles). "
                      "The complete results stay in the JSON file.");
    snprintf(file, sizeof file, "run-%c.json", (char)('A' + r % 26));
    iospd_strbuf_appendf(out, "<button type=\"button\" data-save=\"iospd-"
                         "results-%zu\" data-file=\"%s\">Save %s</button>\n",
                         r, file, file);
    if (in[r].jsonl != NULL || (slim && iospd_html_has_rows(&runs[r]))) {
      snprintf(file, sizeof file, "run-%c%s", (char)('A' + r % 26),
               slim ? "-columns.json" : ".jsonl");
      iospd_strbuf_appendf(out, "<button type=\"button\" data-save=\"iospd-"
                           "timeseries-%zu\" data-file=\"%s\">Save %s"
                           "</button>\n", r, file, file);
    }
    iospd_strbuf_append_n(out, iospd_strbuf_cstr(&el), el.len);
    iospd_strbuf_destroy(&el);
  }
  iospd_strbuf_append(out, "</section>\n");
  return 0;
}

static void header(iospd_strbuf_t* out, const html_run_t* runs, size_t nr) {
  const cJSON* sys = iospd_json_get(runs[0].doc, "system");
  iospd_strbuf_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                           "<meta charset=\"utf-8\"><meta name=\"viewport\" "
                           "content=\"width=device-width, initial-scale=1\">"
                           "<title>iospd report");
  if (nr == 1) {
    iospd_strbuf_append(out, ": ");
    iospd_html_text(out, or_empty(iospd_json_str(sys, "computer_name")));
    iospd_strbuf_append(out, " ");
    iospd_html_text(out, or_empty(iospd_json_str(sys, "run_time")));
  } else {
    iospd_strbuf_appendf(out, ": comparison of %zu runs", nr);
  }
  iospd_strbuf_appendf(out, "</title><style>%s</style></head><body>\n",
                       k_style);
}

static void runs_table(iospd_strbuf_t* out, const html_run_t* runs,
                       size_t nr) {
  iospd_strbuf_append(out, "<table data-table=\"runs\"><tr>");
  if (nr > 1) iospd_strbuf_append(out, "<th>run</th><th>file</th>");
  iospd_strbuf_append(out, "<th>computer</th><th>started (UTC)</th>"
                           "<th>iospd</th><th>command line</th></tr>\n");
  for (size_t r = 0; r < nr; r++) {
    const cJSON* sys = iospd_json_get(runs[r].doc, "system");
    const cJSON* env = iospd_json_get(runs[r].doc, "environment");
    iospd_strbuf_append(out, "<tr>");
    if (nr > 1) {
      iospd_strbuf_appendf(out, "<td>%c</td>", (char)('A' + r % 26));
      td_text(out, runs[r].name);
    }
    td_text(out, iospd_json_str(sys, "computer_name"));
    td_text(out, iospd_json_str(sys, "run_time"));
    td_text(out, iospd_json_str(env, "iospd_version"));
    iospd_strbuf_append(out, "<td><code>");
    iospd_html_text(out, or_empty(iospd_json_str(
                             iospd_json_get(env, "command_line"), "joined")));
    iospd_strbuf_append(out, "</code></td></tr>\n");
  }
  iospd_strbuf_append(out, "</table>\n");
}

/* The page of n loaded runs. */
static int page(const iospd_html_input_t* in, html_run_t* runs, size_t n,
                bool force, iospd_strbuf_t* out, iospd_err_t* err) {
  iospd_strbuf_t banner, cmp;
  iospd_strbuf_init(&banner);
  iospd_strbuf_init(&cmp);
  int rc = 0;
  if (n > 1) rc = iospd_html_compare(&banner, &cmp, runs, n, force, err);
  if (rc == 0) {
    header(out, runs, n);
    iospd_strbuf_append_n(out, iospd_strbuf_cstr(&banner), banner.len);
    iospd_strbuf_append(out, "<h1>iospd report</h1>\n");
    runs_table(out, runs, n);
    headline(out, runs, n);
    iospd_html_cost(out, runs, n);
    iospd_strbuf_append_n(out, iospd_strbuf_cstr(&cmp), cmp.len);
    iospd_html_charts(out, runs, n);
    key_table(out, "profile", "Resolved profile (input parameters)", runs, n,
              "profile", NULL);
    key_table(out, "environment", "System information", runs, n, "system",
              "environment");
    warnings(out, runs, n);
    rc = embedded(out, in, runs, n);
    if (rc < 0) iospd_err_set(err, rc, "out of memory");
    iospd_strbuf_appendf(out, "<script>%s</script>\n</body></html>\n",
                         k_script);
    if (rc == 0 && out->failed)
      rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory (HTML report)");
  }
  iospd_strbuf_destroy(&banner);
  iospd_strbuf_destroy(&cmp);
  return rc;
}

/* Two curve documents overlaid. */
static int curves_page(const iospd_html_input_t* in, iospd_strbuf_t* out,
                       iospd_err_t* err) {
  cJSON* d[2];
  int rc = 0;
  for (int k = 0; k < 2; k++) {
    d[k] = cJSON_ParseWithLength(in[k].json, in[k].json_len);
    if (d[k] == NULL && rc == 0)
      rc = iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--report): not JSON, although it starts as an "
                         "iospd-curve document (a cut-off or damaged file?)",
                         in[k].name);
  }
  if (rc == 0)
    rc = iospd_html_curve_compare(d[0], d[1], in[0].name, in[1].name, out,
                                  err);
  cJSON_Delete(d[0]);
  cJSON_Delete(d[1]);
  return rc;
}

/* A curve or PTS document: its own page, alone. */
static int other_page(const iospd_html_input_t* in, size_t n, size_t at,
                      bool pts, iospd_strbuf_t* out, iospd_err_t* err) {
  const char* kind = pts ? "iospd-pts" : "iospd-curve";
  char word[64];
  if (!pts && n == 2 && in[0].jsonl == NULL && in[1].jsonl == NULL &&
      iospd_results_doc_format(in[1 - at].json, in[1 - at].json_len, word,
                               sizeof word) &&
      strcmp(word, "iospd-curve") == 0)
    return curves_page(in, out, err);
  if (n > 1 || in[at].jsonl != NULL)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--report): an %s document gets a page of its "
                         "own: give it to --report alone%s",
                         in[at].name, kind,
                         pts ? "" : " (or with one other curve, to "
                                    "overlay them)");
  cJSON* d = cJSON_ParseWithLength(in[at].json, in[at].json_len);
  if (d == NULL)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--report): not JSON, although it starts as an "
                         "%s document (a cut-off or damaged file?)",
                         in[at].name, kind);
  int rc = pts ? iospd_html_pts(d, out, err) : iospd_html_curve(d, out, err);
  cJSON_Delete(d);
  if (rc == IOSPD_EUSAGE) {
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    iospd_err_set(err, rc, "'%s' (--report): %s", in[at].name, msg);
  }
  return rc;
}

int iospd_html_report(const iospd_html_input_t* in, size_t n,
                      const iospd_html_opts_t* opts, iospd_strbuf_t* out,
                      iospd_err_t* err) {
  if (n == 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--report: give at least one -Rjson results file");
  /* The page follows the documents' "format": results (one or more runs),
   * or one curve or PTS document. */
  for (size_t i = 0; i < n; i++) {
    char word[64];
    if (!iospd_results_doc_format(in[i].json, in[i].json_len, word,
                                   sizeof word))
      continue;
    if (strcmp(word, "iospd-curve") == 0 || strcmp(word, "iospd-pts") == 0)
      return other_page(in, n, i, word[6] == 'p', out, err);
    if (strcmp(word, "iospd-results") != 0)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s' (--report): a \"format\": \"%s\" document; "
                           "--report reads iospd-results (-Rjson), "
                           "iospd-curve (--curve) and iospd-pts (--pts) "
                           "documents",
                           in[i].name, word);
  }
  html_run_t* runs = iospd_calloc(n, sizeof *runs);
  if (runs == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = iospd_html_run_load(&in[i], &runs[i], err);
  if (rc == 0) rc = page(in, runs, n, opts != NULL && opts->force, out, err);
  for (size_t i = 0; i < n; i++) iospd_html_run_free(&runs[i]);
  iospd_free(runs);
  return rc;
}

int iospd_html_report_run(const iospd_html_run_input_t* in,
                          iospd_strbuf_t* out, iospd_err_t* err) {
  html_run_t run;
  iospd_html_input_t named = {.name = in->name};
  int rc = iospd_html_run_load_live(in, &run, err);
  if (rc == 0) rc = page(&named, &run, 1, false, out, err);
  iospd_html_run_free(&run);
  return rc;
}
