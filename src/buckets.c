/* SPDX-License-Identifier: MIT */
/* Per-interval I/O counts for -D (DISKSPD 3.4): one array sized from the
 * duration at setup, a compare and a few adds per completion (a division
 * only when time moves past the current bucket), merged by adding
 * bucket-wise, IOPS standard deviation computed at report time. */
#include "iospd/buckets.h"

#include <math.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/error.h"

int iospd_buckets_init(iospd_buckets_t* bk, uint32_t interval_ms,
                       uint64_t duration_ms) {
  memset(bk, 0, sizeof *bk);
  if (interval_ms == 0) return IOSPD_EINVAL;
  uint64_t cap = (duration_ms + interval_ms - 1) / interval_ms;
  if (cap > UINT32_MAX) return IOSPD_ERANGE;
  bk->interval_ns = (uint64_t)interval_ms * 1000000u;
  if (cap == 0) return 0;
  bk->b = iospd_calloc((size_t)cap, sizeof *bk->b);
  if (bk->b == NULL) return IOSPD_ENOMEM;
  bk->capacity = (uint32_t)cap;
  return 0;
}

void iospd_buckets_destroy(iospd_buckets_t* bk) {
  iospd_free(bk->b);
  memset(bk, 0, sizeof *bk);
}

void iospd_buckets_add(iospd_buckets_t* bk, uint64_t since_start_ns,
                       uint64_t lat_ns, uint32_t bytes) {
  if (bk->capacity == 0) return;
  uint32_t idx;
  /* Unsigned: a time before cur_start_ns wraps to a huge difference and
   * takes the slow path too. */
  if (IOSPD_LIKELY(since_start_ns - bk->cur_start_ns < bk->interval_ns)) {
    idx = bk->cur_idx;
  } else {
    uint64_t q = since_start_ns / bk->interval_ns; /* once per interval */
    /* DISKSPD drops completions past the last valid bucket (they still
     * count in the totals, which the caller keeps). */
    if (q >= bk->capacity) return;
    idx = (uint32_t)q;
    bk->cur_idx = idx;
    bk->cur_start_ns = q * bk->interval_ns;
  }
  iospd_bucket_t* b = &bk->b[idx];
  double us = (double)lat_ns / 1000.0;
  if (b->count == 0 || us < b->lat_min_us) b->lat_min_us = us;
  if (b->count == 0 || us > b->lat_max_us) b->lat_max_us = us;
  b->lat_sum_us += us;
  b->lat_sumsq_us += us * us;
  b->bytes += bytes;
  b->count++;
  if (idx + 1 > bk->used) bk->used = idx + 1;
}

int iospd_buckets_merge(iospd_buckets_t* dst, const iospd_buckets_t* src) {
  if (src->capacity == 0) return 0;
  if (dst->interval_ns == 0) dst->interval_ns = src->interval_ns;
  if (dst->interval_ns != src->interval_ns) return IOSPD_EINVAL;
  if (src->capacity > dst->capacity) {
    iospd_bucket_t* nb =
        iospd_realloc(dst->b, (size_t)src->capacity * sizeof *nb);
    if (nb == NULL) return IOSPD_ENOMEM;
    memset(nb + dst->capacity, 0,
           (size_t)(src->capacity - dst->capacity) * sizeof *nb);
    dst->b = nb;
    dst->capacity = src->capacity;
  }
  for (uint32_t i = 0; i < src->used; i++) {
    const iospd_bucket_t* s = &src->b[i];
    iospd_bucket_t* d = &dst->b[i];
    if (s->count == 0) continue;
    if (d->count == 0 || s->lat_min_us < d->lat_min_us)
      d->lat_min_us = s->lat_min_us;
    if (d->count == 0 || s->lat_max_us > d->lat_max_us)
      d->lat_max_us = s->lat_max_us;
    d->lat_sum_us += s->lat_sum_us;
    d->lat_sumsq_us += s->lat_sumsq_us;
    d->bytes += s->bytes;
    d->count += s->count;
  }
  if (src->used > dst->used) dst->used = src->used;
  return 0;
}

double iospd_buckets_iops_stddev(const iospd_buckets_t* bk) {
  if (bk->used == 0 || bk->interval_ns == 0) return 0;
  double n = bk->used, sum = 0;
  for (uint32_t i = 0; i < bk->used; i++) sum += (double)bk->b[i].count;
  double mean = sum / n, ss = 0;
  for (uint32_t i = 0; i < bk->used; i++) {
    double d = (double)bk->b[i].count - mean;
    ss += d * d;
  }
  return sqrt(ss / n) / ((double)bk->interval_ns / 1e9);
}
