/* SPDX-License-Identifier: MIT */
/* The runs of a report: each document parsed and checked by the shared
 * loader (iospd/results_doc.h), with a .jsonl given after it attached as
 * its "timeseries" rows, and those rows turned into the arrays the charts
 * draw. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_internal.h"
#include "iospd/alloc.h"
#include "iospd/results_doc.h"

double iospd_html_pct(const cJSON* latency, const char* label) {
  const cJSON* e;
  cJSON_ArrayForEach(e, iospd_json_get(latency, "percentiles")) {
    const char* l = iospd_json_str(e, "percentile");
    if (l != NULL && strcmp(l, label) == 0) return iospd_json_num(e, "ms");
  }
  return NAN;
}

long iospd_html_row_target(const cJSON* row) {
  const cJSON* t = iospd_json_get(row, "target");
  if (cJSON_IsString(t) && strcmp(t->valuestring, "total") == 0)
    return HTML_MAX_TARGETS;
  if (cJSON_IsNumber(t) && t->valuedouble >= 0 &&
      t->valuedouble < HTML_MAX_TARGETS && t->valuedouble == (long)t->valuedouble)
    return (long)t->valuedouble;
  return -1;
}

bool iospd_html_has_rows(const html_run_t* r) {
  return r->rows != NULL || r->rows_text != NULL;
}

void iospd_html_rows_begin(html_row_it_t* it, const html_run_t* r) {
  memset(it, 0, sizeof *it);
  it->run = r;
  it->next = r->rows != NULL ? r->rows->child : NULL;
}

const cJSON* iospd_html_rows_next(html_row_it_t* it) {
  static const cJSON k_empty = {.type = cJSON_Object};
  const html_run_t* r = it->run;
  if (r->rows != NULL) {
    const cJSON* row = it->next;
    if (row != NULL) it->next = row->next;
    return row;
  }
  cJSON_Delete(it->parsed);
  it->parsed = NULL;
  /* As the document's "timeseries" holds them: one row per non-empty
   * line (report_json.c). */
  while (r->rows_text != NULL && it->at < r->rows_len) {
    const char* s = r->rows_text + it->at;
    const char* nl = memchr(s, '\n', r->rows_len - it->at);
    size_t n = nl != NULL ? (size_t)(nl - s) : r->rows_len - it->at;
    it->at += n + 1;
    if (n == 0) continue;
    it->parsed = cJSON_ParseWithLength(s, n);
    return it->parsed != NULL ? it->parsed : &k_empty;
  }
  return NULL;
}

void iospd_html_rows_end(html_row_it_t* it) {
  cJSON_Delete(it->parsed);
  it->parsed = NULL;
}

static double* dbl_array(size_t n) {
  double* a = iospd_calloc(n ? n : 1, sizeof *a);
  for (size_t i = 0; a != NULL && i < n; i++) a[i] = NAN;
  return a;
}

static void ts_free(html_ts_t* ts) {
  for (uint32_t t = 0; ts->iops != NULL && t <= ts->targets; t++)
    iospd_free(ts->iops[t]);
  for (uint32_t t = 0; ts->mibs != NULL && t <= ts->targets; t++)
    iospd_free(ts->mibs[t]);
  iospd_free(ts->iops);
  iospd_free(ts->mibs);
  for (int d = 0; d < 3; d++)
    for (int k = 0; k < 3; k++) iospd_free(ts->lat[d][k]);
  iospd_free(ts->x);
  memset(ts, 0, sizeof *ts);
}

static const char* const k_dirs[3] = {"read", "write", "total"};
static const char* const k_lat[3] = {"p50", "p99", "p99_9"};

/* Rows of timespan 0 -> arrays; intervals are runs of rows with the same
 * start_ms and end_ms. */
