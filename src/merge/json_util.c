/* SPDX-License-Identifier: MIT */
/* JSON paths and value descriptions for --merge's messages. */
#include <stdio.h>
#include <string.h>

#include "merge_internal.h"

static size_t path_addf(iospd_json_path_t* p, const char* text, bool dot) {
  size_t old = p->len;
  int n = snprintf(p->text + p->len, sizeof p->text - p->len, "%s%s",
                   dot && p->len > 0 ? "." : "", text);
  if (n > 0) p->len += (size_t)n;
  if (p->len >= sizeof p->text) p->len = sizeof p->text - 1; /* truncated */
  return old;
}

size_t iospd_json_path_key(iospd_json_path_t* p, const char* key) {
  return path_addf(p, key, true);
}

size_t iospd_json_path_index(iospd_json_path_t* p, int i) {
  char buf[24];
  snprintf(buf, sizeof buf, "[%d]", i);
  return path_addf(p, buf, false);
}

void iospd_json_path_pop(iospd_json_path_t* p, size_t len) {
  p->len = len;
  p->text[len] = '\0';
}

void iospd_json_describe(char* buf, size_t size, const cJSON* v) {
  if (v == NULL) {
    snprintf(buf, size, "absent");
  } else if (cJSON_IsString(v)) {
    snprintf(buf, size, "\"%.100s\"%s", v->valuestring,
             strlen(v->valuestring) > 100 ? "..." : "");
  } else if (cJSON_IsNumber(v)) {
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_json_write_tree(&sb, v, 0);
    snprintf(buf, size, "%s", iospd_strbuf_cstr(&sb));
    iospd_strbuf_destroy(&sb);
  } else if (cJSON_IsBool(v)) {
    snprintf(buf, size, "%s", cJSON_IsTrue(v) ? "true" : "false");
  } else if (cJSON_IsNull(v)) {
    snprintf(buf, size, "null");
  } else if (cJSON_IsArray(v)) {
    snprintf(buf, size, "an array of %d", cJSON_GetArraySize(v));
  } else {
    snprintf(buf, size, "an object");
  }
}

bool iospd_json_u53(const cJSON* v, uint64_t* out) {
  if (!cJSON_IsNumber(v)) return false;
  double d = v->valuedouble;
  if (!(d >= 0 && d < IOSPD_JSON_U53_LIMIT) || d != (double)(uint64_t)d)
    return false;
  *out = (uint64_t)d;
  return true;
}
