/* SPDX-License-Identifier: MIT */
/* The JSON report's writer (report_json_writer.h). */
#include <stdio.h>
#include <string.h>

#include "iospd/error.h"
#include "iospd/json_write.h"
#include "report_json_writer.h"

void iospd_jw_init(iospd_jw_t* w, iospd_sink_t* sink, bool slim) {
  memset(w, 0, sizeof *w);
  iospd_strbuf_init(&w->pending);
  w->out = &w->pending;
  w->sink = sink;
  w->slim = slim;
}

static void flush(iospd_jw_t* w) {
  iospd_sink_write(w->sink, w->pending.data, w->pending.len);
  iospd_strbuf_reset(&w->pending);
}

int iospd_jw_finish(iospd_jw_t* w) {
  bool failed = w->pending.failed;
  if (!failed) flush(w);
  iospd_strbuf_destroy(&w->pending);
  w->out = NULL;
  if (w->sink->error != 0) return w->sink->error;
  return failed ? IOSPD_ENOMEM : 0;
}

static void newline(iospd_jw_t* w) {
  iospd_strbuf_putc(w->out, '\n');
  for (unsigned i = 0; i < w->depth; i++) iospd_strbuf_append(w->out, "  ");
}

/* Before a value or a key: the comma and the line break. */
static void sep(iospd_jw_t* w) {
  /* Between two values, where a chunk may end (never inside a string, so
   * a console writer never gets half a UTF-8 sequence). */
  if (w->pending.len >= IOSPD_JW_CHUNK && !w->pending.failed) flush(w);
  if (w->depth == 0) return;
  if (!w->first[w->depth]) iospd_strbuf_putc(w->out, ',');
  w->first[w->depth] = false;
  newline(w);
}

/* The sink failed or wants no more (the HTML report stops a document
 * once it knows it is too large): the rest is dropped, not formatted. */
static bool dead(iospd_jw_t* w) {
  if (w->sink->error == 0) return false;
  iospd_strbuf_reset(&w->pending);
  return true;
}

/* key NULL: an array element (or the root). */
void iospd_jw_key(iospd_jw_t* w, const char* key) {
  if (dead(w)) return;
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
  if (dead(w)) return;
  iospd_strbuf_appendf(w->out, "%llu", (unsigned long long)v);
}

void iospd_jw_dbl(iospd_jw_t* w, const char* key, double v) {
  iospd_jw_key(w, key);
  if (dead(w)) return;
  iospd_json_append_double(w->out, v);
}

void iospd_jw_str(iospd_jw_t* w, const char* key, const char* s) {
  iospd_jw_key(w, key);
  if (dead(w)) return;
  iospd_json_append_str(w->out, s);
}

void iospd_jw_bool(iospd_jw_t* w, const char* key, bool v) {
  iospd_jw_key(w, key);
  if (dead(w)) return;
  iospd_strbuf_append(w->out, v ? "true" : "false");
}

void iospd_jw_null(iospd_jw_t* w, const char* key) {
  iospd_jw_key(w, key);
  if (dead(w)) return;
  iospd_strbuf_append(w->out, "null");
}

void iospd_jw_mask(iospd_jw_t* w, const char* key, uint64_t mask) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)mask);
  iospd_jw_str(w, key, buf);
}
