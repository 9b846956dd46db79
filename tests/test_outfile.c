/* SPDX-License-Identifier: MIT */
/* Report files through the platform (natively and under wine): the
 * writability probe creates, truncates and leaves nothing; a report is
 * written whole (no .tmp left, an older longer file fully replaced, CRLF on
 * Windows as on its stdout); iospd_plat_same_file sees other spellings. */
#include "test_util.h"

#include "iospd/error.h"
#include "iospd/platform.h"

#define P "outfile-test-"

static void put(const char* path, const char* text) {
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* The file's bytes, or NULL when it does not exist. */
static char* get(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  static char buf[256];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void test_probe_changes_nothing(void** state) {
  (void)state;
  iospd_err_t err;
  put(P "keep.json", "keep");
  iospd_err_clear(&err);
  assert_int_equal(iospd_plat_output_probe(P "keep.json", &err), 0);
  assert_string_equal(get(P "keep.json"), "keep"); /* not truncated */
  assert_null(get(P "keep.json.tmp"));               /* probe removed */

  remove(P "new.json");
  assert_int_equal(iospd_plat_output_probe(P "new.json", &err), 0);
  assert_null(get(P "new.json")); /* not created */
  assert_null(get(P "new.json.tmp"));

  /* A .tmp left by a run that died is not truncated by the probe. */
  put(P "stale.json.tmp", "old");
  assert_int_equal(iospd_plat_output_probe(P "stale.json", &err), 0);
  assert_string_equal(get(P "stale.json.tmp"), "old");
  assert_null(get(P "stale.json"));
  remove(P "stale.json.tmp");
  remove(P "keep.json");
}

static void test_probe_refuses(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_true(iospd_plat_output_probe(".", &err) < 0);
  assert_non_null(strstr(err.msg, "folder"));
  iospd_err_clear(&err);
  assert_true(iospd_plat_output_probe(P "no-such-dir/x.json", &err) < 0);
  assert_string_equal(err.msg, "its folder does not exist");
}

static void test_write_whole(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "r.txt", "an older, longer report that must go entirely\n");
  assert_int_equal(iospd_plat_write_file_whole(P "r.txt", "a\nb\n", 4, &err),
                   0);
#ifdef _WIN32
  assert_string_equal(get(P "r.txt"), "a\r\nb\r\n"); /* as stdout writes */
#else
  assert_string_equal(get(P "r.txt"), "a\nb\n");
#endif
  assert_null(get(P "r.txt.tmp"));
  remove(P "r.txt");
  /* A folder that is not there: an error, and nothing left behind. */
  assert_true(iospd_plat_write_file_whole(P "no-such-dir/r.txt", "x", 1,
                                          &err) < 0);
  assert_non_null(strstr(err.msg, "cannot be created"));
}

/* The HTML report's writer: the bytes as given, on Windows too. */
static void test_write_whole_bytes(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "r.html", "an older, longer report that must go entirely\n");
  assert_int_equal(
      iospd_plat_write_file_whole_bytes(P "r.html", "a\nb\n", 4, &err), 0);
  assert_string_equal(get(P "r.html"), "a\nb\n");
  assert_null(get(P "r.html.tmp"));
  remove(P "r.html");
  assert_true(iospd_plat_write_file_whole_bytes(P "no-such-dir/r.html", "x", 1,
                                                &err) < 0);
  assert_non_null(strstr(err.msg, "cannot be created"));
}

static void test_same_file(void** state) {
  (void)state;
  put(P "s.dat", "s");
  put(P "s2.dat", "s");
  remove(P "n1");
  remove(P "n2");
  assert_true(iospd_plat_same_file(P "s.dat", P "s.dat"));
  assert_true(iospd_plat_same_file(P "s.dat", "./" P "s.dat"));
  assert_false(iospd_plat_same_file(P "s.dat", P "s2.dat"));
  /* Neither exists yet: the same name in the same folder. */
  assert_true(iospd_plat_same_file(P "n1", "./" P "n1"));
  assert_false(iospd_plat_same_file(P "n1", P "n2"));
  assert_false(iospd_plat_same_file(P "s.dat", P "n1"));
#ifdef _WIN32
  assert_true(iospd_plat_same_file(P "s.dat", P "S.DAT"));
  assert_true(iospd_plat_same_file(P "s.dat", ".\\" P "s.dat"));
#endif
  remove(P "s.dat");
  remove(P "s2.dat");
}

int main(void) {
  iospd_sysinfo_t sys;
  iospd_err_t err;
  if (iospd_plat_init(&sys, &err) < 0) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_probe_changes_nothing),
      cmocka_unit_test(test_probe_refuses),
      cmocka_unit_test(test_write_whole),
      cmocka_unit_test(test_write_whole_bytes),
      cmocka_unit_test(test_same_file),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  iospd_plat_shutdown();
  return rc;
}
