/* SPDX-License-Identifier: MIT */
/* Size formatting as DISKSPD prints block sizes, offsets and file sizes
 * (DISKSPD's size formatting): the largest binary unit that fits, integer if exact, else
 * two decimals; below 1 KiB a plain number. */
#include <stdio.h>

#include "iospd/units.h"

char* iospd_format_size_w(uint64_t bytes, int width, char* buf, size_t n) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
  int u = -1;
  for (int i = 3; i >= 0; i--) {
    if (bytes >= (UINT64_C(1) << (10 * (i + 1)))) {
      u = i;
      break;
    }
  }
  if (n == 0) return buf;
  if (u < 0) {
    snprintf(buf, n, "%*llu%s", width, (unsigned long long)bytes,
             width > 0 ? "   " : "");
    return buf;
  }
  uint64_t unit = UINT64_C(1) << (10 * (u + 1));
  if (bytes % unit == 0)
    snprintf(buf, n, "%*llu%s", width, (unsigned long long)(bytes / unit),
             units[u]);
  else
    snprintf(buf, n, "%*.2f%s", width, (double)bytes / (double)unit,
             units[u]);
  return buf;
}

char* iospd_format_size(uint64_t bytes, char* buf, size_t n) {
  return iospd_format_size_w(bytes, 0, buf, n);
}
