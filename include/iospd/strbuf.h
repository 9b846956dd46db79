/* SPDX-License-Identifier: MIT */
/* A growable text buffer. Reports and profile output are built here and
 * written out once by main.c, so a failure never leaves half a report. */
#ifndef IOSPD_STRBUF_H
#define IOSPD_STRBUF_H

#include <stdarg.h>

#include "iospd/common.h"

typedef struct iospd_strbuf_s {
  char* data; /* always NUL-terminated when len > 0 or after init */
  size_t len;
  size_t cap;
  bool failed; /* an allocation failed; contents are truncated */
} iospd_strbuf_t;

void iospd_strbuf_init(iospd_strbuf_t* sb);
void iospd_strbuf_destroy(iospd_strbuf_t* sb);
void iospd_strbuf_reset(iospd_strbuf_t* sb);
void iospd_strbuf_append(iospd_strbuf_t* sb, const char* s);
void iospd_strbuf_append_n(iospd_strbuf_t* sb, const char* s, size_t n);
void iospd_strbuf_appendf(iospd_strbuf_t* sb, const char* fmt, ...)
    IOSPD_PRINTF(2, 3);
void iospd_strbuf_vappendf(iospd_strbuf_t* sb, const char* fmt, va_list ap)
    IOSPD_PRINTF(2, 0);
void iospd_strbuf_putc(iospd_strbuf_t* sb, char c);
/* Appends s with &, <, >, " and ' escaped for XML text and attributes;
 * bytes XML cannot carry become U+FFFD (iospd/xml_escape.h). */
void iospd_strbuf_append_xml(iospd_strbuf_t* sb, const char* s);
/* Appends s for a terminal: control characters (C0, DEL and the C1 range
 * U+0080..U+009F) become \xNN or \u00NN, so text taken from a file cannot
 * move the cursor, set the title or clear the screen; other UTF-8 passes. */
void iospd_strbuf_append_printable(iospd_strbuf_t* sb, const char* s);
/* Returns the text (never NULL; "" when empty). */
const char* iospd_strbuf_cstr(const iospd_strbuf_t* sb);

#endif
