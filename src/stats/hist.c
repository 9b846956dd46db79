/* SPDX-License-Identifier: MIT */
/* Latency histogram: a fixed hybrid linear/log-linear bucket layout in
 * nanoseconds, allocated once, plus exact count/min/max/mean/stddev kept
 * beside the buckets. Recording is a compare, a shift and an add. */
#include "iospd/hist.h"

#include <math.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/error.h"

/*
 * EXECUTIVE SUMMARY
 *
 * Reports print latencies in milliseconds with three decimals (%.3f ms, i.e.
 * to the microsecond). The requirement is: below 10 ms a reported percentile
 * prints exactly as the true sample would; above 10 ms it is within 0.1 %.
 *
 * Region 1, linear, 0 <= ns < 10,000,500 (10,001 buckets):
 *   index = (ns + 500) / 1000, i.e. the sample rounded half-up to the
 *   nearest microsecond. Bucket k therefore holds exactly the samples whose
 *   value rounded to 0.001 ms is k us, and its representative k*1000 ns
 *   prints the same %.3f text as every sample inside it. The upper limit
 *   10,000,500 makes everything that prints as "10.000" still exact.
 *
 * Region 2, log-linear, ns >= 10,000,500 (groups g = 23 .. 42):
 *   g = floor(log2(ns)) (one count-leading-zeros), and each power-of-two
 *   group [2^g, 2^(g+1)) is split into 2^9 = 512 equal sub-buckets of width
 *   w = 2^(g-9): sub = (ns >> (g - 9)) & 511. The representative is the
 *   bucket midpoint, so the error is at most w/2 = 2^(g-10) against a value
 *   of at least 2^g: relative error <= 2^-10 = 0.098 % (< 0.1 %).
 *   Group 23 starts at 8.39 ms; its sub-buckets below 10,000,500 ns are
 *   simply never used (98 of them). Values >= 2^43 ns (~2.4 hours) land in
 *   the last bucket; a percentile falling there reports the exact maximum.
 *
 * Every representative is clamped to the exact [min, max], so p=0 and p=100
 * are exact and no percentile lies outside the observed range.
 *
 * Memory: 10,001 + 20 * 512 = 20,241 buckets of 64-bit counts = 161,928
 * bytes, plus 48 bytes of exact statistics: 161,976 bytes per histogram
 * (IOSPD_HIST_BYTES), fixed whatever the run length or the sample count.
 *
 * Exact statistics: count, min, max, the sum of the samples (64 bits) and
 * the sum of their squares (128 bits, kept as two uint64 so no compiler
 * __int128 is needed: i686 mingw builds this too) are all integers, so
 * recording is adds only (no division per sample) and merging per-thread
 * histograms in any order gives bit-for-bit the same sums as one histogram
 * of all samples. Mean and stddev are derived at report time; the variance
 * numerator n*M2 = n*sumsq - sum^2 is computed exactly in integers before the
 * one conversion to double. The 64-bit sum holds 2^64 ns = 584 years of
 * summed latency; the 128-bit sum of squares more than any run can reach.
 *
 * Percentiles use DISKSPD's nearest-rank rule: with N samples and
 * t = p/100 * N, the result is the first bucket (ascending) whose cumulative
 * count is >= t; p <= 0 gives min, p >= 100 gives max, no interpolation.
 */

#define LIN_STEP_NS 1000u
#define LIN_COUNT 10001u
#define LIN_LIMIT_NS 10000500u /* first value of the log region */
#define LOG_FIRST_GROUP 23u    /* 2^23 ns = 8.39 ms <= LIN_LIMIT_NS */
#define LOG_GROUPS 20u         /* groups 23 .. 42 */
#define SUB_BITS 9u
#define SUB_COUNT (1u << SUB_BITS)
#define NBUCKETS (LIN_COUNT + LOG_GROUPS * SUB_COUNT)
#define MAX_TRACKED_NS ((UINT64_C(1) << (LOG_FIRST_GROUP + LOG_GROUPS)) - 1)

IOSPD_STATIC_ASSERT((UINT64_C(1) << LOG_FIRST_GROUP) <= LIN_LIMIT_NS &&
                        (UINT64_C(1) << (LOG_FIRST_GROUP + 1)) > LIN_LIMIT_NS,
                    "the linear region must end inside the first log group");

struct iospd_hist_s {
  uint64_t n;
  uint64_t min, max;
  uint64_t sum;             /* sum of the samples, ns */
  uint64_t sq_lo, sq_hi;    /* sum of their squares, ns^2, 128 bits */
  uint64_t counts[NBUCKETS];
};

