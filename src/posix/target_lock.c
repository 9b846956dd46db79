/* SPDX-License-Identifier: MIT */
/* The lock on a verified target's identity (iospd_plat_target_lock,
 * platform.h): flock on a descriptor of the target itself. flock locks the
 * inode, so every spelling of the file (a symbolic link, a hard link, a
 * path with ..) meets the same lock, and the kernel drops it when the
 * process ends, however it ends. Nothing else in iospd flocks a target. */
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

struct iospd_plat_tlock_s {
  int fd;
};

int iospd_plat_target_lock(const char* path, iospd_plat_tlock_t** lk,
                           iospd_err_t* err) {
  *lk = NULL;
  /* Read-only and non-blocking: opening must not wait on a device or
   * change anything. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK)
      return iospd_err_set(err, IOSPD_EAGAIN, "'%s' is locked", path);
    return iospd_posix_err(err, e, "cannot lock '%s'", path);
  }
  iospd_plat_tlock_t* h = iospd_calloc(1, sizeof(*h));
  if (h == NULL) {
    close(fd);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  h->fd = fd;
  *lk = h;
  return 0;
}

void iospd_plat_target_unlock(iospd_plat_tlock_t* lk) {
  if (lk == NULL) return;
  close(lk->fd);
  iospd_free(lk);
}

char* iospd_plat_final_path(const char* path) {
  struct stat st;
  if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return NULL;
  char* real = realpath(path, NULL);
  if (real == NULL) return NULL;
  char* out = iospd_strdup(real);
  free(real);
  return out;
}
