/* SPDX-License-Identifier: MIT */
/* The error-code tables and the error record helpers (no heap, so they work
 * when memory has run out). */
#include "iospd/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char* iospd_strerror(int code) {
  switch (code) {
    case 0:
      return "success";
#define IOSPD_ERR_DESC_(name, desc) \
  case IOSPD_##name:                \
    return desc;
    IOSPD_ERRNO_MAP(IOSPD_ERR_DESC_)
#undef IOSPD_ERR_DESC_
    default:
      return "unknown error";
  }
}

const char* iospd_err_name(int code) {
  switch (code) {
    case 0:
      return "OK";
#define IOSPD_ERR_NAME_(name, desc) \
  case IOSPD_##name:                \
    return #name;
    IOSPD_ERRNO_MAP(IOSPD_ERR_NAME_)
#undef IOSPD_ERR_NAME_
    default:
      return "EUNKNOWN";
  }
}

static int err_vset(iospd_err_t* err, int code, int64_t os_code,
                    const char* fmt, va_list ap) {
  if (err != NULL) {
    err->code = code;
    err->os_code = os_code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  }
  return code;
}

int iospd_err_set(iospd_err_t* err, int code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vset(err, code, 0, fmt, ap);
  va_end(ap);
  return code;
}

int iospd_err_set_os(iospd_err_t* err, int code, int64_t os_code,
                     const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vset(err, code, os_code, fmt, ap);
  va_end(ap);
  return code;
}

void iospd_err_clear(iospd_err_t* err) {
  if (err != NULL) {
    err->code = 0;
    err->os_code = 0;
    err->msg[0] = '\0';
  }
}
