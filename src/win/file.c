/* SPDX-License-Identifier: MIT */
/* Targets on Windows: CreateFileW with the caching flags DISKSPD's switches
 * select (cf. libuv fs__open), what a target is (size, sector sizes, device
 * contents; file or device: target_kind.c), the parent folders of -c files
 * (the files themselves: create.c), and reading small files whole. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/device_sniff.h"
#include "win/internal.h"

#include <winioctl.h> /* after <windows.h>, which it relies on */

/* Not named by mingw 10 (or only for _WIN32_WINNT >= Windows 8). */
#ifndef FSCTL_DISABLE_LOCAL_BUFFERING
#define FSCTL_DISABLE_LOCAL_BUFFERING \
  CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 174, METHOD_BUFFERED, FILE_ANY_ACCESS)
#endif
#define FILE_STORAGE_INFO_CLASS ((FILE_INFO_BY_HANDLE_CLASS)16)
#define FILE_ALIGNMENT_INFO_CLASS ((FILE_INFO_BY_HANDLE_CLASS)17)
typedef struct {
  ULONG LogicalBytesPerSector;
  ULONG PhysicalBytesPerSectorForAtomicity;
  ULONG PhysicalBytesPerSectorForPerformance;
  ULONG FileSystemEffectivePhysicalBytesPerSectorForAtomicity;
  ULONG Flags;
  ULONG ByteOffsetForSectorAlignment;
  ULONG ByteOffsetForPartitionAlignment;
} storage_info_t;
/* FILE_ALIGNMENT_INFO, named by mingw only for Windows 8 and later. */
typedef struct {
  ULONG AlignmentRequirement;
} alignment_info_t;

#define CREATE_CHUNK (1u << 20)

/* ---- open ---------------------------------------------------------------- */

static DWORD open_attributes(unsigned flags) {
  DWORD a = FILE_ATTRIBUTE_NORMAL;
  if (flags & IOSPD_OPEN_TEMPORARY) a = FILE_ATTRIBUTE_TEMPORARY;
  if (flags & IOSPD_OPEN_ASYNC) a |= FILE_FLAG_OVERLAPPED;
  if (flags & IOSPD_OPEN_NO_BUFFERING) a |= FILE_FLAG_NO_BUFFERING;
  if (flags & IOSPD_OPEN_WRITE_THROUGH) a |= FILE_FLAG_WRITE_THROUGH;
  if (flags & IOSPD_OPEN_SEQ_HINT) a |= FILE_FLAG_SEQUENTIAL_SCAN;
  if (flags & IOSPD_OPEN_RANDOM_HINT) a |= FILE_FLAG_RANDOM_ACCESS;
  return a;
}

static int open_error(iospd_err_t* err, DWORD e, const char* path,
                      bool is_device) {
  if (is_device && e == ERROR_ACCESS_DENIED)
    return iospd_err_set_os(err, IOSPD_EACCES, (int64_t)e,
                            "cannot open '%s': access denied; raw disks and "
                            "volumes need an elevated (administrator) "
                            "prompt",
                            path);
  if (is_device && (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND))
    return iospd_err_set_os(err, IOSPD_ENOENT, (int64_t)e,
                            "cannot open '%s': no such disk or volume "
                            "(error %lu)",
                            path, (unsigned long)e);
  if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
    return iospd_err_set_os(err, IOSPD_ENOENT, (int64_t)e,
                            "cannot open '%s': no such file (error %lu; "
                            "give a size with -c to create it)",
                            path, (unsigned long)e);
  return iospd_win_err(err, e, "cannot open '%s'", path);
}

/* On a volume handle opened for reading only: let reads reach every
 * sector of the partition, including those past the file system's last
 * cluster (the backup boot sector, the tail the write guard reads), which
 * the file system would otherwise refuse; the disk driver still keeps I/O
 * inside the partition. Disks do not take it, which is harmless. Never on
 * a handle that may write: it would widen what a write to a mounted volume
 * lands on (the backup boot sector); writes go only where
 * raw_write.c allows them. */
static void allow_extended_dasd(HANDLE h) {
  DWORD ret;
  (void)iospd_win_ioctl(h, FSCTL_ALLOW_EXTENDED_DASD_IO, NULL, 0, NULL, 0,
                        &ret);
}