IOSPD_STATIC_ASSERT(sizeof(struct iospd_hist_s) == IOSPD_HIST_BYTES,
                    "IOSPD_HIST_BYTES must match the layout");

static inline unsigned log2_u64(uint64_t v) {
#if defined(__GNUC__)
  return 63u - (unsigned)__builtin_clzll(v);
#else
  unsigned r = 0;
  while (v >>= 1) r++;
  return r;
#endif
}

static inline uint32_t bucket_of(uint64_t ns) {
  if (ns < LIN_LIMIT_NS) return (uint32_t)((ns + LIN_STEP_NS / 2) / LIN_STEP_NS);
  if (IOSPD_UNLIKELY(ns > MAX_TRACKED_NS)) return NBUCKETS - 1;
  unsigned g = log2_u64(ns);
  uint32_t sub = (uint32_t)(ns >> (g - SUB_BITS)) & (SUB_COUNT - 1);
  return LIN_COUNT + (g - LOG_FIRST_GROUP) * SUB_COUNT + sub;
}

/* The value a bucket reports (before clamping to [min, max]). */
static double bucket_value(uint32_t idx) {
  if (idx < LIN_COUNT) return (double)idx * LIN_STEP_NS;
  uint32_t rel = idx - LIN_COUNT;
  unsigned g = LOG_FIRST_GROUP + rel / SUB_COUNT;
  uint64_t sub = rel % SUB_COUNT;
  uint64_t width = UINT64_C(1) << (g - SUB_BITS);
  uint64_t lo = (SUB_COUNT + sub) * width;
  return (double)lo + (double)(width / 2);
}

iospd_hist_t* iospd_hist_create(void) {
  iospd_hist_t* h = iospd_calloc(1, sizeof *h);
  return h;
}

void iospd_hist_destroy(iospd_hist_t* h) { iospd_free(h); }

void iospd_hist_reset(iospd_hist_t* h) { memset(h, 0, sizeof *h); }

/* ---- 128-bit unsigned arithmetic in portable C ------------------------- */

typedef struct u128_s {
  uint64_t hi, lo;
} u128_t;

static u128_t mul64(uint64_t a, uint64_t b) {
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  /* Middle column: at most 3 * (2^32 - 1), fits in 64 bits. */
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  u128_t r;
  r.lo = (mid << 32) | (uint32_t)p00;
  r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return r;
}

static u128_t add128(u128_t a, u128_t b) {
  u128_t r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo);
  return r;
}

/* a - b, for a >= b. */
static u128_t sub128(u128_t a, u128_t b) {
  u128_t r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo);
  return r;
}

/* a * b, for a product below 2^128. */
static u128_t mul128x64(u128_t a, uint64_t b) {
  u128_t r = mul64(a.lo, b);
  r.hi += a.hi * b;
  return r;
}

static double u128_to_double(u128_t a) {
  return (double)a.hi * 18446744073709551616.0 + (double)a.lo;
}

void iospd_hist_record(iospd_hist_t* h, uint64_t ns) {
  h->counts[bucket_of(ns)]++;
  if (h->n == 0 || ns < h->min) h->min = ns;
  if (ns > h->max) h->max = ns;
  h->n++;
  h->sum += ns;
  if (IOSPD_LIKELY(ns <= UINT32_MAX)) {
    /* Below 4.29 s the square fits in 64 bits: one multiply, one carry. */
    uint64_t sq = ns * ns;
    h->sq_lo += sq;
    h->sq_hi += h->sq_lo < sq;
  } else {
    u128_t acc = {h->sq_hi, h->sq_lo};
    acc = add128(acc, mul64(ns, ns));
    h->sq_hi = acc.hi;
    h->sq_lo = acc.lo;
  }
}

void iospd_hist_merge(iospd_hist_t* dst, const iospd_hist_t* src) {
  if (src->n == 0) return;
  if (dst->n == 0) {
    memcpy(dst, src, sizeof *dst);
    return;
  }
  for (uint32_t i = 0; i < NBUCKETS; i++) dst->counts[i] += src->counts[i];
  /* Integer sums: the merge is exact whatever the order. */
  u128_t a = {dst->sq_hi, dst->sq_lo}, b = {src->sq_hi, src->sq_lo};
  a = add128(a, b);
  dst->sq_hi = a.hi;
  dst->sq_lo = a.lo;
  dst->sum += src->sum;
  dst->n += src->n;
  if (src->min < dst->min) dst->min = src->min;
  if (src->max > dst->max) dst->max = src->max;
}

