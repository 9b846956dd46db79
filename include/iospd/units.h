/* SPDX-License-Identifier: MIT */
/* Number parsing and size formatting shared by the command line, the XML
 * profile reader and the reporters. */
#ifndef IOSPD_UNITS_H
#define IOSPD_UNITS_H

#include "iospd/common.h"

/* Parses a DISKSPD size: decimal digits, optional K/M/G/T (binary) or B/b
 * (times block_unit) suffix, case-insensitive. Strict: rejects signs,
 * spaces, junk, overflow. If end is non-NULL, parsing stops at the first
 * character that cannot continue a size and *end points at it (continuation
 * mode); otherwise the whole string must be consumed. Returns 0 or negative
 * IOSPD_E*; *out is written only on success. */
int iospd_parse_size(const char* s, uint64_t block_unit, uint64_t* out,
                     const char** end);

/* The largest file offset (off_t and LARGE_INTEGER are signed 64-bit): the
 * limit for strides and alignments (-T, -s, -r and their XML elements),
 * beyond which the offset arithmetic could only wrap around 2^64. */
#define IOSPD_MAX_OFFSET ((uint64_t)INT64_MAX)

/* Strict unsigned decimal (no suffix) with an upper bound. Whole string. */
int iospd_parse_uint(const char* s, uint64_t max, uint64_t* out);

/* Formats a byte count as DISKSPD does: "64KiB", "1.95MiB", "512". Writes at
 * most n bytes including the NUL; returns buf. */
char* iospd_format_size(uint64_t bytes, char* buf, size_t n);

/* The same with the number right-aligned in width characters; when width > 0
 * a plain byte count also gets 3 spaces for the missing unit, so columns of
 * sizes line up ("     0   ", "  6.40MiB"). Width 0 is iospd_format_size. */
char* iospd_format_size_w(uint64_t bytes, int width, char* buf, size_t n);

#endif
