/* SPDX-License-Identifier: MIT */
/* The crc32 of --verify blocks and of iospd's own checks (a base
 * primitive: no layer above is needed to compute it). */
#ifndef IOSPD_CRC32_H
#define IOSPD_CRC32_H

#include "iospd/common.h"

/* crc32 as zlib's crc32_z computes it (CRC-32/ISO-HDLC), crc 0 to start.
 * A carry-less multiply (PCLMULQDQ) fold where the x86 CPU has one, zlib's
 * crc32_z elsewhere and for the tail; the tests check both give zlib's
 * value. */
uint32_t iospd_crc32(uint32_t crc, const void* buf, size_t len);
/* zlib's crc32_z itself (for the tests and the README's cost figure). */
uint32_t iospd_crc32_zlib(uint32_t crc, const void* buf, size_t len);
/* True when iospd_crc32 uses the PCLMULQDQ fold on this CPU. */
bool iospd_crc32_accelerated(void);

#endif
