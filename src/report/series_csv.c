/* SPDX-License-Identifier: MIT */
/* The time series as CSV (RFC 4180): a header line, then per interval one
 * row per target and one for the total, each with read, write and total
 * columns. Columns: docs/time-series.md. */
#include <stdio.h>
#include <string.h>

#include "series_internal.h"

void iospd_series_csv_header(iospd_strbuf_t* out, bool latency) {
  iospd_strbuf_append(out, "timespan,phase,start_ms,end_ms,target,path");
  for (int d = 0; d < 3; d++) {
    const char* n = iospd_series_dir_names[d];
    iospd_strbuf_appendf(out, ",%s_ios,%s_bytes,%s_iops,%s_mib_s", n, n, n, n);
    if (latency)
      for (int i = 0; i < SERIES_LAT_N; i++)
        iospd_strbuf_appendf(out, ",%s_lat_%s_ms", n, iospd_series_lat_names[i]);
  }
  iospd_strbuf_append(out, "\n");
}

/* A field quoted when it holds a comma, a quote or a line break. */
static void field(iospd_strbuf_t* out, const char* s) {
  if (strpbrk(s, ",\"\r\n") == NULL) {
    iospd_strbuf_append(out, s);
    return;
  }
  iospd_strbuf_putc(out, '"');
  for (; *s; s++) {
    if (*s == '"') iospd_strbuf_putc(out, '"');
    iospd_strbuf_putc(out, *s);
  }
  iospd_strbuf_putc(out, '"');
}

static void row(iospd_strbuf_t* out, const iospd_interval_t* iv,
                const iospd_series_row_t* r, const char* target,
                const char* path, bool latency, iospd_hist_t* tmp) {
  int64_t ms = iv->end_ms - iv->start_ms;
  iospd_strbuf_appendf(out, "%u,%s,%lld,%lld,%s,", iv->timespan,
                       iospd_phase_name(iv->phase), (long long)iv->start_ms,
                       (long long)iv->end_ms, target);
  field(out, path);
  for (int d = 0; d < 3; d++) {
    series_vals_t v;
    iospd_series_vals(r, d, ms, tmp, &v);
    iospd_strbuf_appendf(out, ",%llu,%llu,%.2f,%.2f",
                         (unsigned long long)v.ios,
                         (unsigned long long)v.bytes, v.iops, v.mib_s);
    if (!latency) continue;
    for (int i = 0; i < SERIES_LAT_N; i++) {
      /* No I/O, no latency: an empty field, not a made-up 0. */
      if (v.has_lat)
        iospd_strbuf_appendf(out, ",%.3f", v.lat_ms[i]);
      else
        iospd_strbuf_putc(out, ',');
    }
  }
  iospd_strbuf_append(out, "\n");
}

void iospd_series_csv_rows(iospd_strbuf_t* out, const iospd_interval_t* iv,
                           const iospd_timespan_t* ts, bool latency,
                           iospd_hist_t* tmp) {
  char num[16];
  for (uint32_t t = 0; t < iv->target_count; t++) {
    snprintf(num, sizeof num, "%u", t);
    row(out, iv, &iv->targets[t], num, iospd_series_path(ts, t), latency, tmp);
  }
  row(out, iv, &iv->total, "total", "", latency, tmp);
}
