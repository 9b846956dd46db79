/* SPDX-License-Identifier: MIT */
/* The one-file HTML report (--output=html:FILE at the end of a run, and
 * iospd --report a.json [b.json ...] later): charts drawn as inline SVG,
 * tables, and the documents it was made from embedded, from one or more
 * -Rjson results documents. docs/html-report.md describes the page.
 *
 * The core never opens files: the caller hands in each document's name and
 * text. The page depends only on that text (never on the clock, the
 * locale or the platform), so a run's report and the report of its saved
 * JSON are the same bytes, on Windows as on Linux. */
#ifndef IOSPD_HTML_H
#define IOSPD_HTML_H

#include "iospd/error.h"
#include "iospd/json_write.h"
#include "iospd/strbuf.h"

typedef struct iospd_html_input_s {
  const char* name;  /* as the user typed it (messages, comparison) */
  const char* json;  /* the results document's bytes */
  size_t json_len;
  /* Optional: a .jsonl time series (--timeseries) of the same run, used
   * instead of the document's own "timeseries" rows. */
  const char* jsonl_name;
  const char* jsonl;
  size_t jsonl_len;
} iospd_html_input_t;

typedef struct iospd_html_opts_s {
  bool force; /* compare runs of different profiles (a banner says so) */
} iospd_html_opts_t;

/* Appends the page for n >= 1 runs to out (n >= 2: overlaid, with the
 * comparison table against the first). Returns 0; IOSPD_EUSAGE (bad
 * input: err names the file and what is wrong; runs of different profiles
 * without force) or IOSPD_ENOMEM. On error out may hold part of a page:
 * the caller must not write it anywhere. */
int iospd_html_report(const iospd_html_input_t* in, size_t n,
                      const iospd_html_opts_t* opts, iospd_strbuf_t* out,
                      iospd_err_t* err);

/* The document of a run that has just ended, written on demand into sink
 * (slim as iospd_report_json_write in iospd/report.h): 0 or the sink's
 * failure. */
typedef int (*iospd_html_doc_fn)(void* ctx, iospd_sink_t* sink, bool slim);

typedef struct iospd_html_run_input_s {
  const char* name;
  iospd_html_doc_fn doc;
  void* ctx;
  /* The time series kept in memory (.jsonl rows, one per line: the
   * document's "timeseries"), or NULL when the document has none. */
  const char* rows;
  size_t rows_len;
} iospd_html_run_input_t;

/* The page of one run as iospd_html_report makes it from the run's
 * document (the same bytes), without holding that document: the page
 * reads its numbers from the slim document and its charts from the rows
 * one at a time, and embeds the whole document only when it deflates
 * into the page's budget (deflated as it is written, and given up as soon
 * as it passes). Memory: the slim document, the rows already kept, and
 * the page (at most about 1 MiB). */
int iospd_html_report_run(const iospd_html_run_input_t* in,
                          iospd_strbuf_t* out, iospd_err_t* err);

/* The pages of the two other documents iospd writes (docs/html-report.md,
 * "Curve page" and "PTS page"): each renders a whole self-contained page,
 * in the report's style and charts, from the parsed document, and depends
 * only on it. They return 0; IOSPD_EUSAGE when doc is not that document
 * (err says what is wrong, without a file name: the caller adds it) or
 * IOSPD_ENOMEM. On error out may hold part of a page. */
struct cJSON;

/* An "iospd-curve" document (--curve; docs/curve.md): the hockey stick
 * (IOPS against the limit's latency, the limit as a line, the knee and the
 * answer marked), throughput and p99 against the axis, the verdict, the
 * knee/answer/cap table, Little's law and the point table. */
int iospd_html_curve(const struct cJSON* curve_doc, iospd_strbuf_t* out,
                     iospd_err_t* err);

/* An "iospd-pts" document (--pts; docs/pts.md): the header, the
 * convergence plot, the measurement-window plot (mean, +-10 % and +-20 %
 * bands, the fitted line), the window table, the matrix table of the last
 * round and its 2D plot. */
int iospd_html_pts(const struct cJSON* pts_doc, iospd_strbuf_t* out,
                   iospd_err_t* err);

/* Two curve documents overlaid (iospd --report a-curve.json b-curve.json):
 * both hockey sticks, throughput and p99 against the axis, the point-by-
 * point table of iospd --compare (IOPS and p99, B over A) and both
 * verdicts; the names label the runs. IOSPD_EUSAGE names the document
 * that is not a curve. */
int iospd_html_curve_compare(const struct cJSON* a, const struct cJSON* b,
                             const char* name_a, const char* name_b,
                             iospd_strbuf_t* out, iospd_err_t* err);

/* The same from the document's bytes (parsed here; a parse error or
 * another "format" is IOSPD_EUSAGE naming `name`). */
int iospd_html_curve_text(const char* name, const char* json, size_t len,
                          iospd_strbuf_t* out, iospd_err_t* err);
int iospd_html_pts_text(const char* name, const char* json, size_t len,
                        iospd_strbuf_t* out, iospd_err_t* err);

#endif
