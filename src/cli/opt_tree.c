/* SPDX-License-Identifier: MIT */
/* Handlers of --tree=DIR[,DIR...] and its companions (--files, --skew,
 * --assign...; docs/tree.md): each stores one field of the profile's
 * file-tree options and notes the first companion, which the parse refuses
 * without --tree. */
#include <inttypes.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/units.h"
#include "opt_handlers.h"

/* --tree=DIR[,DIR...] and its companions (docs/tree.md). */
static int tree_uint(ctx_t* c, const iospd_opt_def_t* o, uint32_t* out) {
  if (c->val[0] != '=' || c->val[1] == '\0')
    return fail(c, "'%s' needs a value: --%s=N, the %s, a whole number from "
                   "%" PRIu64 " to %" PRIu64, c->arg, o->name, o->what,
                o->min, o->max);
  uint64_t v = 0;
  int rc = get_uint(c, c->val + 1, o->min, o->max, o->what, &v);
  if (rc) return rc;
  *out = (uint32_t)v;
  return 0;
}

/* The first companion on the line, for the refusal without --tree. */
static void note_companion(ctx_t* c) {
  if (c->tree_companion == NULL) c->tree_companion = c->arg;
}

int sw_tree_dirs(ctx_t* c) {
  iospd_tree_opts_t* t = &c->pp.ext.tree;
  const char* v = c->val;
  if (v[0] != '=' || v[1] == '\0')
    return fail(c, "'%s': name the directories: --tree=DIR[,DIR...]",
                c->arg);
  v++;
  if (v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,") != NULL)
    return fail(c, "'%s': an empty directory name in the list; separate "
                   "the directories with single commas", c->arg);
  char* d = iospd_strdup(v);
  if (d == NULL) return nomem(c);
  iospd_free(t->dirs);
  t->dirs = d;
  return 0;
}

int sw_tree_files(ctx_t* c) {
  note_companion(c);
  return tree_uint(c, c->opt, &c->pp.ext.tree.files);
}

int sw_tree_depth(ctx_t* c) {
  note_companion(c);
  return tree_uint(c, c->opt, &c->pp.ext.tree.depth);
}

int sw_tree_width(ctx_t* c) {
  note_companion(c);
  return tree_uint(c, c->opt, &c->pp.ext.tree.width);
}

/* --append and --cleanup take no value (the parse loop refuses one). */
int sw_tree_append(ctx_t* c) {
  note_companion(c);
  c->pp.ext.tree.append = true;
  return 0;
}

int sw_tree_cleanup(ctx_t* c) {
  note_companion(c);
  c->pp.ext.tree.cleanup = true;
  return 0;
}

int sw_tree_relocate(ctx_t* c) {
  note_companion(c);
  iospd_tree_opts_t* t = &c->pp.ext.tree;
  if (c->val[0] == '\0') {
    t->relocate_rate = IOSPD_TREE_DEFAULT_RELOCATE;
    return 0;
  }
  return tree_uint(c, c->opt, &t->relocate_rate);
}

int sw_tree_file_size(ctx_t* c) {
  note_companion(c);
  const iospd_opt_def_t* o = c->opt;
  const char* v = c->val;
  if (v[0] != '=' || v[1] == '\0')
    return fail(c, "'%s' needs a value: --file-size=SIZE (" SIZE_HINT ")",
                c->arg);
  return get_size(c, v + 1, o->min, o->max, o->what,
                  &c->pp.ext.tree.file_size);
}

int sw_tree_assign(ctx_t* c) {
  note_companion(c);
  const char* v = c->val;
  int a = v[0] == '=' ? iospd_tree_assign_parse(v + 1) : -1;
  if (a < 0)
    return fail(c, "'%s': use --assign=even, ordered or random", c->arg);
  c->pp.ext.tree.assign = (iospd_tree_assign_t)a;
  return 0;
}

/* --skew=HOT:COLD */
int sw_tree_skew(ctx_t* c) {
  note_companion(c);
  iospd_tree_opts_t* t = &c->pp.ext.tree;
  const char* v = c->val;
  const char* colon = v[0] == '=' ? strchr(v, ':') : NULL;
  uint64_t hot = 0, cold = 0;
  char hot_text[32];
  if (colon != NULL && (size_t)(colon - v - 1) < sizeof hot_text) {
    memcpy(hot_text, v + 1, (size_t)(colon - v - 1));
    hot_text[colon - v - 1] = '\0';
  } else {
    hot_text[0] = '\0';
  }
  if (colon == NULL || iospd_parse_uint(hot_text, 1000000, &hot) != 0 ||
      iospd_parse_uint(colon + 1, 1000000, &cold) != 0 || hot == 0 ||
      cold == 0)
    return fail(c, "'%s': use --skew=HOT:COLD with two whole numbers from 1 "
                   "to 1000000, e.g. --skew=7:1", c->arg);
  t->skew_hot = (uint32_t)hot;
  t->skew_cold = (uint32_t)cold;
  return 0;
}
