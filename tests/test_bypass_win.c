/* SPDX-License-Identifier: MIT */
/* BypassIO (-Sy / -SY) on Windows: the decision from what
 * FSCTL_MANAGE_BYPASS_IO answered (a table of answers, each with the state,
 * the note and, for -SY, the exact refusal), and the real call under wine,
 * whose file systems have no BypassIO: -Sy runs with nothing bypassed and
 * says why, -SY fails naming the target. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "win/internal.h"

#define COMPATIBLE 0x8u /* FSBPIO_OUTFL_COMPATIBLE_STORAGE_DRIVER */

typedef struct row_s {
  bool full;
  iospd_win_bypass_answer_t answer;
  int rc;
  iospd_bypass_state_t state;
  const char* note; /* exact, or a prefix when it ends with '*' */
  const char* msg;  /* err.msg when rc < 0 (prefix when it ends with '*') */
} row_t;

static void expect_text(const char* got, const char* want) {
  size_t n = strlen(want);
  if (n > 0 && want[n - 1] == '*') {
    if (strncmp(got, want, n - 1) != 0)
      fail_msg("'%s' does not start with '%.*s'", got, (int)(n - 1), want);
  } else {
    assert_string_equal(got, want);
  }
}

static void test_decision_table(void** state) {
  (void)state;
  static const row_t rows[] = {
      /* Fully bypassed: both run, nothing to say. */
      {true, {0, 0, COMPATIBLE, "", ""}, 0,
       IOSPD_BYPASS_STATE_FULL, "", NULL},
      {false, {0, 0, COMPATIBLE | 0x1u, NULL, NULL}, 0,
       IOSPD_BYPASS_STATE_FULL, "", NULL},
      /* The storage stack is not compatible: partial. */
      {false, {0, 0, 0, "stornvme.sys", "no BypassIO support"},
       0, IOSPD_BYPASS_STATE_PARTIAL,
       "the storage driver stack does not support BypassIO: stornvme.sys: no "
       "BypassIO support",
       NULL},
      {true, {0, 0, 0, "", ""}, IOSPD_ENOTSUP,
       IOSPD_BYPASS_STATE_PARTIAL,
       "the storage driver stack does not support BypassIO",
       "BypassIO (-SY) is only partial on 'C:\\t.dat': the file system is "
       "bypassed, but the storage driver stack does not support BypassIO; "
       "use -Sy to allow a partial bypass"},
      /* A driver vetoed it: nothing bypassed. */
      {false,
       {0, (LONG)0xC00000BBL, 0, "wof.sys", "compressed file"}, 0,
       IOSPD_BYPASS_STATE_NONE,
       "refused by wof.sys: compressed file (NTSTATUS 0xC00000BB)", NULL},
      {true, {0, (LONG)0xC00000BBL, 0, "", "sparse"},
       IOSPD_ENOTSUP, IOSPD_BYPASS_STATE_NONE,
       "refused by sparse (NTSTATUS 0xC00000BB)",
       "BypassIO (-SY) is not possible on 'C:\\t.dat': refused by sparse "
       "(NTSTATUS 0xC00000BB); use -Sy to run without a full bypass"},
      {true, {0, (LONG)0xC0000001L, 0, NULL, NULL},
       IOSPD_ENOTSUP, IOSPD_BYPASS_STATE_NONE,
       "refused by a driver (NTSTATUS 0xC0000001)", "BypassIO (-SY) is not*"},
      /* The call itself failed (Windows 10, FAT, a network share). */
      {false, {ERROR_INVALID_FUNCTION, 0, 0, NULL, NULL}, 0,
       IOSPD_BYPASS_STATE_NONE, "FSCTL_MANAGE_BYPASS_IO failed: *", NULL},
      {true, {ERROR_INVALID_FUNCTION, 0, COMPATIBLE, NULL, NULL},
       IOSPD_ENOTSUP, IOSPD_BYPASS_STATE_NONE,
       "FSCTL_MANAGE_BYPASS_IO failed: *",
       "BypassIO (-SY) cannot be enabled on 'C:\\t.dat': "
       "FSCTL_MANAGE_BYPASS_IO failed: *"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(rows); i++) {
    const row_t* r = &rows[i];
    iospd_bypass_result_t out;
    iospd_err_t err;
    iospd_err_clear(&err);
    print_message("row %u\n", (unsigned)i);
    int rc = iospd_win_bypass_decide(r->full, &r->answer, "C:\\t.dat", &out,
                                     &err);
    assert_int_equal(rc, r->rc);
    assert_int_equal(out.state, r->state);
    expect_text(out.note, r->note);
    if (r->msg != NULL) expect_text(err.msg, r->msg);
  }
  /* The -SY message for a failed call says what BypassIO needs. */
  iospd_win_bypass_answer_t a = {ERROR_INVALID_FUNCTION, 0, 0, NULL, NULL};
  iospd_bypass_result_t out;
  iospd_err_t err;
  assert_int_equal(
      iospd_win_bypass_decide(true, &a, "x.dat", &out, &err),
      IOSPD_ENOTSUP);
  assert_non_null(strstr(err.msg, "(error 1); BypassIO needs Windows 11 and "
                                  "a file on NTFS; use -Sy to run with what "
                                  "can be bypassed"));
}

/* Wine: the FSCTL fails on its files, so -Sy gets nothing bypassed with
 * the reason, and -SY fails naming the file. */
static void test_wine_file(void** state) {
  (void)state;
  WCHAR w[MAX_PATH];
  char dir[MAX_PATH * 3], path[MAX_PATH * 3];
  DWORD n = GetTempPathW(MAX_PATH, w);
  assert_true(n > 0 && n < MAX_PATH);
  assert_true(iospd_win_wide_to_utf8(w, dir, sizeof dir) > 0);
  snprintf(path, sizeof path, "%siospd_bypass.dat", dir);
  iospd_err_t err;
  iospd_sysinfo_t si;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  assert_int_equal(iospd_plat_file_create(path, 65536, true, &err), 0);
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_NO_BUFFERING |
                                   IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_bypass_result_t out;
  assert_int_equal(
      iospd_plat_file_bypass_io(f, false, &out, &err), 0);
  if (out.state == IOSPD_BYPASS_STATE_FULL) {
    print_message("this system bypasses fully: the wine checks do not "
                  "apply\n");
  } else {
    assert_int_equal(out.state, IOSPD_BYPASS_STATE_NONE);
    expect_text(out.note, "FSCTL_MANAGE_BYPASS_IO failed: *");
    assert_int_equal(
        iospd_plat_file_bypass_io(f, true, &out, &err),
        IOSPD_ENOTSUP);
    char want[MAX_PATH * 3 + 64];
    snprintf(want, sizeof want,
             "BypassIO (-SY) cannot be enabled on '%s': "
             "FSCTL_MANAGE_BYPASS_IO failed: ",
             path);
    assert_memory_equal(err.msg, want, strlen(want));
  }
  iospd_plat_file_close(f);
  WCHAR* wp = iospd_win_utf8_to_wide(path);
  DeleteFileW(wp);
  iospd_free(wp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decision_table),
      cmocka_unit_test(test_wine_file),
  };
  return cmocka_run_group_tests_name("bypass_win", tests, NULL, NULL);
}