int iospd_plat_file_open(iospd_plat_file_t** out, const iospd_open_opts_t* o,
                         iospd_err_t* err) {
  *out = NULL;
  iospd_plat_file_t* f = iospd_calloc(1, sizeof *f);
  if (f == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  f->h = INVALID_HANDLE_VALUE;
  f->flags = o->flags;
  bool spelled_dev;
  int rc = iospd_win_target_path(o->path, &f->wpath, &spelled_dev, err);
  if (rc) goto fail;
  iospd_win_spelled_t spelled = iospd_win_spelled_kind(o->path);
  f->path = iospd_strdup(o->path);
  if (f->path == NULL) {
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    goto fail;
  }

  DWORD access = 0;
  if (o->flags & IOSPD_OPEN_READ) access |= GENERIC_READ;
  if (o->flags & IOSPD_OPEN_WRITE) access |= GENERIC_WRITE;
  if (access == 0) access = GENERIC_READ;
  /* Share read and write: several workers open the same target, each with
   * its own handle (a handle binds to one completion port for good). */
  f->h = CreateFileW(f->wpath, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                     OPEN_EXISTING, open_attributes(o->flags), NULL);
  if (f->h == INVALID_HANDLE_VALUE) {
    rc = open_error(err, GetLastError(), o->path,
                    spelled != IOSPD_WIN_SPELLED_FILE);
    goto fail;
  }
  f->is_device =
      iospd_win_is_device(spelled, true, iospd_win_handle_kind(f->h));
  if (f->is_device && (access & GENERIC_WRITE)) {
    /* Before any write: a mounted volume or an online disk with volumes
     * would take some writes and refuse others (raw_write.c). */
    rc = iospd_win_raw_write_check(f->h, f->wpath, o->path, err);
    if (rc) goto fail;
  } else if (f->is_device) {
    allow_extended_dasd(f->h);
  }

  if (o->flags & IOSPD_OPEN_DISABLE_LOCAL_CACHE) {
    DWORD ret;
    if (!iospd_win_ioctl(f->h, FSCTL_DISABLE_LOCAL_BUFFERING, NULL, 0, NULL, 0,
                         &ret)) {
      DWORD e = GetLastError();
      rc = iospd_err_set_os(err, IOSPD_ENOTSUP, (int64_t)e,
                            "cannot disable local caching (-Sr) for '%s' "
                            "(error %lu): -Sr works only for files on a "
                            "remote (SMB) file system",
                            o->path, (unsigned long)e);
      goto fail;
    }
  }
  rc = iospd_win_set_priority_hint(f->h, o->flags, o->path, err);
  if (rc) goto fail;
  if (o->flags & IOSPD_OPEN_MAPPED) {
    rc = iospd_win_map(f, err);
    if (rc) goto fail;
  }
  *out = f;
  return 0;

fail:
  iospd_plat_file_close(f);
  return rc;
}

void iospd_plat_file_close(iospd_plat_file_t* f) {
  if (f == NULL) return;
  iospd_win_unmap(f);
  if (f->h != INVALID_HANDLE_VALUE && f->h != NULL) CloseHandle(f->h);
  iospd_free(f->wpath);
  iospd_free(f->path);
  iospd_free(f);
}

/* ---- what a target is ---------------------------------------------------- */

/* Sector size of the volume holding a file: the fallback when
 * FileStorageInfo is missing (Windows 7, wine). wpath is absolute (path.c),
 * of any length: the volume's root is never longer than the path. */
static uint32_t volume_sector(const WCHAR* wpath) {
  size_t len = wcslen(wpath) + 2;
  if (len > 0x8000) return 0;
  WCHAR* root = iospd_malloc(len * sizeof(WCHAR));
  if (root == NULL) return 0;
  DWORD spc = 0, bps = 0, freec, total;
  if (!GetVolumePathNameW(wpath, root, (DWORD)len) ||
      !GetDiskFreeSpaceW(root, &spc, &bps, &freec, &total))
    bps = 0;
  iospd_free(root);
  return bps;
}

/* The buffer alignment unbuffered I/O needs on this handle's device, from
 * the I/O manager (the device object's AlignmentRequirement, a mask: 0x1ff
 * is 512 bytes, 3 is 4 bytes, 0 is none), or from the storage adapter.
 * 0 if neither answers (wine, Windows 7 before the adapter query). */
static uint32_t handle_alignment(HANDLE h) {
  alignment_info_t ai;
  if (GetFileInformationByHandleEx(h, FILE_ALIGNMENT_INFO_CLASS, &ai,
                                   sizeof ai) &&
      ai.AlignmentRequirement < 0x10000 &&
      ((ai.AlignmentRequirement + 1) & ai.AlignmentRequirement) == 0)
    return (uint32_t)ai.AlignmentRequirement + 1;
  STORAGE_PROPERTY_QUERY q;
  STORAGE_ADAPTER_DESCRIPTOR ad;
  DWORD ret = 0;
  memset(&q, 0, sizeof q);
  memset(&ad, 0, sizeof ad);
  q.PropertyId = StorageAdapterProperty;
  q.QueryType = PropertyStandardQuery;
  if (iospd_win_ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &ad,
                      sizeof ad, &ret) &&
      ret >= offsetof(STORAGE_ADAPTER_DESCRIPTOR, AlignmentMask) +
                 sizeof ad.AlignmentMask &&
      ad.AlignmentMask < 0x10000 &&
      ((ad.AlignmentMask + 1) & ad.AlignmentMask) == 0)
    return (uint32_t)ad.AlignmentMask + 1;
  return 0;
}

