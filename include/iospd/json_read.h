/* SPDX-License-Identifier: MIT */
/* Reading iospd's own JSON documents (results, curve, PTS) with cJSON: a
 * member by name, as a number or a string, or nothing when the object is
 * NULL, the member is absent or of another type. The readers of every
 * document (--report's pages, --compare, --pts-resume) use these. */
#ifndef IOSPD_JSON_READ_H
#define IOSPD_JSON_READ_H

#include "cJSON.h"

/* o's member key, or NULL (o NULL too). */
const cJSON* iospd_json_get(const cJSON* o, const char* key);
/* The member as a number, NAN when it is not one. */
double iospd_json_num(const cJSON* o, const char* key);
/* The member as a string (borrowed), NULL when it is not one. */
const char* iospd_json_str(const cJSON* o, const char* key);

#endif
