/* SPDX-License-Identifier: MIT */
/* The platform's file-tree calls (include/iospd/platform.h, "the file-tree
 * mode"), natively and under wine: create-new never truncates, a rename
 * never replaces and leaves both files intact when it refuses, a file open
 * in another handle can be renamed (Windows: FILE_SHARE_DELETE) and the
 * handle keeps working, mkdir tells "made" from "was there", path_kind and
 * removal. Works in a directory of its own under the current one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "iospd/platform.h"

#define D "plat_tree_tmp"

static void rm_all(void) {
  (void)iospd_plat_remove_file(D "/a/x.dat", NULL);
  (void)iospd_plat_remove_file(D "/a/y.dat", NULL);
  (void)iospd_plat_remove_file(D "/b/x.dat", NULL);
  (void)iospd_plat_remove_dir(D "/a", NULL);
  (void)iospd_plat_remove_dir(D "/b", NULL);
  (void)iospd_plat_remove_dir(D, NULL);
}

static void make_file(const char* path, const char* text) {
  iospd_tree_fh_t fh;
  assert_int_equal(iospd_plat_tree_open(path,
                                        IOSPD_TREE_OPEN_WRITE |
                                            IOSPD_TREE_OPEN_CREATE,
                                        &fh, NULL),
                   0);
  assert_int_equal(iospd_plat_tree_write(fh, text, (uint32_t)strlen(text), 0),
                   (int64_t)strlen(text));
  assert_int_equal(iospd_plat_tree_close(fh), 0);
}

static void read_back(const char* path, const char* want) {
  iospd_tree_fh_t fh;
  char buf[64] = {0};
  assert_int_equal(iospd_plat_tree_open(path, 0, &fh, NULL), 0);
  assert_int_equal(iospd_plat_tree_read(fh, buf, sizeof buf - 1, 0),
                   (int64_t)strlen(want));
  assert_string_equal(buf, want);
  assert_int_equal(iospd_plat_tree_close(fh), 0);
}

static void tree_calls(void** state) {
  (void)state;
  iospd_err_t err;
  int kind;
  uint64_t size;
  rm_all();
  assert_int_equal(iospd_plat_mkdir(D, NULL), 0);
  assert_int_equal(iospd_plat_mkdir(D, NULL), IOSPD_EEXIST);
  assert_int_equal(iospd_plat_mkdir(D "/a", NULL), 0);
  assert_int_equal(iospd_plat_mkdir(D "/b", NULL), 0);
  assert_int_equal(iospd_plat_path_kind(D "/a", &kind, &size, NULL), 0);
  assert_int_equal(kind, IOSPD_PATH_DIR);
  assert_int_equal(iospd_plat_path_kind(D "/none", &kind, &size, NULL), 0);
  assert_int_equal(kind, IOSPD_PATH_NONE);

  make_file(D "/a/x.dat", "first");
  assert_int_equal(iospd_plat_path_kind(D "/a/x.dat", &kind, &size, NULL), 0);
  assert_int_equal(kind, IOSPD_PATH_FILE);
  assert_int_equal(size, 5);
  /* mkdir over a file: EEXIST, said to be no directory. */
  iospd_err_clear(&err);
  assert_int_equal(iospd_plat_mkdir(D "/a/x.dat", &err), IOSPD_EEXIST);
  assert_non_null(strstr(err.msg, "not a directory"));
  /* Create-new refuses an existing file and leaves it as it was. */
  iospd_tree_fh_t fh;
  assert_int_equal(iospd_plat_tree_open(D "/a/x.dat",
                                        IOSPD_TREE_OPEN_WRITE |
                                            IOSPD_TREE_OPEN_CREATE,
                                        &fh, NULL),
                   IOSPD_EEXIST);
  read_back(D "/a/x.dat", "first");

  /* A rename never replaces: both files stay as they were. */
  make_file(D "/a/y.dat", "second");
  iospd_err_clear(&err);
  assert_int_equal(
      iospd_plat_rename_noreplace(D "/a/y.dat", D "/a/x.dat", &err),
      IOSPD_EEXIST);
  read_back(D "/a/x.dat", "first");
  read_back(D "/a/y.dat", "second");

  /* A file open in another handle moves to another directory, and that
   * handle still reads and writes it. */
  iospd_tree_fh_t held;
  assert_int_equal(
      iospd_plat_tree_open(D "/a/x.dat", IOSPD_TREE_OPEN_WRITE, &held, NULL),
      0);
  iospd_err_clear(&err);
  assert_int_equal(
      iospd_plat_rename_noreplace(D "/a/x.dat", D "/b/x.dat", &err), 0);
  assert_int_equal(iospd_plat_path_kind(D "/a/x.dat", &kind, &size, NULL), 0);
  assert_int_equal(kind, IOSPD_PATH_NONE);
  assert_int_equal(iospd_plat_tree_write(held, "F", 1, 0), 1);
  char buf[8] = {0};
  assert_int_equal(iospd_plat_tree_read(held, buf, 5, 0), 5);
  assert_string_equal(buf, "First");
  assert_int_equal(iospd_plat_tree_close(held), 0);
  read_back(D "/b/x.dat", "First");
  /* Opening the old name now fails with "not found". */
  assert_int_equal(iospd_plat_tree_open(D "/a/x.dat", 0, &fh, NULL),
                   IOSPD_ENOENT);

  /* A directory that is not empty stays. */
  assert_true(iospd_plat_remove_dir(D "/b", NULL) < 0);
  assert_int_equal(iospd_plat_remove_file(D "/b/x.dat", NULL), 0);
  assert_int_equal(iospd_plat_remove_file(D "/a/y.dat", NULL), 0);
  assert_int_equal(iospd_plat_remove_file(D "/a/y.dat", NULL), IOSPD_ENOENT);
  assert_int_equal(iospd_plat_remove_dir(D "/a", NULL), 0);
  assert_int_equal(iospd_plat_remove_dir(D "/b", NULL), 0);
  assert_int_equal(iospd_plat_remove_dir(D, NULL), 0);
  assert_int_equal(iospd_plat_path_kind(D, &kind, &size, NULL), 0);
  assert_int_equal(kind, IOSPD_PATH_NONE);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(tree_calls)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
