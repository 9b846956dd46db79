/* SPDX-License-Identifier: MIT */
/* Generated write content (iospd/content.h): the pool calibrated with zlib
 * before the run, and the stamping writer of the hot path. */
#include "iospd/content.h"

#include <string.h>
#include <zlib.h>

#include "iospd/alloc.h"
#include "iospd/rand.h"

#define PHRASE 61u        /* the compressible filler repeats this often */
#define Q_ONE 65536u      /* random share of a chunk, in 1/65536 */
#define CALIB_MAX (256u << 10) /* first guess from at most this much */

/* splitmix64's finalizer: a bijection on 64 bits, so distinct inputs give
 * distinct stamps. */
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* One block of n bytes: per chunk a stamp, q/65536 of the rest random,
 * then the block's phrase repeated. */
static void build_block(uint8_t* b, size_t n, uint32_t q,
                        const uint8_t* random, const uint8_t* phrase) {
  for (size_t at = 0; at < n; at += IOSPD_CONTENT_CHUNK) {
    size_t len = n - at < IOSPD_CONTENT_CHUNK ? n - at : IOSPD_CONTENT_CHUNK;
    size_t stamp = len < IOSPD_CONTENT_STAMP ? len : IOSPD_CONTENT_STAMP;
    size_t rnd = (size_t)(((uint64_t)(len - stamp) * q) >> 16);
    memcpy(b + at, random + at, stamp + rnd);
    for (size_t i = stamp + rnd; i < len; i++)
      b[at + i] = phrase[(at + i) % PHRASE];
  }
}

typedef struct calib_s {
  uint8_t* scratch; /* n bytes */
  uLongf cap;
  Bytef* out;
} calib_t;

static double measure(calib_t* c, size_t n, uint32_t q, const uint8_t* rnd,
                      const uint8_t* phrase) {
  build_block(c->scratch, n, q, rnd, phrase);
  uLongf got = c->cap;
  if (compress2(c->out, &got, c->scratch, (uLong)n, Z_DEFAULT_COMPRESSION) !=
      Z_OK)
    return 0.0;
  return 100.0 * (1.0 - (double)got / (double)n);
}

/* The random share whose saving is closest to pct (saving falls as q
 * grows): a bisection over q. */
static uint32_t calibrate(calib_t* c, size_t n, uint32_t pct,
                          const uint8_t* rnd, const uint8_t* phrase,
                          uint32_t lo, uint32_t hi) {
  if (pct == 0) return Q_ONE;
  double best_err = 1e9;
  uint32_t best = lo;
  while (lo <= hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    double s = measure(c, n, mid, rnd, phrase);
    double e = s > pct ? s - pct : pct - s;
    if (e < best_err) {
      best_err = e;
      best = mid;
    }
    if (e < 0.05) break;
    if (s > pct) lo = mid + 1;
    else if (mid == 0) break;
    else hi = mid - 1;
  }
  return best;
}

