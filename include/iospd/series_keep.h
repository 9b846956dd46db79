/* SPDX-License-Identifier: MIT */
/* The time series kept in memory for the end of the run (the HTML report
 * and the "timeseries" key of the JSON results): the rows of every
 * interval as JSON Lines text (the --timeseries .jsonl rows, same keys),
 * appended by the controller thread as each interval ends, never by an
 * I/O thread. Bounded: past `cap` bytes the keeper stops taking rows and
 * counts the intervals it left out (the report says so). */
#ifndef IOSPD_SERIES_KEEP_H
#define IOSPD_SERIES_KEEP_H

#include "iospd/profile.h"
#include "iospd/series.h"
#include "iospd/strbuf.h"

/* 256 MiB: about 500 bytes per target per interval with -L, so a day at
 * 1 s intervals with 6 targets; an hour with 8 targets takes ~16 MiB. */
#define IOSPD_SERIES_KEEP_CAP ((size_t)256 << 20)

typedef struct iospd_series_keep_s iospd_series_keep_t;

/* NULL when out of memory. p must outlive the keeper. */
iospd_series_keep_t* iospd_series_keep_create(const iospd_profile_t* p,
                                              size_t cap);
void iospd_series_keep_interval(iospd_series_keep_t* k,
                                const iospd_interval_t* iv);
/* The rows so far: JSON objects, one per line, each line ending in '\n'. */
const char* iospd_series_keep_text(const iospd_series_keep_t* k, size_t* len);
/* Intervals not kept (past the cap, or out of memory). */
uint64_t iospd_series_keep_dropped(const iospd_series_keep_t* k);
void iospd_series_keep_destroy(iospd_series_keep_t* k);

#endif
