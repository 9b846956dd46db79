/* SPDX-License-Identifier: MIT */
/* -c over a symbolic link (issue #26). create.c builds the new file as a
 * side copy and moves it over the old name; on a link that move replaces
 * the link itself with a regular file in the link's folder (possibly on
 * another volume) and leaves the real target as it was, so every later
 * run measures the wrong volume. Linux and DISKSPD write through the
 * link. Here the name is resolved first: a handle that follows the link
 * and GetFinalPathNameByHandleW give the target's final path, and the
 * copy is made beside that. A dangling link is refused: creating its
 * target would be a guess at where the user meant the file to be. */
#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

void (*iospd_win_link_probe_hook)(const WCHAR* w, iospd_win_link_t* out);

void iospd_win_link_probe(const WCHAR* w, iospd_win_link_t* out) {
  memset(out, 0, sizeof *out);
  if (iospd_win_link_probe_hook != NULL) {
    iospd_win_link_probe_hook(w, out);
    return;
  }
  DWORD attr = GetFileAttributesW(w);
  if (attr == INVALID_FILE_ATTRIBUTES ||
      !(attr & FILE_ATTRIBUTE_REPARSE_POINT) ||
      (attr & FILE_ATTRIBUTE_DIRECTORY))
    return; /* missing, a plain file, or a folder (look_at_old says so) */
  out->is_link = true;
  HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    out->open_error = GetLastError();
    return;
  }
  DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED);
  WCHAR* f = n ? iospd_malloc(((size_t)n + 1) * sizeof(WCHAR)) : NULL;
  DWORD got = f ? GetFinalPathNameByHandleW(h, f, n + 1, FILE_NAME_NORMALIZED)
                : 0;
  if (f == NULL || got == 0 || got > n) {
    out->open_error = f == NULL ? ERROR_NOT_ENOUGH_MEMORY : GetLastError();
    if (out->open_error == 0) out->open_error = ERROR_INVALID_NAME;
    iospd_free(f);
  } else {
    out->final = f;
  }
  CloseHandle(h);
}

static WCHAR* wdup(const WCHAR* w) {
  size_t n = wcslen(w) + 1;
  WCHAR* d = iospd_malloc(n * sizeof(WCHAR));
  if (d != NULL) memcpy(d, w, n * sizeof(WCHAR));
  return d;
}

int iospd_win_create_name(const char* path, const WCHAR* w,
                          const iospd_win_link_t* link, WCHAR** out,
                          iospd_err_t* err) {
  *out = NULL;
  const WCHAR* name = w;
  if (link->is_link) {
    DWORD e = link->open_error;
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
      return iospd_err_set_os(
          err, IOSPD_ENOENT, (int64_t)e,
          "'%s' is a symbolic link to a file that does not exist; -c "
          "creates through a link only when its target exists: create the "
          "target, or name the file itself",
          path);
    if (e != 0)
      return iospd_win_err(err, e,
                           "'%s' is a symbolic link, and its target cannot "
                           "be opened to find where it is (-c replaces the "
                           "target, never the link)",
                           path);
    if (link->final == NULL || link->final[0] == 0)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "'%s' is a symbolic link whose target has no "
                           "final path; name the file itself",
                           path);
    name = link->final;
  }
  *out = wdup(name);
  if (*out == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory creating '%s'",
                         path);
  return 0;
}
