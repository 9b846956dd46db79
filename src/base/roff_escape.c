/* SPDX-License-Identifier: MIT */
/* Roff escaping for the man page; the rules are in iospd/roff.h. */
#include "iospd/roff.h"

#include <string.h>

/* Whether the word starting at w (up to a space or line end) is code: it
 * starts with '-' after opening brackets or quotes, or holds / < = _. */
static bool word_is_code(const char* w) {
  const char* p = w;
  while (*p == '(' || *p == '[' || *p == '"' || *p == '\'') p++;
  if (*p == '-') return true;
  for (; *p && *p != ' ' && *p != '\n'; p++)
    if (strchr("/<=_", *p) != NULL) return true;
  return false;
}

/* Decodes one UTF-8 sequence at s (s[0] >= 0x80); returns its length (1
 * for a bad byte, with *cp = U+FFFD). */
static size_t utf8_decode(const unsigned char* s, uint32_t* cp) {
  size_t n = s[0] >= 0xF0 && s[0] <= 0xF4   ? 4
             : s[0] >= 0xE0                 ? 3
             : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
                                            : 0;
  if (n == 0 || s[0] > 0xF4) {
    *cp = 0xFFFD;
    return 1;
  }
  uint32_t v = s[0] & (0x7Fu >> n);
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      *cp = 0xFFFD;
      return 1;
    }
    v = (v << 6) | (s[i] & 0x3Fu);
  }
  /* Overlong forms, surrogates and values past U+10FFFF are not text. */
  static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < min[n] || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) v = 0xFFFD;
  *cp = v;
  return n;
}

void iospd_roff_append(iospd_strbuf_t* out, const char* text, unsigned flags) {
  bool arg = (flags & IOSPD_ROFF_ARG) != 0;
  bool syntax = (flags & IOSPD_ROFF_SYNTAX) != 0;
  const unsigned char* p = (const unsigned char*)text;
  bool first = true;
  while (*p) {
    /* One input line. */
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\n') {
      p++;
      continue;
    }
    if (*p == '\0') break;
    if (arg && !first) iospd_strbuf_putc(out, ' ');
    first = false;
    if (*p == '.') iospd_strbuf_append(out, "\\&");
    bool code = (flags & IOSPD_ROFF_CODE) || word_is_code((const char*)p);
    for (; *p && *p != '\n'; p++) {
      unsigned char c = *p;
      switch (c) {
        case ' ':
          iospd_strbuf_putc(out, ' ');
          code = (flags & IOSPD_ROFF_CODE) ||
                 word_is_code((const char*)p + 1);
          break;
        case '\\': iospd_strbuf_append(out, "\\e"); break;
        case '\'': iospd_strbuf_append(out, "\\(aq"); break;
        case '`': iospd_strbuf_append(out, "\\(ga"); break;
        case '-': iospd_strbuf_append(out, code ? "\\-" : "-"); break;
        case '"':
          iospd_strbuf_append(out, arg ? "\\(dq" : "\"");
          break;
        case '<':
          iospd_strbuf_append(out, syntax ? "<\\fI" : "<");
          break;
        case '>':
          iospd_strbuf_append(out, syntax ? "\\fB>" : ">");
          break;
        case '|':
          iospd_strbuf_append(out, syntax ? "|\\:" : "|");
          break;
        case '[': /* a break point before an optional part */
          iospd_strbuf_append(out, syntax ? "\\:[" : "[");
          break;
        default:
          if (c >= 0x80) {
            uint32_t cp;
            p += utf8_decode(p, &cp) - 1;
            iospd_strbuf_appendf(out, "\\[u%04X]", (unsigned)cp);
          } else if (c < 0x20 || c == 0x7F) {
            iospd_strbuf_putc(out, ' '); /* tabs, stray controls */
          } else {
            iospd_strbuf_putc(out, (char)c);
          }
      }
    }
    if (*p == '\n') p++;
    if (!arg) iospd_strbuf_putc(out, '\n');
  }
}
