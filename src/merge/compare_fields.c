/* SPDX-License-Identifier: MIT */
/* The settings and environment fields that differ between compared runs.
 * Each document's profile, system and environment are flattened to leaf
 * paths ("profile.timespans[0].targets[0].block_size"); a path whose value
 * is not the same in every run (or is absent in some) is listed with each
 * run's value. Profile keys are split as --merge splits them
 * (iospd_json_profile_host_key): a setting the workload depends on, or a
 * host/presentation key (a target's path, -R, -v). Left out as noise that
 * always differs: system.run_time and environment.command_line (the
 * settings it holds are compared in the profile), and environment.targets[]
 * paths (the profile's paths are listed). The DISKSPD release a run
 * followed (system.tool.diskspd_version, --diskspd=) is a setting, not the
 * environment: DISKSPD 2.3 changed defaults (the affinity order, separated
 * buffers) and its notes say results need rebaselining, so runs at
 * different levels (2.2 and 2.3; a patch level or a document that does not
 * say is no difference) are flagged (levels_differ) and, like runs of
 * different profiles, compared only with --force. */
#include <string.h>

#include "compare_internal.h"
#include "iospd/alloc.h"
#include "merge_internal.h"

#define LEVEL_PATH "system.tool.diskspd_version"

typedef struct leaf_s {
  char* path;
  char value[160];
  iospd_cmp_field_kind_t kind;
} leaf_t;

typedef struct leaves_s {
  leaf_t* v;
  size_t n, cap;
  bool failed;
  bool level_setting; /* LEVEL_PATH is a setting (the levels differ) */
} leaves_t;

static char* dup_str(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = iospd_malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

static void add_leaf(leaves_t* l, const char* path, const cJSON* v,
                     iospd_cmp_field_kind_t kind) {
  if (l->failed) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 128;
    leaf_t* nv = iospd_realloc(l->v, cap * sizeof *nv);
    if (nv == NULL) {
      l->failed = true;
      return;
    }
    l->v = nv;
    l->cap = cap;
  }
  leaf_t* e = &l->v[l->n];
  e->path = dup_str(path);
  if (e->path == NULL) {
    l->failed = true;
    return;
  }
  iospd_json_describe(e->value, sizeof e->value, v);
  e->kind = kind;
  l->n++;
}

static bool skipped(const char* path) {
  static const char* const skip[] = {"system.run_time",
                                     "environment.command_line"};
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (strcmp(path, skip[i]) == 0) return true;
  return strncmp(path, "environment.targets[", 20) == 0 &&
         strstr(path, "].path") != NULL &&
         strcmp(strstr(path, "].path"), "].path") == 0;
}


static void flatten(leaves_t* l, const cJSON* v, iospd_json_path_t* path,
                    iospd_cmp_field_kind_t kind) {
  if (skipped(path->text)) return;
  if (l->level_setting && strcmp(path->text, LEVEL_PATH) == 0)
    kind = IOSPD_CMP_SETTING;
  bool empty = v->child == NULL;
  if (cJSON_IsObject(v) && !empty) {
    for (const cJSON* x = v->child; x != NULL; x = x->next) {
      iospd_cmp_field_kind_t k = kind;
      if (k == IOSPD_CMP_SETTING && iospd_json_profile_host_key(x->string))
        k = IOSPD_CMP_HOST_SETTING;
      size_t mark = iospd_json_path_key(path, x->string);
      flatten(l, x, path, k);
      iospd_json_path_pop(path, mark);
    }
  } else if (cJSON_IsArray(v) && !empty) {
    int i = 0;
    for (const cJSON* x = v->child; x != NULL; x = x->next, i++) {
      size_t mark = iospd_json_path_index(path, i);
      flatten(l, x, path, kind);
      iospd_json_path_pop(path, mark);
    }
  } else {
    add_leaf(l, path->text, v, kind);
  }
}

static void flatten_doc(leaves_t* l, const cJSON* doc) {
  static const struct {
    const char* key;
    iospd_cmp_field_kind_t kind;
  } parts[] = {{"profile", IOSPD_CMP_SETTING},
               {"system", IOSPD_CMP_ENVIRONMENT},
               {"environment", IOSPD_CMP_ENVIRONMENT}};
  for (size_t i = 0; i < 3; i++) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(doc, parts[i].key);
    if (v == NULL) continue;
    iospd_json_path_t path;
    memset(&path, 0, sizeof path);
    iospd_json_path_key(&path, parts[i].key);
    flatten(l, v, &path, parts[i].kind);
  }
}

