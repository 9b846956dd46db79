/* SPDX-License-Identifier: MIT */
/* What a run asks of the process on Windows (iospd_plat_run_begin): the
 * controller thread's priority, the lock-memory privilege for -l, and
 * millisecond waits for -g/-j; and the plain sleep of polling loops.
 *
 * Waits follow the system timer, 15.6 ms by default (and per process since
 * Windows 10 2004 / Server 2022), so a 1 ms Sleep lasts ~15.6 ms: -g comes
 * in bursts and short -j think times stretch. A high-resolution waitable
 * timer (Windows 10 1803+) expires on time without changing the system
 * timer; where there is none, timeBeginPeriod(1) is asked for, only while
 * a run with -g/-j lasts. winmm.dll is loaded from System32 only then, so
 * the executable imports nothing more. */
#include "win/internal.h"

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002
#endif
#ifndef LOAD_LIBRARY_SEARCH_SYSTEM32
#define LOAD_LIBRARY_SEARCH_SYSTEM32 0x00000800
#endif

int iospd_win_fine_mode; /* IOSPD_WIN_FINE_* */
bool iospd_win_fine_force_fallback;

static DWORD g_timer_tls = TLS_OUT_OF_INDEXES;
static INIT_ONCE g_tls_once = INIT_ONCE_STATIC_INIT;

typedef UINT(WINAPI* period_fn)(UINT);
static HMODULE g_winmm;
static period_fn g_time_end_period;

static int g_saved_priority = THREAD_PRIORITY_ERROR_RETURN;
static HANDLE g_controller;

static BOOL CALLBACK tls_init(INIT_ONCE* o, void* p, void** ctx) {
  (void)o;
  (void)p;
  (void)ctx;
  g_timer_tls = TlsAlloc();
  return TRUE;
}

static HANDLE new_fine_timer(void) {
  if (iospd_win_fine_force_fallback) {
    SetLastError(ERROR_INVALID_PARAMETER); /* as before Windows 10 1803 */
    return NULL;
  }
  return CreateWaitableTimerExW(NULL, NULL,
                                CREATE_WAITABLE_TIMER_HIGH_RESOLUTION,
                                TIMER_MODIFY_STATE | SYNCHRONIZE);
}

HANDLE iospd_win_thread_timer(void) {
  if (iospd_win_fine_mode != IOSPD_WIN_FINE_TIMER) return NULL;
  InitOnceExecuteOnce(&g_tls_once, tls_init, NULL, NULL);
  if (g_timer_tls == TLS_OUT_OF_INDEXES) return NULL;
  HANDLE t = TlsGetValue(g_timer_tls);
  if (t == NULL) {
    /* Once per thread, on its first fine wait; closed when it ends. */
    t = new_fine_timer();
    if (t != NULL) TlsSetValue(g_timer_tls, t);
  }
  return t;
}

void iospd_win_thread_timer_free(void) {
  if (g_timer_tls == TLS_OUT_OF_INDEXES) return;
  HANDLE t = TlsGetValue(g_timer_tls);
  if (t != NULL) {
    CloseHandle(t);
    TlsSetValue(g_timer_tls, NULL);
  }
}

bool iospd_win_timer_arm(HANDLE timer, uint32_t ms, PTIMERAPCROUTINE apc) {
  LARGE_INTEGER due;
  due.QuadPart = -(LONGLONG)ms * 10000; /* relative, in 100 ns units */
  return SetWaitableTimer(timer, &due, 0, apc, NULL, FALSE) != 0;
}

/* Does nothing: its only job is to end the alertable wait it lands in. */
static VOID CALLBACK wake_apc(LPVOID arg, DWORD low, DWORD high) {
  (void)arg;
  (void)low;
  (void)high;
}

HANDLE iospd_win_fine_wake_arm(uint32_t ms) {
  /* Longer waits are polls (the phase re-read); a tick late is fine. */
  if (ms == 0 || ms >= 50) return NULL;
  HANDLE t = iospd_win_thread_timer();
  return t != NULL && iospd_win_timer_arm(t, ms, wake_apc) ? t : NULL;
}

