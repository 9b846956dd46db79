/* SPDX-License-Identifier: MIT */
/* Windows names and Win32 contracts under wine (issue 11): long relative,
 * ".." and UNC paths in their extended-length forms, files made and read
 * through them, sector sizes of a file whose path no fixed buffer holds,
 * one file under two spellings, DeviceIoControl on an overlapped handle
 * with a pending request, and the first failure's raw Win32 code. */
#include "test_util.h"

#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

#include <winioctl.h>

#define KB 1024u
/* ntifs.h's, which mingw's user-mode headers leave out. */
#ifndef FSCTL_PIPE_LISTEN
#define FSCTL_PIPE_LISTEN \
  CTL_CODE(FILE_DEVICE_NAMED_PIPE, 2, METHOD_BUFFERED, FILE_ANY_ACCESS)
#endif

static WCHAR tmpw[MAX_PATH];
static WCHAR oldcwd[MAX_PATH];

static int setup(void** state) {
  (void)state;
  DWORD n = GetTempPathW(MAX_PATH, tmpw);
  assert_true(n > 0 && n < MAX_PATH);
  assert_true(GetCurrentDirectoryW(MAX_PATH, oldcwd) > 0);
  /* Relative targets below resolve against the temp directory. */
  assert_true(SetCurrentDirectoryW(tmpw));
  iospd_sysinfo_t si;
  assert_int_equal(iospd_plat_init(&si, NULL), 0);
  return 0;
}

static int teardown(void** state) {
  (void)state;
  SetCurrentDirectoryW(oldcwd);
  return 0;
}

/* tmpw without its trailing backslash. */
static void cwd_w(WCHAR* out, size_t n) {
  swprintf(out, n, L"%ls", tmpw);
  size_t len = wcslen(out);
  if (len > 3 && out[len - 1] == L'\\') out[len - 1] = 0;
}

/* depth components of 50 characters: "d00aaaa...\d01aaaa...\" */
static void long_dirs(char* out, size_t size, int depth, char sep) {
  out[0] = 0;
  for (int i = 0; i < depth; i++) {
    char c[64];
    snprintf(c, sizeof c, "d%02d%047d%c", i, 0, sep);
    strncat(out, c, size - strlen(out) - 1);
  }
}

static WCHAR* mapped(const char* in, bool* dev) {
  WCHAR* w = NULL;
  iospd_err_t err;
  assert_int_equal(iospd_win_target_path(in, &w, dev, &err), 0);
  assert_non_null(w);
  return w;
}

/* Relative, ".." and UNC paths beyond MAX_PATH get the \\?\ form (which
 * takes no "..", no '/', no relative part), short ones stay plain. */
static void test_long_forms(void** state) {
  (void)state;
  WCHAR cwd[MAX_PATH], want[2048];
  cwd_w(cwd, MAX_PATH);
  char dirs[1024], in[1200];
  bool dev = true;

  long_dirs(dirs, sizeof dirs, 6, '\\'); /* 300 characters */
  snprintf(in, sizeof in, "x\\..\\%sf.dat", dirs);
  WCHAR* w = mapped(in, &dev);
  assert_false(dev);
  WCHAR* wd = iospd_win_utf8_to_wide(dirs);
  swprintf(want, 2048, L"\\\\?\\%ls\\%lsf.dat", cwd, wd);
  if (wcscmp(w, want) != 0) fail_msg("%s -> %ls, want %ls", in, w, want);
  iospd_free(w);

  /* The same with '/' separators: backslashes only in the \\?\ form. */
  long_dirs(dirs, sizeof dirs, 6, '/');
  snprintf(in, sizeof in, "./%sf.dat", dirs);
  w = mapped(in, &dev);
  if (wcscmp(w, want) != 0) fail_msg("%s -> %ls, want %ls", in, w, want);
  assert_null(wcschr(w, L'/'));
  iospd_free(w);

  /* UNC: \\?\UNC\server\share\..., never \\?\\\server. */
  long_dirs(dirs, sizeof dirs, 6, '\\');
  snprintf(in, sizeof in, "\\\\srv\\share\\%sf.dat", dirs);
  w = mapped(in, &dev);
  swprintf(want, 2048, L"\\\\?\\UNC\\srv\\share\\%lsf.dat", wd);
  if (wcscmp(w, want) != 0) fail_msg("%s -> %ls, want %ls", in, w, want);
  iospd_free(w);
  snprintf(in, sizeof in, "//srv/share/%s../%sf.dat", "zz/", dirs);
  w = mapped(in, &dev);
  if (wcscmp(w, want) != 0) fail_msg("%s -> %ls, want %ls", in, w, want);
  iospd_free(w);
  iospd_free(wd);

  /* Short: resolved, no prefix. */
  w = mapped("a\\..\\short.dat", &dev);
  swprintf(want, 2048, L"%ls\\short.dat", cwd);
  if (wcscmp(w, want) != 0) fail_msg("short -> %ls, want %ls", w, want);
  iospd_free(w);
  /* Written with \\?\ already: taken as written. */
  w = mapped("\\\\?\\C:\\a\\..\\b.dat", &dev);
  assert_int_equal(wcscmp(w, L"\\\\?\\C:\\a\\..\\b.dat"), 0);
  iospd_free(w);
}

