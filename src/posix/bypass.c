/* SPDX-License-Identifier: MIT */
/* BypassIO (-Sy / -SY) is Windows's (FSCTL_MANAGE_BYPASS_IO); the command
 * line refuses those switches on Linux, where -Su already bypasses the
 * page cache. This answers a caller that got here anyway. */
#include "posix/internal.h"

int iospd_plat_file_bypass_io(iospd_plat_file_t* f, bool full,
                              iospd_bypass_result_t* out, iospd_err_t* err) {
  (void)f;
  (void)full;
  out->state = IOSPD_BYPASS_STATE_NONE;
  out->note[0] = '\0';
  return iospd_err_set(err, IOSPD_ENOTSUP,
                       "BypassIO (-Sy, -SY) exists only on Windows; on Linux "
                       "-Su already bypasses the page cache");
}
