/* SPDX-License-Identifier: MIT */
/* What --verify found, as the results carry it: the outcome kinds, the
 * per-(thread, target) counts and the first failures (docs/verify.md). On
 * the stats layer, so the results tree (iospd/stats.h) and the reporters
 * hold them without depending on the verify module itself. */
#ifndef IOSPD_VCOUNTS_H
#define IOSPD_VCOUNTS_H

#include "iospd/common.h"

/* What a check found. OK and the skips are not failures. */
typedef enum iospd_vkind {
  IOSPD_VK_OK = 0,
  IOSPD_VK_UNTRACKED,  /* no verified write of this block is known: skipped */
  IOSPD_VK_INFLIGHT,   /* a write of it was in flight (now, or when a run
                          ended without completing it): indeterminate */
  IOSPD_VK_CHECKSUM,   /* bad checksum (or no header where one must be) */
  IOSPD_VK_STALE,      /* intact block of another generation: lost write */
  IOSPD_VK_MISPLACED,  /* intact block written for another offset or target:
                          misdirected write */
  IOSPD_VK_ZEROED,     /* all zero where a verified write completed */
  IOSPD_VK_TORN,       /* sectors of different generations */
  IOSPD_VK_COUNT
} iospd_vkind_t;
#define IOSPD_VK_FIRST_FAILURE IOSPD_VK_CHECKSUM

/* "bad checksum", "stale generation", ... (report words); "ok" etc. */
const char* iospd_vkind_name(iospd_vkind_t k);
/* The JSON/XML key: "badChecksum", "staleGeneration", ... */
const char* iospd_vkind_key(iospd_vkind_t k);

/* Counts of one (thread, target) or of a whole target. */
typedef struct iospd_vcounts_s {
  uint64_t written;          /* blocks written with a header */
  uint64_t kinds[IOSPD_VK_COUNT]; /* reads by outcome; kinds[OK] = checked */
} iospd_vcounts_t;
uint64_t iospd_vcounts_failures(const iospd_vcounts_t* c);
void iospd_vcounts_add(iospd_vcounts_t* dst, const iospd_vcounts_t* src);

/* One failure, as printed. expected/found: generations (stale, torn, and
 * zeroed: expected generation, found 0), offsets (misdirected), crcs (bad
 * checksum). */
typedef struct iospd_vfail_s {
  uint8_t kind;   /* iospd_vkind_t */
  uint32_t target; /* index into the timespan's targets */
  uint64_t offset, block;
  uint64_t expected, found;
  uint64_t found_target_id; /* misdirected: the target id in the header */
  uint32_t sector;          /* torn: the first sector of another write */
  uint8_t repeat;           /* a block already in the list (iospd_vfail_keep) */
} iospd_vfail_t;

/* Keeps failure f in list (*count of cap kept), distinct blocks first: a
 * block not yet in the list goes after the other distinct ones, and when
 * the list is full it takes the place of the last repeat; a repeat is kept
 * only while there is room. So the first failures printed name as many
 * different blocks as there are. Failure path only: a scan of the list, no
 * allocation; O(1) once the list is full of distinct blocks. */
void iospd_vfail_keep(iospd_vfail_t* list, uint32_t* count, uint32_t cap,
                      const iospd_vfail_t* f);

#endif
