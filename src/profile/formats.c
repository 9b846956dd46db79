/* SPDX-License-Identifier: MIT */
/* The output-format table (iospd/formats.h). A new format is one row here,
 * one enum value in iospd/formats.h and its renderer in src/app/app_emit.c;
 * the switches, their messages and the profile read it from here. */
#include "iospd/formats.h"

#include <stdio.h>
#include <string.h>

static const iospd_format_t formats[] = {
    {IOSPD_FORMAT_TEXT, "text",
     IOSPD_FMT_R | IOSPD_FMT_RP | IOSPD_FMT_OUTPUT | IOSPD_FMT_PROFILE},
    {IOSPD_FORMAT_XML, "xml",
     IOSPD_FMT_R | IOSPD_FMT_RP | IOSPD_FMT_OUTPUT | IOSPD_FMT_PROFILE},
    /* JSON holds results; the profile alone is DISKSPD's text or XML. */
    {IOSPD_FORMAT_JSON, "json",
     IOSPD_FMT_R | IOSPD_FMT_OUTPUT | IOSPD_FMT_PROFILE},
    /* One self-contained page: a file, never stdout (docs/html-report.md). */
    {IOSPD_FORMAT_HTML, "html", IOSPD_FMT_OUTPUT},
    /* fio's JSON for fio's tools: results only, as fio writes it on stdout
     * or to a file (docs/fio-json.md); a profile says text for it. */
    {IOSPD_FORMAT_FIO_JSON, "fio-json", IOSPD_FMT_R | IOSPD_FMT_OUTPUT},
};

#define FORMAT_COUNT (sizeof formats / sizeof formats[0])

const iospd_format_t* iospd_formats(size_t* count) {
  *count = FORMAT_COUNT;
  return formats;
}

const iospd_format_t* iospd_format_of(iospd_result_format_t f) {
  for (size_t i = 0; i < FORMAT_COUNT; i++)
    if (formats[i].format == f) return &formats[i];
  return NULL;
}

static char lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

const iospd_format_t* iospd_format_find(const char* word, size_t len,
                                        bool any_case) {
  for (size_t i = 0; i < FORMAT_COUNT; i++) {
    const char* w = formats[i].word;
    if (strlen(w) != len) continue;
    size_t k = 0;
    while (k < len && (any_case ? lower(word[k]) : word[k]) == w[k]) k++;
    if (k == len) return &formats[i];
  }
  return NULL;
}

const char* iospd_format_word(iospd_result_format_t f) {
  const iospd_format_t* row = iospd_format_of(f);
  return row != NULL ? row->word : formats[0].word;
}

const char* iospd_format_profile_word(iospd_result_format_t f) {
  const iospd_format_t* row = iospd_format_of(f);
  return row != NULL && (row->uses & IOSPD_FMT_PROFILE) ? row->word
                                                        : formats[0].word;
}

void iospd_format_list(char* buf, size_t cap, unsigned use, const char* prefix,
                       bool more) {
  size_t total = 0;
  for (size_t i = 0; i < FORMAT_COUNT; i++) total += (formats[i].uses & use) != 0;
  size_t k = 0;
  for (size_t i = 0; i < FORMAT_COUNT; i++) {
    if (!(formats[i].uses & use)) continue;
    k++;
    const char* sep = more || k + 1 < total ? ", "
                      : k + 1 == total      ? " or "
                                            : "";
    size_t l = strlen(buf);
    if (l + 1 < cap)
      snprintf(buf + l, cap - l, "%s%s%s", prefix, formats[i].word, sep);
  }
}