static const leaf_t* find(const leaves_t* l, const char* path, size_t hint) {
  /* Runs usually have the same leaves in the same order: try the same
   * position first. */
  if (hint < l->n && strcmp(l->v[hint].path, path) == 0) return &l->v[hint];
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i].path, path) == 0) return &l->v[i];
  return NULL;
}

static void free_leaves(leaves_t* l) {
  for (size_t i = 0; i < l->n; i++) iospd_free(l->v[i].path);
  iospd_free(l->v);
}

/* Adds the field at `path` unless every run has the same value. */
static int consider(iospd_compare_t* c, const leaves_t* runs, size_t n,
                    const leaf_t* leaf, size_t hint, size_t* cap) {
  const leaf_t* first = find(&runs[0], leaf->path, hint);
  bool differ = false;
  for (size_t r = 0; r < n && !differ; r++) {
    const leaf_t* x = find(&runs[r], leaf->path, hint);
    differ = x == NULL || first == NULL || strcmp(x->value, first->value) != 0;
  }
  if (!differ) return 0;
  if (c->n_fields == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    iospd_cmp_field_t* nf = iospd_realloc(c->fields, nc * sizeof *nf);
    if (nf == NULL) return IOSPD_ENOMEM;
    c->fields = nf;
    *cap = nc;
  }
  iospd_cmp_field_t* f = &c->fields[c->n_fields];
  memset(f, 0, sizeof *f);
  c->n_fields++;
  f->kind = leaf->kind;
  f->path = dup_str(leaf->path);
  f->values = iospd_calloc(n, sizeof *f->values);
  if (f->path == NULL || f->values == NULL) return IOSPD_ENOMEM;
  for (size_t r = 0; r < n; r++) {
    const leaf_t* x = find(&runs[r], leaf->path, hint);
    f->values[r] = dup_str(x ? x->value : "absent");
    if (f->values[r] == NULL) return IOSPD_ENOMEM;
  }
  if (f->kind == IOSPD_CMP_SETTING) c->profiles_differ = true;
  return 0;
}

static bool seen_before(const leaves_t* runs, size_t r, const char* path,
                        size_t hint) {
  for (size_t q = 0; q < r; q++)
    if (find(&runs[q], path, hint) != NULL) return true;
  return false;
}

/* "2.3" of a diskspd_version "2.3.0" (the release, not its patch level);
 * false when the document does not say. */
static bool level_of(const cJSON* doc, char* out, size_t size) {
  const cJSON* v = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(
          cJSON_GetObjectItemCaseSensitive(doc, "system"), "tool"),
      "diskspd_version");
  if (!cJSON_IsString(v) || v->valuestring == NULL) return false;
  const char* s = v->valuestring;
  const char* dot = strchr(s, '.');
  const char* patch = dot != NULL ? strchr(dot + 1, '.') : NULL;
  size_t n = patch != NULL ? (size_t)(patch - s) : strlen(s);
  if (n == 0 || n >= size) return false;
  memcpy(out, s, n);
  out[n] = '\0';
  return true;
}

/* Two runs that both name their release and name different ones. */
static bool levels_differ(const cJSON* const* docs, size_t n) {
  char first[16], x[16];
  bool have = false;
  for (size_t r = 0; r < n; r++) {
    if (!level_of(docs[r], x, sizeof x)) continue;
    if (!have) {
      memcpy(first, x, sizeof x);
      have = true;
    } else if (strcmp(first, x) != 0) {
      return true;
    }
  }
  return false;
}

int iospd_cmp_fields(iospd_compare_t* c, const cJSON* const* docs, size_t n) {
  c->levels_differ = levels_differ(docs, n);
  leaves_t* runs = iospd_calloc(n, sizeof *runs);
  if (runs == NULL) return IOSPD_ENOMEM;
  int rc = 0;
  for (size_t r = 0; r < n && rc == 0; r++) {
    runs[r].level_setting = c->levels_differ;
    flatten_doc(&runs[r], docs[r]);
    if (runs[r].failed) rc = IOSPD_ENOMEM;
  }
  size_t cap = 0;
  /* Kinds in order (settings first), paths in document order: run 1's,
   * then paths only later runs have. */
  for (int kind = IOSPD_CMP_SETTING; kind <= IOSPD_CMP_ENVIRONMENT; kind++)
    for (size_t r = 0; r < n && rc == 0; r++)
      for (size_t i = 0; i < runs[r].n && rc == 0; i++) {
        const leaf_t* leaf = &runs[r].v[i];
        if ((int)leaf->kind != kind) continue;
        if (r > 0 && seen_before(runs, r, leaf->path, i)) continue;
        rc = consider(c, runs, n, leaf, i, &cap);
      }
  for (size_t r = 0; r < n; r++) free_leaves(&runs[r]);
  iospd_free(runs);
  return rc;
}
