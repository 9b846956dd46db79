/* SPDX-License-Identifier: MIT */
/* The --timeseries file: picks the format by extension, writes the CSV
 * header at creation, and each interval's rows in one write straight to
 * the OS (iospd_plat_stream_*), from the controller thread that calls
 * hooks->interval: every finished interval is on disk even if the
 * process is killed, and a row is never half written by us. */
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/console.h"
#include "series_internal.h"

struct iospd_series_out_s {
  const iospd_profile_t* p;
  char* path;
  iospd_series_format_t format;
  bool latency;
  iospd_hist_t* tmp; /* read + write latency of a row */
  iospd_plat_stream_t* s;
  iospd_strbuf_t buf;
  int rc; /* first failure */
  iospd_err_t err;
};

static void fail(iospd_series_out_t* o, int rc, const iospd_err_t* e) {
  if (o->rc != 0) return;
  o->rc = rc;
  iospd_err_set(&o->err, rc, "cannot write the time series (--timeseries) "
                "to '%s': %s", o->path,
                e->msg[0] ? e->msg : iospd_strerror(rc));
}

static void put(iospd_series_out_t* o) {
  iospd_err_t e;
  iospd_err_clear(&e);
  if (o->buf.failed) {
    /* A truncated row must not reach the file. */
    o->buf.failed = false;
    fail(o, IOSPD_ENOMEM, &e);
  }
  if (o->rc != 0 || o->buf.len == 0) return;
  int rc = iospd_plat_stream_write(o->s, iospd_strbuf_cstr(&o->buf),
                                   o->buf.len, &e);
  if (rc < 0) fail(o, rc, &e);
}

int iospd_series_out_open(iospd_series_out_t** out, const char* path,
                          const iospd_profile_t* p, iospd_err_t* err) {
  *out = NULL;
  iospd_series_format_t f = iospd_series_format_of(path);
  if (f == IOSPD_SERIES_NONE)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "--timeseries=%s: the file name must end in .csv "
                         "or .jsonl (it picks the format)",
                         path ? path : "");
  iospd_series_out_t* o = iospd_calloc(1, sizeof(*o));
  if (o == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  iospd_strbuf_init(&o->buf);
  o->p = p;
  o->format = f;
  o->path = iospd_strdup(path);
  for (uint32_t i = 0; i < p->timespan_count; i++)
    if (p->timespans[i].measure_latency) o->latency = true;
  if (o->path == NULL || (o->latency && (o->tmp = iospd_hist_create()) == NULL)) {
    iospd_series_out_close(o, NULL);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_stream_create(path, &o->s, &e);
  if (rc < 0) {
    iospd_series_out_close(o, NULL);
    return iospd_err_set(err, rc, "cannot create the time series file "
                         "(--timeseries): %s", e.msg[0] ? e.msg : iospd_strerror(rc));
  }
  if (f == IOSPD_SERIES_CSV) {
    iospd_series_csv_header(&o->buf, o->latency);
    put(o);
    iospd_strbuf_reset(&o->buf);
  }
  *out = o;
  return 0;
}

void iospd_series_out_interval(iospd_series_out_t* o,
                               const iospd_interval_t* iv) {
  if (o == NULL || o->rc != 0) return;
  const iospd_timespan_t* ts =
      iv->timespan < o->p->timespan_count ? &o->p->timespans[iv->timespan]
                                          : NULL;
  iospd_strbuf_reset(&o->buf);
  if (o->format == IOSPD_SERIES_CSV)
    iospd_series_csv_rows(&o->buf, iv, ts, o->latency, o->tmp);
  else
    iospd_series_jsonl_rows(&o->buf, iv, ts, o->latency, o->tmp);
  put(o);
}

int iospd_series_out_close(iospd_series_out_t* o, iospd_err_t* err) {
  if (o == NULL) return 0;
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_stream_close(o->s, &e);
  if (rc < 0) fail(o, rc, &e);
  rc = o->rc;
  if (rc < 0 && err != NULL) *err = o->err;
  iospd_hist_destroy(o->tmp);
  iospd_strbuf_destroy(&o->buf);
  iospd_free(o->path);
  iospd_free(o);
  return rc;
}
