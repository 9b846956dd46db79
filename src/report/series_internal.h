/* SPDX-License-Identifier: MIT */
/* What the CSV and JSON Lines time-series writers share: the numbers of
 * one direction of one row. Private to src/report. */
#ifndef IOSPD_REPORT_SERIES_INTERNAL_H
#define IOSPD_REPORT_SERIES_INTERNAL_H

#include "iospd/series.h"
#include "iospd/series_out.h"

enum { SERIES_LAT_MIN, SERIES_LAT_MEAN, SERIES_LAT_P50, SERIES_LAT_P90,
       SERIES_LAT_P99, SERIES_LAT_P999, SERIES_LAT_MAX, SERIES_LAT_N };

/* Column and key names of the latency values, in that order. */
extern const char* const iospd_series_lat_names[SERIES_LAT_N];
/* "read", "write", "total". */
extern const char* const iospd_series_dir_names[3];

typedef struct series_vals_s {
  uint64_t ios, bytes;
  double iops, mib_s;
  bool has_lat;                /* a histogram with at least one I/O */
  double lat_ms[SERIES_LAT_N]; /* of this interval alone */
} series_vals_t;

/* Direction d (0 read, 1 write, 2 total) of row r over an interval of
 * `ms` milliseconds. The total's latency is read merged with write, in
 * tmp (overwritten; may be NULL without latency). */
void iospd_series_vals(const iospd_series_row_t* r, int d, int64_t ms,
                       iospd_hist_t* tmp, series_vals_t* out);

/* The path of target t of the timespan, "" if it has none. */
const char* iospd_series_path(const iospd_timespan_t* ts, uint32_t t);

#endif