void iospd_plat_sleep(uint32_t ms) {
  HANDLE t = ms > 0 ? iospd_win_thread_timer() : NULL;
  if (t != NULL && iospd_win_timer_arm(t, ms, NULL) &&
      WaitForSingleObject(t, INFINITE) == WAIT_OBJECT_0)
    return;
  Sleep(ms);
}

/* No high-resolution timer: ask for a 1 ms system timer instead. */
static void begin_period(void) {
  g_winmm = LoadLibraryExW(L"winmm.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
  period_fn begin =
      g_winmm ? (period_fn)(void (*)(void))GetProcAddress(g_winmm,
                                                          "timeBeginPeriod")
              : NULL;
  g_time_end_period =
      g_winmm ? (period_fn)(void (*)(void))GetProcAddress(g_winmm,
                                                          "timeEndPeriod")
              : NULL;
  if (begin != NULL && g_time_end_period != NULL && begin(1) == 0 /*OK*/) {
    iospd_win_fine_mode = IOSPD_WIN_FINE_PERIOD;
    return;
  }
  /* Neither: waits stay as coarse as the system timer. */
  g_time_end_period = NULL;
  if (g_winmm != NULL) FreeLibrary(g_winmm);
  g_winmm = NULL;
}

static void begin_fine_waits(void) {
  HANDLE probe = new_fine_timer();
  if (probe != NULL) {
    CloseHandle(probe);
    iospd_win_fine_mode = IOSPD_WIN_FINE_TIMER;
    return;
  }
  begin_period();
}

static int enable_lock_memory(iospd_err_t* err) {
  int step = 0;
  DWORD e = iospd_win_enable_privilege_at(L"SeLockMemoryPrivilege", &step);
  if (e == ERROR_SUCCESS) return 0;
  /* DISKSPD's words first, then what to do. */
  const char* what =
      step == 1   ? "Error opening process token"
      : step == 2 ? "Error looking up privilege value SeLockMemoryPrivilege"
                  : "Error adjusting token privileges for "
                    "SeLockMemoryPrivilege";
  return iospd_err_set_os(
      err, IOSPD_EACCES, (int64_t)e,
      "%s (error code: %lu): large pages (-l) need the \"Lock pages in "
      "memory\" user right, which this account does not hold (by default "
      "not even Administrators); grant it (secpol.msc, Local Policies, "
      "User Rights Assignment), sign out and in again, or run without -l",
      what, (unsigned long)e);
}

int iospd_plat_run_begin(const iospd_run_needs_t* needs, iospd_err_t* err) {
  iospd_win_once();
  if (needs->large_pages) {
    int rc = enable_lock_memory(err);
    if (rc < 0) return rc;
  }
  iospd_win_fine_mode = IOSPD_WIN_FINE_OFF;
  if (needs->fine_waits) begin_fine_waits();
  /* As DISKSPD: the controller runs at once when its wait ends, however
   * busy the pinned workers keep the CPUs. */
  g_controller = GetCurrentThread();
  g_saved_priority = GetThreadPriority(g_controller);
  if (g_saved_priority != THREAD_PRIORITY_ERROR_RETURN)
    (void)SetThreadPriority(g_controller, THREAD_PRIORITY_HIGHEST);
  return 0;
}

void iospd_plat_run_end(void) {
  if (g_saved_priority != THREAD_PRIORITY_ERROR_RETURN)
    (void)SetThreadPriority(g_controller, g_saved_priority);
  g_saved_priority = THREAD_PRIORITY_ERROR_RETURN;
  if (iospd_win_fine_mode == IOSPD_WIN_FINE_PERIOD && g_time_end_period)
    g_time_end_period(1);
  if (g_winmm != NULL) FreeLibrary(g_winmm);
  g_winmm = NULL;
  g_time_end_period = NULL;
  iospd_win_thread_timer_free();
  iospd_win_fine_mode = IOSPD_WIN_FINE_OFF;
}
