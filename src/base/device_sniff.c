/* SPDX-License-Identifier: MIT */
/* What a disk or volume holds, from bytes read off its start and its end:
 * partition tables, file system and volume manager signatures, or unknown
 * non-zero data. Pure byte inspection, shared by both platforms, so that the
 * write guard refuses the same disks everywhere; the platform reads the
 * bytes. */
#include "iospd/device_sniff.h"

#include <stdio.h>
#include <string.h>

static bool has_bytes(const uint8_t* buf, size_t len, size_t off,
                      const char* sig, size_t n) {
  return off + n <= len && memcmp(buf + off, sig, n) == 0;
}

static uint32_t le32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static void add_content(iospd_file_info_t* info, const char* what) {
  size_t used = strlen(info->content);
  snprintf(info->content + used, sizeof info->content - used, "%s%s",
           used > 0 ? " and " : "", what);
}

/* md RAID super block magic 0xa92b4efc, little-endian. */
#define MD_MAGIC "\xfc\x4e\x2b\xa9"
/* bcache: the magic in the super block at 4 KiB, 24 bytes in. */
#define BCACHE_MAGIC \
  "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81"

/* A ZFS vdev label: its uberblock array (128 KiB into the label) holds
 * uberblocks starting with 0x00bab10c in either byte order, at least 1 KiB
 * apart. */
static bool zfs_label(const uint8_t* buf, size_t len, size_t label) {
  for (size_t off = label + 128 * 1024; off < label + 256 * 1024;
       off += 1024)
    if (has_bytes(buf, len, off, "\x0c\xb1\xba\x00\x00\x00\x00\x00", 8) ||
        has_bytes(buf, len, off, "\x00\x00\x00\x00\x00\xba\xb1\x0c", 8))
      return true;
  return false;
}

static bool all_zero(const uint8_t* buf, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (buf[i] != 0) return false;
  return true;
}

void iospd_sniff_device_head(const uint8_t* buf, size_t len,
                             iospd_file_info_t* info) {
  info->has_filesystem = false;
  info->has_partitions = false;
  info->content[0] = '\0';

  /* File systems and other data first: a FAT or NTFS boot sector also ends
   * in 0x55AA and must not be mistaken for an MBR. */
  bool boot_sector_fs = false;
  const char* fs = NULL;
  if (len >= 1024 + 0x68 && buf[1080] == 0x53 && buf[1081] == 0xEF) {
    /* ext2/3/4 super block at 1024: tell them apart by feature bits. */
    uint32_t compat = le32(buf + 1024 + 0x5C);
    uint32_t incompat = le32(buf + 1024 + 0x60);
    if (incompat & (0x40u | 0x80u | 0x200u)) /* extents, 64bit, flex_bg */
      fs = "an ext4 file system";
    else if (compat & 0x4u) /* has_journal */
      fs = "an ext3 file system";
    else
      fs = "an ext2 file system";
  } else if (has_bytes(buf, len, 0, "XFSB", 4)) {
    fs = "an XFS file system";
  } else if (has_bytes(buf, len, 65600, "_BHRfS_M", 8)) {
    fs = "a btrfs file system";
  } else if (has_bytes(buf, len, 3, "NTFS    ", 8)) {
    fs = "an NTFS file system";
    boot_sector_fs = true;
  } else if (has_bytes(buf, len, 3, "EXFAT   ", 8)) {
    fs = "an exFAT file system";
    boot_sector_fs = true;
  } else if (has_bytes(buf, len, 82, "FAT32   ", 8)) {
    fs = "a FAT32 file system";
    boot_sector_fs = true;
  } else if (has_bytes(buf, len, 54, "FAT16   ", 8) ||
             has_bytes(buf, len, 54, "FAT12   ", 8) ||
             has_bytes(buf, len, 54, "FAT     ", 8)) {
    fs = "a FAT file system";
    boot_sector_fs = true;
  } else if (has_bytes(buf, len, 0, "LUKS\xba\xbe", 6)) {
    fs = "a LUKS encrypted volume";
  } else if (has_bytes(buf, len, 536, "LVM2 001", 8)) {
    fs = "an LVM physical volume";
  } else if (has_bytes(buf, len, 32769, "CD001", 5)) {
    fs = "an ISO 9660 file system";
  } else if (has_bytes(buf, len, 0, MD_MAGIC, 4) ||
             has_bytes(buf, len, 4096, MD_MAGIC, 4)) {
    fs = "an md RAID member"; /* super block 1.1 at 0, 1.2 at 4 KiB */
  } else if (has_bytes(buf, len, 4096 + 24, BCACHE_MAGIC, 16)) {
    fs = "a bcache device";
  } else if (has_bytes(buf, len, 1024, "\x10\x20\xf5\xf2", 4)) {
    fs = "an f2fs file system"; /* 0xF2F52010 at 1 KiB */
  } else if (zfs_label(buf, len, 0) || zfs_label(buf, len, 256 * 1024)) {
    fs = "a ZFS pool member";
  } else {
    /* The swap header sits at the end of the first page, whatever the page
     * size of the machine that wrote it was. */
    static const size_t pages[] = {4096, 8192, 16384, 65536};
    for (size_t i = 0; i < IOSPD_ARRAY_SIZE(pages) && fs == NULL; i++)
      if (has_bytes(buf, len, pages[i] - 10, "SWAPSPACE2", 10) ||
          has_bytes(buf, len, pages[i] - 10, "SWAP-SPACE", 10))
        fs = "swap space";
  }

  if (has_bytes(buf, len, 512, "EFI PART", 8)) {
    info->has_partitions = true;
    add_content(info, "a GPT partition table");
  } else if (!boot_sector_fs && len >= 512 && buf[510] == 0x55 &&
             buf[511] == 0xAA) {
    info->has_partitions = true;
    add_content(info, "an MBR partition table");
  }
  if (fs != NULL) {
    info->has_filesystem = true;
    add_content(info, fs);
  }
  /* The list of signatures can never be complete (RAID metadata, caches,
   * databases on raw disks...): anything that is not all zeros is data. */
  if (info->content[0] == '\0' && !all_zero(buf, len)) {
    info->has_filesystem = true;
    add_content(info,
                "data of an unknown kind (the first megabyte is not all "
                "zeros)");
  }
}

