/* SPDX-License-Identifier: MIT */
/* -c on Windows: creating a target file of a given size, as DISKSPD does
 * (the volume privilege, then SetFileValidData, else writing the file), but
 * without its two hazards:
 * - SetFileValidData makes the file's clusters readable as they are, with
 *   whatever the volume held there before (deleted VHDX or database
 *   blocks). Such a file is created unshared and given, before its valid
 *   data length, a protected DACL that lets only its owner and
 *   Administrators open it; if that DACL cannot be set and read back as
 *   set (FAT, exFAT; wine, which keeps no file ACLs), every block is
 *   written instead.
 * - A buffered fill leaves gigabytes of dirty pages that the lazy writer
 *   flushes during the measured run. The fill writes unbuffered, several
 *   chunks in flight, and flushes before it closes.
 * The fill stops at Ctrl-C (between chunks) and removes what it made. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "iospd/alloc.h"
#include "win/internal.h"

#include <aclapi.h>
#include <sddl.h>

#define CHUNK (1u << 20)
#define DEPTH 4u
/* Unbuffered writes must be whole sectors: the last, partial chunk is
 * rounded up to this and the file cut back to its size afterwards. 4 KiB
 * covers 512-byte and 4Kn disks alike. */
#define TAIL_ROUND 4096u

/* Owner and Administrators only, nothing inherited. OW is the OWNER
 * RIGHTS SID (S-1-3-4): it matches whoever owns the file when access is
 * checked (an elevated administrator's files are owned by Administrators
 * by default) and replaces the owner's implicit rights. CO (CREATOR OWNER)
 * would be wrong here: it only means something in inheritable ACEs and, in
 * an object's own DACL, grants no one anything. */
static const WCHAR private_sddl[] = L"D:P(A;;FA;;;BA)(A;;FA;;;OW)";

/* A line for the user (run_files.c prints WARNING lines always, NOTE lines
 * with the creation note: -v or a large file). */
static void say(const iospd_progress_t* pr, iospd_msg_kind_t kind,
                const char* fmt, ...) IOSPD_PRINTF(3, 4);
static void say(const iospd_progress_t* pr, iospd_msg_kind_t kind,
                const char* fmt, ...) {
  if (pr == NULL || pr->warn == NULL) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pr->warn(pr->ctx, kind, line);
}

static bool interrupted(void) {
  return iospd_win_interrupt_event != NULL &&
         WaitForSingleObject(iospd_win_interrupt_event, 0) == WAIT_OBJECT_0;
}

DWORD iospd_win_private_sd(PSECURITY_DESCRIPTOR* sd, PACL* dacl) {
  *sd = NULL;
  *dacl = NULL;
  if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
          private_sddl, SDDL_REVISION_1, sd, NULL))
    return GetLastError();
  BOOL present = FALSE, defaulted = FALSE;
  DWORD e = ERROR_SUCCESS;
  if (!GetSecurityDescriptorDacl(*sd, &present, dacl, &defaulted))
    e = GetLastError();
  else if (!present || *dacl == NULL)
    e = ERROR_INVALID_SECURITY_DESCR;
  if (e != ERROR_SUCCESS) {
    LocalFree(*sd);
    *sd = NULL;
    *dacl = NULL;
  }
  return e;
}

/* Does acl hold exactly the ACEs of want, in order? */
static bool same_aces(PACL acl, PACL want) {
  if (acl == NULL || acl->AceCount != want->AceCount) return false;
  for (DWORD i = 0; i < want->AceCount; i++) {
    ACCESS_ALLOWED_ACE *a = NULL, *b = NULL;
    if (!GetAce(acl, i, (void**)&a) || !GetAce(want, i, (void**)&b))
      return false;
    if (a->Header.AceType != b->Header.AceType ||
        a->Header.AceFlags != b->Header.AceFlags || a->Mask != b->Mask ||
        !EqualSid((PSID)&a->SidStart, (PSID)&b->SidStart))
      return false;
  }
  return true;
}

/* Sets the private DACL on h (opened with WRITE_DAC and READ_CONTROL) and
 * reads it back: a file system that takes the call but keeps no ACL (FAT
 * and exFAT have none) must not count as protected. */
