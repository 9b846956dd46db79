/* SPDX-License-Identifier: MIT */
/* The buffer filler of the DISKSPD PRNG (the step itself is inline in
 * rand.h). Used for -Zr write refills and the -Z<size> source buffer. */
#include "iospd/rand.h"

#include <string.h>

void iospd_rand_seed(iospd_rand_t* r, uint64_t seed) {
  r->a = 0xf1ea5eedull;
  r->b = r->c = r->d = seed;
  for (int i = 0; i < 20; i++) (void)iospd_rand64(r);
}

/* Stores through memcpy so the compiler may not assume alignment. */
static void put64(unsigned char* p, uint64_t v) { memcpy(p, &v, 8); }

void iospd_rand_fill(iospd_rand_t* r, void* buf, size_t len, bool fast) {
  unsigned char* p = buf;
  /* DISKSPD's head: when the buffer is not 8-byte aligned it writes
   * (address & 7) bytes, low byte first, from one step. That count is not
   * the distance to the next boundary (which would be 8 - (address & 7)),
   * so the words that follow are usually still unaligned; we copy it
   * anyway, because the head decides how many steps the words and the tail
   * take, and so every later offset drawn from the same generator. I/O
   * buffers are laid out as DISKSPD's (write slot i at half + i x -b), so a
   * block size that is not a multiple of 8 gives the same heads. */
  size_t head = (size_t)((uintptr_t)p & 7u);
  if (head != 0) {
    uint64_t v = iospd_rand64(r);
    while (head != 0 && len != 0) {
      *p++ = (unsigned char)(v & 0xff);
      v >>= 8;
      head--;
      len--;
    }
  }
  size_t words = len / 8;
  len -= words * 8;
  if (fast) {
    /* Note the strict '>': a run of exactly 16 words takes the slow path,
     * as in DISKSPD. */
    while (words > 16) {
      uint64_t r1 = iospd_rand64(r), r2 = iospd_rand64(r);
      uint64_t r3 = iospd_rand64(r), r4 = iospd_rand64(r);
      uint64_t r5 = iospd_rand64(r);
      put64(p + 0, r1);
      put64(p + 8, r2);
      put64(p + 16, r3);
      put64(p + 24, r4);
      put64(p + 32, r5);
      r1 = iospd_rand_rotl(r1, 7);
      put64(p + 40, r1 ^ r2);
      put64(p + 48, r1 ^ r3);
      put64(p + 56, r1 ^ r4);
      put64(p + 64, r1 ^ r5);
      r2 = iospd_rand_rotl(r2, 13);
      put64(p + 72, r2 ^ r3);
      put64(p + 80, r2 ^ r4);
      put64(p + 88, r2 ^ r5);
      r3 = iospd_rand_rotl(r3, 19);
      put64(p + 96, r3 ^ r4);
      put64(p + 104, r3 ^ r5);
      put64(p + 112, r1 ^ r2 ^ r3);
      put64(p + 120, r1 ^ iospd_rand_rotl(r4 ^ r5, 39));
      p += 128;
      words -= 16;
    }
  }
  while (words != 0) {
    put64(p, iospd_rand64(r));
    p += 8;
    words--;
  }
  if (len != 0) {
    uint64_t v = iospd_rand64(r);
    while (len != 0) {
      *p++ = (unsigned char)(v & 0xff);
      v >>= 8;
      len--;
    }
  }
}
