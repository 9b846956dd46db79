/* SPDX-License-Identifier: MIT */
/* Per-interval I/O counts for -D (DISKSPD's -D buckets), in chunks appended as the
 * run goes on (policy in buckets.h): a compare and a few adds per
 * completion, a division and a pointer step only when time moves past the
 * current interval; merged by adding interval-wise; the IOPS standard
 * deviation computed at report time. */
#include "iospd/buckets.h"

#include <math.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/error.h"

static iospd_bucket_chunk_t* chunk_new(uint32_t first, uint32_t len) {
  iospd_bucket_chunk_t* c =
      iospd_calloc(1, sizeof(*c) + (size_t)len * sizeof(iospd_bucket_t));
  if (c == NULL) return NULL;
  atomic_init(&c->next, NULL);
  c->first = first;
  c->len = len;
  return c;
}

static uint32_t chunk_len_for(uint32_t capacity, uint32_t first,
                              uint32_t chunk_len) {
  uint32_t left = capacity - first;
  return left < chunk_len ? left : chunk_len;
}

/* The last chunk of the list, starting from c (which must not be NULL). */
static iospd_bucket_chunk_t* last_from(iospd_bucket_chunk_t* c) {
  iospd_bucket_chunk_t* n;
  while ((n = atomic_load_explicit(&c->next, memory_order_acquire)) != NULL)
    c = n;
  return c;
}

/* Appends the chunk after `last` (the list's last chunk as the caller saw
 * it), or takes the one somebody else appended first. Returns the chunk now
 * following `last`, or NULL when out of memory. */
static iospd_bucket_chunk_t* append_after(const iospd_buckets_t* bk,
                                          iospd_bucket_chunk_t* last) {
  uint32_t first = last->first + last->len;
  iospd_bucket_chunk_t* c =
      chunk_new(first, chunk_len_for(bk->capacity, first, bk->chunk_len));
  if (c == NULL) return NULL;
  iospd_bucket_chunk_t* expect = NULL;
  if (atomic_compare_exchange_strong_explicit(&last->next, &expect, c,
                                              memory_order_acq_rel,
                                              memory_order_acquire))
    return c;
  iospd_free(c);
  return expect;
}

/* Grower side: chunks up to at least `want` intervals (clamped to
 * capacity). */
static int reserve(iospd_buckets_t* bk, uint32_t want) {
  if (want > bk->capacity) want = bk->capacity;
  if (want == 0) return 0;
  if (bk->head == NULL) {
    bk->head = chunk_new(0, chunk_len_for(bk->capacity, 0, bk->chunk_len));
    if (bk->head == NULL) return IOSPD_ENOMEM;
    bk->tail = bk->head;
  }
  /* The recorder may have appended chunks itself (late_chunks). */
  bk->tail = last_from(bk->tail);
  while (bk->tail->first + bk->tail->len < want) {
    iospd_bucket_chunk_t* c = append_after(bk, bk->tail);
    if (c == NULL) return IOSPD_ENOMEM;
    bk->tail = last_from(c);
  }
  bk->reserved = bk->tail->first + bk->tail->len;
  return 0;
}

static uint32_t ahead_intervals(const iospd_buckets_t* bk) {
  uint64_t ns = (uint64_t)IOSPD_BUCKETS_AHEAD_MS * 1000000u;
  return (uint32_t)((ns + bk->interval_ns - 1) / bk->interval_ns);
}

int iospd_buckets_init(iospd_buckets_t* bk, uint32_t interval_ms,
                       uint64_t duration_ms) {
  memset(bk, 0, sizeof *bk);
  if (interval_ms == 0) return IOSPD_EINVAL;
  uint64_t cap = (duration_ms + interval_ms - 1) / interval_ms;
  if (cap > UINT32_MAX) return IOSPD_ERANGE;
  bk->interval_ns = (uint64_t)interval_ms * 1000000u;
  if (cap == 0) return 0;
  bk->capacity = (uint32_t)cap;
  /* At least a second and 64 intervals: few chunks for a fine -D, little
   * rounding for a coarse one. */
  uint32_t per_s = (1000u + interval_ms - 1) / interval_ms;
  bk->chunk_len = per_s > IOSPD_BUCKETS_CHUNK_MIN ? per_s
                                                  : IOSPD_BUCKETS_CHUNK_MIN;
  int rc = iospd_buckets_grow(bk, 0);
  if (rc < 0) {
    iospd_buckets_destroy(bk);
    return rc;
  }
  bk->cur_chunk = bk->head;
  bk->cur_b = &bk->head->b[0];
  return 0;
}

void iospd_buckets_destroy(iospd_buckets_t* bk) {
  iospd_bucket_chunk_t* c = bk->head;
  while (c != NULL) {
    iospd_bucket_chunk_t* n = atomic_load_explicit(&c->next, memory_order_relaxed);
    iospd_free(c);
    c = n;
  }
  memset(bk, 0, sizeof *bk);
}