uint64_t iospd_hist_count(const iospd_hist_t* h) { return h->n; }
uint64_t iospd_hist_min_ns(const iospd_hist_t* h) { return h->n ? h->min : 0; }
uint64_t iospd_hist_max_ns(const iospd_hist_t* h) { return h->n ? h->max : 0; }
double iospd_hist_mean_ns(const iospd_hist_t* h) {
  if (h->n == 0) return 0;
  /* sum = q*n + r: q exact, r/n the only rounded part. */
  uint64_t q = h->sum / h->n, r = h->sum % h->n;
  return (double)q + (double)r / (double)h->n;
}

double iospd_hist_stddev_ns(const iospd_hist_t* h) {
  if (h->n <= 1) return 0;
  /* M2 = sumsq - sum^2/n. With sum = q*n + r:
   * sum^2/n = q^2*n + 2*q*r + r^2/n, and q^2*n + 2*q*r <= sum^2/n <= sumsq,
   * so the integer part of the subtraction is exact in 128 bits and only
   * r^2/n (< n) is left to a double. */
  uint64_t n = h->n, q = h->sum / n, r = h->sum % n;
  u128_t sq = {h->sq_hi, h->sq_lo};
  u128_t whole = add128(mul128x64(mul64(q, q), n), mul128x64(mul64(q, r), 2));
  if (whole.hi > sq.hi || (whole.hi == sq.hi && whole.lo > sq.lo)) return 0;
  double m2 = u128_to_double(sub128(sq, whole)) -
              (double)r * ((double)r / (double)n);
  if (m2 <= 0) return 0;
  return sqrt(m2 / (double)n);
}

double iospd_hist_percentile_ns(const iospd_hist_t* h, double p) {
  if (h->n == 0) return 0;
  if (p <= 0) return (double)h->min;
  if (p >= 100) return (double)h->max;
  /* DISKSPD's rank: N × the fraction as the double nearest to it (0.999 for
   * 99.9, as DISKSPD's tables write it). p / 100.0 rounds to
   * 0.99900000000000011 instead, which made 99.9 % of 10000 samples
   * 9990.000000000002 and moved the 3-nines to the next value. p has at most
   * 7 decimals (99.9999999), so p × 1e7 is an integer. */
  double frac = (double)llround(p * 1e7) / 1e9;
  double target = frac * (double)h->n;
  uint64_t cum = 0;
  uint32_t i = 0;
  for (; i < NBUCKETS; i++) {
    cum += h->counts[i];
    if (h->counts[i] != 0 && (double)cum >= target) break;
  }
  if (i >= NBUCKETS) return (double)h->max; /* rounding: t slightly > N */
  if (i == NBUCKETS - 1) return (double)h->max; /* overflow bucket */
  double v = bucket_value(i);
  if (v < (double)h->min) v = (double)h->min;
  if (v > (double)h->max) v = (double)h->max;
  return v;
}

uint64_t iospd_hist_bucket_count(const iospd_hist_t* h) {
  uint64_t c = 0;
  for (uint32_t i = 0; i < NBUCKETS; i++) c += h->counts[i] != 0;
  return c;
}

/* ---- sparse form --------------------------------------------------------- */

/* Bounds of bucket idx: [lo, hi). The linear bucket k holds the samples that
 * round to k us: [k*1000 - 500, k*1000 + 500), bucket 0 from 0. The first
 * log bucket in use starts at LIN_LIMIT_NS, not at its nominal bound (the
 * nominal part below is the linear region's). */
static void bucket_bounds(uint32_t idx, uint64_t* lo, uint64_t* hi) {
  if (idx < LIN_COUNT) {
    *lo = idx == 0 ? 0 : (uint64_t)idx * LIN_STEP_NS - LIN_STEP_NS / 2;
    *hi = (uint64_t)idx * LIN_STEP_NS + LIN_STEP_NS / 2;
    return;
  }
  uint32_t rel = idx - LIN_COUNT;
  unsigned g = LOG_FIRST_GROUP + rel / SUB_COUNT;
  uint64_t width = UINT64_C(1) << (g - SUB_BITS);
  *lo = (SUB_COUNT + rel % SUB_COUNT) * width;
  *hi = *lo + width;
  if (*lo < LIN_LIMIT_NS) *lo = LIN_LIMIT_NS;
}

