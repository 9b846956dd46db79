/* SPDX-License-Identifier: MIT */
/* iospd --merge: reads each -Rjson document (cJSON), checks that it is
 * iospd results of the same profile as the first, folds the runs' results
 * into a copy of the first (merge_results.c) and lists every run in
 * "merged_from". A merged document is itself an input: its merged_from
 * entries are carried over, so merge(merge(a, b), c) == merge(a, b, c). */
#include "iospd/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/hist.h"
#include "iospd/results_doc.h"
#include "merge_internal.h"

static cJSON* get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static int parse_one(const iospd_merge_input_t* in, cJSON** out,
                     iospd_err_t* err) {
  return iospd_results_doc_parse(in->name, in->text, in->len, "--merge", out,
                                 err);
}

/* ---- merged_from -------------------------------------------------------- */

static bool add_dup(cJSON* to, const char* key, const cJSON* v) {
  cJSON* d = v ? cJSON_Duplicate(v, true) : cJSON_CreateNull();
  if (d == NULL) return false;
  if (key != NULL)
    cJSON_AddItemToObject(to, key, d);
  else
    cJSON_AddItemToArray(to, d);
  return true;
}

/* One run: where it came from and what only its host can say. */
static cJSON* run_entry(const cJSON* doc, const char* file) {
  cJSON* e = cJSON_CreateObject();
  if (e == NULL || !cJSON_AddStringToObject(e, "file", file)) goto nomem;
  cJSON* paths = cJSON_AddArrayToObject(e, "target_paths");
  if (paths == NULL) goto nomem;
  const cJSON* pts = get(get(doc, "profile"), "timespans");
  for (const cJSON* ts = pts ? pts->child : NULL; ts; ts = ts->next) {
    cJSON* list = cJSON_CreateArray();
    if (list == NULL) goto nomem;
    cJSON_AddItemToArray(paths, list);
    const cJSON* tg = get(ts, "targets");
    for (const cJSON* t = tg ? tg->child : NULL; t; t = t->next)
      if (!add_dup(list, NULL, get(t, "path"))) goto nomem;
  }
  cJSON* runs = cJSON_AddArrayToObject(e, "timespans");
  if (runs == NULL) goto nomem;
  const cJSON* rts = get(doc, "timespans");
  for (const cJSON* ts = rts ? rts->child : NULL; ts; ts = ts->next) {
    cJSON* r = cJSON_CreateObject();
    if (r == NULL) goto nomem;
    cJSON_AddItemToArray(runs, r);
    static const char* const keys[] = {"index", "error", "test_time_seconds",
                                       "cpu"};
    for (size_t k = 0; k < 4; k++)
      if (get(ts, keys[k]) && !add_dup(r, keys[k], get(ts, keys[k])))
        goto nomem;
  }
  if (!add_dup(e, "system", get(doc, "system")) ||
      !add_dup(e, "environment", get(doc, "environment")))
    goto nomem;
  return e;
nomem:
  cJSON_Delete(e);
  return NULL;
}

/* Appends doc's runs: its own merged_from if it is a merge, else itself. */
static int add_runs(cJSON* list, const cJSON* doc, const char* file,
                    iospd_err_t* err) {
  const cJSON* from = get(doc, "merged_from");
  if (cJSON_IsArray(from)) {
    for (const cJSON* e = from->child; e; e = e->next)
      if (!add_dup(list, NULL, e)) goto nomem;
    return 0;
  }
  cJSON* e = run_entry(doc, file);
  if (e == NULL) goto nomem;
  cJSON_AddItemToArray(list, e);
  return 0;
nomem:
  return iospd_err_set(err, IOSPD_ENOMEM, "out of memory merging '%s'", file);
}

/* ---- the merge ---------------------------------------------------------- */

