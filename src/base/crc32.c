/* SPDX-License-Identifier: MIT */
/* iospd_crc32: zlib's crc32 (CRC-32/ISO-HDLC, reflected polynomial
 * 0xEDB88320), computed by folding 64 bytes at a time with carry-less
 * multiplies where the x86 CPU has PCLMULQDQ, and by zlib's crc32_z
 * elsewhere and for the last 0-15 bytes. The fold follows Gopal, Ozturk et
 * al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 * Instruction" (Intel, 2009), with the bit-reflected constants for this
 * polynomial given there; tests/test_verify.c checks it against crc32_z
 * for every length up to a few KiB. Why not crc32_z alone: Debian's zlib
 * 1.2.13 does about 4 GB/s, about 1 us per 4 KiB block, as much as a whole
 * page-cache read costs; the fold is several times faster. */
#include "iospd/verify.h"

#include <zlib.h>

uint32_t iospd_crc32_zlib(uint32_t crc, const void* buf, size_t len) {
  return (uint32_t)crc32_z(crc, (const Bytef*)buf, (z_size_t)len);
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>

#define FOLD_TARGET __attribute__((target("pclmul,sse4.1")))

/* Folds a by k (low halves and high halves multiplied apart) and adds b. */
FOLD_TARGET static inline __m128i fold16(__m128i a, __m128i k, __m128i b) {
  __m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
  __m128i hi = _mm_clmulepi64_si128(a, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(hi, lo), b);
}

/* len >= 64 and a multiple of 16; crc in and out pre-inverted. */
FOLD_TARGET static uint32_t crc_fold(const uint8_t* p, size_t len,
                                     uint32_t crc) {
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
  const __m128i mask32 = _mm_setr_epi32(-1, 0, -1, 0);
  __m128i x1 = _mm_loadu_si128((const __m128i*)p);
  __m128i x2 = _mm_loadu_si128((const __m128i*)(p + 16));
  __m128i x3 = _mm_loadu_si128((const __m128i*)(p + 32));
  __m128i x4 = _mm_loadu_si128((const __m128i*)(p + 48));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  p += 64;
  len -= 64;
  /* Four lanes, 64 bytes a round. */
  for (; len >= 64; p += 64, len -= 64) {
    x1 = fold16(x1, k1k2, _mm_loadu_si128((const __m128i*)p));
    x2 = fold16(x2, k1k2, _mm_loadu_si128((const __m128i*)(p + 16)));
    x3 = fold16(x3, k1k2, _mm_loadu_si128((const __m128i*)(p + 32)));
    x4 = fold16(x4, k1k2, _mm_loadu_si128((const __m128i*)(p + 48)));
  }
  /* Into one lane, then 16 bytes at a time. */
  x1 = fold16(x1, k3k4, x2);
  x1 = fold16(x1, k3k4, x3);
  x1 = fold16(x1, k3k4, x4);
  for (; len >= 16; p += 16, len -= 16)
    x1 = fold16(x1, k3k4, _mm_loadu_si128((const __m128i*)p));
  /* 128 -> 64 bits. */
  __m128i t = _mm_clmulepi64_si128(x1, k3k4, 0x10);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
  t = _mm_srli_si128(x1, 4);
  x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00);
  x1 = _mm_xor_si128(x1, t);
  /* Barrett reduction to 32 bits. */
  t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly, 0x00);
  x1 = _mm_xor_si128(x1, t);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

static int g_have = -1; /* -1: not asked yet (a benign race: same answer) */

bool iospd_crc32_accelerated(void) {
  if (g_have < 0) {
    __builtin_cpu_init();
    g_have = __builtin_cpu_supports("pclmul") &&
             __builtin_cpu_supports("sse4.1");
  }
  return g_have == 1;
}

uint32_t iospd_crc32(uint32_t crc, const void* buf, size_t len) {
  const uint8_t* p = buf;
  if (len >= 64 && iospd_crc32_accelerated()) {
    size_t n = len & ~(size_t)15;
    crc = ~crc_fold(p, n, ~crc);
    p += n;
    len -= n;
  }
  return len ? iospd_crc32_zlib(crc, p, len) : crc;
}
#else
bool iospd_crc32_accelerated(void) { return false; }
uint32_t iospd_crc32(uint32_t crc, const void* buf, size_t len) {
  return iospd_crc32_zlib(crc, buf, len);
}
#endif
