/* SPDX-License-Identifier: MIT */
/* errno to iospd error codes, and messages that carry the OS's own text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "posix/internal.h"

int iospd_posix_translate(int errnum) {
  switch (errnum) {
    case 0:
      return 0;
    case EINVAL:
      return IOSPD_EINVAL;
    case ENOMEM:
      return IOSPD_ENOMEM;
    case ENOENT:
    case ENOTDIR:
    case ENXIO:
    case ENODEV:
      return IOSPD_ENOENT;
    case EACCES:
    case EPERM:
    case EROFS:
      return IOSPD_EACCES;
    case EEXIST:
      return IOSPD_EEXIST;
    case EIO:
    case ETIMEDOUT:
    case ENOMEDIUM:
      return IOSPD_EIO;
    case EOVERFLOW:
      return IOSPD_ERANGE;
    case EISDIR:
    case ENAMETOOLONG:
      return IOSPD_EINVAL;
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return IOSPD_ENOSPC;
    case ENOSYS:
    case EOPNOTSUPP:
    case ENOTTY:
      return IOSPD_ENOTSUP;
    case EAGAIN:
    case EBUSY:
      return IOSPD_EAGAIN;
    case EINTR:
      return IOSPD_EINTR;
    case ECANCELED:
      return IOSPD_ECANCELED;
    default:
      return IOSPD_EOS;
  }
}

int iospd_posix_err(iospd_err_t* err, int errnum, const char* fmt, ...) {
  int code = iospd_posix_translate(errnum);
  if (err == NULL) return code;
  char what[IOSPD_ERR_MSG_MAX / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  char os[128];
  /* GNU strerror_r may return a static string rather than fill os. */
  const char* text = strerror_r(errnum, os, sizeof os);
  return iospd_err_set_os(err, code, errnum, "%s: %s", what, text);
}
