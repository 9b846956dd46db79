/* SPDX-License-Identifier: MIT */
/* console.h's stream on Windows: WriteFile on a handle opened with a
 * UTF-16 path (long paths in the \\?\ form), so each row reaches the
 * system cache at once and outlives a killed process. Others may read the
 * file while it grows. */
#include "win/internal.h"

#include "iospd/alloc.h"
#include "iospd/console.h"

struct iospd_plat_stream_s {
  HANDLE h;
};

int iospd_plat_stream_create(const char* path, iospd_plat_stream_t** out,
                             iospd_err_t* err) {
  *out = NULL;
  WCHAR* w;
  int wrc = iospd_win_path(path, &w, err);
  if (wrc != 0) return wrc;
  /* Opened, not created over: a reparse point (a link someone planted)
   * is opened as itself and refused, and only a disk file is emptied. */
  HANDLE h = CreateFileW(w, GENERIC_WRITE,
                         FILE_SHARE_READ | FILE_SHARE_DELETE, NULL,
                         OPEN_ALWAYS,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT,
                         NULL);
  DWORD e = GetLastError();
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, e, "cannot create '%s'", path);
  BY_HANDLE_FILE_INFORMATION fi;
  if (GetFileType(h) == FILE_TYPE_DISK) {
    if (GetFileInformationByHandle(h, &fi) &&
        (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
      CloseHandle(h);
      return iospd_err_set(err, IOSPD_EINVAL,
                           "'%s' is a symbolic link or another reparse "
                           "point; iospd does not write through a link: name "
                           "the file it points to itself", path);
    }
    if (!SetEndOfFile(h)) { /* at offset 0: empty it */
      e = GetLastError();
      CloseHandle(h);
      return iospd_win_err(err, e, "cannot empty '%s'", path);
    }
  }
  iospd_plat_stream_t* s = iospd_calloc(1, sizeof(*s));
  if (s == NULL) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  s->h = h;
  *out = s;
  return 0;
}

int iospd_plat_stream_write(iospd_plat_stream_t* s, const void* data,
                            size_t len, iospd_err_t* err) {
  const char* p = data;
  while (len > 0) {
    DWORD chunk = len > 0x40000000u ? 0x40000000u : (DWORD)len;
    DWORD done = 0;
    if (!WriteFile(s->h, p, chunk, &done, NULL))
      return iospd_win_err(err, GetLastError(), "write failed");
    if (done == 0)
      return iospd_err_set(err, IOSPD_EIO, "write failed: nothing written");
    p += done;
    len -= done;
  }
  return 0;
}

int iospd_plat_stream_close(iospd_plat_stream_t* s, iospd_err_t* err) {
  if (s == NULL) return 0;
  int rc = 0;
  if (!CloseHandle(s->h))
    rc = iospd_win_err(err, GetLastError(), "close failed");
  iospd_free(s);
  return rc;
}
