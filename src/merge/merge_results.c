/* SPDX-License-Identifier: MIT */
/* Adds one run's "timespans" results into the merged ones (docs/merging.md
 * has the rules in user terms):
 *  - counts (ios, bytes, errors, wait statistics) add;
 *  - rates (iops, mib_per_s) add: each run's own rate, so the merged rate
 *    is the aggregate of machines that ran at once (for repetitions divide
 *    by the number of runs in merged_from);
 *  - test_time_seconds is the longest run's (the wall time of runs at once;
 *    every run's own is in merged_from);
 *  - latency comes from the added histograms: count, min, max, mean,
 *    stddev and every percentile are recomputed from the exact sums and the
 *    merged buckets, so they equal those of one histogram of all samples;
 *  - what only one host can say (per-CPU usage; per-thread mean/stddev
 *    latency, which has no histogram; the mean/stddev of a -D interval) is
 *    null in the merged document and kept per run in merged_from where the
 *    run had it;
 *  - descriptive fields (paths, engine names, file sizes) are the first
 *    run's.
 * Every step is a left fold, so merge(merge(a, b), c) == merge(a, b, c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/hist.h"
#include "merge_internal.h"

static cJSON* get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int mfail(iospd_merge_ctx_t* m, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static int mfail(iospd_merge_ctx_t* m, const char* fmt, ...) {
  char what[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return iospd_err_set(m->err, IOSPD_EUSAGE, "'%s': %s: %s", m->file,
                       m->path.len ? m->path.text : "(top)", what);
}

static int nomem(iospd_merge_ctx_t* m) {
  return iospd_err_set(m->err, IOSPD_ENOMEM, "out of memory merging '%s'",
                       m->file);
}

/* Replaces the value of dst[key] (keeping its place) by v (taken). */
static int put(iospd_merge_ctx_t* m, cJSON* dst, const char* key, cJSON* v) {
  if (v == NULL) return nomem(m);
  cJSON* old = get(dst, key);
  if (old == NULL) {
    cJSON_AddItemToObject(dst, key, v);
    return 0;
  }
  /* (ViaPointer would drop the key name of v.) */
  cJSON_ReplaceItemInObjectCaseSensitive(dst, key, v);
  return 0;
}

static int put_num(iospd_merge_ctx_t* m, cJSON* dst, const char* key,
                   double v) {
  return put(m, dst, key, cJSON_CreateNumber(v));
}

/* dst[key] += src[key] for an exact count; both must hold one (or neither). */
static int add_count(iospd_merge_ctx_t* m, cJSON* dst, const cJSON* src,
                     const char* key) {
  cJSON* d = get(dst, key);
  const cJSON* s = get(src, key);
  if (d == NULL && s == NULL) return 0;
  uint64_t a = 0, b = 0;
  size_t mark = iospd_json_path_key(&m->path, key);
  if (d == NULL || !iospd_json_u53(d, &a))
    return iospd_err_set(m->err, IOSPD_EUSAGE,
                         "'%s': %s: missing or not a whole number below 2^53",
                         m->first_file, m->path.text);
  if (s == NULL || !iospd_json_u53(s, &b))
    return mfail(m, "missing or not a whole number below 2^53");
  if ((double)a + (double)b >= IOSPD_JSON_U53_LIMIT)
    return mfail(m, "the sum passes 2^53 and cannot be written exactly");
  iospd_json_path_pop(&m->path, mark);
  return put_num(m, dst, key, (double)(a + b));
}

/* dst[key] += src[key] for a rate or any sum of doubles; null is "none". */
static int add_rate(iospd_merge_ctx_t* m, cJSON* dst, const cJSON* src,
                    const char* key) {
  cJSON* d = get(dst, key);
  const cJSON* s = get(src, key);
  if (s == NULL || !cJSON_IsNumber(s)) return 0;
  if (d == NULL || !cJSON_IsNumber(d))
    return put_num(m, dst, key, s->valuedouble);
  return put_num(m, dst, key, d->valuedouble + s->valuedouble);
}