static DWORD restrict_dacl(HANDLE h) {
  PSECURITY_DESCRIPTOR sd;
  PACL dacl;
  DWORD e = iospd_win_private_sd(&sd, &dacl);
  if (e != ERROR_SUCCESS) return e;
  /* PROTECTED: nothing inherited from the folder, now or later. The
   * SECURITY_ATTRIBUTES of CreateFileW would not do: it is ignored when
   * CREATE_ALWAYS overwrites an existing file. */
  e = SetSecurityInfo(h, SE_FILE_OBJECT,
                      DACL_SECURITY_INFORMATION |
                          PROTECTED_DACL_SECURITY_INFORMATION,
                      NULL, NULL, dacl, NULL);
  PSECURITY_DESCRIPTOR now = NULL;
  PACL now_dacl = NULL;
  if (e == ERROR_SUCCESS)
    e = GetSecurityInfo(h, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, NULL,
                        NULL, &now_dacl, NULL, &now);
  if (e == ERROR_SUCCESS) {
    SECURITY_DESCRIPTOR_CONTROL ctl = 0;
    DWORD rev = 0;
    if (!GetSecurityDescriptorControl(now, &ctl, &rev) ||
        !(ctl & SE_DACL_PROTECTED) || !same_aces(now_dacl, dacl))
      e = ERROR_INVALID_SECURITY_DESCR; /* not kept as set */
  }
  if (now != NULL) LocalFree(now);
  LocalFree(sd);
  return e;
}

/* Puts back the DACL saved before restrict_dacl (best effort): a file that
 * ends up fully written needs no protection beyond its folder's. */
static void restore_dacl(HANDLE h, PSECURITY_DESCRIPTOR saved, PACL dacl) {
  SECURITY_DESCRIPTOR_CONTROL ctl = 0;
  DWORD rev = 0;
  if (saved == NULL || !GetSecurityDescriptorControl(saved, &ctl, &rev))
    return;
  (void)SetSecurityInfo(h, SE_FILE_OBJECT,
                        DACL_SECURITY_INFORMATION |
                            ((ctl & SE_DACL_PROTECTED)
                                 ? PROTECTED_DACL_SECURITY_INFORMATION
                                 : UNPROTECTED_DACL_SECURITY_INFORMATION),
                        NULL, NULL, dacl, NULL);
}

typedef struct slot_s {
  OVERLAPPED ov;
  DWORD len;     /* bytes asked (rounded up for the tail) */
  DWORD counts;  /* of which part of the file */
} slot_t;

/* Writes size bytes of the (i & 0xff) pattern, or zeros, through h, up to
 * DEPTH chunks in flight, oldest first; after each completed chunk,
 * progress and the Ctrl-C check. In-flight writes are always waited for,
 * whatever happened, before the slots go away. */
static int fill_chunks(HANDLE h, uint64_t size, const unsigned char* buf,
                       const iospd_progress_t* progress, const char* path,
                       iospd_win_create_report_t* rep, iospd_err_t* err) {
  slot_t slot[DEPTH];
  memset(slot, 0, sizeof slot);
  int rc = 0;
  for (uint32_t i = 0; i < DEPTH && rc == 0; i++) {
    slot[i].ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (slot[i].ov.hEvent == NULL)
      rc = iospd_win_err(err, GetLastError(), "cannot write '%s'", path);
  }
  uint64_t next = 0, done = 0;
  uint32_t head = 0, busy = 0;
  while (true) {
    while (rc == 0 && busy < DEPTH && next < size) {
      slot_t* s = &slot[(head + busy) % DEPTH];
      uint64_t left = size - next;
      s->counts = (DWORD)(left < CHUNK ? left : CHUNK);
      s->len = rep->unbuffered
                   ? (s->counts + TAIL_ROUND - 1) / TAIL_ROUND * TAIL_ROUND
                   : s->counts;
      s->ov.Offset = (DWORD)next;
      s->ov.OffsetHigh = (DWORD)(next >> 32);
      ResetEvent(s->ov.hEvent);
      if (!WriteFile(h, buf, s->len, NULL, &s->ov) &&
          GetLastError() != ERROR_IO_PENDING) {
        rc = iospd_win_err(err, GetLastError(), "cannot write '%s'", path);
        break;
      }
      next += s->counts;
      busy++;
      if (busy > rep->max_in_flight) rep->max_in_flight = busy;
    }
    if (busy == 0) break;
    slot_t* s = &slot[head];
    DWORD got = 0;
    if (!GetOverlappedResult(h, &s->ov, &got, TRUE)) {
      if (rc == 0)
        rc = iospd_win_err(err, GetLastError(), "cannot write '%s'", path);
    } else if (got < s->len && rc == 0) {
      rc = iospd_err_set(err, IOSPD_EIO,
                         "cannot write '%s': a write of %lu bytes at byte "
                         "%llu wrote %lu",
                         path, (unsigned long)s->len,
                         (unsigned long long)s->ov.Offset |
                             (unsigned long long)s->ov.OffsetHigh << 32,
                         (unsigned long)got);
    }
    head = (head + 1) % DEPTH;
    busy--;
    if (rc != 0) continue; /* drain the rest */
    done += s->counts;
    rep->written = done;
    if (progress != NULL && progress->fn != NULL)
      progress->fn(progress->ctx, done, size);
    if (done < size && interrupted())
      rc = iospd_err_set(err, IOSPD_EINTR,
                         "interrupted after %llu of %llu bytes",
                         (unsigned long long)done, (unsigned long long)size);
  }
  for (uint32_t i = 0; i < DEPTH; i++)
    if (slot[i].ov.hEvent != NULL) CloseHandle(slot[i].ov.hEvent);
  return rc;
}