/* Removes tmp\<rel> and its parents up to tmp (rel has 'depth' dirs). */
static void remove_tree(const char* rel, int depth) {
  WCHAR cwd[MAX_PATH], p[2048];
  cwd_w(cwd, MAX_PATH);
  WCHAR* wr = iospd_win_utf8_to_wide(rel);
  swprintf(p, 2048, L"\\\\?\\%ls\\%ls", cwd, wr);
  iospd_free(wr);
  for (WCHAR* s = p; *s; s++)
    if (*s == L'/') *s = L'\\';
  DeleteFileW(p);
  for (int i = 0; i <= depth; i++) {
    WCHAR* cut = wcsrchr(p, L'\\');
    if (cut == NULL) break;
    *cut = 0;
    RemoveDirectoryW(p);
  }
}

/* A file 600+ characters deep, named relative with "..": created with its
 * parents, opened unbuffered, its sector size known (the volume look-up
 * once overflowed a fixed 520-character buffer and answered 0, so 512 was
 * assumed), and read back. */
static void test_long_relative_file(void** state) {
  (void)state;
  char dirs[1024], rel[1200], in[1300];
  long_dirs(dirs, sizeof dirs, 12, '\\'); /* 600 characters */
  snprintf(rel, sizeof rel, "iospd_long\\%sf.dat", dirs);
  snprintf(in, sizeof in, "iospd_long\\..\\%s", rel);
  iospd_err_t err;
  int rc = iospd_plat_file_create(in, 64 * KB, false, &err);
  if (rc != 0) fail_msg("create %s: %s", in, err.msg);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(in, &info, &err), 0);
  assert_int_equal(info.size, 64 * KB);
  assert_false(info.is_device);
  assert_int_equal(info.logical_sector, 512);

  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {in, IOSPD_OPEN_READ | IOSPD_OPEN_NO_BUFFERING |
                                 IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  memset(&info, 0, sizeof info);
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  assert_int_equal(info.size, 64 * KB);
  assert_int_equal(info.logical_sector, 512);
  iospd_plat_file_close(f);

  char* head = NULL;
  size_t got = 0;
  assert_int_equal(iospd_plat_read_file(in, 300, &head, &got, &err), 0);
  assert_int_equal(got, 300);
  /* The (i & 0xff) fill, or zeros where SetFileValidData skipped it. */
  assert_true(head[257] == 1 || head[257] == 0);
  iospd_free(head);
  remove_tree(rel, 13);
}

