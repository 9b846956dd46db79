/* SPDX-License-Identifier: MIT */
/* What the Windows layer does around a run, under wine: a depth-1 worker
 * blocked in ReadFile is freed by the controller's cancel, -I's hint is
 * checked, -l without "Lock pages in memory" fails with DISKSPD's words,
 * the choice between high-resolution timers and timeBeginPeriod, the
 * controller's priority, and sleeps that Ctrl-C does not cut short.
 * Wine has no timer resolution to fix: timings here check behaviour. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "win/internal.h"

static double ms_since(uint64_t t0) {
  return (double)(iospd_plat_ticks() - t0) * 1000.0 / (double)iospd_win_qpc_freq;
}

static int setup(void** state) {
  (void)state;
  iospd_sysinfo_t si;
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  return 0;
}

/* ---- a depth-1 worker blocked in ReadFile ------------------------------- */

typedef struct {
  iospd_plat_queue_t* q;
  iospd_io_t io;
  uint32_t acc, got;
  iospd_cqe_t c;
} blocked_t;

static void blocked_reader(void* arg) {
  blocked_t* b = arg;
  /* A synchronous handle: ReadFile blocks here until data or a cancel. */
  (void)iospd_plat_queue_submit(b->q, &b->io, 1, &b->acc);
  (void)iospd_plat_queue_reap(b->q, &b->c, 1, 1, 1000, &b->got);
}

/* A named pipe with no writer blocks a synchronous ReadFile as a hung
 * device would; the controller's iospd_plat_thread_cancel_io
 * (CancelSynchronousIo) ends it with IOSPD_ECANCELED. */
static void test_cancel_blocked_depth1_read(void** state) {
  (void)state;
  WCHAR name[64];
  swprintf(name, 64, L"\\\\.\\pipe\\iospd-run-%lu",
           (unsigned long)GetCurrentProcessId());
  HANDLE srv = CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE,
                                1, 4096, 4096, 0, NULL);
  assert_true(srv != INVALID_HANDLE_VALUE);
  char path[96];
  assert_true(iospd_win_wide_to_utf8(name, path, sizeof path) > 0);
  iospd_err_t err;
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  blocked_t b;
  memset(&b, 0, sizeof b);
  assert_int_equal(
      iospd_plat_queue_create(&b.q, 1, IOSPD_QUEUE_SYNC, 0, &err), 0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(b.q, f, &fi, &err), 0);
  static uint8_t buf[512];
  b.io = (iospd_io_t){.tag = 7, .op = IOSPD_OP_READ, .file_index = fi,
                      .offset = 0, .length = sizeof buf, .buf = buf};
  b.c.result = 1;
  iospd_plat_thread_t* t;
  iospd_thread_opts_t to = {.pin = false};
  assert_int_equal(iospd_plat_thread_start(&t, &to, blocked_reader, &b, &err),
                   0);
  /* Still blocked after 300 ms: nothing cancels it by itself. */
  assert_int_equal(iospd_plat_thread_wait(t, 300), 0);
  uint64_t t0 = iospd_plat_ticks();
  iospd_plat_thread_cancel_io(t);
  assert_int_equal(iospd_plat_thread_wait(t, 10000), 1);
  assert_true(ms_since(t0) < 5000);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(b.acc, 1);
  assert_int_equal(b.got, 1);
  assert_int_equal(b.c.tag, 7);
  assert_int_equal(b.c.result, IOSPD_ECANCELED);
  /* The queue drained: nothing left in flight. */
  assert_int_equal(iospd_plat_queue_destroy(b.q), 0);
  iospd_plat_file_close(f);
  CloseHandle(srv);
}

/* A thread in no I/O call: the cancel does nothing, the wait says ended. */
static void quick(void* arg) { (void)arg; }

static void test_cancel_idle_thread(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_plat_thread_t* t;
  iospd_thread_opts_t to = {.pin = false};
  assert_int_equal(iospd_plat_thread_start(&t, &to, quick, NULL, &err), 0);
  assert_int_equal(iospd_plat_thread_wait(t, 10000), 1);
  iospd_plat_thread_cancel_io(t);
  assert_int_equal(iospd_plat_thread_join(t), 0);
}

/* ---- -I ------------------------------------------------------------------ */

