/* SPDX-License-Identifier: MIT */
/* Shared file mappings (iospd_plat_map_*, platform.h): the --verify state
 * file. CreateFileMappingW + MapViewOfFile: stores are plain memory stores;
 * the memory manager writes modified pages of a file-backed view back even
 * after TerminateProcess. A mapping of an empty file fails
 * (ERROR_FILE_INVALID), so an empty file is refused first. FlushViewOfFile
 * only starts the write-back and leaves the metadata: FlushFileBuffers
 * follows it. IOSPD_MAP_LOCK opens without FILE_SHARE_WRITE, so a second
 * run's open fails with a sharing violation.
 *
 * Nothing here truncates or resizes a file it did not make: an existing
 * file is opened as it is, with FILE_FLAG_OPEN_REPARSE_POINT so that a
 * symbolic link or junction planted under the name is opened itself (and
 * refused), not followed. A new file is made under a unique temporary name
 * (CREATE_NEW), its allocation reserved, and renamed to its final name with
 * MoveFileExW without MOVEFILE_REPLACE_EXISTING, which never replaces a
 * file. A section keeps the file from shrinking below the view (a
 * truncation by another process fails with ERROR_USER_MAPPED_FILE), so a
 * view is never lost here. */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

struct iospd_plat_map_s {
  HANDLE file, section;
  void* addr;
  uint64_t len;
  WCHAR* tmp; /* the temporary name until published, else NULL */
};

/* The wide form of a state path (iospd_win_path: long paths too). */
static WCHAR* wide_path(const char* path) {
  WCHAR* w;
  return iospd_win_path(path, &w, NULL) == 0 ? w : NULL;
}

/* Maps an open handle of len bytes into a new iospd_plat_map_t; closes the
 * handle on failure. */
static int wrap(HANDLE h, uint64_t len, WCHAR* tmp, const char* path,
                iospd_plat_map_t** m, void** addr, iospd_err_t* err) {
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
  r->len = len;
  r->tmp = tmp;
  *m = r;
  *addr = p;
  return 0;
}

int iospd_plat_map_open(const char* path, unsigned flags,
                        iospd_plat_map_t** m, void** addr, uint64_t* len,
                        iospd_err_t* err) {
  *m = NULL;
  *addr = NULL;
  *len = 0;
  WCHAR* w = wide_path(path);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s' is not a valid name", path);
  DWORD share = FILE_SHARE_READ | FILE_SHARE_DELETE;
  if (!(flags & IOSPD_MAP_LOCK)) share |= FILE_SHARE_WRITE;
  HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, share, NULL,
                         OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT,
                         NULL);
  DWORD code = GetLastError();
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE) {
    if (code == ERROR_SHARING_VIOLATION)
      return iospd_err_set(err, IOSPD_EAGAIN,
                           "'%s' is in use by another iospd run", path);
    return iospd_win_err(err, code, "cannot open '%s'", path);
  }
  BY_HANDLE_FILE_INFORMATION fi;
  if (!GetFileInformationByHandle(h, &fi)) {
    DWORD e = GetLastError();
    CloseHandle(h);
    return iospd_win_err(err, e, "cannot look at '%s'", path);
  }
  if (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_EUNSAFE,
                         "'%s' is a symbolic link or junction (a reparse "
                         "point): iospd does not follow one to a state file "
                         "(name the file itself)", path);
  }
  if ((fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ||
      GetFileType(h) != FILE_TYPE_DISK) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_EUNSAFE, "'%s' is not a regular file",
                         path);
  }
  uint64_t size = ((uint64_t)fi.nFileSizeHigh << 32) | fi.nFileSizeLow;
  if (size == 0 || size > (uint64_t)SIZE_MAX) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_ETOOSMALL,
                         size == 0 ? "'%s' is empty" : "'%s' is too large "
                         "to map", path);
  }
  int rc = wrap(h, size, NULL, path, m, addr, err);
  if (rc == 0) *len = size;
  return rc;
}

