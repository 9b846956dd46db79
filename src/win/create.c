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
static void say(const iospd_progress_t* pr, const char* fmt, ...)
    IOSPD_PRINTF(2, 3);
static void say(const iospd_progress_t* pr, const char* fmt, ...) {
  if (pr == NULL || pr->warn == NULL) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pr->warn(pr->ctx, line);
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
  /* DISKSPD's order and warnings (2.9): the volume privilege that lets
   * SetFileValidData skip writing the file, then the parent folders. */
  DWORD perr = ERROR_PRIVILEGE_NOT_HELD;
  if (!(flags & IOSPD_WIN_CREATE_WRITE_ALL)) {
    int step = 0;
    perr = iospd_win_enable_privilege_at(L"SeManageVolumePrivilege", &step);
    if (perr != ERROR_SUCCESS) {
      say(progress, "WARNING: %s (error code: %lu)",
          step == 1   ? "Error opening process token"
          : step == 2 ? "Error looking up privilege value "
                        "SeManageVolumePrivilege"
                      : "Error adjusting token privileges for "
                        "SeManageVolumePrivilege",
          (unsigned long)perr);
      say(progress, "WARNING: Could not set privileges for setting valid "
                    "file size; will use a slower method of preparing the "
                    "file");
    }
  }
  /* DISKSPD warns only about a drive-letter path as the user wrote it,
   * not one path.c turned into C:\... (relative) or \\?\C:\... (long). */
  bool drive_spelled = ((path[0] >= 'A' && path[0] <= 'Z') ||
                        (path[0] >= 'a' && path[0] <= 'z')) &&
                       path[1] == ':' && (path[2] == '\\' || path[2] == '/');
  DWORD derr = iospd_win_make_parents(w, drive_spelled);
  if (derr != 0)
    say(progress,
        "WARNING: Could not create intermediate directory (error code: %lu)",
        (unsigned long)derr);

  /* The fast path opens the file unshared (so no handle opened before the
   * DACL is set can read old clusters) and with WRITE_DAC; when either is
   * refused (the file is open elsewhere, or its ACL does not let us change
   * it) the file is written in full instead. */
  bool fast = perr == ERROR_SUCCESS && size > 0;
  HANDLE h = INVALID_HANDLE_VALUE;
  if (fast) {
    h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE | READ_CONTROL | WRITE_DAC,
                    0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
      DWORD e = GetLastError();
      if (e == ERROR_SHARING_VIOLATION || e == ERROR_ACCESS_DENIED) {
        say(progress,
            "NOTE: '%s' cannot be opened for exclusive use with its ACL "
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
                    CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    rc = iospd_win_err(err, GetLastError(), "cannot create '%s'", path);
    iospd_free(w);
    return rc;
  }
  /* CREATE_ALWAYS over an existing file: its old contents are gone now. */
  bool existed = GetLastError() == ERROR_ALREADY_EXISTS;
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
      say(progress,
          "NOTE: '%s' cannot keep an owner- and Administrators-only ACL "
          "(error code: %lu), so every block is written rather than "
          "SetFileValidData used, which would leave old disk contents "
          "readable in it",
          path, (unsigned long)e);
      restore_dacl(h, saved, saved_dacl);
      fill = true;
    } else if (!SetFileValidData(h, (LONGLONG)size)) {
      say(progress,
          "WARNING: Could not set valid file size (error code: %lu); trying "
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
      iospd_err_set(err, IOSPD_EINTR, "%s; %s%s", why,
                    gone ? "the partial file was removed"
                         : "the partial file could not be removed",
                    existed ? " (the file that was there before had already "
                              "been overwritten)"
                            : "");
    }
  } else if (rep->valid_data_set) {
    say(progress,
        "NOTE: '%s' was created with SetFileValidData: its %llu bytes were "
        "not written and hold what the volume held there before, so only its "
        "owner and Administrators may open it",
        path, (unsigned long long)size);
  } else if (fill) {
    /* Said for every fill, fallback or not, so the creation path is always
     * stated (windows-selfcheck.ps1's valid-data check reads it). */
    say(progress,
        "NOTE: '%s' was created by writing every block (%s, flushed)", path,
        rep->unbuffered ? "unbuffered, up to 4 MiB in flight" : "buffered");
  }
  iospd_free(w);
  return rc;
}