static int set_null(iospd_merge_ctx_t* m, cJSON* dst, const char* key) {
  if (get(dst, key) == NULL) return 0;
  return put(m, dst, key, cJSON_CreateNull());
}

/* Arrays merged position by position must have the same length. */
static int same_length(iospd_merge_ctx_t* m, const cJSON* d, const cJSON* s,
                       const char* key) {
  int nd = cJSON_GetArraySize(d), ns = cJSON_GetArraySize(s);
  if (cJSON_IsArray(d) != cJSON_IsArray(s) || nd != ns)
    return mfail(m, "%s has %d entries here and %d in '%s'; runs of one "
                 "profile have the same (did a run stop early?)",
                 key, ns, nd, m->first_file);
  return 0;
}

/* ---- latency ------------------------------------------------------------ */

static double ms(double ns) { return ns / 1e6; }

/* Writes the derived statistics of h into the latency object lat. */
static int latency_from_hist(iospd_merge_ctx_t* m, cJSON* lat,
                             const iospd_hist_t* h) {
  uint64_t n = iospd_hist_count(h);
  int rc = put_num(m, lat, "count", (double)n);
  if (rc == 0 && n > 0) {
    rc = put_num(m, lat, "min_ms", ms((double)iospd_hist_min_ns(h)));
    if (rc == 0) rc = put_num(m, lat, "max_ms", ms((double)iospd_hist_max_ns(h)));
    if (rc == 0) rc = put_num(m, lat, "mean_ms", ms(iospd_hist_mean_ns(h)));
    if (rc == 0) rc = put_num(m, lat, "stddev_ms", ms(iospd_hist_stddev_ns(h)));
    cJSON* pct = get(lat, "percentiles");
    int i = 0;
    for (cJSON* p = pct ? pct->child : NULL; rc == 0 && p; p = p->next, i++) {
      const cJSON* name = get(p, "percentile");
      if (!cJSON_IsString(name)) {
        size_t mark = iospd_json_path_key(&m->path, "percentiles");
        iospd_json_path_index(&m->path, i);
        rc = mfail(m, "\"percentile\" is not a string such as \"99.9\"");
        iospd_json_path_pop(&m->path, mark);
        break;
      }
      double at = strtod(name->valuestring, NULL);
      rc = put_num(m, p, "ms", ms(iospd_hist_percentile_ns(h, at)));
    }
  }
  if (rc == 0) {
    cJSON* hj = iospd_hist_to_json(h);
    rc = put(m, lat, "histogram", hj);
  }
  return rc;
}

static int read_hist(iospd_merge_ctx_t* m, const cJSON* lat, iospd_hist_t* h,
                     const char* whose) {
  char why[200];
  const cJSON* hj = get(lat, "histogram");
  if (hj == NULL)
    return mfail(m, "%s latency has no \"histogram\", so its percentiles "
                 "cannot be merged", whose);
  if (iospd_hist_from_json(hj, h, why, sizeof why) != 0)
    return mfail(m, "%s", why);
  return 0;
}

static int merge_latency(iospd_merge_ctx_t* m, cJSON* dir, const cJSON* sdir) {
  cJSON* d = get(dir, "latency");
  const cJSON* s = get(sdir, "latency");
  if (s == NULL || cJSON_IsNull(s)) return 0; /* nothing measured here */
  if (d == NULL || cJSON_IsNull(d)) {
    /* The runs before had none (no -L is refused by the profile check,
     * so this is an empty direction): take this one's. */
    return put(m, dir, "latency", cJSON_Duplicate(s, true));
  }
  size_t mark = iospd_json_path_key(&m->path, "latency");
  int rc = read_hist(m, d, m->ha, "the merged");
  if (rc == 0) rc = read_hist(m, s, m->hb, "this run's");
  if (rc == 0) {
    iospd_hist_merge(m->ha, m->hb);
    rc = latency_from_hist(m, d, m->ha);
  }
  iospd_json_path_pop(&m->path, mark);
  return rc;
}