int iospd_buckets_grow(iospd_buckets_t* bk, uint64_t since_start_ns) {
  if (bk->capacity == 0) return 0;
  uint64_t now = since_start_ns / bk->interval_ns;
  uint64_t want = now + 1 + ahead_intervals(bk);
  if (want > bk->capacity) want = bk->capacity;
  if (want <= bk->reserved) return 0;
  return reserve(bk, (uint32_t)want);
}

/* Slow path of add: the record of interval idx, following (or, when the
 * controller is late, appending) chunks. NULL when out of memory. */
static iospd_bucket_t* find_slow(iospd_buckets_t* bk, uint32_t idx) {
  iospd_bucket_chunk_t* c = bk->cur_chunk;
  if (c == NULL || idx < c->first) c = bk->head; /* time went back: rare */
  if (c == NULL) return NULL; /* a merge destination that never got a chunk */
  while (idx >= c->first + c->len) {
    iospd_bucket_chunk_t* n =
        atomic_load_explicit(&c->next, memory_order_acquire);
    if (n == NULL) {
      /* The controller has not kept up (buckets.h): allocating here, once
       * per chunk, beats losing the completion. */
      iospd_hot_leave();
      n = append_after(bk, c);
      iospd_hot_enter();
      if (n == NULL) return NULL;
      bk->late_chunks++;
    }
    c = n;
  }
  bk->cur_chunk = c;
  return &c->b[idx - c->first];
}

void iospd_buckets_add(iospd_buckets_t* bk, uint64_t since_start_ns,
                       uint64_t lat_ns, uint32_t bytes) {
  iospd_bucket_t* b = bk->cur_b;
  uint32_t idx;
  /* Unsigned: a time before cur_start_ns wraps to a huge difference and
   * takes the slow path too. cur_b is NULL only without chunks. */
  if (IOSPD_LIKELY(b != NULL &&
                   since_start_ns - bk->cur_start_ns < bk->interval_ns)) {
    idx = bk->cur_idx;
  } else {
    if (bk->capacity == 0) return;
    uint64_t q = since_start_ns / bk->interval_ns; /* once per interval */
    /* DISKSPD drops completions past the last valid bucket (they still
     * count in the totals, which the caller keeps). */
    if (q >= bk->capacity) return;
    idx = (uint32_t)q;
    b = find_slow(bk, idx);
    if (b == NULL) {
      bk->lost++;
      return;
    }
    bk->cur_b = b;
    bk->cur_idx = idx;
    bk->cur_start_ns = q * bk->interval_ns;
  }
  double us = (double)lat_ns / 1000.0;
  if (b->count == 0 || us < b->lat_min_us) b->lat_min_us = us;
  if (b->count == 0 || us > b->lat_max_us) b->lat_max_us = us;
  b->lat_sum_us += us;
  b->lat_sumsq_us += us * us;
  b->bytes += bytes;
  b->count++;
  if (idx + 1 > bk->used) bk->used = idx + 1;
}

const iospd_bucket_t* iospd_buckets_get(const iospd_buckets_t* bk,
                                        uint32_t i) {
  for (const iospd_bucket_chunk_t* c = bk->head; c != NULL;
       c = atomic_load_explicit(&c->next, memory_order_acquire))
    if (i < c->first + c->len) return i >= c->first ? &c->b[i - c->first] : NULL;
  return NULL;
}

static void bucket_add(iospd_bucket_t* d, const iospd_bucket_t* s) {
  if (s->count == 0) return;
  if (d->count == 0 || s->lat_min_us < d->lat_min_us)
    d->lat_min_us = s->lat_min_us;
  if (d->count == 0 || s->lat_max_us > d->lat_max_us)
    d->lat_max_us = s->lat_max_us;
  d->lat_sum_us += s->lat_sum_us;
  d->lat_sumsq_us += s->lat_sumsq_us;
  d->bytes += s->bytes;
  d->count += s->count;
}

int iospd_buckets_merge(iospd_buckets_t* dst, const iospd_buckets_t* src) {
  if (src->capacity == 0) return 0;
  if (dst->interval_ns == 0) dst->interval_ns = src->interval_ns;
  if (dst->interval_ns != src->interval_ns) return IOSPD_EINVAL;
  if (src->capacity > dst->capacity) dst->capacity = src->capacity;
  if (dst->chunk_len == 0) dst->chunk_len = src->chunk_len;
  /* Only what src used: merging never touches intervals nobody reached. */
  int rc = reserve(dst, src->used);
  if (rc < 0) return rc;
  if (dst->cur_chunk == NULL && dst->head != NULL) {
    dst->cur_chunk = dst->head;
    dst->cur_b = &dst->head->b[0];
  }
  iospd_bucket_chunk_t* d = dst->head;
  for (const iospd_bucket_chunk_t* s = src->head; s != NULL && s->first < src->used;
       s = atomic_load_explicit(&s->next, memory_order_acquire)) {
    uint32_t end = s->first + s->len;
    if (end > src->used) end = src->used;
    for (uint32_t i = s->first; i < end; i++) {
      while (i >= d->first + d->len) d = atomic_load_explicit(&d->next, memory_order_acquire);
      bucket_add(&d->b[i - d->first], &s->b[i - s->first]);
    }
  }
  if (src->used > dst->used) dst->used = src->used;
  return 0;
}

