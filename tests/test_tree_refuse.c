/* SPDX-License-Identifier: MIT */
/* --tree's refusals (src/profile/profile_validate.c, docs/tree.md): every
 * switch that has no meaning for the file tree is refused with exit 3
 * (IOSPD_EUSAGE) and a message naming it, never accepted and ignored. A
 * table: each row sets one switch on an otherwise valid tree profile and
 * names the text the message must hold. -e and -Sr exist only on Windows
 * on the command line, so the profile is built here and the same test
 * runs natively and under wine (issue #26). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iospd/alloc.h"
#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

static void tree_profile(iospd_profile_t* p) {
  iospd_profile_init(p);
  iospd_tree_opts_init(&p->ext.tree);
  p->ext.tree.dirs = iospd_strdup("D");
  assert_non_null(p->ext.tree.dirs);
  iospd_timespan_t* ts = iospd_profile_add_timespan(p);
  assert_non_null(ts);
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_non_null(t);
  assert_int_equal(iospd_target_set_path(t, "D"), 0);
  t->block_size = 4096; /* the tree's default (-b4K), its file size */
}

static int validate(const iospd_profile_t* p, iospd_strbuf_t* diag) {
  iospd_strbuf_init(diag);
  return iospd_profile_validate(p, diag);
}

static void plain_tree_is_valid(void** state) {
  (void)state;
  iospd_profile_t p;
  tree_profile(&p);
  iospd_strbuf_t diag;
  int rc = validate(&p, &diag);
  if (rc != 0) print_message("%s\n", diag.data ? diag.data : "");
  assert_int_equal(rc, 0);
  iospd_strbuf_destroy(&diag);
  iospd_profile_destroy(&p);
}

typedef void (*set_fn)(iospd_profile_t* p, iospd_target_t* t);
static void set_etw(iospd_profile_t* p, iospd_target_t* t) {
  (void)t;
  p->etw.enabled = true;
  p->etw.disk_io = true;
}
static void set_sr(iospd_profile_t* p, iospd_target_t* t) {
  (void)p;
  t->cache_mode = IOSPD_CACHE_DISABLE_LOCAL;
}
static void set_l(iospd_profile_t* p, iospd_target_t* t) {
  (void)p;
  t->large_pages = true;
}
static void set_i(iospd_profile_t* p, iospd_target_t* t) {
  (void)p;
  t->io_priority = 1u;
}
static void set_fs(iospd_profile_t* p, iospd_target_t* t) {
  (void)p;
  t->sequential_scan = true;
}
static void set_fr(iospd_profile_t* p, iospd_target_t* t) {
  (void)p;
  t->random_access = true;
}
static void set_ft(iospd_profile_t* p, iospd_target_t* t) {
  (void)p;
  t->temporary = true;
}

static void each_refusal_names_its_switch(void** state) {
  (void)state;
  static const struct {
    set_fn set;
    const char* text;
  } rows[] = {
      {set_etw, "--tree: -e (no ETW session is started for the tree's "
                "calls) cannot be used in the file-tree mode"},
      {set_sr, "--tree: -Sr (the tree's opens do not disable remote local "
               "caching) cannot be used in the file-tree mode"},
      {set_l, "--tree: -l (a tree thread's buffer is one block)"},
      {set_i, "--tree: -I (the tree's calls set no I/O priority)"},
      {set_fs, "--tree: -fs, -fr and -ft"},
      {set_fr, "--tree: -fs, -fr and -ft"},
      {set_ft, "--tree: -fs, -fr and -ft"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    iospd_profile_t p;
    tree_profile(&p);
    rows[i].set(&p, &p.timespans[0].targets[0]);
    iospd_strbuf_t diag;
    int rc = validate(&p, &diag);
    print_message("row %u: %s", (unsigned)i, diag.data ? diag.data : "(none)\n");
    assert_int_equal(rc, IOSPD_EUSAGE);
    assert_non_null(diag.data);
    assert_non_null(strstr(diag.data, rows[i].text));
    /* That one message, nothing else refused. */
    assert_ptr_equal(strstr(diag.data, "iospd: error:"), diag.data);
    assert_null(strstr(diag.data + 1, "iospd: error:"));
    iospd_strbuf_destroy(&diag);
    iospd_profile_destroy(&p);
  }
}

/* The same settings without --tree are a valid DISKSPD profile: the
 * refusal is the tree's, not a general one. */
static void same_switches_without_tree_are_fine(void** state) {
  (void)state;
  iospd_profile_t p;
  tree_profile(&p);
  iospd_free(p.ext.tree.dirs);
  p.ext.tree.dirs = NULL;
  set_etw(&p, &p.timespans[0].targets[0]);
  set_sr(&p, &p.timespans[0].targets[0]);
  iospd_strbuf_t diag;
  int rc = validate(&p, &diag);
  if (rc != 0) print_message("%s\n", diag.data ? diag.data : "");
  assert_int_equal(rc, 0);
  iospd_strbuf_destroy(&diag);
  iospd_profile_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(plain_tree_is_valid),
      cmocka_unit_test(each_refusal_names_its_switch),
      cmocka_unit_test(same_switches_without_tree_are_fine),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
