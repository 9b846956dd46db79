/* SPDX-License-Identifier: MIT */
/* --verify and --verify-only (docs/verify.md): a header and a crc32 in every
 * written block, a state file that remembers per block the generation last
 * written, and the check of every block read back.
 *
 * Block i of a target is the -b bytes at offset i * -b. Its first 64 bytes
 * are the header (little-endian):
 *     0  magic "IOSPDVB1"          8  crc32 of the whole block, this field
 *    12  version 1 (u16)               read as zero (iospd_crc32)
 *    14  header size 64 (u16)     16  target id (the state file's)
 *    24  offset of the block      32  generation
 *    40  the run's seed (-z)      44  block size
 *    48  time stamp (ns since 1970 UTC)
 *    56  writer thread            60  reserved (0)
 * and every further 512-byte sector of the block starts with the generation
 * (8 bytes), so a block made of two writes (torn) tells itself apart from
 * one whose bits changed (bad checksum).
 *
 * The state file (<target>.iospd-verify, or --verify-state=FILE) is mapped
 * shared: a 4096-byte header (iospd_vstate_hdr_t) then one 64-bit word per
 * block (IOSPD_VW_*), so marking a write in flight and completed are memory
 * stores (atomics) on the hot path, and a kill -9 leaves them in the page
 * cache for the next --verify-only. */
#ifndef IOSPD_VERIFY_H
#define IOSPD_VERIFY_H

#include <stdatomic.h>

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/platform.h"

#include "iospd/crc32.h"
#include "iospd/vblock_layout.h"
#include "iospd/vcounts.h"

/* ---- the per-block state word ------------------------------------------
 * bits  0..39 hi: generation of the last completed write (0: none)
 * bits 40..51 in-flight writes; IOSPD_VW_DEAD = a write was in flight when
 *             the run that issued it ended without completing it
 * bit  52     overlap: writes of this block overlapped in time, so any
 *             generation in [lo, hi] may be the one on the medium
 * bits 53..62 gap: lo = hi + 1 - gap (IOSPD_VW_GAP_ANY: any up to hi)
 * bit  63     episode: the writes in flight now overlap each other (their
 *             completions widen [lo, hi]); a write issued alone clears it
 *             and leaves overlap and gap describing the medium until it
 *             completes (or is cancelled) */
#define IOSPD_VW_GEN_MASK ((UINT64_C(1) << 40) - 1)
#define IOSPD_VW_FLIGHT_SHIFT 40
#define IOSPD_VW_FLIGHT_MASK UINT64_C(0xfff)
#define IOSPD_VW_DEAD IOSPD_VW_FLIGHT_MASK
#define IOSPD_VW_OVERLAP (UINT64_C(1) << 52)
#define IOSPD_VW_GAP_SHIFT 53
#define IOSPD_VW_GAP_ANY UINT64_C(0x3ff)
#define IOSPD_VW_EPISODE (UINT64_C(1) << 63)

static inline uint64_t iospd_vw_hi(uint64_t w) { return w & IOSPD_VW_GEN_MASK; }
static inline uint64_t iospd_vw_flight(uint64_t w) {
  return (w >> IOSPD_VW_FLIGHT_SHIFT) & IOSPD_VW_FLIGHT_MASK;
}
/* A write was issued and has not completed (or never will). */
static inline bool iospd_vw_busy(uint64_t w) { return iospd_vw_flight(w) != 0; }
/* The lowest acceptable generation. */
uint64_t iospd_vw_lo(uint64_t w);

/* Hot path: before a write of the block is submitted. Returns the
 * generation to stamp (unique in the target, increasing in time). */
uint64_t iospd_vw_issue_write(_Atomic uint64_t* e, _Atomic uint64_t* next_gen);
/* Hot path: at its completion. A failed write stays "in flight" for good:
 * what is on the medium is not known. */
void iospd_vw_complete_write(_Atomic uint64_t* e, uint64_t gen, bool ok);
/* A write marked by iospd_vw_issue_write that was never handed to the OS
 * (the run stopped first): its in-flight mark goes, nothing else changes. */
void iospd_vw_cancel_write(_Atomic uint64_t* e);

/* ---- the state file -------------------------------------------------- */

#define IOSPD_VSTATE_HDR 4096u
typedef struct iospd_vstate_hdr_s {
  char magic[8];      /* "IOSPDVS1" once complete */
  uint32_t version;   /* 1 */
  uint32_t block_size;
  uint64_t block_count;
  uint64_t target_id; /* random: stamped into every header */
  uint64_t created_ns;
  char target[256];   /* the path as given, for messages */
  _Alignas(64) _Atomic uint64_t next_gen; /* last generation handed out */
} iospd_vstate_hdr_t;

typedef struct iospd_vstate_s {
  iospd_plat_map_t* map;
  iospd_vstate_hdr_t* hdr;
  _Atomic uint64_t* words; /* block_count entries */
  uint64_t block_count;
  uint32_t block_size;
  uint64_t target_id;
  uint64_t dead; /* blocks found in flight at open (a killed run) */
  bool remade_empty; /* an empty file under the default name was made a
                        state file (no history was in it) */
  char* path; /* owned: the state file's path as opened */
} iospd_vstate_t;

/* "<target>.iospd-verify", or the override, allocated (free with
 * iospd_free); NULL when out of memory. No length limit. */
char* iospd_vstate_path(const char* target, const char* override_path);
/* The state file a run uses: the override, or iospd_vstate_path of the
 * target, a symbolic link followed to its file (iospd_plat_final_path), so
 * every symbolic link to a file shares its state. A hard link is another
 * name of the file in its own right: it gets its own default state file
 * (the target lock refuses two runs on one file at once; give
 * --verify-state=FILE to share one state between the names). */
