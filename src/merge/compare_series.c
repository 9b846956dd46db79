/* SPDX-License-Identifier: MIT */
/* Per-interval values for the noise test of iospd --compare. Two sources:
 *  - "timeseries": rows as --timeseries writes them (docs/time-series.md),
 *    embedded in the results document: per interval and target (or
 *    "total") the read/write/total ios, bytes, iops, mib_s and, with -L,
 *    lat_ms {mean, p50, p90, p99, p99_9}. Only measuring rows count, and a
 *    row shorter than half the first one (the cut-off last interval of a
 *    phase) is left out: its rate rests on too few I/Os to weigh the same.
 *  - "iops_series": the -D intervals of the timespan (all targets) or of
 *    each thread's target (summed over threads for one target): ios,
 *    bytes and the mean latency per direction, no percentiles. */
#include <stdio.h>
#include <string.h>

#include "compare_internal.h"
#include "iospd/alloc.h"

static const cJSON* get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON* v, bool* ok) {
  if (!cJSON_IsNumber(v)) {
    *ok = false;
    return 0.0;
  }
  return v->valuedouble;
}

static const char* dir_key(iospd_cmp_dir_t d) {
  return d == IOSPD_CMP_READ ? "read" : d == IOSPD_CMP_WRITE ? "write"
                                                             : "total";
}

/* ---- timeseries rows ---------------------------------------------------- */

static bool row_matches(const cJSON* row, int ts, int target) {
  const cJSON* t = get(row, "timespan");
  const cJSON* ph = get(row, "phase");
  const cJSON* tg = get(row, "target");
  if (!cJSON_IsNumber(t) || t->valuedouble != ts) return false;
  if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "measuring") != 0)
    return false;
  if (target < 0) return cJSON_IsString(tg) && strcmp(tg->valuestring, "total") == 0;
  return cJSON_IsNumber(tg) && tg->valuedouble == target;
}

static double row_ms(const cJSON* row) {
  bool ok = true;
  double ms = num(get(row, "end_ms"), &ok) - num(get(row, "start_ms"), &ok);
  return ok ? ms : 0.0;
}

/* Rows of (ts, target) in the measuring phase, full-length ones. */
static long ts_rows(const cJSON* doc, int ts, int target, const cJSON*** out,
                    double* first_ms) {
  const cJSON* rows = get(doc, "timeseries");
  *out = NULL;
  *first_ms = 0.0;
  if (!cJSON_IsArray(rows)) return 0;
  int total = cJSON_GetArraySize(rows);
  const cJSON** list = iospd_calloc(total > 0 ? (size_t)total : 1, sizeof *list);
  if (list == NULL) return -1;
  long n = 0;
  for (const cJSON* r = rows->child; r != NULL; r = r->next) {
    if (!row_matches(r, ts, target)) continue;
    double ms = row_ms(r);
    if (n == 0) *first_ms = ms;
    if (!(ms > 0.0) || ms < *first_ms / 2.0) continue;
    list[n++] = r;
  }
  if (n == 0) {
    iospd_free(list);
    list = NULL;
  }
  *out = list;
  return n;
}

static long from_timeseries(const cJSON* doc, int ts, int target,
                            iospd_cmp_metric_t m, iospd_cmp_dir_t d,
                            double* vals, long cap, char* why,
                            size_t why_size) {
  const cJSON** rows;
  double first_ms;
  long n = ts_rows(doc, ts, target, &rows, &first_ms);
  if (n <= 0) return n;
  if (n > cap) n = cap;
  long k = 0;
  bool no_lat = false;
  for (long i = 0; i < n; i++) {
    const cJSON* o = get(rows[i], dir_key(d));
    bool ok = true;
    const cJSON* lat = get(o, "lat_ms");
    double v = 0.0;
    switch (m) {
      case IOSPD_CMP_IOPS: v = num(get(o, "iops"), &ok); break;
      case IOSPD_CMP_MIBS: v = num(get(o, "mib_s"), &ok); break;
      case IOSPD_CMP_LAT_MEAN: v = num(get(lat, "mean"), &ok); break;
      case IOSPD_CMP_LAT_P99: v = num(get(lat, "p99"), &ok); break;
      case IOSPD_CMP_LAT_P999: v = num(get(lat, "p99_9"), &ok); break;
      default: ok = false; break;
    }
    if (!ok && lat == NULL) no_lat = true;
    if (ok) vals[k++] = v; /* a null latency: no I/O in that interval */
  }
  iospd_free(rows);
  if (k == 0 && no_lat)
    snprintf(why, why_size, "the time series has no latency (run with -L)");
  return k;
}

