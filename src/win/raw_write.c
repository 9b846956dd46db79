/* SPDX-License-Identifier: MIT */
/* May a handle opened for writing on a disk or volume be written at all?
 * By the CreateFile contract a raw write on a volume with a mounted file
 * system lands when it falls on the boot sectors or outside the file
 * system's space and fails inside it; on an online disk it lands outside
 * every volume (MBR, both GPT copies, the MSR). So a run with
 * --allow-raw-write would damage exactly those sectors, then fail, and the
 * user would believe nothing changed. iospd refuses such a target before
 * any worker writes: a volume only when no file system is mounted on it, a
 * disk only when it is offline or holds no partition. The decision is a
 * pure function (iospd_win_raw_write_decide, tested by its table); the
 * facts come from the device through iospd_win_ioctl. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "win/internal.h"

#include <winioctl.h> /* after <windows.h> */

/* Windows 8 and later; mingw-w64 names neither. */
#ifndef IOCTL_DISK_GET_DISK_ATTRIBUTES
#define IOCTL_DISK_GET_DISK_ATTRIBUTES \
  CTL_CODE(IOCTL_DISK_BASE, 0x003c, METHOD_BUFFERED, FILE_ANY_ACCESS)
#endif
typedef struct {
  DWORD Version;
  DWORD Reserved1;
  DWORDLONG Attributes;
} disk_attributes_t;
#define DISK_ATTR_OFFLINE 0x1ull

iospd_win_raw_verdict_t iospd_win_raw_write_decide(
    const iospd_win_raw_facts_t* f) {
  switch (f->kind) {
    case IOSPD_WIN_DEV_VOLUME:
      if (f->mounted == 0) return IOSPD_WIN_RAW_OK;
      return f->mounted > 0 ? IOSPD_WIN_RAW_MOUNTED : IOSPD_WIN_RAW_UNKNOWN;
    case IOSPD_WIN_DEV_DISK:
      if (f->offline > 0) return IOSPD_WIN_RAW_OK;
      if (f->partitions == 0) return IOSPD_WIN_RAW_OK; /* no volume on it */
      if (f->offline < 0 && f->partitions < 0) return IOSPD_WIN_RAW_UNKNOWN;
      return IOSPD_WIN_RAW_ONLINE;
    case IOSPD_WIN_DEV_OTHER:
    default:
      /* Not a disk or volume (a character device, a tape): no file
       * system of Windows' own is in the way; the content guard before
       * the run still applies. */
      return IOSPD_WIN_RAW_OK;
  }
}

/* "\\.\X:" (the form "X:" resolves to) or "\\.\PhysicalDriveN". */
static iospd_win_dev_kind_t kind_by_name(const WCHAR* w) {
  if ((wcsncmp(w, L"\\\\.\\", 4) == 0 || wcsncmp(w, L"\\\\?\\", 4) == 0) &&
      iswalpha(w[4]) && w[5] == L':' && w[6] == 0)
    return IOSPD_WIN_DEV_VOLUME;
  if (wcsncmp(w, L"\\\\.\\", 4) == 0 &&
      _wcsnicmp(w + 4, L"PhysicalDrive", 13) == 0)
    return IOSPD_WIN_DEV_DISK;
  return IOSPD_WIN_DEV_OTHER;
}