/* One file, many spellings: case, "..", '/', relative or not. */
static void test_same_path(void** state) {
  (void)state;
  char abs_lo[MAX_PATH * 3], abs_up[MAX_PATH * 3];
  WCHAR cwd[MAX_PATH];
  cwd_w(cwd, MAX_PATH);
  char cwd8[MAX_PATH * 3];
  assert_true(iospd_win_wide_to_utf8(cwd, cwd8, sizeof cwd8) > 0);
  snprintf(abs_lo, sizeof abs_lo, "%s\\x.dat", cwd8);
  snprintf(abs_up, sizeof abs_up, "%s\\X.DAT", cwd8);
  for (char* s = abs_up; *s && s < abs_up + 2; s++)
    if (*s >= 'A' && *s <= 'Z') *s = (char)(*s - 'A' + 'a'); /* c: */
  assert_true(iospd_plat_same_path("C:\\x.dat", "c:\\X.DAT"));
  assert_true(iospd_plat_same_path(abs_lo, abs_up));
  assert_true(iospd_plat_same_path("x.dat", abs_up));
  assert_true(iospd_plat_same_path("sub\\..\\X.dat", ".\\x.DAT"));
  assert_true(iospd_plat_same_path("C:/dir/x.dat", "c:\\DIR\\X.dat"));
  assert_true(iospd_plat_same_path("\\\\?\\C:\\dir\\x.dat", "C:\\Dir\\x.dat"));
  assert_true(iospd_plat_same_path("\\\\?\\UNC\\srv\\s\\x", "//SRV/s/x"));
  assert_true(iospd_plat_same_path("#1", "\\\\.\\physicaldrive1"));
  /* Not "ignore case" by locale: \u00e9 vs \u00c9 are one NTFS name;
   * different letters are not. */
  assert_true(iospd_plat_same_path("C:\\\xc3\xa9.dat", "C:\\\xc3\x89.dat"));
  assert_false(iospd_plat_same_path("C:\\x.dat", "C:\\y.dat"));
  assert_false(iospd_plat_same_path("C:\\x.dat", "D:\\x.dat"));
  assert_false(iospd_plat_same_path("x.dat", "x.dat2"));
}

/* A control request that stays pending (a pipe waiting for its client) on
 * a handle opened for overlapped I/O and bound to a completion port:
 * iospd_win_ioctl waits for it and reports its result, and no packet
 * reaches the port (the worker would take it for one of its I/Os). */
static DWORD WINAPI connect_later(LPVOID name) {
  Sleep(200);
  HANDLE c = CreateFileW((const WCHAR*)name, GENERIC_READ | GENERIC_WRITE, 0,
                         NULL, OPEN_EXISTING, 0, NULL);
  if (c == INVALID_HANDLE_VALUE) return 1;
  Sleep(100);
  CloseHandle(c);
  return 0;
}

static void test_ioctl_pending_overlapped(void** state) {
  (void)state;
  WCHAR name[64];
  swprintf(name, 64, L"\\\\.\\pipe\\iospd-test-%lu", GetCurrentProcessId());
  HANDLE p = CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
                              PIPE_TYPE_BYTE | PIPE_WAIT, 1, 4096, 4096, 0,
                              NULL);
  assert_true(p != INVALID_HANDLE_VALUE);
  HANDLE port = CreateIoCompletionPort(p, NULL, 7, 1);
  assert_non_null(port);
  HANDLE t = CreateThread(NULL, 0, connect_later, name, 0, NULL);
  assert_non_null(t);
  ULONGLONG t0 = GetTickCount64();
  DWORD ret = 12345;
  BOOL ok = iospd_win_ioctl(p, FSCTL_PIPE_LISTEN, NULL, 0, NULL, 0, &ret);
  DWORD e = GetLastError();
  ULONGLONG waited = GetTickCount64() - t0;
  /* Connected by the client: success, or "already connected" if it won. */
  if (!ok && e != ERROR_PIPE_CONNECTED)
    fail_msg("FSCTL_PIPE_LISTEN: error %lu", (unsigned long)e);
  if (ok) {
    assert_true(waited >= 150); /* it did wait for the client */
    assert_int_equal(ret, 0);
  }
  DWORD bytes;
  ULONG_PTR key;
  OVERLAPPED* ov = NULL;
  assert_false(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 300));
  assert_int_equal(GetLastError(), WAIT_TIMEOUT);
  assert_null(ov);
  WaitForSingleObject(t, INFINITE);
  DWORD code = 9;
  GetExitCodeThread(t, &code);
  assert_int_equal(code, 0);
  CloseHandle(t);
  CloseHandle(port);
  CloseHandle(p);
}

