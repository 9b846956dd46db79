/* SPDX-License-Identifier: MIT */
/* Console output on Windows (issue 11): the console's code page is left as
 * the shell set it (a code page a process sets outlives the process), and
 * UTF-8 text reaches the console as the right characters even when a
 * character is split across two writes. Under wine on a terminal (ctest
 * runs it under script(1)); skipped, saying why, where there is none. */
#include "test_util.h"

#include <wchar.h>

#include "iospd/console.h"
#include "win/internal.h"

static HANDLE conout;

static HANDLE open_conout(void) {
  HANDLE h = CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE,
                         FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                         OPEN_EXISTING, 0, NULL);
  DWORD mode;
  if (h != INVALID_HANDLE_VALUE && !GetConsoleMode(h, &mode)) {
    CloseHandle(h);
    h = INVALID_HANDLE_VALUE;
  }
  return h;
}

static int setup(void** state) {
  (void)state;
  conout = open_conout();
  if (conout == INVALID_HANDLE_VALUE && AllocConsole()) conout = open_conout();
  if (conout == INVALID_HANDLE_VALUE) {
    /* wine gives a console only to a process on a terminal (ctest runs
     * this one under script(1) when it can). */
    print_message("no console here (not on a terminal); skipped\n");
    exit(IOSPD_TEST_SKIP);
  }
  SetStdHandle(STD_OUTPUT_HANDLE, conout);
  SetStdHandle(STD_ERROR_HANDLE, conout);
  return 0;
}

/* The characters from at on (where the cursor was before writing). */
static void row_from(COORD at, WCHAR* out, DWORD n) {
  DWORD got = 0;
  assert_true(ReadConsoleOutputCharacterW(conout, out, n - 1, at, &got));
  out[got] = 0;
}

static COORD cursor(void) {
  CONSOLE_SCREEN_BUFFER_INFO bi;
  assert_true(GetConsoleScreenBufferInfo(conout, &bi));
  return bi.dwCursorPosition;
}

static void test_code_page_kept(void** state) {
  (void)state;
  if (!SetConsoleOutputCP(437)) {
    print_message("this console takes no code page (error %lu); skipped\n",
                  (unsigned long)GetLastError());
    skip();
  }
  assert_int_equal(GetConsoleOutputCP(), 437);
  iospd_plat_console_init();
  assert_int_equal(GetConsoleOutputCP(), 437);
}

static void test_utf8_to_console(void** state) {
  (void)state;
  iospd_plat_console_init();
  iospd_plat_write_out("\n", 1);
  COORD start = cursor();
  /* "t\u00e9st \u65e5 \U0001F600" with every multi-byte character split
   * between two writes, then the rest. */
  const char* s = "t\xc3\xa9st \xe6\x97\xa5 \xf0\x9f\x98\x80 ok\n";
  size_t cuts[] = {2, 8, 13};
  size_t at = 0;
  for (size_t i = 0; i < 3; i++) {
    iospd_plat_write_out(s + at, cuts[i] - at);
    at = cuts[i];
  }
  iospd_plat_write_out(s + at, strlen(s) - at);
  WCHAR row[32];
  row_from(start, row, 32);
  const WCHAR* want = L"t\u00e9st \u65e5 \U0001F600 ok";
  if (wcsncmp(row, want, wcslen(want)) != 0)
    fail_msg("console shows '%ls', want '%ls'", row, want);
}

/* The live status line (--progress, issue #13) in a console: stderr is a
 * terminal of the window's width; the line is drawn in place, a shorter
 * one leaves nothing of the longer behind, and it is erased (cursor back
 * at column 0) before anything else is written. */
static void test_status_line(void** state) {
  (void)state;
  iospd_plat_console_init();
  assert_true(iospd_plat_err_is_terminal());
  CONSOLE_SCREEN_BUFFER_INFO bi;
  assert_true(GetConsoleScreenBufferInfo(conout, &bi));
  uint32_t cols = iospd_plat_err_columns();
  assert_int_equal(cols, (uint32_t)(bi.srWindow.Right - bi.srWindow.Left + 1));
  assert_true(cols > 20);

  /* Processed output off: \r and \b would be glyphs, so not a terminal. */
  DWORD mode = 0;
  assert_true(GetConsoleMode(conout, &mode));
  if (SetConsoleMode(conout, mode & ~(DWORD)ENABLE_PROCESSED_OUTPUT)) {
    assert_false(iospd_plat_err_is_terminal());
    assert_true(SetConsoleMode(conout, mode));
    assert_true(iospd_plat_err_is_terminal());
  } else {
    print_message("this console keeps its mode (error %lu); that check "
                  "skipped\n", (unsigned long)GetLastError());
  }

  iospd_plat_write_err("\n", 1);
  COORD start = cursor();
  WCHAR row[64];
  const char* longer = "1/1 measuring | 0:09 left";
  iospd_plat_status_show(longer, strlen(longer));
  row_from(start, row, 32);
  if (wcsncmp(row, L"1/1 measuring | 0:09 left", 25) != 0)
    fail_msg("console shows '%ls'", row);
  assert_int_equal(cursor().X, 25); /* at the end of the text */
  iospd_plat_status_show("1/1 cool-down", 13);
  row_from(start, row, 30);
  if (wcsncmp(row, L"1/1 cool-down            ", 25) != 0)
    fail_msg("after a shorter line the console shows '%ls'", row);
  assert_int_equal(cursor().X, 13);
  assert_int_equal(cursor().Y, start.Y); /* never a new row */
  /* Any other write erases it first and starts at column 0. */
  iospd_plat_write_err("report\n", 7);
  row_from(start, row, 30);
  if (wcsncmp(row, L"report                   ", 25) != 0)
    fail_msg("after the erase the console shows '%ls'", row);
  assert_int_equal(cursor().Y, start.Y + 1);
  /* Nothing is erased twice: no status line, no stray bytes. */
  COORD before = cursor();
  iospd_plat_status_clear();
  assert_int_equal(cursor().X, before.X);
  assert_int_equal(cursor().Y, before.Y);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_code_page_kept),
      cmocka_unit_test(test_utf8_to_console),
      cmocka_unit_test(test_status_line),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