/* Sector sizes from the open handle (FileStorageInfo, Windows 8+), so no
 * path length or mount point can lead to the wrong volume; the volume's
 * own sector size only where that class is missing. */
static void file_sectors(HANDLE h, const WCHAR* wpath,
                         iospd_file_info_t* info) {
  storage_info_t si;
  info->buffer_align = handle_alignment(h);
  if (GetFileInformationByHandleEx(h, FILE_STORAGE_INFO_CLASS, &si,
                                   sizeof si) &&
      si.LogicalBytesPerSector != 0) {
    info->logical_sector = si.LogicalBytesPerSector;
    info->physical_sector = si.PhysicalBytesPerSectorForPerformance
                                ? si.PhysicalBytesPerSectorForPerformance
                                : si.LogicalBytesPerSector;
    return;
  }
  uint32_t s = volume_sector(wpath);
  info->logical_sector = s;
  info->physical_sector = s;
}

static void device_size_and_sectors(HANDLE h, iospd_file_info_t* info) {
  DWORD ret;
  GET_LENGTH_INFORMATION li;
  PARTITION_INFORMATION_EX pi;
  if (iospd_win_ioctl(h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &li, sizeof li,
                      &ret))
    info->size = (uint64_t)li.Length.QuadPart;
  else if (iospd_win_ioctl(h, IOCTL_DISK_GET_PARTITION_INFO_EX, NULL, 0, &pi,
                           sizeof pi, &ret))
    info->size = (uint64_t)pi.PartitionLength.QuadPart;

  STORAGE_PROPERTY_QUERY q;
  STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR ad;
  memset(&q, 0, sizeof q);
  memset(&ad, 0, sizeof ad);
  q.PropertyId = StorageAccessAlignmentProperty;
  q.QueryType = PropertyStandardQuery;
  if (iospd_win_ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &ad,
                      sizeof ad, &ret) &&
      ret >= sizeof ad && ad.BytesPerLogicalSector != 0) {
    info->logical_sector = ad.BytesPerLogicalSector;
    info->physical_sector = ad.BytesPerPhysicalSector;
  }

  /* Geometry: the fallback for both (wine answers only this one). On a
   * volume it describes the whole disk, hence last. */
  DISK_GEOMETRY_EX gx;
  DISK_GEOMETRY g;
  uint64_t gsize = 0;
  uint32_t bps = 0;
  if (iospd_win_ioctl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &gx,
                      sizeof gx, &ret)) {
    gsize = (uint64_t)gx.DiskSize.QuadPart;
    bps = gx.Geometry.BytesPerSector;
  } else if (iospd_win_ioctl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY, NULL, 0, &g,
                             sizeof g, &ret)) {
    bps = g.BytesPerSector;
    gsize = (uint64_t)g.Cylinders.QuadPart * g.TracksPerCylinder *
            g.SectorsPerTrack * g.BytesPerSector;
  }
  if (info->size == 0) info->size = gsize;
  if (info->logical_sector == 0) info->logical_sector = bps;
  if (info->physical_sector == 0) info->physical_sector = bps;
  info->buffer_align = handle_alignment(h);
}

static int count_partitions(HANDLE h, int* style) {
  /* Room for 128 entries, the GPT default. */
  union {
    DRIVE_LAYOUT_INFORMATION_EX l;
    char raw[sizeof(DRIVE_LAYOUT_INFORMATION_EX) +
             128 * sizeof(PARTITION_INFORMATION_EX)];
  } u;
  DWORD ret;
  *style = -1;
  if (!iospd_win_ioctl(h, IOCTL_DISK_GET_DRIVE_LAYOUT_EX, NULL, 0, &u, sizeof u,
                       &ret))
    return 0;
  *style = (int)u.l.PartitionStyle;
  if (u.l.PartitionStyle == PARTITION_STYLE_RAW) return 0;
  int n = 0;
  DWORD max = (ret - offsetof(DRIVE_LAYOUT_INFORMATION_EX, PartitionEntry)) /
              sizeof(PARTITION_INFORMATION_EX);
  for (DWORD i = 0; i < u.l.PartitionCount && i < max; i++) {
    const PARTITION_INFORMATION_EX* p = &u.l.PartitionEntry[i];
    if (p->PartitionLength.QuadPart == 0) continue;
    if (p->PartitionStyle == PARTITION_STYLE_MBR &&
        p->Mbr.PartitionType == PARTITION_ENTRY_UNUSED)
      continue;
    n++;
  }
  return n;
}

