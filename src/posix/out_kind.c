/* SPDX-License-Identifier: MIT */
/* The decision of posix/out_kind.h: what a report path is, before anything
 * is opened. Run as root in a folder others may write (a shared results
 * folder), following a planted link would overwrite whatever it points to,
 * and renaming over /dev/stdout would replace the system's link. */
#include "posix/out_kind.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix/internal.h"

/* N from the decimal digits s (nothing else), or -1. */
static int fd_number(const char* s) {
  if (*s == '\0') return -1;
  long n = 0;
  for (; *s != '\0'; s++) {
    if (*s < '0' || *s > '9' || n > INT_MAX / 10) return -1;
    n = n * 10 + (*s - '0');
  }
  return n <= INT_MAX ? (int)n : -1;
}

int iospd_posix_own_fd(const char* path) {
  if (strcmp(path, "/dev/stdout") == 0) return 1;
  if (strcmp(path, "/dev/stderr") == 0) return 2;
  if (strncmp(path, "/dev/fd/", 8) == 0) return fd_number(path + 8);
  if (strncmp(path, "/proc/self/fd/", 14) == 0) return fd_number(path + 14);
  return -1;
}

int iospd_posix_out_mode_ok(unsigned mode, iospd_err_t* err) {
  if (S_ISREG(mode) || S_ISCHR(mode) || S_ISFIFO(mode)) return 0;
  if (S_ISDIR(mode))
    return iospd_err_set(err, IOSPD_EINVAL, "it is a folder, not a file");
  if (S_ISBLK(mode))
    return iospd_err_set(err, IOSPD_EINVAL,
                         "it is a block device: a report would overwrite the "
                         "data on it; name a regular file");
  return iospd_err_set(err, IOSPD_EINVAL,
                       "it is a socket or another special file, not a file a "
                       "report can be written to");
}

/* Whether the folder that holds path resolves under /proc or /sys, whose
 * files are kernel settings, not reports. */
static bool under_kernel_fs(const char* path) {
  char* d = strdup(path);
  if (d == NULL) return false;
  char* slash = strrchr(d, '/');
  const char* dir = slash == NULL ? "." : slash == d ? "/" : d;
  if (slash != NULL && slash != d) *slash = '\0';
  char* r = realpath(dir, NULL);
  bool kernel = false;
  if (r != NULL) {
    kernel = strcmp(r, "/proc") == 0 || strncmp(r, "/proc/", 6) == 0 ||
             strcmp(r, "/sys") == 0 || strncmp(r, "/sys/", 5) == 0;
    free(r);
  }
  free(d);
  return kernel;
}

static int refuse_link(const char* path, iospd_err_t* err) {
  char to[PATH_MAX];
  ssize_t n = readlink(path, to, sizeof to - 1);
  if (n < 0) n = 0;
  to[n] = '\0';
  return iospd_err_set(
      err, IOSPD_EINVAL,
      "it is a symbolic link to '%s'; iospd does not write through a link "
      "(whoever can write its folder could point it at any file): to write "
      "there, name '%s' itself",
      to, to);
}

int iospd_posix_out_kind(const char* path, iospd_out_kind_t* kind, int* fd,
                         iospd_err_t* err) {
  *fd = -1;
  int own = iospd_posix_own_fd(path);
  if (own >= 0) {
    int fl = fcntl(own, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "descriptor %d of this process is not open for "
                           "writing", own);
    *kind = IOSPD_OUT_OWN_FD;
    *fd = own;
    return 0;
  }
  if (under_kernel_fs(path))
    return iospd_err_set(err, IOSPD_EINVAL,
                         "it is under /proc or /sys, whose files are kernel "
                         "settings, not reports");
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno != ENOENT)
      return iospd_posix_err(err, errno, "the path cannot be used");
    *kind = IOSPD_OUT_REPLACE;
    return 0;
  }
  if (S_ISLNK(st.st_mode)) return refuse_link(path, err);
  int rc = iospd_posix_out_mode_ok(st.st_mode, err);
  if (rc != 0) return rc;
  *kind = S_ISREG(st.st_mode) ? IOSPD_OUT_REPLACE : IOSPD_OUT_IN_PLACE;
  return 0;
}