char* iospd_vstate_default_path(const char* target, const char* override_path);
/* Opens the state of a target of target_size bytes with -b block_size.
 * create: make it when absent (a --verify run); else it must exist
 * (--verify-only). named: the path came from --verify-state=FILE (an empty
 * file there is refused; under the default name it is made a state file,
 * remade_empty). An existing file is used only if it is a whole state file
 * (iospd_vstate_check) and is never truncated or resized; a new one is
 * built under a temporary name and published without replacing anything
 * (another run that published first: its file is opened). A state made for
 * another -b or size is refused (IOSPD_EUSAGE, saying what to do). A
 * --verify run (create) turns blocks a dead run left in flight into
 * IOSPD_VW_DEAD. seed feeds the target id. */
int iospd_vstate_open(iospd_vstate_t* s, const char* state_path,
                      const char* target, uint64_t target_size,
                      uint32_t block_size, bool create, bool named,
                      uint64_t seed, iospd_err_t* err);
/* Whether len bytes at addr are a whole state file for -b block_size and a
 * target of `blocks` blocks (create: exactly that many; else any): magic,
 * version, header fields without overflow, and a size that matches the
 * header. 0, or IOSPD_EUSAGE with a message that says what is wrong and
 * what to do. */
int iospd_vstate_check(const void* addr, uint64_t len, const char* path,
                       const char* target, uint32_t block_size,
                       uint64_t blocks, bool create, iospd_err_t* err);
/* Starts an open state afresh in place (-c re-created the target): every
 * word zero, a new target id, generation 0. The magic is cleared first and
 * written last, so a run cut short leaves a file that is refused as "not a
 * state file", never one that looks whole. */
void iospd_vstate_reset(iospd_vstate_t* s, const char* target, uint64_t seed);
int iospd_vstate_flush(iospd_vstate_t* s, iospd_err_t* err);
void iospd_vstate_close(iospd_vstate_t* s);

/* ---- blocks ------------------------------------------------------------ */

typedef struct iospd_vstamp_s {
  uint64_t target_id;
  uint32_t seed;
  uint32_t thread;
} iospd_vstamp_t;

/* Writes the header, sector stamps and crc into a block about to be
 * written. Hot path. */
void iospd_vblock_stamp(uint8_t* buf, uint32_t bs, const iospd_vstamp_t* st,
                        uint64_t offset, uint64_t gen, uint64_t time_ns);
/* Checks a block read at offset against its state word w (taken when the
 * read was issued; the caller has already skipped busy and untracked
 * words). Fills f (kind, expected, found) on a failure. Hot path. */
iospd_vkind_t iospd_vblock_check(const uint8_t* buf, uint32_t bs,
                                 uint64_t target_id, uint64_t offset,
                                 uint64_t w, iospd_vfail_t* f);
/* Classifies a read against the word at issue (w0) and now (w1): untracked,
 * in flight, or iospd_vblock_check's answer. */
iospd_vkind_t iospd_vblock_judge(const uint8_t* buf, uint32_t bs,
                                 uint64_t target_id, uint64_t offset,
                                 uint64_t w0, uint64_t w1, iospd_vfail_t* f);

/* One line: "target 'x' offset N (block i): torn block: expected generation
 * 5, found 4 in sector 3"-like wording. */
struct iospd_strbuf_s;
void iospd_vfail_format(struct iospd_strbuf_s* sb, const iospd_vfail_t* f,
                        const char* target_path);

/* ---- --verify-only ----------------------------------------------------- */

typedef struct iospd_vonly_target_s {
  const char* path;    /* borrowed from the profile */
  uint64_t start, end; /* byte range read */
  uint64_t blocks;     /* blocks read */
  iospd_vcounts_t counts;
  /* Read to the end and every block judged. False when the pass could not
   * start (no state, state in use, target unreadable) or stopped early:
   * then the counts are no pass, whatever they say. */
  bool complete;
} iospd_vonly_target_t;

typedef struct iospd_vonly_s {
  iospd_vonly_target_t* targets; /* one per distinct target path */
  uint32_t target_count;
  iospd_vfail_t* fails;          /* the first ones, up to the cap */
  uint32_t fail_count, fail_cap;
  const char* engine;            /* the queue's engine name */
  /* The profile the controller ran (one thread per distinct target);
   * owned, freed by iospd_vonly_free. */
  struct iospd_profile_s* run_profile;
} iospd_vonly_t;

struct iospd_run_hooks_s;
struct iospd_results_s;
/* Reads every target of the profile once, in -b blocks over the -B/-f
 * range, -o reads in flight, with the cache mode and engine asked for, and
 * checks each block against its state file: the controller runs the
 * verify-only workload (iospd_workload_vonly), one thread per distinct
 * target, with -v, -P, the -y events and Ctrl-C as in any run. Progress
 * lines go to hooks->message about once a second per target. res is the
 * run's results tree (res->sys filled by iospd_plat_init; the caller
 * frees it as after iospd_run). Returns 0 (failures are in out), or a
 * negative IOSPD_E*, the first target in profile order that could not be
 * checked (the others are checked all the same). */
int iospd_verify_only(const struct iospd_profile_s* p,
                      const struct iospd_run_hooks_s* hooks,
                      struct iospd_results_s* res, iospd_vonly_t* out,
                      iospd_err_t* err);
void iospd_vonly_free(iospd_vonly_t* v);

#endif
