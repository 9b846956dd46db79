/* SPDX-License-Identifier: MIT */
/* What a disk or volume holds, judged from its first and last megabyte
 * (src/base/device_sniff.c). The platforms read the bytes; these functions only
 * look at them, so tests feed them crafted images. */
#ifndef IOSPD_DEVICE_SNIFF_H
#define IOSPD_DEVICE_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#include "iospd/platform.h"

/* How many bytes of each end of a device the functions below want: the
 * first MiB holds every known signature, the ZFS labels at 0 and 256 KiB
 * and enough zeros to call a device empty; the last MiB holds backup GPT
 * headers and md 0.90/1.0 super blocks. */
#define IOSPD_SNIFF_BYTES (1024u * 1024u)

/* Looks for partition tables and file system signatures in the first bytes
 * of a device (buf holds len bytes read from offset 0). Sets has_partitions,
 * has_filesystem and content ("a GPT partition table", "an ext4 file
 * system", joined by " and " when several are found; "" when nothing is
 * found, and "data of an unknown kind ..." for non-zero bytes no signature
 * explains). */
void iospd_sniff_device_head(const uint8_t* buf, size_t len,
                             iospd_file_info_t* info);

/* Where to start reading the end of a device of dev_size bytes: the 4 KiB
 * boundary from which at most IOSPD_SNIFF_BYTES reach the very end (a
 * sector-aligned read, as raw devices require). 0 when the device is no
 * larger than that: reading its start already covered it. */
uint64_t iospd_sniff_tail_base(uint64_t dev_size);

/* The same for the end of a device of dev_size bytes: buf holds len bytes
 * read from offset base. Adds "an md RAID member" (0.90 or 1.0 super block)
 * or "a GPT partition table" (the backup header in the last sector), else
 * "data of an unknown kind (the last megabyte is not all zeros)" when any
 * byte is non-zero. Does nothing when info already names content. */
void iospd_sniff_device_tail(const uint8_t* buf, size_t len, uint64_t base,
                             uint64_t dev_size, iospd_file_info_t* info);

#endif
