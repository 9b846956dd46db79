/* SPDX-License-Identifier: MIT */
/* The loader of saved result documents (include/iospd/results_doc.h): one
 * place that decides whether a file is whole iospd results this iospd can
 * read, so --merge, --compare and --report refuse bad files alike. */
#include "iospd/results_doc.h"

#include <stdio.h>
#include <string.h>

#include "cJSON.h"
#include "iospd/alloc.h"

static int bad(iospd_err_t* err, const char* file, const char* mode,
               const char* what) {
  return iospd_err_set(err, IOSPD_EUSAGE, "'%s' (%s): %s", file, mode, what);
}

/* Line and column (from 1) of byte `at` in text, for a parse error. */
static void where(const char* text, size_t at, unsigned* line, unsigned* col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < at; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

/* Does the text end inside an open object, array or string, with every
 * bracket before that balanced? That is what a file cut off mid-write
 * (a killed run, a full disk, a partial copy) looks like, as opposed to
 * text that is damaged or not JSON at all. */
static bool ends_open(const char* text, size_t len) {
  int depth = 0;
  bool in_string = false, escaped = false, opened = false;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      depth++;
      opened = true;
    } else if (c == '}' || c == ']') {
      if (--depth < 0) return false;
    }
  }
  return opened && (depth > 0 || in_string);
}

static int parse_text(const char* name, const char* text, size_t len,
                      const char* mode, cJSON** out, iospd_err_t* err) {
  char msg[300];
  size_t ws = 0;
  while (ws < len && strchr(" \t\r\n", text[ws]) != NULL) ws++;
  if (ws == len)
    return bad(err, name, mode, "the file is empty; expected the JSON that "
               "iospd -Rjson (or --output=json:FILE) wrote");
  if (memchr(text, '\0', len) != NULL)
    return bad(err, name, mode, "not JSON: the file holds a NUL byte (a "
               "binary file?); expected the JSON that iospd -Rjson wrote");
  /* cJSON checks for trailing text against a terminating NUL, which the
   * caller's bytes need not have. */
  char* copy = iospd_malloc(len + 1);
  if (copy == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory reading '%s' (%s)",
                         name, mode);
  memcpy(copy, text, len);
  copy[len] = '\0';
  const char* end = NULL;
  *out = cJSON_ParseWithLengthOpts(copy, len + 1, &end, true);
  size_t at = end != NULL && end >= copy && end <= copy + len
                  ? (size_t)(end - copy) : 0;
  iospd_free(copy);
  if (*out != NULL) return 0;
  if (ends_open(text, len)) {
    snprintf(msg, sizeof msg, "truncated: the JSON ends after byte %zu, "
             "before the document is complete (a run stopped while writing, "
             "or a partial copy?); expected the whole JSON that iospd -Rjson "
             "wrote", len);
    return bad(err, name, mode, msg);
  }
  unsigned line, col;
  where(text, at, &line, &col);
  snprintf(msg, sizeof msg, "not JSON: parsing stops near byte %zu (line %u, "
           "column %u); expected the JSON that iospd -Rjson wrote", at + 1,
           line, col);
  return bad(err, name, mode, msg);
}

static const cJSON* get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int check_doc(const char* name, const cJSON* doc, const char* mode,
                     iospd_err_t* err) {
  char msg[300];
  const cJSON* format = get(doc, "format");
  if (!cJSON_IsObject(doc) || !cJSON_IsString(format) ||
      strcmp(format->valuestring, IOSPD_RESULTS_FORMAT) != 0)
    return bad(err, name, mode, "JSON, but not iospd results: it has no "
               "\"format\": \"" IOSPD_RESULTS_FORMAT "\" (write results with "
               "-Rjson or --output=json:FILE)");
  const cJSON* version = get(doc, "format_version");
  double v = cJSON_IsNumber(version) ? version->valuedouble : -1.0;
  if (v > IOSPD_RESULTS_FORMAT_VERSION && v < 1e9 && v == (double)(long)v) {
    snprintf(msg, sizeof msg, "written by a newer iospd (format_version %ld); "
             "this iospd reads %d (use that iospd, or a newer one, to read "
             "it)", (long)v, IOSPD_RESULTS_FORMAT_VERSION);
    return bad(err, name, mode, msg);
  }
  if (v != IOSPD_RESULTS_FORMAT_VERSION) {
    char shown[64];
    if (cJSON_IsNumber(version))
      snprintf(shown, sizeof shown, "%.15g", v);
    else
      snprintf(shown, sizeof shown, "%s", version ? "not a number" : "absent");
    snprintf(msg, sizeof msg, "iospd results with format_version %s; this "
             "iospd reads format_version %d (a damaged or hand-edited file?)",
             shown, IOSPD_RESULTS_FORMAT_VERSION);
    return bad(err, name, mode, msg);
  }
  static const char* const objects[] = {"system", "environment", "profile"};
  for (size_t i = 0; i < 3; i++)
    if (!cJSON_IsObject(get(doc, objects[i]))) {
      snprintf(msg, sizeof msg, "iospd results without the \"%s\" object "
               "(a damaged or hand-edited file?)", objects[i]);
      return bad(err, name, mode, msg);
    }
  if (!cJSON_IsArray(get(doc, "timespans")))
    return bad(err, name, mode, "iospd results without the \"timespans\" "
               "array (a damaged or hand-edited file?)");
  return 0;
}

