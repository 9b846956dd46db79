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
#include "iospd/crc32.h"

#include <stdlib.h>
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

/* Constants K(n) = x^n mod P, bit-reflected and shifted left by one (the
 * paper's convention); folding a 128-bit lane forward by D bits multiplies
 * its halves by K(D+32) (low) and K(D-32) (high). Computed with a few lines
 * of Python; the tests check the results against zlib. */
#define KPAIR(lo, hi) _mm_set_epi64x((long long)(hi), (long long)(lo))

/* The last 0..15 16-byte pieces of a fold, then 128 -> 32 bits. */
FOLD_TARGET static uint32_t crc_finish(__m128i x1, const uint8_t* p,
                                       size_t len) {
  const __m128i k3k4 = KPAIR(0x01751997d0, 0x00ccaa009e); /* D = 128 */
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
  const __m128i mask32 = _mm_setr_epi32(-1, 0, -1, 0);
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

/* len >= 64 and a multiple of 16; crc in and out pre-inverted. Four
 * 128-bit lanes, 64 bytes a round. */
FOLD_TARGET static uint32_t crc_fold(const uint8_t* p, size_t len,
                                     uint32_t crc) {
  const __m128i k1k2 = KPAIR(0x0154442bd4, 0x01c6e41596); /* D = 512 */
  const __m128i k3k4 = KPAIR(0x01751997d0, 0x00ccaa009e); /* D = 128 */
  __m128i x1 = _mm_loadu_si128((const __m128i*)p);
  __m128i x2 = _mm_loadu_si128((const __m128i*)(p + 16));
  __m128i x3 = _mm_loadu_si128((const __m128i*)(p + 32));
  __m128i x4 = _mm_loadu_si128((const __m128i*)(p + 48));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  p += 64;
  len -= 64;
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
  return crc_finish(x1, p, len);
}

/* The same with 512-bit registers (VPCLMULQDQ + AVX-512): sixteen 128-bit
 * lanes, 256 bytes a round, four times the SSE loop's work per
 * instruction. len >= 256 and a multiple of 16. */
#define ZFOLD_TARGET \
  __attribute__((target("avx512f,avx512vl,vpclmulqdq,pclmul,sse4.1")))

ZFOLD_TARGET static inline __m512i zfold(__m512i a, __m512i k, __m512i b) {
  __m512i lo = _mm512_clmulepi64_epi128(a, k, 0x00);
  __m512i hi = _mm512_clmulepi64_epi128(a, k, 0x11);
  return _mm512_ternarylogic_epi64(lo, hi, b, 0x96); /* lo ^ hi ^ b */
}

ZFOLD_TARGET static uint32_t crc_fold512(const uint8_t* p, size_t len,
                                         uint32_t crc) {
  const __m512i k256 =
      _mm512_broadcast_i32x4(KPAIR(0x011542778a, 0x01322d1430)); /* 2048 */
  const __m512i k64 =
      _mm512_broadcast_i32x4(KPAIR(0x0154442bd4, 0x01c6e41596)); /* 512 */
  __m512i z0 = _mm512_loadu_si512((const void*)p);
  __m512i z1 = _mm512_loadu_si512((const void*)(p + 64));
  __m512i z2 = _mm512_loadu_si512((const void*)(p + 128));
  __m512i z3 = _mm512_loadu_si512((const void*)(p + 192));
  z0 = _mm512_xor_si512(z0,
                        _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
  p += 256;
  len -= 256;
  for (; len >= 256; p += 256, len -= 256) {
    z0 = zfold(z0, k256, _mm512_loadu_si512((const void*)p));
    z1 = zfold(z1, k256, _mm512_loadu_si512((const void*)(p + 64)));
    z2 = zfold(z2, k256, _mm512_loadu_si512((const void*)(p + 128)));
    z3 = zfold(z3, k256, _mm512_loadu_si512((const void*)(p + 192)));
  }
  z0 = zfold(z0, k64, z1);
  z0 = zfold(z0, k64, z2);
  z0 = zfold(z0, k64, z3);
  for (; len >= 64; p += 64, len -= 64)
    z0 = zfold(z0, k64, _mm512_loadu_si512((const void*)p));
  /* Four lanes into the last: forward by 384, 256 and 128 bits. */
  __m128i x = _mm512_extracti32x4_epi32(z0, 3);
  x = fold16(_mm512_extracti32x4_epi32(z0, 0),
             KPAIR(0x003db1ecdc, 0x0174359406), x);
  x = fold16(_mm512_extracti32x4_epi32(z0, 1),
             KPAIR(0x00f1da05aa, 0x015a546366), x);
  x = fold16(_mm512_extracti32x4_epi32(z0, 2),
             KPAIR(0x01751997d0, 0x00ccaa009e), x);
  return crc_finish(x, p, len);
}

/* -1: not asked yet; 0 none; 1 SSE fold; 2 also the 512-bit fold. A benign
 * race: every thread finds the same answer. IOSPD_CRC32_NO_AVX512 in the
 * environment keeps to the SSE fold (tests and comparisons). */
static int g_have = -1;

static int have(void) {
  if (g_have < 0) {
    __builtin_cpu_init();
    int h = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    if (h && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("vpclmulqdq") &&
        getenv("IOSPD_CRC32_NO_AVX512") == NULL)
      h = 2;
    g_have = h;
  }
  return g_have;
}

bool iospd_crc32_accelerated(void) { return have() > 0; }

uint32_t iospd_crc32(uint32_t crc, const void* buf, size_t len) {
  const uint8_t* p = buf;
  if (len >= 64) {
    int h = have();
    if (h > 0) {
      size_t n = len & ~(size_t)15;
      crc = ~(h == 2 && n >= 256 ? crc_fold512(p, n, ~crc)
                                 : crc_fold(p, n, ~crc));
      p += n;
      len -= n;
    }
  }
  return len ? iospd_crc32_zlib(crc, p, len) : crc;
}
#else
bool iospd_crc32_accelerated(void) { return false; }
uint32_t iospd_crc32(uint32_t crc, const void* buf, size_t len) {
  return iospd_crc32_zlib(crc, buf, len);
}
#endif