/* Writes every block of the file w (already of its final size) through a
 * handle of its own: unbuffered where the file system allows it, so no
 * dirty pages outlive the creation, then flushed. */
static int fill_file(const WCHAR* w, uint64_t size, bool zero_fill,
                     const iospd_progress_t* progress, const char* path,
                     iospd_win_create_report_t* rep, iospd_err_t* err) {
  DWORD flags = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OVERLAPPED;
  HANDLE h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ, NULL,
                         OPEN_EXISTING, flags | FILE_FLAG_NO_BUFFERING, NULL);
  rep->unbuffered = h != INVALID_HANDLE_VALUE;
  if (h == INVALID_HANDLE_VALUE)
    h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                    flags, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, GetLastError(), "cannot write '%s'", path);
  /* VirtualAlloc memory is page aligned (what unbuffered I/O needs) and
   * starts zeroed; the pattern repeats every 256 bytes, so one chunk
   * serves every offset. */
  unsigned char* buf =
      VirtualAlloc(NULL, CHUNK, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
  int rc = 0;
  if (buf == NULL) rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  if (rc == 0 && !zero_fill)
    for (size_t i = 0; i < CHUNK; i++) buf[i] = (unsigned char)(i & 0xff);
  if (rc == 0) rc = fill_chunks(h, size, buf, progress, path, rep, err);
  if (rc == 0 && size % TAIL_ROUND != 0 && rep->unbuffered) {
    /* The rounded-up last write went past the end: cut it back. */
    FILE_END_OF_FILE_INFO eof;
    eof.EndOfFile.QuadPart = (LONGLONG)size;
    if (!SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof))
      rc = iospd_win_err(err, GetLastError(), "cannot size '%s' to %llu bytes",
                         path, (unsigned long long)size);
  }
  if (rc == 0) {
    /* Unbuffered writes leave no dirty data, but the file system's
     * metadata and the device's write cache may hold some: flush both
     * now rather than during the measured run. */
    rep->flushed = FlushFileBuffers(h) != 0;
    if (!rep->flushed)
      rc = iospd_win_err(err, GetLastError(), "cannot flush '%s'", path);
  }
  if (buf != NULL) VirtualFree(buf, 0, MEM_RELEASE);
  CloseHandle(h);
  return rc;
}

static int size_error(DWORD e, const char* path, uint64_t size,
                      iospd_err_t* err) {
  if (e == ERROR_DISK_FULL || e == ERROR_HANDLE_DISK_FULL)
    return iospd_err_set_os(err, IOSPD_ENOSPC, (int64_t)e,
                            "cannot create '%s' with %llu bytes: not enough "
                            "free space on its volume",
                            path, (unsigned long long)size);
  return iospd_win_err(err, e, "cannot size '%s' to %llu bytes", path,
                       (unsigned long long)size);
}

/* Makes the file w (the target itself, or the temporary copy beside an
 * existing target) of size bytes: SetFileValidData behind a private DACL
 * when the privilege is held (perr == ERROR_SUCCESS), else every block
 * written. On failure the file is removed; `removed` says what that leaves
 * (for the Ctrl-C message). */