static bool at(const unsigned char* b, size_t off, const char* sig) {
  return memcmp(b + off, sig, strlen(sig)) == 0;
}

void iospd_win_sniff(const unsigned char* b, size_t n, bool tables,
                     iospd_file_info_t* info) {
  const char* fs = NULL;
  if (n >= 512) {
    if (at(b, 3, "NTFS    "))
      fs = "an NTFS file system";
    else if (at(b, 3, "ReFS"))
      fs = "a ReFS file system";
    else if (at(b, 3, "EXFAT   "))
      fs = "an exFAT file system";
    else if (at(b, 3, "-FVE-FS-"))
      fs = "a BitLocker-encrypted volume";
    else if (at(b, 82, "FAT32   "))
      fs = "a FAT32 file system";
    else if (at(b, 54, "FAT1") || at(b, 54, "FAT     "))
      fs = "a FAT file system";
  }
  if (fs != NULL) {
    info->has_filesystem = true;
    snprintf(info->content, sizeof info->content, "%s", fs);
    return;
  }
  /* Boot code of an unknown file system can look like MBR entries, so
   * volumes are not searched for tables; nor is a disk whose layout ioctl
   * already answered. */
  if (!tables || info->has_partitions) return;
  bool gpt = (n >= 520 && at(b, 512, "EFI PART")) ||
             (n >= 4104 && at(b, 4096, "EFI PART"));
  bool mbr = false;
  if (n >= 512 && b[510] == 0x55 && b[511] == 0xAA)
    for (int i = 0; i < 4; i++)
      if (b[446 + 16 * i + 4] != 0) mbr = true;
  if (gpt || mbr) {
    info->has_partitions = true;
    snprintf(info->content, sizeof info->content, "%s partition table",
             gpt ? "a GPT" : "an MBR");
  }
}

void iospd_win_unknown_data(const unsigned char* b, size_t n,
                            iospd_file_info_t* info) {
  if (info->has_filesystem || info->has_partitions) return;
  for (size_t i = 0; i < n; i++)
    if (b[i] != 0) {
      info->has_filesystem = true;
      snprintf(info->content, sizeof info->content, "%s",
               "data of an unknown kind (the first megabyte is not all "
               "zeros)");
      return;
    }
}

/* Reads want bytes at off through h, looping over partial reads, each
 * read ended by Ctrl-C or the set-up deadline (iospd_win_read_timed): a
 * hung device must not hold the controller's look at it for ever. Returns
 * 0, the Win32 error of a failed read, or ERROR_HANDLE_EOF when the device
 * ended first; *got says how much arrived. *abandoned: b is still the
 * kernel's (never free it). */
static bool probe_abandoned;
static DWORD read_at(HANDLE h, uint64_t off, unsigned char* b, DWORD want,
                     DWORD* got) {
  *got = 0;
  while (*got < want) {
    DWORD n = 0;
    bool abandoned = false;
    DWORD e = iospd_win_read_timed(h, off + *got, b + *got, want - *got, &n,
                                   &abandoned);
    if (abandoned) probe_abandoned = true;
    if (e == ERROR_HANDLE_EOF || (e == 0 && n == 0)) return ERROR_HANDLE_EOF;
    if (e) return e;
    *got += n;
  }
  return 0;
}

DWORD iospd_win_sniff_tail(HANDLE h, unsigned char* b,
                           iospd_file_info_t* info) {
  uint64_t size = info->size;
  uint64_t base = iospd_sniff_tail_base(size);
  if (info->content[0] != '\0' || base == 0) return 0;
  DWORD got = 0;
  DWORD e = read_at(h, base, b, (DWORD)(size - base), &got);
  if (e == 0) iospd_sniff_device_tail(b, got, base, size, info);
  return e;
}

void iospd_win_unreadable(iospd_file_info_t* info, const char* part,
                          DWORD e) {
  info->has_filesystem = true;
  if (e == ERROR_HANDLE_EOF)
    snprintf(info->content, sizeof info->content,
             "unknown content (its %s could be read only in part)", part);
  else
    snprintf(info->content, sizeof info->content,
             "unknown content (reading its %s failed: Win32 error %lu)", part,
             (unsigned long)e);
}

