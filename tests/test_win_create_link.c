/* SPDX-License-Identifier: MIT */
/* -c over a symbolic link (src/win/create_link.c, issue #26), under wine.
 * Wine makes no symbolic links, so the probe is replaced: a name stands
 * in for a link whose final path is a real file elsewhere. -c must grow
 * that real file and leave the stand-in (the "link") untouched with no
 * copy beside it; before the fix the side copy was moved over the link's
 * name, so the stand-in became a 64 KiB file and the target kept its
 * 4096 bytes. A dangling link is refused with nothing made; the real
 * probe says a plain file is no link. scripts/windows-selfcheck.ps1 makes
 * a real link (New-Item -ItemType SymbolicLink) on a Windows host. */
#include "test_util.h"

#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

static char tmpdir[MAX_PATH * 3];
static char real_path[MAX_PATH * 3], link_path[MAX_PATH * 3];
static char real_dir[MAX_PATH * 3], link_dir[MAX_PATH * 3];
static DWORD g_error; /* what the fake link's followed open fails with */

static void wmkdir(const char* p) {
  WCHAR* w = iospd_win_utf8_to_wide(p);
  (void)CreateDirectoryW(w, NULL);
  iospd_free(w);
}

static int setup(void** state) {
  (void)state;
  WCHAR w[MAX_PATH];
  DWORD n = GetTempPathW(MAX_PATH, w);
  assert_true(n > 0 && n < MAX_PATH);
  assert_true(iospd_win_wide_to_utf8(w, tmpdir, sizeof tmpdir) > 0);
  iospd_sysinfo_t si;
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  snprintf(real_dir, sizeof real_dir, "%siospd_lnk_real_%lu", tmpdir,
           (unsigned long)GetCurrentProcessId());
  snprintf(link_dir, sizeof link_dir, "%siospd_lnk_link_%lu", tmpdir,
           (unsigned long)GetCurrentProcessId());
  wmkdir(real_dir);
  wmkdir(link_dir);
  snprintf(real_path, sizeof real_path, "%s\\t.dat", real_dir);
  snprintf(link_path, sizeof link_path, "%s\\t.dat", link_dir);
  return 0;
}

static uint32_t files_in(const char* dir) {
  char pat[MAX_PATH * 3 + 4];
  snprintf(pat, sizeof pat, "%s\\*", dir);
  WCHAR* w = iospd_win_utf8_to_wide(pat);
  WIN32_FIND_DATAW fd;
  HANDLE h = FindFirstFileW(w, &fd);
  iospd_free(w);
  uint32_t n = 0;
  if (h == INVALID_HANDLE_VALUE) return 0;
  do {
    if (!(fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) n++;
  } while (FindNextFileW(h, &fd));
  FindClose(h);
  return n;
}

static void remove_dirs(void) {
  const char* names[] = {real_path, link_path};
  for (int i = 0; i < 2; i++) {
    WCHAR* w = iospd_win_utf8_to_wide(names[i]);
    DeleteFileW(w);
    iospd_free(w);
  }
  const char* dirs[] = {real_dir, link_dir};
  for (int i = 0; i < 2; i++) {
    WCHAR* w = iospd_win_utf8_to_wide(dirs[i]);
    RemoveDirectoryW(w);
    iospd_free(w);
  }
}

static int mkdirs(void** state) {
  (void)state;
  wmkdir(real_dir);
  wmkdir(link_dir);
  return 0;
}

static int teardown(void** state) {
  (void)state;
  iospd_win_link_probe_hook = NULL;
  remove_dirs();
  return 0;
}

static void write_file(const char* path, const char* text, uint32_t size) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
  iospd_free(w);
  assert_true(h != INVALID_HANDLE_VALUE);
  char buf[8192];
  assert_true(size <= sizeof buf);
  memset(buf, 'x', size);
  memcpy(buf, text, strlen(text));
  DWORD wrote = 0;
  assert_true(WriteFile(h, buf, size, &wrote, NULL));
  assert_int_equal(wrote, size);
  CloseHandle(h);
}

/* Size (or -1) and the first 4 bytes. */
static int64_t read_head(const char* path, char head[5]) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL,
                         OPEN_EXISTING, 0, NULL);
  iospd_free(w);
  memset(head, 0, 5);
  if (h == INVALID_HANDLE_VALUE) return -1;
  LARGE_INTEGER li;
  assert_true(GetFileSizeEx(h, &li));
  DWORD got = 0;
  (void)ReadFile(h, head, 4, &got, NULL);
  CloseHandle(h);
  return li.QuadPart;
}

