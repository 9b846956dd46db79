/* SPDX-License-Identifier: MIT */
/* The layout of a --tree (docs/tree.md, "Layout"): the directories split
 * from the --tree list, the generated sub-directories (--depth, --width),
 * the leaves the files go in, each file's leaf (--assign) and the hot and
 * cold classes (--skew). Pure arithmetic; no file is touched here. */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/rand.h"
#include "iospd/tree.h"

uint32_t iospd_tree_hot_files(uint32_t files, uint32_t hot, uint32_t cold) {
  uint64_t sum = (uint64_t)hot + cold;
  /* round half up of files * cold / (hot + cold) */
  uint64_t n = ((uint64_t)files * cold * 2 + sum) / (sum * 2);
  if (n < 1) n = 1;
  if (files > 1 && n > files - 1) n = files - 1;
  if (n > files) n = files;
  return (uint32_t)n;
}

int iospd_tree_assign(uint32_t files, uint32_t leaves, int assign,
                      uint64_t seed, uint32_t* home) {
  if (assign == IOSPD_ASSIGN_ORDERED) {
    for (uint32_t i = 0; i < files; i++)
      home[i] = (uint32_t)((uint64_t)i * leaves / files);
    return 0;
  }
  if (assign != IOSPD_ASSIGN_RANDOM) {
    for (uint32_t i = 0; i < files; i++) home[i] = i % leaves;
    return 0;
  }
  /* The shuffled order (Fisher-Yates: for i from N-1 down to 1, swap i
   * with next % (i + 1)); then the k-th file of that order goes to leaf
   * k mod M, as even places file k. */
  uint32_t* order = iospd_calloc(files, sizeof *order);
  if (order == NULL) return IOSPD_ENOMEM;
  iospd_rand_t r;
  iospd_rand_seed(&r, seed);
  for (uint32_t i = 0; i < files; i++) order[i] = i;
  for (uint32_t i = files; i-- > 1;) {
    uint32_t j = (uint32_t)(iospd_rand64(&r) % ((uint64_t)i + 1));
    uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (uint32_t k = 0; k < files; k++) home[order[k]] = k % leaves;
  iospd_free(order);
  return 0;
}

void iospd_tree_file_path(char* buf, size_t size, const char* leaf,
                          uint32_t file) {
  snprintf(buf, size, "%s/f%08u.dat", leaf, (unsigned)file);
}

static char* join(const char* a, const char* b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char* s = iospd_malloc(n);
  if (s != NULL) snprintf(s, n, "%s/%s", a, b);
  return s;
}

void iospd_tree_layout_free(iospd_tree_layout_t* l) {
  for (uint32_t i = 0; l->dirs != NULL && i < l->dir_count; i++)
    iospd_free(l->dirs[i]);
  for (uint32_t i = 0; l->nodes != NULL && i < l->node_count; i++)
    iospd_free(l->nodes[i]);
  iospd_free(l->dirs);
  iospd_free(l->nodes);
  iospd_free(l->leaves); /* borrowed strings */
  iospd_free(l->home);
  memset(l, 0, sizeof *l);
}

int iospd_tree_layout_init(iospd_tree_layout_t* l, const iospd_tree_opts_t* o,
                           uint64_t seed, iospd_err_t* err) {
  memset(l, 0, sizeof *l);
  if (o->dirs == NULL || o->files == 0 || o->width == 0)
    return iospd_err_set(err, IOSPD_EUSAGE, "--tree: nothing to lay out");
  uint32_t n = 1;
  for (const char* c = o->dirs; *c; c++) n += *c == ',';
  uint64_t per = 1; /* leaves per directory: width^depth */
  for (uint32_t i = 0; i < o->depth; i++) per *= o->width;
  uint64_t nodes_per = 0; /* width + width^2 + ... + width^depth */
  for (uint64_t lv = 1, w = 1; lv <= o->depth; lv++) {
    w *= o->width;
    nodes_per += w;
  }
  l->dir_count = n;
  l->dirs = iospd_calloc(n, sizeof *l->dirs);
  l->node_count = (uint32_t)(nodes_per * n);
  l->nodes = iospd_calloc(l->node_count ? l->node_count : 1, sizeof *l->nodes);
  l->leaf_count = (uint32_t)(per * n);
  l->leaves = iospd_calloc(l->leaf_count, sizeof *l->leaves);
  l->files = o->files;
  l->file_size = o->file_size;
  l->home = iospd_calloc(o->files, sizeof *l->home);
  if (l->dirs == NULL || l->nodes == NULL || l->leaves == NULL ||
      l->home == NULL)
    goto oom;
  const char* s = o->dirs;
  for (uint32_t i = 0; i < n; i++) {
    const char* e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    /* A trailing separator would make "DIR//d0"; drop it. */
    while (len > 1 && (s[len - 1] == '/' || s[len - 1] == '\\')) len--;
    l->dirs[i] = iospd_strndup(s, len);
    if (l->dirs[i] == NULL) goto oom;
    s = e ? e + 1 : s + len;
  }
  /* Sub-directories level by level (parents first): level lv of dir i has
   * width^lv nodes; node k of level lv is node k / width of level lv-1
   * plus "/d<k mod width>". */
  uint32_t at = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t prev_start = 0, prev_count = 0;
    for (uint32_t lv = 1; lv <= o->depth; lv++) {
      uint32_t count = prev_count ? prev_count * o->width : o->width;
      uint32_t start = at;
      for (uint32_t k = 0; k < count; k++) {
        char name[16];
        snprintf(name, sizeof name, "d%u", (unsigned)(k % o->width));
        const char* parent =
            lv == 1 ? l->dirs[i] : l->nodes[prev_start + k / o->width];
        l->nodes[at] = join(parent, name);
        if (l->nodes[at] == NULL) goto oom;
        at++;
      }
      prev_start = start;
      prev_count = count;
    }
    /* The leaves of dir i: its deepest level, in order. */
    for (uint32_t k = 0; k < per; k++)
      l->leaves[i * per + k] =
          o->depth == 0 ? l->dirs[i] : l->nodes[prev_start + k];
  }
  l->hot_files = iospd_tree_hot_files(o->files, o->skew_hot, o->skew_cold);
  if (iospd_tree_assign(o->files, l->leaf_count, (int)o->assign, seed,
                        l->home) != 0)
    goto oom;
  return 0;
oom:
  iospd_tree_layout_free(l);
  return iospd_err_set(err, IOSPD_ENOMEM, "out of memory laying out the tree");
}

static const char* const meta_names[IOSPD_TREE_META_COUNT] = {
    "create", "open", "close", "rename"};

const char* iospd_tree_meta_name(int kind) {
  return kind >= 0 && kind < IOSPD_TREE_META_COUNT ? meta_names[kind] : "";
}

void iospd_tree_results_free(iospd_tree_results_t* t) {
  for (int k = 0; k < IOSPD_TREE_META_COUNT; k++)
    iospd_hist_destroy(t->meta[k]);
  memset(t, 0, sizeof *t);
}
