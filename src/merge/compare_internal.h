/* SPDX-License-Identifier: MIT */
/* Pieces of the comparison of runs (include/iospd/compare.h) shared inside
 * src/merge: where per-interval values come from, and the fields that
 * differ between runs. */
#ifndef IOSPD_COMPARE_INTERNAL_H
#define IOSPD_COMPARE_INTERNAL_H

#include "cJSON.h"
#include "iospd/compare.h"

/* The per-interval values of one metric of timespan ts of doc, for all
 * targets (target -1) or one target: IOPS, MiB/s and mean latency from the
 * -D iops_series (the timespan's for all targets, the threads' summed for
 * one target), else from the document's "timeseries" rows (measuring
 * phase); p99 and p99.9 from those rows only. Returns the number of
 * values, *vals (iospd_malloc'd; NULL when 0) and *source ("iops_series"
 * or "timeseries"); when 0, why says why. Returns -1 when out of memory. */
long iospd_cmp_series(const cJSON* doc, int ts, int target,
                      iospd_cmp_metric_t m, iospd_cmp_dir_t d, double** vals,
                      const char** source, char* why, size_t why_size);

/* The -D intervals of timespan ts (0 when none) and their length. */
size_t iospd_cmp_intervals(const cJSON* doc, int ts, double* interval_ms);
/* The full-length measuring rows of the time series of timespan ts, all
 * targets (0 when none), and the first one's length. */
size_t iospd_cmp_ts_intervals(const cJSON* doc, int ts, double* interval_ms);

/* Fills c->fields (and c->profiles_differ) from the n documents. Returns 0
 * or IOSPD_ENOMEM. */
int iospd_cmp_fields(iospd_compare_t* c, const cJSON* const* docs, size_t n);

#endif
