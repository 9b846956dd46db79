/* SPDX-License-Identifier: MIT */
/* Non-temporal copy for -Smw (see iospd/ntcopy.h). Compiler intrinsics only:
 * no OS header, so the same code serves Windows and Linux. */
#include "iospd/ntcopy.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void iospd_copy_nontemporal(void* dst, const void* src, size_t n) {
#if defined(__SSE2__)
  uint8_t* d = dst;
  const uint8_t* s = src;
  /* Bring the destination to a 16-byte boundary with an ordinary copy:
   * streaming stores need aligned addresses. */
  size_t head = (size_t)(-(uintptr_t)d & 15u);
  if (head > n) head = n;
  memcpy(d, s, head);
  d += head;
  s += head;
  n -= head;
  size_t blocks = n / 16u;
  if (((uintptr_t)s & 15u) == 0) {
    for (size_t i = 0; i < blocks; i++) {
      __m128i v = _mm_load_si128((const __m128i*)(const void*)(s + 16 * i));
      _mm_stream_si128((__m128i*)(void*)(d + 16 * i), v);
    }
  } else {
    for (size_t i = 0; i < blocks; i++) {
      __m128i v = _mm_loadu_si128((const __m128i*)(const void*)(s + 16 * i));
      _mm_stream_si128((__m128i*)(void*)(d + 16 * i), v);
    }
  }
  d += blocks * 16u;
  s += blocks * 16u;
  memcpy(d, s, n - blocks * 16u);
  /* Streaming stores are weakly ordered: fence so the copy is complete
   * (and visible) before the I/O is reported done. */
  if (blocks > 0) _mm_sfence();
#else
  memcpy(dst, src, n);
#endif
}
