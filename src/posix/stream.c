/* SPDX-License-Identifier: MIT */
/* console.h's stream on POSIX: write(2) on a plain descriptor, so each
 * row reaches the page cache at once and outlives a killed process. The
 * file is opened as posix/out_kind.h decides: never through a link, and
 * truncated only once fstat shows a regular file. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iospd/alloc.h"
#include "iospd/console.h"
#include "posix/internal.h"
#include "posix/out_kind.h"

struct iospd_plat_stream_s {
  int fd;
};

/* The descriptor the series goes to, or a negative IOSPD_E*. */
static int stream_open(const char* path, iospd_err_t* err) {
  iospd_out_kind_t kind;
  int own;
  iospd_err_t why;
  iospd_err_clear(&why);
  int rc = iospd_posix_out_kind(path, &kind, &own, &why);
  if (rc != 0) return iospd_err_set(err, rc, "'%s': %s", path, why.msg);
  if (kind == IOSPD_OUT_OWN_FD) {
    /* A copy, so that closing the stream leaves the process's own open. */
    int fd = fcntl(own, F_DUPFD_CLOEXEC, 3);
    return fd >= 0 ? fd : iospd_posix_err(err, errno, "cannot use '%s'", path);
  }
  int fd;
  do {
    /* No O_TRUNC: what is there is only cut once it is known to be a
     * regular file. O_NOFOLLOW: a link planted since the check fails. */
    fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
              0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return iospd_posix_err(err, errno,
                           errno == ELOOP ? "'%s' is a symbolic link; name its "
                                            "target itself"
                                          : "cannot create '%s'",
                           path);
  struct stat st;
  rc = fstat(fd, &st) != 0 ? iospd_posix_err(&why, errno, "fstat failed")
                           : iospd_posix_out_mode_ok(st.st_mode, &why);
  if (rc == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0)
    rc = iospd_posix_err(&why, errno, "it cannot be truncated");
  if (rc != 0) {
    close(fd);
    return iospd_err_set(err, rc, "'%s': %s", path, why.msg);
  }
  return fd;
}

int iospd_plat_stream_create(const char* path, iospd_plat_stream_t** out,
                             iospd_err_t* err) {
  *out = NULL;
  int fd = stream_open(path, err);
  if (fd < 0) return fd;
  iospd_plat_stream_t* s = iospd_calloc(1, sizeof(*s));
  if (s == NULL) {
    close(fd);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  s->fd = fd;
  *out = s;
  return 0;
}
int iospd_plat_stream_write(iospd_plat_stream_t* s, const void* data,
                            size_t len, iospd_err_t* err) {
  const char* p = data;
  while (len > 0) {
    ssize_t n = write(s->fd, p, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return iospd_posix_err(err, errno, "write failed");
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

int iospd_plat_stream_close(iospd_plat_stream_t* s, iospd_err_t* err) {
  if (s == NULL) return 0;
  int rc = close(s->fd) < 0 && errno != EINTR
               ? iospd_posix_err(err, errno, "close failed")
               : 0;
  iospd_free(s);
  return rc;
}
