/* SPDX-License-Identifier: MIT */
/* The 32-bit (x86) iospd on a host with more than 32 logical processors
 * in a processor group (issue #26). A 32-bit process's affinity masks
 * (KAFFINITY) hold 32 bits, and WoW64 folds processors 32-63 of a group
 * onto 0-31: the topology, -a pinning and the per-CPU times it reads would
 * all be wrong, and a report would print them as measured. Such a host is
 * 64-bit Windows, where the x64 (or arm64) iospd addresses every
 * processor, so the 32-bit one refuses the run and says which to use. The
 * decision is pure (iospd_win_masks_fit, a table test); the probe counts
 * each group's active processors with GetActiveProcessorCount, which
 * counts rather than masks. */
#include <stdio.h>

#include "win/internal.h"

int iospd_win_masks_fit(unsigned mask_bits, uint32_t ngroups,
                        const uint32_t* active, char* why, size_t size) {
  for (uint32_t g = 0; g < ngroups; g++) {
    if (active[g] <= mask_bits) continue;
    if (why != NULL && size > 0)
      snprintf(why, size,
               "this is the %u-bit iospd, and processor group %u of this "
               "host has %u logical processors: the %u-bit Windows API "
               "addresses only %u per group (WoW64 folds the others onto "
               "them), so the processor topology, -a pinning and the CPU "
               "usage would be wrong; run the 64-bit iospd (x64 or arm64) "
               "on this host",
               mask_bits, (unsigned)g, (unsigned)active[g], mask_bits,
               mask_bits);
    return (int)g + 1;
  }
  return 0;
}

int iospd_win_masks_check(iospd_err_t* err) {
  unsigned bits = (unsigned)(sizeof(KAFFINITY) * 8);
  if (bits >= 64) return 0; /* a 64-bit process addresses every CPU */
  WORD n = GetActiveProcessorGroupCount();
  if (n == 0) return 0; /* the topology query says what is wrong */
  if (n > IOSPD_WIN_MAX_GROUPS) n = IOSPD_WIN_MAX_GROUPS;
  uint32_t active[IOSPD_WIN_MAX_GROUPS];
  for (WORD g = 0; g < n; g++) active[g] = GetActiveProcessorCount(g);
  char why[IOSPD_ERR_MSG_MAX];
  if (iospd_win_masks_fit(bits, n, active, why, sizeof why) == 0) return 0;
  return iospd_err_set(err, IOSPD_ENOTSUP, "%s", why);
}