static int make_file(const WCHAR* w, DWORD disposition, uint64_t size,
                     bool zero_fill, DWORD perr,
                     const iospd_progress_t* progress, const char* path,
                     const char* removed, iospd_win_create_report_t* rep,
                     iospd_err_t* err) {
  int rc = 0;
  /* The fast path opens the file unshared (so no handle opened before the
   * DACL is set can read old clusters) and with WRITE_DAC; when either is
   * refused (the file is open elsewhere, or its ACL does not let us change
   * it) the file is written in full instead. */
  bool fast = perr == ERROR_SUCCESS && size > 0;
  HANDLE h = INVALID_HANDLE_VALUE;
  if (fast) {
    h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE | READ_CONTROL | WRITE_DAC,
                    0, NULL, disposition, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
      DWORD e = GetLastError();
      if (e == ERROR_SHARING_VIOLATION || e == ERROR_ACCESS_DENIED) {
        say(progress, IOSPD_MSG_NOTE,
            "'%s' cannot be opened for exclusive use with its ACL "
            "writable (error code: %lu), so every block is written rather "
            "than SetFileValidData used",
            path, (unsigned long)e);
        fast = false;
      } else {
        SetLastError(e);
      }
    }
  }
  if (h == INVALID_HANDLE_VALUE && !fast)
    h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ, NULL,
                    disposition, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, GetLastError(), "cannot create '%s'", path);
  LARGE_INTEGER end;
  end.QuadPart = (LONGLONG)size;
  bool fill = false;
  if (!SetFilePointerEx(h, end, NULL, FILE_BEGIN) || !SetEndOfFile(h)) {
    rc = size_error(GetLastError(), path, size, err);
  } else if (fast) {
    /* The DACL first, read back, then the valid data length: no moment,
     * not even after a crash, when old clusters sit in a file others may
     * open. */
    PSECURITY_DESCRIPTOR saved = NULL;
    PACL saved_dacl = NULL;
    if (GetSecurityInfo(h, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, NULL,
                        NULL, &saved_dacl, NULL, &saved) != ERROR_SUCCESS)
      saved = NULL;
    DWORD e = restrict_dacl(h);
    rep->acl_restricted = e == ERROR_SUCCESS;
    if (!rep->acl_restricted) {
      say(progress, IOSPD_MSG_NOTE,
          "'%s' cannot keep an owner- and Administrators-only ACL "
          "(error code: %lu), so every block is written rather than "
          "SetFileValidData used, which would leave old disk contents "
          "readable in it",
          path, (unsigned long)e);
      restore_dacl(h, saved, saved_dacl);
      fill = true;
    } else if (!SetFileValidData(h, (LONGLONG)size)) {
      say(progress, IOSPD_MSG_DISKSPD_WARNING,
          "Could not set valid file size (error code: %lu); trying "
          "a slower method of filling the file (this does not affect "
          "performance, just makes the test preparation longer)",
          (unsigned long)GetLastError());
      restore_dacl(h, saved, saved_dacl);
      rep->acl_restricted = false;
      fill = true;
    } else {
      rep->valid_data_set = true;
      /* Metadata only (the valid data length): cheap, and then nothing of
       * the creation is left for the run to write back. */
      rep->flushed = FlushFileBuffers(h) != 0;
    }
    if (saved != NULL) LocalFree(saved);
  } else {
    fill = size > 0;
  }
  CloseHandle(h);
  if (rc == 0 && fill)
    rc = fill_file(w, size, zero_fill, progress, path, rep, err);
  if (rc != 0) {
    /* Never leave a half-made target behind. */
    bool gone = DeleteFileW(w) != 0;
    if (rc == IOSPD_EINTR) {
      char why[sizeof err->msg];
      snprintf(why, sizeof why, "%s", err->msg);
      iospd_err_set(err, IOSPD_EINTR, "%s; %s", why,
                    gone ? removed
                         : "the unfinished file could not be removed");
    }
  } else if (rep->valid_data_set) {
    say(progress, IOSPD_MSG_NOTE,
        "'%s' was created with SetFileValidData: its %llu bytes were "
        "not written and hold what the volume held there before, so only its "
        "owner and Administrators may open it",
        path, (unsigned long long)size);
  } else if (fill) {
    /* Said for every fill, fallback or not, so the creation path is always
     * stated (windows-selfcheck.ps1's valid-data check reads it). */
    say(progress, IOSPD_MSG_NOTE,
        "'%s' was created by writing every block (%s, flushed)", path,
        rep->unbuffered ? "unbuffered, up to 4 MiB in flight" : "buffered");
  }
  return rc;
}

/* ---- an existing target: never lost to a failed -c ----------------------
 * As on Linux (src/posix/create.c): the new file is made beside the old
 * one as "<name>.iospd-creating-<pid>" and moved over it only when it is
 * complete and flushed, so a full volume, an I/O error or Ctrl-C leave the
 * old file as it was and the free space as it was. Only when the volume
 * cannot hold both (or the old file has other hard links, which a move
 * would split off, or is open in a program that forbids replacing it) is it
 * overwritten in place, as DISKSPD always does, after its new size is
 * reserved; a failed reservation leaves it as it was. */

#define TEMP_TAG L".iospd-creating-"
/* The part of the target's name kept in the temporary name, so that the
 * tag and a pid fit in a 255-character file name. */
#define TEMP_BASE_MAX 200u

typedef struct old_file_s {
  bool exists;
  bool replaceable; /* no one else has it open: a move over it can work */
  DWORD links;
  uint64_t size, held; /* end of file, allocation size */
  PSECURITY_DESCRIPTOR sd; /* its DACL (LocalFree), or NULL */
  PACL dacl;
} old_file_t;

/* Looks at the target before anything is touched: 0 when it does not
 * exist or was looked at, < 0 (err set) when it is a folder or cannot be
 * looked at. */
