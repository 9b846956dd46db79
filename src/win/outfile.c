/* SPDX-License-Identifier: MIT */
/* Report files on Windows (--output, --timeseries): is a path the same file
 * as a target, can a report be written there, and writing one, whole or
 * in pieces (a new <path>.<pid>-<n>.tmp made with CREATE_NEW,
 * FlushFileBuffers, MoveFileEx with replace), with CRLF line ends as
 * iospd's standard output has them. */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "win/internal.h"

/* The full (extended-length when long) wide form of a report path; NULL on
 * a device name ("#1", "X:", \\.\...) or a bad path. */
static WCHAR* file_path(const char* utf8, iospd_err_t* err) {
  WCHAR* w = NULL;
  bool device = false;
  if (iospd_win_target_path(utf8, &w, &device, err) != 0) return NULL;
  if (device) {
    iospd_free(w);
    iospd_err_set(err, IOSPD_EINVAL, "it names a disk or a volume, not a file");
    return NULL;
  }
  return w;
}

/* The identity of an existing file: volume serial and 128-bit file id
 * (FileIdInfo: ReFS, the file system of Storage Spaces Direct volumes,
 * has 128-bit ids that the 64-bit nFileIndex of GetFileInformationByHandle
 * does not hold), or the 64-bit index where FileIdInfo is not answered
 * (before Windows 8, some redirectors). false if the file cannot be
 * opened (absent, or no access even to its attributes). */
typedef struct {
  uint64_t volume;
  unsigned char id[16];
} file_id_t;

/* FILE_ID_INFO and its class (Windows 8+), hidden by _WIN32_WINNT=0x0601:
 * declared here; Windows 7 refuses the class and the 64-bit index serves. */
typedef struct {
  ULONGLONG VolumeSerialNumber;
  BYTE FileId[16];
} iospd_file_id_info_t;
#define IOSPD_FILE_ID_INFO_CLASS ((FILE_INFO_BY_HANDLE_CLASS)18)

static bool file_id(const char* utf8, file_id_t* out) {
  WCHAR* w = NULL;
  bool device = false;
  if (iospd_win_target_path(utf8, &w, &device, NULL) != 0) return false;
  /* No access rights: only the identity is read; folders need the backup
   * flag to be opened at all. */
  HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE |
                         FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                         FILE_FLAG_BACKUP_SEMANTICS, NULL);
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE) return false;
  memset(out, 0, sizeof *out);
  iospd_file_id_info_t fi;
  BY_HANDLE_FILE_INFORMATION bi;
  bool ok = true;
  if (GetFileInformationByHandleEx(h, IOSPD_FILE_ID_INFO_CLASS, &fi, sizeof fi)) {
    out->volume = fi.VolumeSerialNumber;
    memcpy(out->id, fi.FileId, sizeof out->id);
  } else if (GetFileInformationByHandle(h, &bi)) {
    out->volume = bi.dwVolumeSerialNumber;
    uint64_t index = (uint64_t)bi.nFileIndexHigh << 32 | bi.nFileIndexLow;
    memcpy(out->id, &index, sizeof index);
  } else {
    ok = false;
  }
  CloseHandle(h);
  return ok;
}

bool iospd_plat_same_file(const char* a, const char* b) {
  /* Names first: resolves relative paths, '/', "..", case. */
  if (iospd_plat_same_path(a, b)) return true;
  file_id_t ia, ib;
  if (!file_id(a, &ia) || !file_id(b, &ib)) return false;
  /* Hard links and other names of one file (8.3 names, junctions). */
  return ia.volume == ib.volume && memcmp(ia.id, ib.id, sizeof ia.id) == 0;
}

/* A new temporary file beside w, "<w>.<pid>-<n>.tmp", created with
 * CREATE_NEW (never opening a file or link someone planted there: a taken
 * name is skipped). Returns the handle and the name (free with iospd_free),
 * or INVALID_HANDLE_VALUE with GetLastError set. */
