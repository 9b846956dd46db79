/* SPDX-License-Identifier: MIT */
/* Cached I/O to a block device (iospd_plat_cached_device_align): the
 * Linux page cache takes any offset and length, so nothing is required
 * beyond what -Su/-Sh asks (checked on its own). */
#include "iospd/platform.h"

uint32_t iospd_plat_cached_device_align(const iospd_file_info_t* info) {
  (void)info;
  return 0;
}
