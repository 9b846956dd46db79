/* SPDX-License-Identifier: MIT */
/* Pieces of the comparison of runs (include/iospd/compare.h) shared inside
 * src/merge: where per-interval values come from, and the fields that
 * differ between runs. */
#ifndef IOSPD_COMPARE_INTERNAL_H
#define IOSPD_COMPARE_INTERNAL_H

#include "cJSON.h"
#include "iospd/compare.h"

/* The per-interval values of one metric of timespan ts of doc, for all
 * targets (target -1) or one target: from the document's "timeseries"
 * rows (measuring phase) when it has them, else from the -D iops_series
 * (the timespan's for all targets, the threads' for one target). Returns
 * the number of values, *vals (iospd_malloc'd; NULL when 0) and *source
 * ("timeseries" or "iops_series"); when 0, why says why. Returns -1 when
 * out of memory. */
long iospd_cmp_series(const cJSON* doc, int ts, int target,
                      iospd_cmp_metric_t m, iospd_cmp_dir_t d, double** vals,
                      const char** source, char* why, size_t why_size);

/* The interval count and length of timespan ts (0 when none). */
size_t iospd_cmp_intervals(const cJSON* doc, int ts, double* interval_ms,
                           const char** source);

/* Fills c->fields (and c->profiles_differ) from the n documents. Returns 0
 * or IOSPD_ENOMEM. */
int iospd_cmp_fields(iospd_compare_t* c, const cJSON* const* docs, size_t n);

#endif