DWORD iospd_win_probe_contents(HANDLE h, bool tables, iospd_file_info_t* info,
                               const char** part) {
  /* 1 MiB, or the whole of a smaller device in whole sectors: a read the
   * device must answer in full. The signatures sit in the first 8 KiB; the
   * rest must be zeros. */
  uint32_t sector = info->logical_sector ? info->logical_sector : 512;
  uint64_t want = IOSPD_SNIFF_BYTES;
  if (info->size != 0 && info->size < want)
    want = info->size / sector * sector;
  *part = "first megabyte";
  if (want == 0) return ERROR_HANDLE_EOF;
  unsigned char* b = VirtualAlloc(NULL, IOSPD_SNIFF_BYTES,
                                  MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
  if (b == NULL) return GetLastError();
  DWORD got = 0;
  DWORD e = read_at(h, 0, b, (DWORD)want, &got);
  /* What did arrive is still looked at: a signature found there names the
   * content better than the failure does. */
  iospd_win_sniff(b, got < 8192 ? got : 8192, tables, info);
  iospd_win_unknown_data(b, got, info);
  if (e == 0) {
    *part = "last megabyte";
    e = iospd_win_sniff_tail(h, b, info);
  }
  /* A read the kernel still holds keeps its buffer (leaked, never freed
   * under it). */
  if (!probe_abandoned) VirtualFree(b, 0, MEM_RELEASE);
  probe_abandoned = false;
  return e;
}

/* Size and sectors of a disk or volume and, when probe is set (the
 * controller's look before a run, once per target), what it holds. Uses
 * its own read handle (the caller's may be write-only or overlapped);
 * falls back to a query-only handle for the ioctls that allow it. Fails
 * closed: a device whose contents cannot be read whole is reported as
 * holding unknown data, never as empty. */
int iospd_win_describe_device(const WCHAR* wpath, const char* path,
                              bool probe, iospd_file_info_t* info,
                              iospd_err_t* err) {
  info->is_device = true; /* even if it cannot be opened */
  /* Overlapped, so that a probe read of a hung device can be cancelled
   * (read_at); iospd_win_ioctl is correct on it. */
  HANDLE h =
      CreateFileW(wpath, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                  OPEN_EXISTING, FILE_FLAG_OVERLAPPED, NULL);
  DWORD open_err = h == INVALID_HANDLE_VALUE ? GetLastError() : 0;
  if (h == INVALID_HANDLE_VALUE)
    h = CreateFileW(wpath, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                    OPEN_EXISTING, 0, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return open_error(err, GetLastError(), path, true);
  allow_extended_dasd(h);
  device_size_and_sectors(h, info);
  if (!probe) {
    CloseHandle(h);
    return 0;
  }

  /* A volume (\\.\X:) forwards the layout ioctl to its disk, whose
   * partition table says nothing about the volume itself. */
  bool volume = wcslen(wpath) == 6 && wpath[5] == L':';
  int style = -1;
  int parts = volume ? 0 : count_partitions(h, &style);
  if (parts > 0) {
    info->has_partitions = true;
    snprintf(info->content, sizeof info->content,
             "%s partition table with %d partition%s",
             style == PARTITION_STYLE_GPT ? "a GPT" : "an MBR", parts,
             parts == 1 ? "" : "s");
  }
  const char* part = "first megabyte";
  DWORD read_err = open_err ? open_err
                            : iospd_win_probe_contents(h, !volume, info, &part);
  if (volume && !info->has_filesystem) {
    /* A mounted file system we have no signature for (UDF, CSVFS, ...):
     * the volume manager knows its name. RAW means none. */
    WCHAR root[4] = {wpath[4], L':', L'\\', 0};
    WCHAR fs[MAX_PATH + 1];
    char fs8[64];
    if (GetVolumeInformationW(root, NULL, 0, NULL, NULL, NULL, fs,
                              (DWORD)IOSPD_ARRAY_SIZE(fs)) &&
        fs[0] != 0 && wcscmp(fs, L"RAW") != 0 &&
        iospd_win_wide_to_utf8(fs, fs8, sizeof fs8) > 0) {
      info->has_filesystem = true;
      snprintf(info->content, sizeof info->content, "a mounted %s file system",
               fs8);
    }
  }
  if (!info->has_filesystem && !info->has_partitions) {
    if (open_err != 0) {
      /* A sharing or reservation conflict, a device not ready, no access:
       * its contents are unknown, and unknown is not empty. */
      info->has_filesystem = true;
      snprintf(info->content, sizeof info->content,
               "unknown content (it cannot be opened for reading: Win32 "
               "error %lu)",
               (unsigned long)open_err);
    } else if (read_err != 0) {
      iospd_win_unreadable(info, part, read_err);
    } else {
      snprintf(info->content, sizeof info->content, "%s",
               "no partition table or file system found");
    }
  }
  CloseHandle(h);
  return 0;
}

int iospd_plat_file_info(iospd_plat_file_t* f, iospd_file_info_t* info,
                         iospd_err_t* err) {
  memset(info, 0, sizeof *info);
  if (f->is_device) {
    /* Size and sectors only: the controller already looked at the
     * contents (iospd_plat_path_info), once, before any worker opened the
     * target; workers do not read it again. */
    int rc = iospd_win_describe_device(f->wpath, f->path, false, info, err);
    if (rc == 0) return 0;
    /* Could not reopen: answer what the handle itself allows. */
    iospd_err_clear(err);
    info->is_device = true;
    device_size_and_sectors(f->h, info);
    return 0;
  }
  LARGE_INTEGER sz;
  if (!GetFileSizeEx(f->h, &sz))
    return iospd_win_err(err, GetLastError(), "cannot get the size of '%s'",
                         f->path);
  info->size = (uint64_t)sz.QuadPart;
  file_sectors(f->h, f->wpath, info);
  return 0;
}

/* A target's UTF-16 path, and whether it is a disk or volume: by its
 * spelling, else by what the file system says of an open handle
 * (target_kind.c), so that the write guard sees every disk and volume
 * whatever its name, and a file stays a file whatever ioctls answer. */
static int resolve_target(const char* path, WCHAR** w, bool* dev,
                          iospd_err_t* err) {
  bool spelled_dev;
  int rc = iospd_win_target_path(path, w, &spelled_dev, err);
  if (rc) return rc;
  *dev = iospd_win_path_is_device(path, *w);
  return 0;
}

int iospd_plat_path_info(const char* path, iospd_file_info_t* info,
                         iospd_err_t* err) {
  memset(info, 0, sizeof *info);
  WCHAR* w;
  bool dev;
  int rc = resolve_target(path, &w, &dev, err);
  if (rc) return rc;
  if (dev) {
    rc = iospd_win_describe_device(w, path, true, info, err);
    iospd_free(w);
    return rc;
  }
  WIN32_FILE_ATTRIBUTE_DATA a;
  if (!GetFileAttributesExW(w, GetFileExInfoStandard, &a)) {
    DWORD e = GetLastError();
    iospd_free(w);
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
      return iospd_err_set_os(err, IOSPD_ENOENT, (int64_t)e,
                              "'%s' does not exist", path);
    return iospd_win_err(err, e, "cannot look at '%s'", path);
  }
  if (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
    iospd_free(w);
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is a directory; a target must be a file, a "
                         "volume (X:) or a physical drive (#N)",
                         path);
  }
  info->size = ((uint64_t)a.nFileSizeHigh << 32) | a.nFileSizeLow;
  /* Sectors from a handle that asks for nothing but attributes, so that
   * neither a writer nor the sharing mode of another opener is in the way;
   * when even that cannot be had, the volume's answer. */
  HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, 0, NULL);
  if (h != INVALID_HANDLE_VALUE) {
    file_sectors(h, w, info);
    CloseHandle(h);
  } else {
    info->logical_sector = info->physical_sector = volume_sector(w);
  }
  iospd_free(w);
  return 0;
}