/* A write on a handle opened for reading fails at once with
 * ERROR_ACCESS_DENIED: the queue keeps that code (5) and its system text
 * for the message, the first failure only; on a disk or volume it adds
 * what to do about file systems refusing raw writes. */
static void os_error_case(bool device, unsigned qflags) {
  char path[MAX_PATH * 3];
  char tmp8[MAX_PATH * 3];
  assert_true(iospd_win_wide_to_utf8(tmpw, tmp8, sizeof tmp8) > 0);
  snprintf(path, sizeof path, "%siospd_oserr.dat", tmp8);
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 64 * KB, false, &err), 0);
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  f->is_device = device; /* what a disk or volume handle would say */
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(iospd_plat_queue_create(&q, 4, qflags, 0, &err), 0);
  char text[256] = "x";
  assert_int_equal(iospd_plat_queue_os_error(q, text, sizeof text), 0);
  assert_string_equal(text, "");
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(8 * KB, 4096, 0);
  iospd_io_t ios[2] = {
      {.tag = 1, .op = IOSPD_OP_WRITE, .file_index = fi, .offset = 0,
       .length = 4096, .buf = buf},
      {.tag = 2, .op = IOSPD_OP_READ, .file_index = 99, .offset = 0,
       .length = 4096, .buf = buf + 4096}};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 2, &acc), 0);
  assert_int_equal(acc, 2);
  iospd_cqe_t c[4];
  uint32_t got = 0, total = 0;
  for (int i = 0; i < 10 && total < 2; i++) {
    assert_int_equal(iospd_plat_queue_reap(q, c + total, 4 - total, 1, 1000,
                                           &got),
                     0);
    total += got;
  }
  assert_int_equal(total, 2);
  assert_int_equal(c[0].tag, 1);
  assert_int_equal(c[0].result, IOSPD_EACCES);
  assert_int_equal(c[1].result, IOSPD_EINVAL);
  assert_int_equal(iospd_plat_queue_os_error(q, text, sizeof text),
                   ERROR_ACCESS_DENIED);
  if (strstr(text, "(error 5)") == NULL) fail_msg("text: %s", text);
  assert_true(strlen(text) > strlen("(error 5)") + 3); /* the system's words */
  if (device) {
    assert_non_null(strstr(text, "mounted file system"));
    assert_non_null(strstr(text, "offline"));
  } else {
    assert_null(strstr(text, "offline"));
  }
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_buf_free(buf, 8 * KB);
  iospd_plat_file_close(f);
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

static void test_queue_os_error(void** state) {
  (void)state;
  os_error_case(false, 0);
  os_error_case(true, 0);
  os_error_case(false, IOSPD_QUEUE_COMPLETION_ROUTINES);
}

/* ERROR_NOT_READY (a paused CSV, a disk coming online) is an I/O error,
 * not "no such file", and messages carry the number with the text. */
static void test_error_text(void** state) {
  (void)state;
  assert_int_equal(iospd_win_translate(ERROR_NOT_READY), IOSPD_EIO);
  char text[200];
  iospd_win_error_text(ERROR_NOT_READY, text, sizeof text);
  if (strstr(text, "(error 21)") == NULL) fail_msg("text: %s", text);
  iospd_err_t err;
  assert_int_equal(iospd_win_err(&err, ERROR_NOT_READY, "reading '%s'", "X:"),
                   IOSPD_EIO);
  assert_int_equal(err.os_code, 21);
  assert_non_null(strstr(err.msg, "reading 'X:': "));
  assert_non_null(strstr(err.msg, "(error 21)"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_long_forms),
      cmocka_unit_test(test_long_relative_file),
      cmocka_unit_test(test_same_path),
      cmocka_unit_test(test_ioctl_pending_overlapped),
      cmocka_unit_test(test_queue_os_error),
      cmocka_unit_test(test_error_text),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
