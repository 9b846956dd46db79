/* SPDX-License-Identifier: MIT */
/* The numbers of one direction of one time-series row: counts, rates over
 * the interval's own length, and latency from that interval's histogram
 * with the final report's percentiles (nearest rank, iospd/hist.h). */
#include <ctype.h>
#include <string.h>

#include "report_internal.h"
#include "series_internal.h"

const char* const iospd_series_lat_names[SERIES_LAT_N] = {
    "min", "mean", "p50", "p90", "p99", "p99_9", "max"};
const char* const iospd_series_dir_names[3] = {"read", "write", "total"};

static const double k_pct[SERIES_LAT_N] = {0, -1, 50, 90, 99, 99.9, 100};

void iospd_series_vals(const iospd_series_row_t* r, int d, int64_t ms,
                       iospd_hist_t* tmp, series_vals_t* out) {
  memset(out, 0, sizeof(*out));
  const iospd_hist_t* h = NULL;
  if (d < 2) {
    out->ios = r->dir[d].ios;
    out->bytes = r->dir[d].bytes;
    h = r->dir[d].lat;
  } else {
    out->ios = r->dir[0].ios + r->dir[1].ios;
    out->bytes = r->dir[0].bytes + r->dir[1].bytes;
    if (tmp != NULL && (r->dir[0].lat != NULL || r->dir[1].lat != NULL)) {
      iospd_hist_reset(tmp);
      if (r->dir[0].lat != NULL) iospd_hist_merge(tmp, r->dir[0].lat);
      if (r->dir[1].lat != NULL) iospd_hist_merge(tmp, r->dir[1].lat);
      h = tmp;
    }
  }
  if (ms > 0) {
    double s = (double)ms / 1000.0;
    out->iops = (double)out->ios / s;
    out->mib_s = (double)out->bytes / (1024.0 * 1024.0) / s;
  }
  out->has_lat = iospd_rpt_has_lat(h);
  if (!out->has_lat) return;
  for (int i = 0; i < SERIES_LAT_N; i++)
    out->lat_ms[i] = i == SERIES_LAT_MEAN ? iospd_rpt_mean_ms(h)
                                          : iospd_rpt_pct_ms(h, k_pct[i]);
}

const char* iospd_series_path(const iospd_timespan_t* ts, uint32_t t) {
  if (ts == NULL || t >= ts->target_count || ts->targets[t].path == NULL)
    return "";
  return ts->targets[t].path;
}

static bool ends_with_ci(const char* s, const char* tail) {
  size_t n = strlen(s), m = strlen(tail);
  if (n < m) return false;
  for (size_t i = 0; i < m; i++)
    if (tolower((unsigned char)s[n - m + i]) != tail[i]) return false;
  return true;
}

iospd_series_format_t iospd_series_format_of(const char* path) {
  if (path == NULL) return IOSPD_SERIES_NONE;
  if (ends_with_ci(path, ".csv")) return IOSPD_SERIES_CSV;
  if (ends_with_ci(path, ".jsonl")) return IOSPD_SERIES_JSONL;
  return IOSPD_SERIES_NONE;
}

