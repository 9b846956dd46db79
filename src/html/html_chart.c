/* SPDX-License-Identifier: MIT */
/* Inline SVG line and bar charts (html_chart.h). Coordinates are printed
 * with one decimal and every step that picks ticks multiplies or divides
 * by exact factors, so the same data gives the same bytes on every
 * platform. */
#include "html_chart.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char* const iospd_html_palette[HTML_PALETTE_N] = {
    "#0072B2", "#D55E00", "#009E73", "#E69F00",
    "#56B4E9", "#CC79A7", "#F0E442", "#000000"};

static const char* const k_dash[] = {"", "6 4", "2 3"};

/* Every loop that walks powers of ten stops after this many steps: more
 * than the decades a double spans (1e-324 .. 1e308), so a value that is 0,
 * denormal or near DBL_MAX ends the walk instead of spinning on it. */
enum { DECADES_MAX = 700 };

/* Plot area inside the SVG. */
enum { W = 880, PL = 72, PR = W - 24, PT = 34, PB = 274, LEG_COLS = 3 };

void iospd_html_text(iospd_strbuf_t* out, const char* s) {
  for (const unsigned char* p = (const unsigned char*)s; *p; p++) {
    switch (*p) {
      case '&': iospd_strbuf_append(out, "&amp;"); break;
      case '<': iospd_strbuf_append(out, "&lt;"); break;
      case '>': iospd_strbuf_append(out, "&gt;"); break;
      case '"': iospd_strbuf_append(out, "&quot;"); break;
      case '\'': iospd_strbuf_append(out, "&#39;"); break;
      default:
        /* Tabs and line ends stay (the profile text is a <pre>). */
        iospd_strbuf_putc(out, *p < 0x20 && *p != '\t' && *p != '\n'
                                   ? '?'
                                   : (char)*p);
    }
  }
}

/* v with at most `decimals` decimals, trailing zeros cut. */
static void trimmed(char* buf, size_t cap, double v, int decimals) {
  snprintf(buf, cap, "%.*f", decimals, v);
  if (strchr(buf, '.') == NULL) return;
  size_t n = strlen(buf);
  while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
  if (n > 0 && buf[n - 1] == '.') buf[--n] = '\0';
}

void iospd_html_num(char* buf, size_t cap, double v) {
  if (!isfinite(v)) {
    snprintf(buf, cap, "-");
    return;
  }
  double a = fabs(v);
  if (a >= 1e15 || (a > 0 && a < 1e-6)) {
    snprintf(buf, cap, "%.4g", v); /* 1e+308 (not 309 digits), 1e-300 */
    return;
  }
  if (a >= 1000 || a == floor(a))
    snprintf(buf, cap, "%.0f", v);
  else if (a >= 100)
    snprintf(buf, cap, "%.1f", v);
  else if (a >= 10)
    snprintf(buf, cap, "%.2f", v);
  else if (a >= 0.001)
    snprintf(buf, cap, "%.3f", v);
  else
    snprintf(buf, cap, "%.6f", v);
  /* 2.500 -> 2.5 */
  if (strchr(buf, '.') != NULL) {
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.') buf[--n] = '\0';
  }
}

