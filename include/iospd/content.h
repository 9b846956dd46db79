/* SPDX-License-Identifier: MIT */
/* Generated write content (--compress=PCT, --dedupe=PCT): data that a
 * compressing or deduplicating array treats like real data, built before
 * the run so that filling buffers never limits the run.
 *
 * The pool: blocks of the target's block size, built and measured with zlib
 * (compress2, default level) before the run so that each block's deflate
 * saving is PCT % (within 3 points from 4 KiB blocks up). Every 4 KiB chunk
 * of a block starts with a 16-byte stamp; the rest of the chunk is random
 * bytes (incompressible) followed by a repeated phrase (compressible), in
 * the proportion the calibration found.
 *
 * The writer (one per worker and target; no sharing, no locks): every
 * request slot's write buffer holds a copy of the writer's pool block, made
 * at setup. A write only rewrites the stamps: a unique block gets the
 * writer's next counter, a repeated block a counter it already wrote, which
 * recreates that earlier block byte for byte. Whether a write repeats is
 * decided by a running count (dups * 100 <= writes * PCT), so the share of
 * repeated blocks is exact to within one block (the first is unique), with
 * no random draw taken from the thread's DISKSPD generator. The stamps mix
 * a per-run nonce, the worker, target, counter and chunk through a
 * bijection, so no two unique blocks or 4 KiB chunks are equal, in this run
 * or against an earlier run's data. */
#ifndef IOSPD_CONTENT_H
#define IOSPD_CONTENT_H

#include "iospd/common.h"
#include "iospd/error.h"

#define IOSPD_CONTENT_CHUNK 4096u  /* a stamp every this many bytes */
#define IOSPD_CONTENT_STAMP 16u    /* bytes of each stamp */
#define IOSPD_CONTENT_DEFAULT_POOL (16u << 20) /* bytes, without -Z<size> */
#define IOSPD_CONTENT_MAX_POOL_BLOCKS 64u      /* without -Z<size> */

typedef struct iospd_content_pool_s {
  uint8_t* blocks; /* count * block_size bytes (owned) */
  uint32_t block_size;
  uint32_t count;
  uint32_t compress_pct; /* asked for */
  uint32_t dedupe_pct;
  uint64_t nonce;     /* per run: keeps unique blocks unique across runs */
  double saving_mean; /* measured zlib saving of the pool blocks, percent */
  double saving_min, saving_max;
} iospd_content_pool_t;

/* Builds the pool for blocks of block_size bytes: pool_bytes of content (at
 * least one block; 0 = the default), calibrated to compress_pct, from a
 * generator seeded with seed. 0, IOSPD_ENOMEM or IOSPD_EINVAL (err says
 * why). Takes time (zlib on every block): before the run only. */
int iospd_content_pool_build(iospd_content_pool_t* p, uint32_t block_size,
                             uint64_t pool_bytes, uint32_t compress_pct,
                             uint32_t dedupe_pct, uint64_t seed,
                             uint64_t nonce, iospd_err_t* err);
void iospd_content_pool_free(iospd_content_pool_t* p);

typedef struct iospd_content_writer_s {
  const iospd_content_pool_t* pool;
  uint64_t key_word; /* first stamp word: from the nonce, worker, target */
  uint64_t uniques;  /* unique blocks written so far */
  uint64_t writes, dups;
  uint64_t pick; /* xorshift state: which earlier block to repeat */
} iospd_content_writer_t;

/* Sets up the writer of one worker (id) on one target (index), and copies
 * the writer's pool block into each of the slots' write buffers (slot i at
 * bufs + i * block_size): all slots of a writer share one base block, so
 * any block the writer wrote can be recreated in any slot. */
void iospd_content_writer_init(iospd_content_writer_t* w,
                               const iospd_content_pool_t* pool,
                               uint32_t worker, uint32_t target,
                               uint32_t slots, uint8_t* bufs);

/* Hot path: makes buf (a slot's write buffer) the next block to write,
 * unique or a repeat of one this writer wrote before. Only rewrites the
 * stamps. */
void iospd_content_next(iospd_content_writer_t* w, uint8_t* buf);

#endif
