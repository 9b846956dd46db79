/* SPDX-License-Identifier: MIT */
/* The one place the application prints (iospd/app_print.h). */
#include "iospd/app_print.h"

#include "iospd/console.h"
#include "iospd/platform.h"

void iospd_app_out(const iospd_strbuf_t* sb) {
  iospd_plat_write_out(iospd_strbuf_cstr(sb), sb->len);
}

void iospd_app_err_line(iospd_msg_kind_t k, const char* msg) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_msg_line(&sb, k, msg);
  iospd_plat_write_err(iospd_strbuf_cstr(&sb), sb.len);
  iospd_strbuf_destroy(&sb);
}

void iospd_app_err_sb(const iospd_strbuf_t* sb) {
  if (sb->len > 0) iospd_plat_write_err(iospd_strbuf_cstr(sb), sb->len);
}

void iospd_app_message(const iospd_profile_t* p, iospd_msg_kind_t k,
                       const char* text) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  if (iospd_msg_def(k)->flags & IOSPD_MSG_STAMPED) {
    iospd_utc_time_t t;
    iospd_plat_utc_now(&t);
    iospd_strbuf_appendf(&sb, "%04u-%02u-%02uT%02u:%02u:%02uZ: ", t.year,
                         t.month, t.day, t.hour, t.minute, t.second);
    iospd_msg_line(&sb, k, text);
    iospd_app_notice(p, iospd_strbuf_cstr(&sb), sb.len);
  } else {
    iospd_msg_line(&sb, k, text);
    iospd_plat_write_err(iospd_strbuf_cstr(&sb), sb.len);
  }
  iospd_strbuf_destroy(&sb);
}

/* Where run-time notices go. DISKSPD prints -v lines, -P dots and the
 * Ctrl-C line on stdout ahead of the results, and so do we for text output;
 * with -Rxml or -Rjson they would come before the document and stdout would
 * not parse, so there they go to stderr. */
void iospd_app_notice(const iospd_profile_t* p, const char* text, size_t len) {
  if (p != NULL && p->format != IOSPD_FORMAT_TEXT)
    iospd_plat_write_err(text, len);
  else
    iospd_plat_write_out(text, len);
}