/* 1, 2 or 5 times a power of ten, near range / parts; by exact steps. */
static double nice_step(double range, int parts) {
  double raw = range / parts;
  if (!(raw > 0) || !isfinite(raw)) return 1;
  double mag = 1;
  for (int i = 0; i < DECADES_MAX && mag * 10 <= raw; i++) mag *= 10;
  for (int i = 0; i < DECADES_MAX && mag > raw; i++) mag /= 10;
  if (!(mag > 0)) return raw; /* raw below every power of ten (denormal) */
  double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

typedef struct axis_s {
  int kind;
  double lo, hi; /* in transformed units */
  double p0, p1; /* pixels */
} axis_t;

static double tf(int kind, double v) {
  if (kind == HTML_AXIS_LOG) return log10(v);
  if (kind == HTML_AXIS_NINES) {
    if (v > 99.9999) v = 99.9999;
    return -log10(1 - v / 100);
  }
  return v;
}

/* Halves before the differences: an axis from -1e308 to 1e308 has a
 * width a double cannot hold, its half can (and halving is exact, so other
 * axes give the same bytes as (t - lo) / (hi - lo)). */
static double px(const axis_t* a, double v) {
  double t = tf(a->kind, v);
  if (!(a->hi > a->lo) || !isfinite(t)) return a->p0;
  return a->p0 + (t / 2 - a->lo / 2) / (a->hi / 2 - a->lo / 2) *
                     (a->p1 - a->p0);
}

static bool usable(int kind, double v) {
  if (!isfinite(v)) return false;
  /* Denormals too are left out: no power of ten to start the axis from
   * lies between them and 0 once divided down (and no latency is one). */
  if (kind == HTML_AXIS_LOG) return v >= DBL_MIN;
  if (kind == HTML_AXIS_NINES) return v >= 50;
  return true;
}

/* Range of the data on one axis, raw units; false: no usable value. */
static bool data_range(const html_chart_t* c, bool x, double* lo, double* hi) {
  int kind = x ? c->x_axis : c->y_axis;
  bool any = false;
  for (size_t s = 0; s < c->series_count; s++)
    for (size_t i = 0; i < c->series[s].n; i++) {
      double v = x ? c->series[s].x[i] : c->series[s].y[i];
      double other = x ? c->series[s].y[i] : c->series[s].x[i];
      if (!usable(kind, v) || !usable(x ? c->y_axis : c->x_axis, other))
        continue;
      if (!any || v < *lo) *lo = v;
      if (!any || v > *hi) *hi = v;
      any = true;
    }
  return any;
}

/* Tick values (raw units) of an axis over [lo, hi]; returns the count.
 * Every loop is bounded (DECADES_MAX, cap). A log axis needs 0 < lo <= hi
 * (iospd_html_line_chart makes sure). */
static int ticks(int kind, double* lo, double* hi, double* t, int cap) {
  int n = 0;
  if (!isfinite(*lo)) *lo = -DBL_MAX;
  if (!isfinite(*hi)) *hi = DBL_MAX;
  if (kind == HTML_AXIS_NINES) {
    static const double k[] = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
    for (size_t i = 0; i < sizeof k / sizeof k[0] && n < cap; i++)
      t[n++] = k[i];
    *lo = 50;
    *hi = 99.9999;
    return n;
  }
  if (kind == HTML_AXIS_LOG) {
    if (!(*lo > 0)) *lo = 1;
    if (!(*hi >= *lo)) *hi = *lo;
    double d = 1;
    for (int i = 0; i < DECADES_MAX && d > *lo; i++) d /= 10;
    for (int i = 0; i < DECADES_MAX && d * 10 <= *lo; i++) d *= 10;
    if (!(d > 0)) d = *lo; /* lo below every power of ten (denormal) */
    /* Decades to cover; more than cap - 1 of them: a tick every stride. */
    int decades = 0;
    for (double e = d; decades < DECADES_MAX && e < *hi && isfinite(e * 10);
         e *= 10)
      decades++;
    int stride = decades > cap - 1 ? (decades + cap - 2) / (cap - 1) : 1;
    *lo = d;
    while (n < cap) {
      t[n++] = d;
      if (d >= *hi) break;
      double next = d;
      for (int k = 0; k < stride; k++) next *= 10;
      if (!isfinite(next)) break; /* hi near DBL_MAX: the data's end */
      d = next;
    }
    if (d >= *hi) *hi = d;
    return n;
  }
  double range = *hi - *lo;
  double step = nice_step(isfinite(range) ? range : DBL_MAX, 5);
  double start = floor(*lo / step) * step;
  *lo = start;
  /* v = start + step * n, in halves (exact scaling) so that a step times
   * n past DBL_MAX does not lose the ticks below it. */
  for (double v = start; n < cap; v = 2 * (start / 2 + step / 2 * n)) {
    if (!isfinite(v)) v = *hi; /* past DBL_MAX: end on the data */
    t[n++] = v;
    if (v >= *hi) break;
  }
  *hi = t[n - 1];
  return n;
}

static void legend(iospd_strbuf_t* out, const html_chart_t* c, int y0) {
  for (size_t s = 0; s < c->series_count; s++) {
    const html_series_t* se = &c->series[s];
    int x = PL + (int)(s % LEG_COLS) * 264;
    int y = y0 + (int)(s / LEG_COLS) * 18;
    if (se->no_line) {
      iospd_strbuf_appendf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"3.5\" "
                           "fill=\"%s\"/>", x + 12, y - 4,
                           iospd_html_palette[se->color % HTML_PALETTE_N]);
    } else {
    iospd_strbuf_appendf(
        out,
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
        "stroke-width=\"%s\"%s%s%s/>",
        x, y - 4, x + 24, y - 4, iospd_html_palette[se->color % HTML_PALETTE_N],
        se->bold ? "3" : "2", se->dash ? " stroke-dasharray=\"" : "",
        se->dash ? k_dash[se->dash % 3] : "", se->dash ? "\"" : "");
    }
    iospd_strbuf_appendf(out, "<text x=\"%d\" y=\"%d\">", x + 30, y);
    iospd_html_text(out, se->label);
    iospd_strbuf_append(out, "</text>");
  }
}

