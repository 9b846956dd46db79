/* SPDX-License-Identifier: MIT */
/* The file-tree mode's file-system calls (platform.h, "the file-tree
 * mode") on Win32. Paths are converted on the stack, never allocated: the
 * workers open and close files on their hot path.
 *
 * Sharing: every handle is opened with FILE_SHARE_READ | FILE_SHARE_WRITE |
 * FILE_SHARE_DELETE. MoveFileExW needs delete access to the source, which
 * Windows grants only if every open handle of the file shares delete; a
 * worker's handle without it would make --relocate fail. A rename of a file
 * open elsewhere without that sharing (another process: a virus scanner, an
 * indexer) fails with ERROR_SHARING_VIOLATION, which we return as
 * IOSPD_EAGAIN so the caller tries again later. */
#include <stdio.h>

#include "win/internal.h"

/* Names are converted into stack buffers (iospd_win_path_into, no
 * allocation: the workers call these between I/Os); a long path needs
 * room for its resolved form behind it. */
#define WPATH_MAX 8192

int iospd_plat_tree_open(const char* path, unsigned flags,
                         iospd_tree_fh_t* fh, iospd_err_t* err) {
  WCHAR w[WPATH_MAX];
  int rc = iospd_win_path_into(path, w, WPATH_MAX, err);
  if (rc < 0) return rc;
  DWORD access = GENERIC_READ;
  if (flags & IOSPD_TREE_OPEN_WRITE) access |= GENERIC_WRITE;
  /* FILE_FLAG_OPEN_REPARSE_POINT: a symbolic link (or any reparse point)
   * planted as a tree file is opened itself, not its target, and refused
   * below before any byte is read or written. */
  DWORD attrs = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT;
  if (flags & IOSPD_TREE_OPEN_UNBUFFERED) attrs |= FILE_FLAG_NO_BUFFERING;
  if (flags & IOSPD_TREE_OPEN_WRITE_THROUGH) attrs |= FILE_FLAG_WRITE_THROUGH;
  HANDLE h = CreateFileW(
      w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
      (flags & IOSPD_TREE_OPEN_CREATE) ? CREATE_NEW : OPEN_EXISTING, attrs,
      NULL);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, GetLastError(), "cannot %s '%s'",
                         (flags & IOSPD_TREE_OPEN_CREATE) ? "create" : "open",
                         path);
  FILE_ATTRIBUTE_TAG_INFO tag;
  if (GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag,
                                   sizeof tag) &&
      (tag.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_EUNSAFE,
                         "'%s' is a symbolic link or another reparse point "
                         "where a file of the tree belongs: iospd does not "
                         "follow links in a tree (it would read or write "
                         "the link's target); the link and its target were "
                         "left as they are. Remove the link",
                         path);
  }
  fh->h = (intptr_t)h;
  return 0;
}

/* A synchronous handle with an OVERLAPPED offset: the call waits and reads
 * or writes at that offset (the file pointer is not used). */
static int64_t rw(iospd_tree_fh_t fh, void* buf, uint32_t len,
                  uint64_t offset, bool write) {
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.Offset = (DWORD)offset;
  ov.OffsetHigh = (DWORD)(offset >> 32);
  DWORD done = 0;
  BOOL ok = write ? WriteFile((HANDLE)fh.h, buf, len, &done, &ov)
                  : ReadFile((HANDLE)fh.h, buf, len, &done, &ov);
  if (ok) return (int64_t)done;
  DWORD e = GetLastError();
  if (!write && e == ERROR_HANDLE_EOF) return 0;
  return iospd_win_translate(e);
}

int64_t iospd_plat_tree_read(iospd_tree_fh_t fh, void* buf, uint32_t len,
                             uint64_t offset) {
  return rw(fh, buf, len, offset, false);
}

int64_t iospd_plat_tree_write(iospd_tree_fh_t fh, const void* buf,
                              uint32_t len, uint64_t offset) {
  return rw(fh, (void*)buf, len, offset, true);
}

int iospd_plat_tree_close(iospd_tree_fh_t fh) {
  return CloseHandle((HANDLE)fh.h) ? 0 : iospd_win_translate(GetLastError());
}

