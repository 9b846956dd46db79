/* SPDX-License-Identifier: MIT */
/* Table cells shared by the report pages (html_sections.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_sections.h"

void iospd_html_td_text(iospd_strbuf_t* out, const char* s) {
  iospd_strbuf_append(out, "<td>");
  iospd_html_text(out, s != NULL ? s : "");
  iospd_strbuf_append(out, "</td>");
}

void iospd_html_td_num(iospd_strbuf_t* out, double v, int decimals,
                       const char* attrs) {
  char buf[64];
  if (!isfinite(v)) {
    snprintf(buf, sizeof buf, "-");
  } else {
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (strchr(buf, '.') != NULL) {
      size_t n = strlen(buf);
      while (buf[n - 1] == '0') buf[--n] = '\0';
      if (buf[n - 1] == '.') buf[--n] = '\0';
    }
    if (strcmp(buf, "-0") == 0) snprintf(buf, sizeof buf, "0");
  }
  iospd_strbuf_appendf(out, "<td class=\"n\"%s>%s</td>",
                       attrs != NULL ? attrs : "", buf);
}

void iospd_html_kv(iospd_strbuf_t* out, const char* name, const char* value) {
  iospd_strbuf_append(out, "<tr><th>");
  iospd_html_text(out, name);
  iospd_strbuf_append(out, "</th>");
  iospd_html_td_text(out, value);
  iospd_strbuf_append(out, "</tr>\n");
}
