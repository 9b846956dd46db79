/* SPDX-License-Identifier: MIT */
/* Member access for iospd's JSON documents (iospd/json_read.h). */
#include "iospd/json_read.h"

#include <math.h>

const cJSON* iospd_json_get(const cJSON* o, const char* key) {
  return o != NULL ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

double iospd_json_num(const cJSON* o, const char* key) {
  const cJSON* v = iospd_json_get(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char* iospd_json_str(const cJSON* o, const char* key) {
  const cJSON* v = iospd_json_get(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}
