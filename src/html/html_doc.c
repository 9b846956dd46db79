/* SPDX-License-Identifier: MIT */
/* What the curve and PTS pages share about the document they draw: its
 * "format" and "format_version" checked with one wording, and the page
 * drawn from the document's bytes (html_internal.h). */
#include <stdio.h>
#include <string.h>

#include "html_internal.h"

int iospd_html_doc_bad(iospd_err_t* err, const char* kind, const char* what) {
  return iospd_err_set(err, IOSPD_EUSAGE, "not an iospd %s document: %s",
                       kind, what);
}

int iospd_html_doc_check(const cJSON* d, const char* format, const char* kind,
                         const char* mode, iospd_err_t* err) {
  const char* f = iospd_json_str(d, "format");
  if (!cJSON_IsObject(d) || f == NULL || strcmp(f, format) != 0) {
    char what[160];
    snprintf(what, sizeof what,
             "it has no \"format\": \"%s\" (write one with %s and "
             "--output=json:FILE)",
             format, mode);
    return iospd_html_doc_bad(err, kind, what);
  }
  double v = iospd_json_num(d, "format_version");
  if (v == 1) return 0;
  if (v > 1)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "a %s document written by a newer iospd "
                         "(format_version %.0f); this iospd reads 1",
                         kind, v);
  return iospd_html_doc_bad(err, kind,
                            "\"format_version\" is not 1 (a damaged or "
                            "hand-edited file?)");
}

int iospd_html_doc_text(const char* name, const char* json, size_t len,
                        iospd_html_page_fn page, iospd_strbuf_t* out,
                        iospd_err_t* err) {
  cJSON* d = cJSON_ParseWithLength(json, len);
  if (d == NULL)
    return iospd_err_set(err, IOSPD_EUSAGE, "'%s': not JSON", name);
  int rc = page(d, out, err);
  cJSON_Delete(d);
  if (rc == IOSPD_EUSAGE) {
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    iospd_err_set(err, rc, "'%s': %s", name, msg);
  }
  return rc;
}