/* The probe's stand-in: link_path is a link to real_path. */
static void fake_probe(const WCHAR* w, iospd_win_link_t* out) {
  WCHAR* lw = NULL;
  assert_int_equal(iospd_win_path(link_path, &lw, NULL), 0);
  bool is = _wcsicmp(w, lw) == 0;
  iospd_free(lw);
  if (!is) return;
  out->is_link = true;
  out->open_error = g_error;
  if (g_error == 0)
    assert_int_equal(iospd_win_path(real_path, &out->final, NULL), 0);
}

static void create_through_link(void** state) {
  (void)state;
  write_file(real_path, "REAL", 4096);
  write_file(link_path, "LINK", 100);
  iospd_win_link_probe_hook = fake_probe;
  g_error = 0;
  iospd_win_create_report_t rep;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_win_create(link_path, 65536, false, IOSPD_WIN_CREATE_WRITE_ALL,
                            NULL, &rep, &err);
  if (rc != 0) print_message("%s\n", err.msg);
  assert_int_equal(rc, 0);
  char head[5];
  /* The target was replaced by a 64 KiB file (the pattern, not "REAL")... */
  assert_int_equal(read_head(real_path, head), 65536);
  assert_string_not_equal(head, "REAL");
  /* ... and the link is as it was, alone in its folder. */
  assert_int_equal(read_head(link_path, head), 100);
  assert_string_equal(head, "LINK");
  assert_int_equal(files_in(link_dir), 1);
  assert_int_equal(files_in(real_dir), 1);
  iospd_win_link_probe_hook = NULL;
}

static void dangling_link_refused(void** state) {
  (void)state;
  write_file(link_path, "LINK", 100);
  WCHAR* rw = iospd_win_utf8_to_wide(real_path);
  DeleteFileW(rw);
  iospd_free(rw);
  iospd_win_link_probe_hook = fake_probe;
  g_error = ERROR_FILE_NOT_FOUND;
  iospd_win_create_report_t rep;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_win_create(link_path, 65536, false, IOSPD_WIN_CREATE_WRITE_ALL,
                            NULL, &rep, &err);
  assert_int_equal(rc, IOSPD_ENOENT);
  char want[MAX_PATH * 4];
  snprintf(want, sizeof want,
           "'%s' is a symbolic link to a file that does not exist; -c "
           "creates through a link only when its target exists: create the "
           "target, or name the file itself",
           link_path);
  assert_string_equal(err.msg, want);
  char head[5];
  assert_int_equal(read_head(link_path, head), 100);
  assert_int_equal(read_head(real_path, head), -1);
  assert_int_equal(files_in(link_dir), 1);
  assert_int_equal(files_in(real_dir), 0);
  /* A target that cannot be opened: refused, the Win32 code named. */
  g_error = ERROR_ACCESS_DENIED;
  rc = iospd_win_create(link_path, 65536, false, IOSPD_WIN_CREATE_WRITE_ALL,
                        NULL, &rep, &err);
  assert_true(rc < 0);
  assert_non_null(strstr(err.msg, "is a symbolic link, and its target "
                                  "cannot be opened"));
  assert_int_equal(read_head(link_path, head), 100);
  iospd_win_link_probe_hook = NULL;
}

/* The real probe: a plain file and a missing name are no links. */
static void real_probe_plain_file(void** state) {
  (void)state;
  write_file(real_path, "REAL", 4096);
  WCHAR* w = NULL;
  assert_int_equal(iospd_win_path(real_path, &w, NULL), 0);
  iospd_win_link_t l;
  iospd_win_link_probe(w, &l);
  assert_false(l.is_link);
  assert_null(l.final);
  WCHAR* out = NULL;
  iospd_err_t err;
  assert_int_equal(iospd_win_create_name(real_path, w, &l, &out, &err), 0);
  assert_true(wcscmp(out, w) == 0);
  iospd_free(out);
  iospd_free(w);
  assert_int_equal(iospd_win_path(link_path, &w, NULL), 0);
  WCHAR* lw = iospd_win_utf8_to_wide(link_path);
  DeleteFileW(lw);
  iospd_free(lw);
  iospd_win_link_probe(w, &l);
  assert_false(l.is_link);
  iospd_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(create_through_link, mkdirs, teardown),
      cmocka_unit_test_setup_teardown(dangling_link_refused, mkdirs, teardown),
      cmocka_unit_test_setup_teardown(real_probe_plain_file, mkdirs, teardown),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
