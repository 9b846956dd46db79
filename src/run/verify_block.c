/* SPDX-License-Identifier: MIT */
/* --verify blocks: the header and sector stamps written into a block, the
 * check of a block read back, the per-block state word's updates, and the
 * wording of a failure (iospd/verify.h, docs/verify.md). */
#include <string.h>

#include "iospd/strbuf.h"
#include "iospd/verify.h"

static const char k_magic[8] = {'I', 'O', 'S', 'P', 'D', 'V', 'B', '1'};

/* ---- little-endian fields ------------------------------------------------ */

static void put16(uint8_t* p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static uint64_t get64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* ---- the state word -------------------------------------------------- */

static uint64_t gap_of(uint64_t w) {
  return (w >> IOSPD_VW_GAP_SHIFT) & IOSPD_VW_GAP_ANY;
}

uint64_t iospd_vw_lo(uint64_t w) {
  uint64_t hi = iospd_vw_hi(w);
  if (!(w & IOSPD_VW_OVERLAP)) return hi;
  uint64_t gap = gap_of(w);
  if (gap == IOSPD_VW_GAP_ANY || gap > hi) return 1;
  return hi + 1 - gap;
}

static uint64_t with_flight(uint64_t w, uint64_t f) {
  return (w & ~(IOSPD_VW_FLIGHT_MASK << IOSPD_VW_FLIGHT_SHIFT)) |
         (f << IOSPD_VW_FLIGHT_SHIFT);
}

uint64_t iospd_vw_issue_write(_Atomic uint64_t* e, _Atomic uint64_t* next_gen) {
  uint64_t old = atomic_load_explicit(e, memory_order_relaxed), nw;
  do {
    uint64_t f = iospd_vw_flight(old);
    if (f == 0 || f == IOSPD_VW_DEAD) {
      /* Alone: a fresh write whose completion will say exactly what is on
       * the medium (a dead run's write is replaced). Overlap and gap keep
       * describing the medium until then: a cancel puts the word back. */
      nw = with_flight(old & ~IOSPD_VW_EPISODE, 1);
    } else {
      /* Another write of this block is in flight: either may land last.
       * The episode accepts what was written after hi (lo = hi + 1). */
      if (f + 1 >= IOSPD_VW_DEAD) f = IOSPD_VW_DEAD - 2; /* saturate */
      nw = with_flight(old, f + 1);
      if (!(old & IOSPD_VW_EPISODE))
        nw = (nw & ~(IOSPD_VW_GAP_ANY << IOSPD_VW_GAP_SHIFT)) |
             IOSPD_VW_OVERLAP | IOSPD_VW_EPISODE;
    }
  } while (!atomic_compare_exchange_weak_explicit(
      e, &old, nw, memory_order_acq_rel, memory_order_relaxed));
  /* Taken after the mark: a write that completed before it has a smaller
   * generation, so hi only grows for writes that do not overlap. */
  return atomic_fetch_add_explicit(next_gen, 1, memory_order_relaxed) + 1;
}

void iospd_vw_complete_write(_Atomic uint64_t* e, uint64_t gen, bool ok) {
  if (!ok) return; /* stays in flight: the medium's content is unknown */
  gen &= IOSPD_VW_GEN_MASK;
  uint64_t old = atomic_load_explicit(e, memory_order_relaxed), nw;
  do {
    uint64_t f = iospd_vw_flight(old);
    uint64_t nf = f > 0 && f != IOSPD_VW_DEAD ? f - 1 : 0;
    if (!(old & IOSPD_VW_EPISODE)) {
      nw = with_flight(gen, nf); /* exact: overlap and gap cleared */
    } else {
      uint64_t lo = iospd_vw_hi(old) + 1;
      uint64_t gap = gap_of(old);
      if (gap != 0) lo = iospd_vw_lo(old);
      uint64_t hi = iospd_vw_hi(old) > gen ? iospd_vw_hi(old) : gen;
      uint64_t ngap = hi + 1 - lo;
      if (gap == IOSPD_VW_GAP_ANY || ngap >= IOSPD_VW_GAP_ANY)
        ngap = IOSPD_VW_GAP_ANY;
      nw = with_flight(hi, nf) | IOSPD_VW_OVERLAP | IOSPD_VW_EPISODE |
           (ngap << IOSPD_VW_GAP_SHIFT);
    }
  } while (!atomic_compare_exchange_weak_explicit(
      e, &old, nw, memory_order_acq_rel, memory_order_relaxed));
}

void iospd_vw_cancel_write(_Atomic uint64_t* e) {
  uint64_t old = atomic_load_explicit(e, memory_order_relaxed), nw;
  do {
    uint64_t f = iospd_vw_flight(old);
    if (f == 0 || f == IOSPD_VW_DEAD) return;
    nw = with_flight(old, f - 1);
  } while (!atomic_compare_exchange_weak_explicit(
      e, &old, nw, memory_order_acq_rel, memory_order_relaxed));
}

/* ---- blocks ------------------------------------------------------------ */

void iospd_vblock_stamp(uint8_t* b, uint32_t bs, const iospd_vstamp_t* st,
                        uint64_t offset, uint64_t gen, uint64_t time_ns) {
  memcpy(b, k_magic, 8);
  put32(b + 8, 0);
  put16(b + 12, 1);
  put16(b + 14, IOSPD_VHDR_SIZE);
  put64(b + 16, st->target_id);
  put64(b + 24, offset);
  put64(b + 32, gen);
  put32(b + 40, st->seed);
  put32(b + 44, bs);
  put64(b + 48, time_ns);
  put32(b + 56, st->thread);
  put32(b + 60, 0);
  for (uint32_t s = IOSPD_VSECTOR; s + 8 <= bs; s += IOSPD_VSECTOR)
    put64(b + s, gen);
  put32(b + 8, iospd_crc32(0, b, bs));
}

/* The crc of the block with its crc field read as zero: the header from a
 * copy with the field cleared, then the rest; both pieces are whole
 * 16-byte multiples for the usual block sizes, so the fold does all of it
 * (no byte-wise tail through zlib). */
static uint32_t block_crc(const uint8_t* b, uint32_t bs) {
  uint8_t h[IOSPD_VHDR_SIZE];
  memcpy(h, b, sizeof h);
  memset(h + 8, 0, 4);
  uint32_t c = iospd_crc32(0, h, sizeof h);
  return iospd_crc32(c, b + IOSPD_VHDR_SIZE, bs - IOSPD_VHDR_SIZE);
}

static bool all_zero(const uint8_t* b, uint32_t bs) {
  for (uint32_t i = 0; i < bs; i++)
    if (b[i] != 0) return false;
  return true;
}

/* The first sector whose stamp is not gen (0 if none). */
static uint32_t odd_sector(const uint8_t* b, uint32_t bs, uint64_t gen,
                           uint64_t* found) {
  for (uint32_t s = IOSPD_VSECTOR; s + 8 <= bs; s += IOSPD_VSECTOR) {
    uint64_t g = get64(b + s);
    if (g != gen) {
      *found = g;
      return s / IOSPD_VSECTOR;
    }
  }
  return 0;
}

/* A generation this block can have been written with as far as the state
 * knows: 1 to hi. A flipped high bit or a sector of random bytes gives a
 * number far above it, which tells of damage, not of a second write. */
static bool plausible_gen(uint64_t g, uint64_t hi) {
  return g != 0 && g <= hi;
}

/* A block whose crc fails is a failure, whatever its fields say (they are
 * part of what failed): torn when the header's generation and the odd
 * sector's stamp are both generations the state knows were written, so the
 * block reads as two writes; else a bad checksum. Indeterminate is only
 * for an intact block newer than the state (below) and for the state word
 * saying a write is or was in flight (iospd_vblock_judge). */
static iospd_vkind_t crc_failed(const uint8_t* b, uint32_t bs, uint64_t hi,
                                uint64_t gen, uint32_t stored, uint32_t crc,
                                iospd_vfail_t* f) {
  uint64_t other = 0;
  uint32_t s = odd_sector(b, bs, gen, &other);
  if (s != 0 && plausible_gen(gen, hi) && plausible_gen(other, hi)) {
    f->expected = gen;
    f->found = other;
    f->sector = s;
    return IOSPD_VK_TORN;
  }
  f->expected = stored;
  f->found = crc;
  return IOSPD_VK_CHECKSUM;
}

iospd_vkind_t iospd_vblock_check(const uint8_t* b, uint32_t bs,
                                 uint64_t target_id, uint64_t offset,
                                 uint64_t w, iospd_vfail_t* f) {
  uint64_t hi = iospd_vw_hi(w), lo = iospd_vw_lo(w);
  f->expected = hi;
  f->found = 0;
  f->sector = 0;
  f->found_target_id = 0;
  if (memcmp(b, k_magic, 8) != 0) {
    if (all_zero(b, bs)) return IOSPD_VK_ZEROED;
    f->expected = 0;
    f->found = 0;
    return IOSPD_VK_CHECKSUM; /* no header at all */
  }
  uint64_t gen = get64(b + 32);
  uint32_t stored = get32(b + 8);
  uint32_t crc = block_crc(b, bs);
  if (stored != crc) return crc_failed(b, bs, hi, gen, stored, crc, f);
  uint64_t hoff = get64(b + 24), hid = get64(b + 16);
  if (hoff != offset || hid != target_id) {
    f->expected = offset;
    f->found = hoff;
    f->found_target_id = hid;
    return IOSPD_VK_MISPLACED;
  }
  if (gen < lo) {
    f->found = gen;
    return IOSPD_VK_STALE;
  }
  /* Intact, of this block, and newer than the state's record: written
   * after the state was last saved (a crashed machine loses the state's
   * unsaved pages); it cannot be judged, and it is not a lost write. */
  if (gen > hi) return IOSPD_VK_INFLIGHT;
  return IOSPD_VK_OK;
}

iospd_vkind_t iospd_vblock_judge(const uint8_t* buf, uint32_t bs,
                                 uint64_t target_id, uint64_t offset,
                                 uint64_t w0, uint64_t w1, iospd_vfail_t* f) {
  if (iospd_vw_busy(w0) || w1 != w0) return IOSPD_VK_INFLIGHT;
  if (iospd_vw_hi(w0) == 0) return IOSPD_VK_UNTRACKED;
  return iospd_vblock_check(buf, bs, target_id, offset, w0, f);
}

void iospd_vfail_format(iospd_strbuf_t* sb, const iospd_vfail_t* f,
                        const char* path) {
  iospd_strbuf_appendf(sb, "target '%s' offset %llu (block %llu): %s: ", path,
                       (unsigned long long)f->offset,
                       (unsigned long long)f->block,
                       iospd_vkind_name((iospd_vkind_t)f->kind));
  unsigned long long e = f->expected, n = f->found;
  switch (f->kind) {
    case IOSPD_VK_CHECKSUM:
      if (e == 0 && n == 0)
        iospd_strbuf_appendf(sb, "expected a block header, found none");
      else
        iospd_strbuf_appendf(sb, "expected crc32 0x%08llx (in the header), "
                             "found 0x%08llx", e, n);
      break;
    case IOSPD_VK_STALE:
      iospd_strbuf_appendf(sb, "expected generation %llu, found %llu", e, n);
      break;
    case IOSPD_VK_MISPLACED:
      if (e == n)
        iospd_strbuf_appendf(sb, "expected a block of this target, found "
                             "one of another target (id %016llx)",
                             (unsigned long long)f->found_target_id);
      else
        iospd_strbuf_appendf(sb, "expected offset %llu, found a block "
                             "written for offset %llu", e, n);
      break;
    case IOSPD_VK_ZEROED:
      iospd_strbuf_appendf(sb, "expected generation %llu, found only zeros", e);
      break;
    case IOSPD_VK_TORN:
      iospd_strbuf_appendf(sb, "header of generation %llu, sector %u of "
                           "generation %llu", e, f->sector, n);
      break;
    default:
      break;
  }
}