uint64_t iospd_sniff_tail_base(uint64_t dev_size) {
  if (dev_size <= IOSPD_SNIFF_BYTES) return 0;
  /* Rounded up, so the read (at most IOSPD_SNIFF_BYTES) ends at the end. */
  return (dev_size - IOSPD_SNIFF_BYTES + 4095u) / 4096u * 4096u;
}

void iospd_sniff_device_tail(const uint8_t* buf, size_t len, uint64_t base,
                             uint64_t dev_size, iospd_file_info_t* info) {
  if (info->content[0] != '\0' || len == 0) return;
  const char* what = NULL;
  bool table = false;
  /* md 1.0: 8 KiB before the end, rounded down to 4 KiB. md 0.90: the last
   * 64 KiB-aligned 64 KiB block. */
  uint64_t md10 = dev_size >= 16 * 512 ? ((dev_size / 512 - 16) & ~7ull) * 512
                                       : UINT64_MAX;
  uint64_t md090 = dev_size >= 128 * 1024
                       ? (dev_size & ~0xffffull) - 64 * 1024
                       : UINT64_MAX;
  uint64_t at[] = {md10, md090};
  for (size_t i = 0; i < 2 && what == NULL; i++)
    if (at[i] != UINT64_MAX && at[i] >= base &&
        has_bytes(buf, len, (size_t)(at[i] - base), MD_MAGIC, 4))
      what = "an md RAID member";
  /* The backup GPT header is the last logical sector (512 or 4096). */
  static const uint64_t sectors[] = {512, 4096};
  for (size_t i = 0; i < 2 && what == NULL; i++)
    if (dev_size >= sectors[i] && dev_size - sectors[i] >= base &&
        has_bytes(buf, len, (size_t)(dev_size - sectors[i] - base),
                  "EFI PART", 8)) {
      what = "a GPT partition table";
      table = true;
    }
  if (what != NULL) {
    if (table)
      info->has_partitions = true;
    else
      info->has_filesystem = true;
    add_content(info, what);
  } else if (!all_zero(buf, len)) {
    info->has_filesystem = true;
    add_content(info,
                "data of an unknown kind (the last megabyte is not all "
                "zeros)");
  }
}
