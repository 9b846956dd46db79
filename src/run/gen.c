/* SPDX-License-Identifier: MIT */
/* The I/O request generator (DISKSPD's offset generation and read/write draw): effective range, the five
 * offset modes, effective -rd distributions and the read/write decision,
 * with DISKSPD's order of random draws so a seed reproduces its sequence. */
#include "iospd/gen.h"

#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "iospd/units.h"

void iospd_gen_shared_reset(iospd_gen_shared_t* s) {
  atomic_store_explicit(&s->next, 0, memory_order_relaxed);
}

iospd_gen_mode_t iospd_gen_mode_of(const iospd_target_t* t) {
  if (t->random_ratio >= 100) return IOSPD_GEN_RANDOM;
  if (t->random_ratio > 0) return IOSPD_GEN_MIXED;
  if (t->parallel_async) return IOSPD_GEN_PARALLEL;
  if (t->interlocked) return IOSPD_GEN_INTERLOCKED;
  return IOSPD_GEN_SEQUENTIAL;
}

static uint64_t round_down(uint64_t v, uint64_t a) { return v - v % a; }

/* Percent ranges (DISKSPD's -rd ranges). Each range is aligned down at both ends; a range
 * left without an aligned offset ("degenerate") gives its IO% to the
 * preceding range when they share an aligned start, else carries it
 * forward to the next placed range (or to the smaller of the two) and
 * finally to the last range, which then reaches the aligned end. */
static uint32_t eff_percent(const iospd_dist_range_t* dist, uint32_t n,
                            uint64_t rel_aligned, uint64_t align,
                            iospd_eff_range_t* out) {
  uint32_t count = 0, carry = 0;
  for (uint32_t i = 0; i < n; i++) {
    const iospd_dist_range_t* r = &dist[i];
    if (r->io_pct == 0) continue; /* a hole: no IO goes there */
    uint64_t b = r->span_base * rel_aligned / 100;
    uint64_t e;
    if (r->span_base + r->span == 100)
      e = rel_aligned; /* do not lose the end in integer division */
    else
      e = b + r->span * rel_aligned / 100;
    e = round_down(e, align);
    if (e < b) {
      /* No aligned offset inside: merge with a degenerate predecessor that
       * starts at the same aligned point, else carry the IO% forward. */
      if (count > 0 && out[count - 1].start == e)
        out[count - 1].io_pct += r->io_pct;
      else
        carry += r->io_pct; /* several degenerate ranges in a row add up */
      continue;
    }
    b = round_down(b, align);
    if (b < e && count > 0 && out[count - 1].start == b) {
      /* The predecessor was degenerate at this same point: it keeps the
       * first aligned unit and this range starts one unit later. */
      b += align;
      out[count - 1].length += align;
      if (b == rel_aligned) {
        carry += r->io_pct;
        continue;
      }
      if (b == e) {
        out[count - 1].io_pct += r->io_pct;
        continue;
      }
    }
    if (carry != 0 && count > 0 && out[count - 1].io_pct < r->io_pct) {
      out[count - 1].io_pct += carry;
      carry = 0;
    }
    out[count].io_base = r->io_base - carry;
    out[count].io_pct = r->io_pct + carry;
    out[count].start = b;
    out[count].length = e - b;
    count++;
    carry = 0;
  }
  if (carry != 0 && count > 0) {
    out[count - 1].io_pct += carry;
    out[count - 1].length = rel_aligned - out[count - 1].start;
  }
  return count;
}

/* Absolute ranges (DISKSPD's -rd ranges): kept as given, the open or overhanging one
 * trimmed to the end; ranges past the end are dropped and the IO% span
 * shrinks accordingly (the rest is renormalised by the draw). */
static uint32_t eff_absolute(const iospd_dist_range_t* dist, uint32_t n,
                             uint64_t rel, uint32_t bs, iospd_eff_range_t* out,
                             uint32_t* span) {
  uint32_t count = 0, used = 0;
  for (uint32_t i = 0; i < n; i++) {
    const iospd_dist_range_t* r = &dist[i];
    if (r->io_pct == 0) continue;
    uint64_t len;
    if (r->span_base >= rel) break;
    if (r->span == 0 || r->span_base + r->span > rel) {
      len = rel - r->span_base;
      if (len < bs) break;
    } else {
      len = r->span;
    }
    out[count].io_base = r->io_base;
    out[count].io_pct = r->io_pct;
    out[count].start = r->span_base;
    out[count].length = len;
    count++;
    used += r->io_pct;
  }
  *span = used;
  return count;
}