static int check_profile(const cJSON* first, const char* first_name,
                         const cJSON* doc, const char* name,
                         iospd_err_t* err) {
  iospd_json_path_t path;
  memset(&path, 0, sizeof path);
  iospd_json_path_key(&path, "profile");
  const cJSON* a = get(first, "profile");
  const cJSON* b = get(doc, "profile");
  if (iospd_json_profile_equal(a, b, &path)) return 0;
  /* Walk the path again to show both values. */
  char va[160], vb[160];
  const cJSON* x = first;
  const cJSON* y = doc;
  const char* p = path.text;
  while (*p && (x || y)) {
    char key[128];
    size_t n = 0;
    if (*p == '[') {
      int i = atoi(p + 1);
      x = x ? cJSON_GetArrayItem(x, i) : NULL;
      y = y ? cJSON_GetArrayItem(y, i) : NULL;
      p = strchr(p, ']');
      p = p ? p + 1 : "";
    } else {
      if (*p == '.') p++;
      while (*p && *p != '.' && *p != '[' && n + 1 < sizeof key) key[n++] = *p++;
      key[n] = '\0';
      x = x ? get(x, key) : NULL;
      y = y ? get(y, key) : NULL;
    }
  }
  iospd_json_describe(va, sizeof va, x);
  iospd_json_describe(vb, sizeof vb, y);
  return iospd_err_set(err, IOSPD_EUSAGE,
                       "'%s' (--merge) is a run of another profile than '%s': "
                       "%s is %s in '%s' and %s in '%s'; only runs of the "
                       "same profile merge (target paths and the command "
                       "line may differ)",
                       name, first_name, path.text, vb, name, va, first_name);
}

int iospd_merge(const iospd_merge_input_t* in, size_t n, iospd_strbuf_t* out,
                iospd_err_t* err) {
  if (n == 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--merge needs the result files to merge: iospd "
                         "--merge a.json b.json ... > all.json");
  cJSON** docs = iospd_calloc(n, sizeof *docs);
  if (docs == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory (--merge)");
  cJSON* merged = NULL;
  iospd_merge_ctx_t m;
  memset(&m, 0, sizeof m);
  m.err = err;
  m.first_file = n > 0 ? in[0].name : "";
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) rc = parse_one(&in[i], &docs[i], err);
  for (size_t i = 1; rc == 0 && i < n; i++)
    rc = check_profile(docs[0], in[0].name, docs[i], in[i].name, err);
  if (rc) goto done;

  m.ha = iospd_hist_create();
  m.hb = iospd_hist_create();
  merged = cJSON_Duplicate(docs[0], true);
  cJSON* from = cJSON_CreateArray();
  if (m.ha == NULL || m.hb == NULL || merged == NULL || from == NULL) {
    cJSON_Delete(from);
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory (--merge)");
    goto done;
  }
  cJSON_DeleteItemFromObjectCaseSensitive(merged, "merged_from");
  /* --tree's file_tree section is one run's (its counts and metadata
   * histograms are not merged): a copy of the first would be printed as
   * if it were the merge's, so it is left out. The hot and cold classes
   * are the timespans' targets, which are merged. */
  cJSON_DeleteItemFromObjectCaseSensitive(merged, "file_tree");
  cJSON_AddItemToObject(merged, "merged_from", from);
  rc = add_runs(from, docs[0], in[0].name, err);
  for (size_t i = 1; rc == 0 && i < n; i++) {
    m.file = in[i].name;
    memset(&m.path, 0, sizeof m.path);
    rc = iospd_merge_timespans(&m, merged, docs[i]);
    if (rc == 0) rc = add_runs(from, docs[i], in[i].name, err);
  }
  if (rc == 0) {
    iospd_json_write_tree(out, merged, 0);
    iospd_strbuf_putc(out, '\n');
    if (out->failed)
      rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory (--merge)");
  }
done:
  cJSON_Delete(merged);
  for (size_t i = 0; i < n; i++) cJSON_Delete(docs[i]);
  iospd_free(docs);
  iospd_hist_destroy(m.ha);
  iospd_hist_destroy(m.hb);
  return rc;
}