static int look_at_old(const WCHAR* w, const char* path, old_file_t* o,
                       iospd_err_t* err) {
  memset(o, 0, sizeof *o);
  HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES | READ_CONTROL,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    DWORD e = GetLastError();
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND) return 0;
    return iospd_win_err(err, e, "cannot look at the existing '%s'", path);
  }
  FILE_STANDARD_INFO si;
  if (!GetFileInformationByHandleEx(h, FileStandardInfo, &si, sizeof si)) {
    int rc = iospd_win_err(err, GetLastError(),
                           "cannot look at the existing '%s'", path);
    CloseHandle(h);
    return rc;
  }
  if (si.Directory) {
    CloseHandle(h);
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is a folder; -c makes files: name a file "
                         "inside it",
                         path);
  }
  o->exists = true;
  o->links = si.NumberOfLinks;
  o->size = (uint64_t)si.EndOfFile.QuadPart;
  o->held = (uint64_t)si.AllocationSize.QuadPart;
  if (GetSecurityInfo(h, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, NULL,
                      NULL, &o->dacl, NULL, &o->sd) != ERROR_SUCCESS) {
    o->sd = NULL;
    o->dacl = NULL;
  }
  CloseHandle(h);
  /* Moving a file over another fails while any handle to the replaced
   * file is open, whatever its sharing (NTFS without POSIX rename
   * semantics): probe with an exclusive open. A scanner's brief open is
   * waited out a little. */
  for (int tries = 0; tries < 5; tries++) {
    HANDLE d = CreateFileW(w, DELETE, 0, NULL, OPEN_EXISTING, 0, NULL);
    o->replaceable = d != INVALID_HANDLE_VALUE;
    if (o->replaceable) {
      CloseHandle(d);
      break;
    }
    if (GetLastError() != ERROR_SHARING_VIOLATION) break;
    Sleep(20);
  }
  return 0;
}

/* w's folder with a trailing separator (iospd_free it), or NULL. */
static WCHAR* folder_of(const WCHAR* w) {
  size_t n = wcslen(w);
  while (n > 0 && w[n - 1] != L'\\' && w[n - 1] != L'/') n--;
  if (n == 0) return NULL;
  WCHAR* d = iospd_malloc((n + 1) * sizeof(WCHAR));
  if (d == NULL) return NULL;
  memcpy(d, w, n * sizeof(WCHAR));
  d[n] = 0;
  return d;
}

/* Bytes this account may still allocate on w's volume (quotas included:
 * FreeBytesAvailableToCaller), or UINT64_MAX when the volume does not
 * say. */
static uint64_t free_bytes(const WCHAR* w) {
  WCHAR* d = folder_of(w);
  ULARGE_INTEGER avail;
  bool ok = d != NULL && GetDiskFreeSpaceExW(d, &avail, NULL, NULL);
  iospd_free(d);
  return ok ? (uint64_t)avail.QuadPart : UINT64_MAX;
}

/* The same figure for a folder (platform.h: --ping's temporary file). */
uint64_t iospd_plat_free_bytes(const char* dir) {
  WCHAR* w;
  if (iospd_win_path(dir, &w, NULL) != 0) return UINT64_MAX;
  size_t n = wcslen(w);
  /* GetDiskFreeSpaceExW wants a folder with its trailing separator. */
  WCHAR* d = iospd_malloc((n + 2) * sizeof(WCHAR));
  ULARGE_INTEGER avail;
  bool ok = false;
  if (d != NULL) {
    memcpy(d, w, n * sizeof(WCHAR));
    if (n == 0 || (w[n - 1] != L'\\' && w[n - 1] != L'/')) d[n++] = L'\\';
    d[n] = 0;
    ok = GetDiskFreeSpaceExW(d, &avail, NULL, NULL) != 0;
  }
  iospd_free(d);
  iospd_free(w);
  return ok ? (uint64_t)avail.QuadPart : UINT64_MAX;
}

/* This computer's name as it goes into a copy's name (NetBIOS, at most 15
 * characters; anything but letters, digits, '-' and '_' made '_'), so
 * that on a folder several hosts share (a CSV volume, an SMB share) each
 * sweeps only its own copies: another host's pid table says nothing of
 * its processes. */
static void host_tag(WCHAR* out, DWORD cap) {
  DWORD n = cap;
  if (!GetComputerNameW(out, &n) || n == 0) {
    wcsncpy(out, L"unknown", cap - 1);
    out[cap - 1] = 0;
    return;
  }
  for (WCHAR* c = out; *c; c++)
    if (!iswalnum(*c) && *c != L'-' && *c != L'_') *c = L'_';
}

/* "<folder>\<base>.iospd-creating-<host>-<pid>" with base cut to
 * TEMP_BASE_MAX characters; with pid 0, "<base>.iospd-creating-*" (a
 * FindFirstFileW pattern) when pattern, or the bare prefix
 * "<base>.iospd-creating-". */
