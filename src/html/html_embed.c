/* SPDX-License-Identifier: MIT */
/* The data a report embeds: a document's bytes, deflated (zlib, level 9)
 * and base64-encoded as one JSON string inside
 *   <script type="application/json" id="..." data-encoding="zlib+base64">.
 * Compressed because a long run's results and time series are tens of MiB
 * of text that deflate shrinks 5-10 fold; base64 holds no '<', so no file
 * name inside can end the <script> element early. The page's script (and
 * docs/html-report.md for a shell) turns it back into the JSON.
 *
 * Size: a report stays under 1 MiB for an hour at 1 s intervals with 8
 * targets. When a run's documents, deflated, pass the budget, the page
 * embeds instead the document without its per-interval lists (the -D
 * buckets, "timeseries") and the time series as compact columns that keep
 * every interval's exact I/O and byte counts per target and the total's
 * latency percentiles (what the charts draw). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "html_internal.h"
#include "iospd/alloc.h"

static const char k_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(iospd_strbuf_t* out, const unsigned char* p, size_t n) {
  char q[4];
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)p[i] << 16;
    if (i + 1 < n) v |= (unsigned)p[i + 1] << 8;
    if (i + 2 < n) v |= p[i + 2];
    q[0] = k_b64[(v >> 18) & 63];
    q[1] = k_b64[(v >> 12) & 63];
    q[2] = i + 1 < n ? k_b64[(v >> 6) & 63] : '=';
    q[3] = i + 2 < n ? k_b64[v & 63] : '=';
    iospd_strbuf_append_n(out, q, 4);
  }
}

/* data deflated and base64-encoded into b64. Line ends become \n (a JSON
 * file saved on Windows has \r\n; its content is the same), so the page
 * is the same whichever system wrote the file, and the same as the page
 * the run wrote from the document in memory. *plain gets the length. */
static int pack(iospd_strbuf_t* b64, const char* data, size_t len,
                size_t* plain) {
  char* lf = iospd_malloc(len ? len : 1);
  if (lf == NULL) return IOSPD_ENOMEM;
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (!(data[i] == '\r' && i + 1 < len && data[i + 1] == '\n'))
      lf[n++] = data[i];
  *plain = n;
  uLongf cap = compressBound((uLong)n);
  unsigned char* z = iospd_malloc(cap ? cap : 1);
  if (z == NULL || compress2(z, &cap, (const Bytef*)lf, (uLong)n, 9) != Z_OK) {
    iospd_free(z);
    iospd_free(lf);
    return IOSPD_ENOMEM;
  }
  iospd_free(lf);
  base64(b64, z, cap);
  iospd_free(z);
  return b64->failed ? IOSPD_ENOMEM : 0;
}

/* pack of the document run->doc_fn writes, deflated as it comes (the
 * same bytes as compress2 of the whole), so that it is never held whole.
 * The base64 text only grows, so once it passes budget the page embeds
 * the slim document instead: the writing stops there, *over is set and
 * b64 is left empty. */
typedef struct {
  z_stream z;
  iospd_strbuf_t zout;
  size_t plain;
  size_t budget;
  bool over;
} zsink_t;

static size_t b64_len(size_t n) { return (n + 2) / 3 * 4; }

/* Deflates what is in z.next_in (flush: Z_NO_FLUSH or Z_FINISH) into
 * zout; 0, IOSPD_ECANCELED once past the budget, or IOSPD_ENOMEM. */
static int zsink_run(zsink_t* zs, int flush) {
  unsigned char buf[16384];
  int zrc;
  do {
    zs->z.next_out = buf;
    zs->z.avail_out = sizeof buf;
    zrc = deflate(&zs->z, flush);
    if (zrc == Z_STREAM_ERROR) return IOSPD_ENOMEM;
    iospd_strbuf_append_n(&zs->zout, (const char*)buf,
                          sizeof buf - zs->z.avail_out);
    if (zs->zout.failed) return IOSPD_ENOMEM;
    if (b64_len(zs->zout.len) > zs->budget) {
      zs->over = true;
      return IOSPD_ECANCELED;
    }
  } while (flush == Z_FINISH ? zrc != Z_STREAM_END
                             : zs->z.avail_in > 0 || zs->z.avail_out == 0);
  return 0;
}

