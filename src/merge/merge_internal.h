/* SPDX-License-Identifier: MIT */
/* Pieces of the --merge mode shared inside src/merge. cJSON is the reader
 * (Debian's libcjson, or cJSON.c compiled in for mingw); writing is ours so
 * that every build prints the same bytes. */
#ifndef IOSPD_MERGE_INTERNAL_H
#define IOSPD_MERGE_INTERNAL_H

#include "cJSON.h"
#include "iospd/strbuf.h"

/* Appends v as JSON, pretty-printed with two-space indents (arrays of
 * numbers on one line), keys in the tree's order; strings and numbers as
 * iospd/json_write.h writes them. */
void iospd_json_write_tree(iospd_strbuf_t* sb, const cJSON* v, int indent);

/* A JSON path for messages: "profile.timespans[0].targets[1].block_size". */
typedef struct iospd_json_path_s {
  char text[400];
  size_t len;
} iospd_json_path_t;

/* Appends ".key" (or "key" at the start) / "[i]"; returns the old length
 * for iospd_json_path_pop. */
size_t iospd_json_path_key(iospd_json_path_t* p, const char* key);
size_t iospd_json_path_index(iospd_json_path_t* p, int i);
void iospd_json_path_pop(iospd_json_path_t* p, size_t len);

/* A value as short text for a message: numbers and strings as written,
 * objects and arrays as "an object"/"an array of N", missing as "absent". */
void iospd_json_describe(char* buf, size_t size, const cJSON* v);

/* Compares two profile objects key by key, skipping keys the workload does
 * not depend on (see profile_diff.c). Returns true when equal; else fills
 * path with the first difference. */
bool iospd_json_profile_equal(const cJSON* a, const cJSON* b,
                              iospd_json_path_t* path);

/* Is key one of the profile keys that name the host's objects or only say
 * how results were presented (a target's path, -X/-Z paths, -P, -R, -v,
 * -vs), skipped by iospd_json_profile_equal at any depth? */
bool iospd_json_profile_host_key(const char* key);

/* Reads a JSON integer that a double holds exactly (0 .. 2^53 - 1). */
bool iospd_json_u53(const cJSON* v, uint64_t* out);
#define IOSPD_JSON_U53_LIMIT 9007199254740992.0 /* 2^53 */

#include "iospd/error.h"

typedef struct iospd_hist_s iospd_hist_t;
/* The "histogram" object of docs/results-json.md -> h (reset first).
 * Returns 0, or -1 with why (which key, what is wrong) filled. */
int iospd_hist_from_json(const cJSON* hj, iospd_hist_t* h, char* why,
                         size_t why_size);
/* h -> a new "histogram" object (NULL on ENOMEM). */
cJSON* iospd_hist_to_json(const iospd_hist_t* h);

/* One merge step: the run being added (file) and where in it we are. */
typedef struct iospd_merge_ctx_s {
  const char* file;
  /* The first run's file: what the merge holds so far came from it (later
   * runs' values are checked before they are added), so a bad value on
   * the merged side is that file's. */
  const char* first_file;
  iospd_json_path_t path;
  iospd_err_t* err;
  iospd_hist_t* ha; /* scratch histograms (162 KB each) */
  iospd_hist_t* hb;
} iospd_merge_ctx_t;

/* dst.timespans += src.timespans (merge_results.c has the rules). */
int iospd_merge_timespans(iospd_merge_ctx_t* m, cJSON* dst, const cJSON* src);

#endif