/* ---- creating and reading files ------------------------------------------ */

/* Creates the missing parent folders of an absolute path ("C:\a\b\f",
 * "\\?\C:\a\f", "\\server\share\a\f", "\\?\UNC\server\share\a\f", as
 * path.c resolves them; the \\?\ forms have no 248-character limit).
 * Returns the first failure for a drive-letter path, the only kind DISKSPD
 * creates parents for (and warns about); 0 otherwise: errors surface at
 * CreateFileW. */
DWORD iospd_win_make_parents(WCHAR* w, bool drive_spelled) {
  size_t start;
  bool drive = drive_spelled; /* written X:\..., not made so by path.c */
  DWORD first = 0;
  if (wcsncmp(w, L"\\\\?\\UNC\\", 8) == 0) {
    /* \\?\UNC\server\share\ */
    drive = false;
    int seps = 0;
    start = 8;
    while (w[start] && seps < 2) {
      if (w[start] == L'\\') seps++;
      start++;
    }
  } else if (wcsncmp(w, L"\\\\?\\", 4) == 0) {
    start = 7; /* \\?\C:\ */
  } else if (w[0] && w[1] == L':' && (w[2] == L'\\' || w[2] == L'/')) {
    start = 3;
  } else if ((w[0] == L'\\' || w[0] == L'/') &&
             (w[1] == L'\\' || w[1] == L'/')) {
    /* UNC: skip \\server\share\ */
    drive = false;
    int seps = 0;
    start = 2;
    while (w[start] && seps < 2) {
      if (w[start] == L'\\' || w[start] == L'/') seps++;
      start++;
    }
  } else {
    return 0; /* not resolved by path.c (cannot happen) */
  }
  for (size_t i = start; w[i]; i++) {
    if (w[i] != L'\\' && w[i] != L'/') continue;
    WCHAR c = w[i];
    w[i] = 0;
    if (!CreateDirectoryW(w, NULL)) {
      DWORD e = GetLastError();
      if (e != ERROR_ALREADY_EXISTS && drive && first == 0) first = e;
    }
    w[i] = c;
  }
  return first;
}

/* -c: create.c. */
int iospd_plat_file_create_ex(const char* path, uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              iospd_err_t* err) {
  iospd_win_create_report_t report;
  return iospd_win_create(path, size, zero_fill, 0, progress, &report, err);
}