/* ---- -D iops_series ----------------------------------------------------- */

/* Collects the bucket arrays to add up: the timespan's own series for all
 * targets, else every thread's series for that target. With lists NULL,
 * only counts them. */
static size_t series_lists(const cJSON* span, int target, const cJSON** lists) {
  size_t n = 0;
  if (target < 0) {
    const cJSON* b = get(get(span, "iops_series"), "buckets");
    if (cJSON_IsArray(b)) {
      if (lists) lists[n] = b;
      n++;
    }
    return n;
  }
  const cJSON* threads = get(span, "threads");
  for (const cJSON* th = threads ? threads->child : NULL; th; th = th->next) {
    const cJSON* tgs = get(th, "targets");
    for (const cJSON* t = tgs ? tgs->child : NULL; t; t = t->next) {
      const cJSON* ti = get(t, "target_index");
      if (!cJSON_IsNumber(ti) || ti->valuedouble != target) continue;
      const cJSON* b = get(get(t, "iops_series"), "buckets");
      if (cJSON_IsArray(b)) {
        if (lists) lists[n] = b;
        n++;
      }
    }
  }
  return n;
}

typedef struct sums_s {
  double ios[2], bytes[2], lat[2];
  bool lat_ok[2];
} sums_t;

static bool add_bucket(sums_t* s, const cJSON* b) {
  static const char* const pre[2] = {"read", "write"};
  bool ok = true;
  for (int i = 0; i < 2; i++) {
    char key[24];
    snprintf(key, sizeof key, "%s_ios", pre[i]);
    double ios = num(get(b, key), &ok);
    snprintf(key, sizeof key, "%s_bytes", pre[i]);
    s->bytes[i] += num(get(b, key), &ok);
    s->ios[i] += ios;
    snprintf(key, sizeof key, "%s_latency", pre[i]);
    const cJSON* mean = get(get(b, key), "mean_ms");
    if (cJSON_IsNumber(mean))
      s->lat[i] += mean->valuedouble * ios;
    else if (ios > 0)
      s->lat_ok[i] = false;
  }
  return ok;
}

static bool bucket_value(const sums_t* s, double ms, iospd_cmp_metric_t m,
                         iospd_cmp_dir_t d, double* v) {
  double ios = 0, bytes = 0, lat = 0;
  bool lat_ok = true;
  for (int i = 0; i < 2; i++) {
    if (d == IOSPD_CMP_READ && i == 1) continue;
    if (d == IOSPD_CMP_WRITE && i == 0) continue;
    ios += s->ios[i];
    bytes += s->bytes[i];
    lat += s->lat[i];
    lat_ok = lat_ok && s->lat_ok[i];
  }
  if (!(ms > 0.0)) return false;
  switch (m) {
    case IOSPD_CMP_IOPS: *v = ios / (ms / 1000.0); return true;
    case IOSPD_CMP_MIBS: *v = bytes / 1048576.0 / (ms / 1000.0); return true;
    case IOSPD_CMP_LAT_MEAN:
      if (!(ios > 0.0) || !lat_ok) return false;
      *v = lat / ios;
      return true;
    default: return false;
  }
}

/* The -D series leaves out trailing intervals in which no I/O completed
 * (a thread that got no CPU, a device that stalled at the end), and a
 * thread's series can be shorter than another's: the measured time says
 * how many full intervals there were, and a missing one had no I/O. */
static int full_intervals(const cJSON* span) {
  bool ok = true;
  double secs = num(get(span, "test_time_seconds"), &ok);
  double ms = num(get(get(span, "iops_series"), "interval_ms"), &ok);
  if (!ok || !(ms > 0.0) || !(secs > 0.0) || secs * 1000.0 / ms > 1e8)
    return 0;
  return (int)(secs * 1000.0 / ms + 1e-9);
}

