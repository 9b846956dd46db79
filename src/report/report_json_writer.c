/* SPDX-License-Identifier: MIT */
/* The JSON report's writer (report_json_writer.h). */
#include <stdio.h>

#include "iospd/json_write.h"
#include "report_json_writer.h"

static void newline(iospd_jw_t* w) {
  iospd_strbuf_putc(w->out, '\n');
  for (unsigned i = 0; i < w->depth; i++) iospd_strbuf_append(w->out, "  ");
}

/* Before a value or a key: the comma and the line break. */
static void sep(iospd_jw_t* w) {
  if (w->depth == 0) return;
  if (!w->first[w->depth]) iospd_strbuf_putc(w->out, ',');
  w->first[w->depth] = false;
  newline(w);
}

/* key NULL: an array element (or the root). */
void iospd_jw_key(iospd_jw_t* w, const char* key) {
  sep(w);
  if (key != NULL) {
    iospd_json_append_str(w->out, key);
    iospd_strbuf_append(w->out, ": ");
  }
}

void iospd_jw_open(iospd_jw_t* w, const char* key, char c) {
  iospd_jw_key(w, key);
  iospd_strbuf_putc(w->out, c);
  if (w->depth + 1 < IOSPD_JW_MAX_DEPTH) w->depth++;
  w->first[w->depth] = true;
}

void iospd_jw_close(iospd_jw_t* w, char c) {
  bool empty = w->first[w->depth];
  w->depth--;
  if (!empty) newline(w);
  iospd_strbuf_putc(w->out, c);
}

void iospd_jw_u64(iospd_jw_t* w, const char* key, uint64_t v) {
  iospd_jw_key(w, key);
  iospd_strbuf_appendf(w->out, "%llu", (unsigned long long)v);
}

void iospd_jw_dbl(iospd_jw_t* w, const char* key, double v) {
  iospd_jw_key(w, key);
  iospd_json_append_double(w->out, v);
}

void iospd_jw_str(iospd_jw_t* w, const char* key, const char* s) {
  iospd_jw_key(w, key);
  iospd_json_append_str(w->out, s);
}

void iospd_jw_bool(iospd_jw_t* w, const char* key, bool v) {
  iospd_jw_key(w, key);
  iospd_strbuf_append(w->out, v ? "true" : "false");
}

void iospd_jw_null(iospd_jw_t* w, const char* key) {
  iospd_jw_key(w, key);
  iospd_strbuf_append(w->out, "null");
}

void iospd_jw_mask(iospd_jw_t* w, const char* key, uint64_t mask) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)mask);
  iospd_jw_str(w, key, buf);
}
