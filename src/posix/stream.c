/* SPDX-License-Identifier: MIT */
/* console.h's stream on POSIX: write(2) on a plain descriptor, so each
 * row reaches the page cache at once and outlives a killed process. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "iospd/alloc.h"
#include "iospd/console.h"
#include "posix/internal.h"

struct iospd_plat_stream_s {
  int fd;
};

int iospd_plat_stream_create(const char* path, iospd_plat_stream_t** out,
                             iospd_err_t* err) {
  *out = NULL;
  int fd;
  do {
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return iospd_posix_err(err, errno, "cannot create '%s'", path);
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