/* FSCTL_QUERY_FILE_REGIONS (Windows 10 1607, Server 2016), declared here
 * because mingw-w64's winioctl.h lacks it. */
#ifndef FSCTL_QUERY_FILE_REGIONS
#define FSCTL_QUERY_FILE_REGIONS \
  CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 161, METHOD_BUFFERED, FILE_ANY_ACCESS)
typedef struct {
  LONGLONG FileOffset;
  LONGLONG Length;
  DWORD DesiredUsage;
} FILE_REGION_INPUT;
typedef struct {
  LONGLONG FileOffset;
  LONGLONG Length;
  DWORD Usage;
  DWORD Reserved;
} FILE_REGION_INFO;
typedef struct {
  DWORD Flags;
  DWORD TotalRegionEntryCount;
  DWORD RegionEntryCount;
  DWORD Reserved;
  FILE_REGION_INFO Region[1];
} FILE_REGION_OUTPUT;
#endif
#ifndef FILE_REGION_USAGE_VALID_NONCACHED_DATA
#define FILE_REGION_USAGE_VALID_NONCACHED_DATA 0x00000002
#endif

/* Bytes of [0, eof) a sparse file has allocated (FSCTL_QUERY_ALLOCATED_
 * RANGES, asked again from the last range's end while it answers
 * ERROR_MORE_DATA); false when the file system does not answer. */
static bool allocated_bytes(HANDLE h, uint64_t eof, uint64_t* out) {
  FILE_ALLOCATED_RANGE_BUFFER in, ranges[64];
  uint64_t at = 0, sum = 0;
  while (at < eof) {
    in.FileOffset.QuadPart = (LONGLONG)at;
    in.Length.QuadPart = (LONGLONG)(eof - at);
    DWORD got = 0;
    BOOL ok = DeviceIoControl(h, FSCTL_QUERY_ALLOCATED_RANGES, &in, sizeof in,
                              ranges, sizeof ranges, &got, NULL);
    DWORD e = ok ? ERROR_SUCCESS : GetLastError();
    if (!ok && e != ERROR_MORE_DATA) return false;
    DWORD n = got / sizeof ranges[0];
    for (DWORD i = 0; i < n; i++) {
      uint64_t start = (uint64_t)ranges[i].FileOffset.QuadPart;
      uint64_t end = start + (uint64_t)ranges[i].Length.QuadPart;
      if (end > eof) end = eof;
      if (start < at) start = at;
      if (end > start) sum += end - start;
      at = end > at ? end : at;
    }
    if (e != ERROR_MORE_DATA || n == 0) break;
  }
  *out = sum;
  return true;
}

/* Bytes of [0, eof) below the valid data length, as FSCTL_QUERY_FILE_
 * REGIONS reports them (valid non-cached data: what a read gets from the
 * device); false when the system or file system does not answer. Past
 * the valid data length NTFS returns zeros without reading. */
static bool valid_bytes(HANDLE h, uint64_t eof, uint64_t* out) {
  union {
    FILE_REGION_OUTPUT o;
    unsigned char bytes[sizeof(FILE_REGION_OUTPUT) +
                        63 * sizeof(FILE_REGION_INFO)];
  } buf;
  uint64_t at = 0, sum = 0;
  while (at < eof) {
    FILE_REGION_INPUT in;
    in.FileOffset = (LONGLONG)at;
    in.Length = (LONGLONG)(eof - at);
    in.DesiredUsage = FILE_REGION_USAGE_VALID_NONCACHED_DATA;
    DWORD got = 0;
    if (!DeviceIoControl(h, FSCTL_QUERY_FILE_REGIONS, &in, sizeof in, &buf,
                         sizeof buf, &got, NULL) ||
        got < offsetof(FILE_REGION_OUTPUT, Region))
      return false;
    DWORD n = buf.o.RegionEntryCount;
    DWORD fit = (DWORD)((got - offsetof(FILE_REGION_OUTPUT, Region)) /
                        sizeof(FILE_REGION_INFO));
    if (n > fit) n = fit;
    uint64_t next = eof;
    for (DWORD i = 0; i < n; i++) {
      const FILE_REGION_INFO* r = &buf.o.Region[i];
      uint64_t start = (uint64_t)r->FileOffset;
      uint64_t end = start + (uint64_t)r->Length;
      if (end > eof) end = eof;
      if (start < at) start = at;
      if ((r->Usage & FILE_REGION_USAGE_VALID_NONCACHED_DATA) && end > start)
        sum += end - start;
      next = end;
    }
    /* All regions of the range came back: done. Otherwise ask again
     * from where this answer stopped. */
    if (buf.o.TotalRegionEntryCount <= n || n == 0 || next <= at) break;
    at = next;
  }
  *out = sum;
  return true;
}

