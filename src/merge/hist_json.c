/* SPDX-License-Identifier: MIT */
/* The sparse "histogram" object (docs/results-json.md) read into and
 * written from iospd_hist_t through hist.h's import/export functions, so
 * a histogram that went through a file is bucket-for-bucket the one that was
 * measured, with the same exact count, sum and sum of squares. */
#include <stdio.h>
#include <string.h>

#include "iospd/hist.h"
#include "merge_internal.h"

#define HIST_LAYOUT "iospd-hist-v1"

static int why_set(char* why, size_t size, const char* fmt, const char* key) {
  snprintf(why, size, fmt, key);
  return -1;
}

static int u53_key(const cJSON* hj, const char* key, uint64_t* out, char* why,
                   size_t size) {
  if (!iospd_json_u53(cJSON_GetObjectItemCaseSensitive(hj, key), out))
    return why_set(why, size,
                   "histogram.%s is missing or not a whole number below 2^53",
                   key);
  return 0;
}

int iospd_hist_from_json(const cJSON* hj, iospd_hist_t* h, char* why,
                         size_t size) {
  iospd_hist_reset(h);
  if (!cJSON_IsObject(hj))
    return why_set(why, size, "%s is not an object", "histogram");
  const cJSON* layout = cJSON_GetObjectItemCaseSensitive(hj, "layout");
  if (!cJSON_IsString(layout) || strcmp(layout->valuestring, HIST_LAYOUT) != 0)
    return why_set(why, size,
                   "histogram.layout is not \"%s\" (a layout this iospd does "
                   "not know cannot be added bucket by bucket)",
                   HIST_LAYOUT);
  iospd_hist_exact_t e;
  memset(&e, 0, sizeof e);
  if (u53_key(hj, "count", &e.count, why, size) ||
      u53_key(hj, "min_ns", &e.min_ns, why, size) ||
      u53_key(hj, "max_ns", &e.max_ns, why, size))
    return -1;
  const cJSON* sum = cJSON_GetObjectItemCaseSensitive(hj, "sum_ns");
  const cJSON* sq = cJSON_GetObjectItemCaseSensitive(hj, "sum_sq_ns2");
  uint64_t sum_hi = 0;
  if (!cJSON_IsString(sum) ||
      iospd_u128_from_dec(sum->valuestring, &sum_hi, &e.sum_ns) != 0 ||
      sum_hi != 0)
    return why_set(why, size, "histogram.%s is not a decimal string below "
                   "2^64", "sum_ns");
  if (!cJSON_IsString(sq) ||
      iospd_u128_from_dec(sq->valuestring, &e.sumsq_hi, &e.sumsq_lo) != 0)
    return why_set(why, size, "histogram.%s is not a decimal string below "
                   "2^128", "sum_sq_ns2");
  const cJSON* buckets = cJSON_GetObjectItemCaseSensitive(hj, "buckets");
  if (!cJSON_IsArray(buckets))
    return why_set(why, size, "histogram.%s is not an array", "buckets");
  int i = 0;
  for (const cJSON* b = buckets->child; b != NULL; b = b->next, i++) {
    uint64_t lo = 0, n = 0;
    if (!cJSON_IsArray(b) || cJSON_GetArraySize(b) != 3 ||
        !iospd_json_u53(cJSON_GetArrayItem(b, 0), &lo) ||
        !iospd_json_u53(cJSON_GetArrayItem(b, 2), &n) || n == 0) {
      snprintf(why, size, "histogram.buckets[%d] is not [lo_ns, hi_ns, count]"
               " with a count above 0", i);
      return -1;
    }
    if (iospd_hist_add_bucket(h, lo, n) != 0) {
      snprintf(why, size, "histogram.buckets[%d]: %llu ns is not the lower "
               "bound of a bucket of layout %s", i, (unsigned long long)lo,
               HIST_LAYOUT);
      return -1;
    }
  }
  iospd_hist_set_exact(h, &e);
  if (iospd_hist_check(h) != 0)
    return why_set(why, size, "%s does not add up: the bucket counts differ "
                   "from count, or min_ns/max_ns lie outside the first/last "
                   "bucket", "histogram");
  return 0;
}

static bool add_u64(cJSON* obj, const char* key, uint64_t v) {
  return cJSON_AddNumberToObject(obj, key, (double)v) != NULL;
}

cJSON* iospd_hist_to_json(const iospd_hist_t* h) {
  iospd_hist_exact_t e;
  iospd_hist_get_exact(h, &e);
  char sum[IOSPD_U128_DEC_MAX], sq[IOSPD_U128_DEC_MAX];
  iospd_u128_to_dec(0, e.sum_ns, sum);
  iospd_u128_to_dec(e.sumsq_hi, e.sumsq_lo, sq);
  cJSON* o = cJSON_CreateObject();
  cJSON* arr = NULL;
  if (o == NULL || !cJSON_AddStringToObject(o, "layout", HIST_LAYOUT) ||
      !add_u64(o, "count", e.count) || !add_u64(o, "min_ns", e.min_ns) ||
      !add_u64(o, "max_ns", e.max_ns) ||
      !cJSON_AddStringToObject(o, "sum_ns", sum) ||
      !cJSON_AddStringToObject(o, "sum_sq_ns2", sq) ||
      (arr = cJSON_AddArrayToObject(o, "buckets")) == NULL)
    goto nomem;
  uint32_t pos = 0;
  iospd_hist_bucket_t b;
  while (iospd_hist_next_bucket(h, &pos, &b)) {
    cJSON* t = cJSON_CreateArray();
    if (t == NULL) goto nomem;
    cJSON_AddItemToArray(arr, t);
    cJSON* hi = b.open_end ? cJSON_CreateNull() : cJSON_CreateNumber((double)b.hi_ns);
    cJSON* lo = cJSON_CreateNumber((double)b.lo_ns);
    cJSON* n = cJSON_CreateNumber((double)b.count);
    if (lo) cJSON_AddItemToArray(t, lo);
    if (hi) cJSON_AddItemToArray(t, hi);
    if (n) cJSON_AddItemToArray(t, n);
    if (!lo || !hi || !n) goto nomem;
  }
  return o;
nomem:
  cJSON_Delete(o);
  return NULL;
}