static int zsink_write(void* ctx, const char* data, size_t len) {
  zsink_t* zs = ctx;
  zs->plain += len;
  zs->z.next_in = (Bytef*)(uintptr_t)data;
  zs->z.avail_in = (uInt)len; /* at most a chunk of the JSON writer */
  return zsink_run(zs, Z_NO_FLUSH);
}

static int pack_live(iospd_strbuf_t* b64, const html_run_t* run,
                     size_t budget, size_t* plain, bool* over) {
  zsink_t zs;
  memset(&zs, 0, sizeof zs);
  iospd_strbuf_init(&zs.zout);
  zs.budget = budget;
  if (deflateInit(&zs.z, 9) != Z_OK) return IOSPD_ENOMEM;
  iospd_sink_t sink = {.write = zsink_write, .ctx = &zs, .error = 0};
  int rc = run->doc_fn(run->doc_ctx, &sink, false);
  if (rc == 0) {
    zs.z.next_in = NULL;
    zs.z.avail_in = 0;
    rc = zsink_run(&zs, Z_FINISH);
  }
  deflateEnd(&zs.z);
  *plain = zs.plain;
  if (rc == 0) {
    base64(b64, (const unsigned char*)zs.zout.data, zs.zout.len);
    if (b64->failed) rc = IOSPD_ENOMEM;
  } else if (zs.over) {
    rc = 0;
  }
  *over = zs.over;
  iospd_strbuf_destroy(&zs.zout);
  return rc;
}

static void element(iospd_strbuf_t* out, const char* id, const char* kind,
                    size_t len, const iospd_strbuf_t* b64) {
  iospd_strbuf_appendf(out,
                       "<script type=\"application/json\" id=\"%s\" "
                       "data-kind=\"%s\" data-encoding=\"zlib+base64\" "
                       "data-bytes=\"%zu\">\"",
                       id, kind, len);
  iospd_strbuf_append_n(out, iospd_strbuf_cstr(b64), b64->len);
  iospd_strbuf_append(out, "\"</script>\n");
}

int iospd_html_embed(iospd_strbuf_t* out, const char* id, const char* kind,
                     const char* data, size_t len) {
  iospd_strbuf_t b64;
  iospd_strbuf_init(&b64);
  size_t plain = 0;
  int rc = pack(&b64, data, len, &plain);
  if (rc == 0) element(out, id, kind, plain, &b64);
  iospd_strbuf_destroy(&b64);
  return rc;
}

/* Removes the per-interval bucket lists of -D (arrays of objects) at any
 * depth; the latency histograms' buckets (arrays of arrays) stay. */
static void strip_buckets(cJSON* o) {
  cJSON* c = o->child;
  while (c != NULL) {
    cJSON* next = c->next;
    if (c->string != NULL && strcmp(c->string, "buckets") == 0 &&
        cJSON_IsArray(c) && cJSON_IsObject(c->child))
      cJSON_DetachItemViaPointer(o, c), cJSON_Delete(c);
    else if (cJSON_IsObject(c) || cJSON_IsArray(c))
      strip_buckets(c);
    c = next;
  }
}

static void num_or_null(iospd_strbuf_t* sb, double v, bool frac) {
  if (!isfinite(v))
    iospd_strbuf_append(sb, "null");
  else if (frac)
    iospd_strbuf_appendf(sb, "%.3f", v);
  else
    iospd_strbuf_appendf(sb, "%.0f", v);
}

static void column(iospd_strbuf_t* sb, const char* key, const double* v,
                   size_t n, bool frac) {
  iospd_strbuf_appendf(sb, "\"%s\":[", key);
  for (size_t i = 0; i < n; i++) {
    if (i) iospd_strbuf_putc(sb, ',');
    num_or_null(sb, v[i], frac);
  }
  iospd_strbuf_putc(sb, ']');
}

