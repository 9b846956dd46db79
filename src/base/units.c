/* SPDX-License-Identifier: MIT */
/* Strict number parsing for the command line and the XML reader: DISKSPD
 * sizes ("4K", "2b", "1G") and plain unsigned decimals. Size formatting lives
 * in units_format.c. */
#include "iospd/units.h"

#include "iospd/error.h"

/* Accumulates decimal digits from *s into *v, refusing 64-bit overflow.
 * Returns the number of digits read, or -1 on overflow. */
static int read_digits(const char** s, uint64_t* v) {
  const char* p = *s;
  uint64_t acc = 0;
  int n = 0;
  while (*p >= '0' && *p <= '9') {
    uint64_t d = (uint64_t)(*p - '0');
    if (acc > (UINT64_MAX - d) / 10) return -1;
    acc = acc * 10 + d;
    p++;
    n++;
  }
  *s = p;
  *v = acc;
  return n;
}

int iospd_parse_size(const char* s, uint64_t block_unit, uint64_t* out,
                     const char** end) {
  if (s == NULL) return IOSPD_EINVAL;
  const char* p = s;
  uint64_t v;
  int n = read_digits(&p, &v);
  if (n < 0) return IOSPD_ERANGE;
  if (n == 0) return IOSPD_EINVAL;
  uint64_t mult = 1;
  switch (*p) {
    case 'k': case 'K': mult = 1ull << 10; p++; break;
    case 'm': case 'M': mult = 1ull << 20; p++; break;
    case 'g': case 'G': mult = 1ull << 30; p++; break;
    case 't': case 'T': mult = 1ull << 40; p++; break;
    case 'b': case 'B': mult = block_unit; p++; break;
    default: break;
  }
  /* In whole-string mode nothing may follow the suffix ("30KB" fails). */
  if (end == NULL && *p != '\0') return IOSPD_EINVAL;
  if (mult != 0 && v > UINT64_MAX / mult) return IOSPD_ERANGE;
  *out = v * mult;
  if (end != NULL) *end = p;
  return 0;
}

int iospd_parse_uint(const char* s, uint64_t max, uint64_t* out) {
  if (s == NULL) return IOSPD_EINVAL;
  const char* p = s;
  uint64_t v;
  int n = read_digits(&p, &v);
  if (n < 0) return IOSPD_ERANGE;
  if (n == 0 || *p != '\0') return IOSPD_EINVAL;
  if (v > max) return IOSPD_ERANGE;
  *out = v;
  return 0;
}
