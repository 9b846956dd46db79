/* SPDX-License-Identifier: MIT */
/* Shared file mappings (iospd_plat_map_*, platform.h): the --verify state
 * file. CreateFileMappingW + MapViewOfFile: stores are plain memory stores;
 * the memory manager writes modified pages of a file-backed view back even
 * after TerminateProcess. A mapping of an empty file fails
 * (ERROR_FILE_INVALID), so an empty file is refused first. FlushViewOfFile
 * only starts the write-back and leaves the metadata: FlushFileBuffers
 * follows it. IOSPD_MAP_LOCK opens without FILE_SHARE_WRITE, so a second
 * run's open fails with a sharing violation. */
#include "iospd/alloc.h"
#include "win/internal.h"

struct iospd_plat_map_s {
  HANDLE file, section;
  void* addr;
  uint64_t len;
};

int iospd_plat_map_open(const char* path, uint64_t size, unsigned flags,
                        iospd_plat_map_t** m, void** addr, uint64_t* len,
                        bool* created, iospd_err_t* err) {
  *m = NULL;
  *addr = NULL;
  *len = 0;
  *created = false;
  WCHAR* w = iospd_win_utf8_to_wide(path);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s' is not a valid name", path);
  DWORD share = FILE_SHARE_READ | FILE_SHARE_DELETE;
  if (!(flags & IOSPD_MAP_LOCK)) share |= FILE_SHARE_WRITE;
  HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, share, NULL,
                         (flags & IOSPD_MAP_CREATE) ? OPEN_ALWAYS
                                                    : OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL, NULL);
  DWORD code = GetLastError();
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE) {
    if (code == ERROR_SHARING_VIOLATION)
      return iospd_err_set(err, IOSPD_EAGAIN,
                           "'%s' is in use by another iospd run", path);
    return iospd_win_err(err, code, "cannot open '%s'", path);
  }
  /* OPEN_ALWAYS reports ERROR_ALREADY_EXISTS when the file was there. */
  bool made = (flags & IOSPD_MAP_CREATE) && code != ERROR_ALREADY_EXISTS;
  if (made || (flags & IOSPD_MAP_RESET)) {
    FILE_END_OF_FILE_INFO eof;
    eof.EndOfFile.QuadPart = 0;
    BOOL ok = size > 0 &&
              SetFileInformationByHandle(h, FileEndOfFileInfo, &eof,
                                         sizeof eof);
    eof.EndOfFile.QuadPart = (LONGLONG)size;
    ok = ok && SetFileInformationByHandle(h, FileEndOfFileInfo, &eof,
                                          sizeof eof);
    if (!ok) {
      DWORD e = size == 0 ? ERROR_INVALID_PARAMETER : GetLastError();
      CloseHandle(h);
      return iospd_win_err(err, e, "cannot size '%s' to %llu bytes", path,
                           (unsigned long long)size);
    }
    made = true;
  }
  LARGE_INTEGER fsz;
  if (!GetFileSizeEx(h, &fsz)) {
    DWORD e = GetLastError();
    CloseHandle(h);
    return iospd_win_err(err, e, "cannot read the size of '%s'", path);
  }
  if (fsz.QuadPart <= 0 || (uint64_t)fsz.QuadPart > (uint64_t)SIZE_MAX) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_ETOOSMALL, "'%s' is empty or too large "
                         "to map", path);
  }
  HANDLE sec = CreateFileMappingW(h, NULL, PAGE_READWRITE, 0, 0, NULL);
  if (sec == NULL) {
    DWORD e = GetLastError();
    CloseHandle(h);
    return iospd_win_err(err, e, "cannot map '%s'", path);
  }
  void* p = MapViewOfFile(sec, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
  if (p == NULL) {
    DWORD e = GetLastError();
    CloseHandle(sec);
    CloseHandle(h);
    return iospd_win_err(err, e, "cannot map a view of '%s'", path);
  }
  iospd_plat_map_t* r = iospd_calloc(1, sizeof(*r));
  if (r == NULL) {
    UnmapViewOfFile(p);
    CloseHandle(sec);
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  r->file = h;
  r->section = sec;
  r->addr = p;
  r->len = (uint64_t)fsz.QuadPart;
  *m = r;
  *addr = p;
  *len = r->len;
  *created = made;
  return 0;
}

int iospd_plat_map_flush(iospd_plat_map_t* m, iospd_err_t* err) {
  if (m == NULL) return 0;
  if (!FlushViewOfFile(m->addr, 0) || !FlushFileBuffers(m->file))
    return iospd_win_err(err, GetLastError(),
                         "cannot write the state file back");
  return 0;
}

void iospd_plat_map_close(iospd_plat_map_t* m) {
  if (m == NULL) return;
  UnmapViewOfFile(m->addr);
  CloseHandle(m->section);
  CloseHandle(m->file);
  iospd_free(m);
}

uint64_t iospd_plat_unix_ns(void) {
  FILETIME ft;
  GetSystemTimeAsFileTime(&ft);
  uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
  /* 100 ns units since 1601-01-01 -> ns since 1970-01-01. */
  return (t - 116444736000000000ull) * 100u;
}