int iospd_content_pool_build(iospd_content_pool_t* p, uint32_t block_size,
                             uint64_t pool_bytes, uint32_t compress_pct,
                             uint32_t dedupe_pct, uint64_t seed,
                             uint64_t nonce, iospd_err_t* err) {
  memset(p, 0, sizeof *p);
  if (block_size == 0 || compress_pct > 100 || dedupe_pct > 100)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "generated content needs a block size and "
                         "percentages from 0 to 100");
  uint64_t count = pool_bytes ? pool_bytes / block_size
                              : IOSPD_CONTENT_DEFAULT_POOL / block_size;
  if (pool_bytes == 0 && count > IOSPD_CONTENT_MAX_POOL_BLOCKS)
    count = IOSPD_CONTENT_MAX_POOL_BLOCKS;
  if (count == 0) count = 1;
  if (count > UINT32_MAX || count * block_size > (uint64_t)(SIZE_MAX / 2))
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "the content pool of %llu blocks of %u bytes is "
                         "more than this build can address; use a smaller "
                         "-Z<size>",
                         (unsigned long long)count, block_size);
  size_t n = block_size;
  calib_t c = {NULL, compressBound((uLong)n), NULL};
  uint8_t* rnd = iospd_malloc(n);
  c.scratch = iospd_malloc(n);
  c.out = iospd_malloc(c.cap);
  p->blocks = iospd_malloc((size_t)count * n);
  if (rnd == NULL || c.scratch == NULL || c.out == NULL || p->blocks == NULL) {
    iospd_free(rnd);
    iospd_free(c.scratch);
    iospd_free(c.out);
    iospd_free(p->blocks);
    p->blocks = NULL;
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory for the content pool (%llu bytes)",
                         (unsigned long long)(count * n));
  }
  p->block_size = block_size;
  p->count = (uint32_t)count;
  p->compress_pct = compress_pct;
  p->dedupe_pct = dedupe_pct;
  p->nonce = nonce;

  iospd_rand_t rng;
  iospd_rand_seed(&rng, seed ^ 0x636f6e74656e74ull); /* "content" */
  uint8_t phrase[PHRASE];
  /* A first guess from a sample of at most CALIB_MAX bytes, refined per
   * block only where the block misses by more than a point. */
  iospd_rand_fill(&rng, rnd, n, false);
  iospd_rand_fill(&rng, phrase, sizeof phrase, false);
  size_t sample = n < CALIB_MAX ? n : CALIB_MAX;
  uint32_t q0 = calibrate(&c, sample, compress_pct, rnd, phrase, 0, Q_ONE);
  double sum = 0;
  p->saving_min = 1e9;
  p->saving_max = -1e9;
  for (uint32_t i = 0; i < p->count; i++) {
    if (i > 0) {
      iospd_rand_fill(&rng, rnd, n, false);
      iospd_rand_fill(&rng, phrase, sizeof phrase, false);
    }
    uint32_t q = q0;
    double s = measure(&c, n, q, rnd, phrase);
    if (compress_pct > 0 && (s > compress_pct + 1.0 || s < compress_pct - 1.0)) {
      q = calibrate(&c, n, compress_pct, rnd, phrase, 0, Q_ONE);
      s = measure(&c, n, q, rnd, phrase);
    }
    memcpy(p->blocks + (size_t)i * n, c.scratch, n);
    sum += s;
    if (s < p->saving_min) p->saving_min = s;
    if (s > p->saving_max) p->saving_max = s;
  }
  p->saving_mean = sum / p->count;
  iospd_free(rnd);
  iospd_free(c.scratch);
  iospd_free(c.out);
  return 0;
}

void iospd_content_pool_free(iospd_content_pool_t* p) {
  iospd_free(p->blocks);
  memset(p, 0, sizeof *p);
}

void iospd_content_writer_init(iospd_content_writer_t* w,
                               const iospd_content_pool_t* pool,
                               uint32_t worker, uint32_t target,
                               uint32_t slots, uint8_t* bufs) {
  memset(w, 0, sizeof *w);
  w->pool = pool;
  uint64_t id = ((uint64_t)worker << 32) | target;
  /* nonce + id is distinct for distinct (worker, target) in a run; the
   * bijection keeps it so. */
  w->key_word = mix64(pool->nonce + id);
  w->pick = mix64(id ^ 0x9e3779b97f4a7c15ull) | 1u;
  const uint8_t* base =
      pool->blocks + (size_t)(mix64(id) % pool->count) * pool->block_size;
  for (uint32_t i = 0; i < slots; i++)
    memcpy(bufs + (size_t)i * pool->block_size, base, pool->block_size);
}

void iospd_content_next(iospd_content_writer_t* w, uint8_t* buf) {
  const iospd_content_pool_t* p = w->pool;
  uint64_t id;
  w->writes++;
  /* Repeat when that keeps dups / writes at or under the share asked for;
   * the first block has nothing to repeat. */
  if (w->uniques > 0 && (w->dups + 1) * 100u <= w->writes * p->dedupe_pct) {
    uint64_t x = w->pick;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    w->pick = x;
    id = x % w->uniques;
    w->dups++;
  } else {
    id = w->uniques++;
  }
  /* block_size < 2^32, so chunk < 2^20 and id < 2^44 pack injectively. */
  uint64_t chunk = 0;
  for (size_t at = 0; at < p->block_size; at += IOSPD_CONTENT_CHUNK, chunk++) {
    uint64_t b = mix64((id << 20) | chunk);
    size_t left = p->block_size - at;
    if (left >= IOSPD_CONTENT_STAMP) {
      memcpy(buf + at, &w->key_word, 8);
      memcpy(buf + at + 8, &b, 8);
    } else {
      uint8_t s[IOSPD_CONTENT_STAMP];
      memcpy(s, &w->key_word, 8);
      memcpy(s + 8, &b, 8);
      memcpy(buf + at, s, left);
    }
  }
}