void iospd_win_raw_write_facts(HANDLE h, const WCHAR* wpath,
                               iospd_win_raw_facts_t* f) {
  memset(f, 0, sizeof *f);
  f->kind = kind_by_name(wpath);
  f->mounted = -1;
  f->offline = -1;
  f->partitions = -1;
  DWORD ret = 0;
  STORAGE_DEVICE_NUMBER dn;
  if (f->kind == IOSPD_WIN_DEV_OTHER &&
      iospd_win_ioctl(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL, 0, &dn,
                      sizeof dn, &ret) &&
      ret >= sizeof dn && dn.DeviceType == FILE_DEVICE_DISK)
    /* \\?\GLOBALROOT\Device\HarddiskVolumeN, \\.\HarddiskNPartitionM,
     * \\?\Volume{guid}: partition 0 is the whole disk. */
    f->kind = dn.PartitionNumber == 0 ? IOSPD_WIN_DEV_DISK
                                      : IOSPD_WIN_DEV_VOLUME;
  if (f->kind == IOSPD_WIN_DEV_VOLUME) {
    /* Opening a volume mounts the file system that recognises it, so this
     * answers for the handle in hand; it fails when none is mounted. */
    bool mounted_said =
        iospd_win_ioctl(h, FSCTL_IS_VOLUME_MOUNTED, NULL, 0, NULL, 0, &ret);
    DWORD why = mounted_said ? 0 : GetLastError();
    WCHAR fs[MAX_PATH + 1];
    fs[0] = 0;
    if (!GetVolumeInformationByHandleW(h, NULL, 0, NULL, NULL, NULL, fs,
                                       MAX_PATH + 1))
      fs[0] = 0;
    (void)iospd_win_wide_to_utf8(fs, f->fs_name, sizeof f->fs_name);
    if (mounted_said)
      /* RAW is the file system of a volume that has none: every write
       * lands, which is what the user asked for. */
      f->mounted = _wcsicmp(fs, L"RAW") == 0 ? 0 : 1;
    else if (why == ERROR_NOT_READY || why == ERROR_TIMEOUT ||
             why == ERROR_OPERATION_ABORTED)
      f->mounted = -1; /* cannot tell */
    else
      f->mounted = 0;
  } else if (f->kind == IOSPD_WIN_DEV_DISK) {
    disk_attributes_t a;
    memset(&a, 0, sizeof a);
    if (iospd_win_ioctl(h, IOCTL_DISK_GET_DISK_ATTRIBUTES, NULL, 0, &a,
                        sizeof a, &ret) &&
        ret >= sizeof a)
      f->offline = (a.Attributes & DISK_ATTR_OFFLINE) ? 1 : 0;
    union {
      DRIVE_LAYOUT_INFORMATION_EX l;
      char raw[sizeof(DRIVE_LAYOUT_INFORMATION_EX) +
               128 * sizeof(PARTITION_INFORMATION_EX)];
    } u;
    if (iospd_win_ioctl(h, IOCTL_DISK_GET_DRIVE_LAYOUT_EX, NULL, 0, &u,
                        sizeof u, &ret) &&
        ret >= offsetof(DRIVE_LAYOUT_INFORMATION_EX, PartitionEntry)) {
      int n = 0;
      DWORD max =
          (ret - (DWORD)offsetof(DRIVE_LAYOUT_INFORMATION_EX, PartitionEntry)) /
          (DWORD)sizeof(PARTITION_INFORMATION_EX);
      if (u.l.PartitionStyle != PARTITION_STYLE_RAW)
        for (DWORD i = 0; i < u.l.PartitionCount && i < max; i++) {
          const PARTITION_INFORMATION_EX* p = &u.l.PartitionEntry[i];
          if (p->PartitionLength.QuadPart == 0) continue;
          if (p->PartitionStyle == PARTITION_STYLE_MBR &&
              p->Mbr.PartitionType == PARTITION_ENTRY_UNUSED)
            continue;
          n++;
        }
      f->partitions = n;
    }
  }
}

int iospd_win_raw_write_check(HANDLE h, const WCHAR* wpath, const char* path,
                              iospd_err_t* err) {
  iospd_win_raw_facts_t f;
  iospd_win_raw_write_facts(h, wpath, &f);
  switch (iospd_win_raw_write_decide(&f)) {
    case IOSPD_WIN_RAW_OK:
      return 0;
    case IOSPD_WIN_RAW_MOUNTED:
      return iospd_err_set(
          err, IOSPD_EACCES,
          "cannot write to '%s': a file system%s%s%s is mounted on this "
          "volume, and Windows would let the writes that fall on its boot "
          "sectors or outside its space land and refuse the rest, so iospd "
          "refuses them all, even with --allow-raw-write (nothing was "
          "written); remove the file system first, or take the disk "
          "offline (Set-Disk -IsOffline $true) and target it as #N",
          path, f.fs_name[0] ? " (" : "", f.fs_name, f.fs_name[0] ? ")" : "");
    case IOSPD_WIN_RAW_ONLINE:
      return iospd_err_set(
          err, IOSPD_EACCES,
          "cannot write to '%s': the disk is online with %d partition%s, "
          "whose volumes Windows keeps mounted; writes outside them (the "
          "partition tables, both GPT copies) would land and writes inside "
          "them fail, so iospd refuses them all, even with "
          "--allow-raw-write (nothing was written); take the disk offline "
          "first (Set-Disk -IsOffline $true)",
          path, f.partitions < 0 ? 0 : f.partitions,
          f.partitions == 1 ? "" : "s");
    case IOSPD_WIN_RAW_UNKNOWN:
    default:
      return iospd_err_set(
          err, IOSPD_EACCES,
          "cannot write to '%s': Windows did not say whether a file system "
          "is mounted on it or whether the disk is offline, and a write "
          "there may land only in part, so iospd refuses it, even with "
          "--allow-raw-write (nothing was written); take the disk offline "
          "(Set-Disk -IsOffline $true) and target it as #N",
          path);
  }
}
