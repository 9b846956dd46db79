/* SPDX-License-Identifier: MIT */
/* XML escaping of arbitrary bytes (see include/iospd/xml_escape.h for the
 * rules and why). */
#include "iospd/xml_escape.h"

#include <string.h>

#include "iospd/alloc.h"

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), with its code point in *cp; 0 when
 * s[0] does not start one. */
static size_t utf8_seq(const unsigned char* s, uint32_t* cp) {
  unsigned char b = s[0];
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  size_t n;
  uint32_t c;
  unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
    c = b & 0x1Fu;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    c = b & 0x0Fu;
    if (b == 0xE0) lo = 0xA0; /* overlong */
    if (b == 0xED) hi = 0x9F; /* UTF-16 surrogates */
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    c = b & 0x07u;
    if (b == 0xF0) lo = 0x90; /* overlong */
    if (b == 0xF4) hi = 0x8F; /* above U+10FFFF */
  } else {
    return 0; /* continuation byte, C0/C1 overlong lead, F5..FF */
  }
  if (s[1] < lo || s[1] > hi) return 0;
  c = (c << 6) | (s[1] & 0x3Fu);
  for (size_t i = 2; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at the NUL */
    c = (c << 6) | (s[i] & 0x3Fu);
  }
  *cp = c;
  return n;
}

/* A C0 control XML 1.0 cannot carry at all. */
static bool bad_control(uint32_t c) {
  return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/* U+F001..U+F0FF: the characters that stand for bytes in escaped values. */
static bool byte_char(uint32_t c) { return c >= 0xF001 && c <= 0xF0FF; }

bool iospd_xml_needs_byte_escape(const char* str) {
  const unsigned char* s = (const unsigned char*)str;
  while (*s) {
    uint32_t c;
    size_t n = utf8_seq(s, &c);
    if (n == 0 || bad_control(c) || c == 0xFFFE || c == 0xFFFF) return true;
    s += n;
  }
  return false;
}

/* Writes the n bytes at s as U+F0NN each. */
static void put_bytes_as_chars(iospd_strbuf_t* sb, const unsigned char* s,
                               size_t n) {
  for (size_t i = 0; i < n; i++) {
    /* U+F0NN in UTF-8: EF, 80 | NN >> 6, 80 | NN & 3F. */
    char u[3] = {(char)0xEF, (char)(0x80 | (s[i] >> 6)),
                 (char)(0x80 | (s[i] & 0x3F))};
    iospd_strbuf_append_n(sb, u, 3);
  }
}

void iospd_xml_append_escaped(iospd_strbuf_t* sb, const char* str,
                              unsigned flags) {
  const unsigned char* s = (const unsigned char*)str;
  const unsigned char* run = s; /* start of bytes still to copy as they are */
  bool quotes = (flags & IOSPD_XML_ESC_QUOTES) != 0;
  bool bytes = (flags & IOSPD_XML_ESC_BYTES) != 0;
  while (*s) {
    uint32_t c = 0;
    size_t n = utf8_seq(s, &c);
    const char* rep = NULL;
    bool as_bytes = false;
    if (n == 0) {
      n = 1; /* one byte that is not UTF-8 */
      as_bytes = true;
    } else if (bad_control(c) || c == 0xFFFE || c == 0xFFFF ||
               (bytes && byte_char(c))) {
      as_bytes = true;
    } else if (c == '&') {
      rep = "&amp;";
    } else if (c == '<') {
      rep = "&lt;";
    } else if (c == '>') {
      rep = "&gt;";
    } else if (quotes && c == '"') {
      rep = "&quot;";
    } else if (quotes && c == '\'') {
      rep = "&apos;";
    } else if (c == '\t' || c == '\n' || c == '\r' ||
               (c >= 0x7F && c <= 0x9F)) {
      rep = ""; /* a character reference, below */
    } else {
      s += n;
      continue;
    }
    iospd_strbuf_append_n(sb, (const char*)run, (size_t)(s - run));
    if (as_bytes && bytes)
      put_bytes_as_chars(sb, s, n);
    else if (as_bytes) /* a bad byte, or a whole control or nonchar */
      iospd_strbuf_append(sb, "\xEF\xBF\xBD"); /* U+FFFD */
    else if (rep[0] != '\0')
      iospd_strbuf_append(sb, rep);
    else
      iospd_strbuf_appendf(sb, "&#%u;", (unsigned)c);
    s += n;
    run = s;
  }
  iospd_strbuf_append_n(sb, (const char*)run, (size_t)(s - run));
}

char* iospd_xml_unescape_bytes(const char* str) {
  size_t len = strlen(str);
  char* out = iospd_malloc(len + 1); /* never longer than the input */
  if (out == NULL) return NULL;
  const unsigned char* s = (const unsigned char*)str;
  size_t o = 0;
  while (*s) {
    /* U+F001..U+F0FF is EF 80..83 80..BF (U+F000 stays as it is). */
    if (s[0] == 0xEF && s[1] >= 0x80 && s[1] <= 0x83 && (s[2] & 0xC0) == 0x80) {
      unsigned b = ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
      if (b != 0) {
        out[o++] = (char)b;
        s += 3;
        continue;
      }
    }
    out[o++] = (char)*s++;
  }
  out[o] = '\0';
  return out;
}