int iospd_plat_map_create(const char* path, uint64_t size,
                          iospd_plat_map_t** m, void** addr,
                          iospd_err_t* err) {
  *m = NULL;
  *addr = NULL;
  if (size == 0 || size > (uint64_t)SIZE_MAX / 2)
    return iospd_err_set(err, IOSPD_EINVAL, "cannot size '%s' to %llu bytes",
                         path, (unsigned long long)size);
  WCHAR* w = wide_path(path);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s' is not a valid name", path);
  size_t n = wcslen(w);
  WCHAR* tmp = iospd_malloc((n + 32) * sizeof(WCHAR));
  if (tmp == NULL) {
    iospd_free(w);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  static volatile LONG s_count;
  HANDLE h = INVALID_HANDLE_VALUE;
  DWORD code = 0;
  for (int i = 0; i < 100 && h == INVALID_HANDLE_VALUE; i++) {
    swprintf(tmp, n + 32, L"%ls.tmp-%lx-%lx", w,
               (unsigned long)GetCurrentProcessId(),
               (unsigned long)InterlockedIncrement(&s_count));
    tmp[n + 31] = 0;
    h = CreateFileW(tmp, GENERIC_READ | GENERIC_WRITE,
                    FILE_SHARE_READ | FILE_SHARE_DELETE, NULL, CREATE_NEW,
                    FILE_ATTRIBUTE_NORMAL, NULL);
    code = GetLastError();
    if (h == INVALID_HANDLE_VALUE && code != ERROR_FILE_EXISTS) break;
  }
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE) {
    iospd_free(tmp);
    return iospd_win_err(err, code, "cannot create a file beside '%s'", path);
  }
  /* Reserve every block now (the allocation size), then set the end. */
  FILE_ALLOCATION_INFO alloc;
  alloc.AllocationSize.QuadPart = (LONGLONG)size;
  FILE_END_OF_FILE_INFO eof;
  eof.EndOfFile.QuadPart = (LONGLONG)size;
  int rc = 0;
  BOOL ok = SetFileInformationByHandle(h, FileAllocationInfo, &alloc,
                                       sizeof alloc);
  /* A file system (or wine) without allocation sizes: the end of file
   * alone, as before. */
  if (!ok && (GetLastError() == ERROR_CALL_NOT_IMPLEMENTED ||
              GetLastError() == ERROR_NOT_SUPPORTED ||
              GetLastError() == ERROR_INVALID_FUNCTION))
    ok = TRUE;
  ok = ok && SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof);
  if (!ok) {
    DWORD e = GetLastError();
    if (e == ERROR_DISK_FULL || e == ERROR_HANDLE_DISK_FULL)
      rc = iospd_err_set(err, IOSPD_ENOSPC,
                         "the file system of '%s' has no room for its "
                         "%llu bytes", path, (unsigned long long)size);
    else
      rc = iospd_win_err(err, e, "cannot size '%s' to %llu bytes", path,
                         (unsigned long long)size);
    CloseHandle(h);
  }
  if (rc == 0) rc = wrap(h, size, tmp, path, m, addr, err);
  if (rc < 0) {
    DeleteFileW(tmp);
    iospd_free(tmp);
  }
  return rc;
}

int iospd_plat_map_publish(iospd_plat_map_t* m, const char* path,
                           bool replace_empty, iospd_err_t* err) {
  if (m == NULL || m->tmp == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s': nothing to publish", path);
  WCHAR* w = wide_path(path);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s' is not a valid name", path);
  BOOL ok = MoveFileExW(m->tmp, w, 0);
  DWORD code = ok ? 0 : GetLastError();
  if (!ok && (code == ERROR_ALREADY_EXISTS || code == ERROR_FILE_EXISTS)) {
    WIN32_FILE_ATTRIBUTE_DATA a;
    if (replace_empty && GetFileAttributesExW(w, GetFileExInfoStandard, &a) &&
        !(a.dwFileAttributes &
          (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) &&
        a.nFileSizeHigh == 0 && a.nFileSizeLow == 0) {
      /* Replaces only the empty file seen just now: no history in it. */
      ok = MoveFileExW(m->tmp, w, MOVEFILE_REPLACE_EXISTING);
      code = ok ? 0 : GetLastError();
    } else {
      iospd_free(w);
      return iospd_err_set(err, IOSPD_EEXIST, "'%s' exists", path);
    }
  }
  iospd_free(w);
  if (!ok) return iospd_win_err(err, code, "cannot create '%s'", path);
  iospd_free(m->tmp);
  m->tmp = NULL;
  return 0;
}

bool iospd_plat_map_lost(const iospd_plat_map_t* m) {
  (void)m;
  return false;
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
  if (m->tmp != NULL) DeleteFileW(m->tmp);
  iospd_free(m->tmp);
  iospd_free(m);
}

uint64_t iospd_plat_unix_ns(void) {
  FILETIME ft;
  GetSystemTimeAsFileTime(&ft);
  uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
  /* 100 ns units since 1601-01-01 -> ns since 1970-01-01. */
  return (t - 116444736000000000ull) * 100u;
}