static HANDLE new_tmp(const WCHAR* w, DWORD access, DWORD attrs, WCHAR** out) {
  static volatile LONG serial;
  size_t n = wcslen(w);
  WCHAR* t = iospd_malloc((n + 40) * sizeof(WCHAR));
  *out = NULL;
  if (t == NULL) {
    SetLastError(ERROR_NOT_ENOUGH_MEMORY);
    return INVALID_HANDLE_VALUE;
  }
  for (int tries = 0; tries < 100; tries++) {
    _snwprintf(t, n + 40, L"%ls.%lu-%ld.tmp", w,
               (unsigned long)GetCurrentProcessId(),
               (long)InterlockedIncrement(&serial));
    t[n + 39] = L'\0';
    HANDLE h = CreateFileW(t, access, 0, NULL, CREATE_NEW, attrs, NULL);
    if (h != INVALID_HANDLE_VALUE) {
      *out = t;
      return h;
    }
    DWORD e = GetLastError();
    if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS) {
      iospd_free(t);
      SetLastError(e);
      return INVALID_HANDLE_VALUE;
    }
  }
  iospd_free(t);
  SetLastError(ERROR_FILE_EXISTS);
  return INVALID_HANDLE_VALUE;
}

/* A final name that is a reparse point (a symbolic link, a junction) is
 * refused: iospd never writes through a link someone may have planted. */
static int refuse_reparse(const WCHAR* w, iospd_err_t* err) {
  DWORD attr = GetFileAttributesW(w);
  if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_REPARSE_POINT))
    return iospd_err_set(err, IOSPD_EINVAL,
                         "it is a symbolic link or another reparse point; "
                         "iospd does not write through a link: name the "
                         "file it points to itself");
  return 0;
}

int iospd_plat_output_probe(const char* path, iospd_err_t* err) {
  WCHAR* w = file_path(path, err);
  if (w == NULL) return err != NULL && err->code ? err->code : IOSPD_EINVAL;
  int rc = 0;
  WCHAR* tmp = NULL;
  DWORD attr = GetFileAttributesW(w);
  if ((rc = refuse_reparse(w, err)) != 0) goto out;
  if (attr != INVALID_FILE_ATTRIBUTES) {
    if (attr & FILE_ATTRIBUTE_DIRECTORY) {
      rc = iospd_err_set(err, IOSPD_EINVAL, "it is a folder, not a file");
      goto out;
    }
    /* Opened for writing, never truncated (OPEN_EXISTING): unchanged. A
     * read-only file fails here, as MoveFileEx would fail to replace it. */
    HANDLE h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ |
                           FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
      rc = iospd_win_err(err, GetLastError(), "the file cannot be written");
      goto out;
    }
    CloseHandle(h);
  } else {
    DWORD e = GetLastError();
    if (e != ERROR_FILE_NOT_FOUND && e != ERROR_PATH_NOT_FOUND) {
      rc = iospd_win_err(err, e, "the path cannot be used");
      goto out;
    }
  }
  /* A new temporary file proves the folder exists and may be written; it
   * removes itself when closed (delete on close). */
  HANDLE h = new_tmp(w, GENERIC_WRITE | DELETE,
                     FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE,
                     &tmp);
  if (h != INVALID_HANDLE_VALUE) {
    CloseHandle(h);
    DeleteFileW(tmp); /* in case the flag was not honoured */
    goto out;
  }
  DWORD e = GetLastError();
  if (e == ERROR_PATH_NOT_FOUND)
    rc = iospd_err_set(err, IOSPD_ENOENT, "its folder does not exist");
  else
    rc = iospd_win_err(err, e, "no file can be created in its folder");
out:
  iospd_free(tmp);
  iospd_free(w);
  return rc;
}

/* A report being written in pieces (iospd/platform.h): always to a new
 * temporary file beside the final name, moved over it at the end. */
struct iospd_plat_outfile_s {
  char* path; /* as given, for messages */
  WCHAR* w;   /* its wide form */
  WCHAR* tmp;
  HANDLE h;
  bool crlf;  /* every \n written as \r\n (text reports) */
  int failed; /* the first write's failure, repeated by publish */
};

static void outfile_free(iospd_plat_outfile_t* f) {
  if (f->h != INVALID_HANDLE_VALUE) CloseHandle(f->h);
  iospd_free(f->tmp);
  iospd_free(f->w);
  iospd_free(f->path);
  iospd_free(f);
}

