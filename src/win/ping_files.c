/* SPDX-License-Identifier: MIT */
/* The files iospd --ping needs beyond a run's: telling a folder from a
 * target, and the temporary file it probes in a folder. */
#include "win/internal.h"

#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"

bool iospd_plat_is_directory(const char* path) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  if (w == NULL) return false;
  DWORD a = GetFileAttributesW(w);
  iospd_free(w);
  /* A raw disk or volume ("\\.\X:", "#N") is not a folder, whatever the
   * attribute call answers for its spelling. */
  return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY) &&
         iospd_win_spelled_kind(path) == IOSPD_WIN_SPELLED_FILE;
}

int iospd_plat_temp_file_create(const char* dir, char* path, size_t size,
                                iospd_err_t* err) {
  WCHAR* w = iospd_win_utf8_to_wide(dir);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "the folder name '%s' is not valid UTF-8", dir);
  /* GetTempFileNameW with uUnique 0 creates the file (CREATE_NEW, so a
   * name already taken is skipped) and closes it; the path it returns
   * fits MAX_PATH. */
  WCHAR name[MAX_PATH + 1];
  UINT u = GetTempFileNameW(w, L"ipg", 0, name);
  DWORD e = GetLastError();
  iospd_free(w);
  if (u == 0)
    return iospd_win_err(err, e, "cannot create a temporary file in '%s'",
                         dir);
  if (iospd_win_wide_to_utf8(name, path, size) < 0) {
    DeleteFileW(name);
    return iospd_err_set(err, IOSPD_EINVAL,
                         "the temporary file's name in '%s' is too long", dir);
  }
  return 0;
}

int iospd_plat_file_remove(const char* path, iospd_err_t* err) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "the name '%s' is not valid UTF-8",
                         path);
  BOOL ok = DeleteFileW(w);
  DWORD e = GetLastError();
  iospd_free(w);
  if (!ok) return iospd_win_err(err, e, "cannot remove '%s'", path);
  return 0;
}