static WCHAR* temp_name(const WCHAR* w, DWORD pid, bool full, bool pattern) {
  size_t n = wcslen(w), b = n;
  while (b > 0 && w[b - 1] != L'\\' && w[b - 1] != L'/') b--;
  size_t blen = n - b;
  if (blen > TEMP_BASE_MAX) blen = TEMP_BASE_MAX;
  size_t head = full ? b : 0;
  WCHAR host[MAX_COMPUTERNAME_LENGTH + 1];
  host_tag(host, (DWORD)IOSPD_ARRAY_SIZE(host));
  size_t cap = head + blen + wcslen(TEMP_TAG) + wcslen(host) + 17;
  WCHAR* t = iospd_malloc(cap * sizeof(WCHAR));
  if (t == NULL) return NULL;
  memcpy(t, w, head * sizeof(WCHAR));
  memcpy(t + head, w + b, blen * sizeof(WCHAR));
  size_t at = head + blen;
  if (pid != 0)
    swprintf(t + at, cap - at, L"%ls%ls-%lu", TEMP_TAG, host,
             (unsigned long)pid);
  else
    swprintf(t + at, cap - at, L"%ls%ls", TEMP_TAG, pattern ? L"*" : L"");
  return t;
}

/* Removes the temporary files of earlier -c runs of this target whose
 * process is gone (killed, crashed, power lost). A live process's file, or
 * one whose process cannot be asked, is left alone, and so is one tagged
 * with another computer's name. An untagged "<pid>" copy (made before
 * copies carried the host) is judged by this host's pid table, as then. */
static void remove_stale(const WCHAR* w, const iospd_progress_t* progress) {
  WCHAR* pat = temp_name(w, 0, true, true);
  WCHAR* prefix = temp_name(w, 0, false, false);
  WCHAR* dir = folder_of(w);
  WIN32_FIND_DATAW fd;
  HANDLE f = pat != NULL && prefix != NULL && dir != NULL
                 ? FindFirstFileW(pat, &fd)
                 : INVALID_HANDLE_VALUE;
  if (f != INVALID_HANDLE_VALUE) {
    size_t plen = wcslen(prefix);
    WCHAR host[MAX_COMPUTERNAME_LENGTH + 1];
    host_tag(host, (DWORD)IOSPD_ARRAY_SIZE(host));
    do {
      if (_wcsnicmp(fd.cFileName, prefix, plen) != 0) continue;
      const WCHAR* digits = fd.cFileName + plen;
      const WCHAR* dash = wcsrchr(digits, L'-');
      if (dash != NULL) {
        /* "<host>-<pid>": only this host's. */
        size_t hl = (size_t)(dash - digits);
        if (hl != wcslen(host) || _wcsnicmp(digits, host, hl) != 0) continue;
        digits = dash + 1;
      }
      if (*digits < L'0' || *digits > L'9') continue;
      WCHAR* end = NULL;
      unsigned long pid = wcstoul(digits, &end, 10);
      if (end == digits || *end != 0 || pid == 0 || pid > 0xffffffffu)
        continue;
      /* This process has made none yet: one with its pid is from an
       * earlier process that had the same pid. OpenProcess fails with
       * ERROR_INVALID_PARAMETER only when no such process exists. */
      if (pid != GetCurrentProcessId()) {
        HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
                               (DWORD)pid);
        if (p != NULL) {
          DWORD code = 0;
          bool alive = !GetExitCodeProcess(p, &code) || code == STILL_ACTIVE;
          CloseHandle(p);
          if (alive) continue;
        } else if (GetLastError() != ERROR_INVALID_PARAMETER) {
          continue;
        }
      }
      size_t dl = wcslen(dir), fl = wcslen(fd.cFileName);
      WCHAR* full = iospd_malloc((dl + fl + 1) * sizeof(WCHAR));
      if (full == NULL) continue;
      memcpy(full, dir, dl * sizeof(WCHAR));
      memcpy(full + dl, fd.cFileName, (fl + 1) * sizeof(WCHAR));
      if (DeleteFileW(full)) {
        char name[600];
        (void)iospd_win_wide_to_utf8(fd.cFileName, name, sizeof name);
        say(progress, IOSPD_MSG_NOTE,
            "removed '%s', left by an interrupted -c of process %lu, "
            "which no longer runs",
            name, pid);
      }
      iospd_free(full);
    } while (FindNextFileW(f, &fd));
    FindClose(f);
  }
  iospd_free(pat);
  iospd_free(prefix);
  iospd_free(dir);
}

/* Gives the finished copy the old file's own ACEs (those not inherited
 * from the folder, which the copy inherits by itself) and its protection,
 * as overwriting it would have kept them. Best effort: a file system
 * without ACLs keeps none anyway. */
