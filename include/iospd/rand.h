/* SPDX-License-Identifier: MIT */
/* DISKSPD's pseudo-random generator (Bob Jenkins' small 64-bit PRNG), so
 * that the same seed gives the same offsets and read/write choices on every
 * platform and as DISKSPD. Per thread; never shared between threads. */
#ifndef IOSPD_RAND_H
#define IOSPD_RAND_H

#include "iospd/common.h"

typedef struct iospd_rand_s {
  uint64_t a, b, c, d;
} iospd_rand_t;

/* a = 0xf1ea5eed, b = c = d = seed, then 20 discarded steps. */
void iospd_rand_seed(iospd_rand_t* r, uint64_t seed);

static inline uint64_t iospd_rand_rotl(uint64_t x, unsigned k) {
  return (x << k) | (x >> (64u - k));
}

/* Hot path. One step; the output is d. */
static inline uint64_t iospd_rand64(iospd_rand_t* r) {
  uint64_t e = r->a - iospd_rand_rotl(r->b, 7);
  r->a = r->b ^ iospd_rand_rotl(r->c, 13);
  r->b = r->c + iospd_rand_rotl(r->d, 37);
  r->c = r->d + e;
  r->d = e + r->a;
  return r->d;
}

/* Hot path. Low 32 bits of one step. */
static inline uint32_t iospd_rand32(iospd_rand_t* r) {
  return (uint32_t)iospd_rand64(r);
}

/* Hot path. DISKSPD's percentage test: (Rand32 mod 100) + 1 <= pct. Always
 * draws, even for 0 or 100 (callers skip the call where DISKSPD does). */
static inline bool iospd_rand_ratio(iospd_rand_t* r, uint32_t pct) {
  return (iospd_rand32(r) % 100u) + 1u <= pct;
}

/* Fills buf with random bytes in DISKSPD's order: if buf is not 8-byte
 * aligned, a head of (address & 7) bytes from one step (DISKSPD's count, not
 * the distance to the boundary), then whole 8-byte words, then a tail of
 * len % 8 bytes (after the head) from one step. fast: the -Zr mode in which
 * 5 steps give 16 words (11 are rotate/xor combinations of the 5). */
void iospd_rand_fill(iospd_rand_t* r, void* buf, size_t len, bool fast);

#endif
