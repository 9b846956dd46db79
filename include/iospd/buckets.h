/* SPDX-License-Identifier: MIT */
/* Per-interval I/O counts (-D): count and latency min/max/sum/sum-of-squares
 * per interval, sized once from the duration, merged by adding. */
#ifndef IOSPD_BUCKETS_H
#define IOSPD_BUCKETS_H

#include "iospd/common.h"

typedef struct iospd_bucket_s {
  uint64_t count;
  uint64_t bytes; /* kept for time-series reports; DISKSPD prints counts */
  double lat_min_us, lat_max_us, lat_sum_us, lat_sumsq_us;
} iospd_bucket_t;

typedef struct iospd_buckets_s {
  uint64_t interval_ns;
  uint32_t capacity;  /* valid buckets: ceil(duration / interval) */
  uint32_t used;      /* last bucket index written + 1 */
  iospd_bucket_t* b;  /* capacity entries */
  /* The bucket the last completion fell in, [cur_start_ns, + interval_ns):
   * completions arrive in time order, so the hot path compares instead of
   * dividing. Zero from init, which is bucket 0. */
  uint64_t cur_start_ns;
  uint32_t cur_idx;
} iospd_buckets_t;

/* Allocates capacity = ceil(duration_ms / interval_ms) buckets. */
int iospd_buckets_init(iospd_buckets_t* bk, uint32_t interval_ms,
                       uint64_t duration_ms);
void iospd_buckets_destroy(iospd_buckets_t* bk);
/* Hot path: one I/O of `bytes` completed at since_start_ns after measurement
 * start, with latency lat_ns. Completions past the last valid bucket are
 * dropped. */
void iospd_buckets_add(iospd_buckets_t* bk, uint64_t since_start_ns,
                       uint64_t lat_ns, uint32_t bytes);
/* dst += src bucket-wise; dst must have been initialised with the same
 * interval (capacity grows to the larger of the two). */
int iospd_buckets_merge(iospd_buckets_t* dst, const iospd_buckets_t* src);
/* Population stddev of per-bucket counts over `used` buckets, in IO/s. */
double iospd_buckets_iops_stddev(const iospd_buckets_t* bk);

#endif