static int ts_build(const html_run_t* run, html_ts_t* ts) {
  memset(ts, 0, sizeof *ts);
  size_t n = 0;
  double last0 = NAN, last1 = NAN;
  uint32_t targets = 0;
  const cJSON* row;
  html_row_it_t it;
  iospd_html_rows_begin(&it, run);
  while ((row = iospd_html_rows_next(&it)) != NULL) {
    long t = iospd_html_row_target(row);
    if (iospd_json_num(row, "timespan") != 0 || t < 0) continue;
    double a = iospd_json_num(row, "start_ms");
    double b = iospd_json_num(row, "end_ms");
    if (n == 0 || a != last0 || b != last1) n++;
    last0 = a;
    last1 = b;
    if (t < HTML_MAX_TARGETS && (uint32_t)t + 1 > targets)
      targets = (uint32_t)t + 1;
  }
  iospd_html_rows_end(&it);
  if (n == 0) return 0;
  ts->n = n;
  ts->targets = targets;
  ts->x = dbl_array(n);
  ts->iops = iospd_calloc(targets + 1, sizeof *ts->iops);
  ts->mibs = iospd_calloc(targets + 1, sizeof *ts->mibs);
  if (ts->x == NULL || ts->iops == NULL || ts->mibs == NULL) goto nomem;
  for (uint32_t t = 0; t <= targets; t++) {
    ts->iops[t] = dbl_array(3 * n);
    ts->mibs[t] = dbl_array(3 * n);
    if (ts->iops[t] == NULL || ts->mibs[t] == NULL) goto nomem;
  }
  for (int d = 0; d < 3; d++)
    for (int k = 0; k < 3; k++)
      if ((ts->lat[d][k] = dbl_array(n)) == NULL) goto nomem;
  size_t i = (size_t)-1;
  last0 = last1 = NAN;
  iospd_html_rows_begin(&it, run);
  while ((row = iospd_html_rows_next(&it)) != NULL) {
    long tr = iospd_html_row_target(row);
    if (iospd_json_num(row, "timespan") != 0 || tr < 0) continue;
    double a = iospd_json_num(row, "start_ms");
    double b = iospd_json_num(row, "end_ms");
    if (i == (size_t)-1 || a != last0 || b != last1) i++;
    last0 = a;
    last1 = b;
    ts->x[i] = (a + b) / 2000.0;
    const char* phase = iospd_json_str(row, "phase");
    if (phase != NULL && strcmp(phase, "warm-up") == 0) {
      if (!ts->has_warm || a / 1000 < ts->warm0) ts->warm0 = a / 1000;
      if (!ts->has_warm || b / 1000 > ts->warm1) ts->warm1 = b / 1000;
      ts->has_warm = true;
    } else if (phase != NULL && strcmp(phase, "cool-down") == 0) {
      if (!ts->has_cool || a / 1000 < ts->cool0) ts->cool0 = a / 1000;
      if (!ts->has_cool || b / 1000 > ts->cool1) ts->cool1 = b / 1000;
      ts->has_cool = true;
    }
    uint32_t t = tr == HTML_MAX_TARGETS ? targets : (uint32_t)tr;
    for (int d = 0; d < 3; d++) {
      const cJSON* dir = iospd_json_get(row, k_dirs[d]);
      ts->iops[t][d * n + i] = iospd_json_num(dir, "iops");
      ts->mibs[t][d * n + i] = iospd_json_num(dir, "mib_s");
      if (d < 2 && iospd_json_num(dir, "ios") > 0) ts->has_dir[d] = true;
      if (t != targets) continue;
      const cJSON* lat = iospd_json_get(dir, "lat_ms");
      if (lat != NULL) ts->has_lat = true;
      for (int k = 0; k < 3; k++)
        ts->lat[d][k][i] = iospd_json_num(lat, k_lat[k]);
    }
  }
  iospd_html_rows_end(&it);
  return 0;
nomem:
  iospd_html_rows_end(&it);
  ts_free(ts);
  return IOSPD_ENOMEM;
}

int iospd_html_run_load(const iospd_html_input_t* in, html_run_t* r,
                        iospd_err_t* err) {
  memset(r, 0, sizeof *r);
  r->name = in->name;
  int rc = iospd_results_doc_parse(in->name, in->json, in->json_len,
                                   "--report", &r->doc, err);
  if (rc < 0) return rc;
  if (in->jsonl != NULL &&
      (rc = iospd_results_doc_add_timeseries(r->doc, in->jsonl_name,
                                             in->jsonl, in->jsonl_len,
                                             "--report", err)) < 0)
    return rc;
  const cJSON* rows = iospd_json_get(r->doc, "timeseries");
  if (rows != NULL && !cJSON_IsArray(rows))
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--report): \"timeseries\" is not an array "
                         "of time-series rows",
                         in->name);
  r->rows = rows;
  if (ts_build(r, &r->ts) < 0)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  return 0;
}

int iospd_html_run_load_live(const iospd_html_run_input_t* in, html_run_t* r,
                             iospd_err_t* err) {
  memset(r, 0, sizeof *r);
  r->name = in->name;
  r->doc_fn = in->doc;
  r->doc_ctx = in->ctx;
  r->rows_text = in->rows;
  r->rows_len = in->rows_len;
  iospd_strbuf_t slim;
  iospd_strbuf_init(&slim);
  iospd_sink_t sink;
  iospd_sink_to_strbuf(&sink, &slim);
  int rc = in->doc(in->ctx, &sink, true);
  if (rc == 0 && slim.failed) rc = IOSPD_ENOMEM;
  if (rc < 0)
    iospd_err_set(err, rc, "the results could not be written (%s)",
                  iospd_strerror(rc));
  else
    rc = iospd_results_doc_parse(in->name, iospd_strbuf_cstr(&slim), slim.len,
                                 "--output=html", &r->doc, err);
  iospd_strbuf_destroy(&slim);
  if (rc < 0) return rc;
  if (ts_build(r, &r->ts) < 0)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  return 0;
}

void iospd_html_run_free(html_run_t* r) {
  ts_free(&r->ts);
  cJSON_Delete(r->doc);
  memset(r, 0, sizeof *r);
}
