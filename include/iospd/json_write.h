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

#endif