/* Population stddev of n counts given by next(ctx, i), in two passes as
 * DISKSPD computes it (mean first), per second of interval. */
static double stddev_of(uint32_t n, uint64_t interval_ns,
                        uint64_t (*count)(void* ctx, uint32_t i), void* ctx) {
  if (n == 0 || interval_ns == 0) return 0;
  double sum = 0;
  for (uint32_t i = 0; i < n; i++) sum += (double)count(ctx, i);
  double mean = sum / (double)n, ss = 0;
  for (uint32_t i = 0; i < n; i++) {
    double d = (double)count(ctx, i) - mean;
    ss += d * d;
  }
  return sqrt(ss / (double)n) / ((double)interval_ns / 1e9);
}

/* Reads one series in ascending order (restarts when i goes back). */
static const iospd_bucket_t* cursor_at(const iospd_buckets_t* bk,
                                       const iospd_bucket_chunk_t** at,
                                       uint32_t i) {
  const iospd_bucket_chunk_t* c = *at;
  if (c == NULL || i < c->first) c = bk->head;
  while (c != NULL && i >= c->first + c->len)
    c = atomic_load_explicit(&c->next, memory_order_acquire);
  *at = c;
  return c != NULL ? &c->b[i - c->first] : NULL;
}

typedef struct one_s {
  const iospd_buckets_t* bk;
  const iospd_bucket_chunk_t* at;
} one_t;

static uint64_t one_count(void* ctx, uint32_t i) {
  one_t* o = ctx;
  const iospd_bucket_t* b = cursor_at(o->bk, &o->at, i);
  return b != NULL ? b->count : 0;
}

double iospd_buckets_iops_stddev(const iospd_buckets_t* bk) {
  one_t o = {bk, NULL};
  return stddev_of(bk->used, bk->interval_ns, one_count, &o);
}

/* ---- sums ---------------------------------------------------------------- */

void iospd_buckets_sum_init(iospd_buckets_sum_t* s) {
  memset(s, 0, sizeof *s);
  s->src = s->src_inline;
  s->at = s->at_inline;
  s->cap = IOSPD_ARRAY_SIZE(s->src_inline);
}

void iospd_buckets_sum_destroy(iospd_buckets_sum_t* s) {
  if (s->src != s->src_inline) {
    iospd_free((void*)s->src);
    iospd_free((void*)s->at);
  }
  iospd_buckets_sum_init(s);
}

int iospd_buckets_sum_add(iospd_buckets_sum_t* s, const iospd_buckets_t* bk) {
  if (bk->capacity == 0) return 0;
  if (s->interval_ns == 0) s->interval_ns = bk->interval_ns;
  if (s->interval_ns != bk->interval_ns) return IOSPD_EINVAL;
  if (s->count == s->cap) {
    uint32_t cap = s->cap * 2;
    const iospd_buckets_t** src = iospd_calloc(cap, sizeof(*src));
    const iospd_bucket_chunk_t** at = iospd_calloc(cap, sizeof(*at));
    if (src == NULL || at == NULL) {
      iospd_free((void*)src);
      iospd_free((void*)at);
      return IOSPD_ENOMEM;
    }
    memcpy((void*)src, (const void*)s->src, s->count * sizeof(*src));
    memcpy((void*)at, (const void*)s->at, s->count * sizeof(*at));
    if (s->src != s->src_inline) {
      iospd_free((void*)s->src);
      iospd_free((void*)s->at);
    }
    s->src = src;
    s->at = at;
    s->cap = cap;
  }
  s->src[s->count] = bk;
  s->at[s->count] = NULL;
  s->count++;
  if (bk->used > s->used) s->used = bk->used;
  return 0;
}

void iospd_buckets_sum_get(iospd_buckets_sum_t* s, uint32_t i,
                           iospd_bucket_t* out) {
  memset(out, 0, sizeof *out);
  for (uint32_t k = 0; k < s->count; k++) {
    if (i >= s->src[k]->used) continue;
    const iospd_bucket_t* b = cursor_at(s->src[k], &s->at[k], i);
    if (b != NULL) bucket_add(out, b);
  }
}

static uint64_t sum_count(void* ctx, uint32_t i) {
  iospd_buckets_sum_t* s = ctx;
  uint64_t n = 0;
  for (uint32_t k = 0; k < s->count; k++) {
    if (i >= s->src[k]->used) continue;
    const iospd_bucket_t* b = cursor_at(s->src[k], &s->at[k], i);
    if (b != NULL) n += b->count;
  }
  return n;
}

double iospd_buckets_sum_iops_stddev(iospd_buckets_sum_t* s) {
  return stddev_of(s->used, s->interval_ns, sum_count, s);
}
