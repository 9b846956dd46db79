/* SPDX-License-Identifier: MIT */
/* The I/O request generator: for one (thread, target) pair, the next
 * operation and offset in DISKSPD's order of random draws (DISKSPD's offset generation; DISKSPD's read/write draw).
 * Pure and deterministic except for -si, whose shared cursor is the one
 * sanctioned write to memory shared between workers. No allocation after
 * iospd_gen_init. */
#ifndef IOSPD_GEN_H
#define IOSPD_GEN_H

#include <stdatomic.h>

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/rand.h"
#include "iospd/stats.h"

typedef enum iospd_gen_mode {
  IOSPD_GEN_SEQUENTIAL = 0, /* -s (default) */
  IOSPD_GEN_RANDOM,         /* -r, -rs100 */
  IOSPD_GEN_MIXED,          /* -rs1..99 */
  IOSPD_GEN_INTERLOCKED,    /* -si */
  IOSPD_GEN_PARALLEL        /* -p: one cursor per request slot */
} iospd_gen_mode_t;

/* The -si cursor of one target for one timespan, shared by every thread
 * using the target. Alone on its cache line so it does not slow down the
 * neighbouring data. Zero it (iospd_gen_shared_reset) before each timespan. */
typedef struct iospd_gen_shared_s {
  _Alignas(IOSPD_CACHELINE) _Atomic uint64_t next;
  char pad[IOSPD_CACHELINE - sizeof(uint64_t)];
} iospd_gen_shared_t;

void iospd_gen_shared_reset(iospd_gen_shared_t* s);

typedef struct iospd_gen_s {
  iospd_rand_t* rng;          /* the thread's generator, borrowed */
  iospd_gen_shared_t* shared; /* -si cursor, borrowed; NULL otherwise */
  iospd_gen_mode_t mode;
  uint32_t block_size;
  uint32_t write_ratio;
  uint32_t random_ratio;
  uint64_t base;           /* -B: offsets below are relative to it */
  uint64_t target_size;    /* size as found at run time */
  uint64_t rel;            /* min(size, max offset) - base: 2.5.1 */
  uint64_t rel_aligned;    /* floor((rel - bs) / A) * A + A */
  uint64_t align;          /* A: stride or alignment, block size if unstated */
  uint64_t thread_base;    /* relative thread * thread stride (-T) */
  uint64_t next_seq;       /* sequential / mixed cursor (relative) */
  uint8_t last_op;         /* IOSPD_OP_*, repeated by mixed sequential runs */
  iospd_eff_range_t* dist; /* effective -rd ranges (owned), or NULL */
  uint32_t dist_count;
  uint32_t dist_span; /* IO% covered by dist (absolute may be < 100) */
} iospd_gen_t;

/* The mode a target runs in (DISKSPD's -r/-s/-rs rules): random ratio 100 -> random, 1..99 ->
 * mixed, else -p -> parallel, -si -> interlocked, otherwise sequential. */
iospd_gen_mode_t iospd_gen_mode_of(const iospd_target_t* t);

/* Sets up g for relative thread rel_thread on a target of target_size bytes:
 * effective range, effective distribution (allocated; free with
 * iospd_gen_destroy), the initial cursor and the initial read/write draw, in
 * DISKSPD's order. rng and shared are borrowed. Fails with IOSPD_ETOOSMALL
 * (message in DISKSPD's words, 2.4) if not even one I/O fits, or
 * IOSPD_ENOMEM. Not for the hot path. */
int iospd_gen_init(iospd_gen_t* g, const iospd_target_t* t, uint32_t rel_thread,
                   uint64_t target_size, iospd_rand_t* rng,
                   iospd_gen_shared_t* shared, iospd_err_t* err);
void iospd_gen_destroy(iospd_gen_t* g);

/* Initial value of a request slot's own cursor (-p): the thread's start
 * minus one stride, so that the first I/O lands on the start. Unused in the
 * other modes but harmless. Result is absolute-free (relative). */
uint64_t iospd_gen_slot_init(const iospd_gen_t* g);

/* Hot path. The next I/O: *op (IOSPD_OP_*) and absolute *offset. slot_cursor
 * is the request slot's own cursor (only -p uses it). RNG call order:
 * offset draw(s), then the read/write draw (DISKSPD's read/write draw). */
void iospd_gen_next(iospd_gen_t* g, uint64_t* slot_cursor, uint8_t* op,
                    uint64_t* offset);

/* Converts stated ranges to effective byte ranges for a target whose
 * aligned relative size is rel_aligned (percent) or relative size rel
 * (absolute), as DISKSPD does for -rd ranges. out must hold dist_count entries;
 * returns the number written and the IO% span in *span. Exposed for tests
 * and for the profile printer. */
uint32_t iospd_gen_effective_dist(iospd_dist_type_t type,
                                  const iospd_dist_range_t* dist,
                                  uint32_t dist_count, uint64_t rel,
                                  uint64_t rel_aligned, uint64_t align,
                                  uint32_t block_size, iospd_eff_range_t* out,
                                  uint32_t* span);

#endif
