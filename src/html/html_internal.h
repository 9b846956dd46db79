/* SPDX-License-Identifier: MIT */
/* What the HTML report's files share. Private to src/html. */
#ifndef IOSPD_HTML_INTERNAL_H
#define IOSPD_HTML_INTERNAL_H

#include <cJSON.h>

#include "html_chart.h"
#include "iospd/error.h"
#include "iospd/html.h"
#include "iospd/json_read.h"
#include "iospd/strbuf.h"

/* Rows naming a target index from this on are left out (a bound on what
 * a crafted file can make the report allocate; iospd runs have far fewer). */
#define HTML_MAX_TARGETS 4096

/* The time series of timespan 0 of one run, as the charts use it. */
typedef struct html_ts_s {
  size_t n;      /* intervals */
  double* x;     /* middle of each interval, s from the start of measuring */
  uint32_t targets;
  /* [t][d]: t < targets a target, t == targets the total; d 0 read,
   * 1 write, 2 total. */
  double** iops;
  double** mibs;
  /* Of the total row: [d][k], k 0 p50, 1 p99, 2 p99.9; NaN: no I/O. */
  double* lat[3][3];
  bool has_lat;
  bool has_dir[2]; /* a read (write) I/O somewhere in the series */
  bool has_warm, has_cool;
  double warm0, warm1, cool0, cool1;
} html_ts_t;

typedef struct html_run_s {
  const char* name;
  cJSON* doc;        /* owned; a .jsonl given with it is its "timeseries" */
  const cJSON* rows; /* doc's "timeseries" rows, or NULL */
  /* A run reported as it ends (iospd_html_report_run): doc is its slim
   * document; the rows are the kept .jsonl text (rows_text, NULL: none),
   * read one at a time; the whole document is written again by doc_fn
   * when the page embeds it, never held. */
  const char* rows_text;
  size_t rows_len;
  iospd_html_doc_fn doc_fn;
  void* doc_ctx;
  html_ts_t ts;
} html_run_t;

/* The time-series rows of a run one by one, wherever they are kept. */
typedef struct html_row_it_s {
  const html_run_t* run;
  const cJSON* next; /* in run->rows */
  size_t at;         /* in run->rows_text */
  cJSON* parsed;     /* the row last returned from the text */
} html_row_it_t;

/* Whether the run has a "timeseries" (perhaps empty). */
bool iospd_html_has_rows(const html_run_t* r);
void iospd_html_rows_begin(html_row_it_t* it, const html_run_t* r);
/* The next row (valid until the next call), NULL after the last; a line
 * of the text that is not JSON is returned as an empty object (a row
 * every reader leaves out). */
const cJSON* iospd_html_rows_next(html_row_it_t* it);
void iospd_html_rows_end(html_row_it_t* it);

/* A row's target: its index, HTML_MAX_TARGETS for "total", -1 for a row
 * to leave out. */
long iospd_html_row_target(const cJSON* row);

/* Parses and checks input i (exit-3 style messages naming the file). */
int iospd_html_run_load(const iospd_html_input_t* in, html_run_t* r,
                        iospd_err_t* err);
/* The run of iospd_html_report_run: its slim document written and parsed,
 * its rows attached. */
int iospd_html_run_load_live(const iospd_html_run_input_t* in, html_run_t* r,
                             iospd_err_t* err);
void iospd_html_run_free(html_run_t* r);

/* Deflates and embeds data as a JSON string in a <script> element. */
int iospd_html_embed(iospd_strbuf_t* out, const char* id, const char* kind,
                     const char* data, size_t len);

/* Embeds run r's documents (ids iospd-results-R, iospd-timeseries-R): as
 * given when they deflate to at most budget bytes of base64, else slimmed
 * (*slim true; html_embed.c says what is left out). */
int iospd_html_embed_run(iospd_strbuf_t* out, const iospd_html_input_t* in,
                         const html_run_t* run, size_t r, size_t budget,
                         bool* slim);

/* The curve and PTS pages' document (html_doc.c): IOSPD_EUSAGE "not an
 * iospd <kind> document: <what>"; the "format" and "format_version" check
 * (mode: the switch that writes such a document); a page drawn from the
 * document's bytes, its usage errors prefixed with 'name'. */
int iospd_html_doc_bad(iospd_err_t* err, const char* kind, const char* what);
int iospd_html_doc_check(const cJSON* d, const char* format, const char* kind,
                         const char* mode, iospd_err_t* err);
typedef int (*iospd_html_page_fn)(const cJSON* doc, iospd_strbuf_t* out,
                                  iospd_err_t* err);
int iospd_html_doc_text(const char* name, const char* json, size_t len,
                        iospd_html_page_fn page, iospd_strbuf_t* out,
                        iospd_err_t* err);

/* Member lookups: iospd/json_read.h. The ms of percentile label p ("99", "99.9") in a latency object. */
double iospd_html_pct(const cJSON* latency, const char* label);

#endif
