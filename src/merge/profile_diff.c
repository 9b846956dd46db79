/* SPDX-License-Identifier: MIT */
/* Are two runs' profiles the same workload? Compared key by key as JSON,
 * except for what names the host's objects rather than the workload, and
 * what only says how the results were presented (docs/results-json.md):
 * a target's path (C:\t.dat on one machine, D:\t.dat on another), the -Z
 * source file's path and the -X profile's path; -P, -R, -v and -vs. Every
 * other key (durations, block sizes, threads, -o, flags, seeds...) must be
 * equal; the merged document lists every run's paths in merged_from. */
#include <string.h>

#include "merge_internal.h"

/* Keys skipped at any depth of the profile object. */
static const char* const k_host_keys[] = {
    "path",     "random_data_path", "xml_source",   "progress",
    "result_format", "verbose",     "verbose_stats"};

bool iospd_json_profile_host_key(const char* k) {
  for (size_t i = 0; i < sizeof k_host_keys / sizeof k_host_keys[0]; i++)
    if (k != NULL && strcmp(k, k_host_keys[i]) == 0) return true;
  return false;
}

static bool same(const cJSON* a, const cJSON* b, iospd_json_path_t* path);

static bool same_object(const cJSON* a, const cJSON* b,
                        iospd_json_path_t* path) {
  /* a's keys in order, then keys only b has. */
  for (const cJSON* x = a->child; x != NULL; x = x->next) {
    if (iospd_json_profile_host_key(x->string)) continue;
    size_t mark = iospd_json_path_key(path, x->string);
    if (!same(x, cJSON_GetObjectItemCaseSensitive(b, x->string), path))
      return false;
    iospd_json_path_pop(path, mark);
  }
  for (const cJSON* y = b->child; y != NULL; y = y->next) {
    if (iospd_json_profile_host_key(y->string)) continue;
    if (cJSON_GetObjectItemCaseSensitive(a, y->string) == NULL) {
      iospd_json_path_key(path, y->string);
      return false;
    }
  }
  return true;
}

static bool same(const cJSON* a, const cJSON* b, iospd_json_path_t* path) {
  if (a == NULL || b == NULL) return a == b;
  int ta = a->type & 0xff, tb = b->type & 0xff;
  if (ta != tb) return false;
  if (cJSON_IsNumber(a)) return a->valuedouble == b->valuedouble;
  if (cJSON_IsString(a)) return strcmp(a->valuestring, b->valuestring) == 0;
  if (cJSON_IsObject(a)) return same_object(a, b, path);
  if (cJSON_IsArray(a)) {
    const cJSON* x = a->child;
    const cJSON* y = b->child;
    for (int i = 0; x != NULL || y != NULL; i++) {
      size_t mark = iospd_json_path_index(path, i);
      if (!same(x, y, path)) return false;
      iospd_json_path_pop(path, mark);
      x = x ? x->next : NULL;
      y = y ? y->next : NULL;
    }
    return true;
  }
  return true; /* true, false, null: the type said it all */
}

bool iospd_json_profile_equal(const cJSON* a, const cJSON* b,
                              iospd_json_path_t* path) {
  return same(a, b, path);
}
