/* SPDX-License-Identifier: MIT */
/* The output formats: the closed set of format words and where each may be
 * used (-R, -Rp, --output, the <ResultFormat> of -X profiles and the JSON
 * "result_format"). This table is the only place the words are spelled;
 * the switches, the profile reader and writer, the reports and their
 * messages read it. What renders each format is the application's (the
 * renderers sit above the reports and the HTML page, src/app/app_emit.c). */
#ifndef IOSPD_FORMATS_H
#define IOSPD_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum iospd_result_format {
  IOSPD_FORMAT_TEXT = 0,
  IOSPD_FORMAT_XML,
  IOSPD_FORMAT_JSON, /* -Rjson (iospd) */
  IOSPD_FORMAT_HTML, /* --output=html:FILE only (docs/html-report.md) */
  IOSPD_FORMAT_FIO_JSON /* fio's --output-format=json (docs/fio-json.md) */
} iospd_result_format_t;

/* Where a format word may be used (iospd_format_t.uses). */
enum {
  IOSPD_FMT_R = 1u << 0,       /* -R<word>: the results on stdout */
  IOSPD_FMT_RP = 1u << 1,      /* -Rp<word>: the profile alone */
  IOSPD_FMT_OUTPUT = 1u << 2,  /* --output=<word>:FILE */
  IOSPD_FMT_PROFILE = 1u << 3  /* <ResultFormat> in -X profiles, the JSON
                                  "result_format" (what -R can say) */
};

typedef struct iospd_format_s {
  iospd_result_format_t format;
  const char* word; /* lower case, as typed and as written */
  unsigned uses;    /* IOSPD_FMT_* */
} iospd_format_t;

/* The table, in the order messages list the words. */
const iospd_format_t* iospd_formats(size_t* count);

/* The row of f; NULL for a value outside the set. */
const iospd_format_t* iospd_format_of(iospd_result_format_t f);

/* The row whose word is the len bytes at word (any letter case when
 * any_case), whatever its uses; NULL when no format has that word. */
const iospd_format_t* iospd_format_find(const char* word, size_t len,
                                        bool any_case);

/* f's word ("text" for a value outside the set). */
const char* iospd_format_word(iospd_result_format_t f);

/* The word a profile records for f: f's word when f can be a profile's
 * format (IOSPD_FMT_PROFILE), else "text", the default. */
const char* iospd_format_profile_word(iospd_result_format_t f);

/* Appends to the string in buf (cap bytes, NUL-terminated, cut to fit) the
 * words usable as use, each behind prefix, as a list: "a, b or c"; with
 * more, every word is followed by ", " (the caller's list goes on). */
void iospd_format_list(char* buf, size_t cap, unsigned use, const char* prefix,
                       bool more);

#endif