void iospd_hist_get_exact(const iospd_hist_t* h, iospd_hist_exact_t* out) {
  out->count = h->n;
  out->min_ns = iospd_hist_min_ns(h);
  out->max_ns = iospd_hist_max_ns(h);
  out->sum_ns = h->sum;
  out->sumsq_hi = h->sq_hi;
  out->sumsq_lo = h->sq_lo;
}

bool iospd_hist_next_bucket(const iospd_hist_t* h, uint32_t* pos,
                            iospd_hist_bucket_t* out) {
  for (uint32_t i = *pos; i < NBUCKETS; i++) {
    if (h->counts[i] == 0) continue;
    bucket_bounds(i, &out->lo_ns, &out->hi_ns);
    out->count = h->counts[i];
    out->open_end = i == NBUCKETS - 1;
    *pos = i + 1;
    return true;
  }
  *pos = NBUCKETS;
  return false;
}

int iospd_hist_add_bucket(iospd_hist_t* h, uint64_t lo_ns, uint64_t count) {
  if (lo_ns > MAX_TRACKED_NS) return IOSPD_EINVAL;
  uint32_t idx = bucket_of(lo_ns);
  uint64_t lo, hi;
  bucket_bounds(idx, &lo, &hi);
  if (lo != lo_ns) return IOSPD_EINVAL;
  h->counts[idx] += count;
  return 0;
}

void iospd_hist_set_exact(iospd_hist_t* h, const iospd_hist_exact_t* e) {
  h->n = e->count;
  h->min = e->count ? e->min_ns : 0;
  h->max = e->count ? e->max_ns : 0;
  h->sum = e->sum_ns;
  h->sq_hi = e->sumsq_hi;
  h->sq_lo = e->sumsq_lo;
}

int iospd_hist_check(const iospd_hist_t* h) {
  uint64_t total = 0;
  uint32_t first = NBUCKETS, last = 0;
  for (uint32_t i = 0; i < NBUCKETS; i++) {
    if (h->counts[i] == 0) continue;
    if (total + h->counts[i] < total) return IOSPD_EINVAL; /* overflow */
    total += h->counts[i];
    if (first == NBUCKETS) first = i;
    last = i;
  }
  if (total != h->n) return IOSPD_EINVAL;
  if (h->n == 0) return h->min == 0 && h->max == 0 ? 0 : IOSPD_EINVAL;
  if (h->min > h->max) return IOSPD_EINVAL;
  if (bucket_of(h->min) != first || bucket_of(h->max) != last)
    return IOSPD_EINVAL;
  return 0;
}

size_t iospd_u128_to_dec(uint64_t hi, uint64_t lo,
                         char buf[IOSPD_U128_DEC_MAX]) {
  /* Repeated division by 10^19 (the largest power of ten below 2^64) in
   * 32-bit halves, so no compiler 128-bit type is needed. */
  char tmp[IOSPD_U128_DEC_MAX];
  size_t n = 0;
  uint32_t w[4] = {(uint32_t)(hi >> 32), (uint32_t)hi, (uint32_t)(lo >> 32),
                   (uint32_t)lo};
  do {
    uint64_t rem = 0;
    for (int i = 0; i < 4; i++) {
      uint64_t cur = (rem << 32) | w[i];
      w[i] = (uint32_t)(cur / 10);
      rem = cur % 10;
    }
    tmp[n++] = (char)('0' + rem);
  } while (w[0] | w[1] | w[2] | w[3]);
  for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
  return n;
}

int iospd_u128_from_dec(const char* s, uint64_t* hi, uint64_t* lo) {
  if (s == NULL || s[0] == '\0' || (s[0] == '0' && s[1] != '\0'))
    return IOSPD_EINVAL;
  u128_t v = {0, 0};
  for (const char* c = s; *c; c++) {
    if (*c < '0' || *c > '9') return IOSPD_EINVAL;
    /* v * 10 + d, refusing anything that wraps past 2^128 - 1. */
    if (v.hi > UINT64_MAX / 10) return IOSPD_EINVAL;
    u128_t t = mul128x64(v, 10); /* t.hi = v.hi * 10 + carry: may wrap */
    if (t.hi < v.hi * 10) return IOSPD_EINVAL;
    u128_t d = {0, (uint64_t)(*c - '0')};
    u128_t r = add128(t, d);
    if (r.hi < t.hi) return IOSPD_EINVAL;
    v = r;
  }
  *hi = v.hi;
  *lo = v.lo;
  return 0;
}
