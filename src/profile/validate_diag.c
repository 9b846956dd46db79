/* SPDX-License-Identifier: MIT */
#include "validate_diag.h"

#include <stdarg.h>

#include "iospd/message.h"

void iospd_validate_bad(iospd_strbuf_t* diag, int* errors, const char* fmt,
                        ...) {
  (*errors)++;
  if (diag == NULL) return;
  va_list ap;
  va_start(ap, fmt);
  iospd_msg_vlinef(diag, IOSPD_MSG_ERROR, fmt, ap);
  va_end(ap);
}