int iospd_plat_outfile_open(const char* path, bool text,
                            iospd_plat_outfile_t** out, iospd_err_t* err) {
  *out = NULL;
  iospd_plat_outfile_t* f = iospd_calloc(1, sizeof *f);
  if (f == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  f->h = INVALID_HANDLE_VALUE;
  f->crlf = text;
  if ((f->path = iospd_strdup(path)) == NULL) {
    outfile_free(f);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  f->w = file_path(path, err);
  if (f->w == NULL) {
    outfile_free(f);
    return err != NULL && err->code ? err->code : IOSPD_EINVAL;
  }
  int rc = refuse_reparse(f->w, err);
  if (rc == 0) {
    f->h = new_tmp(f->w, GENERIC_WRITE, FILE_ATTRIBUTE_NORMAL, &f->tmp);
    if (f->h == INVALID_HANDLE_VALUE)
      rc = iospd_win_err(err, GetLastError(),
                         "a temporary file beside '%s' cannot be created",
                         path);
  }
  if (rc != 0) {
    outfile_free(f);
    return rc;
  }
  *out = f;
  return 0;
}

/* All len bytes to the temporary file; 0 or the error. */
static int write_raw(iospd_plat_outfile_t* f, const char* p, size_t len,
                     iospd_err_t* err) {
  size_t done = 0;
  while (done < len) {
    DWORD chunk = len - done > 0x40000000u ? 0x40000000u : (DWORD)(len - done);
    DWORD wrote = 0;
    if (!WriteFile(f->h, p + done, chunk, &wrote, NULL) || wrote == 0)
      return iospd_win_err(err, GetLastError(),
                           "the temporary file of '%s' cannot be written",
                           f->path);
    done += wrote;
  }
  return 0;
}

int iospd_plat_outfile_write(iospd_plat_outfile_t* f, const void* data,
                             size_t len, iospd_err_t* err) {
  if (f->failed != 0) return f->failed;
  const char* p = data;
  if (!f->crlf) {
    f->failed = write_raw(f, p, len, err);
    return f->failed;
  }
  /* Line ends as iospd's standard output has them on Windows (the C
   * runtime's text mode: every \n written as \r\n), so a report file is
   * byte for byte what `iospd ... > file` gives; converted through a
   * small buffer, whatever the size of the piece. */
  char buf[8192];
  size_t k = 0;
  for (size_t i = 0; i < len && f->failed == 0; i++) {
    if (k + 2 > sizeof buf) {
      f->failed = write_raw(f, buf, k, err);
      k = 0;
    }
    if (p[i] == '\n') buf[k++] = '\r';
    buf[k++] = p[i];
  }
  if (f->failed == 0 && k > 0) f->failed = write_raw(f, buf, k, err);
  return f->failed;
}

void iospd_plat_outfile_abandon(iospd_plat_outfile_t* f) {
  if (f == NULL) return;
  CloseHandle(f->h);
  f->h = INVALID_HANDLE_VALUE;
  DeleteFileW(f->tmp);
  outfile_free(f);
}

int iospd_plat_outfile_publish(iospd_plat_outfile_t* f, iospd_err_t* err) {
  int rc = f->failed;
  /* Durable before the rename: a crash leaves the old file or the new one. */
  if (rc == 0 && !FlushFileBuffers(f->h))
    rc = iospd_win_err(err, GetLastError(),
                       "the temporary file of '%s' cannot be flushed",
                       f->path);
  CloseHandle(f->h);
  f->h = INVALID_HANDLE_VALUE;
  /* Checked again right before the rename: a link planted during the run. */
  if (rc == 0) rc = refuse_reparse(f->w, err);
  if (rc == 0 && !MoveFileExW(f->tmp, f->w, MOVEFILE_REPLACE_EXISTING |
                                                MOVEFILE_WRITE_THROUGH))
    rc = iospd_win_err(err, GetLastError(),
                       "the temporary file of '%s' cannot be renamed to it",
                       f->path);
  if (rc != 0) DeleteFileW(f->tmp);
  outfile_free(f);
  return rc;
}

/* text: every \n written as \r\n (text reports), else the bytes as given. */
static int write_whole(const char* path, const void* data, size_t len,
                       bool text, iospd_err_t* err) {
  iospd_plat_outfile_t* f;
  int rc = iospd_plat_outfile_open(path, text, &f, err);
  if (rc != 0) return rc;
  if ((rc = iospd_plat_outfile_write(f, data, len, err)) != 0) {
    iospd_plat_outfile_abandon(f);
    return rc;
  }
  return iospd_plat_outfile_publish(f, err);
}

int iospd_plat_write_file_whole(const char* path, const void* data, size_t len,
                                iospd_err_t* err) {
  return write_whole(path, data, len, true, err);
}

int iospd_plat_write_file_whole_bytes(const char* path, const void* data,
                                      size_t len, iospd_err_t* err) {
  return write_whole(path, data, len, false, err);
}
