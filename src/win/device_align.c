/* SPDX-License-Identifier: MIT */
/* Cached I/O to a disk or volume (iospd_plat_cached_device_align): a
 * Windows device handle is raw whatever its cache flags, so every offset
 * and length must be whole logical sectors, -Su or not; a 512-byte read
 * on a 4Kn disk fails with ERROR_INVALID_PARAMETER (87). */
#include "iospd/platform.h"

uint32_t iospd_plat_cached_device_align(const iospd_file_info_t* info) {
  if (info == NULL || !info->is_device) return 0;
  return info->logical_sector ? info->logical_sector : 512;
}
