/* SPDX-License-Identifier: MIT */
/* The in-memory time series (iospd/series_keep.h): the .jsonl rows of
 * each interval appended to one buffer, up to a cap. */
#include "iospd/series_keep.h"

#include "iospd/alloc.h"
#include "iospd/series_out.h"

struct iospd_series_keep_s {
  const iospd_profile_t* p;
  size_t cap;
  bool latency;
  iospd_hist_t* tmp; /* read + write latency of a row */
  iospd_strbuf_t rows;
  iospd_strbuf_t one; /* one interval's rows, appended whole or not at all */
  uint64_t dropped;
};

iospd_series_keep_t* iospd_series_keep_create(const iospd_profile_t* p,
                                              size_t cap) {
  iospd_series_keep_t* k = iospd_calloc(1, sizeof *k);
  if (k == NULL) return NULL;
  k->p = p;
  k->cap = cap;
  iospd_strbuf_init(&k->rows);
  iospd_strbuf_init(&k->one);
  for (uint32_t i = 0; i < p->timespan_count; i++)
    if (p->timespans[i].measure_latency) k->latency = true;
  if (k->latency && (k->tmp = iospd_hist_create()) == NULL) {
    iospd_series_keep_destroy(k);
    return NULL;
  }
  return k;
}

void iospd_series_keep_interval(iospd_series_keep_t* k,
                                const iospd_interval_t* iv) {
  if (k == NULL) return;
  const iospd_timespan_t* ts = iv->timespan < k->p->timespan_count
                                   ? &k->p->timespans[iv->timespan]
                                   : NULL;
  iospd_strbuf_reset(&k->one);
  iospd_series_jsonl_rows(&k->one, iv, ts, k->latency, k->tmp);
  size_t before = k->rows.len;
  if (k->one.failed || k->rows.len + k->one.len > k->cap) {
    k->one.failed = false;
    k->dropped++;
    return;
  }
  iospd_strbuf_append_n(&k->rows, iospd_strbuf_cstr(&k->one), k->one.len);
  if (k->rows.failed) { /* never a half interval */
    k->rows.failed = false;
    k->rows.len = before;
    if (k->rows.data != NULL) k->rows.data[before] = '\0';
    k->dropped++;
  }
}

const char* iospd_series_keep_text(const iospd_series_keep_t* k,
                                   size_t* len) {
  *len = k != NULL ? k->rows.len : 0;
  return k != NULL ? iospd_strbuf_cstr(&k->rows) : "";
}

uint64_t iospd_series_keep_dropped(const iospd_series_keep_t* k) {
  return k != NULL ? k->dropped : 0;
}

void iospd_series_keep_destroy(iospd_series_keep_t* k) {
  if (k == NULL) return;
  iospd_hist_destroy(k->tmp);
  iospd_strbuf_destroy(&k->rows);
  iospd_strbuf_destroy(&k->one);
  iospd_free(k);
}