static const char* const k_dirs[3] = {"read", "write", "total"};
static const char* const k_lat[3] = {"p50", "p99", "p99_9"};

/* The time-series rows as columns (docs/html-report.md): per interval its
 * timespan, phase and bounds; per target the I/Os and bytes read and
 * written (the total row is their sum and left out); the total row's
 * p50, p99 and p99.9 latency per direction. */
static int columns(iospd_strbuf_t* sb, const html_run_t* run) {
  size_t n = 0, targets = 0;
  double a0 = NAN, b0 = NAN, s0 = NAN;
  const cJSON* row;
  html_row_it_t it;
  iospd_html_rows_begin(&it, run);
  while ((row = iospd_html_rows_next(&it)) != NULL) {
    long t = iospd_html_row_target(row);
    if (t < 0) continue;
    double s = iospd_json_num(row, "timespan");
    double a = iospd_json_num(row, "start_ms");
    double b = iospd_json_num(row, "end_ms");
    if (n == 0 || a != a0 || b != b0 || s != s0) n++;
    a0 = a, b0 = b, s0 = s;
    if (t < HTML_MAX_TARGETS && (size_t)t + 1 > targets) targets = (size_t)t + 1;
  }
  iospd_html_rows_end(&it);
  size_t per = 4 + 4 * targets + 9; /* columns */
  double* v = iospd_malloc((n ? n : 1) * per * sizeof *v);
  char* phase = iospd_malloc(n ? n : 1);
  if (v == NULL || phase == NULL) {
    iospd_free(v);
    iospd_free(phase);
    return IOSPD_ENOMEM;
  }
  for (size_t i = 0; i < n * per; i++) v[i] = NAN;
  memset(phase, 'm', n ? n : 1);
#define COL(c) (v + (c) * n)
  size_t i = (size_t)-1;
  a0 = b0 = s0 = NAN;
  iospd_html_rows_begin(&it, run);
  while ((row = iospd_html_rows_next(&it)) != NULL) {
    long tr = iospd_html_row_target(row);
    if (tr < 0) continue;
    double s = iospd_json_num(row, "timespan");
    double a = iospd_json_num(row, "start_ms");
    double b = iospd_json_num(row, "end_ms");
    if (i == (size_t)-1 || a != a0 || b != b0 || s != s0) i++;
    a0 = a, b0 = b, s0 = s;
    COL(0)[i] = s;
    COL(1)[i] = a;
    COL(2)[i] = b;
    const char* ph = iospd_json_str(row, "phase");
    if (ph != NULL) phase[i] = ph[0] == 'w' ? 'w' : ph[0] == 'c' ? 'c' : 'm';
    if (tr < HTML_MAX_TARGETS) {
      size_t c = 4 + 4 * (size_t)tr;
      for (int d = 0; d < 2; d++) {
        const cJSON* dir = iospd_json_get(row, k_dirs[d]);
        COL(c + (size_t)d)[i] = iospd_json_num(dir, "ios");
        COL(c + 2 + (size_t)d)[i] = iospd_json_num(dir, "bytes");
      }
    } else {
      for (int d = 0; d < 3; d++)
        for (int k = 0; k < 3; k++)
          COL(4 + 4 * targets + (size_t)(d * 3 + k))[i] = iospd_json_num(
              iospd_json_get(iospd_json_get(row, k_dirs[d]), "lat_ms"),
              k_lat[k]);
    }
  }
  iospd_html_rows_end(&it);
  iospd_strbuf_appendf(sb, "{\"format\":\"iospd-timeseries-columns\","
                       "\"intervals\":%zu,", n);
  column(sb, "timespan", COL(0), n, false);
  iospd_strbuf_append(sb, ",\"phase\":\"");
  iospd_strbuf_append_n(sb, phase, n);
  iospd_strbuf_append(sb, "\",");
  column(sb, "start_ms", COL(1), n, false);
  iospd_strbuf_putc(sb, ',');
  column(sb, "end_ms", COL(2), n, false);
  iospd_strbuf_append(sb, ",\"targets\":[");
  for (size_t t = 0; t < targets; t++) {
    size_t c = 4 + 4 * t;
    iospd_strbuf_append(sb, t ? ",{" : "{");
    column(sb, "read_ios", COL(c), n, false);
    iospd_strbuf_putc(sb, ',');
    column(sb, "write_ios", COL(c + 1), n, false);
    iospd_strbuf_putc(sb, ',');
    column(sb, "read_bytes", COL(c + 2), n, false);
    iospd_strbuf_putc(sb, ',');
    column(sb, "write_bytes", COL(c + 3), n, false);
    iospd_strbuf_putc(sb, '}');
  }
  iospd_strbuf_append(sb, "],\"total_lat_ms\":{");
  for (int d = 0; d < 3; d++) {
    iospd_strbuf_appendf(sb, "%s\"%s\":{", d ? "," : "", k_dirs[d]);
    for (int k = 0; k < 3; k++) {
      if (k) iospd_strbuf_putc(sb, ',');
      column(sb, k_lat[k], COL(4 + 4 * targets + (size_t)(d * 3 + k)), n, true);
    }
    iospd_strbuf_putc(sb, '}');
  }
  iospd_strbuf_append(sb, "}}");
#undef COL
  iospd_free(v);
  iospd_free(phase);
  return sb->failed ? IOSPD_ENOMEM : 0;
}