/* ---- directions --------------------------------------------------------- */

static int merge_direction(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  int rc = add_count(m, d, s, "ios");
  if (rc == 0) rc = add_count(m, d, s, "bytes");
  if (rc == 0) rc = add_rate(m, d, s, "iops");
  if (rc == 0) rc = add_rate(m, d, s, "mib_per_s");
  if (rc == 0) rc = merge_latency(m, d, s);
  return rc;
}

static int merge_directions(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  static const char* const dirs[] = {"read", "write", "total"};
  if (d == NULL || s == NULL) return 0;
  for (size_t i = 0; i < 3; i++) {
    cJSON* dd = get(d, dirs[i]);
    const cJSON* sd = get(s, dirs[i]);
    if (dd == NULL || sd == NULL) continue;
    size_t mark = iospd_json_path_key(&m->path, dirs[i]);
    int rc = merge_direction(m, dd, sd);
    iospd_json_path_pop(&m->path, mark);
    if (rc) return rc;
  }
  return 0;
}

/* ---- errors, wait statistics, -D series --------------------------------- */

static int merge_errors(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  if (d == NULL || s == NULL) return 0;
  size_t mark = iospd_json_path_key(&m->path, "errors");
  int rc = add_count(m, d, s, "read");
  if (rc == 0) rc = add_count(m, d, s, "write");
  iospd_json_path_pop(&m->path, mark);
  /* The first error of the first run that had one. */
  const cJSON* first = get(d, "first_error");
  const cJSON* sfirst = get(s, "first_error");
  if (rc == 0 && cJSON_IsNull(first) && cJSON_IsString(sfirst)) {
    rc = put(m, d, "first_error", cJSON_Duplicate(sfirst, true));
    const cJSON* off = get(s, "first_error_offset");
    if (rc == 0 && off != NULL)
      rc = put(m, d, "first_error_offset", cJSON_Duplicate(off, true));
  }
  return rc;
}

static int merge_waits(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  static const char* const keys[] = {"completion_wait", "throttle_wait",
                                     "throttle_sleep", "lookaside"};
  if (d == NULL || s == NULL) return 0;
  size_t mark = iospd_json_path_key(&m->path, "wait_statistics");
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < 4; i++) rc = add_count(m, d, s, keys[i]);
  cJSON* la = get(d, "lookaside_completion");
  const cJSON* lb = get(s, "lookaside_completion");
  if (rc == 0 && la != NULL && lb != NULL)
    rc = same_length(m, la, lb, "lookaside_completion");
  for (int i = 0; rc == 0 && la && lb && i < cJSON_GetArraySize(la); i++) {
    uint64_t a = 0, b = 0;
    if (!iospd_json_u53(cJSON_GetArrayItem(la, i), &a) ||
        !iospd_json_u53(cJSON_GetArrayItem(lb, i), &b))
      rc = mfail(m, "lookaside_completion[%d] is not a count", i);
    else
      cJSON_SetNumberHelper(cJSON_GetArrayItem(la, i), (double)(a + b));
  }
  iospd_json_path_pop(&m->path, mark);
  return rc;
}

/* Population stddev of per-interval counts, per second (as buckets.c and
 * DISKSPD compute it), from the merged counts of one series. */
static double series_stddev(const cJSON* buckets, const char* k1,
                            const char* k2, double interval_ms) {
  int n = cJSON_GetArraySize(buckets);
  if (n == 0 || interval_ms <= 0) return 0;
  double sum = 0, ss = 0;
  for (const cJSON* b = buckets->child; b; b = b->next)
    sum += cJSON_GetNumberValue(get(b, k1)) +
           (k2 ? cJSON_GetNumberValue(get(b, k2)) : 0);
  double mean = sum / n;
  for (const cJSON* b = buckets->child; b; b = b->next) {
    double x = cJSON_GetNumberValue(get(b, k1)) +
               (k2 ? cJSON_GetNumberValue(get(b, k2)) : 0) - mean;
    ss += x * x;
  }
  return sqrt(ss / n) / (interval_ms / 1000.0);
}