static void begin(iospd_strbuf_t* out, const char* id, const char* title,
                  int height) {
  iospd_strbuf_append(out, "<figure class=\"chart\" data-chart=\"");
  iospd_html_text(out, id);
  iospd_strbuf_append(out, "\"><figcaption>");
  iospd_html_text(out, title);
  iospd_strbuf_appendf(out,
                       "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" "
                       "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                       "role=\"img\" aria-label=\"",
                       W, height, W, height);
  iospd_html_text(out, title);
  iospd_strbuf_append(out, "\">");
}

static void axis_labels(iospd_strbuf_t* out, const char* xl, const char* yl) {
  iospd_strbuf_appendf(out, "<text class=\"al\" x=\"%d\" y=\"%d\" "
                       "text-anchor=\"middle\">", (PL + PR) / 2, PB + 36);
  iospd_html_text(out, xl);
  iospd_strbuf_appendf(out, "</text><text class=\"al\" x=\"14\" y=\"%d\" "
                       "text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">",
                       (PT + PB) / 2, (PT + PB) / 2);
  iospd_html_text(out, yl);
  iospd_strbuf_append(out, "</text>");
}

/* The indexes drawn of a series: all, or the lowest and highest y of each
 * of HTML_MAX_POINTS / 2 equal stretches of the x pixels. */
static size_t thin(const html_series_t* s, const axis_t* ax, const axis_t* ay,
                   size_t* idx) {
  size_t m = 0;
  if (s->n <= HTML_MAX_POINTS) {
    for (size_t i = 0; i < s->n; i++)
      if (usable(ax->kind, s->x[i]) && usable(ay->kind, s->y[i])) idx[m++] = i;
    return m;
  }
  const int buckets = HTML_MAX_POINTS / 2;
  long cur = -1;
  size_t lo = 0, hi = 0;
  bool have = false;
  for (size_t i = 0; i <= s->n; i++) {
    bool ok = i < s->n && usable(ax->kind, s->x[i]) && usable(ay->kind, s->y[i]);
    long b = -2;
    if (ok) {
      double f = (px(ax, s->x[i]) - ax->p0) / (ax->p1 - ax->p0);
      b = (long)(f * buckets);
      if (b >= buckets) b = buckets - 1;
      if (b < 0) b = 0;
    }
    /* x out of order could revisit a stretch: never more than the room */
    if (have && m + 2 > HTML_MAX_POINTS) break;
    if (have && (i == s->n || (ok && b != cur))) {
      size_t a = lo < hi ? lo : hi, z = lo < hi ? hi : lo;
      idx[m++] = a;
      if (z != a) idx[m++] = z;
      have = false;
    }
    if (!ok) continue;
    if (!have) {
      cur = b;
      lo = hi = i;
      have = true;
    } else {
      if (s->y[i] < s->y[lo]) lo = i;
      if (s->y[i] > s->y[hi]) hi = i;
    }
  }
  return m;
}

