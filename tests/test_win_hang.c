/* SPDX-License-Identifier: MIT */
/* Set-up control calls that never complete (a hung adapter, a paused CSV
 * volume) under wine (issue #26): an overlapped named pipe's
 * FSCTL_PIPE_LISTEN with no client stands for one. Ctrl-C (here
 * iospd_plat_interrupt from another thread) ends the wait at once, the
 * deadline ends it otherwise, and the call is cancelled either way: no
 * packet, no later write into the caller's memory. */
#include "test_util.h"

#include <wchar.h>

#include "win/internal.h"

#include <winioctl.h> /* after <windows.h> */

#ifndef FSCTL_PIPE_LISTEN
#define FSCTL_PIPE_LISTEN \
  CTL_CODE(FILE_DEVICE_NAMED_PIPE, 2, METHOD_BUFFERED, FILE_ANY_ACCESS)
#endif

static int setup(void** state) {
  (void)state;
  iospd_sysinfo_t si;
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  return 0;
}

static HANDLE listening_pipe(const char* tag) {
  WCHAR name[96];
  swprintf(name, 96, L"\\\\.\\pipe\\iospd-hang-%hs-%lu", tag,
           GetCurrentProcessId());
  HANDLE p = CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
                              PIPE_TYPE_BYTE | PIPE_WAIT, 1, 4096, 4096, 0,
                              NULL);
  assert_true(p != INVALID_HANDLE_VALUE);
  return p;
}

static DWORD WINAPI interrupt_later(void* arg) {
  (void)arg;
  Sleep(300);
  iospd_plat_interrupt();
  return 0;
}

/* Before: GetOverlappedResult(TRUE) waited for a client that never came
 * (the test's 60 s timeout). */
static void test_interrupt_ends_pending_ioctl(void** state) {
  (void)state;
  HANDLE p = listening_pipe("int");
  iospd_win_ioctl_deadline_ms = UINT32_MAX; /* only the interrupt ends it */
  HANDLE t = CreateThread(NULL, 0, interrupt_later, NULL, 0, NULL);
  assert_non_null(t);
  ULONGLONG t0 = GetTickCount64();
  DWORD ret = 77;
  BOOL ok = iospd_win_ioctl(p, FSCTL_PIPE_LISTEN, NULL, 0, NULL, 0, &ret);
  DWORD e = GetLastError();
  ULONGLONG took = GetTickCount64() - t0;
  WaitForSingleObject(t, INFINITE);
  CloseHandle(t);
  ResetEvent(iospd_win_interrupt_event);
  iospd_win_ioctl_deadline_ms = 30000;
  assert_false(ok);
  assert_int_equal(e, ERROR_OPERATION_ABORTED);
  assert_true(took >= 250);
  assert_true(took < 5000);
  assert_int_equal(iospd_win_translate(e), IOSPD_ECANCELED);
  /* Cancelled for real: the pipe listens again at once (a second listen
   * on a pipe still listening would fail with ERROR_INVALID_FUNCTION or
   * stay pending; here it must be pending, then time out). */
  iospd_win_ioctl_deadline_ms = 200;
  ok = iospd_win_ioctl(p, FSCTL_PIPE_LISTEN, NULL, 0, NULL, 0, &ret);
  assert_false(ok);
  assert_int_equal(GetLastError(), ERROR_TIMEOUT);
  iospd_win_ioctl_deadline_ms = 30000;
  CloseHandle(p);
}

/* No interrupt: the deadline cancels it, ERROR_TIMEOUT. */
static void test_deadline_ends_pending_ioctl(void** state) {
  (void)state;
  HANDLE p = listening_pipe("dl");
  iospd_win_ioctl_deadline_ms = 400;
  ULONGLONG t0 = GetTickCount64();
  DWORD ret = 77;
  BOOL ok = iospd_win_ioctl(p, FSCTL_PIPE_LISTEN, NULL, 0, NULL, 0, &ret);
  DWORD e = GetLastError();
  ULONGLONG took = GetTickCount64() - t0;
  iospd_win_ioctl_deadline_ms = 30000;
  assert_false(ok);
  assert_int_equal(e, ERROR_TIMEOUT);
  assert_true(took >= 350);
  assert_true(took < 5000);
  CloseHandle(p);
}

/* A probe read of a device that never answers: a connected pipe whose
 * client never writes. Ctrl-C ends it (before: a synchronous ReadFile on
 * the controller thread, for ever); the buffer was given back. */
static void test_interrupt_ends_pending_read(void** state) {
  (void)state;
  WCHAR name[96];
  swprintf(name, 96, L"\\\\.\\pipe\\iospd-hang-read-%lu", GetCurrentProcessId());
  HANDLE p = CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
                              PIPE_TYPE_BYTE | PIPE_WAIT, 1, 4096, 4096, 0,
                              NULL);
  assert_true(p != INVALID_HANDLE_VALUE);
  HANDLE c = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL,
                         OPEN_EXISTING, 0, NULL);
  assert_true(c != INVALID_HANDLE_VALUE);
  iospd_win_ioctl_deadline_ms = UINT32_MAX;
  HANDLE t = CreateThread(NULL, 0, interrupt_later, NULL, 0, NULL);
  assert_non_null(t);
  static unsigned char buf[4096];
  DWORD got = 99;
  bool abandoned = true;
  ULONGLONG t0 = GetTickCount64();
  DWORD e = iospd_win_read_timed(p, 0, buf, sizeof buf, &got, &abandoned);
  ULONGLONG took = GetTickCount64() - t0;
  WaitForSingleObject(t, INFINITE);
  CloseHandle(t);
  ResetEvent(iospd_win_interrupt_event);
  iospd_win_ioctl_deadline_ms = 30000;
  assert_int_equal(e, ERROR_OPERATION_ABORTED);
  assert_int_equal(got, 0);
  assert_false(abandoned);
  assert_true(took >= 250 && took < 5000);
  /* The pipe still works: a byte written by the client is read. */
  DWORD w = 0;
  assert_true(WriteFile(c, "k", 1, &w, NULL));
  e = iospd_win_read_timed(p, 0, buf, sizeof buf, &got, &abandoned);
  assert_int_equal(e, 0);
  assert_int_equal(got, 1);
  assert_int_equal(buf[0], 'k');
  CloseHandle(c);
  CloseHandle(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_interrupt_ends_pending_ioctl),
      cmocka_unit_test(test_deadline_ends_pending_ioctl),
      cmocka_unit_test(test_interrupt_ends_pending_read),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
