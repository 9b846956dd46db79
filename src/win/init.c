/* SPDX-License-Identifier: MIT */
/* Windows platform start-up: one-time process state (QPC frequency, ntdll
 * entry points, the interrupt event), privileges, and the system description
 * the report prints (computer name, power scheme, page size). */
#include <stdio.h>
#include <string.h>

#include "win/internal.h"

#include <powrprof.h> /* after <windows.h>, which it relies on */

iospd_win_nt_qsi_fn iospd_win_NtQuerySystemInformation;
iospd_win_nt_qsi_ex_fn iospd_win_NtQuerySystemInformationEx;
iospd_win_nt_to_dos_fn iospd_win_RtlNtStatusToDosError;
iospd_win_nt_query_file_fn iospd_win_NtQueryInformationFile;
HANDLE iospd_win_interrupt_event;

static INIT_ONCE once = INIT_ONCE_STATIC_INIT;

static BOOL CALLBACK do_once(INIT_ONCE* o, void* param, void** ctx) {
  (void)o;
  (void)param;
  (void)ctx;
  LARGE_INTEGER f;
  QueryPerformanceFrequency(&f); /* cannot fail on XP and later */
  iospd_win_qpc_freq = (uint64_t)f.QuadPart;

  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (ntdll != NULL) {
    /* Casting through a generic function pointer keeps -Wcast-function-type
     * quiet: the real prototypes are the ones declared in internal.h. */
    iospd_win_NtQuerySystemInformation =
        (iospd_win_nt_qsi_fn)(void (*)(void))GetProcAddress(
            ntdll, "NtQuerySystemInformation");
    iospd_win_NtQuerySystemInformationEx =
        (iospd_win_nt_qsi_ex_fn)(void (*)(void))GetProcAddress(
            ntdll, "NtQuerySystemInformationEx");
    iospd_win_RtlNtStatusToDosError =
        (iospd_win_nt_to_dos_fn)(void (*)(void))GetProcAddress(
            ntdll, "RtlNtStatusToDosError");
    iospd_win_NtQueryInformationFile =
        (iospd_win_nt_query_file_fn)(void (*)(void))GetProcAddress(
            ntdll, "NtQueryInformationFile");
  }
  /* Manual reset: once interrupted, every later wait returns at once, so an
   * interrupt that lands before the wait is never lost. */
  iospd_win_interrupt_event = CreateEventW(NULL, TRUE, FALSE, NULL);
  return TRUE;
}

void iospd_win_once(void) {
  InitOnceExecuteOnce(&once, do_once, NULL, NULL);
}

DWORD iospd_win_enable_privilege(const WCHAR* name) {
  return iospd_win_enable_privilege_at(name, NULL);
}

DWORD iospd_win_enable_privilege_at(const WCHAR* name, int* step) {
  int at = 1;
  if (step == NULL) step = &at;
  *step = 1;
  HANDLE token;
  if (!OpenProcessToken(GetCurrentProcess(),
                        TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token))
    return GetLastError();
  TOKEN_PRIVILEGES tp;
  memset(&tp, 0, sizeof tp);
  tp.PrivilegeCount = 1;
  tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
  DWORD rc = ERROR_SUCCESS;
  *step = 2;
  if (!LookupPrivilegeValueW(NULL, name, &tp.Privileges[0].Luid)) {
    rc = GetLastError();
  } else {
    *step = 3;
    /* AdjustTokenPrivileges also "succeeds" without the privilege being
     * held; only GetLastError tells (ERROR_NOT_ALL_ASSIGNED). */
    (void)AdjustTokenPrivileges(token, FALSE, &tp, 0, NULL, NULL);
    rc = GetLastError();
  }
  CloseHandle(token);
  return rc;
}

static void format_guid(const GUID* g, char* out, size_t size) {
  snprintf(out, size, "%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
           (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0],
           g->Data4[1], g->Data4[2], g->Data4[3], g->Data4[4], g->Data4[5],
           g->Data4[6], g->Data4[7]);
}

/* The active power plan. Advisory: wine's powrprof is a stub (error 120),
 * and a failure leaves both fields empty, which reports show as unknown. */
static void read_power_scheme(iospd_sysinfo_t* out) {
  GUID* active = NULL;
  if (PowerGetActiveScheme(NULL, &active) != ERROR_SUCCESS || active == NULL)
    return;
  format_guid(active, out->power_scheme_guid, sizeof out->power_scheme_guid);
  WCHAR name[128];
  DWORD bytes = sizeof name;
  if (PowerReadFriendlyName(NULL, active, NULL, NULL, (UCHAR*)name, &bytes) ==
      ERROR_SUCCESS) {
    name[IOSPD_ARRAY_SIZE(name) - 1] = 0;
    iospd_win_wide_to_utf8(name, out->power_scheme_name,
                           sizeof out->power_scheme_name);
  }
  LocalFree(active);
}

int iospd_plat_init(iospd_sysinfo_t* out, iospd_err_t* err) {
  (void)err;
  iospd_win_once();
  if (out == NULL) return 0;
  memset(out, 0, sizeof *out);

  WCHAR name[256];
  DWORD len = (DWORD)IOSPD_ARRAY_SIZE(name);
  if (GetComputerNameExW(ComputerNameDnsHostname, name, &len) ||
      (len = (DWORD)IOSPD_ARRAY_SIZE(name), GetComputerNameW(name, &len)))
    iospd_win_wide_to_utf8(name, out->computer_name, sizeof out->computer_name);

  read_power_scheme(out);

  SYSTEM_INFO si;
  GetSystemInfo(&si);
  out->page_size = si.dwPageSize;
  out->ticks_per_second = iospd_win_qpc_freq;
  out->os_name = "windows";
  return 0;
}

void iospd_plat_shutdown(void) {
  /* The console handler and the interrupt event live as long as the process:
   * a Ctrl-C racing with shutdown must still find a valid event. */
}
