/* SPDX-License-Identifier: MIT */
/* Latency histogram with a fixed layout (no allocation after creation), exact
 * count/min/max/mean/stddev beside the buckets, exact merge by adding counts.
 * The layout and its error bound are explained in src/stats/hist.c.
 * Requirement (issue #3): values below 10 ms exact to the printed 0.001 ms;
 * above, within 0.1 %. Memory independent of run length. */
#ifndef IOSPD_HIST_H
#define IOSPD_HIST_H

#include "iospd/common.h"

typedef struct iospd_hist_s iospd_hist_t;

/* Layout (full derivation in src/stats/hist.c): 0 .. 10.0005 ms in 1 us buckets
 * (values rounded half-up to the microsecond, so a percentile below 10 ms
 * prints exactly as the true sample at %.3f ms); above, 512 sub-buckets per
 * power of two up to 2^43 ns (~2.4 h), midpoint error <= 2^-10 (0.098 %).
 * Count, min, max, the sum and the sum of squares (128-bit) are exact
 * integers, merged by adding; mean and stddev are derived from them when
 * asked. Size of one histogram in bytes, fixed by the layout:
 * 20,241 64-bit buckets plus the exact statistics. */
#define IOSPD_HIST_BYTES 161976u

/* Allocates a zeroed histogram; NULL on ENOMEM. Not for the hot path. */
iospd_hist_t* iospd_hist_create(void);
void iospd_hist_destroy(iospd_hist_t* h);
void iospd_hist_reset(iospd_hist_t* h);
/* Hot path: records one latency in nanoseconds. */
void iospd_hist_record(iospd_hist_t* h, uint64_t ns);
/* dst += src (exact). */
void iospd_hist_merge(iospd_hist_t* dst, const iospd_hist_t* src);
uint64_t iospd_hist_count(const iospd_hist_t* h);
uint64_t iospd_hist_min_ns(const iospd_hist_t* h); /* 0 if empty */
uint64_t iospd_hist_max_ns(const iospd_hist_t* h); /* 0 if empty */
double iospd_hist_mean_ns(const iospd_hist_t* h);  /* exact */
double iospd_hist_stddev_ns(const iospd_hist_t* h); /* population, exact */
/* Nearest-rank percentile, p in [0, 100] with at most 7 decimals: the
 * smallest recorded value whose cumulative count is >= p/100 * N (p/100 as
 * the nearest double, as DISKSPD computes it); p=0 gives min, p=100 max.
 * 0 if empty. */
double iospd_hist_percentile_ns(const iospd_hist_t* h, double p);
/* Number of non-empty buckets (XML ...HistoBuckets attributes). */
uint64_t iospd_hist_bucket_count(const iospd_hist_t* h);

#endif
