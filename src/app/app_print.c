/* SPDX-License-Identifier: MIT */
/* The one place the application prints (iospd/app_print.h). */
#include "iospd/app_print.h"

#include "iospd/console.h"
#include "iospd/platform.h"

void iospd_app_out(const iospd_strbuf_t* sb) {
  iospd_plat_write_out(iospd_strbuf_cstr(sb), sb->len);
}

void iospd_app_err_line(const char* prefix, const char* msg) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_strbuf_appendf(&sb, "%s%s\n", prefix, msg);
  iospd_plat_write_err(iospd_strbuf_cstr(&sb), sb.len);
  iospd_strbuf_destroy(&sb);
}

void iospd_app_err_sb(const iospd_strbuf_t* sb) {
  if (sb->len > 0) iospd_plat_write_err(iospd_strbuf_cstr(sb), sb->len);
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