int iospd_html_embed_run(iospd_strbuf_t* out, const iospd_html_input_t* in,
                         const html_run_t* run, size_t r, size_t budget,
                         bool* slim) {
  char id[48];
  iospd_strbuf_t doc, series;
  iospd_strbuf_init(&doc);
  iospd_strbuf_init(&series);
  size_t doc_len = 0, series_len = 0;
  bool over = false;
  int rc = run->doc_fn != NULL
               ? pack_live(&doc, run, budget, &doc_len, &over)
               : pack(&doc, in->json, in->json_len, &doc_len);
  if (rc == 0 && in->jsonl != NULL)
    rc = pack(&series, in->jsonl, in->jsonl_len, &series_len);
  *slim = rc == 0 && (over || doc.len + series.len > budget);
  if (rc == 0 && !*slim) {
    snprintf(id, sizeof id, "iospd-results-%zu", r);
    element(out, id, "results", doc_len, &doc);
    if (in->jsonl != NULL) {
      snprintf(id, sizeof id, "iospd-timeseries-%zu", r);
      element(out, id, "timeseries", series_len, &series);
    }
  } else if (rc == 0) {
    cJSON* copy = cJSON_Duplicate(run->doc, true);
    char* text = NULL;
    if (copy != NULL) {
      cJSON_DeleteItemFromObjectCaseSensitive(copy, "timeseries");
      strip_buckets(copy);
      text = cJSON_PrintUnformatted(copy);
    }
    iospd_strbuf_t cols;
    iospd_strbuf_init(&cols);
    rc = text == NULL ? IOSPD_ENOMEM : 0;
    if (rc == 0) {
      snprintf(id, sizeof id, "iospd-results-%zu", r);
      rc = iospd_html_embed(out, id, "results-slim", text, strlen(text));
    }
    if (rc == 0 && iospd_html_has_rows(run)) rc = columns(&cols, run);
    if (rc == 0 && iospd_html_has_rows(run)) {
      snprintf(id, sizeof id, "iospd-timeseries-%zu", r);
      rc = iospd_html_embed(out, id, "timeseries-columns",
                            iospd_strbuf_cstr(&cols), cols.len);
    }
    iospd_strbuf_destroy(&cols);
    cJSON_free(text);
    cJSON_Delete(copy);
  }
  iospd_strbuf_destroy(&doc);
  iospd_strbuf_destroy(&series);
  return rc;
}
