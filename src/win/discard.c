/* SPDX-License-Identifier: MIT */
/* --pts-purge on Windows: not built yet (the storage stack's trim for a
 * whole device wants IOCTL_STORAGE_MANAGE_DATA_SET_ATTRIBUTES over every
 * range, which a real Windows host must check first). */
#include "internal.h"
#include "iospd/platform.h"

int iospd_plat_discard_device(const char* path, bool secure, uint64_t size,
                              iospd_err_t* err) {
  (void)size;
  return iospd_err_set(err, IOSPD_ENOTSUP,
                       "--pts-purge=%s on '%s': not supported yet on "
                       "Windows; purge the drive with its vendor's tool "
                       "and run without --pts-purge",
                       secure ? "secure" : "trim", path);
}
