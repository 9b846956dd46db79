/* SPDX-License-Identifier: MIT */
/* The small pieces of writing JSON text: strings and numbers. Reading JSON
 * is left to a real parser (cJSON, for --merge); writing stays ours. */
#ifndef IOSPD_JSON_WRITE_H
#define IOSPD_JSON_WRITE_H

#include "iospd/strbuf.h"

/* Appends s as a quoted JSON string. '"' and '\' are escaped; control
 * characters as \b \f \n \r \t or \u00XX; valid UTF-8 (including U+2028
 * and U+2029, legal in JSON) passes through unchanged. Each byte that is
 * not part of well-formed UTF-8 (a stray continuation byte, a truncated or
 * overlong sequence, a UTF-16 surrogate, anything above U+10FFFF) becomes
 * U+FFFD written as UTF-8, so the output is always valid JSON in UTF-8.
 * s == NULL writes null. */
void iospd_json_append_str(iospd_strbuf_t* sb, const char* s);
/* Appends v with the fewest significant digits (up to 17) that read back
 * to the same double; NaN and infinities as null (JSON has neither). */
void iospd_json_append_double(iospd_strbuf_t* sb, double v);

/* Where text written in pieces goes (a report streamed to a file or to
 * stdout, iospd/report.h): write takes len bytes and returns 0 or a
 * negative IOSPD_E*. The first failure stays in error and every later
 * iospd_sink_write does nothing, so a writer may go on and look once at
 * the end. */
typedef struct iospd_sink_s {
  int (*write)(void* ctx, const char* data, size_t len);
  void* ctx;
  int error;
} iospd_sink_t;

/* Hands data to s unless it failed before; returns s->error. */
int iospd_sink_write(iospd_sink_t* s, const char* data, size_t len);
/* A sink that appends to sb (out of memory: IOSPD_ENOMEM). */
void iospd_sink_to_strbuf(iospd_sink_t* s, iospd_strbuf_t* sb);

#endif