static long from_iops_series(const cJSON* span, int target,
                             iospd_cmp_metric_t m, iospd_cmp_dir_t d,
                             double* vals, long cap) {
  size_t nl = series_lists(span, target, NULL);
  if (nl == 0) return 0;
  const cJSON** lists = iospd_calloc(nl, sizeof *lists);
  if (lists == NULL) return -1;
  series_lists(span, target, lists);
  /* Each list walked once, in step (cJSON_GetArrayItem would walk from
   * the start for every interval: quadratic in a long run). */
  for (size_t l = 0; l < nl; l++) lists[l] = lists[l]->child;
  int len = 0;
  for (size_t l = 0; l < nl; l++) {
    int size = 0;
    for (const cJSON* b = lists[l]; b != NULL; b = b->next) size++;
    if (size > len) len = size;
  }
  bool ok = true;
  double interval = num(get(get(span, "iops_series"), "interval_ms"), &ok);
  int full = ok ? full_intervals(span) : 0;
  if (full > len) len = full;
  long k = 0;
  for (int i = 0; i < len && k < cap; i++) {
    sums_t s;
    memset(&s, 0, sizeof s);
    s.lat_ok[0] = s.lat_ok[1] = true;
    bool valid = true;
    for (size_t l = 0; l < nl; l++) {
      const cJSON* b = lists[l];
      if (b == NULL) continue;
      valid = valid && add_bucket(&s, b);
      lists[l] = b->next;
    }
    /* Every -D interval has the -D length (sample_ms is where it ends). */
    double v, ms = interval;
    if (valid && bucket_value(&s, ms, m, d, &v)) vals[k++] = v;
  }
  iospd_free(lists);
  return k;
}

static const cJSON* span_of(const cJSON* doc, int ts) {
  return cJSON_GetArrayItem(get(doc, "timespans"), ts);
}

long iospd_cmp_series(const cJSON* doc, int ts, int target,
                      iospd_cmp_metric_t m, iospd_cmp_dir_t d, double** vals,
                      const char** source, char* why, size_t why_size) {
  *vals = NULL;
  *source = NULL;
  why[0] = '\0';
  if (m == IOSPD_CMP_CPU_PER_IO) {
    snprintf(why, why_size, "no per-interval CPU values in the results");
    return 0;
  }
  const cJSON* span = span_of(doc, ts);
  const cJSON* rows = get(doc, "timeseries");
  const cJSON* b = get(get(span, "iops_series"), "buckets");
  long cap = (cJSON_IsArray(rows) ? cJSON_GetArraySize(rows) : 0) +
             (cJSON_IsArray(b) ? cJSON_GetArraySize(b) : 0) +
             full_intervals(span);
  /* Per target, the threads' series are as long as the timespan's. */
  if (cap == 0) cap = 1;
  double* v = iospd_malloc((size_t)cap * sizeof *v);
  if (v == NULL) return -1;
  bool pct = m == IOSPD_CMP_LAT_P99 || m == IOSPD_CMP_LAT_P999;
  /* The -D values first: they are exact (the time series rounds latency
   * to 0.001 ms), and they have no percentiles. */
  long n = pct ? 0 : from_iops_series(span, target, m, d, v, cap);
  if (n < 0) {
    iospd_free(v);
    return -1;
  }
  if (n > 0) {
    *source = "iops_series";
  } else {
    n = from_timeseries(doc, ts, target, m, d, v, cap, why, why_size);
    if (n > 0) *source = "timeseries";
  }
  if (n < 0) {
    iospd_free(v);
    return -1;
  }
  if (n == 0 && why[0] == '\0') {
    if (pct)
      snprintf(why, why_size, "no per-interval percentiles (run with -L and "
               "--timeseries=FILE.jsonl, then give the .jsonl after its "
               ".json)");
    else if (m == IOSPD_CMP_LAT_MEAN)
      snprintf(why, why_size, "no per-interval latency (run with -L and -D)");
    else
      snprintf(why, why_size, "no per-interval values (run with -D)");
  }
  if (n == 0) {
    iospd_free(v);
    v = NULL;
  } else {
    why[0] = '\0';
  }
  *vals = v;
  return n;
}

size_t iospd_cmp_ts_intervals(const cJSON* doc, int ts, double* interval_ms) {
  const cJSON** rows;
  double first_ms;
  long n = ts_rows(doc, ts, -1, &rows, &first_ms);
  iospd_free(rows);
  *interval_ms = n > 0 ? first_ms : 0.0;
  return n > 0 ? (size_t)n : 0;
}

size_t iospd_cmp_intervals(const cJSON* doc, int ts, double* interval_ms) {
  const cJSON* span = span_of(doc, ts);
  const cJSON* series = get(span, "iops_series");
  const cJSON* b = get(series, "buckets");
  bool ok = true;
  double ms = num(get(series, "interval_ms"), &ok);
  *interval_ms = 0.0;
  if (!cJSON_IsArray(b) || !ok || cJSON_GetArraySize(b) == 0) return 0;
  *interval_ms = ms;
  int n = cJSON_GetArraySize(b), full = full_intervals(span);
  return (size_t)(full > n ? full : n);
}