uint32_t iospd_gen_effective_dist(iospd_dist_type_t type,
                                  const iospd_dist_range_t* dist,
                                  uint32_t dist_count, uint64_t rel,
                                  uint64_t rel_aligned, uint64_t align,
                                  uint32_t block_size, iospd_eff_range_t* out,
                                  uint32_t* span) {
  *span = 100;
  if (type == IOSPD_DIST_PERCENT)
    return eff_percent(dist, dist_count, rel_aligned, align, out);
  if (type == IOSPD_DIST_ABSOLUTE)
    return eff_absolute(dist, dist_count, rel, block_size, out, span);
  return 0;
}

static uint64_t next_random(iospd_gen_t* g) {
  uint64_t x = iospd_rand64(g->rng);
  x -= x % g->align;
  if (g->dist_count == 0) return x % g->rel_aligned;
  /* Pick the range by a second draw over the IO% span. */
  uint64_t pick = g->dist_span ? iospd_rand64(g->rng) % g->dist_span : 0;
  const iospd_eff_range_t* r = &g->dist[g->dist_count - 1];
  for (uint32_t i = 0; i < g->dist_count; i++) {
    if (pick >= g->dist[i].io_base &&
        pick < (uint64_t)g->dist[i].io_base + g->dist[i].io_pct) {
      r = &g->dist[i];
      break;
    }
  }
  /* DISKSPD divides by the length unguarded; a zero-length range can only
   * take its start. */
  return r->start + (r->length ? x % r->length : 0);
}

static uint64_t next_seq(iospd_gen_t* g) {
  uint64_t o = g->next_seq;
  if (o + g->block_size > g->rel) o = g->thread_base % g->align;
  g->next_seq = o + g->align;
  return o;
}

static uint8_t next_op(iospd_gen_t* g, bool new_type) {
  if (g->write_ratio == 0) return IOSPD_OP_READ;
  if (g->write_ratio >= 100) return IOSPD_OP_WRITE;
  /* Mixed sequential continuations repeat the type of the run. */
  if (g->mode == IOSPD_GEN_MIXED && !new_type) return g->last_op;
  g->last_op =
      iospd_rand_ratio(g->rng, g->write_ratio) ? IOSPD_OP_WRITE : IOSPD_OP_READ;
  return g->last_op;
}

/* Exact sizes for messages: "64KiB" when that is exact, else bytes. */
static const char* msg_size(uint64_t v, char* buf, size_t n) {
  if (v == 0) return "0";
  if (v >= 1024 && v % 1024 == 0) return iospd_format_size(v, buf, n);
  snprintf(buf, n, "%llu bytes", (unsigned long long)v);
  return buf;
}