static const char* axis_word(int kind) {
  return kind == HTML_AXIS_LOG ? "log" : kind == HTML_AXIS_NINES ? "nines"
                                                                 : "linear";
}

/* A dot at every usable point of a series, with its values. */
static void dots(iospd_strbuf_t* out, const html_series_t* se,
                 const axis_t* ax, const axis_t* ay) {
  iospd_strbuf_append(out, "<g data-dots=\"");
  iospd_html_text(out, se->label);
  iospd_strbuf_appendf(out, "\" fill=\"%s\">",
                       iospd_html_palette[se->color % HTML_PALETTE_N]);
  for (size_t i = 0; i < se->n; i++) {
    if (!usable(ax->kind, se->x[i]) || !usable(ay->kind, se->y[i])) continue;
    iospd_strbuf_appendf(out,
                         "<circle data-x=\"%.17g\" data-y=\"%.17g\" "
                         "cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"/>",
                         se->x[i], se->y[i], px(ax, se->x[i]),
                         px(ay, se->y[i]));
  }
  iospd_strbuf_append(out, "</g>");
}

void iospd_html_line_chart(iospd_strbuf_t* out, const html_chart_t* c) {
  int rows = (int)((c->series_count + LEG_COLS - 1) / LEG_COLS);
  int height = PB + 56 + rows * 18;
  begin(out, c->id, c->title, height);
  axis_t ax = {c->x_axis, 0, 1, PL, PR}, ay = {c->y_axis, 0, 1, PB, PT};
  double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  bool have = data_range(c, true, &xlo, &xhi);
  if (!have) xlo = 0, xhi = 1;
  bool have_y = data_range(c, false, &ylo, &yhi);
  /* Lines, bands and marks widen the axes they lie on. */
  for (size_t i = 0; i < c->hline_count + 2 * c->band_count + c->mark_count;
       i++) {
    double v = i < c->hline_count ? c->hlines[i].y
               : i < c->hline_count + 2 * c->band_count
                   ? ((i - c->hline_count) % 2
                          ? c->bands[(i - c->hline_count) / 2].y1
                          : c->bands[(i - c->hline_count) / 2].y0)
                   : c->marks[i - c->hline_count - 2 * c->band_count].y;
    if (!usable(c->y_axis, v)) continue;
    if (!have_y || v < ylo) ylo = v;
    if (!have_y || v > yhi) yhi = v;
    have_y = true;
  }
  for (size_t i = 0; i < c->mark_count && have; i++) {
    double v = c->marks[i].x;
    if (!usable(c->x_axis, v) || !usable(c->y_axis, c->marks[i].y)) continue;
    if (v < xlo) xlo = v;
    if (v > xhi) xhi = v;
  }
  if (!have_y) ylo = 0, yhi = 1;
  /* No point to draw: a log axis gets one decade (it has no 0 to start
   * from), and the page says why the chart is empty. */
  if (!have && c->x_axis == HTML_AXIS_LOG) xlo = 1, xhi = 10;
  if (!have && c->y_axis == HTML_AXIS_LOG) ylo = 1, yhi = 10;
  for (size_t i = 0; i < c->span_count; i++) {
    if (c->spans[i].x0 < xlo) xlo = c->spans[i].x0;
    if (c->spans[i].x1 > xhi) xhi = c->spans[i].x1;
  }
  if (c->y_axis == HTML_AXIS_LINEAR) {
    if (ylo > 0) ylo = 0;
    if (yhi <= ylo) yhi = ylo + 1;
  }
  if (c->x_axis == HTML_AXIS_LINEAR && xhi <= xlo) xhi = xlo + 1;
  double xt[16], yt[16];
  /* A linear x axis (time) spans the data exactly, with the ticks that
   * fall inside it; the others end on a tick. */
  double x0 = xlo, x1 = xhi;
  int nx = ticks(c->x_axis, &xlo, &xhi, xt, 16);
  if (c->x_axis == HTML_AXIS_LINEAR) {
    int k = 0;
    for (int i = 0; i < nx; i++)
      if (xt[i] >= x0 && xt[i] <= x1) xt[k++] = xt[i];
    nx = k;
    xlo = x0;
    xhi = x1;
  }
  int ny = ticks(c->y_axis, &ylo, &yhi, yt, 16);
  ax.lo = tf(ax.kind, xlo);
  ax.hi = tf(ax.kind, xhi);
  ay.lo = tf(ay.kind, ylo);
  ay.hi = tf(ay.kind, yhi);
  char num[32];
  for (size_t i = 0; i < c->span_count; i++) {
    double a = px(&ax, c->spans[i].x0), b = px(&ax, c->spans[i].x1);
    iospd_strbuf_appendf(out,
                         "<rect class=\"span\" x=\"%.1f\" y=\"%d\" "
                         "width=\"%.1f\" height=\"%d\"/><text class=\"sl\" "
                         "x=\"%.1f\" y=\"%d\">",
                         a, PT, b - a, PB - PT, a + 3, PT + 12);
    iospd_html_text(out, c->spans[i].label);
    iospd_strbuf_append(out, "</text>");
  }
  for (int i = 0; i < ny; i++) {
    double y = px(&ay, yt[i]);
    iospd_html_num(num, sizeof num, yt[i]);
    iospd_strbuf_appendf(out,
                         "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
                         "y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
                         "text-anchor=\"end\">%s</text>",
                         PL, y, PR, y, PL - 6, y + 4, num);
  }
  for (int i = 0; i < nx; i++) {
    double x = px(&ax, xt[i]);
    if (c->x_axis == HTML_AXIS_NINES) /* 99.9999, not 100 */
      trimmed(num, sizeof num, xt[i], 4);
    else
      iospd_html_num(num, sizeof num, xt[i]);
    iospd_strbuf_appendf(out,
                         "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
                         "x2=\"%.1f\" y2=\"%d\"/><text x=\"%.1f\" y=\"%d\" "
                         "text-anchor=\"middle\">%s</text>",
                         x, PT, x, PB, x, PB + 16, num);
  }
  iospd_strbuf_appendf(out,
                       "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" "
                       "height=\"%d\"/>",
                       PL, PT, PR - PL, PB - PT);
  axis_labels(out, c->x_label, c->y_label);
  if (!have) {
    bool log = c->x_axis == HTML_AXIS_LOG || c->y_axis == HTML_AXIS_LOG;
    iospd_strbuf_appendf(
        out,
        "<text class=\"empty\" x=\"%d\" y=\"%d\" "
        "text-anchor=\"middle\">%s</text>",
        (PL + PR) / 2, (PT + PB) / 2,
        log ? "nothing to plot: no value above 0 for the logarithmic axis "
              "(latencies under 0.001 ms are recorded as 0)"
            : "nothing to plot");
  }
  if (c->plot_attrs)
    iospd_strbuf_appendf(out,
                         "<g data-plot=\"1\" data-px0=\"%d\" data-px1=\"%d\" "
                         "data-py0=\"%d\" data-py1=\"%d\" data-x-axis=\"%s\" "
                         "data-x-lo=\"%.17g\" data-x-hi=\"%.17g\" "
                         "data-y-axis=\"%s\" data-y-lo=\"%.17g\" "
                         "data-y-hi=\"%.17g\"/>",
                         PL, PR, PB, PT, axis_word(c->x_axis), xlo, xhi,
                         axis_word(c->y_axis), ylo, yhi);
  for (size_t i = 0; i < c->band_count; i++) {
    const html_band_t* b = &c->bands[i];
    if (!usable(c->y_axis, b->y0) || !usable(c->y_axis, b->y1)) continue;
    double a = px(&ay, b->y0), z = px(&ay, b->y1);
    double top = a < z ? a : z, h = fabs(a - z);
    iospd_strbuf_appendf(out, "<rect class=\"band\" fill=\"#009E73\" "
                         "fill-opacity=\".1\" data-band=\"");
    iospd_html_text(out, b->id);
    iospd_strbuf_appendf(out,
                         "\" data-y0=\"%.17g\" data-y1=\"%.17g\" x=\"%d\" "
                         "y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>",
                         b->y0, b->y1, PL, top, PR - PL, h);
    iospd_html_text(out, b->label);
    iospd_strbuf_append(out, "</title></rect>");
  }
  size_t idx_buf[HTML_MAX_POINTS + 2];
  for (size_t s = 0; s < c->series_count; s++) {
    const html_series_t* se = &c->series[s];
    size_t m = thin(se, &ax, &ay, idx_buf);
    /* A path of whole-pixel steps: each point is rounded where it lies and
     * drawn as the step from the previous rounded point (short text, no
     * drift). */
    iospd_strbuf_appendf(out, "<path data-series=\"");
    iospd_html_text(out, se->label);
    iospd_strbuf_appendf(out,
                         "\" data-points=\"%zu\" fill=\"none\" stroke=\"%s\" "
                         "stroke-width=\"%s\"%s%s%s d=\"",
                         m, se->no_line ? "none"
                                        : iospd_html_palette[se->color %
                                                             HTML_PALETTE_N],
                         se->bold ? "2.5" : "1.5",
                         se->dash ? " stroke-dasharray=\"" : "",
                         se->dash ? k_dash[se->dash % 3] : "",
                         se->dash ? "\"" : "");
    long lx = 0, ly = 0;
    for (size_t k = 0; k < m; k++) {
      long x = lround(px(&ax, se->x[idx_buf[k]]));
      long y = lround(px(&ay, se->y[idx_buf[k]]));
      if (k == 0)
        iospd_strbuf_appendf(out, "M%ld %ld%s", x, y, m == 1 ? "h1" : "l");
      else
        iospd_strbuf_appendf(out, "%s%ld %ld", k > 1 ? " " : "", x - lx,
                             y - ly);
      lx = x;
      ly = y;
    }
    iospd_strbuf_append(out, "\"/>");
    if (se->markers) dots(out, se, &ax, &ay);
  }
  for (size_t i = 0; i < c->hline_count; i++) {
    const html_hline_t* h = &c->hlines[i];
    if (!usable(c->y_axis, h->y)) continue;
    double y = px(&ay, h->y);
    const char* col = iospd_html_palette[h->color % HTML_PALETTE_N];
    iospd_strbuf_append(out, "<line data-hline=\"");
    iospd_html_text(out, h->id);
    iospd_strbuf_appendf(out,
                         "\" data-value=\"%.17g\" x1=\"%d\" y1=\"%.1f\" "
                         "x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-width=\"1.5\"%s%s%s/><text class=\"hl\" "
                         "x=\"%d\" y=\"%.1f\" text-anchor=\"start\" "
                         "fill=\"%s\">",
                         h->y, PL, y, PR, y, col,
                         h->dash ? " stroke-dasharray=\"" : "",
                         h->dash ? k_dash[h->dash % 3] : "",
                         h->dash ? "\"" : "", PL + 4, y - 4, col);
    iospd_html_text(out, h->label);
    iospd_strbuf_append(out, "</text>");
  }
  for (size_t i = 0; i < c->mark_count; i++) {
    const html_mark_t* k = &c->marks[i];
    if (!usable(c->x_axis, k->x) || !usable(c->y_axis, k->y)) continue;
    double x = px(&ax, k->x), y = px(&ay, k->y);
    const char* col = iospd_html_palette[k->color % HTML_PALETTE_N];
    iospd_strbuf_append(out, "<g data-mark=\"");
    iospd_html_text(out, k->id);
    iospd_strbuf_appendf(out,
                         "\" data-x=\"%.17g\" data-y=\"%.17g\"><circle "
                         "cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" "
                         "stroke=\"%s\" stroke-width=\"2\"/><text x=\"%.1f\" "
                         "y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">",
                         k->x, k->y, x, y, col, x < (PL + PR) / 2 ? x + 10 : x - 10,
                         i % 2 ? y + 20 : y - 10,
                         x < (PL + PR) / 2 ? "start" : "end", col);
    iospd_html_text(out, k->label);
    iospd_strbuf_append(out, "</text></g>");
  }
  legend(out, c, PB + 62);
  iospd_strbuf_append(out, "</svg></figure>\n");
}