static int merge_bucket_latency(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s,
                                const char* key) {
  cJSON* dl = get(d, key);
  const cJSON* sl = get(s, key);
  if (sl == NULL || cJSON_IsNull(sl)) return 0;
  if (dl == NULL || cJSON_IsNull(dl))
    return put(m, d, key, cJSON_Duplicate(sl, true));
  /* min and max are exact; a mean or stddev without the sums is not. */
  const cJSON* smin = get(sl, "min_ms");
  const cJSON* smax = get(sl, "max_ms");
  cJSON* dmin = get(dl, "min_ms");
  cJSON* dmax = get(dl, "max_ms");
  int rc = 0;
  if (cJSON_IsNumber(smin) &&
      (!cJSON_IsNumber(dmin) || smin->valuedouble < dmin->valuedouble))
    rc = put_num(m, dl, "min_ms", smin->valuedouble);
  if (rc == 0 && cJSON_IsNumber(smax) &&
      (!cJSON_IsNumber(dmax) || smax->valuedouble > dmax->valuedouble))
    rc = put_num(m, dl, "max_ms", smax->valuedouble);
  if (rc == 0) rc = set_null(m, dl, "mean_ms");
  if (rc == 0) rc = set_null(m, dl, "stddev_ms");
  return rc;
}

static int merge_series(iospd_merge_ctx_t* m, cJSON* parent,
                        const cJSON* sparent) {
  cJSON* d = get(parent, "iops_series");
  const cJSON* s = get(sparent, "iops_series");
  if (s == NULL) return 0;
  if (d == NULL) return put(m, parent, "iops_series", cJSON_Duplicate(s, true));
  size_t mark = iospd_json_path_key(&m->path, "iops_series");
  int rc = 0;
  double interval = cJSON_GetNumberValue(get(d, "interval_ms"));
  if (interval != cJSON_GetNumberValue(get(s, "interval_ms")))
    rc = mfail(m, "interval_ms differs from '%s''s", m->first_file);
  cJSON* db = get(d, "buckets");
  const cJSON* sb = get(s, "buckets");
  if (rc == 0 && (!cJSON_IsArray(db) || !cJSON_IsArray(sb)))
    rc = mfail(m, "\"buckets\" is not an array");
  /* A run may have one interval more or less than another: the missing
   * ones count as empty. */
  const cJSON* sbk = sb ? sb->child : NULL;
  for (int i = 0; rc == 0 && sbk != NULL; i++, sbk = sbk->next) {
    cJSON* dbk = cJSON_GetArrayItem(db, i);
    if (dbk == NULL) {
      cJSON* dup = cJSON_Duplicate(sbk, true);
      if (dup == NULL) return nomem(m);
      cJSON_AddItemToArray(db, dup);
      continue;
    }
    size_t bm = iospd_json_path_key(&m->path, "buckets");
    iospd_json_path_index(&m->path, i);
    static const char* const counts[] = {"read_ios", "write_ios", "read_bytes",
                                         "write_bytes"};
    static const char* const rates[] = {"read_iops", "write_iops",
                                        "total_iops"};
    for (size_t k = 0; rc == 0 && k < 4; k++)
      rc = add_count(m, dbk, sbk, counts[k]);
    for (size_t k = 0; rc == 0 && k < 3; k++)
      rc = add_rate(m, dbk, sbk, rates[k]);
    if (rc == 0) rc = merge_bucket_latency(m, dbk, sbk, "read_latency");
    if (rc == 0) rc = merge_bucket_latency(m, dbk, sbk, "write_latency");
    iospd_json_path_pop(&m->path, bm);
  }
  if (rc == 0 && get(d, "read_iops_stddev") != NULL) {
    rc = put_num(m, d, "read_iops_stddev",
                 series_stddev(db, "read_ios", NULL, interval));
    if (rc == 0)
      rc = put_num(m, d, "write_iops_stddev",
                   series_stddev(db, "write_ios", NULL, interval));
    if (rc == 0)
      rc = put_num(m, d, "iops_stddev",
                   series_stddev(db, "read_ios", "write_ios", interval));
  }
  iospd_json_path_pop(&m->path, mark);
  return rc;
}

