/* SPDX-License-Identifier: MIT */
/* --timeseries=FILE: the per-interval rows (iospd/series.h) as CSV or JSON
 * Lines, chosen by the file's extension, written and handed to the OS as
 * each interval ends (docs/time-series.md describes every column). */
#ifndef IOSPD_SERIES_OUT_H
#define IOSPD_SERIES_OUT_H

#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/series.h"
#include "iospd/strbuf.h"

typedef enum iospd_series_format {
  IOSPD_SERIES_NONE = 0, /* not a time-series extension */
  IOSPD_SERIES_CSV,      /* .csv */
  IOSPD_SERIES_JSONL     /* .jsonl */
} iospd_series_format_t;

/* The format a path's extension asks for (any letter case). */
iospd_series_format_t iospd_series_format_of(const char* path);

/* Formatting alone (no file), for the writer and for tests. latency: the
 * profile has -L in some timespan (the latency columns exist). tmp: a
 * histogram the writer may overwrite (the read+write latency), or NULL
 * without latency. path_of gives a target's path. */
void iospd_series_csv_header(iospd_strbuf_t* out, bool latency);
void iospd_series_csv_rows(iospd_strbuf_t* out, const iospd_interval_t* iv,
                           const iospd_timespan_t* ts, bool latency,
                           iospd_hist_t* tmp);
void iospd_series_jsonl_rows(iospd_strbuf_t* out, const iospd_interval_t* iv,
                             const iospd_timespan_t* ts, bool latency,
                             iospd_hist_t* tmp);

/* The file. Created at open (CSV: with its header line). */
typedef struct iospd_series_out_s iospd_series_out_t;
int iospd_series_out_open(iospd_series_out_t** out, const char* path,
                          const iospd_profile_t* p, iospd_err_t* err);
/* Writes one interval's rows in one write. After a failure the file
 * takes no more rows; the first failure is kept for close. */
void iospd_series_out_interval(iospd_series_out_t* o,
                               const iospd_interval_t* iv);
/* Closes; returns the first failure (writing or closing) with err naming
 * the file, or 0. NULL is fine. */
int iospd_series_out_close(iospd_series_out_t* o, iospd_err_t* err);

#endif