static void test_priority_hint_checked(void** state) {
  (void)state;
  WCHAR w[MAX_PATH];
  assert_true(GetTempPathW(MAX_PATH, w) > 0);
  char path[MAX_PATH * 3];
  assert_true(iospd_win_wide_to_utf8(w, path, sizeof path) > 0);
  strcat(path, "iospd_prio.dat");
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 8192, false, &err), 0);
  /* A file takes both hints. Where the hint can be read back (Windows,
   * not wine) it must be the one asked for. */
  const unsigned flags[] = {IOSPD_OPEN_PRIORITY_LOW,
                            IOSPD_OPEN_PRIORITY_VERY_LOW};
  const int want[] = {IoPriorityHintLow, IoPriorityHintVeryLow};
  for (int i = 0; i < 2; i++) {
    iospd_plat_file_t* f;
    iospd_open_opts_t o = {path, IOSPD_OPEN_READ | flags[i]};
    assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
    int got = -1;
    if (iospd_win_priority_hint_read(f->h, &got))
      assert_int_equal(got, want[i]);
    else
      print_message("note: the hint cannot be read back here (wine)\n");
    iospd_plat_file_close(f);
  }
  /* A refusal fails, naming the target and the switch. Wine takes any
   * handle, so the refusal here is of a hint value past the last one
   * (ERROR_INVALID_PARAMETER, on Windows too). */
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_err_clear(&err);
  int rc = iospd_win_apply_priority_hint(f->h, MaximumIoPriorityHintType + 2,
                                         "E:\\x.dat", &err);
  assert_int_equal(rc, IOSPD_EINVAL);
  assert_int_equal(err.os_code, ERROR_INVALID_PARAMETER);
  assert_non_null(
      strstr(err.msg, "Error setting IO priority for file: E:\\x.dat (-I;"));
  /* No -I: nothing is set, nothing can fail. */
  assert_int_equal(iospd_win_set_priority_hint(f->h, 0, "E:\\x.dat", &err), 0);
  iospd_plat_file_close(f);
  WCHAR* wp = iospd_win_utf8_to_wide(path);
  DeleteFileW(wp);
  iospd_free(wp);
}

/* ---- -l ------------------------------------------------------------------ */

/* Wine (as Windows by default) does not grant "Lock pages in memory": the
 * run fails up front with DISKSPD's words and what to do, and a large-page
 * buffer is refused rather than quietly made of small pages. */
static void test_large_pages_without_privilege(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_run_needs_t needs = {.large_pages = true, .fine_waits = false};
  int rc = iospd_plat_run_begin(&needs, &err);
  if (rc == 0) {
    iospd_plat_run_end();
    print_message("skipped: this account holds SeLockMemoryPrivilege\n");
    return;
  }
  assert_int_equal(rc, IOSPD_EACCES);
  assert_int_equal(err.os_code, ERROR_NOT_ALL_ASSIGNED);
  assert_non_null(strstr(err.msg,
                         "Error adjusting token privileges for "
                         "SeLockMemoryPrivilege (error code: 1300): large "
                         "pages (-l) need the \"Lock pages in memory\" user "
                         "right"));
  assert_non_null(strstr(err.msg, "or run without -l"));
  assert_null(iospd_plat_buf_alloc(4096, 4096, IOSPD_BUF_LARGE_PAGES));
}

/* ---- waits --------------------------------------------------------------- */

/* -g/-j: high-resolution timers where CreateWaitableTimerExW takes the
 * flag (wine, Windows 10 1803+), else timeBeginPeriod(1) for the run only;
 * no -g/-j: neither. The controller runs at highest priority during the
 * run and gets its own priority back after. */
static void test_fine_wait_selection(void** state) {
  (void)state;
  iospd_err_t err;
  int base = GetThreadPriority(GetCurrentThread());
  iospd_run_needs_t none = {false, false}, fine = {false, true};

  assert_int_equal(iospd_plat_run_begin(&none, &err), 0);
  assert_int_equal(iospd_win_fine_mode, IOSPD_WIN_FINE_OFF);
  assert_null(iospd_win_thread_timer());
  assert_int_equal(GetThreadPriority(GetCurrentThread()),
                   THREAD_PRIORITY_HIGHEST);
  iospd_plat_run_end();
  assert_int_equal(GetThreadPriority(GetCurrentThread()), base);

  assert_int_equal(iospd_plat_run_begin(&fine, &err), 0);
  assert_int_equal(iospd_win_fine_mode, IOSPD_WIN_FINE_TIMER);
  assert_non_null(iospd_win_thread_timer());
  for (int i = 0; i < 5; i++) {
    uint64_t t0 = iospd_plat_ticks();
    iospd_plat_sleep(2);
    double el = ms_since(t0);
    assert_true(el >= 1.5);
    assert_true(el < 1000);
  }
  iospd_plat_run_end();
  assert_int_equal(iospd_win_fine_mode, IOSPD_WIN_FINE_OFF);

  /* Before Windows 10 1803 the flag is refused: timeBeginPeriod(1). */
  iospd_win_fine_force_fallback = true;
  assert_int_equal(iospd_plat_run_begin(&fine, &err), 0);
  assert_int_equal(iospd_win_fine_mode, IOSPD_WIN_FINE_PERIOD);
  assert_null(iospd_win_thread_timer());
  uint64_t t0 = iospd_plat_ticks();
  iospd_plat_sleep(2);
  assert_true(ms_since(t0) >= 1.5);
  iospd_plat_run_end();
  assert_int_equal(iospd_win_fine_mode, IOSPD_WIN_FINE_OFF);
  iospd_win_fine_force_fallback = false;
  assert_int_equal(GetThreadPriority(GetCurrentThread()), base);
}

