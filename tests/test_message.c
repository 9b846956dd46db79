/* SPDX-License-Identifier: MIT */
/* The message kinds (iospd/message.h): each kind's prefix, where it goes,
 * and the line the printer builds from (kind, text). */
#include "test_util.h"
#include "iospd/message.h"

static void test_table(void** state) {
  (void)state;
  static const struct {
    iospd_msg_kind_t k;
    const char* prefix;
    unsigned flags;
  } want[] = {
      {IOSPD_MSG_VERBOSE, "", IOSPD_MSG_STAMPED},
      {IOSPD_MSG_DISKSPD_WARNING, "WARNING: ", IOSPD_MSG_KEPT},
      {IOSPD_MSG_WARNING, "warning: ", IOSPD_MSG_KEPT},
      {IOSPD_MSG_NOTE, "NOTE: ", 0},
      {IOSPD_MSG_INFO, "iospd: ", 0},
      {IOSPD_MSG_PROGRESS, "", 0},
      {IOSPD_MSG_ERROR, "iospd: error: ", 0},
      {IOSPD_MSG_DETAIL, "note: ", 0},
      {IOSPD_MSG_HINT, "", 0},
  };
  assert_int_equal(sizeof want / sizeof want[0], IOSPD_MSG_KIND_COUNT);
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const iospd_msg_def_t* d = iospd_msg_def(want[i].k);
    assert_int_equal(d->kind, want[i].k);
    assert_string_equal(d->prefix, want[i].prefix);
    assert_int_equal(d->flags, want[i].flags);
  }
  /* Out of range: the NOTE row, never a read past the table. */
  assert_int_equal(iospd_msg_def(IOSPD_MSG_KIND_COUNT)->kind, IOSPD_MSG_NOTE);
  assert_int_equal(iospd_msg_def((iospd_msg_kind_t)-1)->kind, IOSPD_MSG_NOTE);
}

static void test_line(void** state) {
  (void)state;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_msg_line(&sb, IOSPD_MSG_DISKSPD_WARNING,
                 "file size 4096 is less than MaxFileSize 8192");
  iospd_msg_line(&sb, IOSPD_MSG_WARNING, "8 worker threads on 2 logical CPUs");
  iospd_msg_line(&sb, IOSPD_MSG_NOTE, "-c: removed 'x.tmp'");
  iospd_msg_line(&sb, IOSPD_MSG_INFO, "--cleanup: the tree was removed");
  iospd_msg_line(&sb, IOSPD_MSG_PROGRESS, "verify-only: 'a': 50%");
  iospd_msg_line(&sb, IOSPD_MSG_VERBOSE, "starting warm up...");
  iospd_msg_line(&sb, IOSPD_MSG_ERROR, "-b0: the block size must be > 0");
  iospd_msg_line(&sb, IOSPD_MSG_DETAIL, "t.dat: with -o1, -p is plain -s");
  iospd_msg_line(&sb, IOSPD_MSG_HINT, "Run 'iospd -?' for the switches.");
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "WARNING: file size 4096 is less than MaxFileSize 8192\n"
                      "warning: 8 worker threads on 2 logical CPUs\n"
                      "NOTE: -c: removed 'x.tmp'\n"
                      "iospd: --cleanup: the tree was removed\n"
                      "verify-only: 'a': 50%\n"
                      "starting warm up...\n"
                      "iospd: error: -b0: the block size must be > 0\n"
                      "note: t.dat: with -o1, -p is plain -s\n"
                      "Run 'iospd -?' for the switches.\n");
  iospd_strbuf_destroy(&sb);
}

/* The formatted form: the prefix, the text with its control characters
 * as '?' (a path with a newline stays one line), the newline. */
static void test_linef(void** state) {
  (void)state;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_msg_linef(&sb, IOSPD_MSG_ERROR, "target '%s' has -b%u", "a\nb\tc",
                  512u);
  iospd_msg_linef(&sb, IOSPD_MSG_WARNING, "%d threads", 8);
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "iospd: error: target 'a?b?c' has -b512\n"
                      "warning: 8 threads\n");
  iospd_strbuf_destroy(&sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_line),
      cmocka_unit_test(test_linef),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
