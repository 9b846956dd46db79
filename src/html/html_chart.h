/* SPDX-License-Identifier: MIT */
/* Inline SVG charts for the HTML report, drawn here so the page needs no
 * script to show them (and prints as drawn). Private to src/html. Every
 * chart is marked for tests: data-chart on the <figure>, and per series
 * data-series (its legend text) and data-points (the points drawn). */
#ifndef IOSPD_HTML_CHART_H
#define IOSPD_HTML_CHART_H

#include "iospd/strbuf.h"

/* Okabe-Ito, ordered so the first colours contrast best on white. */
enum { HTML_PALETTE_N = 8 };
extern const char* const iospd_html_palette[HTML_PALETTE_N];

typedef struct html_series_s {
  char label[96];
  int color; /* palette index */
  int dash;  /* 0 solid, 1 dashed, 2 dotted */
  bool bold;
  size_t n;
  double* x; /* owned by the caller */
  double* y;
  bool markers; /* a dot at every point (data-x, data-y: its values) */
  bool no_line; /* dots only (with markers) */
} html_series_t;

/* A shaded stretch of x (warm-up, cool-down). */
typedef struct html_span_s {
  double x0, x1;
  const char* label;
} html_span_t;

enum { HTML_AXIS_LINEAR = 0, HTML_AXIS_LOG, HTML_AXIS_NINES };

/* A horizontal line at y (a limit, a mean), labelled at its right end;
 * data-hline=id, data-value=y. */
typedef struct html_hline_s {
  const char* id;
  const char* label;
  double y;
  int color;
  int dash;
} html_hline_t;

/* A shaded band of y from y0 to y1 (data-band=id). */
typedef struct html_band_s {
  const char* id;
  const char* label;
  double y0, y1;
} html_band_t;

/* One point singled out (the knee, the answer): a ring and its label;
 * data-mark=id, data-x, data-y. */
typedef struct html_mark_s {
  const char* id;
  const char* label;
  double x, y;
  int color;
} html_mark_t;

typedef struct html_chart_s {
  const char* id;    /* data-chart */
  const char* title;
  const char* x_label; /* with its unit */
  const char* y_label;
  int x_axis, y_axis;  /* HTML_AXIS_* */
  const html_series_t* series;
  size_t series_count;
  const html_span_t* spans;
  size_t span_count;
  /* Optional; their values widen the y axis (and the marks' the x). */
  const html_hline_t* hlines;
  size_t hline_count;
  const html_band_t* bands;
  size_t band_count;
  const html_mark_t* marks;
  size_t mark_count;
  /* The plot area's pixels and its axes' ends as values (data-plot on a
   * <g>), so a test can place any value: set by every chart that has
   * markers, lines, bands or marks. */
  bool plot_attrs;
} html_chart_t;

/* At most this many points are drawn per series; longer series keep the
 * lowest and highest point of each of HTML_MAX_POINTS / 2 equal stretches
 * of x (a spike survives thinning). */
#define HTML_MAX_POINTS 800

void iospd_html_line_chart(iospd_strbuf_t* out, const html_chart_t* c);

/* Bars, each with one or two stacked parts (e.g. user, kernel). */
typedef struct html_bar_s {
  char label[64];
  double v[2];
} html_bar_t;

typedef struct html_bars_s {
  const char* id;
  const char* title;
  const char* x_label;
  const char* y_label;
  const char* part[2]; /* legend of each part; part[1] NULL: one part */
  const html_bar_t* bars;
  size_t count;
  bool x_log_labels; /* histogram: labels are bucket bounds */
  /* A log y axis from 1 (counts): the parts side by side, not stacked, a
   * bar from 1 up to its value (a count of 1 is a 2-pixel stub, 0 none). */
  bool y_log;
} html_bars_t;

void iospd_html_bar_chart(iospd_strbuf_t* out, const html_bars_t* b);

/* A number for an axis or a table: up to 4 significant digits, no
 * exponent from 1e-6 to 1e15, never locale-dependent. */
void iospd_html_num(char* buf, size_t cap, double v);

/* Text for HTML element content and attribute values. */
void iospd_html_text(iospd_strbuf_t* out, const char* s);

#endif
