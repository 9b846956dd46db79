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

/* ---- sparse form (JSON results, merging runs) ---------------------------
 * A histogram travels as its exact statistics plus its non-empty buckets,
 * each named by its bounds in ns; docs/results-json.md ("histogram") is the
 * format. Export then import gives a histogram identical to the original:
 * same buckets, same exact statistics, same percentiles. */

/* The exact statistics. The sum of squares is 128-bit (sumsq_hi:sumsq_lo). */
typedef struct iospd_hist_exact_s {
  uint64_t count, min_ns, max_ns, sum_ns;
  uint64_t sumsq_hi, sumsq_lo;
} iospd_hist_exact_t;

/* One non-empty bucket: the samples lo_ns <= x < hi_ns. The last bucket of
 * the layout also holds every larger value: open_end is true and hi_ns is
 * its nominal bound (2^43 ns). */
typedef struct iospd_hist_bucket_s {
  uint64_t lo_ns, hi_ns;
  uint64_t count;
  bool open_end;
} iospd_hist_bucket_t;

void iospd_hist_get_exact(const iospd_hist_t* h, iospd_hist_exact_t* out);
/* Iterates the non-empty buckets in ascending order: *pos starts at 0;
 * returns false when there are no more (out untouched). */
bool iospd_hist_next_bucket(const iospd_hist_t* h, uint32_t* pos,
                            iospd_hist_bucket_t* out);
/* Import: adds count samples to the bucket whose lower bound is lo_ns
 * (bucket counts only; the exact statistics are set apart).
 * IOSPD_EINVAL if lo_ns is not the lower bound of a bucket of this layout. */
int iospd_hist_add_bucket(iospd_hist_t* h, uint64_t lo_ns, uint64_t count);
/* Import: replaces the exact statistics. */
void iospd_hist_set_exact(iospd_hist_t* h, const iospd_hist_exact_t* e);
/* 0 if the imported histogram is consistent: bucket counts sum to the exact
 * count, and min and max fall in the first and last non-empty buckets;
 * IOSPD_EINVAL otherwise. */
int iospd_hist_check(const iospd_hist_t* h);

/* An unsigned 128-bit number as decimal text (at most 39 digits + NUL):
 * returns the length. */
#define IOSPD_U128_DEC_MAX 40u
size_t iospd_u128_to_dec(uint64_t hi, uint64_t lo,
                         char buf[IOSPD_U128_DEC_MAX]);
/* Parses decimal digits only ("0" or no leading zero) into hi:lo;
 * IOSPD_EINVAL on anything else or above 2^128 - 1. */
int iospd_u128_from_dec(const char* s, uint64_t* hi, uint64_t* lo);

#endif