int iospd_results_doc_parse(const char* name, const char* text, size_t len,
                            const char* mode, cJSON** out, iospd_err_t* err) {
  *out = NULL;
  cJSON* doc = NULL;
  int rc = parse_text(name, text, len, mode, &doc, err);
  if (rc == 0) rc = check_doc(name, doc, mode, err);
  if (rc != 0) {
    cJSON_Delete(doc);
    return rc;
  }
  *out = doc;
  return 0;
}

int iospd_results_doc_add_timeseries(cJSON* doc, const char* name,
                                     const char* text, size_t len,
                                     const char* mode, iospd_err_t* err) {
  cJSON* rows = cJSON_CreateArray();
  char* line = iospd_malloc(len + 1);
  int rc = rows == NULL || line == NULL
               ? iospd_err_set(err, IOSPD_ENOMEM, "out of memory reading "
                               "'%s' (%s)", name, mode)
               : 0;
  unsigned lineno = 0;
  for (size_t at = 0; rc == 0 && at < len;) {
    const char* nl = memchr(text + at, '\n', len - at);
    size_t n = nl != NULL ? (size_t)(nl - (text + at)) : len - at;
    lineno++;
    memcpy(line, text + at, n);
    line[n] = '\0';
    at += n + 1;
    size_t ws = 0;
    while (ws < n && strchr(" \t\r", line[ws]) != NULL) ws++;
    if (ws == n) continue;
    cJSON* row = memchr(line, '\0', n) == NULL
                     ? cJSON_ParseWithLengthOpts(line, n + 1, NULL, true)
                     : NULL;
    if (row == NULL) {
      rc = iospd_err_set(err, IOSPD_EUSAGE, "'%s' (%s): line %u is not JSON "
                         "(a cut-off or damaged file?); expected the JSON "
                         "Lines that --timeseries=FILE.jsonl wrote",
                         name, mode, lineno);
    } else if (!cJSON_IsNumber(get(row, "timespan")) ||
               !cJSON_IsString(get(row, "phase"))) {
      rc = iospd_err_set(err, IOSPD_EUSAGE, "'%s' (%s): line %u is not a row "
                         "of an iospd time series (no \"timespan\" and "
                         "\"phase\"); expected the JSON Lines that "
                         "--timeseries=FILE.jsonl wrote", name, mode, lineno);
      cJSON_Delete(row);
    } else {
      cJSON_AddItemToArray(rows, row);
    }
  }
  iospd_free(line);
  if (rc != 0) {
    cJSON_Delete(rows);
    return rc;
  }
  cJSON_DeleteItemFromObjectCaseSensitive(doc, "timeseries");
  cJSON_AddItemToObject(doc, "timeseries", rows);
  return 0;
}

/* iospd/results_doc.h */
bool iospd_results_doc_format(const char* s, size_t len, char* word, size_t cap) {
  size_t i = 0;
#define WS() while (i < len && strchr(" \t\r\n", s[i]) != NULL && s[i]) i++
  WS();
  if (i >= len || s[i++] != '{') return false;
  WS();
  if (len - i < 8 || memcmp(s + i, "\"format\"", 8) != 0) return false;
  i += 8;
  WS();
  if (i >= len || s[i++] != ':') return false;
  WS();
  if (i >= len || s[i++] != '"') return false;
  size_t n = 0;
  while (i < len && s[i] != '"' && s[i] != '\\' && n + 1 < cap)
    word[n++] = s[i++];
  word[n] = '\0';
#undef WS
  return i < len && s[i] == '"';
}
