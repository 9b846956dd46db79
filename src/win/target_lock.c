/* SPDX-License-Identifier: MIT */
/* The lock on a verified target's identity (iospd_plat_target_lock,
 * platform.h): a byte-range lock (LockFileEx, exclusive, fail at once) on
 * the byte at offset 2^63 - 2 of a handle of the target. A byte-range lock
 * belongs to the file, not to the name it was opened by, so a symbolic or
 * hard link to the file meets it; Windows drops it when the process ends,
 * even by TerminateProcess; and it spans sessions, which a named mutex
 * (from the volume serial and file id) would only in the Global namespace,
 * whose creation needs SeCreateGlobalPrivilege. The byte is beyond any
 * offset iospd reads or writes (offsets are below 2^63 and a file this
 * large cannot exist), so the lock never blocks the run's own I/O. A
 * device whose driver has no byte-range locks goes unlocked (the state
 * file's own lock still holds one run per state file). */
#include <string.h>
#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

struct iospd_plat_tlock_s {
  HANDLE h;
};

int iospd_plat_target_lock(const char* path, iospd_plat_tlock_t** lk,
                           iospd_err_t* err) {
  *lk = NULL;
  WCHAR* w = NULL;
  bool is_device = false;
  int rc = iospd_win_target_path(path, &w, &is_device, err);
  if (rc < 0) return rc;
  /* Read access only, and every share mode: the engine's own opens of the
   * target are not disturbed. */
  HANDLE h = CreateFileW(w, GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  DWORD code = GetLastError();
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, code, "cannot open '%s'", path);
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.Offset = 0xFFFFFFFEu;
  ov.OffsetHigh = 0x7FFFFFFFu;
  if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0,
                  1, 0, &ov)) {
    code = GetLastError();
    if (code == ERROR_LOCK_VIOLATION || code == ERROR_IO_PENDING) {
      CloseHandle(h);
      return iospd_err_set(err, IOSPD_EAGAIN, "'%s' is locked", path);
    }
    if (!is_device) {
      CloseHandle(h);
      return iospd_win_err(err, code, "cannot lock '%s'", path);
    }
  }
  iospd_plat_tlock_t* r = iospd_calloc(1, sizeof(*r));
  if (r == NULL) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  r->h = h;
  *lk = r;
  return 0;
}

void iospd_plat_target_unlock(iospd_plat_tlock_t* lk) {
  if (lk == NULL) return;
  CloseHandle(lk->h); /* the lock goes with the handle */
  iospd_free(lk);
}

char* iospd_plat_final_path(const char* path) {
  WCHAR* w;
  if (iospd_win_path(path, &w, NULL) != 0) return NULL;
  DWORD attr = GetFileAttributesW(w);
  if (attr == INVALID_FILE_ATTRIBUTES ||
      !(attr & FILE_ATTRIBUTE_REPARSE_POINT)) {
    iospd_free(w);
    return NULL;
  }
  HANDLE h = CreateFileW(w, 0,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE) return NULL;
  DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED);
  WCHAR* f = n > 0 ? iospd_malloc((size_t)(n + 1) * sizeof(WCHAR)) : NULL;
  if (f != NULL &&
      GetFinalPathNameByHandleW(h, f, n + 1, FILE_NAME_NORMALIZED) == 0) {
    iospd_free(f);
    f = NULL;
  }
  CloseHandle(h);
  if (f == NULL) return NULL;
  /* \\?\C:\x -> C:\x and \\?\UNC\s\x -> \\s\x; other forms as they are. */
  const WCHAR* p = f;
  if (wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
    p += 6;
    f[6] = L'\\';
  } else if (wcsncmp(p, L"\\\\?\\", 4) == 0 && p[4] != 0 && p[5] == L':') {
    p += 4;
  }
  size_t cap = wcslen(p) * 3 + 1;
  char* out = iospd_malloc(cap);
  if (out != NULL && iospd_win_wide_to_utf8(p, out, cap) < 0) {
    iospd_free(out);
    out = NULL;
  }
  iospd_free(f);
  return out;
}
