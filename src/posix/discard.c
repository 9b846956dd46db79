/* SPDX-License-Identifier: MIT */
/* --pts-purge (docs/pts.md): a whole-device discard, BLKDISCARD or
 * BLKSECDISCARD over [0, size). Block devices only. */
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "iospd/platform.h"

int iospd_plat_discard_device(const char* path, bool secure, uint64_t size,
                              iospd_err_t* err) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return iospd_posix_err(err, errno, "--pts-purge: cannot open '%s'", path);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
    close(fd);
    return iospd_err_set(err, IOSPD_EINVAL,
                         "--pts-purge: '%s' is not a block device", path);
  }
  uint64_t range[2] = {0, size};
  int rc = 0;
  if (ioctl(fd, secure ? BLKSECDISCARD : BLKDISCARD, range) != 0)
    rc = iospd_posix_err(err, errno,
                         "--pts-purge=%s: the device '%s' refused %s",
                         secure ? "secure" : "trim", path,
                         secure ? "BLKSECDISCARD" : "BLKDISCARD");
  close(fd);
  return rc;
}