int iospd_plat_mkdir(const char* path, iospd_err_t* err) {
  WCHAR w[WPATH_MAX];
  int rc = iospd_win_path_into(path, w, WPATH_MAX, err);
  if (rc < 0) return rc;
  if (CreateDirectoryW(w, NULL)) return 0;
  DWORD e = GetLastError();
  if (e == ERROR_ALREADY_EXISTS) {
    DWORD a = GetFileAttributesW(w);
    if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY))
      return IOSPD_EEXIST;
    return iospd_err_set(err, IOSPD_EEXIST,
                         "'%s' exists and is not a directory", path);
  }
  return iospd_win_err(err, e, "cannot create the directory '%s'", path);
}

int iospd_plat_rename_noreplace(const char* from, const char* to,
                                iospd_err_t* err) {
  WCHAR wf[WPATH_MAX], wt[WPATH_MAX];
  int rc = iospd_win_path_into(from, wf, WPATH_MAX, err);
  if (rc == 0) rc = iospd_win_path_into(to, wt, WPATH_MAX, err);
  if (rc < 0) return rc;
  /* No MOVEFILE_REPLACE_EXISTING: an existing destination fails
   * (ERROR_ALREADY_EXISTS). No MOVEFILE_COPY_ALLOWED: a move to another
   * volume fails (ERROR_NOT_SAME_DEVICE) instead of becoming a copy. */
  if (MoveFileExW(wf, wt, 0)) return 0;
  DWORD e = GetLastError();
  if (e == ERROR_SHARING_VIOLATION) {
    iospd_win_err(err, e, "cannot rename '%s' to '%s' now", from, to);
    if (err != NULL) err->code = IOSPD_EAGAIN;
    return IOSPD_EAGAIN;
  }
  return iospd_win_err(err, e, "cannot rename '%s' to '%s'", from, to);
}

int iospd_plat_remove_file(const char* path, iospd_err_t* err) {
  WCHAR w[WPATH_MAX];
  int rc = iospd_win_path_into(path, w, WPATH_MAX, err);
  if (rc < 0) return rc;
  if (DeleteFileW(w)) return 0;
  return iospd_win_err(err, GetLastError(), "cannot remove '%s'", path);
}

int iospd_plat_remove_dir(const char* path, iospd_err_t* err) {
  WCHAR w[WPATH_MAX];
  int rc = iospd_win_path_into(path, w, WPATH_MAX, err);
  if (rc < 0) return rc;
  if (RemoveDirectoryW(w)) return 0;
  return iospd_win_err(err, GetLastError(),
                       "cannot remove the directory '%s'", path);
}

int iospd_plat_path_kind(const char* path, int* kind, uint64_t* size,
                         iospd_err_t* err) {
  *kind = IOSPD_PATH_NONE;
  *size = 0;
  /* A raw disk or volume ("#N", "X:", "\\\\.\\...") is not a folder,
   * whatever the attribute call answers for its spelling ("X:" names the
   * current folder of drive X there). */
  if (iospd_win_spelled_kind(path) != IOSPD_WIN_SPELLED_FILE) {
    *kind = IOSPD_PATH_OTHER;
    return 0;
  }
  WCHAR w[WPATH_MAX];
  int rc = iospd_win_path_into(path, w, WPATH_MAX, err);
  if (rc < 0) return rc;
  WIN32_FILE_ATTRIBUTE_DATA d;
  if (!GetFileAttributesExW(w, GetFileExInfoStandard, &d)) {
    DWORD e = GetLastError();
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) return 0;
    return iospd_win_err(err, e, "cannot look at '%s'", path);
  }
  if (d.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
    /* A junction or a directory link is the directory (a --tree DIR may
     * be one). */
    *kind = IOSPD_PATH_DIR;
  } else if (d.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
    *kind = IOSPD_PATH_LINK;
  } else if (d.dwFileAttributes & FILE_ATTRIBUTE_DEVICE) {
    *kind = IOSPD_PATH_OTHER;
  } else {
    *kind = IOSPD_PATH_FILE;
    *size = ((uint64_t)d.nFileSizeHigh << 32) | d.nFileSizeLow;
  }
  return 0;
}