void iospd_html_bar_chart(iospd_strbuf_t* out, const html_bars_t* b) {
  int parts = b->part[1] != NULL ? 2 : 1;
  int height = PB + 74;
  begin(out, b->id, b->title, height);
  bool lg = b->y_log;
  double hi = 0;
  for (size_t i = 0; i < b->count; i++) {
    double v = lg ? fmax(b->bars[i].v[0], parts == 2 ? b->bars[i].v[1] : 0)
                  : b->bars[i].v[0] + (parts == 2 ? b->bars[i].v[1] : 0);
    if (v > hi) hi = v;
  }
  if (!(hi > (lg ? 1 : 0))) hi = lg ? 10 : 1;
  if (!isfinite(hi)) hi = DBL_MAX;
  double lo = lg ? 1 : 0, yt[16];
  int kind = lg ? HTML_AXIS_LOG : HTML_AXIS_LINEAR;
  int ny = ticks(kind, &lo, &hi, yt, 16);
  axis_t ay = {kind, tf(kind, lo), tf(kind, hi), PB, PT};
  char num[32];
  for (int i = 0; i < ny; i++) {
    double y = px(&ay, yt[i]);
    iospd_html_num(num, sizeof num, yt[i]);
    iospd_strbuf_appendf(out,
                         "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
                         "y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
                         "text-anchor=\"end\">%s</text>",
                         PL, y, PR, y, PL - 6, y + 4, num);
  }
  iospd_strbuf_appendf(out,
                       "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" "
                       "height=\"%d\"/>",
                       PL, PT, PR - PL, PB - PT);
  axis_labels(out, b->x_label, b->y_label);
  double slot = b->count ? (double)(PR - PL) / (double)b->count : 1;
  double bw = slot * 0.7;
  size_t every = b->count > 24 ? (b->count + 23) / 24 : 1;
  for (size_t i = 0; i < b->count; i += every) {
    double x = PL + slot * ((double)i + 0.5);
    iospd_strbuf_appendf(out, "<text x=\"%.1f\" y=\"%d\" "
                         "text-anchor=\"middle\">", x, PB + 16);
    iospd_html_text(out, b->bars[i].label);
    iospd_strbuf_append(out, "</text>");
  }
  for (int p = 0; p < parts; p++) {
    iospd_strbuf_append(out, "<g data-series=\"");
    iospd_html_text(out, b->part[p] != NULL ? b->part[p] : "");
    iospd_strbuf_appendf(out, "\" data-points=\"%zu\" fill=\"%s\">", b->count,
                         iospd_html_palette[p]);
    for (size_t i = 0; i < b->count; i++) {
      double x = PL + slot * (double)i + (slot - bw) / 2, w = bw, y0, y1;
      if (lg) {
        double v = b->bars[i].v[p];
        w = bw / parts;
        x += w * p;
        y0 = PB;
        y1 = v > 1 && isfinite(v) ? px(&ay, v) : v >= 1 ? PB - 2 : PB;
      } else {
        double base = p == 1 ? b->bars[i].v[0] : 0;
        y0 = px(&ay, base);
        y1 = px(&ay, base + b->bars[i].v[p]);
      }
      iospd_strbuf_appendf(out,
                           "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                           "height=\"%.1f\"><title>",
                           x, y1, w, y0 - y1);
      iospd_html_text(out, b->bars[i].label);
      iospd_html_num(num, sizeof num, b->bars[i].v[p]);
      iospd_strbuf_appendf(out, ": %s</title></rect>", num);
    }
    iospd_strbuf_append(out, "</g>");
  }
  for (int p = 0; p < parts && b->part[p] != NULL; p++) {
    int x = PL + p * 264, y = PB + 62;
    iospd_strbuf_appendf(out, "<rect x=\"%d\" y=\"%d\" width=\"24\" "
                         "height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                         x, y - 9, iospd_html_palette[p], x + 30, y);
    iospd_html_text(out, b->part[p]);
    iospd_strbuf_append(out, "</text>");
  }
  iospd_strbuf_append(out, "</svg></figure>\n");
}