/* ---- targets and threads ------------------------------------------------ */

typedef int (*merge_item_fn)(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s);

/* Merges the arrays parent[key] position by position with fn. */
static int merge_array(iospd_merge_ctx_t* m, cJSON* parent,
                       const cJSON* sparent, const char* key,
                       merge_item_fn fn) {
  cJSON* d = get(parent, key);
  const cJSON* s = get(sparent, key);
  if (d == NULL && s == NULL) return 0;
  size_t mark = iospd_json_path_key(&m->path, key);
  int rc = same_length(m, d, s, key);
  const cJSON* x = s ? s->child : NULL;
  cJSON* y = d ? d->child : NULL;
  for (int i = 0; rc == 0 && x != NULL; i++, x = x->next, y = y->next) {
    size_t im = iospd_json_path_index(&m->path, i);
    rc = fn(m, y, x);
    iospd_json_path_pop(&m->path, im);
  }
  iospd_json_path_pop(&m->path, mark);
  return rc;
}

static int merge_target_total(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  size_t mark = iospd_json_path_key(&m->path, "directions");
  int rc = merge_directions(m, get(d, "directions"), get(s, "directions"));
  iospd_json_path_pop(&m->path, mark);
  if (rc == 0) rc = merge_errors(m, get(d, "errors"), get(s, "errors"));
  return rc;
}

static int merge_thread_target(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  static const char* const counts[] = {"bytes", "ios", "read_bytes",
                                       "read_ios", "write_bytes", "write_ios"};
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < 6; k++) rc = add_count(m, d, s, counts[k]);
  if (rc == 0) rc = merge_errors(m, get(d, "errors"), get(s, "errors"));
  /* Per-thread latency is a mean and stddev only (no histogram). */
  static const char* const lat[] = {"read_latency", "write_latency"};
  for (size_t k = 0; rc == 0 && k < 2; k++) {
    cJSON* l = get(d, lat[k]);
    if (l == NULL) continue;
    rc = set_null(m, l, "mean_ms");
    if (rc == 0) rc = set_null(m, l, "stddev_ms");
  }
  if (rc == 0) rc = merge_series(m, d, s);
  return rc;
}

static int merge_thread(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  int rc = merge_array(m, d, s, "targets", merge_thread_target);
  if (rc == 0) rc = merge_waits(m, get(d, "wait_statistics"),
                                get(s, "wait_statistics"));
  return rc;
}

/* ---- --verify ------------------------------------------------------------ */

static int merge_verify_target(iospd_merge_ctx_t* m, cJSON* d,
                               const cJSON* s) {
  static const char* const counts[] = {"blocks_written", "blocks_checked",
                                       "failures"};
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < 3; k++) rc = add_count(m, d, s, counts[k]);
  cJSON* dk = get(d, "by_kind");
  const cJSON* sk = get(s, "by_kind");
  for (const cJSON* c = sk ? sk->child : NULL; rc == 0 && c; c = c->next)
    rc = add_count(m, dk, sk, c->string);
  return rc;
}

/* Counts add up; the failures printed by each run are all kept, in run
 * order. A timespan verified in some runs only cannot be merged. */
