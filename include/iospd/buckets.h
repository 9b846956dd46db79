/* SPDX-License-Identifier: MIT */
/* Per-interval I/O counts (-D): count and latency min/max/sum/sum-of-squares
 * per interval, kept in chunks that are allocated as the run reaches them
 * (so memory follows the time actually run, not the requested -d), and
 * read at report time one by one or as a sum of several series. */
#ifndef IOSPD_BUCKETS_H
#define IOSPD_BUCKETS_H

#include <stdatomic.h>

#include "iospd/common.h"

/* 48 bytes: the figure the README quotes per interval, thread, target and
 * direction. */
typedef struct iospd_bucket_s {
  uint64_t count;
  uint64_t bytes; /* kept for time-series reports; DISKSPD prints counts */
  double lat_min_us, lat_max_us, lat_sum_us, lat_sumsq_us;
} iospd_bucket_t;

/* Consecutive intervals [first, first + len). Chunks form a list; `next` is
 * published with release ordering by whoever appends the chunk. */
typedef struct iospd_bucket_chunk_s {
  struct iospd_bucket_chunk_s* _Atomic next;
  uint32_t first;
  uint32_t len;
  iospd_bucket_t b[];
} iospd_bucket_chunk_t;

/* Memory policy. One worker records into a series (iospd_buckets_add) while
 * the controller appends chunks ahead of it (iospd_buckets_grow, called at
 * least every IOSPD_POLL_MS while measuring), so the worker only follows a
 * pointer when it crosses into the next chunk and never allocates. A chunk
 * spans at least 1 s and at least 64 intervals, and the controller keeps
 * IOSPD_BUCKETS_AHEAD_MS reserved beyond the elapsed time: a series holds
 * about (elapsed + 2 s + one chunk) of intervals, never more than
 * ceil(duration / interval). Only if the controller has been starved for
 * that long does the worker allocate the missing chunk itself, at that
 * interval boundary (counted in late_chunks), rather than lose the
 * completion. */
#define IOSPD_BUCKETS_AHEAD_MS 2000u
#define IOSPD_BUCKETS_CHUNK_MIN 64u

typedef struct iospd_buckets_s {
  uint64_t interval_ns;
  uint32_t capacity;   /* intervals a full run reaches: ceil(duration / interval) */
  uint32_t chunk_len;  /* intervals per chunk (the last one may be shorter) */
  uint32_t used;       /* last interval written + 1 */
  iospd_bucket_chunk_t* head; /* interval 0, or NULL when capacity is 0 */
  /* Recorder (the worker): the interval the last completion fell in,
   * [cur_start_ns, + interval_ns), and its record; completions arrive in
   * time order, so the hot path compares instead of dividing. */
  iospd_bucket_t* cur_b;
  iospd_bucket_chunk_t* cur_chunk;
  uint64_t cur_start_ns;
  uint32_t cur_idx;
  uint32_t late_chunks; /* chunks the recorder had to allocate itself */
  uint64_t lost;        /* completions not recorded: out of memory */
  /* Grower (the controller, or the owner before and after the run). */
  iospd_bucket_chunk_t* tail;
  uint32_t reserved;    /* intervals covered by head .. tail */
} iospd_buckets_t;

/* capacity = ceil(duration_ms / interval_ms); allocates the chunks for the
 * first IOSPD_BUCKETS_AHEAD_MS only. */
int iospd_buckets_init(iospd_buckets_t* bk, uint32_t interval_ms,
                       uint64_t duration_ms);
void iospd_buckets_destroy(iospd_buckets_t* bk);
/* Controller, while the worker records: makes sure the chunks cover
 * since_start_ns + IOSPD_BUCKETS_AHEAD_MS (up to capacity). Not on a
 * worker's hot path; safe against a concurrent iospd_buckets_add. */
int iospd_buckets_grow(iospd_buckets_t* bk, uint64_t since_start_ns);
/* Hot path: one I/O of `bytes` completed at since_start_ns after measurement
 * start, with latency lat_ns. Completions past the last valid interval are
 * dropped, as DISKSPD does (they still count in the totals). */
void iospd_buckets_add(iospd_buckets_t* bk, uint64_t since_start_ns,
                       uint64_t lat_ns, uint32_t bytes);
/* Interval i, or NULL when no chunk holds it (nothing was recorded there).
 * Walks the chunk list: for tests and single look-ups. */
const iospd_bucket_t* iospd_buckets_get(const iospd_buckets_t* bk, uint32_t i);
/* dst += src interval-wise; dst must have been initialised with the same
 * interval, or zeroed (it then adopts src's). */
int iospd_buckets_merge(iospd_buckets_t* dst, const iospd_buckets_t* src);
/* Population stddev of per-interval counts over `used` intervals, in IO/s. */
double iospd_buckets_iops_stddev(const iospd_buckets_t* bk);

/* ---- sums, for report rows ---------------------------------------------- */

/* Several series with the same interval read as one, interval by interval,
 * without copying them: a report's total rows cost no memory per interval.
 * Reading keeps a cursor per series, so read intervals in ascending order
 * (going back restarts that series from its first chunk). */
typedef struct iospd_buckets_sum_s {
  const iospd_buckets_t** src;
  const iospd_bucket_chunk_t** at; /* cursor per series */
  uint32_t count, cap;
  uint64_t interval_ns;
  uint32_t used; /* largest used of the series */
  const iospd_buckets_t* src_inline[2];
  const iospd_bucket_chunk_t* at_inline[2];
} iospd_buckets_sum_t;

void iospd_buckets_sum_init(iospd_buckets_sum_t* s);
void iospd_buckets_sum_destroy(iospd_buckets_sum_t* s);
/* Adds a series (borrowed; it must outlive the sum). A series without
 * intervals is ignored. IOSPD_EINVAL if its interval differs. */
int iospd_buckets_sum_add(iospd_buckets_sum_t* s, const iospd_buckets_t* bk);
/* *out = interval i of every series merged (zero if none has it). */
void iospd_buckets_sum_get(iospd_buckets_sum_t* s, uint32_t i,
                           iospd_bucket_t* out);
/* iospd_buckets_iops_stddev of the merged series. */
double iospd_buckets_sum_iops_stddev(iospd_buckets_sum_t* s);

#endif
