/* SPDX-License-Identifier: MIT */
/* Error codes (one table, libuv style) and the fixed-size error record that
 * carries a human message from the layer that failed up to main.c, which is
 * the only place that prints it. */
#ifndef IOSPD_ERROR_H
#define IOSPD_ERROR_H

#include "iospd/common.h"

/* XX(name, description). Values are negative, in table order. */
#define IOSPD_ERRNO_MAP(XX)                                   \
  XX(EINVAL, "invalid argument")                              \
  XX(EUSAGE, "invalid command line")                          \
  XX(EPARSE, "malformed profile")                             \
  XX(ERANGE, "value out of range")                            \
  XX(ENOMEM, "out of memory")                                 \
  XX(ENOENT, "no such file or directory")                     \
  XX(EACCES, "permission denied")                             \
  XX(EEXIST, "file exists")                                   \
  XX(EIO, "input/output error")                               \
  XX(ENOSPC, "no space left on device")                       \
  XX(ENOTSUP, "operation not supported")                      \
  XX(EAGAIN, "resource temporarily unavailable")              \
  XX(EINTR, "interrupted")                                    \
  XX(ECANCELED, "operation canceled")                         \
  XX(EALIGN, "misaligned for unbuffered I/O")                 \
  XX(EUNSAFE, "refused: would overwrite data")                \
  XX(ETOOSMALL, "target too small")                           \
  XX(EMAPFAULT, "the memory-mapped view could not be accessed") \
  XX(EOS, "operating system error")

enum iospd_errno {
  IOSPD_OK = 0,
  IOSPD__ERR_FIRST = -1000,
#define IOSPD_ERR_ENUM_(name, desc) IOSPD_##name,
  IOSPD_ERRNO_MAP(IOSPD_ERR_ENUM_)
#undef IOSPD_ERR_ENUM_
  IOSPD__ERR_LAST
};

#define IOSPD_ERR_MSG_MAX 512

/* An error record. Filled by the failing layer; callers may pass NULL when
 * they do not want the message. No heap: usable when memory is exhausted. */
typedef struct iospd_err_s {
  int code;          /* negative IOSPD_E*, or 0 */
  int64_t os_code;   /* native code (errno, GetLastError) or 0 */
  char msg[IOSPD_ERR_MSG_MAX];
} iospd_err_t;

/* Short description of a code, e.g. "invalid argument". Never NULL. */
const char* iospd_strerror(int code);
/* Symbolic name of a code, e.g. "EINVAL". Never NULL. */
const char* iospd_err_name(int code);
/* Formats msg into err (if err is non-NULL) and returns code, so a caller can
 * write `return iospd_err_set(err, IOSPD_EINVAL, "...")`. */
int iospd_err_set(iospd_err_t* err, int code, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);
/* Same, also recording the native OS code. */
int iospd_err_set_os(iospd_err_t* err, int code, int64_t os_code,
                     const char* fmt, ...) IOSPD_PRINTF(4, 5);
/* Clears err (code 0, empty message). NULL-safe. */
void iospd_err_clear(iospd_err_t* err);

#endif
