/* SPDX-License-Identifier: MIT */
/* A small independent model of DISKSPD 2.2's generator and of its random
 * buffer fill (Random::RandBuffer as used by -Zr and -Z<size>), written for
 * the tests from the behaviour reference (DISKSPD's write buffers; DISKSPD's random numbers) and checked against
 * DISKSPD's source, sharing no code with src/base/rand.c. The address enters
 * only as "address mod 8", so a test can state the alignment DISKSPD's
 * buffer would have without placing one there.
 *
 * DISKSPD's fill, in words:
 *   1. address mod 8 = h. If h != 0: take one step and write its h lowest
 *      bytes (lowest first), or fewer if the buffer is shorter. Note: h
 *      bytes, not the 8 - h that would reach the next boundary.
 *   2. Of what is left, the whole 8-byte words: in fast mode (-Zr), while
 *      more than 16 words are left, 5 steps make 16 words; then one step
 *      per word.
 *   3. The last (len - h) % 8 bytes: one step, lowest byte first. */
#ifndef IOSPD_TESTS_DISKSPD_FILL_MODEL_H
#define IOSPD_TESTS_DISKSPD_FILL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t v[4];
} dsm_rng_t;

static inline uint64_t dsm_rot(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t dsm_step(dsm_rng_t* g) {
  uint64_t t = g->v[0] - dsm_rot(g->v[1], 7);
  g->v[0] = g->v[1] ^ dsm_rot(g->v[2], 13);
  g->v[1] = g->v[2] + dsm_rot(g->v[3], 37);
  g->v[2] = g->v[3] + t;
  g->v[3] = t + g->v[0];
  return g->v[3];
}

static inline void dsm_seed(dsm_rng_t* g, uint64_t seed) {
  g->v[0] = 0xf1ea5eedull;
  g->v[1] = g->v[2] = g->v[3] = seed;
  for (int i = 0; i < 20; i++) (void)dsm_step(g);
}

/* Writes the n lowest bytes of x at out[at..], lowest byte first. */
static inline void dsm_put(uint8_t* out, size_t at, uint64_t x, size_t n) {
  for (size_t i = 0; i < n; i++) out[at + i] = (uint8_t)(x >> (8 * i));
}

static inline void dsm_fill(dsm_rng_t* g, uint8_t* out, size_t len,
                            unsigned addr_mod8, bool fast) {
  size_t at = 0;
  if (addr_mod8 % 8 != 0) {
    size_t h = addr_mod8 % 8;
    if (h > len) h = len;
    dsm_put(out, at, dsm_step(g), h);
    at += h;
  }
  size_t words = (len - at) / 8;
  size_t tail = (len - at) % 8;
  if (fast) {
    for (; words > 16; words -= 16) {
      uint64_t w[16];
      for (int i = 0; i < 5; i++) w[i] = dsm_step(g);
      uint64_t a = dsm_rot(w[0], 7), b = dsm_rot(w[1], 13);
      uint64_t c = dsm_rot(w[2], 19);
      w[5] = a ^ w[1];
      w[6] = a ^ w[2];
      w[7] = a ^ w[3];
      w[8] = a ^ w[4];
      w[9] = b ^ w[2];
      w[10] = b ^ w[3];
      w[11] = b ^ w[4];
      w[12] = c ^ w[3];
      w[13] = c ^ w[4];
      w[14] = a ^ b ^ c;
      w[15] = a ^ dsm_rot(w[3] ^ w[4], 39);
      for (int i = 0; i < 16; i++, at += 8) dsm_put(out, at, w[i], 8);
    }
  }
  for (; words > 0; words--, at += 8) dsm_put(out, at, dsm_step(g), 8);
  if (tail != 0) dsm_put(out, at, dsm_step(g), tail);
}

/* DISKSPD's 100 % random offset (DISKSPD's random offsets) relative to the base, for a target
 * of rel bytes, block size bs and alignment a, without a distribution. */
static inline uint64_t dsm_random_offset(dsm_rng_t* g, uint64_t rel,
                                         uint64_t bs, uint64_t a) {
  uint64_t span = (rel - bs) - (rel - bs) % a + a;
  uint64_t x = dsm_step(g);
  return (x - x % a) % span;
}

#endif