/* Never-written ranges of a regular file on Windows: the holes of a
 * sparse file, and the part past the valid data length (a file extended
 * with SetEndOfFile, `fsutil file createnew`, or an interrupted fill);
 * reads of both return zeros without touching the device. A volume or
 * disk target, or a system that answers neither query, is "unknown". */
int iospd_plat_file_unwritten(const char* path, iospd_unwritten_t* out,
                              iospd_err_t* err) {
  (void)err;
  memset(out, 0, sizeof *out);
  WCHAR* w = NULL;
  bool spelled_dev = false;
  iospd_err_t e;
  if (iospd_win_target_path(path, &w, &spelled_dev, &e) != 0) return 0;
  if (spelled_dev) {
    iospd_free(w);
    return 0;
  }
  HANDLE h = CreateFileW(w, GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, 0, NULL);
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE) return 0;
  FILE_STANDARD_INFO si;
  FILE_BASIC_INFO bi;
  if (GetFileInformationByHandleEx(h, FileStandardInfo, &si, sizeof si) &&
      GetFileInformationByHandleEx(h, FileBasicInfo, &bi, sizeof bi) &&
      !si.Directory) {
    uint64_t eof = (uint64_t)si.EndOfFile.QuadPart;
    uint64_t alloc = eof, valid = 0;
    bool sparse_ok = true;
    if (bi.FileAttributes & FILE_ATTRIBUTE_SPARSE_FILE)
      sparse_ok = allocated_bytes(h, eof, &alloc);
    bool valid_ok = valid_bytes(h, eof, &valid);
    if (sparse_ok) out->hole_bytes = eof - alloc;
    if (valid_ok) {
      /* Valid data lies in allocated ranges: what is neither valid nor a
       * hole was allocated and never written. */
      uint64_t invalid = eof - valid;
      out->unwritten_bytes =
          invalid > out->hole_bytes ? invalid - out->hole_bytes : 0;
    }
    /* Holes alone are certain; "all written" needs the valid-data query. */
    out->known = valid_ok || (sparse_ok && out->hole_bytes > 0);
  }
  CloseHandle(h);
  return 0;
}

int iospd_plat_read_file(const char* path, size_t limit, char** data,
                         size_t* len, iospd_err_t* err) {
  *data = NULL;
  *len = 0;
  WCHAR* w;
  int rc = iospd_win_path(path, &w, err);
  if (rc != 0) return rc;
  HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                         NULL, OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN, NULL);
  iospd_free(w);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_err(err, GetLastError(), "cannot open '%s'", path);
  /* No size limit but the caller's: whatever iospd writes (a long -D1
   * run's -Rjson is hundreds of MB) it must read back. A file of known
   * size is read into one buffer of its size; anything else grows one. */
  size_t cap = 4096;
  LARGE_INTEGER size;
  if (GetFileType(h) == FILE_TYPE_DISK && GetFileSizeEx(h, &size)) {
    if (limit == SIZE_MAX &&
        (unsigned long long)size.QuadPart >= (unsigned long long)SIZE_MAX / 2) {
      CloseHandle(h);
      return iospd_err_set(err, IOSPD_ERANGE,
                           "'%s' (%llu bytes) is too large to read in a "
                           "32-bit iospd; use the 64-bit one",
                           path, (unsigned long long)size.QuadPart);
    }
    if ((unsigned long long)size.QuadPart < (unsigned long long)limit)
      cap = (size_t)size.QuadPart + 1; /* +1: EOF is seen without growing */
    else
      cap = limit;
  }
  if (cap > limit) cap = limit;
  size_t n = 0;
  char* buf = iospd_malloc(cap + 1);
  while (n < limit) {
    if (buf == NULL) {
      rc = iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory reading '%s' (%zu bytes)", path, cap);
      break;
    }
    DWORD want = (DWORD)IOSPD_MIN(cap - n, (size_t)CREATE_CHUNK);
    DWORD got = 0;
    if (!ReadFile(h, buf + n, want, &got, NULL)) {
      DWORD e = GetLastError();
      if (e == ERROR_BROKEN_PIPE) break; /* a pipe's end of data */
      rc = iospd_win_err(err, e, "error reading '%s'", path);
      break;
    }
    if (got == 0) break; /* end of file */
    n += got;
    if (n == cap && n < limit) {
      size_t more = cap < SIZE_MAX / 4 ? cap * 2 + 1 : 0;
      if (more > limit) more = limit;
      char* bigger = more > cap ? iospd_realloc(buf, more + 1) : NULL;
      if (bigger == NULL) iospd_free(buf);
      buf = bigger;
      cap = more;
    }
  }
  CloseHandle(h);
  if (rc < 0) {
    iospd_free(buf);
    return rc;
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}
