/* SPDX-License-Identifier: MIT */
/* The -c stale-copy sweep on a folder several hosts share (issue #26),
 * under wine: copies are named "<name>.iospd-creating-<host>-<pid>", and
 * the sweep removes only this host's copies of processes that are gone;
 * another host's copy (its pid means nothing here) stays, as does a live
 * process's. Before the host tag, a copy of another host's running -c
 * whose pid names no process here was removed. */
#include "test_util.h"

#include <ctype.h>
#include <wchar.h>

#include "iospd/message.h"
#include "iospd/alloc.h"
#include "win/internal.h"

static char tmpdir[MAX_PATH * 3];

static int setup(void** state) {
  (void)state;
  WCHAR w[MAX_PATH];
  DWORD n = GetTempPathW(MAX_PATH, w);
  assert_true(n > 0 && n < MAX_PATH);
  assert_true(iospd_win_wide_to_utf8(w, tmpdir, sizeof tmpdir) > 0);
  iospd_sysinfo_t si;
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  return 0;
}

static void make(const char* path, DWORD size) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
  iospd_free(w);
  assert_true(h != INVALID_HANDLE_VALUE);
  static char zeros[4096];
  DWORD wrote = 0;
  assert_true(WriteFile(h, zeros, size, &wrote, NULL));
  CloseHandle(h);
}

static bool exists(const char* path) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DWORD a = GetFileAttributesW(w);
  iospd_free(w);
  return a != INVALID_FILE_ATTRIBUTES;
}

static void drop(const char* path) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

static char said[2048];
static void note(void* ctx, iospd_msg_kind_t kind, const char* line) {
  (void)ctx;
  (void)kind;
  size_t n = strlen(said);
  snprintf(said + n, sizeof said - n, "%s\n", line);
}
static void nothing(void* ctx, uint64_t done, uint64_t total) {
  (void)ctx;
  (void)done;
  (void)total;
}

static void test_other_hosts_copy_survives(void** state) {
  (void)state;
  WCHAR hw[MAX_COMPUTERNAME_LENGTH + 1];
  DWORD hn = MAX_COMPUTERNAME_LENGTH + 1;
  assert_true(GetComputerNameW(hw, &hn));
  char host[64];
  assert_true(iospd_win_wide_to_utf8(hw, host, sizeof host) > 0);
  /* Wine's name is the Unix host name's first part, letters and digits
   * (and '-'), so the tag is the name itself. */
  for (const char* c = host; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
      fail_msg("host name '%s' would be rewritten; pick another test", host);

  char path[MAX_PATH * 3], other[MAX_PATH * 4], mine[MAX_PATH * 4];
  snprintf(path, sizeof path, "%siospd_sweep.dat", tmpdir);
  make(path, 4096);
  /* 4294967292: a multiple of 4 no process here has. */
  snprintf(other, sizeof other, "%s.iospd-creating-%s-4294967292", path,
           strcmp(host, "OTHERHOST") == 0 ? "ELSEWHERE" : "OTHERHOST");
  snprintf(mine, sizeof mine, "%s.iospd-creating-%s-4294967292", path, host);
  make(other, 4096);
  make(mine, 4096);
  said[0] = 0;
  iospd_progress_t pr = {.fn = nothing, .ctx = NULL, .warn = note};
  iospd_win_create_report_t rep;
  iospd_err_t err;
  assert_int_equal(iospd_win_create(path, 65536, false,
                                    IOSPD_WIN_CREATE_WRITE_ALL, &pr, &rep,
                                    &err),
                   0);
  assert_true(exists(other));
  assert_false(exists(mine));
  if (strstr(said, "left by an interrupted -c of process 4294967292") == NULL)
    fail_msg("said: %s", said);
  char* tail = strrchr(mine, '\\');
  assert_non_null(strstr(said, tail + 1));
  drop(other);
  drop(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_other_hosts_copy_survives),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
