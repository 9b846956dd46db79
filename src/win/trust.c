/* SPDX-License-Identifier: MIT */
/* What the warnings about misleading set-ups need from Windows
 * (iospd/warnings.h): available memory (GlobalMemoryStatusEx), a thread's
 * CPU time (GetThreadTimes) and sample reads of a target before the run. */
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"

uint64_t iospd_plat_mem_available(void) {
  MEMORYSTATUSEX ms;
  memset(&ms, 0, sizeof ms);
  ms.dwLength = sizeof ms;
  if (!GlobalMemoryStatusEx(&ms)) return 0;
  return (uint64_t)ms.ullAvailPhys;
}

static uint64_t ft64(FILETIME f) {
  return ((uint64_t)f.dwHighDateTime << 32) | f.dwLowDateTime;
}

uint64_t iospd_plat_thread_cpu_ns(void) {
  FILETIME c, e, k, u;
  if (!GetThreadTimes(GetCurrentThread(), &c, &e, &k, &u)) return 0;
  return (ft64(k) + ft64(u)) * 100u; /* 100 ns units */
}

uint64_t iospd_plat_process_cpu_ns(void) {
  FILETIME c, e, k, u;
  if (!GetProcessTimes(GetCurrentProcess(), &c, &e, &k, &u)) return 0;
  return (ft64(k) + ft64(u)) * 100u; /* 100 ns units */
}

bool iospd_plat_thread_cpu_split(uint64_t* user_ns, uint64_t* sys_ns) {
  FILETIME c, e, k, u;
  *user_ns = *sys_ns = 0;
  if (!GetThreadTimes(GetCurrentThread(), &c, &e, &k, &u)) return false;
  *user_ns = ft64(u) * 100u;
  *sys_ns = ft64(k) * 100u;
  return true;
}

/* A handle opened without FILE_FLAG_OVERLAPPED reads synchronously at the
 * OVERLAPPED's offset. Volumes and disks need sector-multiple offsets and
 * lengths even when buffered; the caller gives multiples of 4096. */
int iospd_plat_read_samples(const char* path, const uint64_t* offsets,
                            uint32_t n, uint32_t len, uint8_t* buf,
                            uint32_t* got, iospd_err_t* err) {
  *got = 0;
  WCHAR* w = NULL;
  bool dev = false;
  int rc = iospd_win_target_path(path, &w, &dev, err);
  if (rc) return rc;
  HANDLE h = CreateFileW(w, GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, 0, NULL);
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, GetLastError(), "cannot open '%s'", path);
  for (uint32_t i = 0; i < n; i++) {
    OVERLAPPED o;
    memset(&o, 0, sizeof o);
    o.Offset = (DWORD)offsets[i];
    o.OffsetHigh = (DWORD)(offsets[i] >> 32);
    DWORD r = 0;
    if (!ReadFile(h, buf + (size_t)i * len, len, &r, &o)) {
      DWORD e = GetLastError();
      if (e != ERROR_HANDLE_EOF)
        rc = iospd_win_err(err, e, "cannot read '%s'", path);
      break;
    }
    if (r < len) break;
    (*got)++;
  }
  CloseHandle(h);
  return rc;
}
