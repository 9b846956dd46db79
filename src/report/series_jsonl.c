/* SPDX-License-Identifier: MIT */
/* The time series as JSON Lines: per interval one object per target and
 * one for the total, each on its own line, with read, write and total
 * members. Keys: docs/time-series.md. */
#include <stdio.h>

#include "iospd/json_write.h"
#include "series_internal.h"

static void line(iospd_strbuf_t* out, const iospd_interval_t* iv,
                 const iospd_series_row_t* r, int64_t target, const char* path,
                 bool latency, iospd_hist_t* tmp) {
  int64_t ms = iv->end_ms - iv->start_ms;
  iospd_strbuf_appendf(out, "{\"timespan\":%u,\"phase\":", iv->timespan);
  iospd_json_append_str(out, iospd_phase_name(iv->phase));
  iospd_strbuf_appendf(out, ",\"start_ms\":%lld,\"end_ms\":%lld,\"target\":",
                       (long long)iv->start_ms, (long long)iv->end_ms);
  if (target < 0) {
    iospd_strbuf_append(out, "\"total\"");
  } else {
    iospd_strbuf_appendf(out, "%lld,\"path\":", (long long)target);
    iospd_json_append_str(out, path);
  }
  for (int d = 0; d < 3; d++) {
    series_vals_t v;
    iospd_series_vals(r, d, ms, tmp, &v);
    iospd_strbuf_appendf(out,
                         ",\"%s\":{\"ios\":%llu,\"bytes\":%llu,\"iops\":%.2f,"
                         "\"mib_s\":%.2f",
                         iospd_series_dir_names[d], (unsigned long long)v.ios,
                         (unsigned long long)v.bytes, v.iops, v.mib_s);
    if (latency) {
      iospd_strbuf_append(out, ",\"lat_ms\":");
      if (!v.has_lat) {
        iospd_strbuf_append(out, "null");
      } else {
        for (int i = 0; i < SERIES_LAT_N; i++)
          iospd_strbuf_appendf(out, "%s\"%s\":%.3f", i ? "," : "{",
                               iospd_series_lat_names[i], v.lat_ms[i]);
        iospd_strbuf_putc(out, '}');
      }
    }
    iospd_strbuf_putc(out, '}');
  }
  iospd_strbuf_append(out, "}\n");
}

void iospd_series_jsonl_rows(iospd_strbuf_t* out, const iospd_interval_t* iv,
                             const iospd_timespan_t* ts, bool latency,
                             iospd_hist_t* tmp) {
  for (uint32_t t = 0; t < iv->target_count; t++)
    line(out, iv, &iv->targets[t], (int64_t)t, iospd_series_path(ts, t),
         latency, tmp);
  line(out, iv, &iv->total, -1, "", latency, tmp);
}
