/* SPDX-License-Identifier: MIT */
/* The files iospd --ping needs beyond a run's: the temporary file it probes
 * in a directory (telling a directory from a target is iospd_plat_path_kind). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "posix/internal.h"
#include "iospd/platform.h"

int iospd_plat_temp_file_create(const char* dir, char* path, size_t size,
                                iospd_err_t* err) {
  size_t len = strlen(dir);
  const char* sep = len > 0 && dir[len - 1] == '/' ? "" : "/";
  int n = snprintf(path, size, "%s%siospd-ping-XXXXXX.tmp", dir, sep);
  if (n < 0 || (size_t)n >= size)
    return iospd_err_set(err, IOSPD_EINVAL, "the directory name '%s' is too long",
                         dir);
  /* O_EXCL: a name no other file has; the six X become random letters. */
  int fd = mkostemps(path, 4, O_CLOEXEC);
  if (fd < 0)
    return iospd_posix_err(err, errno,
                           "cannot create a temporary file in '%s'", dir);
  close(fd);
  return 0;
}