int iospd_gen_init(iospd_gen_t* g, const iospd_target_t* t, uint32_t rel_thread,
                   uint64_t target_size, iospd_rand_t* rng,
                   iospd_gen_shared_t* shared, iospd_err_t* err) {
  memset(g, 0, sizeof(*g));
  g->rng = rng;
  g->mode = iospd_gen_mode_of(t);
  g->shared = g->mode == IOSPD_GEN_INTERLOCKED ? shared : NULL;
  g->block_size = t->block_size;
  g->write_ratio = t->write_ratio;
  g->random_ratio = t->random_ratio;
  g->base = t->base_offset;
  g->target_size = target_size;
  g->align = iospd_target_align(t);
  if (g->align == 0) g->align = t->block_size ? t->block_size : 1;
  /* A thread start past 2^64 (k x -T) lies beyond any target; it must not
   * wrap around to a small offset and run silently. */
  bool past_2_64 = t->thread_stride != 0 &&
                   rel_thread > UINT64_MAX / t->thread_stride;
  g->thread_base =
      past_2_64 ? UINT64_MAX : (uint64_t)rel_thread * t->thread_stride;
  g->dist_span = 100;

  uint64_t size = target_size;
  if (t->max_file_size != 0 && size > t->max_file_size) size = t->max_file_size;
  /* The start of this thread plus one block must fit (how DISKSPD opens targets). */
  if (t->block_size == 0 || size <= g->base ||
      size - g->base < t->block_size ||
      g->thread_base > size - g->base - t->block_size) {
    char a[32], b[32], c[32], d[32], e[32];
    bool capped = t->max_file_size != 0 && target_size > t->max_file_size;
    return iospd_err_set(
        err, IOSPD_ETOOSMALL,
        "target '%s' is too small for thread %u: its usable range (from "
        "offset %s (-B) to %s, %s) must hold at least one block of %s (-b) "
        "after the thread's offset %s (thread %u x stride -T %s); use a "
        "bigger file (-c), a smaller -b or -T, or a larger -f",
        t->path ? t->path : "", rel_thread, msg_size(g->base, a, sizeof a),
        msg_size(size, b, sizeof b),
        capped ? "limited by -f" : "the end of the target",
        msg_size(t->block_size, c, sizeof c),
        past_2_64 ? "past 2^64 bytes" : msg_size(g->thread_base, d, sizeof d),
        rel_thread,
        msg_size(t->thread_stride, e, sizeof e));
  }
  g->rel = size - g->base;
  g->rel_aligned = round_down(g->rel - t->block_size, g->align) + g->align;

  if (t->dist_type != IOSPD_DIST_NONE && t->dist_count > 0 &&
      (g->mode == IOSPD_GEN_RANDOM || g->mode == IOSPD_GEN_MIXED)) {
    g->dist = iospd_calloc(t->dist_count, sizeof(*g->dist));
    if (g->dist == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM,
                           "out of memory for the distribution of '%s'",
                           t->path ? t->path : "");
    g->dist_count = iospd_gen_effective_dist(
        t->dist_type, t->dist, t->dist_count, g->rel, g->rel_aligned, g->align,
        t->block_size, g->dist, &g->dist_span);
    if (g->dist_count == 0 || g->dist_span == 0) {
      iospd_gen_destroy(g);
      return iospd_err_set(
          err, IOSPD_ETOOSMALL,
          "target '%s' (%llu bytes) is too small for its random "
          "distribution (-rd): no range can take an I/O",
          t->path ? t->path : "", (unsigned long long)target_size);
    }
  }

  /* DISKSPD's Reset(): the cursor, then the initial type draw. */
  if (g->mode == IOSPD_GEN_SEQUENTIAL)
    g->next_seq = g->thread_base;
  else if (g->mode == IOSPD_GEN_MIXED)
    g->next_seq = next_random(g);
  g->last_op = IOSPD_OP_READ;
  (void)next_op(g, true);
  return 0;
}

void iospd_gen_destroy(iospd_gen_t* g) {
  iospd_free(g->dist);
  g->dist = NULL;
  g->dist_count = 0;
}

uint64_t iospd_gen_slot_init(const iospd_gen_t* g) {
  /* Wraps below zero on purpose: the first advance brings it back. */
  return g->thread_base - g->align;
}

void iospd_gen_next(iospd_gen_t* g, uint64_t* slot_cursor, uint8_t* op,
                    uint64_t* offset) {
  uint64_t o;
  bool fresh = false;
  switch (g->mode) {
    case IOSPD_GEN_RANDOM:
      o = next_random(g);
      fresh = true;
      break;
    case IOSPD_GEN_MIXED:
      fresh = iospd_rand_ratio(g->rng, g->random_ratio);
      if (fresh) {
        o = next_random(g);
        g->next_seq = o + g->align;
      } else {
        o = next_seq(g);
      }
      break;
    case IOSPD_GEN_INTERLOCKED:
      if (g->shared != NULL) {
        o = atomic_fetch_add_explicit(&g->shared->next, g->align,
                                      memory_order_relaxed);
        o %= g->rel_aligned;
      } else {
        o = next_seq(g);
      }
      break;
    case IOSPD_GEN_PARALLEL:
      o = *slot_cursor + g->align;
      if (o + g->block_size > g->rel) o = g->thread_base % g->align;
      *slot_cursor = o;
      break;
    case IOSPD_GEN_SEQUENTIAL:
    default:
      o = next_seq(g);
      break;
  }
  *offset = g->base + o;
  *op = next_op(g, fresh);
}
