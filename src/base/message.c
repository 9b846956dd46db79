/* SPDX-License-Identifier: MIT */
/* The message kinds and their prefixes (iospd/message.h): the only place
 * the prefixes of messages are spelled (run-time, validation, command
 * line and the application's errors). */
#include "iospd/message.h"

static const iospd_msg_def_t k_msgs[IOSPD_MSG_KIND_COUNT] = {
    [IOSPD_MSG_VERBOSE] = {IOSPD_MSG_VERBOSE, "", IOSPD_MSG_STAMPED},
    [IOSPD_MSG_DISKSPD_WARNING] = {IOSPD_MSG_DISKSPD_WARNING, "WARNING: ",
                                   IOSPD_MSG_KEPT},
    [IOSPD_MSG_WARNING] = {IOSPD_MSG_WARNING, "warning: ", IOSPD_MSG_KEPT},
    [IOSPD_MSG_NOTE] = {IOSPD_MSG_NOTE, "NOTE: ", 0},
    [IOSPD_MSG_INFO] = {IOSPD_MSG_INFO, "iospd: ", 0},
    [IOSPD_MSG_PROGRESS] = {IOSPD_MSG_PROGRESS, "", 0},
    [IOSPD_MSG_ERROR] = {IOSPD_MSG_ERROR, "iospd: error: ", 0},
    [IOSPD_MSG_DETAIL] = {IOSPD_MSG_DETAIL, "note: ", 0},
    [IOSPD_MSG_HINT] = {IOSPD_MSG_HINT, "", 0},
};

const iospd_msg_def_t* iospd_msg_def(iospd_msg_kind_t k) {
  if ((unsigned)k >= IOSPD_MSG_KIND_COUNT) k = IOSPD_MSG_NOTE;
  return &k_msgs[k];
}

void iospd_msg_line(iospd_strbuf_t* sb, iospd_msg_kind_t k, const char* text) {
  iospd_strbuf_appendf(sb, "%s%s\n", iospd_msg_def(k)->prefix, text);
}

void iospd_msg_vlinef(iospd_strbuf_t* sb, iospd_msg_kind_t k, const char* fmt,
                      va_list ap) {
  iospd_strbuf_append(sb, iospd_msg_def(k)->prefix);
  size_t from = sb->len;
  iospd_strbuf_vappendf(sb, fmt, ap);
  for (size_t i = from; i < sb->len; i++)
    if ((unsigned char)sb->data[i] < 0x20 || sb->data[i] == 0x7f)
      sb->data[i] = '?';
  iospd_strbuf_putc(sb, '\n');
}

void iospd_msg_linef(iospd_strbuf_t* sb, iospd_msg_kind_t k, const char* fmt,
                     ...) {
  va_list ap;
  va_start(ap, fmt);
  iospd_msg_vlinef(sb, k, fmt, ap);
  va_end(ap);
}
