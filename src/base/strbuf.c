/* SPDX-License-Identifier: MIT */
/* Growable output buffer (fio's buf_output idea): reports are assembled here
 * and printed once. An allocation failure sets `failed` and drops the rest. */
#include "iospd/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/xml_escape.h"

void iospd_strbuf_init(iospd_strbuf_t* sb) {
  sb->data = NULL;
  sb->len = 0;
  sb->cap = 0;
  sb->failed = false;
}

void iospd_strbuf_destroy(iospd_strbuf_t* sb) {
  iospd_free(sb->data);
  iospd_strbuf_init(sb);
}

void iospd_strbuf_reset(iospd_strbuf_t* sb) {
  sb->len = 0;
  if (sb->data != NULL) sb->data[0] = '\0';
}

static bool reserve(iospd_strbuf_t* sb, size_t extra) {
  if (sb->failed) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < sb->len + extra + 1) cap *= 2;
  char* d = iospd_realloc(sb->data, cap);
  if (d == NULL) {
    sb->failed = true;
    return false;
  }
  sb->data = d;
  sb->cap = cap;
  return true;
}

void iospd_strbuf_append_n(iospd_strbuf_t* sb, const char* s, size_t n) {
  if (!reserve(sb, n)) return;
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void iospd_strbuf_append(iospd_strbuf_t* sb, const char* s) {
  iospd_strbuf_append_n(sb, s, strlen(s));
}

void iospd_strbuf_putc(iospd_strbuf_t* sb, char c) {
  iospd_strbuf_append_n(sb, &c, 1);
}

void iospd_strbuf_vappendf(iospd_strbuf_t* sb, const char* fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= 0 && (size_t)n < sizeof small) {
    iospd_strbuf_append_n(sb, small, (size_t)n);
  } else if (n >= 0 && reserve(sb, (size_t)n)) {
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, again);
    sb->len += (size_t)n;
  }
  va_end(again);
}

void iospd_strbuf_appendf(iospd_strbuf_t* sb, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  iospd_strbuf_vappendf(sb, fmt, ap);
  va_end(ap);
}

void iospd_strbuf_append_xml(iospd_strbuf_t* sb, const char* s) {
  iospd_xml_append_escaped(sb, s, IOSPD_XML_ESC_QUOTES);
}

void iospd_strbuf_append_printable(iospd_strbuf_t* sb, const char* s) {
  const unsigned char* p = (const unsigned char*)(s != NULL ? s : "");
  while (*p) {
    if (*p < 0x20 || *p == 0x7f) {
      iospd_strbuf_appendf(sb, "\\x%02x", *p);
      p++;
    } else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
      iospd_strbuf_appendf(sb, "\\u%04x", p[1]);
      p += 2;
    } else {
      iospd_strbuf_putc(sb, (char)*p++);
    }
  }
}

const char* iospd_strbuf_cstr(const iospd_strbuf_t* sb) {
  return sb->data != NULL ? sb->data : "";
}