static int merge_verify(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  cJSON* dv = get(d, "verify");
  const cJSON* sv = get(s, "verify");
  bool don = dv != NULL && !cJSON_IsNull(dv);
  bool son = sv != NULL && !cJSON_IsNull(sv);
  if (!don && !son) return 0;
  if (don != son)
    return mfail(m, "\"verify\": some runs used --verify and others did "
                 "not");
  size_t mark = iospd_json_path_key(&m->path, "verify");
  int rc = merge_array(m, dv, sv, "targets", merge_verify_target);
  /* One run that could not check makes the merged counts no pass. */
  if (rc == 0 && cJSON_IsFalse(get(sv, "complete")))
    rc = put(m, dv, "complete", cJSON_CreateFalse());
  cJSON* df = get(dv, "failures");
  const cJSON* sf = get(sv, "failures");
  for (const cJSON* f = sf ? sf->child : NULL; rc == 0 && f; f = f->next) {
    cJSON* copy = cJSON_Duplicate(f, true);
    if (copy == NULL || df == NULL || !cJSON_AddItemToArray(df, copy)) {
      cJSON_Delete(copy);
      rc = nomem(m);
    }
  }
  iospd_json_path_pop(&m->path, mark);
  return rc;
}

/* ---- timespans ---------------------------------------------------------- */

/* cpu: per-CPU usage belongs to one host; the merged document keeps no
 * per-CPU rows and a null average (each run's cpu is in merged_from). */
static int clear_cpu(iospd_merge_ctx_t* m, cJSON* ts) {
  cJSON* cpu = get(ts, "cpu");
  if (cpu == NULL || cJSON_IsNull(cpu)) return 0;
  int rc = put(m, cpu, "cpus", cJSON_CreateArray());
  cJSON* avg = get(cpu, "average");
  cJSON* next = NULL;
  for (cJSON* c = avg ? avg->child : NULL; rc == 0 && c; c = next) {
    next = c->next; /* set_null frees c */
    if (!cJSON_IsNull(c)) rc = set_null(m, avg, c->string);
  }
  return rc;
}

static int merge_timespan(iospd_merge_ctx_t* m, cJSON* d, const cJSON* s) {
  const cJSON* measured = get(s, "measured");
  if (!cJSON_IsBool(get(d, "measured")) || !cJSON_IsBool(measured) ||
      cJSON_IsTrue(get(d, "measured")) != cJSON_IsTrue(measured))
    return mfail(m, "\"measured\" differs from '%s''s (one run measured "
                 "this timespan, another did not)", m->first_file);
  const cJSON* err = get(s, "error");
  if (cJSON_IsString(err) && cJSON_IsNull(get(d, "error"))) {
    int rc = put(m, d, "error", cJSON_Duplicate(err, true));
    if (rc) return rc;
  }
  if (!cJSON_IsTrue(measured)) return 0;
  const cJSON* st = get(s, "test_time_seconds");
  cJSON* dt = get(d, "test_time_seconds");
  int rc = 0;
  if (cJSON_IsNumber(st) && cJSON_IsNumber(dt) &&
      st->valuedouble > dt->valuedouble)
    rc = put_num(m, d, "test_time_seconds", st->valuedouble);
  if (rc == 0) {
    size_t mark = iospd_json_path_key(&m->path, "total");
    rc = merge_directions(m, get(d, "total"), get(s, "total"));
    iospd_json_path_pop(&m->path, mark);
  }
  if (rc == 0) rc = merge_series(m, d, s);
  if (rc == 0) rc = merge_array(m, d, s, "targets", merge_target_total);
  if (rc == 0) rc = merge_array(m, d, s, "threads", merge_thread);
  if (rc == 0) rc = merge_verify(m, d, s);
  if (rc == 0) rc = clear_cpu(m, d);
  return rc;
}

int iospd_merge_timespans(iospd_merge_ctx_t* m, cJSON* dst, const cJSON* src) {
  return merge_array(m, dst, src, "timespans", merge_timespan);
}
