/* SPDX-License-Identifier: MIT */
/* The data a report embeds: a document's bytes, deflated (zlib, level 9)
 * and base64-encoded as one JSON string inside
 *   <script type="application/json" id="..." data-encoding="zlib+base64">.
 * Compressed because a long run's results and time series are tens of MiB
 * of text that deflate shrinks 5-10 fold; base64 holds no '<', so no file
 * name inside can end the <script> element early. The page's script (and
 * docs/html-report.md for a shell) turns it back into the JSON. */
#include <zlib.h>

#include "html_internal.h"
#include "iospd/alloc.h"

static const char k_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(iospd_strbuf_t* out, const unsigned char* p, size_t n) {
  char q[4];
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)p[i] << 16;
    if (i + 1 < n) v |= (unsigned)p[i + 1] << 8;
    if (i + 2 < n) v |= p[i + 2];
    q[0] = k_b64[(v >> 18) & 63];
    q[1] = k_b64[(v >> 12) & 63];
    q[2] = i + 1 < n ? k_b64[(v >> 6) & 63] : '=';
    q[3] = i + 2 < n ? k_b64[v & 63] : '=';
    iospd_strbuf_append_n(out, q, 4);
  }
}

int iospd_html_embed(iospd_strbuf_t* out, const char* id, const char* kind,
                     const char* data, size_t len) {
  uLongf cap = compressBound((uLong)len);
  unsigned char* z = iospd_malloc(cap ? cap : 1);
  if (z == NULL) return IOSPD_ENOMEM;
  if (compress2(z, &cap, (const Bytef*)data, (uLong)len, 9) != Z_OK) {
    iospd_free(z);
    return IOSPD_ENOMEM;
  }
  iospd_strbuf_appendf(out,
                       "<script type=\"application/json\" id=\"%s\" "
                       "data-kind=\"%s\" data-encoding=\"zlib+base64\" "
                       "data-bytes=\"%zu\">\"",
                       id, kind, len);
  base64(out, z, cap);
  iospd_strbuf_append(out, "\"</script>\n");
  iospd_free(z);
  return 0;
}