static void copy_own_aces(const WCHAR* tmp, const old_file_t* o) {
  SECURITY_DESCRIPTOR_CONTROL ctl = 0;
  DWORD rev = 0;
  if (o->sd == NULL || o->dacl == NULL ||
      !GetSecurityDescriptorControl(o->sd, &ctl, &rev))
    return;
  ACL_SIZE_INFORMATION info;
  if (!GetAclInformation(o->dacl, &info, sizeof info, AclSizeInformation))
    return;
  PACL own = LocalAlloc(LPTR, info.AclBytesInUse);
  if (own == NULL) return;
  bool ok = InitializeAcl(own, info.AclBytesInUse, ACL_REVISION_DS) != 0;
  DWORD kept = 0;
  for (DWORD i = 0; ok && i < o->dacl->AceCount; i++) {
    ACE_HEADER* a = NULL;
    if (!GetAce(o->dacl, i, (void**)&a)) {
      ok = false;
      break;
    }
    if (a->AceFlags & INHERITED_ACE) continue;
    ok = AddAce(own, ACL_REVISION_DS, MAXDWORD, a, a->AceSize) != 0;
    kept++;
  }
  if (ok && (kept > 0 || (ctl & SE_DACL_PROTECTED))) {
    HANDLE h = CreateFileW(tmp, READ_CONTROL | WRITE_DAC, 0, NULL,
                           OPEN_EXISTING, 0, NULL);
    if (h != INVALID_HANDLE_VALUE) {
      (void)SetSecurityInfo(h, SE_FILE_OBJECT,
                            DACL_SECURITY_INFORMATION |
                                ((ctl & SE_DACL_PROTECTED)
                                     ? PROTECTED_DACL_SECURITY_INFORMATION
                                     : UNPROTECTED_DACL_SECURITY_INFORMATION),
                            NULL, NULL, own, NULL);
      CloseHandle(h);
    }
  }
  LocalFree(own);
}

/* Overwrites the existing target where it is: its new size first (a
 * failure to get the space cuts it back to its old size, so its content is
 * as it was), then every block. */
static int overwrite_in_place(const WCHAR* w, const old_file_t* o,
                              uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              const char* path, iospd_win_create_report_t* rep,
                              iospd_err_t* err) {
  HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ,
                         NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, GetLastError(), "cannot open '%s' to overwrite it",
                         path);
  FILE_END_OF_FILE_INFO eof;
  eof.EndOfFile.QuadPart = (LONGLONG)size;
  int rc = 0;
  if (!SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof)) {
    DWORD e = GetLastError();
    eof.EndOfFile.QuadPart = (LONGLONG)o->size;
    (void)SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof eof);
    rc = size_error(e, path, size, err);
    if (err != NULL) {
      char why[sizeof err->msg];
      snprintf(why, sizeof why, "%s", err->msg);
      iospd_err_set_os(err, rc, (int64_t)e, "%s; the existing file is as it was",
                       why);
    }
  }
  CloseHandle(h);
  if (rc != 0) return rc;
  if (size > 0)
    rc = fill_file(w, size, zero_fill, progress, path, rep, err);
  if (rc != 0 && err != NULL) {
    char why[sizeof err->msg];
    snprintf(why, sizeof why, "%s", err->msg);
    iospd_err_set_os(err, rc, err->os_code,
                     "%s; the file was being overwritten in place, so the "
                     "rest of it holds old data: re-create it with -c before "
                     "measuring it",
                     why);
  } else if (rc == 0) {
    say(progress, IOSPD_MSG_NOTE,
        "'%s' was created by writing every block (%s, flushed)", path,
        rep->unbuffered ? "unbuffered, up to 4 MiB in flight" : "buffered");
  }
  return rc;
}

/* The decision: a new target is made where it is; an existing one is made
 * beside and moved over it, overwritten in place only when it must be, and
 * left alone when neither fits. */
