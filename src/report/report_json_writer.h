/* SPDX-License-Identifier: MIT */
/* A tiny pretty-printing JSON writer for the JSON report (internal to
 * src/report): keys and values in order, commas and indentation kept for
 * the caller. Strings and numbers go through iospd/json_write.h. The text
 * goes to a sink in pieces: what is pending is handed on before the next
 * value once it reaches IOSPD_JW_CHUNK, so the writer holds at most a
 * chunk and one value, however long the document. */
#ifndef IOSPD_REPORT_JSON_WRITER_H
#define IOSPD_REPORT_JSON_WRITER_H

#include "iospd/json_write.h"
#include "iospd/report.h"
#include "iospd/strbuf.h"

#define IOSPD_JW_MAX_DEPTH 32
#define IOSPD_JW_CHUNK ((size_t)64 << 10)

typedef struct iospd_jw_s {
  iospd_strbuf_t* out; /* the pending text (&pending): append freely */
  iospd_strbuf_t pending;
  iospd_sink_t* sink;
  /* Without the per-interval lists (the -D "buckets" and "timeseries"):
   * the document the HTML report embeds when the whole is too large. */
  bool slim;
  unsigned depth;
  bool first[IOSPD_JW_MAX_DEPTH];
} iospd_jw_t;

/* A writer to sink (slim: see above). */
void iospd_jw_init(iospd_jw_t* w, iospd_sink_t* sink, bool slim);
/* Hands on what is pending and frees the writer. Returns 0, the sink's
 * failure, or IOSPD_ENOMEM when text could not be held. */
int iospd_jw_finish(iospd_jw_t* w);

/* The comma, line break and indentation before a member or element, and
 * its quoted key when key is not NULL (NULL: an array element, the root). */
void iospd_jw_key(iospd_jw_t* w, const char* key);
/* Opens an object ('{') or array ('['); closes it with the matching
 * character (an empty one stays on one line). */
void iospd_jw_open(iospd_jw_t* w, const char* key, char c);
void iospd_jw_close(iospd_jw_t* w, char c);
void iospd_jw_u64(iospd_jw_t* w, const char* key, uint64_t v);
void iospd_jw_dbl(iospd_jw_t* w, const char* key, double v); /* NaN: null */
void iospd_jw_str(iospd_jw_t* w, const char* key,
                  const char* s); /* NULL: null */
void iospd_jw_bool(iospd_jw_t* w, const char* key, bool v);
void iospd_jw_null(iospd_jw_t* w, const char* key);
void iospd_jw_mask(iospd_jw_t* w, const char* key, uint64_t mask); /* "0x.." */

#define iospd_jw_obj(w, key) iospd_jw_open((w), (key), '{')
#define iospd_jw_arr(w, key) iospd_jw_open((w), (key), '[')
#define iospd_jw_end_obj(w) iospd_jw_close((w), '}')
#define iospd_jw_end_arr(w) iospd_jw_close((w), ']')

/* The JSON report's parts that describe the run rather than its results
 * (report_json_env.c). */
void iospd_rpt_json_system(iospd_jw_t* w, const iospd_results_t* r);
void iospd_rpt_json_environment(iospd_jw_t* w, const iospd_results_t* r,
                                const iospd_json_extra_t* x);
void iospd_rpt_json_profile(iospd_jw_t* w, const iospd_profile_t* p);

#endif
