/* SPDX-License-Identifier: MIT */
/* Reading the answers of IOCTL_STORAGE_QUERY_PROPERTY for the environment
 * fingerprint (envinfo.c): the bus type names, and the strings of a
 * STORAGE_DEVICE_DESCRIPTOR. Pure functions over bytes, unit-tested with
 * crafted descriptors (tests/test_env_win.c). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "win/internal.h"

#include <winioctl.h>

const char* iospd_win_bus_name(unsigned bus_type) {
  /* STORAGE_BUS_TYPE (winioctl.h); the numbers are the documented values,
   * so older headers without the newer names still compile. */
  static const char* const names[] = {
      "",                      /* 0x00 BusTypeUnknown */
      "SCSI",                  /* 0x01 */
      "ATAPI",                 /* 0x02 */
      "ATA",                   /* 0x03 */
      "IEEE 1394",             /* 0x04 */
      "SSA",                   /* 0x05 */
      "Fibre Channel",         /* 0x06 */
      "USB",                   /* 0x07 */
      "RAID",                  /* 0x08 */
      "iSCSI",                 /* 0x09 */
      "SAS",                   /* 0x0A */
      "SATA",                  /* 0x0B */
      "SD",                    /* 0x0C */
      "MMC",                   /* 0x0D */
      "virtual",               /* 0x0E BusTypeVirtual (VHD, Hyper-V) */
      "file-backed virtual",   /* 0x0F BusTypeFileBackedVirtual */
      "Storage Spaces",        /* 0x10 */
      "NVMe",                  /* 0x11 */
      "SCM",                   /* 0x12 storage class memory */
      "UFS",                   /* 0x13 */
      "NVMe-oF",               /* 0x14 */
  };
  return bus_type < sizeof names / sizeof names[0] ? names[bus_type] : "";
}

void iospd_win_trim_ascii(char* s) {
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  s[n] = '\0';
  size_t i = 0;
  while (s[i] == ' ' || s[i] == '\t') i++;
  if (i > 0) memmove(s, s + i, n - i + 1);
}

bool iospd_win_desc_string(const void* buf, size_t len, uint32_t offset,
                           char* out, size_t size) {
  if (size == 0) return false;
  out[0] = '\0';
  /* 0: the device has no such string. An offset at or past the end (a
   * short answer, a bad driver) is treated the same. */
  if (offset == 0 || offset >= len) return false;
  const unsigned char* p = (const unsigned char*)buf + offset;
  size_t room = len - offset, n = 0;
  for (size_t i = 0; i < room && p[i] != 0 && n + 1 < size; i++) {
    /* ASCII by contract; anything else would not be valid UTF-8 in a
     * report, so it becomes '?'. */
    out[n++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
  }
  out[n] = '\0';
  iospd_win_trim_ascii(out);
  return out[0] != '\0';
}

void iospd_win_parse_device_descriptor(const void* buf, size_t len,
                                       iospd_env_target_t* t) {
  STORAGE_DEVICE_DESCRIPTOR d;
  /* Everything up to and with BusType must have come back. */
  size_t need = offsetof(STORAGE_DEVICE_DESCRIPTOR, BusType) + sizeof d.BusType;
  if (len < need) return;
  memset(&d, 0, sizeof d);
  memcpy(&d, buf, len < sizeof d ? len : sizeof d);
  /* Size is the whole descriptor; strings beyond it (or beyond what was
   * returned) are not there. */
  if (d.Size >= need && d.Size < len) len = d.Size;
  char vendor[64], product[96];
  iospd_win_desc_string(buf, len, d.VendorIdOffset, vendor, sizeof vendor);
  iospd_win_desc_string(buf, len, d.ProductIdOffset, product, sizeof product);
  if (vendor[0] != '\0' && product[0] != '\0')
    snprintf(t->model, sizeof t->model, "%s %s", vendor, product);
  else
    snprintf(t->model, sizeof t->model, "%s", vendor[0] ? vendor : product);
  iospd_win_desc_string(buf, len, d.ProductRevisionOffset, t->firmware,
                        sizeof t->firmware);
  snprintf(t->bus, sizeof t->bus, "%s",
           iospd_win_bus_name((unsigned)d.BusType));
}