/* -g/-j with I/O in flight: a throttled slot's short wait on the port (or
 * in SleepEx for -x) ends on the fine timer's APC, on time, with nothing
 * reaped and no error; a completion still ends it at once. A pipe read
 * with no writer stays pending, as on a slow device. */
static void test_fine_wake_of_queue_waits(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_run_needs_t fine = {false, true};
  assert_int_equal(iospd_plat_run_begin(&fine, &err), 0);
  /* Short waits get the APC, polls (50 ms and more) do not. */
  HANDLE armed = iospd_win_fine_wake_arm(5);
  assert_non_null(armed);
  CancelWaitableTimer(armed);
  assert_null(iospd_win_fine_wake_arm(100));
  assert_null(iospd_win_fine_wake_arm(0));
  for (int routines = 0; routines < 2; routines++) {
    WCHAR name[64];
    swprintf(name, 64, L"\\\\.\\pipe\\iospd-fine-%lu-%d",
             (unsigned long)GetCurrentProcessId(), routines);
    HANDLE srv = CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE, 1,
                                  4096, 4096, 0, NULL);
    assert_true(srv != INVALID_HANDLE_VALUE);
    char path[96];
    assert_true(iospd_win_wide_to_utf8(name, path, sizeof path) > 0);
    iospd_plat_file_t* f;
    iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
    assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
    iospd_plat_queue_t* q;
    assert_int_equal(
        iospd_plat_queue_create(
            &q, 2, routines ? IOSPD_QUEUE_COMPLETION_ROUTINES : 0, 0, &err),
        0);
    uint32_t fi, acc, got = 9;
    assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
    static uint8_t buf[64];
    iospd_io_t io = {.tag = 3, .op = IOSPD_OP_READ, .file_index = fi,
                     .offset = 0, .length = sizeof buf, .buf = buf};
    assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
    assert_int_equal(acc, 1);
    iospd_cqe_t c[2];
    /* The wait itself is armed 20 ms longer, as a backstop: ending well
     * before that shows the APC ended it (the best of three, as the CPU
     * is shared). */
    double best = 1e9;
    for (int i = 0; i < 3; i++) {
      uint64_t t0 = iospd_plat_ticks();
      assert_int_equal(iospd_plat_queue_reap(q, c, 2, 1, 5, &got), 0);
      double el = ms_since(t0);
      assert_int_equal(got, 0);
      assert_true(el >= 4.0);
      if (el < best) best = el;
    }
    assert_true(best < 20.0);
    DWORD wrote = 0;
    assert_true(WriteFile(srv, "hello", 5, &wrote, NULL));
    assert_int_equal(iospd_plat_queue_reap(q, c, 2, 1, 5000, &got), 0);
    assert_int_equal(got, 1);
    assert_int_equal(c[0].tag, 3);
    assert_int_equal(c[0].result, 5);
    assert_int_equal(memcmp(buf, "hello", 5), 0);
    assert_int_equal(iospd_plat_queue_destroy(q), 0);
    iospd_plat_file_close(f);
    CloseHandle(srv);
  }
  iospd_plat_run_end();
}

/* Once Ctrl-C has latched iospd_plat_wait (it returns at once from then
 * on), polling loops sleep with iospd_plat_sleep, which still sleeps: they
 * cannot spin a CPU at 100 % while the run winds down. Last: the latch
 * lasts for the rest of the process. */
static void test_sleep_after_interrupt(void** state) {
  (void)state;
  iospd_plat_interrupt();
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_wait(1000), 1);
  assert_true(ms_since(t0) < 500);
  t0 = iospd_plat_ticks();
  int spins = 0;
  while (ms_since(t0) < 100) {
    iospd_plat_sleep(10);
    spins++;
  }
  assert_in_range(spins, 5, 11);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cancel_blocked_depth1_read),
      cmocka_unit_test(test_cancel_idle_thread),
      cmocka_unit_test(test_priority_hint_checked),
      cmocka_unit_test(test_large_pages_without_privilege),
      cmocka_unit_test(test_fine_wait_selection),
      cmocka_unit_test(test_fine_wake_of_queue_waits),
      cmocka_unit_test(test_sleep_after_interrupt),
  };
  return cmocka_run_group_tests_name("plat_win_run", tests, setup, NULL);
}
