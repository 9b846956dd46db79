/* SPDX-License-Identifier: MIT */
/* JSON string escaping and number formatting, and the sink reports are
 * streamed through (iospd/json_write.h). */
#include "iospd/json_write.h"

#include "iospd/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Length of the well-formed UTF-8 sequence at s (RFC 3629, table 3-7 of
 * the Unicode standard: no overlongs, no surrogates, at most U+10FFFF), or 0
 * when the byte at s does not start one. */
static size_t utf8_len(const unsigned char* s) {
  unsigned char c = s[0];
  if (c < 0x80) return 1;
  unsigned char lo = 0x80, hi = 0xBF;
  size_t n;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0; /* overlong */
    if (c == 0xED) hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90; /* overlong */
    if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
  } else {
    return 0;
  }
  /* The second byte has the narrowed range, the others 80..BF; a NUL stops
   * the check, so nothing is read past the string's end. */
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return n;
}

void iospd_json_append_str(iospd_strbuf_t* sb, const char* s) {
  if (s == NULL) {
    iospd_strbuf_append(sb, "null");
    return;
  }
  iospd_strbuf_putc(sb, '"');
  const unsigned char* p = (const unsigned char*)s;
  while (*p) {
    unsigned char c = *p;
    const char* esc = NULL;
    switch (c) {
      case '"': esc = "\\\""; break;
      case '\\': esc = "\\\\"; break;
      case '\b': esc = "\\b"; break;
      case '\f': esc = "\\f"; break;
      case '\n': esc = "\\n"; break;
      case '\r': esc = "\\r"; break;
      case '\t': esc = "\\t"; break;
      default: break;
    }
    if (esc != NULL) {
      iospd_strbuf_append(sb, esc);
      p++;
    } else if (c < 0x20) {
      iospd_strbuf_appendf(sb, "\\u%04x", c);
      p++;
    } else {
      size_t n = utf8_len(p);
      if (n == 0) {
        iospd_strbuf_append(sb, "\xEF\xBF\xBD"); /* U+FFFD for this byte */
        p++;
      } else {
        iospd_strbuf_append_n(sb, (const char*)p, n);
        p += n;
      }
    }
  }
  iospd_strbuf_putc(sb, '"');
}

void iospd_json_append_double(iospd_strbuf_t* sb, double v) {
  if (!isfinite(v)) {
    iospd_strbuf_append(sb, "null");
    return;
  }
  if (v == 0) { /* also -0: JSON readers need no sign on zero */
    iospd_strbuf_append(sb, "0");
    return;
  }
  char buf[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  iospd_strbuf_append(sb, buf);
}

int iospd_sink_write(iospd_sink_t* s, const char* data, size_t len) {
  if (s->error == 0 && len > 0) {
    int rc = s->write(s->ctx, data, len);
    if (rc != 0) s->error = rc < 0 ? rc : IOSPD_EIO;
  }
  return s->error;
}

static int strbuf_write(void* ctx, const char* data, size_t len) {
  iospd_strbuf_t* sb = ctx;
  iospd_strbuf_append_n(sb, data, len);
  return sb->failed ? IOSPD_ENOMEM : 0;
}

void iospd_sink_to_strbuf(iospd_sink_t* s, iospd_strbuf_t* sb) {
  s->write = strbuf_write;
  s->ctx = sb;
  s->error = sb->failed ? IOSPD_ENOMEM : 0;
}