static int replace_or_make(const WCHAR* w, uint64_t size, bool zero_fill,
                           DWORD perr, const iospd_progress_t* progress,
                           const char* path, iospd_win_create_report_t* rep,
                           iospd_err_t* err) {
  remove_stale(w, progress);
  old_file_t o;
  int rc = look_at_old(w, path, &o, err);
  if (rc != 0) return rc;
  uint64_t avail = free_bytes(w);
  if (!o.exists) {
    if (avail != UINT64_MAX && size > avail)
      return iospd_err_set_os(
          err, IOSPD_ENOSPC, ERROR_DISK_FULL,
          "cannot create '%s' with %llu bytes: its volume has %llu bytes "
          "free; nothing was created",
          path, (unsigned long long)size, (unsigned long long)avail);
    return make_file(w, CREATE_ALWAYS, size, zero_fill, perr, progress, path,
                     "the unfinished file was removed", rep, err);
  }
  bool beside = size <= avail && o.links <= 1 && o.replaceable;
  bool in_place = size <= o.held || size - o.held <= avail;
  if (!beside && !in_place) {
    rc = iospd_err_set_os(
        err, IOSPD_ENOSPC, ERROR_DISK_FULL,
        "cannot create '%s' with %llu bytes: its volume has %llu bytes free "
        "beside the %llu the existing file holds; the existing file is as "
        "it was",
        path, (unsigned long long)size, (unsigned long long)avail,
        (unsigned long long)o.held);
  } else if (beside) {
    WCHAR* tmp = temp_name(w, GetCurrentProcessId(), true, false);
    if (tmp == NULL) {
      rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory creating '%s'",
                         path);
    } else {
      rc = make_file(tmp, CREATE_NEW, size, zero_fill, perr, progress, path,
                     "the unfinished copy was removed, and the existing file "
                     "is as it was",
                     rep, err);
      if (rc == 0 && !rep->valid_data_set) copy_own_aces(tmp, &o);
      /* WRITE_THROUGH: the move is on disk before the run starts. */
      if (rc == 0 &&
          !MoveFileExW(tmp, w,
                       MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        rc = iospd_win_err(err, GetLastError(),
                           "cannot move the finished copy of '%s' over it "
                           "(the copy was removed, and the existing file is "
                           "as it was); a program that opened the file "
                           "meanwhile keeps it from being replaced: close "
                           "it and run again",
                           path);
        (void)DeleteFileW(tmp);
      }
      iospd_free(tmp);
    }
  } else {
    say(progress, IOSPD_MSG_NOTE,
        o.links > 1 ? "'%s' has other hard links, so it is overwritten "
                      "in place; an interruption would leave it partly "
                      "overwritten"
        : !o.replaceable
            ? "'%s' is open in another program, so it cannot be "
              "replaced and is overwritten in place; an interruption "
              "would leave it partly overwritten"
            : "not enough free space for a side copy of '%s', so it "
              "is overwritten in place; an interruption would leave it "
              "partly overwritten",
        path);
    rc = overwrite_in_place(w, &o, size, zero_fill, progress, path, rep, err);
  }
  if (o.sd != NULL) LocalFree(o.sd);
  return rc;
}
int iospd_win_create(const char* path, uint64_t size, bool zero_fill,
                     unsigned flags, const iospd_progress_t* progress,
                     iospd_win_create_report_t* rep, iospd_err_t* err) {
  memset(rep, 0, sizeof *rep);
  iospd_win_once(); /* the interrupt event */
  WCHAR* w;
  bool spelled_dev;
  int rc = iospd_win_target_path(path, &w, &spelled_dev, err);
  if (rc) return rc;
  if (iospd_win_path_is_device(path, w)) {
    iospd_free(w);
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is a disk or volume; only files can be "
                         "created",
                         path);
  }
  /* DISKSPD's order and warnings (DISKSPD's file creation): the volume privilege that lets
   * SetFileValidData skip writing the file, then the parent folders. */
  DWORD perr = ERROR_PRIVILEGE_NOT_HELD;
  if (!(flags & IOSPD_WIN_CREATE_WRITE_ALL)) {
    int step = 0;
    perr = iospd_win_enable_privilege_at(L"SeManageVolumePrivilege", &step);
    if (perr != ERROR_SUCCESS) {
      say(progress, IOSPD_MSG_DISKSPD_WARNING, "%s (error code: %lu)",
          step == 1   ? "Error opening process token"
          : step == 2 ? "Error looking up privilege value "
                        "SeManageVolumePrivilege"
                      : "Error adjusting token privileges for "
                        "SeManageVolumePrivilege",
          (unsigned long)perr);
      say(progress, IOSPD_MSG_DISKSPD_WARNING,
          "Could not set privileges for setting valid file size; will use "
          "a slower method of preparing the file");
    }
  }
  /* DISKSPD warns only about a drive-letter path as the user wrote it,
   * not one path.c turned into C:\... (relative) or \\?\C:\... (long). */
  bool drive_spelled = ((path[0] >= 'A' && path[0] <= 'Z') ||
                        (path[0] >= 'a' && path[0] <= 'z')) &&
                       path[1] == ':' && (path[2] == '\\' || path[2] == '/');
  DWORD derr = iospd_win_make_parents(w, drive_spelled);
  if (derr != 0)
    say(progress, IOSPD_MSG_DISKSPD_WARNING,
        "Could not create intermediate directory (error code: %lu)",
        (unsigned long)derr);

  /* A symbolic link: the copy goes beside its final target and replaces
   * that, never the link (create_link.c). */
  iospd_win_link_t link;
  iospd_win_link_probe(w, &link);
  WCHAR* name = NULL;
  rc = iospd_win_create_name(path, w, &link, &name, err);
  iospd_free(link.final);
  iospd_free(w);
  if (rc != 0) return rc;
  rc = replace_or_make(name, size, zero_fill, perr, progress, path, rep, err);
  iospd_free(name);
  return rc;
}

