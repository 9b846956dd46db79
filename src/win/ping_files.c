/* SPDX-License-Identifier: MIT */
/* The files iospd --ping needs beyond a run's: the temporary file it probes in
 * a folder (telling a folder from a target is iospd_plat_path_kind). */
#include "win/internal.h"

#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"

int iospd_plat_temp_file_create(const char* dir, char* path, size_t size,
                                iospd_err_t* err) {
  /* Our own exclusive name rather than GetTempFileNameW, which refuses a
   * folder whose name passes MAX_PATH: "ipg<pid>-<n>.tmp", made with
   * CREATE_NEW so a name already taken is skipped, never reused. */
  size_t len = strlen(dir);
  const char* sep =
      len > 0 && (dir[len - 1] == '\\' || dir[len - 1] == '/') ? "" : "\\";
  DWORD pid = GetCurrentProcessId();
  for (unsigned n = 0; n < 1000; n++) {
    int k = snprintf(path, size, "%s%sipg%lx-%u.tmp", dir, sep,
                     (unsigned long)pid, n);
    if (k < 0 || (size_t)k >= size)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "the folder name '%s' is too long", dir);
    WCHAR* w;
    int wrc = iospd_win_path(path, &w, err);
    if (wrc != 0) return wrc;
    HANDLE h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD e = GetLastError();
    iospd_free(w);
    if (h != INVALID_HANDLE_VALUE) {
      CloseHandle(h);
      return 0;
    }
    if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS)
      return iospd_win_err(err, e, "cannot create a temporary file in '%s'",
                           dir);
  }
  return iospd_err_set(err, IOSPD_EEXIST,
                       "cannot create a temporary file in '%s': 1000 names "
                       "in a row are taken",
                       dir);
}
